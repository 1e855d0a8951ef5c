"""League results and ratings kept fresh on write: whatever a family does to its games
(edits, deletions, games finished out of order, imports), the stored rows equal a
replay of the whole league from scratch, and no page rebuilds them."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest
from flask import Flask
from sqlalchemy import select

from scorebook.extensions import db
from scorebook.models import FINISHED, Game, GameResult, League, Player
from scorebook.presenters.sentences import say
from scorebook.services import exports, games, hands, league, ratings
from tests.web import test_league as base
from tests.web.test_league import build_league, play, result_rows, the_league

ctx = base.ctx  # the fixtures: an owned league, and its five games
made = base.made

TEMPLATES = [
    [({"A": {"melds": "as ah ad"}, "B": {"hand": "kh"}, "C": {"hand": "2c"}}, "A"),
     ({"B": {"melds": "ks kd kc"}, "A": {"hand": "3h"}, "C": {"melds": "4s 4h 4d",
                                                          "hand": "5c"}}, "B"),
     ({"A": {"melds": "qs qh qd"}, "B": {"hand": "2s"}, "C": {"hand": "3s"}}, "A")],
    [({"B": {"melds": "as ah ad\nks kh kd"}, "A": {"hand": "2c"}, "C": {"hand": "2d"}}, "B")],
]
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve"]


def replayed() -> list[tuple[str, int, int, float, float]]:
    """What a replay of the whole league from scratch gives (and nothing kept)."""
    nested = db.session.begin_nested()
    ratings.rebuild(the_league().id)
    rows = result_rows()
    nested.rollback()
    return rows


def random_game(rng: random.Random, when: date) -> Game:
    names = rng.sample(NAMES, 3)
    template = rng.choice(TEMPLATES)
    letters = dict(zip("ABC", names))
    played = [({letters[k]: v for k, v in texts.items()}, letters[out])
              for texts, out in template]
    return play(names, played, when)


def finished_games() -> list[Game]:
    return list(db.session.scalars(select(Game).where(Game.status == FINISHED)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_edits_keep_the_ratings_of_a_full_replay(made: dict[str, Game], app: Flask,
                                                        seed: int) -> None:
    rng = random.Random(seed)
    start = date(2024, 1, 1)
    for step in range(14):
        done = finished_games()
        move = rng.choice(["play", "play", "move", "delete game", "delete hand", "rename"])
        if move == "play" or len(done) < 3:
            random_game(rng, start + timedelta(days=rng.randint(0, 900)))
        elif move == "move":  # a game re-dated: it changes place in the rating order
            game = rng.choice(done)
            game.finished_at = datetime(2024, 1, 1, 20, tzinfo=UTC) + timedelta(
                days=rng.randint(0, 900))
            db.session.commit()
        elif move == "delete game":
            db.session.delete(rng.choice(done))
            db.session.commit()
        elif move == "delete hand":  # may un-finish the game, or change its winner
            game = rng.choice(done)
            hand = rng.choice(game.hands)
            hands.delete_hand(hand, hand.version)
        else:
            who = rng.choice(list(db.session.scalars(select(Player))))
            league.rename_player(who, f"{who.name}-{step}")
        assert result_rows() == replayed(), (seed, step, move)
    assert not ratings.refresh(the_league().id)  # the check finds nothing to repair


def test_an_import_rates_the_league_as_a_replay_does(made: dict[str, Game], app: Flask) -> None:
    rng = random.Random(7)
    for _ in range(4):  # games out of order and a deleted one: gaps in the order kept
        random_game(rng, date(2024, 1, 1) + timedelta(days=rng.randint(0, 900)))
    db.session.delete(made["g2"])
    db.session.commit()
    data = exports.export_league(the_league())
    before = [(n, p, mu, s) for n, _g, p, mu, s in result_rows()]
    db.session.remove()
    db.drop_all()
    db.create_all()
    exports.import_league(data)
    after = [(n, p, mu, s) for n, _g, p, mu, s in result_rows()]
    assert after == before == [(n, p, mu, s) for n, _g, p, mu, s in replayed()]


def test_a_long_replay_runs_after_the_request_and_the_pages_say_so(
        made: dict[str, Game], app: Flask, client, monkeypatch) -> None:
    app.config.update(RATINGS_INLINE_GAMES=0, RATINGS_CATCH_UP="manual")
    before = result_rows()
    g1 = made["g1"]
    hands.delete_hand(g1.hands[-1], g1.hands[-1].version)  # G1 is no longer finished
    marker = db.session.scalar(select(League.ratings_from_seq))
    assert marker is not None
    assert result_rows() != replayed()  # the later ratings wait for the catch-up
    assert league.ratings_pending(the_league()) > 0
    page = client.get("/league/?season=all").get_data(as_text=True)
    assert "being brought up to date" in page.replace("\n", " ")
    ratings.catch_up(the_league().id)
    assert db.session.scalar(select(League.ratings_from_seq)) is None
    assert result_rows() == replayed() != before
    assert "being brought up to date" not in client.get("/league/?season=all").get_data(
        as_text=True)


def test_a_write_during_a_catch_up_is_not_lost(made: dict[str, Game], app: Flask) -> None:
    app.config.update(RATINGS_INLINE_GAMES=0, RATINGS_CATCH_UP="manual")
    g1, g2 = made["g1"], made["g2"]
    hands.delete_hand(g2.hands[-1], g2.hands[-1].version)
    epoch = db.session.scalar(select(League.ratings_epoch))
    hands.delete_hand(g1.hands[-1], g1.hands[-1].version)  # an earlier mark, a new epoch
    assert db.session.scalar(select(League.ratings_epoch)) == epoch + 1
    ratings.catch_up(the_league().id)
    assert result_rows() == replayed()


def test_no_league_page_writes(made: dict[str, Game], client, app: Flask) -> None:
    """A page reads what the writes kept: fetching every league page leaves every
    result row exactly as it was."""
    before = {r.id: (r.seq, r.mu, r.sigma, r.revision) for r in
              db.session.scalars(select(GameResult))}
    for url in ("/league/", "/league/?season=all", "/league/history", "/league/export",
                f"/league/players/{made['g1'].seats[0].player_id}", "/league/results.csv"):
        assert client.get(url).status_code == 200, url
    db.session.expire_all()
    assert {r.id: (r.seq, r.mu, r.sigma, r.revision) for r in
            db.session.scalars(select(GameResult))} == before


def test_games_of_one_league_never_reach_another(made: dict[str, Game]) -> None:
    assert games.default_league().id == the_league().id
    assert {r.league_id for r in db.session.scalars(select(GameResult))} == {the_league().id}
    _ = build_league


def test_results_csv_is_streamed_and_the_same_as_built_in_memory(
        made: dict[str, Game], client, monkeypatch) -> None:
    monkeypatch.setattr(exports, "CSV_BATCH", 2)  # many pieces, even for a small league
    chunks = list(exports.league_csv_chunks(the_league(), say))
    assert len(chunks) > 3
    whole = "".join(chunks)
    assert whole == exports.league_csv(the_league(), say)
    response = client.get("/league/results.csv", buffered=False)
    assert response.is_streamed
    body = b"".join(response.response).decode()
    response.close()
    assert body == "\ufeff" + whole
    lines = whole.splitlines()
    assert len(lines) == 1 + len(result_rows())
    assert lines[0].startswith("Game,Finished,Season")
