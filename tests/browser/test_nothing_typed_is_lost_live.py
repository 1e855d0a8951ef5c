"""Nothing a person types on the live hand page is lost (issue 27, trust at the table), on
a phone by touch (390×844): the points of two hands typed one after the other with no
pause, a word still being composed by the phone's keyboard when another phone's move
refreshes the part of the page around it, and this phone's own Finish while a refresh that
would load the page again is on its way.

What was lost before, and why (benchmarks/README.md, "Points for a hand nobody
remembers"): two taps at the same spot in quick succession are one double tap to the
browser, even on two fields (the page scrolls the second where the first was); the
second field took the focus but no caret, and its keys typed nothing. A refresh of a
live region replaced the field being typed into with a copy (a word being composed was
lost with it). And a refresh that found the hand ended (by this phone's own Finish) loaded
the live page again over the way to the game ("saved on another phone"), keeping as
drafts what had been stored."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser):  # type: ignore[no-untyped-def]
    """A touch phone: taps, not clicks."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True,
                                  is_mobile=True, locale="en-GB")
    yield context.new_page()
    context.close()


def new_game(page: Page, live_server: str, names: list[str], family: str) -> str:
    """A new game; returns its URL."""
    page.goto(f"{live_server}/games/new")
    for i, name in enumerate(names):
        page.locator(f"#players-{i}").fill(name)
    page.locator(f"input[name=family][value={family}]").check()
    page.locator("form button.button-big[type=submit]").tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return page.url


def start_live(page: Page, live_server: str, names: list[str], family: str,
               board: str = "") -> str:
    """Hand 1 of a game (a new one unless ``board``) started live; returns the game's URL."""
    board = board or new_game(page, live_server, names, family)
    page.goto(board + "/hands/live")
    with page.expect_navigation():
        page.locator("#live-start button[type=submit]").tap()
    expect(page.locator(".picker-grid")).to_be_visible()
    return board


def put_down(page: Page, player: int, cards: str, melds: int) -> None:
    """A meld sent from this phone (typed into its field: the picker is tested elsewhere);
    ``melds``: how many the table holds once it is stored."""
    page.locator(f"#meld-form label:has(> input[name=meld-player][value=p{player}])").tap()
    page.locator("#meld-form [name=meld-cards]").fill(cards)
    page.locator("#meld-form button[type=submit]").tap()
    expect(page.locator("#table .meld-list > li")).to_have_count(melds)


def stored_hand(page: Page, board: str) -> Any:
    game_id = board.rstrip("/").rsplit("/", 1)[1]
    base = board.split("/games/")[0]
    answer = page.request.get(f"{base}/api/v1/games/{game_id}/hands/1")
    assert answer.ok, answer.text()
    data = answer.json()
    return data.get("hand", data)


def live_drafts(page: Page) -> list[str]:
    return list(page.evaluate("""() => Object.keys(localStorage)
        .filter(k => k.startsWith('scorebook:draft:live|'))"""))


def test_points_for_two_hands_typed_with_no_pause_are_all_kept(phone: Page,
                                                               live_server: str) -> None:
    """Ann's and Cy's points typed one after the other, as fast as the scripted scorer
    types them: both kept, both stored (it was Cy's that went: a double tap)."""
    page = phone
    board = start_live(page, live_server, ["Ann", "Ben", "Cy"], "basic")
    put_down(page, 1, "5h 6h 7h 8h", 1)
    put_down(page, 1, "qc qd qs", 2)
    fields = page.locator("#finish-form [data-held-input]")
    for seat, points in ((0, "32"), (2, "39")):  # no pause between them
        fields.nth(seat).tap()
        expect(fields.nth(seat)).to_be_focused()
        page.keyboard.type(points)
    expect(fields.nth(0)).to_have_value("32")
    expect(fields.nth(2)).to_have_value("39")
    # who went out follows from the points (Ben: the only one holding nothing)
    expect(page.locator("#finish-form input[name=finish-outcome][value=p1]")).to_be_checked()
    page.locator("#finish-form button[type=submit]").tap()
    page.wait_for_url(lambda url: url.startswith(board) and "/hands/" not in url)
    held = {p["name"]: p.get("held_points") for p in stored_hand(page, board)["players"]}
    assert held == {"Ann": 32, "Ben": None, "Cy": 39}, held
    assert live_drafts(page) == []


def test_a_word_being_typed_survives_another_phones_move(phone: Page, writer: Page,
                                                          live_server: str) -> None:
    """The lay-off's card typed with the phone's keyboard ("Type"), a word still being
    composed by it (as Android's keyboards do) when another phone's meld arrives and the
    lay-off part of the page is refreshed: the same field stays, and the word ends as
    typed (it was replaced by a copy, and the keyboard's word was typed again after the
    copy's letters)."""
    page = phone
    board = new_game(page, live_server, ["Ann", "Ben"], "rummy-500")
    join(writer, scorer_link(page, live_server))
    start_live(page, live_server, [], "", board)
    put_down(page, 0, "7s 8s 9s", 1)
    expect(page.locator("#layoff")).to_be_visible()
    page.locator("[data-picker-dock] .picker-toggle[aria-pressed]").tap()  # "Type"
    field = page.locator("#layoff-form [name=layoff-card]")
    field.tap()
    expect(field).to_be_focused()
    expect(field).to_have_attribute("inputmode", "text")
    page.evaluate("() => { window.__field = document.querySelector('[name=layoff-card]'); }")
    keyboard = page.context.new_cdp_session(page)
    keyboard.send("Input.imeSetComposition", {"text": "6", "selectionStart": 1,
                                              "selectionEnd": 1})
    expect(field).to_have_value("6")
    # the other phone (no JavaScript) puts down Ben's kings: the lay-off's choices grow
    writer.goto(board + "/hands/live")
    writer.check("input[name=meld-player][value=p1]")
    writer.fill("[name=meld-cards]", "kh kd kc")
    writer.get_by_role("button", name="Put it down").click()
    writer.wait_for_load_state()
    expect(page.locator("#layoff-form input[name=layoff-onto]")).to_have_count(2)
    expect(field).to_be_focused()
    # the keyboard's word is finished: "6s"
    keyboard.send("Input.insertText", {"text": "6s"})
    expect(field).to_have_value("6s")
    assert page.evaluate("() => window.__field === document.querySelector('[name=layoff-card]')")
    # Ann lays it off on her run (the first meld); sent and stored
    page.locator("#layoff-form label:has(> input[name=layoff-player][value=p0])").tap()
    page.locator("#layoff-form label:has(> input[name=layoff-onto])").first.tap()
    page.locator("#layoff-form button[type=submit]").tap()
    expect(page.locator("#cancel-live")).to_have_attribute("data-moves", "3")
    expect(page.locator("#table .meld-list > li").first).to_have_attribute(
        "data-cards", re.compile(r"(^| )6S( |$)"))


def scorer_link(owner: Page, live_server: str) -> str:
    owner.goto(f"{live_server}/leagues")
    owner.get_by_role("link", name="Settings").first.tap()
    owner.locator("#scorer-link").get_by_role("button", name="Make a link").tap()
    return owner.locator("#scorer-url").input_value()


def join(phone: Page, link: str) -> None:
    phone.goto(link)
    phone.get_by_role("button", name=re.compile("^Join")).click()
    phone.wait_for_url(lambda url: "/join" not in url)
    phone.wait_for_load_state()


@pytest.fixture
def phone_without_worker(browser):  # type: ignore[no-untyped-def]
    """The touch phone without the service worker: Playwright's routes see the pages it
    loads (a page the worker fetches is not routed)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True,
                                  is_mobile=True, locale="en-GB", service_workers="block")
    yield context.new_page()
    context.close()


def test_this_phones_finish_is_not_undone_by_a_refresh_on_its_way(
        phone_without_worker: Page, live_server: str) -> None:
    """Finish tapped; before the game page comes, a refresh of the live page (the version
    moved: the hand this phone just stored) finds the hand ended. The page goes to the
    game as its Finish said, not back to the live page ("saved on another phone"), and
    keeps no draft of what it stored (it would say "not recorded")."""
    page = phone_without_worker
    board = start_live(page, live_server, ["Ann", "Ben", "Cy"], "basic")
    put_down(page, 0, "5h 6h 7h 8h", 1)
    put_down(page, 0, "qc qd qs", 2)
    fields = page.locator("#finish-form [data-held-input]")
    fields.nth(1).fill("32")
    fields.nth(2).fill("39")
    expect(page.locator("#finish-form input[name=finish-outcome][value=p0]")).to_be_checked()
    page.evaluate("""() => document.addEventListener('live:reloading',
        () => console.log('live:reloading seen'))""")
    # the refresh of the live page and the way to the game are held until both are asked
    held: dict[str, Any] = {}

    def hold_refresh(route: Any) -> None:
        if route.request.headers.get("x-live-refresh"):
            held["refresh"] = route
        else:
            route.continue_()

    page.route(re.compile(r".*/hands/live\?following=\d+$"), hold_refresh)
    page.route(lambda url: url.split("#")[0].rstrip("/") == board,
               lambda route: held.setdefault("game", route))
    with page.expect_request(lambda r: r.url.split("#")[0].rstrip("/") == board), \
            page.expect_request(lambda r: "following=" in r.url and
                                bool(r.headers.get("x-live-refresh"))):
        page.locator("#finish-form button[type=submit]").tap()
    page.context.cookies()  # (a round trip to the browser: the routes' handlers ran)
    assert set(held) == {"refresh", "game"}, held
    # the refresh answered (the page is said while the way to the game is still held)
    with page.expect_console_message(lambda m: m.text == "live:reloading seen"):
        held["refresh"].continue_()
    try:
        held["game"].continue_()
    except Exception:  # noqa: BLE001 - the old script had sent the page elsewhere
        pass
    page.wait_for_url(lambda url: url.split("#")[0].rstrip("/") == board)
    expect(page.locator("h1")).not_to_contain_text("Live hand")
    assert live_drafts(page) == []
