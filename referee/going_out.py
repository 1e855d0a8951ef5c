"""Going out: melding every card, with or without a last discard, and floating."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .arrange import Step, can_meld, meld_all, pool_of
from .cards import Card
from .draws import DrawError, same_card_code
from .rules import RuleSet
from .table import Table
from .verdict import Param, Verdict


def check_going_out(rules: RuleSet, table: Table, hand: Sequence[Card],
                    discard: Card | None = None, took: Sequence[Card] = ()) -> Verdict:
    """May a player holding ``hand`` go out now, melding every card but ``discard``
    (or every card, when ``discard`` is None)?

    ``took`` is what they took from the discard pile this turn, listed bottom to top
    like the pile (``took[0]`` is the deepest card taken); its cards are part of
    ``hand``.  The whole of ``draw.deep`` and ``discard.not-same`` applies to a turn
    that ends the hand: a card taken alone is not the discard; of several, the deepest
    must be melded this turn, so it is never the discard and, with
    ``deep_draw_new_meld``, it starts a new meld (in the plan too; the top card taken
    alone is not bound by that house rule); with two decks the other copy of either
    counts as the same card, and any joker counts as any other, with one deck as with
    two; in Basic Rummy only the top card may be taken (``draw.basic``).
    ``detail["plan"]`` is one way to meld the cards.

    Raises :class:`~referee.draws.DrawError` when ``took`` lists a card ``hand`` does
    not hold.
    """
    _check_took(hand, took)
    remaining = list(hand)
    params: dict[str, Param] = {}
    if discard is not None:
        params["card"] = discard
        for i, c in enumerate(remaining):
            if c.natural == discard.natural:
                del remaining[i]
                break
        else:
            return Verdict(False, "out.discard-not-in-hand", ("out.empty-hand",), params)
    deepest = took[0] if took else None
    if len(took) > 1 and not rules.deep_draws:
        return Verdict(False, "draw.basic-top-only", ("draw.basic",),
                       {"card": took[0], "take": len(took)})
    if discard is not None and deepest is not None and deepest.natural == discard.natural:
        # two of it in the hand: the one discarded may be the other copy (two decks) or
        # the other joker, which counts as the same card
        others = sum(1 for c in hand if c.natural == deepest.natural) - 1
        code = same_card_code(deepest, others, len(took))
        if len(took) == 1:
            return Verdict(False, code, ("discard.not-same", "out.floating") if rules.floating
                           else ("discard.not-same",), params)
        return Verdict(False, code, ("discard.not-same", "draw.deep"), params)
    # the deepest of several cards taken is melded whatever the plan (the top card taken
    # alone under draw_must_meld is melded too, but the plan melds every card anyway); the
    # house rule draw.deep-new-meld wants the deepest of several in a new meld: it does not
    # bind the top card taken alone
    new_meld = deepest if len(took) > 1 and rules.deep_draw_new_meld else None
    drew: tuple[str, ...] = ()
    if len(took) > 1:
        drew = ("draw.deep", "draw.deep-new-meld") if new_meld else ("draw.deep",)
    budget = 1 if rules.one_meld_per_turn else None
    # Without the new-meld constraint first: when no plan melds every card that is the
    # whole answer (and the slowest search, done once); a plan that already starts a new
    # meld with the deepest card does for the house rule too.
    plan = meld_all(remaining, table, rules, budget)
    if plan is not None and new_meld is not None and not _in_a_new_meld(plan, new_meld):
        plan = meld_all(remaining, table, rules, budget, new_meld=new_meld)
        if plan is None:
            return Verdict(False, "out.deep-needs-new-meld", ("out.empty-hand", *drew),
                           {**params, "card": new_meld})
    if plan is None:
        return _why_not(rules, table, remaining, budget, new_meld, params)
    detail = {"plan": tuple(plan)}
    if discard is None:
        if not remaining:
            return Verdict(True, "out.ok", ("out.empty-hand", *drew), {}, detail)
        if rules.discard_required:
            return Verdict(False, "out.discard-required", ("out.discard-required",), params,
                           detail)
        if rules.floating:
            return Verdict(True, "out.floating", ("out.floating", *drew), params, detail)
        return Verdict(True, "out.ok", ("out.empty-hand", *drew), {}, detail)
    if rules.unplayable_discard:
        whole = meld_all([*remaining, discard], table, rules, budget, new_meld=new_meld)
        if whole is not None:
            return Verdict(False, "out.unplayable-discard",
                           ("out.unplayable-discard", "out.floating"), params,
                           {"plan": tuple(whole)})
    return Verdict(True, "out.ok-discard", ("out.empty-hand", *drew), params, detail)


def _check_took(hand: Sequence[Card], took: Sequence[Card]) -> None:
    held = Counter(c.natural for c in hand)
    for card in took:
        if not held[card.natural]:
            raise DrawError(f"took lists {card}, which is not in the hand: the hand is every "
                            "card the player holds, the cards taken included", card)
        held[card.natural] -= 1


def _in_a_new_meld(plan: Sequence[Step], card: Card) -> bool:
    return any(step.meld_id is None and any(c.natural == card.natural for c in step.cards)
               for step in plan)


def _why_not(rules: RuleSet, table: Table, remaining: Sequence[Card], budget: int | None,
             new_meld: Card | None, params: dict[str, Param]) -> Verdict:
    """The real reason no plan melds every card: only one new meld is allowed this turn,
    or some cards cannot be melded at all."""
    if budget is not None and meld_all(remaining, table, rules, None,
                                       new_meld=new_meld) is not None:
        return Verdict(False, "out.one-meld-per-turn", ("out.empty-hand", "meld.once-per-turn"),
                       params)
    stuck = _unmeldable(remaining, table, rules)
    return Verdict(False, "out.cannot-meld", ("out.empty-hand",),
                   {**params, "cards": tuple(stuck)})


def _unmeldable(cards: Sequence[Card], table: Table, rules: RuleSet) -> list[Card]:
    """The cards that cannot be melded with the others at all; where each could be
    on its own but not all together, every card."""
    stuck = []
    for i, card in enumerate(cards):
        rest = pool_of([*cards[:i], *cards[i + 1:]])
        if not can_meld(card, rest, table, rules):
            stuck.append(card)
    return stuck or list(cards)
