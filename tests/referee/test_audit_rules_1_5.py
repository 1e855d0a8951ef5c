"""Audit of RULES.md sections 1-5 in the engine: a verdict that says no cites the rule
that forbids it, not only the general one."""

from __future__ import annotations

import pytest

from referee import Table, check_layoff, check_meld, make_meld, make_rules, parse_card, parse_cards

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
BASIC = make_rules("basic")


def one_meld(cards: str, rules=PAGAT) -> Table:
    return Table().with_meld(make_meld("A", parse_cards(cards), rules, "Ada"))


THIRTEEN = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


@pytest.mark.parametrize("cards", [THIRTEEN + " AH", "AH 2H 3H AH", "QH KH AH AH",
                                   "AH 2H JK AH"])
def test_an_ace_at_both_ends_is_no_run_because_of_meld_ace(cards: str) -> None:
    """`meld.ace`: no run holds an ace at both ends (two decks give two aces), so a run is
    at most 13 cards long; the verdict cites `meld.ace`."""
    verdict = check_meld(parse_cards(cards), PAGAT)
    assert not verdict.legal
    assert "meld.ace" in verdict.rules


@pytest.mark.parametrize(("rules", "meld", "card"), [
    (PAGAT, "QH KH AH", "2H"),          # K-A-2: no wrap-around
    (RUMMY, "QH KH AH", "2H"),
    (PAGAT, "AH 2H 3H", "KH"),
    (PAGAT, "QH KH AH", "JK=2H"),
    (BASIC, "JH QH KH", "AH"),          # Basic: aces low only
    (PAGAT, THIRTEEN, "AH"),            # 13 cards: an ace at both ends
    (PAGAT, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "AH"),
])
def test_a_card_past_the_ace_cites_meld_ace(rules, meld: str, card: str) -> None:
    """`meld.ace`, `layoff.basic`: a card that would make a run turn the corner (K-A-2),
    hold an ace at both ends or put an ace above the king in Basic Rummy does not fit,
    and the verdict says it is `meld.ace` that forbids it."""
    t = one_meld(meld, rules)
    for meld_id in (None, "A"):
        verdict = check_layoff(t, parse_card(card), rules, meld_id)
        assert not verdict.legal
        assert verdict.code == "layoff.no-fit"
        assert "layoff.basic" in verdict.rules and "meld.ace" in verdict.rules


def test_a_second_card_of_a_suit_on_a_two_deck_set_cites_meld_set() -> None:
    """`meld.set`, `layoff.basic`: with two decks the missing 4th card must be of a
    different suit; the 9♦ of the second deck does not go on 9♣ 9♠ 9♦."""
    verdict = check_layoff(one_meld("9C 9S 9D"), parse_card("9D"), PAGAT)
    assert not verdict.legal and verdict.code == "layoff.no-fit"
    assert "meld.set" in verdict.rules


def test_an_unrelated_card_cites_only_layoff_basic() -> None:
    """`layoff.basic`: a card that simply is not next to the run cites the lay-off rule."""
    verdict = check_layoff(one_meld("5H 6H 7H"), parse_card("9H"), PAGAT)
    assert verdict.rules == ("layoff.basic",)


@pytest.mark.parametrize("cards", ["KH JK 2H", "QH KH JK 2H", "KH JK JK 3H", "JK KH 2H 3H"])
def test_a_joker_turning_the_corner_cites_meld_ace(cards: str) -> None:
    """`meld.ace`, `meld.joker`: K-A-2 is no run even when a joker stands for the ace
    or the two; the verdict cites `meld.ace`."""
    verdict = check_meld(parse_cards(cards), PAGAT)
    assert not verdict.legal
    assert "meld.ace" in verdict.rules
