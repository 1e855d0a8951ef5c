"""Whole-database backups of the SQLite file with SQLite's online backup API
(``sqlite3.Connection.backup``): safe while the site is serving, page by page,
never a half-copied file.  ``flask backup PATH`` and ``flask restore PATH``;
``flask league export|import`` move one league as JSON.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from scorebook.extensions import db

#: Tables a scorebook database must have for ``restore`` to accept it.
REQUIRED_TABLES = {"league", "player", "game", "seat", "hand", "hand_score"}


class BackupError(RuntimeError):
    """A backup or restore that cannot be done; the message says why."""


def _sqlite_connection() -> tuple[Any, sqlite3.Connection]:
    """The app's database as a raw sqlite3 connection (with its pool wrapper)."""
    engine = db.engine
    if engine.dialect.name != "sqlite":
        raise BackupError(
            f"flask backup and restore work on SQLite databases only; this site uses "
            f"{engine.dialect.name}. Use that database's own tools (e.g. pg_dump).")
    raw = engine.raw_connection()
    conn = raw.driver_connection
    assert isinstance(conn, sqlite3.Connection)
    return raw, conn


def backup(path: str | Path, overwrite: bool = False) -> int:
    """Copy the whole database into a new SQLite file at ``path``; returns its size."""
    target = Path(path)
    if target.exists() and not overwrite:
        raise BackupError(f"{target} already exists (use --force to replace it)")
    if target.parent and not target.parent.exists():
        raise BackupError(f"the folder {target.parent} does not exist")
    db.session.remove()
    raw, source = _sqlite_connection()
    tmp = target.with_name(target.name + ".partial")
    try:
        tmp.unlink(missing_ok=True)
        dest = sqlite3.connect(tmp)
        try:
            source.backup(dest)
            dest.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            dest.close()
        tmp.replace(target)
    finally:
        tmp.unlink(missing_ok=True)
        raw.close()
    return target.stat().st_size


def _check_backup_file(path: Path) -> None:
    if not path.is_file():
        raise BackupError(f"{path} is not a file")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if conn.execute("PRAGMA quick_check").fetchone() != ("ok",):
                raise BackupError(f"{path} is a damaged SQLite database")
            tables = {row[0] for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a SQLite database ({exc})") from None
    missing = REQUIRED_TABLES - tables
    if missing:
        raise BackupError(f"{path} is not a Rummy Scorebook backup (no "
                          f"{', '.join(sorted(missing))} table)")


def restore(path: str | Path) -> None:
    """Replace the whole database with the backup at ``path`` (checked first)."""
    source_path = Path(path)
    _check_backup_file(source_path)
    db.session.remove()
    raw, target = _sqlite_connection()
    try:
        source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
        try:
            source.backup(target)
        finally:
            source.close()
    finally:
        raw.close()
    db.engine.dispose()  # no pooled connection keeps a view of the old file


# --- the commands -----------------------------------------------------------------------


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace PATH if it exists.")
@with_appcontext
def backup_command(path: str, force: bool) -> None:
    """Copy the whole SQLite database to PATH (safe while the site runs)."""
    try:
        size = backup(path, overwrite=force)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Backed up the database to {path} ({size} bytes).")


@click.command("restore")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@with_appcontext
def restore_command(path: str, yes: bool) -> None:
    """Replace the whole SQLite database with the backup at PATH."""
    if not yes:
        click.confirm(f"Replace everything in the database with {path}?", abort=True)
    try:
        restore(path)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Restored the database from {path}.")


@click.group("league")
def league_cli() -> None:
    """Move a league between installs as JSON."""


@league_cli.command("export")
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--league", "league_name", help="The league's name (default: the first).")
@with_appcontext
def export_command(path: str, league_name: str | None) -> None:
    """Write a league (every game, hand and card) as JSON to PATH (- for stdout)."""
    from scorebook.models import League
    from scorebook.services.exports import export_league

    query = db.select(League).order_by(League.id)
    if league_name:
        query = query.where(League.name == league_name)
    league = db.session.scalar(query.limit(1))
    if league is None:
        raise click.ClickException("no such league")
    text = json.dumps(export_league(league), ensure_ascii=False, indent=1, sort_keys=True)
    if path == "-":
        click.echo(text)
    else:
        Path(path).write_text(text + "\n", encoding="utf-8")
        click.echo(f"Exported {league.name} to {path}.", err=True)


def _owner_password(value: str) -> str:
    from scorebook.services.access import MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH

    if not MIN_PASSWORD_LENGTH <= len(value) <= MAX_PASSWORD_LENGTH:
        raise click.BadParameter(f"a password needs from {MIN_PASSWORD_LENGTH} to "
                                 f"{MAX_PASSWORD_LENGTH} characters")
    return value


@league_cli.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--password", "password", envvar="SCOREBOOK_OWNER_PASSWORD",
              prompt="The new owner password of the imported league", hide_input=True,
              confirmation_prompt=True,
              callback=lambda _ctx, _param, value: _owner_password(value),
              help="The owner password of the imported league (asked for if not given; "
                   "or SCOREBOOK_OWNER_PASSWORD). An export carries no password or links.")
@with_appcontext
def import_command(path: str, password: str) -> None:
    """Restore a league from a JSON export (into an install with no other league). You
    become its owner: open it at /leagues/login with its name and this password."""
    from scorebook.services import access
    from scorebook.services.exports import (
        JSONError,
        LeagueImportError,
        import_league,
        read_league_file,
    )

    try:
        with open(path, "rb") as stream:  # read as a stream: one game at a time
            league = import_league(read_league_file(stream),
                                   owner_password_hash=access.hash_password(password))
    except (LeagueImportError, JSONError) as exc:
        message = current_app.extensions[SAY_ALL](exc.sentences) if isinstance(
            exc, LeagueImportError) else (
            "the file is not JSON: choose a league file exported by Rummy Scorebook")
        raise click.ClickException(message) from None
    click.echo(f"Imported {league.name}. You own it: open it at /leagues/login with its name "
               f"and the password you gave, then make invite links in its settings.")


#: Where app.py keeps the presenters' ``say_all``, which words an import's refusal (the
#: services word nothing themselves).
SAY_ALL = "scorebook.say_all"


def register_backup_cli(app: Flask) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
    app.cli.add_command(league_cli)
