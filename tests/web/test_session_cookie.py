"""A member's phone on a slow network: its session cookie stays the same bytes from one
page to the next, and the static files never depend on it (issue 28, "warm page view by a
member").

Before, a permanent session (every phone that joined through an invite link, every owner
who logged in) was signed again on every page (Flask's ``SESSION_REFRESH_EACH_REQUEST``)
and every static file said ``Vary: Cookie``: each page view gave the phone a new cookie,
and the browser then held none of its cached static files good for it (7–8 requests
more on every warm view). Now the cookie is sent when the session changed, or once a day
(``SESSION_RENEW_AFTER``) to move its expiry on; static files never vary by it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.assets import IMMUTABLE
from scorebook.extensions import db
from scorebook.models import Game
from scorebook.services import access

from .test_kept_pages_phones import PHONE, invite, phone
from .test_live import start

STATIC = re.compile(r'(?:href|src)="(/static/[^"]+)"')


@pytest.fixture
def member(app: Flask, client: FlaskClient) -> tuple[FlaskClient, int]:
    """A phone that joined a game's league through its scorer link (a permanent session,
    as every real member's), and the game."""
    game = start(client)
    with app.app_context():
        found = db.session.get(Game, game)
        assert found is not None
        league_id = found.league_id
    ann = phone(app, invite(app, league_id), "Ann")
    with ann.session_transaction() as s:
        assert s.permanent
    return ann, game


def test_a_members_static_files_carry_no_cookie_and_no_vary_cookie(
        app: Flask, member: tuple[FlaskClient, int]) -> None:
    ann, game = member
    plain = ann.get(f"/games/{game}", headers={"Accept-Encoding": "identity"})
    urls = STATIC.findall(plain.get_data(as_text=True))
    assert any(u.startswith("/static/css/site.css?v=") for u in urls)
    assert any(u.startswith("/static/js/") for u in urls)
    for url in urls:
        answer = ann.get(url, headers=PHONE)
        assert answer.status_code == 200, url
        assert "Set-Cookie" not in answer.headers, url
        vary = [v.strip().lower() for v in answer.headers.get("Vary", "").split(",")]
        assert "cookie" not in vary, (url, answer.headers.get("Vary"))
        assert answer.headers["Cache-Control"] == IMMUTABLE, url  # fingerprinted: for good
    # a static file without its version is checked every time, and still not by cookie
    answer = ann.get("/static/js/live.js", headers=PHONE)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-cache"
    assert "Set-Cookie" not in answer.headers
    assert "cookie" not in answer.headers.get("Vary", "").lower()
    # a session that changed on a static request (a new CSRF token cannot, but say the
    # cookie is due) is still not sent by a static file
    app.config["SESSION_RENEW_AFTER"] = timedelta(0)
    assert "Set-Cookie" not in ann.get(urls[0], headers=PHONE).headers


@pytest.mark.parametrize("path", ["/games/{id}", "/games/{id}/hands/new", "/league/",
                                  "/leagues", "/games/{id}/history", "/"])
def test_a_plain_page_view_by_a_member_sends_no_cookie(
        app: Flask, member: tuple[FlaskClient, int], path: str) -> None:
    """Served by Flask or from the kept pages, a page that changes nothing in the session
    sends no cookie (the first view of a form page gives the session its CSRF token,
    once); the cookie the phone holds stays the same bytes."""
    ann, game = member
    path = path.format(id=game)
    first = ann.get(path, headers=PHONE)
    assert first.status_code == 200, path
    held = ann.get_cookie("session")
    assert held is not None
    for _ in range(3):
        answer = ann.get(path, headers=PHONE)
        assert answer.status_code == 200
        assert "Set-Cookie" not in answer.headers, (path, answer.headers["Set-Cookie"])
    cookie = ann.get_cookie("session")
    assert cookie is not None and cookie.value == held.value


def test_an_unchanged_cookie_is_renewed_once_it_is_due(
        app: Flask, member: tuple[FlaskClient, int]) -> None:
    """Its 400-day expiry still moves on with the visits: once a day at most."""
    ann, game = member
    assert "Set-Cookie" not in ann.get("/leagues").headers
    app.config["SESSION_RENEW_AFTER"] = timedelta(0)
    renewed = ann.get("/leagues").headers["Set-Cookie"]
    assert renewed.startswith("session=") and "Expires=" in renewed
    app.config["SESSION_RENEW_AFTER"] = timedelta(days=1)
    assert "Set-Cookie" not in ann.get("/leagues").headers
    # Flask's way, asked for: every answer
    app.config["SESSION_REFRESH_EACH_REQUEST"] = True
    assert "Set-Cookie" in ann.get("/leagues").headers


def test_logging_in_and_leaving_still_send_the_cookie(
        app: Flask, member: tuple[FlaskClient, int]) -> None:
    ann, game = member
    with app.app_context():
        league = access.create_league("The card table", "a good password")
        league_id = league.id
    owner = app.test_client()
    owner.get("/leagues/login")
    logged_in = owner.post("/leagues/login", data={"name": "The card table",
                                                   "password": "a good password"})
    assert logged_in.status_code == 302
    assert "session=" in logged_in.headers["Set-Cookie"]
    with owner.session_transaction() as s:
        assert str(league_id) in s["leagues"]
    assert "Set-Cookie" in owner.get("/leagues").headers  # its "Welcome back" shown: gone
    assert "Set-Cookie" not in owner.get("/leagues").headers
    # leaving ("log out" of a league on this browser)
    with app.app_context():
        found = db.session.get(Game, game)
        assert found is not None
        ann_league = found.league_id
    left = ann.post(f"/leagues/{ann_league}/leave")
    assert left.status_code == 302
    assert "session=" in left.headers["Set-Cookie"]
    with ann.session_transaction() as s:
        assert str(ann_league) not in s.get("leagues", {})
    # the language switch too
    switched = ann.get("/language/es?next=/")
    assert switched.status_code == 303 and "session=" in switched.headers["Set-Cookie"]
