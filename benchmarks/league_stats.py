"""League statistics benchmark (the pages of issue 15; benchmarks/league.py times how the
league pages and writes grow): a league of 5,000 finished games among 20 players, every card of
every hand stored, in a temporary SQLite file; the time the league pages take to
render — the standings, a player page (with its statistics from the cards), the
history, the records, head to head, a season's recap and a finished game's figures —
and the same on a league of 50,000 games, to show how each page grows.

    .venv/bin/python benchmarks/league_stats.py [--sizes 5000,50000] [--players 20] [--runs 9]

The league is built with bulk inserts (``benchmarks/card_league.py``: 500 Rum to 500,
2 to 6 players a game, legal melds, lay-offs and stranded cards, random but seeded).
The pages are fetched through Flask's test client; each figure is the median of
``--runs`` requests after one warm-up, with the CPU time of this process beside it
(SQLite runs in it), each with the statistics kept in the process forgotten first
(as on the first view after a change: everything aggregated again from the cache
tables), then again as a page seen before (the figures kept, ``scorebook.services.memo``).
Apart: the first request (every result and rating built), the
first count of every game's cards into the statistics cache (what ``flask scorebook
stats`` does; the pages spread it over a few requests), and, after one hand of a game
half-way back is edited, the ratings replay and the statistics of that one game
counted again.  The targets (each page under 200 ms) apply to the first size.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from card_league import build  # noqa: E402
from sqlalchemy import update  # noqa: E402

from app import create_app  # noqa: E402
from scorebook.extensions import db  # noqa: E402
from scorebook.models import Game, League, Player, Season  # noqa: E402
from scorebook.services import (  # noqa: E402
    access,
    memo,  # noqa: E402
    ratings,
)
from scorebook.services.stats import cache  # noqa: E402

TARGET_MS = 200  # every league and statistics page, median
#: Pages with a target (the history is timed for comparison).
TARGETED = ("standings", "player", "records", "head to head", "season recap", "game")


def timed(fn: Callable[[], object]) -> float:
    began = time.perf_counter()
    fn()
    return (time.perf_counter() - began) * 1000


def cpu_timed(fn: Callable[[], object]) -> float:
    """CPU time of this process (SQLite runs in it): what other work on the machine
    does not inflate."""
    began = time.process_time()
    fn()
    return (time.process_time() - began) * 1000


def run(games: int, players: int, runs: int) -> dict[str, float]:
    """Build a league of ``games`` games and time its pages; the medians by page."""
    print(f"\n=== {games:,} games ===")
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
                          "SECRET_KEY": "benchmark", "STATS_REFRESH_SECONDS": None},
                         instance_path=folder)
        with app.app_context():
            db.create_all()
            began = time.perf_counter()
            league_id = build(games, players, progress=print)
            print(f"build: {time.perf_counter() - began:.1f} s")
            player_id = db.session.scalar(db.select(Player.id).order_by(Player.id))
            other_id = db.session.scalar(db.select(Player.id).order_by(Player.id)
                                         .offset(1).limit(1))
            game_id = db.session.scalar(db.select(Game.id).order_by(Game.id.desc()))
        client = app.test_client()
        with app.app_context(), client.session_transaction() as session:
            # the benchmark's browser owns the league (leagues are private)
            access.remember(session, db.session.get(League, league_id), access.OWNER)

        def get(url: str) -> None:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        print(f"first request (builds every result and rating): "
              f"{timed(lambda: get('/league/?season=all')):.0f} ms")
        with app.app_context():
            wall = time.perf_counter()
            cpu = time.process_time()
            cache.refresh(league_id)
            print(f"first count of every game's cards (flask scorebook stats): "
                  f"{time.perf_counter() - wall:.1f} s (CPU {time.process_time() - cpu:.1f} s)")
            season = db.session.scalar(db.select(Season).where(Season.league_id == league_id)
                                       .order_by(Season.starts_on.desc()).offset(1).limit(1))
            season_id = season.id if season else 0

        def fresh_board() -> None:
            app.extensions.get("scorebook_boards", {}).clear()  # rendered anew each time
            get(f"/games/{game_id}")

        pages: dict[str, Callable[[], None]] = {
            "standings (all time)": lambda: get("/league/?season=all"),
            "standings (one season)": lambda: get("/league/"),
            "player page, all time (with its statistics)":
                lambda: get(f"/league/players/{player_id}?season=all"),
            "player page, one season": lambda: get(
                f"/league/players/{player_id}?season={season_id}"),
            "records (all time)": lambda: get("/league/records"),
            "records (one season)": lambda: get(f"/league/records?season={season_id}"),
            "head to head (all time)": lambda: get(
                f"/league/head-to-head?a={player_id}&b={other_id}&season=all"),
            "season recap": lambda: get(f"/league/seasons/{season_id}/recap"),
            "game page, a finished game's figures": fresh_board,
            "history (page 1)": lambda: get("/league/history"),
        }
        medians: dict[str, float] = {}
        for label, fetch in pages.items():
            def fresh(fetch: Callable[[], None] = fetch) -> None:
                memo.forget()  # as on the first view after the league changed
                fetch()

            fetch()
            walls = [timed(fresh) for _ in range(runs)]
            cpus = [cpu_timed(fresh) for _ in range(runs)]
            kept = [timed(fetch) for _ in range(runs)]
            kept_cpus = [cpu_timed(fetch) for _ in range(runs)]
            medians[label] = statistics.median(walls)
            print(f"{label}: median {medians[label]:.0f} ms (min {min(walls):.0f}, "
                  f"max {max(walls):.0f}, {runs} runs; CPU median "
                  f"{statistics.median(cpus):.0f} ms); figures kept from the last view: "
                  f"{statistics.median(kept):.0f} ms (CPU {statistics.median(kept_cpus):.0f})")
        with app.app_context():
            middle = db.session.scalar(db.select(Game.id).where(Game.league_id == league_id)
                                       .order_by(Game.id).offset(games // 2).limit(1))
            db.session.execute(update(Game).where(Game.id == middle)
                               .values(revision=Game.revision + 1))
            db.session.commit()
            replay = timed(lambda: ratings.refresh(league_id))
            recount = timed(lambda: cache.refresh(league_id))
            print(f"after one hand of game {middle} is edited: ratings replayed "
                  f"({games - games // 2} games) {replay:.0f} ms; that game's statistics "
                  f"counted again {recount:.0f} ms")
        with app.app_context():  # and a page right after such an edit
            db.session.execute(update(Game).where(Game.id == middle)
                               .values(revision=Game.revision + 1))
            db.session.commit()
        after = timed(lambda: get("/league/records"))
        print(f"records page right after an edit (recounts that game first): {after:.0f} ms")
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5000,50000",
                        help="league sizes in games, comma-separated (the first has targets)")
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    results = {size: run(size, args.players, args.runs) for size in sizes}
    first = sizes[0]
    if len(sizes) > 1:
        print(f"\nhow each page grows (median ms; × the {first:,}-game league):")
        for label in results[first]:
            cells = [f"{results[s][label]:.0f} ms" + (
                f" (×{results[s][label] / results[first][label]:.1f})" if s != first else "")
                for s in sizes]
            print(f"  {label}: " + " · ".join(f"{s:,}: {c}" for s, c in zip(sizes, cells)))
    missed = [label for label, ms in results[first].items()
              if label.startswith(TARGETED) and ms > TARGET_MS]
    if missed:
        print(f"TARGETS MISSED on {first:,} games (over {TARGET_MS} ms): {', '.join(missed)} "
              f"(load average {os.getloadavg()[0]:.1f})")
        sys.exit(1)
    print(f"targets met: every league and statistics page under {TARGET_MS} ms on "
          f"{first:,} games")


if __name__ == "__main__":
    main()
