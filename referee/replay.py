"""Replaying a played-hand log (:mod:`referee.log`): the pile, the stock, whose turn it
is and what each player melded when, at every step.

:func:`replay` walks the moves in order.  Each move is judged by the referee's own
checks — a meld by :func:`~referee.table.make_meld`, a lay-off by
:func:`~referee.table.apply_layoff`, a turn that took from the pile by
:func:`~referee.draws.check_draw`, a turn that empties a hand by
:func:`~referee.going_out.check_going_out`, a call by
:func:`~referee.draws.check_rummy_call` — and a move a rule refuses is not played: its
step records the verdict (``refused``), and the log goes on from the position before
it, as a table goes on after a move it refused.  A move the log says the table agreed
to (``agreed``) is played, and its step records the verdict it overrode.  A move the log
cannot hold at all raises :class:`~referee.log.LogError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import Card
from .draws import check_draw, check_rummy_call
from .going_out import check_going_out
from .log import (
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
from .melds import check_copies
from .rules import RummyCall
from .table import Table, TableError, apply_layoff, make_meld
from .verdict import Param, Verdict

#: How a hand ended: a player went out, the stock ran out (``out.stock-empty``), or a
#: draw (``basic.stock-reshuffle``).
OUT, STOCK, DRAWN = "out", "stock", "draw"


@dataclass(frozen=True, slots=True)
class Played:
    """A meld or a lay-off as it was played: at which step, by whom, onto which meld."""

    step: int
    turn: int
    player: str
    kind: str  # "meld" or "layoff"
    meld_id: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Call:
    """A "Rummy!" call that was played: the discard it answered, the card concerned,
    how many cards it took and the players whose turn it skipped."""

    step: int
    caller: str
    discarder: str
    card: Card
    take: int
    skipped: tuple[str, ...]
    #: The calls logged after it on the same discard, and each one's verdict.
    later: tuple[tuple[str, Verdict], ...] = ()


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the log and the position after it."""

    index: int
    move: Move
    pile: tuple[Card, ...]
    stock: int
    #: Who plays next (None once the hand is over).
    to_play: str | None
    table: Table = field(default_factory=Table)
    refused: Verdict | None = None
    overridden: Verdict | None = None
    #: What else the move did: ``reshuffled``, ``went-out``, ``floats``, ``stock-out``,
    #: ``drawn``.
    notes: tuple[str, ...] = ()


@dataclass
class Turn:
    """The turn under way: what was taken from the pile and what was played."""

    player: int
    number: int
    table: Table  # at the start of the turn
    took: tuple[Card, ...] = ()
    pile_before: tuple[Card, ...] = ()  # the pile as it was before the take
    table_at_take: Table = field(default_factory=Table)
    called: Card | None = None  # the card a call took the pile down to
    played: list[Card] = field(default_factory=list)  # every card out of the hand
    melded: list[Card] = field(default_factory=list)  # into new melds
    laid_off: list[Card] = field(default_factory=list)
    new_melds: int = 0


@dataclass
class TopCall:
    """A call under ``rummy_call`` = top: the caller lays off the card, then play goes
    on with the player whose turn it was (``rummy.mode``)."""

    caller: int
    card: Card
    back_to: int


class Replay:
    """The position a log leads to, and every step on the way (:func:`replay`)."""

    def __init__(self, deal: Deal) -> None:
        rules = deal.rules
        players = deal.players
        if len(set(players)) != len(players):
            raise LogError.of("duplicate-player", "log.duplicate-player", ("cards.players",))
        if deal.dealer not in players:
            raise LogError.of("dealer-not-seated", "log.dealer-not-seated", ("turn.order",),
                              {"player": deal.dealer})
        rules.check_players(len(players))
        if deal.stock_size() < 0:
            raise LogError.of("dealt-too-many", "log.dealt-too-many", ("cards.deal",),
                              {"count": deal.cards_dealt})
        self.deal = deal
        self.rules = rules
        self.seats = players
        self.dealer = players.index(deal.dealer)
        self.pile: list[Card] = [deal.upcard]
        self.stock = deal.stock_size()
        self.held = [deal.cards_dealt] * len(players)
        #: The cards each player is known to hold (taken from the pile, drawn and named).
        self.known: list[Counter[Card]] = [Counter() for _ in players]
        #: Every physical card that has come into view (``cards.copies``).
        self.seen: Counter[Card] = Counter({deal.upcard.natural: 1})
        self._check_copies()
        self.table = Table()
        self.to_play = (self.dealer + 1) % len(players)  # turn.order
        self.turn: Turn | None = None
        self.turns = 0
        self.top_call: TopCall | None = None
        self.last_discard: tuple[int, Card, int] | None = None  # seat, card, step
        self.drawn_since_discard = False
        self.call_on_discard: Call | None = None
        self.reshuffles = 0
        self.floating: set[int] = set()
        self.over: str | None = None
        self.went_out: str | None = None
        #: The going-out turn: its verdict, the table before it, the last discard.
        self.out_verdict: Verdict | None = None
        self.out_table: Table | None = None
        self.out_discard: Card | None = None
        self.out_turn: int | None = None
        self.played: list[Played] = []
        self.calls: list[Call] = []
        self.steps: list[Step] = []
        #: The cards each player took from the pile and on which turn.
        self.taken: list[tuple[int, int, tuple[Card, ...]]] = []  # seat, turn, cards

    # ---- helpers --------------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self.seats[seat]

    def seat(self, player: str) -> int:
        if player not in self.seats:
            raise LogError.of("unknown-player", "log.unknown-player", ("cards.players",),
                              {"player": player})
        return self.seats.index(player)

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % len(self.seats)

    def _check_copies(self) -> None:
        bad = check_copies(list(self.seen.elements()), self.rules, len(self.seats))
        if bad is not None:
            code = "no-jokers" if bad.code == "meld.no-jokers" else "too-many-copies"
            raise LogError(code, bad)

    def _over_error(self) -> LogError:
        rules = {OUT: ("out.empty-hand",), STOCK: ("out.stock-empty",),
                 DRAWN: ("basic.stock-reshuffle",)}[self.over or OUT]
        return LogError.of("hand-over", "log.hand-over", rules)

    def _in_turn(self, seat: int, drawn: bool) -> None:
        """Raise unless ``seat`` may make a move of its turn now (having drawn or not)."""
        if self.over is not None:
            raise self._over_error()
        if self.top_call is not None:
            call = self.top_call
            raise LogError.of("lay-off-called-card", "log.lay-off-called-card",
                              ("rummy.mode",), {"caller": self.name(call.caller),
                                                "card": call.card})
        if seat != self.to_play:
            raise LogError.of("out-of-turn", "log.out-of-turn", ("turn.order",),
                              {"player": self.name(seat), "turn": self.name(self.to_play)})
        if drawn and self.turn is None:
            raise LogError.of("draw-first", "log.draw-first", ("turn.order",),
                              {"player": self.name(seat)})
        if not drawn and self.turn is not None:
            raise LogError.of("drew-already", "log.drew-already", ("turn.order",),
                              {"player": self.name(seat)})

    def _out_of_hand(self, seat: int, cards: Sequence[Card]) -> Counter[Card]:
        """The cards of ``cards`` that come into view for the first time (not known to
        be in the hand), checked against the cards the player holds and the decks."""
        if len(cards) > self.held[seat]:
            raise LogError.of("more-than-held", "log.more-than-held", ("cards.deal",),
                              {"player": self.name(seat), "count": self.held[seat]})
        known = self.known[seat].copy()
        new: Counter[Card] = Counter()
        for card in cards:
            if known[card.natural]:
                known[card.natural] -= 1
            else:
                new[card.natural] += 1
        unknown = self.held[seat] - sum(self.known[seat].values())
        if sum(new.values()) > unknown:
            # the rest of the hand is known (cards taken from the pile): these are not in it
            raise LogError.of("not-held", "log.not-held", ("cards.deal",),
                              {"player": self.name(seat), "cards": tuple(
                                  self.known[seat].elements())})
        if new:
            self.seen.update(new)
            try:
                self._check_copies()
            finally:
                self.seen.subtract(new)
        return new

    def _play_cards(self, seat: int, cards: Sequence[Card]) -> None:
        new = self._out_of_hand(seat, cards)
        self.seen.update(new)
        for card in cards:
            if self.known[seat][card.natural]:
                self.known[seat][card.natural] -= 1
        self.known[seat] = +self.known[seat]
        self.held[seat] -= len(cards)
        assert self.turn is not None
        self.turn.played.extend(cards)

    def _start_turn(self, seat: int) -> Turn:
        self.turns += 1
        self.turn = Turn(seat, self.turns, self.table)
        return self.turn

    def _end_turn(self, seat: int) -> None:
        self.turn = None
        self.to_play = self.next_seat(seat)

    # ---- the moves ------------------------------------------------------------------
    def play(self, move: Move) -> Step:
        """Play one move; the step it makes (also kept in :attr:`steps`)."""
        index = len(self.steps)
        overridden = None
        try:
            refused, notes = self._move(move, index)
            if refused is not None and move.agreed:
                again, forced = self._forced(move, index)
                if again is None:  # (a meld the table cannot hold stays refused)
                    overridden, refused, notes = refused, None, forced
        except LogError as exc:
            exc.step = index
            exc.args = (f"move {index + 1}: {exc.verdict.message}",)
            raise
        to_play = None if self.over else self.name(
            self.top_call.caller if self.top_call else self.to_play)
        step = Step(index, move, tuple(self.pile), self.stock, to_play, self.table, refused,
                    overridden, notes)
        self.steps.append(step)
        return step

    def _move(self, move: Move, index: int) -> tuple[Verdict | None, tuple[str, ...]]:
        """Judge ``move``: its refusal (nothing played), or None and what it did."""
        seat = self.seat(move.player)
        if isinstance(move, CallRummy):
            return self._call(seat, move, index)
        if isinstance(move, LayOff) and self.top_call is not None \
                and self.top_call.caller == seat and self.over is None:
            return self._top_layoff(seat, move, index)
        if isinstance(move, DrawStock):
            self._in_turn(seat, drawn=False)
            return None, self._draw_stock(seat, move)
        if isinstance(move, TakePile):
            self._in_turn(seat, drawn=False)
            return self._take(seat, move.take, index)
        if isinstance(move, StockOut):
            self._in_turn(seat, drawn=False)
            return None, self._stock_out(seat)
        self._in_turn(seat, drawn=True)
        if isinstance(move, Meld):
            return self._meld(seat, move, index)
        if isinstance(move, LayOff):
            return self._layoff(seat, move, index)
        return self._discard(seat, move, index)

    def _forced(self, move: Move, index: int) -> tuple[Verdict | None, tuple[str, ...]]:
        """Play a move the table agreed to although a rule refused it; a refusal still
        when it cannot be played at all (a meld that is none)."""
        seat = self.seat(move.player)
        if isinstance(move, TakePile):
            return self._take(seat, move.take, index, force=True)
        if isinstance(move, CallRummy):
            return self._call(seat, move, index, force=True)
        if isinstance(move, Meld):
            return self._meld(seat, move, index, force=True)
        if isinstance(move, LayOff) and self.top_call is not None:
            return self._top_layoff(seat, move, index)  # (a lay-off that does not fit)
        if isinstance(move, LayOff):
            return self._layoff(seat, move, index, force=True)
        if isinstance(move, Discard):
            return self._discard(seat, move, index, force=True)
        return None, ()  # pragma: no cover - draws and stock-outs are never refused

    def _draw_stock(self, seat: int, move: DrawStock) -> tuple[str, ...]:
        notes: tuple[str, ...] = ()
        if self.stock == 0:
            if not self.rules.is_basic:
                raise LogError.of("stock-empty", "log.stock-empty", ("out.stock-empty",),
                                  {"player": self.name(seat)})
            if self.reshuffles:
                raise LogError.of("stock-empty", "log.stock-empty-again",
                                  ("basic.stock-reshuffle",))
            self._reshuffle()
            notes = ("reshuffled",)
            if self.stock == 0:
                raise LogError.of("stock-empty", "log.stock-empty-again",
                                  ("basic.stock-reshuffle",))
        if move.card is not None:
            self.seen[move.card.natural] += 1
            try:
                self._check_copies()
            except LogError:
                self.seen[move.card.natural] -= 1
                raise
            self.known[seat][move.card.natural] += 1
        self.stock -= 1
        self.held[seat] += 1
        self._start_turn(seat)
        self.drawn_since_discard = True
        return notes

    def _reshuffle(self) -> None:
        """``basic.stock-reshuffle``: the discard pile becomes the new stock."""
        self.reshuffles += 1
        self.stock = len(self.pile)
        self.seen.subtract(c.natural for c in self.pile)
        self.seen = +self.seen
        self.pile = []

    def _stock_out(self, seat: int) -> tuple[str, ...]:
        rule = "basic.stock-reshuffle" if self.rules.is_basic else "out.stock-empty"
        if self.stock:
            raise LogError.of("stock-not-empty", "log.stock-not-empty", (rule,),
                              {"player": self.name(seat), "count": self.stock})
        if self.rules.is_basic and not self.reshuffles:
            self._reshuffle()
            return ("reshuffled",)
        self.over = DRAWN if self.rules.is_basic else STOCK
        return ("drawn",) if self.rules.is_basic else ("stock-out",)

    def _take(self, seat: int, take: int, index: int, force: bool = False
              ) -> tuple[Verdict | None, tuple[str, ...]]:
        if not 1 <= take <= len(self.pile):
            raise LogError.of("take-too-deep", "log.take-too-deep", ("draw.deep",),
                              {"take": take, "count": len(self.pile)})
        if take > 1 and not self.rules.deep_draws and not force:
            verdict = check_draw(self.rules, self.table, self.pile, (), take)
            if not verdict.legal:
                return verdict, ()
        turn = self._start_turn(seat)
        self._take_cards(turn, seat, take)
        self.drawn_since_discard = True
        return None, ()

    def _take_cards(self, turn: Turn, seat: int, take: int) -> None:
        turn.pile_before = tuple(self.pile)
        turn.table_at_take = self.table
        turn.took = tuple(self.pile[-take:])
        self.pile = self.pile[:-take]
        self.held[seat] += take
        self.known[seat].update(c.natural for c in turn.took)
        self.taken.append((seat, turn.number, turn.took))

    def _meld(self, seat: int, move: Meld, index: int, force: bool = False
              ) -> tuple[Verdict | None, tuple[str, ...]]:
        turn = self.turn
        assert turn is not None
        name = self.name(seat)
        own = sum(1 for p in self.played if p.player == name and p.kind == "meld")
        meld_id = move.meld_id or f"{name}-{own + 1}"
        if meld_id in self.table:
            raise LogError.of("meld-id-taken", "log.meld-id-taken", ("layoff.choice",),
                              {"meld": meld_id})
        self._out_of_hand(seat, move.cards)
        if self.rules.one_meld_per_turn and turn.new_melds and not force:
            return Verdict(False, "log.one-meld", ("meld.once-per-turn",),
                           {"player": name}), ()
        try:
            meld = make_meld(meld_id, move.cards, self.rules, owner=name)
        except TableError as exc:
            return _table_verdict(exc, move.cards[0]), ()
        before = self.table
        self.table = self.table.with_meld(meld)
        refusal, notes = self._after_playing(seat, move.cards, index, force)
        if refusal is not None:
            self.table = before
            return refusal, ()
        turn.melded.extend(c.natural for c in move.cards)
        turn.new_melds += 1
        self.played.append(Played(index, turn.number, name, "meld", meld_id,
                                  meld.cards))
        return None, notes

    def _layoff(self, seat: int, move: LayOff, index: int, force: bool = False
                ) -> tuple[Verdict | None, tuple[str, ...]]:
        turn = self.turn
        assert turn is not None
        name = self.name(seat)
        self._out_of_hand(seat, (move.card,))
        try:
            table = apply_layoff(self.table, move.onto, move.card, name, self.rules,
                                 move.end)
        except TableError as exc:
            return _table_verdict(exc, move.card, move.onto), ()
        before = self.table
        self.table = table
        refusal, notes = self._after_playing(seat, (move.card,), index, force)
        if refusal is not None:
            self.table = before
            return refusal, ()
        turn.laid_off.append(move.card.natural)
        self.played.append(Played(index, turn.number, name, "layoff", move.onto,
                                  (move.card,)))
        return None, notes

    def _after_playing(self, seat: int, cards: Sequence[Card], index: int, force: bool
                       ) -> tuple[Verdict | None, tuple[str, ...]]:
        """Take ``cards`` out of the hand; when that empties it, the player goes out or
        floats (``out.empty-hand``, ``out.floating``) if the rules let them."""
        turn = self.turn
        assert turn is not None
        if self.held[seat] - len(cards) > 0:
            self._play_cards(seat, cards)
            return None, ()
        hand = [*turn.played, *cards]
        verdict = self._taken_melded(turn, [*turn.melded, *_naturals(cards)],
                                     [*turn.laid_off], None)
        if verdict is None:
            verdict = check_going_out(self.rules, turn.table, hand, None, turn.took)
        if not verdict.legal and not force:
            return verdict, ()
        self._play_cards(seat, cards)
        if verdict.code == "out.floating":
            self.floating.add(seat)
            self._end_turn(seat)
            return None, ("floats",)
        self._went_out(seat, verdict, None, turn)
        return None, ("went-out",)

    def _went_out(self, seat: int, verdict: Verdict, discard: Card | None, turn: Turn) -> None:
        self.over = OUT
        self.went_out = self.name(seat)
        self.out_verdict = verdict
        self.out_table = turn.table
        self.out_discard = discard
        self.out_turn = turn.number
        self.turn = None

    def _taken_melded(self, turn: Turn, melded: Sequence[Card], laid_off: Sequence[Card],
                      discard: Card | None) -> Verdict | None:
        """The refusal of a turn that did not meld the card it had to meld: the card a
        call took the pile down to (``rummy.call``), the deepest of several cards taken
        (``draw.deep``; in a new meld under ``draw.deep-new-meld``) or, under
        ``draw.must-meld``, the top card taken alone.  A discard of that card is judged
        by the draw checks instead (``discard.not-same``)."""
        if not turn.took:
            return None
        card = turn.took[0].natural
        if discard is not None and discard.natural == card:
            return None
        params: dict[str, Param] = {"card": card}
        in_meld = card in melded
        if turn.called is not None:
            if not in_meld and card not in laid_off:
                return Verdict(False, "log.called-not-melded", ("rummy.call",), params)
            return None
        if len(turn.took) > 1:
            if not in_meld and card not in laid_off:
                return Verdict(False, "log.deep-not-melded", ("draw.deep",), params)
            if self.rules.deep_draw_new_meld and not in_meld:
                return Verdict(False, "log.deep-laid-off",
                               ("draw.deep", "draw.deep-new-meld"), params)
        elif self.rules.draw_must_meld and not in_meld and card not in laid_off:
            return Verdict(False, "log.top-not-melded", ("draw.must-meld",), params)
        return None

    def _discard(self, seat: int, move: Discard, index: int, force: bool = False
                 ) -> tuple[Verdict | None, tuple[str, ...]]:
        turn = self.turn
        assert turn is not None
        card = move.card
        self._out_of_hand(seat, (card,))
        going_out = self.held[seat] == 1
        hand = [*turn.played, card]
        verdict: Verdict | None = self._taken_melded(turn, turn.melded, turn.laid_off, card)
        if verdict is None and going_out:
            verdict = check_going_out(self.rules, turn.table, hand, card, turn.took)
        elif verdict is None and turn.took:
            before_take = Counter(c.natural for c in hand)
            before_take.subtract(c.natural for c in turn.took)
            verdict = check_draw(self.rules, turn.table_at_take, turn.pile_before,
                                 list((+before_take).elements()), len(turn.took), card)
            if turn.called is not None and verdict.code == "draw.deep-cannot-meld":
                verdict = None  # a call's card was melded (checked above), with pile cards
        if verdict is not None and not verdict.legal and not force:
            return verdict, ()
        self._play_cards(seat, (card,))
        self.pile.append(card)
        self.last_discard = (seat, card, index)
        self.drawn_since_discard = False
        self.call_on_discard = None
        if going_out:
            assert verdict is not None
            self._went_out(seat, verdict, card, turn)
            return None, ("went-out",)
        self.floating.discard(seat)
        self._end_turn(seat)
        return None, ()

    # ---- "Rummy!" ---------------------------------------------------------------------
    def call_verdict(self, caller: int) -> Verdict:
        """What :func:`~referee.draws.check_rummy_call` says of a call by ``caller`` now."""
        if self.last_discard is None:
            return Verdict(False, "log.no-discard", ("rummy.call",))
        discarder = self.name(self.last_discard[0])
        first = self.call_on_discard
        turn = self.turn
        if first is not None and turn is not None and not turn.played \
                and self.name(turn.player) == first.caller:
            # a second call on the same discard, logged before the first caller played
            # on: judged against the pile as the first call left it
            verdict = check_rummy_call(self.rules, self.table, self.pile, discarder,
                                       self.name(caller))
            if verdict.legal:
                return Verdict(False, "log.called-first", ("rummy.call",),
                               {"caller": self.name(caller), "player": first.caller,
                                "card": first.card})
            return verdict
        return check_rummy_call(self.rules, self.table, self.pile, discarder,
                                self.name(caller),
                                next_player_drew=self.drawn_since_discard,
                                hand_over=self.over is not None)

    def _call(self, seat: int, move: CallRummy, index: int, force: bool = False
              ) -> tuple[Verdict | None, tuple[str, ...]]:
        verdict = self.call_verdict(seat)
        callable_takes = {c.take for c in verdict.detail.get("callable", ())}
        take = move.take if move.take is not None else verdict.detail.get("take", 0)
        if self.over is not None or self.last_discard is None or (
                force and (not take or self.turn is not None)):
            return verdict, ()  # (no call to play, even by agreement)
        if verdict.legal and take not in callable_takes:
            verdict = Verdict(False, "log.not-callable", ("rummy.call",),
                              {"card": self.pile[-take] if 1 <= take <= len(self.pile)
                               else self.pile[-1]})
        if not verdict.legal and not force:
            self._note_later_call(seat, verdict)
            return verdict, ()
        if not 1 <= take <= len(self.pile):
            raise LogError.of("take-too-deep", "log.take-too-deep", ("draw.deep",),
                              {"take": take, "count": len(self.pile)})
        assert self.last_discard is not None
        discarder = self.last_discard[0]
        n = len(self.seats)
        if self.rules.rummy_call == RummyCall.TOP:
            card = self.pile.pop()
            self.held[seat] += 1
            self.known[seat][card.natural] += 1
            self.top_call = TopCall(seat, card, self.to_play)
            skipped: tuple[str, ...] = ()
        else:
            if self.turn is not None:  # the next player had begun: their turn is undone
                self.turn = None
            skipped = tuple(self.name((discarder + k) % n) for k in range(1, n)
                            if (discarder + k) % n != seat
                            and k < (seat - discarder) % n)
            self.to_play = seat
            turn = self._start_turn(seat)
            self._take_cards(turn, seat, take)
            turn.called = turn.took[0]
            card = turn.called
        self.drawn_since_discard = True
        call = Call(index, self.name(seat), self.name(discarder), card, take, skipped)
        self.calls.append(call)
        self.call_on_discard = call
        return None, ()

    def _note_later_call(self, seat: int, verdict: Verdict) -> None:
        first = self.call_on_discard
        if first is None:
            return
        later = Call(first.step, first.caller, first.discarder, first.card, first.take,
                     first.skipped, first.later + ((self.name(seat), verdict),))
        self.calls[self.calls.index(first)] = later
        self.call_on_discard = later

    def _top_layoff(self, seat: int, move: LayOff, index: int
                    ) -> tuple[Verdict | None, tuple[str, ...]]:
        call = self.top_call
        assert call is not None
        if move.card.natural != call.card.natural:
            raise LogError.of("lay-off-called-card", "log.lay-off-called-card",
                              ("rummy.mode",), {"caller": self.name(seat), "card": call.card})
        try:
            self.table = apply_layoff(self.table, move.onto, move.card, self.name(seat),
                                      self.rules, move.end)
        except TableError as exc:
            return _table_verdict(exc, move.card, move.onto), ()
        self.held[seat] -= 1
        self.known[seat][call.card.natural] -= 1
        self.known[seat] = +self.known[seat]
        self.played.append(Played(index, self.turns, self.name(seat), "layoff", move.onto,
                                  (move.card,)))
        self.to_play = call.back_to
        self.top_call = None
        return None, ()


def _naturals(cards: Sequence[Card]) -> list[Card]:
    return [c.natural for c in cards]


def _table_verdict(exc: TableError, card: Card, meld: str | None = None) -> Verdict:
    """A meld or lay-off :func:`make_meld` or :func:`apply_layoff` refused, as a verdict."""
    if exc.verdict is not None:
        return exc.verdict
    return Verdict(False, "log.layoff-refused", ("layoff.basic", "values.ace-end"),
                   {"card": card, "meld": meld or ""})


def replay(deal: Deal, moves: Sequence[Move]) -> Replay:
    """Walk ``moves`` from ``deal``; raises :class:`~referee.log.LogError` at the first
    move the log cannot hold."""
    walk = Replay(deal)
    for move in moves:
        walk.play(move)
    return walk
