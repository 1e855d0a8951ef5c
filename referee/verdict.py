"""Verdicts: what the referee answers, as data.

Every check returns a :class:`Verdict` — legal or not, a stable ``code``, the
rule ids from ``RULES.md`` it rests on, the parameters of its explanation and
any details (readings, targets, ways to meld).  The English text of each code
is a template marked with :func:`N_`, so the web layer translates it with
Babel; the referee itself never needs Flask to explain itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


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
        "or the player's word, decides: at the low end it scores the low-ace value, at the "
        "high end 15."
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
        "at the low end it scores the low-ace value, at the high end 15."
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
    "draw.deepest-discard": N_(
        "%(card)s is the deepest card taken from the discard pile: it must be melded this "
        "turn, so it cannot be the discard."
    ),
    "draw.deepest-discard-copy": N_(
        "%(card)s is the deepest card taken from the discard pile: it must be melded this "
        "turn, so it cannot be the discard, and with two decks neither can the other "
        "%(card)s: it counts as the same card."
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
}


@dataclass(frozen=True)
class Verdict:
    """The referee's answer to one question."""

    legal: bool
    code: str
    rules: tuple[str, ...]
    params: Mapping[str, Any] = field(default_factory=dict)
    detail: Mapping[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.legal

    @property
    def template(self) -> str:
        return MESSAGES[self.code]

    @property
    def message(self) -> str:
        """The English explanation (the web layer translates ``template``)."""
        return render(self.template, self.params)


def render(template: str, params: Mapping[str, Any]) -> str:
    return template % {k: _text(v) for k, v in params.items()} if params else template


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return str(value)
