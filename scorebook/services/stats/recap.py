"""A season's recap: the champion and the podium, the season's records, and each
player's "signature" figure — the one where they stood out most.

The places come from the standings (games won, then the better win rate, then the
better average finishing place; players equal on all three share a place).  The
signature figures are chosen from :data:`SIGNATURES` from each player's sums over the
season (one ``GROUP BY`` over the cache): first every figure someone leads, each given
to its leader (in the order of the list, and to everyone tied for the lead), then, for
the players still without one, the figures where they rank second, and so on, each
figure used once where it can be.  A player with no figure to stand out in gets their hands played.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select

from scorebook.extensions import db
from scorebook.models import GameStat, League, Season
from scorebook.services import league as league_service
from scorebook.services.stats.players import Sums, everyone_sums
from scorebook.services.stats.records import Record, records
from scorebook.services.stats.scope import Scope


@dataclass(frozen=True)
class Figure:
    """A candidate signature: ``key``, the value from a player's sums (None: not
    counted for them), whether more is better, the sample it is counted over (and
    the least sample that counts), and the least value worth a mention."""

    key: str
    value: Callable[[Sums], float | int | None]
    higher: bool = True
    sample: Callable[[Sums], int] = lambda s: s.hands
    min_sample: int = 1
    at_least: float = 1


def _per_hand(name: str) -> Callable[[Sums], float | None]:
    return lambda s: s.per_hand(name)


SIGNATURES: tuple[Figure, ...] = (
    Figure("best-hand", lambda s: s.values.get("best_score"), at_least=1),
    Figure("avg-hand", lambda s: s.avg_hand, min_sample=3, at_least=0.1),
    Figure("out-rate", lambda s: s.out_rate, min_sample=3, at_least=0.01),
    Figure("jokers", lambda s: s.jokers_melded + s.jokers_laid_off,
           sample=lambda s: s.card_hands),
    Figure("feeder", lambda s: s.layoffs_on_others, sample=lambda s: s.card_hands),
    Figure("fed", lambda s: s.fed_by_others, sample=lambda s: s.card_hands),
    Figure("low-aces", lambda s: s.aces_low, sample=lambda s: s.aces_melded),
    Figure("longest-run", lambda s: s.values.get("longest_run"), sample=lambda s: s.runs,
           at_least=4),
    Figure("runs", lambda s: s.runs, sample=lambda s: s.melds),
    Figure("sets", lambda s: s.sets, sample=lambda s: s.melds),
    Figure("light", _per_hand("stranded_points"), higher=False,
           sample=lambda s: s.card_hands, min_sample=3, at_least=0),
    Figure("in-a-row", lambda s: s.values.get("out_streak"), at_least=2),
    Figure("going-rummy", lambda s: s.going_rummy),
    Figure("aces-stranded", lambda s: s.aces_stranded, sample=lambda s: s.card_hands),
)
HANDS_PLAYED = "hands"


@dataclass
class Placed:
    place: int
    standing: league_service.Standing


@dataclass
class Signature:
    """A player's signature figure: ``key`` (a :data:`SIGNATURES` key, or
    ``hands``), its value and sample, and the player's rank in it (1: they lead
    the season, tied with ``tied`` others)."""

    player_id: int
    name: str
    key: str
    value: float | int
    sample: int
    rank: int = 1
    tied: int = 0
    ranked: int = 1  # how many players were ranked in it


@dataclass
class Recap:
    """A season's recap: plain values (kept across requests by :mod:`.memo`)."""

    table: list[Placed]
    records: list[Record]
    signatures: list[Signature]
    games: int = 0
    hands: int = 0
    sums: dict[int, Sums] = field(default_factory=dict)

    @property
    def podium(self) -> list[Placed]:
        return [p for p in self.table if p.place <= 3]

    @property
    def champions(self) -> list[Placed]:
        return [p for p in self.table if p.place == 1]


def placed(rows: list[league_service.Standing]) -> list[Placed]:
    """The season's places: the standings' own (:func:`league_service.sort_standings`:
    games won, then the better win rate, then the better average place; equal on all,
    equal place)."""
    return [Placed(r.place, r) for r in league_service.sort_standings(list(rows))]


def _ranks(figure: Figure, sums: dict[int, Sums]) -> dict[int, tuple[int, int, int]]:
    """Each eligible player's (rank, others tied, players ranked) in ``figure``."""
    values: dict[int, float] = {}
    for pid, s in sums.items():
        value = figure.value(s)
        if value is None or figure.sample(s) < figure.min_sample:
            continue
        if figure.higher and value < figure.at_least:
            continue
        values[pid] = float(value)
    out = {}
    for pid, value in values.items():
        better = sum(1 for v in values.values()
                     if (v > value if figure.higher else v < value))
        tied = sum(1 for v in values.values() if v == value) - 1
        out[pid] = (better + 1, tied, len(values))
    return out


def signatures(sums: dict[int, Sums], names: dict[int, str]) -> list[Signature]:
    ranks = {f.key: _ranks(f, sums) for f in SIGNATURES}
    chosen: dict[int, Signature] = {}
    used: set[str] = set()
    for level in range(1, len(sums) + 1):
        for figure in SIGNATURES:
            if figure.key in used:
                continue
            holders = [pid for pid, (rank, _t, _n) in ranks[figure.key].items()
                       if rank == level and pid not in chosen]
            if not holders:
                continue
            used.add(figure.key)
            for pid in holders:
                rank, tied, ranked = ranks[figure.key][pid]
                s = sums[pid]
                chosen[pid] = Signature(pid, names.get(pid, "?"), figure.key,
                                        figure.value(s) or 0, figure.sample(s), rank, tied,
                                        ranked)
        if len(chosen) == len(sums):
            break
    for pid, s in sums.items():
        if pid not in chosen:
            chosen[pid] = Signature(pid, names.get(pid, "?"), HANDS_PLAYED, s.hands, s.games)
    return sorted(chosen.values(), key=lambda g: g.name.lower())


def recap(league: League, season: Season) -> Recap:
    """The season's recap (the results and the statistics cache must be fresh)."""
    scope = Scope(league.id, season)
    rows = league_service.standings(league, season)
    table = placed(rows)
    sums = everyone_sums(scope)
    names = {r.player_id: r.name for r in rows}
    totals: Any = db.session.execute(
        select(func.count(), func.coalesce(func.sum(GameStat.hands), 0))
        .select_from(GameStat).where(*scope.on(GameStat))).one()
    return Recap(table, records(scope),
                 signatures({pid: s for pid, s in sums.items() if pid in names}, names),
                 int(totals[0]), int(totals[1]), sums)
