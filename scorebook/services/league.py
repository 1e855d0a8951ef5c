"""Leagues that last for years: the roster, seasons, standings, player pages, history
(which season a day belongs to, and the seasons every finished game needs, are
:mod:`scorebook.services.seasons`).

Every figure comes from the database's aggregation of the stored results
(:class:`GameResult`, one row per player per finished game, built from the stored
hand scores by :mod:`scorebook.services.ratings`); nothing here walks cards or hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, cast

from sqlalchemy import Table, and_, case, exists, func, or_, select, update
from sqlalchemy.orm import aliased, selectinload

from scorebook.extensions import db
from scorebook.models import (
    ALL_TIME,
    FINISHED,
    Game,
    GameResult,
    Hand,
    HandScore,
    League,
    Meld,
    Player,
    PlayerTally,
    Season,
    Seat,
    UndoStep,
    player_pair_sum,
    player_score_sum,
    player_stat_sum,
    utcnow,
)
from scorebook.plain_text import has_unwanted
from scorebook.services import history, ratings, sums, undo
from scorebook.services.errors import SentenceError, sentence
from scorebook.services.games import MAX_NAME_LENGTH, clean_name, look_alike, roster_key
from scorebook.services.seasons import (
    FIRST_DAY,
    LAST_DAY,
    as_utc,
    day_kept,
    ensure_seasons,
    season_bounds,
    seasons_of,
)
from scorebook.services.transaction import transaction

MAX_SEASON_NAME = 40


class LeagueError(SentenceError):
    """Something the league cannot do (see :class:`SentenceError`)."""


# --- the roster -------------------------------------------------------------------------


def players_of(league: League, include_retired: bool = True) -> list[Player]:
    query = select(Player).where(Player.league_id == league.id)
    if not include_retired:
        query = query.where(Player.retired_at.is_(None))
    return list(db.session.scalars(query.order_by(func.lower(Player.name), Player.id)))


def _check_name(league: League, name: str, player: Player | None = None,
                new_anyway: bool = True) -> str:
    name = clean_name(name)
    if not name:
        raise LeagueError(sentence("league.player-name-missing"), "name")
    if has_unwanted(name):
        raise LeagueError(sentence("league.unwanted-text"), "name")
    if len(name) > MAX_NAME_LENGTH:
        raise LeagueError(sentence("league.name-too-long", max=MAX_NAME_LENGTH), "name")
    key = roster_key(name)
    clash = next((p for p in players_of(league) if roster_key(p.name) == key), None)
    if clash is not None and clash is not player:
        raise LeagueError(sentence("league.player-name-taken", name=clash.name), "name")
    if not new_anyway:
        twin = look_alike(league, name)
        if twin is not None and twin is not player:
            raise LeagueError(sentence("league.player-name-look-alike", name=twin.name,
                                       typed=name), "look-alike")
    return name


def add_player(league: League, name: str, new_anyway: bool = False) -> Player:
    """A new player on the roster.  A name that differs from a player's only by its
    accents ("Lucia" beside "Lucía") is refused with a question (``look-alike``) until
    ``new_anyway`` says it is someone else."""
    with transaction():
        player = Player(league=league, name=_check_name(league, name, None, new_anyway))
        db.session.add(player)
    return player


def rename_player(player: Player, name: str) -> None:
    with transaction():
        player.name = _check_name(player.league, name, player)
        _touch_games_of(player.id)


def set_retired(player: Player, retired: bool) -> None:
    with transaction():
        player.retired_at = (player.retired_at or utcnow()) if retired else None


def _touch_games_of(player_id: int) -> None:
    """Bump the revision of every game the player sat at (their pages show names)."""
    games = select(Seat.game_id).where(Seat.player_id == player_id)
    db.session.execute(update(Game).where(Game.id.in_(games))
                       .values(revision=Game.revision + 1))
    db.session.execute(update(GameResult).where(GameResult.game_id.in_(games))
                       .values(revision=GameResult.revision + 1))
    # (an UPDATE the commit hook does not see: the statistics stamp moved on here)
    ratings.stamp(db.session, [db.session.scalar(select(Player.league_id)
                                                 .where(Player.id == player_id))])


#: A merge of two players, among a league's undoable steps (:mod:`scorebook.services.undo`).
MERGE = "players-merged"
#: Game ids per statement (an ``IN`` list) when a merge or its undo moves rows.
MERGE_CHUNK = 500


@dataclass(frozen=True)
class PlayerCounts:
    """What a player's history holds: the games they sat at, how many of them are
    finished, and their hands (each complete hand they have a score in)."""

    games: int
    finished: int
    hands: int


def player_counts(player: Player) -> PlayerCounts:
    games, finished = db.session.execute(
        select(func.count(), func.count(case((Game.status == FINISHED, 1))))
        .select_from(Seat).join(Game, Game.id == Seat.game_id)
        .where(Seat.player_id == player.id)).one()
    hands = db.session.scalar(
        select(func.count()).select_from(HandScore).join(Hand, Hand.id == HandScore.hand_id)
        .where(HandScore.player_id == player.id, Hand.complete.is_(True))) or 0
    return PlayerCounts(int(games), int(finished), int(hands))


def games_together(a: Player, b: Player) -> int:
    """How many games the two sat at together (two such players are two people)."""
    return int(db.session.scalar(
        select(func.count()).select_from(Seat).where(
            Seat.player_id == a.id,
            Seat.game_id.in_(select(Seat.game_id).where(Seat.player_id == b.id)))) or 0)


def check_merge(keep: Player, gone: Player) -> None:
    """Refuse a merge that cannot be: one player, two leagues, or two people who sat at
    one table."""
    if keep.id == gone.id:
        raise LeagueError(sentence("league.merge-same-player"), "other")
    if keep.league_id != gone.league_id:
        raise LeagueError(sentence("league.merge-other-league"), "other")
    shared = games_together(keep, gone)
    if shared:
        raise LeagueError(sentence("league.merge-shared-games", a=keep.name, b=gone.name,
                                   count=shared), "other")


#: Tables that name players but are counted again from the rest after a merge or its
#: undo (the results and ratings, the standings' tallies, the player pages' sums).
def _summed() -> tuple[Any, ...]:
    return (GameResult.__table__, PlayerTally.__table__, player_stat_sum, player_score_sum,
            player_pair_sum)


def _player_columns() -> list[tuple[Table, Any]]:
    """Every column that names a player, in every table but the summed ones."""
    player_table = Player.__table__
    found = []
    for table in db.metadata.sorted_tables:
        if table in _summed():
            continue
        for fk in table.foreign_keys:
            if fk.column.table is player_table and fk.parent.table is table:
                found.append((table, fk.parent))
    return found


def _in_a_game(table: Table) -> bool:
    """Whether every row of ``table`` belongs to a game (through a hand or a meld)."""
    return table is Game.__table__ or bool({"game_id", "hand_id", "meld_id"} & set(table.c.keys()))


def _games_named(table: Table, column: Any, player_id: int) -> Any:
    """The games of ``table``'s rows whose ``column`` names the player."""
    c = table.c
    if table is Game.__table__:
        return select(c.id).where(column == player_id)
    if "game_id" in c:
        return select(c.game_id).where(column == player_id)
    if "hand_id" in c:
        return select(Hand.game_id).join(table, c.hand_id == Hand.id).where(column == player_id)
    return (select(Hand.game_id).join(Meld, Meld.hand_id == Hand.id)
            .join(table, c.meld_id == Meld.id).where(column == player_id))


def _in_games(table: Table, game_ids: Sequence[int]) -> Any:
    """``table``'s rows that belong to one of ``game_ids`` (an indexed condition)."""
    c = table.c
    if table is Game.__table__:
        return c.id.in_(game_ids)
    if "game_id" in c:
        return c.game_id.in_(game_ids)
    if "hand_id" in c:
        return c.hand_id.in_(select(Hand.id).where(Hand.game_id.in_(game_ids)))
    return c.meld_id.in_(select(Meld.id).join(Hand, Hand.id == Meld.hand_id)
                         .where(Hand.game_id.in_(game_ids)))


def _chunks(items: Sequence[int]) -> list[Sequence[int]]:
    return [items[i:i + MERGE_CHUNK] for i in range(0, len(items), MERGE_CHUNK)] or [[]]


def _moved_rows(gone: Player) -> tuple[list[int], dict[str, list[dict[str, Any]]]]:
    """What a merge moves of ``gone``'s: the games their rows belong to, and the rows
    that belong to no game, by ``table.column``: each by its primary key as it will be
    once moved (the player column, if part of it, naming the kept player: ``None``)."""
    games: set[int] = set()
    loose: dict[str, list[dict[str, Any]]] = {}
    for table, column in _player_columns():
        if _in_a_game(table):
            games.update(db.session.scalars(_games_named(table, column, gone.id).distinct()))
            continue
        key = list(table.primary_key.columns)
        rows = [{c.name: (None if c is column else value) for c, value in zip(key, row)}
                for row in db.session.execute(select(*key).where(column == gone.id))]
        if rows:
            loose[f"{table.name}.{column.name}"] = rows
    return sorted(games), loose


def _recount(league_id: int) -> None:
    """The results, ratings, tallies and sums of the league, counted again (after its
    players changed)."""
    db.session.flush()
    db.session.expire_all()
    ratings.rebuild(league_id)
    sums.resum(db.session, league_id)


def merge_players(keep: Player, gone: Player) -> UndoStep:
    """``gone`` turns out to be ``keep``: every game, hand, meld and card of ``gone``
    becomes ``keep``'s, and ``gone`` leaves the roster.  One transaction, recorded as a
    step that :func:`undo_merge` undoes: the player that left as they were, and the
    games (and any row outside a game) that moved.  Each of those games' history says
    so."""
    check_merge(keep, gone)
    counts = player_counts(gone)
    keep_name, gone_name = keep.name, gone.name
    with transaction():
        league_id = keep.league_id
        games, loose = _moved_rows(gone)
        step = undo.record(league_id, MERGE, params={
            "keep": keep_name, "gone": gone_name, "games": counts.games, "hands": counts.hands,
        }, state={
            "keep": keep.id, "games": games, "rows": loose,
            "player": {"id": gone.id, "name": gone.name,
                       "created_at": _iso(gone.created_at), "retired_at": _iso(gone.retired_at)},
        })
        history.log_games(league_id, games, history.PLAYERS_MERGED, f"{gone_name} → {keep_name}")
        for table in (GameResult.__table__, PlayerTally.__table__):  # (counted again below)
            db.session.execute(table.delete().where(table.c.league_id == league_id))
        _touch_games_of(gone.id)
        for table, column in _player_columns():
            db.session.execute(update(table).where(column == gone.id)
                               .values({column.name: keep.id}))
        db.session.flush()
        db.session.expire_all()
        player_table = Player.__table__
        db.session.execute(player_table.delete().where(player_table.c.id == gone.id))
        _recount(league_id)
    return step


def undo_merge(step: UndoStep) -> Player:
    """Undo a merge: the player that left comes back as they were (their id if it is
    free, name, when they joined, retired or not), and every row that moved goes back to
    them: in the games that moved, whatever names the kept player is theirs again (a
    hand edited since the merge included), and the rows outside a game by id.  Games
    played since by the kept player stay theirs.  Results, ratings, standings and sums
    are counted again; each game's history says so.  Commits; returns the player."""
    if step.kind != MERGE:
        raise ValueError(step.kind)
    if step.undone_at is not None:
        raise LeagueError(sentence("league.merge-undone-already", a=step.params["gone"],
                                   b=step.params["keep"]))
    state = step.state
    old = state["player"]
    keep = db.session.get(Player, state["keep"])
    if keep is None or keep.league_id != step.league_id:
        raise LeagueError(sentence("league.merge-undo-kept-gone", name=step.params["keep"]))
    clash = db.session.scalar(select(Player).where(
        Player.league_id == step.league_id, func.lower(Player.name) == old["name"].lower()))
    if clash is not None:
        raise LeagueError(sentence("league.merge-undo-name-taken", name=clash.name))
    keep_id, keep_name = keep.id, keep.name
    with transaction():
        league_id = step.league_id
        player = Player(league_id=league_id, name=old["name"],
                        created_at=_from_iso(old["created_at"]) or utcnow(),
                        retired_at=_from_iso(old["retired_at"]))
        if db.session.get(Player, old["id"]) is None:
            player.id = old["id"]
        db.session.add(player)
        db.session.flush()
        back = player.id
        games = [int(g) for g in state["games"]]
        for table in (GameResult.__table__, PlayerTally.__table__):  # (counted again below)
            db.session.execute(table.delete().where(table.c.league_id == league_id))
        for table, column in _player_columns():
            if not _in_a_game(table):
                continue
            for chunk in _chunks(games):
                db.session.execute(update(table).where(column == keep_id,
                                                       _in_games(table, chunk))
                                   .values({column.name: back}))
        for where, rows in state.get("rows", {}).items():
            name, _, column_name = where.partition(".")
            table = db.metadata.tables[name]
            for row in rows:  # (rows outside a game: none today; each by its key)
                db.session.execute(update(table).where(
                    table.c[column_name] == keep_id,
                    *[table.c[c] == value for c, value in row.items() if value is not None])
                    .values({column_name: back}))
        _touch_games_of(back)
        still = [g for chunk in _chunks(games)
                 for g in db.session.scalars(select(Game.id).where(Game.id.in_(chunk)))]
        history.log_games(league_id, still, history.MERGE_UNDONE, f"{keep_name} → {old['name']}")
        undo.mark_undone(step)
        _recount(league_id)
    restored = db.session.get(Player, back)
    assert restored is not None
    return restored


def merges(league: League) -> list[UndoStep]:
    """The league's latest merges, latest first (undone ones too)."""
    return undo.recent(league.id, MERGE)


def _iso(value: datetime | None) -> str | None:
    return as_utc(value).isoformat() if value is not None else None


def _from_iso(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


# --- seasons ----------------------------------------------------------------------------


def save_season(league: League, name: str, starts_on: date | None, ends_on: date | None,
                season: Season | None = None) -> Season:
    """Add a season or change one; seasons may not overlap.  Commits."""
    name = " ".join(name.split())
    if not name:
        raise LeagueError(sentence("league.season-name-missing"), "name")
    if has_unwanted(name):
        raise LeagueError(sentence("league.unwanted-text"), "name")
    if len(name) > MAX_SEASON_NAME:
        raise LeagueError(sentence("league.name-too-long", max=MAX_SEASON_NAME), "name")
    if starts_on is None or ends_on is None:
        raise LeagueError(sentence("league.season-days-missing"), "starts_on")
    if not day_kept(starts_on) or not day_kept(ends_on):
        raise LeagueError(sentence("league.season-days-range", first=FIRST_DAY, last=LAST_DAY),
                          "ends_on" if day_kept(starts_on) else "starts_on")
    if ends_on < starts_on:
        raise LeagueError(sentence("league.season-ends-first"), "ends_on")
    for other in seasons_of(league):
        if other is season:
            continue
        if other.name.lower() == name.lower():
            raise LeagueError(sentence("league.season-name-taken", name=other.name), "name")
        if other.starts_on <= ends_on and starts_on <= other.ends_on:
            raise LeagueError(sentence("league.season-overlap", name=other.name,
                                       start=other.starts_on, end=other.ends_on), "starts_on")
    with transaction():
        if season is None:
            season = Season(league_id=league.id)
            db.session.add(season)
        season.name, season.starts_on, season.ends_on = name, starts_on, ends_on
        db.session.flush()
        ensure_seasons(league)  # days it no longer holds go to their year's
        ratings.retally(db.session, league.id)
        sums.resum(db.session, league.id)
    return season


def delete_season(season: Season) -> None:
    league = season.league
    with transaction():
        db.session.delete(season)
        db.session.flush()
        ensure_seasons(league)
        ratings.retally(db.session, league.id)
        sums.resum(db.session, league.id)


def prepare(league: League) -> list[Season]:
    """The league's seasons, latest first.  Nothing is checked or rebuilt here: the
    results, ratings and seasons are kept up to date by every write
    (:func:`scorebook.services.ratings.sync`)."""
    return seasons_of(league)


def ratings_pending(league: League) -> int:
    """How many games' ratings are still being brought up to date after an edit of an
    early game (0: none); the pages say so while it lasts."""
    return ratings.pending(league.id)


# --- standings --------------------------------------------------------------------------

#: The columns the standings sort by, in the order the table shows them (the presenters
#: name them: scorebook.presenters.sentences.league.SORT_LABELS).
SORTS = ("rating", "games", "wins", "win_rate", "avg_position", "avg_hand", "best_hand",
         "best_total", "melded", "stranded", "streak", "name")
#: Which way each column sorts first (True: biggest first): the better way.
DESCENDING_FIRST = {key: key not in ("avg_position", "stranded", "name") for key in SORTS}
DEFAULT_SORT = "wins"
#: The standings' tie-breaks, in order, after the column they are sorted by: more wins,
#: then the better win rate, then the better average finishing place.  Players equal on
#: all of them share a place (1, 2, 2, 4); their names only order their rows.  The page
#: states them (:func:`ranked_by`), and the standings page, its CSV and the API all
#: place players with :func:`sort_standings`.
TIE_BREAKS = ("wins", "win_rate", "avg_position")


@dataclass
class Standing:
    player_id: int
    name: str
    retired: bool
    games: int
    wins: int
    positions: int  # sum of finishing positions
    hands: int
    points: int  # sum of hand scores
    best_hand: int | None
    best_total: int | None
    melded: int
    stranded: int
    streak_won: bool | None = None
    streak: int = 0
    rating: int | None = None
    #: The player's place in the standings (:func:`sort_standings`): equal records share it.
    place: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def avg_position(self) -> float | None:
        return self.positions / self.games if self.games else None

    @property
    def avg_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None

    @property
    def signed_streak(self) -> int:
        """Wins in a row (positive) or games without a win (negative)."""
        return self.streak if self.streak_won else -self.streak

    def sort_value(self, key: str) -> Any:
        if key == "name":
            return self.name.lower()
        if key == "streak":
            return self.signed_streak
        value = getattr(self, key)
        return float("-inf") if value is None else value


#: The fields of a standings row as the CSV and the API give it, in order.
STANDING_FIELDS = ("place", "player", "games", "wins", "win_rate", "avg_position", "avg_hand",
                   "best_hand", "best_total", "melded", "stranded", "streak", "rating",
                   "retired")


def standing_record(row: Standing) -> dict[str, Any]:
    """A standings row as plain values (the CSV export and the API): its place, the
    win rate as a fraction, the averages rounded as the page shows them (2 and 1
    decimals), the streak signed (3: three wins in a row; −2: two games without one)."""
    return {
        "place": row.place, "player": row.name, "games": row.games, "wins": row.wins,
        "win_rate": round(row.win_rate, 4),
        "avg_position": None if row.avg_position is None else round(row.avg_position, 2),
        "avg_hand": None if row.avg_hand is None else round(row.avg_hand, 1),
        "best_hand": row.best_hand, "best_total": row.best_total, "melded": row.melded,
        "stranded": row.stranded, "streak": row.signed_streak, "rating": row.rating,
        "retired": row.retired,
    }


def _result_filter(league_id: int, season: Season | None) -> list[Any]:
    where = [GameResult.league_id == league_id]
    if season is not None:
        start, end = season_bounds(season)
        where += [GameResult.finished_at >= start, GameResult.finished_at < end]
    return where


def standings(league: League, season: Season | None = None, sort: str = DEFAULT_SORT,
              descending: bool | None = None, player_id: int | None = None
              ) -> list[Standing]:
    """Each player's figures over the season (None: all time), sorted by ``sort``: one
    maintained :class:`PlayerTally` row per player, and the rating each ended on (one
    indexed look-up per player)."""
    scope = ALL_TIME if season is None else season.id
    where = [PlayerTally.league_id == league.id, PlayerTally.season_id == scope]
    if player_id is not None:
        where.append(PlayerTally.player_id == player_id)
    mu = (select(GameResult.mu).where(GameResult.player_id == PlayerTally.player_id))
    if season is not None:
        start, end = season_bounds(season)
        mu = mu.where(GameResult.finished_at >= start, GameResult.finished_at < end)
    mu = mu.order_by(GameResult.finished_at.desc(), GameResult.seq.desc()).limit(1)
    rows = db.session.execute(
        select(PlayerTally, Player.name, Player.retired_at,
               mu.scalar_subquery().label("mu"))
        .join(Player, Player.id == PlayerTally.player_id).where(*where))
    table = []
    for tally, name, retired_at, last_mu in rows.tuples():
        row = Standing(tally.player_id, name, retired_at is not None, tally.games,
                       tally.wins, tally.positions, tally.hands, tally.points,
                       tally.best_hand, tally.best_total, tally.melded, tally.stranded,
                       streak_won=tally.streak_won, streak=tally.streak)
        if last_mu is not None:
            row.rating = ratings.display_rating(last_mu)
        table.append(row)
    placed = sort_standings(table, sort, descending)
    if player_id is not None:
        for one in placed:
            one.place = 0  # (one player alone has no place among the others)
    return placed


def counted_standings(league: League, season: Season | None = None,
                      sort: str = DEFAULT_SORT) -> list[Standing]:
    """:func:`standings` counted afresh from every result row (a check of the
    tallies, in the tests)."""
    where = _result_filter(league.id, season)
    names = {p.id: p for p in players_of(league)}
    table = {}
    for t in ratings.tally_rows(db.session, where):
        p = names[t["player_id"]]
        table[p.id] = Standing(p.id, p.name, p.retired_at is not None, t["games"],
                               t["wins"], t["positions"], t["hands"], t["points"],
                               t["best_hand"], t["best_total"], t["melded"], t["stranded"],
                               streak_won=t["streak_won"], streak=t["streak"])
    for pid, mu in _last_ratings(where).items():
        if pid in table:
            table[pid].rating = ratings.display_rating(mu)
    return sort_standings(list(table.values()), sort)


def ranked_by(sort: str = DEFAULT_SORT) -> list[str]:
    """The columns the standings sorted by ``sort`` place players by, in order: that
    column, then the tie-breaks (:data:`TIE_BREAKS`).  Sorted by name, the places are
    the default order's."""
    first = DEFAULT_SORT if sort not in SORTS or sort == "name" else sort
    return [first, *(key for key in TIE_BREAKS if key != first)]


def _better_first(row: Standing, key: str) -> Any:
    """``row``'s value of ``key`` such that the better one is the smaller (a figure
    nobody has, such as the average place of no game, last)."""
    value = row.sort_value(key)
    if value == float("-inf"):
        return float("inf")
    return -value if DESCENDING_FIRST[key] else value


def sort_standings(rows: list[Standing], sort: str = DEFAULT_SORT,
                   descending: bool | None = None) -> list[Standing]:
    """Sort the standings by ``sort`` (its better way first unless ``descending`` says
    otherwise) and give each row its ``place``: by :func:`ranked_by`, equal records
    sharing a place.  The one ranking of the standings, wherever they are shown."""
    if sort not in SORTS:
        sort = DEFAULT_SORT
    if descending is None:
        descending = DESCENDING_FIRST[sort]
    keys = ranked_by(sort)

    def record(r: Standing) -> tuple[Any, ...]:
        return tuple(_better_first(r, key) for key in keys)

    rows.sort(key=lambda r: (record(r), r.name.lower(), r.player_id))
    for i, row in enumerate(rows):
        row.place = rows[i - 1].place if i and record(rows[i - 1]) == record(row) else i + 1
    if sort == "name":
        rows.sort(key=lambda r: (r.name.lower(), r.player_id), reverse=descending)
    elif descending != DESCENDING_FIRST[sort]:
        rows.reverse()  # the other way round: the places stay
    return rows


def _last_ratings(where: list[Any]) -> dict[int, float]:
    """Each player's mu after their last game within ``where``."""
    last = (select(GameResult.player_id, func.max(GameResult.seq).label("seq"))
            .where(*where).group_by(GameResult.player_id).subquery())
    rows = db.session.execute(
        select(GameResult.player_id, GameResult.mu)
        .join(last, and_(last.c.player_id == GameResult.player_id,
                         last.c.seq == GameResult.seq)))
    return {r.player_id: r.mu for r in rows}


# --- a player's page --------------------------------------------------------------------


@dataclass
class HeadToHead:
    opponent_id: int
    name: str
    games: int
    ahead: int
    behind: int
    level: int
    wins: int
    their_wins: int


@dataclass
class RatingPoint:
    game_id: int
    finished_at: datetime
    rating: int


@dataclass
class RecentGame:
    game_id: int
    finished_at: datetime
    position: int
    won: bool
    total: int
    table: list[tuple[str, int]] = field(default_factory=list)  # (name, total), seat order
    number: int = 0  # the game's number within its league


def head_to_head(player: Player, season: Season | None = None, kept: bool = False
                 ) -> list[HeadToHead]:
    """The player against each opponent in the games both finished.  ``kept``: from
    the sums kept per pair and season (:data:`player_pair_sum`: one row per opponent,
    whatever the league's age; the statistics cache must be up to date), else counted
    from every result row the two share."""
    if kept:
        t = player_pair_sum.c
        rows = db.session.execute(
            select(t.opponent_id.label("player_id"), Player.name, t.games, t.ahead, t.behind,
                   t.wins, t.their_wins).join(Player, Player.id == t.opponent_id)
            .where(t.player_id == player.id,
                   t.season_id == (ALL_TIME if season is None else season.id)))
    else:
        rows = _head_to_head_counted(player, season)
    out = [HeadToHead(r.player_id, r.name, r.games, int(r.ahead), int(r.behind),
                      r.games - int(r.ahead) - int(r.behind), int(r.wins), int(r.their_wins))
           for r in rows]
    out.sort(key=lambda h: (-h.games, h.name.lower()))
    return out


def _head_to_head_counted(player: Player, season: Season | None) -> Any:
    mine, theirs = aliased(GameResult), aliased(GameResult)
    where = [mine.player_id == player.id, theirs.player_id != player.id]
    if season is not None:
        start, end = season_bounds(season)
        where += [mine.finished_at >= start, mine.finished_at < end]
    one = 1
    rows = db.session.execute(
        select(theirs.player_id, Player.name, func.count().label("games"),
               func.sum(case((mine.position < theirs.position, one), else_=0)).label("ahead"),
               func.sum(case((mine.position > theirs.position, one), else_=0)).label("behind"),
               func.sum(case((mine.won, one), else_=0)).label("wins"),
               func.sum(case((theirs.won, one), else_=0)).label("their_wins"))
        .join(theirs, theirs.game_id == mine.game_id)
        .join(Player, Player.id == theirs.player_id)
        .where(*where).group_by(theirs.player_id, Player.name))
    return rows


def rating_history(player: Player) -> list[RatingPoint]:
    rows = db.session.execute(
        select(GameResult.game_id, GameResult.finished_at, GameResult.mu)
        .where(GameResult.player_id == player.id).order_by(GameResult.seq))
    return [RatingPoint(r.game_id, r.finished_at, ratings.display_rating(r.mu))
            for r in rows]


#: Ratings the chart draws one by one; a longer history is drawn from this many
#: stretches of games, each by its lowest and highest rating (what a line this
#: wide can show), so its cost does not grow with the player's games.
RATING_POINTS = 300


@dataclass
class RatingLine:
    """What the rating chart draws: ``points`` (every rating, or each stretch's low and
    high), over ``games`` games from ``first`` to ``last``; ``now`` the rating after the
    last one, ``high`` and ``low`` the extremes of all."""

    games: int
    points: list[int]
    first: datetime | None = None
    last: datetime | None = None
    now: int | None = None
    high: int | None = None
    low: int | None = None


def rating_line(player: Player, stretches: int = RATING_POINTS) -> RatingLine:
    """The player's rating after each game for the chart: every rating for up to
    ``stretches`` games, else the database folds the history into ``stretches`` runs
    of games (by row number) and returns each one's lowest and highest."""
    g = GameResult
    mine = g.player_id == player.id
    games, first_seq, last_seq, high, low = db.session.execute(
        select(func.count(), func.min(g.seq), func.max(g.seq), func.max(g.mu), func.min(g.mu))
        .where(mine)).one()
    if not games:
        return RatingLine(0, [])
    ends = {seq: at for seq, at in db.session.execute(
        select(g.seq, g.finished_at).where(mine, g.seq.in_([first_seq, last_seq])))}
    # (casts: the player has games, so their first and last rows are there)
    now = ratings.display_rating(cast(float, db.session.scalar(
        select(g.mu).where(mine, g.seq == last_seq))))
    line = RatingLine(games, [], ends[first_seq], ends[last_seq], now, ratings.display_rating(high),
                      ratings.display_rating(low))
    if games <= stretches:
        line.points = [ratings.display_rating(mu) for mu in db.session.scalars(
            select(g.mu).where(mine).order_by(g.seq))]
        return line
    numbered = select(g.mu, (func.row_number().over(order_by=g.seq) - 1).label("i")) \
        .where(mine).subquery()
    stretch = (numbered.c.i * stretches) // games
    first_mu = cast(float, db.session.scalar(select(g.mu).where(mine, g.seq == first_seq)))
    points = [ratings.display_rating(first_mu)]
    for lowest, highest in db.session.execute(
            select(func.min(numbered.c.mu), func.max(numbered.c.mu)).group_by(stretch)
            .order_by(stretch)).tuples():
        pair = [ratings.display_rating(lowest), ratings.display_rating(highest)]
        if abs(pair[1] - points[-1]) < abs(pair[0] - points[-1]):
            pair.reverse()  # (on from the nearer one)
        points += pair
    points.append(now)
    line.points = points
    return line


def recent_games(player: Player, limit: int = 10) -> list[RecentGame]:
    rows = list(db.session.execute(
        select(GameResult.game_id, GameResult.finished_at, GameResult.position,
               GameResult.won, GameResult.total, Game.number)
        .join(Game, Game.id == GameResult.game_id)
        .where(GameResult.player_id == player.id)
        .order_by(GameResult.seq.desc()).limit(limit)))
    games = [RecentGame(r.game_id, r.finished_at, r.position, bool(r.won), r.total,
                        number=r.number) for r in rows]
    tables = game_tables([g.game_id for g in games])
    for g in games:
        g.table = [(name, total) for _pid, name, total in tables.get(g.game_id, [])]
    return games


def game_tables(game_ids: Sequence[int]) -> dict[int, list[tuple[int, str, int]]]:
    """Each game's (player id, name, total of complete hands) in seat order."""
    if not game_ids:
        return {}
    totals = (select(Hand.game_id, HandScore.player_id,
                     func.sum(HandScore.score).label("total"))
              .join(HandScore, HandScore.hand_id == Hand.id)
              .where(Hand.game_id.in_(game_ids), Hand.complete.is_(True))
              .group_by(Hand.game_id, HandScore.player_id).subquery())
    rows = db.session.execute(
        select(Seat.game_id, Seat.player_id, Player.name, totals.c.total)
        .join(Player, Player.id == Seat.player_id)
        .outerjoin(totals, and_(totals.c.game_id == Seat.game_id,
                                totals.c.player_id == Seat.player_id))
        .where(Seat.game_id.in_(game_ids)).order_by(Seat.game_id, Seat.position))
    out: dict[int, list[tuple[int, str, int]]] = {}
    for r in rows:
        out.setdefault(r.game_id, []).append((r.player_id, r.name, int(r.total or 0)))
    return out


def score_distribution(player: Player, season: Season | None = None,
                       width: int | None = None, kept: bool = False
                       ) -> tuple[int, list[tuple[int, int]]]:
    """How often the player's hands scored in each band: (band width, [(band start,
    hands)]) over complete hands of finished games.  ``kept``: from the counts kept per
    player and season (:data:`player_score_sum`: one row per score, whatever the
    league's age; the statistics cache must be up to date), else counted by the
    database from an index of the hand scores.  The bands are made of those counts."""
    if kept:
        t = player_score_sum.c
        counts = list(db.session.execute(
            select(t.score, t.hands).where(
                t.player_id == player.id,
                t.season_id == (ALL_TIME if season is None else season.id))).tuples())
    else:
        where = [HandScore.player_id == player.id, Hand.complete.is_(True),
                 Game.status == FINISHED]
        if season is not None:
            start, end = season_bounds(season)
            where += [Game.finished_at >= start, Game.finished_at < end]
        counts = list(db.session.execute(
            select(HandScore.score, func.count()).join(Hand, Hand.id == HandScore.hand_id)
            .join(Game, Game.id == Hand.game_id).where(*where).group_by(HandScore.score))
            .tuples())
    if not counts:
        return width or 10, []
    if width is None:
        span = max(c[0] for c in counts) - min(c[0] for c in counts)
        width = next((w for w in (5, 10, 20, 25, 50, 100, 200) if span / w <= 12), 500)
    bands: dict[int, int] = {}
    for score, n in counts:
        band = (score // width) * width  # rounds down, negative scores too
        bands[band] = bands.get(band, 0) + n
    return width, sorted(bands.items())


# --- history ----------------------------------------------------------------------------

HISTORY_PAGE = 20


def history_when() -> Any:
    """The time the history orders a game by: when it finished, else when it started."""
    return func.coalesce(Game.finished_at, Game.started_at)


def history_query(league: League, season: Season | None = None,
                  player: Player | None = None) -> Any:
    """Every game of the league, latest first (a game not finished by the day it started)."""
    when = history_when()
    query = (select(Game).where(Game.league_id == league.id)
             .options(selectinload(Game.winner))
             .order_by(when.desc(), Game.id.desc()))
    if season is not None:
        start, end = season_bounds(season)
        query = query.where(when >= start, when < end)
    if player is not None:
        query = query.where(exists().where(Seat.game_id == Game.id,
                                           Seat.player_id == player.id))
    return query


def cursor_of(game: Game) -> str:
    """Where a history page starts or ends: the game's time and id (``2025-03-01T20:00:00
    +00:00_12``), so the next page follows on whatever finished meanwhile."""
    return f"{as_utc(game.finished_at or game.started_at).isoformat()}_{game.id}"


def parse_cursor(text: str) -> tuple[datetime, int] | None:
    when, _, game_id = text.rpartition("_")
    try:
        return as_utc(datetime.fromisoformat(when)), int(game_id)
    except ValueError:
        return None


@dataclass
class HistoryPage:
    games: list[Game]
    newer: bool  # games later than the first one shown
    older: bool  # games earlier than the last one shown


def history_page(query: Any, before: tuple[datetime, int] | None = None,
                 after: tuple[datetime, int] | None = None, offset: int = 0,
                 size: int | None = None, total: int | None = None) -> HistoryPage:
    """One page of ``query`` (:func:`history_query`) by keyset: the games just before
    ``before`` (older), or just after ``after`` (newer), read from an index whatever
    the league's size; ``offset`` only for page numbers typed in a link (past the
    middle of the ``total`` games, counted from the oldest end: the last page reads
    its own games only)."""
    size = HISTORY_PAGE if size is None else size
    when = history_when()
    if before is None and after is None and total is not None and offset > total // 2:
        shown = max(0, min(size, total - offset))
        rows = list(db.session.scalars(
            query.order_by(None).order_by(when.asc(), Game.id.asc())
            .offset(max(0, total - offset - shown)).limit(shown))) if shown else []
        return HistoryPage(list(reversed(rows)), True, offset + size < total)
    if after is not None:
        at, game_id = after
        rows = list(db.session.scalars(
            query.where(when >= at, or_(when > at, and_(when == at, Game.id > game_id)))
            .order_by(None).order_by(when.asc(), Game.id.asc()).limit(size + 1)))
        newer = len(rows) > size
        return HistoryPage(list(reversed(rows[:size])), newer, True)
    if before is not None:
        at, game_id = before
        # (``when <= at`` alone bounds the index scan: PostgreSQL does not read the OR so)
        query = query.where(when <= at, or_(when < at, and_(when == at, Game.id < game_id)))
    rows = list(db.session.scalars(query.offset(offset).limit(size + 1)))
    return HistoryPage(rows[:size], before is not None or offset > 0, len(rows) > size)


def league_totals(league: League) -> dict[str, int]:
    """How many games and players the league has (for the page headings)."""
    games = db.session.scalar(select(func.count()).select_from(Game).where(
        Game.league_id == league.id, Game.status == FINISHED)) or 0
    players = db.session.scalar(select(func.count()).select_from(Player).where(
        Player.league_id == league.id)) or 0
    return {"games": games, "players": players}
