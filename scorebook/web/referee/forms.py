"""The forms of the referee pages: a rule set (family and house rules) and the
question of each tool.  They are GET forms: the question lives in the URL, so
every verdict has a permalink that opens to the same answer."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf.i18n import translations as wtforms_translations
from werkzeug.datastructures import MultiDict
from wtforms import (
    BooleanField,
    Form,
    IntegerField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import NumberRange, Optional
from wtforms.widgets import HiddenInput

from referee.rules import FAMILIES, FAMILY_NAMES, OPTION_SPECS, OptionSpec
from scorebook.plain_text import MAX_ID
from scorebook.presenters.cards import typed


def choices(*pairs: tuple[str, Any]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


FAMILY_DEFAULT = ("", _l("as the family plays it"))
TRI_STATE = choices(FAMILY_DEFAULT, ("on", _l("on")), ("off", _l("off")))

#: Each house rule's name on the referee pages (shorter than the new-game form's).
OPTION_LABELS: dict[str, Any] = {
    "jokers": _l("Jokers"),
    "values": _l("Card values"),
    "low_ace_value": _l("Low ace (A-2-3) scores"),
    "rummy_call": _l("\"Rummy!\" calls"),
    "draw_must_meld": _l("A card taken from the pile must be melded"),
    "deep_draw_new_meld": _l("The deepest card taken starts a new meld"),
    "discard_required": _l("Going out needs a last discard"),
    "floating": _l("Floating"),
    "unplayable_discard": _l("The last discard must be unplayable"),
    "must_go_out": _l("Must go out to win"),
    "min_natural_cards": _l("Real cards a meld needs"),
    "one_meld_per_turn": _l("One new meld per turn"),
    "target": _l("Target"),
}
#: The words of the choices that are not simply on or off, by value.
CHOICE_LABELS: dict[str, dict[Any, Any]] = {
    "values": {"face": _l("face value"), "5-10-15": _l("5-10-15")},
    "low_ace_value": {1: "1", 5: "5", 15: "15"},
    "rummy_call": {"off": _l("never"), "top": _l("latest discard only"),
                   "pile": _l("anywhere in the pile")},
    "min_natural_cards": {1: "1", 0: "0"},
}
#: The house rules, in the order the form shows them: the rule set's, whole numbers last.
OPTION_FIELDS = tuple([o.name for o in OPTION_SPECS if o.kind != "number"]
                      + [o.name for o in OPTION_SPECS if o.kind == "number"])


def _option_field(spec: OptionSpec) -> Any:
    """A house rule's field, from its declaration: on/off/the family's, a choice or the
    family's, or a whole number (empty: the family's)."""
    label = OPTION_LABELS[spec.name]
    if spec.kind == "bool":
        return SelectField(label, choices=TRI_STATE, default="")
    if spec.kind == "choice":
        words = CHOICE_LABELS[spec.name]
        return SelectField(label, default="", choices=choices(
            FAMILY_DEFAULT, *((str(v), words[v]) for v in spec.choices)))
    return IntegerField(label, validators=[Optional(), NumberRange(spec.minimum, spec.maximum)])


class RulesForm(Form):
    """A family plus house-rule overrides; empty fields keep the family's default."""

    class Meta:
        def get_translations(self, form: Any) -> Any:
            """WTForms' own messages ("Number must be between…") in the page's language."""
            return wtforms_translations

    family = SelectField(_l("Game"),
                         choices=choices(*((f, _l(FAMILY_NAMES[f])) for f in FAMILIES)),
                         default="pagat-500")
    players = IntegerField(_l("Players at the table"), default=4,
                           validators=[Optional(), NumberRange(2, 8)])
    #: Asked from a game: that game's rules (and its live hand's table) are used.
    game = IntegerField(widget=HiddenInput(), validators=[Optional(), NumberRange(1, MAX_ID)])

    def option_fields(self) -> list[Any]:
        """The house-rule fields (not the family, the players, nor a tool's own fields)."""
        return [getattr(self, name) for name in OPTION_FIELDS]

    def rules_body(self) -> dict[str, Any]:
        """The ``rules`` object of an API body."""
        body: dict[str, Any] = {"family": self.family.data}
        for spec in OPTION_SPECS:
            data = getattr(self, spec.name).data
            if spec.kind == "number":
                if data is not None:
                    body[spec.name] = data
            elif not data:
                continue  # the family's own
            elif spec.kind == "bool":
                body[spec.name] = data == "on"
            else:
                body[spec.name] = next((v for v in spec.choices if str(v) == data), data)
        return body


# The house-rule fields, one per option the rule set declares.
for _spec in OPTION_SPECS:
    setattr(RulesForm, _spec.name, _option_field(_spec))


class Typed:
    """Cards written in the letters of the page's language when a help text is shown
    (``Typed("7S 10H")``: ``7s 10h`` in English, ``7p 10c`` in Spanish), for the examples
    of a lazy help text; ``before`` and ``after``: text around them."""

    def __init__(self, cards: str, before: str = "", after: str = "") -> None:
        self.cards, self.before, self.after = cards, before, after

    def __str__(self) -> str:
        return self.before + typed(self.cards) + self.after


TABLE_HELP = _l("One meld per line, its cards in the order they lie; before them, if it "
                "matters, an id, the owner in brackets and a colon. Mark a card laid off by "
                "someone else with @name: “%(line)s”.",
                line=Typed("5H 6H 7H 8H", before="A (Ada): ", after="@Bo"))
CARDS_HELP = _l("Type cards like %(cards)s, JK for a joker, %(joker)s for a joker declared "
                "as 8♥.", cards=Typed("7S 10H QD"), joker=Typed("JK=8H"))


class MeldForm(RulesForm):
    cards = StringField(_l("The meld"), description=CARDS_HELP)


class LayoffForm(RulesForm):
    table = TextAreaField(_l("Melds on the table"), description=TABLE_HELP)
    card = StringField(_l("The card to lay off"), description=CARDS_HELP)
    meld = StringField(_l("On meld (id, optional)"))


class DrawForm(RulesForm):
    table = TextAreaField(_l("Melds on the table"), description=TABLE_HELP)
    pile = StringField(_l("Discard pile, bottom to top"), description=CARDS_HELP)
    hand = StringField(_l("The player's hand"), description=CARDS_HELP)
    take = IntegerField(_l("Cards taken from the top"), default=1,
                        validators=[Optional(), NumberRange(1, 108)])
    discard = StringField(_l("Card they then discard (optional)"))


class RummyCallForm(RulesForm):
    table = TextAreaField(_l("Melds on the table"), description=TABLE_HELP)
    pile = StringField(_l("Discard pile, bottom to top"), description=CARDS_HELP)
    discarder = StringField(_l("Who discarded last"), default="")
    caller = StringField(_l("Who calls \"Rummy!\""), default="")
    next_player_drew = BooleanField(_l("The next player has already drawn"))
    hand_over = BooleanField(_l("The hand is already over"))


class GoingOutForm(RulesForm):
    table = TextAreaField(_l("Melds on the table"), description=TABLE_HELP)
    hand = StringField(_l("The player's cards"), description=CARDS_HELP)
    discard = StringField(_l("The last discard (empty: meld every card)"))
    took = StringField(_l("Cards taken from the discard pile this turn, bottom to top "
                          "(optional)"),
                       description=_l("The first is the deepest card taken; they are among "
                                      "the player's cards above."))


_LINE = re.compile(r"^\s*(?P<id>[^:()]+?)\s*(?:\((?P<owner>[^)]*)\))?\s*:\s*(?P<cards>.*)$")
#: A card, with ``@name`` or ``@"a name with spaces"`` when someone else laid it off.
_TOKEN = re.compile(r'[^\s@]+@"[^"]*"|\S+')


def _free_id(taken: set[str]) -> str:
    """The next meld id no line uses yet: A, B, … Z, then M27, M28, …"""
    for k in range(len(taken) + 1):
        meld_id = chr(65 + k) if k < 26 else f"M{k + 1}"
        if meld_id not in taken:
            return meld_id
    raise AssertionError("unreachable")  # pragma: no cover


#: The fields of the tools that take cards (besides the table): typed in the page's
#: letters, sent on in the canonical ones.
CARD_FIELDS = ("cards", "card", "pile", "hand", "discard", "took")


def _cards_text(text: str, card: Callable[[str], str]) -> str:
    """The cards of one field, each token put through ``card`` (tokens kept apart as the
    questions keep them: spaces, tabs, line breaks, commas, semicolons; never another
    space, which the question refuses as cards written together)."""
    return " ".join(card(token) for token in re.split(r"[ \t\n\r,;]+", text) if token)


def _table_text(text: str, card: Callable[[str], str]) -> str:
    """The table's text with every card (not the ids, owners or ``@names``) put through
    ``card``."""
    lines = []
    for line in text.splitlines():
        match = _LINE.match(line)
        head, body = (line[:match.start("cards")], match.group("cards")) if match else ("", line)

        def one(found: re.Match[str]) -> str:
            token = found.group(0)
            at = token.find("@")
            return card(token) if at < 0 else card(token[:at]) + token[at:]

        lines.append(head + _TOKEN.sub(one, body))
    return "\n".join(lines)


def rewrite_cards(args: MultiDict[str, str], card: Callable[[str], str]) -> MultiDict[str, str]:
    """The question ``args`` with every card of its card fields and table put through
    ``card`` (which may raise :class:`referee.CardError`)."""
    out: MultiDict[str, str] = MultiDict()
    for key, value in args.items(multi=True):
        if key in CARD_FIELDS:
            value = _cards_text(value, card)
        elif key == "table":
            value = _table_text(value, card)
        out.add(key, value)
    return out


def table_body(text: str | None) -> list[dict[str, Any]]:
    """The API's table from the text area (``A (Ann): 5H 6H 7H 8H@Ben``)."""
    lines = [line for line in (text or "").splitlines() if line.strip()]
    matches = [_LINE.match(line) for line in lines]
    taken = {m.group("id").strip() for m in matches if m}
    melds: list[dict[str, Any]] = []
    for line, match in zip(lines, matches, strict=True):
        # a line of cards only (no "id:") is a meld of its own, under a free letter
        if match:
            meld_id, owner, body = (match.group("id").strip(),
                                    (match.group("owner") or "").strip() or None,
                                    match.group("cards"))
        else:
            meld_id, owner, body = _free_id(taken), None, line
            taken.add(meld_id)
        cards: list[Any] = []
        for token in _TOKEN.findall(body):
            card, _, by = token.partition("@")
            by = by.strip('"').strip()
            cards.append({"card": card, "by": by} if by else card)
        meld: dict[str, Any] = {"id": meld_id, "cards": cards}
        if owner:
            meld["owner"] = owner
        melds.append(meld)
    return melds
