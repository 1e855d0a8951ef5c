"""The played-hand log: the deal, and every turn as the table played it.

A :class:`Deal` says who plays in which seat (clockwise), who dealt, the first card
turned up to start the discard pile and, when the table knows it, how many cards each
player was dealt (``cards.deal`` otherwise).  A log is a sequence of moves, each by one
player:

* :class:`DrawStock` — the top card of the stock (``card``: which one, if the player
  says);
* :class:`TakePile` — the top ``take`` cards of the discard pile (1: the top card alone);
* :class:`Meld` — a new meld, cards as they lie; :class:`LayOff` — one card on a meld
  on the table (its id: given with the meld, else ``<player>-<n>``, the player's n-th);
* :class:`Discard` — the card that ends the turn (the last card: going out);
* :class:`CallRummy` — "Rummy!" on the pile after a discard (``take``: down to which
  card, counted from the top; none: the deepest card that can be called);
* :class:`StockOut` — the player to draw finds the stock empty and does not take the
  discard pile.

Any move may say ``agreed``: the table let it stand although a rule refuses it, and the
replay (:mod:`referee.replay`) records it as overridden by agreement.  A move the log
cannot hold at all (out of turn, a card the decks do not have, more cards than the
player holds) is a :class:`LogError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .cards import Card
from .rules import RuleSet
from .verdict import Param, Verdict


class LogError(ValueError):
    """A log that cannot be replayed past this move, as data: ``step`` is the move's
    index, ``verdict`` says why (a message id of :data:`~referee.verdict.MESSAGES`, with
    the rule ids it rests on) and ``code`` is the short name programs read."""

    def __init__(self, code: str, verdict: Verdict, step: int | None = None) -> None:
        self.code = code
        self.verdict = verdict
        self.step = step
        super().__init__(verdict.message if step is None
                         else f"move {step + 1}: {verdict.message}")

    def __reduce__(self) -> tuple[type[LogError], tuple[str, Verdict, int | None]]:
        return type(self), (self.code, self.verdict, self.step)

    @classmethod
    def of(cls, code: str, message: str, rules: tuple[str, ...],
           params: Mapping[str, Param] | None = None) -> LogError:
        return cls(code, Verdict(False, message, rules, dict(params or {})))


#: The codes of :class:`LogError`, for the API's documentation.
LOG_ERROR_CODES = (
    "unknown-player", "dealer-not-seated", "duplicate-player", "out-of-turn",
    "draw-first", "drew-already", "hand-over", "stock-empty", "stock-not-empty",
    "take-too-deep", "more-than-held", "not-held", "too-many-copies", "no-jokers", "meld-id-taken",
    "lay-off-called-card", "dealt-too-many",
)


@dataclass(frozen=True, slots=True)
class Deal:
    """How the hand started: the rule set, the players clockwise, the dealer, the first
    upturned card and the cards dealt to each (None: as ``cards.deal`` says)."""

    rules: RuleSet
    players: tuple[str, ...]
    dealer: str
    upcard: Card
    dealt: int | None = None

    @property
    def cards_dealt(self) -> int:
        return self.dealt if self.dealt is not None else self.rules.cards_dealt(
            len(self.players))

    def stock_size(self) -> int:
        """The cards left in the stock once the deal is done and the upcard turned."""
        return (self.rules.deck_size(len(self.players))
                - len(self.players) * self.cards_dealt - 1)


@dataclass(frozen=True, slots=True)
class DrawStock:
    player: str
    card: Card | None = None
    agreed: bool = False
    kind = "draw"


@dataclass(frozen=True, slots=True)
class TakePile:
    player: str
    take: int = 1
    agreed: bool = False
    kind = "take"


@dataclass(frozen=True, slots=True)
class Meld:
    player: str
    cards: tuple[Card, ...]
    meld_id: str | None = None
    agreed: bool = False
    kind = "meld"


@dataclass(frozen=True, slots=True)
class LayOff:
    player: str
    card: Card
    onto: str
    end: str | None = None
    agreed: bool = False
    kind = "layoff"


@dataclass(frozen=True, slots=True)
class Discard:
    player: str
    card: Card
    agreed: bool = False
    kind = "discard"


@dataclass(frozen=True, slots=True)
class CallRummy:
    player: str
    take: int | None = None
    agreed: bool = False
    kind = "rummy"


@dataclass(frozen=True, slots=True)
class StockOut:
    player: str
    agreed: bool = False
    kind = "stock-out"


Move = DrawStock | TakePile | Meld | LayOff | Discard | CallRummy | StockOut
