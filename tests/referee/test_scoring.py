"""Scoring a hand: 500-style melded-minus-stranded, Basic's winner takes all, going
Rummy, and hands that cannot have happened.

Rules: `score.500`, `score.basic`, `score.going-rummy`, `layoff.owner`, `values.face`,
`values.low-ace`, `values.joker`, `cards.copies`.
"""

from __future__ import annotations

import pytest

from referee import (
    PlayerHand,
    ScoringError,
    build_table,
    make_rules,
    parse_card,
    parse_cards,
    score_hand,
)

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
BASIC = make_rules("basic")


def rummy_500_example() -> list[PlayerHand]:
    """RULES.md `score.500`: you melded 7♠ 8♠ 9♠ (24), 4♣ 4♠ 4♦ (12), laid off 6♠ on your
    own spade run (6) and K♠ on Ada's kings (10): 52, and are caught with 5♥ J♦ 9♥ A♥:
    39. Ada melded 64 and holds nothing. Bo melded 18 and holds 27."""
    you = PlayerHand(
        "You",
        melds=[("you-spades", parse_cards("7S 8S 9S")), ("you-fours", parse_cards("4C 4S 4D"))],
        layoffs=[(parse_card("6S"), "you-spades"), (parse_card("KS"), "ada-kings")],
        hand=parse_cards("5H JD 9H AH"),
    )
    ada = PlayerHand(
        "Ada",
        melds=[("ada-kings", parse_cards("KH KD KC")),  # 30
               ("ada-run", parse_cards("7D 8D 9D 10D"))],  # 34
    )
    bo = PlayerHand("Bo", melds=[("bo-run", parse_cards("5C 6C 7C"))],  # 18
                    hand=parse_cards("10H QD 7H"))  # 27
    return [you, ada, bo]


def test_score_500_worked_example_13_64_minus_9() -> None:
    """`score.500`: the three-player Rummy 500 hand scores 13, 64 and -9."""
    result = score_hand(RUMMY, rummy_500_example(), went_out="Ada")
    scores = result.by_name()
    assert (scores["You"].melded, scores["You"].stranded, scores["You"].score) == (52, 39, 13)
    assert (scores["Ada"].melded, scores["Ada"].stranded, scores["Ada"].score) == (64, 0, 64)
    assert (scores["Bo"].melded, scores["Bo"].stranded, scores["Bo"].score) == (18, 27, -9)
    assert [p.name for p in result.players] == ["You", "Ada", "Bo"]
    assert "score.500" in result.rules
    assert "layoff.owner" in result.rules
    # the K♠ lies on Ada's kings but scores for You
    kings = result.table.get("ada-kings")
    assert [str(c) for c in kings.cards] == ["KH", "KD", "KC", "KS"]
    assert kings.layer(3) == "You"


def test_score_500_same_hand_in_pagat_500() -> None:
    """`score.500` / `values.face`: pagat-500 scores the same cards the same way."""
    scores = score_hand(PAGAT, rummy_500_example(), went_out="Ada").by_name()
    assert [scores[n].score for n in ("You", "Ada", "Bo")] == [13, 64, -9]


def test_score_500_counts_every_card_left_even_meldable_ones() -> None:
    """`score.500`: minus every card left in the hand, even cards that could have been
    melded; the result may be negative."""
    caught = PlayerHand("Bo", hand=parse_cards("5H 6H 7H AS"))
    scores = score_hand(PAGAT, [PlayerHand("Ada"), caught], went_out="Ada").by_name()
    assert scores["Bo"].score == -(5 + 6 + 7 + 15)


def test_values_low_ace_in_melds_and_hands() -> None:
    """`values.low-ace`: an ace melded low scores the low-ace value; an ace left in a
    hand always costs 15 in the 500 games."""
    ada = PlayerHand("Ada", melds=[("a", parse_cards("AC 2C 3C")), ("b", parse_cards("QD KD AD"))],
                     hand=parse_cards("AH"))
    assert score_hand(PAGAT, [ada, PlayerHand("Bo")], "Bo").by_name()["Ada"].score == \
        (1 + 2 + 3) + (10 + 10 + 15) - 15
    assert score_hand(RUMMY, [ada, PlayerHand("Bo")], "Bo").by_name()["Ada"].score == \
        (15 + 2 + 3) + (10 + 10 + 15) - 15
    five = make_rules("pagat-500", values="5-10-15")
    result = score_hand(five, [ada, PlayerHand("Bo")], "Bo")
    assert result.by_name()["Ada"].score == (5 + 5 + 5) + (10 + 10 + 15) - 15
    assert {"values.face", "values.low-ace"} <= set(result.rules)


def test_values_low_ace_laid_off_low_and_with_a_joker_two() -> None:
    """`values.low-ace`: an ace laid off below a 2 (natural or a joker declared as the 2)
    scores low, for whoever laid it off."""
    ada = PlayerHand("Ada", melds=[("a", parse_cards("JK=2C 3C 4C"))])
    bo = PlayerHand("Bo", layoffs=[(parse_card("AC"), "a")], hand=parse_cards("5D"))
    result = score_hand(PAGAT, [ada, bo], "Ada").by_name()
    assert result["Ada"].score == 15 + 3 + 4
    assert result["Bo"].melded == 1


def test_values_joker_melded_or_stranded_is_15() -> None:
    """`values.joker`: a joker scores 15 melded or left in the hand, never the value of
    the card it stands for."""
    ada = PlayerHand("Ada", melds=[("a", parse_cards("2C 3C JK=4C"))], hand=parse_cards("JK"))
    result = score_hand(PAGAT, [ada, PlayerHand("Bo")], "Bo")
    assert result.by_name()["Ada"].score == (2 + 3 + 15) - 15
    assert "values.joker" in result.rules


def test_score_basic_winner_takes_all() -> None:
    """`score.basic`: when a player goes out, every opponent's remaining cards are counted
    (J/Q/K 10, ace 1, others face value) and go to the winner; nobody else scores."""
    ada = PlayerHand("Ada", melds=[("a", parse_cards("2C 3C 4C")), ("b", parse_cards("5D 5S 5H"))])
    bo = PlayerHand("Bo", melds=[("c", parse_cards("KH KD KC"))], hand=parse_cards("AS 10D JD"))
    cy = PlayerHand("Cy", hand=parse_cards("9C 2D"))
    result = score_hand(BASIC, [ada, bo, cy], went_out="Ada")
    scores = result.by_name()
    assert scores["Ada"].score == (1 + 10 + 10) + (9 + 2)
    assert scores["Bo"].score == 0 and scores["Cy"].score == 0
    assert scores["Bo"].stranded == 21
    assert result.rules == ("score.basic",)


def test_score_going_rummy_doubles() -> None:
    """`score.going-rummy`: a winner who melded nothing earlier and went out in one turn
    has their points doubled."""
    ada = PlayerHand("Ada", melds=[("a", parse_cards("2C 3C 4C")), ("b", parse_cards("5D 5S 5H"))],
                     going_rummy=True)
    bo = PlayerHand("Bo", hand=parse_cards("AS 10D JD"))
    result = score_hand(BASIC, [ada, bo], went_out="Ada")
    assert result.by_name()["Ada"].score == 2 * 21
    assert "score.going-rummy" in result.rules


def test_score_going_rummy_only_for_the_basic_winner() -> None:
    """`score.going-rummy`: a basic rule, for the player who went out."""
    rummy = PlayerHand("Ada", melds=[("a", parse_cards("2C 3C 4C"))], going_rummy=True)
    with pytest.raises(ScoringError) as info:
        score_hand(PAGAT, [rummy, PlayerHand("Bo")], went_out="Ada")
    assert info.value.code == "bad-going-rummy"
    with pytest.raises(ScoringError):
        score_hand(BASIC, [rummy, PlayerHand("Bo", hand=parse_cards("KS"))], went_out="Bo")


# ---------------------------------------------------------------------------------------
# hands that cannot have happened


def test_scoring_refuses_a_card_twice_in_one_deck() -> None:
    """`cards.copies`: with one deck no card appears twice among all melds and hands."""
    ada = PlayerHand("Ada", melds=[("a", parse_cards("7H 8H 9H"))])
    bo = PlayerHand("Bo", hand=parse_cards("7H"))
    with pytest.raises(ScoringError) as info:
        score_hand(PAGAT, [ada, bo], "Ada")
    assert info.value.code == "too-many-copies" and info.value.card == parse_card("7H")
    five = [ada, bo, *(PlayerHand(n, hand=parse_cards(c)) for n, c in (("Cy", "2C"),
                                                                        ("Di", "3C"),
                                                                        ("Ed", "4C")))]
    assert score_hand(PAGAT, five, "Ada").by_name()["Bo"].score == -7  # two decks


def test_scoring_refuses_impossible_records() -> None:
    ada = PlayerHand("Ada", melds=[("a", parse_cards("7H 8H 9H"))], hand=parse_cards("2C"))
    cases = [
        ([ada, PlayerHand("Ada")], None, "duplicate-player"),
        ([ada], None, "bad-players"),
        ([ada, PlayerHand("Bo")], "Cy", "unknown-player"),
        ([ada, PlayerHand("Bo")], "Ada", "went-out-with-cards"),
        ([PlayerHand("Ada", melds=[("a", parse_cards("7H 8S 9H"))]), PlayerHand("Bo")], None,
         "illegal-meld"),
        ([ada, PlayerHand("Bo", melds=[("a", parse_cards("2S 3S 4S"))])], None,
         "duplicate-meld"),
        ([ada, PlayerHand("Bo", layoffs=[(parse_card("QS"), "zz")])], None, "unknown-meld"),
        ([ada, PlayerHand("Bo", layoffs=[(parse_card("QS"), "a")])], None, "bad-layoff"),
    ]
    for players, went_out, code in cases:
        with pytest.raises(ScoringError) as info:
            score_hand(PAGAT, players, went_out)
        assert info.value.code == code


def test_lay_offs_that_need_each_other_are_settled_in_any_order() -> None:
    """`layoff.choice`: 9♥ can only follow 8♥, whatever order the record lists them in."""
    ada = PlayerHand("Ada", melds=[("a", parse_cards("5H 6H 7H"))])
    bo = PlayerHand("Bo", layoffs=[(parse_card("9H"), "a"), (parse_card("8H"), "a")],
                    hand=parse_cards("2D"))
    table = build_table(PAGAT, [ada, bo])
    assert str(table.get("a").reading) == "5H 6H 7H 8H 9H"
    scores = score_hand(PAGAT, [ada, bo], "Ada").by_name()
    assert scores["Bo"].melded == 17


def test_an_ace_that_fits_either_end_scores_the_same_however_listed() -> None:
    """`score.500` / `values.low-ace`: with 3♥..K♥ on the table, B lays off 2♥ and C A♥;
    the hand's scores never depend on the order the players are listed in."""
    ada = PlayerHand("A", melds=[("m", parse_cards("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"))])
    b = PlayerHand("B", layoffs=[(parse_card("2H"), "m")], hand=parse_cards("2S"))
    c = PlayerHand("C", layoffs=[(parse_card("AH"), "m")], hand=parse_cards("3S"))
    first = score_hand(PAGAT, [ada, b, c], "A").by_name()
    second = score_hand(PAGAT, [c, ada, b], "A").by_name()
    assert {n: s.score for n, s in first.items()} == {n: s.score for n, s in second.items()}
