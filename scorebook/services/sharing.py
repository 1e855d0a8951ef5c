"""A finished game's result shared by link, for people outside the league.

A league is private (:mod:`scorebook.services.access`): its games answer 404 to anyone
who is not a member.  A shared result is the one way out: any member may make a link
to a finished game's result (:func:`share_game`), ``/results/<token>``, which shows
that game's scores to whoever holds it, read-only, and nothing else of the league (no
league name, no other game, no player page, no hand's cards).  The token is 256 random
bits (:func:`scorebook.services.access.new_token`), so links cannot be guessed; the
owner sees the league's links (:func:`shares_of`) and stops any of them
(:func:`stop_sharing`), after which it is a 404 like a token that never was.

A game has at most one link: sharing it again gives the same one, so every member's
Share button sends the same address.  Making and stopping a link are written in the
game's history (who, when); that also moves the game's version on, so the kept
scoreboards (:mod:`scorebook.web.pages`, :mod:`scorebook.web.boards`), which show the
link, are made again.
"""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorebook.extensions import db
from scorebook.models import FINISHED, SHARE_TOKEN_LENGTH, Game, League, SharedResult
from scorebook.services import access, history
from scorebook.services.errors import SentenceError, sentence
from scorebook.services.transaction import transaction

#: What a share token may look like: anything else is no token (and never reaches the
#: database, which would refuse a NUL on PostgreSQL).
TOKEN = re.compile(rf"[A-Za-z0-9_-]{{20,{SHARE_TOKEN_LENGTH}}}")


class SharingError(SentenceError):
    """A result that cannot be shared (see :class:`SentenceError`)."""


def share_of(game: Game) -> SharedResult | None:
    """The game's link, if it has one."""
    return db.session.scalar(select(SharedResult).where(SharedResult.game_id == game.id))


def share_game(game: Game) -> SharedResult:
    """The game's link, made now if it has none (and written in its history).  Only a
    finished game's result is shared.  Commits."""
    if game.status != FINISHED:
        raise SharingError(sentence("sharing.not-finished", number=game.number))
    found = share_of(game)
    if found is not None:
        return found
    device, player, _key = history.who(game.league_id)
    try:
        with transaction():
            shared = SharedResult(game_id=game.id, league_id=game.league_id,
                                  token=access.new_token(), device=device, player=player)
            db.session.add(shared)
            history.log(game, history.RESULT_SHARED)
    except IntegrityError:  # another phone made the game's link at that very moment
        found = share_of(game)
        if found is None:  # pragma: no cover (a token clash: 256 random bits)
            raise
        return found
    return shared


def stop_sharing(game: Game) -> bool:
    """Stop the game's link (True), or say there was none (False).  Commits."""
    with transaction():
        shared = share_of(game)
        if shared is None:
            return False
        db.session.delete(shared)
        history.log(game, history.SHARE_STOPPED)
    return True


def shared_game(token: str) -> Game | None:
    """The game a link's token shows, or None (no such link, or it was stopped)."""
    if not TOKEN.fullmatch(token):
        return None
    return db.session.scalar(select(Game).join(SharedResult, SharedResult.game_id == Game.id)
                             .where(SharedResult.token == token))


def shares_of(league: League) -> list[SharedResult]:
    """The league's shared results, latest first (the owner's list)."""
    return list(db.session.scalars(
        select(SharedResult).where(SharedResult.league_id == league.id)
        .order_by(SharedResult.created_at.desc(), SharedResult.id.desc())))
