"""How the referee's verdicts read on a page.

The referee speaks in canonical card text (``7S``, ``JK=8H``) and meld ids; a page
shows cards with their suit symbols (which read the same in every language) and a
live hand's melds by name (“Ann's meld 2”), in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext

from referee import Verdict, parse_card
from referee.verdict import render
from scorebook.bidi import isolate

#: A card in its canonical text form inside a verdict's parameters (``7S``, ``JK=8H``).
CARD_TEXT = re.compile(
    r"(?<![\w=])(?:JK(?:=(?:10|[2-9AJQK])[SHDC]?)?|(?:10|[2-9AJQK])[SHDC])(?!\w)")
#: The parameters of a verdict that hold cards, and those that hold meld ids.
CARD_PARAMS = ("card", "cards", "readings")
MELD_PARAMS = ("meld", "targets")
#: The parameters that hold names people typed: isolated from the text around them.
NAME_PARAMS = ("winner", "player", "players", "caller", "name")


def pretty_cards(text: str) -> str:
    """``7S JK=8H`` → ``7♠ 🃏=8♥``."""
    return CARD_TEXT.sub(lambda m: parse_card(m.group(0)).pretty(), text)


def meld_label(player: str, k: int) -> str:
    """A live meld's id within its hand: its owner and its number among their melds."""
    return f"{player}-{k}"


def meld_label_parts(label: str) -> tuple[str, int] | None:
    """The owner and number in a label made by :func:`meld_label` (None for others)."""
    owner, dash, k = label.rpartition("-")
    return (owner, int(k)) if owner and dash and k.isdigit() else None


def meld_name(label: str) -> str:
    """``Ann-2`` → “Ann's meld 2”; any other id as it is."""
    parts = meld_label_parts(label)
    if parts is None:
        return isolate(label)
    return gettext("%(name)s's meld %(number)s", name=isolate(parts[0]), number=parts[1])


def page_params(params: Mapping[str, Any], name_melds: bool = True) -> dict[str, Any]:
    """A verdict's parameters as a page shows them (meld ids as they are when not
    ``name_melds``: the referee's own pages show the ids the question gave)."""
    out = dict(params)
    for key, value in params.items():
        if not isinstance(value, str):
            continue
        if key in CARD_PARAMS:
            out[key] = pretty_cards(value)
        elif key in MELD_PARAMS:
            out[key] = ", ".join(_quoted_meld(v) if name_melds else isolate(v)
                                 for v in value.split(", "))
        elif key in NAME_PARAMS:
            out[key] = isolate(value)
    return out


def _quoted_meld(label: str) -> str:
    """A live meld by its name, quoted (the verdicts say “meld %(meld)s”); others as is."""
    if meld_label_parts(label) is None:
        return isolate(label)
    return gettext("“%(meld)s”", meld=meld_name(label))


def explain(verdict: Verdict) -> str:
    """A referee verdict in the reader's language, as a page shows it."""
    return render(gettext(verdict.template), page_params(verdict.params))
