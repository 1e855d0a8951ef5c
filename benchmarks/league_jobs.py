"""Exports and statistics as background jobs (issue 28, with issue 25's jobs): a league's
whole export written by the ``league-export`` job (gzip-compressed compact JSON) beside
the streamed ``export.json``, and the statistics cache counted afresh by the
``stats-rebuild`` job, on SQLite (a file) or PostgreSQL (``TEST_DATABASE_URL``).

    .venv/bin/python benchmarks/league_jobs.py [--games 50000] [--cards]
        [--only export,stats] [--keep DIR] [--database SQLite|PostgreSQL] [--no-plain]
        [--no-baseline] [--stop-after SECONDS]

The league is built as ``benchmarks/league.py`` builds it (hands and hand scores, no
cards: 50,000 games in minutes), or with ``--cards`` as ``benchmarks/card_league.py``
does (every card stored: what the statistics read; 5,000 games take about ten minutes
to build on a busy machine). ``--keep DIR`` keeps the SQLite file (and PostgreSQL's
league) for the next run. Each job runs as the worker runs it (``jobs.run_claimed``:
a step per transaction, the worker's pause after each on SQLite), timed wall-clock and
in CPU of this process (SQLite runs in it); beside the export, the streamed
``export.json`` of the same league (its time and size; ``--no-plain`` skips it). The
export's file is then read back as the import reads it (every game parsed) and its
games counted; the statistics job's rows are counted against a count in one go
(``cache.refresh``, as ``flask scorebook stats`` does; ``--no-baseline`` skips it).
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))  # (after it: benchmarks/scorebook.py)

from sqlalchemy import delete, func, select  # noqa: E402

from app import create_app  # noqa: E402
from scorebook.extensions import db  # noqa: E402
from scorebook.models import (  # noqa: E402
    Game,
    GameResult,
    GameStat,
    Job,
    League,
    PlayerGameStat,
    StatTally,
)
from scorebook.services import export_jobs, exports, jobs, ratings  # noqa: E402
from scorebook.services.stats import cache, rebuild  # noqa: E402
from scorebook.services.stats.cards import chunks  # noqa: E402
from scorebook.services.transaction import transaction  # noqa: E402


def league_named(name: str) -> int | None:
    return db.session.scalar(select(League.id).where(League.name == name))


def build(games: int, cards: bool) -> int:
    name = f"Jobs benchmark {games}{' cards' if cards else ''}"
    found = league_named(name)
    if found is not None:
        print(f"reusing the kept league '{name}'")
        if not db.session.scalar(select(func.count()).select_from(GameResult).join(Game)
                                 .where(Game.league_id == found)):
            ratings.rebuild(found)  # (a league kept without its results)
            db.session.commit()
        return found
    began = time.perf_counter()
    if cards:
        import card_league

        league_id = card_league.build(games, 20, progress=print)
        db.session.get(League, league_id).name = name  # type: ignore[union-attr]
        db.session.commit()
    else:
        import league as league_bench

        league_id = league_bench.build(name, games, 20)
    ratings.rebuild(league_id)
    db.session.commit()
    print(f"built in {time.perf_counter() - began:.0f} s")
    return league_id


#: Seconds after which the statistics job is stopped between two steps (None: run to
#: its end); ``--stop-after``, for a machine too busy to run it to its end.
STOP_AFTER: float | None = None


def run_job(job: Job, stop_after: float | None = None) -> tuple[Job, float, float, int]:
    """Run the job as a worker does (stopped after ``stop_after`` seconds); it as it
    ended, wall s, CPU s, steps."""
    steps = {"n": 0}
    began = time.perf_counter()

    def stop() -> bool:
        steps["n"] += 1
        return stop_after is not None and time.perf_counter() - began > stop_after

    wall, cpu = time.perf_counter(), time.process_time()
    claimed = jobs.claim("bench", job_id=job.id)
    assert claimed is not None
    ended = jobs.run_claimed(claimed, "bench", lambda _j, said: repr(said), stop)
    return ended, time.perf_counter() - wall, time.process_time() - cpu, steps["n"]


def export(league_id: int, plain: bool) -> None:
    league = db.session.get(League, league_id)
    assert league is not None
    games = export_jobs.games_of(league)
    if plain:
        wall, cpu = time.perf_counter(), time.process_time()
        size = sum(len(piece.encode()) for piece in exports.export_league_chunks(league))
        print(f"export.json streamed (as the request writes it): {size / 1e6:.0f} MB, "
              f"{time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.1f} s CPU")
        db.session.rollback()
    job = jobs.submit(export_jobs.EXPORT_JOB, "bench", league_id, {}, limit=1000)
    ended, wall, cpu, steps = run_job(job)
    assert ended.state == "done", ended.error
    result: dict[str, Any] = ended.result or {}
    path = os.path.join(export_jobs.folder(), export_jobs.file_name(ended.id))
    print(f"export job: {result['games']:,} games, {result['bytes'] / 1e6:.1f} MB "
          f"(.json.gz), {wall:.1f} s wall, {cpu:.1f} s CPU, {steps} steps, slowest step "
          f"{result.get('slowest_step_s', 0):.2f} s")
    with open(path, "rb") as raw:
        unpacked = 0
        with gzip.open(raw) as text:
            while chunk := text.read(1 << 20):
                unpacked += len(chunk)
    began = time.perf_counter()
    with open(path, "rb") as stream:
        data = exports.read_league_file(stream)
        read = sum(1 for _ in data["games"])
    assert read == games == result["games"], (read, games)
    print(f"read back as the import reads it: {read:,} games parsed in "
          f"{time.perf_counter() - began:.1f} s; its JSON is {unpacked / 1e6:.0f} MB "
          f"unpacked (compact), the file {result['bytes'] / unpacked:.1%} of it")
    os.unlink(path)


def rows(league_id: int) -> tuple[int, ...]:
    games = select(Game.id).where(Game.league_id == league_id)
    return tuple(db.session.scalar(select(func.count()).select_from(model).where(
        model.game_id.in_(games))) or 0 for model in (GameStat, PlayerGameStat, StatTally))


def stats(league_id: int, baseline: bool) -> None:
    ids = list(db.session.scalars(select(Game.id).where(Game.league_id == league_id)))
    if baseline and rows(league_id)[0] == 0:
        print("counting the cache once (the rows to compare with)...")
        began = time.perf_counter()
        cache.refresh(league_id)
        print(f"  in one go (cache.refresh, as flask scorebook stats): "
              f"{time.perf_counter() - began:.1f} s")
    counted = rows(league_id)
    for part in chunks(ids, 2000):
        with transaction():
            cache.drop(part)
    with transaction():  # (a job an earlier run left, stopped or killed)
        db.session.execute(delete(Job).where(Job.kind == rebuild.STATS_JOB,
                                             Job.league_id == league_id))
    job = rebuild.start(league_id)
    assert job is not None
    ended, wall, cpu, steps = run_job(job, STOP_AFTER)
    if ended.state == "queued":  # (stopped by --stop-after)
        print(f"statistics job stopped after {wall:.0f} s: {ended.done:,} of "
              f"{ended.total:,} games counted in {cpu:.1f} s CPU ({steps} steps): "
              f"{cpu / max(ended.done, 1) * 1000:.1f} ms CPU a game, "
              f"{wall / max(ended.done, 1) * 1000:.0f} ms wall")
        return
    assert ended.state == "done", ended.error
    again = rows(league_id)
    assert again == counted or not baseline, (again, counted)
    print(f"statistics job: {ended.done:,} games counted afresh, {wall:.1f} s wall, "
          f"{cpu:.1f} s CPU, {steps} steps, slowest step "
          f"{(ended.result or {}).get('slowest_step_s', 0):.2f} s; rows {again} "
          f"(game, player-game, tally){' as a count in one go gives' if baseline else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50000)
    parser.add_argument("--cards", action="store_true", help="every card stored")
    parser.add_argument("--only", default="export,stats")
    parser.add_argument("--keep", help="folder that keeps the SQLite league")
    parser.add_argument("--database", default="SQLite")
    parser.add_argument("--no-plain", action="store_true",
                        help="skip the streamed export.json beside the job")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the count in one go before the statistics job")
    parser.add_argument("--stop-after", type=float,
                        help="stop the statistics job after so many seconds: its rate")
    args = parser.parse_args()
    global STOP_AFTER
    STOP_AFTER = args.stop_after
    folder = Path(args.keep or "/tmp/league-jobs").resolve()
    folder.mkdir(parents=True, exist_ok=True)
    if args.database.lower() == "postgresql":
        url = os.environ["TEST_DATABASE_URL"]
    else:
        url = f"sqlite:///{folder}/jobs-{args.games}{'-cards' if args.cards else ''}.sqlite3"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "benchmark"},
                     instance_path=str(folder / "instance"))
    with app.app_context():
        db.create_all()
        league_id = build(args.games, args.cards)
        print(f"{args.database}, {args.games:,} games{' (every card)' if args.cards else ''}, "
              f"load average {os.getloadavg()[0]:.1f}")
        if "export" in args.only:
            export(league_id, not args.no_plain)
        if "stats" in args.only:
            stats(league_id, not args.no_baseline)
        print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
