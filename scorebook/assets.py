"""Static files for phones on slow networks: versioned URLs, long-lived caching, and
one stylesheet.

- **Versioned URLs.** ``url_for('static', filename=...)`` adds ``?v=<version>``, the
  first 12 hex digits of the SHA-256 of the file's bytes (:func:`add_version`, an URL
  default: every template, the manifest and the service worker get it without asking).
  A changed file is a new URL, so a browser can keep each URL for good.
- **Caching.** A static answer whose ``v`` is the file's version is cached for a year,
  ``immutable`` (no revalidation, even on reload); one without ``v``, or with a ``v``
  that is not the file's version (an old page asking for an old file: it gets today's
  bytes), gets ``no-cache`` as before: it is checked with the server every time
  (:func:`cache_headers`). The manifest and ``/sw.js`` are not static files and stay
  ``no-cache`` (scorebook/web/install/views.py).
- **One stylesheet.** ``css/site.css`` (:data:`BUNDLE`) is every stylesheet of
  ``static/css/`` in the order of :data:`STYLESHEETS` (any other file after them, by
  name), joined when the app starts: each page links that one file instead of three or
  four that each block its first paint. The files in ``static/css/`` stay the ones to
  edit; with ``make dev`` (debug) a change shows on the next load.

:func:`snapshot` is what the app knows of its static files: every name and version,
the bundle, and one digest of them all (the service worker's version).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, has_request_context, request

#: The bundled stylesheet's name, as if it were a file of the static folder.
BUNDLE = "css/site.css"

#: The stylesheets, in the order the bundle holds them: the layout and the shared
#: components first, then each part of the site's own. Where two rules of the same
#: weight meet, the later file wins, as it did when the pages linked them one by one.
STYLESHEETS = (
    "css/app.css",
    "css/scorebook.css",
    "css/referee.css",
    "css/picker.css",
    "css/league.css",
    "css/access.css",
    "css/phones.css",
    "css/stats.css",
)

#: ``Cache-Control`` of a versioned static file, and of everything else static.
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"

#: The endpoints that serve static files (Flask's own, and the bundle).
STATIC_ENDPOINTS = frozenset({"static", "assets.stylesheet"})

bp = Blueprint("assets", __name__)


@dataclass(frozen=True)
class Snapshot:
    """The static files as the app serves them now."""

    versions: dict[str, str]  # file name (relative, with /) -> version
    bundle: bytes             # css/site.css
    digest: str               # of every file and the bundle

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self.versions))


def version_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()
                  and not any(part.startswith(".") for part in p.relative_to(folder).parts))


def bundle_order(names: list[str]) -> list[str]:
    """The stylesheets of ``names`` in the bundle's order."""
    sheets = [n for n in names if n.startswith("css/") and n.endswith(".css")]
    known = [n for n in STYLESHEETS if n in sheets]
    return known + sorted(n for n in sheets if n not in STYLESHEETS)


def build_bundle(folder: Path, names: list[str]) -> bytes:
    """Every stylesheet, each under a comment that names its file."""
    parts = [b"/* Rummy Scorebook: every stylesheet of static/css/ in one file, joined when\n"
             b"   the app starts (scorebook/assets.py). Edit the files it names, not this. */\n"]
    for name in bundle_order(names):
        text = (folder / name).read_bytes().strip()
        parts.append(f"\n/* ---- {name} ---- */\n".encode() + text + b"\n")
    return b"".join(parts)


def build_snapshot(folder: Path) -> Snapshot:
    files = _files(folder)
    names = [p.relative_to(folder).as_posix() for p in files]
    if BUNDLE in names:
        raise RuntimeError(f"static/{BUNDLE} is the bundled stylesheet's name: rename the file")
    versions = {name: version_of(path.read_bytes()) for name, path in zip(names, files)}
    bundle = build_bundle(folder, names)
    versions[BUNDLE] = version_of(bundle)
    digest = hashlib.sha256()
    for name in sorted(versions):
        digest.update(f"{name}\0{versions[name]}\n".encode())
    return Snapshot(versions=versions, bundle=bundle, digest=digest.hexdigest()[:16])


@lru_cache(maxsize=8)
def _snapshot_at(folder: str, signature: tuple[tuple[str, int, int], ...]) -> Snapshot:
    return build_snapshot(Path(folder))


def _signature(folder: Path) -> tuple[tuple[str, int, int], ...]:
    signature = []
    for path in _files(folder):
        stat = path.stat()
        signature.append((path.as_posix(), stat.st_mtime_ns, stat.st_size))
    return tuple(signature)


def snapshot(app: Flask | None = None) -> Snapshot:
    """The static files now: built once when the app starts; in debug (``make dev``)
    built again whenever a file changed."""
    app = app or current_app
    folder = Path(str(app.static_folder))
    if app.debug:
        # one look at the files per request (a page builds a dozen static URLs)
        if has_request_context() and "scorebook_assets" in g:
            return g.scorebook_assets  # type: ignore[no-any-return]
        snap = _snapshot_at(str(folder), _signature(folder))
        if has_request_context():
            g.scorebook_assets = snap
        return snap
    snap: Snapshot | None = app.extensions.get("scorebook.assets")
    if snap is None:
        snap = app.extensions["scorebook.assets"] = build_snapshot(folder)
    return snap


def add_version(endpoint: str, values: dict[str, Any]) -> None:
    """URL default: ``url_for('static', filename=f)`` is ``/static/f?v=<version of f>``."""
    if endpoint != "static" or "v" in values:
        return
    version = snapshot().versions.get(str(values.get("filename", "")))
    if version:
        values["v"] = version


def _requested_name() -> str:
    if request.endpoint == "assets.stylesheet":
        return BUNDLE
    return str((request.view_args or {}).get("filename", ""))


def cache_headers(response: Response) -> Response:
    """A year, immutable, for a static file asked for by its current version; a check
    with the server every time for anything else static."""
    if request.endpoint not in STATIC_ENDPOINTS or response.status_code not in (200, 304):
        return response
    version = snapshot().versions.get(_requested_name())
    asked = request.args.get("v")
    response.headers["Cache-Control"] = (
        IMMUTABLE if version is not None and asked == version else REVALIDATE)
    return response


@bp.get("/static/" + BUNDLE)
def stylesheet() -> Response:
    """The one stylesheet (Werkzeug matches this rule before ``/static/<path>``)."""
    snap = snapshot()
    response = current_app.response_class(snap.bundle, mimetype="text/css")
    response.set_etag(snap.versions[BUNDLE])
    return response.make_conditional(request)


def init_app(app: Flask) -> None:
    if not app.debug:
        snapshot(app)  # read and join the files now, not in the first request
    app.register_blueprint(bp)
    app.url_defaults(add_version)
    app.after_request(cache_headers)
