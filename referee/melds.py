"""Melds: sets and runs, the readings of a bunch of cards, and card values.

A *reading* is one way a bunch of cards forms a legal meld, with every joker
fixed to the card it stands for (``meld.joker``).  :func:`meld_readings` lists
them all; :func:`check_meld` turns that into a :class:`~referee.verdict.Verdict`
that says why not, or which declaration is still needed.

Run positions: a run is a block of consecutive *positions* 1–14 in one suit,
where the ace is position 1 (low) or 14 (high, not in Basic Rummy).  Position
14 is the ace again, so a run never holds an ace at both ends (``meld.ace``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter

from .cards import JOKER, JOKER_RANK, SUITS, Card, joker_as, natural_card
from .rules import RuleSet, ValueScheme
from .verdict import Param, Verdict


class MeldKind(StrEnum):
    """A meld is a set or a run (``meld.set``, ``meld.run``)."""

    SET = "set"
    RUN = "run"


class RunEnd(StrEnum):
    """The end of a run a card is laid off at: below its lowest card or above its
    highest (``values.ace-end`` for an ace)."""

    LOW = "low"
    HIGH = "high"


SET = MeldKind.SET
RUN = MeldKind.RUN
#: The codes of a legal meld whose cards can be read several ways: the player (or,
#: for cards as they lie, the joker's or the ace's place) must say which.
SEVERAL_READINGS = ("meld.ambiguous", "meld.joker-place", "meld.ace-either-end")


@dataclass(frozen=True, slots=True)
class Reading:
    """One legal reading of a meld.

    ``cards`` holds the cards with every joker declared: for a run in position
    order from ``low`` up; for a set the naturals first, then the jokers, each
    declared as the set's rank (and a suit only where the player named one).
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    rank: int = 0  # a set's rank
    suit: str = ""  # a run's suit
    low: int = 0  # a run's first position (1-14)

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1

    @property
    def jokers(self) -> int:
        return sum(1 for c in self.cards if c.is_joker)

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))


def position_rank(position: int) -> int:
    """The rank at a run position (14 is the ace again)."""
    return 1 if position == 14 else position


def card_at(position: int, suit: str) -> Card:
    return natural_card(1 if position == 14 else position, suit)


def card_value(card: Card, rules: RuleSet, *, low_ace: bool = False) -> int:
    """Points for one card (``values.face``, ``values.low-ace``, ``values.joker``).

    ``low_ace`` says the card is an ace melded low in a run (position 1).
    """
    rank = card.rank
    if rank == JOKER_RANK:
        return 15
    if rules.is_basic:
        return 10 if rank >= 10 else rank
    if rank == 1:
        return rules.low_ace_value if low_ace else 15
    if rank >= 10:
        return 10
    return 5 if rules.values == ValueScheme.FIVE_TEN_FIFTEEN else rank


def reading_values(reading: Reading, rules: RuleSet) -> list[int]:
    """The value of each card of a reading, where it lies (the ace's value depends on it)."""
    if reading.kind == RUN:
        return [
            card_value(c, rules, low_ace=(reading.low + i == 1))
            for i, c in enumerate(reading.cards)
        ]
    return [card_value(c, rules) for c in reading.cards]


def reading_value(reading: Reading, rules: RuleSet) -> int:
    return sum(reading_values(reading, rules))


def max_position(rules: RuleSet) -> int:
    return 14 if rules.aces_high else 13


# ---------------------------------------------------------------------------------------
# readings


def _set_readings(naturals: Sequence[Card], jokers: int, rules: RuleSet) -> list[Reading]:
    n = len(naturals) + jokers
    if n > 4:
        return []
    if naturals:
        rank = naturals[0].rank
        suits = {c.suit for c in naturals}
        if len(suits) != len(naturals) or any(c.rank != rank for c in naturals):
            return []
        ranks: Iterable[int] = (rank,)
    else:
        ranks = range(1, 14)
    return [Reading(SET, tuple(naturals) + (joker_as(r, ""),) * jokers, rank=r) for r in ranks]


def _run_readings(naturals: Sequence[Card], jokers: int, rules: RuleSet) -> list[Reading]:
    n = len(naturals) + jokers
    top = max_position(rules)
    if n > 13 or n > top:
        return []
    if not naturals:
        return [
            Reading(RUN, tuple(joker_as(1 if p == 14 else p, suit) for p in range(low, low + n)),
                    suit=suit, low=low)
            for suit in SUITS for low in range(1, top - n + 2)
        ]
    suit = naturals[0].suit
    ranks = []
    for c in naturals:
        if c.suit != suit:
            return []
        ranks.append(c.rank)
    if len(set(ranks)) != len(ranks):
        return []
    ace_choices = (1, 14) if (1 in ranks and rules.aces_high) else (1,)
    readings = []
    for ace in ace_choices:
        positions = {ace if r == 1 else r: c for r, c in zip(ranks, naturals, strict=True)}
        lo, hi = min(positions), max(positions)
        if hi - lo + 1 > n:
            continue
        # the card at every position from lo - jokers to hi + jokers: natural or joker
        span = {p: positions.get(p) or joker_as(1 if p == 14 else p, suit)
                for p in range(max(1, hi - n + 1), min(lo, top - n + 1) + n)}
        for low in range(max(1, hi - n + 1), min(lo, top - n + 1) + 1):
            readings.append(Reading(RUN, tuple([span[p] for p in range(low, low + n)]), 0,
                                    suit, low))
    return readings


def _natural_readings(naturals: Sequence[Card], rules: RuleSet) -> list[Reading]:
    """``_set_readings`` + ``_run_readings`` for three or more naturals and no joker:
    with nothing to fill a gap, a run's cards must span exactly its length."""
    n = len(naturals)
    rank, suit = naturals[0].rank, naturals[0].suit
    same_rank = same_suit = True
    for c in naturals:
        if c.rank != rank:
            same_rank = False
        if c.suit != suit:
            same_suit = False
    if same_rank:
        if n > 4 or len({c.suit for c in naturals}) != n:
            return []
        return [Reading(SET, tuple(naturals), rank=rank)]
    if not same_suit or n > 13:  # (13 cards fit in any family's positions)
        return []
    ordered = sorted(naturals, key=_rank_of)
    ranks = [c.rank for c in ordered]
    for i in range(1, n):
        if ranks[i] == ranks[i - 1]:
            return []
    readings = []
    if ranks[-1] - ranks[0] + 1 == n:  # the ace, if any, low
        readings.append(Reading(RUN, tuple(ordered), suit=suit, low=ranks[0]))
    if ranks[0] == 1 and rules.aces_high and 15 - ranks[1] == n:  # the ace high
        readings.append(Reading(RUN, (*ordered[1:], ordered[0]), suit=suit, low=ranks[1]))
    return readings


_rank_of = attrgetter("rank")
_rank_and_suit = attrgetter("rank", "suit")


def _split(cards: Iterable[Card]) -> tuple[list[Card], list[Card]]:
    naturals: list[Card] = []
    jokers: list[Card] = []
    for c in cards:
        (jokers if c.rank == JOKER_RANK else naturals).append(c)
    return naturals, jokers


def _matches_declarations(reading: Reading, declared: Sequence[Card]) -> Reading | None:
    """The reading with the declared jokers in place, or None if they cannot stand there."""
    if not declared:
        return reading
    if reading.kind == SET:
        taken = {c.suit for c in reading.cards if not c.is_joker}
        for d in declared:
            if d.rank != reading.rank:
                return None
            if d.suit:
                if d.suit in taken:
                    return None
                taken.add(d.suit)
        undeclared = sum(1 for c in reading.cards if c.is_joker) - len(declared)
        if undeclared > 4 - len(taken):
            return None
        naturals = tuple(c for c in reading.cards if not c.is_joker)
        jokers = tuple(joker_as(d.rank, d.suit) for d in declared)
        rest = (joker_as(reading.rank, ""),) * undeclared
        return Reading(SET, naturals + jokers + rest, rank=reading.rank)
    wanted = [(d.rank, d.suit) for d in declared]
    for c in reading.cards:
        if c.rank == JOKER_RANK and c.stands_for is not None:
            key = (c.stands_for.rank, c.stands_for.suit)
            if key in wanted:
                wanted.remove(key)
    return None if wanted else reading


def meld_readings(cards: Iterable[Card], rules: RuleSet) -> list[Reading]:
    """Every legal reading of ``cards`` that agrees with the jokers' declarations.

    Card order does not matter; sets come first, then runs from the lowest.
    """
    naturals, jokers = _split(cards)
    return _readings(naturals, jokers, rules)


def _readings(naturals: list[Card], jokers: list[Card], rules: RuleSet) -> list[Reading]:
    n = len(naturals) + len(jokers)
    if n < 3 or len(naturals) < rules.min_natural_cards:
        return []
    if not jokers:
        return _natural_readings(naturals, rules)
    if not rules.jokers:
        return []
    readings = _set_readings(naturals, len(jokers), rules) + _run_readings(
        naturals, len(jokers), rules
    )
    declared = [j.stands_for for j in jokers if j.stands_for is not None]
    if not declared:
        return readings
    out = []
    for r in readings:
        m = _matches_declarations(r, declared)
        if m is not None:
            out.append(m)
    return out


def is_meld(cards: Iterable[Card], rules: RuleSet) -> bool:
    return bool(meld_readings(cards, rules))


# ---------------------------------------------------------------------------------------
# verdicts


def _diagnose(cards: Sequence[Card], rules: RuleSet) -> Verdict:
    """Why a bunch of cards with no reading is not a meld."""
    naturals, jokers = _split(cards)
    text = tuple(cards)
    ranks = {c.rank for c in naturals}
    suits = [c.suit for c in naturals]
    if len(ranks) == 1:
        if len(set(suits)) != len(suits):
            return Verdict(False, "meld.set-same-suit", ("meld.set",), {"cards": text})
        if jokers and len(naturals) <= 4:
            return Verdict(False, "meld.no-card-for-joker", ("meld.joker", "meld.set"))
        return Verdict(False, "meld.set-too-big", ("meld.set",))
    if len(cards) > 13 and len(set(suits)) <= 1:
        # one suit, more cards than ranks: a run would need an ace at both ends
        return Verdict(False, "meld.run-too-long", ("meld.run", "meld.ace"),
                       {"count": len(cards)})
    if len(set(suits)) == 1 and rules.aces_high and _two_aces_else_distinct(naturals):
        # two decks: an ace low and an ace high in one run would be an ace at both ends
        return Verdict(False, "meld.wrap-around", ("meld.ace",))
    if len(set(suits)) == 1 and len(ranks) == len(naturals):
        if 1 in ranks and 13 in ranks and not rules.aces_high:
            high = {14 if r == 1 else r for r in ranks}
            if max(high) - min(high) + 1 <= len(cards):  # Q-K-A: the ace above the king
                return Verdict(False, "meld.ace-low-only", ("meld.ace",))
            if _cyclic_span(ranks) <= len(cards):  # K-A-2: round the corner
                return Verdict(False, "meld.wrap-around-basic", ("meld.ace",))
            return Verdict(False, "meld.not-a-meld", ("meld.set", "meld.run"), {"cards": text})
        if 1 in ranks and (2 in ranks or 3 in ranks) and (13 in ranks or 12 in ranks):
            return Verdict(False, "meld.wrap-around", ("meld.ace",))
        if jokers and rules.aces_high and _cyclic_span(ranks) <= len(cards):
            # the jokers would fill a run only by going round the corner (K-A-2)
            return Verdict(False, "meld.wrap-around", ("meld.ace", "meld.joker"))
        if jokers:
            return Verdict(False, "meld.no-card-for-joker", ("meld.joker", "meld.run"))
    return Verdict(False, "meld.not-a-meld", ("meld.set", "meld.run"), {"cards": text})


def _cyclic_span(ranks: set[int]) -> int:
    """How many ranks the shortest arc holding ``ranks`` covers, were K-A-2 allowed."""
    ordered = sorted(ranks)
    widest_gap = max((b - a for a, b in zip(ordered, ordered[1:], strict=False)), default=0)
    widest_gap = max(widest_gap, ordered[0] + 13 - ordered[-1])
    return 13 - widest_gap + 1


def _two_aces_else_distinct(naturals: Sequence[Card]) -> bool:
    counts = Counter(c.rank for c in naturals)
    return counts[1] == 2 and all(n == 1 for rank, n in counts.items() if rank != 1)


_MELD_RULES = {
    (has_set, has_run, has_joker): ("meld.set",) * has_set + ("meld.run",) * has_run
    + ("meld.joker",) * has_joker
    for has_set in (False, True) for has_run in (False, True) for has_joker in (False, True)
}


def check_meld(cards: Sequence[Card], rules: RuleSet) -> Verdict:
    """Is this a legal meld? ``detail["readings"]`` lists the readings that fit.

    A meld whose jokers are not declared and could be read several ways is legal
    but ``meld.ambiguous``: the player must say which reading they mean.  Where every
    reading is a run, the cards are taken as a loose bunch: the joker's place, or the
    player's word, decides (``meld.joker-place``); a run that only differs in the
    ace's end (a 13-card run) is ``meld.ace-either-end``.
    """
    naturals, jokers = _split(cards)
    if jokers and not rules.jokers:
        return Verdict(False, "meld.no-jokers", ("cards.deck",))
    if len(cards) < 3:
        return Verdict(False, "meld.too-short", ("meld.set", "meld.run"), {"count": len(cards)})
    if len(naturals) < rules.min_natural_cards:
        return Verdict(False, "meld.min-natural", ("meld.min-natural",),
                       {"min": rules.min_natural_cards})
    readings = _readings(naturals, jokers, rules)
    if not readings:
        if any(j.stands_for is not None for j in jokers):
            undeclared = [c.natural for c in cards]
            options = meld_readings(undeclared, rules)
            if options:
                return Verdict(False, "meld.bad-declaration", ("meld.joker",),
                               {"readings": tuple(options)},
                               {"readings": tuple(options)})
        return _diagnose(cards, rules)
    # sets come before runs among the readings
    rule_ids = _MELD_RULES[readings[0].kind == SET, readings[-1].kind == RUN, bool(jokers)]
    if len(readings) > 1:
        params: dict[str, Param] = {"count": len(readings), "readings": tuple(readings)}
        detail = {"readings": tuple(readings)}
        if all(r.kind == RUN and r.suit == readings[0].suit for r in readings):
            if len({_declarations(r) for r in readings}) == 1:
                # the same cards, the jokers standing for the same ones: only the ace's end
                # differs (a 13-card run, A-2-…-K or 2-…-K-A)
                return Verdict(True, "meld.ace-either-end",
                               ("meld.run", "meld.ace", "values.low-ace"),
                               {**params, "low": rules.low_ace_value}, detail)
            return Verdict(True, "meld.joker-place", ("meld.run", "meld.joker"), params,
                           detail)
        return Verdict(True, "meld.ambiguous", rule_ids, params, detail)
    reading = readings[0]
    return Verdict(True, f"meld.ok-{reading.kind}", rule_ids, {"cards": tuple(reading.cards)},
                   {"readings": (reading,)})


def _declarations(reading: Reading) -> tuple[str, ...]:
    """The cards a reading's jokers stand for, in a canonical order."""
    return tuple(sorted(str(c.stands_for) for c in reading.cards if c.is_joker))


def check_copies(cards: Iterable[Card], rules: RuleSet, players: int) -> Verdict | None:
    """A :class:`Verdict` naming the first card used more often than the decks hold
    (``cards.copies``), or None when every card can exist."""
    decks = rules.decks(players)
    # c.natural, counted by (rank, suit): tuples hash much faster than cards
    counts = Counter(map(_rank_and_suit, cards))
    for (rank, suit), count in counts.items():
        if rank == JOKER_RANK:
            if not rules.jokers:
                return Verdict(False, "meld.no-jokers", ("cards.deck",), {"card": JOKER})
            limit = rules.jokers_in_play(players)
        else:
            limit = decks
        if count > limit:
            card = JOKER if rank == JOKER_RANK else natural_card(rank, suit)
            return Verdict(False, "cards.too-many-copies", ("cards.copies",),
                           {"card": card, "count": count, "decks": decks, "max": limit})
    return None
