"""Serving an app for the browser tests: on 127.0.0.1, a free port, in a thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask
from werkzeug.serving import make_server

from app import create_app
from scorebook.extensions import db


def sqlite_app(folder: Path, name: str) -> Flask:
    """A test app with its own SQLite file in ``folder``, tables created."""
    # The whole browser suite shares one address and one server: no rate limit for it.
    app = create_app({"TESTING": True, "SECRET_KEY": "browser-tests",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / name}",
                      "REFEREE_RATE_LIMIT": "1000000 per minute",
                      "REFEREE_MEMBER_RATE_LIMIT": "1000000 per minute"},
                     instance_path=folder)
    with app.app_context():
        db.create_all()
    return app


@contextmanager
def serve(app: Flask) -> Iterator[str]:
    """Serve ``app`` until the block ends; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        with app.app_context():
            db.session.remove()
