"""Taking cards from the discard pile.

Rules: `draw.stock-or-top`, `draw.deep`, `draw.must-meld`, `draw.deep-new-meld`,
`draw.basic`, `discard.not-same`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pytest

from referee import (
    JOKER,
    Card,
    DrawError,
    Table,
    check_draw,
    make_meld,
    make_rules,
    parse_card,
    parse_cards,
)

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
BASIC = make_rules("basic")

# RULES.md's worked example, with suits: the pile (bottom to top) 6 4 7 4 Q A and a
# hand of 2 4 5 8 J K K.
PILE = parse_cards("6H 4S 7C 4D QH AS")
HAND = parse_cards("2C 4C 5D 8S JH KD KS")


def names(cards: Iterable[Card]) -> list[str]:
    return sorted(str(c) for c in cards)


# ---------------------------------------------------------------------------------------
# draw.deep: the worked example


def test_draw_deep_worked_example_down_to_the_lower_four() -> None:
    """`draw.deep`: to get the two fours you take everything from the lower 4 up,
    leaving only the 6; you meld 4 4 4 and hold 2 5 7 8 J Q K K A."""
    for rules in (PAGAT, RUMMY):
        verdict = check_draw(rules, Table(), PILE, HAND, take=5)
        assert verdict.legal
        assert verdict.code == "draw.deep-ok"
        assert verdict.rules == ("draw.deep",)
        assert verdict.detail["card"] == parse_card("4S")
        assert list(verdict.detail["taken"]) == parse_cards("4S 7C 4D QH AS")
        assert PILE[:-5] == parse_cards("6H")
        fours = [way for way in verdict.detail["ways"] if way.kind == "meld"]
        assert fours, "the 4-4-4 set is a way to meld the 4S"
        way = fours[0]
        assert names(way.cards) == ["4C", "4D", "4S"]
        held = Counter([*HAND, *PILE[-5:]])
        held.subtract(way.cards)
        left = sorted((c for c in held.elements()), key=lambda c: (c.rank, c.suit))
        ranks = [str(c)[:-1] for c in left]
        assert ranks == ["A", "2", "5", "7", "8", "J", "Q", "K", "K"]  # 2 5 7 8 J Q K K A


@pytest.mark.parametrize("take", [2, 3, 4, 6])
def test_draw_deep_other_depths_of_the_example_are_refused(take: int) -> None:
    """`draw.deep`: the Q, the upper 4 (only two fours with the hand's: no set), the 7
    and the 6 cannot be melded at once, so the pile cannot be taken down to them."""
    verdict = check_draw(PAGAT, Table(), PILE, HAND, take=take)
    assert not verdict.legal
    assert verdict.code == "draw.deep-cannot-meld"
    assert verdict.rules == ("draw.deep",)
    assert verdict.detail["ways"] == ()


def test_draw_deep_the_card_may_be_laid_off_on_the_table() -> None:
    """`draw.deep`: melding the deep card by laying it off on a table meld is enough."""
    t = Table().with_meld(make_meld("m", parse_cards("8H 9H 10H"), PAGAT, "Bo"))
    pile = parse_cards("2S JH 3D 5C")
    verdict = check_draw(PAGAT, t, pile, parse_cards("4C KC"), take=3)
    assert verdict.legal and verdict.code == "draw.deep-ok"
    (way,) = verdict.detail["ways"]
    assert way.kind == "layoff" and way.meld_id == "m" and str(way) == "JH on m"


def test_draw_deep_cards_taken_can_help_meld_it() -> None:
    """`draw.deep`: the cards used with it may come from the hand or from the cards
    just taken (here the 6S taken with the 5S bridges to the 7S-8S-9S on the table)."""
    t = Table().with_meld(make_meld("m", parse_cards("7S 8S 9S"), PAGAT, "Bo"))
    pile = parse_cards("KD 5S 2H 6S")
    verdict = check_draw(PAGAT, t, pile, parse_cards("QC"), take=3)
    assert verdict.legal
    assert any(w.kind == "layoff" and [str(c) for c in w.cards] == ["6S", "5S"]
               for w in verdict.detail["ways"])
    new_meld = check_draw(PAGAT, Table(), parse_cards("KD 5S 6S 7S"), [], take=3)
    assert new_meld.legal
    assert str(new_meld.detail["ways"][0]) == "5S 6S 7S"


def test_draw_deep_with_a_joker_from_the_hand() -> None:
    """`draw.deep` / `meld.joker`: a joker in hand can complete the meld."""
    pile = parse_cards("9C 4D KS")
    verdict = check_draw(PAGAT, Table(), pile, parse_cards("9H JK 2C"), take=3)
    assert verdict.legal
    assert all(way.jokers <= 1 for way in verdict.detail["ways"])
    assert not check_draw(RUMMY, Table(), pile, parse_cards("9H 2C"), take=3).legal


def test_draw_deep_discarding_a_card_it_needs() -> None:
    """`draw.deep`: the card is melded this turn, so the card the player then discards
    cannot be one the meld needs, nor the deep card itself."""
    assert check_draw(PAGAT, Table(), PILE, HAND, 5, discard=parse_card("KS")).legal
    # the ace that was on top may be discarded after taking more than one card
    assert check_draw(PAGAT, Table(), PILE, HAND, 5, discard=parse_card("AS")).legal
    for needed in ("4C", "4D", "4S"):
        verdict = check_draw(PAGAT, Table(), PILE, HAND, 5, discard=parse_card(needed))
        assert not verdict.legal and "draw.deep" in verdict.rules, needed


def test_draw_deep_take_must_be_inside_the_pile() -> None:
    """`draw.deep`"""
    for take in (0, -1, 7):
        with pytest.raises(DrawError):
            check_draw(PAGAT, Table(), PILE, HAND, take=take)
    with pytest.raises(ValueError):
        check_draw(PAGAT, Table(), [], HAND, take=1)


# ---------------------------------------------------------------------------------------
# the top card


def test_draw_stock_or_top_always_allowed() -> None:
    """`draw.stock-or-top`: the top card of the pile may always be taken, meldable or not
    (in Basic, `draw.basic`, it is the only pile card that may be)."""
    for rules, ids in ((PAGAT, ("draw.stock-or-top",)), (RUMMY, ("draw.stock-or-top",)),
                       (BASIC, ("draw.stock-or-top", "draw.basic"))):
        verdict = check_draw(rules, Table(), PILE, HAND, take=1)
        assert verdict.legal and verdict.code == "draw.top-ok"
        assert verdict.rules == ids
        assert verdict.plain_params() == {"card": "AS", "take": 1}


def test_draw_must_meld_option() -> None:
    """`draw.must-meld`: with the option on, even the top card alone must be melded at
    once (the AS cannot be; a KH would make K-K-K)."""
    rules = make_rules("pagat-500", draw_must_meld=True)
    refused = check_draw(rules, Table(), PILE, HAND, take=1)
    assert not refused.legal and refused.code == "draw.must-meld"
    assert refused.rules == ("draw.must-meld",)
    allowed = check_draw(rules, Table(), parse_cards("6H KH"), HAND, take=1)
    assert allowed.legal and set(allowed.rules) == {"draw.stock-or-top", "draw.must-meld"}
    assert names(allowed.detail["ways"][0].cards) == ["KD", "KH", "KS"]
    # and it cannot be melded with the very card the player means to discard
    needs_ks = check_draw(rules, Table(), parse_cards("6H KH"), HAND, 1,
                          discard=parse_card("KS"))
    assert not needs_ks.legal


def test_draw_deep_new_meld_option() -> None:
    """`draw.deep-new-meld`: the deepest card taken must start a new meld of three or
    more; laying it off is not enough."""
    rules = make_rules("pagat-500", deep_draw_new_meld=True)
    t = Table().with_meld(make_meld("m", parse_cards("4H 5H 6H"), PAGAT, "Bo"))
    pile = parse_cards("6D 7H QH AS")
    hand = parse_cards("2C 9S")
    assert check_draw(PAGAT, t, pile, hand, take=3).legal
    refused = check_draw(rules, t, pile, hand, take=3)
    assert not refused.legal
    assert refused.code == "draw.deep-needs-new-meld"
    assert set(refused.rules) == {"draw.deep", "draw.deep-new-meld"}
    allowed = check_draw(rules, Table(), PILE, HAND, take=5)
    assert allowed.legal and set(allowed.rules) == {"draw.deep", "draw.deep-new-meld"}
    assert all(way.kind == "meld" for way in allowed.detail["ways"])


def test_draw_basic_only_the_top_card() -> None:
    """`draw.basic`: in basic only the top card of the discard pile may be taken."""
    verdict = check_draw(BASIC, Table(), PILE, HAND, take=5)
    assert not verdict.legal
    assert verdict.code == "draw.basic-top-only"
    assert verdict.rules == ("draw.basic",)
    assert check_draw(BASIC, Table(), PILE, HAND, take=1).legal


# ---------------------------------------------------------------------------------------
# discard.not-same


def test_discard_not_same_after_taking_the_top_card_alone() -> None:
    """`discard.not-same`: after taking only the top card, discard a different card."""
    for rules in (PAGAT, RUMMY, BASIC):
        same = check_draw(rules, Table(), PILE, HAND, 1, discard=parse_card("AS"))
        assert not same.legal
        assert same.code == "draw.same-discard"
        assert same.rules == ("discard.not-same",)
        assert check_draw(rules, Table(), PILE, HAND, 1, discard=parse_card("KS")).legal


def test_discard_not_same_after_taking_more_the_old_top_card_may_go() -> None:
    """`discard.not-same`: after taking more than one card, the card that had been on top
    may be discarded."""
    verdict = check_draw(PAGAT, Table(), PILE, HAND, 5, discard=parse_card("AS"))
    assert verdict.legal and verdict.code == "draw.deep-ok"


def test_discard_not_same_with_a_declared_joker() -> None:
    """`discard.not-same`: a joker taken alone is the same joker whatever it was called."""
    verdict = check_draw(PAGAT, Table(), [parse_card("2C"), JOKER], HAND, 1,
                         discard=parse_card("JK=8H"))
    assert not verdict.legal and "discard.not-same" in verdict.rules
