"""How much one request may ask of the server.

- **Body size, per blueprint** (:data:`BODY_LIMITS`): the JSON API takes at most
  ``API_MAX_CONTENT_LENGTH`` (the largest question it can be asked, with room to spare),
  a league import ``IMPORT_MAX_CONTENT_LENGTH`` (a league of 5,000 games), every other
  page ``MAX_CONTENT_LENGTH``. The limit is set before anything reads the body — the
  CSRF check reads a form first — and a bigger body is a 413 that names the limit.
- **Work**: a question naming more cards than the decks in play hold, or more melds than
  they make, or nesting its JSON deeper than any question does, is refused before the
  referee searches anything (:mod:`scorebook.services.payloads`).
- **Rate**: the anonymous referee API allows ``REFEREE_RATE_LIMIT`` per client address
  (Flask-Limiter; every 429 says when to come back in ``Retry-After``).
"""

from __future__ import annotations

from flask import Flask, current_app, request

#: Blueprint or endpoint -> the config key of its body limit (an endpoint wins).
BODY_LIMITS = {
    "api": "API_MAX_CONTENT_LENGTH",
    "games_api": "API_MAX_CONTENT_LENGTH",
    "league.import_page": "IMPORT_MAX_CONTENT_LENGTH",
}


def body_limit() -> int | None:
    """The most bytes the current request's body may have."""
    key = BODY_LIMITS.get(request.endpoint or "") or BODY_LIMITS.get(request.blueprint or "")
    config = current_app.config
    return config.get(key) if key else config.get("MAX_CONTENT_LENGTH")


def set_body_limit() -> None:
    request.max_content_length = body_limit()


def size_text(size: int) -> str:
    """``131072`` → ``128 KB``; ``209715200`` → ``200 MB``."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):g} MB"
    return f"{size / 1024:g} KB"


def init_app(app: Flask) -> None:
    """Register before any other extension's hooks (the CSRF check reads the form)."""
    app.before_request(set_body_limit)
