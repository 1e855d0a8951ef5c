"""Every member can leave a league from a page it can open, and the owner sees who left
(issue 24): a phone that joined with an invite (scorer or viewer) had no Leave it could
reach, since the only one was on the owner's Settings page (403 for it)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import EndedMembership, League
from scorebook.services import access
from tests.reading import readable as read

PHONE = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/131.0 Mobile Safari/537.36")


def a_league(app: Flask) -> tuple[FlaskClient, int]:
    """The owner's browser (it started a game, then set a password) and its league."""
    owner = app.test_client()
    owner.post("/games/new", data={"players-0": "Ann", "players-1": "Ben",
                                   "family": "rummy-500", "first_dealer": "0"})
    with app.app_context():
        league_id = db.session.scalar(db.select(League.id))
    assert owner.post(f"/leagues/{league_id}/password", data={
        "password": "a long secret", "confirm": "a long secret"}).status_code == 302
    with app.app_context():
        league = db.session.get(League, league_id)
        assert league is not None and league.password_hash
        league.scorer_token_hash = access.token_hash("s" * 43)
        league.viewer_token_hash = access.token_hash("v" * 43)
        db.session.commit()
        return owner, league.id


def invited(app: Flask, token: str, name: str) -> FlaskClient:
    phone = app.test_client()
    phone.get("/join/" + token)
    assert phone.post("/join", data={"player": name},
                      headers={"User-Agent": PHONE}).status_code == 302
    return phone


@pytest.mark.parametrize(("token", "role_words"), [("s" * 43, "a scorer"),
                                                   ("v" * 43, "a viewer")])
def test_a_phone_that_joined_with_an_invite_leaves_from_a_page_it_can_open(
        make_app: Callable[..., Flask], token: str, role_words: str) -> None:
    app = make_app()
    owner, league_id = a_league(app)
    phone = invited(app, token, "Uncle Joe")
    assert phone.get(f"/leagues/{league_id}/settings").status_code == 403  # (as before)
    # the league's tabs and its list of leagues lead to a page that says what leaving means
    standings = phone.get("/league/").get_data(as_text=True)
    assert f'href="/leagues/{league_id}/leave"' in standings
    assert f'href="/leagues/{league_id}/leave"' in phone.get("/leagues").get_data(as_text=True)
    page = phone.get(f"/leagues/{league_id}/leave")
    assert page.status_code == 200
    text = read(page.get_data(as_text=True))
    assert "This phone will no longer see the league" in text
    assert "ask its owner for an invite link" in text
    left = phone.post(f"/leagues/{league_id}/leave", headers={"User-Agent": PHONE})
    assert left.status_code == 302 and left.headers["Location"] == "/leagues"
    assert "has left" in read(phone.get("/leagues").get_data(as_text=True))
    assert phone.get("/games/1").status_code == 404  # out
    # the owner sees who left, as what, and when
    settings = owner.get(f"/leagues/{league_id}/settings").get_data(as_text=True)
    who = html.unescape(read(settings))
    assert "Who left" in who
    assert "Uncle Joe's phone (Chrome · Android)" in who
    assert role_words in who
    assert re.search(r'left <time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"', settings)
    with app.app_context():
        gone = db.session.scalar(db.select(EndedMembership))
        assert gone is not None and (gone.player, gone.device) == ("Uncle Joe",
                                                                   "Chrome · Android")


def test_an_owner_without_a_password_is_told_to_set_one_first(
        make_app: Callable[..., Flask]) -> None:
    app = make_app()
    owner = app.test_client()
    owner.post("/games/new", data={"players-0": "Ann", "players-1": "Ben",
                                   "family": "rummy-500", "first_dealer": "0"})
    with app.app_context():
        league_id = db.session.scalar(db.select(League.id))
    page = read(owner.get(f"/leagues/{league_id}/leave").get_data(as_text=True))
    assert "Set a password first" in page
    assert owner.post(f"/leagues/{league_id}/leave").status_code == 302
    assert owner.get("/games/1").status_code == 200  # still in: nothing was lost


def test_a_stranger_cannot_see_the_leave_page(make_app: Callable[..., Flask]) -> None:
    app = make_app()
    _owner, league_id = a_league(app)
    assert app.test_client().get(f"/leagues/{league_id}/leave").status_code == 404
