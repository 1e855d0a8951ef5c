"""League import benchmark: the export of a league of 5,000 games, imported through the
web page (``POST /league/import``) into a fresh SQLite install, with its time and memory.

    .venv/bin/python benchmarks/league_import.py [--games 5000] [--keep FILE]

1. **A real league to copy from**: 24 games of Rummy 500 to 500 among 20 players (2 to
   6 a game) are played through the scorebook's own services (every hand's melds, lay-
   offs and stranded cards checked and scored by the referee), then exported.
2. **The big file**: ``--games`` games made from those, each with its own players (the
   names of a template's seats changed, seat by seat) and its own dates, written as
   ``/league/export.json`` writes a league (``indent=1``, keys sorted).
3. **The import**: in a fresh process (so its peak memory is the import's own), a fresh
   SQLite install, the league's owner uploads the file to ``/league/import`` through
   Flask's test client (the upload spooled to disk as werkzeug does). Reported: the
   file's size and bytes per hand, the time the request takes, the peak resident
   memory of that process (and of one that only starts the app, and of one that reads
   the file whole with ``json.load``, for comparison), and that every game and hand
   arrived. Exits 1 if not.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from scorebook.extensions import db  # noqa: E402
from scorebook.models import Game, Hand, League  # noqa: E402
from scorebook.services import access, games, hands  # noqa: E402
from scorebook.services.entry import entry_from_text  # noqa: E402
from scorebook.services.exports import export_league  # noqa: E402

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou",
         "Max", "Ned", "Ole", "Pam", "Quin", "Rex", "Sue", "Tom"]
GROUPS = ["as ah ad", "ks kh kd", "qs qh qd", "js jh jd", "10s 10h 10d", "9s 9h 9d",
          "2c 3c 4c", "5c 6c 7c", "8c 9c 10c", "2d 3d 4d", "5d 6d 7d", "8s 8h 8d",
          "jc qc kc", "4s 5s 6s", "2h 3h 4h"]
SINGLES = ["ac", "2s", "3s", "7s", "5h", "6h", "7h"]  # none of them in GROUPS
TEMPLATES = 24


def app_for(folder: str) -> Any:
    return create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
                       "SECRET_KEY": "benchmark", "WTF_CSRF_ENABLED": False,
                       # the import's job run in the request: its time and memory
                       "JOBS_INLINE": True},
                      instance_path=folder)


def play_templates(seed: int = 5000) -> dict[str, Any]:
    """Play TEMPLATES real games through the services; the league's export."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        app = app_for(folder)
        with app.test_request_context():
            db.create_all()
            league = games.default_league()
            for _ in range(TEMPLATES):
                names = rng.sample(NAMES, rng.randint(2, 6))
                game = games.create_game(league, names, 0, games.build_rules("rummy-500", {}))
                while game.is_open:
                    groups = rng.sample(GROUPS, len(GROUPS))
                    singles = rng.sample(SINGLES, len(SINGLES))
                    out = rng.choice(names)
                    texts = {}
                    for name in names:
                        if name == out:
                            texts[name] = {"melds": "\n".join(groups.pop() for _ in range(3))}
                        else:
                            melds = [groups.pop() for _ in range(rng.randint(1, 2))]
                            # (one card at least: out.empty-hand; the same draws as before)
                            held = [singles.pop() for _ in range(max(1, rng.randint(0, 1)))]
                            texts[name] = {"melds": "\n".join(melds), "hand": " ".join(held)}
                    hands.record_hand(game, entry_from_text(names, texts, out, None, False,
                                                            False))
            return export_league(league)


def _shift(text: str | None, by: timedelta) -> str | None:
    if text is None:
        return None
    return (datetime.fromisoformat(text) + by).isoformat()


def write_big_export(template: dict[str, Any], count: int, path: str, seed: int = 7
                     ) -> int:
    """Write a league file of ``count`` games, each a template game with other players and
    later dates, one game at a time (laid out as /league/export.json lays out a league:
    ``indent=1``, keys sorted); returns the number of hands."""
    rng = random.Random(seed)
    base = datetime.fromisoformat(template["games"][0]["started_at"])
    start = datetime(2016, 1, 1, 19, 0, tzinfo=UTC)
    first = start - timedelta(days=1)
    header = {**template, "league": {"name": "Benchmark family",
                                     "created_at": first.isoformat()},
              "players": [{"name": n, "created_at": first.isoformat(), "retired_at": None}
                          for n in NAMES], "seasons": []}
    hand_count = 0

    def dumped(value: Any, depth: int) -> str:
        text = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)
        return text.replace("\n", "\n" + " " * depth)

    with open(path, "w", encoding="utf-8") as out:
        out.write("{\n")
        for key in sorted(header):
            if key != "games":
                out.write(f' "{key}": {dumped(header[key], 1)},\n')
                continue
            out.write(' "games": [\n')
            for i in range(count):
                g = _other_game(template["games"][i % len(template["games"])], rng,
                                start + timedelta(hours=17 * i) - base)
                hand_count += len(g["hands"])
                out.write("  " + dumped(g, 2) + (",\n" if i < count - 1 else "\n"))
            out.write(" ],\n")
        out.seek(out.tell() - 2)  # the last comma
        out.write("\n}\n")
    return hand_count


def _other_game(template: dict[str, Any], rng: random.Random, by: timedelta
                ) -> dict[str, Any]:
    """``template`` with other players in its seats and its dates moved on by ``by``."""
    g = copy.deepcopy(template)
    seated = [s["player"] for s in g["seats"]]
    rename = dict(zip(seated, rng.sample(NAMES, len(seated)), strict=True))

    def name(value: str | None) -> str | None:
        return rename[value] if value is not None else None

    g["winner"] = name(g["winner"])
    for key in ("started_at", "finished_at"):
        g[key] = _shift(g[key], by)
    for s in g["seats"]:
        s["player"] = name(s["player"])
    for h in g["hands"]:
        h["dealer"], h["went_out"] = name(h["dealer"]), name(h["went_out"])
        h["created_at"], h["updated_at"] = _shift(h["created_at"], by), _shift(
            h["updated_at"], by)
        for m in h["melds"]:
            m["owner"] = name(m["owner"])
            for c in m["cards"]:
                c["laid_by"] = name(c["laid_by"])
        for key in ("stranded", "scores"):
            for row in h[key]:
                row["player"] = name(row["player"])
    for c in g["changes"]:
        c["at"] = _shift(c["at"], by)
    return g


def peak_mb() -> float:
    """This process's peak resident memory (VmHWM: since exec, unlike ru_maxrss, which
    keeps the parent's peak across the fork)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(mode: str, path: str) -> None:
    """In its own process: start the app (``start``); read the file whole with json.load
    (``load``, for comparison); or import it through the web page (``web``)."""
    result: dict[str, Any] = {}
    if mode == "load":
        began = time.perf_counter()
        with open(path, "rb") as f:
            json.load(f)
        result["seconds"] = time.perf_counter() - began
        result["peak_mb"] = peak_mb()
        print(json.dumps(result))
        return
    with tempfile.TemporaryDirectory() as folder:
        app = app_for(folder)
        with app.app_context():
            db.create_all()
            league_id = games.default_league().id
        client = app.test_client()
        with app.app_context(), client.session_transaction() as session:
            access.remember(session, db.session.get(League, league_id), access.OWNER)
        if mode == "web":
            began = time.perf_counter()
            cpu = time.process_time()
            with open(path, "rb") as upload:
                response = client.post("/league/import", data={
                    "file": (upload, "league.json", "application/json")},
                    content_type="multipart/form-data")
            result["seconds"] = time.perf_counter() - began
            result["cpu_seconds"] = time.process_time() - cpu
            result["status"] = response.status_code
            with app.app_context():
                result["games"] = db.session.scalar(db.select(db.func.count(Game.id)))
                result["hands"] = db.session.scalar(db.select(db.func.count(Hand.id)))
        result["peak_mb"] = peak_mb()
        print(json.dumps(result))


def run_child(mode: str, path: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, __file__, "--child", mode, path], check=True,
                          capture_output=True, text=True, cwd=ROOT)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


# --- the background import, on the real server ------------------------------------------

PHONE_HAND = {"number": 1, "went_out": "Ada", "players": [
    {"name": "You", "melds": [{"id": "y1", "cards": ["7S", "8S", "9S"]},
                              {"id": "y2", "cards": ["4C", "4S", "4D"]}],
     "layoffs": [{"card": "6S", "onto": "y1"}, {"card": "KS", "onto": "a1"}],
     "hand": ["5H", "JD", "9H", "AH"]},
    {"name": "Ada", "melds": [{"id": "a1", "cards": ["KC", "KD", "KH"]},
                              {"id": "a2", "cards": ["10S", "JS", "QS"]}],
     "layoffs": [{"card": "4H", "onto": "y2"}], "hand": []},
    {"name": "Bo", "melds": [{"id": "b1", "cards": ["6H", "6C", "6D"]}],
     "hand": ["10C", "7D", "2H", "8C"]}]}


#: Seconds the phone writes alone before the upload (its latencies without an import).
BASELINE_S = 20


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def _peak_of(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _cpu_of(pid: int) -> float:
    """The CPU seconds (user + system) process ``pid`` has used so far."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _load() -> float:
    return os.getloadavg()[0]


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def background(path: str, games_count: int, hand_count: int) -> bool:
    """Import ``path`` through make serve's server and its job worker while a phone of
    another league writes; prints the figures, returns whether everything arrived."""
    import signal
    import socket
    import statistics
    import threading

    import requests

    from referee import make_rules

    folder = tempfile.mkdtemp(prefix="bench-jobs-")
    url = f"sqlite:///{folder}/bench.sqlite3"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "benchmark"},
                     instance_path=folder)
    with app.test_request_context():
        db.create_all()
        owned = League(name="Importer's table")
        phones = League(name="The phone's family",
                        scorer_token_hash=access.token_hash("p" * 43))
        db.session.add_all([owned, phones])
        db.session.commit()
        game = games.create_game(phones, ["You", "Ada", "Bo"], 0,
                                 make_rules("rummy-500", target=100000))
        serializer = app.session_interface.get_signing_serializer(app)
        mine: dict[str, Any] = {}
        access.remember(mine, owned, access.OWNER)
        theirs: dict[str, Any] = {}
        access.remember(theirs, phones, access.SCORER)
        owner_cookie, phone_cookie = serializer.dumps(mine), serializer.dumps(theirs)
        game_id = game.id
        db.session.remove()
        db.engine.dispose()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "benchmark"}
    server = subprocess.Popen(
        [os.path.join(os.path.dirname(sys.executable), "gunicorn"), "--config",
         "python:scorebook.serving", "--workers", "2", "--bind", f"127.0.0.1:{port}",
         "app:create_app()"], cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if requests.get(f"{base}/rules/", timeout=10).status_code == 200:
                    break
            except requests.RequestException:
                pass
            time.sleep(0.2)
        owner = requests.Session()
        owner.cookies.set("session", owner_cookie, domain="127.0.0.1", path="/")
        form = owner.get(f"{base}/league/export", timeout=60).text
        token = form.split('name="csrf_token" type="hidden" value="', 1)[1].split('"', 1)[0]
        writes: list[tuple[int, float]] = []
        stop = threading.Event()

        def phone() -> None:
            session = requests.Session()
            session.cookies.set("session", phone_cookie)
            number = 1
            while not stop.is_set():
                began = time.perf_counter()
                answer = session.post(f"{base}/api/v1/games/{game_id}/hands",
                                      json={**PHONE_HAND, "number": number}, timeout=120)
                writes.append((answer.status_code, time.perf_counter() - began))
                number += answer.status_code == 201
                stop.wait(0.25)

        writer = threading.Thread(target=phone)
        writer.start()
        time.sleep(BASELINE_S)  # the phone alone first: its latencies without an import
        alone = len(writes)
        loads = [_load()]
        workers = _children(server.pid)
        job_worker = next((p for p in workers if "scorebook.worker" in _cmdline(p)), None)
        cpu_before = _cpu_of(job_worker) if job_worker else 0.0
        began = time.perf_counter()
        with open(path, "rb") as upload:
            answer = owner.post(f"{base}/league/import", data={"csrf_token": token},
                                files={"file": ("league.json", upload, "application/json")},
                                allow_redirects=False, timeout=3600)
        answered = time.perf_counter() - began
        where = answer.headers.get("Location", "")
        state: dict[str, Any] = {}
        while "/jobs/" in where:
            state = owner.get(f"{base}{where}.json", timeout=60).json()
            if state["state"] in ("done", "failed"):
                break
            loads.append(_load())
            time.sleep(1)
        took = time.perf_counter() - began
        job_cpu = (_cpu_of(job_worker) - cpu_before) if job_worker else 0.0
        stop.set()
        writer.join()
        job_peak = _peak_of(job_worker) if job_worker else 0.0
        web_peak = max((_peak_of(p) for p in workers if p != job_worker), default=0.0)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
    baseline = sorted(t for _, t in writes[:alone])
    writes = writes[alone:]
    latencies = sorted(t for _, t in writes)
    failed = [code for code, _ in writes if code != 201]
    p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)] if latencies else 0.0
    print(f"background import (make serve, SQLite): upload answered HTTP {answer.status_code}"
          f" in {answered:.1f} s; job {state.get('state')} with {state.get('done')} of "
          f"{state.get('total')} games in {took:.0f} s")
    print(f"  a phone of another league meanwhile: {len(writes)} hands written, "
          f"{len(failed)} failed {sorted(set(failed))}, median "
          f"{statistics.median(latencies) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, worst "
          f"{max(latencies, default=0) * 1000:.0f} ms")
    print(f"  the same phone alone, before: {len(baseline)} hands, median "
          f"{statistics.median(baseline) * 1000:.0f} ms, worst {max(baseline) * 1000:.0f} ms"
          f"; the job's longest step (its checks, then its writes): "
          f"{(state.get('result') or {}).get('slowest_step_s', 0) * 1000:.0f} ms")
    print(f"  the job worker's CPU: {job_cpu:.0f} s; the machine's load average: "
          f"{min(loads):.1f} to {max(loads):.1f} (2 cores)")
    print(f"  peak memory: job worker {job_peak:.0f} MB, web workers {web_peak:.0f} MB")
    check = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "benchmark"},
                       instance_path=folder)
    with check.app_context():
        league = db.session.scalar(db.select(League).where(League.name == "Benchmark family"))
        stored = (0, 0) if league is None else (
            db.session.scalar(db.select(db.func.count(Game.id))
                              .where(Game.league_id == league.id)),
            db.session.scalar(db.select(db.func.count(Hand.id)).join(Game)
                              .where(Game.league_id == league.id)))
    ok = state.get("state") == "done" and stored == (games_count, hand_count) and not failed
    print(f"  stored: {stored[0]} games, {stored[1]} hands" + ("" if ok else " — FAILED"))
    return ok


def lock_holds(path: str, games_count: int) -> bool:
    """Import ``path`` by a job worker in this process (a fresh SQLite file, no pause
    between steps) and measure, for each transaction, how long it held SQLite's write
    lock: from its first statement that writes to its commit (wall clock, and this
    process's CPU meanwhile). Prints the figures; returns whether the job ended done."""
    import statistics

    import sqlalchemy as sa
    from sqlalchemy.orm import Session

    from scorebook.services import jobs
    from scorebook.worker import Worker

    folder = tempfile.mkdtemp(prefix="bench-lock-")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
                      "SECRET_KEY": "benchmark", "WTF_CSRF_ENABLED": False,
                      "JOBS_INLINE": False, "JOBS_PAUSE_SECONDS": 0},
                     instance_path=folder)
    with app.app_context():
        db.create_all()
        owned = League(name="Importer's table")
        db.session.add(owned)
        db.session.commit()
        cookie: dict[str, Any] = {}
        access.remember(cookie, owned, access.OWNER)
    client = app.test_client()
    with client.session_transaction() as session:
        session.update(cookie)
    with open(path, "rb") as upload:
        answer = client.post("/league/import", content_type="multipart/form-data",
                             data={"file": (upload, "league.json")})
    assert answer.status_code == 302, answer.status_code
    first: dict[str, tuple[float, float] | None] = {"at": None}
    held: list[tuple[float, float, str]] = []
    step: dict[str, str] = {"kind": ""}

    def wrote(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if first["at"] is None and not statement.lstrip().upper().startswith("SELECT"):
            first["at"] = (time.perf_counter(), time.process_time())

    def committed(_session: Any) -> None:
        began = first["at"]
        if began is not None:
            held.append((time.perf_counter() - began[0], time.process_time() - began[1],
                         step["kind"]))
        first["at"] = None

    save = jobs._save

    def saved(job: Any, worker: str, lease: float, done: Any = None, *args: Any,
              **kwargs: Any) -> None:
        save(job, worker, lease, done, *args, **kwargs)
        at = (done.checkpoint or {}) if done is not None else {}
        step["kind"] = ("the seal" if at.get("sealed") else "seasons" if at.get("seasons")
                        else "ratings" if "rated" in at else "games" if at else "other")

    with app.app_context():
        sa.event.listen(db.engine, "before_cursor_execute", wrote)
    sa.event.listen(Session, "after_commit", committed)
    jobs._save = saved  # type: ignore[assignment]
    began, cpu, load = time.perf_counter(), time.process_time(), _load()
    try:
        ended = Worker(app, "bench").run_once()
    finally:
        jobs._save = save  # type: ignore[assignment]
        sa.event.remove(Session, "after_commit", committed)
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    assert ended is not None
    holds = sorted(held)
    print(f"lock holds (in-process worker, SQLite, no pause): job {ended.state}, "
          f"{ended.done} of {games_count} games in {wall:.0f} s ({cpu:.0f} s CPU; load "
          f"{load:.1f} → {_load():.1f})")
    p95 = holds[max(0, int(len(holds) * 0.95) - 1)]
    median = statistics.median(h[0] for h in holds)
    print(f"  {len(holds)} write transactions: median {median * 1000:.0f} ms"
          f" (CPU {statistics.median(h[1] for h in holds) * 1000:.0f} ms), p95 "
          f"{p95[0] * 1000:.0f} ms, worst {holds[-1][0] * 1000:.0f} ms (CPU "
          f"{holds[-1][1] * 1000:.0f} ms, {holds[-1][2]}); CPU within, worst "
          f"{max(h[1] for h in holds) * 1000:.0f} ms")
    for kind in ("games", "ratings", "seasons", "the seal"):
        mine = [h for h in holds if h[2] == kind]
        if mine:
            print(f"  {kind}: {len(mine)}, worst {mine[-1][0] * 1000:.0f} ms (CPU "
                  f"{max(h[1] for h in mine) * 1000:.0f} ms at most)")
    return ended.state == "done"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--keep", help="write the league file here (else a temporary one)")
    parser.add_argument("--background", action="store_true",
                        help="also import it in the background through make serve")
    parser.add_argument("--only-background", action="store_true",
                        help="only the background import (not the request's)")
    parser.add_argument("--lock-holds", action="store_true",
                        help="only: how long each step of a job worker (in this process) "
                             "holds SQLite's write lock")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    began = time.perf_counter()
    template = play_templates()
    print(f"templates: {len(template['games'])} games played through the services in "
          f"{time.perf_counter() - began:.1f} s")
    with tempfile.TemporaryDirectory() as folder:
        path = args.keep or os.path.join(folder, "league.json")
        began = time.perf_counter()
        hand_count = write_big_export(template, args.games, path)
        size = os.path.getsize(path)
        print(f"file: {args.games} games, {hand_count} hands, {size / 1e6:.1f} MB "
              f"({size / hand_count / 1024:.2f} KB a hand), written in "
              f"{time.perf_counter() - began:.0f} s")
        if args.lock_holds:
            sys.exit(0 if lock_holds(path, args.games) else 1)
        if args.only_background:
            sys.exit(0 if background(path, args.games, hand_count) else 1)
        start = run_child("start", path)
        print(f"a process that only starts the app: peak {start['peak_mb']:.0f} MB")
        load = run_child("load", path)
        print(f"json.load of the whole file, for comparison: {load['seconds']:.1f} s, peak "
              f"{load['peak_mb']:.0f} MB")
        web = run_child("web", path)
        print(f"web import (streamed): HTTP {web['status']}, {web['games']} games and "
              f"{web['hands']} hands stored in {web['seconds']:.0f} s "
              f"({web['cpu_seconds']:.0f} s CPU, {web['seconds'] / max(hand_count, 1) * 1000:.1f}"
              f" ms a hand); peak {web['peak_mb']:.0f} MB")
        if web["status"] != 302 or web["games"] != args.games or web["hands"] != hand_count:
            print("IMPORT FAILED")
            sys.exit(1)
        if args.background and not background(path, args.games, hand_count):
            sys.exit(1)


if __name__ == "__main__":
    main()
