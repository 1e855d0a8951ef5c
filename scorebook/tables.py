"""The scoreboard's table of hands, built in Python: a long game has hundreds of
cells, and string building is many times quicker than a template loop for them."""

from __future__ import annotations

from flask_babel import gettext
from markupsafe import Markup, escape

from scorebook.bidi import bdi, isolate
from scorebook.games import Scoreboard

MINUS = "\u2212"


def _signed(value: int) -> str:
    return f"{value:+d}".replace("-", MINUS) if value else "0"


def _plain(value: int) -> str:
    return str(value).replace("-", MINUS)


def scores_table(board: Scoreboard, hand_url: str) -> Markup:
    """A row per hand (each player's hand score and running total), a column per
    player, the totals at the foot.  ``hand_url`` is a hand page's address with
    ``{number}`` in place of the hand number."""
    # Translate each message once, then fill it in for every row.
    hand_label = gettext("Hand %(number)s")
    went_out = gettext("%(name)s out")
    out = ['<table class="scores"><caption class="sr-only">',
           str(escape(gettext("Each hand's score and the running total of every player"))),
           '</caption><thead><tr><th scope="col">', str(escape(gettext("Hand"))), "</th>"]
    out += [f'<th scope="col" class="num">{bdi(name)}</th>' for name in board.names]
    out.append("</tr></thead><tbody>")
    for row in board.rows:
        note = went_out % {"name": isolate(row.went_out)} if row.went_out else row.ending
        url = hand_url.replace("{number}", str(row.number))
        out.append(f'<tr id="hand-{row.number}"><th scope="row"><a href="{escape(url)}" '
                   f'aria-label="{escape(hand_label % {"number": row.number})}">{row.number}'
                   f'</a><span class="row-note">{escape(note)}</span></th>')
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
