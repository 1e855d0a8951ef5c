"""Cards, suits and jokers: the values the whole referee is made of.

A card has one canonical text form: rank then suit (``7S``, ``10H``, ``AD``,
``QC``), ``JK`` for a joker, and ``JK=8H`` for a joker declared as the eight of
hearts.  In a set the joker's suit need not be declared, so ``JK=9`` (rank
only) is a valid declaration too.  :func:`parse_card` also reads what people
type at a table: ``7♠``, ``7s``, ``s7``, ``S7``, ``T♥``, ``h1`` (the ace in
the Basic Rummy source's notation), ``joker``, ``*`` and ``🃏``.

The canonical form and the letters above are English's (``S H D C``).  A family types
the suits the way its language names them: a :class:`CardNotation` is one language's
table of letters (:data:`NOTATIONS`: Spanish ``C D T P``, *corazones diamantes tréboles
picas*; Italian ``C Q F P``, *cuori quadri fiori picche*), and ``parse_card(token,
notation)`` reads a token with it.  ``7C`` is the seven of hearts in Spanish and Italian,
of clubs in English: a text is read with one table, never guessed.  The suit symbols
``♠♥♦♣`` read the same in every table, and so do the ranks as French-suited cards print
them (``A 2``–``10 J Q K``; ``1`` for the ace; ``T`` for the ten in English only, where
it is no suit).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
#: Ranks 1 (ace) to 13 (king); a joker has rank 0 and no suit.
RANKS = tuple(range(1, 14))
JOKER_RANK = 0

_RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10, "1": 1}
_SUIT_WORDS = {
    "S": "S", "H": "H", "D": "D", "C": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}
_JOKER_WORDS = {"JK", "JOKER", "*", "🃏", "JKR"}
_TOKEN = re.compile(r"^(?:(?P<r1>10|[2-9AJQKT1])(?P<s1>[SHDC♠♥♦♣♤♡♢♧])"
                    r"|(?P<s2>[SHDC♠♥♦♣♤♡♢♧])(?P<r2>10|1[0-3]|[2-9AJQKT1]))$")
#: The suit symbols, which every notation reads (with their outlined forms).
_SYMBOL_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
#: The ranks every notation reads, as French-suited cards print them (and 1 for the ace).
_COMMON_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, "1": 1}


class CardError(ValueError):
    """Raised for text that is not a card; the message names the token."""

    def __init__(self, token: str, reason: str = "") -> None:
        self.token = token
        self.reason = reason
        super().__init__(f"not a card: {token!r}" + (f" ({reason})" if reason else ""))


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. ``rank`` 1–13 (ace = 1) and ``suit`` in ``SHDC`` for a natural
    card; ``rank == 0`` and ``suit == ""`` for a joker, whose ``stands_for`` may
    hold the card it was declared as (with ``suit == ""`` when only the rank of
    a set was declared)."""

    rank: int
    suit: str
    stands_for: Card | None = None

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def natural(self) -> Card:
        """The card without its declaration (what physically lies there)."""
        return JOKER if self.rank == JOKER_RANK else self

    def declared(self, as_card: Card) -> Card:
        """This joker declared as ``as_card``."""
        if self.rank != JOKER_RANK:
            raise ValueError("only a joker can be declared")
        return joker_as(as_card.rank, as_card.suit)

    def __str__(self) -> str:
        if self.rank == JOKER_RANK:
            if self.stands_for is None:
                return "JK"
            return "JK=" + str(self.stands_for)
        return _RANK_STRINGS[self.rank] + self.suit if 0 < self.rank < 14 else (
            rank_text(self.rank) + self.suit)

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """The card with its suit symbol, e.g. ``10♥`` or ``🃏=8♥``."""
        if self.is_joker:
            return "🃏" if self.stands_for is None else "🃏=" + self.stands_for.pretty()
        return rank_text(self.rank) + SUIT_SYMBOLS.get(self.suit, "")


JOKER = Card(JOKER_RANK, "")

# Cards are immutable values, so the ones the referee makes over and over (a natural
# at a run position, a joker declared as a card) are made once and shared.
_RANK_STRINGS = ("",) + tuple(RANK_TEXT.get(rank, str(rank)) for rank in RANKS)
_CACHEABLE = {(rank, suit) for rank in RANKS for suit in ("", *SUITS)}
_DECLARED: dict[tuple[int, str], Card] = {}
_NATURALS = {(rank, suit): Card(rank, suit) for rank in RANKS for suit in SUITS}


def joker_as(rank: int, suit: str) -> Card:
    """A joker declared as the card of ``rank`` and ``suit`` (``""``: a set's rank only)."""
    card = _DECLARED.get((rank, suit))
    if card is None:
        card = Card(JOKER_RANK, "", Card(rank, suit))
        if (rank, suit) in _CACHEABLE:
            _DECLARED[rank, suit] = card
    return card


def natural_card(rank: int, suit: str) -> Card:
    """The natural card of ``rank`` and ``suit`` (a shared instance)."""
    card = _NATURALS.get((rank, suit))
    return card if card is not None else Card(rank, suit)


def rank_text(rank: int) -> str:
    return RANK_TEXT.get(rank, str(rank))


def _parse_rank(text: str) -> int | None:
    if text in _RANK_WORDS:
        return _RANK_WORDS[text]
    # isascii: str.isdigit() is also true for "²" or "٣", which int() rejects or misreads;
    # no leading zero ("JK=03"), as the API's grammar and every notation write ranks
    if text.isascii() and text.isdigit() and 2 <= int(text) <= 13 and text == str(int(text)):
        return int(text)
    return None


def _parse_declaration(token: str, text: str) -> Card:
    """The part after ``JK=``: a full card, or a rank alone (a set joker)."""
    match = _TOKEN.match(text)
    if match:
        rank_s = match.group("r1") or match.group("r2")
        suit_s = match.group("s1") or match.group("s2")
        rank = _parse_rank(rank_s)
        if rank is not None:
            return Card(rank, _SUIT_WORDS[suit_s])
    rank = _parse_rank(text)
    if rank is not None:
        return Card(rank, "")
    raise CardError(token, "a joker must be declared as a card, e.g. JK=8H, or a rank, e.g. JK=9")


@dataclass(frozen=True, slots=True)
class CardNotation:
    """How one language types cards: a letter for each suit (``suits``: letter → ``S``,
    ``H``, ``D`` or ``C``, in capitals), letters that also mean a rank (``ranks``:
    ``T`` → 10 in English) and words for a joker besides ``JK``, ``joker``, ``*`` and
    ``🃏`` (``jokers``, in capitals).  The symbols ``♠♥♦♣`` and the ranks ``A 2``–``10
    J Q K`` (``1`` for the ace) are read in every notation.

    A card is its rank then its suit (``7C``, ``10C``, ``QC``) or its suit then its rank
    (``C7``, ``C10``, ``C13``).  A letter that is both a rank and a suit (Italian ``Q``:
    the queen, and *quadri*) is read as the rank when the other letter is a suit, and as
    the suit when it is a rank: ``QQ`` is the queen of *quadri*, ``Q7`` and ``7Q`` its
    seven, ``QF`` and ``FQ`` the queen of *fiori*.  No token can be read two ways
    (:meth:`readings` finds every way; :func:`parse_card` refuses a token with two, and
    ``tests/referee/test_card_notation.py`` checks that no notation has one)."""

    language: str
    suits: Mapping[str, str]
    ranks: Mapping[str, int] = field(default_factory=dict)
    jokers: frozenset[str] = frozenset()

    def letter(self, suit: str) -> str:
        """The letter this notation types ``suit`` with (``H`` → ``C`` in Spanish)."""
        return next(letter for letter, s in self.suits.items() if s == suit)

    def write(self, card: Card) -> str:
        """``card`` as this notation types it: ``7C`` (Spanish, hearts), ``JK=8C``."""
        if card.is_joker:
            if card.stands_for is None:
                return "JK"
            declared = card.stands_for
            return "JK=" + (self.write(declared) if declared.suit else rank_text(declared.rank))
        return rank_text(card.rank) + self.letter(card.suit)

    def rank_of(self, text: str, after_suit: bool = False) -> int | None:
        """The rank ``text`` writes (``Q`` → 12, ``10`` → 10), or None; after the suit a
        rank may also be written 11 to 13 (``H13``, the Basic Rummy source's way)."""
        if text in self.ranks:
            return self.ranks[text]
        if text in _COMMON_RANKS:
            return _COMMON_RANKS[text]
        highest = 13 if after_suit else 10
        # isascii: str.isdigit() is also true for "²" or "٣", which int() rejects or misreads
        if text.isascii() and text.isdigit() and 2 <= int(text) <= highest \
                and text == str(int(text)):
            return int(text)
        return None

    def suit_of(self, text: str) -> str | None:
        """The suit one character writes (a letter of this notation or a symbol), or None."""
        return self.suits.get(text) or _SYMBOL_SUITS.get(text)

    def readings(self, text: str) -> set[Card]:
        """Every natural card ``text`` (in capitals, without spaces) can be read as:
        rank then suit, or suit then rank (one character of suit, the rest the rank)."""
        found = set()
        if len(text) >= 2:
            suit, rank = self.suit_of(text[-1]), self.rank_of(text[:-1], after_suit=False)
            if suit is not None and rank is not None:
                found.add(natural_card(rank, suit))
            suit, rank = self.suit_of(text[0]), self.rank_of(text[1:], after_suit=True)
            if suit is not None and rank is not None:
                found.add(natural_card(rank, suit))
        return found

    def is_joker(self, text: str) -> bool:
        return text in _JOKER_WORDS or text in self.jokers


#: The notation of each language the site speaks: English's is also the canonical form
#: (the JSON API, the export files, the referee pages' addresses).
NOTATIONS: dict[str, CardNotation] = {
    "en": CardNotation("en", {"S": "S", "H": "H", "D": "D", "C": "C"}, {"T": 10}),
    # corazones, diamantes, tréboles, picas
    "es": CardNotation("es", {"C": "H", "D": "D", "T": "C", "P": "S"},
                       jokers=frozenset({"COMODÍN", "COMODIN"})),
    # cuori, quadri, fiori, picche
    "it": CardNotation("it", {"C": "H", "Q": "D", "F": "C", "P": "S"},
                       jokers=frozenset({"JOLLY"})),
}
CANONICAL = NOTATIONS["en"]


def _parse_in(raw: str, text: str, notation: CardNotation) -> Card:
    """One card in ``notation`` (``text``: in capitals, stripped)."""
    if "=" in text:
        head, _, tail = text.partition("=")
        if not notation.is_joker(head.strip()):
            raise CardError(raw, "only a joker can be declared as another card")
        declared = tail.strip()
        cards = notation.readings(declared)
        if len(cards) == 1:
            return JOKER.declared(cards.pop())
        rank = notation.rank_of(declared, after_suit=True)
        if not cards and rank is not None:
            return JOKER.declared(Card(rank, ""))
        raise CardError(raw, "a joker must be declared as a card, e.g. JK=8H, or a rank, "
                             "e.g. JK=9")
    if notation.is_joker(text):
        return JOKER
    cards = notation.readings(text)
    if len(cards) == 1:
        return cards.pop()
    raise CardError(raw, "it can be read as more than one card" if cards else "")


def parse_card(token: str | Card, notation: CardNotation | None = None) -> Card:
    """Parse one card; raise :class:`CardError` naming the token if it is not one.
    ``notation``: the language's letters (:data:`NOTATIONS`); none, the canonical form's."""
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise CardError(repr(token), "a card is written as text such as 7S or JK")
    raw = token
    text = token.strip().upper().replace("\ufe0f", "")
    if not text:
        raise CardError(raw, "empty")
    if notation is not None and notation is not CANONICAL:
        return _parse_in(raw, text, notation)
    if "=" in text:
        head, _, tail = text.partition("=")
        if head.strip() not in _JOKER_WORDS:
            raise CardError(raw, "only a joker can be declared as another card")
        return JOKER.declared(_parse_declaration(raw, tail.strip()))
    if text in _JOKER_WORDS:
        return JOKER
    match = _TOKEN.match(text)
    if not match:
        raise CardError(raw)
    rank_s = match.group("r1") or match.group("r2")
    suit_s = match.group("s1") or match.group("s2")
    rank = _parse_rank(rank_s)
    if rank is None:
        raise CardError(raw, "unknown rank")
    return Card(rank, _SUIT_WORDS[suit_s])


def parse_cards(cards: str | Iterable[str | Card], notation: CardNotation | None = None
                ) -> list[Card]:
    """Parse a list of cards, or a string of them separated by spaces or commas
    (``notation``: as for :func:`parse_card`)."""
    if isinstance(cards, str):
        tokens: Iterable[str | Card] = [t for t in re.split(r"[\s,;]+", cards) if t]
    else:
        tokens = cards
    return [parse_card(t, notation) for t in tokens]


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def full_deck(jokers: int = 2) -> list[Card]:
    """One deck: the 52 natural cards and ``jokers`` jokers."""
    return [Card(rank, suit) for suit in SUITS for rank in RANKS] + [JOKER] * jokers
