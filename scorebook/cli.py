"""Command-line commands added to ``flask --app app``."""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import AppGroup, with_appcontext
from sqlalchemy.orm import selectinload

from scorebook.extensions import db


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create any missing database tables (leagues are private: the first browser to
    start a game gets its own)."""
    db.create_all()
    click.echo("Initialized the database.")


scorebook_cli = AppGroup("scorebook", help="Scorebook maintenance.")


@scorebook_cli.command("verify")
def verify_command() -> None:
    """Recompute every stored hand score from the stored cards and report any difference
    (a hand kept as points only: its points checked against what a hand can score) or
    impossible hand (out.empty-hand), and any hand logged turn by turn whose log does
    not replay or made other melds and lay-offs than the hand's (issue 29); list the
    players with fewer cards than dealt whom nobody confirmed as missing cards (RULES.md
    §10), which is not an error."""
    from scorebook.models import Game, Hand, Meld
    from scorebook.services.hands import unconfirmed_short, verify
    from scorebook.services.played import verify_logs

    games = list(db.session.scalars(db.select(Game).order_by(Game.id).options(
        selectinload(Game.seats),
        selectinload(Game.hands).selectinload(Hand.melds).selectinload(Meld.cards),
        selectinload(Game.hands).selectinload(Hand.stranded),
        selectinload(Game.hands).selectinload(Hand.scores),
        selectinload(Game.hands).selectinload(Hand.played),
        selectinload(Game.hands).selectinload(Hand.played_moves),
    )))
    hands = sum(1 for g in games for h in g.hands if h.complete)
    problems = verify(games) + verify_logs(games)
    logs = sum(1 for g in games for h in g.hands if h.played is not None)
    short = unconfirmed_short(games)
    for line in problems + short:
        click.echo(line)
    if problems:
        raise click.ClickException(
            f"{len(problems)} difference(s) between the stored scores and the stored cards, "
            "or impossible hands, or logs that are not their hands'")
    points = sum(1 for g in games for h in g.hands if h.complete and h.points_only)
    click.echo(f"All {hands} stored hand(s) in {len(games)} game(s) match their cards"
               + (f" ({points} kept as points only: their points are ones a hand can score)."
                  if points else "."))
    if logs:
        click.echo(f"{logs} hand(s) logged turn by turn: each log replays, and made the "
                   "hand's melds and lay-offs.")
    if short:
        click.echo(f"{len(short)} player(s) in stored hands have fewer cards than were dealt, "
                   "and nobody confirmed that cards are missing (listed above): those hands "
                   "are probably incomplete (RULES.md §10).")


@scorebook_cli.command("stats")
def stats_command() -> None:
    """Count the cards of every finished game into the statistics cache now (the
    pages otherwise do it a few seconds at a time; worth running after an upgrade or
    an import of a league of thousands of games)."""
    from scorebook.models import League
    from scorebook.services import ratings
    from scorebook.services.stats import cache

    for league in db.session.scalars(db.select(League).order_by(League.id)):
        ratings.refresh(league.id)
        progress = cache.refresh(league.id)
        if progress.changed:
            click.echo(f"{league.name}: up to date, {progress.total} finished game(s).")
        else:
            click.echo(f"{league.name}: already up to date.")


def register_cli(app: Flask) -> None:
    from scorebook.services.backup import register_backup_cli

    app.cli.add_command(init_db_command)
    app.cli.add_command(scorebook_cli)
    register_backup_cli(app)  # flask backup, restore, league export/import
