"""The history pages, and the player page's statements that grow with the league, on a
league kept by ``benchmarks/league.py --keep DIR`` (no statistics counted here, so it
runs while a big league's first count is still going), beside a bare Flask page
through the same app and test client (issue 28).

    .venv/bin/python benchmarks/league_pages.py --url sqlite:////tmp/lb/league-50000.sqlite3
        [--tree DIR] [--runs 5]

``--tree`` runs another checkout's code (``git archive <commit> | tar -x -C DIR``) on the
same league, for a before and after.  Each figure: the median of ``--runs`` after one
warm-up, wall clock and CPU time of this process (on SQLite the database's work too).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the kept league's database URL")
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, args.tree)
    from sqlalchemy import func, select

    from app import create_app
    from scorebook.extensions import db
    from scorebook.models import Game, League, Player, Seat
    from scorebook.services import access, memo
    from scorebook.services import league as service
    from scorebook.services.stats import cache

    app = create_app({"SQLALCHEMY_DATABASE_URI": args.url, "SECRET_KEY": "benchmark",
                      "RATINGS_CATCH_UP": "manual"}, instance_path=tempfile.mkdtemp())

    @app.get("/_bench/bare")
    def bare() -> str:
        return "ok"

    with app.app_context():
        lid = db.session.scalar(select(League.id).where(League.name.like("Benchmark league%")))
        total = db.session.scalar(select(func.count()).select_from(Game)
                                  .where(Game.league_id == lid)) or 0
        big, theirs = db.session.execute(
            select(Seat.player_id, func.count()).join(Game, Game.id == Seat.game_id)
            .where(Game.league_id == lid).group_by(Seat.player_id)
            .order_by(func.count().desc()).limit(1)).one()
        query = service.history_query(db.session.get(League, lid))
        oldest = db.session.scalars(query.offset(total - 21).limit(1)).first()
        cursor = quote(service.cursor_of(oldest))
    client = app.test_client()
    with app.app_context(), client.session_transaction() as session:
        access.remember(session, db.session.get(League, lid), access.OWNER)

    def get(path: str) -> Callable[[], None]:
        def fetch() -> None:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
        return fetch

    def median(fn: Callable[[], Any]) -> tuple[float, float]:
        fn()
        wall, cpu = [], []
        for _ in range(args.runs):
            began, cpu_began = time.perf_counter(), time.process_time()
            fn()
            wall.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - cpu_began) * 1000)
        return statistics.median(wall), statistics.median(cpu)

    bare_wall, bare_cpu = median(get("/_bench/bare"))
    print(f"code of {args.tree}: {total:,} games; the biggest player {big} with "
          f"{theirs:,} games")
    print(f"  bare page: {bare_wall:.1f} ms wall, {bare_cpu:.2f} ms CPU")
    pages = {
        "history, page 1": "/league/history",
        "history, last page (by number)": f"/league/history?page={-(-total // 20)}",
        "history, middle page (by number)": f"/league/history?page={total // 40}",
        "history, last page (by its Older link)":
            f"/league/history?before={cursor}&page={-(-total // 20)}",
        "history of the biggest player, page 1": f"/league/history?player={big}",
        "history of the biggest player, last page (by number)":
            f"/league/history?player={big}&page={-(-theirs // 20)}"}
    for label, path in pages.items():
        wall, cpu = median(get(path))
        print(f"  {label}: {wall:.0f} ms wall, {cpu:.0f} ms CPU ({cpu / bare_cpu:.0f}× the "
              "bare page's CPU)")
    with app.app_context():
        who = db.session.get(Player, big)
        looks: dict[str, Callable[[], Any]] = {
            "the look for stale games (cache.stale)": lambda: cache.stale(lid),
            "the figures' version from the cache rows (memo.version)":
                lambda: memo.version(lid),
            "the biggest player's rating line": lambda: service.rating_line(who),
            "one row of the league": lambda: db.session.execute(
                select(League.name).where(League.id == lid)).one()}
        for label, fn in looks.items():
            wall, cpu = median(fn)
            print(f"  {label}: {wall:.0f} ms wall, {cpu:.0f} ms CPU")


if __name__ == "__main__":
    main()
