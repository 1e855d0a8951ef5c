"""The wording of the background jobs' sentences (see :mod:`scorebook.presenters.sentences`):
an owner with too many jobs at once, and a job that stopped on an unforeseen error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext

from scorebook.models import Job
from scorebook.presenters.sentences import words
from scorebook.services.jobs import said_by


@words("jobs.too-many")
def _too_many(p: Mapping[str, Any]) -> str:
    return str(gettext("This league already has %(most)s imports waiting or running: wait "
                       "for one of them to end, then send the file again.", most=p["most"]))


@words("jobs.crashed")
def _crashed(p: Mapping[str, Any]) -> str:
    return str(gettext("The job stopped on an unexpected error, and nothing of it was kept. "
                       "Try again; if it happens again, tell whoever runs this site."))


def job_error(job: Job) -> str:
    """Why a failed job stopped, in the reader's language (the sentences it kept), or as
    it was first worded (a job that kept only that); empty for a job that did not fail."""
    from scorebook.presenters.sentences import say_all

    said = said_by(job)
    if said is not None:
        return say_all(said)
    return str((job.error or [""])[0])
