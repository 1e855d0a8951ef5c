"""A game's history: every change, when, and from which device and session."""

from __future__ import annotations

import re
import secrets

from flask import has_request_context, request, session

from scorebook.extensions import db
from scorebook.models import Change, Game

#: What a change did (the history page translates these).
RECORDED = "recorded"
EDITED = "edited"
DELETED = "deleted"
LIVE_STARTED = "live-started"
LIVE_MELD = "live-meld"
LIVE_LAYOFF = "live-layoff"
LIVE_UNDO = "live-undo"
LIVE_FINISHED = "live-finished"
GAME_STARTED = "game-started"
GAME_ABANDONED = "game-abandoned"
GAME_REMATCH = "game-rematch"  # on the finished game: a new one plays it again

_BROWSERS = (("Edg", "Edge"), ("Firefox", "Firefox"), ("Chrome", "Chrome"),
             ("Chromium", "Chromium"), ("Safari", "Safari"))
_SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"),
            ("Windows", "Windows"), ("Mac OS", "Mac"), ("Linux", "Linux"))


def describe_agent(agent: str) -> str:
    """A short, recognisable device description from a User-Agent header."""
    if not agent:
        return ""
    browser = next((name for key, name in _BROWSERS if key in agent), "")
    system = next((name for key, name in _SYSTEMS if key in agent), "")
    if browser and system:
        return f"{browser} · {system}"
    return browser or system or re.sub(r"\s+", " ", agent)[:40]


def session_key() -> str:
    """A random id for this browser session, kept in the signed session cookie."""
    if not has_request_context():
        return "cli"
    key = session.get("device")
    if not isinstance(key, str) or not re.fullmatch(r"[0-9a-f]{8}", key):
        key = secrets.token_hex(4)
        session["device"] = key
    return key


def log(game: Game, action: str, summary: str = "", hand_number: int | None = None) -> Change:
    """Add a history entry to the current transaction."""
    device = describe_agent(request.headers.get("User-Agent", "")) if has_request_context() \
        else "command line"
    change = Change(game_id=game.id, hand_number=hand_number, action=action,
                    summary=summary[:2000], device=device[:80], session_key=session_key())
    db.session.add(change)
    return change


def changes(game: Game, limit: int | None = None) -> list[Change]:
    query = db.select(Change).where(Change.game_id == game.id).order_by(Change.id.desc())
    if limit:
        query = query.limit(limit)
    return list(db.session.scalars(query))
