"""Rummy Scorebook: the application factory.

``flask --app app run`` finds :func:`create_app` here; no app is created at import.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask
from flask_babel import get_locale
from sqlalchemy import event

from scorebook import assets, compression, limits, plain_text, security
from scorebook.api.games import bp as games_api_bp
from scorebook.api.jobs import bp as jobs_api_bp
from scorebook.api.leagues import bp as leagues_api_bp
from scorebook.api.referee import bp as api_bp
from scorebook.cli import register_cli
from scorebook.config import (
    SECRET_KEY_FILENAME,
    SQLITE_FILENAME,
    DefaultConfig,
    apply_environment,
    normalize_database_url,
)
from scorebook.errors import register_error_handlers
from scorebook.extensions import babel, csrf, db, limiter, migrate
from scorebook.presenters import i18n, results
from scorebook.presenters.sentences import say_all
from scorebook.services.backup import SAY_ALL
from scorebook.web import membership, pages, poll
from scorebook.web.access.views import bp as access_bp
from scorebook.web.games.views import bp as games_bp
from scorebook.web.hands.views import bp as hands_bp
from scorebook.web.install.views import THEME_COLOR
from scorebook.web.install.views import bp as install_bp
from scorebook.web.jobs.views import bp as jobs_bp
from scorebook.web.league.stats import bp as stats_bp
from scorebook.web.league.views import bp as league_bp
from scorebook.web.live.views import bp as live_bp
from scorebook.web.main.views import bp as main_bp
from scorebook.web.phones.views import bp as phones_bp
from scorebook.web.referee.rulebook import bp as rulebook_bp
from scorebook.web.referee.views import bp as referee_pages_bp
from scorebook.web.shared.views import bp as shared_bp

DEFAULT_INSTANCE_PATH = Path(__file__).resolve().parent / "instance"


def create_app(
    test_config: dict[str, Any] | None = None,
    instance_path: str | os.PathLike[str] | None = None,
) -> Flask:
    """Build the app. ``test_config`` overrides all other configuration."""
    app = Flask(
        __name__,
        instance_path=str(Path(instance_path or DEFAULT_INSTANCE_PATH).resolve()),
        instance_relative_config=True,
    )
    configure_instance_folder(app)
    configure_app(app, test_config)
    configure_extensions(app)
    configure_blueprints(app)
    configure_cli(app)
    configure_error_handlers(app)
    return app


def configure_instance_folder(app: Flask) -> None:
    os.makedirs(app.instance_path, exist_ok=True)


def configure_app(app: Flask, test_config: dict[str, Any] | None) -> None:
    """Defaults < instance/config.py < environment < test_config."""
    app.config.from_object(DefaultConfig)
    app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///" + os.path.join(
        app.instance_path, SQLITE_FILENAME
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    if database_url := os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = database_url
    if secret_key := os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key
    apply_environment(app.config, os.environ)  # SESSION_COOKIE_SECURE, TRUSTED_PROXIES, ...
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = normalize_database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_or_create_secret_key(
            Path(app.instance_path) / SECRET_KEY_FILENAME
        )


def load_or_create_secret_key(path: Path) -> str:
    """Read the key stored at ``path``; on first run generate and store one (mode 0600).

    The new key is written to a private temporary file and hard-linked into place,
    so a reader never sees a half-written key and two first runs agree on one key.
    """
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=".secret_key.")  # mode 0600
        try:
            with os.fdopen(fd, "w", encoding="ascii") as tmp:
                tmp.write(secrets.token_hex(32) + "\n")
                tmp.flush()
                os.fsync(tmp.fileno())
            try:
                os.link(tmp_name, path)
            except FileExistsError:
                pass  # another process stored its key first: use that one
        finally:
            os.unlink(tmp_name)
        key = path.read_text(encoding="ascii").strip()
    if not key:
        raise RuntimeError(f"{path} is empty: delete it to generate a new secret key")
    return key


def configure_extensions(app: Flask) -> None:
    limits.init_app(app)  # first: each blueprint's body limit, before the CSRF check reads
    db.init_app(app)
    migrate.init_app(app, db)
    csrf.init_app(app)
    limiter.init_app(app)  # the password and invite endpoints, and the referee API
    security.init_app(app)  # headers, cookies (proxies and HSTS: init_front, below)
    membership.init_app(app)  # who may see what: every request checked before its view
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals["get_locale"] = get_locale
    i18n.init_app(app)  # the language switch, and number/date filters
    compression.init_app(app)  # brotli or gzip, as the browser accepts
    assets.init_app(app)  # versioned static URLs cached for good, and the one stylesheet
    pages.init_app(app)  # a game's pages kept whole, the CSRF token put in per answer
    poll.init_app(app)  # a member's version poll answered before Flask: one statement
    security.init_front(app)  # last, so outermost: trusted proxies' headers, then HSTS
    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _set_sqlite_pragmas)


#: How long a SQLite writer waits for the one before it, in milliseconds.
SQLITE_BUSY_TIMEOUT_MS = 15_000


def _set_sqlite_pragmas(dbapi_connection: sqlite3.Connection, connection_record: Any) -> None:
    """SQLite leaves foreign keys off unless asked, per connection; WAL lets readers
    and the writer work at once (an in-memory database just ignores it); a writer waits
    up to 15 s for another's transaction (not the driver's 5 s), so several phones saving
    on a slow, busy machine queue up instead of one of them being told the database is
    locked."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    finally:
        cursor.close()


def select_locale() -> str | None:
    """The chosen language, else the league's, else the browser's best match, else English
    (:func:`scorebook.presenters.i18n.select_locale`; ``league_language()`` there is
    the leagues' hook)."""
    return i18n.select_locale()


def configure_blueprints(app: Flask) -> None:
    plain_text.init_app(app)  # <int:id> up to the database's integers: bigger ones 404
    csrf.exempt(api_bp)  # JSON clients send no form token
    csrf.exempt(games_api_bp)  # JSON only: a cross-site form cannot send application/json
    app.register_blueprint(games_api_bp, url_prefix="/api/v1/games")
    app.register_blueprint(leagues_api_bp, url_prefix="/api/v1/leagues")
    app.register_blueprint(jobs_api_bp, url_prefix="/api/v1/jobs")
    app.register_blueprint(api_bp, url_prefix="/api/v1")
    app.register_blueprint(referee_pages_bp, url_prefix="/referee")
    app.register_blueprint(rulebook_bp, url_prefix="/rules")
    app.register_blueprint(main_bp)
    app.register_blueprint(access_bp)  # /leagues, /join/<token>
    app.register_blueprint(games_bp, url_prefix="/games")
    app.register_blueprint(hands_bp, url_prefix="/games/<int:game_id>/hands")
    app.register_blueprint(league_bp, url_prefix="/league")
    app.register_blueprint(stats_bp, url_prefix="/league")  # records, head to head, recaps
    app.register_blueprint(live_bp)  # /games/<id>/version, polled by live.js
    app.register_blueprint(install_bp)  # manifest, service worker, favicon, /offline
    app.register_blueprint(phones_bp)  # "Add a phone": invite QR codes, play again, share
    app.register_blueprint(shared_bp)  # /results/<token>: a result shared by link
    app.register_blueprint(jobs_bp, url_prefix="/jobs")  # a background job's progress
    app.jinja_env.globals["THEME_COLOR"] = THEME_COLOR
    results.init_app(app)  # game_share() and standings_share() for the templates


def configure_cli(app: Flask) -> None:
    register_cli(app)
    app.extensions[SAY_ALL] = say_all  # (flask league import words its refusals with it)


def configure_error_handlers(app: Flask) -> None:
    register_error_handlers(app)
