"""The version poll answered before Flask: ``GET /games/<id>/version`` from a member.

Every phone showing a game asks for its version about once a second
(``static/js/live.js``), and nearly every answer is a ``304``. Through Flask that
answer costs the whole request machinery — the session, the language, the
before- and after-request hooks of every extension, two queries through the ORM's
session — about four times a bare Flask page. This WSGI middleware answers it
itself, for the ordinary case only:

1. the signed session cookie is read with the app's own serializer;
2. **one statement**, on a raw connection (SQLite: from the pool; PostgreSQL: the
   thread's own, in autocommit, so no BEGIN or ROLLBACK goes with it), reads the
   game's row (its revision), its league's doors (what a membership is checked against, as
   :func:`scorebook.services.access.doors_of_game` does), whether the session's membership key
   was ended there, and the count and latest id of the game's history (index-only
   lookups on ``change.game_id``) — the game itself (seats, players, hands) is never
   loaded;
3. the membership is checked exactly as :func:`scorebook.services.access.role_in` checks it;
4. the answer is ``304`` when ``If-None-Match`` has the version, else the
   ``{"version": ...}`` that the view returns, with the same ETag and headers.

Anything else — no or a bad cookie, a stranger, an unknown game, an id too large, a
membership from before memberships had keys — goes on to Flask unchanged, whose view
(:mod:`scorebook.web.live.views`) gives the same answers the slow way and the right error
pages. The version is :func:`scorebook.services.live.game_version`'s, so both paths agree.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from itsdangerous import BadSignature
from sqlalchemy import event
from werkzeug.http import parse_cookie, parse_etags

from scorebook.models import Change, EndedMembership, Game, League
from scorebook.security import HEADERS
from scorebook.services import access

PATH = re.compile(r"/games/([1-9][0-9]{0,17})/version\Z")
#: Below every database's largest integer (plain_text.py 404s bigger ids in Flask).
MAX_ID = 2**63 - 1

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def _statement(keys: int, mark: str) -> str:
    ended = ", ".join([mark] * keys)
    return (
        "SELECT l.password_hash, l.scorer_token_hash, l.viewer_token_hash,"
        f" (SELECT MIN(e.key) FROM {EndedMembership.__tablename__} e"
        f"  WHERE e.league_id = l.id AND e.key IN ({ended})),"
        " g.revision,"
        f" (SELECT count(*) FROM {Change.__tablename__} c WHERE c.game_id = g.id),"
        f" (SELECT max(c.id) FROM {Change.__tablename__} c WHERE c.game_id = g.id), l.id"
        f" FROM {Game.__tablename__} g JOIN {League.__tablename__} l ON l.id = g.league_id"
        f" WHERE g.id = {mark}")


class PollMiddleware:
    """Wraps ``app.wsgi_app``; see the module's docstring."""

    def __init__(self, app: Flask, wrapped: WSGIApp) -> None:
        self.app = app
        self.wrapped = wrapped
        self.engine: Any = None
        self.mark = "?"
        self.statements: dict[int, str] = {}
        self.serializer: Any = None
        self.cookie = app.config["SESSION_COOKIE_NAME"]
        self.max_age = int(app.permanent_session_lifetime.total_seconds())
        self.headers = [(k, v) for k, v in HEADERS.items()]
        self.local = threading.local()
        self.lock = threading.Lock()
        self.held: list[Any] = []  # every thread's own connection (closed on dispose)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse
                 ) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET":
            match = PATH.match(environ.get("PATH_INFO", ""))
            if match is not None:
                answer = self.answer(environ, int(match.group(1)), start_response)
                if answer is not None:
                    return answer
        return self.wrapped(environ, start_response)

    # --- the pieces --------------------------------------------------------------------

    def _setup(self) -> None:
        from scorebook.extensions import db

        with self.app.app_context():
            self.engine = db.engine
        event.listen(self.engine, "engine_disposed", self._close_held)
        self.mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self.serializer = self.app.session_interface.get_signing_serializer(  # type: ignore[attr-defined]
            self.app)

    def _close_held(self, engine: Any) -> None:
        """The engine's pool was disposed (a test's end, a worker's fork): so are the
        threads' own connections."""
        with self.lock:
            held, self.held = self.held, []
        for connection in held:
            try:
                connection.close()
            except Exception:  # noqa: S110 (already gone)
                pass

    def cookie_value(self, environ: dict[str, Any]) -> str | None:
        """The session cookie's signed value, if the request sent one."""
        raw = environ.get("HTTP_COOKIE")
        if not raw or self.cookie not in raw:
            return None
        return parse_cookie(raw).get(self.cookie) or None

    def memberships(self, environ: dict[str, Any]) -> dict[str, Any] | None:
        value = self.cookie_value(environ)
        if value is None:
            return None
        try:
            data = self.serializer.loads(value, max_age=self.max_age)
        except BadSignature:
            return None
        leagues = data.get("leagues") if isinstance(data, dict) else None
        return leagues if isinstance(leagues, dict) else None

    def read(self, game_id: int, keys: list[str]) -> tuple[Any, ...] | None:
        sql = self.statements.get(len(keys))
        if sql is None:
            sql = self.statements[len(keys)] = _statement(len(keys), self.mark)
        return self._execute(sql, (*keys, game_id))

    def _execute(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """The one statement. On SQLite through the pool (a read costs no round trip);
        on a server database through this thread's own connection in autocommit, taken
        out of the pool once: no BEGIN and no ROLLBACK around each poll, one round trip.
        """
        if self.engine.dialect.name == "sqlite":
            connection = self.engine.raw_connection()
            try:
                cursor = connection.cursor()
                try:
                    cursor.execute(sql, params)
                    row = cursor.fetchone()
                finally:
                    cursor.close()
            finally:
                connection.close()  # back to the pool (which rolls the read back)
            return tuple(row) if row is not None else None
        held = getattr(self.local, "connection", None)
        if held is None or held.closed:
            proxied = self.engine.raw_connection()
            held = proxied.driver_connection
            proxied.detach()  # this thread's own from now on, closed with the engine
            held.rollback()  # (a pre-ping may have left a transaction open)
            held.autocommit = True
            self.local.connection = held
            with self.lock:
                self.held.append(held)
        try:
            with held.cursor() as cursor:
                cursor.execute(sql, params)
                row = cursor.fetchone()
        except Exception:
            self.local.connection = None  # a broken connection: a new one next time
            try:
                held.close()
            finally:
                raise
        return tuple(row) if row is not None else None

    @staticmethod
    def _matches(tags: Any, version: str) -> bool:
        """As the compressed answers' ETags name their encoding (``"v:br"``), those
        match too (scorebook/compression.py)."""
        return any(tags.contains_weak(t) for t in (version, f"{version}:br",
                                                    f"{version}:gzip"))

    def answer(self, environ: dict[str, Any], game_id: int, start_response: StartResponse
               ) -> Iterable[bytes] | None:
        if game_id > MAX_ID:
            return None
        if self.engine is None:
            self._setup()
        leagues = self.memberships(environ)
        if not leagues:
            return None
        keys = [e[2] for e in leagues.values()
                if isinstance(e, list) and len(e) == 3 and isinstance(e[2], str)]
        if not keys:
            return None
        try:
            row = self.read(game_id, keys)
        except Exception:  # the database out of reach: Flask's own answer (and error page)
            return None
        if row is None:
            return None  # no such game: Flask's 404 page
        password, scorer, viewer, ended, revision, count, latest, league_id = row
        entry = leagues.get(str(league_id))
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[2], str)):
            return None  # a stranger (404), or a membership without a key (Flask gives it one)
        role, fingerprint, key = entry
        doors = access.Doors(league_id, password, scorer, viewer)
        door = access._door(doors, role) if role in access.RANK else None
        if (door is None or not isinstance(fingerprint, str)
                or fingerprint != access._fingerprint(door) or ended is not None):
            return None  # the door changed or the membership ended: Flask says 404
        version = f"{revision or 0}.{count or 0}.{latest or 0}"
        etag = f'"{version}"'
        headers = [("ETag", etag), ("Cache-Control", "no-cache"), *self.headers]
        wanted = environ.get("HTTP_IF_NONE_MATCH")
        if wanted and (wanted == etag or self._matches(parse_etags(wanted), version)):
            start_response("304 NOT MODIFIED", headers)
            return [b""]
        body = (json.dumps({"version": version}, separators=(",", ":")) + "\n").encode()
        if len(body) >= self.app.config.get("COMPRESS_MIN_SIZE", 500):
            return None  # one compression would take (scorebook/compression.py): Flask's
        start_response("200 OK", [("Content-Type", "application/json"),
                                  ("Content-Length", str(len(body))), *headers])
        return [body]


def init_app(app: Flask) -> None:
    app.wsgi_app = PollMiddleware(app, app.wsgi_app)  # type: ignore[method-assign]
