"""Kept pages (scorebook.web.pages) for phones as they really are: joined through an invite
link (their session holds ``players`` and a permanent flag), two at one table, one
coming back after another changed the game. A kept page is served to the phone that
reloads an unchanged version, and never outlives a change: a hand saved or edited, a
player renamed, the league renamed, a membership ended, a link replaced."""

from __future__ import annotations

import gzip

import brotli
import pytest
from flask import Flask
from flask.testing import FlaskClient
from itsdangerous import URLSafeTimedSerializer

from scorebook.extensions import db
from scorebook.models import Game, League, Player
from scorebook.services import access

from .test_kept_pages import TOKEN, page, served
from .test_live import HAND, start

PAGES = ["/games/{id}", "/games/{id}/hands/new", "/games/{id}/board"]
PHONE = {"Accept-Encoding": "gzip, deflate, br", "Accept-Language": "en"}


def league_of(app: Flask, game: int) -> int:
    with app.app_context():
        found = db.session.get(Game, game)
        assert found is not None
        return found.league_id


def invite(app: Flask, league_id: int, role: str = access.SCORER) -> str:
    """A fresh invite link's token for the role (the old one, if any, stops working)."""
    token = access.new_token()
    with app.app_context():
        league = db.session.get(League, league_id)
        assert league is not None
        setattr(league, f"{role}_token_hash", access.token_hash(token))
        db.session.commit()
    return token


def join_by_link(client: FlaskClient, token: str, player: str = "") -> None:
    """As a phone does: open the link, tap "Join" (its landing eats the flash)."""
    assert client.get(f"/join/{token}").status_code == 303
    answer = client.post("/join", data={"player": player}, follow_redirects=True)
    assert answer.status_code == 200
    with client.session_transaction() as s:
        assert "players" in s and "_flashes" not in s


def phone(app: Flask, token: str, player: str = "") -> FlaskClient:
    client = app.test_client()
    join_by_link(client, token, player)
    return client


def body(client: FlaskClient, path: str, **headers: str) -> str:
    answer = client.get(path, headers={**PHONE, **headers})
    assert answer.status_code == 200, (path, answer.status_code)
    data = answer.get_data()
    encoding = answer.headers.get("Content-Encoding")
    if encoding == "br":
        data = brotli.decompress(data)
    elif encoding == "gzip":
        data = gzip.decompress(data)
    return data.decode()


def own_token(app: Flask, client: FlaskClient, html: str) -> None:
    """The page's CSRF token (if it has one) is signed for this phone's own session."""
    with client.session_transaction() as s:
        raw = s.get("csrf_token")
    for sent in TOKEN.findall(html):
        assert URLSafeTimedSerializer(app.secret_key, salt="wtf-csrf-token").loads(sent) == raw


def warm(client: FlaskClient, path: str) -> str:
    """Render (and keep) the page, then fetch it once from the kept copy."""
    body(client, path)
    return body(client, path)


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> tuple[int, str]:
    """A game the owner (``client``) started, and its league's scorer link."""
    game = start(client)
    return game, invite(app, league_of(app, game))


@pytest.mark.parametrize("path", PAGES)
def test_a_phone_joined_by_its_link_is_served_the_kept_page(
        app: Flask, table: tuple[int, str], path: str) -> None:
    game, token = table
    ann = phone(app, token, "Ann")
    path = path.format(id=game)
    flask_page = body(ann, path)
    before = served(app)
    kept = body(ann, path)
    assert served(app) == before + 1, "a joined phone was sent to Flask"
    assert TOKEN.sub("", kept) == TOKEN.sub("", flask_page)
    own_token(app, ann, kept)
    with ann.session_transaction() as s:
        assert s["players"] == {str(league_of(app, game)): "Ann"}  # the cookie kept


def test_two_phones_at_one_table_share_the_page_not_the_token(
        app: Flask, table: tuple[int, str]) -> None:
    game, token = table
    ann, ben = phone(app, token, "Ann"), phone(app, token)
    for path in (p.format(id=game) for p in PAGES):
        first = body(ann, path)  # rendered by Flask for Ann, kept
        before = served(app)
        theirs = body(ben, path)  # Ben's the kept one
        mine = body(ann, path)
        assert served(app) == before + 2
        assert TOKEN.sub("", theirs) == TOKEN.sub("", first) == TOKEN.sub("", mine)
        own_token(app, ben, theirs)
        own_token(app, ann, mine)
    with ann.session_transaction() as a, ben.session_transaction() as b:
        assert a["csrf_token"] != b["csrf_token"]


def test_the_record_form_kept_for_one_phone_saves_for_another(
        make_app) -> None:  # type: ignore[no-untyped-def]
    """With CSRF checked: Ben's form came from the page kept for Ann, and saves."""
    app = make_app(WTF_CSRF_ENABLED=True)
    owner = app.test_client()
    form = TOKEN.search(page(owner, "/games/new"))
    assert form
    answer = owner.post("/games/new", data={
        "csrf_token": form.group(1), "players-0": "Ann", "players-1": "Ben",
        "family": "rummy-500", "first_dealer": "0", "min_natural_cards": "1"})
    game = int(answer.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    token = invite(app, league_of(app, game))
    ann, ben = app.test_client(), app.test_client()
    for who in (ann, ben):
        opened = who.get(f"/join/{token}", follow_redirects=True).get_data(as_text=True)
        sent = TOKEN.search(opened)
        assert sent
        assert who.post("/join", data={"csrf_token": sent.group(1)}).status_code == 302
        who.get("/league/")  # the landing shows (and drops) the flash
    path = f"/games/{game}/hands/new"
    body(ann, path)
    before = served(app)
    kept = body(ben, path)
    assert served(app) == before + 1
    sent = TOKEN.search(kept)
    assert sent
    saved = ben.post(path, data={**HAND, "csrf_token": sent.group(1)})
    assert saved.status_code == 302, saved.get_data(as_text=True)[:500]
    assert "Hand 1" in body(ann, f"/games/{game}/board")


def test_a_phone_coming_back_after_a_change_gets_the_new_version(
        app: Flask, table: tuple[int, str]) -> None:
    game, token = table
    ann, ben = phone(app, token), phone(app, token)
    board = f"/games/{game}/board"
    old = {p: warm(ann, p.format(id=game)) for p in PAGES}
    assert f'href="/games/{game}/hands/1"' not in old["/games/{id}"]
    assert ben.post(f"/games/{game}/hands/new", data=HAND).status_code == 302
    # Ann's phone was away: its next look at each page is of the new version
    for path in PAGES:
        shown = body(ann, path.format(id=game))
        assert shown != old[path]
        if path != "/games/{id}/hands/new":
            assert f'href="/games/{game}/hands/1"' in shown
    assert 'value="2"' in body(ann, f"/games/{game}/hands/new")  # the next hand's number
    before = served(app)
    again = body(ann, board)
    assert served(app) == before + 1 and f'href="/games/{game}/hands/1"' in again


def test_an_edited_hand_is_never_served_stale(app: Flask, table: tuple[int, str]) -> None:
    game, token = table
    ann = phone(app, token)
    assert ann.post(f"/games/{game}/hands/new", data=HAND).status_code == 302
    old = warm(ann, f"/games/{game}")
    old_board = warm(ann, f"/games/{game}/board")
    changed = {**HAND, "version": "1", "players-0-hand": "kd qd"}
    assert ann.post(f"/games/{game}/hands/1/edit", data=changed).status_code == 302
    body(ann, f"/games/{game}")  # (the flash: Flask's)
    new = body(ann, f"/games/{game}")
    assert new != old and body(ann, f"/games/{game}/board") != old_board


def test_a_renamed_player_or_league_is_never_served_stale(
        app: Flask, client: FlaskClient, table: tuple[int, str]) -> None:
    game, token = table
    ann = phone(app, token)
    for path in PAGES:
        warm(ann, path.format(id=game))
    with app.app_context():
        player = db.session.scalars(db.select(Player).where(
            Player.league_id == league_of(app, game), Player.name == "Ben")).one()
        player.name = "Benedetta"
        db.session.commit()
    for path in PAGES:
        shown = body(ann, path.format(id=game))
        assert "Benedetta" in shown, path
    with app.app_context():
        league = db.session.get(League, league_of(app, game))
        assert league is not None
        league.name = "The kitchen table"
        db.session.commit()
    before = served(app)
    body(ann, f"/games/{game}")
    assert served(app) == before  # a new key: rendered by Flask, not the old page


def test_an_ended_membership_or_a_replaced_link_gets_no_page(
        app: Flask, table: tuple[int, str]) -> None:
    game, token = table
    ann, ben = phone(app, token), phone(app, token)
    copy = app.test_client()  # a copy of Ann's cookie, on another device
    with ann.session_transaction() as s, copy.session_transaction() as c:
        c.update(dict(s))
    for path in PAGES:
        warm(ann, path.format(id=game))
        warm(copy, path.format(id=game))
        warm(ben, path.format(id=game))
    assert ann.post(f"/leagues/{league_of(app, game)}/leave").status_code == 302
    for path in PAGES:
        assert copy.get(path.format(id=game), headers=PHONE).status_code == 404, path
        assert ann.get(path.format(id=game), headers=PHONE).status_code == 404, path
    invite(app, league_of(app, game))  # the owner replaced the scorer link: Ben is out
    for path in PAGES:
        assert ben.get(path.format(id=game), headers=PHONE).status_code == 404, path


def test_a_viewer_from_its_link_never_gets_the_scorers_page(
        app: Flask, table: tuple[int, str]) -> None:
    game, token = table
    ann = phone(app, token)
    viewer = phone(app, invite(app, league_of(app, game), access.VIEWER))
    for path in PAGES:
        warm(ann, path.format(id=game))
    shown = warm(viewer, f"/games/{game}")
    assert "Abandon this game" not in shown and not TOKEN.search(shown)
    assert viewer.get(f"/games/{game}/hands/new", headers=PHONE).status_code == 403
    assert viewer.get(f"/games/{game}/hands/new", headers=PHONE).status_code == 403
    part = warm(viewer, f"/games/{game}/board")
    assert part == body(viewer, f"/games/{game}/board")
    assert f"/games/{game}/hands/new" not in part


def test_flashes_wait_for_the_page_while_the_board_is_fetched(
        app: Flask, table: tuple[int, str]) -> None:
    game, token = table
    ann = phone(app, token)
    warm(ann, f"/games/{game}")
    warm(ann, f"/games/{game}/board")
    assert ann.post(f"/games/{game}/hands/new", data=HAND).status_code == 302
    warm(ann, f"/games/{game}/board")  # the new version's board, kept
    before = served(app)
    part = body(ann, f"/games/{game}/board", **{"X-Live-Refresh": "1"})
    assert served(app) == before + 1  # the board, with a flash waiting: kept
    assert "Hand 1 saved." not in part
    shown = body(ann, f"/games/{game}")
    assert "Hand 1 saved." in shown  # the flash still waited for the page
    assert "Hand 1 saved." not in body(ann, f"/games/{game}")


def test_unknown_or_forged_sessions_go_to_flask(app: Flask, table: tuple[int, str]) -> None:
    game, token = table
    ann = phone(app, token)
    for path in PAGES:
        warm(ann, path.format(id=game))
    cookie = ann.get_cookie("session")
    assert cookie is not None
    before = served(app)
    for path in PAGES:
        forged = app.test_client()
        forged.set_cookie("session", cookie.value[:-3] + "AAA")
        assert forged.get(path.format(id=game), headers=PHONE).status_code == 404
        stranger = app.test_client()
        assert stranger.get(path.format(id=game), headers=PHONE).status_code == 404
        odd = app.test_client()
        odd.set_cookie("session", cookie.value)
        with odd.session_transaction() as s:
            s["something_new"] = 1  # a key the middleware does not know: Flask's
        assert odd.get(path.format(id=game), headers=PHONE).status_code == 200
    assert served(app) == before


def test_the_kept_answer_renews_the_cookie_and_a_stale_cookie_gets_none(
        app: Flask, table: tuple[int, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept answer sends the cookie again only once it is SESSION_RENEW_AFTER old (a
    day), as Flask does (scorebook.security): not on every page."""
    import time
    from datetime import timedelta

    import scorebook.web.pages

    game, token = table
    ann = phone(app, token)
    path = f"/games/{game}"
    warm(ann, path)
    before = served(app)
    answer = ann.get(path, headers=PHONE)
    assert served(app) == before + 1
    assert "Set-Cookie" not in answer.headers  # an unchanged cookie of today
    monkeypatch.setitem(app.config, "SESSION_RENEW_AFTER", timedelta(0))  # now due
    answer = ann.get(path, headers=PHONE)
    assert served(app) == before + 2
    renewed = answer.headers["Set-Cookie"]
    assert renewed.startswith("session=") and "Expires=" in renewed and "HttpOnly" in renewed
    monkeypatch.undo()
    with ann.session_transaction() as s:
        assert s["players"] == {} and s.permanent
    # the same cookie, its signature memoised, 401 days on: too old, Flask's answer
    cookie = ann.get_cookie("session")
    assert cookie is not None
    late = app.test_client()
    late.set_cookie("session", cookie.value)
    assert late.get(path, headers=PHONE).status_code == 200
    now = time.time()
    monkeypatch.setattr(scorebook.web.pages.time, "time", lambda: now + 401 * 86400)
    before = served(app)
    assert late.get(path, headers=PHONE).status_code == 404  # (Flask: a new session)
    assert served(app) == before
