"""Live polling, measured: what one phone watching a game costs the server today, on
SQLite and on PostgreSQL, under gunicorn, against a bare Flask page served the same way.

    .venv/bin/python benchmarks/load/polls.py [--databases sqlite,postgresql]
        [--pg-database scorebook_polls] [--seconds 10] [--changes 100] [--workers 4]
        [--connections 16]

What a page showing a game does (``static/js/live.js``): about once a second it asks
``GET /games/<id>/version`` with ``If-None-Match``; a ``304`` means nothing changed.
When the game changed the answer is ``200`` with the new version, and the page fetches
itself again (header ``X-Live-Refresh``) and swaps its live regions. So for each
database this script measures, with the harness of ``run.py`` (the same gunicorn, wrk
and CPU accounting):

1. **saturation** (wrk, ``--connections`` connections, ``--seconds`` each, a member's
   cookie): the version poll answered ``304``; the poll answered ``200`` (a stale
   ETag); the scoreboard fetched again by a phone (its board already rendered for that
   version); and the bare Flask page (``bare.py``) on an identical gunicorn;
2. **a table's change** (``--changes`` times, one request at a time): the game's
   revision is bumped straight in the database (as any write does) and each of the
   table's 4 phones then does what live.js does: the poll (``200``) and the page
   fetched again. The first fetch after a change renders the board anew (in each
   worker it lands on); the others find it kept.

Server CPU is gunicorn's (master and workers, from ``/proc``), and on PostgreSQL also
the database server's: the backends serving gunicorn's connections (from
``pg_stat_activity`` and ``/proc``), and the transactions each request costs the
database (``pg_stat_database``; its row counters are in the JSON, but autovacuum reading
the same database makes them noisy). PostgreSQL is reached through
``.ci/postgres`` in a database of this script's own (``--pg-database``), dropped at
the end. Writes ``benchmarks/out/polls/<time>/results.json`` and prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import time
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run  # noqa: E402  (the load harness beside this file)

ROOT, OUT = run.ROOT, run.OUT
PHONES_PER_TABLE = 4


def log(message: str) -> None:
    run.log(message)


# --- PostgreSQL's side -------------------------------------------------------------------


def postgres_url(name: str) -> str:
    port = subprocess.run(["bash", str(ROOT / ".ci" / "postgres"), name], check=True,
                          capture_output=True, text=True).stdout.strip()
    return f"postgresql+psycopg://scorebook:scorebook@127.0.0.1:{port}/{name}"


def drop_postgres(name: str) -> None:
    subprocess.run(["bash", str(ROOT / ".ci" / "postgres"), "--drop", name], check=False,
                   capture_output=True)


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of one process (0 if it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return 0.0
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Database:
    """The database's own cost: on PostgreSQL, the CPU of the backends serving this
    database (all but our own connection) and its statement counters; on SQLite
    nothing (the library runs inside gunicorn's workers, counted there)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.postgres = url.startswith("postgresql")
        self.conn: Any = None
        if self.postgres:
            import psycopg

            self.conn = psycopg.connect(url.replace("postgresql+psycopg", "postgresql"),
                                        autocommit=True)
            self.name = url.rsplit("/", 1)[1]
        else:
            self.conn = sqlite3.connect(url[len("sqlite:///"):], isolation_level=None,
                                        timeout=30)

    def backends(self) -> list[int]:
        rows = self.conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (self.name,)).fetchall()
        return [int(r[0]) for r in rows]

    def snapshot(self) -> dict[str, Any]:
        if not self.postgres:
            return {}
        self.conn.execute("SELECT pg_stat_clear_snapshot()")
        xact, returned, fetched, hit, read = self.conn.execute(
            "SELECT xact_commit + xact_rollback, tup_returned, tup_fetched, blks_hit,"
            " blks_read FROM pg_stat_database WHERE datname = %s", (self.name,)).fetchone()
        cpu = {pid: process_cpu(pid) for pid in self.backends()}
        return {"cpu": cpu, "xact": xact,
                "tup_returned": returned, "tup_fetched": fetched,
                "blocks": hit + read}

    def cost(self, before: dict[str, Any], after: dict[str, Any], requests: int
             ) -> dict[str, float]:
        """Per request: database CPU (ms), transactions, rows read, buffer pages."""
        if not self.postgres:
            return {}
        # A backend that appeared during the run counts from zero.
        cpu = sum(t - before["cpu"].get(pid, 0.0) for pid, t in after["cpu"].items())
        n = max(1, requests)
        return {"db_cpu_ms": 1000 * cpu / n,
                "db_xact": (after["xact"] - before["xact"]) / n,
                "db_rows": (after["tup_returned"] - before["tup_returned"]
                            + after["tup_fetched"] - before["tup_fetched"]) / n,
                "db_blocks": (after["blocks"] - before["blocks"]) / n}

    def bump(self, game_id: int) -> None:
        """What any write does to the version: the game's revision goes up."""
        sql = "UPDATE game SET revision = revision + 1 WHERE id = "
        if self.postgres:
            self.conn.execute(sql + "%s", (game_id,))
        else:
            self.conn.execute(sql + "?", (game_id,))

    def close(self) -> None:
        self.conn.close()


# --- the measurements --------------------------------------------------------------------


def saturate(server: run.Server, db: Database, path: str, seconds: int, connections: int,
             headers: dict[str, str] | None = None, expect: int | None = None,
             body: bytes | None = None) -> dict[str, float]:
    """wrk on ``path`` (a POST of ``body`` if given), with the database's CPU apart."""
    if expect is not None:  # wrk counts any status as a success: check it once first
        request = urllib.request.Request(server.url + path, headers=headers or {},
                                         data=body)
        try:
            status = urllib.request.urlopen(request).status
        except urllib.error.HTTPError as answer:
            status = answer.code
        if status != expect:
            raise SystemExit(f"{path}: HTTP {status}, expected {expect}")
    before = db.snapshot()
    row = run.wrk(server, path, seconds, headers, connections=connections, body=body)
    row.update(db.cost(before, db.snapshot(), int(row["requests"])))
    return row


def table_changes(server: run.Server, db: Database, game_id: int, cookie: str,
                  count: int) -> dict[str, float]:
    """``count`` changes of one game, each seen by the table's four phones (poll 200,
    then the page fetched again), one request at a time."""
    base = server.url

    def get(path: str, headers: dict[str, str]) -> tuple[int, bytes]:
        request = urllib.request.Request(base + path, headers={"Cookie": cookie, **headers})
        try:
            with urllib.request.urlopen(request) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as answer:
            return answer.code, b""

    status, body = get(f"/games/{game_id}/version", {})
    version = json.loads(body)["version"]
    cpu, before, started = server.cpu(), db.snapshot(), time.perf_counter()
    for _ in range(count):
        db.bump(game_id)
        for _phone in range(PHONES_PER_TABLE):
            status, body = get(f"/games/{game_id}/version",
                               {"If-None-Match": f'"{version}"', "Accept": "application/json"})
            if status != 200:
                raise SystemExit(f"poll after a change: HTTP {status}")
            status, page = get(f"/games/{game_id}", {"X-Live-Refresh": "1"})
            if status != 200:
                raise SystemExit(f"scoreboard after a change: HTTP {status}")
        version = json.loads(body)["version"]
    wall = time.perf_counter() - started
    cpu = server.cpu() - cpu
    requests = count * PHONES_PER_TABLE * 2
    row = {"changes": count, "requests": requests,
           "cpu_ms_per_change": 1000 * cpu / count,
           "cpu_ms_per_phone": 1000 * cpu / (count * PHONES_PER_TABLE),
           "wall_ms_per_change": 1000 * wall / count, "page_bytes": len(page)}
    cost = db.cost(before, db.snapshot(), count)  # per change (one bump each: ~1 xact)
    row.update({k + "_per_change": v for k, v in cost.items()})
    return row


def measure(kind: str, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    if kind == "sqlite":
        url = f"sqlite:///{folder / 'polls.sqlite3'}"
    else:
        url = postgres_url(args.pg_database)
    log(f"{kind}: a fresh database, {args.games} games of {run.SEEDED_HANDS} hands")
    run.empty_database(url)
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "load-benchmark"}
    upgraded = run.flask(env, "db", "upgrade")
    if upgraded.returncode:
        raise SystemExit(f"flask db upgrade failed:\n{upgraded.stderr}")
    tokens = run.seed(url, args.games)
    game = next(iter(tokens))
    result: dict[str, Any] = {"database": kind, "workers": args.workers,
                              "connections": args.connections, "seconds": args.seconds,
                              "load_average_before": os.getloadavg()[0]}
    db = Database(url)
    try:
        with run.gunicorn("app:create_app()", env, args.workers,
                          folder / f"{kind}-gunicorn.log") as app:
            cookie = run.member_cookie(app.url, tokens[game])
            member = {"Cookie": cookie}
            board = f"/games/{game}"
            for _ in range(3):  # every worker opens its connection and renders once
                for path in (board, board + "/version"):
                    urllib.request.urlopen(urllib.request.Request(app.url + path,
                                                                  headers=member)).read()
            answer = urllib.request.urlopen(urllib.request.Request(
                app.url + board + "/version", headers=member)).read()
            version = json.loads(answer)["version"]
            log(f"{kind}: saturation, {args.seconds} s each (wrk, {args.connections} "
                "connections)")
            sat = {
                "poll answered 304": saturate(
                    app, db, board + "/version", args.seconds, args.connections,
                    {**member, "If-None-Match": f'"{version}"'}, expect=304),
                "poll answered 200": saturate(
                    app, db, board + "/version", args.seconds, args.connections,
                    {**member, "If-None-Match": '"stale"'}, expect=200),
                "scoreboard fetched again (board kept)": saturate(
                    app, db, board, args.seconds, args.connections,
                    {**member, "X-Live-Refresh": "1"}, expect=200),
            }
            log(f"{kind}: {args.changes} changes, each seen by {PHONES_PER_TABLE} phones")
            result["change"] = table_changes(app, db, game, cookie, args.changes)
        with run.gunicorn("bare:create_app()", env, args.workers, folder / f"{kind}-bare.log",
                          chdir=HERE) as bare:
            sat["bare Flask page"] = run.wrk(bare, "/", args.seconds,
                                             connections=args.connections)
    finally:
        db.close()
        if kind == "postgresql":
            drop_postgres(args.pg_database)
    result["saturation"] = sat
    result["load_average_after"] = os.getloadavg()[0]
    return result


def markdown(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [f"gunicorn, {args.workers} sync workers on 127.0.0.1; wrk, {args.connections} "
             f"connections, {args.seconds} s each.", "",
             "| database | request | req/s | p50 ms | app CPU ms/req | × bare | "
             "db CPU ms/req | db xact/req |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        bare = r["saturation"]["bare Flask page"]["cpu_ms_per_request"]
        for name, row in r["saturation"].items():
            db = (f"{row['db_cpu_ms']:.2f} | {row['db_xact']:.2f}"
                  if "db_cpu_ms" in row else "- | -")
            lines.append(f"| {r['database']} | {name} | {row['rps']:.0f} | "
                         f"{row['p50_ms']:.1f} | {row['cpu_ms_per_request']:.2f} | "
                         f"{row['cpu_ms_per_request'] / bare:.1f} | {db} |")
    lines += ["", f"A table's change seen by its {PHONES_PER_TABLE} phones (poll 200 + the "
              "page fetched again, each), one request at a time:", "",
              "| database | changes | app CPU ms per change | per phone | wall ms per change "
              "| db CPU ms per change | page bytes | load avg |",
              "|---|---|---|---|---|---|---|---|"]
    for r in results:
        c = r["change"]
        db = f"{c['db_cpu_ms_per_change']:.2f}" if "db_cpu_ms_per_change" in c else "-"
        lines.append(f"| {r['database']} | {c['changes']} | {c['cpu_ms_per_change']:.1f} | "
                     f"{c['cpu_ms_per_phone']:.1f} | {c['wall_ms_per_change']:.1f} | {db} | "
                     f"{c['page_bytes']} | {r['load_average_before']:.1f} → "
                     f"{r['load_average_after']:.1f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--pg-database", default="scorebook_polls")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    folder = OUT / "polls" / datetime.now().strftime("%Y%m%d-%H%M%S")
    folder.mkdir(parents=True, exist_ok=True)
    (OUT / "load").mkdir(parents=True, exist_ok=True)  # run.wrk keeps its script there
    run.wrk_bin()
    results = [measure(kind, args, folder) for kind in args.databases.split(",")]
    (folder / "results.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    report = markdown(results, args)
    (folder / "results.md").write_text(report + "\n", encoding="utf-8")
    print(report)
    log(f"results in {folder.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
