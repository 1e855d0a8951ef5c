"""How the referee's verdicts read on a page: the one presenter of its messages.

The referee says what it found as a message id and typed parameters (cards, meld ids,
counts, names: :data:`referee.verdict.PLACEHOLDERS`); this module words them for a
page in the reader's language — the message through Babel, cards with their suit
symbols (which read the same in every language), a live hand's melds by name (“Ann's
meld 2”), lists joined the way the language joins them (“A, B y C”), names isolated
from the text around them, house rules by the names the new-game form gives them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, cast

from babel.lists import format_list
from flask_babel import get_locale, gettext
from flask_babel import lazy_gettext as _l

from referee import Card, RulesError, ScoringError, TableError, Verdict
from referee.rules import FAMILY_NAMES, Family
from referee.verdict import MESSAGES, PLACEHOLDERS, RULES_MESSAGES, Placeholder, render
from scorebook.models import DRAW, STOCK_OUT, WENT_OUT
from scorebook.presenters.bidi import isolate
from scorebook.presenters.i18n import number, option_label


def meld_label(player: str, k: int) -> str:
    """A live meld's id within its hand: its owner and its number among their melds."""
    return f"{player}-{k}"


def meld_label_parts(label: str) -> tuple[str, int] | None:
    """The owner and number in a label made by :func:`meld_label` (None for others)."""
    owner, dash, k = label.rpartition("-")
    return (owner, int(k)) if owner and dash and k.isascii() and k.isdigit() else None


def meld_name(label: str) -> str:
    """``Ann-2`` → “Ann's meld 2”; any other id as it is."""
    parts = meld_label_parts(label)
    if parts is None:
        return isolate(label)
    return gettext("%(name)s's meld %(number)s", name=isolate(parts[0]), number=parts[1])


def meld_phrase(name: str | None, number: int | None, label: str | None = None,
                role: Literal["on", "of"] = "on") -> str:
    """A meld named inside a sentence, with the word that leads to it: ``on`` (where a
    card is laid off: “on Ann's meld 2”; Italian “alla combinazione 2 di Ann”, Spanish
    “en la combinación 2 de Ann”) or ``of`` (its ends: “of Ann's meld 2”, “della
    combinazione 2 di Ann”).  Spanish and Italian put the article, joined to the
    preposition, in the phrase: a meld's name alone after a preposition reads “di
    combinazione 2”.  ``name`` and ``number`` name a player's meld, else ``label`` is a
    live meld's label (``Ann-2``) or a table's id (``A``)."""
    if name is None and label is not None:
        parts = meld_label_parts(label)
        if parts is not None:
            name, number = parts
    if name is None:
        ident = isolate(label or "")
        if role == "of":
            # Translators: "the low end of meld A": the id a question gave a table's meld
            return gettext("of meld %(id)s", id=ident)
        # Translators: "laid off on meld A": the id a question gave a table's meld
        return gettext("on meld %(id)s", id=ident)
    if role == "of":
        # Translators: "at both ends of Ann's meld 2": with the article the preposition
        # takes (Italian "della combinazione 2 di Ann", Spanish "de la combinación 2 de Ann")
        return gettext("of %(name)s's meld %(number)s", name=isolate(name), number=number)
    # Translators: "laid off on Ann's meld 2": with the article the preposition takes
    # (Italian "alla combinazione 2 di Ann", Spanish "en la combinación 2 de Ann")
    return gettext("on %(name)s's meld %(number)s", name=isolate(name), number=number)


def _quoted_meld(label: str) -> str:
    """A live meld by its name, quoted (the verdicts say “meld %(meld)s”); others as is."""
    if meld_label_parts(label) is None:
        return isolate(label)
    return gettext("“%(meld)s”", meld=meld_name(label))


def card_list(cards: Iterable[Card]) -> str:
    """``7♠ 🃏=8♥ 9♠``: cards with their suit symbols, in the order given."""
    return " ".join(c.pretty() for c in cards)


def word_list(items: Iterable[str], style: Literal["standard", "or"] = "standard") -> str:
    """Words joined as the page's language joins a list: “A, B and C”, “A, B y C”
    (``style="or"``: “A, B or C”, “A, B o C”)."""
    return format_list(list(items), style=style, locale=str(get_locale() or "en"))


def owned_meld(meld_id: str, owner: str | None) -> str:
    """A meld of a question's table by its id, with its owner when the table gave one:
    “A (Ann's)”."""
    if not owner:
        return isolate(meld_id)
    return gettext("%(meld)s (%(name)s's)", meld=isolate(meld_id), name=isolate(owner))


def param_text(name: str, value: Any, name_melds: bool = True,
               owners: Mapping[str, str] | None = None) -> str:
    """One parameter of a referee message as a page shows it (meld ids as they are when
    not ``name_melds``: the referee's own pages show the ids the question gave, with
    the owner the table gave each, ``owners``)."""
    kind = PLACEHOLDERS.get(name)
    if owners and not name_melds and kind is Placeholder.MELD:
        return owned_meld(value, owners.get(value))
    if owners and not name_melds and kind is Placeholder.MELDS:
        return word_list(owned_meld(v, owners.get(v)) for v in value)
    if kind is Placeholder.CARD:
        return str(value.pretty())
    if kind is Placeholder.CARDS:
        return card_list(value)
    if kind is Placeholder.READINGS:
        return "; ".join(card_list(r.cards) for r in value)
    if kind is Placeholder.MELD:
        return _quoted_meld(value) if name_melds else isolate(value)
    if kind is Placeholder.MELDS:
        return word_list(_quoted_meld(v) if name_melds else isolate(v) for v in value)
    if kind is Placeholder.NAME:
        return isolate(value)
    if kind is Placeholder.NAMES:
        return word_list(isolate(v) for v in value)
    if kind is Placeholder.OPTION:
        return option_label(value)
    if kind is Placeholder.FAMILY:
        return gettext(FAMILY_NAMES[value]) if value in FAMILY_NAMES else str(value)
    if kind is Placeholder.QUOTED:
        return gettext("“%(text)s”", text=isolate(str(value)))
    if kind is Placeholder.TEXT:
        return isolate(str(value))
    if kind is Placeholder.CHOICES:
        return word_list((c.pretty() for c in value), style="or")
    if kind is Placeholder.VERDICT:
        return explain(value, name_melds, owners=owners)
    if kind is Placeholder.COUNT and isinstance(value, int):
        return number(value)
    return str(value)


def say(template: str, params: Mapping[str, Any], name_melds: bool = True,
        owners: Mapping[str, str] | None = None) -> str:
    """A catalogued referee message (its English ``template``) in the page's language."""
    return render(gettext(template),
                  {k: param_text(k, v, name_melds, owners) for k, v in params.items()})


def explain(verdict: Verdict, name_melds: bool = True, plain: bool = False,
            owners: Mapping[str, str] | None = None) -> str:
    """A referee verdict in the reader's language, as a page shows it — or, ``plain``,
    as the JSON API says it: its parameters as the API's ``params`` write them (``7S``,
    ``A, B``), which in English is the referee's own :attr:`~referee.Verdict.message`."""
    if plain:
        return render(gettext(verdict.template), verdict.plain_params())
    return say(MESSAGES[verdict.code], verdict.params, name_melds, owners)


def log_refusal_text(verdict: Verdict, step: int | None) -> str:
    """Why a played-hand log cannot be replayed past a move, as the JSON API says it: the
    move's number (counted from 1) and the referee's reason, in the request's language."""
    reason = explain(verdict, plain=True)
    if step is None:
        return reason
    # Translators: why a logged hand cannot go on: "Move 3: It is Bo's turn, not Cy's."
    return gettext("Move %(number)s: %(reason)s", number=step + 1, reason=reason)


def rules_error_text(exc: RulesError) -> str:
    """Why a rule set cannot be built, in the page's language (the English of the error
    for the few a page's own choices can never produce)."""
    template = RULES_MESSAGES.get(exc.code)
    return str(exc) if template is None else say(template, exc.params)


def error_text(error: ScoringError | TableError, name_melds: bool = True) -> str:
    """Why a hand cannot have happened (:class:`~referee.ScoringError`), or a meld or
    lay-off cannot be placed (:class:`~referee.TableError`), in the page's language: its
    catalogued template and typed parameters, as a verdict's."""
    return say(error.template, error.params, name_melds)


def family_name(family: str) -> str:
    """A game family's name in the page's language ("500 Rum"); an unknown one as it is."""
    # (a Family is a StrEnum, equal to and hashed as its text: the stored family finds it)
    return gettext(FAMILY_NAMES.get(cast(Family, family), family))


#: How a hand ended, as the scoreboard and the exports name it.
ENDINGS = {
    WENT_OUT: _l("went out"),
    STOCK_OUT: _l("stock ran out"),
    DRAW: _l("draw"),
}


def ending_label(ending: str) -> str:
    """A hand's ending (``went-out``, ``stock``, ``draw``) in the page's language."""
    return str(ENDINGS.get(ending, ending))
