"""The home page: start a game, and this browser's games in progress, recent results
and league (only the leagues it is a member of: :mod:`scorebook.services.access`)."""

from __future__ import annotations

from flask import Blueprint, render_template
from sqlalchemy import func
from sqlalchemy.orm import selectinload

from scorebook.extensions import db
from scorebook.models import FINISHED, IN_PROGRESS, Game, Hand, Player, Seat
from scorebook.presenters.cards import register_card_helpers
from scorebook.presenters.changes import register_change_helpers
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
    played = dict(db.session.execute(
        db.select(Seat.player_id, func.count()).join(Game)
        .where(Game.league_id == league.id, Game.status == FINISHED)
        .group_by(Seat.player_id)).tuples().all())
    wins = dict(db.session.execute(
        db.select(Game.winner_id, func.count())
        .where(Game.league_id == league.id, Game.status == FINISHED)
        .group_by(Game.winner_id)).tuples().all())
    players = db.session.scalars(
        db.select(Player).where(Player.league_id == league.id).order_by(Player.name))
    standings = sorted(((p.name, played.get(p.id, 0), wins.get(p.id, 0)) for p in players),
                       key=lambda row: (-row[2], -row[1], row[0].lower()))
    return render_template("main/home.html", league=league, leagues=leagues, playing=playing,
                           finished=finished, standings=standings)
