"""Live scoreboards: ``GET /games/<id>/version``, polled by ``static/js/live.js``.

A member's ordinary poll never reaches this view: :mod:`scorebook.web.poll` answers it
before Flask with the same version, ETag and headers. This view answers the rest
(strangers, unknown games, sessions that need a change) the slow, complete way.

Registered without a prefix. The blueprint also reads, before any page under
``/games/<game_id>/…`` is built, the version that page shows (see
:mod:`scorebook.services.live`; :func:`remember_version`), and keeps flashed messages for
the page itself when ``live.js`` fetches a page again to refresh it (header
``X-Live-Refresh``).
"""

from __future__ import annotations

from flask import Blueprint, abort, g, jsonify, request
from flask.globals import request_ctx
from werkzeug.wrappers import Response

from scorebook.services.live import game_version

bp = Blueprint("live", __name__)

#: How often a visible page asks, in milliseconds (the page reads it from its markup).
POLL_MS = 1000


def remember_version(game_id: int) -> None:
    """Read the game's version ahead of a page's data; the page shows it
    (:func:`page_version`)."""
    g.live_version = game_version(game_id)


def page_version() -> str | None:
    """The version read before this page's data, if any."""
    return g.get("live_version")


@bp.get("/games/<int:game_id>/version")
def version(game_id: int) -> Response:
    """``{"version": ...}`` with the version as a strong ETag; ``304`` when the
    client's ``If-None-Match`` already has it."""
    current = game_version(game_id)
    if current is None:
        abort(404)
    response = jsonify(version=current)
    response.set_etag(current)
    # Cache only with a fresh check: the answer changes the moment a hand is saved.
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.before_app_request
def before_game_page() -> None:
    if request.headers.get("X-Live-Refresh"):
        # A background refresh must not eat the "Hand 3 saved." meant for the page.
        request_ctx.flashes = []
    if (request.method == "GET" and request.view_args
            and isinstance(request.view_args.get("game_id"), int)
            and request.endpoint != "live.version"):
        remember_version(request.view_args["game_id"])


@bp.app_context_processor
def live_context() -> dict[str, object]:
    return {"live_version": page_version, "live_poll_ms": POLL_MS}
