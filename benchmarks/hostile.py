"""How fast the JSON API refuses hostile bodies: the worst time of any refused one.

Each body is one an attacker would send to make the referee search for long: more cards
than the decks in play hold, more melds than those cards make, a 1.8 MB table (the one
that used to cost 30 s of CPU), JSON nested 1,000 deep, and the same as one string of
cards. Every one must be refused (4xx) before any search: target, the worst under 50 ms.

    .venv/bin/python benchmarks/hostile.py            # --runs 20

Flask's test client, one process, in-memory SQLite (the referee endpoints touch no
database). Prints each body's worst and median time and exits 1 if a target is missed
or a body is answered 200.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app  # noqa: E402

TARGET_MS = 50.0
RULES = {"family": "pagat-500"}
RUN = ["5H", "6H", "7H"]


def bodies() -> dict[str, tuple[str, bytes]]:
    many = ["7S"] * 2000
    melds = [{"id": f"m{i}", "cards": RUN} for i in range(1000)]
    big = [{"id": f"m{i}", "cards": ["5H", "6H", "7H", "8H", "9H"]} for i in range(32000)]

    def j(obj: object) -> bytes:
        return json.dumps(obj).encode()

    return {
        "meld, 2,000 cards": ("referee/meld", j({"rules": RULES, "players": 8, "cards": many})),
        "layoff, 1,000 melds": ("referee/layoff", j({"rules": RULES, "table": melds,
                                                     "card": "8H"})),
        "going-out, 2,000 cards in hand": ("referee/going-out", j({
            "rules": RULES, "table": melds[:3], "hand": many})),
        "draw, a pile of 2,000": ("referee/draw", j({"rules": RULES, "pile": many,
                                                      "hand": RUN})),
        "rummy-call, 20,000 cards in a string": ("referee/rummy-call", j({
            "rules": RULES, "pile": " ".join(["KC"] * 20000), "discarder": "A",
            "caller": "B"})),
        "score, 3,000 melds": ("score/hand", j({"rules": RULES, "players": [
            {"name": "A", "melds": [RUN] * 3000}, {"name": "B"}]})),
        "arrange, 2,000 cards": ("arrange", j({"rules": RULES, "cards": many})),
        "layoff, a 1.8 MB table": ("referee/layoff", j({"rules": RULES, "table": big,
                                                         "card": "10H"})),
        "going-out, a 1.8 MB table": ("referee/going-out", j({"rules": RULES, "table": big,
                                                               "hand": RUN})),
        "meld, 1,000 [ deep": ("referee/meld", b"[" * 1000 + b"]" * 1000),
        "meld, 100,000 [ deep (under the size limit)": (
            "referee/meld", b'{"cards": ' + b"[" * 60000 + b"]" * 60000 + b"}"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI":
                      "sqlite://", "REFEREE_RATE_LIMIT": "1000000 per minute"})
    client = app.test_client()
    worst_of_all = 0.0
    failed = False
    print(f"{'body':48} {'bytes':>9} {'status':>6} {'median ms':>10} {'worst ms':>9}")
    for what, (path, data) in bodies().items():
        times = []
        status = 0
        for _ in range(args.runs):
            started = time.perf_counter()
            response = client.post(f"/api/v1/{path}", data=data,
                                   content_type="application/json")
            times.append((time.perf_counter() - started) * 1000)
            status = response.status_code
        worst = max(times)
        worst_of_all = max(worst_of_all, worst)
        if status < 400:
            failed = True
        print(f"{what:48} {len(data):9,} {status:6} {statistics.median(times):10.2f} "
              f"{worst:9.2f}")
    met = worst_of_all < TARGET_MS and not failed
    print(f"worst time of any refused hostile body: {worst_of_all:.2f} ms "
          f"(target < {TARGET_MS:g} ms): {'target met' if met else 'TARGET MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
