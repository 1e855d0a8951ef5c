"""A page's text as a person reads it: names are isolated from the text around them
(``<bdi>`` in HTML, U+2068/U+2069 in plain text, :mod:`scorebook.presenters.bidi`), which no
reader sees; tests that look for a sentence with a name in it read through them."""

from __future__ import annotations

import re

from scorebook.presenters.bidi import FSI, PDI, plain

_BDI = re.compile(r"</?bdi>")


def readable(html: str) -> str:
    """``html`` without the ``<bdi>`` tags and isolate characters around names."""
    return plain(_BDI.sub("", html))


def page(response: object) -> str:
    """A response's HTML, readable (:func:`readable`)."""
    return readable(response.get_data(as_text=True))  # type: ignore[attr-defined]


def sentence(text: str) -> re.Pattern[str]:
    """A pattern for ``text`` as a person reads it on a page, where any name in it may
    sit between isolate characters (a flashed message, a title): for Playwright's
    ``get_by_text`` and ``to_have_text``."""
    skip = f"[{FSI}{PDI}]*"
    return re.compile(skip + "".join(re.escape(ch) + skip for ch in text))
