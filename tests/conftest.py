"""Shared fixtures: ``app``, ``client`` and ``runner`` (as in the Flask tutorial), and
``make_app`` for a test that needs its own configuration.

The database is in-memory SQLite unless ``TEST_DATABASE_URL`` names another
(e.g. a PostgreSQL test database); every test gets freshly created tables. Under
pytest-xdist (``make test`` runs ``pytest -n auto``) each worker on PostgreSQL tests in a
database of its own, ``<name>_gw0``, ``<name>_gw1``…, created and dropped here: one
database shared by the workers would have its tables dropped under one worker's test by
another's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import HealthCheck, settings
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import StaticPool

from app import create_app
from scorebook.config import normalize_database_url
from scorebook.extensions import db

#: How long a test waits for what will come, however busy the machine: a server that
#: starts, a page that loads, a thread that finishes, a subprocess, an answer. It never
#: decides a test on a slow machine (on one running other work beside the suite, load
#: 13-17 on 2 cores, a page took over 10 s); it only ends one that hangs. The browser
#: tests use it for every Playwright wait (tests/browser/conftest.py). TEST_PATIENCE_S
#: sets another.
PATIENCE_S = float(os.environ.get("TEST_PATIENCE_S") or 600)

# Hypothesis: no deadline per example, and no failing because examples are slow to make
# (its too_slow health check) - both are the machine's speed, not the code's. A test's own
# @settings still chooses its number of examples.
settings.register_profile("scorebook", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("scorebook")

#: The rule book the referee implements, outside this repository: ../shared/RULES.md
#: (SCOREBOOK_RULES_MD names another file, as the test of a missing one does).
RULES_MD = Path(os.environ.get("SCOREBOOK_RULES_MD")
                or Path(__file__).resolve().parents[2] / "shared" / "RULES.md")


def in_ci() -> bool:
    """True when the suite runs in CI (``CI=true``, as ``.ci/run`` and CI services set it)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def rule_book() -> str:
    """RULES.md's text. Without it a rule-book test is skipped (the summary says how to
    get it), but not under ``CI=true``: there a missing rule book fails, so CI never
    passes without checking the referee against it."""
    if not RULES_MD.is_file():
        reason = (f"the rule book is not at {RULES_MD} (it lives in ../shared/, outside "
                  "this repository)")
        if in_ci():
            pytest.fail(f"{reason}; under CI=true a missing rule book fails", pytrace=False)
        pytest.skip(reason)
    return RULES_MD.read_text(encoding="utf-8")


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
        # A league import runs its job in the request, as the worker would run it
        # (tests/web/test_jobs.py runs them in workers).
        "JOBS_INLINE": True,
    }
    if database_url == "sqlite://":
        # One shared in-memory database for every connection of the app.
        config["SQLALCHEMY_ENGINE_OPTIONS"] = {
            "poolclass": StaticPool,
            "connect_args": {"check_same_thread": False},
        }
    config.update(overrides)
    return config


#: The database a worker was given and the copy it made of it (dropped at the end).
_WORKER_DATABASE = pytest.StashKey[tuple[URL, URL]]()


def _admin_engine(url: URL) -> sa.Engine:
    """A connection to the database ``url`` names, outside any transaction (CREATE
    DATABASE and DROP DATABASE refuse to run in one)."""
    return sa.create_engine(url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)


def _worker_database(url: URL, worker: str) -> URL:
    """Create (if missing) the copy of the test database that ``worker`` tests in."""
    assert url.database, url
    own = url.set(database=f"{url.database}_{worker}")
    engine = _admin_engine(url)
    try:
        with engine.connect() as connection:
            found = connection.execute(sa.text("select 1 from pg_database where datname = :n"),
                                       {"n": own.database}).first()
            if found is None:
                name = connection.dialect.identifier_preparer.quote(str(own.database))
                try:
                    connection.execute(sa.text(f"create database {name}"))
                except sa.exc.ProgrammingError as error:
                    raise pytest.UsageError(
                        f"cannot create the worker's database {own.database} ({error.orig}); "
                        "the role needs CREATEDB (bash .ci/postgres grants it), or run the "
                        "tests in one process: pytest -n 0") from error
    finally:
        engine.dispose()
    return own


def pytest_configure(config: pytest.Config) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    asked = os.environ.get("TEST_DATABASE_URL", "")
    if not worker or not asked or asked.startswith("sqlite"):
        return  # one process, or SQLite: in memory, or a file per test (tmp_path)
    url = make_url(normalize_database_url(asked))
    if url.get_backend_name() != "postgresql":
        return
    own = _worker_database(url, worker)
    # Everything below reads TEST_DATABASE_URL: the fixtures, the tests that open their own
    # connections, the servers the crash tests start (they inherit the environment).
    os.environ["TEST_DATABASE_URL"] = own.render_as_string(hide_password=False)
    config.stash[_WORKER_DATABASE] = (url, own)


def pytest_unconfigure(config: pytest.Config) -> None:
    databases = config.stash.get(_WORKER_DATABASE, None)
    if databases is None:
        return
    url, own = databases
    engine = _admin_engine(url)
    try:
        with engine.connect() as connection:
            name = connection.dialect.identifier_preparer.quote(str(own.database))
            connection.execute(sa.text(f"drop database if exists {name} with (force)"))
    finally:
        engine.dispose()


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
    from scorebook.models import League
    from scorebook.services import access

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
    from scorebook.services.games import create_game, default_league

    def _new_game(names: tuple[str, ...] = ("Ann", "Ben"), family: str = "rummy-500",
                  role: str = "scorer") -> int:
        with app.app_context():
            game = create_game(default_league(), list(names), 0, make_rules(family))
            game_id, league_id = game.id, game.league_id
        join_league(app, client, league_id, role)
        return game_id

    return _new_game


#: The best arrangement's real bound, read before any test sets its own.
ARRANGE_CPU_S = __import__("referee.arrange").arrange.ARRANGE_CPU_S


@pytest.fixture(autouse=True)
def _meld_search_untimed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The best arrangement's search stops at ``referee.arrange.ARRANGE_CPU_S`` of its
    thread's CPU time, so on a busy machine a big hand may be answered "best found":
    here it has all the time it needs, so that no clock decides a test.  The tests of the
    bound stop it with a clock of their own (``stopped_search``) or take the real one
    and accept either answer."""
    import referee.arrange

    monkeypatch.setattr(referee.arrange, "ARRANGE_CPU_S", 10.0**6)


@pytest.fixture
def stopped_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The best arrangement's search stopped by a clock of our own (``stop_the_search``)."""
    stop_the_search(monkeypatch)


def stop_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock of our own for the best arrangement's search (no time measured), which it
    looks at every 20 steps: it stands still while the search's narrowest passes run
    (the answer it always has), then jumps a second on, past ``ARRANGE_CPU_S`` (the
    real bound, 0.25 s); so the search stops at its next look and answers with the best
    it found, the same on any machine."""
    import referee.arrange

    real = ARRANGE_CPU_S
    now = [0.0]
    narrowest = referee.arrange._Sweep._narrowest

    def first_passes(sweep: Any) -> Any:
        found = narrowest(sweep)
        now[0] += 1.0
        return found

    monkeypatch.setattr(referee.arrange, "ARRANGE_CPU_S", real)
    monkeypatch.setattr(referee.arrange, "_CHECK_EVERY", 20)
    monkeypatch.setattr(referee.arrange, "_cpu_time", lambda: now[0])
    monkeypatch.setattr(referee.arrange._Sweep, "_narrowest", first_passes)
