"""Arranging cards into melds: the searches behind draws, calls, going out and
"Group my cards".

* :func:`ways_to_meld` — how one card can be melded at once with a pool of
  other cards (a hand, the cards just taken from the pile, or the pile alone):
  in a new meld, or laid off on a table meld, possibly after laying off the
  pool's cards that bridge the gap (a chain).
* :func:`meld_all` — can every card be melded, given the table?  (going out)
* :func:`best_arrangement` — the split of a bunch of cards into legal melds with
  the highest melded value.

:func:`ways_to_meld` rests on :func:`melds_containing`, every new meld a card can be
part of with cards from a pool.  The other two are one exact search, a sweep over the
run positions (see "every card (going out) and the best arrangement" below), whose
work is bounded: past ``SEARCH_LIMIT`` steps the going-out check raises
:class:`SearchTooLarge` (steps, not time: a verdict is the same however busy the machine
is); past ``ARRANGE_CPU_S`` of its thread's CPU time the best arrangement answers with
the best split found so far, not proven best (``Arrangement.exact``): that bound holds
on a busy machine, and only says how hard the search looked, never which split is legal.
"""

from __future__ import annotations

import heapq
import math
import time
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from typing import Any

from .cards import JOKER, SUITS, Card, joker_as, natural_card
from .melds import RUN, SET, Reading, RunEnd, card_at, card_value, max_position, reading_value
from .rules import RuleSet
from .table import LayoffTarget, Table, TableMeld, fits, place

Pool = Counter[Card]


@dataclass(frozen=True, slots=True)
class Way:
    """One way to meld a card: ``kind`` is ``meld`` (a new meld, ``cards`` its
    reading) or ``layoff`` (``cards`` laid off on ``meld_id`` in this order, the
    card concerned last)."""

    kind: str
    cards: tuple[Card, ...]
    meld_id: str | None = None

    @property
    def jokers(self) -> int:
        return sum(1 for c in self.cards if c.is_joker)

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "cards": [str(c) for c in self.cards]}
        if self.meld_id is not None:
            out["meld"] = self.meld_id
        return out

    def __str__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        return f"{cards} on {self.meld_id}" if self.kind == "layoff" else cards


def pool_of(cards: Iterable[Card]) -> Pool:
    return Counter(c.natural for c in cards)


def _positions(card: Card, rules: RuleSet) -> tuple[int, ...]:
    if card.rank == 1:
        return (1, 14) if rules.aces_high else (1,)
    return (card.rank,)


# ---------------------------------------------------------------------------------------
# new melds


def melds_containing(card: Card, pool: Pool, rules: RuleSet, max_size: int = 13, *,
                     fewest_jokers: bool = False) -> Iterator[tuple[Reading, Pool]]:
    """Every new meld made of ``card`` and cards from ``pool`` (up to ``max_size``
    cards), with the pool cards it uses.  Jokers stand in for missing cards and,
    where that may free a natural for another meld, for cards the pool has too.

    ``fewest_jokers`` (for a natural ``card``) leaves out the melds that only differ
    from one already yielded by more jokers: a joker in place of a natural the pool
    has, or a set's extra joker."""
    jokers = pool[JOKER] if rules.jokers else 0
    if card.is_joker:
        yield from _joker_melds(pool, jokers, rules, max_size)
        return
    yield from _sets_with(card, pool, jokers, max_size, fewest_jokers)
    yield from _runs_with(card, pool, jokers, rules, max_size, fewest_jokers)


def _sets_with(card: Card, pool: Pool, jokers: int, max_size: int,
               fewest_jokers: bool = False) -> Iterator[tuple[Reading, Pool]]:
    others = []
    for s in SUITS:
        if s != card.suit:
            other = natural_card(card.rank, s)
            if pool.get(other, 0):
                others.append(other)
    limit = min(4, max_size)
    for mask in range(1 << len(others)):
        chosen = [others[i] for i in range(len(others)) if mask >> i & 1]
        fewest = max(0, 3 - 1 - len(chosen))
        for k in range(fewest, (fewest if fewest_jokers else jokers) + 1):
            if k > jokers:
                break
            size = 1 + len(chosen) + k
            if size > limit:
                break
            used = Counter(chosen)
            if k:
                used[JOKER] = k
            cards = (card, *chosen) + (joker_as(card.rank, ""),) * k
            yield Reading(SET, cards, rank=card.rank), used


def _runs_with(card: Card, pool: Pool, jokers: int, rules: RuleSet, max_size: int,
               fewest_jokers: bool = False) -> Iterator[tuple[Reading, Pool]]:
    top = max_position(rules)
    suit = card.suit
    # has[p]: does the pool hold the natural at position p (pool[card_at(p, suit)] > 0)?
    present = {c.rank for c, n in pool.items() if n > 0 and c.suit == suit and c.rank}
    has = [False] * 16
    for p in range(1, top + 1):
        has[p] = (1 if p == 14 else p) in present
    longest = min(max_size, 13)
    for pos in _positions(card, rules):
        left_gaps = 0
        for low in range(pos, max(1, pos - longest + 1) - 1, -1):
            if low < pos and not has[low]:
                left_gaps += 1
                if left_gaps > jokers:
                    break
            gaps = left_gaps
            for high in range(pos, min(top, low + longest - 1) + 1):
                if high > pos and not has[high]:
                    gaps += 1
                    if gaps > jokers:
                        break
                if high - low >= 2:
                    spare = 0 if fewest_jokers else jokers - gaps
                    yield from _fill(card, pos, low, high, suit, has, spare)


def _fill(card: Card, pos: int, low: int, high: int, suit: str, has: list[bool], spare: int
          ) -> Iterator[tuple[Reading, Pool]]:
    """The run ``low..high`` around ``card``: naturals where the pool has them,
    jokers elsewhere, and with up to ``spare`` more jokers in place of naturals."""
    optional = [p for p in range(low, high + 1) if p != pos and has[p]]
    for k in range(0, min(spare, len(optional)) + 1):
        for swapped in combinations(optional, k):
            cards = []
            used: Pool = Counter()
            for p in range(low, high + 1):
                if p == pos:
                    cards.append(card)
                elif has[p] and p not in swapped:
                    natural = card_at(p, suit)
                    cards.append(natural)
                    used[natural] += 1
                else:
                    cards.append(JOKER.declared(card_at(p, suit)))
                    used[JOKER] += 1
            yield Reading(RUN, tuple(cards), suit=suit, low=low), used


def _joker_melds(pool: Pool, jokers: int, rules: RuleSet, max_size: int
                 ) -> Iterator[tuple[Reading, Pool]]:
    """New melds of the joker concerned with pool cards (``jokers``: the pool's own)."""
    seen: set[Reading] = set()
    for natural in sorted(c for c in pool if not c.is_joker and pool[c] > 0):
        rest = pool.copy()
        rest[natural] -= 1
        rest[JOKER] = jokers + 1  # the joker concerned joins the pool for the search
        for reading, used in melds_containing(natural, rest, rules, max_size):
            if used[JOKER] == 0 or reading in seen:
                continue
            seen.add(reading)
            used = used.copy()
            used[JOKER] -= 1
            used[natural] += 1
            yield reading, +used
    if rules.min_natural_cards == 0 and jokers >= 2:
        for size in range(3, min(jokers + 1, max_size, 4) + 1):
            for rank in range(1, 14):
                yield (Reading(SET, (JOKER.declared(Card(rank, "")),) * size, rank=rank),
                       Counter({JOKER: size - 1}))


# ---------------------------------------------------------------------------------------
# lay-offs, with a bridge of pool cards


def layoff_chains(card: Card, pool: Pool, meld: TableMeld, rules: RuleSet
                  ) -> Iterator[tuple[list[LayoffTarget], Pool]]:
    """Every way to lay ``card`` off on ``meld``, first laying off pool cards that
    fill the gap between the meld's end and the card (each step a legal lay-off)."""
    for target in fits(meld, card, rules):
        yield [target], Counter()
    if card.is_joker or meld.kind != RUN or card.suit != meld.reading.suit:
        return
    reading = meld.reading
    jokers = pool[JOKER] if rules.jokers else 0
    top = max_position(rules)
    for pos in _positions(card, rules):
        if pos < reading.low - 1:
            gap = list(range(reading.low - 1, pos, -1))  # laid off downwards
            end = RunEnd.LOW
            span = reading.high - pos + 1
        elif pos > reading.high + 1 and pos <= top:
            gap = list(range(reading.high + 1, pos))
            end = RunEnd.HIGH
            span = pos - reading.low + 1
        else:
            continue
        if span > 13:
            continue
        steps: list[LayoffTarget] = []
        used: Pool = Counter()
        for p in gap:
            natural = card_at(p, reading.suit)
            if pool[natural] > used[natural]:
                steps.append(LayoffTarget(meld.id, natural, end))
                used[natural] += 1
            elif used[JOKER] < jokers:
                steps.append(LayoffTarget(meld.id, JOKER.declared(natural), end))
                used[JOKER] += 1
            else:
                break
        else:
            steps.append(LayoffTarget(meld.id, card, end))
            yield steps, used


def lay_off_chain(table: Table, steps: Sequence[LayoffTarget], laid_by: str | None) -> Table:
    meld = table.get(steps[0].meld_id)
    for step in steps:
        meld = place(meld, step, laid_by)
    return table.with_meld(meld)


# ---------------------------------------------------------------------------------------
# one card, at once


def ways_to_meld(card: Card, pool: Pool, table: Table, rules: RuleSet, *,
                 new_meld_only: bool = False, direct_only: bool = False,
                 limit: int = 24) -> list[Way]:
    """The ways to meld ``card`` now with cards from ``pool`` (which must not hold
    ``card`` itself): the smallest new melds first, then lay-offs, fewest jokers first.

    ``new_meld_only`` keeps new melds of three or more (``draw.deep-new-meld``);
    ``direct_only`` keeps lay-offs of the card alone (``rummy.mode`` = top).
    """
    layoffs = [] if new_meld_only else _layoff_ways(card, pool, table, rules, direct_only)
    melds: list[Way] = []
    if not direct_only:
        # the new melds by how many jokers they hold, fewest first (each group in the
        # order melds_containing lists them): once ``limit`` ways with that many jokers
        # or fewer are known, none with more can come first, so they are never made
        # (a big pool and four jokers make thousands of them)
        most = (pool[JOKER] if rules.jokers else 0) + (1 if card.is_joker else 0)
        seen: set[tuple[Card, ...]] = set()
        keys = sorted((w.jokers, len(w.cards)) for w in layoffs)
        done = False
        for jokers in range(1 if card.is_joker else 0, most + 1):
            for size in range(3, 14):
                ahead = bisect_left(keys, (jokers, size))  # lay-offs sorting before these
                if len(melds) + ahead >= limit:
                    done = True
                    break
                for reading in _readings_with_jokers(card, pool, rules, jokers, size):
                    if reading.cards in seen:
                        continue
                    seen.add(reading.cards)
                    melds.append(Way("meld", reading.cards))
            if done:
                break
    ways = melds + layoffs
    ways.sort(key=_way_key)
    return ways[:limit]


def _readings_with_jokers(card: Card, pool: Pool, rules: RuleSet, count: int, size: int
                          ) -> Iterator[Reading]:
    """The readings of ``melds_containing(card, pool, rules)`` of ``size`` cards that
    hold exactly ``count`` jokers, in the order it lists them (without making the
    others)."""
    jokers = pool[JOKER] if rules.jokers else 0
    if card.is_joker:
        seen: set[Reading] = set()
        if count >= 1:
            for natural in sorted(c for c in pool if not c.is_joker and pool[c] > 0):
                rest = pool.copy()
                rest[natural] -= 1
                rest[JOKER] = jokers + 1
                for reading in _readings_with_jokers(natural, rest, rules, count, size):
                    if reading not in seen:
                        seen.add(reading)
                        yield reading
        if (rules.min_natural_cards == 0 and jokers >= 2 and count == size
                and 3 <= count <= min(jokers + 1, 4)):
            for rank in range(1, 14):
                yield Reading(SET, (JOKER.declared(Card(rank, "")),) * count, rank=rank)
        return
    if count > jokers:
        return
    # sets, as _sets_with lists them
    others = [natural_card(card.rank, t) for t in SUITS
              if t != card.suit and pool.get(natural_card(card.rank, t), 0)]
    for mask in range(1 << len(others)):
        chosen = [others[i] for i in range(len(others)) if mask >> i & 1]
        if count >= max(0, 2 - len(chosen)) and 1 + len(chosen) + count == size <= 4:
            yield Reading(SET, (card, *chosen) + (joker_as(card.rank, ""),) * count,
                          rank=card.rank)
    # runs, as _runs_with and _fill list them
    top = max_position(rules)
    suit = card.suit
    present = {c.rank for c, n in pool.items() if n > 0 and c.suit == suit and c.rank}
    has = [False] * 16
    for p in range(1, top + 1):
        has[p] = (1 if p == 14 else p) in present
    for pos in _positions(card, rules):
        left_gaps = 0
        for low in range(pos, max(1, pos - 12) - 1, -1):
            if low < pos and not has[low]:
                left_gaps += 1
                if left_gaps > jokers:
                    break
            gaps = left_gaps
            for high in range(pos, min(top, low + 12) + 1):
                if high > pos and not has[high]:
                    gaps += 1
                    if gaps > jokers:
                        break
                if high - low + 1 != size or gaps > count:
                    continue
                optional = [q for q in range(low, high + 1) if q != pos and has[q]]
                swaps = count - gaps
                if swaps > min(jokers - gaps, len(optional)):
                    continue
                for swapped in combinations(optional, swaps):
                    cards = []
                    for q in range(low, high + 1):
                        if q == pos:
                            cards.append(card)
                        elif has[q] and q not in swapped:
                            cards.append(card_at(q, suit))
                        else:
                            cards.append(JOKER.declared(card_at(q, suit)))
                    yield Reading(RUN, tuple(cards), suit=suit, low=low)


def _way_key(way: Way) -> tuple[int, int, bool]:
    """The order of ``ways_to_meld``: fewest jokers, fewest cards, new melds first."""
    return way.jokers, len(way.cards), way.kind != "meld"


def _layoff_ways(card: Card, pool: Pool, table: Table, rules: RuleSet, direct_only: bool
                 ) -> list[Way]:
    ways = []
    for meld in table:
        if direct_only:
            for target in fits(meld, card, rules):
                ways.append(Way("layoff", (target.card,), meld.id))
            continue
        for steps, _used in layoff_chains(card, pool, meld, rules):
            ways.append(Way("layoff", tuple(s.card for s in steps), meld.id))
    return ways


def can_meld(card: Card, pool: Pool, table: Table, rules: RuleSet, **options: bool) -> bool:
    return bool(ways_to_meld(card, pool, table, rules, limit=1, **options))


# ---------------------------------------------------------------------------------------
# every card (going out) and the best arrangement: one exact search with a bound
#
# Both questions are answered by one sweep over the run positions, 1 (the ace low) to
# 14 (the ace high), each position suit by suit, the way a player reads a hand sorted
# by rank.  What the sweep remembers between positions is small and canonical:
#
# * per suit, the runs still open, each as its length so far (for a run that can
#   never grow long enough for its room to run short, only 1, 2 or "3 or more") and
#   whether its last card was a joker standing in a gap; identical runs are one
#   multiset, so two copies of a card and the order of the runs never count twice;
# * the jokers used so far (a count: jokers are interchangeable) and how many of the
#   rest the melds made so far could still take at an end (a joker at the end of a run
#   or the fourth card of a set is placed last, wherever there is room);
# * the aces kept back to lie high (after the king) and the naturals of the current
#   rank waiting to be grouped into sets.
#
# Every arrangement of the cards is one path through these states, and two paths that
# reach the same state have the same futures, so only the better one is kept (the
# memo of a dynamic programme).  The search is exact: it only drops a state that
# cannot lead to the best arrangement (branch and bound against an arrangement already
# found, moves that another move always beats, and states another state of the same
# step beats whatever comes next).  Its size grows with the number of positions and the
# open runs, not with the number of ways to split the cards, but a dense hand of two
# decks with four jokers can still have hundreds of thousands of states.
#
# The best arrangement prunes by a bound worked out per suit (``suit_bound``): each
# suit's cards on their own, in their runs or sent to the sets of their rank for their
# share of a set's jokers and meld, the jokers shared out among the suits.  It is seldom
# more than a meld or a few points above the best, so a floor near it keeps few states;
# a narrow pass led by it finds the best arrangement of most hands outright, and it
# decides the aces last (at the high end), so that aces waiting for their place do not
# keep states apart.  ``SEARCH_LIMIT`` and ``ARRANGE_CPU_S`` bound the work, and
# ``benchmarks/meld_search.py`` hunts for the hands that come closest to them.


class SearchTooLarge(ValueError):
    """The cards would take the meld search more work than one question may have."""

    def __init__(self, work: int, limit: int) -> None:
        super().__init__(f"too many ways to arrange these cards: the search stopped after "
                         f"{work} steps (the limit is {limit})")
        self.work = work
        self.limit = limit


#: Search steps (states and their moves) one going-out question may take (``meld_all``:
#: all its searches together): on the 2-core development machine about 0.5 µs each even
#: when it is busy, so a question stops within about 0.06 s of one core.  Most hands
#: need far fewer; some dense hands of two decks with four jokers reach it, and are
#: refused with :class:`SearchTooLarge` (benchmarks/README.md, "Meld search").
SEARCH_LIMIT = 120_000
#: The CPU time of its own thread one best arrangement may take (``best_arrangement``),
#: in seconds.  A step of the search costs 0.5-5 µs of CPU as the host is quiet or busy,
#: so a bound in steps let a question take 0.5 s of CPU on a busy host; the thread's CPU
#: time (``time.thread_time``) is what the question costs, and other processes' load
#: does not add to it.  A hand past it is still answered: with the best arrangement
#: found by then, not proven best (``Arrangement.exact``), and the most any split could
#: meld (benchmarks/README.md, "Meld search").
ARRANGE_CPU_S = 0.25
#: the steps between two looks at the clock (a look costs about a microsecond; this
#: many steps take 0.1-2 ms, so the bound is overshot by about that much, and by a
#: garbage collection of the interpreter that comes then)
_CHECK_EVERY = 200


def _cpu_time() -> float:
    """The CPU time this thread has taken, in seconds (the tests may put a clock of
    their own in its place)."""
    return time.thread_time()


#: the width of the quick narrow pass whose arrangement gives the exact search a floor
_BEAM = 48
#: the widths of the narrowest passes: first of all with a clock (an answer before the
#: time runs out), else when the limit came before any arrangement
_LAST_BEAMS = (2, 6, 16)
#: the share of the limit :meth:`_Sweep.suit_bound` may take (it is computed first):
#: past it, it bounds the rest more loosely, and the work left is the search's
_BOUND_SHARE = 0.4
#: layers bigger than this are cleared of dominated states
_PARETO_FROM = 32
#: a bound for a state that cannot go on
_NONE = -(1 << 62)
#: what one state of the going-out search costs, in the steps SEARCH_LIMIT counts (a
#: state there costs about that many moves of the sweep, in time)
_DIVE_STATE = 6
#: more jokers than any hand holds: what a state that cannot be completed needs
_IMPOSSIBLE = 99

# An arrangement's score, one integer: the melded value first, then the stranded points
# (as the value the melded cards would have cost in the hand), then fewer melds.
_VALUE = 1 << 24
_KEPT = 1 << 12
_MELD = 1

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
# A state of the sweep packed in one int: the open runs of each suit (an interned
# multiset, 14 bits each), the jokers used, the room for jokers at the ends of melds, the
# aces kept back for the high end and the naturals waiting for the rank's sets.
_ID = (1 << 14) - 1
_RUNS_AT = (0, 14, 28, 42)
_RUNS = (1 << 56) - 1
_USED = 56
_ROOM = 60
_KEPT_AT = 64
_POOL_AT = 80
#: a state without its jokers used and room (states apart only there may dominate)
_SANS_JOKERS = ~(15 << _USED | 15 << _ROOM)
#: the sum of the four 4-bit counts packed in an int (aces kept back, naturals for sets)
_NIBBLES = [(x & 15) + (x >> 4 & 15) + (x >> 8 & 15) + (x >> 12) for x in range(1 << 16)]
# the order cards are listed in (clubs, diamonds, hearts, spades, then jokers)
_LISTING = {s: i for i, s in enumerate(sorted(SUITS))}


def _set_shares() -> list[list[tuple[tuple[int, int], tuple[int, int], tuple[int, int]]]]:
    """What a suit sending 0, 1 or 2 naturals to the sets of a rank is charged at least
    (:meth:`_Sweep.suit_bound`): (half jokers, twelfths of a meld), by how many suits
    hold the rank at all (``m1``) and twice (``m2``).  The sets of a rank need
    ``3 - a`` jokers for ``a`` naturals of different suits, or, with ``b`` of the
    suits sending both copies, two sets and ``6 - a - b``; and one meld per four
    naturals at most (per ``m1`` or ``m2``: a set has one card of each suit).  The
    charges are the largest shares that never add up to more than that, whichever
    suits send."""
    def jokers(a: int, b: int) -> int:
        return max(0, 3 - a) if b == 0 else max(0, 6 - a - b)

    table = []
    for m1 in range(5):
        row = []
        for m2 in range(5):
            if not m1 or m2 > m1:
                row.append(((0, 0), (0, 0), (0, 0)))
                continue
            first = min(Fraction(2 * jokers(a, 0), a) for a in range(1, m1 + 1))
            first = Fraction(math.floor(first))
            second = Fraction(0)
            if m2:
                second = max(Fraction(0), min(
                    (2 * jokers(a, b) - a * first) / b
                    for b in range(1, m2 + 1) for a in range(b, m1 + 1)))
            one = (int(first), 12 // m1)
            two = (int(first) + math.floor(second), 12 // m1 + (12 // m2 if m2 else 0))
            row.append(((0, 0), one, two))
        table.append(row)
    return table


_SET_SHARES = _set_shares()


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a plan: a new meld (``meld_id`` None) or a chain of lay-offs."""

    cards: tuple[Card, ...]
    meld_id: str | None = None

    def __str__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        return f"{cards} on {self.meld_id}" if self.meld_id else cards


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Cards split into melds; ``stranded`` could not be melded.

    ``exact``: no split is better (the search finished).  Else this is the best split
    the search found within ``ARRANGE_CPU_S`` of CPU time, and ``ceiling`` the most melded
    value any split of these cards could have (a bound, seldom reached)."""

    melds: tuple[Reading, ...]
    stranded: tuple[Card, ...]
    value: int
    exact: bool = True
    ceiling: int | None = None

    @property
    def complete(self) -> bool:
        return not self.stranded


# A frozen dataclass sets each field through object.__setattr__ in __init__; the plain
# hands (most questions, and the cheapest) make theirs by the fields' slots directly.
_NEW_ARRANGEMENT = object.__new__
_SET_MELDS = vars(Arrangement)["melds"].__set__
_SET_STRANDED = vars(Arrangement)["stranded"].__set__
_SET_VALUE = vars(Arrangement)["value"].__set__
_SET_EXACT = vars(Arrangement)["exact"].__set__
_SET_CEILING = vars(Arrangement)["ceiling"].__set__


def _exact(melds: tuple[Reading, ...], stranded: tuple[Card, ...], value: int
           ) -> Arrangement:
    """``Arrangement(melds, stranded, value)``, the best (made faster)."""
    found: Arrangement = _NEW_ARRANGEMENT(Arrangement)
    _SET_MELDS(found, melds)
    _SET_STRANDED(found, stranded)
    _SET_VALUE(found, value)
    _SET_EXACT(found, True)
    _SET_CEILING(found, None)
    return found


def _listing_key(card: Card) -> tuple[bool, str, int]:
    return card.is_joker, card.suit, card.rank


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted((c.natural for c in cards), key=_listing_key))


# A run descriptor is one int: bit 0 "its last card is a joker in a gap", bits 1-4 its
# length so far, bit 5 "untracked" (its length is only kept up to 3), bits 6-11 the
# table meld it extends (index + 1; 0 for a new meld), bits 12-15 the first position it
# may take a card at (a table run's cards lie in between).
_PENDING = 1
_UNTRACKED = 1 << 5


def _run_desc(length: int, pending: int, untracked: int) -> int:
    return pending | length << 1 | untracked * _UNTRACKED


def _block_desc(table_index: int, length: int, ready: int) -> int:
    return length << 1 | (table_index + 1) << 6 | ready << 12


class _TableRun:
    __slots__ = ("index", "meld", "suit", "low", "high", "length")

    def __init__(self, index: int, meld: TableMeld) -> None:
        self.index = index
        self.meld = meld
        self.suit = _SUIT_INDEX[meld.reading.suit]
        self.low = meld.reading.low
        self.length = len(meld.reading.cards)
        self.high = self.low + self.length - 1


class _Built:
    """What the replay of the best path made: new melds (with the room each has left
    for a joker at an end), lay-offs by table meld, stranded cards."""

    def __init__(self) -> None:
        self.melds: list[list[Any]] = []  # [reading, room]
        self.layoffs: list[list[Any]] = []  # [meld index, cards nearest first, end]
        self.stranded: list[Card] = []


class _OpenRun:
    """A run being built while the best path is replayed."""

    __slots__ = ("desc", "seq", "low", "cards", "table", "chain")

    def __init__(self, desc: int, seq: int, low: int, cards: list[Card],
                 table: _TableRun | None = None) -> None:
        self.desc = desc
        self.seq = seq
        self.low = low
        self.cards = cards  # hand cards from ``low`` on (after the table run, for one)
        self.table = table
        self.chain: list[Card] = []  # a table run's cards laid off below it, lowest first


class _Sweep:
    """One search: the cards as counts, the table (for going out), the rules' values."""

    def __init__(self, rules: RuleSet, counts: list[list[int]], jokers: int, *,
                 strict: bool, table: Table | None = None, budget: int | None = None,
                 limit: int | None = None, clock: float | None = None) -> None:
        self.rules = rules
        self.top = top = max_position(rules)
        self.counts = counts  # counts[suit index][rank], rank 1 the aces
        self.jokers = jokers
        self.strict = strict
        self.budget = budget
        # ``clock``: the thread's CPU time at which the search stops (see ``_over``);
        # without it the search stops after ``limit`` steps
        self.clock = clock
        self.deadline = clock if clock is not None else 0.0
        self.limit = ((SEARCH_LIMIT if limit is None else limit) if clock is None
                      else _CHECK_EVERY)
        self.work = 0
        # past this much work, or this CPU time, :meth:`suit_bound` bounds more loosely
        self.loose_at = 1 << 62
        self.loose_after = float("inf")
        # scores: when every card must be melded (going out), only the new melds count,
        # then the cards laid off (the plan with the fewest new melds, then the fewest
        # lay-offs); else the value, the points kept out of the hand, the melds
        self.meld = 256 if strict else _MELD
        self.laid = 1 if strict else 0
        # a new run's meld is counted when it starts (so that the bound counts it), but
        # when going out only once it closes: a run may still be laid off on a table run
        # it reaches, and a limit on new melds counts the melds made for good
        self.meld_at_start = 0 if strict else self.meld
        self.meld_at_close = self.meld if strict else 0
        if strict:
            self.run_score = [0] * 16
            self.set_score = [0] * 16
            self.joker_score = 0
        else:
            self.run_score = [0] * 16
            self.set_score = [0] * 16
            for position in range(1, top + 1):
                card = natural_card(1 if position == 14 else position, "S")
                kept = card_value(card, rules)
                melded = card_value(card, rules, low_ace=position == 1)
                self.run_score[position] = _VALUE * melded + _KEPT * kept
            for rank in range(1, 14):
                value = card_value(natural_card(rank, "S"), rules)
                self.set_score[rank] = (_VALUE + _KEPT) * value
            self.joker_score = (_VALUE + _KEPT) * 15
        # the most a natural at each position could still add (an ace: low, high or set)
        self.best_at = [max(self.run_score[p], self.set_score[p]) for p in range(16)]
        if top == 14:
            self.best_at[1] = max(self.best_at[1], self.run_score[14])
        self.potential = sum(counts[s][p] * self.best_at[p] for s in range(4)
                             for p in range(1, 14))
        # the table: runs as blocks that hand cards can extend, 3-sets as one free place
        self.table_melds: list[TableMeld] = list(table) if table is not None else []
        self.table_runs: dict[tuple[int, int], list[_TableRun]] = {}
        self.run_by_index: dict[int, _TableRun] = {}
        self.slots: dict[int, list[tuple[int, int]]] = {}  # rank -> [(index, suit mask)]
        suits_with_table_runs = set()
        for index, meld in enumerate(self.table_melds):
            reading = meld.reading
            if reading.kind == RUN:
                run = _TableRun(index, meld)
                self.table_runs.setdefault((run.low, run.suit), []).append(run)
                self.run_by_index[index] = run
                suits_with_table_runs.add(run.suit)
            elif len(reading.cards) < 4:
                taken = {c.suit if not c.is_joker else (c.stands_for.suit if c.stands_for
                                                          else "") for c in reading.cards}
                mask = sum(1 << i for i, s in enumerate(SUITS) if s not in taken)
                self.slots.setdefault(reading.rank, []).append((index, mask))
        self.table_suit = [s in suits_with_table_runs for s in range(4)]
        # runs whose exact length matters: those that could reach 14 - jokers cards
        # (their room for jokers, and the 13-card limit), and every run of a suit that
        # has a table run (a lay-off may not make a run longer than 13 cards)
        longest = max(3, 14 - jokers)
        self.tracked = [[False] * 16 for _ in SUITS]
        for s in range(4):
            present = [False] * 16
            for position in range(1, top + 1):
                present[position] = counts[s][1 if position == 14 else position] > 0
            for start in range(1, top + 1):
                if s in suits_with_table_runs:
                    self.tracked[s][start] = True
                    continue
                end = start + longest - 1
                if end > top:
                    continue
                missing = sum(1 for w in range(start, end + 1) if not present[w])
                self.tracked[s][start] = missing <= jokers
        # how many of the next one and next two positions hold a natural (or a table
        # run begins there), per cell: a short run needs them, or jokers
        self.ahead = [[(0, 0, 0)] * 16 for _ in SUITS]
        for s in range(4):
            for position in range(1, top + 1):
                here = [0, 0]
                for i, q in enumerate((position + 1, position + 2)):
                    if q <= top and (counts[s][1 if q == 14 else q]
                                     or (q, s) in self.table_runs):
                        here[i] = 1
                if (position + 1, s) in self.table_runs or (position + 2, s) in self.table_runs:
                    here = [3, 3]  # a run reaching a table run is laid off on it
                self.ahead[s][position] = (0, here[0], here[0] + here[1])
        # a joker in a gap must be followed by a natural of its suit (or a table run)
        self.next_card = [[99] * 16 for _ in SUITS]
        # jokers an ace kept for the high end will need at least (at the queen and king)
        self.high_need = [[0] * 16 for _ in SUITS]
        for s in range(4):
            starts = {run.low for (_low, suit), runs in self.table_runs.items() if suit == s
                      for run in runs}
            covered = [0] * 16
            for (_low, suit), runs in self.table_runs.items():
                if suit == s:
                    for run in runs:
                        for position in range(run.low, run.high + 1):
                            covered[position] += 1
            following = 99
            for position in range(top, 0, -1):
                self.next_card[s][position] = following
                if counts[s][1 if position == 14 else position] or position in starts:
                    following = position
            for keep in range(16):
                self.high_need[s][keep] = sum(max(0, keep - counts[s][q] - covered[q])
                                              for q in (12, 13))
        # suits where a run could reach the king, for an ace kept back to join it
        self.reach_top = [top == 14 and any(
            counts[s][q] or any(run.low <= q <= run.high for runs in self.table_runs.values()
                                for run in runs if run.suit == s)
            for q in range(max(2, 13 - jokers), 14)) for s in range(4)]
        self.high_alone = (self.run_score[14] + 2 * self.joker_score - self.meld
                           if top == 14 else 0)
        # the best arrangement decides the aces last, at the high end (position 14):
        # until then they are only counted, which keeps states apart far less often
        self.late = not strict and top == 14
        self.g_memo: dict[tuple[int, int, int, int], tuple[int, ...]] | None = None
        self.roomy_memo: dict[int, bool] = {}
        self.others_memo: dict[tuple[int, int], tuple[int, tuple[int, ...] | None]] = {}
        self.run_ids: dict[tuple[int, ...], int] = {(): 0}
        self.run_tuples: list[tuple[int, ...]] = [()]
        self.cell_memo: dict[tuple[int, int, int, int, int], list[Any]] = {}
        self.pool_memo: dict[tuple[int, int, int], list[Any]] = {}
        self.sets_memo: dict[tuple[tuple[int, ...], int], list[Any]] = {}
        self.need_memo: dict[tuple[int, int, int, int], int] = {}
        # the runs that need something (see ``need``), by runs id
        self.short_runs: dict[int, int] = {}
        self.pool_need_memo: dict[tuple[int, int], int] = {}

    # ---- the moves at one cell (position, suit) ------------------------------------------

    def _intern(self, runs: tuple[int, ...]) -> int:
        found = self.run_ids.get(runs)
        if found is None:
            found = len(self.run_tuples)
            if found > _ID:
                raise SearchTooLarge(self.work, self.limit)
            self.run_ids[runs] = found
            self.run_tuples.append(runs)
        return found

    def cell_options(self, p: int, s: int, runs_id: int, n: int, left: int
                     ) -> list[Any]:
        """Every way the open runs of suit ``s`` and the ``n`` naturals at position ``p``
        can go on: (runs after, naturals to the rank's sets, aces kept for the high end,
        jokers used, score, room, what each run did, runs started)."""
        key = (p, s, runs_id, n, left)
        found = self.cell_memo.get(key)
        if found is not None:
            return found
        runs = self.run_tuples[runs_id]
        top = self.top
        joker = self.joker_score
        blocks = self.table_runs.get((p, s), ())
        choices: list[tuple[tuple[Any, ...], ...]] = []
        for d in runs:
            block = (d >> 6) & 63
            if block and d >> 12 > p:  # inside its table run
                choices.append((("W", 0, 0, d, 0, 0, -1, 0),))
                continue
            pending = d & _PENDING
            length = (d >> 1) & 15
            untracked = d & _UNTRACKED
            acts: list[tuple[Any, ...]] = []
            grown = length + 1
            if untracked and grown > 3:
                grown = 3
            can_grow = p <= top and grown <= 13
            if not pending:  # it ended at p - 1
                if block:
                    acts.append(("C", 0, 0, -1, 0, 13 - length, -1, 0))
                else:
                    deficit = 3 - length if length < 3 else 0
                    room = 13 if untracked else 13 - max(length, 3)
                    # closing it here is never better than extending it with a natural
                    # of this cell (2: while another run of the suit starts here: one run
                    # does as well with a meld less, when its length is not counted and
                    # so its room always takes every joker; 1: while a natural is
                    # stranded here: the run could take it and close one card later,
                    # its room still enough for every joker)
                    merge = 0
                    if can_grow and untracked:
                        merge = 2
                    elif can_grow and not self.table_suit[s] and (
                            13 - max(grown, 3) >= self.jokers):
                        merge = 1
                    acts.append(("C", 0, deficit, -1, deficit * joker - self.meld_at_close,
                                 room, -1, merge))
            if can_grow:
                base = d & ~(_PENDING | 15 << 1)
                laid = self.laid if block else 0
                acts.append(("N", 1, 0, base | grown << 1, self.run_score[p] - laid, 0, -1,
                             0))
                if self.next_card[s][p] - p <= left:
                    acts.append(("J", 0, 1, base | grown << 1 | _PENDING, joker - laid, 0,
                                 -1, 0))
            if p <= top and not block:
                for run in blocks:
                    if not untracked and length + run.length <= 13:
                        # the run is laid off below the table run: no new meld after all
                        acts.append(("B", 0, 0, _block_desc(run.index, length + run.length,
                                                            run.high + 1),
                                     self.meld_at_start - length * self.laid, 0, run.index,
                                     0))
            choices.append(tuple(acts))
        best: dict[tuple[Any, ...], Any] = {}
        ace_row = p == 1 and top == 14
        late = self.late
        ahead = self.ahead[s][p]
        new_desc = _run_desc(1, 0, 0 if self.tracked[s][p] else 1)
        strict = self.strict
        if not strict:  # the best arrangement counts the work of every new cell too
            self._charge(math.prod(len(c) for c in choices))
        for combo in product(*choices):
            naturals = jokers = score = room = 0
            absorbed = []
            kept = []
            mergeable = 0
            for _code, nat, jok, after, gain, space, t, merge in combo:
                naturals += nat
                jokers += jok
                score += gain
                room += space
                if t >= 0:
                    absorbed.append(t)
                if after >= 0:
                    kept.append(after)
                if merge > mergeable:
                    mergeable = merge
            if naturals > n or jokers > left or len(set(absorbed)) != len(absorbed):
                continue
            # a run shorter than three must still get there: from naturals in the next
            # positions or jokers
            spare_jokers = left - jokers
            if any(not d >> 6 and (d >> 1) & 15 < 3
                   and 3 - ((d >> 1) & 15) > ahead[3 - ((d >> 1) & 15)] + spare_jokers
                   for d in kept):
                continue
            fresh = tuple(run.index for run in blocks if run.index not in absorbed)
            for run in blocks:
                if run.index not in absorbed:
                    kept.append(_block_desc(run.index, run.length, run.high + 1))
            rest = n - naturals
            moves = tuple((c[0], c[3], c[6]) for c in combo)
            for started in range(0 if mergeable == 2 else rest, -1, -1):
                if started and ahead[2] + spare_jokers < 2:
                    continue
                after_runs = self._intern(tuple(sorted(kept + [new_desc] * started)))
                gained = score + started * (self.run_score[p] - self.meld_at_start)
                spare = rest - started
                # an ace kept back lies high: it joins a run that reaches the king (kept
                # in the state), or, in a suit where no run can, it makes JK JK A at
                # once; for the best arrangement every ace that starts no run at the
                # low end is kept back, and decided at the high end (run, set or
                # stranded)
                keeps = ((spare,) if late else range(spare + 1)) if ace_row else (0,)
                for keep in keeps:
                    high = 0 if late or self.reach_top[s] else keep
                    used = jokers + 2 * high
                    if used > left or (keep and not high and not late
                                       and self.high_need[s][keep] > left - jokers):
                        break
                    value = gained + high * self.high_alone
                    space = room + 10 * high
                    held = keep - high
                    for to_sets in range(spare - keep, -1, -1):
                        stranded = spare - keep - to_sets
                        if stranded and (strict or mergeable or (p == 14 and not late)):
                            break
                        if p == 14 and to_sets and not late:
                            continue
                        option = (after_runs, to_sets, held, used, value, space, moves,
                                  started, fresh, stranded, high)
                        slot = (after_runs, to_sets, held, used, space)
                        old = best.get(slot)
                        if old is None or value > old[4]:
                            best[slot] = option
        found = list(best.values())
        self.cell_memo[key] = found
        return found

    # ---- the sets of one rank ------------------------------------------------------------

    def set_partitions(self, counts: tuple[int, ...], left: int) -> list[Any]:
        """Every way to group naturals of one rank (``counts`` by suit) into new sets,
        each of distinct suits filled to three with jokers (a natural that would be
        stranded is left at its cell): (naturals melded, jokers, sets, room, the sets)."""
        key = (counts, left)
        found = self.sets_memo.get(key)
        if found is not None:
            return found
        out: list[Any] = []
        first = next((i for i in range(4) if counts[i]), -1)
        if first < 0:
            out.append((0, 0, 0, 0, ()))
        else:
            less = list(counts)
            less[first] -= 1
            higher = [i for i in range(first + 1, 4) if counts[i]]
            for size in range(len(higher) + 1):
                for others in combinations(higher, size):
                    naturals = 1 + size
                    if naturals > 4:
                        continue
                    deficit = max(0, 3 - naturals)
                    if deficit > left:
                        continue
                    rest = list(less)
                    for i in others:
                        rest[i] -= 1
                    suits = (first, *others)
                    room = 4 - naturals - deficit
                    for melded, jokers, sets, more, groups in self.set_partitions(
                            tuple(rest), left - deficit):
                        out.append((melded + naturals, jokers + deficit, sets + 1,
                                    room + more, ((suits, deficit), *groups)))
        self.sets_memo[key] = out
        return out

    def pool_options(self, rank: int, pool: int, left: int) -> list[Any]:
        """The ways the naturals of ``rank`` that joined no run are melded in sets or
        laid off on the table's sets (or stranded): (jokers, score, room, detail)."""
        key = (rank, pool, left)
        found = self.pool_memo.get(key)
        if found is not None:
            return found
        counts = [pool >> (4 * i) & 15 for i in range(4)]
        slots = self.slots.get(rank, [])
        best: dict[tuple[int, int], Any] = {}
        value = self.set_score[rank]
        joker = self.joker_score

        def fill(i: int, counts: list[int], fills: tuple[tuple[int, int], ...]) -> None:
            if i < len(slots):
                index, mask = slots[i]
                fill(i + 1, counts, fills)
                for s in range(4):
                    if counts[s] and mask >> s & 1:
                        counts[s] -= 1
                        fill(i + 1, counts, (*fills, (index, s)))
                        counts[s] += 1
                return
            free = len(slots) - len(fills)
            for melded, jokers, sets, room, groups in self.set_partitions(tuple(counts),
                                                                          left):
                score = ((melded + len(fills)) * value + jokers * joker - sets * self.meld
                         - len(fills) * self.laid)
                space = min(room + free, left - jokers)
                slot = (jokers, space)
                old = best.get(slot)
                if old is None or score > old[1]:
                    best[slot] = (jokers, score, space, (fills, groups))

        fill(0, counts, ())
        found = list(best.values())
        self.pool_memo[key] = found
        return found

    # ---- what a state still needs -------------------------------------------------------

    def need(self, s: int, p: int, runs_id: int, kept: int) -> int:
        """The fewest jokers suit ``s`` still needs from position ``p`` on, with the open
        runs ``runs_id`` and ``kept`` aces kept back for the high end: each short run must
        still reach three cards, each joker in a gap be followed by a natural, each ace
        kept back find its place (``_IMPOSSIBLE``: none can).  The suits' needs add up: a
        state that needs more jokers than are left leads nowhere."""
        if not kept and runs_id:
            # only the runs that need something: a long run closes for free and a table
            # run needs no card (both could only take cards the others might want; an
            # ace kept back may still need them)
            short = self.short_runs.get(runs_id)
            if short is None:
                short = self._intern(tuple(d for d in self.run_tuples[runs_id]
                                           if not (d >> 6) & 63
                                           and (d & _PENDING or (d >> 1) & 15 < 3)))
                self.short_runs[runs_id] = short
            runs_id = short
        key = (s, p, runs_id, kept)
        found = self.need_memo.get(key)
        if found is not None:
            return found
        if p > self.top:
            found = 0
            for d in self.run_tuples[runs_id]:
                if d & _PENDING:
                    found = _IMPOSSIBLE
                    break
                length = (d >> 1) & 15
                if not (d >> 6) & 63 and length < 3:
                    found += 3 - length
        elif not runs_id and not kept:
            found = 0  # every card may be stranded, or go to a set (whose jokers are not
            # counted here)
        else:
            n = kept if p == 14 else self.counts[s][p]
            if not runs_id and not n and (p, s) not in self.table_runs:
                found = self.need(s, p + 1, 0, kept)
            else:
                found = _IMPOSSIBLE
                for option in self.cell_options(p, s, runs_id, n, self.jokers):
                    used = option[3]
                    if used >= found or (option[7] and p < 14 and (not kept or p < 12)):
                        # a new run needs no fewer jokers than a set (but an ace kept back
                        # for the high end may need one: from the queen on, no earlier
                        # card of it could save a joker)
                        continue
                    later = self.need(s, p + 1, option[0], 0 if p == 14 else kept + option[2])
                    if used + later < found:
                        found = used + later
        self.need_memo[key] = found
        return found

    def pool_need(self, rank: int, pool: int) -> int:
        """The fewest jokers the naturals waiting for the sets of ``rank`` need."""
        key = (rank, pool)
        found = self.pool_need_memo.get(key)
        if found is None:
            found = min((o[0] for o in self.pool_options(rank, pool, self.jokers)),
                        default=_IMPOSSIBLE)
            self.pool_need_memo[key] = found
        return found

    # ---- the end of the sweep ------------------------------------------------------------

    def finish(self, key: int) -> tuple[int, int, int, int] | None:
        """Close every open run and place the jokers left: (score, jokers placed at an
        end, jokers in a meld of their own, jokers stranded), or None if impossible."""
        used, room, kept = key >> _USED & 15, key >> _ROOM & 15, key >> _KEPT_AT & 0xFFFF
        if kept:
            return None
        score = 0
        deficits = 0
        for s in range(4):
            for d in self.run_tuples[key >> _RUNS_AT[s] & _ID]:
                if d & _PENDING:
                    return None
                length = (d >> 1) & 15
                if (d >> 6) & 63:
                    room += 13 - length
                    continue
                if length < 3:
                    deficits += 3 - length
                room += 13 if d & _UNTRACKED else 13 - max(length, 3)
                score -= self.meld_at_close
        left = self.jokers - used - deficits
        if left < 0:
            return None
        score += deficits * self.joker_score
        room = min(room, left)
        if room >= left:
            return score + left * self.joker_score, left, 0, 0
        if self.rules.min_natural_cards == 0 and left >= 3:
            own = left - room if left - room >= 3 else 3
            melds = -(-own // 13)
            return score + left * self.joker_score - melds * self.meld, left - own, own, 0
        if self.strict:
            return None
        return score + room * self.joker_score, room, 0, left - room

    # ---- the sweep -----------------------------------------------------------------------

    def _high_need(self, kept: int) -> int:
        need = self.high_need
        return (need[0][kept & 15] + need[1][kept >> 4 & 15] + need[2][kept >> 8 & 15]
                + need[3][kept >> 12 & 15])

    def _charge(self, amount: int) -> None:
        self.work += amount
        if self.work > self.limit:
            self._over()

    def _over(self) -> int:
        """The work is past ``self.limit``: without a clock, the search stops
        (:class:`SearchTooLarge`); with one, it stops once the thread's CPU time is past
        the deadline, and else goes on to its next look at the clock (the new limit)."""
        if self.clock is None:
            raise SearchTooLarge(self.work, self.limit)
        now = _cpu_time()
        if now > self.deadline:
            raise SearchTooLarge(self.work, self.limit)
        if now > self.loose_after:
            self.loose_at = self.work
        self.limit = self.work + _CHECK_EVERY
        return self.limit

    def run(self, floor: int | None = None, beam: int = 0
            ) -> tuple[int, list[Any], tuple[int, int, int, int]] | None:
        """The best path: (score, the move taken at each step, the end), or None.

        Branch and bound: a state whose score plus everything it could still gain is
        below ``floor`` (the score of an arrangement already known) cannot lead to the
        best one and is dropped.  What a state could still gain is bounded twice: cheaply
        (every card not yet placed melded at its best, every joker left melded), then,
        once :meth:`upper_bound` has been computed, by :meth:`suit_bound` (each suit's
        cards on their own, sharing the jokers left).  ``beam`` keeps only that many of
        the most promising states at each step: a quick pass that finds a good
        arrangement, not always the best.

        A state is one int (see ``_pack``): the open runs of each suit (an interned
        multiset), the jokers used, the room, the aces kept back and the naturals
        waiting for the sets of the rank.  (The best arrangement only: going out is
        :meth:`dive`.)"""
        top = self.top
        counts = self.counts
        joker_total = self.jokers
        joker = self.joker_score
        kept_value = max(self.run_score[14], self.set_score[1])
        best_at = self.best_at
        remaining = self.potential
        limit = self.limit
        late = self.late
        bounded = self.g_memo is not None
        suit_bound = self.suit_bound
        g_memo = self.g_memo
        cell_memo = self.cell_memo
        layer: dict[int, tuple[int, Any, Any]] = {0: (0, None, None)}
        marks: dict[int, int] = {0: 0}  # each state's bound, to pick the beam's states
        history: list[tuple[tuple[str, int, int], dict[int, Any]]] = []
        lowest = -(1 << 62) if floor is None else floor
        need = self.need
        pool_need = self.pool_need
        for p in range(1, top + 1):
            rank = 1 if p == 14 else p
            # the naturals of a rank left over from its runs wait for its sets (with the
            # aces decided last, at the high end, theirs wait for them there)
            sets_here = p == 14 or (p <= 13 and not (late and p == 1))
            set_value = self.set_score[rank] if sets_here else 0
            # the naturals waiting for the sets of this rank: by suit when the table has a
            # set of this rank (whose missing suits matter), else only how many of each
            # suit, sorted (the suits of a new set are interchangeable)
            by_suit = rank in self.slots
            for s in range(4):
                shift = 4 * s
                at = _RUNS_AT[s]
                fixed = -1 if p == 14 else counts[s][p]
                if fixed > 0:
                    remaining -= fixed * best_at[p]
                no_block = (p, s) not in self.table_runs
                if fixed == 0 and no_block and not any(key >> at & _ID for key in layer):
                    continue
                # the naturals waiting for the sets of the rank are all known at its last
                # suit (a natural of a later suit can lower what they need)
                last_here = sets_here and all(counts[t][rank] == 0 for t in range(s + 1, 4))
                self._charge(len(layer))  # a step over every state
                after: dict[int, tuple[int, Any, Any]] = {}
                marked: dict[int, int] = {}
                for key, entry in layer.items():
                    runs = key >> at & _ID
                    used = key >> _USED & 15
                    kept_before = key >> _KEPT_AT & 0xFFFF
                    pool_before = key >> _POOL_AT
                    score = entry[0]
                    n = kept_before >> shift & 15 if fixed < 0 else fixed
                    if not runs and not n and no_block:
                        old = after.get(key)
                        if old is None or score > old[0]:
                            after[key] = (score, key, None)
                            if beam:
                                marked[key] = marks[key]
                        continue
                    left = joker_total - used
                    pool_value = _NIBBLES[pool_before] * set_value
                    # what the state could still reach, before this cell's move
                    base = (score + remaining + _NIBBLES[kept_before] * kept_value
                            + pool_value + left * joker)
                    if fixed < 0:
                        base -= n * kept_value
                    options = cell_memo.get((p, s, runs, n, joker_total))
                    if options is None:
                        options = self.cell_options(p, s, runs, n, joker_total)
                    self.work += len(options)
                    if self.work > limit:
                        limit = self._over()
                    rest = key & _RUNS & ~(_ID << at)
                    room_before = key >> _ROOM & 15
                    # the jokers this cell's move may take: what the other suits still
                    # need is kept for them
                    needed, others = self._others(key, p, s)
                    spare = left - needed
                    if spare < 0:
                        continue
                    kept_here = 0 if fixed < 0 else kept_before >> shift & 15
                    shared: dict[tuple[int, int], int] = {}  # bounds of this state's moves
                    for option in options:
                        new_runs, to_sets, keep, jokers, gain, space = option[:6]
                        if jokers > spare:
                            continue
                        bound = (base + gain - jokers * joker + keep * kept_value
                                 + to_sets * set_value)
                        if bound < lowest:
                            continue
                        kept_after = kept_here + keep
                        if others is not None:
                            # each suit on its own from here, the jokers left shared out
                            mine = g_memo.get((s, p + 1, new_runs, kept_after))  # type: ignore[union-attr]
                            if mine is None:
                                mine = suit_bound(s, p + 1, new_runs, kept_after)
                            half = 2 * (left - jokers)
                            pair = (id(mine), half)
                            most = shared.get(pair)
                            if most is None:
                                most = _NONE
                                for i in range(half + 1):
                                    a = mine[i]
                                    if a != _NONE:
                                        b = others[half - i]
                                        if b != _NONE and a + b > most:
                                            most = a + b
                                shared[pair] = most
                            if most == _NONE:
                                continue  # no way on: a run can never be completed
                            bound = (score + gain + pool_value + to_sets * set_value
                                     + (left - jokers) * joker + most // 12)
                            if bound < lowest:
                                continue
                        total = score + gain
                        if to_sets:
                            pool = (pool_before + (to_sets << shift) if by_suit
                                    else _pool_with(pool_before, to_sets))
                        else:
                            pool = pool_before
                        if jokers + need(s, p + 1, new_runs, kept_after) + (
                                pool_need(rank, pool) if pool and last_here else 0) > spare:
                            continue
                        now_used = used + jokers
                        if fixed < 0:
                            kept = kept_before & ~(15 << shift)
                        elif keep:
                            kept = kept_before + (keep << shift)
                        else:
                            kept = kept_before
                        runs_after = rest | new_runs << at
                        room = room_before + space
                        free = joker_total - now_used
                        if room >= free or self._roomy(runs_after):
                            room = free
                        new_key = (runs_after | now_used << _USED | room << _ROOM
                                   | kept << _KEPT_AT | pool << _POOL_AT)
                        old = after.get(new_key)
                        if old is None or total > old[0]:
                            after[new_key] = (total, key, option)
                            if beam:
                                marked[new_key] = bound
                if len(after) > _PARETO_FROM:
                    self._charge(len(after))
                    self._dominated(after)
                if beam and len(after) > beam:
                    after = self._narrow(after, marked, beam)
                marks = marked
                history.append((("cell", p, s), after))
                layer = after
                if not layer:
                    return None
            if sets_here and (rank in self.slots or any(key >> _POOL_AT for key in layer)):
                self._charge(len(layer))
                after = {}
                marked = {}
                for key, entry in layer.items():
                    pool = key >> _POOL_AT
                    used = key >> _USED & 15
                    kept = key >> _KEPT_AT & 0xFFFF
                    if not pool and rank not in self.slots:
                        old = after.get(key)
                        if old is None or entry[0] > old[0]:
                            after[key] = (entry[0], key, None)
                            if beam:
                                marked[key] = marks[key]
                        continue
                    options = self.pool_options(rank, pool, joker_total - used)
                    self.work += len(options)
                    if self.work > limit:
                        limit = self._over()
                    rest = key & _RUNS
                    spare = joker_total - used
                    for t in range(4):
                        spare -= need(t, p + 1, key >> _RUNS_AT[t] & _ID, kept >> 4 * t & 15)
                    whole: tuple[int, ...] | None = None
                    for option in options:
                        jokers, gain, space, _detail = option
                        if jokers > spare:
                            continue
                        total = entry[0] + gain
                        now_used = used + jokers
                        free = joker_total - now_used
                        bound = total + remaining + _NIBBLES[kept] * kept_value + free * joker
                        if bound < lowest:
                            continue
                        if bounded:
                            if whole is None:
                                whole = self._all_bound(key, p)
                            most = whole[2 * free]
                            if most == _NONE:
                                continue
                            bound = total + free * joker + most // 12
                            if bound < lowest:
                                continue
                        room = (key >> _ROOM & 15) + space
                        if room >= free or self._roomy(rest):
                            room = free
                        new_key = rest | now_used << _USED | room << _ROOM | kept << _KEPT_AT
                        old = after.get(new_key)
                        if old is None or total > old[0]:
                            after[new_key] = (total, key, option)
                            if beam:
                                marked[new_key] = bound
                if len(after) > _PARETO_FROM:
                    self._charge(len(after))
                    self._dominated(after)
                if beam and len(after) > beam:
                    after = self._narrow(after, marked, beam)
                marks = marked
                history.append((("sets", p, -1), after))
                layer = after
                if not layer:
                    return None
        best: tuple[int, int, tuple[int, int, int, int]] | None = None
        for key, entry in layer.items():
            end = self.finish(key)
            if end is None:
                continue
            total = entry[0] + end[0]
            if best is None or total > best[0]:
                best = (total, key, end)
        if best is None:
            return None
        path = []
        key = best[1]
        for step, states in reversed(history):
            _score, previous, option = states[key]
            path.append((step, option))
            key = previous
        path.reverse()
        return best[0], path, best[2]

    def dive(self) -> tuple[int, list[Any], tuple[int, int, int, int]] | None:
        """Going out: a depth-first search for any plan (the likeliest moves first),
        remembering the states that led nowhere, so each is tried once; a plan found is
        returned at once."""
        top = self.top
        counts = self.counts
        joker_total = self.jokers
        budget = self.budget
        meld = self.meld
        steps: list[tuple[str, int, int]] = []
        for p in range(1, top + 1):
            steps += [("cell", p, s) for s in range(4)]
            if p <= 13:
                steps.append(("sets", p, -1))
        failed: dict[tuple[int, int], int] = {}
        path: list[tuple[tuple[str, int, int], Any]] = []
        ordered: dict[int, list[Any]] = {}

        def likeliest(options: list[Any]) -> list[Any]:
            found = ordered.get(id(options))
            if found is None:
                runs = self.run_tuples
                found = sorted(options, key=lambda o: (
                    sum(1 for d in runs[o[0]] if not d >> 6 and (d >> 1) & 15 < 3), o[3],
                    -o[4]))
                ordered[id(options)] = found
            return found

        def go(i: int, key: int, score: int) -> tuple[int, tuple[int, int, int, int]] | None:
            if i == len(steps):
                end = self.finish(key)
                if end is None:
                    return None
                if budget is not None and -(score + end[0]) // meld > budget:
                    return None
                return score + end[0], end
            count = -score // meld
            seen = failed.get((i, key))
            if seen is not None and count >= seen:
                return None
            self._charge(_DIVE_STATE)
            kind, p, s = steps[i]
            used = key >> _USED & 15
            kept = key >> _KEPT_AT & 0xFFFF
            moves: list[tuple[int, int, Any]] = []
            if kind == "cell":
                shift = 4 * s
                at = _RUNS_AT[s]
                fixed = -1 if p == 14 else counts[s][p]
                runs = key >> at & _ID
                n = kept >> shift & 15 if fixed < 0 else fixed
                if not runs and not n and (p, s) not in self.table_runs:
                    moves.append((key, 0, None))
                else:
                    by_suit = p in self.slots
                    options = likeliest(self.cell_options(p, s, runs, n, joker_total - used))
                    self._charge(len(options))
                    rest = key & _RUNS & ~(_ID << at)
                    pool_before = key >> _POOL_AT
                    for option in options:
                        new_runs, to_sets, keep, jokers, gain = option[:5]
                        now_used = used + jokers
                        if fixed < 0:
                            now_kept = kept & ~(15 << shift)
                        elif keep:
                            now_kept = kept + (keep << shift)
                            if self._high_need(now_kept) > joker_total - now_used:
                                continue
                        else:
                            now_kept = kept
                        pool = pool_before
                        if to_sets:
                            pool = (pool + (to_sets << shift) if by_suit
                                    else _pool_with(pool, to_sets))
                        room = min((key >> _ROOM & 15) + option[5], joker_total - now_used)
                        moves.append((rest | new_runs << at | now_used << _USED
                                      | room << _ROOM | now_kept << _KEPT_AT
                                      | pool << _POOL_AT, gain, option))
            else:
                pool = key >> _POOL_AT
                if not pool and p not in self.slots:
                    moves.append((key, 0, None))
                else:
                    options = self.pool_options(p, pool, joker_total - used)
                    self._charge(len(options))
                    for option in options:
                        jokers, gain, space, _detail = option
                        now_used = used + jokers
                        room = min((key >> _ROOM & 15) + space, joker_total - now_used)
                        moves.append((key & _RUNS | now_used << _USED | room << _ROOM
                                      | kept << _KEPT_AT, gain, option))
            for new_key, gain, option in moves:
                total = score + gain
                if budget is not None and -total // meld > budget:
                    continue
                path.append((steps[i], option))
                found = go(i + 1, new_key, total)
                if found is not None:
                    return found
                path.pop()
            failed[i, key] = count if seen is None else min(seen, count)
            return None

        found = go(0, 0, 0)
        if found is None:
            return None
        return found[0], list(path), found[1]

    # ---- what each suit could still gain -------------------------------------------------

    def _prepare_bounds(self) -> None:
        """What a natural sent to the sets of a rank costs at least, per suit: the sets of
        a rank are shared by its suits, so each natural is charged its share of the
        jokers and of the melds a set of that rank needs at least, whatever the other
        suits send (``_SET_SHARES``)."""
        self.g_memo = {}
        self.conv_memo: dict[tuple[int, int], tuple[int, ...]] = {}
        self.all_memo: dict[tuple[int, int], tuple[int, ...]] = {}
        self.others_memo = {}
        self.shares = [_SET_SHARES[sum(1 for t in range(4) if self.counts[t][rank] >= 1)]
                       [sum(1 for t in range(4) if self.counts[t][rank] >= 2)]
                       for rank in range(14)]
        # the bound may take a share of the work (or of the CPU time) left
        if self.clock is None:
            self.loose_at = self.work + int(self.limit * _BOUND_SHARE)
        else:
            now = _cpu_time()
            self.loose_after = now + (self.deadline - now) * _BOUND_SHARE
        # what the naturals of each suit from each position on could add at best
        self.kept_value = max(self.run_score[14], self.set_score[1])
        self.left_at = [[sum(self.counts[s][q] * self.best_at[q] for q in range(p, 14))
                         for p in range(16)] for s in range(4)]


    def suit_bound(self, s: int, p: int, runs_id: int, kept: int) -> tuple[int, ...]:
        """The most suit ``s`` could still add from position ``p`` on (with the open runs
        ``runs_id`` and ``kept`` aces kept back), with 0, 1, 2... half jokers to spend,
        in twelfths of the score: its naturals in its own runs (each new run a meld),
        or sent to the sets of their rank for their share of a set's jokers and meld, or
        stranded; the jokers' own value is left out (see :meth:`run`).  ``_NONE``: no
        way on with that many jokers.  Each suit on its own, so the suits' bounds add up,
        sharing the jokers: an upper bound on what the state can reach."""
        key = (s, p, runs_id, kept)
        memo = self.g_memo
        assert memo is not None
        found = memo.get(key)
        if found is not None:
            return found
        halves = 2 * self.jokers
        if p > self.top:
            need = 0
            for d in self.run_tuples[runs_id]:
                if d & _PENDING:
                    need = _IMPOSSIBLE
                    break
                length = (d >> 1) & 15
                if not (d >> 6) & 63 and length < 3:
                    need += 2 * (3 - length)
            found = tuple(0 if not kept and k >= need else _NONE for k in range(halves + 1))
        else:
            n = kept if p == 14 else self.counts[s][p]
            if not runs_id and not n and (p, s) not in self.table_runs:
                found = self.suit_bound(s, p + 1, 0, kept)
            elif self.work > self.loose_at:
                # past its share of the work: every natural left at its best and every
                # meld free (looser, still a bound); the rest of the work is the search's
                found = (12 * (self.left_at[s][p] + kept * self.kept_value),) * (halves + 1)
            else:
                out = [_NONE] * (halves + 1)
                joker = self.joker_score
                rank = 1 if p == 14 else p
                set_value = 12 * self.set_score[rank]
                shares = self.shares[rank]
                options = self.cell_options(p, s, runs_id, n, self.jokers)
                self._charge(len(options) + 1)
                for option in options:
                    new_runs, to_sets, keep, jokers, gain = option[:5]
                    share_jokers, share_melds = shares[to_sets] if to_sets < 3 else (0, 0)
                    spend = 2 * jokers + share_jokers
                    if spend > halves:
                        continue
                    value = 12 * (gain - jokers * joker) + to_sets * set_value - share_melds
                    later = self.suit_bound(s, p + 1, new_runs, 0 if p == 14 else kept + keep)
                    for k in range(spend, halves + 1):
                        more = later[k - spend]
                        if more > _NONE and more + value > out[k]:
                            out[k] = more + value
                for k in range(1, halves + 1):
                    if out[k - 1] > out[k]:
                        out[k] = out[k - 1]
                found = tuple(out)
        memo[key] = found
        return found

    def _convolve(self, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        """The most two suits could add together with 0, 1, 2... half jokers."""
        key = (id(a), id(b))
        found = self.conv_memo.get(key)
        if found is not None:
            return found
        halves = len(a) - 1
        if a[0] == a[halves] or b[0] == b[halves]:
            # one of them needs no joker: the other's, raised by it
            flat, other = (a, b) if a[0] == a[halves] else (b, a)
            base = flat[0]
            found = (other if base == 0 else tuple([_NONE] * (halves + 1)) if base == _NONE
                     else tuple([_NONE if y == _NONE else y + base for y in other]))
            self.conv_memo[key] = found
            return found
        out = [_NONE] * (halves + 1)
        for i in range(halves + 1):
            x = a[i]
            if x == _NONE:
                continue
            for j in range(halves + 1 - i):
                y = b[j]
                if y > _NONE and x + y > out[i + j]:
                    out[i + j] = x + y
        for k in range(1, halves + 1):
            if out[k - 1] > out[k]:
                out[k] = out[k - 1]
        found = tuple(out)
        self.conv_memo[key] = found
        return found

    def _others(self, key: int, p: int, s: int) -> tuple[int, tuple[int, ...] | None]:
        """The jokers every suit but ``s`` still needs (:meth:`need`) at cell (p, s) (the
        suits before ``s`` have passed position ``p``), and, once the bound is ready,
        their :meth:`suit_bound` together."""
        shift = 4 * s
        mask = (_RUNS & ~(_ID << _RUNS_AT[s])) | ((0xFFFF & ~(15 << shift)) << _KEPT_AT)
        memo_key = (4 * p + s, key & mask)
        found = self.others_memo.get(memo_key)
        if found is None:
            kept = key >> _KEPT_AT & 0xFFFF
            needed = 0
            bound: tuple[int, ...] | None = None
            for t in range(4):
                if t == s:
                    continue
                at = p + 1 if t < s else p
                runs = key >> _RUNS_AT[t] & _ID
                needed += self.need(t, at, runs, kept >> 4 * t & 15)
                if self.g_memo is not None:
                    mine = self.suit_bound(t, at, runs, kept >> 4 * t & 15)
                    bound = mine if bound is None else self._convolve(bound, mine)
            found = (needed, bound)
            self.others_memo[memo_key] = found
        return found

    def _all_bound(self, key: int, p: int) -> tuple[int, ...]:
        """:meth:`suit_bound` of the four suits together, every suit past position ``p``."""
        memo_key = (4 * p + 4, key & (_RUNS | 0xFFFF << _KEPT_AT))
        memo = self.all_memo
        found = memo.get(memo_key)
        if found is None:
            kept = key >> _KEPT_AT & 0xFFFF
            for t in range(4):
                bound = self.suit_bound(t, p + 1, key >> _RUNS_AT[t] & _ID, kept >> 4 * t & 15)
                found = bound if found is None else self._convolve(found, bound)
            assert found is not None
            memo[memo_key] = found
        return found

    def upper_bound(self) -> int:
        """The most any arrangement of the cards could score (see :meth:`suit_bound`);
        from here on :meth:`run` prunes by it."""
        self._prepare_bounds()
        whole = self._all_bound(0, 0)
        return self.jokers * self.joker_score + whole[2 * self.jokers] // 12

    def _roomy(self, runs: int) -> bool:
        """Does a run still open have room for every joker (a run whose length is not
        counted: it becomes a meld of at most ``14 - jokers`` cards)?  Then every joker
        left will find a place at an end, and the room need not be counted."""
        found = self.roomy_memo.get(runs)
        if found is None:
            tuples = self.run_tuples
            found = any(d & _UNTRACKED and not (d >> 6) & 63
                        for t in range(4) for d in tuples[runs >> _RUNS_AT[t] & _ID])
            self.roomy_memo[runs] = found
        return found

    def _dominated(self, states: dict[int, tuple[int, Any, Any]]) -> None:
        """Drop the states another one beats whatever comes next: the same open runs,
        aces kept back and naturals waiting for sets, but no more jokers used, no less
        room and no lower score; or fewer jokers used, room for every joker left, and
        a score that stays at least as high once those jokers are placed."""
        joker_total = self.jokers
        joker = self.joker_score
        groups: dict[int, list[int]] = {}
        for key in states:
            groups.setdefault(key & _SANS_JOKERS, []).append(key)
        for keys in groups.values():
            if len(keys) < 2:
                continue
            ranked = sorted((k >> _USED & 15, -(k >> _ROOM & 15), -states[k][0], k)
                            for k in keys)
            kept: list[tuple[int, int, int]] = []
            placed = _NONE  # the best score with every joker placed of a state with room
            for used, less_room, less_score, k in ranked:
                room, score = -less_room, -less_score
                free = joker_total - used
                if score + free * joker <= placed or any(
                        u <= used and r >= room and sc >= score for u, r, sc in kept):
                    del states[k]
                    continue
                kept.append((used, room, score))
                if room == free and score + free * joker > placed:
                    placed = score + free * joker

    def best(self) -> tuple[tuple[int, list[Any], tuple[int, int, int, int]] | None, bool, int]:
        """The best arrangement, whether it is proven best, and the most any arrangement
        could score (:meth:`upper_bound`).

        A narrow pass (a beam of ``_BEAM`` states, led by the bound) finds a good
        arrangement, usually the best.  Exact passes then look for a better one, each
        dropping every state that cannot reach its floor: first floors just below the
        bound (one, two, four, eight melds more than it, then one point of value less,
        two, four...: such a pass keeps few states, and finds the best arrangement if
        it is that good), then the narrow pass's score.  Past the limit
        (``ARRANGE_CPU_S`` of CPU time, all of it counted) the best found so far is the
        answer, not proven best.

        With a clock (the best arrangement's CPU time) the narrowest passes come first
        (a few milliseconds, led by the cheap bound, seldom far from the best): when the
        time runs out, the best of what was found is the answer, so there is always
        one."""
        first = self._narrowest() if self.clock is not None else None
        try:
            upper = self.upper_bound()
        except SearchTooLarge:
            self.g_memo = None
            return first or self._anyway(), False, self._ceiling()
        try:
            quick = self.run(beam=_BEAM)
        except SearchTooLarge:
            return first or self._anyway(), False, upper
        if quick is None:
            return first or self._anyway(), False, upper
        known = quick[0]
        if known >= upper:
            return quick, True, upper
        gap = 1
        try:
            while upper - gap > known:
                found = self.run(upper - gap)
                if found is not None and found[0] >= upper - gap:
                    return found, True, upper
                # a few melds more than the bound, then whole points of value
                gap = gap * 2 if gap < 8 or gap >= _VALUE else _VALUE
            found = self.run(known + 1)
        except SearchTooLarge:
            if first is not None and first[0] > known:
                return first, False, upper
            return quick, False, upper
        if found is not None and found[0] > known:
            return found, True, upper
        return quick, True, upper

    def _ceiling(self) -> int:
        return self.potential + self.jokers * self.joker_score

    def _narrowest(self) -> tuple[int, list[Any], tuple[int, int, int, int]] | None:
        """The narrowest passes (see :meth:`_anyway`) before anything else, led by the
        cheap bound; None if the time ran out first."""
        try:
            for beam in _LAST_BEAMS:
                found = self.run(beam=beam)
                if found is not None:
                    return found
        except SearchTooLarge:
            pass
        return None

    def _anyway(self) -> tuple[int, list[Any], tuple[int, int, int, int]] | None:
        """An arrangement when the limit came before any: the narrowest passes (a few
        states a step; wider when one ends with no arrangement, its states all left
        with runs they cannot finish), with half the limit again at most (with a clock:
        the time kept for it); None if even that is not enough (hands far larger than
        any question takes)."""
        if self.clock is None:
            self.limit = self.work + self.limit // 2
        return self._narrowest()

    @staticmethod
    def _narrow(states: dict[int, tuple[int, Any, Any]], bounds: dict[int, int], width: int
                ) -> dict[int, tuple[int, Any, Any]]:
        # the most promising states, and the best scores so far (which have the fewest
        # runs still waiting for cards, so some of the beam always finishes)
        keep = set(heapq.nlargest(width, states, key=lambda k: (bounds[k], states[k][0])))
        keep.update(heapq.nlargest(width, states, key=lambda k: states[k][0]))
        return {key: entry for key, entry in states.items() if key in keep}

    # ---- the best path, card by card -----------------------------------------------------

    def replay(self, path: list[Any], end: tuple[int, int, int, int]) -> _Built:
        """Follow the best path with real cards: the melds, lay-offs and stranded cards."""
        built = _Built()
        open_runs: list[list[_OpenRun]] = [[] for _ in SUITS]
        kept = [0, 0, 0, 0]
        pool = [0, 0, 0, 0]
        seq = 0
        for (kind, p, s), option in path:
            if option is None:
                continue
            if kind == "sets":
                self._replay_sets(1 if p == 14 else p, pool, option[3], built)
                pool = [0, 0, 0, 0]
                continue
            suit = SUITS[s]
            rank = 1 if p == 14 else p
            runs = sorted(open_runs[s], key=lambda r: (r.desc, r.seq))
            _after, to_sets, keep, _j, _g, _r, acts, started, fresh, stranded, high = option
            still: list[_OpenRun] = []
            for run, (code, after, table_index) in zip(runs, acts):
                if code == "W":
                    still.append(run)
                elif code == "C":
                    self._close(run, suit, built)
                elif code == "N":
                    run.cards.append(natural_card(rank, suit))
                    run.desc = after
                    still.append(run)
                elif code == "J":
                    run.cards.append(joker_as(rank, suit))
                    run.desc = after
                    still.append(run)
                else:  # "B": the run reaches a table run and lies below it
                    run.table = self.run_by_index[table_index]
                    run.chain = run.cards
                    run.cards = []
                    run.desc = after
                    still.append(run)
            for _ in range(started):
                seq += 1
                still.append(_OpenRun(_run_desc(1, 0, 0 if self.tracked[s][p] else 1), seq,
                                      p, [natural_card(rank, suit)]))
            for table_index in fresh:
                table_run = self.run_by_index[table_index]
                seq += 1
                still.append(_OpenRun(_block_desc(table_index, table_run.length,
                                                  table_run.high + 1), seq, p, [],
                                      table_run))
            open_runs[s] = still
            if p == 14:
                kept[s] = 0
            kept[s] += keep
            pool[s] += to_sets
            for _ in range(high):
                built.melds.append([Reading(RUN, (joker_as(12, suit), joker_as(13, suit),
                                                  natural_card(1, suit)), suit=suit, low=12),
                                    10])
            built.stranded += [natural_card(rank, suit)] * stranded
        for s, suit in enumerate(SUITS):
            for run in sorted(open_runs[s], key=lambda r: (r.desc, r.seq)):
                self._close(run, suit, built)
        _score, at_ends, own, stranded = end
        self._place_jokers(at_ends, built)
        if own:
            jokers = (joker_as(1, ""),) * own
            if own <= 4:
                reading = Reading(SET, jokers, rank=1)
            else:
                reading = Reading(RUN, tuple(joker_as(p, "S") for p in range(1, own + 1)),
                                  suit="S", low=1)
            built.melds.append([reading, 0])
        built.stranded += [JOKER] * stranded
        return built

    def _close(self, run: _OpenRun, suit: str, built: _Built) -> None:
        top = self.top
        if run.table is not None:
            table_run = run.table
            if run.chain:
                built.layoffs.append([table_run.index, run.chain[::-1], "low"])
            if run.cards:
                built.layoffs.append([table_run.index, run.cards, "high"])
            return
        cards = run.cards
        low = run.low
        while len(cards) < 3:
            high = low + len(cards) - 1
            if high < top:
                cards.append(joker_as(1 if high + 1 == 14 else high + 1, suit))
            else:
                low -= 1
                cards.insert(0, joker_as(low, suit))
        built.melds.append([Reading(RUN, tuple(cards), suit=suit, low=low),
                            13 - len(cards)])

    def _replay_sets(self, rank: int, pool: list[int], detail: Any, built: _Built) -> None:
        fills, groups = detail
        if rank not in self.slots:
            # the search grouped the counts sorted: put the suits in that order
            order = sorted(range(4), key=lambda i: -pool[i])
            groups = [(tuple(order[i] for i in suits), deficit) for suits, deficit in groups]
        left = list(pool)
        for index, s in fills:
            left[s] -= 1
            built.layoffs.append([index, [natural_card(rank, SUITS[s])], "set"])
        for suits, deficit in groups:
            for s in suits:
                left[s] -= 1
            # the set as the old search listed it: the first card in listing order, then
            # the others in suit order
            ordered = sorted(suits, key=lambda i: _LISTING[SUITS[i]])
            head = ordered[0]
            cards = [natural_card(rank, SUITS[head])]
            cards += [natural_card(rank, SUITS[i]) for i in sorted(suits) if i != head]
            cards += [joker_as(rank, "")] * deficit
            built.melds.append([Reading(SET, tuple(cards), rank=rank), 4 - len(cards)])
        assert not any(left), "a natural put aside for the sets was not melded"

    def _place_jokers(self, count: int, built: _Built) -> None:
        """Put ``count`` jokers at the ends of the melds that have room: the new melds
        first (in listing order), then the table's."""
        if not count:
            return
        top = self.top
        built.melds.sort(key=lambda m: _meld_order(m[0]))
        for entry in built.melds:
            reading, room = entry
            while count and room:
                cards = list(reading.cards)
                if reading.kind == SET:
                    cards.append(joker_as(reading.rank, ""))
                    reading = Reading(SET, tuple(cards), rank=reading.rank)
                else:
                    high = reading.low + len(cards) - 1
                    low = reading.low
                    if high < top:
                        cards.append(joker_as(1 if high + 1 == 14 else high + 1,
                                              reading.suit))
                    else:
                        low -= 1
                        cards.insert(0, joker_as(low, reading.suit))
                    reading = Reading(RUN, tuple(cards), suit=reading.suit, low=low)
                room -= 1
                count -= 1
            entry[0], entry[1] = reading, room
        if not count:
            return
        # the table: runs at an end, 3-sets as their fourth card
        extended: dict[int, list[int]] = {}
        for index, cards, end in built.layoffs:
            if end == "set":
                extended.setdefault(index, [0, 0])[0] += 1
            elif end == "low":
                extended.setdefault(index, [0, 0])[0] += len(cards)
            else:
                extended.setdefault(index, [0, 0])[1] += len(cards)
        for index, meld in enumerate(self.table_melds):
            if not count:
                break
            lower, higher = extended.get(index, [0, 0])
            reading = meld.reading
            if reading.kind == SET:
                if len(reading.cards) + lower < 4:
                    built.layoffs.append([index, [joker_as(reading.rank, "")], "set"])
                    count -= 1
                continue
            low = reading.low - lower
            high = reading.high + higher
            while count and high - low + 1 < 13:
                if high < top:
                    high += 1
                    card = joker_as(1 if high == 14 else high, reading.suit)
                    built.layoffs.append([index, [card], "high"])
                else:
                    low -= 1
                    built.layoffs.append([index, [joker_as(low, reading.suit)], "low"])
                count -= 1
        assert not count, "jokers left without room"


def _meld_order(reading: Reading) -> tuple[int, int, str, int, tuple[str, ...]]:
    """Melds are listed by their first natural card in listing order."""
    naturals = [c for c in reading.cards if not c.is_joker]
    if not naturals:
        return (1, 0, "", 0, ())
    first = min(naturals, key=_listing_key)
    return (0, _LISTING[first.suit], first.suit, first.rank,
            tuple(str(c) for c in reading.cards))


_POOLS: dict[tuple[int, int], int] = {}


def _pool_with(pool: int, count: int) -> int:
    """A multiset of up to four counts (packed 4 bits each, largest first) with ``count``
    added."""
    found = _POOLS.get((pool, count))
    if found is None:
        counts = sorted([pool & 15, pool >> 4 & 15, pool >> 8 & 15, pool >> 12 & 15, count],
                        reverse=True)[:4]
        found = counts[0] | counts[1] << 4 | counts[2] << 8 | counts[3] << 12
        _POOLS[pool, count] = found
    return found


def _counts(naturals: Iterable[Card]) -> list[list[int]]:
    counts = [[0] * 16 for _ in SUITS]
    for card in naturals:
        counts[_SUIT_INDEX[card.suit]][card.rank] += 1
    return counts


def _search(rules: RuleSet, naturals: list[Card], jokers: int, *, strict: bool,
            table: Table | None = None, budget: int | None = None,
            spent: list[int] | None = None) -> _Built | None:
    """The best arrangement (or plan) found by the sweep; ``spent`` is the work the
    searches of the same question have done already, and is added to."""
    counts = _counts(naturals)
    done = 0 if spent is None else spent[0]
    if any(n > 15 for row in counts for n in row):
        raise SearchTooLarge(done, SEARCH_LIMIT)
    sweep = _Sweep(rules, counts, jokers, strict=strict, table=table, budget=budget,
                   limit=SEARCH_LIMIT - done)
    assert strict, "the best arrangement is _arrange's"
    try:
        found = sweep.dive()
    finally:
        if spent is not None:
            spent[0] += sweep.work
    if found is None:
        return None
    _score, path, end = found
    return sweep.replay(path, end)


def _arrange(rules: RuleSet, naturals: list[Card], jokers: int, start: float
             ) -> tuple[_Built | None, bool, int]:
    """The best arrangement the sweep finds by ``ARRANGE_CPU_S`` of CPU time after
    ``start`` (the thread's CPU time when the question came), whether it is proven best,
    and the most melded value any arrangement could have."""
    counts = _counts(naturals)
    if any(n > 15 for row in counts for n in row):
        raise SearchTooLarge(0, SEARCH_LIMIT)  # more copies of a card than any game has
    sweep = _Sweep(rules, counts, jokers, strict=False, clock=start + ARRANGE_CPU_S)
    found, exact, upper = sweep.best()
    if found is None:
        return None, False, upper // _VALUE
    _score, path, end = found
    return sweep.replay(path, end), exact, upper // _VALUE


def _stranded_for_sure(naturals: Sequence[Card], jokers: int, table: Table, rules: RuleSet
                       ) -> bool:
    """Is there a natural card that no meld and no lay-off could take, whatever the
    others do?  (Then the cards cannot all be melded, and no search is needed.)"""
    counts = _counts(naturals)
    top = max_position(rules)
    present = [[counts[s][1 if p == 14 else p] > 0 if 1 <= p <= top else False
                for p in range(16)] for s in range(4)]
    slots: dict[int, int] = {}
    runs: list[tuple[int, int, int]] = []
    for meld in table:
        reading = meld.reading
        if reading.kind == RUN:
            runs.append((_SUIT_INDEX[reading.suit], reading.low, reading.high))
        elif len(reading.cards) < 4:
            taken = {c.suit if not c.is_joker else (c.stands_for.suit if c.stands_for
                                                      else "") for c in reading.cards}
            slots[reading.rank] = slots.get(reading.rank, 0) | sum(
                1 << i for i, t in enumerate(SUITS) if t not in taken)
    for s in range(4):
        for rank in range(1, 14):
            if not counts[s][rank]:
                continue
            suits = sum(1 for t in range(4) if counts[t][rank])
            if suits + jokers >= 3 or slots.get(rank, 0) >> s & 1:
                continue
            if not any(_reachable(present[s], position, jokers, runs, s, top)
                       for position in ((1, 14) if rank == 1 and top == 14 else (rank,))):
                return True
    return False


def _reachable(present: list[bool], p: int, jokers: int,
               runs: list[tuple[int, int, int]], suit: int, top: int) -> bool:
    """Could a natural at position ``p`` be in a new run of its suit, or laid off on a
    table run of its suit, with the jokers filling the gaps?"""
    for low in range(max(1, p - 2), min(p, top - 2) + 1):
        if sum(1 for q in range(low, low + 3) if not present[q]) <= jokers:
            return True
    for s, low, high in runs:
        if s != suit:
            continue
        if p < low:
            gap = range(p + 1, low)
            length = high - p + 1
        elif p > high:
            gap = range(high + 1, p)
            length = p - low + 1
        else:
            continue
        if length <= 13 and sum(1 for q in gap if not present[q]) <= jokers:
            return True
    return False


def meld_all(cards: Iterable[Card], table: Table, rules: RuleSet,
             max_new_melds: int | None = None, *, new_meld: Card | None = None
             ) -> list[Step] | None:
    """A plan that melds every card (new melds and lay-offs on ``table``), or None.

    ``max_new_melds`` limits the new melds (``meld.once-per-turn``).  ``new_meld`` is a
    card that must go into a new meld of the plan, not be laid off (``draw.deep-new-meld``:
    the deepest card taken from the pile); with two decks either copy of it will do.
    Raises :class:`SearchTooLarge` if the question would take more work than
    ``SEARCH_LIMIT`` (all its searches together).
    """
    hand = [c.natural for c in cards]
    want = new_meld.natural if new_meld is not None else None
    if want is not None and want not in hand:
        return None
    spent = [0]
    plan = _plan(hand, table, rules, max_new_melds, spent)
    if want is None or plan is None or any(
            step.meld_id is None and any(c.natural == want for c in step.cards)
            for step in plan):
        return plan
    if max_new_melds is not None and max_new_melds < 1:
        return None
    # every new meld that card can make with the others, fewest jokers and cards first,
    # and the rest melded around it
    rest = list(hand)
    rest.remove(want)
    tried: set[tuple[tuple[Card, int], ...]] = set()
    options: list[tuple[int, int, int, Reading, Pool]] = []
    for reading, used in melds_containing(want, pool_of(rest), rules):
        key = tuple(sorted(used.items(), key=lambda item: _listing_key(item[0])))
        if key not in tried:
            tried.add(key)
            options.append((sum(1 for c in reading.cards if c.is_joker), len(reading.cards),
                            len(options), reading, used))
    options.sort(key=lambda option: option[:3])
    budget = None if max_new_melds is None else max_new_melds - 1
    for _jokers, _size, _order, reading, used in options:
        left = list(rest)
        for card, count in used.items():
            for _ in range(count):
                left.remove(card)
        plan = _plan(left, table, rules, budget, spent)
        if plan is not None:
            return sorted([Step(reading.cards), *plan], key=_step_order)
    return None


def _step_order(step: Step) -> tuple[int, int, str, int, tuple[str, ...]]:
    return _meld_order(Reading(SET, step.cards))


def _plan(hand: list[Card], table: Table, rules: RuleSet, max_new_melds: int | None,
          spent: list[int]) -> list[Step] | None:
    naturals = [c for c in hand if not c.is_joker]
    jokers = len(hand) - len(naturals)
    if jokers and not rules.jokers:
        return None
    if _stranded_for_sure(naturals, jokers, table, rules):
        return None
    built = _search(rules, naturals, jokers, strict=True, table=table, budget=max_new_melds,
                    spent=spent)
    if built is None:
        return None
    steps = [Step(reading.cards) for reading, _room in built.melds]
    ids = [m.id for m in table]
    for index, laid, _end in built.layoffs:
        steps.append(Step(tuple(laid), ids[index]))
    steps.sort(key=_step_order)
    return steps


# ---------------------------------------------------------------------------------------
# the common case, fast: one deck's cards and no jokers
#
# A hand of at most one copy of each card and no joker is a bit mask (bit 16 * suit +
# rank, the suits in listing order), and its best arrangement is the old exhaustive
# search made cheap: the lowest card is stranded or melded in a set or a run with
# cards above it, and each remaining mask is remembered.  Cards that cannot be in any
# meld at all are set aside first, at every state (which leaves most hands dealt at
# random with a handful of cards to search, and states that differ only in such cards
# one).  A move is not searched out when even every card it leaves, melded in as few
# melds as the longest meld allows, could not beat the best move found so far (the set
# of four is tried first for that); an earlier move as good as the best still wins.
# It lists the same arrangement as the sweep's search would score, and as the referee
# always has (the first best in the order below).

_LISTED_SUITS = tuple(sorted(SUITS))  # the suits in listing order: C D H S
_PLAIN_STATES = 4000  # beyond this, the sweep's bounded search takes over


_PlainScores = tuple[list[int], int, list[int], bool, tuple[list[int], list[int]]]


def _plain_scores(rules: RuleSet) -> _PlainScores:
    """``_plain_scores_of`` the rules, the last rules asked about answered at once (a
    rule set hashes all its fields)."""
    global _LAST_SCORES
    last = _LAST_SCORES
    if last[0] is rules:
        return last[1]
    found = _plain_scores_of(rules)
    _LAST_SCORES = (rules, found)
    return found


@lru_cache(maxsize=64)
def _plain_scores_of(rules: RuleSet) -> _PlainScores:
    """The score of each rank melded (value and points kept out of the hand), of an ace
    melded low, the scores of the run positions 1 to ``p`` added up, by ``p``, whether
    an ace may lie high, and the scores of the ranks of each 7-bit half of a suit's bits
    added up (ranks 0-6, 7-13), by those 7 bits."""
    scores = [0] * 15
    for rank in range(1, 14):
        value = card_value(natural_card(rank, "S"), rules)
        scores[rank] = value * _VALUE + value * _KEPT
    ace = card_value(natural_card(1, "S"), rules)
    low = card_value(natural_card(1, "S"), rules, low_ace=True) * _VALUE + ace * _KEPT
    prefix = [0] * 15
    for p in range(1, 15):
        prefix[p] = prefix[p - 1] + (low if p == 1 else scores[1 if p == 14 else p])
    halves = ([sum(scores[r] for r in range(7) if row >> r & 1) for row in range(128)],
              [sum(scores[7 + r] for r in range(7) if row >> r & 1) for row in range(128)])
    return scores, low, prefix, rules.aces_high, halves


_LAST_SCORES: tuple[object, _PlainScores] = (None, ([], 0, [], False, ([], [])))

# A plain hand is one int: 16 bits a suit (listing order C D H S), bit r the card of rank
# r.  For each bit: the card; the bits of the other suits of its rank, in suit order
# S H D C (the order the sets are tried in, which picks among equally good arrangements);
# the same as one mask.  For each mask of two or three of those: the sets it allows with
# the card, as (the others' bits, the set's size), in the order they are tried.
_PLAIN_CARDS = [natural_card(b & 15, _LISTED_SUITS[b >> 4]) if 1 <= b & 15 <= 13 else JOKER
                for b in range(64)]
_SET_BITS = [tuple(16 * i + (b & 15) for i, t in
                   ((_LISTED_SUITS.index(t), t) for t in SUITS) if i != b >> 4)
             for b in range(64)]
_SET_ALL = [sum(1 << o for o in _SET_BITS[b]) for b in range(64)]


def _set_choices() -> dict[int, tuple[tuple[int, int, int], ...]]:
    table: dict[int, tuple[tuple[int, int, int], ...]] = {}
    for b in range(64):
        others = [1 << o for o in _SET_BITS[b]]
        for chosen in range(1, 8):
            present = [m for j, m in enumerate(others) if chosen >> j & 1]
            if len(present) == 2:
                masks = [present[0] | present[1]]
            elif len(present) == 3:
                x, y, z = present
                masks = [x | y, x | z, y | z, x | y | z]
            else:
                continue
            # the set of all four first (it melds most), each with its place in the
            # order that picks among equally good arrangements
            order = [(m, 1 + m.bit_count(), i) for i, m in enumerate(masks)]
            table[sum(present)] = tuple(order[-1:] + order[:-1])
    return table


_SET_CHOICES = _set_choices()
# the cards of a suit's ranks 0-6 and 7-13 (as a row's low and high 7 bits), in rank order
_ROW_CARDS = [[tuple(_PLAIN_CARDS[16 * i + half * 7 + r] for r in range(7) if row >> r & 1)
               for row in range(128)] for i in range(4) for half in range(2)]
_PLAIN_SHIFT = {s: 16 * i for i, s in enumerate(_LISTED_SUITS)}
# per suit, its cards by run position (0 unused, 14 the ace again); every bit of a rank
_SUIT_POSITIONS = [tuple(_PLAIN_CARDS[16 * i + (1 if p == 14 else p)] if p else JOKER
                         for p in range(15)) for i in range(4)]
_RANK_BITS = [sum(1 << (16 * i + r) for i in range(4)) for r in range(16)]
# each card's bit, by suit (a joker's suit is "") and rank
_CARD_BITS = {s: [0] + [1 << (16 * i + r) for r in range(1, 14)]
              for i, s in enumerate(_LISTED_SUITS)}
_CARD_BITS[""] = [0] * 14




def _plain_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a plain hand, in listing order."""
    if mask.bit_count() <= 3:  # a few: bit by bit
        cards = _PLAIN_CARDS
        found = []
        while mask:
            low = mask & -mask
            found.append(cards[low.bit_length() - 1])
            mask ^= low
        return tuple(found)
    rows = _ROW_CARDS
    return (rows[0][mask & 127] + rows[1][mask >> 7 & 127]
            + rows[2][mask >> 16 & 127] + rows[3][mask >> 23 & 127]
            + rows[4][mask >> 32 & 127] + rows[5][mask >> 39 & 127]
            + rows[6][mask >> 48 & 127] + rows[7][mask >> 55 & 127])


def _plain_unique(mask: int, left: int, keep: int, covered: int, jokers: int,
                  found: _PlainScores) -> Arrangement:
    """The arrangement of a plain hand whose melds cannot overlap: a set of every rank of
    ``keep`` (the ranks held in three suits or more) and a run of every block of
    ``covered`` (each suit's 16 bits by run position, 14 the ace again), listed as the
    search lists them (by their lowest card); ``left``: the cards of no meld."""
    melds, total = _unique_melds(mask, keep, covered, found[0], found[2])
    stranded = _plain_cards(left)
    if jokers:
        stranded += (JOKER,) * jokers
    return _exact(melds, stranded, total // _VALUE)


def _unique_melds(mask: int, keep: int, covered: int, scores: list[int], prefix: list[int]
                  ) -> tuple[tuple[Reading, ...], int]:
    """The melds of ``_plain_unique`` in the search's order (by their lowest card), and
    their cards' scores added up."""
    found: list[tuple[int, Reading]] = []
    total = 0
    while covered:
        lowest = covered & -covered
        block = covered & ~(covered + lowest)
        covered ^= block
        at = lowest.bit_length() - 1
        base = at & ~15
        first = at & 15
        last = first + block.bit_count() - 1
        total += prefix[last] - prefix[first - 1]
        reading = _PLAIN_MELDS.get(block) or _plain_meld(block)
        found.append((base + 1 if last == 14 else at, reading))
    while keep:
        low = keep & -keep
        keep ^= low
        rank = low.bit_length() - 1
        here = _RANK_BITS[rank] & mask
        lowest = (here & -here).bit_length() - 1
        found.append((lowest, _PLAIN_MELDS.get(here) or _plain_meld(here)))
        total += here.bit_count() * scores[rank]
    if len(found) == 1:
        return (found[0][1],), total
    found.sort()
    return tuple([r for _, r in found]), total


# the melds of plain hands, shared like the cards: by their cards' bits, runs by position
# (bit 14 of a suit: its ace, high; a set has one bit in each of three or four suits)
_PLAIN_MELDS: dict[int, Reading] = {}


def _plain_meld(bits: int) -> Reading:
    lowest = (bits & -bits).bit_length() - 1
    base = lowest & ~15
    if bits >> base > 0xFFFF:  # more than one suit: a set
        cards = _PLAIN_CARDS
        reading = Reading(SET, (cards[lowest], *(cards[b] for b in _SET_BITS[lowest]
                                                 if bits >> b & 1)), rank=lowest & 15)
    else:
        i = lowest >> 4
        first = lowest & 15
        last = first + bits.bit_count() - 1
        reading = Reading(RUN, _SUIT_POSITIONS[i][first:last + 1], suit=_LISTED_SUITS[i],
                          low=first)
    _PLAIN_MELDS[bits] = reading
    return reading


_LANES = 0x0001_0001_0001_0001  # bit 0 of each suit's 16 bits
_CARDS = (1 << 64) - 1  # every suit's bits
_HIGH_RUN = 1 << 64  # beside a move's cards: a run ending with the ace high
_LOW_ACES = _LANES << 1
_HIGH_ACES = _LANES << 14


class _Plain:
    __slots__ = ("rules", "memo", "moves", "below", "scores", "low_ace", "prefix", "high",
                 "halves", "work")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.memo: dict[int, int] = {}  # the best score of a mask of cards some meld holds
        # the move of each mask searched (the cards melded with its lowest card, the bit
        # _HIGH_RUN for a run ending with the ace high; 0: it is stranded); a mask in memo
        # and not here has one way only (see _plain_arrangement)
        self.moves: dict[int, int] = {}
        self.below: dict[int, int] = {}  # masks whose best is at most this, not searched out
        self.scores, self.low_ace, self.prefix, self.high, self.halves = _plain_scores(rules)
        self.work = 0

    def best(self, mask: int, ceiling: int, need: int = _NONE, lanes: int = _LANES,
             low_aces: int = _LOW_ACES, high_aces: int = _HIGH_ACES,
             set_choices: dict[int, tuple[tuple[int, int, int], ...]] = _SET_CHOICES,
             set_all: list[int] = _SET_ALL, rank_bits: list[int] = _RANK_BITS) -> int:
        """The best score of the cards of ``mask`` (``ceiling``: their scores added up,
        every card melded for free), remembered with its move under the mask of its
        cards that some meld could hold (the others are stranded whatever is done);
        or, when even every such card melded would score below ``need``, a score below
        ``need``, not remembered (the caller has better).  (Its callers look in the memo
        first; the module's tables come in as arguments, read faster.)"""
        # the ranks held in three suits or more; the cards three in a row in a suit, by
        # run position (14: the ace again, high)
        b, c, d = mask >> 16, mask >> 32, mask >> 48
        keep = (mask & b & (c | d) | c & d & (mask | b)) & 0x7FFF
        sets = keep * lanes
        wide = mask | (mask & low_aces) << 13 if self.high else mask
        starts = wide & wide >> 1 & wide >> 2
        covered = starts | starts << 1 | starts << 2
        high = covered & high_aces
        meldable = mask & (sets | covered | high >> 13)
        scores = self.scores
        if meldable != mask:
            # the cards no meld could hold are stranded, whatever the others do
            left = mask ^ meldable
            while left:
                low = left & -left
                ceiling -= scores[(low.bit_length() - 1) & 15]
                left ^= low
            if not meldable:
                return 0
            got = self.memo.get(meldable)
            if got is not None:
                return got
            mask = meldable
        if not (covered & sets or high and high >> 13 & (covered | sets)):
            # no card both of a set's rank and of a run, no ace both low and high: one
            # way only (see _plain_arrangement), every card melded in the fewest melds
            top = ceiling - (covered & ~(covered << 1)).bit_count() - keep.bit_count()
            if covered & low_aces:
                top -= (covered & low_aces).bit_count() * (scores[1] - self.low_ace)
            self.memo[mask] = top
            return top
        # every card melded, in as few melds as the longest meld allows: below need?
        if starts & starts >> 2:  # five in a row
            longest = 13
        elif starts & starts >> 1 or keep & mask & b & c & d:  # four in a row, of a kind
            longest = 4
        else:
            longest = 3
        count = mask.bit_count()
        most = ceiling - (count + longest - 1) // longest
        if most < need:
            return most
        below = self.below.get(mask)
        if below is not None and below < need:
            return below
        memo = self.memo
        if len(self.moves) + len(self.below) >= _PLAIN_STATES:
            self.work = len(self.moves) + len(self.below)
            raise SearchTooLarge(self.work, _PLAIN_STATES)
        low = mask & -mask
        bit = low.bit_length() - 1
        rest = mask ^ low
        others = rest & set_all[bit]
        choices = set_choices.get(others)
        rank = bit & 15
        # a move must reach ``need`` to count: scores below it are not worth knowing
        top = need - 1
        first = 99  # the place of the move that scores ``top`` in the order of moves
        move = 0
        each = scores[rank]
        # sets: the other suits of this rank still here, in suit order (S H D C); the
        # set of four tried first, but an earlier set as good is the one kept
        if choices is not None:
            four = len(choices) == 4
            for used, size, place in choices:
                after = rest & ~used
                if four and size == 3:
                    # the card of the rank left out has no run to join (the cards
                    # beside it in its suit, an ace high beside the king): it would be
                    # stranded, and the set of all four melds it too
                    out = others & ~used
                    if not (after & out << 1 and (after & out << 2 or after & out >> 1)
                            or after & out >> 1 and after & out >> 2
                            or self.high and (rank == 1 and after & out << 11
                                              and after & out << 12
                                              or rank == 13 and after & out >> 1
                                              and after & out >> 12
                                              or rank == 12 and after & out << 1
                                              and after & out >> 11)):
                        continue
                gain = each * size - 1
                if after:
                    # what the rest needs to count, and the most it could make (its
                    # cards all melded in as few melds as can be): not asked if short
                    wanted = top - gain + (place > first)
                    later = ceiling - size * each - (count - size + longest - 1) // longest
                    if later >= wanted:
                        got = memo.get(after)
                        later = (got if got is not None else
                                 self.best(after, ceiling - size * each, wanted))
                else:
                    later = 0
                if gain + later > top or gain + later == top and place < first:
                    top, move, first = gain + later, low | used, place
        # runs from this card up (an ace: from the bottom, then ending high)
        step = low << 1
        if rest & step and rest & step << 1:
            used = low
            total = self.low_ace if rank == 1 else each
            upper = each
            length = 1
            for higher in range(rank + 1, 14):
                if not rest & step:
                    break
                used |= step
                step <<= 1
                total += scores[higher]
                upper += scores[higher]
                length += 1
                if length >= 3:
                    after = mask & ~used
                    if (higher < 13 and rest & step and (higher < 11 or not self.high)
                            and not (rest & step << 1 and rest & step << 2)
                            and (after & rank_bits[higher + 1]).bit_count() < 3):
                        # the next card of the row has no set and no run above it left:
                        # it would be stranded, and the longer run (tried next) melds it
                        continue
                    if after:
                        later = ceiling - upper - (count - length + longest - 1) // longest
                        if later >= top - total + 2:
                            got = memo.get(after)
                            later = (got if got is not None
                                     else self.best(after, ceiling - upper, top - total + 2))
                    else:
                        later = 0
                    score = total - 1 + later
                    if score > top:
                        top, move = score, used
        if rank == 1 and self.high and rest >> (bit - 1 + 12) & 3 == 3:
            used = low
            total = each
            base = bit - 1
            for lower in range(13, 1, -1):
                step = 1 << (base + lower)
                if not rest & step:
                    break
                used |= step
                total += scores[lower]
                if lower <= 12:
                    after = mask & ~used
                    if after:
                        got = memo.get(after)
                        later = (got if got is not None
                                 else self.best(after, ceiling - total, top - total + 2))
                    else:
                        later = 0
                    score = total - 1 + later
                    if score > top:
                        top, move = score, used | _HIGH_RUN
        # stranding it comes first among equals; it is not tried when a meld already
        # beats everything the other cards could make without it
        if not rest:
            if top < 0:
                top, move = 0, 0
        elif top <= ceiling - each - (count + longest - 2) // longest:
            got = memo.get(rest)
            alone = got if got is not None else self.best(rest, ceiling - each, top)
            if alone >= top:
                top, move = alone, 0
        if top < need:  # no move reaches need: its best is at most top, not remembered
            self.below[mask] = top
            return top
        memo[mask] = top
        self.moves[mask] = move
        return top

    def ceiling(self, mask: int) -> int:
        """The scores of the cards of ``mask`` added up (every card melded, for free)."""
        low, high = self.halves
        return (low[mask & 127] + high[mask >> 7 & 127] + low[mask >> 16 & 127]
                + high[mask >> 23 & 127] + low[mask >> 32 & 127] + high[mask >> 39 & 127]
                + low[mask >> 48 & 127] + high[mask >> 55 & 127])

    def melds(self, mask: int) -> tuple[list[Reading], int]:
        """The melds of the best arrangement of ``mask``, and their cards' bits."""
        out: list[Reading] = []
        moves = self.moves
        melded = 0
        while mask:
            move = moves.get(mask)
            if move is None:
                if mask not in self.memo:  # cards no meld could hold: the rest was searched
                    stripped = _meldable(mask, self.high)
                    if stripped == mask:
                        raise KeyError(mask)  # never: every state on the way is remembered
                    mask = stripped
                    continue
                # the rest, one way only: its melds by their lowest card
                keep, covered = _shape(mask, self.high)
                out += _unique_melds(mask, keep, covered, self.scores, self.prefix)[0]
                # the cards of its runs (by position: an ace high back at its bit 1) and
                # of its sets
                return out, melded | ((covered | (covered & _HIGH_ACES) >> 13) & ~_HIGH_ACES
                                      | keep * _LANES) & mask
            low = mask & -mask
            if not move:  # stranded
                mask ^= low
                continue
            used = move & _CARDS
            # a run ending with the ace high: by run position, the ace at 14
            key = used ^ low | low << 13 if move & _HIGH_RUN else used
            out.append(_PLAIN_MELDS.get(key) or _plain_meld(key))
            mask ^= used
            melded |= used
        return out, melded


def _shape(mask: int, high: bool) -> tuple[int, int]:
    """The ranks of a plain hand held in three suits or more, and its cards three in a row
    in a suit, by run position (``high``: may an ace lie high, at 14?)."""
    b, c, d = mask >> 16, mask >> 32, mask >> 48
    wide = mask | (mask & _LOW_ACES) << 13 if high else mask
    starts = wide & wide >> 1 & wide >> 2
    return ((mask & b & (c | d) | c & d & (mask | b)) & 0x7FFF,
            starts | starts << 1 | starts << 2)


def _meldable(mask: int, high: bool) -> int:
    """The cards of a plain hand that some meld of its cards could hold (``high``: may
    an ace lie high?)."""
    b, c, d = mask >> 16, mask >> 32, mask >> 48
    keep = (mask & b & (c | d) | c & d & (mask | b)) & 0x7FFF
    wide = mask | (mask & _LOW_ACES) << 13 if high else mask
    starts = wide & wide >> 1 & wide >> 2
    covered = starts | starts << 1 | starts << 2
    return mask & (keep * _LANES | covered | (covered & _HIGH_ACES) >> 13)


def _plain_arrangement(mask: int, jokers: int, rules: RuleSet) -> Arrangement | None:
    """The best arrangement of one deck's cards without jokers, as a plain hand (None:
    too many ways, for the sweep); ``jokers``: how many jokers there are, stranded
    (rules without jokers)."""
    a, b, c, d = mask & 0x7FFF, mask >> 16 & 0x7FFF, mask >> 32 & 0x7FFF, mask >> 48
    # ranks held in three suits or more, in every suit's bits; cards three in a row in a
    # suit, by run position (every suit at once: no run crosses a suit's bits 0 and 15)
    keep = (a & b & (c | d)) | (c & d & (a | b))
    sets = keep * _LANES
    found = _plain_scores(rules)
    wide = mask | (mask & _LOW_ACES) << 13 if found[3] else mask
    starts = wide & wide >> 1 & wide >> 2
    covered = starts | starts << 1 | starts << 2
    high = covered & _HIGH_ACES
    meldable = mask & (sets | covered | high >> 13)
    if not meldable:
        return _exact((), _plain_cards(mask) + (JOKER,) * jokers if jokers
                      else _plain_cards(mask), 0)
    # one way only: no card both of a set's rank and of a run, no ace both low and high
    # in its suit; then melding every card that can be, in the fewest melds (each
    # block of a suit as one run, each rank's three or four as one set), is the best
    # arrangement and the only one, with no search
    if not (covered & sets or high >> 13 & (covered | sets)):
        return _plain_unique(mask, mask & ~meldable, keep, covered, jokers, found)
    plain = _Plain(rules)
    try:
        top = plain.best(meldable, plain.ceiling(meldable))
    except SearchTooLarge:
        return None
    plain.work = len(plain.moves) + len(plain.below)
    melds, melded = plain.melds(meldable)
    mask &= ~melded
    # the score's top bits are the melded value (the points kept and the melds counted
    # below them never reach a whole unit of value)
    stranded = _plain_cards(mask)
    if jokers:
        stranded += (JOKER,) * jokers
    return _exact(tuple(melds), stranded, top // _VALUE)


def best_arrangement(cards: Iterable[Card], rules: RuleSet) -> Arrangement:
    """The split of ``cards`` into legal melds with the highest melded value (ties:
    fewer stranded points, then fewer melds).

    Every hand is answered within about ``ARRANGE_CPU_S`` of this thread's CPU time:
    almost always with the best split (``exact``); for the dense hands of two decks with
    jokers that would take longer, with the best split found by then and the most any
    split could meld (``ceiling``).  A split said to be exact is the same however busy
    the machine is; which split is the best found depends on how far the search got."""
    began = _cpu_time()
    bits = [_CARD_BITS[card.suit][card.rank] for card in cards]  # a joker's is 0
    mask = sum(bits)
    jokers = bits.count(0)
    # one deck's cards (no second copy: every bit added once) and no joker in play
    if mask.bit_count() == len(bits) - jokers and (not jokers or not rules.jokers):
        plain = _plain_arrangement(mask, jokers, rules)
        if plain is not None:
            return plain
    start = _sorted(cards)
    naturals = [c for c in start if not c.is_joker]
    built, exact, ceiling = _arrange(rules, naturals, jokers if rules.jokers else 0, began)
    if built is None:  # nothing found at all within the limit (never seen): no melds
        return Arrangement((), start, 0, False, max(ceiling, 0))
    built.melds.sort(key=lambda m: _meld_order(m[0]))
    melds = tuple(reading for reading, _room in built.melds)
    stranded = list(built.stranded)
    if not rules.jokers:
        stranded += [c for c in start if c.is_joker]
    value = sum(reading_value(r, rules) for r in melds)
    return Arrangement(melds, tuple(sorted(stranded, key=_listing_key)), value, exact,
                       None if exact else max(ceiling, value))
