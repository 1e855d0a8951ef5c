"""Template helpers for cards: drawn with their suit symbols (so suits never rely
on colour alone) and with their spoken names for screen readers."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Blueprint
from flask_babel import get_locale, gettext, ngettext
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from referee import Card, CardError, parse_card
from referee.cards import CANONICAL, NOTATIONS, SUIT_SYMBOLS, CardNotation, rank_text
from referee.melds import card_value
from scorebook.presenters.i18n import number, signed_number

SUIT_NAMES = {"S": _l("spades"), "H": _l("hearts"), "D": _l("diamonds"), "C": _l("clubs")}
RANK_NAMES = {1: _l("ace"), 11: _l("jack"), 12: _l("queen"), 13: _l("king")}
#: Each rank in the plural, as a screen reader says a set of them ("a set of aces").
RANK_PLURALS = {
    1: _l("aces"), 2: _l("twos"), 3: _l("threes"), 4: _l("fours"), 5: _l("fives"),
    6: _l("sixes"), 7: _l("sevens"), 8: _l("eights"), 9: _l("nines"), 10: _l("tens"),
    11: _l("jacks"), 12: _l("queens"), 13: _l("kings"),
}
SUIT_CLASSES = {"S": "suit-s", "H": "suit-h", "D": "suit-d", "C": "suit-c"}


def card_name(card: Card) -> str:
    """The spoken name of a card: “7 of hearts”, “joker as 8 of hearts”."""
    if card.is_joker:
        if card.stands_for is None:
            return gettext("joker")
        return gettext("joker as %(card)s", card=card_name(card.stands_for))
    rank = str(RANK_NAMES.get(card.rank, card.rank))
    if not card.suit:
        return rank
    return gettext("%(rank)s of %(suit)s", rank=rank, suit=SUIT_NAMES[card.suit])


def card_label(card: Card) -> str:
    """What is printed: ``7♥``, ``JK``, ``JK=8♥``."""
    if card.is_joker:
        return "JK" if card.stands_for is None else "JK=" + card_label(card.stands_for)
    return rank_text(card.rank) + SUIT_SYMBOLS.get(card.suit, "")


def card_html(value: str | Card) -> Markup:
    try:
        card = parse_card(value)
    except CardError:
        return Markup('<span class="pc">{}</span>').format(value)
    if card.is_joker:
        classes = "pc pc-joker"
    else:
        classes = "pc " + SUIT_CLASSES.get(card.suit, "")
    name = card_name(card)
    return Markup('<span class="{}"><span aria-hidden="true">{}</span>'
                  '<span class="sr-only">{}</span></span>').format(
        classes, card_label(card), name)


def cards_html(values: Iterable[str | Card] | str) -> Markup:
    if isinstance(values, str):
        values = values.split()
    return Markup(" ").join(card_html(v) for v in values)


def signed(value: int) -> str:
    """A hand score with its sign and a real minus: ``+13``, ``−9``, ``0`` (thousands
    grouped the page's way)."""
    return signed_number(value)


def minus(value: int) -> str:
    """A total with a real minus sign, thousands grouped the page's way."""
    return number(value)


def meld_card_worth(meld: Any, cards: list[Any], index: int) -> int | None:
    """What an ace or a joker on a stored meld counted (None for every other card):
    a joker 15, an ace 15 high or the low-ace value at the low end of a run (where it
    lies: first of the run as it lies, or the end it was laid off at)."""
    card = parse_card(cards[index].card)
    if not card.is_joker and card.rank != 1:
        return None
    low = False
    if not card.is_joker and meld.kind == "run":
        end = cards[index].end
        low = end == "low" if end else index == 0
    return card_value(card, meld.hand.game.rules, low_ace=low)


# ---- typed cards: the letters of the page's language ----------------------------------

#: The order the legend lists the suits in (the order the issue's families name them:
#: corazones, diamantes, tréboles, picas).
LEGEND_ORDER = ("H", "D", "C", "S")


def card_notation(code: str | None = None) -> CardNotation:
    """The letters typed cards are read with: those of ``code`` when it names a language
    (a form's ``notation`` field: the language its page was shown in), else the page's."""
    if code in NOTATIONS:
        return NOTATIONS[str(code)]
    return NOTATIONS.get(str(get_locale() or "en"), CANONICAL)


def typed(canonical: str, notation: CardNotation | None = None) -> str:
    """Cards as a person types them in the page's letters, for the examples of a help
    text: ``typed("7S 8S 9S")`` is ``7s 8s 9s`` in English and ``7p 8p 9p`` in Spanish."""
    notation = notation or card_notation()
    return " ".join(notation.write(parse_card(token)).lower() for token in canonical.split())


def suit_legend(notation: CardNotation | None = None) -> list[dict[str, str]]:
    """Each suit's letter in the page's language, its symbol and its name, hearts first."""
    notation = notation or card_notation()
    return [{"letter": notation.letter(suit), "symbol": SUIT_SYMBOLS[suit],
             "name": str(SUIT_NAMES[suit]), "class": SUIT_CLASSES[suit]}
            for suit in LEGEND_ORDER]


def letter_notes(notation: CardNotation | None = None) -> dict[str, str]:
    """What a letter means here when it could be misread, by letter: a suit letter that
    is another suit in another language's letters (``C``: hearts in Spanish and Italian,
    clubs in English), and a letter that is both a rank and a suit (Italian ``Q``)."""
    notation = notation or card_notation()
    notes: dict[str, str] = {}
    for letter, suit in notation.suits.items():
        said = []
        elsewhere = sorted({n.suits[letter] for n in NOTATIONS.values()
                            if letter in n.suits and n.suits[letter] != suit})
        if elsewhere:
            said.append(gettext("Here %(letter)s is %(suit)s, not %(other)s.", letter=letter,
                                suit=f"{SUIT_NAMES[suit]} {SUIT_SYMBOLS[suit]}",
                                other=", ".join(f"{SUIT_NAMES[s]} {SUIT_SYMBOLS[s]}"
                                                for s in elsewhere)))
        rank = notation.rank_of(letter, after_suit=False)
        if rank is not None:
            said.append(gettext("%(letter)s is also a rank (%(rank)s): %(token)s = %(card)s.",
                                letter=letter, rank=RANK_NAMES.get(rank, str(rank)),
                                token=letter + letter, card=card_name(Card(rank, suit))))
        if said:
            notes[letter] = " ".join(said)
    return notes


def letters_text(notation: CardNotation | None = None) -> str:
    """The suits' letters as a help text lists them: ``C ♥ corazones, D ♦ diamantes, …``."""
    return ", ".join(f"{s['letter']} {s['symbol']} {s['name']}" for s in suit_legend(notation))


def not_a_card(token: str, notation: CardNotation | None = None) -> str:
    """Why ``token`` was refused, with the letters the field reads (the page's)."""
    notation = notation or card_notation()
    return gettext("“%(token)s” is not a card. Type the rank, then the suit's letter "
                   "(%(suits)s), like %(example)s; a joker is jk.", token=token,
                   suits=letters_text(notation), example=typed("7S 10H QD", notation))


def notation_json(notation: CardNotation | None = None) -> dict[str, object]:
    """The page's letters for its scripts (``data-card-notation``, read by
    ``static/js/card-picker.js``): the same table the server reads typed cards with."""
    notation = notation or card_notation()
    return {"language": notation.language, "suits": dict(notation.suits),
            "ranks": dict(notation.ranks), "jokers": sorted(notation.jokers),
            "notes": letter_notes(notation),
            "legend": " · ".join(f"{s['letter']} {s['symbol']} {s['name']}"
                                 for s in suit_legend(notation)),
            "badCard": gettext("“%(token)s” is not a card."),
            "readAs": gettext("Read as:")}


def register_card_helpers(bp: Blueprint) -> None:
    bp.add_app_template_filter(card_html, "card")
    bp.add_app_template_filter(cards_html, "cards")
    bp.add_app_template_filter(signed, "signed")
    bp.add_app_template_filter(minus, "minus")
    bp.add_app_template_global(card_name, "card_name")
    bp.add_app_template_global(meld_card_worth, "meld_card_worth")
    bp.add_app_template_global(card_notation, "card_notation")
    bp.add_app_template_global(suit_legend, "suit_legend")
    bp.add_app_template_global(letter_notes, "letter_notes")
    bp.add_app_template_global(notation_json, "notation_json")
    bp.add_app_template_filter(typed, "typed")


#: picker_texts() per language: the same 90 translations on every record-hand page.
_PICKER_TEXTS: dict[str, dict[str, object]] = {}


def picker_texts() -> dict[str, object]:
    """The card picker's words, translated, for the page's scripts (a data attribute);
    built once per language and worker."""
    language = str(get_locale())
    texts = _PICKER_TEXTS.get(language)
    if texts is None:
        texts = _PICKER_TEXTS[language] = _picker_texts()
    return dict(texts)


def _picker_texts() -> dict[str, object]:
    from referee.cards import RANKS, SUITS

    names = {rank_text(r) + s: card_name(Card(r, s)) for s in SUITS for r in RANKS}
    names["JK"] = gettext("joker")
    return {
        "names": names,
        "pickerLabel": gettext("Cards"),
        "addingTo": gettext("Adding to: %(target)s"),
        "hide": gettext("Hide"),
        "show": gettext("Show cards"),
        "typeToggle": gettext("Type"),
        "typeLabel": gettext("Type cards"),
        "typePlaceholder": gettext("or type: %(cards)s", cards=typed("7S 8S 9S")),
        "add": gettext("Add"),
        "notACard": gettext("Not a card: %(token)s"),
        "usedUp": gettext("Every %(card)s in play is already used in this hand."),
        "newMeld": gettext("New meld"),
        "layOff": gettext("Lay off"),
        "inHand": gettext("In hand"),
        "group": gettext("Group my cards"),
        "meld": gettext("Meld %(n)s"),
        "layoffs": gettext("Laid off"),
        "hand": gettext("Left in hand"),
        "handPoints": gettext("Left in hand · %(points)s"),
        "remove": gettext("Take back %(card)s"),
        "needThree": gettext("A meld needs three cards or more."),
        "checking": gettext("Checking…"),
        "okRun": gettext("✓ run"),
        "okSet": gettext("✓ set"),
        "whichJoker": gettext("Which card does the joker stand for?"),
        "whichAceEnd": gettext("Where does the ace lie: low (A-2-3…) or high (…Q-K-A)?"),
        "aceLowReading": gettext("Ace low: %(cards)s (%(value)s points)"),
        "aceHighReading": gettext("Ace high: %(cards)s (%(value)s points)"),
        "chooseReadingFirst": gettext("Answer the question on meld %(n)s before saving: "
                                      "the hand is saved once every card is known."),
        "whichMeld": gettext("Which meld did %(card)s go on?"),
        "whichEnd": gettext("%(card)s fits at both ends %(of_meld)s: low or high?"),
        "endLow": gettext("Low end (A-2-3)"),
        "endHigh": gettext("High end (Q-K-A)"),
        "atEnd": gettext("%(meld)s, %(end)s"),
        "lowEnd": gettext("low end"),
        "highEnd": gettext("high end"),
        "chooseMeldFirst": gettext("Say which meld %(card)s went on before saving."),
        "onMeld": gettext("%(name)s's meld %(n)s"),
        "ownMeld": gettext("your own meld %(n)s"),
        # a meld inside a sentence, with the article its preposition takes in Spanish
        # and Italian ("della combinazione 2 di Ann"): wording.meld_phrase
        "ofMeld": gettext("of %(name)s's meld %(number)s", name="%(name)s", number="%(n)s"),
        "ofOwnMeld": gettext("of your own meld %(n)s"),
        "onMeldAs": gettext("%(name)s's meld %(n)s, as %(card)s"),
        "meldCards": gettext("%(meld)s: %(cards)s"),
        "noTable": gettext("Put a meld down first: a card can only be laid off on a meld."),
        "layoffOnto": gettext("%(card)s on %(meld)s"),
        "laidOffNote": gettext("%(card)s → %(meld)s"),
        # fewer taps (issue 27): a run by its two ends, a set completed, the next meld
        "runFilled": gettext("%(first)s to %(last)s: %(cards)s filled in."),
        "completeSet": gettext("A set with %(card)s? Add:"),
        "addCards": gettext("Add %(cards)s"),
        "nextMeld": gettext("%(card)s does not fit meld %(meld)s: it begins meld %(n)s."),
        "target": gettext("%(name)s — %(what)s"),
        "preview": gettext("Scores of this hand"),
        "previewError": gettext("Not ready to score: %(message)s"),
        # why the hand cannot be scored yet, by the error code of POST /score/hand
        "previewErrors": {
            "illegal-meld": gettext("a meld is not legal yet (see the ✗ beside it)."),
            "bad-layoff": gettext("a lay-off does not fit the meld it is on."),
            "unknown-meld": gettext("a lay-off is on a meld that is no longer there."),
            "too-many-copies": gettext("a card is entered more often than the decks hold."),
            "went-out-with-cards": gettext(
                "the player who went out still has cards in their hand."),
            "bad-going-rummy": gettext("only the player who went out can go Rummy."),
            "holds-no-cards": gettext(
                "a player who did not go out has no cards left: enter their cards, or "
                "choose who went out."),
            "other": gettext("check the cards entered so far."),
        },
        "points": gettext("%(score)s (melded %(melded)s, in hand %(stranded)s)"),
        "groupedOne": gettext("Grouped into one meld."),
        "grouped": gettext("Grouped into %(count)s melds."),
        "nothingToGroup": gettext("First tap all the cards this player put down, "
                                  "then “%(group)s”.", group=gettext("Group my cards")),
        "ungrouped": gettext("These cards form no meld: lay them off or take them back."),
        "layoffsLost": gettext("Lay these off again, they fit no meld as grouped: %(cards)s."),
        "offline": gettext("The referee could not be reached; the hand is checked when saved."),
        # drafts (static/js/drafts.js): work kept in this browser until it is stored
        "draftRestored": gettext("Your unsaved hand %(number)s was restored."),
        "draftRestoredEdit": gettext("Your unsaved changes to hand %(number)s were restored."),
        "draftChanged": gettext("Hand %(number)s has changed on another phone since you began: "
                                "saving shows you both versions, nothing is overwritten."),
        "draftOlder": gettext("You also have an unsaved hand %(number)s from %(when)s, "
                              "which was recorded since (on another phone?)."),
        "draftUseAsThis": gettext("Use its cards here"),
        "draftLiveRestored": gettext("What you had entered in live hand %(number)s but not "
                                     "sent was restored."),
        "discard": gettext("Discard it"),
        "discardThem": gettext("Discard them"),
        "discarded": gettext("Discarded."),
        # saving
        "chooseOutcome": gettext("Say how the hand ended: choose below."),
        "nothingEntered": gettext("No cards were entered, so there is no hand to save."),
        # RULES.md §10 "Fewer cards than dealt": asked before saving, player by player
        # (by the count of cards entered, 0 to 12: the most ever dealt is 13)
        "fewerThanDealt": {str(n): str(ngettext(
            "%(name)s has %(num)s card; %(dealt)s were dealt.",
            "%(name)s has %(num)s cards; %(dealt)s were dealt.", n,
            name="%(name)s", dealt="%(dealt)s")) for n in range(13)},
        "missingAsk": gettext("Nothing was saved yet: some cards seem to be missing. Enter "
                              "them, or tick for each of these players that nobody "
                              "remembers them, then save again."),
        "missingOk": gettext("Nobody remembers the rest of %(name)s's cards: keep the hand "
                             "as it is"),
        "outcomeAuto": gettext("%(name)s is the only player left with no cards, so %(name)s "
                               "is taken as having gone out. Change it if not."),
        "staleSent": gettext("Hand %(number)s was saved from this page. This form is out of "
                             "date, so it cannot save it again."),
        "staleSaved": gettext("Hand %(number)s has been saved (on another phone?) since this "
                              "page was opened. This form is out of date."),
        "staleChanged": gettext("Hand %(number)s has changed (on another phone?) since this "
                                "page was opened. Saving would show you both."),
        "staleNext": gettext("Hand %(number)s was saved from this page a moment ago. This is "
                             "a new, empty form for hand %(next)s."),
        "recordNext": gettext("Record hand %(number)s"),
        "seeHand": gettext("See hand %(number)s"),
        "toScoreboard": gettext("Back to the scoreboard"),
        "sendFailed": gettext("Not sent: the server could not be reached. Nothing is lost; "
                              "try again when you are back online."),
    }
