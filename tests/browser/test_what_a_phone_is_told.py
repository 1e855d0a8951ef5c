"""What a phone is told (issue 24), in a phone's browser at 390×844: a live move
refused because another phone sent the same card first keeps its reason beside the
move until the player acts; times are shown in the phone's own time zone (and say
"UTC" without JavaScript)."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.test_trust_at_the_table import join, scorer_link, start_game
from tests.reading import sentence

pytestmark = pytest.mark.browser

WAIT_MS = 60_000  # a busy machine may be slow; it must not fail a test for that


def put_down(phone: Page, player: str, cards: str) -> None:
    form = phone.locator("#meld-form")
    form.get_by_text(player, exact=True).click()
    form.get_by_label("Cards").fill(cards)
    form.get_by_role("button", name="Put it down").click()


def lay_off(phone: Page, player: str, card: str, onto: str) -> None:
    form = phone.locator("#layoff-form")
    form.get_by_role("radiogroup", name="Who laid it off").get_by_text(player, exact=True).click()
    form.get_by_label("Card", exact=True).fill(card)
    form.get_by_text(onto).click()
    form.get_by_role("button", name="Lay it off").click()


@pytest.mark.parametrize("move", ["meld", "layoff"])
def test_a_move_refused_because_another_phone_sent_the_card_first_keeps_its_reason(
        page: Page, live_server: str, browser, move: str) -> None:  # type: ignore[no-untyped-def]
    page.set_default_timeout(WAIT_MS)
    board = start_game(page, live_server, ["Ann", "Ben"])
    link = scorer_link(page, live_server)
    other = browser.new_context(viewport=PHONE)
    try:
        second = other.new_page()
        second.set_default_timeout(WAIT_MS)
        join(second, link, "Ben")
        page.goto(board + "/hands/live")
        page.get_by_role("button", name="Start hand 1 live").click()
        page.wait_for_load_state()
        second.goto(board + "/hands/live")
        if move == "layoff":
            put_down(page, "Ann", "10s js qs")
            expect(second.locator("#layoff")).to_be_visible(timeout=WAIT_MS)
        # the other phone sends the K♠ first ...
        if move == "meld":
            put_down(second, "Ben", "ks kh kd")
        else:
            lay_off(second, "Ben", "ks", "Ann's meld 1")
        expect(second.locator("#table")).to_contain_text("K♠", timeout=WAIT_MS)
        # ... and this phone sends it too: refused, with the reason beside the move
        if move == "meld":
            put_down(page, "Ann", "js qs ks")
        else:
            lay_off(page, "Ann", "ks", "Ann's meld 1")
        form = page.locator(f"#{move}-form")
        error = form.locator("[data-move-error]")
        expect(error).to_contain_text("K♠", timeout=WAIT_MS)
        reason = error.inner_text()
        # it says who played the card, and that the decks hold no other
        assert "Ben" in reason and "no other K♠ in play" in reason, reason
        # the table follows the other phone (its next meld shows here): the reason stays,
        # and so does what this phone had entered
        put_down(second, "Ben", "4c 4d 4h")
        expect(page.locator("#table")).to_contain_text("4♥", timeout=WAIT_MS)
        expect(error).to_be_visible(timeout=WAIT_MS)
        expect(error).to_have_text(reason, timeout=WAIT_MS)
        field = form.get_by_label("Cards" if move == "meld" else "Card", exact=True)
        expect(field).not_to_have_value("", timeout=WAIT_MS)
        # until the player acts: another card, sent, is stored and the reason goes
        if move == "meld":
            put_down(page, "Ann", "jc qc kc")
        else:
            lay_off(page, "Ann", "9s", "Ann's meld 1")
        expect(error).to_be_hidden(timeout=WAIT_MS)
        expect(page.locator("#table")).to_contain_text("K♣" if move == "meld" else "9♠",
                                                       timeout=WAIT_MS)
    finally:
        other.close()


def test_a_refusal_that_comes_back_after_the_table_moved_on_is_shown(
        page: Page, live_server: str, browser) -> None:  # type: ignore[no-untyped-def]
    """The answer to a lay-off arrives after the lay-off's part of the page was swapped
    for a fresher one: the reason goes into the form the phone shows, not the old copy."""
    page.set_default_timeout(WAIT_MS)
    board = start_game(page, live_server, ["Ann", "Ben"])
    link = scorer_link(page, live_server)
    other = browser.new_context(viewport=PHONE)
    try:
        second = other.new_page()
        second.set_default_timeout(WAIT_MS)
        join(second, link, "Ben")
        page.goto(board + "/hands/live")
        page.get_by_role("button", name="Start hand 1 live").click()
        page.wait_for_load_state()
        second.goto(board + "/hands/live")
        put_down(page, "Ann", "10s js qs")
        expect(second.locator("#layoff")).to_be_visible(timeout=WAIT_MS)
        lay_off(second, "Ben", "ks", "Ann's meld 1")
        expect(second.locator("#table")).to_contain_text("K♠", timeout=WAIT_MS)
        held = []
        page.route("**/hands/live/layoff", lambda route: held.append((route, route.fetch())))
        lay_off(page, "Ann", "ks", "Ann's meld 1")
        for _ in range(WAIT_MS // 100):  # the lay-off reached the server, its answer held
            if held:
                break
            page.wait_for_timeout(100)
        assert held, "the lay-off was never sent"
        put_down(second, "Ben", "4c 4d 4h")
        expect(page.locator("#table")).to_contain_text("4♥", timeout=WAIT_MS)
        route, answer = held[0]
        route.fulfill(response=answer)
        error = page.locator("#layoff-form [data-move-error]")
        expect(error).to_contain_text("K♠", timeout=WAIT_MS)
    finally:
        other.close()


def local(element: Locator, zone: str) -> tuple[datetime, str]:
    """The moment a <time> element carries (in UTC), in ``zone``; and the words shown."""
    at = datetime.fromisoformat(str(element.get_attribute("datetime")).replace("Z", "+00:00"))
    return at.astimezone(ZoneInfo(zone)), element.inner_text()


def test_times_are_shown_in_the_phones_own_time_zone(browser, live_server: str) -> None:  # type: ignore[no-untyped-def]
    zone = "America/Los_Angeles"  # never UTC's hour, whatever the date
    context = browser.new_context(viewport=PHONE, timezone_id=zone)
    try:
        phone = context.new_page()
        phone.set_default_timeout(WAIT_MS)
        board = start_game(phone, live_server, ["Ann", "Ben"])
        phone.get_by_text("Game details").click()
        started = phone.locator("details", has_text="Game details").locator("time")
        expect(started).to_have_attribute("data-local-shown", "", timeout=WAIT_MS)
        at, shown = local(started, zone)
        assert "UTC" not in shown, shown
        assert f"{at.hour % 12 or 12}:{at.minute:02d}" in shown, (at, shown)
        assert shown.startswith(f"{at.month}/{at.day}/"), (at, shown)  # "12/1/26, 8:26 PM"
        # the game's history, in Spanish: the day and 24-hour time where the phone is
        phone.goto(board + "/history?lang=es")
        changed = phone.locator("time[data-local=moment]").first
        expect(changed).to_have_attribute("data-local-shown", "", timeout=WAIT_MS)
        at, shown = local(changed, zone)
        assert "UTC" not in shown and f"{at.hour}:{at.minute:02d}" in shown, (at, shown)
    finally:
        context.close()


def test_without_javascript_a_time_says_it_is_utc(writer: Page, live_server: str) -> None:
    writer.set_default_timeout(WAIT_MS)
    board = start_game(writer, live_server, ["Ann", "Ben"])
    writer.goto(board + "/history")
    at, shown = local(writer.locator("time[data-local=moment]").first, "UTC")
    assert shown.endswith("UTC"), shown
    assert f"{at.hour % 12 or 12}:{at.minute:02d}" in shown, (at, shown)


def test_a_phone_that_joined_with_an_invite_leaves_and_the_owner_sees_it(
        page: Page, live_server: str, browser) -> None:  # type: ignore[no-untyped-def]
    page.set_default_timeout(WAIT_MS)
    start_game(page, live_server, ["Ann", "Ben"])
    page.goto(f"{live_server}/leagues")
    page.get_by_role("link", name="Settings").first.click()
    settings = page.url
    page.locator("#viewer-link").get_by_role("button", name="Make a link").click()
    link = page.locator("#viewer-url").input_value()
    other = browser.new_context(viewport=PHONE)
    try:
        phone = other.new_page()
        phone.set_default_timeout(WAIT_MS)
        join(phone, link, "Uncle Joe")
        phone.goto(f"{live_server}/league/")
        phone.locator(".league-nav").get_by_role("link", name="Leave").click()
        expect(phone.locator("h1")).to_contain_text("Leave", timeout=WAIT_MS)
        expect(phone.get_by_text("ask its owner for an invite link")).to_be_visible(
            timeout=WAIT_MS)
        phone.locator("form").get_by_role("button", name=re.compile("^Leave")).click()
        expect(phone.locator(".flash")).to_contain_text("has left", timeout=WAIT_MS)
        expect(phone.locator("h1")).to_have_text("Your leagues", timeout=WAIT_MS)
    finally:
        other.close()
    page.goto(settings)
    who = page.locator("#who-left")
    expect(who).to_contain_text(sentence("Uncle Joe's phone"), timeout=WAIT_MS)
    expect(who).to_contain_text("a viewer", timeout=WAIT_MS)
    expect(who.locator("time[data-local-shown]")).to_have_count(1, timeout=WAIT_MS)
