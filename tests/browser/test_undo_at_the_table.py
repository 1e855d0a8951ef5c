"""Undo at the table, in a real browser at phone size (with its form tokens checked):
one phone saves a hand; the other phone's scoreboard, following the game by itself,
offers "Undo" and one tap takes the hand back; on the phone without JavaScript the
offer is a plain form button that works as well.

The board is shared between browsers, so its button carries no token: it names the
page's own form outside the board (``form="undo-offer-form"``), which does."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_live_scoreboard import record, share, start_game

pytestmark = pytest.mark.browser


def test_a_hand_saved_on_one_phone_is_undone_with_one_tap_on_another(
        page, writer, live_server, screenshot):  # type: ignore[no-untyped-def]
    game_url = start_game(writer, live_server)
    share(writer, page, live_server, role="scorer")
    page.goto(game_url)
    page.wait_for_selector("[data-live-status][data-state=live]")
    expect(page.locator(".banner-undo")).to_have_count(0)

    record(writer, game_url, "7s 8s 9s", "kd")  # the phone without JavaScript saves hand 1
    offer = page.locator(".banner-undo")  # the other phone follows, and is offered the undo
    expect(offer).to_contain_text("Hand 1 was saved on")
    expect(page.locator("#hand-1")).to_have_count(1)
    screenshot("undo-offer")
    with page.expect_navigation():
        offer.get_by_role("button", name="Undo").click()  # one tap
    expect(page.locator("body")).to_contain_text("Undone: hand 1 is no longer in the game.")
    expect(page.locator("#hand-1")).to_have_count(0)
    expect(page.locator(".banner-undo")).to_have_count(0)
    expect(page.locator(".changes")).to_contain_text("undone by")

    # without JavaScript: the same button, an ordinary form
    record(writer, game_url, "7s 8s 9s", "kd")
    writer.goto(game_url)
    button = writer.locator(".banner-undo").get_by_role("button", name="Undo")
    with writer.expect_navigation():
        button.click()
    expect(writer.locator("body")).to_contain_text("Undone: hand 1 is no longer in the game.")
    expect(writer.locator("#hand-1")).to_have_count(0)


def test_a_live_move_is_undone_from_the_other_phones_live_page(
        page, writer, live_server):  # type: ignore[no-untyped-def]
    game_url = start_game(writer, live_server)
    share(writer, page, live_server, role="scorer")
    writer.goto(f"{game_url}/hands/live")
    with writer.expect_navigation():
        writer.get_by_role("button", name="Start hand 1 live").click()
    page.goto(f"{game_url}/hands/live")
    page.wait_for_selector("[data-live-status][data-state=live]")
    expect(page.locator("#undo-offer .banner-undo")).to_have_count(0)

    writer.check("input[name=meld-player][value=p0]")  # the phone without JavaScript melds
    writer.fill("[name=meld-cards]", "7s 8s 9s")
    with writer.expect_navigation():
        writer.get_by_role("button", name="Put it down").click()
    offer = page.locator("#undo-offer .banner-undo")  # followed by the other phone's page
    expect(offer).to_contain_text("Meld put down in hand 1")
    with page.expect_navigation():
        offer.get_by_role("button", name="Undo").click()
    expect(page.locator("body")).to_contain_text("Undone: the move was taken back.")
    expect(page.locator("body")).to_contain_text("Nothing has been melded yet.")
    expect(page.locator("#undo-offer .banner-undo")).to_have_count(0)
