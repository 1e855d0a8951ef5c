"""``make run``: serve the table — every phone on the same Wi-Fi — from this computer.

``python -m scorebook.table`` runs the app under gunicorn (threaded workers whose
requests are read ahead, :mod:`scorebook.serving`, as ``make serve`` runs it: a
production server, not Flask's development one) on every interface, port 5000, and
once the socket is listening prints the address the phones should open — this
computer's address on the local network — with a QR code of it for their cameras.

Environment: ``HOST`` (default ``0.0.0.0``, every interface; ``127.0.0.1`` keeps the
site private to this computer), ``PORT`` (5000), ``WORKERS`` (2) and ``THREADS`` (4),
``HEADER_TIMEOUT`` (10 s) and ``BODY_TIMEOUT`` (30 s) (:mod:`scorebook.serving`),
``CERTFILE`` and ``KEYFILE`` to serve HTTPS with a certificate the phones trust, and
everything the app itself reads (``DATABASE_URL``, ``SECRET_KEY``, ...).  Serving the
network, it sets ``PUBLIC_URL`` to the address it prints (unless set already), so the
invite links and QR codes the site shows name an address the phones can open, even on
pages opened on this computer as ``localhost``.

The terminal's language follows ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (English,
Spanish or Italian).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

import segno
from babel.support import NullTranslations, Translations

from scorebook import serving
from scorebook.lan import ALL_INTERFACES, is_loopback_host, lan_address, site_url

TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
LANGUAGES = ("en", "es", "it")


def terminal_language(environ: Mapping[str, str]) -> str:
    """The language the terminal speaks, from the locale variables (``es_ES.UTF-8`` → es)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            code = value.split(".")[0].split("_")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def translations(language: str) -> NullTranslations:
    if language == "en":
        return NullTranslations()
    return Translations.load(str(TRANSLATIONS), [language])


class Settings:
    """What ``make run`` was asked for, read from the environment."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.host = environ.get("HOST", "0.0.0.0").strip() or "0.0.0.0"
        self.port = int(environ.get("PORT") or 5000)
        self.workers = int(environ.get("WORKERS") or 2)
        self.threads = int(environ.get("THREADS") or 4)
        self.certfile = environ.get("CERTFILE") or None
        self.keyfile = environ.get("KEYFILE") or None
        self.public_url = environ.get("PUBLIC_URL") or None
        self.language = terminal_language(environ)

    @property
    def everywhere(self) -> bool:
        return self.host in ALL_INTERFACES

    @property
    def scheme(self) -> str:
        return "https" if self.certfile else "http"

    @property
    def bind(self) -> str:
        host = self.host
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"{host}:{self.port}"

    def url(self, host: str) -> str:
        return site_url(self.scheme, host, self.port)


def table_url(settings: Settings) -> str | None:
    """The address the phones open: the one given, else this computer's on the network;
    None when the site is private to this computer, or no network was found."""
    if settings.public_url:
        return settings.public_url.rstrip("/")
    if settings.everywhere:
        address = lan_address()
        return settings.url(address) if address else None
    if is_loopback_host(settings.host):
        return None
    return settings.url(settings.host)  # one interface, named


def banner(settings: Settings, url: str | None) -> str:
    """What the terminal shows once the server listens."""
    _ = translations(settings.language).gettext
    here = settings.url("127.0.0.1") if settings.everywhere or is_loopback_host(
        settings.host) else settings.url(settings.host)
    lines = [""]
    if url:
        lines += [
            "  " + _("Rummy Scorebook is ready for the table."),
            "",
            "  " + _("On the phones (on the same Wi-Fi as this computer), open:"),
            "",
            f"      {url}",
            "",
            "  " + _("or point the phone's camera at this code:"),
            "",
        ]
        lines += qr_lines(url)
        lines += ["", "  " + _("On this computer: %(url)s") % {"url": here}]
    elif settings.everywhere:
        lines += [
            "  " + _("Rummy Scorebook is running, but this computer is on no network: the "
                     "phones cannot reach it yet. Connect it to the Wi-Fi, then start "
                     "it again."),
            "",
            "  " + _("On this computer: %(url)s") % {"url": here},
        ]
    else:
        lines += [
            "  " + _("Rummy Scorebook is running on this computer only: %(url)s")
            % {"url": here},
            "  " + _("Phones cannot open it. To serve the table, start it without "
                     "HOST=%(host)s.") % {"host": settings.host},
        ]
    lines += ["  " + _("Stop the server: Ctrl+C"), ""]
    return "\n".join(lines)


def qr_lines(url: str) -> list[str]:
    """The QR code of ``url`` in block characters, two rows of modules a line, dark on
    light whatever the terminal's colours (the quiet zone included)."""
    code = segno.make(url, error="m", micro=False)
    matrix = [list(row) for row in code.matrix]
    quiet = 4
    size = len(matrix) + 2 * quiet
    grid = [[False] * size for _ in range(size)]
    for y, row in enumerate(matrix):
        for x, module in enumerate(row):
            grid[y + quiet][x + quiet] = bool(module)
    if size % 2:
        grid.append([False] * size)
    # Each character is two modules, one above the other: light is a block, so the code
    # reads dark-on-light on a dark terminal as on a light one.
    chars = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
    lines = []
    for y in range(0, len(grid), 2):
        lines.append("  " + "".join(chars[(grid[y][x], grid[y + 1][x])] for x in range(size)))
    return lines


def gunicorn_options(settings: Settings, when_ready: Callable[[Any], None]) -> dict[str, Any]:
    # The worker, its threads and timeouts are make serve's too (scorebook/serving.py:
    # requests read ahead, so slow or idle connections hold no thread).
    options: dict[str, Any] = {
        **serving.options({"THREADS": str(settings.threads)}),
        "bind": [settings.bind],
        "workers": settings.workers,
        # The banner must stay in view: only problems are logged, not every request.
        "loglevel": "warning",
        "accesslog": None,
        "when_ready": when_ready,
    }
    if settings.certfile:
        options["certfile"] = settings.certfile
        options["keyfile"] = settings.keyfile
    return options


def main(environ: MutableMapping[str, str] | None = None) -> None:
    from gunicorn.app.base import BaseApplication

    environ = os.environ if environ is None else environ
    settings = Settings(environ)
    serving.check_timeouts(environ)
    url = table_url(settings)
    if url and not settings.public_url:
        environ["PUBLIC_URL"] = url  # the workers' apps make their links with it

    def when_ready(server: Any) -> None:
        print(banner(settings, url), flush=True)

    class TableServer(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in gunicorn_options(settings, when_ready).items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            from app import create_app

            return create_app()

    TableServer().run()

if __name__ == "__main__":
    sys.exit(main())
