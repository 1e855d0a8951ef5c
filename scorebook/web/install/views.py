"""The site as an app on the phone: the web app manifest, the service worker, the
favicon and the page a phone shows when it is offline and has no copy of a page.

- ``/manifest.webmanifest`` names the app in the page's language (the pages link it
  with ``?lang=``), with its icons (SVG and PNG, 192 and 512 px, plain and maskable).
- ``/sw.js`` is ``static/js/service-worker.js`` (plain JavaScript, no build step),
  served from the site's root so that it looks after every page, after one line that
  tells it this version's files by their versioned URLs (:mod:`scorebook.assets`):
  :func:`service_worker_config`.  A change to any static file changes the version, so
  the phones fetch the new files and drop the old ones.  Neither it nor the manifest
  is cached for long: ``no-cache``, checked with the server on every use.
- ``/offline`` is the page the service worker keeps for when a page was never seen.
"""

from __future__ import annotations

import json
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
from scorebook import assets

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


#: The icons the pages themselves show (the others are the manifest's: the phone fetches
#: those once, when the app is installed).
PAGE_ICONS = frozenset({"icons/icon.svg", "icons/apple-touch-icon.png"})


def _kept(name: str) -> bool:
    """The static files a page may ask for: the bundled stylesheet (not the files it
    is made of: no page links them), the scripts, the icons the pages show."""
    if name == SERVICE_WORKER:
        return False
    if name.startswith("icons/"):
        return name in PAGE_ICONS
    if name.endswith(".css"):
        return name == assets.BUNDLE
    return True


def service_worker_config() -> dict[str, Any]:
    """What the service worker is told: its version, the static files to keep (by their
    versioned URLs), the stylesheet, and the pages it keeps from the start (the rule
    book, the offline page)."""
    snapshot = assets.snapshot()
    return {
        "version": snapshot.digest,
        "root": url_for("main.home"),
        "static": [url_for("static", filename=n) for n in snapshot.names if _kept(n)],
        "stylesheet": url_for("static", filename=assets.BUNDLE),
        "pages": [url_for("rulebook.index")]
        + [url_for("rulebook.family", family=f) for f in FAMILIES],
        "offline": url_for("install.offline"),
    }


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
