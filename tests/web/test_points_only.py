"""Points instead of cards for one hand: when nobody wants to itemise a hand, the scorer
gives each player's points (and how it ended).  The hand is marked "points only" wherever
it is shown, is not checked card by card, goes through the one server check of a hand
(outcome, stale versions, a second save), counts in the totals and the game's end like
any hand, can be turned into cards and back, and exports, imports and verifies."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import select

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import FINISHED, Change, Game, GameResult, Hand, HandScore
from scorebook.presenters.sentences import say, say_all
from scorebook.services import hands, league, ratings
from scorebook.services.exports import (
    LeagueImportError,
    export_league,
    game_csv,
    import_league,
)
from scorebook.services.games import create_game, default_league
from tests.web.test_api_document import body_schema, validator


def points(ann: int, ben: int, went_out: str | None = "Ann", **extra: Any) -> dict[str, Any]:
    return {"points_only": True, "went_out": went_out,
            "players": [{"name": "Ann", "points": ann}, {"name": "Ben", "points": ben}],
            **extra}


CARDS = {"players": [
    {"name": "Ann", "melds": [{"id": "a1", "cards": ["7S", "8S", "9S"]}], "hand": []},
    {"name": "Ben", "melds": [], "hand": ["KD"]}], "went_out": "Ann"}


@pytest.fixture
def game_id(new_game: Any) -> int:
    return new_game()  # type: ignore[no-any-return]


def api(client: FlaskClient, method: str, path: str, body: Any, status: int) -> dict[str, Any]:
    response = client.open(f"/api/v1/games{path}", method=method, json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def verified(app: Flask, game_id: int) -> Game:
    game = db.session.get(Game, game_id)
    assert game is not None and hands.verify([game]) == []
    return game


# --- scoring, totals, the game's end ----------------------------------------------------


def test_a_points_hand_scores_as_given_and_counts_in_the_totals(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    made = api(client, "POST", f"/{game_id}/hands", points(64, -9, number=1), 201)
    assert made["hand"]["points_only"] is True
    assert made["hand"]["scores"] == {"Ann": 64, "Ben": -9}
    assert made["hand"]["players"] == [{"name": "Ann", "points": 64, "going_rummy": False},
                                       {"name": "Ben", "points": -9, "going_rummy": False}]
    api(client, "POST", f"/{game_id}/hands", CARDS, 201)  # a card hand after it: 24, -10
    game = api(client, "GET", f"/{game_id}", None, 200)
    assert game["totals"] == [88, -19]
    assert [h["points_only"] for h in game["hands"]] == [True, False]
    with app.app_context():
        hand = db.session.scalar(select(Hand).where(Hand.number == 1))
        assert hand is not None and hand.points_only and not hand.melds and not hand.stranded
        assert {(s.melded, s.stranded) for s in hand.scores} == {(0, 0)}
        verified(app, game_id)


def test_points_end_the_game_and_name_the_winner(app: Flask, client: FlaskClient,
                                                 game_id: int) -> None:
    """game.target-500: 500 reached by points alone finishes the game."""
    for k, (ann, ben) in enumerate([(300, 40), (150, 60), (60, 0)], start=1):
        answer = api(client, "POST", f"/{game_id}/hands", points(ann, ben, number=k), 201)
    assert answer["game"]["status"] == FINISHED and answer["game"]["winner"] == "Ann"
    assert answer["game"]["totals"] == [510, 100]
    api(client, "POST", f"/{game_id}/hands", points(1, 1), 409)  # the game is over
    # editing the last hand down un-finishes it, exactly as for cards
    hand = answer["hand"]
    after = api(client, "PUT", f"/{game_id}/hands/3", points(10, 0, version=hand["version"],
                                                               id=hand["id"]), 200)
    assert after["game"]["status"] == "in-progress" and after["game"]["winner"] is None


def test_basic_rummy_points_winner_takes_all(app: Flask, client: FlaskClient,
                                             join: Any) -> None:
    with app.app_context():
        game = create_game(default_league(), ["Ann", "Ben"], 0, make_rules("basic"))
        game_id, league_id = game.id, game.league_id
    join(client, league_id, "scorer")
    refused = api(client, "POST", f"/{game_id}/hands", points(30, 5), 400)
    assert refused["error"]["code"] == "only-winner-scores"
    assert refused["error"]["problems"][0]["player"] == "Ben"
    api(client, "POST", f"/{game_id}/hands", points(0, 0, None, ending="draw"), 201)
    rummy = points(60, 0)
    rummy["players"][0]["going_rummy"] = True
    made = api(client, "POST", f"/{game_id}/hands", rummy, 201)
    assert made["hand"]["players"][0]["going_rummy"] is True
    assert made["game"]["totals"] == [60, 0]


@pytest.mark.parametrize(("body", "code"), [
    (points(-5, 10), "went-out-below-zero"),
    (points(400, 0), "points-out-of-range"),
    (points(250, -250), "points-too-many"),
    (points(10, 0, None), "invalid-hand"),  # nobody went out, and no ending said
    (points(10, 0, None, ending="draw"), "invalid-hand"),  # no draws in 500
    (points(10, 0, "Ben", ending="stock"), "invalid-hand"),
    (points(10**20, 0), "bad-points"),
    (points(1001, 0), "bad-points"),
    (points(True, 0), "bad-points"),  # type: ignore[arg-type]
    (points("10", 0), "bad-points"),  # type: ignore[arg-type]
    (points(10.5, 0), "bad-points"),  # type: ignore[arg-type]
    ({**points(10, 0), "players": [{"name": "Ann", "points": 10, "hand": ["KD"]},
                                   {"name": "Ben", "points": 0}]}, "bad-points"),
    ({**points(10, 0), "players": [{"name": "Ann"}, {"name": "Ben", "points": 0}]},
     "bad-points"),
    ({**CARDS, "players": [{**CARDS["players"][0], "points": 24}, CARDS["players"][1]]},
     "bad-points"),  # points on a card hand: the cards give them
    ({**points(10, 0), "points_only": "yes"}, "bad-request"),
    ({**points(10, 0), "players": [{"name": "Ann", "points": 10},
                                   {"name": "Cy", "points": 0}]}, "bad-players"),
    ({**points(10, 0), "players": [{"name": "Ann\u0000", "points": 10},
                                   {"name": "Ben", "points": 0}]}, "bad-text"),
])
def test_points_that_cannot_be_are_refused_and_nothing_is_stored(
        app: Flask, client: FlaskClient, game_id: int, body: dict[str, Any], code: str) -> None:
    refused = api(client, "POST", f"/{game_id}/hands", body, 400)
    assert refused["error"]["code"] == code, refused
    with app.app_context():
        assert db.session.scalar(select(db.func.count(Hand.id))) == 0


def test_the_same_points_saved_twice_are_stored_once(client: FlaskClient,
                                                     game_id: int) -> None:
    api(client, "POST", f"/{game_id}/hands", points(40, 5, number=1), 201)
    again = api(client, "POST", f"/{game_id}/hands", points(40, 5, number=1), 409)
    assert again["error"]["code"] == "hand-recorded"
    assert again["error"]["hand"]["points_only"] is True
    assert api(client, "GET", f"/{game_id}", None, 200)["totals"] == [40, 5]


# --- editing: points to cards and back, stale edits --------------------------------------


def test_edit_points_into_cards_and_back(app: Flask, client: FlaskClient,
                                         game_id: int) -> None:
    made = api(client, "POST", f"/{game_id}/hands", points(40, 5), 201)["hand"]
    cards = api(client, "PUT", f"/{game_id}/hands/1",
                {**CARDS, "version": made["version"], "id": made["id"]}, 200)["hand"]
    assert cards["points_only"] is False and cards["scores"] == {"Ann": 24, "Ben": -10}
    assert cards["players"][0]["melds"] == [{"id": "a1", "cards": ["7S", "8S", "9S"]}]
    back = api(client, "PUT", f"/{game_id}/hands/1",
               points(30, -10, version=cards["version"], id=cards["id"]), 200)["hand"]
    assert back["points_only"] is True and back["scores"] == {"Ann": 30, "Ben": -10}
    with app.app_context():
        hand = db.session.get(Hand, made["id"])
        assert hand is not None and not hand.melds and not hand.stranded  # cards gone
        verified(app, game_id)
        edits = [c.details for c in db.session.scalars(
            select(Change).where(Change.action == "edited").order_by(Change.id))]
        assert [(e["before"]["points_only"], e["after"]["points_only"]) for e in edits] == [
            (True, False), (False, True)]
    page = client.get(f"/games/{game_id}/history").get_data(as_text=True)
    assert "Cards → points only" in page and "Points only → cards" in page


def test_a_stale_edit_of_a_points_hand_is_a_409(client: FlaskClient, game_id: int) -> None:
    made = api(client, "POST", f"/{game_id}/hands", points(40, 5), 201)["hand"]
    api(client, "PUT", f"/{game_id}/hands/1",
        points(41, 5, version=made["version"], id=made["id"]), 200)
    stale = api(client, "PUT", f"/{game_id}/hands/1",
                {**CARDS, "version": made["version"], "id": made["id"]}, 409)
    assert stale["error"]["code"] == "hand-changed"
    assert stale["error"]["hand"]["scores"] == {"Ann": 41, "Ben": 5}
    # the form without JavaScript: the same 409, nothing changed
    form = client.post(f"/games/{game_id}/hands/1/edit", data={
        "points_only": "1", "version": str(made["version"]), "hand_id": str(made["id"]),
        "outcome": "p0", "players-0-points": "99", "players-1-points": "0"})
    assert form.status_code == 409
    assert api(client, "GET", f"/{game_id}", None, 200)["totals"] == [41, 5]
    api(client, "PUT", f"/{game_id}/hands/1", points(1, 1), 428)  # no version


# --- the record page without JavaScript ---------------------------------------------------


def test_the_form_without_javascript_records_points(app: Flask, client: FlaskClient,
                                                    game_id: int) -> None:
    page = client.get(f"/games/{game_id}/hands/new").get_data(as_text=True)
    assert f"/games/{game_id}/hands/new?points=1" in page  # the way to points
    page = client.get(f"/games/{game_id}/hands/new?points=1").get_data(as_text=True)
    assert 'name="players-0-points"' in page and 'name="points_only"' in page
    assert 'value="1"' in page and "data-picker-dock" not in page
    assert 'name="players-0-melds"' not in page
    blank = client.post(f"/games/{game_id}/hands/new", data={
        "points_only": "1", "number": "1", "players-0-points": "", "players-1-points": "x"})
    text = blank.get_data(as_text=True)
    assert blank.status_code == 400 and "Nothing was saved" in text
    assert "Enter the points \u2068Ann\u2069 scored" in text and "is not a whole number" in text
    assert 'value="x"' in text  # what was typed stays in the form
    saved = client.post(f"/games/{game_id}/hands/new", data={
        "points_only": "1", "number": "1", "outcome": "p1",
        "players-0-points": "−12", "players-1-points": "+40"})
    assert saved.status_code == 302
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "points only" in board
    show = client.get(f"/games/{game_id}/hands/1").get_data(as_text=True)
    assert "points only" in show and "Left in hand" not in show
    with app.app_context():
        game = verified(app, game_id)
        assert [s.score for s in game.hands[0].scores] in ([-12, 40], [40, -12])
    # the edit page of a points hand asks for points, filled in; ?points=0 for cards
    edit = client.get(f"/games/{game_id}/hands/1/edit").get_data(as_text=True)
    assert 'name="players-1-points"' in edit and 'value="40"' in edit
    assert "Enter the cards instead" in edit
    cards = client.get(f"/games/{game_id}/hands/1/edit?points=0").get_data(as_text=True)
    assert 'name="players-0-melds"' in cards and "Keep it as points only" in cards


def test_a_card_hand_edited_into_points_on_the_form(app: Flask, client: FlaskClient,
                                                    game_id: int) -> None:
    made = api(client, "POST", f"/{game_id}/hands", CARDS, 201)["hand"]
    page = client.get(f"/games/{game_id}/hands/1/edit?points=1").get_data(as_text=True)
    # its scores, to adjust: Ben's −10 as 10 with the sign apart (a phone's keypad)
    assert 'value="24"' in page and 'value="10"' in page and 'value="-10"' not in page
    assert '<option selected value="-">' in page
    saved = client.post(f"/games/{game_id}/hands/1/edit", data={
        "points_only": "1", "version": str(made["version"]), "hand_id": str(made["id"]),
        "outcome": "p0", "players-0-points": "30", "players-1-points": "-10"})
    assert saved.status_code == 302
    with app.app_context():
        hand = db.session.get(Hand, made["id"])
        assert hand is not None and hand.points_only and not hand.melds
        verified(app, game_id)


def test_the_sign_is_chosen_apart_from_the_digits(app: Flask, client: FlaskClient,
                                                  game_id: int) -> None:
    """An iPhone's numeric keypad has no minus: each points field has a sign beside it
    (a select without JavaScript), and "−" with 12 typed is −12; a minus typed in the
    field counts too, never twice."""
    page = client.get(f"/games/{game_id}/hands/new?points=1").get_data(as_text=True)
    assert 'name="players-1-sign"' in page and 'inputmode="numeric"' in page
    assert 'type="number"' not in page  # a number field on iOS would take no "-" at all
    saved = client.post(f"/games/{game_id}/hands/new", data={
        "points_only": "1", "number": "1", "outcome": "p0",
        "players-0-sign": "+", "players-0-points": "40",
        "players-1-sign": "-", "players-1-points": "12"})
    assert saved.status_code == 302
    saved = client.post(f"/games/{game_id}/hands/new", data={
        "points_only": "1", "number": "2", "outcome": "p0",
        "players-0-sign": "+", "players-0-points": "5",
        "players-1-sign": "-", "players-1-points": "-3"})
    assert saved.status_code == 302
    with app.app_context():
        game = verified(app, game_id)
        assert [sorted(s.score for s in h.scores) for h in game.hands] == [[-12, 40], [-3, 5]]


def test_the_form_checks_points_against_the_rules(client: FlaskClient, game_id: int) -> None:
    refused = client.post(f"/games/{game_id}/hands/new", data={
        "points_only": "1", "number": "1", "outcome": "p0",
        "players-0-points": "-5", "players-1-points": "3"})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 400 and "cannot be below zero" in text
    nothing = client.post(f"/games/{game_id}/hands/new", data={
        "points_only": "1", "number": "1", "players-0-points": "5", "players-1-points": "3"})
    assert nothing.status_code == 400 and "Say how the hand ended" in nothing.get_data(
        as_text=True)


def test_the_form_speaks_spanish_and_italian(client: FlaskClient, game_id: int) -> None:
    for lang, word in (("es", "solo puntos"), ("it", "solo punti")):
        page = client.get(f"/games/{game_id}/hands/new?points=1",
                          headers={"Accept-Language": lang}).get_data(as_text=True)
        assert word in page, lang


# --- exports, imports, verify --------------------------------------------------------------


def test_export_import_round_trip_and_an_old_export(app: Flask, client: FlaskClient,
                                                    game_id: int) -> None:
    api(client, "POST", f"/{game_id}/hands", points(64, -9), 201)
    api(client, "POST", f"/{game_id}/hands", CARDS, 201)
    with app.test_request_context():
        the_league = default_league()
        csv_text = game_csv(db.session.get(Game, game_id), say)  # type: ignore[arg-type]
        assert "went out · points only" in csv_text.splitlines()[1]
        exported = export_league(the_league)
        text = json.dumps(exported, sort_keys=True)
        assert [h["points_only"] for h in exported["games"][0]["hands"]] == [True, False]
        old = copy.deepcopy(exported)
        for h in old["games"][0]["hands"]:
            del h["points_only"]
        del old["games"][0]["hands"][0]  # an old file: card hands only, no such field
        old["games"][0]["hands"][0]["number"] = 1
        tampered = copy.deepcopy(exported)
        tampered["games"][0]["hands"][0]["scores"][0]["score"] = -64  # went out, below 0
        for data in (exported, old, tampered):
            db.session.remove()
            db.drop_all()
            db.create_all()
            if data is tampered:
                with pytest.raises(LeagueImportError) as caught:
                    import_league(json.loads(json.dumps(data)))
                assert "below zero" in say_all(caught.value.sentences)
                continue
            imported = import_league(json.loads(json.dumps(data)))
            assert hands.verify(list(db.session.scalars(select(Game)))) == []
            if data is exported:
                assert json.dumps(export_league(imported), sort_keys=True) == text
            else:
                hand = db.session.scalar(select(Hand))
                assert hand is not None and not hand.points_only and hand.melds


def test_verify_checks_a_points_hand(app: Flask, client: FlaskClient, game_id: int,
                                     runner: FlaskCliRunner) -> None:
    api(client, "POST", f"/{game_id}/hands", points(64, -9), 201)
    result = runner.invoke(args=["scorebook", "verify"])
    assert result.exit_code == 0 and "1 kept as points only" in result.output
    with app.app_context():
        row = db.session.scalar(select(HandScore).where(HandScore.score == 64))
        assert row is not None
        row.score = -64  # Ann went out: she cannot score below zero
        db.session.commit()
    result = runner.invoke(args=["scorebook", "verify"])
    assert result.exit_code != 0 and "cannot score below zero" in result.output
    with app.app_context():
        row = db.session.scalar(select(HandScore).where(HandScore.score == -64))
        assert row is not None
        row.score, row.melded = 64, 64  # a points hand knows nothing of melded cards
        db.session.commit()
        game = db.session.get(Game, game_id)
        assert game is not None and any("melded 64" in p for p in hands.verify([game]))


# --- statistics that need cards skip points hands -----------------------------------------


def test_card_statistics_skip_points_hands(app: Flask, client: FlaskClient,
                                           game_id: int) -> None:
    api(client, "POST", f"/{game_id}/hands", CARDS, 201)  # Ann melds 24, Ben strands 10
    for ann in (300, 200):
        api(client, "POST", f"/{game_id}/hands", points(ann, 0), 201)
    with app.test_request_context():
        row = db.session.scalar(select(HandScore).where(HandScore.score == 300))
        assert row is not None
        row.melded = 999  # even a score row that says otherwise: the hand has no cards
        db.session.commit()
        ratings.refresh(default_league().id)
        results = {r.player.name: r for r in db.session.scalars(select(GameResult))}
        assert (results["Ann"].melded, results["Ann"].stranded) == (24, 0)
        assert (results["Ben"].melded, results["Ben"].stranded) == (0, 10)
        assert results["Ann"].hands == 3 and results["Ann"].total == 524  # scores count
        assert results["Ann"].best_hand == 300
        standing = {s.name: s for s in league.standings(default_league())}
        assert standing["Ann"].melded == 24


# --- the document agrees with the API, both ways ------------------------------------------


@pytest.mark.parametrize(("body", "fits"), [
    (points(40, 5), True),
    (points(40, 5, ending="out"), True),
    ({**points(40, 5), "players": [{"name": "Ann", "points": 40, "melds": []},
                                   {"name": "Ben", "points": 5, "hand": None}]}, True),
    ({**points(40, 5), "players": [{"name": "Ann", "points": 40, "hand": ["KD"]},
                                   {"name": "Ben", "points": 5}]}, False),
    ({**points(40, 5), "players": [{"name": "Ann"}, {"name": "Ben", "points": 5}]}, False),
    (points(1001, 5), False),
    (points(40.5, 5), False),  # type: ignore[arg-type]
    (points("40", 5), False),  # type: ignore[arg-type]
    ({**CARDS, "points_only": False}, True),
    ({**CARDS, "points_only": None}, True),
    ({**CARDS, "players": [{**CARDS["players"][0], "points": 24}, CARDS["players"][1]]},
     False),
    ({**points(40, 5), "points_only": 1}, False),
])
def test_the_document_says_what_a_points_hand_may_be(
        client: FlaskClient, game_id: int, body: dict[str, Any], fits: bool) -> None:
    for method, path in (("POST", "/games/{game_id}/hands"),
                         ("PUT", "/games/{game_id}/hands/{number}")):
        operation, schema = body_schema(method, path)
        sent = body if method == "POST" else {**body, "version": 10**6}
        assert validator(schema).is_valid(sent) is fits, (method, body)
    response = client.post(f"/api/v1/games/{game_id}/hands", json=body)
    if fits:
        assert response.status_code == 201, response.get_json()
    else:
        assert response.status_code == 400, response.get_json()
        assert response.get_json()["error"]["code"] in (
            "bad-points", "bad-request", "invalid-hand")
