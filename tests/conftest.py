"""Shared fixtures: ``app``, ``client`` and ``runner`` (as in the Flask tutorial), and
``make_app`` for a test that needs its own configuration.

The database is in-memory SQLite unless ``TEST_DATABASE_URL`` names another
(e.g. a PostgreSQL test database); every test gets freshly created tables.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy.pool import StaticPool

from app import create_app
from scorebook.extensions import db

#: Why a test can be skipped on a machine that lacks something, and what to do about it:
#: (a phrase of the skip reason, the kind of test, what is missing, how to get it).
SKIP_HINTS = (
    ("no Chromium", "browser", "Chromium was not found",
     "install Debian's package (apt-get install -y chromium) or set CHROMIUM to its path"),
    ("rule book", "rule-book", "../shared/RULES.md was not found",
     "check out the shared folder beside this repository"),
    ("RULES.md", "rule-book", "../shared/RULES.md was not found",
     "check out the shared folder beside this repository"),
)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One clear line per kind of skipped test, saying how many and how to run them:
    ``pytest -q`` alone shows a skip only as an ``s``."""
    counts: dict[tuple[str, str, str], int] = {}
    others: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = str(longrepr[2] if isinstance(longrepr, tuple) else longrepr)
        for phrase, kind, what, how in SKIP_HINTS:
            if phrase in reason:
                counts[kind, what, how] = counts.get((kind, what, how), 0) + 1
                break
        else:
            reason = reason.removeprefix("Skipped: ")
            others[reason] = others.get(reason, 0) + 1
    for (kind, what, how), count in counts.items():
        tests = "test" if count == 1 else "tests"
        terminalreporter.write_line(f"{count} {kind} {tests} skipped: {what}: {how}.",
                                    yellow=True, bold=True)
    for reason, count in others.items():
        terminalreporter.write_line(f"{count} skipped: {reason}", yellow=True)


def _test_config(**overrides: Any) -> dict[str, Any]:
    database_url = os.environ.get("TEST_DATABASE_URL", "sqlite://")
    config: dict[str, Any] = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
        # The suite asks the referee API thousands of times from one address; the limit
        # itself is tested with its own setting (tests/web/test_request_limits.py).
        "REFEREE_RATE_LIMIT": "1000000 per minute",
        "REFEREE_MEMBER_RATE_LIMIT": "1000000 per minute",
        "SQLALCHEMY_DATABASE_URI": database_url,
    }
    if database_url == "sqlite://":
        # One shared in-memory database for every connection of the app.
        config["SQLALCHEMY_ENGINE_OPTIONS"] = {
            "poolclass": StaticPool,
            "connect_args": {"check_same_thread": False},
        }
    config.update(overrides)
    return config


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """``make_app(**config)``: a test app with its tables created, dropped afterwards."""
    apps: list[Flask] = []

    def factory(**overrides: Any) -> Flask:
        app = create_app(_test_config(**overrides), instance_path=tmp_path / "instance")
        with app.app_context():
            if not apps:
                # A shared database (TEST_DATABASE_URL) may hold what an earlier test or
                # a session-wide fixture (the browser tests' server) left: start empty.
                db.drop_all()
            db.create_all()
        apps.append(app)
        return app

    yield factory
    for app in apps:
        with app.app_context():
            db.session.remove()  # close sessions first: PostgreSQL waits on open ones
            db.drop_all()
            # Hand the pool's connections back now, not whenever the engine is collected:
            # the tests of twenty phones at once open twenty each, and a PostgreSQL
            # server shared by several test runs has only so many (max_connections).
            db.engine.dispose()


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


def join_league(app: Flask, client: FlaskClient, league_id: int, role: str = "owner") -> None:
    """Make ``client``'s browser a member of the league, as if it had created it
    (``owner``) or opened its ``scorer`` or ``viewer`` invite link (made if missing)."""
    from scorebook import access
    from scorebook.models import League

    with app.app_context():
        league = db.session.get(League, league_id)
        assert league is not None, league_id
        if role != access.OWNER and getattr(league, f"{role}_token_hash") is None:
            setattr(league, f"{role}_token_hash", access.token_hash(access.new_token()))
            db.session.commit()
        with client.session_transaction() as session:
            access.remember(session, league, role)


@pytest.fixture
def join(app: Flask) -> Callable[..., None]:
    """``join(client, league_id, role="owner")``: see :func:`join_league`."""

    def _join(client: FlaskClient, league_id: int, role: str = "owner") -> None:
        join_league(app, client, league_id, role)

    return _join


@pytest.fixture
def new_game(app: Flask, client: FlaskClient) -> Callable[..., int]:
    """``new_game(names=("Ann", "Ben"), family="rummy-500", role="scorer")``: a game in
    the default league, its seats in that order, dealt by the first, with ``client``'s
    browser joined to the league as ``role``; returns the game's id."""
    from referee import make_rules
    from scorebook.games import create_game, default_league

    def _new_game(names: tuple[str, ...] = ("Ann", "Ben"), family: str = "rummy-500",
                  role: str = "scorer") -> int:
        with app.app_context():
            game = create_game(default_league(), list(names), 0, make_rules(family))
            game_id, league_id = game.id, game.league_id
        join_league(app, client, league_id, role)
        return game_id

    return _new_game
