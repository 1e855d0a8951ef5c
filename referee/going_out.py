"""Going out: melding every card, with or without a last discard, and floating."""

from __future__ import annotations

from collections.abc import Sequence

from .arrange import Step, can_meld, meld_all, pool_of
from .cards import Card
from .rules import RuleSet
from .table import Table
from .verdict import Verdict


def check_going_out(rules: RuleSet, table: Table, hand: Sequence[Card],
                    discard: Card | None = None, took: Sequence[Card] = ()) -> Verdict:
    """May a player holding ``hand`` go out now, melding every card but ``discard``
    (or every card, when ``discard`` is None)?

    ``took`` is what they took from the discard pile this turn (to apply
    ``discard.not-same``).  ``detail["plan"]`` is one way to meld the cards.
    """
    remaining = list(hand)
    params: dict[str, object] = {}
    if discard is not None:
        params["card"] = str(discard)
        for i, c in enumerate(remaining):
            if c.natural == discard.natural:
                del remaining[i]
                break
        else:
            return Verdict(False, "out.discard-not-in-hand", ("out.empty-hand",), params)
        if len(took) == 1 and took[0].natural == discard.natural:
            return Verdict(False, "draw.same-discard", ("discard.not-same", "out.floating")
                           if rules.floating else ("discard.not-same",), params)
    budget = 1 if rules.one_meld_per_turn else None
    plan = meld_all(remaining, table, rules, budget)
    if plan is None:
        stuck = _unmeldable(remaining, table, rules)
        rule_ids = ("out.empty-hand", "meld.once-per-turn") if budget else ("out.empty-hand",)
        return Verdict(False, "out.cannot-meld", rule_ids,
                       {**params, "cards": " ".join(str(c) for c in stuck)})
    detail = {"plan": tuple(plan)}
    if discard is None:
        if not remaining:
            return Verdict(True, "out.ok", ("out.empty-hand",), {}, detail)
        if rules.discard_required:
            return Verdict(False, "out.discard-required", ("out.discard-required",), params,
                           detail)
        if rules.floating:
            return Verdict(True, "out.floating", ("out.floating",), params, detail)
        return Verdict(True, "out.ok", ("out.empty-hand",), {}, detail)
    if rules.unplayable_discard:
        whole = meld_all([*remaining, discard], table, rules, budget)
        if whole is not None:
            return Verdict(False, "out.unplayable-discard",
                           ("out.unplayable-discard", "out.floating"), params,
                           {"plan": tuple(whole)})
    return Verdict(True, "out.ok-discard", ("out.empty-hand",), params, detail)


def _unmeldable(cards: Sequence[Card], table: Table, rules: RuleSet) -> list[Card]:
    """The cards that cannot be melded with the others at all; where each could be
    on its own but not all together, every card."""
    stuck = []
    for i, card in enumerate(cards):
        rest = pool_of([*cards[:i], *cards[i + 1:]])
        if not can_meld(card, rest, table, rules):
            stuck.append(card)
    return stuck or list(cards)


def plan_text(plan: Sequence[Step]) -> list[str]:
    return [str(step) for step in plan]
