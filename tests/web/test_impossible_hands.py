"""Impossible and incomplete hands, through every way a hand comes in: the record page
(typed, without JavaScript, and the picker's JSON), the live hand's finish, the points-only
form, the games API, ``/api/v1/score/hand``, the league import and ``flask scorebook
verify`` — on the suite's database (SQLite, or PostgreSQL with ``TEST_DATABASE_URL``).

- `out.empty-hand`: a finished hand in which a player other than the one who went out
  holds no cards, or a stock-out or drawn hand in which anybody holds none, is refused,
  naming the player (unless `out.floating`).
- RULES.md §10 "Fewer cards than dealt" (`cards.deal`): a player who ends a hand with
  fewer cards than were dealt is named with the count; the pages ask before storing, the
  family may say it does not remember, and the hand keeps that mark per player (hand
  page, history, export and import, the games API's answer). The referee's scoring
  question does not check it.
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
from scorebook.models import Hand, HandScore, StrandedCard
from scorebook.presenters.bidi import plain
from scorebook.presenters.sentences import say_all
from scorebook.services.exports import LeagueImportError, import_league
from tests.reading import page

JSON = {"Accept": "application/json"}

#: RULES.md's example (pagat-500): A went out; B melded 9♥ 9♦ 9♣ and holds nothing.
EMPTY_B = {"number": "1", "players-0-melds": "5s 6s 7s\nkc kd kh",
           "players-1-melds": "9h 9d 9c", "players-2-hand": "2d 3d", "outcome": "p0"}
B_SENTENCE = "B has no cards left but did not go out: enter the cards still in that hand, " \
             "or choose who went out."


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", page(response))


def hands_stored(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Hand.id))) or 0


def marks(app: Flask) -> dict[str, bool]:
    """Each player's mark "cards missing" in the one stored hand."""
    with app.app_context():
        rows = db.session.scalars(db.select(HandScore))
        return {row.player.name: row.cards_missing for row in rows}


@pytest.fixture
def three(new_game: Callable[..., int]) -> int:
    """A game of pagat-500 for A, B and C (one deck, 7 cards dealt each)."""
    return new_game(("A", "B", "C"), "pagat-500")


# --- out.empty-hand ------------------------------------------------------------------------


def test_score_hand_refuses_a_player_who_holds_nothing_but_did_not_go_out(post) -> None:
    """`out.empty-hand` through ``/api/v1/score/hand``: the pagat-500 example (A out, B
    melded 9♥ 9♦ 9♣ and holds nothing) is a 400 citing the rule, not 18/27."""
    body = {"rules": {"family": "pagat-500"}, "went_out": "A", "players": [
        {"name": "A", "melds": [{"id": "a1", "cards": ["5S", "6S", "7S"]}]},
        {"name": "B", "melds": [{"id": "b1", "cards": ["9H", "9D", "9C"]}]},
        {"name": "C", "hand": ["2D"]}]}
    error = post("/score/hand", body, 400)["error"]
    assert (error["code"], error["rules"]) == ("holds-no-cards", ["out.empty-hand"])
    assert "B holds no cards but did not go out" in error["message"]
    # basic: a draw where W melded everything
    draw = {"rules": {"family": "basic"}, "went_out": None, "players": [
        {"name": "W", "melds": [{"id": "w1", "cards": ["2C", "3C", "4C"]}]},
        {"name": "E", "hand": ["KS"]}]}
    error = post("/score/hand", draw, 400)["error"]
    assert error["code"] == "holds-no-cards" and "W holds no cards" in error["message"]
    # with floating on, a floater may hold none
    floating = {**body, "rules": {"family": "pagat-500", "floating": True}}
    assert [p["score"] for p in post("/score/hand", floating)["players"]] == [18, 27, -2]


def test_the_typed_record_page_refuses_it_naming_the_player(app: Flask, client: FlaskClient,
                                                            three: int) -> None:
    """`out.empty-hand`, without JavaScript: a 400 naming B at B's cards; nothing stored."""
    refused = client.post(f"/games/{three}/hands/new", data=EMPTY_B)
    assert refused.status_code == 400
    words = text(refused)
    assert "Nothing was saved" in words and B_SENTENCE in words
    assert re.search(r'id="player-1"[^>]*>.*?' + re.escape(B_SENTENCE), words)
    assert hands_stored(app) == 0
    # the stock ran out: nobody may hold none, A neither
    stock = client.post(f"/games/{three}/hands/new", data={**EMPTY_B, "outcome": "stock"})
    assert stock.status_code == 400
    assert "A has no cards left but did not go out" in text(stock)
    assert hands_stored(app) == 0


def test_the_pickers_json_is_refused_the_same_way(app: Flask, client: FlaskClient,
                                                  three: int) -> None:
    """`out.empty-hand`, with the card picker's JSON."""
    hand = {"players": [
        {"name": "A", "melds": [{"id": "m1", "cards": ["5S", "6S", "7S"]}]},
        {"name": "B", "melds": [{"id": "m2", "cards": ["9H", "9D", "9C"]}]},
        {"name": "C", "hand": ["2D", "3D"]}], "went_out": "A"}
    refused = client.post(f"/games/{three}/hands/new", data={
        "number": "1", "hand_json": json.dumps(hand), "outcome": "p0"})
    assert refused.status_code == 400 and B_SENTENCE in text(refused)
    # sent by the offline queue (JSON): refused with the reason, placed at B's cards
    queued = client.post(f"/games/{three}/hands/new", headers=JSON, data={
        "number": "1", "hand_json": json.dumps(hand), "outcome": "p0"})
    answer = queued.get_json()
    assert queued.status_code == 400 and answer["code"] == "holds-no-cards"
    assert [(p["player"], p["field"]) for p in answer["problems"]] == [("B", "hand")]
    assert hands_stored(app) == 0


def test_an_edit_cannot_make_a_hand_impossible(app: Flask, client: FlaskClient,
                                               three: int) -> None:
    """`out.empty-hand`: editing a stored hand so that B holds nothing is refused."""
    good = {**EMPTY_B, "players-1-hand": "qs", "missing_ok": ["A", "B", "C"]}
    assert client.post(f"/games/{three}/hands/new", data=good).status_code == 302
    refused = client.post(f"/games/{three}/hands/1/edit", data={**EMPTY_B, "version": "1"})
    assert refused.status_code == 400 and B_SENTENCE in text(refused)
    with app.app_context():
        assert [s.card for s in db.session.scalars(db.select(StrandedCard))
                if s.player.name == "B"] == ["QS"]


def test_the_live_hand_cannot_finish_with_an_empty_handed_player(
        app: Flask, client: FlaskClient, three: int) -> None:
    """`out.empty-hand` at the live hand's finish, with and without the page's script."""
    live = f"/games/{three}/hands/live"
    client.post(f"{live}/start")
    client.post(f"{live}/meld", data={"meld-player": "p0", "meld-cards": "5s 6s 7s"})
    client.post(f"{live}/meld", data={"meld-player": "p1", "meld-cards": "9h 9d 9c"})
    finish = {"finish-players-2-hand": "2d 3d", "finish-outcome": "p0"}
    refused = client.post(f"{live}/finish", data=finish)
    assert refused.status_code == 400 and B_SENTENCE in text(refused)
    answer = client.post(f"{live}/finish", data=finish, headers=JSON)
    assert answer.status_code == 400 and answer.get_json()["code"] == "holds-no-cards"
    assert B_SENTENCE in plain(" ".join(p["message"] for p in answer.get_json()["problems"]))
    with app.app_context():
        assert db.session.scalar(db.select(Hand)).complete is False  # still being played


def test_the_games_api_refuses_it_citing_the_rule(app: Flask, client: FlaskClient,
                                                  three: int) -> None:
    """`out.empty-hand` through ``POST`` and ``PUT /api/v1/games/<id>/hands``."""
    body = {"number": 1, "went_out": "A", "players": [
        {"name": "A", "melds": [{"id": "a1", "cards": ["5S", "6S", "7S"]}]},
        {"name": "B", "melds": [{"id": "b1", "cards": ["9H", "9D", "9C"]}]},
        {"name": "C", "hand": ["2D"]}]}
    refused = client.post(f"/api/v1/games/{three}/hands", json=body)
    error = refused.get_json()["error"]
    assert refused.status_code == 400
    assert (error["code"], error["rules"]) == ("holds-no-cards", ["out.empty-hand"])
    assert [(p["player"], plain(p["message"])) for p in error["problems"]] == [
        ("B", B_SENTENCE)]
    assert hands_stored(app) == 0
    body["players"][1]["hand"] = ["QS"]
    stored = client.post(f"/api/v1/games/{three}/hands", json=body).get_json()["hand"]
    body["players"][1]["hand"] = []
    edit = client.put(f"/api/v1/games/{three}/hands/1",
                      json={**body, "id": stored["id"], "version": stored["version"]})
    assert edit.status_code == 400 and edit.get_json()["error"]["code"] == "holds-no-cards"


def test_a_points_only_hand_has_no_cards_to_hold(app: Flask, client: FlaskClient,
                                                 three: int) -> None:
    """`out.empty-hand` does not apply to a hand kept as points only: it names no cards,
    so nobody's points say they held none (0 may be 9 melded and 9 held). Stored."""
    saved = client.post(f"/games/{three}/hands/new", data={
        "number": "1", "points_only": "1", "players-0-points": "40",
        "players-1-points": "0", "players-2-points": "-5", "outcome": "p0"})
    assert saved.status_code == 302, text(saved)
    assert marks(app) == {"A": False, "B": False, "C": False}


def test_the_league_import_refuses_an_impossible_hand_naming_it(
        make_app: Callable[..., Flask]) -> None:
    """`out.empty-hand` in a league file: refused, naming the game, the hand and B."""
    from tests.web.test_league_moves import exported

    data = exported(make_app)
    hand = data["games"][0]["hands"][0]
    assert hand["went_out"] == "Ann" and hand["stranded"][0]["player"] == "Ben"
    hand["stranded"] = []
    for score in hand["scores"]:
        if score["player"] == "Ben":
            score.update(stranded=0, score=0)
    app = make_app()
    with app.test_request_context(), pytest.raises(LeagueImportError) as caught:
        import_league(data)
    said = plain(say_all(caught.value.sentences))
    assert "Game 1 in the file, hand 1" in said
    assert "Ben has no cards left but did not go out" in said


def test_verify_reports_a_stored_impossible_hand(app: Flask, client: FlaskClient,
                                                 runner: Any, three: int) -> None:
    """`out.empty-hand`: a hand stored before the rule was checked (here: B's cards
    removed from the database) is reported by ``flask scorebook verify`` as an error."""
    good = {**EMPTY_B, "players-1-hand": "qs", "missing_ok": ["A", "B", "C"]}
    assert client.post(f"/games/{three}/hands/new", data=good).status_code == 302
    assert runner.invoke(args=["scorebook", "verify"]).exit_code == 0
    with app.app_context():
        hand = db.session.scalar(db.select(Hand))
        for card in [s for s in hand.stranded if s.player.name == "B"]:
            hand.stranded.remove(card)
        for score in hand.scores:
            if score.player.name == "B":
                score.stranded, score.score = 0, score.melded
        db.session.commit()
    result = runner.invoke(args=["scorebook", "verify"])
    assert result.exit_code == 1
    assert "hand 1: impossible (out.empty-hand): B holds no cards but did not go out" in \
        result.output


# --- §10 fewer cards than dealt --------------------------------------------------------------

#: A went out with 7 cards; B has 5 (3 melded, 2 held); C has 8.
SHORT_B = {"number": "1", "players-0-melds": "5s 6s 7s\nkc kd kh", "players-0-layoffs": "8s 1",
           "players-1-melds": "9h 9d 9c", "players-1-hand": "2d 3d",
           "players-2-hand": "4c 5c 6c 7c 8c 10c jc 2h", "outcome": "p0"}
ASKED = "B has 5 cards; 7 were dealt."


def test_the_typed_record_page_asks_about_a_player_short_of_cards(
        app: Flask, client: FlaskClient, three: int) -> None:
    """§10 `cards.deal`, without JavaScript: the page names B and the count and asks;
    nothing is stored until the family says it does not remember; then the hand keeps
    the mark, shown on the hand page and in the history."""
    asked = client.post(f"/games/{three}/hands/new", data=SHORT_B)
    assert asked.status_code == 400
    words = text(asked)
    assert "Nothing was saved yet: some cards seem to be missing." in words
    assert ASKED in words and "A has" not in words and "C has" not in words
    assert 'name="missing_ok" value="B"' in words  # the box to tick, at B's cards
    assert "Nobody remembers the rest of B's cards: keep the hand as it is" in words
    assert 'value="A"' not in words
    assert hands_stored(app) == 0
    stored = client.post(f"/games/{three}/hands/new", data={**SHORT_B, "missing_ok": "B"})
    assert stored.status_code == 302
    assert marks(app) == {"A": False, "B": True, "C": False}
    hand_page = text(client.get(f"/games/{three}/hands/1"))
    assert "cards missing" in hand_page
    assert "5 cards recorded, 7 dealt: nobody remembered the rest" in hand_page
    history = text(client.get(f"/games/{three}/history"))
    assert "cards missing: B (5 of 7)" in history
    # the edit page keeps B's box ticked: saving it again asks nothing more
    edit = text(client.get(f"/games/{three}/hands/1/edit"))
    assert re.search(r'name="missing_ok" value="B" checked', edit)


def test_the_pickers_json_asks_the_same(app: Flask, client: FlaskClient, three: int) -> None:
    """§10 with the card picker: the same question, the same mark."""
    hand = {"players": [
        {"name": "A", "melds": [{"id": "m1", "cards": ["5S", "6S", "7S"]},
                                {"id": "m2", "cards": ["KC", "KD", "KH"]}],
         "layoffs": [{"card": "8S", "onto": "m1"}]},
        {"name": "B", "melds": [{"id": "m3", "cards": ["9H", "9D", "9C"]}],
         "hand": ["2D", "3D"]},
        {"name": "C", "hand": ["4C", "5C", "6C", "7C", "8C", "10C", "JC"]}], "went_out": "A"}
    data = {"number": "1", "hand_json": json.dumps(hand), "outcome": "p0"}
    asked = client.post(f"/games/{three}/hands/new", data=data)
    assert asked.status_code == 400 and ASKED in text(asked)
    queued = client.post(f"/games/{three}/hands/new", data=data, headers=JSON).get_json()
    assert queued["code"] == "fewer-than-dealt"
    assert [(p["player"], plain(p["message"])) for p in queued["problems"]] == [("B", ASKED)]
    assert client.post(f"/games/{three}/hands/new",
                       data={**data, "missing_ok": "B"}).status_code == 302
    assert marks(app) == {"A": False, "B": True, "C": False}


def test_a_tick_for_one_player_does_not_answer_for_another(
        app: Flask, client: FlaskClient, three: int) -> None:
    """§10: the family answers player by player: C short too, only B ticked: asked about C."""
    data = {**SHORT_B, "players-2-hand": "4c 5c", "missing_ok": "B"}
    asked = client.post(f"/games/{three}/hands/new", data=data)
    assert asked.status_code == 400
    words = text(asked)
    assert "C has 2 cards; 7 were dealt." in words and ASKED not in words
    assert re.search(r'name="missing_ok" value="B" checked', words)  # kept as ticked
    assert hands_stored(app) == 0


def test_the_live_hand_asks_at_its_finish(app: Flask, client: FlaskClient, three: int) -> None:
    """§10 at the live hand's finish: without the script the form comes back with a box
    per short player; with it, the answer brings the question (``ask``)."""
    live = f"/games/{three}/hands/live"
    client.post(f"{live}/start")
    client.post(f"{live}/meld", data={"meld-player": "p0", "meld-cards": "5s 6s 7s"})
    client.post(f"{live}/meld", data={"meld-player": "p1", "meld-cards": "9h 9d 9c"})
    finish = {"finish-players-1-hand": "2d 3d 4d 5d",
              "finish-players-2-hand": "4c 5c 6c 7c 8c 10c jc", "finish-outcome": "p0"}
    asked = client.post(f"{live}/finish", data=finish)
    assert asked.status_code == 400
    words = text(asked)
    assert "A has 3 cards; 7 were dealt." in words
    assert 'name="finish-missing_ok" value="A"' in words
    answer = client.post(f"{live}/finish", data=finish, headers=JSON).get_json()
    assert answer["code"] == "fewer-than-dealt"
    assert answer["ask"]["name"] == "finish-missing_ok" and answer["ask"]["type"] == "checkbox"
    assert [choice[0] for choice in answer["ask"]["choices"]] == ["A"]
    assert "Nobody remembers the rest of" in answer["ask"]["choices"][0][1]
    done = client.post(f"{live}/finish", data={**finish, "finish-missing_ok": "A"})
    assert done.status_code == 302
    assert marks(app) == {"A": True, "B": False, "C": False}


def test_the_games_api_stores_it_marked_and_says_so(app: Flask, client: FlaskClient,
                                                    new_game: Callable[..., int]) -> None:
    """§10 through the games API: stored, marked, and the answer says which players, how
    many cards and how many were dealt — with two decks (five players) 7 each."""
    game = new_game(("A", "B", "C", "D", "E"), "pagat-500")
    players = [{"name": n, "hand": [f"{r}{s}" for r in (2, 3, 4, 5, 6, 7, 8)]}
               for n, s in zip("BCD", "SHD")]
    body = {"number": 1, "went_out": "A", "players": [
        {"name": "A", "melds": [{"id": "a1", "cards": ["5C", "6C", "7C"]}]},
        *players, {"name": "E", "hand": ["KC", "KS"]}]}
    created = client.post(f"/api/v1/games/{game}/hands", json=body)
    assert created.status_code == 201, created.get_json()
    hand = created.get_json()["hand"]
    assert hand["fewer_than_dealt"] == [{"name": "A", "cards": 3, "dealt": 7},
                                        {"name": "E", "cards": 2, "dealt": 7}]
    read = client.get(f"/api/v1/games/{game}/hands/1").get_json()
    assert read["fewer_than_dealt"] == hand["fewer_than_dealt"]
    assert marks(app) == {"A": True, "B": False, "C": False, "D": False, "E": True}


def test_two_players_are_dealt_13(post, client: FlaskClient,
                                  new_game: Callable[..., int]) -> None:
    """`cards.deal`: two players of 500 Rum get 13 each, so 12 cards are short."""
    game = new_game(("A", "B"), "pagat-500")
    body = {"number": 1, "went_out": "A", "players": [
        {"name": "A", "melds": [{"id": "a1", "cards": [f"{r}S" for r in range(2, 11)]},
                                {"id": "a2", "cards": ["JS", "QS", "KS"]}]},
        {"name": "B", "hand": [f"{r}H" for r in range(2, 11)] + ["JH", "QH", "KH", "AH"]}]}
    hand = client.post(f"/api/v1/games/{game}/hands", json=body).get_json()["hand"]
    assert hand["fewer_than_dealt"] == [{"name": "A", "cards": 12, "dealt": 13}]
    # the referee's scoring question does not check it
    scored = post("/score/hand", {"rules": {"family": "pagat-500"}, "went_out": "A",
                                  "players": body["players"]})
    assert [p["score"] for p in scored["players"]] == [84, -99]


def test_the_mark_goes_into_the_export_and_comes_back(make_app: Callable[..., Flask]) -> None:
    """§10: an export keeps each player's mark (``cards_missing``), an import reads it
    back; an older file, without it, still imports (nobody marked), and verify then lists
    its short players as not confirmed, without failing."""
    from tests.web.test_league_moves import exported

    data = exported(make_app)
    scores = data["games"][0]["hands"][0]["scores"]
    assert {s["player"]: s["cards_missing"] for s in scores} == {"Ann": True, "Ben": True}
    app = make_app()
    with app.test_request_context():
        import_league(copy.deepcopy(data))
        db.session.commit()
    assert marks(app) == {"Ann": True, "Ben": True}
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
    for score in scores:
        del score["cards_missing"]  # a file from before the mark
    with app.test_request_context():
        import_league(data)
        db.session.commit()
    assert marks(app) == {"Ann": False, "Ben": False}
    result = app.test_cli_runner().invoke(args=["scorebook", "verify"])
    assert result.exit_code == 0, result.output
    assert "Ann has 3 card(s); 13 were dealt (fewer than dealt, not confirmed" in result.output
    assert "2 player(s) in stored hands have fewer cards than were dealt" in result.output
