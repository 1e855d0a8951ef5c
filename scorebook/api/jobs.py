"""The JSON API for background jobs (``/api/v1/jobs``): how far a league import (or a
ratings replay) has got. A job is seen by the browser that asked for it alone, as its
page ``/jobs/<id>`` is: its session keeps the ids of its jobs
(:func:`scorebook.services.jobs.remember`), and any other job answers 404. Reading a
finished import gives its league to this browser, as the page does (``league_url``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, session, url_for

from scorebook.extensions import db
from scorebook.models import Job
from scorebook.presenters.sentences.jobs import job_error
from scorebook.services import jobs
from scorebook.services.exports import collect

bp = Blueprint("jobs_api", __name__)


def job_json(job: Job) -> dict[str, Any]:
    """The job as the API (and ``/jobs/<id>.json``) shows it: its progress, its page, and
    the league a finished import opened to this browser."""
    body = jobs.progress(job)
    if job.error:  # (worded in this request's language, as the page words it)
        body["error"] = [job_error(job)]
    body["url"] = url_for("jobs.job_page", job_id=job.id)
    league = collect(session, job)
    if league is not None:
        db.session.rollback()  # (only read: the session cookie changed)
        body["league_url"] = url_for("league.standings", season="all")
    return body


@bp.get("")
def list_jobs() -> Response:
    mine = jobs.mine(session)
    found = {j.id: j for j in db.session.scalars(db.select(Job).where(Job.id.in_(mine)))} \
        if mine else {}
    return jsonify({"jobs": [job_json(found[i]) for i in reversed(mine) if i in found]})


@bp.get("/<int:job_id>")
def read_job(job_id: int) -> Response:
    job = db.session.get(Job, job_id) if job_id in jobs.mine(session) else None
    if job is None:
        abort(404)
    return jsonify(job_json(job))
