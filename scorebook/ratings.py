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

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import and_, case, delete, exists, func, insert, or_, select
from sqlalchemy.exc import IntegrityError

from scorebook.extensions import db
from scorebook.models import FINISHED, Game, GameResult, Hand, HandScore, Seat

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


def _player_totals(league_id: int, since: _Game | None) -> dict[int, list[tuple[Any, ...]]]:
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
    if seq == 0:
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
    game (None: all up to date).  One query, answered by the database."""
    ordered = (select(Game.id, Game.finished_at,
                      func.coalesce(Game.revision, 0).label("revision"),
                      (func.row_number().over(order_by=(Game.finished_at, Game.id)) - 1)
                      .label("seq"))
               .where(Game.league_id == league_id, Game.status == FINISHED,
                      Game.finished_at.is_not(None)).subquery())
    matches = exists().where(GameResult.game_id == ordered.c.id,
                             GameResult.seq == ordered.c.seq,
                             GameResult.revision == ordered.c.revision,
                             GameResult.finished_at == ordered.c.finished_at)
    first, count = db.session.execute(
        select(func.min(case((~matches, ordered.c.seq))), func.count())
        .select_from(ordered)).one()
    if first is not None:
        return int(first)
    orphans = db.session.scalar(select(
        exists().where(GameResult.league_id == league_id, ~GameResult.game_id.in_(
            select(Game.id).where(Game.league_id == league_id, Game.status == FINISHED,
                                  Game.finished_at.is_not(None))))))
    return int(count) if orphans else None


def refresh(league_id: int) -> bool:
    """Bring the league's results and ratings up to date; True if anything changed.
    Commits (a concurrent refresh of the same league simply wins)."""
    first = first_stale(league_id)
    if first is None:
        return False
    try:
        db.session.execute(delete(GameResult).where(GameResult.league_id == league_id,
                                                    GameResult.seq >= first))
        db.session.execute(delete(GameResult).where(  # games no longer finished
            GameResult.league_id == league_id, ~GameResult.game_id.in_(
                select(Game.id).where(Game.league_id == league_id,
                                      Game.status == FINISHED))))
        _replay(league_id, _finished_games(league_id), first)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
    return True


def rebuild(league_id: int) -> None:
    """Throw away the league's results and replay every game (after a merge, an import).
    Does not commit."""
    db.session.execute(delete(GameResult).where(GameResult.league_id == league_id))
    _replay(league_id, _finished_games(league_id), 0)


def _replay(league_id: int, games: Sequence[_Game], first: int) -> None:
    todo = games[first:]
    if not todo:
        return
    ratings = _ratings_before(league_id, first)
    seats = _player_totals(league_id, todo[0])
    rows: list[dict[str, Any]] = []
    for seq, game in enumerate(todo, start=first):
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
    for start in range(0, len(rows), 2000):
        db.session.execute(insert(GameResult), rows[start:start + 2000])

