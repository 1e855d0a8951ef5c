"""The league export's format, declared once (scorebook.services.export_format): the
published JSON Schema is generated from the models the import validates with, the site
serves it, an export is valid by it, and a malformed, hostile or huge file is refused with
a 400 in words that name the game, the hand and the field, never a 500."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from flask import Flask

from scorebook.extensions import db
from scorebook.models import Game, League, Player
from scorebook.presenters.sentences import say_all
from scorebook.services.export_format import SCHEMA_FILE, SCHEMA_PATH, json_schema, schema_text
from scorebook.services.exports import LeagueImportError, import_league
from tests.reading import page
from tests.web.test_league_moves import exported

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_schema_is_the_one_the_models_give() -> None:
    """docs/league-export.schema.json is out of date when this fails: regenerate it with
    `python -m scorebook.services.export_format > docs/league-export.schema.json`."""
    assert (ROOT / SCHEMA_FILE).read_text(encoding="utf-8") == schema_text()


def test_the_site_serves_the_schema_and_the_export_page_links_it(app: Flask) -> None:
    client = app.test_client()
    answer = client.get(SCHEMA_PATH)  # no league needed: it is the format, not data
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert answer.get_json() == json_schema()
    client.post("/games/new", data={"players-0": "Ann", "players-1": "Ben",
                                    "family": "rummy-500", "first_dealer": "0"})
    assert f'href="{SCHEMA_PATH}"' in page(client.get("/league/export"))


def test_an_export_is_valid_by_the_schema_and_a_broken_one_is_not(
        make_app: Callable[..., Flask]) -> None:
    data = exported(make_app)
    schema = jsonschema_rs.validator_for(json_schema())
    assert data["games"][0]["hands"] and data["games"][0]["changes"]
    assert schema.is_valid(data), list(schema.iter_errors(data))[:3]
    for broken in ({**data, "version": 2}, {**data, "games": [{}]}):
        assert not schema.is_valid(broken)
    data["games"][0]["hands"][0]["scores"][0]["score"] = True
    assert not schema.is_valid(data)


def deep(depth: int) -> str:
    """JSON nested ``depth`` lists deep."""
    return "[" * depth + "]" * depth


#: Each case: what is changed in the file (a function of its parsed JSON, or of its text),
#: and words the refusal must hold.
CASES: dict[str, tuple[Callable[[Any], Any], tuple[str, ...]]] = {
    "a wrong type in a hand": (
        lambda d: d["games"][0]["hands"][0].update(going_rummy="no"),
        ("Game 1 in the file, hand 1:", "going_rummy has the wrong type")),
    "a number written as text": (
        lambda d: d["games"][0].update(target="500"),
        ("Game 1 in the file:", "target has the wrong type")),
    "a float for a whole number": (
        lambda d: d["games"][0]["seats"][0].update(position=0.0),
        ("Game 1 in the file:", "position has the wrong type")),
    "null seats": (lambda d: d["games"][0].update(seats=None),
                   ("Game 1 in the file:", "seats has the wrong type")),
    "a score that is no object": (
        lambda d: d["games"][0]["hands"][0].update(scores=[1]),
        ("Game 1 in the file, hand 1:", "scores has the wrong type")),
    "an unknown ending": (lambda d: d["games"][0]["hands"][0].update(ending="fold"),
                          ("Game 1 in the file, hand 1:", "Unknown hand ending: fold")),
    "an unknown status": (lambda d: d["games"][0].update(status="paused"),
                          ("Game 1 in the file:", "Unknown game status: paused")),
    "details that are no object": (
        lambda d: d["games"][0]["changes"][0].update(details="x"),
        ("Game 1 in the file:", "details must be an object")),
    "a bad card": (lambda d: d["games"][0]["hands"][0]["melds"][0]["cards"][0].update(
        card="7X"), ("Game 1 in the file, hand 1:", "“7X” is not a card")),
    "a bad date": (lambda d: d["games"][0].update(started_at="yesterday"),
                   ("Game 1 in the file:", "started_at is not a date and time: yesterday")),
    "a huge hand number": (lambda d: d["games"][0]["hands"][0].update(number=2**31),
                           ("Game 1 in the file:", "number is out of range (2147483648)")),
    "a huge meld position": (
        lambda d: d["games"][0]["hands"][0]["melds"][0].update(position=2**40),
        ("Game 1 in the file, hand 1:", "position is out of range")),
    "a huge negative card position": (
        lambda d: d["games"][0]["hands"][0]["melds"][0]["cards"][0].update(position=-2**40),
        ("Game 1 in the file, hand 1:", "position is out of range")),
    "a huge hand in the history": (
        lambda d: d["games"][0]["changes"][0].update(hand=2**62),
        ("Game 1 in the file:", "hand is out of range")),
    "a huge score": (lambda d: d["games"][0]["hands"][0]["scores"][0].update(score=2**32),
                     ("Game 1 in the file, hand 1:", "score is out of range")),
    "a number past 64 bits": (lambda d: d["games"][0].update(target=10**30),
                              ("That file is not JSON",)),
    "an escaped NUL in a meld's id": (
        lambda d: d["games"][0]["hands"][0]["melds"][0].update(label="m\x001"),
        ("NUL character",)),
    "markup for a player's name": (
        lambda d: d["games"][0]["seats"][0].update(player="<img src=x onerror=alert(1)>"),
        ("Game 1 in the file:", "does not list: &lt;img src=x onerror=alert(1)&gt;")),
    "deep JSON in a history entry": (
        lambda d: d["games"][0]["changes"][0].update(details={"a": json.loads(deep(40))}),
        ("Game 1 in the file:", "details are too long")),
    "deep JSON for a game": (lambda d: d.update(games=[json.loads(deep(50))]),
                             ("Game 1 in the file:", "games has the wrong type ([[[[[...]]]]])")),
    "deep JSON for the players": (lambda d: d.update(players=json.loads(deep(50))),
                                  ("players has the wrong type",)),
    "deep JSON in the rules": (lambda d: d["games"][0]["rules"].update(
        low_ace_value=json.loads(deep(50))), ("Game 1 in the file:", "do not go together")),
    "JSON nested too deep": (  # (a property the format does not name: still refused)
        lambda d: json.dumps({**d, "extra": "@"}).replace('"@"', deep(100000)).encode(),
        ("nests its values more than 64 deep",)),
    "a list for the file": (lambda d: [d], ("not a Rummy Scorebook league export",)),
    "a newer version": (lambda d: d.update(version=2),
                        ("version (2) cannot be read here",)),
    "a bool for the version": (lambda d: d.update(version=True),
                               ("version (True) cannot be read here",)),
}


def refused(make_app: Callable[..., Flask], body: bytes) -> tuple[Flask, str]:
    """``body`` sent to the import page of an install with one game of Cy and Dee: the
    app and the page, which must be a 400."""
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    client = app.test_client()
    client.post("/games/new", data={"players-0": "Cy", "players-1": "Dee"})
    answer = client.post("/league/import", content_type="multipart/form-data", data={
        "file": (io.BytesIO(body), "league.json")})
    text = page(answer)
    assert answer.status_code == 400, text[-1500:]
    return app, text


@pytest.mark.parametrize("case", CASES)
def test_a_hostile_file_is_refused_in_words_with_a_400(
        make_app: Callable[..., Flask], case: str) -> None:
    change, words = CASES[case]
    data = exported(make_app)
    changed = change(data)
    body = changed if isinstance(changed, bytes) else json.dumps(
        data if changed is None else changed).encode()
    app, text = refused(make_app, body)
    for word in words:
        assert word in text, (word, text[text.find('id="import-error"'):][:600])
    with app.app_context():  # nothing of the file stored
        assert db.session.scalar(db.select(db.func.count(League.id))) == 1
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 1
        assert {p.name for p in db.session.scalars(db.select(Player))} == {"Cy", "Dee"}


@pytest.mark.parametrize("body", [
    b'{"format": "rummy-scorebook/league", "version": 1, "league": {"name": "x\x00"}}',
    b"\x00\x00\x00",
    deep(100000).encode(),
    b'{"format": "rummy-scorebook/league", "version": 1, "games": ' + deep(100000).encode()
    + b"}",
    b'{"format": "rummy-scorebook/league", "version": 1, "players": '
    + deep(100000).encode() + b"}",
    "{\"league\": \"\udcff\"}".encode("utf-8", "surrogatepass"),
], ids=["raw NUL in a string", "NUL bytes", "deep list", "deep games", "deep players",
        "bad UTF-8"])
def test_a_file_that_is_no_league_export_is_a_400(make_app: Callable[..., Flask],
                                                   body: bytes) -> None:
    _app, text = refused(make_app, body)
    assert ("not JSON" in text or "not a Rummy Scorebook league export" in text
            or "nests its values more than 64 deep" in text), text[-1500:]


def test_a_broken_character_is_refused_before_anything_is_stored(
        make_app: Callable[..., Flask]) -> None:
    """An unpaired surrogate (which no database stores): through the web ijson reads it as
    "?"; given to the import as a value, it is refused in words."""
    data = exported(make_app)
    data["games"][0]["changes"][0]["summary"] = "x \ud800 y"
    app = make_app()
    with app.test_request_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
        with pytest.raises(LeagueImportError) as caught:
            import_league(data)
        assert "NUL character or a broken one" in say_all(caught.value.sentences)
        assert db.session.scalar(db.select(db.func.count(League.id))) == 0


def test_the_command_words_a_refusal_as_the_page_does(make_app: Callable[..., Flask],
                                                      tmp_path: Path) -> None:
    data = exported(make_app)
    data["games"][0]["hands"][0]["melds"][0]["cards"][0]["card"] = "7X"
    path = tmp_path / "league.json"
    path.write_text(json.dumps(data))
    runner = make_app().test_cli_runner()
    refused = runner.invoke(args=["league", "import", str(path), "--password", "a password"])
    assert refused.exit_code != 0
    assert "Game 1 in the file, hand 1: “7X” is not a card" in refused.output, refused.output
    path.write_bytes(b"{nope")
    broken = runner.invoke(args=["league", "import", str(path), "--password", "a password"])
    assert broken.exit_code != 0 and "the file is not JSON" in broken.output


def test_the_file_is_read_from_its_start_wherever_the_stream_stands() -> None:
    from scorebook.services.exports import StreamedGames, read_league_file

    stream = io.BytesIO(json.dumps({"format": "rummy-scorebook/league", "version": 1,
                                    "games": [{"family": "basic"}]}).encode())
    stream.read()  # (at its end, as after an upload's checks)
    data = read_league_file(stream)
    assert data["format"] == "rummy-scorebook/league" and data["version"] == 1
    assert isinstance(data["games"], StreamedGames)
    assert list(data["games"]) == [{"family": "basic"}]
    assert read_league_file(stream)["version"] == 1  # and again
