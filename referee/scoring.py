"""Scoring: a hand's points per player, and when the game is won.

``pagat-500`` and ``rummy-500`` (``score.500``): each player scores every card
they melded or laid off (a laid-off card scores for whoever laid it,
``layoff.owner``; an ace's value is decided by where it lies,
``values.low-ace``) minus every card left in their hand.  ``basic``
(``score.basic``): whoever went out takes the value of everyone else's hand,
doubled for going Rummy (``score.going-rummy``); nobody else scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .cards import JOKER, Card
from .melds import RUN, SET, RunEnd, card_value, check_copies
from .rules import RuleSet
from .table import LayoffTarget, Table, TableError, TableMeld, fits, make_meld, place
from .verdict import Param, Verdict, error_template, plain_params, render


class ScoringError(ValueError):
    """A hand that cannot have happened, as data: ``code`` says what kind (the JSON API's
    error code), ``reason`` which catalogued message says why
    (:data:`~referee.verdict.SCORING_MESSAGES`, or a verdict's :data:`~referee.MESSAGES`
    code) and ``params`` fill it with typed values (a :class:`~referee.cards.Card`, a
    player's name, counts; ``problem`` the verdict on an illegal meld).  The message is
    the template's English, filled as the JSON API writes parameters."""

    def __init__(self, code: str, reason: str, params: Mapping[str, Param] | None = None,
                 rules: tuple[str, ...] = ()) -> None:
        self.code = code
        self.reason = reason
        self.params: Mapping[str, Param] = params or {}
        #: The rule ids the refusal rests on, where it rests on one (``out.empty-hand``).
        self.rules = rules
        super().__init__(self.message)

    def __reduce__(self) -> tuple[type[ScoringError], tuple[str, str, Mapping[str, Param],
                                                            tuple[str, ...]]]:
        return type(self), (self.code, self.reason, self.params, self.rules)  # (its data)

    @property
    def template(self) -> str:
        return error_template(self.reason)

    @property
    def message(self) -> str:
        return render(self.template, plain_params(self.params))

    @property
    def card(self) -> Card | None:
        """The card the error is about, if it is about one."""
        card = self.params.get("card")
        return card if isinstance(card, Card) else None

    @property
    def player(self) -> str | None:
        """The player the error is about, if it is about one."""
        player = self.params.get("player")
        return player if isinstance(player, str) else None


#: One lay-off: the card and the meld id it went on, and optionally the end of the run it
#: went to (``low`` or ``high``; ``values.ace-end``: an ace on a run 2…K).
Layoff = tuple[Card, str] | tuple[Card, str, str | None]
ENDS = tuple(RunEnd)


@dataclass(frozen=True)
class PlayerHand:
    """What one player did in a hand: melds put down (id, cards as they lie),
    lay-offs (card, the meld id it went on[, the end of the run it went to]) and the
    cards left in their hand.  A lay-off without an end goes where it fits, an ace on
    a run 2…K at the low end.

    ``held_points``: the points of the cards left in the hand, given as a number where
    nobody remembers those cards (issue 27; then ``hand`` is empty: the cards are not
    recorded, so the player is short of the deal, RULES.md §10 "Fewer cards than dealt").
    They count as the cards would (stranded points); None: the cards say it."""

    name: str
    melds: Sequence[tuple[str, Sequence[Card]]] = ()
    layoffs: Sequence[Layoff] = ()
    hand: Sequence[Card] = ()
    going_rummy: bool = False
    held_points: int | None = None

    def holds_cards(self) -> bool:
        """Does the player end the hand holding cards (recorded, or given as points)?"""
        return bool(self.hand) or bool(self.held_points)

    def layoff_ends(self) -> list[tuple[Card, str, str | None]]:
        """Every lay-off as (card, meld id, end or None)."""
        return [layoff_parts(lay) for lay in self.layoffs]


def layoff_parts(lay: Layoff) -> tuple[Card, str, str | None]:
    """A lay-off as (card, meld id, end or None), whether or not it names its end."""
    if len(lay) == 3:
        return lay[0], lay[1], lay[2]
    return lay[0], lay[1], None


@dataclass(frozen=True)
class PlayerScore:
    name: str
    melded: int
    stranded: int
    score: int


@dataclass(frozen=True)
class HandScore:
    players: tuple[PlayerScore, ...]
    table: Table
    rules: tuple[str, ...] = field(default=())

    def by_name(self) -> dict[str, PlayerScore]:
        return {p.name: p for p in self.players}


def build_table(rules: RuleSet, players: Sequence[PlayerHand]) -> Table:
    """The table at the end of the hand: every meld, then every lay-off in an order
    in which each one fits (a lay-off may need another one first: 8♥ before 9♥)."""
    melds: dict[str, TableMeld] = {}
    for player in players:
        for meld_id, cards in player.melds:
            if meld_id in melds:
                raise ScoringError("duplicate-meld", "scoring.duplicate-meld",
                                   {"given_id": meld_id})
            try:
                melds[meld_id] = make_meld(meld_id, cards, rules, player.name)
            except TableError as exc:
                assert exc.verdict is not None  # (make_meld without laid_by: its verdict)
                raise ScoringError("illegal-meld", "scoring.illegal-meld",
                                   {"player": player.name, "cards": tuple(cards),
                                    "problem": exc.verdict}) from exc
    table = Table(tuple(melds.values()))
    # A canonical order, so that where a lay-off could lie at either end of a run (an ace
    # on 2..K, or on 3..K once the 2 is there) the same end is chosen however the
    # players and their lay-offs happen to be listed: the score never depends on it.
    pending = sorted(((p.name, lay[0], lay[1], lay[2] if len(lay) == 3 else None)
                      for p in players for lay in p.layoffs), key=_layoff_key)
    for _name, card, onto, end in pending:
        if onto not in melds:
            raise ScoringError("unknown-meld", "scoring.unknown-meld",
                               {"card": card, "given_id": onto})
        if end is not None and end not in ENDS:
            raise ScoringError("bad-end", "scoring.bad-end",
                               {"card": card, "given_end": end, "meld": onto})
        if end is not None and melds[onto].kind == SET:
            raise ScoringError("bad-end", f"scoring.set-{end}-end", {"card": card, "meld": onto})
    failed: set[tuple[Table, tuple[int, ...]]] = set()

    def settle(table: Table, left: tuple[int, ...]) -> Table | None:
        if not left:
            return table
        if (table, left) in failed:
            return None
        for i in left:
            name, card, onto, end = pending[i]
            meld = table.get(onto)
            for target in _fits_at(meld, card, end, rules):
                done = settle(table.with_meld(place(meld, target, name)),
                              tuple(j for j in left if j != i))
                if done is not None:
                    return done
        failed.add((table, left))
        return None

    everything = tuple(range(len(pending)))
    settled = _first_descent(melds, pending, everything, rules)
    if settled is None:
        settled = settle(table, everything)
    if settled is None:
        for _name, card, onto, end in pending:
            if not _ever_fits(table, card, onto, pending, rules):
                raise ScoringError("bad-layoff", "scoring.bad-layoff",
                                   {"card": card, "meld": onto})
            if end is not None and not _ever_fits(table, card, onto, pending, rules, end):
                raise ScoringError("bad-layoff", f"scoring.bad-layoff-{end}",
                                   {"card": card, "meld": onto})
        raise ScoringError("bad-layoff", "scoring.layoffs-impossible")
    return settled


def _fits_at(meld: TableMeld, card: Card, end: str | None, rules: RuleSet
             ) -> list[LayoffTarget]:
    """``fits``, at ``end`` only when the lay-off names its end."""
    targets = fits(meld, card, rules)
    if end is None:
        return targets
    return [t for t in targets if t.end == end]


def _first_descent(melds: dict[str, TableMeld],
                   pending: Sequence[tuple[str, Card, str, str | None]],
                   left: tuple[int, ...], rules: RuleSet) -> Table | None:
    """The first path ``settle`` explores (the first lay-off that fits, at its first
    place, and so on), without remembering dead ends: almost every record settles
    along it, and then ``settle`` would return exactly this table.  ``melds`` are the
    table's melds by id, in table order."""
    melds = dict(melds)
    while left:
        for k, i in enumerate(left):
            name, card, onto, end = pending[i]
            meld = melds[onto]
            targets = fits(meld, card, rules) if end is None else _fits_at(meld, card, end,
                                                                            rules)
            if targets:
                melds[onto] = place(meld, targets[0], name)  # table.with_meld(...)
                left = left[:k] + left[k + 1:]
                break
        else:
            return None
    return Table(tuple(melds.values()))


@lru_cache(maxsize=64)
def _values(rules: RuleSet) -> tuple[tuple[int, ...], int]:
    """``card_value`` for every rank (0, the joker, to 13), and for an ace melded low."""
    return (tuple(card_value(Card(rank, "S") if rank else JOKER, rules) for rank in range(14)),
            card_value(Card(1, "S"), rules, low_ace=True))


def _layoff_key(item: tuple[str, Card, str, str | None]) -> tuple[str, int, str, str, str,
                                                                   str]:
    name, card, onto, end = item
    # rank and suit say which natural it is; only a joker needs its declaration too
    return onto, card.rank, card.suit, str(card) if card.rank == 0 else "", end or "", name


def _ever_fits(table: Table, card: Card, onto: str,
               pending: Sequence[tuple[str, Card, str, str | None]], rules: RuleSet,
               end: str | None = None) -> bool:
    """Could ``card`` fit on ``onto`` (at ``end``, when given) if every other lay-off on
    that meld came first?"""
    meld = table.get(onto)
    others = [c for _n, c, o, _e in pending if o == onto and c is not card]
    for _ in range(len(others) + 1):
        if _fits_at(meld, card, end, rules):
            return True
        for other in others:
            targets = fits(meld, other, rules)
            if targets:
                meld = place(meld, targets[0], None)
                others.remove(other)
                break
        else:
            return False
    return bool(_fits_at(meld, card, end, rules))


def _ace_on_a_run(players: Sequence[PlayerHand], table: Table) -> bool:
    """Was a natural ace laid off on a run, where its end decides its value
    (``values.ace-end``; a joker is worth 15 at either end)?"""
    for player in players:
        for lay in player.layoffs:
            if lay[0].rank == 1 and table.get(lay[1]).kind == RUN:
                return True
    return False


def _check_table(names: list[str], rules: RuleSet, went_out: str | None) -> None:
    """The players of a hand: distinct names, a number the rules allow, and the one who
    went out among them (raises :class:`ScoringError`)."""
    if len(set(names)) != len(names):
        raise ScoringError("duplicate-player", "scoring.duplicate-player")
    if not rules.min_players <= len(names) <= rules.max_players:  # rules.check_players
        raise ScoringError("bad-players", "scoring.bad-players",
                           {"family": rules.family, "low": rules.min_players,
                            "high": rules.max_players, "count": len(names)})
    if went_out is not None and went_out not in names:
        raise ScoringError("unknown-player", "scoring.unknown-player", {"given_name": went_out})


def holding_nothing(rules: RuleSet, players: Sequence[PlayerHand], went_out: str | None
                    ) -> tuple[str, ...]:
    """The players of a finished hand who hold no cards at its end though they cannot
    have ended it (``out.empty-hand``): a player left with no cards ends the hand at
    once, so only the one who went out may hold none — in a stock-out or a draw
    (``went_out`` None) nobody may.  Under ``out.floating`` a player may meld every card
    and play on (a floater), so anybody may hold none.  In seat order."""
    if rules.floating:
        return ()
    return tuple(p.name for p in players if not p.holds_cards() and p.name != went_out)


def cards_of(player: PlayerHand) -> int:
    """How many cards a player ends a hand with: melded, laid off and held together."""
    return (sum(len(cards) for _id, cards in player.melds) + len(player.layoffs)
            + len(player.hand))


def fewer_than_dealt(rules: RuleSet, players: Sequence[PlayerHand]
                     ) -> tuple[tuple[str, int], ...]:
    """The players who end a hand with fewer cards than were dealt to them, and how many
    they have (RULES.md §10 "Fewer cards than dealt", ``cards.deal``): every turn draws at
    least as many cards as it discards, so each player ends with at least the deal
    (:meth:`RuleSet.cards_dealt` for this many players: two decks from five on deal 7
    each too).  A record short of cards is almost certainly missing some; it is not an
    impossible hand, and :func:`score_hand` does not check it (a question may name only
    the cards that matter).  In seat order."""
    dealt = rules.cards_dealt(len(players))
    return tuple((p.name, n) for p in players if (n := cards_of(p)) < dealt)


def score_hand(rules: RuleSet, players: Sequence[PlayerHand], went_out: str | None
               ) -> HandScore:
    """Each player's points for one hand (raises :class:`ScoringError` for a hand
    that cannot have happened: a card more often than the decks hold, an illegal
    meld or lay-off, a player who went out still holding cards, a player who holds none
    but did not go out, :func:`holding_nothing`)."""
    names = [p.name for p in players]
    _check_table(names, rules, went_out)
    everything = [c for p in players for _id, cards in p.melds for c in cards]
    everything += [lay[0] for p in players for lay in p.layoffs]
    everything += [c for p in players for c in p.hand]
    bad = check_copies(everything, rules, len(players))
    if bad is not None:
        raise ScoringError("too-many-copies", bad.code, bad.params)
    for p in players:
        if p.name == went_out and p.holds_cards():
            raise ScoringError("went-out-with-cards", "scoring.went-out-with-cards",
                               {"player": p.name, "cards": tuple(p.hand)})
        if p.going_rummy and (not rules.is_basic or p.name != went_out):
            raise ScoringError("bad-going-rummy", "scoring.bad-going-rummy")
    table = build_table(rules, players)
    # (once every meld and lay-off is known to be good: those say more of a bad record)
    for name in holding_nothing(rules, players, went_out):
        raise ScoringError("holds-no-cards", "scoring.holds-no-cards" if went_out else
                           "scoring.holds-no-cards-nobody-out", {"player": name},
                           ("out.empty-hand",))
    value, low_ace = _values(rules)  # value[rank] is card_value(card, rules)
    melded = dict.fromkeys(names, 0)
    for meld in table:
        owner = meld.owner
        # the position-1 card of a run is an ace melded low (values.low-ace)
        low = meld.kind == RUN and meld.reading.low == 1
        for card, by in zip(meld.cards, meld.laid_by):
            layer = owner if by is None else by  # meld.layer(i)
            if layer is not None:
                melded[layer] += low_ace if low and card.rank == 1 else value[card.rank]
            low = False
    stranded = {p.name: sum([value[c.rank] for c in p.hand]) + (p.held_points or 0)
                for p in players}
    if not rules.is_basic:
        ids: tuple[str, ...] = ("score.500", "layoff.owner", "values.face", "values.low-ace")
        if rules.jokers:
            ids += ("values.joker",)
        if went_out is None:  # nobody went out: the stock ran out
            ids += ("out.stock-empty",)
        if _ace_on_a_run(players, table):
            ids += ("values.ace-end",)
        return HandScore(tuple(PlayerScore(n, melded[n], stranded[n], melded[n] - stranded[n])
                               for n in names), table, ids)
    scores = dict.fromkeys(names, 0)
    rule_ids: tuple[str, ...] = ("score.basic",)
    if went_out is None:
        rule_ids += ("basic.stock-reshuffle",)
    else:
        pot = sum(v for n, v in stranded.items() if n != went_out)
        winner = next(p for p in players if p.name == went_out)
        if winner.going_rummy:
            pot *= 2
            rule_ids += ("score.going-rummy",)
        scores[went_out] = pot
    return HandScore(tuple(PlayerScore(n, melded[n], stranded[n], scores[n]) for n in names),
                     table, rule_ids)


def game_result(rules: RuleSet, totals: Sequence[int], went_out: int | None = None,
                names: Sequence[str] | None = None) -> Verdict:
    """Is the game over after this hand, and who won?  ``detail`` has ``finished``
    and ``winner`` (an index into ``totals``, or None)."""
    count = len(totals)
    if names is None:
        names = [f"player {i + 1}" for i in range(count)]
    if went_out is not None and not 0 <= went_out < count:
        raise ScoringError("unknown-player", "scoring.went-out-index")
    target = rules.target_for(count)
    continues = Verdict(False, "game.continues",
                        ("game.target-basic",) if rules.is_basic else ("game.target-500",),
                        {"target": target}, {"finished": False, "winner": None})

    def won(i: int, rule_ids: tuple[str, ...]) -> Verdict:
        return Verdict(True, "game.won", rule_ids, {"winner": names[i], "total": totals[i]},
                       {"finished": True, "winner": i})

    reached = [i for i in range(count) if totals[i] >= target]
    if rules.must_go_out and not rules.is_basic:
        if went_out is not None and totals[went_out] >= target:
            return won(went_out, ("game.must-go-out",))
        if not reached:
            return continues
        if went_out is None:
            return Verdict(False, "game.nobody-out", ("game.must-go-out",), {"target": target},
                           {"finished": False, "winner": None})
        return Verdict(False, "game.must-go-out", ("game.must-go-out",),
                       {"player": names[went_out], "target": target},
                       {"finished": False, "winner": None})
    rule = "game.target-basic" if rules.is_basic else "game.target-500"
    if not reached:
        return continues
    if rules.is_basic and went_out is not None and went_out in reached:
        return won(went_out, (rule,))
    top = max(totals[i] for i in reached)
    leaders = [i for i in reached if totals[i] == top]
    if len(leaders) > 1:
        return Verdict(False, "game.tie", (rule,),
                       {"players": tuple(names[i] for i in leaders), "total": top},
                       {"finished": False, "winner": None, "tied": tuple(leaders)})
    return won(leaders[0], (rule,))


def most_points(rules: RuleSet, players: int) -> int:
    """The most points one player can score in one hand: every card of the decks in play
    at its highest value (``values.face``, ``values.joker``), doubled in Basic Rummy for
    going Rummy (``score.going-rummy``).  No real hand comes near it; it bounds a hand
    given as points only (:func:`score_points`)."""
    value, _low_ace = _values(rules)
    deck = sum(value[rank] for rank in range(1, 14)) * 4 * rules.decks(players)
    deck += value[0] * rules.jokers_in_play(players)
    return deck * 2 if rules.is_basic else deck


def score_points(rules: RuleSet, points: Sequence[tuple[str, int]], went_out: str | None,
                 going_rummy: bool = False) -> HandScore:
    """A hand given as each player's points instead of its cards ("points only"): the
    points as given, once they are points the rules let a hand score.  No card is
    checked (there are none); what is checked is what the rules say of any hand:

    - ``score.500``: a player's points are what they melded minus what they were left
      holding, so together the players' points (each taken without its sign) are worth
      no more than the decks in play (``points-too-many``); whoever went out holds
      nothing, so cannot score below zero (``went-out-below-zero``).
    - ``score.basic``: only the player who went out scores, nobody in a draw
      (``only-winner-scores``); never below zero; going Rummy doubles the pot
      (``score.going-rummy``), so it is even (``going-rummy-odd``).

    Raises :class:`ScoringError` with those codes (and ``points-out-of-range`` for more
    than :func:`most_points`).  The hand's melded and stranded points are 0: unknown."""
    names = [n for n, _p in points]
    _check_table(names, rules, went_out)
    if going_rummy and (not rules.is_basic or went_out is None):
        raise ScoringError("bad-going-rummy", "scoring.bad-going-rummy")
    most = most_points(rules, len(points))
    for name, value in points:
        if not -most <= value <= most:
            raise ScoringError("points-out-of-range", "scoring.points-out-of-range",
                               {"player": name, "points": value, "most": most})
    rule_ids: tuple[str, ...]
    if not rules.is_basic:
        rule_ids = ("score.500",)
        deck = most_points(rules, len(points))
        if sum(abs(v) for _n, v in points) > deck:
            raise ScoringError("points-too-many", "scoring.points-too-many", {"most": deck})
        for name, value in points:
            if name == went_out and value < 0:
                raise ScoringError("went-out-below-zero", "scoring.went-out-holding-nothing",
                                   {"player": name})
        if went_out is None:
            rule_ids += ("out.stock-empty",)
    else:
        rule_ids = ("score.basic",)
        for name, value in points:
            if name != went_out and value != 0:
                raise ScoringError("only-winner-scores", "scoring.only-winner-scores",
                                   {"player": name})
            if name == went_out and value < 0:
                raise ScoringError("went-out-below-zero", "scoring.went-out-below-zero",
                                   {"player": name})
            if name == went_out and going_rummy and value % 2:
                raise ScoringError("going-rummy-odd", "scoring.going-rummy-odd",
                                   {"player": name})
        if going_rummy:
            rule_ids += ("score.going-rummy",)
        if went_out is None:
            rule_ids += ("basic.stock-reshuffle",)
    return HandScore(tuple(PlayerScore(n, 0, 0, v) for n, v in points), Table(), rule_ids)
