"""The site as an app on the phone: the web app manifest, the service worker, the
favicon and the page a phone shows when it is offline and has no copy of a page.

- ``/manifest.webmanifest`` names the app in the page's language (the pages link it
  with ``?lang=``), with its icons (SVG and PNG, 192 and 512 px, plain and maskable).
- ``/sw.js`` is ``static/js/service-worker.js`` (plain JavaScript, no build step),
  served from the site's root so that it looks after every page, after one line that
  tells it this version's files: :func:`service_worker_config`.  A change to any
  static file changes the version, so the phones fetch the new files.
- ``/offline`` is the page the service worker keeps for when a page was never seen.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    render_template,
    send_from_directory,
    url_for,
)
from flask_babel import get_locale, gettext

from referee.rules import FAMILIES

bp = Blueprint("install", __name__)

THEME_COLOR = "#1a1a1a"      # the site's header
BACKGROUND_COLOR = "#ffffff"  # the page behind it
SERVICE_WORKER = "js/service-worker.js"


def _icon(filename: str, size: str, kind: str, purpose: str) -> dict[str, str]:
    return {"src": url_for("static", filename=f"icons/{filename}"), "sizes": size,
            "type": kind, "purpose": purpose}


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    root = url_for("main.home")
    body = {
        "id": root,
        "name": gettext("Rummy Scorebook"),
        "short_name": gettext("Scorebook"),
        "description": gettext("Card-by-card scores, a referee and a league for your table."),
        "lang": str(get_locale()),
        "dir": "ltr",
        "start_url": root,
        "scope": root,
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games", "utilities"],
        "icons": [
            _icon("icon.svg", "any", "image/svg+xml", "any"),
            _icon("icon-maskable.svg", "any", "image/svg+xml", "maskable"),
            _icon("icon-192.png", "192x192", "image/png", "any"),
            _icon("icon-512.png", "512x512", "image/png", "any"),
            _icon("icon-maskable-192.png", "192x192", "image/png", "maskable"),
            _icon("icon-maskable-512.png", "512x512", "image/png", "maskable"),
        ],
    }
    response = current_app.response_class(
        json.dumps(body, ensure_ascii=False, indent=1), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@lru_cache(maxsize=8)
def _static_files(folder: str) -> tuple[tuple[str, ...], str]:
    """Every static file (relative names) and a digest of their contents."""
    root = Path(folder)
    digest = hashlib.sha256()
    names = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        name = path.relative_to(root).as_posix()
        if name.startswith(".") or "/." in name:
            continue
        names.append(name)
        digest.update(name.encode() + b"\0" + path.read_bytes())
    return tuple(names), digest.hexdigest()[:16]


#: The icons the pages themselves show (the others are the manifest's: the phone fetches
#: those once, when the app is installed).
PAGE_ICONS = frozenset({"icons/icon.svg", "icons/apple-touch-icon.png"})


def _kept(name: str) -> bool:
    if name == SERVICE_WORKER:
        return False
    return name in PAGE_ICONS if name.startswith("icons/") else True


def service_worker_config() -> dict[str, Any]:
    """What the service worker is told: its version, the static files to keep, and the
    pages it keeps from the start (the rule book, the offline page)."""
    folder = str(current_app.static_folder)
    names, digest = _static_files(folder) if not current_app.debug else _fresh(folder)
    return {
        "version": digest,
        "root": url_for("main.home"),
        "static": [url_for("static", filename=n) for n in names if _kept(n)],
        "pages": [url_for("rulebook.index")]
        + [url_for("rulebook.family", family=f) for f in FAMILIES],
        "offline": url_for("install.offline"),
    }


def _fresh(folder: str) -> tuple[tuple[str, ...], str]:
    _static_files.cache_clear()  # `make dev`: a changed file shows on the next load
    return _static_files(folder)


@bp.get("/sw.js")
def service_worker() -> Response:
    config = json.dumps(service_worker_config(), separators=(",", ":"))
    source = (Path(str(current_app.static_folder)) / SERVICE_WORKER).read_text("utf-8")
    response = current_app.response_class(
        f"self.SCOREBOOK = {config};\n{source}", mimetype="text/javascript")
    # The browser checks for a new service worker on every visit; never a stale one.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline() -> str:
    return render_template("main/offline.html")


@bp.get("/favicon.ico")
def favicon() -> Response:
    return send_from_directory(Path(str(current_app.static_folder)) / "icons", "favicon.ico",
                               mimetype="image/vnd.microsoft.icon", max_age=86400)


@bp.get("/apple-touch-icon.png")
def apple_touch_icon() -> Response:
    """iOS asks the site's root for it before reading any page."""
    return send_from_directory(Path(str(current_app.static_folder)) / "icons",
                               "apple-touch-icon.png", max_age=86400)
