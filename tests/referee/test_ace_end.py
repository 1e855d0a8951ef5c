"""The ace's end: an ace laid off on a run that could take it at either end, and the
ace of a 13-card run.

Rules: `values.ace-end` (the ace goes to the end the player says and scores by it),
`values.low-ace` (low: the low-ace value; high, also the ace of a 13-card run 2…A: 15),
`meld.ace` (never at both ends), `layoff.basic`.
"""

from __future__ import annotations

import pytest

from referee import (
    PlayerHand,
    ScoringError,
    Table,
    apply_layoff,
    build_table,
    check_layoff,
    check_meld,
    layoff_end,
    make_meld,
    make_rules,
    parse_card,
    parse_cards,
    score_hand,
)
from referee.melds import card_value

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
FIVES = make_rules("pagat-500", values="5-10-15")
RUMMY_LOW_1 = make_rules("rummy-500", low_ace_value=1)

TWO_TO_KING = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
TWO_TO_KING_VALUE = sum([2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10])  # face values: 84


#: What Bo is left holding when Ada goes out (`out.empty-hand`: not nothing).
BO_HOLDS = parse_cards("5C")


def ada_and_bo(layoff: tuple, melds: str = TWO_TO_KING) -> list[PlayerHand]:
    """Ada put down ``melds`` and went out; Bo laid off one card on it."""
    return [PlayerHand("Ada", [("a", parse_cards(melds))]),
            PlayerHand("Bo", layoffs=[layoff], hand=BO_HOLDS)]


@pytest.mark.parametrize(("rules", "low"), [(PAGAT, 1), (FIVES, 5), (RUMMY, 15),
                                             (RUMMY_LOW_1, 1)])
def test_values_ace_end_the_ace_scores_by_the_end_it_went_to(rules, low: int) -> None:
    """`values.ace-end`, `values.low-ace`: an ace laid off on a run 2…K goes to the end the
    player says; laid low it scores the low-ace value, laid high 15."""
    ace = parse_card("AH")
    low_hand = score_hand(rules, ada_and_bo((ace, "a", "low")), "Ada").by_name()
    high_hand = score_hand(rules, ada_and_bo((ace, "a", "high")), "Ada").by_name()
    assert low_hand["Bo"].melded == low
    assert high_hand["Bo"].melded == 15
    # the meld's owner scores the same either way (layoff.owner)
    assert low_hand["Ada"].melded == high_hand["Ada"].melded
    assert card_value(ace, rules, low_ace=True) == low


def test_values_ace_end_the_table_shows_where_the_ace_lies() -> None:
    """`values.ace-end`: low, the run reads A-2-…-K; high, 2-…-K-A; a record keeps it."""
    ace = parse_card("AH")
    low = build_table(PAGAT, ada_and_bo((ace, "a", "low")))
    high = build_table(PAGAT, ada_and_bo((ace, "a", "high")))
    assert str(low.get("a").reading).startswith("AH 2H")
    assert str(high.get("a").reading).endswith("KH AH")
    assert layoff_end(low, "a", ace) == "low"
    assert layoff_end(high, "a", ace) == "high"
    assert layoff_end(high, "a", parse_card("KH")) is None  # only an ace has an end to keep


def test_values_ace_end_without_an_end_the_ace_lies_low_as_before() -> None:
    """`values.ace-end`: a record that does not say (an older one) keeps its old score:
    the ace on 2…K lies low."""
    ace = parse_card("AH")
    plain = score_hand(PAGAT, ada_and_bo((ace, "a")), "Ada").by_name()
    assert plain["Bo"].melded == 1
    assert "values.ace-end" in score_hand(PAGAT, ada_and_bo((ace, "a")), "Ada").rules


def test_values_ace_end_only_where_the_ace_fits() -> None:
    """`values.ace-end` `layoff.basic`: an end the ace cannot go to is refused, as is an
    end on a set (a set has no ends) and an end that is neither low nor high."""
    ace = parse_card("AH")
    with pytest.raises(ScoringError) as info:
        score_hand(PAGAT, ada_and_bo((ace, "a", "low"), "10H JH QH KH"), "Ada")
    assert info.value.code == "bad-layoff"
    with pytest.raises(ScoringError) as info:
        score_hand(PAGAT, ada_and_bo((parse_card("AC"), "a", "high"), "AH AS AD"), "Ada")
    assert info.value.code == "bad-end"
    with pytest.raises(ScoringError) as info:
        score_hand(PAGAT, ada_and_bo((ace, "a", "middle")), "Ada")
    assert info.value.code == "bad-end"


def test_values_ace_end_high_on_a_run_to_the_king_with_the_two_laid_off_too() -> None:
    """`values.ace-end`: 3…K with the 2♥ and the A♥ laid off: the ace goes low (after the
    two) or high, as said — the order the record lists the lay-offs does not matter."""
    two, ace = parse_card("2H"), parse_card("AH")
    melds = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    for end, value in (("low", 1), ("high", 15)):
        for layoffs in ([(two, "a"), (ace, "a", end)], [(ace, "a", end), (two, "a")]):
            players = [PlayerHand("Ada", [("a", parse_cards(melds))]),
                       PlayerHand("Bo", layoffs=layoffs, hand=BO_HOLDS)]
            assert score_hand(PAGAT, players, "Ada").by_name()["Bo"].melded == 2 + value


def test_values_low_ace_a_13_card_run_two_to_ace_scores_its_ace_15() -> None:
    """`values.low-ace`: the ace of a 13-card run 2…A is high and scores 15; laid down as
    A…K it is low (the low-ace value)."""
    high = parse_cards(TWO_TO_KING + " AH")
    low = parse_cards("AH " + TWO_TO_KING)
    for rules, low_value in ((PAGAT, 1), (FIVES, 5), (RUMMY, 15)):
        players = [PlayerHand("Ada", [("a", high)]), PlayerHand("Bo", hand=BO_HOLDS)]
        values = [5 if rules.values == "5-10-15" and c.rank < 10 else min(c.rank, 10)
                  for c in parse_cards(TWO_TO_KING)]
        assert score_hand(rules, players, "Ada").by_name()["Ada"].melded == sum(values) + 15
        players = [PlayerHand("Ada", [("a", low)]), PlayerHand("Bo", hand=BO_HOLDS)]
        assert score_hand(rules, players, "Ada").by_name()["Ada"].melded == \
            sum(values) + low_value


def test_values_low_ace_thirteen_cards_laid_off_up_to_the_ace() -> None:
    """`values.low-ace` `values.ace-end`: 2-3-4 built up card by card to the king, then
    the ace on top: a 13-card run 2…A whose ace scores 15."""
    layoffs = [(card, "a") for card in parse_cards("5H 6H 7H 8H 9H 10H JH QH KH")]
    players = [PlayerHand("Ada", [("a", parse_cards("2H 3H 4H"))]),
               PlayerHand("Bo", layoffs=[*layoffs, (parse_card("AH"), "a", "high")],
                          hand=BO_HOLDS)]
    result = score_hand(PAGAT, players, "Ada")
    assert result.by_name()["Bo"].melded == TWO_TO_KING_VALUE - 9 + 15
    assert str(result.table.get("a").reading) == TWO_TO_KING + " AH"


def test_meld_ace_a_13_card_bunch_asks_where_the_ace_lies() -> None:
    """`meld.ace` `values.low-ace`: 13 cards of a suit named in any order make a run with
    the ace at either end; the verdict says so (not a word about jokers) and lists both."""
    verdict = check_meld(parse_cards("KH " + TWO_TO_KING[:-3] + " AH"), PAGAT)
    assert verdict.legal and verdict.code == "meld.ace-either-end"
    assert "meld.ace" in verdict.rules and "values.low-ace" in verdict.rules
    assert "joker" not in verdict.message
    readings = verdict.detail["readings"]
    assert [r.low for r in readings] == [1, 2]
    # as they lie, the place decides
    assert make_meld("m", parse_cards(TWO_TO_KING + " AH"), PAGAT).reading.low == 2
    assert make_meld("m", parse_cards("AH " + TWO_TO_KING), PAGAT).reading.low == 1


def test_values_ace_end_the_layoff_verdict_asks_which_end() -> None:
    """`values.ace-end` `layoff.basic`: on a run 2…K the ace fits at both ends; the verdict
    says the player chooses, and cites the rule; on 3…K (or A-less Q-K) only one end."""
    table = Table().with_meld(make_meld("a", parse_cards(TWO_TO_KING), PAGAT, "Ada"))
    for meld_id in (None, "a"):
        verdict = check_layoff(table, parse_card("AH"), PAGAT, meld_id)
        assert verdict.legal and verdict.code == "layoff.ace-either-end"
        assert "values.ace-end" in verdict.rules
        assert {t.end for t in verdict.detail["targets"]} == {"low", "high"}
    one_end = Table().with_meld(make_meld("a", parse_cards("JH QH KH"), PAGAT, "Ada"))
    assert check_layoff(one_end, parse_card("AH"), PAGAT).code == "layoff.ok"
    # a joker standing for the ace: the same choice
    assert check_layoff(table, parse_card("JK=AH"), PAGAT).code == "layoff.ace-either-end"
    # Basic Rummy: aces low only, so there is no choice
    basic = make_rules("basic")
    low_only = Table().with_meld(make_meld("a", parse_cards(TWO_TO_KING), basic, "Ada"))
    assert check_layoff(low_only, parse_card("AH"), basic).code == "layoff.ok"


def test_values_ace_end_apply_layoff_puts_the_ace_where_asked() -> None:
    """`values.ace-end`: a live lay-off puts the ace at the end named."""
    table = Table().with_meld(make_meld("a", parse_cards(TWO_TO_KING), PAGAT, "Ada"))
    high = apply_layoff(table, "a", parse_card("AH"), "Bo", PAGAT, "high")
    assert high.get("a").reading.high == 14
    low = apply_layoff(table, "a", parse_card("AH"), "Bo", PAGAT, "low")
    assert low.get("a").reading.low == 1
