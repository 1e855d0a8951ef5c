"""Kept pages shared by the workers of a machine (scorebook.web.shared_pages): a page one
worker rendered is served by another without rendering it again, only for the version it
was rendered from, and never to another database or another version of the site."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from itsdangerous import URLSafeTimedSerializer

from scorebook.web.shared_pages import SharedPages, shared_of

from .test_kept_pages import TOKEN, page, served
from .test_live import HAND, start


def workers(make_app: Callable[..., Flask], tmp_path: Path, count: int = 2
            ) -> list[Flask]:
    """``count`` apps on one database and one folder of shared pages, as the workers of
    a gunicorn on one machine (an in-memory SQLite database is each app's own: a file)."""
    database = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'db.sqlite3'}"
    config = {"KEPT_PAGES_SHARED": str(tmp_path / "kept-pages"),
              "SQLALCHEMY_DATABASE_URI": database, "SQLALCHEMY_ENGINE_OPTIONS": {}}
    return [make_app(**config) for _ in range(count)]


def same_browser(app: Flask, client: FlaskClient) -> FlaskClient:
    """Another worker's client carrying ``client``'s session cookie (the same phone)."""
    other = app.test_client()
    cookie = client.get_cookie("session")
    assert cookie is not None
    other.set_cookie("session", cookie.value)
    return other


def loads(app: Flask) -> int:
    store = shared_of(app)
    assert store is not None
    return store.loads


@pytest.mark.parametrize("path", ["/games/{id}", "/games/{id}/hands/new", "/games/{id}/board"])
def test_a_page_one_worker_rendered_is_served_by_another(make_app, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                        path: str) -> None:
    first, second = workers(make_app, tmp_path)
    phone = first.test_client()
    game = start(phone)
    path = path.format(id=game)
    page(phone, path)  # (after the redirect's flash: Flask's own, not kept)
    rendered = page(phone, path)  # rendered by the first worker, and shared
    other = same_browser(second, phone)
    before = served(second)
    shown = page(other, path)
    assert served(second) == before + 1, "the second worker rendered the page again"
    assert loads(second) == 1
    assert TOKEN.sub("", shown) == TOKEN.sub("", rendered)
    token = TOKEN.search(shown)
    if token:  # this session's own token, signed by the worker that served it
        with other.session_transaction() as s:
            raw = s["csrf_token"]
        assert URLSafeTimedSerializer(second.secret_key, salt="wtf-csrf-token").loads(
            token.group(1)) == raw
    page(other, path)
    assert loads(second) == 1  # kept in the second worker's memory from then on


def test_a_page_of_an_older_version_is_never_served(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first, second = workers(make_app, tmp_path)
    phone = first.test_client()
    game = start(phone)
    page(phone, f"/games/{game}")
    page(phone, f"/games/{game}")
    other = same_browser(second, phone)
    assert f'href="/games/{game}/hands/1"' not in page(other, f"/games/{game}")
    # the second worker saves a hand: the page the first worker shared is of the old version
    assert other.post(f"/games/{game}/hands/new", data=HAND).status_code == 302
    page(other, f"/games/{game}")  # (the flash)
    assert f'href="/games/{game}/hands/1"' in page(other, f"/games/{game}")
    # the first worker kept the old page in memory, and finds the new one shared
    before = loads(first)
    assert f'href="/games/{game}/hands/1"' in page(phone, f"/games/{game}")
    assert loads(first) == before + 1


def test_another_database_or_site_version_never_reads_them(tmp_path: Path) -> None:
    folder = tmp_path / "kept"
    mine = SharedPages(folder, salt="database A, code 1")
    mine.save(7, "3.2.9", ("page", "board", "en"), [b"<p>", b"</p>"], [b"x", b"y"],
              [("Content-Type", "text/html")])
    assert mine.load(7, "3.2.9", ("page", "board", "en")) == (
        [b"<p>", b"</p>"], [b"x", b"y"], [("Content-Type", "text/html")])
    assert mine.load(7, "3.2.10", ("page", "board", "en")) is None  # another version
    assert mine.load(7, "3.2.9", ("page", "board", "es")) is None  # another key
    assert mine.load(8, "3.2.9", ("page", "board", "en")) is None
    theirs = SharedPages.__new__(SharedPages)
    theirs.__dict__.update(mine.__dict__, salt="database B, code 1")
    assert theirs.load(7, "3.2.9", ("page", "board", "en")) is None


def test_a_cut_file_is_never_served(tmp_path: Path) -> None:
    store = SharedPages(tmp_path / "kept", salt="s")
    store.save(1, "1.1.1", "v", [b"a" * 100], [b"b" * 50], [])
    path = store.path(1, "v")
    path.write_bytes(path.read_bytes()[:-10])
    assert store.load(1, "1.1.1", "v") is None
    path.write_bytes(b"garbage")
    assert store.load(1, "1.1.1", "v") is None


def test_the_folder_stays_within_its_bound(tmp_path: Path) -> None:
    store = SharedPages(tmp_path / "kept", salt="s", max_bytes=40_000)
    for game in range(1, 301):
        store.save(game, "1.0.0", "v", [b"x" * 1000], [b"y" * 200], [])
    total = sum(p.stat().st_size for p in (tmp_path / "kept").glob("*.page"))
    assert total <= 40_000 + 100 * 1300  # pruned every 100 saves
    assert store.load(300, "1.0.0", "v") is not None  # the newest stay


def test_a_starting_worker_empties_the_folder(tmp_path: Path) -> None:
    store = SharedPages(tmp_path / "kept", salt="s")
    store.save(1, "1.1.1", "v", [b"a"], [b"b"], [])
    SharedPages(tmp_path / "kept", salt="s")
    assert store.load(1, "1.1.1", "v") is None


def test_off_in_the_tests_and_by_its_setting(make_app) -> None:  # type: ignore[no-untyped-def]
    assert shared_of(make_app()) is None
    assert shared_of(make_app(KEPT_PAGES_SHARED="off")) is None


def test_on_by_default_in_the_instance_folder(tmp_path: Path) -> None:
    from app import create_app

    app = create_app({"TESTING": False, "SECRET_KEY": "x",
                      "SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=tmp_path / "i")
    store = shared_of(app)
    assert store is not None
    assert store.folder == Path(app.instance_path) / "kept-pages"
    assert re.fullmatch(r"[0-9a-f]{32}", store.salt)


def test_one_worker_renders_while_the_others_wait_for_it(tmp_path: Path) -> None:
    import threading

    store = SharedPages(tmp_path / "kept", salt="s")
    assert store.claim(5, "v")  # this worker renders
    assert not store.claim(5, "v")  # another worker: it waits instead
    found: list[object] = []
    waiter = threading.Thread(target=lambda: found.append(store.wait(5, "2.0.0", "v")))
    waiter.start()
    store.save(5, "2.0.0", "v", [b"page"], [b"z"], [])
    store.release(5, "v")
    waiter.join()
    assert found == [([b"page"], [b"z"], [])]
    assert store.claim(5, "v")  # released: the next change is claimed again
    store.release(5, "v")


def test_a_dead_workers_claim_is_taken_over(tmp_path: Path) -> None:
    from scorebook.web import shared_pages

    store = SharedPages(tmp_path / "kept", salt="s")
    assert store.claim(5, "v")
    claim = store.path(5, "v").with_suffix(".rendering")
    old = claim.stat().st_mtime - shared_pages.STALE - 1
    os.utime(claim, (old, old))
    assert store.claim(5, "v")


def test_no_claim_is_left_after_a_page_is_rendered(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first, _second = workers(make_app, tmp_path)
    phone = first.test_client()
    game = start(phone)
    page(phone, f"/games/{game}")
    page(phone, f"/games/{game}/board")
    assert list((tmp_path / "kept-pages").glob("*.page"))
    assert not list((tmp_path / "kept-pages").glob("*.rendering"))
