"""The questions the referee and the scorer answer, as JSON-ready dicts.

Each function takes a request body (a dict, as the JSON API receives it) and
returns the answer, raising :class:`~scorebook.services.payloads.PayloadError` for bad
input.  The JSON API serves them as they are; the referee pages fill the same
bodies from their forms and render the same answers, so both always agree.
The referee's questions are asked through :data:`VERDICTS`, which hands back the
:class:`~referee.Verdict` itself and the rest of the answer: the API adds the verdict's
``message`` in the request's language, a page words its typed parameters (cards with
suit symbols, lists in the reader's language); neither is worded here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee import (
    DrawError,
    Reading,
    ScoringError,
    Verdict,
    best_arrangement,
    check_copies,
    check_draw,
    check_going_out,
    check_layoff,
    check_meld,
    check_rummy_call,
    game_result,
    reading_value,
    score_hand,
)
from referee import arrange as meld_search
from scorebook.services.errors import sentence
from scorebook.services.payloads import (
    PayloadError,
    bool_from,
    card_from,
    cards_from,
    check_budget,
    check_cards_exist,
    player_count_from,
    players_from,
    required,
    rules_from,
    table_from,
    text_from,
    went_out_from,
)

Question = Callable[[dict[str, Any]], dict[str, Any]]
#: A referee question: the verdict, and the rest of its JSON answer.
Asked = Callable[[dict[str, Any]], tuple[Verdict, dict[str, Any]]]

#: The most cards /arrange splits at once: a hand after the deepest draw of a game of
#: five or more (two decks, four jokers) has that many and more, and every hand up to
#: that size is answered, best or best found, within ``referee.arrange.ARRANGE_CPU_S`` of
#: CPU time.
ARRANGE_MOST = 40


#: What the referee says when a search would take longer than one question may
#: (:class:`referee.arrange.SearchTooLarge`).
TOO_MANY_WAYS = sentence("referee.too-many-ways")


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """A verdict as the JSON API gives it, but its ``message`` (the API words it)."""
    return {
        "legal": verdict.legal,
        "code": verdict.code,
        "rules": list(verdict.rules),
        "params": verdict.plain_params(),
    }


def reading_json(reading: Reading, rules: Any) -> dict[str, Any]:
    return {"kind": reading.kind, "cards": [str(c) for c in reading.cards],
            "value": reading_value(reading, rules)}


def _setup(body: dict[str, Any]) -> tuple[Any, int]:
    rules = rules_from(body.get("rules"))
    players = player_count_from(body.get("players"), rules)
    check_budget(body, rules, players)
    return rules, players


def meld(body: dict[str, Any]) -> tuple[Verdict, dict[str, Any]]:
    rules, players = _setup(body)
    cards = cards_from(required(body, "cards"))
    too_many = check_copies(cards, rules, players)
    verdict = too_many if too_many is not None else check_meld(cards, rules)
    readings = verdict.detail.get("readings", ()) if verdict.legal else ()
    kinds = {r.kind for r in readings}
    return verdict, {
        "kind": kinds.pop() if len(kinds) == 1 else None,
        "readings": [reading_json(r, rules) for r in readings],
    }


def layoff(body: dict[str, Any]) -> tuple[Verdict, dict[str, Any]]:
    rules, players = _setup(body)
    table = table_from(body.get("table"), rules)
    card = card_from(required(body, "card"))
    meld_id = text_from(body.get("meld"), "meld", required=False)
    if meld_id is not None and meld_id not in table:
        raise PayloadError("unknown-meld", f"there is no meld {meld_id!r} on the table",
                           reason="layoff.unknown-meld", params={"meld": meld_id})
    check_cards_exist([*table.cards(), card], rules, players)
    verdict = check_layoff(table, card, rules, meld_id)
    targets = verdict.detail["targets"]
    return verdict, {
        "targets": list(dict.fromkeys(t.meld_id for t in targets)),
        "placements": [{"meld": t.meld_id, "card": str(t.card), "end": t.end} for t in targets],
    }


def draw(body: dict[str, Any]) -> tuple[Verdict, dict[str, Any]]:
    rules, players = _setup(body)
    table = table_from(body.get("table"), rules)
    # without pile, the cards taken (``took``) are the pile
    pile = cards_from(body.get("pile") if body.get("took") is not None
                      else required(body, "pile"), "pile")
    hand = cards_from(required(body, "hand"), "hand")
    take = body.get("take")  # null is the same as left out: 1, or as many as took lists
    if take is None and body.get("took") is None:
        take = 1
    if take is not None and (not isinstance(take, int) or isinstance(take, bool)):
        raise PayloadError("bad-request", "take must be the number of cards taken from the top")
    if body.get("took") is not None:
        pile, take = _took_from_pile(cards_from(body.get("took"), "took"), pile, take)
    assert take is not None  # (1 when neither is sent, else what took gave)
    if not pile:
        raise PayloadError("empty-pile", "the discard pile is empty: there is nothing to take")
    if not 1 <= take <= len(pile):
        raise PayloadError("take-too-deep", f"take must be from 1 to {len(pile)}, the number of "
                                          "cards in the pile", params={"count": len(pile)})
    discard = body.get("discard")
    discard_card = card_from(discard, "discard") if discard is not None else None
    check_cards_exist([*table.cards(), *pile, *hand], rules, players)
    try:
        verdict = check_draw(rules, table, pile, hand, take, discard_card)
    except DrawError as exc:
        raise PayloadError("bad-request", str(exc)) from exc
    return verdict, {
        "card": str(pile[-take]),
        "taken": [str(c) for c in pile[-take:]],
        "ways": [w.as_dict() for w in verdict.detail.get("ways", ())],
    }


def _took_from_pile(took: list[Any], pile: list[Any], take: int | None
                    ) -> tuple[list[Any], int]:
    """``took`` (bottom to top, like ``pile``) instead of ``take``: the cards taken are the
    top of the pile, in that order (the pile may be left out: it is then what was taken)."""
    if not took:
        raise PayloadError("bad-request", "took must list the cards taken, bottom to top")
    if take is not None and take != len(took):
        raise PayloadError("take-not-took", f"take is {take} but took lists {len(took)} cards")
    if not pile:
        return took, len(took)
    top = pile[-len(took):]
    if len(took) > len(pile) or [c.natural for c in top] != [c.natural for c in took]:
        raise PayloadError("took-not-on-top", "took must be the top cards of the pile, listed "
                           "bottom to top like the pile: the pile ends "
                           + " ".join(str(c) for c in pile[-len(took):]))
    return pile, len(took)


def rummy_call(body: dict[str, Any]) -> tuple[Verdict, dict[str, Any]]:
    rules, players = _setup(body)
    table = table_from(body.get("table"), rules)
    pile = cards_from(required(body, "pile"), "pile")
    try:
        discarder = text_from(body.get("discarder"), "discarder")
        caller = text_from(body.get("caller"), "caller")
    except PayloadError as exc:
        raise PayloadError("missing-names", exc.message) from exc
    assert discarder is not None and caller is not None
    check_cards_exist([*table.cards(), *pile], rules, players)
    verdict = check_rummy_call(
        rules, table, pile, discarder, caller,
        next_player_drew=bool_from(body.get("next_player_drew"), "next_player_drew"),
        hand_over=bool_from(body.get("hand_over"), "hand_over"),
    )
    deepest = verdict.detail["deepest"]
    return verdict, {
        "deepest": str(deepest.card) if deepest else None,
        "take": deepest.take if deepest else None,
        "callable": [{"card": str(c.card), "take": c.take, "how": c.how.as_dict()}
                     for c in verdict.detail["callable"]],
    }


def going_out(body: dict[str, Any]) -> tuple[Verdict, dict[str, Any]]:
    rules, players = _setup(body)
    table = table_from(body.get("table"), rules)
    hand = cards_from(required(body, "hand"), "hand")
    discard = body.get("discard")
    discard_card = card_from(discard, "discard") if discard is not None else None
    took = cards_from(body.get("took"), "took")
    check_cards_exist([*table.cards(), *hand], rules, players)
    try:
        verdict = check_going_out(rules, table, hand, discard_card, took)
    except DrawError as exc:
        raise PayloadError("took-not-in-hand", str(exc), params={"card": exc.card}) from exc
    return verdict, {"plan": [str(step) for step in verdict.detail.get("plan", ())]}


def score(body: dict[str, Any]) -> dict[str, Any]:
    rules = rules_from(body.get("rules"))
    raw_players = body.get("players")
    if isinstance(raw_players, list):
        check_budget(body, rules, player_count_from(len(raw_players), rules))
    players = players_from(raw_players)
    player_count_from(len(players), rules)
    went_out = went_out_from(body.get("went_out"), players)
    try:
        result = score_hand(rules, players, went_out)
    except ScoringError as exc:
        raise PayloadError(exc.code, exc.message, reason=exc.reason, params=exc.params,
                           rules=exc.rules) from exc
    return {
        "players": [{"name": p.name, "melded": p.melded, "stranded": p.stranded,
                     "score": p.score} for p in result.players],
        "rules": list(result.rules),
        "melds": [{"id": m.id, "owner": m.owner, "kind": m.kind,
                   "cards": [str(c) for c in m.cards],
                   "laid_by": [m.layer(i) for i in range(len(m.cards))]}
                  for m in result.table],
    }


def game(body: dict[str, Any]) -> tuple[Verdict, dict[str, Any]]:
    rules = rules_from(body.get("rules"))
    totals = body.get("totals")
    if not isinstance(totals, list) or not all(
            isinstance(t, int) and not isinstance(t, bool) for t in totals):
        raise PayloadError("bad-request", "totals must be a list of whole numbers, one per player")
    player_count_from(len(totals), rules)
    went_out = body.get("went_out")
    if went_out is not None and (not isinstance(went_out, int) or isinstance(went_out, bool)):
        raise PayloadError("bad-request", "went_out must be the index of a player in totals")
    if went_out is not None and not 0 <= went_out < len(totals):
        raise PayloadError("unknown-player", f"went_out is {went_out}: totals has players 0 "
                                             f"to {len(totals) - 1}")
    names = body.get("names")
    if names is not None and (not isinstance(names, list)
                              or not all(isinstance(n, str) for n in names)):
        raise PayloadError("bad-request", "names must be a list of texts, one per player")
    if names is not None and len(names) != len(totals):
        raise PayloadError("names-mismatch", f"names has {len(names)} names for "
                                             f"{len(totals)} totals: give one per player")
    verdict = game_result(rules, totals, went_out, names)
    return verdict, {"finished": verdict.detail["finished"], "winner": verdict.detail["winner"],
                     "target": rules.target_for(len(totals))}


def arrange(body: dict[str, Any]) -> dict[str, Any]:
    rules, players = _setup(body)
    cards = cards_from(required(body, "cards"))
    if len(cards) > ARRANGE_MOST:
        raise PayloadError("bad-request", f"arrange at most {ARRANGE_MOST} cards at a time")
    check_cards_exist(cards, rules, players)
    result = best_arrangement(cards, rules)
    answer: dict[str, Any] = {
        "melds": [reading_json(r, rules) for r in result.melds],
        "stranded": [str(c) for c in result.stranded], "value": result.value,
        "complete": result.complete, "exact": result.exact}
    if not result.exact:
        # the best split found within the search's CPU time: how far from the best it
        # may be, and the bound, said in the reader's language by whoever shows it
        # (``note``)
        most = result.value if result.ceiling is None else result.ceiling
        limit_ms = round(meld_search.ARRANGE_CPU_S * 1000)
        answer.update(at_most=most, search_limit_ms=limit_ms,
                      note=sentence("referee.arrange-best-found", more=most - result.value,
                                    ms=limit_ms))
    return answer


def rule_set(body: dict[str, Any]) -> dict[str, Any]:
    rules, players = _setup(body)
    return {"rules": rules.as_dict(), "players": players, "decks": rules.decks(players),
            "jokers": rules.jokers_in_play(players), "deck_size": rules.deck_size(players),
            "cards_dealt": rules.cards_dealt(players), "target": rules.target_for(players)}


#: The questions answered with a verdict, by their path under ``/api/v1``.
VERDICTS: dict[str, Asked] = {
    "referee/meld": meld,
    "referee/layoff": layoff,
    "referee/draw": draw,
    "referee/rummy-call": rummy_call,
    "referee/going-out": going_out,
    "score/game": game,
}

#: The questions answered without a verdict, by their path under ``/api/v1``, as JSON.
QUESTIONS: dict[str, Question] = {
    "score/hand": score,
    "arrange": arrange,
    "rules": rule_set,
}
