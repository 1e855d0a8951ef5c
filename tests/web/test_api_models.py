"""The referee and scoring questions' bodies are pydantic models (scorebook.api.schemas):
the API checks every body against its model and the OpenAPI document is generated
from the same models.  Here: the document's request schemas accept exactly what the
models accept, every answer fits its response model, a refused body still gets the
error that names what is wrong (the bad token, the field), and hostile bodies are
refused cleanly."""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest
from flask.testing import FlaskClient

from scorebook.api.openapi import openapi_document
from scorebook.api.schemas import REQUESTS, RESPONSES, refused

DRAFT = "https://json-schema.org/draft/2020-12/schema"
DOCUMENT = openapi_document()


def fits_document(path: str, body: Any) -> bool:
    schema = DOCUMENT["paths"][f"/{path}"]["post"]["requestBody"]["content"][
        "application/json"]["schema"]
    whole = {"$schema": DRAFT, **schema, "components": DOCUMENT["components"]}
    validator = jsonschema_rs.validator_for(
        whole, pattern_options=jsonschema_rs.FancyRegexOptions())
    return bool(validator.is_valid(body))


#: (path, body): real positions, each answered.
GOOD: list[tuple[str, dict[str, Any]]] = [
    ("referee/meld", {"rules": {"family": "pagat-500"}, "players": 3,
                      "cards": ["9S", "JK", "JK"]}),
    ("referee/meld", {"cards": "7s 8s 9s", "rules": "basic"}),
    ("referee/layoff", {"players": 4, "card": "9H",
                        "table": [{"id": "A", "owner": "Ann", "cards": ["5H", "6H", "7H"]}]}),
    ("referee/layoff", {"card": "AH", "table": [{"cards": [
        "2H", "3H", {"card": "4H", "by": "Ben"}]}], "meld": "m1"}),
    ("referee/draw", {"players": 3, "pile": ["6C", "4S", "7D", "4H", "QS", "AD"],
                      "hand": ["2C", "4D", "5C", "8C", "JH", "KS", "KD"], "take": 5}),
    ("referee/draw", {"pile": ["5H"], "hand": ["5S", "5D"], "take": None}),
    ("referee/draw", {"pile": None, "took": ["5H"], "hand": ["5S", "5D"]}),
    ("referee/rummy-call", {"players": 3, "table": [],
                            "pile": ["2D", "KC", "5S", "QC", "9H", "JC"],
                            "discarder": "Ann", "caller": "Ben"}),
    ("referee/going-out", {"table": [{"id": "A", "cards": ["5H", "6H", "7H"]}],
                           "hand": ["8H", "4H"], "discard": "4H"}),
    ("score/hand", {"rules": {"family": "rummy-500"}, "went_out": "Ada", "players": [
        {"name": "You", "melds": [{"id": "y1", "cards": ["7S", "8S", "9S"]}],
         "layoffs": [{"card": "10S", "onto": "y1", "end": "high"}], "hand": ["5H", "JD"]},
        {"name": "Ada", "melds": ["KC KD KH"], "hand": []}]}),
    ("score/game", {"totals": [505, 520], "went_out": 0, "names": ["Ann", "Ben"]}),
    ("arrange", {"cards": ["7S", "8S", "9S", "4C", "4D", "4S", "KH"]}),
    ("rules", {"rules": {"family": "basic", "target": None}, "players": 4}),
    ("referee/log", {"deal": {"players": ["Ann", "Bo", "Cy"], "dealer": "Cy",
                              "upcard": "2D"},
                     "log": [{"player": "Ann", "move": "draw"},
                             {"player": "Ann", "move": "meld", "cards": "7H 8H 9H"},
                             {"player": "Ann", "move": "discard", "card": "KS"},
                             {"player": "Bo", "move": "draw", "card": None},
                             {"player": "Bo", "move": "discard", "card": "6H"},
                             {"player": "Cy", "move": "rummy"},
                             {"player": "Cy", "move": "layoff", "card": "6H",
                              "onto": "Ann-1", "end": None}],
                     "ask": {"hand": ["2C"]}}),
]


@pytest.mark.parametrize(("path", "body"), GOOD, ids=[f"{p}-{i}" for i, (p, _b) in
                                                      enumerate(GOOD)])
def test_a_good_body_fits_both_and_its_answer_fits_its_model(
        client: FlaskClient, path: str, body: dict[str, Any]) -> None:
    assert refused(path, body) is None
    assert fits_document(path, body)
    response = client.post(f"/api/v1/{path}", json=body)
    assert response.status_code == 200, response.get_json()
    RESPONSES[path].model_validate(response.get_json())


#: (path, body, the error's code, words the message must hold).
BAD: list[tuple[str, dict[str, Any], str, str]] = [
    ("referee/meld", {"cards": ["7S", "8S", "9Z"]}, "bad-card", "9Z"),
    ("referee/meld", {"cards": "7s 8s 9z"}, "bad-card", "9z"),
    ("referee/meld", {}, "missing-field", "cards"),
    ("referee/meld", {"cards": ["7S"], "players": "3"}, "bad-players", "players"),
    ("referee/meld", {"cards": ["7S"], "rules": {"family": "basic"}, "players": 5},
     "bad-players", "2 to 4"),
    ("referee/meld", {"cards": ["7S"], "rules": {"family": "basic", "jokers": True}},
     "bad-rules", "jokers"),
    ("referee/meld", {"cards": ["7S"], "rules": {"floaty": True}}, "bad-rules", "floaty"),
    ("referee/layoff", {"card": "9S", "table": [{"id": "a\u0000", "cards": "6s"}]},
     "bad-text", ""),
    ("referee/layoff", {"card": "9S", "table": [{"id": "<b>x</b>" * 20, "cards": "6s"}]},
     "text-too-long", "80"),
    ("referee/layoff", {"card": "9S", "table": [{"cards": ["6S", {"card": "7Q"}]}]},
     "bad-card", "7Q"),
    ("referee/draw", {"hand": ["5S"]}, "missing-field", "pile"),
    ("referee/draw", {"pile": ["5H"], "hand": ["5S"], "take": True}, "bad-request", "take"),
    ("score/hand", {"players": [{"name": "Ann", "layoffs": [{"card": "AH", "onto": "x",
                                                             "end": "middle"}]},
                                {"name": "Ben"}]}, "bad-end", "middle"),
    ("score/game", {"totals": [10, "20"]}, "bad-request", "totals"),
    ("referee/log", {"deal": {"players": ["Ann", "Bo"], "dealer": "Ann", "upcard": "6C"},
                     "log": [{"player": "Ann", "move": "discard"}]}, "missing-field", "card"),
    ("referee/log", {"deal": {"players": ["Ann", "Bo"], "dealer": "Ann", "upcard": "6C"},
                     "log": [{"player": "Ann", "move": "take", "take": 0}]}, "bad-request",
     "take"),
]


@pytest.mark.parametrize(("path", "body", "code", "words"), BAD,
                         ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_a_bad_body_is_refused_by_both_with_the_parsers_words(
        client: FlaskClient, path: str, body: dict[str, Any], code: str, words: str) -> None:
    assert refused(path, body) is not None
    assert not fits_document(path, body)
    response = client.post(f"/api/v1/{path}", json=body)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == code, error
    assert words in error["message"], error


def test_every_question_has_a_request_and_a_response_model() -> None:
    paths = {p.removeprefix("/") for p, operations in DOCUMENT["paths"].items()
             if not p.startswith("/games") and "post" in operations}
    assert set(REQUESTS) == set(RESPONSES) == paths
    for path in REQUESTS:
        operation = DOCUMENT["paths"][f"/{path}"]["post"]
        request = operation["requestBody"]["content"]["application/json"]["schema"]
        answer = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert request == {"$ref": f"#/components/schemas/{REQUESTS[path].__name__}"}
        assert answer == {"$ref": f"#/components/schemas/{RESPONSES[path].__name__}"}


@pytest.mark.parametrize("body", [
    b"[" * 5000, b'{"cards": "' + b"7s " * 200000 + b'"}', b'{"cards": ["7S\\u0000"]}',
    b'{"cards": ["<script>"]}', b'{"cards": [' + b'{"card": "7S"},' * 1000 + b'"8S"]}',
])
def test_hostile_bodies_are_refused_cleanly(client: FlaskClient, body: bytes) -> None:
    response = client.post("/api/v1/referee/meld", data=body,
                           content_type="application/json")
    assert 400 <= response.status_code < 500
    assert response.get_json()["error"]["code"]


def test_the_games_api_hand_is_a_model_too() -> None:
    from scorebook.api.schemas import hand_refused

    cards = {"players": [{"name": "Ann", "melds": ["7s 8s 9s"], "hand": []},
                         {"name": "Ben", "hand": "kd"}], "went_out": "Ann"}
    points = {"points_only": True, "players": [{"name": "Ann", "points": 40},
                                               {"name": "Ben", "points": -10}],
              "went_out": "Ann"}
    for body in (cards, points):
        assert hand_refused(body) is None
    doc = DOCUMENT["paths"]["/games/{game_id}/hands"]["post"]["requestBody"]
    assert doc["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/HandBody"}
    mixed = {**points, "players": [{"name": "Ann", "points": 40, "hand": "7s"},
                                   {"name": "Ben", "points": 0}]}
    bad = hand_refused(mixed)
    assert bad is not None and bad.code == "bad-points"
    bad = hand_refused({**cards, "players": [{"name": "Ann", "points": 5},
                                              {"name": "Ben"}]})
    assert bad is not None and bad.code == "bad-points"
    bad = hand_refused({**cards, "players": [{"name": "Ann", "melds": ["7s 8s 9q"]},
                                              {"name": "Ben"}]})
    assert bad is not None and bad.code == "bad-card" and "9q" in bad.message
    bad = hand_refused({**cards, "ending": "sideways"})
    assert bad is not None
