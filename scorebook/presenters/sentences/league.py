"""The wording of the league sentences (see :mod:`scorebook.presenters.sentences`): why
the roster or the seasons refuse a change (:class:`scorebook.services.league.LeagueError`),
and the names of the standings' columns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l

from scorebook.plain_text import TEXT_MESSAGE
from scorebook.presenters.bidi import isolate
from scorebook.presenters.i18n import day
from scorebook.presenters.sentences import words

#: The standings' columns (:data:`scorebook.services.league.SORTS`) by their names.
SORT_LABELS: dict[str, Any] = {
    "rating": _l("Rating"),
    "games": _l("Games"),
    "wins": _l("Wins"),
    "win_rate": _l("Win rate"),
    "avg_position": _l("Average place"),
    "avg_hand": _l("Average hand"),
    "best_hand": _l("Best hand"),
    "best_total": _l("Best total"),
    "melded": _l("Melded"),
    "stranded": _l("Stranded"),
    "streak": _l("Streak"),
    "name": _l("Name"),
}


@words("league.player-name-missing")
def _player_name_missing(p: Mapping[str, Any]) -> str:
    return str(gettext("Give the player a name."))


@words("league.unwanted-text")
def _unwanted_text(p: Mapping[str, Any]) -> str:
    return str(TEXT_MESSAGE)


@words("league.name-too-long")
def _name_too_long(p: Mapping[str, Any]) -> str:
    return str(gettext("A name can be at most %(max)s characters long.", max=p["max"]))


@words("league.player-name-look-alike")
def _player_name_look_alike(p: Mapping[str, Any]) -> str:
    return str(gettext("Did you mean %(name)s? %(name)s already plays in this league; "
                       "“%(typed)s” would be a new player.", name=isolate(p["name"]),
                       typed=isolate(p["typed"])))


@words("league.player-name-taken")
def _player_name_taken(p: Mapping[str, Any]) -> str:
    return str(gettext("%(name)s is already in the league.", name=isolate(p["name"])))


@words("league.merge-same-player")
def _merge_same_player(p: Mapping[str, Any]) -> str:
    return str(gettext("Choose two different players."))


@words("league.merge-other-league")
def _merge_other_league(p: Mapping[str, Any]) -> str:
    return str(gettext("Both players must be in the same league."))


@words("league.merge-shared-games")
def _merge_shared_games(p: Mapping[str, Any]) -> str:
    return str(ngettext(
        "%(a)s and %(b)s sat at the same table in %(num)s game, so they cannot be "
        "the same person.",
        "%(a)s and %(b)s sat at the same table in %(num)s games, so they cannot be "
        "the same person.", p["count"], a=p["a"], b=p["b"]))


@words("league.merge-undone-already")
def _merge_undone_already(p: Mapping[str, Any]) -> str:
    return str(gettext("The merge of %(a)s into %(b)s was already undone.",
                       a=isolate(p["a"]), b=isolate(p["b"])))


@words("league.merge-undo-kept-gone")
def _merge_undo_kept_gone(p: Mapping[str, Any]) -> str:
    return str(gettext("%(name)s has since been merged into another player: undo that "
                       "merge first.", name=isolate(p["name"])))


@words("league.merge-undo-name-taken")
def _merge_undo_name_taken(p: Mapping[str, Any]) -> str:
    return str(gettext("%(name)s is in the league again (added since the merge): rename "
                       "that player first, then undo the merge.", name=isolate(p["name"])))


@words("sharing.not-finished")
def _sharing_not_finished(p: Mapping[str, Any]) -> str:
    return str(gettext("Game %(id)s is not finished: only a finished game's result can be "
                       "shared.", id=p["number"]))


@words("league.season-name-missing")
def _season_name_missing(p: Mapping[str, Any]) -> str:
    return str(gettext("Give the season a name."))


@words("league.season-days-missing")
def _season_days_missing(p: Mapping[str, Any]) -> str:
    return str(gettext("Give the first and the last day of the season."))


@words("league.season-days-range")
def _season_days_range(p: Mapping[str, Any]) -> str:
    return str(gettext("Seasons must fall between %(first)s and %(last)s.",
                       first=day(p["first"]), last=day(p["last"])))


@words("league.season-ends-first")
def _season_ends_first(p: Mapping[str, Any]) -> str:
    return str(gettext("The season must end on or after the day it starts."))


@words("league.season-name-taken")
def _season_name_taken(p: Mapping[str, Any]) -> str:
    return str(gettext("There is already a season called %(name)s.", name=isolate(p["name"])))


@words("league.season-overlap")
def _season_overlap(p: Mapping[str, Any]) -> str:
    return str(gettext("Those dates overlap the season %(name)s (%(start)s to %(end)s).",
                       name=isolate(p["name"]), start=day(p["start"]), end=day(p["end"])))
