"""The games API: a hand recorded, read, edited and deleted as JSON, with the
referee's checks, and a second phone saving the same hand getting a 409."""

from __future__ import annotations

import copy

import pytest

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import Hand
from tests.worked_examples import RUMMY_500_HAND

HAND = {"number": 1, **{k: v for k, v in RUMMY_500_HAND.items() if k != "rules"}}


@pytest.fixture
def game_id(new_game):
    return new_game(("You", "Ada", "Bo"))  # the client's browser opened the scorer link


def test_record_the_worked_hand_and_read_it_back(client, game_id):
    response = client.post(f"/api/v1/games/{game_id}/hands", json=HAND)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["hand"]["scores"] == {"You": 13, "Ada": 64, "Bo": -9}
    assert body["game"]["totals"] == [13, 64, -9]
    hand = client.get(f"/api/v1/games/{game_id}/hands/1").get_json()
    assert hand["went_out"] == "Ada" and hand["version"] >= 1
    assert [p["name"] for p in hand["players"]] == ["You", "Ada", "Bo"]
    game = client.get(f"/api/v1/games/{game_id}").get_json()
    assert game["hands"][0]["scores"]["Bo"] == -9 and game["status"] == "in-progress"


def test_second_phone_saving_the_same_hand_gets_409_with_the_stored_hand(client, app,
                                                                         game_id):
    assert client.post(f"/api/v1/games/{game_id}/hands", json=HAND).status_code == 201
    second = client.post(f"/api/v1/games/{game_id}/hands", json=HAND)
    assert second.status_code == 409
    error = second.get_json()["error"]
    assert error["code"] == "hand-recorded"
    assert error["hand"]["scores"] == {"You": 13, "Ada": 64, "Bo": -9}
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 1


def test_edit_needs_the_current_version(client, game_id):
    created = client.post(f"/api/v1/games/{game_id}/hands", json=HAND).get_json()["hand"]
    changed = {**HAND, "version": created["version"],
               "players": [HAND["players"][0], HAND["players"][1],
                           {**HAND["players"][2], "hand": ["10C", "7D", "2H"]}]}
    first = client.put(f"/api/v1/games/{game_id}/hands/1", json=changed)
    assert first.status_code == 200, first.get_json()
    assert first.get_json()["hand"]["scores"]["Bo"] == 18 - 19
    stale = client.put(f"/api/v1/games/{game_id}/hands/1", json=changed)
    assert stale.status_code == 409
    assert stale.get_json()["error"]["hand"]["scores"]["Bo"] == -1


def test_delete_a_hand(client, game_id):
    created = client.post(f"/api/v1/games/{game_id}/hands", json=HAND).get_json()["hand"]
    response = client.delete(f"/api/v1/games/{game_id}/hands/1",
                             json={"version": created["version"]})
    assert response.status_code == 200
    assert response.get_json()["game"]["hands"] == []
    assert client.get(f"/api/v1/games/{game_id}/hands/1").status_code == 404


@pytest.mark.parametrize("change,text", [
    (lambda h: h["players"][2].update(hand=["10C", "7D", "2H", "KD"]), "K"),
    (lambda h: h["players"][0].update(layoffs=[{"card": "2C", "onto": "a1"}]), "2♣"),
    (lambda h: h["players"][2].update(melds=[{"id": "b1", "cards": ["6H", "7C", "8D"]}]), ""),
    (lambda h: h["players"][1].update(hand=["XX"]), "XX"),
])
def test_impossible_hands_are_400_and_store_nothing(client, app, game_id, change, text):
    body = copy.deepcopy(HAND)
    change(body)
    response = client.post(f"/api/v1/games/{game_id}/hands", json=body)
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert text in error["message"] and error["problems"]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 0


def test_unknown_game_and_hand_are_404(client, game_id):
    assert client.get("/api/v1/games/999").status_code == 404
    assert client.get(f"/api/v1/games/{game_id}/hands/5").status_code == 404
    assert client.post("/api/v1/games/999/hands", json=HAND).status_code == 404


def test_not_json_is_400(client, game_id):
    response = client.post(f"/api/v1/games/{game_id}/hands", data="hand")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid-json"


def _many_cards(count: int) -> str:
    """``count`` real cards in one string (one deck's worth over and over)."""
    deck = [f"{rank}{suit}" for suit in "SHDC"
            for rank in ("A", *map(str, range(2, 11)), "J", "Q", "K")]
    return " ".join(deck[i % len(deck)] for i in range(count))


BUDGET_BODIES = {
    # a 3-player game of Rummy 500 plays one deck, without jokers: 52 cards
    "cards in hand past the deck": {"went_out": "Ada", "players": [
        {"name": "You", "hand": _many_cards(30)},
        {"name": "Ada", "melds": ["7s 8s 9s"]},
        {"name": "Bo", "hand": _many_cards(30)}]},
    "melds past what the deck can make": {"went_out": "Ada", "players": [
        {"name": "You", "melds": ["as ah ad"] * 10},
        {"name": "Ada", "melds": ["7s 8s 9s"] * 10},
        {"name": "Bo"}]},
    "lay-offs past the deck": {"went_out": "Ada", "players": [
        {"name": "You", "layoffs": [{"card": "10s", "onto": "m"}] * 60},
        {"name": "Ada", "melds": [{"id": "m", "cards": "7s 8s 9s"}]},
        {"name": "Bo"}]},
}


@pytest.mark.parametrize("body", BUDGET_BODIES.values(), ids=BUDGET_BODIES.keys())
@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_more_cards_than_the_decks_hold_is_refused_before_any_search(
        client, app, game_id, monkeypatch, body, method):
    """The card budget of the games API: a hand naming more cards (or melds) than the
    game's decks hold is a 400 at once, before its cards are read or the referee looks
    for a way to score them, and nothing stored changes."""
    assert client.post(f"/api/v1/games/{game_id}/hands", json=HAND).status_code == 201
    before = client.get(f"/api/v1/games/{game_id}/hands/1").get_json()

    def searched(*args, **kwargs):
        raise AssertionError("the hand was read or checked: the budget came too late")

    monkeypatch.setattr("scorebook.api.games.entry_from_json", searched)
    monkeypatch.setattr("scorebook.services.hands.check_entry", searched)
    if method == "POST":
        response = client.post(f"/api/v1/games/{game_id}/hands", json={"number": 2, **body})
    else:
        response = client.put(f"/api/v1/games/{game_id}/hands/1",
                              json={"version": before["version"], **body})
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] in ("too-many-cards", "too-many-melds")
    deck = make_rules("rummy-500").deck_size(3)
    assert deck == 52 and str(deck) in error["message"]  # names what the decks hold
    assert client.get(f"/api/v1/games/{game_id}/hands/1").get_json() == before
    assert client.get(f"/api/v1/games/{game_id}/hands/2").status_code == 404
