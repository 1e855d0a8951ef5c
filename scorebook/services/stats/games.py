"""One finished game, from its own cards: who melded most, who stranded most, and the
turning point (the hand in which the winner gained most on the best of the others).

The figures are the same aggregates the cache is built from
(:func:`scorebook.services.stats.cache.aggregate`), asked for this game alone and not stored:
the scoreboard that shows them is itself rendered once per version of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorebook.models import FINISHED, Game
from scorebook.services.stats.cache import aggregate


@dataclass
class SeatLine:
    player_id: int
    name: str
    melded_points: int
    laid_off_points: int
    stranded_points: int
    cards_down: int  # melded and laid off
    cards_stranded: int
    hands_out: int

    @property
    def down_points(self) -> int:
        return self.melded_points + self.laid_off_points


@dataclass
class Turning:
    number: int
    gain: int
    before: int  # the winner's lead over the best of the others before the hand
    after: int


@dataclass
class GameSummary:
    seats: list[SeatLine]
    winner: str | None
    hands: int
    turning: Turning | None = None
    #: The hands recorded card by card, which the card figures cover (a hand kept as
    #: points only has no cards to count); ``hands`` counts every hand.
    card_hands: int = 0
    comeback: int = 0
    comeback_hand: int | None = None
    most_melded: list[SeatLine] = field(default_factory=list)
    most_stranded: list[SeatLine] = field(default_factory=list)


def game_summary(game: Game) -> GameSummary | None:
    """The figures of a finished game (None for a game still being played)."""
    if game.status != FINISHED:
        return None
    figures = aggregate([game.id])
    stats = figures.games.get(game.id)
    if stats is None:
        return None
    seats = []
    card_hands = 0
    for seat in game.seats:
        f = figures.players.get((game.id, seat.player_id))
        if f is None:
            continue
        card_hands = max(card_hands, f.card_hands or 0)
        seats.append(SeatLine(seat.player_id, seat.player.name, f.melded_points,
                              f.laid_off_points, f.stranded_points,
                              f.melded_cards + f.laid_off_cards, f.stranded_cards,
                              f.hands_out))
    summary = GameSummary(seats, game.winner.name if game.winner else None, stats.hands,
                          comeback=stats.comeback, comeback_hand=stats.comeback_hand,
                          card_hands=card_hands)
    if stats.swing_hand is not None:
        summary.turning = Turning(stats.swing_hand, stats.swing, stats.swing_before,
                                  stats.swing_after)
    top = max((s.down_points for s in seats), default=0)
    summary.most_melded = [s for s in seats if top and s.down_points == top]
    worst = max((s.stranded_points for s in seats), default=0)
    summary.most_stranded = [s for s in seats if worst and s.stranded_points == worst]
    return summary
