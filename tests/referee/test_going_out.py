"""Going out: melding every card, with or without a last discard; floating; the
unplayable-discard house rule; one new meld per turn.

Rules: `out.empty-hand`, `out.stock-empty`, `out.discard-required`, `out.floating`,
`out.unplayable-discard`, `meld.once-per-turn`, `discard.not-same`.
"""

from __future__ import annotations

from referee import (
    PlayerHand,
    Table,
    check_going_out,
    make_meld,
    make_rules,
    parse_card,
    parse_cards,
    score_hand,
)

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
BASIC = make_rules("basic")
HEARTS = Table().with_meld(make_meld("m", parse_cards("7H 8H 9H"), PAGAT, "Ada"))


def test_out_empty_hand_meld_all_but_one_and_discard_it() -> None:
    """`out.empty-hand`: melded all but one and discarded it."""
    verdict = check_going_out(PAGAT, HEARTS, parse_cards("2C 3C 4C KD"), parse_card("KD"))
    assert verdict.legal
    assert verdict.code == "out.ok-discard"
    assert verdict.rules == ("out.empty-hand",)
    assert [str(step) for step in verdict.detail["plan"]] == ["2C 3C 4C"]


def test_out_empty_hand_meld_every_card() -> None:
    """`out.empty-hand`: melded all their cards, laying off on the table where needed."""
    for rules in (PAGAT, RUMMY, BASIC):
        verdict = check_going_out(rules, HEARTS, parse_cards("2C 3C 4C 10H"))
        assert verdict.legal and verdict.code == "out.ok", rules.family
        assert verdict.rules == ("out.empty-hand",)
        assert [str(step) for step in verdict.detail["plan"]] == ["2C 3C 4C", "10H on m"]


def test_out_empty_hand_with_a_chain_of_lay_offs_and_jokers() -> None:
    """`out.empty-hand`: a joker bridges 10♥ to the J♥ on the 7-8-9♥ run."""
    verdict = check_going_out(PAGAT, HEARTS, parse_cards("JH JK"))
    assert verdict.legal
    (step,) = verdict.detail["plan"]
    assert str(step) == "JK=10H JH on m"


def test_out_empty_hand_refused_when_a_card_cannot_be_melded() -> None:
    """`out.empty-hand`: the cards left must all be melded; the verdict names the
    cards that cannot be."""
    verdict = check_going_out(PAGAT, HEARTS, parse_cards("2C 3C 5C KD"), parse_card("KD"))
    assert not verdict.legal
    assert verdict.code == "out.cannot-meld"
    assert "out.empty-hand" in verdict.rules
    assert verdict.plain_params()["cards"] == "2C 3C 5C"
    just_one = check_going_out(PAGAT, HEARTS, parse_cards("2C 3C 4C QS 5D"), parse_card("5D"))
    assert just_one.plain_params()["cards"] == "QS"


def test_out_empty_hand_discard_must_be_in_the_hand() -> None:
    """`out.empty-hand`"""
    verdict = check_going_out(PAGAT, HEARTS, parse_cards("10H"), parse_card("KD"))
    assert not verdict.legal and verdict.code == "out.discard-not-in-hand"


def test_out_empty_hand_last_card_discarded() -> None:
    """`out.empty-hand`: a single card left is simply discarded."""
    verdict = check_going_out(PAGAT, HEARTS, parse_cards("KD"), parse_card("KD"))
    assert verdict.legal and verdict.code == "out.ok-discard"
    assert check_going_out(PAGAT, HEARTS, []).legal


def test_out_cannot_discard_the_card_just_taken_alone() -> None:
    """`discard.not-same`: a card taken alone from the pile cannot be the last discard."""
    verdict = check_going_out(PAGAT, HEARTS, parse_cards("2C 3C 4C KD"), parse_card("KD"),
                              took=[parse_card("KD")])
    assert not verdict.legal and verdict.code == "draw.same-discard"
    assert "discard.not-same" in verdict.rules
    # took is listed bottom to top, like the pile: with 4C deepest and KD on top, the
    # player melds the 4C and may discard the KD that had been on top ...
    assert check_going_out(PAGAT, HEARTS, parse_cards("2C 3C 4C KD"), parse_card("KD"),
                           took=parse_cards("4C KD")).legal
    # ... but with KD deepest it must be melded this turn, so it cannot be the discard
    deepest = check_going_out(PAGAT, HEARTS, parse_cards("2C 3C 4C KD"), parse_card("KD"),
                              took=parse_cards("KD 4C"))
    assert not deepest.legal and deepest.code == "draw.deepest-discard"


def test_out_stock_empty_the_hand_is_scored_with_nobody_out() -> None:
    """`out.stock-empty`: the hand also ends when the stock is empty and the player to
    play does not want the pile; everyone then scores melds minus hand."""
    ada = PlayerHand("Ada", melds=[("a", parse_cards("7H 8H 9H"))], hand=parse_cards("KS 2D"))
    bo = PlayerHand("Bo", melds=[("b", parse_cards("4C 4S 4D"))], hand=parse_cards("AH"))
    for rules in (PAGAT, RUMMY):
        result = score_hand(rules, [ada, bo], went_out=None)
        assert "out.stock-empty" in result.rules
        scores = result.by_name()
        assert scores["Ada"].score == 24 - 12
        assert scores["Bo"].score == 12 - 15
        assert "out.stock-empty" not in score_hand(rules, [ada, PlayerHand("Bo")], "Bo").rules


def test_out_discard_required_option() -> None:
    """`out.discard-required`: the player going out must keep a card to discard."""
    rules = make_rules("pagat-500", discard_required=True)
    refused = check_going_out(rules, HEARTS, parse_cards("2C 3C 4C 10H"))
    assert not refused.legal
    assert refused.code == "out.discard-required"
    assert refused.rules == ("out.discard-required",)
    assert check_going_out(rules, HEARTS, parse_cards("2C 3C 4C 10H"), parse_card("10H")).legal
    # basic: going out by melding every card is allowed by default
    assert check_going_out(BASIC, Table(), parse_cards("2C 3C 4C")).legal
    assert not check_going_out(make_rules("basic", discard_required=True), Table(),
                               parse_cards("2C 3C 4C")).legal


def test_out_floating_option() -> None:
    """`out.floating`: a player may meld all their cards; the hand does not end, they
    float until their next turn."""
    rules = make_rules("pagat-500", floating=True)
    verdict = check_going_out(rules, HEARTS, parse_cards("2C 3C 4C 10H"))
    assert verdict.legal
    assert verdict.code == "out.floating"
    assert verdict.rules == ("out.floating",)
    assert "float" in verdict.message
    # with a last discard the hand ends as usual
    assert check_going_out(rules, HEARTS, parse_cards("2C 3C 4C KD"),
                           parse_card("KD")).code == "out.ok-discard"


def test_out_floating_a_floater_cannot_go_out_with_the_previous_discard() -> None:
    """`out.floating` / `out.unplayable-discard`: taking the top discard alone and
    discarding it again is illegal."""
    rules = make_rules("pagat-500", unplayable_discard=True)
    verdict = check_going_out(rules, HEARTS, parse_cards("QS"), parse_card("QS"),
                              took=parse_cards("QS"))
    assert not verdict.legal
    assert set(verdict.rules) == {"discard.not-same", "out.floating"}


def test_out_unplayable_discard_option() -> None:
    """`out.unplayable-discard`: no going out by discarding a card that could have been
    melded (10♥ on 7-8-9♥); the player must meld it and float."""
    rules = make_rules("pagat-500", unplayable_discard=True)
    assert rules.floating
    refused = check_going_out(rules, HEARTS, parse_cards("2C 3C 4C 10H"), parse_card("10H"))
    assert not refused.legal
    assert refused.code == "out.unplayable-discard"
    assert set(refused.rules) == {"out.unplayable-discard", "out.floating"}
    assert [str(s) for s in refused.detail["plan"]] == ["2C 3C 4C", "10H on m"]
    assert check_going_out(rules, HEARTS, parse_cards("2C 3C 4C KD"), parse_card("KD")).legal
    # without the option the playable discard is fine
    assert check_going_out(PAGAT, HEARTS, parse_cards("2C 3C 4C 10H"),
                           parse_card("10H")).legal
    # a card that only fits with the other cards kept is playable too (5C on 2-3-4C)
    fits_own = check_going_out(rules, Table(), parse_cards("2C 3C 4C 5C"), parse_card("5C"))
    assert fits_own.code == "out.unplayable-discard"


def test_meld_once_per_turn_option() -> None:
    """`meld.once-per-turn` (basic option): only one new meld per turn, so two new melds
    cannot be put down to go out; lay-offs do not count."""
    rules = make_rules("basic", one_meld_per_turn=True)
    cards = parse_cards("2C 3C 4C 5D 5S 5H")
    refused = check_going_out(rules, Table(), cards)
    assert not refused.legal
    assert set(refused.rules) == {"out.empty-hand", "meld.once-per-turn"}
    assert check_going_out(BASIC, Table(), cards).legal
    one_meld_and_layoffs = parse_cards("2C 3C 4C 10H JH")
    t = Table().with_meld(make_meld("m", parse_cards("7H 8H 9H"), BASIC))
    assert check_going_out(rules, t, one_meld_and_layoffs).legal
