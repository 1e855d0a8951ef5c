"""The rendered scoreboards a worker keeps: bounded by bytes, one version per game.

Rendering a long game's board (the table of every hand, the chart, the latest
changes) is the costly part of its page, and phones watching a table ask for it
again after every change. So each worker keeps the boards it rendered, keyed by the
game and what else changes the markup (language, whether this browser may write,
the names, the site's address), each with the game's version
(:func:`scorebook.services.live.game_version`) it was rendered from:

- **never stale:** a board is only served for the very version it was rendered from;
  asking with another version is a miss, and when that version is newer, the kept
  boards of that game are dropped at once (when a game changes, all its old boards
  go); a board rendered from an older version than those kept is not kept;
- **bounded by bytes:** the boards' sizes (UTF-8) add up to at most
  ``BOARD_CACHE_BYTES`` (4 MB by default, a few hundred long boards); past it the
  least recently used go first. A board larger than a quarter of the bound is not
  kept at all.

Besides boards (markup), it keeps the live board's whole answer, compressed (bytes:
``GET /games/<id>/board``), under the same rules. The cache is per worker process
and thread-safe (gunicorn's threaded workers).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from markupsafe import Markup

DEFAULT_BYTES = 4 * 1024 * 1024


def _order(version: str) -> tuple[int, ...] | None:
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        return None


def newer(version: str, than: str) -> bool:
    """True if ``version`` comes after ``than``: each of its parts (the revision, the
    number and the latest id of the history entries) only ever grows. Versions that
    cannot be compared count as newer (the kept boards are dropped)."""
    a, b = _order(version), _order(than)
    return a is None or b is None or (a != b and all(x >= y for x, y in zip(a, b, strict=False)))


class BoardCache:
    def __init__(self, max_bytes: int = DEFAULT_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._lock = threading.Lock()
        #: (game, variant) -> (version, html, size), least recently used first.
        self._boards: OrderedDict[tuple[int, Hashable], tuple[str, Any, int]] = \
            OrderedDict()
        #: game -> the version its kept boards are of, and which variants are kept.
        self._games: dict[int, tuple[str, set[Hashable]]] = {}
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._boards)

    def get(self, game: int, version: str, variant: Hashable) -> Markup | bytes | Any:
        with self._lock:
            kept = self._boards.get((game, variant))
            if kept is not None and kept[0] == version:
                self._boards.move_to_end((game, variant))
                self.hits += 1
                return kept[1]
            self.misses += 1
            held = self._games.get(game)
            if held is not None and newer(version, held[0]):
                self._drop_game(game)  # the game changed: its kept boards are history
            return None

    def put(self, game: int, version: str, variant: Hashable, html: Markup | bytes | Any,
            size: int | None = None) -> None:
        """Keep ``html`` (markup, bytes, or any other value whose ``size`` is given)."""
        if size is None:
            size = len(html) if isinstance(html, bytes) else len(html.encode("utf-8"))
        with self._lock:
            held = self._games.get(game)
            if held is not None and held[0] != version:
                if not newer(version, held[0]):
                    return  # rendered from a version read before a change: not kept
                self._drop_game(game)  # boards of an older version: never served again
            self._remove((game, variant))
            if size > self.max_bytes // 4:
                return
            self._boards[(game, variant)] = (version, html, size)
            self._games.setdefault(game, (version, set()))[1].add(variant)
            self.bytes += size
            while self.bytes > self.max_bytes and self._boards:
                self._remove(next(iter(self._boards)))

    def versions(self) -> dict[int, str]:
        """Which version each game's kept boards are of (for tests and benchmarks)."""
        with self._lock:
            return {game: held[0] for game, held in self._games.items()}

    def _remove(self, key: tuple[int, Hashable]) -> None:
        kept = self._boards.pop(key, None)
        if kept is None:
            return
        self.bytes -= kept[2]
        held = self._games.get(key[0])
        if held is not None:
            held[1].discard(key[1])
            if not held[1]:
                del self._games[key[0]]

    def _drop_game(self, game: int) -> None:
        held = self._games.pop(game, None)
        for variant in held[1] if held else ():
            kept = self._boards.pop((game, variant), None)
            if kept is not None:
                self.bytes -= kept[2]


def cached_board(cache: BoardCache, game: int, version: str | None, variant: Hashable,
                 render: Callable[[], Markup]) -> Markup:
    """The board for ``version``: kept, or rendered and kept (None: rendered, not kept)."""
    if version is None:
        return render()
    html = cache.get(game, version, variant)
    if not isinstance(html, Markup):
        html = render()
        cache.put(game, version, variant, html)
    return html


def cache_of(app: Any) -> BoardCache:
    """The Flask ``app``'s kept boards and pages, made on first use with
    ``BOARD_CACHE_BYTES`` (also outside a request: :mod:`scorebook.web.pages`)."""
    cache = app.extensions.get("scorebook_boards")
    if cache is None:
        cache = app.extensions.setdefault("scorebook_boards", BoardCache(
            int(app.config.get("BOARD_CACHE_BYTES", DEFAULT_BYTES))))
    return cache  # type: ignore[no-any-return]
