"""Push instead of polling, a prototype (not wired into the app): one PostgreSQL
``LISTEN`` connection fanning ``NOTIFY`` events out to N phones over server-sent events,
against the same N phones polling today's ``GET /games/<id>/version``.

    .venv/bin/pip install -e '.[bench]'        # uvicorn, httptools, uvloop
    .venv/bin/python benchmarks/push_prototype.py [--phones 100,500,1000,2500,5000]
        [--table-period 10] [--seconds 20] [--pg-database scorebook_push] [--modes sse,poll]

Needs PostgreSQL (``.ci/postgres`` makes the database ``--pg-database`` and the script
drops it at the end) and sends traffic to 127.0.0.1 only. Phones sit four to a table
(N/4 games, made with the app's own services after ``flask db upgrade``).

The push side is the design of ``docs/scaling.md`` in miniature:

- a trigger on the app's tables (``game`` updated, a ``change`` row written or removed)
  calls ``pg_notify('scorebook_games', game_id)`` in the writing transaction, so the
  event leaves when, and only if, the write commits;
- **the SSE service** (``serve``, run here as its own process: uvicorn with uvloop and
  httptools, one raw ASGI app, no framework) holds one ``LISTEN`` connection and one
  connection for queries. Notifications that arrive together are coalesced; one query
  reads the version (the same formula as ``scorebook.services.live.game_version``) of every game
  that changed, and the version goes, as ``id:`` and ``data:``, to the phones watching
  that game. A phone that connects, or reconnects with ``Last-Event-ID``, gets the
  current version at once when it differs from the one it has. A comment every 15 s
  keeps idle connections open through proxies; ``X-Accel-Buffering: no`` asks nginx not
  to buffer the stream;
- the events URL is signed by the app (an HMAC of the game id with the secret key), so
  the service needs no session and no database read to let a phone in.

The polling side is today's app under gunicorn (4 sync workers, as ``make serve``), the
phones doing what ``static/js/live.js`` does: ask with ``If-None-Match``, then ask again
one second after the answer.

For each N and each mode: the phones connect (and, for SSE, sit idle for a few seconds:
the cost of holding them), then every table changes once every ``--table-period`` seconds
on average for ``--seconds`` seconds (the writer bumps a game's revision and commits, as
any write does), then every table changes at once (a burst). Delivery latency is from
just before the writer's commit to the moment a phone has the new version (by the
machine's monotonic clock, shared by the processes). CPU is user + system time from
``/proc``: the SSE service or gunicorn, PostgreSQL's backends for this database (the
writer's own excluded), and the simulated phones (reported apart). Both modes leave out
what follows a change in both designs alike: the phone fetching the page again.

Writes ``benchmarks/out/push/<time>/results.json`` and prints Markdown.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import os
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

ROOT = Path(__file__).resolve().parents[1]
# benchmarks/scorebook.py must not hide the scorebook package.
sys.path[:] = [str(ROOT)] + [p for p in sys.path
                             if Path(p or ".").resolve() != Path(__file__).resolve().parent]
OUT = ROOT / "benchmarks" / "out"
CHANNEL = "scorebook_games"
KEEPALIVE_S = 15.0
RETRY_MS = 2000
SECRET = b"push-prototype"
NAMES = ["Ann", "Ben", "Cy", "Dee"]
PHONES_PER_TABLE = 4

#: The version of each game, exactly as scorebook.services.live.game_version computes it, for
#: many games at once.
VERSIONS_SQL = (
    "SELECT g.id, g.revision,"
    " (SELECT count(*) FROM change c WHERE c.game_id = g.id),"
    " (SELECT max(c.id) FROM change c WHERE c.game_id = g.id)"
    " FROM game g WHERE g.id = ANY(%s)")

#: What the app's migration would add: every write that changes a version notifies.
#: NOTIFY keeps one copy of identical payloads per transaction, so a write that touches
#: the game and logs a change sends one event.
TRIGGER_SQL = f"""
CREATE OR REPLACE FUNCTION scorebook_notify_game() RETURNS trigger AS $$
DECLARE
    row record;
BEGIN
    IF TG_OP = 'DELETE' THEN row := OLD; ELSE row := NEW; END IF;
    IF TG_TABLE_NAME = 'game' THEN
        PERFORM pg_notify('{CHANNEL}', row.id::text);
    ELSE
        PERFORM pg_notify('{CHANNEL}', row.game_id::text);
    END IF;
    RETURN NULL;
END $$ LANGUAGE plpgsql
"""
TRIGGERS = [("game", "AFTER UPDATE"), ("change", "AFTER INSERT OR DELETE")]


def version_of(revision: int | None, count: int | None, latest: int | None) -> str:
    return f"{revision or 0}.{count or 0}.{latest or 0}"


def revision_of(version: str) -> int:
    return int(version.split(".", 1)[0])


def sign(game_id: int) -> str:
    return hmac.new(SECRET, str(game_id).encode(), hashlib.sha256).hexdigest()[:32]


def more_files() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def log(message: str) -> None:
    print(f"[{datetime.now():%H:%M:%S}] {message}", file=sys.stderr, flush=True)


# --- the SSE service ----------------------------------------------------------------------


class Hub:
    """One LISTEN connection, one query connection, and the phones watching each game."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.watchers: dict[int, set[asyncio.Queue[bytes | None]]] = {}
        self.versions: dict[int, str] = {}
        self.pending: set[int] = set()
        self.wake = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        import psycopg

        self.query = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        self.tasks = [asyncio.create_task(self.listen()), asyncio.create_task(self.flush())]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await self.query.close()

    async def listen(self) -> None:
        """Keep a LISTEN connection; after losing it, catch up on every watched game
        (notifications sent while nobody listened are gone)."""
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self.dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.pending.update(self.watchers)  # anything missed while away
                    self.wake.set()
                    async for note in conn.notifies():
                        with suppress(ValueError):
                            game_id = int(note.payload)
                            if game_id in self.watchers:  # nobody watching: no query
                                self.pending.add(game_id)
                                self.wake.set()
                            else:
                                self.versions.pop(game_id, None)  # would go stale
            except psycopg.OperationalError:
                await asyncio.sleep(1.0)

    async def reconnect(self) -> None:
        import psycopg

        with suppress(Exception):
            await self.query.close()
        with suppress(psycopg.OperationalError):
            self.query = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)

    async def read_versions(self, ids: list[int]) -> dict[int, str]:
        cursor = await self.query.execute(VERSIONS_SQL, (ids,))
        return {row[0]: version_of(*row[1:]) for row in await cursor.fetchall()}

    async def flush(self) -> None:
        """Every change that arrived since the last round: one query, then the fan-out."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            ids, self.pending = sorted(self.pending), set()
            if not ids:
                continue
            try:
                found = await self.read_versions(ids)
            except Exception as error:  # the database went away: try again in a second
                log(f"reading versions: {error!r}")
                self.pending.update(ids)
                await asyncio.sleep(1.0)
                await self.reconnect()
                self.wake.set()
                continue
            for game_id, version in found.items():
                if self.versions.get(game_id) == version:
                    continue
                self.versions[game_id] = version
                message = event(version)
                for queue in self.watchers.get(game_id, ()):
                    queue.put_nowait(message)

    def forget(self, game_id: int, queue: asyncio.Queue[bytes | None]) -> None:
        watchers = self.watchers.get(game_id)
        if watchers is not None:
            watchers.discard(queue)
            if not watchers:
                del self.watchers[game_id]
                self.versions.pop(game_id, None)  # no longer kept fresh by events

    async def version(self, game_id: int) -> str | None:
        if game_id not in self.versions:
            found = await self.read_versions([game_id])
            if game_id not in found:
                return None
            self.versions[game_id] = found[game_id]
        return self.versions[game_id]


def event(version: str) -> bytes:
    return f"id: {version}\nevent: version\ndata: {version}\n\n".encode()


EVENTS_PATH = re.compile(r"^/games/(\d+)/events$")


def make_asgi(dsn: str) -> Any:
    hub = Hub(dsn)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await hub.start()
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await hub.stop()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        found = EVENTS_PATH.match(scope["path"])
        query = parse_qs(scope["query_string"].decode())
        if not found or not hmac.compare_digest(query.get("t", [""])[0],
                                                sign(int(found.group(1)))):
            await send({"type": "http.response.start", "status": 404,
                        "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"not found"})
            return
        game_id = int(found.group(1))
        headers = dict(scope["headers"])
        # After a drop, EventSource sends the last id it saw; the first time, the page's
        # own version comes in the URL.
        known = headers.get(b"last-event-id", b"").decode() or query.get("since", [""])[0]
        # Watch first, then read: a change committed in between is sent, not missed.
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        hub.watchers.setdefault(game_id, set()).add(queue)
        try:
            current = await hub.version(game_id)
        except BaseException:
            hub.forget(game_id, queue)
            raise
        if current is None:
            hub.forget(game_id, queue)
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return

        async def gone() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            queue.put_nowait(None)

        watch = asyncio.create_task(gone())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream"), (b"cache-control", b"no-store"),
                (b"x-accel-buffering", b"no")]})
            first = f"retry: {RETRY_MS}\n\n".encode()
            if current != known:
                first += event(current)
            await send({"type": "http.response.body", "body": first, "more_body": True})
            while True:
                try:
                    async with asyncio.timeout(KEEPALIVE_S):
                        message = await queue.get()
                except TimeoutError:
                    message = b": keep-alive\n\n"
                if message is None:
                    break
                await send({"type": "http.response.body", "body": message, "more_body": True})
        finally:
            watch.cancel()
            hub.forget(game_id, queue)

    return app


def serve(dsn: str, port: int) -> None:
    import uvicorn

    more_files()
    uvicorn.run(make_asgi(dsn), host="127.0.0.1", port=port, loop="uvloop", http="httptools",
                lifespan="on", log_level="warning", access_log=False, backlog=4096,
                timeout_graceful_shutdown=1)


# --- the simulated phones -------------------------------------------------------------------


class Phones:
    """N phones in one asyncio process; each records when it learnt each version."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.games = [int(g) for g in args.games.split(",")]
        self.seen: list[tuple[int, int, int, int]] = []  # (phone, game, revision, ns)
        self.connected = 0
        self.errors = 0
        self.requests = 0
        self.stopping = False

    def game_of(self, phone: int) -> int:
        return self.games[phone // PHONES_PER_TABLE % len(self.games)]

    async def sse(self, phone: int) -> None:
        game = self.game_of(phone)
        known, counted = "", False
        while not self.stopping:
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.args.port)
                last = f"Last-Event-ID: {known}\r\n" if known else ""
                writer.write(f"GET /games/{game}/events?t={sign(game)} HTTP/1.1\r\n"
                             f"Host: 127.0.0.1\r\nAccept: text/event-stream\r\n{last}\r\n"
                             .encode())
                head = await reader.readuntil(b"\r\n\r\n")
                if not head.startswith(b"HTTP/1.1 200"):
                    raise OSError(head.split(b"\r\n", 1)[0].decode())
                chunked = b"transfer-encoding: chunked" in head.lower()
                if not counted:
                    self.connected, counted = self.connected + 1, True
                buffer = b""
                while True:
                    if chunked:
                        size = int((await reader.readline()).strip() or b"0", 16)
                        if size == 0:
                            break
                        data = (await reader.readexactly(size + 2))[:-2]
                    else:
                        data = await reader.read(65536)
                        if not data:
                            break
                    buffer += data
                    while b"\n\n" in buffer:
                        block, buffer = buffer.split(b"\n\n", 1)
                        for line in block.split(b"\n"):
                            if line.startswith(b"id: "):
                                known = line[4:].decode()
                                self.seen.append((phone, game, revision_of(known),
                                                  time.monotonic_ns()))
            except (OSError, asyncio.IncompleteReadError, ValueError):
                if self.stopping:
                    return
                self.errors += 1
                await asyncio.sleep(RETRY_MS / 1000)  # as EventSource would
            finally:
                if writer is not None:
                    writer.close()

    async def poll(self, phone: int) -> None:
        """live.js: If-None-Match with the version known, again one second after the answer."""
        game = self.game_of(phone)
        known = ""
        await asyncio.sleep(random.random())  # phones opened at different moments
        while not self.stopping:
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.args.port)
                etag = f'If-None-Match: "{known}"\r\n' if known else ""
                writer.write(f"GET /games/{game}/version HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             f"Accept: application/json\r\nCookie: {self.args.cookie}\r\n"
                             f"{etag}Connection: close\r\n\r\n".encode())
                async with asyncio.timeout(30):
                    answer = await reader.read()
                self.requests += 1
                status = answer[9:12]
                if status == b"200":
                    version = json.loads(answer.split(b"\r\n\r\n", 1)[1])["version"]
                    if version != known:
                        if not known:
                            self.connected += 1
                        known = version
                        self.seen.append((phone, game, revision_of(version),
                                          time.monotonic_ns()))
                elif status != b"304":
                    raise OSError(answer[:40].decode(errors="replace"))
            except (OSError, TimeoutError, ValueError):
                self.errors += 1
            finally:
                if writer is not None:
                    writer.close()
            await asyncio.sleep(1.0)

    async def main(self) -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        kind = self.sse if self.args.mode == "sse" else self.poll
        tasks = []
        for phone in range(self.args.n):
            tasks.append(asyncio.create_task(kind(phone)))
            if phone % 250 == 249:
                await asyncio.sleep(0.1)  # 2,500 new phones a second at most
        deadline = time.monotonic() + 120
        while self.connected < self.args.n and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        print(f"READY {self.connected}", flush=True)
        await stop.wait()
        self.stopping = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        Path(self.args.out).write_text(json.dumps(
            {"seen": self.seen, "errors": self.errors, "requests": self.requests,
             "connected": self.connected}), encoding="utf-8")


def phones(args: argparse.Namespace) -> None:
    import uvloop

    more_files()
    uvloop.run(Phones(args).main())


# --- the run ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process and its reaped children (0 if gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return 0.0
    f = text[text.rindex(")") + 2:].split()
    return sum(int(x) for x in f[11:15]) / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """A process and its live children (gunicorn's master and workers)."""
    total = cpu_of(pid)
    with suppress(FileNotFoundError):
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            total += cpu_of(int(child))
    return total


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Writer:
    """The app's writes, reduced to what matters here: a game's revision goes up and the
    transaction commits (the trigger sends the event at commit)."""

    def __init__(self, dsn: str, name: str) -> None:
        import psycopg

        self.conn = psycopg.connect(dsn)
        self.name = name
        self.log: list[tuple[int, int, int]] = []  # (game, revision, ns just before commit)

    def change(self, game: int) -> None:
        revision = self.conn.execute("UPDATE game SET revision = revision + 1 WHERE id = %s"
                                     " RETURNING revision", (game,)).fetchone()[0]
        self.log.append((game, revision, time.monotonic_ns()))
        self.conn.commit()

    def backends_cpu(self) -> dict[int, float]:
        rows = self.conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s"
                                 " AND pid <> pg_backend_pid()", (self.name,)).fetchall()
        self.conn.commit()
        return {int(r[0]): cpu_of(int(r[0])) for r in rows}


def db_cpu_since(writer: Writer, before: dict[int, float]) -> float:
    after = writer.backends_cpu()
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


@contextmanager
def process(command: list[str], log_path: Path, env: dict[str, str] | None = None,
            stdin: Any = None, stdout: Any = None) -> Any:
    with open(log_path, "w", encoding="utf-8") as err:
        proc = subprocess.Popen(command, stdin=stdin, stdout=stdout if stdout else err,
                                stderr=err, env=env, cwd=ROOT, start_new_session=True,
                                text=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def wait_listening(port: int, proc: subprocess.Popen[str], what: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"{what} did not start")
        time.sleep(0.1)


def changes(writer: Writer, games: list[int], seconds: float, period: float) -> int:
    """Each table changes once every ``period`` seconds on average (Poisson arrivals),
    for ``seconds``; returns how many changes were made."""
    rate = len(games) / period
    made, started = 0, time.monotonic()
    due = started + random.expovariate(rate)
    while due < started + seconds:
        time.sleep(max(0.0, due - time.monotonic()))
        writer.change(random.choice(games))
        made += 1
        due += random.expovariate(rate)
    return made


def deliveries(seen: list[list[int]], log: list[tuple[int, int, int]], phones: int,
               ) -> tuple[list[float], int]:
    """Latency (ms) of every (phone, change of its game) pair in ``log``: until the phone
    held that revision or a later one; and how many it never got."""
    by_phone: dict[int, list[tuple[int, int]]] = {}
    game_of: dict[int, int] = {}
    for phone, game, revision, ns in seen:
        by_phone.setdefault(phone, []).append((ns, revision))
        game_of[phone] = game
    changes_of: dict[int, list[tuple[int, int]]] = {}
    for game, revision, ns in log:
        changes_of.setdefault(game, []).append((revision, ns))
    latencies, missed = [], 0
    for phone in range(phones):
        game_seen = sorted(by_phone.get(phone, []))
        game = game_of.get(phone)
        if game is None:
            continue
        for revision, ns in changes_of.get(game, []):
            got = next((t for t, r in game_seen if r >= revision and t >= ns), None)
            if got is None:
                missed += 1
            else:
                latencies.append((got - ns) / 1e6)
    return latencies, missed


def phase(writer: Writer, server_pid: int, client_pid: int, work: Any) -> dict[str, float]:
    db_before, app_before = writer.backends_cpu(), tree_cpu(server_pid)
    client_before, started = cpu_of(client_pid), time.monotonic()
    made = work()
    return {"seconds": time.monotonic() - started, "changes": made,
            "server_cpu": tree_cpu(server_pid) - app_before,
            "db_cpu": db_cpu_since(writer, db_before),
            "client_cpu": cpu_of(client_pid) - client_before}


def run_mode(mode: str, n: int, games: list[int], port: int, server_pid: int,
             writer: Writer, args: argparse.Namespace, cookie: str, folder: Path
             ) -> dict[str, Any]:
    tables = games[: max(1, n // PHONES_PER_TABLE)]
    out = folder / f"{mode}-{n}.json"
    command = [sys.executable, __file__, "phones", "--mode", mode, "--n", str(n),
               "--port", str(port), "--games", ",".join(map(str, tables)),
               "--cookie", cookie, "--out", str(out)]
    result: dict[str, Any] = {"mode": mode, "phones": n, "tables": len(tables)}
    rss_before = rss_kb(server_pid)
    with process(command, folder / f"{mode}-{n}.log", stdout=subprocess.PIPE) as client:
        assert client.stdout is not None
        started = time.monotonic()
        line = client.stdout.readline()
        if not line.startswith("READY"):
            raise SystemExit(f"{mode} phones did not start: see {folder}/{mode}-{n}.log")
        result["connected"] = int(line.split()[1])
        result["connect_s"] = time.monotonic() - started
        if mode == "sse":
            time.sleep(1)
            result["rss_kb_per_phone"] = (rss_kb(server_pid) - rss_before) / n
            result["idle"] = phase(writer, server_pid, client.pid,
                                   lambda: time.sleep(args.idle) or 0)
        first = len(writer.log)
        result["steady"] = phase(writer, server_pid, client.pid, lambda: changes(
            writer, tables, args.seconds, args.table_period) + (time.sleep(3) or 0))
        steady_log = writer.log[first:]
        first = len(writer.log)

        def burst() -> int:
            for game in tables:
                writer.change(game)
            time.sleep(5)
            return len(tables)

        result["burst"] = phase(writer, server_pid, client.pid, burst)
        burst_log = writer.log[first:]
        client.send_signal(signal.SIGTERM)
        client.wait(timeout=60)
    data = json.loads(out.read_text(encoding="utf-8"))
    result["errors"], result["requests"] = data["errors"], data["requests"]
    for name, log_part in (("steady", steady_log), ("burst", burst_log)):
        latencies, missed = deliveries(data["seen"], log_part, n)
        result[name].update({"deliveries": len(latencies), "missed": missed,
                             "p50_ms": percentile(latencies, 50),
                             "p95_ms": percentile(latencies, 95),
                             "p99_ms": percentile(latencies, 99),
                             "max_ms": max(latencies, default=float("nan"))})
    if mode == "poll":
        result["polls_per_s"] = data["requests"] / max(1e-9, time.monotonic() - started)
    return result


def check_reconnect(port: int, game: int, writer: Writer) -> dict[str, Any]:
    """A phone that was away: reconnecting with the version it had gets the newer one at
    once; reconnecting up to date gets nothing but the retry hint."""

    def connect(last: str) -> tuple[bytes, float]:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            started = time.monotonic()
            s.sendall(f"GET /games/{game}/events?t={sign(game)} HTTP/1.1\r\nHost: x\r\n"
                      f"Last-Event-ID: {last}\r\n\r\n".encode())
            got = b""
            s.settimeout(0.5)
            with suppress(TimeoutError):
                while b"id: " not in got:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    got += chunk
            return got, 1000 * (time.monotonic() - started)

    writer.change(game)
    time.sleep(0.2)
    row = writer.conn.execute(VERSIONS_SQL, ([game],)).fetchone()
    writer.conn.commit()
    current = version_of(*row[1:])
    old = version_of(row[1] - 1, *row[2:])
    behind, ms = connect(old)
    up_to_date, _ = connect(current)
    return {"behind_gets": f"id: {current}" in behind.decode(), "behind_ms": ms,
            "up_to_date_gets_nothing": b"id: " not in up_to_date}


def seed(url: str, count: int) -> tuple[list[int], str]:
    sys.path.insert(0, str(ROOT))
    from app import create_app
    from scorebook.extensions import db
    from scorebook.models import League
    from scorebook.services import access, games

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "push-prototype"},
                     instance_path=OUT / "push" / "instance")
    with app.test_request_context():
        token = access.new_token()
        league = League(name="Push tables", scorer_token_hash=access.token_hash(token))
        db.session.add(league)
        rules = games.build_rules("rummy-500", {"target": 100000})
        ids = [games.create_game(league, NAMES, 0, rules).id for _ in range(count)]
        db.session.remove()
        db.engine.dispose()
    return ids, token


def orchestrate(args: argparse.Namespace) -> int:
    sys.path.insert(0, str(ROOT / "benchmarks" / "load"))
    import run as harness  # the load harness: gunicorn, the member's cookie

    counts = [int(n) for n in args.phones.split(",")]
    folder = OUT / "push" / datetime.now().strftime("%Y%m%d-%H%M%S")
    folder.mkdir(parents=True, exist_ok=True)
    port = subprocess.run(["bash", str(ROOT / ".ci" / "postgres"), args.pg_database],
                          check=True, capture_output=True, text=True).stdout.strip()
    dsn = f"postgresql://scorebook:scorebook@127.0.0.1:{port}/{args.pg_database}"
    url = dsn.replace("postgresql://", "postgresql+psycopg://")
    results: list[dict[str, Any]] = []
    try:
        log(f"a fresh database {args.pg_database}: migrations, "
            f"{max(counts) // PHONES_PER_TABLE} games")
        harness.empty_database(url)
        env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "push-prototype"}
        upgraded = harness.flask(env, "db", "upgrade")
        if upgraded.returncode:
            raise SystemExit(f"flask db upgrade failed:\n{upgraded.stderr}")
        games, token = seed(url, max(1, max(counts) // PHONES_PER_TABLE))
        writer = Writer(dsn, args.pg_database)
        for table, when in TRIGGERS:
            writer.conn.execute(TRIGGER_SQL)
            writer.conn.execute(f"CREATE TRIGGER notify_{table} {when} ON {table}"
                                f" FOR EACH ROW EXECUTE FUNCTION scorebook_notify_game()")
            writer.conn.commit()
        meta = {"load_average_before": os.getloadavg()[0], "args": vars(args)}
        if "sse" in args.modes:
            sse_port = free_port()
            with process([sys.executable, __file__, "serve", "--dsn", dsn, "--port",
                          str(sse_port)], folder / "sse-service.log") as service:
                wait_listening(sse_port, service, "the SSE service")
                for n in counts:
                    log(f"SSE: {n} phones")
                    results.append(run_mode("sse", n, games, sse_port, service.pid, writer,
                                            args, "", folder))
                meta["reconnect"] = check_reconnect(sse_port, games[0], writer)
        if "poll" in args.modes:
            with harness.gunicorn("app:create_app()", env, 4, folder / "gunicorn.log") as app:
                cookie = harness.member_cookie(app.url, token)
                app_port = int(app.url.rsplit(":", 1)[1])
                for n in counts:
                    log(f"polling: {n} phones")
                    results.append(run_mode("poll", n, games, app_port, app.pid, writer,
                                            args, cookie, folder))
        meta["load_average_after"] = os.getloadavg()[0]
        writer.conn.close()
    finally:
        subprocess.run(["bash", str(ROOT / ".ci" / "postgres"), "--drop", args.pg_database],
                       check=False, capture_output=True)
    (folder / "results.json").write_text(json.dumps({"meta": meta, "results": results},
                                                    indent=2), encoding="utf-8")
    report = markdown(results, meta, args)
    (folder / "results.md").write_text(report + "\n", encoding="utf-8")
    print(report)
    log(f"results in {folder.relative_to(ROOT)}")
    return 0


def markdown(results: list[dict[str, Any]], meta: dict[str, Any],
             args: argparse.Namespace) -> str:
    lines = [f"Each table changes once every {args.table_period:g} s on average for "
             f"{args.seconds} s (steady), then every table at once (burst). CPU in ms of one "
             f"core; load average {meta['load_average_before']:.1f} → "
             f"{meta['load_average_after']:.1f}.", "",
             "| mode | phones | tables | changes/s | latency p50 / p95 / max ms | missed | "
             "server CPU ms/s | db CPU ms/s | server + db, ms per change | "
             "burst: last phone ms | burst, ms per change | idle CPU ms/s | "
             "memory KB/phone | polls/s | errors | phones' CPU ms/s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        s, b = r["steady"], r["burst"]
        per_s = s["seconds"]
        idle = r.get("idle")
        sse = r["mode"] == "sse"
        lines.append(
            f"| {r['mode']} | {r['phones']} | {r['tables']} | "
            f"{s['changes'] / args.seconds:.1f} | "
            f"{s['p50_ms']:.0f} / {s['p95_ms']:.0f} / {s['max_ms']:.0f} | "
            f"{s['missed'] + b['missed']} | "
            f"{1000 * s['server_cpu'] / per_s:.0f} | {1000 * s['db_cpu'] / per_s:.0f} | "
            + (f"{1000 * (s['server_cpu'] + s['db_cpu']) / max(1, s['changes']):.2f} | "
               if sse else "- | ")
            + f"{b['max_ms']:.0f} | "
            + (f"{1000 * (b['server_cpu'] + b['db_cpu']) / max(1, b['changes']):.2f} | "
               if sse else "- | ")
            + (f"{1000 * idle['server_cpu'] / idle['seconds']:.1f} | "
               f"{r['rss_kb_per_phone']:.1f} | - | " if idle else
               f"- | - | {r.get('polls_per_s', 0):.0f} | ")
            + f"{r['errors']} | {1000 * s['client_cpu'] / per_s:.0f} |")
    if "reconnect" in meta:
        c = meta["reconnect"]
        lines += ["", f"Reconnect with Last-Event-ID one version behind: "
                  f"{'caught up' if c['behind_gets'] else 'NOT caught up'} in "
                  f"{c['behind_ms']:.1f} ms; up to date: "
                  f"{'nothing sent' if c['up_to_date_gets_nothing'] else 'AN EVENT SENT'}."]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    s = sub.add_parser("serve", help="the SSE service alone")
    s.add_argument("--dsn", required=True)
    s.add_argument("--port", type=int, required=True)
    p = sub.add_parser("phones", help="simulated phones (run by the benchmark)")
    p.add_argument("--mode", choices=["sse", "poll"], required=True)
    p.add_argument("--n", type=int, required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--games", required=True)
    p.add_argument("--cookie", default="")
    p.add_argument("--out", required=True)
    parser.add_argument("--phones", default="100,500,1000,2500,5000")
    parser.add_argument("--modes", default="sse,poll")
    parser.add_argument("--table-period", type=float, default=10.0)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--pg-database", default="scorebook_push")
    args = parser.parse_args()
    if args.command == "serve":
        serve(args.dsn, args.port)
        return 0
    if args.command == "phones":
        phones(args)
        return 0
    return orchestrate(args)


if __name__ == "__main__":
    raise SystemExit(main())
