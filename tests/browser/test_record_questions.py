"""The record-hand page's questions, at phone size (390×844): "low or high?" for an ace
laid off on a run 2…K (`values.ace-end`), asked only when both ends are possible, and
"which card is the joker?" (`meld.joker`) — the hand is not saved until it is answered."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import tick_missing
from tests.browser.test_scorebook_game import Taps, start_game

pytestmark = pytest.mark.browser

HEARTS_TWO_TO_KING = ["2 of hearts", "3 of hearts", "4 of hearts", "5 of hearts",
                      "6 of hearts", "7 of hearts", "8 of hearts", "9 of hearts",
                      "10 of hearts", "jack of hearts", "queen of hearts", "king of hearts"]


def record_page(page: Page, live_server: str, family: str = "pagat-500") -> str:
    board = start_game(page, live_server, ["Ann", "Ben"], family)
    page.get_by_role("link", name="Record hand 1").click()
    expect(page.locator(".picker-grid")).to_be_visible()
    return board


def test_an_ace_on_two_to_king_asks_low_or_high_and_keeps_the_answer(
        page: Page, live_server: str, screenshot) -> None:  # type: ignore[no-untyped-def]
    """values.ace-end: Ben lays the A♥ off on Ann's 2♥…K♥: the page asks which end; it does
    not save before the answer; high scores Ben 15, and the hand page says "high end"."""
    board = record_page(page, live_server)
    tap = Taps(page)
    tap.meld(0, *HEARTS_TWO_TO_KING)
    expect(page.locator("#player-0 .slot-status.ok")).to_have_count(1)
    tap.tool(1, "Lay off")
    tap.card("ace of hearts")
    question = page.locator("#player-1 .choices[data-question=end]")
    expect(question).to_contain_text("fits at both ends of Ann's meld 1: low or high?")
    buttons = question.get_by_role("button")
    expect(buttons).to_have_count(2)
    expect(buttons.nth(0)).to_have_text("Low end (A-2-3)")
    expect(buttons.nth(1)).to_have_text("High end (Q-K-A)")
    question.scroll_into_view_if_needed()
    screenshot("scorebook-record-ace-end")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#player-1")).to_contain_text("before saving")
    assert "/hands/new" in page.url  # nothing was sent
    buttons.nth(1).click()
    expect(page.locator("#player-1 [data-act=remove-layoff]")).to_contain_text("high end")
    tap.tool(1, "In hand")
    tap.card("9 of clubs")
    preview = page.locator("[data-preview]")
    expect(preview).to_contain_text("+6")  # Ben: the ace high 15, less the 9♣
    tick_missing(page, "Save hand 1")  # fewer than the 13 dealt (§10): nobody remembers
    page.get_by_role("button", name="Save hand 1").click()
    page.wait_for_load_state()
    assert page.url.startswith(board)
    expect(page.locator("#hand-1")).to_contain_text("+6")
    page.get_by_role("link", name="Hand 1", exact=True).click()
    expect(page.locator(".hand-players")).to_contain_text("at the high end")


def test_an_ace_that_fits_one_end_is_not_asked(page: Page, live_server: str) -> None:
    """values.ace-end: on J♥ Q♥ K♥ the ace can only go high: no question."""
    record_page(page, live_server)
    tap = Taps(page)
    tap.meld(0, "jack of hearts", "queen of hearts", "king of hearts")
    expect(page.locator("#player-0 .slot-status.ok")).to_have_count(1)
    tap.tool(1, "Lay off")
    tap.card("ace of hearts")
    expect(page.locator("#player-1 [data-act=remove-layoff]")).to_have_count(1)
    expect(page.locator("#player-1 .choices")).to_have_count(0)


def test_a_joker_is_not_saved_until_its_card_is_known(page: Page, live_server: str,
                                                      screenshot) -> None:  # type: ignore[no-untyped-def]
    """meld.joker: 5♥ 6♥ JK tapped in is a loose bunch: the page asks which card the joker
    is and saves nothing until it is answered; the answer is stored with the hand."""
    board = record_page(page, live_server)
    tap = Taps(page)
    tap.meld(0, "5 of hearts", "6 of hearts", "joker")
    question = page.locator("#player-0 .choices[data-question=joker]")
    expect(question).to_contain_text("Which card does the joker stand for?")
    expect(question.get_by_role("button")).to_have_count(2)
    tap.tool(1, "In hand")
    tap.card("9 of clubs")
    page.get_by_role("button", name="Save hand 1").click()
    notice = page.locator("#player-0 .field-error")
    expect(notice).to_contain_text("Answer the question on meld 1 before saving")
    assert "/hands/new" in page.url
    page.locator("#player-0").scroll_into_view_if_needed()
    screenshot("scorebook-record-joker-question")
    question.get_by_role("button", name=re.compile(r"5♥ 6♥ JK=7♥")).click()
    expect(page.locator("#player-0 .slot-status.ok")).to_have_count(1)
    expect(page.locator("#player-0 .slot-cards")).to_contain_text("JK=7♥")
    expect(page.locator("#player-0 .choices")).to_have_count(0)
    tick_missing(page, "Save hand 1")  # fewer than the 13 dealt (§10): nobody remembers
    page.get_by_role("button", name="Save hand 1").click()
    page.wait_for_load_state()
    assert page.url.startswith(board)
    page.get_by_role("link", name="Hand 1", exact=True).click()
    expect(page.locator(".hand-players")).to_contain_text("joker as 7 of hearts")


def test_an_edited_hand_reads_its_joker_and_ace_from_where_they_lie(
        page: Page, live_server: str) -> None:
    """meld.joker values.ace-end: opening a stored hand again asks nothing: its joker's
    card and its ace's end were stored; saving it unchanged keeps the scores."""
    record_page(page, live_server)
    tap = Taps(page)
    tap.meld(0, *HEARTS_TWO_TO_KING)
    tap.meld(0, "5 of spades", "6 of spades", "joker")
    page.locator("#player-0 .choices[data-question=joker]").get_by_role(
        "button", name=re.compile(r"JK=4♠")).click()
    tap.tool(1, "Lay off")
    tap.card("ace of hearts")
    page.locator("#player-1 .choices[data-question=end]").get_by_role(
        "button", name="Low end (A-2-3)").click()
    # Ben keeps the 9♣ (left with no cards he would have gone out: out.empty-hand), so
    # Ann, who melded everything, is taken as having gone out
    tap.tool(1, "In hand")
    tap.card("9 of clubs")
    expect(page.locator("input[name=outcome][value=p0]")).to_be_checked()
    tick_missing(page, "Save hand 1")  # fewer than the 13 dealt (§10): nobody remembers
    page.get_by_role("button", name="Save hand 1").click()
    page.wait_for_load_state()
    expect(page.locator("#hand-1")).to_contain_text("+110")  # 84, and 5♠ 6♠ JK: 26
    expect(page.locator("#hand-1")).to_contain_text("−8")  # the ace low 1, less the 9♣
    page.get_by_role("link", name="Hand 1", exact=True).click()
    page.get_by_role("link", name="Edit this hand").click()
    expect(page.locator("#player-0 .slot-status.ok")).to_have_count(2)
    expect(page.locator(".choices")).to_have_count(0)
    expect(page.locator("#player-1 [data-act=remove-layoff]")).to_contain_text("low end")
    page.get_by_role("button", name="Save changes").click()  # the boxes kept ticked
    page.wait_for_load_state()
    expect(page.locator("#hand-1")).to_contain_text("−8")
