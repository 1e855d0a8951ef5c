"""The one place a write is committed: ``with transaction(): ...``.

Every write of the services and the pages ends in a :func:`transaction` block (a test,
``tests/web/test_transaction.py``, fails on a ``commit`` anywhere else in scorebook/):

- the **outermost** block commits when its body ends, and rolls back when an exception
  leaves it (the exception goes on, unchanged: a conflict the database found at the
  commit is raised from the ``with`` statement, where the service turns it into its
  answer, e.g. :class:`~scorebook.services.hands.HandConflict`);
- a block **inside** another (a service called by a service, or by a page that adds to
  the same write) joins it: it commits nothing, so the whole write lands at once or not
  at all.  It flushes when its body ends, so a conflict in its own writes is raised
  where the service that made them can answer it;
- an exception leaving an inner block rolls the whole transaction back at once (so the
  code that catches it may read the database again, e.g. to show the hand another phone
  stored), and so does a ``rollback()`` while a block is open.  Either way the outer
  block then commits nothing: if its body still ends normally, it raises
  :class:`TransactionAborted` rather than commit half a write.

The block marks where the unit of work ends, as ``commit()`` did: what the session read
and wrote before it (since the last commit) is part of it.  No savepoints: none of the
services retries inside a transaction; a write that loses a race is rolled back whole
and answered (or tried again from the start, like a game's number).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import PrimaryKeyConstraint, UniqueConstraint, event
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from scorebook.extensions import db

#: ``session.info`` keys: how many blocks are open, and whether the transaction was
#: rolled back while they were.
_DEPTH = "transaction_depth"
_FAILED = "transaction_failed"


class TransactionAborted(RuntimeError):
    """The outermost block ended normally, but the transaction had been rolled back
    inside it (an inner block's exception was caught, or ``rollback()`` was called):
    nothing was committed."""

    def __init__(self) -> None:
        super().__init__("the transaction was rolled back inside its block: nothing was "
                         "committed")


@contextmanager
def transaction() -> Iterator[None]:
    """Commit on success, roll back on any exception (re-raised); nested: join the
    outer block, which alone commits (see the module)."""
    session = db.session
    info = session.info
    depth = info.get(_DEPTH, 0)
    info[_DEPTH] = depth + 1
    try:
        yield
        if depth:
            session.flush()
    except BaseException:
        info[_DEPTH] = depth
        if depth:
            info[_FAILED] = True
        else:
            info.pop(_FAILED, None)
        session.rollback()
        raise
    info[_DEPTH] = depth
    if depth:
        return
    if info.pop(_FAILED, False):
        session.rollback()
        raise TransactionAborted()
    try:
        session.commit()
    except BaseException:
        session.rollback()
        raise


#: SQLite's words for a unique or primary key refused: its table and columns.
_SQLITE_UNIQUE = re.compile(r"UNIQUE constraint failed: (.+)")


def violated_constraint(error: IntegrityError) -> str | None:
    """The name of the constraint the database refused (``uq_game_league_id_number``,
    ``pk_game``…; the schema's naming convention), or None when it does not say.
    PostgreSQL names it; SQLite names the columns of a unique or primary key, matched
    here against the models' constraints."""
    original = error.orig
    name = getattr(getattr(original, "diag", None), "constraint_name", None)
    if isinstance(name, str) and name:
        return name
    found = _SQLITE_UNIQUE.search(str(original))
    if found is None:
        return None
    columns = [c.strip() for c in found.group(1).split(",")]
    tables = {c.partition(".")[0] for c in columns}
    if len(tables) != 1:
        return None
    table = db.metadata.tables.get(tables.pop())
    if table is None:
        return None
    wanted = {c.partition(".")[2] for c in columns}
    for constraint in table.constraints:
        if (isinstance(constraint, UniqueConstraint | PrimaryKeyConstraint)
                and {c.name for c in constraint.columns} == wanted
                and isinstance(constraint.name, str)):
            return constraint.name
    for index in table.indexes:
        if index.unique and {c.name for c in index.columns} == wanted:
            return str(index.name)
    return None


def _rolled_back(session: Session, _previous: Any) -> None:
    """A rollback while a block is open: its outermost block must not commit the rest."""
    if session.info.get(_DEPTH, 0):
        session.info[_FAILED] = True


def install() -> None:
    """Watch every session's rollbacks (once)."""
    if not event.contains(Session, "after_soft_rollback", _rolled_back):
        event.listen(Session, "after_soft_rollback", _rolled_back)


install()
