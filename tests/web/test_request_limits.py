"""Every request's work is bounded before the referee searches anything: more cards than
the decks in play hold, more melds than they make, a body larger than the largest
question, JSON nested deeper than any question, and too many questions from one client
a minute (with ``Retry-After``). Each answer names the limit it hit."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.limits import size_text

QUESTIONS = ["referee/meld", "referee/layoff", "referee/draw", "referee/rummy-call",
             "referee/going-out", "score/hand", "score/game", "arrange", "rules"]
RULES = {"family": "pagat-500"}


def hostile_bodies() -> dict[str, Any]:
    """Bodies an attacker sends: many cards, many melds, a big body, deep nesting."""
    many = ["7S"] * 200
    run = ["5H", "6H", "7H"]
    table_of_many_melds = [{"id": f"m{i}", "cards": run} for i in range(40)]
    table_of_many_cards = [{"id": "A", "cards": ["2C", "3C", "4C"] + ["5C"] * 150}]
    return {
        "meld: 200 cards": ("referee/meld", {"rules": RULES, "players": 8, "cards": many}),
        "layoff: a table of 40 melds": ("referee/layoff", {
            "rules": RULES, "players": 8, "table": table_of_many_melds, "card": "8H"}),
        "layoff: a meld of 153 cards": ("referee/layoff", {
            "rules": RULES, "table": table_of_many_cards, "card": "8H"}),
        "going-out: 200 cards in hand": ("referee/going-out", {
            "rules": RULES, "table": table_of_many_melds[:3], "hand": many}),
        "draw: a pile of 200": ("referee/draw", {"rules": RULES, "pile": many, "hand": run}),
        "rummy-call: a string of 500 cards": ("referee/rummy-call", {
            "rules": RULES, "pile": " ".join(["KC"] * 500), "discarder": "A", "caller": "B"}),
        "score: 40 melds": ("score/hand", {"rules": RULES, "players": [
            {"name": "A", "melds": [run] * 40}, {"name": "B"}]}),
    }


@pytest.fixture
def client(make_app: Callable[..., Flask]) -> FlaskClient:
    return make_app().test_client()


@pytest.mark.parametrize("what", list(hostile_bodies()))
def test_more_cards_or_melds_than_the_decks_hold_is_refused_at_once(
        client: FlaskClient, what: str) -> None:
    path, body = hostile_bodies()[what]
    # The CPU time of this thread (the test client runs the app in it), not the wall
    # clock: a search would burn CPU here, while other processes on a busy machine (the
    # suite's other workers) only stretch the wall-clock time.
    started = time.thread_time()
    answer = client.post(f"/api/v1/{path}", json=body)
    elapsed = time.thread_time() - started
    assert answer.status_code == 400, answer.get_data(as_text=True)
    error = answer.get_json()["error"]
    assert error["code"] in ("too-many-cards", "too-many-melds")
    assert "108" in error["message"] or "36" in error["message"] or "54" in error["message"]
    assert elapsed < 1  # refused before any search (the benchmark times it properly)


def test_the_1_8_mb_table_of_the_attack_is_a_413_naming_the_limit(
        client: FlaskClient) -> None:
    table = [{"id": f"m{i}", "cards": ["5H", "6H", "7H", "8H", "9H"]} for i in range(31000)]
    body = json.dumps({"rules": RULES, "table": table, "card": "10H"}).encode()
    assert len(body) > 1_800_000
    for path in ("referee/layoff", "referee/going-out", "referee/rummy-call", "referee/draw"):
        answer = client.post(f"/api/v1/{path}", data=body, content_type="application/json")
        assert answer.status_code == 413
        assert answer.get_json()["error"]["code"] == "payload_too_large"
        assert "128 KB" in answer.get_json()["error"]["message"]
    game_api = client.post("/api/v1/games/1/hands", data=body, content_type="application/json")
    assert game_api.status_code in (404, 413)  # no such game for this browser: 404 first


def test_json_nested_a_thousand_deep_is_a_400(client: FlaskClient) -> None:
    for path in QUESTIONS + ["games/1/hands"]:
        answer = client.post(f"/api/v1/{path}", data=b"[" * 1000 + b"]" * 1000,
                             content_type="application/json")
        assert answer.status_code in (400, 404), path  # (a stranger's game: 404)
        if path != "games/1/hands":
            assert answer.get_json()["error"]["code"] == "too-deep"
    brackets_in_a_string = json.dumps({"rules": RULES, "cards": ["7S", "[" * 500]})
    answer = client.post("/api/v1/referee/meld", data=brackets_in_a_string,
                         content_type="application/json")
    assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "bad-card"


def test_the_largest_real_question_is_answered(client: FlaskClient) -> None:
    """Two decks and four jokers on the table, with long names: still under the limit."""
    suits, ranks = "SHDC", ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    table = []
    for deck in range(2):
        for suit in suits:
            cards = [{"card": f"{r}{suit}", "by": "B" * 80} for r in ranks]
            table.append({"id": f"{suit}{deck}" + "x" * 70, "owner": "O" * 80, "cards": cards})
    body = {"rules": RULES, "players": 8, "table": table, "card": "JK"}
    raw = json.dumps(body, indent=2).encode()
    assert len(raw) < 128 * 1024
    answer = client.post("/api/v1/referee/layoff", data=raw, content_type="application/json")
    assert answer.status_code == 200, answer.get_data(as_text=True)


def test_the_referee_api_is_rate_limited_per_client_with_retry_after(
        make_app: Callable[..., Flask]) -> None:
    # (limits counted per day, not per minute: on a busy machine the tries may take over a
    # minute, and a window that starts again would let one through)
    app = make_app(REFEREE_RATE_LIMIT="5 per day")
    client = app.test_client()
    body = {"rules": RULES, "cards": ["7S", "8S", "9S"]}
    for _ in range(5):
        assert client.post("/api/v1/referee/meld", json=body).status_code == 200
    refused = client.post("/api/v1/arrange", json=body)  # one count for every question
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert refused.get_json()["error"]["code"] == "too_many_requests"
    other = app.test_client().post("/api/v1/referee/meld", json=body,
                                   environ_base={"REMOTE_ADDR": "127.0.0.2"})
    assert other.status_code == 200  # another client counts for itself
    assert client.get("/api/v1/openapi.json").status_code == 200  # the document is free


def test_a_browser_in_a_league_gets_the_higher_limit_its_pages_need(
        make_app: Callable[..., Flask]) -> None:
    """The record-hand page checks every meld and previews the scores through the API
    at almost every tap, and a family's phones often share one address: a browser in a
    league counts against REFEREE_MEMBER_RATE_LIMIT, an anonymous one against the lower
    REFEREE_RATE_LIMIT, both per address."""
    from scorebook.extensions import db
    from scorebook.models import League
    from tests.conftest import join_league

    app = make_app(REFEREE_RATE_LIMIT="3 per day", REFEREE_MEMBER_RATE_LIMIT="8 per day")
    with app.app_context():
        league = League(name="Our table")
        db.session.add(league)
        db.session.commit()
        league_id = league.id
    member = app.test_client()
    join_league(app, member, league_id)
    body = {"rules": RULES, "cards": ["7S", "8S", "9S"]}
    answers = [member.post("/api/v1/referee/meld", json=body).status_code for _ in range(9)]
    assert answers == [200] * 8 + [429]
    stranger = app.test_client()
    answers = [stranger.post("/api/v1/referee/meld", json=body,
                             environ_base={"REMOTE_ADDR": "127.0.0.3"}).status_code
               for _ in range(4)]
    assert answers == [200] * 3 + [429]


def test_a_members_question_costs_no_more_sql_than_an_anonymous_one(
        make_app: Callable[..., Flask]) -> None:
    """Which limit a question counts against is read from the signed session: a member's
    question asks the database nothing (it asked 6 statements before: the leagues and
    their ended memberships, once for each time Flask-Limiter asks for the limit), like
    an anonymous one; every statement the app runs is counted (SQLAlchemy's event)."""
    from sqlalchemy import event

    from scorebook.extensions import db
    from scorebook.models import League
    from tests.conftest import join_league

    app = make_app(REFEREE_RATE_LIMIT="3 per day", REFEREE_MEMBER_RATE_LIMIT="8 per day")
    with app.app_context():
        league = League(name="Our table")
        db.session.add(league)
        db.session.commit()
        league_id, engine = league.id, db.engine
    member, stranger = app.test_client(), app.test_client()
    join_league(app, member, league_id, "viewer")
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        statements.append(statement)

    body = {"rules": RULES, "cards": ["7S", "8S", "9S"]}
    event.listen(engine, "before_cursor_execute", count)
    try:
        spent = {}
        for who, client in (("member", member), ("anonymous", stranger)):
            statements.clear()
            answer = client.post("/api/v1/referee/meld", json=body)
            assert answer.status_code == 200, answer.get_data(as_text=True)
            spent[who] = list(statements)
            # the member's limit, not the anonymous one: what the session said
            assert answer.headers["X-RateLimit-Limit"] == ("8" if who == "member" else "3")
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert spent == {"member": [], "anonymous": []}


def test_counting_a_question_starts_no_thread(make_app: Callable[..., Flask],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``limits`` library's memory storage started a ``threading.Timer`` at nearly
    every count to drop expired keys 10 ms later; the app's storage
    (:class:`scorebook.limits.MemoryCounts`, what ``memory://`` means here) sweeps them
    inline, at most every ``SWEEP_SECONDS``, and still forgets a passed window."""
    import threading

    from scorebook import limits
    from scorebook.extensions import limiter

    app = make_app(REFEREE_RATE_LIMIT="3 per day")
    with app.app_context():
        storage = limiter.storage
    assert isinstance(storage, limits.MemoryCounts)
    started: list[object] = []
    monkeypatch.setattr(threading.Timer, "start", lambda timer: started.append(timer))
    client = app.test_client()
    body = {"rules": RULES, "cards": ["7S", "8S", "9S"]}
    answers = [client.post("/api/v1/referee/meld", json=body).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert started == []
    # the sweep: a key whose window passed is dropped by the next count after
    # SWEEP_SECONDS, without a thread
    storage.incr("gone", expiry=1)
    storage.expirations["gone"] = time.time() - 1
    storage.swept -= limits.SWEEP_SECONDS
    storage.incr("another", expiry=60)
    assert "gone" not in storage.storage and storage.get("another") == 1
    assert started == []


def test_every_429_says_when_to_retry(make_app: Callable[..., Flask]) -> None:
    app = make_app(PASSWORD_RATE_LIMIT="2 per day", INVITE_RATE_LIMIT="2 per day")
    client = app.test_client()
    for _ in range(2):
        client.post("/leagues/login", data={"name": "Nobody", "password": "wrong one!"})
    limited = client.post("/leagues/login", data={"name": "Nobody", "password": "wrong one!"})
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0
    for _ in range(2):
        client.get("/join/" + "x" * 43)
    assert client.get("/join/" + "x" * 43).headers.get("Retry-After")


def test_a_form_page_names_its_limit(make_app: Callable[..., Flask]) -> None:
    app = make_app(MAX_CONTENT_LENGTH=4096)
    answer = app.test_client().post("/leagues/login", data={"name": "x" * 10000})
    assert answer.status_code == 413
    assert size_text(4096) in answer.get_data(as_text=True)
    assert size_text(131072) == "128 KB" and size_text(200 * 1024 * 1024) == "200 MB"
    upload = app.test_client().post("/league/import", data={
        "file": (io.BytesIO(b"{}" * 4000), "big.json")}, content_type="multipart/form-data")
    assert upload.status_code != 413  # the import has its own, larger limit
