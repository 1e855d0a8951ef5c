"""The games, league and access services say what went wrong as data: every sentence id
they (and the pages raising their errors) use has a wording, the wordings read right in
English and Italian, and no service reads Flask's request globals."""

from __future__ import annotations

import ast
import re
from datetime import date
from pathlib import Path

import pytest
from flask import Flask

from referee import make_rules
from scorebook.extensions import db
from scorebook.presenters.bidi import plain
from scorebook.presenters.sentences import catalogue, say
from scorebook.services import access, games, league
from scorebook.services.access import Browser

ROOT = Path(__file__).resolve().parents[2]
#: The modules that raise these services' errors, with the sentences they carry.
RAISERS = ("scorebook/services/games.py", "scorebook/services/league.py",
           "scorebook/services/access.py", "scorebook/web/games/views.py",
           "scorebook/web/membership.py")
#: Flask's globals of the request being answered: a service is handed what it needs.
REQUEST_GLOBALS = {"request", "session", "g", "has_request_context", "request_ctx",
                   "copy_current_request_context"}


def raised_ids() -> set[str]:
    found: set[str] = set()
    for name in RAISERS:
        text = (ROOT / name).read_text(encoding="utf-8")
        found |= set(re.findall(r"\bsentence\(\s*\"([a-z0-9.-]+)\"", text))
    return found


def test_every_sentence_these_services_raise_has_a_wording() -> None:
    ids = raised_ids()
    # (the scan finds them: a service that stopped saying anything would be a surprise)
    assert {"games.player-count", "league.season-overlap", "access.owner-only"} <= ids
    assert ids - catalogue() == set()
    assert all(i.split(".")[0] in ("games", "league", "access") for i in ids)


def said(app: Flask, lang: str, error: Exception) -> str:
    with app.test_request_context(f"/?lang={lang}"):
        return plain(say(error.sentence))  # type: ignore[attr-defined]


def test_the_errors_read_right_in_english_and_italian(app: Flask) -> None:
    with app.app_context():
        the = games.default_league()
        with pytest.raises(games.GameSetupError) as count:
            games.create_game(the, ["A", "B", "C", "D", "E"], 0, make_rules("basic"))
        assert count.value.code == "games.player-count" and count.value.field == "players"
        assert count.value.sentence.params == {"family": "basic", "low": 2, "high": 4,
                                               "count": 5}
        league.add_player(the, "Eve")
        with pytest.raises(league.LeagueError) as taken:
            league.add_player(the, "eve")
        league.save_season(the, "Winter", date(2025, 12, 1), date(2026, 2, 28))
        with pytest.raises(league.LeagueError) as overlap:
            league.save_season(the, "New year", date(2026, 1, 1), date(2026, 1, 31))
        assert overlap.value.sentence.params["start"] == date(2025, 12, 1)
        the.viewer_token_hash = access.token_hash(access.new_token())
        db.session.commit()
        store: dict[str, object] = {}
        access.remember(store, the, access.VIEWER)
        with pytest.raises(access.AccessError) as viewer:
            access.check_role(Browser(store), the, access.SCORER)
        with pytest.raises(access.AccessError) as stranger:
            access.check_role(Browser({}), the, access.VIEWER)

    assert said(app, "en", count.value) == "Basic Rummy is played by 2 to 4 players, not 5."
    assert said(app, "it", count.value) == (
        "Ramino classico: si gioca da 2 a 4 giocatori, non 5.")
    assert said(app, "en", taken.value) == "Eve is already in the league."
    assert said(app, "it", taken.value) == "Eve è già nel campionato."
    assert said(app, "en", overlap.value) == (
        "Those dates overlap the season Winter (Dec 1, 2025 to Feb 28, 2026).")
    assert said(app, "it", overlap.value).startswith(
        "Queste date si sovrappongono alla stagione Winter (dal 1 dic 2025 al ")
    assert (viewer.value.status, viewer.value.code) == (403, "access.viewer-cannot-change")
    assert said(app, "it", viewer.value).startswith(
        "Il tuo link ti permette di seguire questo campionato")
    # a stranger is told nothing: the page is a 404, as for a league that is not there
    assert (stranger.value.status, stranger.value.sentence) == (404, None)


def test_a_new_private_league_is_named_in_its_makers_language(app: Flask) -> None:
    with app.test_request_context("/?lang=it"):
        from scorebook.web import membership

        assert re.fullmatch(r"Tavolo di famiglia [0-9A-F]{4}",
                            membership.new_private_league().name)


def test_no_service_reads_flasks_request_globals() -> None:
    """The web layer hands the services the session's memberships (access.Browser), the
    writer of a change (history.Writer), the request's address (invites.external_url)..."""
    offenders = []
    for path in sorted((ROOT / "scorebook" / "services").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("flask") \
                    and not (node.module or "").startswith("flask_"):
                offenders += [f"{path.name}: {a.name}" for a in node.names
                              if a.name in REQUEST_GLOBALS]
            elif isinstance(node, ast.Attribute) and node.attr in REQUEST_GLOBALS \
                    and isinstance(node.value, ast.Name) and node.value.id == "flask":
                offenders.append(f"{path.name}: flask.{node.attr}")
    assert offenders == []
