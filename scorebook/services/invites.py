"""Invite links a phone can scan: "Add a phone" on the scoreboard and the league pages.

An invite link is a *door* into a league (:mod:`scorebook.services.access`): the scorer door
and the viewer door each open while the league stores the SHA-256 of a secret token,
and shut when the owner stops the link; making a new link changes the stored hash,
which signs out every browser that came in by the old one.

Only the hash is stored, so the link itself can be shown only on the browser that
made it.  That browser keeps no token either: a link's token is made from a random
*seed* and the ``SECRET_KEY`` (:func:`link_token`), and the browser keeps only the seed
in its session cookie (signed, not encrypted: on a LAN's plain http anyone who reads the
cookie reads it), which opens nothing without the key; the server makes the token from
it again to show the link.  A phone that opened an invite and has not yet tapped *Join*
keeps a note of the door (:func:`invite_note`), never the token.  The QR codes carry a
*door token* instead when the browser did not make the link:
``<league id>.<HMAC-SHA256 of the door's stored hash>``, keyed with the app's
``SECRET_KEY``.  It needs no storage, opens exactly the door it was
made for, and follows that door's rules: it works while the link works, stops the
moment the owner stops or replaces the link, and the browsers it let in are signed
out with the others.  So any scorer can show a viewer code, and the owner can show
both codes on any device, without a link being made again.  Nobody can make one
without the ``SECRET_KEY`` (which signs every session anyway), and a random token
never holds a ``.``, so the two kinds never mix.

The links are absolute, made with ``PUBLIC_URL`` when it is set (``make run`` sets it
to the laptop's address on the network), so a page opened on the laptop as
``localhost`` still shows a code the phones can open (:func:`external_url`; the pages
make their links with :mod:`scorebook.presenters.links`, which hands it the request's address).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import segno
from flask import current_app
from markupsafe import Markup

from scorebook.extensions import db
from scorebook.lan import is_loopback_host
from scorebook.models import League
from scorebook.plain_text import MAX_ID, db_int
from scorebook.services import access
from scorebook.services.access import INVITE_ROLES

#: A QR code's quiet zone, in modules (the standard asks for 4).
QUIET_ZONE = 4


def _door_hash(league: League, role: str) -> str | None:
    return getattr(league, f"{role}_token_hash") if role in INVITE_ROLES else None


def door_token(league: League, role: str) -> str | None:
    """A token for the ``role`` door of ``league`` that any page may show, or None while
    that door is shut (no link, or the link was stopped)."""
    stored = _door_hash(league, role)
    if not stored:
        return None
    return f"{league.id}.{_mac(f'scorebook-invite:{league.id}:{role}:{stored}')}"


def opened_by(token: str) -> tuple[League, str] | None:
    """The league and role a door token opens, or None (not one, or its door changed).
    The league id is ASCII digits within the database's ids (``"²".isdigit()`` is true,
    and ``"١"`` reads as 1), and the token is compared as bytes (``compare_digest``
    raises on text that is not ASCII)."""
    head, dot, _signature = token.partition(".")
    league_id = db_int(head) if dot and head == head.strip() else None
    if league_id is None:
        return None
    league = db.session.get(League, league_id)
    if league is None:
        return None
    given = token.encode("utf-8", "surrogatepass")
    for role in INVITE_ROLES:
        expected = door_token(league, role)
        if expected is not None and hmac.compare_digest(expected.encode(), given):
            return league, role
    return None


def is_door_token(token: str) -> bool:
    return "." in token


def _mac(message: str) -> str:
    key = str(current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(key, message.encode("utf-8", "surrogatepass"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def link_token(league_id: int, role: str, seed: str) -> str:
    """The secret token of the invite link made with ``seed``: 256 bits no one can make
    without the ``SECRET_KEY`` (43 URL-safe characters, never a ``.``)."""
    return _mac(f"scorebook-link:{league_id}:{role}:{seed}")


def open_door(league: League, role: str) -> str:
    """Make the role's invite link, or replace it (the caller commits); returns the
    link's seed, which the browser that made it keeps to show the link again
    (:func:`token_here`).  Only the token's hash is stored."""
    seed = secrets.token_urlsafe(16)
    setattr(league, f"{role}_token_hash", access.token_hash(link_token(league.id, role, seed)))
    return seed


def link_key(league: League, role: str) -> str:
    """Where a browser keeps the seed of the ``role`` link it made for ``league``."""
    return f"{league.id}:{role}"


def token_here(league: League, role: str, seeds: dict[str, str]) -> str | None:
    """The token of the link this browser made for the door (``seeds``: what it kept,
    by :func:`link_key`), if that link is still the one in use."""
    seed = seeds.get(link_key(league, role))
    stored = _door_hash(league, role)
    if not seed or not stored:
        return None
    token = link_token(league.id, role, seed)
    return token if access.token_hash(token) == stored else None


# --- the invite a phone opened, until it joins ----------------------------------------------


def _door_fingerprint(league: League, role: str) -> str:
    return hashlib.sha256(f"scorebook-invite-note:{_door_hash(league, role)}".encode()
                          ).hexdigest()[:32]


def invite_note(league: League, role: str) -> list[Any]:
    """What a browser keeps of the invite it opened (``/join/<token>``) until it taps
    *Join* on ``/join``: the league, the role and a fingerprint of the door as it was,
    which opens nothing (the token would open the door to anyone who read the cookie)."""
    return [league.id, role, _door_fingerprint(league, role)]


def noted_invite(note: Any) -> tuple[League, str] | None:
    """The league and role of an :func:`invite_note`, or None once its door changed (the
    link was stopped or replaced) or if it is no note."""
    if not (isinstance(note, list) and len(note) == 3 and isinstance(note[0], int)
            and note[1] in INVITE_ROLES and isinstance(note[2], str)):
        return None
    league = db.session.get(League, note[0]) if 0 < note[0] <= MAX_ID else None
    if league is None or _door_hash(league, note[1]) is None:
        return None
    if not hmac.compare_digest(note[2].encode("utf-8", "surrogatepass"),
                               _door_fingerprint(league, note[1]).encode()):
        return None
    return league, str(note[1])


# --- absolute links ------------------------------------------------------------------------


def external_url(path: str, host_url: str) -> str:
    """The site's ``path`` as a full address another phone can open: on ``PUBLIC_URL``'s
    scheme and host when it is set, else on ``host_url`` (the address the request came to,
    ``http://host:port/``)."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        base = urlsplit(str(public))
        here = urlsplit(path)
        return urlunsplit((base.scheme, base.netloc, here.path, here.query, here.fragment))
    return host_url.rstrip("/") + path


def names_this_computer(url: str) -> bool:
    """True if ``url`` would open only on the computer that shows it (``localhost``)."""
    return is_loopback_host(urlsplit(url).hostname or "")


def join_token(league: League, role: str, seeds: dict[str, str]) -> str | None:
    """The token of the link a phone scans to join ``league`` as ``role``: the one this
    browser made (its ``seeds``), else a door token; None while the door is shut."""
    return token_here(league, role, seeds) or door_token(league, role)


# --- the picture ---------------------------------------------------------------------------


def qr_svg(text: str, title: str) -> Markup:
    """The QR code of ``text`` as inline SVG: black on white with its quiet zone, sized by
    the page's CSS (``.qr-code``), named by ``title`` for screen readers."""
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(scale=1, border=QUIET_ZONE, omitsize=True, svgclass="qr-code",
                          lineclass=None, title=title, dark="#000", light="#fff")
    return Markup(svg.replace("<svg ", '<svg role="img" shape-rendering="crispEdges" ', 1))
