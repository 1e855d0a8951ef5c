"""What text the site stores, the same on both databases (``TEST_DATABASE_URL``).

- **An imported file's broken characters.** ijson's C backend (yajl) reads the JSON escape
  of a lone surrogate, ``"\\ud800"``, as ``?`` and pairs ``"\\ud800\\u0041"`` into one
  other character, so a name with one was stored as something the file does not say.
  The import reads the file's escapes before it parses it, and refuses one that is not
  half of a pair, as the API refuses such a name.
- **Column lengths.** PostgreSQL refuses a text longer than its column; SQLite stores it,
  so a league imported there (a history entry's 10,000-character ``action``) could never
  move to PostgreSQL. Every write is checked against the models' lengths in one place
  (:class:`scorebook.models.TooLong`, before each flush), on both databases, and the
  import words it.
- **Form bodies that are not UTF-8** were read with U+FFFD (multipart) or ``%FF``
  (urlencoded) in place of what was sent, or as no form at all: they are a 400 that says
  so, and nothing is stored.
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
from scorebook.models import Change, League, Player, TooLong
from scorebook.presenters.sentences import say_all
from scorebook.services.exports import LeagueImportError, import_league, read_league_file
from tests.reading import page, readable


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app(PROPAGATE_EXCEPTIONS=False)


@pytest.fixture
def owner(app: Flask) -> FlaskClient:
    """A browser owning a league with a game of Ann and Ben, hand 1 recorded."""
    client = app.test_client()
    assert client.post("/games/new", data={
        "players-0": "Ann", "players-1": "Ben", "family": "rummy-500", "first_dealer": "0",
        "min_natural_cards": "1"}).status_code == 302
    assert client.post("/games/1/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9s", "players-1-hand": "kd",
        "outcome": "p0", "missing_ok": ["Ann", "Ben"]}).status_code == 302
    return client


def exported(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """The league's file; the database emptied, to import it again."""
    data: dict[str, Any] = json.loads(client.get("/league/export.json").get_data(as_text=True))
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
    return data


def renamed(data: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """The file with the player ``old`` called ``new`` wherever the file names them."""
    text = json.dumps(data)  # (ASCII: a surrogate is written as its escape, \\ud800)
    return json.loads(text.replace(json.dumps(old), json.dumps(new)))


def read_and_import(app: Flask, body: bytes) -> League | str:
    """``body`` imported as a file is read (as a stream): the league, or the refusal in
    words (then nothing is stored)."""
    with app.test_request_context():
        try:
            league = import_league(read_league_file(io.BytesIO(body)))
        except LeagueImportError as refused:
            db.session.rollback()
            assert db.session.scalar(db.select(db.func.count(League.id))) == 0
            return say_all(refused.sentences)
        names = sorted(p.name for p in league.players)
        db.session.expunge_all()
        return f"stored: {names}"


@pytest.mark.parametrize("escaped", ["Ann\\ud800", "\\ud800Ann", "Ann\\udfff",
                                     "Ann\\ud800\\u0041", "Ann\\ud800\\ud800\\udc00",
                                     "Ann\\udc00\\ud800"])
def test_an_imported_name_with_a_lone_surrogate_is_refused(
        app: Flask, owner: FlaskClient, escaped: str) -> None:
    data = exported(app, owner)
    body = json.dumps(data).replace('"Ann"', f'"{escaped}"').encode()
    said = read_and_import(app, body)
    assert "The file holds a NUL character or a broken one" in said, said


def test_an_imported_name_with_a_surrogate_pair_is_stored(app: Flask,
                                                          owner: FlaskClient) -> None:
    data = renamed(exported(app, owner), "Ann", "Ann \U0001F600")
    body = json.dumps(data).encode()
    assert b"\\ud83d\\ude00" in body
    assert read_and_import(app, body) == "stored: ['Ann \U0001F600', 'Ben']"
    # a backslash written as an escape, then "ud800" as text: no surrogate at all
    data = renamed(data, "Ben", "Ben \\ud800")
    body = json.dumps(data).encode()
    assert b"Ben \\\\ud800" in body
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
    assert read_and_import(app, body) == "stored: ['Ann \U0001F600', 'Ben \\\\ud800']"


@pytest.mark.parametrize("field, value, longest", [
    ("action", "x" * 10_000, 20), ("device", "d" * 81, 80), ("session", "s" * 17, 16)])
def test_an_imported_history_field_longer_than_its_column_is_refused(
        app: Flask, owner: FlaskClient, field: str, value: str, longest: int) -> None:
    data = exported(app, owner)
    data["games"][0]["changes"][0][field] = value
    said = readable(read_and_import(app, json.dumps(data).encode()))
    assert said == (f"Game 1 in the file: {field} in the file is longer than {longest} "
                    f"characters: {value[:40]}"), said


def test_every_write_keeps_to_the_columns_lengths(app: Flask, owner: FlaskClient) -> None:
    """The limits of the models hold on SQLite as on PostgreSQL: checked before each
    flush, whatever writes."""
    with app.app_context():
        league = db.session.scalars(db.select(League)).one()
        db.session.add(Player(league=league, name="P" * 41))
        with pytest.raises(TooLong) as caught:
            db.session.flush()
        assert (caught.value.table, caught.value.column, caught.value.length) == (
            "player", "name", 40)
        db.session.rollback()
        change = db.session.scalars(db.select(Change)).first()
        assert change is not None
        action = change.action
        change.action = "a" * 21
        with pytest.raises(TooLong):
            db.session.commit()
        db.session.rollback()
        assert db.session.scalar(db.select(db.func.count(Player.id))) == 2
        assert db.session.get(Change, change.id).action == action  # type: ignore[union-attr]


def players(app: Flask) -> list[str]:
    with app.app_context():
        return sorted(db.session.scalars(db.select(Player.name)))


def multipart(name: str, value: bytes) -> tuple[bytes, str]:
    body = (b"--XyZ\r\nContent-Disposition: form-data; name=\"" + name.encode()
            + b"\"\r\n\r\n" + value + b"\r\n--XyZ--\r\n")
    return body, "multipart/form-data; boundary=XyZ"


@pytest.mark.parametrize("how", ["multipart", "percent", "raw"])
def test_a_form_body_that_is_not_utf8_is_refused(app: Flask, owner: FlaskClient,
                                                 how: str) -> None:
    if how == "multipart":
        body, kind = multipart("add-name", b"Zo\xeb")  # Latin-1, not UTF-8
    else:
        body = b"add-name=Zo%EB" if how == "percent" else b"add-name=Zo\xeb"
        kind = "application/x-www-form-urlencoded"
    answer = owner.post("/league/players", data=body, content_type=kind)
    assert answer.status_code == 400
    assert "not UTF-8" in page(answer)
    queued = owner.post("/games/1/hands/new", data=body, content_type=kind,
                        headers={"X-Scorebook-Send": "queued", "Accept": "application/json"})
    assert queued.status_code == 400 and "not UTF-8" in queued.get_json()["error"]["message"]
    assert players(app) == ["Ann", "Ben"]
    # the same name in UTF-8 is stored as typed
    body, kind = multipart("add-name", "Zoë".encode())
    assert owner.post("/league/players", data=body, content_type=kind).status_code == 302
    assert owner.post("/league/players", data={"add-name": "Éva"}).status_code == 302
    assert players(app) == ["Ann", "Ben", "Zoë", "Éva"]


class Trickle(io.BytesIO):
    """A file read ``step`` bytes at a time, whatever is asked for."""

    def __init__(self, data: bytes, step: int) -> None:
        super().__init__(data)
        self.step = step

    def read(self, size: int | None = -1) -> bytes:
        return super().read(self.step if size is None or size < 0 else min(size, self.step))


@pytest.mark.parametrize("text, broken", [
    (r'["a\ud83d\ude00b", "\\ud800", "\n\u0041", "\\\ud83d\ude00"]', False),
    (r'["\ud800x"]', True), (r'["x\ud800"]', True), (r'["\udc00"]', True),
    (r'["\ud800\u0041"]', True), (r'["\ud800\n"]', True), (r'["\\\ud800"]', True),
    (r'"\ud800', True)])
def test_surrogate_escapes_are_found_wherever_the_reads_cut_the_file(
        text: str, broken: bool) -> None:
    from scorebook.services.exports import _Surrogates

    for step in range(1, 14):
        reader = _Surrogates(Trickle(text.encode(), step))
        try:
            while reader.read(64):
                pass
        except LeagueImportError:
            assert broken, (text, step)
        else:
            assert not broken, (text, step)


def test_a_write_too_long_for_its_column_is_a_400_wherever_it_comes_from(
        make_app: Callable[..., Flask]) -> None:
    """The forms and the services refuse long texts in their own words; should a write
    get past them, the flush refuses it on either database, and the visitor gets a 400."""
    app = make_app(PROPAGATE_EXCEPTIONS=False)

    def sneak() -> str:
        from scorebook.services.transaction import transaction

        with transaction():
            db.session.add(League(name="L" * 81))
        return "stored"

    app.add_url_rule("/sneak", "sneak", sneak, methods=["POST"])
    answer = app.test_client().post("/sneak")
    assert answer.status_code == 400
    assert "longer than the 80 characters it may have: nothing was saved" in page(answer)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(League.id))) == 0
