"""A hand given as points only (referee.score_points): the points as given, bounded by
what the rules let any hand score (``score.500``, ``score.basic``, ``score.going-rummy``)."""

from __future__ import annotations

import pytest

from referee import ScoringError, game_result, make_rules, most_points, score_points


def test_most_points_is_every_card_at_its_highest_value() -> None:
    # face values: 4 x (15 + 2+...+9 + 10+10+10+10) per deck, two jokers at 15
    assert most_points(make_rules("pagat-500"), 4) == 4 * (15 + 44 + 40) + 30
    assert most_points(make_rules("pagat-500"), 5) == 2 * (4 * (15 + 44 + 40) + 30)
    assert most_points(make_rules("rummy-500"), 2) == 4 * (15 + 44 + 40)
    assert most_points(make_rules("basic"), 2) == 2 * 4 * (1 + 44 + 40)  # going Rummy


def test_500_points_are_taken_as_given() -> None:
    """score.500: each player's points may be below zero; whoever went out's may not."""
    result = score_points(make_rules("rummy-500"), [("Ann", 64), ("Ben", 13), ("Cy", -9)],
                          "Ann")
    assert [(p.name, p.melded, p.stranded, p.score) for p in result.players] == [
        ("Ann", 0, 0, 64), ("Ben", 0, 0, 13), ("Cy", 0, 0, -9)]
    assert result.rules == ("score.500",)
    assert "out.stock-empty" in score_points(make_rules("rummy-500"),
                                             [("Ann", -5), ("Ben", 10)], None).rules


@pytest.mark.parametrize(("points", "went_out", "code"), [
    ([("Ann", -1), ("Ben", 10)], "Ann", "went-out-below-zero"),
    ([("Ann", 397), ("Ben", 0)], "Ann", "points-out-of-range"),
    ([("Ann", 200), ("Ben", -197)], "Ann", "points-too-many"),
    ([("Ann", 10), ("Ann", 10)], "Ann", "duplicate-player"),
    ([("Ann", 10), ("Ben", 10)], "Cy", "unknown-player"),
    ([("Ann", 10)], "Ann", "bad-players"),
])
def test_500_points_that_no_hand_can_score(points: list[tuple[str, int]], went_out: str,
                                           code: str) -> None:
    with pytest.raises(ScoringError) as caught:
        score_points(make_rules("rummy-500"), points, went_out)
    assert caught.value.code == code


def test_basic_winner_takes_all() -> None:
    """score.basic: only the player who went out scores; a draw scores nobody."""
    rules = make_rules("basic")
    assert score_points(rules, [("Ann", 0), ("Ben", 33)], "Ben").rules == ("score.basic",)
    with pytest.raises(ScoringError) as caught:
        score_points(rules, [("Ann", 4), ("Ben", 33)], "Ben")
    assert (caught.value.code, caught.value.player) == ("only-winner-scores", "Ann")
    with pytest.raises(ScoringError):
        score_points(rules, [("Ann", 4), ("Ben", 0)], None)  # a draw
    assert score_points(rules, [("Ann", 0), ("Ben", 0)], None).rules == (
        "score.basic", "basic.stock-reshuffle")


def test_basic_going_rummy_doubles_so_the_points_are_even() -> None:
    """score.going-rummy: the pot is doubled."""
    rules = make_rules("basic")
    assert "score.going-rummy" in score_points(rules, [("Ann", 0), ("Ben", 66)], "Ben",
                                               going_rummy=True).rules
    with pytest.raises(ScoringError) as caught:
        score_points(rules, [("Ann", 0), ("Ben", 67)], "Ben", going_rummy=True)
    assert caught.value.code == "going-rummy-odd"
    with pytest.raises(ScoringError) as caught:
        score_points(make_rules("pagat-500"), [("Ann", 0), ("Ben", 66)], "Ben", True)
    assert caught.value.code == "bad-going-rummy"


def test_points_end_the_game_as_cards_do() -> None:
    """game.target-500: the totals decide, whatever the hands were given as."""
    rules = make_rules("pagat-500")
    totals = [sum(p.score for p in score_points(rules, hand, "Ann").players if p.name == n)
              for n in ("Ann", "Ben")
              for hand in [[("Ann", 300), ("Ben", 20)]]]
    assert game_result(rules, [t * 2 for t in totals], 0).detail == {"finished": True,
                                                                     "winner": 0}
