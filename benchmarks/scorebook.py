"""Scorebook benchmarks: the scoreboard of a 6-player game with 40 hands, and saving
a hand, each timed against a trivial Flask page in the same run.

    .venv/bin/python benchmarks/scorebook.py [--rounds 200] [--saves 40]

Everything runs in one process through Flask's test client (no network), on a
SQLite file in a temporary folder, like ``make run``.  Targets: the scoreboard
within 3× of the trivial page, saving a hand under 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask import render_template_string  # noqa: E402

from app import create_app  # noqa: E402
from scorebook.extensions import db  # noqa: E402
from scorebook.models import Game  # noqa: E402
from scorebook.services import access, games, hands  # noqa: E402
from scorebook.services.entry import entry_from_text  # noqa: E402

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
SUITS = "shdc"
#: Six players: two decks, so every hand may use each card twice.
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


def timed(func: Callable[[], object], rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def summary(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[int(len(ordered) * 0.9) - 1]
    return f"median {statistics.median(samples):6.2f} ms   p90 {p90:6.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="page requests per timing")
    parser.add_argument("--saves", type=int, default=40, help="hands saved for the timing")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="scorebook-bench-"))
    app = create_app({"SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}"},
                     instance_path=folder)

    @app.get("/_bench/trivial")
    def trivial() -> str:
        return render_template_string(
            '{% extends "base.html" %}{% block content %}<p>{{ _("Hello") }}</p>{% endblock %}')

    with app.app_context():
        db.create_all()
    with app.test_request_context():
        rules = games.build_rules("pagat-500", {"target": 100000})
        game = games.create_game(games.default_league(), NAMES, 0, rules)
        game_id = game.id
        for number in range(1, 41):
            texts = HANDS[number % 2]
            went_out = "Eve" if number % 2 else "Ben"
            hands.record_hand(game, entry_from_text(NAMES, texts, went_out, None, False,
                                                    False), number)
        assert len(game.hands) == 40

    client = app.test_client()
    with app.app_context(), client.session_transaction() as session:
        # the benchmark's browser owns the game's league (leagues are private)
        access.remember(session, db.session.get(Game, game_id).league, access.OWNER)
    board_url = f"/games/{game_id}"
    for url in (board_url, "/_bench/trivial"):  # warm up: templates, caches, connections
        for _ in range(20):
            assert client.get(url).status_code == 200

    trivial_ms = timed(lambda: client.get("/_bench/trivial"), args.rounds)
    board_ms = timed(lambda: client.get(board_url), args.rounds)

    saves: list[float] = []
    cold: list[float] = []  # the scoreboard's first view after each save (rendered anew)
    for number in range(41, 41 + args.saves):
        # a few cards each, fewer than dealt (RULES.md §10): the form says nobody remembers
        form: dict[str, str | list[str]] = {"number": str(number), "outcome": "p1",
                                            "missing_ok": list(NAMES)}
        texts = HANDS[number % 2]
        went_out = "Eve" if number % 2 else "Ben"
        for i, name in enumerate(NAMES):
            for field in ("melds", "layoffs", "hand"):
                form[f"players-{i}-{field}"] = texts.get(name, {}).get(field, "")
        form["outcome"] = f"p{NAMES.index(went_out)}"
        start = time.perf_counter()
        response = client.post(f"/games/{game_id}/hands/new", data=form)
        saves.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 302, response.get_data(as_text=True)[:2000]
        start = time.perf_counter()
        assert client.get(board_url).status_code == 200
        cold.append((time.perf_counter() - start) * 1000)

    ratio = statistics.median(board_ms) / statistics.median(trivial_ms)
    save_median = statistics.median(saves)
    print(f"trivial page (base layout)         {summary(trivial_ms)}")
    print(f"scoreboard, 6 players, 40 hands    {summary(board_ms)}   "
          f"= {ratio:.2f}x the trivial page (target <= 3x)")
    print(f"scoreboard right after a save      {summary(cold)}   "
          f"(rendered anew, {statistics.median(cold) / statistics.median(trivial_ms):.2f}x)")
    print(f"save a hand (POST, 6 players)      {summary(saves)}   (target < 50 ms)")
    ok = ratio <= 3 and save_median < 50
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
