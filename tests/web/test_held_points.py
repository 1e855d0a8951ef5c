"""Points for a hand whose cards nobody remembers, inside a hand given card by card
(issue 27): the player's cards left in hand are given as their points (``held_points``)
instead of cards. The rest of the hand stays card by card and checked by the referee;
the player is stored short of the deal (RULES.md §10 "Fewer cards than dealt"), the
points given being the family's word that nobody remembers the cards; the points count
as the cards would, are kept apart from cards (no stranded card is made up), and come
back in the games API, the hand page, the history, verify and an export.

Every way in: the picker's JSON, the typed form without JavaScript, the live hand's
finish, the games API and the score preview (``/api/v1/score/hand``).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import HandScore, StrandedCard
from scorebook.services.exports import import_league
from tests.reading import page

#: The Basic Rummy hand of benchmarks/taps.py (basic3): Ann goes out; Ben melds a run and
#: holds 9♣ K♦ 3♦ J♥ (32 points), Cy lays off 9♥ and holds A♣ 5♦ 9♠ 10♣ J♦ 4♣ (39).
ANN = {"name": "Ann", "melds": [{"id": "m1", "cards": ["5H", "6H", "7H", "8H"]},
                                {"id": "m2", "cards": ["QC", "QD", "QS"]}]}
BEN_CARDS = {"name": "Ben", "melds": [{"id": "m3", "cards": ["2S", "3S", "4S"]}],
             "hand": ["9C", "KD", "3D", "JH"]}
CY = {"name": "Cy", "layoffs": [{"card": "9H", "onto": "m1"}],
      "hand": ["AC", "5D", "9S", "10C", "JD", "4C"]}


def ben_held(points: Any = 32) -> dict[str, Any]:
    return {"name": "Ben", "melds": [{"id": "m3", "cards": ["2S", "3S", "4S"]}],
            "held_points": points}


@pytest.fixture
def basic(new_game: Callable[..., int]) -> int:
    return new_game(("Ann", "Ben", "Cy"), "basic")


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", page(response))


def rows(app: Flask) -> dict[str, tuple[int, int, bool, int | None]]:
    """Each player's stored (stranded, score, cards missing, held points)."""
    with app.app_context():
        return {s.player.name: (s.stranded, s.score, s.cards_missing, s.held_points)
                for s in db.session.scalars(db.select(HandScore))}


def stranded_of(app: Flask, name: str) -> list[str]:
    with app.app_context():
        return [s.card for s in db.session.scalars(db.select(StrandedCard))
                if s.player.name == name]


def test_the_pickers_json_stores_the_points_beside_the_cards(app: Flask, client: FlaskClient,
                                                             basic: int) -> None:
    """Ben's 32 points count as his four cards would (Ann takes 32 + 39), nobody is asked
    about his missing cards, and no card is made up for him."""
    hand = {"players": [ANN, ben_held(), CY], "went_out": "Ann"}
    saved = client.post(f"/games/{basic}/hands/new",
                        data={"number": "1", "hand_json": json.dumps(hand), "outcome": "p0"})
    assert saved.status_code == 302, text(saved)
    assert rows(app) == {"Ann": (0, 71, False, None), "Ben": (32, 0, True, 32),
                         "Cy": (39, 0, False, None)}
    assert stranded_of(app, "Ben") == []
    read = client.get(f"/api/v1/games/{basic}/hands/1").get_json()
    ben = next(p for p in read["players"] if p["name"] == "Ben")
    assert ben["held_points"] == 32 and ben["hand"] == []
    assert read["scores"] == {"Ann": 71, "Ben": 0, "Cy": 0}
    assert read["fewer_than_dealt"] == [{"name": "Ben", "cards": 3, "dealt": 7}]
    shown = text(client.get(f"/games/{basic}/hands/1"))
    assert "Left in hand: 32 points, the cards not recorded" in shown
    assert "nobody remembered the cards left in hand, so their points were given" in shown
    history = text(client.get(f"/games/{basic}/history"))
    assert "cards missing: Ben (3 of 7)" in history
    result = app.test_cli_runner().invoke(args=["scorebook", "verify"])
    assert result.exit_code == 0, result.output
    assert "cards give" not in result.output


def test_the_same_hand_with_every_card_scores_the_same(app: Flask, client: FlaskClient,
                                                       basic: int) -> None:
    """The points stand for the cards: the same scores as with Ben's four cards."""
    hand = {"players": [ANN, BEN_CARDS, CY], "went_out": "Ann"}
    client.post(f"/games/{basic}/hands/new",
                data={"number": "1", "hand_json": json.dumps(hand), "outcome": "p0"})
    assert rows(app) == {"Ann": (0, 71, False, None), "Ben": (32, 0, False, None),
                         "Cy": (39, 0, False, None)}


def test_the_score_preview_counts_them(post) -> None:
    scored = post("/score/hand", {"rules": "basic", "went_out": "Ann",
                                  "players": [ANN, ben_held(), CY]})
    assert [(p["name"], p["stranded"], p["score"]) for p in scored["players"]] == [
        ("Ann", 0, 71), ("Ben", 32, 0), ("Cy", 39, 0)]


@pytest.mark.parametrize("points", [0, -5, "32", 1.5, True])
def test_points_that_are_no_whole_number_above_zero_are_refused(post, points: Any) -> None:
    answer = post("/score/hand", {"rules": "basic", "went_out": "Ann",
                                  "players": [ANN, ben_held(points), CY]}, status=400)
    assert "held_points" in json.dumps(answer)


def test_points_beside_cards_in_hand_are_refused(client: FlaskClient, basic: int) -> None:
    both = {**BEN_CARDS, "held_points": 32}
    answer = client.post(f"/api/v1/games/{basic}/hands",
                         json={"number": 1, "went_out": "Ann", "players": [ANN, both, CY]})
    assert answer.status_code == 400
    assert "not both" in answer.get_data(as_text=True)


def test_who_went_out_holds_no_points(post) -> None:
    """Points in hand are cards held: the player who went out holds none."""
    answer = post("/score/hand", {"rules": "basic", "went_out": "Ann",
                                  "players": [{**ANN, "held_points": 10}, BEN_CARDS, CY]},
                  status=400)
    assert answer["error"]["code"] == "went-out-with-cards"


def test_the_typed_form_takes_them_without_javascript(app: Flask, client: FlaskClient,
                                                      basic: int) -> None:
    typed = {"number": "1", "players-0-melds": "5h 6h 7h 8h\nqc qd qs",
             "players-1-melds": "2s 3s 4s", "players-1-held": "32",
             "players-2-layoffs": "9h Ann 1", "players-2-hand": "ac 5d 9s 10c jd 4c",
             "outcome": "p0"}
    bad = client.post(f"/games/{basic}/hands/new", data={**typed, "players-1-held": "lots"})
    assert bad.status_code == 400
    assert "“lots” is not a whole number of points from 1 to" in text(bad)
    both = client.post(f"/games/{basic}/hands/new",
                       data={**typed, "players-1-hand": "9c kd 3d jh"})
    assert both.status_code == 400
    assert "Enter either the cards left in" in text(both) and "not both" in text(both)
    assert client.post(f"/games/{basic}/hands/new", data=typed).status_code == 302
    assert rows(app)["Ben"] == (32, 0, True, 32)
    edit = page(client.get(f"/games/{basic}/hands/1/edit"))
    assert re.search(r'name="players-1-held"[^>]*value="32"', edit)
    assert '"held_points": 32' in edit.replace("&#34;", '"').replace("&quot;", '"')


def test_the_live_hand_finishes_with_them(app: Flask, client: FlaskClient, basic: int) -> None:
    live = f"/games/{basic}/hands/live"
    client.post(f"{live}/start")
    client.post(f"{live}/meld", data={"meld-player": "p0", "meld-cards": "5h 6h 7h 8h"})
    client.post(f"{live}/meld", data={"meld-player": "p0", "meld-cards": "qc qd qs"})
    client.post(f"{live}/meld", data={"meld-player": "p1", "meld-cards": "2s 3s 4s"})
    finish = {"finish-players-1-held": "32", "finish-players-2-hand": "ac 5d 9s 10c jd 4c 9h",
              "finish-outcome": "p0"}
    done = client.post(f"{live}/finish", data=finish)
    assert done.status_code == 302, text(done)
    assert rows(app)["Ben"] == (32, 0, True, 32)
    assert rows(app)["Ann"][1] == 32 + 48  # Cy holds 9♥ too


def test_an_undone_edit_gives_the_points_back(app: Flask, client: FlaskClient,
                                              basic: int) -> None:
    hand = {"players": [ANN, ben_held(), CY], "went_out": "Ann"}
    client.post(f"/games/{basic}/hands/new",
                data={"number": "1", "hand_json": json.dumps(hand), "outcome": "p0"})
    from scorebook.models import UndoStep
    from scorebook.services.hands import undo_step
    edited = {"players": [ANN, ben_held(40), CY], "went_out": "Ann"}
    with app.app_context():
        version = db.session.scalars(db.select(HandScore)).first().hand.version  # type: ignore[union-attr]
    saved = client.post(f"/games/{basic}/hands/1/edit",
                        data={"number": "1", "version": str(version),
                              "hand_json": json.dumps(edited), "outcome": "p0"})
    assert saved.status_code == 302, text(saved)
    assert rows(app)["Ben"] == (40, 0, True, 40)
    assert "40 points left in hand" in text(client.get(f"/games/{basic}/history"))
    with app.test_request_context():
        step = db.session.scalars(db.select(UndoStep).order_by(UndoStep.id.desc())).first()
        assert step is not None
        undo_step(step)
        db.session.commit()
    assert rows(app)["Ben"] == (32, 0, True, 32)


def test_an_export_keeps_them_and_an_import_scores_with_them(
        make_app: Callable[..., Flask]) -> None:
    app = make_app()
    client = app.test_client()
    client.post("/games/new", data={"players-0": "Ann", "players-1": "Ben", "players-2": "Cy",
                                    "family": "basic", "first_dealer": "0"})
    hand = {"players": [ANN, ben_held(), CY], "went_out": "Ann"}
    assert client.post("/games/1/hands/new", data={
        "number": "1", "hand_json": json.dumps(hand), "outcome": "p0"}).status_code == 302
    data = json.loads(client.get("/league/export.json").get_data(as_text=True))
    scores = data["games"][0]["hands"][0]["scores"]
    assert {s["player"]: s.get("held_points") for s in scores} == {
        "Ann": None, "Ben": 32, "Cy": None}
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
    with app.test_request_context():
        import_league(copy.deepcopy(data))
        db.session.commit()
    assert rows(app)["Ben"] == (32, 0, True, 32)
    assert rows(app)["Ann"] == (0, 71, False, None)
