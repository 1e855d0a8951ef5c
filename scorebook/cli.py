"""Command-line commands added to ``flask --app app``."""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import with_appcontext

from scorebook.extensions import db


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create any missing database tables (used until migrations exist)."""
    db.create_all()
    click.echo("Initialized the database.")


def register_cli(app: Flask) -> None:
    app.cli.add_command(init_db_command)
