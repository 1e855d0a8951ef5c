"""The wording of the access sentences (see :mod:`scorebook.presenters.sentences`): why
a member may not do that (:class:`scorebook.services.access.AccessError`), and the name a
new private league starts with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext

from scorebook.presenters.sentences import words


@words("access.viewer-cannot-change")
def _viewer_cannot_change(p: Mapping[str, Any]) -> str:
    return str(gettext("Your link lets you follow this league, not change it. Ask its owner for "
                       "a scorer link."))


@words("access.owner-only")
def _owner_only(p: Mapping[str, Any]) -> str:
    return str(gettext("Only the league's owner can do that."))


@words("access.private-league-name")
def _private_league_name(p: Mapping[str, Any]) -> str:
    """The start of a new private league's name (a short code follows it)."""
    return str(gettext("Our table"))
