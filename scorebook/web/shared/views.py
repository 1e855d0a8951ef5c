"""Shared results (:mod:`scorebook.services.sharing`).

- ``GET /results/<token>``: the result, for anyone holding the link: the game's scores
  hand by hand, its winner and chart, read-only; no league name, no link into the league
  (no hand, player, history or other game). An unknown or stopped token is a 404 that
  says so.
- ``GET /games/<id>/share``: what sharing shows and to whom, the link once made, and for
  the owner the button that stops it. ``POST`` makes the link: any member may (whoever
  sees a result may already copy its scores), only for a finished game.
- ``POST /games/<id>/share/stop``: the owner stops the link (from that page, or from the
  league's settings, which list every shared result).
"""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from werkzeug.wrappers import Response

from scorebook.models import Game
from scorebook.presenters.bidi import isolate
from scorebook.presenters.charts import score_chart
from scorebook.presenters.i18n import safe_next
from scorebook.presenters.results import game_share, game_text
from scorebook.presenters.sentences import say
from scorebook.presenters.tables import name_key, scores_table
from scorebook.presenters.wording import explain, family_name
from scorebook.services import access, sharing
from scorebook.services.games import load_game, scoreboard
from scorebook.web import membership
from scorebook.web.access.forms import ButtonForm

bp = Blueprint("shared", __name__)


def _game(game_id: int) -> Game:
    """The game, if this browser may do what the request asks with it (404, 403)."""
    game = load_game(game_id, with_hands=False)
    if game is None:
        abort(404)
    membership.require(game.league, membership.needed_role())
    return game


@bp.get("/results/<token>")
def result(token: str) -> Response:
    """The shared result: this one game, for anyone holding the link."""
    game = sharing.shared_game(token)
    if game is None:
        abort(404, description=gettext(
            "This result is not shared any more, or the link is not complete. Ask whoever "
            "sent it for a new link."))
    board = scoreboard(game)
    response = make_response(render_template(
        "shared/result.html", game=game, board=board, family=family_name(game.family),
        verdict=explain(board.verdict), scores_table=scores_table(board, None),
        name_key=name_key(board.names),
        chart=score_chart(board.names, board.running, board.target)))
    # Never kept by a browser or a proxy (a stopped link must stop at once), never indexed.
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


@bp.route("/games/<int:game_id>/share", methods=["GET", "POST"])
@access.requires(access.VIEWER)  # any member may share a result they can see
def manage(game_id: int) -> str | Response:
    game = _game(game_id)
    form = ButtonForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        try:
            sharing.share_game(game)
        except sharing.SharingError as exc:
            flash(say(exc.sentence))
            return redirect(url_for("games.show", game_id=game.id))
        flash(gettext("Game %(id)s's result has a link now: send it to whoever you like.",
                      id=game.number))
        return redirect(url_for("shared.manage", game_id=game.id))
    shared = sharing.share_of(game)
    board = scoreboard(game)
    # (the line as the page shows it: each name isolated from the text around it)
    line = game_text([isolate(n) for n in board.names], board.totals,
                     isolate(board.winner) if board.winner else None, len(board.rows))
    return render_template("shared/manage.html", game=game, board=board, shared=shared,
                           share=game_share(board, shared), line=line, form=form,
                           owner=membership.role_in(game.league) == access.OWNER)


@bp.post("/games/<int:game_id>/share/stop")
@access.requires(access.OWNER)
def stop(game_id: int) -> Response:
    game = _game(game_id)
    if not ButtonForm().validate_on_submit():
        abort(400)
    if sharing.stop_sharing(game):
        flash(gettext("Game %(id)s's result is no longer shared: its link does not open "
                      "any more.", id=game.number))
    else:
        flash(gettext("Game %(id)s's result was not shared.", id=game.number))
    return redirect(safe_next(request.form.get("next"))
                    if request.form.get("next") else url_for("shared.manage", game_id=game.id))
