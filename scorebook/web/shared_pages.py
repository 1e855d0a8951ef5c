"""Kept pages shared by the workers of one machine: a page rendered once per change.

Each worker keeps the pages it rendered (:class:`scorebook.web.boards.BoardCache`), so
after a change every worker paid Flask's rendering of the same board again on its first
view: with 4 workers, 4 renders of one change. This store, a folder of files, lets the
first worker that renders a page of a version leave it for the others: a worker that
misses in its own memory reads the file, keeps the page and serves it, as
:class:`scorebook.web.pages.PageMiddleware` serves its own.

What keeps it right:

- **never stale:** a file holds the version it was rendered from, and is served for
  that version only (a newer render replaces it: written beside, then renamed, so a
  reader sees the whole of one file or of the other, never a half);
- **never another record's page:** a file is named by the page's whole key (the game or
  league, the language, the role, the names, the site's address…) hashed together with
  the database's address and the code that rendered it (the templates, the static
  files, the translations and the Python of :mod:`scorebook`, by their sizes and times):
  two databases, or two versions of the site (a rolling upgrade), never read each
  other's pages. A worker empties the folder when it starts, as its memory starts
  empty (a database restored from a backup may reuse versions);
- **rendered once, even when the phones come at once:** the first worker to miss a page
  claims it (a ``.rendering`` file beside it, made only if none is there) and renders;
  a worker that misses while the page is claimed waits for it (a few milliseconds'
  sleeps, at most ``PATIENCE`` seconds, no CPU spent) and serves it, or renders it
  itself when it did not come (a claim older than ``STALE`` seconds is a dead worker's,
  and is taken over);
- **bounded:** at most ``KEPT_PAGES_SHARED_BYTES`` on disk (64 MB by default); past it
  the oldest files go.

``KEPT_PAGES_SHARED``: the folder (default ``instance/kept-pages``; ``off`` turns the
sharing off, and each worker renders for itself as before). The test app leaves it off
unless a test sets it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_BYTES = 64 * 1024 * 1024
MAGIC = b"SBKEPT1\n"
#: The folders whose files make the code's mark (below the project's root).
CODE_FOLDERS = ("templates", "static", "scorebook", "translations")
#: Saves between two looks at the folder's size.
PRUNE_EVERY = 100
#: How long a worker waits for a page another worker is rendering before it renders the
#: page itself, and how often it looks (seconds).
PATIENCE = 1.0
LOOK_EVERY = 0.004
#: A claim older than this (seconds) is taken over: its worker died while rendering.
STALE = 10.0


def code_mark(root: Path) -> str:
    """A digest of the files that render a page (their paths, sizes and times)."""
    digest = hashlib.blake2b(digest_size=16)
    for folder in CODE_FOLDERS:
        for dirpath, dirnames, filenames in os.walk(root / folder):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith((".pyc", ".po")):
                    continue
                path = os.path.join(dirpath, name)
                try:
                    stat = os.stat(path)
                except OSError:
                    continue
                digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode(
                    "utf-8", "surrogateescape"))
    return digest.hexdigest()


class SharedPages:
    """The folder of pages; see the module's docstring. ``restore`` and ``parts`` are
    how a page is made from a file and what of a page is written (given by
    :mod:`scorebook.web.pages`, which knows its kept pages)."""

    def __init__(self, folder: Path, salt: str, max_bytes: int = DEFAULT_BYTES) -> None:
        self.folder = folder
        self.salt = salt
        self.max_bytes = max_bytes
        self.saves = 0
        self.loads = 0  #: pages read from the folder (for tests and benchmarks)
        self.waits = 0  #: times a page being rendered by another worker was waited for
        self._lock = threading.Lock()
        self.clear()  # (the folder is made by the first page saved)

    def clear(self) -> None:
        for pattern in ("*.page", "*.rendering"):
            for path in self.folder.glob(pattern):
                path.unlink(missing_ok=True)

    def path(self, key: int, variant: Any) -> Path:
        name = hashlib.blake2b(repr((self.salt, key, variant)).encode(
            "utf-8", "surrogateescape"), digest_size=20).hexdigest()
        return self.folder / f"{name}.page"

    def claim(self, key: int, variant: Any) -> bool:
        """Whether this worker is now the one rendering the page (False: another is)."""
        path = self.path(key, variant).with_suffix(".rendering")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return True  # no folder: render, as without sharing
        for _ in range(2):
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                return True
            except FileExistsError:
                try:
                    if time.time() - path.stat().st_mtime < STALE:
                        return False
                except OSError:
                    continue  # released meanwhile: claim it again
                path.unlink(missing_ok=True)  # a dead worker's claim
            except OSError:
                return True  # the folder cannot take a claim: render, as without sharing
        return True

    def release(self, key: int, variant: Any) -> None:
        self.path(key, variant).with_suffix(".rendering").unlink(missing_ok=True)

    def wait(self, key: int, version: str, variant: Any
             ) -> tuple[list[bytes], list[bytes], list[tuple[str, str]]] | None:
        """The page another worker is rendering, once it is written (None: it did not
        come within :data:`PATIENCE` seconds, or it is of another version)."""
        claim = self.path(key, variant).with_suffix(".rendering")
        until = time.monotonic() + PATIENCE
        while claim.exists() and time.monotonic() < until:
            time.sleep(LOOK_EVERY)
        self.waits += 1
        return self.load(key, version, variant)

    def load(self, key: int, version: str, variant: Any
             ) -> tuple[list[bytes], list[bytes], list[tuple[str, str]]] | None:
        """The page's parts, compressed parts and headers, if the folder holds the page of
        exactly this version; else None."""
        try:
            data = self.path(key, variant).read_bytes()
        except OSError:
            return None
        try:
            if not data.startswith(MAGIC):
                return None
            end = data.index(b"\n", len(MAGIC))
            head = json.loads(data[len(MAGIC):end])
            if head["version"] != version:
                return None
            at = end + 1
            pieces = []
            for size in head["sizes"]:
                pieces.append(data[at:at + size])
                at += size
            if at != len(data):
                return None  # not the whole file: never served
            count = len(head["sizes"]) // 2
            headers = [(str(k), str(v)) for k, v in head["headers"]]
        except (ValueError, KeyError, TypeError):
            log.warning("a shared kept page could not be read; it is rendered again",
                        exc_info=True)
            return None
        self.loads += 1
        return pieces[:count], pieces[count:], headers

    def save(self, key: int, version: str, variant: Any, parts: list[bytes],
             gzipped: list[bytes], headers: list[tuple[str, str]]) -> None:
        head = json.dumps({"version": version, "headers": headers,
                           "sizes": [len(p) for p in (*parts, *gzipped)]}).encode("utf-8")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(MAGIC + head + b"\n")
                    for piece in (*parts, *gzipped):
                        out.write(piece)
                os.replace(tmp, self.path(key, variant))
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            log.warning("a kept page could not be shared with the other workers",
                        exc_info=True)
            return
        with self._lock:
            self.saves += 1
            due = self.saves % PRUNE_EVERY == 0
        if due:
            self.prune()

    def prune(self) -> None:
        """The oldest files out, down to three quarters of the bound, once past it."""
        files = []
        total = 0
        for path in self.folder.glob("*.page"):
            try:
                stat = path.stat()
            except OSError:
                continue
            files.append((stat.st_mtime_ns, stat.st_size, path))
            total += stat.st_size
        if total <= self.max_bytes:
            return
        for _when, size, path in sorted(files):
            path.unlink(missing_ok=True)
            total -= size
            if total <= self.max_bytes * 3 // 4:
                break


def shared_of(app: Any) -> SharedPages | None:
    """The app's shared pages, made on first use (None: the sharing is off)."""
    store = app.extensions.get("scorebook_shared_pages", False)
    if store is not False:
        return store  # type: ignore[no-any-return]
    setting = app.config.get("KEPT_PAGES_SHARED")
    if setting is None:
        setting = "off" if app.testing else os.path.join(app.instance_path, "kept-pages")
    store = None
    if str(setting).strip().lower() not in {"", "off", "0", "false", "no"}:
        root = Path(app.root_path)
        salt = hashlib.blake2b(
            f"{app.config.get('SQLALCHEMY_DATABASE_URI')}\0{code_mark(root)}".encode(),
            digest_size=16).hexdigest()
        try:
            store = SharedPages(Path(setting), salt, int(app.config.get(
                "KEPT_PAGES_SHARED_BYTES", DEFAULT_BYTES)))
        except OSError:
            log.warning("the kept pages' folder %s cannot be used; each worker renders"
                        " its own", setting, exc_info=True)
    return app.extensions.setdefault("scorebook_shared_pages", store)  # type: ignore[no-any-return]
