"""Load benchmark: 50 phones on gunicorn, on SQLite (WAL) and on PostgreSQL, against a
bare Flask page served the same way in the same run.

    .venv/bin/python benchmarks/load/run.py [--databases sqlite,postgresql]
        [--users 50] [--duration 60] [--workers 4] [--games 10] [--saturation 15]

For each database:

1. a fresh database, migrated with ``flask db upgrade``, and ``--games`` four-player
   games with 20 hands each;
2. gunicorn with ``--workers`` sync workers, as ``make serve`` starts it;
3. **phones** (locust, ``phones.py``): ``--users`` phones join their game's league
   (10 a second), then are timed for ``--duration`` seconds, each polling its game's
   version every second as live.js does, fetching the scoreboard when it changed,
   recording and editing hands through the forms;
4. **saturation** (wrk, 50 connections, ``--saturation`` seconds each): the scoreboard
   page, the version poll answered 304, and the bare Flask page (``bare.py``) on an
   identical gunicorn, for the ratio;
5. the check: ``flask scorebook verify`` (every stored score recomputed from the
   cards), and the hands counted: seeded + saved by the phones = stored, no hand
   number twice in a game, none missing.

Needs wrk (``apt-get install wrk``) and installs locust (``requirements.txt``) into
``benchmarks/out/locust-venv``. PostgreSQL comes from ``.ci/postgres`` (root; it
installs and starts the machine's server). Writes everything to
``benchmarks/out/load/<time>/`` and prints a Markdown summary; exits non-zero if a
target is missed (errors, lost or duplicated hands, p95 over 100 ms on SQLite).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
OUT = ROOT / "benchmarks" / "out"
VENV_BIN = ROOT / ".venv" / "bin"
LOCUST_VENV = OUT / "locust-venv"
NAMES = ["Ann", "Ben", "Cy", "Dee"]
SEEDED_HANDS = 20
#: Phones join SPAWN_RATE a second (opening the invite link, joining, loading the page);
#: the statistics are reset once all have arrived, so the figures are the steady state.
SPAWN_RATE = 10
P95_TARGET_MS = 100.0

WRK_SCRIPT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK-JSON {"requests": %d, "duration_us": %d, "p50_us": %d, "p95_us": %d, "p99_us": %d,'
    .. ' "socket_errors": %d, "http_errors": %d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95),
    latency:percentile(99), e.connect + e.read + e.write + e.timeout, e.status))
end
"""


def log(message: str) -> None:
    print(f"[{datetime.now():%H:%M:%S}] {message}", file=sys.stderr, flush=True)


# --- tools ----------------------------------------------------------------------------


def locust_bin() -> Path:
    exe = LOCUST_VENV / "bin" / "locust"
    if not exe.exists():
        log("installing locust into benchmarks/out/locust-venv")
        subprocess.run([sys.executable, "-m", "venv", str(LOCUST_VENV)], check=True)
        subprocess.run([str(LOCUST_VENV / "bin" / "pip"), "install", "--quiet",
                        "--disable-pip-version-check", "-r", str(HERE / "requirements.txt")],
                       check=True)
    return exe


def wrk_bin() -> str:
    exe = shutil.which("wrk")
    if exe is None:
        raise SystemExit("wrk is missing: apt-get install wrk")
    return exe


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(master: int) -> float:
    """CPU time (user + system) used so far by gunicorn: its master, its workers, and
    workers that have exited. Unlike latency, it hardly depends on what else the
    machine is doing, so it compares runs on a busy machine too."""
    tick = os.sysconf("SC_CLK_TCK")

    def stat(pid: int) -> list[str]:
        text = Path(f"/proc/{pid}/stat").read_text()
        return text[text.rindex(")") + 2:].split()

    fields = stat(master)
    total = sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    for child in children:
        try:
            total += sum(int(f) for f in stat(int(child))[11:13])
        except FileNotFoundError:
            pass
    return total / tick


class Server:
    def __init__(self, url: str, pid: int) -> None:
        self.url, self.pid = url, pid

    def cpu(self) -> float:
        return cpu_seconds(self.pid)


@contextmanager
def gunicorn(target: str, env: dict[str, str], workers: int, log_path: Path,
             chdir: Path = ROOT) -> Iterator[Server]:
    """Serve ``target`` as ``make serve`` does (sync workers on loopback)."""
    port = free_port()
    command = [str(VENV_BIN / "gunicorn"), "--workers", str(workers),
               "--bind", f"127.0.0.1:{port}", "--no-control-socket",
               "--chdir", str(chdir), target]
    with open(log_path, "w", encoding="utf-8") as out:
        server = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  cwd=chdir, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180  # (four workers booting on a busy 2-core machine)
        while True:
            try:
                urllib.request.urlopen(url + "/", timeout=2).read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"gunicorn did not start: see {log_path}") from None
                time.sleep(0.2)
        yield Server(url, server.pid)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def wrk(server: Server, path: str, seconds: int, headers: dict[str, str] | None = None,
        connections: int = 50, body: bytes | None = None) -> dict[str, float]:
    """wrk on ``path`` (a GET; a POST of ``body`` when one is given)."""
    script = OUT / "load" / ("wrk-done.lua" if body is None else "wrk-post.lua")
    text = WRK_SCRIPT
    if body is not None:
        if b"]==]" in body:
            raise ValueError("the body would end wrk's Lua string")
        text = f'wrk.method = "POST"\nwrk.body = [==[{body.decode()}]==]\n' + text
    script.write_text(text, encoding="utf-8")
    command = [wrk_bin(), "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s",
               "-s", str(script)]
    for key, value in (headers or {}).items():
        command += ["-H", f"{key}: {value}"]
    cpu = server.cpu()
    output = subprocess.run(command + [server.url + path], capture_output=True, text=True,
                            check=True).stdout
    cpu = server.cpu() - cpu
    line = next(ln for ln in output.splitlines() if ln.startswith("WRK-JSON "))
    raw = json.loads(line[len("WRK-JSON "):])
    return {"rps": raw["requests"] / (raw["duration_us"] / 1e6),
            "p50_ms": raw["p50_us"] / 1000, "p95_ms": raw["p95_us"] / 1000,
            "p99_ms": raw["p99_us"] / 1000, "requests": raw["requests"],
            "errors": raw["socket_errors"] + raw["http_errors"],
            "cpu_ms_per_request": 1000 * cpu / max(1, raw["requests"])}


def member_cookie(base: str, token: str) -> str:
    """Join a league through its invite link, as a phone does; returns the Cookie header
    that makes wrk's requests a member's."""
    import http.cookiejar
    import re
    import urllib.parse

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/join/{token}").read().decode()
    tag = next(t for t in re.findall(r"<input\b[^>]*>", page) if 'name="csrf_token"' in t)
    csrf = re.search(r'value="([^"]*)"', tag).group(1)  # type: ignore[union-attr]
    opener.open(f"{base}/join/{token}", urllib.parse.urlencode({"csrf_token": csrf}).encode())
    return "; ".join(f"{c.name}={c.value}" for c in jar)


# --- the database -----------------------------------------------------------------------


def database_url(kind: str, folder: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{folder / 'load.sqlite3'}"
    if kind == "postgresql":
        port = subprocess.run(["bash", str(ROOT / ".ci" / "postgres"), "scorebook_bench"],
                              check=True, capture_output=True, text=True).stdout.strip()
        return f"postgresql+psycopg://scorebook:scorebook@127.0.0.1:{port}/scorebook_bench"
    raise SystemExit(f"unknown database {kind!r}: sqlite or postgresql")


def make_app(url: str) -> Any:
    sys.path.insert(0, str(ROOT))
    from app import create_app

    return create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "load-benchmark"},
                      instance_path=OUT / "load" / "instance")


def empty_database(url: str) -> None:
    from sqlalchemy import MetaData

    from scorebook.extensions import db

    app = make_app(url)
    with app.app_context():
        found = MetaData()
        found.reflect(bind=db.engine)
        found.drop_all(bind=db.engine)
        db.engine.dispose()


def flask(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(VENV_BIN / "flask"), "--app", "app", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)


def seed(url: str, count: int) -> dict[int, str]:
    """``count`` four-player Rummy 500 games (target 100000, so none ends) of 20 hands,
    each in a private league of its own; returns each game's scorer invite token."""
    from scorebook.extensions import db
    from scorebook.models import League
    from scorebook.services import access, games, hands
    from scorebook.services.entry import entry_from_text

    texts = {"Ann": {"melds": "7s 8s 9s", "hand": "kd"},
             "Ben": {"melds": "4c 4s 4d\n10h jh qh"}, "Cy": {"hand": "2c 3h"},
             "Dee": {"hand": "5d"}}
    app = make_app(url)
    tokens = {}
    with app.test_request_context():
        rules = games.build_rules("rummy-500", {"target": 100000})
        for i in range(count):
            token = access.new_token()
            league = League(name=f"Load table {i + 1}", scorer_token_hash=access.token_hash(token))
            db.session.add(league)
            game = games.create_game(league, NAMES, 0, rules)
            for number in range(1, SEEDED_HANDS + 1):
                entry = entry_from_text(NAMES, texts, "Ben", None, False, False)
                hands.record_hand(game, entry, number)
            tokens[game.id] = token
        db.session.remove()
        db.engine.dispose()
    return tokens


def count_hands(url: str, ids: list[int]) -> dict[int, list[int]]:
    from scorebook.extensions import db
    from scorebook.models import Hand

    app = make_app(url)
    with app.app_context():
        rows = db.session.execute(db.select(Hand.game_id, Hand.number)
                                  .where(Hand.game_id.in_(ids))).all()
        db.engine.dispose()
    numbers: dict[int, list[int]] = {game: [] for game in ids}
    for game, number in rows:
        numbers[game].append(number)
    return numbers


# --- one database -------------------------------------------------------------------------


def locust_stats(prefix: Path) -> dict[str, dict[str, float]]:
    stats: dict[str, dict[str, float]] = {}
    with open(f"{prefix}_stats.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            stats[row["Name"]] = {
                "requests": int(row["Request Count"]), "failures": int(row["Failure Count"]),
                "rps": float(row["Requests/s"]), "p50_ms": float(row["50%"]),
                "p95_ms": float(row["95%"]), "p99_ms": float(row["99%"]),
            }
    return stats


def run_database(kind: str, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    log(f"{kind}: preparing a fresh database")
    url = database_url(kind, folder)
    empty_database(url)
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "load-benchmark"}
    upgraded = flask(env, "db", "upgrade")
    if upgraded.returncode:
        raise SystemExit(f"flask db upgrade failed:\n{upgraded.stderr}")
    tokens = seed(url, args.games)
    ids = list(tokens)
    log(f"{kind}: {len(ids)} games of {SEEDED_HANDS} hands; gunicorn with {args.workers} workers")
    result: dict[str, Any] = {"database": kind, "workers": args.workers, "users": args.users,
                              "duration_s": args.duration}

    with gunicorn("app:create_app()", env, args.workers, folder / f"{kind}-gunicorn.log") as app:
        base = app.url
        for path in ("/", "/leagues"):  # warm the workers up a little
            urllib.request.urlopen(base + path).read()
        log(f"{kind}: {args.users} phones for {args.duration} s (locust)")
        result["load_average_before"] = os.getloadavg()[0]
        counts_file = folder / f"{kind}-phones-counts.json"
        ramp = -(-args.users // SPAWN_RATE)  # phones arrive SPAWN_RATE a second, then are timed
        prefix = folder / f"{kind}-phones"
        locust_env = {**os.environ,
                      "LOAD_GAMES": ",".join(f"{game}:{token}" for game, token in tokens.items()),
                      "LOAD_NAMES": ",".join(NAMES), "LOAD_EDITABLE": str(SEEDED_HANDS),
                      "LOAD_RESULT": str(counts_file)}
        with open(folder / f"{kind}-locust.log", "w", encoding="utf-8") as locust_log:
            locust = subprocess.Popen(
                [str(locust_bin()), "-f", str(HERE / "phones.py"), "--headless",
                 "--users", str(args.users), "--spawn-rate", str(SPAWN_RATE),
                 "--run-time", f"{args.duration + ramp}s", "--reset-stats", "--host", base,
                 "--csv", str(prefix), "--only-summary", "--stop-timeout", "10",
                 "--exit-code-on-error", "0"],
                env=locust_env, cwd=folder, stdout=locust_log, stderr=subprocess.STDOUT)
            time.sleep(ramp + 0.5)  # the statistics start once every phone has arrived
            cpu = app.cpu()
            if locust.wait() != 0:
                raise SystemExit(f"locust failed: see {folder / f'{kind}-locust.log'}")
        cpu = app.cpu() - cpu
        result["load_average_after"] = os.getloadavg()[0]
        result["phones"] = locust_stats(prefix)
        total = result["phones"]["Aggregated"]
        total["cpu_ms_per_request"] = 1000 * cpu / max(1, total["requests"])
        result["counts"] = json.loads(counts_file.read_text(encoding="utf-8"))

        log(f"{kind}: saturation, {args.saturation} s each (wrk, 50 connections)")
        board = f"/games/{ids[0]}"
        cookie = {"Cookie": member_cookie(base, tokens[ids[0]])}
        asked = urllib.request.Request(f"{base}{board}/version", headers=cookie)
        version = json.loads(urllib.request.urlopen(asked).read())["version"]
        result["saturation"] = {
            "scoreboard page": wrk(app, board, args.saturation, cookie),
            "version poll (304)": wrk(app, f"{board}/version", args.saturation,
                                      {**cookie, "If-None-Match": f'"{version}"'}),
        }
    with gunicorn("bare:create_app()", env, args.workers, folder / f"{kind}-bare.log",
                  chdir=HERE) as bare:
        result["saturation"]["bare Flask page"] = wrk(bare, "/", args.saturation)

    log(f"{kind}: checking the hands")
    verified = flask(env, "scorebook", "verify")
    result["verify"] = {"ok": verified.returncode == 0,
                        "output": (verified.stdout + verified.stderr).strip()[-2000:]}
    stored = count_hands(url, ids)
    saved = result["counts"]["saved_hands"]
    expected = {game: SEEDED_HANDS for game in ids}
    for game, _number in saved:
        expected[game] += 1
    duplicates = sum(len(n) - len(set(n)) for n in stored.values())
    gaps = sum(1 for n in stored.values() if sorted(n) != list(range(1, len(n) + 1)))
    result["hands"] = {
        "seeded": SEEDED_HANDS * len(ids), "saved_by_phones": len(saved),
        "stored": sum(len(n) for n in stored.values()),
        "lost": sum(max(0, expected[g] - len(stored[g])) for g in ids),
        "unexplained": sum(max(0, len(stored[g]) - expected[g]) for g in ids),
        "duplicated_numbers": duplicates, "games_with_gaps": gaps,
        "save_conflicts_409": result["counts"]["save_conflicts"],
        "edited": result["counts"]["edited"],
        "edit_conflicts_409": result["counts"]["edit_conflicts"],
    }
    if kind == "sqlite":
        result["journal_mode"] = _journal_mode(url)  # the app sets WAL; it sticks to the file
    return result


def _journal_mode(url: str) -> str:
    import sqlite3

    with sqlite3.connect(url[len("sqlite:///"):]) as connection:
        return str(connection.execute("PRAGMA journal_mode").fetchone()[0])


# --- the report -------------------------------------------------------------------------


def check(result: dict[str, Any]) -> list[str]:
    missed = []
    total = result["phones"]["Aggregated"]
    if total["failures"]:
        missed.append(f"{result['database']}: {total['failures']} failed requests")
    for name, row in result["saturation"].items():
        if row["errors"]:
            missed.append(f"{result['database']}: {row['errors']} errors on {name}")
    hands = result["hands"]
    if hands["lost"] or hands["unexplained"] or hands["duplicated_numbers"] \
            or hands["games_with_gaps"]:
        missed.append(f"{result['database']}: hands lost or duplicated: {hands}")
    if not result["verify"]["ok"]:
        missed.append(f"{result['database']}: flask scorebook verify failed")
    if result["database"] == "sqlite" and total["p95_ms"] >= P95_TARGET_MS:
        missed.append(f"sqlite: p95 {total['p95_ms']} ms (target < {P95_TARGET_MS:.0f} ms)")
    return missed


def markdown(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [f"{args.users} phones, {args.duration} s, gunicorn {args.workers} sync workers, "
             f"{args.games} games; saturation: wrk, 50 connections, {args.saturation} s.", "",
             "| database | requests | req/s | p50 ms | p95 ms | p99 ms | errors | "
             "hands saved / 409 | edits / 409 | stored = seeded + saved | verify | "
             "server CPU ms/req | load avg |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        t, h = r["phones"]["Aggregated"], r["hands"]
        ok = h["lost"] == h["unexplained"] == h["duplicated_numbers"] == 0
        lines.append(
            f"| {r['database']} | {t['requests']} | {t['rps']:.1f} | {t['p50_ms']:.0f} | "
            f"{t['p95_ms']:.0f} | {t['p99_ms']:.0f} | {t['failures']} | "
            f"{h['saved_by_phones']} / {h['save_conflicts_409']} | "
            f"{h['edited']} / {h['edit_conflicts_409']} | "
            f"{h['stored']} = {h['seeded']} + {h['saved_by_phones']} {'✓' if ok else '✗'} | "
            f"{'✓' if r['verify']['ok'] else '✗'} | {t['cpu_ms_per_request']:.2f} | "
            f"{r['load_average_before']:.1f} → {r['load_average_after']:.1f} |")
    lines += ["", "Per request (phones):", "",
              "| database | request | count | p50 ms | p95 ms | p99 ms | failures |",
              "|---|---|---|---|---|---|---|"]
    for r in results:
        for name, row in r["phones"].items():
            if name != "Aggregated":
                lines.append(f"| {r['database']} | {name} | {row['requests']} | "
                             f"{row['p50_ms']:.0f} | {row['p95_ms']:.0f} | {row['p99_ms']:.0f} | "
                             f"{row['failures']} |")
    lines += ["", "Saturation (wrk), against the bare Flask page served the same way:", "",
              "| database | page | req/s | p50 ms | p95 ms | p99 ms | errors | "
              "req/s ÷ bare | server CPU ms/req | CPU × bare |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        bare = r["saturation"]["bare Flask page"]
        for name, row in r["saturation"].items():
            lines.append(f"| {r['database']} | {name} | {row['rps']:.0f} | {row['p50_ms']:.1f} | "
                         f"{row['p95_ms']:.1f} | {row['p99_ms']:.1f} | {row['errors']} | "
                         f"{row['rps'] / bare['rps']:.2f} | {row['cpu_ms_per_request']:.2f} | "
                         f"{row['cpu_ms_per_request'] / bare['cpu_ms_per_request']:.1f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--duration", type=int, default=60)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--saturation", type=int, default=15)
    args = parser.parse_args()

    folder = OUT / "load" / datetime.now().strftime("%Y%m%d-%H%M%S")
    folder.mkdir(parents=True, exist_ok=True)
    wrk_bin()
    locust_bin()
    results = [run_database(kind, args, folder) for kind in args.databases.split(",")]
    (folder / "results.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    report = markdown(results, args)
    (folder / "results.md").write_text(report + "\n", encoding="utf-8")
    print(report)
    missed = [m for r in results for m in check(r)]
    print("\n" + ("\n".join("MISSED: " + m for m in missed) if missed else "all targets met"))
    log(f"results in {folder.relative_to(ROOT)}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
