"""A hand given as points only, on a phone (390×844) with JavaScript on: the link on the
record page, the points typed (a minus too), the hand marked "points only" on the
scoreboard and its page, then edited into cards with the card picker's page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE
from tests.browser.test_scorebook_game import start_game

pytestmark = pytest.mark.browser


def test_points_only_hand_on_a_phone(page: Page, live_server: str, screenshot) -> None:  # type: ignore[no-untyped-def]
    assert page.viewport_size == PHONE
    game = start_game(page, live_server, ["Ann", "Ben"], "rummy-500")
    page.goto(f"{game}/hands/new")
    page.get_by_role("link", name=re.compile("Enter each player's points instead")).click()
    expect(page.locator("#points-mode")).to_be_visible()
    expect(page.locator("[data-picker-dock]")).to_have_count(0)
    page.locator("input[name=players-0-points]").fill("64")
    # an iPhone's numeric keypad has no minus: the sign is a button beside the digits
    points = page.locator("input[name=players-1-points]")
    expect(points).to_have_attribute("inputmode", "numeric")
    sign = page.locator("#player-1 [data-points-sign]")
    expect(sign).to_have_text("+")
    expect(page.locator("select[name=players-1-sign]")).to_be_hidden()
    points.fill("9")
    sign.click()
    expect(sign).to_have_text("\u2212")
    expect(sign).to_have_attribute("aria-pressed", "true")
    # a keyboard that has a minus: typed, it turns the sign over and leaves the digits
    page.locator("input[name=players-0-points]").fill("-64")
    expect(page.locator("input[name=players-0-points]")).to_have_value("64")
    expect(page.locator("#player-0 [data-points-sign]")).to_have_text("\u2212")
    page.locator("#player-0 [data-points-sign]").click()
    expect(page.locator("#player-0 [data-points-sign]")).to_have_text("+")
    screenshot("scorebook-points-only-record")
    # no width wasted: the form fits the phone without scrolling sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_role("button", name="Save hand 1").click()
    # the outcome was not said: refused, nothing stored, the points kept
    expect(page.locator("#problems")).to_contain_text("Say how the hand ended")
    expect(page.locator("input[name=players-0-points]")).to_have_value("64")
    page.locator("input[name=outcome][value=p0]").check()
    page.get_by_role("button", name="Save hand 1").click()
    expect(page).to_have_url(re.compile(r"/games/\d+#hand-1$"))
    row = page.locator("#hand-1")
    expect(row).to_contain_text("points only")
    expect(row).to_contain_text("64")
    expect(row).to_contain_text("\u22129")  # the minus of its sign button
    page.goto(f"{game}/hands/1")
    expect(page.locator("h1")).to_contain_text("points only")
    screenshot("scorebook-points-only-hand")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # into cards: the card page, picker and all
    page.get_by_role("link", name="Edit this hand").click()
    page.get_by_role("link", name="Enter the cards instead").click()
    expect(page.locator("[data-picker-dock]")).to_have_count(1)
    expect(page.get_by_role("link", name="Keep it as points only")).to_be_visible()
