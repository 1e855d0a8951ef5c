"""What a name (or any id people type) may hold, and the biggest id a URL may name.

A name is one line of printable text. Control characters (NUL, BEL, a tab or a line
break, U+007F–U+009F) are refused: PostgreSQL cannot store a NUL at all, and the others
only hide or break what is shown. So are unpaired UTF-16 surrogates (a JSON body may
hold ``"\\ud800"``), which no database can store as text. Format characters such as the
right-to-left override stay allowed (names in Arabic or Hebrew need them); pages isolate
every name from the text around it (:mod:`scorebook.presenters.bidi`).

Ids are PostgreSQL ``integer`` columns: up to :data:`MAX_ID` (SQLite would take up to
2**63 - 1). A URL naming a bigger id finds nothing (404, :class:`IdConverter`); a form or
JSON field holding one is refused (:func:`db_int`). Numbers are ASCII digits: "²" and
"١" are digits to ``str.isdigit()``, not to a URL or a form here.

A form's body is UTF-8 text (:class:`Utf8Request`): one that is not is a 400 that says
so, where Werkzeug would read it with U+FFFD or ``%FF`` in place of what was sent.
"""

from __future__ import annotations

import codecs
import re
from typing import IO, Any
from urllib.parse import parse_qsl

from flask import Flask, Request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import FileStorage, Headers, MultiDict
from werkzeug.exceptions import BadRequest
from werkzeug.formparser import FormDataParser, MultiPartParser
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


# --- form bodies: UTF-8 only ----------------------------------------------------------------

#: The codec a multipart form's text fields are read with: UTF-8, strictly, whatever
#: error handling Werkzeug asks of it (it asks for "replace").
STRICT_UTF8 = "scorebook_strict_utf_8"


def _find_strict_utf8(name: str) -> codecs.CodecInfo | None:
    if name != STRICT_UTF8:
        return None

    def decode(data: Any, errors: str = "strict", /) -> tuple[str, int]:
        return codecs.utf_8_decode(data, "strict", True)

    return codecs.CodecInfo(codecs.lookup("utf-8").encode, decode, name=STRICT_UTF8)


codecs.register(_find_strict_utf8)


class NotUtf8(BadRequest):
    """A form whose body is not UTF-8: refused, as a name holding NUL is (nothing
    stored), instead of being read with characters that were not sent."""

    def __init__(self) -> None:
        super().__init__(description=gettext(
            "What was sent is not UTF-8 text, so it cannot be read as it was typed: "
            "nothing was saved. Send the form again from the page."))


FormParts = tuple[IO[bytes], MultiDict[str, str], MultiDict[str, FileStorage]]


class _Utf8Parts(MultiPartParser):
    def get_part_charset(self, headers: Headers) -> str:
        return STRICT_UTF8


class Utf8FormParser(FormDataParser):
    """Werkzeug's form parser, reading text as UTF-8 and refusing what is not
    (:class:`NotUtf8`); files are left as they are."""

    def _parse_urlencoded(self, stream: IO[bytes], mimetype: str,
                          content_length: int | None, options: dict[str, str]
                          ) -> FormParts:
        try:
            items = parse_qsl(stream.read().decode("utf-8"), keep_blank_values=True,
                              encoding="utf-8", errors="strict")
        except UnicodeDecodeError:
            raise NotUtf8() from None
        return stream, self.cls(items), self.cls()

    def _parse_multipart(self, stream: IO[bytes], mimetype: str,
                         content_length: int | None, options: dict[str, str]
                         ) -> FormParts:
        parser = _Utf8Parts(stream_factory=self.stream_factory,
                            max_form_memory_size=self.max_form_memory_size,
                            max_form_parts=self.max_form_parts, cls=self.cls)
        boundary = options.get("boundary", "").encode("ascii")
        if not boundary:
            raise ValueError("Missing boundary")
        try:
            form, files = parser.parse(stream, boundary, content_length)
        except UnicodeDecodeError:
            raise NotUtf8() from None
        return stream, form, files


class Utf8Request(Request):
    """The app's request: its form is read by :class:`Utf8FormParser`."""

    form_data_parser_class = Utf8FormParser


def init_app(app: Flask) -> None:
    """Use :class:`IdConverter` for ``<int:…>`` (call before any route is added), and
    read forms as UTF-8 only (:class:`Utf8Request`)."""
    app.url_map.converters["int"] = IdConverter
    app.request_class = Utf8Request
