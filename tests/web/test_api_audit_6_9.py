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
    players = [{"name": "Ann", "melds": [["AC", "2C", "3C"]], "hand": ["9S"]},
               {"name": "Ben", "hand": ["KD", "AS", "7H"]}]
    out = post("/score/hand", {"rules": {"family": "basic"}, "players": players,
                               "went_out": None})
    assert [p["score"] for p in out["players"]] == [0, 0]
    assert "basic.stock-reshuffle" in out["rules"]
    players[0]["hand"] = []  # Ann melded every card: she went out (out.empty-hand)
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
    players = [{"name": n, "hand": ["9D"] if n in "BC" else ["2S"] if n != "A" else []}
               for n in "ABCDE"]
    out = post("/score/hand", {"rules": PAGAT, "players": players, "went_out": "A"})
    assert [p["score"] for p in out["players"]] == [0, -9, -9, -2, -2]
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


# ---- going out in the turn several cards were taken from the pile --------------------

HEARTS_TABLE = [{"id": "A", "owner": "Ann", "cards": ["5H", "6H", "7H"]}]


def going_out(post, rules: Any, hand: list[str], discard: str | None, took: list[str],
              status: int = 200, players: int = 3) -> dict[str, Any]:
    body = {"rules": rules, "players": players, "table": HEARTS_TABLE, "hand": hand,
            "took": took}
    if discard is not None:
        body["discard"] = discard
    return post("/referee/going-out", body, status)


@pytest.mark.parametrize("family", ["pagat-500", "rummy-500"])
def test_out_after_a_deep_draw_the_top_card_may_go_the_deepest_never(post, family):
    """`draw.deep` `discard.not-same` `out.empty-hand`: ``took`` is bottom to top, like the
    pile. Taking 8♥ K♦ (8♥ deepest), the player lays the 8♥ off and goes out on the K♦ that
    had been on top; going out on the 8♥ instead is refused for that reason."""
    rules = {"family": family}
    out = going_out(post, rules, ["8H", "9H", "10H", "KD"], "KD", ["8H", "KD"])
    assert (out["legal"], out["code"]) == (True, "out.ok-discard")
    assert "draw.deep" in out["rules"]
    out = going_out(post, rules, ["8H", "KD", "KS", "KC"], "8H", ["8H", "KD"])
    assert (out["legal"], out["code"]) == (False, "draw.deepest-discard")
    assert out["rules"] == ["discard.not-same", "draw.deep"]
    assert "deepest" in out["message"]


def test_out_after_a_deep_draw_with_the_new_meld_house_rule(post):
    """`draw.deep-new-meld`: the deepest card taken must start a new meld when the player
    goes out too; the plan shows one that does; laying it off alone is refused."""
    rules = {"family": "pagat-500", "deep_draw_new_meld": True}
    out = going_out(post, rules, ["8H", "9H", "10H", "KD"], "KD", ["8H", "KD"])
    assert out["legal"] is True and "draw.deep-new-meld" in out["rules"]
    assert "8H 9H 10H" in out["plan"]  # a new meld, not "8H on A"
    out = going_out(post, rules, ["8H", "KD"], "KD", ["8H", "KD"])
    assert (out["legal"], out["code"]) == (False, "out.deep-needs-new-meld")
    assert "draw.deep-new-meld" in out["rules"]


def test_the_top_card_alone_is_not_bound_by_the_new_meld_house_rule(post):
    """`draw.deep-new-meld` `draw.must-meld`: with both house rules, the top card taken
    alone must be melded at once, and laying it off will do (RULES.md: "Taking the top
    card alone is not bound by it"); the draw question and going out agree."""
    rules = {"family": "pagat-500", "draw_must_meld": True, "deep_draw_new_meld": True}
    drawn = post("/referee/draw", {"rules": rules, "players": 3, "table": HEARTS_TABLE,
                                   "pile": ["2C", "8H"], "hand": ["KD", "KS"], "take": 1})
    assert (drawn["legal"], drawn["code"]) == (True, "draw.top-ok-meld")
    assert "draw.deep-new-meld" not in drawn["rules"]
    out = going_out(post, rules, ["8H", "KD"], "KD", ["8H"])
    assert (out["legal"], out["code"]) == (True, "out.ok-discard")
    out = going_out(post, rules, ["8H", "KD"], "KD", ["8H", "KD"])  # two taken: bound
    assert (out["legal"], out["code"]) == (False, "out.deep-needs-new-meld")


def test_a_joker_discarded_after_a_joker_taken_is_worded_for_one_deck(post):
    """`discard.not-same`: three players, one deck: the deepest card taken is a joker and
    the discard the other joker. Jokers are interchangeable, so it is refused — and the
    verdict says any joker counts as any other, not "with two decks"."""
    out = post("/referee/going-out", {"rules": PAGAT, "players": 3, "table": [],
                                      "hand": ["JK", "JK", "5C", "5H", "5S"],
                                      "discard": "JK", "took": ["JK", "5C"]})
    assert (out["legal"], out["code"]) == (False, "draw.deepest-discard-joker")
    assert out["rules"] == ["discard.not-same", "draw.deep"]
    assert "two decks" not in out["message"] and "any joker" in out["message"]
    drawn = post("/referee/draw", {"rules": PAGAT, "players": 3, "pile": ["5C", "JK"],
                                   "hand": ["JK", "5H", "5S", "2C"], "take": 1,
                                   "discard": "JK"})
    assert (drawn["legal"], drawn["code"]) == (False, "draw.same-discard-joker")
    assert "two decks" not in drawn["message"]


def test_out_after_a_deep_draw_in_basic_is_refused(post):
    """`draw.basic`: Basic Rummy takes only the top card, so a turn that took two cannot
    end the hand."""
    body = {"rules": {"family": "basic"}, "players": 2, "hand": ["8H", "9H", "10H", "KD"],
            "discard": "KD", "took": ["8H", "KD"]}
    out = post("/referee/going-out", body)
    assert (out["legal"], out["code"], out["rules"]) == (False, "draw.basic-top-only",
                                                         ["draw.basic"])
    out = post("/referee/going-out", {**body, "took": ["8H"]})
    assert out["legal"] is True


def test_out_two_decks_the_other_copy_is_the_same_card(post):
    """`discard.not-same`: with five players (two decks) the other 8♥ counts as the 8♥
    taken; the verdict says so."""
    out = going_out(post, PAGAT, ["8H", "8H", "9H", "10H", "KD"], "8H", ["8H", "KD"],
                    players=5)
    assert (out["legal"], out["code"]) == (False, "draw.deepest-discard-copy")
    assert "other 8H" in out["message"] or "other 8♥" in out["message"]
    out = going_out(post, PAGAT, ["2C", "3C", "4C", "QS", "QS"], "QS", ["QS"], players=5)
    assert (out["legal"], out["code"]) == (False, "draw.same-discard-copy")


def test_out_took_must_be_in_the_hand(post):
    """`out.empty-hand`: the hand holds the cards taken; a took card it lacks is a 400."""
    out = going_out(post, PAGAT, ["8H", "KD"], "KD", ["9H", "KD"], 400)
    assert out["error"]["code"] == "took-not-in-hand"
    assert "9H" in out["error"]["message"]


def test_draw_accepts_took_bottom_to_top_like_the_pile(post):
    """`draw.deep`: /referee/draw takes ``took`` (bottom to top, like ``pile``) instead of
    ``take``; they must be the top of the pile, and ``taken`` comes back the same way."""
    pile = ["6C", "4S", "7D", "4H", "QS", "AD"]
    hand = ["2C", "4D", "5C", "8C", "JH", "KS", "KD"]
    body = {"rules": PAGAT, "players": 3, "pile": pile, "hand": hand}
    by_take = post("/referee/draw", {**body, "take": 5})
    by_took = post("/referee/draw", {**body, "took": pile[1:]})
    assert by_took == by_take
    assert by_took["taken"] == pile[1:] and by_took["card"] == "4S"
    alone = post("/referee/draw", {"rules": PAGAT, "players": 3, "hand": hand,
                                   "took": pile[1:]})
    assert (alone["legal"], alone["card"]) == (True, "4S")
    wrong = post("/referee/draw", {**body, "took": ["AD", "QS"]}, 400)  # top to bottom
    assert wrong["error"]["code"] == "took-not-on-top"
    assert post("/referee/draw", {**body, "took": pile[1:], "take": 2}, 400)["error"][
        "code"] == "take-not-took"
    deepest = post("/referee/draw", {**body, "took": pile[1:], "discard": "4S"})
    assert (deepest["legal"], deepest["code"]) == (False, "draw.deepest-discard")
    top = post("/referee/draw", {**body, "took": pile[1:], "discard": "AD"})
    assert top["legal"] is True


# ---- the ace's end ------------------------------------------------------------------------

TWO_TO_KING = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"]


@pytest.mark.parametrize(("rules", "low"), [({"family": "pagat-500"}, 1),
                                             ({"family": "pagat-500", "values": "5-10-15"}, 5),
                                             ({"family": "rummy-500"}, 15)])
def test_score_hand_an_ace_laid_off_scores_by_its_end(post, rules, low):
    """`values.ace-end`: ``{"card": "AH", "onto": "m1", "end": "high"}`` scores 15, laid
    low the low-ace value; without an end it lies low, as before."""
    def score(layoff: dict[str, Any]) -> int:
        body = {"rules": rules, "went_out": "Ann", "players": [
            {"name": "Ann", "melds": [{"id": "m1", "cards": TWO_TO_KING}]},
            {"name": "Ben", "layoffs": [layoff], "hand": ["9C"]}]}
        return post("/score/hand", body)["players"][1]["melded"]

    assert score({"card": "AH", "onto": "m1", "end": "high"}) == 15
    assert score({"card": "AH", "onto": "m1", "end": "low"}) == low
    assert score({"card": "AH", "onto": "m1"}) == low
    body = {"rules": rules, "went_out": "Ann", "players": [
        {"name": "Ann", "melds": [{"id": "m1", "cards": TWO_TO_KING}]},
        {"name": "Ben", "layoffs": [{"card": "AH", "onto": "m1", "end": "high"}],
         "hand": ["9C"]}]}
    melds = post("/score/hand", body)["melds"]
    assert melds[0]["cards"][-1] == "AH" and "values.ace-end" in post("/score/hand",
                                                                      body)["rules"]


@pytest.mark.parametrize(("layoff", "code"), [
    ({"card": "AH", "onto": "m1", "end": "top"}, "bad-end"),
    ({"card": "AH", "onto": "m1", "end": 1}, "bad-end"),
    ({"card": "AC", "onto": "s1", "end": "high"}, "bad-end"),
    ({"card": "AC", "onto": "r1", "end": "low"}, "bad-layoff"),
])
def test_score_hand_an_impossible_end_is_a_400(post, layoff, code):
    """`values.ace-end`: an end that is neither low nor high, an end on a set, or an end the
    card cannot reach (A♣ below J-Q-K♣), is refused with a 400 that says which."""
    body = {"rules": PAGAT, "went_out": "Ann", "players": [
        {"name": "Ann", "melds": [{"id": "m1", "cards": TWO_TO_KING},
                                  {"id": "s1", "cards": ["AS", "AD", "JK"]},
                                  {"id": "r1", "cards": ["JC", "QC", "KC"]}]},
        {"name": "Ben", "layoffs": [layoff]}]}
    out = post("/score/hand", body, 400)
    assert out["error"]["code"] == code


def test_score_hand_a_13_card_run_two_to_ace_scores_its_ace_15(post):
    """`values.low-ace`: the ace of a 13-card run 2…A is high: 15 (A…K: the low-ace value)."""
    def melded(cards: list[str]) -> int:
        body = {"rules": PAGAT, "went_out": "Ann", "players": [
            {"name": "Ann", "melds": [{"id": "m", "cards": cards}]},
            {"name": "Ben", "hand": ["9C"]}]}
        return post("/score/hand", body)["players"][0]["melded"]

    assert melded([*TWO_TO_KING, "AH"]) == 84 + 15
    assert melded(["AH", *TWO_TO_KING]) == 84 + 1


def test_layoff_verdict_says_the_ace_goes_at_the_end_the_player_says(post):
    """`values.ace-end`: on a run 2…K the lay-off verdict lists both ends and cites the rule."""
    out = post("/referee/layoff", {"rules": PAGAT, "card": "AH",
                                   "table": [{"id": "m1", "cards": TWO_TO_KING}]})
    assert (out["legal"], out["code"]) == (True, "layoff.ace-either-end")
    assert "values.ace-end" in out["rules"]
    assert {p["end"] for p in out["placements"]} == {"low", "high"}


def test_out_one_meld_per_turn_says_it_is_the_limit_of_new_melds(post):
    """`meld.once-per-turn`: two new melds would meld every card, but only one a turn is
    allowed: the verdict names that rule and says so, not "cannot all be melded"."""
    rules = {"family": "basic", "one_meld_per_turn": True}
    out = post("/referee/going-out", {"rules": rules, "hand": ["2C", "3C", "4C", "5S", "6S",
                                                               "7S"]})
    assert (out["legal"], out["code"]) == (False, "out.one-meld-per-turn")
    assert out["rules"] == ["out.empty-hand", "meld.once-per-turn"]
    assert "one new meld" in out["message"]
    out = post("/referee/going-out", {"rules": rules, "hand": ["2C", "3C", "4C", "QD"]})
    assert (out["code"], out["rules"]) == ("out.cannot-meld", ["out.empty-hand"])
