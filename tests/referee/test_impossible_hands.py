"""Impossible and incomplete records of a finished hand.

Rules: `out.empty-hand` (a player left with no cards ends the hand at once, so only the
one who went out may hold none: in a stock-out or a draw nobody may; under `out.floating`
a floater may), and RULES.md §10 "Fewer cards than dealt" (`cards.deal`: every player ends
a hand with at least as many cards as were dealt; a record short of cards is incomplete,
not impossible, and the referee's scoring question does not check it).
"""

from __future__ import annotations

import pytest

from referee import (
    Card,
    PlayerHand,
    ScoringError,
    cards_of,
    fewer_than_dealt,
    holding_nothing,
    make_rules,
    parse_card,
    parse_cards,
    score_hand,
)

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
BASIC = make_rules("basic")
FLOATING = make_rules("pagat-500", floating=True)


def player(name: str, melds: str = "", hand: str = "", layoffs: tuple = ()) -> PlayerHand:
    return PlayerHand(name, [(f"{name}{k}", parse_cards(m))
                             for k, m in enumerate(melds.split("|")) if m.strip()],
                      [(parse_card(c), onto) for c, onto in layoffs], parse_cards(hand))


def test_out_empty_hand_a_player_who_did_not_go_out_holds_no_cards() -> None:
    """`out.empty-hand`: pagat-500, A went out and B melded 9♥ 9♦ 9♣ and holds nothing.
    B would have ended the hand: the record is refused, naming B and citing the rule."""
    a = player("A", "5S 6S 7S|KC KD KH")
    b = player("B", "9H 9D 9C")
    c = player("C", hand="2D 3D")
    with pytest.raises(ScoringError) as info:
        score_hand(PAGAT, [a, b, c], "A")
    assert info.value.code == "holds-no-cards"
    assert info.value.player == "B" and info.value.rules == ("out.empty-hand",)
    assert "B holds no cards but did not go out" in info.value.message
    assert holding_nothing(PAGAT, [a, b, c], "A") == ("B",)


@pytest.mark.parametrize("rules", [PAGAT, RUMMY])
def test_out_empty_hand_nobody_holds_none_when_the_stock_ran_out(rules) -> None:
    """`out.empty-hand` `out.stock-empty`: when nobody went out, nobody can be left with
    no cards — not even the player who melded the most."""
    a = player("A", "5S 6S 7S", "2C")
    b = player("B", "9H 9D 9C")
    with pytest.raises(ScoringError) as info:
        score_hand(rules, [a, b], None)
    assert (info.value.code, info.value.player) == ("holds-no-cards", "B")
    assert "nobody went out" in info.value.message
    # every player still holding a card: a stock-out scores as always
    b_holds = player("B", "9H 9D 9C", "KS")
    scores = score_hand(rules, [a, b_holds], None).by_name()
    assert scores["B"].score == 27 - 10


def test_out_empty_hand_a_basic_draw_where_a_player_melded_everything() -> None:
    """`out.empty-hand` `basic.stock-reshuffle`: a Basic Rummy draw in which W melded every
    card is impossible (W went out), not a 0/0 draw."""
    w = player("W", "2C 3C 4C|8D 8S 8H")
    e = player("E", hand="KS QS 5H")
    with pytest.raises(ScoringError) as info:
        score_hand(BASIC, [w, e], None)
    assert (info.value.code, info.value.player) == ("holds-no-cards", "W")
    assert score_hand(BASIC, [w, e], "W").by_name()["W"].score == 25  # W went out


def test_out_empty_hand_only_the_player_who_went_out_may_hold_none() -> None:
    """`out.empty-hand`: the one who went out holds nothing (``went-out-with-cards``
    otherwise); everyone else holds something, and the hand scores."""
    a = player("A", "5S 6S 7S|KC KD KH")
    b = player("B", "9H 9D 9C", "AS")
    scores = score_hand(PAGAT, [a, b], "A").by_name()
    assert (scores["A"].score, scores["B"].score) == (48, 27 - 15)


def test_out_floating_a_floater_may_hold_none() -> None:
    """`out.floating` `out.empty-hand`: with floating, a player may meld every card and
    play on, so a player other than the one who went out (or anyone, in a stock-out) may
    hold none."""
    a = player("A", "5S 6S 7S|KC KD KH")
    b = player("B", "9H 9D 9C")
    assert holding_nothing(FLOATING, [a, b], "A") == ()
    assert score_hand(FLOATING, [a, b], "A").by_name()["B"].score == 27
    assert score_hand(FLOATING, [a, b], None).by_name()["A"].score == 48


def test_out_empty_hand_is_said_after_what_is_wrong_with_the_melds() -> None:
    """`out.empty-hand` `meld.run`: an illegal meld is the first thing said about a record
    (the player may just be missing the cards of a meld typed wrong)."""
    a = player("A", "5S 6S 8S")
    b = player("B", hand="2C")
    with pytest.raises(ScoringError) as info:
        score_hand(PAGAT, [a, b], None)
    assert info.value.code == "illegal-meld"


def test_cards_deal_a_player_short_of_the_deal_is_found_and_counted() -> None:
    """`cards.deal` (§10 "Fewer cards than dealt"): each player's cards are counted —
    melded, laid off and held — against the deal: 7 each with three players."""
    a = player("A", "5S 6S 7S|KC KD KH", layoffs=[("8S", "A0")])  # 7 cards
    b = player("B", "9H 9D 9C", "2D 3D")  # 5 cards
    c = player("C", hand="4C 5C 6C 7C 8C 10C JC 2H")  # 8 cards
    assert [cards_of(p) for p in (a, b, c)] == [7, 5, 8]
    assert fewer_than_dealt(PAGAT, [a, b, c]) == (("B", 5),)
    # the referee's scoring question does not check it: a question may name only the
    # cards that matter
    assert score_hand(PAGAT, [a, b, c], "A").by_name()["B"].score == 27 - 5


@pytest.mark.parametrize(("rules", "players", "dealt"), [
    (PAGAT, 2, 13), (PAGAT, 3, 7), (PAGAT, 5, 7), (PAGAT, 8, 7), (RUMMY, 2, 13),
    (BASIC, 2, 10), (BASIC, 3, 7), (BASIC, 4, 7)])
def test_cards_deal_the_count_follows_the_deal_of_the_family(rules, players: int,
                                                             dealt: int) -> None:
    """`cards.deal` `cards.deck`: 500 Rum and Rummy 500 deal 13 each to two players and 7
    otherwise (two decks from five players on deal 7 too); Basic Rummy 10 to two, 7 to
    three or four. A player with exactly the deal is not short; one card fewer is."""
    suits = "SHDC"
    hands = []
    for i in range(players):
        suit = suits[i % 4]
        ranks = range(1, dealt + 1) if i < 4 else range(13 - dealt + 1, 14)
        hands.append(PlayerHand(f"P{i}", hand=[Card(r, suit) for r in ranks]))
    assert fewer_than_dealt(rules, hands) == ()
    short = [PlayerHand("P0", hand=hands[0].hand[:-1]), *hands[1:]]
    assert fewer_than_dealt(rules, short) == (("P0", dealt - 1),)
