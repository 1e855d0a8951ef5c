"""The league: every statistic on a small hand-made league whose figures are worked
out below, ratings that do not depend on the order things were edited in, seasons,
the roster, history, exports and backups.

The league (rummy-500, target 50; aces 15, faces and tens 10, others face value):

====  ==========  ===========================================  =====================
game  finished    hands (score per player)                     final (place)
====  ==========  ===========================================  =====================
G1    2025-03-01  Ann 45 −3 30 · Ben −10 30 0 · Cy −2 7 0      Ann 72 (1, won) ·
                                                               Ben 20 (2) · Cy 5 (3)
G2    2025-06-01  Ben 75 · Ann −2 · Cy −2 · Dee 6              Ben 75 (1, won) ·
                                                               Dee 6 (2) · Ann −2 (3)
                                                               · Cy −2 (3: a tie
                                                               shares the better place)
G3    2026-02-01  must go out: Ann 9 60 · Dee 73 −2            Ann 69 (1, won: went
                                                               out) · Dee 71 (2)
G4    2026-03-01  Cy 54 · Ben −20                              Cy 54 (1, won) ·
                                                               Ben −20 (2)
G5    (playing)   Ann 45 · Ben −10                             not counted
====  ==========  ===========================================  =====================
"""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from openskill.models import PlackettLuce
from sqlalchemy import select

from referee import parse_card, parse_cards
from scorebook.extensions import db
from scorebook.models import FINISHED, Game, GameResult, Hand, League, Player, Season, Seat
from scorebook.presenters.bidi import plain
from scorebook.presenters.sentences import say, say_all
from scorebook.services import games, hands, league, played, ratings
from scorebook.services.entry import entry_from_text
from scorebook.services.exports import (
    LeagueImportError,
    export_league,
    game_csv,
    import_league,
    league_csv,
)
from scorebook.services.seasons import as_utc
from tests.reading import page as read
from tests.web.test_api_log import moves as log_moves

T = dict[str, dict[str, str]]


@pytest.fixture
def ctx(app: Flask, client, join) -> Iterator[None]:
    with app.test_request_context():
        join(client, games.default_league().id)  # the test client's browser owns it
        yield


def play(names: list[str], played: list[tuple[T, str | None]], finished: date | None = None,
         **options: object) -> Game:
    rules = games.build_rules("rummy-500", {"target": 50, **options})
    game = games.create_game(games.default_league(), names, 0, rules)
    for texts, went_out in played:
        hands.record_hand(game, entry_from_text(names, texts, went_out, None, False, False))
    if finished is not None:
        assert game.status == FINISHED, game
        game.finished_at = datetime(finished.year, finished.month, finished.day, 20, 0,
                                    tzinfo=UTC)
        db.session.commit()
    return game


def build_league() -> dict[str, Game]:
    g1 = play(["Ann", "Ben", "Cy"], [
        ({"Ann": {"melds": "as ah ad"}, "Ben": {"hand": "kh"}, "Cy": {"hand": "2c"}}, "Ann"),
        ({"Ben": {"melds": "ks kd kc"}, "Ann": {"hand": "3h"},
          "Cy": {"melds": "4s 4h 4d", "hand": "5c"}}, "Ben"),
        # (Ben and Cy meld as much as they are left holding: 0 each; out.empty-hand)
        ({"Ann": {"melds": "qs qh qd"}, "Ben": {"melds": "2s 3s 4s", "hand": "9h"},
          "Cy": {"melds": "5h 6h 7h", "hand": "8c 10c"}}, "Ann"),
    ], date(2025, 3, 1))
    g2 = play(["Ann", "Ben", "Cy", "Dee"], [
        ({"Ben": {"melds": "as ah ad\nks kh kd"}, "Ann": {"hand": "2c"}, "Cy": {"hand": "2d"},
          "Dee": {"melds": "5s 5h 5d", "hand": "9c"}}, "Ben"),
    ], date(2025, 6, 1))
    g3 = play(["Ann", "Dee"], [
        ({"Dee": {"melds": "as ah ad\nks kh kd", "hand": "2c"}, "Ann": {"melds": "3s 3h 3d"}},
         "Ann"),
        ({"Ann": {"melds": "qs qh qd\njs jh jd"}, "Dee": {"hand": "2s"}}, "Ann"),
    ], date(2026, 2, 1), must_go_out=True)
    g4 = play(["Ben", "Cy"], [
        ({"Cy": {"melds": "as ah ad\n2s 3s 4s"}, "Ben": {"hand": "kh qh"}}, "Cy"),
    ], date(2026, 3, 1))
    g5 = play(["Ann", "Ben"], [
        ({"Ann": {"melds": "as ah ad"}, "Ben": {"hand": "kh"}}, "Ann"),
    ])
    return {"g1": g1, "g2": g2, "g3": g3, "g4": g4, "g5": g5}


@pytest.fixture
def made(ctx: None) -> dict[str, Game]:
    return build_league()


def the_league() -> League:
    return games.default_league()


def player(name: str) -> Player:
    found = db.session.scalar(select(Player).where(Player.name == name))
    assert found is not None
    return found


def table(season: Season | None = None, **kw: object) -> dict[str, league.Standing]:
    the = the_league()
    league.prepare(the)
    return {r.name: r for r in league.standings(the, season, **kw)}


def season_named(name: str) -> Season:
    found = db.session.scalar(select(Season).where(Season.name == name))
    assert found is not None
    return found


# --- the games are what the docstring says ----------------------------------------------


def test_the_hand_made_league_is_as_described(made: dict[str, Game]) -> None:
    assert games.totals(made["g1"]) == [72, 20, 5]
    assert games.totals(made["g2"]) == [-2, 75, -2, 6]
    assert games.totals(made["g3"]) == [69, 71]
    assert made["g3"].winner.name == "Ann"  # went out; Dee's 71 does not win (must_go_out)
    assert games.totals(made["g4"]) == [-20, 54]
    assert made["g5"].status != FINISHED


# --- standings ------------------------------------------------------------------------------


def test_finishing_positions() -> None:
    assert ratings.finishing_positions([72, 20, 5], 0) == [1, 2, 3]
    assert ratings.finishing_positions([-2, 75, -2, 6], 1) == [3, 1, 3, 2]
    assert ratings.finishing_positions([69, 71], 0) == [1, 2]  # the stored winner is first
    assert ratings.finishing_positions([10, 10, 5], None) == [1, 1, 3]


def test_all_time_standings(made: dict[str, Game]) -> None:
    rows = table()
    assert set(rows) == {"Ann", "Ben", "Cy", "Dee"}  # G5 is not finished: not counted
    ann, ben, cy, dee = rows["Ann"], rows["Ben"], rows["Cy"], rows["Dee"]
    # games played, wins, win rate
    assert (ann.games, ann.wins) == (3, 2) and ann.win_rate == pytest.approx(2 / 3)
    assert (ben.games, ben.wins) == (3, 1)
    assert (cy.games, cy.wins) == (3, 1)
    assert (dee.games, dee.wins, dee.win_rate) == (2, 0, 0.0)
    # average finishing position: Ann 1, 3, 1; Ben 2, 1, 2; Cy 3, 3, 1; Dee 2, 2
    assert ann.avg_position == pytest.approx(5 / 3)
    assert ben.avg_position == pytest.approx(5 / 3)
    assert cy.avg_position == pytest.approx(7 / 3)
    assert dee.avg_position == 2
    # average hand score: Ann 45 −3 30 −2 9 60 over 6 hands; Dee 6 73 −2 over 3
    assert (ann.hands, ann.points) == (6, 139) and ann.avg_hand == pytest.approx(139 / 6)
    assert (ben.hands, ben.points) == (5, 75) and ben.avg_hand == 15
    assert (cy.hands, cy.points) == (5, 57) and cy.avg_hand == pytest.approx(11.4)
    assert (dee.hands, dee.points) == (3, 77)
    # best hand, highest final total
    assert (ann.best_hand, ann.best_total) == (60, 72)
    assert (ben.best_hand, ben.best_total) == (75, 75)
    assert (cy.best_hand, cy.best_total) == (54, 54)
    assert (dee.best_hand, dee.best_total) == (73, 71)
    # melded vs stranded points
    assert (ann.melded, ann.stranded) == (45 + 30 + 9 + 60, 3 + 2)
    assert (ben.melded, ben.stranded) == (30 + 9 + 75, 10 + 9 + 20)
    assert (cy.melded, cy.stranded) == (12 + 18 + 54, 5 + 18 + 2 + 2)
    assert (dee.melded, dee.stranded) == (15 + 75, 9 + 2 + 2)
    # current streak (latest game first): Ann won G3; Ben lost G4; Cy won G4; Dee lost 2
    assert (ann.streak_won, ann.streak, ann.signed_streak) == (True, 1, 1)
    assert (ben.streak_won, ben.streak) == (False, 1)
    assert (cy.streak_won, cy.streak) == (True, 1)
    assert (dee.streak_won, dee.streak, dee.signed_streak) == (False, 2, -2)


def test_seasons_default_to_one_per_year(made: dict[str, Game]) -> None:
    seasons = league.prepare(the_league())
    assert [(s.name, s.starts_on, s.ends_on) for s in seasons] == [
        ("2026", date(2026, 1, 1), date(2026, 12, 31)),
        ("2025", date(2025, 1, 1), date(2025, 12, 31)),
    ]


def test_season_standings(made: dict[str, Game]) -> None:
    league.prepare(the_league())
    rows = table(season_named("2026"))
    assert set(rows) == {"Ann", "Ben", "Cy", "Dee"}
    ann, dee = rows["Ann"], rows["Dee"]
    assert (ann.games, ann.wins, ann.avg_position, ann.hands, ann.points) == (1, 1, 1, 2, 69)
    assert (ann.best_hand, ann.best_total, ann.melded, ann.stranded) == (60, 69, 69, 0)
    assert (dee.games, dee.wins, dee.avg_position, dee.best_hand, dee.stranded) == (
        1, 0, 2, 73, 4)
    assert (dee.streak_won, dee.streak) == (False, 1)  # within the season
    old = table(season_named("2025"))
    assert set(old) == {"Ann", "Ben", "Cy", "Dee"}
    assert (old["Ann"].games, old["Ann"].wins, old["Ann"].avg_position) == (2, 1, 2)
    assert (old["Ann"].streak_won, old["Ann"].streak) == (False, 1)
    assert (old["Ben"].streak_won, old["Ben"].streak) == (True, 1)


def test_standings_sort_by_any_column(made: dict[str, Game]) -> None:
    def order(sort: str, descending: bool | None = None) -> list[str]:
        return list(table(sort=sort, descending=descending))

    # ties: the better win rate, then average place; still equal, by name
    assert order("wins") == ["Ann", "Ben", "Cy", "Dee"]
    assert order("avg_position") == ["Ann", "Ben", "Dee", "Cy"]  # lowest first (Ann: wins)
    assert order("avg_position", True) == ["Cy", "Dee", "Ben", "Ann"]  # the other way round
    assert order("best_hand") == ["Ben", "Dee", "Ann", "Cy"]
    assert order("stranded") == ["Ann", "Dee", "Cy", "Ben"]
    assert order("streak") == ["Ann", "Cy", "Ben", "Dee"]
    assert order("name", True) == ["Dee", "Cy", "Ben", "Ann"]
    assert order("nonsense") == order("wins")


# --- ratings ----------------------------------------------------------------------------------


def result_rows() -> list[tuple[str, int, int, float, float]]:
    rows = db.session.execute(
        select(Player.name, GameResult.game_id, GameResult.position, GameResult.mu,
               GameResult.sigma).join(Player).order_by(GameResult.seq, Player.name))
    return [tuple(r) for r in rows]  # type: ignore[misc]


def test_ratings_follow_the_finishing_order_with_plackett_luce(made: dict[str, Game]) -> None:
    league.prepare(the_league())
    model = PlackettLuce()
    a, b, c = (model.rating() for _ in range(3))
    after_g1 = model.rate([[a], [b], [c]], ranks=[1, 2, 3])
    rows = {(name, game): (mu, sigma) for name, game, _p, mu, sigma in result_rows()}
    g1 = made["g1"].id
    assert rows[("Ann", g1)] == pytest.approx((after_g1[0][0].mu, after_g1[0][0].sigma))
    assert rows[("Cy", g1)] == pytest.approx((after_g1[2][0].mu, after_g1[2][0].sigma))
    # G2: Ann and Cy tie for third and start from their G1 ratings
    ann, ben, cy = after_g1[0][0], after_g1[1][0], after_g1[2][0]
    after_g2 = model.rate([[ann], [ben], [cy], [model.rating()]], ranks=[3, 1, 3, 2])
    assert rows[("Dee", made["g2"].id)] == pytest.approx(
        (after_g2[3][0].mu, after_g2[3][0].sigma))
    stats = table()
    assert stats["Ann"].rating == ratings.display_rating(rows[("Ann", made["g3"].id)][0])
    history = league.rating_history(player("Ann"))
    assert [p.game_id for p in history] == [made["g1"].id, made["g2"].id, made["g3"].id]
    assert history[0].rating == round(40 * after_g1[0][0].mu)


def test_a_finished_game_only_adds_its_own_rows(made: dict[str, Game]) -> None:
    league.prepare(the_league())
    before = {r.id: (r.mu, r.sigma) for r in db.session.scalars(select(GameResult))}
    hands.record_hand(made["g5"], entry_from_text(
        ["Ann", "Ben"], {"Ann": {"melds": "ks kh kd"}, "Ben": {"hand": "2c"}}, "Ann", None,
        False, False))
    assert made["g5"].status == FINISHED  # its rows came with the hand that finished it
    after = {r.id: (r.mu, r.sigma) for r in db.session.scalars(select(GameResult))}
    assert {k: after[k] for k in before} == before
    assert len(after) == len(before) + 2
    assert not ratings.refresh(the_league().id)  # nothing more to do


def from_scratch() -> list[tuple[str, int, int, float, float]]:
    ratings.rebuild(the_league().id)
    db.session.commit()
    return result_rows()


def test_editing_a_past_game_gives_the_ratings_of_a_fresh_recomputation(
        made: dict[str, Game]) -> None:
    before = result_rows()
    g1 = made["g1"]
    first = g1.hands[0]
    # Hand 1 again, but Cy melds the aces and Ann holds the king: totals Ann 17,
    # Ben 28, Cy 52, so Cy now wins G1 and every later rating changes
    hands.edit_hand(first, entry_from_text(
        ["Ann", "Ben", "Cy"], {"Cy": {"melds": "as ah ad"}, "Ann": {"hand": "kh"},
                               "Ben": {"hand": "2c"}}, "Cy", None, False, False),
        first.version)
    assert games.totals(g1) == [17, 28, 52] and g1.winner.name == "Cy"
    incremental = result_rows()  # kept up to date by the edit itself
    assert incremental != before
    assert not ratings.refresh(the_league().id)
    assert incremental == from_scratch()
    assert (table()["Cy"].wins, table()["Ann"].wins) == (2, 1)


def test_deleting_a_hand_that_unfinishes_a_past_game(made: dict[str, Game]) -> None:
    league.prepare(the_league())
    g2 = made["g2"]
    hands.delete_hand(g2.hands[0], g2.hands[0].version)
    assert g2.status != FINISHED
    assert not ratings.refresh(the_league().id)  # already up to date
    rows = result_rows()
    assert g2.id not in {r[1] for r in rows}
    assert rows == from_scratch()
    assert table()["Dee"].games == 1


def test_deleting_a_past_game_and_moving_one(made: dict[str, Game]) -> None:
    league.prepare(the_league())
    db.session.delete(made["g1"])
    made["g4"].finished_at = datetime(2024, 12, 31, 12, 0, tzinfo=UTC)  # now the first game
    db.session.commit()
    assert not ratings.refresh(the_league().id)  # already up to date
    rows = result_rows()
    assert rows[0][1] == made["g4"].id
    assert rows == from_scratch()


# --- a player's page --------------------------------------------------------------------------


def test_head_to_head(made: dict[str, Game]) -> None:
    league.prepare(the_league())
    h2h = {h.name: h for h in league.head_to_head(player("Ann"))}
    assert set(h2h) == {"Ben", "Cy", "Dee"}
    # with Ben: G1 Ann ahead and won, G2 Ben ahead and won
    assert (h2h["Ben"].games, h2h["Ben"].ahead, h2h["Ben"].behind, h2h["Ben"].level) == (
        2, 1, 1, 0)
    assert (h2h["Ben"].wins, h2h["Ben"].their_wins) == (1, 1)
    # with Cy: G1 ahead, G2 level (both third)
    assert (h2h["Cy"].ahead, h2h["Cy"].behind, h2h["Cy"].level) == (1, 0, 1)
    assert (h2h["Cy"].wins, h2h["Cy"].their_wins) == (1, 0)
    # with Dee: G2 behind, G3 ahead (and won, though Dee had more points)
    assert (h2h["Dee"].ahead, h2h["Dee"].behind, h2h["Dee"].wins) == (1, 1, 1)
    only_2026 = league.head_to_head(player("Ann"), season_named("2026"))
    assert [(h.name, h.games) for h in only_2026] == [("Dee", 1)]


def test_score_distribution(made: dict[str, Game]) -> None:
    # Ann's hands: 45 −3 30 −2 9 60: a span of 63 → bands of 10
    width, bands = league.score_distribution(player("Ann"))
    assert width == 10
    assert bands == [(-10, 2), (0, 1), (30, 1), (40, 1), (60, 1)]
    assert league.score_distribution(player("Ann"), width=50)[1] == [(-50, 2), (0, 3),
                                                                     (50, 1)]


def test_recent_games(made: dict[str, Game]) -> None:
    league.prepare(the_league())
    recent = league.recent_games(player("Ann"))
    assert [(g.game_id, g.position, g.won, g.total) for g in recent] == [
        (made["g3"].id, 1, True, 69), (made["g2"].id, 3, False, -2),
        (made["g1"].id, 1, True, 72)]
    assert recent[0].table == [("Ann", 69), ("Dee", 71)]


# --- seasons ----------------------------------------------------------------------------------


def test_a_named_season_takes_its_games_and_the_year_keeps_the_rest(ctx: None) -> None:
    the = the_league()
    spring = league.save_season(the, "Spring 2025", date(2025, 3, 1), date(2025, 5, 31))
    build_league()
    seasons = {s.name: s for s in league.prepare(the)}
    assert set(seasons) == {"Spring 2025", "2025", "2026"}
    # G2 (June 2025) is outside Spring: its year's season covers what Spring leaves free
    assert (seasons["2025"].starts_on, seasons["2025"].ends_on) == (date(2025, 6, 1),
                                                                    date(2025, 12, 31))
    assert table(spring)["Ann"].games == 1  # G1 only
    assert table(seasons["2025"])["Ann"].games == 1  # G2 only


def test_seasons_may_not_overlap_and_need_sane_dates(ctx: None) -> None:
    the = the_league()
    league.save_season(the, "Winter", date(2025, 12, 1), date(2026, 2, 28))
    with pytest.raises(league.LeagueError) as overlap:
        league.save_season(the, "New year", date(2026, 1, 1), date(2026, 1, 31))
    assert overlap.value.code == "league.season-overlap"
    assert re.search(r"overlap the season .Winter. \(Dec 1, 2025 to Feb 28, 2026\)",
                     say(overlap.value.sentence))
    with pytest.raises(league.LeagueError) as backwards:
        league.save_season(the, "Backwards", date(2026, 5, 1), date(2026, 4, 1))
    assert "end on or after" in say(backwards.value.sentence)
    with pytest.raises(league.LeagueError) as taken:
        league.save_season(the, "winter", date(2027, 1, 1), date(2027, 1, 2))
    assert "already a season" in say(taken.value.sentence)


# --- the roster -------------------------------------------------------------------------------


def test_add_rename_and_retire(ctx: None) -> None:
    the = the_league()
    eve = league.add_player(the, "  Eve  ")
    assert eve.name == "Eve"
    with pytest.raises(league.LeagueError) as taken:
        league.add_player(the, "eve")
    assert taken.value.code == "league.player-name-taken"
    assert "already in the league" in say(taken.value.sentence)
    with pytest.raises(league.LeagueError):
        league.add_player(the, "   ")
    league.rename_player(eve, "Evelyn")
    assert player("Evelyn").id == eve.id
    league.set_retired(eve, True)
    assert eve.retired_at is not None
    assert [p.name for p in league.players_of(the, include_retired=False)] == []
    league.set_retired(eve, False)
    assert eve.retired_at is None


def test_merging_two_names_of_one_person_moves_every_game(made: dict[str, Game]) -> None:
    benny = play(["Benny", "Dee"], [
        ({"Benny": {"melds": "as ah ad\nks kh kd"}, "Dee": {"hand": "2c"}}, "Benny"),
    ], date(2026, 4, 1))
    assert table()["Ben"].games == 3
    with pytest.raises(league.LeagueError) as shared:
        league.merge_players(player("Ben"), player("Cy"))
    assert "same table in 3 games" in say(shared.value.sentence)
    league.merge_players(player("Ben"), player("Benny"))
    assert db.session.scalar(select(Player).where(Player.name == "Benny")) is None
    rows = table()
    assert (rows["Ben"].games, rows["Ben"].wins) == (4, 2)
    assert (rows["Ben"].streak_won, rows["Ben"].streak) == (True, 1)
    db.session.refresh(benny)
    assert benny.winner.name == "Ben" and [p.name for p in benny.players] == ["Ben", "Dee"]
    assert all(h.went_out_id == player("Ben").id for h in benny.hands)
    assert result_rows() == from_scratch()


# --- history -----------------------------------------------------------------------------------


def test_history_filters_by_season_and_player(made: dict[str, Game]) -> None:
    the = the_league()
    league.prepare(the)
    ids = [g.id for g in db.session.scalars(league.history_query(the))]
    assert ids == [made[k].id for k in ("g5", "g4", "g3", "g2", "g1")]
    in_2025 = db.session.scalars(league.history_query(the, season_named("2025")))
    assert [g.id for g in in_2025] == [made["g2"].id, made["g1"].id]
    with_dee = db.session.scalars(league.history_query(the, player=player("Dee")))
    assert [g.id for g in with_dee] == [made["g3"].id, made["g2"].id]


# --- pages ---------------------------------------------------------------------------------------


def test_standings_page(client, made: dict[str, Game]) -> None:
    page = read(client.get("/league/?season=all"))
    assert "Standings, all time" in page
    assert page.index(">Ann</a>") < page.index(">Ben</a>") < page.index(">Dee</a>")
    assert 'aria-sort="descending"' in page
    assert "67%" in page  # Ann's win rate
    assert "1.67" in page  # Ann's average place
    assert "23.2" in page  # Ann's average hand
    sorted_page = client.get("/league/?season=all&sort=avg_position&dir=desc")
    text = read(sorted_page)
    assert text.index(">Cy</a>") < text.index(">Ann</a>")
    assert 'href="/league/?season=all&amp;sort=avg_position&amp;dir=asc"' in text
    season = season_named("2026")
    assert "season 2026" in read(client.get(f"/league/?season={season.id}"))
    assert client.get("/league/?season=999").status_code == 404
    assert client.get("/league/?season=x").status_code == 404


def test_player_page(client, made: dict[str, Game]) -> None:
    ann = player("Ann")
    page = read(client.get(f"/league/players/{ann.id}"))
    for text in ("Head to head", "Recent games", "Rating over time", "<svg",
                 "Ann&#39;s rating after each game", "role=\"img\""):
        assert text in page
    assert client.get("/league/players/999").status_code == 404


def test_history_page_paginates(client, made: dict[str, Game], monkeypatch) -> None:
    monkeypatch.setattr(league, "HISTORY_PAGE", 2)
    first = read(client.get("/league/history"))
    assert "5 games" in first and "Page 1 of 3" in first and 'rel="next"' in first
    assert f"Game {made['g5'].id}" in first and f"Game {made['g3'].id}" not in first
    last = read(client.get("/league/history?page=3"))
    assert f"Game {made['g1'].id}" in last and 'rel="prev"' in last
    dee = player("Dee")
    only = read(client.get(f"/league/history?player={dee.id}"))
    assert "2 games" in only and "with Dee" in only
    assert client.get("/league/history?player=999").status_code == 404


def test_roster_forms(client, ctx: None) -> None:
    response = client.post("/league/players", data={"add-name": "Zoe"})
    assert response.status_code == 302
    zoe = player("Zoe")
    again = client.post("/league/players", data={"add-name": "zoe"})
    assert again.status_code == 400 and "already in the league" in read(again)
    renamed = client.post(f"/league/players/{zoe.id}/edit", data={"rename-name": "Zoë"})
    assert renamed.status_code == 302
    db.session.refresh(zoe)
    assert zoe.name == "Zoë"
    assert client.post(f"/league/players/{zoe.id}/retire",
                       data={"retired": "1"}).status_code == 302
    db.session.refresh(zoe)
    assert zoe.retired_at is not None
    client.post("/league/players", data={"add-name": "Zed"})
    zed = player("Zed")
    unsure = client.post(f"/league/players/{zoe.id}/merge", data={"other": zed.id})
    assert unsure.status_code == 400 and "Choose which name stays." in read(unsure)
    assert player("Zed") is not None  # nothing merged yet
    merged = client.post(f"/league/players/{zoe.id}/merge",
                         data={"other": zed.id, "keep": zoe.id})
    assert merged.status_code == 302
    assert db.session.scalar(select(Player).where(Player.name == "Zed")) is None
    bad = client.post(f"/league/players/{zoe.id}/merge", data={"other": 0, "keep": zoe.id})
    assert bad.status_code == 400 and "Choose the player who is the same person." in read(bad)
    assert client.post(f"/league/players/{zoe.id}/edit", data={}).status_code == 400


def test_season_forms(client, ctx: None) -> None:
    ok = client.post("/league/seasons", data={
        "new-name": "Summer", "new-starts_on": "2026-06-01", "new-ends_on": "2026-08-31"})
    assert ok.status_code == 302
    clash = client.post("/league/seasons", data={
        "new-name": "July", "new-starts_on": "2026-07-01", "new-ends_on": "2026-07-31"})
    assert clash.status_code == 400 and "overlap" in read(clash)
    summer = season_named("Summer")
    edited = client.post(f"/league/seasons/{summer.id}", data={
        f"s{summer.id}-name": "Summer 26", f"s{summer.id}-starts_on": "2026-06-01",
        f"s{summer.id}-ends_on": "2026-09-30"})
    assert edited.status_code == 302
    db.session.refresh(summer)
    assert (summer.name, summer.ends_on) == ("Summer 26", date(2026, 9, 30))
    assert client.post(f"/league/seasons/{summer.id}/delete").status_code == 302
    assert db.session.get(Season, summer.id) is None


# --- exports -------------------------------------------------------------------------------------


def test_game_csv(made: dict[str, Game]) -> None:
    rows = list(csv.reader(io.StringIO(game_csv(made["g1"], say))))
    assert rows[0] == ["Hand", "Dealer", "How it ended", "Went out", "Ann", "Ann total",
                       "Ben", "Ben total", "Cy", "Cy total"]
    assert rows[1] == ["1", "Ann", "went out", "Ann", "45", "45", "-10", "-10", "-2", "-2"]
    assert rows[3][4:] == ["30", "72", "0", "20", "0", "5"]
    assert rows[-1] == ["Total", "", "", "", "", "72", "", "20", "", "5"]


def test_league_csv(made: dict[str, Game]) -> None:
    rows = list(csv.DictReader(io.StringIO(league_csv(the_league(), say))))
    assert len(rows) == 3 + 4 + 2 + 2  # one per player per finished game
    g2 = [r for r in rows if r["Game"] == str(made["g2"].id)]
    assert [(r["Player"], r["Total"], r["Place"], r["Won"]) for r in g2] == [
        ("Ann", "-2", "3", "0"), ("Ben", "75", "1", "1"), ("Cy", "-2", "3", "0"),
        ("Dee", "6", "2", "0")]
    assert {r["Season"] for r in g2} == {"2025"}


def test_csv_cells_never_start_a_formula(ctx: None) -> None:
    play(["=cmd()", "Bo"], [({"=cmd()": {"melds": "as ah ad\nks kh kd"}, "Bo": {"hand": "2c"}},
                             "=cmd()")],
         date(2026, 1, 5))
    league.prepare(the_league())
    assert "'=cmd()" in league_csv(the_league(), say)


def test_csv_downloads(client, made: dict[str, Game]) -> None:
    response = client.get(f"/league/games/{made['g1'].id}.csv")
    assert response.mimetype == "text/csv" and "attachment" in response.headers[
        "Content-Disposition"]
    assert read(client.get("/league/results.csv")).count("\r\n") == 12
    assert client.get("/league/games/999.csv").status_code == 404


def test_json_export_import_export_is_identical(app: Flask, made: dict[str, Game]) -> None:
    league.prepare(the_league())
    league.set_retired(player("Dee"), True)
    # G5's live hand logged turn by turn (issue 29): its log goes with it
    played.start_played(made["g5"], parse_card("9C"), "Ben")
    for i, move in enumerate(log_moves("Ann draw\nAnn meld 4S 5S 6S\nAnn discard 2H")):
        played.log_move(made["g5"], move, i, f"g5-{i}")
    exported = export_league(the_league())
    assert [len(h["log"]["moves"]) for g in exported["games"] for h in g["hands"]
            if "log" in h] == [3]
    before_rows = result_rows()
    text = json.dumps(exported, sort_keys=True)
    db.session.remove()
    db.drop_all()
    db.create_all()
    imported = import_league(json.loads(text))
    assert json.dumps(export_league(imported), sort_keys=True) == text
    assert [r[2:] for r in result_rows()] == [r[2:] for r in before_rows]  # same ratings
    assert {r.name: r.games for r in league.standings(imported)} == {
        "Ann": 3, "Ben": 3, "Cy": 3, "Dee": 2}
    assert hands.verify(list(db.session.scalars(select(Game)))) == []
    assert played.verify_logs(list(db.session.scalars(select(Game)))) == []


@contextmanager
def refusal(words: str) -> Iterator[None]:
    """The import inside is refused with a message holding ``words``."""
    with pytest.raises(LeagueImportError) as caught:
        yield
    message = say_all(caught.value.sentences)
    assert words in message, message


def test_import_refuses_what_it_cannot_restore(made: dict[str, Game]) -> None:
    exported = export_league(the_league())
    with refusal("already keeps the league"):
        import_league(exported)
    with refusal("not a Rummy Scorebook"):
        import_league({"format": "something else"})
    db.session.remove()
    db.drop_all()
    db.create_all()
    broken = json.loads(json.dumps(exported))
    broken["games"][0]["seats"][0]["player"] = "Nobody"
    with refusal("Nobody"):
        import_league(broken)
    assert db.session.scalar(select(Game)) is None  # nothing half-written
    del broken["games"]
    with refusal("not a complete league export"):
        import_league(broken)


def test_import_page(client, app: Flask, made: dict[str, Game], join) -> None:
    text = read(client.get("/league/export.json"))
    refused = client.post("/league/import", data={
        "file": (io.BytesIO(text.encode()), "league.json")},
        content_type="multipart/form-data")
    assert refused.status_code == 400 and "already has the name" in read(refused)
    assert "New name for the league" in read(refused)  # the field the sentence names
    renamed = client.post("/league/import", data={
        "file": (io.BytesIO(text.encode()), "league.json"), "name": "  Cousins' copy "},
        content_type="multipart/form-data")
    assert renamed.status_code == 302, read(renamed)
    copy = db.session.scalar(select(League).where(League.name == "Cousins' copy"))
    assert copy is not None and len(copy.games) == len(made)
    long_name = client.post("/league/import", data={
        "file": (io.BytesIO(text.encode()), "league.json"), "name": "x" * 81},
        content_type="multipart/form-data")
    assert long_name.status_code == 400
    db.session.remove()
    db.drop_all()
    db.create_all()
    join(client, games.default_league().id)  # an empty league of this browser's: replaced
    done = client.post("/league/import", data={
        "file": (io.BytesIO(text.encode()), "league.json")},
        content_type="multipart/form-data")
    assert done.status_code == 302
    assert read(client.get("/league/export.json")) == text
    junk = client.post("/league/import", data={"file": (io.BytesIO(b"{nope"), "x.json")},
                       content_type="multipart/form-data")
    assert junk.status_code == 400 and "not JSON" in read(junk)


def fresh_export() -> dict[str, Any]:
    """The made league's export, then an empty install to import it into."""
    exported = json.loads(json.dumps(export_league(the_league())))
    db.session.remove()
    db.drop_all()
    db.create_all()
    return exported


def refused(data: Any, *words: str) -> str:
    """Import ``data``: refused with a message holding ``words``, and nothing stored."""
    with pytest.raises(LeagueImportError) as caught:
        import_league(data)
    message = plain(say_all(caught.value.sentences))
    for word in words:
        assert word in message, message
    for model in (League, Player, Game, Hand, Season):
        assert db.session.scalar(select(db.func.count()).select_from(model)) == 0, model
    return message


def test_import_refuses_a_hand_the_referee_refuses(made: dict[str, Game]) -> None:
    """QA's case: a one-deck meld AS AS 3S ... KS is refused whole (card copies, as
    recording a hand checks them), naming the game and hand, and nothing is stored."""
    exported = fresh_export()
    meld = exported["games"][0]["hands"][0]["melds"][0]  # G1 hand 1: Ann's AS AH AD
    meld["cards"] = [{"card": c, "declared": None, "laid_by": "Ann", "layoff": False,
                      "position": i} for i, c in enumerate(
                          ["AS", "AS", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S",
                           "JS", "QS", "KS"])]
    message = refused(exported, "Game 1 in the file, hand 1:")
    assert "AS" in message or "A♠" in message, message


def test_import_refuses_an_illegal_meld_and_a_bad_lay_off(made: dict[str, Game]) -> None:
    """A meld that is no set or run, and a card laid off where it cannot go, are
    refused as recording refuses them (hands.check_entry)."""
    exported = fresh_export()
    cards = exported["games"][0]["hands"][0]["melds"][0]["cards"]  # Ann's AS AH AD
    cards[2]["card"] = "7D"
    refused(exported, "Game 1 in the file, hand 1:", "Ann's meld 1")
    cards[2]["card"] = "AD"
    cards.append({"card": "9C", "declared": None, "laid_by": "Ben", "layoff": True,
                  "position": 3})
    refused(exported, "Game 1 in the file, hand 1:", "cannot be laid off")


def test_import_refuses_who_went_out_and_a_bad_card(made: dict[str, Game]) -> None:
    """Who went out must hold no cards; a card must be a card."""
    exported = fresh_export()
    hand = exported["games"][0]["hands"][0]  # Ann went out; Ben holds KH
    hand["went_out"] = "Ben"
    refused(exported, "Game 1 in the file, hand 1:", "Ben went out")
    hand["went_out"] = "Ann"
    hand["stranded"][0]["card"] = "ZZ"
    refused(exported, "Game 1 in the file, hand 1:", "“ZZ” is not a card")


def test_import_recomputes_scores_and_refuses_scores_the_cards_do_not_give(
        made: dict[str, Game]) -> None:
    """The per-player scores come from the cards: a file whose stored score differs,
    or lacks one, is refused."""
    exported = fresh_export()
    scores = exported["games"][0]["hands"][0]["scores"]
    ann = next(s for s in scores if s["player"] == "Ann")
    ann["score"] += 100
    refused(exported, "Game 1 in the file, hand 1:", "Ann", "the cards give 45")
    ann["score"] -= 100
    scores.remove(ann)
    refused(exported, "Game 1 in the file, hand 1:", "no score for Ann")
    scores.append(dict(ann))
    scores.append(dict(ann))
    refused(exported, "Game 1 in the file, hand 1:", "Ann is in the file twice")


def test_import_checks_the_result_the_hands_give(made: dict[str, Game]) -> None:
    """A finished game's winner must be who its hands make the winner."""
    exported = fresh_export()
    exported["games"][0]["winner"] = "Ben"
    refused(exported, "Game 1 in the file:", "Ann winning")
    exported["games"][0]["winner"] = "Ann"
    exported["games"][4]["status"] = "finished"  # G5 is still being played
    exported["games"][4]["finished_at"] = "2026-04-01T20:00:00+00:00"
    refused(exported, "Game 5 in the file:", "do not finish it")


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d["games"][0]["hands"][1].update(number=1),
     ("Game 1 in the file:", "hand 1 is in the file twice")),
    (lambda d: d["games"][0]["hands"][1].update(number=5),
     ("Game 1 in the file:", "hand 2 is missing")),
    (lambda d: d["games"][3]["hands"][0].update(went_out="Ann"),  # G4: Ben and Cy
     ("Game 4 in the file, hand 1:", "Ann is not seated at this game")),
    (lambda d: d["games"][3]["hands"][0].update(dealer="Nobody"),
     ("Game 4 in the file, hand 1:", "does not list: Nobody")),
    (lambda d: d["games"][0]["seats"][1].update(player="Ann"),
     ("Game 1 in the file:", "Ann is seated twice")),
    (lambda d: d["games"][0].update(family="gin"),
     ("Game 1 in the file:", "does not know the game gin")),
    (lambda d: d["games"][0]["rules"].update(wild_twos=True),
     ("Game 1 in the file:", "does not know the house rule wild_twos")),
    (lambda d: d["games"][0]["rules"].update(low_ace_value=7),
     ("Game 1 in the file:", "do not go together")),
    (lambda d: d["games"][0].update(target=75),
     ("Game 1 in the file:", "its target is 75 points")),
    (lambda d: d["games"][0]["hands"][0].update(complete=False),
     ("Game 1 in the file, hand 1:", "still be being played")),
    (lambda d: d["games"][0]["hands"][0].pop("melds"),
     ("Game 1 in the file, hand 1:", "melds is missing")),
    (lambda d: d["games"][0]["hands"][0].update(melds="AS AH AD"),
     ("Game 1 in the file, hand 1:", "melds has the wrong type")),
    (lambda d: d["games"][0]["hands"][0].update(number="1"),
     ("Game 1 in the file:", "number has the wrong type")),
    (lambda d: d["games"][0]["hands"][0]["scores"][0].update(score=True),
     ("Game 1 in the file, hand 1:", "score has the wrong type")),
    (lambda d: d["games"][0]["seats"][0].update(position=2),
     ("Game 1 in the file:", "numbered 0 to 2")),
    (lambda d: d["games"][0].pop("seats"), ("Game 1 in the file:", "seats is missing")),
    (lambda d: d.update(players={"Ann": {}}), ("players has the wrong type",)),
    (lambda d: d["league"].pop("name"), ("name is missing",)),
    (lambda d: d.update(games=[[]]), ("Game 1 in the file:", "wrong type")),
])
def test_import_refuses_a_malformed_file_in_words_and_stores_nothing(
        made: dict[str, Game], change: Callable[[dict[str, Any]], object],
        words: tuple[str, ...]) -> None:
    """Missing keys, wrong types, an unknown family or option, a player not seated,
    duplicate or missing hand numbers: a LeagueImportError naming what is wrong
    (the page's 400), never a crash, and nothing stored."""
    exported = fresh_export()
    change(exported)
    refused(exported, *words)


def test_import_page_refuses_an_impossible_hand_with_a_400(
        client, made: dict[str, Game], join) -> None:
    """Through the page: a 400 with the message, and no league stored but the empty one."""
    exported = json.loads(read(client.get("/league/export.json")))
    db.session.remove()
    db.drop_all()
    db.create_all()
    join(client, games.default_league().id)
    cards = exported["games"][0]["hands"][0]["melds"][0]["cards"]
    cards[1]["card"] = "AS"  # AS AS AD: a one-deck game has one ace of spades
    page = client.post("/league/import", data={
        "file": (io.BytesIO(json.dumps(exported).encode()), "league.json")},
        content_type="multipart/form-data")
    assert page.status_code == 400
    assert "Game 1 in the file, hand 1:" in read(page)
    assert db.session.scalar(select(db.func.count()).select_from(Game)) == 0
    assert db.session.scalar(select(db.func.count()).select_from(Player)) == 0
    assert [lg.name for lg in db.session.scalars(select(League))] == ["Our table"]


def test_import_keeps_a_hand_still_being_played(ctx: None) -> None:
    """A live hand (melds and lay-offs so far) is checked and comes back as it was."""
    game = play(["Ann", "Ben"], [])
    hand = hands.start_live(game)
    hands.live_meld(hand, "Ann", parse_cards("7s 8s 9s"))
    hands.live_layoff(hand, "Ben", parse_cards("10s")[0], "Ann-1")
    text = json.dumps(export_league(the_league()), sort_keys=True)
    db.session.remove()
    db.drop_all()
    db.create_all()
    imported = import_league(json.loads(text))
    assert json.dumps(export_league(imported), sort_keys=True) == text
    broken = json.loads(text)
    db.session.remove()
    db.drop_all()
    db.create_all()
    broken["games"][0]["hands"][0]["melds"][0]["cards"][3]["card"] = "KD"
    refused(broken, "Game 1 in the file, hand 1:", "cannot be laid off")


# --- backups -------------------------------------------------------------------------------------


@pytest.fixture
def file_app(make_app, tmp_path: Path) -> Flask:
    return make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'live.sqlite3'}",
                    SQLALCHEMY_ENGINE_OPTIONS={})


def count_players(app: Flask) -> int:
    with app.app_context():
        return len(db.session.scalars(select(Player)).all())


def test_backup_and_restore(file_app: Flask, tmp_path: Path) -> None:
    runner = file_app.test_cli_runner()
    with file_app.test_request_context():
        build_league()
    copy = tmp_path / "backup.sqlite3"
    result = runner.invoke(args=["backup", str(copy)])
    assert result.exit_code == 0, result.output
    assert "Backed up" in result.output
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM game").fetchone() == (5,)
    again = runner.invoke(args=["backup", str(copy)])
    assert again.exit_code != 0 and "already exists" in again.output
    with file_app.test_request_context():
        league.add_player(the_league(), "Late")
    assert count_players(file_app) == 5
    restored = runner.invoke(args=["restore", "--yes", str(copy)])
    assert restored.exit_code == 0, restored.output
    assert count_players(file_app) == 4
    with file_app.test_request_context():
        league.prepare(the_league())
        assert table()["Ann"].wins == 2


def test_restore_refuses_a_file_that_is_not_a_backup(file_app: Flask, tmp_path: Path) -> None:
    runner = file_app.test_cli_runner()
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    result = runner.invoke(args=["restore", "--yes", str(junk)])
    assert result.exit_code != 0 and "not a SQLite database" in result.output
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    result = runner.invoke(args=["restore", "--yes", str(other)])
    assert result.exit_code != 0 and "not a Rummy Scorebook backup" in result.output
    missing = runner.invoke(args=["restore", "--yes", str(tmp_path / "none")])
    assert missing.exit_code != 0


def test_backup_refuses_other_databases(file_app: Flask, tmp_path: Path, monkeypatch) -> None:
    with file_app.app_context():
        monkeypatch.setattr(db.engine.dialect, "name", "postgresql")
        result = file_app.test_cli_runner().invoke(args=["backup", str(tmp_path / "b")])
    assert result.exit_code != 0 and "SQLite databases only" in result.output


def test_league_export_and_import_commands(file_app: Flask, tmp_path: Path) -> None:
    runner = file_app.test_cli_runner()
    with file_app.test_request_context():
        build_league()
    path = tmp_path / "league.json"
    assert runner.invoke(args=["league", "export", str(path)]).exit_code == 0
    data = json.loads(path.read_text())
    assert data["format"] == "rummy-scorebook/league" and len(data["games"]) == 5
    refused = runner.invoke(args=["league", "import", str(path), "--password", "long enough"])
    assert refused.exit_code != 0 and "already keeps" in refused.output


def test_game_result_rows_are_per_player_per_finished_game(made: dict[str, Game]) -> None:
    league.prepare(the_league())
    count = db.session.scalar(select(db.func.count()).select_from(GameResult))
    seats = db.session.scalar(select(db.func.count()).select_from(Seat).join(Game).where(
        Game.status == FINISHED))
    assert count == seats == 11
    assert db.session.scalar(select(db.func.count()).select_from(Hand)) == 8


def test_a_retired_player_is_not_offered_for_a_new_game(client, made: dict[str, Game]) -> None:
    league.set_retired(player("Dee"), True)
    assert [p.name for p in games.roster(the_league())] == ["Ann", "Ben", "Cy"]
    page = read(client.get("/games/new"))
    assert 'data-name="Ann"' in page and 'data-name="Dee"' not in page


def test_a_fresh_league_has_empty_pages_not_errors(client, ctx: None) -> None:
    for url in ("/league/", "/league/?season=all", "/league/history", "/league/players",
                "/league/seasons", "/league/export", "/league/results.csv",
                "/league/export.json"):
        assert client.get(url).status_code == 200, url
    assert "No game has been finished yet." in read(client.get("/league/"))
    eve = league.add_player(the_league(), "Eve")
    page = read(client.get(f"/league/players/{eve.id}"))
    assert "No finished game yet." in page and "everyone starts at 1,000" in page


def test_rename_and_merge_problems_are_shown_in_place(client, made: dict[str, Game]) -> None:
    ann = player("Ann")
    empty = client.post(f"/league/players/{ann.id}/edit", data={"rename-name": "  "})
    assert empty.status_code == 400 and 'id="rename-error"' in read(empty)
    taken = client.post(f"/league/players/{ann.id}/edit", data={"rename-name": "ben"})
    assert taken.status_code == 400 and "Ben is already in the league" in read(taken)
    together = client.post(f"/league/players/{ann.id}/merge",
                           data={"other": player("Ben").id, "keep": ann.id})
    text = read(together)
    assert together.status_code == 400 and "same table in 3 games" in text
    assert 'id="other-error"' in text
    assert client.post(f"/league/players/{ann.id}/edit", data={}).status_code == 400


@pytest.mark.parametrize("lang", ["es", "it"])
def test_league_pages_in_every_language(client, made: dict[str, Game], lang: str) -> None:
    ann = player("Ann")
    for url in ("/league/?season=all", f"/league/players/{ann.id}", "/league/history",
                "/league/players", f"/league/players/{ann.id}/edit", "/league/seasons",
                "/league/export", "/league/results.csv"):
        response = client.get(url + ("&" if "?" in url else "?") + f"lang={lang}")
        assert response.status_code == 200, (lang, url)
    page = read(client.get(f"/league/?season=all&lang={lang}"))
    assert f'lang="{lang}"' in page and "23,2" in page  # Ann's average hand, with a comma


def test_downloads_are_named_after_the_league_and_the_day(client, ctx: None) -> None:
    the = the_league()
    the.name = "Grandma's Table — Año 2"
    db.session.commit()
    exported = client.get("/league/export.json").headers["Content-Disposition"]
    assert re.search(r'filename="grandma-s-table-ano-2-\d{4}-\d\d-\d\d\.json"', exported)
    results = client.get("/league/results.csv").headers["Content-Disposition"]
    assert re.search(r'filename="grandma-s-table-ano-2-\d{4}-\d\d-\d\d-results\.csv"',
                     results)


def test_history_pages_follow_on_by_keyset_while_games_finish(
        client, made: dict[str, Game], monkeypatch) -> None:
    import re
    from html import unescape

    monkeypatch.setattr(league, "HISTORY_PAGE", 2)

    def shown(page: str) -> list[int]:
        return [int(n) for n in re.findall(r'href="/games/(\d+)"', page)]

    def link(page: str, rel: str) -> str:
        found = re.search(rf'rel="{rel}" href="([^"]+)"', page)
        assert found, rel
        return unescape(found.group(1))

    order = [g.id for g in sorted(made.values(), key=lambda g: (
        as_utc(g.finished_at or g.started_at), g.id), reverse=True)]
    first = read(client.get("/league/history"))
    assert list(dict.fromkeys(shown(first))) == order[:2]
    # a game finishes (a newer one) and another is played before the next page is opened
    import random

    from tests.web.test_league_fresh import random_game
    random_game(random.Random(3), date(2030, 1, 1))
    second = read(client.get(link(first, "next")))
    third = read(client.get(link(second, "next")))
    seen = [g for page in (first, second, third) for g in dict.fromkeys(shown(page))]
    assert seen == order  # every game once, in order: no gap, no repeat
    back = read(client.get(link(third, "prev")))
    assert list(dict.fromkeys(shown(back))) == list(dict.fromkeys(shown(second)))
    assert client.get("/league/history?before=nonsense").status_code == 400
