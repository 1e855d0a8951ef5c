"""Pages and polls, measured against a bare Flask page: the server CPU each request of
the scorebook costs under gunicorn, on SQLite and PostgreSQL, and a worker's memory
under a few minutes of mixed load.

    .venv/bin/python benchmarks/load/pages.py [--databases sqlite,postgresql]
        [--seconds 8] [--connections 8] [--workers 4] [--memory 0]
        [--pg-database scorebook_pages]

On the harness of ``run.py`` and ``polls.py`` (gunicorn with sync workers on 127.0.0.1,
wrk, CPU read from ``/proc``), for each database a fresh database is migrated and seeded
with the game of ``benchmarks/scorebook.py`` (500 Rum, six players, two decks, **40
hands**, every player melding, laying off or holding cards) and 30 finished four-player
games in the same league (so the standings have something to add up). A member's
cookie (the league's scorer invite link) goes with every request, and the
``Accept-Encoding`` of a phone's browser. Then wrk, ``--connections`` connections,
``--seconds`` each:

- **bare Flask page** — ``bare.py`` on an identical gunicorn: the anchor;
- **scoreboard** — ``GET /games/<id>`` (the 40 × 6 board, the chart, the latest changes);
- **scoreboard, live refresh** — the same with ``X-Live-Refresh``, as ``live.js`` did
  before it fetched only the board;
- **board only** — ``GET /games/<id>/board``, the partial fetch ``live.js`` makes now;
- **record-hand form** — ``GET /games/<id>/hands/new``;
- **standings** — ``GET /league/``;
- **version poll, 304** — ``GET /games/<id>/version`` with the current ETag;
- **referee question, member / anonymous** — ``POST /api/v1/referee/meld`` (is 7♠ 8♠ 9♠
  a meld?) with the member's cookie, and with none: what the record-hand page asks at a
  tap (the app's referee rate limits raised out of the way, still counted).

Each figure is gunicorn's CPU (master and workers) per request; on PostgreSQL the
database's backends' CPU is given apart (``polls.py``'s accounting). ``× bare`` is the
ratio to the bare page of the same run.

``--memory S`` then runs S seconds of mixed load (8 clients: each picks one of the 31
games, polls it, fetches its scoreboard or its board; another thread bumps a game's
revision 20 times a second, so new versions keep coming, as at many busy tables) and
prints the resident memory (``VmRSS``) of every worker each 15 s.

Writes ``benchmarks/out/pages/<time>/results.json`` and prints Markdown.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import polls  # noqa: E402
import run  # noqa: E402

ROOT, OUT = run.ROOT, run.OUT
NAMES6 = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
#: The two hands of ``benchmarks/scorebook.py``, one after the other (two decks).
HANDS = [
    {"Ann": {"melds": "7s 8s 9s\n4c 4s 4d", "layoffs": "6s 1\nks Ben 1", "hand": "5h jd"},
     "Ben": {"melds": "kh kd kc\n7d 8d 9d 10d"},
     "Cy": {"melds": "5c 6c 7c", "hand": "jc 8h 9c"},
     "Dee": {"melds": "qh qs qc", "hand": "2d 3h"},
     "Eve": {"hand": "ah 2s 9d"},
     "Fay": {"melds": "10h jh qh", "layoffs": "9h Fay 1", "hand": "3c"}},
    {"Ben": {"melds": "2h 3h 4h 5h\nas ad ac", "hand": "7c"},
     "Ann": {"melds": "9s 10s js", "hand": "kd"},
     "Cy": {"layoffs": "6h Ben 1", "hand": "qd qc 4s"},
     "Dee": {"melds": "8c 8d 8h", "hand": "7h"},
     "Eve": {"melds": "3s 4s 5s", "layoffs": "6s Eve 1"},
     "Fay": {"hand": "2c 3d 9h"}},
]
ACCEPT = {"Accept-Encoding": "gzip, deflate, br",
          "Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
#: The referee question the record-hand page asks at a tap (is this a meld?), as JSON.
QUESTION_PATH = "/api/v1/referee/meld"
QUESTION = json.dumps({"rules": {"family": "pagat-500"}, "cards": ["7S", "8S", "9S"]}).encode()
AS_JSON = {"Content-Type": "application/json"}
#: The app as ``make serve`` runs it, its referee rate limits out of wrk's way (a limit
#: still counts every question: what it costs is measured, not its 429s).
APP = ('app:create_app({"REFEREE_RATE_LIMIT": "100000000 per hour", '
       '"REFEREE_MEMBER_RATE_LIMIT": "100000000 per hour"})')


def seed(url: str) -> tuple[int, list[int], str]:
    """The 40-hand game of six (open) and 30 finished games of four in one league;
    returns the big game's id, every game's id and the scorer invite token."""
    from scorebook.extensions import db
    from scorebook.models import League
    from scorebook.services import access, games, hands
    from scorebook.services.entry import entry_from_text

    app = run.make_app(url)
    with app.test_request_context():
        token = access.new_token()
        league = League(name="Pages table", scorer_token_hash=access.token_hash(token))
        db.session.add(league)
        rules = games.build_rules("pagat-500", {"target": 100000})
        game = games.create_game(league, NAMES6, 0, rules)
        for number in range(1, 41):
            went_out = "Eve" if number % 2 else "Ben"
            hands.record_hand(game, entry_from_text(NAMES6, HANDS[number % 2], went_out,
                                                    None, False, False), number)
        big = game.id
        ids = [big]
        short = games.build_rules("rummy-500", {"target": 150})
        texts = {"Ann": {"melds": "7s 8s 9s", "hand": "kd"},
                 "Ben": {"melds": "4c 4s 4d\n10h jh qh"}, "Cy": {"hand": "2c 3h"},
                 "Dee": {"hand": "5d"}}
        for i in range(30):
            four = [NAMES6[(i + k) % 6] for k in range(4)]
            played = games.create_game(league, four, 0, short)
            table = {four[k]: texts[n] for k, n in enumerate(run.NAMES)}
            number = 1
            while played.is_open and number < 20:
                hands.record_hand(played, entry_from_text(four, table, four[1], None, False,
                                                          False), number)
                number += 1
            ids.append(played.id)
        db.session.remove()
        db.engine.dispose()
    return big, ids, token


def get(base: str, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(base + path, headers=headers)
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as answer:
        return answer.code, dict(answer.headers), b""


def worker_pids(master: int) -> list[int]:
    text = Path(f"/proc/{master}/task/{master}/children").read_text()
    return [int(p) for p in text.split()]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def mixed_load(server: run.Server, db: polls.Database, ids: list[int], cookie: str,
               seconds: int) -> dict[str, Any]:
    """Phones at many tables while the games keep changing; the workers' memory."""
    host, port = server.url[len("http://"):].split(":")
    stop = threading.Event()
    counts = {"requests": 0, "errors": 0}
    lock = threading.Lock()

    def phone(seed: int) -> None:
        rnd = random.Random(seed)
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        while not stop.is_set():
            game = rnd.choice(ids)
            path = rnd.choice([f"/games/{game}/version", f"/games/{game}",
                               f"/games/{game}/board", f"/games/{game}/version"])
            try:
                conn.request("GET", path, headers={"Cookie": cookie, **ACCEPT})
                answer = conn.getresponse()
                answer.read()
                ok = answer.status == 200
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection(host, int(port), timeout=10)
                ok = False
            with lock:
                counts["requests"] += 1
                counts["errors"] += 0 if ok else 1

    def changes() -> None:
        rnd = random.Random(0)
        own = polls.Database(db.url)  # (a connection of this thread's own)
        try:
            while not stop.is_set():
                own.bump(rnd.choice(ids))
                time.sleep(0.05)
        finally:
            own.close()

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(8)]
    threads.append(threading.Thread(target=changes))
    for t in threads:
        t.start()
    samples = []
    started = time.monotonic()
    try:
        while True:
            elapsed = time.monotonic() - started
            samples.append({"t": round(elapsed),
                            "rss_mb": [round(rss_kb(p) / 1024, 1)
                                       for p in worker_pids(server.pid)]})
            if elapsed >= seconds:
                break
            time.sleep(min(15, seconds - elapsed) or 0.1)
    finally:
        stop.set()
        for t in threads:
            t.join()
    return {"seconds": seconds, "samples": samples, **counts}


def measure(kind: str, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    url = (f"sqlite:///{folder / 'pages.sqlite3'}" if kind == "sqlite"
           else polls.postgres_url(args.pg_database))
    run.log(f"{kind}: a fresh database; the 40-hand game of six and 30 finished games")
    run.empty_database(url)
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "load-benchmark"}
    upgraded = run.flask(env, "db", "upgrade")
    if upgraded.returncode:
        raise SystemExit(f"flask db upgrade failed:\n{upgraded.stderr}")
    big, ids, token = seed(url)
    result: dict[str, Any] = {"database": kind, "workers": args.workers,
                              "connections": args.connections, "seconds": args.seconds,
                              "load_average_before": os.getloadavg()[0]}
    db = polls.Database(url)
    sat: dict[str, Any] = {}
    try:
        with run.gunicorn("bare:create_app()", env, args.workers, folder / f"{kind}-bare.log",
                          chdir=HERE) as bare:
            sat["bare Flask page"] = run.wrk(bare, "/", args.seconds, ACCEPT,
                                             connections=args.connections)
        with run.gunicorn(APP, env, args.workers, folder / f"{kind}-gunicorn.log") as app:
            cookie = run.member_cookie(app.url, token)
            member = {"Cookie": cookie, **ACCEPT}
            board = f"/games/{big}"
            status, _h, body = get(app.url, board + "/version", member)
            version = json.loads(body)["version"]
            pages = {
                "scoreboard": (board, {}, 200),
                "scoreboard, live refresh": (board, {"X-Live-Refresh": "1"}, 200),
                "board only (partial fetch)": (board + "/board", {}, 200),
                "record-hand form": (board + "/hands/new", {}, 200),
                "standings": ("/league/", {}, 200),
                "version poll, 304": (board + "/version", {"If-None-Match": f'"{version}"'},
                                      304),
            }
            for _ in range(2 * args.workers):  # every worker connects and renders once
                for path, extra, _status in pages.values():
                    get(app.url, path, {**member, **extra})
            for name, (path, extra, expect) in pages.items():
                if get(app.url, path, {**member, **extra})[0] == 404:
                    continue  # (the code before the partial fetch has no /board)
                run.log(f"{kind}: {name}")
                sat[name] = polls.saturate(app, db, path, args.seconds, args.connections,
                                           {**member, **extra}, expect=expect)
                status, headers, body = get(app.url, path, {**member, **extra})
                sat[name]["bytes"] = len(body)
            for name, headers in (("referee question, member", member),
                                  ("referee question, anonymous", ACCEPT)):
                run.log(f"{kind}: {name}")
                sat[name] = polls.saturate(app, db, QUESTION_PATH, args.seconds,
                                           args.connections, {**headers, **AS_JSON},
                                           expect=200, body=QUESTION)
            if args.memory:
                run.log(f"{kind}: {args.memory} s of mixed load, the workers' memory")
                result["memory"] = mixed_load(app, db, ids, cookie, args.memory)
    finally:
        db.close()
        if kind == "postgresql":
            polls.drop_postgres(args.pg_database)
    result["saturation"] = sat
    result["load_average_after"] = os.getloadavg()[0]
    return result


def markdown(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [f"gunicorn, {args.workers} sync workers on 127.0.0.1; wrk, {args.connections} "
             f"connections, {args.seconds} s each; CPU per request.", "",
             "| database | request | req/s | p50 ms | bytes | app CPU ms/req | × bare | "
             "db CPU ms/req |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        bare = r["saturation"]["bare Flask page"]["cpu_ms_per_request"]
        for name, row in r["saturation"].items():
            dbcpu = f"{row['db_cpu_ms']:.2f}" if "db_cpu_ms" in row else "-"
            lines.append(f"| {r['database']} | {name} | {row['rps']:.0f} | "
                         f"{row['p50_ms']:.1f} | {row.get('bytes', '-')} | "
                         f"{row['cpu_ms_per_request']:.2f} | "
                         f"{row['cpu_ms_per_request'] / bare:.2f} | {dbcpu} |")
        lines.append(f"| {r['database']} | load average | "
                     f"{r['load_average_before']:.1f} → {r['load_average_after']:.1f} "
                     "| | | | | |")
    for r in results:
        if "memory" in r:
            m = r["memory"]
            lines += ["", f"{r['database']}: {m['seconds']} s of mixed load, "
                      f"{m['requests']} requests ({m['errors']} not 200); worker RSS, MB:", ""]
            for s in m["samples"]:
                lines.append(f"- {s['t']:>4} s: {' / '.join(str(x) for x in s['rss_mb'])}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--pg-database", default="scorebook_pages")
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--memory", type=int, default=0,
                        help="seconds of mixed load, measuring the workers' memory")
    args = parser.parse_args()
    folder = OUT / "pages" / datetime.now().strftime("%Y%m%d-%H%M%S")
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
