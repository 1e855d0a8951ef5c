"""An audit of RULES.md sections 6-9 (Rummy! calls, ending a hand, scoring, winning)
against brute force: small random positions where the answer is worked out the slow,
obvious way, straight from the rule text, and compared with the referee's.

Rules: `rummy.call`, `rummy.mode`, `out.empty-hand`, `score.500`, `layoff.owner`,
`values.low-ace`, `values.joker`, `values.ace-end`, `game.target-500`, `game.must-go-out`,
`game.target-basic`; for going out after a draw from the pile also `draw.deep`,
`discard.not-same`, `draw.deep-new-meld` and `draw.basic`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import pytest

from referee import (
    JOKER,
    Card,
    PlayerHand,
    RuleSet,
    Table,
    TableMeld,
    callable_cards,
    check_going_out,
    game_result,
    is_meld,
    make_meld,
    make_rules,
    meld_readings,
    score_hand,
)
from referee.cards import joker_as
from referee.table import fits, place


def _deck(rules: RuleSet) -> list[Card]:
    cards = [Card(rank, suit) for rank in range(1, 14) for suit in "SHDC"]
    return cards + ([JOKER, JOKER] if rules.jokers else [])


def _random_table(rules: RuleSet, cards: list[Card], rng: random.Random) -> Table:
    """Up to three runs or sets of three or four natural cards, taken out of ``cards``."""
    melds: list[TableMeld] = []
    for i in range(rng.randint(0, 3)):
        for _ in range(50):
            if rng.random() < 0.5:
                suit, low = rng.choice("SHDC"), rng.randint(1, 11)
                want = [Card(rank, suit) for rank in range(low, low + rng.randint(3, 4))
                        if rank <= 13]
            else:
                rank = rng.randint(1, 13)
                want = [Card(rank, suit) for suit in rng.sample("SHDC", 3)]
            if len(want) >= 3 and all(c in cards for c in want):
                for c in want:
                    cards.remove(c)
                melds.append(make_meld(f"m{i}", want, rules, "X"))
                break
    return Table(tuple(melds))


def _random_cards(cards: list[Card], rng: random.Random, most: int) -> list[Card]:
    """A few cards, mostly of one suit (plus jokers, fives and nines) so that melds occur."""
    suit = rng.choice("SHDC")
    near = [c for c in cards if c.suit == suit or c.is_joker or c.rank in (5, 9)]
    return rng.sample(near, min(len(near), rng.randint(1, most)))


def _chain_fits(meld: TableMeld, card: Card, pool: Sequence[Card], rules: RuleSet) -> bool:
    """Can ``card`` be laid off on ``meld`` once some of ``pool`` is laid off there first?"""
    if fits(meld, card, rules):
        return True
    return any(_chain_fits(place(meld, target, None), card, [*pool[:i], *pool[i + 1:]], rules)
               for i, other in enumerate(pool) for target in fits(meld, other, rules))


def _deepest_callable(table: Table, pile: Sequence[Card], rules: RuleSet) -> int | None:
    """The rule text, by brute force: the deepest pile card that can be melded with
    cards above it (the ones the caller takes with it) and table melds alone."""
    for index, card in enumerate(pile):
        above = pile[index + 1:]
        if any(is_meld([card, *others], rules)
               for size in range(2, len(above) + 1) for others in combinations(above, size)):
            return index
        if any(_chain_fits(meld, card, above, rules) for meld in table):
            return index
    return None


@pytest.mark.parametrize("rules", [make_rules("pagat-500"),
                                   make_rules("rummy-500", rummy_call="pile"),
                                   make_rules("pagat-500", min_natural_cards=0)],
                         ids=["pagat-500", "rummy-500-pile", "jokers-only-melds"])
def test_rummy_call_deepest_card_agrees_with_brute_force(rules: RuleSet) -> None:
    """`rummy.call`: the deepest callable card is the deepest pile card that can be
    melded without any card from a hand — on table melds, in a new meld of pile cards
    alone, or through a chain of lay-offs of pile cards — and ``take`` reaches it."""
    for seed in range(250):
        rng = random.Random(seed)
        cards = _deck(rules)
        rng.shuffle(cards)
        table = _random_table(rules, cards, rng)
        pile = _random_cards(cards, rng, 6) if rng.random() < 0.7 else cards[:rng.randint(1, 7)]
        found = callable_cards(table, pile, rules)
        expected = _deepest_callable(table, pile, rules)
        assert (found[0].index if found else None) == expected, (seed, table, pile)
        if found:
            assert found[0].take == len(pile) - found[0].index


def test_rummy_mode_top_is_the_latest_discard_laid_off_alone() -> None:
    """`rummy.mode` = top: a call only when the top card alone fits a table meld;
    deeper cards and new melds of pile cards never count."""
    rules = make_rules("pagat-500", rummy_call="top")
    for seed in range(250):
        rng = random.Random(seed)
        cards = _deck(rules)
        rng.shuffle(cards)
        table = _random_table(rules, cards, rng)
        pile = _random_cards(cards, rng, 5)
        found = callable_cards(table, pile, rules)
        expected = any(fits(meld, pile[-1], rules) for meld in table)
        assert bool(found) == expected, (seed, table, pile)
        if found:
            assert len(found) == 1 and found[0].take == 1 and found[0].card == pile[-1]


def _can_meld_everything(table: Table, hand: Sequence[Card], rules: RuleSet) -> bool:
    """Brute force: lay off any card anywhere, or make any new meld, until none is left."""
    made = [0]

    @cache
    def go(table: Table, hand: tuple[Card, ...]) -> bool:
        if not hand:
            return True
        for i, card in enumerate(hand):
            rest = hand[:i] + hand[i + 1:]
            for meld in table:
                for target in fits(meld, card, rules):
                    if go(table.with_meld(place(meld, target, None)), rest):
                        return True
        for size in range(3, len(hand) + 1):
            for chosen in combinations(range(len(hand)), size):
                rest = tuple(c for j, c in enumerate(hand) if j not in chosen)
                for reading in meld_readings([hand[j] for j in chosen], rules):
                    made[0] += 1
                    meld = make_meld(f"n{made[0]}", list(reading.cards), rules, None)
                    if go(Table((*table, meld)), rest):
                        return True
        return False

    return go(table, tuple(hand))


def _meldable_looking_hand(table: Table, cards: list[Card], rng: random.Random,
                          rules: RuleSet) -> list[Card]:
    """A hand of up to seven cards that often can all be melded: pieces of runs and sets,
    cards that fit the table, and now and then a stray card."""
    hand: list[Card] = []
    while len(hand) < rng.randint(1, 7):
        roll = rng.random()
        if roll < 0.4:
            suit, low = rng.choice("SHDC"), rng.randint(1, 12)
            piece = [Card(rank, suit) for rank in range(low, low + rng.randint(2, 4))
                     if rank <= 13]
        elif roll < 0.65:
            rank = rng.randint(1, 13)
            piece = [Card(rank, suit) for suit in rng.sample("SHDC", rng.randint(2, 4))]
        elif roll < 0.9:
            piece = [c for c in cards if any(fits(m, c, rules) for m in table)][:1]
        else:
            piece = [rng.choice(cards)]
        for card in piece:
            if card in cards and len(hand) < 7:
                cards.remove(card)
                hand.append(card)
    return hand


@pytest.mark.parametrize("family", ["pagat-500", "rummy-500", "basic"])
def test_out_empty_hand_agrees_with_brute_force(family: str) -> None:
    """`out.empty-hand`: a player may go out exactly when every card can be melded
    (new melds and lay-offs, in any order)."""
    rules = make_rules(family)
    for seed in range(150):
        rng = random.Random(seed)
        cards = _deck(rules)
        rng.shuffle(cards)
        table = _random_table(rules, cards, rng)
        hand = _meldable_looking_hand(table, cards, rng, rules)
        assert check_going_out(rules, table, hand).legal == \
            _can_meld_everything(table, hand, rules), (seed, table, hand)


def _value(card: Card, rules: RuleSet, low: bool) -> int:
    """RULES.md section 2's table, written out again."""
    if card.is_joker:
        return 15
    if rules.is_basic:
        return min(card.rank, 10)
    if card.rank == 1:
        return rules.low_ace_value if low else 15
    if card.rank >= 10:
        return 10
    return 5 if rules.values == "5-10-15" else card.rank


@pytest.mark.parametrize("rules", [
    make_rules("pagat-500"), make_rules("pagat-500", values="5-10-15"),
    make_rules("rummy-500"), make_rules("rummy-500", low_ace_value=1),
    make_rules("pagat-500", low_ace_value=15)],
    ids=["pagat-500", "5-10-15", "rummy-500", "rummy-500-low-1", "pagat-500-low-15"])
def test_score_500_every_card_scores_for_its_layer_where_it_lies(rules: RuleSet) -> None:
    """`score.500`, `layoff.owner`, `values.low-ace`, `values.joker`: runs built from a
    meld of three and lay-offs at either end by anyone; each card scores for whoever put
    it down, an ace at the bottom of a run the low-ace value, anywhere else 15, a joker
    15; every card left in a hand (an ace 15, a joker 15) is taken away."""
    names = ("A", "B", "C")
    for seed in range(300):
        rng = random.Random(seed)
        used: set[Card] = set()
        jokers = 2 if rules.jokers else 0
        melds: dict[str, list[tuple[str, list[Card]]]] = {n: [] for n in names}
        layoffs: dict[str, list[tuple[Card, str]]] = {n: [] for n in names}
        expected = dict.fromkeys(names, 0)
        for k in range(rng.randint(1, 4)):
            suit, low = rng.choice("SHDC"), rng.randint(1, 12)
            positions = list(range(low, min(low + rng.randint(3, 6), 15)))
            naturals = [Card(1 if p == 14 else p, suit) for p in positions]
            if len(positions) < 3 or used & set(naturals):
                continue
            run = []
            for card in naturals:
                if jokers and rng.random() < 0.15:
                    jokers -= 1
                    run.append(joker_as(card.rank, suit))
                else:
                    run.append(card)
                    used.add(card)
            start = rng.randint(0, len(run) - 3)
            owner, meld_id = rng.choice(names), f"r{k}"
            melds[owner].append((meld_id, run[start:start + 3]))
            for i, card in enumerate(run):
                layer = owner if start <= i < start + 3 else rng.choice(names)
                if layer != owner or not start <= i < start + 3:
                    layoffs[layer].append((card, meld_id))
                expected[layer] += _value(card, rules, positions[i] == 1)
        left = [c for c in _deck(rules) if not c.is_joker and c not in used]
        rng.shuffle(left)
        players = []
        for name in names:
            # out.empty-hand: only A may be left with nothing, and then A went out
            hand = [left.pop() for _ in range(rng.randint(0 if name == "A" else 1, 4))]
            if jokers and rng.random() < 0.3:
                jokers -= 1
                hand.append(JOKER)
            expected[name] -= sum(_value(c, rules, False) for c in hand)
            rng.shuffle(layoffs[name])
            players.append(PlayerHand(name, melds[name], layoffs[name], hand))
        scores = score_hand(rules, players, None if players[0].hand else "A").by_name()
        assert {n: scores[n].score for n in names} == expected, (seed, players)


@pytest.mark.parametrize(("rules", "totals", "went_out", "winner"), [
    # game.target-500: the highest total once anyone has 500, ties play on
    ({}, [499, 480, -20], 0, None),
    ({}, [500, 499], 1, 0),
    ({}, [501, 530, 10], 0, 1),
    ({}, [530, 530, 510], 2, None),
    ({}, [530, 530, 540], None, 2),
    ({"target": 300}, [310, 200], 1, 0),
    ({"target": 1000}, [999, 600], 0, None),
    # game.must-go-out: only whoever went out, with 500 or more
    ({"must_go_out": True}, [505, 520], 0, 0),
    ({"must_go_out": True}, [480, 520], 0, None),
    ({"must_go_out": True}, [480, 520], None, None),
    ({"must_go_out": True}, [505, 505], 1, 1),
    ({"must_go_out": True, "target": 300}, [305, 320], 0, 0),
])
def test_game_target_500_and_must_go_out_table(rules: dict[str, object], totals: list[int],
                                               went_out: int | None, winner: int | None
                                               ) -> None:
    """`game.target-500` (ties force another hand, a changed target) and
    `game.must-go-out` (505 going out beats 520; below 500 another hand)."""
    for family in ("pagat-500", "rummy-500"):
        verdict = game_result(make_rules(family, **rules), totals, went_out)
        assert verdict.detail["winner"] == winner
        assert verdict.detail["finished"] is (winner is not None)
        assert verdict.legal is (winner is not None)


@pytest.mark.parametrize(("players", "target"), [(2, 100), (3, 150), (4, 200)])
def test_game_target_basic_by_player_count_exactly(players: int, target: int) -> None:
    """`game.target-basic`: 100 with 2 players, 150 with 3, 200 with 4 — reaching the
    target exactly wins, one point short does not."""
    rules = make_rules("basic")
    short = [target - 1] + [0] * (players - 1)
    assert not game_result(rules, short, 0).detail["finished"]
    verdict = game_result(rules, [0] * (players - 1) + [target], players - 1)
    assert verdict.detail["winner"] == players - 1
    assert verdict.params["total"] == target


# ---------------------------------------------------------------------------------------
# going out in the turn several cards were taken from the discard pile


def _can_meld_everything_with(table: Table, hand: Sequence[Card], rules: RuleSet,
                              new_meld: Card | None) -> bool:
    """Brute force, as above, with ``new_meld`` (when given) in a new meld of three or
    more rather than laid off (`draw.deep-new-meld`)."""
    made = [0]

    @cache
    def go(table: Table, hand: tuple[Card, ...], need: bool) -> bool:
        if not hand:
            return not need
        for i, card in enumerate(hand):
            rest = hand[:i] + hand[i + 1:]
            for meld in table:
                for target in fits(meld, card, rules):
                    if go(table.with_meld(place(meld, target, None)), rest, need):
                        return True
        for size in range(3, len(hand) + 1):
            for chosen in combinations(range(len(hand)), size):
                group = [hand[j] for j in chosen]
                rest = tuple(c for j, c in enumerate(hand) if j not in chosen)
                still = need and new_meld not in group
                for reading in meld_readings(group, rules):
                    made[0] += 1
                    meld = make_meld(f"n{made[0]}", list(reading.cards), rules, None)
                    if go(Table((*table, meld)), rest, still):
                        return True
        return False

    return go(table, tuple(hand), new_meld is not None)


def _expected_going_out(rules: RuleSet, table: Table, hand: list[Card], discard: Card,
                        took: list[Card]) -> bool:
    """RULES.md `draw.deep`, `discard.not-same`, `draw.deep-new-meld`, `draw.basic` and
    `out.empty-hand`, read as they are written, for a turn that ends the hand."""
    if len(took) > 1 and rules.is_basic:
        return False  # draw.basic: only the top card may be taken
    if discard == took[0]:
        return False  # the card taken alone, or the deepest, is never the discard
    rest = list(hand)
    rest.remove(discard)
    # draw.deep-new-meld: the deepest of several cards taken starts a new meld; the top
    # card taken alone is not bound by it (only draw.must-meld binds that)
    new_meld = took[0] if len(took) > 1 and rules.deep_draw_new_meld else None
    return _can_meld_everything_with(table, rest, rules, new_meld)


@pytest.mark.parametrize("rules", [
    make_rules("pagat-500"), make_rules("rummy-500"), make_rules("basic"),
    make_rules("pagat-500", deep_draw_new_meld=True),
    make_rules("pagat-500", draw_must_meld=True, deep_draw_new_meld=True)],
    ids=["pagat-500", "rummy-500", "basic", "deep-new-meld", "must-meld-new-meld"])
def test_going_out_after_taking_from_the_pile_agrees_with_brute_force(rules: RuleSet
                                                                      ) -> None:
    """`draw.deep` `discard.not-same` `draw.deep-new-meld` `draw.basic` `out.empty-hand`:
    after taking one or several cards from the pile (listed bottom to top), a player may go
    out on a discard exactly when it is not the card taken alone nor the deepest taken,
    every other card can be melded, and (with the house rule) the deepest card can start
    a new meld while they all are; Basic Rummy never takes more than the top card."""
    seen = {"legal": 0, "illegal": 0}
    for seed in range(160):
        rng = random.Random(seed)
        cards = _deck(rules)
        rng.shuffle(cards)
        table = _random_table(rules, cards, rng)
        hand = _meldable_looking_hand(table, cards, rng, rules)
        if len(hand) < 2:
            continue
        took = rng.sample(hand, rng.randint(1, min(3, len(hand))))
        discard = rng.choice([took[-1], took[0], *hand])
        verdict = check_going_out(rules, table, hand, discard, took)
        expected = _expected_going_out(rules, table, hand, discard, took)
        assert verdict.legal == expected, (seed, table, hand, took, discard, verdict)
        seen["legal" if expected else "illegal"] += 1
        if verdict.legal:  # the plan melds every other card
            melded = sorted(c.natural for step in verdict.detail["plan"] for c in step.cards)
            rest = list(hand)
            rest.remove(discard)
            assert melded == sorted(c.natural for c in rest)
    assert seen["legal"] > 5 and seen["illegal"] > 5, seen


# ---------------------------------------------------------------------------------------
# the ace's end


@pytest.mark.parametrize("rules", [
    make_rules("pagat-500"), make_rules("pagat-500", values="5-10-15"),
    make_rules("rummy-500"), make_rules("rummy-500", low_ace_value=1)],
    ids=["pagat-500", "5-10-15", "rummy-500", "rummy-500-low-1"])
def test_values_ace_end_an_ace_on_two_to_king_scores_by_its_end(rules: RuleSet) -> None:
    """`values.ace-end` `values.low-ace` `layoff.owner`: runs 2…K of random suits, built
    from three cards and lay-offs by anyone, and an ace laid off by anyone at the end they
    name: it scores the low-ace value laid low and 15 laid high, whoever laid it, and
    every other card scores as it would anyway."""
    names = ("A", "B", "C")
    for seed in range(120):
        rng = random.Random(seed)
        melds: dict[str, list[tuple[str, list[Card]]]] = {n: [] for n in names}
        layoffs: dict[str, list[tuple]] = {n: [] for n in names}
        expected = dict.fromkeys(names, 0)
        suits = rng.sample("SHDC", rng.randint(1, 3))
        for k, suit in enumerate(suits):
            run = [Card(rank, suit) for rank in range(2, 14)]
            start = rng.randint(0, len(run) - 3)
            owner, meld_id = rng.choice(names), f"r{k}"
            melds[owner].append((meld_id, run[start:start + 3]))
            for i, card in enumerate(run):
                layer = owner if start <= i < start + 3 else rng.choice(names)
                if not start <= i < start + 3:
                    layoffs[layer].append((card, meld_id))
                expected[layer] += _value(card, rules, False)
            end, layer = rng.choice(["low", "high"]), rng.choice(names)
            layoffs[layer].append((Card(1, suit), meld_id, end))
            expected[layer] += _value(Card(1, suit), rules, end == "low")
        # out.empty-hand: A went out; B and C are left with a card of a suit not in play
        free = next(s for s in "SHDC" if s not in suits)
        held = {"A": [], "B": [Card(2, free)], "C": [Card(3, free)]}
        players = []
        for name in names:
            rng.shuffle(layoffs[name])
            players.append(PlayerHand(name, melds[name], layoffs[name], held[name]))
        result = score_hand(rules, players, "A")
        assert {n: p.melded for n, p in result.by_name().items()} == expected, (seed, players)
        for meld in result.table:
            assert len(meld.cards) == 13
