"""The database the suite runs on, and the Alembic migrations on it.

CI runs the whole suite twice: on SQLite and on PostgreSQL (``TEST_DATABASE_URL``).
The migrations must build, from an empty database, exactly the schema the models
describe, on whichever database the suite runs, and must undo themselves cleanly.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from sqlalchemy import MetaData, inspect, make_url

import scorebook.models  # noqa: F401  (every table in db.metadata)
from app import create_app
from scorebook.config import normalize_database_url
from scorebook.extensions import db

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
HAVE_MIGRATIONS = any((MIGRATIONS / "versions").glob("*.py"))


def test_suite_runs_on_the_database_asked_for(app: Flask) -> None:
    """A typo in TEST_DATABASE_URL must not quietly run the suite on SQLite again."""
    asked = make_url(normalize_database_url(os.environ.get("TEST_DATABASE_URL", "sqlite://")))
    with app.app_context():
        assert db.engine.dialect.name == asked.get_dialect().name
        assert db.engine.url.database == asked.database


def test_constraint_and_index_names_are_unique_in_the_schema(app: Flask) -> None:
    """PostgreSQL (unlike SQLite) refuses two indexes or constraints of one name,
    even on different tables."""
    names: list[str] = []
    for table in db.metadata.tables.values():
        names += [str(c.name) for c in table.constraints if c.name]
        names += [str(i.name) for i in table.indexes if i.name]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


def _drop_everything() -> None:
    """Drop every table in the database, the models' and Alembic's own alike."""
    found = MetaData()
    found.reflect(bind=db.engine)
    found.drop_all(bind=db.engine)


@pytest.fixture
def empty_app(tmp_path: Path) -> Iterator[Flask]:
    """An app on an empty database: a fresh SQLite file, or the test database
    emptied (its tables are created and dropped test by test anyway)."""
    url = os.environ.get("TEST_DATABASE_URL", "sqlite://")
    if url.startswith("sqlite"):
        url = "sqlite:///" + str(tmp_path / "migrated.sqlite3")
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url},
        instance_path=tmp_path / "instance",
    )
    with app.app_context():
        _drop_everything()
    yield app
    with app.app_context():
        db.session.remove()
        _drop_everything()
        db.engine.dispose()


def _schema_differences(app: Flask) -> list[object]:
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "compare_server_default": True}
        )
        return list(compare_metadata(context, db.metadata))


@pytest.mark.skipif(not HAVE_MIGRATIONS, reason="migrations/ has no versions yet")
def test_migrations_build_the_schema_the_models_describe(empty_app: Flask) -> None:
    runner = empty_app.test_cli_runner()
    result = runner.invoke(args=["db", "upgrade", "--directory", str(MIGRATIONS)])
    assert result.exit_code == 0, result.output + repr(result.exception)

    assert _schema_differences(empty_app) == []


@pytest.mark.skipif(not HAVE_MIGRATIONS, reason="migrations/ has no versions yet")
def test_migrations_downgrade_to_nothing_and_upgrade_again(empty_app: Flask) -> None:
    runner = empty_app.test_cli_runner()
    directory = ["--directory", str(MIGRATIONS)]
    for args in (["db", "upgrade", *directory],
                 ["db", "downgrade", *directory, "base"]):
        result = runner.invoke(args=args)
        assert result.exit_code == 0, result.output + repr(result.exception)
    with empty_app.app_context():
        assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}

    result = runner.invoke(args=["db", "upgrade", *directory])
    assert result.exit_code == 0, result.output + repr(result.exception)
    assert _schema_differences(empty_app) == []


BATCH_REVISION = '''"""test only: copy the game table the way SQLite batch migrations do"""
from alembic import op
import sqlalchemy as sa

revision = "ffff00000000"
down_revision = {head!r}
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game", recreate="always") as batch_op:
        batch_op.add_column(sa.Column("note", sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table("game", recreate="always") as batch_op:
        batch_op.drop_column("note")
'''


@pytest.mark.skipif(not HAVE_MIGRATIONS, reason="migrations/ has no versions yet")
@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL", "sqlite").startswith("sqlite"),
                    reason="only SQLite migrations copy tables")
def test_a_migration_that_copies_a_table_keeps_the_rows_that_point_at_it(
        empty_app: Flask, tmp_path: Path) -> None:
    """On SQLite a batch migration copies a table, drops the old one and renames the
    copy. With foreign keys enforced, dropping ``game`` would first delete every seat,
    hand and card of every game (ON DELETE CASCADE): migrations must run with
    foreign keys off, and check them afterwards."""
    import shutil

    from alembic.script import ScriptDirectory
    from flask_migrate import upgrade

    from scorebook.models import Game, Hand, League, Player, Seat

    directory = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, directory, ignore=shutil.ignore_patterns("__pycache__"))
    with empty_app.app_context():
        upgrade(directory=str(directory))
        league = League(name="Ours")
        ann, ben = Player(league=league, name="Ann"), Player(league=league, name="Ben")
        game = Game(league=league, family="rummy-500", rules_json={"family": "rummy-500"},
                    target=500)
        game.seats = [Seat(player=ann, position=0, first_dealer=True),
                      Seat(player=ben, position=1)]
        game.hands = [Hand(number=1, dealer=ann, went_out=ben)]
        db.session.add(game)
        db.session.commit()
        db.session.remove()

        head = ScriptDirectory(str(directory)).get_current_head()
        (directory / "versions" / "ffff00000000_copy_game.py").write_text(
            BATCH_REVISION.format(head=head))
        upgrade(directory=str(directory))

        assert "note" in {c["name"] for c in inspect(db.engine).get_columns("game")}
        assert db.session.scalar(db.select(db.func.count()).select_from(Hand)) == 1
        assert db.session.scalar(db.select(db.func.count()).select_from(Seat)) == 2
        # and foreign keys are enforced again on the connections the app goes on using
        assert db.session.execute(db.text("PRAGMA foreign_keys")).scalar() == 1
        db.session.remove()


@pytest.mark.skipif(not HAVE_MIGRATIONS, reason="migrations/ has no versions yet")
def test_the_games_already_stored_get_numbers_within_their_league(empty_app: Flask) -> None:
    """Upgrading a database of two leagues: each league's games are numbered 1, 2, …
    in the order they were started, and each game's hand-version mark starts above
    the versions its hands already have (a form opened before the upgrade can never
    match a hand that later takes its number)."""
    from flask_migrate import upgrade

    from scorebook.models import Game

    with empty_app.app_context():
        upgrade(directory=str(MIGRATIONS), revision="881091dceb55")  # the one before
        run = db.session.execute
        for league_id, name in ((1, "Ours"), (2, "Theirs")):
            run(db.text("INSERT INTO league (id, name, created_at) VALUES (:id, :name, "
                        "CURRENT_TIMESTAMP)"), {"id": league_id, "name": name})
        run(db.text("INSERT INTO player (id, league_id, name, created_at) VALUES "
                    "(1, 1, 'Ann', CURRENT_TIMESTAMP)"))
        for game_id, league_id in ((1, 1), (2, 2), (3, 1), (4, 2), (5, 1)):
            run(db.text("INSERT INTO game (id, league_id, family, rules_json, target, status, "
                        "started_at, revision) VALUES (:id, :league, 'rummy-500', '{}', 500, "
                        "'in-progress', CURRENT_TIMESTAMP, 0)"),
                {"id": game_id, "league": league_id})
        for hand_id, version in ((1, 1), (2, 4)):
            run(db.text("INSERT INTO hand (id, game_id, number, dealer_id, ending, going_rummy, "
                        "complete, version, created_at, updated_at) VALUES (:id, 3, :id, 1, "
                        "'out', false, true, :version, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"),
                {"id": hand_id, "version": version})
        db.session.commit()
        upgrade(directory=str(MIGRATIONS))
        rows = db.session.execute(db.select(Game.id, Game.league_id, Game.number,
                                            Game.hand_version_mark).order_by(Game.id)).all()
        assert [tuple(r) for r in rows] == [(1, 1, 1, 0), (2, 2, 1, 0), (3, 1, 2, 4),
                                            (4, 2, 2, 0), (5, 1, 3, 0)]
        db.session.remove()
