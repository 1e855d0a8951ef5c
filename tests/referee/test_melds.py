"""Melds: sets, runs, aces, jokers and their declarations, card values.

Rules: `meld.set`, `meld.run`, `meld.ace`, `meld.joker`, `meld.min-natural`,
`values.face`, `values.low-ace`, `values.joker`.
"""

from __future__ import annotations

import pytest

from referee import (
    JOKER,
    RUN,
    SET,
    Card,
    Reading,
    RuleSet,
    card_value,
    check_meld,
    is_meld,
    make_rules,
    meld_readings,
    parse_card,
    parse_cards,
    reading_value,
)

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
BASIC = make_rules("basic")


def readings(text: str, rules: RuleSet = PAGAT) -> list[str]:
    return [str(r) for r in meld_readings(parse_cards(text), rules)]


# ---------------------------------------------------------------------------------------
# sets


@pytest.mark.parametrize("text", ["7H 7S 7D", "7H 7S 7D 7C", "KC KD KH", "AS AH AC"])
def test_meld_set_three_or_four_of_a_rank(text: str) -> None:
    """`meld.set`: 3 or 4 cards of the same rank, different suits."""
    for rules in (PAGAT, RUMMY, BASIC):
        verdict = check_meld(parse_cards(text), rules)
        assert verdict.legal and verdict.code == "meld.ok-set"
        assert verdict.rules == ("meld.set",)
        (reading,) = verdict.detail["readings"]
        assert reading.kind == SET and reading.rank == parse_card(text.split()[0]).rank


def test_meld_set_needs_different_suits_even_with_two_decks() -> None:
    """`meld.set`: with two decks 6♥ 6♥ 6♠ is not a set."""
    verdict = check_meld(parse_cards("6H 6H 6S"), PAGAT)
    assert not verdict.legal
    assert verdict.code == "meld.set-same-suit"
    assert "meld.set" in verdict.rules
    assert not is_meld(parse_cards("6H 6H 6S 6D"), PAGAT)


def test_meld_set_never_more_than_four() -> None:
    """`meld.set`: a set never has more than 4 cards (two decks: still different suits)."""
    verdict = check_meld(parse_cards("6H 6S 6D 6C 6H"), PAGAT)
    assert not verdict.legal and "meld.set" in verdict.rules


def test_meld_set_of_two_or_one_is_too_short() -> None:
    """`meld.set` / `meld.run`: a meld needs at least three cards."""
    for text in ("7H 7S", "7H", ""):
        verdict = check_meld(parse_cards(text), PAGAT)
        assert not verdict.legal and verdict.code == "meld.too-short"
        assert "meld.set" in verdict.rules and "meld.run" in verdict.rules


def test_mixed_rank_and_suit_is_not_a_meld() -> None:
    """`meld.set` / `meld.run`"""
    verdict = check_meld(parse_cards("7H 8S 9D"), PAGAT)
    assert not verdict.legal and verdict.code == "meld.not-a-meld"
    assert set(verdict.rules) == {"meld.set", "meld.run"}
    assert "7H 8S 9D" in verdict.message


# ---------------------------------------------------------------------------------------
# runs


@pytest.mark.parametrize(
    "text", ["5H 6H 7H", "7H 5H 6H", "2C 3C 4C 5C", "9S 10S JS QS KS", "AD 2D 3D"],
)
def test_meld_run_three_or_more_in_suit(text: str) -> None:
    """`meld.run`: 3 or more cards of one suit in consecutive order, in any order given."""
    for rules in (PAGAT, RUMMY, BASIC):
        verdict = check_meld(parse_cards(text), rules)
        assert verdict.legal and verdict.code == "meld.ok-run"
        assert verdict.rules == ("meld.run",)


def test_meld_run_reading_lists_the_cards_in_order() -> None:
    """`meld.run`"""
    (reading,) = meld_readings(parse_cards("7H 5H 6H"), PAGAT)
    assert reading == Reading(RUN, tuple(parse_cards("5H 6H 7H")), suit="H", low=5)
    assert reading.high == 7


@pytest.mark.parametrize("text", ["5H 6H 8H", "5H 6S 7H", "5H 5H 6H 7H", "2C 3C 4C 6C"])
def test_meld_run_must_be_consecutive_one_suit(text: str) -> None:
    """`meld.run`"""
    verdict = check_meld(parse_cards(text), PAGAT)
    assert not verdict.legal
    assert {"meld.run", "meld.set"} & set(verdict.rules)


def test_meld_run_all_thirteen() -> None:
    """`meld.run` / `meld.ace`: a run is at most 13 cards; the whole suit reads from the
    ace up (A..K) or from the 2 to the ace (2..A), never both at once."""
    suit = parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
    found = meld_readings(suit, PAGAT)
    assert [(r.low, r.high) for r in found] == [(1, 13), (2, 14)]
    assert [(r.low, r.high) for r in meld_readings(suit, BASIC)] == [(1, 13)]
    assert not is_meld([*suit, JOKER], PAGAT)  # no 14-card run


# ---------------------------------------------------------------------------------------
# aces


def test_meld_ace_high_or_low_in_500() -> None:
    """`meld.ace`: A-2-3-4 and Q-K-A are runs in pagat-500 and rummy-500."""
    for rules in (PAGAT, RUMMY):
        for text in ("AH 2H 3H 4H", "QH KH AH", "JC QC KC AC"):
            verdict = check_meld(parse_cards(text), rules)
            assert verdict.legal, (text, rules.family)
            assert "meld.run" in verdict.rules


def test_meld_ace_no_wrap_around() -> None:
    """`meld.ace`: K-A-2 is not a run (no wrap-around)."""
    for text in ("KH AH 2H", "QH KH AH 2H", "KH AH 2H 3H"):
        verdict = check_meld(parse_cards(text), PAGAT)
        assert not verdict.legal
        assert verdict.code == "meld.wrap-around"
        assert "meld.ace" in verdict.rules


def test_meld_ace_never_at_both_ends() -> None:
    """`meld.ace`: no run holds an ace at both ends, even with two decks."""
    assert not is_meld(parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"), PAGAT)
    assert not is_meld(parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"), RUMMY)


def test_meld_ace_low_only_in_basic() -> None:
    """`meld.ace`: in basic, aces are low only: Q-K-A is not a run, A-2-3 is."""
    verdict = check_meld(parse_cards("QH KH AH"), BASIC)
    assert not verdict.legal
    assert verdict.code == "meld.ace-low-only"
    assert "meld.ace" in verdict.rules
    assert check_meld(parse_cards("AH 2H 3H"), BASIC).legal
    k_a_2 = check_meld(parse_cards("KH AH 2H"), BASIC)
    assert not k_a_2.legal and "meld.ace" in k_a_2.rules


# ---------------------------------------------------------------------------------------
# jokers


def test_meld_joker_nine_and_two_jokers_has_exactly_four_readings() -> None:
    """`meld.joker`: 9♠ 🃏 🃏 may be a set of nines, or the run 7-8-9♠, 8-9-10♠ or
    9-10-J♠; the referee lists the readings when it is not declared."""
    verdict = check_meld(parse_cards("9♠ 🃏 🃏"), PAGAT)
    assert verdict.legal
    assert verdict.code == "meld.ambiguous"
    assert set(verdict.rules) >= {"meld.joker", "meld.set", "meld.run"}
    found = verdict.detail["readings"]
    assert len(found) == verdict.params["count"] == 4
    assert [str(r) for r in found] == [
        "9S JK=9 JK=9", "JK=7S JK=8S 9S", "JK=8S 9S JK=10S", "9S JK=10S JK=JS"]
    assert [r.kind for r in found] == [SET, RUN, RUN, RUN]


@pytest.mark.parametrize(
    ("declared", "reading"),
    [
        ("9S JK=9 JK=9", "9S JK=9 JK=9"),
        ("9S JK=7S JK=8S", "JK=7S JK=8S 9S"),
        ("9S JK=10S JK=8S", "JK=8S 9S JK=10S"),
        ("9S JK JK=JS", "9S JK=10S JK=JS"),
        ("9S JK=9H JK", "9S JK=9H JK=9"),
    ],
)
def test_meld_joker_declaring_picks_one_reading(declared: str, reading: str) -> None:
    """`meld.joker`: the player must declare which card each joker stands for."""
    verdict = check_meld(parse_cards(declared), PAGAT)
    assert verdict.legal and verdict.code in ("meld.ok-set", "meld.ok-run")
    assert "meld.joker" in verdict.rules
    assert [str(r) for r in verdict.detail["readings"]] == [reading]


def test_meld_joker_in_a_run_is_fixed_by_its_place() -> None:
    """`meld.joker`: 6♥ 7♥ 🃏 declares the joker as 8♥, or 5♥ if placed first."""
    assert readings("6♥ 7♥ 🃏") == ["JK=5H 6H 7H", "6H 7H JK=8H"]
    assert readings("6♥ 7♥ 🃏=8♥") == ["6H 7H JK=8H"]
    assert readings("🃏=5♥ 6♥ 7♥") == ["JK=5H 6H 7H"]
    wrong = check_meld(parse_cards("6♥ 7♥ 🃏=9♥"), PAGAT)
    assert not wrong.legal and wrong.code == "meld.bad-declaration"
    assert "meld.joker" in wrong.rules
    assert [str(r) for r in wrong.detail["readings"]] == ["JK=5H 6H 7H", "6H 7H JK=8H"]


def test_meld_joker_fills_a_gap() -> None:
    """`meld.joker`"""
    assert readings("5H JK 7H") == ["5H JK=6H 7H"]
    assert readings("5H JK JK 8H") == ["5H JK=6H JK=7H 8H"]


def test_meld_joker_four_kings_and_a_joker_is_no_meld() -> None:
    """`meld.joker`: there is no fifth king; with two decks the set still needs
    different suits, so four natural kings plus a joker is no meld."""
    cards = parse_cards("KS KH KD KC JK")
    verdict = check_meld(cards, PAGAT)
    assert not verdict.legal
    assert verdict.code == "meld.no-card-for-joker"
    assert "meld.joker" in verdict.rules
    assert not is_meld(parse_cards("KS KH KD KC JK=K"), PAGAT)
    assert not is_meld(parse_cards("KS KH KD KC JK=KS"), PAGAT)


def test_meld_joker_in_a_set_stands_for_a_missing_suit() -> None:
    """`meld.joker`: in a set the joker's suit need not be declared; if it is, the suit
    must be one not already present."""
    assert check_meld(parse_cards("9S 9H JK"), PAGAT).code == "meld.ok-set"
    assert check_meld(parse_cards("9S 9H JK=9D"), PAGAT).legal
    bad = check_meld(parse_cards("9S 9H JK=9H"), PAGAT)
    assert not bad.legal and "meld.joker" in bad.rules
    assert not is_meld(parse_cards("9S 9H JK=8D"), PAGAT)
    assert not is_meld(parse_cards("9S JK=9D JK=9D"), PAGAT)


def test_meld_joker_may_duplicate_a_card_melded_elsewhere() -> None:
    """`meld.joker`: a joker may stand for a card that is already melded elsewhere: the
    meld check looks at the meld alone."""
    assert is_meld(parse_cards("6H 7H JK=8H"), PAGAT)
    assert is_meld(parse_cards("8S 8C JK=8H"), PAGAT)  # 8H may be in the run above


def test_meld_joker_cannot_stand_beside_an_ace_at_both_ends() -> None:
    """`meld.joker` / `meld.ace`: jokers never make a run wrap round the ace."""
    assert readings("KH AH JK") == ["JK=QH KH AH"]
    assert readings("AH 2H JK") == ["AH 2H JK=3H"]
    assert readings("KH JK 2H") == []
    assert readings("KH AH JK", BASIC) == []  # basic has no jokers at all


def test_no_jokers_without_jokers() -> None:
    """`cards.deck`: rummy-500 and basic have no jokers."""
    for rules in (RUMMY, BASIC):
        verdict = check_meld(parse_cards("5H 6H JK"), rules)
        assert not verdict.legal and verdict.code == "meld.no-jokers"
        assert meld_readings(parse_cards("5H 6H JK"), rules) == []


def test_meld_min_natural_default_one_natural_card() -> None:
    """`meld.min-natural`: by default a meld needs one natural card."""
    verdict = check_meld(parse_cards("JK JK JK"), make_rules("pagat-500", jokers=True))
    assert not verdict.legal
    assert verdict.code == "meld.min-natural"
    assert verdict.rules == ("meld.min-natural",)
    assert verdict.params["min"] == 1


def test_meld_min_natural_zero_allows_jokers_only() -> None:
    """`meld.min-natural` = 0: three jokers form a meld (read as any set or run)."""
    rules = make_rules("pagat-500", min_natural_cards=0)
    verdict = check_meld(parse_cards("JK JK JK"), rules)
    assert verdict.legal and verdict.code == "meld.ambiguous"
    # 13 sets + 4 suits x 12 three-card runs (positions 1..14)
    assert verdict.params["count"] == 13 + 4 * 12
    assert check_meld(parse_cards("JK=9 JK=9 JK=9"), rules).code == "meld.ok-set"
    assert check_meld(parse_cards("JK=5H JK JK=7H"), rules).code == "meld.ok-run"


def test_verdict_messages_render() -> None:
    verdict = check_meld(parse_cards("9S JK JK"), PAGAT)
    assert "4 ways" in verdict.message
    assert check_meld(parse_cards("5H 6H 7H"), PAGAT).message == "A legal run: 5H 6H 7H."


# ---------------------------------------------------------------------------------------
# values


@pytest.mark.parametrize(
    ("card", "pagat", "five_ten", "rummy", "basic"),
    [
        ("2H", 2, 5, 2, 2), ("7S", 7, 5, 7, 7), ("9D", 9, 5, 9, 9), ("10C", 10, 10, 10, 10),
        ("JH", 10, 10, 10, 10), ("QS", 10, 10, 10, 10), ("KD", 10, 10, 10, 10),
        ("AC", 15, 15, 15, 1),
    ],
)
def test_values_face(card: str, pagat: int, five_ten: int, rummy: int, basic: int) -> None:
    """`values.face`: the table of card values, per family and the 5-10-15 option."""
    c = parse_card(card)
    assert card_value(c, PAGAT) == pagat
    assert card_value(c, make_rules("pagat-500", values="5-10-15")) == five_ten
    assert card_value(c, RUMMY) == rummy
    assert card_value(c, BASIC) == basic


def test_values_low_ace() -> None:
    """`values.low-ace`: an ace melded low in a run scores the low-ace value (1 in
    pagat-500, 5 with 5-10-15, 15 in rummy-500, 1 in basic); anywhere else 15."""
    ace = parse_card("AH")
    assert card_value(ace, PAGAT, low_ace=True) == 1
    assert card_value(ace, make_rules("pagat-500", values="5-10-15"), low_ace=True) == 5
    assert card_value(ace, RUMMY, low_ace=True) == 15
    assert card_value(ace, BASIC, low_ace=True) == 1
    (low,) = meld_readings(parse_cards("AH 2H 3H"), PAGAT)
    (high,) = meld_readings(parse_cards("QH KH AH"), PAGAT)
    (in_set,) = meld_readings(parse_cards("AH AS AD"), PAGAT)
    assert reading_value(low, PAGAT) == 1 + 2 + 3
    assert reading_value(high, PAGAT) == 10 + 10 + 15
    assert reading_value(in_set, PAGAT) == 45
    assert reading_value(low, RUMMY) == 15 + 2 + 3


def test_values_low_ace_with_a_joker_as_the_two() -> None:
    """`values.low-ace`: the ace is low beside a joker declared as the 2."""
    (reading,) = meld_readings(parse_cards("AH JK=2H 3H"), PAGAT)
    assert reading_value(reading, PAGAT) == 1 + 15 + 3


def test_values_joker() -> None:
    """`values.joker`: a joker scores 15, melded or not, whatever it stands for."""
    assert card_value(JOKER, PAGAT) == 15
    assert card_value(parse_card("JK=2H"), PAGAT) == 15
    assert card_value(parse_card("JK=AH"), PAGAT, low_ace=True) == 15
    (reading,) = meld_readings(parse_cards("2H 3H JK=4H"), PAGAT)
    assert reading_value(reading, PAGAT) == 2 + 3 + 15
    (as_set,) = meld_readings(parse_cards("2H 2S JK=2"), PAGAT)
    assert reading_value(as_set, PAGAT) == 2 + 2 + 15


def test_card_str_of_reading() -> None:
    reading = Reading(SET, (Card(9, "S"), JOKER.declared(Card(9, ""))), rank=9)
    assert str(reading) == "9S JK=9"
    assert reading.jokers == 1
