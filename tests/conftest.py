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


def _test_config(**overrides: Any) -> dict[str, Any]:
    database_url = os.environ.get("TEST_DATABASE_URL", "sqlite://")
    config: dict[str, Any] = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
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
            db.create_all()
        apps.append(app)
        return app

    yield factory
    for app in apps:
        with app.app_context():
            db.session.remove()  # close sessions first: PostgreSQL waits on open ones
            db.drop_all()


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
