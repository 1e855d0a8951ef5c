"""The replay page of a played hand (issue 29): the log the referee replayed
(:mod:`referee.replay`, through :func:`scorebook.services.played.hand_log`) worded for a
page in the reader's language — each move as a sentence with its cards drawn as the
site draws cards, the pile after it, a move the table agreed to with the rule it broke,
and the answers the log gives with the rules they rest on.

Nothing here replays: every step, pile and answer is the referee's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import url_for
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from referee import Card, Verdict
from referee import log_answers as ask
from referee.log import CallRummy, Discard, DrawStock, LayOff, Meld, StockOut, TakePile
from referee.replay import Replay, Step
from referee.rulebook import RULES_BY_ID
from scorebook.presenters.bidi import bdi, html, isolate
from scorebook.presenters.cards import card_html, cards_html
from scorebook.presenters.wording import explain, meld_phrase

#: The answers the log gives, in the order the page lists them, with their headings
#: (referee.log_answers: the eleven questions a table asks of its log).
ANSWER_TITLES: dict[str, Any] = {
    "turn": _l("Whose turn, and who deals next"),
    "pile": _l("How deep the pile may be taken"),
    "may_discard": _l("May this card be discarded"),
    "may_call": _l("Who may call “Rummy!” now"),
    "after_call": _l("After the last “Rummy!” call"),
    "first_call": _l("Who called first"),
    "discard_meldable": _l("Could the last discard be played"),
    "stock": _l("When the stock runs out"),
    "going_rummy": _l("Going Rummy"),
    "out_discard": _l("The discard that went out"),
}


@dataclass(frozen=True)
class RuleLink:
    """A rule a sentence rests on: its id, its title and where the rule book has it."""

    id: str
    title: str
    url: str | None


@dataclass(frozen=True)
class Said:
    """A referee's answer worded for the page, with the rules it cites."""

    text: str
    legal: bool
    rules: list[RuleLink]
    who: str | None = None


@dataclass(frozen=True)
class ShownStep:
    """One move of the log as the page shows it."""

    number: int
    player: str
    kind: str
    text: Markup
    pile: tuple[Card, ...]
    stock: int
    to_play: str | None
    overridden: Said | None
    notes: list[str] = field(default_factory=list)


def rule_links(rule_ids: Iterable[str], family: str) -> list[RuleLink]:
    """The rules cited, each linked into the family's rule book where it has the rule."""
    out = []
    for rule_id in rule_ids:
        rule = RULES_BY_ID.get(rule_id)
        out.append(RuleLink(rule_id, gettext(rule.title) if rule else rule_id,
                            url_for("rulebook.family", family=family, _anchor=rule_id)
                            if rule else None))
    return out


def said(verdict: Verdict, family: str, who: str | None = None) -> Said:
    return Said(explain(verdict), verdict.legal, rule_links(verdict.rules, family), who)


def _name(player: str) -> Markup:
    return bdi(player)


def move_text(walk: Replay, step: Step) -> Markup:
    """What the player did, in a sentence with the cards drawn as cards."""
    move = step.move
    name = _name(move.player)
    before = walk.steps[step.index - 1].pile if step.index else (walk.deal.upcard,)
    if isinstance(move, DrawStock):
        if move.card is not None:
            return html(gettext("%(name)s drew %(card)s from the stock."), name=name,
                        card=card_html(move.card))
        return html(gettext("%(name)s drew from the stock."), name=name)
    if isinstance(move, TakePile):
        down_to = before[-move.take] if 1 <= move.take <= len(before) else None
        if move.take == 1 and down_to is not None:
            return html(gettext("%(name)s took the top discard, %(card)s."), name=name,
                        card=card_html(down_to))
        return html(gettext("%(name)s took the pile down to %(card)s (%(count)s)."),
                    name=name, card=card_html(down_to) if down_to else "",
                    count=ngettext("%(num)s card", "%(num)s cards", move.take))
    if isinstance(move, Meld):
        return html(gettext("%(name)s melded %(cards)s."), name=name,
                    cards=cards_html(move.cards))
    if isinstance(move, LayOff):
        text = html(gettext("%(name)s laid off %(card)s %(on_meld)s."), name=name,
                    card=card_html(move.card), on_meld=meld_phrase(None, None, move.onto))
        if move.end == "low":
            text += Markup(" ") + gettext("At the low end.")
        elif move.end == "high":
            text += Markup(" ") + gettext("At the high end.")
        return text
    if isinstance(move, Discard):
        return html(gettext("%(name)s discarded %(card)s."), name=name,
                    card=card_html(move.card))
    if isinstance(move, CallRummy):
        call = next((c for c in walk.calls if c.step == step.index), None)
        if call is not None:
            return html(gettext("%(name)s called “Rummy!” on %(discarder)s's discard and "
                                "took the pile down to %(card)s."), name=name,
                        discarder=_name(call.discarder), card=card_html(call.card))
        return html(gettext("%(name)s called “Rummy!”."), name=name)
    assert isinstance(move, StockOut)
    return html(gettext("%(name)s found the stock empty."), name=name)


def note_text(note: str, player: str) -> str:
    """What else a move did (a reshuffle, going out, ...), in a sentence."""
    if note == "reshuffled":
        return gettext("The discard pile was turned over as the new stock.")
    if note == "went-out":
        return gettext("%(name)s went out.", name=isolate(player))
    if note == "floats":
        return gettext("%(name)s has no cards left and floats.", name=isolate(player))
    if note == "stock-out":
        return gettext("The stock ran out: the hand is over.")
    if note == "drawn":
        return gettext("The stock ran out again: the hand is a draw.")
    return note


def shown_steps(walk: Replay, family: str) -> list[ShownStep]:
    """Every step of the log as the page shows it, in order."""
    return [ShownStep(step.index + 1, step.move.player, step.move.kind,
                      move_text(walk, step), step.pile, step.stock, step.to_play,
                      said(step.overridden, family) if step.overridden is not None else None,
                      [note_text(n, step.move.player) for n in step.notes])
            for step in walk.steps]


def shown_answers(walk: Replay, family: str) -> list[tuple[str, list[Said]]]:
    """The answers the log gives (referee.log_answers), each under its heading: the
    sentence in the page's language and the rules it rests on."""
    answers: Mapping[str, Verdict] = ask.answers(walk)
    out: list[tuple[str, list[Said]]] = []
    for key, title in ANSWER_TITLES.items():
        if key == "may_call":
            out.append((str(title), [said(v, family, who) for who, v
                                     in ask.calls_now(walk).items()]))
        elif key in answers:
            out.append((str(title), [said(answers[key], family)]))
    return out
