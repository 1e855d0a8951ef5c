"""The JSON API for a league (``/api/v1/leagues``): its standings, placed exactly as its
standings page and its standings CSV place them (:func:`scorebook.services.league.sort_standings`).
Like a game, a league is private: a browser that is not one of its members gets a 404."""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, request

from scorebook.extensions import db
from scorebook.models import League, Season
from scorebook.services import league as service

bp = Blueprint("leagues_api", __name__)


@bp.get("/<int:league_id>/standings")
def standings(league_id: int) -> Response:
    # (a member of the league: scorebook.web.membership.check_request, before this view)
    league = db.get_or_404(League, league_id)
    seasons = service.prepare(league)
    season: Season | None = None
    asked = request.args.get("season_id")
    if asked is not None:
        season = next((s for s in seasons if asked.isdigit() and s.id == int(asked)), None)
        if season is None:
            abort(404)
    rows = service.standings(league, season)
    return jsonify({
        "league": league.name,
        "season": None if season is None else {
            "id": season.id, "name": season.name, "starts_on": season.starts_on.isoformat(),
            "ends_on": season.ends_on.isoformat()},
        "ranked_by": service.ranked_by(),
        "standings": [service.standing_record(r) for r in rows],
    })
