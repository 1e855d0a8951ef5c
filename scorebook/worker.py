"""``python -m scorebook.worker``: runs the background jobs (:mod:`scorebook.services.jobs`).

``make run``, ``make serve`` (gunicorn's master starts it: :func:`scorebook.serving.on_starting`)
and ``make dev`` start one beside the web server, on the same database (``DATABASE_URL``,
else the SQLite file in instance/) and the same instance folder (the uploaded files).
It takes the oldest waiting job, runs it a step per transaction, and when there is none
looks again every half second (and, once a minute, removes the files of exports
kept past their time). It stops between two steps on SIGTERM or SIGINT, or when
the server that started it is gone (``SCOREBOOK_WORKER_PARENT``), handing its job back
to the queue (the next worker goes on from its checkpoint). Several may run at once
(``JOB_WORKERS``): each job is taken by one.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

from flask import Flask
from flask_babel import force_locale
from sqlalchemy.exc import OperationalError

from scorebook.extensions import db
from scorebook.models import Job
from scorebook.presenters.sentences import say_all
from scorebook.services import (  # noqa: F401  (exports: its kind of job)
    export_jobs,  # noqa: F401  (its kind of job)
    exports,
    jobs,
)
from scorebook.services.errors import Sentence
from scorebook.services.stats import rebuild  # noqa: F401  (its kind of job)

#: Seconds between two looks for export files kept past their time (when idle).
SWEEP_SECONDS = 60.0
#: The environment variable naming the process whose end stops the worker.
PARENT = "SCOREBOOK_WORKER_PARENT"


def word(app: Flask) -> jobs.Word:
    """How the worker words a failure: in the language of the page that asked."""

    def _word(job: Job, sentences: Sequence[Sentence]) -> str:
        language = str(job.payload.get("language") or "en")
        with app.test_request_context(), force_locale(language):
            return say_all(sentences)

    return _word


class Worker:
    def __init__(self, app: Flask, name: str | None = None) -> None:
        self.app = app
        self.name = name or jobs.worker_name()
        self.stopping = threading.Event()
        parent = os.environ.get(PARENT, "")
        self.parent = int(parent) if parent.isdigit() else None

    def should_stop(self) -> bool:
        if self.parent is not None and os.getppid() != self.parent:
            self.stopping.set()  # (the server that started it is gone)
        return self.stopping.is_set()

    def run_once(self) -> Job | None:
        """Take one job and run it (None: there was none)."""
        with self.app.app_context():
            try:
                job = jobs.claim(self.name)
                if job is None:
                    return None
                return jobs.run_claimed(job, self.name, word(self.app), self.should_stop)
            finally:
                db.session.remove()

    def sweep(self) -> None:
        """Remove the files of exports kept past their time (export_jobs.KEEP_HOURS)."""
        with self.app.app_context():
            try:
                export_jobs.sweep()
            finally:
                db.session.remove()

    def serve(self) -> None:
        poll = float(self.app.config.get("JOBS_POLL_SECONDS", jobs.POLL_SECONDS))
        swept = 0.0
        while not self.should_stop():
            try:
                job = self.run_once()
                if job is None and time.monotonic() - swept > SWEEP_SECONDS:
                    self.sweep()
                    swept = time.monotonic()
            except OperationalError as error:  # (the database away for a moment)
                self.app.logger.warning("job worker: %s", error)
                job = None
            if job is None:
                self.stopping.wait(poll)


def main(argv: Sequence[str] | None = None) -> int:
    from app import create_app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s job worker %(message)s")
    app = create_app()
    worker = Worker(app)

    def stop(_signum: int, _frame: Any) -> None:
        worker.stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    worker.serve()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
