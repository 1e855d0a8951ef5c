"""A hand sent again is stored once: the phone's key for each send.

A phone that saved a hand offline sends it when the connection is back
(static/js/outbox.js). If the network drops after the server stored it but before
the answer arrived, the phone cannot tell and sends it again. Each send carries a key
the phone made (``client_key`` in the form, ``Idempotency-Key`` in the JSON API); the
key is kept with what its send did (``send_key``: the hand it stored or changed), apart
from the hand and for ``SEND_KEY_DAYS``, so the second copy is answered "stored" with
the hand the first one stored, wherever it is numbered now, and nothing is stored
twice. If another phone deleted that hand meanwhile, the second copy is told so (410)
and stores nothing: the offline queue never brings a deleted hand back. A hand from a
second phone (another key) still meets the conflict rules.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.exc import IntegrityError

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import Change, Game, Hand, SendKey, utcnow
from scorebook.services import access
from scorebook.services.games import create_game, default_league
from scorebook.services.hands import SEND_KEY_DAYS, verify
from tests.conftest import PATIENCE_S, join_league
from tests.reading import page

QUEUED = {"X-Scorebook-Send": "queued", "Accept": "application/json"}
KEY = "k-3f2a9c1e-7b4d-4e0a-9a51-0c6f1e2d3b4a"


def form(ben_holds: str = "kd", key: str | None = KEY, **extra: str) -> dict[str, Any]:
    """The record form as the page sends it: Ann goes out with 7-8-9 of spades, Ben
    holds ``ben_holds`` (which tells hands apart)."""
    data = {"number": "1", "players-0-melds": "7s 8s 9s", "players-0-layoffs": "",
            "players-0-hand": "", "players-1-melds": "", "players-1-layoffs": "",
            "players-1-hand": ben_holds, "outcome": "p0",
            "missing_ok": ["Ann", "Ben"],  # fewer than dealt (RULES.md §10): nobody remembers
            **extra}
    if key is not None:
        data["client_key"] = key
    return data


def api_body(ben_holds: list[str], **extra: Any) -> dict[str, Any]:
    return {"players": [
        {"name": "Ann", "melds": [{"id": "a1", "cards": ["7S", "8S", "9S"]}], "hand": []},
        {"name": "Ben", "melds": [], "hand": ben_holds}], "went_out": "Ann", **extra}


@pytest.fixture
def game_id(new_game: Any) -> int:
    return new_game()  # type: ignore[no-any-return]


def hands(app: Flask, game_id: int) -> list[tuple[int, list[str], str | None]]:
    """(number, Ben's cards, the key of the send that recorded it) of every stored hand;
    the scores verify."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and verify([game]) == []
        rows = db.session.scalars(db.select(Hand).where(Hand.game_id == game_id)
                                  .order_by(Hand.number))
        keys = {hand_id: key for hand_id, key in db.session.execute(
            db.select(SendKey.hand_id, SendKey.key).where(SendKey.game_id == game_id,
                                                          SendKey.kind == "record"))}
        return [(h.number, [s.card for s in h.stranded], keys.get(h.id)) for h in rows]


def recorded_changes(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Change.id)).where(
            Change.action == "recorded")) or 0


# --- the record form ------------------------------------------------------------------


def test_the_same_send_twice_stores_one_hand(app: Flask, client: FlaskClient,
                                             game_id: int) -> None:
    url = f"/games/{game_id}/hands/new"
    first = client.post(url, data=form())
    assert first.status_code == 302
    again = client.post(url, data=form())  # the answer was lost: the phone sends it again
    assert again.status_code == 302, again.get_data(as_text=True)
    assert again.headers["Location"].endswith(f"/games/{game_id}#hand-1")
    assert hands(app, game_id) == [(1, ["KD"], KEY)]
    assert recorded_changes(app) == 1


def test_a_queued_send_is_answered_in_json_and_again_the_same(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    url = f"/games/{game_id}/hands/new"
    first = client.post(url, data=form(), headers=QUEUED)
    assert first.status_code == 200 and first.is_json
    body = first.get_json()
    assert body == {"ok": True, "draft": f"record|{game_id}|1", "message": "Hand 1 saved.",
                    "number": 1, "url": f"/games/{game_id}/hands/1",
                    "game_url": f"/games/{game_id}#hand-1"}
    again = client.post(url, data=form(), headers=QUEUED)
    assert again.status_code == 200 and again.get_json() == body
    assert hands(app, game_id) == [(1, ["KD"], KEY)]


def test_a_second_phones_hand_is_still_a_conflict(app: Flask, client: FlaskClient,
                                                  game_id: int) -> None:
    """Phone A stored hand 1; phone B's queued hand 1 (its own key) is refused, with a
    link to the hand A stored, and nothing of B's is stored."""
    url = f"/games/{game_id}/hands/new"
    assert client.post(url, data=form("kd", "phone-a-key-0001")).status_code == 302
    other = client.post(url, data=form("qd", "phone-b-key-0002"), headers=QUEUED)
    assert other.status_code == 409 and other.is_json
    body = other.get_json()
    assert body["ok"] is False and body["code"] == "hand-recorded"
    assert body["message"] == "Hand 1 was just recorded (on another phone?). Here it is."
    assert body["url"] == f"/games/{game_id}/hands/1" and body["number"] == 1
    assert body["draft"] == f"record|{game_id}|1"
    assert hands(app, game_id) == [(1, ["KD"], "phone-a-key-0001")]
    # and without the queue's header, the 409 page as before
    page = client.post(url, data=form("qd", "phone-b-key-0003"))
    assert page.status_code == 409 and "text/html" in page.content_type


def test_a_resend_after_the_game_was_renumbered_finds_its_hand(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    """Hand 2 was stored with key K, then another phone deleted hand 1: hand 2 is hand
    1 now. K sent again is answered with that hand, at its new number."""
    url = f"/games/{game_id}/hands/new"
    assert client.post(url, data=form("kd", "first-hand-key")).status_code == 302
    assert client.post(url, data=form("qd", KEY, number="2")).status_code == 302
    with app.app_context():
        first = db.session.scalar(db.select(Hand).where(Hand.game_id == game_id,
                                                        Hand.number == 1))
        assert first is not None
        ident, version = first.id, first.version
    deleted = client.post(f"/games/{game_id}/hands/1/delete",
                          data={"version": str(version), "hand_id": str(ident)})
    assert deleted.status_code == 302
    again = client.post(url, data=form("qd", KEY, number="2"), headers=QUEUED)
    assert again.status_code == 200, again.get_data(as_text=True)
    assert again.get_json()["number"] == 1
    assert again.get_json()["url"] == f"/games/{game_id}/hands/1"
    assert hands(app, game_id) == [(1, ["QD"], KEY)]


def test_a_refused_queued_hand_says_why_and_stores_nothing(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    url = f"/games/{game_id}/hands/new"
    bad = form("kd", KEY, **{"players-0-melds": "7s 8s"})  # two cards are no meld
    refused = client.post(url, data=bad, headers=QUEUED)
    assert refused.status_code == 400 and refused.is_json
    body = refused.get_json()
    assert body["ok"] is False and body["draft"] == f"record|{game_id}|1"
    assert body["message"] and body["problems"][0]["player"] == "Ann"
    assert hands(app, game_id) == []
    # fixed, the same key is sent again (nothing was stored under it): stored once
    assert client.post(url, data=form(), headers=QUEUED).get_json()["ok"] is True
    assert hands(app, game_id) == [(1, ["KD"], KEY)]


def test_a_game_that_the_hand_ended_is_no_refusal_of_its_resend(
        app: Flask, client: FlaskClient, join: Any) -> None:
    """The winning hand closes the game; its resend is answered "stored", not "this
    game is over"."""
    with app.app_context():
        rules = make_rules("rummy-500", target=50)
        game = create_game(default_league(), ["Ann", "Ben"], 0, rules)
        game_id, league_id = game.id, game.league_id
    join(client, league_id, "scorer")
    url = f"/games/{game_id}/hands/new"
    winning = form("2c", KEY, **{"players-0-melds": "10s js qs ks as"})
    assert client.post(url, data=winning).status_code == 302
    with app.app_context():
        assert not db.session.get(Game, game_id).is_open  # type: ignore[union-attr]
    again = client.post(url, data=winning, headers=QUEUED)
    assert again.status_code == 200 and again.get_json()["number"] == 1
    assert len(hands(app, game_id)) == 1


@pytest.mark.parametrize("key", ["short", "x" * 65, "has space in it", "<b>markup</b>",
                                 "nul\x00in-the-key"])
def test_a_malformed_key_is_a_400_and_stores_nothing(
        app: Flask, client: FlaskClient, game_id: int, key: str) -> None:
    response = client.post(f"/games/{game_id}/hands/new", data=form(key=key))
    assert response.status_code == 400
    assert hands(app, game_id) == []


def test_a_send_without_a_key_works_as_before(app: Flask, client: FlaskClient,
                                              game_id: int) -> None:
    """A page without JavaScript sends no key: recorded, and a second copy is the
    conflict it always was."""
    url = f"/games/{game_id}/hands/new"
    assert client.post(url, data=form(key=None)).status_code == 302
    assert client.post(url, data=form(key=None)).status_code == 409
    assert hands(app, game_id) == [(1, ["KD"], None)]


def test_the_database_refuses_one_key_on_two_hands_of_a_game(app: Flask,
                                                             game_id: int) -> None:
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        dealer = game.seats[0].player_id
        first = Hand(game_id=game_id, number=1, dealer_id=dealer)
        second = Hand(game_id=game_id, number=2, dealer_id=dealer)
        db.session.add_all([first, second])
        db.session.flush()
        for hand in (first, second):
            db.session.add(SendKey(game_id=game_id, kind="record", key=KEY, hand_id=hand.id,
                                   number=hand.number, version=1))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()


# --- an edit --------------------------------------------------------------------------


def stored_hand(app: Flask, game_id: int, number: int = 1) -> tuple[int, int]:
    with app.app_context():
        hand = db.session.scalar(db.select(Hand).where(Hand.game_id == game_id,
                                                       Hand.number == number))
        assert hand is not None
        return hand.id, hand.version


def test_the_same_change_sent_twice_is_made_once(app: Flask, client: FlaskClient,
                                                 game_id: int) -> None:
    assert client.post(f"/games/{game_id}/hands/new", data=form()).status_code == 302
    ident, version = stored_hand(app, game_id)
    url = f"/games/{game_id}/hands/1/edit"
    change = form("qd", "edit-key-0001", version=str(version), hand_id=str(ident))
    assert client.post(url, data=change).status_code == 302
    again = client.post(url, data=change, headers=QUEUED)
    assert again.status_code == 200, again.get_data(as_text=True)
    assert again.get_json()["message"] == "Hand 1 changed."
    assert stored_hand(app, game_id) == (ident, version + 1)  # changed once
    # another phone's change made from the same old version: the conflict as before
    other = client.post(url, data=form("jd", "edit-key-0002", version=str(version),
                                       hand_id=str(ident)), headers=QUEUED)
    assert other.status_code == 409 and other.get_json()["code"] == "hand-changed"
    assert hands(app, game_id) == [(1, ["QD"], KEY)]


# --- the JSON API: Idempotency-Key ------------------------------------------------------


def test_the_api_answers_a_repeated_post_with_the_hand_it_stored(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    url = f"/api/v1/games/{game_id}/hands"
    first = client.post(url, json=api_body(["KD"], number=1),
                        headers={"Idempotency-Key": KEY})
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    again = client.post(url, json=api_body(["KD"], number=1),
                        headers={"Idempotency-Key": KEY})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["hand"] == first.get_json()["hand"]
    assert hands(app, game_id) == [(1, ["KD"], KEY)]
    # a key of the wrong form
    bad = client.post(url, json=api_body(["QD"], number=2), headers={"Idempotency-Key": "x"})
    assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "bad-key"
    assert len(hands(app, game_id)) == 1


def test_the_api_makes_a_repeated_put_once(app: Flask, client: FlaskClient,
                                           game_id: int) -> None:
    made = client.post(f"/api/v1/games/{game_id}/hands",
                       json=api_body(["KD"], number=1)).get_json()["hand"]
    url = f"/api/v1/games/{game_id}/hands/1"
    body = api_body(["QD"], version=made["version"], id=made["id"])
    first = client.put(url, json=body, headers={"Idempotency-Key": "edit-key-0001"})
    assert first.status_code == 200
    again = client.put(url, json=body, headers={"Idempotency-Key": "edit-key-0001"})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["hand"]["version"] == made["version"] + 1
    other = client.put(url, json=body, headers={"Idempotency-Key": "edit-key-0002"})
    assert other.status_code == 409


# --- the same send from two tabs at the same moment --------------------------------------

TABS = 8


@pytest.fixture
def race_app(make_app: Callable[..., Flask], tmp_path: Path) -> Flask:
    if os.environ.get("TEST_DATABASE_URL"):
        return make_app(SQLALCHEMY_ENGINE_OPTIONS={"pool_size": TABS + 2})
    return make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'race.sqlite3'}",
                    SQLALCHEMY_ENGINE_OPTIONS={"pool_size": TABS + 2})


def test_one_send_from_many_tabs_at_once_is_stored_once(race_app: Flask) -> None:
    """Every open tab sends the queued hand when the connection is back: one stores it,
    every other is told it is stored (never a 409, never a second hand)."""
    app = race_app
    with app.test_request_context():
        game = create_game(default_league(), ["Ann", "Ben"], 0, make_rules("rummy-500"))
        game_id, league_id = game.id, game.league_id
    tabs = []
    for _ in range(TABS):
        tab = app.test_client()
        join_league(app, tab, league_id, "scorer")
        tabs.append(tab)
    barrier = threading.Barrier(TABS)
    answers: list[Any] = [None] * TABS

    def send(i: int) -> None:
        barrier.wait()
        answers[i] = tabs[i].post(f"/games/{game_id}/hands/new", data=form(),
                                  headers=QUEUED)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(TABS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=PATIENCE_S)
    assert Counter(a.status_code for a in answers) == {200: TABS}
    assert {a.get_json()["number"] for a in answers} == {1}
    assert hands(app, game_id) == [(1, ["KD"], KEY)]
    assert recorded_changes(app) == 1


# --- a key outlives its hand -------------------------------------------------------------

GONE = ("Hand 1 was stored when it was first sent, then deleted on another phone: it is "
        "not stored again.")


def delete_hand(client: FlaskClient, app: Flask, game_id: int, number: int = 1) -> None:
    """Another phone deletes hand ``number`` (as the hand page's form does)."""
    ident, version = stored_hand(app, game_id, number)
    other = client.post(f"/games/{game_id}/hands/{number}/delete",
                        data={"version": str(version), "hand_id": str(ident)})
    assert other.status_code == 302


def test_a_send_tried_again_after_its_hand_was_deleted_stores_nothing(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    """The answer to a queued hand was lost; before the phone sent it again, another phone
    deleted the hand. The phone is told so (410), and the hand does not come back."""
    url = f"/games/{game_id}/hands/new"
    assert client.post(url, data=form(), headers=QUEUED).status_code == 200  # answer lost
    delete_hand(client, app, game_id)
    again = client.post(url, data=form(), headers=QUEUED)
    assert again.status_code == 410, again.get_data(as_text=True)
    body = again.get_json()
    assert body["ok"] is False and body["code"] == "hand-deleted-since"
    assert body["message"] == GONE and body["draft"] == f"record|{game_id}|1"
    assert hands(app, game_id) == []
    assert recorded_changes(app) == 1
    api = client.post(f"/api/v1/games/{game_id}/hands", json=api_body(["KD"]),
                      headers={"Idempotency-Key": KEY})
    assert api.status_code == 410
    assert api.get_json()["error"]["code"] == "hand-deleted-since"
    assert api.get_json()["error"]["message"] == GONE
    # the form itself (no queue): the same refusal, with the entries and a new key, so
    # that saving it once more, on purpose, stores it
    shown = client.post(url, data=form())
    assert shown.status_code == 410 and GONE in page(shown)
    fresh = re.search(r'<input id="client_key" name="client_key" type="hidden" value="([^"]+)"',
                      shown.get_data(as_text=True))
    assert fresh is not None and fresh.group(1) != KEY
    assert hands(app, game_id) == []
    assert client.post(url, data=form(key=fresh.group(1))).status_code == 302
    assert hands(app, game_id) == [(1, ["KD"], fresh.group(1))]


def test_a_change_tried_again_after_its_hand_was_deleted_changes_nothing(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    assert client.post(f"/games/{game_id}/hands/new", data=form()).status_code == 302
    assert client.post(f"/games/{game_id}/hands/new",
                       data=form("qd", "second-hand-key", number="2")).status_code == 302
    ident, version = stored_hand(app, game_id)
    change = form("jd", "edit-key-0001", version=str(version), hand_id=str(ident))
    assert client.post(f"/games/{game_id}/hands/1/edit", data=change).status_code == 302
    delete_hand(client, app, game_id)  # hand 2 is hand 1 now
    again = client.post(f"/games/{game_id}/hands/1/edit", data=change, headers=QUEUED)
    assert again.status_code == 410 and again.get_json()["code"] == "hand-deleted-since"
    assert hands(app, game_id) == [(1, ["QD"], "second-hand-key")]
    shown = client.post(f"/games/{game_id}/hands/1/edit", data=change)
    assert shown.status_code == 410 and GONE in page(shown)
    put = client.put(f"/api/v1/games/{game_id}/hands/1", json=api_body(
        ["JD"], version=version + 1, id=ident), headers={"Idempotency-Key": "edit-key-0001"})
    assert put.status_code == 410 and put.get_json()["error"]["code"] == "hand-deleted-since"
    assert hands(app, game_id) == [(1, ["QD"], "second-hand-key")]


def test_keys_are_kept_for_their_days_and_then_dropped(app: Flask, client: FlaskClient,
                                                       game_id: int) -> None:
    url = f"/games/{game_id}/hands/new"
    assert client.post(url, data=form()).status_code == 302
    with app.app_context():
        kept = db.session.scalars(db.select(SendKey)).one()
        kept.created_at = utcnow() - timedelta(days=SEND_KEY_DAYS, hours=1)
        db.session.commit()
    assert client.post(url, data=form("qd", "second-hand-key", number="2")
                       ).status_code == 302
    with app.app_context():
        assert [k.key for k in db.session.scalars(db.select(SendKey))] == ["second-hand-key"]


def test_one_key_sent_at_once_by_the_api_is_one_201(race_app: Flask) -> None:
    """Of sends with one Idempotency-Key at the same moment, one stores the hand (201),
    every other gets it back as a replay (200, Idempotent-Replayed: true)."""
    app = race_app
    with app.test_request_context():
        game = create_game(default_league(), ["Ann", "Ben"], 0, make_rules("rummy-500"))
        game_id, league_id = game.id, game.league_id
    tabs = []
    for _ in range(TABS):
        tab = app.test_client()
        join_league(app, tab, league_id, "scorer")
        tabs.append(tab)
    barrier = threading.Barrier(TABS)
    answers: list[Any] = [None] * TABS

    def send(i: int) -> None:
        barrier.wait()
        answers[i] = tabs[i].post(f"/api/v1/games/{game_id}/hands", json=api_body(["KD"]),
                                  headers={"Idempotency-Key": KEY})

    threads = [threading.Thread(target=send, args=(i,)) for i in range(TABS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=PATIENCE_S)
    assert sorted(a.status_code for a in answers) == [200] * (TABS - 1) + [201]
    assert all(a.headers.get("Idempotent-Replayed") == ("true" if a.status_code == 200
                                                          else None) for a in answers)
    assert {a.get_json()["hand"]["id"] for a in answers} == {answers[0].get_json()["hand"]["id"]}
    assert hands(app, game_id) == [(1, ["KD"], KEY)]


# --- the same, against a real server ----------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")
SECRET = "send-keys-secret"
AT_ONCE = 4


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def served(url: str, tmp_path: Path) -> Iterator[int]:
    """gunicorn serving the app on ``url``'s database, threaded as ``make run`` serves it
    (2 workers × 4 threads); yields its port."""
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": SECRET, "PYTHONPATH": str(ROOT)}
    for _ in range(5):
        port = _free_port()
        log = tmp_path / f"gunicorn-{port}.log"
        with open(log, "ab") as out:
            process = subprocess.Popen(
                [str(GUNICORN), "--worker-class", "gthread", "--workers", "2", "--threads",
                 "4", "--bind", f"127.0.0.1:{port}", "app:create_app()"],
                cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True)
        deadline = time.monotonic() + PATIENCE_S
        while time.monotonic() < deadline and process.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        if process.poll() is None:
            break
        assert "Address already in use" in log.read_text(), log.read_text()
    else:
        raise AssertionError("gunicorn found no free port")
    try:
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=PATIENCE_S)


@pytest.fixture
def database(make_app: Callable[..., Flask], tmp_path: Path) -> tuple[Flask, str]:
    url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'served.sqlite3'}"
    return make_app(SQLALCHEMY_DATABASE_URI=url, SQLALCHEMY_ENGINE_OPTIONS={},
                    SECRET_KEY=SECRET), url


def test_one_key_sent_four_times_at_once_to_a_real_server(
        database: tuple[Flask, str], tmp_path: Path) -> None:
    app, url = database
    with app.test_request_context():
        game = create_game(default_league(), ["Ann", "Ben"], 0, make_rules("rummy-500"))
        game_id, league = game.id, game.league
        session: dict[str, Any] = {}
        access.remember(session, league, access.OWNER)
        cookie = app.session_interface.get_signing_serializer(app).dumps(session)  # type: ignore[attr-defined]
        db.session.remove()
        db.engine.dispose()
    body = json.dumps(api_body(["KD"]))
    with served(url, tmp_path) as port:
        # one warm-up read per worker, so that the sends meet in the database, not in
        # the workers' start
        for _ in range(4):
            status, _ = http_send(port, "GET", f"/api/v1/games/{game_id}", None, cookie)
            assert status == 200
        barrier = threading.Barrier(AT_ONCE)
        answers: list[tuple[int, dict[str, str], Any]] = []

        def send() -> None:
            barrier.wait()
            answers.append(http_send(port, "POST", f"/api/v1/games/{game_id}/hands", body,
                                     cookie, {"Idempotency-Key": KEY}, with_headers=True))

        threads = [threading.Thread(target=send) for _ in range(AT_ONCE)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=PATIENCE_S)
    assert sorted(status for status, _h, _b in answers) == [200] * (AT_ONCE - 1) + [201]
    for status, headers, answer in answers:
        assert headers.get("idempotent-replayed") == ("true" if status == 200 else None)
        assert answer["hand"]["number"] == 1
    assert len({answer["hand"]["id"] for _s, _h, answer in answers}) == 1
    assert hands(app, game_id) == [(1, ["KD"], KEY)]
    assert recorded_changes(app) == 1


def http_send(port: int, method: str, path: str, body: str | None, cookie: str,
              headers: dict[str, str] | None = None, with_headers: bool = False) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE_S)
    try:
        connection.request(method, path, body, {"Content-Type": "application/json",
                                                "Cookie": f"session={cookie}",
                                                **(headers or {})})
        response = connection.getresponse()
        data = json.loads(response.read() or b"null")
        if with_headers:
            return response.status, {k.lower(): v for k, v in response.getheaders()}, data
        return response.status, data
    finally:
        connection.close()
