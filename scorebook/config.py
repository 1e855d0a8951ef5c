"""Default configuration.

``create_app`` layers configuration in this order, each step overriding the one before:

1. :class:`DefaultConfig` (and a SQLite database in the instance folder);
2. ``instance/config.py``, if present (skipped when the app gets a test config);
3. environment variables ``DATABASE_URL`` and ``SECRET_KEY``, and those of
   :data:`ENVIRONMENT_SETTINGS`;
4. the test config passed to ``create_app``.

``SECRET_KEY`` has no built-in default: when none is configured, one is generated on
first run into ``instance/secret_key`` and read back on every later run.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from datetime import timedelta
from typing import Any

SQLITE_FILENAME = "scorebook.sqlite3"
SECRET_KEY_FILENAME = "secret_key"


class DefaultConfig:
    """Settings every deployment starts from."""

    SQLALCHEMY_TRACK_MODIFICATIONS = False

    # Requests bigger than this get a 413 (JSON under /api/, a friendly page elsewhere).
    # Pages take MAX_CONTENT_LENGTH; the JSON API at most the largest question it answers
    # (108 cards, names of 80 characters, with room to spare); a league import a league of
    # 5,000 games: benchmarks/league_import.py's is 282 MB (5.4 KB a hand, as exported;
    # hands of more cards weigh more), read as a stream. See scorebook.limits.
    MAX_CONTENT_LENGTH = 2 * 1024 * 1024
    API_MAX_CONTENT_LENGTH = 128 * 1024
    IMPORT_MAX_CONTENT_LENGTH = 512 * 1024 * 1024

    # Background jobs (scorebook/services/jobs.py, run by python -m scorebook.worker):
    # how many one owner may have waiting or running, how long a worker holds one without
    # a word, and where uploads wait (None: instance/jobs/). JOBS_INLINE runs a job in
    # the request that asks for it (the tests' app).
    JOBS_PER_OWNER = 2
    JOBS_STEP_SECONDS = 0.25  # work per step (SQLite's write lock held that long)
    JOBS_LEASE_SECONDS = 60.0
    JOBS_FOLDER: str | None = None
    JOBS_INLINE = False

    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    # "auto": the cookie is marked Secure whenever the request came over HTTPS (directly,
    # or through a proxy trusted with TRUSTED_PROXIES), and not over plain http, so
    # `make run` still works from phones on the LAN. True or False force it.
    SESSION_COOKIE_SECURE: bool | str = "auto"
    # The session holds the browser's league memberships: keep it for 400 days (the most
    # browsers allow), renewed by the visits, so closing the browser loses nothing. An
    # unchanged cookie is sent again once it is a day old, not on every page (Flask's
    # SESSION_REFRESH_EACH_REQUEST): a phone's cookie stays the same from page to page,
    # and so does what its browser caches (scorebook.security).
    PERMANENT_SESSION_LIFETIME = timedelta(days=400)
    SESSION_REFRESH_EACH_REQUEST = False
    SESSION_RENEW_AFTER = timedelta(days=1)
    # A form's CSRF token lasts as long as the session it belongs to: a record-a-hand
    # page opened when the hand was dealt must still save when it ends, however long
    # the hand took (Flask-WTF's default, one hour, would throw the typed hand away).
    WTF_CSRF_TIME_LIMIT = None
    # How many reverse proxies stand in front of the app and set X-Forwarded-For,
    # -Proto and -Host (nginx: 1). The rate limits count per client address, and the
    # Secure cookie follows the scheme, only if this is right.
    TRUSTED_PROXIES = 0
    # Strict-Transport-Security on every answer over HTTPS (never over plain http): for
    # this many seconds the browser opens the site over HTTPS only (a year; 0 tells it
    # to forget). Browsers ignore it on an IP address, such as make run's on the LAN.
    HSTS_MAX_AGE = 365 * 24 * 3600

    # Rate limits (Flask-Limiter) on the password and invite endpoints, per client
    # address; only failed tries count. Each gunicorn worker counts alone with
    # memory://; to share the counts, e.g. RATELIMIT_STORAGE_URI = "redis://host:6379".
    RATELIMIT_ENABLED = True
    RATELIMIT_STORAGE_URI = "memory://"
    # A Redis shared by every instance of the app (deploy/ sets it): the rate limits are
    # counted there, together (scorebook.limits.redis_counts). None: in memory, as above.
    REDIS_URL: str | None = None
    PASSWORD_RATE_LIMIT = "5 per minute;30 per hour"
    INVITE_RATE_LIMIT = "10 per minute;60 per hour"
    # The anonymous JSON API (referee, scoring, arrange, rules), per client address:
    # generous for a table of phones, not for a script hammering the referee's search.
    REFEREE_RATE_LIMIT = "60 per minute"
    # A browser in a league: its record-hand and live pages check every meld and preview
    # the scores through the same API as the phones tap, and a family's phones often
    # share one address (the home router).
    REFEREE_MEMBER_RATE_LIMIT = "600 per minute"
    # Every answer of a limited endpoint says its limit; every 429 says when to retry.
    RATELIMIT_HEADERS_ENABLED = True

    # The address phones use to reach the site (e.g. "http://192.168.1.23:5000" or
    # "https://scores.example.org"): invite links, their QR codes and shared results
    # are made with it. None: the address the page was opened with. `make run` sets it
    # to the laptop's address on the network when it serves the table.
    PUBLIC_URL: str | None = None

    # Languages the site speaks; the first is the default.
    LANGUAGES = ["en", "es", "it"]
    BABEL_DEFAULT_LOCALE = "en"
    BABEL_DEFAULT_TIMEZONE = "UTC"


def normalize_database_url(url: str) -> str:
    """Make a ``DATABASE_URL`` usable by SQLAlchemy.

    Hosting platforms hand out ``postgres://`` URLs, a scheme SQLAlchemy does not
    accept; bare ``postgresql://`` would pick psycopg2. Both become psycopg 3.
    URLs that name a driver, and other databases, are returned unchanged.
    """
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme) :]
    return url


def _secure_setting(value: str) -> bool | str:
    lowered = value.strip().lower()
    if lowered == "auto":
        return "auto"
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"SESSION_COOKIE_SECURE must be auto, true or false, not {value!r}")


#: Settings an environment variable of the same name may give.
ENVIRONMENT_SETTINGS = {
    "SESSION_COOKIE_SECURE": _secure_setting,
    "TRUSTED_PROXIES": int,
    "HSTS_MAX_AGE": int,
    "RATELIMIT_STORAGE_URI": str,
    "REDIS_URL": str,
    "PUBLIC_URL": str,
    # background jobs (README, "Background jobs"): one owner's limit, a step's work, the
    # pause after it on SQLite
    "JOBS_PER_OWNER": int,
    "JOBS_STEP_SECONDS": float,
    "JOBS_PAUSE_SECONDS": float,
    # thread, job (where job workers run: scorebook/serving.py sets it), inline, manual
    "RATINGS_CATCH_UP": str,
    # the workers' shared kept pages (scorebook/web/shared_pages.py): a folder, or off
    "KEPT_PAGES_SHARED": str,
}


def apply_environment(config: MutableMapping[str, Any], environ: Mapping[str, str]) -> None:
    """Copy the :data:`ENVIRONMENT_SETTINGS` the environment sets into ``config``."""
    for name, parse in ENVIRONMENT_SETTINGS.items():
        value = environ.get(name)
        if value:
            config[name] = parse(value)
