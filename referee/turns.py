"""Turn order: who starts a hand and who deals the next one (``turn.order``).

Seats are numbered 0..n-1 clockwise; "left of the dealer" is the next seat.
"""

from __future__ import annotations


def first_player(dealer: int, players: int) -> int:
    """The player left of the dealer starts the hand."""
    return (dealer + 1) % players


def next_dealer(dealer: int, players: int) -> int:
    """The deal passes to the left after each hand."""
    return (dealer + 1) % players


def dealer_of_hand(first_dealer: int, hand_number: int, players: int) -> int:
    """The dealer of hand ``hand_number`` (1-based) when ``first_dealer`` dealt hand 1."""
    return (first_dealer + hand_number - 1) % players
