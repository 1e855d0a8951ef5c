"""Cards and decks: parsing what people type, the canonical text form, deck sizes,
player counts, the deal and how many copies of a card can exist.

Rules: `cards.deck`, `cards.players`, `cards.deal`, `cards.copies`.
"""

from __future__ import annotations

from collections import Counter

import pytest

from referee import (
    JOKER,
    Card,
    CardError,
    RulesError,
    check_copies,
    check_meld,
    format_cards,
    make_rules,
    parse_card,
    parse_cards,
)
from referee.cards import full_deck

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
BASIC = make_rules("basic")


# ---------------------------------------------------------------------------------------
# parsing and formatting


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("7♠", "7S"), ("7s", "7S"), ("s7", "7S"), ("S7", "7S"), ("♠7", "7S"),
        ("T♥", "10H"), ("10h", "10H"), ("H10", "10H"), ("t♥", "10H"),
        ("h1", "AH"), ("1h", "AH"), ("AH", "AH"), ("a♥", "AH"),
        ("QC", "QC"), ("♣q", "QC"), ("kd", "KD"), ("jd", "JD"), ("h13", "KH"),
        ("7♤", "7S"), ("7♡", "7H"), ("7♢", "7D"), ("7♧", "7C"),
        ("joker", "JK"), ("JOKER", "JK"), ("*", "JK"), ("🃏", "JK"), ("JK", "JK"),
        ("🃏\ufe0f", "JK"), ("  9d  ", "9D"),
        ("JK=8H", "JK=8H"), ("joker=8♥", "JK=8H"), ("🃏=h1", "JK=AH"), ("*=t♠", "JK=10S"),
        ("JK=9", "JK=9"), ("jk=k", "JK=K"), ("JK = 8h", "JK=8H"),
    ],
)
def test_parse_card_reads_what_people_type(typed: str, canonical: str) -> None:
    assert str(parse_card(typed)) == canonical


@pytest.mark.parametrize(
    "token", ["", "   ", "11H", "0S", "1", "7X", "HH", "ZZ", "7=8H", "JK=", "JK=JK",
              "JK=8X", "JK=0", "S14", "10", "♠", "JK=²", "joker!"],
)
def test_bad_tokens_raise_card_error_naming_the_token(token: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(token)
    assert isinstance(info.value, ValueError)
    assert info.value.token == token
    assert repr(token) in str(info.value)


def test_parse_card_refuses_what_is_not_text() -> None:
    with pytest.raises(CardError):
        parse_card(7)  # type: ignore[arg-type]


def test_parse_cards_splits_on_spaces_and_commas_and_passes_cards_through() -> None:
    assert format_cards(parse_cards("7♠, 8♠;9s  10s")) == ["7S", "8S", "9S", "10S"]
    assert parse_cards([Card(7, "S"), "8s"]) == [Card(7, "S"), Card(8, "S")]
    assert parse_cards("") == []


def test_canonical_text_and_pretty_form() -> None:
    assert str(Card(1, "D")) == "AD"
    assert str(Card(10, "H")) == "10H"
    assert Card(10, "H").pretty() == "10♥"
    assert JOKER.pretty() == "🃏"
    assert parse_card("JK=8H").pretty() == "🃏=8♥"
    assert repr(parse_card("QC")) == "Card('QC')"


def test_a_declared_joker_is_still_a_joker() -> None:
    declared = parse_card("JK=8H")
    assert declared.is_joker
    assert declared.natural == JOKER
    assert declared.stands_for == Card(8, "H")
    assert declared != JOKER
    with pytest.raises(ValueError):
        Card(8, "H").declared(Card(9, "H"))


# ---------------------------------------------------------------------------------------
# decks


def test_cards_deck_one_deck_is_52_cards_plus_two_jokers() -> None:
    """`cards.deck`: 52 cards, 54 with the 2 jokers."""
    deck = full_deck()
    assert len(deck) == 54
    assert len(set(full_deck(jokers=0))) == 52
    assert Counter(deck)[JOKER] == 2
    assert PAGAT.deck_size(4) == 54
    assert RUMMY.deck_size(4) == 52
    assert BASIC.deck_size(4) == 52


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_cards_deck_two_decks_from_five_players(players: int) -> None:
    """`cards.deck`: from 5 players on, 104 cards plus 4 jokers (108)."""
    assert PAGAT.decks(players) == 2
    assert PAGAT.jokers_in_play(players) == 4
    assert PAGAT.deck_size(players) == 108
    assert RUMMY.deck_size(players) == 104


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cards_deck_one_deck_up_to_four_players(players: int) -> None:
    """`cards.deck`"""
    for rules in (PAGAT, RUMMY, BASIC):
        assert rules.decks(players) == 1


def test_cards_deck_basic_never_uses_jokers() -> None:
    """`cards.deck`: Basic Rummy has no jokers, and a game without jokers refuses them."""
    assert not BASIC.jokers
    with pytest.raises(RulesError):
        make_rules("basic", jokers=True)
    verdict = check_meld(parse_cards("7H 8H JK"), BASIC)
    assert not verdict.legal
    assert verdict.code == "meld.no-jokers"
    assert "cards.deck" in verdict.rules
    assert check_meld(parse_cards("7H 8H JK"), RUMMY).code == "meld.no-jokers"


# ---------------------------------------------------------------------------------------
# players and the deal


@pytest.mark.parametrize("family", ["pagat-500", "rummy-500"])
def test_cards_players_500_games_take_two_to_eight(family: str) -> None:
    """`cards.players`: 2 to 8 players ("about 8" in the source)."""
    rules = make_rules(family)
    for players in range(2, 9):
        rules.check_players(players)
    for players in (0, 1, 9, 12):
        with pytest.raises(RulesError, match=str(players)):
            rules.check_players(players)


def test_cards_players_basic_takes_two_to_four() -> None:
    """`cards.players`: Basic Rummy is for 2 to 4."""
    for players in (2, 3, 4):
        BASIC.check_players(players)
    for players in (1, 5, 8):
        with pytest.raises(RulesError):
            BASIC.check_players(players)
    with pytest.raises(RulesError):
        BASIC.check_players(True)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        BASIC.check_players(3.0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("family", "players", "dealt"),
    [
        ("pagat-500", 2, 13), ("pagat-500", 3, 7), ("pagat-500", 4, 7), ("pagat-500", 8, 7),
        ("rummy-500", 2, 13), ("rummy-500", 5, 7),
        ("basic", 2, 10), ("basic", 3, 7), ("basic", 4, 7),
    ],
)
def test_cards_deal_sizes(family: str, players: int, dealt: int) -> None:
    """`cards.deal`: 7 each (13 with two) in the 500 games; Basic 10 with two, else 7."""
    assert make_rules(family).cards_dealt(players) == dealt


def test_cards_deal_leaves_a_stock_to_turn_up_the_first_discard() -> None:
    """`cards.deal`: after the deal there is always a stock card to start the pile."""
    for family in ("pagat-500", "rummy-500", "basic"):
        rules = make_rules(family)
        for players in range(rules.min_players, rules.max_players + 1):
            assert rules.cards_dealt(players) * players < rules.deck_size(players)


# ---------------------------------------------------------------------------------------
# copies


def test_cards_copies_one_deck_holds_each_card_once() -> None:
    """`cards.copies`: with one deck no card appears twice in a hand's record."""
    cards = parse_cards("7H 8H 9H 7H")
    verdict = check_copies(cards, PAGAT, players=4)
    assert verdict is not None and not verdict.legal
    assert verdict.code == "cards.too-many-copies"
    assert "cards.copies" in verdict.rules
    assert verdict.plain_params()["card"] == "7H"
    assert verdict.params["max"] == 1
    assert check_copies(parse_cards("7H 8H 9H 7S"), PAGAT, players=4) is None


def test_cards_copies_two_decks_hold_each_card_twice() -> None:
    """`cards.copies`: with two decks, at most twice."""
    assert check_copies(parse_cards("7H 7H 9H"), PAGAT, players=5) is None
    verdict = check_copies(parse_cards("7H 7H 7H"), PAGAT, players=6)
    assert verdict is not None and verdict.params["count"] == 3
    assert "cards.copies" in verdict.rules


def test_cards_copies_jokers_two_per_deck_and_declarations_do_not_hide_them() -> None:
    """`cards.copies`: at most 2 jokers (one deck) or 4 (two decks); a declared joker
    is still one of them."""
    three = parse_cards("JK JK=8H JK=9")
    verdict = check_copies(three, PAGAT, players=4)
    assert verdict is not None and verdict.plain_params()["card"] == "JK"
    assert "cards.copies" in verdict.rules
    assert check_copies(three, PAGAT, players=5) is None
    assert check_copies(parse_cards("JK JK JK JK JK"), PAGAT, players=5) is not None


def test_cards_copies_no_jokers_at_all_without_jokers() -> None:
    """`cards.copies` / `cards.deck`: a joker in a jokerless game is refused."""
    verdict = check_copies(parse_cards("JK 7H"), RUMMY, players=3)
    assert verdict is not None and verdict.code == "meld.no-jokers"
    assert "cards.deck" in verdict.rules
