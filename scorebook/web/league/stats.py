"""The statistics pages: a league's records, head to head, a season's recap; and the
statistics sections of a player's page and of a finished game's scoreboard.

The figures come from :mod:`scorebook.services.stats` (SQL aggregates over a per-game cache,
brought up to date first); this module turns them into words and charts in the
page's language.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from flask import (
    Blueprint,
    abort,
    current_app,
    g,
    has_request_context,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext, ngettext
from markupsafe import Markup, escape

from scorebook.extensions import db
from scorebook.models import Game, League, Player, Season
from scorebook.plain_text import db_int
from scorebook.presenters.bidi import isolate
from scorebook.presenters.cards import RANK_PLURALS, cards_html
from scorebook.presenters.charts import count_bars, points_split_chart
from scorebook.presenters.i18n import day, number, percent
from scorebook.services import league as league_service
from scorebook.services import memo
from scorebook.services.stats import cache, fresh, rebuild
from scorebook.services.stats import recap as recap_service
from scorebook.services.stats import records as records_service
from scorebook.services.stats.cards import MeldShape
from scorebook.services.stats.games import GameSummary, game_summary
from scorebook.services.stats.players import PlayerStats, everyone, player_stats
from scorebook.services.stats.scope import Scope
from scorebook.web.league.scope import _league, _season, _season_choice, fixed

bp = Blueprint("stats", __name__)

T = TypeVar("T")


def remembered(league_id: int, key: Hashable, compute: Callable[[], T]) -> T:
    """:func:`scorebook.services.memo.remembered`, the league's version read once
    per request."""
    seen = g.setdefault("stats_versions", {}) if has_request_context() else None
    return memo.remembered(league_id, key, compute, seen)


#: How long a page may spend counting cards into the cache before it answers (more
#: than that is left to a background job: :func:`refresh`).
DEFAULT_REFRESH_SECONDS = 1.0


def refresh(league: League) -> cache.Progress:
    """The statistics cache brought up to date (:mod:`scorebook.services.stats.fresh`: one
    row read while nothing changed, and the figures this request keeps are then versioned
    by the league's stamp). What an edit left out of date is counted here; if more is left
    than ``STATS_REFRESH_SECONDS`` allow (a league imported or upgraded), a background job
    counts the rest (:mod:`scorebook.services.stats.rebuild`) and the page says how far it
    has got. With ``STATS_REFRESH_SECONDS`` None, everything is counted here."""
    budget = current_app.config.get("STATS_REFRESH_SECONDS", DEFAULT_REFRESH_SECONDS)
    stamp = fresh.known(league.id)
    if stamp is None:
        job = rebuild.running(league.id) if budget is not None else None
        if job is not None:
            return rebuild.progress(job, league.id)
        found = fresh.ensure(league.id, budget)
        if not found.progress.ready:
            rebuild.start(league.id)
        stamp, progress = found.stamp, found.progress
    else:
        progress = cache.Progress(False)
    if stamp is not None and has_request_context():
        memo.assume(g.setdefault("stats_versions", {}), league.id, stamp)
    return progress


def prepare(league: League) -> tuple[list[Season], cache.Progress]:
    """Results, ratings, seasons and the statistics cache, up to date (or, for a big
    league counted for the first time, as far as this request got)."""
    seasons = league_service.prepare(league)
    return seasons, refresh(league)


# --- words and pictures -----------------------------------------------------------------------


def shape_html(shape: MeldShape | None) -> Markup:
    """A meld shape as cards: a run card by card, a set as its rank three times."""
    if shape is None:
        return Markup("–")
    if shape.kind == "set":
        rank = shape.rank
        value = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank) or (int(rank) if rank.isdigit()
                                                                 else 0)
        name = str(RANK_PLURALS.get(value, rank))  # "a set of aces", not "of ace"
        return Markup('<span class="meld-shape"><span aria-hidden="true">{}</span>'
                      '<span class="sr-only">{}</span></span>').format(
            " ".join([rank] * 3), gettext("a set of %(rank)s", rank=name))
    return Markup('<span class="meld-shape">{}</span>').format(cards_html(shape.cards))


def _per_hand_rows(stats: PlayerStats, name: str) -> list[tuple[str, float, float, float]]:
    rows = []
    for label, sums in ((name, stats.sums), (gettext("Everyone"), stats.everyone)):
        if sums is None or not sums.card_hands:
            continue
        rows.append((label, sums.per_hand("melded_points") or 0.0,
                     sums.per_hand("laid_off_points") or 0.0,
                     sums.per_hand("stranded_points") or 0.0))
    return rows


def points_chart(stats: PlayerStats, name: str) -> Markup | None:
    rows = _per_hand_rows(stats, name)
    if not rows:
        return None
    parts = [gettext("%(name)s: %(melded)s melded, %(laid_off)s laid off, %(stranded)s "
                     "stranded", name=isolate(label), melded=fixed(m, 1), laid_off=fixed(lo, 1),
                     stranded=fixed(s, 1)) for label, m, lo, s in rows]
    desc = ngettext("Points per hand, over %(num)s hand. ", "Points per hand, over %(num)s "
                    "hands. ", stats.sums.card_hands) + "; ".join(parts) + "."
    return points_split_chart(
        rows, gettext("Where %(name)s's points come from, per hand", name=isolate(name)), desc,
        (gettext("melded"), gettext("laid off"), gettext("stranded")))


def player_sections(league: League, player: Player, season: Season | None) -> dict[str, Any]:
    """What the player page needs for its statistics sections."""
    progress = refresh(league)
    if not progress.ready:
        return {"card_stats": None, "stats_progress": progress}
    scope = Scope(league.id, season)
    compared = remembered(league.id, ("everyone", scope.key), lambda: everyone(scope))
    stats = remembered(league.id, ("player", player.id, scope.key),
                            lambda: player_stats(player, scope, compared))
    return {"card_stats": stats, "points_chart": points_chart(stats, player.name),
            "stats_progress": progress}


def game_sections(game: Game) -> dict[str, Any]:
    """What a finished game's scoreboard shows of its statistics."""
    summary: GameSummary | None = game_summary(game)
    return {"game_stats": summary}


# --- records ------------------------------------------------------------------------------------


@bp.get("/records")
def records() -> str:
    league = _league()
    seasons, progress = prepare(league)
    season, season_value = _season_choice(league, seasons, default_current=False)
    scope = Scope(league.id, season)
    players = league_service.players_of(league)
    ready = progress.ready
    matrix = remembered(league.id, ("feeds", scope.key),
                        lambda: records_service.feed_matrix(scope)) if ready else None
    # On a phone the matrix shows the givers and FEED_COLUMNS receivers at a time, the
    # others a tap away (``?feeds=`` the group shown), instead of scrolling sideways.
    count = len(matrix.players) if matrix is not None else 0
    groups = [(k, matrix.players[k][1], matrix.players[min(k + FEED_COLUMNS, count) - 1][1])
              for k in range(0, count, FEED_COLUMNS)] if matrix is not None else []
    shown = db_int(request.args.get("feeds", "")) or 0
    if not 0 <= shown < len(groups):
        shown = 0
    return render_template(
        "stats/records.html", league=league, seasons=seasons, season=season,
        season_value=season_value, progress=progress,
        records=remembered(league.id, ("records", scope.key),
                                lambda: records_service.records(scope)) if ready else [],
        matrix=matrix, feed_groups=groups, feeds_shown=shown, feed_columns=FEED_COLUMNS,
        players=players)


#: How many receivers of "who feeds whom" a phone shows beside the givers' names.
FEED_COLUMNS = 3


# --- head to head ----------------------------------------------------------------------------


def _chosen(players: list[Player], name: str) -> Player | None:
    value = request.args.get(name, "")
    if not value:
        return None
    wanted = db_int(value)
    if wanted is None:
        abort(404)
    found = next((p for p in players if p.id == wanted), None)
    if found is None:
        abort(404)
    return found


@bp.get("/head-to-head")
def head_to_head() -> str | tuple[str, int]:
    league = _league()
    seasons, progress = prepare(league)
    season, season_value = _season_choice(league, seasons, default_current=False)
    players = league_service.players_of(league)
    first, second = _chosen(players, "a"), _chosen(players, "b")
    pair = error = None
    if first is not None and second is not None and progress.ready:
        if first.id == second.id:
            error = gettext("Choose two different players.")
        else:
            scope = Scope(league.id, season)
            pair = remembered(
                league.id, ("pair", first.id, second.id, scope.key),
                lambda: records_service.pair(scope, first.id, second.id))
    page = render_template(
        "stats/head_to_head.html", league=league, seasons=seasons, season=season,
        season_value=season_value, players=players, first=first, second=second,
        pair=pair, error=error, progress=progress)
    return (page, 400) if error else page


# --- a season's recap ------------------------------------------------------------------------


def wins_in_games(wins: int, games: int) -> str:
    """"5 wins in 17 games", each count with its own plural."""
    return gettext("%(wins)s in %(games)s",
                   wins=ngettext("%(num)s win", "%(num)s wins", wins),
                   games=ngettext("%(num)s game", "%(num)s games", games))


def share_text(league: League, season: Season, recap: recap_service.Recap) -> str:
    """The recap as plain text, for a family's chat."""
    lines = [gettext("%(league)s — season %(name)s (%(start)s – %(end)s)",
                     league=isolate(league.name), name=isolate(season.name),
                     start=day(season.starts_on), end=day(season.ends_on))]
    lines.append(gettext("%(games)s, %(hands)s.",
                         games=ngettext("%(num)s game", "%(num)s games", recap.games),
                         hands=ngettext("%(num)s hand", "%(num)s hands", recap.hands)))
    for p in recap.podium:
        lines.append(gettext("%(place)s. %(name)s: %(wins_in_games)s", place=p.place,
                             name=isolate(p.standing.name),
                             wins_in_games=wins_in_games(p.standing.wins, p.standing.games)))
    for r in recap.records:
        lines.append(f"{record_title(r.kind)}: {record_words(r, isolate(r.name or '?'))}")
    for s in recap.signatures:
        lines.append(f"{isolate(s.name)}: {signature_words(s)}")
    lines.append(url_for("stats.recap", season_id=season.id, _external=True))
    return "\n".join(lines)


RECORD_TITLES = {
    records_service.HIGHEST_HAND: lambda: gettext("Highest hand"),
    records_service.COMEBACK: lambda: gettext("Biggest comeback"),
    records_service.LONGEST_GAME: lambda: gettext("Longest game"),
    records_service.SHORTEST_GAME: lambda: gettext("Shortest game"),
    records_service.HANDS_IN_A_ROW: lambda: gettext("Most hands won in a row"),
    records_service.MOST_STRANDED: lambda: gettext("Most points stranded in one hand"),
}


def record_title(kind: str) -> str:
    return RECORD_TITLES[kind]()


def record_words(r: records_service.Record, name: str | None = None) -> str:
    """What the record is, in a sentence (without the links)."""
    name = name or r.name or "?"
    if r.kind == records_service.HIGHEST_HAND:
        return gettext("%(name)s scored %(points)s in one hand", name=name,
                       points=number(r.value))
    if r.kind == records_service.COMEBACK:
        return ngettext("%(name)s won from %(num)s point behind",
                        "%(name)s won from %(num)s points behind", r.value, name=name)
    if r.kind in (records_service.LONGEST_GAME, records_service.SHORTEST_GAME):
        return ngettext("%(num)s hand, won by %(name)s", "%(num)s hands, won by %(name)s",
                        r.value, name=name)
    if r.kind == records_service.HANDS_IN_A_ROW:
        return ngettext("%(name)s went out in %(num)s hand in a row",
                        "%(name)s went out in %(num)s hands in a row", r.value, name=name)
    return ngettext("%(name)s was caught holding %(num)s point",
                    "%(name)s was caught holding %(num)s points", r.value, name=name)


def signature_title(s: recap_service.Signature) -> str:
    titles = {
        "best-hand": gettext("Best hand"),
        "avg-hand": gettext("Best average hand"),
        "out-rate": gettext("Quick to go out"),
        "jokers": gettext("Joker magnet"),
        "feeder": gettext("Generous with lay-offs"),
        "fed": gettext("Everyone's favourite meld"),
        "low-aces": gettext("Low-ace specialist"),
        "longest-run": gettext("Longest run"),
        "runs": gettext("Run builder"),
        "sets": gettext("Set collector"),
        "light": gettext("Travels light"),
        "in-a-row": gettext("On a roll"),
        "going-rummy": gettext("Goes Rummy"),
        "aces-stranded": gettext("The 15-point regret"),
        recap_service.HANDS_PLAYED: gettext("At the table"),
    }
    return titles.get(s.key, s.key)


def signature_words(s: recap_service.Signature) -> str:
    """The figure, with what it was counted over, in a sentence."""
    v = s.value
    n = int(v) if isinstance(v, int) or float(v).is_integer() else v
    if s.key == "best-hand":
        text = gettext("%(points)s points in one hand", points=number(n))
    elif s.key == "avg-hand":
        text = ngettext("%(avg)s points a hand, over %(num)s hand",
                        "%(avg)s points a hand, over %(num)s hands", s.sample,
                        avg=fixed(float(v), 1))
    elif s.key == "out-rate":
        text = ngettext("went out in %(pct)s of %(num)s hand",
                        "went out in %(pct)s of %(num)s hands", s.sample,
                        pct=percent(float(v)))
    elif s.key == "jokers":
        text = ngettext("%(num)s joker melded or laid off", "%(num)s jokers melded or laid off",
                        int(v))
    elif s.key == "feeder":
        text = ngettext("%(num)s card laid off on others' melds",
                        "%(num)s cards laid off on others' melds", int(v))
    elif s.key == "fed":
        text = ngettext("others laid off %(num)s card on their melds",
                        "others laid off %(num)s cards on their melds", int(v))
    elif s.key == "low-aces":
        text = ngettext("%(num)s ace melded low", "%(num)s aces melded low", int(v))
    elif s.key == "longest-run":
        text = ngettext("a run of %(num)s card", "a run of %(num)s cards", int(v))
    elif s.key == "runs":
        text = ngettext("%(num)s run put down", "%(num)s runs put down", int(v))
    elif s.key == "sets":
        text = ngettext("%(num)s set put down", "%(num)s sets put down", int(v))
    elif s.key == "light":
        text = ngettext("left holding %(avg)s points a hand, over %(num)s hand",
                        "left holding %(avg)s points a hand, over %(num)s hands",
                        s.sample, avg=fixed(float(v), 1))
    elif s.key == "in-a-row":
        text = ngettext("went out %(num)s hand in a row", "went out %(num)s hands in a row",
                        int(v))
    elif s.key == "going-rummy":
        text = ngettext("went Rummy %(num)s time", "went Rummy %(num)s times", int(v))
    elif s.key == "aces-stranded":
        text = ngettext("%(num)s ace left in hand", "%(num)s aces left in hand", int(v))
    else:
        text = ngettext("%(num)s hand played", "%(num)s hands played", int(v))
    if s.key == recap_service.HANDS_PLAYED:
        return text
    if s.rank == 1 and s.tied:
        return gettext("%(figure)s (the most, shared)", figure=text) if s.key != "light" \
            else gettext("%(figure)s (the fewest, shared)", figure=text)
    if s.rank == 1:
        return gettext("%(figure)s (the most of anyone)", figure=text) if s.key != "light" \
            else gettext("%(figure)s (the fewest of anyone)", figure=text)
    return gettext("%(figure)s (place %(rank)s of %(count)s)", figure=text, rank=s.rank,
                   count=s.ranked)


@bp.get("/seasons/<int:season_id>/recap")
def recap(season_id: int) -> str:
    league, season = _season(season_id)
    seasons, progress = prepare(league)
    season = next((s for s in seasons if s.id == season_id), None)
    if season is None:  # deleted meanwhile
        abort(404)
    if not progress.ready:
        return render_template("stats/recap.html", league=league, season=season,
                               seasons=seasons, recap=None, progress=progress)
    summary = remembered(league.id, ("recap", season.id, Scope(league.id, season).key),
                              lambda: recap_service.recap(league, season))
    chart = None
    if summary.table:
        rows = [(p.standing.name, p.standing.wins) for p in summary.table]
        desc = "; ".join(ngettext("%(name)s: %(num)s win", "%(name)s: %(num)s wins", n,
                                  name=isolate(nm)) for nm, n in rows) + "."
        chart = count_bars(rows, gettext("Games won in the season %(name)s",
                                         name=isolate(season.name)), desc,
                           "recap-wins", highlight=len(summary.podium))
    return render_template(
        "stats/recap.html", league=league, season=season, seasons=seasons, recap=summary,
        wins_chart=chart, share_text=share_text(league, season, summary),
        signature_title=signature_title, signature_words=signature_words, progress=progress)


#: Stands for a name in a sentence until the sentence is escaped (a private-use
#: character: no translation has it).
NAME = "\ue000"


def with_name(sentence: str, name: str | None) -> Markup:
    """``sentence`` (made with :data:`NAME` for the name) as HTML, the name isolated in
    ``<bdi>`` (a name written right to left does not reorder the sentence)."""
    return Markup(str(escape(sentence)).replace(
        NAME, str(Markup("<bdi>{}</bdi>").format(name or "?"))))


def record_html(r: records_service.Record) -> Markup:
    return with_name(record_words(r, NAME), r.name)


def game_number(game_id: int) -> int:
    """A game's number within its league (what every page calls it: a family's first
    game is Game 1), for the figures that keep only the game's id.  One read by primary
    key, kept in the session's identity map for the rest of the page."""
    game = db.session.get(Game, game_id)
    return game.number if game is not None and game.number is not None else game_id


bp.add_app_template_filter(shape_html, "meld_shape")
bp.add_app_template_global(game_number, "game_number")
bp.add_app_template_global(record_title, "record_title")
bp.add_app_template_global(record_html, "record_html")
