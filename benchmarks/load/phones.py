"""Locust: phones at card tables, each showing its game's scoreboard and doing what
``static/js/live.js`` does, and now and then recording or editing a hand through the
same forms a phone without JavaScript posts (CSRF token included).

Every second a phone asks ``GET /games/<id>/version`` with ``If-None-Match``; when the
version changed it fetches the scoreboard again (as live.js does: only its board,
``/games/<id>/board``, when the page names it in ``data-live-part-url``). With probability
``LOAD_P_RECORD`` a tick it records the game's next hand (GET the form, POST it), and
with ``LOAD_P_EDIT`` it edits one of the game's first hands. Phones at one table race
each other: a 409 (another phone saved that hand number first, or edited the hand
since the form was read) is the app refusing a duplicate, counted apart and not an
error. Anything else unexpected is a failure.

Leagues are private: a phone first joins its game's league through the league's scorer
invite link, as a player's phone would.

Run by ``benchmarks/load/run.py``, which sets ``LOAD_GAMES`` (``game id:invite token``
pairs, comma-separated),
``LOAD_RESULT`` (where the counts are written as JSON) and the probabilities.
"""

from __future__ import annotations

import json
import os
import random
import re
from typing import Any

from locust import FastHttpUser, constant_pacing, events, task

GAMES = [(int(pair.split(":")[0]), pair.split(":", 1)[1])
         for pair in os.environ.get("LOAD_GAMES", "1:").split(",")]
NAMES = os.environ.get("LOAD_NAMES", "Ann,Ben,Cy,Dee").split(",")
EDITABLE = int(os.environ.get("LOAD_EDITABLE", "20"))  # hands 1..N exist before the run
P_RECORD = float(os.environ.get("LOAD_P_RECORD", "0.04"))
P_EDIT = float(os.environ.get("LOAD_P_EDIT", "0.01"))
POLL_S = float(os.environ.get("LOAD_POLL_S", "1.0"))
RESULT = os.environ.get("LOAD_RESULT")

#: Ann melds 7-8-9 of spades and holds the K of diamonds; Ben goes out with two melds.
HAND = {"players-0-melds": "7s 8s 9s", "players-0-hand": "kd",
        "players-1-melds": "4c 4s 4d\n10h jh qh",
        "players-2-hand": "2c 3h", "players-3-hand": "5d", "outcome": "p1"}
#: The edit: Ann was also left holding the Q of diamonds.
EDITED = {**HAND, "players-0-hand": "kd qd"}

counts: dict[str, int] = {"saved": 0, "save_conflicts": 0, "edited": 0, "edit_conflicts": 0,
                          "updates_seen": 0}
saved: list[tuple[int, int]] = []  # (game id, hand number) of every 302 on a new hand


def hidden(html: str, name: str) -> str | None:
    """The value of the form's input called ``name``."""
    for tag in re.findall(r"<input\b[^>]*>", html):
        if re.search(rf'\bname="{re.escape(name)}"', tag):
            value = re.search(r'\bvalue="([^"]*)"', tag)
            return value.group(1) if value else ""
    return None


def form_data(cards: dict[str, str], csrf: str, **extra: str) -> dict[str, Any]:
    data: dict[str, Any] = {"csrf_token": csrf, "hand_json": "", **extra}
    for i in range(len(NAMES)):
        for field in ("melds", "layoffs", "hand"):
            data[f"players-{i}-{field}"] = cards.get(f"players-{i}-{field}", "")
    data["outcome"] = cards["outcome"]
    # a few cards each, fewer than dealt (RULES.md §10): the page asks; nobody remembers
    data["missing_ok"] = list(NAMES)
    return data


class Phone(FastHttpUser):
    wait_time = constant_pacing(POLL_S)
    seated = 0

    def on_start(self) -> None:
        self.game, token = GAMES[Phone.seated % len(GAMES)]
        Phone.seated += 1
        self.version = ""
        if token:
            self.join(token)
        self.open_board(refresh=False)

    def join(self, token: str) -> None:
        """Open the scorer invite link and press Join."""
        with self.client.get(f"/join/{token}", name="GET /join/<token>",
                             catch_response=True) as r:
            csrf = hidden(r.text or "", "csrf_token")
            if r.status_code != 200 or not csrf:
                r.failure(f"join page: HTTP {r.status_code}")
                return
        with self.client.post(f"/join/{token}", name="POST /join/<token>",
                              data={"csrf_token": csrf}, allow_redirects=False,
                              catch_response=True) as r:
            if r.status_code != 302:
                r.failure(f"join: HTTP {r.status_code}")

    def open_board(self, refresh: bool) -> None:
        headers = {"X-Live-Refresh": "1"} if refresh else {}
        part = getattr(self, "part_url", None)
        if refresh and part:  # live.js fetches only the board when the page names it
            url, name = part, "GET /games/<id>/board (live board)"
        else:
            url, name = f"/games/{self.game}", "GET /games/<id> (scoreboard)"
        with self.client.get(url, name=name, headers=headers, catch_response=True) as r:
            found = re.search(r'data-live-version="([^"]*)"', r.text or "")
            if r.status_code != 200 or not found:
                r.failure(f"scoreboard: HTTP {r.status_code}")
                return
            self.version = found.group(1)
            named = re.search(r'data-live-part-url="([^"]*)"', r.text or "")
            if named:
                self.part_url = named.group(1)

    @task
    def tick(self) -> None:
        changed = False
        with self.client.get(f"/games/{self.game}/version",
                             name="GET /games/<id>/version (poll)",
                             headers={"If-None-Match": f'"{self.version}"'},
                             catch_response=True) as r:
            if r.status_code == 304:
                r.success()
            elif r.status_code == 200:
                changed = r.json()["version"] != self.version
                r.success()
            else:
                r.failure(f"version: HTTP {r.status_code}")
        if changed:
            counts["updates_seen"] += 1
            self.open_board(refresh=True)
        roll = random.random()
        if roll < P_RECORD:
            self.record()
        elif roll < P_RECORD + P_EDIT:
            self.edit(random.randint(1, EDITABLE))

    def record(self) -> None:
        with self.client.get(f"/games/{self.game}/hands/new", allow_redirects=False,
                             name="GET /games/<id>/hands/new (form)",
                             catch_response=True) as r:
            csrf, number = hidden(r.text or "", "csrf_token"), hidden(r.text or "", "number")
            if r.status_code != 200 or not csrf or not number:
                r.failure(f"record form: HTTP {r.status_code}")
                return
        with self.client.post(f"/games/{self.game}/hands/new", allow_redirects=False,
                              name="POST /games/<id>/hands/new (record)",
                              data=form_data(HAND, csrf, number=number),
                              catch_response=True) as r:
            where = r.headers.get("Location", "") if r.headers else ""
            anchor = re.search(r"#hand-(\d+)$", where)
            if r.status_code == 302 and anchor:
                counts["saved"] += 1
                saved.append((self.game, int(anchor.group(1))))
                r.success()
            elif r.status_code == 409:
                counts["save_conflicts"] += 1  # another phone saved hand `number` first
                r.success()
            else:
                r.failure(f"record: HTTP {r.status_code} {where}")

    def edit(self, number: int) -> None:
        url = f"/games/{self.game}/hands/{number}/edit"
        with self.client.get(url, name="GET /games/<id>/hands/<n>/edit (form)",
                             catch_response=True) as r:
            csrf, version = hidden(r.text or "", "csrf_token"), hidden(r.text or "", "version")
            if r.status_code != 200 or not csrf or not version:
                r.failure(f"edit form: HTTP {r.status_code}")
                return
        cards = EDITED if random.random() < 0.5 else HAND
        with self.client.post(url, allow_redirects=False, catch_response=True,
                              name="POST /games/<id>/hands/<n>/edit (edit)",
                              data=form_data(cards, csrf, version=version)) as r:
            if r.status_code == 302:
                counts["edited"] += 1
                r.success()
            elif r.status_code == 409:
                counts["edit_conflicts"] += 1  # edited by another phone since the form
                r.success()
            else:
                r.failure(f"edit: HTTP {r.status_code}")


@events.test_stop.add_listener
def write_counts(**_: Any) -> None:
    if RESULT:
        with open(RESULT, "w", encoding="utf-8") as out:
            json.dump({**counts, "saved_hands": saved}, out)
