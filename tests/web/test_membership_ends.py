"""Leaving a league ends the membership on the server (a copy of the cookie made before
leaving no longer reads or writes), and an invite link's token leaves the address bar at
once (redirected to /join, which holds no secret)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask

from scorebook.extensions import db
from scorebook.models import League
from scorebook.services import access


def test_a_cookie_copied_before_leaving_no_longer_works(make_app: Callable[..., Flask]
                                                        ) -> None:
    app = make_app()
    owner = app.test_client()
    owner.post("/games/new", data={"players-0": "Ann", "players-1": "Ben",
                                   "family": "rummy-500", "first_dealer": "0"})
    with app.app_context():
        league = db.session.scalar(db.select(League))
        assert league is not None
        league.scorer_token_hash = access.token_hash("s" * 43)
        db.session.commit()
        league_id = league.id
    phone = app.test_client()
    joined = phone.get("/join/" + "s" * 43)
    assert joined.status_code == 303 and joined.headers["Location"] == "/join"
    page = phone.get("/join")
    assert page.status_code == 200 and "s" * 43 not in page.get_data(as_text=True)
    assert phone.post("/join").status_code == 302
    assert phone.get("/games/1").status_code == 200
    copied = app.test_client()
    cookie = phone.get_cookie("session")
    assert cookie is not None
    copied.set_cookie("session", cookie.value)
    assert copied.get("/games/1").status_code == 200
    assert copied.get("/games/1/version").status_code == 200
    assert phone.post(f"/leagues/{league_id}/leave").status_code == 302
    assert phone.get("/games/1").status_code == 404
    assert copied.get("/games/1").status_code == 404  # ended on the server, not only here
    assert copied.get("/games/1/version").status_code == 404  # the poll's fast path too
    assert copied.post("/games/1/hands/new", data={"number": "1"}).status_code == 404
    rejoined = app.test_client()  # joining again makes a new membership, which works
    rejoined.get("/join/" + "s" * 43)
    rejoined.post("/join")
    assert rejoined.get("/games/1").status_code == 200


def test_a_membership_made_before_keys_gets_one(make_app: Callable[..., Flask]) -> None:
    app = make_app()
    owner = app.test_client()
    owner.post("/games/new", data={"players-0": "Ann", "players-1": "Ben",
                                   "family": "rummy-500", "first_dealer": "0"})
    with owner.session_transaction() as session:
        entry = session["leagues"]
        session["leagues"] = {k: v[:2] for k, v in entry.items()}  # an old cookie
    assert owner.get("/games/1").status_code == 200
    with owner.session_transaction() as session:
        assert all(len(v) == 3 for v in session["leagues"].values())
