"""One tap never saves a phantom or a half hand.

Both ways a page sends a hand (the picker's JSON in ``hand_json``, or the typed
fields without JavaScript) and the API go through one check: how the hand ended must
be said (never taken to be a stock-out or, in Basic Rummy, a draw), and a hand with
no cards at all is refused.  Whatever is refused stores nothing and moves no dealer.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Change, Hand

#: What record-hand.js writes into hand_json for an untouched form.
BLANK_JSON = {"players": [{"name": n, "melds": [], "layoffs": [], "hand": [],
                           "going_rummy": False} for n in ("Ann", "Ben")],
              "went_out": None, "ending": None}

#: A real hand as the picker sends it: Ann melds, Ben holds the K♦.
REAL_JSON = {"players": [
    {"name": "Ann", "melds": [{"id": "m1", "cards": ["7S", "8S", "9S"]}], "layoffs": [],
     "hand": ["2C"]},
    {"name": "Ben", "melds": [], "layoffs": [], "hand": ["KD"]}],
    "went_out": None, "ending": None}


def start(client: FlaskClient, family: str = "rummy-500") -> str:
    response = client.post("/games/new", data={
        "players-0": "Ann", "players-1": "Ben", "family": family, "first_dealer": "0",
        "min_natural_cards": "1"})
    assert response.status_code == 302
    return response.headers["Location"]


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


def hands(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Hand.id))) or 0


@pytest.mark.parametrize("family", ["rummy-500", "basic"])
def test_a_blank_form_sent_by_the_script_stores_nothing(app: Flask, client: FlaskClient,
                                                       family: str) -> None:
    board = start(client, family)
    response = client.post(f"{board}/hands/new", data={
        "number": "1", "hand_json": json.dumps(BLANK_JSON)})
    assert response.status_code == 400
    page = text(response)
    assert "No cards were entered" in page and "Nothing was saved" in page
    assert hands(app) == 0
    board_text = re.sub(r"<[^>]+>", "", text(client.get(board)))
    assert "Hand 1: Ann deals." in board_text  # the dealer did not move on


@pytest.mark.parametrize(("family", "refused"), [("rummy-500", "stock ran out"),
                                                 ("basic", "draw")])
def test_a_real_hand_with_no_outcome_ticked_is_refused_not_guessed(
        app: Flask, client: FlaskClient, family: str, refused: str) -> None:
    board = start(client, family)
    for data in ({"hand_json": json.dumps(REAL_JSON)},  # the picker's page
                 {"players-0-melds": "7s 8s 9s", "players-0-hand": "2c",  # typed, no script
                  "players-1-hand": "kd"}):
        response = client.post(f"{board}/hands/new", data={"number": "1", **data})
        assert response.status_code == 400
        page = text(response)
        section = page[page.index('id="outcome"'):]
        assert "Say how the hand ended." in section[:1500]
    assert hands(app) == 0
    # the form sent back keeps the cards for the script to load again
    assert "7S" in text(client.post(f"{board}/hands/new", data={
        "number": "1", "hand_json": json.dumps(REAL_JSON)}))
    assert hands(app) == 0


def test_basic_rummy_records_a_draw_only_when_it_is_chosen(app: Flask,
                                                           client: FlaskClient) -> None:
    board = start(client, "basic")
    response = client.post(f"{board}/hands/new", data={
        "number": "1", "hand_json": json.dumps(REAL_JSON), "outcome": "draw",
        "missing_ok": ["Ann", "Ben"]})  # fewer cards than dealt (§10): nobody remembers
    assert response.status_code == 302
    with app.app_context():
        hand = db.session.scalar(db.select(Hand))
        assert hand is not None and hand.ending == "draw"


def test_the_script_cannot_choose_the_ending_the_radio_did_not(app: Flask,
                                                               client: FlaskClient) -> None:
    """hand_json claiming a stock-out while no outcome is ticked: the radio decides."""
    board = start(client)
    claimed = {**REAL_JSON, "ending": "stock"}
    response = client.post(f"{board}/hands/new", data={
        "number": "1", "hand_json": json.dumps(claimed)})
    assert response.status_code == 400
    assert hands(app) == 0


def test_back_then_save_stores_no_second_hand(app: Flask, client: FlaskClient) -> None:
    """Hand 1 saved; Back shows its form again (restored by the browser, or the form for
    hand 2 fetched again, empty): one more tap stores nothing."""
    board = start(client)
    saved = {"number": "1", "hand_json": json.dumps(REAL_JSON), "outcome": "p0",
             "missing_ok": ["Ann", "Ben"]}
    saved["hand_json"] = json.dumps({**REAL_JSON, "players": [
        {**REAL_JSON["players"][0], "hand": []}, REAL_JSON["players"][1]]})
    assert client.post(f"{board}/hands/new", data=saved).status_code == 302
    again = client.post(f"{board}/hands/new", data=saved)  # the very page, restored
    assert again.status_code == 409 and "Hand 1 was just recorded" in text(again)
    fresh = text(client.get(f"{board}/hands/new"))  # the page fetched again: hand 2
    assert "Save hand 2" in fresh and 'data-number="2"' in fresh
    blank = client.post(f"{board}/hands/new", data={
        "number": "2", "hand_json": json.dumps(BLANK_JSON), "outcome": ""})
    assert blank.status_code == 400
    assert hands(app) == 1


def test_the_api_asks_how_the_hand_ended_too(app: Flask, client: FlaskClient) -> None:
    board = start(client)
    game_id = int(board.rsplit("/", 1)[1])
    body = {"number": 1, **{k: v for k, v in REAL_JSON.items() if k != "ending"}}
    response = client.post(f"/api/v1/games/{game_id}/hands", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"]["problems"][0]["field"] == "ending"
    empty = client.post(f"/api/v1/games/{game_id}/hands", json={
        "number": 1, "players": [{"name": "Ann"}, {"name": "Ben"}], "went_out": None,
        "ending": "stock"})
    assert empty.status_code == 400 and empty.get_json()["error"]["code"] == "empty-hand"
    stock = client.post(f"/api/v1/games/{game_id}/hands", json={**body, "ending": "stock"})
    assert stock.status_code == 201, stock.get_json()
    assert hands(app) == 1


def test_the_live_finish_asks_how_the_hand_ended(app: Flask, client: FlaskClient) -> None:
    board = start(client)
    assert client.post(f"{board}/hands/live/start").status_code == 302
    assert client.post(f"{board}/hands/live/meld", data={
        "meld-player": "p0", "meld-cards": "7s 8s 9s"}).status_code == 302
    response = client.post(f"{board}/hands/live/finish", data={
        "finish-players-1-hand": "kd"})
    assert response.status_code == 400
    assert "Say how the hand ended." in text(response)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Change.id)).where(
            Change.action == "live-finished")) == 0
