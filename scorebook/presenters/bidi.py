"""Names people typed, shown between other text without changing it.

A player, league or season name (or a meld id) may hold right-to-left letters, or a
right-to-left override (U+202E) that would turn the rest of the line around: "Ann
went out" could read "tuo tnew". Every name a page shows is therefore isolated from
the text around it:

- :func:`bdi` in HTML content: ``<bdi>name</bdi>`` (``{{ name|bdi }}`` in templates);
- :func:`isolate` where no element can go (a ``<title>``, an attribute, an
  ``<option>``, SVG text, a flashed message, a plain-text summary): the name between
  U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, which ends any
  embedding or override the name opened (``{{ name|isolate }}``).

Both escape as usual: a name is text, never markup. ``tests/web/test_hostile_names.py``
renders every page with hostile names and checks both.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from markupsafe import Markup, escape

FSI = "\u2068"
PDI = "\u2069"


def isolate(text: Any) -> str:
    """``text`` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (empty stays empty)."""
    value = "" if text is None else str(text)
    return f"{FSI}{value}{PDI}" if value else value


def bdi(text: object) -> Markup:
    """``text`` escaped, in a ``<bdi>`` element (empty stays empty)."""
    if text is None or text == "":
        return Markup("")
    return Markup("<bdi>%s</bdi>") % text


def html(translated: str, **values: Any) -> Markup:
    """A translated message as markup: the message escaped, ``values`` put in (a plain
    value escaped; pass names through :func:`bdi`). ``html(gettext("%(name)s went out"),
    name=bdi(name))``."""
    return Markup(escape(translated)) % values


def plain(text: str) -> str:
    """``text`` without the isolates :func:`isolate` added (for comparing and parsing)."""
    return text.replace(FSI, "").replace(PDI, "")


def init_app(app: Flask) -> None:
    app.jinja_env.filters["bdi"] = bdi
    app.jinja_env.filters["isolate"] = isolate
