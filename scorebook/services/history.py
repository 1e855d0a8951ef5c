"""A game's history: every change, when, and from which phone.

A phone is named the way a family recognises it: by its browser and system
("Chrome · Android", from the User-Agent) and by the player name it gave when it
joined the league (:func:`remember_player`), if it gave one.  The random id kept in
the session cookie is stored too (it tells two unnamed phones apart in an export),
but never shown.

Who writes is a :class:`Writer` (the request's User-Agent and session), which the web
layer makes for each request and sets as the writer of everything logged while it lasts
(:func:`writing_as`); with none set, as from the command line, an entry says so.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, MutableMapping, Sequence
from contextvars import ContextVar, Token
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert

from scorebook.extensions import db
from scorebook.models import Change, Game, utcnow

#: The longest player name a phone can give (as a player's name in a league).
PLAYER_NAME_LENGTH = 40

#: What a change did (the history page translates these).
RECORDED = "recorded"
EDITED = "edited"
DELETED = "deleted"
LIVE_STARTED = "live-started"
LIVE_MELD = "live-meld"
LIVE_LAYOFF = "live-layoff"
LIVE_UNDO = "live-undo"
LIVE_FINISHED = "live-finished"
LIVE_CANCELLED = "live-cancelled"
GAME_STARTED = "game-started"
GAME_ABANDONED = "game-abandoned"
GAME_REMATCH = "game-rematch"  # on the finished game: a new one plays it again
RESULT_SHARED = "result-shared"  # a link to the result made (scorebook.services.sharing)
SHARE_STOPPED = "share-stopped"  # the owner stopped that link
PLAYERS_MERGED = "players-merged"  # one of the game's players merged into another name
MERGE_UNDONE = "merge-undone"  # that merge undone: the game has its player back
PLAYED_STARTED = "played-started"  # a live hand logged turn by turn: its deal (the upcard)
PLAYED_MOVE = "played-move"  # a move of its log (scorebook.services.played)
PLAYED_UNDO = "played-undo"  # the last move of its log taken back
UNDONE = "undone"  # a step at the table undone (scorebook.services.undo): details["undid"]

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


def session_key(store: MutableMapping[str, Any]) -> str:
    """A random id for this browser session, kept in the signed session cookie (``store``)
    from its first write on."""
    key = store.get("device")
    if not isinstance(key, str) or not re.fullmatch(r"[0-9a-f]{8}", key):
        key = secrets.token_hex(4)
        store["device"] = key
    return key


def clean_player_name(name: str | None) -> str:
    """A player name as a phone gives it: spaces folded, control characters dropped,
    at most :data:`PLAYER_NAME_LENGTH` characters."""
    text = "".join(ch for ch in (name or "") if ch.isprintable())
    return " ".join(text.split())[:PLAYER_NAME_LENGTH]


def remember_player(store: Any, league_id: int, name: str | None) -> None:
    """This browser is ``name``'s phone in the league (an empty name forgets it)."""
    raw = store.get("players")
    names = dict(raw) if isinstance(raw, dict) else {}
    cleaned = clean_player_name(name)
    if cleaned:
        names[str(league_id)] = cleaned
    else:
        names.pop(str(league_id), None)
    store["players"] = names


def player_of(store: Mapping[str, Any], league_id: int) -> str:
    """The player name this browser (its session, ``store``) joined the league as (""
    when it gave none)."""
    raw = store.get("players")
    name = raw.get(str(league_id)) if isinstance(raw, dict) else None
    return clean_player_name(name) if isinstance(name, str) else ""


@dataclass(frozen=True)
class Writer:
    """Who writes: ``agent`` the browser's User-Agent header, ``store`` its session (the
    player names it joined leagues as; its random id, given on its first write)."""

    agent: str
    store: MutableMapping[str, Any]


#: The writer of the request being answered (:func:`writing_as`); None: no request.
_writer: ContextVar[Writer | None] = ContextVar("scorebook_history_writer", default=None)


def writing_as(writer: Writer | None) -> Token[Writer | None]:
    """Log what follows as ``writer``'s (the web layer, at the start of each request;
    None at its end)."""
    return _writer.set(writer)


def log(game: Game, action: str, summary: str = "", hand_number: int | None = None,
        details: Mapping[str, Any] | None = None, by: Writer | None = None) -> Change:
    """Add a history entry to the current transaction, written ``by`` a browser (else by
    the request's writer, :func:`writing_as`; with neither, from the command line)."""
    device, player, key = who(game.league_id, by)
    change = Change(game_id=game.id, hand_number=hand_number, action=action,
                    summary=summary[:2000], details=dict(details) if details else None,
                    device=device[:80], player=player, session_key=key)
    db.session.add(change)
    return change


def log_games(league_id: int, game_ids: Sequence[int], action: str, summary: str = "",
              details: Mapping[str, Any] | None = None, by: Writer | None = None) -> None:
    """The same history entry in each of ``game_ids`` (of ``league_id``), added to the
    current transaction in one statement (a change of a player touches every game of
    theirs: a merge, its undo)."""
    if not game_ids:
        return
    device, player, key = who(league_id, by)
    db.session.execute(insert(Change), [
        {"game_id": game_id, "hand_number": None, "action": action, "summary": summary[:2000],
         "details": dict(details) if details else None, "device": device, "player": player,
         "session_key": key, "at": utcnow()} for game_id in game_ids])


def who(league_id: int, by: Writer | None = None) -> tuple[str, str, str]:
    """The phone that writes, as an entry names it: its device, the player name it gave
    in the league, its session's random id (``by``, else the request's writer; with
    neither, the command line)."""
    writer = by if by is not None else _writer.get()
    if writer is None:
        return "command line", "", "cli"
    return (describe_agent(writer.agent)[:80], player_of(writer.store, league_id),
            session_key(writer.store))


def changes(game: Game, limit: int | None = None) -> list[Change]:
    query = db.select(Change).where(Change.game_id == game.id).order_by(Change.id.desc())
    if limit:
        query = query.limit(limit)
    return list(db.session.scalars(query))
