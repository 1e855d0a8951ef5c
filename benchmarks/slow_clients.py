"""Slow clients: does the site still answer while 600 connections hang on to it?

    .venv/bin/python benchmarks/slow_clients.py                  # make run and make serve, SQLite
    .venv/bin/python benchmarks/slow_clients.py --servers serve --database postgresql

For each server (``run``: ``python -m scorebook.table``, the command ``make run``
runs; ``serve``: the gunicorn command ``make serve`` runs, read from ``make -n serve``)
on a fresh database (SQLite, or PostgreSQL through ``.ci/postgres``, which needs root):

1. a league with one game of four players and a few hands, and a member's cookie;
2. **baseline**: ``--probes`` (120) probes, one after another, ``--interval`` (0.25) s
   apart, each on a new connection as a phone opening the site would: the version poll
   (``GET /games/<id>/version``), the scoreboard (``GET /games/<id>``) and the rule book
   (``/rules/``, a page Flask renders), in turn;
3. **under attack**: ``--each`` (200) connections of each kind are opened and *kept*
   open — reopened at once whenever the server closes one, as an attacker would:
   *idle* (connected, nothing sent), *half-sent* (``GET / HTTP/1.1\\r\\nHost: x\\r\\n``
   and nothing more) and *slow-header* (a request line, then one more header line
   every ``--drip`` seconds, never the blank line that ends the head); once all are
   open, the same probes again;
4. p50, p95 and the worst probe of each phase, the probes that failed (no answer within
   ``--probe-timeout`` (60) s, or an error; a phase gives up after ``--give-up`` (5)
   failures), how often the server closed an attacking connection (its header timeouts
   at work), the server's CPU time per probe (``/proc``, its whole process tree; under
   attack it includes handling the attack), on PostgreSQL the connections the server
   holds to the database afterwards, and the load average.

Target (issue 25): every probe answered under attack, p95 under attack within 3× the
baseline's. Exits 1 when it is missed. Raises its own open-file limit for the 600
connections (the server raises its own: ``scorebook/serving.py``).
``--command`` serves with any other command instead (``{port}`` is replaced; ``--label``
names it in the table), to compare servers: benchmarks/README.md has the commands.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import resource
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SECRET = "slow-clients-bench"
KINDS = ("idle", "half-sent", "slow-header")
HALF_SENT = b"GET / HTTP/1.1\r\nHost: x\r\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_open_files(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        top = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))


# --- the database and the member --------------------------------------------------------

def seed(url: str) -> tuple[int, str]:
    """A league with one game of four and a scorer's signed session cookie."""
    from app import create_app
    from referee import make_rules
    from scorebook.extensions import db
    from scorebook.models import League
    from scorebook.services import access, games

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET,
                      "SQLALCHEMY_ENGINE_OPTIONS": {}})
    with app.test_request_context():
        league = League(name="Slow clients", scorer_token_hash=access.token_hash("s" * 43))
        db.session.add(league)
        db.session.commit()
        game = games.create_game(league, ["Ann", "Ben", "Cy", "Dee"], 0,
                                 make_rules("rummy-500", target=100000))
        session: dict[str, Any] = {}
        access.remember(session, league, access.SCORER)
        cookie = app.session_interface.get_signing_serializer(app).dumps(session)  # type: ignore[attr-defined]
        game_id = game.id
        db.session.remove()
        db.engine.dispose()
    return game_id, cookie


def migrate(url: str) -> None:
    subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"],
                   cwd=ROOT, env={**os.environ, "DATABASE_URL": url, "SECRET_KEY": SECRET},
                   check=True, capture_output=True)


def hand(number: int) -> dict[str, Any]:
    return {"number": number, "went_out": "Ann", "players": [
        {"name": "Ann", "melds": [{"id": "a1", "cards": ["7S", "8S", "9S"]}], "hand": []},
        {"name": "Ben", "melds": [], "hand": ["KC"]},
        {"name": "Cy", "melds": [], "hand": ["2D"]},
        {"name": "Dee", "melds": [], "hand": [f"{2 + number % 9}C"]}]}


# --- the servers ------------------------------------------------------------------------

def serve_command() -> list[str]:
    """The gunicorn command ``make serve`` runs (``make -n``: printed, not run)."""
    out = subprocess.run(["make", "-n", "--no-print-directory", "serve", "BIND={bind}"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    out = out.replace("\\\n", " ")  # a recipe's continued lines, as the shell reads them
    lines = [line for line in out.splitlines() if "gunicorn" in line and "{bind}" in line]
    if not lines:
        raise SystemExit(f"no gunicorn command in `make -n serve`:\n{out}")
    return shlex.split(lines[-1])


@contextmanager
def server(kind: str, url: str, command: str | None) -> Iterator[tuple[int, int]]:
    """Start the server; yield its port and process id (the group's leader)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": SECRET, "LANG": "C.UTF-8"}
    env.pop("PUBLIC_URL", None)
    if command:
        argv = shlex.split(command.replace("{port}", str(port)))
    elif kind == "run":
        argv = [sys.executable, "-m", "scorebook.table"]
        env.update(HOST="127.0.0.1", PORT=str(port))
    else:
        argv = [part.replace("{bind}", f"127.0.0.1:{port}") for part in serve_command()]
    log = Path(f"/tmp/slow_clients_server_{port}.log")
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log.open("wb"),
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if probe(port, "/rules/", None, 10)[0] == 200:
                    break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{argv} did not start:\n{log.read_text()[-2000:]}")
            time.sleep(0.2)
        yield port, process.pid
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        log.unlink(missing_ok=True)


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` and every process below it (``/proc``)."""
    ticks = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        children.setdefault(int(fields[1]), []).append(int(entry))
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / ticks
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += times.get(current, 0.0)
        todo.extend(children.get(current, []))
    return total


# --- the probes -------------------------------------------------------------------------

def probe(port: int, path: str, cookie: str | None, timeout: float,
          method: str = "GET", body: Any = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Accept-Encoding": "gzip"}
        if cookie:
            headers["Cookie"] = f"session={cookie}"
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        connection.request(method, path, data, headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def probes(port: int, game_id: int, cookie: str, args: argparse.Namespace
           ) -> tuple[list[float], list[str]]:
    """``--probes`` probes one after another, ``--interval`` s apart (so that they span
    several of the server's header timeouts); their times in ms, and what failed. Gives
    up after ``--give-up`` failures (a server that stopped answering costs a timeout
    each)."""
    paths = [f"/games/{game_id}/version", f"/games/{game_id}", "/rules/"]
    times: list[float] = []
    failures: list[str] = []
    for i in range(args.probes):
        path = paths[i % len(paths)]
        started = time.perf_counter()
        try:
            status, _ = probe(port, path, cookie, args.probe_timeout)
        except (OSError, http.client.HTTPException) as error:
            failures.append(f"{path}: {type(error).__name__} after "
                            f"{time.perf_counter() - started:.1f} s")
            if len(failures) >= args.give_up:
                break
            continue
        elapsed = (time.perf_counter() - started) * 1000
        if status != 200:
            failures.append(f"{path}: {status}")
        else:
            times.append(elapsed)
        time.sleep(args.interval)
    return times, failures


def database_connections(url: str) -> int | None:
    """PostgreSQL: the connections the server holds to its database (None on SQLite)."""
    if not url.startswith("postgresql"):
        return None
    import sqlalchemy as sa

    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            return int(connection.execute(sa.text(
                "select count(*) - 1 from pg_stat_activity where datname = current_database()"
            )).scalar_one())
    finally:
        engine.dispose()


# --- the attack -------------------------------------------------------------------------

class Attack:
    """``each`` connections of every kind, kept open from a thread of their own."""

    def __init__(self, port: int, each: int, drip: float) -> None:
        self.port, self.each, self.drip = port, each, drip
        self.open = {kind: 0 for kind in KINDS}
        self.closed = {kind: 0 for kind in KINDS}
        self.refused = 0
        self.loop = asyncio.new_event_loop()
        self.stopping: asyncio.Event | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Attack:
        self.thread.start()
        deadline = time.monotonic() + 120
        while sum(self.open.values()) < self.each * len(KINDS):
            if time.monotonic() > deadline:
                raise SystemExit(f"could not open the attacking connections: {self.open}")
            time.sleep(0.1)
        return self

    def __exit__(self, *exc: object) -> None:
        self.loop.call_soon_threadsafe(lambda: self.stopping and self.stopping.set())
        self.thread.join(timeout=60)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._main())
        self.loop.close()

    async def _main(self) -> None:
        self.stopping = asyncio.Event()
        tasks = [asyncio.ensure_future(self._keep(kind)) for kind in KINDS
                 for _ in range(self.each)]
        await self.stopping.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _keep(self, kind: str) -> None:
        """One connection of ``kind``, opened again whenever the server closes it."""
        assert self.stopping is not None
        while not self.stopping.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                self.refused += 1
                await asyncio.sleep(0.5)
                continue
            counted = False
            try:
                if kind == "half-sent":
                    writer.write(HALF_SENT)
                elif kind == "slow-header":
                    writer.write(b"GET /rules/ HTTP/1.1\r\nHost: x\r\n")
                await writer.drain()
                self.open[kind] += 1
                counted = True
                line = 0
                while True:
                    wait = self.drip if kind == "slow-header" else None
                    try:
                        data = await asyncio.wait_for(reader.read(4096), wait)
                    except TimeoutError:
                        line += 1
                        writer.write(f"X-Drip-{line}: {'a' * 20}\r\n".encode())
                        await writer.drain()
                        continue
                    if not data:
                        break  # the server closed it
            except OSError:
                pass
            finally:
                if counted:
                    self.open[kind] -= 1
                    if not self.stopping.is_set():
                        self.closed[kind] += 1
                writer.close()
            await asyncio.sleep(0.05)


# --- one server, one database -----------------------------------------------------------

def summary(times: list[float]) -> dict[str, float]:
    if not times:
        return {"p50": float("nan"), "p95": float("nan"), "max": float("nan")}
    ordered = sorted(times)
    return {"p50": statistics.median(ordered),
            "p95": ordered[max(0, int(round(0.95 * len(ordered))) - 1)],
            "max": ordered[-1]}


def measure(kind: str, url: str, args: argparse.Namespace) -> dict[str, Any]:
    game_id, cookie = seed(url)
    with server(kind, url, args.command) as (port, pid):
        for number in range(1, 6):  # a few hands, and every kept page warm
            status, body = probe(port, f"/api/v1/games/{game_id}/hands", cookie, 60,
                                 "POST", hand(number))
            assert status == 201, body
        for path in (f"/games/{game_id}/version", f"/games/{game_id}", "/rules/") * 4:
            probe(port, path, cookie, args.probe_timeout)
        load_before = os.getloadavg()[0]
        cpu = tree_cpu_seconds(pid)
        base, base_failed = probes(port, game_id, cookie, args)
        base_cpu = (tree_cpu_seconds(pid) - cpu) / args.probes * 1000
        with Attack(port, args.each, args.drip) as attack:
            time.sleep(args.settle)
            cpu = tree_cpu_seconds(pid)
            started = time.monotonic()
            hit, hit_failed = probes(port, game_id, cookie, args)
            hit_s = time.monotonic() - started
            hit_cpu = (tree_cpu_seconds(pid) - cpu) / args.probes * 1000
            still_open = dict(attack.open)
            closed = dict(attack.closed)
        load_after = os.getloadavg()[0]
        held = database_connections(url)
    result = {"server": args.label or (kind if not args.command else args.command),
              "database": url.split(":")[0].split("+")[0],
              "base": summary(base), "base_failed": base_failed, "base_cpu_ms": base_cpu,
              "hit": summary(hit), "hit_failed": hit_failed, "hit_cpu_ms": hit_cpu,
              "hit_s": hit_s, "hit_asked": len(hit) + len(hit_failed), "open": still_open,
              "closed": closed, "held": held,
              "probes": args.probes, "load": (load_before, load_after)}
    result["ok"] = (not hit_failed and not base_failed
                    and result["hit"]["p95"] <= 3 * result["base"]["p95"])
    return result


def postgres_url(name: str) -> str:
    port = subprocess.run(["bash", ".ci/postgres", name], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip().splitlines()[-1]
    return f"postgresql+psycopg://scorebook:scorebook@127.0.0.1:{port}/{name}"


def cpu(ms: float) -> str:
    """A process tree's CPU per probe; a negative one: workers were killed meanwhile (a
    sync worker's timeout), taking their CPU time with them."""
    return f"{ms:.1f}" if ms >= 0 else "n/a (workers killed)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", default="run,serve")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--each", type=int, default=200, help="connections of each kind")
    parser.add_argument("--probes", type=int, default=120)
    parser.add_argument("--interval", type=float, default=0.25,
                        help="seconds between two probes")
    parser.add_argument("--give-up", type=int, default=5,
                        help="failed probes after which a phase stops")
    parser.add_argument("--drip", type=float, default=2.0,
                        help="seconds between a slow-header client's lines")
    parser.add_argument("--settle", type=float, default=3.0,
                        help="seconds between the attack being open and the probes")
    parser.add_argument("--probe-timeout", type=float, default=60.0)
    parser.add_argument("--command", help="serve with this command instead ({port})")
    parser.add_argument("--label", help="the server's name in the table (with --command)")
    parser.add_argument("--json", type=Path, help="append the results here")
    args = parser.parse_args()
    raise_open_files(4 * args.each * len(KINDS) + 256)
    results = []
    for kind in args.servers.split(",") if not args.command else ["command"]:
        name = f"slow_clients_{kind}_{os.getpid()}"
        if args.database == "postgresql":
            url = postgres_url(name)
        else:
            url = f"sqlite:////tmp/{name}.sqlite3"
        try:
            migrate(url)
            results.append(measure(kind, url, args))
        finally:
            if args.database == "postgresql":
                subprocess.run(["bash", ".ci/postgres", "--drop", name], cwd=ROOT,
                               capture_output=True)
            else:
                for suffix in ("", "-wal", "-shm"):
                    Path(f"/tmp/{name}.sqlite3{suffix}").unlink(missing_ok=True)
    print("| server | database | baseline p50 / p95 / max ms | under attack p50 / p95 / max ms"
          " | ratio p95 | failed under attack | closed by the server (idle / half / slow)"
          " | server CPU ms/probe base / attack | PostgreSQL connections | load avg |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        b, h = r["base"], r["hit"]
        failed, asked = len(r["hit_failed"]), r["hit_asked"]
        print(f"| {r['server']} | {r['database']} | {b['p50']:.0f} / {b['p95']:.0f} / "
              f"{b['max']:.0f} | {h['p50']:.0f} / {h['p95']:.0f} / {h['max']:.0f} | "
              f"{h['p95'] / b['p95']:.2f} | {failed} of {asked}"
              f"{' (gave up)' if failed >= args.give_up else ''} | "
              f"{' / '.join(str(r['closed'][k]) for k in KINDS)} | "
              f"{r['base_cpu_ms']:.1f} / {cpu(r['hit_cpu_ms'])} | "
              f"{'—' if r['held'] is None else r['held']} | "
              f"{r['load'][0]:.1f} → {r['load'][1]:.1f} |")
        for failure in r["hit_failed"][:5]:
            print(f"    failed: {failure}")
    if args.json:
        with args.json.open("a") as fh:
            for r in results:
                fh.write(json.dumps(r) + "\n")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
