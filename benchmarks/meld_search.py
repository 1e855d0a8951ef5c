"""The meld search: ``.venv/bin/python benchmarks/meld_search.py``.

Times "Group my cards" (``best_arrangement``) against RLCard's gin rummy meld finder on
the same hands (``pip install -e '.[bench]'``), then hunts for the slowest hands it can
find, for the best arrangement and for the going-out check (``meld_all``), at every size
up to the largest hand a game allows, and prints the slowest of each.

* **RLCard rows.** RLCard has no jokers and aces low only, so both sides get hands of
  one deck under Basic Rummy rules (J/Q/K 10, ace 1), where "most melded value" and
  "least deadwood" are the same thing.  The baseline is a correct exhaustive search
  over RLCard's own melds: ``get_all_run_melds`` and ``get_all_set_melds`` list every
  meld of the hand, and every combination of disjoint melds, of any number, is tried
  for the least deadwood (RLCard's own ``get_meld_clusters`` stops at three melds, and
  so gets some 13-card hands wrong).  Each row counts the hands on which the two
  disagree on the best value (it must be none).  Timing is CPU time
  (``time.process_time``), both sides measured in turns, best of several rounds, so a
  busy machine slows both alike.
* **The hunt.** For each size, random hands of two decks with four jokers (500 Rum with
  five players or more), then a hill climb from the slowest: swap one card for another
  of a dense window of ranks, keep the swap if the search got slower, by the work it
  counts (deterministic; time is printed beside it).  Going out gets a table of melds
  too, and hands built from melds and lay-offs (which often can go out).
* **The limits.** The best arrangement answers every hand: past
  ``referee.arrange.ARRANGE_CPU_S`` of its thread's CPU time with the best split found
  so far, not proven best; those hands are counted ("not exact").  The going-out check stops past
  ``referee.arrange.SEARCH_LIMIT`` steps and raises ``SearchTooLarge`` (the API answers
  422 at once); those hands are counted ("refused"), with the time the refusal took.
* **Thirty and forty cards.** Many random and dense 30- and 40-card hands
  (``--share``): the share answered exactly (the rest: the best found within the
  bound) and the CPU time of the thread per question (``time.thread_time``: median,
  95th percentile, worst).  ``--share-only`` runs only this; ``--budget-ms`` sets
  ``ARRANGE_CPU_S`` for the run; ``--check`` asks each hand again with no bound (not
  timed): an exact answer must be the same split, a best-found one is so many points
  short of the best.

``--before`` also times the search the referee used before (kept in
``tests/referee/reference_search.py``) on the RLCard rows and on random hands of the hunt
sizes that it can finish (it is exponential: the issue measured 53 s for a 26-card
hand).  ``--quick`` makes a short run.  The exit status is 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import referee.arrange as arrange  # noqa: E402 - after the path is set
from referee import (  # noqa: E402
    Card,
    Table,
    best_arrangement,
    make_meld,
    make_rules,
    meld_all,
)
from referee.arrange import SearchTooLarge, melds_containing, pool_of  # noqa: E402
from referee.cards import SUITS, full_deck  # noqa: E402
from referee.melds import card_value  # noqa: E402
from referee.table import layoff_targets, place  # noqa: E402

#: the CPU time one question may take at most, on a busy 2-core machine: the best
#: arrangement (ARRANGE_CPU_S of its thread's CPU time, looked at every _CHECK_EVERY
#: steps, so a few ms over at most) and going out (SEARCH_LIMIT steps of about 0.5 µs
#: on a quiet machine; set in main from the bound)
BUDGET_MS = {"best": 110.0, "out": 100.0}
BASIC = make_rules("basic")
PAGAT = make_rules("pagat-500")


def clock(func: Callable[[], Any]) -> float:
    start = time.process_time()
    func()
    return time.process_time() - start


def machine() -> str:
    load = ", load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    return (f"{time.strftime('%Y-%m-%d %H:%M')}, {platform.machine()}, nproc "
            f"{os.cpu_count()}, Python {platform.python_version()} "
            f"({platform.python_implementation()}){load}")


def largest_hand() -> tuple[int, str]:
    """The most cards a player can hold (``RULES.md``): the cards dealt, plus the whole
    discard pile taken in one deep draw (``draw.deep``) when the stock has run out and
    nobody has melded: every card that is not in another player's hand.  Basic Rummy
    takes only the top card (``draw.basic``)."""
    best = (0, "")
    for family in ("pagat-500", "rummy-500", "basic"):
        rules = make_rules(family)
        for players in range(rules.min_players, rules.max_players + 1):
            dealt = rules.cards_dealt(players)
            if rules.deep_draws:
                held = rules.deck_size(players) - (players - 1) * dealt
            else:
                held = dealt + 1
            if held > best[0]:
                best = (held, f"{family}, {players} players: {dealt} dealt + "
                              f"{held - dealt} taken from the discard pile")
    return best


# ---------------------------------------------------------------------------------------
# against RLCard


def dense_hand(rng: random.Random, size: int, width: int) -> list[Card]:
    """``size`` of the ``4 * width`` cards of ``width`` consecutive ranks (one deck)."""
    low = rng.randint(1, 14 - width)
    window = [c for c in full_deck(jokers=0) if low <= c.rank < low + width]
    return rng.sample(window, size)


@dataclass
class Comparison:
    label: str
    ours: float  # microseconds per hand
    theirs: float
    disagree: int
    hands: int
    target: float  # ours / theirs must be at most this

    @property
    def ratio(self) -> float:
        return self.ours / self.theirs

    @property
    def met(self) -> bool:
        return self.ratio <= self.target


def rlcard_exhaustive() -> Callable[[list[Any]], int] | None:
    """The baseline: the least deadwood of a hand by a correct exhaustive search over
    RLCard's own melds (``get_all_run_melds`` and ``get_all_set_melds``, which list every
    run and every set of the hand), every combination of disjoint melds tried, of any
    number (RLCard's ``get_meld_clusters`` stops at three melds, so its own answer is
    wrong on some 13-card hands, which can hold four).  None without RLCard."""
    try:
        from rlcard.games.gin_rummy.utils import melding
        from rlcard.games.gin_rummy.utils import utils as gin
    except ImportError:
        return None

    def least_deadwood(hand: list[Any]) -> int:
        melds = melding.get_all_run_melds(hand) + melding.get_all_set_melds(hand)
        cards = [frozenset(meld) for meld in melds]
        values = [sum(gin.get_deadwood_value(c) for c in meld) for meld in melds]
        count = len(cards)
        best = 0
        chosen: list[int] = []
        best_melds: list[int] = []

        def extend(start: int, used: frozenset[Any], value: int) -> None:
            nonlocal best, best_melds
            if value > best:
                best = value
                best_melds = list(chosen)
            for i in range(start, count):
                if used.isdisjoint(cards[i]):
                    chosen.append(i)
                    extend(i + 1, used | cards[i], value + values[i])
                    chosen.pop()

        extend(0, frozenset(), 0)
        # the answer, as ours gives it: the melds and the deadwood
        found = [melds[i] for i in best_melds]
        assert sum(len(meld) for meld in found) <= len(hand)
        return sum(gin.get_deadwood_value(c) for c in hand) - best

    return least_deadwood


def to_rlcard(card: Card) -> Any:
    from rlcard.games.gin_rummy.utils import utils as gin

    return gin.get_card(card.rank - 1 + 13 * {"S": 0, "H": 1, "D": 2, "C": 3}[card.suit])


def against_rlcard(rounds: int, count: int, before: bool) -> list[Comparison] | None:
    least_deadwood = rlcard_exhaustive()
    if least_deadwood is None:
        return None
    rng = random.Random(500)
    sets = [
        ("random 10-card hands", [rng.sample(full_deck(jokers=0), 10) for _ in range(count)]),
        ("dense 10-card hands (10 of the 12 cards of 3 ranks)",
         [dense_hand(rng, 10, 3) for _ in range(count)]),
        ("random 13-card hands", [rng.sample(full_deck(jokers=0), 13) for _ in range(count)]),
        ("dense 13-card hands (13 of the 16 cards of 4 ranks)",
         [dense_hand(rng, 13, 4) for _ in range(count)]),
        ("random 20-card hands", [rng.sample(full_deck(jokers=0), 20)
                                  for _ in range(count // 2)]),
        ("dense 16-card hands (16 of the 20 cards of 5 ranks)",
         [dense_hand(rng, 16, 5) for _ in range(count // 4)]),
        ("random 30-card hands", [rng.sample(full_deck(jokers=0), 30)
                                  for _ in range(count // 8)]),
        ("dense 20-card hands (20 of the 24 cards of 6 ranks)",
         [dense_hand(rng, 20, 6) for _ in range(count // 16)]),
    ]
    rows = []
    for label, hands in sets:
        theirs_hands = [[to_rlcard(c) for c in hand] for hand in hands]

        def theirs(hs: list[list[Any]] = theirs_hands) -> None:
            for hand in hs:
                least_deadwood(hand)

        def ours(hs: list[list[Card]] = hands) -> None:
            for hand in hs:
                best_arrangement(hand, BASIC)

        # in turns, each side's best of the rounds: a busy machine slows both alike
        best_ours = best_theirs = float("inf")
        for _ in range(rounds):
            best_ours = min(best_ours, clock(ours))
            best_theirs = min(best_theirs, clock(theirs))
        disagree = 0
        for hand, their_hand in zip(hands, theirs_hands):
            total = sum(card_value(c, BASIC) for c in hand)
            if best_arrangement(hand, BASIC).value != total - least_deadwood(their_hand):
                disagree += 1
        rows.append(Comparison(label, best_ours / len(hands) * 1e6,
                               best_theirs / len(hands) * 1e6, disagree, len(hands), 1 / 3))
        if before:
            from tests.referee import reference_search as old

            def old_search(hs: list[list[Card]] = hands) -> None:
                for hand in hs:
                    old.best_arrangement(hand, BASIC)

            spent = min(clock(old_search) for _ in range(max(1, rounds // 3)))
            rows.append(Comparison(f"  (before) {label}", spent / len(hands) * 1e6,
                                   best_theirs / len(hands) * 1e6, 0, len(hands), float("inf")))
    return rows


def bytecodes(count: int) -> list[tuple[str, float]]:
    """The Python bytecodes ``best_arrangement`` runs per hand on the RLCard rows' kinds of
    hands (fewer of them): a measure of our side's work that a busy machine does not
    change (CPU time per bytecode does, and not alike for both sides)."""
    rng = random.Random(500)
    kinds = [("random 10", lambda: rng.sample(full_deck(jokers=0), 10)),
             ("dense 10", lambda: dense_hand(rng, 10, 3)),
             ("random 13", lambda: rng.sample(full_deck(jokers=0), 13)),
             ("dense 13", lambda: dense_hand(rng, 13, 4)),
             ("random 20", lambda: rng.sample(full_deck(jokers=0), 20)),
             ("dense 16", lambda: dense_hand(rng, 16, 5))]
    counted = [0]

    def trace(frame: Any, event: str, _arg: Any) -> Any:
        if event == "call":
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
        elif event == "opcode":
            counted[0] += 1
        return trace

    out = []
    for label, deal in kinds:
        hands = [deal() for _ in range(count)]
        for hand in hands:  # the tables made on first use, made
            best_arrangement(hand, BASIC)
        counted[0] = 0
        sys.settrace(trace)
        try:
            for hand in hands:
                best_arrangement(hand, BASIC)
        finally:
            sys.settrace(None)
        out.append((label, counted[0] / count))
    return out


# ---------------------------------------------------------------------------------------
# the hunt


TWO_DECKS = [c for _ in range(2) for c in full_deck(jokers=2)]


@dataclass
class Trial:
    work: int
    ms: float
    refused: bool
    cards: list[Card]
    table: Table
    answer: str
    exact: bool = True


_SEARCHES: list[Any] = []


def _count_work() -> None:
    """Keep every search made, to add up the work each question took."""
    for kind in (arrange._Sweep, arrange._Plain):
        init = kind.__init__

        def counted(self: Any, *args: Any, _init: Any = init, **kwargs: Any) -> None:
            _init(self, *args, **kwargs)
            _SEARCHES.append(self)

        kind.__init__ = counted  # type: ignore[method-assign]


def _timed(ask: Callable[[], str], cards: list[Card], table: Table) -> Trial:
    _SEARCHES.clear()
    start = time.thread_time()  # the CPU time of this thread: what the bound counts
    refused = False
    answer = ""
    try:
        answer = ask()
    except SearchTooLarge:
        refused = True
    ms = (time.thread_time() - start) * 1000
    return Trial(sum(search.work for search in _SEARCHES), ms, refused, cards, table, answer,
                 not answer.endswith("(best found)"))


def run_best(cards: list[Card], table: Table) -> Trial:
    def ask() -> str:
        found = best_arrangement(cards, PAGAT)
        shown = f"value {found.value}, {len(found.stranded)} stranded"
        return shown if found.exact else f"{shown}, at most {found.ceiling} (best found)"

    return _timed(ask, cards, table)


def run_out(cards: list[Card], table: Table) -> Trial:
    def ask() -> str:
        return "can go out" if meld_all(cards, table, PAGAT) is not None else "cannot go out"

    return _timed(ask, cards, table)


def random_table(rng: random.Random, cards: list[Card]) -> Table:
    """Up to six melds of the two decks on the table, taken out of ``cards``."""
    melds = []
    for i in range(rng.randint(0, 6)):
        for _ in range(30):
            if rng.random() < 0.6:
                suit, low = rng.choice(SUITS), rng.randint(1, 12)
                want = [Card(1 if r == 14 else r, suit)
                        for r in range(low, low + rng.randint(3, 5)) if r <= 14]
            else:
                rank = rng.randint(1, 13)
                want = [Card(rank, s) for s in rng.sample(SUITS, rng.choice([3, 4]))]
            if len(want) >= 3 and all(want.count(c) <= cards.count(c) for c in want):
                try:
                    meld = make_meld(f"m{i}", want, PAGAT, "X")
                except ValueError:
                    continue
                for c in want:
                    cards.remove(c)
                melds.append(meld)
                break
    return Table(tuple(melds))


def meldable_hand(rng: random.Random, table: Table, cards: list[Card], size: int
                  ) -> list[Card]:
    """A hand of new melds and lay-offs, the kind a player going out holds."""
    hand: list[Card] = []
    tries = 0
    while len(hand) < size and tries < 200 and cards:
        tries += 1
        card = rng.choice(cards)
        if rng.random() < 0.4 and len(table):
            targets = layoff_targets(table, card, PAGAT)
            if targets:
                target = rng.choice(targets)
                table = table.with_meld(place(table.get(target.meld_id), target, None))
                cards.remove(card)
                hand.append(card)
            continue
        if card.is_joker:
            if rng.random() < 0.3:
                cards.remove(card)
                hand.append(card)
            continue
        rest = pool_of(cards)
        rest[card] -= 1
        options = []
        for _reading, used in melds_containing(card, rest, PAGAT):
            options.append(used)
            if len(options) > 12:
                break
        if options:
            used = rng.choice(options)
            if len(hand) + 1 + sum(used.values()) > size:
                continue
            cards.remove(card)
            hand.append(card)
            for other, count in used.items():
                for _ in range(count):
                    cards.remove(other)
                    hand.append(other)
    while len(hand) < size and cards:
        hand.append(cards.pop())
    return hand


def window(rng: random.Random, cards: Sequence[Card] = TWO_DECKS) -> list[Card]:
    """The cards of a few consecutive ranks (and the aces) and the jokers: the hands
    where runs and sets overlap most."""
    low = rng.randint(1, 9)
    width = rng.randint(4, 8)
    return [c for c in cards if c.is_joker or c.rank == 1 or low <= c.rank < low + width]


@dataclass
class Hunt:
    random: list[Trial]  # hands dealt from the two decks at random
    dense: list[Trial]  # hands from a window of a few ranks (and built to go out)
    worst: Trial  # the slowest after the hill climb
    climbed: int
    climb_refused: int  # refused (going out) or not exact (best arrangement)


def dealt(rng: random.Random, kind: str, size: int, i: int) -> tuple[list[Card], Table]:
    """The ``i``-th hand of ``size`` cards the hunt deals: at random (even ``i``), or
    mostly from a dense window of ranks (odd), or built to go out; with a table of
    melds for going out."""
    deck = list(TWO_DECKS)
    rng.shuffle(deck)
    table = random_table(rng, deck) if kind == "out" else Table()
    if i % 2 == 0:
        cards = rng.sample(deck, min(size, len(deck)))
    elif kind == "out" and i % 4 == 1:
        cards = meldable_hand(rng, table, list(deck), size)
    else:
        source = window(rng, deck)
        cards = rng.sample(source, min(size, len(source)))
        left = list(deck)
        for card in cards:
            left.remove(card)
        while len(cards) < size and left:
            cards.append(left.pop())
    return cards, table


def hunt(kind: str, size: int, samples: int, climb: int, seed: int) -> Hunt:
    """Random and dense hands of ``size`` cards, then a hill climb from the slowest."""
    rng = random.Random(seed * 1000 + size)
    run = run_best if kind == "best" else run_out
    plain: list[Trial] = []
    dense: list[Trial] = []
    for i in range(samples):
        cards, table = dealt(rng, kind, size, i)
        (plain if i % 2 == 0 else dense).append(run(cards, table))
    worst = max(plain + dense, key=lambda t: (t.work, t.ms))
    cards, table = worst.cards, worst.table
    source = window(rng)
    refused = 0
    for _ in range(climb):
        candidate = list(cards)
        index = rng.randrange(len(candidate))
        counts: dict[Card, int] = {}
        for c in (*candidate, *table.cards()):
            counts[c.natural] = counts.get(c.natural, 0) + 1
        spare = [c for c in source if counts.get(c, 0) < (4 if c.is_joker else 2)]
        if not spare:
            break
        candidate[index] = rng.choice(spare)
        trial = run(candidate, table)
        refused += trial.refused or not trial.exact
        if (trial.work, trial.ms) > (worst.work, worst.ms):
            worst, cards = trial, candidate
    return Hunt(plain, dense, worst, climb, refused)


def summary(trials: list[Trial]) -> str:
    done = [t for t in trials if not t.refused]
    slowest = max((t.ms for t in done), default=0.0)
    refused = sum(1 for t in trials if t.refused or not t.exact)
    return f"{fmt_ms(slowest):>9} | {refused:3}/{len(trials):<3}"


@dataclass
class Share:
    kind: str
    size: int
    hands: int
    exact: int
    median_ms: float
    p95_ms: float
    worst_ms: float
    worst_work: int
    short: list[int]  # best found: the points short of the best split (--check)
    differ: int  # exact answers unlike the unbounded search's (--check): must be none


def exact_share(size: int, count: int, seed: int, check: bool = False) -> list[Share]:
    """``count`` random and ``count`` dense hands of ``size`` cards (two decks, four
    jokers): how many get the best split, and the CPU time of each question; with
    ``check``, each hand again with no bound (not timed): an exact answer must be the
    same split, a best-found one is short of the best by some points."""
    rng = random.Random(seed * 7919 + size)
    trials: dict[str, list[Trial]] = {"random": [], "dense": []}
    short: dict[str, list[int]] = {"random": [], "dense": []}
    differ = {"random": 0, "dense": 0}
    for i in range(2 * count):
        kind = "random" if i % 2 == 0 else "dense"
        cards, table = dealt(rng, "best", size, i)
        trials[kind].append(run_best(cards, table))
        if check:
            bound = arrange.ARRANGE_CPU_S
            found = best_arrangement(cards, PAGAT)  # not the timed one: the same hand again
            arrange.ARRANGE_CPU_S = 10.0**6
            try:
                best = best_arrangement(cards, PAGAT)
            finally:
                arrange.ARRANGE_CPU_S = bound
            if found.exact:
                differ[kind] += (found.melds, found.stranded) != (best.melds, best.stranded)
            else:
                short[kind].append(best.value - found.value)
    out = []
    for kind, found in trials.items():
        times = sorted(t.ms for t in found)
        out.append(Share(kind, size, len(found), sum(1 for t in found if t.exact),
                         times[len(times) // 2], times[min(len(times) - 1,
                                                           (95 * len(times)) // 100)],
                         times[-1], max(t.work for t in found), sorted(short[kind]),
                         differ[kind]))
    return out


def before_times(sizes: Sequence[int], count: int, cap_s: float) -> list[tuple[int, float, int]]:
    """The old exhaustive search on random two-deck hands with jokers: the slowest of
    ``count`` hands per size, stopping a size once one hand takes more than ``cap_s``."""
    from tests.referee import reference_search as old

    out = []
    rng = random.Random(17)
    for size in sizes:
        slowest = 0.0
        done = 0
        for _ in range(count):
            hand = rng.sample(TWO_DECKS, size)
            spent = clock(lambda hand=hand: old.best_arrangement(hand, PAGAT))
            slowest = max(slowest, spent)
            done += 1
            if spent > cap_s:
                break
        out.append((size, slowest * 1000, done))
        if slowest > cap_s:
            break
    return out


# ---------------------------------------------------------------------------------------


def shares(count: int, seed: int, missed: list[str], check: bool = False) -> None:
    """The share of 30- and 40-card hands answered exactly, and the CPU per question."""
    print(f"best_arrangement, every hand answered: the share answered exactly (the rest: the "
          f"best found within the bound), and the CPU time of the thread per question "
          f"({count} random and {count} dense hands a size)")
    print("cards | hands  | exact         | median   | p95      | slowest  | its work"
          + (" | best found: points short of the best (median, worst) | exact unlike "
             "the unbounded" if check else ""))
    for size in (30, 40):
        for share in exact_share(size, count, seed, check):
            shown = ""
            if check:
                gap = (f"{share.short[len(share.short) // 2]}, {share.short[-1]}"
                       if share.short else "-")
                shown = f" | {gap:>10} | {share.differ}"
                if share.differ:
                    missed.append(f"{share.kind} {share.size}: {share.differ} exact answers "
                                  "differ from the unbounded search")
            print(f"{share.size:5} | {share.kind:6} | {share.exact:3}/{share.hands:<3} "
                  f"{100 * share.exact / share.hands:3.0f} % | {fmt_ms(share.median_ms):>8} | "
                  f"{fmt_ms(share.p95_ms):>8} | {fmt_ms(share.worst_ms):>8} | "
                  f"{share.worst_work:,}{shown}")
            if share.worst_ms > BUDGET_MS["best"]:
                missed.append(f"{share.kind} {share.size}: slowest {fmt_ms(share.worst_ms)}")
    print()


def fmt_ms(ms: float) -> str:
    return f"{ms:.1f} ms" if ms < 1000 else f"{ms / 1000:.2f} s"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="hands per RLCard row")
    parser.add_argument("--rounds", type=int, default=7, help="timing rounds (best of)")
    parser.add_argument("--samples", type=int, default=30, help="random hands per size")
    parser.add_argument("--climb", type=int, default=60, help="hill-climbing steps per size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", action="store_true",
                        help="also time the search the referee used before")
    parser.add_argument("--share", type=int, default=100,
                        help="random and dense 40-card hands for the exact share")
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--bytecodes", action="store_true",
                        help="only count the bytecodes our search runs per hand")
    parser.add_argument("--share-only", action="store_true",
                        help="only the 30- and 40-card shares and CPU per question")
    parser.add_argument("--check", action="store_true",
                        help="with --share-only: each hand again with no bound, to compare")
    parser.add_argument("--budget-ms", type=float, default=None,
                        help="the best arrangement's CPU bound for this run (ARRANGE_CPU_S)")
    args = parser.parse_args(argv)
    if args.budget_ms is not None:
        arrange.ARRANGE_CPU_S = args.budget_ms / 1000
    BUDGET_MS["best"] = arrange.ARRANGE_CPU_S * 1000 * 1.1
    if args.quick:
        args.hands, args.rounds, args.samples, args.climb, args.share = 100, 3, 8, 10, 20
    if args.bytecodes:
        for label, per_hand in bytecodes(200):
            print(f"{label + '-card hands:':20} {per_hand:6.0f} bytecodes a hand")
        return 0
    most, why = largest_hand()
    print(f"Rummy Scorebook meld search — {machine()}")
    print(f"limits: best arrangement {arrange.ARRANGE_CPU_S * 1000:.0f} ms of its thread's "
          f"CPU time (looked at every {arrange._CHECK_EVERY} steps), going out "
          f"{arrange.SEARCH_LIMIT:,} steps; the largest hand a game allows: {most} cards "
          f"({why})\n")
    missed: list[str] = []
    if args.share_only:
        _count_work()
        shares(args.share, args.seed, missed, args.check)
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
        print("targets met" if not missed else "TARGETS MISSED: " + "; ".join(missed))
        return 1 if missed else 0

    rows = against_rlcard(args.rounds, args.hands, args.before)
    if rows is None:
        print("RLCard is not installed: pip install -e '.[bench]' (rows left out)\n")
    else:
        print("best_arrangement against RLCard (Basic Rummy rules, one deck, CPU time)")
        width = max(len(r.label) for r in rows)
        print(f"{'hands':{width}} | ours/hand | RLCard/hand | ours/RLCard | target | "
              "disagree")
        for r in rows:
            target = "-" if r.target == float("inf") else f"<= {r.target:.2f}"
            mark = "" if r.target == float("inf") else ("PASS" if r.met else "FAIL")
            print(f"{r.label:{width}} | {r.ours:7.1f} µs | {r.theirs:9.1f} µs | "
                  f"{r.ratio:11.2f} | {target:6} {mark:4} | {r.disagree}/{r.hands}")
            if mark == "FAIL":
                missed.append(r.label)
            if r.disagree:
                missed.append(f"{r.label}: {r.disagree} answers differ")
        print("(RLCard: a correct exhaustive search over RLCard's own melds; disagree: hands "
              "where its least deadwood and our best value differ)\n")

    # the hunt counts each search's work (after the RLCard rows: keeping every search
    # alive would slow ours there, not theirs)
    _count_work()
    sizes_best = [10, 13, 20, 26, 30, 40, most]
    sizes_out = [13, 20, 30, 40, 60, most]
    for kind, sizes, label in (("best", sizes_best, "best_arrangement (Group my cards)"),
                               ("out", sizes_out, "meld_all (the going-out check)")):
        print(f"{label}: two decks, four jokers" + (", a table of up to six melds"
                                                    if kind == "out" else ""))
        refused = "not exact" if kind == "best" else "refused"
        print(f"cards | random: slowest completed | {refused} | dense: slowest completed | "
              f"{refused} | hill climb: slowest | its work | {refused} | the slowest hand")
        for size in sizes:
            found = hunt(kind, size, args.samples, args.climb, args.seed)
            worst = found.worst
            shown = " ".join(str(c) for c in sorted(worst.cards, key=arrange._listing_key))
            what = "refused" if worst.refused else worst.answer
            print(f"{size:5} | {summary(found.random)} | {summary(found.dense)} | "
                  f"{fmt_ms(worst.ms):>9} | {worst.work:8,} | "
                  f"{found.climb_refused:3}/{found.climbed:<3} | {what}: {shown}"
                  + (f" (table: {'; '.join(str(m.reading) for m in worst.table)})"
                     if len(worst.table) else ""))
            # /arrange takes at most 40 cards; going out, any hand a game allows
            if (kind == "out" or size <= 40) and worst.ms > BUDGET_MS[kind]:
                missed.append(f"{kind} {size}: {fmt_ms(worst.ms)}")
        print("(slowest completed: the slowest hand answered; not exact: hands answered "
              "with the best split found within the limit; refused: hands that reached the "
              "limit and got SearchTooLarge, the time of which is in the hill-climb column "
              "when the slowest was refused)\n")

    shares(args.share, args.seed, missed)

    if args.before:
        print("the search before (tests/referee/reference_search.py), random two-deck "
              "hands with jokers, slowest:")
        for size, ms, done in before_times([10, 13, 16, 18, 20, 22, 24, 26], 10, 20.0):
            print(f"  {size} cards: {fmt_ms(ms)} (of {done} hands)")
        print()
    print("targets met" if not missed else "TARGETS MISSED: " + "; ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
