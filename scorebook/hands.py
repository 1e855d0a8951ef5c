"""Recording, editing and deleting hands, and the live hand.

Every write goes through the referee first (:func:`check_entry`) and is stored in
one transaction: the melds with every card and who laid it, the stranded cards,
the referee's score of each player (a cache), the game's status and winner, and
a history entry.  Two phones saving the same hand: the unique (game, hand number)
constraint and the hand's ``version`` make one of them fail with
:class:`HandConflict`, which carries the hand that was stored.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from flask_babel import gettext
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
    TableError,
    apply_layoff,
    build_table,
    card_value,
    check_copies,
    check_layoff,
    check_meld,
    layoff_end,
    make_meld,
    score_hand,
)
from referee.melds import Reading
from scorebook import history
from scorebook.bidi import isolate
from scorebook.entry import Entry, HandError, Problem, stored_players
from scorebook.extensions import db
from scorebook.games import live_hand, next_dealer_position, next_hand_number, recompute
from scorebook.models import (
    DRAW,
    MELD_LABEL_LENGTH,
    STOCK_OUT,
    WENT_OUT,
    Game,
    Hand,
    Meld,
    MeldCard,
    StrandedCard,
    utcnow,
)
from scorebook.models import (
    HandScore as StoredScore,
)
from scorebook.wording import explain, meld_label, meld_name


class HandConflict(HandError):
    """The hand changed under the scorer (another phone saved it first): 409.
    ``hand_id`` is the stored hand to show instead."""

    status = 409

    def __init__(self, message: str, hand_id: int | None, code: str = "hand-conflict") -> None:
        super().__init__(message, code)
        self.hand_id = hand_id


class GameClosed(HandError):
    """The game is finished or abandoned: no new hands."""

    status = 409


# --- checking a hand with the referee ------------------------------------------------------


def _meld_name(owner: str, index: int) -> str:
    return gettext("%(name)s's meld %(number)s", name=isolate(owner), number=index + 1)


def _joker_readings(readings: Sequence[Reading]) -> str:
    return "; ".join(" ".join(c.pretty() for c in r.cards) for r in readings)


def check_entry(game: Game, entry: Entry) -> tuple[list[PlayerHand], HandScore]:
    """The entry's players in seat order and the referee's score of the hand; raises
    :class:`HandError` listing every problem found, each placed where it belongs."""
    rules = game.rules
    names = [s.player.name for s in game.seats]
    given = {p.name: p for p in entry.players}
    if sorted(given) != sorted(names) or len(entry.players) != len(names):
        raise HandError(gettext("The hand must list exactly the players of this game: "
                                "%(names)s.", names=", ".join(isolate(n) for n in names)),
                        "bad-players")
    players = [given[n] for n in names]
    problems: list[Problem] = []

    endings = (WENT_OUT, DRAW) if rules.is_basic else (WENT_OUT, STOCK_OUT)
    if entry.ending not in endings:
        problems.append(Problem(gettext("Say how the hand ended."), field="ending"))
    elif entry.ending == WENT_OUT and entry.went_out is None:
        problems.append(Problem(gettext("Say who went out."), field="went_out"))
    elif entry.ending != WENT_OUT and entry.went_out is not None:
        problems.append(Problem(gettext("Nobody went out if the hand ended that way."),
                                field="went_out"))

    meld_problems, owners = check_melds(players, rules, loose=entry.loose)
    problems += meld_problems
    for p in players:
        for j, (card, onto, end) in enumerate(p.layoff_ends()):
            if onto not in owners:
                problems.append(Problem(gettext(
                    "%(card)s is laid off on a meld that is not on the table.",
                    card=card.pretty()), p.name, "layoffs", j))
            elif card.is_joker and card.stands_for is None and owners[onto][2] == RUN:
                problems.append(Problem(gettext(
                    "Say which card the joker laid off on %(meld)s stands for (e.g. JK=8H).",
                    meld=_meld_name(*owners[onto][:2])), p.name, "layoffs", j))
            elif end is not None and owners[onto][2] == SET:
                problems.append(Problem(gettext(
                    "%(card)s is laid off on %(meld)s, a set: a set has no low or high end.",
                    card=card.pretty(), meld=_meld_name(*owners[onto][:2])),
                    p.name, "layoffs", j))
        if p.going_rummy and (not rules.is_basic or p.name != entry.went_out):
            problems.append(Problem(gettext(
                "Only the player who went out in Basic Rummy can go Rummy."),
                field="going_rummy"))
        if p.name == entry.went_out and p.hand:
            problems.append(Problem(gettext(
                "%(name)s went out, so no cards can be left in their hand.", name=isolate(p.name)),
                p.name, "hand"))

    everything = [c for p in players for _m, cards in p.melds for c in cards]
    everything += [lay[0] for p in players for lay in p.layoffs]
    everything += [c for p in players for c in p.hand]
    too_many = check_copies(everything, rules, len(players))
    if too_many is not None:
        problems.append(Problem(explain(too_many), field="cards"))
    if problems:
        raise HandError(problems)

    try:
        result = score_hand(rules, players, entry.went_out)
    except ScoringError as exc:
        raise HandError([_scoring_problem(exc, players, owners)], exc.code) from exc
    return players, result


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
                problems.append(Problem(gettext(
                    "A meld's name can be at most %(max)s characters long.",
                    max=MELD_LABEL_LENGTH), p.name, "melds", k))
                continue
            if meld_id in owners:
                problems.append(Problem(gettext("Two melds have the same name."), p.name,
                                        "melds", k))
                continue
            problem = _check_meld(cards, rules, loose)
            if problem:
                problems.append(Problem(problem, p.name, "melds", k))
                owners[meld_id] = (p.name, k, "")
            else:
                owners[meld_id] = (p.name, k, make_meld(meld_id, cards, rules).kind)
    return problems, owners


def _check_meld(cards: Sequence[Card], rules: RuleSet, loose: bool = False) -> str | None:
    """Why these cards cannot be put down as one meld, or None.  Cards as they lie read
    an end joker (or the ace of a 13-card run) from its place; a ``loose`` bunch (tapped
    in any order) must name every joker's card, since no place shows it."""
    verdict = check_meld(cards, rules)
    if not verdict.legal:
        return explain(verdict)
    readings = verdict.detail.get("readings", ())
    if loose and len({_joker_cards(r) for r in readings}) > 1:
        return gettext("Say which card each joker stands for; it could be: %(readings)s.",
                       readings=_joker_readings(readings))
    try:
        make_meld("m", cards, rules)
    except TableError:
        if verdict.code == "meld.ace-either-end":
            return gettext("Say whether the ace lies at the low end (A-2-3…) or at the high "
                           "end (…Q-K-A); it could be: %(readings)s.",
                           readings=_joker_readings(readings))
        return gettext("Say which card each joker stands for; it could be: %(readings)s.",
                       readings=_joker_readings(readings))
    return None


def _joker_cards(reading: Reading) -> tuple[str, ...]:
    """The cards a reading's jokers stand for (its declarations), in a canonical order."""
    return tuple(sorted(str(c.stands_for) for c in reading.cards if c.is_joker))


def _scoring_problem(exc: ScoringError, players: Sequence[PlayerHand],
                     owners: Mapping[str, tuple[str, int, str]]) -> Problem:
    if exc.code == "bad-layoff" and exc.card:
        for p in players:
            for j, (card, onto, end) in enumerate(p.layoff_ends()):
                if str(card) == exc.card:
                    meld = _meld_name(*owners[onto][:2])
                    if end == "low":
                        text = gettext("%(card)s cannot be laid off at the low end of "
                                       "%(meld)s.", card=card.pretty(), meld=meld)
                    elif end == "high":
                        text = gettext("%(card)s cannot be laid off at the high end of "
                                       "%(meld)s.", card=card.pretty(), meld=meld)
                    else:
                        text = gettext("%(card)s cannot be laid off on %(meld)s.",
                                       card=card.pretty(), meld=meld)
                    return Problem(text, p.name, "layoffs", j)
    if exc.code == "bad-layoff":
        return Problem(gettext("These lay-offs cannot all be made on the melds given."),
                       field="cards")
    return Problem(str(exc), field="cards")


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


def _meld_card(card: Card, laid_by: int, is_layoff: bool, position: int,
               end: str | None = None) -> MeldCard:
    declared = str(card.stands_for) if card.is_joker and card.stands_for else None
    return MeldCard(card=str(card.natural), declared=declared, laid_by_id=laid_by,
                    is_layoff=is_layoff, position=position, end=end)


def _store(hand: Hand, game: Game, players: Sequence[PlayerHand], result: HandScore) -> None:
    """Replace the hand's melds, stranded cards and scores with these."""
    rules = game.rules
    ids = {s.player.name: s.player_id for s in game.seats}
    if hand.melds or hand.stranded or hand.scores:
        hand.melds.clear()
        hand.stranded.clear()
        hand.scores.clear()
        db.session.flush()  # the old rows go before new ones reuse their labels
    by_label: dict[str, Meld] = {}
    position = 0
    for p in players:
        for meld_id, cards in p.melds:
            final = result.table.get(meld_id)
            meld = Meld(owner_id=ids[p.name], label=meld_id, position=position,
                        kind=final.kind, reading=str(final.reading))
            position += 1
            laid = _declared(cards, make_meld(meld_id, cards, rules).reading)
            meld.cards = [_meld_card(c, ids[p.name], False, i) for i, c in enumerate(laid)]
            hand.melds.append(meld)
            by_label[meld_id] = meld
    for p in players:
        for card, onto, _end in p.layoff_ends():
            meld = by_label[onto]
            # an ace on a run: the end it went to, as scored (values.ace-end)
            end = layoff_end(result.table, onto, card)
            meld.cards.append(_meld_card(card, ids[p.name], True, len(meld.cards), end))
    for p in players:
        for i, card in enumerate(p.hand):
            hand.stranded.append(StrandedCard(player_id=ids[p.name], card=str(card.natural),
                                              position=i))
    for score in result.players:
        hand.scores.append(StoredScore(player_id=ids[score.name], melded=score.melded,
                                       stranded=score.stranded, score=score.score))


def _set_outcome(hand: Hand, game: Game, entry: Entry) -> None:
    ids = {s.player.name: s.player_id for s in game.seats}
    hand.ending = entry.ending
    hand.went_out_id = ids[entry.went_out] if entry.went_out else None
    hand.going_rummy = any(p.going_rummy for p in entry.players)
    hand.updated_at = utcnow()  # always an UPDATE, so the version is checked and bumped


def summary(players: Sequence[PlayerHand], result: HandScore) -> str:
    return ", ".join(f"{p.name} {p.score:+d}" for p in result.players)


def record_hand(game: Game, entry: Entry, number: int | None = None) -> Hand:
    """Store a new hand (``number`` is the hand the scorer was recording: when
    another phone has just stored it, :class:`HandConflict`)."""
    expected = next_hand_number(game)
    stored = db.session.scalar(db.select(Hand.id).where(
        Hand.game_id == game.id, Hand.number == number, Hand.complete.is_(True)))
    if stored is not None:
        raise HandConflict(gettext("Hand %(number)s was just recorded (on another phone?). "
                                   "Here it is.", number=number), stored, "hand-recorded")
    if not game.is_open:
        raise GameClosed(gettext("This game is over: no more hands can be recorded."),
                         "game-closed")
    live = live_hand(game)
    if live is not None:
        raise HandConflict(gettext("Hand %(number)s is being recorded live; finish it there.",
                                   number=live.number), live.id, "hand-live")
    if number is not None and number != expected:
        raise HandError(gettext("There is no hand %(number)s to record yet.", number=number))
    players, result = check_entry(game, entry)
    dealer = game.seats[next_dealer_position(game)].player_id
    hand = Hand(game_id=game.id, number=expected, dealer_id=dealer, complete=True,
                melds=[], stranded=[], scores=[])
    db.session.add(hand)
    _set_outcome(hand, game, entry)
    game_id = game.id
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        stored_id = db.session.scalar(db.select(Hand.id).where(
            Hand.game_id == game_id, Hand.number == expected))
        raise HandConflict(gettext("Hand %(number)s was just recorded (on another phone?). "
                                   "Here it is.", number=expected), stored_id,
                           "hand-recorded") from None
    _store(hand, game, players, result)
    recompute(game)
    history.log(game, history.RECORDED, summary(players, result), hand.number)
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError):  # the game changed under us: nothing stored
        db.session.rollback()
        stored_id = db.session.scalar(db.select(Hand.id).where(
            Hand.game_id == game_id, Hand.number == expected))
        if stored_id is not None:
            raise HandConflict(gettext("Hand %(number)s was just recorded (on another "
                                       "phone?). Here it is.", number=expected), stored_id,
                               "hand-recorded") from None
        raise HandConflict(gettext("The game changed on another phone at that moment; "
                                   "nothing was saved. Please try again."), None,
                           "game-changed") from None
    return hand


def _check_version(hand: Hand, version: int | None) -> None:
    if version is not None and version != hand.version:
        raise HandConflict(gettext("Hand %(number)s was changed (on another phone?) since you "
                                   "opened it. Here it is now.", number=hand.number),
                           hand.id, "hand-changed")


@contextmanager
def _guard(hand_id: int, number: int) -> Iterator[None]:
    """Commit at the end; a concurrent change to the same hand becomes a conflict."""
    try:
        yield
        db.session.commit()
    except (StaleDataError, IntegrityError):
        db.session.rollback()
        raise HandConflict(gettext("Hand %(number)s was changed (on another phone?) at the "
                                   "same moment. Here it is now.", number=number),
                           hand_id, "hand-changed") from None


def _store_complete(hand: Hand, game: Game, entry: Entry, action: str) -> Hand:
    """Check ``entry`` with the referee and store it as ``hand``'s cards, complete,
    in one transaction (an edit, or a live hand finished); ``action`` is logged."""
    players, result = check_entry(game, entry)
    hand_id, number = hand.id, hand.number
    with _guard(hand_id, number):
        _set_outcome(hand, game, entry)
        _store(hand, game, players, result)
        hand.complete = True
        recompute(game)
        history.log(game, action, summary(players, result), number)
    return hand


def edit_hand(hand: Hand, entry: Entry, version: int | None) -> Hand:
    """Replace a stored hand's cards (``version``: the one the scorer edited)."""
    _check_version(hand, version)
    game = hand.game
    return _store_complete(hand, game, entry, history.EDITED)


def delete_hand(hand: Hand, version: int | None) -> None:
    """Delete a hand; later hands move up one number."""
    _check_version(hand, version)
    game = hand.game
    number, hand_id = hand.number, hand.id
    with _guard(hand_id, number):
        db.session.delete(hand)
        db.session.flush()
        later = db.session.scalars(db.select(Hand).where(
            Hand.game_id == game.id, Hand.number > number).order_by(Hand.number))
        for other in list(later):
            other.number -= 1
            db.session.flush()
        recompute(game)
        history.log(game, history.DELETED, gettext("Hand %(number)s deleted", number=number),
                    number)


# --- the live hand -------------------------------------------------------------------------


def start_live(game: Game) -> Hand:
    """The hand being played live, started now if there is none."""
    live = live_hand(game)
    if live is not None:
        return live
    if not game.is_open:
        raise GameClosed(gettext("This game is over: no more hands can be recorded."),
                         "game-closed")
    number = next_hand_number(game)
    dealer = game.seats[next_dealer_position(game)].player_id
    hand = Hand(game_id=game.id, number=number, dealer_id=dealer, complete=False,
                ending=WENT_OUT)
    db.session.add(hand)
    try:
        db.session.flush()
        history.log(game, history.LIVE_STARTED, "", number)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise HandConflict(gettext("Hand %(number)s was just started on another phone.",
                                   number=number), None, "hand-recorded") from None
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


def _ensure_live(hand: Hand, version: int | None) -> None:
    if hand.complete:
        raise HandConflict(gettext("Hand %(number)s has already been finished.",
                                   number=hand.number), hand.id, "hand-recorded")
    if not hand.game.is_open:  # abandoned while the hand was being played
        raise GameClosed(gettext("This game is over: no more hands can be recorded."),
                         "game-closed")
    _check_version(hand, version)


def live_meld(hand: Hand, player: str, cards: Sequence[Card], version: int | None = None
              ) -> Meld:
    """A meld put down during play."""
    _ensure_live(hand, version)
    game = hand.game
    rules = game.rules
    _names, ids = _names_ids(game)
    if player not in ids:
        raise HandError(gettext("Choose who put the meld down."))
    problem = _check_meld(cards, rules)
    if problem:
        raise HandError([Problem(problem, player, "melds")])
    too_many = check_copies(_live_cards(hand) + list(cards), rules, len(ids))
    if too_many is not None:
        raise HandError([Problem(explain(too_many), player, "melds")])
    taken = {m.label for m in hand.melds}
    k = sum(1 for m in hand.melds if m.owner_id == ids[player]) + 1
    while meld_label(player, k) in taken:
        k += 1
    label = meld_label(player, k)
    reading = make_meld(label, cards, rules).reading
    meld = Meld(owner_id=ids[player], label=label,
                position=max((m.position for m in hand.melds), default=-1) + 1,
                kind=reading.kind, reading=str(reading))
    meld.cards = [_meld_card(c, ids[player], False, i)
                  for i, c in enumerate(_declared(cards, reading))]
    with _guard(hand.id, hand.number):
        hand.melds.append(meld)
        hand.updated_at = utcnow()
        history.log(game, history.LIVE_MELD,
                    f"{player}: {' '.join(str(c) for c in cards)}", hand.number)
    return meld


def live_layoff(hand: Hand, player: str, card: Card, onto: str, version: int | None = None,
                end: str | None = None) -> None:
    """A card laid off during play, on meld ``onto`` (its label; empty: the one meld
    the card fits, when there is only one), at ``end`` of a run (``low``/``high``): an
    ace that fits both ends of a run 2…K goes where the player says (``values.ace-end``),
    and without ``end`` the player is asked (:class:`HandError` code ``ace-end``)."""
    _ensure_live(hand, version)
    game = hand.game
    rules = game.rules
    _names, ids = _names_ids(game)
    if player not in ids:
        raise HandError(gettext("Choose who laid the card off."))
    too_many = check_copies(_live_cards(hand) + [card], rules, len(ids))
    if too_many is not None:
        raise HandError([Problem(explain(too_many), player, "layoffs")])
    table = build_table(rules, live_table_players(hand))
    if not onto:
        verdict = check_layoff(table, card, rules)
        fits = list(dict.fromkeys(t.meld_id for t in verdict.detail.get("targets", ())))
        if len(fits) != 1:  # none fits, or several: the referee says which and why
            raise HandError([Problem(explain(verdict), player, "layoffs")])
        onto = fits[0]
    meld = next((m for m in hand.melds if m.label == onto), None)
    if meld is None:
        raise HandError([Problem(gettext("Choose the meld the card went on."), player,
                                 "layoffs")])
    if end is None and check_layoff(table, card, rules, onto).code == "layoff.ace-either-end":
        raise HandError([Problem(gettext(
            "%(card)s fits at both ends of %(meld)s: say whether it goes at the low end, "
            "below the two (worth %(low)s), or at the high end, above the king (worth 15).",
            card=card.pretty(), meld=meld_name(onto),
            low=card_value(card, rules, low_ace=True)), player, "layoffs")], "ace-end")
    try:
        after = apply_layoff(table, onto, card, player, rules, end)
    except TableError as exc:
        if exc.verdict is not None:
            text = explain(exc.verdict)
        elif end == "low":
            text = gettext("%(card)s cannot be laid off at the low end of %(meld)s.",
                           card=card.pretty(), meld=meld_name(onto))
        elif end == "high":
            text = gettext("%(card)s cannot be laid off at the high end of %(meld)s.",
                           card=card.pretty(), meld=meld_name(onto))
        else:
            text = gettext("Say which card the joker stands for (e.g. JK=8H).")
        raise HandError([Problem(text, player, "layoffs")]) from exc
    before, now = table.get(onto).reading, after.get(onto).reading
    placed = now.cards[0] if now.kind == RUN and now.low < before.low else now.cards[-1]
    laid = placed if card.is_joker else card
    with _guard(hand.id, hand.number):
        meld.cards.append(_meld_card(laid, ids[player], True, len(meld.cards),
                                     layoff_end(after, onto, laid)))
        meld.kind, meld.reading = now.kind, str(now)
        hand.updated_at = utcnow()
        history.log(game, history.LIVE_LAYOFF, f"{player}: {card} → {onto}", hand.number)


def last_live_card(hand: Hand) -> MeldCard | None:
    """The card put down last in a live hand (the last lay-off, or a card of the last
    meld): what "take back" would undo."""
    cards = [c for m in hand.melds for c in m.cards]
    return max(cards, key=lambda c: c.id) if cards else None


def live_undo(hand: Hand, version: int | None = None) -> bool:
    """Take back the last meld or lay-off recorded; False when there is none."""
    _ensure_live(hand, version)
    last = last_live_card(hand)
    if last is None:
        return False
    meld = last.meld
    with _guard(hand.id, hand.number):
        if last.is_layoff:
            meld.cards.remove(last)
            what = f"{last.text} → {meld.label}"
        else:
            hand.melds.remove(meld)
            what = meld.label
        hand.updated_at = utcnow()
        history.log(hand.game, history.LIVE_UNDO, what, hand.number)
    return True


def finish_live(hand: Hand, stranded: Mapping[str, Sequence[Card]], ending: str,
                went_out: str | None, going_rummy: bool, version: int | None = None) -> Hand:
    """End a live hand: the cards left in each hand, and how it ended.  Stored with
    exactly the same checks and records as a hand entered at the end."""
    _ensure_live(hand, version)
    game = hand.game
    players = [PlayerHand(p.name, p.melds, p.layoffs, tuple(stranded.get(p.name, ())),
                          going_rummy and p.name == went_out)
               for p in live_table_players(hand)]
    entry = Entry(players, ending, went_out)
    return _store_complete(hand, game, entry, history.LIVE_FINISHED)


# --- proving the stored scores -------------------------------------------------------------


def verify(games: Sequence[Game]) -> list[str]:
    """Recompute every stored hand score from the stored cards; one line per difference."""
    problems = []
    for game in games:
        names, ids = _names_ids(game)
        for hand in game.hands:
            if not hand.complete:
                continue
            went_out = next((n for n, i in ids.items() if i == hand.went_out_id), None)
            where = f"game {game.id} hand {hand.number}"
            try:
                result = score_hand(game.rules, stored_players(hand, names, ids), went_out)
            except (ScoringError, ValueError) as exc:
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
