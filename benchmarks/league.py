"""League benchmark: a league of 5,000 finished games among 20 players, in a temporary
SQLite file, and the time the standings page and a player page take to render.

    .venv/bin/python benchmarks/league.py [--games 5000] [--players 20] [--runs 9]

The league is built with bulk inserts (games, seats, hands and each player's hand
score; 500 Rum to 500, 2 to 6 players a game, random but seeded).  No cards are
stored: no league figure reads them (they come from the stored hand scores).  The
pages are fetched through Flask's test client; each figure is the median of
``--runs`` requests after one warm-up.  The first request's time includes building
every per-game result and replaying every rating (reported separately), as does
the time to replay the ratings after a game half-way through the league is edited.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert, update  # noqa: E402

from app import create_app  # noqa: E402
from referee import make_rules  # noqa: E402
from scorebook import access, ratings  # noqa: E402
from scorebook.extensions import db  # noqa: E402
from scorebook.models import (  # noqa: E402
    FINISHED,
    WENT_OUT,
    Game,
    Hand,
    HandScore,
    League,
    Player,
    Seat,
)

TARGET_MS = 200  # the standings and a player page, median

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou",
         "Max", "Ned", "Ole", "Pam", "Quin", "Rex", "Sue", "Tom", "Uma", "Vic", "Wes", "Xia"]


def build(games: int, players: int, seed: int = 500) -> int:
    """Insert the league; returns its id."""
    rng = random.Random(seed)
    rules = make_rules("rummy-500").as_dict()
    league = League(name="Benchmark league")
    db.session.add(league)
    db.session.flush()
    names = [NAMES[i % len(NAMES)] + (str(i // len(NAMES)) if i >= len(NAMES) else "")
             for i in range(players)]
    db.session.execute(insert(Player), [{"league_id": league.id, "name": n} for n in names])
    player_ids = list(db.session.scalars(db.select(Player.id).where(
        Player.league_id == league.id).order_by(Player.id)))
    start = datetime(2016, 1, 1, 19, 0, tzinfo=UTC)
    game_rows, seat_rows, hand_rows, score_rows = [], [], [], []
    hand_id = 0
    for g in range(1, games + 1):
        table = rng.sample(player_ids, rng.randint(2, min(6, players)))
        totals = dict.fromkeys(table, 0)
        when = start + timedelta(hours=17 * g + rng.randint(0, 5))
        number = 0
        while max(totals.values()) < 500:
            number += 1
            hand_id += 1
            out = rng.choice(table)
            hand_rows.append({"id": hand_id, "game_id": g, "number": number,
                              "dealer_id": table[(number - 1) % len(table)],
                              "ending": WENT_OUT, "went_out_id": out, "going_rummy": False,
                              "complete": True, "version": 1, "created_at": when,
                              "updated_at": when})
            for p in table:
                melded = rng.randint(40, 140) if p == out else rng.randint(0, 90)
                stranded = 0 if p == out else rng.randint(0, 60)
                totals[p] += melded - stranded
                score_rows.append({"hand_id": hand_id, "player_id": p, "melded": melded,
                                   "stranded": stranded, "score": melded - stranded})
        winner = max(table, key=lambda p: totals[p])
        game_rows.append({"id": g, "number": g, "league_id": league.id, "family": "rummy-500",
                          "rules_json": rules, "target": 500, "status": FINISHED,
                          "winner_id": winner, "started_at": when - timedelta(hours=2),
                          "finished_at": when, "revision": number})
        seat_rows += [{"game_id": g, "player_id": p, "position": i, "first_dealer": i == 0}
                      for i, p in enumerate(table)]
    for model, rows in ((Game, game_rows), (Seat, seat_rows), (Hand, hand_rows),
                        (HandScore, score_rows)):
        for i in range(0, len(rows), 5000):
            db.session.execute(insert(model), rows[i:i + 5000])
    db.session.commit()
    print(f"built: {games} games, {players} players, {len(hand_rows)} hands, "
          f"{len(score_rows)} hand scores")
    return league.id


def timed(fn: object) -> float:
    began = time.perf_counter()
    fn()  # type: ignore[operator]
    return (time.perf_counter() - began) * 1000


def cpu_timed(fn: object) -> float:
    """CPU time of this process (SQLite runs in it): what other work on the machine
    does not inflate."""
    began = time.process_time()
    fn()  # type: ignore[operator]
    return (time.process_time() - began) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
                          "SECRET_KEY": "benchmark"}, instance_path=folder)
        with app.app_context():
            db.create_all()
            began = time.perf_counter()
            league_id = build(args.games, args.players)
            print(f"build: {time.perf_counter() - began:.1f} s")
            player_id = db.session.scalar(db.select(Player.id).order_by(Player.id))
        client = app.test_client()
        with app.app_context(), client.session_transaction() as session:
            # the benchmark's browser owns the league (leagues are private)
            access.remember(session, db.session.get(League, league_id), access.OWNER)
        pages = {"standings (all time)": "/league/?season=all",
                 "standings (one season)": "/league/",
                 "standings sorted by streak": "/league/?season=all&sort=streak",
                 "player page": f"/league/players/{player_id}",
                 "history (page 1)": "/league/history"}

        def get(url: str) -> None:
            response = client.get(url)
            assert response.status_code == 200, response.status_code

        print(f"first request (builds every result and rating): "
              f"{timed(lambda: get(pages['standings (all time)'])):.0f} ms")
        medians = {}
        for label, url in pages.items():
            get(url)
            runs = [timed(lambda url=url: get(url)) for _ in range(args.runs)]
            cpu = [cpu_timed(lambda url=url: get(url)) for _ in range(args.runs)]
            medians[label] = statistics.median(runs)
            print(f"{label}: median {medians[label]:.0f} ms "
                  f"(min {min(runs):.0f}, max {max(runs):.0f}, {args.runs} runs; "
                  f"CPU median {statistics.median(cpu):.0f} ms)")
        with app.app_context():
            middle = args.games // 2
            db.session.execute(update(Game).where(Game.id == middle)
                               .values(revision=Game.revision + 1))
            db.session.commit()
            replay = timed(lambda: ratings.refresh(league_id))
            print(f"ratings after editing game {middle} of {args.games} "
                  f"(replays {args.games - middle + 1} games): {replay:.0f} ms")
    missed = [label for label, ms in medians.items()
              if label.startswith(("standings", "player")) and ms > TARGET_MS]
    if missed:
        print(f"TARGETS MISSED (over {TARGET_MS} ms): {', '.join(missed)} "
              f"(load average {os.getloadavg()[0]:.1f})")
        sys.exit(1)
    print(f"targets met: standings and the player page under {TARGET_MS} ms")


if __name__ == "__main__":
    main()
