"""Work longer than a request, run in the background from a table of jobs.

A page that starts something long (a league import) stores a :class:`Job` row
(:func:`submit`) and answers at once with the job's page; ``python -m scorebook.worker``
(started beside the web server by ``make run``, ``make serve`` and ``make dev``) runs it:

- **taking a job** is one conditional ``UPDATE`` (:func:`claim`): queued, or running
  with its lease run out (its worker died), and only one worker's UPDATE matches it —
  on SQLite and PostgreSQL alike, two workers never run one job;
- **the work** is a generator of its kind (:data:`KINDS`): each step it yields is one
  transaction, committed with the job's progress (``done`` of ``total``), the
  ``checkpoint`` to go on from, and a renewed lease, and only if the job is still this
  worker's (:func:`_save`). A step is kept short (a quarter of a second of work), so
  SQLite's one write lock is never held long: a phone's write in another league waits
  at most one step;
- **a restart** finds the job's lease run out and runs it again from its checkpoint:
  the steps committed are kept, the one that was cut off was never committed;
- **a failure** (the kind's error, with sentences) runs the kind's clean-up (e.g. an
  import takes away the league it was storing), then stores the failure in words;
- **each owner** has at most :data:`PER_OWNER` jobs queued or running (:class:`TooMany`).

Why a table and not a job library (RQ, Celery, Dramatiq, Huey): README, "Background
jobs".
"""

from __future__ import annotations

import hashlib
import os
import socket
import time
from collections.abc import Callable, Generator, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import and_, func, or_, select, update

from scorebook.extensions import db
from scorebook.models import (
    JOB_DONE,
    JOB_FAILED,
    JOB_QUEUED,
    JOB_RUNNING,
    Job,
    utcnow,
)
from scorebook.services.errors import Sentence, sentence
from scorebook.services.transaction import transaction

#: Jobs an owner may have queued or running at once.
PER_OWNER = 2
#: Seconds a worker holds a job without a word (renewed by every step): a worker that
#: died is replaced this long after its last step.
LEASE_SECONDS = 60.0
#: Seconds an idle worker waits before looking for work again.
POLL_SECONDS = 0.5
#: Seconds a worker waits after each step on SQLite, with the write lock free: a write
#: waiting for the lock retries every 100 ms at most (SQLite's busy handler backs off to
#: that), so without a pause the next step would take the lock back first, again and
#: again, and a phone's write could wait for many steps. (PostgreSQL locks rows, not
#: the database: no pause there.)
SQLITE_PAUSE_SECONDS = 0.15


class TooMany(Exception):
    """The owner has :data:`PER_OWNER` jobs queued or running already (HTTP 429)."""

    status = 429
    code = "jobs.too-many"

    def __init__(self) -> None:
        self.sentence = sentence("jobs.too-many", most=PER_OWNER)
        super().__init__(self.sentence.id)


class JobFailed(Exception):
    """What a kind raises for a job that cannot be done: its sentences say why."""

    def __init__(self, *sentences: Sentence) -> None:
        self.sentences = sentences
        super().__init__(*sentences)


class _Discard(Exception):
    """A step that asked to be rolled back."""


class LeaseLost(Exception):
    """Another worker took the job (this one's lease ran out): this step is not kept."""


@dataclass
class Step:
    """A step of a job, for the runner to commit: progress, where to go on from, and
    (the last step) what the job made."""

    done: int
    total: int | None = None
    checkpoint: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    #: False for a step that only read (its time is no write's wait).
    wrote: bool = True
    #: True: roll this step back (it lost a race), and go on with the next.
    discard: bool = False


@dataclass(frozen=True)
class Kind:
    """What a kind of job does: ``run(job)`` yields its steps (going on from
    ``job.checkpoint``); ``clean_up(job)``, after a failure, yields a step per
    transaction that takes away what it stored; ``errors``: what it raises for a job
    that cannot be done (with ``sentences``)."""

    run: Callable[[Job], Generator[Step, None, None]]
    clean_up: Callable[[Job], Iterator[Any]] | None = None
    errors: tuple[type[Exception], ...] = (JobFailed,)
    #: Called once the job is done or failed (e.g. to remove its uploaded file).
    after: Callable[[Job], None] | None = None


#: The kinds of job, by name (the services that define them fill it as they are
#: imported: ``league-import`` in :mod:`scorebook.services.exports`).
KINDS: dict[str, Kind] = {}


def folder() -> str:
    """Where the jobs' files are kept, uploads waiting for their import and exports
    written (``JOBS_FOLDER``, else instance/jobs/); made if missing."""
    path = current_app.config.get("JOBS_FOLDER") or os.path.join(
        current_app.instance_path, "jobs")
    os.makedirs(path, exist_ok=True)
    return str(path)


def config(name: str, default: float) -> float:
    if has_app_context():
        return float(current_app.config.get(name, default))
    return default


#: The first key of the PostgreSQL advisory locks that count an owner's jobs (the
#: second: the owner's, :func:`_owner_key`).
OWNER_LOCKS = 0x6A6F6273  # ("jobs")


def _owner_key(owner: str) -> int:
    """A 32-bit number for ``owner`` (the same in every process)."""
    return int.from_bytes(hashlib.sha256(owner.encode()).digest()[:4], "big", signed=True)


def _lock_owner(owner: str) -> None:
    """Count the owner's jobs one submit at a time, whether or not the job names a
    league: on PostgreSQL an advisory lock of the owner's, held until the submit commits
    or rolls back (a second submit waits for it, then counts what it committed); on
    SQLite the submit's INSERT comes before its count and takes the database's one write
    lock until the commit (:func:`submit`)."""
    if db.session.get_bind().dialect.name == "postgresql":
        db.session.execute(select(func.pg_advisory_xact_lock(OWNER_LOCKS,
                                                             _owner_key(owner))))


def active(owner: str) -> int:
    """How many of ``owner``'s jobs are queued or running."""
    return db.session.scalar(select(func.count(Job.id)).where(
        Job.owner == owner, Job.state.in_((JOB_QUEUED, JOB_RUNNING)))) or 0


def submit(kind: str, owner: str, league_id: int | None, payload: dict[str, Any],
           limit: int | None = None) -> Job:
    """Queue a job of ``kind`` for ``owner``; raises :class:`TooMany` if the owner has
    ``limit`` (:data:`PER_OWNER`) queued or running already."""
    if kind not in KINDS:
        raise ValueError(f"no such kind of job: {kind}")
    most = int(config("JOBS_PER_OWNER", PER_OWNER)) if limit is None else limit
    with transaction():
        _lock_owner(owner)
        job = Job(kind=kind, owner=owner, league_id=league_id, payload=payload,
                  state=JOB_QUEUED)
        db.session.add(job)
        db.session.flush()  # (the INSERT first: on SQLite, it takes the write lock)
        if active(owner) > most:  # (this one counted)
            raise TooMany()  # (rolled back: the job is not kept)
    return job


def worker_name() -> str:
    """This process's name as a worker: its host and process id."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}"


def _claimable(now: datetime) -> Any:
    return or_(Job.state == JOB_QUEUED,
               and_(Job.state == JOB_RUNNING, Job.lease_until < now))


def claim(worker: str, lease: float | None = None, job_id: int | None = None
          ) -> Job | None:
    """Take the oldest job that is queued, or running under a lease that ran out (or
    job ``job_id``, if it is); None if there is none. One conditional UPDATE: of two
    workers, one takes it."""
    seconds = config("JOBS_LEASE_SECONDS", LEASE_SECONDS) if lease is None else lease
    now = utcnow()
    if job_id is not None:
        ids = [job_id]
    else:
        ids = list(db.session.scalars(select(Job.id).where(_claimable(now))
                                      .order_by(Job.id).limit(10)))
    db.session.rollback()  # (no read transaction left open under the UPDATE)
    for candidate in ids:
        with transaction():
            taken = db.session.execute(
                update(Job).where(Job.id == candidate, _claimable(now))
                .values(state=JOB_RUNNING, worker=worker,
                        lease_until=now + timedelta(seconds=seconds),
                        attempts=Job.attempts + 1,
                        started_at=func.coalesce(Job.started_at, now))
                .execution_options(synchronize_session=False))
        if taken.rowcount == 1:  # type: ignore[attr-defined]
            job = db.session.get(Job, candidate, populate_existing=True)
            assert job is not None
            return job
    return None


def _save(job: Job, worker: str, lease: float, step: Step | None = None,
          state: str = JOB_RUNNING, error: list[Any] | None = None) -> None:
    """Write the job's progress in the transaction of its step; raises
    :class:`LeaseLost` (the step rolled back) if the job is no longer this worker's."""
    now = utcnow()
    values: dict[str, Any] = {"state": state}
    if state == JOB_RUNNING:
        values["lease_until"] = now + timedelta(seconds=lease)
    else:
        values["finished_at"] = now
        values["lease_until"] = None
    if step is not None:
        values["done"] = step.done
        if step.total is not None:
            values["total"] = step.total
        if step.checkpoint is not None:
            values["checkpoint"] = step.checkpoint
        if step.result is not None:
            values["result"] = step.result
    if error is not None:
        values["error"] = error
    moved = db.session.execute(
        update(Job).where(Job.id == job.id, Job.worker == worker, Job.state == JOB_RUNNING)
        .values(**values).execution_options(synchronize_session=False))
    if moved.rowcount != 1:  # type: ignore[attr-defined]
        raise LeaseLost()


Word = Callable[[Job, Sequence[Sentence]], str]


def run(job: Job, worker: str, word: Word, stop: Callable[[], bool] | None = None,
        lease: float | None = None) -> str:
    """Run a claimed job to its end (or to a lost lease); its final state (``done``,
    ``failed``; ``running`` if another worker took it over; ``queued`` if ``stop()``
    said to stop between two steps: it waits for the next worker, who goes on from its
    checkpoint)."""
    seconds = config("JOBS_LEASE_SECONDS", LEASE_SECONDS) if lease is None else lease
    kind = KINDS[job.kind]
    job_id = job.id
    steps = kind.run(job)
    slowest = 0.0  # (the longest step: how long a write elsewhere may have waited)
    pause = config("JOBS_PAUSE_SECONDS", SQLITE_PAUSE_SECONDS
                   if db.engine.dialect.name == "sqlite" else 0.0)
    try:
        while True:
            if stop is not None and stop():
                steps.close()
                return _release(job_id, worker)
            began = time.monotonic()
            try:
                with transaction():
                    step = next(steps, None)
                    if step is not None and step.discard:
                        raise _Discard
                    if step is None:
                        _save(job, worker, seconds, None, JOB_DONE)
                        return JOB_DONE
                    if step.result is not None:
                        step.result["slowest_step_s"] = round(max(
                            slowest, time.monotonic() - began), 3)
                        _save(job, worker, seconds, step, JOB_DONE)
                        return JOB_DONE
                    _save(job, worker, seconds, step)
            except _Discard:
                continue
            if step.wrote:
                slowest = max(slowest, time.monotonic() - began)
            if pause:
                time.sleep(pause)
    except LeaseLost:
        current_app.logger.warning("job %s: taken over by another worker", job_id)
        return JOB_RUNNING
    except kind.errors as exc:
        said: Sequence[Sentence] = getattr(exc, "sentences", ())
        steps.close()
        return _fail(job_id, worker, seconds, kind, word, said)
    except Exception:
        current_app.logger.exception("job %s failed", job_id)
        steps.close()
        return _fail(job_id, worker, seconds, kind, word,
                     (sentence("jobs.crashed"),))


def _release(job_id: int, worker: str) -> str:
    db.session.rollback()
    with transaction():
        db.session.execute(
            update(Job).where(Job.id == job_id, Job.worker == worker, Job.state == JOB_RUNNING)
            .values(state=JOB_QUEUED, worker=None, lease_until=None)
            .execution_options(synchronize_session=False))
    return JOB_QUEUED


def _fail(job_id: int, worker: str, lease: float, kind: Kind, word: Word,
          said: Sequence[Sentence]) -> str:
    db.session.rollback()
    job = db.session.get(Job, job_id, populate_existing=True)
    assert job is not None
    text = word(job, said)
    try:
        if kind.clean_up is not None:
            for _left in kind.clean_up(job):
                with transaction():
                    _save(job, worker, lease)
                    # (the clean-up's step is in this transaction: committed with it)
        with transaction():
            _save(job, worker, lease, None, JOB_FAILED, [text, *_kept(said)])
    except LeaseLost:
        return JOB_RUNNING
    return JOB_FAILED


class _NotPlain(ValueError):
    """A sentence's parameter that JSON cannot keep as it is."""


def _encode(value: Any) -> Any:
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, Sentence):
        return {"sentence": {"id": value.id,
                             "params": {k: _encode(v) for k, v in value.params.items()}}}
    if isinstance(value, list | tuple):
        return {"list": [_encode(v) for v in value]}
    raise _NotPlain(type(value).__name__)


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and "sentence" in value:
        said = value["sentence"]
        return sentence(str(said["id"]), **{k: _decode(v) for k, v in said["params"].items()})
    if isinstance(value, dict) and "list" in value:
        return tuple(_decode(v) for v in value["list"])
    if isinstance(value, dict | list):
        raise _NotPlain("a kept value of an unknown shape")
    return value


def _kept(said: Sequence[Sentence]) -> list[dict[str, Any]]:
    """The sentences of a failure as the job keeps them beside their wording in the
    asker's language, so that every page and answer words them in its reader's (none when
    a parameter is more than text, numbers and sentences, e.g. a referee's problem with
    its cards: then the first wording is all there is)."""
    try:
        return [{"said": [_encode(s) for s in said]}] if said else []
    except _NotPlain:
        return []


def said_by(job: Job) -> list[Sentence] | None:
    """What a failed job was refused with, as sentences to word in the reader's language;
    None when only its wording was kept (an older job's, or one whose sentences were more
    than plain data): ``job.error[0]``."""
    kept = job.error[1] if job.error and len(job.error) > 1 else None
    if not isinstance(kept, dict) or not isinstance(kept.get("said"), list):
        return None
    try:
        said = [_decode(s) for s in kept["said"]]
    except (_NotPlain, TypeError, KeyError, AttributeError):
        return None
    return said if all(isinstance(s, Sentence) for s in said) else None


def run_one(worker: str, word: Word, stop: Callable[[], bool] | None = None) -> Job | None:
    """Claim one job and run it; the job (None: there was none)."""
    job = claim(worker)
    if job is None:
        return None
    return run_claimed(job, worker, word, stop)


def run_claimed(job: Job, worker: str, word: Word, stop: Callable[[], bool] | None = None
                ) -> Job:
    """Run a job this worker holds, then its kind's ``after``; the job as it ended."""
    job_id = job.id
    state = run(job, worker, word, stop)
    db.session.rollback()
    ended = db.session.get(Job, job_id, populate_existing=True)
    assert ended is not None
    after = KINDS[ended.kind].after
    if state in (JOB_DONE, JOB_FAILED) and after is not None:
        after(ended)
    return ended


#: Where a browser's session keeps the ids of the jobs it asked for: only it sees them.
SESSION_KEY = "jobs"
#: The most job ids a session keeps (the latest).
KEPT = 20


def remember(store: MutableMapping[str, Any], job_id: int) -> None:
    """This browser asked for job ``job_id``: it may watch it."""
    kept = [i for i in mine(store) if i != job_id]
    store[SESSION_KEY] = (kept + [job_id])[-KEPT:]


def mine(store: Mapping[str, Any]) -> list[int]:
    """The jobs this browser asked for."""
    raw = store.get(SESSION_KEY)
    return [i for i in raw if isinstance(i, int)] if isinstance(raw, list) else []


#: The least a job must have run, and the least part of its work it must have done,
#: before :func:`seconds_left` says how long the rest may take.
ESTIMATE_AFTER_SECONDS = 5.0
ESTIMATE_AFTER_PART = 0.02


def seconds_left(job: Job, now: datetime | None = None) -> int | None:
    """How long a running job may still take, at its own pace so far (``done`` of
    ``total`` since it started): None while it has measured too little to say (or
    has no total, or is not running). No fixed figure: the same file takes minutes on
    a quiet machine and several times that on a busy one."""
    if job.state != JOB_RUNNING or not job.total or job.started_at is None \
            or not 0 < job.done < job.total:
        return None
    started = job.started_at if job.started_at.tzinfo else job.started_at.replace(
        tzinfo=utcnow().tzinfo)
    spent = ((now or utcnow()) - started).total_seconds()
    if spent < ESTIMATE_AFTER_SECONDS or job.done < job.total * ESTIMATE_AFTER_PART:
        return None
    return max(1, round(spent * (job.total - job.done) / job.done))


def progress(job: Job) -> dict[str, Any]:
    """The job as its page and its JSON show it (``error``: as kept; the pages and the
    API word :func:`said_by` in their reader's language instead)."""
    return {"id": job.id, "kind": job.kind, "state": job.state, "done": job.done,
            "total": job.total, "seconds_left": seconds_left(job),
            "result": job.result, "error": job.error, "attempts": job.attempts,
            "created_at": job.created_at.isoformat() if job.created_at else None,
            "started_at": job.started_at.isoformat() if job.started_at else None,
            "finished_at": job.finished_at.isoformat() if job.finished_at else None}
