"""Where one chunk of the statistics count spends its time: each aggregate query of
``scorebook.services.stats.cache`` on a chunk of 200 games (wall and CPU), then the
chunk counted as ``cache.refresh`` counts it (``drop`` + ``build`` + commit) under
cProfile, on a kept league (``benchmarks/league_jobs.py --cards --keep DIR`` makes one).

    .venv/bin/python benchmarks/stats_chunk.py sqlite:///DIR/jobs-5000-cards.sqlite3 [FIRST]

``FIRST``: the index of the chunk's first game among the league's out-of-date ones
(default 0). The chunk's rows are stored: run it on a copy of the kept file.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app import create_app  # noqa: E402
from scorebook.extensions import db  # noqa: E402
from scorebook.models import League  # noqa: E402
from scorebook.services.stats import cache as c  # noqa: E402


def main() -> None:
    url = sys.argv[1]
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "benchmark"},
                     instance_path="/tmp")
    with app.app_context():
        league_id = db.session.scalar(db.select(League.id).order_by(League.id.desc()))
        assert league_id is not None
        behind, _gone = c.stale(league_id)
        chunk = behind[first:first + c.CHUNK]
        values = next(iter(c._by_values(chunk)))
        parts: list[tuple[str, Callable[[], object]]] = [
            ("scores", lambda: list(c._scores(chunk)[0])),
            ("meld cards", lambda: list(c._meld_cards(chunk, values)[0])),
            ("stranded", lambda: list(c._stranded(chunk, values)[0])),
            ("melds", lambda: list(c._melds(chunk)[0])),
            ("streaks", lambda: list(c._streaks(chunk)[0])),
            ("lay-offs", lambda: list(c._layoffs(chunk, values))),
            ("leads", lambda: list(c._leads(chunk)))]
        for name, query in zip(("tally: melded", "tally: stranded", "tally: shapes",
                                "tally: scores"), c._tallies(chunk)):
            parts.append((name, lambda q=query: list(db.session.execute(q))))
        for name, run in parts:
            wall, cpu = time.perf_counter(), time.process_time()
            run()
            print(f"{name}: {(time.perf_counter() - wall) * 1000:.0f} ms wall, "
                  f"{(time.process_time() - cpu) * 1000:.0f} ms CPU")
        db.session.rollback()
        wall, cpu = time.perf_counter(), time.process_time()
        profile = cProfile.Profile()
        profile.enable()
        c.drop(chunk)
        c.build(league_id, chunk)
        db.session.commit()
        profile.disable()
        print(f"the chunk of {len(chunk)} games counted and stored: "
              f"{time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.2f} s CPU")
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
