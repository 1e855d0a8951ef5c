"""Undo at the table: a hand saved, edited or deleted, a live hand finished and a live move
can each be undone with one tap, from any scorer's phone of the table, for a while
(``UNDO_MINUTES``) after it — as a new change, so the stale-write checks still hold.

An undo over a newer change by another phone is refused (409, saying what changed and
on which phone), never made; one whose time ran out is refused too (410). The time is
the service's clock (:data:`scorebook.services.undo.clock`), set forward here: no test
waits.
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import Change, Game, GameResult, Hand, UndoStep, utcnow
from scorebook.services import games, undo
from scorebook.services.hands import verify
from tests.web.test_concurrency import all_at_once, phones
from tests.web.test_i18n import ensure_compiled

JSON = {"Accept": "application/json"}


def hand_body(ben_holds: list[str], number: int | None = None) -> dict[str, Any]:
    """Ann goes out with 7-8-9 of spades; Ben holds ``ben_holds`` (which tells hands
    apart). Ben's short hand is confirmed as missing cards (RULES.md §10)."""
    body: dict[str, Any] = {"players": [
        {"name": "Ann", "melds": [{"id": "a1", "cards": ["7S", "8S", "9S"]}], "hand": []},
        {"name": "Ben", "melds": [], "hand": ben_holds}], "went_out": "Ann",
        "missing_ok": ["Ben"]}
    if number is not None:
        body["number"] = number
    return body


def points(ann: int, ben: int, number: int) -> dict[str, Any]:
    return {"points_only": True, "went_out": "Ann", "number": number,
            "players": [{"name": "Ann", "points": ann}, {"name": "Ben", "points": ben}]}


@pytest.fixture
def game_id(new_game: Any) -> int:
    return new_game()  # type: ignore[no-any-return]


@pytest.fixture
def phone_b(app: Flask, game_id: int, join: Any) -> FlaskClient:
    """A second scorer's phone of the same table."""
    other = app.test_client()
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        league_id = game.league_id
    join(other, league_id, "scorer")
    return other


def record(client: FlaskClient, game_id: int, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/v1/games/{game_id}/hands", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["hand"]  # type: ignore[no-any-return]


def offer(client: FlaskClient, game_id: int) -> dict[str, Any] | None:
    response = client.get(f"/api/v1/games/{game_id}/undo")
    assert response.status_code == 200
    return response.get_json()["undo"]  # type: ignore[no-any-return]


def undo_api(client: FlaskClient, game_id: int, step: int, status: int = 200
             ) -> dict[str, Any]:
    response = client.post(f"/api/v1/games/{game_id}/undo/{step}")
    assert response.status_code == status, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def stranded(app: Flask, game_id: int) -> list[tuple[int, int, list[str]]]:
    """(number, id, Ben's cards) of every complete hand, in order; the scores verify."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and verify([game]) == []
        hands = db.session.scalars(db.select(Hand).where(
            Hand.game_id == game_id, Hand.complete.is_(True)).order_by(Hand.number))
        return [(h.number, h.id, [s.card for s in h.stranded]) for h in hands]


def history(app: Flask, game_id: int) -> list[Change]:
    with app.app_context():
        changes = list(db.session.scalars(db.select(Change).where(Change.game_id == game_id)
                                          .order_by(Change.id)))
        db.session.expunge_all()
        return changes


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


# --- each action ---------------------------------------------------------------------------


def test_a_saved_hand_is_undone_with_one_tap_of_the_scoreboards_button(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    """The scoreboard offers the undo as a form button (no JavaScript needed); one POST
    removes the hand, the totals follow, and the history says who undid it."""
    record(client, game_id, hand_body(["KD"], 1))
    board = text(client.get(f"/games/{game_id}"))
    step = offer(client, game_id)
    assert step is not None and step["kind"] == "hand-recorded" and step["number"] == 1
    action = f"/games/{game_id}/undo/{step['id']}"
    assert f'formaction="{action}"' in board and 'form="undo-offer-form"' in board
    assert 'id="undo-offer-form"' in board  # this browser's token, outside the shared board
    done = client.post(action)
    assert done.status_code == 302 and done.headers["Location"].endswith(f"/games/{game_id}")
    assert stranded(app, game_id) == []
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    assert game["totals"] == [0, 0] and game["hands"] == []
    changes = history(app, game_id)
    assert [c.action for c in changes][-2:] == ["recorded", "undone"]
    assert changes[-1].details and changes[-1].details["undid"] == changes[-2].id
    page = text(client.get(f"/games/{game_id}/history"))
    assert "Undone: Hand recorded" in page and "undone by" in page
    assert offer(client, game_id) is None  # an undo is no step: nothing more on offer
    assert "undo-offer-form\"" not in text(client.get(f"/games/{game_id}")).split(
        'id="undo-offer-form"')[0]  # (the board has no button any more)


def test_an_edit_is_undone_back_to_the_previous_version_as_a_new_one(
        app: Flask, client: FlaskClient, phone_b: FlaskClient, game_id: int) -> None:
    """The hand returns exactly as it was, with a higher version: the phone that still
    holds the edit's version is refused as for any stale change."""
    made = record(client, game_id, hand_body(["KD"], 1))
    edited = phone_b.put(f"/api/v1/games/{game_id}/hands/1", json={
        **hand_body(["QD", "2C"]), "id": made["id"], "version": made["version"]}).get_json()
    step = offer(client, game_id)
    assert step is not None and step["kind"] == "hand-edited"
    done = undo_api(client, game_id, step["id"])  # undone from the other phone
    assert done["undone"]["undone"] is True
    assert stranded(app, game_id) == [(1, made["id"], ["KD"])]
    now = client.get(f"/api/v1/games/{game_id}/hands/1").get_json()
    assert now["version"] > edited["hand"]["version"]
    stale = phone_b.put(f"/api/v1/games/{game_id}/hands/1", json={
        **hand_body(["JD"]), "id": made["id"], "version": edited["hand"]["version"]})
    assert stale.status_code == 409  # the stale-write check still holds
    last = history(app, game_id)[-1]
    assert last.action == "undone" and last.details and last.details["before"] and \
        last.details["after"]
    assert "Undone: Hand edited" in text(client.get(f"/games/{game_id}/history"))


def test_a_deleted_hand_comes_back_with_its_cards_at_its_number(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    made = [record(client, game_id, hand_body(ben, k))
            for k, ben in enumerate([["KD"], ["QD"], ["JD"]], start=1)]
    client.delete(f"/api/v1/games/{game_id}/hands/2",
                  json={"id": made[1]["id"], "version": made[1]["version"]})
    assert [n for n, _i, _c in stranded(app, game_id)] == [1, 2]
    step = offer(client, game_id)
    assert step is not None and step["kind"] == "hand-deleted"
    response = client.post(f"/games/{game_id}/undo/{step['id']}")
    assert response.status_code == 302
    assert stranded(app, game_id) == [(1, made[0]["id"], ["KD"]), (2, made[1]["id"], ["QD"]),
                                      (3, made[2]["id"], ["JD"])]
    # hand 3 moved twice: a phone holding its first version is refused
    stale = client.delete(f"/api/v1/games/{game_id}/hands/3",
                          json={"id": made[2]["id"], "version": made[2]["version"]})
    assert stale.status_code == 409
    page = text(client.get(f"/games/{game_id}/history"))
    assert "Undone: Hand deleted" in page


def test_the_pages_undo_answers_a_script_in_json(client: FlaskClient, game_id: int) -> None:
    record(client, game_id, hand_body(["KD"], 1))
    step = offer(client, game_id)
    assert step is not None
    done = client.post(f"/games/{game_id}/undo/{step['id']}", headers=JSON)
    assert done.status_code == 200
    assert done.get_json() == {"ok": True, "game_url": f"/games/{game_id}",
                               "message": "Undone: hand 1 is no longer in the game."}
    again = client.post(f"/games/{game_id}/undo/{step['id']}", headers=JSON)
    assert again.status_code == 409 and again.get_json()["code"] == "undone-already"
    assert client.post(f"/games/{game_id}/undo/{step['id'] + 1000}").status_code == 404


def test_a_live_move_is_taken_back_from_the_scoreboard_of_another_phone(
        app: Flask, client: FlaskClient, phone_b: FlaskClient, game_id: int) -> None:
    board = f"/games/{game_id}"
    assert client.post(f"{board}/hands/live/start").status_code == 302
    with app.app_context():
        hand = db.session.scalar(db.select(Hand).where(Hand.complete.is_(False)))
        assert hand is not None
        hand_id = hand.id
    moved = client.post(f"{board}/hands/live/meld", data={
        "hand": str(hand_id), "meld-player": "p0", "meld-cards": "7s 8s 9s"})
    assert moved.status_code == 302
    live_page = text(phone_b.get(f"{board}/hands/live"))
    step = offer(phone_b, game_id)
    assert step is not None and step["kind"] == "live-move"
    assert f"/games/{game_id}/undo/{step['id']}" in live_page  # the live page offers it too
    assert "Meld put down in hand 1" in text(phone_b.get(board))
    done = phone_b.post(f"{board}/undo/{step['id']}")
    assert done.status_code == 302 and done.headers["Location"].endswith("/hands/live")
    with app.app_context():
        hand = db.session.get(Hand, hand_id)
        assert hand is not None and hand.melds == [] and not hand.complete
    last = history(app, game_id)[-1]
    assert last.action == "live-undo" and last.details and last.details["kind"] == "live-move"


def test_a_finished_live_hand_is_live_again(app: Flask, client: FlaskClient,
                                            game_id: int) -> None:
    board = f"/games/{game_id}"
    client.post(f"{board}/hands/live/start")
    with app.app_context():
        hand = db.session.scalar(db.select(Hand).where(Hand.complete.is_(False)))
        assert hand is not None
        hand_id = hand.id
    client.post(f"{board}/hands/live/meld", data={
        "hand": str(hand_id), "meld-player": "p0", "meld-cards": "7s 8s 9s"})
    with app.app_context():
        from referee import parse_cards
        from scorebook.services.hands import finish_live
        hand = db.session.get(Hand, hand_id)
        assert hand is not None
        finish_live(hand, {"Ben": parse_cards("KD")}, "out", "Ann", False,
                    missing_ok=frozenset({"Ann", "Ben"}))
    step = offer(client, game_id)
    assert step is not None and step["kind"] == "hand-finished"
    done = undo_api(client, game_id, step["id"])
    assert done["game"]["hands"] == [] and done["game"]["totals"] == [0, 0]
    with app.app_context():
        hand = db.session.get(Hand, hand_id)
        assert hand is not None and not hand.complete
        assert [" ".join(c.text for c in m.cards) for m in hand.melds] == ["7S 8S 9S"]
    assert client.get(f"{board}/hands/live").status_code == 200


def test_undoing_the_winning_hand_puts_the_game_back_in_play(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    """Totals, the winner (and so the ratings, which follow the game's status) follow."""
    record(client, game_id, points(300, 10, 1))
    record(client, game_id, points(250, 0, 2))
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    assert game["status"] == "finished" and game["winner"] == "Ann"
    assert results(app, game_id) == 2  # each player's result and rating after the game
    step = offer(client, game_id)
    assert step is not None
    response = client.post(f"/games/{game_id}/undo/{step['id']}")
    assert response.status_code == 302
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    assert game["status"] == "in-progress" and game["winner"] is None
    assert game["totals"] == [300, 10]
    assert results(app, game_id) == 0  # no longer rated
    page = text(client.get(f"/games/{game_id}", follow_redirects=True))
    assert "Game 1 is in play again" in page and "Undone: hand 2 is no longer in the game." in page


def results(app: Flask, game_id: int) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(GameResult.id)).where(
            GameResult.game_id == game_id)) or 0


# --- refused: another phone acted, the time ran out ----------------------------------------


def test_an_undo_after_another_phones_change_is_refused_and_says_what_changed(
        app: Flask, client: FlaskClient, phone_b: FlaskClient, game_id: int) -> None:
    record(client, game_id, hand_body(["KD"], 1))
    mine = offer(client, game_id)
    assert mine is not None
    record(phone_b, game_id, hand_body(["QD"], 2))  # phone B saves the next hand meanwhile
    refused = undo_api(client, game_id, mine["id"], 409)
    assert refused["error"]["code"] == "undo-overtaken"
    assert "Hand recorded, hand 2" in refused["error"]["message"]
    assert [c for _n, _i, c in stranded(app, game_id)] == [["KD"], ["QD"]]  # nothing undone
    page = client.post(f"/games/{game_id}/undo/{mine['id']}")
    assert page.status_code == 409 and "Nothing was undone" in text(page)
    # the offer is now phone B's hand, which either phone may undo
    theirs = offer(client, game_id)
    assert theirs is not None and theirs["number"] == 2 and theirs["id"] != mine["id"]


def test_an_edit_after_the_hand_was_saved_blocks_the_undo_of_the_save(
        app: Flask, client: FlaskClient, phone_b: FlaskClient, game_id: int) -> None:
    made = record(client, game_id, hand_body(["KD"], 1))
    first = offer(client, game_id)
    assert first is not None
    phone_b.put(f"/api/v1/games/{game_id}/hands/1", json={
        **hand_body(["QD"]), "id": made["id"], "version": made["version"]})
    refused = undo_api(client, game_id, first["id"], 409)
    assert "Hand edited" in refused["error"]["message"]
    assert [c for _n, _i, c in stranded(app, game_id)] == [["QD"]]


def test_two_phones_undo_at_once_one_undoes(app: Flask, client: FlaskClient,
                                            phone_b: FlaskClient, game_id: int) -> None:
    record(client, game_id, hand_body(["KD"], 1))
    step = offer(client, game_id)
    assert step is not None
    undo_api(client, game_id, step["id"])
    again = undo_api(phone_b, game_id, step["id"], 409)
    assert again["error"]["code"] in ("undone-already", "undo-overtaken")
    assert stranded(app, game_id) == []


def test_the_offer_ends_when_the_time_runs_out(app: Flask, client: FlaskClient,
                                               game_id: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    record(client, game_id, hand_body(["KD"], 1))
    step = offer(client, game_id)
    assert step is not None
    later = utcnow() + timedelta(minutes=undo.UNDO_MINUTES, seconds=1)
    monkeypatch.setattr(undo, "clock", lambda: later)
    assert offer(client, game_id) is None
    refused = undo_api(client, game_id, step["id"], 410)
    assert refused["error"]["code"] == "undo-expired"
    assert "10 minutes" in refused["error"]["message"]
    assert len(stranded(app, game_id)) == 1  # nothing undone


def test_the_time_is_configurable(make_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(UNDO_MINUTES=1)
    with app.app_context():
        assert undo.window() == timedelta(minutes=1)
        step = UndoStep(league_id=1, kind=undo.HAND_RECORDED, params={}, state={},
                        created_at=utcnow())
        assert not undo.expired(step)
        assert undo.expired(step, utcnow() + timedelta(seconds=61))


def test_a_viewer_is_offered_nothing_and_may_not_undo(
        app: Flask, client: FlaskClient, game_id: int, join: Any) -> None:
    record(client, game_id, hand_body(["KD"], 1))
    step = offer(client, game_id)
    assert step is not None
    viewer = app.test_client()
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        join(viewer, game.league_id, "viewer")
    assert "undo-offer-form" not in text(viewer.get(f"/games/{game_id}"))
    assert viewer.post(f"/games/{game_id}/undo/{step['id']}").status_code == 403
    assert viewer.post(f"/api/v1/games/{game_id}/undo/{step['id']}").status_code == 403
    assert len(stranded(app, game_id)) == 1


@pytest.mark.parametrize(("lang", "button", "refusal"), [
    ("en", "Undo", "Nothing was undone"),
    ("es", "Deshacer", "No se deshizo nada"),
    ("it", "Annulla", "Non è stato annullato nulla"),
])
def test_the_offer_and_the_refusal_speak_the_tables_language(
        app: Flask, client: FlaskClient, phone_b: FlaskClient, game_id: int, lang: str,
        button: str, refusal: str) -> None:
    ensure_compiled()
    record(client, game_id, hand_body(["KD"], 1))
    mine = offer(client, game_id)
    assert mine is not None
    page = text(client.get(f"/games/{game_id}", headers={"Accept-Language": lang}))
    assert f">{button}</button>" in page
    record(phone_b, game_id, hand_body(["QD"], 2))
    refused = client.post(f"/api/v1/games/{game_id}/undo/{mine['id']}",
                          headers={"Accept-Language": lang})
    assert refused.status_code == 409
    assert refusal in refused.get_json()["error"]["message"]


def test_a_send_tried_again_after_the_undo_of_a_delete_finds_its_hand(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    """The keys of the sends (Idempotency-Key) follow the hand: after a delete is undone,
    the send that stored the hand, tried again, is answered with it (not "deleted
    since"); after the save itself is undone, it is told the hand is gone (410) and it
    is not stored again."""
    key = {"Idempotency-Key": "undo-test-key-1"}
    first = client.post(f"/api/v1/games/{game_id}/hands", json=hand_body(["KD"], 1),
                        headers=key)
    assert first.status_code == 201
    made = first.get_json()["hand"]
    client.delete(f"/api/v1/games/{game_id}/hands/1",
                  json={"id": made["id"], "version": made["version"]})
    step = offer(client, game_id)
    assert step is not None and step["kind"] == "hand-deleted"
    undo_api(client, game_id, step["id"])
    again = client.post(f"/api/v1/games/{game_id}/hands", json=hand_body(["KD"], 1),
                        headers=key)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["hand"]["id"] == made["id"]
    other = {"Idempotency-Key": "undo-test-key-2"}
    assert client.post(f"/api/v1/games/{game_id}/hands", json=hand_body(["QD"], 2),
                       headers=other).status_code == 201
    step = offer(client, game_id)
    assert step is not None and step["kind"] == "hand-recorded" and step["number"] == 2
    undo_api(client, game_id, step["id"])
    gone = client.post(f"/api/v1/games/{game_id}/hands", json=hand_body(["QD"], 2),
                       headers=other)
    assert gone.status_code == 410
    assert [c for _n, _i, c in stranded(app, game_id)] == [["KD"]]


# --- at the same moment (threads, each with its own connection: the database decides) ------


@pytest.fixture
def race_app(make_app: Any, tmp_path: Any) -> Flask:
    if os.environ.get("TEST_DATABASE_URL"):
        return make_app(SQLALCHEMY_ENGINE_OPTIONS={"pool_size": RACE_PHONES + 2})  # type: ignore[no-any-return]
    return make_app(  # type: ignore[no-any-return]
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'undo-race.sqlite3'}",
        SQLALCHEMY_ENGINE_OPTIONS={"pool_size": RACE_PHONES + 2})


RACE_PHONES = 10


def race_game(app: Flask) -> int:
    with app.test_request_context():
        game = games.create_game(games.default_league(), ["Ann", "Ben"], 0,
                                 make_rules("rummy-500"))
        return game.id


def test_phones_undoing_at_the_same_moment_undo_once(race_app: Flask) -> None:
    game_id = race_game(race_app)
    clients = phones(race_app, game_id)[:RACE_PHONES]
    record(clients[0], game_id, hand_body(["KD"], 1))
    step = offer(clients[0], game_id)
    assert step is not None
    answers = all_at_once(clients, lambda client, i: client.post(
        f"/api/v1/games/{game_id}/undo/{step['id']}"))
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200] + [409] * (RACE_PHONES - 1), statuses
    assert stranded(race_app, game_id) == []
    assert [c.action for c in history(race_app, game_id)].count("undone") == 1


def test_an_undo_and_the_next_hand_at_the_same_moment_never_both_land(
        race_app: Flask) -> None:
    """One phone undoes hand 1 while another saves hand 2: either the undo lands and hand
    2 is refused (there is no hand 1 any more), or hand 2 lands and the undo is refused
    (409, naming it) — never a game with a hand 2 and no hand 1."""
    for _round in range(3):
        game_id = race_game(race_app)
        clients = phones(race_app, game_id)[:2]
        record(clients[0], game_id, hand_body(["KD"], 1))
        step = offer(clients[0], game_id)
        assert step is not None

        urls = (f"/api/v1/games/{game_id}/undo/{step['id']}",
                f"/api/v1/games/{game_id}/hands")

        def send(client: FlaskClient, i: int, urls: tuple[str, str] = urls) -> Any:
            if i == 0:
                return client.post(urls[0])
            return client.post(urls[1], json=hand_body(["QD"], 2))

        undone, saved = all_at_once(clients, send)
        numbers = [n for n, _i, _c in stranded(race_app, game_id)]
        if undone.status_code == 200:
            assert saved.status_code in (400, 409) and numbers == []
        else:
            assert undone.status_code == 409 and saved.status_code == 201
            assert numbers == [1, 2]


def test_a_games_old_steps_are_dropped_the_history_keeps_what_they_did(
        app: Flask, client: FlaskClient, game_id: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    record(client, game_id, hand_body(["KD"], 1))
    step = offer(client, game_id)
    assert step is not None
    undo_api(client, game_id, step["id"])
    later = utcnow() + undo.window() + undo.KEPT + timedelta(minutes=1)
    monkeypatch.setattr(undo, "clock", lambda: later)
    record(client, game_id, hand_body(["QD"], 1))
    record(client, game_id, hand_body(["JD"], 2))
    with app.app_context():
        kept = list(db.session.scalars(db.select(UndoStep.id).where(
            UndoStep.game_id == game_id).order_by(UndoStep.id)))
    assert step["id"] not in kept and len(kept) == 2  # (the ids are never given again)
    assert min(kept) > step["id"]
    assert "undone by" in text(client.get(f"/games/{game_id}/history"))
