"""A league's whole export, written in the background (:mod:`scorebook.services.jobs`).

A league of 50,000 games is some 420 MB of indented JSON and minutes of work: too much
for a request. The job ``league-export`` writes it into the jobs' folder
(``instance/jobs/``) as **gzip-compressed compact JSON** (``export.json.gz``: the
same document as ``export.json``, without the indentation, a tenth of its size or less),
which the league import reads back as it is (:func:`scorebook.services.exports.unpacked`
knows it by its first bytes). Leagues of up to :data:`DIRECT_GAMES` games are quick
enough to download in the request (``/league/export.json``); the export page offers the
job for bigger ones.

Each step writes the games read in about a quarter of a second as one gzip *member*
(a gzip file may hold several one after the other: every reader reads them as one
text), then syncs the file and stores in the job's checkpoint how many bytes it is and
the last game written. A worker that dies mid-step leaves bytes after that: the next
worker cuts the file back to the checkpoint and goes on. The head (league, players,
seasons) is written first; if it changed by the end (a player renamed while the games
were written), the export starts again, so that every name a game uses is in its head.

The file of a finished export is kept :data:`KEEP_HOURS` hours, then removed
(:func:`sweep`, run by the worker once a minute and before each new export).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import time
from collections.abc import Generator
from datetime import timedelta
from typing import Any

from flask import current_app
from sqlalchemy import func, select

from scorebook.extensions import db
from scorebook.models import (
    JOB_DONE,
    JOB_FAILED,
    JOB_QUEUED,
    JOB_RUNNING,
    Game,
    Job,
    League,
    utcnow,
)
from scorebook.services import jobs
from scorebook.services.errors import sentence
from scorebook.services.exports import _export_head, exported_batches
from scorebook.services.seasons import as_utc

#: The kind of job that writes a league's export.
EXPORT_JOB = "league-export"
#: Leagues of up to this many games download at once (``export.json``, streamed): at
#: some 3–6 ms a game (benchmarks/README.md, "Exports and statistics as jobs") that is
#: a few seconds; bigger ones are written by a job.
DIRECT_GAMES = 1000
#: Hours a finished export's file is kept for its download.
KEEP_HOURS = 24
#: Seconds of work in each step (one gzip member, one transaction of the job's
#: progress). A step only reads the league: it holds SQLite's write lock just for the
#: job's row, so it may be longer than an import's (the worker's pause after each step
#: on SQLite then costs a tenth of the time, not half).
STEP_SECONDS = 1.0
#: Games read at a time.
BATCH = 50
#: How often the export starts again because its head changed before it gives up.
MAX_RESTARTS = 3
#: gzip's level: 6 (its default) compresses a league's JSON about as well as 9, faster.
LEVEL = 6


#: Where the jobs' files are (``JOBS_FOLDER``, else instance/jobs/).
folder = jobs.folder


def file_name(job_id: int) -> str:
    return f"export-{job_id}.json.gz"


def path_of(job: Job) -> str | None:
    """The finished export's file, if it is still kept."""
    if job.kind != EXPORT_JOB or job.state != JOB_DONE or not job.result:
        return None
    path = os.path.join(folder(), file_name(job.id))
    return path if os.path.exists(path) else None


def games_of(league: League) -> int:
    return db.session.scalar(select(func.count(Game.id)).where(
        Game.league_id == league.id)) or 0


def direct(league: League) -> bool:
    """Whether the league is small enough to download in the request."""
    return games_of(league) <= DIRECT_GAMES


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _head(league: League) -> tuple[str, str]:
    """The text of the export up to its first game, and a digest of it."""
    head = _export_head(league)
    del head["name"]
    text = _dumps(head)[:-1] + ',"games":['  # (games last: the head reads first)
    return text, hashlib.sha256(text.encode()).hexdigest()


def _append(path: str, at: int, text: str) -> int:
    """Cut the file back to ``at`` bytes, add ``text`` as one gzip member, sync it; its
    size now."""
    with open(path, "r+b" if os.path.exists(path) else "wb") as raw:
        raw.truncate(at)
        raw.seek(at)
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=LEVEL, mtime=0) as packed:
            packed.write(text.encode())
        raw.flush()
        os.fsync(raw.fileno())
        return raw.tell()


def _run(job: Job) -> Generator[jobs.Step, None, None]:
    league = db.session.get(League, job.league_id)
    if league is None:
        raise jobs.JobFailed(sentence("exports.league-gone"))
    part = os.path.join(folder(), file_name(job.id) + ".part")
    budget = float(current_app.config.get("EXPORT_STEP_SECONDS", STEP_SECONDS))
    point: dict[str, Any] = dict(job.checkpoint or {})
    restarts = int(point.get("restarts", 0))
    while True:
        total = games_of(league)
        if "bytes" not in point:  # the head first
            text, digest = _head(league)
            size = _append(part, 0, text)
            point = {"bytes": size, "after": 0, "games": 0, "head": digest,
                     "restarts": restarts}
            yield jobs.Step(0, total, dict(point), wrote=False)
        batches = exported_batches(league, BATCH, int(point["after"]))
        while True:
            began = time.monotonic()
            pieces: list[str] = []
            written = int(point["games"])
            last = int(point["after"])
            for after, games in batches:
                last = after
                for game in games:
                    pieces.append(("," if written else "") + _dumps(game))
                    written += 1
                if time.monotonic() - began > budget:
                    break
            if not pieces:
                break
            size = _append(part, int(point["bytes"]), "".join(pieces))
            point.update(bytes=size, after=last, games=written)
            yield jobs.Step(written, max(total, written), dict(point), wrote=False)
        batches.close()
        if _head(league)[1] == point["head"]:
            break
        restarts += 1  # a name changed while the games were written: start again
        if restarts > MAX_RESTARTS:
            raise jobs.JobFailed(sentence("exports.kept-changing"))
        point = {"restarts": restarts}
        yield jobs.Step(0, total, dict(point), wrote=False)
    size = _append(part, int(point["bytes"]), "]}\n")
    done = os.path.join(folder(), file_name(job.id))
    os.replace(part, done)
    yield jobs.Step(int(point["games"]), int(point["games"]), result={
        "games": int(point["games"]), "bytes": size, "league": league.id,
        "name": league.name})


def _after(job: Job) -> None:
    """A failed export's part is removed (a finished one is kept for its download)."""
    if job.state == JOB_FAILED:
        try:
            os.unlink(os.path.join(folder(), file_name(job.id) + ".part"))
        except FileNotFoundError:
            pass


jobs.KINDS[EXPORT_JOB] = jobs.Kind(run=_run, after=_after)


def running(league: League) -> Job | None:
    """The export of this league waiting or under way, if there is one."""
    return db.session.scalar(select(Job).where(
        Job.kind == EXPORT_JOB, Job.league_id == league.id,
        Job.state.in_((JOB_QUEUED, JOB_RUNNING))).order_by(Job.id.desc()).limit(1))


def start(league: League, language: str) -> Job:
    """The league's export as a job: the one already waiting or under way, else a new
    one (raises :class:`scorebook.services.jobs.TooMany` if the league has as many jobs
    as it may)."""
    sweep()
    job = running(league)
    if job is not None:
        return job
    return jobs.submit(EXPORT_JOB, f"league:{league.id}", league.id,
                       {"language": language})


def sweep(now: Any = None) -> int:
    """Remove the files of exports finished more than :data:`KEEP_HOURS` ago (and the
    parts of exports that are no longer running); how many files went."""
    keep = float(current_app.config.get("EXPORT_KEEP_HOURS", KEEP_HOURS))
    before = (now or utcnow()) - timedelta(hours=keep)
    where = folder()
    removed = 0
    for name in os.listdir(where):
        if not name.startswith("export-") or ".json.gz" not in name:
            continue
        number = name[len("export-"):].split(".", 1)[0]
        job = db.session.get(Job, int(number)) if number.isdigit() else None
        stale = job is None or (
            name.endswith(".part") and job.state in (JOB_DONE, JOB_FAILED)) or (
            job.finished_at is not None and as_utc(job.finished_at) < before)
        if stale:
            try:
                os.unlink(os.path.join(where, name))
                removed += 1
            except FileNotFoundError:
                pass
    db.session.rollback()
    return removed
