"""The rule book in the product's own words: every rule id with a short title and
an explanation, grouped by section, with the families it applies to and the
house-rule option that switches it, where there is one.

The texts are marked with :func:`~referee.verdict.N_` so the web layer shows
them in the table's language; verdicts cite the ids, and the pages link each id
to its entry here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import FAMILIES, Family
from .verdict import N_

ALL = FAMILIES
FIVE_HUNDRED = (Family.PAGAT_500, Family.RUMMY_500)


@dataclass(frozen=True)
class RuleText:
    id: str
    section: str
    title: str
    text: str
    families: tuple[str, ...] = ALL
    option: str | None = None


SECTIONS: dict[str, str] = {
    "cards": N_("Cards and decks"),
    "values": N_("What cards are worth"),
    "meld": N_("Melds"),
    "layoff": N_("Laying off"),
    "turn": N_("The turn and the discard pile"),
    "rummy": N_("Calling \"Rummy!\""),
    "out": N_("Ending a hand"),
    "score": N_("Scoring a hand"),
    "game": N_("Winning the game"),
}

RULE_TEXTS: tuple[RuleText, ...] = (
    RuleText("cards.deck", "cards", N_("The deck"), N_(
        "One ordinary deck of 52 cards, with its two jokers when the game uses jokers. From "
        "five players on, two decks are shuffled together (104 cards, or 108 with the four "
        "jokers). Basic Rummy never uses jokers.")),
    RuleText("cards.players", "cards", N_("How many can play"), N_(
        "500 Rum and Rummy 500 take from two to eight players; Basic Rummy from two to "
        "four.")),
    RuleText("cards.deal", "cards", N_("The deal"), N_(
        "In 500 Rum and Rummy 500 everyone gets seven cards, or thirteen when only two play. "
        "In Basic Rummy two players get ten each, three or four players seven each. The next "
        "card of the stock is turned face up to start the discard pile. Every turn draws at "
        "least as many cards as it discards, so everyone ends a hand with at least as many "
        "cards as they were dealt: a record with fewer is missing some, and the scorebook "
        "asks before keeping it.")),
    RuleText("cards.copies", "cards", N_("Every card exists once per deck"), N_(
        "With one deck no card can show up twice among everything recorded for a hand, "
        "melds and hands together; with two decks, at most twice. There are two jokers per "
        "deck.")),
    RuleText("values.face", "values", N_("Card values"), N_(
        "Two to nine count their number, tens and face cards 10, an ace 15 and a joker 15. "
        "With the 5-10-15 house rule the cards from two to nine count 5 each. In Basic "
        "Rummy an ace counts 1.")),
    RuleText("values.low-ace", "values", N_("The low ace"), N_(
        "An ace melded at the bottom of a run, next to the two of its suit (A-2-3…, the two "
        "and three real or jokers standing for them), is worth the low-ace value instead "
        "of 15: 1 in 500 Rum, 5 with the 5-10-15 values, and 15 in Rummy 500, which has no "
        "such exception. An ace at the top of a run (…Q-K-A, also a 13-card run from the "
        "two up to the ace) is worth 15. An ace left in a hand always costs 15."),
        FIVE_HUNDRED, "low_ace_value"),
    RuleText("values.ace-end", "values", N_("The ace's end"), N_(
        "An ace laid off on a run that could take it at either end (a run from the two to "
        "the king) goes to the end the player chooses and scores by it: at the bottom the "
        "low-ace value, at the top 15. The record of the hand keeps which end it went to."),
        FIVE_HUNDRED),
    RuleText("values.joker", "values", N_("The joker's value"), N_(
        "A joker is worth 15 points wherever it ends up, melded or stuck in a hand; it does "
        "not take the value of the card it stands for."), FIVE_HUNDRED,
        "jokers"),
    RuleText("meld.set", "meld", N_("Sets"), N_(
        "Three or four cards of the same rank. With two decks every card of a set must be of "
        "a different suit, so 6♥ 6♥ 6♠ is not a set and no set has more than four cards.")),
    RuleText("meld.run", "meld", N_("Runs"), N_(
        "Three or more cards of one suit in unbroken order, such as 5♦ 6♦ 7♦.")),
    RuleText("meld.ace", "meld", N_("Aces in runs"), N_(
        "In 500 Rum and Rummy 500 an ace goes below the two (A-2-3) or above the king "
        "(Q-K-A), but never both: K-A-2 is not a run, and no run is longer than thirteen "
        "cards. In Basic Rummy aces are low only, so Q-K-A is not a run either.")),
    RuleText("meld.joker", "meld", N_("Jokers stand for one card"), N_(
        "A joker can replace any card, but the player must say which card it is, and that "
        "never changes. In a run its place shows which card it is: 6♥ 7♥ 🃏 laid down in "
        "that order is the 8♥, or the 5♥ if the joker is put first. Cards named in any "
        "order, as when asking the referee or tapping them in, do not show it: the referee "
        "lists the readings, the joker's place or the player's word decides, and a hand is "
        "not recorded until every joker's card is known. 9♠ 🃏 🃏 could be nines or one of "
        "three runs, so the player must say which. In a set its suit can stay open. It may "
        "copy a card melded elsewhere, but never a card that could not be in that meld: "
        "four kings and a joker is not a meld."), FIVE_HUNDRED, "jokers"),
    RuleText("meld.min-natural", "meld", N_("At least one real card"), N_(
        "Unless the table agrees otherwise, a meld needs at least one card that is not a "
        "joker."), FIVE_HUNDRED, "min_natural_cards"),
    RuleText("meld.once-per-turn", "meld", N_("One new meld a turn"), N_(
        "Some tables allow only one new meld in each turn; lay-offs are not limited. Off "
        "unless chosen."), ALL, "one_meld_per_turn"),
    RuleText("layoff.basic", "layoff", N_("Adding to melds"), N_(
        "On your turn you may add cards from your hand to any meld on the table, yours or "
        "another player's: the missing fourth card of a set, or the next cards of the same "
        "suit at either end of a run. On 5♥ 6♥ 7♥ anyone may add the 4♥, the 8♥ or both.")),
    RuleText("layoff.owner", "layoff", N_("Who scores a laid-off card"), N_(
        "A card laid off scores for the player who laid it off, not for whoever owns the "
        "meld. In Basic Rummy melds belong to nobody."), FIVE_HUNDRED),
    RuleText("layoff.choice", "layoff", N_("Choosing where a card goes"), N_(
        "When a card fits two melds the player says which one, and it stays there. If the "
        "9♥ goes on the run 5-8♥, the 10♥ can follow it there; if it goes on the nines, the "
        "run still ends at the 8♥ and the 10♥ does not fit.")),
    RuleText("layoff.joker-fixed", "layoff", N_("A melded joker stays put"), N_(
        "A joker on the table keeps the card it was declared as. With 6♥ 7♥ 🃏(8♥) you may "
        "add the 5♥ or the 9♥, but you cannot move the joker to the 5♥ to add the 8♥, nor "
        "swap the real 8♥ for the joker."), FIVE_HUNDRED, "jokers"),
    RuleText("layoff.joker", "layoff", N_("Laying off a joker"), N_(
        "A joker can itself be added: at either end of a run, saying which card it is, or "
        "to a set of three as its missing suit."), FIVE_HUNDRED, "jokers"),
    RuleText("layoff.full-set", "layoff", N_("A set of four is full"), N_(
        "A set of four cards, jokers included, takes no more cards.")),
    RuleText("turn.order", "turn", N_("Whose turn"), N_(
        "The player on the dealer's left plays first and play goes clockwise; the deal "
        "passes to the left after every hand. A turn is: draw, meld if you like, discard.")),
    RuleText("draw.stock-or-top", "turn", N_("Drawing"), N_(
        "You may always draw the top card of the stock or the top card of the discard "
        "pile, unless a house rule says a discard must be melded.")),
    RuleText("draw.deep", "turn", N_("Taking from deeper in the pile"), N_(
        "You may take a card from lower in the discard pile only by taking every card above "
        "it as well, and only if you meld that card in this same turn — in a new meld or on "
        "a meld on the table — using cards from your hand or from the ones you just took. "
        "The other cards you took simply join your hand. With 6 4 7 4 Q A in the pile and "
        "2 4 5 8 J K K in hand, you take everything from the lower 4 up, meld the three "
        "fours, and keep 2 5 7 8 J Q K K A. This holds when you go out in that turn too."),
        FIVE_HUNDRED),
    RuleText("draw.must-meld", "turn", N_("Discards must be melded"), N_(
        "House rule: any card taken from the discard pile, even the top one on its own, "
        "must be melded straight away."), FIVE_HUNDRED + (Family.BASIC,), "draw_must_meld"),
    RuleText("draw.deep-new-meld", "turn", N_("The deepest card starts a new meld"), N_(
        "House rule: when you take more than the top card, the deepest card you take must "
        "go into a new meld of three or more; adding it to a meld already on the table is "
        "not enough. The top card taken on its own is not bound by this."),
        FIVE_HUNDRED, "deep_draw_new_meld"),
    RuleText("draw.basic", "turn", N_("Top card only"), N_(
        "In Basic Rummy only the top card of the discard pile can be taken."), (Family.BASIC,)),
    RuleText("discard.not-same", "turn", N_("No discarding what you just picked up"), N_(
        "If the only card you took was the top of the discard pile, you must discard a "
        "different card (in Basic Rummy: a card taken from the pile is not discarded in the "
        "same turn). If you took several, you may discard the one that was on top, but "
        "never the deepest one: it has to be melded that turn, also when you go out with "
        "it. With two decks, the other copy of the same card counts as that card. Jokers "
        "are all alike: any joker counts as the same card as any other, with one deck as "
        "with two.")),
    RuleText("rummy.call", "rummy", N_("Calling \"Rummy!\""), N_(
        "When a discard could have been melded, or the pile holds cards that can be melded "
        "without a single card from anyone's hand — added to table melds, made into a new "
        "meld from pile cards alone, or a chain of both — any player except the one who just "
        "discarded may call \"Rummy!\" before the next player draws. The caller takes the "
        "pile down to that card, melds it (and whatever else they like) and discards; play "
        "goes on from the caller's left, and the players in between miss their turn. With "
        "K♣ and, higher up, Q♣ in the pile, a discarded J♣ lets anyone else take everything "
        "from the K♣ up."), FIVE_HUNDRED, "rummy_call"),
    RuleText("rummy.own-meld", "rummy", N_("No calling on your own discard"), N_(
        "Melding can uncover a card in the pile: meld 4-5-6♣ while the 3♣ lies there and, "
        "once you discard, anyone else may call Rummy and take down to the 3♣. You may not "
        "call it yourself until the next player has had their turn."), FIVE_HUNDRED,
        "rummy_call"),
    RuleText("rummy.after-out", "rummy", N_("No calls after the hand ends"), N_(
        "Going out ends the hand at once; whatever could be melded from the pile then stays "
        "there. A last discard refused because it could still be melded did not end the "
        "hand, so a table that plays that way may still call on it."), FIVE_HUNDRED,
        "rummy_call"),
    RuleText("rummy.mode", "rummy", N_("Which calls are allowed"), N_(
        "Tables choose: no calls at all (the usual way in Rummy 500, and always in Basic "
        "Rummy); calls only on the latest discard, which the caller adds to a table meld and "
        "scores before play carries on as it was; or calls anywhere down the pile, the full "
        "rule (500 Rum's usual way)."), ALL, "rummy_call"),
    RuleText("out.empty-hand", "out", N_("Going out"), N_(
        "A hand ends the moment a player has no cards left: they melded them all, or all "
        "but one and discarded that one. So when someone went out, nobody else can be left "
        "with no cards, and when the stock ran out (or in a draw) nobody at all can; the "
        "scorebook refuses such a record, except with the floating house rule.")),
    RuleText("out.stock-empty", "out", N_("An empty stock"), N_(
        "In 500 Rum and Rummy 500 the hand also ends when the stock is empty and the player "
        "whose turn it is does not want to take from the discard pile."), FIVE_HUNDRED),
    RuleText("out.discard-required", "out", N_("Keep a card to discard"), N_(
        "House rule: to go out you must end with a discard, so melding every card with "
        "nothing left to throw is not allowed. Basic Rummy lets you meld everything."),
        ALL, "discard_required"),
    RuleText("out.floating", "out", N_("Floating"), N_(
        "House rule: a player may meld every card without ending the hand; they \"float\". "
        "On their next turn, if nobody has gone out, they either draw from the stock and "
        "discard it, ending the hand; take several cards from the pile, meld all but one and "
        "discard it, ending the hand; meld everything they drew and float again; or meld "
        "some, discard one and keep at least one, and play goes back to normal."),
        FIVE_HUNDRED, "floating"),
    RuleText("out.unplayable-discard", "out", N_("The last discard must be dead"), N_(
        "House rule: you cannot go out by discarding a card that could have been melded. A "
        "playable last card has to be melded, and you float. So a floater can never go out "
        "with the previous player's discard. If someone tries, another player may make them "
        "take it back and meld it (or, if the table agrees, call \"Rummy!\" on it); they "
        "then float."), FIVE_HUNDRED, "unplayable_discard"),
    RuleText("basic.stock-reshuffle", "out", N_("Running out of stock"), N_(
        "In Basic Rummy the discard pile is shuffled into a new stock when the stock runs "
        "out; if that runs out too, the hand is a draw and nobody scores. It is also a draw "
        "when nobody can ever finish."), (Family.BASIC,)),
    RuleText("score.500", "score", N_("Scoring in 500 Rum and Rummy 500"), N_(
        "When the hand ends, each player adds up every card they melded or laid off and "
        "takes away every card still in their hand, even cards that could have been melded. "
        "The result can be negative, and so can the running total. Example: 52 on the table "
        "and 39 in hand scores 13."), FIVE_HUNDRED),
    RuleText("score.basic", "score", N_("Winner takes all"), N_(
        "In Basic Rummy the player who went out scores the cards left in everyone else's "
        "hands (face cards 10, aces 1, the rest their number). Nobody else scores."),
        (Family.BASIC,)),
    RuleText("score.going-rummy", "score", N_("Going Rummy"), N_(
        "In Basic Rummy, a player who goes out in one turn without having melded or laid "
        "off anything earlier in the hand scores double."), (Family.BASIC,)),
    RuleText("game.target-500", "game", N_("Playing to 500"), N_(
        "Hands are played until someone has 500 or more after a hand; then the highest "
        "total wins. If the top is shared, play more hands until one player leads alone. "
        "Tables may choose another target."), FIVE_HUNDRED, "target"),
    RuleText("game.must-go-out", "game", N_("You must go out to win"), N_(
        "House rule: only the player who went out, with 500 or more, can win — even against "
        "a higher total: going out with 505 beats 520. If they are under 500, another hand "
        "is dealt."), FIVE_HUNDRED, "must_go_out"),
    RuleText("game.target-basic", "game", N_("Basic Rummy's targets"), N_(
        "In Basic Rummy the first player to reach the target wins: 100 points with two "
        "players, 150 with three, 200 with four, unless the table agrees on another "
        "target."), (Family.BASIC,), "target"),
)

RULES_BY_ID: dict[str, RuleText] = {r.id: r for r in RULE_TEXTS}

#: One line about each house-rule option, for forms and the rule book.
OPTION_TEXTS: dict[str, str] = {
    "jokers": N_("Play with jokers (two per deck), worth 15 and wild in any meld."),
    "values": N_("Card values: face value, or 5-10-15 (two to nine count 5)."),
    "low_ace_value": N_("What an ace at the bottom of a run (A-2-3) scores."),
    "rummy_call": N_("Calling \"Rummy!\": never, on the latest discard only, or anywhere "
                     "in the pile."),
    "draw_must_meld": N_("Any card taken from the discard pile must be melded at once."),
    "deep_draw_new_meld": N_("The deepest card taken from the pile must start a new meld."),
    "discard_required": N_("Going out needs a last card to discard."),
    "floating": N_("A player may meld every card and float until their next turn."),
    "unplayable_discard": N_("The last discard must be a card that could not be melded."),
    "must_go_out": N_("Only the player who goes out can win."),
    "target": N_("The score that ends the game."),
    "min_natural_cards": N_("Real (non-joker) cards a meld needs: 1, or 0 to allow jokers "
                            "only."),
    "one_meld_per_turn": N_("At most one new meld per turn."),
}


def rules_for(family: str) -> list[RuleText]:
    return [r for r in RULE_TEXTS if family in r.families]
