"""What a table asks about a hand it has logged, answered from the replay
(:mod:`referee.replay`): each answer a :class:`~referee.verdict.Verdict` citing the rule
ids it rests on.

1. :func:`after_call` — after the latest "Rummy!" call, who plays next and who lost
   their turn (``rummy.call``, ``rummy.mode``);
2. :func:`may_call` — may this player call now (``rummy.call``, ``rummy.own-meld``);
3. :func:`may_discard` — may the player to play discard this card now
   (``discard.not-same`` judges the current turn only);
4. :func:`going_rummy` — did the player who went out go Rummy (``score.going-rummy``);
5. and 7. :func:`stock` — the stock ran out: a reshuffle or a drawn hand
   (``basic.stock-reshuffle``), or the end of the hand (``out.stock-empty``);
6. :func:`first_call` — several players called on one discard: who took the pile;
8. :func:`whose_turn` — whose turn it is and who deals next (``turn.order``);
9. :func:`pile_depths` — which depths of the pile can be taken now (``draw.deep``);
10. :func:`out_discard` — was the going-out discard playable (``out.unplayable-discard``);
11. :func:`discard_meldable` — could the latest discard have been melded without a
    card from a hand (``rummy.call``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .arrange import pool_of, ways_to_meld
from .cards import Card
from .draws import check_draw
from .going_out import check_going_out
from .log import Discard
from .replay import DRAWN, OUT, STOCK, Replay
from .rules import RummyCall
from .table import check_layoff
from .turns import next_dealer
from .verdict import Param, Verdict


def after_call(log: Replay) -> Verdict:
    """Who plays after the latest call, and whose turn it skipped (``rummy.call``)."""
    if not log.calls:
        return Verdict(False, "log.no-call", ("rummy.call",))
    call = log.calls[-1]
    caller = log.seat(call.caller)
    params: dict[str, Param] = {"caller": call.caller, "discarder": call.discarder,
                                "card": call.card}
    if log.rules.rummy_call == RummyCall.TOP:
        back_to = log.next_seat(log.seat(call.discarder))
        return Verdict(True, "log.call-top", ("rummy.call", "rummy.mode"),
                       {**params, "player": log.name(back_to)})
    params["player"] = log.name(log.next_seat(caller))
    if call.skipped:
        return Verdict(True, "log.call-skips", ("rummy.call",),
                       {**params, "players": call.skipped})
    return Verdict(True, "log.call-skips-nobody", ("rummy.call",), params)


def may_call(log: Replay, player: str) -> Verdict:
    """May ``player`` call "Rummy!" now, on the pile as it is?  A card that could be
    called after the player's own discard, and still lies there after the next player's
    turn, is theirs to call now (``rummy.own-meld``)."""
    verdict = log.call_verdict(log.seat(player))
    deepest = verdict.detail.get("deepest")
    if not verdict.legal or deepest is None:
        return verdict
    for step in reversed(log.steps[:log.last_discard[2] if log.last_discard else 0]):
        if isinstance(step.move, Discard) and step.refused is None \
                and step.move.player == player:
            pile = step.pile
            if len(pile) > deepest.index and pile[deepest.index] == deepest.card \
                    and log.pile[:deepest.index + 1] == list(pile[:deepest.index + 1]):
                return Verdict(True, "log.call-own-later", ("rummy.call", "rummy.own-meld"),
                               {"caller": player, "card": deepest.card,
                                "take": deepest.take}, verdict.detail)
            break
    return verdict


def may_discard(log: Replay, card: Card, player: str | None = None) -> Verdict:
    """May ``player`` (the player to play) discard ``card`` now?  Only a card taken from
    the pile this turn is bound by ``discard.not-same``; a last card goes out
    (:func:`~referee.going_out.check_going_out`)."""
    if log.over is not None:
        return Verdict(False, "log.hand-over", ("turn.order",))
    name = player if player is not None else log.name(log.to_play)
    seat = log.seat(name)
    if seat != log.to_play:
        return Verdict(False, "log.out-of-turn", ("turn.order",),
                       {"player": name, "turn": log.name(log.to_play)})
    turn = log.turn
    if turn is None:
        return Verdict(False, "log.draw-first", ("turn.order",), {"player": name})
    if log.held[seat] == 1:
        left = Counter(c.natural for c in [*turn.played, card])
        left.subtract(c.natural for c in turn.took)
        if min(left.values(), default=0) < 0:  # the last card is one taken, not this one
            return Verdict(False, "out.discard-not-in-hand", ("out.empty-hand",),
                           {"card": card})
        return check_going_out(log.rules, turn.table, [*turn.played, card], card, turn.took)
    if turn.took and card.natural in [c.natural for c in turn.took]:
        hand = Counter(c.natural for c in [*turn.played, card])
        hand.subtract(c.natural for c in turn.took)
        verdict = check_draw(log.rules, turn.table_at_take, turn.pile_before,
                             list((+hand).elements()), len(turn.took), card)
        if not verdict.legal:
            return verdict
    if any(seat == taker and number < turn.number and card.natural in
           [c.natural for c in cards] for taker, number, cards in log.taken):
        return Verdict(True, "log.taken-earlier", ("discard.not-same",),
                       {"card": card, "player": name})
    return Verdict(True, "log.discard-ok", ("discard.not-same",), {"card": card})


def going_rummy(log: Replay, player: str | None = None) -> Verdict:
    """Did ``player`` (the one who went out) go Rummy: nothing melded or laid off before
    the turn they went out in (``score.going-rummy``, Basic Rummy only)?"""
    if not log.rules.is_basic:
        return Verdict(False, "log.going-rummy-basic", ("score.going-rummy",))
    name = player if player is not None else log.went_out
    if name is None or log.over != OUT or name != log.went_out:
        return Verdict(False, "log.not-out", ("score.going-rummy", "out.empty-hand"),
                       {"player": name or ""})
    earlier = [c for p in log.played if p.player == name and p.turn != log.out_turn
               for c in p.cards]
    if earlier:
        return Verdict(False, "log.not-going-rummy", ("score.going-rummy",),
                       {"player": name, "cards": tuple(earlier)})
    return Verdict(True, "log.going-rummy", ("score.going-rummy", "score.basic"),
                   {"player": name})


def stock(log: Replay) -> Verdict:
    """The stock: cards left, a reshuffle or a drawn hand (``basic.stock-reshuffle``), or
    the end of the hand when it is empty and the pile is not taken (``out.stock-empty``)."""
    rule = "basic.stock-reshuffle" if log.rules.is_basic else "out.stock-empty"
    if log.over == OUT:
        return Verdict(False, "log.hand-over", ("out.empty-hand",))
    if log.over == DRAWN:
        return Verdict(True, "log.stock-empty-again", (rule,))
    if log.over == STOCK:
        return Verdict(True, "log.stock-out-ended", (rule,),
                       {"player": log.steps[-1].move.player})
    if log.stock or log.turn is not None:
        return Verdict(False, "log.stock-left", (rule,), {"count": log.stock})
    if log.rules.is_basic:
        if log.reshuffles:
            return Verdict(True, "log.stock-empty-again", (rule,))
        return Verdict(True, "log.reshuffle", (rule,))
    return Verdict(True, "log.stock-out-now", (rule,), {"player": log.name(log.to_play)})


def first_call(log: Replay) -> Verdict:
    """Of the calls on one discard, the first the log holds took the pile; the rule book
    sets no other order (``rummy.call``)."""
    if not log.calls:
        return Verdict(False, "log.no-call", ("rummy.call",))
    several = [c for c in log.calls if c.later]
    call = several[-1] if several else log.calls[-1]
    params: dict[str, Param] = {"caller": call.caller, "discarder": call.discarder,
                                "card": call.card}
    if not call.later:
        return Verdict(True, "log.call-alone", ("rummy.call",), params)
    return Verdict(True, "log.call-first", ("rummy.call",),
                   {**params, "players": tuple(name for name, _ in call.later)},
                   {"later": call.later})


def whose_turn(log: Replay) -> Verdict:
    """Whose turn it is, and who deals the next hand (``turn.order``)."""
    dealer = log.name(next_dealer(log.dealer, len(log.seats)))
    if log.over is not None:
        return Verdict(True, "log.next-deal", ("turn.order",), {"dealer": dealer})
    player = log.name(log.top_call.caller if log.top_call else log.to_play)
    code = "log.turn-draw" if log.turn is None and log.top_call is None else "log.turn-play"
    return Verdict(True, code, ("turn.order",), {"player": player, "dealer": dealer})


def pile_depths(log: Replay, hand: Sequence[Card] = ()) -> Verdict:
    """Which cards of the pile can be taken now, each one melded at once with ``hand``
    (the cards the player says they hold; none: the cards above it alone) and the cards
    above it (:func:`~referee.draws.check_draw`)."""
    if log.over is not None:
        return Verdict(False, "log.hand-over", ("turn.order",))
    pile = log.pile
    if not pile:
        return Verdict(False, "log.pile-empty", ("draw.stock-or-top",))
    top = pile[-1]
    if not log.rules.deep_draws:
        return Verdict(True, "draw.basic-top-only", ("draw.basic",), {"card": top})
    deeper = tuple(pile[-take] for take in range(2, len(pile) + 1)
                   if check_draw(log.rules, log.table, pile, hand, take).legal)
    top_ok = check_draw(log.rules, log.table, pile, hand, 1).legal
    if deeper:
        return Verdict(True, "log.pile-depths", ("draw.deep",),
                       {"card": top, "cards": tuple(reversed(deeper))})
    if not top_ok:
        return Verdict(False, "log.pile-nothing", ("draw.must-meld",))
    return Verdict(True, "log.pile-top-only", ("draw.stock-or-top", "draw.deep"),
                   {"card": top})


def out_discard(log: Replay) -> Verdict:
    """Was the card a player went out with playable: could it have been laid off on a
    meld on the table (``out.unplayable-discard``)?"""
    card, player = log.out_discard, log.went_out
    if log.over != OUT or card is None or player is None:
        return Verdict(False, "log.no-out-discard", ("out.empty-hand",))
    fits = check_layoff(log.table, card, log.rules)
    params: dict[str, Param] = {"card": card, "player": player}
    if not fits.legal:
        return Verdict(True, "log.out-discard-dead", ("out.unplayable-discard",), params)
    meld = fits.detail["targets"][0].meld_id
    if log.rules.unplayable_discard:
        return Verdict(False, "log.out-discard-playable-house",
                       ("out.unplayable-discard", "out.floating"), {**params, "meld": meld})
    return Verdict(True, "log.out-discard-playable", ("out.unplayable-discard",),
                   {**params, "meld": meld})


def discard_meldable(log: Replay) -> Verdict:
    """Could the latest discard have been melded with no card from a hand: laid off on a
    table meld, or melded with cards of the pile (``rummy.call``)?"""
    if log.last_discard is None:
        return Verdict(False, "log.no-discard", ("rummy.call",))
    seat, card, index = log.last_discard
    step = log.steps[index]
    below = step.pile[:-1]
    ways = ways_to_meld(card.natural, pool_of(below), step.table, log.rules, limit=1)
    params: dict[str, Param] = {"player": log.name(seat), "card": card}
    if not ways:
        return Verdict(False, "log.discard-dead", ("rummy.call",), params)
    way = ways[0]
    if way.kind == "layoff":
        return Verdict(True, "log.discard-layoff", ("rummy.call", "layoff.basic"),
                       {**params, "meld": way.meld_id or ""}, {"way": way})
    return Verdict(True, "log.discard-meld", ("rummy.call",),
                   {**params, "cards": way.cards}, {"way": way})


def answers(log: Replay, card: Card | None = None, hand: Sequence[Card] = ()
            ) -> dict[str, Verdict]:
    """Every answer above that the log can give: ``may_discard`` for ``card`` (none: the
    card the player to play last took from the pile, if any), ``pile`` with ``hand``;
    ``may_call`` is per player (:func:`calls_now`)."""
    out = {
        "after_call": after_call(log),
        "going_rummy": going_rummy(log),
        "stock": stock(log),
        "first_call": first_call(log),
        "turn": whose_turn(log),
        "pile": pile_depths(log, hand),
        "out_discard": out_discard(log),
        "discard_meldable": discard_meldable(log),
    }
    if card is None and log.over is None:
        taken = [cards for seat, _n, cards in log.taken if seat == log.to_play]
        card = taken[-1][-1] if taken else None
    if card is not None:
        out["may_discard"] = may_discard(log, card)
    return out


def calls_now(log: Replay) -> dict[str, Verdict]:
    """May each player call "Rummy!" now (:func:`may_call`)?"""
    return {player: may_call(log, player) for player in log.seats}
