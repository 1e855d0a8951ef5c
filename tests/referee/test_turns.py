"""Turn order and the deal.

Rules: `turn.order`.
"""

from __future__ import annotations

import pytest

from referee import first_player, next_dealer
from referee.turns import dealer_of_hand


@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
def test_turn_order_left_of_the_dealer_starts(players: int) -> None:
    """`turn.order`: the player left of the dealer starts; seats are numbered clockwise,
    so play goes 1, 2, ... round the table."""
    for dealer in range(players):
        assert first_player(dealer, players) == (dealer + 1) % players
    assert first_player(players - 1, players) == 0  # the last seat's left is seat 0


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_turn_order_the_deal_passes_to_the_left(players: int) -> None:
    """`turn.order`: the deal passes to the left each hand, so everyone deals in turn."""
    dealer = 0
    seen = []
    for _ in range(players):
        seen.append(dealer)
        dealer = next_dealer(dealer, players)
    assert sorted(seen) == list(range(players))
    assert dealer == 0


def test_turn_order_dealer_of_a_given_hand() -> None:
    """`turn.order`"""
    assert [dealer_of_hand(2, hand, 4) for hand in range(1, 7)] == [2, 3, 0, 1, 2, 3]
    assert dealer_of_hand(0, 1, 3) == 0
    # the first player of every hand is the next dealer
    for hand in range(1, 10):
        dealer = dealer_of_hand(1, hand, 5)
        assert first_player(dealer, 5) == next_dealer(dealer, 5)
