"""The JSON API: every endpoint, the rule book's worked examples through it, and
bad input answered with a 400 that says what is wrong (never a 500)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.worked_examples import RUMMY_500_HAND

PAGAT = {"family": "pagat-500"}


# ---- /referee/meld ----------------------------------------------------------------------

def test_meld_legal_run(post):
    out = post("/referee/meld", {"rules": PAGAT, "players": 3, "cards": ["7S", "8S", "9S"]})
    assert out["legal"] is True
    assert out["kind"] == "run"
    assert out["rules"] == ["meld.run"]
    assert [r["cards"] for r in out["readings"]] == [["7S", "8S", "9S"]]
    assert out["readings"][0]["value"] == 24


def test_meld_ambiguous_jokers_list_every_reading(post):
    """meld.joker: 9♠ 🃏 🃏 is a set of nines or one of three runs."""
    out = post("/referee/meld", {"rules": PAGAT, "players": 3, "cards": ["9♠", "🃏", "joker"]})
    assert out["legal"] is True
    assert out["code"] == "meld.ambiguous"
    assert len(out["readings"]) == 4
    assert out["kind"] is None
    assert "meld.joker" in out["rules"]
    assert "declare" in out["message"]


def test_meld_declaration_picks_a_reading(post):
    out = post("/referee/meld", {"rules": PAGAT, "players": 3,
                                 "cards": ["9S", "JK=10S", "JK=JS"]})
    assert out["legal"] is True
    assert out["kind"] == "run"
    assert out["readings"] == [{"kind": "run", "cards": ["9S", "JK=10S", "JK=JS"], "value": 39}]


def test_meld_fifth_king_is_illegal(post):
    out = post("/referee/meld", {"rules": PAGAT, "players": 6,
                                 "cards": ["KS", "KH", "KD", "KC", "JK"]})
    assert out["legal"] is False
    assert out["kind"] is None
    assert out["readings"] == []
    assert "meld.joker" in out["rules"]


def test_meld_wrap_around_is_illegal(post):
    out = post("/referee/meld", {"rules": PAGAT, "players": 2, "cards": ["KH", "AH", "2H"]})
    assert out["legal"] is False
    assert out["rules"] == ["meld.ace"]


def test_meld_two_decks_set_needs_different_suits(post):
    out = post("/referee/meld", {"rules": PAGAT, "players": 5, "cards": ["6H", "6H", "6S"]})
    assert out["legal"] is False
    assert out["rules"] == ["meld.set"]


def test_meld_more_jokers_than_the_deck_holds(post):
    out = post("/referee/meld", {"rules": PAGAT, "players": 3,
                                 "cards": ["9S", "JK", "JK", "JK"]})
    assert out["legal"] is False
    assert out["rules"] == ["cards.copies"]


def test_meld_bad_card_is_400_naming_the_token(post):
    out = post("/referee/meld", {"rules": PAGAT, "cards": ["7S", "8Z", "9S"]}, 400)
    assert out["error"]["code"] == "bad-card"
    assert "8Z" in out["error"]["message"]


@pytest.mark.parametrize("rules", [
    {"family": "gin"},
    {"family": "pagat-500", "colour": "red"},
    {"family": "pagat-500", "floating": True, "discard_required": True},
    {"family": "basic", "jokers": True},
    {"family": "pagat-500", "target": "lots"},
])
def test_bad_rules_are_400(post, rules):
    out = post("/referee/meld", {"rules": rules, "cards": ["7S", "8S", "9S"]}, 400)
    assert out["error"]["code"] == "bad-rules"


@pytest.mark.parametrize("players", [1, 9, "three", True])
def test_bad_player_counts_are_400(post, players):
    out = post("/referee/meld", {"rules": PAGAT, "players": players,
                                 "cards": ["7S", "8S", "9S"]}, 400)
    assert out["error"]["code"] == "bad-players"


def test_basic_allows_at_most_four_players(post):
    post("/referee/meld", {"rules": {"family": "basic"}, "players": 5,
                           "cards": ["7S", "8S", "9S"]}, 400)


# ---- /referee/layoff --------------------------------------------------------------------

TABLE = [{"id": "A", "owner": "Ann", "cards": ["5H", "6H", "7H"]},
         {"id": "B", "owner": "Ben", "cards": ["9C", "9S", "9D"]}]


def test_layoff_targets(post):
    out = post("/referee/layoff", {"rules": PAGAT, "players": 4, "table": TABLE, "card": "4H"})
    assert out["legal"] is True and out["targets"] == ["A"]


def test_layoff_choice_when_two_melds_fit(post):
    """layoff.choice: 9♥ fits the 5-8♥ run and the nines."""
    table = [{"id": "A", "owner": "Ann", "cards": ["5H", "6H", "7H", {"card": "8H", "by": "Ben"}]},
             TABLE[1]]
    out = post("/referee/layoff", {"rules": PAGAT, "players": 4, "table": table, "card": "9H"})
    assert out["legal"] is True
    assert sorted(out["targets"]) == ["A", "B"]
    assert "layoff.choice" in out["rules"]
    out = post("/referee/layoff", {"rules": PAGAT, "players": 4, "table": table, "card": "9H",
                                   "meld": "B"})
    assert out["legal"] is True


def test_layoff_on_the_wrong_meld(post):
    out = post("/referee/layoff", {"rules": PAGAT, "players": 4, "table": TABLE, "card": "8H",
                                   "meld": "B"})
    assert out["legal"] is False
    assert out["targets"] == ["A"]


def test_layoff_joker_fixed(post):
    table = [{"id": "R", "cards": ["6H", "7H", "JK=8H"]}]
    out = post("/referee/layoff", {"rules": PAGAT, "players": 2, "table": table, "card": "8H"})
    assert out["legal"] is False
    assert out["rules"] == ["layoff.joker-fixed"]
    out = post("/referee/layoff", {"rules": PAGAT, "players": 2, "table": table, "card": "JK"})
    assert out["legal"] is True
    assert sorted(p["card"] for p in out["placements"]) == ["JK=5H", "JK=9H"]


def test_layoff_full_set(post):
    table = [{"id": "K", "cards": ["KS", "KH", "KD", "JK"]}]
    out = post("/referee/layoff", {"rules": PAGAT, "players": 2, "table": table, "card": "KC"})
    assert out["legal"] is False
    assert out["rules"] == ["layoff.full-set"]


def test_layoff_unknown_meld_is_400(post):
    out = post("/referee/layoff", {"rules": PAGAT, "players": 4, "table": TABLE, "card": "8H",
                                   "meld": "Z"}, 400)
    assert out["error"]["code"] == "unknown-meld"


def test_layoff_illegal_table_meld_is_400(post):
    out = post("/referee/layoff", {"rules": PAGAT, "table": [{"id": "X", "cards": ["5H", "9S"]}],
                                   "card": "8H"}, 400)
    assert "X" in out["error"]["message"]


def test_layoff_card_twice_in_one_deck_is_400(post):
    out = post("/referee/layoff", {"rules": PAGAT, "players": 2, "table": TABLE, "card": "6H"},
               400)
    assert out["error"]["code"] == "too-many-copies"
    assert "6H" in out["error"]["message"]


# ---- /referee/draw ----------------------------------------------------------------------

PILE = ["6C", "4S", "7D", "4H", "QS", "AD"]
HAND = ["2C", "4D", "5C", "8C", "JH", "KS", "KD"]


def test_draw_worked_example(post):
    """draw.deep: take everything from the lower 4 up and meld 4 4 4."""
    out = post("/referee/draw", {"rules": PAGAT, "players": 3, "pile": PILE, "hand": HAND,
                                 "take": 5})
    assert out["legal"] is True
    assert out["rules"] == ["draw.deep"]
    assert out["card"] == "4S"
    assert {"kind": "meld", "cards": ["4S", "4H", "4D"]} in out["ways"]


def test_draw_deep_card_that_cannot_be_melded(post):
    out = post("/referee/draw", {"rules": PAGAT, "players": 3, "pile": PILE, "hand": HAND,
                                 "take": 4})
    assert out["legal"] is False
    assert out["ways"] == []


def test_draw_top_is_always_allowed_but_not_in_basic_deeper(post):
    out = post("/referee/draw", {"rules": PAGAT, "pile": PILE, "hand": HAND, "take": 1})
    assert out["legal"] is True and out["rules"] == ["draw.stock-or-top"]
    out = post("/referee/draw", {"rules": {"family": "basic"}, "pile": PILE, "hand": HAND,
                                 "take": 5})
    assert out["legal"] is False and out["rules"] == ["draw.basic"]


def test_draw_must_meld_option(post):
    rules = {"family": "pagat-500", "draw_must_meld": True}
    out = post("/referee/draw", {"rules": rules, "pile": PILE, "hand": HAND, "take": 1})
    assert out["legal"] is False and "draw.must-meld" in out["rules"]


def test_draw_same_discard(post):
    out = post("/referee/draw", {"rules": PAGAT, "pile": PILE, "hand": HAND, "take": 1,
                                 "discard": "AD"})
    assert out["legal"] is False and out["rules"] == ["discard.not-same"]


@pytest.mark.parametrize("take", [0, 7, "two", None])
def test_draw_bad_take_is_400(post, take):
    body = {"rules": PAGAT, "pile": PILE, "hand": HAND, "take": take}
    if take is None:
        body["pile"] = []
    post("/referee/draw", body, 400)


# ---- /referee/rummy-call ----------------------------------------------------------------

def test_rummy_call_takes_down_to_the_king(post):
    """rummy.call: K♣ … Q♣ … J♣ — take everything from the K♣ up."""
    pile = ["2D", "KC", "5S", "QC", "9H", "JC"]
    out = post("/referee/rummy-call", {"rules": PAGAT, "players": 3, "table": [], "pile": pile,
                                       "discarder": "Ann", "caller": "Ben"})
    assert out["legal"] is True
    assert out["deepest"] == "KC" and out["take"] == 5
    assert out["callable"][0]["how"]["kind"] == "meld"


def test_rummy_call_own_discard(post):
    """rummy.own-meld: the one who exposed the 3♣ may not call on their own discard."""
    body = {"rules": PAGAT, "players": 3, "pile": ["3C", "8D", "9S"],
            "table": [{"id": "M", "owner": "Ann", "cards": ["4C", "5C", "6C"]}],
            "discarder": "Ann", "caller": "Ann"}
    out = post("/referee/rummy-call", body)
    assert out["legal"] is False and "rummy.own-meld" in out["rules"]
    out = post("/referee/rummy-call", {**body, "caller": "Ben"})
    assert out["legal"] is True and out["deepest"] == "3C" and out["take"] == 3


def test_rummy_call_too_late_and_after_out_and_off(post):
    body = {"rules": PAGAT, "players": 3, "pile": ["6H"], "discarder": "Ann", "caller": "Ben",
            "table": [{"id": "M", "cards": ["7H", "8H", "9H"]}]}
    assert post("/referee/rummy-call", body)["legal"] is True
    assert post("/referee/rummy-call", {**body, "next_player_drew": True})["legal"] is False
    out = post("/referee/rummy-call", {**body, "hand_over": True})
    assert out["legal"] is False and out["rules"] == ["rummy.after-out"]
    out = post("/referee/rummy-call", {**body, "rules": {"family": "rummy-500"}})
    assert out["legal"] is False and out["rules"] == ["rummy.mode"]


def test_rummy_call_top_mode_only_lays_off_the_latest_discard(post):
    rules = {"family": "pagat-500", "rummy_call": "top"}
    body = {"rules": rules, "players": 3, "pile": ["KC", "QC", "JC"], "table": [],
            "discarder": "Ann", "caller": "Ben"}
    assert post("/referee/rummy-call", body)["legal"] is False
    body["table"] = [{"id": "M", "cards": ["8C", "9C", "10C"]}]
    out = post("/referee/rummy-call", body)
    assert out["legal"] is True and out["take"] == 1 and out["deepest"] == "JC"


# ---- /referee/going-out -----------------------------------------------------------------

def test_going_out(post):
    body = {"rules": PAGAT, "players": 3, "table": TABLE, "hand": ["8H", "10D", "JD", "QD"]}
    out = post("/referee/going-out", {**body, "discard": "QD"})
    assert out["legal"] is False and "10D" in out["message"]
    out = post("/referee/going-out", {**body, "hand": ["8H", "10D", "JD", "QD", "2S"],
                                      "discard": "2S"})
    assert out["legal"] is True


def test_going_out_options(post):
    body = {"players": 3, "table": TABLE, "hand": ["8H", "4H"]}
    out = post("/referee/going-out", {**body, "rules": {"family": "pagat-500",
                                                        "discard_required": True}})
    assert out["legal"] is False and out["rules"] == ["out.discard-required"]
    out = post("/referee/going-out", {**body, "rules": {"family": "pagat-500", "floating": True}})
    assert out["legal"] is True and out["rules"] == ["out.floating"]
    out = post("/referee/going-out", {**body, "discard": "4H",
                                      "rules": {"family": "pagat-500",
                                                "unplayable_discard": True}})
    assert out["legal"] is False and "out.unplayable-discard" in out["rules"]


# ---- /score/hand and /score/game --------------------------------------------------------

HAND_500 = RUMMY_500_HAND


def test_score_hand_worked_example(post):
    """score.500: 13 / 64 / −9."""
    out = post("/score/hand", HAND_500)
    assert [(p["name"], p["melded"], p["stranded"], p["score"]) for p in out["players"]] == [
        ("You", 52, 39, 13), ("Ada", 64, 0, 64), ("Bo", 18, 27, -9)]


def test_score_hand_card_twice_is_400_naming_it(post):
    body = {**HAND_500, "players": [dict(HAND_500["players"][0], hand=["5H", "JD", "9H", "KD"]),
                                    *HAND_500["players"][1:]]}
    out = post("/score/hand", body, 400)
    assert "KD" in out["error"]["message"]


def test_score_hand_bad_layoff_is_400_naming_the_card(post):
    you = dict(HAND_500["players"][0], layoffs=[{"card": "2S", "onto": "y1"}])
    out = post("/score/hand", {**HAND_500, "players": [you, *HAND_500["players"][1:]]}, 400)
    assert "2S" in out["error"]["message"]


def test_score_basic_winner_takes_all_and_going_rummy(post):
    body = {"rules": {"family": "basic"}, "went_out": "Ann", "players": [
        {"name": "Ann", "melds": [{"cards": ["AH", "2H", "3H"]}, {"cards": ["KS", "KD", "KC"]}],
         "hand": [], "going_rummy": True},
        {"name": "Ben", "hand": ["AS", "10D", "4C"]},
    ]}
    out = post("/score/hand", body)
    assert [p["score"] for p in out["players"]] == [30, 0]
    body["players"][0]["going_rummy"] = False
    assert [p["score"] for p in post("/score/hand", body)["players"]] == [15, 0]
    body["went_out"] = None  # a draw: nobody scores (basic.stock-reshuffle)...
    # ...but Ann, left with no cards, would have gone out (out.empty-hand)
    refused = post("/score/hand", body, 400)["error"]
    assert (refused["code"], refused["rules"]) == ("holds-no-cards", ["out.empty-hand"])
    body["players"][0]["hand"] = ["5C"]
    assert [p["score"] for p in post("/score/hand", body)["players"]] == [0, 0]


def test_score_game(post):
    out = post("/score/game", {"rules": {"family": "pagat-500", "must_go_out": True},
                               "totals": [505, 520], "went_out": 0})
    assert out["finished"] is True and out["winner"] == 0
    out = post("/score/game", {"rules": PAGAT, "totals": [505, 520], "went_out": 0})
    assert out["winner"] == 1
    out = post("/score/game", {"rules": PAGAT, "totals": [520, 520, 10], "went_out": 2})
    assert out["finished"] is False and out["winner"] is None and out["code"] == "game.tie"
    out = post("/score/game", {"rules": {"family": "basic"}, "totals": [150, 20, 30],
                               "went_out": 0})
    assert out["finished"] is True and out["target"] == 150


@pytest.mark.parametrize("body", [
    {"rules": PAGAT, "totals": "lots"},
    {"rules": PAGAT, "totals": [1, 2], "went_out": 5},
    {"rules": PAGAT, "totals": [1]},
])
def test_score_game_bad_input(post, body):
    post("/score/game", body, 400)


# ---- the rest ---------------------------------------------------------------------------

def test_arrange_groups_cards(post):
    out = post("/arrange", {"rules": PAGAT, "players": 3,
                            "cards": ["7S", "8S", "9S", "4C", "4D", "4S", "KH"]})
    assert sorted(m["kind"] for m in out["melds"]) == ["run", "set"]
    assert out["stranded"] == ["KH"] and out["complete"] is False
    assert out["exact"] is True and "message" not in out and "at_most" not in out


# A hand of two decks with four jokers: many overlapping runs and sets.
DENSE = ["4C", "5C", "5C", "6C", "7C", "4D", "5D", "6D", "6D", "7D", "4H", "5H", "5H", "6H",
         "7H", "4S", "5S", "6S", "6S", "7S", "JK", "JK", "JK", "JK"]


def test_arrange_answers_a_dense_two_deck_hand(post):
    out = post("/arrange", {"rules": PAGAT, "players": 5, "cards": DENSE})
    assert out["complete"] is True
    assert out["value"] == sum({4: 4, 5: 5, 6: 6, 7: 7}[int(c[0])] for c in DENSE
                               if c != "JK") + 4 * 15


def test_a_search_that_would_take_too_long_is_refused_at_once(post, monkeypatch):
    """The going-out search counts its work; past the limit the referee stops
    (SearchTooLarge) and the API says so with a 422 instead of holding the worker (here
    the limit is made tiny so that this hand reaches it)."""
    monkeypatch.setattr("referee.arrange.SEARCH_LIMIT", 20)
    out = post("/referee/going-out", {"rules": PAGAT, "players": 5, "hand": DENSE + ["9C"]},
               422)
    assert out["error"]["code"] == "search-too-large"
    assert "too many ways" in out["error"]["message"]


def test_a_search_too_large_is_explained_in_the_page_language(client, monkeypatch):
    monkeypatch.setattr("referee.arrange.SEARCH_LIMIT", 20)
    response = client.get("/referee/going-out?" + urlencode(
        {"hand": " ".join(DENSE + ["9C"]), "players": 5}), headers={"Accept-Language": "it"})
    assert response.status_code == 422
    assert "troppi modi" in response.get_data(as_text=True)


def test_arrange_past_its_limit_answers_with_the_best_it_found(post, stopped_search):
    """`/arrange` never refuses a hand: past its CPU time (a clock of the test's own says
    so at once) it answers with the best split it found, every card accounted for, says
    it is not proven best, states the bound and how much more any split could meld, in
    words too."""
    out = post("/arrange", {"rules": PAGAT, "players": 5, "cards": DENSE})
    assert out["exact"] is False and out["search_limit_ms"] == 250
    assert "search_limit" not in out
    assert out["at_most"] >= out["value"]
    assert len([c for m in out["melds"] for c in m["cards"]]) + len(out["stranded"]) == 24
    assert "stopped looking after 250 milliseconds of computing" in out["message"]


# A hand with a card no split melds (KS): stopped before its bound is worked out, the
# search cannot rule out that another split melds it.
SHORT = ["4C", "5C", "6C", "7C", "4D", "5D", "6D", "7D", "4H", "5H", "6H", "JK", "JK", "KS"]


@pytest.mark.parametrize(("language", "words"), [
    ("es", "El árbitro dejó de buscar tras 250 milisegundos de cálculo"),
    ("it", "L'arbitro ha smesso di cercare dopo 250 millisecondi di calcolo"),
    ("en", "The referee stopped looking after 250 milliseconds of computing"),
])
def test_arrange_says_it_stopped_looking_in_the_request_language(client, stopped_search,
                                                                 language, words):
    response = client.post("/api/v1/arrange",
                           json={"rules": PAGAT, "players": 5, "cards": SHORT},
                           headers={"Accept-Language": language})
    assert response.status_code == 200
    out = response.get_json()
    assert out["exact"] is False and out["message"].startswith(words)
    assert f" {out['at_most'] - out['value']} " in out["message"]


# Forty cards of two decks with four jokers, most of them from a few ranks: a hand the
# search refused before (more than 30 cards, and too dense for its limit).
FORTY = ["AC", "AC", "2C", "3C", "3C", "4C", "4C", "5C", "5C", "7C", "AD", "AD", "2D",
         "3D", "4D", "4D", "5D", "5D", "8D", "AH", "AH", "2H", "3H", "3H", "4H", "4H",
         "5H", "AS", "2S", "2S", "3S", "3S", "4S", "4S", "5S", "5S", "9S", "JK", "JK",
         "JK"]


def test_arrange_answers_every_hand_of_up_to_forty_cards(post):
    out = post("/arrange", {"rules": PAGAT, "players": 6, "cards": FORTY})
    assert out["exact"] is True and out["value"] == 264 and out["stranded"] == ["8D"]
    out = post("/arrange", {"rules": PAGAT, "players": 6, "cards": FORTY + ["9D"]}, 400)
    assert "40" in out["error"]["message"]


def test_rules_resolved(post):
    out = post("/rules", {"rules": {"family": "pagat-500"}, "players": 5})
    assert out["decks"] == 2 and out["jokers"] == 4 and out["deck_size"] == 108


def test_openapi_document_lists_every_endpoint(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    routes = {(r.rule.removeprefix("/api/v1").replace("<int:", "{").replace(">", "}"), m.lower())
              for r in client.application.url_map.iter_rules() if r.rule.startswith("/api/v1/")
              for m in r.methods - {"HEAD", "OPTIONS"} if r.endpoint != "api.openapi"}
    assert routes == {(path, method) for path, item in doc["paths"].items() for method in item}


def test_not_json_is_400(client):
    response = client.post("/api/v1/referee/meld", data="cards=7S")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid-json"
    assert client.post("/api/v1/referee/meld", json=[1, 2]).status_code == 400


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(
        ["7S", "JK", "JK=8H", "AH", "xx", "", "10H", "pagat-500", "basic", "A"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["rules", "players", "cards", "table", "card", "meld", "pile", "hand",
                         "take", "family", "id", "discarder", "caller", "totals", "went_out",
                         "name", "melds", "layoffs", "onto", "discard"]), inner, max_size=6),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(path=st.sampled_from(["/referee/meld", "/referee/layoff", "/referee/draw",
                             "/referee/rummy-call", "/referee/going-out", "/score/hand",
                             "/score/game", "/arrange", "/rules"]),
       body=JSONISH)
def test_no_input_makes_a_500(client, path, body):
    response = client.post("/api/v1" + path, json=body)
    assert response.status_code in (200, 400), response.get_data(as_text=True)
