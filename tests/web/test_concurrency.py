"""Twenty phones saving the same hand at the same moment: exactly one is stored, the
other nineteen get a 409 that says what happened (and carries the stored hand).

Optimistic locking does it: a new hand's (game, number) is unique, an edit's UPDATE
says ``WHERE version = <the version the phone read>``, and the game's UPDATE says
``WHERE revision = <as read>``.  The threads run against a real database file (or
``TEST_DATABASE_URL``), each with its own connection, so the database decides.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import make_rules
from scorebook import games
from scorebook.extensions import db
from scorebook.hands import verify
from scorebook.models import Change, Game, Hand
from tests.conftest import join_league

PHONES = 20
HAND = {
    "number": 1,
    "players": [
        {"name": "Ann", "melds": [{"id": "a1", "cards": ["7S", "8S", "9S"]}], "hand": []},
        {"name": "Ben", "melds": [], "hand": ["KD"]},
    ],
    "went_out": "Ann",
}


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Flask:
    if os.environ.get("TEST_DATABASE_URL"):
        return make_app(SQLALCHEMY_ENGINE_OPTIONS={"pool_size": PHONES + 2})
    return make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'race.sqlite3'}",
                    SQLALCHEMY_ENGINE_OPTIONS={"pool_size": PHONES + 2})


@pytest.fixture
def game_id(app: Flask) -> int:
    with app.test_request_context():
        game = games.create_game(games.default_league(), ["Ann", "Ben"], 0,
                                 make_rules("rummy-500"))
        return game.id


def phones(app: Flask, game_id: int) -> list[FlaskClient]:
    with app.app_context():
        league_id = db.session.get(Game, game_id).league_id  # type: ignore[union-attr]
    clients = []
    for _ in range(PHONES):
        client = app.test_client()
        join_league(app, client, league_id, "scorer")
        clients.append(client)
    return clients


def all_at_once(clients: list[FlaskClient], send: Callable[[FlaskClient, int], Any]
                ) -> list[Any]:
    """Every phone sends at the same moment (a barrier); the answers in phone order."""
    barrier = threading.Barrier(len(clients))
    answers: list[Any] = [None] * len(clients)

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = send(clients[i], i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    return answers


def stored(app: Flask, game_id: int) -> tuple[int, list[str]]:
    with app.app_context():
        game = db.session.get(Game, game_id)
        count = db.session.scalar(db.select(db.func.count(Hand.id))
                                  .where(Hand.game_id == game_id)) or 0
        return count, verify([game])  # type: ignore[list-item]


def test_twenty_phones_record_the_same_hand(app: Flask, game_id: int) -> None:
    answers = all_at_once(phones(app, game_id), lambda client, i: client.post(
        f"/api/v1/games/{game_id}/hands", json=HAND))
    statuses = Counter(a.status_code for a in answers)
    assert statuses == {201: 1, 409: PHONES - 1}, statuses
    for answer in answers:
        if answer.status_code == 409:
            error = answer.get_json()["error"]
            assert error["code"] == "hand-recorded"
            assert error["message"] == ("Hand 1 was just recorded (on another phone?). "
                                        "Here it is.")
            assert error["hand"]["scores"] == {"Ann": 24, "Ben": -10}
    assert stored(app, game_id) == (1, [])
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Change.id)).where(
            Change.action == "recorded")) == 1


def test_twenty_phones_edit_the_same_version_of_a_hand(app: Flask, game_id: int) -> None:
    clients = phones(app, game_id)
    assert clients[0].post(f"/api/v1/games/{game_id}/hands", json=HAND).status_code == 201

    def edit(client: FlaskClient, i: int) -> Any:
        # each phone leaves Ben a different card: whichever wins, its edit is whole
        body = {**HAND, "version": 1, "players": [HAND["players"][0], {
            "name": "Ben", "melds": [], "hand": [f"{2 + i % 9}C"]}]}
        return client.put(f"/api/v1/games/{game_id}/hands/1", json=body)

    answers = all_at_once(clients, edit)
    statuses = Counter(a.status_code for a in answers)
    assert statuses == {200: 1, 409: PHONES - 1}, statuses
    winner = next(a for a in answers if a.status_code == 200).get_json()["hand"]
    for answer in answers:
        if answer.status_code == 409:
            error = answer.get_json()["error"]
            assert error["code"] == "hand-changed"
            assert "was changed (on another phone?)" in error["message"]
    assert winner["version"] == 2
    assert stored(app, game_id) == (1, [])
    with app.app_context():
        hand = db.session.scalar(db.select(Hand).where(Hand.game_id == game_id))
        assert hand is not None and hand.version == 2
        assert [s.card for s in hand.stranded] == winner["players"][1]["hand"]


def test_twenty_phones_submit_the_record_form_at_once(app: Flask, game_id: int) -> None:
    form = {"number": "1", "players-0-melds": "7s 8s 9s", "players-1-hand": "kd",
            "outcome": "p0"}
    answers = all_at_once(phones(app, game_id), lambda client, i: client.post(
        f"/games/{game_id}/hands/new", data=form))
    statuses = Counter(a.status_code for a in answers)
    assert statuses == {302: 1, 409: PHONES - 1}, statuses
    conflict = next(a for a in answers if a.status_code == 409).get_data(as_text=True)
    assert "Hand 1 was just recorded" in conflict and "Hand 1 as stored" in conflict
    assert stored(app, game_id) == (1, [])


def test_sqlite_runs_in_wal_mode_with_foreign_keys(make_app: Callable[..., Flask],
                                                   tmp_path: Path) -> None:
    """Readers never wait for the writer, and a hand's cards cannot point at nothing."""
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'wal.sqlite3'}",
                   SQLALCHEMY_ENGINE_OPTIONS={})
    with app.app_context():
        assert db.session.execute(db.text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(db.text("PRAGMA foreign_keys")).scalar() == 1
