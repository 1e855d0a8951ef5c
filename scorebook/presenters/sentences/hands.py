"""The wording of the hands sentences (see :mod:`scorebook.presenters.sentences`): why
a hand, a live move or a referee question was refused (:class:`scorebook.services.entry.
HandError` and its conflicts, raised by :mod:`scorebook.services.entry`,
:mod:`scorebook.services.hands` and :mod:`scorebook.services.questions`).

Names are isolated from the text around them, cards shown with their suit symbols, a
meld by its owner and number (“Ann's meld 2”), a hand's scores with their signs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from flask_babel import gettext, ngettext

from scorebook.presenters.bidi import isolate
from scorebook.presenters.cards import card_label, card_notation, not_a_card, typed
from scorebook.presenters.changes import action_name, phone_name
from scorebook.presenters.i18n import number, signed_number
from scorebook.presenters.sentences import words
from scorebook.presenters.wording import (
    error_text,
    explain,
    meld_name,
    meld_phrase,
    param_text,
    word_list,
)
from scorebook.services.entry import END_WORDS

# --- helpers: the parameters as the sentences show them ----------------------------------


def end_word(end: str) -> str:
    """The word a typed lay-off ends with for an ace laid ``low`` or ``high`` on a run
    2…K (``ah 1 high``), in the page's language."""
    # Translators: typed after a lay-off (“ah 1 low”): the ace went below the two
    return gettext("low") if end == "low" else gettext("high")


def end_words() -> dict[str, str]:
    """The words a typed lay-off may end with to say where an ace went, by the end they
    say: English, and the page's language (``entry_from_text(..., ends=end_words())``)."""
    ends = dict(END_WORDS)
    for end in ("low", "high"):
        ends[end_word(end).lower()] = end
    return ends


def end_names() -> dict[str, str]:
    """Each end of a run by its word in the page's language (``entry_texts(..., ends=)``)."""
    return {end: end_word(end) for end in ("low", "high")}


def scores_text(scores: Sequence[tuple[str, int]]) -> str:
    """``Ann +40, Ben −12``: a hand's scores (``services.hands.hand_scores``), as a page
    says them."""
    return ", ".join(f"{name} {signed_number(score)}" for name, score in scores)


def _meld_in(p: Mapping[str, Any], role: Literal["on", "of"]) -> str:
    """The meld a sentence is about, inside the sentence (:func:`meld_phrase`): ``on``
    (laid off on it) or ``of`` (its ends)."""
    if "owner" in p:
        return meld_phrase(p["owner"], p["index"] + 1, role=role)
    return meld_phrase(None, None, p["meld"], role=role)


# --- a verdict of the referee, and text that has one wording only -------------------------


@words("hand.verdict")
def _verdict(p: Mapping[str, Any]) -> str:
    return explain(p["verdict"])


@words("hand.impossible")
def _impossible(p: Mapping[str, Any]) -> str:
    return error_text(p["error"])


@words("hand.as-is")
def _as_is(p: Mapping[str, Any]) -> str:
    return str(p["text"])


@words("referee.too-many-ways")
def _too_many_ways(p: Mapping[str, Any]) -> str:
    return gettext("These cards can be arranged in too many ways for the referee to check "
                   "them in time. Ask about fewer cards at once.")


@words("referee.arrange-best-found")
def _arrange_best_found(p: Mapping[str, Any]) -> str:
    # the best arrangement found within the search's CPU time, not proven best (see
    # referee.arrange.ARRANGE_CPU_S): how much better another could be, at most
    if p["more"] > 0:
        return str(ngettext(
            "The referee stopped looking after %(ms)s milliseconds of computing, so this "
            "is the best arrangement it found: another might meld up to %(points)s more "
            "point.",
            "The referee stopped looking after %(ms)s milliseconds of computing, so this "
            "is the best arrangement it found: another might meld up to %(points)s more "
            "points.",
            p["more"], ms=number(p["ms"]), points=number(p["more"])))
    return gettext("The referee stopped looking after %(ms)s milliseconds of computing: no "
                   "arrangement melds more points, but one with fewer melds or fewer points "
                   "left in the hand might exist.", ms=number(p["ms"]))


# --- reading what was sent ----------------------------------------------------------------


@words("hand.unreadable")
def _unreadable(p: Mapping[str, Any]) -> str:
    return gettext("The hand could not be read; please try again.")


@words("hand.not-a-card")
def _not_a_card(p: Mapping[str, Any]) -> str:
    return not_a_card(p["token"], card_notation(p.get("notation")))


@words("hand.points-missing")
def _points_missing(p: Mapping[str, Any]) -> str:
    return gettext("Enter the points %(name)s scored in this hand (0 if none).",
                   name=isolate(p["name"]))


@words("hand.points-not-a-number")
def _points_not_a_number(p: Mapping[str, Any]) -> str:
    return gettext("“%(text)s” is not a whole number of points from %(low)s to %(high)s.",
                   text=p["text"], low=signed_number(-p["most"]), high=p["most"])


@words("hand.held-not-a-number")
def _held_not_a_number(p: Mapping[str, Any]) -> str:
    return gettext("“%(text)s” is not a whole number of points from 1 to %(high)s.",
                   text=p["text"], high=p["most"])


@words("hand.held-with-cards")
def _held_with_cards(p: Mapping[str, Any]) -> str:
    return gettext("Enter either the cards left in %(name)s's hand or their points, not "
                   "both.", name=isolate(p["name"]))


@words("hand.not-a-player")
def _not_a_player(p: Mapping[str, Any]) -> str:
    return gettext("“%(who)s” is not one of the players.", who=p["who"])


@words("hand.which-meld")
def _which_meld(p: Mapping[str, Any]) -> str:
    return gettext("Say which of %(name)s's melds %(card)s went on, e.g. “%(card)s %(name)s 1”.",
                   name=p["name"], card=card_label(p["card"]))


@words("hand.no-such-meld")
def _no_such_meld(p: Mapping[str, Any]) -> str:
    return gettext("%(name)s has no meld %(number)s.", name=p["name"], number=p["number"])


@words("hand.bad-key")
def _bad_key(p: Mapping[str, Any]) -> str:
    return gettext("The key sent with this hand is not valid; reload the page and save again.")


@words("hand.version-required")
def _version_required(p: Mapping[str, Any]) -> str:
    return gettext("Send the version of the hand you read (its “version”), so that a change "
                   "meant for another version cannot land on it.")


# --- the referee's check of a hand ----------------------------------------------------------


@words("hand.players-mismatch")
def _players_mismatch(p: Mapping[str, Any]) -> str:
    return gettext("The hand must list exactly the players of this game: %(names)s.",
                   names=", ".join(isolate(n) for n in p["names"]))


@words("hand.no-cards")
def _no_cards(p: Mapping[str, Any]) -> str:
    return gettext("No cards were entered, so there is no hand to save. Enter every player's "
                   "cards: what they put down, laid off and were left holding.")


@words("hand.say-ending")
def _say_ending(p: Mapping[str, Any]) -> str:
    return gettext("Say how the hand ended.")


@words("hand.say-ending-or-draw")
def _say_ending_or_draw(p: Mapping[str, Any]) -> str:
    return gettext("Say how the hand ended. Choose who went out, or that it was a draw.")


@words("hand.say-ending-or-stock-out")
def _say_ending_or_stock_out(p: Mapping[str, Any]) -> str:
    return gettext("Say how the hand ended. Choose who went out, or that the stock ran out.")


@words("hand.say-who-went-out")
def _say_who_went_out(p: Mapping[str, Any]) -> str:
    return gettext("Say who went out.")


@words("hand.nobody-went-out")
def _nobody_went_out(p: Mapping[str, Any]) -> str:
    return gettext("Nobody went out if the hand ended that way.")


@words("hand.going-rummy-not-out")
def _going_rummy_not_out(p: Mapping[str, Any]) -> str:
    return gettext("Only the player who went out in Basic Rummy can go Rummy.")


@words("hand.out-holding-cards")
def _out_holding_cards(p: Mapping[str, Any]) -> str:
    return gettext("%(name)s went out, so no cards can be left in their hand.",
                   name=isolate(p["name"]))


@words("hand.holds-no-cards")
def _holds_no_cards(p: Mapping[str, Any]) -> str:
    """``out.empty-hand``: a player left with no cards would have ended the hand."""
    return gettext("%(name)s has no cards left but did not go out: enter the cards still in "
                   "that hand, or choose who went out.", name=isolate(p["name"]))


@words("hand.fewer-than-dealt")
def _fewer_than_dealt(p: Mapping[str, Any]) -> str:
    """RULES.md §10 "Fewer cards than dealt": the player, the count and the deal."""
    return str(ngettext("%(name)s has %(num)s card; %(dealt)s were dealt.",
                        "%(name)s has %(num)s cards; %(dealt)s were dealt.", p["count"],
                        name=isolate(p["name"]), dealt=p["dealt"]))


@words("hand.meld-name-too-long")
def _meld_name_too_long(p: Mapping[str, Any]) -> str:
    return gettext("A meld's name can be at most %(max)s characters long.", max=p["max"])


@words("hand.meld-names-twice")
def _meld_names_twice(p: Mapping[str, Any]) -> str:
    return gettext("Two melds have the same name.")


@words("hand.say-jokers")
def _say_jokers(p: Mapping[str, Any]) -> str:
    return gettext("Say which card each joker stands for; it could be: %(readings)s.",
                   readings=param_text("readings", p["readings"]))


@words("hand.say-ace-end")
def _say_ace_end(p: Mapping[str, Any]) -> str:
    return gettext("Say whether the ace lies at the low end (A-2-3…) or at the high end "
                   "(…Q-K-A); it could be: %(readings)s.",
                   readings=param_text("readings", p["readings"]))


@words("hand.layoff-off-table")
def _layoff_off_table(p: Mapping[str, Any]) -> str:
    return gettext("%(card)s is laid off on a meld that is not on the table.",
                   card=p["card"].pretty())


@words("hand.layoff-joker-unsaid")
def _layoff_joker_unsaid(p: Mapping[str, Any]) -> str:
    return gettext("Say which card the joker laid off %(on_meld)s stands for (e.g. %(joker)s).",
                   on_meld=_meld_in(p, "on"), joker=typed("JK=8H").upper())


@words("hand.layoff-end-on-set")
def _layoff_end_on_set(p: Mapping[str, Any]) -> str:
    return gettext("%(card)s is laid off %(on_meld)s, a set: a set has no low or high end.",
                   card=p["card"].pretty(), on_meld=_meld_in(p, "on"))


@words("hand.layoff-not-at-low-end")
def _layoff_not_at_low_end(p: Mapping[str, Any]) -> str:
    return gettext("%(card)s cannot be laid off at the low end %(of_meld)s.",
                   card=p["card"].pretty(), of_meld=_meld_in(p, "of"))


@words("hand.layoff-not-at-high-end")
def _layoff_not_at_high_end(p: Mapping[str, Any]) -> str:
    return gettext("%(card)s cannot be laid off at the high end %(of_meld)s.",
                   card=p["card"].pretty(), of_meld=_meld_in(p, "of"))


@words("hand.layoff-not-on-meld")
def _layoff_not_on_meld(p: Mapping[str, Any]) -> str:
    return gettext("%(card)s cannot be laid off %(on_meld)s.", card=p["card"].pretty(),
                   on_meld=_meld_in(p, "on"))


@words("hand.layoffs-impossible")
def _layoffs_impossible(p: Mapping[str, Any]) -> str:
    return gettext("These lay-offs cannot all be made on the melds given.")


# --- a hand given as points ------------------------------------------------------------------


@words("hand.points-out-of-range")
def _points_out_of_range(p: Mapping[str, Any]) -> str:
    return gettext("%(name)s's points are more than one hand can score: at most %(most)s "
                   "either way.", name=isolate(p["name"]), most=p["most"])


@words("hand.points-too-many")
def _points_too_many(p: Mapping[str, Any]) -> str:
    return gettext("Together these points are worth more than every card in play "
                   "(%(most)s): check them.", most=p["most"])


@words("hand.went-out-below-zero")
def _went_out_below_zero(p: Mapping[str, Any]) -> str:
    return gettext("%(name)s went out, holding no cards, so their points cannot be below "
                   "zero.", name=isolate(p["name"]))


@words("hand.draw-scores-nothing")
def _draw_scores_nothing(p: Mapping[str, Any]) -> str:
    return gettext("Nobody scores in a draw: every player's points must be 0.")


@words("hand.only-winner-scores")
def _only_winner_scores(p: Mapping[str, Any]) -> str:
    return gettext("In Basic Rummy only the player who went out scores: %(name)s's points "
                   "must be 0.", name=isolate(p["name"]))


@words("hand.going-rummy-odd")
def _going_rummy_odd(p: Mapping[str, Any]) -> str:
    return gettext("Going Rummy doubles the points, so %(name)s's points must be an even "
                   "number.", name=isolate(p["name"]))


# --- recording, changing and deleting: the game and the other phones ------------------------


@words("hand.game-over")
def _game_over(p: Mapping[str, Any]) -> str:
    return gettext("This game is over: no more hands can be recorded.")


@words("hand.just-recorded")
def _just_recorded(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s was just recorded (on another phone?). Here it is.",
                   number=p["number"])


@words("hand.being-recorded-live")
def _being_recorded_live(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s is being recorded live; finish it there.",
                   number=p["number"])


@words("hand.not-yet")
def _not_yet(p: Mapping[str, Any]) -> str:
    return gettext("There is no hand %(number)s to record yet.", number=p["number"])


@words("hand.game-changed")
def _game_changed(p: Mapping[str, Any]) -> str:
    return gettext("The game changed on another phone at that moment; nothing was saved. "
                   "Please try again.")


@words("hand.renumbered")
def _renumbered(p: Mapping[str, Any]) -> str:
    return gettext("The hands were renumbered on another phone (a hand before this one was "
                   "deleted): the hand you opened as hand %(number)s is now hand %(now)s. "
                   "Nothing was changed. Here it is as it is now.",
                   number=p["number"], now=p["now"])


@words("hand.deleted-and-renumbered")
def _deleted_and_renumbered(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s was deleted on another phone, and the later hands were "
                   "renumbered: the hand numbered %(number)s now is another one. Nothing was "
                   "changed. Here is hand %(number)s as it is now.", number=p["number"])


@words("hand.deleted")
def _deleted(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s was deleted on another phone. Nothing was changed.",
                   number=p["number"])


@words("hand.deleted-since-sent")
def _deleted_since_sent(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s was stored when it was first sent, then deleted on "
                   "another phone: it is not stored again.", number=p["number"])


@words("hand.not-found")
def _not_found(p: Mapping[str, Any]) -> str:
    return gettext("There is no hand %(number)s.", number=p["number"])


@words("hand.not-as-read")
def _not_as_read(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s is not as you read it: it was changed since, or a hand "
                   "before it was deleted and the hands were renumbered. Nothing was changed. "
                   "Here is hand %(number)s as it is now.", number=p["number"])


@words("hand.changed-since")
def _changed_since(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s was changed (on another phone?) since you opened it. "
                   "Here it is now.", number=p["number"])


@words("hand.changed-at-once")
def _changed_at_once(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s was changed (on another phone?) at the same moment. "
                   "Here it is now.", number=p["number"])


# --- the live hand -----------------------------------------------------------------------------


@words("hand.just-started")
def _just_started(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s was just started on another phone.", number=p["number"])


@words("hand.saved-elsewhere")
def _saved_elsewhere(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s was saved on another phone: %(scores)s.",
                   number=p["number"], scores=scores_text(p["scores"]))


@words("hand.cancelled-elsewhere")
def _cancelled_elsewhere(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s was cancelled on another phone; nothing of it was kept.",
                   number=p["number"])


@words("hand.live-cancelled")
def _live_cancelled(p: Mapping[str, Any]) -> str:
    return gettext("The live hand was cancelled on another phone; nothing of it was kept.")


@words("hand.who-melded")
def _who_melded(p: Mapping[str, Any]) -> str:
    return gettext("Choose who put the meld down.")


@words("hand.who-laid-off")
def _who_laid_off(p: Mapping[str, Any]) -> str:
    return gettext("Choose who laid the card off.")


@words("hand.live-not-a-card")
def _live_not_a_card(p: Mapping[str, Any]) -> str:
    return not_a_card(p["token"], card_notation(p.get("notation")))


@words("hand.tap-cards")
def _tap_cards(p: Mapping[str, Any]) -> str:
    return gettext("Tap the meld's cards first.")


@words("hand.card-on-table")
def _card_on_table(p: Mapping[str, Any]) -> str:
    """A live move's card that is on the table already, every copy of it in play: who
    put it there and how (``plays``: name, meld label, laid off)."""
    card = p["card"].pretty()
    plays = p["plays"]
    if len(plays) == 1:
        name, label, laid_off = plays[0]
        if laid_off:
            return gettext("%(name)s already laid off %(card)s on %(meld)s (on another "
                           "phone?), and there is no other %(card)s in play.",
                           name=isolate(name), card=card, meld=meld_name(label))
        return gettext("%(name)s already melded %(card)s in %(meld)s (on another phone?), "
                       "and there is no other %(card)s in play.",
                       name=isolate(name), card=card, meld=meld_name(label))
    said = [gettext("%(name)s laid one off on %(meld)s", name=isolate(name),
                    meld=meld_name(label)) if laid_off else
            gettext("%(name)s melded one in %(meld)s", name=isolate(name),
                    meld=meld_name(label))
            for name, label, laid_off in plays]
    return gettext("Every %(card)s in play is on the table already: %(plays)s.",
                   card=card, plays=word_list(said))


@words("hand.meld-gone")
def _meld_gone(p: Mapping[str, Any]) -> str:
    return gettext("That meld is no longer on the table (taken back on another phone?): "
                   "choose the meld the card went on.")


@words("hand.ace-either-end")
def _ace_either_end(p: Mapping[str, Any]) -> str:
    return gettext("%(card)s fits at both ends %(of_meld)s: say whether it goes at the low "
                   "end, below the two (worth %(low)s), or at the high end, above the king "
                   "(worth 15).", card=p["card"].pretty(), of_meld=_meld_in(p, "of"), low=p["low"])


@words("hand.say-joker")
def _say_joker(p: Mapping[str, Any]) -> str:
    return gettext("Say which card the joker stands for (e.g. %(joker)s).",
                   joker=typed("JK=8H").upper())


@words("hand.undo-overtaken")
def _undo_overtaken(p: Mapping[str, Any]) -> str:
    return gettext("Another phone recorded a move after the one you meant, so nothing was "
                   "taken back. Look at the table: “%(take_back)s” now means its last move.",
                   take_back=gettext("Take back the last meld or lay-off"))


@words("hand.cancel-overtaken")
def _cancel_overtaken(p: Mapping[str, Any]) -> str:
    return gettext("Another phone has just recorded a move in hand %(number)s, so it was not "
                   "thrown away. Look at the table, then decide again.", number=p["number"])


@words("hand.cancel-unconfirmed")
def _cancel_unconfirmed(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s holds moves: tick the box to say they should be thrown "
                   "away.", number=p["number"])


# --- undo at the table (scorebook.services.hands.undo_step) --------------------------------


def _phone(p: Mapping[str, Any]) -> str:
    return phone_name(str(p.get("device") or ""), str(p.get("player") or ""))


@words("undo.not-found")
def _undo_not_found(p: Mapping[str, Any]) -> str:
    return gettext("There is nothing to undo here.")


@words("undo.done-already")
def _undo_done_already(p: Mapping[str, Any]) -> str:
    return gettext("This was already undone, by %(phone)s. Nothing else was changed.",
                   phone=_phone(p))


@words("undo.too-late")
def _undo_too_late(p: Mapping[str, Any]) -> str:
    return ngettext("It is too late to undo this: a change can be undone for %(num)s minute "
                    "after it. Nothing was changed; edit the hand instead.",
                    "It is too late to undo this: a change can be undone for %(num)s "
                    "minutes after it. Nothing was changed; edit the hand instead.",
                    p["minutes"])


@words("undo.overtaken")
def _undo_overtaken_by(p: Mapping[str, Any]) -> str:
    what = action_name(str(p["action"]))
    if p.get("number"):
        return gettext("Nothing was undone: the game changed since (%(what)s, hand "
                       "%(number)s, on %(phone)s). Look at it as it is now.",
                       what=what, number=p["number"], phone=_phone(p))
    return gettext("Nothing was undone: the game changed since (%(what)s, on %(phone)s). "
                   "Look at it as it is now.", what=what, phone=_phone(p))


@words("undo.hand-gone")
def _undo_hand_gone(p: Mapping[str, Any]) -> str:
    return gettext("Nothing was undone: that hand is no longer in the game.")


@words("undo.hand-changed")
def _undo_hand_changed(p: Mapping[str, Any]) -> str:
    return gettext("Nothing was undone: hand %(number)s was changed since on another phone.",
                   number=p["number"])


# --- the played hand: a live hand logged turn by turn (scorebook.services.played) --------


@words("played.log-the-move")
def _played_log_the_move(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s is logged turn by turn: log this meld or lay-off as a "
                   "move of the player's turn (or take back the log's last move).",
                   number=p["number"])


@words("played.none")
def _played_none(p: Mapping[str, Any]) -> str:
    return gettext("No hand of this game is being logged turn by turn.")


@words("played.unknown-player")
def _played_unknown_player(p: Mapping[str, Any]) -> str:
    return gettext("%(player)s does not play in this game.", player=isolate(p["player"]))


@words("played.started-already")
def _played_started_already(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s is already being logged, with %(card)s turned up first: "
                   "nothing was changed.", number=p["number"], card=p["card"].pretty())


@words("played.moves-already")
def _played_moves_already(p: Mapping[str, Any]) -> str:
    return gettext("Hand %(number)s already holds melds or lay-offs recorded without its "
                   "turns, so it cannot be logged turn by turn now.", number=p["number"])


@words("played.overtaken")
def _played_overtaken(p: Mapping[str, Any]) -> str:
    return str(ngettext("Another phone logged a move first (%(player)s's): the log now holds "
                    "%(num)s move, not %(length)s. Yours was not logged; look at the table, "
                    "then log it again if it still stands.",
                    "Another phone logged a move first (%(player)s's): the log now holds "
                    "%(num)s moves, not %(length)s. Yours was not logged; look at the table, "
                    "then log it again if it still stands.",
                    p["count"], player=isolate(p["player"]), length=p["length"]))


@words("played.undone-since")
def _played_undone_since(p: Mapping[str, Any]) -> str:
    return str(ngettext("Another phone took a move back: the log now holds %(num)s move, not "
                    "%(length)s. Nothing was logged or taken back; look at the table first.",
                    "Another phone took a move back: the log now holds %(num)s moves, not "
                    "%(length)s. Nothing was logged or taken back; look at the table first.",
                    p["count"], length=p["length"]))


@words("played.nothing-to-undo")
def _played_nothing_to_undo(p: Mapping[str, Any]) -> str:
    return gettext("The log holds no move to take back.")


@words("played.bad-move")
def _played_bad_move(p: Mapping[str, Any]) -> str:
    return gettext("That move cannot be read: %(message)s", message=p["message"])
