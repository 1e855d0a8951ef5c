"""The scorebook's tables: leagues, players, games, seats, hands and every card.

A hand is stored card by card: the melds put down (:class:`Meld`), each card on
them and who laid it (:class:`MeldCard`), and the cards each player was left
holding (:class:`StrandedCard`).  :class:`HandScore` caches the referee's score
of each player for the hand; ``flask scorebook verify`` recomputes it from the
cards.  :class:`Change` is the history of every edit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any, Protocol

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    event,
    func,
    inspect,
    text,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import (
    Mapped,
    Mapper,
    Session,
    UOWTransaction,
    mapped_column,
    relationship,
)
from sqlalchemy.sql.elements import ColumnElement

from referee import RuleSet, make_rules
from scorebook.extensions import Model, db

IN_PROGRESS = "in-progress"
FINISHED = "finished"
ABANDONED = "abandoned"
GAME_STATUSES = (IN_PROGRESS, FINISHED, ABANDONED)

#: How a hand ended: someone went out, the stock ran out (500 families), or a
#: draw (Basic Rummy: the stock ran out twice, nobody scores).
WENT_OUT = "out"
STOCK_OUT = "stock"
DRAW = "draw"
HAND_ENDINGS = (WENT_OUT, STOCK_OUT, DRAW)

#: The longest meld id a hand may use (typed melds are named ``<player>-<n>``).
MELD_LABEL_LENGTH = 80


def utcnow() -> datetime:
    return datetime.now(UTC)


# --- the columns' lengths, kept on every database -----------------------------------------
# PostgreSQL refuses a text longer than its column (``varchar(n)`` counts characters);
# SQLite stores it, so a league kept there could hold what it can never move to
# PostgreSQL. Every flush checks the rows it writes against the lengths declared below,
# on both, before any SQL: the same limits, and the same error, everywhere.


class TooLong(ValueError):
    """A text longer than its column holds: ``table``, ``column`` (the column's name),
    ``attribute`` (the model's attribute, which may be named otherwise), its ``length``
    and the ``value`` refused.  Nothing of the flush is written."""

    def __init__(self, table: str, column: str, attribute: str, length: int,
                 value: str) -> None:
        super().__init__(f"{table}.{column} holds at most {length} characters, "
                         f"not {len(value)}")
        self.table, self.column, self.attribute = table, column, attribute
        self.length, self.value = length, value


_LENGTHS: dict[type, list[tuple[str, str, int]]] = {}


def column_lengths(model: type) -> list[tuple[str, str, int]]:
    """``(attribute, column, length)`` of each of ``model``'s text columns with a length."""
    found = _LENGTHS.get(model)
    if found is None:
        mapper: Mapper[Any] = inspect(model)
        found = [(key, column.name, column.type.length)
                 for key, column in mapper.columns.items()
                 if isinstance(column.type, String) and column.type.length]
        _LENGTHS[model] = found
    return found


def check_lengths(session: Session, _context: UOWTransaction, _instances: object) -> None:
    """Before a flush: every new or changed row's texts fit their columns (else
    :class:`TooLong`)."""
    for row in (*session.new, *session.dirty):
        state = row.__dict__
        for attribute, column, length in column_lengths(type(row)):
            value = state.get(attribute)
            if isinstance(value, str) and len(value) > length:
                raise TooLong(type(row).__table__.name, column, attribute, length, value)


event.listen(Session, "before_flush", check_lengths)


class _InsertContext(Protocol):
    """What a column's default function is handed (SQLAlchemy's execution context) and
    what these use of it; SQLAlchemy leaves ``get_current_parameters`` untyped."""

    connection: Connection

    def get_current_parameters(self) -> Mapping[str, Any]: ...


def _next_game_number(context: _InsertContext) -> int:
    """A new game's number when none is given: one after the league's last.  (The
    services give it themselves; this keeps any other insert right.)"""
    league_id = context.get_current_parameters().get("league_id")
    last = context.connection.execute(
        text("SELECT max(number) FROM game WHERE league_id = :league"),
        {"league": league_id}).scalar()
    return int(last or 0) + 1


def _first_hand_version(context: _InsertContext) -> int:
    """A new hand's version when none is given: above its game's mark (see
    :attr:`Game.hand_version_mark`)."""
    game_id = context.get_current_parameters().get("game_id")
    mark = context.connection.execute(
        text("SELECT hand_version_mark FROM game WHERE id = :game"), {"game": game_id}).scalar()
    return int(mark or 0) + 1


class League(Model):
    __tablename__ = "league"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: The owner's password (werkzeug's salted hash); None until the owner sets one.
    password_hash: Mapped[str | None] = mapped_column(String(255))
    #: SHA-256 of the secret in the scorer and the viewer invite link (None: no link).
    #: The secrets themselves are never stored (:mod:`scorebook.services.access`).
    scorer_token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    viewer_token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    #: The ratings (``game_result.mu``/``sigma``) from this ``seq`` on are still to be
    #: replayed (None: all up to date).  Set by a write that changed an early game's
    #: finishing order and cleared by :func:`scorebook.services.ratings.catch_up`.
    ratings_from_seq: Mapped[int | None] = mapped_column(Integer)
    #: Moved on by every write that sets ``ratings_from_seq``, so a catch-up that read
    #: an older marker does not clear a newer one.
    ratings_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: The background job (:class:`Job`) still importing this league: until it seals the
    #: league (sets this back to None) nobody may open it, and its name stays reserved.
    import_job_id: Mapped[int | None] = mapped_column(Integer, index=True)
    #: A new random stamp each time a write changes (or deletes) a finished game of the
    #: league or one that was finished (the commit hook of
    #: :mod:`scorebook.services.ratings`), and the stamp under which the statistics cache
    #: was last found complete (:mod:`scorebook.services.stats.fresh`): equal, the pages
    #: need not look for stale games, and the stamp versions the figures they keep.
    stats_stamp: Mapped[str | None] = mapped_column(String(32))
    stats_seen: Mapped[str | None] = mapped_column(String(32))

    players: Mapped[list[Player]] = relationship(
        back_populates="league", order_by="Player.name"
    )
    games: Mapped[list[Game]] = relationship(back_populates="league")

    def __repr__(self) -> str:
        return f"<League {self.name!r}>"


class EndedMembership(Model):
    """A browser's membership of a league that it ended ("leave this league"): its key
    (kept in that browser's session cookie) no longer opens the league, so a copy of the
    cookie made before leaving does not either (:mod:`scorebook.services.access`).

    It also tells the owner who left and when: the ``role`` the browser held, its
    ``device`` (browser and system) and the ``player`` name it joined as, if it gave one
    (empty in rows from before they were kept)."""

    __tablename__ = "ended_membership"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"),
                                           index=True)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    role: Mapped[str] = mapped_column(String(10), default="", server_default=text("''"))
    device: Mapped[str] = mapped_column(String(80), default="", server_default=text("''"))
    player: Mapped[str] = mapped_column(String(40), default="", server_default=text("''"))


class Player(Model):
    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("league_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: Set when the player left the league: kept in the history, off the new-game roster.
    retired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    league: Mapped[League] = relationship(back_populates="players")

    def __repr__(self) -> str:
        return f"<Player {self.name!r}>"


class Game(Model):
    __tablename__ = "game"
    __table_args__ = (
        CheckConstraint(f"status IN {GAME_STATUSES!r}", name="status"),
        UniqueConstraint("league_id", "number"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    #: The game's number within its league (a family's first game is Game 1): what the
    #: pages call it. URLs use ``id``, which is unique across the whole server.
    number: Mapped[int] = mapped_column(Integer, default=_next_game_number)
    family: Mapped[str] = mapped_column(String(20))
    #: The rule set, frozen when the game starts (``RuleSet.as_dict()``).
    rules_json: Mapped[dict[str, Any]] = mapped_column(JSON)
    target: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20), default=IN_PROGRESS, index=True)
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: Bumped on every change to the game's hands (cache key for the scoreboard).
    revision: Mapped[int] = mapped_column(Integer, default=0)
    #: The finished game this one plays again ("Play again": same players, seats and
    #: rules). Unique: two phones tapping at once start one rematch, not two.
    rematch_of_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="SET NULL"), unique=True)
    #: The highest version a hand of this game had when it gave up its number (deleted,
    #: cancelled, or moved up when an earlier hand was deleted).  A hand that takes a
    #: number starts above it, so the version at each number only ever grows: a phone
    #: still holding (number, version) of a hand that went can never match another.
    hand_version_mark: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    league: Mapped[League] = relationship(back_populates="games")
    winner: Mapped[Player | None] = relationship()
    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.number", cascade="all, delete-orphan"
    )

    #: Optimistic locking: every UPDATE of a game says ``WHERE revision = <as read>``, so
    #: two phones changing one game at once cannot both win (the loser's change raises
    #: StaleDataError, shown as a conflict).  The services bump ``revision`` themselves.
    __mapper_args__ = {"version_id_col": revision, "version_id_generator": False}

    @property
    def rules(self) -> RuleSet:
        """The frozen rule set (stored whole, so later changes to the family
        defaults never change a game already played)."""
        return RuleSet(**self.rules_json)

    @property
    def rules_spec(self) -> dict[str, Any]:
        """The rule set as the API takes it: the family and the options that differ
        from the family's defaults."""
        defaults = make_rules(self.family).as_dict()
        return {k: v for k, v in self.rules_json.items()
                if k == "family" or defaults.get(k) != v}

    @property
    def rules_text(self) -> str:
        return json.dumps(self.rules_spec, sort_keys=True)

    @property
    def players(self) -> list[Player]:
        return [seat.player for seat in self.seats]

    @property
    def first_dealer(self) -> int:
        """The seat position that dealt hand 1."""
        return next((s.position for s in self.seats if s.first_dealer), 0)

    @property
    def is_open(self) -> bool:
        return self.status == IN_PROGRESS

    def __repr__(self) -> str:
        return f"<Game {self.id} {self.family} {self.status}>"


class Seat(Model):
    """A player's place at the table; positions run clockwise from 0."""

    __tablename__ = "seat"
    __table_args__ = (
        UniqueConstraint("game_id", "position"),
        UniqueConstraint("game_id", "player_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    first_dealer: Mapped[bool] = mapped_column(Boolean, default=False)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship()


class Hand(Model):
    """One hand of a game.  ``complete`` is False while a live hand is being played.

    A hand is addressed by its ``number`` (which moves up when an earlier hand is
    deleted) and identified by its ``id`` (which never moves); ``version`` guards
    against two phones changing the same hand at once.  The services set the version
    themselves (:mod:`scorebook.services.hands`): an edit or a live move adds one, a hand that
    takes a number starts above :attr:`Game.hand_version_mark`.

    The keys of the sends that recorded or changed it are kept apart (:class:`SendKey`),
    so they outlive the hand."""

    __tablename__ = "hand"
    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        CheckConstraint(f"ending IN {HAND_ENDINGS!r}", name="ending"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    dealer_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    ending: Mapped[str] = mapped_column(String(10), default=WENT_OUT)
    went_out_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    going_rummy: Mapped[bool] = mapped_column(Boolean, default=False)
    complete: Mapped[bool] = mapped_column(Boolean, default=True)
    #: Stored as each player's points, not card by card ("points only": nobody wanted
    #: to itemise it).  Such a hand has no melds or stranded cards; its scores hold the
    #: points (melded and stranded 0, unknown), are not checked by the referee, and every
    #: statistic that needs cards skips the hand.  Editing it can give it cards again.
    points_only: Mapped[bool] = mapped_column(Boolean, default=False,
                                              server_default=text("false"))
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=_first_hand_version)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )

    game: Mapped[Game] = relationship(back_populates="hands")
    dealer: Mapped[Player] = relationship(foreign_keys=[dealer_id])
    went_out: Mapped[Player | None] = relationship(foreign_keys=[went_out_id])
    melds: Mapped[list[Meld]] = relationship(
        back_populates="hand", order_by="Meld.position", cascade="all, delete-orphan"
    )
    stranded: Mapped[list[StrandedCard]] = relationship(
        back_populates="hand", order_by="StrandedCard.position", cascade="all, delete-orphan"
    )
    scores: Mapped[list[HandScore]] = relationship(
        back_populates="hand", cascade="all, delete-orphan"
    )
    #: A hand the table logged turn by turn: its deal and its moves (issue 29), deleted
    #: with it by the ORM (SQLite does not enforce the foreign keys' ON DELETE).
    played: Mapped[PlayedHand | None] = relationship(cascade="all, delete-orphan")
    played_moves: Mapped[list[PlayedMove]] = relationship(
        order_by="PlayedMove.position", cascade="all, delete-orphan"
    )

    #: Every UPDATE says ``WHERE version = <as read>``; the services choose the new value.
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    def score_of(self, player_id: int) -> HandScore | None:
        return next((s for s in self.scores if s.player_id == player_id), None)

    @classmethod
    def with_cards(cls) -> ColumnElement[bool]:
        """The SQL condition "this hand was stored card by card" (not points only): every
        statistic that needs cards (points melded or stranded, melds, cards) filters or
        weighs its hands by it; totals, wins and hand scores count every hand."""
        return cls.points_only.is_(False)


#: What a send did with its key: recorded a hand, or changed one.
SEND_KINDS = ("record", "edit")


class SendKey(Model):
    """The key a phone sent a hand with (the offline queue's ``client_key``, the API's
    ``Idempotency-Key``) and what that send did: the hand it stored (``hand_id``; None
    once that hand is deleted), its number then and the version it left it at.  A send
    tried again after the network cut its answer finds its key here and is answered as
    the first try was, never stored twice; kept apart from the hand, it outlives a hand
    another phone deleted meanwhile, so the retry is told so instead of bringing the hand
    back.  Unique per game and kind: of two sends with one key at once, one stores the
    hand, the other finds it.  Kept for ``SEND_KEY_DAYS`` (:mod:`scorebook.services.hands`)."""

    __tablename__ = "send_key"
    __table_args__ = (
        UniqueConstraint("game_id", "kind", "key"),
        CheckConstraint(f"kind IN {SEND_KINDS!r}", name="kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(6))
    key: Mapped[str] = mapped_column(String(64))
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hand.id", ondelete="SET NULL"),
                                                index=True)
    number: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow,
                                                 index=True)


class Meld(Model):
    """A meld put down in a hand; ``label`` is its id within the hand (what lay-offs
    name), ``kind`` and ``reading`` the referee's reading of it at the end of the hand."""

    __tablename__ = "meld"
    __table_args__ = (UniqueConstraint("hand_id", "label"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id", ondelete="CASCADE"), index=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    label: Mapped[str] = mapped_column(String(MELD_LABEL_LENGTH))
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10), default="")
    reading: Mapped[str] = mapped_column(Text, default="")

    hand: Mapped[Hand] = relationship(back_populates="melds")
    owner: Mapped[Player] = relationship()
    cards: Mapped[list[MeldCard]] = relationship(
        back_populates="meld", order_by="MeldCard.position", cascade="all, delete-orphan"
    )

    @property
    def cards_as_they_lie(self) -> list[MeldCard]:
        """The cards in the order they lie on the table: a run from its low end (so a
        card laid off at the low end comes first), a set as it was put down."""
        if self.kind != "run" or not self.reading:
            return list(self.cards)
        place = {text: i for i, text in enumerate(self.reading.split())}
        return sorted(self.cards, key=lambda c: (place.get(c.text, len(place)), c.position))


#: The ends of a run a card can be laid off at (``values.ace-end``).
RUN_ENDS = ("low", "high")


class MeldCard(Model):
    """One card on a meld: put down by the meld's owner, or laid off (by anyone).
    ``card`` is the canonical text (``7S``, ``JK``); ``declared`` what a joker stands for;
    ``end`` the end of the run an ace was laid off at (``low``/``high``, the ace's value
    depends on it: ``values.ace-end``), None for every other card and for hands stored
    before the end was kept (their aces lay low)."""

    __tablename__ = "meld_card"
    __table_args__ = (
        CheckConstraint(f"run_end IS NULL OR run_end IN {RUN_ENDS!r}", name="run_end"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    meld_id: Mapped[int] = mapped_column(ForeignKey("meld.id", ondelete="CASCADE"), index=True)
    card: Mapped[str] = mapped_column(String(4))
    declared: Mapped[str | None] = mapped_column(String(4))
    laid_by_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    is_layoff: Mapped[bool] = mapped_column(Boolean, default=False)
    position: Mapped[int] = mapped_column(Integer)
    end: Mapped[str | None] = mapped_column("run_end", String(4))

    meld: Mapped[Meld] = relationship(back_populates="cards")
    laid_by: Mapped[Player] = relationship()

    @property
    def text(self) -> str:
        return f"{self.card}={self.declared}" if self.declared else self.card


class PlayedHand(Model):
    """A live hand the table also logs turn by turn (issue 29): its deal — the first card
    turned up (``upcard``) and, when the table knows it, the cards dealt to each
    (``dealt``; None: as ``cards.deal`` says); who dealt is the hand's ``dealer``.  The
    moves are :class:`PlayedMove` rows.  A live hand without one is logged as before
    (its melds and lay-offs only)."""

    __tablename__ = "played_hand"

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id", ondelete="CASCADE"),
                                         unique=True)
    upcard: Mapped[str] = mapped_column(String(4))
    dealt: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlayedMove(Model):
    """One move of a played hand's log, at ``position`` (0, 1, ...): by ``player``,
    ``move`` as the JSON API writes it without its player (``{"move": "take", "take":
    5}``).  ``key`` is the phone's key for the send that logged it: a send tried again is
    answered as already logged; unique per hand, as the position is, so of two phones
    logging at once one move lands.  ``overridden``: the message id of the rule's verdict
    the table agreed to override (``agreed`` in the move)."""

    __tablename__ = "played_move"
    __table_args__ = (UniqueConstraint("hand_id", "position"),
                      UniqueConstraint("hand_id", "key"))

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    key: Mapped[str | None] = mapped_column(String(64))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    overridden: Mapped[str | None] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class StrandedCard(Model):
    """A card left in a player's hand when the hand ended."""

    __tablename__ = "stranded_card"

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    card: Mapped[str] = mapped_column(String(4))
    position: Mapped[int] = mapped_column(Integer)

    hand: Mapped[Hand] = relationship(back_populates="stranded")
    player: Mapped[Player] = relationship()


class HandScore(Model):
    """The referee's score of one player for one hand: a cache of what the stored
    cards give (``flask scorebook verify`` proves it).

    ``cards_missing`` marks a player whose cards are not all recorded: they end the hand
    with fewer cards than were dealt (RULES.md §10 "Fewer cards than dealt"), and the
    family said it does not remember the rest (the games API and a league file say so
    for it).  The score is what the recorded cards give, and ``held_points``.

    ``held_points``: the points of the cards left in the player's hand, given as a number
    because nobody remembers those cards (issue 27; the player is then marked as missing
    cards, none of them recorded as stranded cards).  They are in ``stranded`` as cards
    would be; ``flask scorebook verify`` scores the hand with them.  None: the cards say it."""

    __tablename__ = "hand_score"
    __table_args__ = (UniqueConstraint("hand_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    melded: Mapped[int] = mapped_column(Integer)
    stranded: Mapped[int] = mapped_column(Integer)
    score: Mapped[int] = mapped_column(Integer)
    cards_missing: Mapped[bool] = mapped_column(Boolean, default=False,
                                                server_default=text("false"))
    held_points: Mapped[int | None] = mapped_column(Integer)

    hand: Mapped[Hand] = relationship(back_populates="scores")
    player: Mapped[Player] = relationship()


class Change(Model):
    """One entry of a game's history: what changed, when and from which phone.

    ``details`` holds what a reader needs to see the change itself (an edit's hand
    before and after, what a deleted hand held); ``device`` the browser and system,
    ``player`` the name the browser joined the league as (if it gave one)."""

    __tablename__ = "change"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    hand_number: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(20))
    summary: Mapped[str] = mapped_column(Text, default="")
    details: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    device: Mapped[str] = mapped_column(String(80), default="")
    player: Mapped[str] = mapped_column(String(40), default="")
    session_key: Mapped[str] = mapped_column(String(16), default="")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


#: The longest token a shared result's link carries (``secrets.token_urlsafe(32)``: 43).
SHARE_TOKEN_LENGTH = 64


class SharedResult(Model):
    """A game's result shared by link: ``/results/<token>`` shows that one game's
    scores to anyone holding the link, and nothing else of the league
    (:mod:`scorebook.services.sharing`).  The token is 256 random bits; it is kept as it
    is (the league's members see the link on the game's page), and it opens only what
    the database holds anyway, read-only.  One link per game; the owner stops it by
    deleting the row, and the link is then a 404 like any unknown one."""

    __tablename__ = "shared_result"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         unique=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"),
                                           index=True)
    token: Mapped[str] = mapped_column(String(SHARE_TOKEN_LENGTH), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: Who made the link, as the history names a phone (:class:`Change`).
    device: Mapped[str] = mapped_column(String(80), default="")
    player: Mapped[str] = mapped_column(String(40), default="")

    game: Mapped[Game] = relationship()


class UndoStep(Model):
    """Something done in a league that can be undone: ``kind`` says what
    (``players-merged``; at a game's table ``hand-recorded`` and the others of
    :mod:`scorebook.services.undo`), ``params`` what the pages show of it (names, counts), ``state``
    what undoing it needs (for a merge: the player that left and the games that moved,
    :func:`scorebook.services.league.undo_merge`).  Who did it and when, as the history
    names a phone; ``undone_at`` (and who) once it was undone: the step stays, as a
    record of both."""

    __tablename__ = "undo_step"
    __table_args__ = (Index("ix_undo_step_league_created", "league_id", "created_at"),
                      Index("ix_undo_step_game", "game_id", "id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"))
    #: The game a step at the table changed (a hand saved, edited or deleted, a live
    #: move: :mod:`scorebook.services.undo`); None for a step of the whole league.
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(30))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    device: Mapped[str] = mapped_column(String(80), default="")
    player: Mapped[str] = mapped_column(String(40), default="")
    session_key: Mapped[str] = mapped_column(String(16), default="")
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    undone_device: Mapped[str] = mapped_column(String(80), default="")
    undone_player: Mapped[str] = mapped_column(String(40), default="")


class Season(Model):
    """A named stretch of a league's calendar; a finished game counts in the season
    whose dates hold the day it finished.  Seasons of one league never overlap."""

    __tablename__ = "season"
    __table_args__ = (
        UniqueConstraint("league_id", "name"),
        CheckConstraint("ends_on >= starts_on", name="dates"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    starts_on: Mapped[date] = mapped_column(Date)
    ends_on: Mapped[date] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    league: Mapped[League] = relationship()

    def __repr__(self) -> str:
        return f"<Season {self.name!r} {self.starts_on}..{self.ends_on}>"


class GameResult(Model):
    """One player's result in one finished game and their rating after it.

    A cache, like :class:`HandScore`: the totals come from the stored hand scores,
    the position from the totals and the game's winner, the rating (``mu``,
    ``sigma``) from replaying the league's finished games in (finished_at, id)
    order; ``seq`` is the game's place in that order and ``revision`` the game's
    revision when the row was made.  The rows are kept right on write
    (:func:`scorebook.services.ratings.sync`, run as each transaction commits); ``seq`` orders
    the rows (it may have gaps where games were deleted).
    """

    __tablename__ = "game_result"
    __table_args__ = (
        UniqueConstraint("game_id", "player_id"),
        Index("ix_game_result_league_seq", "league_id", "seq"),
        Index("ix_game_result_player_seq", "player_id", "seq"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"))
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    seq: Mapped[int] = mapped_column(Integer)
    revision: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seats: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    hands: Mapped[int] = mapped_column(Integer)
    melded: Mapped[int] = mapped_column(Integer)
    stranded: Mapped[int] = mapped_column(Integer)
    best_hand: Mapped[int | None] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)

    game: Mapped[Game] = relationship()
    player: Mapped[Player] = relationship()


#: A player's results in a time range (a season's standings, the rating they ended it on).
Index("ix_game_result_player_finished", GameResult.player_id, GameResult.finished_at)
#: A league's results in a time range (rebuilding the tallies of a season).
Index("ix_game_result_league_finished", GameResult.league_id, GameResult.finished_at)


#: ``PlayerTally.season_id`` of a player's all-time figures.
ALL_TIME = 0


class PlayerTally(Model):
    """A player's standings figures over one season (``season_id``) or all time
    (:data:`ALL_TIME`): the sums and bests of their :class:`GameResult` rows there,
    and their current streak.  Kept right on write with the rows it adds up
    (:func:`scorebook.services.ratings.retally`), so the standings read one row per player."""

    __tablename__ = "player_tally"
    __table_args__ = (Index("ix_player_tally_league_season", "league_id", "season_id"),)

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"),
                                           primary_key=True)
    season_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"))
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    positions: Mapped[int] = mapped_column(Integer)
    hands: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    best_hand: Mapped[int | None] = mapped_column(Integer)
    best_total: Mapped[int | None] = mapped_column(Integer)
    melded: Mapped[int] = mapped_column(Integer)
    stranded: Mapped[int] = mapped_column(Integer)
    streak: Mapped[int] = mapped_column(Integer)
    streak_won: Mapped[bool] = mapped_column(Boolean)


#: Each player's hand scores straight from an index (a player's score distribution).
Index("ix_hand_score_player_hand_score", HandScore.player_id, HandScore.hand_id,
      HandScore.score)


# --- statistics: what each finished game's cards say (a cache, :mod:`scorebook.services.stats`) ---


class GameStat(Model):
    """One finished game's figures, aggregated by the database from its stored hands.

    A cache, like :class:`GameResult`: ``revision`` is the game's revision when the row
    was made, and :func:`scorebook.services.stats.cache.refresh` rebuilds the rows of every game
    whose revision moved on (every change to a hand moves it).  ``comeback`` is the
    winner's largest deficit to the leader after any hand; ``swing`` the largest change
    of the winner's lead over the best of the others in one hand (the turning point),
    from ``swing_before`` to ``swing_after``.
    """

    __tablename__ = "game_stat"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    revision: Mapped[int] = mapped_column(Integer)
    #: The game's finish as the rows were made (a season counts by it): a game moved to
    #: another day is counted again too.
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    #: Whether the game's rules had jokers (the joker figures count only such games).
    with_jokers: Mapped[bool] = mapped_column(Boolean)
    hands: Mapped[int] = mapped_column(Integer)
    comeback: Mapped[int] = mapped_column(Integer)
    comeback_hand: Mapped[int | None] = mapped_column(Integer)
    swing: Mapped[int] = mapped_column(Integer)
    swing_hand: Mapped[int | None] = mapped_column(Integer)
    swing_before: Mapped[int] = mapped_column(Integer)
    swing_after: Mapped[int] = mapped_column(Integer)


class PlayerGameStat(Model):
    """One player's figures in one finished game (a cache rebuilt with its
    :class:`GameStat`).  Points are the cards' values under the game's rules, as the
    referee scores them; ``card_hands`` are the hands whose cards are counted."""

    __tablename__ = "player_game_stat"
    #: A league's rows, or a season's (by the day the game finished), from one index.
    __table_args__ = (Index("ix_player_game_stat_league_finished", "league_id",
                            "finished_at"),)

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True,
                                           index=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    hands: Mapped[int] = mapped_column(Integer)
    card_hands: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    hands_out: Mapped[int] = mapped_column(Integer)
    going_rummy: Mapped[int] = mapped_column(Integer)
    best_score: Mapped[int | None] = mapped_column(Integer)
    best_hand: Mapped[int | None] = mapped_column(Integer)
    worst_score: Mapped[int | None] = mapped_column(Integer)
    worst_hand: Mapped[int | None] = mapped_column(Integer)
    out_streak: Mapped[int] = mapped_column(Integer)
    out_streak_hand: Mapped[int | None] = mapped_column(Integer)
    melded_points: Mapped[int] = mapped_column(Integer)
    laid_off_points: Mapped[int] = mapped_column(Integer)
    stranded_points: Mapped[int] = mapped_column(Integer)
    melded_cards: Mapped[int] = mapped_column(Integer)
    laid_off_cards: Mapped[int] = mapped_column(Integer)
    stranded_cards: Mapped[int] = mapped_column(Integer)
    caught: Mapped[int] = mapped_column(Integer)
    max_stranded: Mapped[int | None] = mapped_column(Integer)
    max_stranded_hand: Mapped[int | None] = mapped_column(Integer)
    jokers_melded: Mapped[int] = mapped_column(Integer)
    jokers_laid_off: Mapped[int] = mapped_column(Integer)
    jokers_stranded: Mapped[int] = mapped_column(Integer)
    joker_points: Mapped[int] = mapped_column(Integer)
    joker_stranded_points: Mapped[int] = mapped_column(Integer)
    aces_low: Mapped[int] = mapped_column(Integer)
    aces_high: Mapped[int] = mapped_column(Integer)
    aces_in_sets: Mapped[int] = mapped_column(Integer)
    aces_stranded: Mapped[int] = mapped_column(Integer)
    aces_stranded_points: Mapped[int] = mapped_column(Integer)
    sets: Mapped[int] = mapped_column(Integer)
    runs: Mapped[int] = mapped_column(Integer)
    longest_run: Mapped[int] = mapped_column(Integer)
    longest_run_hand: Mapped[int | None] = mapped_column(Integer)
    layoffs_on_others: Mapped[int] = mapped_column(Integer)
    layoffs_on_own: Mapped[int] = mapped_column(Integer)
    fed_by_others: Mapped[int] = mapped_column(Integer)
    #: The player's finishing place and whether they won, as the results said when the
    #: row was made (head to head is summed from them: :data:`player_pair_sum`).
    position: Mapped[int | None] = mapped_column(Integer)
    won: Mapped[bool | None] = mapped_column(Boolean)


class StatTally(Model):
    """How often one thing happened to a player in a finished game: ``kind`` is
    ``melded`` (a card in their melds or lay-offs), ``stranded`` (a card left in their
    hand) or ``meld`` (a meld they put down, by its shape: ``S:K``, ``R:H:7-9``)."""

    __tablename__ = "stat_tally"
    #: A player's tallies of one kind, item by item (a season's by the day each game
    #: finished), straight from the index.
    __table_args__ = (Index("ix_stat_tally_player_kind", "player_id", "kind", "item",
                            "count", "finished_at"),)

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10), primary_key=True)
    item: Mapped[str] = mapped_column(String(16), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LayoffTally(Model):
    """Cards ``player`` laid off on melds of ``owner`` (another player) in a finished
    game, and the points they scored: who feeds whom."""

    __tablename__ = "layoff_tally"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True,
                                           index=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True,
                                          index=True)
    cards: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)


# --- a player's statistics summed per season, kept on write (the player page) --------------

#: The figures of :class:`PlayerGameStat` a player's page sums over their games.
STAT_SUMMED = ("hands", "card_hands", "points", "hands_out", "going_rummy", "melded_points",
               "laid_off_points", "stranded_points", "melded_cards", "laid_off_cards",
               "stranded_cards", "caught", "jokers_melded", "jokers_laid_off",
               "jokers_stranded", "joker_points", "joker_stranded_points", "aces_low",
               "aces_high", "aces_in_sets", "aces_stranded", "aces_stranded_points", "sets",
               "runs", "layoffs_on_others", "layoffs_on_own", "fed_by_others")

#: A player's :class:`PlayerGameStat` rows summed over one season (``season_id``) or all
#: time (:data:`ALL_TIME`): ``games``, the games with jokers and of Basic Rummy, and each
#: figure of :data:`STAT_SUMMED`.  Kept by :mod:`scorebook.services.stats.cache` as it counts or
#: drops a game's rows (added and subtracted, in the same transaction), so a player's
#: page and everyone's sums read one row per player whatever the league's age.
player_stat_sum = db.Table(
    "player_stat_sum",
    Column("player_id", ForeignKey("player.id", ondelete="CASCADE"), primary_key=True),
    Column("season_id", Integer, primary_key=True, autoincrement=False),
    Column("league_id", ForeignKey("league.id", ondelete="CASCADE"), nullable=False),
    Column("games", Integer, nullable=False),
    Column("joker_games", Integer, nullable=False),
    Column("basic_games", Integer, nullable=False),
    *[Column(name, Integer, nullable=False) for name in STAT_SUMMED],
    Index("ix_player_stat_sum_league_season", "league_id", "season_id"),
)

#: How many of a player's hands (complete, in finished games) scored ``score``, over one
#: season or all time: the player page's score distribution, kept like
#: :data:`player_stat_sum` from each game's ``score`` tallies (:class:`StatTally`).
player_score_sum = db.Table(
    "player_score_sum",
    Column("player_id", ForeignKey("player.id", ondelete="CASCADE"), primary_key=True),
    Column("season_id", Integer, primary_key=True, autoincrement=False),
    Column("score", Integer, primary_key=True, autoincrement=False),
    Column("league_id", ForeignKey("league.id", ondelete="CASCADE"), nullable=False),
    Column("hands", Integer, nullable=False),
)

#: A player against one opponent over one season or all time, in the games both
#: finished: how many, how often each finished ahead, and each one's wins.  Kept like
#: :data:`player_stat_sum` from the places stored with each game's cache rows.
player_pair_sum = db.Table(
    "player_pair_sum",
    Column("player_id", ForeignKey("player.id", ondelete="CASCADE"), primary_key=True),
    Column("opponent_id", ForeignKey("player.id", ondelete="CASCADE"), primary_key=True),
    Column("season_id", Integer, primary_key=True, autoincrement=False),
    Column("league_id", ForeignKey("league.id", ondelete="CASCADE"), nullable=False),
    Column("games", Integer, nullable=False),
    Column("ahead", Integer, nullable=False),
    Column("behind", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("their_wins", Integer, nullable=False),
)

#: The league's history in its order (latest first, by when each game finished, else
#: started; then by id), so that a page of it, keyset or first, reads its 20 games off
#: the index instead of sorting every game of the league.
Index("ix_game_league_history", Game.league_id,
      func.coalesce(Game.finished_at, Game.started_at), Game.id)

#: The league's games with their revisions, so that the standings' version (their count,
#: the sum of their revisions and the latest id: :mod:`scorebook.pages`) is read off the
#: index alone rather than from every game row of the league.
Index("ix_game_league_revision", Game.league_id, Game.revision)

#: A player's ratings in order with the rating itself, straight from the index (the
#: rating chart folds a long history without reading the rows).
Index("ix_game_result_player_seq_mu", GameResult.player_id, GameResult.seq, GameResult.mu)

#: A player's best and worst figures in a game, straight from an index (the player
#: page's "best hand", "worst hand", … links: one ``ORDER BY … LIMIT 1`` each).
for _name in ("best_score", "worst_score", "out_streak", "longest_run", "max_stranded"):
    Index(f"ix_player_game_stat_player_{_name}", PlayerGameStat.player_id,
          getattr(PlayerGameStat, _name), PlayerGameStat.finished_at, PlayerGameStat.game_id)


#: A job's states: waiting for a worker, being run by one (until ``lease_until``), done,
#: or failed (``error`` says why).
JOB_QUEUED = "queued"
JOB_RUNNING = "running"
JOB_DONE = "done"
JOB_FAILED = "failed"
JOB_STATES = (JOB_QUEUED, JOB_RUNNING, JOB_DONE, JOB_FAILED)


class Job(Model):
    """Work longer than a request (a league import, a rating replay), run in the
    background by ``python -m scorebook.worker`` (:mod:`scorebook.services.jobs`).

    A worker takes a queued job (or a running one whose lease ran out: its worker died)
    with one conditional UPDATE, so two workers never run one job; it commits its work
    in short chunks, each with ``done``/``total`` and the ``checkpoint`` to resume from,
    and renews its lease as it goes."""

    __tablename__ = "job"
    __table_args__ = (
        CheckConstraint(f"state IN {JOB_STATES!r}", name="ck_job_state"),
        Index("ix_job_state_id", "state", "id"),
        Index("ix_job_owner_state", "owner", "state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    #: What to do: ``league-import``, ``ratings``.
    kind: Mapped[str] = mapped_column(String(20))
    #: Whose job it is (``league:<id>``: the league whose owner asked): at most
    #: :data:`scorebook.services.jobs.PER_OWNER` of theirs queued or running at once.
    owner: Mapped[str] = mapped_column(String(40))
    #: The league the job works on (the importer's league; the one whose ratings).
    league_id: Mapped[int | None] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(10), default=JOB_QUEUED)
    #: What the job was given (JSON), and where its work has got to (JSON: the next run
    #: goes on from there).
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    checkpoint: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: Its progress, in its own units (games): ``done`` of ``total`` (None: not known yet).
    done: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    total: Mapped[int | None] = mapped_column(Integer)
    #: The worker running it, and until when it may (renewed with every chunk).
    worker: Mapped[str | None] = mapped_column(String(80))
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: What a finished job made (JSON: e.g. the imported league's id), or why it failed
    #: (JSON: the sentences the presenters word).
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[list[Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    def __repr__(self) -> str:
        return f"<Job {self.id} {self.kind} {self.state}>"
