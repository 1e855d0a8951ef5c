"""The last answers that were a 500, on both databases (``TEST_DATABASE_URL``): each is a
clear 4xx now, and nothing is stored.

- Digits that are not ASCII: ``str.isdigit()`` is true for "²" (which ``int()`` refuses)
  and for "١" (which ``int()`` reads as 1), and ``hmac.compare_digest`` raises on text
  that is not ASCII. An invite's door token (``<league id>.<mac>``), a query's player or
  season, the record form's outcome: all read numbers as ASCII digits only now
  (:func:`scorebook.plain_text.db_int`).
- A league id past PostgreSQL's ``integer`` in a door token.
- Days at the end of the calendar: a season ending 9999-12-31 (the date field's own
  maximum) made the season's end, the next midnight, overflow; a game of an imported
  file started at 9999-12-31T23:59:59-12:00 is in the year 10000 in UTC. The days a
  league keeps are :data:`scorebook.services.seasons.FIRST_DAY` to ``LAST_DAY``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Game, Hand, League, Season
from scorebook.presenters.sentences import say_all
from scorebook.presenters.wording import meld_label_parts, meld_name
from scorebook.services.exports import LeagueImportError, import_league, read_league_file
from tests.reading import page, readable

MAC = "A" * 43


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app(PROPAGATE_EXCEPTIONS=False)


@pytest.fixture
def owner(app: Flask) -> FlaskClient:
    """A browser owning a league (id 1) with a game of Ann and Ben, hand 1 recorded, and
    both invite links made (so a door token is checked against the doors' MACs)."""
    client = app.test_client()
    assert client.post("/games/new", data={
        "players-0": "Ann", "players-1": "Ben", "family": "rummy-500", "first_dealer": "0",
        "min_natural_cards": "1"}).status_code == 302
    assert client.post("/games/1/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9s", "players-1-hand": "kd",
        "outcome": "p0", "missing_ok": ["Ann", "Ben"]}).status_code == 302  # (§10: ticked)
    for role in ("scorer", "viewer"):
        assert client.post(f"/leagues/1/links/{role}").status_code == 302
    return client


def counts(app: Flask) -> tuple[int, ...]:
    with app.app_context():
        return tuple(db.session.scalar(db.select(db.func.count()).select_from(model)) or 0
                     for model in (League, Season, Game, Hand))


@pytest.mark.parametrize("token", [
    "².aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",   # a superscript two: isdigit(), no int
    "١.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",   # an Arabic-Indic one: int() reads 1
    "1.ääääääääääääääääääääääääääääääääääääääääääää",  # compare_digest raises on non-ASCII
    "1." + MAC[:-1] + "é",
    "2147483648." + MAC,                                # past PostgreSQL's integer
    "99999999999." + MAC,
], ids=["superscript", "arabic-indic", "umlauts", "last-not-ascii", "past-integer", "huge"])
def test_a_door_token_that_is_not_one_finds_nothing(app: Flask, owner: FlaskClient,
                                                    token: str) -> None:
    stranger = app.test_client()
    for client in (stranger, owner):
        for method in ("GET", "POST"):
            answer = client.open(f"/join/{token}", method=method, data={})
            assert answer.status_code == 404, (method, answer.status_code)
            assert "This invite link does not work" in page(answer)
    with stranger.session_transaction() as session:
        assert "leagues" not in session


def test_numbers_in_queries_and_forms_are_ascii_digits(app: Flask, owner: FlaskClient
                                                       ) -> None:
    before = counts(app)
    for digits in ("²", "١", "1²"):
        for url in (f"/league/?season={digits}", f"/league/history?season={digits}",
                    f"/league/history?player={digits}", f"/league/head-to-head?a={digits}",
                    f"/league/head-to-head?a=1&b={digits}", f"/league/records?season={digits}",
                    f"/league/players/1?season={digits}"):
            assert owner.get(url).status_code == 404, url
        for url in (f"/games/{digits}", f"/api/v1/games/{digits}", f"/games/1/hands/{digits}"):
            assert owner.get(url).status_code == 404, url  # (no other spelling of game 1)
        refused = owner.post("/games/1/hands/new", data={
            "number": "2", "players-0-melds": "7h 8h 9h", "players-1-hand": "kd",
            "outcome": f"p{digits}"})
        assert refused.status_code == 400, digits
        assert "Say how the hand ended" in page(refused)
    # a lay-off typed onto "meld ²" names no meld (it is not meld 2)
    typed = owner.post("/games/1/hands/new", data={
        "number": "2", "players-0-melds": "7h 8h 9h", "players-1-layoffs": "10h ²",
        "players-1-hand": "kd", "outcome": "p0"})
    assert typed.status_code == 400
    assert counts(app) == before


def test_a_meld_named_with_other_digits_is_named_as_it_is(app: Flask) -> None:
    """A meld id is any text: "Ann-²" is no live meld's label (Ann's meld ²), just an id,
    and "Ann-١" is not Ann's meld 1."""
    with app.test_request_context():
        assert readable(meld_name("Ann-2")) == "Ann's meld 2"
        for label in ("Ann-²", "Ann-١"):
            assert meld_label_parts(label) is None
            assert readable(meld_name(label)) == label


@pytest.mark.parametrize("starts, ends", [("9999-01-01", "9999-12-31"),
                                          ("9999-12-31", "9999-12-31"),
                                          ("1899-12-31", "1900-01-31")])
def test_a_season_past_the_days_a_league_keeps_is_refused(
        app: Flask, owner: FlaskClient, starts: str, ends: str) -> None:
    before = counts(app)
    answer = owner.post("/league/seasons", data={"new-name": "Far", "new-starts_on": starts,
                                                 "new-ends_on": ends})
    assert answer.status_code == 400
    assert "Seasons must fall between Jan 1, 1900 and Dec 31, 9998" in page(answer)
    assert counts(app) == before
    # the last day that is kept is a season's last day as any other
    kept = owner.post("/league/seasons", data={"new-name": "Last", "new-starts_on": "9998-01-01",
                                               "new-ends_on": "9998-12-31"})
    assert kept.status_code == 302
    assert owner.get("/league/").status_code == 200


def exported(app: Flask, client: FlaskClient) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(client.get("/league/export.json").get_data(as_text=True))
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
    return data


def import_refused(app: Flask, data: dict[str, Any]) -> str:
    """``data`` imported from a file (read as a stream, as every import reads it): the
    refusal in words; nothing is stored."""
    with app.test_request_context():
        stream = io.BytesIO(json.dumps(data).encode())
        with pytest.raises(LeagueImportError) as caught:
            import_league(read_league_file(stream))
        db.session.rollback()
        assert db.session.scalar(db.select(db.func.count(League.id))) == 0
        return say_all(caught.value.sentences)


def test_an_imported_season_past_the_days_a_league_keeps_is_refused(
        app: Flask, owner: FlaskClient) -> None:
    data = exported(app, owner)
    data["seasons"] = [{"name": "Far", "starts_on": "9998-06-01", "ends_on": "9999-12-31",
                        "created_at": "2026-01-01T00:00:00+00:00"}]
    said = import_refused(app, data)
    assert "ends_on must fall between Jan 1, 1900 and Dec 31, 9998: 9999-12-31" in said


@pytest.mark.parametrize("field, value", [
    ("started_at", "9999-12-31T23:59:59-12:00"),   # the year 10000, in UTC
    ("started_at", "0001-01-01T00:00:00+14:00"),   # the year 0, in UTC
    ("finished_at", "9999-12-31T12:00:00+00:00"),  # its season would end on date.max
    ("started_at", "9999-06-01T12:00:00+00:00"),
])
def test_an_imported_time_past_the_days_a_league_keeps_is_refused(
        app: Flask, owner: FlaskClient, field: str, value: str) -> None:
    data = exported(app, owner)
    data["games"][0][field] = value
    said = import_refused(app, data)
    assert f"Game 1 in the file: {field} must fall between Jan 1, 1900 and Dec 31, " \
           f"9998: {value}" in said, said
