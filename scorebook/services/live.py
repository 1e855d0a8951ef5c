"""Live scoreboards: a game's version, which changes whenever anything a phone shows
about the game changes.

Phones showing a game poll ``GET /games/<id>/version`` with ``If-None-Match`` about
once a second (``static/js/live.js``): the answer is a ``304`` costing one indexed
statement until the game changes (a member's poll is answered before Flask, by
:mod:`scorebook.web.poll`), then the page fetches its live regions again (the
scoreboard: only its board, ``GET /games/<id>/board``) and swaps them.  Conditional
polling works through any proxy and with gunicorn's sync workers (a held-open
stream would tie up a worker per phone), and a phone that was offline catches up on
its first poll back.

The version is the game's ``revision`` (bumped by every change to its hands and
its status) and the number and the latest id of its history entries (every
write, live-hand moves included, logs one).  A page that shows a game reads the
version *before* its data (:func:`scorebook.web.live.views.remember_version`, run
before the view), so a change committed while the page is being built makes the
version look old, never new: the phone then fetches once more rather than missing the
change.
"""

from __future__ import annotations

from sqlalchemy import text

from scorebook.extensions import db
from scorebook.models import Change, Game

#: One indexed query. Plain SQL, built once: on this hot path (every phone, every
#: second) SQLAlchemy's statement building and cache keys cost more than the query.
VERSION_SQL = text(
    f"SELECT g.revision,"
    f" (SELECT count(*) FROM {Change.__tablename__} c WHERE c.game_id = g.id),"
    f" (SELECT max(c.id) FROM {Change.__tablename__} c WHERE c.game_id = g.id)"
    f" FROM {Game.__tablename__} g WHERE g.id = :game_id"
)


def game_version(game_id: int) -> str | None:
    """The game's current version, or None if there is no such game."""
    row = db.session.execute(VERSION_SQL, {"game_id": game_id}).first()
    if row is None:
        return None
    revision, count, latest = row
    return f"{revision or 0}.{count or 0}.{latest or 0}"
