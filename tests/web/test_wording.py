"""Verdicts as a page shows them: cards with suit symbols, live melds by name, lists
joined the way the page's language joins them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from referee import ScoringError, TableError, Verdict, make_rules, parse_card, parse_cards
from referee.rules import RulesError
from scorebook.presenters.bidi import plain
from scorebook.presenters.wording import (
    card_list,
    error_text,
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


def _scoring_cases() -> list[tuple[str, Callable[[], object], str]]:
    from tests.referee.test_error_catalogue import SCORING_CASES, TABLE_CASES
    return SCORING_CASES + TABLE_CASES


@pytest.mark.parametrize("lang", ["es", "it"])
def test_scoring_and_table_errors_are_worded_from_their_reason(app: Flask, lang: str) -> None:
    """Every ScoringError and TableError reason reads in the page's language, with the
    cards as cards and names isolated; its English stays the JSON API's."""
    for reason, ask, english in _scoring_cases():
        with pytest.raises((ScoringError, TableError)) as info:
            ask()
        assert str(info.value) == english
        with app.test_request_context(headers={"Accept-Language": lang}):
            text = plain(error_text(info.value))
        with app.test_request_context():
            in_english = plain(error_text(info.value))
        assert text != in_english, (reason, lang, text)
        assert " the " not in text and " cannot " not in text, (reason, lang, text)


def test_a_scoring_error_on_a_page(app: Flask) -> None:
    from referee import PlayerHand, apply_layoff, make_meld, score_hand
    from referee.table import Table

    pagat = make_rules("pagat-500")
    ada = PlayerHand("Ada", melds=[("Ada-1", parse_cards("7H 8H 9H"))])
    with pytest.raises(ScoringError) as info:
        score_hand(pagat, [ada, PlayerHand("Bo", layoffs=[(parse_card("QS"), "zz")])], None)
    with app.test_request_context():
        assert plain(error_text(info.value)) == (
            "Q♠ is laid off on meld “zz”, which is not on the table")
    with pytest.raises(ScoringError) as info:
        score_hand(pagat, [PlayerHand("Ada", melds=[("Ada-1", parse_cards("8S 10D"))]),
                           PlayerHand("Bo")], None)
    with app.test_request_context(headers={"Accept-Language": "es"}):
        text = plain(error_text(info.value))
    assert text.startswith("la combinación 8♠ 10♦ de Ada: Una combinación necesita"), text
    table = Table().with_meld(make_meld("B", parse_cards("5H 6H 7H"), pagat, "Ada"))
    with pytest.raises(TableError) as caught:
        apply_layoff(table, "B", parse_card("JK"), "Bo", pagat)
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert plain(error_text(caught.value)).endswith("🃏=4♥ o 🃏=8♥"), error_text(caught.value)


def test_meld_labels_round_trip_even_with_a_dash_in_the_name() -> None:
    assert meld_label_parts(meld_label("Jean-Luc", 3)) == ("Jean-Luc", 3)
    assert meld_label_parts("m1") is None


def test_a_meld_name_in_spanish(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert "Ada" in meld_name("Ada-1") and "1" in meld_name("Ada-1")
