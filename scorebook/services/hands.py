"""Recording, editing and deleting hands, and the live hand.

Every write goes through the referee first (:func:`check_entry`) and is stored in
one transaction: the melds with every card and who laid it, the stranded cards,
the referee's score of each player (a cache), the game's status and winner, and
a history entry.  Two phones saving the same hand: the unique (game, hand number)
constraint and the hand's ``version`` make one of them fail with
:class:`HandConflict`, which carries the hand that was stored.

Stale writes never land on another hand.  A hand is addressed by its number, which
moves up when an earlier hand is deleted, so a change says which hand it means (its
``id``, which never moves) and which ``version`` of it was read.  The versions are
chosen here, never by a plain counter per hand: an edit or a live move adds one,
and a hand that takes a number (recorded, started live, or moved up by a deletion)
starts above :attr:`Game.hand_version_mark`, the highest version any hand had when
it gave its number up.  So the version found at a number only ever grows, and a
phone holding (number, version) of a hand that has since gone can never match the
hand that now has that number, even when it sends no id (:func:`check_stale`).

The live hand is locked move by move, not as a whole (:func:`_lock_live`): each
move's transaction first takes the hand's row, so moves sent at the same moment
from two phones are applied one after the other, each checked against the table
as the other left it.  A move is refused only when it really conflicts: a card
already used up, a lay-off on a meld that is gone or that no longer takes it, or a
hand that has finished.

Each change a family makes at the table (a hand recorded, edited, deleted or finished
live, a live move) also keeps what undoing it needs, as the game's newest undo step
(:mod:`scorebook.services.undo`); :func:`undo_step` undoes it as a new change, with new
versions, and only while nothing else changed in the game since.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from referee import (
    RUN,
    SET,
    Card,
    HandScore,
    PlayerHand,
    RuleSet,
    ScoringError,
    Table,
    TableError,
    Verdict,
    apply_layoff,
    build_table,
    card_value,
    cards_of,
    check_copies,
    check_layoff,
    check_meld,
    fewer_than_dealt,
    holding_nothing,
    layoff_end,
    make_meld,
    most_points,
    parse_card,
    score_hand,
    score_points,
)
from referee.melds import Reading
from scorebook.extensions import db
from scorebook.models import (
    MELD_LABEL_LENGTH,
    WENT_OUT,
    Change,
    Game,
    Hand,
    Meld,
    MeldCard,
    PlayedHand,
    SendKey,
    StrandedCard,
    UndoStep,
    utcnow,
)
from scorebook.models import (
    HandScore as StoredScore,
)
from scorebook.services import history, undo
from scorebook.services.entry import (
    Entry,
    HandError,
    Problem,
    outcome_problems,
    stored_players,
)
from scorebook.services.errors import Sentence, sentence
from scorebook.services.games import live_hand, next_dealer_position, next_hand_number, recompute
from scorebook.services.transaction import transaction


class HandConflict(HandError):
    """The hand changed under the scorer (another phone saved it first): 409.
    ``hand_id`` is the stored hand to show instead; ``renumbered`` says the hands were
    renumbered since the scorer read them (a hand before this one was deleted)."""

    status = 409

    def __init__(self, said: Sentence, hand_id: int | None, code: str = "hand-conflict",
                 renumbered: bool = False) -> None:
        super().__init__(said, code)
        self.hand_id = hand_id
        self.renumbered = renumbered


class VersionRequired(HandError):
    """A change or a deletion that does not say which version of the hand it means:
    428 Precondition Required (without it, a stale phone could change another hand)."""

    status = 428

    def __init__(self) -> None:
        super().__init__(sentence("hand.version-required"), "version-required")


class GameClosed(HandError):
    """The game is finished or abandoned: no new hands."""

    status = 409


# --- checking a hand with the referee ------------------------------------------------------


def meld_label(player: str, k: int) -> str:
    """A live meld's id within its hand: its owner and its number among their melds."""
    return f"{player}-{k}"


def _verdict(verdict: Verdict) -> Sentence:
    """A referee verdict as a sentence: the presenters explain it."""
    return sentence("hand.verdict", verdict=verdict)


#: A checked hand: its players in seat order, the referee's score, and the players marked
#: as missing cards (RULES.md §10 "Fewer cards than dealt", :func:`missing_marks`).
Checked = tuple[list[PlayerHand], HandScore, frozenset[str]]


def check_entry(game: Game, entry: Entry, ask_missing: bool = True) -> Checked:
    """The entry's players in seat order, the referee's score of the hand and the players
    marked as missing cards; raises :class:`HandError` listing every problem found, each
    placed where it belongs.  A hand in which a player who did not go out holds no cards
    is impossible (``out.empty-hand``, code ``holds-no-cards``).  A player with fewer
    cards than were dealt (§10) is asked about unless ``entry.missing_ok`` names them
    (code ``fewer-than-dealt``); with ``ask_missing`` False nobody is asked and only those
    named are marked (a league file says which players it marked)."""
    rules = game.rules
    names = [s.player.name for s in game.seats]
    given = {p.name: p for p in entry.players}
    if sorted(given) != sorted(names) or len(entry.players) != len(names):
        raise HandError(sentence("hand.players-mismatch", names=names), "bad-players")
    players = [given[n] for n in names]
    if entry.points is not None:
        # no cards, so nothing to count: a points-only hand cannot say who held none
        return players, check_points(game, players, entry), frozenset()
    problems: list[Problem] = _outcome_problems(rules, entry)

    if not any(p.melds or p.layoffs or p.hand for p in players):
        raise HandError([Problem(sentence("hand.no-cards"), field="cards")], "empty-hand")

    meld_problems, owners = check_melds(players, rules, loose=entry.loose)
    problems += meld_problems
    for p in players:
        for j, (card, onto, end) in enumerate(p.layoff_ends()):
            if onto not in owners:
                problems.append(Problem(sentence("hand.layoff-off-table", card=card),
                                        p.name, "layoffs", j))
            elif card.is_joker and card.stands_for is None and owners[onto][2] == RUN:
                owner, index = owners[onto][:2]
                problems.append(Problem(sentence("hand.layoff-joker-unsaid", owner=owner,
                                                 index=index), p.name, "layoffs", j))
            elif end is not None and owners[onto][2] == SET:
                owner, index = owners[onto][:2]
                problems.append(Problem(sentence("hand.layoff-end-on-set", card=card,
                                                 owner=owner, index=index),
                                        p.name, "layoffs", j))
        if p.going_rummy and (not rules.is_basic or p.name != entry.went_out):
            problems.append(Problem(sentence("hand.going-rummy-not-out"),
                                    field="going_rummy"))
        if p.name == entry.went_out and p.hand:
            problems.append(Problem(sentence("hand.out-holding-cards", name=p.name),
                                    p.name, "hand"))

    everything = [c for p in players for _m, cards in p.melds for c in cards]
    everything += [lay[0] for p in players for lay in p.layoffs]
    everything += [c for p in players for c in p.hand]
    too_many = check_copies(everything, rules, len(players))
    if too_many is not None:
        problems.append(Problem(_verdict(too_many), field="cards"))
    if problems:
        raise HandError(problems)

    try:
        result = score_hand(rules, players, entry.went_out)
    except ScoringError as exc:
        if exc.code == "holds-no-cards":
            # out.empty-hand: whoever is left with no cards went out; each such player is
            # named at their cards (the referee names the first)
            raise HandError([Problem(sentence("hand.holds-no-cards", name=name), name, "hand")
                             for name in holding_nothing(rules, players, entry.went_out)],
                            exc.code, exc.rules) from exc
        raise HandError([_scoring_problem(exc, players, owners)], exc.code,
                        exc.rules) from exc
    return players, result, missing_marks(rules, players, entry, ask_missing)


def missing_marks(rules: RuleSet, players: Sequence[PlayerHand], entry: Entry,
                  ask: bool = True) -> frozenset[str]:
    """RULES.md §10 "Fewer cards than dealt": the players of a checked hand who end it with
    fewer cards than were dealt and are to be stored marked as missing cards — those the
    family confirmed (``entry.missing_ok``; every one when it is None).  With ``ask``, a
    short player the family has not confirmed refuses the hand (code
    ``fewer-than-dealt``): each is named, with the count, for the page to ask about."""
    short = fewer_than_dealt(rules, players)
    # points given for a player's hand say the cards are not remembered: that is the
    # family's confirmation (issue 27), asked for no more
    confirmed = frozenset(entry.missing_ok or ()) | {
        p.name for p in players if p.held_points is not None}
    if entry.missing_ok is None:
        return frozenset(name for name, _count in short)
    unconfirmed = [(name, count) for name, count in short if name not in confirmed]
    if ask and unconfirmed:
        dealt = rules.cards_dealt(len(players))
        raise HandError([Problem(sentence("hand.fewer-than-dealt", name=name, count=count,
                                          dealt=dealt), name, "missing_ok")
                         for name, count in unconfirmed], "fewer-than-dealt", ("cards.deal",))
    return frozenset(name for name, _count in short if name in confirmed)


def check_points(game: Game, players: Sequence[PlayerHand], entry: Entry) -> HandScore:
    """A hand given as points only (``entry.points``): its outcome checked as any hand's
    is, its points by the referee as points the rules let a hand score
    (:func:`referee.score_points`), never its cards (it has none)."""
    rules = game.rules
    assert entry.points is not None
    problems = _outcome_problems(rules, entry)
    for p in players:
        if p.going_rummy and (not rules.is_basic or p.name != entry.went_out):
            problems.append(Problem(sentence("hand.going-rummy-not-out"),
                                    field="going_rummy"))
            break
    if problems:
        raise HandError(problems)
    try:
        return score_points(rules, [(p.name, entry.points[p.name]) for p in players],
                            entry.went_out, any(p.going_rummy for p in players))
    except ScoringError as exc:
        raise HandError([_points_problem(exc, rules, len(players), entry)], exc.code) from exc


def _points_problem(exc: ScoringError, rules: RuleSet, count: int, entry: Entry) -> Problem:
    """What is wrong with a hand's points, at the player's points."""
    name = exc.player
    who = name or ""
    if exc.code == "points-out-of-range":
        said = sentence("hand.points-out-of-range", name=who, most=most_points(rules, count))
    elif exc.code == "points-too-many":
        said = sentence("hand.points-too-many", most=most_points(rules, count))
    elif exc.code == "went-out-below-zero":
        said = sentence("hand.went-out-below-zero", name=who)
    elif exc.code == "only-winner-scores" and entry.went_out is None:
        said = sentence("hand.draw-scores-nothing")
    elif exc.code == "only-winner-scores":
        said = sentence("hand.only-winner-scores", name=who)
    elif exc.code == "going-rummy-odd":
        said = sentence("hand.going-rummy-odd", name=who)
    else:
        said = sentence("hand.impossible", error=exc)
    return Problem(said, name, "points" if name else None)


def _outcome_problems(rules: RuleSet, entry: Entry) -> list[Problem]:
    """How the hand ended, as the family allows (:func:`entry.outcome_problems`)."""
    return outcome_problems(rules.is_basic, entry.ending, entry.went_out)


def check_melds(players: Sequence[PlayerHand], rules: RuleSet, loose: bool = False
                ) -> tuple[list[Problem], dict[str, tuple[str, int, str]]]:
    """Every meld put down, each checked on its own: the problems found, and each meld
    id's owner, index among their melds and kind ("" for a meld that is not legal).
    ``loose``: the cards were tapped in any order, so a joker is not read from its
    place (``meld.joker``)."""
    problems: list[Problem] = []
    owners: dict[str, tuple[str, int, str]] = {}
    for p in players:
        for k, (meld_id, cards) in enumerate(p.melds):
            if len(meld_id) > MELD_LABEL_LENGTH:
                problems.append(Problem(sentence("hand.meld-name-too-long",
                                                 max=MELD_LABEL_LENGTH), p.name, "melds", k))
                continue
            if meld_id in owners:
                problems.append(Problem(sentence("hand.meld-names-twice"), p.name,
                                        "melds", k))
                continue
            problem = _check_meld(cards, rules, loose)
            if problem:
                problems.append(Problem(problem, p.name, "melds", k))
                owners[meld_id] = (p.name, k, "")
            else:
                owners[meld_id] = (p.name, k, make_meld(meld_id, cards, rules).kind)
    return problems, owners


def _check_meld(cards: Sequence[Card], rules: RuleSet, loose: bool = False
                ) -> Sentence | None:
    """Why these cards cannot be put down as one meld, or None.  Cards as they lie read
    an end joker (or the ace of a 13-card run) from its place; a ``loose`` bunch (tapped
    in any order) must name every joker's card, since no place shows it."""
    verdict = check_meld(cards, rules)
    if not verdict.legal:
        return _verdict(verdict)
    readings = tuple(verdict.detail.get("readings", ()))
    if loose and len({_joker_cards(r) for r in readings}) > 1:
        return sentence("hand.say-jokers", readings=readings)
    try:
        make_meld("m", cards, rules)
    except TableError:
        if verdict.code == "meld.ace-either-end":
            return sentence("hand.say-ace-end", readings=readings)
        return sentence("hand.say-jokers", readings=readings)
    return None


def _joker_cards(reading: Reading) -> tuple[str, ...]:
    """The cards a reading's jokers stand for (its declarations), in a canonical order."""
    return tuple(sorted(str(c.stands_for) for c in reading.cards if c.is_joker))


def _scoring_problem(exc: ScoringError, players: Sequence[PlayerHand],
                     owners: Mapping[str, tuple[str, int, str]]) -> Problem:
    if exc.code == "bad-layoff" and exc.card:
        for p in players:
            for j, (card, onto, end) in enumerate(p.layoff_ends()):
                if card == exc.card:
                    owner, index = owners[onto][:2]
                    said = sentence(_NOT_LAID_OFF[end], card=card, owner=owner, index=index)
                    return Problem(said, p.name, "layoffs", j)
    if exc.code == "bad-layoff":
        return Problem(sentence("hand.layoffs-impossible"), field="cards")
    return Problem(sentence("hand.impossible", error=exc), field="cards")


#: Why a card cannot be laid off on a meld, by the end of the run it was laid at.
_NOT_LAID_OFF = {"low": "hand.layoff-not-at-low-end", "high": "hand.layoff-not-at-high-end",
                 None: "hand.layoff-not-on-meld"}


# --- storing -----------------------------------------------------------------------------


def _declared(cards: Sequence[Card], reading: Reading) -> list[Card]:
    """The cards as given, each joker carrying the card the referee read it as
    (jokers are alike, so they take the reading's declarations in order)."""
    declarations = [c for c in reading.cards if c.is_joker]
    out = []
    for card in cards:
        if card.is_joker and declarations:
            out.append(declarations.pop(0))
        else:
            out.append(card)
    return out


def _meld_card_row(card: Card, laid_by: int, is_layoff: bool, position: int,
                   end: str | None = None) -> dict[str, Any]:
    """A :class:`MeldCard`'s columns (its ``meld_id`` added by the caller)."""
    declared = str(card.stands_for) if card.is_joker and card.stands_for else None
    return {"card": str(card.natural), "declared": declared, "laid_by_id": laid_by,
            "is_layoff": is_layoff, "position": position, "end": end}


def _meld_card(card: Card, laid_by: int, is_layoff: bool, position: int,
               end: str | None = None) -> MeldCard:
    return MeldCard(**_meld_card_row(card, laid_by, is_layoff, position, end))


def _store(hand: Hand, game: Game, players: Sequence[PlayerHand], result: HandScore,
           missing: frozenset[str] = frozenset()) -> None:
    """Replace the hand's melds, stranded cards and scores with these; the players in
    ``missing`` are marked as missing cards (§10, :func:`missing_marks`).

    The rows go in as a few bulk INSERTs (one per table, and one SELECT for the melds'
    ids), not as ORM objects: the ORM inserts one row a statement wherever it needs the
    new ids back (every ``RETURNING`` on SQLite), about 40 statements for a hand of six,
    most of a recorded hand's CPU (issue 28).  The hand's collections are expired, so
    whatever reads them next (a snapshot, the answer) loads what was stored.  A hand not
    flushed yet (no id: a league's import) gets them as ORM objects, as before."""
    rules = game.rules
    ids = {s.player.name: s.player_id for s in game.seats}
    if hand.melds or hand.stranded or hand.scores:
        hand.melds.clear()
        hand.stranded.clear()
        hand.scores.clear()
        db.session.flush()  # the old rows go before new ones reuse their labels
    hand_id = hand.id
    melds: list[dict[str, Any]] = []
    cards: dict[str, list[dict[str, Any]]] = {}
    for p in players:
        for meld_id, laid_cards in p.melds:
            final = result.table.get(meld_id)
            melds.append({"hand_id": hand_id, "owner_id": ids[p.name], "label": meld_id,
                          "position": len(melds), "kind": final.kind,
                          "reading": str(final.reading)})
            laid = _declared(laid_cards, make_meld(meld_id, laid_cards, rules).reading)
            cards[meld_id] = [_meld_card_row(c, ids[p.name], False, i)
                              for i, c in enumerate(laid)]
    for p in players:
        for card, onto, _end in p.layoff_ends():
            on_meld = cards[onto]
            # an ace on a run: the end it went to, as scored (values.ace-end)
            end = layoff_end(result.table, onto, card)
            on_meld.append(_meld_card_row(card, ids[p.name], True, len(on_meld), end))
    stranded = [{"hand_id": hand_id, "player_id": ids[p.name], "card": str(card.natural),
                 "position": i}
                for p in players for i, card in enumerate(p.hand)]
    held = {p.name: p.held_points for p in players}
    scores = [{"hand_id": hand_id, "player_id": ids[score.name], "melded": score.melded,
               "stranded": score.stranded, "score": score.score,
               "cards_missing": score.name in missing, "held_points": held.get(score.name)}
              for score in result.players]
    if hand_id is None:  # a hand not flushed yet (a league's import): as ORM objects
        for row in melds:
            meld = Meld(**{k: v for k, v in row.items() if k != "hand_id"})
            meld.cards = [MeldCard(**card) for card in cards[meld.label]]
            hand.melds.append(meld)
        hand.stranded.extend(StrandedCard(**{k: v for k, v in row.items() if k != "hand_id"})
                             for row in stranded)
        hand.scores.extend(StoredScore(**{k: v for k, v in row.items() if k != "hand_id"})
                           for row in scores)
        return
    if melds:
        db.session.execute(insert(Meld), melds)
        meld_ids = dict(db.session.execute(select(Meld.label, Meld.id).where(
            Meld.hand_id == hand_id)).tuples().all())
        card_rows = [{**row, "meld_id": meld_ids[label]}
                     for label, rows in cards.items() for row in rows]
        if card_rows:
            db.session.execute(insert(MeldCard), card_rows)
    if stranded:
        db.session.execute(insert(StrandedCard), stranded)
    if scores:
        db.session.execute(insert(StoredScore), scores)
    db.session.expire(hand, ["melds", "stranded", "scores"])


def _set_outcome(hand: Hand, game: Game, entry: Entry) -> None:
    ids = {s.player.name: s.player_id for s in game.seats}
    assert entry.ending is not None  # (check_entry refuses a hand that says no ending)
    hand.ending = entry.ending
    hand.went_out_id = ids[entry.went_out] if entry.went_out else None
    hand.going_rummy = any(p.going_rummy for p in entry.players)
    hand.points_only = entry.points is not None
    hand.updated_at = utcnow()  # always an UPDATE, so the version is checked and bumped


def _recorded_details(game: Game, players: Sequence[PlayerHand], entry: Entry,
                      missing: frozenset[str]) -> dict[str, Any] | None:
    """What a history entry of a hand stored keeps besides its summary: that it is points
    only, and the players marked as missing cards (§10) with their count and the deal."""
    details: dict[str, Any] = {}
    if entry.points is not None:
        details["points_only"] = True
    if missing:
        details["missing"] = {p.name: cards_of(p) for p in players if p.name in missing}
        details["dealt"] = game.rules.cards_dealt(len(players))
    return details or None


def missing_cards(game: Game, hand: Hand) -> list[tuple[str, int, int]]:
    """The players of a stored hand marked as missing cards (RULES.md §10), in seat order:
    each one's name, how many cards the hand records for them and how many were dealt."""
    marked = {s.player_id for s in hand.scores if s.cards_missing}
    if not marked:
        return []
    names, ids = _names_ids(game)
    dealt = game.rules.cards_dealt(len(names))
    return [(p.name, cards_of(p), dealt) for p in stored_players(hand, names, ids)
            if ids[p.name] in marked]


def summary(players: Sequence[PlayerHand], result: HandScore) -> str:
    """``Ann +40, Ben -12, Cy 0``: the plain, language-neutral summary a history entry
    keeps (the page gives it a real minus sign)."""
    return ", ".join(f"{p.name} {p.score:+d}" if p.score else f"{p.name} 0"
                     for p in result.players)


def hand_scores(hand: Hand) -> list[tuple[str, int]]:
    """A stored hand's scores in seat order: each player's name and score (a page says
    them as ``Ann +40, Ben −12``: ``scores_text`` of the presenters)."""
    by_player = {s.player_id: s.score for s in hand.scores}
    return [(seat.player.name, by_player.get(seat.player_id, 0)) for seat in hand.game.seats]


def snapshot(hand: Hand) -> dict[str, Any]:
    """What a hand holds, as plain data for the history (:class:`Change.details`): how
    it ended and, per player in seat order, the score, the melds put down, the cards
    laid off (with the meld they went on) and the cards left in hand."""
    game = hand.game
    names = {s.player_id: s.player.name for s in game.seats}
    scores = {s.player_id: s.score for s in hand.scores}
    labels: dict[str, str] = {}
    counts: dict[int, int] = {}
    for m in hand.melds:
        counts[m.owner_id] = counts.get(m.owner_id, 0) + 1
        labels[m.label] = f"{names.get(m.owner_id, '?')}-{counts[m.owner_id]}"
    missing = {s.player_id for s in hand.scores if s.cards_missing}
    held = {s.player_id: s.held_points for s in hand.scores if s.held_points is not None}
    players = []
    for seat in game.seats:
        pid = seat.player_id
        players.append({
            "name": seat.player.name,
            "score": scores.get(pid) if hand.complete else None,
            **({"cards_missing": True} if pid in missing else {}),
            **({"held_points": held[pid]} if pid in held else {}),
            "melds": [[c.text for c in m.cards if not c.is_layoff]
                      for m in hand.melds if m.owner_id == pid],
            "layoffs": [[c.text, labels[m.label]] for m in hand.melds for c in m.cards
                        if c.is_layoff and c.laid_by_id == pid],
            "hand": [c.card for c in hand.stranded if c.player_id == pid],
        })
    return {"number": hand.number, "ending": hand.ending,
            "went_out": names.get(hand.went_out_id) if hand.went_out_id else None,
            "going_rummy": hand.going_rummy, "complete": hand.complete,
            "points_only": bool(hand.points_only), "players": players}


def _fresh_version(game: Game) -> int:
    """The version a hand starts with when it takes a number: above every version a hand
    had when it gave a number up, so no phone can still hold it for that number."""
    return (game.hand_version_mark or 0) + 1


def _retire_versions(game: Game, leaving: Sequence[Hand]) -> int:
    """Hands about to give up their numbers: raise the game's mark above their versions."""
    mark = max([game.hand_version_mark or 0, *(h.version for h in leaving)])
    game.hand_version_mark = mark
    return mark


# --- the keys of the sends: the same send twice stores one hand ---------------------------
# A phone that sent a hand cannot tell, when the network cut the answer, whether the server
# stored it: it sends it again with the same key (static/js/outbox.js; the API's
# Idempotency-Key). The key and what its send did are kept apart from the hand
# (:class:`SendKey`), for SEND_KEY_DAYS, so the second try is answered as the first was --
# with the hand it stored, wherever it is numbered now, or, if another phone deleted that
# hand since, with a refusal that says so: the hand never comes back.

#: A send's key (static/js/outbox.js makes one per hand sent): letters, digits, - and _.
SEND_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: How long a send's key (and what its send did) is kept: a send tried again within it is
#: answered as its first try was. A phone's queue drops a hand untouched for 14 days
#: (static/js/drafts.js); every save of a hand clears keys older than this.
SEND_KEY_DAYS = 30
RECORD, EDIT = "record", "edit"


class SentHandDeleted(HandError):
    """The hand a send with this key stored was deleted since (by another phone): 410.
    It is not stored again; the phone is told so and stops sending it."""

    status = 410

    def __init__(self, number: int) -> None:
        super().__init__(sentence("hand.deleted-since-sent", number=number),
                         "hand-deleted-since")


@dataclass(frozen=True)
class Sent:
    """What a send did: the ``hand`` it stored, or (``replayed``) the one a send with the
    same key stored before."""

    hand: Hand
    replayed: bool = False


def send_key(value: object) -> str | None:
    """The key a phone sent a hand with (None when it sent none); a key not of the
    form :data:`SEND_KEY` is refused, as nothing could be matched by it."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not SEND_KEY.fullmatch(value):
        raise HandError(sentence("hand.bad-key"), "bad-key")
    return value


def sent_before(game_id: int, key: str | None, kind: str = RECORD) -> Hand | None:
    """The hand a send with ``key`` already stored in the game (``kind``: "record" or
    "edit"), if it did: the same send tried again after its answer was lost.  If that
    hand was deleted since, :class:`SentHandDeleted`."""
    if not key:
        return None
    kept = db.session.execute(select(SendKey.hand_id, SendKey.number).where(
        SendKey.game_id == game_id, SendKey.kind == kind, SendKey.key == key)).first()
    if kept is None:
        return None
    hand = db.session.get(Hand, kept.hand_id) if kept.hand_id is not None else None
    if hand is None or not hand.complete:
        raise SentHandDeleted(kept.number)
    return hand


def _keep_key(hand: Hand, key: str | None, kind: str) -> None:
    """Keep ``key`` with what its send did to ``hand`` (in the send's own transaction: of
    two sends with one key, the second cannot commit), and drop keys past their days."""
    if key is None:
        return
    db.session.execute(delete(SendKey).where(
        SendKey.created_at < utcnow() - timedelta(days=SEND_KEY_DAYS)
    ).execution_options(synchronize_session=False))
    db.session.add(SendKey(game_id=hand.game_id, kind=kind, key=key, hand_id=hand.id,
                           number=hand.number, version=hand.version))


def record_hand(game: Game, entry: Entry, number: int | None = None,
                key: str | None = None) -> Hand:
    """Store a new hand (``number`` is the hand the scorer was recording: when
    another phone has just stored it, :class:`HandConflict`).  ``key`` is the phone's
    key for this send: when a send with it stored a hand already, that hand is the
    answer (wherever it is now numbered) and nothing is stored again
    (:func:`record_sent` says which it was)."""
    return record_sent(game, entry, number, key).hand


def record_sent(game: Game, entry: Entry, number: int | None = None,
                key: str | None = None) -> Sent:
    """:func:`record_hand`, saying whether the hand was stored now or by a send with the
    same key before (``replayed``): of sends with one key at once, one stores it."""
    game_id = game.id
    done = sent_before(game_id, key)
    if done is not None:
        return Sent(done, replayed=True)
    try:
        return Sent(_record(game, entry, number, key))
    except HandError:
        # the same send, tried twice at the same moment: the other one stored it
        done = sent_before(game_id, key)
        if done is not None:
            return Sent(done, replayed=True)
        raise


def _record(game: Game, entry: Entry, number: int | None, key: str | None) -> Hand:
    expected = next_hand_number(game)
    stored = db.session.scalar(select(Hand.id).where(
        Hand.game_id == game.id, Hand.number == number, Hand.complete.is_(True)))
    if stored is not None:
        raise HandConflict(sentence("hand.just-recorded", number=number), stored,
                           "hand-recorded")
    if not game.is_open:
        raise GameClosed(sentence("hand.game-over"), "game-closed")
    live = live_hand(game)
    if live is not None:
        raise HandConflict(sentence("hand.being-recorded-live", number=live.number), live.id,
                           "hand-live")
    if number is not None and number != expected:
        raise HandError(sentence("hand.not-yet", number=number))
    players, result, missing = check_entry(game, entry)
    dealer = game.seats[next_dealer_position(game)].player_id
    hand = Hand(game_id=game.id, number=expected, dealer_id=dealer, complete=True,
                version=_fresh_version(game), melds=[], stranded=[], scores=[])
    db.session.add(hand)
    _set_outcome(hand, game, entry)
    game_id = game.id
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        stored_id = db.session.scalar(select(Hand.id).where(
            Hand.game_id == game_id, Hand.number == expected))
        raise HandConflict(sentence("hand.just-recorded", number=expected), stored_id,
                           "hand-recorded") from None
    try:
        with transaction():
            _store(hand, game, players, result, missing)
            recompute(game)
            change = history.log(game, history.RECORDED, summary(players, result),
                                 hand.number, _recorded_details(game, players, entry, missing))
            _keep_key(hand, key, RECORD)
            _undoable(game, undo.HAND_RECORDED, change, {"hand": hand.id,
                                                         "version": hand.version})
    except (StaleDataError, IntegrityError):  # the game changed under us: nothing stored
        stored_id = db.session.scalar(select(Hand.id).where(
            Hand.game_id == game_id, Hand.number == expected))
        if stored_id is not None:
            raise HandConflict(sentence("hand.just-recorded", number=expected), stored_id,
                               "hand-recorded") from None
        raise HandConflict(sentence("hand.game-changed"), None, "game-changed") from None
    return hand


def check_stale(game: Game, number: int, hand: Hand | None, hand_id: int | None,
                version: int | None) -> Hand:
    """The hand a change to hand ``number`` may be made to: ``hand`` (the complete hand
    now at that number, or None), if it is the one the phone read (``hand_id``, when
    the phone sent it) at the version the phone read.  Otherwise a
    :class:`HandConflict` that shows the hand as it is now and says why: it was
    changed, or the hands were renumbered (a hand before it was deleted)."""
    if version is None:
        raise VersionRequired()
    if hand_id is not None and (hand is None or hand.id != hand_id):
        meant = db.session.get(Hand, hand_id)
        if meant is not None and meant.game_id == game.id and meant.complete:
            raise HandConflict(sentence("hand.renumbered", number=number, now=meant.number),
                               meant.id, "hands-renumbered", True)
        if hand is not None:
            raise HandConflict(sentence("hand.deleted-and-renumbered", number=number),
                               hand.id, "hands-renumbered", True)
        raise HandConflict(sentence("hand.deleted", number=number), None, "hand-deleted",
                           True)
    if hand is None:
        raise HandError(sentence("hand.not-found", number=number), "not-found")
    if version != hand.version:
        if hand_id is None and version < (game.hand_version_mark or 0) + 1 <= hand.version:
            # a version older than the last renumbering: the phone may mean another hand
            raise HandConflict(sentence("hand.not-as-read", number=number), hand.id,
                               "hand-changed", True)
        raise HandConflict(sentence("hand.changed-since", number=hand.number), hand.id,
                           "hand-changed")
    return hand


@contextmanager
def _guard(hand_id: int, number: int) -> Iterator[None]:
    """Commit at the end; a concurrent change to the same hand becomes a conflict."""
    try:
        with transaction():
            yield
    except (StaleDataError, IntegrityError):
        raise HandConflict(sentence("hand.changed-at-once", number=number), hand_id,
                           "hand-changed") from None


def _store_complete(hand: Hand, game: Game, entry: Entry, action: str,
                    details: Mapping[str, Any] | None = None, key: str | None = None
                    ) -> Hand:
    """Check ``entry`` with the referee and store it as ``hand``'s cards, complete,
    in one transaction (an edit, or a live hand finished); ``action`` is logged, with
    the hand before and after it when ``details`` holds the hand before."""
    players, result, missing = check_entry(game, entry)
    hand_id, number = hand.id, hand.number
    was = _rows(hand)  # what undoing this puts back (scorebook.services.undo)
    kind = undo.HAND_EDITED if hand.complete else undo.HAND_FINISHED
    with _guard(hand_id, number):
        _set_outcome(hand, game, entry)
        _store(hand, game, players, result, missing)
        hand.complete = True
        hand.version = hand.version + 1
        _keep_key(hand, key, EDIT)
        recompute(game)
        extra = _recorded_details(game, players, entry, missing)
        if details is not None:
            db.session.flush()
            extra = {**details, "after": snapshot(hand)}
        change = history.log(game, action, summary(players, result), number, extra)
        _undoable(game, kind, change, {"hand": hand_id, "version": hand.version,
                                       "before": was})
    return hand


def edit_hand(hand: Hand, entry: Entry, version: int | None, hand_id: int | None = None,
              key: str | None = None) -> Hand:
    """Replace a stored hand's cards (``version``: the one the scorer edited; ``hand_id``:
    the hand the scorer edited, when the page or the client says; ``key``: the phone's
    key for this send, kept with what it did: :class:`SendKey`)."""
    game = hand.game
    check_stale(game, hand.number, hand, hand_id, version)
    if hand.played is not None:
        # A logged hand edited: the record was wrong, so its log no longer says how the
        # hand was played (the export's import and verify would find them apart). The
        # log goes in the edit's transaction (kept if the edit is refused).
        hand.played = None
        hand.played_moves.clear()
    return _store_complete(hand, game, entry, history.EDITED, {"before": snapshot(hand)},
                           key=key)


def delete_hand(hand: Hand, version: int | None, hand_id: int | None = None) -> None:
    """Delete a hand; later hands move up one number (and take fresh versions)."""
    game = hand.game
    check_stale(game, hand.number, hand, hand_id, version)
    number, the_id = hand.number, hand.id
    held = snapshot(hand)
    rows = _rows(hand)
    # the sends that stored or changed it: an undo gives them their hand back
    rows["keys"] = list(db.session.scalars(select(SendKey.id).where(
        SendKey.hand_id == the_id)))
    with _guard(the_id, number):
        moved = _remove(game, hand)
        change = history.log(game, history.DELETED, f"Hand {number} deleted",
                             number, {"held": held, "moved": moved})
        _undoable(game, undo.HAND_DELETED, change, {"hand": rows})


# --- the live hand -------------------------------------------------------------------------


def start_live(game: Game) -> Hand:
    """The hand being played live, started now if there is none."""
    live = live_hand(game)
    if live is not None:
        return live
    if not game.is_open:
        raise GameClosed(sentence("hand.game-over"), "game-closed")
    number = next_hand_number(game)
    dealer = game.seats[next_dealer_position(game)].player_id
    hand = Hand(game_id=game.id, number=number, dealer_id=dealer, complete=False,
                ending=WENT_OUT, version=_fresh_version(game))
    db.session.add(hand)
    try:
        with transaction():
            db.session.flush()
            game.revision = (game.revision or 0) + 1  # the scoreboard now says it is live
            history.log(game, history.LIVE_STARTED, "", number)
    except (IntegrityError, StaleDataError):
        raise HandConflict(sentence("hand.just-started", number=number), None,
                           "hand-recorded") from None
    return hand


def _names_ids(game: Game) -> tuple[list[str], dict[str, int]]:
    names = [s.player.name for s in game.seats]
    return names, {s.player.name: s.player_id for s in game.seats}


def live_table_players(hand: Hand) -> list[PlayerHand]:
    names, ids = _names_ids(hand.game)
    return stored_players(hand, names, ids)


def _live_cards(hand: Hand) -> list[Card]:
    players = live_table_players(hand)
    return [c for p in players for _m, cards in p.melds for c in cards] + [
        lay[0] for p in players for lay in p.layoffs]


def _played_already(hand: Hand, too_many: Verdict, player: str, field: str) -> HandError:
    """A live move refused for a card every copy of which is on the table already:
    who put it there, and how (melded, or laid off on whose meld) — most often on
    another phone a moment before."""
    card = too_many.params.get("card")
    names = {s.player_id: s.player.name for s in hand.game.seats}
    plays = []
    if isinstance(card, Card):
        for meld in sorted(hand.melds, key=lambda m: m.position):
            for c in meld.cards:
                played = parse_card(c.card)
                if played.is_joker == card.is_joker and (
                        card.is_joker or (played.rank, played.suit) == (card.rank, card.suit)):
                    plays.append((names.get(c.laid_by_id, ""), meld.label, c.is_layoff))
    if not plays:
        return HandError([Problem(_verdict(too_many), player, field)], "card-used")
    said = sentence("hand.card-on-table", card=card, plays=tuple(plays))
    return HandError([Problem(said, player, field)], "card-used")


def live_moves(hand: Hand) -> int:
    """How many moves a live hand holds: each meld put down and each card laid off."""
    return sum(1 for m in hand.melds) + sum(1 for m in hand.melds for c in m.cards
                                            if c.is_layoff)


def finished_elsewhere(hand_id: int, number: int) -> HandConflict:
    """The live hand a move was meant for has ended on another phone: say how."""
    hand = db.session.get(Hand, hand_id)
    if hand is not None and hand.complete:
        return HandConflict(sentence("hand.saved-elsewhere", number=hand.number,
                                     scores=hand_scores(hand)), hand.id, "hand-finished")
    return HandConflict(sentence("hand.cancelled-elsewhere", number=number), None,
                        "hand-cancelled")


def _lock_live(hand: Hand) -> None:
    """Begin a live move: take the hand's row (a move from another phone waits here until
    this one is stored, and this one waits for it), add one to its version, then read
    the hand again as the other moves left it.  A hand finished (or cancelled) on
    another phone meanwhile: :class:`HandConflict`."""
    hand_id, number = hand.id, hand.number
    if not hand.game.is_open:  # abandoned while the hand was being played
        raise GameClosed(sentence("hand.game-over"), "game-closed")
    # (cast: an UPDATE's result is a CursorResult, which counts the rows it changed)
    taken = cast(CursorResult[Any], db.session.execute(
        update(Hand).where(Hand.id == hand_id, Hand.complete.is_(False))
        .values(version=Hand.version + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False)))
    if taken.rowcount != 1:
        db.session.rollback()
        raise finished_elsewhere(hand_id, number)
    db.session.expire_all()  # everything read before the lock may be older than the row
    if not hand.game.is_open:
        db.session.rollback()
        raise GameClosed(sentence("hand.game-over"), "game-closed")


@contextmanager
def _live_move(hand: Hand) -> Iterator[None]:
    """One live move, locked (:func:`_lock_live`) and committed; refused: rolled back."""
    _lock_live(hand)
    with transaction():
        yield


def _ensure_live(hand: Hand) -> None:
    if hand.complete:
        raise finished_elsewhere(hand.id, hand.number)
    if not hand.game.is_open:  # abandoned while the hand was being played
        raise GameClosed(sentence("hand.game-over"), "game-closed")


def is_played(hand: Hand) -> bool:
    """Whether the table logs this live hand turn by turn (:mod:`scorebook.services.played`)."""
    return db.session.scalar(select(PlayedHand.id).where(PlayedHand.hand_id == hand.id)
                             ) is not None


def _not_logged(hand: Hand) -> None:
    """A meld, lay-off or take-back of the live page on a hand the table logs turn by turn
    is refused: it is a move of the log (else the log and the table would disagree)."""
    if is_played(hand):
        raise HandError(sentence("played.log-the-move", number=hand.number), "played-hand")


def live_meld(hand: Hand, player: str, cards: Sequence[Card], version: int | None = None
              ) -> Meld:
    """A meld put down during play.  ``version`` is accepted for older forms and not
    checked: a move conflicts only with what it really clashes with (see the module)."""
    _ensure_live(hand)
    _not_logged(hand)
    game = hand.game
    rules = game.rules
    _names, ids = _names_ids(game)
    if player not in ids:
        raise HandError(sentence("hand.who-melded"))
    problem = _check_meld(cards, rules)
    if problem:
        raise HandError([Problem(problem, player, "melds")])
    with _live_move(hand):
        too_many = check_copies(_live_cards(hand) + list(cards), rules, len(ids))
        if too_many is not None:
            raise _played_already(hand, too_many, player, "melds")
        taken = {m.label for m in hand.melds}
        k = sum(1 for m in hand.melds if m.owner_id == ids[player]) + 1
        while meld_label(player, k) in taken:
            k += 1
        meld = store_meld(hand, ids[player], cards, meld_label(player, k))
        change = history.log(game, history.LIVE_MELD,
                             f"{player}: {' '.join(str(c) for c in cards)}", hand.number)
        _undoable_move(hand, change)
    return meld


def live_layoff(hand: Hand, player: str, card: Card, onto: str, version: int | None = None,
                end: str | None = None) -> None:
    """A card laid off during play, on meld ``onto`` (its label; empty: the one meld
    the card fits, when there is only one), at ``end`` of a run (``low``/``high``): an
    ace that fits both ends of a run 2…K goes where the player says (``values.ace-end``),
    and without ``end`` the player is asked (:class:`HandError` code ``ace-end``).
    ``version`` is not checked (see :func:`live_meld`): the lay-off is checked against
    the table as it is when the hand's row is taken."""
    _ensure_live(hand)
    _not_logged(hand)
    game = hand.game
    rules = game.rules
    _names, ids = _names_ids(game)
    if player not in ids:
        raise HandError(sentence("hand.who-laid-off"))
    with _live_move(hand):
        too_many = check_copies(_live_cards(hand) + [card], rules, len(ids))
        if too_many is not None:
            raise _played_already(hand, too_many, player, "layoffs")
        table = build_table(rules, live_table_players(hand))
        if not onto:
            verdict = check_layoff(table, card, rules)
            fits = list(dict.fromkeys(t.meld_id for t in verdict.detail.get("targets", ())))
            if len(fits) != 1:  # none fits, or several: the referee says which and why
                raise HandError([Problem(_verdict(verdict), player, "layoffs")])
            onto = fits[0]
        meld = next((m for m in hand.melds if m.label == onto), None)
        if meld is None:
            raise HandError([Problem(sentence("hand.meld-gone"), player, "layoffs")],
                            "meld-gone")
        if end is None and check_layoff(table, card, rules, onto).code == \
                "layoff.ace-either-end":
            raise HandError([Problem(sentence("hand.ace-either-end", card=card, meld=onto,
                                              low=card_value(card, rules, low_ace=True)),
                                     player, "layoffs")], "ace-end")
        try:
            after = apply_layoff(table, onto, card, player, rules, end)
        except TableError as exc:
            if exc.verdict is not None:
                said = _verdict(exc.verdict)
            elif end in ("low", "high"):
                said = sentence(_NOT_LAID_OFF[end], card=card, meld=onto)
            else:
                said = sentence("hand.say-joker")
            raise HandError([Problem(said, player, "layoffs")]) from exc
        store_layoff(meld, ids[player], card, table, after)
        change = history.log(game, history.LIVE_LAYOFF, f"{player}: {card} → {onto}",
                             hand.number)
        _undoable_move(hand, change)


def store_meld(hand: Hand, owner_id: int, cards: Sequence[Card], label: str) -> Meld:
    """Add to a live hand the meld ``label`` of ``cards``, put down by ``owner_id`` (the
    caller has checked it and holds the hand's row)."""
    reading = make_meld(label, cards, hand.game.rules).reading
    meld = Meld(owner_id=owner_id, label=label,
                position=max((m.position for m in hand.melds), default=-1) + 1,
                kind=reading.kind, reading=str(reading))
    meld.cards = [_meld_card(c, owner_id, False, i)
                  for i, c in enumerate(_declared(cards, reading))]
    hand.melds.append(meld)
    return meld


def store_layoff(meld: Meld, laid_by: int, card: Card, table: Table, after: Table) -> None:
    """Add to ``meld`` the card laid off on it, ``table`` the hand's table before and
    ``after`` after it (:func:`~referee.apply_layoff`): where it went, and at which end."""
    onto = meld.label
    before, now = table.get(onto).reading, after.get(onto).reading
    placed = now.cards[0] if now.kind == RUN and now.low < before.low else now.cards[-1]
    laid = placed if card.is_joker else card
    meld.cards.append(_meld_card(laid, laid_by, True, len(meld.cards),
                                 layoff_end(after, onto, laid)))
    meld.kind, meld.reading = now.kind, str(now)


@contextmanager
def live_move(hand: Hand) -> Iterator[None]:
    """One move on the live hand, locked (the hand's row taken: moves from other phones
    wait) and committed at the end; refused (an exception): rolled back."""
    _ensure_live(hand)
    with _live_move(hand):
        yield


def last_live_card(hand: Hand) -> MeldCard | None:
    """The card put down last in a live hand (the last lay-off, or a card of the last
    meld): what "take back" would undo."""
    cards = [c for m in hand.melds for c in m.cards]
    return max(cards, key=lambda c: c.id) if cards else None


def live_undo(hand: Hand, version: int | None = None, move: int | None = None,
              step: UndoStep | None = None) -> bool:
    """Take back the last meld or lay-off recorded; False when there is none.  ``move``
    is the card the page named as the last move (:func:`last_live_card`): when another
    phone has recorded a move since, nothing is taken back (:class:`HandConflict`).
    ``step``: the move's undo step (:func:`undo_step`), marked undone with it."""
    _ensure_live(hand)
    _not_logged(hand)
    with _live_move(hand):
        last = last_live_card(hand)
        if last is None:
            return False
        if move is not None and last.id != move:
            raise HandConflict(sentence("hand.undo-overtaken"), hand.id, "move-changed")
        meld = last.meld
        if last.is_layoff:
            meld.cards.remove(last)
            what = f"{last.text} → {meld.label}"
        else:
            hand.melds.remove(meld)
            what = meld.label
        details = None
        if step is not None:
            details = {"undid": step.state.get("change"), "kind": step.kind}
            undo.mark_undone(step)
        history.log(hand.game, history.LIVE_UNDO, what, hand.number, details)
    return True


def finish_live(hand: Hand, stranded: Mapping[str, Sequence[Card]], ending: str | None,
                went_out: str | None, going_rummy: bool, version: int | None = None,
                missing_ok: frozenset[str] | None = None,
                held: Mapping[str, int] | None = None) -> Hand:
    """End a live hand: the cards left in each hand, and how it ended.  Stored with
    exactly the same checks and records as a hand entered at the end, on the table as
    it is when the hand's row is taken (moves sent at that moment are in);
    ``missing_ok``: the players whose missing cards the family does not remember (§10;
    None: every player short of cards is stored marked, as :class:`Entry` says);
    ``held``: the points of a hand whose cards nobody remembers, by player (issue 27)."""
    _ensure_live(hand)
    _lock_live(hand)
    game = hand.game
    try:
        players = [PlayerHand(p.name, p.melds, p.layoffs, tuple(stranded.get(p.name, ())),
                              going_rummy and p.name == went_out, (held or {}).get(p.name))
                   for p in live_table_players(hand)]
        entry = Entry(players, ending, went_out, missing_ok=missing_ok)
        return _store_complete(hand, game, entry, history.LIVE_FINISHED)
    except BaseException:
        db.session.rollback()
        raise


def cancel_live(hand: Hand, moves_seen: int | None, confirmed: bool) -> None:
    """Throw a live hand away (started by mistake, or not to be finished).  One that
    holds moves needs ``confirmed``; ``moves_seen`` is how many moves the page showed:
    when another phone has recorded one since, nothing is thrown away."""
    _ensure_live(hand)
    game = hand.game
    with _live_move(hand):
        moves = live_moves(hand)
        if moves_seen is not None and moves > moves_seen:
            raise HandConflict(sentence("hand.cancel-overtaken", number=hand.number),
                               hand.id, "move-changed")
        if moves and not confirmed:
            raise HandError([Problem(sentence("hand.cancel-unconfirmed", number=hand.number),
                                     field="confirm")], "confirm-needed")
        held = snapshot(hand)
        number = hand.number
        _retire_versions(game, [hand])
        game.revision = (game.revision or 0) + 1
        db.session.delete(hand)
        history.log(game, history.LIVE_CANCELLED, "", number, {"held": held, "moves": moves})


# --- undo at the table (scorebook.services.undo) -------------------------------------------


class UndoRefused(HandError):
    """An undo not made: 409 when something changed since (``code`` says what, the
    sentence names the change and the phone), 410 once its time has run out."""

    status = 409

    def __init__(self, said: Sentence, code: str, status: int = 409) -> None:
        super().__init__(said, code)
        self.status = status


def _undoable(game: Game, kind: str, change: Change, state: Mapping[str, Any]) -> None:
    """Keep what undoing the change just logged needs, as the game's newest step."""
    db.session.flush()  # (the change's id: an undo is refused once a newer one exists)
    undo.record(game.league_id, kind, {"number": change.hand_number, "action": change.action},
                {**state, "change": change.id}, game_id=game.id)


def _undoable_move(hand: Hand, change: Change) -> None:
    db.session.flush()
    last = last_live_card(hand)
    assert last is not None
    _undoable(hand.game, undo.LIVE_MOVE, change, {"hand": hand.id, "card": last.id})


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _rows(hand: Hand) -> dict[str, Any]:
    """Everything a hand holds, row by row (what undoing a change to it puts back exactly:
    :func:`_put_rows`)."""
    return {
        "id": hand.id, "number": hand.number, "dealer": hand.dealer_id, "ending": hand.ending,
        "went_out": hand.went_out_id, "going_rummy": bool(hand.going_rummy),
        "complete": bool(hand.complete), "points_only": bool(hand.points_only),
        "created_at": _iso(hand.created_at),
        "melds": [{"owner": m.owner_id, "label": m.label, "position": m.position,
                   "kind": m.kind, "reading": m.reading,
                   "cards": [[c.card, c.declared, c.laid_by_id, bool(c.is_layoff), c.position,
                              c.end] for c in m.cards]} for m in hand.melds],
        "stranded": [[c.player_id, c.card, c.position] for c in hand.stranded],
        "scores": [[s.player_id, s.melded, s.stranded, s.score, bool(s.cards_missing),
                    s.held_points] for s in hand.scores],
    }


def _put_rows(hand: Hand, rows: Mapping[str, Any]) -> None:
    """Make ``hand`` hold exactly ``rows`` (:func:`_rows`) again."""
    if hand.melds or hand.stranded or hand.scores:
        hand.melds.clear()
        hand.stranded.clear()
        hand.scores.clear()
        db.session.flush()  # the old rows go before new ones reuse their labels
    hand.ending, hand.went_out_id = rows["ending"], rows["went_out"]
    hand.going_rummy, hand.complete = rows["going_rummy"], rows["complete"]
    hand.points_only = rows["points_only"]
    hand.updated_at = utcnow()
    for m in rows["melds"]:
        meld = Meld(owner_id=m["owner"], label=m["label"], position=m["position"],
                    kind=m["kind"], reading=m["reading"])
        meld.cards = [MeldCard(card=card, declared=declared, laid_by_id=laid_by,
                               is_layoff=is_layoff, position=position, end=end)
                      for card, declared, laid_by, is_layoff, position, end in m["cards"]]
        hand.melds.append(meld)
    for player_id, card, position in rows["stranded"]:
        hand.stranded.append(StrandedCard(player_id=player_id, card=card, position=position))
    for row in rows["scores"]:
        # (a step kept before issue 27 has no held points)
        player_id, melded, stranded, score, missing, *held = row
        hand.scores.append(StoredScore(player_id=player_id, melded=melded, stranded=stranded,
                                       score=score, cards_missing=missing,
                                       held_points=held[0] if held else None))


def undo_step(step: UndoStep, now: Any = None) -> Hand | None:
    """Undo a step taken at a game's table, as a new change: a saved hand is removed (the
    later hands move up), an edit or a live hand's finish gives the hand back as it was,
    a deleted hand comes back at its number with every card (the later hands move down),
    a live move is taken back.  Every hand it touches takes a new version, so a phone
    holding the old one is refused as for any change; the game's totals, winner and
    ratings follow, and the history logs who undid it (:data:`history.UNDONE`).

    Refused (:class:`UndoRefused`) when it was undone already, when its time ran out
    (``undo-expired``, 410), and when anything changed in the game since
    (``undo-overtaken``: the change that came after, and from which phone): an undo
    never overwrites another phone's change."""
    game = db.session.get(Game, step.game_id)
    if game is None or step.kind not in undo.TABLE_KINDS:
        raise HandError(sentence("undo.not-found"), "not-found")
    if step.undone_at is not None:
        raise UndoRefused(sentence("undo.done-already", device=step.undone_device,
                                   player=step.undone_player), "undone-already")
    if undo.expired(step, now):
        minutes = int(undo.window().total_seconds() // 60)
        raise UndoRefused(sentence("undo.too-late", minutes=minutes), "undo-expired", 410)
    newer = undo.newer_change(step)
    if newer is not None:
        raise UndoRefused(sentence("undo.overtaken", action=newer.action,
                                   number=newer.hand_number, device=newer.device,
                                   player=newer.player), "undo-overtaken")
    state = step.state
    if step.kind == undo.LIVE_MOVE:
        hand = db.session.get(Hand, state["hand"])
        if hand is None or hand.game_id != game.id:
            raise UndoRefused(sentence("undo.hand-gone"), "undo-overtaken")
        live_undo(hand, move=state["card"], step=step)
        return hand
    if step.kind == undo.HAND_DELETED:
        return _undo_delete(game, step)
    hand = db.session.get(Hand, state["hand"])
    if hand is None or hand.game_id != game.id:
        raise UndoRefused(sentence("undo.hand-gone"), "undo-overtaken")
    if hand.version != state["version"]:
        raise UndoRefused(sentence("undo.hand-changed", number=hand.number), "undo-overtaken")
    number = hand.number
    if step.kind == undo.HAND_RECORDED:
        held = snapshot(hand)
        with _guard(hand.id, number):
            _remove(game, hand)
            history.log(game, history.UNDONE, "", number, _undone(step, {"held": held}))
            undo.mark_undone(step)
        return None
    before = snapshot(hand)  # an edit or a finish: the hand as it was before it
    with _guard(hand.id, number):
        _put_rows(hand, state["before"])
        hand.version = hand.version + 1
        recompute(game)  # (the game's revision too: a hand live again shows on the board)
        db.session.flush()
        history.log(game, history.UNDONE, "", number,
                    _undone(step, {"before": before, "after": snapshot(hand)}))
        undo.mark_undone(step)
    return hand


def _undone(step: UndoStep, details: Mapping[str, Any]) -> dict[str, Any]:
    return {"undid": step.state.get("change"), "kind": step.kind,
            "action": step.params.get("action"), **details}


def _remove(game: Game, hand: Hand) -> int:
    """Take ``hand`` out of the game: the later hands move up one number (and take
    fresh versions); the totals follow.  In the caller's transaction; returns how many
    hands moved up."""
    number = hand.number
    later = list(db.session.scalars(select(Hand).where(
        Hand.game_id == game.id, Hand.number > number).order_by(Hand.number)))
    mark = _retire_versions(game, [hand, *later])
    db.session.delete(hand)
    db.session.flush()
    for other in later:
        other.number -= 1
        other.version = mark + 1
        db.session.flush()
    recompute(game)
    return len(later)


def _undo_delete(game: Game, step: UndoStep) -> Hand:
    """A deleted hand back at its number, as it was (its id too, when free); the hands
    after it move down one number again, with fresh versions."""
    rows = step.state["hand"]
    number = int(rows["number"])
    later = list(db.session.scalars(select(Hand).where(
        Hand.game_id == game.id, Hand.number >= number).order_by(Hand.number.desc())))
    with _guard(rows["id"], number):
        mark = _retire_versions(game, later)
        for other in later:  # from the last, so no two share a number on the way
            other.number += 1
            other.version = mark + 1
            db.session.flush()
        created = datetime.fromisoformat(rows["created_at"]) if rows.get("created_at") \
            else utcnow()
        hand = Hand(game_id=game.id, number=number, dealer_id=rows["dealer"],
                    version=_fresh_version(game), created_at=created, melds=[],
                    stranded=[], scores=[])
        if db.session.get(Hand, rows["id"]) is None:
            hand.id = rows["id"]
        db.session.add(hand)
        _put_rows(hand, rows)
        db.session.flush()
        if rows.get("keys"):  # a send tried again finds its hand, not "deleted since"
            db.session.execute(update(SendKey).where(SendKey.id.in_(rows["keys"]))
                               .values(hand_id=hand.id)
                               .execution_options(synchronize_session=False))
        recompute(game)
        history.log(game, history.UNDONE, "", number,
                    _undone(step, {"held": snapshot(hand)}))
        undo.mark_undone(step)
    return hand


# --- proving the stored scores -------------------------------------------------------------


def verify(games: Sequence[Game]) -> list[str]:
    """Recompute every stored hand score from the stored cards; one line per difference,
    and per hand that cannot have happened (a player who did not go out holding no cards:
    ``out.empty-hand``)."""
    problems = []
    for game in games:
        names, ids = _names_ids(game)
        for hand in game.hands:
            if not hand.complete:
                continue
            went_out = next((n for n, i in ids.items() if i == hand.went_out_id), None)
            where = f"game {game.id} hand {hand.number}"
            if hand.points_only:
                problems += _verify_points(game, hand, names, ids, went_out, where)
                continue
            try:
                players = stored_players(hand, names, ids)
                result = score_hand(game.rules, players, went_out)
            except ScoringError as exc:
                if exc.code == "holds-no-cards":
                    who = ", ".join(holding_nothing(game.rules, players, went_out))
                    problems.append(f"{where}: impossible (out.empty-hand): {who} holds no "
                                    "cards but did not go out")
                else:
                    problems.append(f"{where}: the stored cards cannot be scored: {exc}")
                continue
            except ValueError as exc:
                problems.append(f"{where}: the stored cards cannot be scored: {exc}")
                continue
            stored = {s.player_id: s for s in hand.scores}
            for score in result.players:
                row = stored.get(ids[score.name])
                if row is None:
                    problems.append(f"{where}: {score.name} has no stored score "
                                    f"(the cards give {score.score})")
                elif (row.melded, row.stranded, row.score) != (
                        score.melded, score.stranded, score.score):
                    problems.append(
                        f"{where}: {score.name} stored {row.score} "
                        f"(melded {row.melded}, stranded {row.stranded}); the cards give "
                        f"{score.score} (melded {score.melded}, stranded {score.stranded})")
    return problems


def unconfirmed_short(games: Sequence[Game]) -> list[str]:
    """RULES.md §10 "Fewer cards than dealt": one line per player of a stored hand who has
    fewer cards than were dealt and whom the family never confirmed as missing cards
    (hands stored before the scorebook asked, or imported from a file that did not say).
    Not an error: the hand scores what its cards give; it is probably incomplete."""
    lines = []
    for game in games:
        names, ids = _names_ids(game)
        dealt = game.rules.cards_dealt(len(names))
        for hand in game.hands:
            if not hand.complete or hand.points_only:
                continue
            marked = {s.player_id for s in hand.scores if s.cards_missing}
            try:
                players = stored_players(hand, names, ids)
            except ValueError:
                continue  # (verify says what is wrong with its cards)
            for name, count in fewer_than_dealt(game.rules, players):
                if ids[name] not in marked:
                    lines.append(f"game {game.id} hand {hand.number}: {name} has {count} "
                                 f"card(s); {dealt} were dealt (fewer than dealt, not "
                                 "confirmed as missing)")
    return lines


def _verify_points(game: Game, hand: Hand, names: Sequence[str], ids: Mapping[str, int],
                   went_out: str | None, where: str) -> list[str]:
    """A hand stored as points only: no cards, a score for every player (melded and
    stranded 0: unknown), and points the rules let a hand score with the stored outcome."""
    problems = []
    if hand.melds or hand.stranded:
        problems.append(f"{where}: stored as points only, but it holds cards")
    stored = {s.player_id: s for s in hand.scores}
    points = []
    for name in names:
        row = stored.get(ids[name])
        if row is None:
            problems.append(f"{where}: {name} has no stored points")
            continue
        if row.melded or row.stranded:
            problems.append(f"{where}: {name}'s points-only score says melded {row.melded}, "
                            f"stranded {row.stranded}; a hand without cards has neither")
        points.append((name, row.score))
    if len(points) == len(names):
        try:
            score_points(game.rules, points, went_out, hand.going_rummy)
        except ScoringError as exc:
            problems.append(f"{where}: the stored points cannot be: {exc}")
    return problems
