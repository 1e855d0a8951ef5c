"""The statistics cache of a whole league counted in the background
(:mod:`scorebook.services.jobs`), the job ``stats-rebuild``.

A page counts the few games an edit left out of date itself
(:func:`scorebook.services.stats.cache.refresh`, within ``STATS_REFRESH_SECONDS``); when
more are left than that (a league imported or upgraded: thousands of games), it starts
this job (:func:`start`: one per league at a time) and says how far it has got until
it ends. Each step counts a chunk of games in one transaction, the chunk sized so that
a step takes about :data:`STEP_SECONDS` of CPU; a step writes (and takes SQLite's write
lock) only once its games' figures are read. Nothing
needs a checkpoint: what is left is what :func:`~scorebook.services.stats.cache.stale`
finds, so a job taken over after a crash goes on from the last chunk committed.
"""

from __future__ import annotations

import time
from collections.abc import Generator

from flask import current_app
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from scorebook.extensions import db
from scorebook.models import FINISHED, JOB_QUEUED, JOB_RUNNING, Game, GameStat, Job
from scorebook.services import jobs
from scorebook.services.stats import cache

#: The kind of job that counts a league's statistics cache.
STATS_JOB = "stats-rebuild"
#: Seconds of CPU a step aims at (its chunk grows or shrinks to take about that long).
#: CPU, not wall-clock time: on a busy machine a step waits for a core as long as it
#: works, and chunks cut by the clock would shrink to a game or two, each step then
#: paying again what every step pays (the sums of the players and seasons it touches).
STEP_SECONDS = 0.5
#: The chunk's first size, the least and the most, in games.
FIRST_CHUNK = 25
LEAST_CHUNK = 10
MOST_CHUNK = 2000
#: How often the job looks again for games left out of date (edited while it counted).
ROUNDS = 3


def _run(job: Job) -> Generator[jobs.Step, None, None]:
    league_id = job.league_id
    assert league_id is not None
    aim = float(current_app.config.get("STATS_STEP_SECONDS", STEP_SECONDS))
    done = job.done
    size = FIRST_CHUNK
    for _round in range(ROUNDS):
        behind, gone = cache.stale(league_id)
        if not behind and not gone:
            break
        total = done + len(behind)
        if gone:
            cache.drop(gone)
            yield jobs.Step(done, total)
        # (the games with rows: the others have none to drop, and their step writes
        # nothing, taking SQLite's write lock, until its first rows are aggregated)
        counted = set(db.session.scalars(select(GameStat.game_id).where(
            GameStat.league_id == league_id)))
        at = 0
        while at < len(behind):
            chunk = behind[at:at + size]
            began = time.thread_time()
            try:
                old = [game for game in chunk if game in counted]
                if old:
                    cache.drop(old)
                cache.build(league_id, chunk)
                db.session.flush()
            except IntegrityError:  # (a page counted some of them first: looked at again)
                yield jobs.Step(done, total, discard=True)
            else:
                yield jobs.Step(done + len(chunk), total)
                done += len(chunk)
            at += len(chunk)
            spent = max(time.thread_time() - began, 1e-3)
            size = max(LEAST_CHUNK, min(MOST_CHUNK, int(len(chunk) * min(2.0, aim / spent))))
    yield jobs.Step(done, done, result={"games": done})


jobs.KINDS[STATS_JOB] = jobs.Kind(run=_run)


def running(league_id: int) -> Job | None:
    """The league's count waiting or under way, if there is one."""
    return db.session.scalar(select(Job).where(
        Job.kind == STATS_JOB, Job.league_id == league_id,
        Job.state.in_((JOB_QUEUED, JOB_RUNNING))).order_by(Job.id.desc()).limit(1))


def start(league_id: int) -> Job | None:
    """Queue the count of the league's statistics (None: one is queued or running
    already). Its owner is the league's statistics, not a person: it takes none of the
    jobs an owner may have."""
    try:
        return jobs.submit(STATS_JOB, f"stats:{league_id}", league_id, {}, limit=1)
    except jobs.TooMany:
        return None


def progress(job: Job, league_id: int) -> cache.Progress:
    """How far the league's count has got, as the pages show it."""
    total = db.session.scalar(select(func.count()).select_from(Game).where(
        Game.league_id == league_id, Game.status == FINISHED,
        Game.finished_at.is_not(None))) or 0
    if job.total is None:  # (not started yet)
        left = len(cache.stale(league_id)[0])
    else:
        left = job.total - job.done
    return cache.Progress(True, max(left, 1), total)
