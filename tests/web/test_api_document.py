"""The OpenAPI document says what the JSON API accepts and answers, in both directions.

schemathesis makes requests to every operation from the document (and requests that
break it), the referee's questions and the games API alike, and sends them as a scorer
of a real game. Every answer goes through schemathesis's own checks (its status, content
type, headers and body against the document's response; no 500; a request that does
not fit refused) and, for a body, through a judge that reads the document itself (a
JSON Schema validator, not the generator's intent):

- a body that fits is answered (2xx, or a 409 when the games API's hand moved on), or
  refused with one of the operation's own ``x-content-codes`` (what a schema cannot
  say: cards the decks in play do not hold, a meld that is not one) or a limit of every
  request (too deep, too many values, too large);
- a body that does not fit is refused (4xx).

``API_DOC_EXAMPLES`` (default 25) sets the examples per operation and mode; ``make fuzz``
raises it. Hand-written cases below pin what the document once got wrong.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any

import jsonschema_rs
import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.core.failures import AcceptedNegativeData, FailureGroup
from schemathesis.specs.openapi.checks import positive_data_acceptance

from referee import make_rules, parse_card
from scorebook.api.openapi import LIMIT_CODES, openapi_document
from scorebook.extensions import db
from scorebook.models import Game, League
from scorebook.services import access, exports, games, hands, jobs, played
from scorebook.services.entry import entry_from_text

EXAMPLES = int(os.environ.get("API_DOC_EXAMPLES", "25"))
DRAFT = "https://json-schema.org/draft/2020-12/schema"
DOCUMENT = openapi_document()
COMPONENTS = DOCUMENT["components"]


def validator(schema: dict[str, Any]) -> Any:
    """A validator of ``schema`` with the document's components (fancy-regex patterns,
    as schemathesis reads them: ECMAScript-like, with look-ahead)."""
    whole = {"$schema": DRAFT, **schema, "components": COMPONENTS}
    return jsonschema_rs.validator_for(whole, pattern_options=jsonschema_rs.FancyRegexOptions())


def body_schema(method: str, path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    operation = openapi_document()["paths"][path][method.lower()]
    return operation, operation["requestBody"]["content"]["application/json"]["schema"]


@pytest.fixture
def game_app(make_app: Callable[..., Flask]) -> tuple[Flask, dict[str, int], str]:
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    with app.test_request_context():
        league = League(name="Document", scorer_token_hash=access.token_hash("d" * 43))
        db.session.add(league)
        db.session.commit()
        game = games.create_game(league, ["You", "Ada"], 0, make_rules("pagat-500"))
        hands.record_hand(game, entry_from_text(["You", "Ada"], {
            "You": {"melds": "7s 8s 9s"}, "Ada": {"hand": "kd"}}, "You", None, False, False))
        session: dict[str, Any] = {}
        access.remember(session, league, access.SCORER)
        # a job this browser asked for (an import waiting for a worker): /jobs/{job_id}
        job = jobs.submit(exports.IMPORT_JOB, f"league:{league.id}", league.id,
                          {"file": ""})
        jobs.remember(session, job.id)
        cookie = app.session_interface.get_signing_serializer(app).dumps(session)  # type: ignore[attr-defined]
        return app, {"game_id": game.id, "number": 1, "league_id": league.id,
                     "job_id": job.id}, cookie


def _query_fits(operation: Any, query: dict[str, Any] | None) -> bool:
    """Whether the query string's values fit their parameters (they arrive as text)."""
    schemas = {p.name: p.definition.get("schema", {}) for p in operation.query}
    for name, value in (query or {}).items():
        if name not in schemas:
            continue
        try:
            number = int(str(value))
        except ValueError:
            return False
        if not validator(schemas[name]).is_valid(number) or str(number) != str(value):
            return False
    return True


def _refusal(response: Any) -> str:
    try:
        return str(response.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return f"HTTP {response.status_code}"


#: schemathesis's own check that a request which fits is accepted counts every 400 as a
#: disagreement; the document allows a 400 to a body that fits only with one of the
#: operation's x-content-codes (a 428 to a change that names no version, a 422 to a
#: search too large): _judge checks exactly that instead.
_REPLACED = [positive_data_acceptance]


def _judge(operation: Any, mode: GenerationMode, ids: dict[str, int], cookie: str,
           wrong: list[str], counts: dict[str, int]) -> None:
    """Send ``EXAMPLES`` cases of ``operation`` in ``mode``; note in ``wrong`` each answer
    the document does not foretell: each failure of schemathesis's checks (the status,
    the content type, the headers and the body of every answer against the document; a
    request that does not fit refused), and each refusal of a body that fits for a reason
    the operation's x-content-codes do not name."""
    spec = DOCUMENT["paths"][operation.path][operation.method.lower()]
    content_codes = set(spec.get("x-content-codes", [])) | set(LIMIT_CODES)
    body_spec = spec.get("requestBody")
    fits = body_spec and validator(body_spec["content"]["application/json"]["schema"])
    fixed = {p.name: ids[p.name] for p in operation.path_parameters if p.name in ids}
    strategy = operation.as_strategy(mode, path_parameters=fixed or None,
                                     cookies={"session": cookie})

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def send(case: Any) -> None:
        body = case.body if body_spec else None
        # schemathesis asks for gzip or brotli, which its WSGI transport does not decode
        # (an HTTP client does): the answer as it is, for its checks to read
        response = case.call(headers={"Accept-Encoding": "identity"})
        status = response.status_code
        label = f"{case.method} {case.formatted_path} {case.query or ''} " + (
            json.dumps(body, default=repr)[:300])
        try:
            case.validate_response(response, excluded_checks=_REPLACED)
        except FailureGroup as found:
            # a body over the size limit is refused before it is read (413), whatever
            # it holds: a refusal too, though schemathesis does not list that status
            wrong.extend(f"schemathesis: {failure.title} ({failure.message[:300]}): "
                         f"{status} {_refusal(response)}: {label}"
                         for failure in found.exceptions
                         if not (status == 413 and isinstance(failure, AcceptedNegativeData)))
        if not fits:
            counts["answered"] += status < 300
            return  # no body to judge
        if not _query_fits(operation, case.query):
            return  # a broken query string: schemathesis's checks judge it
        # raw bytes (not JSON at all) or no body: neither fits the document
        body_fits = isinstance(body, dict | list | str | int | float | bool) and (
            fits.is_valid(body))
        if body_fits:
            counts["fits"] += 1
            if status < 300:
                counts["answered"] += 1
            elif status == 409 and "/games/" in operation.path:
                pass  # another hand moved on: the body was read
            elif status == 428 and "428" in spec["responses"] and not _sends_version(
                    case):
                pass  # a change that names no version: documented, and never applied
            elif status == 422 and _refusal(response) == "search-too-large" and (
                    "422" in spec["responses"]):
                pass  # the search could not answer in time: documented
            elif status == 422 and "422" in spec["responses"] and (
                    _refusal(response) in content_codes):
                pass  # a played hand's move the referee refuses: documented, with its code
            elif status not in (400, 413) or _refusal(response) not in content_codes:
                wrong.append(f"fits, refused {status} {_refusal(response)}: {label}")
        else:
            counts["breaks"] += 1
            if not 400 <= status < 500:
                wrong.append(f"does not fit, answered {status}: {label}")

    started = time.perf_counter()
    try:
        send()
    except Unsatisfiable:
        pass
    if os.environ.get("API_DOC_TIMES"):
        print(f"{operation.label} {mode.value}: {time.perf_counter() - started:.1f} s")


def _sends_version(case: Any) -> bool:
    """Whether a generated change names the version it is for (query or body)."""
    body = case.body if isinstance(case.body, dict) else {}
    return (case.query or {}).get("version") is not None or body.get("version") is not None


def test_the_document_says_what_the_api_accepts(
        game_app: tuple[Flask, dict[str, int], str]) -> None:
    app, ids, cookie = game_app
    with app.test_request_context():  # a hand logged turn by turn: /games/{id}/played
        game = db.session.get(Game, ids["game_id"])
        assert game is not None
        played.start_played(game, parse_card("6C"))
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    operations = sorted((r.ok() for r in schema.get_all_operations()),
                        key=lambda op: op.method.upper() == "DELETE")  # hand 1 stays longest
    assert {op.label for op in operations} == {
        f"{method.upper()} {path}" for path, item in DOCUMENT["paths"].items()
        for method in item}  # every operation: nine questions and the games API's five
    wrong: list[str] = []
    seen: dict[str, dict[str, int]] = {}
    for operation in operations:
        counts = seen.setdefault(operation.label, {"fits": 0, "answered": 0, "breaks": 0})
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            _judge(operation, mode, ids, cookie, wrong, counts)
    assert not wrong, f"{len(wrong)} disagreements:\n" + "\n".join(wrong[:25])
    for label, counts in seen.items():
        method, path = label.split(" ", 1)
        bodyless = "requestBody" not in DOCUMENT["paths"][path][method.lower()]
        if label.startswith(("GET", "DELETE")) or bodyless:
            # no body; the game and its hand answered (an undo: of a step that exists)
            assert label.startswith(("DELETE", "POST")) or counts["answered"], (label, counts)
            continue
        assert counts["fits"] and counts["breaks"], (label, counts)
        if "/games/" not in label:  # a random hand rarely matches the game's players
            if not counts["answered"]:  # no random body happened to be a legal position
                counts["answered"] = _answers_its_example(app, label)
            assert counts["answered"], (label, counts)


#: One body per question that fits the document and is a real position (the README's
#: examples): sent when none of the random bodies that fit was a legal position, so
#: that "a body that fits can be answered" does not hang on the generator's luck.
KNOWN_GOOD: dict[str, dict[str, Any]] = {
    "POST /referee/meld": {"rules": {"family": "pagat-500"}, "players": 3,
                           "cards": ["9S", "JK", "JK"]},
    "POST /referee/layoff": {"rules": {"family": "pagat-500"}, "players": 4, "card": "9H",
                             "table": [{"id": "A", "owner": "Ann",
                                        "cards": ["5H", "6H", "7H"]}]},
    "POST /referee/draw": {"rules": {"family": "pagat-500"}, "players": 3,
                           "pile": ["6C", "4S", "7D", "4H", "QS", "AD"],
                           "hand": ["2C", "4D", "5C", "8C", "JH", "KS", "KD"], "take": 5},
    "POST /referee/rummy-call": {"rules": {"family": "pagat-500"}, "players": 3,
                                 "table": [], "pile": ["2D", "KC", "5S", "QC", "9H", "JC"],
                                 "discarder": "Ann", "caller": "Ben"},
    "POST /referee/going-out": {"rules": {"family": "pagat-500"}, "players": 3,
                                "table": [{"id": "A", "cards": ["5H", "6H", "7H"]}],
                                "hand": ["8H", "4H"], "discard": "4H"},
    "POST /score/hand": {"rules": {"family": "rummy-500"}, "went_out": "Ada", "players": [
        {"name": "You", "melds": [{"id": "y1", "cards": ["7S", "8S", "9S"]}],
         "hand": ["5H", "JD"]},
        {"name": "Ada", "melds": [{"id": "a1", "cards": ["KC", "KD", "KH"]}], "hand": []}]},
    "POST /score/game": {"rules": {"family": "pagat-500"}, "totals": [505, 520],
                         "went_out": 0},
    "POST /arrange": {"rules": {"family": "pagat-500"},
                      "cards": ["7S", "8S", "9S", "4C", "4D", "4S", "KH"]},
    "POST /rules": {"rules": {"family": "pagat-500"}, "players": 5},
    "POST /referee/log": {"rules": {"family": "pagat-500"}, "deal": {
        "players": ["Ann", "Bo"], "dealer": "Bo", "upcard": "6C"}, "log": [
        {"player": "Ann", "move": "draw"}, {"player": "Ann", "move": "discard", "card": "9S"},
        {"player": "Bo", "move": "take", "down_to": "9S"}]},
}


def _answers_its_example(app: Flask, label: str) -> int:
    method, path = label.split(" ", 1)
    body = KNOWN_GOOD[label]
    spec = openapi_document()["paths"][path][method.lower()]
    assert validator(spec["requestBody"]["content"]["application/json"]["schema"]
                     ).is_valid(body), label
    response = app.test_client().open("/api/v1" + path, method=method, json=body)
    assert response.status_code == 200, (label, response.get_json())
    return 1


# --- what the document once got wrong, both ways ---------------------------------------

#: (path, body, fits the document): each one is also sent, and must be answered or
#: refused as the document says.
CASES = [
    ("/referee/meld", {"cards": ["7S", "8S", "9S"]}, True),
    ("/referee/meld", {"cards": "7s 8s 9s", "players": 3.0}, True),  # 3.0 is a whole number
    ("/referee/meld", {"cards": ["7S", "8S", "9S"], "comment": "ignored"}, True),
    ("/referee/meld", {"cards": ["7S", "8S", "9S"], "rules": "basic"}, True),
    ("/referee/meld", {"cards": ["7S", "8S", "9S"], "rules": None, "players": None}, True),
    ("/referee/meld", {}, False),  # no cards
    ("/referee/meld", {"cards": ["7S", "nosniff"]}, False),
    ("/referee/meld", {"cards": ["7S"], "rules": {"family": "basic", "jokers": True}}, False),
    ("/referee/meld", {"cards": ["7S"], "rules": {"floating": True,
                                                 "discard_required": True}}, False),
    ("/referee/meld", {"cards": ["7S"], "rules": {"family": "basic"}, "players": 5}, False),
    ("/referee/meld", {"cards": ["7S"], "rules": {"target": 150.0}}, True),
    ("/referee/layoff", {"card": "9S", "table": [{"cards": "6s 7s 8s"}]}, True),
    ("/referee/layoff", {"card": "9S", "table": [{"id": "", "cards": "6s 7s 8s"}]}, False),
    ("/referee/layoff", {"card": "9S", "table": [{"id": " ", "cards": "6s 7s 8s"}]}, False),
    ("/referee/layoff", {"card": "9S", "table": [{"id": 7, "cards": "6s 7s 8s"}]}, True),
    ("/referee/layoff", {"card": "9S", "table": [{"id": "a\u0000", "cards": "6s"}]}, False),
    ("/referee/layoff", {"card": "9S", "table": [{"id": "x" * 81, "cards": "6s"}]}, False),
    ("/referee/layoff", {"card": "9S", "table": [{"id": "a\n", "cards": "6s 7s 8s"}]}, False),
    ("/referee/layoff", {"table": []}, False),  # no card
    ("/referee/draw", {"pile": [], "hand": []}, False),  # nothing to take
    ("/referee/draw", {"pile": ["5H"], "hand": ["5S", "5D"], "take": 0}, False),
    ("/referee/draw", {"pile": ["5H"], "hand": ["5S", "5D"], "take": 1.0}, True),
    ("/referee/going-out", {}, False),  # no hand
    ("/referee/going-out", {"hand": ["7S", "8S", "9S"], "took": None,
                            "discard": None}, True),
    ("/referee/rummy-call", {"discarder": "Ann", "caller": "Ben"}, False),  # no pile
    ("/score/hand", {"players": [{"name": "Ann", "melds": ["7s 8s 9s"]},
                                 {"name": "Ben", "hand": "5h"}], "went_out": "Ann"}, True),
    ("/score/hand", {"players": [{"name": "Ann", "melds": 0}, {"name": "Ben"}]}, False),
    ("/score/hand", {"players": [{"name": "Ann", "melds": [{"id": "a"}]},
                                 {"name": "Ben"}]}, False),  # a meld without its cards
    ("/score/hand", {"players": [{"name": "Ann"}]}, False),  # one player
    ("/score/game", {"totals": [510.0, 20]}, True),
    ("/score/game", {"totals": [510, 20], "names": ["Ann"]}, True),  # names-mismatch
    ("/arrange", {"cards": " ".join(["2s"] * 41)}, False),  # at most 40 cards
    ("/arrange", {"cards": " ".join(["2s"] * 31)}, True),  # too-many-copies
]


@pytest.mark.parametrize(("path", "body", "fits"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_body_is_answered_as_the_document_says(client: FlaskClient, path: str,
                                                 body: dict[str, Any], fits: bool) -> None:
    operation, schema = body_schema("POST", path)
    assert validator(schema).is_valid(body) is fits
    response = client.post(f"/api/v1{path}", json=body)
    if fits:
        assert response.status_code < 300 or (
            response.get_json()["error"]["code"] in operation["x-content-codes"]
        ), response.get_json()
    else:
        assert response.status_code == 400, response.get_json()


def test_the_patterns_read_the_same_in_python() -> None:
    """The document's patterns are the ones the API checks (scorebook.services.payloads)."""
    from scorebook.services import payloads

    doc = openapi_document()["components"]["schemas"]
    assert doc["Card"]["pattern"] == payloads.CARD_PATTERN
    assert doc["Name"]["anyOf"][0]["pattern"] == payloads.TEXT_PATTERN
    assert doc["Name"]["anyOf"][0]["maxLength"] == payloads.MAX_TEXT


@pytest.mark.parametrize("label", sorted(KNOWN_GOOD))
def test_each_question_has_an_example_that_fits_and_is_answered(app: Flask,
                                                                 label: str) -> None:
    assert _answers_its_example(app, label) == 1


@pytest.mark.parametrize(("method", "path"), [
    (method.upper(), path) for path, item in DOCUMENT["paths"].items() if "{" in path
    for method in item])
def test_an_id_past_the_largest_is_not_found_whatever_the_method(
        client: FlaskClient, method: str, path: str) -> None:
    """A game or hand number past what the document allows is the documented 404, not a
    405 (schemathesis found one: the URL's number was checked only after the method)."""
    for big in ("2147483648", "99999999999"):
        url = "/api/v1" + path.replace("{game_id}", big).replace("{number}", big) \
            .replace("{job_id}", big)
        response = client.open(url, method=method, json={})
        assert response.status_code == 404, (url, response.status_code)
        assert response.get_json()["error"]["code"] == "not_found"


def _fits_answer(method: str, path: str, response: Any, status: int) -> None:
    """``response`` has ``status``, and is one the document allows: its status is listed,
    and its body fits that status's schema."""
    assert response.status_code == status, (method, path, response.get_json())
    answers = DOCUMENT["paths"][path][method.lower()]["responses"]
    assert str(status) in answers, (method, path, status)
    schema = answers[str(status)]["content"]["application/json"]["schema"]
    errors = [e.message for e in validator(schema).iter_errors(response.get_json())]
    assert not errors, (method, path, status, errors[:3], response.get_json())


def test_every_answer_of_the_games_api_fits_its_documented_model(
        game_app: tuple[Flask, dict[str, int], str], make_app: Callable[..., Flask]) -> None:
    """Each status the games API answers, from a real game, against the document: what
    random requests seldom reach (a conflict, a replay, a viewer, a points-only hand)."""
    app, ids, cookie = game_app
    client = app.test_client()
    client.set_cookie("session", cookie)
    game, hand = "/games/{game_id}", "/games/{game_id}/hands/{number}"
    hands = "/games/{game_id}/hands"
    base = f"/api/v1/games/{ids['game_id']}"
    body = {"players": [{"name": "You", "melds": ["4c 4d 4s"], "hand": []},
                        {"name": "Ada", "hand": "kd 2c"}], "went_out": "You"}
    points = {"points_only": True, "went_out": "Ada",
              "players": [{"name": "You", "points": -5}, {"name": "Ada", "points": 40}]}
    _fits_answer("GET", game, client.get(base), 200)
    _fits_answer("GET", hand, client.get(f"{base}/hands/1"), 200)
    _fits_answer("GET", hand, client.get(f"{base}/hands/9"), 404)
    _fits_answer("GET", game, client.get("/api/v1/games/999"), 404)
    key = {"Idempotency-Key": "document-key-1"}
    _fits_answer("POST", hands, client.post(f"{base}/hands", json=body, headers=key), 201)
    again = client.post(f"{base}/hands", json=body, headers=key)
    _fits_answer("POST", hands, again, 200)
    assert again.headers["Idempotent-Replayed"] == "true"
    _fits_answer("POST", hands, client.post(f"{base}/hands", json={**body, "number": 1}), 409)
    _fits_answer("POST", hands, client.post(f"{base}/hands", json={**body, "players": []}),
                 400)
    _fits_answer("POST", hands, client.post(f"{base}/hands", json=body,
                                            headers={"Idempotency-Key": "short"}), 400)
    _fits_answer("POST", hands, client.post(f"{base}/hands", json=points), 201)
    _fits_answer("GET", hand, client.get(f"{base}/hands/3"), 200)  # points only
    _fits_answer("PUT", hand, client.put(f"{base}/hands/2", json=body), 428)
    _fits_answer("PUT", hand, client.put(f"{base}/hands/2", json={**body, "version": 99}), 409)
    stored = client.get(f"{base}/hands/2").get_json()
    edit_key = {"Idempotency-Key": "document-edit-1"}
    _fits_answer("PUT", hand, client.put(f"{base}/hands/2?version={stored['version']}"
                                         f"&id={stored['id']}", json=points,
                                         headers=edit_key), 200)
    _fits_answer("DELETE", hand, client.delete(f"{base}/hands/2"), 428)
    _fits_answer("DELETE", hand, client.delete(f"{base}/hands/2?version=x"), 400)
    _fits_answer("DELETE", hand, client.delete(f"{base}/hands/2?version=1&id={stored['id']}"),
                 409)
    stored = client.get(f"{base}/hands/2").get_json()
    _fits_answer("DELETE", hand, client.delete(f"{base}/hands/2?version={stored['version']}"
                                               f"&id={stored['id']}"), 200)
    # the keys' hand is gone: sent again, they store nothing (410)
    _fits_answer("POST", hands, client.post(f"{base}/hands", json=body, headers=key), 410)
    _fits_answer("PUT", hand, client.put(f"{base}/hands/2?version=1&id=1", json=points,
                                         headers=edit_key), 410)
    _fits_answer("DELETE", hand, client.delete(f"{base}/hands/2?version=1&id={stored['id']}"),
                 409)
    with app.test_request_context():
        session: dict[str, Any] = {}
        league = db.session.scalar(db.select(League))
        assert league is not None
        league.viewer_token_hash = access.token_hash("v" * 43)
        db.session.commit()
        access.remember(session, league, access.VIEWER)
        viewer = app.session_interface.get_signing_serializer(app).dumps(session)  # type: ignore[attr-defined]
    client.set_cookie("session", viewer)
    _fits_answer("GET", game, client.get(base), 200)
    _fits_answer("POST", hands, client.post(f"{base}/hands", json=body), 403)
    # (limits counted per day, not per minute: on a busy machine the tries may take over a
    # minute, and a window that starts again would let one through)
    limited = make_app(REFEREE_RATE_LIMIT="1 per day").test_client()
    question = {"cards": ["7S", "8S", "9S"]}
    _fits_answer("POST", "/referee/meld", limited.post("/api/v1/referee/meld", json=question),
                 200)
    _fits_answer("POST", "/referee/meld", limited.post("/api/v1/referee/meld", json=question),
                 429)
    huge = b'{"cards": "' + b"7s " * 60000 + b'"}'
    _fits_answer("POST", "/referee/meld", app.test_client().post(
        "/api/v1/referee/meld", data=huge, content_type="application/json"), 413)
    client.set_cookie("session", cookie)
    _fits_answer("POST", hands, client.post(f"{base}/hands", data=huge,
                                            content_type="application/json"), 413)
    # the played hand: a live hand logged turn by turn
    log, moves, undo = "/games/{game_id}/played", f"{log_path(base)}/moves", "/undo"
    _fits_answer("GET", log, client.get(f"{base}/played"), 404)
    _fits_answer("POST", log, client.post(f"{base}/played", json={"upcard": "6C",
                                                                   "dealer": "Zed"}), 400)
    _fits_answer("POST", log, client.post(f"{base}/played", json={"upcard": "6C"}), 201)
    _fits_answer("POST", log, client.post(f"{base}/played", json={"upcard": "7C"}), 409)
    _fits_answer("GET", log, client.get(f"{base}/played?card=6C"), 200)
    _fits_answer("GET", log, client.get(f"{base}/played?hand=zz"), 400)
    path = "/games/{game_id}/played/moves"
    draw = {"player": "You", "move": "draw", "length": 0}  # (Ada dealt)
    _fits_answer("POST", path, client.post(moves, json={"player": "You", "move": "draw"}),
                 428)
    _fits_answer("POST", path, client.post(moves, json={**draw, "player": "Ada"}), 422)
    _fits_answer("POST", path, client.post(moves, json={**draw, "key": "document-move-1"}),
                 201)
    again = client.post(moves, json={**draw, "key": "document-move-1"})
    _fits_answer("POST", path, again, 200)
    assert again.headers["Idempotent-Replayed"] == "true"
    _fits_answer("POST", path, client.post(moves, json=draw), 409)
    _fits_answer("POST", path, client.post(moves, json={
        "player": "You", "move": "take", "down_to": "KS", "length": 1}), 400)
    path = "/games/{game_id}/played/undo"
    _fits_answer("POST", path, client.post(f"{base}/played{undo}", json={}), 428)
    _fits_answer("POST", path, client.post(f"{base}/played{undo}", json={"length": 0}), 409)
    _fits_answer("POST", path, client.post(f"{base}/played{undo}", json={"length": 1}), 200)
    _fits_answer("POST", path, client.post(f"{base}/played{undo}", json={"length": 0}), 400)


def log_path(base: str) -> str:
    return f"{base}/played"


def test_the_document_is_generated_from_the_models_and_the_route_table() -> None:
    """No schema is written in the document itself: every body and answer is a ``$ref``
    to a model of scorebook.api.schemas (or a leaf's grammar), every parameter a field of
    a parameter model, every operation a row of openapi.ROUTES."""
    from pydantic import BaseModel

    from scorebook.api import openapi, schemas

    assert [(r.method, r.path) for r in openapi.ROUTES] == [
        (method, path) for path, item in DOCUMENT["paths"].items() for method in item]
    def declared(model: type[BaseModel]) -> set[str]:
        return {sub.__name__ for sub in model.__subclasses__()
                if sub.__module__ == schemas.__name__} | {
            name for sub in model.__subclasses__() for name in declared(sub)}

    models = declared(BaseModel)
    for path, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            media = [*operation["responses"].values(), operation.get("requestBody", {})]
            for schema in (m["content"]["application/json"]["schema"]
                           for m in media if "content" in m):
                assert set(schema) == {"$ref"}, (method, path, schema)
                assert schema["$ref"].rsplit("/", 1)[1] in models, (method, path, schema)
            route = next(r for r in openapi.ROUTES if (r.method, r.path) == (method, path))
            assert operation.get("parameters", []) == schemas.parameters(route.parameters)
    for name in DOCUMENT["components"]["schemas"]:
        assert name in models or name in schemas.LEAVES, name
