"""The eleven questions tables argue about (issue 29), each answered from a logged hand
with a verdict that cites the rule ids it rests on."""

from __future__ import annotations

from referee import log_answers as ask
from referee import parse_card, parse_cards
from tests.referee.logged_hands import CLUBS, DEEP_DRAW, play

FOUR = "Ann Bo Cy Dee"


def test_1_after_a_call_who_plays_next_and_who_lost_their_turn() -> None:
    """`rummy.call`: Cy calls on Ann's J♣; play goes on with Dee, Bo lost his turn."""
    log = play("pagat-500", FOUR, "Dee", "2D", CLUBS + """
        Cy rummy
        Cy meld JC QC KC
        Cy discard 5S""")
    verdict = ask.after_call(log)
    assert verdict.code == "log.call-skips" and verdict.rules == ("rummy.call",)
    assert verdict.params["player"] == "Dee" and verdict.params["players"] == ("Bo",)
    assert verdict.message == ("Cy called Rummy! on Ann's discard and took the pile down to "
                               "KC: play goes on with Dee, and Bo lost their turn.")
    bo = play("pagat-500", FOUR, "Dee", "2D", CLUBS + "Bo rummy")
    assert ask.after_call(bo).code == "log.call-skips-nobody"
    assert ask.after_call(play("pagat-500", FOUR, "Dee", "2D", CLUBS)).code == "log.no-call"


#: Ann melds 4-5-6♣ while the 3♣ lies in the pile, then discards.
OWN_MELD = """
Ann draw 4C
Ann meld 4C 5C 6C
Ann discard 9D
"""


def test_2_a_card_exposed_by_your_own_meld_is_yours_to_call_after_the_next_turn() -> None:
    """`rummy.own-meld`: Ann exposed the 3♣ with her own meld; she may not call on her own
    discard, nor once Bo has drawn, but after Bo's turn, with nobody having taken it,
    she may."""
    at_once = play("pagat-500", FOUR, "Dee", "3C", OWN_MELD)
    own = ask.may_call(at_once, "Ann")
    assert not own.legal and own.rules == ("rummy.call", "rummy.own-meld")
    assert ask.may_call(at_once, "Cy").legal
    drew = play("pagat-500", FOUR, "Dee", "3C", OWN_MELD + "Bo draw")
    assert ask.may_call(drew, "Ann").code == "rummy.too-late"
    later = play("pagat-500", FOUR, "Dee", "3C", OWN_MELD + "Bo draw\nBo discard KH")
    verdict = ask.may_call(later, "Ann")
    assert verdict.legal and verdict.code == "log.call-own-later"
    assert verdict.rules == ("rummy.call", "rummy.own-meld")
    assert verdict.params["card"] == parse_card("3C") and verdict.params["take"] == 3
    assert set(ask.calls_now(later)) == set(FOUR.split())
    assert not ask.calls_now(later)["Bo"].legal  # his own discard
    called = play("pagat-500", FOUR, "Dee", "3C", OWN_MELD + """
        Bo draw
        Bo discard KH
        Ann rummy
        Ann layoff 3C Ann-1
        Ann discard 9D""")
    assert called.calls[0].skipped == ("Cy", "Dee")
    assert called.name(called.to_play) == "Bo"


def test_3_a_card_taken_alone_last_turn_may_be_discarded_now() -> None:
    """`discard.not-same` judges the current turn only: the 7♦ taken alone may not be
    thrown back that turn, and may be on a later one."""
    took = """
        Ann draw
        Ann discard 7D
        Bo take 1"""
    now = play("pagat-500", "Ann Bo", "Bo", "2C", took)
    same = ask.may_discard(now, parse_card("7D"))
    assert not same.legal and same.code == "draw.same-discard"
    assert same.rules == ("discard.not-same",)
    assert play("pagat-500", "Ann Bo", "Bo", "2C", took + "\nBo discard 7D"
                ).steps[-1].refused == same
    later = play("pagat-500", "Ann Bo", "Bo", "2C", took + """
        Bo discard 9S
        Ann draw
        Ann discard 3H
        Bo draw""")
    verdict = ask.may_discard(later, parse_card("7D"))
    assert verdict.legal and verdict.code == "log.taken-earlier"
    assert verdict.rules == ("discard.not-same",)
    assert ask.answers(later)["may_discard"] == verdict  # the card Bo last took


def test_4_going_rummy_needs_nothing_melded_before() -> None:
    """`score.going-rummy`: Bo laid off a 10 on an earlier turn, so going out does not
    count double; going out in one turn with nothing melded before does."""
    earlier = play("basic", "Ann Bo Cy", "Cy", "9C", """
        Ann draw
        Ann meld 7S 8S 9S
        Ann discard 8D
        Bo draw
        Bo layoff 10S Ann-1
        Bo discard QD
        Cy draw
        Cy discard 2C
        Ann draw
        Ann discard 3C
        Bo draw
        Bo meld 2H 3H 4H
        Bo meld 5S 5D 5C
        Bo discard KD""")
    assert earlier.went_out == "Bo"
    verdict = ask.going_rummy(earlier)
    assert not verdict.legal and verdict.code == "log.not-going-rummy"
    assert verdict.rules == ("score.going-rummy",)
    assert verdict.params["cards"] == (parse_card("10S"),)
    at_once = play("basic", "Ann Bo Cy", "Cy", "9C", """
        Ann draw
        Ann discard 8D
        Bo draw
        Bo meld 2H 3H 4H
        Bo meld 5S 5D 5C 5H
        Bo discard KD""")
    verdict = ask.going_rummy(at_once)
    assert verdict.legal and verdict.rules == ("score.going-rummy", "score.basic")
    assert ask.going_rummy(at_once, "Ann").code == "log.not-out"
    assert ask.going_rummy(play("pagat-500", "Ann Bo", "Bo", "2C", "Ann draw")).code == (
        "log.going-rummy-basic")


def test_5_basic_reshuffles_the_first_time_and_draws_the_second() -> None:
    """`basic.stock-reshuffle`: the stock runs out: the pile becomes the new stock; when
    that runs out too, the hand is a draw."""
    first = """
        Ann draw
        Ann discard 5S"""
    log = play("basic", "Ann Bo", "Bo", "9C", first, dealt=25)
    assert log.stock == 0
    verdict = ask.stock(log)
    assert verdict.code == "log.reshuffle" and verdict.rules == ("basic.stock-reshuffle",)
    again = play("basic", "Ann Bo", "Bo", "9C", first + """
        Bo draw
        Bo discard 6S
        Ann draw
        Ann discard 7S""", dealt=25)
    assert again.steps[2].notes == ("reshuffled",) and again.stock == 0
    assert piles_of(again)[2] == ""
    verdict = ask.stock(again)
    assert verdict.code == "log.stock-empty-again"
    drawn = play("basic", "Ann Bo", "Bo", "9C", first + """
        Bo draw
        Bo discard 6S
        Ann draw
        Ann discard 7S
        Bo stock-out""", dealt=25)
    assert drawn.over == "draw" and ask.stock(drawn).code == "log.stock-empty-again"
    assert ask.stock(play("basic", "Ann Bo", "Bo", "9C", "Ann draw")).code == "log.stock-left"


def piles_of(log: object) -> list[str]:
    return [" ".join(map(str, step.pile)) for step in log.steps]  # type: ignore[attr-defined]


def test_6_calls_at_once_the_first_in_the_log_takes_the_pile() -> None:
    """`rummy.call`: Cy and Dee both call on Ann's J♣; the rule book sets no order, the
    log does: Cy's call comes first and takes the pile, Dee's is judged against the pile
    as Cy left it."""
    log = play("pagat-500", FOUR, "Dee", "2D", CLUBS + """
        Cy rummy
        Dee rummy
        Cy meld JC QC KC
        Cy discard 5S""")
    dee = log.steps[11].refused
    assert dee is not None and dee.code == "rummy.nothing"
    verdict = ask.first_call(log)
    assert verdict.code == "log.call-first" and verdict.rules == ("rummy.call",)
    assert verdict.params["caller"] == "Cy" and verdict.params["players"] == ("Dee",)
    alone = play("pagat-500", FOUR, "Dee", "2D", CLUBS + "Cy rummy")
    assert ask.first_call(alone).code == "log.call-alone"


def test_7_an_empty_stock_ends_the_hand_when_the_pile_is_not_taken() -> None:
    """`out.stock-empty`: the stock is empty; if Bo does not take from the pile, the hand
    ends; drawing from it is no move at all."""
    log = play("pagat-500", "Ann Bo", "Bo", "9C", "Ann draw\nAnn discard 5S", dealt=26)
    verdict = ask.stock(log)
    assert verdict.code == "log.stock-out-now" and verdict.rules == ("out.stock-empty",)
    assert verdict.params["player"] == "Bo"
    over = play("pagat-500", "Ann Bo", "Bo", "9C", "Ann draw\nAnn discard 5S\nBo stock-out",
                dealt=26)
    assert over.over == "stock" and ask.stock(over).code == "log.stock-out-ended"
    taken = play("pagat-500", "Ann Bo", "Bo", "9C", "Ann draw\nAnn discard 5S\nBo take 1",
                 dealt=26)
    assert ask.stock(taken).code == "log.stock-left"


def test_8_whose_turn_and_who_deals_next() -> None:
    """`turn.order`: the player left of the dealer starts and play goes clockwise; the
    deal passes to the left."""
    log = play("pagat-500", "Ann Bo Cy", "Cy", "6C", DEEP_DRAW)
    verdict = ask.whose_turn(log)
    assert verdict.code == "log.turn-draw" and verdict.rules == ("turn.order",)
    assert verdict.params == {"player": "Cy", "dealer": "Ann"}
    playing = play("pagat-500", "Ann Bo Cy", "Cy", "6C", DEEP_DRAW + "Cy draw")
    assert ask.whose_turn(playing).code == "log.turn-play"
    assert ask.whose_turn(play("pagat-500", "Ann Bo Cy", "Bo", "6C", "")).params[
        "player"] == "Cy"


def test_9_which_depth_of_the_pile_is_worth_taking() -> None:
    """`draw.deep`: with 2 4 5 8 J K K in hand, the pile 6 4 7 4 Q A can be taken down to
    the lower 4; without a hand, only the top card."""
    log = play("pagat-500", "Ann Bo Cy", "Cy", "6C", DEEP_DRAW)
    verdict = ask.pile_depths(log, parse_cards("2C 4D 5C 8C JH KS KD"))
    assert verdict.code == "log.pile-depths" and verdict.rules == ("draw.deep",)
    assert verdict.params["cards"] == (parse_card("4S"),)
    alone = ask.pile_depths(log)
    assert alone.code == "log.pile-top-only"
    assert ask.pile_depths(play("basic", "Ann Bo", "Bo", "6C", "")).rules == ("draw.basic",)


#: Ann melds 5-6-7♥; Bo goes out with the 8♥, which fits on it.
PLAYABLE_OUT = """
Ann draw
Ann meld 5H 6H 7H
Ann discard KC
Bo draw
Bo meld 2S 3S 4S 5S
Bo discard 8H
"""


def test_10_a_going_out_discard_that_was_playable() -> None:
    """`out.unplayable-discard`: under the house rule, going out with the 8♥ that fits on
    5-6-7♥ is refused; by agreement it stands and the answer says it was playable;
    without the house rule it stands; a dead card always does."""
    house = {"family": "pagat-500", "unplayable_discard": True}
    refused = play(house, "Ann Bo", "Bo", "3D", PLAYABLE_OUT, dealt=4)
    assert refused.steps[-1].refused is not None
    assert refused.steps[-1].refused.code == "out.unplayable-discard"
    assert refused.over is None
    agreed = play(house, "Ann Bo", "Bo", "3D", PLAYABLE_OUT.rstrip() + " !", dealt=4)
    assert agreed.went_out == "Bo"
    verdict = ask.out_discard(agreed)
    assert not verdict.legal and verdict.code == "log.out-discard-playable-house"
    assert verdict.rules == ("out.unplayable-discard", "out.floating")
    plain = play("pagat-500", "Ann Bo", "Bo", "3D", PLAYABLE_OUT, dealt=4)
    assert ask.out_discard(plain).code == "log.out-discard-playable"
    dead = play("pagat-500", "Ann Bo", "Bo", "3D", PLAYABLE_OUT.replace("8H", "QD"), dealt=4)
    verdict = ask.out_discard(dead)
    assert verdict.legal and verdict.code == "log.out-discard-dead"
    assert ask.out_discard(play("pagat-500", "Ann Bo", "Bo", "3D", "")).code == (
        "log.no-out-discard")


def test_11_could_the_discarder_have_melded_the_card_they_threw() -> None:
    """`rummy.call`: a discard that fits a table meld, or melds with pile cards, could
    have been melded; one that needs a card from a hand could not (as far as anyone
    else can see)."""
    layoff = play("pagat-500", "Ann Bo Cy", "Cy", "2D", """
        Ann draw
        Ann meld 7H 8H 9H
        Ann discard KS
        Bo draw
        Bo discard 6H""")
    verdict = ask.discard_meldable(layoff)
    assert verdict.code == "log.discard-layoff"
    assert verdict.rules == ("rummy.call", "layoff.basic") and verdict.params["meld"] == "Ann-1"
    clubs = play("pagat-500", FOUR, "Dee", "2D", CLUBS)
    verdict = ask.discard_meldable(clubs)
    assert verdict.code == "log.discard-meld" and verdict.rules == ("rummy.call",)
    assert sorted(map(str, verdict.params["cards"])) == ["JC", "KC", "QC"]  # type: ignore[arg-type]
    dead = play("pagat-500", "Ann Bo Cy", "Cy", "6C", DEEP_DRAW)
    assert ask.discard_meldable(dead).code == "log.discard-dead"
