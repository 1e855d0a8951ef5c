"""Browsers creating (or renaming to) a league of the same name at the same moment
(issue 24): one gets the league, the others a clear form error, never a 500.

The phones are real HTTP clients in threads against a real server (werkzeug's threaded
server in this process), on a database file or ``TEST_DATABASE_URL`` (PostgreSQL), so
the database decides who was first."""

from __future__ import annotations

import os
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorebook.extensions import db
from scorebook.models import League
from tests.browser.serving import serve
from tests.conftest import PATIENCE_S

PHONES = 8
ROUNDS = 3
NAME = "The Riveras"
REFUSED = "That name cannot be used for this league"


@pytest.fixture
def server(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[tuple[Flask, str]]:
    config = {"PASSWORD_RATE_LIMIT": "100000 per minute",
              "SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": PHONES + 2}}
    if not os.environ.get("TEST_DATABASE_URL"):
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    app = make_app(**config)
    with serve(app) as url:
        yield app, url


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # a redirect is an answer: the league was made


class Phone:
    """A browser: its own cookies, posting forms, not following redirects."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(CookieJar()), _Stay())

    def post(self, path: str, form: dict[str, str]) -> tuple[int, str]:
        data = urllib.parse.urlencode(form).encode()
        try:
            with self.opener.open(self.base + path, data=data, timeout=PATIENCE_S) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as answer:
            return answer.code, answer.read().decode()


def at_once(phones: list[Phone], send: Callable[[Phone], tuple[int, str]]
            ) -> list[tuple[int, str]]:
    barrier = threading.Barrier(len(phones))
    answers: list[tuple[int, str]] = [(0, "")] * len(phones)

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = send(phones[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(phones))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=PATIENCE_S)
    assert not any(t.is_alive() for t in threads)
    return answers


def leagues_named(app: Flask, name: str) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(League.id)).where(
            func.lower(League.name) == name.lower())) or 0


def check(answers: list[tuple[int, str]]) -> None:
    statuses = Counter(status for status, _ in answers)
    assert statuses == {302: 1, 400: PHONES - 1}, statuses
    for status, page in answers:
        if status == 400:
            assert REFUSED in page  # the form again, with the reason by the name
            assert 'id="name-error"' in page


def test_browsers_creating_a_league_of_one_name_at_once(server: tuple[Flask, str]) -> None:
    app, url = server
    for k in range(ROUNDS):
        name = f"{NAME} {k}"
        form = {"name": name, "password": "a long secret", "confirm": "a long secret"}
        answers = at_once([Phone(url) for _ in range(PHONES)],
                          lambda phone, form=form: phone.post("/leagues/new", form))
        check(answers)
        assert leagues_named(app, name) == 1


def test_owners_renaming_their_leagues_to_one_name_at_once(server: tuple[Flask, str]) -> None:
    app, url = server
    phones = [Phone(url) for _ in range(PHONES)]
    for i, phone in enumerate(phones):
        status, _ = phone.post("/leagues/new", {"name": f"League {i}", "password":
                                                "a long secret", "confirm": "a long secret"})
        assert status == 302
    with app.app_context():
        ids = [league.id for league in db.session.scalars(select(League).order_by(League.id))]
    for k in range(ROUNDS):
        name = f"{NAME} again {k}"
        answers = at_once(phones, lambda phone, name=name: phone.post(
            f"/leagues/{ids[phones.index(phone)]}/name", {"name": name}))
        check(answers)
        assert leagues_named(app, name) == 1
