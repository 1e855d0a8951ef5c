"""Whether a league's statistics cache is complete, known from one row.

Looking for stale games (:func:`scorebook.services.stats.cache.stale`) reads every finished
game of the league beside its cache row, and the figures kept in the process are
versioned by an aggregate over every cache row (:func:`scorebook.services.memo.version`):
at 50,000 games that was most of a player page.  Instead every write that changes a
finished game (or one that was finished, or deletes one) gives its league a new random
``stats_stamp`` in the same transaction (:func:`scorebook.services.ratings.stamp`, from the
commit hook), and a page that found the cache complete writes down the stamp it found
it complete under (``stats_seen``).  While the two are equal nothing changed since, so
the page neither looks for stale games nor aggregates the cache for a version: the stamp
is the version.  When they differ, the page looks as before
(:func:`scorebook.services.stats.cache.refresh`), and once nothing is left to count it
sets both to a new stamp, only if no write gave the league another meanwhile (a
conditional ``UPDATE``; a write that commits after the look, or waits on the row, leaves
them different, so the next page looks again).  A new stamp each time, never a counter:
a league made again under a deleted one's id never meets its kept figures.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import select, update

from scorebook.extensions import db
from scorebook.models import League
from scorebook.services.stats import cache
from scorebook.services.transaction import transaction


@dataclass(frozen=True)
class Freshness:
    """The refresh's progress, and the stamp the league's figures may be kept under
    (None: the cache is not known complete; version them by its rows)."""

    progress: cache.Progress
    stamp: str | None


def known(league_id: int) -> str | None:
    """The league's stamp if its cache is known complete under it (one row), else None."""
    stamp, seen = db.session.execute(select(League.stats_stamp, League.stats_seen)
                                     .where(League.id == league_id)).one()
    return seen if seen is not None and seen == stamp else None


def ensure(league_id: int, budget: float | None = None) -> Freshness:
    """The league's statistics cache up to date (or as far as ``budget`` seconds got), as
    cheaply as the stamps allow."""
    stamp, seen = db.session.execute(select(League.stats_stamp, League.stats_seen)
                                     .where(League.id == league_id)).one()
    if seen is not None and seen == stamp:
        return Freshness(cache.Progress(False), seen)
    progress = cache.refresh(league_id, budget)
    if not progress.ready:
        return Freshness(progress, None)
    new = uuid.uuid4().hex
    with transaction():
        marked = db.session.execute(  # type: ignore[attr-defined]
            update(League).where(League.id == league_id,
                                 League.stats_stamp == stamp if stamp is not None
                                 else League.stats_stamp.is_(None))
            .values(stats_stamp=new, stats_seen=new)
            .execution_options(synchronize_session=False)).rowcount
    return Freshness(progress, new if marked else None)
