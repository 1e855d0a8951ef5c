"""Who may see and change a league: its owner, its scorers and its viewers.

A league is private.  A browser becomes a member in one of three ways, and its
memberships live in the signed session cookie (``session["leagues"]``):

- **owner** — it created the league (a quick game started by a browser that could
  score in no league gets a private league of its own), or it logged in with the
  league's name and password;
- **scorer** — it opened the league's scorer invite link: it may record, edit and
  delete hands, start games and keep the roster and the seasons;
- **viewer** — it opened the viewer invite link: it may read everything, change
  nothing.

Secrets are stored hashed: the password with werkzeug's salted hash, an invite
link's token with SHA-256 (a token is 256 random bits, so a fast hash is safe).
A membership remembers, beside its role, a fingerprint of the secret that let
the browser in (:func:`_fingerprint`): rotating or revoking a link therefore
signs out every browser that joined with it, and changing the password signs
out the owner's other devices, although no session is stored on the server.

Every request whose URL names a game or a league is checked before its view runs
(:func:`scorebook.web.membership.check_request`, which reads the request and the
session and hands them to these checks as a :class:`Browser`): a browser that is not a
member gets a 404, exactly as for a game that does not exist, so ids cannot be probed; a
member whose role is too low gets a 403 (:func:`check_role`).  Reading (GET, HEAD,
OPTIONS) needs a viewer, any other method a scorer, and a view marked with
:func:`requires` what it says (a page that exists only to make a change, like the form
that records a hand, is marked for a scorer: a viewer gets the 403 before typing
anything).  Pages show only the controls
the browser's role can use (:func:`can_write`, ``league_can_write`` in templates).  The
league pages (``/league/…``) are about the browser's current league
(:func:`current_league_or_none`); without one they send the browser to ``/leagues``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import bindparam, func, select, text
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from scorebook.extensions import db
from scorebook.models import EndedMembership, Game, League
from scorebook.plain_text import db_int
from scorebook.services import history
from scorebook.services.errors import Sentence, sentence
from scorebook.services.transaction import transaction

VIEWER = "viewer"
SCORER = "scorer"
OWNER = "owner"
RANK = {VIEWER: 1, SCORER: 2, OWNER: 3}
#: The roles an invite link can carry.
INVITE_ROLES = (SCORER, VIEWER)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

MIN_PASSWORD_LENGTH = 8
MAX_PASSWORD_LENGTH = 200
MAX_LEAGUE_NAME = 80

F = TypeVar("F", bound=Callable[..., Any])

#: A hash to check wrong names against, so a login takes as long for a league that
#: does not exist as for a wrong password (the name cannot be probed by timing).
_DUMMY_HASH = generate_password_hash("not a password: no league has this hash")


# --- secrets ------------------------------------------------------------------------------


def new_token() -> str:
    """The secret part of a new invite link (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored of an invite token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def hash_password(password: str) -> str:
    return generate_password_hash(password)


def password_matches(league: League | None, password: str) -> bool:
    """True if ``league`` has a password and this is it (constant work either way)."""
    stored = league.password_hash if league is not None else None
    ok = check_password_hash(stored or _DUMMY_HASH, password)
    return bool(stored) and ok


def _door(league: League | Doors, role: str) -> str | None:
    """The stored secret a membership of ``role`` depends on (None: the door is shut)."""
    if role == OWNER:
        return league.password_hash or ""
    if role == SCORER:
        return league.scorer_token_hash
    if role == VIEWER:
        return league.viewer_token_hash
    return None


def _fingerprint(door: str) -> str:
    return hashlib.sha256(b"scorebook-member:" + door.encode()).hexdigest()[:16]


# --- a league's name ------------------------------------------------------------------------


class LeagueNameTaken(Exception):
    """Another league has that name (letter case aside), or took it at the same moment.
    The pages refuse it without naming or confirming the other league."""


def league_name_taken(name: str, league: League | None = None) -> bool:
    """True if a league other than ``league`` has this name, whatever its letter case."""
    found = db.session.scalar(select(League.id).where(func.lower(League.name) == name.lower()))
    return found is not None and (league is None or found != league.id)


def create_league(name: str, password: str) -> League:
    """A new league of that name, owned by whoever holds ``password``.  Two browsers
    making a league of one name at the same moment both pass the check; the database's
    unique name lets one in and the other gets :class:`LeagueNameTaken`, as it would
    have a moment later (nothing of it is written)."""
    if league_name_taken(name):
        raise LeagueNameTaken(name)
    password_hash = hash_password(password)
    try:
        with transaction():
            league = League(name=name, password_hash=password_hash)
            db.session.add(league)
    except IntegrityError:
        raise LeagueNameTaken(name) from None
    return league


def rename_league(league: League, name: str) -> None:
    """Give ``league`` a new name (:class:`LeagueNameTaken` as for :func:`create_league`,
    the league keeping its name)."""
    if league_name_taken(name, league):
        raise LeagueNameTaken(name)
    try:
        with transaction():
            league.name = name
    except IntegrityError:  # (rolled back: the league reads its old name again)
        raise LeagueNameTaken(name) from None


# --- memberships in the session -------------------------------------------------------------


@dataclass(eq=False)
class Browser:
    """A browser, as its signed session cookie shows it to these checks: ``store`` is the
    session itself (its ``"leagues"``: each membership's role, fingerprint and key; its
    ``"league"``: the league it has open), read afresh at every check since a request may
    join or leave a league.  The web layer makes one per request and hands it in; the
    services read no request.  ``ended_keys`` remembers which of the session's membership
    keys were ended by leaving (asked once), ``ended_in_league`` the same for the league a
    game URL names (known from :func:`doors_of_game`'s query)."""

    store: Mapping[str, Any]
    ended_keys: set[str] | None = None
    ended_in_league: tuple[int, set[str]] | None = None


def _memberships(store: Mapping[str, Any]) -> dict[str, Any]:
    raw = store.get("leagues")
    return dict(raw) if isinstance(raw, dict) else {}


def _new_key() -> str:
    """A membership's own key: what "leave" ends on the server (:class:`EndedMembership`)."""
    return secrets.token_hex(16)


def remember(store: MutableMapping[str, Any], league: League, role: str) -> None:
    """Make this browser a member of ``league`` as ``role`` (and open the league).
    A browser keeps its highest role: joining with a viewer link never demotes a scorer.
    Each membership has a key of its own, which leaving the league ends server-side."""
    leagues = _memberships(store)
    entry: Any = leagues.get(str(league.id))  # (as the cookie had it: _valid_role checks it)
    held = _valid_role(Browser(store), league, entry)
    if held is not None and RANK[held] > RANK[role]:
        role = held
    door = _door(league, role)
    assert door is not None, "a membership needs an open door"
    key = entry[2] if held is not None and len(entry) == 3 else _new_key()
    leagues[str(league.id)] = [role, _fingerprint(door), key]
    store["leagues"] = leagues
    store["league"] = league.id


def forget(store: MutableMapping[str, Any], league_id: int, agent: str = "") -> None:
    """Leave the league on this browser, and end the membership on the server: a copy of
    this session cookie no longer opens it either (the caller commits).  The owner sees
    who left (:func:`left`): the role this browser held, its browser and system (from
    ``agent``, its User-Agent) and the player name it joined as."""
    leagues = _memberships(store)
    entry = leagues.pop(str(league_id), None)
    key = entry[2] if isinstance(entry, list | tuple) and len(entry) == 3 else None
    if (isinstance(key, str) and db.session.get(EndedMembership, key) is None
            and db.session.get(League, league_id) is not None):
        role = str(entry[0]) if entry[0] in RANK else ""
        db.session.add(EndedMembership(
            key=key, league_id=league_id, role=role,
            device=history.describe_agent(agent)[:80],
            player=history.player_of(store, league_id)))
    store["leagues"] = leagues
    if store.get("league") == league_id:
        store.pop("league", None)


#: How many of the latest departures the owner's settings list.
LEFT_SHOWN = 50


def left(league: League, limit: int = LEFT_SHOWN) -> list[EndedMembership]:
    """The browsers that left ``league`` (their memberships ended by leaving), the latest
    first: what its owner is shown."""
    return list(db.session.scalars(
        select(EndedMembership).where(EndedMembership.league_id == league.id)
        .order_by(EndedMembership.ended_at.desc(), EndedMembership.key).limit(limit)))


def _session_keys(browser: Browser) -> list[str]:
    return [e[2] for e in _memberships(browser.store).values()
            if isinstance(e, list) and len(e) == 3 and isinstance(e[2], str)]


def _ended(browser: Browser, league_id: int, key: str) -> bool:
    """True if this membership was ended by leaving. Known from the doors query for the
    league a game URL names (:func:`doors_of_game`); otherwise one query (per browser:
    a request) for every key of the session."""
    known = browser.ended_in_league
    if known is not None and known[0] == league_id:
        return key in known[1]
    if browser.ended_keys is None:
        keys = _session_keys(browser)
        browser.ended_keys = set(db.session.scalars(select(EndedMembership.key).where(
            EndedMembership.key.in_(keys)))) if keys else set()
    return key in browser.ended_keys


def _valid_role(browser: Browser, league: League | Doors, entry: Any) -> str | None:
    if not (isinstance(entry, list | tuple) and len(entry) in (2, 3)):
        return None
    role, fingerprint = entry[0], entry[1]
    if role not in RANK or not isinstance(fingerprint, str):
        return None
    door = _door(league, role)
    if door is None or not hmac.compare_digest(fingerprint.encode("utf-8", "surrogatepass"),
                                               _fingerprint(door).encode()):
        return None
    if len(entry) == 3 and (not isinstance(entry[2], str)
                            or _ended(browser, league.id, entry[2])):
        return None
    return str(role)


def give_keys(store: MutableMapping[str, Any]) -> None:
    """Give a key to each membership made before memberships had one (so that leaving
    can end it); a session without such an entry is left as it is."""
    leagues = _memberships(store)
    old = [k for k, e in leagues.items() if isinstance(e, list) and len(e) == 2]
    if old:
        for k in old:
            leagues[k] = [*leagues[k], _new_key()]
        store["leagues"] = leagues


def role_in(browser: Browser, league: League | Doors | None) -> str | None:
    """This browser's role in ``league``, or None if it is not (or no longer) a member."""
    if league is None:
        return None
    return _valid_role(browser, league, _memberships(browser.store).get(str(league.id)))


def has_role(browser: Browser, league: League | Doors | None, role: str) -> bool:
    held = role_in(browser, league)
    return held is not None and RANK[held] >= RANK[role]


def member_leagues(browser: Browser) -> list[tuple[League, str]]:
    """Every league this browser is a member of, with its role, by name."""
    ids = [i for i in map(db_int, _memberships(browser.store)) if i is not None]
    if not ids:
        return []
    leagues = db.session.scalars(select(League).where(League.id.in_(ids))
                                 .order_by(func.lower(League.name), League.id))
    found = []
    for league in leagues:
        role = role_in(browser, league)
        if role is not None:
            found.append((league, role))
    return found


def holds_membership(browser: Browser) -> bool:
    """True if this browser's session names a membership of some league (a role and its
    fingerprint), without asking the database whether it still opens that league: for
    what any browser may have anyway (starting a game makes it the owner of a league
    of its own), such as the referee API's higher rate limit (a question asked at
    almost every tap costs no statement).  Who may see or change a league is never
    decided by this: :func:`role_in` is."""
    return any(db_int(league_id) is not None and isinstance(entry, list)
               and len(entry) in (2, 3) and entry[0] in RANK and isinstance(entry[1], str)
               for league_id, entry in _memberships(browser.store).items())


def current_league_or_none(browser: Browser) -> League | None:
    """The league this browser has open: the one it opened last, else the first it is a
    member of; None when it is a member of none."""
    chosen = browser.store.get("league")
    league = db.session.get(League, chosen) if isinstance(chosen, int) else None
    if role_in(browser, league) is None:
        leagues = member_leagues(browser)
        league = leagues[0][0] if leagues else None
    return league


def league_to_score_in(browser: Browser) -> League | None:
    """Where a game this browser starts goes: the open league if it may score there,
    else the first league it may score in, else None (a new private league)."""
    league = current_league_or_none(browser)
    if has_role(browser, league, SCORER):
        return league
    return next((lg for lg, role in member_leagues(browser) if RANK[role] >= RANK[SCORER]),
                None)


def private_league_name(base: str) -> str:
    """A name for a new private league: ``base`` ("Our table", in the words of the browser
    that makes it) and a short code no league has."""
    for size in (2, 2, 2, 3, 3, 4, 8):
        name = f"{base} {secrets.token_hex(size).upper()}"
        taken = db.session.scalar(select(League.id).where(
            func.lower(League.name) == name.lower()))
        if taken is None:
            return name
    raise RuntimeError("no free league name")  # pragma: no cover


def new_private_league(base: str) -> League:
    """A league for a browser that has none to score in, named from ``base``
    (:func:`private_league_name`; not yet added to the session: the caller adds it with
    the game, and calls :func:`remember` once committed)."""
    return League(name=private_league_name(base))


# --- checking requests -------------------------------------------------------------------------


class AccessError(Exception):
    """This browser may not do that: ``status`` 404 for a stranger (as if nothing were
    there; no ``sentence``: there is nothing to say), 403 for a member whose role is too
    low (``sentence`` says why, worded by the presenters' ``say``); ``code`` for programs."""

    def __init__(self, status: int, code: str, said: Sentence | None = None) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.sentence = said


def requires(role: str) -> Callable[[F], F]:
    """Mark a view as needing ``role`` in the league its URL names (or the open league),
    whatever its method."""

    def mark(view: F) -> F:
        view.access_role = role  # type: ignore[attr-defined]
        return view

    return mark


def role_needed(view: Any, method: str) -> str:
    """What a request for ``view`` with ``method`` needs: the view's mark
    (:func:`requires`), else a viewer to read and a scorer to change anything."""
    marked = getattr(view, "access_role", None)
    if marked in RANK:
        return str(marked)
    return VIEWER if method in SAFE_METHODS else SCORER


def check_role(browser: Browser, league: League | Doors | None, role: str) -> str:
    """The role this browser holds in ``league``, if it is ``role`` or higher; else an
    :class:`AccessError`: 404 for a stranger, 403 for a member whose role is too low."""
    held = role_in(browser, league)
    if league is None or held is None:
        raise AccessError(404, "access.not-a-member")
    if RANK[held] < RANK[role]:
        if held == VIEWER:
            raise AccessError(403, "access.viewer-cannot-change",
                              sentence("access.viewer-cannot-change"))
        raise AccessError(403, "access.owner-only", sentence("access.owner-only"))
    return held


class Doors(NamedTuple):
    """What a membership of a league is checked against (its stored secrets)."""

    id: int
    password_hash: str | None
    scorer_token_hash: str | None
    viewer_token_hash: str | None


#: One indexed query in plain SQL, built once: every phone showing a game polls its
#: version each second, and building an ORM statement would cost more than the query.
#: (It also finds which of the session's membership keys were ended in that league.)
DOORS_OF_GAME_SQL = text(
    f"SELECT l.id, l.password_hash, l.scorer_token_hash, l.viewer_token_hash,"
    f" (SELECT MIN(e.key) FROM {EndedMembership.__tablename__} e"
    f"  WHERE e.league_id = l.id AND e.key IN :keys)"
    f" FROM {Game.__tablename__} g JOIN {League.__tablename__} l ON l.id = g.league_id"
    f" WHERE g.id = :game_id").bindparams(bindparam("keys", expanding=True))


def doors_of_game(game_id: int, browser: Browser | None = None) -> Doors | None:
    """The doors of the league a game belongs to, or None if there is no such game.  With
    a ``browser``, which of its membership keys were ended there is learnt on the way."""
    keys = _session_keys(browser) if browser is not None else []
    row = db.session.execute(DOORS_OF_GAME_SQL, {"game_id": game_id,
                                                 "keys": keys or [""]}).first()
    if row is None:
        return None
    if browser is not None:
        browser.ended_in_league = (row[0], {row[4]} if row[4] else set())
    return Doors(*row[:4])


def can_write(browser: Browser, league: League | Doors | None) -> bool:
    """True if this browser may change ``league``: record, edit and delete hands, keep
    its roster and seasons (a scorer or its owner).  Pages use it to show a viewer no
    control that would only answer 403."""
    return has_role(browser, league, SCORER)
