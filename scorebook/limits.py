"""How much one request may ask of the server.

- **Body size, per blueprint** (:data:`BODY_LIMITS`): the JSON API takes at most
  ``API_MAX_CONTENT_LENGTH`` (the largest question it can be asked, with room to spare),
  a league import ``IMPORT_MAX_CONTENT_LENGTH`` (a league of 5,000 games), every other
  page ``MAX_CONTENT_LENGTH``. The limit is set before anything reads the body — the
  CSRF check reads a form first — and a bigger body is a 413 that names the limit.
- **Work**: a question naming more cards than the decks in play hold, or more melds than
  they make, or nesting its JSON deeper than any question does, is refused before the
  referee searches anything (:mod:`scorebook.services.payloads`).
- **Rate**: the anonymous referee API allows ``REFEREE_RATE_LIMIT`` per client address
  (Flask-Limiter; every 429 says when to come back in ``Retry-After``). The counts kept
  in the worker (``RATELIMIT_STORAGE_URI = "memory://"``, the default) are held by
  :class:`MemoryCounts`: the ``limits`` library's memory storage, which starts a
  ``threading.Timer`` (a new thread) at nearly every count to drop expired keys 10 ms
  later, sweeps them inline instead, at most once every :data:`SWEEP_SECONDS`.
- **Shared counts**: with ``REDIS_URL`` set (a hosted scorebook, ``deploy/``: two app
  instances behind Caddy) the counts are kept in that Redis (:func:`redis_counts`), so
  a client gets the limit once whichever instance and worker answers it; a Redis that
  stops answering is not an error page: each worker counts in its own memory until
  Redis is back (Flask-Limiter's in-memory fallback). Without it (the SQLite default, a
  laptop at the table) nothing changes: memory, as above.
"""

from __future__ import annotations

import time

from flask import Flask, current_app, request
from limits.storage import MemoryStorage

#: Blueprint or endpoint -> the config key of its body limit (an endpoint wins).
BODY_LIMITS = {
    "api": "API_MAX_CONTENT_LENGTH",
    "games_api": "API_MAX_CONTENT_LENGTH",
    "league.import_page": "IMPORT_MAX_CONTENT_LENGTH",
}


def body_limit() -> int | None:
    """The most bytes the current request's body may have."""
    key = BODY_LIMITS.get(request.endpoint or "") or BODY_LIMITS.get(request.blueprint or "")
    config = current_app.config
    return config.get(key) if key else config.get("MAX_CONTENT_LENGTH")


def set_body_limit() -> None:
    request.max_content_length = body_limit()


def size_text(size: int) -> str:
    """``131072`` → ``128 KB``; ``209715200`` → ``200 MB``."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):g} MB"
    return f"{size / 1024:g} KB"


#: How often (seconds) :class:`MemoryCounts` drops the counts whose window has passed.
#: A count read after its window is dropped at once whatever this says (the library's
#: ``get`` does it); the sweep only frees the memory of addresses not seen again.
SWEEP_SECONDS = 10.0

#: The storage scheme of :class:`MemoryCounts`; ``memory://`` is read as it.
MEMORY_SCHEME = "scorebook-memory"


class MemoryCounts(MemoryStorage):
    """``memory://`` without a thread per request: the library's storage schedules its
    clean-up on a ``threading.Timer`` of 10 ms whenever the previous one has finished,
    i.e. a thread started (and a context switch paid) by nearly every limited request;
    here the clean-up runs inline, in the request that finds the last sweep older than
    :data:`SWEEP_SECONDS`.  (The one Timer the library's constructor starts is left.)"""

    STORAGE_SCHEME = [MEMORY_SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False,
                 **options: str) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.swept = time.monotonic()

    def _MemoryStorage__schedule_expiry(self) -> None:  # (the library's private hook)
        now = time.monotonic()
        if now - self.swept >= SWEEP_SECONDS:
            self.swept = now
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]


def memory_counts(app: Flask) -> None:
    """Count in :class:`MemoryCounts` where the configuration says ``memory://`` (or
    nothing: Flask-Limiter's default); any other storage (``redis://``…) as given."""
    uri = app.config.get("RATELIMIT_STORAGE_URI") or "memory://"
    if uri.startswith("memory://"):
        app.config["RATELIMIT_STORAGE_URI"] = MEMORY_SCHEME + uri[len("memory"):]


#: What the counts in Redis are named after (Flask-Limiter's key prefix), so that a Redis
#: shared with other sites keeps the scorebook's apart.
REDIS_KEY_PREFIX = "scorebook"


def redis_counts(app: Flask) -> None:
    """Count in the Redis of ``REDIS_URL`` (``redis://host:6379/0``, ``rediss://``, or
    ``unix:///run/redis/redis-server.sock``), unless ``RATELIMIT_STORAGE_URI`` names a
    storage of its own: every instance of the app and every worker then counts each
    client together. If Redis stops answering, each worker counts alone in memory (the
    limits still hold, per worker) and goes back to Redis once it answers again."""
    url = (app.config.get("REDIS_URL") or "").strip()
    if not url:
        return
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"REDIS_URL must be a redis://, rediss:// or unix:// URL, not {url!r}")
    if (app.config.get("RATELIMIT_STORAGE_URI") or "memory://").startswith("memory://"):
        app.config["RATELIMIT_STORAGE_URI"] = (
            "redis+unix://" + url[len("unix://"):] if url.startswith("unix://") else url)
    app.config.setdefault("RATELIMIT_KEY_PREFIX", REDIS_KEY_PREFIX)
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    # a Redis that does not answer within a second is taken as down (the fallback above)
    options = dict(app.config.get("RATELIMIT_STORAGE_OPTIONS") or {})
    options.setdefault("socket_connect_timeout", 1)
    options.setdefault("socket_timeout", 1)
    app.config["RATELIMIT_STORAGE_OPTIONS"] = options


def init_app(app: Flask) -> None:
    """Register before any other extension's hooks (the CSRF check reads the form)."""
    app.before_request(set_body_limit)
    redis_counts(app)
    memory_counts(app)
