"""Whole pages served from the board cache, before Flask: a game's scoreboard
(``GET /games/<id>``), its record-hand form (``GET /games/<id>/hands/new``), its
board alone (``GET /games/<id>/board``, what ``live.js`` fetches after a change) and
the open league's standings (``GET /league/``).

Through Flask these pages cost the whole request machinery besides their rendering
(the session, the language, every extension's hooks, the game loaded through the
ORM, the compression). Yet between two changes of a game, what they show depends on
a handful of things only, which this WSGI middleware reads itself, as the version
poll does (:mod:`scorebook.web.poll`: the signed session cookie, then **one statement**):

- the game's version (:func:`scorebook.services.live.game_version`), its seats' names and its
  league's name;
- this browser's role in the league (checked as :func:`scorebook.services.access.role_in`
  does: a stranger, an ended membership or a changed door goes on to Flask, which
  answers 404), and the language inputs (the session's ``lang``, ``Accept-Language``);
- the site's address (host, scheme, script root).

For the standings the version is the league's (:func:`_league_columns`: its games'
count, revisions and latest id, its roster, its seasons, its name and ratings' state),
read in the same one statement, and today's date joins the key (the season shown).

That is the key. The per-request parts are put in at the end: the **CSRF token**
(the page is kept with the token split out, and the token signed for this session's
own raw token is put back in its place), the **session cookie's renewal** (re-signed
as Flask would, when it is due: :func:`scorebook.security.renewal_due`), and the
**compression** (gzip, the kept parts compressed once, the token between them as a
stored deflate block, so the answer is one valid gzip stream costing a CRC per
request). What a phone sends again and again is worked out once
per worker: its cookie's signature checked (the same bytes, the same data; its age
still checked), its token signed, its renewed cookie made (again after a minute).

Anything out of the ordinary goes on to Flask unchanged: a query string, flashed
messages waiting in the session (the board alone shows none and leaves them waiting),
a session with keys this module does not know, an ``X-Live-Refresh`` (but for the
board), a ratings replay under way (the standings), a browser that accepts neither
gzip nor the page as it is. Flask renders the page as always; when the request was
an ordinary one and the page was rendered from the version the key was read at, the
page is kept (:class:`scorebook.web.boards.BoardCache`, bounded by bytes, one version per
game: a newer version drops the game's kept pages at once).
"""

from __future__ import annotations

import hashlib
import os
import re
import struct
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import brotli
from flask import Flask, g, request, session
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.http import dump_cookie, http_date

from scorebook.compression import negotiate
from scorebook.models import Change, EndedMembership, Game, League, Player, Season, Seat
from scorebook.security import renewal_due
from scorebook.services import access
from scorebook.web.live.views import page_version
from scorebook.web.poll import MAX_ID, PollMiddleware, StartResponse, WSGIApp
from scorebook.web.shared_pages import shared_of

PATHS = {
    "scoreboard": re.compile(r"/games/([1-9][0-9]{0,17})\Z"),
    "record": re.compile(r"/games/([1-9][0-9]{0,17})/hands/new\Z"),
    "board": re.compile(r"/games/([1-9][0-9]{0,17})/board\Z"),
}
#: The open league's standings (``session["league"]``; a query string: Flask's).
STANDINGS_PATH = "/league/"
#: The session keys a kept page may be served to; any other: Flask's own answer.
#: ``league`` (the open one) and ``lang`` are in the key; the others no page served
#: here reads: ``device`` and ``players`` (the name this phone joined a league as) are
#: only written into the history with a change, ``link_seeds`` (of the invite links this
#: owner made) only read on the "Add a phone" and settings pages. (An older version's
#: ``links``, raw tokens, is not served here: Flask drops it from the session.) Every
#: phone that joined through an invite link has ``players`` (empty when it gave no
#: name): without it here no joined phone was ever served a kept page.
KNOWN_SESSION_KEYS = frozenset({"leagues", "csrf_token", "lang", "_permanent", "device",
                                "league", "players", "link_seeds"})
#: The board alone (``/games/<id>/board``) shows no flashed message and leaves them
#: waiting for the page (the cookie is sent back as it came).
BOARD_SESSION_KEYS = KNOWN_SESSION_KEYS | {"_flashes"}
ENVIRON_KEY = "scorebook.page_key"
#: The environ key of this worker's claim to render a page the workers share.
CLAIM_KEY = "scorebook.page_claim"
#: Headers of Flask's answer not kept with the page (set per answer).
PER_ANSWER = frozenset({"set-cookie", "content-length", "content-encoding", "vary", "etag"})
#: The environ key of the cookie value this request's session was read from, and of
#: when that cookie was signed.
COOKIE_KEY = "scorebook.page_cookie"
SIGNED_AT_KEY = "scorebook.page_cookie_signed_at"
#: A renewed cookie is made again for the same phone after this many seconds (with
#: ``SESSION_REFRESH_EACH_REQUEST``: otherwise a cookie is renewed once a day at most).
RENEW_EVERY = 60.0
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"


def _statement(keys: int, mark: str, dialect: str) -> str:
    ended = ", ".join([mark] * keys)
    seats = (f"{Seat.__tablename__} s JOIN {Player.__tablename__} p ON p.id = s.player_id"
             " WHERE s.game_id = g.id")
    if dialect == "postgresql":
        names = f"(SELECT string_agg(p.name, chr(31) ORDER BY s.position) FROM {seats})"
    else:
        names = (f"(SELECT group_concat(name, char(31)) FROM"
                 f" (SELECT p.name AS name FROM {seats} ORDER BY s.position))")
    return (
        "SELECT l.password_hash, l.scorer_token_hash, l.viewer_token_hash,"
        f" (SELECT MIN(e.key) FROM {EndedMembership.__tablename__} e"
        f"  WHERE e.league_id = l.id AND e.key IN ({ended})),"
        " g.revision,"
        f" (SELECT count(*) FROM {Change.__tablename__} c WHERE c.game_id = g.id),"
        f" (SELECT max(c.id) FROM {Change.__tablename__} c WHERE c.game_id = g.id), l.id,"
        f" {names}, l.name"
        f" FROM {Game.__tablename__} g JOIN {League.__tablename__} l ON l.id = g.league_id"
        f" WHERE g.id = {mark}")


def _league_columns(mark: str, dialect: str) -> str:
    """What the standings show besides the language and the role, as columns of the
    ``league l`` row: its name and ratings' state (``ratings_from_seq`` set: a replay
    under way, never kept), its games (count, their revisions' sum, the latest id:
    every change to a hand, a status or a seated player's name moves a revision on, and
    the tallies are kept right in the same transaction), its roster and its seasons."""
    def joined(expression: str, table: str, order: str) -> str:
        if dialect == "postgresql":
            return (f"(SELECT string_agg({expression}, chr(31) ORDER BY {order})"
                    f" FROM {table} x WHERE x.league_id = l.id)")
        return (f"(SELECT group_concat(v, char(31)) FROM (SELECT {expression} AS v"
                f" FROM {table} x WHERE x.league_id = l.id ORDER BY {order}))")

    text = "CAST({} AS TEXT)"
    player = " || ':' || ".join([text.format("x.id"), "x.name",
                                 f"COALESCE({text.format('x.retired_at')}, '')"])
    season = " || ':' || ".join([text.format("x.id"), "x.name", text.format("x.starts_on"),
                                 text.format("x.ends_on")])
    return (
        "l.name, l.ratings_epoch, l.ratings_from_seq,"
        f" (SELECT count(*) FROM {Game.__tablename__} x WHERE x.league_id = l.id),"
        f" (SELECT sum(x.revision) FROM {Game.__tablename__} x WHERE x.league_id = l.id),"
        f" (SELECT max(x.id) FROM {Game.__tablename__} x WHERE x.league_id = l.id),"
        f" {joined(player, Player.__tablename__, 'x.id')},"
        f" {joined(season, Season.__tablename__, 'x.id')}")


def _league_statement(keys: int, mark: str, dialect: str) -> str:
    ended = ", ".join([mark] * keys)
    return (
        "SELECT l.password_hash, l.scorer_token_hash, l.viewer_token_hash,"
        f" (SELECT MIN(e.key) FROM {EndedMembership.__tablename__} e"
        f"  WHERE e.league_id = l.id AND e.key IN ({ended})), l.id,"
        f" {_league_columns(mark, dialect)}"
        f" FROM {League.__tablename__} l WHERE l.id = {mark}")


def league_version(values: Iterable[Any]) -> str | None:
    """The standings' version from :func:`_league_columns`' values (None: a ratings
    replay is under way, the page changes by itself)."""
    name, epoch, pending, *rest = values
    if pending is not None:
        return None
    digest = hashlib.blake2b(digest_size=16)
    for value in (name, epoch, *rest):
        digest.update(str(value).encode("utf-8", "surrogatepass") + b"\x1e")
    return digest.hexdigest()


def read_league_version() -> None:
    """Before the standings' data, when the middleware passed the request on to be kept:
    the version the page is built from (keep_page keeps it only if it is the key's)."""
    wanted = request.environ.get(ENVIRON_KEY)
    if wanted is None or wanted[2][1] != "standings":
        return
    from sqlalchemy import text

    from scorebook.extensions import db

    dialect = db.engine.dialect.name
    sql = text(f"SELECT {_league_columns(':id', dialect)} FROM {League.__tablename__} l"
               " WHERE l.id = :id")
    row = db.session.execute(sql, {"id": -wanted[0]}).first()
    g.league_page_version = league_version(row) if row is not None else None


class KeptPage:
    """A page as kept: its parts around the CSRF token, as they are and compressed."""

    __slots__ = ("parts", "gzipped", "headers", "size", "length", "sessions", "lock")
    #: Sessions whose brotli answer a kept page holds (the least recent goes first).
    SESSIONS = 8

    def __init__(self, body: bytes, token: bytes | None, headers: list[tuple[str, str]]
                 ) -> None:
        self.parts = body.split(token) if token else [body]
        self.gzipped = []
        for i, part in enumerate(self.parts):
            squeeze = zlib.compressobj(6, zlib.DEFLATED, -15)
            last = i == len(self.parts) - 1
            self.gzipped.append(squeeze.compress(part)
                                + squeeze.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH))
        self.headers = headers
        self.length = sum(len(p) for p in self.parts)
        squeezed = sum(len(p) for p in self.gzipped)
        self.size = self.length + squeezed * (1 + self.SESSIONS) + 200
        #: raw CSRF token -> the brotli answer made with its signed token (brotli cannot
        #: be spliced: compressed once per session and version, about a millisecond).
        self.sessions: OrderedDict[str, bytes] = OrderedDict()
        self.lock = threading.Lock()

    @classmethod
    def restored(cls, parts: list[bytes], gzipped: list[bytes],
                 headers: list[tuple[str, str]]) -> KeptPage:
        """A page another worker kept (:mod:`scorebook.web.shared_pages`): its parts as
        they were written, nothing compressed again."""
        page = cls.__new__(cls)
        page.parts, page.gzipped, page.headers = parts, gzipped, headers
        page.length = sum(len(p) for p in parts)
        page.size = page.length + sum(len(p) for p in gzipped) * (1 + cls.SESSIONS) + 200
        page.sessions = OrderedDict()
        page.lock = threading.Lock()
        return page

    def brotli(self, raw: str, token: bytes) -> bytes:
        """The brotli answer for this session (signed tokens do not expire here:
        ``WTF_CSRF_TIME_LIMIT = None``, so the one kept stays valid)."""
        with self.lock:
            body = self.sessions.get(raw)
            if body is not None:
                self.sessions.move_to_end(raw)
                return body
        body = brotli.compress(token.join(self.parts), quality=4)
        with self.lock:
            self.sessions[raw] = body
            while len(self.sessions) > self.SESSIONS:
                self.sessions.popitem(last=False)
        return body

    def body(self, token: bytes, gzipped: bool) -> bytes:
        if not gzipped:
            return token.join(self.parts)
        # Between two parts, the token as a stored (uncompressed) deflate block: each
        # part but the last ends byte-aligned (a sync flush), so the stream stays valid.
        stored = b"\x00" + struct.pack("<HH", len(token), len(token) ^ 0xFFFF) + token
        crc = 0
        for i, part in enumerate(self.parts):
            if i:
                crc = zlib.crc32(token, crc)
            crc = zlib.crc32(part, crc)
        size = self.length + len(token) * (len(self.parts) - 1)
        return (GZIP_HEADER + stored.join(self.gzipped)
                + struct.pack("<II", crc & 0xFFFFFFFF, size & 0xFFFFFFFF))


class PageMiddleware(PollMiddleware):
    """Wraps ``app.wsgi_app``; see the module's docstring."""

    #: How many cookies (and tokens) each of the per-phone memos holds before emptying.
    KEPT = 2048

    def __init__(self, app: Flask, wrapped: WSGIApp) -> None:
        super().__init__(app, wrapped)
        self.page_statements: dict[tuple[bool, int], str] = {}
        self.csrf: URLSafeTimedSerializer | None = None
        self.served = 0  #: pages served kept (for tests and benchmarks)
        # What a phone sends again and again, worked out once (each bounded, emptied
        # when full): its cookie's verified data and when it was signed; its raw CSRF
        # token signed; the renewed cookie made for it (see renewed()).
        self.verified: dict[str, tuple[dict[str, Any], float]] = {}
        self.signed: dict[str, bytes] = {}
        self.renewals: dict[str, tuple[float, str]] = {}

    def __call__(self, environ: dict[str, Any], start_response: StartResponse
                 ) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and not environ.get("QUERY_STRING"):
            path = environ.get("PATH_INFO", "")
            if path == STANDINGS_PATH:
                answer = self.serve(environ, "standings", 0, start_response)
                if answer is not None:
                    return answer
            for kind, pattern in PATHS.items():
                match = pattern.match(path)
                if match is not None:
                    answer = self.serve(environ, kind, int(match.group(1)), start_response)
                    if answer is not None:
                        return answer
                    break
        claimed = environ.get(CLAIM_KEY)
        if claimed is None:
            return self.wrapped(environ, start_response)
        try:  # (Flask renders, and keep_page shares the page, before this returns)
            return self.wrapped(environ, start_response)
        finally:
            claimed[0].release(*claimed[1:])

    def session_data(self, environ: dict[str, Any]) -> dict[str, Any] | None:
        value = self.cookie_value(environ)
        if value is None:
            return None
        environ[COOKIE_KEY] = value
        known = self.verified.get(value)
        if known is not None:  # the same signed bytes: the same data, unless too old now
            data, signed_at = known
            environ[SIGNED_AT_KEY] = signed_at
            return data if time.time() - signed_at <= self.max_age else None
        try:
            data, stamp = self.serializer.loads(value, max_age=self.max_age,
                                                return_timestamp=True)
        except BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        if len(self.verified) >= self.KEPT:
            self.verified.clear()
        self.verified[value] = (data, stamp.timestamp())
        environ[SIGNED_AT_KEY] = stamp.timestamp()
        return data

    def serve(self, environ: dict[str, Any], kind: str, game_id: int,
              start_response: StartResponse) -> Iterable[bytes] | None:
        if game_id > MAX_ID or (kind != "board" and environ.get("HTTP_X_LIVE_REFRESH")):
            return None  # (the board alone shows no flashed message: live.js's fetch)
        if self.engine is None:
            self._setup()
            self.csrf = URLSafeTimedSerializer(
                self.app.config.get("WTF_CSRF_SECRET_KEY") or self.app.secret_key,
                salt="wtf-csrf-token")
        data = self.session_data(environ)
        known = BOARD_SESSION_KEYS if kind == "board" else KNOWN_SESSION_KEYS
        if not data or not set(data) <= known:
            return None  # flashed messages waiting (or anything else): Flask's
        raw_token, leagues = data.get("csrf_token"), data.get("leagues")
        if not isinstance(leagues, dict):
            return None
        keys = [e[2] for e in leagues.values()
                if isinstance(e, list) and len(e) == 3 and isinstance(e[2], str)]
        if not keys or len(keys) != len(leagues):
            return None  # a membership without its key: Flask gives it one
        standings = kind == "standings"
        if standings:
            game_id = data.get("league")  # type: ignore[assignment]
            if type(game_id) is not int or not 0 < game_id <= MAX_ID:
                return None  # no open league: Flask picks one (or sends to /leagues)
        build = _league_statement if standings else _statement
        sql = self.page_statements.get((kind == "standings", len(keys)))
        if sql is None:
            sql = self.page_statements[(standings, len(keys))] = build(
                len(keys), self.mark, self.engine.dialect.name)
        try:
            row = self._execute(sql, (*keys, game_id))
        except Exception:
            return None
        if row is None:
            return None
        if standings:
            password, scorer, viewer, ended, league_id = row[:5]
            names, name, cache_id = None, None, -league_id
            version = league_version(row[5:])
            if version is None:
                return None  # ratings being replayed: the page says so, and changes
        else:
            (password, scorer, viewer, ended, revision, count, latest, league_id, names,
             name) = row
            version, cache_id = f"{revision or 0}.{count or 0}.{latest or 0}", game_id
        entry = leagues.get(str(league_id))
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[2], str)):
            return None
        role, fingerprint, _key = entry
        doors = access.Doors(league_id, password, scorer, viewer)
        door = access._door(doors, role) if role in access.RANK else None
        if (door is None or not isinstance(fingerprint, str)
                or fingerprint != access._fingerprint(door) or ended is not None):
            return None
        variant: tuple[Any, ...] = (
            "page", kind, names, name, role, data.get("lang"), data.get("league"),
            environ.get("HTTP_ACCEPT_LANGUAGE", ""), environ.get("HTTP_HOST", ""),
            environ.get("wsgi.url_scheme"), environ.get("SCRIPT_NAME", ""))
        if standings:  # the season shown is the one holding today's date
            from scorebook.services import league as service

            variant += (service.utcnow().date(),)
        encoding = negotiate(environ.get("HTTP_ACCEPT_ENCODING", ""))
        from scorebook.web.boards import cache_of

        cache = cache_of(self.app)
        kept = cache.get(cache_id, version, variant)
        if not isinstance(kept, KeptPage):
            kept = self.shared_page(environ, cache_id, version, variant)
        if kept is None:
            environ[ENVIRON_KEY] = (cache_id, version, variant, data)
            return None
        fresh = False
        if len(kept.parts) == 1:
            token, raw_token = b"", ""  # a page without a form (a viewer's): no token
        elif isinstance(raw_token, str):
            token = self.signed_token(raw_token)
        else:  # a session without a token yet: given one, as Flask-WTF would
            raw_token = hashlib.sha1(os.urandom(64)).hexdigest()  # noqa: S324 (its way)
            data = {**data, "csrf_token": raw_token}
            assert self.csrf is not None
            token = self.csrf.dumps(raw_token).encode("ascii")
            fresh = True
        if encoding == "br":
            body = kept.brotli(raw_token, token)
        else:
            body = kept.body(token, encoding == "gzip")
        headers = [*kept.headers, ("Content-Length", str(len(body))),
                   ("Vary", "Accept-Encoding, Cookie"), *self.headers]
        if encoding is not None:
            headers.append(("Content-Encoding", encoding))
        if fresh or (data.get("_permanent")
                     and renewal_due(self.app, environ.get(SIGNED_AT_KEY), time.time())):
            headers.append(("Set-Cookie", self.renewal(data, environ, fresh)))
        self.served += 1
        start_response("200 OK", headers)
        return [body]

    def shared_page(self, environ: dict[str, Any], cache_id: int, version: str,
                    variant: tuple[Any, ...]) -> KeptPage | None:
        """The page another worker of this machine rendered from this version, kept here
        too (:mod:`scorebook.web.shared_pages`); None when there is none."""
        from scorebook.web.boards import cache_of

        store = shared_of(self.app)
        if store is None:
            return None
        found = store.load(cache_id, version, variant)
        if found is None:
            if store.claim(cache_id, variant):
                environ[CLAIM_KEY] = (store, cache_id, variant)
                return None  # this worker renders it (and releases the claim after)
            found = store.wait(cache_id, version, variant)  # another worker renders it
            if found is None:
                return None
        page = KeptPage.restored(*found)
        cache_of(self.app).put(cache_id, version, variant, page, size=page.size)
        return page

    def signed_token(self, raw: str) -> bytes:
        """The CSRF token of the page for this session's raw token, signed once (any
        signature of it is valid: ``WTF_CSRF_TIME_LIMIT = None``)."""
        token = self.signed.get(raw)
        if token is None:
            assert self.csrf is not None
            token = self.csrf.dumps(raw).encode("ascii")
            if len(self.signed) >= self.KEPT:
                self.signed.clear()
            self.signed[raw] = token
        return token

    def renewal(self, data: dict[str, Any], environ: dict[str, Any], fresh: bool) -> str:
        """The renewed cookie; for a phone reloading the same cookie, the one made for
        it less than :data:`RENEW_EVERY` seconds ago (its expiry, 400 days off, moves on
        by the minute instead of by the second)."""
        value = environ.get(COOKIE_KEY)
        now = time.time()
        made = None if fresh or value is None else self.renewals.get(value)
        if made is not None and now - made[0] < RENEW_EVERY:
            return made[1]
        header = self.renewed(data, environ)
        if not fresh and value is not None:
            if len(self.renewals) >= self.KEPT:
                self.renewals.clear()
            self.renewals[value] = (now, header)
        return header

    def renewed(self, data: dict[str, Any], environ: dict[str, Any]) -> str:
        """The session cookie as Flask re-sends it on every page (a permanent session's
        expiry moves on): the same data, signed again."""
        interface = self.app.session_interface
        secure = self.app.config["SESSION_COOKIE_SECURE"]
        if secure == "auto":
            secure = environ.get("wsgi.url_scheme") == "https"
        return dump_cookie(
            self.cookie, self.serializer.dumps(data),
            expires=http_date(time.time() + self.max_age),
            domain=interface.get_cookie_domain(self.app),
            path=interface.get_cookie_path(self.app),
            secure=bool(secure), httponly=interface.get_cookie_httponly(self.app),
            samesite=interface.get_cookie_samesite(self.app),
            partitioned=interface.get_cookie_partitioned(self.app))


def keep_page(response: Any) -> Any:
    """After a page the middleware could not serve: keep it, if the request was an
    ordinary one (see the module's docstring) and its page is of the key's version."""
    wanted = request.environ.get(ENVIRON_KEY)
    if wanted is None:
        return response
    shown = (g.get("league_page_version") if wanted[2][1] == "standings"
             else page_version())
    if (response.status_code != 200 or response.direct_passthrough
            or response.mimetype != "text/html" or shown != wanted[1]
            or "Set-Cookie" in response.headers):
        return response
    if session.modified and ({k: v for k, v in session.items() if k != "csrf_token"}
                             != {k: v for k, v in wanted[3].items() if k != "csrf_token"}):
        return response  # the page changed the session (only a new CSRF token may be)
    from scorebook.web.boards import cache_of

    token = g.get("csrf_token")
    body = response.get_data()
    if token is None and b"csrf_token" in body:
        return response
    headers = [(k, v) for k, v in response.headers.items() if k.lower() not in PER_ANSWER]
    page = KeptPage(body, token.encode("ascii") if token else None, headers)
    app = _current()
    cache_id, version, variant = wanted[:3]
    cache_of(app).put(cache_id, version, variant, page, size=page.size)
    store = shared_of(app)
    if store is not None:  # the other workers of this machine serve it without rendering
        store.save(cache_id, version, variant, page.parts, page.gzipped, page.headers)
    return response


def _current() -> Flask:
    from flask import current_app

    return current_app._get_current_object()  # type: ignore[attr-defined,no-any-return]


def init_app(app: Flask) -> None:
    """After compression.init_app: the page is kept before it is compressed."""
    app.before_request(read_league_version)
    app.after_request(keep_page)
    app.wsgi_app = PageMiddleware(app, app.wsgi_app)  # type: ignore[method-assign]
    shared_of(app)  # made (and emptied) as the worker starts: see shared_pages
