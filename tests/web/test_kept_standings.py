"""The standings page (``GET /league/``) kept whole (scorebook.web.pages): served to the
phone that reloads it while nothing of the league changed, and rendered again the
moment anything it shows may have: any game of the league (a hand saved or edited, a
game finished or started), a player renamed or retired, a season added, the league
renamed, a ratings replay under way; never another role's, language's or league's."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Game, League, Player, Season
from scorebook.services import access, games
from scorebook.web.pages import league_version

from .test_kept_pages import served
from .test_kept_pages_phones import PHONE, body, invite, phone
from .test_league import play

ONE_HAND = [({"Ann": {"melds": "as ah ad\n2s 3s 4s"}, "Ben": {"hand": "kh qh"}}, "Ann")]


@pytest.fixture
def league_id(app: Flask, client: FlaskClient, join) -> Iterator[int]:  # type: ignore[no-untyped-def]
    """The default league with one finished game of Ann and Ben; ``client`` owns it."""
    with app.test_request_context():
        the = games.default_league()
        join(client, the.id)
        play(["Ann", "Ben"], ONE_HAND, date(2026, 3, 1))
        found = the.id
        db.session.remove()
    yield found  # (no context left open: each request has its own session)


def kept_again(app: Flask, client: FlaskClient) -> str:
    """The standings twice: the second must come from the kept page, and be the same."""
    first = body(client, "/league/")
    before = served(app)
    second = body(client, "/league/")
    assert served(app) == before + 1, "the standings were not served kept"
    assert second == first
    return second


def fresh(app: Flask, client: FlaskClient) -> str:
    """The standings after a change: rendered by Flask, not the kept page."""
    before = served(app)
    page = body(client, "/league/")
    assert served(app) == before, "a kept page outlived a change"
    return page


def test_the_standings_are_kept_for_the_same_phone(app: Flask, client: FlaskClient,
                                                   league_id: int) -> None:
    page = kept_again(app, client)
    assert "Ann" in page and "Ben" in page
    assert body(client, "/league/?sort=name") != ""  # a query string: Flask's, as ever


def test_any_game_of_the_league_changes_the_standings(app: Flask, client: FlaskClient,
                                                      league_id: int) -> None:
    before = kept_again(app, client)
    with app.test_request_context():
        play(["Ann", "Ben"], ONE_HAND, date(2026, 3, 2))  # a second game, finished
    after = fresh(app, client)
    assert after != before
    assert kept_again(app, client) == after
    with app.test_request_context():  # an in-progress game started: its revision counts
        games.create_game(db.session.get(League, league_id), ["Ann", "Ben"], 0,
                          games.build_rules("rummy-500", {"target": 50}))
    fresh(app, client)
    kept_again(app, client)
    with app.app_context():  # any game's revision moving on (an edit, a status)
        game = db.session.scalars(db.select(Game).where(Game.league_id == league_id)).first()
        assert game is not None
        game.revision += 1
        db.session.commit()
    fresh(app, client)


def test_roster_seasons_and_the_league_name_change_the_standings(
        app: Flask, client: FlaskClient, league_id: int) -> None:
    kept_again(app, client)
    with app.app_context():
        ben = db.session.scalars(db.select(Player).where(Player.name == "Ben")).one()
        ben.name = "Benedetta"
        db.session.commit()
    assert "Benedetta" in fresh(app, client)
    kept_again(app, client)
    with app.app_context():
        db.session.add(Season(league_id=league_id, name="Spring 2026",
                              starts_on=date(2026, 3, 1), ends_on=date(2026, 5, 31)))
        db.session.commit()
    assert "Spring 2026" in fresh(app, client)
    kept_again(app, client)
    with app.app_context():
        league = db.session.get(League, league_id)
        assert league is not None
        league.name = "Kitchen table"
        db.session.commit()
    fresh(app, client)  # (the default league shows its name translated: rendered again)


def test_a_ratings_replay_is_never_kept() -> None:
    assert league_version(("A league", 3, None, 1, 2, 3, "1:Ann:", None))
    assert league_version(("A league", 3, 7, 1, 2, 3, "1:Ann:", None)) is None
    assert league_version(("A league", 3, None, 1, 2, 3, "1:Ann:", None)) != \
        league_version(("A league", 3, None, 1, 3, 3, "1:Ann:", None))


def test_roles_languages_and_leagues_get_their_own_standings(
        app: Flask, client: FlaskClient, league_id: int) -> None:
    owner = kept_again(app, client)
    viewer = phone(app, invite(app, league_id, access.VIEWER))
    seen = kept_again(app, viewer)
    assert "Settings" in owner and "Settings" not in seen
    spanish = body(viewer, "/league/", **{"Accept-Language": "es"})
    assert '<html lang="es"' in spanish and '<html lang="en"' in seen
    # the owner opens another league of theirs: its standings, not the first one's
    made = client.post("/leagues/new", data={"name": "Second table", "password": "a long password",
                                             "confirm": "a long password"})
    assert made.status_code == 302
    other = body(client, "/league/")
    assert "Second table" in other and "Second table" not in owner
    assert client.post(f"/leagues/{league_id}/open").status_code in (302, 303)
    assert body(client, "/league/") == owner


def test_an_ended_membership_gets_no_standings(app: Flask, client: FlaskClient,
                                               league_id: int) -> None:
    kept_again(app, client)
    scorer = phone(app, invite(app, league_id))
    kept_again(app, scorer)
    invite(app, league_id)  # the scorer link replaced: the phone is out
    answer = scorer.get("/league/", headers=PHONE)
    assert answer.status_code in (302, 303, 404)
    assert "Ann" not in answer.get_data(as_text=True)
