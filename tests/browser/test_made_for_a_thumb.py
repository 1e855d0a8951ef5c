"""Issue 18 at phone size (390×844), in English, Spanish and Italian: the referee's table
built with taps (a meld, a card laid off by another player), the picker dimming the cards
used anywhere in the question and naming the focused field, every tool tab in sight, the
picker's share of the screen with its header on one line, and the status line it shows
after a lay-off on the record-hand page."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE, SHOTS

pytestmark = pytest.mark.browser

LANGUAGES = ["en", "es", "it"]
#: the record page's Lay off / In hand tools, as each language names them
LAY_OFF = {"en": "Lay off", "es": "Colocar", "it": "Attacca"}


@pytest.fixture(params=LANGUAGES)
def phone(request, browser) -> Iterator[tuple[Page, str]]:  # type: ignore[no-untyped-def]
    """A phone whose browser asks for the page in one language."""
    language = request.param
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, locale=language)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page, language
    context.close()
    assert not errors, errors


def dock(page: Page):  # type: ignore[no-untyped-def]
    return page.locator("[data-picker-dock]")


def tap(page: Page, *cards: str) -> None:
    for card in cards:
        dock(page).locator(f"button[data-card='{card}']").click()


def ask(page: Page) -> None:
    with page.expect_navigation():
        page.locator(".referee-form button[type=submit]").click()


def test_the_table_builder_a_meld_and_a_lay_off_by_another_player(phone):
    page, lang = phone
    page.goto(f"{page_url(page)}/referee/layoff")
    assert page.locator("html").get_attribute("lang") == lang
    # the table takes taps at once: the picker is open on it, no field to find first
    expect(dock(page)).to_be_visible()
    expect(page.locator("#table")).to_be_hidden()
    tap(page, "5H", "6H", "7H")
    meld = page.locator(".builder-meld").nth(0)
    meld.locator(".builder-owner").fill("Ann")
    meld.locator(".builder-owner").press("Enter")
    # Ben laid off the 7♥: tap the card, then name him
    meld.locator(".card-chip").nth(2).click()
    page.locator(".builder-by").fill("Ben")
    page.locator(".builder-by").press("Enter")
    expect(meld.locator(".card-chip.layoff-chip")).to_have_text(re.compile("7♥.*Ben"))
    # a second meld is one tap, no newline to type
    page.locator("[data-builder-new]").click()
    tap(page, "9S", "9D", "9C")
    assert page.locator("#table").input_value() == "A (Ann): 5♥ 6♥ 7♥@Ben\nB: 9♠ 9♦ 9♣"
    page.locator("#card").focus()
    tap(page, "8H")
    shoot(page, f"referee-table-builder-{lang}")
    ask(page)
    table = parse_qs(urlparse(page.url).query)["table"][0].replace("\r\n", "\n")
    assert table == "A (Ann): 5H 6H 7H@Ben\nB: 9S 9D 9C"
    expect(page.locator(".verdict")).to_have_class(re.compile("verdict-legal"))
    # the verdict's page shows the same table in the builder, ready for the next question
    expect(page.locator(".builder-meld")).to_have_count(2)
    expect(page.locator(".builder-meld").nth(0).locator(".layoff-chip")).to_contain_text("Ben")
    shoot(page, f"referee-table-builder-verdict-{lang}")


def test_the_picker_greys_cards_used_anywhere_and_names_the_focused_field(phone):
    page, lang = phone
    page.goto(f"{page_url(page)}/referee/draw")
    tap(page, "5H", "6H", "7H")                      # the table
    page.locator("#pile").focus()
    target = dock(page).locator("[data-picker-target]")
    expect(target).to_contain_text(label_of(page, "pile"))
    tap(page, "9S", "4C")
    page.locator("#hand").focus()
    expect(target).to_contain_text(label_of(page, "hand"))
    # one deck (four players): the table's and the pile's cards are used up
    for card in ("5H", "6H", "7H", "9S", "4C"):
        expect(dock(page).locator(f"button[data-card='{card}']")).to_be_disabled()
    expect(dock(page).locator("button[data-card='6C']")).to_be_enabled()
    tap(page, "2C", "3C")
    # a field that takes no cards: the header says nothing
    page.locator("#take").focus()
    expect(target).to_have_text("")
    # the discard is one of the hand's or the pile's cards: only those are offered
    page.locator("#discard").focus()
    for card in ("2C", "3C", "9S", "4C"):
        expect(dock(page).locator(f"button[data-card='{card}']")).to_be_enabled()
    for card in ("KD", "5H"):
        expect(dock(page).locator(f"button[data-card='{card}']")).to_be_disabled()
    # and with five players (two decks) a card used once can be tapped again
    page.locator("#players").fill("5")
    page.locator("#players").dispatch_event("change")
    page.locator("#hand").focus()
    expect(dock(page).locator("button[data-card='5H']")).to_be_enabled()
    shoot(page, f"referee-picker-greyed-{lang}")


def test_every_tool_tab_is_in_sight(phone):
    page, lang = phone
    for slug in ("meld", "going-out"):
        page.goto(f"{page_url(page)}/referee/{slug}")
        tabs = page.locator(".tool-tabs a")
        expect(tabs).to_have_count(5)
        nav = page.locator(".tool-tabs").bounding_box()
        assert nav is not None
        for k in range(5):
            box = tabs.nth(k).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
            # nothing cut off inside a tab either
            assert tabs.nth(k).evaluate("a => a.scrollWidth <= a.clientWidth + 1")
        assert page.locator(".tool-tabs").evaluate("n => n.scrollWidth <= n.clientWidth + 1")
        assert nav["height"] < 2 * 44 + 40  # two rows at most
        # the tab's short name is the tool's full name on the page
        expect(page.locator(".tool-name")).not_to_be_empty()
    shoot(page, f"referee-tabs-{lang}")


def test_the_picker_keeps_to_under_half_the_screen_with_a_one_line_header(phone):
    page, lang = phone
    page.goto(f"{page_url(page)}/referee/going-out")
    page.locator("#hand").focus()
    expect(dock(page)).to_be_visible()
    check_picker(page)
    # the field being filled is in sight above the picker
    field = page.locator("#hand").bounding_box()
    top = dock(page).bounding_box()
    assert field is not None and top is not None
    assert field["y"] >= 0 and field["y"] + field["height"] <= top["y"] + 1
    # on the record page, with a name in the header ("Añadir a: Bo — En la mano")
    start_game(page, ["Bo", "Cleopatra"])
    page.locator("#player-0 [data-act=hand]").click()
    check_picker(page)
    shoot(page, f"scorebook-record-picker-{lang}")


def test_a_lay_off_says_what_it_did_in_the_picker(phone):
    page, lang = phone
    start_game(page, ["Ann", "Ben"])
    page.locator("#player-1 [data-act=new-meld]").click()
    tap(page, "7H", "8H", "9H")
    expect(page.locator("#player-1 .slot-status.ok")).to_have_count(1)
    page.locator("#player-0 [data-act=layoff]").click()
    tap(page, "10H")
    note = dock(page).locator("[data-picker-note]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("10♥ → ")
    expect(note).to_contain_text("Ben")
    box = note.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    shoot(page, f"scorebook-record-layoff-note-{lang}")
    # the next tap clears it
    page.locator("#player-0 [data-act=hand]").click()
    tap(page, "2C")
    expect(note).to_be_hidden()


def test_a_live_lay_off_says_what_it_did_in_the_picker(phone):
    page, lang = phone
    game_url = new_game(page, ["Ann", "Ben"])
    page.goto(f"{game_url}/hands/live")
    with page.expect_navigation():
        page.locator("#live-start button[type=submit]").click()
    # Ben melds 7♥ 8♥ 9♥, with the picker
    meld = page.locator("#meld-form")
    meld.locator("input[name=meld-player][value=p1]").check()
    meld.locator("[name=meld-cards]").click()
    tap(page, "7H", "8H", "9H")
    meld.locator("button[type=submit]").click()  # sent in the background
    layoff = page.locator("#layoff")
    expect(layoff).to_be_visible()
    note = dock(page).locator("[data-picker-note]")
    expect(note).to_be_hidden()  # a meld is not a lay-off: nothing to say
    # Ann lays the 10♥ off on it: the picker says so once it is stored
    layoff.locator("input[name=layoff-player][value=p0]").check()
    layoff.locator("[name=layoff-card]").click()
    tap(page, "10H")
    layoff.locator("input[name=layoff-onto]").first.check()
    layoff.locator("button[type=submit]").click()
    expect(page.locator("#table")).to_contain_text("10♥")
    expect(note).to_be_visible()
    meld_name = {"en": "Ben's meld 1", "es": "combinación 1 de Ben",
                 "it": "combinazione 1 di Ben"}[lang]
    expect(note).to_have_text(f"10♥ → {meld_name}")
    box = note.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    shoot(page, f"scorebook-live-layoff-note-{lang}")
    # the next tap clears it
    page.locator("#finish [data-card-input]").first.click()
    tap(page, "2C")
    expect(note).to_be_hidden()


# --- helpers -----------------------------------------------------------------------------

def shoot(page: Page, name: str) -> None:
    """The screenshot fixture's, for this file's own phones (make screenshots)."""
    if os.environ.get("SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


_SERVER: dict[str, str] = {}


@pytest.fixture(autouse=True)
def _server(live_server: str) -> None:
    _SERVER["url"] = live_server


def page_url(_page: Page) -> str:
    return _SERVER["url"]


def label_of(page: Page, field_id: str) -> str:
    return page.locator(f"label[for='{field_id}']").inner_text().strip()


def check_picker(page: Page) -> None:
    box = dock(page).bounding_box()
    assert box is not None
    share = box["height"] / PHONE["height"]
    assert share <= 0.46, f"the picker covers {share:.0%} of the screen"
    head = dock(page).locator(".picker-target").bounding_box()
    assert head is not None and head["height"] <= 44  # one line: Type and Hide beside it
    for name in (".picker-target [data-picker-target]", ".picker-buttons"):
        part = dock(page).locator(name).bounding_box()
        assert part is not None and part["y"] >= head["y"] - 1
        assert part["y"] + part["height"] <= head["y"] + head["height"] + 1


def new_game(page: Page, names: list[str]) -> str:
    """A 500 Rum game for ``names``, by the form's fields (in any language); its address."""
    page.goto(f"{_SERVER['url']}/games/new")
    for i, name in enumerate(names):
        page.locator("input[data-seat]").nth(i).fill(name)
    page.locator("input[name=family][value=pagat-500]").check()
    with page.expect_navigation():
        page.locator("form.stack button[type=submit]:not([name=add_seat])").last.click()
    assert re.search(r"/games/\d+$", page.url), page.url
    return page.url


def start_game(page: Page, names: list[str]) -> None:
    """A 500 Rum game for ``names``, then its record-hand page."""
    new_game(page, names)
    page.locator("a[href$='/hands/new']").first.click()
    expect(page.locator(".picker-grid")).to_be_visible()
