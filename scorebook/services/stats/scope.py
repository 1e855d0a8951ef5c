"""Which games a figure counts: a league's finished games, in one season or all time.

A finished game counts in the season holding the day it finished (as the standings
count it, :func:`scorebook.services.seasons.season_bounds`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorebook.models import FINISHED, Game, Season
from scorebook.services.seasons import season_bounds


@dataclass(frozen=True)
class Scope:
    league_id: int
    season: Season | None = None

    def where(self, game: Any = Game) -> list[Any]:
        """The conditions on ``game`` (the Game table, or an alias of it)."""
        conditions = [game.league_id == self.league_id, game.status == FINISHED,
                      game.finished_at.is_not(None)]
        if self.season is not None:
            start, end = season_bounds(self.season)
            conditions += [game.finished_at >= start, game.finished_at < end]
        return conditions

    def on(self, table: Any) -> list[Any]:
        """The conditions on a statistics cache table's own ``league_id`` and
        ``finished_at`` (the cache holds finished games only: no look-up of the games)."""
        conditions = [table.league_id == self.league_id]
        if self.season is not None:
            start, end = season_bounds(self.season)
            conditions += [table.finished_at >= start, table.finished_at < end]
        return conditions

    @property
    def key(self) -> tuple[Any, ...]:
        """What the figures depend on besides the games (for a cache key)."""
        if self.season is None:
            return (self.league_id, None)
        return (self.league_id, self.season.starts_on, self.season.ends_on)
