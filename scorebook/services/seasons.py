"""A league's seasons: which season a day belongs to, and a season for every day a game
finished on (the league's service, the ratings' replay and the import all need them).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import cast

from sqlalchemy import select

from scorebook.extensions import db
from scorebook.models import FINISHED, Game, League, Season
from scorebook.services import sums

#: The days a league keeps: every season falls within them, and so does every time a game
#: started or finished (an imported file's too). The calendar's last year is left out so
#: that a season's end (the midnight after its last day) and the season of a day's whole
#: year always exist: 9999-12-31, a date field's own maximum, has no next day, and
#: 9999-12-31T23:59:59-12:00 is in the year 10000 in UTC.
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(9998, 12, 31)


def day_kept(day: date) -> bool:
    """True if a league may hold ``day`` (:data:`FIRST_DAY` to :data:`LAST_DAY`)."""
    return FIRST_DAY <= day <= LAST_DAY


def as_utc(value: datetime) -> datetime:
    """A stored time as an aware UTC time (SQLite hands them back naive)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def season_bounds(season: Season) -> tuple[datetime, datetime]:
    """The season as [start, end) in UTC times."""
    start = datetime.combine(season.starts_on, time.min, tzinfo=UTC)
    end = datetime.combine(season.ends_on + timedelta(days=1), time.min, tzinfo=UTC)
    return start, end


def seasons_of(league: League) -> list[Season]:
    return list(db.session.scalars(select(Season).where(Season.league_id == league.id)
                                   .order_by(Season.starts_on.desc())))


def season_of_day(seasons: Sequence[Season], day: date) -> Season | None:
    return next((s for s in seasons if s.starts_on <= day <= s.ends_on), None)


def ensure_seasons(league: League, days: set[date] | None = None) -> list[Season]:
    """Give every finished game a season (or the games finished on ``days``, when a
    write names them): a day no season holds gets the season of its calendar year
    (as much of the year as the other seasons leave free).  In the write that needs them
    (a season saved or deleted, an import, :func:`ratings.sync` as a write commits)."""
    seasons = seasons_of(league)
    if days is None:
        # (cast: the query keeps the games that have a finish)
        days = {as_utc(cast(datetime, at)).date() for at in db.session.scalars(
            select(Game.finished_at).where(Game.league_id == league.id,
                                           Game.status == FINISHED,
                                           Game.finished_at.is_not(None)))}
    made: list[Season] = []
    for day in sorted(days):
        if season_of_day(seasons, day) is not None:
            continue
        start, end = date(day.year, 1, 1), date(day.year, 12, 31)
        for s in seasons:
            if s.ends_on < day:
                start = max(start, s.ends_on + timedelta(days=1))
            if s.starts_on > day:
                end = min(end, s.starts_on - timedelta(days=1))
        taken = {s.name for s in seasons}
        name, n = str(day.year), 2
        while name in taken:
            name, n = f"{day.year} ({n})", n + 1
        season = Season(league_id=league.id, name=name, starts_on=start, ends_on=end)
        db.session.add(season)
        seasons.append(season)
        made.append(season)
    added = bool(made)
    if added:
        db.session.flush()
        # (the new seasons' sums; their tallies come with the write that finished the games:
        # ratings.sync at its commit, or the retally of a season saved or deleted)
        sums.resum(db.session, league.id, [s.id for s in made])
        db.session.flush()
        seasons.sort(key=lambda s: s.starts_on, reverse=True)
    return seasons
