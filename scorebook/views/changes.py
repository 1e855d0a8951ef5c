"""A game's history entries as a reader sees them.

Each entry's summary is stored as plain, language-neutral text when the change is
made (``scorebook.hands``): ``Ann: 10S 10H 10D`` for a meld, ``Ben: 10C → Ann-1``
for a lay-off, ``Ann +220, Ben −6`` for a hand.  Here the cards get their suit
symbols (and spoken names), a live meld's label becomes “Ann's meld 1” in the
reader's language, and a score its real minus sign.
"""

from __future__ import annotations

import re

from flask import Blueprint
from markupsafe import Markup, escape

from scorebook import history
from scorebook.bidi import bdi
from scorebook.models import Change
from scorebook.views.cards import card_html, cards_html
from scorebook.wording import meld_name

ARROW = " → "
_NEGATIVE = re.compile(r"(?<= )-(?=\d)")
#: One player's score in a hand's summary (``Ann +220``), then a comma or the end.
_SCORE = re.compile(r"(?P<name>.+?) (?P<score>[+-]\d+)(?:, |$)")


def _onto(card: str, label: str) -> Markup:
    return card_html(card) + Markup(ARROW) + escape(meld_name(label))


def _scores(text: str) -> Markup:
    """``Ann +220, Ben -6`` with each name isolated and a real minus sign."""
    parts = list(_SCORE.finditer(text))
    if not parts or "".join(m.group(0) for m in parts) != text:
        return escape(_NEGATIVE.sub("\u2212", text))
    return Markup(", ").join(bdi(m.group("name")) + Markup(" ") + m.group("score")
                             .replace("-", "\u2212") for m in parts)


def change_summary(change: Change) -> Markup:
    """The summary of one history entry, ready for the page."""
    text = change.summary or ""
    action = change.action
    if action == history.DELETED:
        return Markup("")  # the entry's title already says which hand went
    if action == history.LIVE_MELD and ": " in text:
        who, _, cards = text.partition(": ")
        return bdi(who) + Markup(": ") + cards_html(cards)
    if action == history.LIVE_LAYOFF and ": " in text and ARROW in text:
        who, _, rest = text.partition(": ")
        card, _, label = rest.partition(ARROW)
        return bdi(who) + Markup(": ") + _onto(card, label)
    if action == history.LIVE_UNDO:
        if ARROW in text:
            card, _, label = text.partition(ARROW)
            return _onto(card, label)
        return escape(meld_name(text))
    if action in (history.RECORDED, history.EDITED, history.LIVE_FINISHED):
        return _scores(text)
    return escape(text)


def register_change_helpers(bp: Blueprint) -> None:
    bp.add_app_template_filter(change_summary, "change_summary")
