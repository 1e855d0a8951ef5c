"""An evening at a Spanish or Italian family's table, through the pages a phone opens:
a league made by the first game, hands recorded by typing the cards in the language's
own letters, a game played to its end, a live hand under way, a season, an invite, the
referee asked every question.  :func:`an_evening` returns the addresses of every page
the family saw (``tests/web/test_glossary.py`` reads each one in the language).

The cards are typed the family's way: :data:`CARDS` gives each hand's text in every
language's letters (``7p 8p 9p`` in Spanish and Italian, ``7s 8s 9s`` in English)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

from flask import Flask
from flask.testing import FlaskClient

from referee.cards import NOTATIONS, parse_card
from scorebook.extensions import db
from scorebook.models import League, Player, Season

NAMES = ("Ana", "Beppe", "Carla")


def typed(cards: str, language: str) -> str:
    """Canonical cards (``7S 8S``) as a family of ``language`` types them."""
    notation = NOTATIONS[language]
    return " ".join(notation.write(parse_card(t)).lower() for t in cards.split())


def _location(response: Any) -> str:
    if response.status_code not in (302, 303):
        page = response.get_data(as_text=True)
        problems = re.findall(r'<div class="problems".*?</div>', page, re.S)
        raise AssertionError((response.status_code, problems or page[-3000:]))
    return str(response.headers["Location"]).split("#")[0]


def _hand(language: str, melds: dict[int, list[str]], hands: dict[int, str],
          layoffs: dict[int, list[str]] | None = None, outcome: str = "p0") -> dict[str, Any]:
    """The record page's typed fields (no JavaScript) for one hand, each player short of
    the cards dealt ticked as nobody remembers the rest (RULES.md §10)."""
    data: dict[str, Any] = {"outcome": outcome, "notation": language,
                            "missing_ok": list(NAMES)}
    for seat, lines in melds.items():
        data[f"players-{seat}-melds"] = "\n".join(typed(line, language) for line in lines)
    for seat, lines in (layoffs or {}).items():
        data[f"players-{seat}-layoffs"] = "\n".join(
            typed(line.split()[0], language) + " " + " ".join(line.split()[1:])
            for line in lines)
    for seat, cards in hands.items():
        data[f"players-{seat}-hand"] = typed(cards, language)
    return data


def an_evening(app: Flask, client: FlaskClient, language: str) -> tuple[list[str], str]:
    """Play an evening in ``language`` (``?lang=`` on every request) and return every page
    address a family opens (each with ``lang=`` too), and the invite link another phone
    opens (for a browser not in the league yet)."""
    lang = f"lang={language}"

    def url(path: str) -> str:
        return path + ("&" if "?" in path else "?") + lang

    def post(path: str, data: dict[str, Any]) -> Any:
        return client.post(url(path), data=data)

    # the first game starts the family's league (to 100 points: two good hands end it)
    seats = {f"players-{i}": n for i, n in enumerate(NAMES)}
    game = _location(post("/games/new", {**seats, "family": "pagat-500", "first_dealer": "0",
                                         "min_natural_cards": "1", "target": "100"}))
    # hand 1 typed in the language's letters, with a lay-off and a joker
    response = post(f"{game}/hands/new", {"number": "1", **_hand(
        language, melds={0: ["7S 8S 9S", "4C 4S 4D"], 1: ["KH KD KC"]},
        layoffs={0: ["6S 1", f"KS {NAMES[1]} 1"]}, hands={1: "5H", 2: "JC 8H JK"})})
    _location(response)
    # hand 2 ends the game: Ana melds 67 more
    _location(post(f"{game}/hands/new", {"number": "2", **_hand(
        language, melds={0: ["QS QH QD", "8D 9D 10D JD"], 1: ["2C 3C 4C"]},
        hands={1: "5S", 2: "AH AD"})}))
    # a second game, with a live hand under way (one meld down)
    second = _location(post("/games/new", {**seats, "family": "rummy-500", "first_dealer": "1",
                                           "min_natural_cards": "1"}))
    _location(post(f"{second}/hands/live/start", {}))
    _location(post(f"{second}/hands/live/meld", {
        "meld-player": "p0", "meld-cards": typed("5D 6D 7D", language),
        "notation": language}))
    # a third game, of Basic Rummy, with a points-only hand
    third = _location(post("/games/new", {**seats, "family": "basic", "first_dealer": "2"}))
    _location(post(f"{third}/hands/new", {"number": "1", "points_only": "1", "outcome": "p1",
                                          "players-0-points": "0", "players-1-points": "25",
                                          "players-2-points": "0"}))
    with app.app_context():
        league = db.session.scalar(db.select(League).order_by(League.id.desc()))
        assert league is not None
        league_id = league.id
        player = db.session.scalar(db.select(Player).where(Player.league_id == league_id))
        assert player is not None
        player_id = player.id
    # the season the finished game counts in (its year's, made by the league), and an
    # invite link to share
    client.get(url("/league/seasons"))
    with app.app_context():
        season = db.session.scalar(db.select(Season).where(Season.league_id == league_id))
        season_id = season.id if season is not None else None
    invite = _location(post(f"/leagues/{league_id}/phones/scorer",
                            {"next": f"/leagues/{league_id}/settings"}))
    settings = client.get(url(invite)).get_data(as_text=True)
    join = re.search(r'/join/[A-Za-z0-9_-]{16,}', settings)
    questions = {
        "meld": {"cards": "7S 8S 9S"},
        "layoff": {"table": "A (Ana): 5H 6H 7H\nB (Beppe): 9C 9S 9D", "card": "9H"},
        "draw": {"pile": "6C 4S 7D 4H QS AH", "hand": "2S 4D 5H 8C JD KS KH", "take": "5"},
        "rummy-call": {"table": "A: 7H 8H 9H", "pile": "KC QD 10H", "discarder": "Ana",
                       "caller": "Beppe"},
        "going-out": {"table": "A: 5H 6H 7H", "hand": "8H 4H 4D", "discard": "4D"},
    }
    pages = ["/", "/games/new", game, f"{game}/history", f"{game}/hands/1",
             f"{game}/hands/1/edit", f"{game}/hands/1/edit?points=1", f"{game}/rematch",
             f"{game}/phones", f"{second}", f"{second}/hands/live", f"{third}",
             f"{third}/hands/new", f"{third}/hands/new?points=1", f"{third}/hands/1",
             "/league/", "/league/players", f"/league/players/{player_id}",
             f"/league/players/{player_id}/edit", "/league/seasons", "/league/history",
             "/league/export", "/league/records", "/league/head-to-head", "/league/phones",
             "/leagues", f"/leagues/{league_id}/settings", "/leagues/login", "/leagues/new",
             "/referee/", f"/referee/?game={second[len('/games/'):]}", "/rules/",
             "/rules/pagat-500", "/rules/rummy-500", "/rules/basic", "/offline",
             "/no/such/page"]
    pages += [f"/referee/{slug}" for slug in questions]
    pages += [f"/referee/{slug}?" + urlencode(q) for slug, q in questions.items()]
    if season_id is not None:
        pages.append(f"/league/seasons/{season_id}/recap")
        pages.append(f"/league/?season={season_id}")
    assert join, "no invite link on the settings page"
    return [url(p) for p in pages], url(join.group(0))
