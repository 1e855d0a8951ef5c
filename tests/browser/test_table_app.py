"""The site as an app on the phones at the table, in Chromium at 390×844: installable,
the QR codes of "Add a phone" decode to a link that joins and lands in the game, the
rule book and the last scoreboard open offline (Playwright's offline mode) and catch
up when the connection is back, and a finished game is played again and shared."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import League
from scorebook.services import games, hands, invites
from scorebook.services.entry import entry_from_text
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, WAIT_MS, patient
from tests.browser.serving import serve, sqlite_app
from tests.qr import decode_png

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cy"]
BIG = "as ah ad ac\nks kh kd kc\nqs qh qd qc\njs jh jd jc\n10s 10h 10d 10c"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    """An app of this module's own (the tests seed it through its services)."""
    folder: Path = tmp_path_factory.mktemp("table-app")
    app = sqlite_app(folder, "table.sqlite3")
    with serve(app) as url:
        yield app, url
    with app.app_context():
        db.drop_all()


def seed(app: Flask, name: str, hands_played: int) -> tuple[int, int, str]:
    """A league ``name`` with a three-player 500 Rum game and ``hands_played`` hands
    (Ann +220, Ben +4, Cy −6 each: three finish it). Returns the league, the game and
    the path of a scorer code that lands in the game."""
    with app.test_request_context():
        league = League(name=name)
        db.session.add(league)
        db.session.commit()
        game = games.create_game(league, NAMES, 0, make_rules("pagat-500"))
        for number in range(1, hands_played + 1):
            entry = entry_from_text(NAMES, {"Ann": {"melds": BIG},
                                            "Ben": {"melds": "2s 3s 4s", "hand": "5h"},
                                            "Cy": {"hand": "6d"}}, "Ann", None, False, False)
            hands.record_hand(game, entry, number)
        invites.open_door(league, "scorer")
        invites.open_door(league, "viewer")
        db.session.commit()
        token = invites.door_token(league, "scorer")
        return league.id, game.id, f"/join/{token}?next=/games/{game.id}"


def join(page: Page, url: str) -> None:
    page.goto(url)
    page.get_by_role("button", name=re.compile("^Join")).click()
    page.wait_for_url(lambda url: "/join" not in url)  # joined: the page it leads to
    page.wait_for_load_state()


def owner(page: Page, app: Flask, url: str, league_id: int) -> None:
    """Make this browser the league's owner (by its name and a password)."""
    with app.app_context():
        from scorebook.services import access

        league = db.session.get(League, league_id)
        assert league is not None
        league.password_hash = access.hash_password("a long password")
        db.session.commit()
        name = league.name
    page.goto(f"{url}/leagues/login")
    page.get_by_label("League name").fill(name)
    page.get_by_label("Password").fill("a long password")
    page.get_by_role("button", name="Open", exact=True).click()
    page.wait_for_load_state()


def controlled(page: Page) -> None:
    """Wait until the service worker is installed and answers for this page."""
    page.evaluate("navigator.serviceWorker.ready")
    if not page.evaluate("!!navigator.serviceWorker.controller"):
        page.reload()
    page.wait_for_function("!!navigator.serviceWorker.controller")


def kept(page: Page, path: str) -> None:
    page.wait_for_function(
        "p => caches.open('scorebook-pages').then(c => c.match(location.origin + p))"
        ".then(r => !!r)", arg=path, polling=100)


def test_chromium_considers_the_site_installable(browser, table: tuple[Flask, str],
                                                 tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Asked over the DevTools protocol, as Chromium's own install prompt asks. (A
    profile of its own: Playwright's usual contexts are incognito, where nothing
    installs.)"""
    _app, url = table
    context = patient(browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS,
        viewport=PHONE, timeout=WAIT_MS))
    try:
        page = context.new_page()
        page.goto(url + "/")
        controlled(page)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].startswith(url + "/manifest.webmanifest")
        assert not manifest.get("errors"), manifest["errors"]
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        assert page.evaluate("fetch('/favicon.ico').then(r => r.status)") == 200
        screenshot_of(page, "app-home")
    finally:
        context.close()


def test_a_scanned_code_joins_and_opens_the_game(browser, table: tuple[Flask, str],
                                                 screenshot) -> None:  # type: ignore[no-untyped-def]
    app, url = table
    league_id, game_id, _code = seed(app, "Family Scan", 0)
    laptop = browser.new_context(viewport=PHONE)
    phone = browser.new_context(viewport=PHONE)
    try:
        page = laptop.new_page()
        owner(page, app, url, league_id)
        page.goto(f"{url}/games/{game_id}")
        page.get_by_role("link", name="Add a phone").click()
        page.wait_for_load_state()
        qr = page.locator("#scorer-code svg.qr-code")
        box = qr.bounding_box()
        assert box is not None and box["width"] >= 240 and box["height"] >= 240
        shown = page.locator("#scorer-code-url").text_content()
        decoded = decode_png(qr.screenshot())
        assert decoded == shown
        assert decode_png(page.locator("#viewer-code svg.qr-code").screenshot()) == \
            page.locator("#viewer-code-url").text_content()
        screenshot_of(page, "phones-add-a-phone")

        other = phone.new_page()
        other.goto(decoded)
        expect(other.locator("h1")).to_contain_text("Family Scan")
        other.get_by_role("button", name=re.compile("^Join")).click()
        other.wait_for_url(lambda url: "/join" not in url)  # joined: the page it leads to
        other.wait_for_load_state()
        assert other.url == f"{url}/games/{game_id}"
        expect(other.get_by_role("link", name="Record hand 1")).to_be_visible()
    finally:
        laptop.close()
        phone.close()


def screenshot_of(page: Page, name: str) -> None:
    import os

    from tests.browser.conftest import SHOTS

    if os.environ.get("SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def game_number(app: Flask, game_id: int) -> int:
    """The game's number within its league: what its pages call it."""
    from scorebook.models import Game

    with app.app_context():
        return db.session.get(Game, game_id).number  # type: ignore[union-attr]


def test_the_rule_book_and_the_last_scoreboard_open_offline(
        page: Page, table: tuple[Flask, str]) -> None:
    app, url = table
    league_id, game_id, code = seed(app, "Family Offline", 1)
    join(page, url + code)
    board = f"{url}/games/{game_id}"
    page.goto(board)
    controlled(page)
    page.goto(board)  # now through the service worker, which keeps it
    kept(page, f"/games/{game_id}")
    kept(page, f"/games/{game_id}/hands/new")  # fetched with the scoreboard
    kept(page, "/rules/pagat-500")  # kept from the start, never opened
    expect(page.locator("[data-live-status]")).to_have_attribute("data-state", "live")

    page.context.set_offline(True)
    try:
        page.goto(f"{url}/rules/pagat-500")
        expect(page.locator("h1")).to_contain_text("500 Rum")
        expect(page.locator("[data-offline-banner]")).to_contain_text("Offline")
        screenshot_of(page, "offline-rule-book")

        page.goto(board)
        banner = page.locator("[data-offline-banner]")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("as this phone last saw it")
        expect(page.locator("#hand-1")).to_be_visible()  # the scores as last seen
        expect(page.locator("[data-live-status]")).to_have_attribute(
            "data-state", "offline")
        screenshot_of(page, "offline-scoreboard")

        page.get_by_role("link", name="Record hand 2").click()
        page.wait_for_load_state()
        expect(page.locator("h1")).to_contain_text("Record hand 2")
        expect(page.locator("[data-offline-banner]")).to_be_visible()

        page.goto(f"{url}/league/history")  # never seen: the offline page
        expect(page.locator("h1")).to_contain_text("This phone is offline")
        expect(page.locator("[data-kept-pages]")).to_contain_text(
            f"Game {game_number(app, game_id)}")  # games are numbered within their league
        screenshot_of(page, "offline-page")
    finally:
        page.context.set_offline(False)

    # back online: the live page catches up on its own
    with app.test_request_context():
        game = games.load_game(game_id)
        assert game is not None
        entry = entry_from_text(NAMES, {"Ann": {"melds": BIG},
                                        "Ben": {"melds": "2s 3s 4s", "hand": "5h"},
                                        "Cy": {"hand": "6d"}}, "Ann", None, False, False)
        hands.record_hand(game, entry, 2)
    page.goto(board)
    expect(page.locator("#hand-2")).to_be_visible()
    page.context.set_offline(True)
    try:
        page.goto(board)
        expect(page.locator("[data-offline-banner]")).to_be_visible()
    finally:
        page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("[data-offline-banner]")).to_be_hidden()
    expect(page.locator("[data-live-status]")).to_have_attribute(
        "data-state", "live")


def test_a_form_sent_offline_says_nothing_was_sent(page: Page, table: tuple[Flask, str]) -> None:
    app, url = table
    _league, game_id, code = seed(app, "Family Unsent", 0)
    join(page, url + code)
    page.goto(f"{url}/games/{game_id}")
    controlled(page)
    page.goto(f"{url}/games/{game_id}")
    kept(page, f"/games/{game_id}/hands/new")
    page.goto(f"{url}/games/{game_id}")
    page.locator("#abandon summary").click()
    page.context.set_offline(True)
    try:
        page.get_by_role("button", name=f"Abandon game {game_number(app, game_id)}").click()
        page.wait_for_load_state()
        expect(page.locator(".offline-unsent")).to_be_visible()
        expect(page.locator(".offline-unsent")).to_contain_text("Nothing was sent")
        expect(page.locator(".offline-missing")).to_be_hidden()
    finally:
        page.context.set_offline(False)
    with app.app_context():
        from scorebook.models import Game

        assert db.session.get(Game, game_id).status == "in-progress"  # type: ignore[union-attr]


def test_a_finished_game_is_played_again_and_shared(browser, table: tuple[Flask, str]
                                                    ) -> None:  # type: ignore[no-untyped-def]
    app, url = table
    _league, game_id, code = seed(app, "Family Rematch", 3)
    context = browser.new_context(viewport=PHONE, permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        join(page, url + code)
        assert page.url == f"{url}/games/{game_id}"
        expect(page.locator(".banner-winner")).to_contain_text("Ann wins!")
        # the first Share makes the link anyone can open (tests/browser/test_shared_result.py)
        page.get_by_role("link", name="Share the result").click()
        page.get_by_role("button", name="Make the link").click()
        page.wait_for_load_state()
        page.get_by_role("link", name=f"Back to game {game_number(app, game_id)}").click()
        page.wait_for_load_state()
        share = page.locator("[data-share-button]")
        expect(share).to_be_visible()
        expect(page.locator("[data-share-fallback]")).to_be_hidden()
        screenshot_of(page, "scoreboard-finished-share")
        share.click()
        expect(page.locator("[data-share-status]")).to_contain_text("Copied")
        copied = page.evaluate("navigator.clipboard.readText()")
        text, link = copied.split("\n")
        assert text == "Ann wins 660 – Ben 12 – Cy \u221218, 3 hands"
        assert re.fullmatch(re.escape(url) + r"/results/[\w-]{43}", link)

        page.get_by_role("link", name="Play again").click()
        page.wait_for_load_state()
        expect(page.locator(".lead")).to_contain_text("Ann deals the first hand")
        screenshot_of(page, "scoreboard-play-again")
        page.get_by_role("button", name="Start the next game").click()
        page.wait_for_load_state()
        expect(page.locator(".next-deal")).to_contain_text("Hand 1: Ann deals.")
        new_url = page.url
        assert new_url != f"{url}/games/{game_id}"
        page.goto(f"{url}/games/{game_id}")
        expect(page.get_by_role("link", name=re.compile("^Next game"))).to_have_attribute(
            "href", new_url.removeprefix(url))
    finally:
        context.close()


def test_sharing_without_javascript(writer, table: tuple[Flask, str]) -> None:  # type: ignore[no-untyped-def]
    app, url = table
    _league, game_id, code = seed(app, "Family Typed", 3)
    join(writer, url + code)
    writer.get_by_role("link", name="Share the result").click()
    writer.get_by_role("button", name="Make the link").click()
    writer.wait_for_load_state()
    link = writer.get_by_label("Link to the result:").input_value()
    assert re.fullmatch(re.escape(url) + r"/results/[\w-]{43}", link)
    writer.goto(f"{url}/games/{game_id}")
    writer.locator("[data-share-fallback] summary").click()
    box = writer.locator("textarea.share-message")
    expect(box).to_have_value(f"Ann wins 660 – Ben 12 – Cy \u221218, 3 hands\n{link}")
    expect(writer.get_by_role("link", name="Send as a text message")).to_have_attribute(
        "href", re.compile(r"^sms:\?&body=Ann%20wins"))
