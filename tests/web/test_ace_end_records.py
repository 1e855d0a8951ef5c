"""The ace's end (`values.ace-end`) and the jokers' cards (`meld.joker`) through the whole
scorebook: the hands API, the record-hand form (typed and the picker's JSON), the live
hand, the stored hand and its page, exports and imports, and ``flask scorebook verify``.

An ace laid off on a run 2…K goes to the end the player says and scores by it: low the
low-ace value (1 in 500 Rum), high 15.  A record keeps the end.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorebook.extensions import db
from scorebook.models import Game, Hand, MeldCard
from scorebook.presenters.sentences import say_all
from scorebook.services import games, hands
from scorebook.services.exports import LeagueImportError, export_league, import_league

TWO_TO_KING = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"]


def ace_hand(end: str | None, number: int = 1) -> dict[str, Any]:
    """Ann put down 2♥…K♥ and went out; Ben laid the A♥ off on it (at ``end``)."""
    layoff: dict[str, Any] = {"card": "AH", "onto": "m1"}
    if end is not None:
        layoff["end"] = end
    return {"number": number, "went_out": "Ann", "players": [
        {"name": "Ann", "melds": [{"id": "m1", "cards": TWO_TO_KING}]},
        {"name": "Ben", "layoffs": [layoff], "hand": ["9C"]}]}


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


@pytest.fixture
def game_id(new_game) -> int:
    return new_game(family="pagat-500", role="owner")


def ace_rows(app: Flask) -> list[tuple[str, str | None]]:
    with app.app_context():
        return [(c.card, c.end) for c in db.session.scalars(
            db.select(MeldCard).where(MeldCard.is_layoff.is_(True)))]


# --- the hands API ---------------------------------------------------------------------------


def test_hands_api_keeps_the_end_the_ace_went_to(app: Flask, client: FlaskClient,
                                                 game_id: int) -> None:
    """`values.ace-end`: ``{"card": "AH", "onto": "m1", "end": "high"}`` is stored, scored
    15, read back with its end; edited to low it scores 1."""
    created = client.post(f"/api/v1/games/{game_id}/hands", json=ace_hand("high"))
    assert created.status_code == 201, created.get_json()
    hand = created.get_json()["hand"]
    assert hand["scores"] == {"Ann": 84, "Ben": 15 - 9}
    assert hand["players"][1]["layoffs"] == [{"card": "AH", "onto": "m1", "end": "high"}]
    assert ace_rows(app) == [("AH", "high")]
    edited = client.put(f"/api/v1/games/{game_id}/hands/1",
                        json={**ace_hand("low"), "version": hand["version"]})
    assert edited.status_code == 200, edited.get_json()
    assert edited.get_json()["hand"]["scores"]["Ben"] == 1 - 9
    assert ace_rows(app) == [("AH", "low")]


def test_hands_api_without_an_end_the_ace_lies_low_and_the_record_says_so(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    """`values.ace-end`: no end given: low, as before — and the stored hand keeps "low"."""
    created = client.post(f"/api/v1/games/{game_id}/hands", json=ace_hand(None))
    assert created.get_json()["hand"]["scores"]["Ben"] == 1 - 9
    assert ace_rows(app) == [("AH", "low")]
    read = client.get(f"/api/v1/games/{game_id}/hands/1").get_json()
    assert read["players"][1]["layoffs"][0]["end"] == "low"


@pytest.mark.parametrize(("change", "code"), [
    ({"end": "sideways"}, "bad-end"),
    ({"end": "low", "onto": "m2"}, "invalid-hand"),
])
def test_hands_api_refuses_an_end_that_cannot_be(app: Flask, client: FlaskClient,
                                                 game_id: int, change, code) -> None:
    """`values.ace-end`: an end that is not low or high, or on a set, is a 400; nothing is
    stored."""
    body = ace_hand("high")
    body["players"][0]["melds"].append({"id": "m2", "cards": ["AS", "AD", "AC"]})
    body["players"][0]["melds"][0]["cards"] = TWO_TO_KING
    body["players"][1]["layoffs"][0].update(change)
    if change.get("onto") == "m2":
        body["players"][1]["layoffs"][0]["card"] = "JK"
    response = client.post(f"/api/v1/games/{game_id}/hands", json=body)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"]["code"] == code
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 0


def test_hands_api_reads_an_end_joker_from_its_place(client: FlaskClient,
                                                     game_id: int) -> None:
    """`meld.joker`: a hand's melds list their cards as they lie: JK 6♥ 7♥ is 5-6-7; where
    the place does not tell (9♠ JK JK), the hand is refused until the joker is declared."""
    body = {"number": 1, "went_out": "Ann", "players": [
        {"name": "Ann", "melds": [{"id": "m1", "cards": ["JK", "6H", "7H"]}]},
        {"name": "Ben", "hand": ["9C"]}]}
    created = client.post(f"/api/v1/games/{game_id}/hands", json=body)
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["hand"]["players"][0]["melds"][0]["cards"] == [
        "JK=5H", "6H", "7H"]
    body["number"] = 2
    body["players"][0]["melds"][0]["cards"] = ["9S", "JK", "JK"]
    refused = client.post(f"/api/v1/games/{game_id}/hands", json=body)
    assert refused.status_code == 400
    assert "joker" in refused.get_json()["error"]["message"]


# --- the record-hand page ----------------------------------------------------------------


#: The players of these hands hold fewer cards than were dealt (RULES.md §10): the form
#: says nobody remembers the rest.
NOBODY_REMEMBERS = {"missing_ok": ["Ann", "Ben"]}


def record(client: FlaskClient, game_id: int, **data: str) -> Any:
    return client.post(f"/games/{game_id}/hands/new", data={"number": "1",
                                                              **NOBODY_REMEMBERS, **data})


def test_record_page_picker_hand_with_an_unknown_joker_is_not_saved(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    """`meld.joker`: the picker's cards are tapped in any order, so JK 5♥ 6♥ from it does
    not say which card the joker is: the server refuses the hand (rather than picking a
    reading) and says which readings there are; declared, it is saved."""
    hand = {"went_out": "Ann", "players": [
        {"name": "Ann", "melds": [{"id": "m1", "cards": ["5H", "6H", "JK"]}]},
        {"name": "Ben", "hand": ["9C"]}]}
    refused = record(client, game_id, hand_json=json.dumps(hand), outcome="p0")
    assert refused.status_code == 400
    page = text(refused)
    assert "Nothing was saved" in page and "joker" in page
    assert "🃏=4♥ 5♥ 6♥" in page and "5♥ 6♥ 🃏=7♥" in page
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 0
    hand["players"][0]["melds"][0]["cards"] = ["5H", "6H", "JK=7H"]
    saved = record(client, game_id, hand_json=json.dumps(hand), outcome="p0")
    assert saved.status_code == 302, text(saved)
    with app.app_context():
        joker = db.session.scalar(db.select(MeldCard).where(MeldCard.card == "JK"))
        assert joker is not None and joker.declared == "7H"


def test_record_page_picker_hand_keeps_the_aces_end(app: Flask, client: FlaskClient,
                                                    game_id: int) -> None:
    """`values.ace-end`: the picker sends ``end`` with the lay-off; it is stored and shown
    on the hand page ("at the high end")."""
    hand = ace_hand("high")
    del hand["number"]
    saved = record(client, game_id, hand_json=json.dumps(hand), outcome="p0")
    assert saved.status_code == 302, text(saved)
    assert ace_rows(app) == [("AH", "high")]
    page = text(client.get(f"/games/{game_id}/hands/1"))
    assert "at the high end" in page
    assert "Melded 15" in page


def test_typed_form_says_the_aces_end_with_a_word(app: Flask, client: FlaskClient,
                                                  game_id: int) -> None:
    """`values.ace-end`: without JavaScript a lay-off line ends in "high" (or "low"); the
    edit form gives it back the same way."""
    saved = record(client, game_id, **{
        "players-0-melds": " ".join(TWO_TO_KING).lower(),
        "players-1-layoffs": "ah ann 1 high", "players-1-hand": "9c", "outcome": "p0"})
    assert saved.status_code == 302, text(saved)
    assert ace_rows(app) == [("AH", "high")]
    edit = text(client.get(f"/games/{game_id}/hands/1/edit"))
    assert "A♥ Ann 1 high" in edit  # the typed form reads cards with their suits
    assert '&#34;end&#34;: &#34;high&#34;' in edit or '"end": "high"' in edit


def test_typed_form_in_spanish_reads_the_spanish_word(app: Flask, client: FlaskClient,
                                                      game_id: int) -> None:
    """`values.ace-end`: the end word is read in the page's language too, and so are the
    cards' letters (Spanish C for corazones: hearts)."""
    from scorebook.presenters.sentences.hands import end_word

    with app.test_request_context("/?lang=es"):
        high = end_word("high")
    assert high != "high"
    saved = client.post(f"/games/{game_id}/hands/new?lang=es", data={
        "number": "1", "players-0-melds": " ".join(c.replace("H", "C") for c in TWO_TO_KING),
        "players-1-layoffs": f"ac ann 1 {high}", "players-1-hand": "9t", "outcome": "p0",
        **NOBODY_REMEMBERS})
    assert saved.status_code == 302, text(saved)
    assert ace_rows(app) == [("AH", "high")]


# --- the live hand ---------------------------------------------------------------------------


def test_live_hand_asks_low_or_high_and_keeps_the_answer(app: Flask, client: FlaskClient,
                                                         game_id: int) -> None:
    """`values.ace-end`: laying the A♥ off on 2♥…K♥ live asks which end (the choice shows
    only then); the answer is stored, shown, and scored when the hand is finished."""
    live = f"/games/{game_id}/hands/live"
    assert "ace-end" not in text(client.get(live))
    assert client.post(f"{live}/start").status_code == 302
    assert client.post(f"{live}/meld", data={
        "meld-player": "p0", "meld-cards": " ".join(TWO_TO_KING)}).status_code == 302
    page = text(client.get(live))
    assert "Which end of the run" not in page
    asked = client.post(f"{live}/layoff", data={
        "layoff-player": "p1", "layoff-card": "ah", "layoff-onto": "Ann-1"})
    assert asked.status_code == 400
    page = text(asked)
    assert "fits at both ends" in page and "Which end of the run" in page
    assert 'name="layoff-end"' in page
    done = client.post(f"{live}/layoff", data={
        "layoff-player": "p1", "layoff-card": "ah", "layoff-onto": "Ann-1",
        "layoff-end": "high"})
    assert done.status_code == 302, text(done)
    assert ace_rows(app) == [("AH", "high")]
    assert "high end" in text(client.get(live))
    finished = client.post(f"{live}/finish", data={
        "finish-players-1-hand": "9c", "finish-outcome": "p0",
        "finish-missing_ok": ["Ann", "Ben"]})
    assert finished.status_code == 302, text(finished)
    with app.app_context():
        hand = db.session.scalar(db.select(Hand))
        assert {s.player.name: s.score for s in hand.scores} == {"Ann": 84, "Ben": 15 - 9}


def test_live_hand_an_ace_that_fits_one_end_is_not_asked(app: Flask, client: FlaskClient,
                                                         game_id: int) -> None:
    """`values.ace-end`: on J-Q-K the ace can only go high: no question, kept as high."""
    live = f"/games/{game_id}/hands/live"
    client.post(f"{live}/start")
    client.post(f"{live}/meld", data={"meld-player": "p0", "meld-cards": "jh qh kh"})
    done = client.post(f"{live}/layoff", data={
        "layoff-player": "p1", "layoff-card": "ah", "layoff-onto": "Ann-1"})
    assert done.status_code == 302, text(done)
    assert ace_rows(app) == [("AH", "high")]


# --- exports, imports and verify ------------------------------------------------------------


def test_export_carries_the_end_and_an_old_export_without_it_imports_as_low(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    """`values.ace-end`: the league export carries each ace's end; importing it gives the
    same scores; a file from before (no ``end``) still imports, its ace low, as scored."""
    assert client.post(f"/api/v1/games/{game_id}/hands", json=ace_hand("high")).status_code \
        == 201
    with app.test_request_context():
        exported = export_league(games.default_league())
    cards = exported["games"][0]["hands"][0]["melds"][0]["cards"]
    assert [c.get("end") for c in cards if c["layoff"]] == ["high"]
    assert all("end" not in c for c in cards if not c["layoff"])
    old = copy.deepcopy(exported)
    for c in old["games"][0]["hands"][0]["melds"][0]["cards"]:
        c.pop("end", None)
    old["games"][0]["hands"][0]["scores"] = [
        {"player": "Ann", "melded": 84, "stranded": 0, "score": 84},
        {"player": "Ben", "melded": 1, "stranded": 9, "score": -8}]
    for data, ben in ((exported, 6), (old, -8)):
        with app.test_request_context():
            db.session.remove()
            db.drop_all()
            db.create_all()
            league = import_league(json.loads(json.dumps(data)))
            game = db.session.scalar(db.select(Game).where(Game.league_id == league.id))
            hand = game.hands[0]
            assert {s.player.name: s.score for s in hand.scores}["Ben"] == ben
            assert hands.verify([game]) == []
    # a high ace the file scores as low is refused: the cards decide the score
    wrong = copy.deepcopy(exported)
    wrong["games"][0]["hands"][0]["scores"] = old["games"][0]["hands"][0]["scores"]
    with app.test_request_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
        with pytest.raises(LeagueImportError) as caught:
            import_league(wrong)
        assert "the cards give" in say_all(caught.value.sentences)
        bad = copy.deepcopy(exported)
        for c in bad["games"][0]["hands"][0]["melds"][0]["cards"]:
            if c["layoff"]:
                c["end"] = "middle"
        with pytest.raises(LeagueImportError) as caught:
            import_league(bad)
        assert "has an end of a run (middle)" in say_all(caught.value.sentences)


def test_verify_scores_by_the_stored_end(app: Flask, client: FlaskClient, game_id: int,
                                         runner: FlaskCliRunner) -> None:
    """`values.ace-end`: ``flask scorebook verify`` rescores each hand from its stored cards,
    the ace's end included: a stored end changed behind the app's back is found."""
    client.post(f"/api/v1/games/{game_id}/hands", json=ace_hand("high"))
    assert runner.invoke(args=["scorebook", "verify"]).exit_code == 0
    with app.app_context():
        ace = db.session.scalar(db.select(MeldCard).where(MeldCard.is_layoff.is_(True)))
        ace.end = "low"
        db.session.commit()
    result = runner.invoke(args=["scorebook", "verify"])
    assert result.exit_code != 0
    assert "Ben stored 6" in result.output and "the cards give -8" in result.output
