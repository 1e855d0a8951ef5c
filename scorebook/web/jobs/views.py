"""``/jobs/<id>``: how far a background job has got (:mod:`scorebook.services.jobs`), the
page refreshing itself until the job ends, and ``/jobs/<id>.json`` for scripts. Only the
browser that asked for the job sees it (its session keeps the job's id); anyone else
gets a 404. A finished league import gives its league to that browser and opens it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    session,
    url_for,
)
from flask_babel import format_decimal, gettext

from scorebook.extensions import db
from scorebook.models import JOB_DONE, JOB_FAILED, Job, League
from scorebook.presenters.bidi import isolate
from scorebook.presenters.sentences.jobs import job_error
from scorebook.services import export_jobs, jobs
from scorebook.services.exports import collect
from scorebook.web import Page

bp = Blueprint("jobs", __name__)

#: Seconds between two refreshes of a job's page.
REFRESH_SECONDS = 2


def _job(job_id: int) -> Job:
    job = db.session.get(Job, job_id) if job_id in jobs.mine(session) else None
    if job is None:
        abort(404)
    return job


def _collected(job: Job) -> League | None:
    league = collect(session, job)
    if league is not None:
        db.session.rollback()  # (only read: the session cookie changed)
    return league


def flash_imported(league: League) -> None:
    flash(gettext("The league %(name)s was imported, and this browser owns it: set "
                  "a password in its settings to open it on other devices, and make "
                  "invite links there.", name=isolate(league.name)))


def _megabytes(size: int) -> str:
    return gettext("%(size)s MB", size=format_decimal(round(size / (1024 * 1024), 1)))


@bp.get("/<int:job_id>")
def job_page(job_id: int) -> Page:
    job = _job(job_id)
    league = _collected(job)
    if league is not None:
        flash_imported(league)
        return redirect(url_for("league.standings", season="all"))
    if job.kind == export_jobs.EXPORT_JOB:
        return render_template("jobs/export.html", job=job, refresh=REFRESH_SECONDS,
                               ended=job.state in (JOB_DONE, JOB_FAILED),
                               kept=export_jobs.path_of(job) is not None,
                               keep_hours=export_jobs.KEEP_HOURS, error=job_error(job),
                               size=_megabytes((job.result or {}).get("bytes", 0)))
    left = jobs.seconds_left(job)
    return render_template("jobs/job.html", job=job, refresh=REFRESH_SECONDS,
                           ended=job.state in (JOB_DONE, JOB_FAILED), error=job_error(job),
                           left=None if left is None else timedelta(seconds=left))


@bp.get("/<int:job_id>.json")
def job_json(job_id: int) -> Response:
    job = _job(job_id)
    body: dict[str, Any] = jobs.progress(job)
    if job.error:
        body["error"] = [job_error(job)]
    body["url"] = url_for("jobs.job_page", job_id=job.id)
    league = _collected(job)
    if league is not None:
        body["league_url"] = url_for("league.standings", season="all")
    if job.kind == export_jobs.EXPORT_JOB and export_jobs.path_of(job) is not None:
        body["download_url"] = url_for("league.export_download", job_id=job.id)
    return jsonify(body)
