"""Flask-WTF forms of a game: the new game with its house rules (one field per option the
rule set declares), and the button that changes a hand (`VersionForm`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import NumberRange, Optional, ValidationError

from referee.rules import FAMILIES, FAMILY_NAMES, OPTION_BY_NAME, OPTION_SPECS, OptionSpec
from scorebook.plain_text import PlainText
from scorebook.presenters.options import OPTION_HELP
from scorebook.services.games import MAX_NAME_LENGTH

MAX_SEATS = 8
#: Seats the new-game form shows at first; "Add a seat" shows one more, up to MAX_SEATS.
SHOWN_SEATS = 4


def option_families(name: str) -> str:
    """The families a house rule is offered for, as the form's ``data-families`` (Basic
    Rummy fixes some: no jokers, aces worth 1, no deep draws, no "Rummy!" calls)."""
    return " ".join(OPTION_BY_NAME[name].offered_for())


DEFAULT = ""


def choices(*pairs: tuple[Any, Any]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


#: The words of each choice of the house rules that are not simply on or off, by value.
CHOICE_LABELS: dict[str, dict[Any, Any]] = {
    "values": {"face": _l("Face value"), "5-10-15": _l("5-10-15")},
    "low_ace_value": {1: "1", 5: "5", 15: "15"},
    "rummy_call": {"off": _l("Off"), "top": _l("Last discard only"),
                   "pile": _l("Whole pile")},
    "min_natural_cards": {1: _l("Not allowed (a natural card needed)"), 0: _l("Allowed")},
}
#: The choices as (stored value as text, words) pairs, in the order the rule set declares
#: them.
CHOICE_WORDS: dict[str, tuple[tuple[str, Any], ...]] = {
    spec.name: tuple((str(v), CHOICE_LABELS[spec.name][v]) for v in spec.choices)
    for spec in OPTION_SPECS if spec.kind == "choice"}
#: Choices the form asks outright, without "The family's default" (every family plays
#: the same, and the form names it).
ASKED_OUTRIGHT = ("min_natural_cards",)


def option_control(name: str) -> str:
    """How the new-game form asks for an option: ``"select"`` (a choice, or on/off where
    the families differ), ``"checkbox"`` (on, or the family's off) or ``"number"``."""
    spec = OPTION_BY_NAME[name]
    if spec.kind == "number":
        return "number"
    if spec.kind == "bool" and spec.uniform_default and not any(spec.defaults.values()):
        return "checkbox"
    return "select"


#: The house rules the form asks with a select, and with a checkbox, in rule-set order.
SELECT_OPTIONS = tuple(o.name for o in OPTION_SPECS if option_control(o.name) == "select")
BOOLEAN_OPTIONS = tuple(o.name for o in OPTION_SPECS if option_control(o.name) == "checkbox")


def house_rules_in_words(spec: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A game's house rules as the new-game form offered them: (name, choice) pairs."""
    words = []
    for key, value in spec.items():
        if key == "family":
            continue
        label = str(OPTION_HELP[key][0]) if key in OPTION_HELP else key
        if isinstance(value, bool):
            text = str(_l("On") if value else _l("Off"))
        elif key in CHOICE_WORDS:
            text = str(dict(CHOICE_WORDS[key]).get(str(value), value))
        else:
            text = str(value)
        words.append((label, text))
    return words


def _default_choice() -> tuple[str, Any]:
    return (DEFAULT, _l("The family's default"))


class NewGameForm(FlaskForm):
    players = FieldList(StringField(_l("Player"), filters=[lambda s: (s or "").strip()],
                                    validators=[PlainText()]),
                        min_entries=MAX_SEATS, max_entries=MAX_SEATS)
    first_dealer = RadioField(_l("First dealer"), coerce=int, default=0,
                              choices=choices(*[(i, str(i + 1)) for i in range(MAX_SEATS)]))
    family = RadioField(_l("Game"), default="pagat-500",
                        choices=choices(*[(f, _l(FAMILY_NAMES[f])) for f in FAMILIES]))
    #: How many seat rows the page shows (the rest wait behind "Add a seat").
    shown_seats: int = SHOWN_SEATS

    def visible_seats(self) -> int:
        """The rows to show: ``shown_seats``, and always every filled seat."""
        filled = [i for i, f in enumerate(self.players) if f.data]
        return min(MAX_SEATS, max(self.shown_seats, (filled[-1] + 1) if filled else 0))

    def seated(self) -> list[tuple[int, str]]:
        """(seat index, name) of every filled seat, in seating order."""
        return [(i, f.data) for i, f in enumerate(self.players) if f.data]

    def options(self) -> dict[str, Any]:
        """The options the table chose; None for the family's default."""
        return {spec.name: _chosen(spec, getattr(self, spec.name).data)
                for spec in OPTION_SPECS}

    def validate_players(self, field: FieldList) -> None:
        for entry in field:
            if entry.data and len(entry.data) > MAX_NAME_LENGTH:
                raise ValidationError(_l("A name can be at most %(max)s characters long.",
                                         max=MAX_NAME_LENGTH))


def _option_field(spec: OptionSpec) -> Any:
    """The new-game form's field for a house rule, from its declaration."""
    label = OPTION_HELP[spec.name][0]
    control = option_control(spec.name)
    if control == "number":
        return IntegerField(label, validators=[
            Optional(), NumberRange(min=spec.minimum, max=spec.maximum)])
    if control == "checkbox":
        return BooleanField(label)
    if spec.kind == "bool":
        pairs: list[tuple[Any, Any]] = [("on", _l("On")), ("off", _l("Off"))]
    else:
        pairs = list(CHOICE_WORDS[spec.name])
    if spec.name in ASKED_OUTRIGHT:
        return SelectField(label, default=str(_common_default(spec)),
                           choices=choices(*pairs))
    return SelectField(label, default=DEFAULT, choices=choices(_default_choice(), *pairs))


def _common_default(spec: OptionSpec) -> Any:
    """The value every family plays an option asked outright at."""
    assert spec.uniform_default, spec.name
    return next(iter(spec.defaults.values()))


def _chosen(spec: OptionSpec, data: Any) -> Any:
    """An option's field's data as the rule set's value; None for the family's own."""
    control = option_control(spec.name)
    if control == "number":
        return data
    if control == "checkbox":
        return True if data else None
    if spec.kind == "bool":
        return {"on": True, "off": False}.get(data or "")
    if not data or (spec.name in ASKED_OUTRIGHT and data == str(_common_default(spec))):
        return None
    return next(v for v in spec.choices if str(v) == data)


# The house-rule fields, one per option the rule set declares (in its order).
for _spec in OPTION_SPECS:
    setattr(NewGameForm, _spec.name, _option_field(_spec))


class VersionForm(FlaskForm):
    """A button that changes a hand: carries the hand (its id, which never moves) and
    the version the scorer saw."""

    version = HiddenField()
    hand_id = HiddenField()
