"""POST /api/v1/referee/log: a played hand's deal and log in, the replay (the pile at every
step, the refusals) and the table's eleven questions answered out, each a verdict citing
its rule ids, worded in the request's language; a log that cannot be a hand, or a body
that is not one, is a 4xx that says which move and why, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorebook.api.schemas import LogAnswer
from tests.referee.logged_hands import CLUBS
from tests.referee.logged_hands import DEEP_DRAW as DEEP

PAGAT = {"family": "pagat-500"}


def moves(text: str) -> list[dict[str, Any]]:
    """``Ann draw``, ``Cy take 5``, ``Cy meld 4S 4H 4D``, ``Bo layoff 6H Ann-1``,
    ``Ann discard 4S``, ``Cy rummy``, ``Bo stock-out``; ``!`` at the end: agreed."""
    out = []
    for line in filter(None, (line.strip() for line in text.splitlines())):
        words = line.rstrip("!").split()
        move: dict[str, Any] = {"player": words[0], "move": words[1]}
        rest = words[2:]
        if words[1] == "take" or (words[1] == "rummy" and rest):
            move["take"] = int(rest[0])
        elif words[1] == "meld":
            move["cards"] = rest
        elif words[1] == "layoff":
            move.update(card=rest[0], onto=rest[1])
        elif rest:
            move["card"] = rest[0]
        if line.endswith("!"):
            move["agreed"] = True
        out.append(move)
    return out


def body(players: str, dealer: str, upcard: str, log: str, rules: Any = None,
         **extra: Any) -> dict[str, Any]:
    deal: dict[str, Any] = {"players": players.split(), "dealer": dealer, "upcard": upcard}
    if "dealt" in extra:
        deal["dealt"] = extra.pop("dealt")
    return {"rules": rules or PAGAT, "deal": deal, "log": moves(log), **extra}


def asked(client: FlaskClient, sent: dict[str, Any], language: str = "en",
          status: int = 200) -> dict[str, Any]:
    response = client.post("/api/v1/referee/log", json=sent,
                           headers={"Accept-Language": language})
    assert response.status_code == status, response.get_json()
    out: dict[str, Any] = response.get_json()
    if status == 200:
        LogAnswer.model_validate(out)
    return out




def test_rules_5_deep_draw_replayed_with_the_pile_at_every_step(client: FlaskClient) -> None:
    """draw.deep, RULES.md §5's worked example as a logged hand: the pile at each step,
    the meld and when it was made, whose turn is next."""
    out = asked(client, body("Ann Bo Cy", "Cy", "6C", DEEP + """
        Cy take 5
        Cy meld 4S 4H 4D
        Cy discard 2C"""))
    assert [s["pile"] for s in out["steps"]][9:] == [
        ["6C", "4S", "7D", "4H", "QS", "AD"], ["6C"], ["6C"], ["6C", "2C"]]
    assert all(s["refused"] is None for s in out["steps"])
    assert out["played"] == [{"step": 11, "turn": 6, "player": "Cy", "kind": "meld",
                              "meld": "Cy-1", "cards": ["4S", "4H", "4D"]}]
    assert out["to_play"] == "Ann" and out["held"] == {"Ann": 7, "Bo": 7, "Cy": 8}
    assert out["stock"] == 32 - 5


def test_a_refused_move_is_in_its_step_with_the_rule_and_not_played(
        client: FlaskClient) -> None:
    """draw.deep: the discard that ends a turn without melding the deepest card taken is
    refused; agreed, it is played and marked overridden."""
    log = DEEP + "Cy take 5\nCy discard 2C"
    out = asked(client, body("Ann Bo Cy", "Cy", "6C", log))
    step = out["steps"][-1]
    assert step["refused"]["code"] == "log.deep-not-melded"
    assert step["refused"]["rules"] == ["draw.deep"]
    assert step["refused"]["message"] == ("4S, the deepest card taken from the discard "
                                          "pile, was not melded this turn.")
    assert step["pile"] == ["6C"] and out["to_play"] == "Cy"
    agreed = asked(client, body("Ann Bo Cy", "Cy", "6C", log + " !"))
    assert agreed["steps"][-1]["refused"] is None
    assert agreed["steps"][-1]["overridden"]["code"] == "log.deep-not-melded"
    assert agreed["pile"] == ["6C", "2C"] and agreed["to_play"] == "Ann"


def test_take_down_to_a_card(client: FlaskClient) -> None:
    sent = body("Ann Bo Cy", "Cy", "6C", DEEP)
    sent["log"] += [{"player": "Cy", "move": "take", "down_to": "4S"},
                    {"player": "Cy", "move": "meld", "cards": "4S 4H 4D"}]
    out = asked(client, sent)
    assert out["steps"][10]["move"] == {"player": "Cy", "move": "take", "take": 5}
    assert out["pile"] == ["6C"]


def test_rules_6_the_worked_call(client: FlaskClient) -> None:
    """rummy.call, RULES.md §6: after J♣, Cy calls and takes everything from the K♣ up;
    Bo, between Ann and Cy, loses his turn; play goes on with Dee."""
    out = asked(client, body("Ann Bo Cy Dee", "Dee", "2D", CLUBS + """
        Cy rummy
        Cy meld JC QC KC
        Cy discard 5S"""))
    assert out["calls"] == [{"step": 10, "caller": "Cy", "discarder": "Ann", "card": "KC",
                             "take": 5, "skipped": ["Bo"], "later": []}]
    answer = out["answers"]["after_call"]
    assert answer["code"] == "log.call-skips" and answer["rules"] == ["rummy.call"]
    assert answer["params"]["players"] == "Bo"


# ---- the eleven questions, in three languages --------------------------------------------

#: (question, body, the answer's key and the player for may_call, code, rules, words
#: in en, es and it)
OWN = "Ann draw 4C\nAnn meld 4C 5C 6C\nAnn discard 9D\n"
OUT_PLAYABLE = """
Ann draw
Ann meld 5H 6H 7H
Ann discard KC
Bo draw
Bo meld 2S 3S 4S 5S
Bo discard 8H !"""
BASIC_OUT = """
Ann draw
Ann meld 7S 8S 9S
Ann discard 8D
Bo draw
Bo layoff 10S Ann-1
Bo discard QD
Cy draw
Cy discard 2C
Ann draw
Ann discard 3C
Bo draw
Bo meld 2H 3H 4H
Bo meld 5S 5D 5C
Bo discard KD"""
QUESTIONS: list[tuple[int, dict[str, Any], str, str, list[str], tuple[str, str, str]]] = [
    (1, body("Ann Bo Cy Dee", "Dee", "2D", CLUBS + "Cy rummy\nCy meld JC QC KC\nCy discard 5S"),
     "after_call", "log.call-skips", ["rummy.call"],
     ("Bo lost their turn", "Bo", "Bo")),
    (2, body("Ann Bo Cy Dee", "Dee", "3C", OWN + "Bo draw\nBo discard KH"),
     "may_call/Ann", "log.call-own-later", ["rummy.call", "rummy.own-meld"],
     ("Ann may call now", "Ann", "Ann")),
    (3, body("Ann Bo", "Bo", "2C", "Ann draw\nAnn discard 7D\nBo take 1\nBo discard 9S\n"
             "Ann draw\nAnn discard 3H\nBo draw", ask={"card": "7D"}),
     "may_discard", "log.taken-earlier", ["discard.not-same"], ("7D", "7D", "7D")),
    (4, body("Ann Bo Cy", "Cy", "9C", BASIC_OUT, rules="basic"),
     "going_rummy", "log.not-going-rummy", ["score.going-rummy"], ("10S", "10S", "10S")),
    (5, body("Ann Bo", "Bo", "9C", "Ann draw\nAnn discard 5S", rules="basic", dealt=25),
     "stock", "log.reshuffle", ["basic.stock-reshuffle"],
     ("shuffled into a new stock", "", "")),
    (6, body("Ann Bo Cy Dee", "Dee", "2D", CLUBS + "Cy rummy\nDee rummy"),
     "first_call", "log.call-first", ["rummy.call"], ("Cy", "Dee", "Dee")),
    (7, body("Ann Bo", "Bo", "9C", "Ann draw\nAnn discard 5S", dealt=26),
     "stock", "log.stock-out-now", ["out.stock-empty"], ("if Bo does not take", "Bo", "Bo")),
    (8, body("Ann Bo Cy", "Cy", "6C", DEEP), "turn", "log.turn-draw", ["turn.order"],
     ("It is Cy's turn to draw; Ann deals the next hand.", "Cy", "Cy")),
    (9, body("Ann Bo Cy", "Cy", "6C", DEEP, ask={"hand": "2C 4D 5C 8C JH KS KD"}),
     "pile", "log.pile-depths", ["draw.deep"], ("down to 4S", "4S", "4S")),
    (10, body("Ann Bo", "Bo", "3D", OUT_PLAYABLE, rules={
        "family": "pagat-500", "unplayable_discard": True}, dealt=4),
     "out_discard", "log.out-discard-playable-house",
     ["out.unplayable-discard", "out.floating"], ("8H", "8H", "8H")),
    (11, body("Ann Bo Cy", "Cy", "2D", "Ann draw\nAnn meld 7H 8H 9H\nAnn discard KS\n"
              "Bo draw\nBo discard 6H"),
     "discard_meldable", "log.discard-layoff", ["rummy.call", "layoff.basic"],
     ("6H could have been laid off on meld Ann-1", "6H", "6H")),
]


@pytest.mark.parametrize("language", ["en", "es", "it"])
@pytest.mark.parametrize(("number", "sent", "key", "code", "rules", "words"), QUESTIONS,
                         ids=[f"q{q[0]}" for q in QUESTIONS])
def test_each_question_is_answered_from_the_log(
        client: FlaskClient, language: str, number: int, sent: dict[str, Any], key: str,
        code: str, rules: list[str], words: tuple[str, str, str]) -> None:
    """Each of issue 29's questions (rummy.call, rummy.own-meld, discard.not-same,
    score.going-rummy, basic.stock-reshuffle, out.stock-empty, turn.order, draw.deep,
    out.unplayable-discard) answered from a logged hand, in en, es and it."""
    out = asked(client, sent, language)
    answer = out["answers"]
    for part in key.split("/"):
        answer = answer[part]
    assert answer["code"] == code and answer["rules"] == rules
    english = asked(client, sent)["answers"]
    for part in key.split("/"):
        english = english[part]
    assert words[["en", "es", "it"].index(language)] in answer["message"]
    if language != "en":
        assert answer["message"] != english["message"], "not translated"


# ---- bad logs: a clear 4xx --------------------------------------------------------------

@pytest.mark.parametrize(("sent", "code", "words"), [
    (body("Ann Bo", "Bo", "6C", "Bo draw"), "out-of-turn", "Move 1: It is Ann's turn"),
    (body("Ann Bo Cy", "Cy", "6C", "Ann draw\nAnn discard 6C"), "too-many-copies",
     "Move 2: "),
    (body("Ann Bo", "Bo", "6C", "Ann draw\nAnn discard JK", rules="rummy-500"), "no-jokers",
     "Move 2: "),
    (body("Ann Bo", "Bo", "6C", "Zed draw"), "unknown-player", "Zed"),
    (body("Ann Bo", "Zed", "6C", ""), "dealer-not-seated", "Zed"),
    (body("Ann Ann", "Ann", "6C", ""), "duplicate-player", "same"),
    (body("Ann Bo", "Bo", "6C", "Ann take 3"), "take-too-deep", "Move 1:"),
    (body("Ann Bo", "Bo", "6C", "Ann discard 5S"), "draw-first", "must draw"),
    (body("Ann Bo", "Bo", "6C", "Ann draw\nAnn discard 5S\nBo stock-out"),
     "stock-not-empty", "left in the stock"),
])
def test_a_log_that_cannot_be_a_hand_is_a_400(client: FlaskClient, sent: dict[str, Any],
                                              code: str, words: str) -> None:
    out = asked(client, sent, status=400)
    assert out["error"]["code"] == code
    assert words in out["error"]["message"]


def test_the_refusal_is_in_the_request_language(client: FlaskClient) -> None:
    sent = body("Ann Bo", "Bo", "6C", "Bo draw")
    assert asked(client, sent, "es", 400)["error"]["message"].startswith("Jugada 1:")
    assert asked(client, sent, "it", 400)["error"]["message"].startswith("Mossa 1:")
    assert asked(client, sent, status=400)["error"]["rules"] == ["turn.order"]


@pytest.mark.parametrize(("sent", "code"), [
    ({"deal": {"players": ["Ann", "Bo"], "dealer": "Ann", "upcard": "6Z"}, "log": []},
     "bad-card"),
    ({"deal": {"players": ["Ann"], "dealer": "Ann", "upcard": "6C"}, "log": []},
     "bad-players"),
    ({"deal": {"players": ["Ann", "Bo"], "dealer": "Ann", "upcard": "6C"}}, "missing-field"),
    ({"deal": {"players": ["Ann", "Bo"], "dealer": "Ann", "upcard": "6C"},
      "log": [{"player": "Ann", "move": "meld"}]}, "missing-field"),
    ({"deal": {"players": ["Ann", "Bo"], "dealer": "Ann", "upcard": "6C"},
      "log": [{"player": "Ann", "move": "fly"}]}, "bad-request"),
    ({"deal": {"players": ["Ann", "Bo"], "dealer": "Ann", "upcard": "6C"}, "log": "x"},
     "bad-request"),
    ({"rules": "basic", "deal": {"players": ["A", "B", "C", "D", "E"], "dealer": "A",
                                 "upcard": "6C"}, "log": []}, "bad-players"),
])
def test_a_malformed_body_is_a_400(client: FlaskClient, sent: dict[str, Any],
                                   code: str) -> None:
    assert asked(client, sent, status=400)["error"]["code"] == code


def test_the_log_is_in_the_openapi_document(client: FlaskClient) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    operation = document["paths"]["/referee/log"]["post"]
    assert "out-of-turn" in operation["x-content-codes"]
    schemas = document["components"]["schemas"]
    assert {"LogQuestion", "LogMove", "LogDeal", "LogAnswer", "LogAnswers"} <= set(schemas)
