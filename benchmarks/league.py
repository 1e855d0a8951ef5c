"""League benchmark: leagues of 500, 5,000 and 50,000 finished games among 20 players,
on SQLite (a file) and, when ``TEST_DATABASE_URL`` is set, on PostgreSQL; how each
league page and each write grows with the league.

    .venv/bin/python benchmarks/league.py [--sizes 500,5000,50000] [--players 20]
        [--runs 5] [--keep DIR] [--databases SQLite,PostgreSQL] [--only player,history]

The league is built with bulk inserts (games, seats, hands and each player's hand
score; 500 Rum to 500, 2 to 6 players a game, random but seeded; played as a real club
plays, three evenings a week, 4–12 games an evening, the last evening yesterday:
``benchmarks/league_data.py``; on PostgreSQL the id sequences are then set past the
inserted ids), then its results and ratings once (``ratings.rebuild``, timed).  No
cards are stored: no league figure reads them.  ``--keep DIR`` keeps each SQLite
league in DIR (and PostgreSQL's in its database) and reuses it on the next run (a
league kept from before this branch's migration needs ``flask db upgrade`` on its file
first: the columns it adds; one kept from before the real dates keeps its old ones).
``--only`` runs only the rows whose labels start so (``writes`` for the writes).
Pages go through Flask's test client; each figure is the median of ``--runs``
requests after one warm-up (beside it, the CPU time of this process: on SQLite the
whole page, database included).  Writes are timed from the change to the end of its
commit (which brings the league's results and ratings up to date); a replay of later
ratings that a write leaves to the background is timed apart (``ratings.catch_up``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from league_data import league_times, set_sequences  # noqa: E402
from sqlalchemy import insert, select, update  # noqa: E402
from sqlalchemy.schema import CreateIndex  # noqa: E402

from app import create_app  # noqa: E402
from referee import make_rules  # noqa: E402
from scorebook.extensions import db  # noqa: E402
from scorebook.models import (  # noqa: E402
    FINISHED,
    WENT_OUT,
    Game,
    GameResult,
    Hand,
    HandScore,
    League,
    Player,
    PlayerTally,
    Season,
    Seat,
    player_stat_sum,
)
from scorebook.services import access, memo, ratings, seasons  # noqa: E402
from scorebook.services.stats import cache as stats_cache  # noqa: E402

TARGETS = {"standings": 200, "player": 200, "history": 200, "results.csv first byte": 200,
           "export.json first byte": 200, "edit the first game": 300}

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou",
         "Max", "Ned", "Ole", "Pam", "Quin", "Rex", "Sue", "Tom", "Uma", "Vic", "Wes", "Xia"]


def build(name: str, games: int, players: int, seed: int = 500) -> int:
    """Insert the league; returns its id."""
    rng = random.Random(seed)
    rules = make_rules("rummy-500").as_dict()
    league = League(name=name)
    db.session.add(league)
    db.session.flush()
    names = [NAMES[i % len(NAMES)] + (str(i // len(NAMES)) if i >= len(NAMES) else "")
             for i in range(players)]
    db.session.execute(insert(Player), [{"league_id": league.id, "name": n} for n in names])
    player_ids = list(db.session.scalars(db.select(Player.id).where(
        Player.league_id == league.id).order_by(Player.id)))
    first_game = (db.session.scalar(select(db.func.max(Game.id))) or 0) + 1
    first_hand = (db.session.scalar(select(db.func.max(Hand.id))) or 0) + 1
    times = league_times(games, seed)  # evenings of a real league, ending yesterday
    game_rows, seat_rows, hand_rows, score_rows = [], [], [], []
    hand_id = first_hand - 1
    for g in range(first_game, first_game + games):
        table = rng.sample(player_ids, rng.randint(2, min(6, players)))
        totals = dict.fromkeys(table, 0)
        started, when = times[g - first_game]
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
        game_rows.append({"id": g, "number": g - first_game + 1, "league_id": league.id,
                          "family": "rummy-500", "rules_json": rules, "target": 500,
                          "status": FINISHED, "winner_id": winner,
                          "started_at": started, "finished_at": when,
                          "revision": number})
        seat_rows += [{"game_id": g, "player_id": p, "position": i, "first_dealer": i == 0}
                      for i, p in enumerate(table)]
    for model, rows in ((Game, game_rows), (Seat, seat_rows), (Hand, hand_rows),
                        (HandScore, score_rows)):
        for i in range(0, len(rows), 5000):
            db.session.execute(insert(model), rows[i:i + 5000])
    set_sequences(db.session, db.metadata)  # (PostgreSQL: past the ids inserted here)
    db.session.commit()
    print(f"built: {games:,} games, {players} players, {len(hand_rows):,} hands, "
          f"{len(score_rows):,} hand scores")
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


def median_ms(fn: Callable[[], object], runs: int,
              before: Callable[[], object] | None = None) -> float:
    """The median of ``runs`` timings of ``fn`` after one warm-up; ``before`` (not timed)
    runs before each, such as an edit whose first view is timed."""
    fn()

    def once() -> float:
        if before is not None:
            before()
        return timed(fn)
    return statistics.median(once() for _ in range(runs))


def median_cpu_ms(fn: Callable[[], object], runs: int,
                  before: Callable[[], object] | None = None) -> float:
    def once() -> float:
        if before is not None:
            before()
        return cpu_timed(fn)
    return statistics.median(once() for _ in range(runs))


def first_byte_ms(client: object, url: str) -> tuple[float, float]:
    """Time to the first chunk of a streamed response, and to its end."""
    began = time.perf_counter()
    response = client.get(url, buffered=False)  # type: ignore[attr-defined]
    chunks = iter(response.response)
    next(chunks)
    first = (time.perf_counter() - began) * 1000
    for _ in chunks:
        pass
    response.close()
    return first, (time.perf_counter() - began) * 1000


def run(url: str, games: int, players: int, runs: int, only: list[str] | None = None
        ) -> dict[str, float]:
    print(f"\n=== {games:,} games, {url.split(':')[0]} ===")
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "benchmark",
                      "RATINGS_CATCH_UP": "manual"}, instance_path=tempfile.mkdtemp())

    @app.get("/_bench/bare")
    def bare() -> str:  # the anchor: a Flask page doing nothing, through the same hooks
        return "ok"

    name = f"Benchmark league {games}"
    out: dict[str, float] = {}
    with app.app_context():
        db.create_all()
        with db.engine.begin() as connection:  # (a kept league: indexes added since)
            for table in db.metadata.sorted_tables:
                for index in table.indexes:
                    connection.execute(CreateIndex(index, if_not_exists=True))
        league_id = db.session.scalar(select(League.id).where(League.name == name))
        if league_id is None or not db.session.scalar(
                select(db.func.count()).select_from(GameResult)
                .where(GameResult.league_id == league_id)):
            if league_id is not None:
                raise SystemExit(f"{name} is half built: drop it first")
            began = time.perf_counter()
            league_id = build(name, games, players)
            print(f"build: {time.perf_counter() - began:.1f} s")
            began = time.perf_counter()
            ratings.rebuild(league_id)
            db.session.commit()
            seasons.ensure_seasons(db.session.get(League, league_id))
            print(f"every result and rating, once: {time.perf_counter() - began:.1f} s")
            began = time.perf_counter()
            stats_cache.refresh(league_id)
            db.session.commit()
            print(f"the statistics cache, once: {time.perf_counter() - began:.1f} s")
        else:
            print("reusing the league built before")
            if not db.session.scalar(select(db.func.count()).select_from(PlayerTally)
                                     .where(PlayerTally.league_id == league_id)):
                ratings.retally(db.session, league_id)  # (a league kept from before them)
                db.session.commit()
            began = time.perf_counter()  # (a league kept from before the statistics cache)
            if stats_cache.refresh(league_id).changed:
                db.session.commit()
                print(f"the statistics cache, counted: {time.perf_counter() - began:.1f} s")
            if not db.session.scalar(select(db.func.count()).select_from(player_stat_sum)
                                     .where(player_stat_sum.c.league_id == league_id)):
                began = time.perf_counter()  # (a league kept from before the player sums)
                stats_cache.backfill_sums(db.session, league_id)
                db.session.commit()
                print(f"the player sums, once: {time.perf_counter() - began:.1f} s")
        player_id = db.session.scalar(select(Player.id).where(Player.league_id == league_id)
                                      .order_by(Player.id))
        # the player with the most games (the biggest page), and how many pages of
        # history their games fill
        biggest, their_games = db.session.execute(
            select(Seat.player_id, db.func.count()).join(Game, Game.id == Seat.game_id)
            .where(Game.league_id == league_id).group_by(Seat.player_id)
            .order_by(db.func.count().desc(), Seat.player_id).limit(1)).one()
        latest_season = db.session.scalar(select(Season.id).where(
            Season.league_id == league_id).order_by(Season.starts_on.desc()).limit(1))
        middle = db.session.scalar(select(Game.id).where(Game.league_id == league_id)
                                   .order_by(Game.id).offset(games // 2).limit(1))
    client = app.test_client()
    with app.app_context(), client.session_transaction() as session:
        access.remember(session, db.session.get(League, league_id), access.OWNER)

    def get(path: str) -> Callable[[], None]:
        def fetch() -> None:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
        return fetch

    with app.app_context():
        last_page = (db.session.scalar(select(db.func.count()).select_from(Game)
                                       .where(Game.league_id == league_id)) or 1) // 20
    pages = {"standings (all time)": "/league/?season=all",
             "standings (one season)": "/league/",
             "standings sorted by streak": "/league/?season=all&sort=streak",
             "player page": f"/league/players/{player_id}",
             "player page, first view": f"/league/players/{player_id}",
             "player page, first view after an edit": f"/league/players/{player_id}",
             "player page, the biggest player": f"/league/players/{biggest}",
             "player page, the biggest, one season":
                 f"/league/players/{biggest}?season={latest_season}",
             "history (page 1)": "/league/history",
             "history (last page)": f"/league/history?page={last_page}",
             "history (middle page)": f"/league/history?page={last_page // 2}",
             "history of the biggest player (page 1)": f"/league/history?player={biggest}",
             "history of the biggest player (last page)":
                 f"/league/history?player={biggest}&page={their_games // 20}"}

    def edit_middle() -> None:
        """A game half-way back gets one hand score a point higher (its winner kept):
        every figure kept in the process is then stale, the game's statistics too."""
        with app.app_context():
            game = db.session.get(Game, middle)
            hand = db.session.scalar(select(Hand.id).where(Hand.game_id == game.id)
                                     .order_by(Hand.number))
            db.session.execute(update(HandScore).where(
                HandScore.hand_id == hand, HandScore.player_id == game.winner_id)
                .values(score=HandScore.score + 1))
            game.revision += 1
            db.session.commit()

    befores: dict[str, Callable[[], object]] = {
        "player page, first view": memo.forget,  # (every figure of the process forgotten)
        "player page, first view after an edit": edit_middle}

    def wanted(label: str) -> bool:
        return only is None or any(label.startswith(o) for o in only)

    bare_ms = median_ms(get("/_bench/bare"), max(runs, 20))
    bare_cpu = median_cpu_ms(get("/_bench/bare"), max(runs, 20))
    out["bare page"], out["bare page, CPU"] = bare_ms, bare_cpu
    print(f"bare page: median {bare_ms:.1f} ms (CPU {bare_cpu:.1f} ms)")
    for label, path in pages.items():
        if not wanted(label):
            continue
        before = befores.get(label)
        out[label] = median_ms(get(path), runs, before)
        cpu = median_cpu_ms(get(path), runs, before)
        print(f"{label}: median {out[label]:.0f} ms, {out[label] / bare_ms:.0f}× the bare "
              f"page (CPU of this process: median {cpu:.0f} ms, {cpu / bare_cpu:.0f}×"
              f"{'' if 'sqlite' in url else ', the database server not counted'})")
        out[f"{label}, CPU"] = cpu
    for export in ("results.csv", "export.json"):
        if not wanted(export):
            continue
        firsts, wholes = zip(*(first_byte_ms(client, f"/league/{export}") for _ in range(3)))
        out[f"{export} first byte"] = statistics.median(firsts)
        out[f"{export} whole"] = statistics.median(wholes)
        print(f"{export}: first byte {out[f'{export} first byte']:.0f} ms, "
              f"whole {out[f'{export} whole']:.0f} ms")

    if not wanted("writes"):
        return out
    with app.app_context():
        order = select(Game).where(Game.league_id == league_id, Game.status == FINISHED)
        first = db.session.scalar(order.order_by(Game.finished_at, Game.id).limit(1))
        last = db.session.scalar(order.order_by(Game.finished_at.desc(), Game.id.desc()))

        def write(change: Callable[[], None]) -> float:
            began = time.perf_counter()
            change()
            db.session.commit()
            return (time.perf_counter() - began) * 1000

        def keep_order() -> None:  # one hand score a point higher, same winner
            hand = db.session.scalar(select(Hand.id).where(Hand.game_id == first.id)
                                     .order_by(Hand.number))
            db.session.execute(update(HandScore).where(
                HandScore.hand_id == hand, HandScore.player_id == first.winner_id)
                .values(score=HandScore.score + 1))
            first.revision += 1

        def new_winner() -> None:  # the game now won by another player
            others = [s.player_id for s in first.seats if s.player_id != first.winner_id]
            first.winner_id = others[0]
            first.revision += 1

        def finish_new() -> None:  # a game finished after every other
            last.finished_at = datetime.now(UTC)
            last.revision += 1

        out["edit the first game (same winner)"] = write(keep_order)
        out["edit the first game (new winner)"] = write(new_winner)
        began = time.perf_counter()
        ratings.catch_up(league_id)
        out["replay after it (background)"] = (time.perf_counter() - began) * 1000
        out["finish a game (the latest)"] = write(finish_new)
        began = time.perf_counter()  # (nothing after it to replay: it is the newest)
        ratings.catch_up(league_id)
        out["replay after finishing (background)"] = (time.perf_counter() - began) * 1000
        out["delete the first game"] = write(lambda: db.session.delete(first))
        began = time.perf_counter()
        ratings.catch_up(league_id)
        out["replay after the deletion (background)"] = (time.perf_counter() - began) * 1000
        for label in list(out)[-7:]:
            print(f"{label}: {out[label]:.0f} ms")
    with app.app_context():
        db.session.rollback()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="500,5000,50000")
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", help="folder that keeps the SQLite leagues between runs")
    parser.add_argument("--databases", default="SQLite,PostgreSQL",
                        help="which to run (PostgreSQL only when TEST_DATABASE_URL is set)")
    parser.add_argument("--only", help="run only these rows (comma-separated label starts: "
                        "'player,history'; 'writes' for the writes)")
    args = parser.parse_args()
    only = [o.strip() for o in args.only.split(",")] if args.only else None
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    folder = args.keep or tempfile.mkdtemp()
    Path(folder).mkdir(parents=True, exist_ok=True)
    databases = {"SQLite": lambda n: f"sqlite:///{Path(folder).resolve()}/league-{n}.sqlite3"}
    if os.environ.get("TEST_DATABASE_URL"):
        databases["PostgreSQL"] = lambda n: os.environ["TEST_DATABASE_URL"]
    wanted = {name.strip().lower() for name in args.databases.split(",")}
    databases = {name: url for name, url in databases.items() if name.lower() in wanted}
    missed = []
    for db_name, url in databases.items():
        results = {n: run(url(n), n, args.players, args.runs, only) for n in sizes}
        print(f"\n{db_name}: how each page and write grows (ms; × the {sizes[0]:,}-game "
              f"league)")
        for label in results[sizes[0]]:
            cells = [f"{results[n][label]:.0f}" + (
                f" (×{results[n][label] / max(results[sizes[0]][label], 0.1):.1f})"
                if n != sizes[0] else "") for n in sizes]
            print(f"  {label}: " + " · ".join(f"{n:,}: {c}" for n, c in zip(sizes, cells)))
            for key, target in TARGETS.items():
                limit = 1000 if key.startswith("edit") and sizes[-1] >= 50000 else target
                if label.startswith(key) and results[sizes[-1]][label] > limit:
                    missed.append(f"{db_name} {label} ({results[sizes[-1]][label]:.0f} ms)")
    if missed:
        print(f"TARGETS MISSED at {sizes[-1]:,} games: {'; '.join(missed)} "
              f"(load average {os.getloadavg()[0]:.1f})")
        sys.exit(1)
    print(f"targets met at {sizes[-1]:,} games")


if __name__ == "__main__":
    main()
