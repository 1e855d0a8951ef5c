"""What was done and can be undone, kept as :class:`UndoStep` rows: in a league (a
merge) and at a game's table (a hand saved, edited or deleted, a live move).

A step is written in the same transaction as what it records: its ``kind`` (what was
done), ``params`` (what a page shows of it: names, counts) and ``state`` (what undoing it
needs), who did it and when, as the history names a phone.  Undoing is the kind's own
service (a merge: :func:`scorebook.services.league.undo_merge`; a step at the table:
:func:`scorebook.services.hands.undo_step`), which calls :func:`mark_undone` in its
transaction; the step stays, with who undid it and when, so the league keeps a record of
both.  Only the latest steps are offered (:func:`recent`).

At the table a step is offered for :func:`window` (``UNDO_MINUTES``, 10 minutes by
default) to every phone that shows the game, and only the game's newest step
(:func:`offered`): an undo is itself no step, so after it nothing is offered until the
next change.  The time is read from :data:`clock` (tests set it forward instead of
waiting).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import delete, func, select

from scorebook.extensions import db
from scorebook.models import Change, UndoStep, utcnow
from scorebook.services import history
from scorebook.services.seasons import as_utc

#: How many of a league's latest steps its pages list.
RECENT = 20

#: What can be undone at a game's table (:func:`scorebook.services.hands.undo_step`).
HAND_RECORDED = "hand-recorded"  # a hand saved at the end of it
HAND_EDITED = "hand-edited"
HAND_DELETED = "hand-deleted"
HAND_FINISHED = "hand-finished"  # a live hand finished: undoing it makes it live again
LIVE_MOVE = "live-move"  # a meld put down or a card laid off in the live hand
TABLE_KINDS = (HAND_RECORDED, HAND_EDITED, HAND_DELETED, HAND_FINISHED, LIVE_MOVE)

#: How long a step at the table is offered, unless ``UNDO_MINUTES`` says otherwise.
UNDO_MINUTES = 10

#: How long a step at the table is kept past its window: a phone that still shows it is
#: told what changed since (409), not that there is no such step.
KEPT = timedelta(days=1)

#: The time now (UTC). Tests replace it to be later than the window.
clock: Callable[[], datetime] = utcnow


def window() -> timedelta:
    """How long after a step at the table it can be undone (``UNDO_MINUTES``)."""
    minutes = UNDO_MINUTES
    if has_app_context():
        minutes = int(current_app.config.get("UNDO_MINUTES", UNDO_MINUTES))
    return timedelta(minutes=minutes)


def record(league_id: int, kind: str, params: Mapping[str, Any],
           state: Mapping[str, Any], game_id: int | None = None) -> UndoStep:
    """Add a step to the current transaction, written by the request's phone (at the
    table of ``game_id``, if given: the game's steps older than a day past the window
    go, as only the newest can still be undone and the history keeps what each did)."""
    device, player, key = history.who(league_id)
    if game_id is not None:
        # (never the table's newest row: SQLite would give its id to the next step, and a
        # page still holding that id would undo another change)
        newest = select(func.max(UndoStep.id)).scalar_subquery()
        db.session.execute(delete(UndoStep).where(
            UndoStep.game_id == game_id, UndoStep.created_at < clock() - window() - KEPT,
            UndoStep.id < newest).execution_options(synchronize_session=False))
    step = UndoStep(league_id=league_id, game_id=game_id, kind=kind, params=dict(params),
                    state=dict(state), device=device, player=player, session_key=key,
                    created_at=clock())
    db.session.add(step)
    return step


def mark_undone(step: UndoStep) -> None:
    """The step was undone now, by the request's phone (in the caller's transaction)."""
    device, player, _key = history.who(step.league_id)
    step.undone_at = utcnow()
    step.undone_device, step.undone_player = device, player


def step_of(league_id: int, step_id: int, kind: str) -> UndoStep | None:
    """The league's step of that kind with that id (None: not this league's, or none)."""
    step = db.session.get(UndoStep, step_id)
    if step is None or step.league_id != league_id or step.kind != kind:
        return None
    return step


def game_step(game_id: int, step_id: int) -> UndoStep | None:
    """The step with that id taken at the table of ``game_id`` (None: not that game's)."""
    step = db.session.get(UndoStep, step_id)
    if step is None or step.game_id != game_id or step.kind not in TABLE_KINDS:
        return None
    return step


def latest(game_id: int) -> UndoStep | None:
    """The newest step taken at the game's table, undone or not."""
    return db.session.scalar(select(UndoStep).where(UndoStep.game_id == game_id)
                             .order_by(UndoStep.id.desc()).limit(1))


def until(step: UndoStep) -> datetime:
    """The moment the step can no longer be undone."""
    return as_utc(step.created_at) + window()


def expired(step: UndoStep, now: datetime | None = None) -> bool:
    return (now or clock()) > until(step)


def newer_change(step: UndoStep) -> Change | None:
    """The first change to the step's game after the step's own (its history entry,
    ``state["change"]``): what an undo of it would overwrite, so refuses it."""
    return db.session.scalar(select(Change).where(
        Change.game_id == step.game_id, Change.id > int(step.state.get("change", 0)))
        .order_by(Change.id).limit(1))


def offered(game_id: int, now: datetime | None = None) -> UndoStep | None:
    """The step every phone of the table is offered to undo: the game's newest, if it
    is not undone, its time has not run out and nothing changed in the game since."""
    step = latest(game_id)
    if step is None or step.undone_at is not None or expired(step, now):
        return None
    if newer_change(step) is not None:
        return None
    return step


def recent(league_id: int, kind: str | None = None, limit: int = RECENT) -> list[UndoStep]:
    """The league's latest steps (of ``kind``), latest first, undone ones included."""
    query = select(UndoStep).where(UndoStep.league_id == league_id)
    if kind is not None:
        query = query.where(UndoStep.kind == kind)
    return list(db.session.scalars(
        query.order_by(UndoStep.created_at.desc(), UndoStep.id.desc()).limit(limit)))
