"""Results to share: a finished game or a league's standings as one short line of text
in the page's language, with a link ("Ann wins 660 – Ben 12 – Cy −18, 3 hands").

A game's link is its shared result's (``/results/<token>``,
:mod:`scorebook.services.sharing`), which opens for anyone who holds it; the standings'
link is the league's own page, for its members.

The templates call :func:`game_share` and :func:`standings_share` (template globals);
``templates/partials/share.html`` shows them with a Share button (Web Share API, else
the clipboard: ``static/js/share.js``) and, without JavaScript, as text to copy and
links that open a text message or an e-mail with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask_babel import gettext, ngettext

from scorebook.models import SharedResult
from scorebook.presenters.i18n import number
from scorebook.presenters.links import external_url

#: Standings lines name at most this many players.
MAX_NAMED = 6


@dataclass(frozen=True)
class Shared:
    title: str
    text: str
    url: str

    @property
    def message(self) -> str:
        """What is sent where there is no Web Share API: the text, then the link."""
        return f"{self.text}\n{self.url}" if self.url else self.text


def game_text(names: Sequence[str], totals: Sequence[int], winner: str | None,
              hands: int) -> str:
    """``Ann wins 660 – Ben 12 – Cy −18, 3 hands``: the winner first, then by total."""
    order = sorted(range(len(names)), key=lambda i: (names[i] != winner, -totals[i], i))
    first = order[0]
    others = " – ".join(f"{names[i]} {number(totals[i])}" for i in order[1:])
    if winner is None:  # not expected for a finished game; said plainly all the same
        return ngettext("%(scores)s, %(num)s hand", "%(scores)s, %(num)s hands", hands,
                        scores=" – ".join(f"{names[i]} {number(totals[i])}" for i in order))
    return ngettext("%(winner)s wins %(total)s – %(others)s, %(num)s hand",
                    "%(winner)s wins %(total)s – %(others)s, %(num)s hands", hands,
                    winner=names[first], total=number(totals[first]), others=others)


def game_share(board: Any, shared: SharedResult | None) -> Shared:
    """What a finished game's Share button sends (``board``: a games.Scoreboard): its
    line, and the link of its shared result (none while it has no link)."""
    game = board.game
    return Shared(
        title=gettext("Game %(id)s", id=game.number),
        text=game_text(board.names, board.totals, board.winner, len(board.rows)),
        url=shared_url(shared) if shared is not None else "")


def shared_url(shared: SharedResult) -> str:
    """The full address of a shared result, which anyone can open."""
    return external_url("shared.result", token=shared.token)


def standings_text(league_name: str, season_name: str | None, rows: Sequence[Any]) -> str:
    """``Our table, season 2026: 1. Ann (5 wins) · 2. Ben (3 wins) · …``"""
    named = [ngettext("%(place)s. %(name)s (%(num)s win)", "%(place)s. %(name)s (%(num)s wins)",
                      int(r.wins), place=r.place, name=r.name)
             for r in rows[:MAX_NAMED]]  # (the standings' places: equal records share one)
    if len(rows) > MAX_NAMED:
        named.append("…")
    if season_name:
        head = gettext("%(league)s, season %(season)s:", league=league_name, season=season_name)
    else:
        head = gettext("%(league)s, all time:", league=league_name)
    return f"{head} {' · '.join(named)}"


def standings_share(league: Any, season: Any, season_value: str, rows: Sequence[Any]) -> Shared:
    """What the standings' Share button sends, for the season shown and its order."""
    return Shared(
        title=gettext("Standings"),
        text=standings_text(league.name, season.name if season else None, rows),
        url=external_url("league.standings", season=season_value))


def init_app(app: Flask) -> None:
    app.jinja_env.globals["game_share"] = game_share
    app.jinja_env.globals["standings_share"] = standings_share
    app.jinja_env.globals["shared_url"] = shared_url
