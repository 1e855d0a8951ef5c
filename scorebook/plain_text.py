"""What a name (or any id people type) may hold, and the biggest id a URL may name.

A name is one line of printable text. Control characters (NUL, BEL, a tab or a line
break, U+007F–U+009F) are refused: PostgreSQL cannot store a NUL at all, and the others
only hide or break what is shown. So are unpaired UTF-16 surrogates (a JSON body may
hold ``"\\ud800"``), which no database can store as text. Format characters such as the
right-to-left override stay allowed (names in Arabic or Hebrew need them); pages isolate
every name from the text around it (:mod:`scorebook.presenters.bidi`).

Ids are PostgreSQL ``integer`` columns: up to :data:`MAX_ID` (SQLite would take up to
2**63 - 1). A URL naming a bigger id finds nothing (404, :class:`IdConverter`); a form or
JSON field holding one is refused (:func:`db_int`).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask_babel import lazy_gettext as _l
from werkzeug.routing import IntegerConverter
from wtforms import Field, Form, ValidationError

#: The largest value of a PostgreSQL ``integer`` (ids, hand numbers, versions).
MAX_ID = 2**31 - 1

_UNWANTED = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")

TEXT_MESSAGE = _l("A name cannot hold control characters (such as NUL or a line break).")


def has_unwanted(text: str) -> bool:
    """True if ``text`` holds a control character or an unpaired surrogate."""
    return _UNWANTED.search(text) is not None


def unwanted_problem(text: str, what: str) -> str | None:
    """An English message for the API when ``text`` has what no name may hold."""
    found = _UNWANTED.search(text)
    if found is None:
        return None
    kind = "an unpaired surrogate" if "\ud800" <= found.group(0) <= "\udfff" else (
        f"the control character U+{ord(found.group(0)):04X}")
    return (f"{what} holds {kind}: control characters (such as NUL) and unpaired "
            f"surrogates are not allowed")


class PlainText:
    """A WTForms validator: the field's text holds no control character or surrogate."""

    def __call__(self, form: Form, field: Field) -> None:
        data = field.data
        if isinstance(data, str) and has_unwanted(data):
            raise ValidationError(str(TEXT_MESSAGE))


def db_int(value: Any) -> int | None:
    """``value`` as an int a database column can hold (0..MAX_ID), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = value.strip()
        if not value.isascii() or not value.isdigit():
            return None
        value = int(value)
    if isinstance(value, int) and 0 <= value <= MAX_ID:
        return value
    return None


#: The most points, either way, one player's score of one hand may be given as (a hand
#: given as points only): above what any hand of any family can score
#: (:func:`referee.most_points`: 852 at most), far inside what a column holds.
MAX_POINTS = 1000

_POINTS = re.compile(r"[+\-\u2212]?[0-9]{1,4}")


def points_int(value: Any) -> int | None:
    """``value`` as a whole number of points (-MAX_POINTS..MAX_POINTS), else None: an int
    (not a bool), or text such as ``40``, ``+40``, ``-12`` or ``−12`` (a real minus)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        if not _POINTS.fullmatch(text):
            return None
        value = int(text.replace("\u2212", "-"))
    if isinstance(value, int) and -MAX_POINTS <= value <= MAX_POINTS:
        return value
    return None


def _at_most(limit: int) -> str:
    """A regular expression of the whole numbers from 0 to ``limit`` (leading zeros
    allowed)."""
    digits = str(limit)
    shorter = f"[0-9]{{1,{len(digits) - 1}}}" if len(digits) > 1 else None
    same = [f"{digits[:i]}[0-{int(d) - 1}][0-9]{{{len(digits) - i - 1}}}"
            for i, d in enumerate(digits) if d != "0"]
    return "0*(?:" + "|".join(p for p in (shorter, *same, digits) if p) + ")"


class IdConverter(IntegerConverter):
    """``<int:…>`` in a URL: at most :data:`MAX_ID`, so a bigger id is a 404, not a
    database error.  The URL pattern itself stops at MAX_ID: a bigger number matches no
    rule (a 404 whatever the method), where a ``max`` checked after the match would
    make it a 405 for a method another rule of the same path takes."""

    regex = _at_most(MAX_ID)

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:  # noqa: A002
        kwargs.setdefault("max", MAX_ID)
        super().__init__(map, *args, **kwargs)


def init_app(app: Flask) -> None:
    """Use :class:`IdConverter` for ``<int:…>`` (call before any route is added)."""
    app.url_map.converters["int"] = IdConverter
