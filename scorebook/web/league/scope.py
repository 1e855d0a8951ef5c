"""What every league page starts from: the league this browser has open, the season a
page is asked for, and the numbers' format (the league pages and their statistics)."""

from __future__ import annotations

from flask import abort, g, request
from flask_babel import format_decimal

from scorebook.extensions import db
from scorebook.models import League, Season
from scorebook.plain_text import db_int
from scorebook.services import league as service
from scorebook.services.seasons import season_of_day
from scorebook.web import membership


def fixed(value: float, places: int = 1) -> str:
    """A number with exactly ``places`` decimals in the page's language: ``23.0``."""
    pattern = "#,##0." + "0" * places if places else "#,##0"
    return str(format_decimal(value, format=pattern)).replace("-", "\u2212")


def _league() -> League:
    """The league this browser has open, if it may do what the request asks there (read:
    a viewer; change: a scorer); without one, a redirect to /leagues."""
    league = membership.current_league()
    g.league = league  # the page's language may follow the league's
    return league


def _season(season_id: int) -> tuple[League, Season]:
    """The open league and its season `season_id`; a 404 for another league's season."""
    league = _league()
    season = db.session.get(Season, season_id)
    if season is None or season.league_id != league.id:
        abort(404)
    return league, season


def _season_choice(league: League, seasons: list[Season], default_current: bool
                   ) -> tuple[Season | None, str]:
    """The season asked for by ``?season=`` (an id or ``all``); without it, the season
    holding today's date when ``default_current`` (else all time)."""
    value = request.args.get("season", "")
    if value == "all":
        return None, "all"
    if (season_id := db_int(value)) is not None:
        season = next((s for s in seasons if s.id == season_id), None)
        if season is None:
            abort(404)
        return season, str(season.id)
    if value:
        abort(404)
    if default_current:
        today = service.utcnow().date()
        current = season_of_day(seasons, today)
        if current is not None:
            return current, str(current.id)
    return None, "all"
