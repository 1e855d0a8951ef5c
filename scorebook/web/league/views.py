"""The league's pages: standings, players, a player's page, history, seasons, exports."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import tempfile
import unicodedata
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    send_file,
    session,
    stream_with_context,
    url_for,
)
from flask_babel import format_decimal, get_locale, gettext
from sqlalchemy import func, select
from werkzeug.wrappers import Response as BaseResponse

from scorebook.extensions import db
from scorebook.limits import size_text
from scorebook.models import JOB_QUEUED, Game, Job, League, Player, Seat, utcnow
from scorebook.plain_text import db_int
from scorebook.presenters.bidi import isolate
from scorebook.presenters.charts import histogram, rating_chart
from scorebook.presenters.i18n import day
from scorebook.presenters.sentences import say, say_all
from scorebook.presenters.sentences.jobs import job_error
from scorebook.presenters.sentences.league import SORT_LABELS
from scorebook.presenters.wording import family_name
from scorebook.services import access, export_jobs, jobs, undo
from scorebook.services import league as service
from scorebook.services.export_format import json_schema
from scorebook.services.exports import (
    IMPORT_JOB,
    collect,
    export_league_chunks,
    game_csv,
    league_csv_chunks,
    standings_csv,
)
from scorebook.services.games import load_game
from scorebook.services.ratings import START_MU, display_rating
from scorebook.services.seasons import seasons_of
from scorebook.web import Page, membership
from scorebook.web.jobs.views import flash_imported
from scorebook.web.league.forms import ActionForm, ImportForm, PlayerNameForm, SeasonForm
from scorebook.web.league.scope import _league, _season, _season_choice, fixed
from scorebook.web.league.stats import player_sections, remembered

bp = Blueprint("league", __name__)
bp.add_app_template_filter(fixed, "fixed")


@bp.app_template_global()
def league_ratings_pending() -> int:
    """Games whose ratings a background replay is still bringing up to date (0: none)."""
    league = g.get("league")
    return service.ratings_pending(league) if league is not None else 0


def _player(league: League, player_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None or player.league_id != league.id:
        abort(404)
    return player


def file_stem(league: League) -> str:
    """A download's name: the league's name in plain letters, and today's date
    (``our-table-2026-11-29``), so a family's exports do not overwrite each other."""
    plain = unicodedata.normalize("NFKD", league.name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:40] or "league"
    return f"{slug}-{utcnow().date().isoformat()}"


def _csv_response(text: str, filename: str) -> Response:
    return Response("\ufeff" + text, mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


# --- standings --------------------------------------------------------------------------


@bp.get("/")
def standings() -> str:
    league = _league()
    seasons = service.prepare(league)
    season, season_value = _season_choice(league, seasons, default_current=True)
    sort = request.args.get("sort", service.DEFAULT_SORT)
    if sort not in service.SORTS:
        sort = service.DEFAULT_SORT
    direction = request.args.get("dir")
    descending = (direction == "desc") if direction in ("asc", "desc") else None
    rows = service.standings(league, season, sort, descending)
    if descending is None:
        descending = service.DESCENDING_FIRST[sort]
    # On a phone the table shows one group of columns beside the names (the group of the
    # column it is sorted by, or the one asked for); the others are one tap away.
    cols = request.args.get("cols", "")
    if cols not in COLUMN_GROUPS:
        cols = next((g for g, keys in COLUMN_GROUPS.items() if sort in keys), "wins")
    return render_template(
        "league/standings.html", league=league, seasons=seasons, season=season,
        season_value=season_value, rows=rows, sort=sort, descending=descending,
        sorts=SORT_LABELS, descending_first=service.DESCENDING_FIRST,
        ranked_by=service.ranked_by(sort),
        totals=service.league_totals(league), cols=cols, column_groups=COLUMN_GROUPS,
        group_of={key: g for g, keys in COLUMN_GROUPS.items() for key in keys})


#: The standings' columns in the groups a phone shows one at a time (three at most fit
#: beside the names in every language), the most looked at first: rating and wins, then
#: where they finish, their hands, their cards.
COLUMN_GROUPS = {
    "wins": ("rating", "games", "wins"),
    "places": ("win_rate", "avg_position", "streak"),
    "hands": ("avg_hand", "best_hand", "best_total"),
    "cards": ("melded", "stranded"),
}


# --- players ----------------------------------------------------------------------------


@bp.route("/players", methods=["GET", "POST"])
def players() -> Page:
    league = _league()
    form = PlayerNameForm(prefix="add")
    error = None
    look_alike = None  # "Lucia" beside "Lucía": the name typed, to add it anyway
    if form.validate_on_submit():
        name = form.name.data or ""
        try:
            player = service.add_player(league, name,
                                        new_anyway=request.form.get("new_anyway") == name)
        except service.LeagueError as exc:
            error = say(exc.sentence)
            look_alike = name if exc.field == "look-alike" else None
        else:
            flash(gettext("%(name)s joined the league.", name=isolate(player.name)))
            return redirect(url_for("league.players"))
    elif request.method == "POST":
        error = " ".join(str(m) for m in form.name.errors) or gettext(
            "The form was stale or opened in another tab; please try again.")
    page = render_template("league/players.html", league=league, form=form, error=error,
                           look_alike=look_alike,
                           players=service.players_of(league),
                           played=_games_played(league), merges=service.merges(league),
                           undo_form=ActionForm(prefix="undo"))
    return (page, 400) if error else page


def _games_played(league: League) -> dict[int, int]:
    return {s.player_id: s.games for s in service.standings(league)}


@bp.get("/players/<int:player_id>")
def player(player_id: int) -> str:
    league = _league()
    seasons = service.prepare(league)
    who = _player(league, player_id)
    season, season_value = _season_choice(league, seasons, default_current=False)
    rows = service.standings(league, season, player_id=who.id)
    stats = rows[0] if rows else None
    sections = player_sections(league, who, season)  # (brings the statistics up to date)
    kept = sections["stats_progress"].ready  # (else counted from the results and hands)
    # The rating chart reads every rating of the player (10,000 at 50,000 games): kept
    # with the statistics' figures while no replay of later ratings is under way (every
    # other change to a rating is a change to a finished game, which versions them anew)
    line = remembered(league.id, ("rating line", who.id), lambda: service.rating_line(who)) \
        if kept and not league_ratings_pending() else service.rating_line(who)
    width, bands = service.score_distribution(who, season, kept=kept)
    span = (day(line.first, "short"), day(line.last, "short")) if line.games else ("", "")
    return render_template(
        "league/player.html", league=league, player=who, seasons=seasons, season=season,
        season_value=season_value, stats=stats,
        rating=line.now if line.now is not None else display_rating(START_MU),
        rating_chart=rating_chart(line.points, span, who.name, display_rating(START_MU),
                                  games=line.games, high=line.high, low=line.low),
        score_chart=histogram(bands, width, gettext("How many hands %(name)s scored in each "
                                                    "band of points", name=isolate(who.name)),
                              "score-distribution"),
        bands=bands, band_width=width,
        head_to_head=service.head_to_head(who, season, kept=kept),
        recent=service.recent_games(who), merged=undoable_merges(league, who),
        undo_form=ActionForm(prefix="undo"), **sections)


@bp.route("/players/<int:player_id>/edit", methods=["GET", "POST"])
@access.requires(access.SCORER)  # only forms: a viewer gets the 403 before filling one in
def edit_player(player_id: int) -> Page:
    league = _league()
    who = _player(league, player_id)
    rename = PlayerNameForm(prefix="rename", data={"name": who.name})
    others = [p for p in service.players_of(league) if p.id != who.id]
    errors: dict[str, str] = {}
    if request.method == "POST":
        if "rename-name" not in request.form:
            abort(400)  # (merging has a page of its own: merge_player)
        if rename.validate_on_submit():
            old = who.name
            try:
                service.rename_player(who, rename.name.data or "")
            except service.LeagueError as exc:
                db.session.rollback()
                errors["rename"] = say(exc.sentence)
            else:
                flash(gettext("%(old)s is now called %(new)s.", old=isolate(old),
                              new=isolate(who.name)))
                return redirect(url_for("league.edit_player", player_id=who.id))
        else:
            errors["rename"] = _form_errors(rename)
    page = render_template("league/edit_player.html", league=league, player=who,
                           rename=rename, retire=ActionForm(prefix="retire"),
                           errors=errors, others=others)
    return (page, 400) if errors else page


@bp.route("/players/<int:player_id>/merge", methods=["GET", "POST"])
@access.requires(access.SCORER)  # only a form: a viewer gets the 403 before filling it in
def merge_player(player_id: int) -> Page:
    """Merge two names of one person: choose the other name, see what each way round
    keeps (which name stays, whose games and hands move, what the one that stays has
    then), choose the name that stays and merge. Either name's page leads here."""
    league = _league()
    who = _player(league, player_id)
    others = [p for p in service.players_of(league) if p.id != who.id]
    asked = request.form if request.method == "POST" else request.args
    other_id = db_int(asked.get("other", ""))
    other = db.session.get(Player, other_id) if other_id else None
    if other is not None and (other.league_id != league.id or other.id == who.id):
        other = None
    form = ActionForm(prefix="merge")
    errors: dict[str, str] = {}
    keep_id = db_int(asked.get("keep", ""))
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        if other is None:
            errors["other"] = gettext("Choose the player who is the same person.")
        elif keep_id not in (who.id, other.id):
            errors["keep"] = gettext("Choose which name stays.")
        else:
            keep, gone = (who, other) if keep_id == who.id else (other, who)
            names = (gone.name, keep.name)
            try:
                service.merge_players(keep, gone)
            except service.LeagueError as exc:
                db.session.rollback()
                errors["other"] = say(exc.sentence)
            else:
                flash(gettext("%(gone)s and %(kept)s are one player now: %(kept)s. If that "
                              "was a mistake, undo the merge on this page.",
                              gone=isolate(names[0]), kept=isolate(names[1])))
                return redirect(url_for("league.player", player_id=keep_id))
    counts = together = None
    if other is not None:
        counts = {p.id: service.player_counts(p) for p in (who, other)}
        together = service.games_together(who, other)
    page = render_template("league/merge.html", league=league, player=who, other=other,
                           others=others, counts=counts, together=together, form=form,
                           keep_id=keep_id, errors=errors)
    return (page, 400) if errors else page


@bp.post("/merges/<int:merge_id>/undo")
def undo_merge(merge_id: int) -> BaseResponse:
    """Undo a merge (a scorer's, from the kept player's page or the players page)."""
    league = _league()
    step = undo.step_of(league.id, merge_id, service.MERGE)
    if step is None:
        abort(404)
    if not ActionForm(prefix="undo").validate_on_submit():
        abort(400)
    try:
        player = service.undo_merge(step)
    except service.LeagueError as exc:
        db.session.rollback()
        flash(say(exc.sentence))
        return redirect(url_for("league.players"))
    flash(gettext("The merge is undone: %(gone)s and %(kept)s are two players again, each "
                  "with their own games.", gone=isolate(player.name),
                  kept=isolate(step.params["keep"])))
    return redirect(url_for("league.player", player_id=player.id))


def undoable_merges(league: League, player: Player | None = None) -> list[Any]:
    """The league's merges a scorer may still undo (into ``player``, if given)."""
    if not membership.can_write(league):
        return []
    return [s for s in service.merges(league) if s.undone_at is None
            and (player is None or s.state.get("keep") == player.id)]


@bp.post("/players/<int:player_id>/retire")
def retire_player(player_id: int) -> BaseResponse:
    league = _league()
    who = _player(league, player_id)
    form = ActionForm(prefix="retire")
    if not form.validate_on_submit():
        abort(400)
    retire = request.form.get("retired") == "1"
    service.set_retired(who, retire)
    if retire:
        flash(gettext("%(name)s is retired: kept in the history, off the new-game list.",
                      name=isolate(who.name)))
    else:
        flash(gettext("%(name)s is back on the roster.", name=isolate(who.name)))
    return redirect(url_for("league.edit_player", player_id=who.id))


# --- history ----------------------------------------------------------------------------


@bp.get("/history")
def history() -> str:
    league = _league()
    seasons = service.prepare(league)
    season, season_value = _season_choice(league, seasons, default_current=False)
    everyone = service.players_of(league)
    player_value = request.args.get("player", "")
    who = None
    if (player_id := db_int(player_value)) is not None:
        who = next((p for p in everyone if p.id == player_id), None)
        if who is None:
            abort(404)
    elif player_value:
        abort(404)
    query = service.history_query(league, season, who)
    if who is not None and season is None:  # (a player plays in one league only)
        total = db.session.scalar(select(func.count()).select_from(Seat)
                                  .where(Seat.player_id == who.id)) or 0
    else:
        total = db.session.scalar(select(func.count()).select_from(
            query.order_by(None).options().with_only_columns(Game.id).subquery())) or 0
    cursors = {}
    for key in ("before", "after"):
        if request.args.get(key):
            cursors[key] = service.parse_cursor(request.args[key])
            if cursors[key] is None:
                abort(400)
    pages = max(1, -(-total // service.HISTORY_PAGE))
    # a page number edited by hand: past the last page (or too large for the database's
    # OFFSET) is the last page, anything not a number the first
    number = min(max(1, db_int(request.args.get("page", "")) or 1), pages)
    offset = 0 if cursors else (number - 1) * service.HISTORY_PAGE
    page = service.history_page(query, cursors.get("before"), cursors.get("after"), offset,
                                total=total)
    items = page.games
    args = {"season": season_value, "player": player_value or None}
    pagination = {
        "total": total, "page": number,
        "pages": pages,
        "newer": {"after": service.cursor_of(items[0]), "page": max(1, number - 1), **args}
        if page.newer and items else None,
        "older": {"before": service.cursor_of(items[-1]), "page": number + 1, **args}
        if page.older and items else None}
    tables = service.game_tables([game.id for game in items])
    return render_template(
        "league/history.html", league=league, seasons=seasons, season=season,
        season_value=season_value, players=everyone, who=who, pagination=pagination,
        games=items, tables=tables, family_name=family_name,
        args=args)


# --- seasons ----------------------------------------------------------------------------


@bp.route("/seasons", methods=["GET", "POST"])
def seasons() -> Page:
    league = _league()
    all_seasons = service.prepare(league)
    form = SeasonForm(prefix="new")
    error = None
    if form.validate_on_submit():
        try:
            season = service.save_season(league, form.name.data or "", form.starts_on.data,
                                         form.ends_on.data)
        except service.LeagueError as exc:
            db.session.rollback()
            error = say(exc.sentence)
        else:
            flash(gettext("Season %(name)s saved.", name=isolate(season.name)))
            return redirect(url_for("league.seasons"))
    elif request.method == "POST":
        error = _form_errors(form)
    edits = {s.id: SeasonForm(prefix=f"s{s.id}", obj=s, formdata=None) for s in all_seasons}
    page = render_template("league/seasons.html", league=league, seasons=all_seasons,
                           form=form, edits=edits, error=error, edit_errors={},
                           delete=ActionForm(prefix="delete"))
    return (page, 400) if error else page


def _form_errors(form: Any) -> str:
    messages = [str(m) for field in form for m in field.errors]
    return " ".join(messages) or gettext(
        "The form was stale or opened in another tab; please try again.")


@bp.post("/seasons/<int:season_id>")
def edit_season(season_id: int) -> Page:
    league, season = _season(season_id)
    form = SeasonForm(prefix=f"s{season.id}")
    error = None
    if form.validate_on_submit():
        try:
            service.save_season(league, form.name.data or "", form.starts_on.data,
                                form.ends_on.data, season)
        except service.LeagueError as exc:
            db.session.rollback()
            error = say(exc.sentence)
        else:
            flash(gettext("Season %(name)s saved.", name=isolate(season.name)))
            return redirect(url_for("league.seasons"))
    else:
        error = _form_errors(form)
    all_seasons = seasons_of(league)
    edits = {s.id: SeasonForm(prefix=f"s{s.id}", obj=s, formdata=None) for s in all_seasons}
    edits[season.id] = form
    page = render_template("league/seasons.html", league=league, seasons=all_seasons,
                           form=SeasonForm(prefix="new", formdata=None), edits=edits,
                           error=None, edit_errors={season.id: error},
                           delete=ActionForm(prefix="delete"))
    return page, 400


@bp.post("/seasons/<int:season_id>/delete")
def delete_season(season_id: int) -> BaseResponse:
    league, season = _season(season_id)
    if not ActionForm(prefix="delete").validate_on_submit():
        abort(400)
    name = season.name
    service.delete_season(season)
    flash(gettext("Season %(name)s deleted; its games count in their year's season.",
                  name=isolate(name)))
    return redirect(url_for("league.seasons"))


# --- exports ----------------------------------------------------------------------------


@bp.get("/export")
def export_page() -> str:
    league = _league()
    service.prepare(league)
    return render_template("league/export.html", league=league,
                           form=ImportForm(), error=None, **_import_figures(),
                           **_export_figures(league), totals=service.league_totals(league))


def _export_figures(league: League) -> dict[str, Any]:
    """Whether the league downloads at once, else the form that starts its export job."""
    return {"export_direct": export_jobs.direct(league), "export_form": ActionForm(),
            "export_keep_hours": export_jobs.KEEP_HOURS}


def _import_limit() -> str:
    return size_text(int(current_app.config["IMPORT_MAX_CONTENT_LENGTH"]))


#: What the import page says a league of 5,000 games weighs (measured by
#: benchmarks/league_import.py: see benchmarks/README.md). Not how long it takes: that
#: depends on the server and its load, so the job's page estimates it from the import's
#: own pace (scorebook.services.jobs.seconds_left).
IMPORT_EXAMPLE_MB = 282


def _import_figures() -> dict[str, Any]:
    return {"import_limit": _import_limit(),
            "import_example_size": f"{format_decimal(IMPORT_EXAMPLE_MB)} MB"}


@bp.get("/results.csv")
def results_csv() -> Response:
    league = _league()
    chunks = league_csv_chunks(league, say)
    first = next(chunks)  # (the header: anything wrong shows as an error page, not a cut file)
    body = stream_with_context(itertools.chain(["\ufeff" + first], chunks))
    return Response(body, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{file_stem(league)}-results.csv"'})


@bp.get("/standings.csv")
def standings_csv_file() -> Response:
    """The standings of ``?season=`` (an id, or ``all``: the default), placed as the page
    places them."""
    league = _league()
    seasons = service.prepare(league)
    season, value = _season_choice(league, seasons, default_current=False)
    suffix = "all-time" if season is None else f"season-{value}"
    return _csv_response(standings_csv(league, season, say),
                         f"{file_stem(league)}-standings-{suffix}.csv")


@bp.get("/export.json")
def export_json() -> Response:
    league = _league()
    chunks = export_league_chunks(league)
    first = next(chunks)  # (anything wrong shows as an error page, not a cut file)
    return Response(stream_with_context(itertools.chain([first], chunks)),
                    mimetype="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="{file_stem(league)}.json"'})


@bp.post("/export")
@access.requires(access.VIEWER)
def export_start() -> Page:
    """The league's whole export written by a background job (``export.json.gz``): the
    answer is the job's page, which offers the file once it is written. Anyone who may
    download ``export.json`` (a viewer) may start it; a league has one under way at a
    time (asking again shows that one)."""
    league = _league()
    form = ActionForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        job = export_jobs.start(league, str(get_locale() or "en"))
    except jobs.TooMany:
        flash(gettext("This league already has as many background jobs as it may: wait "
                      "for one of them to end, then ask for the export again."), "error")
        return redirect(url_for("league.export_page"))
    jobs.remember(session, job.id)
    if current_app.config.get("JOBS_INLINE") and job.state == JOB_QUEUED:
        _run_inline(job)
    return redirect(url_for("jobs.job_page", job_id=job.id))


@bp.get("/exports/<int:job_id>.json.gz")
def export_download(job_id: int) -> Response:
    """A finished export's file, streamed from the jobs' folder, to the browser that
    asked for it (anyone else: 404; once removed, after ``KEEP_HOURS``: 404)."""
    job = db.session.get(Job, job_id) if job_id in jobs.mine(session) else None
    if job is None:
        abort(404)
    league = _league()
    path = export_jobs.path_of(job) if job.league_id == league.id else None
    if path is None:
        abort(404)
    return send_file(path, mimetype="application/gzip", as_attachment=True,
                     download_name=f"{file_stem(league)}.json.gz", max_age=0)


@bp.get("/export.schema.json")
def export_schema() -> Response:
    """The JSON Schema of the league export (generated from its models: the committed
    docs/league-export.schema.json is the same document)."""
    return jsonify(json_schema())


@bp.post("/import")
@access.requires(access.OWNER)
def import_page() -> Page:
    """The upload (streamed to a file by werkzeug as it arrives) is moved into the jobs'
    folder and imported by a background job (:mod:`scorebook.services.jobs`): the answer
    is the job's page, which shows how far it has got. With ``JOBS_INLINE`` (the tests'
    app) the job runs in the request, as a worker would run it."""
    league = _league()  # only an owner imports (and then owns the imported league)
    # (the body limit is IMPORT_MAX_CONTENT_LENGTH, set before the CSRF check reads the
    # form: scorebook.limits; the upload is spooled to a temporary file as it arrives)
    form = ImportForm()
    error, status = None, 400
    if form.validate_on_submit():
        path = _keep_upload(form.file.data.stream)
        try:
            job = jobs.submit(IMPORT_JOB, f"league:{league.id}", league.id, {
                "file": path, "replace": league.id, "language": str(get_locale() or "en"),
                **({"name": form.name.data.strip()} if (form.name.data or "").strip()
                   else {})})
        except jobs.TooMany as refused:
            os.unlink(path)
            error, status = say(refused.sentence), refused.status
        else:
            jobs.remember(session, job.id)
            if not current_app.config.get("JOBS_INLINE"):
                return redirect(url_for("jobs.job_page", job_id=job.id))
            ended = _run_inline(job)
            imported = collect(session, ended)
            if imported is not None:
                flash_imported(imported)
                return redirect(url_for("league.standings", season="all"))
            error = job_error(ended)
    else:
        error = _form_errors(form)
    league = _league()
    page = render_template("league/export.html", league=league, form=form, error=error,
                           **_import_figures(), **_export_figures(league),
                           totals=service.league_totals(league))
    return page, status


def _keep_upload(stream: Any) -> str:
    """Copy the uploaded file (werkzeug's temporary file) into the jobs' folder, a
    megabyte at a time; its path."""
    folder = jobs.folder()
    fd, path = tempfile.mkstemp(prefix="import-", suffix=".json", dir=folder)
    with os.fdopen(fd, "wb") as out:
        shutil.copyfileobj(stream, out, 1024 * 1024)
    return path


def _run_inline(job: Job) -> Job:
    worker = f"inline:{os.getpid()}"
    claimed = jobs.claim(worker, job_id=job.id)
    assert claimed is not None

    def word(failed: Job, sentences: Any) -> str:
        return say_all(sentences)

    return jobs.run_claimed(claimed, worker, word)


@bp.get("/games/<int:game_id>.csv")
def game_export(game_id: int) -> Response:
    game = load_game(game_id)
    if game is None:
        abort(404)
    return _csv_response(game_csv(game, say), f"game-{game.number}.csv")
