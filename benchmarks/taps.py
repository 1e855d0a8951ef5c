"""Taps to record a hand with the card picker, on a phone, by touch.

    .venv/bin/python benchmarks/taps.py [--languages en,es,it] [--hands seed004,basic3]
                                        [--pages picker,live] [--one-by-one] [--show]
                                        [--points-for held|<seats>]

``--pages``: ``picker`` enters each hand on the record page (below); ``live`` plays it
on the live hand page (``/games/<id>/hands/live``): "Start hand 1 live" (counted), each
meld and lay-off sent as a move as it goes down, then the cards left in each hand and
"Finish" (``LiveScorer`` says what each costs). Both are checked the same way.

The app is served on 127.0.0.1 (Werkzeug's threaded server, as the browser tests do)
from a SQLite file in a temporary folder. Debian's Chromium (headless, through
Playwright; never a downloaded browser) opens the record page as a phone: 390×844,
touch (``has_touch``, ``is_mobile``), the page's language from the phone's
(``locale``). A scripted scorer then enters each hand by touch — ``tap()`` on the
player's tools, the picker's cards and whatever the page offers — and counts every
tap from the empty form to "Save". What a step costs is decided by what the page
offers, the way a person would use it:

- a meld: the player's "New meld" when the cards would not go to a new meld by
  themselves; a run by its two ends when the page fills in the cards between
  (``data-shortcuts`` on the form), a set by its first card and the set's completion
  offered under it; otherwise card by card (``--one-by-one`` forces that);
- a lay-off: "Lay off" when that player is not laying off already, the card, and the
  meld when the page asks which;
- the cards left in a hand: "In hand" once, then card by card; with ``--points-for``
  (``held``: every player left holding cards; or seat numbers from 0, ``2`` or ``0,2``)
  that player's cards are the ones nobody remembers: the points field under their cards
  is tapped and the points typed (issue 27). The digits typed are counted apart, as keys;
- "Save".

Every hand is then read back from the JSON API (``GET /api/v1/games/<id>/hands/1``):
each player's melds, lay-offs and cards in hand must be exactly the script's, scored by
the server's referee, or the script exits 1. Hands:

- ``seed004`` — the rule book's worked Rummy 500 hand (seed 004, ``tests/worked_examples.py``
  ``RUMMY_500_HAND``): three players, 26 cards, 5 melds, 3 lay-offs (one asks "which
  meld?": K♠ fits Ada's kings and her 10♠ J♠ Q♠), 8 cards left in hands; 13 / 64 / −9.
- ``basic3`` — a Basic Rummy hand of three: Ann goes out with a run of four and a set of
  three, Ben melds a run and holds four cards, Cy lays off on Ann's run and holds six.

It prints the taps of each hand on each page in each language (and the keys typed, with
``--points-for``), and the budget (issue 27).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from werkzeug.serving import make_server  # noqa: E402

from app import create_app  # noqa: E402
from scorebook.extensions import db  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
WAIT_MS = 60_000
LOCALES = {"en": "en-GB", "es": "es-ES", "it": "it-IT"}
RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

# A step: ("meld", player, [cards]), ("layoff", player, card, (owner, meld index)),
# ("hand", player, [cards]); the melds of each player are numbered as they are entered.
HANDS: dict[str, dict[str, Any]] = {
    "seed004": {
        "family": "rummy-500", "names": ["You", "Ada", "Bo"], "budget": 19,
        "steps": [
            ("meld", 0, ["7S", "8S", "9S"]), ("meld", 0, ["4C", "4S", "4D"]),
            ("meld", 1, ["KC", "KD", "KH"]), ("meld", 1, ["10S", "JS", "QS"]),
            ("layoff", 0, "6S", (0, 0)), ("layoff", 0, "KS", (1, 0)),
            ("hand", 0, ["5H", "JD", "9H", "AH"]),
            ("layoff", 1, "4H", (0, 1)),
            ("meld", 2, ["6H", "6C", "6D"]),
            ("hand", 2, ["10C", "7D", "2H", "8C"]),
        ],
        "scores": [13, 64, -9],
    },
    "basic3": {
        "family": "basic", "names": ["Ann", "Ben", "Cy"], "budget": 12,
        "steps": [
            ("meld", 0, ["5H", "6H", "7H", "8H"]), ("meld", 0, ["QC", "QD", "QS"]),
            ("meld", 1, ["2S", "3S", "4S"]),
            ("hand", 1, ["9C", "KD", "3D", "JH"]),
            ("layoff", 2, "9H", (0, 0)),
            ("hand", 2, ["AC", "5D", "9S", "10C", "JD", "4C"]),
        ],
        # winner takes all: Ben's 9+10+3+10 and Cy's 1+5+9+10+10+4
        "scores": [71, 0, 0],
    },
}


def rank(card: str) -> str:
    return card[:-1]


def points_of(cards: list[str], family: str) -> int:
    """What the cards left in a hand count (the families' default values: face values,
    picture cards 10, the ace 15 in Rummy 500 and 1 in Basic Rummy)."""
    def value(card: str) -> int:
        r = rank(card)
        if r == "A":
            return 15 if family == "rummy-500" else 1
        return 10 if r in ("J", "Q", "K") else int(r)
    return sum(value(c) for c in cards)


def with_points(hand: dict[str, Any], points_for: str) -> dict[str, Any]:
    """The hand with the cards left in some hands given as their points (``--points-for``:
    ``held``, every player left holding cards, or seat numbers): ("points", player, n)."""
    if not points_for:
        return hand
    holding = {s[1] for s in hand["steps"] if s[0] == "hand"}
    seats = holding if points_for == "held" else {int(n) for n in points_for.split(",")}
    steps = [("points", s[1], points_of(s[2], hand["family"]))
             if s[0] == "hand" and s[1] in seats else s for s in hand["steps"]]
    return {**hand, "steps": steps}


def suit(card: str) -> str:
    return card[-1]


def is_set(cards: list[str]) -> bool:
    return len({rank(c) for c in cards}) == 1


def run_ends(cards: list[str]) -> tuple[str, str]:
    """The two ends of a run given in order."""
    return cards[0], cards[-1]


def fits(meld: list[str], card: str) -> bool:
    """Would ``card`` go on ``meld`` (a set of one rank, or a run of one suit)?"""
    if is_set(meld):
        return rank(card) == rank(meld[0])
    if suit(card) != suit(meld[0]):
        return False
    ranks = sorted(RANK_ORDER.index(rank(c)) for c in meld)
    at = RANK_ORDER.index(rank(card))
    return at in (ranks[0] - 1, ranks[-1] + 1) or (rank(card) == "A" and ranks[-1] == 12)


class Scorer:
    """Taps a person would make on the record page, counted."""

    def __init__(self, page: Any, one_by_one: bool) -> None:
        self.page = page
        self.count = 0
        self.keys = 0
        self.shortcuts = (not one_by_one and
                          page.locator("#record-form[data-shortcuts]").count() > 0)
        self.player = 0
        self.mode = "meld"
        self.last_meld: list[str] | None = None  # the meld just entered, still the target
        self.melds: dict[int, list[list[str]]] = {}

    def tap(self, locator: Any) -> None:
        locator.tap()
        self.count += 1

    def card(self, card: str) -> None:
        self.tap(self.page.locator(f".picker-grid button[data-card='{card}']"))

    def tool(self, player: int, act: str) -> None:
        self.tap(self.page.locator(f"#player-{player} button[data-act={act}][data-p='{player}']"))

    def slot_ok(self, player: int, count: int) -> None:
        from playwright.sync_api import expect
        expect(self.page.locator(f"#player-{player} .slot-status.ok")).to_have_count(count)

    def meld(self, player: int, cards: list[str]) -> None:
        fresh = self.player == player and self.mode == "meld" and (
            self.last_meld is None or
            (self.shortcuts and not fits(self.last_meld, cards[0])))
        if not fresh:
            self.tool(player, "new-meld")
        self.player, self.mode = player, "meld"
        mine = self.melds.setdefault(player, [])
        slot = self.page.locator(f"#player-{player} .slot").nth(len(mine))
        if self.shortcuts and is_set(cards):
            self.card(cards[0])
            rest = " ".join(sorted(cards[1:]))
            offer = slot.locator(f"button[data-act=complete][data-cards='{rest}']")
            if offer.count():
                self.tap(offer)
            else:
                for card in cards[1:]:
                    self.card(card)
        elif self.shortcuts:
            low, high = run_ends(cards)
            self.card(low)
            self.card(high)
        else:
            for card in cards:
                self.card(card)
        mine.append(cards)
        self.slot_ok(player, len(mine))
        self.last_meld = cards

    def layoff(self, player: int, card: str, onto: tuple[int, int]) -> None:
        from playwright.sync_api import expect
        if not (self.player == player and self.mode == "layoff"):
            self.tool(player, "layoff")
        self.player, self.mode, self.last_meld = player, "layoff", None
        chips = self.page.locator(f"#player-{player} [data-act=remove-layoff]")
        before = chips.count()
        self.card(card)
        question = self.page.locator(f"#player-{player} [data-act=place]")
        expect(chips.or_(question.first)).not_to_have_count(before)
        if chips.count() == before:  # "Which meld did K♠ go on?"
            owner, index = onto
            first = self.melds[owner][index][0]
            label = first[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[first[-1]]
            self.tap(question.filter(has_text=label).first)
        expect(chips).to_have_count(before + 1)

    def hand(self, player: int, cards: list[str]) -> None:
        if not (self.player == player and self.mode == "hand"):
            self.tool(player, "hand")
        self.player, self.mode, self.last_meld = player, "hand", None
        for card in cards:
            self.card(card)

    def points(self, player: int, points: int) -> None:
        """The points of a hand nobody remembers: its field under the player's cards, the
        digits typed (a numeric keypad); the picker's tool stays as it was."""
        from playwright.sync_api import expect
        field = self.page.locator(f"#player-{player} [data-held] input")
        self.tap(field)
        expect(field).to_be_focused()
        self.page.keyboard.type(str(points))
        self.keys += len(str(points))
        expect(field).to_have_value(str(points))

    def save(self) -> None:
        self.tap(self.page.locator("[data-save]"))


class LiveScorer:
    """Taps a person would make on the live hand page (``/games/<id>/hands/live``): each
    meld and lay-off sent as it goes down, then the cards left in hand and Finish.

    A meld: its player's chip in "Put down a meld" unless already chosen, the cards field
    unless the picker is already filling it, the cards (a run by its two ends and a set
    by one card and the completion offered under the field, when the form offers them:
    ``data-shortcuts``), "Put it down". A lay-off: the player's chip unless chosen, the
    card field unless being filled, the card, the meld unless the page chose it (the only
    meld it fits), "Lay it off". The end: each hand's field and its cards, who went out
    unless the page ticked it (the only player with no cards left), "Finish"."""

    def __init__(self, page: Any, one_by_one: bool) -> None:
        self.page = page
        self.count = 0
        self.keys = 0
        self.one_by_one = one_by_one
        self.field: str | None = None
        self.moves = 0
        self.melds: list[tuple[int, int]] = []  # (owner, index of the owner's meld), in order

    def tap(self, locator: Any) -> None:
        locator.tap()
        self.count += 1

    def card(self, card: str) -> None:
        self.tap(self.page.locator(f".picker-grid button[data-card='{card}']"))

    def shortcuts(self, form: str) -> bool:
        return (not self.one_by_one and
                self.page.locator(f"#{form}[data-shortcuts]").count() > 0)

    def choose(self, form: str, name: str, value: str) -> None:
        """Tap a chip of a radio group unless it is already the one chosen."""
        radio = self.page.locator(f"#{form} input[name={name}][value='{value}']")
        if not radio.is_checked():
            self.tap(self.page.locator(
                f"#{form} label:has(> input[name={name}][value='{value}'])"))

    def use(self, locator: Any) -> None:
        """Tap the card field unless the picker fills it already: the one the dock names
        (``data-target``), else (a page before it named it) the one last tapped, the
        meld's at first."""
        filled = (self.page.locator("[data-picker-dock]").get_attribute("data-target")
                  or self.field
                  or self.page.locator("#meld-form [data-card-input]").get_attribute("id"))
        wanted = locator.get_attribute("id")
        if filled != wanted:
            self.tap(locator)
        self.field = wanted

    def sent(self) -> None:
        """The move is stored when the table counts one more (live.js follows at once)."""
        from playwright.sync_api import expect
        self.moves += 1
        expect(self.page.locator("#cancel-live")).to_have_attribute(
            "data-moves", str(self.moves))

    def meld(self, player: int, cards: list[str]) -> None:
        from playwright.sync_api import expect
        page = self.page
        self.choose("meld-form", "meld-player", f"p{player}")
        field = page.locator("#meld-form [name=meld-cards]")
        self.use(field)
        if self.shortcuts("meld-form") and is_set(cards):
            self.card(cards[0])
            rest = " ".join(sorted(cards[1:]))
            offer = page.locator(f"#meld-form button[data-act=complete][data-cards='{rest}']")
            if offer.count():
                self.tap(offer)
            else:
                for card in cards[1:]:
                    self.card(card)
        elif self.shortcuts("meld-form"):
            low, high = run_ends(cards)
            self.card(low)
            self.card(high)
        else:
            for card in cards:
                self.card(card)
        expect(field.locator("xpath=following-sibling::*[@data-card-chips]")
               .locator("button")).to_have_count(len(cards))
        self.tap(page.locator("#meld-form button[type=submit]"))
        self.sent()
        self.melds.append((player, sum(1 for o, _ in self.melds if o == player)))

    def layoff(self, player: int, card: str, onto: tuple[int, int]) -> None:
        from playwright.sync_api import expect
        page = self.page
        expect(page.locator("#layoff")).to_be_visible()
        self.choose("layoff-form", "layoff-player", f"p{player}")
        self.use(page.locator("#layoff-form [name=layoff-card]"))
        self.card(card)
        radios = page.locator("#layoff-form input[name=layoff-onto]")
        expect(radios).to_have_count(len(self.melds))
        k = self.melds.index(onto)
        if not radios.nth(k).is_checked():
            self.tap(page.locator("#layoff-form label:has(> input[name=layoff-onto])").nth(k))
        self.tap(page.locator("#layoff-form button[type=submit]"))
        self.sent()

    def hand(self, player: int, cards: list[str]) -> None:
        self.use(self.page.locator("#finish-form [data-card-input]").nth(player))
        for card in cards:
            self.card(card)

    def points(self, player: int, points: int) -> None:
        """The points of a hand nobody remembers: the field beside its cards, typed."""
        from playwright.sync_api import expect
        field = self.page.locator("#finish-form [data-held-input]").nth(player)
        self.tap(field)
        expect(field).to_be_focused()
        self.page.keyboard.type(str(points))
        self.keys += len(str(points))
        expect(field).to_have_value(str(points))

    def finish(self, went_out: int, game: str) -> None:
        self.choose("finish-form", "finish-outcome", f"p{went_out}")
        self.tap(self.page.locator("#finish-form button[type=submit]"))
        self.page.wait_for_url(lambda url: url.startswith(game) and "/hands/" not in url,
                               wait_until="commit")


@contextmanager
def served(folder: Path) -> Iterator[str]:
    app = create_app({"SECRET_KEY": "taps", "SQLALCHEMY_DATABASE_URI":
                      f"sqlite:///{folder / 'taps.sqlite3'}",
                      "REFEREE_RATE_LIMIT": "1000000 per minute",
                      "REFEREE_MEMBER_RATE_LIMIT": "1000000 per minute"},
                     instance_path=folder)
    with app.app_context():
        db.create_all()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def start_game(page: Any, base: str, hand: dict[str, Any]) -> str:
    page.goto(f"{base}/games/new")
    for i, name in enumerate(hand["names"]):
        page.locator(f"#players-{i}").fill(name)
    page.locator(f"input[name=family][value={hand['family']}]").check()
    page.locator("form button.button-big[type=submit]").click()
    page.wait_for_url("**/games/*")
    return str(page.url)


def expected(hand: dict[str, Any]) -> list[dict[str, Any]]:
    """Each player's melds, lay-offs (card, owner, meld index), cards in hand and the points
    given for a hand nobody remembers."""
    out: list[dict[str, Any]] = [{"melds": [], "layoffs": [], "hand": [], "held": None}
                                 for _ in hand["names"]]
    for step in hand["steps"]:
        if step[0] == "meld":
            out[step[1]]["melds"].append(sorted(step[2]))
        elif step[0] == "layoff":
            out[step[1]]["layoffs"].append((step[2], step[3][0], step[3][1]))
        elif step[0] == "points":
            out[step[1]]["held"] = step[2]
        else:
            out[step[1]]["hand"].extend(step[2])
    for p in out:
        p["melds"].sort()
        p["layoffs"].sort()
        p["hand"].sort()
    return out


def stored(page: Any, game_url: str, hand: dict[str, Any]) -> tuple[list[dict[str, Any]], Any]:
    game_id = game_url.rstrip("/").split("/")[-1].split("#")[0]
    answer = page.request.get(f"{game_url.split('/games/')[0]}/api/v1/games/{game_id}/hands/1")
    assert answer.ok, answer.text()
    data = answer.json()
    data = data.get("hand", data)
    names = hand["names"]
    where: dict[str, tuple[int, int]] = {}
    for p in data["players"]:
        for k, m in enumerate(p.get("melds") or []):
            where[str(m["id"])] = (names.index(p["name"]), k)
    out: list[dict[str, Any]] = [{} for _ in names]
    for p in data["players"]:
        i = names.index(p["name"])
        melds = [sorted(m["cards"]) for m in p.get("melds") or []]
        layoffs = [(lay["card"], *where[str(lay["onto"])]) for lay in p.get("layoffs") or []]
        out[i] = {"melds": sorted(melds), "layoffs": sorted(layoffs),
                  "hand": sorted(p.get("hand") or []), "held": p.get("held_points")}
    # meld indexes as the script numbers them (in the order entered, which the store keeps)
    return out, data.get("scores")


def play(browser: Any, base: str, language: str, name: str, one_by_one: bool = False,
         show: bool = False, wait_ms: int = WAIT_MS, live: bool = False,
         points_for: str = "", keys: list[int] | None = None) -> int:
    """Enter hand ``name`` on a new game by touch in ``language`` (on the record page, or
    with ``live`` move by move on the live hand page), save it, check what was stored;
    returns the taps (and appends the keys typed to ``keys``). ``points_for``: whose
    cards left in hand are given as points (:func:`with_points`)."""
    from playwright.sync_api import expect
    hand = with_points(HANDS[name], points_for)
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True,
                                  is_mobile=True, locale=LOCALES[language])
    context.set_default_timeout(wait_ms)
    context.set_default_navigation_timeout(wait_ms)
    expect.set_options(timeout=wait_ms)
    page = context.new_page()
    try:
        game = start_game(page, base, hand)
        scorer: Scorer | LiveScorer
        if live:
            page.goto(f"{game}/hands/live")
            assert page.locator("html").get_attribute("lang") == language
            scorer = LiveScorer(page, one_by_one)
            with page.expect_navigation():  # "Start hand 1 live", counted
                scorer.tap(page.locator("#live-start button[type=submit]"))
            expect(page.locator(".picker-grid")).to_be_visible()
            # the moves as they go down, then the cards left in each hand at the end
            at_end = ("hand", "points")
            steps = ([s for s in hand["steps"] if s[0] not in at_end] +
                     [s for s in hand["steps"] if s[0] in at_end])
            for step in steps:
                getattr(scorer, step[0])(*step[1:])
            holding = {s[1] for s in hand["steps"] if s[0] in at_end}
            went_out = next(i for i in range(len(hand["names"])) if i not in holding)
            if show:
                page.screenshot(path=f"/tmp/taps-live-{name}-{language}.png", full_page=True)
            scorer.finish(went_out, game)
        else:
            page.goto(f"{game}/hands/new")
            assert page.locator("html").get_attribute("lang") == language
            expect(page.locator(".picker-grid")).to_be_visible()
            scorer = Scorer(page, one_by_one)
            for step in hand["steps"]:
                getattr(scorer, step[0])(*step[1:])
            # the referee has read every meld and the preview scored the hand
            expect(page.locator("[data-preview] table")).to_be_visible()
            if show:
                page.screenshot(path=f"/tmp/taps-{name}-{language}.png", full_page=True)
            if points_for:  # the points scored: the preview's table, before Save
                expect(page.locator("[data-preview] table")).to_contain_text(
                    str(max(hand["scores"])))
            scorer.save()
            page.wait_for_url(f"{game}*")
        got, scores = stored(page, game, hand)
        want = expected(hand)
        where = "live" if live else "picker"
        if got != want:
            raise AssertionError(f"{name} ({language}, {where}): stored {got}, entered {want}")
        if scores is not None:
            values = ([scores[n] for n in hand["names"]] if isinstance(scores, dict)
                      else scores)
            if values != hand["scores"]:
                raise AssertionError(f"{name} ({language}, {where}): scored {values}, not "
                                     f"{hand['scores']}")
        if keys is not None:
            keys.append(scorer.keys)
        return scorer.count
    finally:
        context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--languages", default="en,es,it")
    parser.add_argument("--hands", default=",".join(HANDS))
    parser.add_argument("--pages", default="picker,live",
                        help="picker (the record page), live (the live hand page) or both")
    parser.add_argument("--one-by-one", action="store_true",
                        help="tap every card, as the picker took them before issue 27")
    parser.add_argument("--show", action="store_true",
                        help="save a screenshot of each hand before Save in /tmp")
    parser.add_argument("--points-for", default="",
                        help="give the cards left in these hands as points (issue 27): "
                             "'held' (every player left holding cards) or seats, '1,2'")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    results: dict[tuple[str, str], dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as tmp, served(Path(tmp)) as base, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        for where in args.pages.split(","):
            for name in args.hands.split(","):
                for language in args.languages.split(","):
                    typed: list[int] = []
                    try:
                        count = play(browser, base, language, name, args.one_by_one,
                                     args.show, live=where == "live",
                                     points_for=args.points_for, keys=typed)
                    except AssertionError as error:
                        print(f"NOT RECORDED AS ENTERED: {error}")
                        return 1
                    results.setdefault((where, name), {})[language] = count
                    said = f" and {typed[0]} keys" if typed and typed[0] else ""
                    print(f"{where:6} {name:8} {language}: {count} taps{said}", flush=True)
        browser.close()
    missed = False
    for (where, name), counts in results.items():
        budget = HANDS[name]["budget"]
        worst = max(counts.values())
        missed = missed or worst > budget
        print(f"{where} {name}: {', '.join(f'{k} {v}' for k, v in counts.items())} taps "
              f"(budget {budget}: {'met' if worst <= budget else 'missed'})")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
