"""This request's browser: the web side of :mod:`scorebook.services.access` and of the
history's writers.

The access service decides who may do what from a
:class:`~scorebook.services.access.Browser` (the signed session's memberships) handed to
it; this module makes that value from the request's session, once per request, checks
every request before its view runs (:func:`check_request`), turns a refusal into the 404
or 403 page, and gives the templates their ``league_role``, ``league_can_write`` and
``league_settings_url``.  It also names the request's browser as the writer of the
history entries logged while the request lasts (:class:`scorebook.services.history.Writer`).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, abort, current_app, g, redirect, request, session, url_for

from scorebook.extensions import db
from scorebook.models import League
from scorebook.presenters.sentences import say
from scorebook.services import access, history, invites
from scorebook.services.access import OWNER, Browser, Doors
from scorebook.services.errors import sentence


def browser() -> Browser:
    """This request's browser (its session), made once per request."""
    found = g.get("browser")
    if not isinstance(found, Browser):
        found = g.browser = Browser(session)
    return found


def role_in(league: League | Doors | None) -> str | None:
    """This browser's role in ``league``, or None if it is not (or no longer) a member."""
    return access.role_in(browser(), league)


def has_role(league: League | Doors | None, role: str) -> bool:
    return access.has_role(browser(), league, role)


def can_write(league: League | Doors | None) -> bool:
    """True if this browser may change ``league`` (:func:`scorebook.services.access.can_write`)."""
    return access.can_write(browser(), league)


def member_leagues() -> list[tuple[League, str]]:
    """Every league this browser is a member of, with its role, by name."""
    return access.member_leagues(browser())


def current_league_or_none() -> League | None:
    """The league this browser has open (:func:`scorebook.services.access.current_league_or_none`).
    Not cached: the session may change within a request; ``g.current_league`` is set for
    the page's language."""
    league = access.current_league_or_none(browser())
    g.current_league = league
    return league


def current_league(role: str | None = None) -> League:
    """The open league, if this browser may do what the request asks there (``role``,
    else by the method).  Without a league: a redirect to the page that opens one."""
    league = current_league_or_none()
    if league is None:
        abort(redirect(url_for("access.leagues", next=request.full_path.rstrip("?"))))
    require(league, role or needed_role())
    return league


def league_to_score_in() -> League | None:
    """Where a game this browser starts goes (None: a new private league)."""
    return access.league_to_score_in(browser())


def new_private_league() -> League:
    """A league for a browser that has none to score in, named in its language."""
    return access.new_private_league(say(sentence("access.private-league-name")))


def needed_role() -> str:
    """What the current request needs: the view's mark, else a viewer to read and a
    scorer to change anything."""
    return access.role_needed(current_app.view_functions.get(request.endpoint or ""),
                              request.method)


def require(league: League | Doors | None, role: str) -> str:
    """Abort unless this browser holds ``role`` (or higher) in ``league``: 404 for a
    stranger (as if nothing were there), 403 for a member whose role is too low."""
    try:
        held = access.check_role(browser(), league, role)
    except access.AccessError as refused:
        if refused.sentence is None:
            abort(refused.status)
        abort(refused.status, description=say(refused.sentence))
    if isinstance(league, League):
        g.league = league  # the page's language may follow the league's
    return held


def doors_of_game(game_id: int) -> Doors | None:
    """The doors of the league a game belongs to, or None if there is no such game."""
    return access.doors_of_game(game_id, browser())


def check_request() -> None:
    """Before every view: a URL that names a game or a league needs a member."""
    access.give_keys(session)
    if "links" in session:  # raw invite tokens, kept by an older version: never again
        session.pop("links")
    args = request.view_args or {}
    game_id = args.get("game_id")
    league_id = args.get("league_id")
    if isinstance(game_id, int):
        doors = doors_of_game(game_id)
        require(doors, needed_role())
        assert doors is not None
        g.league_id = doors.id
        g.doors = doors  # (the board's fast path asks whether this browser may write)
    elif isinstance(league_id, int):
        require(db.session.get(League, league_id), needed_role())


#: Where the session keeps the seeds of the invite links this browser made
#: (:func:`scorebook.services.invites.open_door`): seeds, never tokens.
LINK_SEEDS = "link_seeds"


def link_seeds() -> dict[str, str]:
    """The seeds of the invite links this browser made, by league and role."""
    raw = session.get(LINK_SEEDS)
    return {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}


def keep_link_seed(league: League, role: str, seed: str | None) -> None:
    """Remember (or, with None, forget) the seed of the ``role`` link this browser made."""
    seeds = link_seeds()
    key = invites.link_key(league, role)
    if seed is None:
        seeds.pop(key, None)
    else:
        seeds[key] = seed
    session[LINK_SEEDS] = seeds


def settings_url() -> str | None:
    """The settings page of the league this page is about, if this browser owns it."""
    league = g.get("league")
    if isinstance(league, League) and role_in(league) == OWNER:
        return url_for("access.settings", league_id=league.id)
    return None


def template_globals() -> dict[str, Any]:
    """Globals for every template, imported macros included."""
    return {"league_role": role_in, "league_settings_url": settings_url,
            "league_can_write": can_write,
            "ROLE_OWNER": access.OWNER, "ROLE_SCORER": access.SCORER,
            "ROLE_VIEWER": access.VIEWER}


def _write_as_this_browser() -> None:
    history.writing_as(history.Writer(request.headers.get("User-Agent", ""), session))


def _write_as_nobody(_exc: BaseException | None = None) -> None:
    history.writing_as(None)


def init_app(app: Flask) -> None:
    """Check every request before its view; log its writes as its browser's; give the
    templates their globals."""
    app.before_request(check_request)
    app.before_request(_write_as_this_browser)
    app.teardown_request(_write_as_nobody)
    app.jinja_env.globals.update(template_globals())
