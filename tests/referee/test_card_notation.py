"""Cards typed the way each language names the suits (`referee.cards.NOTATIONS`):
Spanish C D T P (corazones, diamantes, tréboles, picas), Italian C Q F P (cuori, quadri,
fiori, picche), English S H D C; the suit symbols and the ranks as French-suited cards
print them in every language; and a grammar that never reads a token two ways."""

from __future__ import annotations

import itertools

import pytest

from referee import CardError, parse_card, parse_cards
from referee.cards import CANONICAL, NOTATIONS, RANKS, SUITS, Card, full_deck, joker_as

ES, IT, EN = NOTATIONS["es"], NOTATIONS["it"], NOTATIONS["en"]


@pytest.mark.parametrize(("language", "typed", "card"), [
    # Spanish: corazones, diamantes, tréboles, picas
    ("es", "7c", "7H"), ("es", "7C", "7H"), ("es", "c7", "7H"), ("es", "10d", "10D"),
    ("es", "qt", "QC"), ("es", "t10", "10C"), ("es", "kp", "KS"), ("es", "ac", "AH"),
    ("es", "jd", "JD"), ("es", "1p", "AS"), ("es", "c13", "KH"),
    # Italian: cuori, quadri, fiori, picche; Q is the queen and quadri
    ("it", "7c", "7H"), ("it", "7q", "7D"), ("it", "q7", "7D"), ("it", "qq", "QD"),
    ("it", "10q", "10D"), ("it", "q10", "10D"), ("it", "qf", "QC"), ("it", "fq", "QC"),
    ("it", "qc", "QH"), ("it", "kq", "KD"), ("it", "qk", "KD"), ("it", "aq", "AD"),
    ("it", "jq", "JD"), ("it", "5p", "5S"), ("it", "jf", "JC"),
    # English, the canonical letters
    ("en", "7c", "7C"), ("en", "7h", "7H"), ("en", "ts", "10S"), ("en", "qd", "QD"),
])
def test_each_language_types_its_own_suit_letters(language: str, typed: str, card: str) -> None:
    assert str(parse_card(typed, NOTATIONS[language])) == card


@pytest.mark.parametrize("language", sorted(NOTATIONS))
@pytest.mark.parametrize(("typed", "card"), [
    ("7♥", "7H"), ("♠7", "7S"), ("10♦", "10D"), ("q♣", "QC"), ("A♡", "AH"), ("k♤", "KS"),
    ("JK", "JK"), ("joker", "JK"), ("*", "JK"), ("🃏", "JK"), ("JK=8♥", "JK=8H"), ("jk=9", "JK=9"),
    ("jk=q", "JK=Q"),
])
def test_the_symbols_and_the_joker_read_the_same_in_every_language(
        language: str, typed: str, card: str) -> None:
    assert str(parse_card(typed, NOTATIONS[language])) == card


@pytest.mark.parametrize(("language", "typed", "card"), [
    ("es", "comodín", "JK"), ("es", "COMODIN", "JK"), ("es", "jk=8c", "JK=8H"),
    ("es", "comodín=7t", "JK=7C"), ("it", "jolly", "JK"), ("it", "jk=8q", "JK=8D"),
    ("it", "jolly=qq", "JK=QD"), ("it", "jk=q", "JK=Q"),
])
def test_a_joker_in_the_languages_own_word_and_declared_in_its_letters(
        language: str, typed: str, card: str) -> None:
    assert str(parse_card(typed, NOTATIONS[language])) == card


@pytest.mark.parametrize(("language", "typed"), [
    # another language's letters are refused, never read as something else
    ("es", "7h"), ("es", "7s"), ("es", "7q"), ("es", "7f"), ("es", "ts"), ("es", "jolly"),
    ("it", "7h"), ("it", "7s"), ("it", "7d"), ("it", "7t"), ("it", "ts"), ("it", "comodín"),
    ("en", "7p"), ("en", "7q"), ("en", "7f"), ("en", "7t"), ("en", "jolly"),
    # and what is no card in any language
    ("es", "11c"), ("it", "0q"), ("es", "c14"), ("it", "qqq"), ("es", "07c"), ("it", "jk=qqq"),
    ("es", "jk=8h"), ("it", "7=8c"),
])
def test_letters_a_language_does_not_use_are_refused(language: str, typed: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(typed, NOTATIONS[language])
    assert info.value.token == typed


def test_7c_is_hearts_in_spanish_and_italian_and_clubs_in_english() -> None:
    assert parse_card("7c", ES) == parse_card("7c", IT) == Card(7, "H")
    assert parse_card("7c", EN) == parse_card("7c") == Card(7, "C")


def _tokens() -> list[str]:
    """Every token of one or two rank parts and a suit part, in either order, from every
    character any notation reads, plus the numbers 1 to 14."""
    letters = sorted({ch for n in NOTATIONS.values() for ch in n.suits}
                     | {"A", "J", "Q", "K", "T", "1", "♠", "♥", "♦", "♣"})
    parts = letters + [str(n) for n in range(0, 15)]
    return ["".join(p) for p in itertools.product(parts, repeat=2)]


@pytest.mark.parametrize("language", sorted(NOTATIONS))
def test_no_token_can_be_read_two_ways(language: str) -> None:
    """Rank then suit or suit then rank: where a letter is both (Italian Q) the two
    readings are the same card (QQ), or only one exists (Q7, QF)."""
    notation = NOTATIONS[language]
    twice = {t: notation.readings(t) for t in _tokens() if len(notation.readings(t)) > 1}
    assert not twice


@pytest.mark.parametrize("language", sorted(NOTATIONS))
def test_every_card_written_in_a_language_reads_back_as_itself(language: str) -> None:
    notation = NOTATIONS[language]
    cards = full_deck() + [joker_as(r, s) for r in RANKS for s in SUITS] + \
        [joker_as(r, "") for r in RANKS]
    for card in cards:
        written = notation.write(card)
        assert parse_card(written, notation) == card, written
        assert parse_card(written.lower(), notation) == card, written


def test_the_english_notation_reads_exactly_as_the_canonical_parser() -> None:
    """The canonical form (the API, the export files, the referee's addresses; its own
    quick parser) and the table every notation is read with, for English, read every
    token alike: the page's script (which reads with the table) agrees with both."""
    from referee.cards import _parse_in

    for token in _tokens() + [f"JK={t}" for t in _tokens()] + ["JK", "joker", "*", "🃏"]:
        try:
            canonical: Card | None = parse_card(token)
        except CardError:
            canonical = None
        try:
            english: Card | None = _parse_in(token, token.strip().upper(), EN)
        except CardError:
            english = None
        assert canonical == english, token
    assert CANONICAL is EN


def test_a_line_of_cards_in_italian() -> None:
    assert [str(c) for c in parse_cards("7q 8q 9q, qq; jolly", IT)] == [
        "7D", "8D", "9D", "QD", "JK"]
