"""HTTP security: response headers, the session cookie, proxies and who is checked.

- Every response carries a Content-Security-Policy that allows scripts, styles and
  images from the site only (no inline script or style attribute runs), denies
  framing, and keeps the referrer on the site (:data:`HEADERS`).
- The session cookie is HttpOnly and SameSite=Lax always; it is Secure when
  ``SESSION_COOKIE_SECURE`` is True, or, with the default ``"auto"``, whenever the
  request came over HTTPS (so ``make run`` still serves phones on the LAN over http).
- The cookie is sent when the session changed (joining, leaving, logging in or out, a
  new language, a form's first CSRF token), and an unchanged permanent session's once
  it is older than ``SESSION_RENEW_AFTER`` (a day: its 400-day expiry moves on with
  the visits), never on every page (``SESSION_REFRESH_EACH_REQUEST = False``; True
  brings Flask's re-signing on every answer back): a phone's cookie stays the same
  bytes from one page to the next, so what its browser keeps does not change with it.
- Static files (:data:`STATIC_ENDPOINTS`) never send the cookie unless the session
  changed, and never say ``Vary: Cookie``: they are the same files whoever asks, so a
  browser's (or a proxy's) cached copy stays good for every session.
- ``TRUSTED_PROXIES`` reverse proxies are believed about the client's address,
  scheme and host (Werkzeug's ProxyFix, the outermost WSGI layer: the answers given
  before Flask, :mod:`scorebook.web.poll` and :mod:`scorebook.web.pages`, see the
  request as Flask does).
- Every answer to a request that came over HTTPS — served with ``CERTFILE``/``KEYFILE``,
  or through a trusted proxy that says ``X-Forwarded-Proto: https`` — carries
  ``Strict-Transport-Security: max-age=HSTS_MAX_AGE`` (those given before Flask too);
  never one over plain http, where the phones on a LAN are served.
- Who may see what is checked before every view by
  :func:`scorebook.web.membership.check_request` (registered by ``app.py`` next to this).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

from flask import Flask, Request, Response, has_request_context, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature
from werkzeug.middleware.proxy_fix import ProxyFix

from scorebook.assets import STATIC_ENDPOINTS

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
}


#: Answers that never renew an unchanged session cookie: the version poll (every phone,
#: every second) and static files. The pages the phones open renew it when it is due.
NO_REFRESH_ENDPOINTS = STATIC_ENDPOINTS | {"live.version"}


class SignedSession(SecureCookieSession):
    """Flask's cookie session, knowing when its cookie was signed (None: no cookie came)."""

    signed_at: float | None = None


def renewal_due(app: Flask, signed_at: float | None, now: float | None = None) -> bool:
    """Whether an unchanged permanent session's cookie, signed at ``signed_at``, is sent
    again: on every answer with ``SESSION_REFRESH_EACH_REQUEST`` (Flask's way), else
    once it is ``SESSION_RENEW_AFTER`` old.  (The kept pages ask the same.)"""
    if app.config["SESSION_REFRESH_EACH_REQUEST"] or signed_at is None:
        return True
    after = app.config.get("SESSION_RENEW_AFTER", timedelta(days=1))
    seconds = after.total_seconds() if isinstance(after, timedelta) else float(after)
    return (time.time() if now is None else now) - signed_at >= seconds


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, Secure per request with ``SESSION_COOKIE_SECURE =
    "auto"``, sent again only when it changed or is due (:func:`renewal_due`), never by
    the :data:`NO_REFRESH_ENDPOINTS` unless it changed; no ``Vary: Cookie`` on static
    files."""

    session_class = SignedSession

    def open_session(self, app: Flask, request: Request) -> SignedSession | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return SignedSession()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:
            data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return SignedSession()
        session = SignedSession(data)
        session.signed_at = signed.timestamp()
        return session

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        if not session.permanent or request.endpoint in NO_REFRESH_ENDPOINTS:
            return False
        return renewal_due(app, getattr(session, "signed_at", None))

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        super().save_session(app, session, response)
        if request.endpoint in STATIC_ENDPOINTS and "Set-Cookie" not in response.headers:
            vary = [v for v in response.vary if v.lower() != "cookie"]  # the same file
            if vary:                                                    # for every session
                response.headers["Vary"] = ", ".join(vary)
            else:
                response.headers.pop("Vary", None)

    def get_cookie_secure(self, app: Flask) -> bool:
        setting = app.config["SESSION_COOKIE_SECURE"]
        if setting == "auto":
            return has_request_context() and request.is_secure
        return bool(setting)


def add_security_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class StrictTransport:
    """WSGI: ``Strict-Transport-Security`` on every answer to a request that came over
    HTTPS (``wsgi.url_scheme``, which the trusted proxies' ProxyFix, outside this, has
    set from ``X-Forwarded-Proto``), whoever answers it: Flask, or the kept pages and
    the version poll before it."""

    def __init__(self, wrapped: Callable[..., Iterable[bytes]], max_age: int) -> None:
        self.wrapped = wrapped
        self.header = ("Strict-Transport-Security", f"max-age={max_age}")

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        if environ.get("wsgi.url_scheme") != "https":
            return self.wrapped(environ, start_response)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if not any(name.lower() == "strict-transport-security" for name, _ in headers):
                headers = [*headers, self.header]
            return start_response(status, headers, exc_info)

        return self.wrapped(environ, start)


def init_app(app: Flask) -> None:
    app.session_interface = SessionInterface()
    app.after_request(add_security_headers)


def init_front(app: Flask) -> None:
    """The outermost WSGI layers, wrapped last (after every other ``wsgi_app`` layer):
    the trusted proxies' headers read first, then HSTS added to whatever answers."""
    max_age = int(app.config["HSTS_MAX_AGE"])
    if max_age < 0:
        raise ValueError(f"HSTS_MAX_AGE must be 0 or more seconds, not {max_age}")
    app.wsgi_app = StrictTransport(app.wsgi_app, max_age)  # type: ignore[method-assign]
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
