"""Laying off: adding cards to melds on the table, who scores them, choosing the meld,
and jokers that never move.

Rules: `layoff.basic`, `layoff.owner`, `layoff.choice`, `layoff.joker-fixed`,
`layoff.joker`, `layoff.full-set`.
"""

from __future__ import annotations

import pytest

from referee import (
    JOKER,
    LayoffTarget,
    PlayerHand,
    Table,
    TableError,
    apply_layoff,
    check_layoff,
    layoff_targets,
    make_meld,
    make_rules,
    parse_card,
    parse_cards,
    score_hand,
)

PAGAT = make_rules("pagat-500")
RUMMY = make_rules("rummy-500")
BASIC = make_rules("basic")


def table(*melds: tuple[str, str, str]) -> Table:
    """A table from (id, cards, owner) triples, read with pagat-500 rules."""
    t = Table()
    for meld_id, cards, owner in melds:
        t = t.with_meld(make_meld(meld_id, parse_cards(cards), PAGAT, owner))
    return t


# ---------------------------------------------------------------------------------------
# layoff.basic


def test_layoff_basic_either_end_of_a_run() -> None:
    """`layoff.basic`: with 5♥ 6♥ 7♥ on the table anyone may lay off 4♥, 8♥ or both."""
    t = table(("A", "5H 6H 7H", "Ada"))
    for card, end in (("4H", "low"), ("8H", "high")):
        verdict = check_layoff(t, parse_card(card), PAGAT)
        assert verdict.legal and verdict.code == "layoff.ok"
        assert verdict.rules == ("layoff.basic",)
        assert verdict.detail["targets"] == (LayoffTarget("A", parse_card(card), end),)
    both = apply_layoff(apply_layoff(t, "A", parse_card("4H"), "Bo", PAGAT),
                        "A", parse_card("8H"), "Cy", PAGAT)
    assert str(both.get("A").reading) == "4H 5H 6H 7H 8H"
    assert both.get("A").reading.low == 4


def test_layoff_basic_an_ace_on_two_to_king_goes_at_the_end_chosen() -> None:
    """`layoff.basic`, `meld.ace`: an ace fits both ends of 2♥..K♥; it lies low (A-2-…)
    unless the high end (…-K-A) is asked for, and a joker still has to be declared."""
    two_to_king = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    t = table(("A", two_to_king, "Ada"))
    ends = {target.end for target in check_layoff(t, parse_card("AH"), PAGAT).detail["targets"]}
    assert ends == {"low", "high"}
    low = apply_layoff(t, "A", parse_card("AH"), "Bo", PAGAT).get("A").reading
    assert low.low == 1 and str(low).startswith("AH 2H")
    high = apply_layoff(t, "A", parse_card("AH"), "Bo", PAGAT, end="high").get("A").reading
    assert high.low == 2 and str(high).endswith("KH AH")
    short = table(("B", "5H 6H 7H", "Ada"))
    with pytest.raises(TableError):
        apply_layoff(short, "B", parse_card("8H"), "Bo", PAGAT, end="low")
    with pytest.raises(TableError, match="joker stands for"):
        apply_layoff(short, "B", JOKER, "Bo", PAGAT)
    assert str(apply_layoff(short, "B", JOKER, "Bo", PAGAT, end="low").get("B").reading
               ).startswith("JK=4H")


def test_layoff_basic_not_a_card_away_from_the_end() -> None:
    """`layoff.basic`: only the next consecutive card of the same suit fits."""
    t = table(("A", "5H 6H 7H", "Ada"))
    for card in ("9H", "3H", "8S", "6H", "5D"):
        verdict = check_layoff(t, parse_card(card), PAGAT)
        assert not verdict.legal and verdict.code == "layoff.no-fit"
        assert "layoff.basic" in verdict.rules
    with pytest.raises(TableError):
        apply_layoff(t, "A", parse_card("9H"), "Bo", PAGAT)


def test_layoff_basic_fourth_card_of_a_set() -> None:
    """`layoff.basic`: the missing 4th card of a set (a different suit)."""
    t = table(("S", "9C 9S 9D", "Ada"))
    assert check_layoff(t, parse_card("9H"), PAGAT).legal
    assert not check_layoff(t, parse_card("9S"), PAGAT).legal  # two decks: same suit
    assert not check_layoff(t, parse_card("10H"), PAGAT).legal


def test_layoff_basic_on_anyones_meld_and_in_basic_rummy() -> None:
    """`layoff.basic`: yours or anyone's; Basic Rummy lays off the same way (aces low)."""
    t = Table().with_meld(make_meld("m", parse_cards("2C 3C 4C"), BASIC))
    assert check_layoff(t, parse_card("AC"), BASIC).legal
    assert check_layoff(t, parse_card("5C"), BASIC).legal
    top = Table().with_meld(make_meld("m", parse_cards("JC QC KC"), BASIC))
    assert not check_layoff(top, parse_card("AC"), BASIC).legal  # meld.ace: low only
    assert check_layoff(top, parse_card("AC"), PAGAT).legal


def test_layoff_on_a_meld_not_on_the_table() -> None:
    """`layoff.basic`"""
    verdict = check_layoff(table(("A", "5H 6H 7H", "Ada")), parse_card("8H"), PAGAT, "Z")
    assert not verdict.legal and verdict.code == "layoff.unknown-meld"
    assert "layoff.basic" in verdict.rules


def test_a_run_never_grows_past_thirteen_cards() -> None:
    """`layoff.basic` / `meld.ace`: 2..A takes no low ace, A..K no high ace."""
    two_to_ace = table(("R", "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "Ada"))
    ace_to_king = Table().with_meld(
        make_meld("R", parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"), PAGAT, "Ada"))
    for t in (two_to_ace, ace_to_king):
        assert layoff_targets(t, parse_card("AS"), PAGAT) == []
        assert layoff_targets(t, JOKER, PAGAT) == []


# ---------------------------------------------------------------------------------------
# layoff.owner


def test_layoff_owner_a_laid_off_card_scores_for_who_laid_it() -> None:
    """`layoff.owner`: a laid-off card scores for the player who laid it off, not for
    the meld's owner (pagat-500, rummy-500)."""
    for rules in (PAGAT, RUMMY):
        ada = PlayerHand("Ada", melds=[("A", parse_cards("5H 6H 7H"))])
        bo = PlayerHand("Bo", layoffs=[(parse_card("8H"), "A")], hand=parse_cards("2C"))
        score = score_hand(rules, [ada, bo], went_out="Ada").by_name()
        assert score["Ada"].score == 18
        assert score["Bo"].melded == 8 and score["Bo"].score == 6
        assert "layoff.owner" in score_hand(rules, [ada, bo], went_out="Ada").rules


def test_layoff_owner_the_table_remembers_who_laid_each_card() -> None:
    """`layoff.owner`"""
    t = apply_layoff(table(("A", "5H 6H 7H", "Ada")), "A", parse_card("4H"), "Bo", PAGAT)
    meld = t.get("A")
    assert [meld.layer(i) for i in range(4)] == ["Bo", "Ada", "Ada", "Ada"]
    own = apply_layoff(t, "A", parse_card("8H"), "Ada", PAGAT).get("A")
    assert own.laid_by[-1] is None and own.layer(4) == "Ada"


def test_layoff_owner_basic_melds_belong_to_nobody() -> None:
    """`layoff.owner`: in basic only who went out matters; lay-offs score nothing."""
    ada = PlayerHand("Ada", melds=[("A", parse_cards("5H 6H 7H"))], hand=parse_cards("KS"))
    bo = PlayerHand("Bo", layoffs=[(parse_card("8H"), "A")],
                    melds=[("B", parse_cards("2C 3C 4C"))])
    score = score_hand(BASIC, [ada, bo], went_out="Bo").by_name()
    assert score["Bo"].score == 10
    assert score["Ada"].score == 0


# ---------------------------------------------------------------------------------------
# layoff.choice: the rule book's story


def test_layoff_choice_the_nine_of_hearts_story() -> None:
    """`layoff.choice`: A has 5♥ 6♥ 7♥, B has 9♣ 9♠ 9♦. B lays off 8♥ on A's run. C lays
    off 9♥ and must say where. On the run, D may lay off 10♥; on the nines, the run
    is still 5-8 and 10♥ fits nowhere."""
    t = table(("A", "5H 6H 7H", "A"), ("B", "9C 9S 9D", "B"))
    t = apply_layoff(t, "A", parse_card("8H"), "B", PAGAT)

    nine = check_layoff(t, parse_card("9H"), PAGAT)
    assert nine.legal and nine.code == "layoff.choose"
    assert "layoff.choice" in nine.rules
    assert {target.meld_id for target in nine.detail["targets"]} == {"A", "B"}

    on_run = apply_layoff(t, "A", parse_card("9H"), "C", PAGAT)
    ten = check_layoff(on_run, parse_card("10H"), PAGAT)
    assert ten.legal and ten.params["meld"] == "A"
    assert str(apply_layoff(on_run, "A", parse_card("10H"), "D", PAGAT).get("A").reading) \
        == "5H 6H 7H 8H 9H 10H"

    on_nines = apply_layoff(t, "B", parse_card("9H"), "C", PAGAT)
    assert str(on_nines.get("A").reading) == "5H 6H 7H 8H"
    ten = check_layoff(on_nines, parse_card("10H"), PAGAT)
    assert not ten.legal and ten.code == "layoff.no-fit"
    with pytest.raises(TableError):
        apply_layoff(on_nines, "A", parse_card("10H"), "D", PAGAT)


def test_layoff_choice_naming_the_wrong_meld() -> None:
    """`layoff.choice`: asking for a meld the card does not fit lists where it fits."""
    t = table(("A", "5H 6H 7H", "A"), ("B", "9C 9S 9D", "B"))
    verdict = check_layoff(t, parse_card("8H"), PAGAT, "B")
    assert not verdict.legal and verdict.code == "layoff.wrong-meld"
    assert "layoff.choice" in verdict.rules
    assert verdict.params["targets"] == ("A",)


def test_layoff_choice_once_placed_it_never_moves() -> None:
    """`layoff.choice`: the scorebook settles each lay-off on the meld named."""
    a = PlayerHand("A", melds=[("A", parse_cards("5H 6H 7H"))])
    b = PlayerHand("B", melds=[("B", parse_cards("9C 9S 9D"))],
                   layoffs=[(parse_card("8H"), "A")], hand=parse_cards("2S"))
    c = PlayerHand("C", layoffs=[(parse_card("9H"), "B")], hand=parse_cards("3S"))
    d = PlayerHand("D", layoffs=[(parse_card("10H"), "A")], hand=parse_cards("4S"))
    with pytest.raises(ValueError, match="10H"):
        score_hand(PAGAT, [a, b, c, d], went_out="A")
    c_on_run = PlayerHand("C", layoffs=[(parse_card("9H"), "A")], hand=parse_cards("3S"))
    score = score_hand(PAGAT, [a, b, c_on_run, d], went_out="A").by_name()
    assert score["C"].melded == 9 and score["D"].melded == 10


# ---------------------------------------------------------------------------------------
# jokers on the table


def test_layoff_joker_fixed_the_joker_keeps_its_card() -> None:
    """`layoff.joker-fixed`: with 6♥ 7♥ 🃏(8♥) a player may lay off 5♥ or 9♥, but may
    not move the joker to 5♥ to lay off 8♥, nor take it back with the natural 8♥."""
    t = table(("A", "6H 7H JK=8H", "Ada"))
    assert check_layoff(t, parse_card("5H"), PAGAT).legal
    assert check_layoff(t, parse_card("9H"), PAGAT).legal
    for meld_id in (None, "A"):
        verdict = check_layoff(t, parse_card("8H"), PAGAT, meld_id)
        assert not verdict.legal
        assert verdict.code == "layoff.joker-fixed"
        assert verdict.rules == ("layoff.joker-fixed",)
    with pytest.raises(TableError):
        apply_layoff(t, "A", parse_card("8H"), "Bo", PAGAT)
    # after 9H is laid off, the joker is still the 8H
    t = apply_layoff(t, "A", parse_card("9H"), "Bo", PAGAT)
    assert str(t.get("A").reading) == "6H 7H JK=8H 9H"


def test_layoff_joker_fixed_in_a_set() -> None:
    """`layoff.joker-fixed`: a joker declared as 9♥ in a set of nines stays the 9♥."""
    t = table(("S", "9C 9S JK=9H", "Ada"))
    verdict = check_layoff(t, parse_card("9H"), PAGAT)
    assert not verdict.legal
    assert verdict.code == "layoff.joker-fixed" and "layoff.joker-fixed" in verdict.rules
    assert check_layoff(t, parse_card("9D"), PAGAT).legal
    # a joker whose suit was never named leaves every missing suit open
    assert check_layoff(table(("S", "9C 9S JK=9", "Ada")), parse_card("9H"), PAGAT).legal


def test_layoff_joker_at_either_end_of_a_run() -> None:
    """`layoff.joker`: a joker may be laid off at either end of a run, declaring which."""
    t = table(("A", "5H 6H 7H", "Ada"))
    verdict = check_layoff(t, JOKER, PAGAT)
    assert verdict.legal and "layoff.joker" in verdict.rules
    assert [str(target.card) for target in verdict.detail["targets"]] == ["JK=4H", "JK=8H"]
    with pytest.raises(TableError, match="JK=4H or JK=8H"):
        apply_layoff(t, "A", JOKER, "Bo", PAGAT)  # undeclared: say which
    high = apply_layoff(t, "A", parse_card("JK=8H"), "Bo", PAGAT)
    assert str(high.get("A").reading) == "5H 6H 7H JK=8H"
    low = apply_layoff(t, "A", parse_card("JK=4H"), "Bo", PAGAT)
    assert str(low.get("A").reading) == "JK=4H 5H 6H 7H"
    assert not check_layoff(t, parse_card("JK=9H"), PAGAT).legal


def test_layoff_joker_on_a_set_of_three() -> None:
    """`layoff.joker`: a joker on a set of 3 stands for a missing suit."""
    t = table(("S", "9C 9S 9D", "Ada"))
    verdict = check_layoff(t, JOKER, PAGAT)
    assert verdict.legal and "layoff.joker" in verdict.rules
    (target,) = verdict.detail["targets"]
    assert target.end == "set" and target.card.stands_for is not None
    assert target.card.stands_for.rank == 9
    assert check_layoff(t, parse_card("JK=9H"), PAGAT).legal
    assert not check_layoff(t, parse_card("JK=9C"), PAGAT).legal
    after = apply_layoff(t, "S", JOKER, "Bo", PAGAT)
    assert len(after.get("S").cards) == 4


def test_no_joker_lay_off_without_jokers() -> None:
    """`cards.deck`: in rummy-500 there are no jokers to lay off."""
    t = Table().with_meld(make_meld("A", parse_cards("5H 6H 7H"), RUMMY, "Ada"))
    verdict = check_layoff(t, JOKER, RUMMY)
    assert not verdict.legal and verdict.code == "meld.no-jokers"
    assert "cards.deck" in verdict.rules
    assert layoff_targets(t, JOKER, RUMMY) == []


def test_layoff_full_set_takes_no_more() -> None:
    """`layoff.full-set`: a set of 4, naturals and jokers together, takes no more cards."""
    for cards in ("9C 9S 9D 9H", "9C 9S 9D JK", "9C JK JK 9H"):
        t = table(("S", cards, "Ada"))
        for card in ("9H", "9D", "JK"):
            verdict = check_layoff(t, parse_card(card), PAGAT)
            if verdict.legal:  # pragma: no cover - would be the bug
                pytest.fail(f"{card} laid off on the full set {cards}")
            assert verdict.code in ("layoff.set-full", "layoff.no-fit")
        full = check_layoff(t, parse_card("9H"), PAGAT, "S")
        assert full.code == "layoff.set-full"
        assert full.rules == ("layoff.full-set",)


def test_layoff_full_set_reached_by_laying_off() -> None:
    """`layoff.full-set`"""
    t = apply_layoff(table(("S", "9C 9S 9D", "Ada")), "S", parse_card("9H"), "Bo", PAGAT)
    verdict = check_layoff(t, JOKER, PAGAT, "S")
    assert not verdict.legal and verdict.code == "layoff.set-full"


# ---------------------------------------------------------------------------------------
# melds as they lie


def test_make_meld_reads_an_undeclared_joker_from_its_place() -> None:
    """`meld.joker`: 6♥ 7♥ 🃏 laid down in that order is 6-7-8; 🃏 6♥ 7♥ is 5-6-7."""
    assert str(make_meld("m", parse_cards("6H 7H JK"), PAGAT).reading) == "6H 7H JK=8H"
    assert str(make_meld("m", parse_cards("JK 6H 7H"), PAGAT).reading) == "JK=5H 6H 7H"
    assert str(make_meld("m", parse_cards("7H 6H JK"), PAGAT).reading) == "JK=5H 6H 7H"
    with pytest.raises(TableError) as info:
        make_meld("m", parse_cards("9S JK JK"), PAGAT)  # set or run: say which
    assert info.value.verdict is not None
    assert info.value.verdict.code == "meld.ambiguous"
    with pytest.raises(TableError):
        make_meld("m", parse_cards("9S 10H JD"), PAGAT)


def test_make_meld_with_cards_laid_by_others() -> None:
    """`layoff.owner`: a meld recorded with who laid each card."""
    meld = make_meld("m", parse_cards("8H 5H 6H 7H"), PAGAT, "Ada",
                     laid_by=["Bo", "Ada", "Ada", "Ada"])
    assert str(meld.reading) == "5H 6H 7H 8H"
    assert [meld.layer(i) for i in range(4)] == ["Ada", "Ada", "Ada", "Bo"]
    with pytest.raises(TableError):
        make_meld("m", parse_cards("5H 6H 7H"), PAGAT, "Ada", laid_by=["Ada"])


def test_table_value_behaviour() -> None:
    t = table(("A", "5H 6H 7H", "Ada"), ("B", "9C 9S 9D", "Bo"))
    assert len(t) == 2 and "A" in t and "Z" not in t
    assert [m.id for m in t] == ["A", "B"]
    assert len(t.cards()) == 6
    with pytest.raises(KeyError):
        t.get("Z")
    replaced = t.with_meld(make_meld("A", parse_cards("2C 3C 4C"), PAGAT, "Cy"))
    assert [m.id for m in replaced] == ["A", "B"] and replaced.get("A").owner == "Cy"
    assert str(t.get("A")) == "A: 5H 6H 7H"
