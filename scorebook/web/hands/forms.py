"""The forms of a hand: recorded at its end (cards typed as text, or the picker's JSON,
or points only) and move by move while it is played (meld, lay-off, take back, finish,
cancel)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Form,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice

from scorebook.models import DRAW, STOCK_OUT
from scorebook.presenters.bidi import bdi, html
from scorebook.web.games.forms import choices


class PlayerCardsForm(Form):
    """One player's cards typed as text (the form without JavaScript)."""

    melds = TextAreaField(_l("Melds put down, one per line"))
    layoffs = TextAreaField(_l("Cards laid off, one per line, with the meld"))
    hand = StringField(_l("Cards left in hand"))
    #: Instead of the cards in hand, where nobody remembers them: their points (issue 27).
    held = StringField(_l("Points left in hand, if nobody remembers the cards"))
    #: A hand given as points only: the player's points for it.
    points = StringField(_l("Points"))
    #: Its sign: "-" makes the typed points negative. A phone's numeric keypad (iOS's has
    #: no minus key) types only digits, so the sign is chosen here, with or without
    #: JavaScript; a minus typed in the points counts too.
    sign = SelectField(_l("Sign"), choices=choices(("+", "+"), ("-", "\u2212")), default="+",
                       validate_choice=False)


def signed_points(points: str | None, sign: str | None) -> str:
    """The points as typed, made negative when the sign says minus (and they carry no
    sign of their own)."""
    text = (points or "").strip()
    if sign == "-" and text and text[0] not in "-\u2212+":
        return "-" + text
    return text


class HandForm(FlaskForm):
    number = HiddenField()
    version = HiddenField()
    #: The id of the hand being edited: it never moves, unlike its number.
    hand_id = HiddenField()
    hand_json = HiddenField()
    #: "1": the hand is given as each player's points, not its cards ("points only").
    points_only = HiddenField()
    #: The phone's key for this send (static/js/outbox.js): a send tried again after its
    #: answer was lost is told "stored" instead of storing the hand twice.
    client_key = HiddenField()
    #: An edited hand as the picker's script loads it (never submitted).
    initial_json: str = ""
    outcome = RadioField(_l("How the hand ended"), choices=choices(), validate_choice=False)
    going_rummy = BooleanField(_l("Went Rummy: all cards in one turn, nothing melded before"))


def outcome_choices(names: list[str], basic: bool) -> list[SelectChoice]:
    """Who went out (or how else the hand ended). A label is markup, so the player's name
    is escaped and isolated here (a lazy string with a name in it would be taken for
    safe markup by WTForms, name and all)."""
    pairs: list[tuple[str, Any]] = [
        (f"p{i}", html(gettext("%(name)s went out"), name=bdi(name)))
        for i, name in enumerate(names)]
    if basic:
        pairs.append((DRAW, _l("Draw: the stock ran out twice, nobody scores")))
    else:
        pairs.append((STOCK_OUT, _l("The stock ran out")))
    return choices(*pairs)


class LiveUndoForm(FlaskForm):
    """"Take back": the move the page named (the id of its last card)."""

    version = HiddenField()
    move = HiddenField()


class LiveCancelForm(FlaskForm):
    """Cancel a live hand (no move yet) or abandon it (``confirm``: throw its moves
    away); ``moves`` is how many moves the page showed."""

    moves = HiddenField()
    confirm = BooleanField(_l("Yes, throw away what was recorded in this hand"))


class LiveMeldForm(FlaskForm):
    player = RadioField(_l("Who put it down"), choices=choices(), validate_choice=False)
    cards = StringField(_l("Cards"))
    version = HiddenField()


#: Where an ace that fits both ends of a run 2…K goes (``values.ace-end``).
END_CHOICES = (("low", _l("Low end (A-2-3)")),
               ("high", _l("High end (Q-K-A)")))


class LiveLayoffForm(FlaskForm):
    player = RadioField(_l("Who laid it off"), choices=choices(), validate_choice=False)
    card = StringField(_l("Card"))
    onto = RadioField(_l("On which meld"), choices=choices(), validate_choice=False)
    end = RadioField(_l("Which end of the run"), choices=choices(*END_CHOICES),
                     validate_choice=False)
    version = HiddenField()


class StrandedForm(Form):
    """The cards left in one player's hand at the end of a live hand."""

    hand = StringField(_l("Cards left in hand"))
    #: Instead of the cards, where nobody remembers them: their points (issue 27).
    held = StringField(_l("Points left in hand, if nobody remembers the cards"))


class LiveFinishForm(FlaskForm):
    version = HiddenField()
    outcome = RadioField(_l("How the hand ended"), choices=choices(), validate_choice=False)
    going_rummy = BooleanField(_l("Went Rummy: all cards in one turn, nothing melded before"))
