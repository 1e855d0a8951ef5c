"""The first views of a changed board: what a change costs the server when the phones of
a table fetch the board again, with the workers' kept pages shared
(``scorebook/web/shared_pages.py``) and without.

    .venv/bin/python benchmarks/load/changes.py [--databases sqlite,postgresql]
        [--changes 40] [--phones 8] [--workers 4] [--pg-database scorebook_changes]

The harness of ``pages.py`` (gunicorn with sync workers on 127.0.0.1, CPU read from
``/proc``; the 40-hand game of six and 30 finished games, a member's cookie, a phone's
``Accept-Encoding``). For each database, three servers one after the other: the bare
Flask page (the anchor: its CPU per request, wrk), then the app with
``KEPT_PAGES_SHARED=off`` (each worker renders a changed page itself, as before), then the
app as ``make serve`` runs it (pages shared through ``instance/kept-pages``). On each
app, ``--changes`` times: the game's version moves on (its revision, as any write moves
it), then ``--phones`` phones fetch the changed page (``/games/<id>/board``, what
``live.js`` fetches after a change; then the whole scoreboard ``/games/<id>``), each on a
new connection, so the workers share them out as at a table: all at once (the worst
case: every worker misses at the same moment), or one after another (as polls spread
over their interval); then the same phones fetch it again (every worker has it kept by
then: the cost of a kept page). Printed: the CPU of the first round per change, the kept
round's, and the difference: what the change made the workers render, in all and per
phone, beside the bare page.

Writes ``benchmarks/out/changes/<time>/results.json`` and prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import pages  # noqa: E402
import polls  # noqa: E402
import run  # noqa: E402

ROOT, OUT = run.ROOT, run.OUT
APPS = {
    "not shared (each worker renders)": 'app:create_app({"KEPT_PAGES_SHARED": "off"})',
    "shared (instance/kept-pages)": "app:create_app({})",
}


def round_of(server: run.Server, path: str, headers: dict[str, str], phones: int,
             at_once: bool) -> float:
    """``phones`` fetches of ``path``, each on its own connection, all at once or one
    after another; the server's CPU seconds they cost."""
    statuses: list[int] = []
    start = threading.Barrier(phones)

    def phone() -> None:
        start.wait()
        statuses.append(pages.get(server.url, path, headers)[0])

    threads = [threading.Thread(target=phone) for _ in range(phones)]
    before = server.cpu()
    if at_once:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    else:
        for _ in range(phones):
            statuses.append(pages.get(server.url, path, headers)[0])
    time.sleep(0.05)  # (the workers' last bookkeeping after the answers)
    spent = server.cpu() - before
    if any(s != 200 for s in statuses):
        raise SystemExit(f"{path}: answers {sorted(set(statuses))}")
    return spent


def measure(kind: str, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    url = (f"sqlite:///{folder / 'changes.sqlite3'}" if kind == "sqlite"
           else polls.postgres_url(args.pg_database))
    run.empty_database(url)
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "changes-benchmark"}
    upgraded = run.flask(env, "db", "upgrade")
    if upgraded.returncode:
        raise SystemExit(f"flask db upgrade failed:\n{upgraded.stderr}")
    big, _ids, token = pages.seed(url)
    result: dict[str, Any] = {"database": kind, "workers": args.workers,
                              "phones": args.phones, "changes": args.changes,
                              "load_average_before": os.getloadavg()[0], "apps": {}}
    db = polls.Database(url)
    try:
        with run.gunicorn("bare:create_app()", env, args.workers, folder / f"{kind}-bare.log",
                          chdir=HERE) as bare:
            anchor = run.wrk(bare, "/", 5, pages.ACCEPT, connections=4)
        result["bare_cpu_ms"] = anchor["cpu_ms_per_request"]
        for name, target in APPS.items():
            run.log(f"{kind}: {name}")
            with run.gunicorn(target, env, args.workers, folder / f"{kind}-app.log") as app:
                member = {"Cookie": run.member_cookie(app.url, token), **pages.ACCEPT}
                rows = {}
                for label, path, at_once in (
                        ("board only, phones at once", f"/games/{big}/board", True),
                        ("board only, one after another", f"/games/{big}/board", False),
                        ("scoreboard, phones at once", f"/games/{big}", True),
                        ("scoreboard, one after another", f"/games/{big}", False)):
                    for _ in range(2 * args.workers):  # every worker has rendered it once
                        round_of(app, path, member, args.phones, True)
                    first = kept = 0.0
                    for _ in range(args.changes):
                        db.bump(big)
                        first += round_of(app, path, member, args.phones, at_once)
                        kept += round_of(app, path, member, args.phones, at_once)
                    per_change = 1000 * (first - kept) / args.changes
                    rows[label] = {
                        "first_round_ms": 1000 * first / args.changes,
                        "kept_round_ms": 1000 * kept / args.changes,
                        "change_ms": per_change,
                        "change_per_phone_ms": per_change / args.phones,
                    }
                result["apps"][name] = rows
    finally:
        db.close()
        if kind == "postgresql":
            polls.drop_postgres(args.pg_database)
    result["load_average_after"] = os.getloadavg()[0]
    return result


def markdown(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [f"gunicorn, {args.workers} sync workers; {args.phones} phones fetching at once "
             f"after each of {args.changes} changes; CPU of the workers.", "",
             "| database | page | workers' pages | first round after a change, ms | "
             "kept round, ms | the change's cost, ms (× bare) | per phone, ms (× bare) |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        bare = r["bare_cpu_ms"]
        for name, rows in r["apps"].items():
            for label, row in rows.items():
                lines.append(
                    f"| {r['database']} | {label} | {name} | {row['first_round_ms']:.1f} | "
                    f"{row['kept_round_ms']:.1f} | {row['change_ms']:.1f} "
                    f"({row['change_ms'] / bare:.0f}×) | {row['change_per_phone_ms']:.2f} "
                    f"({row['change_per_phone_ms'] / bare:.1f}×) |")
        lines.append(f"| {r['database']} | bare Flask page: {bare:.2f} ms a request; load "
                     f"average {r['load_average_before']:.1f} → {r['load_average_after']:.1f}"
                     " | | | | | |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--pg-database", default="scorebook_changes")
    parser.add_argument("--changes", type=int, default=40)
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    folder = OUT / "changes" / datetime.now().strftime("%Y%m%d-%H%M%S")
    folder.mkdir(parents=True, exist_ok=True)
    (OUT / "load").mkdir(parents=True, exist_ok=True)  # run.wrk keeps its script there
    run.wrk_bin()
    results = [measure(kind, args, folder) for kind in args.databases.split(",")]
    (folder / "results.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    report = markdown(results, args)
    (folder / "results.md").write_text(report + "\n", encoding="utf-8")
    print(report)
    run.log(f"results in {folder.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
