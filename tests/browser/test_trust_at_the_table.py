"""Trust at the table, in a phone's browser (390×844): one tap never saves a phantom
hand, Back after saving does not save again, a hand being entered survives a reload
and asks before it is left, two phones' live moves both land, a refused move stays
in its form with the reason in view, another phone finishing the hand is said, and
the cards, names and tables read right."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE, tick_missing
from tests.conftest import PATIENCE_S

pytestmark = pytest.mark.browser


def start_game(page: Page, live_server: str, names: list[str], family: str = "rummy-500"
               ) -> str:
    page.goto(f"{live_server}/games/new")
    for i, name in enumerate(names):
        seat = page.get_by_label(f"Seat {i + 1}", exact=True)
        if not seat.is_visible():
            page.get_by_role("button", name="Add a seat").click()
        seat.fill(name)
    page.locator(f"input[name=family][value={family}]").check()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_load_state()
    assert re.search(r"/games/\d+$", page.url), page.url
    return page.url


def game_json(page: Page, board: str) -> Any:
    game_id = board.rstrip("/").rsplit("/", 1)[1]
    base = board.split("/games/")[0]
    return page.evaluate("url => fetch(url).then(r => r.json())",
                         f"{base}/api/v1/games/{game_id}")


def tap(page: Page, player: int, tool: str, *cards: str) -> None:
    page.locator(f"#player-{player}").get_by_role("button", name=tool, exact=True).click()
    for card in cards:
        page.locator(".picker-grid").get_by_role("button", name=card, exact=True).click()


def scorer_link(owner: Page, live_server: str) -> str:
    owner.goto(f"{live_server}/leagues")
    owner.get_by_role("link", name="Settings").first.click()
    owner.locator("#scorer-link").get_by_role("button", name="Make a link").click()
    return owner.locator("#scorer-url").input_value()


def join(phone: Page, link: str, name: str | None = None) -> None:
    phone.goto(link)
    if name:
        phone.get_by_label("Whose phone is this? (optional)").fill(name)
    phone.get_by_role("button", name=re.compile("^Join")).click()
    phone.wait_for_url(lambda url: "/join" not in url)  # joined: the page it leads to
    phone.wait_for_load_state()


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is on screen and not under the docked card picker."""
    return bool(page.evaluate("""sel => {
        const r = document.querySelector(sel).getBoundingClientRect();
        const dock = document.querySelector('[data-picker-dock]');
        const bottom = dock && !dock.hidden ? dock.getBoundingClientRect().top : innerHeight;
        return r.height > 0 && r.top >= 0 && r.bottom <= bottom;
    }""", selector))


# --- one tap never saves a phantom or a half hand -------------------------------------------


def test_a_blank_form_saved_with_one_tap_stores_nothing(page: Page, live_server: str) -> None:
    board = start_game(page, live_server, ["Ann", "Ben"])
    page.get_by_role("link", name="Record hand 1").click()
    expect(page.locator(".picker-grid")).to_be_visible()
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("[data-save-error]")).to_have_text(
        "No cards were entered, so there is no hand to save.")
    assert "/hands/new" in page.url
    assert game_json(page, board)["hands"] == []


def test_the_outcome_is_chosen_by_a_person_or_said_when_taken(page: Page,
                                                             live_server: str) -> None:
    board = start_game(page, live_server, ["Ann", "Ben"])
    page.get_by_role("link", name="Record hand 1").click()
    tap(page, 0, "New meld", "7 of spades", "8 of spades", "9 of spades")
    tap(page, 0, "In hand", "2 of clubs")
    tap(page, 1, "In hand", "king of diamonds")
    # both still hold cards: nobody is ticked, and saving asks how the hand ended
    expect(page.locator("input[name=outcome]:checked")).to_have_count(0)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("[data-outcome-error]")).to_have_text(
        "Say how the hand ended: choose below.")
    assert in_view(page, "[data-outcome-error]")
    assert game_json(page, board)["hands"] == []
    # Ann's last card taken back: only she can have gone out, and the page says so
    page.locator("#player-0").get_by_role("button", name="Take back 2 of clubs").click()
    expect(page.locator("input[name=outcome][value=p0]")).to_be_checked()
    expect(page.locator("[data-outcome-note]")).to_contain_text(
        "Ann is the only player left with no cards, so Ann is taken as having gone out.")


def test_basic_rummy_never_records_a_draw_nobody_chose(page: Page, live_server: str) -> None:
    board = start_game(page, live_server, ["Ann", "Ben"], "basic")
    page.get_by_role("link", name="Record hand 1").click()
    tap(page, 0, "In hand", "2 of clubs")
    tap(page, 1, "In hand", "king of diamonds")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("[data-outcome-error]")).to_be_visible()
    assert game_json(page, board)["hands"] == []


def test_back_then_save_does_not_save_again(page: Page, live_server: str, screenshot) -> None:  # type: ignore[no-untyped-def]
    board = start_game(page, live_server, ["Ann", "Ben"])
    page.get_by_role("link", name="Record hand 1").click()
    tap(page, 0, "New meld", "7 of spades", "8 of spades", "9 of spades")
    tap(page, 1, "In hand", "king of diamonds")
    tick_missing(page, "Save hand 1")  # fewer than the 13 dealt (§10): nobody remembers
    page.get_by_role("button", name="Save hand 1").click()
    page.wait_for_url(re.compile(r"/games/\d+#hand-1$"))
    page.go_back()
    notice = page.locator("[data-stale-notice]")
    expect(notice).to_contain_text("Hand 1 was saved from this page a moment ago. This is a "
                                   "new, empty form for hand 2.")
    expect(page.locator("[data-save]")).to_be_disabled()
    screenshot("scorebook-back-after-save")
    page.locator("[data-save]").click(force=True)
    page.wait_for_timeout(300)
    assert len(game_json(page, board)["hands"]) == 1
    # asked for on purpose, the new form is there to use
    notice.get_by_role("button", name="Record hand 2").click()
    expect(notice).to_be_hidden()
    expect(page.locator("[data-save]")).to_be_enabled()


# --- work in progress survives the phone ---------------------------------------------------


def test_a_hand_being_entered_survives_a_reload(page: Page, live_server: str,
                                                screenshot) -> None:  # type: ignore[no-untyped-def]
    board = start_game(page, live_server, ["Ann", "Ben"])
    page.get_by_role("link", name="Record hand 1").click()
    tap(page, 0, "New meld", "7 of spades", "8 of spades", "9 of spades")
    tap(page, 1, "In hand", "king of diamonds")
    page.reload()
    notice = page.locator("[data-draft-notice]")
    expect(notice).to_contain_text("Your unsaved hand 1 was restored.")
    expect(page.locator("#player-0 .slot-cards")).to_contain_text("9♠")
    expect(page.locator("#player-1 .slot-cards")).to_contain_text("K♦")
    expect(page.locator("input[name=outcome][value=p0]")).to_be_checked()
    page.evaluate("window.scrollTo(0, 0)")
    screenshot("scorebook-draft-restored")
    # discarded: gone, also after another reload
    notice.get_by_role("button", name="Discard it").click()
    expect(page.locator("#player-0 .slot-cards")).to_have_count(0)
    page.reload()
    expect(page.locator("[data-draft-notice]")).to_be_hidden()
    # entered again and saved: the draft is cleared once the server has the hand
    tap(page, 0, "New meld", "7 of spades", "8 of spades", "9 of spades")
    tap(page, 1, "In hand", "king of diamonds")
    tick_missing(page, "Save hand 1")  # fewer than the 13 dealt (§10): nobody remembers
    page.get_by_role("button", name="Save hand 1").click()
    page.wait_for_url(re.compile(r"#hand-1$"))
    keys = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('scorebook:draft:'))")
    assert keys == []
    page.goto(board + "/hands/new")
    expect(page.locator("[data-draft-notice]")).to_be_hidden()


def test_leaving_with_unsaved_entries_asks_first(page: Page, live_server: str) -> None:
    start_game(page, live_server, ["Ann", "Ben"])
    page.get_by_role("link", name="Record hand 1").click()
    tap(page, 1, "In hand", "king of diamonds")
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.type)
        dialog.dismiss()  # stay

    page.on("dialog", answer)
    page.get_by_role("link", name="Rules").click(no_wait_after=True)
    # The question comes when the browser gets to it (later on a loaded machine), then
    # nothing more for a moment: one question, and the page stays.
    deadline = time.monotonic() + PATIENCE_S
    while not asked and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    page.wait_for_timeout(500)
    assert asked == ["beforeunload"]
    assert "/hands/new" in page.url


def test_a_live_hands_unsent_entries_survive_a_reload(page: Page, live_server: str) -> None:
    start_game(page, live_server, ["Ann", "Ben"])
    page.get_by_role("link", name="Play it live").click()
    page.get_by_role("button", name="Start hand 1 live").click()
    page.wait_for_load_state()
    meld = page.locator("#meld")
    meld.get_by_text("Ann", exact=True).click()
    meld.get_by_label("Cards").click()
    for card in ("7 of spades", "8 of spades"):
        page.locator(".picker-grid").get_by_role("button", name=card, exact=True).click()
    page.reload()
    expect(page.locator("[data-draft-notice]")).to_contain_text(
        "What you had entered in live hand 1 but not sent was restored.")
    expect(meld.get_by_label("Cards")).to_have_value("7♠ 8♠")
    expect(meld.locator("input[value=p0]")).to_be_checked()


# --- two phones in a live hand -------------------------------------------------------------


def test_two_phones_sending_different_moves_at_once_both_land(page: Page, live_server: str,
                                                              browser) -> None:  # type: ignore[no-untyped-def]
    board = start_game(page, live_server, ["Ann", "Ben"])
    link = scorer_link(page, live_server)
    other = browser.new_context(viewport=PHONE)
    try:
        second = other.new_page()
        join(second, link, "Ben")
        page.goto(board + "/hands/live")
        page.get_by_role("button", name="Start hand 1 live").click()
        page.wait_for_load_state()
        second.goto(board + "/hands/live")
        for phone, player, cards in ((page, "Ann", "7s 8s 9s"), (second, "Ben", "kh kd kc")):
            meld = phone.locator("#meld")
            meld.get_by_text(player, exact=True).click()
            meld.get_by_label("Cards").fill(cards)
        # both tap "Put it down" at the same moment
        page.evaluate("() => { window.__go = () => document.querySelector('#meld-form "
                      "button[type=submit]').click(); }")
        second.evaluate("() => { window.__go = () => document.querySelector('#meld-form "
                        "button[type=submit]').click(); }")
        page.evaluate("window.__go()")
        second.evaluate("window.__go()")
        for phone in (page, second):
            expect(phone.locator("#table .meld-list > li")).to_have_count(2)
            expect(phone.locator("[data-move-error]:visible")).to_have_count(0)
            expect(phone.locator("#meld").get_by_label("Cards")).to_have_value("")
    finally:
        other.close()


def test_a_refused_move_stays_in_its_form_with_the_reason_in_view(page: Page,
                                                                   live_server: str) -> None:
    start_game(page, live_server, ["Ann", "Ben"])
    page.get_by_role("link", name="Play it live").click()
    page.get_by_role("button", name="Start hand 1 live").click()
    page.wait_for_load_state()
    meld = page.locator("#meld")
    meld.get_by_text("Ann", exact=True).click()
    meld.get_by_label("Cards").click()
    for card in ("7 of spades", "8 of spades", "10 of spades"):
        page.locator(".picker-grid").get_by_role("button", name=card, exact=True).click()
    meld.get_by_role("button", name="Put it down").click()
    error = page.locator("#move-error-meld")
    expect(error).to_contain_text("neither a set")
    assert in_view(page, "#move-error-meld")
    expect(meld.get_by_label("Cards")).to_have_value("7♠ 8♠ 10♠")  # kept, to fix
    expect(meld.locator("input[value=p0]")).to_be_checked()
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    # fixed in place: the 10♠ taken back by its chip, the 9♠ tapped
    meld.get_by_role("button", name="Take back 10 of spades").click()
    page.locator(".picker-grid").get_by_role("button", name="9 of spades", exact=True).click()
    meld.get_by_role("button", name="Put it down").click()
    expect(page.locator("#table .meld-list > li")).to_have_count(1)
    expect(error).to_be_hidden()


def test_another_phone_finishing_the_hand_is_said(page: Page, writer: Page,
                                                 live_server: str) -> None:
    board = start_game(page, live_server, ["Ann", "Ben"])
    link = scorer_link(page, live_server)
    join(writer, link)
    page.goto(board + "/hands/live")
    page.get_by_role("button", name="Start hand 1 live").click()
    page.wait_for_load_state()
    # the other phone (no JavaScript) melds and finishes
    writer.goto(board + "/hands/live")
    writer.check("input[name=meld-player][value=p0]")
    writer.fill("[name=meld-cards]", "7s 8s 9s")
    writer.get_by_role("button", name="Put it down").click()
    writer.wait_for_load_state()
    writer.fill("[name=finish-players-1-hand]", "kd")
    writer.check("input[name=finish-outcome][value=p0]")
    writer.get_by_role("button", name="Finish hand 1").click()
    writer.wait_for_load_state()
    # asked (§10): fewer than the 13 dealt; nobody remembers the rest
    boxes = writer.locator("input[name=finish-missing_ok]")
    expect(boxes).to_have_count(2)
    for box in boxes.all():
        box.check()
    writer.get_by_role("button", name="Finish hand 1").click()
    writer.wait_for_load_state()
    banner = page.locator("#followed-hand")
    expect(banner).to_contain_text("Hand 1 was saved on another phone: Ann +24, Ben −10.")
    banner.get_by_role("link", name="See hand 1").click()
    expect(page.locator("h1")).to_contain_text("Hand 1")


def test_a_live_hand_started_by_mistake_is_cancelled(page: Page, live_server: str) -> None:
    board = start_game(page, live_server, ["Ann", "Ben"])
    page.get_by_role("link", name="Play it live").click()
    page.get_by_role("button", name="Start hand 1 live").click()
    page.wait_for_load_state()
    page.get_by_text("Cancel hand 1", exact=True).first.click()  # opens the panel: asks
    page.locator("#cancel-form").get_by_role("button", name="Cancel hand 1").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    expect(page.locator(".flash")).to_contain_text("Live hand 1 was cancelled")
    assert game_json(page, board)["hands"] == []


# --- entry that reads right ---------------------------------------------------------------


def test_hearts_and_diamonds_are_red_on_the_record_page(page: Page, live_server: str) -> None:
    start_game(page, live_server, ["Ann", "Ben"])
    page.get_by_role("link", name="Record hand 1").click()
    tap(page, 0, "In hand", "king of hearts", "7 of diamonds", "queen of spades")
    colours = page.evaluate("""() => [...document.querySelectorAll('#player-0 .card-chip')]
        .map(b => getComputedStyle(b).color)""")
    picker = page.evaluate("""() => getComputedStyle(
        document.querySelector('.picker-grid button[data-card=KH]')).color""")
    assert colours[:2] == [picker, picker] and picker == "rgb(176, 0, 32)"
    assert colours[2] == "rgb(26, 26, 26)"


def test_live_card_fields_take_the_picker_not_the_keyboard(page: Page,
                                                           live_server: str) -> None:
    start_game(page, live_server, ["Ann", "Ben"])
    page.get_by_role("link", name="Play it live").click()
    page.get_by_role("button", name="Start hand 1 live").click()
    page.wait_for_load_state()
    field = page.locator("#meld").get_by_label("Cards")
    assert field.get_attribute("inputmode") == "none"
    field.click()
    for card in ("jack of clubs", "jack of hearts", "jack of spades"):
        page.locator(".picker-grid").get_by_role("button", name=card, exact=True).click()
    expect(field).to_have_value("J♣ J♥ J♠")
    expect(page.locator("#meld .field-chips .card-chip")).to_have_count(3)
    page.locator("[data-picker-dock]").get_by_role("button", name="Type cards").click()
    assert field.get_attribute("inputmode") == "text"  # chosen: now it takes the keyboard


def test_eight_long_names_fit_the_phone(page: Page, live_server: str, screenshot) -> None:  # type: ignore[no-untyped-def]
    names = [("Alexandra Montgomery-Fitzwilliam Thirdly"[:40]), "Bartholomew Winterbottom",
             "Cy", "Dorothea Evangeline Featherstonehaugh", "Ed",
             "Francesca Lucrezia Borgia-Medici", "Gus", "Henrietta"]
    board = start_game(page, live_server, names, "pagat-500")
    game_id = board.rsplit("/", 1)[1]
    hands = [[], ["KD"], ["2C", "3H"], ["5D"], ["QS", "JH"], ["4S"], ["6H"], ["8C", "9D"]]
    body = {"players": [{"name": n, "melds": [{"id": "a", "cards": ["7S", "8S", "9S"]}]
                         if i == 0 else [], "hand": hands[i]} for i, n in enumerate(names)],
            "went_out": names[0]}
    for _ in range(3):
        status = page.evaluate("""([url, body]) => fetch(url, {method: 'POST', headers:
            {'Content-Type': 'application/json'}, body}).then(r => r.status)""",
                               [f"{live_server}/api/v1/games/{game_id}/hands", json.dumps(body)])
        assert status == 201
    page.goto(board)
    sizes = page.evaluate("""() => { const s = document.querySelector('.table-scroll');
        return [s.scrollWidth, s.clientWidth]; }""")
    assert sizes[0] <= sizes[1], sizes  # every player's column in view, none behind a scroll
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    boxes = page.evaluate("""() => [...document.querySelectorAll('.chart-legend li')]
        .map(li => { const r = li.getBoundingClientRect();
                     return [r.left, r.top, r.right, r.bottom]; })""")
    for i, a in enumerate(boxes):
        assert a[2] <= PHONE["width"]
        for b in boxes[i + 1:]:
            overlap = a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
            assert not overlap, (a, b)
    page.locator(".scores thead").get_by_role("link", name=names[0]).click()
    expect(page.locator("#player-name-0")).to_contain_text(names[0])
    screenshot("scorebook-scoreboard-eight-long-names")


def test_a_new_game_starts_with_four_seats(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/games/new")
    expect(page.locator("input[data-seat]:visible")).to_have_count(4)
    page.get_by_role("button", name="Add a seat").click()
    expect(page.locator("input[data-seat]:visible")).to_have_count(5)
    expect(page.get_by_label("Seat 5", exact=True)).to_be_focused()


def test_a_question_from_the_server_is_asked_in_the_live_form(page: Page,
                                                              live_server: str) -> None:
    """values.ace-end: an ace laid off on 2♥…K♥ fits both ends; sent in the background,
    the server's question (low or high?) appears in the lay-off form, is answered there,
    and the lay-off lands."""
    start_game(page, live_server, ["Ann", "Ben"])
    page.get_by_role("link", name="Play it live").click()
    page.get_by_role("button", name="Start hand 1 live").click()
    page.wait_for_load_state()
    meld = page.locator("#meld")
    meld.get_by_text("Ann", exact=True).click()
    meld.get_by_label("Cards").fill("2h 3h 4h 5h 6h 7h 8h 9h 10h jh qh kh")
    meld.get_by_role("button", name="Put it down").click()
    expect(page.locator("#table .meld-list > li")).to_have_count(1)
    layoff = page.locator("#layoff")
    layoff.get_by_text("Ben", exact=True).click()
    layoff.get_by_label("Card", exact=True).fill("ah")
    layoff.get_by_text("Ann's meld 1").click()
    layoff.get_by_role("button", name="Lay it off").click()
    question = layoff.locator("[data-asked]")
    expect(question).to_contain_text("Which end of the run")
    expect(page.locator("#move-error-layoff")).to_contain_text("fits at both ends")
    question.get_by_text("High end (Q-K-A)").click()
    layoff.get_by_role("button", name="Lay it off").click()
    expect(page.locator("#table")).to_contain_text("A♥")
    expect(layoff.locator("[data-asked]")).to_have_count(0)
