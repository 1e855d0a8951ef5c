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
    "missing_ok": ["Ann", "Ben"],  # 13 were dealt each (RULES.md §10): nobody remembers
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


def test_the_version_poll_is_one_statement_and_never_loads_the_game(
        app: Flask, client: FlaskClient) -> None:
    """A member's poll is answered before Flask (scorebook.web.poll): one statement on a raw
    connection (who may see the game and its version at once), no ORM query, no game,
    seat, player or hand loaded; answered 304 while nothing changed."""
    from sqlalchemy import event

    from scorebook.extensions import db
    from scorebook.web import poll

    game = start(client)
    version = version_of(client, game)
    middleware = app.wsgi_app
    while not isinstance(middleware, poll.PollMiddleware):  # (inside HSTS's)
        middleware = middleware.wrapped  # type: ignore[attr-defined]
    orm: list[str] = []
    loaded: list[object] = []

    def count(*args: object) -> None:
        orm.append(str(args[2]))

    def load(target: object, context: object) -> None:
        loaded.append(target)

    sent: list[str] = []
    execute = middleware._execute

    def spy(sql: str, params: tuple[object, ...]) -> object:
        sent.append(sql)
        return execute(sql, params)

    with app.app_context():
        middleware._execute = spy  # type: ignore[method-assign]
        event.listen(db.engine, "before_cursor_execute", count)
        event.listen(db.Model, "load", load, propagate=True)
        try:
            answers = [client.get(f"/games/{game}/version",
                                  headers={"If-None-Match": f'"{version}"'})
                       for _ in range(3)]
            fresh = client.get(f"/games/{game}/version", headers={"If-None-Match": '"old"'})
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
            event.remove(db.Model, "load", load)
            del middleware._execute
    assert [a.status_code for a in answers] == [304, 304, 304]
    assert answers[0].headers["ETag"] == f'"{version}"'
    assert answers[0].headers["Cache-Control"] == "no-cache"
    assert "Set-Cookie" not in answers[0].headers  # the poll never renews the cookie
    assert fresh.status_code == 200 and fresh.json == {"version": version}
    assert fresh.headers["X-Content-Type-Options"] == "nosniff"
    assert len(sent) == 4  # one statement an answer
    for sql in sent:
        assert " hand" not in sql and "seat" not in sql and "player" not in sql
    assert orm == [] and loaded == []


def test_the_poll_answers_strangers_and_ended_members_as_flask_does(
        app: Flask, client: FlaskClient) -> None:
    """What the fast path does not answer goes to Flask: a stranger (no cookie, or a
    cookie of another league), an unknown game, a forged cookie: all 404."""
    game = start(client)
    assert client.get("/games/999/version").status_code == 404
    stranger = app.test_client()
    assert stranger.get(f"/games/{game}/version").status_code == 404
    stranger.set_cookie("session", "forged.cookie.value")
    assert stranger.get(f"/games/{game}/version").status_code == 404
    assert client.get(f"/games/{10**30}/version").status_code == 404
