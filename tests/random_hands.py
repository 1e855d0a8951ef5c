"""Random but legal hands, typed as a scorer would type them (the no-JavaScript form):
sets and runs (with jokers, low and high aces), lay-offs on anyone's melds, and the
cards left in each hand.  For the browser tests and the screenshots of the statistics
pages, which need leagues whose cards say something."""

from __future__ import annotations

import random
from collections.abc import Sequence

SUITS = "shdc"
RANKS = ["a", "2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k"]


def _card(position: int, suit: str) -> str:
    """Run position 1..14 (14: the ace again) as a typed card."""
    return RANKS[0 if position == 14 else position - 1] + suit


def random_hand(rng: random.Random, names: Sequence[str], out: str, jokers: bool,
                basic: bool = False) -> dict[str, dict[str, str]]:
    """One hand's typed fields for each player; ``out`` went out (holds nothing)."""
    free = {r + s for r in RANKS for s in SUITS}
    jokers_left = 2 if jokers else 0
    texts: dict[str, dict[str, str]] = {n: {"melds": "", "layoffs": "", "hand": ""}
                                        for n in names}
    runs: list[tuple[str, int, str, int, int]] = []  # owner, meld no, suit, low, high
    sets: list[tuple[str, int, str, set[str]]] = []  # owner, meld no, rank, suits
    for name in names:
        melds = []
        for _ in range(rng.choice([1, 2, 2, 3]) if name == out else rng.choice([0, 1, 1, 2])):
            if rng.random() < 0.5:  # a set
                rank = rng.choice(RANKS)
                suits = [s for s in SUITS if rank + s in free]
                if len(suits) < 3:
                    continue
                chosen = rng.sample(suits, 3)
                cards = [rank + s for s in chosen]
                for c in cards:
                    free.discard(c)
                if jokers_left and rng.random() < 0.25:
                    cards[-1] = "jk"
                    free.add(rank + chosen[-1])
                    chosen = chosen[:-1]
                    jokers_left -= 1
                melds.append(" ".join(cards))
                sets.append((name, len(melds), rank, set(chosen)))
            else:  # a run of 3 to 5
                suit = rng.choice(SUITS)
                length = rng.choice([3, 3, 4, 5])
                top = 13 if basic else 14
                low = rng.choice([1, 1, 2, 5, 8, 12 if not basic else 9])
                high = min(top, low + length - 1)
                low = high - length + 1
                cards = [_card(p, suit) for p in range(low, high + 1)]
                if any(c not in free for c in cards):
                    continue
                for c in cards:
                    free.discard(c)
                if jokers_left and rng.random() < 0.3:
                    k = rng.randrange(1, len(cards))  # a joker inside or at the top
                    free.add(cards[k])
                    cards[k] = "jk=" + cards[k]
                    jokers_left -= 1
                melds.append(" ".join(cards))
                runs.append((name, len(melds), suit, low, high))
        texts[name]["melds"] = "\n".join(melds)
    for name in names:
        layoffs = []
        for _ in range(rng.choice([0, 0, 1, 2])):
            if runs and rng.random() < 0.7:
                k = rng.randrange(len(runs))
                owner, number, suit, low, high = runs[k]
                top = 13 if basic else 14
                if high < top and _card(high + 1, suit) in free:
                    card = _card(high + 1, suit)
                    runs[k] = (owner, number, suit, low, high + 1)
                elif low > 1 and _card(low - 1, suit) in free:
                    card = _card(low - 1, suit)
                    runs[k] = (owner, number, suit, low - 1, high)
                else:
                    continue
            elif sets:
                k = rng.randrange(len(sets))
                owner, number, rank, suits = sets[k]
                missing = [s for s in SUITS if s not in suits and rank + s in free]
                if len(suits) >= 3 or not missing:
                    continue
                card = rank + missing[0]
                suits.add(missing[0])
            else:
                continue
            free.discard(card)
            layoffs.append(f"{card} {owner} {number}")
        texts[name]["layoffs"] = "\n".join(layoffs)
    pool = sorted(free)
    rng.shuffle(pool)
    for name in names:
        if name == out:
            continue
        # out.empty-hand: only the one who went out is left with no cards
        held = [pool.pop() for _ in range(rng.choice([1, 1, 2, 3, 4]))]
        if jokers_left and rng.random() < 0.15:
            held.append("jk")
            jokers_left -= 1
        texts[name]["hand"] = " ".join(held)
    return texts


def play_random_league(seed: int = 15, games_count: int = 24) -> None:
    """A league of 500 Rum games with jokers (and a few of Basic Rummy) from January
    2025 to March 2026, every hand recorded card by card through the scorebook."""
    from datetime import UTC, datetime, timedelta

    from scorebook.extensions import db
    from scorebook.services import games, hands
    from scorebook.services.entry import entry_from_text

    rng = random.Random(seed)
    league = games.default_league()
    names_pool = ["Ann", "Ben", "Cy", "Dee", "Gran"]
    start = datetime(2025, 1, 10, 20, 0, tzinfo=UTC)
    for g in range(games_count):
        basic = g % 6 == 5
        names = rng.sample(names_pool, rng.choice([2, 3, 3, 4]))
        rules = games.build_rules("basic" if basic else "pagat-500",
                                  {"target": 100 if basic else 200})
        game = games.create_game(league, names, 0, rules)
        for _ in range(60):
            if not game.is_open:
                break
            out = rng.choice(names)
            texts = random_hand(rng, names, out, jokers=not basic, basic=basic)
            rummy = basic and not texts[out]["layoffs"] and rng.random() < 0.3
            try:
                entry = entry_from_text(names, texts, out, None, rummy, basic)
                hands.record_hand(game, entry)
            except Exception:  # an unlucky random hand (e.g. nobody scores): deal again
                db.session.rollback()
        game.finished_at = start + timedelta(days=18 * g)
        db.session.commit()
