"""The scoreboard's table of hands, built in Python: a long game has hundreds of
cells, and string building is many times quicker than a template loop for them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import gettext
from markupsafe import Markup, escape

from scorebook.presenters.bidi import bdi, isolate
from scorebook.presenters.i18n import number, signed_number
from scorebook.presenters.wording import ending_label
from scorebook.services.games import Scoreboard

MINUS = "\u2212"
ELLIPSIS = "\u2026"
#: How many characters of a name fit a column at 390 px, by the number of players.
NAME_ROOM = {2: 16, 3: 12, 4: 9, 5: 7, 6: 6, 7: 5, 8: 4}
#: From this many players on, the table is drawn tighter (every column in view at 390 px).
MANY_PLAYERS = 6


def short_names(names: Sequence[str]) -> list[str]:
    """Each name as the column heading shows it: whole when it fits, else cut with an
    ellipsis (``Alexa…``), cut longer where two would read the same."""
    room = NAME_ROOM.get(len(names), 4)
    out = []
    for name in names:
        if len(name) <= room:
            out.append(name)
            continue
        keep = room - 1
        others = [n for n in names if n != name]
        while keep < len(name) and any(o.startswith(name[:keep]) for o in others):
            keep += 1
        out.append(name if keep >= len(name) - 1 else name[:keep].rstrip() + ELLIPSIS)
    return out


def _numbers() -> tuple[Any, Any]:
    """A hand score (signed) and a total in the page's language (``+13``, ``−9``,
    ``1.500``), each worked out once per value: a long game repeats them often."""
    signed: dict[int, str] = {}
    plain: dict[int, str] = {}

    def _signed(value: int) -> str:
        if value not in signed:
            signed[value] = signed_number(value)
        return signed[value]

    def _plain(value: int) -> str:
        if value not in plain:
            plain[value] = number(value)
        return plain[value]

    return _signed, _plain


def scores_table(board: Scoreboard, hand_url: str | None) -> Markup:
    """A row per hand (each player's hand score and running total), a column per
    player, the totals at the foot.  ``hand_url`` is a hand page's address with
    ``{number}`` in place of the hand number (None: the numbers link nowhere, as on a
    shared result)."""
    _signed, _plain = _numbers()
    # Translate each message once, then fill it in for every row.
    hand_label = gettext("Hand %(number)s")
    went_out = gettext("%(name)s out")
    went_rummy = gettext("%(name)s went Rummy")
    points_only = gettext("points only")
    shorts = short_names(board.names)
    short_of = dict(zip(board.names, shorts))
    many = " scores-many" if len(board.names) >= MANY_PLAYERS else ""
    out = [f'<table class="scores{many}"><caption class="sr-only">',
           str(escape(gettext("Each hand's score and the running total of every player"))),
           '</caption><thead><tr><th scope="col">', str(escape(gettext("Hand"))), "</th>"]
    for i, (name, short) in enumerate(zip(board.names, shorts)):
        if short == name:
            out.append(f'<th scope="col" class="num">{bdi(name)}</th>')
        else:  # tap the cut name: the key under the table has it whole
            out.append(f'<th scope="col" class="num"><a class="name-abbr" '
                       f'href="#player-name-{i}" '
                       f'aria-label="{escape(isolate(name))}">{bdi(short)}</a></th>')
    out.append("</tr></thead><tbody>")
    for row in board.rows:
        who = short_of.get(row.went_out, row.went_out) if row.went_out else None
        if who and row.going_rummy:
            note = went_rummy % {"name": isolate(who)}
        elif who:
            note = went_out % {"name": isolate(who)}
        else:
            note = ending_label(row.ending)
        rummy = ' class="went-rummy"' if row.going_rummy else ""
        if hand_url is None:  # (the column's heading says it is the hand's number)
            number = str(row.number)
        else:
            url = hand_url.replace("{number}", str(row.number))
            label = escape(hand_label % {"number": row.number})
            number = f'<a href="{escape(url)}" aria-label="{label}">{row.number}</a>'
        out.append(f'<tr id="hand-{row.number}"{rummy}><th scope="row">{number}'
                   f'<span class="row-note">{escape(note)}</span>'
                   + (f'<span class="row-note points-only">{escape(points_only)}</span>'
                      if row.points_only else "") + '</th>')
        for score, total in row.cells:
            negative = " negative" if score < 0 else ""
            out.append(f'<td class="num"><span class="hand-score{negative}">{_signed(score)}'
                       f'</span><span class="running">{_plain(total)}</span></td>')
        out.append("</tr>")
    total_label = gettext("Total")  # not inside the f-string, where pybabel cannot see it
    out.append(f'</tbody><tfoot><tr><th scope="row">{escape(total_label)}</th>')
    out += [f'<td class="num total">{_plain(total)}</td>' for total in board.totals]
    out.append("</tr></tfoot></table>")
    return Markup("".join(out))


def name_key(names: Sequence[str]) -> Markup:
    """Under the table: each cut name in full (what a tap on a column heading shows)."""
    shorts = short_names(names)
    items = [f'<li id="player-name-{i}"><span class="name-short">{bdi(short)}</span> '
             f'{bdi(name)}</li>'
             for i, (name, short) in enumerate(zip(names, shorts)) if short != name]
    if not items:
        return Markup("")
    return Markup(f'<ul class="name-key">{"".join(items)}</ul>')
