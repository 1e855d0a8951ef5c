"""Each referee tool at phone size, as someone at the table would use it: type the
cards, ask, read the verdict, follow the rule link."""

from __future__ import annotations


def fill_and_ask(page, fields: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    for label, value in fields.items():
        if label == "Melds on the table" and not page.get_by_label(label, exact=True).is_visible():
            # the table is built with taps; people who type choose "Type the table"
            page.get_by_role("button", name="Type the table").click()
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name="Ask the referee").click()
    page.wait_for_load_state()


def test_meld_tool(page, live_server, screenshot):
    page.goto(f"{live_server}/referee/")
    page.get_by_role("link", name="Meld").first.click()
    fill_and_ask(page, {"The meld": "9s jk jk"})
    assert "LEGAL" in page.locator(".verdict-word").inner_text()
    assert page.locator(".answer-detail li").count() == 4
    screenshot("referee-meld")
    # the cited rule by its name; its id only in the link to the rule book
    rules = page.locator(".cited-rules").inner_text()
    assert "meld.joker" not in rules
    page.get_by_role("link", name="Jokers stand for one card").first.click()
    assert page.url.endswith("#meld.joker")


def test_layoff_tool(page, live_server, screenshot):
    page.goto(f"{live_server}/referee/layoff")
    fill_and_ask(page, {"Melds on the table": "A (Ann): 6H 7H JK=8H",
                        "The card to lay off": "8h"})
    assert "NOT LEGAL" in page.locator(".verdict-word").inner_text()
    assert "A melded joker stays put" in page.locator(".cited-rules").inner_text()
    screenshot("referee-layoff")


def test_draw_tool(page, live_server, screenshot):
    page.goto(f"{live_server}/referee/draw")
    fill_and_ask(page, {"Discard pile, bottom to top": "6C 4S 7D 4H QS AD",
                        "The player's hand": "2C 4D 5C 8C JH KS KD",
                        "Cards taken from the top": "5"})
    assert page.locator(".verdict-word").inner_text().strip().endswith("LEGAL")
    assert "NOT" not in page.locator(".verdict-word").inner_text()
    assert "4♠" in page.locator(".answer-detail").inner_text()
    screenshot("referee-draw")


def test_rummy_call_tool(page, live_server, screenshot):
    page.goto(f"{live_server}/referee/rummy-call")
    fill_and_ask(page, {"Discard pile, bottom to top": "2D KC 5S QC 9H JC",
                        "Who discarded last": "Ann", "Who calls \"Rummy!\"": "Ben"})
    assert "NOT" not in page.locator(".verdict-word").inner_text()
    assert "take 5 cards" in page.locator(".answer-detail").inner_text()
    screenshot("referee-rummy-call")


def test_going_out_tool_and_bad_input(page, live_server, screenshot):
    page.goto(f"{live_server}/referee/going-out")
    fill_and_ask(page, {"Melds on the table": "A: 5H 6H 7H", "The player's cards": "8H 4H",
                        "The last discard (empty: meld every card)": "4H"})
    assert "NOT" not in page.locator(".verdict-word").inner_text()
    screenshot("referee-going-out")
    fill_and_ask(page, {"The player's cards": "8H 4X"})
    assert "4X" in page.get_by_role("alert").inner_text()


def test_meld_tool_with_the_card_picker(page, live_server, screenshot):
    """The same picker as the scorebook: one tap per card, no typing."""
    page.goto(f"{live_server}/referee/meld")
    page.get_by_label("The meld", exact=True).focus()
    dock = page.locator("[data-picker-dock]")
    for card in ("7S", "8S", "9S"):
        dock.locator(f"button[data-card='{card}']").click()
    # the field is the picker's: no keyboard, and the cards read with their suits
    field = page.get_by_label("The meld", exact=True)
    assert field.input_value() == "7♠ 8♠ 9♠"
    assert field.get_attribute("inputmode") == "none"
    screenshot("referee-meld-picker")
    page.get_by_role("button", name="Ask the referee").click()
    page.wait_for_load_state()
    assert "NOT" not in page.locator(".verdict-word").inner_text()
    assert "run" in page.locator(".answer-detail").inner_text()
