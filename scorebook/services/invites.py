"""Invite links a phone can scan: "Add a phone" on the scoreboard and the league pages.

An invite link is a *door* into a league (:mod:`scorebook.services.access`): the scorer door
and the viewer door each open while the league stores the SHA-256 of a secret token,
and shut when the owner stops the link; making a new link changes the stored hash,
which signs out every browser that came in by the old one.

Only the hash is stored, so the token itself can be shown only on the browser that
made it.  The QR codes therefore carry a *door token* instead when the browser does
not know the token: ``<league id>.<HMAC-SHA256 of the door's stored hash>``, keyed
with the app's ``SECRET_KEY``.  It needs no storage, opens exactly the door it was
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
from urllib.parse import urlsplit, urlunsplit

import segno
from flask import current_app
from markupsafe import Markup

from scorebook.extensions import db
from scorebook.lan import is_loopback_host
from scorebook.models import League
from scorebook.plain_text import db_int
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
    key = str(current_app.config["SECRET_KEY"]).encode()
    message = f"scorebook-invite:{league.id}:{role}:{stored}".encode()
    mac = base64.urlsafe_b64encode(hmac.new(key, message, hashlib.sha256).digest())
    return f"{league.id}.{mac.decode().rstrip('=')}"


def opened_by(token: str) -> tuple[League, str] | None:
    """The league and role a door token opens, or None (not one, or its door changed).
    The league id is ASCII digits within the database's ids (``"²".isdigit()`` is true,
    and ``"١"`` reads as 1), and the token is compared as bytes (``compare_digest``
    raises on text that is not ASCII)."""
    head, dot, _mac = token.partition(".")
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


def open_door(league: League, role: str) -> str:
    """Make the role's invite link (the caller commits); returns its secret token."""
    token = access.new_token()
    setattr(league, f"{role}_token_hash", access.token_hash(token))
    return token


def token_here(league: League, role: str, known: dict[str, str]) -> str | None:
    """The token this browser made for the door, if it is still the one in use."""
    token = known.get(f"{league.id}:{role}")
    stored = _door_hash(league, role)
    if token and stored and access.token_hash(token) == stored:
        return token
    return None


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


def join_token(league: League, role: str, known: dict[str, str]) -> str | None:
    """The token of the link a phone scans to join ``league`` as ``role``: the one this
    browser made (``known``), else a door token; None while the door is shut."""
    return token_here(league, role, known) or door_token(league, role)


# --- the picture ---------------------------------------------------------------------------


def qr_svg(text: str, title: str) -> Markup:
    """The QR code of ``text`` as inline SVG: black on white with its quiet zone, sized by
    the page's CSS (``.qr-code``), named by ``title`` for screen readers."""
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(scale=1, border=QUIET_ZONE, omitsize=True, svgclass="qr-code",
                          lineclass=None, title=title, dark="#000", light="#fff")
    return Markup(svg.replace("<svg ", '<svg role="img" shape-rendering="crispEdges" ', 1))
