"""The bounded meld search (issue 17) against the exhaustive one it replaced and
against brute force: the same best arrangements, the same going-out answers, the same
ways to meld a card, on random hands of one and two decks with up to four jokers; and
the limit that keeps a question from holding a worker.

Rules: `meld.set`, `meld.run`, `meld.ace`, `meld.joker`, `meld.min-natural`,
`values.face`, `values.low-ace`, `values.joker`, `out.empty-hand`, `meld.once-per-turn`,
`layoff.basic`, `layoff.joker`, `draw.deep`, `draw.deep-new-meld`, `cards.copies`.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

import referee.arrange as arrange
from referee import (
    JOKER,
    Card,
    RuleSet,
    Table,
    best_arrangement,
    make_meld,
    make_rules,
    meld_all,
    meld_readings,
    parse_cards,
    reading_value,
    ways_to_meld,
)
from referee.arrange import SearchTooLarge, melds_containing, pool_of
from referee.cards import SUITS, full_deck
from referee.melds import card_value
from referee.table import fits, layoff_targets, place
from tests.conftest import ARRANGE_CPU_S as REAL_BOUND
from tests.conftest import stop_the_search
from tests.referee import reference_search as old

PAGAT = make_rules("pagat-500")
FAMILIES = [PAGAT, make_rules("rummy-500"), make_rules("basic"),
            make_rules("pagat-500", min_natural_cards=0),
            make_rules("pagat-500", values="5-10-15")]


def objective(cards: list[Card], melds: tuple[object, ...], stranded: tuple[Card, ...],
              value: int, rules: RuleSet) -> tuple[int, int, int]:
    """What "best" means: the melded value, then fewer stranded points, then fewer melds."""
    return value, -sum(card_value(c, rules) for c in stranded), -len(melds)


def deal(rng: random.Random, rules: RuleSet, size: int, decks: int,
         dense: bool) -> list[Card]:
    deck = [c for _ in range(decks) for c in full_deck(jokers=2 if rules.jokers else 0)]
    if dense:  # a few ranks in every suit (and the aces): runs and sets overlap
        low = rng.randint(1, 10)
        deck = [c for c in deck if c.is_joker or c.rank == 1 or low <= c.rank <= low + 4]
    return rng.sample(deck, min(size, len(deck)))


def check_arrangement(cards: list[Card], rules: RuleSet) -> arrange.Arrangement:
    """Every meld legal, the melds and the stranded cards exactly the cards given."""
    found = best_arrangement(cards, rules)
    used: Counter[Card] = Counter()
    for reading in found.melds:
        assert meld_readings(list(reading.cards), rules), reading
        used.update(c.natural for c in reading.cards)
    used.update(found.stranded)
    assert used == Counter(c.natural for c in cards)
    assert found.value == sum(reading_value(r, rules) for r in found.melds)
    assert found.complete == (not found.stranded)
    return found


# ---------------------------------------------------------------------------------------
# the best arrangement


@pytest.mark.parametrize("seed", range(6))
def test_best_arrangement_agrees_with_the_exhaustive_search(seed: int) -> None:
    """`meld.set` `meld.run` `meld.joker` `values.low-ace`: random hands of one or two
    decks, sparse or dense, with jokers: the same value, stranded points and number of
    melds as the search that tried every split."""
    rng = random.Random(seed)
    for _ in range(250):
        rules = rng.choice(FAMILIES)
        cards = deal(rng, rules, rng.randint(0, 11), rng.choice([1, 2]), rng.random() < 0.6)
        new = check_arrangement(cards, rules)
        before = old.best_arrangement(cards, rules)
        assert objective(cards, new.melds, new.stranded, new.value, rules) == objective(
            cards, before.melds, before.stranded, before.value, rules), cards


@pytest.mark.parametrize("seed", range(4))
def test_one_deck_without_jokers_lists_exactly_what_the_referee_always_listed(seed: int
                                                                              ) -> None:
    """The common case (one deck, no joker: every Basic Rummy hand) keeps the old
    search's choice among equally good arrangements, melds and order included."""
    rng = random.Random(100 + seed)
    for _ in range(300):
        rules = rng.choice([PAGAT, make_rules("basic"), make_rules("rummy-500")])
        deck = full_deck(jokers=0)
        if rng.random() < 0.6:
            low = rng.randint(1, 10)
            deck = [c for c in deck if c.rank == 1 or low <= c.rank <= low + 3]
        cards = rng.sample(deck, min(len(deck), rng.randint(0, 13)))
        new = best_arrangement(cards, rules)
        before = old.best_arrangement(cards, rules)
        assert (new.melds, new.stranded, new.value) == (
            before.melds, before.stranded, before.value), cards


@pytest.mark.parametrize("seed", range(3))
def test_one_deck_bigger_hands_and_aces_at_both_ends_list_the_same(seed: int) -> None:
    """`meld.run` `values.low-ace`: one deck, no joker, hands of up to 18 cards, many of
    them with the ace next to both ends of its suit (A 2 3 and Q K A, where the ace can
    go one way only) or a whole suit: melds, order and stranded cards as the old search
    listed them, including when the melds cannot overlap and no search is made."""
    rng = random.Random(700 + seed)
    for _ in range(150):
        rules = rng.choice([PAGAT, make_rules("basic"), make_rules("rummy-500")])
        deck = full_deck(jokers=0)
        cards = rng.sample(deck, rng.randint(3, 18))
        if rng.random() < 0.5:
            suit = rng.choice(SUITS)
            ends = [1, 2, 3, 12, 13] if rng.random() < 0.7 else list(range(1, 14))
            cards = list(dict.fromkeys(
                [*(Card(r, suit) for r in ends if rng.random() < 0.85), *cards[:8]]))
        new = best_arrangement(cards, rules)
        before = old.best_arrangement(cards, rules)
        assert (new.melds, new.stranded, new.value) == (
            before.melds, before.stranded, before.value), cards


def test_one_deck_ties_on_big_hands_list_what_the_old_search_listed() -> None:
    """`meld.set` `meld.run`: a 26-card hand with two equally good splits (sets of three
    sixes and sevens and the run 2D-7D, or the sets of four and the run 2D-5D: the same
    value and number of melds): listed as the old search lists it (the first in its
    order), which the one-deck search before session 35 did not."""
    cards = parse_cards("6H 5S AC 3D 2S 4H AH 6C 7S 6D 7D 3C 4C 7H 5D 6S 4D 2C AS 3S "
                        "2H AD 7C 3H 4S 2D")
    new = best_arrangement(cards, PAGAT)
    before = old.best_arrangement(cards, PAGAT)
    assert (new.melds, new.stranded, new.value) == (
        before.melds, before.stranded, before.value)
    assert [str(r) for r in new.melds][2:5] == ["6C 6S 6H", "7C 7S 7H", "2D 3D 4D 5D 6D 7D"]


def best_by_brute_force(cards: list[Card], rules: RuleSet) -> tuple[int, int, int]:
    """The best (value, -stranded points, -melds) of any split into melds, trying every
    subset that holds the first card."""
    if not cards:
        return 0, 0, 0
    first, rest = cards[0], cards[1:]
    value, stranded, melds = best_by_brute_force(rest, rules)
    best = (value, stranded - card_value(first, rules), melds)
    for size in range(2, min(len(rest), 12) + 1):
        for chosen in combinations(range(len(rest)), size):
            group = [first, *(rest[i] for i in chosen)]
            readings = meld_readings(group, rules)
            if readings:
                left = [c for i, c in enumerate(rest) if i not in chosen]
                later = best_by_brute_force(left, rules)
                for reading in readings:
                    option = (reading_value(reading, rules) + later[0], later[1],
                              later[2] - 1)
                    best = max(best, option)
    return best


@pytest.mark.parametrize("seed", range(4))
def test_best_arrangement_agrees_with_brute_force_on_two_decks(seed: int) -> None:
    """`cards.copies` `meld.set` (different suits with two decks) `meld.joker`
    `meld.min-natural`: checked against every split, duplicates and four jokers
    included."""
    rng = random.Random(200 + seed)
    for _ in range(60):
        rules = rng.choice(FAMILIES)
        cards = deal(rng, rules, rng.randint(1, 8), 2, rng.random() < 0.7)
        found = check_arrangement(cards, rules)
        assert objective(cards, found.melds, found.stranded, found.value, rules) == \
            best_by_brute_force(cards, rules), cards


def test_worked_arrangements() -> None:
    """`values.low-ace` `meld.ace` `meld.joker`: an ace lies high where it scores more, a
    lone ace melds with two jokers, a joker left over goes to the end of a meld, and a
    run of the whole suit plus a joker must be split (a run is at most 13 cards)."""
    found = best_arrangement(parse_cards("QH KH AH 2H 3H"), PAGAT)
    assert [str(r) for r in found.melds] == ["QH KH AH"] and found.value == 35
    found = best_arrangement(parse_cards("AS JK JK"), PAGAT)
    assert found.complete and found.value == 45
    found = best_arrangement(parse_cards("7S 7H 7D JK JK"), PAGAT)
    assert [str(r) for r in found.melds] == ["7H 7S JK=7 JK=7"] and found.value == 44
    found = best_arrangement(parse_cards("8S 9S 10S JK"), PAGAT)
    assert [str(r) for r in found.melds] == ["8S 9S 10S JK=JS"]
    found = best_arrangement(parse_cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC JK"),
                             PAGAT)
    assert found.complete and len(found.melds) == 2
    basic = make_rules("basic")  # aces low only: Q-K-A is no run there
    assert best_arrangement(parse_cards("QH KH AH"), basic).value == 0


def test_long_runs_agree_with_the_exhaustive_search() -> None:
    """`meld.run` `meld.ace` `values.low-ace`: whole suits (a run is at most 13 cards, an
    ace is high or low) with jokers that need room at an end or a split run."""
    rng = random.Random(500)
    for _ in range(150):
        rules = rng.choice(FAMILIES)
        cards: list[Card] = []
        for suit in rng.sample("SHDC", rng.choice([1, 1, 2])):
            low, high = rng.randint(1, 3), rng.randint(11, 13)
            keep = rng.choice([0.85, 1.0])
            cards += [Card(r, suit) for r in range(low, high + 1) if rng.random() < keep]
        if rules.jokers:
            cards += [JOKER] * rng.randint(0, 3)
        cards = cards[:15]
        new = check_arrangement(cards, rules)
        before = old.best_arrangement(cards, rules)
        assert objective(cards, new.melds, new.stranded, new.value, rules) == objective(
            cards, before.melds, before.stranded, before.value, rules), cards


def test_big_hands_are_answered() -> None:
    """Hands of 26 cards of two decks with four jokers (a deep draw in a game of five or
    more), every card accounted for, within the limit."""
    rng = random.Random(7)
    deck = [c for _ in range(2) for c in full_deck(jokers=2)]
    for _ in range(6):
        check_arrangement(rng.sample(deck, 26), PAGAT)


# ---------------------------------------------------------------------------------------
# going out


def random_table(rng: random.Random, rules: RuleSet, cards: list[Card]) -> Table:
    melds = []
    for i in range(rng.randint(0, 4)):
        for _ in range(40):
            if rng.random() < 0.6:
                suit, low = rng.choice("SHDC"), rng.randint(1, 12)
                want = [Card(1 if r == 14 else r, suit)
                        for r in range(low, low + rng.randint(3, 6)) if r <= 14]
            else:
                rank = rng.randint(1, 13)
                want = [Card(rank, s) for s in rng.sample("SHDC", rng.choice([3, 3, 4]))]
            if len(want) >= 3 and all(want.count(c) <= cards.count(c) for c in want):
                try:
                    meld = make_meld(f"m{i}", want, rules, "X")
                except ValueError:
                    continue
                for c in want:
                    cards.remove(c)
                melds.append(meld)
                break
    return Table(tuple(melds))


def meldable_hand(rng: random.Random, rules: RuleSet, table: Table, cards: list[Card],
                  pieces: int) -> list[Card]:
    """A hand made of new melds and lay-offs (so often meldable), now and then spoiled."""
    hand: list[Card] = []
    for _ in range(pieces):
        card = rng.choice(cards)
        if rng.random() < 0.5 and len(table):
            targets = layoff_targets(table, card, rules)
            if targets:
                target = rng.choice(targets)
                table = table.with_meld(place(table.get(target.meld_id), target, None))
                cards.remove(card)
                hand.append(card)
            continue
        if card.is_joker:
            continue
        rest = pool_of(cards)
        rest[card] -= 1
        options = []
        for _reading, used in melds_containing(card, rest, rules):
            options.append(used)
            if len(options) > 20:
                break
        if options:
            cards.remove(card)
            hand.append(card)
            for other, count in rng.choice(options).items():
                for _ in range(count):
                    cards.remove(other)
                    hand.append(other)
    if rng.random() < 0.3:
        hand.append(rng.choice(cards))
    if rng.random() < 0.2 and hand:
        hand.pop(rng.randrange(len(hand)))
    return hand


def check_plan(plan: list[arrange.Step], hand: list[Card], table: Table,
               rules: RuleSet) -> None:
    """Each step legal where it comes (lay-offs on the table as it is by then), and
    the plan melds exactly the cards of the hand."""
    used: Counter[Card] = Counter()
    for step in plan:
        if step.meld_id is None:
            assert meld_readings(list(step.cards), rules), step
        else:
            meld = table.get(step.meld_id)
            for card in step.cards:
                targets = [t for t in fits(meld, card.natural if not card.is_joker else card,
                                           rules) if t.card == card]
                assert targets, (step, meld)
                meld = place(meld, targets[0], None)
            table = table.with_meld(meld)
        used.update(c.natural for c in step.cards)
    assert used == Counter(c.natural for c in hand)


@pytest.mark.parametrize("seed", range(5))
def test_meld_all_agrees_with_the_exhaustive_search(seed: int) -> None:
    """`out.empty-hand` `meld.once-per-turn` `layoff.basic` `layoff.joker`
    `draw.deep-new-meld`: may every card be melded (new melds, lay-offs, chains of
    lay-offs, jokers), with or without a limit of one or two new melds, with or without a
    card that must start a new meld: the same answer as before, and a plan that works."""
    rng = random.Random(300 + seed)
    feasible = 0
    for _ in range(150):
        rules = rng.choice(FAMILIES[:4])
        decks = rng.choice([1, 2])
        cards = [c for _ in range(decks) for c in full_deck(jokers=2 if rules.jokers else 0)]
        rng.shuffle(cards)
        table = random_table(rng, rules, cards)
        hand = meldable_hand(rng, rules, table, cards, rng.randint(1, 5))
        budget = rng.choice([None, None, 1, 2])
        # draw.deep-new-meld: now and then one card must be in a new meld of the plan
        new = rng.choice(hand) if hand and rng.random() < 0.4 else None
        plan = meld_all(hand, table, rules, budget, new_meld=new)
        assert (plan is None) == (
            old.meld_all(hand, table, rules, budget, new_meld=new) is None), (
            [str(m) for m in table], hand, budget, new)
        if plan is not None:
            feasible += 1
            check_plan(plan, hand, table, rules)
            if budget is not None:
                assert sum(1 for step in plan if step.meld_id is None) <= budget
            if new is not None:
                assert any(step.meld_id is None and new.natural in
                           [c.natural for c in step.cards] for step in plan)
    assert feasible > 30


@pytest.mark.parametrize("seed", range(3))
def test_meld_all_agrees_on_dense_hands_with_jokers(seed: int) -> None:
    """`out.empty-hand` `meld.joker` `cards.copies`: dense hands of two decks (a few ranks
    in every suit, copies, up to four jokers), where runs and sets overlap most and the
    search prunes hardest by the jokers each suit still needs, made of melds and
    lay-offs (now and then spoiled) or dealt at random, alone or beside a table: may every
    card be melded, the same answer as the search that tried every split."""
    rng = random.Random(800 + seed)
    feasible = 0
    for _ in range(120):
        rules = rng.choice(FAMILIES[:4])
        low = rng.randint(1, 10)
        deck = [c for _ in range(2) for c in full_deck(jokers=2 if rules.jokers else 0)
                if c.is_joker or c.rank == 1 or low <= c.rank <= low + 4]
        rng.shuffle(deck)
        table = Table() if rng.random() < 0.4 else random_table(rng, rules, deck)
        if rng.random() < 0.7:
            hand = meldable_hand(rng, rules, table, deck, rng.randint(2, 4))
        else:
            hand = deck[:rng.randint(3, 12)]
        plan = meld_all(hand, table, rules)
        assert (plan is None) == (old.meld_all(hand, table, rules) is None), (
            [str(m) for m in table], hand)
        if plan is not None:
            feasible += 1
            check_plan(plan, hand, table, rules)
    assert feasible > 20


def test_going_out_with_a_big_hand_is_answered() -> None:
    """`out.empty-hand`: 40 cards of two decks (a hand after a deep draw)."""
    rng = random.Random(11)
    deck = [c for _ in range(2) for c in full_deck(jokers=2)]
    answers = set()
    for _ in range(6):
        hand = rng.sample(deck, 40)
        plan = meld_all(hand, Table(), PAGAT)
        if plan is not None:
            check_plan(plan, hand, Table(), PAGAT)
        answers.add(plan is None)
    whole = [c for c in deck if c.rank in range(2, 9)]  # 2..8 of two decks: 56 cards
    plan = meld_all(whole, Table(), PAGAT)
    assert plan is not None
    check_plan(plan, whole, Table(), PAGAT)


# ---------------------------------------------------------------------------------------
# one card at once


@pytest.mark.parametrize("seed", range(3))
def test_ways_to_meld_lists_what_it_always_listed(seed: int) -> None:
    """`draw.deep` `rummy.call`: the ways to meld a card now (the first 24, or the first
    one) are the same list as before, for pools of up to 60 cards with jokers."""
    rng = random.Random(400 + seed)
    for _ in range(400):
        rules = rng.choice(FAMILIES[:4])
        deck = [c for _ in range(2) for c in full_deck(jokers=2 if rules.jokers else 0)]
        rng.shuffle(deck)
        card = rng.choice(deck)
        pool = [c for c in deck if c != card][:rng.randint(0, 60)]
        table = Table()
        for i in range(rng.randint(0, 3)):
            suit, low = rng.choice("SHDC"), rng.randint(1, 10)
            run = [Card(r, suit) for r in range(low, low + 3)]
            if all(c not in pool for c in run):
                table = table.with_meld(make_meld(f"m{i}", run, rules))
        options = rng.choice([{}, {"new_meld_only": True}, {"direct_only": True}])
        limit = rng.choice([1, 3, 24])
        new = ways_to_meld(card, pool_of(pool), table, rules, limit=limit, **options)
        before = old.ways_to_meld(card, pool_of(pool), table, rules, limit=limit, **options)
        assert [(w.kind, w.cards, w.meld_id) for w in new] == \
            [(w.kind, w.cards, w.meld_id) for w in before], (card, pool, options, limit)


# ---------------------------------------------------------------------------------------
# the limit


def test_a_going_out_search_past_its_limit_stops_with_a_clear_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The work of a going-out question is counted; past ``SEARCH_LIMIT`` the referee
    raises SearchTooLarge (a ValueError that says so) rather than searching on."""
    hand = parse_cards("4C 5C 5C 6C 7C 4D 5D 6D 6D 7D 4H 5H 5H 6H 7H 4S 5S 6S 6S 7S "
                       "JK JK JK JK 9C")
    monkeypatch.setattr(arrange, "SEARCH_LIMIT", 20)
    with pytest.raises(SearchTooLarge, match="too many ways") as raised:
        meld_all(hand, Table(), PAGAT)
    assert isinstance(raised.value, ValueError) and raised.value.limit == 20
    # a hand with nothing to search is still answered
    assert meld_all(parse_cards("KS"), Table(), PAGAT) is None


# ---------------------------------------------------------------------------------------
# every hand answered: the best split, or the best found within the limit


TWO_DECKS = [c for _ in range(2) for c in full_deck(jokers=2)]


def dense_hand(rng: random.Random, size: int) -> list[Card]:
    """``size`` cards of two decks, most of them from a few consecutive ranks and the aces
    with the four jokers (where runs and sets overlap most), the rest dealt at random."""
    deck = list(TWO_DECKS)
    rng.shuffle(deck)
    low = rng.randint(1, 9)
    width = rng.randint(4, 8)
    window = [c for c in deck if c.is_joker or c.rank == 1 or low <= c.rank < low + width]
    cards = rng.sample(window, min(size, len(window)))
    rest = list(deck)
    for card in cards:
        rest.remove(card)
    return cards + rest[:size - len(cards)]


def test_a_search_past_its_limit_still_answers_with_the_best_it_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`meld.set` `meld.run` `meld.joker`: "Group my cards" never refuses a hand: past
    ``ARRANGE_CPU_S`` of CPU time (a clock of the test's own, ``stopped_search``, says so
    once the narrowest passes are done, looked at every 1, 20 or 2,000 steps) it answers
    with the best split found so far (every meld legal, every card accounted for), says
    it is not proven best, and bounds how much better one could be; with the time it
    needs, the same hand gets the best split."""
    hand = parse_cards("4C 5C 5C 6C 7C 4D 5D 6D 6D 7D 4H 5H 5H 6H 7H 4S 5S 6S 6S 7S "
                       "JK JK JK JK")
    best = check_arrangement(hand, PAGAT)
    assert best.complete and best.exact and best.ceiling is None
    stop_the_search(monkeypatch)
    for every in (1, 20, 2_000):
        monkeypatch.setattr(arrange, "_CHECK_EVERY", every)
        found = check_arrangement(hand, PAGAT)
        assert not found.exact and found.melds, every
        assert found.ceiling is not None and found.value <= best.value <= found.ceiling
    # one deck and no joker: no search to bound, always the best; nothing to search
    assert best_arrangement(parse_cards("7S 8S 9S 4C 4D 4S KH"), PAGAT).exact
    assert best_arrangement(parse_cards("2C 9D KS"), PAGAT).value == 0
    assert JOKER not in best_arrangement([], PAGAT).stranded


@pytest.mark.parametrize("seed", range(2))
def test_every_hand_of_up_to_forty_cards_is_answered(seed: int) -> None:
    """`cards.copies` `meld.joker` `draw.deep`: hands of 26 to 40 cards of two decks with
    four jokers, dealt at random or dense (the hands a deep draw leaves in a game of five
    or more): every one answered, legal, and answered the same way every time (here
    with all the time it needs)."""
    rng = random.Random(900 + seed)
    for size in (26, 30, 34, 40, 40, 40):
        cards = rng.sample(TWO_DECKS, size) if rng.random() < 0.5 else dense_hand(rng, size)
        found = check_arrangement(cards, PAGAT)
        again = best_arrangement(list(reversed(cards)), PAGAT)
        assert (again.melds, again.stranded, again.exact) == (
            found.melds, found.stranded, found.exact), cards
        assert found.exact, cards


@pytest.mark.parametrize("seed", range(2))
def test_forty_card_hands_within_the_cpu_bound_are_answered_and_exact_where_it_finished(
        monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """`cards.copies` `meld.joker` `draw.deep`: random and dense 40-card hands of two
    decks with four jokers, with the real bound (``ARRANGE_CPU_S`` of the thread's CPU
    time, the real clock): every one answered with legal melds and at least one meld;
    an answer said to be exact is the search's best (the same as with no bound at all),
    and one not proven best melds no more than the best and says at most what any split
    could.  Either answer passes: how far the search gets is the machine's."""
    rng = random.Random(2800 + seed)
    hands = [rng.sample(TWO_DECKS, 40) if i % 2 == 0 else dense_hand(rng, 40)
             for i in range(4)]
    monkeypatch.setattr(arrange, "ARRANGE_CPU_S", REAL_BOUND)
    bounded = [check_arrangement(cards, PAGAT) for cards in hands]
    monkeypatch.setattr(arrange, "ARRANGE_CPU_S", 10.0**6)
    for cards, found in zip(hands, bounded):
        assert found.melds, cards
        best = best_arrangement(cards, PAGAT)
        assert best.exact
        if found.exact:
            assert (found.melds, found.stranded, found.value) == (
                best.melds, best.stranded, best.value), cards
        else:
            assert found.ceiling is not None
            assert found.value <= best.value <= found.ceiling, cards


def test_forty_card_hands_the_old_limit_refused_get_the_best_split(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`meld.set` `meld.run` `meld.joker` `values.low-ace`: dense two-deck hands that the
    search refused before (it stopped at its limit and answered nothing): the best
    split now, the same as a search with no limit at all finds."""
    hands = [
        "AC AC 2C 3C 3C 4C 4C 5C 5C 7C AD AD 2D 3D 4D 4D 5D 5D 8D AH AH 2H 3H 3H 4H 4H "
        "5H AS 2S 2S 3S 3S 4S 4S 5S 5S 9S JK JK JK",
        "6C 7C 8C 8C 10C 3D 4D 7D 8D 9D JD AH 4H 7H 8H 9H QH KH AS 4S 5S 6S 7S 8S 8S 10S "
        "QS JK JK JK",
        "AC AC 9C 9C 10C JC JC QC QC KC KC AD 9D 10D JD QD KD KD AH AH 9H 9H 10H 10H JH JH "
        "QH QH KH AS 9S 9S 10S JS QS QS KS JK JK JK",
    ]
    answers = [check_arrangement(parse_cards(text), PAGAT) for text in hands]
    for text, found in zip(hands, answers):
        cards = parse_cards(text)
        unlimited = best_arrangement(cards, PAGAT)
        assert found.exact and unlimited.exact
        assert objective(cards, found.melds, found.stranded, found.value, PAGAT) == \
            objective(cards, unlimited.melds, unlimited.stranded, unlimited.value, PAGAT)
    assert [a.value for a in answers] == [264, 251, 438]
