"""What the league benchmarks' bulk-inserted leagues share: when their games were played,
and PostgreSQL's sequences set after rows inserted with their own ids.

A real league plays a few evenings a week, several games an evening, and its latest
game was played a day or two ago, so the next game finished is the newest of all and
goes at the end of every history (ratings, tallies, streaks).  The leagues of
``benchmarks/league.py`` and ``benchmarks/card_league.py`` used to be spread one game
every 17 hours from 2016 on: at 50,000 games their dates ran to 2112, and "finish the
latest game" (``datetime.now()``) was a mid-history insert that replayed 45,000 ratings.
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import Integer, text

#: The club's evenings (Monday is 0): Tuesday, Thursday and Saturday.
PLAYING_DAYS = (1, 3, 5)
#: One evening in this many is skipped (a holiday, the flu).
SKIPPED_ONE_IN = 10
#: Tables an evening, games a table, minutes a game.
TABLES = (2, 3)
GAMES_A_TABLE = (2, 4)
MINUTES_A_GAME = (30, 60)


def league_times(games: int, seed: int = 500, today: date | None = None
                 ) -> list[tuple[datetime, datetime]]:
    """(started, finished) of each of ``games`` games, oldest first: evenings on the
    :data:`PLAYING_DAYS` (one in :data:`SKIPPED_ONE_IN` skipped), 2–3 tables from 19:30
    each playing 2–4 games of 30–60 minutes, back from the last playing day before
    ``today`` (default: today, UTC) as far as the league needs (its first evening cut
    short).  About 20 games a week: 500 games ≈ 6 months, 5,000 ≈ 5 years, 50,000 ≈ 48
    years.  Seeded: the same dates for the same ``today``."""
    rng = random.Random(seed)
    day = (today or datetime.now(UTC).date()) - timedelta(days=1)
    played: list[tuple[datetime, datetime]] = []
    while len(played) < games:
        if day.weekday() in PLAYING_DAYS and rng.randrange(SKIPPED_ONE_IN):
            for _table in range(rng.randint(*TABLES)):
                clock = (datetime.combine(day, time(19, 30), UTC)
                         + timedelta(minutes=rng.randint(0, 20)))
                for _game in range(rng.randint(*GAMES_A_TABLE)):
                    length = timedelta(minutes=rng.randint(*MINUTES_A_GAME))
                    played.append((clock, clock + length))
                    clock += length + timedelta(minutes=rng.randint(2, 10))
        day -= timedelta(days=1)
    played.sort(key=lambda t: t[1])
    return played[len(played) - games:]


def set_sequences(session: Any, metadata: Any) -> list[str]:
    """On PostgreSQL, move each table's id sequence past the largest id (rows inserted
    with their own ids leave it behind, and the app's next insert would be given an id
    already taken); nothing elsewhere (SQLite gives the next id after the largest).
    Returns the tables set."""
    if session.get_bind().dialect.name != "postgresql":
        return []
    done = []
    for table in metadata.sorted_tables:
        key = list(table.primary_key.columns)
        if len(key) != 1 or key[0].name != "id" or not isinstance(key[0].type, Integer):
            continue
        sequence = session.execute(text("SELECT pg_get_serial_sequence(:t, 'id')"),
                                   {"t": table.name}).scalar()
        if sequence is None:
            continue
        session.execute(text(
            f"SELECT setval(:s, COALESCE((SELECT MAX(id) FROM \"{table.name}\"), 0) + 1, false)"),
            {"s": sequence})
        done.append(table.name)
    return done
