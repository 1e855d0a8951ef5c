"""The wording of the exports sentences (see :mod:`scorebook.presenters.sentences`):
what a league import refuses and why, and the CSV files' column names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from referee.rules import FAMILY_NAMES
from scorebook.presenters.bidi import isolate
from scorebook.presenters.i18n import day
from scorebook.presenters.sentences import say, say_all, words
from scorebook.presenters.wording import ending_label, explain, rules_error_text
from scorebook.services.entry import Problem

P = Mapping[str, Any]

# --- where in the file ---------------------------------------------------------------------


@words("exports.in-game")
def _in_game(p: P) -> str:
    return gettext("Game %(game)s in the file: %(problem)s", game=p["game"],
                   problem=say_all(p["problem"]))


@words("exports.in-hand")
def _in_hand(p: P) -> str:
    return gettext("Game %(game)s in the file, hand %(number)s: %(problem)s", game=p["game"],
                   number=p["number"], problem=say_all(p["problem"]))


def _meld_name(owner: str, index: int) -> str:
    return gettext("%(name)s's meld %(number)s", name=isolate(owner), number=index + 1)


@words("exports.problem")
def _problem(p: P) -> str:
    """A referee problem of a hand (:class:`Problem`), with the meld or player it is
    about."""
    problem: Problem = p["problem"]
    if problem.player is None:
        return say(problem.sentence)
    where = (_meld_name(problem.player, problem.index)
             if problem.field == "melds" and problem.index is not None else problem.player)
    return gettext("%(where)s: %(problem)s", where=where, problem=say(problem.sentence))


@words("exports.csv-ending")
def _csv_ending(p: P) -> str:
    """How a hand ended, in the CSV's "ending" column."""
    return ending_label(p["ending"])


@words("exports.verdict")
def _verdict(p: P) -> str:
    return explain(p["verdict"])


# --- the file as a whole ----------------------------------------------------------------------


@words("exports.not-json")
def _not_json(p: P) -> str:
    return gettext("That file is not JSON: choose a league file exported here.")


@words("exports.too-deep")
def _too_deep(p: P) -> str:
    return gettext("That file nests its values more than %(most)s deep, which no league "
                   "export does: choose a league file exported here.", most=p["most"])


@words("exports.not-an-export")
def _not_an_export(p: P) -> str:
    return gettext("This is not a Rummy Scorebook league export.")


@words("exports.version")
def _version(p: P) -> str:
    return gettext("This export's version (%(version)s) cannot be read here.",
                   version=p["version"])


@words("exports.missing")
def _missing(p: P) -> str:
    return gettext("The file is not a complete league export: %(key)s is missing.",
                   key=p["key"])


@words("exports.wrong-type")
def _wrong_type(p: P) -> str:
    return gettext("The file is not a complete league export: %(key)s has the wrong type "
                   "(%(value)s).", key=p["key"], value=p["value"])


@words("exports.out-of-range")
def _out_of_range(p: P) -> str:
    return gettext("The file is not a complete league export: %(key)s is out of range "
                   "(%(value)s).", key=p["key"], value=p["value"])


@words("exports.broken-text")
def _broken_text(p: P) -> str:
    return gettext("The file holds a NUL character or a broken one (%(text)s): it is not "
                   "a league exported here.", text=p["text"])


@words("exports.too-many")
def _too_many(p: P) -> str:
    if p["key"] == "players":
        return gettext("That file lists more than %(most)s players, more than this site "
                       "imports: choose a league file exported here.", most=p["most"])
    return gettext("That file lists more than %(most)s seasons, more than this site "
                   "imports: choose a league file exported here.", most=p["most"])


@words("exports.not-stored")
def _not_stored(p: P) -> str:
    return gettext("The file could not be stored: one of its values does not fit this "
                   "install's database. Nothing was imported.")


@words("exports.not-a-time")
def _not_a_time(p: P) -> str:
    return gettext("%(what)s must be a date and time.", what=p["what"])


@words("exports.bad-time")
def _bad_time(p: P) -> str:
    return gettext("%(what)s is not a date and time: %(value)s", what=p["what"],
                   value=p["value"])


@words("exports.too-long")
def _too_long(p: P) -> str:
    return gettext("%(key)s in the file is longer than %(max)s characters: %(value)s",
                   key=p["key"], max=p["max"], value=isolate(p["value"]))


@words("exports.day-range")
def _day_range(p: P) -> str:
    return gettext("%(what)s must fall between %(first)s and %(last)s: %(value)s",
                   what=p["what"], first=day(p["first"]), last=day(p["last"]),
                   value=p["value"])


@words("exports.bad-date")
def _bad_date(p: P) -> str:
    return gettext("%(what)s is not a date: %(value)s", what=p["what"], value=p["value"])


# --- the league, its players and seasons -----------------------------------------------------

#: What each kind of name of the file is called in a sentence.
_NAMES = {"league": _l("The league's name"), "player": _l("A player's name"),
          "season": _l("A season's name"), "meld": _l("A meld's id")}


@words("exports.name-control")
def _name_control(p: P) -> str:
    return gettext("%(what)s in the file holds control characters (such as NUL or a line "
                   "break): %(name)s", what=str(_NAMES[p["what"]]), name=isolate(p["name"]))


@words("exports.name-length")
def _name_length(p: P) -> str:
    return gettext("%(what)s in the file must have from 1 to %(max)s characters: %(name)s",
                   what=str(_NAMES[p["what"]]), max=p["max"], name=isolate(p["name"]))


@words("exports.no-league-name")
def _no_league_name(p: P) -> str:
    return gettext("The league in the file has no name.")


@words("exports.install-has-league")
def _install_has_league(p: P) -> str:
    return gettext("This install already keeps the league %(name)s; import into a fresh "
                   "install (or restore a backup instead).", name=p["name"])


@words("exports.league-name-taken")
def _league_name_taken(p: P) -> str:
    return gettext("Another league here already has the name of the league in the file: "
                   "give it a new name below and import the file again.")


@words("exports.twice")
def _twice(p: P) -> str:
    return gettext("%(name)s is in the file twice.", name=p["name"])


@words("exports.unlisted-player")
def _unlisted_player(p: P) -> str:
    return gettext("The file names a player it does not list: %(name)s", name=p["name"])


# --- a game -------------------------------------------------------------------------------------


@words("exports.unknown-family")
def _unknown_family(p: P) -> str:
    return gettext("this version does not know the game %(family)s.", family=p["family"])


@words("exports.rules-family")
def _rules_family(p: P) -> str:
    return gettext("its rules are for %(rules)s, not %(family)s.", rules=p["rules"],
                   family=p["family"])


@words("exports.unknown-option")
def _unknown_option(p: P) -> str:
    return gettext("this version does not know the house rule %(option)s.",
                   option=p["option"])


@words("exports.rules-clash")
def _rules_clash(p: P) -> str:
    return gettext("Those house rules do not go together: %(why)s",
                   why=rules_error_text(p["error"]))


@words("exports.player-count")
def _player_count(p: P) -> str:
    family = p["family"]
    return gettext("%(family)s is played by %(low)s to %(high)s players, not %(count)s.",
                   family=gettext(FAMILY_NAMES.get(family, family)), low=p["low"],
                   high=p["high"], count=p["count"])


@words("exports.seated-twice")
def _seated_twice(p: P) -> str:
    return gettext("%(name)s is seated twice.", name=p["name"])


@words("exports.seat-numbers")
def _seat_numbers(p: P) -> str:
    return gettext("its seats must be numbered 0 to %(last)s, each once.", last=p["last"])


@words("exports.first-dealer")
def _first_dealer(p: P) -> str:
    return gettext("exactly one seat must deal the first hand.")


@words("exports.unknown-status")
def _unknown_status(p: P) -> str:
    return gettext("Unknown game status: %(status)s", status=p["status"])


@words("exports.target")
def _target(p: P) -> str:
    return gettext("its target is %(target)s points, but its rules give %(expected)s.",
                   target=p["target"], expected=p["expected"])


@words("exports.not-seated")
def _not_seated(p: P) -> str:
    return gettext("%(name)s is not seated at this game.", name=p["name"])


@words("exports.hand-twice")
def _hand_twice(p: P) -> str:
    return gettext("hand %(number)s is in the file twice.", number=p["number"])


@words("exports.hand-missing")
def _hand_missing(p: P) -> str:
    return gettext("hand %(number)s is missing.", number=p["number"])


@words("exports.details-not-object")
def _details_not_object(p: P) -> str:
    return gettext("A history entry's details must be an object.")


@words("exports.details-too-long")
def _details_too_long(p: P) -> str:
    return gettext("A history entry's details are too long.")


@words("exports.other-winner")
def _other_winner(p: P) -> str:
    return gettext("its hands end the game with %(name)s winning, but the file says "
                   "otherwise.", name=p["name"])


@words("exports.not-finished")
def _not_finished(p: P) -> str:
    return gettext("the file says the game is finished, but its hands do not finish it.")


@words("exports.winner-too-soon")
def _winner_too_soon(p: P) -> str:
    return gettext("a game still being played has no winner yet.")


# --- a hand -------------------------------------------------------------------------------------


@words("exports.not-a-card")
def _not_a_card(p: P) -> str:
    return gettext("“%(token)s” is not a card (write cards like 7s, 10h, qd, as or jk).",
                   token=p["token"])


@words("exports.bad-end")
def _bad_end(p: P) -> str:
    return gettext("%(card)s has an end of a run (%(end)s) that cannot be: only a card laid "
                   "off lies at the low or the high end.", card=p["card"].pretty(),
                   end=p["end"])


@words("exports.unknown-ending")
def _unknown_ending(p: P) -> str:
    return gettext("Unknown hand ending: %(ending)s", ending=p["ending"])


@words("exports.rummy-without-going-out")
def _rummy_without_going_out(p: P) -> str:
    return gettext("Only the player who went out in Basic Rummy can go Rummy.")


@words("exports.points-only-cards")
def _points_only_cards(p: P) -> str:
    return gettext("a hand kept as points only holds no cards, and is never still being "
                   "played.")


@words("exports.live-hand")
def _live_hand(p: P) -> str:
    return gettext("only the last hand of a game in progress can still be being played, and "
                   "until it ends nobody has gone out and nothing is scored.")


@words("exports.log-refused")
def _log_refused(p: P) -> str:
    """A hand's log (issue 29) the referee cannot replay: at which move, and why."""
    reason = explain(p["verdict"]) if p.get("verdict") is not None else p["message"]
    if not p["number"]:
        return gettext("its log cannot be replayed from its deal: %(reason)s", reason=reason)
    return gettext("its log cannot be replayed at move %(number)s: %(reason)s",
                   number=p["number"], reason=reason)


@words("exports.log-overridden")
def _log_overridden(p: P) -> str:
    if not p["given"]:
        return gettext("move %(number)s of its log overrides a rule by agreement, but the "
                       "file does not say so.", number=p["number"])
    return gettext("move %(number)s of its log says the table agreed to override a rule "
                   "the referee does not refuse there.", number=p["number"])


@words("exports.log-melds")
def _log_melds(p: P) -> str:
    return gettext("its log's melds and lay-offs are not the hand's: meld %(meld)s "
                   "differs.", meld=isolate(p["meld"]))


@words("exports.log-dealer")
def _log_dealer(p: P) -> str:
    return gettext("its log says %(name)s dealt, but the hand says %(dealer)s did.",
                   name=isolate(p["name"]), dealer=isolate(p["dealer"]))


@words("exports.log-key-twice")
def _log_key_twice(p: P) -> str:
    return gettext("its log holds two moves sent with the key %(key)s.",
                   key=isolate(p["key"]))


@words("exports.no-score")
def _no_score(p: P) -> str:
    return gettext("the file has no score for %(name)s.", name=p["name"])


@words("exports.other-score")
def _other_score(p: P) -> str:
    return gettext("the file scores %(name)s %(given)s (melded %(given_melded)s, stranded "
                   "%(given_stranded)s), but the cards give %(score)s (melded %(melded)s, "
                   "stranded %(stranded)s).", name=p["name"], given=p["given"],
                   given_melded=p["given_melded"], given_stranded=p["given_stranded"],
                   score=p["score"], melded=p["melded"], stranded=p["stranded"])


@words("exports.layoff-off-table")
def _layoff_off_table(p: P) -> str:
    problem = gettext("%(card)s is laid off on a meld that is not on the table.",
                      card=p["card"].pretty())
    return gettext("%(where)s: %(problem)s", where=p["player"], problem=problem)


# --- the CSV files' columns -------------------------------------------------------------------

_COLUMNS = {
    "hand": _l("Hand"), "dealer": _l("Dealer"), "ending": _l("How it ended"),
    "went_out": _l("Went out"), "total": _l("Total"), "game": _l("Game"),
    "finished": _l("Finished"), "season": _l("Season"), "family": _l("Game type"),
    "player": _l("Player"), "seat": _l("Seat"), "place": _l("Place"), "won": _l("Won"),
    "hands": _l("Hands"), "melded": _l("Melded"), "stranded": _l("Stranded"),
    "rating_after": _l("Rating after"),
    # the standings' (services.league.STANDING_FIELDS)
    "games": _l("Games"), "wins": _l("Wins"), "win_rate": _l("Win rate"),
    "avg_position": _l("Average place"), "avg_hand": _l("Average hand"),
    "best_hand": _l("Best hand"), "best_total": _l("Best total"), "streak": _l("Streak"),
    "rating": _l("Rating"), "retired": _l("Retired"),
}


@words("exports.csv-column")
def _csv_column(p: P) -> str:
    return str(_COLUMNS[p["column"]])


@words("exports.csv-player-total")
def _csv_player_total(p: P) -> str:
    return gettext("%(name)s total", name=p["name"])


@words("exports.csv-points-only")
def _csv_points_only(p: P) -> str:
    return gettext("points only")


@words("exports.too-big-unpacked")
def _too_big_unpacked(p: P) -> str:
    return gettext("That compressed file holds more than %(most)s MB of text, more than "
                   "any league export: choose a league file exported here.", most=p["most"])


@words("exports.league-gone")
def _league_gone(p: P) -> str:
    return gettext("The league was deleted before its export was written.")


@words("exports.kept-changing")
def _kept_changing(p: P) -> str:
    return gettext("The league's players or seasons kept changing while the export was "
                   "written, so it stopped: try again in a quiet moment.")
