"""Stale writes never land on another hand.

Hands are addressed by number, and deleting one moves every later hand up a number.
A phone still showing the old numbers must not change or delete the hand that has
moved into the number it holds: its change says which hand it means (``id``, which
never moves) and which ``version`` it read, and the versions are chosen so that a
number never shows the same version twice.  A stale change is a 409 that shows the
hand as it is now and says the hands were renumbered; a change that names no
version is refused.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Game, Hand
from scorebook.services.hands import verify


def hand_body(ben_holds: list[str]) -> dict[str, Any]:
    """Ann goes out with 7-8-9 of spades; Ben holds ``ben_holds`` (which tells hands apart)."""
    return {"players": [
        {"name": "Ann", "melds": [{"id": "a1", "cards": ["7S", "8S", "9S"]}], "hand": []},
        {"name": "Ben", "melds": [], "hand": ben_holds}], "went_out": "Ann"}


HOLDS = [["KD"], ["QD"], ["JD"], ["10D"]]


@pytest.fixture
def game_id(new_game: Any) -> int:
    return new_game()  # type: ignore[no-any-return]


def record(client: FlaskClient, game_id: int, holds: list[list[str]]) -> list[dict[str, Any]]:
    made = []
    for k, ben in enumerate(holds, start=1):
        response = client.post(f"/api/v1/games/{game_id}/hands", json={
            "number": k, **hand_body(ben)})
        assert response.status_code == 201, response.get_json()
        made.append(response.get_json()["hand"])
    return made


def stored(app: Flask, game_id: int) -> list[tuple[int, list[str]]]:
    """(number, Ben's cards) of every stored hand, in order; and the scores verify."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and verify([game]) == []
        hands = db.session.scalars(db.select(Hand).where(Hand.game_id == game_id)
                                   .order_by(Hand.number))
        return [(h.number, [s.card for s in h.stranded]) for h in hands]


def test_every_hand_carries_an_id_that_never_moves(client: FlaskClient, game_id: int) -> None:
    made = record(client, game_id, HOLDS[:3])
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    assert [h["id"] for h in game["hands"]] == [h["id"] for h in made]
    assert client.delete(f"/api/v1/games/{game_id}/hands/1", json={
        "id": made[0]["id"], "version": made[0]["version"]}).status_code == 200
    moved = client.get(f"/api/v1/games/{game_id}/hands/1").get_json()
    assert moved["id"] == made[1]["id"] and moved["number"] == 1  # its number moved, not its id
    assert moved["version"] > made[1]["version"]


def test_the_same_delete_from_a_second_phone_does_not_delete_the_next_hand(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    """The reproduction in the issue: hand 1 edited once (version 2); phone A deletes
    it; phone B, still showing the old hand 1, sends the same delete."""
    made = record(client, game_id, HOLDS[:3])
    edited = client.put(f"/api/v1/games/{game_id}/hands/1", json={
        **hand_body(["KD", "2C"]), "version": made[0]["version"]}).get_json()["hand"]
    assert edited["version"] == 2
    assert client.delete(f"/api/v1/games/{game_id}/hands/1",
                         json={"version": 2}).status_code == 200
    again = client.delete(f"/api/v1/games/{game_id}/hands/1", json={"version": 2})
    assert again.status_code == 409, again.get_json()
    error = again.get_json()["error"]
    assert error["renumbered"] is True and "renumbered" in error["message"]
    assert error["hand"]["number"] == 1 and error["hand"]["players"][1]["hand"] == ["QD"]
    assert stored(app, game_id) == [(1, ["QD"]), (2, ["JD"])]


def test_a_stale_delete_naming_its_hand_says_where_the_hand_went(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    made = record(client, game_id, HOLDS[:3])
    # phone B holds hand 2 as it was; phone A deletes hand 1, so hand 2 becomes hand 1
    assert client.delete(f"/api/v1/games/{game_id}/hands/1", json={
        "id": made[0]["id"], "version": made[0]["version"]}).status_code == 200
    stale = client.delete(f"/api/v1/games/{game_id}/hands/2", json={
        "id": made[1]["id"], "version": made[1]["version"]})
    assert stale.status_code == 409
    error = stale.get_json()["error"]
    assert error["code"] == "hands-renumbered" and error["renumbered"] is True
    assert "the hand you opened as hand 2 is now hand 1" in error["message"]
    assert error["hand"]["id"] == made[1]["id"] and error["hand"]["number"] == 1
    assert stored(app, game_id) == [(1, ["QD"]), (2, ["JD"])]


def test_a_stale_edit_never_lands_on_the_hand_that_moved_up(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    made = record(client, game_id, HOLDS[:3])
    assert client.delete(f"/api/v1/games/{game_id}/hands/1",
                         json={"version": made[0]["version"]}).status_code == 200
    # hand 2 moved to number 1; a phone still editing the old hand 1 (version 1)
    for body in ({**hand_body(["5C"]), "version": made[0]["version"]},
                 {**hand_body(["5C"]), "version": made[0]["version"], "id": made[0]["id"]}):
        stale = client.put(f"/api/v1/games/{game_id}/hands/1", json=body)
        assert stale.status_code == 409, stale.get_json()
        assert stale.get_json()["error"]["renumbered"] is True
        assert stale.get_json()["error"]["hand"]["players"][1]["hand"] == ["QD"]
    assert stored(app, game_id) == [(1, ["QD"]), (2, ["JD"])]


def test_a_number_used_again_never_shows_an_old_version(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    """The last hand deleted, the next one recorded: it has the old one's number, so it
    starts above the old one's version."""
    first = record(client, game_id, HOLDS[:1])[0]
    assert client.delete(f"/api/v1/games/{game_id}/hands/1",
                         json={"version": first["version"]}).status_code == 200
    again = record(client, game_id, [["QD"]])[0]
    assert again["number"] == 1 and again["version"] > first["version"]
    stale = client.delete(f"/api/v1/games/{game_id}/hands/1",
                          json={"version": first["version"]})
    assert stale.status_code == 409
    assert stored(app, game_id) == [(1, ["QD"])]


def test_a_hand_deleted_on_another_phone_is_a_409_for_a_stale_form(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    made = record(client, game_id, HOLDS[:2])
    assert client.delete(f"/api/v1/games/{game_id}/hands/2", json={
        "id": made[1]["id"], "version": made[1]["version"]}).status_code == 200
    gone = client.put(f"/api/v1/games/{game_id}/hands/2", json={
        **hand_body(["5C"]), "id": made[1]["id"], "version": made[1]["version"]})
    assert gone.status_code == 409
    assert gone.get_json()["error"]["code"] == "hand-deleted"
    assert client.put(f"/api/v1/games/{game_id}/hands/2", json={
        **hand_body(["5C"]), "version": 1}).status_code == 404  # no id: nothing to say


@pytest.mark.parametrize("method", ["put", "delete"])
def test_a_change_without_its_version_is_refused(app: Flask, client: FlaskClient,
                                                 game_id: int, method: str) -> None:
    made = record(client, game_id, HOLDS[:2])
    send = getattr(client, method)
    body = hand_body(["5C"]) if method == "put" else {"id": made[0]["id"]}
    for sent in (body, None) if method == "delete" else (body,):
        response = send(f"/api/v1/games/{game_id}/hands/1", json=sent)
        assert response.status_code == 428, response.get_json()
        assert response.get_json()["error"]["code"] == "version-required"
    bad = send(f"/api/v1/games/{game_id}/hands/1", json={**body, "version": "two"})
    assert bad.status_code == 400
    assert stored(app, game_id) == [(1, ["KD"]), (2, ["QD"])]


def test_the_version_may_come_in_the_query_string(client: FlaskClient, game_id: int) -> None:
    made = record(client, game_id, HOLDS[:1])
    assert client.delete(f"/api/v1/games/{game_id}/hands/1?version={made[0]['version']}"
                         ).status_code == 200


# --- the pages (no JavaScript) ------------------------------------------------------------

TYPED = {"players-0-melds": "7s 8s 9s", "players-1-hand": "kd", "outcome": "p0",
         "missing_ok": ["Ann", "Ben"]}  # fewer cards than dealt (§10): nobody remembers


def page_text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


def form_fields(html: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to ``action``."""
    form = html[html.index(f'action="{action}"'):]
    form = form[:form.index("</form>")]
    return dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form))


def test_a_stale_delete_form_is_a_409_that_says_the_hands_were_renumbered(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    record(client, game_id, HOLDS[:3])
    board = f"/games/{game_id}"
    # two phones open hand 1's page; each has its delete form
    form = form_fields(client.get(f"{board}/hands/1").get_data(as_text=True),
                       f"{board}/hands/1/delete")
    assert set(form) >= {"version", "hand_id"}
    assert client.post(f"{board}/hands/1/delete", data=form).status_code == 302
    again = client.post(f"{board}/hands/1/delete", data=form)
    assert again.status_code == 409
    page = page_text(again)
    assert "Hand 1 was deleted on another phone" in page and "renumbered" in page
    assert "Hand 1 as stored" in page and "Q♦" in page  # the hand that is number 1 now
    assert stored(app, game_id) == [(1, ["QD"]), (2, ["JD"])]


def test_a_stale_edit_form_shows_the_hand_as_it_is_now(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    record(client, game_id, HOLDS[:3])
    board = f"/games/{game_id}"
    html = client.get(f"{board}/hands/2/edit").get_data(as_text=True)
    hand_id = re.search(r'name="hand_id" type="hidden" value="(\d+)"', html)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', html)
    assert hand_id and version
    first = form_fields(client.get(f"{board}/hands/1").get_data(as_text=True),
                        f"{board}/hands/1/delete")
    assert client.post(f"{board}/hands/1/delete", data=first).status_code == 302
    # the phone that opened hand 2 saves: its hand is now hand 1, and hand 2 is another
    response = client.post(f"{board}/hands/2/edit", data={
        **TYPED, "players-1-hand": "5c", "number": "2", "hand_id": hand_id.group(1),
        "version": version.group(1)})
    assert response.status_code == 409
    page = page_text(response)
    assert "the hand you opened as hand 2 is now hand 1" in page
    assert "Hand 1 as stored" in page
    assert stored(app, game_id) == [(1, ["QD"]), (2, ["JD"])]


def test_a_form_without_a_version_deletes_nothing(app: Flask, client: FlaskClient,
                                                 game_id: int) -> None:
    record(client, game_id, HOLDS[:2])
    assert client.post(f"/games/{game_id}/hands/1/delete", data={}).status_code == 400
    assert client.post(f"/games/{game_id}/hands/1/edit",
                       data={**TYPED, "number": "1"}).status_code == 400
    assert stored(app, game_id) == [(1, ["KD"]), (2, ["QD"])]


def test_the_old_and_new_of_many_deletes_never_mix(app: Flask, client: FlaskClient,
                                                   game_id: int) -> None:
    """Whatever order stale deletes come in, only hands whose id and version match go."""
    made = record(client, game_id, HOLDS)
    made[1] = client.put(f"/api/v1/games/{game_id}/hands/2", json={
        **hand_body(["QD"]), "version": made[1]["version"]}).get_json()["hand"]  # version 2
    snapshot = copy.deepcopy(made)
    for hand in snapshot:  # a phone that read every hand before the first delete
        client.delete(f"/api/v1/games/{game_id}/hands/{hand['number']}",
                      json={"version": hand["version"]})
    # hand 1 went; every later delete met a renumbered hand and was refused
    assert stored(app, game_id) == [(1, ["QD"]), (2, ["JD"]), (3, ["10D"])]
