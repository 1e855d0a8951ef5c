"""Taking from the discard pile, and calling "Rummy!".

The pile is a list from bottom to top; ``take`` counts cards from the top, so
``take=1`` is the top card alone and the card concerned is ``pile[-take]``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .arrange import Way, pool_of, ways_to_meld
from .cards import Card
from .rules import RuleSet, RummyCall
from .table import Table
from .verdict import Param, Verdict


class DrawError(ValueError):
    """A question about the pile that makes no sense (taking more cards than it holds, or
    a card taken that is not in the hand: ``card``)."""

    def __init__(self, message: str, card: Card | None = None) -> None:
        super().__init__(message)
        self.card = card


def same_card_code(card: Card, others: int, take: int) -> str:
    """The verdict code of a discard refused under ``discard.not-same``: ``card`` (taken
    alone, ``take`` 1, or the deepest of several) is discarded again, and the player holds
    ``others`` more cards that count as the same card.  Any joker counts as any other,
    with one deck as with two (``draw.…-joker``); the other copy of a natural card exists
    only with two decks (``draw.…-copy``)."""
    kind = "draw.same-discard" if take == 1 else "draw.deepest-discard"
    if not others:
        return kind
    return kind + ("-joker" if card.is_joker else "-copy")


def check_draw(rules: RuleSet, table: Table, pile: Sequence[Card], hand: Sequence[Card],
               take: int, discard: Card | None = None) -> Verdict:
    """May a player holding ``hand`` take the top ``take`` cards of the pile?

    ``detail["ways"]`` lists how the deepest card taken could be melded at once
    (:class:`~referee.arrange.Way`).  ``discard`` is the card they then mean to
    discard, checked against ``discard.not-same``: never the card taken alone, never
    the deepest card taken, and with two decks never the other copy of either (any joker
    counts as any other, with one deck as with two); when the card taken must be melded at
    once, the discard is not available to meld it with.  ``draw.deep-new-meld`` binds a
    draw of more than the top card only.
    """
    if not 1 <= take <= len(pile):
        raise DrawError(f"take must be from 1 to {len(pile)}, the cards in the pile")
    card = pile[-take]
    above = pile[len(pile) - take + 1:]
    params: dict[str, Param] = {"card": card, "take": take}
    detail: dict[str, object] = {"ways": (), "card": card, "taken": tuple(pile[-take:])}
    if take > 1 and not rules.deep_draws:
        return Verdict(False, "draw.basic-top-only", ("draw.basic",), params, detail)
    if discard is not None and discard.natural == card.natural:
        # the card taken alone, or the deepest card taken, is not discarded this turn; with
        # two decks its other copy counts as the same card, and any joker as any other
        others = sum(1 for c in [*hand, *above] if c.natural == card.natural)
        code = same_card_code(card, others, take)
        refused = ("discard.not-same",) if take == 1 else ("discard.not-same", "draw.deep")
        return Verdict(False, code, refused, params, detail)
    pool = pool_of(list(hand) + list(above))
    must_meld = take > 1 or rules.draw_must_meld
    if must_meld and discard is not None and pool[discard.natural]:
        # the card discarded at the end of the turn cannot also be melded with this one
        pool[discard.natural] -= 1
    ways = ways_to_meld(card, pool, table, rules)
    new_melds = [w for w in ways if w.kind == "meld"]
    detail["ways"] = tuple(ways)
    if must_meld:
        rule = "draw.deep" if take > 1 else "draw.must-meld"
        if not ways:
            code = "draw.deep-cannot-meld" if take > 1 else "draw.must-meld"
            return Verdict(False, code, (rule,), params, detail)
        # draw.deep-new-meld binds a draw of more than the top card only: the top card
        # taken alone is bound by draw.must-meld alone (melded or laid off, either will do)
        if take > 1 and rules.deep_draw_new_meld and not new_melds:
            return Verdict(False, "draw.deep-needs-new-meld", (rule, "draw.deep-new-meld"),
                           params, detail)
        if take > 1 and rules.deep_draw_new_meld:
            detail["ways"] = tuple(new_melds)
    if take == 1:
        rule_ids: tuple[str, ...] = ("draw.stock-or-top",)
        if not rules.deep_draws:  # basic: the top card is the only one there is to take
            rule_ids += ("draw.basic",)
        if rules.draw_must_meld:
            rule_ids += ("draw.must-meld",)
            return Verdict(True, "draw.top-ok-meld", rule_ids, params, detail)
        return Verdict(True, "draw.top-ok", rule_ids, params, detail)
    rule_ids = ("draw.deep", "draw.deep-new-meld") if rules.deep_draw_new_meld else (
        "draw.deep",)
    return Verdict(True, "draw.deep-ok", rule_ids, params, detail)


@dataclass(frozen=True, slots=True)
class Callable:
    """A pile card that can be melded with no card from any hand: ``take`` cards
    must be taken to reach it, and ``how`` is one way to meld it."""

    card: Card
    index: int  # from the bottom of the pile
    take: int
    how: Way


def callable_cards(table: Table, pile: Sequence[Card], rules: RuleSet) -> list[Callable]:
    """Every card in the pile that can be melded without any card from a hand
    (``rummy.call``), deepest first, under the rule set's ``rummy_call`` mode."""
    if rules.rummy_call == RummyCall.OFF or not pile:
        return []
    if rules.rummy_call == RummyCall.TOP:
        ways = ways_to_meld(pile[-1], Counter(), table, rules, direct_only=True, limit=1)
        return [Callable(pile[-1], len(pile) - 1, 1, ways[0])] if ways else []
    found = []
    above: Counter[Card] = Counter()
    for index in range(len(pile) - 1, -1, -1):
        card = pile[index]
        ways = ways_to_meld(card, above, table, rules, limit=1)
        if ways:
            found.append(Callable(card, index, len(pile) - index, ways[0]))
        above[card.natural] += 1
    found.reverse()
    return found


def check_rummy_call(rules: RuleSet, table: Table, pile: Sequence[Card], discarder: str,
                     caller: str, *, next_player_drew: bool = False, hand_over: bool = False
                     ) -> Verdict:
    """May ``caller`` call "Rummy!" now?  ``detail`` has ``callable`` (every
    callable card, deepest first), ``deepest`` and ``take``."""
    found = callable_cards(table, pile, rules)
    deepest = found[0] if found else None
    detail = {"callable": tuple(found), "deepest": deepest,
              "take": deepest.take if deepest else 0}
    params: dict[str, Param] = {"caller": caller, "discarder": discarder}
    if rules.rummy_call == RummyCall.OFF:
        return Verdict(False, "rummy.off", ("rummy.mode",), params, detail)
    if hand_over:
        return Verdict(False, "rummy.hand-over", ("rummy.after-out",), params, detail)
    if next_player_drew:
        return Verdict(False, "rummy.too-late", ("rummy.call",), params, detail)
    if caller == discarder:
        return Verdict(False, "rummy.own-discard", ("rummy.call", "rummy.own-meld"), params,
                       detail)
    mode = ("rummy.call", "rummy.mode") if rules.rummy_call == RummyCall.TOP else (
        "rummy.call",)
    if deepest is None:
        if rules.rummy_call == RummyCall.TOP and pile:
            # only the latest discard counts in this game, laid off alone on a table meld
            return Verdict(False, "rummy.top-nothing", mode, {**params, "card": pile[-1]},
                           detail)
        return Verdict(False, "rummy.nothing", mode, params, detail)
    return Verdict(True, "rummy.ok", mode,
                   {**params, "card": deepest.card, "take": deepest.take}, detail)
