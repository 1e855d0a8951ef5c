"""Fewer taps to record a hand (issue 27), on a phone by touch: a run by its two ends
(the cards between filled in), a set by its first card and the rest of it offered under
it, and a card that cannot go on a whole meld beginning the next one. The rule book's
worked hand (seed 004) is entered as benchmarks/taps.py enters it, every card stored."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE, WAIT_MS
from tests.browser.test_scorebook_game import screenshot_page, start_game

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
#: The taps for the seed 004 hand with the shortcuts (benchmarks/README.md; 36 before).
SEED_004_TAPS = 29


def taps_module() -> Any:
    spec = importlib.util.spec_from_file_location("bench_taps", ROOT / "benchmarks" / "taps.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def phone(browser):  # type: ignore[no-untyped-def]
    """A touch phone: taps, not clicks."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True,
                                  is_mobile=True)
    yield context.new_page()
    context.close()


def test_the_seed_004_hand_in_fewer_taps(browser: Any, live_server: str) -> None:
    """score.500: 13 / 64 / −9, every card stored as entered, in 29 taps (36 one by one)."""
    taps = taps_module()
    count = taps.play(browser, live_server, "en", "seed004", wait_ms=WAIT_MS)
    print(f"\ntaps to enter the seed 004 hand with the shortcuts: {count}")
    assert count <= SEED_004_TAPS


#: The same hand played live, move by move (benchmarks/README.md; 49 before the live
#: page offered the shortcuts).
SEED_004_LIVE_TAPS = 39


def test_the_seed_004_hand_live_in_fewer_taps(browser: Any, live_server: str) -> None:
    """The live hand page: a run by its ends, a set offered, the meld a lay-off fits
    chosen, the picker following the player tapped, who went out taken from the cards."""
    taps = taps_module()
    count = taps.play(browser, live_server, "en", "seed004", wait_ms=WAIT_MS, live=True)
    print(f"\ntaps to play the seed 004 hand live with the shortcuts: {count}")
    assert count <= SEED_004_LIVE_TAPS


def chips(page: Page, player: int, meld: int) -> Any:
    return page.locator(f"#player-{player} .slot").nth(meld).locator(
        "[data-act=remove-meld-card]")


def test_a_run_by_its_ends_a_set_offered_and_the_next_meld(phone: Page,
                                                           live_server: str) -> None:
    page = phone
    start_game(page, live_server, ["Ann", "Ben"], "rummy-500")
    page.goto(page.url + "/hands/new")

    def card(code: str) -> None:
        page.locator(f".picker-grid button[data-card='{code}']").tap()

    # 7♠ then 10♠: the run 7♠ 8♠ 9♠ 10♠, and the picker says what it filled in
    card("7S")
    card("10S")
    expect(chips(page, 0, 0)).to_have_text(["7♠", "8♠", "9♠", "10♠"])
    expect(page.locator("[data-picker-note]")).to_contain_text("8♠ 9♠ filled in")
    expect(page.locator("#player-0 .slot-status.ok")).to_have_count(1)
    expect(page.locator(".picker-grid button[data-card='8S']")).to_be_disabled()
    # K♥ fits no run of spades: it begins meld 2, and the rest of a set is offered
    card("KH")
    expect(page.locator("[data-picker-note]")).to_contain_text("begins meld 2")
    offers = page.locator("#player-0 [data-act=complete]")
    expect(offers).to_have_count(4)  # two of ♠ ♦ ♣, or all three
    screenshot_page(page, "scorebook-record-set-offered", full_page=False)
    offers.and_(page.locator("[data-cards='KD KS']")).tap()
    expect(chips(page, 0, 1)).to_have_text(["K♥", "K♦", "K♠"])
    expect(page.locator("#player-0 .slot-status.ok")).to_have_count(2)
    expect(offers).to_have_count(0)
    # the queen and the ace of hearts: Q♥ K♥ A♥ wants the K♥, used up: no run filled in
    page.locator("#player-1 [data-act=new-meld]").tap()
    card("QH")
    card("AH")
    expect(chips(page, 1, 0)).to_have_text(["Q♥", "A♥"])
    # a run taken back card by card, as before: 8♠ out of 7♠…10♠ leaves it loose
    chips(page, 0, 0).nth(1).tap()
    expect(chips(page, 0, 0)).to_have_text(["7♠", "9♠", "10♠"])
    expect(page.locator("#player-0 .slot.is-invalid")).to_have_count(1)
    # ace high by its two ends: J♣ … A♣
    page.locator("#player-1 [data-act=new-meld]").tap()
    card("JC")
    card("AC")
    expect(chips(page, 1, 1)).to_have_text(["J♣", "Q♣", "K♣", "A♣"])
    expect(page.locator("#player-1 .slot-status.ok")).to_have_count(1)
    page.locator("#player-1 .slot").nth(1).scroll_into_view_if_needed()
    screenshot_page(page, "scorebook-record-run-by-its-ends", full_page=False)
