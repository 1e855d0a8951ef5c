"""Default configuration.

``create_app`` layers configuration in this order, each step overriding the one before:

1. :class:`DefaultConfig` (and a SQLite database in the instance folder);
2. ``instance/config.py``, if present (skipped when the app gets a test config);
3. environment variables ``DATABASE_URL`` and ``SECRET_KEY``;
4. the test config passed to ``create_app``.

``SECRET_KEY`` has no built-in default: when none is configured, one is generated on
first run into ``instance/secret_key`` and read back on every later run.
"""

from __future__ import annotations

SQLITE_FILENAME = "scorebook.sqlite3"
SECRET_KEY_FILENAME = "secret_key"


class DefaultConfig:
    """Settings every deployment starts from."""

    SQLALCHEMY_TRACK_MODIFICATIONS = False

    # Requests bigger than this get a 413 (JSON under /api/, a friendly page elsewhere).
    MAX_CONTENT_LENGTH = 2 * 1024 * 1024

    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"

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
