"""An audit of RULES.md sections 6-9 through the JSON API: the cases a table (or an
acceptance test) would post, each compared with the rule book."""

from __future__ import annotations

from typing import Any

import pytest

PAGAT = {"family": "pagat-500"}
CLUBS_PILE = ["KC", "3D", "QC", "5S", "JC"]  # K♣ deep, Q♣ higher, J♣ just discarded


def call(post, rules: Any, pile: list[str], table: list[Any] | None = None,
         **extra: Any) -> dict[str, Any]:
    return post("/referee/rummy-call", {"rules": rules, "players": 3, "table": table or [],
                                        "pile": pile, "discarder": "Ann", "caller": "Ben",
                                        **extra})


@pytest.mark.parametrize(("rules", "legal", "code"), [
    (PAGAT, True, "rummy.ok"),
    ({"family": "pagat-500", "rummy_call": "pile"}, True, "rummy.ok"),
    ({"family": "pagat-500", "rummy_call": "top"}, False, "rummy.top-nothing"),
    ({"family": "pagat-500", "rummy_call": "off"}, False, "rummy.off"),
    ({"family": "rummy-500"}, False, "rummy.off"),
    ({"family": "rummy-500", "rummy_call": "pile"}, True, "rummy.ok"),
    ({"family": "basic"}, False, "rummy.off"),
])
def test_rummy_call_chain_of_pile_cards_in_each_mode(post, rules, legal, code):
    """`rummy.call`, `rummy.mode`: K♣ deep, Q♣ higher, J♣ discarded — only the full
    (pile) rule lets anyone else take everything from the K♣ up; calls are off by
    default in rummy-500 and basic."""
    out = call(post, rules, CLUBS_PILE)
    assert (out["legal"], out["code"]) == (legal, code)
    if legal:
        assert (out["deepest"], out["take"]) == ("KC", 5)


@pytest.mark.parametrize("mode", ["top", "pile"])
def test_rummy_call_top_discard_laid_off_in_both_modes(post, mode):
    """`rummy.mode`: a discard that fits a table meld can be called in top and pile
    mode; a fitting card deeper down only in pile mode."""
    table = [{"id": "A", "owner": "Ann", "cards": ["7H", "8H", "9H"]}]
    rules = {"family": "pagat-500", "rummy_call": mode}
    out = call(post, rules, ["2C", "10H"], table)
    assert (out["legal"], out["deepest"], out["take"]) == (True, "10H", 1)
    out = call(post, rules, ["6H", "2C"], table)
    assert out["legal"] is (mode == "pile")
    assert out["take"] == (2 if mode == "pile" else None)


def test_rummy_call_refusals_name_their_rule(post):
    """`rummy.call`, `rummy.own-meld`, `rummy.after-out`: not the discarder, not once
    the next player drew, not once the hand ended."""
    out = call(post, PAGAT, CLUBS_PILE, caller="Ann")
    assert (out["legal"], out["code"]) == (False, "rummy.own-discard")
    assert "rummy.own-meld" in out["rules"]
    out = call(post, PAGAT, CLUBS_PILE, next_player_drew=True)
    assert (out["legal"], out["code"]) == (False, "rummy.too-late")
    out = call(post, PAGAT, CLUBS_PILE, hand_over=True)
    assert (out["legal"], out["code"], out["rules"]) == (False, "rummy.hand-over",
                                                         ["rummy.after-out"])


def test_out_unplayable_discard_fitting_a_meld_made_this_turn(post):
    """`out.unplayable-discard`: the last discard may not be a card that could be
    melded, even on a meld the player has just put down; a dead card is fine."""
    body = {"rules": {"family": "pagat-500", "unplayable_discard": True}, "players": 3,
            "hand": ["5C", "5S", "5D", "5H"], "discard": "5H"}
    out = post("/referee/going-out", body)
    assert (out["legal"], out["code"]) == (False, "out.unplayable-discard")
    out = post("/referee/going-out", {**body, "hand": ["5C", "5S", "5D", "KH"],
                                      "discard": "KH"})
    assert (out["legal"], out["code"]) == (True, "out.ok-discard")
    out = post("/referee/going-out", {**body, "hand": ["5C", "5S", "5D"], "discard": None})
    assert (out["legal"], out["code"]) == (True, "out.floating")


def test_score_hand_5_10_15_low_ace_stranded_ace_and_jokers(post):
    """`score.500`, `values.face`, `values.low-ace`, `values.joker`: with 5-10-15 an
    ace melded low is 5, an ace in the hand 15, a joker 15 anywhere, 2-9 are 5."""
    body = {"rules": {"family": "pagat-500", "values": "5-10-15"}, "went_out": "Ann",
            "players": [
                {"name": "Ann", "melds": [{"id": "a", "cards": ["AH", "2H", "JK=3H"]}],
                 "layoffs": [{"card": "4H", "onto": "a"}]},
                {"name": "Ben", "melds": [{"id": "b", "cards": ["QS", "KS", "AS"]}],
                 "layoffs": [{"card": "5H", "onto": "a"}], "hand": ["AD", "JK", "9C"]}]}
    out = post("/score/hand", body)
    assert [(p["melded"], p["stranded"], p["score"]) for p in out["players"]] == [
        (5 + 5 + 15 + 5, 0, 30), (10 + 10 + 15 + 5, 15 + 15 + 5, 5)]


def test_score_basic_draw_and_going_rummy(post):
    """`basic.stock-reshuffle`: a drawn hand scores nothing; `score.going-rummy`
    doubles the pot of `score.basic`."""
    players = [{"name": "Ann", "melds": [["AC", "2C", "3C"]], "hand": []},
               {"name": "Ben", "hand": ["KD", "AS", "7H"]}]
    out = post("/score/hand", {"rules": {"family": "basic"}, "players": players,
                               "went_out": None})
    assert [p["score"] for p in out["players"]] == [0, 0]
    assert "basic.stock-reshuffle" in out["rules"]
    out = post("/score/hand", {"rules": {"family": "basic"}, "players": players,
                               "went_out": "Ann"})
    assert [p["score"] for p in out["players"]] == [18, 0]
    players[0]["going_rummy"] = True
    out = post("/score/hand", {"rules": {"family": "basic"}, "players": players,
                               "went_out": "Ann"})
    assert [p["score"] for p in out["players"]] == [36, 0]


def test_score_hand_more_copies_than_two_decks_is_400_naming_the_card(post):
    """`cards.copies` in a scored hand: with five players (two decks) a card twice is
    fine, three times a 400 that names it."""
    players = [{"name": n, "hand": ["9D"] if n in "BC" else []} for n in "ABCDE"]
    out = post("/score/hand", {"rules": PAGAT, "players": players, "went_out": "A"})
    assert [p["score"] for p in out["players"]] == [0, -9, -9, 0, 0]
    players[3]["hand"] = ["9D"]
    out = post("/score/hand", {"rules": PAGAT, "players": players, "went_out": "A"}, 400)
    assert out["error"]["code"] == "too-many-copies"
    assert "9D" in out["error"]["message"]


@pytest.mark.parametrize(("totals", "target"), [([99, 0], 100), ([149, 0, 0], 150),
                                                ([199, 0, 0, 0], 200)])
def test_score_game_basic_target_by_player_count(post, totals, target):
    """`game.target-basic`: 100, 150 or 200 points by the number of players."""
    body = {"rules": {"family": "basic"}, "totals": totals, "went_out": 0}
    out = post("/score/game", body)
    assert (out["finished"], out["target"]) == (False, target)
    out = post("/score/game", {**body, "totals": [target, *totals[1:]]})
    assert (out["finished"], out["winner"], out["rules"]) == (True, 0, ["game.target-basic"])


def test_score_game_must_go_out_below_target_and_ties(post):
    """`game.must-go-out`: going out below 500 wins nothing; `game.target-500`: a tie
    at the top means another hand."""
    out = post("/score/game", {"rules": {"family": "pagat-500", "must_go_out": True},
                               "totals": [480, 520], "went_out": 0})
    assert (out["finished"], out["code"]) == (False, "game.must-go-out")
    out = post("/score/game", {"rules": {"family": "rummy-500"}, "totals": [510, 510, 10],
                               "went_out": 2})
    assert (out["finished"], out["code"]) == (False, "game.tie")
