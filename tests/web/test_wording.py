"""Verdicts as a page shows them: cards with suit symbols, live melds by name."""

from __future__ import annotations

from flask import Flask

from referee import Verdict
from scorebook.bidi import plain
from scorebook.wording import explain, meld_label, meld_label_parts, meld_name, pretty_cards


def test_cards_get_their_suits_and_live_melds_their_names(app: Flask) -> None:
    with app.test_request_context():
        wrong = Verdict(False, "layoff.wrong-meld", ("layoff.basic",),
                        {"card": "8H", "meld": "Ada-1", "targets": "Bo-1, Bo-2"})
        assert plain(explain(wrong)) == (
            "8♥ cannot go on meld “Ada's meld 1”; it fits on: “Bo's meld 1”, “Bo's meld 2”.")
        other = Verdict(True, "layoff.ok", ("layoff.basic",), {"card": "JK=8H", "meld": "A"})
        assert plain(explain(other)) == "🃏=8♥ can be laid off on meld A."
        assert pretty_cards("7S 10D JK") == "7♠ 10♦ 🃏"


def test_meld_labels_round_trip_even_with_a_dash_in_the_name() -> None:
    assert meld_label_parts(meld_label("Jean-Luc", 3)) == ("Jean-Luc", 3)
    assert meld_label_parts("m1") is None


def test_a_meld_name_in_spanish(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert "Ada" in meld_name("Ada-1") and "1" in meld_name("Ada-1")
