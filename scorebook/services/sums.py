"""A player's statistics summed per season and all time, kept as the cache changes.

The player page shows a player's figures summed over every game of a season or of all
time, compares them with everyone's, and draws how often each hand score came up.
Summing the cache rows (one per player per game) on every view costs what the league
has played: 0.1–0.2 s at 50,000 games.  Instead :mod:`scorebook.services.stats.cache` adds a
game's rows into :data:`~scorebook.models.player_stat_sum` and
:data:`~scorebook.models.player_score_sum` as it counts the game, and subtracts them as
it drops them (before rebuilding a changed game, when a game is no longer finished,
when a game is deleted), in the same transaction — sums are exact under both, so the
tables always hold the sums of the cache rows.  A change of the seasons themselves
(a season added, moved or deleted; players merged) sums the league again
(:func:`resum`).  Every page then reads one row per player and scope.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, case, delete, event, func, insert, select, update
from sqlalchemy.orm import Session, aliased

from scorebook.extensions import AnySession
from scorebook.models import (
    ALL_TIME,
    STAT_SUMMED,
    Game,
    GameStat,
    PlayerGameStat,
    Season,
    StatTally,
    player_pair_sum,
    player_score_sum,
    player_stat_sum,
)
from scorebook.services import memo

#: The ``stat_tally`` kind that counts a player's hand scores in a game (item: the score).
SCORE = "score"

#: The columns of a ``player_stat_sum`` row besides its keys.
COUNTS = ("games", "joker_games", "basic_games", *STAT_SUMMED)
#: The columns of a ``player_pair_sum`` row besides its keys.
PAIR_COUNTS = ("games", "ahead", "behind", "wins", "their_wins")

P = PlayerGameStat
Key = tuple[int, int]  # (player id, season id)


def _day(at: datetime) -> date:
    return (at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)).date()


class _Seasons:
    """Which season holds a day, per league (the seasons never overlap)."""

    def __init__(self, session: AnySession, league_ids: Iterable[int]) -> None:
        self.by_league: dict[int, list[tuple[date, date, int]]] = defaultdict(list)
        ids = sorted(set(league_ids))
        if ids:
            for s in session.execute(select(Season.id, Season.league_id, Season.starts_on,
                                            Season.ends_on).where(Season.league_id.in_(ids))):
                self.by_league[s.league_id].append((s.starts_on, s.ends_on, s.id))

        self.seen: dict[tuple[int, datetime], list[int]] = {}

    def scopes(self, league_id: int, at: datetime) -> list[int]:
        key = (league_id, at)
        if key not in self.seen:
            day = _day(at)
            self.seen[key] = [ALL_TIME] + [
                sid for start, end, sid in self.by_league.get(league_id, [])
                if start <= day <= end]
        return self.seen[key]


def account(session: AnySession, game_ids: Sequence[int], sign: int) -> None:
    """Add (``sign`` 1) or subtract (-1) the cache rows of these games to or from the
    sums.  Call with 1 after the rows are stored, with -1 before they are deleted."""
    ids = list(game_ids)
    if not ids:
        return
    memo.bump()  # (figures kept in this process are from before)
    stat_delta: dict[Key, list[int]] = {}
    score_delta: dict[tuple[int, int, int], int] = defaultdict(int)
    leagues: dict[Key, int] = {}
    rows = list(session.execute(
        select(P.player_id, P.league_id, P.finished_at, GameStat.with_jokers, Game.family,
               P.game_id, P.position, P.won, *[getattr(P, n) for n in STAT_SUMMED])
        .join(GameStat, GameStat.game_id == P.game_id).join(Game, Game.id == P.game_id)
        .where(P.game_id.in_(ids))))
    scores = list(session.execute(
        select(StatTally.player_id, StatTally.item, StatTally.count, StatTally.finished_at,
               GameStat.league_id)
        .join(GameStat, GameStat.game_id == StatTally.game_id)
        .where(StatTally.game_id.in_(ids), StatTally.kind == SCORE)))
    if not rows and not scores:
        return
    seasons = _Seasons(session, {r.league_id for r in rows} | {r.league_id for r in scores})
    for r in rows:
        values = [1, 1 if r.with_jokers else 0, 1 if r.family == "basic" else 0,
                  *[int(v or 0) for v in r[8:]]]
        for scope in seasons.scopes(r.league_id, r.finished_at):
            key = (r.player_id, scope)
            leagues[key] = r.league_id
            total = stat_delta.setdefault(key, [0] * len(COUNTS))
            for i, v in enumerate(values):
                total[i] += sign * v
    for r in scores:
        for scope in seasons.scopes(r.league_id, r.finished_at):
            # (by its key: to a type checker a row's .count is tuple.count)
            score_delta[(r.player_id, scope, int(r.item))] += sign * int(r._mapping["count"])
            leagues[(r.player_id, scope)] = r.league_id
    tables: dict[int, list[Any]] = defaultdict(list)
    for r in rows:
        if r.position is not None:
            tables[r.game_id].append(r)
    pair_delta: dict[tuple[int, int, int], list[int]] = {}
    for seated in tables.values():
        for me in seated:
            for them in seated:
                if me.player_id == them.player_id:
                    continue
                values = [1, int(me.position < them.position), int(me.position > them.position),
                          int(bool(me.won)), int(bool(them.won))]
                for scope in seasons.scopes(me.league_id, me.finished_at):
                    total = pair_delta.setdefault((me.player_id, them.player_id, scope),
                                                  [0] * len(PAIR_COUNTS))
                    for i, v in enumerate(values):
                        total[i] += sign * v
                    leagues[(me.player_id, scope)] = me.league_id
    _apply_stats(session, stat_delta, leagues)
    _apply_scores(session, score_delta, leagues)
    _apply_pairs(session, pair_delta, leagues)


def _write(session: AnySession, table: Any, keys: dict[str, Any], columns: Sequence[str],
           gone: list[dict[str, Any]], inserts: list[dict[str, Any]],
           updates: list[dict[str, Any]]) -> None:
    """One batch of changes to a sums table, a statement each (executemany): the rows
    ``gone`` deleted, ``inserts`` added and ``updates`` set. ``keys`` names the
    bind parameters (``k_…``) that pick a row by its columns; an update sets each of
    ``columns`` from its ``v_…`` parameter."""
    where = and_(*(column == bindparam(name) for name, column in keys.items()))
    if gone:
        session.execute(delete(table).where(where), gone)
    if inserts:
        session.execute(insert(table), inserts)
    if updates:
        session.execute(update(table).where(where)
                        .values({n: bindparam(f"v_{n}") for n in columns}), updates)


def _apply_pairs(session: AnySession, delta: dict[tuple[int, int, int], list[int]],
                 leagues: dict[Key, int]) -> None:
    delta = {k: v for k, v in delta.items() if any(v)}
    if not delta:
        return
    t = player_pair_sum.c
    players, seasons = sorted({p for p, _o, _s in delta}), sorted({s for _p, _o, s in delta})
    old = {(r.player_id, r.opponent_id, r.season_id): r for r in session.execute(
        select(player_pair_sum).where(t.player_id.in_(players), t.season_id.in_(seasons)))}
    inserts, updates, gone = [], [], []
    for key, change in delta.items():
        before = old.get(key)
        values = [change[i] + (getattr(before, n) if before is not None else 0)
                  for i, n in enumerate(PAIR_COUNTS)]
        keys = {"k_player": key[0], "k_opponent": key[1], "k_season": key[2]}
        if values[0] <= 0:
            if before is not None:
                gone.append(keys)
        elif before is None:
            inserts.append({"player_id": key[0], "opponent_id": key[1], "season_id": key[2],
                            "league_id": leagues[(key[0], key[2])],
                            **dict(zip(PAIR_COUNTS, values))})
        else:
            updates.append({**keys, **{f"v_{n}": v for n, v in zip(PAIR_COUNTS, values)}})
    _write(session, player_pair_sum, {"k_player": t.player_id, "k_opponent": t.opponent_id,
                                      "k_season": t.season_id}, PAIR_COUNTS,
           gone, inserts, updates)


def _apply_stats(session: AnySession, delta: dict[Key, list[int]], leagues: dict[Key, int]
                 ) -> None:
    if not delta:
        return
    t = player_stat_sum.c
    players, seasons = sorted({p for p, _s in delta}), sorted({s for _p, s in delta})
    old = {(r.player_id, r.season_id): r for r in session.execute(
        select(player_stat_sum).where(t.player_id.in_(players), t.season_id.in_(seasons)))}
    inserts, updates, gone = [], [], []
    for key, change in delta.items():
        before = old.get(key)
        values = [change[i] + (getattr(before, n) if before is not None else 0)
                  for i, n in enumerate(COUNTS)]
        row = dict(zip(COUNTS, values))
        if values[0] <= 0:
            if before is not None:
                gone.append({"k_player": key[0], "k_season": key[1]})
        elif before is None:
            inserts.append({"player_id": key[0], "season_id": key[1],
                            "league_id": leagues[key], **row})
        else:
            updates.append({"k_player": key[0], "k_season": key[1],
                            **{f"v_{n}": v for n, v in row.items()}})
    _write(session, player_stat_sum, {"k_player": t.player_id, "k_season": t.season_id},
           COUNTS, gone, inserts, updates)


def _apply_scores(session: AnySession, delta: dict[tuple[int, int, int], int],
                  leagues: dict[Key, int]) -> None:
    delta = {k: v for k, v in delta.items() if v}
    if not delta:
        return
    t = player_score_sum.c
    players = sorted({p for p, _s, _score in delta})
    seasons, scores = sorted({s for _p, s, _n in delta}), sorted({n for _p, _s, n in delta})
    old = {(r.player_id, r.season_id, r.score): r.hands for r in session.execute(
        select(t.player_id, t.season_id, t.score, t.hands).where(
            t.player_id.in_(players), t.season_id.in_(seasons), t.score.in_(scores)))}
    inserts, updates, gone = [], [], []
    for key, change in delta.items():
        hands = old.get(key, 0) + change
        keys = {"k_player": key[0], "k_season": key[1], "k_score": key[2]}
        if hands <= 0:
            if key in old:
                gone.append(keys)
        elif key not in old:
            inserts.append({"player_id": key[0], "season_id": key[1], "score": key[2],
                            "league_id": leagues[(key[0], key[1])], "hands": hands})
        else:
            updates.append({**keys, "v_hands": hands})
    _write(session, player_score_sum, {"k_player": t.player_id, "k_season": t.season_id,
                                       "k_score": t.score}, ("hands",), gone, inserts, updates)


def resum(session: AnySession, league_id: int, seasons: Iterable[int] | None = None) -> None:
    """Sum the league's cache rows again: every player and every scope (after its
    seasons changed, or players were merged), or only the ``seasons`` named (seasons
    just made for days no season held: nothing moves out of another one).  A few
    ``GROUP BY`` queries per scope."""
    session.flush()
    only = None if seasons is None else sorted(set(seasons))
    for table in (player_stat_sum, player_score_sum, player_pair_sum):
        where = [table.c.league_id == league_id]
        if only is not None:
            where.append(table.c.season_id.in_(only))
        session.execute(delete(table).where(*where))
    them = aliased(PlayerGameStat)
    scopes: list[tuple[int, list[Any], list[Any]]] = [(ALL_TIME, [], [])] if only is None \
        else []
    for s in session.execute(select(Season.id, Season.starts_on, Season.ends_on).where(
            Season.league_id == league_id, *([] if only is None else [Season.id.in_(only)]))):
        start = datetime.combine(s.starts_on, datetime.min.time(), tzinfo=UTC)
        end = datetime.combine(s.ends_on, datetime.min.time(), tzinfo=UTC)
        end += timedelta(days=1)
        scopes.append((s.id, [P.finished_at >= start, P.finished_at < end],
                       [StatTally.finished_at >= start, StatTally.finished_at < end]))
    one = 1
    for season_id, on_stats, on_tallies in scopes:
        rows = [{"player_id": r[0], "season_id": season_id, "league_id": league_id,
                 **{n: int(v or 0) for n, v in zip(COUNTS, r[1:])}}
                for r in session.execute(
                    select(P.player_id, func.count(),
                           func.sum(case((GameStat.with_jokers, one), else_=0)),
                           func.sum(case((Game.family == "basic", one), else_=0)),
                           *[func.sum(getattr(P, n)) for n in STAT_SUMMED])
                    .join(GameStat, GameStat.game_id == P.game_id)
                    .join(Game, Game.id == P.game_id)
                    .where(P.league_id == league_id, *on_stats).group_by(P.player_id))]
        if rows:
            session.execute(insert(player_stat_sum), rows)
        scores = [{"player_id": r[0], "season_id": season_id, "score": int(r[1]),
                   "league_id": league_id, "hands": int(r[2])}
                  for r in session.execute(
                      select(StatTally.player_id, StatTally.item, func.sum(StatTally.count))
                      .join(GameStat, GameStat.game_id == StatTally.game_id)
                      .where(GameStat.league_id == league_id, StatTally.kind == SCORE,
                             *on_tallies)
                      .group_by(StatTally.player_id, StatTally.item))]
        if scores:
            session.execute(insert(player_score_sum), scores)
        pairs = [{"player_id": r[0], "opponent_id": r[1], "season_id": season_id,
                  "league_id": league_id, **{n: int(v or 0) for n, v in zip(PAIR_COUNTS, r[2:])}}
                 for r in session.execute(
                     select(P.player_id, them.player_id, func.count(),
                            func.sum(case((P.position < them.position, one), else_=0)),
                            func.sum(case((P.position > them.position, one), else_=0)),
                            func.sum(case((P.won.is_(True), one), else_=0)),
                            func.sum(case((them.won.is_(True), one), else_=0)))
                     .join(them, and_(them.game_id == P.game_id,
                                      them.player_id != P.player_id))
                     .where(P.league_id == league_id, P.position.is_not(None),
                            them.position.is_not(None), *on_stats)
                     .group_by(P.player_id, them.player_id))]
        if pairs:
            session.execute(insert(player_pair_sum), pairs)


def _games_deleted(session: Session, _context: Any, _instances: Any) -> None:
    """Before a flush that deletes games: subtract their cache rows (the database's
    cascade then removes the rows themselves)."""
    gone = [obj.id for obj in session.deleted if isinstance(obj, Game) and obj.id]
    if gone:
        with session.no_autoflush:
            account(session, gone, -1)


def install() -> None:
    if not event.contains(Session, "before_flush", _games_deleted):
        event.listen(Session, "before_flush", _games_deleted)


install()
