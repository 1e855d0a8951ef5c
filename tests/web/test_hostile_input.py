"""Input an attacker sends, on both databases (``TEST_DATABASE_URL``): NUL bytes and
other control characters, unpaired UTF-16 surrogates, ids too large for the database's
integers, and a version that is not a number. Each is a 4xx with a message that says
what is wrong, never a 500, and nothing is stored.

PostgreSQL refuses a NUL in a text value and integers past 2**31 - 1 (SQLite past
2**63 - 1) with an error that used to reach the visitor as a 500."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Game, Hand, League, Meld, Player, Season
from tests.reading import page

HUGE = [2**31, 2**63, 10**30]
BAD_TEXT = ["Ann\x00", "\x00", "Ann\x07bell", "Ann\x7f"]  # NUL, BEL, DEL


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app(PROPAGATE_EXCEPTIONS=False, PASSWORD_RATE_LIMIT="10000 per minute")


@pytest.fixture
def owner(app: Flask) -> FlaskClient:
    """A browser owning a league with a game of Ann and Ben and hand 1 recorded."""
    client = app.test_client()
    assert client.post("/games/new", data={
        "players-0": "Ann", "players-1": "Ben", "family": "rummy-500", "first_dealer": "0",
        "min_natural_cards": "1"}).status_code == 302
    assert client.post("/games/1/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9s", "players-1-hand": "kd",
        "outcome": "p0", "missing_ok": ["Ann", "Ben"]}).status_code == 302  # (§10)
    return client


def counts(app: Flask) -> tuple[int, ...]:
    with app.app_context():
        return tuple(db.session.scalar(db.select(db.func.count()).select_from(model)) or 0
                     for model in (League, Player, Season, Game, Hand, Meld))


def refused(response: object, status: int = 400) -> str:
    code = response.status_code  # type: ignore[attr-defined]
    assert code == status, (code, page(response)[:2000])
    return page(response)


@pytest.mark.parametrize("name", BAD_TEXT)
def test_names_with_control_characters_or_surrogates_are_refused(
        app: Flask, owner: FlaskClient, name: str) -> None:
    before = counts(app)
    message = "control characters"
    assert message in refused(owner.post("/league/players", data={"add-name": name}))
    assert message in refused(owner.post("/league/players/1/edit",
                                         data={"rename-name": name}))
    assert message in refused(owner.post("/league/seasons", data={
        "new-name": name, "new-starts_on": "2030-01-01", "new-ends_on": "2030-02-01"}))
    assert message in refused(owner.post("/games/new", data={
        "players-0": name, "players-1": "Cy", "family": "rummy-500", "first_dealer": "0"}))
    assert message in refused(owner.post("/leagues/new", data={
        "name": name, "password": "a long password", "confirm": "a long password"}))
    assert message in refused(owner.post("/leagues/1/name", data={"name": name}))
    login = owner.post("/leagues/login", data={"name": name, "password": "a long password"})
    assert message in refused(login)
    assert counts(app) == before


@pytest.mark.parametrize("meld_id", ["m\x00", "\x00", "m\ud800", "\udfff"])
def test_meld_ids_with_nul_or_surrogates_are_refused_by_the_api(
        app: Flask, owner: FlaskClient, meld_id: str) -> None:
    before = counts(app)
    body = {"players": [
        {"name": "Ann", "melds": [{"id": meld_id, "cards": ["5h", "6h", "7h"]}],
         "layoffs": [{"card": "8h", "onto": meld_id}]},
        {"name": "Ben", "hand": ["2c"]}], "went_out": "Ann"}
    for method, url in (("POST", "/api/v1/games/1/hands"), ("PUT", "/api/v1/games/1/hands/1")):
        answer = owner.open(url, method=method, json=body)
        assert answer.status_code == 400, answer.get_data(as_text=True)
        assert "control characters" in answer.get_json()["error"]["message"]
    for path in ("/api/v1/score/hand", "/api/v1/referee/layoff"):
        question = {"rules": {"family": "rummy-500"}, "players": body["players"],
                    "table": [{"id": meld_id, "cards": "5h 6h 7h"}], "card": "8h"}
        answer = owner.post(path, json=question)
        assert answer.status_code == 400, answer.get_data(as_text=True)
    raw = owner.post("/api/v1/games/1/hands", data=b'{"players": [{"name": "Ann\\u0000"}]}',
                     content_type="application/json")
    assert raw.status_code == 400
    assert counts(app) == before


@pytest.mark.parametrize("big", HUGE)
def test_ids_too_large_for_the_database_are_not_found(
        app: Flask, owner: FlaskClient, big: int) -> None:
    for url in (f"/games/{big}", f"/games/{big}/hands/1", f"/games/1/hands/{big}",
                f"/games/{big}/version", f"/api/v1/games/{big}", f"/api/v1/games/1/hands/{big}",
                f"/league/players/{big}", f"/league/games/{big}.csv",
                f"/leagues/{big}/settings"):
        assert owner.get(url).status_code == 404, url
    assert owner.post(f"/league/seasons/{big}/delete").status_code == 404
    assert owner.get(f"/league/?season={big}").status_code == 404
    assert owner.get(f"/league/history?player={big}").status_code == 404
    assert owner.get(f"/referee/layoff?game={big}&card=8h").status_code in (400, 404)
    merge = owner.post("/league/players/1/merge", data={"other": str(big), "keep": "1"})
    assert merge.status_code == 400
    assert owner.get(f"/league/players/1/merge?other={big}").status_code == 200
    assert owner.post(f"/league/merges/{big}/undo").status_code == 404
    for body in ({"number": big, "players": []}, {"version": big, "players": []}):
        answer = owner.post("/api/v1/games/1/hands", json=body)
        assert answer.status_code in (400, 409), answer.get_data(as_text=True)
        assert answer.get_json()["error"]["message"]
    answer = owner.put("/api/v1/games/1/hands/1", json={"version": big, "players": [
        {"name": "Ann", "melds": [["7s", "8s", "9s"]]}, {"name": "Ben", "hand": ["kd"]}],
        "went_out": "Ann"})
    assert answer.status_code in (400, 409), answer.get_data(as_text=True)
    assert owner.delete("/api/v1/games/1/hands/1", json={"version": big}).status_code in (
        400, 409)
    assert owner.post("/games/1/hands/1/delete", data={"version": str(big)}).status_code in (
        400, 409)


@pytest.mark.parametrize("version", ["abc", "1.5", "", " ", "1e3", "-1", "\x00"])
def test_a_delete_form_with_a_version_that_is_not_a_number(
        app: Flask, owner: FlaskClient, version: str) -> None:
    answer = owner.post("/games/1/hands/1/delete", data={"version": version})
    if version in ("", " "):  # no version: as before, delete what is there... not here
        assert answer.status_code in (302, 400, 409)
        return
    assert answer.status_code in (400, 409)
    assert counts(app)[4] == 1  # the hand is still there
    api = owner.delete("/api/v1/games/1/hands/1", json={"version": version})
    assert api.status_code == 400 and "version" in api.get_json()["error"]["message"]


@pytest.mark.parametrize("query", [
    "page=99999999999999999999999", "page=-5", "page=abc", "page=%00",
    "before=abc", "before=%00", "after=99999999999999999999999", "before=-1",
    "after=1%2C99999999999999999999999", "player=99999999999999999999999",
    "season=%00", "season=99999999999999999999999",
])
def test_history_with_a_hostile_page_or_cursor(app: Flask, owner: FlaskClient,
                                               query: str) -> None:
    """A league history address edited by hand (a page past the end, a cursor that is
    not one, an id too large for the database) is a page or a 4xx, never a 500."""
    response = owner.get(f"/league/history?{query}")
    assert response.status_code in (200, 400, 404), (query, response.status_code)


@pytest.mark.parametrize("path", [
    f"/games/{2**63}/board", "/games/1/board?v=abc", "/games/1/board?v=%00",
    f"/games/1/board?v={10**30}", f"/games/1/version?v={10**30}",
    "/games/1/version?v=%00", f"/referee/?game={2**63}", "/referee/?game=-1",
    "/referee/?game=%00",
])
def test_board_and_version_fetches_with_hostile_addresses(owner: FlaskClient,
                                                          path: str) -> None:
    response = owner.get(path)
    assert response.status_code in (200, 304, 400, 404), (path, response.status_code)
    assert "Traceback" not in response.get_data(as_text=True)


@pytest.mark.parametrize("key", ["k\x00" * 8, "x" * 10_000, "short", "ключ-ключ-ключ"])
def test_a_hostile_send_key_is_refused_and_nothing_is_stored(app: Flask, owner: FlaskClient,
                                                             key: str) -> None:
    before = counts(app)
    form = {"number": "2", "players-0-melds": "7h 8h 9h", "players-1-hand": "kd",
            "outcome": "p0", "client_key": key}
    refused(owner.post("/games/1/hands/new", data=form))
    api = owner.post("/api/v1/games/1/hands", headers={"Idempotency-Key": key.replace(
        "\x00", "")}, json={"points_only": True, "players": [
            {"name": "Ann", "points": 10}, {"name": "Ben", "points": -10}]})
    assert api.status_code == 400, api.get_data(as_text=True)
    assert counts(app) == before
