"""The played-hand log as the JSON API takes it: a deal and the moves, replayed by the
referee (:mod:`referee.replay`) into the pile at every step, the refusals and the
answers to the table's questions (:mod:`referee.log_answers`).

The answer holds the referee's :class:`~referee.Verdict` values as they are; whoever
shows it words them (the API in the request's language).  A log that cannot be a hand
is a :class:`LogRefused`, which carries the referee's verdict and the move's index.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee import Card, Verdict
from referee import log_answers as ask
from referee.log import (
    CallRummy,
    Deal,
    Discard,
    DrawStock,
    LayOff,
    LogError,
    Meld,
    Move,
    StockOut,
    TakePile,
)
from referee.replay import Replay, Step
from scorebook.services.payloads import (
    PayloadError,
    bool_from,
    card_from,
    cards_from,
    check_cards_exist,
    end_from,
    player_count_from,
    require_object,
    required,
    rules_from,
    text_from,
)

#: The most moves one log may hold (a long hand of eight players has a few hundred).
MAX_MOVES = 600
#: The kinds of move, as the API names them.
MOVE_KINDS = ("draw", "take", "meld", "layoff", "discard", "rummy", "stock-out")
#: The codes of a log refused before it is replayed (the pile does not hold the card a
#: take names, or holds two of it).
DOWN_TO_CODES = ("not-in-pile", "down-to-ambiguous")


class LogRefused(PayloadError):
    """A log the referee cannot replay past move ``step`` (0-based), and why
    (``verdict``, with the rule ids it rests on)."""

    def __init__(self, error: LogError) -> None:
        super().__init__(error.code, str(error), reason=error.verdict.code,
                         params=error.verdict.params, rules=error.verdict.rules)
        self.verdict = error.verdict
        self.step = error.step


def _deal(body: Mapping[str, Any]) -> Deal:
    rules = rules_from(body.get("rules"))
    deal = require_object(required(body, "deal"), "deal")
    raw = deal.get("players")
    if not isinstance(raw, list):
        raise PayloadError("bad-players", "deal.players must list the players, clockwise "
                                          "from the dealer's left or in seat order")
    player_count_from(len(raw), rules)
    players = tuple(str(text_from(p, f"player {i + 1}")) for i, p in enumerate(raw))
    dealer = str(text_from(deal.get("dealer"), "deal.dealer"))
    upcard = card_from(required(deal, "upcard", " in deal"), "deal.upcard")
    dealt = deal.get("dealt")
    if dealt is not None and (not isinstance(dealt, int) or isinstance(dealt, bool)
                              or not 1 <= dealt <= 54):
        raise PayloadError("bad-request", "deal.dealt must be the cards dealt to each "
                                          "player, a whole number from 1")
    return Deal(rules, players, dealer, upcard, dealt)


def _down_to(walk: Replay, item: Mapping[str, Any], what: str) -> int | None:
    """How many cards a take or a call takes: ``take``, or down to the card ``down_to``."""
    take = item.get("take")
    down = item.get("down_to")
    if take is not None:
        if not isinstance(take, int) or isinstance(take, bool) or take < 1:
            raise PayloadError("bad-request", f"{what}: take must be a whole number from 1")
        return take
    if down is None:
        return None
    card = card_from(down, f"{what}: down_to")
    places = [i for i, c in enumerate(walk.pile) if c.natural == card.natural]
    if not places:
        raise PayloadError("not-in-pile", f"{what}: the discard pile holds no {card}",
                           params={"card": card})
    if len(places) > 1:
        raise PayloadError("down-to-ambiguous", f"{what}: the discard pile holds {card} "
                                                "twice; say take instead")
    return len(walk.pile) - places[0]


def move_from(walk: Replay, item: Any, index: int) -> Move:
    """The move ``item`` (a JSON object) of a log, the ``index``-th, read against the
    position ``walk`` has reached (a take ``down_to`` a card counts the pile as it is)."""
    what = f"move {index + 1}"
    item = require_object(item, what)
    player = str(text_from(item.get("player"), f"{what}: player"))
    kind = item.get("move")
    agreed = bool_from(item.get("agreed"), f"{what}: agreed")
    if kind == "draw":
        card = item.get("card")
        return DrawStock(player, None if card is None else card_from(card, what), agreed)
    if kind == "take":
        return TakePile(player, _down_to(walk, item, what) or 1, agreed)
    if kind == "meld":
        cards = cards_from(required(item, "cards", f" in {what}"), what)
        meld_id = text_from(item.get("id"), f"{what}: id", required=False)
        return Meld(player, tuple(cards), meld_id, agreed)
    if kind == "layoff":
        onto = str(text_from(item.get("onto"), f"{what}: onto"))
        return LayOff(player, card_from(required(item, "card", f" in {what}"), what), onto,
                      end_from(item.get("end"), what), agreed)
    if kind == "discard":
        return Discard(player, card_from(required(item, "card", f" in {what}"), what), agreed)
    if kind == "rummy":
        return CallRummy(player, _down_to(walk, item, what), agreed)
    if kind == "stock-out":
        return StockOut(player, agreed)
    raise PayloadError("bad-request", f"{what}: move must be one of {', '.join(MOVE_KINDS)}")


def replay_log(body: Mapping[str, Any]) -> Replay:
    """The log of ``body`` replayed; :class:`LogRefused` at a move it cannot hold."""
    deal = _deal(body)
    moves = required(body, "log")
    if not isinstance(moves, list):
        raise PayloadError("bad-request", "log must be a list of moves")
    if len(moves) > MAX_MOVES:
        raise PayloadError("bad-request", f"a log holds at most {MAX_MOVES} moves")
    try:
        walk = Replay(deal)
        for index, item in enumerate(moves):
            walk.play(move_from(walk, item, index))
    except LogError as exc:
        raise LogRefused(exc) from exc
    return walk


def _cards(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def move_json(move: Move) -> dict[str, Any]:
    """A move as the API writes it (what it was sent, in canonical form)."""
    out: dict[str, Any] = {"player": move.player, "move": move.kind}
    if isinstance(move, DrawStock) and move.card is not None:
        out["card"] = str(move.card)
    elif isinstance(move, TakePile | CallRummy) and move.take is not None:
        out["take"] = move.take
    elif isinstance(move, Meld):
        out["cards"] = _cards(move.cards)
        if move.meld_id is not None:
            out["id"] = move.meld_id
    elif isinstance(move, LayOff):
        out.update(card=str(move.card), onto=move.onto)
        if move.end is not None:
            out["end"] = move.end
    elif isinstance(move, Discard):
        out["card"] = str(move.card)
    if move.agreed:
        out["agreed"] = True
    return out


def _step(step: Step) -> dict[str, Any]:
    return {"move": move_json(step.move), "pile": _cards(step.pile), "stock": step.stock,
            "to_play": step.to_play, "refused": step.refused,
            "overridden": step.overridden, "notes": list(step.notes)}


def played_log(body: Mapping[str, Any]) -> dict[str, Any]:
    """The replay of a deal and its log, and the answers (verdicts as they are)."""
    walk = replay_log(body)
    question = body.get("ask")
    return replayed(walk, {} if question is None else require_object(question, "ask"))


def replayed(walk: Replay, question: Mapping[str, Any]) -> dict[str, Any]:
    """What a replayed log shows: every step, the position it reached and the answers
    to the table's questions (``question``: the ``ask`` of the API, card and hand)."""
    card: Card | None = None
    if question.get("card") is not None:
        card = card_from(question["card"], "ask.card")
    hand = cards_from(question.get("hand"), "ask.hand")
    check_cards_exist(hand, walk.rules, len(walk.seats))
    answers: dict[str, Verdict | dict[str, Verdict]] = dict(ask.answers(walk, card, hand))
    answers["may_call"] = ask.calls_now(walk)
    return {
        "players": list(walk.seats),
        "dealer": walk.name(walk.dealer),
        "steps": [_step(step) for step in walk.steps],
        "pile": _cards(walk.pile),
        "stock": walk.stock,
        "to_play": None if walk.over else walk.name(
            walk.top_call.caller if walk.top_call else walk.to_play),
        "over": walk.over is not None,
        "ending": walk.over,
        "went_out": walk.went_out,
        "held": {walk.name(seat): count for seat, count in enumerate(walk.held)},
        "table": [{"id": m.id, "owner": m.owner, "kind": m.kind, "cards": _cards(m.cards),
                   "laid_by": [m.layer(i) for i in range(len(m.cards))]}
                  for m in walk.table],
        "played": [{"step": p.step, "turn": p.turn, "player": p.player, "kind": p.kind,
                    "meld": p.meld_id, "cards": _cards(p.cards)} for p in walk.played],
        "calls": [{"step": c.step, "caller": c.caller, "discarder": c.discarder,
                   "card": str(c.card), "take": c.take, "skipped": list(c.skipped),
                   "later": [{"player": name, "verdict": verdict}
                             for name, verdict in c.later]} for c in walk.calls],
        "answers": answers,
    }
