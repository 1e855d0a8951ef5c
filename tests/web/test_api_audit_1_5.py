"""Audit of RULES.md sections 1-5 through the JSON API: cases the other API tests
do not pin down."""

from __future__ import annotations

import pytest

PAGAT = {"family": "pagat-500"}


@pytest.mark.parametrize("cards", ["5H, 6H, 7H", "5H,6H,7H", "5h;6h;7h", "5♥ 6♥ 7♥"])
def test_table_meld_as_one_string_reads_like_any_list_of_cards(post, cards):
    """`layoff.basic`: a table meld written as one string is split like every other
    list of cards (spaces, commas or semicolons), so 8♥ lays off on 5♥ 6♥ 7♥."""
    out = post("/referee/layoff", {"rules": PAGAT, "table": [{"id": "A", "cards": cards}],
                                   "card": "8H"})
    assert out["legal"] is True
    assert out["placements"] == [{"meld": "A", "card": "8H", "end": "high"}]


def test_table_meld_string_with_a_bad_token_names_it(post):
    """`layoff.basic`: a bad card in a table meld string is a 400 that names the token."""
    out = post("/referee/layoff", {"rules": PAGAT, "table": [{"id": "A", "cards": "5H, 6X, 7H"}],
                                   "card": "8H"}, 400)
    assert out["error"]["code"] == "bad-card"
    assert "'6X'" in out["error"]["message"]


def test_meld_end_joker_in_a_loose_bunch_lists_readings_and_says_place_decides(post):
    """`meld.joker`: JK 5♥ 6♥ asked as a loose bunch: two runs, and the words say the
    joker's place or the player's word decides (not merely "must declare")."""
    out = post("/referee/meld", {"rules": PAGAT, "cards": ["JK", "5H", "6H"]})
    assert (out["legal"], out["code"], out["kind"]) == (True, "meld.joker-place", "run")
    assert [r["cards"] for r in out["readings"]] == [["JK=4H", "5H", "6H"],
                                                     ["5H", "6H", "JK=7H"]]
    assert "place" in out["message"] and "word" in out["message"]
    assert out["rules"] == ["meld.run", "meld.joker"]


def test_meld_king_ace_two_in_basic_and_a_14_card_run(post):
    """`meld.ace`: K-A-2 in Basic Rummy is refused as going round the corner (the ace is
    low only), not in words about Q-K-A; a 14-card run because a run is at most 13."""
    out = post("/referee/meld", {"rules": {"family": "basic"}, "cards": ["KH", "AH", "2H"]})
    assert (out["legal"], out["code"]) == (False, "meld.wrap-around-basic")
    assert "Q-K-A" not in out["message"]
    cards = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH",
             "AH"]
    out = post("/referee/meld", {"rules": PAGAT, "players": 5, "cards": cards})
    assert (out["legal"], out["code"]) == (False, "meld.run-too-long")
    assert "13" in out["message"] and "corner" not in out["message"]


def test_meld_thirteen_cards_ask_where_the_ace_lies(post):
    """`meld.ace` `values.low-ace`: 13 hearts named as a bunch: the ace low or high, worth
    the low-ace value or 15 — no word about jokers."""
    cards = ["KH", "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH"]
    out = post("/referee/meld", {"rules": PAGAT, "cards": cards})
    assert (out["legal"], out["code"]) == (True, "meld.ace-either-end")
    assert [r["value"] for r in out["readings"]] == [85, 99]
    assert "joker" not in out["message"]


def test_draw_must_meld_top_card_is_allowed_because_it_melds(post):
    """`draw.must-meld`: the top card is allowed because it can be melded at once, not
    "always"; refused, citing the option, when it cannot be."""
    rules = {"family": "pagat-500", "draw_must_meld": True}
    table = [{"id": "A", "cards": ["7H", "8H", "9H"]}]
    out = post("/referee/draw", {"rules": rules, "table": table, "pile": ["2C", "10H"],
                                 "hand": ["KS", "QD"], "take": 1})
    assert (out["legal"], out["code"]) == (True, "draw.top-ok-meld")
    assert "always" not in out["message"]
    assert out["rules"] == ["draw.stock-or-top", "draw.must-meld"]
    out = post("/referee/draw", {"rules": rules, "table": table, "pile": ["10H", "2C"],
                                 "hand": ["KS", "QD"], "take": 1})
    assert (out["legal"], out["code"], out["rules"]) == (False, "draw.must-meld",
                                                         ["draw.must-meld"])
