"""Private leagues as a family uses them: a quick game gives the browser a league of its
own, invite links let the others in as scorers or viewers, the owner's password opens
the league anywhere; links and passwords can be changed and then stop working.  And
what a stranger tries: other leagues' pages, guessing passwords, forged forms, script
in names, SQL in every field."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Game, Hand, League, Player
from scorebook.services import access
from tests.reading import page

HAND = {"number": "1", "players-0-melds": "7s 8s 9s", "players-1-hand": "kd", "outcome": "p0",
        "missing_ok": ["Ann", "Ben"]}  # fewer cards than dealt (§10): nobody remembers
PASSWORD = "correct horse battery"


def text(response: object) -> str:
    return re.sub(r"\s+", " ", page(response))


def start(client: FlaskClient, names: tuple[str, ...] = ("Ann", "Ben")) -> int:
    data = {f"players-{i}": n for i, n in enumerate(names)}
    data.update({"family": "rummy-500", "first_dealer": "0", "min_natural_cards": "1"})
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, text(response)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def league_of(app: Flask, game_id: int) -> League:
    with app.app_context():
        league = db.session.get(Game, game_id).league  # type: ignore[union-attr]
        db.session.expunge(league)
        return league


def make_link(client: FlaskClient, league_id: int, role: str) -> str:
    """The owner makes the role's invite link; the path of the link shown."""
    assert client.post(f"/leagues/{league_id}/links/{role}").status_code == 302
    page = client.get(f"/leagues/{league_id}/settings").get_data(as_text=True)
    found = re.search(rf'id="{role}-url"[^>]*value="http://localhost(/join/[^"]+)"', page)
    assert found, page
    return found.group(1)


def join(client: FlaskClient, link: str) -> None:
    assert client.get(link, follow_redirects=True).status_code == 200
    assert client.post(link).status_code == 302


@pytest.fixture
def owner(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def phone(app: Flask) -> FlaskClient:
    """Another browser."""
    return app.test_client()


# --- a quick game ------------------------------------------------------------------------------


def test_a_quick_game_gets_a_private_league_of_its_own(app: Flask, owner: FlaskClient,
                                                       phone: FlaskClient) -> None:
    game = start(owner)
    league = league_of(app, game)
    assert league.name.startswith("Our table ")
    assert league.password_hash is None
    assert "Ann" in text(owner.get("/")) and league.name in text(owner.get("/"))
    # a stranger's phone sees none of it, and its own game goes into its own league
    home = text(phone.get("/"))
    assert "Ann" not in home and league.name not in home
    assert phone.get(f"/games/{game}").status_code == 404
    assert phone.get("/league/").headers["Location"] == "/leagues?next=/league/"
    other = start(phone, ("Cy", "Dee"))
    assert league_of(app, other).id != league.id
    assert "Cy" not in text(owner.get("/")) and "Ann" not in text(phone.get("/"))
    # the owner's next game goes into the same league
    assert league_of(app, start(owner, ("Ann", "Eve"))).id == league.id
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(League.id))) == 2


def test_the_membership_cookie_outlives_the_browser_session(owner: FlaskClient) -> None:
    start(owner)
    cookie = owner.get_cookie("session")
    assert cookie is not None and cookie.expires is not None  # kept across restarts
    assert cookie.http_only and cookie.same_site == "Lax"


# --- invite links ------------------------------------------------------------------------------


def test_scorer_and_viewer_links(app: Flask, owner: FlaskClient, phone: FlaskClient) -> None:
    game = start(owner)
    league = league_of(app, game)
    viewer_link = make_link(owner, league.id, "viewer")
    assert "follow" in text(phone.get(viewer_link, follow_redirects=True))
    join(phone, viewer_link)
    assert phone.get(f"/games/{game}").status_code == 200
    assert phone.get("/league/").status_code == 200
    refused = phone.post(f"/games/{game}/hands/new", data=HAND)
    assert refused.status_code == 403 and "scorer link" in text(refused)
    assert phone.get(f"/leagues/{league.id}/settings").status_code == 403
    scorer_link = make_link(owner, league.id, "scorer")
    join(phone, scorer_link)
    assert phone.post(f"/games/{game}/hands/new", data=HAND).status_code == 302
    # joining with the viewer link again never demotes the scorer
    join(phone, viewer_link)
    assert "You record hands." in text(phone.get("/leagues"))
    assert phone.get(f"/leagues/{league.id}/settings").status_code == 403
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 1


def _controls(page: str, controls: list[str]) -> list[str]:
    return [c for c in controls if c in page]


def test_a_viewer_is_shown_no_control_it_cannot_use(app: Flask, owner: FlaskClient,
                                                    phone: FlaskClient) -> None:
    """Every page a viewer can read, read by a viewer and by a scorer of the same league:
    the scorer gets each button and form that changes something, the viewer none."""
    game = start(owner)
    league = league_of(app, game)
    assert owner.post(f"/games/{game}/hands/new", data=HAND).status_code == 302
    assert owner.post("/league/seasons", data={
        "new-name": "Summer", "new-starts_on": "2026-06-01",
        "new-ends_on": "2026-08-31"}).status_code == 302
    join(phone, make_link(owner, league.id, "viewer"))
    scorer = app.test_client()
    join(scorer, make_link(owner, league.id, "scorer"))
    with app.app_context():
        ann = db.session.scalar(db.select(Player.id).where(Player.name == "Ann"))
    board = f"/games/{game}"
    pages = {
        "/": [f'href="{board}/hands/new"'],
        board: [f'href="{board}/hands/new"', "Record hand 2", f'href="{board}/hands/live"',
                "Play it live", f'action="{board}/abandon"', "Abandon this game",
                "edit or delete it"],
        f"{board}/hands/1": [f'href="{board}/hands/1/edit"', "Edit this hand",
                             f'action="{board}/hands/1/delete"', "Delete this hand"],
        f"{board}/hands/live": [f'action="{board}/hands/live/start"', "Start hand 2 live"],
        "/league/players": ['action="/league/players"', "Add a player",
                            f'href="/league/players/{ann}/edit"'],
        f"/league/players/{ann}": [f'href="/league/players/{ann}/edit"',
                                   "Rename, retire or merge"],
        "/league/seasons": ['action="/league/seasons', "New season", "Change Summer",
                            "Delete Summer"],
    }
    for url, controls in pages.items():
        seen = scorer.get(url)
        assert seen.status_code == 200, url
        assert _controls(text(seen), controls) == controls, url
        read = phone.get(url)
        assert read.status_code == 200, url
        assert _controls(text(read), controls) == [], url
        assert 'method="post"' not in text(read), url
    assert "Tap a hand number to see its cards." in text(phone.get(board))
    assert "When a scorer starts one" in text(phone.get(f"{board}/hands/live"))
    # importing a league is the owner's: not even a scorer is offered the form
    assert _controls(text(owner.get("/league/export")), ["Import a league"])
    for client in (scorer, phone):
        export = text(client.get("/league/export"))
        assert "Whole league (JSON)" in export and "Import a league" not in export

    # the live hand: the viewer watches the table grow, without the forms
    assert scorer.post(f"{board}/hands/live/start").status_code == 302
    assert scorer.post(f"{board}/hands/live/meld", data={
        "meld-player": "p0", "meld-cards": "9h 10h jh"}).status_code == 302
    live_controls = [f'action="{board}/hands/live/meld"', f'action="{board}/hands/live/layoff"',
                     f'action="{board}/hands/live/undo"', f'action="{board}/hands/live/finish"',
                     "Take back the last meld or lay-off", "data-picker-dock",
                     "js/card-picker.js"]
    assert _controls(text(scorer.get(f"{board}/hands/live")), live_controls) == live_controls
    watched = text(phone.get(f"{board}/hands/live"))
    assert "Ann's meld 1" in watched and "J♥" in watched and "data-live-version-url" in watched
    assert _controls(watched, live_controls) == [] and 'method="post"' not in watched
    assert "Go to the live hand" in text(phone.get(board))  # watching is reading
    assert f'href="{board}/hands/live"' in text(phone.get("/"))


def test_a_new_link_or_a_stopped_one_shuts_out_who_joined_with_it(
        app: Flask, owner: FlaskClient, phone: FlaskClient) -> None:
    game = start(owner)
    league = league_of(app, game)
    old = make_link(owner, league.id, "scorer")
    join(phone, old)
    assert phone.get(f"/games/{game}").status_code == 200
    assert phone.get(f"/games/{game}/version").status_code == 200
    new = make_link(owner, league.id, "scorer")  # rotate
    assert new != old
    assert phone.get(f"/games/{game}").status_code == 404
    assert phone.get(f"/games/{game}/version").status_code == 404  # the poll too
    assert phone.get(old).status_code == 404  # the old link is dead
    join(phone, new)
    assert phone.get(f"/games/{game}").status_code == 200
    assert owner.post(f"/leagues/{league.id}/links/scorer/revoke").status_code == 302
    assert phone.get(f"/games/{game}").status_code == 404
    assert phone.get(f"/games/{game}/version").status_code == 404
    assert phone.get(new).status_code == 404
    assert owner.get(f"/games/{game}").status_code == 200  # the owner is not shut out
    with app.app_context():
        stored = db.session.get(League, league.id)
        assert stored is not None and stored.scorer_token_hash is None


def test_links_are_stored_hashed(app: Flask, owner: FlaskClient) -> None:
    league = league_of(app, start(owner))
    link = make_link(owner, league.id, "viewer")
    token = link.rsplit("/", 1)[1]
    assert len(token) >= 40
    with app.app_context():
        stored = db.session.get(League, league.id)
        assert stored is not None
        assert stored.viewer_token_hash == access.token_hash(token) != token
        columns = [str(v) for v in vars(stored).values()]
        assert not any(token in value for value in columns)


# --- the owner's password ----------------------------------------------------------------------


def test_create_a_league_and_open_it_on_another_device(app: Flask, owner: FlaskClient,
                                                       phone: FlaskClient) -> None:
    made = owner.post("/leagues/new", data={"name": "The Rossis", "password": PASSWORD,
                                            "confirm": PASSWORD})
    assert made.status_code == 302
    with app.app_context():
        league = db.session.scalar(db.select(League).where(League.name == "The Rossis"))
        assert league is not None and league.password_hash
        assert PASSWORD not in league.password_hash
    assert "The Rossis" in text(owner.get("/league/"))
    game = start(owner)  # the open league takes the game
    assert league_of(app, game).name == "The Rossis"
    wrong = phone.post("/leagues/login", data={"name": "The Rossis", "password": "guess"})
    assert wrong.status_code == 400 and "No league has that name and password." in text(wrong)
    unknown = phone.post("/leagues/login", data={"name": "Nobody", "password": PASSWORD})
    assert "No league has that name and password." in text(unknown)  # the same answer
    assert phone.get(f"/games/{game}").status_code == 404
    right = phone.post("/leagues/login?next=/games/" + str(game),
                       data={"name": "the rossis", "password": PASSWORD})
    assert right.headers["Location"] == f"/games/{game}"
    assert phone.get(f"/leagues/{league.id}/settings").status_code == 200


def test_a_league_name_is_taken_once(owner: FlaskClient) -> None:
    data = {"name": "Twins", "password": PASSWORD, "confirm": PASSWORD}
    assert owner.post("/leagues/new", data=data).status_code == 302
    again = owner.post("/leagues/new", data={**data, "name": "twins"})
    assert again.status_code == 400 and "That name cannot be used" in text(again)
    short = owner.post("/leagues/new", data={**data, "name": "X", "password": "short",
                                             "confirm": "short"})
    assert short.status_code == 400 and "from 8 to 200 characters" in text(short)


def test_changing_the_password_signs_out_the_other_owner_devices(
        app: Flask, owner: FlaskClient, phone: FlaskClient) -> None:
    game = start(owner)
    league = league_of(app, game)
    page = text(owner.get(f"/leagues/{league.id}/settings"))
    assert "no password yet" in page
    set_it = owner.post(f"/leagues/{league.id}/password",
                        data={"password": PASSWORD, "confirm": PASSWORD})
    assert set_it.status_code == 302
    assert phone.post("/leagues/login", data={"name": league.name, "password": PASSWORD}
                      ).status_code == 302
    assert phone.get(f"/games/{game}").status_code == 200
    refused = owner.post(f"/leagues/{league.id}/password", data={
        "current": "wrong", "password": "another one!", "confirm": "another one!"})
    assert refused.status_code == 400 and "current password is not right" in text(refused)
    changed = owner.post(f"/leagues/{league.id}/password", data={
        "current": PASSWORD, "password": "another one!", "confirm": "another one!"})
    assert changed.status_code == 302
    assert owner.get(f"/games/{game}").status_code == 200  # this device stays in
    assert phone.get(f"/games/{game}").status_code == 404  # the other is signed out


def test_an_owner_without_a_password_cannot_leave_and_lose_the_league(
        app: Flask, owner: FlaskClient) -> None:
    league = league_of(app, start(owner))
    refused = owner.post(f"/leagues/{league.id}/leave")
    assert refused.headers["Location"].endswith("#league-password")
    assert owner.get("/league/").status_code == 200
    owner.post(f"/leagues/{league.id}/password", data={"password": PASSWORD,
                                                       "confirm": PASSWORD})
    assert owner.post(f"/leagues/{league.id}/leave").headers["Location"] == "/leagues"
    assert owner.get("/league/").status_code == 302


def test_rename_and_switch_leagues(app: Flask, owner: FlaskClient) -> None:
    first = league_of(app, start(owner))
    assert owner.post(f"/leagues/{first.id}/name", data={"name": "Grandma's table"}
                      ).status_code == 302
    owner.post("/leagues/new", data={"name": "Club", "password": PASSWORD,
                                     "confirm": PASSWORD})
    assert "Club" in text(owner.get("/league/"))
    page = text(owner.get("/leagues"))
    assert "Grandma&#39;s table" in page and "Club" in page
    assert owner.post(f"/leagues/{first.id}/open").status_code == 302
    assert "Grandma&#39;s table" in text(owner.get("/league/"))


# --- what strangers try ------------------------------------------------------------------------


def test_guessing_passwords_is_slowed(make_app: Callable[..., Flask]) -> None:
    # (limits counted per day, not per minute: on a busy machine the tries may take over a
    # minute, and a window that starts again would let one through)
    app = make_app(PASSWORD_RATE_LIMIT="3 per day")
    client = app.test_client()
    client.post("/leagues/new", data={"name": "Target", "password": PASSWORD,
                                      "confirm": PASSWORD})  # a success does not count
    statuses = [client.post("/leagues/login", data={"name": "Target", "password": f"guess{i}"}
                            ).status_code for i in range(5)]
    assert statuses == [400, 400, 400, 429, 429]
    slowed = client.post("/leagues/login", data={"name": "Target", "password": PASSWORD})
    assert slowed.status_code == 429  # even the right password waits
    assert "Too many tries" in text(slowed)
    other_address = client.post("/leagues/login", data={"name": "Target", "password": PASSWORD},
                                environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other_address.status_code == 302  # counted per client address


def test_only_wrong_passwords_count_towards_the_limit(make_app: Callable[..., Flask]) -> None:
    """An owner who mistypes a new password's confirmation or picks one too short is
    not locked out of logging in: those refusals guess nothing."""
    app = make_app(PASSWORD_RATE_LIMIT="3 per day")
    client = app.test_client()
    client.post("/leagues/new", data={"name": "Ours", "password": PASSWORD, "confirm": PASSWORD})
    settings = client.get("/leagues").get_data(as_text=True)
    league_id = re.search(r"/leagues/(\d+)/settings", settings).group(1)  # type: ignore[union-attr]
    for new, confirm in (("short", "short"), (PASSWORD + "x", PASSWORD + "y")) * 2:
        refused = client.post(f"/leagues/{league_id}/password", data={
            "current": PASSWORD, "password": new, "confirm": confirm})
        assert refused.status_code == 400
    wrong = [client.post("/leagues/login", data={"name": "Ours", "password": f"guess{i}"}
                         ).status_code for i in range(4)]
    assert wrong == [400, 400, 400, 429]


def test_a_stopped_invite_link_says_so(client: FlaskClient) -> None:
    page = client.get(f"/join/{'x' * 43}")
    assert page.status_code == 404
    assert "This invite link does not work (any more)" in page.get_data(as_text=True)


def test_guessing_invite_links_is_slowed(make_app: Callable[..., Flask]) -> None:
    app = make_app(INVITE_RATE_LIMIT="4 per day")
    client = app.test_client()
    statuses = [client.get(f"/join/{'x' * 43}{i}").status_code for i in range(6)]
    assert statuses == [404, 404, 404, 404, 429, 429]


def test_rate_limits_count_the_client_behind_a_trusted_proxy(
        make_app: Callable[..., Flask]) -> None:
    app = make_app(PASSWORD_RATE_LIMIT="1 per day", TRUSTED_PROXIES=1)
    client = app.test_client()

    def guess(address: str) -> int:
        return client.post("/leagues/login", data={"name": "x", "password": "y"},
                           headers={"X-Forwarded-For": address}).status_code

    assert [guess("203.0.113.5"), guess("203.0.113.5"), guess("198.51.100.7")] == [
        400, 429, 400]


def test_names_with_html_are_shown_as_text(app: Flask, owner: FlaskClient,
                                           phone: FlaskClient) -> None:
    evil = '<script>alert("x")</script>'
    game = start(owner, (evil, '<img src=x onerror=alert(1)>'))
    league = league_of(app, game)
    owner.post(f"/leagues/{league.id}/name", data={"name": f"{evil} league"})
    owner.post(f"/games/{game}/hands/new", data=HAND)
    player_id = None
    with app.app_context():
        player_id = db.session.scalar(db.select(Player.id).where(Player.name == evil))
    link = make_link(owner, league.id, "viewer")
    for url in ("/", f"/games/{game}", f"/games/{game}/hands/1", f"/games/{game}/history",
                "/league/", "/league/players", f"/league/players/{player_id}",
                "/league/history", "/leagues", f"/leagues/{league.id}/settings", link):
        body = owner.get(url).get_data(as_text=True)
        assert "<script>alert" not in body and "<img src=x" not in body, url
    body = owner.get(f"/games/{game}").get_data(as_text=True)
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in body
    join(phone, link)
    assert "&lt;script&gt;" in text(phone.get(link, follow_redirects=True))
    api = owner.get(f"/api/v1/games/{game}")
    assert api.mimetype == "application/json" and api.get_json()["players"][0] == evil


INJECTIONS = ["' OR '1'='1", "'; DROP TABLE game; --", '" OR ""="', "1; DELETE FROM hand",
              "Robert'); DROP TABLE league;--", "%' OR 1=1 --"]


@pytest.mark.parametrize("evil", INJECTIONS)
def test_sql_injection_in_every_field_is_harmless(app: Flask, owner: FlaskClient,
                                                  phone: FlaskClient, evil: str) -> None:
    game = start(owner, (evil, "Ben"))
    league = league_of(app, game)
    owner.post(f"/games/{game}/hands/new", data={**HAND, "players-0-melds": evil})
    owner.post(f"/games/{game}/hands/new", data={**HAND, "missing_ok": [evil, "Ben"]})
    owner.post("/league/players", data={"add-name": evil + "2"})
    owner.post("/league/seasons", data={"new-name": evil, "new-starts_on": "2026-01-01",
                                        "new-ends_on": "2026-01-31"})
    owner.post(f"/leagues/{league.id}/name", data={"name": evil})
    owner.post(f"/leagues/{league.id}/password", data={"password": evil * 2,
                                                       "confirm": evil * 2})
    phone.post("/leagues/login", data={"name": evil, "password": evil})
    phone.post("/leagues/login", data={"name": "' OR 1=1 --", "password": "' OR 1=1 --"})
    phone.post("/leagues/new", data={"name": evil + "x", "password": evil * 2,
                                     "confirm": evil * 2})
    phone.get(f"/join/{evil}")
    phone.get(f"/join/{'a' * 30}' OR '1'='1")
    for url in (f"/league/?season={evil}", f"/league/history?player={evil}",
                f"/league/?sort={evil}", f"/referee/?game={evil}"):
        assert owner.get(url).status_code < 500, url
    owner.post(f"/api/v1/games/{game}/hands", json={"players": [{"name": evil}]})
    # nothing was dropped, the stranger got nowhere, the hand is stored as typed
    assert phone.get(f"/games/{game}").status_code == 404
    assert owner.get(f"/games/{game}").status_code == 200
    with app.app_context():
        assert db.session.get(Game, game) is not None
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 1
        assert db.session.scalar(db.select(Player.name).where(Player.name == evil)) == evil
        stored = db.session.get(League, league.id)
        assert stored is not None and stored.name == evil
    assert phone.post("/leagues/login", data={"name": evil, "password": evil * 2}
                      ).status_code == 302  # the injected text is just the password


# --- forms, headers and cookies ----------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "forged-token"])
def test_a_missing_or_wrong_csrf_token_is_a_friendly_400(
        make_app: Callable[..., Flask], token: str | None) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get("/leagues/new").get_data(as_text=True)
    real = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert real is not None
    data = {"name": "Forged", "password": PASSWORD, "confirm": PASSWORD}
    if token is not None:
        data["csrf_token"] = token
    for url in ("/leagues/new", "/leagues/login", "/games/new", f"/join/{'t' * 43}"):
        refused = client.post(url, data=data)
        assert refused.status_code == 400, url
        assert refused.mimetype == "text/html"
        assert "The form was stale or opened in another tab; please try again." in text(refused)
    made = client.post("/leagues/new", data={**data, "csrf_token": real.group(1)})
    assert made.status_code == 302
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(League.id))) == 1


def test_the_json_api_needs_no_csrf_token(make_app: Callable[..., Flask]) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    answer = client.post("/api/v1/referee/meld", json={"rules": {"family": "rummy-500"},
                                                         "cards": ["7S", "8S", "9S"]})
    assert answer.status_code == 200 and answer.get_json()["legal"] is True


def test_security_headers_on_every_answer(client: FlaskClient) -> None:
    for url in ("/", "/leagues", "/games/new", "/no-such-page", "/api/v1/openapi.json",
                "/static/css/app.css"):
        headers = client.get(url).headers
        csp = headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp, url
        assert "'unsafe-inline'" not in csp and "frame-ancestors 'none'" in csp
        assert "object-src 'none'" in csp and "form-action 'self'" in csp
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["X-Content-Type-Options"] == "nosniff"


def hsts_answers(app: Flask, base: str, **headers: str) -> dict[str, str | None]:
    """Strict-Transport-Security of each kind of answer, asked at ``base``: pages Flask
    renders, a static file, and the ones given before Flask (the scoreboard kept whole,
    the version poll), a phone's own game's."""
    from tests.web.test_kept_pages import served

    client = app.test_client()
    created = client.post(base + "/games/new", headers=headers, data={
        "players-0": "Ann", "players-1": "Ben", "family": "rummy-500", "first_dealer": "0",
        "min_natural_cards": "1"})
    assert created.status_code == 302
    game = int(created.headers["Location"].rsplit("/", 1)[1])
    found: dict[str, str | None] = {"redirect": created.headers.get(
        "Strict-Transport-Security")}
    for name, path in (("page", "/rules/"), ("missing", "/no-such-page"),
                       ("static", "/static/css/app.css"), ("flask board", f"/games/{game}")):
        answer = client.get(base + path, headers=headers)
        found[name] = answer.headers.get("Strict-Transport-Security")
    before = served(app)
    kept = client.get(base + f"/games/{game}", headers=headers)
    assert kept.status_code == 200 and served(app) == before + 1  # before Flask
    found["kept board"] = kept.headers.get("Strict-Transport-Security")
    poll = client.get(base + f"/games/{game}/version", headers=headers)
    assert poll.status_code == 200
    found["poll"] = poll.headers.get("Strict-Transport-Security")
    return found


def test_hsts_on_every_answer_over_https_and_never_over_http(
        make_app: Callable[..., Flask]) -> None:
    over_https = hsts_answers(make_app(), "https://localhost")
    assert set(over_https.values()) == {"max-age=31536000"}, over_https
    over_http = hsts_answers(make_app(), "http://localhost")
    assert set(over_http.values()) == {None}, over_http
    # A client cannot ask for it over plain http when no proxy is trusted...
    claimed = hsts_answers(make_app(), "http://localhost", **{"X-Forwarded-Proto": "https"})
    assert set(claimed.values()) == {None}, claimed
    # ...but a trusted proxy that was asked over HTTPS can, and its setting is the age.
    proxied = hsts_answers(make_app(TRUSTED_PROXIES=1, HSTS_MAX_AGE=600), "http://localhost",
                           **{"X-Forwarded-Proto": "https"})
    assert set(proxied.values()) == {"max-age=600"}, proxied
    plain_proxy = hsts_answers(make_app(TRUSTED_PROXIES=1), "http://localhost",
                               **{"X-Forwarded-Proto": "http"})
    assert set(plain_proxy.values()) == {None}, plain_proxy


def test_hsts_max_age_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: object) -> None:
    from app import create_app

    monkeypatch.setenv("HSTS_MAX_AGE", "0")  # tells the browsers to forget it
    app = create_app(instance_path=str(tmp_path))
    answer = app.test_client().get("https://localhost/rules/")
    assert answer.headers["Strict-Transport-Security"] == "max-age=0"
    monkeypatch.setenv("HSTS_MAX_AGE", "-1")
    with pytest.raises(ValueError, match="HSTS_MAX_AGE"):
        create_app(instance_path=str(tmp_path))


def test_access_pages_have_no_inline_scripts_or_styles(app: Flask, owner: FlaskClient) -> None:
    league = league_of(app, start(owner))
    link = make_link(owner, league.id, "scorer")
    for url in ("/leagues", "/leagues/new", "/leagues/login", link,
                f"/leagues/{league.id}/settings"):
        page = owner.get(url).get_data(as_text=True)
        assert "style=" not in page, url
        assert not re.search(r"<script(?![^>]*\bsrc=)", page), url
        assert not re.search(r"\son[a-z]+=", page), url


@pytest.mark.parametrize(("setting", "https", "secure"), [
    ("auto", False, False), ("auto", True, True), (True, False, True), (False, True, False),
])
def test_the_session_cookie_is_secure_over_https(make_app: Callable[..., Flask],
                                                 setting: object, https: bool,
                                                 secure: bool) -> None:
    app = make_app(SESSION_COOKIE_SECURE=setting)
    client = app.test_client()
    base = "https://localhost" if https else "http://localhost"
    response = client.post(base + "/games/new", data={
        "players-0": "A", "players-1": "B", "family": "basic", "first_dealer": "0",
        "min_natural_cards": "1"})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert ("Secure" in cookie) is secure


def test_behind_a_trusted_proxy_the_cookie_follows_its_scheme(
        make_app: Callable[..., Flask]) -> None:
    app = make_app(TRUSTED_PROXIES=1)
    response = app.test_client().post("/games/new", data={
        "players-0": "A", "players-1": "B", "family": "basic", "first_dealer": "0",
        "min_natural_cards": "1"}, headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in response.headers["Set-Cookie"]


def test_environment_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    from app import create_app

    monkeypatch.setenv("SESSION_COOKIE_SECURE", "true")
    monkeypatch.setenv("TRUSTED_PROXIES", "2")
    monkeypatch.setenv("RATELIMIT_STORAGE_URI", "memory://")
    app = create_app(instance_path=str(tmp_path))
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["TRUSTED_PROXIES"] == 2
    monkeypatch.setenv("SESSION_COOKIE_SECURE", "sometimes")
    with pytest.raises(ValueError, match="SESSION_COOKIE_SECURE"):
        create_app(instance_path=str(tmp_path))


def test_the_longest_names_and_meld_ids_are_stored_or_refused_never_a_500(
        app: Flask, owner: FlaskClient) -> None:
    """PostgreSQL, unlike SQLite, refuses a text longer than its column."""
    longest = "N" * 40
    game = start(owner, (longest, "Ben"))
    typed = owner.post(f"/games/{game}/hands/new", data={
        **HAND, "players-0-melds": "7s 8s 9s\n2h 3h 4h\n5c 6c 7c\n9d 10d jd",
        "missing_ok": [longest, "Ben"]})
    assert typed.status_code == 302  # melds named "NNN…N-4"
    body = {"number": 2, "went_out": longest, "players": [
        {"name": longest, "melds": [{"id": "m" * 81, "cards": ["4S", "5S", "6S"]}]},
        {"name": "Ben", "hand": ["KD"]}]}
    refused = owner.post(f"/api/v1/games/{game}/hands", json=body)
    assert refused.status_code == 400
    assert "at most 80 characters" in refused.get_json()["error"]["message"]
    body["players"][0]["melds"][0]["id"] = "m" * 80
    assert owner.post(f"/api/v1/games/{game}/hands", json=body).status_code == 201
    too_long = owner.post("/games/new", data={"players-0": "N" * 41, "players-1": "B",
                                              "family": "basic", "first_dealer": "0",
                                              "min_natural_cards": "1"})
    assert too_long.status_code == 400
    league = league_of(app, game)
    renamed = owner.post(f"/leagues/{league.id}/name", data={"name": "L" * 81})
    assert renamed.status_code == 400 and "at most 80 characters" in text(renamed)


def test_importing_a_league_touches_nobody_elses(app: Flask, owner: FlaskClient,
                                                 phone: FlaskClient) -> None:
    import io
    import json

    theirs = league_of(app, start(owner, ("Ann", "Ben")))
    empty = owner.post("/leagues/new", data={"name": "Empty one", "password": PASSWORD,
                                             "confirm": PASSWORD})
    assert empty.status_code == 302
    mine = league_of(app, start(phone, ("Cy", "Dee")))
    exported = json.loads(phone.get("/league/export.json").get_data(as_text=True))

    def upload(client: FlaskClient, data: dict[str, object]) -> object:
        return client.post("/league/import", content_type="multipart/form-data", data={
            "file": (io.BytesIO(json.dumps(data).encode()), "league.json")})

    clash = upload(phone, exported)  # its own league still has that name
    assert clash.status_code == 400
    assert "already has the name" in text(clash)
    assert theirs.name not in text(clash) and "Empty one" not in text(clash)
    exported["league"]["name"] = "Cy and Dee, restored"
    done = upload(phone, exported)
    assert done.status_code == 302
    assert "Cy and Dee, restored" in text(phone.get("/league/"))
    with app.app_context():
        names = set(db.session.scalars(db.select(League.name)))
    assert names == {theirs.name, "Empty one", mine.name, "Cy and Dee, restored"}
    assert owner.get("/league/").status_code == 200 and "Ann" in text(owner.get("/"))


def test_the_version_poll_does_not_resend_the_cookie(owner: FlaskClient) -> None:
    game = start(owner)
    assert "Set-Cookie" in owner.get(f"/games/{game}").headers  # a page renews it
    poll = owner.get(f"/games/{game}/version")
    assert poll.status_code == 200 and "Set-Cookie" not in poll.headers
    assert "Set-Cookie" not in owner.get("/static/css/app.css").headers
