"""The played hand: a live hand the table also logs turn by turn (issue 29), stored.

A live hand is started as a played hand with its deal (:func:`start_played`: who deals,
the first upturned card); a table that does not log keeps the live hand as it was.
Each move any phone of the table logs (:func:`log_move`) is judged by the referee
against the log replayed so far (:mod:`referee.replay`, through
:mod:`scorebook.services.table_log`) before it is stored:

- a move the log cannot hold (out of turn, a card the player cannot hold) or that a
  rule refuses is not logged: :class:`MoveRefused`, with the rule's sentence; the table
  may agree to a refused move (``agreed``), which is logged as overridden by agreement;
- each move says the log's length it was made against: a move made against an older log
  (another phone logged first) is refused with :class:`LogOvertaken` (409), so the pile
  never has two versions.  Moves are logged one at a time, the live hand's row taken
  (:func:`scorebook.services.hands.live_move`), and a position is unique per hand;
- each move may carry the phone's key for its send: the same send again (its answer
  lost, a phone back online) is answered as already logged (:class:`Logged`,
  ``replayed``), never stored twice;
- a meld or a lay-off the log accepts is also the live hand's meld or lay-off, so the
  finish asks only for the cards players still hold;
- :func:`undo_last` takes the last move back (and its meld or lay-off), only if it is
  still the last one the phone saw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from referee import Card, Verdict, build_table, parse_card
from referee.log import Deal, LogError
from referee.replay import Replay
from scorebook.extensions import db
from scorebook.models import Game, Hand, Meld, PlayedHand, PlayedMove
from scorebook.services import history
from scorebook.services.entry import HandError
from scorebook.services.errors import Sentence, sentence
from scorebook.services.games import live_hand
from scorebook.services.hands import (
    HandConflict,
    live_move,
    live_table_players,
    start_live,
    store_layoff,
    store_meld,
)
from scorebook.services.payloads import PayloadError, card_from
from scorebook.services.table_log import move_from, move_json, replayed


class MoveRefused(HandError):
    """A move not logged: a rule refuses it (``code`` rule-refused, the verdict's rule
    ids in ``rules``; the table may agree to it), or the log cannot hold it (``code``
    the :class:`~referee.log.LogError`'s: out-of-turn, not-held, ...): 422.  ``reason``
    is the verdict's message id (``log.deep-not-melded``)."""

    status = 422

    def __init__(self, verdict: Verdict, code: str) -> None:
        super().__init__(sentence("hand.verdict", verdict=verdict), code, verdict.rules)
        self.reason = verdict.code


class LogOvertaken(HandConflict):
    """A move or an undo made against a log that has grown or shrunk since (another phone
    logged or undid first): nothing was logged.  409."""


class NotPlayed(HandError):
    """The game has no live hand logged turn by turn: 404."""

    status = 404

    def __init__(self) -> None:
        super().__init__(sentence("played.none"), "not-played")


@dataclass(frozen=True)
class Logged:
    """A move in the log: its position, as the API writes it, the rule it overrode (a
    verdict's message id) and whether it was logged by an earlier send (``replayed``)."""

    position: int
    move: dict[str, Any]
    overridden: str | None
    replayed: bool = False


def played_hand(game: Game) -> tuple[Hand, PlayedHand]:
    """The game's live hand and its deal, when the table logs it; else :class:`NotPlayed`."""
    hand = live_hand(game)
    if hand is None:
        raise NotPlayed()
    deal = db.session.scalar(select(PlayedHand).where(PlayedHand.hand_id == hand.id))
    if deal is None:
        raise NotPlayed()
    return hand, deal


def _names(game: Game) -> tuple[list[str], dict[str, int]]:
    return ([s.player.name for s in game.seats],
            {s.player.name: s.player_id for s in game.seats})


def start_played(game: Game, upcard: Card, dealer: str | None = None,
                 dealt: int | None = None) -> Hand:
    """Start the next hand as a played hand, with its deal: the first upturned card,
    who dealt (None: whoever's turn it is to deal) and the cards dealt to each (None: as
    the rules say).  The live hand already under way becomes a played hand if it holds no
    meld yet; started already with this deal: that hand."""
    names, ids = _names(game)
    if dealer is not None and dealer not in ids:
        raise HandError(sentence("played.unknown-player", player=dealer), "unknown-player")
    try:
        Replay(Deal(game.rules, tuple(names), dealer or names[0], upcard, dealt))
    except LogError as exc:  # more cards dealt than the decks hold
        raise HandError(sentence("hand.verdict", verdict=exc.verdict), exc.code) from None
    hand = start_live(game)
    with live_move(hand):
        held = db.session.scalar(select(PlayedHand).where(PlayedHand.hand_id == hand.id))
        if held is not None:
            same = (held.upcard == str(upcard) and held.dealt == dealt
                    and (dealer is None or ids[dealer] == hand.dealer_id))
            if not same:
                raise LogOvertaken(sentence("played.started-already", number=hand.number,
                                            card=parse_card(held.upcard)), hand.id,
                                   "played-already")
            return hand  # (the same start sent twice)
        if hand.melds:
            raise LogOvertaken(sentence("played.moves-already", number=hand.number),
                               hand.id, "live-moves")
        if dealer is not None:
            hand.dealer_id = ids[dealer]
        db.session.add(PlayedHand(hand_id=hand.id, upcard=str(upcard), dealt=dealt))
        history.log(game, history.PLAYED_STARTED, str(upcard), hand.number)
    return hand


def deal_of(game: Game, hand: Hand, deal: PlayedHand) -> Deal:
    names, ids = _names(game)
    dealer = next(name for name, pid in ids.items() if pid == hand.dealer_id)
    return Deal(game.rules, tuple(names), dealer, parse_card(deal.upcard), deal.dealt)


def _moves(hand: Hand) -> list[PlayedMove]:
    return list(db.session.scalars(select(PlayedMove).where(PlayedMove.hand_id == hand.id)
                                   .order_by(PlayedMove.position)))


def _stored(move: PlayedMove, name_of: Mapping[int, str]) -> dict[str, Any]:
    return {"player": name_of[move.player_id], **move.move}


def replay_stored(game: Game, hand: Hand, deal: PlayedHand,
                  moves: list[PlayedMove] | None = None) -> Replay:
    """The stored log replayed (every move in it was accepted when it was logged)."""
    _names_, ids = _names(game)
    name_of = {pid: name for name, pid in ids.items()}
    walk = Replay(deal_of(game, hand, deal))
    for index, move in enumerate(_moves(hand) if moves is None else moves):
        walk.play(move_from(walk, _stored(move, name_of), index))
    return walk


def log_state(game: Game, question: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The played hand as the API shows it: the hand, its deal, the log's length, and
    the replay (every step, the pile, whose turn, the answers to the table's questions)."""
    hand, deal = played_hand(game)
    walk = replay_stored(game, hand, deal)
    return {"hand": {"id": hand.id, "number": hand.number, "version": hand.version},
            "upcard": deal.upcard, "dealt": walk.deal.cards_dealt,
            "length": len(walk.steps), **replayed(walk, question or {})}


def hand_log(game: Game, hand: Hand) -> Replay | None:
    """The log of ``hand`` (live or finished) replayed, or None when the table did not
    log it turn by turn: what the replay page shows."""
    deal = db.session.scalar(select(PlayedHand).where(PlayedHand.hand_id == hand.id))
    return None if deal is None else replay_stored(game, hand, deal)


def has_log(hand: Hand) -> bool:
    """Was ``hand`` logged turn by turn (it has a deal, perhaps no move yet)?"""
    return db.session.scalar(select(PlayedHand.id).where(PlayedHand.hand_id == hand.id)
                             ) is not None


def _logged(move: PlayedMove, replayed_send: bool = False) -> Logged:
    return Logged(move.position, dict(move.move), move.overridden, replayed_send)


def _sent_before(hand_id: int, key: str | None) -> Logged | None:
    if key is None:
        return None
    done = db.session.scalar(select(PlayedMove).where(PlayedMove.hand_id == hand_id,
                                                      PlayedMove.key == key))
    return None if done is None else _logged(done, True)


def _overtaken(game: Game, hand: Hand, moves: list[PlayedMove], length: int) -> LogOvertaken:
    said: Sentence
    if len(moves) > length and moves:
        _names_, ids = _names(game)
        name_of = {pid: name for name, pid in ids.items()}
        last = moves[-1]
        said = sentence("played.overtaken", count=len(moves), length=length,
                        player=name_of.get(last.player_id, ""))
    else:
        said = sentence("played.undone-since", count=len(moves), length=length)
    return LogOvertaken(said, hand.id, "log-overtaken")


def log_move(game: Game, item: Mapping[str, Any], length: int, key: str | None = None
             ) -> Logged:
    """Log one move (``item``: a move as the API takes it, with its player) made against
    a log of ``length`` moves; ``key``: the phone's key for this send."""
    hand, _deal = played_hand(game)
    hand_id = hand.id
    done = _sent_before(hand_id, key)
    if done is not None:
        return done
    try:
        with live_move(hand):
            return _log(game, hand, item, length, key)
    except (IntegrityError, HandConflict):
        done = _sent_before(hand_id, key)  # the same send, twice at the same moment
        if done is not None:
            return done
        raise


def _log(game: Game, hand: Hand, item: Mapping[str, Any], length: int, key: str | None
         ) -> Logged:
    done = _sent_before(hand.id, key)  # stored while this send waited for the hand's row
    if done is not None:
        return done
    deal = db.session.scalar(select(PlayedHand).where(PlayedHand.hand_id == hand.id))
    assert deal is not None
    moves = _moves(hand)
    if length != len(moves):
        raise _overtaken(game, hand, moves, length)
    walk = replay_stored(game, hand, deal, moves)
    before = len(walk.played)
    try:
        move = move_from(walk, item, len(moves))
        step = walk.play(move)
    except LogError as exc:
        raise MoveRefused(exc.verdict, exc.code) from None
    except PayloadError as exc:
        raise HandError(sentence("played.bad-move", message=exc.message), exc.code) from None
    if step.refused is not None:
        raise MoveRefused(step.refused, "rule-refused")
    _names_, ids = _names(game)
    written = move_json(move)
    del written["player"]
    stored = PlayedMove(hand_id=hand.id, position=len(moves), key=key,
                        player_id=ids[move.player], move=written,
                        overridden=(step.overridden.code if step.overridden is not None
                                    else None))
    db.session.add(stored)
    for played in walk.played[before:]:
        _mirror(game, hand, walk, played.kind, played.player, played.meld_id, played.cards,
                ids)
    history.log(game, history.PLAYED_MOVE, _summary(move.player, written), hand.number,
                {"position": stored.position, "move": written,
                 **({"overridden": stored.overridden} if stored.overridden else {})})
    db.session.flush()
    return _logged(stored)


def _summary(player: str, move: Mapping[str, Any]) -> str:
    """``Ann: take 5``, ``Bo: meld 4S 4H 4D``, ``Cy: discard 7D``: the history's line."""
    words = [str(move["move"])]
    for key in ("take", "card", "onto", "end"):
        if move.get(key) is not None:
            words.append(str(move[key]))
    words += [str(c) for c in move.get("cards", ())]
    return f"{player}: {' '.join(words)}"


def _mirror(game: Game, hand: Hand, walk: Replay, kind: str, player: str, meld_id: str,
            cards: tuple[Card, ...], ids: Mapping[str, int]) -> None:
    """A meld or lay-off the log accepted, stored as the live hand's too."""
    if kind == "meld":
        store_meld(hand, ids[player], cards, meld_id)
        return
    meld = next(m for m in hand.melds if m.label == meld_id)
    table = build_table(game.rules, live_table_players(hand))
    # the table as the log has it after the lay-off: where the card went
    store_layoff(meld, ids[player], cards[0], table, walk.table)


def undo_last(game: Game, length: int) -> Logged:
    """Take back the last move of the log, which must be the last of ``length`` moves the
    phone saw (else :class:`LogOvertaken`), and the meld or lay-off it made."""
    hand, _deal = played_hand(game)
    with live_move(hand):
        moves = _moves(hand)
        if length != len(moves):
            raise _overtaken(game, hand, moves, length)
        if not moves:
            raise HandError(sentence("played.nothing-to-undo"), "nothing-to-undo")
        last = moves[-1]
        deal = db.session.scalar(select(PlayedHand).where(PlayedHand.hand_id == hand.id))
        assert deal is not None
        walk = replay_stored(game, hand, deal, moves)
        for played in reversed([p for p in walk.played if p.step == last.position]):
            meld = next(m for m in hand.melds if m.label == played.meld_id)
            if played.kind == "meld":
                hand.melds.remove(meld)
            else:
                laid = max((c for c in meld.cards if c.is_layoff), key=lambda c: c.id)
                meld.cards.remove(laid)
        undone = _logged(last)
        db.session.execute(delete(PlayedMove).where(PlayedMove.id == last.id))
        _names_, ids = _names(game)
        name_of = {pid: name for name, pid in ids.items()}
        history.log(game, history.PLAYED_UNDO, _summary(name_of[last.player_id], last.move),
                    hand.number, {"position": last.position, "move": dict(last.move)})
    return undone


def upcard_from(value: Any) -> Card:
    """The first upturned card, as the API sends it."""
    try:
        return card_from(value, "upcard")
    except PayloadError as exc:
        raise HandError(sentence("played.bad-move", message=exc.message), exc.code) from None



# --- a log checked against its hand (a league's import, ``flask scorebook verify``) ---------


class LogFault(ValueError):
    """A log (stored, or in a league's file) that is not its hand's: it cannot be replayed
    past move ``number`` (counted from 1; 0: its deal) — the referee's ``verdict``, or
    ``message`` for a move that cannot be read — or the move says it overrode a rule
    (``given``: a verdict's message id, or None) other than the one the referee finds
    (``found``); or (``meld``) the melds and lay-offs it made are not the hand's, from
    the meld labelled ``meld`` on."""

    def __init__(self, number: int = 0, verdict: Verdict | None = None, message: str = "",
                 *, overridden: tuple[str | None, str | None] | None = None,
                 meld: str | None = None) -> None:
        self.number = number
        self.verdict = verdict
        self.message = message or (verdict.message if verdict is not None else "")
        self.overridden = overridden
        self.meld = meld
        super().__init__(self.text())

    def text(self) -> str:
        """In English, as ``flask scorebook verify`` reports it."""
        if self.meld is not None:
            return (f"its log's melds and lay-offs are not the hand's (meld {self.meld})")
        if self.overridden is not None:
            given, found = self.overridden
            return (f"its log's move {self.number} says it overrode {given or 'no rule'}; "
                    f"the referee finds {found or 'no rule'} to override")
        where = "its deal" if self.number == 0 else f"move {self.number}"
        return f"its log does not replay at {where}: {self.message}"


def replay_checked(deal: Deal, moves: Sequence[tuple[str, Mapping[str, Any], str | None]]
                   ) -> tuple[Replay, list[dict[str, Any]]]:
    """Replay a log given as its moves (each: its player, the move as stored, the rule it
    says it overrode): every move must be one the log can hold, that no rule refuses
    unless the table agreed to it, and that overrode the rule it says (as :func:`log_move`
    stored it); else :class:`LogFault`.  The replay, and each move as it is stored."""
    try:
        walk = Replay(deal)
    except LogError as exc:
        raise LogFault(0, exc.verdict) from None
    stored: list[dict[str, Any]] = []
    for index, (player, item, overridden) in enumerate(moves):
        try:
            move = move_from(walk, {**item, "player": player}, index)
            step = walk.play(move)
        except LogError as exc:
            raise LogFault(index + 1, exc.verdict) from None
        except PayloadError as exc:
            raise LogFault(index + 1, message=exc.message) from None
        if step.refused is not None:
            raise LogFault(index + 1, step.refused)
        found = step.overridden.code if step.overridden is not None else None
        if found != overridden:
            raise LogFault(index + 1, overridden=(overridden, found))
        written = move_json(move)
        del written["player"]
        stored.append(written)
    return walk, stored


def check_melds_logged(walk: Replay, melds: Sequence[Meld], name_of: Mapping[int, str]
                       ) -> None:
    """The hand's melds and lay-offs must be the ones its log made (its melds by their
    owners with their cards, each lay-off by its player onto its meld): else
    :class:`LogFault`, naming the first meld (by label) that differs."""
    logged: dict[str, tuple[str, Counter[str]]] = {}
    logged_layoffs: dict[str, Counter[tuple[str, str]]] = {}
    for played in walk.played:
        if played.kind == "meld":
            logged[played.meld_id] = (played.player,
                                      Counter(str(c.natural) for c in played.cards))
        else:
            logged_layoffs.setdefault(played.meld_id, Counter()).update(
                (played.player, str(c.natural)) for c in played.cards)
    stored: dict[str, tuple[str, Counter[str]]] = {}
    stored_layoffs: dict[str, Counter[tuple[str, str]]] = {}
    for meld in melds:
        stored[meld.label] = (name_of.get(meld.owner_id, ""),
                              Counter(c.card for c in meld.cards if not c.is_layoff))
        laid = Counter((name_of.get(c.laid_by_id, ""), c.card)
                       for c in meld.cards if c.is_layoff)
        if laid:
            stored_layoffs[meld.label] = laid
    for label in sorted(set(logged) | set(stored) | set(logged_layoffs) | set(stored_layoffs)):
        if (logged.get(label) != stored.get(label)
                or logged_layoffs.get(label) != stored_layoffs.get(label)):
            raise LogFault(meld=label)


def check_stored_log(game: Game, hand: Hand) -> None:
    """A stored hand's log (:attr:`Hand.played`, :attr:`Hand.played_moves`) replayed and
    held against the hand's melds and lay-offs: :class:`LogFault` if it is not the
    hand's."""
    deal = hand.played
    assert deal is not None
    _names_, ids = _names(game)
    name_of = {pid: name for name, pid in ids.items()}
    walk, _stored_moves = replay_checked(
        deal_of(game, hand, deal),
        [(name_of.get(m.player_id, ""), m.move, m.overridden) for m in hand.played_moves])
    check_melds_logged(walk, hand.melds, name_of)


def verify_logs(games: Sequence[Game]) -> list[str]:
    """``flask scorebook verify``: one line per stored hand whose log does not replay, or
    whose melds and lay-offs are not the ones its log made."""
    problems = []
    for game in games:
        for hand in game.hands:
            if hand.played is None:
                continue
            try:
                check_stored_log(game, hand)
            except LogFault as exc:
                problems.append(f"game {game.id} hand {hand.number}: {exc.text()}")
    return problems
