"""Who may do what, for every route of the app: built from the URL map, so a new route
that is missing from :data:`KINDS` fails this test until someone says who may use it.

Five browsers try every route and method: ``anonymous`` (no league), ``other`` (the
owner of another family's league), and league A's ``viewer``, ``scorer`` and
``owner``.  The URLs name league A's game, hand, player, season and league.

What each kind of route answers (decided in :mod:`scorebook.services.access`):

- a URL that names a game, or a league by id: a stranger gets **404**, exactly as for a
  game that does not exist (ids cannot be probed); a viewer may read (GET) and gets
  **403** for any change; scorers and the owner may change games; only the owner may
  change who may come in;
- a page that exists only to make a change (the form that records or edits a hand, the
  one that renames a player) answers a viewer **403** even to read it, before anything
  is typed into it;
- the league pages (``/league/…``) are about the browser's own open league: without
  one, a **302** to ``/leagues``; the owner of another league sees their own league
  there, and a 404 for league A's players and seasons;
- public pages (home, rule book, referee, the stateless JSON API, the league login and
  invite pages) answer everyone; so does a shared result's link (``/results/<token>``),
  which shows that one game's players and scores.

Strangers never see league A's name in any answer, nor its players' names but on the
shared result.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule

from app import create_app
from referee import make_rules, parse_cards
from scorebook.extensions import db
from scorebook.models import Job, League, Season, SharedResult
from scorebook.services import access, games, hands, undo
from scorebook.services import league as league_service
from scorebook.services.entry import entry_from_text
from tests.conftest import _test_config

ROLES = ("anonymous", "other", "viewer", "scorer", "owner")
SCORER_TOKEN = "scorer-token-of-family-a-0123456789abcdef"
VIEWER_TOKEN = "viewer-token-of-family-a-0123456789abcdef"
SHARE_TOKEN = "shared-result-of-family-a-0123456789abcdef"
A_NAME = "Family Zanzibar"
A_PLAYER = "Annunziata"
PASSWORD_HASH = access.hash_password("correct horse battery")  # hashed once: it is slow

# --- what each route is -----------------------------------------------------------------------

PUBLIC = "public"            # anyone
INVITE = "invite"            # anyone holding the invite token in its URL
GAME = "game"                # names a game: members; viewers read only
GAME_WRITE = "game-write"    # names a game, only a form for changing it: scorers and owner
GAME_MEMBER = "game-member"  # names a game: any member, whatever the method (share it)
GAME_OWNER = "game-owner"    # names a game: its league's owner only (stop its shared link)
SHARED = "shared"            # anyone holding a shared result's token: that one result
CURRENT = "current"          # the browser's open league: members; viewers read only
CURRENT_WRITE = "current-write"  # the open league, only a form for changing it: no viewers
CURRENT_OWNER = "current-owner"  # the open league, its owner only
CURRENT_READ = "current-read"  # the open league: every member, whatever the method
MEMBER = "member"            # names a league: any member
OWNER = "owner"              # names a league: its owner only
JOB = "job"                  # a background job: the browser that asked for it alone

KINDS: dict[str, str] = {
    "static": PUBLIC,
    "assets.stylesheet": PUBLIC,
    "main.home": PUBLIC,
    "language.choose": PUBLIC,
    "rulebook.index": PUBLIC,
    "rulebook.family": PUBLIC,
    "referee_pages.index": PUBLIC,
    "referee_pages.tool": PUBLIC,
    "api.openapi": PUBLIC,
    "league.export_schema": PUBLIC,  # the export format (a JSON Schema), not data
    "api.referee_meld": PUBLIC,
    "api.referee_layoff": PUBLIC,
    "api.referee_draw": PUBLIC,
    "api.referee_rummy_call": PUBLIC,
    "api.referee_going_out": PUBLIC,
    "api.referee_log": PUBLIC,  # (a played hand replayed: stateless, like the other questions)
    "api.score_hand": PUBLIC,
    "api.score_game": PUBLIC,
    "api.arrange": PUBLIC,
    "api.rules": PUBLIC,
    "games.new": PUBLIC,  # a browser without a league gets a private league of its own
    "access.leagues": PUBLIC,
    "access.new_league": PUBLIC,
    "access.login": PUBLIC,
    "access.join": INVITE,
    "access.invite": INVITE,  # /join: the invite this browser opened last
    "access.open_league": MEMBER,
    "access.leave": MEMBER,
    "leagues_api.standings": MEMBER,
    "access.settings": OWNER,
    "access.rename": OWNER,
    "access.password": OWNER,
    "access.new_link": OWNER,
    "access.revoke_link": OWNER,
    "games.show": GAME,
    "games.board": GAME,
    "games.changes": GAME,
    "games.abandon_game": GAME,
    "games.undo_change": GAME,
    "live.version": GAME,
    "hands.new": GAME_WRITE,
    "hands.show": GAME,
    "hands.replay": GAME,
    "hands.live_replay": GAME,
    "hands.edit": GAME_WRITE,
    "hands.delete": GAME,
    "hands.live": GAME,
    "hands.live_start": GAME,
    "hands.live_add_meld": GAME,
    "hands.live_add_layoff": GAME,
    "hands.live_take_back": GAME,
    "hands.live_finish": GAME,
    "hands.live_cancel": GAME,
    "games_api.read_game": GAME,
    "games_api.read_hand": GAME,
    "games_api.create_hand": GAME,
    "games_api.update_hand": GAME,
    "games_api.remove_hand": GAME,
    "games_api.read_undo": GAME,
    "games_api.undo_change": GAME,
    "games_api.read_played": GAME,  # a played hand's log (issue 29): as the live hand's moves
    "games_api.start_played_hand": GAME,
    "games_api.log_played_move": GAME,
    "games_api.undo_played_move": GAME,
    "league.game_export": GAME,
    "league.standings": CURRENT,
    "league.players": CURRENT,
    "league.player": CURRENT,
    "league.edit_player": CURRENT_WRITE,
    "league.merge_player": CURRENT_WRITE,
    "league.undo_merge": CURRENT,
    "league.retire_player": CURRENT,
    "league.history": CURRENT,
    "league.seasons": CURRENT,
    "league.edit_season": CURRENT,
    "league.delete_season": CURRENT,
    "league.export_page": CURRENT,
    "league.results_csv": CURRENT,
    "league.standings_csv_file": CURRENT,
    "league.export_json": CURRENT,
    "league.export_start": CURRENT_READ,  # (a job writing what export.json gives)
    "league.export_download": JOB,  # (an export asked for by none of the five browsers)
    "league.import_page": CURRENT_OWNER,
    "install.manifest": PUBLIC,
    "install.service_worker": PUBLIC,
    "install.offline": PUBLIC,
    "install.favicon": PUBLIC,
    "install.apple_touch_icon": PUBLIC,
    "phones.for_game": GAME_WRITE,  # scorers show the viewer code, the owner both
    "phones.for_league": CURRENT_WRITE,
    "phones.make_link": OWNER,
    "shared.result": SHARED,
    "shared.manage": GAME_MEMBER,  # any member may share a result they can see
    "shared.stop": GAME_OWNER,
    "games.rematch_game": GAME_WRITE,
    "stats.records": CURRENT,
    "stats.head_to_head": CURRENT,
    "stats.recap": CURRENT,
    "jobs.job_page": JOB,  # (league A's import, asked for by none of the five browsers)
    "jobs.job_json": JOB,
    "jobs_api.read_job": JOB,
    "jobs_api.list_jobs": PUBLIC,  # (each browser's own jobs: none of the five has one)
}

# --- the answers -------------------------------------------------------------------------------

ALLOW = "allowed"        # past the checks: whatever the route itself answers, never 403/404
NOT_FOUND = "404"
FORBIDDEN = "403"
TO_LEAGUES = "302 to /leagues"
SAFE = {"GET", "HEAD", "OPTIONS"}


def expected(kind: str, role: str, method: str, has_ids: bool) -> str:
    reading = method in SAFE
    member = role in ("viewer", "scorer", "owner")
    if kind in (PUBLIC, INVITE, SHARED):
        return ALLOW
    if kind == JOB:
        return NOT_FOUND
    if kind == GAME_MEMBER:
        return ALLOW if member else NOT_FOUND
    if kind == GAME_OWNER:
        if not member:
            return NOT_FOUND
        return ALLOW if role == "owner" else FORBIDDEN
    if kind in (GAME, GAME_WRITE):
        if not member:
            return NOT_FOUND
        if role == "viewer" and (kind == GAME_WRITE or not reading):
            return FORBIDDEN
        return ALLOW
    if kind in (CURRENT, CURRENT_WRITE, CURRENT_OWNER, CURRENT_READ):
        if role == "anonymous":
            return TO_LEAGUES
        if role == "other":  # their own league is open; league A's ids are not in it
            return NOT_FOUND if has_ids else ALLOW
        if kind == CURRENT_OWNER:
            return ALLOW if role == "owner" else FORBIDDEN
        if role == "viewer" and (kind == CURRENT_WRITE or (not reading
                                                           and kind != CURRENT_READ)):
            return FORBIDDEN
        return ALLOW
    if kind == MEMBER:
        return ALLOW if member else NOT_FOUND
    if kind == OWNER:
        if not member:
            return NOT_FOUND
        return ALLOW if role == "owner" else FORBIDDEN
    raise AssertionError(kind)


# --- the world: league A with a game (a recorded hand and a live one), league B ------------------


def build_world(app: Flask) -> dict[str, int]:
    with app.test_request_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
        a = League(name=A_NAME, password_hash=PASSWORD_HASH,
                   scorer_token_hash=access.token_hash(SCORER_TOKEN),
                   viewer_token_hash=access.token_hash(VIEWER_TOKEN))
        b = League(name="Family B", password_hash=PASSWORD_HASH)
        db.session.add_all([a, b])
        db.session.commit()
        names = [A_PLAYER, "Bartholomew"]
        game = games.create_game(a, names, 0, make_rules("rummy-500"))
        hands.record_hand(game, entry_from_text(
            names, {A_PLAYER: {"melds": "7s 8s 9s"}, "Bartholomew": {"hand": "kd"}},
            A_PLAYER, None, False, False), 1)
        live = hands.start_live(game)
        hands.live_meld(live, A_PLAYER, parse_cards("4c 4s 4d"))
        step = undo.latest(game.id)  # (that move, which a scorer may undo)
        assert step is not None
        season = Season(league=a, name="Summer", starts_on=date(2026, 6, 1),
                        ends_on=date(2026, 8, 31))
        db.session.add(season)
        games.create_game(b, ["Bea", "Bo"], 0, make_rules("basic"))
        db.session.add(SharedResult(game_id=game.id, league_id=a.id, token=SHARE_TOKEN))
        db.session.commit()
        player = next(s.player_id for s in game.seats)
        twice = [league_service.add_player(a, name) for name in ("Zed", "Zedd")]
        merge = league_service.merge_players(*twice)  # (an undoable step of league A's)
        job = Job(kind="league-import", owner=f"league:{a.id}", league_id=a.id, payload={})
        db.session.add(job)
        db.session.commit()
        return {"league_a": a.id, "league_b": b.id, "game": game.id, "player": player,
                "season": season.id, "merge": merge.id, "step": step.id, "job": job.id}


def url_args(rule: Rule, world: dict[str, int]) -> dict[str, Any]:
    token = SHARE_TOKEN if rule.endpoint == "shared.result" else SCORER_TOKEN
    values = {"game_id": world["game"], "number": 1, "player_id": world["player"],
              "season_id": world["season"], "league_id": world["league_a"],
              "role": "scorer", "token": token, "code": "es", "merge_id": world["merge"],
              "job_id": world["job"],
              "family": "rummy-500", "slug": "meld", "filename": "css/app.css",
              "step_id": world["step"]}
    missing = rule.arguments - values.keys()
    assert not missing, f"{rule.rule}: no test value for {missing}; add one to url_args()"
    return {name: values[name] for name in rule.arguments}


def browser(app: Flask, role: str, world: dict[str, int]) -> FlaskClient:
    client = app.test_client()
    with app.app_context(), client.session_transaction() as session:
        if role == "other":
            access.remember(session, db.session.get(League, world["league_b"]), access.OWNER)
        elif role != "anonymous":
            access.remember(session, db.session.get(League, world["league_a"]), role)
    return client


def ask(client: FlaskClient, method: str, url: str) -> Any:
    if method in ("PUT", "DELETE", "PATCH"):
        return client.open(url, method=method, json={})
    if method == "POST":
        return client.post(url, data={})
    return client.open(url, method=method)


def answer(response: Any) -> str:
    if response.status_code == 404:
        body = response.get_json(silent=True) or {}
        if (body.get("error") or {}).get("code") == "not-played":
            return ALLOW  # past the checks: the game has no hand logged turn by turn
        if response.headers.get("X-Scorebook-Missing") == "log":
            return ALLOW  # past the checks: the replay page of a hand not logged
        return NOT_FOUND
    if response.status_code == 403:
        return FORBIDDEN
    if response.status_code == 302:
        where = urlsplit(response.headers["Location"])
        if where.path == "/leagues" and where.query.startswith("next="):
            return TO_LEAGUES
    assert response.status_code < 500, response.status_code
    return ALLOW


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[Flask]:
    """Its own SQLite file (the world is rebuilt often), high rate limits."""
    yield make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'authz.sqlite3'}",
                   SQLALCHEMY_ENGINE_OPTIONS={}, PASSWORD_RATE_LIMIT="10000 per minute",
                   INVITE_RATE_LIMIT="10000 per minute")


def test_every_route_is_in_the_table(app: Flask) -> None:
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    assert endpoints - KINDS.keys() == set(), "say in KINDS who may use these routes"
    assert KINDS.keys() - endpoints == set(), "KINDS names routes that are gone"


def route_methods() -> list[tuple[str, str, str]]:
    """``(rule, endpoint, method)`` for every route and method of the app (HEAD and
    OPTIONS aside: Flask answers them for every route alike)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "SECRET_KEY": "routes", "SQLALCHEMY_DATABASE_URI":
                          f"sqlite:///{Path(folder) / 'routes.sqlite3'}"}, instance_path=folder)
        return sorted((rule.rule, rule.endpoint, method) for rule in app.url_map.iter_rules()
                      for method in (rule.methods or set()) - {"HEAD", "OPTIONS"})


ROUTE_METHODS = route_methods()
#: One test per route, method and role, named so a failure says which.
MATRIX = [pytest.param(rule, endpoint, method, role, id=f"{method} {rule} as {role}")
          for rule, endpoint, method in ROUTE_METHODS for role in ROLES]


def test_the_matrix_covers_every_route_method_and_role(app: Flask) -> None:
    """The parametrized cases are the app's URL map, all of it, times every role."""
    live = {(rule.rule, rule.endpoint, method) for rule in app.url_map.iter_rules()
            for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}}
    assert set(ROUTE_METHODS) == live
    assert {tuple(case.values) for case in MATRIX} == \
        {(*route, role) for route in live for role in ROLES}
    assert {endpoint for _, endpoint, _ in ROUTE_METHODS} == KINDS.keys()


class World:
    """League A and B as :func:`build_world` made them, for the matrix's tests in one
    worker: rebuilt only when a test may have changed it."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.ids: dict[str, int] | None = None

    def clean(self) -> dict[str, int]:
        if self.ids is None:
            self.ids = build_world(self.app)
        return self.ids


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One app for the whole matrix (its own SQLite file), its world kept between tests
    that only read."""
    folder = tmp_path_factory.mktemp("authz")
    app = create_app(_test_config(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{folder / 'authz.sqlite3'}",
        SQLALCHEMY_ENGINE_OPTIONS={}, PASSWORD_RATE_LIMIT="10000 per minute",
        INVITE_RATE_LIMIT="10000 per minute"), instance_path=folder / "instance")
    yield World(app)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize(("rule", "endpoint", "method", "role"), MATRIX)
def test_route_for_role(world: World, rule: str, endpoint: str, method: str,
                        role: str) -> None:
    """What ``role`` gets from ``method`` on ``rule``; strangers never see league A."""
    app, kind = world.app, KINDS[endpoint]
    ids = world.clean()
    changing = method not in SAFE
    if changing:
        world.ids = None  # a change spoils the world for the next test, unless refused
    route = next(r for r in app.url_map.iter_rules()
                 if r.rule == rule and r.endpoint == endpoint)
    has_ids = bool(route.arguments & {"player_id", "season_id", "merge_id"})
    with app.test_request_context():
        from flask import url_for

        url = url_for(endpoint, **url_args(route, ids))
    response = ask(browser(app, role, ids), method, url)
    got, want = answer(response), expected(kind, role, method, has_ids)
    assert got == want, f"{method} {url} as {role}: {got} ({response.status_code}), " \
        f"expected {want}"
    if changing and got != ALLOW:
        world.ids = ids  # refused: nothing was changed
    binary = endpoint == "static" or response.mimetype.startswith("image/")
    if role in ("anonymous", "other") and kind != INVITE and not binary:
        body = response.get_data(as_text=True)
        assert A_NAME not in body, f"{method} {url} as {role} shows league A's name"
        assert kind == SHARED or A_PLAYER not in body, \
            f"{method} {url} as {role} shows league A's data"


def test_a_refused_api_request_is_json(app: Flask) -> None:
    world = build_world(app)
    viewer = browser(app, "viewer", world)
    refused = viewer.post(f"/api/v1/games/{world['game']}/hands", json={})
    assert refused.status_code == 403
    assert refused.get_json()["error"]["code"] == "forbidden"
    assert "scorer link" in refused.get_json()["error"]["message"]
    stranger = browser(app, "other", world)
    hidden = stranger.get(f"/api/v1/games/{world['game']}")
    assert hidden.status_code == 404 and hidden.get_json()["error"]["code"] == "not_found"
    assert stranger.get(f"/api/v1/games/{world['game'] + 100}").get_json() == hidden.get_json()


def test_a_viewer_is_refused_a_form_before_filling_it_in(app: Flask) -> None:
    """The 403 for a page that is only a form says why, as the 403 for its POST does."""
    world = build_world(app)
    viewer = browser(app, "viewer", world)
    game = world["game"]
    for url in (f"/games/{game}/hands/new", f"/games/{game}/hands/1/edit",
                f"/league/players/{world['player']}/edit"):
        refused = viewer.get(url)
        assert refused.status_code == 403, url
        body = refused.get_data(as_text=True)
        assert "Your link lets you follow this league, not change it." in body, url
        assert "<form" not in body, url
    scorer = browser(app, "scorer", world)
    assert scorer.get(f"/games/{game}/hands/1/edit").status_code == 200
    assert scorer.get(f"/league/players/{world['player']}/edit").status_code == 200
