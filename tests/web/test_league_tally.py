"""The standings' maintained tallies (one row per player per season and all time) equal
a count from every result row, whatever a family does: games played, re-dated,
deleted, hands deleted, players renamed or merged, seasons added, moved and deleted,
the league exported and imported again."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorebook.extensions import db
from scorebook.models import Game, Player, PlayerTally, Season
from scorebook.services import exports, hands, league
from scorebook.services.seasons import as_utc, season_of_day, seasons_of
from tests.web import test_league as base
from tests.web.test_league import the_league
from tests.web.test_league_fresh import finished_games, random_game

ctx = base.ctx  # the fixtures: an owned league, and its five games
made = base.made


def figures(rows: list[league.Standing]) -> list[tuple[Any, ...]]:
    return sorted((r.player_id, r.name, r.games, r.wins, r.positions, r.hands, r.points,
                   r.best_hand, r.best_total, r.melded, r.stranded, r.signed_streak,
                   r.rating) for r in rows)


def assert_tallies_counted(where: str) -> None:
    the = the_league()
    for season in [None, *seasons_of(the)]:
        kept = figures(league.standings(the, season))
        counted = figures(league.counted_standings(the, season))
        assert kept == counted, (where, season)
        for row in counted:  # a player's page reads the same row alone
            assert figures(league.standings(the, season, player_id=row[0])) == [row]
    seasons = {s.id for s in seasons_of(the)} | {0}
    assert set(db.session.scalars(select(PlayerTally.season_id))) <= seasons, where


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_writes_keep_the_tallies_of_a_fresh_count(made: dict[str, Game], app: Flask,
                                                         seed: int) -> None:
    rng = random.Random(seed)
    start = date(2024, 1, 1)
    assert_tallies_counted("start")
    for step in range(16):
        done = finished_games()
        move = rng.choice(["play", "play", "move", "delete game", "delete hand", "rename",
                           "season", "drop season", "merge"])
        if move == "play" or len(done) < 3:
            random_game(rng, start + timedelta(days=rng.randint(0, 900)))
        elif move == "move":
            game = rng.choice(done)
            game.finished_at = datetime(2024, 1, 1, 20, tzinfo=UTC) + timedelta(
                days=rng.randint(0, 900))
            db.session.commit()
        elif move == "delete game":
            db.session.delete(rng.choice(done))
            db.session.commit()
        elif move == "delete hand":
            game = rng.choice(done)
            hand = rng.choice(game.hands)
            hands.delete_hand(hand, hand.version)
        elif move == "rename":
            who = rng.choice(list(db.session.scalars(select(Player))))
            league.rename_player(who, f"{who.name}-{step}")
        elif move == "season":  # a season shrunk: the days it lets go get their year's
            seasons = seasons_of(the_league())
            if seasons:
                season = rng.choice(seasons)
                length = (season.ends_on - season.starts_on).days
                first = season.starts_on + timedelta(days=rng.randint(0, length))
                last = first + timedelta(days=rng.randint(0, (season.ends_on - first).days))
                league.save_season(the_league(), f"Cut {step}", first, last, season)
        elif move == "drop season":
            seasons = seasons_of(the_league())
            if seasons:
                league.delete_season(rng.choice(seasons))
        else:  # two players who never sat together become one
            players = list(db.session.scalars(select(Player)))
            for keep in players:
                for gone in players:
                    try:
                        if keep.id != gone.id:
                            league.merge_players(keep, gone)
                            break
                    except league.LeagueError:
                        db.session.rollback()
                else:
                    continue
                break
        assert_tallies_counted(f"seed {seed} step {step} ({move})")


def test_an_import_counts_the_tallies(made: dict[str, Game], app: Flask) -> None:
    rng = random.Random(11)
    for _ in range(5):
        random_game(rng, date(2024, 1, 1) + timedelta(days=rng.randint(0, 900)))
    data = exports.export_league(the_league())
    before = {(s.name if s else '', *f[1:]) for s in [None, *seasons_of(the_league())]
              for f in figures(league.standings(the_league(), s))}
    db.session.remove()
    db.drop_all()
    db.create_all()
    exports.import_league(data)
    assert_tallies_counted("imported")
    after = {(s.name if s else '', *f[1:]) for s in [None, *seasons_of(the_league())]
             for f in figures(league.standings(the_league(), s))}
    assert before == after


def test_a_season_edit_recounts_its_games(made: dict[str, Game], app: Flask) -> None:
    the = the_league()
    games = sorted(finished_games(), key=lambda g: g.finished_at)
    day = as_utc(games[-1].finished_at).date()
    season = season_of_day(seasons_of(the), day)
    assert season is not None
    league.save_season(the, "Only the last day", day, day, season)
    assert sum(r.games for r in league.standings(the, season)) == sum(
        len(g.seats) for g in games if as_utc(g.finished_at).date() == day)
    assert_tallies_counted("shrunk")
    assert db.session.get(Season, season.id) is not None
