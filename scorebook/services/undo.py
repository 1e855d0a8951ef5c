"""What was done in a league and can be undone, kept as :class:`UndoStep` rows.

A step is written in the same transaction as what it records: its ``kind`` (what was
done), ``params`` (what a page shows of it: names, counts) and ``state`` (what undoing it
needs), who did it and when, as the history names a phone.  Undoing is the kind's own
service (a merge: :func:`scorebook.services.league.undo_merge`), which calls
:func:`mark_undone` in its transaction; the step stays, with who undid it and when, so
the league keeps a record of both.  Only the latest steps are offered (:func:`recent`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from scorebook.extensions import db
from scorebook.models import UndoStep, utcnow
from scorebook.services import history

#: How many of a league's latest steps its pages list.
RECENT = 20


def record(league_id: int, kind: str, params: Mapping[str, Any],
           state: Mapping[str, Any]) -> UndoStep:
    """Add a step to the current transaction, written by the request's phone."""
    device, player, key = history.who(league_id)
    step = UndoStep(league_id=league_id, kind=kind, params=dict(params), state=dict(state),
                    device=device, player=player, session_key=key)
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


def recent(league_id: int, kind: str | None = None, limit: int = RECENT) -> list[UndoStep]:
    """The league's latest steps (of ``kind``), latest first, undone ones included."""
    query = select(UndoStep).where(UndoStep.league_id == league_id)
    if kind is not None:
        query = query.where(UndoStep.kind == kind)
    return list(db.session.scalars(
        query.order_by(UndoStep.created_at.desc(), UndoStep.id.desc()).limit(limit)))
