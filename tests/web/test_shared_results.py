"""A finished game's result shared by link (scorebook.services.sharing): the link opens
for anyone, read-only, showing that one game and nothing else of the league; it is
unguessable, one per game; the owner sees every link and stops any; a stopped or unknown
link is a 404 that says so. On SQLite and PostgreSQL (``TEST_DATABASE_URL``)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import Change, Game, SharedResult
from scorebook.services import games
from scorebook.web.pages import PageMiddleware
from tests.reading import page as page_of
from tests.web.test_phones import NAMES, finished_game, new_game, play_hand

SHARE_URL = re.compile(r'data-share-url="http://localhost/results/([A-Za-z0-9_-]+)"')
NOT_SHARED = "This result is not shared any more, or the link is not complete."


def share(client: FlaskClient, game_id: int) -> str:
    """Make the game's link as this member would (the game page's Share, then *Make the
    link*); the token the game's page then sends."""
    manage = client.get(f"/games/{game_id}/share")
    assert manage.status_code == 200
    assert "Make the link" in manage.get_data(as_text=True)
    made = client.post(f"/games/{game_id}/share")
    assert made.status_code == 302 and made.headers["Location"] == f"/games/{game_id}/share"
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    found = SHARE_URL.search(board)
    assert found, "the game's Share button sends the shared link"
    return found.group(1)


def test_a_relative_outside_the_league_opens_the_shared_result(
        app: Flask, client: FlaskClient, join: Callable[..., None]) -> None:
    league_id, game_id = finished_game(app)
    join(client, league_id, "viewer")  # anyone who sees the game may share it
    token = share(client, game_id)
    relative = app.test_client()  # another browser, in no league at all
    opened = relative.get(f"/results/{token}")
    assert opened.status_code == 200
    text = page_of(opened)
    assert "Ann wins!" in text
    for name, total in (("Ann", "660"), ("Ben", "12"), ("Cy", "\u221218")):
        assert name in text and total in text
    assert "Family Q" not in text  # the league's name is not shown
    assert opened.headers["Cache-Control"] == "no-store"
    assert "noindex" in opened.headers["X-Robots-Tag"]
    # nothing on it leads into the league: no game, hand, history, player or league page
    links = re.findall(r'href="([^"]+)"', opened.get_data(as_text=True))
    assert not [href for href in links
                if href.startswith(("/games", "/league", "/leagues/", "/results"))], links
    assert "<form" not in opened.get_data(as_text=True)


def test_the_link_opens_nothing_else(app: Flask, client: FlaskClient,
                                     join: Callable[..., None]) -> None:
    """A stranger who opened the link is still a stranger to the league: every page of the
    game and the league is the 404 (or the way to log in) it was before, kept pages and
    the version poll included."""
    league_id, game_id = finished_game(app)
    join(client, league_id, "owner")
    token = share(client, game_id)
    client.get(f"/games/{game_id}")  # a member's visit keeps the page (scorebook.web.pages)
    relative = app.test_client()
    assert relative.get(f"/results/{token}").status_code == 200
    for path in (f"/games/{game_id}", f"/games/{game_id}/board", f"/games/{game_id}/version",
                 f"/games/{game_id}/history", f"/games/{game_id}/hands/1",
                 f"/games/{game_id}/share", f"/games/{game_id}/phones",
                 f"/api/v1/games/{game_id}", f"/league/games/{game_id}.csv",
                 f"/leagues/{league_id}/settings"):
        assert relative.get(path).status_code == 404, path
    assert relative.post(f"/games/{game_id}/share").status_code == 404
    assert relative.post(f"/games/{game_id}/share/stop").status_code == 404
    standings = relative.get("/league/")
    assert standings.status_code == 302 and standings.headers["Location"].startswith("/leagues")
    with relative.session_transaction() as session:
        assert not session.get("leagues")  # the link made it a member of nothing


def test_the_token_is_unguessable_and_one_per_game(app: Flask, client: FlaskClient,
                                                   join: Callable[..., None]) -> None:
    league_id, game_id = finished_game(app)
    join(client, league_id, "scorer")
    token = share(client, game_id)
    assert len(token) >= 43 and re.fullmatch(r"[A-Za-z0-9_-]+", token)  # 256 random bits
    assert str(game_id) not in token.split("-")
    assert client.post(f"/games/{game_id}/share").status_code == 302  # shared again:
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert SHARE_URL.findall(board) == [token]  # the same link
    with app.test_request_context():
        assert db.session.query(SharedResult).count() == 1
        first = db.session.get(Game, game_id)
        assert first is not None
        other = games.create_game(first.league, NAMES, 0, make_rules("pagat-500")).id
    for _ in range(3):
        play_hand(app, other)
    assert share(client, other) != token


def test_only_a_finished_game_is_shared(app: Flask, client: FlaskClient,
                                        join: Callable[..., None]) -> None:
    league_id, game_id = new_game(app)
    play_hand(app, game_id)
    join(client, league_id, "owner")
    assert "Only a finished game" in client.get(f"/games/{game_id}/share").get_data(
        as_text=True)
    refused = client.post(f"/games/{game_id}/share", follow_redirects=True)
    assert "Game 1 is not finished" in page_of(refused)
    with app.app_context():
        assert db.session.query(SharedResult).count() == 0


def test_the_owner_stops_the_link(app: Flask, client: FlaskClient,
                                  join: Callable[..., None]) -> None:
    league_id, game_id = finished_game(app)
    join(client, league_id, "owner")
    token = share(client, game_id)
    scorer = app.test_client()
    join(scorer, league_id, "scorer")
    assert scorer.post(f"/games/{game_id}/share/stop").status_code == 403  # the owner's
    manage = client.get(f"/games/{game_id}/share").get_data(as_text=True)
    assert f"/results/{token}" in manage and "Stop the link" in manage
    stopped = client.post(f"/games/{game_id}/share/stop", follow_redirects=True)
    assert "is no longer shared" in page_of(stopped)
    relative = app.test_client()
    gone = relative.get(f"/results/{token}")
    assert gone.status_code == 404
    assert NOT_SHARED in gone.get_data(as_text=True)
    assert token not in client.get(f"/games/{game_id}").get_data(as_text=True)
    # shared again: a new link; the old one stays shut
    again = share(client, game_id)
    assert again != token
    assert relative.get(f"/results/{token}").status_code == 404
    assert relative.get(f"/results/{again}").status_code == 200


@pytest.mark.parametrize("token", [
    "x" * 43, "short", "a" * 65, "%00" * 30, "a.b" * 15, "é" * 43, "a b c " * 8])
def test_an_unknown_link_is_a_clear_404(app: Flask, token: str) -> None:
    answer = app.test_client().get(f"/results/{token}")
    assert answer.status_code == 404
    assert NOT_SHARED in answer.get_data(as_text=True)


def test_the_owner_sees_every_shared_result_and_stops_one_there(
        app: Flask, client: FlaskClient, join: Callable[..., None]) -> None:
    league_id, first = finished_game(app)
    join(client, league_id, "owner")
    with app.app_context():
        league_of = db.session.get(Game, first).league_id  # type: ignore[union-attr]
    assert league_of == league_id
    token = share(client, first)
    settings = page_of(client.get(f"/leagues/{league_id}/settings"))
    assert "Shared results" in settings and "Game 1" in settings
    assert "Stop the link to game 1" in settings
    back = client.post(f"/games/{first}/share/stop",
                       data={"next": f"/leagues/{league_id}/settings#shared-results"})
    assert back.status_code == 302
    assert back.headers["Location"] == f"/leagues/{league_id}/settings#shared-results"
    assert "No result of this league is shared by link." in page_of(
        client.get(f"/leagues/{league_id}/settings"))
    assert app.test_client().get(f"/results/{token}").status_code == 404


def test_the_history_says_who_shared_and_who_stopped(app: Flask, client: FlaskClient,
                                                     join: Callable[..., None]) -> None:
    league_id, game_id = finished_game(app)
    join(client, league_id, "owner")
    share(client, game_id)
    client.post(f"/games/{game_id}/share/stop")
    with app.app_context():
        actions = [c.action for c in db.session.query(Change).filter_by(game_id=game_id)
                   .order_by(Change.id)]
    assert actions[-2:] == ["result-shared", "share-stopped"]
    history = page_of(client.get(f"/games/{game_id}/history"))
    assert "Result shared by link" in history and "Link to the result stopped" in history


def test_the_kept_scoreboard_follows_the_link(app: Flask, client: FlaskClient,
                                              join: Callable[..., None]) -> None:
    """The scoreboard kept before Flask (scorebook.web.pages) shows the link once made and
    drops it once stopped: making and stopping it move the game's version on."""
    league_id, game_id = finished_game(app)
    join(client, league_id, "owner")
    wsgi = app.wsgi_app
    while not isinstance(wsgi, PageMiddleware):
        wsgi = wsgi.wrapped  # type: ignore[attr-defined]
    for _ in range(2):
        board = client.get(f"/games/{game_id}").get_data(as_text=True)
    before = wsgi.served
    assert client.get(f"/games/{game_id}").get_data(as_text=True) == board
    assert wsgi.served == before + 1  # kept
    assert not SHARE_URL.search(board)
    token = share(client, game_id)
    assert token in client.get(f"/games/{game_id}").get_data(as_text=True)
    client.post(f"/games/{game_id}/share/stop")
    for path in (f"/games/{game_id}", f"/games/{game_id}/board"):
        assert token not in client.get(path).get_data(as_text=True)
