"""The stored played hand (issue 29): a live hand the table logs turn by turn through the
JSON API (``/api/v1/games/<id>/played``), move by move from several phones.

Each move says the log's length it was made against and carries the phone's key: a move
made against a log another phone has grown since is a 409 and is not logged (never two
versions of the pile); the same send twice is logged once; a phone that was offline sends
its moves late, in order, and they land; a move a rule refuses is a 422 with the rule's
sentence, unless the table agreed to it; the last move can be taken back.  The rule
book's logged hands (§5's deep draw, §6's calls: tests/referee/logged_hands.py) are
played move by move.  Runs on SQLite or TEST_DATABASE_URL.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import Game, Hand, PlayedMove
from scorebook.services import games
from tests.conftest import PATIENCE_S, join_league
from tests.referee.logged_hands import CLUBS
from tests.referee.logged_hands import DEEP_DRAW as DEEP
from tests.web.test_api_log import moves


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Flask:
    if os.environ.get("TEST_DATABASE_URL"):
        return make_app(SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 6})
    return make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'played.sqlite3'}",
                    SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 6})


def table_of(app: Flask, names: str, family: str = "pagat-500", phones: int = 2
             ) -> tuple[int, list[FlaskClient]]:
    """A game of ``names`` and ``phones`` scorers' phones joined to its league."""
    with app.test_request_context():
        game = games.create_game(games.default_league(), names.split(), 0, make_rules(family))
        game_id, league_id = game.id, game.league_id
    clients = []
    for _ in range(phones):
        client = app.test_client()
        join_league(app, client, league_id, "scorer")
        clients.append(client)
    return game_id, clients


def start(client: FlaskClient, game_id: int, dealer: str, upcard: str) -> dict[str, Any]:
    response = client.post(f"/api/v1/games/{game_id}/played",
                           json={"dealer": dealer, "upcard": upcard})
    assert response.status_code == 201, response.get_json()
    out: dict[str, Any] = response.get_json()
    return out


def send(client: FlaskClient, game_id: int, move: dict[str, Any], length: int,
         key: str | None = None, language: str = "en") -> Any:
    headers = {"Accept-Language": language}
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(f"/api/v1/games/{game_id}/played/moves",
                       json={**move, "length": length}, headers=headers)


def log_all(client: FlaskClient, game_id: int, text: str, length: int = 0) -> dict[str, Any]:
    """Log each move of ``text`` in turn, each against the log as it stands: all land."""
    out: dict[str, Any] = {}
    for i, move in enumerate(moves(text)):
        response = send(client, game_id, move, length + i, f"move-{length + i:04d}")
        assert response.status_code == 201, (move, response.get_json())
        out = response.get_json()
        assert out["played"]["length"] == length + i + 1
    return out


def read(client: FlaskClient, game_id: int) -> dict[str, Any]:
    response = client.get(f"/api/v1/games/{game_id}/played")
    assert response.status_code == 200, response.get_json()
    out: dict[str, Any] = response.get_json()
    return out


def live_melds(app: Flask, game_id: int) -> list[tuple[str, str]]:
    with app.app_context():
        hand = db.session.scalar(db.select(Hand).where(Hand.game_id == game_id,
                                                       Hand.complete.is_(False)))
        assert hand is not None
        return [(m.label, " ".join(c.text for c in m.cards_as_they_lie)) for m in hand.melds]


def stored_moves(app: Flask, game_id: int) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(PlayedMove.id)).join(
            Hand, Hand.id == PlayedMove.hand_id).where(Hand.game_id == game_id)) or 0


def finish_ann_and_bo(app: Flask, client: FlaskClient, game_id: int) -> Any:
    """Finish Ann and Bo's live hand on ``client``: Ann went out, Bo holds K♦ Q♦, both
    short of the deal (§10); the finish's answer."""
    with app.app_context():
        live = db.session.scalar(db.select(Hand).where(Hand.game_id == game_id,
                                                       Hand.complete.is_(False)))
        assert live is not None
        live_id = live.id
    return client.post(f"/games/{game_id}/hands/live/finish", data={
        "hand": live_id, "finish-players-1-hand": "kd qd", "finish-outcome": "p0",
        "finish-missing_ok": ["Ann", "Bo"]})


# --- the rule book's logged hands, move by move -----------------------------------------------


def test_rules_5_deep_draw_logged_move_by_move_from_two_phones(app: Flask) -> None:
    """§5's worked example: the moves alternate between two phones; the pile at every
    step, the meld in the live hand too, the eleven answers with their rule ids."""
    game_id, (one, two) = table_of(app, "Ann Bo Cy")
    started = start(one, game_id, "Cy", "6C")
    assert started["length"] == 0 and started["dealer"] == "Cy"
    assert started["to_play"] == "Ann" and started["pile"] == ["6C"]
    for i, move in enumerate(moves(DEEP + "Cy take 5\nCy meld 4S 4H 4D\nCy discard 2C")):
        phone = (one, two)[i % 2]
        response = send(phone, game_id, move, i, f"deep-{i:04d}")
        assert response.status_code == 201, (i, response.get_json())
    out = read(two, game_id)
    assert [s["pile"] for s in out["steps"]][9:] == [
        ["6C", "4S", "7D", "4H", "QS", "AD"], ["6C"], ["6C"], ["6C", "2C"]]
    assert out["played"] == [{"step": 11, "turn": 6, "player": "Cy", "kind": "meld",
                              "meld": "Cy-1", "cards": ["4S", "4H", "4D"]}]
    assert out["to_play"] == "Ann" and out["held"] == {"Ann": 7, "Bo": 7, "Cy": 8}
    assert out["answers"]["turn"]["rules"] == ["turn.order"]
    assert set(out["answers"]) >= {"after_call", "may_call", "going_rummy", "stock",
                                   "first_call", "turn", "pile", "out_discard",
                                   "discard_meldable"}
    assert live_melds(app, game_id) == [("Cy-1", "4S 4H 4D")]


def test_rules_6_calls_logged_move_by_move(app: Flask) -> None:
    """§6: Cy calls Rummy! on the J♣ down to the K♣ and takes the pile; Bo lost his turn;
    Dee's later call is judged against the pile as Cy left it."""
    game_id, (one, _two) = table_of(app, "Ann Bo Cy Dee")
    start(one, game_id, "Dee", "2D")
    out = log_all(one, game_id, CLUBS + "Cy rummy\nCy meld JC QC KC\nCy discard 5S")["played"]
    assert out["calls"] == [{"step": 10, "caller": "Cy", "discarder": "Ann", "card": "KC",
                             "take": 5, "skipped": ["Bo"], "later": []}]
    answer = out["answers"]["after_call"]
    assert answer["code"] == "log.call-skips" and answer["rules"] == ["rummy.call"]
    assert live_melds(app, game_id) == [("Cy-1", "JC QC KC")]


# --- phones at once, again, late ---------------------------------------------------------------


def test_two_phones_logging_the_same_turn_at_once_one_wins(app: Flask) -> None:
    """Both phones log Ann's draw against the same log: one lands, the other is a 409
    that says the log has grown, and the log holds one draw."""
    game_id, clients = table_of(app, "Ann Bo")
    start(clients[0], game_id, "Bo", "9C")
    barrier = threading.Barrier(2)
    answers: list[Any] = [None, None]

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = send(clients[i], game_id, {"player": "Ann", "move": "draw"}, 0,
                          f"phone-{i}-draw")

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=PATIENCE_S)
    assert sorted(a.status_code for a in answers) == [201, 409]
    lost = next(a for a in answers if a.status_code == 409).get_json()["error"]
    assert lost["code"] == "log-overtaken" and lost["length"] == 1
    assert "Another phone logged a move first" in lost["message"]
    assert stored_moves(app, game_id) == 1
    assert read(clients[1], game_id)["stock"] == read(clients[0], game_id)["stock"]


def test_a_repeated_send_is_logged_once(app: Flask) -> None:
    game_id, (one, _two) = table_of(app, "Ann Bo")
    start(one, game_id, "Bo", "9C")
    first = send(one, game_id, {"player": "Ann", "move": "draw"}, 0, "the-same-key")
    again = send(one, game_id, {"player": "Ann", "move": "draw"}, 0, "the-same-key")
    assert first.status_code == 201 and again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["already_logged"] is True
    assert again.get_json()["logged"] == first.get_json()["logged"]
    assert again.get_json()["played"]["length"] == 1 and stored_moves(app, game_id) == 1


def test_an_offline_phone_sends_three_moves_late_in_order(app: Flask) -> None:
    """Bo's phone logged his whole turn offline (draw, meld, discard against lengths 2, 3,
    4): sent late, in order, all three land; sent again (the answers lost), none twice.
    A phone whose offline moves another phone overtook is refused each of them."""
    game_id, (table_phone, bos_phone) = table_of(app, "Ann Bo")
    start(table_phone, game_id, "Bo", "9C")
    log_all(table_phone, game_id, "Ann draw\nAnn discard 5S")
    queued = list(zip(moves("Bo draw 7H\nBo meld 7H 8H 9H\nBo discard KC"), (2, 3, 4),
                      ("bo-offline-1", "bo-offline-2", "bo-offline-3"), strict=True))
    for move, length, key in queued:
        assert send(bos_phone, game_id, move, length, key).status_code == 201
    for move, length, key in queued:
        again = send(bos_phone, game_id, move, length, key)
        assert again.status_code == 200 and again.get_json()["already_logged"]
    out = read(table_phone, game_id)
    assert out["length"] == 5 and out["pile"] == ["9C", "5S", "KC"]
    assert live_melds(app, game_id) == [("Bo-1", "7H 8H 9H")]
    # Ann's two phones: one logs her draw; the other, offline, had logged her draw too:
    # refused (the log has grown), never a second draw.  Its discard, made after that
    # draw, follows the draw now in the log: it lands, and the log is one log
    assert send(table_phone, game_id, {"player": "Ann", "move": "draw"}, 5,
                "ann-draw-0001").status_code == 201
    late = send(bos_phone, game_id, {"player": "Ann", "move": "draw"}, 5, "ann-late-01")
    assert late.status_code == 409 and late.get_json()["error"]["length"] == 6
    assert send(bos_phone, game_id, {"player": "Ann", "move": "discard", "card": "3D"}, 6,
                "ann-late-02").status_code == 201
    out = read(table_phone, game_id)
    assert [s["move"]["move"] for s in out["steps"]][4:] == ["discard", "draw", "discard"]
    assert out["pile"] == ["9C", "5S", "KC", "3D"] and stored_moves(app, game_id) == 7


def test_undo_takes_back_the_last_move_and_its_meld(app: Flask) -> None:
    game_id, (one, two) = table_of(app, "Ann Bo")
    start(one, game_id, "Bo", "9C")
    log_all(one, game_id, "Ann draw\nAnn meld 4S 5S 6S")
    assert live_melds(app, game_id) == [("Ann-1", "4S 5S 6S")]
    stale = two.post(f"/api/v1/games/{game_id}/played/undo", json={"length": 1})
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "log-overtaken"
    undone = two.post(f"/api/v1/games/{game_id}/played/undo", json={"length": 2})
    assert undone.status_code == 200, undone.get_json()
    body = undone.get_json()
    assert body["undone"]["move"] == {"move": "meld", "cards": ["4S", "5S", "6S"]}
    assert body["played"]["length"] == 1 and body["played"]["table"] == []
    assert live_melds(app, game_id) == []
    # the same undo sent again finds a shorter log: nothing more is taken back
    assert two.post(f"/api/v1/games/{game_id}/played/undo",
                    json={"length": 2}).status_code == 409
    assert read(one, game_id)["length"] == 1
    log_all(one, game_id, "Ann meld 4S 5S 6S\nAnn discard 2H", length=1)
    log_all(one, game_id, "Bo draw\nBo layoff 7S Ann-1", length=3)
    assert live_melds(app, game_id) == [("Ann-1", "4S 5S 6S 7S")]
    assert one.post(f"/api/v1/games/{game_id}/played/undo",
                    json={"length": 5}).status_code == 200
    assert live_melds(app, game_id) == [("Ann-1", "4S 5S 6S")]


@pytest.mark.parametrize("language", ["en", "es", "it"])
def test_a_refused_move_and_its_agreed_override(app: Flask, language: str) -> None:
    """§5: Cy takes the pile down to the 4♠ and discards without melding it: refused with
    draw.deep's sentence (nothing logged); agreed by the table, it is logged as
    overridden."""
    game_id, (one, _two) = table_of(app, "Ann Bo Cy")
    start(one, game_id, "Cy", "6C")
    log_all(one, game_id, DEEP + "Cy take 5")
    refused = send(one, game_id, {"player": "Cy", "move": "discard", "card": "2C"}, 11,
                   "cy-discard-1", language)
    assert refused.status_code == 422, refused.get_json()
    error = refused.get_json()["error"]
    assert error["code"] == "rule-refused" and error["rules"] == ["draw.deep"]
    assert error["reason"] == "log.deep-not-melded" and "4" in error["message"]
    english = send(one, game_id, {"player": "Cy", "move": "discard", "card": "2C"}, 11,
                   "cy-discard-2").get_json()["error"]["message"]
    assert (error["message"] == english) == (language == "en")
    assert stored_moves(app, game_id) == 11
    agreed = send(one, game_id, {"player": "Cy", "move": "discard", "card": "2C",
                                 "agreed": True}, 11, "cy-discard-3", language)
    assert agreed.status_code == 201, agreed.get_json()
    body = agreed.get_json()
    assert body["logged"]["overridden"] == "log.deep-not-melded"
    step = body["played"]["steps"][-1]
    assert step["overridden"] is not None and "draw.deep" in step["overridden"]["rules"]
    assert step["move"]["agreed"] is True and body["played"]["to_play"] == "Ann"


def test_the_live_page_does_not_change_a_logged_hand(app: Flask) -> None:
    """A meld typed on the live page of a logged hand is refused: it is a move of the log."""
    game_id, (one, _two) = table_of(app, "Ann Bo")
    start(one, game_id, "Bo", "9C")
    response = one.post(f"/games/{game_id}/hands/live/meld",
                        headers={"Accept": "application/json"},
                        data={"meld-player": "p0", "meld-cards": "7s 8s 9s"})
    assert response.get_json()["code"] == "played-hand"
    assert live_melds(app, game_id) == []


def test_no_played_hand_and_a_plain_live_hand_unchanged(app: Flask) -> None:
    game_id, (one, _two) = table_of(app, "Ann Bo")
    assert one.get(f"/api/v1/games/{game_id}/played").status_code == 404
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
    assert one.post(f"/games/{game_id}/hands/live/start").status_code == 302
    assert one.get(f"/api/v1/games/{game_id}/played").status_code == 404


def test_a_cancelled_played_hand_leaves_no_log_behind(app: Flask) -> None:
    """Cancelling the live hand takes its deal and its moves with it (SQLite does not
    enforce ON DELETE: a hand id used again must not find an old log)."""
    game_id, (one, _two) = table_of(app, "Ann Bo")
    start(one, game_id, "Bo", "9C")
    log_all(one, game_id, "Ann draw\nAnn meld 4S 5S 6S")
    assert one.post(f"/games/{game_id}/hands/live/cancel", data={
        "cancel-moves": "1", "cancel-confirm": "y"}).status_code == 302
    with app.app_context():
        from scorebook.models import PlayedHand

        assert db.session.scalar(db.select(db.func.count(PlayedHand.id))) == 0
    assert stored_moves(app, game_id) == 0
    assert one.post(f"/games/{game_id}/hands/live/start").status_code == 302
    assert one.get(f"/api/v1/games/{game_id}/played").status_code == 404


def test_a_logged_hand_finishes_with_only_the_cards_still_held(app: Flask) -> None:
    """The melds the log made are the live hand's: the finish asks for the cards still
    held, and the stored hand holds the logged melds beside them, scored."""
    game_id, (one, _two) = table_of(app, "Ann Bo")
    start(one, game_id, "Bo", "9C")
    log_all(one, game_id, "Ann draw\nAnn meld 4S 5S 6S\nAnn discard 2H\n"
                          "Bo draw\nBo meld 7H 8H 9H\nBo discard KC")
    finished = finish_ann_and_bo(app, one, game_id)
    assert finished.status_code == 302, finished.get_data(as_text=True)[-1500:]
    stored = one.get(f"/api/v1/games/{game_id}/hands/1")
    assert stored.status_code == 200, stored.get_json()
    players = {p["name"]: p for p in stored.get_json()["players"]}
    assert [m["cards"] for m in players["Ann"]["melds"]] == [["4S", "5S", "6S"]]
    assert [m["cards"] for m in players["Bo"]["melds"]] == [["7H", "8H", "9H"]]
    assert players["Bo"]["hand"] == ["KD", "QD"]
    scores = stored.get_json()["scores"]
    assert scores["Ann"] == 15 and scores["Bo"] == 24 - 20  # (7+8+9 melded, K Q held)
    # the log is the finished hand's: a new played hand starts empty
    assert start(one, game_id, "Ann", "3C")["length"] == 0
