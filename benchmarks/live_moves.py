"""Two phones in a live hand, making different moves at the same moment: how many bounce?

    .venv/bin/python benchmarks/live_moves.py                  # 50 rounds, SQLite file
    .venv/bin/python benchmarks/live_moves.py --rounds 200 --database-url postgresql+psycopg://…

The app is served on 127.0.0.1 (a free port, Werkzeug's threaded server, one thread per
request as gunicorn's workers would be) with CSRF protection on, as in production, on
a fresh database: a SQLite file in a temporary folder, or the PostgreSQL database given
(its tables are dropped and made again: give it a database of its own).  Two phones
join the game's league through its scorer invite link, each with its own cookies, as
two real phones would.  Every round:

1. one phone starts a live hand; both open the live page (each reads its forms, the
   CSRF token and the hand they are for);
2. both send a different meld at the same moment (a barrier releases the two POSTs
   together; each as the page's script sends it, asking for JSON);
3. both lay off a different card at the same moment, each on the other's meld;
4. the hand is finished, by one phone.

A move "bounces" when it is not stored: any answer but ``200 {"ok": true}``.  Before
the live hand was locked move by move, about half bounced with "Hand N was changed".
The script prints each kind of answer, the moves stored (read back from the database),
and exits 1 if any move bounced or any stored score fails ``verify``.  Traffic goes to
127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import html
import http.cookiejar
import json
import logging
import re
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from werkzeug.serving import make_server  # noqa: E402

from app import create_app  # noqa: E402
from referee import make_rules  # noqa: E402
from scorebook.extensions import db  # noqa: E402
from scorebook.models import Game, Hand, League  # noqa: E402
from scorebook.services import access, games  # noqa: E402
from scorebook.services.hands import verify  # noqa: E402

#: Each round's moves: the two melds, then each phone lays off on the other's meld.
MELDS = [("p0", "7s 8s 9s"), ("p1", "kh kd kc")]
LAYOFFS = [("p1", "10s", "Ann-1"), ("p0", "ks", "Ben-1")]


class Phone:
    """A browser: its own cookies, forms read from the pages, posts like a page's script."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def request(self, path: str, data: Mapping[str, str | list[str]] | None = None,
                accept: str = "text/html") -> tuple[int, str]:
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        req = urllib.request.Request(self.base + path, data=body, headers={
            "Accept": accept, "User-Agent": "benchmarks/live_moves.py"})
        try:
            with self.opener.open(req, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def fields(self, page: str, action: str) -> dict[str, str]:
        """The hidden fields of the form posting to ``action`` (its CSRF token, its hand)."""
        start = page.index(f'action="{action}"')
        form = page[start:page.index("</form>", start)]
        out = {}
        for tag in re.findall(r"<input\b[^>]*>", form):
            name = re.search(r'\bname="([^"]+)"', tag)
            value = re.search(r'\bvalue="([^"]*)"', tag)
            kind = re.search(r'\btype="([^"]+)"', tag)
            if name and kind and kind.group(1) == "hidden":
                out[name.group(1)] = html.unescape(value.group(1) if value else "")
        return out

    def join(self, link_path: str) -> None:
        status, page = self.request(link_path)
        assert status == 200, (status, page[:200])
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert token, "no CSRF token on the join page"
        status, _ = self.request(link_path, {"csrf_token": token.group(1)})
        assert status == 200, status  # redirected to the league


def serve(database_url: str) -> tuple[Any, Any, str]:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    config = {"SECRET_KEY": "live-moves-benchmark", "SQLALCHEMY_DATABASE_URI": database_url,
              "RATELIMIT_ENABLED": False}
    if database_url.startswith("postgresql"):
        config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_size": 10}
    app = create_app(config, instance_path=tempfile.mkdtemp(prefix="live-moves-"))
    with app.app_context():
        db.drop_all()
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return app, server, f"http://127.0.0.1:{server.server_port}"


def set_up(app: Any) -> tuple[int, str]:
    """A game of Ann and Ben in a league with a scorer invite link: (game id, link path)."""
    with app.test_request_context():
        league = League(name="Live moves")
        db.session.add(league)
        token = access.new_token()
        league.scorer_token_hash = access.token_hash(token)
        db.session.flush()
        # a target no round reaches: the game goes on for every round asked for
        game = games.create_game(league, ["Ann", "Ben"], 0,
                                 make_rules("rummy-500", target=100_000))
        return game.id, f"/join/{token}"


def at_once(phones: list[Phone], send: Callable[[Phone, int], tuple[int, str]]
            ) -> list[tuple[int, str]]:
    barrier = threading.Barrier(len(phones))
    answers: list[tuple[int, str]] = [(0, "")] * len(phones)

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = send(phones[i], i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(phones))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return answers


def stored_move(answer: tuple[int, str]) -> bool:
    """``200 {"ok": true}``; from a server that answers moves with pages only (an older
    version of the app, to compare), the live page the move redirected to."""
    status, body = answer
    if status != 200:
        return False
    try:
        return bool(json.loads(body).get("ok"))
    except ValueError:
        return "<html" in body and "Nothing from your form was saved" not in body


def describe(answer: tuple[int, str]) -> str:
    status, body = answer
    try:
        parsed = json.loads(body)
        return f"{status} {parsed.get('code') or ('ok' if parsed.get('ok') else '?')}"
    except ValueError:
        return f"{status} page"


def run(rounds: int, database_url: str, quiet: bool = False) -> dict[str, Any]:
    app, server, base = serve(database_url)
    try:
        game_id, link = set_up(app)
        phones = [Phone(base), Phone(base)]
        for phone in phones:
            phone.join(link)
        live = f"/games/{game_id}/hands/live"
        kinds: Counter[str] = Counter()
        bounced = sent = 0
        started = time.perf_counter()
        for round_ in range(1, rounds + 1):
            status, page = phones[round_ % 2].request(live)
            start = phones[round_ % 2].fields(page, f"{live}/start")
            status, _ = phones[round_ % 2].request(f"{live}/start", start)
            assert status == 200, status  # redirected to the live page
            pages = [phone.request(live)[1] for phone in phones]
            forms = [phone.fields(page, f"{live}/meld") for phone, page in zip(phones, pages)]

            def meld(phone: Phone, i: int, forms: list[dict[str, str]] = forms
                     ) -> tuple[int, str]:
                player, cards = MELDS[i]
                return phone.request(f"{live}/meld", {
                    **forms[i], "meld-player": player, "meld-cards": cards},
                    accept="application/json")

            def layoff(phone: Phone, i: int, pages: list[str] = pages) -> tuple[int, str]:
                player, card, onto = LAYOFFS[i]
                fields = phones[i].fields(pages[i], f"{live}/layoff")
                return phone.request(f"{live}/layoff", {
                    **fields, "layoff-player": player, "layoff-card": card,
                    "layoff-onto": onto}, accept="application/json")

            for send in (meld, layoff):
                answers = at_once(phones, send)
                sent += len(answers)
                for answer in answers:
                    kinds[describe(answer)] += 1
                    if not stored_move(answer):
                        bounced += 1
                        if not quiet:
                            print(f"round {round_}: bounced: {answer[1][:200]}")
            page = phones[0].request(live)[1]
            finish = phones[0].fields(page, f"{live}/finish")
            status, _ = phones[0].request(f"{live}/finish", {
                **finish, "finish-players-0-hand": "2c", "finish-players-1-hand": "",
                "finish-outcome": "p1",
                # a few cards each, fewer than dealt (RULES.md §10): nobody remembers the rest
                "finish-missing_ok": ["Ann", "Ben"]})
            assert status == 200, status  # redirected to the scoreboard
        elapsed = time.perf_counter() - started
        with app.app_context():
            game = db.session.get(Game, game_id)
            hands = list(db.session.scalars(db.select(Hand).where(Hand.game_id == game_id)))
            stored = sum(1 + sum(1 for c in m.cards if c.is_layoff)
                         for h in hands for m in h.melds)
            problems = verify([game]) if game else ["no game"]
        result = {"rounds": rounds, "moves_sent": sent, "moves_stored": stored,
                  "bounced": bounced, "answers": dict(kinds), "verify": problems,
                  "seconds": round(elapsed, 2), "database": database_url.split(":", 1)[0]}
        return result
    finally:
        server.shutdown()
        with app.app_context():
            db.session.remove()
            if database_url.startswith("postgresql"):
                db.drop_all()
            db.engine.dispose()  # hand the connections back (a shared server has few)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--database-url", default="",
                        help="default: a SQLite file in a temporary folder")
    args = parser.parse_args()
    url = args.database_url or "sqlite:///" + str(
        Path(tempfile.mkdtemp(prefix="live-moves-db-")) / "live.sqlite3")
    result = run(args.rounds, url)
    print(f"database: {result['database']}")
    print(f"rounds: {result['rounds']} (two phones, a meld each at once, then a lay-off each "
          f"at once)")
    print(f"moves sent: {result['moves_sent']}, stored: {result['moves_stored']}")
    print("answers: " + ", ".join(f"{k} × {v}" for k, v in sorted(result["answers"].items())))
    print(f"bounced: {result['bounced']}")
    checked = result["verify"] or "every stored score matches its cards"
    print(f"verify: {checked}")
    print(f"time: {result['seconds']} s")
    return 0 if result["bounced"] == 0 and not result["verify"] else 1


if __name__ == "__main__":
    sys.exit(main())
