"""A league moving between installs: the importer becomes its owner and is told so, a big
league's file gets past the body limit (before the CSRF check reads the form), and the
file's names are checked as the forms check them, never answered with a raw SQL error."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask

from scorebook.extensions import db
from scorebook.models import Game, League
from tests.reading import page


def exported(make_app: Callable[..., Flask]) -> dict[str, Any]:
    app = make_app()
    client = app.test_client()
    client.post("/games/new", data={"players-0": "Ann", "players-1": "Ben",
                                    "family": "rummy-500", "first_dealer": "0"})
    client.post("/games/1/hands/new", data={"number": "1", "players-0-melds": "7s 8s 9s",
                                            "players-1-hand": "kd", "outcome": "p0",
                                            # 13 were dealt each (§10): nobody remembers
                                            "missing_ok": ["Ann", "Ben"]})
    data = json.loads(client.get("/league/export.json").get_data(as_text=True))
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
    return data


def test_the_command_makes_the_importer_the_owner(make_app: Callable[..., Flask],
                                                  tmp_path: Path) -> None:
    data = exported(make_app)
    path = tmp_path / "league.json"
    path.write_text(json.dumps(data))
    app = make_app()
    runner = app.test_cli_runner()
    short = runner.invoke(args=["league", "import", str(path), "--password", "short"])
    assert short.exit_code != 0 and "from 8 to 200 characters" in short.output
    done = runner.invoke(args=["league", "import", str(path)],
                         input="a new password\na new password\n")
    assert done.exit_code == 0, done.output
    assert "You own it" in done.output and "/leagues/login" in done.output
    name = data["league"]["name"]
    login = app.test_client().post("/leagues/login", data={"name": name,
                                                           "password": "a new password"})
    assert login.status_code == 302


def test_the_web_import_takes_a_file_past_the_form_limit(make_app: Callable[..., Flask]
                                                         ) -> None:
    data = exported(make_app)
    data["league"]["name"] = "Moved here"
    app = make_app(WTF_CSRF_ENABLED=True, MAX_CONTENT_LENGTH=64 * 1024)
    client = app.test_client()
    client.post("/games/new", data={"players-0": "Cy", "players-1": "Dee"})  # no token: 400
    big = json.dumps(data, indent=1).encode() + b" " * (3 * 1024 * 1024)  # past 2 MB
    answer = client.post("/league/import", content_type="multipart/form-data",
                         data={"file": (io.BytesIO(big), "league.json")})
    assert answer.status_code != 413  # the form was read within the import's limit
    assert "stale" in page(answer) or answer.status_code in (302, 400)
    app = make_app()
    client = app.test_client()
    client.post("/games/new", data={"players-0": "Cy", "players-1": "Dee",
                                    "family": "rummy-500", "first_dealer": "0"})
    shown = page(client.get("/league/export"))
    assert "A file of up to 512 MB" in shown
    done = client.post("/league/import", content_type="multipart/form-data",
                       data={"file": (io.BytesIO(big), "league.json")})
    assert done.status_code == 302, page(done)[-2000:]
    assert "this browser owns it" in page(client.get(done.headers["Location"]))


def test_the_import_checks_names_as_the_forms_do(make_app: Callable[..., Flask]) -> None:
    data = exported(make_app)
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    client = app.test_client()
    client.post("/games/new", data={"players-0": "Cy", "players-1": "Dee",
                                    "family": "rummy-500", "first_dealer": "0"})
    cases = {
        "a NUL in a player's name": ("players", 0, "name", "Ann\x00"),
        "a bell in the league's name": ("league", None, "name", "Ours\x07"),
        "a long season name": ("seasons", 0, "name", "S" * 41),
        "a NUL in a change's summary": ("games", 0, "changes", None),
    }
    for what, (key, index, field, value) in cases.items():
        broken = json.loads(json.dumps(data))
        broken["league"]["name"] = "Renamed"
        if key == "seasons":
            broken["seasons"].append({"name": "x", "starts_on": "2001-01-01",
                                      "ends_on": "2001-02-01",
                                      "created_at": "2001-01-01T00:00:00+00:00"})
        target = broken[key] if index is None else broken[key][index]
        if field == "changes":
            target["changes"][0]["summary"] = "x\x00y"
        else:
            target[field] = value
        if key == "players":  # the name is also where it sits
            for game in broken["games"]:
                for seat in game["seats"]:
                    if seat["player"] == "Ann":
                        seat["player"] = value
        answer = client.post("/league/import", content_type="multipart/form-data", data={
            "file": (io.BytesIO(json.dumps(broken).encode()), "league.json")})
        assert answer.status_code == 400, what
        text = page(answer)
        assert "control characters" in text or "characters" in text or "NUL" in text, what
        assert "INSERT" not in text and "psycopg" not in text and "sqlite" not in text, what
    with app.app_context():
        assert [lg.name for lg in db.session.scalars(db.select(League))] != []


def test_a_file_broken_past_its_first_game_stores_nothing(make_app: Callable[..., Flask]
                                                          ) -> None:
    """The file is read as a stream, a game at a time: JSON that breaks after a whole
    game has been read (and stored, in the transaction) is refused in words, and the
    transaction leaves nothing behind."""
    data = exported(make_app)
    data["games"].append(data["games"][0])
    text = json.dumps(data, indent=1, sort_keys=True)
    second = text.index('"family"', text.index('"family"') + 1)  # inside the second game
    app = make_app()
    client = app.test_client()
    client.post("/games/new", data={"players-0": "Cy", "players-1": "Dee",
                                    "family": "rummy-500", "first_dealer": "0"})
    counts = (db.select(db.func.count(League.id)), db.select(db.func.count(Game.id)))
    with app.app_context():
        before = [db.session.scalar(c) for c in counts]
    assert before == [1, 1]  # this browser's league, with its game
    for broken in (text[:second] + "{oops", text[:second]):  # bad JSON; a file cut short
        answer = client.post("/league/import", content_type="multipart/form-data",
                             data={"file": (io.BytesIO(broken.encode()), "league.json")})
        assert answer.status_code == 400 and "not JSON" in page(answer)
        with app.app_context():
            assert [db.session.scalar(c) for c in counts] == before
    done = client.post("/league/import", content_type="multipart/form-data",
                       data={"file": (io.BytesIO(text.encode()), "league.json")})
    assert done.status_code == 302, page(done)[-2000:]
    with app.app_context():
        assert [db.session.scalar(c) for c in counts] == [2, 3]  # and both games of the file
