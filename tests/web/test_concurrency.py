"""Twenty phones saving the same hand at the same moment: exactly one is stored, the
other nineteen get a 409 that says what happened (and carries the stored hand).
Twenty phones deleting the same hand, or deleting from a view the renumbering has made
stale: one delete lands, and no other hand is ever lost.  Two phones making different
live moves at the same moment: both land; only a real conflict is refused.

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
from scorebook.extensions import db
from scorebook.models import Change, Game, Hand
from scorebook.services import games
from scorebook.services.hands import verify
from tests.conftest import PATIENCE_S, join_league

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
        t.join(timeout=PATIENCE_S)
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
            "outcome": "p0", "missing_ok": ["Ann", "Ben"]}  # fewer than dealt (§10)
    answers = all_at_once(phones(app, game_id), lambda client, i: client.post(
        f"/games/{game_id}/hands/new", data=form))
    statuses = Counter(a.status_code for a in answers)
    assert statuses == {302: 1, 409: PHONES - 1}, statuses
    conflict = next(a for a in answers if a.status_code == 409).get_data(as_text=True)
    assert "Hand 1 was just recorded" in conflict and "Hand 1 as stored" in conflict
    assert stored(app, game_id) == (1, [])


def test_sqlite_runs_in_wal_mode_with_foreign_keys(make_app: Callable[..., Flask],
                                                   tmp_path: Path) -> None:
    """Readers never wait for the writer, a writer waits its turn (15 s) rather than
    failing on a busy machine, and a hand's cards cannot point at nothing."""
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'wal.sqlite3'}",
                   SQLALCHEMY_ENGINE_OPTIONS={})
    with app.app_context():
        assert db.session.execute(db.text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(db.text("PRAGMA foreign_keys")).scalar() == 1
        assert db.session.execute(db.text("PRAGMA busy_timeout")).scalar() == 15_000


# --- stale deletes: the hands renumber under the phones ----------------------------------

def record_hands(client: FlaskClient, game_id: int, count: int) -> None:
    for k in range(1, count + 1):
        body = {**HAND, "number": k, "players": [HAND["players"][0], {
            "name": "Ben", "melds": [], "hand": [f"{2 + k % 9}C"]}]}
        response = client.post(f"/api/v1/games/{game_id}/hands", json=body)
        assert response.status_code == 201, response.get_json()


def bens_cards(app: Flask, game_id: int) -> list[str]:
    with app.app_context():
        hands = db.session.scalars(db.select(Hand).where(Hand.game_id == game_id)
                                   .order_by(Hand.number))
        return [" ".join(s.card for s in h.stranded) for h in hands]


def test_twenty_phones_delete_the_same_hand_and_lose_no_other(app: Flask, game_id: int) -> None:
    """Five rounds: every phone reads hand 1 (its id and version), then all delete it at
    once. Exactly one delete lands each round; the nineteen others are told the hands
    were renumbered, and the hand that moved up into number 1 is never touched."""
    clients = phones(app, game_id)
    record_hands(clients[0], game_id, 8)
    for round_ in range(5):
        before = bens_cards(app, game_id)
        read = clients[0].get(f"/api/v1/games/{game_id}/hands/1").get_json()
        answers = all_at_once(clients, lambda client, i, read=read: client.delete(
            f"/api/v1/games/{game_id}/hands/1",
            json={"version": read["version"], **({"id": read["id"]} if i % 2 else {})}))
        statuses = Counter(a.status_code for a in answers)
        assert statuses == {200: 1, 409: PHONES - 1}, (round_, statuses)
        for answer in answers:
            if answer.status_code == 409:
                error = answer.get_json()["error"]
                assert error["code"] in ("hand-changed", "hands-renumbered", "hand-deleted")
        assert bens_cards(app, game_id) == before[1:], round_
    assert stored(app, game_id) == (3, [])


def test_twenty_phones_with_an_old_view_delete_nothing_more(app: Flask, game_id: int) -> None:
    """Every phone read hands 1 to 6; one deletes hand 1, then all twenty send deletes of
    the hands as they read them, at once: none lands (each hand moved, so each is a
    renumbered 409)."""
    clients = phones(app, game_id)
    record_hands(clients[0], game_id, 6)
    views = [clients[0].get(f"/api/v1/games/{game_id}/hands/{n}").get_json()
             for n in range(1, 7)]
    assert clients[0].delete(f"/api/v1/games/{game_id}/hands/1", json={
        "id": views[0]["id"], "version": views[0]["version"]}).status_code == 200
    after = bens_cards(app, game_id)
    answers = all_at_once(clients, lambda client, i: client.delete(
        f"/api/v1/games/{game_id}/hands/{views[1 + i % 5]['number']}",
        json={"version": views[1 + i % 5]["version"]}))
    assert {a.status_code for a in answers} <= {409, 404}, Counter(a.status_code for a in answers)
    assert bens_cards(app, game_id) == after
    assert stored(app, game_id) == (5, [])


# --- the live hand: moves from two phones at the same moment ------------------------------

JSON_ACCEPT = {"Accept": "application/json"}


def start_live(client: FlaskClient, game_id: int) -> int:
    assert client.post(f"/games/{game_id}/hands/live/start").status_code == 302
    with client.application.app_context():
        hand = db.session.scalar(db.select(Hand).where(Hand.game_id == game_id,
                                                       Hand.complete.is_(False)))
        assert hand is not None
        return hand.id


def meld(client: FlaskClient, game_id: int, hand_id: int, player: str, cards: str,
         version: str = "1") -> Any:
    return client.post(f"/games/{game_id}/hands/live/meld", headers=JSON_ACCEPT, data={
        "hand": str(hand_id), "meld-player": player, "meld-cards": cards,
        "meld-version": version})


def table(app: Flask, hand_id: int) -> list[tuple[str, str]]:
    with app.app_context():
        hand = db.session.get(Hand, hand_id)
        assert hand is not None
        return sorted((m.label, " ".join(c.text for c in m.cards)) for m in hand.melds)


ROUND_MOVES = [("p0", "7s 8s 9s"), ("p1", "kh kd kc")]


def test_two_phones_making_different_moves_at_once_both_land(app: Flask, game_id: int) -> None:
    """Twenty rounds of a live hand where two phones send different melds at the same
    moment, each from a form read before the other's move: none is bounced."""
    clients = phones(app, game_id)[:2]
    bounced = 0
    for round_ in range(20):
        hand_id = start_live(clients[0], game_id)
        answers = all_at_once(clients, lambda client, i, hand_id=hand_id: meld(
            client, game_id, hand_id, *ROUND_MOVES[i]))
        bounced += sum(1 for a in answers if a.status_code != 200)
        assert [a.get_json()["ok"] for a in answers] == [True, True], (
            round_, [a.get_json() for a in answers])
        assert table(app, hand_id) == [("Ann-1", "7S 8S 9S"), ("Ben-1", "KH KD KC")]
        # then both lay off on each other's meld at once, and both land too
        answers = all_at_once(clients, lambda client, i, hand_id=hand_id: client.post(
            f"/games/{game_id}/hands/live/layoff", headers=JSON_ACCEPT, data={
                "hand": str(hand_id), "layoff-player": f"p{1 - i}",
                "layoff-card": ["10s", "ks"][i], "layoff-onto": ["Ann-1", "Ben-1"][i]}))
        bounced += sum(1 for a in answers if a.status_code != 200)
        assert table(app, hand_id) == [("Ann-1", "7S 8S 9S 10S"), ("Ben-1", "KH KD KC KS")]
        assert clients[1].post(f"/games/{game_id}/hands/live/cancel", data={
            "hand": str(hand_id), "cancel-moves": "4", "cancel-confirm": "y"}
            ).status_code == 302
    assert bounced == 0


def test_only_a_real_conflict_is_refused(app: Flask, game_id: int) -> None:
    """Two phones meld the same card at once (one deck: one 7♠): one lands, the other is
    told why, and nothing half-done is stored."""
    clients = phones(app, game_id)[:2]
    hand_id = start_live(clients[0], game_id)
    answers = all_at_once(clients, lambda client, i: meld(
        client, game_id, hand_id, f"p{i}", ["7s 8s 9s", "5s 6s 7s"][i]))
    assert sorted(a.status_code for a in answers) == [200, 400]
    refused = next(a for a in answers if a.status_code == 400).get_json()
    assert refused["ok"] is False and refused["form"] == "meld"
    assert "7♠" in refused["message"] and refused["code"] == "card-used"
    assert len(table(app, hand_id)) == 1
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert verify([game]) == []  # type: ignore[list-item]


def test_eight_phones_each_meld_at_once(make_app: Callable[..., Flask], tmp_path: Path) -> None:
    """A big table: eight phones put down eight different melds at the same moment."""
    if os.environ.get("TEST_DATABASE_URL"):
        app = make_app(SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 10})
    else:
        app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'eight.sqlite3'}",
                       SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 10})
    with app.test_request_context():
        game = games.create_game(games.default_league(), ["Ann", "Ben", "Cy", "Dee"], 0,
                                 make_rules("rummy-500"))
        game_id = game.id
    clients = phones(app, game_id)[:8]
    hand_id = start_live(clients[0], game_id)
    runs = [f"{r}{s} {r + 1}{s} {r + 2}{s}" for s in "shdc" for r in (2, 7)]
    answers = all_at_once(clients, lambda client, i: meld(
        client, game_id, hand_id, f"p{i % 4}", runs[i]))
    assert [a.status_code for a in answers] == [200] * 8, [a.get_json() for a in answers]
    assert len(table(app, hand_id)) == 8
    with app.app_context():
        db.session.remove()
        db.engine.dispose()  # its pool's connections go back now, not when collected


def test_the_live_moves_script_bounces_no_move(tmp_path: Path) -> None:
    """benchmarks/live_moves.py, a few rounds: served on 127.0.0.1 with CSRF on, two
    phones with their own cookies, each round a meld each and a lay-off each at once."""
    import importlib.util

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "live_moves.py"
    spec = importlib.util.spec_from_file_location("live_moves", script)
    assert spec is not None and spec.loader is not None
    live_moves = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(live_moves)
    url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'moves.sqlite3'}"
    result = live_moves.run(5, url, quiet=True)
    assert result["bounced"] == 0, result
    assert result["moves_stored"] == result["moves_sent"] == 20 and result["verify"] == []
