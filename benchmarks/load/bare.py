"""A bare Flask page, served by gunicorn exactly as the scorebook is (same workers, same
bind, same run): the floor the scorebook's numbers are compared with.

    gunicorn --chdir benchmarks/load "bare:create_app()"
"""

from __future__ import annotations

from flask import Flask

PAGE = ("<!doctype html><html lang=en><head><meta charset=utf-8><title>Bare</title></head>"
        "<body><p>A bare Flask page.</p></body></html>")


def create_app() -> Flask:
    app = Flask(__name__)

    @app.get("/")
    def page() -> str:
        return PAGE

    return app
