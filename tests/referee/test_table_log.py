"""The played-hand log: a hand replayed move by move from the deal knows the pile, the
stock, whose turn it is and what each player melded when; a move a rule refuses is not
played (its step says why, with the rule's verdict) unless the table agreed to it; a log
that cannot be a hand is a LogError that says which move and why.  RULES.md §5's deep
draw and §6's calls, played as logged hands."""

from __future__ import annotations

import pytest

from referee import parse_card, parse_cards
from referee.log import LogError
from tests.referee.logged_hands import CLUBS, DEEP_DRAW, play

CARD = parse_card


def piles(log: object) -> list[str]:
    return [" ".join(map(str, step.pile)) for step in log.steps]  # type: ignore[attr-defined]


# ---- RULES.md §5: the deep draw ---------------------------------------------------------

def test_the_worked_deep_draw_as_a_logged_hand() -> None:
    """`draw.deep`: 6 4 7 4 Q A in the pile; Cy takes everything from the lower 4 up,
    melds 4 4 4 at once and keeps the rest; only the 6 stays in the pile, and the log
    knows the pile at every step and who melded what when."""
    log = play("pagat-500", "Ann Bo Cy", "Cy", "6C", DEEP_DRAW + """
        Cy take 5
        Cy meld 4S 4H 4D
        Cy discard 2C""")
    assert piles(log)[9] == "6C 4S 7D 4H QS AD"
    assert piles(log)[10] == "6C"
    assert piles(log)[-1] == "6C 2C"
    assert all(step.refused is None for step in log.steps)
    (meld,) = log.played
    assert (meld.step, meld.player, meld.meld_id) == (11, "Cy", "Cy-1")
    assert [str(c) for c in meld.cards] == ["4S", "4H", "4D"]
    assert log.held == [7, 7, 7 + 5 - 3 - 1]
    assert log.name(log.to_play) == "Ann"  # turn.order: clockwise, Cy's left


def test_taking_the_pile_without_melding_the_deepest_card_is_refused() -> None:
    """`draw.deep`: the turn that took down to the 4♠ and did not meld it is refused at its
    discard, with the rule's reason; the table then melds it and the log goes on."""
    log = play("pagat-500", "Ann Bo Cy", "Cy", "6C", DEEP_DRAW + """
        Cy take 5
        Cy discard 2C
        Cy meld 4S 4H 4D
        Cy discard 2C""")
    refused = log.steps[11].refused
    assert refused is not None and refused.code == "log.deep-not-melded"
    assert refused.rules == ("draw.deep",) and "4S" in refused.message
    assert piles(log)[11] == "6C"  # nothing was played
    assert log.steps[-1].refused is None and piles(log)[-1] == "6C 2C"


def test_the_deepest_card_taken_is_never_the_discard() -> None:
    """`discard.not-same`: the deepest card taken is not discarded (check_draw's verdict);
    the card that had been on top may be."""
    refused = play("pagat-500", "Ann Bo Cy", "Cy", "6C", DEEP_DRAW + """
        Cy take 5
        Cy meld 4H 4D JK
        Cy discard 4S""").steps[-1].refused
    assert refused is not None and refused.code == "draw.deepest-discard"
    assert refused.rules == ("discard.not-same", "draw.deep")
    top = play("pagat-500", "Ann Bo Cy", "Cy", "6C", DEEP_DRAW + """
        Cy take 5
        Cy meld 4S 4H 4D
        Cy discard AD""")
    assert top.steps[-1].refused is None


def test_deep_draw_new_meld_refuses_a_lay_off_unless_agreed() -> None:
    """`draw.deep-new-meld`: the deepest card taken laid off instead of starting a new meld
    is refused; the table may agree to it, and the log says it overrode the rule."""
    hand = """
        Ann draw
        Ann meld 5H 6H 7H
        Ann discard 2S
        Bo draw
        Bo discard 8H
        Ann draw
        Ann discard KC
        Bo take 2
        Bo layoff 8H Ann-1
        Bo discard 9D"""
    log = play({"family": "pagat-500", "deep_draw_new_meld": True}, "Ann Bo", "Bo", "3D",
               hand, dealt=7)
    refused = log.steps[-1].refused
    assert refused is not None and refused.rules == ("draw.deep", "draw.deep-new-meld")
    agreed = play({"family": "pagat-500", "deep_draw_new_meld": True}, "Ann Bo", "Bo", "3D",
                  hand + " !", dealt=7)
    assert agreed.steps[-1].refused is None
    assert agreed.steps[-1].overridden is not None
    assert agreed.steps[-1].overridden.code == "log.deep-laid-off"
    assert piles(agreed)[-1] == "3D 2S 9D"


def test_basic_rummy_takes_the_top_card_only() -> None:
    """`draw.basic`: taking two cards is refused in Basic Rummy."""
    log = play("basic", "Ann Bo", "Bo", "3D", """
        Ann draw
        Ann discard 2S
        Bo take 2""")
    refused = log.steps[-1].refused
    assert refused is not None and refused.rules == ("draw.basic",)


def test_one_meld_per_turn() -> None:
    """`meld.once-per-turn`: a second new meld in one turn is refused."""
    log = play({"family": "pagat-500", "one_meld_per_turn": True}, "Ann Bo", "Bo", "3D", """
        Ann draw
        Ann meld 5H 6H 7H
        Ann meld 9S 9D 9C""", dealt=7)
    assert log.steps[-1].refused is not None
    assert log.steps[-1].refused.rules == ("meld.once-per-turn",)


def test_an_illegal_meld_is_refused_even_by_agreement() -> None:
    """`meld.run`: a meld that is none cannot lie on the table, agreed or not."""
    log = play("pagat-500", "Ann Bo", "Bo", "3D", """
        Ann draw
        Ann meld 5H 6H 8H !""", dealt=7)
    assert log.steps[-1].refused is not None and log.steps[-1].overridden is None
    assert "meld.run" in log.steps[-1].refused.rules and not log.played


# ---- RULES.md §6: "Rummy!" ----------------------------------------------------------------


def test_the_worked_call_takes_everything_from_the_king_up() -> None:
    """`rummy.call`: after J♣, anyone but Ann may call and take everything from the K♣ up;
    Cy calls, melds J-Q-K♣ and discards: play goes on from Cy's left, and Bo, between
    Ann and Cy, lost his turn."""
    log = play("pagat-500", "Ann Bo Cy Dee", "Dee", "2D", CLUBS + """
        Cy rummy
        Cy meld JC QC KC
        Cy discard 5S""")
    assert piles(log)[10] == "2D"
    assert piles(log)[-1] == "2D 5S"
    (call,) = log.calls
    assert (call.caller, call.discarder, str(call.card), call.take) == ("Cy", "Ann", "KC", 5)
    assert call.skipped == ("Bo",)
    assert log.name(log.to_play) == "Dee"


def test_the_discarder_cannot_call_on_their_own_discard() -> None:
    """`rummy.call`, `rummy.own-meld`: Ann's own call on her J♣ is refused, and nothing is
    taken."""
    log = play("pagat-500", "Ann Bo Cy Dee", "Dee", "2D", CLUBS + "Ann rummy")
    refused = log.steps[-1].refused
    assert refused is not None and refused.code == "rummy.own-discard"
    assert refused.rules == ("rummy.call", "rummy.own-meld")
    assert piles(log)[-1] == "2D KC 5S QC 9H JC"


def test_a_call_after_the_next_player_drew_is_too_late() -> None:
    """`rummy.call`: before the next player draws, not after."""
    log = play("pagat-500", "Ann Bo Cy Dee", "Dee", "2D", CLUBS + """
        Bo draw
        Cy rummy""")
    assert log.steps[-1].refused is not None
    assert log.steps[-1].refused.code == "rummy.too-late"


def test_the_called_card_must_be_melded() -> None:
    """`rummy.call`: the caller melds the card concerned that turn."""
    log = play("pagat-500", "Ann Bo Cy Dee", "Dee", "2D", CLUBS + """
        Cy rummy
        Cy discard 5S""")
    refused = log.steps[-1].refused
    assert refused is not None and refused.code == "log.called-not-melded"
    assert refused.rules == ("rummy.call",)


def test_a_top_call_goes_back_to_the_player_whose_turn_it_was() -> None:
    """`rummy.mode` = top: the caller takes the discard alone and lays it off; play goes on
    with the player whose turn it was, and nobody loses a turn."""
    log = play({"family": "pagat-500", "rummy_call": "top"}, "Ann Bo Cy", "Cy", "2D", """
        Ann draw
        Ann meld 7H 8H 9H
        Ann discard KS
        Bo draw
        Bo discard 6H
        Ann rummy
        Ann layoff 6H Ann-1
        Cy draw""")
    assert all(step.refused is None for step in log.steps)
    assert [str(c) for c in log.table.get("Ann-1").cards] == ["6H", "7H", "8H", "9H"]
    assert log.calls[0].skipped == ()


def test_a_top_call_whose_card_fits_nowhere_stays_refused_even_by_agreement() -> None:
    """`rummy.mode` = top, `layoff.basic`: the called card laid off where it does not fit
    cannot lie there, agreed or not; the caller still owes the lay-off."""
    log = play({"family": "pagat-500", "rummy_call": "top"}, "Ann Bo Cy", "Cy", "2D", """
        Ann draw
        Ann meld 7H 8H 9H
        Ann discard KS
        Bo draw
        Bo meld 2C 3C 4C
        Bo discard 6H
        Ann rummy
        Ann layoff 6H Bo-1 !""")
    assert log.steps[-1].refused is not None and log.steps[-1].overridden is None
    assert log.top_call is not None and log.steps[-1].to_play == "Ann"


# ---- what cannot be a log -------------------------------------------------------------------

@pytest.mark.parametrize(("log", "code", "rule"), [
    ("Bo draw", "out-of-turn", "turn.order"),
    ("Ann discard 5S", "draw-first", "turn.order"),
    ("Ann draw\nAnn draw", "drew-already", "turn.order"),
    ("Ann draw\nAnn discard 6C", "too-many-copies", "cards.copies"),
    ("Ann draw\nAnn discard JK", "no-jokers", "cards.deck"),
    ("Zed draw", "unknown-player", "cards.players"),
    ("Ann take 2", "take-too-deep", "draw.deep"),
    ("Ann draw\nAnn meld 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS\nAnn meld 2H 3H 4H",
     "more-than-held", "cards.deal"),
    ("Ann stock-out", "stock-not-empty", "out.stock-empty"),
])
def test_a_move_the_log_cannot_hold_is_a_log_error(log: str, code: str, rule: str) -> None:
    """`turn.order`, `cards.copies`, `cards.deck`, `cards.deal`: out of turn, a card the
    decks do not hold, more cards than the player holds: the error names the move."""
    with pytest.raises(LogError) as caught:
        play("rummy-500", "Ann Bo", "Bo", "6C", log)
    assert caught.value.code == code
    assert rule in caught.value.verdict.rules
    assert str(caught.value).startswith(f"move {log.count(chr(10)) + 1}: ")


def test_a_hand_known_card_by_card_plays_no_other() -> None:
    """`cards.deal`: Bo's last card is the K♣ he took from the pile: he cannot go out
    with cards he does not hold."""
    with pytest.raises(LogError) as caught:
        play("pagat-500", "Ann Bo", "Bo", "3D", """
            Ann draw
            Ann meld 5H 6H 7H
            Ann discard KC
            Bo take 1
            Bo meld 2S 3S 4S 5S
            Bo discard 8H""", dealt=4)
    assert caught.value.code == "not-held" and caught.value.step == 5
    assert caught.value.verdict.params["cards"] == (CARD("KC"),)


def test_no_move_after_the_hand_is_over() -> None:
    """`out.empty-hand`: going out ends the hand at once."""
    with pytest.raises(LogError) as caught:
        play("pagat-500", "Ann Bo", "Bo", "3D", """
            Ann draw
            Ann meld 5H 6H 7H
            Ann discard KC
            Bo draw""", dealt=3)
    assert caught.value.code == "hand-over"
    assert caught.value.verdict.rules == ("out.empty-hand",)


def test_floating_keeps_the_hand_going() -> None:
    """`out.floating`: a player who melds every card floats; on their next turn they draw
    and discard it, ending the hand."""
    log = play({"family": "pagat-500", "floating": True}, "Ann Bo", "Bo", "3D", """
        Ann draw
        Ann meld 5H 6H 7H 8H
        Bo draw
        Bo discard 2C
        Ann draw
        Ann discard KD""", dealt=3)
    assert log.steps[1].notes == ("floats",)
    assert log.over == "out" and log.went_out == "Ann"
    assert [str(c) for c in parse_cards("5H 6H 7H 8H")] == [
        str(c) for c in log.table.get("Ann-1").cards]
