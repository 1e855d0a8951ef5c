"""The statistics cache: what each finished game's cards say, aggregated by the database.

For every finished game the database sums its stored hands, scores and cards into a
few rows (:class:`~scorebook.models.GameStat` for the game,
:class:`~scorebook.models.PlayerGameStat` per seat, :class:`~scorebook.models.StatTally`
and :class:`~scorebook.models.LayoffTally` for counts by card, by meld shape and by
whose meld a card was laid off on).  The league's pages then aggregate those rows
(one per player per game) instead of the cards.

The rows are a cache, like the ratings' :class:`~scorebook.models.GameResult`: each
``game_stat`` row keeps its game's ``revision``, which every change to the game's hands
moves on (:func:`scorebook.services.games.recompute`), so :func:`refresh` finds in one query the
games whose rows are missing or out of date (and rows of games no longer finished),
throws those rows away and builds them again, game by game set, with a handful of
``GROUP BY`` queries.  Nothing here loads a hand or a card into Python.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    String,
    and_,
    case,
    delete,
    distinct,
    func,
    insert,
    literal,
    or_,
    select,
    type_coerce,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from referee import RUN, SET, RuleSet
from scorebook.extensions import db
from scorebook.models import (
    FINISHED,
    Game,
    GameResult,
    GameStat,
    Hand,
    HandScore,
    LayoffTally,
    Meld,
    MeldCard,
    PlayerGameStat,
    Seat,
    StatTally,
    StrandedCard,
)
from scorebook.services import memo, sums
from scorebook.services.stats import cards
from scorebook.services.stats.cards import (
    JOKER_TEXT,
    Values,
    ace_in_set,
    card_value,
    chunks,
    declared_rank,
    high_ace,
    is_ace,
    is_joker,
    low_ace,
    rank_text,
    run_position,
    suit_of,
    text,
    values_of,
)
from scorebook.services.transaction import transaction

#: Games counted per transaction (their ids go into ``IN (...)`` lists).
CHUNK = 200

MELDED = "melded"
STRANDED = "stranded"
MELD = "meld"
TALLY_KINDS = (MELDED, STRANDED, MELD, sums.SCORE)


def _n(condition: Any) -> Any:
    """How many rows meet ``condition``."""
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def _points(condition: Any, value: Any) -> Any:
    return func.coalesce(func.sum(case((condition, value), else_=0)), 0)


# --- what is out of date ----------------------------------------------------------------------


def stale(league_id: int) -> tuple[list[int], list[int]]:
    """(finished games whose rows are missing or older than the game, games with rows
    that are no longer finished).  Two indexed queries."""
    behind = db.session.scalars(
        select(Game.id).outerjoin(GameStat, GameStat.game_id == Game.id)
        .where(Game.league_id == league_id, Game.status == FINISHED,
               Game.finished_at.is_not(None),
               or_(GameStat.game_id.is_(None),
                   GameStat.revision != func.coalesce(Game.revision, 0),
                   GameStat.finished_at != Game.finished_at))
        .order_by(Game.id))
    gone = db.session.scalars(
        select(GameStat.game_id).join(Game, Game.id == GameStat.game_id)
        .where(GameStat.league_id == league_id,
               or_(Game.status != FINISHED, Game.finished_at.is_(None))))
    return list(behind), list(gone)


@dataclass(frozen=True)
class Progress:
    """Where a refresh got to: ``left`` games still to count (0: all up to date) of
    ``total`` finished games, and whether it rebuilt anything."""

    changed: bool
    left: int = 0
    total: int = 0

    @property
    def ready(self) -> bool:
        return self.left == 0


def refresh(league_id: int, budget: float | None = None) -> Progress:
    """Bring the league's statistics up to date, ``CHUNK`` games a transaction, and
    stop once ``budget`` seconds are spent (None: no limit), so that a league's first
    count of thousands of games is spread over a few page views instead of holding
    one request (``flask scorebook stats`` counts everything at once).  A concurrent
    refresh of the same games simply wins."""
    began = time.perf_counter()
    behind, gone = stale(league_id)
    if not behind and not gone:
        return Progress(False)
    if gone:
        with transaction():
            drop(gone)
    done = 0
    for chunk in chunks(behind, CHUNK):
        if budget is not None and done and time.perf_counter() - began > budget:
            break
        try:
            with transaction():
                drop(chunk)
                build(league_id, chunk)
        except IntegrityError:  # another request counted these games first
            pass
        done += len(chunk)
    total = db.session.scalar(select(func.count()).select_from(Game).where(
        Game.league_id == league_id, Game.status == FINISHED,
        Game.finished_at.is_not(None))) or 0
    return Progress(True, len(behind) - done, total)


def drop(game_ids: Sequence[int]) -> None:
    memo.bump()
    for chunk in chunks(list(game_ids), CHUNK):
        sums.account(db.session, chunk, -1)  # (out of the sums before the rows go)
        for model in (StatTally, LayoffTally, PlayerGameStat, GameStat):
            db.session.execute(delete(model).where(model.game_id.in_(chunk)))


def build(league_id: int, game_ids: Sequence[int]) -> None:
    """Aggregate the cache rows of these finished games and store them.  Does not commit."""
    for values, ids in _by_values(game_ids).items():
        for chunk in chunks(ids, CHUNK):
            figures = aggregate(chunk, values)
            rows = [{"league_id": league_id, **g.row()} for g in figures.games.values()]
            if rows:
                db.session.execute(insert(GameStat), rows)
            seats = [{"league_id": league_id,
                      "finished_at": figures.games[p.game_id].finished_at, **p.row()}
                     for p in figures.players.values()]
            if seats:
                db.session.execute(insert(PlayerGameStat), seats)
            if figures.layoffs:
                db.session.execute(insert(LayoffTally), figures.layoffs)
            for query in _tallies(chunk):
                db.session.execute(insert(StatTally).from_select(
                    ["game_id", "player_id", "kind", "item", "count", "finished_at"], query))
            sums.account(db.session, [g for g in chunk if g in figures.games], 1)


def _by_values(game_ids: Sequence[int]) -> dict[Values, list[int]]:
    """The games, grouped by how their rules value the cards (usually one group)."""
    groups: dict[Values, list[int]] = defaultdict(list)
    cache: dict[str, Values] = {}
    for chunk in chunks(list(game_ids), CHUNK):
        for game_id, rules_json in db.session.execute(
                select(Game.id, Game.rules_json).where(Game.id.in_(chunk))):
            key = repr(sorted(rules_json.items()))
            if key not in cache:
                cache[key] = values_of(RuleSet(**rules_json))
            groups[cache[key]].append(game_id)
    return groups


# --- the figures of a few games, aggregated by the database -----------------------------------


@dataclass
class GameFigures:
    game_id: int
    revision: int
    winner_id: int | None
    finished_at: Any = None
    with_jokers: bool = False
    hands: int = 0
    comeback: int = 0
    comeback_hand: int | None = None
    swing: int = 0
    swing_hand: int | None = None
    swing_before: int = 0
    swing_after: int = 0

    def row(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "revision": self.revision,
                "finished_at": self.finished_at, "winner_id": self.winner_id,
                "with_jokers": self.with_jokers, "hands": self.hands,
                "comeback": self.comeback, "comeback_hand": self.comeback_hand,
                "swing": self.swing, "swing_hand": self.swing_hand,
                "swing_before": self.swing_before, "swing_after": self.swing_after}


#: Every figure of a player's row (not the keys, nor the league and the finish, which
#: come with the game), starting at 0.
PLAYER_FIELDS = tuple(c.name for c in PlayerGameStat.__table__.columns
                      if c.name not in ("game_id", "player_id", "league_id", "finished_at"))
_NULLABLE = {c.name for c in PlayerGameStat.__table__.columns if c.nullable}


@dataclass
class PlayerFigures:
    game_id: int
    player_id: int
    values: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        if name != "values" and name in PLAYER_FIELDS:
            return self.values.get(name, None if name in _NULLABLE else 0)
        raise AttributeError(name)

    def row(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "player_id": self.player_id,
                **{name: getattr(self, name) for name in PLAYER_FIELDS}}


@dataclass
class Figures:
    games: dict[int, GameFigures]
    players: dict[tuple[int, int], PlayerFigures]  # by (game id, player id)
    layoffs: list[dict[str, Any]]  # LayoffTally rows


def aggregate(game_ids: Sequence[int], values: Values | None = None) -> Figures:
    """The figures of these finished games (all valued alike: ``values``, else read
    from the first game's rules), from a handful of aggregate queries."""
    if values is None:
        groups = _by_values(game_ids)
        if len(groups) > 1:
            raise ValueError("aggregate() takes games whose rules value cards alike")
        values = next(iter(groups), None)
        if values is None:
            return Figures({}, {}, [])
    ids = list(game_ids)
    # the revisions first: a game changed while this runs is stale again afterwards
    games = {r.id: GameFigures(r.id, r.revision or 0, r.winner_id, r.finished_at,
                               bool((r.rules_json or {}).get("jokers")))
             for r in db.session.execute(select(Game.id, Game.revision, Game.winner_id,
                                                Game.finished_at, Game.rules_json)
                                         .where(Game.id.in_(ids)))}
    players = {(g, p): PlayerFigures(g, p) for g, p in db.session.execute(
        select(Seat.game_id, Seat.player_id).where(Seat.game_id.in_(ids))).tuples()}
    for r in db.session.execute(select(GameResult.game_id, GameResult.player_id,
                                       GameResult.position, GameResult.won)
                                .where(GameResult.game_id.in_(ids))):
        seat = players.get((r.game_id, r.player_id))
        if seat is not None:  # (head to head: the places the results give)
            seat.values["position"], seat.values["won"] = r.position, bool(r.won)

    def put(rows: Iterable[Any], names: Sequence[str]) -> None:
        for r in rows:
            figures = players.get((r.game_id, r.player_id))
            if figures is None:  # a card of someone not seated: cannot be stored anyway
                continue
            for name in names:
                value = getattr(r, name)
                figures.values[name] = None if value is None else int(value)

    put(*_scores(ids))
    put(*_meld_cards(ids, values))
    put(*_stranded(ids, values))
    put(*_melds(ids))
    put(*_streaks(ids))
    layoffs = [{"game_id": r.game_id, "player_id": r.player_id, "owner_id": r.owner_id,
                "cards": int(r.cards), "points": int(r.points)}
               for r in _layoffs(ids, values)
               if (r.game_id, r.player_id) in players and (r.game_id, r.owner_id) in players]
    for figures in players.values():
        if not figures.values.get("max_stranded"):
            figures.values["max_stranded_hand"] = None
    for lay in layoffs:
        owner = players[(lay["game_id"], lay["owner_id"])]
        owner.values["fed_by_others"] = owner.fed_by_others + lay["cards"]
    for r in _leads(ids):
        game = games[r.game_id]
        game.hands = int(r.hands)
        game.comeback = int(r.comeback or 0)
        game.comeback_hand = r.comeback_hand if game.comeback > 0 else None
        if r.swing and r.swing > 0:  # the winner gained in some hand
            game.swing, game.swing_hand = int(r.swing), r.swing_hand
            game.swing_before, game.swing_after = int(r.before or 0), int(r.after or 0)
    return Figures(games, players, layoffs)


def _complete(ids: Sequence[int]) -> list[Any]:
    return [Hand.game_id.in_(ids), Hand.complete.is_(True)]


def _scores(ids: Sequence[int]) -> tuple[Any, Sequence[str]]:
    """Hands, points, going out, best and worst hand, most stranded in a hand."""
    card_hand = case((cards.counts_cards(), 1), else_=0)
    part = (Hand.game_id, HandScore.player_id)
    ranked = (
        select(Hand.game_id, HandScore.player_id, Hand.number, HandScore.score,
               HandScore.stranded, Hand.went_out_id, Hand.going_rummy,
               card_hand.label("card_hand"),
               func.row_number().over(partition_by=part, order_by=(
                   HandScore.score.desc(), Hand.number)).label("best_rank"),
               func.row_number().over(partition_by=part, order_by=(
                   HandScore.score, Hand.number)).label("worst_rank"),
               func.row_number().over(partition_by=part, order_by=(
                   card_hand.desc(), HandScore.stranded.desc(), Hand.number))
               .label("strand_rank"))
        .join(Hand, Hand.id == HandScore.hand_id).where(*_complete(ids)).subquery())
    r = ranked.c
    out = r.went_out_id == r.player_id
    query = (
        select(r.game_id, r.player_id, func.count().label("hands"),
               func.sum(r.card_hand).label("card_hands"), func.sum(r.score).label("points"),
               _n(out).label("hands_out"),
               _n(and_(out, r.going_rummy.is_(True))).label("going_rummy"),
               func.max(r.score).label("best_score"),
               func.max(case((r.best_rank == 1, r.number))).label("best_hand"),
               func.min(r.score).label("worst_score"),
               func.max(case((r.worst_rank == 1, r.number))).label("worst_hand"),
               func.max(case((r.card_hand == 1, r.stranded))).label("max_stranded"),
               func.max(case((and_(r.strand_rank == 1, r.card_hand == 1), r.number)))
               .label("max_stranded_hand"))
        .group_by(r.game_id, r.player_id))
    return db.session.execute(query), (
        "hands", "card_hands", "points", "hands_out", "going_rummy", "best_score",
        "best_hand", "worst_score", "worst_hand", "max_stranded", "max_stranded_hand")


def _card_joins(query: Any) -> Any:
    return (query.join(Meld, Meld.id == MeldCard.meld_id).join(Hand, Hand.id == Meld.hand_id))


def _meld_cards(ids: Sequence[int], values: Values) -> tuple[Any, Sequence[str]]:
    """Points and cards melded and laid off, jokers, aces low and high, lay-offs."""
    value = card_value(MeldCard.card, values, low_ace())
    put = MeldCard.is_layoff.is_(False)
    laid = MeldCard.is_layoff.is_(True)
    joker = is_joker(MeldCard.card)
    query = _card_joins(
        select(Hand.game_id, MeldCard.laid_by_id.label("player_id"),
               _points(put, value).label("melded_points"),
               _points(laid, value).label("laid_off_points"),
               _n(put).label("melded_cards"), _n(laid).label("laid_off_cards"),
               _n(and_(joker, put)).label("jokers_melded"),
               _n(and_(joker, laid)).label("jokers_laid_off"),
               _points(joker, value).label("joker_points"),
               _n(low_ace()).label("aces_low"), _n(high_ace()).label("aces_high"),
               _n(ace_in_set()).label("aces_in_sets"),
               _n(and_(laid, MeldCard.laid_by_id != Meld.owner_id)).label("layoffs_on_others"),
               _n(and_(laid, MeldCard.laid_by_id == Meld.owner_id)).label("layoffs_on_own"))
        .select_from(MeldCard)).where(*_complete(ids), cards.counts_cards()).group_by(
            Hand.game_id, MeldCard.laid_by_id)
    return db.session.execute(query), (
        "melded_points", "laid_off_points", "melded_cards", "laid_off_cards", "jokers_melded",
        "jokers_laid_off", "joker_points", "aces_low", "aces_high", "aces_in_sets",
        "layoffs_on_others", "layoffs_on_own")


def _stranded(ids: Sequence[int], values: Values) -> tuple[Any, Sequence[str]]:
    """Points and cards left in hand, how often, jokers and aces among them."""
    value = card_value(StrandedCard.card, values)
    joker = is_joker(StrandedCard.card)
    ace = is_ace(StrandedCard.card)
    query = (
        select(Hand.game_id, StrandedCard.player_id,
               func.coalesce(func.sum(value), 0).label("stranded_points"),
               func.count().label("stranded_cards"),
               func.count(distinct(StrandedCard.hand_id)).label("caught"),
               _n(joker).label("jokers_stranded"),
               _points(joker, value).label("joker_stranded_points"),
               _n(ace).label("aces_stranded"), _points(ace, value).label("aces_stranded_points"))
        .join(Hand, Hand.id == StrandedCard.hand_id)
        .where(*_complete(ids), cards.counts_cards())
        .group_by(Hand.game_id, StrandedCard.player_id))
    return db.session.execute(query), (
        "stranded_points", "stranded_cards", "caught", "jokers_stranded",
        "joker_stranded_points", "aces_stranded", "aces_stranded_points")


def _melds(ids: Sequence[int]) -> tuple[Any, Sequence[str]]:
    """Sets and runs put down, and the longest run (the cards its owner put on it)."""
    own = func.sum(case((MeldCard.laid_by_id == Meld.owner_id, 1), else_=0))
    per_meld = _card_joins(
        select(Meld.id, Hand.game_id, Hand.number, Meld.owner_id, Meld.kind,
               own.label("own")).select_from(MeldCard)
    ).where(*_complete(ids), cards.counts_cards()).group_by(
        Meld.id, Hand.game_id, Hand.number, Meld.owner_id, Meld.kind).subquery()
    m = per_meld.c
    run_length = case((m.kind == RUN, m.own), else_=-1)
    ranked = select(m.game_id, m.number, m.owner_id, m.kind, m.own, func.row_number().over(
        partition_by=(m.game_id, m.owner_id), order_by=(run_length.desc(), m.number))
        .label("run_rank")).subquery()
    r = ranked.c
    query = (
        select(r.game_id, r.owner_id.label("player_id"), _n(r.kind == SET).label("sets"),
               _n(r.kind == RUN).label("runs"),
               func.coalesce(func.max(case((r.kind == RUN, r.own))), 0).label("longest_run"),
               func.max(case((and_(r.run_rank == 1, r.kind == RUN), r.number)))
               .label("longest_run_hand"))
        .group_by(r.game_id, r.owner_id))
    return db.session.execute(query), ("sets", "runs", "longest_run", "longest_run_hand")


def _streaks(ids: Sequence[int]) -> tuple[Any, Sequence[str]]:
    """Each player's longest run of hands in a row going out, and its first hand
    (consecutive numbers going out share ``number - row_number()``)."""
    outs = (select(Hand.game_id, Hand.went_out_id.label("player_id"), Hand.number,
                   (Hand.number - func.row_number().over(
                       partition_by=(Hand.game_id, Hand.went_out_id), order_by=Hand.number))
                   .label("island"))
            .where(*_complete(ids), Hand.went_out_id.is_not(None)).subquery())
    islands = (select(outs.c.game_id, outs.c.player_id, func.count().label("length"),
                      func.min(outs.c.number).label("first"))
               .group_by(outs.c.game_id, outs.c.player_id, outs.c.island).subquery())
    i = islands.c
    ranked = select(i.game_id, i.player_id, i.length, i.first, func.row_number().over(
        partition_by=(i.game_id, i.player_id), order_by=(i.length.desc(), i.first))
        .label("rank")).subquery()
    query = select(ranked.c.game_id, ranked.c.player_id,
                   ranked.c.length.label("out_streak"),
                   ranked.c.first.label("out_streak_hand")).where(ranked.c.rank == 1)
    return db.session.execute(query), ("out_streak", "out_streak_hand")


def _layoffs(ids: Sequence[int], values: Values) -> Any:
    """Cards each player laid off on each other player's melds, and their points."""
    value = card_value(MeldCard.card, values, low_ace())
    return db.session.execute(_card_joins(
        select(Hand.game_id, MeldCard.laid_by_id.label("player_id"), Meld.owner_id,
               func.count().label("cards"), func.sum(value).label("points"))
        .select_from(MeldCard)).where(
            *_complete(ids), cards.counts_cards(), MeldCard.is_layoff.is_(True),
            MeldCard.laid_by_id != Meld.owner_id)
        .group_by(Hand.game_id, MeldCard.laid_by_id, Meld.owner_id))


def _leads(ids: Sequence[int]) -> Any:
    """Per game: its hands, the winner's largest deficit to the leader after a hand
    (the comeback) and the hand in which the winner gained most on the best of the
    others (the turning point: the largest swing of the lead their way), from running
    totals (window sums)."""
    running = (select(Hand.game_id, Hand.number, HandScore.player_id,
                      func.sum(HandScore.score).over(
                          partition_by=(Hand.game_id, HandScore.player_id),
                          order_by=Hand.number).label("total"))
               .join(Hand, Hand.id == HandScore.hand_id).where(*_complete(ids)).subquery())
    t = running.c
    winner = Game.winner_id
    per_hand = (select(t.game_id, t.number, func.max(t.total).label("leader"),
                       func.max(case((t.player_id == winner, t.total))).label("mine"),
                       func.max(case((t.player_id != winner, t.total))).label("others"))
                .join(Game, Game.id == t.game_id).group_by(t.game_id, t.number).subquery())
    h = per_hand.c
    margin = func.coalesce(h.mine - h.others, 0)
    lagged = select(h.game_id, h.number, func.coalesce(h.leader - h.mine, 0).label("deficit"),
                    margin.label("margin"),
                    func.coalesce(func.lag(margin).over(partition_by=h.game_id,
                                                        order_by=h.number), 0)
                    .label("before")).subquery()
    g = lagged.c
    change = g.margin - g.before
    ranked = select(g.game_id, g.number, g.deficit, g.margin, g.before,
                    change.label("change"),
                    func.row_number().over(partition_by=g.game_id, order_by=(
                        g.deficit.desc(), g.number)).label("deficit_rank"),
                    func.row_number().over(partition_by=g.game_id, order_by=(
                        change.desc(), g.number)).label("swing_rank")).subquery()
    r = ranked.c
    return db.session.execute(
        select(r.game_id, func.count().label("hands"), func.max(r.deficit).label("comeback"),
               func.max(case((r.deficit_rank == 1, r.number))).label("comeback_hand"),
               func.max(case((r.swing_rank == 1, r.change))).label("swing"),
               func.max(case((r.swing_rank == 1, r.number))).label("swing_hand"),
               func.max(case((r.swing_rank == 1, r.before))).label("before"),
               func.max(case((r.swing_rank == 1, r.margin))).label("after"))
        .group_by(r.game_id))


def _tallies(ids: Sequence[int]) -> list[Any]:
    """The four ``stat_tally`` selects: cards melded, cards stranded, meld shapes, and
    hand scores (every complete hand, points-only ones too: the score distribution)."""
    def kind(name: str) -> Any:
        return literal(name, String(10)).label("kind")

    finished = func.max(Game.finished_at)  # (one game: its finish)
    melded = _card_joins(
        select(Hand.game_id, MeldCard.laid_by_id, kind(MELDED), MeldCard.card,
               func.count(), finished).select_from(MeldCard)
    ).join(Game, Game.id == Hand.game_id).where(*_complete(ids), cards.counts_cards()).group_by(
        Hand.game_id, MeldCard.laid_by_id, MeldCard.card)
    stranded = (select(Hand.game_id, StrandedCard.player_id, kind(STRANDED), StrandedCard.card,
                       func.count(), finished)
                .join(Hand, Hand.id == StrandedCard.hand_id)
                .join(Game, Game.id == Hand.game_id)
                .where(*_complete(ids), cards.counts_cards())
                .group_by(Hand.game_id, StrandedCard.player_id, StrandedCard.card))
    # a meld's shape, from the cards its owner put down: a set by its rank, a run by its
    # suit and first and last positions
    as_it_lies = func.coalesce(MeldCard.declared, MeldCard.card)
    natural = MeldCard.card != JOKER_TEXT
    placed = as_it_lies != JOKER_TEXT
    per_meld = _card_joins(
        select(Meld.id, Hand.game_id, Meld.owner_id, Meld.kind,
               func.max(case((natural, rank_text(MeldCard.card)))).label("rank"),
               func.max(declared_rank(MeldCard.declared)).label("declared_rank"),
               func.max(case((placed, suit_of(as_it_lies)))).label("suit"),
               func.min(case((placed, run_position(as_it_lies, Meld.reading)))).label("low"),
               func.max(case((placed, run_position(as_it_lies, Meld.reading)))).label("high"))
        .select_from(MeldCard)
    ).where(*_complete(ids), cards.counts_cards(), MeldCard.is_layoff.is_(False)).group_by(
        Meld.id, Hand.game_id, Meld.owner_id, Meld.kind).subquery()
    m = per_meld.c
    shape = type_coerce(case(
        (m.kind == SET, literal("S:", String) + func.coalesce(m.rank, m.declared_rank, "?")),
        else_=(literal("R:", String) + func.coalesce(m.suit, "?") + literal(":", String)
               + text(m.low) + literal("-", String) + text(m.high))), String)
    shapes = (select(m.game_id, m.owner_id, kind(MELD), shape.label("item"), func.count(),
                     func.max(Game.finished_at))
              .join(Game, Game.id == m.game_id)
              .group_by(m.game_id, m.owner_id, shape))
    return [melded, stranded, shapes, score_tallies(ids)]


def score_tallies(ids: Sequence[int]) -> Any:
    """The ``stat_tally`` select of each player's hand scores in these games."""
    return (select(Hand.game_id, HandScore.player_id,
                   literal(sums.SCORE, String(10)).label("kind"), text(HandScore.score),
                   func.count(), func.max(Game.finished_at))
            .join(Hand, Hand.id == HandScore.hand_id)
            .join(Game, Game.id == Hand.game_id)
            .where(*_complete(ids))
            .group_by(Hand.game_id, HandScore.player_id, HandScore.score))


def backfill_sums(session: Session, league_id: int) -> None:
    """For a league counted before the score tallies and the sums existed: its score
    tallies, then its sums (the migration that added them).  Does not commit."""
    counted = list(session.scalars(select(GameStat.game_id).where(
        GameStat.league_id == league_id, ~GameStat.game_id.in_(
            select(StatTally.game_id).where(StatTally.kind == sums.SCORE)))))
    for chunk in chunks(counted, CHUNK):
        session.execute(insert(StatTally).from_select(
            ["game_id", "player_id", "kind", "item", "count", "finished_at"],
            score_tallies(chunk)))
    sums.resum(db.session, league_id)
