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
