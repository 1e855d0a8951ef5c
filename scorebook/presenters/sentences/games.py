"""The wording of the games sentences (see :mod:`scorebook.presenters.sentences`): why
a game cannot be started or played again (:class:`scorebook.services.games.GameSetupError`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext

from scorebook.plain_text import TEXT_MESSAGE
from scorebook.presenters.bidi import isolate
from scorebook.presenters.sentences import words
from scorebook.presenters.wording import family_name, rules_error_text


@words("games.rules-clash")
def _rules_clash(p: Mapping[str, Any]) -> str:
    return str(gettext("Those house rules do not go together: %(why)s",
                       why=rules_error_text(p["error"])))


@words("games.player-count")
def _player_count(p: Mapping[str, Any]) -> str:
    return str(gettext("%(family)s is played by %(low)s to %(high)s players, not %(count)s.",
                       family=family_name(p["family"]), low=p["low"], high=p["high"],
                       count=p["count"]))


@words("games.unwanted-text")
def _unwanted_text(p: Mapping[str, Any]) -> str:
    return str(TEXT_MESSAGE)


@words("games.name-too-long")
def _name_too_long(p: Mapping[str, Any]) -> str:
    return str(gettext("A name can be at most %(max)s characters long.", max=p["max"]))


@words("games.seated-twice")
def _seated_twice(p: Mapping[str, Any]) -> str:
    return str(gettext("%(name)s is seated twice.", name=isolate(p["name"])))


@words("games.first-dealer-not-seated")
def _first_dealer_not_seated(p: Mapping[str, Any]) -> str:
    return str(gettext("The first dealer must be one of the players."))


@words("games.rematch-unfinished")
def _rematch_unfinished(p: Mapping[str, Any]) -> str:
    return str(gettext("Only a finished game can be played again."))


# The new-game page's own refusals (scorebook.web.games.views).

@words("games.too-few-names")
def _too_few_names(p: Mapping[str, Any]) -> str:
    return str(gettext("Type at least two names."))


@words("games.first-dealer-seat-empty")
def _first_dealer_seat_empty(p: Mapping[str, Any]) -> str:
    return str(gettext("The first dealer's seat is empty."))


@words("games.number-taken")
def _number_taken(p: Mapping[str, Any]) -> str:
    return str(gettext("Another game was started in this league at the same moment; please try "
                       "again."))
