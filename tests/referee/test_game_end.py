"""Winning the game, and Basic's drawn hands.

Rules: `game.target-500`, `game.must-go-out`, `game.target-basic`,
`basic.stock-reshuffle`.
"""

from __future__ import annotations

import pytest

from referee import PlayerHand, ScoringError, game_result, make_rules, parse_cards, score_hand

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
BASIC = make_rules("basic")
MUST_GO_OUT = make_rules("pagat-500", must_go_out=True)


def test_game_target_500_highest_total_wins_once_someone_reaches_500() -> None:
    """`game.target-500`: hands are played until at least one running total is 500 or
    more; then the highest total wins."""
    for rules in (PAGAT, RUMMY):
        verdict = game_result(rules, [505, 520, 130], went_out=0, names=["A", "B", "C"])
        assert verdict.legal and verdict.code == "game.won"
        assert verdict.rules == ("game.target-500",)
        assert verdict.detail == {"finished": True, "winner": 1}
        assert verdict.message == "B wins with 520 points."


def test_game_target_500_not_yet() -> None:
    """`game.target-500`: 499 is not 500; totals may be negative."""
    verdict = game_result(PAGAT, [499, -20, 0], went_out=0)
    assert not verdict.legal and verdict.code == "game.continues"
    assert verdict.rules == ("game.target-500",)
    assert verdict.detail["finished"] is False and verdict.params["target"] == 500
    assert game_result(PAGAT, [500, -20], went_out=None).detail["winner"] == 0


def test_game_target_500_tie_at_the_top_plays_on() -> None:
    """`game.target-500`: if two or more tie for the highest, more hands are played."""
    verdict = game_result(PAGAT, [520, 520, 510], went_out=2, names=["A", "B", "C"])
    assert not verdict.legal and verdict.code == "game.tie"
    assert verdict.rules == ("game.target-500",)
    assert verdict.detail["tied"] == (0, 1)
    assert "A, B" in verdict.message


def test_game_target_500_target_can_be_changed() -> None:
    """`game.target-500`: option `target`."""
    rules = make_rules("pagat-500", target=300)
    assert game_result(rules, [310, 20], went_out=1).detail["winner"] == 0
    assert not game_result(PAGAT, [310, 20], went_out=1).legal


def test_game_must_go_out_505_beats_520() -> None:
    """`game.must-go-out`: to win you must be the player who went out and have 500 or
    more: A goes out with 505 while B has 520, so A wins."""
    verdict = game_result(MUST_GO_OUT, [505, 520], went_out=0, names=["A", "B"])
    assert verdict.legal and verdict.code == "game.won"
    assert verdict.rules == ("game.must-go-out",)
    assert verdict.detail["winner"] == 0
    assert verdict.params == {"winner": "A", "total": 505}


def test_game_must_go_out_below_500_another_hand() -> None:
    """`game.must-go-out`: if the player who went out is below 500, another hand is dealt,
    even though somebody else has 520."""
    verdict = game_result(MUST_GO_OUT, [480, 520], went_out=0, names=["A", "B"])
    assert not verdict.legal and verdict.code == "game.must-go-out"
    assert verdict.rules == ("game.must-go-out",)
    assert verdict.detail["finished"] is False
    nobody = game_result(MUST_GO_OUT, [480, 520], went_out=None)
    assert not nobody.legal and nobody.code == "game.nobody-out"
    assert "game.must-go-out" in nobody.rules
    assert game_result(MUST_GO_OUT, [100, 200], went_out=0).code == "game.continues"


@pytest.mark.parametrize(("players", "target"), [(2, 100), (3, 150), (4, 200)])
def test_game_target_basic_by_player_count(players: int, target: int) -> None:
    """`game.target-basic`: the first player to reach the target wins: 100 with 2
    players, 150 with 3, 200 with 4."""
    totals = [0] * players
    totals[1] = target
    verdict = game_result(BASIC, totals, went_out=1)
    assert verdict.legal and verdict.detail["winner"] == 1
    assert verdict.rules == ("game.target-basic",)
    totals[1] = target - 1
    short = game_result(BASIC, totals, went_out=1)
    assert not short.legal and short.rules == ("game.target-basic",)
    assert short.params["target"] == target


def test_game_target_basic_the_player_who_reached_it_this_hand_wins() -> None:
    """`game.target-basic`: only the winner of a hand scores, so the first to reach the
    target is the one who just went out."""
    verdict = game_result(BASIC, [150, 140, 0], went_out=0)
    assert verdict.detail["winner"] == 0


def test_game_result_checks_the_player_index() -> None:
    with pytest.raises(ScoringError):
        game_result(PAGAT, [500, 0], went_out=2)


def test_basic_stock_reshuffle_a_drawn_hand_scores_nothing() -> None:
    """`basic.stock-reshuffle`: if the stock runs out a second time (or nobody can ever
    finish) the hand is a draw and nobody scores."""
    ada = PlayerHand("Ada", melds=[("a", parse_cards("2C 3C 4C"))], hand=parse_cards("KS"))
    bo = PlayerHand("Bo", hand=parse_cards("9D 9H"))
    result = score_hand(BASIC, [ada, bo], went_out=None)
    assert "basic.stock-reshuffle" in result.rules
    assert [p.score for p in result.players] == [0, 0]
    assert [p.stranded for p in result.players] == [10, 18]
    won = score_hand(BASIC, [PlayerHand("Ada", melds=[("a", parse_cards("2C 3C 4C"))]), bo],
                     went_out="Ada")
    assert "basic.stock-reshuffle" not in won.rules
