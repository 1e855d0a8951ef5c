"""Counting tests in the OpenSpiel "perft" style: enumerate every distinct multiset of
k cards, ask the referee which are melds, and compare the count with a formula worked
out by hand.

Rules: `meld.set`, `meld.run`, `meld.ace`, `meld.joker`, `meld.min-natural`.

Cards of two decks that are identical copies are the same card identity, and jokers
are identical tokens, so a "multiset" is a count for each of the 52 natural cards (at
most 1 with one deck, 2 with two decks) plus a number of jokers (at most 2 or 4).

How the enumeration stays small
-------------------------------
* k = 3 and 4: brute force over every multiset (at most ~365,000 of them).
* k = 5: every multiset *up to a relabelling of the suits*. The rules treat the four
  suits alike, so a multiset is a meld exactly when any suit-relabelled copy is. Write a
  multiset as four rows (the ranks it holds in each suit) and enumerate only rows in
  non-increasing order; each such choice stands for 4!/prod(m!) multisets (m: how
  often a row repeats). The weights are checked to add up to the number of multisets.
* runs of 6 to 13 cards: only single-suit multisets can be runs (a run is one suit)
  and no multiset of 5 or more cards is a set (a set is at most 4 cards) -- the k = 5
  count checks both facts on every multiset. Single-suit subsets of one deck are
  enumerated exhaustively (2^13 per suit).

The formulas
------------
Positions 1..T in a suit: T = 14 when an ace may be high (the ace is position 1 or 14),
T = 13 in basic. A multiset with s naturals and j = k - s jokers is

* a set iff k <= 4 and the naturals are s distinct suits of one rank: 13*C(4, s) for
  s >= 1 (a joker takes any missing suit);
* a run iff k <= 13 and its naturals are s distinct ranks of one suit that fit in some
  window of k consecutive positions (the jokers fill the rest of the window).
  Per suit, count the rank subsets that fit:
    - no ace among them (ranks 2..13): they fit iff their span d = max - min + 1 is at
      most k (a window of length k <= 13 around them always exists inside 1..T).
      With span exactly d there are 13 - d places for the pair (min, max) inside 2..13
      and C(d - 2, s - 2) choices for the rest: sum over d = s..min(k, 12) of
      (13 - d)*C(d - 2, s - 2); for s = 1 simply 12.
    - an ace and s - 1 others: low (window 1..k) iff the others lie in 2..k, C(k-1, s-1)
      ways; high (window 15-k..14) iff they lie in 15-k..13, C(k-1, s-1) ways; both iff
      they lie in the overlap 15-k..k, which has max(0, 2k - 14) ranks -- subtract
      C(max(0, 2k-14), s-1) so a multiset with two readings is counted once (for s = 1,
      k <= 7 the lone ace is in both lists and the overlap term C(0, 0) = 1 removes it
      once). In basic only the low count applies.
* both a set and a run only when s = 1 and k <= 4 (one natural and jokers): 52 such
  multisets are counted twice above and subtracted once.
* s = 0 (jokers only) is a meld only with `min_natural_cards` = 0, and then it is one
  multiset for each k from 3 to the number of jokers.
* two decks add multisets with a repeated natural; none of them is a meld (a set needs
  different suits, a run different ranks), so only the larger joker count changes the
  total.

E.g. one deck, no jokers, k = 3: sets 13*C(4,3) = 52, runs 4*12 = 48, total 100; runs
of length k: 4*(15 - k) with high and low aces and 4*(14 - k) in basic -- except that
the 13-card multisets are one per suit (A..K and 2..A are the same 13 cards read two
ways), so k = 13 counts 4 in both.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from math import comb, factorial

import pytest

from referee import JOKER, Card, RuleSet, check_meld, make_rules, meld_readings
from referee.cards import RANKS, SUITS
from referee.melds import SEVERAL_READINGS

PAGAT = make_rules("pagat-500")
BASIC = make_rules("basic")
JOKERS_ONLY = make_rules("pagat-500", min_natural_cards=0)

CARD = {(rank, suit): Card(rank, suit) for suit in SUITS for rank in RANKS}
DECK = list(CARD.values())


# ---------------------------------------------------------------------------------------
# the formulas


def runs_per_suit(s: int, k: int, aces_high: bool) -> int:
    """Rank subsets of size s (s >= 1) of one suit that make a k-card run with k - s
    jokers."""
    if not 1 <= s <= k or not 3 <= k <= 13:
        return 0
    if s == 1:
        no_ace = 12
    else:
        no_ace = sum((13 - d) * comb(d - 2, s - 2) for d in range(s, min(k, 12) + 1))
    low = comb(k - 1, s - 1)
    if not aces_high:
        return no_ace + low
    high = comb(k - 1, s - 1)
    both = comb(max(0, 2 * k - 14), s - 1)
    return no_ace + low + high - both


def melds_with_naturals(s: int, k: int, rules: RuleSet) -> int:
    """Multisets of s naturals (one deck) and k - s jokers that have a reading."""
    if s == 0:
        return 1 if rules.min_natural_cards == 0 and k >= 3 else 0
    sets = 13 * comb(4, s) if k <= 4 else 0
    runs = 4 * runs_per_suit(s, k, rules.aces_high)
    both = 52 if s == 1 and k <= 4 else 0
    return sets + runs - both


def expected(k: int, jokers: int, rules: RuleSet) -> int:
    """Melds among all multisets of k >= 3 cards with at most ``jokers`` jokers."""
    return sum(melds_with_naturals(k - j, k, rules) for j in range(min(k, jokers) + 1))


def test_the_formula_gives_the_well_known_numbers() -> None:
    assert expected(3, 0, PAGAT) == 52 + 48 == 100
    assert expected(3, 0, BASIC) == 52 + 44
    assert expected(4, 0, PAGAT) == 13 + 4 * 11
    assert [4 * runs_per_suit(k, k, True) for k in range(3, 13)] == [4 * (15 - k)
                                                                      for k in range(3, 13)]
    assert [4 * runs_per_suit(k, k, False) for k in range(3, 14)] == [4 * (14 - k)
                                                                       for k in range(3, 14)]
    assert runs_per_suit(13, 13, True) == 1  # the whole suit, read two ways


# ---------------------------------------------------------------------------------------
# enumeration


def multisets(k: int, jokers: int, copies: int) -> Iterator[list[Card]]:
    """Every multiset of k cards: each natural at most ``copies`` times, at most
    ``jokers`` jokers."""
    for j in range(min(k, jokers) + 1):
        n = k - j
        indices = (itertools.combinations(range(52), n) if copies == 1
                   else itertools.combinations_with_replacement(range(52), n))
        for chosen in indices:
            # sorted indices: a card three times shows as chosen[i] == chosen[i + 2]
            if copies == 2 and any(chosen[i] == chosen[i + 2] for i in range(n - 2)):
                continue
            yield [DECK[i] for i in chosen] + [JOKER] * j


def rank_rows(size: int, copies: int) -> list[tuple[int, ...]]:
    """Every multiset of ranks of at most ``size`` cards (each rank at most ``copies``
    times), largest first: the possible contents of one suit."""
    rows = []
    for n in range(size, -1, -1):
        for row in itertools.combinations_with_replacement(RANKS, n):
            if max(Counter(row).values(), default=0) <= copies:
                rows.append(row)
    return rows


def up_to_suits(s: int, copies: int) -> Iterator[tuple[list[Card], int]]:
    """Every multiset of s naturals up to a relabelling of the suits, with the number of
    multisets it stands for."""
    rows = rank_rows(s, copies)
    cards = [[tuple(CARD[rank, suit] for rank in row) for suit in SUITS] for row in rows]

    def pick(start: int, slot: int, left: int, chosen: list[int]
             ) -> Iterator[tuple[list[Card], int]]:
        if slot == 4:
            if left == 0:
                weight = factorial(4)
                for repeats in Counter(chosen).values():
                    weight //= factorial(repeats)
                yield [c for i, index in enumerate(chosen) for c in cards[index][i]], weight
            return
        for index in range(start, len(rows)):
            n = len(rows[index])
            if n > left:
                continue
            if n * (4 - slot) < left:  # the later rows are no longer than this one
                break
            chosen.append(index)
            yield from pick(index, slot + 1, left - n, chosen)
            chosen.pop()

    yield from pick(0, 0, s, [])


def count_by_brute_force(k: int, jokers: int, copies: int, rules: RuleSet) -> int:
    return sum(1 for cards in multisets(k, jokers, copies) if meld_readings(cards, rules))


def multiset_total(s: int, copies: int) -> int:
    """How many multisets of s naturals there are (coefficient of x^s in
    (1 + x + ... + x^copies)^52)."""
    if copies == 1:
        return comb(52, s)
    # choose t cards that appear twice and s - 2t that appear once
    return sum(comb(52, t) * comb(52 - t, s - 2 * t) for t in range(s // 2 + 1))


# ---------------------------------------------------------------------------------------
# brute force, k = 3 and 4


@pytest.mark.parametrize(
    ("k", "jokers", "copies", "rules", "count"),
    [
        (3, 0, 1, PAGAT, 100),
        (3, 2, 1, PAGAT, 330),
        (3, 0, 1, BASIC, 96),
        (3, 0, 2, PAGAT, 100),
        (3, 4, 2, PAGAT, 330),
        (3, 4, 2, JOKERS_ONLY, 331),
        (4, 0, 1, PAGAT, 57),
        (4, 2, 1, PAGAT, 467),
        (4, 0, 1, BASIC, 53),
        (4, 4, 2, PAGAT, 519),
        (4, 4, 2, JOKERS_ONLY, 520),
    ],
)
def test_every_multiset_of_three_and_four(k: int, jokers: int, copies: int, rules: RuleSet,
                                          count: int) -> None:
    """`meld.set` `meld.run` `meld.ace` `meld.joker` `meld.min-natural`: brute force over
    every multiset of 3 or 4 cards from one or two decks."""
    assert expected(k, jokers, rules) == count
    assert count_by_brute_force(k, jokers, copies, rules) == count


def test_check_meld_agrees_with_meld_readings_on_every_three_card_multiset() -> None:
    """`meld.joker`: check_meld is legal exactly when meld_readings finds a reading, and
    ambiguous exactly when it finds several."""
    for cards in multisets(3, 2, 1):
        found = meld_readings(cards, PAGAT)
        verdict = check_meld(cards, PAGAT)
        assert verdict.legal == bool(found)
        if found:
            assert (verdict.code in SEVERAL_READINGS) == (len(found) > 1)
            assert tuple(found) == verdict.detail["readings"]


# ---------------------------------------------------------------------------------------
# up to suit relabelling, k = 5


@pytest.mark.parametrize("copies", [1, 2])
def test_the_suit_relabelling_weights_cover_every_multiset(copies: int) -> None:
    for s in (3, 4):
        assert sum(w for _, w in up_to_suits(s, copies)) == multiset_total(s, copies)
    for s in (3, 4) if copies == 1 else (3,):
        brute = sum(1 for cards in multisets(s, 0, copies) if meld_readings(cards, PAGAT))
        weighted = sum(w for cards, w in up_to_suits(s, copies) if meld_readings(cards, PAGAT))
        assert brute == weighted


@pytest.mark.parametrize(
    ("jokers", "copies", "rules", "count"),
    [
        (0, 1, PAGAT, 40),
        (2, 1, PAGAT, 460),
        (0, 1, BASIC, 36),
        (4, 2, PAGAT, 696),
    ],
)
def test_every_multiset_of_five(jokers: int, copies: int, rules: RuleSet, count: int) -> None:
    """`meld.run` `meld.set` `meld.joker` `meld.ace`: every 5-card multiset (no set has
    5 cards; only runs and, with min_natural_cards 0, five jokers)."""
    assert expected(5, jokers, rules) == count
    found = total = 0
    for j in range(min(5, jokers) + 1):
        for naturals, weight in up_to_suits(5 - j, copies):
            total += weight
            if meld_readings([*naturals, *([JOKER] * j)], rules):
                found += weight
    assert total == sum(multiset_total(5 - j, copies) for j in range(min(5, jokers) + 1))
    assert found == count


# ---------------------------------------------------------------------------------------
# long runs


def single_suit_subsets() -> Iterator[list[Card]]:
    for suit in SUITS:
        for mask in range(1, 1 << 13):
            yield [CARD[rank, suit] for rank in RANKS if mask >> (rank - 1) & 1]


@pytest.mark.parametrize("rules", [PAGAT, BASIC], ids=["aces-high-or-low", "basic"])
def test_runs_of_naturals_up_to_thirteen(rules: RuleSet) -> None:
    """`meld.run` `meld.ace`: single-suit runs of k naturals number 4*(15-k) (4*(14-k) in
    basic) for k <= 12, and 4 for k = 13 (the whole suit)."""
    found: Counter[int] = Counter()
    for cards in single_suit_subsets():
        if len(cards) >= 3 and meld_readings(cards, rules):
            found[len(cards)] += 1
    for k in range(3, 14):
        assert found[k] == 4 * runs_per_suit(k, k, rules.aces_high)
        if k <= 12:
            assert found[k] == 4 * (15 - k if rules.aces_high else 14 - k)
    assert found[13] == 4
    whole = [CARD[rank, "S"] for rank in RANKS]
    assert len(meld_readings(whole, rules)) == (2 if rules.aces_high else 1)


@pytest.mark.parametrize("jokers", [1, 2])
def test_runs_with_jokers_up_to_thirteen(jokers: int) -> None:
    """`meld.run` `meld.joker`: s naturals of one suit and j jokers make a run of
    k = s + j <= 13 cards exactly as often as the formula says."""
    found: Counter[tuple[int, int]] = Counter()
    for cards in single_suit_subsets():
        s = len(cards)
        if s + jokers <= 13 and meld_readings([*cards, *([JOKER] * jokers)], PAGAT):
            found[s, s + jokers] += 1
    for s in range(1, 14 - jokers):
        assert found[s, s + jokers] == 4 * runs_per_suit(s, s + jokers, True), s


def test_no_meld_of_fourteen() -> None:
    """`meld.ace`: a run is at most 13 cards long, whatever the jokers."""
    whole = [CARD[rank, "H"] for rank in RANKS]
    assert meld_readings([*whole, JOKER], PAGAT) == []
    assert meld_readings([*whole[1:], JOKER, JOKER], PAGAT) == []
    assert meld_readings([*whole[1:], JOKER], PAGAT) != []
