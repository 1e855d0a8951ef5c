"""Live scoreboards, as a table sees them: one phone records or edits a hand and every
other phone showing the game updates within 2 seconds without a reload; a phone that
was offline catches up when it comes back.

The phone that writes runs without JavaScript (the typed form), so these tests depend
only on live.js on the phone that watches."""

from __future__ import annotations

import time

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

LIMIT_S = 2.0


@pytest.fixture
def writer(browser):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def start_game(writer, live_server: str) -> str:  # type: ignore[no-untyped-def]
    writer.goto(f"{live_server}/games/new")
    writer.fill("[name=players-0]", "Ann")
    writer.fill("[name=players-1]", "Ben")
    writer.check("input[name=family][value=rummy-500]")
    writer.get_by_role("button", name="Start the game").click()
    writer.wait_for_load_state()
    assert "/games/" in writer.url and "/new" not in writer.url
    return writer.url.split("#")[0]


def share(writer, watcher, live_server: str) -> None:  # type: ignore[no-untyped-def]
    """The writer (who started the game, so owns its private league) makes a viewer
    invite link in the league's settings; the watching phone opens it and joins."""
    writer.goto(f"{live_server}/leagues")
    writer.get_by_role("link", name="Settings").first.click()
    writer.locator("#viewer-link").get_by_role("button", name="Make a link").click()
    link = writer.locator("#viewer-url").input_value()
    watcher.goto(link)
    watcher.get_by_role("button", name="Join").click()
    watcher.wait_for_load_state()


def record(writer, game_url: str, melds: str, hand: str, edit: int | None = None) -> float:  # type: ignore[no-untyped-def]
    """Ann melds ``melds`` and holds ``hand``; Ben goes out with two melds. Returns the
    time the writer's save was stored (its redirect came back)."""
    writer.goto(f"{game_url}/hands/{edit}/edit" if edit else f"{game_url}/hands/new")
    writer.fill("[name=players-0-melds]", melds)
    writer.fill("[name=players-0-hand]", hand)
    writer.fill("[name=players-1-melds]", "4c 4s 4d\n10h jh qh")
    writer.check("input[name=outcome][value=p1]")
    with writer.expect_navigation():
        writer.locator("button[type=submit][data-save]").click()
    saved = time.monotonic()
    assert writer.url.startswith(game_url), writer.url
    return saved


def wait_until(page, predicate_js: str, arg: object) -> float:  # type: ignore[no-untyped-def]
    page.wait_for_function(predicate_js, arg=arg, timeout=10_000, polling=50)
    return time.monotonic()


HAS_ROW = "n => document.getElementById('hand-' + n) !== null"
TOTAL_IS = ("t => { const c = document.querySelector('#hand-1 td .hand-score');"
            " return c !== null && c.textContent.trim() === t; }")


def test_a_hand_recorded_or_edited_on_one_phone_shows_on_another(
        page, writer, live_server):  # type: ignore[no-untyped-def]
    game_url = start_game(writer, live_server)
    share(writer, page, live_server)
    page.goto(game_url)
    page.wait_for_selector("[data-live-status][data-state=live]")
    assert page.locator("#hand-1").count() == 0

    saved = record(writer, game_url, "7s 8s 9s", "kd")
    shown = wait_until(page, HAS_ROW, 1)
    print(f"live update, new hand: {shown - saved:.3f} s")
    assert shown - saved < LIMIT_S, f"the new hand took {shown - saved:.2f} s to show"
    assert page.locator("#hand-1 td .hand-score").first.inner_text().strip() == "+14"

    saved = record(writer, game_url, "7s 8s 9s 10s", "", edit=1)
    shown = wait_until(page, TOTAL_IS, "+34")
    print(f"live update, edited hand: {shown - saved:.3f} s")
    assert shown - saved < LIMIT_S, f"the edit took {shown - saved:.2f} s to show"
    # The page was never reloaded: it is still the document the phone opened.
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1


def test_a_phone_that_was_offline_catches_up(page, writer, live_server):  # type: ignore[no-untyped-def]
    game_url = start_game(writer, live_server)
    share(writer, page, live_server)
    page.goto(game_url)
    page.wait_for_selector("[data-live-status][data-state=live]")

    page.context.set_offline(True)
    record(writer, game_url, "7s 8s 9s", "kd")
    page.wait_for_selector("[data-live-status][data-state=offline]")
    time.sleep(1.5)
    assert page.locator("#hand-1").count() == 0  # it cannot know yet

    page.context.set_offline(False)
    back = time.monotonic()
    shown = wait_until(page, HAS_ROW, 1)
    print(f"live update, back online: {shown - back:.3f} s")
    assert shown - back < LIMIT_S, f"catching up took {shown - back:.2f} s"
    page.wait_for_selector("[data-live-status][data-state=live]")
