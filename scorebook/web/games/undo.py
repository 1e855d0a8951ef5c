"""The undo offer at a game's table (:mod:`scorebook.services.undo`): the game's newest
change, which every scorer's phone showing the game may undo with one tap for a while.

The scoreboard's board is shared between browsers (:func:`scorebook.web.games.views.
board_html`), so the offer's button carries no form token of its own: it names, with
``form="undo-offer-form"``, a form outside the board that holds this browser's token
(``games/_undo_form.html``), and says where to post with ``formaction``.  Without
JavaScript it is an ordinary form button; with it, the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask_babel import gettext
from markupsafe import Markup, escape

from scorebook.extensions import db
from scorebook.models import Change, Game, UndoStep
from scorebook.presenters.changes import action_name, change_summary, device_name
from scorebook.services import undo


@dataclass(frozen=True)
class Offer:
    """What the table is offered to undo: the ``step``, the change in words (``text``),
    and the moment it can no longer be undone (``until``)."""

    step: UndoStep
    text: Markup
    until: datetime


def offer_text(step: UndoStep, change: Change | None) -> Markup:
    """The change an undo would take back, in the page's language, with its phone."""
    number = step.params.get("number")
    phone = device_name(step)
    if step.kind == undo.HAND_RECORDED:
        text = gettext("Hand %(number)s was saved on %(phone)s.", number=number, phone=phone)
    elif step.kind == undo.HAND_EDITED:
        text = gettext("Hand %(number)s was changed on %(phone)s.", number=number,
                       phone=phone)
    elif step.kind == undo.HAND_DELETED:
        text = gettext("Hand %(number)s was deleted on %(phone)s.", number=number,
                       phone=phone)
    elif step.kind == undo.HAND_FINISHED:
        text = gettext("Live hand %(number)s was finished on %(phone)s.", number=number,
                       phone=phone)
    else:
        what = action_name(str(step.params.get("action", "")))
        text = gettext("%(what)s in hand %(number)s, on %(phone)s:", what=what,
                       number=number, phone=phone)
        summary = change_summary(change) if change is not None else Markup("")
        return escape(text) + Markup(" ") + summary
    return escape(text)


def undo_offer(game: Game) -> Offer | None:
    """The step the game's table is offered to undo now, if any."""
    step = undo.offered(game.id)
    if step is None:
        return None
    change = db.session.get(Change, int(step.state.get("change", 0)))
    return Offer(step, offer_text(step, change), undo.until(step).replace(microsecond=0))
