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
