"""Each player's result in every finished game, and a multiplayer rating from the
finishing order (openskill's Plackett-Luce model).

Results and ratings are a cache (:class:`GameResult`, one row per player per
finished game), rebuilt lazily by :func:`refresh` before the league pages read
them.  The rating is deterministic: the league's finished games are replayed in
(finished_at, id) order, each row remembering its game's place in that order
(``seq``) and the game's ``revision``.  When a game finishes, only its rows are
added; when a past game is edited, un-finished or deleted, every row from its place
on is thrown away and the games from there are replayed from the ratings just
before it, which gives exactly what a replay from scratch gives.

Finishing position: the winner is first; the others follow by final total, players
with equal totals sharing the better position.  A rating is shown as
``round(40 * mu)``: everyone starts at 1000.
"""

from __future__ import annotations

import threading
import uuid
from collections import defaultdict
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from flask import current_app, has_app_context
from openskill.models import PlackettLuce
from sqlalchemy import and_, case, delete, event, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from scorebook.extensions import AnySession, db
from scorebook.models import (
    ALL_TIME,
    FINISHED,
    JOB_QUEUED,
    JOB_RUNNING,
    Game,
    GameResult,
    Hand,
    HandScore,
    Job,
    League,
    PlayerTally,
    Season,
    Seat,
    utcnow,
)
from scorebook.services import jobs
from scorebook.services.seasons import ensure_seasons
from scorebook.services.transaction import transaction

RATING_SCALE = 40
MODEL = PlackettLuce()
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma


def display_rating(mu: float) -> int:
    """The rating as people see it: 1000 to start."""
    return round(RATING_SCALE * mu)


def finishing_positions(totals: Sequence[int], winner: int | None) -> list[int]:
    """Positions (1 = first) for final ``totals``; ``winner`` (an index) is first
    whatever the totals say; equal totals share the better position."""
    out = []
    for i, total in enumerate(totals):
        if i == winner:
            out.append(1)
            continue
        ahead = sum(1 for j, t in enumerate(totals) if j != winner and j != i and t > total)
        out.append(1 + ahead + (1 if winner is not None else 0))
    return out


@dataclass(frozen=True)
class _Game:
    id: int
    revision: int
    finished_at: datetime
    winner_id: int | None


def _finished_games(league_id: int) -> list[_Game]:
    rows = db.session.execute(
        select(Game.id, Game.revision, Game.finished_at, Game.winner_id)
        .where(Game.league_id == league_id, Game.status == FINISHED,
               Game.finished_at.is_not(None))
        .order_by(Game.finished_at, Game.id))
    return [_Game(r.id, r.revision or 0, r.finished_at, r.winner_id) for r in rows]


def _player_totals(league_id: int, since: _Game | None,
                   game_ids: Sequence[int] | None = None) -> dict[int, list[tuple[Any, ...]]]:
    """Per finished game from ``since`` on (in rating order): each seat's
    (player_id, position at table, total, hands, melded, stranded, best hand),
    aggregated by the database from the stored hand scores."""
    hand_scores = (
        select(Hand.game_id, HandScore.player_id,
               func.sum(HandScore.score).label("total"),
               func.count(HandScore.id).label("hands"),
               # points melded and stranded need cards: a points-only hand has none
               func.sum(case((Hand.with_cards(), HandScore.melded), else_=0)).label("melded"),
               func.sum(case((Hand.with_cards(), HandScore.stranded), else_=0))
               .label("stranded"),
               func.max(HandScore.score).label("best"))
        .join(HandScore, HandScore.hand_id == Hand.id)
        .join(Game, Game.id == Hand.game_id)
        .where(Hand.complete.is_(True), Game.league_id == league_id,
               Game.status == FINISHED)
        .group_by(Hand.game_id, HandScore.player_id))
    if since is not None:
        hand_scores = hand_scores.where(_from(since))
    if game_ids is not None:
        hand_scores = hand_scores.where(Hand.game_id.in_(game_ids))
    sub = hand_scores.subquery()
    query = (
        select(Seat.game_id, Seat.player_id, Seat.position, sub.c.total, sub.c.hands,
               sub.c.melded, sub.c.stranded, sub.c.best)
        .join(Game, Game.id == Seat.game_id)
        .outerjoin(sub, and_(sub.c.game_id == Seat.game_id,
                             sub.c.player_id == Seat.player_id))
        .where(Game.league_id == league_id, Game.status == FINISHED)
        .order_by(Seat.game_id, Seat.position))
    if since is not None:
        query = query.where(_from(since))
    if game_ids is not None:
        query = query.where(Seat.game_id.in_(game_ids))
    out: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for r in db.session.execute(query):
        out[r.game_id].append((r.player_id, r.position, r.total or 0, r.hands or 0,
                               r.melded or 0, r.stranded or 0, r.best))
    return out


def _from(game: _Game) -> Any:
    """Games at or after ``game`` in rating order."""
    return or_(Game.finished_at > game.finished_at,
               and_(Game.finished_at == game.finished_at, Game.id >= game.id))


def _ratings_before(league_id: int, seq: int) -> dict[int, tuple[float, float]]:
    """Each player's (mu, sigma) after the last game before ``seq``."""
    if seq <= 0:
        return {}
    last = (select(GameResult.player_id, func.max(GameResult.seq).label("seq"))
            .where(GameResult.league_id == league_id, GameResult.seq < seq)
            .group_by(GameResult.player_id).subquery())
    rows = db.session.execute(
        select(GameResult.player_id, GameResult.mu, GameResult.sigma)
        .join(last, and_(last.c.player_id == GameResult.player_id,
                         last.c.seq == GameResult.seq)))
    return {r.player_id: (r.mu, r.sigma) for r in rows}


def rate(ratings: dict[int, tuple[float, float]], players: Sequence[int],
         positions: Sequence[int]) -> list[tuple[float, float]]:
    """The players' (mu, sigma) after a game they finished in ``positions``
    (updates ``ratings``)."""
    teams = [[MODEL.rating(*ratings.get(p, (START_MU, START_SIGMA)))] for p in players]
    rated = MODEL.rate(teams, ranks=list(positions))
    after = [(team[0].mu, team[0].sigma) for team in rated]
    for p, value in zip(players, after):
        ratings[p] = value
    return after


def first_stale(league_id: int) -> int | None:
    """The first place in rating order whose stored results no longer match their
    game (None: all up to date).  Reads every finished game: a check and a repair
    (``flask league check-ratings``), never run by a page."""
    games = _finished_games(league_id)
    rows: dict[int, tuple[int, int, datetime]] = {}
    for r in db.session.execute(
            select(GameResult.game_id, func.min(GameResult.seq), func.min(GameResult.revision),
                   func.min(GameResult.finished_at))
            .where(GameResult.league_id == league_id).group_by(GameResult.game_id)):
        rows[r[0]] = (r[1], r[2], r[3])
    last = -1
    for i, game in enumerate(games):
        row = rows.pop(game.id, None)
        if row is None or row[0] <= last or row[1] != game.revision \
                or not _same_time(row[2], game.finished_at):
            return i
        last = row[0]
    return len(games) if rows else None


def refresh(league_id: int) -> bool:
    """Check the league's results and ratings and repair what does not match; True if
    anything did not.  One transaction (a concurrent refresh of the same league simply
    wins)."""
    first = first_stale(league_id)
    if first is None:
        return False
    try:
        with transaction():
            games = _finished_games(league_id)
            keep = [g.id for g in games[:first]]
            db.session.execute(delete(GameResult).where(
                GameResult.league_id == league_id,
                ~GameResult.game_id.in_(keep) if keep else GameResult.id.is_not(None)))
            start = db.session.scalar(select(func.max(GameResult.seq))
                                      .where(GameResult.league_id == league_id))
            _replay(league_id, games, first, 0 if start is None else start + 1)
            retally(db.session, league_id)
            db.session.execute(update(League).where(League.id == league_id).values(
                ratings_from_seq=None, ratings_epoch=League.ratings_epoch + 1))
    except IntegrityError:
        pass  # (rolled back: the other refresh stored the same results)
    return True


def rebuild(league_id: int) -> None:
    """Throw away the league's results and replay every game (after a merge, an import).
    Does not commit."""
    db.session.flush()
    db.session.info.setdefault(_REBUILT, set()).add(league_id)
    db.session.execute(update(League).where(League.id == league_id)
                       .values(ratings_from_seq=None, ratings_epoch=League.ratings_epoch + 1))
    db.session.execute(delete(GameResult).where(GameResult.league_id == league_id))
    _replay(league_id, _finished_games(league_id), 0)
    retally(db.session, league_id)


def ratings_before(league_id: int, seq: int) -> dict[int, tuple[float, float]]:
    """Each player's (mu, sigma) after the stored results before place ``seq``."""
    return _ratings_before(league_id, seq)


def finished_games(league_id: int) -> list[Any]:
    """The league's finished games in rating order (for :func:`rate_some`)."""
    return list(_finished_games(league_id))


def rate_some(league_id: int, games: Sequence[Any], start: int, end: int,
              current: dict[int, tuple[float, float]] | None = None) -> list[dict[str, Any]]:
    """The result rows of ``games[start:end]`` (of :func:`finished_games`), rated from
    ``current`` (each player's (mu, sigma) before ``start``: updated; None: read from the
    stored rows): a background import rates its league a few games at a time, reading
    only, and writes each step's rows with :func:`store_rated`, then :func:`rated`
    finishes. Reads only the seats of those games."""
    todo = games[start:end]
    if not todo:
        return []
    ratings = _ratings_before(league_id, start) if current is None else current
    seats = _player_totals(league_id, todo[0], [g.id for g in todo])
    return _rated_rows(league_id, todo, start, ratings, seats)


def store_rated(league_id: int, rows: Sequence[dict[str, Any]], first: bool) -> None:
    """Write rows of :func:`rate_some` (``first``: the league's first, so any older
    result rows go). Does not commit."""
    if first:
        db.session.execute(delete(GameResult).where(GameResult.league_id == league_id))
    for start in range(0, len(rows), 2000):
        db.session.execute(insert(GameResult), list(rows[start:start + 2000]))


def rated(league_id: int, tallies: list[dict[str, Any]] | None = None) -> None:
    """After :func:`rate_some` rated every game: the tallies (``tallies``, as
    :func:`tally_all` counted them beforehand, else counted now), and the league's
    ratings marked up to date (what :func:`rebuild` ends with). Does not commit."""
    db.session.info.setdefault(_REBUILT, set()).add(league_id)
    db.session.execute(update(League).where(League.id == league_id)
                       .values(ratings_from_seq=None, ratings_epoch=League.ratings_epoch + 1))
    if tallies is None:
        retally(db.session, league_id)
    else:
        db.session.execute(delete(PlayerTally).where(PlayerTally.league_id == league_id))
        if tallies:
            db.session.execute(insert(PlayerTally), tallies)


def tally_all(league_id: int) -> list[dict[str, Any]]:
    """Every :class:`PlayerTally` row of the league, counted from its result rows (all
    time and each season), reading only: what :func:`rated` then writes."""
    rows: list[dict[str, Any]] = []
    for season_id, bounds in _scopes(db.session, league_id, None):
        where = [GameResult.league_id == league_id]
        if bounds is not None:
            where += [GameResult.finished_at >= bounds[0], GameResult.finished_at < bounds[1]]
        for row in tally_rows(db.session, where):
            row.update(league_id=league_id, season_id=season_id)
            rows.append(row)
    return rows


def leave_to_seal(session: AnySession, league_id: int | None) -> None:
    """The transaction stores games of an unsealed league (a background import): leave
    its results and ratings to the import's last chunk (:func:`rebuild`), rather than
    rate each chunk's games as it commits."""
    if league_id is not None:
        session.info.setdefault(_REBUILT, set()).add(league_id)


def _replay(league_id: int, games: Sequence[_Game], first: int,
            seq_start: int | None = None) -> None:
    """Rate ``games[first:]`` from the stored ratings before them, numbering them
    from ``seq_start`` (default: ``first``)."""
    todo = games[first:]
    if not todo:
        return
    start = first if seq_start is None else seq_start
    ratings = _ratings_before(league_id, start)
    seats = _player_totals(league_id, todo[0])
    rows = _rated_rows(league_id, todo, start, ratings, seats)
    for start in range(0, len(rows), 2000):
        db.session.execute(insert(GameResult), rows[start:start + 2000])


def _rated_rows(league_id: int, todo: Sequence[_Game], start: int,
                ratings: dict[int, tuple[float, float]],
                seats: dict[int, list[tuple[Any, ...]]]) -> list[dict[str, Any]]:
    """The result rows of ``todo`` numbered from ``start``, rated on from ``ratings``
    (updated)."""
    rows: list[dict[str, Any]] = []
    for seq, game in enumerate(todo, start=start):
        table = seats.get(game.id, [])
        if not table:
            continue
        players = [t[0] for t in table]
        totals = [t[2] for t in table]
        winner = players.index(game.winner_id) if game.winner_id in players else None
        positions = finishing_positions(totals, winner)
        after = rate(ratings, players, positions)
        for t, position, (mu, sigma) in zip(table, positions, after):
            rows.append({
                "league_id": league_id, "game_id": game.id, "player_id": t[0], "seq": seq,
                "revision": game.revision, "finished_at": game.finished_at,
                "seats": len(table), "total": t[2], "position": position,
                "won": t[0] == game.winner_id, "hands": t[3], "melded": t[4],
                "stranded": t[5], "best_hand": t[6], "mu": mu, "sigma": sigma,
            })
    return rows



# --- kept fresh on write ----------------------------------------------------------------
#
# Every transaction that changes a game (its hands, its winner, its finish, its league,
# or deletes it) brings the game's result rows up to date as it commits (a session
# hook below), so no page ever checks or rebuilds them.  A change that leaves the
# finishing order of the game as it was (most edits) updates the game's own rows and
# nothing else: no later rating depends on anything but the finishing orders.  A
# change that moves a finishing order (or the game's place in the league) makes every
# later rating stale; they are replayed from stored rows (no hand is read), in the
# request when few games follow, else in the background while the pages say so.

#: ``session.info`` keys: game ids changed in the transaction; {league: seq} of games
#: deleted in it; leagues whose stale ratings are replayed after the commit.
_CHANGED = "ratings_changed_games"
_DELETED = "ratings_deleted_games"
_DEFERRED = "ratings_deferred_leagues"
#: Set (to a league id) while a rebuild replaces the league's rows in this session.
_REBUILT = "ratings_rebuilt_leagues"
#: {league: (players, days)} whose tallies the transaction changes.
_TALLY = "ratings_tally"
#: Leagues of the games the transaction deletes (their statistics stamp moves on).
_STAMP = "ratings_stamp_leagues"

#: Games replayed in the request that made them stale; beyond, in the background.
INLINE_GAMES = 1000
#: Games replayed per transaction by :func:`catch_up`.
CATCH_UP_CHUNK = 10000


def _note_flush(session: Session, _context: Any, _instances: Any) -> None:
    """Before a flush: remember which games change, and where deleted ones stood (the
    database's cascade removes their rows with them)."""
    changed: set[int] = session.info.setdefault(_CHANGED, set())
    deleted: dict[int, int] = session.info.setdefault(_DELETED, {})
    gone = [obj.id for obj in session.deleted if isinstance(obj, Game) and obj.id]
    session.info.setdefault(_STAMP, set()).update(
        obj.league_id for obj in session.deleted if isinstance(obj, Game) and obj.league_id)
    if gone:
        with session.no_autoflush:
            for league_id, seq in session.execute(
                    select(GameResult.league_id, func.min(GameResult.seq))
                    .where(GameResult.game_id.in_(gone)).group_by(GameResult.league_id)):
                deleted[league_id] = min(seq, deleted.get(league_id, seq))
            tally: dict[int, tuple[set[int], set[date]]] = session.info.setdefault(_TALLY, {})
            for league_id, player_id, at in session.execute(
                    select(GameResult.league_id, GameResult.player_id, GameResult.finished_at)
                    .where(GameResult.game_id.in_(gone))):
                players, days = tally.setdefault(league_id, (set(), set()))
                players.add(player_id)
                days.add(_utc(at).date())
    for obj in session.dirty:
        if isinstance(obj, Game) and obj.id and session.is_modified(obj):
            changed.add(obj.id)


def _note_flushed(session: Session, _context: Any) -> None:
    changed: set[int] = session.info.setdefault(_CHANGED, set())
    for obj in session.new:
        if isinstance(obj, Game) and obj.id:
            changed.add(obj.id)


def _before_commit(session: Session) -> None:
    session.flush()  # (what is still to flush is noted as it flushes)
    stamp(session, session.info.pop(_STAMP, set()) | session.info.get(_REBUILT, set()))
    if not session.info.get(_CHANGED) and not session.info.get(_DELETED) \
            and not session.info.get(_TALLY):
        session.info.pop(_REBUILT, None)  # (else it would hide the next commit's changes)
        return
    changed = session.info.pop(_CHANGED, set())
    deleted = session.info.pop(_DELETED, {})
    tally = session.info.pop(_TALLY, {})
    for league_id in session.info.pop(_REBUILT, set()):
        deleted.pop(league_id, None)
        tally.pop(league_id, None)
        changed -= set(session.scalars(select(Game.id).where(Game.league_id == league_id)))
    deferred = sync(session, changed, deleted, tally)
    session.info.setdefault(_DEFERRED, set()).update(deferred)
    session.flush()
    session.info.pop(_CHANGED, None)
    session.info.pop(_DELETED, None)


def _after_commit(session: Session) -> None:
    leagues = session.info.pop(_DEFERRED, set())
    if leagues and has_app_context():
        for league_id in leagues:
            start_catch_up(league_id)


def _forget(session: Session, *_args: Any) -> None:
    for key in (_CHANGED, _DELETED, _DEFERRED, _REBUILT, _TALLY, _STAMP):
        session.info.pop(key, None)


def stamp(session: AnySession, league_ids: Iterable[int | None]) -> None:
    """Give each league a new statistics stamp (:attr:`League.stats_stamp`): one of its
    finished games (or one that was finished) changed, so the statistics cache may be
    behind and every figure kept under the old stamp is stale."""
    ids = sorted({i for i in league_ids if i is not None})
    if ids:
        session.execute(update(League).where(League.id.in_(ids))
                        .values(stats_stamp=uuid.uuid4().hex)
                        .execution_options(synchronize_session=False))


def install() -> None:
    """Hook :func:`sync` into every session's commit (once)."""
    if not event.contains(Session, "before_commit", _before_commit):
        event.listen(Session, "before_flush", _note_flush)
        event.listen(Session, "after_flush", _note_flushed)
        event.listen(Session, "before_commit", _before_commit)
        event.listen(Session, "after_commit", _after_commit)
        event.listen(Session, "after_soft_rollback", _forget)


def _same_time(a: datetime | None, b: datetime | None) -> bool:
    if a is None or b is None:
        return a is b
    return _utc(a) == _utc(b)


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def sync(session: AnySession, game_ids: set[int], deleted: dict[int, int],
         tally: dict[int, tuple[set[int], set[date]]] | None = None) -> set[int]:
    """Bring the result rows of ``game_ids`` (and of the games deleted from the
    leagues in ``deleted``, at those places) up to date in this transaction, and the
    tallies of their players (and of the players and days in ``tally``).  Returns
    the leagues whose later ratings are left to :func:`catch_up` (too many to replay
    in the request)."""
    stale: dict[int, int] = dict(deleted)
    touched: dict[int, tuple[set[int], set[date]]] = {
        league_id: (set(players), set(days)) for league_id, (players, days)
        in (tally or {}).items()}

    def touch(league_id: int | None, players: Any, at: datetime | None) -> None:
        if league_id is None or at is None:
            return
        mine, days = touched.setdefault(league_id, (set(), set()))
        mine.update(players)
        days.add(_utc(at).date())

    ids = sorted(game_ids)
    games = {r.id: r for r in session.execute(
        select(Game.id, Game.league_id, Game.status, Game.finished_at, Game.winner_id,
               Game.revision).where(Game.id.in_(ids)))} if ids else {}
    old: dict[int, list[Any]] = defaultdict(list)
    if ids:
        for r in session.execute(
                select(GameResult.id, GameResult.game_id, GameResult.league_id,
                       GameResult.player_id, GameResult.position, GameResult.seq,
                       GameResult.finished_at).where(GameResult.game_id.in_(ids))
                .order_by(GameResult.game_id, GameResult.id)):
            old[r.game_id].append(r)
    finished = [g for g in games.values() if g.status == FINISHED
                and g.finished_at is not None and g.league_id is not None]
    seats: dict[int, list[tuple[Any, ...]]] = {}
    for league_id in {g.league_id for g in finished}:
        seats.update(_player_totals(league_id, None,
                                    [g.id for g in finished if g.league_id == league_id]))
    days: dict[int, set[date]] = defaultdict(set)
    done = {g.id for g in finished}
    # in rating order, so that games appended together each follow the one before
    for g in sorted(finished, key=lambda g: (_utc(g.finished_at), g.id)) + \
            [games[i] for i in ids if i in games and i not in done] + \
            [_Gone(i) for i in ids if i not in games]:
        before = old.get(g.id, [])
        table = seats.get(g.id, []) if g.id in done else []
        rows = _rows_of(g, table) if table else []
        if before:
            touch(before[0].league_id, [b.player_id for b in before], before[0].finished_at)
        if rows:
            touch(g.league_id, [r["player_id"] for r in rows], g.finished_at)
        if before and rows and before[0].league_id == g.league_id \
                and _same_time(before[0].finished_at, g.finished_at) \
                and [(b.player_id, b.position) for b in before] == \
                [(r["player_id"], r["position"]) for r in rows]:
            # the same finishing order at the same place: no rating moves
            session.execute(update(GameResult), [
                {"id": b.id, **{k: r[k] for k in _FIGURES}} for b, r in zip(before, rows)])
            continue
        same_place = bool(before) and before[0].league_id == g.league_id \
            and _same_time(before[0].finished_at, g.finished_at)
        if before:
            session.execute(delete(GameResult).where(GameResult.game_id == g.id))
            league_id = before[0].league_id
            stale[league_id] = min(before[0].seq, stale.get(league_id, before[0].seq))
        if rows and same_place:  # a new finishing order at the same place
            assert not isinstance(g, _Gone)  # (only a finished game has rows)
            current = _ratings_before(g.league_id, before[0].seq)
            after = rate(current, [r["player_id"] for r in rows], [r["position"] for r in rows])
            for row, (mu, sigma) in zip(rows, after):
                row.update(seq=before[0].seq, mu=mu, sigma=sigma)
            session.execute(insert(GameResult), rows)
        elif rows:
            assert not isinstance(g, _Gone)
            _place(session, g, rows, stale)
            days[g.league_id].add(_utc(g.finished_at).date())
    deferred: set[int] = set()
    for league_id, seq in stale.items():
        marker = session.scalar(select(League.ratings_from_seq).where(League.id == league_id))
        seq = seq if marker is None else min(seq, marker)
        session.execute(update(League).where(League.id == league_id).values(
            ratings_from_seq=seq, ratings_epoch=League.ratings_epoch + 1))
        last = session.scalar(select(func.max(GameResult.seq))
                              .where(GameResult.league_id == league_id))
        if last is None or last < seq:
            session.execute(update(League).where(League.id == league_id)
                            .values(ratings_from_seq=None))
        elif last - seq < INLINE_GAMES_config():
            _replay_stored(session, league_id, seq, None)
            session.execute(update(League).where(League.id == league_id)
                            .values(ratings_from_seq=None))
        else:
            deferred.add(league_id)
    if days:
        for league_id, seen in days.items():
            league = session.get(League, league_id)
            if league is not None:
                ensure_seasons(league, days=seen)
    for league_id, (players, seen) in touched.items():
        if players:
            retally(session, league_id, players, seen)
    # the leagues of every game that is, or was, finished (what the statistics count)
    stamp(session, {*deleted, *touched, *(g.league_id for g in finished),
                    *(rows[0].league_id for rows in old.values() if rows)})
    return deferred


@dataclass(frozen=True)
class _Gone:
    id: int
    league_id: None = None
    finished_at: None = None


_FIGURES = ("revision", "seats", "total", "won", "hands", "melded", "stranded", "best_hand")


def _rows_of(game: Any, table: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    players = [t[0] for t in table]
    totals = [t[2] for t in table]
    winner = players.index(game.winner_id) if game.winner_id in players else None
    positions = finishing_positions(totals, winner)
    return [{"league_id": game.league_id, "game_id": game.id, "player_id": t[0],
             "revision": game.revision or 0, "finished_at": game.finished_at,
             "seats": len(table), "total": t[2], "position": position,
             "won": t[0] == game.winner_id, "hands": t[3], "melded": t[4],
             "stranded": t[5], "best_hand": t[6]} for t, position in zip(table, positions)]


def _place(session: AnySession, game: Any, rows: list[dict[str, Any]],
           stale: dict[int, int]) -> None:
    """Insert a game's rows at its place in the league's rating order: rated at once if
    it is the latest game (the usual case), else marked to be replayed from there."""
    league_id = game.league_id
    at = game.finished_at
    following = session.scalar(select(func.min(GameResult.seq)).where(
        GameResult.league_id == league_id,
        or_(GameResult.finished_at > at,
            and_(GameResult.finished_at == at, GameResult.game_id > game.id))))
    if following is None:
        last = session.scalar(select(func.max(GameResult.seq))
                              .where(GameResult.league_id == league_id))
        seq = 0 if last is None else last + 1
        current = _ratings_before(league_id, seq)
    else:  # an earlier game: the later ones move one place on
        session.execute(update(GameResult).where(
            GameResult.league_id == league_id, GameResult.seq >= following)
            .values(seq=GameResult.seq + 1))
        session.execute(update(League).where(
            League.id == league_id, League.ratings_from_seq >= following)
            .values(ratings_from_seq=League.ratings_from_seq + 1))
        for other, s in list(stale.items()):
            if other == league_id and s >= following:
                stale[other] = s + 1
        seq = following
        stale[league_id] = min(seq, stale.get(league_id, seq))
        current = _ratings_before(league_id, seq)
    after = rate(current, [r["player_id"] for r in rows], [r["position"] for r in rows])
    for row, (mu, sigma) in zip(rows, after):
        row.update(seq=seq, mu=mu, sigma=sigma)
    session.execute(insert(GameResult), rows)


# --- the tallies ----------------------------------------------------------------------


def retally(session: AnySession, league_id: int, players: set[int] | None = None,
            days: set[date] | None = None) -> None:
    """Recount the :class:`PlayerTally` rows of ``players`` (None: everyone in the
    league) from their result rows: all time, and the seasons holding ``days`` (None:
    every season, dropping the rows of seasons that are gone).  Each count reads the
    players' rows in that season only (an index on player and time)."""
    session.flush()
    scopes = _scopes(session, league_id, days)
    mine = [] if players is None else [PlayerTally.player_id.in_(sorted(players))]
    if days is None:
        session.execute(delete(PlayerTally).where(PlayerTally.league_id == league_id, *mine))
    for season_id, bounds in scopes:
        if days is not None:
            session.execute(delete(PlayerTally).where(
                PlayerTally.league_id == league_id, PlayerTally.season_id == season_id,
                *mine))
        where = [GameResult.league_id == league_id]
        if players is not None:
            where.append(GameResult.player_id.in_(sorted(players)))
        if bounds is not None:
            where += [GameResult.finished_at >= bounds[0], GameResult.finished_at < bounds[1]]
        rows = tally_rows(session, where)
        for row in rows:
            row.update(league_id=league_id, season_id=season_id)
        if rows:
            session.execute(insert(PlayerTally), rows)


def _scopes(session: AnySession, league_id: int, days: set[date] | None
            ) -> list[tuple[int, tuple[datetime, datetime] | None]]:
    """All time, and the league's seasons holding ``days`` (None: every season), with
    their bounds."""
    seasons = session.execute(select(Season.id, Season.starts_on, Season.ends_on)
                              .where(Season.league_id == league_id)).all()
    scopes: list[tuple[int, tuple[datetime, datetime] | None]] = [(ALL_TIME, None)]
    for s in seasons:
        if days is None or any(s.starts_on <= d <= s.ends_on for d in days):
            scopes.append((s.id, (datetime.combine(s.starts_on, time.min, tzinfo=UTC),
                                  datetime.combine(s.ends_on + timedelta(days=1), time.min,
                                                   tzinfo=UTC))))
    return scopes


def tally_rows(session: AnySession, where: list[Any]) -> list[dict[str, Any]]:
    """Each player's figures over the result rows ``where`` selects, counted afresh
    (what a :class:`PlayerTally` row holds)."""
    won = case((GameResult.won, 1), else_=0)
    out: dict[int, dict[str, Any]] = {}
    for r in session.execute(
            select(GameResult.player_id, func.count().label("games"),
                   func.sum(won).label("wins"),
                   func.sum(GameResult.position).label("positions"),
                   func.sum(GameResult.hands).label("hands"),
                   func.sum(GameResult.total).label("points"),
                   func.max(GameResult.best_hand).label("best_hand"),
                   func.max(GameResult.total).label("best_total"),
                   func.sum(GameResult.melded).label("melded"),
                   func.sum(GameResult.stranded).label("stranded"),
                   func.max(GameResult.seq).label("last"),
                   func.max(case((GameResult.won, GameResult.seq))).label("last_win"))
            .where(*where).group_by(GameResult.player_id)):
        out[r.player_id] = {
            "player_id": r.player_id, "games": r.games, "wins": int(r.wins or 0),
            "positions": int(r.positions or 0), "hands": int(r.hands or 0),
            "points": int(r.points or 0), "best_hand": r.best_hand,
            "best_total": r.best_total, "melded": int(r.melded or 0),
            "stranded": int(r.stranded or 0),
            "streak_won": r.last_win is not None and r.last_win == r.last,
            "streak": r.games}  # until a game of the other kind is found below
    # the current streak: the games after the last game of the other kind
    last = (select(GameResult.player_id,
                   func.max(GameResult.seq).label("last"),
                   func.max(case((GameResult.won, GameResult.seq))).label("last_win"),
                   func.max(case((~GameResult.won, GameResult.seq))).label("last_other"))
            .where(*where).group_by(GameResult.player_id).subquery())
    broken_at = case((last.c.last_win == last.c.last, last.c.last_other),
                     else_=last.c.last_win)
    for pid, n in session.execute(
            select(GameResult.player_id, func.count())
            .join(last, last.c.player_id == GameResult.player_id)
            .where(*where, broken_at.is_not(None), GameResult.seq > broken_at)
            .group_by(GameResult.player_id)).tuples():
        if pid in out:
            out[pid]["streak"] = n
    return list(out.values())


def INLINE_GAMES_config() -> int:  # noqa: N802
    if has_app_context():
        return int(current_app.config.get("RATINGS_INLINE_GAMES", INLINE_GAMES))
    return INLINE_GAMES


def _replay_stored(session: AnySession, league_id: int, start: int, games: int | None
                   ) -> int | None:
    """Replay the stored finishing orders from ``start`` (at most ``games`` games),
    writing only the ratings that differ.  Returns where to go on from (None: done)."""
    query = (select(GameResult.id, GameResult.player_id, GameResult.position,
                    GameResult.seq, GameResult.mu, GameResult.sigma)
             .where(GameResult.league_id == league_id, GameResult.seq >= start))
    end = None
    if games is not None:
        end = session.scalar(select(GameResult.seq).where(
            GameResult.league_id == league_id, GameResult.seq >= start)
            .group_by(GameResult.seq).order_by(GameResult.seq).offset(games).limit(1))
        if end is not None:
            query = query.where(GameResult.seq < end)
    current = _ratings_before(league_id, start)
    changes: list[dict[str, Any]] = []
    game: list[Any] = []

    def rate_game() -> None:
        after = rate(current, [r.player_id for r in game], [r.position for r in game])
        for r, (mu, sigma) in zip(game, after):
            if (mu, sigma) != (r.mu, r.sigma):
                changes.append({"id": r.id, "mu": mu, "sigma": sigma})

    for r in session.execute(query.order_by(GameResult.seq, GameResult.id)):
        if game and r.seq != game[0].seq:
            rate_game()
            game = []
        game.append(r)
    if game:
        rate_game()
    for i in range(0, len(changes), 5000):
        session.execute(update(GameResult), changes[i:i + 5000])
    return end


def pending(league_id: int) -> int:
    """How many games' ratings are still being replayed (0: none); starts the
    replay in this process if it is not running here (a worker may have stopped)."""
    marker = db.session.scalar(select(League.ratings_from_seq).where(League.id == league_id))
    if marker is None:
        return 0
    last = db.session.scalar(select(func.max(GameResult.seq))
                             .where(GameResult.league_id == league_id))
    start_catch_up(league_id)
    return max(1, (last or 0) - marker + 1)


class _Overtaken(Exception):
    """A write marked the ratings stale again while a chunk was replayed."""


def catch_up(league_id: int) -> None:
    """Replay the league's stale ratings, a chunk per transaction; a write that marks
    them stale again meanwhile makes it start over from its mark."""
    while True:
        row = db.session.execute(select(League.ratings_from_seq, League.ratings_epoch)
                                 .where(League.id == league_id)).one_or_none()
        if row is None or row.ratings_from_seq is None:
            db.session.rollback()
            return
        try:
            with transaction():
                end = _replay_stored(db.session, league_id, row.ratings_from_seq,
                                     CATCH_UP_CHUNK)
                moved = db.session.execute(update(League).where(
                    League.id == league_id, League.ratings_epoch == row.ratings_epoch,
                    League.ratings_from_seq == row.ratings_from_seq)
                    .values(ratings_from_seq=end))
                if not moved.rowcount:  # type: ignore[attr-defined]
                    raise _Overtaken  # (nothing of this chunk is kept)
        except _Overtaken:
            pass


_running: dict[int, threading.Thread] = {}
_running_lock = threading.Lock()


def start_catch_up(league_id: int) -> None:
    """Run :func:`catch_up` for the league: in a thread of this process (unless one
    is running), or right here if ``RATINGS_CATCH_UP`` is ``inline``, or not at all
    if it is ``manual`` (tests); with ``job`` (set where job workers run: make run,
    serve and dev), as a background job (:func:`queue_catch_up`)."""
    mode = current_app.config.get("RATINGS_CATCH_UP", "thread")
    if mode == "manual":
        return
    if mode == "inline":
        catch_up(league_id)
        return
    if mode == "job":
        queue_catch_up(league_id)
        return
    app = current_app._get_current_object()  # type: ignore[attr-defined]

    def run() -> None:
        try:
            with app.app_context():
                try:
                    catch_up(league_id)
                finally:
                    db.session.remove()
        finally:
            with _running_lock:
                _running.pop(league_id, None)

    with _running_lock:
        if league_id in _running:
            return
        thread = threading.Thread(target=run, name=f"ratings-{league_id}", daemon=True)
        _running[league_id] = thread
    thread.start()


# --- the catch-up as a background job (RATINGS_CATCH_UP=job) --------------------------

#: The kind of job that replays a league's stale ratings.
RATINGS_JOB = "ratings"
#: Games replayed per step of the job (one transaction each).
JOB_CHUNK = 1000


def queue_catch_up(league_id: int) -> None:
    """Queue the league's catch-up as a job, unless one is waiting or running. On a
    connection of its own: this runs as a write commits (the session's hook), when the
    session itself can say nothing more."""
    with db.engine.begin() as connection:
        waiting = connection.execute(select(Job.id).where(
            Job.kind == RATINGS_JOB, Job.league_id == league_id,
            Job.state.in_((JOB_QUEUED, JOB_RUNNING))).limit(1)).first()
        if waiting is None:
            connection.execute(insert(Job).values(
                kind=RATINGS_JOB, owner=f"ratings:{league_id}", league_id=league_id,
                state=JOB_QUEUED, payload={}, done=0, attempts=0, created_at=utcnow()))


def _catch_up_job(job: Job) -> Generator[jobs.Step, None, None]:
    """The kind ``ratings``: :func:`catch_up`, a chunk per step."""
    league_id = job.league_id
    assert league_id is not None
    while True:
        row = db.session.execute(select(League.ratings_from_seq, League.ratings_epoch)
                                 .where(League.id == league_id)).one_or_none()
        last = db.session.scalar(select(func.max(GameResult.seq))
                                 .where(GameResult.league_id == league_id))
        total = 0 if last is None else last + 1
        if row is None or row.ratings_from_seq is None:
            yield jobs.Step(total, total, result={"league": league_id})
            return
        end = _replay_stored(db.session, league_id, row.ratings_from_seq, JOB_CHUNK)
        moved = db.session.execute(update(League).where(
            League.id == league_id, League.ratings_epoch == row.ratings_epoch,
            League.ratings_from_seq == row.ratings_from_seq).values(ratings_from_seq=end))
        if not moved.rowcount:  # type: ignore[attr-defined]
            yield jobs.Step(0, discard=True)  # (overtaken by a write: nothing kept)
        else:
            yield jobs.Step(total if end is None else end, total)


jobs.KINDS[RATINGS_JOB] = jobs.Kind(run=_catch_up_job)

install()
