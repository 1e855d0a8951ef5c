"""Property tests (Hypothesis): what must hold for every meld, lay-off, hand and token.

Rules: `meld.joker` (a reading is its own declaration), `layoff.basic` and
`layoff.joker` (a lay-off keeps the meld legal), `score.500` and `score.basic` (a score
never depends on the order the record lists things in), `cards.copies`, `draw.deep` and
`draw.deep-new-meld` (going out after a deep draw), `values.ace-end`.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, islice

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from referee import (
    JOKER,
    Card,
    CardError,
    PlayerHand,
    Reading,
    RuleSet,
    Table,
    best_arrangement,
    check_copies,
    check_going_out,
    check_meld,
    layoff_targets,
    make_rules,
    meld_readings,
    parse_card,
    reading_value,
    score_hand,
    ways_to_meld,
)
from referee.arrange import melds_containing, pool_of
from referee.cards import RANKS, SUIT_SYMBOLS, SUITS, full_deck
from referee.table import TableMeld, place

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
BASIC = make_rules("basic")
JOKERS_ONLY = make_rules("pagat-500", min_natural_cards=0)
ALL_RULES = [PAGAT, RUMMY, BASIC, JOKERS_ONLY, make_rules("pagat-500", values="5-10-15")]

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

naturals = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
rules_sets = st.sampled_from(ALL_RULES)


@st.composite
def declared_jokers(draw: st.DrawFn) -> Card:
    if draw(st.booleans()):
        return JOKER.declared(draw(naturals))
    return JOKER.declared(Card(draw(st.sampled_from(RANKS)), ""))


any_card = st.one_of(naturals, st.just(JOKER), declared_jokers())


@st.composite
def meldish(draw: st.DrawFn) -> list[Card]:
    """Bunches of cards that are often melds: a stretch of a suit or cards of a rank,
    some replaced by (sometimes declared) jokers, shuffled; or any cards at all."""
    kind = draw(st.sampled_from(["run", "set", "any"]))
    if kind == "run":
        suit = draw(st.sampled_from(SUITS))
        length = draw(st.integers(3, 13))
        low = draw(st.integers(1, 15 - length))
        cards = [Card(1 if p == 14 else p, suit) for p in range(low, low + length)]
    elif kind == "set":
        rank = draw(st.sampled_from(RANKS))
        cards = [Card(rank, s) for s in draw(st.permutations(SUITS))[:draw(st.integers(2, 4))]]
    else:
        return draw(st.lists(any_card, min_size=0, max_size=7))
    for i in range(len(cards)):
        if draw(st.integers(0, 4)) == 0:
            cards[i] = JOKER.declared(cards[i]) if draw(st.booleans()) else JOKER
    cards += [JOKER] * draw(st.integers(0, 2))
    return draw(st.permutations(cards))


def same_meld(a: Reading, b: Reading) -> bool:
    """The same meld: a run card for card in order; a set the same cards in any order."""
    if a.kind != b.kind:
        return False
    if a.kind == "run":
        return a.cards == b.cards and a.low == b.low and a.suit == b.suit
    return a.rank == b.rank and Counter(a.cards) == Counter(b.cards)


# ---------------------------------------------------------------------------------------
# readings


@SETTINGS
@given(meldish(), rules_sets)
def test_every_reading_reads_back_as_itself(cards: list[Card], rules: RuleSet) -> None:
    """`meld.joker`: each reading is legal: its own cards, with the jokers declared as the
    reading says, have exactly that one reading."""
    found = meld_readings(cards, rules)
    assert len(set(found)) == len(found)
    for reading in found:
        assert len(reading.cards) == len(cards)
        assert Counter(c.natural for c in reading.cards) == Counter(c.natural for c in cards)
        if reading.kind == "run":
            assert reading.high <= (14 if rules.aces_high else 13) and reading.low >= 1
        # (a 13-card run is the one exception: it holds the same cards read from the ace
        # up, A..K, or from the 2 up to the ace, 2..A, and neither a natural ace nor a
        # joker declared "JK=AS" says which end the ace lies at)
        expected = 2 if len(cards) == 13 and reading.kind == "run" else 1
        for again in (list(reading.cards), list(reversed(reading.cards))):
            read = meld_readings(again, rules)
            assert len(read) <= expected, (reading, read)
            assert any(same_meld(r, reading) for r in read), (reading, read)


@SETTINGS
@given(meldish(), rules_sets)
def test_check_meld_agrees_with_the_readings(cards: list[Card], rules: RuleSet) -> None:
    """`meld.set` `meld.run`: legal exactly when there is a reading; every verdict cites
    rule ids and has an English message."""
    verdict = check_meld(cards, rules)
    assert verdict.legal == bool(meld_readings(cards, rules))
    assert verdict.rules and verdict.message
    if verdict.legal:
        assert list(verdict.detail["readings"]) == meld_readings(cards, rules)


@SETTINGS
@given(meldish(), st.permutations(SUITS))
def test_readings_do_not_depend_on_suit_names(cards: list[Card], suits: list[str]) -> None:
    """The four suits are alike: relabelling them relabels the readings."""
    relabel = dict(zip(SUITS, suits))

    def swap(c: Card) -> Card:
        if c.is_joker:
            if c.stands_for is None or not c.stands_for.suit:
                return c
            return JOKER.declared(Card(c.stands_for.rank, relabel[c.stands_for.suit]))
        return Card(c.rank, relabel[c.suit])

    assert len(meld_readings(cards, PAGAT)) == len(meld_readings([swap(c) for c in cards],
                                                                 PAGAT))


# ---------------------------------------------------------------------------------------
# lay-offs


@st.composite
def tables(draw: st.DrawFn, rules: RuleSet) -> Table:
    """A table of up to 5 melds, each a reading of a meld-ish bunch."""
    table = Table()
    for i in range(draw(st.integers(1, 5))):
        found = meld_readings(draw(meldish()), rules)
        if found:
            reading = found[draw(st.integers(0, len(found) - 1))]
            table = table.with_meld(TableMeld(f"m{i}", reading, owner="owner"))
    return table


@SETTINGS
@given(st.data(), st.sampled_from([PAGAT, BASIC, JOKERS_ONLY]))
def test_every_layoff_target_leaves_a_legal_meld(data: st.DataObject, rules: RuleSet) -> None:
    """`layoff.basic` `layoff.joker` `layoff.full-set`: laying a card off on any target
    `layoff_targets` offers leaves a legal meld, read exactly as it now lies."""
    table = data.draw(tables(rules))
    card = data.draw(any_card)
    for target in layoff_targets(table, card, rules):
        meld = table.get(target.meld_id)
        after = place(meld, target, "layer")
        assert len(after.cards) == len(meld.cards) + 1
        assert target.card.natural == card.natural
        found = meld_readings(list(after.cards), rules)
        assert any(same_meld(r, after.reading) for r in found), (meld, target, found)
        if after.kind == "set":
            assert len(after.cards) <= 4
        else:
            assert len(after.cards) <= 13


# ---------------------------------------------------------------------------------------
# scores


def deal_a_hand(rng: random.Random, rules: RuleSet, players: int
                ) -> tuple[list[PlayerHand], str | None]:
    """A hand that could have happened: melds from one shuffled deck (two from five
    players), lay-offs that fit where they are recorded, stranded cards."""
    decks = rules.decks(players)
    deck = [c for _ in range(decks) for c in full_deck(jokers=2 if rules.jokers else 0)]
    rng.shuffle(deck)
    names = [f"P{i}" for i in range(players)]
    # out.empty-hand: a card kept back for each player's hand, however many are melded
    reserve = [deck.pop() for _ in names]
    melds: dict[str, list[tuple[str, tuple[Card, ...]]]] = {n: [] for n in names}
    layoffs: dict[str, list[tuple[Card, str]]] = {n: [] for n in names}
    hands: dict[str, list[Card]] = {n: [] for n in names}
    table = Table()
    for turn in range(rng.randint(0, 8)):
        if not deck:
            break
        name = rng.choice(names)
        seed = deck.pop()
        rest = pool_of(deck)
        options = list(islice(melds_containing(seed, rest, rules), 30))
        if not options:
            deck.insert(0, seed)
            continue
        reading, used = rng.choice(options)
        for card, count in used.items():
            for _ in range(count):
                deck.remove(card)
        meld_id = f"m{turn}"
        melds[name].append((meld_id, reading.cards))
        table = table.with_meld(TableMeld(meld_id, reading, name))
    for _ in range(rng.randint(0, 16)):
        if not deck:
            break
        card = deck.pop()
        targets = layoff_targets(table, card, rules)
        if not targets:
            deck.insert(0, card)
            continue
        target = rng.choice(targets)
        name = rng.choice(names)
        layoffs[name].append((target.card, target.meld_id))
        table = table.with_meld(place(table.get(target.meld_id), target, name))
    went_out = rng.choice([None, *names])
    for name in names:
        if name != went_out:  # out.empty-hand: everybody else holds a card at least
            hands[name] = [reserve.pop()] + [deck.pop() for _ in range(
                min(len(deck), rng.randint(0, 5)))]
    return [PlayerHand(n, melds[n], layoffs[n], hands[n]) for n in names], went_out


def shuffled(rng: random.Random, players: list[PlayerHand]) -> list[PlayerHand]:
    out = []
    for p in players:
        melds, layoffs, hand = list(p.melds), list(p.layoffs), list(p.hand)
        rng.shuffle(melds)
        rng.shuffle(layoffs)
        rng.shuffle(hand)
        out.append(PlayerHand(p.name, melds, layoffs, hand, p.going_rummy))
    rng.shuffle(out)
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.sampled_from([PAGAT, RUMMY, BASIC]),
       st.integers(2, 6))
def test_a_score_never_depends_on_the_order_of_the_record(
        rng: random.Random, rules: RuleSet, players: int) -> None:
    """`score.500` `score.basic` `layoff.owner` `values.low-ace`: shuffling the melds,
    the lay-offs, the hand cards and the players never changes anyone's score."""
    players = min(players, rules.max_players)
    hand, went_out = deal_a_hand(rng, rules, players)
    first = score_hand(rules, hand, went_out)
    again = score_hand(rules, shuffled(rng, hand), went_out)
    assert first.by_name() == again.by_name()
    assert [p.name for p in first.players] == [p.name for p in hand]
    if not rules.is_basic:
        everything = sum(p.melded for p in first.players)
        melded = [c for m in first.table for c in m.cards]
        assert len(melded) == sum(len(cards) for p in hand for _i, cards in p.melds) + \
            sum(len(p.layoffs) for p in hand)
        assert everything >= 0


# ---------------------------------------------------------------------------------------
# the searches behind draws and going out


def best_value_by_brute_force(cards: list[Card], rules: RuleSet) -> int:
    """The highest melded value of any split of ``cards`` into melds, trying every
    subset that holds the first card."""
    if not cards:
        return 0
    first, rest = cards[0], cards[1:]
    best = best_value_by_brute_force(rest, rules)
    for size in range(2, len(rest) + 1):
        for chosen in combinations(range(len(rest)), size):
            group = [first, *(rest[i] for i in chosen)]
            readings = meld_readings(group, rules)
            if readings:
                left = [c for i, c in enumerate(rest) if i not in chosen]
                value = max(reading_value(r, rules) for r in readings)
                best = max(best, value + best_value_by_brute_force(left, rules))
    return best


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(naturals, naturals, naturals, st.just(JOKER)), min_size=1,
                max_size=7),
       st.sampled_from([PAGAT, BASIC]))
def test_best_arrangement_is_the_best_split_into_legal_melds(
        cards: list[Card], rules: RuleSet) -> None:
    """`meld.set` `meld.run` `values.face`: every meld of the best arrangement is legal,
    the melds and the stranded cards are exactly the cards given, and no split into
    melds has a higher melded value (checked by trying every split)."""
    if not rules.jokers:
        cards = [c for c in cards if not c.is_joker]
    arrangement = best_arrangement(cards, rules)
    used: Counter[Card] = Counter()
    for reading in arrangement.melds:
        assert any(same_meld(r, reading) for r in meld_readings(list(reading.cards), rules))
        used.update(c.natural for c in reading.cards)
    used.update(arrangement.stranded)
    assert used == Counter(c.natural for c in cards)
    assert arrangement.value == sum(reading_value(r, rules) for r in arrangement.melds)
    assert arrangement.value == best_value_by_brute_force(cards, rules)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(naturals, st.lists(st.one_of(naturals, st.just(JOKER)), max_size=8))
def test_every_new_meld_way_is_a_legal_meld_of_pool_cards(card: Card, pool: list[Card]
                                                         ) -> None:
    """`draw.deep`: each way to meld a card at once is a legal meld containing it, made
    of cards the pool holds."""
    pool = [c for c in pool if c != card]
    for way in ways_to_meld(card, pool_of(pool), Table(), PAGAT):
        assert way.kind == "meld"
        assert meld_readings(list(way.cards), PAGAT)
        taken = Counter(c.natural for c in way.cards)
        taken[card] -= 1
        assert not taken - pool_of(pool)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([PAGAT, BASIC, JOKERS_ONLY]),
       st.sampled_from([{}, {"new_meld_only": True}, {"direct_only": True}]))
def test_the_first_way_is_the_same_asked_alone_or_with_others(
        data: st.DataObject, rules: RuleSet, options: dict[str, bool]) -> None:
    """`rummy.call` `draw.deep` `out.empty-hand`: the searches that only need one way to
    meld a card (limit=1, a shortcut) find the same way that heads the full list."""
    table = data.draw(tables(rules))
    card = data.draw(st.one_of(naturals, st.just(JOKER)))
    pool = data.draw(st.lists(st.one_of(naturals, st.just(JOKER)), max_size=10))
    if not card.is_joker:
        pool = [c for c in pool if c != card]
    one = ways_to_meld(card, pool_of(pool), table, rules, limit=1, **options)
    several = ways_to_meld(card, pool_of(pool), table, rules, limit=3, **options)
    assert one == several[:1]


# ---------------------------------------------------------------------------------------
# going out after taking several cards from the pile, and the ace's end


NEW_MELD = make_rules("pagat-500", deep_draw_new_meld=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([PAGAT, RUMMY, NEW_MELD]))
def test_going_out_after_a_deep_draw_melds_the_deepest_card(data: st.DataObject,
                                                            rules: RuleSet) -> None:
    """`draw.deep` `discard.not-same` `draw.deep-new-meld` `out.empty-hand`: whenever going
    out after taking several cards is legal, the discard is not the deepest card taken
    (nor, two decks, its other copy), the plan melds every other card once, and with the
    house rule the deepest card is in one of the plan's new melds."""
    table = data.draw(tables(rules))
    # mostly a meld or two and one more card, so that going out is often legal
    hand: list[Card] = []
    for _ in range(data.draw(st.integers(1, 2))):
        found = meld_readings(data.draw(meldish()), rules)
        if found:
            hand += [c.natural for c in found[0].cards]
    hand += data.draw(st.lists(naturals, min_size=0, max_size=1)) + [data.draw(naturals)]
    if not rules.jokers:
        hand = [c for c in hand if not c.is_joker]
    if len(hand) < 2:
        return
    # a position a game can reach: no card more often than the most decks hold (two melds
    # of many jokers could make six; the search for such a hand may refuse, as it should)
    assume(check_copies([*table.cards(), *hand], rules, rules.max_players) is None)
    picked = data.draw(st.lists(st.sampled_from(range(len(hand))), min_size=2, max_size=3,
                                unique=True))
    took = [hand[i] for i in picked]
    discard = hand[-1] if data.draw(st.booleans()) else data.draw(st.sampled_from(hand))
    verdict = check_going_out(rules, table, hand, discard, took)
    event("legal" if verdict.legal else "refused")
    if not verdict.legal:
        return
    assert discard.natural != took[0].natural
    rest = Counter(c.natural for c in hand)
    rest[discard.natural] -= 1
    plan = verdict.detail["plan"]
    assert Counter(c.natural for step in plan for c in step.cards) == +rest
    if rules.deep_draw_new_meld:
        assert any(step.meld_id is None and took[0].natural in [c.natural for c in step.cards]
                   for step in plan)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SUITS), st.sampled_from([PAGAT, RUMMY, make_rules(
    "pagat-500", values="5-10-15")]), st.integers(0, 9), st.randoms(use_true_random=False))
def test_the_ace_end_changes_the_layers_score_by_15_less_the_low_ace(
        suit: str, rules: RuleSet, start: int, rng: random.Random) -> None:
    """`values.ace-end` `values.low-ace`: on a run that reaches the king and the two (any
    three of them melded, the others laid off, listed in any order), an ace laid high
    scores its layer 15 and laid low the low-ace value; nobody else's score changes, and
    the table reads the ace at that end."""
    run = [Card(rank, suit) for rank in range(2, 14)]
    meld = run[start:start + 3]
    others = [c for c in run if c not in meld]
    ace = Card(1, suit)
    scores = {}
    for end in ("low", "high"):
        layoffs: list = [*((c, "a") for c in others), (ace, "a", end)]
        rng.shuffle(layoffs)
        # (Ada went out; Bo is left with a card of another suit: out.empty-hand)
        held = [Card(2, next(s for s in SUITS if s != suit))]
        players = [PlayerHand("Ada", [("a", meld)]),
                   PlayerHand("Bo", layoffs=layoffs, hand=held)]
        result = score_hand(rules, players, "Ada")
        scores[end] = result.by_name()
        reading = result.table.get("a").reading
        assert (reading.low == 1) == (end == "low") and len(reading.cards) == 13
    assert scores["high"]["Ada"] == scores["low"]["Ada"]
    assert scores["high"]["Bo"].melded - scores["low"]["Bo"].melded == 15 - rules.low_ace_value


# ---------------------------------------------------------------------------------------
# cards as text


@SETTINGS
@given(any_card)
def test_formatting_then_parsing_is_the_identity(card: Card) -> None:
    """Canonical text (``7S``, ``10H``, ``JK``, ``JK=8H``, ``JK=9``) and the pretty form
    both parse back to the same card."""
    assert parse_card(str(card)) == card
    assert parse_card(card.pretty()) == card
    assert str(parse_card(str(card))) == str(card)


RANK_SPELLINGS = {1: ["A", "a", "1"], 10: ["10", "T", "t"], 11: ["J", "j"], 12: ["Q", "q"],
                  13: ["K", "k"]}


@SETTINGS
@given(naturals, st.data())
def test_every_typed_form_parses(card: Card, data: st.DataObject) -> None:
    """``7♠ 7s s7 S7 T♥ h1``: rank and suit in either order, any case, letter or symbol."""
    rank = data.draw(st.sampled_from(RANK_SPELLINGS.get(card.rank, [str(card.rank)])))
    suit = data.draw(st.sampled_from([card.suit, card.suit.lower(), SUIT_SYMBOLS[card.suit]]))
    token = rank + suit if data.draw(st.booleans()) else suit + rank
    assert parse_card(token) == card
    assert parse_card(f"JK={token}") == JOKER.declared(card)


def test_the_typed_forms_of_the_design() -> None:
    typed = ["7♠", "7s", "s7", "S7", "T♥", "h1", "joker", "*", "🃏"]
    assert [str(parse_card(t)) for t in typed] == \
        ["7S", "7S", "7S", "7S", "10H", "AH", "JK", "JK", "JK"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=8))
def test_any_text_is_a_card_or_a_card_error_naming_it(token: str) -> None:
    """Bad tokens raise CardError (a ValueError) whose message names the token; no text
    makes the parser fail any other way."""
    try:
        card = parse_card(token)
    except CardError as error:
        assert isinstance(error, ValueError)
        assert error.token == token
        assert repr(token) in str(error)
    else:
        assert parse_card(str(card)) == card


printable = st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"),
                          blacklist_characters="'\"\\")


@settings(max_examples=200, deadline=None)
@given(st.text(printable, min_size=1, max_size=6))
def test_bad_printable_tokens_appear_verbatim_in_the_message(token: str) -> None:
    try:
        parse_card(token)
    except CardError as error:
        assert token in str(error)
