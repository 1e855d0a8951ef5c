"""Every time on a page is carried in UTC and worded in the phone's own time zone by the
page's script (issue 24): the server, which cannot know the reader's zone (a kept page
is shared by every phone of a league), words it in UTC and says "UTC", so a phone without
JavaScript knows which; exports keep ISO UTC."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime

from flask import Flask, render_template_string
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Game

TIME = re.compile(r'<time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)" data-local="(moment|day)"'
                  r' data-format="(\w+)">([^<]*)(<span class="utc-note"> UTC</span>)?</time>')


def play_a_game(client: FlaskClient) -> None:
    client.post("/games/new", data={"players-0": "Ann", "players-1": "Ben",
                                    "family": "rummy-500", "target": "20", "first_dealer": "0"})
    client.post("/games/1/hands/new", data={
        "number": "1", "players-0-melds": "as ah ad", "players-1-hand": "kh",
        "outcome": "p0", "missing_ok": ["Ann", "Ben"]})  # (RULES.md §10: asked, ticked)


def test_a_moment_is_a_time_element_in_utc_that_says_so(app: Flask) -> None:
    with app.test_request_context("/?lang=it"):
        html = render_template_string(
            "{{ _('Started %(when)s.', when=t|moment('short')) }}|{{ t|day }}|{{ d|day }}",
            t=datetime(2026, 12, 2, 4, 26, 31, 5000), d=date(2026, 1, 1))
    started, finished, first_day = html.split("|")
    moment = TIME.search(started)
    assert moment is not None, started
    assert moment.groups() == ("2026-12-02T04:26:31Z", "moment", "short", "02/12/26, 04:26",
                               '<span class="utc-note"> UTC</span>')
    on_day = TIME.search(finished)
    assert on_day is not None and on_day.group(2, 3, 4) == ("day", "medium", "2 dic 2026")
    assert on_day.group(5) is None  # a day says no hour, so no zone either
    assert first_day == "1 gen 2026"  # a season's first day is a calendar date, as it is


def test_the_pages_carry_every_time_in_utc(client: FlaskClient, app: Flask) -> None:
    play_a_game(client)
    with app.app_context():
        game = db.session.get(Game, 1)
        assert game is not None and game.finished_at is not None
        started, finished = game.started_at, game.finished_at
    board = client.get("/games/1").get_data(as_text=True)
    # (the undo offer's "until …" is a moment on the board too: the game's start is one)
    at = started.replace(tzinfo=UTC, microsecond=0).isoformat()[:19] + "Z"
    shown = next((m for m in TIME.finditer(board) if m.group(1) == at), None)
    assert shown is not None and shown.group(2) == "moment" and shown.group(5), board
    changes = client.get("/games/1/history").get_data(as_text=True)
    assert "when (UTC)" not in changes
    moments = [m for m in TIME.finditer(changes) if m.group(2) == "moment"]
    assert len(moments) == 2  # the game started, the hand recorded
    league = client.get("/league/history").get_data(as_text=True)
    day = TIME.search(league)
    assert day is not None and day.group(2) == "day"
    assert day.group(1) == finished.replace(tzinfo=UTC, microsecond=0).isoformat()[:19] + "Z"


def test_every_page_loads_the_script_that_words_them_where_the_phone_is(
        client: FlaskClient) -> None:
    for path in ("/", "/leagues", "/referee/"):
        assert "/static/js/local-time.js" in client.get(path).get_data(as_text=True)


def test_exports_keep_iso_utc(client: FlaskClient) -> None:
    play_a_game(client)
    export = json.loads(client.get("/league/export.json").get_data(as_text=True))
    game = export["games"][0]
    for value in (game["started_at"], game["finished_at"], export["league"]["created_at"]):
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00", value), value
    assert "<time" not in client.get("/league/results.csv").get_data(as_text=True)
