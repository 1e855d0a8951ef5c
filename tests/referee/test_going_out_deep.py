"""Going out in the turn a player took several cards from the discard pile.

``took`` lists the cards taken bottom to top, like the pile: ``took[0]`` is the deepest.
Rules: `draw.deep` (the deepest card taken is melded that turn, also when going out),
`discard.not-same` (the card that had been on top may be the discard, the deepest never;
with two decks the other copy counts as the same card), `draw.deep-new-meld` (it must
start a new meld, in the plan too), `draw.basic` (Basic Rummy: the top card only),
`out.empty-hand`, `out.unplayable-discard`, `out.floating`.
"""

from __future__ import annotations

import pytest

from referee import (
    DrawError,
    Table,
    check_draw,
    check_going_out,
    make_meld,
    make_rules,
    parse_card,
    parse_cards,
)

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
BASIC = make_rules("basic")
NEW_MELD = make_rules("pagat-500", deep_draw_new_meld=True)
HEARTS = Table().with_meld(make_meld("A", parse_cards("5H 6H 7H"), PAGAT, "Ada"))


def out(rules, hand: str, discard: str | None, took: str, table: Table = HEARTS):
    return check_going_out(rules, table, parse_cards(hand),
                           parse_card(discard) if discard else None, parse_cards(took))


@pytest.mark.parametrize("rules", [PAGAT, RUMMY])
def test_draw_deep_the_top_card_of_several_may_be_the_going_out_discard(rules) -> None:
    """`draw.deep` `discard.not-same` `out.empty-hand`: the pile ends 8♥ K♦; the player
    takes both, lays the 8♥ (the deepest) off on 5-6-7♥ with 9♥ 10♥, and goes out on the
    K♦ that had been on top."""
    verdict = out(rules, "8H 9H 10H KD", "KD", "8H KD")
    assert verdict.legal and verdict.code == "out.ok-discard"
    assert "draw.deep" in verdict.rules and "out.empty-hand" in verdict.rules
    melded = [c for step in verdict.detail["plan"] for c in step.cards]
    assert parse_card("8H") in melded


@pytest.mark.parametrize("rules", [PAGAT, RUMMY])
def test_discard_not_same_the_deepest_card_taken_is_never_the_discard(rules) -> None:
    """`discard.not-same` `draw.deep`: the deepest card taken must be melded this turn, so
    it can never be the going-out discard, even when everything else melds."""
    verdict = out(rules, "8H KD KS KC", "8H", "8H KD")
    assert not verdict.legal and verdict.code == "draw.deepest-discard"
    assert set(verdict.rules) == {"discard.not-same", "draw.deep"}
    assert "8H" in verdict.message and "deepest" in verdict.message


def test_discard_not_same_with_two_decks_the_other_copy_is_the_same_card() -> None:
    """`discard.not-same`: with two decks, the other copy of the deepest card (or of the
    card taken alone) counts as the same card, and the verdict says so."""
    deep = out(PAGAT, "8H 8H 9H 10H KD", "8H", "8H KD")
    assert not deep.legal and deep.code == "draw.deepest-discard-copy"
    assert "other 8H" in deep.message and "same card" in deep.message
    alone = out(PAGAT, "2C 3C 4C QS QS", "QS", "QS")
    assert not alone.legal and alone.code == "draw.same-discard-copy"
    assert alone.rules == ("discard.not-same",)
    assert "other QS" in alone.message
    # the draw check says the same, before the player even draws
    pile = parse_cards("2D QS")
    drawn = check_draw(PAGAT, HEARTS, pile, parse_cards("2C 3C 4C QS"), 1, parse_card("QS"))
    assert not drawn.legal and drawn.code == "draw.same-discard-copy"
    deep_draw = check_draw(PAGAT, HEARTS, parse_cards("8H KD"), parse_cards("8H 9H 10H"), 2,
                           parse_card("8H"))
    assert not deep_draw.legal and deep_draw.code == "draw.deepest-discard-copy"


def test_discard_not_same_any_joker_is_the_same_card_with_one_deck() -> None:
    """`discard.not-same`: jokers are interchangeable, with one deck as with two. Three
    players (one deck): the deepest card taken is a joker and the discard is the other
    joker — refused, and the verdict speaks of jokers, never of two decks."""
    three = out(PAGAT, "JK JK 5C 5H 5S", "JK", "JK 5C", Table())
    assert not three.legal and three.code == "draw.deepest-discard-joker"
    assert set(three.rules) == {"discard.not-same", "draw.deep"}
    assert "two decks" not in three.message and "any joker" in three.message
    alone = out(PAGAT, "JK JK 5C 5H 5S", "JK", "JK", Table())
    assert not alone.legal and alone.code == "draw.same-discard-joker"
    assert "two decks" not in alone.message
    # the draw question, before the player draws, says the same
    drawn = check_draw(PAGAT, Table(), parse_cards("JK 5C"), parse_cards("JK 5H 5S 2C"), 2,
                       parse_card("JK"))
    assert not drawn.legal and drawn.code == "draw.deepest-discard-joker"
    assert "two decks" not in drawn.message
    top = check_draw(PAGAT, Table(), parse_cards("5C JK"), parse_cards("JK 5H 5S 2C"), 1,
                     parse_card("JK"))
    assert not top.legal and top.code == "draw.same-discard-joker"
    # with no other joker in hand the joker is simply the card taken
    lone = out(PAGAT, "JK 5C 5H 5S", "JK", "JK 5C", Table())
    assert lone.code == "draw.deepest-discard" and "other" not in lone.message


def test_draw_deep_new_meld_going_out_needs_the_deepest_card_in_a_new_meld() -> None:
    """`draw.deep-new-meld`: with the house rule, the deepest card taken starts a new meld
    of three or more when the player goes out; laying it off is not enough — and the plan
    the verdict proposes puts it in a new meld."""
    legal = out(NEW_MELD, "8H 9H 10H KD", "KD", "8H KD")
    assert legal.legal and "draw.deep-new-meld" in legal.rules
    plan = legal.detail["plan"]
    eight = next(step for step in plan if parse_card("8H") in step.cards)
    assert eight.meld_id is None and len(eight.cards) >= 3  # a new meld, not a lay-off
    refused = out(NEW_MELD, "8H KD", "KD", "8H KD")  # the 8♥ could only be laid off
    assert not refused.legal and refused.code == "out.deep-needs-new-meld"
    assert "draw.deep-new-meld" in refused.rules
    # without the house rule, laying it off is fine
    assert out(PAGAT, "8H KD", "KD", "8H KD").legal


def test_draw_deep_new_meld_applies_to_the_proposed_plan_of_a_playable_discard() -> None:
    """`draw.deep-new-meld` `out.unplayable-discard`: the plan offered for a discard that
    could still be melded also starts a new meld with the deepest card."""
    rules = make_rules("pagat-500", deep_draw_new_meld=True, unplayable_discard=True)
    verdict = out(rules, "8H 9H 10H 4H", "4H", "8H 4H")
    assert not verdict.legal and verdict.code == "out.unplayable-discard"
    plan = verdict.detail["plan"]
    eight = next(step for step in plan if parse_card("8H") in step.cards)
    assert eight.meld_id is None


def test_draw_basic_going_out_after_taking_more_than_the_top_card_is_refused() -> None:
    """`draw.basic`: in Basic Rummy only the top card may be taken, so a going-out turn
    that took two is refused, whatever could be melded."""
    verdict = out(BASIC, "8H 9H 10H KD", "KD", "8H KD", Table())
    assert not verdict.legal and verdict.code == "draw.basic-top-only"
    assert verdict.rules == ("draw.basic",)
    # the top card alone is fine, if it is not discarded again
    assert out(BASIC, "8H 9H 10H KD", "KD", "8H", Table()).legal
    assert out(BASIC, "8H 9H 10H KD", "KD", "KD", Table()).code == "draw.same-discard"


def test_draw_deep_new_meld_does_not_bind_the_top_card_taken_alone() -> None:
    """`draw.must-meld` `draw.deep-new-meld`: with both house rules, the top card taken
    alone must be melded at once, but laying it off will do — the new-meld rule binds
    only a draw of more than the top card (RULES.md: "Taking the top card alone is not
    bound by it")."""
    rules = make_rules("pagat-500", draw_must_meld=True, deep_draw_new_meld=True)
    assert out(rules, "8H 9H 10H KD", "KD", "8H").legal
    laid_off = out(rules, "8H KD", "KD", "8H")  # the 8♥ laid off on 5-6-7♥, then out
    assert laid_off.legal and laid_off.code == "out.ok-discard"
    assert "draw.deep-new-meld" not in laid_off.rules
    # the draw question says the same: the top card laid off is a legal must-meld draw
    drawn = check_draw(rules, HEARTS, parse_cards("2C 8H"), parse_cards("KD KS"), 1)
    assert drawn.legal and drawn.code == "draw.top-ok-meld"
    assert set(drawn.rules) == {"draw.stock-or-top", "draw.must-meld"}
    # two cards taken: the deepest must start a new meld, a lay-off is not enough
    deep = out(rules, "8H KD", "KD", "8H KD")
    assert not deep.legal and deep.code == "out.deep-needs-new-meld"
    assert "draw.deep-new-meld" in deep.rules


def test_out_floating_a_floater_takes_several_and_goes_out() -> None:
    """`out.floating` `draw.deep`: a floater may take several cards from the pile, meld all
    but one and discard it (ending the hand) — but not discard the deepest."""
    rules = make_rules("pagat-500", floating=True)
    assert out(rules, "8H 9H 10H QS", "QS", "8H 9H 10H QS").legal
    refused = out(rules, "8H 9H 10H QS", "8H", "8H 9H 10H QS")
    assert not refused.legal and refused.code == "draw.deepest-discard"
    # everything melded: they float again
    assert out(rules, "8H 9H 10H", None, "8H 9H 10H").code == "out.floating"


def test_out_empty_hand_took_cards_must_be_in_the_hand() -> None:
    """`out.empty-hand`: ``hand`` is every card held, the cards taken included; naming a
    taken card that is not there is a question that makes no sense."""
    with pytest.raises(DrawError):
        out(PAGAT, "8H KD", "KD", "9H KD")
    with pytest.raises(DrawError):
        out(PAGAT, "8H KD", "KD", "8H 8H KD")


def test_meld_once_per_turn_refusal_names_the_one_new_meld() -> None:
    """`meld.once-per-turn` `out.empty-hand`: two new melds would meld every card, but the
    house rule allows one a turn; the verdict says so instead of "cannot be melded"."""
    rules = make_rules("basic", one_meld_per_turn=True)
    verdict = out(rules, "2C 3C 4C 5S 6S 7S", None, "", Table())
    assert not verdict.legal and verdict.code == "out.one-meld-per-turn"
    assert "meld.once-per-turn" in verdict.rules
    assert "one new meld" in verdict.message
    stuck = out(rules, "2C 3C 4C 5S 6S 7S QD", None, "", Table())
    assert stuck.code == "out.cannot-meld" and "QD" in stuck.message
    assert out(rules, "2C 3C 4C 8H", None, "", HEARTS).legal  # one meld and a lay-off
