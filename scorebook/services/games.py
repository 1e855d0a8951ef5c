"""Games: the default league, starting a game, the deal, totals and the scoreboard.

The referee decides who won (:func:`referee.game_result`); this module keeps the
stored game in step with it after every change to its hands (:func:`recompute`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.attributes import get_history

from referee import RulesError, RuleSet, Verdict, game_result, make_rules
from referee.turns import dealer_of_hand
from scorebook.extensions import db
from scorebook.models import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    Game,
    Hand,
    HandScore,
    League,
    Player,
    Seat,
    utcnow,
)
from scorebook.plain_text import has_unwanted
from scorebook.services.errors import SentenceError, sentence
from scorebook.services.transaction import transaction, violated_constraint

DEFAULT_LEAGUE_NAME = "Our table"
MAX_NAME_LENGTH = 40


class GameSetupError(SentenceError):
    """A game that cannot be started (see :class:`SentenceError`)."""


# --- the league and its players -----------------------------------------------------


def default_league() -> League:
    """The league every game belongs to until leagues can be chosen; made on first use."""
    league = db.session.scalar(select(League).order_by(League.id).limit(1))
    if league is None:
        with transaction():
            league = League(name=DEFAULT_LEAGUE_NAME)
            db.session.add(league)
    return league


def roster(league: League) -> list[Player]:
    """The league's players who have not retired (the names offered for a new game)."""
    return list(db.session.scalars(
        select(Player).where(Player.league_id == league.id, Player.retired_at.is_(None))
        .order_by(Player.name)))


def clean_name(name: str) -> str:
    return " ".join(name.split())


def roster_key(name: str) -> str:
    """A name as it is matched against the roster, whatever its case: ``Lucía`` and
    ``LUCÍA`` are one player (the database's own lower() folds ASCII letters only)."""
    return unicodedata.normalize("NFC", clean_name(name)).casefold()


def loose_key(name: str) -> str:
    """A name without its case and its accents: ``Lucia`` and ``Lucía`` look alike
    (:func:`look_alike`), though they may be two people."""
    plain = unicodedata.normalize("NFKD", roster_key(name))
    return "".join(c for c in plain if not unicodedata.combining(c))


def _league_players(league: League) -> list[Player]:
    if league.id is None:
        return []
    return list(db.session.scalars(select(Player).where(Player.league_id == league.id)
                                   .order_by(Player.id)))


def look_alike(league: League, name: str) -> Player | None:
    """The league's player whose name differs from ``name`` only by accents (``Lucía``
    for ``Lucia``), when none has ``name`` itself: the page asks "did you mean …?"
    before adding a near twin."""
    key, loose = roster_key(name), loose_key(name)
    players = _league_players(league)
    if any(roster_key(p.name) == key for p in players):
        return None
    return next((p for p in players if loose_key(p.name) == loose), None)


def player_named(league: League, name: str) -> Player:
    """The league's player with this name (whatever its case, ``ó`` and ``Ó`` alike),
    added if new."""
    name = clean_name(name)
    key = roster_key(name)
    player = next((p for p in _league_players(league) if roster_key(p.name) == key), None)
    if player is None:
        player = Player(league=league, name=name)
        db.session.add(player)
    return player


# --- starting a game ------------------------------------------------------------------


def build_rules(family: str, options: dict[str, Any]) -> RuleSet:
    """The rule set for a family and the options the table chose (None: family default)."""
    spec = {k: v for k, v in options.items() if v is not None}
    try:
        return make_rules(family, **spec)
    except RulesError as exc:
        raise GameSetupError(sentence("games.rules-clash", error=exc), "rules") from exc


def create_game(league: League, names: Sequence[str], first_dealer: int,
                rules: RuleSet) -> Game:
    """Start a game: players seated clockwise in the order given, ``first_dealer``
    the seat that deals the first hand.  One transaction; inside the caller's, when it
    adds to the write (the game then has its id, for a history entry)."""
    names = [clean_name(n) for n in names if clean_name(n)]
    try:
        rules.check_players(len(names))
    except RulesError as exc:
        raise GameSetupError(
            sentence("games.player-count", family=rules.family, low=rules.min_players,
                     high=rules.max_players, count=len(names)), "players") from exc
    lowered = [roster_key(n) for n in names]
    for n in names:
        if has_unwanted(n):
            raise GameSetupError(sentence("games.unwanted-text"), "players")
        if len(n) > MAX_NAME_LENGTH:
            raise GameSetupError(sentence("games.name-too-long", max=MAX_NAME_LENGTH),
                                 "players")
        if lowered.count(roster_key(n)) > 1:
            raise GameSetupError(sentence("games.seated-twice", name=n), "players")
    if not 0 <= first_dealer < len(names):
        raise GameSetupError(sentence("games.first-dealer-not-seated"), "first_dealer")
    with transaction():
        players = [player_named(league, name) for name in names]
        game = Game(league=league, family=rules.family, rules_json=rules.as_dict(),
                    target=rules.target_for(len(names)), status=IN_PROGRESS,
                    number=next_game_number(league))
        for position, player in enumerate(players):
            game.seats.append(Seat(player=player, position=position,
                                   first_dealer=position == first_dealer))
        db.session.add(game)
    return game


#: What two games started (or played again) in one league at the same moment can trip
#: on: the game's number in its league, a new player's name in its roster, a new
#: private league's name, a game's one rematch.  Any other refusal is no race.
STARTING_RACES = frozenset({"uq_game_league_id_number", "uq_player_league_id_name",
                            "uq_league_name", "uq_game_rematch_of_id"})


def lost_a_race(error: IntegrityError) -> bool:
    """True if starting a game was refused because another start got there first (one of
    :data:`STARTING_RACES`): worth trying again, and saying so.  Anything else (say, a
    primary key refused because a sequence lags behind ids inserted by hand) is a fault
    to raise, not a race to report."""
    return violated_constraint(error) in STARTING_RACES


def next_game_number(league: League) -> int:
    """The number the league's next game gets (its first is 1).  Two games started in
    one league at the same moment would get the same number: the unique (league,
    number) constraint refuses the second, and the page starting it tries again."""
    if league.id is None:
        return 1
    last = db.session.scalar(select(func.max(Game.number))
                             .where(Game.league_id == league.id))
    return (last or 0) + 1


def load_game(game_id: int, with_hands: bool = True) -> Game | None:
    """A game with its seats (and, unless ``with_hands`` is False, its hands and their
    scores) loaded in a few queries."""
    options = [selectinload(Game.seats).selectinload(Seat.player)]
    if with_hands:
        options.append(selectinload(Game.hands).selectinload(Hand.scores))
    return db.session.scalar(select(Game).where(Game.id == game_id).options(*options))


# --- the deal and the totals ----------------------------------------------------------
# These ask the database (a few small indexed queries) rather than loading every hand,
# so recording a hand in a long game stays quick.


def complete_hands(game: Game) -> list[Hand]:
    return [h for h in game.hands if h.complete]


def live_hand(game: Game) -> Hand | None:
    return db.session.scalar(select(Hand).where(Hand.game_id == game.id,
                                                Hand.complete.is_(False)).limit(1))


def next_hand_number(game: Game) -> int:
    last = db.session.scalar(select(func.max(Hand.number))
                             .where(Hand.game_id == game.id))
    return (last or 0) + 1


def _last_hand(game: Game) -> tuple[int, int | None] | None:
    """(dealer id, went-out id) of the last complete hand."""
    row = db.session.execute(
        select(Hand.dealer_id, Hand.went_out_id)
        .where(Hand.game_id == game.id, Hand.complete.is_(True))
        .order_by(Hand.number.desc()).limit(1)).first()
    return (row[0], row[1]) if row else None


def next_dealer_position(game: Game) -> int:
    """Who deals the next hand: left of the last dealer (``turn.order``)."""
    count = len(game.seats)
    last = _last_hand(game)
    if last is None:
        return dealer_of_hand(game.first_dealer, 1, count)
    position = next((s.position for s in game.seats if s.player_id == last[0]), 0)
    return (position + 1) % count


def totals(game: Game) -> list[int]:
    """Each seat's running total after the last complete hand."""
    sums = dict(db.session.execute(
        select(HandScore.player_id, func.sum(HandScore.score))
        .join(Hand, Hand.id == HandScore.hand_id)
        .where(Hand.game_id == game.id, Hand.complete.is_(True))
        .group_by(HandScore.player_id)).tuples().all())
    return [int(sums.get(s.player_id) or 0) for s in game.seats]


def verdict_of(game: Game, running: list[int] | None = None,
               went_out_id: int | None = None, hands: int | None = None) -> Verdict:
    """The referee's verdict on the game after its last complete hand."""
    names = [s.player.name for s in game.seats]
    if running is None:
        running = totals(game)
        last = _last_hand(game)
        went_out_id = last[1] if last else None
    went_out = None
    if went_out_id is not None:
        went_out = next((i for i, s in enumerate(game.seats) if s.player_id == went_out_id),
                        None)
    return game_result(game.rules, running, went_out, names)


def _completed_now(game: Game) -> bool:
    """Whether this write records or completes one of the game's hands (a hand recorded
    at the end, or a live hand finished), as against one that edits or deletes a hand
    already kept.  Read off the session before anything is flushed."""
    new = db.session.new
    return any(isinstance(obj, Hand) and obj.game_id == game.id and obj.complete
               and (obj in new or get_history(obj, "complete").added)
               for obj in (*new, *db.session.dirty))


def _ended_at_the_table(game: Game) -> datetime:
    """When the game's last hand was recorded at the table: the game ended then."""
    last = db.session.scalar(
        select(Hand.created_at).where(Hand.game_id == game.id, Hand.complete.is_(True))
        .order_by(Hand.number.desc()).limit(1))
    return last if last is not None else utcnow()


def recompute(game: Game) -> Verdict:
    """Set the game's status and winner from its hands (an abandoned game stays so).
    Does not commit.

    A game keeps the moment it ended at the table: the hand that ends it, recorded or
    finished live, stamps it then; an edit or a deletion that changes who won a finished
    game leaves its time (and so its day, its season and its place in the ratings'
    order) as it was; one that finishes it again (a slip put right) gives it the time its
    last hand was recorded."""
    completed_now = _completed_now(game)
    verdict = verdict_of(game)
    game.revision = (game.revision or 0) + 1
    if game.status == ABANDONED:
        return verdict
    if verdict.detail.get("finished"):
        winner = game.seats[verdict.detail["winner"]].player
        if completed_now:
            game.finished_at = utcnow()
        elif game.status != FINISHED or game.finished_at is None:
            game.finished_at = _ended_at_the_table(game)
        game.status = FINISHED
        game.winner = winner
    else:
        game.status = IN_PROGRESS
        game.winner = None
        game.finished_at = None
    return verdict


# --- the scoreboard ---------------------------------------------------------------------

@dataclass
class Row:
    number: int
    dealer: str
    ending: str  # WENT_OUT, STOCK_OUT or DRAW (the presenters name it)
    went_out: str | None
    going_rummy: bool
    cells: list[tuple[int, int]]  # (hand score, running total) per seat
    points_only: bool = False  # given as each player's points, without cards


@dataclass
class Scoreboard:
    game: Game
    names: list[str]
    rows: list[Row]
    totals: list[int]
    target: int
    verdict: Verdict  # (the presenters word it)
    next_dealer: str | None
    leaders: list[str]
    winner: str | None
    live_number: int | None
    progress: list[int] = field(default_factory=list)  # percent of the target, 0-100
    rematch_id: int | None = None  # the game that plays this one again, once started
    rematch_number: int | None = None  # that game's number within the league

    @property
    def running(self) -> list[list[int]]:
        """Each seat's running totals, hand by hand (for the chart)."""
        return [[row.cells[i][1] for row in self.rows] for i in range(len(self.names))]


def scoreboard(game: Game) -> Scoreboard:
    """Everything the scoreboard shows, from two small queries (hands, scores)."""
    names = [s.player.name for s in game.seats]
    by_id = {s.player_id: s.player.name for s in game.seats}
    hand_rows = db.session.execute(
        select(Hand.id, Hand.number, Hand.dealer_id, Hand.ending, Hand.went_out_id,
               Hand.going_rummy, Hand.complete, Hand.points_only)
        .where(Hand.game_id == game.id).order_by(Hand.number)).all()
    scores: dict[tuple[int, int], int] = {
        (hand_id, player_id): score for hand_id, player_id, score in db.session.execute(
            select(HandScore.hand_id, HandScore.player_id, HandScore.score)
            .join(Hand, Hand.id == HandScore.hand_id).where(Hand.game_id == game.id))}
    running = [0] * len(names)
    rows = []
    live_number = None
    last_out = None
    for (hand_id, number, dealer_id, ending, went_out_id, going_rummy, complete,
         points_only) in hand_rows:
        if not complete:
            live_number = number
            continue
        cells = []
        for i, seat in enumerate(game.seats):
            value = scores.get((hand_id, seat.player_id), 0)
            running[i] += value
            cells.append((value, running[i]))
        rows.append(Row(number, by_id.get(dealer_id, "?"), ending,
                        by_id.get(went_out_id) if went_out_id else None, going_rummy, cells,
                        bool(points_only)))
        last_out = went_out_id
    verdict = verdict_of(game, running, last_out)
    top = max(running) if running else 0
    leaders = [n for n, t in zip(names, running) if t == top] if rows else []
    next_dealer = names[next_dealer_position(game)] if game.is_open else None
    rematch_id = rematch_of(game) if game.status == FINISHED else None
    return Scoreboard(
        game=game, names=names, rows=rows, totals=running, target=game.target,
        verdict=verdict, next_dealer=next_dealer,
        leaders=leaders, winner=game.winner.name if game.winner else None,
        live_number=live_number,
        progress=[max(0, min(100, round(100 * t / game.target))) if game.target else 0
                  for t in running],
        rematch_id=rematch_id,
        rematch_number=db.session.scalar(select(Game.number).where(
            Game.id == rematch_id)) if rematch_id else None,
    )


def abandon(game: Game) -> None:
    game.status = ABANDONED
    game.revision = (game.revision or 0) + 1


# --- playing again ----------------------------------------------------------------------


def rematch_of(game: Game) -> int | None:
    """The id of the game started to play ``game`` again, if there is one."""
    return db.session.scalar(select(Game.id).where(Game.rematch_of_id == game.id))


def rematch_dealer(game: Game) -> int:
    """Who deals the rematch's first hand: the deal passes on, to the left of whoever
    dealt the last hand (``turn.order``), as if the table kept playing."""
    return next_dealer_position(game)


def rematch(game: Game) -> Game:
    """Start a game with ``game``'s players in the same seats, under its frozen rules,
    the deal passing on (:func:`rematch_dealer`).  One transaction (the caller's, when it
    adds to it); a second rematch of the same game fails in it (``rematch_of_id`` is
    unique)."""
    if game.status != FINISHED:
        raise GameSetupError(sentence("games.rematch-unfinished"))
    names = [seat.player.name for seat in game.seats]
    with transaction():
        new = create_game(game.league, names, rematch_dealer(game), game.rules)
        new.rematch_of_id = game.id
    return new
