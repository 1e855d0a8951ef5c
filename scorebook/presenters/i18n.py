"""The site's languages: which one a request is answered in, the switch in the
header, and locale-aware number and date filters for the templates.

The language of a request is, first to last:

1. ``?lang=xx`` in the URL (a shared link in a given language; not remembered);
2. the language the person chose with the switch (``session["lang"]``);
3. the default language of the league the page is about (:func:`league_language`);
4. the browser's ``Accept-Language``, best match;
5. English.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    g,
    has_request_context,
    redirect,
    request,
    session,
    url_for,
)
from flask_babel import format_date, format_datetime, format_decimal, format_percent, get_locale
from markupsafe import Markup
from werkzeug.wrappers import Response

from scorebook.presenters import bidi, controls
from scorebook.presenters.options import OPTION_HELP
from scorebook.services.seasons import as_utc

bp = Blueprint("language", __name__)

#: Each language's name in itself: the switch shows these, never translated.
LANGUAGE_NAMES = {"en": "English", "es": "Español", "it": "Italiano"}


def supported() -> list[str]:
    return list(current_app.config["LANGUAGES"])


def league_language() -> str | None:
    """The default language of the league this request is about, or None.

    Hook for the leagues: when a page concerns a league whose ``language`` is set
    (a ``League.language`` column, e.g. ``"es"``), return it: the league is the one a
    view put in ``g.league`` (else ``g.current_league``), or a view sets
    ``g.league_language`` itself.
    """
    lang = g.get("league_language") if has_request_context() else None
    if lang:
        return str(lang)
    league = (g.get("league") or g.get("current_league")) if has_request_context() else None
    language = getattr(league, "language", None)
    return str(language) if language else None


def select_locale() -> str | None:
    """Flask-Babel's locale selector (see the module docstring for the order)."""
    if not has_request_context():
        return None
    languages = supported()
    for choice in (request.args.get("lang"), session.get("lang"), league_language()):
        if choice in languages:
            return str(choice)
    return request.accept_languages.best_match(languages) or languages[0]


def safe_next(target: str | None) -> str:
    """``target`` if it is a path on this site, else the home page.

    Refuses anything with a scheme or host, protocol-relative ``//host`` and the
    ``/\\host`` form browsers read the same way; drops ``lang=`` from the query so
    the page is shown in the language just chosen.
    """
    fallback = url_for("main.index") if "main.index" in current_app.view_functions else "/"
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return fallback
    if "\\" in target or any(ord(c) < 32 for c in target):
        return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return fallback
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                       if k != "lang"])
    return urlunsplit(("", "", parts.path, query, parts.fragment))


@bp.get("/language/<code>")
def choose(code: str) -> Response:
    """Remember ``code`` as this browser's language and go back to ``next``."""
    if code not in supported():
        abort(404)
    session["lang"] = code
    session.permanent = True  # remembered across visits, not only until the browser closes
    return redirect(safe_next(request.args.get("next")), code=303)


def switch_links() -> list[dict[str, Any]]:
    """The header's language switch: one link per language back to this page."""
    here = request.full_path if request.query_string else request.path
    current = str(get_locale() or "en")
    return [{"code": code, "name": LANGUAGE_NAMES.get(code, code),
             "url": url_for("language.choose", code=code, next=here),
             "current": code == current}
            for code in supported()]


# ---- house rules by name ---------------------------------------------------------------

def option_label(option: str) -> str:
    """A house rule's name as the new-game form shows it (``floating`` → “Floating”)."""
    label = OPTION_HELP.get(option)
    return str(label[0]) if label else option


# ---- numbers and dates in the page's language ----------------------------------------

def number(value: Any) -> str:
    """``1234`` → ``1,234`` / ``1.234``; negative numbers keep a real minus."""
    if value is None or value == "":
        return ""
    return str(format_decimal(value)).replace("-", "\u2212")


def signed_number(value: int) -> str:
    """A hand score with its sign: ``+13``, ``−9``, ``0`` (thousands grouped)."""
    if not value:
        return "0"
    return ("+" if value > 0 else "\u2212") + str(format_decimal(abs(value)))


def percent(value: float | None) -> str:
    """A share as the page's language writes a percentage, whole: ``0.5`` → ``50%``
    (English, Italian), ``50 %`` (Spanish, with a no-break space); ``–`` for none."""
    if value is None:
        return "–"
    return str(format_percent(value)).replace("-", "\u2212")


def day(value: date | datetime | None, format: str = "medium") -> str:
    return "" if value is None else str(format_date(value, format))


def moment(value: datetime | None, format: str = "medium") -> str:
    return "" if value is None else str(format_datetime(value, format))


# Times are stored in UTC, and a page may be kept and sent to several phones
# (scorebook/web/pages.py), so the server cannot know the reader's time zone.  A moment
# on a page is a <time> element carrying it in UTC (``datetime``) and worded in UTC, with
# "UTC" said; static/js/local-time.js words it again in the phone's own time zone, in
# the page's language (Intl.DateTimeFormat with <html lang>, the formats by the names
# Babel and Intl share: short, medium, long, full).  Without JavaScript it stays in UTC
# and says so.  A calendar date (a season's first day) is no moment: it is shown as is.

def _time_element(at: datetime, kind: str, format: str, text: str, note: str) -> Markup:
    at = as_utc(at).replace(microsecond=0)
    return Markup('<time datetime="{}" data-local="{}" data-format="{}">{}{}</time>').format(
        at.isoformat().replace("+00:00", "Z"), kind, format, text,
        Markup('<span class="utc-note"> {}</span>').format(note) if note else "")


def moment_html(value: datetime | None, format: str = "medium") -> Markup:
    """The ``moment`` filter: a date and time, in the phone's time zone once the page's
    script has run (in UTC, saying so, until then)."""
    if value is None:
        return Markup("")
    return _time_element(value, "moment", format, moment(as_utc(value), format), "UTC")


def day_html(value: date | datetime | None, format: str = "medium") -> Markup | str:
    """The ``day`` filter: a calendar date as it is; the day of a moment (a game's end)
    as the phone's time zone has it once the page's script has run."""
    if isinstance(value, datetime):
        return _time_element(value, "day", format, day(as_utc(value), format), "")
    return day(value, format)


def init_app(app: Flask) -> None:
    """Register the switch route, its template global and the filters."""
    app.register_blueprint(bp)
    app.jinja_env.globals["language_links"] = switch_links
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["signed_number"] = signed_number
    app.jinja_env.filters["percent"] = percent
    app.jinja_env.filters["day"] = day_html
    app.jinja_env.filters["moment"] = moment_html
    bidi.init_app(app)  # |bdi and |isolate: names shown apart from the text around them
    controls.init_app(app)  # control(): a help text names a button by its own message
