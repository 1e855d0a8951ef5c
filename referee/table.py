"""The table: melds that lie face up, who laid each card, and lay-offs.

A :class:`Table` is a value: :func:`apply_layoff` returns a new table.  A
melded joker keeps the card it was declared as for the rest of the hand
(``layoff.joker-fixed``), so laying off only ever adds cards at the ends of a
run or to a set of three.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from .cards import JOKER_RANK, Card, joker_as
from .melds import SET, MeldKind, Reading, RunEnd, check_meld, max_position, meld_readings
from .rules import RuleSet
from .verdict import Param, Verdict, error_template, plain_params, render


class TableError(ValueError):
    """A meld or lay-off that cannot be placed, as data: ``code`` is a verdict's
    (:data:`~referee.verdict.MESSAGES`, and ``verdict`` is that verdict) or one of
    :data:`~referee.verdict.TABLE_MESSAGES`, ``params`` its typed parameters.  The
    message is its template's English, filled as the JSON API writes parameters."""

    def __init__(self, code: str, params: Mapping[str, Param] | None = None,
                 verdict: Verdict | None = None) -> None:
        self.code = code
        self.params: Mapping[str, Param] = params or {}
        self.verdict = verdict
        super().__init__(self.message)

    def __reduce__(self) -> tuple[type[TableError], tuple[str, Mapping[str, Param],
                                                          Verdict | None]]:
        return type(self), (self.code, self.params, self.verdict)  # (its data, not its text)

    @classmethod
    def of(cls, verdict: Verdict) -> TableError:
        """The error that says what ``verdict`` says."""
        return cls(verdict.code, verdict.params, verdict)

    @property
    def template(self) -> str:
        return error_template(self.code)

    @property
    def message(self) -> str:
        return render(self.template, plain_params(self.params))


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table. ``laid_by[i]`` is who laid ``reading.cards[i]``
    (None: the meld's owner, who melded it)."""

    id: str
    reading: Reading
    owner: str | None = None
    laid_by: tuple[str | None, ...] = ()

    def __post_init__(self) -> None:
        if not self.laid_by:
            object.__setattr__(self, "laid_by", (None,) * len(self.reading.cards))

    @property
    def kind(self) -> str:
        return self.reading.kind

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.reading.cards

    def layer(self, index: int) -> str | None:
        """Who laid the card at ``index`` (the owner unless someone laid it off)."""
        by = self.laid_by[index]
        return self.owner if by is None else by

    def __str__(self) -> str:
        return f"{self.id}: {self.reading}"


@dataclass(frozen=True, slots=True)
class LayoffTarget:
    """Where a card can go: the meld, the card as it would lie (a joker declared)
    and the end of a run (``low``/``high``) or ``set``."""

    meld_id: str
    card: Card
    end: RunEnd | MeldKind  # MeldKind.SET: into a set


@dataclass(frozen=True)
class Table:
    melds: tuple[TableMeld, ...] = ()

    def __iter__(self) -> Iterator[TableMeld]:
        return iter(self.melds)

    def __len__(self) -> int:
        return len(self.melds)

    def __contains__(self, meld_id: object) -> bool:
        return meld_id in [m.id for m in self.melds]

    def get(self, meld_id: str) -> TableMeld:
        for m in self.melds:
            if m.id == meld_id:
                return m
        raise KeyError(meld_id)

    def with_meld(self, meld: TableMeld) -> Table:
        """This table with ``meld`` added, or put in place of the meld with its id."""
        if meld.id in self:
            return Table(tuple(meld if m.id == meld.id else m for m in self.melds))
        return Table(self.melds + (meld,))

    def cards(self) -> list[Card]:
        return [c for m in self.melds for c in m.cards]


# ---------------------------------------------------------------------------------------
# building melds from what the players put down


def _in_order(given: Sequence[Card], reading: Reading) -> bool:
    """Do the cards, in the order given, lie as this run reading (up or down)?"""
    laid = [c.natural for c in reading.cards]
    as_given = [c.natural for c in given]
    return as_given == laid or as_given == laid[::-1]


def resolve_meld(cards: Sequence[Card], rules: RuleSet) -> Reading:
    """The single reading of cards put down as one meld.

    Declared jokers pick the reading; an undeclared joker in a run is read from
    its place in the given order (6♥ 7♥ 🃏 is 6-7-8, 🃏 6♥ 7♥ is 5-6-7).
    Raises :class:`TableError` when the cards are no meld or stay ambiguous.
    """
    readings = meld_readings(cards, rules)  # what check_meld's verdict would list
    if len(readings) == 1:
        return readings[0]
    ordered = [r for r in readings if r.kind == SET or _in_order(cards, r)]
    if len(ordered) == 1:
        return ordered[0]
    raise TableError.of(check_meld(cards, rules))


def make_meld(
    meld_id: str,
    cards: Sequence[Card],
    rules: RuleSet,
    owner: str | None = None,
    laid_by: Sequence[str | None] | None = None,
) -> TableMeld:
    """A table meld from cards as they lie; ``laid_by`` (in the given order) says who
    laid each card when some were laid off by other players."""
    reading = resolve_meld(cards, rules)
    if laid_by is None:
        return TableMeld(meld_id, reading, owner)
    if len(laid_by) != len(cards):
        raise TableError("table.laid-by-count")
    # match the given cards to their place in the reading
    pool = list(zip(cards, laid_by, strict=True))
    placed: list[str | None] = []
    for c in reading.cards:
        for i, (g, by) in enumerate(pool):
            if g.natural == c.natural and (not g.is_joker or g.stands_for in (None, c.stands_for)
                                           or _same_rank(g, c)):
                placed.append(None if by == owner else by)
                del pool[i]
                break
    return TableMeld(meld_id, reading, owner, tuple(placed))


def _same_rank(given: Card, placed: Card) -> bool:
    return (given.stands_for is not None and placed.stands_for is not None
            and given.stands_for.rank == placed.stands_for.rank)


# ---------------------------------------------------------------------------------------
# lay-offs


def _set_suits(reading: Reading) -> set[str]:
    return {c.suit if not c.is_joker else (c.stands_for.suit if c.stands_for else "")
            for c in reading.cards} - {""}


def fits(meld: TableMeld, card: Card, rules: RuleSet) -> list[LayoffTarget]:
    """Every way ``card`` can be laid off on ``meld`` (``layoff.basic``, ``layoff.joker``)."""
    reading = meld.reading
    is_joker = card.rank == JOKER_RANK
    if is_joker and not rules.jokers:  # cards.deck: no jokers in this game
        return []
    if reading.kind == SET:
        if len(reading.cards) >= 4:  # layoff.full-set
            return []
        if is_joker:
            want = card.stands_for
            if want is None:
                return [LayoffTarget(meld.id, joker_as(reading.rank, ""), SET)]
            if want.rank == reading.rank and want.suit not in _set_suits(reading):
                return [LayoffTarget(meld.id, card, SET)]
            return []
        if card.rank == reading.rank and card.suit not in _set_suits(reading):
            return [LayoffTarget(meld.id, card, SET)]
        return []
    # a run: one more position at either end, never longer than 13 cards
    length = len(reading.cards)
    if length >= 13:
        return []
    out: list[LayoffTarget] = []
    low, suit = reading.low, reading.suit
    high = low + length - 1
    top = max_position(rules)
    for end, position in ((RunEnd.LOW, low - 1), (RunEnd.HIGH, high + 1)):
        if position < 1 or position > top:
            continue
        rank = 1 if position == 14 else position  # the card at that position
        if is_joker:
            want = card.stands_for
            if want is None or (want.rank == rank and want.suit == suit
                                and want.stands_for is None):
                out.append(LayoffTarget(meld.id, joker_as(rank, suit), end))
        elif card.rank == rank and card.suit == suit and card.stands_for is None:
            out.append(LayoffTarget(meld.id, card, end))
    return out


def layoff_targets(table: Table | Iterable[TableMeld], card: Card, rules: RuleSet
                   ) -> list[LayoffTarget]:
    """Every meld (and end) the card can legally join; for a joker, the card it
    would stand for."""
    return [t for meld in table for t in fits(meld, card, rules)]


def place(meld: TableMeld, target: LayoffTarget, laid_by: str | None) -> TableMeld:
    """``meld`` with the target's card added where the target says."""
    reading = meld.reading
    by = None if laid_by == meld.owner else laid_by
    # (built directly rather than with dataclasses.replace, which is several times slower)
    if target.end == RunEnd.LOW:
        new = Reading(reading.kind, (target.card,) + reading.cards, reading.rank, reading.suit,
                      reading.low - 1)
        return TableMeld(meld.id, new, meld.owner, (by,) + meld.laid_by)
    new = Reading(reading.kind, reading.cards + (target.card,), reading.rank, reading.suit,
                  reading.low)
    return TableMeld(meld.id, new, meld.owner, meld.laid_by + (by,))


def apply_layoff(table: Table, meld_id: str, card: Card, laid_by: str | None,
                 rules: RuleSet, end: str | None = None) -> Table:
    """The table after ``laid_by`` lays ``card`` off on meld ``meld_id`` (at ``end``,
    ``low`` or ``high``, of a run when given).

    Raises :class:`TableError` (with the verdict) when it does not fit, or when an
    undeclared joker could go at either end of the run.  An ace that fits both ends
    of a 2..K run goes at the low end unless ``end`` says otherwise, the end that
    scoring's :func:`build_table` also settles on.
    """
    verdict = check_layoff(table, card, rules, meld_id)
    if not verdict.legal:
        raise TableError.of(verdict)
    meld = table.get(meld_id)
    targets = fits(meld, card, rules)
    if end is not None:
        targets = [t for t in targets if t.end == end]
        if not targets:
            code = {"low": "table.wrong-low-end", "high": "table.wrong-high-end"
                    }.get(end, "table.wrong-end")
            raise TableError(code, {"card": card, "end": end, "meld": meld_id}
                             if code == "table.wrong-end" else {"card": card, "meld": meld_id})
    if len({t.card for t in targets}) > 1:
        raise TableError("table.say-joker", {"choices": tuple(t.card for t in targets)})
    return table.with_meld(place(meld, targets[0], laid_by))


def either_end(targets: Iterable[LayoffTarget], meld_id: str) -> bool:
    """Can the card go at both ends of meld ``meld_id`` as the same card (an ace, or a
    joker standing for it, on a run 2…K: ``values.ace-end``)?"""
    ends: dict[Card, set[str]] = {}
    for t in targets:
        if t.meld_id == meld_id and t.end in (RunEnd.LOW, RunEnd.HIGH):
            ends.setdefault(t.card, set()).add(t.end)
    return any(len(found) == 2 for found in ends.values())


def _fits_on(card: Card, meld_id: str, targets: Sequence[LayoffTarget],
             base: tuple[str, ...], detail: dict[str, tuple[LayoffTarget, ...]],
             rules: RuleSet) -> Verdict:
    """``layoff.ok``, or ``layoff.ace-either-end`` when the player must say which end
    (saying what the ace scores at the low end: in Rummy 500, 15 at either end)."""
    params: dict[str, Param] = {"card": card, "meld": meld_id}
    if either_end(targets, meld_id):
        return Verdict(True, "layoff.ace-either-end", base + ("values.ace-end",),
                       {**params, "low": rules.low_ace_value}, detail)
    return Verdict(True, "layoff.ok", base, params, detail)


def layoff_end(table: Table, meld_id: str, card: Card) -> RunEnd | None:
    """Where an ace laid off on run ``meld_id`` lies in ``table``: ``low`` (below the
    two) or ``high`` (above the king); None for any other card or a set.  What a record
    of the hand keeps (``values.ace-end``)."""
    meld = table.get(meld_id)
    want = card.stands_for if card.is_joker else card
    if meld.kind == SET or want is None or want.rank != 1:
        return None
    return RunEnd.LOW if meld.reading.low == 1 else RunEnd.HIGH


def _why_not(meld: TableMeld, card: Card) -> Verdict | None:
    """A specific reason ``card`` cannot join ``meld``, where there is one."""
    if meld.kind == SET and len(meld.cards) >= 4 and (card.is_joker or card.rank ==
                                                       meld.reading.rank):
        return Verdict(False, "layoff.set-full", ("layoff.full-set",), {"meld": meld.id})
    if not card.is_joker:
        for c in meld.cards:
            # a run's jokers stand for whole cards; a set's joker may name its suit too
            if c.is_joker and c.stands_for == card:
                return Verdict(False, "layoff.joker-fixed", ("layoff.joker-fixed",),
                               {"meld": meld.id, "card": card})
    return None


def _blocked_by(meld: TableMeld, card: Card, rules: RuleSet) -> tuple[str, ...]:
    """The meld rule that keeps ``card`` off ``meld`` when it would otherwise be the next
    card: ``meld.ace`` past the corner (K-A-2), for an ace at both ends of a run or an
    ace above the king in Basic Rummy; ``meld.set`` for a suit the set already has."""
    want = card.stands_for if card.is_joker else card
    reading = meld.reading
    if reading.kind == SET:
        if want is not None and want.rank == reading.rank and want.suit in _set_suits(reading):
            return ("meld.set",)
        return ()
    if want is None:  # an undeclared joker fits any run shorter than 13 cards
        return ("meld.ace",) if len(reading.cards) >= 13 else ()
    if want.suit != reading.suit:
        return ()
    high = reading.low + len(reading.cards) - 1
    if (want.rank == 2 and high == 14) or (want.rank == 13 and reading.low == 1):
        return ("meld.ace",)  # K-A-2
    if want.rank == 1 and (len(reading.cards) >= 13 or (high == 13 and not rules.aces_high)):
        return ("meld.ace",)
    return ()


def _no_fit(card: Card, rules: RuleSet, melds: Iterable[TableMeld],
            detail: dict[str, tuple[LayoffTarget, ...]]) -> Verdict:
    """``layoff.no-fit``, citing the meld rules that keep the card off these melds."""
    base = ("layoff.basic", "layoff.joker") if card.is_joker else ("layoff.basic",)
    extra = tuple(dict.fromkeys(r for meld in melds for r in _blocked_by(meld, card, rules)))
    return Verdict(False, "layoff.no-fit", base + extra, {"card": card}, detail)


def check_layoff(table: Table, card: Card, rules: RuleSet, meld_id: str | None = None
                 ) -> Verdict:
    """May ``card`` be laid off (on ``meld_id``, or anywhere)?

    ``detail["targets"]`` lists every :class:`LayoffTarget` on the table.
    """
    if card.is_joker and not rules.jokers:
        return Verdict(False, "meld.no-jokers", ("cards.deck",), {"card": card},
                       {"targets": ()})
    targets = layoff_targets(table, card, rules)
    ids = list(dict.fromkeys(t.meld_id for t in targets))
    detail = {"targets": tuple(targets)}
    base = ("layoff.basic", "layoff.joker") if card.is_joker else ("layoff.basic",)
    if meld_id is not None:
        if meld_id not in table:
            return Verdict(False, "layoff.unknown-meld", ("layoff.basic",), {"meld": meld_id},
                           detail)
        if meld_id in ids:
            return _fits_on(card, meld_id, targets, base, detail, rules)
        why = _why_not(table.get(meld_id), card)
        if why is not None:
            return replace(why, detail=detail)
        if ids:
            return Verdict(False, "layoff.wrong-meld", base + ("layoff.choice",),
                           {"card": card, "meld": meld_id, "targets": tuple(ids)},
                           detail)
        return _no_fit(card, rules, [table.get(meld_id)], detail)
    if len(ids) == 1:
        return _fits_on(card, ids[0], targets, base, detail, rules)
    if ids:
        return Verdict(True, "layoff.choose", base + ("layoff.choice",),
                       {"card": card, "targets": tuple(ids)}, detail)
    for meld in table:
        why = _why_not(meld, card)
        if why is not None:
            return replace(why, detail=detail)
    return _no_fit(card, rules, table, detail)
