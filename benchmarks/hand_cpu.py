"""CPU time of recording a hand on a 6-player game with 40 hands already recorded, the
typed form (``POST /games/<id>/hands/new``) and the JSON API (``POST
/api/v1/games/<id>/hands``), beside a bare Flask page in the same process (issue 28).

    .venv/bin/python benchmarks/hand_cpu.py [--saves 40] [--profile form|api] [--top 40]

One process, Flask's test client (no network), a SQLite file in a temporary folder.
Each save goes to a game of its own, filled with the same 40 hands beforehand, so every
timed save is a 41st hand.  CPU is
``time.process_time`` around the request; the bare page is ``return "ok"`` on the same
app.  ``--profile`` runs cProfile over the saves of one kind and prints the top entries
(``--callees`` adds what chosen functions call); ``--sql`` prints one save's statements.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import event  # noqa: E402

from app import create_app  # noqa: E402
from benchmarks.scorebook import HANDS, NAMES  # noqa: E402
from scorebook.extensions import db  # noqa: E402
from scorebook.models import Game  # noqa: E402
from scorebook.services import access, games, hands  # noqa: E402
from scorebook.services.entry import entry_from_text  # noqa: E402


def new_game(rounds: int = 40) -> int:
    rules = games.build_rules("pagat-500", {"target": 100000})
    game = games.create_game(games.default_league(), NAMES, 0, rules)
    for number in range(1, rounds + 1):
        went_out = "Eve" if number % 2 else "Ben"
        hands.record_hand(game, entry_from_text(NAMES, HANDS[number % 2], went_out, None,
                                                False, False), number)
    return game.id


def form_of(number: int) -> dict[str, str | list[str]]:
    form: dict[str, str | list[str]] = {"number": str(number), "missing_ok": list(NAMES)}
    texts = HANDS[number % 2]
    for i, name in enumerate(NAMES):
        for field in ("melds", "layoffs", "hand"):
            form[f"players-{i}-{field}"] = texts.get(name, {}).get(field, "")
    form["outcome"] = f"p{NAMES.index('Eve' if number % 2 else 'Ben')}"
    return form


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=40)
    parser.add_argument("--bare", type=int, default=400, help="bare page requests")
    parser.add_argument("--profile", choices=("form", "api"))
    parser.add_argument("--top", type=int, default=45)
    parser.add_argument("--callees", default="",
                        help="with --profile: functions (regular expressions, comma "
                             "separated) whose callees to print")
    parser.add_argument("--sql", action="store_true", help="print one save's statements")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="scorebook-handcpu-"))
    app = create_app({"SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}"},
                     instance_path=folder)

    @app.get("/_bench/bare")
    def bare() -> str:
        return "ok"

    with app.app_context():
        db.create_all()
    with app.test_request_context():
        ids = [new_game() for _ in range(2 * args.saves + 2)]
        league = db.session.get(Game, ids[0]).league
    client = app.test_client()
    with app.app_context(), client.session_transaction() as session:
        access.remember(session, league, access.OWNER)
    # the API body: hand 41's form stored once on a spare game, read back as JSON
    spare = ids.pop()
    assert client.post(f"/games/{spare}/hands/new", data=form_of(41)).status_code == 302
    body = client.get(f"/api/v1/games/{spare}/hands/41").get_json()
    body = {"number": 41, "went_out": body["went_out"], "ending": body["ending"],
            "players": [{k: v for k, v in p.items() if k in ("name", "melds", "layoffs",
                                                             "hand")}
                        for p in body["players"]]}
    warm = ids.pop()
    for _ in range(50):
        client.get("/_bench/bare")
    assert client.post(f"/api/v1/games/{warm}/hands", json=body).status_code == 201

    def cpu(func) -> float:
        start = time.process_time()
        func()
        return (time.process_time() - start) * 1000

    statements: dict[str, list[str]] = {"form": [], "api": []}
    counting: list[str] | None = None

    def count(conn, cursor, statement, parameters, context, executemany) -> None:
        if counting is not None:
            counting.append(statement)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
    bare_ms = [cpu(lambda: client.get("/_bench/bare")) for _ in range(args.bare)]
    profiler = cProfile.Profile() if args.profile else None
    results: dict[str, list[float]] = {"form": [], "api": []}
    for i in range(args.saves):
        for kind in ("form", "api"):
            game_id = ids.pop()
            if kind == "form":
                def send(game_id: int = game_id) -> None:
                    response = client.post(f"/games/{game_id}/hands/new", data=form_of(41))
                    assert response.status_code == 302, response.get_data(as_text=True)[:800]
            else:
                def send(game_id: int = game_id) -> None:
                    response = client.post(f"/api/v1/games/{game_id}/hands", json=body)
                    assert response.status_code == 201, response.get_json()
            if profiler is not None and kind == args.profile:
                profiler.enable()
            if i == 0:
                counting = statements[kind]
            results[kind].append(cpu(send))
            counting = None
            if profiler is not None and kind == args.profile:
                profiler.disable()
    bare_median = statistics.median(bare_ms)
    print(f"bare page                     CPU median {bare_median:6.3f} ms")
    for kind, label in (("form", "POST /games/<id>/hands/new"),
                        ("api", "POST /api/v1/games/<id>/hands")):
        median = statistics.median(results[kind])
        print(f"{label:30s}CPU median {median:6.2f} ms  "
              f"(min {min(results[kind]):.2f})  {median / bare_median:5.1f}x the bare page, "
              f"{len(statements[kind])} SQL statements")
        if args.sql:
            for statement in statements[kind]:
                print("    " + " ".join(statement.split())[:160])
    if profiler is not None:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(25)
        for name in filter(None, args.callees.split(",")):
            stats.print_callees(name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
