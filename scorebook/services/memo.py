"""Figures kept in this process until their league changes.

The statistics cache (:mod:`scorebook.services.stats.cache`) already saves counting the cards
again; this saves aggregating the cache again for a page nothing changed under.  A
figure is kept under its league's *version* — how many games the cache holds, the
sum of their revisions and the newest game id — which any change to a hand, a game's
result, a finished or deleted game or a player's name moves on (each bumps a game's
revision, and the cache row follows it), so a kept figure is never stale.  Each
worker process keeps its own (up to :data:`SIZE` figures, least recently used out).
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable, MutableMapping
from typing import Any, TypeVar

from flask import current_app
from sqlalchemy import func, select

from scorebook.extensions import db
from scorebook.models import GameStat

T = TypeVar("T")

SIZE = 256
_lock = threading.Lock()
_kept: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
#: Moved on whenever this process rebuilds cache rows (which a version made of
#: revisions alone would not see if a game were counted again unchanged).
_generation = 0


def bump() -> None:
    global _generation
    with _lock:
        _generation += 1


def _app_key() -> str:
    """This app's own key (two apps in one process, as in the tests, never share)."""
    return str(current_app.extensions.setdefault("scorebook_stats_memo", uuid.uuid4().hex))


def version(league_id: int) -> tuple[int, int, int]:
    """The league's statistics version: one indexed aggregate of its cache rows."""
    row = db.session.execute(
        select(func.count(), func.coalesce(func.sum(GameStat.revision), 0),
               func.coalesce(func.max(GameStat.game_id), 0))
        .where(GameStat.league_id == league_id)).one()
    return int(row[0]), int(row[1]), int(row[2])


#: The versions one request has read (:func:`remembered`'s ``seen``), by league and
#: generation: the cache's rows (:func:`version`), or the league's statistics stamp.
Seen = MutableMapping[tuple[int, int], tuple[int, int, int] | str]


def assume(seen: Seen, league_id: int, stamp: str) -> None:
    """Version the league's figures in this request by its statistics stamp
    (:mod:`scorebook.services.stats.fresh`: the cache was found complete under it, and
    any change to a finished game gives the league a new one) instead of reading
    :func:`version`."""
    seen[(league_id, _generation)] = stamp


def _version_now(league_id: int, seen: Seen | None) -> tuple[int, int, int] | str:
    """:func:`version`, read once per ``seen`` (a request: a page asks for several figures;
    nothing the request does between them changes the cache but a refresh, which moves
    the generation on) and generation; each time without one."""
    if seen is None:
        return version(league_id)
    key = (league_id, _generation)
    if key not in seen:
        seen[key] = version(league_id)
    return seen[key]


def remembered(league_id: int, key: Hashable, compute: Callable[[], T],
               seen: Seen | None = None) -> T:
    """``compute()``, or what it gave for the same ``key`` at this league version.  A
    page passes the ``seen`` of its request (empty at first), so that the version is read
    once for all its figures."""
    full = (_app_key(), _generation, league_id, _version_now(league_id, seen), key)
    with _lock:
        if full in _kept:
            _kept.move_to_end(full)
            return _kept[full]  # type: ignore[no-any-return]
    value = compute()
    with _lock:
        _kept[full] = value
        while len(_kept) > SIZE:
            _kept.popitem(last=False)
    return value


def forget() -> None:
    """Drop every kept figure (the tests, between databases)."""
    with _lock:
        _kept.clear()
