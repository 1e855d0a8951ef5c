"""A page's text as a person reads it: names are isolated from the text around them
(``<bdi>`` in HTML, U+2068/U+2069 in plain text, :mod:`scorebook.bidi`), which no
reader sees; tests that look for a sentence with a name in it read through them."""

from __future__ import annotations

import re

from scorebook.bidi import plain

_BDI = re.compile(r"</?bdi>")


def readable(html: str) -> str:
    """``html`` without the ``<bdi>`` tags and isolate characters around names."""
    return plain(_BDI.sub("", html))


def page(response: object) -> str:
    """A response's HTML, readable (:func:`readable`)."""
    return readable(response.get_data(as_text=True))  # type: ignore[attr-defined]
