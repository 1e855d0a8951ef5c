"""SQL expressions over the stored cards, for the database to aggregate.

A stored card is its canonical text (``7S``, ``10H``, ``AD``, ``JK``; a joker's
declaration apart, in ``MeldCard.declared``), so a card's rank is its text without
the last character.  What a card is worth comes from the referee
(:func:`referee.card_value` under the game's rules): :func:`values_of` reads the
values of a rule set once, and :func:`card_value` turns them into a ``CASE`` the
database evaluates card by card.  Games whose rules value cards alike are
aggregated together.

Where an ace lies is in the meld's stored reading (``Meld.reading``: the final
reading, in order from the low end): in a run, an ace whose reading starts with it
is low (``values.low-ace``), any other is high.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import String, and_, case, cast, func, not_, or_
from sqlalchemy.sql.elements import ColumnElement

from referee import JOKER, RUN, SET, Card, RuleSet
from referee import card_value as referee_value
from scorebook.models import Hand, Meld, MeldCard

JOKER_TEXT = str(JOKER)  # "JK"
SUITS = ("S", "H", "D", "C")
#: Rank texts by rank (1, the ace, to 13).
RANK_TEXTS = {1: "A", **{n: str(n) for n in range(2, 11)}, 11: "J", 12: "Q", 13: "K"}


def counts_cards() -> ColumnElement[bool]:
    """The hands whose cards the card figures read: every complete hand but those
    entered as points only (:meth:`Hand.with_cards`).  A points-only hand counts for
    the points figures and is left out of the card figures here, in this one place;
    the pages then say how many were left out (``hands - card_hands``)."""
    return Hand.with_cards()


@dataclass(frozen=True)
class Values:
    """What each card is worth under a rule set: ``by_rank[0]`` a joker, ``[1]`` an
    ace (high, in a set, or in the hand), ``[2]``…``[13]`` the others; ``low_ace`` an
    ace melded low in a run."""

    by_rank: tuple[int, ...]
    low_ace: int


def values_of(rules: RuleSet) -> Values:
    """The referee's values under ``rules``."""
    by_rank = tuple(referee_value(JOKER if rank == 0 else Card(rank, "S"), rules)
                    for rank in range(14))
    return Values(by_rank, referee_value(Card(1, "S"), rules, low_ace=True))


def rank_text(card: Any) -> ColumnElement[Any]:
    """``7S`` → ``7``, ``10H`` → ``10``, ``JK`` → ``JK``."""
    return case((card == JOKER_TEXT, JOKER_TEXT),
                else_=func.substr(card, 1, func.length(card) - 1))


def is_ace(card: Any) -> ColumnElement[bool]:
    return card.like("A%")  # type: ignore[no-any-return]


def is_joker(card: Any) -> ColumnElement[bool]:
    return card == JOKER_TEXT  # type: ignore[no-any-return]


def low_ace() -> ColumnElement[bool]:
    """A natural ace melded low: in a run whose reading starts with it."""
    return and_(Meld.kind == RUN, is_ace(MeldCard.card), Meld.reading.like("A%"))


def high_ace() -> ColumnElement[bool]:
    """A natural ace at the high end of a run."""
    return and_(Meld.kind == RUN, is_ace(MeldCard.card), not_(Meld.reading.like("A%")))


def ace_in_set() -> ColumnElement[bool]:
    return and_(Meld.kind == SET, is_ace(MeldCard.card))


def card_value(card: Any, values: Values, low: ColumnElement[bool] | None = None
               ) -> ColumnElement[int]:
    """The value of the card in column ``card``; ``low`` says where an ace counts as
    melded low (None: nowhere, as for a card left in a hand).  A simple ``CASE`` on
    the card's rank, so the database works the rank out once per card."""
    ace: Any = values.by_rank[1]
    if low is not None and values.low_ace != values.by_rank[1]:
        ace = case((low, values.low_ace), else_=values.by_rank[1])
    by_rank: dict[str, Any] = {JOKER_TEXT: values.by_rank[0], "A": ace}
    by_rank.update({RANK_TEXTS[n]: values.by_rank[n] for n in range(2, 14)})
    return case(by_rank, value=rank_text(card), else_=0)


def run_position(card: Any, reading: Any) -> ColumnElement[int]:
    """A run card's position, 1 (a low ace) to 14 (a high ace), from its text (a
    joker's declaration: ``8H``); 0 for an undeclared joker."""
    ace = case((or_(reading.like("A%"), reading.like(JOKER_TEXT + "=A%")), 1), else_=14)
    by_rank: dict[str, Any] = {"A": ace}
    by_rank.update({text: n for n, text in RANK_TEXTS.items() if n > 1})
    return case(by_rank, value=rank_text(card), else_=0)


def suit_of(card: Any) -> ColumnElement[str]:
    return func.substr(card, func.length(card), 1)


def declared_rank(declared: Any) -> ColumnElement[str]:
    """A set joker's declared rank: ``9`` or ``9S`` → ``9``."""
    return case((suit_of(declared).in_(SUITS),
                 func.substr(declared, 1, func.length(declared) - 1)),
                else_=declared)


def text(value: Any) -> ColumnElement[str]:
    return cast(value, String)


# --- reading the stored keys back ----------------------------------------------------------


@dataclass(frozen=True)
class MeldShape:
    """A meld by its shape, as tallied: a set of a rank, or a run of a suit from one
    position to another."""

    kind: str
    rank: str = ""
    suit: str = ""
    low: int = 0
    high: int = 0

    @property
    def cards(self) -> list[str]:
        """A run's cards (``7H``, ``8H``, ``9H``); a set's rank alone."""
        if self.kind == SET:
            return [self.rank]
        return [(RANK_TEXTS[1] if p == 14 else RANK_TEXTS[p]) + self.suit
                for p in range(self.low, self.high + 1) if 1 <= p <= 14]


def parse_shape(key: str) -> MeldShape | None:
    """``S:K`` (a set of kings) or ``R:H:7-9`` (the run 7-8-9♥) back into a shape."""
    parts = key.split(":")
    try:
        if parts[0] == "S" and len(parts) == 2:
            return MeldShape(SET, rank=parts[1])
        if parts[0] == "R" and len(parts) == 3:
            low, high = (int(p) for p in parts[2].split("-"))
            return MeldShape(RUN, suit=parts[1], low=low, high=high)
    except ValueError:
        return None
    return None


def chunks(items: Sequence[int], size: int) -> list[Sequence[int]]:
    return [items[i:i + size] for i in range(0, len(items), size)]
