"""A big league with every card stored, for the league benchmark (``benchmarks/league.py``).

Bulk inserts, not the scorebook's services (the referee would take hours on 50,000
games): each hand is dealt from its own deck (two decks from five players) as legal
melds — sets of three or four, runs of three to five with aces low and high, now and
then a joker standing for a card — lay-offs at either end of a run or on a set of
three, and cards left in the hands of everyone but the player who went out.  Each
card is worth what 500 Rum (``pagat-500``) says, and the stored hand scores are the
sum of those values, so the statistics read a league as a real one would be.  The
games are played a few evenings a week up to yesterday (``benchmarks/league_data.py``),
and on PostgreSQL the id sequences are set past the inserted ids.
Seeded: the same arguments build the same league.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from league_data import league_times, set_sequences
from sqlalchemy import insert

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import (
    FINISHED,
    STOCK_OUT,
    WENT_OUT,
    Game,
    Hand,
    HandScore,
    League,
    Meld,
    MeldCard,
    Player,
    Seat,
    StrandedCard,
)

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou",
         "Max", "Ned", "Ole", "Pam", "Quin", "Rex", "Sue", "Tom", "Uma", "Vic", "Wes", "Xia"]
SUITS = "SHDC"
RANK = {1: "A", 11: "J", 12: "Q", 13: "K"}
FAMILY = "pagat-500"
FLUSH_GAMES = 250


def text(position: int, suit: str) -> str:
    """The card at a run position (1-14: 14 is the ace again)."""
    rank = 1 if position == 14 else position
    return RANK.get(rank, str(rank)) + suit


def value(position: int, low: bool = False) -> int:
    """500 Rum values: an ace 15 (1 melded low), tens and faces 10, the rest face value."""
    if position in (1, 14):
        return 1 if low else 15
    return 10 if position >= 10 else position


class Deck:
    """What is left of one hand's deck(s): card text → copies."""

    def __init__(self, decks: int) -> None:
        self.left = {text(p, s): decks for p in range(1, 14) for s in SUITS}
        self.jokers = 2 * decks

    def take(self, card: str) -> bool:
        if self.left.get(card, 0) > 0:
            self.left[card] -= 1
            return True
        return False

    def has(self, card: str) -> bool:
        return self.left.get(card, 0) > 0


class Builder:
    """Collects rows and inserts them every ``FLUSH_GAMES`` games."""

    def __init__(self) -> None:
        self.rows: dict[Any, list[dict[str, Any]]] = {m: [] for m in (
            Game, Seat, Hand, HandScore, Meld, MeldCard, StrandedCard)}
        self.hand_id = self.meld_id = 0
        self.counts = dict.fromkeys(("hands", "scores", "melds", "cards"), 0)

    def flush(self) -> None:
        for model, rows in self.rows.items():
            for i in range(0, len(rows), 5000):
                db.session.execute(insert(model), rows[i:i + 5000])
            rows.clear()
        db.session.commit()


def deal(rng: random.Random, table: list[int], out: int | None, b: Builder, hand_id: int
         ) -> dict[int, tuple[int, int]]:
    """One hand's melds, lay-offs and stranded cards; each player's (melded, stranded)."""
    deck = Deck(2 if len(table) >= 5 else 1)
    melded = dict.fromkeys(table, 0)
    stranded = dict.fromkeys(table, 0)
    runs: list[list[Any]] = []  # [meld row, cards list, suit, low, high]
    sets: list[list[Any]] = []  # [meld row, cards list, rank text, suits]
    position = 0
    for p in table:
        count = rng.choice((2, 2, 3)) if p == out else rng.choice((0, 1, 1, 2))
        for k in range(count):
            b.meld_id += 1
            meld = {"id": b.meld_id, "hand_id": hand_id, "owner_id": p, "label": f"{p}-{k + 1}",
                    "position": position, "kind": "", "reading": ""}
            joker = deck.jokers > 0 and rng.random() < 0.15
            cards: list[dict[str, Any]] = []
            if rng.random() < 0.45:  # a set
                position_rank = rng.randint(1, 13)
                rank_text = text(position_rank, "")
                suits = [s for s in SUITS if deck.has(rank_text + s)]
                size = 4 if rng.random() < 0.2 else 3
                if len(suits) < size - (1 if joker else 0):
                    continue
                chosen = rng.sample(suits, size - (1 if joker else 0))
                for s in chosen:
                    deck.take(rank_text + s)
                    cards.append(_card(b, meld, rank_text + s, None, p, False, len(cards)))
                    melded[p] += value(position_rank)
                if joker:
                    deck.jokers -= 1
                    cards.append(_card(b, meld, "JK", rank_text, p, False, len(cards)))
                    melded[p] += 15
                meld["kind"] = "set"
                meld["reading"] = " ".join(
                    [c["card"] for c in cards if c["card"] != "JK"] + (
                        [f"JK={rank_text}"] if joker else []))
                sets.append([meld, cards, rank_text, set(chosen)])
            else:  # a run
                suit = rng.choice(SUITS)
                length = rng.choice((3, 3, 4, 5))
                low = rng.randint(1, 15 - length)
                high = low + length - 1
                if low == 1 and high == 14:
                    continue
                texts = [text(q, suit) for q in range(low, high + 1)]
                wild = rng.randrange(length) if joker else -1
                if any(not deck.has(t) for i, t in enumerate(texts) if i != wild):
                    continue
                for i, t in enumerate(texts):
                    q = low + i
                    if i == wild:
                        deck.jokers -= 1
                        cards.append(_card(b, meld, "JK", t, p, False, len(cards)))
                        melded[p] += 15
                    else:
                        deck.take(t)
                        cards.append(_card(b, meld, t, None, p, False, len(cards)))
                        melded[p] += value(q, low=q == 1)
                meld["kind"] = "run"
                runs.append([meld, cards, suit, low, high])
            b.rows[Meld].append(meld)
            position += 1
    for p in table:  # lay-offs, on anyone's melds
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            if runs and rng.random() < 0.7:
                run = rng.choice(runs)
                meld, cards, suit, low, high = run
                ends = []
                if high < 14 and not (low == 1 and high == 13):
                    ends.append(high + 1)
                if low > 1 and not (high == 14 and low == 2):
                    ends.append(low - 1)
                if not ends:
                    continue
                q = rng.choice(ends)
                if not deck.take(text(q, suit)):
                    continue
                if q > high:
                    run[4] = q
                else:
                    run[3] = q
                cards.append(_card(b, meld, text(q, suit), None, p, True, len(cards)))
                melded[p] += value(q, low=q == 1)
            elif sets:
                meld, cards, rank_text, suits = rng.choice(sets)
                if len(cards) >= 4:
                    continue
                missing = [s for s in SUITS if s not in suits and deck.has(rank_text + s)]
                if not missing:
                    continue
                deck.take(rank_text + missing[0])
                suits.add(missing[0])
                cards.append(_card(b, meld, rank_text + missing[0], None, p, True, len(cards)))
                position_rank = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank_text)
                melded[p] += value(position_rank or int(rank_text))
    for meld, cards, suit, low, high in runs:  # the final reading, from the low end
        order = {text(q, suit): q for q in range(low, high + 1)}

        def place(c: dict[str, Any], order: dict[str, int] = order) -> int:
            return order[c["declared"] or c["card"]]

        meld["reading"] = " ".join(
            (f"JK={c['declared']}" if c["card"] == "JK" else c["card"])
            for c in sorted(cards, key=place))
    pool = [t for t, n in deck.left.items() for _ in range(n)]
    for p in table:
        if p == out:
            continue
        held = rng.sample(pool, min(len(pool), rng.choice((0, 1, 2, 3, 4, 5))))
        for t in held:
            pool.remove(t)
        if deck.jokers and rng.random() < 0.1:
            held.append("JK")
            deck.jokers -= 1
        for i, t in enumerate(held):
            b.rows[StrandedCard].append({"hand_id": hand_id, "player_id": p, "card": t,
                                         "position": i})
            if t == "JK":
                stranded[p] += 15
            else:
                rank = t[:-1]
                stranded[p] += {"A": 15, "J": 10, "Q": 10, "K": 10}.get(rank) or min(
                    int(rank), 10)
        b.counts["cards"] += len(held)
    return {p: (melded[p], stranded[p]) for p in table}


def _card(b: Builder, meld: dict[str, Any], card: str, declared: str | None, laid_by: int,
          layoff: bool, position: int) -> dict[str, Any]:
    row = {"meld_id": meld["id"], "card": card, "declared": declared, "laid_by_id": laid_by,
           "is_layoff": layoff, "position": position}
    b.rows[MeldCard].append(row)
    b.counts["cards"] += 1
    return row


def build(games: int, players: int, seed: int = 500,
          progress: Callable[[str], None] | None = None) -> int:
    """Insert the league; returns its id."""
    rng = random.Random(seed)
    rules = make_rules(FAMILY).as_dict()
    league = League(name="Benchmark league")
    db.session.add(league)
    db.session.flush()
    names = [NAMES[i % len(NAMES)] + (str(i // len(NAMES)) if i >= len(NAMES) else "")
             for i in range(players)]
    db.session.execute(insert(Player), [{"league_id": league.id, "name": n} for n in names])
    player_ids = list(db.session.scalars(db.select(Player.id).where(
        Player.league_id == league.id).order_by(Player.id)))
    times = league_times(games, seed)  # evenings of a real league, ending yesterday
    first_game = (db.session.scalar(db.select(db.func.max(Game.id))) or 0) + 1
    b = Builder()
    b.hand_id = db.session.scalar(db.select(db.func.max(Hand.id))) or 0
    b.meld_id = db.session.scalar(db.select(db.func.max(Meld.id))) or 0
    for g in range(first_game, first_game + games):
        table = rng.sample(player_ids, rng.randint(2, min(6, players)))
        totals = dict.fromkeys(table, 0)
        started, when = times[g - first_game]
        number = 0
        while True:
            top = max(totals.values())
            if top >= 500 and list(totals.values()).count(top) == 1:
                break
            number += 1
            b.hand_id += 1
            out = rng.choice(table) if rng.random() < 0.95 else None
            b.rows[Hand].append({
                "id": b.hand_id, "game_id": g, "number": number,
                "dealer_id": table[(number - 1) % len(table)],
                "ending": WENT_OUT if out else STOCK_OUT, "went_out_id": out,
                "going_rummy": False, "complete": True, "version": 1, "created_at": when,
                "updated_at": when})
            for p, (melded, stranded) in deal(rng, table, out, b, b.hand_id).items():
                totals[p] += melded - stranded
                b.rows[HandScore].append({"hand_id": b.hand_id, "player_id": p,
                                          "melded": melded, "stranded": stranded,
                                          "score": melded - stranded})
            b.counts["hands"] += 1
            b.counts["scores"] += len(table)
        winner = max(table, key=lambda p: totals[p])
        b.rows[Game].append({"id": g, "number": g, "league_id": league.id, "family": FAMILY,
                             "rules_json": rules, "target": 500, "status": FINISHED,
                             "winner_id": winner, "started_at": started,
                             "finished_at": when, "revision": number})
        b.rows[Seat] += [{"game_id": g, "player_id": p, "position": i, "first_dealer": i == 0}
                         for i, p in enumerate(table)]
        if (g - first_game + 1) % FLUSH_GAMES == 0:
            b.flush()
            if progress and (g - first_game + 1) % (FLUSH_GAMES * 20) == 0:
                progress(f"  {g - first_game + 1} games built")
    b.flush()
    if set_sequences(db.session, db.metadata):  # (PostgreSQL: past the ids inserted here)
        db.session.commit()
    b.counts["melds"] = b.meld_id
    if progress:
        progress(f"built: {games} games, {players} players, {b.counts['hands']} hands, "
                 f"{b.counts['scores']} hand scores, {b.counts['cards']} cards")
    return league.id
