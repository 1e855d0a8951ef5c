"""Verdicts as a page shows them: cards with suit symbols, live melds by name, lists
joined the way the page's language joins them."""

from __future__ import annotations

from flask import Flask

from referee import Verdict, make_rules, parse_card, parse_cards
from referee.rules import RulesError
from scorebook.presenters.bidi import plain
from scorebook.presenters.wording import (
    card_list,
    explain,
    meld_label,
    meld_label_parts,
    meld_name,
    rules_error_text,
)


def test_cards_get_their_suits_and_live_melds_their_names(app: Flask) -> None:
    with app.test_request_context():
        wrong = Verdict(False, "layoff.wrong-meld", ("layoff.basic",),
                        {"card": parse_card("8H"), "meld": "Ada-1", "targets": ("Bo-1", "Bo-2")})
        assert plain(explain(wrong)) == (
            "8♥ cannot go on meld “Ada's meld 1”; it fits on: “Bo's meld 1” and “Bo's meld 2”.")
        # the referee's own English (the JSON API's) keeps the ids and its commas
        assert wrong.message == "8H cannot go on meld Ada-1; it fits on: Bo-1, Bo-2."
        assert wrong.plain_params() == {"card": "8H", "meld": "Ada-1", "targets": "Bo-1, Bo-2"}
        other = Verdict(True, "layoff.ok", ("layoff.basic",),
                        {"card": parse_card("JK=8H"), "meld": "A"})
        assert plain(explain(other)) == "🃏=8♥ can be laid off on meld A."
        assert card_list(parse_cards("7S 10D JK")) == "7♠ 10♦ 🃏"


def test_lists_and_cards_in_spanish_and_italian(app: Flask) -> None:
    tie = Verdict(False, "game.tie", ("game.target-500",),
                  {"players": ("Ann", "Ben", "Cy"), "total": 1500})
    with app.test_request_context(headers={"Accept-Language": "es"}):
        text = plain(explain(tie))
        assert "Ann, Ben y Cy" in text and "1.500" in text, text
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert "Ann, Ben e Cy" in plain(explain(tie))
    assert tie.message == "Ann, Ben, Cy are tied on 1500 at the top: another hand must be played."


def test_a_rules_error_is_worded_from_its_code_not_its_english(app: Flask) -> None:
    try:
        make_rules({"family": "pagat-500", "floating": True, "discard_required": True})
    except RulesError as exc:
        error = exc
    assert error.code == "rules.floating-discard"
    assert error.params == {"option": "floating", "other": "discard_required"}
    with app.test_request_context(headers={"Accept-Language": "es"}):
        text = rules_error_text(error)
    assert "discard_required" not in text and "«" in text, text


def test_meld_labels_round_trip_even_with_a_dash_in_the_name() -> None:
    assert meld_label_parts(meld_label("Jean-Luc", 3)) == ("Jean-Luc", 3)
    assert meld_label_parts("m1") is None


def test_a_meld_name_in_spanish(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert "Ada" in meld_name("Ada-1") and "1" in meld_name("Ada-1")
