"""Calling "Rummy!" on the discard pile.

Rules: `rummy.call`, `rummy.own-meld`, `rummy.after-out`, `rummy.mode`.
"""

from __future__ import annotations

import pytest

from referee import (
    JOKER,
    Table,
    callable_cards,
    check_rummy_call,
    make_meld,
    make_rules,
    parse_card,
    parse_cards,
)

PAGAT = make_rules("pagat-500")
TOP = make_rules("pagat-500", rummy_call="top")
OFF = make_rules("pagat-500", rummy_call="off")


def table(*melds: tuple[str, str, str]) -> Table:
    t = Table()
    for meld_id, cards, owner in melds:
        t = t.with_meld(make_meld(meld_id, parse_cards(cards), PAGAT, owner))
    return t


HEARTS = table(("m", "7H 8H 9H", "Ada"))


@pytest.mark.parametrize("discard", ["6H", "10H"])
def test_rummy_call_a_discard_that_could_have_been_laid_off(discard: str) -> None:
    """`rummy.call`: 7♥ 8♥ 9♥ on the table and someone discards 6♥ or 10♥."""
    pile = parse_cards(f"2C 3D {discard}")
    verdict = check_rummy_call(PAGAT, HEARTS, pile, discarder="Bo", caller="Cy")
    assert verdict.legal
    assert verdict.code == "rummy.ok"
    assert verdict.rules == ("rummy.call",)
    assert str(verdict.params["card"]) == discard
    assert verdict.detail["take"] == 1
    (found,) = verdict.detail["callable"]
    assert found.card == parse_card(discard) and found.index == 2
    assert found.how.kind == "layoff" and found.how.meld_id == "m"


def test_rummy_call_king_queen_jack_of_clubs() -> None:
    """`rummy.call`: the pile holds K♣ and, further up, Q♣, and someone discards J♣:
    anyone else may call and take everything from the K♣ up."""
    pile = parse_cards("4D KC 2D QC 5S JC")
    verdict = check_rummy_call(PAGAT, Table(), pile, discarder="Bo", caller="Cy")
    assert verdict.legal and "rummy.call" in verdict.rules
    deepest = verdict.detail["deepest"]
    assert deepest.card == parse_card("KC")
    assert verdict.detail["take"] == 5  # KC 2D QC 5S JC: everything from the KC up
    assert pile[-verdict.detail["take"]:][0] == parse_card("KC")
    assert sorted(str(c) for c in deepest.how.cards) == ["JC", "KC", "QC"]
    assert "5 from the top" in verdict.message
    # before the J♣ came, nothing could be called
    assert callable_cards(Table(), pile[:-1], PAGAT) == []


def test_rummy_call_a_card_melded_by_a_chain_of_pile_cards() -> None:
    """`rummy.call`: meldable "by a chain": the 6♥ higher in the pile is laid off on
    7-8-9♥ first, then the 5♥ under it."""
    pile = parse_cards("5H KS 6H")
    found = callable_cards(HEARTS, pile, PAGAT)
    assert [(str(c.card), c.take) for c in found] == [("5H", 3), ("6H", 1)]
    assert [str(c) for c in found[0].how.cards] == ["6H", "5H"]


def test_rummy_call_a_new_meld_from_pile_cards_alone() -> None:
    """`rummy.call`: by forming a new meld from discard-pile cards alone."""
    pile = parse_cards("8D 3S 8C 2H 8S")
    found = callable_cards(Table(), pile, PAGAT)
    assert [str(c.card) for c in found] == ["8D"]  # the 8C has only the 8S above it
    assert found[0].take == 5
    assert sorted(str(c) for c in found[0].how.cards) == ["8C", "8D", "8S"]


def test_rummy_call_needs_no_card_from_any_hand() -> None:
    """`rummy.call`: cards in a player's hand do not count; only the pile and table."""
    pile = parse_cards("2C 5S QD")
    verdict = check_rummy_call(PAGAT, HEARTS, pile, discarder="Bo", caller="Cy")
    assert not verdict.legal and verdict.code == "rummy.nothing"
    assert "rummy.call" in verdict.rules
    assert verdict.detail["callable"] == () and verdict.detail["take"] == 0


def test_rummy_call_jokers_in_the_pile_count() -> None:
    """`rummy.call` / `layoff.joker`: a discarded joker can always be laid off on a run."""
    found = callable_cards(HEARTS, [parse_card("2C"), JOKER], PAGAT)
    assert [str(c.card) for c in found] == ["JK"]
    # and a joker higher in the pile can complete a new meld with a deeper card
    found = callable_cards(Table(), parse_cards("5S 6S QD JK"), PAGAT)
    assert str(found[0].card) == "5S" and found[0].take == 4


def test_rummy_call_too_late_once_the_next_player_drew() -> None:
    """`rummy.call`: only before the next player draws."""
    pile = parse_cards("2C 6H")
    verdict = check_rummy_call(PAGAT, HEARTS, pile, "Bo", "Cy", next_player_drew=True)
    assert not verdict.legal and verdict.code == "rummy.too-late"
    assert "rummy.call" in verdict.rules


def test_rummy_call_not_by_the_discarder() -> None:
    """`rummy.call`: any player other than the one who just discarded."""
    verdict = check_rummy_call(PAGAT, HEARTS, parse_cards("2C 6H"), "Bo", "Bo")
    assert not verdict.legal and verdict.code == "rummy.own-discard"
    assert "rummy.call" in verdict.rules
    assert "Bo" in verdict.message


def test_rummy_own_meld_exposes_a_card_for_the_others() -> None:
    """`rummy.own-meld`: you hold 5♣ 6♣, draw 4♣ and meld 4-5-6♣ while 3♣ lies in the
    pile. Once you have discarded, any other player may call Rummy and take down to the
    3♣; you yourself may not call on your own discard."""
    before = Table()
    pile = parse_cards("9D 3C KH")
    assert callable_cards(before, pile, PAGAT) == []
    after = before.with_meld(make_meld("you", parse_cards("4C 5C 6C"), PAGAT, "You"))
    pile_after_discard = [*pile, parse_card("8S")]

    own = check_rummy_call(PAGAT, after, pile_after_discard, discarder="You", caller="You")
    assert not own.legal
    assert own.code == "rummy.own-discard"
    assert "rummy.own-meld" in own.rules

    other = check_rummy_call(PAGAT, after, pile_after_discard, discarder="You", caller="Ada")
    assert other.legal and other.code == "rummy.ok"
    assert other.plain_params()["card"] == "3C"
    assert other.detail["take"] == 3  # 3C KH 8S

    # after the next player's turn (Ada drew from the stock and discarded), if nobody
    # took it, You may call
    later = [*pile_after_discard, parse_card("2D")]
    mine = check_rummy_call(PAGAT, after, later, discarder="Ada", caller="You")
    assert mine.legal and mine.plain_params()["card"] == "3C"


def test_rummy_after_out_no_call_once_the_hand_ended() -> None:
    """`rummy.after-out`: going out ends the hand at once, even if the pile holds
    meldable cards."""
    verdict = check_rummy_call(PAGAT, HEARTS, parse_cards("2C 6H"), "Bo", "Cy",
                               hand_over=True)
    assert not verdict.legal
    assert verdict.code == "rummy.hand-over"
    assert verdict.rules == ("rummy.after-out",)
    assert verdict.detail["callable"]  # the 6H is still meldable


def test_rummy_mode_off() -> None:
    """`rummy.mode` = off: no calls at all (rummy-500's and basic's default)."""
    for rules in (OFF, make_rules("rummy-500"), make_rules("basic")):
        verdict = check_rummy_call(rules, HEARTS, parse_cards("2C 6H"), "Bo", "Cy")
        assert not verdict.legal and verdict.code == "rummy.off"
        assert verdict.rules == ("rummy.mode",)
        assert callable_cards(HEARTS, parse_cards("2C 6H"), rules) == []


def test_rummy_mode_top_only_the_latest_discard_laid_off() -> None:
    """`rummy.mode` = top: only when the latest discard can be laid off on a table meld;
    the caller takes that card alone."""
    verdict = check_rummy_call(TOP, HEARTS, parse_cards("2C 6H"), "Bo", "Cy")
    assert verdict.legal and set(verdict.rules) == {"rummy.call", "rummy.mode"}
    assert verdict.detail["take"] == 1
    # a deeper card does not count, nor does a new meld from pile cards
    deep = check_rummy_call(TOP, HEARTS, parse_cards("6H 2C"), "Bo", "Cy")
    assert not deep.legal and deep.code == "rummy.top-nothing"
    assert "rummy.mode" in deep.rules
    # it says why: only the latest discard counts here, and the 2♣ fits no table meld
    assert "2C" in deep.message and "latest discard" in deep.message
    assert callable_cards(Table(), parse_cards("8D 8C 8S"), TOP) == []
    assert callable_cards(HEARTS, parse_cards("5H 6H"), TOP)[0].take == 1


def test_rummy_mode_pile_is_the_full_rule() -> None:
    """`rummy.mode` = pile: the default for pagat-500."""
    assert PAGAT.rummy_call == "pile"
    assert callable_cards(HEARTS, parse_cards("6H 2C"), PAGAT)[0].take == 2


def test_rummy_call_lists_every_callable_card_deepest_first() -> None:
    """`rummy.call`"""
    pile = parse_cards("6H 10H 3S 4S 5S")
    found = callable_cards(HEARTS, pile, PAGAT)
    assert [str(c.card) for c in found] == ["6H", "10H", "3S"]
    assert [c.take for c in found] == [5, 4, 3]
    assert [c.index for c in found] == [0, 1, 2]
    assert callable_cards(HEARTS, [], PAGAT) == []
