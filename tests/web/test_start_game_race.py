"""Starting a game says "another game was started at the same moment" only when that is
what happened (issue 28): the database refused the game's number in its league (or a
new player's name, a private league's name, a game's one rematch) because another start
got there first.  Any other refusal — on PostgreSQL, a primary key taken because the
table's sequence lags behind ids inserted by hand, as a bulk import or a benchmark does
— is a fault, raised and answered 500, not a race to try again and report."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

import scorebook.web.games.views as views
from scorebook.extensions import db
from scorebook.models import Game, League, Player
from scorebook.services.transaction import violated_constraint

from .test_live import start

NEW_GAME = {"players-0": "Ann", "players-1": "Ben", "family": "rummy-500",
            "first_dealer": "0", "min_natural_cards": "1"}
SAME_MOMENT = "at the same moment"


def test_the_database_names_the_constraint_it_refused(app: Flask) -> None:
    """On SQLite (which names the columns) and PostgreSQL (which names the constraint)."""
    with app.app_context():
        league = League(name="Our table")
        db.session.add(league)
        db.session.flush()
        game = Game(league=league, family="rummy-500", rules_json={}, target=500, number=1)
        db.session.add(game)
        db.session.commit()
        refused: dict[str, str | None] = {}
        for label, row in (("number", {"league_id": league.id, "number": 1}),
                           ("id", {"id": game.id, "league_id": league.id, "number": 2})):
            try:
                db.session.execute(insert(Game), [{"family": "rummy-500", "rules_json": {},
                                                   "target": 500, **row}])
                db.session.flush()
            except IntegrityError as exc:
                refused[label] = violated_constraint(exc)
            db.session.rollback()
        db.session.add(Player(league_id=league.id, name="Ann"))
        db.session.commit()
        try:
            db.session.add(Player(league_id=league.id, name="Ann"))
            db.session.flush()
        except IntegrityError as exc:
            refused["player"] = violated_constraint(exc)
        db.session.rollback()
    assert refused == {"number": "uq_game_league_id_number", "id": "pk_game",
                       "player": "uq_player_league_id_name"}


def wrapped_create_game(monkeypatch: pytest.MonkeyPatch,
                        spoil: Callable[[Game], None]) -> list[int]:
    """``create_game`` as the page calls it, its first game spoiled by ``spoil`` before
    the commit; returns the list of calls made."""
    real = views.create_game
    calls: list[int] = []

    def create_game(*args: Any, **kwargs: Any) -> Game:
        game = real(*args, **kwargs)
        calls.append(1)
        if len(calls) == 1:
            spoil(game)
        return game

    monkeypatch.setattr(views, "create_game", create_game)
    return calls


def test_a_real_race_for_the_number_is_tried_again(app: Flask,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    client = app.test_client()
    first = start(client)
    with app.app_context():
        taken = db.session.get(Game, first)
        assert taken is not None
        number = taken.number

    def same_number(game: Game) -> None:  # as if another phone's start took it first
        game.number = number

    calls = wrapped_create_game(monkeypatch, same_number)
    answer = client.post("/games/new", data=NEW_GAME)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    assert len(calls) == 2
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 2


def test_a_refusal_that_is_no_race_is_not_reported_as_one(
        make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    client = app.test_client()
    first = start(client)

    def taken_id(game: Game) -> None:  # as a sequence behind the ids would hand out
        game.id = first

    calls = wrapped_create_game(monkeypatch, taken_id)
    answer = client.post("/games/new", data=NEW_GAME)
    assert answer.status_code == 500
    assert SAME_MOMENT not in answer.get_data(as_text=True)
    assert len(calls) == 1  # not tried again either
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 1


def test_a_sequence_behind_its_ids_on_postgresql_is_a_fault_not_a_race(
        make_app: Callable[..., Flask]) -> None:
    """The case of the issue: rows inserted with explicit ids leave PostgreSQL's sequence
    behind, and the next game the page starts is given an id already taken."""
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("SQLite gives the next id after the largest: no sequence to lag")
    client = app.test_client()
    first = start(client)
    with app.app_context():
        league_id = db.session.scalar(select(Game.league_id).where(Game.id == first))
        db.session.execute(insert(Game), [{"id": first + 1, "league_id": league_id,
                                           "number": 99, "family": "rummy-500",
                                           "rules_json": {}, "target": 500}])
        db.session.commit()
    answer = client.post("/games/new", data=NEW_GAME)
    assert answer.status_code == 500
    assert SAME_MOMENT not in answer.get_data(as_text=True)
