"""Audit of RULES.md sections 1-5 in the engine: a verdict that says no cites the rule
that forbids it, not only the general one."""

from __future__ import annotations

import pytest

from referee import (
    Table,
    check_draw,
    check_layoff,
    check_meld,
    make_meld,
    make_rules,
    parse_card,
    parse_cards,
)

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


@pytest.mark.parametrize("rules", [PAGAT, RUMMY, BASIC], ids=["pagat-500", "rummy-500",
                                                              "basic"])
def test_values_ace_end_the_choice_exists_exactly_on_a_run_two_to_king(rules) -> None:
    """`values.ace-end` `meld.ace` `layoff.basic`: of every run of hearts (every length,
    every start), an ace fits at both ends exactly when the run is 2…K and aces may be
    high; then the verdict asks which end, cites `values.ace-end`, and both ends are
    offered; otherwise it is an ordinary lay-off (or none)."""
    top = 14 if rules.aces_high else 13
    for low in range(1, top - 1):
        for high in range(low + 2, min(top, low + 12) + 1):
            cards = " ".join(("A" if p in (1, 14) else {11: "J", 12: "Q", 13: "K"}.get(p, str(p)))
                             + "H" for p in range(low, high + 1))
            table = one_meld(cards, rules)
            verdict = check_layoff(table, parse_card("AH"), rules)
            both = rules.aces_high and (low, high) == (2, 13)
            assert (verdict.code == "layoff.ace-either-end") == both, (cards, verdict)
            if both:
                assert "values.ace-end" in verdict.rules
                assert {t.end for t in verdict.detail["targets"]} == {"low", "high"}
            length = high - low + 1  # a run holds one ace at most, 13 cards at most
            fits_low = low == 2 and high < 14 and length < 13
            fits_high = high == 13 and rules.aces_high and length < 13
            assert verdict.legal == (fits_low or fits_high), (cards, verdict)


def test_discard_not_same_draw_agrees_with_the_rule_text() -> None:
    """`discard.not-same` `draw.deep` `draw.basic`: meaning to discard the card taken
    alone, the deepest card taken, or (two decks) another copy of either is refused, and
    the verdict gives that reason; the card that had been on top of several may go."""
    pile = parse_cards("3S 8H 9C KD")
    hand = parse_cards("8C 8S 10H 2D 9C")
    for take in (1, 2, 3):
        deepest = pile[-take]
        for discard in [*pile[-take:], *hand]:
            verdict = check_draw(PAGAT, Table(), pile, hand, take, discard)
            same = discard == deepest
            if same:
                assert not verdict.legal, (take, discard)
                assert verdict.code.startswith(
                    "draw.same-discard" if take == 1 else "draw.deepest-discard")
                assert "discard.not-same" in verdict.rules
                copy = [*hand, *pile[len(pile) - take + 1:]].count(deepest) > 0
                assert verdict.code.endswith("-copy") == copy
            else:
                assert verdict.code not in ("draw.same-discard", "draw.deepest-discard")
    assert check_draw(BASIC, Table(), pile, hand, 2).code == "draw.basic-top-only"
