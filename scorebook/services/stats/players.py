"""A player's figures over a season or all time, each with what it was counted over.

One aggregate over the player's rows of the cache (one per finished game), a few
``ORDER BY … LIMIT 1`` look-ups for the hands worth linking to, three tallies (the
card most often stranded, the card most often melded, the favourite meld) and the
lay-offs between the player and each opponent.  Nothing walks a hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select

from scorebook.extensions import db
from scorebook.models import (
    ALL_TIME,
    STAT_SUMMED,
    Game,
    GameResult,
    LayoffTally,
    Player,
    PlayerGameStat,
    StatTally,
    player_stat_sum,
)
from scorebook.services.ratings import START_MU, display_rating
from scorebook.services.seasons import season_bounds
from scorebook.services.stats.cache import MELD, MELDED, STRANDED
from scorebook.services.stats.cards import JOKER_TEXT, MeldShape, parse_shape
from scorebook.services.stats.scope import Scope
from scorebook.services.sums import COUNTS

P = PlayerGameStat

#: Summed over the player's games.
SUMMED = STAT_SUMMED

#: The games the rating trend of "all time" looks back over.
TREND_GAMES = 10


@dataclass(frozen=True)
class HandLink:
    """A figure that happened in one hand (or from one hand on): its value, the game
    and the hand number."""

    value: int
    game_id: int
    number: int | None


@dataclass(frozen=True)
class Counted:
    """A card (``7H``) or a meld shape, and how often."""

    item: str
    count: int

    @property
    def shape(self) -> MeldShape | None:
        return parse_shape(self.item)


@dataclass
class Feed:
    """Lay-offs between the player and one opponent: ``gave`` cards the player laid
    off on the opponent's melds, ``got`` cards the opponent laid off on the player's."""

    player_id: int
    name: str
    gave: int = 0
    got: int = 0


@dataclass
class Trend:
    """The rating now (after the last game counted), and how it moved over ``games``."""

    rating: int
    change: int
    games: int


@dataclass
class Sums:
    """Figures summed over a set of games (a player's, or everyone's)."""

    games: int = 0
    values: dict[str, int] = field(default_factory=dict)

    def __getattr__(self, name: str) -> int:
        if name != "values" and (name in SUMMED or name in self.values):
            return self.values.get(name, 0)
        raise AttributeError(name)

    def per_hand(self, name: str) -> float | None:
        return self.values.get(name, 0) / self.card_hands if self.card_hands else None

    @property
    def avg_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None

    @property
    def out_rate(self) -> float | None:
        return self.hands_out / self.hands if self.hands else None

    @property
    def left_out(self) -> int:
        """Hands counted for points but not for cards (entered as points only)."""
        return self.hands - self.card_hands

    @property
    def caught_rate(self) -> float | None:
        return self.caught / self.card_hands if self.card_hands else None

    @property
    def caught_cost(self) -> float | None:
        """Points stranded on average in a hand they were caught holding cards."""
        return self.stranded_points / self.caught if self.caught else None

    @property
    def jokers(self) -> int:
        return self.jokers_melded + self.jokers_laid_off + self.jokers_stranded

    @property
    def joker_net(self) -> int:
        """What jokers brought: their points melded and laid off, less those stranded."""
        return self.joker_points - self.joker_stranded_points

    @property
    def aces_melded(self) -> int:
        return self.aces_low + self.aces_high + self.aces_in_sets

    @property
    def melds(self) -> int:
        return self.sets + self.runs

@dataclass
class PlayerStats:
    player_id: int
    sums: Sums
    joker_games: int = 0
    basic_games: int = 0
    best: HandLink | None = None
    worst: HandLink | None = None
    longest_out: HandLink | None = None
    longest_run: HandLink | None = None
    most_stranded_hand: HandLink | None = None
    most_stranded: list[Counted] = field(default_factory=list)
    luckiest: list[Counted] = field(default_factory=list)
    favourite_melds: list[Counted] = field(default_factory=list)
    feeds: list[Feed] = field(default_factory=list)
    trend: Trend | None = None
    everyone: Sums | None = None  # the same figures over every player in the scope


def _summed(scope: Scope, player_id: int | None = None) -> tuple[Sums, int, int]:
    """(the sums, games with jokers, games of Basic Rummy) of one player over the scope,
    or of everyone (None): the maintained rows of :data:`player_stat_sum`, one per
    player (:mod:`scorebook.services.sums`), whatever the league's age."""
    t = player_stat_sum.c
    season_id = ALL_TIME if scope.season is None else scope.season.id
    where = [t.league_id == scope.league_id, t.season_id == season_id]
    if player_id is not None:
        where.append(t.player_id == player_id)
    row = db.session.execute(
        select(*[func.coalesce(func.sum(t[n]), 0) for n in COUNTS]).where(*where)).one()
    values = dict(zip(COUNTS, (int(v) for v in row)))
    return (Sums(values["games"], {n: values[n] for n in SUMMED}), values["joker_games"],
            values["basic_games"])


def _link(where: list[Any], value: Any, number: Any, descending: bool = True,
          at_least: int | None = None) -> HandLink | None:
    conditions = [*where, value.is_not(None)]
    if at_least is not None:
        conditions.append(value >= at_least)
    row = db.session.execute(
        select(value, P.game_id, number).where(*conditions)
        .order_by(value.desc() if descending else value, P.finished_at, P.game_id)
        .limit(1)).first()
    return HandLink(int(row[0]), row[1], row[2]) if row else None


def top_items(scope: Scope, player_id: int, limit: int = 3) -> dict[str, list[Counted]]:
    """For each tally kind, the items the player tallied most often (every one tied
    for first, up to ``limit``; jokers left out of the cards: they have figures of
    their own).  A ``GROUP BY`` a kind over the player's rows alone, read in order
    from their covering index (a player is in one league, the cache holds finished
    games only, and each row keeps its game's finish for the seasons)."""
    out = {}
    for kind in (MELDED, STRANDED, MELD):
        conditions = [StatTally.player_id == player_id, StatTally.kind == kind]
        if kind != MELD:
            conditions.append(StatTally.item != JOKER_TEXT)
        if scope.season is not None:
            start, end = season_bounds(scope.season)
            conditions += [StatTally.finished_at >= start, StatTally.finished_at < end]
        total = func.sum(StatTally.count)
        rows = db.session.execute(
            select(StatTally.item, total).where(*conditions).group_by(StatTally.item)
            .order_by(total.desc(), StatTally.item).limit(limit + 1)).all()
        best = int(rows[0][1]) if rows else 0
        out[kind] = [Counted(item, int(n)) for item, n in rows[:limit] if int(n) == best]
    return out


def feeds(where: list[Any], player_id: int) -> list[Feed]:
    """Lay-offs between the player and each opponent, most first."""
    by_opponent: dict[int, Feed] = {}
    gave = db.session.execute(
        select(LayoffTally.owner_id, Player.name, func.sum(LayoffTally.cards))
        .join(Game, Game.id == LayoffTally.game_id)
        .join(Player, Player.id == LayoffTally.owner_id)
        .where(LayoffTally.player_id == player_id, *where)
        .group_by(LayoffTally.owner_id, Player.name))
    for pid, name, n in gave:
        by_opponent.setdefault(pid, Feed(pid, name)).gave = int(n)
    got = db.session.execute(
        select(LayoffTally.player_id, Player.name, func.sum(LayoffTally.cards))
        .join(Game, Game.id == LayoffTally.game_id)
        .join(Player, Player.id == LayoffTally.player_id)
        .where(LayoffTally.owner_id == player_id, *where)
        .group_by(LayoffTally.player_id, Player.name))
    for pid, name, n in got:
        by_opponent.setdefault(pid, Feed(pid, name)).got = int(n)
    return sorted(by_opponent.values(), key=lambda f: (-(f.gave + f.got), f.name.lower()))


def trend(player_id: int, scope: Scope) -> Trend | None:
    """The rating after the last game in the scope, and its change over the season
    (from just before its first game) or, all time, over the last games.  A few
    ``LIMIT`` look-ups on the player's index (by order, or by time in a season)."""
    g = GameResult
    if scope.season is not None:
        start, end = season_bounds(scope.season)
        games, first, last = db.session.execute(
            select(func.count(), func.min(g.seq), func.max(g.seq)).where(
                g.player_id == player_id, g.finished_at >= start, g.finished_at < end)).one()
        if not games:
            return None
        now_mu = db.session.execute(select(g.mu).where(g.player_id == player_id,
                                                       g.seq == last)).scalar_one()
        before = db.session.scalar(select(g.mu).where(g.player_id == player_id, g.seq < first)
                                   .order_by(g.seq.desc()).limit(1))
    else:
        rows = list(db.session.scalars(select(g.mu).where(g.player_id == player_id)
                                       .order_by(g.seq.desc()).limit(TREND_GAMES + 1)))
        if not rows:
            return None
        now_mu, games = rows[0], min(len(rows), TREND_GAMES)
        before = rows[TREND_GAMES] if len(rows) > TREND_GAMES else None
    now = display_rating(now_mu)
    return Trend(now, now - display_rating(START_MU if before is None else before), games)


def everyone(scope: Scope) -> Sums:
    """Every player's figures over the scope, summed (what a player is compared with)."""
    return _summed(scope)[0]


def player_stats(player: Player, scope: Scope, compared: Sums | None = None) -> PlayerStats:
    """Everything the player page shows from the cards (the cache must be fresh:
    :func:`scorebook.services.stats.cache.refresh`); ``compared``: :func:`everyone`'s sums, if
    already known."""
    where = scope.where()
    mine = [P.player_id == player.id, *scope.on(P)]
    sums, joker_games, basic_games = _summed(scope, player.id)
    stats = PlayerStats(player.id, sums)
    if not sums.games:
        return stats
    stats.joker_games, stats.basic_games = joker_games, basic_games
    stats.best = _link(mine, P.best_score, P.best_hand)
    stats.worst = _link(mine, P.worst_score, P.worst_hand, descending=False)
    stats.longest_out = _link(mine, P.out_streak, P.out_streak_hand, at_least=1)
    stats.longest_run = _link(mine, P.longest_run, P.longest_run_hand, at_least=1)
    stats.most_stranded_hand = _link(mine, P.max_stranded, P.max_stranded_hand, at_least=1)
    tallies = top_items(scope, player.id)
    stats.most_stranded = tallies[STRANDED]
    stats.luckiest = tallies[MELDED]
    stats.favourite_melds = tallies[MELD]
    stats.feeds = feeds(where, player.id)
    stats.trend = trend(player.id, scope)
    stats.everyone = compared if compared is not None else everyone(scope)
    return stats


def everyone_sums(scope: Scope) -> dict[int, Sums]:
    """Each player's sums over the scope (for the recap's signature figures), with the
    largest single figures under ``best_score``, ``longest_run`` and ``out_streak``."""
    extra = ("best_score", "longest_run", "out_streak")
    rows = db.session.execute(
        select(P.player_id, func.count(), *[func.coalesce(func.sum(getattr(P, n)), 0)
                                            for n in SUMMED],
               *[func.max(getattr(P, n)) for n in extra])
        .where(*scope.on(P)).group_by(P.player_id))
    out = {}
    for r in rows:
        sums = Sums(int(r[1]), {n: int(v) for n, v in zip(SUMMED, r[2:2 + len(SUMMED)])})
        for n, v in zip(extra, r[2 + len(SUMMED):]):
            sums.values[n] = int(v) if v is not None else 0
        out[r[0]] = sums
    return out
