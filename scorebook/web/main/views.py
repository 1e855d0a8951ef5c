"""The home page: start a game, and this browser's games in progress, recent results
and league (only the leagues it is a member of: :mod:`scorebook.services.access`)."""

from __future__ import annotations

from flask import Blueprint, render_template
from sqlalchemy.orm import selectinload

from scorebook.extensions import db
from scorebook.models import FINISHED, IN_PROGRESS, Game, Hand, Seat
from scorebook.presenters.cards import register_card_helpers
from scorebook.presenters.changes import register_change_helpers
from scorebook.services import league as league_service
from scorebook.services.games import scoreboard
from scorebook.web import membership

bp = Blueprint("main", __name__)
register_card_helpers(bp)
register_change_helpers(bp)

RECENT_RESULTS = 10


def _games(status: str, league_ids: list[int], limit: int | None = None) -> list[Game]:
    query = (db.select(Game).where(Game.status == status, Game.league_id.in_(league_ids))
             .options(selectinload(Game.seats).selectinload(Seat.player),
                      selectinload(Game.hands).selectinload(Hand.scores),
                      selectinload(Game.winner))
             .order_by(Game.id.desc()))
    if limit:
        query = query.limit(limit)
    return list(db.session.scalars(query))


@bp.get("/")
def home() -> str:
    leagues = membership.member_leagues()
    league = membership.current_league_or_none()
    ids = [lg.id for lg, _role in leagues]
    playing = [scoreboard(g) for g in _games(IN_PROGRESS, ids)] if ids else []
    finished = [scoreboard(g) for g in _games(FINISHED, ids, RECENT_RESULTS)] if ids else []
    if league is None:
        return render_template("main/home.html", league=None, leagues=leagues,
                               playing=playing, finished=finished, standings=[])
    # in the standings' order (their one ranking), then whoever has finished no game yet
    ranked = league_service.standings(league)
    seen = {r.player_id for r in ranked}
    standings = [(r.name, r.games, r.wins) for r in ranked] + [
        (p.name, 0, 0) for p in league_service.players_of(league) if p.id not in seen]
    return render_template("main/home.html", league=league, leagues=leagues, playing=playing,
                           finished=finished, standings=standings)
