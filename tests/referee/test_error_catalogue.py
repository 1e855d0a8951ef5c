"""A hand that cannot have happened (:class:`ScoringError`) and a meld or lay-off that
cannot be placed (:class:`TableError`) say why as data: a catalogued reason with typed
parameters, whose English (the JSON API's message) is the template filled in."""

from __future__ import annotations

import pickle
import re
from collections.abc import Callable

import pytest

from referee import (
    Card,
    PlayerHand,
    ScoringError,
    Table,
    TableError,
    apply_layoff,
    game_result,
    make_meld,
    make_rules,
    parse_card,
    parse_cards,
    score_hand,
    score_points,
)
from referee.verdict import MESSAGES, PLACEHOLDERS, SCORING_MESSAGES, TABLE_MESSAGES, Verdict

PAGAT = make_rules("pagat-500")
BASIC = make_rules("basic")
ADA = PlayerHand("Ada", melds=[("a", parse_cards("7H 8H 9H"))])
SET = PlayerHand("Ada", melds=[("a", parse_cards("AH AS AD"))])
BO = PlayerHand("Bo")


def lays(*layoffs: tuple[str, str] | tuple[str, str, str]) -> PlayerHand:
    return PlayerHand("Bo", layoffs=[(parse_card(lay[0]), *lay[1:]) for lay in layoffs])


#: Every reason, how to reach it, and the English the referee has always said.
SCORING_CASES: list[tuple[str, Callable[[], object], str]] = [
    ("scoring.duplicate-meld",
     lambda: score_hand(PAGAT, [ADA, PlayerHand("Bo", melds=[("a", parse_cards("2S 3S 4S"))])],
                        None),
     "two melds have the id 'a'"),
    ("scoring.illegal-meld",
     lambda: score_hand(PAGAT, [PlayerHand("Ada", melds=[("a", parse_cards("8S 10D"))]), BO],
                        None),
     "Ada's meld 8S 10D: A meld needs at least three cards, not 2."),
    ("scoring.unknown-meld", lambda: score_hand(PAGAT, [ADA, lays(("QS", "zz"))], None),
     "QS is laid off on meld 'zz', which is not on the table"),
    ("scoring.bad-end", lambda: score_hand(PAGAT, [ADA, lays(("10H", "a", "middle"))], None),
     "10H is laid off at the 'middle' end of meld a; a run's ends are low and high"),
    ("scoring.set-low-end", lambda: score_hand(PAGAT, [SET, lays(("AC", "a", "low"))], None),
     "AC is laid off at the low end of meld a, a set, which has no ends"),
    ("scoring.set-high-end", lambda: score_hand(PAGAT, [SET, lays(("AC", "a", "high"))], None),
     "AC is laid off at the high end of meld a, a set, which has no ends"),
    ("scoring.bad-layoff", lambda: score_hand(PAGAT, [ADA, lays(("QS", "a"))], None),
     "QS cannot be laid off on meld a"),
    ("scoring.bad-layoff-low", lambda: score_hand(PAGAT, [ADA, lays(("10H", "a", "low"))], None),
     "10H cannot be laid off at the low end of meld a"),
    ("scoring.bad-layoff-high", lambda: score_hand(PAGAT, [ADA, lays(("6H", "a", "high"))],
                                                   None),
     "6H cannot be laid off at the high end of meld a"),
    ("scoring.layoffs-impossible",  # two decks, and a 10♥ each: one fits, never both
     lambda: score_hand(PAGAT, [ADA, lays(("10H", "a")), PlayerHand("Cy", layoffs=[
         (parse_card("10H"), "a")]), PlayerHand("Di"), PlayerHand("Ed")], None),
     "these lay-offs cannot all be made on the melds given"),
    ("scoring.duplicate-player", lambda: score_hand(PAGAT, [ADA, PlayerHand("Ada")], None),
     "two players have the same name"),
    ("scoring.bad-players", lambda: score_hand(PAGAT, [ADA], None),
     "pagat-500 is played by 2 to 8 players, not 1"),
    ("scoring.unknown-player", lambda: score_hand(PAGAT, [ADA, BO], "Cy"),
     "'Cy' went out but is not a player"),
    ("scoring.went-out-with-cards",
     lambda: score_hand(PAGAT, [ADA, PlayerHand("Bo", hand=parse_cards("2C KD"))], "Bo"),
     "Bo went out but still holds 2C KD"),
    ("scoring.holds-no-cards",  # out.empty-hand: Bo holds nothing, Ada went out
     lambda: score_hand(PAGAT, [ADA, PlayerHand("Bo", melds=[("b", parse_cards("9S 9D 9C"))])],
                        "Ada"),
     "Bo holds no cards but did not go out: a player left with no cards ends the hand, so "
     "only the one who went out can hold none"),
    ("scoring.holds-no-cards-nobody-out",  # out.empty-hand: the stock ran out
     lambda: score_hand(PAGAT, [ADA, PlayerHand("Bo", hand=parse_cards("2C"))], None),
     "Ada holds no cards, yet nobody went out: a player left with no cards ends the hand by "
     "going out"),
    ("scoring.bad-going-rummy",
     lambda: score_hand(PAGAT, [PlayerHand("Ada", going_rummy=True), BO], "Ada"),
     "only the player who went out in Basic Rummy can go Rummy"),
    ("scoring.went-out-index", lambda: game_result(PAGAT, [10, 20], 5),
     "went_out must be the index of a player"),
    ("scoring.points-out-of-range", lambda: score_points(PAGAT, [("Ada", 9999), ("Bo", 0)],
                                                         None),
     "Ada's 9999 points are more than one hand can score (at most 426 either way)"),
    ("scoring.points-too-many", lambda: score_points(PAGAT, [("Ada", 300), ("Bo", -300)], None),
     "the points add up, without their signs, to more than the 426 the cards in play are "
     "worth"),
    ("scoring.went-out-holding-nothing",
     lambda: score_points(PAGAT, [("Ada", -5), ("Bo", 0)], "Ada"),
     "Ada went out, holding nothing, so cannot score below zero"),
    ("scoring.only-winner-scores", lambda: score_points(BASIC, [("Ada", 5), ("Bo", 5)], "Ada"),
     "only the player who went out scores in Basic Rummy: Bo scores 0"),
    ("scoring.went-out-below-zero", lambda: score_points(BASIC, [("Ada", -5), ("Bo", 0)], "Ada"),
     "Ada went out and cannot score below zero"),
    ("scoring.going-rummy-odd",
     lambda: score_points(BASIC, [("Ada", 15), ("Bo", 0)], "Ada", going_rummy=True),
     "going Rummy doubles the pot, so the points are even"),
    ("cards.too-many-copies",
     lambda: score_hand(PAGAT, [ADA, PlayerHand("Bo", hand=parse_cards("7H"))], None),
     "7H appears 2 times, but the cards in play include only 1."),
]


@pytest.mark.parametrize(("reason", "ask", "english"), SCORING_CASES,
                         ids=[case[0] for case in SCORING_CASES])
def test_a_scoring_error_is_its_reason_and_typed_params(
        reason: str, ask: Callable[[], object], english: str) -> None:
    with pytest.raises(ScoringError) as info:
        ask()
    error = info.value
    assert error.reason == reason
    assert str(error) == error.message == english
    assert error.template in (SCORING_MESSAGES.get(reason), MESSAGES.get(reason))
    for name, value in error.params.items():
        assert name in PLACEHOLDERS, name
        assert not isinstance(value, list), (name, value)  # typed values, tuples for lists
    if "card" in error.params:
        assert isinstance(error.card, Card)
    if error.player is not None:
        assert isinstance(error.player, str)


def test_every_scoring_reason_is_reached() -> None:
    assert {case[0] for case in SCORING_CASES} - {"cards.too-many-copies"} == set(
        SCORING_MESSAGES)


def test_an_illegal_meld_carries_the_referees_verdict() -> None:
    with pytest.raises(ScoringError) as info:
        score_hand(PAGAT, [PlayerHand("Ada", melds=[("a", parse_cards("8S 10D"))]), BO], None)
    problem = info.value.params["problem"]
    assert isinstance(problem, Verdict) and problem.code == "meld.too-short"
    assert info.value.params["cards"] == tuple(parse_cards("8S 10D"))


def test_a_layoff_error_names_its_card_as_a_card() -> None:
    with pytest.raises(ScoringError) as info:
        score_hand(PAGAT, [ADA, lays(("JK=6H", "a", "high"))], None)
    assert info.value.card == parse_card("JK=6H")
    assert info.value.params["meld"] == "a"


SHORT = Table().with_meld(make_meld("B", parse_cards("5H 6H 7H"), PAGAT, "Ada"))
TABLE_CASES: list[tuple[str, Callable[[], object], str]] = [
    ("table.laid-by-count",
     lambda: make_meld("m", parse_cards("5H 6H 7H"), PAGAT, "Ada", ["Bo"]),
     "laid_by must name who laid each card"),
    ("table.wrong-low-end", lambda: apply_layoff(SHORT, "B", parse_card("8H"), "Bo", PAGAT,
                                                 end="low"),
     "8H does not fit at the low end of meld B"),
    ("table.wrong-high-end", lambda: apply_layoff(SHORT, "B", parse_card("4H"), "Bo", PAGAT,
                                                  end="high"),
     "4H does not fit at the high end of meld B"),
    ("table.wrong-end", lambda: apply_layoff(SHORT, "B", parse_card("4H"), "Bo", PAGAT,
                                             end="side"),
     "4H does not fit at the side end of meld B"),
    ("table.say-joker", lambda: apply_layoff(SHORT, "B", parse_card("JK"), "Bo", PAGAT),
     "say which card the joker stands for: JK=4H or JK=8H"),
]


@pytest.mark.parametrize(("code", "ask", "english"), TABLE_CASES,
                         ids=[case[0] for case in TABLE_CASES])
def test_a_table_error_without_a_verdict_has_a_code(
        code: str, ask: Callable[[], object], english: str) -> None:
    with pytest.raises(TableError) as info:
        ask()
    assert info.value.code == code and info.value.verdict is None
    assert str(info.value) == info.value.message == english
    assert set(info.value.params) <= set(PLACEHOLDERS)


def test_every_table_code_is_reached() -> None:
    assert {case[0] for case in TABLE_CASES} == set(TABLE_MESSAGES)


def test_a_table_error_from_a_verdict_says_the_verdict() -> None:
    with pytest.raises(TableError) as info:
        apply_layoff(SHORT, "B", parse_card("9H"), "Bo", PAGAT)
    verdict = info.value.verdict
    assert verdict is not None and not verdict.legal
    assert (info.value.code, info.value.params) == (verdict.code, verdict.params)
    assert str(info.value) == verdict.message
    with pytest.raises(TableError) as info:
        make_meld("m", parse_cards("5H 9S"), PAGAT)
    assert info.value.verdict is not None and info.value.code == info.value.verdict.code


def test_every_template_names_only_declared_placeholders() -> None:
    for template in (*SCORING_MESSAGES.values(), *TABLE_MESSAGES.values()):
        for name in re.findall(r"%\((\w+)\)s", template):
            assert name in PLACEHOLDERS, (template, name)


def test_the_errors_copy_as_data() -> None:
    with pytest.raises(ScoringError) as info:
        score_hand(PAGAT, [ADA, lays(("QS", "zz"))], None)
    again = pickle.loads(pickle.dumps(info.value))
    assert (again.code, again.reason, again.params, str(again)) == (
        info.value.code, info.value.reason, info.value.params, str(info.value))
    with pytest.raises(TableError) as caught:
        apply_layoff(SHORT, "B", parse_card("9H"), "Bo", PAGAT)
    copied = pickle.loads(pickle.dumps(caught.value))
    assert (copied.code, copied.verdict, str(copied)) == (
        caught.value.code, caught.value.verdict, str(caught.value))
