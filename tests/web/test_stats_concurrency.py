"""Phones opening the statistics at the same moment, while the league's first count
is still to be done: every one of them gets the figures, none an error, and the
cache ends up exactly as one count alone would make it.  The threads share a real
database file (or ``TEST_DATABASE_URL``), each with its own connection."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorebook.extensions import db
from scorebook.models import GameStat, LayoffTally, PlayerGameStat, StatTally
from scorebook.services import games, league
from scorebook.services.stats import cache
from tests.web.test_stats import build

PHONES = 6


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Flask:
    if os.environ.get("TEST_DATABASE_URL"):
        return make_app(SQLALCHEMY_ENGINE_OPTIONS={"pool_size": PHONES + 2})
    return make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'stats.sqlite3'}",
                    SQLALCHEMY_ENGINE_OPTIONS={"pool_size": PHONES + 2})


def snapshot() -> list[Any]:
    rows: list[Any] = []
    for model in (GameStat, PlayerGameStat, StatTally, LayoffTally):
        columns = [c.name for c in model.__table__.columns]
        rows += sorted(tuple(getattr(r, c) for c in columns)
                       for r in db.session.scalars(select(model)))
    return rows


def test_phones_counting_at_once_agree(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "CHUNK", 1)  # many small transactions, to interleave
    with app.test_request_context():
        build()
        the = games.default_league()
        league.prepare(the)
        league_id = the.id
        cache.refresh(league_id)
        alone = snapshot()
        cache.drop([r.game_id for r in db.session.scalars(select(GameStat))])
        db.session.commit()
        assert snapshot() == []
    errors: list[BaseException] = []
    start = threading.Barrier(PHONES)

    def phone() -> None:
        try:
            with app.test_request_context():
                start.wait()
                cache.refresh(league_id)
                db.session.remove()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=phone) for _ in range(PHONES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    with app.test_request_context():
        cache.refresh(league_id)  # whatever a phone that lost a race left to do
        assert snapshot() == alone
