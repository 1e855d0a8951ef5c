"""Live scoreboards: the game's version, answered 304 while nothing changed, and the
version a scoreboard page was built from (what ``static/js/live.js`` compares)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

HAND = {
    "number": "1",
    "players-0-melds": "7s 8s 9s", "players-0-hand": "kd",
    "players-1-melds": "4c 4s 4d\n10h jh qh",
    "outcome": "p1",
}


def start(client: FlaskClient) -> int:
    response = client.post("/games/new", data={
        "players-0": "Ann", "players-1": "Ben", "family": "rummy-500", "first_dealer": "0",
        "min_natural_cards": "1"})
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])


def version_of(client: FlaskClient, game: int) -> str:
    response = client.get(f"/games/{game}/version")
    assert response.status_code == 200
    assert response.headers["ETag"] == f'"{response.json["version"]}"'
    return str(response.json["version"])


def shown_version(client: FlaskClient, game: int) -> str:
    page = client.get(f"/games/{game}").get_data(as_text=True)
    match = re.search(r'data-live-version="([^"]*)"', page)
    assert match, "the scoreboard does not say which version it shows"
    return match.group(1)


def test_an_unchanged_game_answers_304(client: FlaskClient) -> None:
    game = start(client)
    version = version_of(client, game)
    again = client.get(f"/games/{game}/version", headers={"If-None-Match": f'"{version}"'})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["Cache-Control"] == "no-cache"


def test_recording_a_hand_changes_the_version(client: FlaskClient) -> None:
    game = start(client)
    before = version_of(client, game)
    assert client.post(f"/games/{game}/hands/new", data=HAND).status_code == 302
    after = version_of(client, game)
    assert after != before
    stale = client.get(f"/games/{game}/version", headers={"If-None-Match": f'"{before}"'})
    assert stale.status_code == 200
    assert stale.json["version"] == after


def test_editing_deleting_and_live_moves_change_the_version(client: FlaskClient) -> None:
    game = start(client)
    seen = {version_of(client, game)}
    client.post(f"/games/{game}/hands/new", data=HAND)
    seen.add(version_of(client, game))
    edited = {**HAND, "version": "1", "players-0-hand": "kd qd"}
    assert client.post(f"/games/{game}/hands/1/edit", data=edited).status_code == 302
    seen.add(version_of(client, game))
    assert client.post(f"/games/{game}/hands/1/delete", data={"version": "2"}).status_code == 302
    seen.add(version_of(client, game))
    assert client.post(f"/games/{game}/hands/live/start").status_code == 302
    seen.add(version_of(client, game))
    assert len(seen) == 5


def test_the_scoreboard_shows_the_version_it_was_built_from(client: FlaskClient) -> None:
    game = start(client)
    assert shown_version(client, game) == version_of(client, game)
    client.post(f"/games/{game}/hands/new", data=HAND)
    assert shown_version(client, game) == version_of(client, game)
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert f'data-live-version-url="/games/{game}/version"' in page
    assert 'id="live-board" data-live-region' in page
    assert "js/live.js" in page


def test_an_unknown_game_has_no_version(client: FlaskClient) -> None:
    assert client.get("/games/999/version").status_code == 404


def test_a_background_refresh_leaves_the_flash_for_the_page(client: FlaskClient) -> None:
    game = start(client)
    client.post(f"/games/{game}/hands/new", data=HAND)  # flashes "Hand 1 saved."
    refresh = client.get(f"/games/{game}", headers={"X-Live-Refresh": "1"})
    assert "Hand 1 saved." not in refresh.get_data(as_text=True)
    assert "Hand 1 saved." in client.get(f"/games/{game}").get_data(as_text=True)


def test_the_version_costs_two_queries(app: Flask, client: FlaskClient) -> None:
    """One for who may see the game (scorebook.access), one for its version."""
    from sqlalchemy import event

    from scorebook.extensions import db

    game = start(client)
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            client.get(f"/games/{game}/version")
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 2
