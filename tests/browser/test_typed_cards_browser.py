"""A Spanish and an Italian family record a whole hand by typing, in their own suit
letters, at phone size (390×844): with JavaScript, in the card picker's typing row, each
card shows as it is read (its symbol, its suit's colour, and what a letter means here)
before it is added; without JavaScript, "Check the cards" reads the typed fields back
before anything is saved.  The hand stored is the one the family meant."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.evening import typed

pytestmark = pytest.mark.browser

#: The hand: Ana goes out with 7♥ 8♥ 9♥ (and the 10♥ laid off on it) and Q♥ Q♦ Q♣;
#: Beppe melds K♥ K♦ K♣ and holds four cards; Carla holds seven.  Each is typed in the
#: language's letters (``typed``): 7♥ is 7c in Spanish and Italian.
RUN, QUEENS, TEN, KINGS = "7H 8H 9H", "QH QD QC", "10H", "KH KD KC"
BEPPE, CARLA = "4D 5D 6S JS", "2S 5C 3D 4S 6D 8S 9S"
#: What the pages call things in each language.
FAMILY = {
    "es": {"language": "Español", "seat": "Asiento", "start": "Empezar la partida",
           "type": "Escribir", "add": "Añadir", "save": "Guardar la mano 1",
           "check": "Revisar las cartas",
           "bad": "7h", "note": "Aquí C es corazones ♥, no tréboles ♣.",
           "not_a_card": "«7h» no es una carta"},
    "it": {"language": "Italiano", "seat": "Posto", "start": "Inizia la partita",
           "type": "Scrivi", "add": "Aggiungi", "save": "Salva la mano 1",
           "check": "Controlla le carte",
           "bad": "7h", "note": "Qui C è cuori ♥, non fiori ♣.",
           "not_a_card": "«7h» non è una carta"},
}


def new_game(page: Page, live_server: str, lang: str) -> str:
    words = FAMILY[lang]
    page.goto(f"{live_server}/language/{lang}?next=/games/new")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    for i, name in enumerate(("Ana", "Beppe", "Carla")):
        page.get_by_label(f"{words['seat']} {i + 1}", exact=True).fill(name)
    page.locator("input[name=family][value=pagat-500]").check()
    with page.expect_navigation():
        page.get_by_role("button", name=words["start"]).click()
    assert re.search(r"/games/\d+$", page.url), page.url
    return page.url


def type_cards(page: Page, lang: str, cards: str) -> None:
    """Type ``cards`` into the picker's typing row and add them."""
    words = FAMILY[lang]
    row = page.locator(".picker-type")
    if row.is_hidden():
        page.locator(".picker-dock").get_by_role("button", name=words["type"]).click()
    field = row.locator("input")
    field.fill(cards)
    preview = page.locator("[data-card-preview]")
    expect(preview).to_be_visible()
    row.get_by_role("button", name=words["add"]).click()


@pytest.mark.parametrize("lang", ["es", "it"])
def test_a_family_records_a_hand_by_typing_its_own_letters(
        page: Page, live_server: str, lang: str, screenshot) -> None:  # type: ignore[no-untyped-def]
    words = FAMILY[lang]
    game = new_game(page, live_server, lang)
    page.goto(f"{game}/hands/new")
    expect(page.locator(".picker-grid")).to_be_visible()

    # Ana's run: typed, and shown as read before it is added
    page.locator("#player-0 [data-act=new-meld]").click()
    page.locator(".picker-dock").get_by_role("button", name=words["type"]).click()
    field = page.locator(".picker-type input")
    field.fill(typed(RUN, lang))
    preview = page.locator("[data-card-preview]")
    expect(preview).to_contain_text("7♥ 8♥ 9♥")
    expect(preview.locator(".pc.suit-h")).to_have_count(3)
    expect(preview.locator(".letter-note")).to_have_text(words["note"])
    red = preview.locator(".pc.suit-h").first.evaluate("e => getComputedStyle(e).color")
    black = preview.locator(".card-preview-label").evaluate("e => getComputedStyle(e).color")
    assert red != black, (red, black)  # the hearts in their suit's colour
    screenshot(f"typed-cards-preview-{lang}")
    # a letter of another language is not read as anything: it is struck out and said
    field.fill(f"{words['bad']} 8c")
    expect(preview.locator(".card-preview-bad")).to_have_text(words["bad"])
    expect(preview).to_contain_text(words["not_a_card"])
    screenshot(f"typed-cards-refused-{lang}")
    field.fill(typed(RUN, lang))
    page.locator(".picker-type").get_by_role("button", name=words["add"]).click()
    expect(page.locator("#player-0 .slot-status.ok")).to_have_count(1)
    expect(page.locator("#player-0")).to_contain_text("7♥")
    page.locator("#player-0 [data-act=new-meld]").click()
    type_cards(page, lang, typed(QUEENS, lang))
    expect(page.locator("#player-0 .slot-status.ok")).to_have_count(2)

    # Beppe's kings and cards left, Ana's lay-off on her own run, Carla's cards left
    page.locator("#player-1 [data-act=new-meld]").click()
    type_cards(page, lang, typed(KINGS, lang))
    expect(page.locator("#player-1 .slot-status.ok")).to_have_count(1)
    page.locator("#player-1 [data-act=hand]").click()
    type_cards(page, lang, typed(BEPPE, lang))
    page.locator("#player-0 [data-act=layoff]").click()
    type_cards(page, lang, typed(TEN, lang))
    expect(page.locator("#player-0")).to_contain_text("10♥")
    page.locator("#player-2 [data-act=hand]").click()
    type_cards(page, lang, typed(CARLA, lang))
    expect(page.locator("#player-2")).to_contain_text("2♠")
    expect(page.locator("#player-2")).to_contain_text("5♣")
    page.locator("input[name=outcome][value=p0]").check()
    screenshot(f"typed-cards-hand-{lang}")
    with page.expect_navigation():
        page.get_by_role("button", name=words["save"]).click()
    expect(page.locator("#hand-1")).to_be_visible()

    # the hand stored is the one the family meant: hearts, not clubs
    page.goto(f"{game}/hands/1")
    main = page.locator("main")
    for card in ("7♥", "8♥", "9♥", "10♥", "Q♦", "K♥", "K♦", "K♣", "2♠", "5♣"):
        expect(main).to_contain_text(card)
    expect(main).not_to_contain_text("7♣")


@pytest.mark.parametrize("lang", ["es", "it"])
def test_without_javascript_the_cards_are_read_back_before_saving(
        browser, live_server: str, lang: str) -> None:  # type: ignore[no-untyped-def]
    from tests.browser.conftest import PHONE, SHOTS

    words = FAMILY[lang]
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        game = new_game(page, live_server, lang)
        page.goto(f"{game}/hands/new")
        melds = page.locator("textarea[name$=-melds]")
        melds.nth(0).fill(f"{typed(RUN, lang)}\n{typed(QUEENS, lang)}")
        melds.nth(1).fill(typed(KINGS, lang))
        page.locator("textarea[name$=-layoffs]").nth(0).fill(f"{typed(TEN, lang)} 1")
        page.locator("input[name=players-1-hand]").fill(typed(BEPPE, lang))
        page.locator("input[name=players-2-hand]").fill(f"{typed(CARLA, lang)} {words['bad']}")
        page.locator("input[name=outcome][value=p0]").check()
        with page.expect_navigation():
            page.get_by_role("button", name=words["check"]).click()
        back = page.locator("#player-0 .read-back")
        shown = back.locator(".pc > [aria-hidden=true]")
        expect(shown).to_have_text(["7♥", "8♥", "9♥", "Q♥", "Q♦", "Q♣", "10♥"])
        expect(back.locator(".pc.suit-h")).to_have_count(5)
        expect(back).to_contain_text(words["note"])
        expect(page.locator("#player-2 .read-back")).to_contain_text(words["not_a_card"])
        import os
        if os.environ.get("SCREENSHOTS") == "1":
            page.screenshot(path=str(SHOTS / f"typed-cards-read-back-{lang}.png"), full_page=True)
        # nothing was saved: correct the wrong card, then save
        page.locator("input[name=players-2-hand]").fill(typed(CARLA, lang))
        with page.expect_navigation():
            page.get_by_role("button", name=words["save"]).click()
        expect(page.locator("#hand-1")).to_be_visible()
        page.goto(f"{game}/hands/1")
        for card in ("7♥", "8♥", "9♥", "10♥", "Q♦", "K♣", "2♠", "5♣"):
            expect(page.locator("main")).to_contain_text(card)
    finally:
        context.close()
