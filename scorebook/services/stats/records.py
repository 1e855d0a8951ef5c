"""A league's records (all time or one season), head to head, and who feeds whom.

Each record is one ``ORDER BY … LIMIT 1`` over the cache (a row per game, or per
player per game): the highest hand, the biggest comeback, the longest and the
shortest game, the most hands in a row going out, the most points stranded in one
hand.  A tie goes to whoever set it first (the earlier game).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import case, func, null, select
from sqlalchemy.orm import aliased

from scorebook.extensions import db
from scorebook.models import Game, GameResult, GameStat, LayoffTally, Player, PlayerGameStat
from scorebook.services.stats.scope import Scope

P = PlayerGameStat

HIGHEST_HAND = "highest-hand"
COMEBACK = "comeback"
LONGEST_GAME = "longest-game"
SHORTEST_GAME = "shortest-game"
HANDS_IN_A_ROW = "hands-in-a-row"
MOST_STRANDED = "most-stranded"
RECORDS = (HIGHEST_HAND, COMEBACK, LONGEST_GAME, SHORTEST_GAME, HANDS_IN_A_ROW, MOST_STRANDED)


@dataclass(frozen=True)
class Record:
    """``kind`` (one of :data:`RECORDS`), its value, who set it (for a game record:
    the winner), the game, the hand (None: the whole game) and when it finished."""

    kind: str
    value: int
    player_id: int | None
    name: str | None
    game_id: int
    number: int | None
    finished_at: datetime


def _first(query: Any, kind: str) -> Record | None:
    """The query's first row as a record (the holder's name looked up for it alone)."""
    row = db.session.execute(query.limit(1)).first()
    if row is None:
        return None
    holder = db.session.get(Player, row.player_id) if row.player_id else None
    name = holder.name if holder is not None else None
    return Record(kind, int(row.value), row.player_id, name, row.game_id, row.number,
                  row.finished_at)


def _player_record(scope: Scope, value: Any, number: Any, at_least: int | None) -> Any:
    conditions = [*scope.on(P), value.is_not(None)]
    if at_least is not None:
        conditions.append(value >= at_least)
    return (select(value.label("value"), P.player_id, P.game_id, number.label("number"),
                   P.finished_at)
            .where(*conditions)
            .order_by(value.desc(), P.finished_at, P.game_id, P.player_id))


def _game_record(scope: Scope, value: Any, number: Any, descending: bool = True,
                 at_least: int | None = None) -> Any:
    conditions = scope.on(GameStat)
    if at_least is not None:
        conditions.append(value >= at_least)
    return (select(value.label("value"), GameStat.winner_id.label("player_id"),
                   GameStat.game_id, number.label("number"), GameStat.finished_at)
            .where(*conditions)
            .order_by(value.desc() if descending else value, GameStat.finished_at,
                      GameStat.game_id))


def records(scope: Scope) -> list[Record]:
    """The scope's records, in the order of :data:`RECORDS` (a record nobody has set
    yet is left out: no comeback, nobody out twice in a row, nothing ever stranded)."""
    whole_game = null()  # the hand number of a record about a whole game
    queries = {
        HIGHEST_HAND: _player_record(scope, P.best_score, P.best_hand, None),
        COMEBACK: _game_record(scope, GameStat.comeback, GameStat.comeback_hand, at_least=1),
        LONGEST_GAME: _game_record(scope, GameStat.hands, whole_game, at_least=1),
        SHORTEST_GAME: _game_record(scope, GameStat.hands, whole_game, descending=False,
                                    at_least=1),
        HANDS_IN_A_ROW: _player_record(scope, P.out_streak, P.out_streak_hand, 2),
        MOST_STRANDED: _player_record(scope, P.max_stranded, P.max_stranded_hand, 1),
    }
    found = [_first(queries[kind], kind) for kind in RECORDS]
    return [r for r in found if r is not None]


# --- head to head ---------------------------------------------------------------------------


@dataclass
class PairGame:
    game_id: int
    finished_at: datetime
    totals: tuple[int, int]
    positions: tuple[int, int]
    winner: int | None  # 0: the first player, 1: the second, None: someone else


@dataclass
class Pair:
    """Two players over the games they both played: ``wins`` each, ``ahead`` (games
    each finished in the better place; the rest were level), the margin (the first
    player's final total less the second's) on average and at its widest each way,
    and the hands each went out in those games."""

    games: int = 0
    wins: tuple[int, int] = (0, 0)
    ahead: tuple[int, int] = (0, 0)
    margin_sum: int = 0
    widest: tuple[PairGame | None, PairGame | None] = (None, None)
    hands: int = 0
    hands_out: tuple[int, int] = (0, 0)
    recent: list[PairGame] = field(default_factory=list)

    @property
    def level(self) -> int:
        return self.games - self.ahead[0] - self.ahead[1]

    @property
    def avg_margin(self) -> float | None:
        return self.margin_sum / self.games if self.games else None


def pair(scope: Scope, first: int, second: int, recent: int = 10) -> Pair:
    """The two players head to head (``first`` and ``second`` are player ids)."""
    a, b = aliased(GameResult), aliased(GameResult)
    where = [a.player_id == first, b.player_id == second, *scope.where()]
    one = 1
    row = db.session.execute(
        select(func.count(), func.sum(case((a.won, one), else_=0)),
               func.sum(case((b.won, one), else_=0)),
               func.sum(case((a.position < b.position, one), else_=0)),
               func.sum(case((a.position > b.position, one), else_=0)),
               func.sum(a.total - b.total))
        .select_from(a).join(b, b.game_id == a.game_id).join(Game, Game.id == a.game_id)
        .where(*where)).one()
    out = Pair(int(row[0] or 0), (int(row[1] or 0), int(row[2] or 0)),
               (int(row[3] or 0), int(row[4] or 0)), int(row[5] or 0))
    if not out.games:
        return out

    def games(order: Any, limit: int) -> list[PairGame]:
        rows = db.session.execute(
            select(a.game_id, a.finished_at, a.total, b.total.label("their_total"),
                   a.position, b.position.label("their_position"), a.won,
                   b.won.label("their_won"))
            .select_from(a).join(b, b.game_id == a.game_id).join(Game, Game.id == a.game_id)
            .where(*where).order_by(*order).limit(limit))
        return [PairGame(r.game_id, r.finished_at, (r.total, r.their_total),
                         (r.position, r.their_position),
                         0 if r.won else 1 if r.their_won else None) for r in rows]

    out.recent = games((a.seq.desc(),), recent)
    margin = a.total - b.total
    best = games((margin.desc(), a.seq), 1)
    worst = games((margin, a.seq), 1)
    out.widest = (best[0] if best and best[0].totals[0] > best[0].totals[1] else None,
                  worst[0] if worst and worst[0].totals[1] > worst[0].totals[0] else None)
    pa, pb = aliased(P), aliased(P)
    hands = db.session.execute(
        select(func.sum(pa.hands), func.sum(pa.hands_out), func.sum(pb.hands_out))
        .select_from(pa).join(pb, pb.game_id == pa.game_id).join(Game, Game.id == pa.game_id)
        .where(pa.player_id == first, pb.player_id == second, *scope.where())).one()
    out.hands = int(hands[0] or 0)
    out.hands_out = (int(hands[1] or 0), int(hands[2] or 0))
    return out


# --- who feeds whom ---------------------------------------------------------------------------


@dataclass
class FeedMatrix:
    """``cards[(a, b)]``: cards player ``a`` laid off on player ``b``'s melds."""

    players: list[tuple[int, str]]
    cards: dict[tuple[int, int], int]

    def given(self, player_id: int) -> int:
        return sum(n for (a, _b), n in self.cards.items() if a == player_id)

    def taken(self, player_id: int) -> int:
        return sum(n for (_a, b), n in self.cards.items() if b == player_id)

    @property
    def top(self) -> int:
        return max(self.cards.values(), default=0)


def feed_matrix(scope: Scope) -> FeedMatrix:
    cards = {(a, b): int(n) for a, b, n in db.session.execute(
        select(LayoffTally.player_id, LayoffTally.owner_id, func.sum(LayoffTally.cards))
        .join(Game, Game.id == LayoffTally.game_id).where(*scope.where())
        .group_by(LayoffTally.player_id, LayoffTally.owner_id)).tuples()}
    ids = sorted({p for pair_ in cards for p in pair_})
    names = dict(db.session.execute(
        select(Player.id, Player.name).where(Player.id.in_(ids))).tuples().all()) if ids else {}
    players = sorted(((i, names.get(i, "?")) for i in ids), key=lambda p: p[1].lower())
    return FeedMatrix(players, cards)
