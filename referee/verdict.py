r"""Verdicts: what the referee answers, as data.

Every check returns a :class:`Verdict` — legal or not, a stable ``code``, the
rule ids from ``RULES.md`` it rests on, the parameters of its explanation and
any details (readings, targets, ways to meld).  The English text of each code
is a template marked with :func:`N_` (:data:`MESSAGES`), so the web layer
translates it with Babel; the referee itself never needs Flask to explain itself.

The parameters are values, not text: cards are :class:`~referee.cards.Card` values,
readings :class:`~referee.melds.Reading` values, lists are tuples.  What each
placeholder holds is declared once in :data:`PLACEHOLDERS`; :func:`plain_text`
writes a value the way the JSON API and the English messages always have (``7S 8S``,
``A, B``; an id as given quoted, ``'x'``; a verdict within an error as its message),
and the web's presenter writes it for a page (suit symbols, meld names,
lists in the reader's language).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from .cards import Card
    from .melds import Reading


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext no-op marker
    """Mark a message for translation without translating it here."""
    return message


#: The English template of every verdict code (``%(name)s`` placeholders).
MESSAGES: dict[str, str] = {
    # melds
    "meld.ok-set": N_("A legal set: %(cards)s."),
    "meld.ok-run": N_("A legal run: %(cards)s."),
    "meld.ambiguous": N_(
        "These cards can be read %(count)s ways; the player must declare which card "
        "each joker stands for."
    ),
    "meld.joker-place": N_(
        "As a loose bunch these cards make %(count)s runs: %(readings)s. The joker's place in "
        "the run, or the player's word, decides which card it stands for."
    ),
    "meld.ace-either-end": N_(
        "These cards make a run with the ace at either end: %(readings)s. Where the ace lies, "
        "or the player's word, decides: at the low end it scores %(low)s, at the high end 15."
    ),
    "meld.too-short": N_("A meld needs at least three cards, not %(count)s."),
    "meld.not-a-meld": N_(
        "%(cards)s is neither a set (three or four cards of one rank, different suits) "
        "nor a run (three or more cards of one suit in a row)."
    ),
    "meld.set-too-big": N_("A set holds at most four cards, one of each suit."),
    "meld.set-same-suit": N_("A set needs cards of different suits; %(cards)s repeat a suit."),
    "meld.wrap-around": N_(
        "An ace is either high or low in a run, never both: a run cannot go round the corner "
        "from king to two."
    ),
    "meld.ace-low-only": N_("In Basic Rummy aces are low only: Q-K-A is not a run."),
    "meld.wrap-around-basic": N_(
        "A run cannot go round the corner from king to two: in Basic Rummy the ace is low "
        "only, below the two (A-2-3), never next to the king."
    ),
    "meld.run-too-long": N_(
        "A run holds at most 13 cards, one of each rank with the ace at one end only; "
        "these are %(count)s."
    ),
    "meld.no-card-for-joker": N_(
        "A joker must stand for a card that could legally be in this meld; there is none "
        "left for it here."
    ),
    "meld.min-natural": N_("A meld needs a natural card too, not only jokers."),
    "meld.bad-declaration": N_(
        "The jokers cannot stand for the declared cards here; possible readings: %(readings)s."
    ),
    "meld.no-jokers": N_("This game is played without jokers."),
    "cards.too-many-copies": N_(
        "%(card)s appears %(count)s times, but the cards in play include only %(max)s."
    ),
    # lay-offs
    "layoff.ok": N_("%(card)s can be laid off on meld %(meld)s."),
    "layoff.ace-either-end": N_(
        "%(card)s can be laid off on meld %(meld)s at either end; the player says which: "
        "at the low end it scores %(low)s, at the high end 15."
    ),
    "layoff.choose": N_(
        "%(card)s fits on more than one meld (%(targets)s); the player must say which, "
        "and it never moves afterwards."
    ),
    "layoff.no-fit": N_("%(card)s fits on no meld on the table."),
    "layoff.wrong-meld": N_(
        "%(card)s cannot go on meld %(meld)s; it fits on: %(targets)s."
    ),
    "layoff.set-full": N_("Meld %(meld)s is already a set of four; it takes no more cards."),
    "layoff.joker-fixed": N_(
        "In meld %(meld)s a joker already stands for %(card)s; a melded joker never moves "
        "and cannot be taken back."
    ),
    "layoff.unknown-meld": N_("There is no meld %(meld)s on the table."),
    # discard-pile draws
    "draw.top-ok": N_("Taking the top card of the discard pile (%(card)s) is always allowed."),
    "draw.top-ok-meld": N_(
        "Taking the top card of the discard pile (%(card)s) is allowed: it can be melded at "
        "once, as the house rule requires."
    ),
    "draw.deep-ok": N_(
        "Taking %(take)s cards down to %(card)s is allowed: %(card)s can be melded at once."
    ),
    "draw.deep-cannot-meld": N_(
        "%(card)s cannot be melded at once with the cards in hand and the cards taken, "
        "so the pile cannot be taken down to it."
    ),
    "draw.deep-needs-new-meld": N_(
        "House rule: the deepest card taken must start a new meld of three or more; "
        "%(card)s could only be laid off."
    ),
    "draw.must-meld": N_(
        "House rule: a card taken from the discard pile must be melded at once, and "
        "%(card)s cannot be."
    ),
    "draw.basic-top-only": N_("In Basic Rummy only the top card of the discard pile may be taken."),
    "draw.same-discard": N_(
        "%(card)s was the only card taken from the discard pile; it cannot be discarded "
        "again this turn."
    ),
    "draw.same-discard-copy": N_(
        "%(card)s was the only card taken from the discard pile; it cannot be discarded "
        "again this turn, and with two decks neither can the other %(card)s: it counts as "
        "the same card."
    ),
    "draw.same-discard-joker": N_(
        "%(card)s was the only card taken from the discard pile; it cannot be discarded "
        "again this turn, and neither can another joker: any joker counts as the same card "
        "as any other."
    ),
    "draw.deepest-discard": N_(
        "%(card)s is the deepest card taken from the discard pile: it must be melded this "
        "turn, so it cannot be the discard."
    ),
    "draw.deepest-discard-copy": N_(
        "%(card)s is the deepest card taken from the discard pile: it must be melded this "
        "turn, so it cannot be the discard, and with two decks neither can the other "
        "%(card)s: it counts as the same card."
    ),
    "draw.deepest-discard-joker": N_(
        "%(card)s is the deepest card taken from the discard pile: it must be melded this "
        "turn, so it cannot be the discard, and neither can another joker: any joker counts "
        "as the same card as any other."
    ),
    # Rummy! calls
    "rummy.ok": N_(
        "Rummy! %(card)s can be melded without any card from a hand: take the pile down to "
        "it (%(take)s from the top)."
    ),
    "rummy.off": N_("These house rules do not allow calling Rummy."),
    "rummy.nothing": N_("Nothing in the discard pile can be melded without a card from a hand."),
    "rummy.top-nothing": N_(
        "In this game only the latest discard can be called on, and %(card)s cannot be laid "
        "off on a table meld."
    ),
    "rummy.own-discard": N_(
        "%(caller)s has just discarded and cannot call Rummy on their own discard."
    ),
    "rummy.too-late": N_("Too late: the next player has already drawn."),
    "rummy.hand-over": N_("The hand is over: once a player goes out, no call is possible."),
    # going out
    "out.ok": N_("Going out is legal: every card can be melded, which ends the hand."),
    "out.ok-discard": N_(
        "Going out is legal: every other card can be melded and %(card)s is the last discard."
    ),
    "out.floating": N_(
        "Every card can be melded, so the player floats: the hand goes on until their next turn."
    ),
    "out.discard-required": N_(
        "House rule: a player going out must keep one card to discard; melding every card is "
        "not allowed."
    ),
    "out.cannot-meld": N_("These cards cannot all be melded: %(cards)s."),
    "out.one-meld-per-turn": N_(
        "House rule: only one new meld a turn, and these cards cannot all be melded with a "
        "single new meld and lay-offs; they would need more new melds."
    ),
    "out.deep-needs-new-meld": N_(
        "House rule: %(card)s, the deepest card taken from the pile, must start a new meld "
        "of three or more, and these cards cannot all be melded that way."
    ),
    "out.unplayable-discard": N_(
        "House rule: %(card)s could still be melded, so it cannot be the last discard; the "
        "player must meld it and float."
    ),
    "out.discard-not-in-hand": N_("%(card)s is not in the hand."),
    # scoring and the game
    "game.won": N_("%(winner)s wins with %(total)s points."),
    "game.tie": N_(
        "%(players)s are tied on %(total)s at the top: another hand must be played."
    ),
    "game.continues": N_("Nobody has reached %(target)s yet: play another hand."),
    "game.must-go-out": N_(
        "House rule: only the player who went out can win, and %(player)s did not reach "
        "%(target)s: play another hand."
    ),
    "game.nobody-out": N_(
        "House rule: only the player who went out can win, and nobody went out: "
        "play another hand."
    ),
    # the played-hand log (referee.log, referee.replay, referee.log_answers)
    "log.duplicate-player": N_("Two seats have the same player's name."),
    "log.dealer-not-seated": N_("%(player)s dealt but has no seat at the table."),
    "log.dealt-too-many": N_(
        "With %(count)s cards each the deal needs more cards than the decks in play hold."
    ),
    "log.unknown-player": N_("%(player)s has no seat at this table."),
    "log.out-of-turn": N_("It is %(turn)s's turn, not %(player)s's."),
    "log.draw-first": N_(
        "%(player)s must draw, from the stock or the discard pile, before melding or "
        "discarding."
    ),
    "log.drew-already": N_("%(player)s has already drawn this turn."),
    "log.hand-over": N_("The hand is over: no move can follow."),
    "log.stock-empty": N_(
        "The stock is empty: %(player)s takes from the discard pile, or the hand ends."
    ),
    "log.stock-empty-again": N_(
        "The stock has run out a second time: the hand is a draw and nobody scores."
    ),
    "log.stock-not-empty": N_(
        "%(count)s cards are left in the stock: %(player)s draws, the hand goes on."
    ),
    "log.take-too-deep": N_(
        "The discard pile holds %(count)s cards: %(take)s cannot be taken from it."
    ),
    "log.more-than-held": N_(
        "%(player)s holds only %(count)s cards: they cannot play more than that."
    ),
    "log.not-held": N_(
        "The cards %(player)s holds are known to be %(cards)s: they cannot play any other."
    ),
    "log.meld-id-taken": N_("A meld on the table already has the id %(meld)s."),
    "log.lay-off-called-card": N_(
        "%(caller)s called Rummy! on %(card)s and lays it off on a table meld before "
        "anything else is played."
    ),
    "log.one-meld": N_(
        "House rule: only one new meld a turn, and %(player)s has made one this turn "
        "already."
    ),
    "log.layoff-refused": N_(
        "%(card)s cannot be laid off that way on meld %(meld)s: say which end it goes to, "
        "or which card the joker stands for."
    ),
    "log.deep-not-melded": N_(
        "%(card)s, the deepest card taken from the discard pile, was not melded this turn."
    ),
    "log.deep-laid-off": N_(
        "House rule: %(card)s, the deepest card taken from the discard pile, must start a "
        "new meld; laying it off is not enough."
    ),
    "log.top-not-melded": N_(
        "House rule: %(card)s, taken from the discard pile, was not melded this turn."
    ),
    "log.called-not-melded": N_(
        "%(card)s, the card the Rummy! call took the pile down to, was not melded this "
        "turn."
    ),
    "log.no-discard": N_("Nobody has discarded yet in this hand."),
    "log.called-first": N_(
        "%(player)s's call comes first in the log and took the pile down to %(card)s; "
        "%(caller)s's call, judged against the pile as it is now, finds nothing to take."
    ),
    "log.not-callable": N_(
        "%(card)s cannot be melded without a card from a hand, so a Rummy! call cannot "
        "take the pile down to it."
    ),
    # answers from a replayed log
    "log.no-call": N_("Nobody has called Rummy! in this hand."),
    "log.call-skips": N_(
        "%(caller)s called Rummy! on %(discarder)s's discard and took the pile down to "
        "%(card)s: play goes on with %(player)s, and %(players)s lost their turn."
    ),
    "log.call-skips-nobody": N_(
        "%(caller)s called Rummy! on %(discarder)s's discard and took the pile down to "
        "%(card)s: play goes on with %(player)s, and nobody lost a turn."
    ),
    "log.call-top": N_(
        "%(caller)s called Rummy! on %(discarder)s's discard %(card)s and laid it off: play "
        "goes on with %(player)s, whose turn it was, and nobody lost a turn."
    ),
    "log.call-own-later": N_(
        "%(caller)s may call now: %(card)s could already be called after their own "
        "discard, and the next player has had a turn since. The pile is taken down to it "
        "(%(take)s from the top)."
    ),
    "log.taken-earlier": N_(
        "%(card)s was taken from the discard pile on an earlier turn: it is an ordinary "
        "card of %(player)s's hand now, and may be discarded."
    ),
    "log.discard-ok": N_(
        "%(card)s was not taken from the discard pile this turn, so discarding it breaks "
        "no rule."
    ),
    "log.going-rummy-basic": N_(
        "Going Rummy is a Basic Rummy rule: in this game it doubles nothing."
    ),
    "log.not-out": N_("%(player)s has not gone out, so they cannot go Rummy."),
    "log.not-going-rummy": N_(
        "%(player)s melded or laid off %(cards)s on an earlier turn, so going out does "
        "not count double."
    ),
    "log.going-rummy": N_(
        "%(player)s melded nothing before the turn they went out in, and got rid of every "
        "card in that turn: going Rummy, their points for the hand are doubled."
    ),
    "log.reshuffle": N_(
        "The stock has run out for the first time: the discard pile is shuffled into a new "
        "stock and play goes on."
    ),
    "log.stock-left": N_("%(count)s cards are left in the stock: the hand goes on."),
    "log.stock-out-ended": N_(
        "The stock was empty and %(player)s did not take from the discard pile: the hand "
        "is over."
    ),
    "log.stock-out-now": N_(
        "The stock is empty: if %(player)s does not take from the discard pile, the hand "
        "ends now."
    ),
    "log.call-alone": N_(
        "%(caller)s was the only player to call Rummy! on %(discarder)s's discard, and "
        "took the pile down to %(card)s."
    ),
    "log.call-first": N_(
        "%(caller)s's call is the first the log holds, so %(caller)s took the pile down to "
        "%(card)s. The rule book sets no order among players who call at once; the calls "
        "of %(players)s came after it and were judged against the pile as it was left."
    ),
    "log.next-deal": N_("The hand is over; %(dealer)s deals the next one."),
    "log.turn-draw": N_(
        "It is %(player)s's turn to draw; %(dealer)s deals the next hand."
    ),
    "log.turn-play": N_(
        "%(player)s has drawn and plays on: meld if they like, then discard. %(dealer)s "
        "deals the next hand."
    ),
    "log.pile-empty": N_("The discard pile is empty: the only draw is from the stock."),
    "log.pile-depths": N_(
        "Besides the top card (%(card)s), the pile can be taken down to %(cards)s: each "
        "can be melded at once with the cards given and the cards above it."
    ),
    "log.pile-top-only": N_(
        "Only the top card (%(card)s) can be taken: no deeper card can be melded at once "
        "with the cards given and the cards above it."
    ),
    "log.pile-nothing": N_(
        "House rule: a card taken from the pile must be melded at once, and no card of "
        "the pile can be with the cards given: draw from the stock."
    ),
    "log.no-out-discard": N_("Nobody has gone out with a discard in this hand."),
    "log.out-discard-dead": N_(
        "%(card)s, %(player)s's last discard, fits on no meld on the table: a dead card, "
        "so going out with it stands."
    ),
    "log.out-discard-playable": N_(
        "%(card)s, %(player)s's last discard, could have been laid off on meld %(meld)s; "
        "without the house rule on the last discard, going out with it stands."
    ),
    "log.out-discard-playable-house": N_(
        "House rule: %(card)s, %(player)s's last discard, could have been laid off on meld "
        "%(meld)s, so it was no dead card: they should have melded it and floated."
    ),
    "log.discard-layoff": N_(
        "%(player)s's discard %(card)s could have been laid off on meld %(meld)s."
    ),
    "log.discard-meld": N_(
        "%(player)s's discard %(card)s could have been melded with cards of the discard "
        "pile: %(cards)s."
    ),
    "log.discard-dead": N_(
        "%(player)s's discard %(card)s could not have been melded without a card from a "
        "hand, and nobody else can see what a hand holds."
    ),
}


# ---- rule sets that cannot be built (:class:`~referee.rules.RulesError`) --------------
#: What the web says about a contradictory rule set (the JSON API keeps the error's own
#: English, which names the options as the API spells them).
RULES_MESSAGES: dict[str, str] = {
    "rules.not-in-basic": N_("Basic Rummy is played without the house rule “%(option)s”."),
    "rules.basic-ace": N_("In Basic Rummy an ace always counts 1."),
    "rules.floating-discard": N_(
        "“%(option)s” needs “%(other)s” off: a floating player has melded every card, so "
        "there is nothing left to discard."
    ),
    "rules.unplayable-discard": N_(
        "“%(option)s” needs “%(other)s” off: a player whose last card is playable must meld "
        "it and float."
    ),
    "rules.unplayable-floating": N_(
        "“%(option)s” needs “%(other)s”: a playable last card is melded, and the player "
        "floats."
    ),
    "rules.players": N_("%(family)s is played by %(low)s to %(high)s players, not %(count)s."),
}


# ---- hands that cannot have happened (:class:`~referee.scoring.ScoringError`) ----------
#: The English of every :class:`~referee.scoring.ScoringError` reason: the JSON API's error
#: message exactly, and what a page translates (``%(name)s`` placeholders, as above).
SCORING_MESSAGES: dict[str, str] = {
    "scoring.duplicate-meld": N_("two melds have the id %(given_id)s"),
    "scoring.illegal-meld": N_("%(player)s's meld %(cards)s: %(problem)s"),
    "scoring.unknown-meld": N_(
        "%(card)s is laid off on meld %(given_id)s, which is not on the table"),
    "scoring.bad-end": N_(
        "%(card)s is laid off at the %(given_end)s end of meld %(meld)s; a run's ends are low "
        "and high"),
    "scoring.set-low-end": N_(
        "%(card)s is laid off at the low end of meld %(meld)s, a set, which has no ends"),
    "scoring.set-high-end": N_(
        "%(card)s is laid off at the high end of meld %(meld)s, a set, which has no ends"),
    "scoring.bad-layoff": N_("%(card)s cannot be laid off on meld %(meld)s"),
    "scoring.bad-layoff-low": N_("%(card)s cannot be laid off at the low end of meld %(meld)s"),
    "scoring.bad-layoff-high": N_(
        "%(card)s cannot be laid off at the high end of meld %(meld)s"),
    "scoring.layoffs-impossible": N_("these lay-offs cannot all be made on the melds given"),
    "scoring.duplicate-player": N_("two players have the same name"),
    "scoring.bad-players": N_(
        "%(family)s is played by %(low)s to %(high)s players, not %(count)s"),
    "scoring.unknown-player": N_("%(given_name)s went out but is not a player"),
    "scoring.went-out-with-cards": N_("%(player)s went out but still holds %(cards)s"),
    "scoring.holds-no-cards": N_(
        "%(player)s holds no cards but did not go out: a player left with no cards ends the "
        "hand, so only the one who went out can hold none"),
    "scoring.holds-no-cards-nobody-out": N_(
        "%(player)s holds no cards, yet nobody went out: a player left with no cards ends "
        "the hand by going out"),
    "scoring.bad-going-rummy": N_("only the player who went out in Basic Rummy can go Rummy"),
    "scoring.went-out-index": N_("went_out must be the index of a player"),
    "scoring.points-out-of-range": N_(
        "%(player)s's %(points)s points are more than one hand can score (at most %(most)s "
        "either way)"),
    "scoring.points-too-many": N_(
        "the points add up, without their signs, to more than the %(most)s the cards in play "
        "are worth"),
    "scoring.went-out-holding-nothing": N_(
        "%(player)s went out, holding nothing, so cannot score below zero"),
    "scoring.only-winner-scores": N_(
        "only the player who went out scores in Basic Rummy: %(player)s scores 0"),
    "scoring.went-out-below-zero": N_("%(player)s went out and cannot score below zero"),
    "scoring.going-rummy-odd": N_("going Rummy doubles the pot, so the points are even"),
}

# ---- melds and lay-offs that cannot be placed (:class:`~referee.table.TableError`) ------
#: The English of a :class:`~referee.table.TableError` that is not a verdict's (the
#: others carry the verdict, and say its :data:`MESSAGES` text).
TABLE_MESSAGES: dict[str, str] = {
    "table.laid-by-count": N_("laid_by must name who laid each card"),
    "table.wrong-low-end": N_("%(card)s does not fit at the low end of meld %(meld)s"),
    "table.wrong-high-end": N_("%(card)s does not fit at the high end of meld %(meld)s"),
    "table.wrong-end": N_("%(card)s does not fit at the %(end)s end of meld %(meld)s"),
    "table.say-joker": N_("say which card the joker stands for: %(choices)s"),
}


def error_template(reason: str) -> str:
    """The English template of an error's ``reason``: a hand's (:data:`SCORING_MESSAGES`),
    the table's (:data:`TABLE_MESSAGES`) or a verdict's (:data:`MESSAGES`)."""
    return SCORING_MESSAGES.get(reason) or TABLE_MESSAGES.get(reason) or MESSAGES[reason]


class Placeholder(StrEnum):
    """What a message's placeholder holds."""

    COUNT = "count"  # a whole number
    CARD = "card"  # a Card
    CARDS = "cards"  # a tuple of Cards
    READINGS = "readings"  # a tuple of Readings (ways to read the same cards)
    MELD = "meld"  # a meld id
    MELDS = "melds"  # a tuple of meld ids
    NAME = "name"  # a player's name, as typed
    NAMES = "names"  # a tuple of names
    OPTION = "option"  # a house rule's option name (``floating``)
    FAMILY = "family"  # a rule family (``basic``)
    QUOTED = "quoted"  # a text as given (an id, a name, an end), quoted: ``'x'``
    TEXT = "text"  # a text as given, unquoted
    CHOICES = "choices"  # a tuple of Cards, one of which is meant (``JK=4H or JK=8H``)
    VERDICT = "verdict"  # a Verdict: what the referee said of a meld within the error


#: Every placeholder name the messages use, and what it holds.
PLACEHOLDERS: dict[str, Placeholder] = {
    "count": Placeholder.COUNT, "max": Placeholder.COUNT, "min": Placeholder.COUNT,
    "decks": Placeholder.COUNT, "take": Placeholder.COUNT, "total": Placeholder.COUNT,
    "target": Placeholder.COUNT, "low": Placeholder.COUNT, "high": Placeholder.COUNT,
    "card": Placeholder.CARD, "cards": Placeholder.CARDS, "readings": Placeholder.READINGS,
    "meld": Placeholder.MELD, "targets": Placeholder.MELDS,
    "winner": Placeholder.NAME, "player": Placeholder.NAME, "caller": Placeholder.NAME,
    "discarder": Placeholder.NAME, "players": Placeholder.NAMES,
    "turn": Placeholder.NAME, "dealer": Placeholder.NAME,
    "option": Placeholder.OPTION, "other": Placeholder.OPTION, "family": Placeholder.FAMILY,
    "points": Placeholder.COUNT, "most": Placeholder.COUNT,
    "given_id": Placeholder.QUOTED, "given_end": Placeholder.QUOTED,
    "given_name": Placeholder.QUOTED, "end": Placeholder.TEXT,
    "choices": Placeholder.CHOICES, "problem": Placeholder.VERDICT,
}

#: A parameter's value: see :class:`Placeholder`.
Param: TypeAlias = "int | str | Card | Reading | tuple[Card, ...] | tuple[Reading, ...] " \
    "| tuple[str, ...] | Verdict"


def plain_text(name: str, value: Any) -> Any:
    """A parameter as the JSON API and the English messages write it: a card as ``7S``,
    cards ``7S 8S 9S``, readings ``7S 8S 9S; JK=7S 8S 9S``, lists of ids or names
    ``A, B``; numbers stay numbers."""
    kind = PLACEHOLDERS.get(name)
    if kind is Placeholder.COUNT:
        return value
    if kind is Placeholder.CARDS:
        return " ".join(str(c) for c in value)
    if kind is Placeholder.CHOICES:
        return " or ".join(str(c) for c in value)
    if kind is Placeholder.QUOTED:
        return repr(value)
    if kind is Placeholder.VERDICT:
        return value.message
    if kind is Placeholder.READINGS:
        return "; ".join(str(r) for r in value)
    if kind in (Placeholder.MELDS, Placeholder.NAMES):
        return ", ".join(str(v) for v in value)
    return value if isinstance(value, int) else str(value)


def plain_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter by :func:`plain_text`."""
    return {k: plain_text(k, v) for k, v in params.items()}


@dataclass(frozen=True)
class Verdict:
    """The referee's answer to one question."""

    legal: bool
    code: str
    rules: tuple[str, ...]
    params: Mapping[str, Param] = field(default_factory=dict)
    detail: Mapping[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.legal

    @property
    def template(self) -> str:
        return MESSAGES[self.code]

    def plain_params(self) -> dict[str, Any]:
        """The parameters as text and numbers (the JSON API's ``params``)."""
        return plain_params(self.params)

    @property
    def message(self) -> str:
        """The English explanation (the web layer translates ``template``)."""
        return render(self.template, self.plain_params())


def render(template: str, params: Mapping[str, Any]) -> str:
    """``template`` with its ``%(name)s`` placeholders filled from ``params`` (already
    written as text)."""
    return template % dict(params) if params else template
