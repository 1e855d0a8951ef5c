# ruff: noqa: F811  (the fixtures come from test_stats)
"""The sums the player page reads (``player_stat_sum``, ``player_score_sum``) stay
exactly what counting the league afresh gives, through every write a family makes:
an early game's hand edited, deleted and put back, a game finished, hands entered as
points only, a game moved to another day or deleted, a player renamed or merged, and
seasons added, moved and deleted.  "Afresh" here is counted independently of the
sums: the cache rows summed per season by the database, and the hand scores counted
from the stored hands (what the page did before the sums)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import case, func, select

from scorebook.extensions import db
from scorebook.models import (
    ALL_TIME,
    FINISHED,
    STAT_SUMMED,
    Game,
    GameStat,
    Hand,
    HandScore,
    Player,
    PlayerGameStat,
    Season,
    player_score_sum,
    player_stat_sum,
)
from scorebook.services import games, hands, league, memo
from scorebook.services.entry import entry_from_text
from scorebook.services.seasons import season_bounds
from scorebook.services.stats import cache
from scorebook.services.stats.players import everyone
from scorebook.services.stats.scope import Scope
from scorebook.services.sums import COUNTS
from tests.web.test_stats import ctx, made, play, stats, who  # noqa: F401

P = PlayerGameStat


def scopes(league_id: int) -> list[tuple[int, tuple[datetime, datetime] | None]]:
    out: list[tuple[int, tuple[datetime, datetime] | None]] = [(ALL_TIME, None)]
    for s in db.session.scalars(select(Season).where(Season.league_id == league_id)):
        out.append((s.id, season_bounds(s)))
    return out


def afresh(league_id: int) -> tuple[dict[Any, Any], dict[Any, int]]:
    stat_rows: dict[Any, Any] = {}
    score_rows: dict[Any, int] = {}
    for season_id, bounds in scopes(league_id):
        on_stats = [P.league_id == league_id]
        on_games = [Game.league_id == league_id, Game.status == FINISHED,
                    Game.finished_at.is_not(None)]
        if bounds is not None:
            on_stats += [P.finished_at >= bounds[0], P.finished_at < bounds[1]]
            on_games += [Game.finished_at >= bounds[0], Game.finished_at < bounds[1]]
        for r in db.session.execute(
                select(P.player_id, func.count(),
                       func.sum(case((GameStat.with_jokers, 1), else_=0)),
                       func.sum(case((Game.family == "basic", 1), else_=0)),
                       *[func.sum(getattr(P, n)) for n in STAT_SUMMED])
                .join(GameStat, GameStat.game_id == P.game_id).join(Game, Game.id == P.game_id)
                .where(*on_stats).group_by(P.player_id)):
            stat_rows[(r[0], season_id)] = tuple(int(v or 0) for v in r[1:])
        for player_id, score, n in db.session.execute(
                select(HandScore.player_id, HandScore.score, func.count())
                .join(Hand, Hand.id == HandScore.hand_id).join(Game, Game.id == Hand.game_id)
                .where(Hand.complete.is_(True), *on_games)
                .group_by(HandScore.player_id, HandScore.score)):
            score_rows[(player_id, season_id, score)] = n
    return stat_rows, score_rows


def kept(league_id: int) -> tuple[dict[Any, Any], dict[Any, int]]:
    t, s = player_stat_sum.c, player_score_sum.c
    stat_rows = {(r.player_id, r.season_id): tuple(getattr(r, n) for n in COUNTS)
                 for r in db.session.execute(select(player_stat_sum)
                                             .where(t.league_id == league_id))}
    score_rows = {(r.player_id, r.season_id, r.score): r.hands for r in db.session.execute(
        select(player_score_sum).where(s.league_id == league_id))}
    return stat_rows, score_rows


def check() -> None:
    """Bring the cache up to date (what a page does) and compare."""
    the = games.default_league()
    league.prepare(the)
    assert cache.refresh(the.id).ready
    db.session.commit()
    got, want = kept(the.id), afresh(the.id)
    assert got[0] == want[0]
    assert got[1] == want[1]
    assert got[0]  # (not trivially equal)
    seasons = [None, *db.session.scalars(select(Season).where(Season.league_id == the.id))]
    pairs = 0
    for player in db.session.scalars(select(Player).where(Player.league_id == the.id)):
        for s in seasons:
            mine = league.head_to_head(player, s, kept=True)
            assert mine == league.head_to_head(player, s), (player.name, s)
            pairs += len(mine)
            width, bands = league.score_distribution(player, s, kept=True)
            assert (width, bands) == league.score_distribution(player, s)
    assert pairs


def entry(texts: dict[str, dict[str, str]], out: str) -> Any:
    return entry_from_text(["Ann", "Ben", "Cy"], texts, out, None, False, False)


FIFTH = {"Ann": {"melds": "8h 9h 10h"}, "Ben": {"melds": "2s 3s 4s", "hand": "kd"},
         "Cy": {"hand": "qd"}}


def test_the_sums_match_after_the_first_count(made: dict[str, Game]) -> None:
    check()
    ann = stats("Ann")
    assert (ann.sums.games, ann.joker_games, ann.basic_games) == (3, 2, 1)


def test_an_early_hand_edited_deleted_and_put_back(made: dict[str, Game]) -> None:
    g1 = made["g1"]
    fifth = g1.hands[4]
    hands.edit_hand(fifth, entry({**FIFTH, "Ann": {"melds": "8h 9h 10h jh"}}, "Ann"),
                    fifth.version)
    check()
    assert stats("Ann").sums.melded_points == 209 + 10
    second = g1.hands[1]
    hands.delete_hand(second, second.version)
    check()
    hands.edit_hand(fifth, entry(FIFTH, "Ann"), fifth.version)  # the edit taken back
    check()


def test_a_game_unfinished_finished_and_a_new_one(made: dict[str, Game]) -> None:
    only = made["g3"].hands[0]
    hands.delete_hand(only, only.version)  # no longer finished: out of the sums
    check()
    assert stats("Cy").sums.going_rummy == 0
    play(["Ann", "Cy"], "basic", 30, [
        ({"Cy": {"melds": "7c 8c 9c\nkh ks kd"}, "Ann": {"melds": "ad 2d 3d", "hand": "qh 5d"}},
         "Cy", True)], date(2026, 3, 1))
    check()
    assert stats("Cy").sums.going_rummy == 1


def test_points_only_hands(made: dict[str, Game]) -> None:
    for key in ("g1", "g2"):
        hand = db.session.scalar(select(Hand).where(Hand.game_id == made[key].id,
                                                    Hand.number == 1))
        assert hand is not None
        hand.points_only = True
        made[key].revision = (made[key].revision or 0) + 1
    db.session.commit()
    check()
    s = stats("Ann").sums
    assert s.hands - s.card_hands == 2


def test_a_game_moved_to_another_season_and_one_deleted(made: dict[str, Game]) -> None:
    made["g3"].finished_at = datetime(2025, 12, 1, 20, 0, tzinfo=UTC)
    db.session.commit()
    check()
    db.session.delete(made["g2"])
    db.session.commit()
    check()
    assert stats("Ben").sums.games == 1


def test_players_renamed_and_merged(made: dict[str, Game]) -> None:
    league.rename_player(who("Cy"), "Cyrus")
    check()
    play(["Benny", "Cyrus"], "pagat-500", 50, [
        ({"Benny": {"melds": "jk=9s 10s js qs ks"}, "Cyrus": {"hand": "2c"}}, "Benny", False),
    ], date(2025, 7, 1))
    check()
    league.merge_players(who("Ben"), who("Benny"))
    check()
    assert stats("Ben").sums.games == 3


def test_seasons_added_moved_and_deleted(made: dict[str, Game]) -> None:
    the = games.default_league()
    year = db.session.scalar(select(Season).where(Season.name == "2025"))
    assert year is not None
    # G1 (March) left out of it: a season of its own is made for the rest of the year
    league.save_season(the, "2025", date(2025, 4, 1), date(2025, 12, 31), year)
    check()
    early = db.session.scalar(select(Season).where(Season.league_id == the.id,
                                                   Season.ends_on == date(2025, 3, 31)))
    assert early is not None
    league.save_season(the, "Early 2025", date(2025, 1, 1), date(2025, 2, 28), early)
    check()  # G1 now in a third season again
    spring = db.session.scalar(select(Season).where(Season.league_id == the.id,
                                                    Season.starts_on == date(2025, 3, 1)))
    assert spring is not None
    league.delete_season(spring)
    check()
    league.delete_season(year)
    check()


def test_everyone_is_the_sum_of_the_players(made: dict[str, Game]) -> None:
    memo.forget()
    scope = Scope(games.default_league().id)
    total = everyone(scope)
    parts = [stats(n).sums for n in ("Ann", "Ben", "Cy")]
    assert total.games == sum(p.games for p in parts)
    assert total.melded_points == sum(p.melded_points for p in parts)


def test_a_long_rating_history_is_folded_with_its_extremes(made: dict[str, Game]) -> None:
    """The chart of a long history: each stretch's lowest and highest rating, the first
    and the last (asked here for 2 stretches over Ann's 3 games)."""
    ann = who("Ann")
    every = league.rating_line(ann)
    assert every.games == 3 and len(every.points) == 3
    assert (every.now, every.high, every.low) == (
        every.points[-1], max(every.points), min(every.points))
    folded = league.rating_line(ann, stretches=2)
    assert folded.games == 3
    assert folded.points[0] == every.points[0] and folded.points[-1] == every.now
    assert set(folded.points) == set(every.points)  # (3 games: every rating is an extreme)
    assert len(folded.points) == 2 + 2 * 2


def test_a_game_in_a_new_year_gets_its_season_summed(made: dict[str, Game]) -> None:
    """The year's first game makes its season as it commits: only that season is summed
    (nothing moves out of another), and the sums stay exact."""
    play(["Ann", "Ben"], "pagat-500", 40, [
        ({"Ann": {"melds": "9s 10s js qs ks"}, "Ben": {"hand": "2c"}}, "Ann", False),
    ], date(2027, 1, 5))
    check()
    assert db.session.scalar(select(Season).where(Season.name == "2027")) is not None
    assert stats("Ann", "2027").sums.games == 1
