"""Names are data, never markup: every page of the URL map, rendered with a league,
its players, a season and meld ids all named something hostile.

For each hostile name the same world is built — a league, a season, a finished game of
Basic Rummy, a game of 500 Rum with a recorded hand, a hand recorded through the API
with meld ids of that name, and a live hand — and every GET route of the app is
rendered (plus the forms that show a name back in an error, and a flashed message).
A page fails if

- the name reaches it unescaped (a ``<plaintext>`` or ``<img onerror>`` element, or the
  raw text in the source);
- the name is shown a different number of times than a plain name is shown on the same
  page of the same world (so ``{{7*7}}`` rendered as ``49``, or a name that swallowed the
  markup after it, is caught);
- a name holding a right-to-left override (U+202E) is not isolated from the text after
  it: each one must sit alone in a ``<bdi>`` (or an element with ``dir``), or between
  U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE where no element can go
  (a ``<title>``, an attribute, an option, SVG text, a plain-text message).

Routes added later are rendered too: a new page that shows a name unescaped or
un-isolated fails here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient

from referee import make_rules, parse_cards
from scorebook.extensions import db
from scorebook.models import League, Season, SharedResult
from scorebook.services import access, games, hands
from scorebook.services.entry import entry_from_text

RLO = "\u202e"
FSI, LRI, RLI, PDI = "\u2068", "\u2066", "\u2067", "\u2069"
HOSTILE = ["<plaintext>", '"><img src=x onerror=alert(1)>', "{{7*7}}", f"{RLO}Mallory"]
PLAIN = "Qzxplain"  # the control: a name that occurs nowhere else
OTHER = "Ada"
SCORER_TOKEN = "scorer-token-for-the-hostile-names-test-0123"
#: The game's result shared by link (its page shows the names to anyone).
SHARE_TOKEN = "shared-result-of-the-hostile-names-test-0123"
#: Attributes a person sees or hears (data-* and value of hidden fields are data).
SHOWN_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder", "label", "aria-description"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
SKIPPED_ENDPOINTS = {"static", "language.choose"}


# --- a small DOM ----------------------------------------------------------------------------


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.open = self.root
        self.elements: list[Node] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.open)
        self.open.children.append(node)
        self.elements.append(node)
        if tag not in VOID:
            self.open = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.open)
        self.open.children.append(node)
        self.elements.append(node)

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.open
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.open = node.parent

    def handle_data(self, data: str) -> None:
        self.open.children.append(data)


def parse(html: str) -> Tree:
    tree = Tree()
    tree.feed(html)
    tree.close()
    return tree


def text_nodes(node: Node) -> Iterator[tuple[str, Node]]:
    for child in node.children:
        if isinstance(child, str):
            # A form field's text is what is typed and sent back (an isolate added there
            # would be submitted with the name); the field is a paragraph of its own.
            if node.tag not in ("script", "style", "textarea"):
                yield child, node
        else:
            yield from text_nodes(child)


def shown_texts(tree: Tree) -> list[str]:
    """Every text a person reads or hears: text nodes and the shown attributes."""
    texts = [text for text, _parent in text_nodes(tree.root)]
    for element in tree.elements:
        for name, value in element.attrs.items():
            if name in SHOWN_ATTRIBUTES or _shown_value(element, name):
                texts.append(value)
    return texts


def _shown_value(element: Node, attr: str) -> bool:
    """A button's value is its text; a text field's value is what is typed (shown, but
    it is sent back as it is, so it is counted and not required to be isolated)."""
    return attr == "value" and element.tag == "input" and element.attrs.get(
        "type", "text") not in ("hidden", "radio", "checkbox")


def _button_value(element: Node, attr: str) -> bool:
    return attr == "value" and element.tag == "input" and element.attrs.get(
        "type") in ("submit", "button", "reset")


def count(texts: list[str], name: str) -> int:
    return sum(t.count(name) for t in texts)


def isolated_in_text(text: str, start: int, name: str) -> bool:
    """The name at ``text[start:]`` sits between an isolate initiator and its PDI."""
    before, after = text[:start], text[start + len(name):]
    return before.endswith((FSI, LRI, RLI)) and after.startswith(PDI)


def isolating_element(node: Node | None) -> Node | None:
    while node is not None and node.tag != "#root":
        if node.tag == "bdi" or "dir" in node.attrs:
            return node
        node = node.parent
    return None


def bidi_problems(tree: Tree, name: str) -> list[str]:
    """Where the right-to-left name is not isolated from the text that follows it."""
    problems = []
    for text, parent in text_nodes(tree.root):
        for match in re.finditer(re.escape(name), text):
            if isolated_in_text(text, match.start(), name):
                continue
            element = isolating_element(parent)
            if element is not None and element.text().strip() == name:
                continue
            problems.append(f"<{parent.tag}> {text.strip()[:80]!r}")
    for element in tree.elements:
        for attr, value in element.attrs.items():
            if attr not in SHOWN_ATTRIBUTES and not _button_value(element, attr):
                continue
            for match in re.finditer(re.escape(name), value):
                if isolated_in_text(value, match.start(), name):
                    continue
                problems.append(f"<{element.tag} {attr}={value[:80]!r}>")
    return problems


def escaping_problems(html: str, tree: Tree, name: str) -> list[str]:
    problems = []
    if name.startswith(("<", '"')) and name in html:
        problems.append(f"the raw name {name!r} is in the source")
    for element in tree.elements:
        if element.tag == "plaintext":
            problems.append("a <plaintext> element")
        if any(attr.startswith("on") for attr in element.attrs):
            problems.append(f"an event handler on <{element.tag}>")
    return problems


# --- the world ------------------------------------------------------------------------------


@dataclass
class World:
    league: int
    season: int
    player: int
    basic_game: int
    game: int
    client: FlaskClient


def build_world(app: Flask, name: str) -> World:
    """Everything a league shows, with ``name`` as the league's, a player's, a season's
    and the API's meld ids (a second league makes the home page name leagues)."""
    with app.test_request_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
        league = League(name=name, scorer_token_hash=access.token_hash(SCORER_TOKEN))
        mine = League(name="Another table")
        db.session.add_all([league, mine])
        db.session.commit()
        db.session.add(Season(league=league, name=name, starts_on=date(2020, 1, 1),
                              ends_on=date(2039, 12, 31)))
        names = [name, OTHER]
        basic = games.create_game(league, names, 0, make_rules("basic"))
        hands.record_hand(basic, entry_from_text(names, {
            name: {"melds": "ks kh kd kc\nqs qh qd"}, OTHER: {"hand": "10s 10h 10d 10c 9s 9h"
                                                              " 9d 9c jc jd js jh"}},
            name, None, False, True), 1)
        game = games.create_game(league, names, 1, make_rules("pagat-500"))
        hands.record_hand(game, entry_from_text(names, {
            name: {"melds": "7s 8s 9s", "hand": "kd"}, OTHER: {"melds": "4c 4s 4d",
                                                              "layoffs": f"10s {name} 1"}},
            OTHER, None, False, False), 1)
        db.session.add(SharedResult(game_id=game.id, league_id=league.id, token=SHARE_TOKEN))
        db.session.commit()
        ids = {"league": league.id, "season": db.session.scalar(
            db.select(Season.id).where(Season.league_id == league.id)),
            "player": next(s.player_id for s in game.seats if s.player.name == name),
            "basic": basic.id, "game": game.id, "mine": mine.id}
    client = app.test_client()
    with app.app_context(), client.session_transaction() as session:
        access.remember(session, db.session.get(League, ids["mine"]), access.OWNER)
        access.remember(session, db.session.get(League, ids["league"]), access.OWNER)
    # Hand 2 through the API, its melds with ids of that name.
    body = {"players": [
        {"name": name, "melds": [{"id": name, "cards": ["5h", "6h", "7h"]}],
         "layoffs": [{"card": "8h", "onto": name}], "hand": []},
        {"name": OTHER, "melds": [{"id": f"{name} 2", "cards": ["jc", "jd", "js"]}],
         "layoffs": [{"card": "jh", "onto": f"{name} 2"}], "hand": ["2c"]}],
        "went_out": name}
    answer = client.post(f"/api/v1/games/{ids['game']}/hands", json=body)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    # Hand 3 live: a meld each, and a lay-off.
    with app.test_request_context():
        live = hands.start_live(games.load_game(ids["game"]))
        hands.live_meld(live, name, parse_cards("9c 9d 9h"))
        hands.live_meld(live, OTHER, parse_cards("2s 3s 4s"))
        hands.live_layoff(live, name, parse_cards("5s")[0], f"{OTHER}-1")
    return World(ids["league"], ids["season"], ids["player"], ids["basic"], ids["game"],
                 client)


def urls(app: Flask, world: World, name: str) -> list[str]:
    """Every GET route of the URL map for this world, and a few query variants."""
    values = {"game_id": world.game, "number": 1, "player_id": world.player,
              "league_id": world.league, "token": SCORER_TOKEN, "family": "pagat-500",
              "season_id": world.season,
              "job_id": 1}  # (no job is this browser's: its page is the 404, names and all)
    found = []
    with app.test_request_context():
        for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
            if "GET" not in (rule.methods or ()) or rule.endpoint in SKIPPED_ENDPOINTS:
                continue
            if rule.arguments == {"slug"}:
                found += [url_for(rule.endpoint, slug=s) for s in
                          ("meld", "layoff", "draw", "rummy-call", "going-out")]
                continue
            missing = rule.arguments - values.keys()
            assert not missing, f"{rule.rule}: no test value for {missing}"
            found.append(url_for(rule.endpoint, **{k: values[k] for k in rule.arguments}))
        game = world.game
        found += [
            f"/games/{game}/hands/2", f"/games/{game}/hands/2/edit", f"/results/{SHARE_TOKEN}",
            f"/games/{world.basic_game}", f"/games/{world.basic_game}/hands/1",
            f"/league/?season={world.season}", "/league/?season=all",
            f"/league/history?player={world.player}", f"/league/history?season={world.season}",
            f"/league/players/{world.player}?season={world.season}",
            url_for("referee_pages.tool", slug="layoff", game=game),
            url_for("referee_pages.tool", slug="going-out", game=game),
            url_for("referee_pages.tool", slug="rummy-call", game=game),
            url_for("referee_pages.tool", slug="layoff", family="pagat-500",
                    table=f"{name} ({name}): 5h 6h 7h@{name}", card="8h", meld=name),
            url_for("referee_pages.tool", slug="layoff", family="pagat-500",
                    table=f"{name}: 5h 6h 7h", card="9c", meld=name),
            url_for("referee_pages.tool", slug="rummy-call", family="pagat-500",
                    table="", pile="2d kc", discarder=name, caller=f"{name} 2"),
        ]
    return found


def pages(app: Flask, world: World, name: str) -> Iterator[tuple[str, str]]:
    """(what, HTML) of every page: the GET routes, the forms that show a name back in
    an error, and a flashed message."""
    client = world.client
    for url in urls(app, world, name):
        response = client.get(url)
        assert response.status_code < 500, (url, response.status_code)
        if response.mimetype in ("text/html", "image/svg+xml"):
            yield url, response.get_data(as_text=True)
    posts: list[tuple[str, dict[str, Any]]] = [
        ("/leagues/new", {"name": name, "password": "a password 1", "confirm": "a password 1"}),
        ("/league/players", {"add-name": name}),
        ("/league/seasons", {"new-name": name, "new-starts_on": "2019-01-01",
                             "new-ends_on": "2021-01-01"}),
        (f"/games/{world.game}/hands/new", {
            "number": "4", "players-0-melds": "zz", "players-1-hand": "kd", "outcome": "p1"}),
        (f"/games/{world.game}/hands/live/layoff", {"player": name, "card": "qq",
                                                     "onto": f"{name}-1"}),
        (f"/league/players/{world.player}/edit", {"rename-name": OTHER}),
        (f"/leagues/{world.league}/name", {"name": "Another table"}),
        ("/games/new", {"players-0": name, "players-1": name}),
    ]
    for url, data in posts:
        response = client.post(url, data=data)
        assert response.status_code < 500, (url, response.status_code)
        yield f"POST {url}", response.get_data(as_text=True)
    for url, data in [(f"/league/players/{world.player}/retire", {"retired": "1"}),
                      (f"/leagues/{world.league}/leave", {})]:
        response = client.post(url, data=data, follow_redirects=True)
        assert response.status_code < 500, (url, response.status_code)
        yield f"POST {url} (then the flashed message)", response.get_data(as_text=True)


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Flask:
    return make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'names.sqlite3'}",
                    SQLALCHEMY_ENGINE_OPTIONS={}, PASSWORD_RATE_LIMIT="10000 per minute",
                    INVITE_RATE_LIMIT="10000 per minute", REFEREE_RATE_LIMIT="10000/minute")


@pytest.fixture
def control(app: Flask) -> dict[str, int]:
    """How often the plain name shows on each page."""
    world = build_world(app, PLAIN)
    return {what: count(shown_texts(parse(html)), PLAIN)
            for what, html in pages(app, world, PLAIN)}


@pytest.mark.parametrize("name", HOSTILE, ids=["plaintext", "img-onerror", "template", "rlo"])
def test_every_page_shows_a_hostile_name_as_text(app: Flask, control: dict[str, int],
                                                  name: str) -> None:
    world = build_world(app, name)
    failures: list[str] = []
    seen = 0
    for what, html in pages(app, world, name):
        seen += 1
        tree = parse(html)
        failures += [f"{what}: {p}" for p in escaping_problems(html, tree, name)]
        shown = count(shown_texts(tree), name)
        if what in control and shown != control[what]:
            failures.append(f"{what}: the name shows {shown} times, a plain name "
                            f"{control[what]} times")
        if RLO in name:
            failures += [f"{what}: not isolated: {p}" for p in bidi_problems(tree, name)]
    assert seen == len(control) and seen > 40
    assert sum(1 for n in control.values() if n) > 25  # most pages do show the names
    assert not failures, "\n".join(failures)
