"""Add a phone: QR codes of the invite links, on the scoreboard and the league pages.

- ``GET /games/<id>/phones``: codes that join the game's league and land on the game;
- ``GET /league/phones``: codes for the open league, landing on its standings;
- ``POST /leagues/<id>/phones/<role>``: the owner makes the role's link there and then
  (only if there is none: a second tap never replaces a link someone already scanned).

The owner sees a scorer code and a viewer code; a scorer sees the viewer code (a
viewer gets the 403 that says their link only follows the league).  The codes are
SVG drawn by the server, so they show without JavaScript; the pages are never
cached (they hold secrets).  See :mod:`scorebook.services.invites` for what a code holds.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from scorebook.extensions import db
from scorebook.models import League
from scorebook.presenters import links
from scorebook.presenters.i18n import safe_next
from scorebook.services import access, invites
from scorebook.services.access import INVITE_ROLES, OWNER, SCORER, VIEWER
from scorebook.services.games import load_game
from scorebook.services.transaction import transaction
from scorebook.web import membership
from scorebook.web.access.forms import ButtonForm

bp = Blueprint("phones", __name__)


def _codes(league: League, next_url: str | None) -> list[dict[str, Any]]:
    """One entry per code this browser may show: its role, link and picture (None while
    the door is shut)."""
    roles = INVITE_ROLES if membership.role_in(league) == OWNER else (VIEWER,)
    titles = {SCORER: gettext("QR code of the scorer link"),
              VIEWER: gettext("QR code of the viewer link")}
    codes = []
    for role in roles:
        url = links.join_url(league, role, membership.link_seeds(), next_url)
        codes.append({"role": role, "url": url,
                      "svg": invites.qr_svg(url, titles[role]) if url else None})
    return codes


def _page(league: League, codes: list[dict[str, Any]], back: str, lands: str,
          heading: str) -> Response:
    shown = [c["url"] for c in codes if c["url"]]
    page = render_template(
        "phones/add.html", league=league, codes=codes, back=back, lands=lands,
        heading=heading, owner=membership.role_in(league) == OWNER, form=ButtonForm(),
        here=request.full_path.rstrip("?"),
        local_only=any(invites.names_this_computer(u) for u in shown))
    response = Response(page, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"  # invite links: never kept anywhere
    return response


@bp.get("/games/<int:game_id>/phones")
@access.requires(SCORER)
def for_game(game_id: int) -> Response:
    game = load_game(game_id, with_hands=False)
    if game is None:
        abort(404)
    membership.require(game.league, SCORER)
    target = url_for("games.show", game_id=game.id)
    return _page(game.league, _codes(game.league, target), back=target, lands="game",
                 heading=gettext("Game %(id)s", id=game.number))


@bp.get("/league/phones")
@access.requires(SCORER)
def for_league() -> Response:
    league = membership.current_league(SCORER)
    back = url_for("league.standings")
    return _page(league, _codes(league, None), back=back, lands="league", heading=league.name)


@bp.post("/leagues/<int:league_id>/phones/<role>")
@access.requires(OWNER)
def make_link(league_id: int, role: str) -> Response:
    league = db.get_or_404(League, league_id)
    if role not in INVITE_ROLES:
        abort(404)
    if not ButtonForm().validate_on_submit():
        abort(400)
    back = safe_next(request.form.get("next") or request.args.get("next")
                     or url_for("phones.for_league"))
    if getattr(league, f"{role}_token_hash") is None:
        with transaction():
            seed = invites.open_door(league, role)
        membership.keep_link_seed(league, role, seed)
        flash(gettext("The scorer code is ready: scan it with the other phone.") if role == SCORER
              else gettext("The viewer code is ready: scan it with the other phone."))
    # else: another tap (or device) made it meanwhile; show that one, never replace it
    return redirect(back.split("#")[0] + f"#{role}-code")
