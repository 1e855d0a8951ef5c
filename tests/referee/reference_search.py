"""The meld search the referee used before issue 17 (with issue 11's ``new_meld``), kept
as an oracle for the tests.

It tries every way to meld the lowest card left (or strand it), remembering the cards
left, so it is exact but exponential: fine for the small random hands the tests give
it, and the standard the bounded search in ``referee/arrange.py`` is held to (same
value, same stranded points, same number of melds; the same plan feasibility; the same
ways to meld a card).  Kept verbatim but for its imports; do not use it in the site.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from referee.cards import JOKER, SUITS, Card, joker_as, natural_card
from referee.melds import RUN, SET, Reading, card_at, card_value, max_position, reading_value
from referee.rules import RuleSet
from referee.table import LayoffTarget, Table, TableMeld, fits, place

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
            end = "low"
            span = reading.high - pos + 1
        elif pos > reading.high + 1 and pos <= top:
            gap = list(range(reading.high + 1, pos))
            end = "high"
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
    if limit == 1:
        best = _first_way(card, pool, table, rules, new_meld_only, direct_only)
        return [] if best is None else [best]
    ways: list[Way] = []
    if not direct_only:
        seen: set[tuple[Card, ...]] = set()
        for reading, _used in melds_containing(card, pool, rules):
            if reading.cards in seen:
                continue
            seen.add(reading.cards)
            ways.append(Way("meld", reading.cards))
    if not new_meld_only:
        ways += _layoff_ways(card, pool, table, rules, direct_only)
    ways.sort(key=_way_key)
    return ways[:limit]


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


def _first_way(card: Card, pool: Pool, table: Table, rules: RuleSet, new_meld_only: bool,
               direct_only: bool) -> Way | None:
    """``ways_to_meld(..., limit=1)[0]`` without making the ways that cannot come first
    (the Rummy! call and going-out searches ask only whether, and one way how)."""
    layoffs = [] if new_meld_only else _layoff_ways(card, pool, table, rules, direct_only)
    best = min(layoffs, key=_way_key, default=None)  # min(): the first of the best
    if direct_only:
        return best
    # a new meld has three cards or more, and a joker card concerned is one of its jokers:
    # when a lay-off already sorts before that, no new meld can come first
    if best is not None and (1 if card.is_joker else 0, 3, False) > _way_key(best):
        return best
    first: Way | None = None
    first_key = (0, 0, False)
    seen: set[tuple[Card, ...]] = set()
    # a meld with a joker where the pool has the natural sorts after the same meld
    # with the natural, so those are not made (except for a joker card concerned,
    # which must itself be one of the meld's jokers)
    for reading, _used in melds_containing(card, pool, rules, fewest_jokers=True):
        if reading.cards in seen:
            continue
        seen.add(reading.cards)
        way = Way("meld", reading.cards)
        key = _way_key(way)
        if first is None or key < first_key:
            first, first_key = way, key
    if first is None or (best is not None and _way_key(best) < first_key):
        return best
    return first


def can_meld(card: Card, pool: Pool, table: Table, rules: RuleSet, **options: bool) -> bool:
    return bool(ways_to_meld(card, pool, table, rules, limit=1, **options))


# ---------------------------------------------------------------------------------------
# every card (going out) and the best arrangement


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a plan: a new meld (``meld_id`` None) or a chain of lay-offs."""

    cards: tuple[Card, ...]
    meld_id: str | None = None

    def __str__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        return f"{cards} on {self.meld_id}" if self.meld_id else cards


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted((c.natural for c in cards),
                        key=lambda c: (c.is_joker, c.suit, c.rank)))


def _without(remaining: tuple[Card, ...], used: Pool) -> tuple[Card, ...]:
    left = used.copy()
    out = []
    for c in remaining:
        if left[c]:
            left[c] -= 1
        else:
            out.append(c)
    return tuple(out)


def _moves(remaining: tuple[Card, ...], table: Table, rules: RuleSet
           ) -> Iterator[tuple[Step, tuple[Card, ...], Table, bool]]:
    """Each way the first remaining card can be melded: (step, what remains, the
    table after, whether the step is a new meld)."""
    card, rest = remaining[0], remaining[1:]
    pool = Counter(rest)
    for meld in table:
        for steps, used in layoff_chains(card, pool, meld, rules):
            after = lay_off_chain(table, steps, None)
            yield Step(tuple(s.card for s in steps), meld.id), _without(rest, used), after, False
    for reading, used in melds_containing(card, pool, rules):
        yield Step(reading.cards), _without(rest, used), table, True


def meld_all(cards: Iterable[Card], table: Table, rules: RuleSet,
             max_new_melds: int | None = None, *, new_meld: Card | None = None
             ) -> list[Step] | None:
    """A plan that melds every card (new melds and lay-offs on ``table``), or None.

    ``max_new_melds`` limits the new melds (``meld.once-per-turn``).  ``new_meld`` is a
    card that must go into a new meld of the plan, not be laid off (``draw.deep-new-meld``:
    the deepest card taken from the pile); with two decks either copy of it will do."""
    want = new_meld.natural if new_meld is not None else None
    failed: set[tuple[tuple[Card, ...], Table, int | None, bool]] = set()

    def search(remaining: tuple[Card, ...], table: Table, budget: int | None, need: bool
               ) -> list[Step] | None:
        if not remaining:
            return None if need else []
        if need and want not in remaining:
            return None
        key = (remaining, table, budget, need)
        if key in failed:
            return None
        for step, rest, after, is_new in _moves(remaining, table, rules):
            left = budget
            if is_new and budget is not None:
                if budget == 0:
                    continue
                left = budget - 1
            still = need and not (is_new and any(c.natural == want for c in step.cards))
            plan = search(rest, after, left, still)
            if plan is not None:
                return [step, *plan]
        failed.add(key)
        return None

    start = _sorted(cards)
    if want is not None and want in start:
        # place that card first: its new meld is settled at the first step, and the
        # rest is searched as without the constraint
        i = start.index(want)
        start = (want, *start[:i], *start[i + 1:])
    return search(start, table, max_new_melds, want is not None)


@dataclass(frozen=True)
class Arrangement:
    """Cards split into melds; ``stranded`` could not be melded."""

    melds: tuple[Reading, ...]
    stranded: tuple[Card, ...]
    value: int

    @property
    def complete(self) -> bool:
        return not self.stranded


def best_arrangement(cards: Iterable[Card], rules: RuleSet) -> Arrangement:
    """The split of ``cards`` into legal melds with the highest melded value
    (ties: fewer stranded points, then fewer melds)."""
    start = _sorted(cards)
    # The cards still to place are a subsequence of ``start``, kept as a bit mask of
    # their indices (bit i: start[i]) so that remembering a state hashes one int, not a
    # tuple of cards.

    def without(rest: int, used: Pool) -> int:
        """``rest`` less the cards ``used``, earliest first (``_without``)."""
        left = used.copy()
        index = 0
        bits = rest
        while bits:
            if bits & 1 and left[start[index]]:
                left[start[index]] -= 1
                rest &= ~(1 << index)
            bits >>= 1
            index += 1
        return rest

    @cache
    def best(remaining: int) -> tuple[int, int, int, tuple[Reading, ...]]:
        # (melded value, -stranded points, -melds, melds)
        if not remaining:
            return 0, 0, 0, ()
        first = (remaining & -remaining).bit_length() - 1
        card, rest = start[first], remaining & ~(1 << first)
        value, stranded, count, melds = best(rest)
        top = (value, stranded - card_value(card, rules), count, melds)
        pool = Counter(start[i] for i in range(first + 1, len(start)) if rest >> i & 1)
        for reading, used in melds_containing(card, pool, rules):
            v, s, n, m = best(without(rest, used))
            option = (v + reading_value(reading, rules), s, n - 1, (reading, *m))
            if option[:3] > top[:3]:
                top = option
        return top

    value, _s, _n, melds = best((1 << len(start)) - 1)
    used = Counter(c.natural for r in melds for c in r.cards)
    stranded = []
    for c in start:
        if used[c]:
            used[c] -= 1
        else:
            stranded.append(c)
    return Arrangement(tuple(melds), tuple(stranded), value)
