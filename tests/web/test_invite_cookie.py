"""The session cookie is signed, not encrypted: on a LAN's plain http anyone who reads it
reads what it holds. It holds no invite token, so reading it opens no league to
anyone but its holder (whose cookie is a membership anyway).

- The owner's browser keeps, for each link it made, a *seed* the server makes the
  link's token from with the ``SECRET_KEY`` (:func:`scorebook.services.invites.link_token`),
  so its settings and "Add a phone" pages still show the very link it made.
- A phone that opened an invite link and has not yet tapped *Join* keeps a note of the
  door, not the token.
- A cookie of an older version, which kept the tokens, loses them at the next request.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Game
from scorebook.services import access


def cookie_of(app: Flask, client: FlaskClient) -> tuple[str, dict[str, Any]]:
    """The session cookie as sent, and what it holds (read as Flask reads it)."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    return cookie.value, serializer.loads(cookie.value)


def start(app: Flask, client: FlaskClient) -> tuple[int, int]:
    """A quick game: the browser owns a new league; (league id, game id)."""
    answer = client.post("/games/new", data={"players-0": "Ann", "players-1": "Ben",
                                             "family": "rummy-500", "first_dealer": "0"})
    assert answer.status_code == 302
    game_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        return game.league_id, game_id


def tokens_shown(client: FlaskClient, league_id: int) -> dict[str, str]:
    """The invite links' tokens the settings page shows this browser."""
    page = client.get(f"/leagues/{league_id}/settings").get_data(as_text=True)
    return dict(re.findall(r'id="(scorer|viewer)-url"[^>]*value="http://localhost/join/([^"?]+)"',
                           page))


def test_the_owners_cookie_holds_no_invite_token(app: Flask) -> None:
    owner = app.test_client()
    league_id, game_id = start(app, owner)
    # the scorer link made in the settings, the viewer link on "Add a phone"
    assert owner.post(f"/leagues/{league_id}/links/scorer").status_code == 302
    assert owner.post(f"/leagues/{league_id}/phones/viewer",
                      data={"next": f"/games/{game_id}/phones"}).status_code == 302
    shown = tokens_shown(owner, league_id)
    assert set(shown) == {"scorer", "viewer"}
    assert all("." not in token and len(token) == 43 for token in shown.values())
    phones = owner.get(f"/games/{game_id}/phones").get_data(as_text=True)
    for token in shown.values():  # the very links it made, not door tokens
        assert f"/join/{token}?next=/games/{game_id}" in phones.replace("&amp;", "&")
    raw, held = cookie_of(app, owner)
    text = json.dumps(held)
    for token in shown.values():
        assert token not in text and token not in raw
        assert access.token_hash(token) not in text
    assert "links" not in held and set(held["link_seeds"]) == {f"{league_id}:scorer",
                                                                f"{league_id}:viewer"}
    # each link works, for whoever was sent it
    phone = app.test_client()
    assert phone.get(f"/join/{shown['scorer']}", follow_redirects=True).status_code == 200
    assert phone.post("/join").status_code == 302
    assert phone.post(f"/games/{game_id}/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9s", "players-1-hand": "kd",
        "outcome": "p0", "missing_ok": ["Ann", "Ben"]}).status_code == 302
    # a new link replaces the old one, shown in its place; the old one stops
    assert owner.post(f"/leagues/{league_id}/links/scorer").status_code == 302
    again = tokens_shown(owner, league_id)
    assert again["scorer"] != shown["scorer"] and again["viewer"] == shown["viewer"]
    assert app.test_client().get(f"/join/{shown['scorer']}").status_code == 404
    assert again["scorer"] not in json.dumps(cookie_of(app, owner)[1])
    # stopped, it is no longer shown (nor kept)
    assert owner.post(f"/leagues/{league_id}/links/scorer/revoke").status_code == 302
    assert "scorer" not in tokens_shown(owner, league_id)
    assert set(cookie_of(app, owner)[1]["link_seeds"]) == {f"{league_id}:viewer"}


def test_a_phone_that_opened_an_invite_keeps_no_token(app: Flask) -> None:
    owner = app.test_client()
    league_id, game_id = start(app, owner)
    owner.post(f"/leagues/{league_id}/links/viewer")
    token = tokens_shown(owner, league_id)["viewer"]
    phone = app.test_client()
    opened = phone.get(f"/join/{token}?next=/games/{game_id}")
    assert opened.status_code == 303 and opened.headers["Location"] == "/join"
    raw, held = cookie_of(app, phone)
    assert token not in raw and token not in json.dumps(held)
    assert held["invite"][:2] == [league_id, "viewer"]
    assert "follow" in phone.get("/join").get_data(as_text=True)
    joined = phone.post("/join")
    assert joined.status_code == 302 and joined.headers["Location"] == f"/games/{game_id}"
    assert phone.get(f"/games/{game_id}").status_code == 200
    assert "invite" not in cookie_of(app, phone)[1]
    # a note whose door changed since opens nothing
    other = app.test_client()
    other.get(f"/join/{token}")
    owner.post(f"/leagues/{league_id}/links/viewer")  # replaced
    stopped = other.post("/join")
    assert stopped.status_code == 404 and "does not work" in stopped.get_data(as_text=True)
    assert other.get(f"/games/{game_id}").status_code == 404


def test_an_older_cookie_loses_the_tokens_it_kept(app: Flask) -> None:
    owner = app.test_client()
    league_id, game_id = start(app, owner)
    owner.post(f"/leagues/{league_id}/links/scorer")
    token = "t" * 43
    with owner.session_transaction() as session:
        session["links"] = {f"{league_id}:scorer": token}
        session["invite"] = token
    assert owner.get("/").status_code == 200
    raw, held = cookie_of(app, owner)
    assert "links" not in held and f"{league_id}:scorer" in held["link_seeds"]
    assert owner.get("/join").status_code == 400  # the invite must be opened again
    assert token not in json.dumps(cookie_of(app, owner)[1])
