"""The JSON API for a game's hands (``/api/v1/games``): read a game, read, record,
edit and delete a hand.  The same services as the pages (:mod:`scorebook.services.hands`),
so the referee checks everything the same way and two phones saving one hand get
one stored hand and a ``409`` with the hand that won.

A hand is addressed by its number, which moves up when an earlier hand is deleted;
its ``id`` never moves.  ``PUT`` and ``DELETE`` need the ``version`` read (else
``428``) and should send the ``id`` read too: a stale change is a ``409`` that
carries the hand as it is now (``error.hand``) and says whether the hands were
renumbered (``error.renumbered``), never a change to another hand.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request
from sqlalchemy import inspect, select
from sqlalchemy.orm import selectinload

from scorebook.api.referee import worded
from scorebook.api.schemas import hand_refused, played_refused
from scorebook.errors import error_response
from scorebook.extensions import db
from scorebook.models import Game, Hand, HandScore, Meld, Player, UndoStep
from scorebook.plain_text import db_int
from scorebook.presenters.changes import device_name
from scorebook.presenters.sentences import say, say_all
from scorebook.services import undo
from scorebook.services.entry import (
    HandError,
    as_is,
    entry_from_json,
    entry_json,
    stored_players,
    stored_points,
)
from scorebook.services.games import load_game, totals, verdict_of
from scorebook.services.hands import (
    HandConflict,
    VersionRequired,
    check_stale,
    delete_hand,
    edit_hand,
    missing_cards,
    record_sent,
    send_key,
    sent_before,
    undo_step,
)
from scorebook.services.payloads import PayloadError, check_budget, parse_json, text_from
from scorebook.services.played import (
    Logged,
    LogOvertaken,
    MoveRefused,
    log_move,
    log_state,
    start_played,
    undo_last,
    upcard_from,
)
from scorebook.services.seasons import as_utc

bp = Blueprint("games_api", __name__)


def game_or_404(game_id: int) -> Game:
    # its seats only: game_json reads the hands' scores in one query of plain rows (the
    # ORM loading 40 hands and their 240 scores, twice a write, was half a recorded
    # hand's CPU: issue 28); anything else that wants game.hands loads them when it does
    game = load_game(game_id, with_hands=False)
    if game is None:
        raise _NotFound()
    return game


class _NotFound(Exception):
    pass


def hand_at(game: Game, number: int) -> Hand | None:
    hand = db.session.scalar(db.select(Hand).where(Hand.game_id == game.id,
                                                   Hand.number == number))
    return hand if hand is not None and hand.complete else None


def hand_of(game: Game, number: int) -> Hand:
    hand = hand_at(game, number)
    if hand is None:
        raise _NotFound()
    return hand


def hand_json(game: Game, hand: Hand) -> dict[str, Any]:
    names = [s.player.name for s in game.seats]
    ids = {s.player.name: s.player_id for s in game.seats}
    name_of = {v: k for k, v in ids.items()}
    players = stored_players(hand, names, ids)
    went_out = name_of.get(hand.went_out_id) if hand.went_out_id else None
    return {
        "id": hand.id,
        "number": hand.number,
        "version": hand.version,
        "dealer": name_of.get(hand.dealer_id),
        **entry_json(players, went_out, hand.ending, stored_points(hand, ids)),
        "scores": {name_of[s.player_id]: s.score for s in hand.scores},
        # RULES.md §10: the players stored as missing cards, with their count and the deal
        "fewer_than_dealt": [{"name": name, "cards": count, "dealt": dealt}
                             for name, count, dealt in missing_cards(game, hand)],
    }


def game_json(game: Game) -> dict[str, Any]:
    names = [s.player.name for s in game.seats]
    verdict = verdict_of(game)
    return {
        "id": game.id,
        "number": game.number,
        "family": game.family,
        "rules": game.rules_spec,
        "status": game.status,
        "players": names,
        "totals": totals(game),
        "winner": game.winner.name if game.winner else None,
        "verdict": {"code": verdict.code, "rules": list(verdict.rules)},
        "hands": _hands_json(game),
    }


def _hands_json(game: Game) -> list[dict[str, Any]]:
    """The game's complete hands, in order, each with its scores by player's name."""
    name_of = {s.player_id: s.player.name for s in game.seats}
    rows = db.session.execute(
        select(Hand.id, Hand.number, Hand.version, Hand.ending, Hand.points_only,
               HandScore.player_id, HandScore.score)
        .outerjoin(HandScore, HandScore.hand_id == Hand.id)
        .where(Hand.game_id == game.id, Hand.complete.is_(True))
        .order_by(Hand.number, HandScore.id)).tuples().all()
    unseated = {row[5] for row in rows if row[5] is not None} - name_of.keys()
    if unseated:  # (a score of a player not seated: named all the same)
        name_of.update(db.session.execute(select(Player.id, Player.name).where(
            Player.id.in_(unseated))).tuples().all())
    hands: list[dict[str, Any]] = []
    for hand_id, number, version, ending, points_only, player_id, score in rows:
        if not hands or hands[-1]["id"] != hand_id:
            hands.append({"id": hand_id, "number": number, "version": version,
                          "ending": ending, "points_only": points_only, "scores": {}})
        if player_id is not None:
            hands[-1]["scores"][name_of[player_id]] = score
    return hands


def _conflict(game: Game, conflict: HandConflict) -> Response:
    response = error_response(409, say_all(conflict.sentences), conflict.code)
    body = response.get_json()
    body["error"]["renumbered"] = conflict.renumbered
    stored = db.session.get(Hand, conflict.hand_id) if conflict.hand_id else None
    if stored is not None and stored.complete and stored.game_id == game.id:
        body["error"]["hand"] = hand_json(game, stored)
    response.set_data(jsonify(body).get_data())
    return response


def _hand_error(error: HandError) -> Response:
    response = error_response(error.status, say_all(error.sentences), error.code)
    body = response.get_json()
    body["error"]["problems"] = [
        {"message": say(p.sentence), "player": p.player, "field": p.field, "index": p.index}
        for p in error.problems]
    if error.rules:
        body["error"]["rules"] = list(error.rules)
    response.set_data(jsonify(body).get_data())
    return response


def _json() -> Any:
    """The body as JSON (None when it is not JSON; too deep a 400, too big a 413)."""
    if not request.is_json:
        return None
    try:
        return parse_json(request.get_data(cache=True))
    except PayloadError as exc:
        if exc.code in ("too-deep", "too-many-values"):
            raise HandError(as_is(exc.message), exc.code) from None
        return None


def _body() -> dict[str, Any]:
    body = _json()
    if not isinstance(body, dict):
        raise HandError(as_is("send the hand as a JSON object with Content-Type "
                              "application/json"), "invalid-json")
    return body


def _whole(body: dict[str, Any], key: str, what: str) -> int | None:
    value = body.get(key)
    if value is None:  # absent or null in the body: the query string may say
        value = request.args.get(key)
    if value is None:
        return None
    number = db_int(value) if not isinstance(value, float) else None
    if number is None:
        raise HandError(as_is(what), "bad-request")
    return number


def _version(body: dict[str, Any]) -> int:
    """The ``version`` the client read (body, or the query string): required."""
    version = _whole(body, "version", "version must be the number the hand had when you "
                                      "read it")
    if version is None:
        raise VersionRequired()
    return version


def _hand_id(body: dict[str, Any]) -> int | None:
    """The ``id`` of the hand the client read, if it says (it should)."""
    return _whole(body, "id", "id must be the id the hand had when you read it")


def _target(game: Game, number: int, body: dict[str, Any]) -> Hand:
    """The hand a PUT or DELETE may change: the one at ``number`` if it is the hand and
    the version the client read; a hand that went (or moved) since: 409; none: 404."""
    hand = hand_at(game, number)
    hand_id = _hand_id(body)
    version = _version(body)
    if hand is None and hand_id is None:
        raise _NotFound()
    return check_stale(game, number, hand, hand_id, version)


def _entry(body: dict[str, Any], game: Game) -> Any:
    """The hand in the body, checked against its model (scorebook.api.schemas.HandBody, from
    which the OpenAPI document is generated), refused before any check if it names more
    cards or melds than the game's decks hold."""
    refusal = hand_refused(body)
    if refusal is not None:
        # the hand's own parsing names what is wrong (the token, the player, the field)
        _parse(body, game)
        for key, what in (("version", "version must be the number the hand had when you "
                                      "read it"),
                          ("id", "id must be the id the hand had when you read it")):
            _whole(body, key, what)
        raise HandError(as_is(refusal.message), refusal.code)
    return _parse(body, game)


def _parse(body: dict[str, Any], game: Game) -> Any:
    try:
        check_budget(body, game.rules, len(game.seats))
    except PayloadError as exc:
        raise HandError(as_is(exc.message), exc.code) from None
    entry = entry_from_json(body, game.rules.is_basic)
    # RULES.md §10: a player with fewer cards than dealt is stored marked as missing cards,
    # and the answer says so (fewer_than_dealt); nothing is asked
    entry.missing_ok = None
    return entry


@bp.errorhandler(_NotFound)
def _not_found(_error: _NotFound) -> Response:
    return error_response(404)


@bp.get("/<int:game_id>")
def read_game(game_id: int) -> Response:
    return jsonify(game_json(game_or_404(game_id)))


@bp.get("/<int:game_id>/hands/<int:number>")
def read_hand(game_id: int, number: int) -> Response:
    game = game_or_404(game_id)
    return jsonify(hand_json(game, hand_of(game, number)))


#: A client's key for one write (letters, digits, - and _; 8 to 64): the same POST or PUT
#: sent again with it (its answer lost) is answered with the hand it stored, never twice.
IDEMPOTENCY_KEY = "Idempotency-Key"


def _replayed(game: Game, hand: Hand) -> Response:
    """The answer to a write sent again: the hand it stored, marked as a replay."""
    response = jsonify({"hand": hand_json(game, hand), "game": game_json(game)})
    response.headers["Idempotent-Replayed"] = "true"
    return response


@bp.post("/<int:game_id>/hands")
def create_hand(game_id: int) -> Response | tuple[Response, int]:
    game = game_or_404(game_id)
    try:
        key = send_key(request.headers.get(IDEMPOTENCY_KEY))
        done = sent_before(game.id, key)
        if done is not None:
            return _replayed(game, done)
        body = _body()
        number = body.get("number")
        if number is not None and (not isinstance(number, int) or db_int(number) is None):
            raise HandError(as_is("number must be the number of the hand being recorded"),
                            "bad-request")
        entry = _entry(body, game)
        sent = record_sent(game, entry, number, key=key)
    except HandConflict as conflict:
        return _conflict(game, conflict)
    except HandError as error:
        return _hand_error(error)
    if sent.replayed:  # the same key sent at the same moment: the other send stored it
        return _replayed(game_or_404(game_id), sent.hand)
    game = game_or_404(game_id)
    return jsonify({"hand": hand_json(game, _loaded(sent.hand)), "game": game_json(game)}), 201


def _loaded(hand: Hand) -> Hand:
    """``hand`` (expired by the write's commit) read again with its melds and their
    cards, its stranded cards and its scores in four queries, not one per meld."""
    hand_id = inspect(hand).identity[0]
    return db.session.scalars(select(Hand).where(Hand.id == hand_id).options(
        selectinload(Hand.melds).selectinload(Meld.cards), selectinload(Hand.stranded),
        selectinload(Hand.scores))).one()


@bp.put("/<int:game_id>/hands/<int:number>")
def update_hand(game_id: int, number: int) -> Response:
    game = game_or_404(game_id)
    key = None
    try:
        key = send_key(request.headers.get(IDEMPOTENCY_KEY))
        done = sent_before(game.id, key, "edit")
        if done is not None:
            return _replayed(game, done)
        body = _body()
        entry = _entry(body, game)  # a hand that cannot be read is a 400 whatever else
        hand = _target(game, number, body)
        hand = edit_hand(hand, entry, _version(body), _hand_id(body), key=key)
    except HandConflict as conflict:
        try:
            done = sent_before(game_id, key, "edit")  # the same change, sent twice at once
        except HandError as error:
            return _hand_error(error)
        if done is not None:
            return _replayed(game_or_404(game_id), done)
        return _conflict(game, conflict)
    except HandError as error:
        return _hand_error(error)
    game = game_or_404(game_id)
    return jsonify({"hand": hand_json(game, hand), "game": game_json(game)})


def step_json(step: UndoStep) -> dict[str, Any]:
    return {"id": step.id, "kind": step.kind, "number": step.params.get("number"),
            "action": step.params.get("action", ""), "by": device_name(step),
            "at": as_utc(step.created_at).isoformat(), "until": undo.until(step).isoformat(),
            "undone": step.undone_at is not None}


@bp.get("/<int:game_id>/undo")
def read_undo(game_id: int) -> Response:
    game = game_or_404(game_id)
    step = undo.offered(game.id)
    return jsonify({"undo": step_json(step) if step is not None else None})


@bp.post("/<int:game_id>/undo/<int:step_id>")
def undo_change(game_id: int, step_id: int) -> Response:
    game = game_or_404(game_id)
    step = undo.game_step(game.id, step_id)
    if step is None:
        raise _NotFound()
    try:
        undo_step(step)
    except HandError as error:
        db.session.rollback()
        return _hand_error(error)
    step = undo.game_step(game_id, step_id)
    assert step is not None
    return jsonify({"undone": step_json(step), "game": game_json(game_or_404(game_id))})


@bp.delete("/<int:game_id>/hands/<int:number>")
def remove_hand(game_id: int, number: int) -> Response:
    game = game_or_404(game_id)
    try:
        raw = _json()
        body = raw if isinstance(raw, dict) else {}
        hand = _target(game, number, body)
        delete_hand(hand, _version(body), _hand_id(body))
    except HandConflict as conflict:
        return _conflict(game, conflict)
    except HandError as error:
        return _hand_error(error)
    return jsonify({"game": game_json(game_or_404(game_id))})


# --- the played hand: a live hand logged turn by turn (scorebook.services.played) ---------


def _played_state(game: Game, question: dict[str, Any] | None = None) -> dict[str, Any]:
    """The played hand's log replayed, every verdict worded in the request's language."""
    return dict(worded(log_state(game, question)))


def _length(body: dict[str, Any]) -> int:
    """The log's length the move or undo was made against: required (428 without)."""
    length = _whole(body, "length", "length must be the number of moves the log held when "
                                    "the move was made")
    if length is None:
        error = HandError(as_is("say the log's length the move was made against (length)"),
                          "length-required")
        error.status = 428
        raise error
    return length


def _fits(kind: str, body: dict[str, Any]) -> None:
    """Refuse a body that does not fit the document's model of it (400)."""
    refusal = played_refused(kind, body)
    if refusal is not None:
        raise HandError(as_is(refusal.message), refusal.code)


def _played_answer(game_id: int, logged: Logged, status: int) -> tuple[Response, int]:
    game = game_or_404(game_id)
    response = jsonify({"logged": {"position": logged.position, "move": logged.move,
                                   "overridden": logged.overridden},
                        "already_logged": logged.replayed, "played": _played_state(game)})
    if logged.replayed:
        response.headers["Idempotent-Replayed"] = "true"
        status = 200
    return response, status


def _log_conflict(game: Game, conflict: HandConflict) -> Response:
    response = _conflict(game, conflict)
    if isinstance(conflict, LogOvertaken):
        body = response.get_json()
        try:
            body["error"]["length"] = log_state(game)["length"]
        except HandError:  # (the hand ended meanwhile)
            pass
        response.set_data(jsonify(body).get_data())
    return response


@bp.get("/<int:game_id>/played")
def read_played(game_id: int) -> Response | tuple[Response, int]:
    game = game_or_404(game_id)
    question = {key: request.args[key] for key in ("card", "hand") if request.args.get(key)}
    try:
        return jsonify(_played_state(game, question))
    except HandError as error:
        return _hand_error(error)
    except PayloadError as exc:
        return _hand_error(HandError(as_is(exc.message), exc.code))


@bp.post("/<int:game_id>/played")
def start_played_hand(game_id: int) -> Response | tuple[Response, int]:
    game = game_or_404(game_id)
    try:
        body = _body()
        _fits("start", body)
        dealer = body.get("dealer")
        if dealer is not None:  # (a name may be sent as a number, as everywhere)
            dealer = str(text_from(dealer, "dealer"))
        dealt = body.get("dealt")
        if dealt is not None and (not isinstance(dealt, int) or isinstance(dealt, bool)
                                  or not 1 <= dealt <= 54):
            raise HandError(as_is("dealt must be the cards dealt to each player, a whole "
                                  "number from 1"), "bad-request")
        if body.get("upcard") is None:
            raise HandError(as_is("upcard: the first card turned up is needed"),
                            "missing-field")
        start_played(game, upcard_from(body["upcard"]), dealer, dealt)
    except PayloadError as exc:
        return _hand_error(HandError(as_is(exc.message), exc.code))
    except HandConflict as conflict:
        return _log_conflict(game, conflict)
    except HandError as error:
        return _hand_error(error)
    return jsonify(_played_state(game_or_404(game_id))), 201


@bp.post("/<int:game_id>/played/moves")
def log_played_move(game_id: int) -> Response | tuple[Response, int]:
    game = game_or_404(game_id)
    try:
        body = _body()
        key = send_key(request.headers.get(IDEMPOTENCY_KEY) or body.get("key"))
        length = _length(body)
        _fits("move", body)
        logged = log_move(game, body, length, key)
    except HandConflict as conflict:
        return _log_conflict(game, conflict)
    except MoveRefused as refused:
        response = _hand_error(refused)
        body = response.get_json()
        body["error"]["reason"] = refused.reason
        response.set_data(jsonify(body).get_data())
        return response
    except HandError as error:
        return _hand_error(error)
    return _played_answer(game_id, logged, 201)


@bp.post("/<int:game_id>/played/undo")
def undo_played_move(game_id: int) -> Response | tuple[Response, int]:
    game = game_or_404(game_id)
    try:
        raw = _json()
        body = raw if isinstance(raw, dict) else {}
        length = _length(body)
        _fits("undo", body)
        undone = undo_last(game, length)
    except HandConflict as conflict:
        return _log_conflict(game, conflict)
    except HandError as error:
        return _hand_error(error)
    return jsonify({"undone": {"position": undone.position, "move": undone.move,
                               "overridden": undone.overridden},
                    "played": _played_state(game_or_404(game_id))}), 200
