"""The language switch at phone size: a verdict asked in English reads in Spanish and
Italian after a tap on the header's switch, the choice sticks across pages, and the
record-a-hand page speaks each language too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

VERDICTS = {
    "English": ("en", "LEGAL", "A legal run: 7♠ 8♠ 9♠."),
    "Español": ("es", "VÁLIDO", "Una escalera válida: 7♠ 8♠ 9♠."),
    "Italiano": ("it", "VALIDO", "Una scala valida: 7♠ 8♠ 9♠."),
}


def switch_to(page, language: str) -> None:  # type: ignore[no-untyped-def]
    with page.expect_navigation():
        page.locator(".language-switch").get_by_role("link", name=language).click()
    # The switch answers with a redirect back to the page: wait for the page in the new
    # language (on a loaded machine the first navigation can come back before it).
    expect(page.locator("html")).to_have_attribute("lang", VERDICTS[language][0])


def check_verdict(page, language: str) -> None:  # type: ignore[no-untyped-def]
    code, word, message = VERDICTS[language]
    assert page.locator("html").get_attribute("lang") == code
    assert page.locator(".verdict-word").inner_text().strip() == f"✔ {word}"
    assert page.locator(".verdict-message").inner_text().strip() == message
    current = page.locator(".language-switch [aria-current]")
    assert current.count() == 1 and current.get_attribute("lang") == code
    # a phone shows the code; the link is still named in full
    assert current.inner_text().strip().endswith(code.upper())
    assert page.locator(".language-switch").get_by_role("link", name=language).get_attribute(
        "aria-current") == "true"


def test_switch_language_on_a_referee_verdict(page, live_server, screenshot):
    page.goto(f"{live_server}/referee/meld")
    page.get_by_label("The meld", exact=True).fill("7s 8s 9s")
    page.get_by_role("button", name="Ask the referee").click()
    page.wait_for_load_state()
    check_verdict(page, "English")
    screenshot("i18n-referee-meld-en")

    for language in ("Español", "Italiano"):
        switch_to(page, language)
        # the address asks in the canonical letters, which read alike in every language
        assert "/referee/meld?" in page.url and "cards=7S" in page.url
        check_verdict(page, language)
        screenshot(f"i18n-referee-meld-{VERDICTS[language][0]}")

    # The choice is remembered: a new question, asked in Italian, is answered in Italian.
    page.goto(f"{live_server}/referee/meld")
    page.get_by_label("La combinazione", exact=True).fill("qc kc ac")  # cuori: hearts
    page.get_by_label("Gioco", exact=True).select_option(label="Ramino classico")
    page.get_by_label("Giocatori al tavolo", exact=True).fill("2")
    page.get_by_role("button", name="Chiedi all'arbitro").click()
    page.wait_for_load_state()
    assert page.locator(".verdict-word").inner_text().strip() == "✘ NON VALIDO"
    assert "Nel ramino classico l'asso va solo in basso" in page.locator(
        ".verdict-message").inner_text()
    assert "Gli assi nelle scale" in page.locator(".cited-rules").inner_text()

    switch_to(page, "English")
    assert page.locator(".verdict-word").inner_text().strip() == "✘ NOT LEGAL"


RECORD_PAGE = {
    "en": ("Record hand 1", "How did the hand end?", "New meld"),
    "es": ("Anotar la mano 1", "¿Cómo terminó la mano?", "Combinación nueva"),
    "it": ("Registra la mano 1", "Com'è finita la mano?", "Nuova combinazione"),
}


def test_record_a_hand_in_each_language(page, live_server, screenshot):
    page.goto(f"{live_server}/games/new")
    page.fill("[name=players-0]", "Ana")
    page.fill("[name=players-1]", "Beppe")
    page.fill("[name=players-2]", "Carla")
    page.check("input[name=family][value=pagat-500]")
    with page.expect_navigation():
        page.locator("button[type=submit]").last.click()
    game_url = page.url.split("#")[0]
    assert "/games/" in game_url and "/new" not in game_url

    page.goto(f"{game_url}/hands/new")
    for code, language in (("en", "English"), ("es", "Español"), ("it", "Italiano")):
        if code != "en":
            switch_to(page, language)
        assert page.locator("html").get_attribute("lang") == code
        text = page.locator("main").inner_text()
        for phrase in RECORD_PAGE[code]:
            assert phrase in text, (code, phrase)
        screenshot(f"i18n-record-hand-{code}")
