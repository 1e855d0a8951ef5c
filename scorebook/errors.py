"""Error handlers: JSON under ``/api/``, a friendly page everywhere else.

The JSON body is always ``{"error": {"code": <slug>, "message": <text>}}``. A view
that calls ``abort(409, description="…")`` gets its own description as the message;
otherwise the message is a short, translated one for the status.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, jsonify, render_template, request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from scorebook import limits
from scorebook.models import TooLong

API_PREFIX = "/api/"

# status -> (slug for API clients, title for people, message for people)
ERRORS = {
    400: ("bad_request", _l("Bad request"), _l("The request could not be understood.")),
    403: ("forbidden", _l("Forbidden"), _l("You are not allowed to do that.")),
    404: (
        "not_found",
        _l("Page not found"),
        _l("There is nothing at this address. It may have been moved or deleted."),
    ),
    405: (
        "method_not_allowed",
        _l("Method not allowed"),
        _l("This address does not accept that kind of request."),
    ),
    409: (
        "conflict",
        _l("Conflict"),
        _l("That clashes with what is already recorded. Reload and try again."),
    ),
    413: ("payload_too_large", _l("Too large"), _l("What you sent is too large.")),
    415: (
        "unsupported_media_type",
        _l("Unsupported format"),
        _l("What you sent is not in a format this address accepts."),
    ),
    429: (
        "too_many_requests",
        _l("Too many tries"),
        _l("Too many tries from this device. Wait a few minutes, then try again."),
    ),
    500: (
        "internal_error",
        _l("Something went wrong"),
        _l("Something went wrong on our side. Nothing was saved; please try again."),
    ),
}
GENERIC_ERROR = ("error", _l("Error"), _l("The request could not be completed."))

STALE_FORM_MESSAGE = _l("The form was stale or opened in another tab; please try again.")


#: The header the offline queue sends a kept hand with (static/js/outbox.js): it reads
#: the answer, a refusal included, as JSON.
QUEUED_SEND = "X-Scorebook-Send"


def wants_json() -> bool:
    return request.path.startswith(API_PREFIX) or request.headers.get(QUEUED_SEND) == "queued"


def error_response(status: int, message: str | None = None, slug: str | None = None) -> Response:
    """The JSON or HTML response for ``status``; ``message`` replaces the default text."""
    default_slug, title, default_message = ERRORS.get(status, GENERIC_ERROR)
    text = message if message is not None else str(default_message)
    if wants_json():
        response = jsonify({"error": {"code": slug or default_slug, "message": text}})
    else:
        response = current_app.make_response(
            render_template("errors/error.html", status=status, title=title, message=text)
        )
    response.status_code = status
    return response


def custom_description(error: HTTPException) -> str | None:
    """The description a view passed to ``abort``, or None for Werkzeug's stock text."""
    if error.description and error.description != type(error).description:
        return error.description
    return None


def handle_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    if status >= 500:
        return handle_internal_error(error)
    message = custom_description(error)
    if status == 413 and message is None:
        limit = limits.body_limit()
        if limit:
            message = gettext("What you sent is larger than %(limit)s, the most this address "
                              "accepts.", limit=limits.size_text(limit))
    response = error_response(status, message)
    for name, value in error.get_headers():
        if name.lower() != "content-type":  # keep e.g. the Allow header of a 405
            response.headers[name] = value
    return response


def handle_internal_error(error: HTTPException) -> Response:
    original = getattr(error, "original_exception", None)
    current_app.logger.error(
        "%s %s failed with %s: %r",
        request.method,
        request.path,
        error.code,
        original if original is not None else error,
    )
    # Never show internals: the generic message only.
    return error_response(error.code if error.code and error.code >= 500 else 500)


def handle_csrf_error(error: CSRFError) -> Response:
    return error_response(400, str(STALE_FORM_MESSAGE), slug="csrf_failed")


def handle_too_long(error: TooLong) -> Response:
    """A text longer than its column (:class:`scorebook.models.TooLong`, on every
    database): the forms and the services say so in their own words first; this is the
    last word, never a 500. The write was rolled back."""
    current_app.logger.warning("refused a text too long for its column: %s", error)
    return error_response(400, gettext(
        "Something you sent is longer than the %(most)s characters it may have: nothing "
        "was saved.", most=error.length), slug="too_long")


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(CSRFError, handle_csrf_error)
    app.register_error_handler(TooLong, handle_too_long)
    app.register_error_handler(InternalServerError, handle_internal_error)
    app.register_error_handler(HTTPException, handle_http_exception)
