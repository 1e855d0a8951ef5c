"""Whole pages kept and served before Flask (scorebook.web.pages): the scoreboard and the
record-hand form. A kept page is never another session's, another version's, another
language's or another role's, and its CSRF token is this session's own."""

from __future__ import annotations

import gzip
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.web.pages import PageMiddleware

from .test_live import HAND, start

TOKEN = re.compile(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"')


def served(app: Flask) -> int:
    wsgi = app.wsgi_app
    # (inside the version poll's, HSTS's and the trusted proxies' ProxyFix, whose is .app)
    while not isinstance(wsgi, PageMiddleware):
        wsgi = getattr(wsgi, "wrapped", None) or wsgi.app  # type: ignore[attr-defined]
    return wsgi.served


def page(client: FlaskClient, path: str, **headers: str) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200
    return response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/games/{id}", "/games/{id}/hands/new"])
def test_a_kept_page_is_the_page_flask_renders(app: Flask, client: FlaskClient,
                                               path: str) -> None:
    game = start(client)
    path = path.format(id=game)
    page(client, path)
    first = page(client, path)
    before = served(app)
    second = page(client, path)
    assert served(app) == before + 1  # the second came from the kept page
    assert TOKEN.sub("", first) == TOKEN.sub("", second)
    assert bool(TOKEN.search(first)) == bool(TOKEN.search(second))


def test_the_kept_page_compressed_is_the_same_page(app: Flask, client: FlaskClient) -> None:
    game = start(client)
    plain = page(client, f"/games/{game}")
    response = client.get(f"/games/{game}", headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert response.headers["Content-Security-Policy"]
    unpacked = gzip.decompress(response.get_data()).decode()
    assert TOKEN.sub("", unpacked) == TOKEN.sub("", plain)
    assert int(response.headers["Content-Length"]) == len(response.get_data())


def test_the_token_of_a_kept_page_is_accepted(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    token = TOKEN.search(page(client, "/games/new"))
    assert token
    response = client.post("/games/new", data={
        "csrf_token": token.group(1), "players-0": "Ann", "players-1": "Ben",
        "family": "rummy-500", "first_dealer": "0", "min_natural_cards": "1"})
    assert response.status_code == 302
    game = int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    page(client, f"/games/{game}")
    page(client, f"/games/{game}")
    before = served(app)
    kept = page(client, f"/games/{game}")
    assert served(app) == before + 1
    token = TOKEN.search(kept)
    assert token
    page(client, f"/games/{game}/hands/new")
    page(client, f"/games/{game}/hands/new")
    record = page(client, f"/games/{game}/hands/new")
    assert served(app) >= before + 2
    sent = TOKEN.search(record)
    assert sent, "the kept record page lost its CSRF token"
    with client.session_transaction() as s:
        raw = s["csrf_token"]
    from itsdangerous import URLSafeTimedSerializer

    assert URLSafeTimedSerializer(app.secret_key, salt="wtf-csrf-token").loads(
        sent.group(1)) == raw
    response = client.post(f"/games/{game}/abandon", data={"csrf_token": token.group(1),
                                                            "version": ""})
    assert response.status_code in (302, 400)
    assert response.status_code != 400 or "CSRF" not in response.get_data(as_text=True)


def test_another_session_gets_its_own_token_and_role(app: Flask, client: FlaskClient) -> None:
    game = start(client)
    page(client, f"/games/{game}")
    mine = page(client, f"/games/{game}")
    other = app.test_client()
    # the same league, another browser, as a viewer (its invite link)
    from scorebook.extensions import db
    from scorebook.models import Game
    from tests.conftest import join_league

    with app.app_context():
        league_id = db.session.get(Game, game).league_id  # type: ignore[union-attr]
    join_league(app, other, league_id, "viewer")
    page(other, f"/games/{game}")
    theirs = page(other, f"/games/{game}")
    before = served(app)
    theirs_again = page(other, f"/games/{game}")
    assert served(app) == before + 1
    assert "Abandon this game" in mine and "Abandon this game" not in theirs_again
    assert "Add a phone" not in theirs_again
    assert TOKEN.sub("", theirs) == TOKEN.sub("", theirs_again)
    with client.session_transaction() as s:
        raw_mine = s["csrf_token"]
    assert not TOKEN.search(theirs_again)  # a viewer's page has no form
    from itsdangerous import URLSafeTimedSerializer

    check = URLSafeTimedSerializer(app.secret_key, salt="wtf-csrf-token")
    token = TOKEN.search(mine)
    assert token and check.loads(token.group(1)) == raw_mine


def test_a_new_version_is_never_served_stale(app: Flask, client: FlaskClient) -> None:
    game = start(client)
    page(client, f"/games/{game}")
    page(client, f"/games/{game}")
    assert "Hand 1" not in page(client, f"/games/{game}").split("live-board")[1]
    assert client.post(f"/games/{game}/hands/new", data=HAND).status_code == 302
    after = page(client, f"/games/{game}")  # (the flash: Flask's)
    assert "Hand 1 saved." in after
    kept = page(client, f"/games/{game}")
    assert "Hand 1 saved." not in kept
    assert f'href="/games/{game}/hands/1"' in kept


def test_the_language_is_part_of_the_key(app: Flask, client: FlaskClient) -> None:
    game = start(client)
    english = page(client, f"/games/{game}", **{"Accept-Language": "en"})
    page(client, f"/games/{game}", **{"Accept-Language": "en"})
    spanish = page(client, f"/games/{game}", **{"Accept-Language": "es"})
    assert '<html lang="en"' in english and '<html lang="es"' in spanish
    with client.session_transaction() as s:
        s["lang"] = "it"
    page(client, f"/games/{game}", **{"Accept-Language": "es"})
    italian = page(client, f"/games/{game}", **{"Accept-Language": "es"})
    assert '<html lang="it"' in italian


def test_flashed_messages_and_strangers_go_to_flask(app: Flask, client: FlaskClient) -> None:
    game = start(client)
    page(client, f"/games/{game}")
    with client.session_transaction() as s:
        s["_flashes"] = [("message", "A note for this phone.")]
    before = served(app)
    assert "A note for this phone." in page(client, f"/games/{game}")
    assert served(app) == before
    stranger = app.test_client()
    assert stranger.get(f"/games/{game}").status_code == 404
    with client.session_transaction() as s:
        s["leagues"] = {}
    assert client.get(f"/games/{game}").status_code == 404


def test_a_session_without_a_token_is_given_one(app: Flask, client: FlaskClient) -> None:
    game = start(client)
    page(client, f"/games/{game}")
    with client.session_transaction() as s:
        del s["csrf_token"]
    page(client, f"/games/{game}")  # kept although the page gave the session a token
    with client.session_transaction() as s:
        del s["csrf_token"]
    before = served(app)
    response = client.get(f"/games/{game}")
    assert served(app) == before + 1
    assert "session=" in response.headers["Set-Cookie"]
    with client.session_transaction() as s:
        raw = s["csrf_token"]
    from itsdangerous import URLSafeTimedSerializer

    token = TOKEN.search(response.get_data(as_text=True))
    if token:
        assert URLSafeTimedSerializer(app.secret_key, salt="wtf-csrf-token").loads(
            token.group(1)) == raw
