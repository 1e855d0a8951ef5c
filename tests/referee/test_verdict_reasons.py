"""Verdicts that give the real reason: the right ``legal``, and words that say why in
the terms of the rule that decides, not of a neighbouring one.

Rules: `rummy.mode` (top: only the latest discard counts), `draw.must-meld`,
`meld.once-per-turn`, `meld.ace` (K-A-2 in Basic Rummy; 13 cards at most), `meld.run`,
`meld.joker` (the joker's place or the player's word decides).
"""

from __future__ import annotations

import pytest

from referee import (
    Table,
    TableError,
    check_draw,
    check_meld,
    check_rummy_call,
    make_meld,
    make_rules,
    parse_card,
    parse_cards,
)

PAGAT = make_rules("pagat-500")
BASIC = make_rules("basic")
TOP = make_rules("pagat-500", rummy_call="top")
HEARTS = Table().with_meld(make_meld("A", parse_cards("7H 8H 9H"), PAGAT, "Ann"))


def test_rummy_mode_top_refusal_says_only_the_latest_discard_counts() -> None:
    """`rummy.mode` = top: with K♣ and Q♣ deep in the pile and J♣ just discarded, pile
    cards can be melded, but in this game only the latest discard counts and it fits no
    table meld: the refusal says exactly that, not that nothing can be melded."""
    pile = parse_cards("KC 3D QC 5S JC")
    verdict = check_rummy_call(TOP, Table(), pile, "Ann", "Ben")
    assert not verdict.legal and verdict.code == "rummy.top-nothing"
    assert set(verdict.rules) == {"rummy.call", "rummy.mode"}
    assert "latest discard" in verdict.message and "JC" in verdict.message
    assert "without a card from a hand" not in verdict.message
    # the full rule would allow it
    assert check_rummy_call(PAGAT, Table(), pile, "Ann", "Ben").legal


def test_draw_must_meld_top_card_allowed_because_it_can_be_melded() -> None:
    """`draw.must-meld`: with the house rule, taking the top card is allowed because it can
    be melded at once (not "always allowed"), and refused, citing the option, when not."""
    rules = make_rules("pagat-500", draw_must_meld=True)
    ok = check_draw(rules, HEARTS, parse_cards("2C 10H"), parse_cards("KS QD"), 1)
    assert ok.legal and ok.code == "draw.top-ok-meld"
    assert "draw.must-meld" in ok.rules
    assert "always" not in ok.message and "melded" in ok.message
    refused = check_draw(rules, HEARTS, parse_cards("10H 2C"), parse_cards("KS QD"), 1)
    assert not refused.legal and refused.code == "draw.must-meld"
    assert refused.rules == ("draw.must-meld",)
    # without the house rule the top card is always allowed
    plain = check_draw(PAGAT, HEARTS, parse_cards("10H 2C"), parse_cards("KS QD"), 1)
    assert plain.legal and plain.code == "draw.top-ok" and "always" in plain.message


@pytest.mark.parametrize("cards", ["KH AH 2H", "QH KH AH 2H", "KH AH 2H 3H"])
def test_meld_ace_king_ace_two_in_basic_speaks_of_the_corner(cards: str) -> None:
    """`meld.ace`: in Basic Rummy K-A-2 is refused because a run cannot turn the corner
    (the ace is low only, below the two), not with words about Q-K-A."""
    verdict = check_meld(parse_cards(cards), BASIC)
    assert not verdict.legal and verdict.code == "meld.wrap-around-basic"
    assert verdict.rules == ("meld.ace",)
    assert "Q-K-A" not in verdict.message and "corner" in verdict.message
    # Q-K-A itself is the ace-low-only case
    assert check_meld(parse_cards("QH KH AH"), BASIC).code == "meld.ace-low-only"


def test_meld_ace_a_14_card_run_is_too_long_not_round_the_corner() -> None:
    """`meld.ace` `meld.run`: with two decks, A…K plus another ace is 14 cards: a run holds
    at most 13; the verdict says that, not "going round the corner"."""
    cards = parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    verdict = check_meld(cards, PAGAT)
    assert not verdict.legal and verdict.code == "meld.run-too-long"
    assert "meld.ace" in verdict.rules and "13" in verdict.message
    assert "corner" not in verdict.message
    with_joker = check_meld(parse_cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JK"), PAGAT)
    assert with_joker.code == "meld.run-too-long"
    # four cards with an ace at both ends are the corner case
    assert check_meld(parse_cards("AH 2H 3H AH"), PAGAT).code == "meld.wrap-around"


def test_meld_joker_an_end_joker_in_a_loose_bunch_its_place_or_word_decides() -> None:
    """`meld.joker`: JK 5♥ 6♥ named as a loose bunch lists its two runs and says that the
    joker's place, or the player's word, decides; laid down in order, its place does."""
    verdict = check_meld(parse_cards("JK 5H 6H"), PAGAT)
    assert verdict.legal and verdict.code == "meld.joker-place"
    assert set(verdict.rules) == {"meld.run", "meld.joker"}
    assert "place" in verdict.message and "word" in verdict.message
    assert [str(r) for r in verdict.detail["readings"]] == ["JK=4H 5H 6H", "5H 6H JK=7H"]
    assert str(make_meld("m", parse_cards("JK 5H 6H"), PAGAT).reading) == "JK=4H 5H 6H"
    assert str(make_meld("m", parse_cards("5H 6H JK"), PAGAT).reading) == "5H 6H JK=7H"
    with pytest.raises(TableError):
        make_meld("m", parse_cards("5H JK 6H"), PAGAT)  # no place shows it
    # a declared joker leaves one reading; a set-or-run still asks to declare
    assert check_meld(parse_cards("JK=7H 5H 6H"), PAGAT).code == "meld.ok-run"
    assert check_meld(parse_cards("9S JK JK"), PAGAT).code == "meld.ambiguous"


def test_draw_deep_discarding_the_deepest_card_gives_that_reason() -> None:
    """`draw.deep` `discard.not-same`: meaning to discard the deepest card taken is refused
    for that reason, not as "it cannot be melded"."""
    pile = parse_cards("6H 4S 7C 4D QH AS")
    verdict = check_draw(PAGAT, Table(), pile, parse_cards("2C 4C 5D 8S JH KD KS"), 5,
                         parse_card("4S"))
    assert not verdict.legal and verdict.code == "draw.deepest-discard"
    assert "discard.not-same" in verdict.rules
    # the card that had been on top may be discarded
    assert check_draw(PAGAT, Table(), pile, parse_cards("2C 4C 5D 8S JH KD KS"), 5,
                      parse_card("AS")).legal
