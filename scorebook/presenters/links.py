"""Full addresses another phone can open: the invite links and the shared results'
links, made from the request's address (or ``PUBLIC_URL``:
:func:`scorebook.services.invites.external_url`)."""

from __future__ import annotations

from flask import request, url_for

from scorebook.models import League
from scorebook.services import invites


def external_url(endpoint: str, **values: object) -> str:
    """``url_for(endpoint, **values)`` as a full address another phone can open: on
    ``PUBLIC_URL``'s scheme and host when it is set, else the request's."""
    path = url_for(endpoint, **values)  # type: ignore[arg-type]
    return invites.external_url(path, request.host_url)


def join_url(league: League, role: str, known: dict[str, str], next_url: str | None = None
             ) -> str | None:
    """The link a phone scans to join ``league`` as ``role`` and land on ``next_url``;
    None while the door is shut."""
    token = invites.join_token(league, role, known)
    if token is None:
        return None
    values: dict[str, object] = {"token": token}
    if next_url:
        values["next"] = next_url
    return external_url("access.join", **values)
