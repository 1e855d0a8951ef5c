"""The rendered-scoreboard cache (scorebook.web.boards): bounded by bytes, one version per
game, never serving a board of another version; and the partial board fetch
(``GET /games/<id>/board``) that live.js makes instead of the whole page."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from markupsafe import Markup

from scorebook.web.boards import BoardCache, cached_board

from .test_live import HAND, start, version_of


def board(n: int, size: int = 1000) -> Markup:
    return Markup(f"<b>{n}</b>" + "x" * (size - len(f"<b>{n}</b>")))


def test_the_cache_stays_under_its_byte_bound() -> None:
    cache = BoardCache(max_bytes=10_000)
    for game in range(1, 200):
        for version in range(3):
            cache.put(game, f"{version}.0.0", ("en",), board(game, 900 + version))
            assert cache.bytes <= 10_000
    assert cache.bytes == sum(len(h.encode()) for _v, h, _s in cache._boards.values())
    assert len(cache) <= 10_000 // 900
    # the most recent games are the ones kept
    assert cache.get(199, "2.0.0", ("en",)) is not None
    assert cache.get(1, "2.0.0", ("en",)) is None


def test_non_ascii_boards_count_their_bytes() -> None:
    cache = BoardCache(max_bytes=4_000)
    for game in range(10):
        cache.put(game, "1.0.0", (), Markup("ñ" * 500))  # 1,000 bytes each
    assert cache.bytes <= 4_000 and len(cache) == 4


def test_a_board_too_big_for_the_cache_is_not_kept() -> None:
    cache = BoardCache(max_bytes=4_000)
    cache.put(1, "1.0.0", (), board(1, 1_001))
    assert len(cache) == 0 and cache.bytes == 0


def test_a_new_version_drops_every_old_board_of_the_game() -> None:
    cache = BoardCache()
    cache.put(7, "1.1.1", ("en", True), board(1))
    cache.put(7, "1.1.1", ("es", True), board(2))
    cache.put(8, "1.1.1", ("en", True), board(3))
    cache.put(7, "2.2.2", ("en", True), board(4))  # the game changed
    assert cache.get(7, "1.1.1", ("es", True)) is None  # never served again
    assert cache.versions() == {7: "2.2.2", 8: "1.1.1"}
    assert len(cache) == 2 and cache.bytes == 2000
    # a phone asking with the new version drops the old boards even before any is put
    assert cache.get(8, "9.9.9", ("en", True)) is None
    assert cache.versions() == {7: "2.2.2"}


def test_a_board_is_only_served_for_its_own_version() -> None:
    cache = BoardCache()
    rendered: list[str] = []

    def render(text: str):  # type: ignore[no-untyped-def]
        def go() -> Markup:
            rendered.append(text)
            return Markup(text)
        return go

    assert cached_board(cache, 1, "1.0.0", (), render("one")) == "one"
    assert cached_board(cache, 1, "1.0.0", (), render("again")) == "one"
    assert cached_board(cache, 1, "2.0.0", (), render("two")) == "two"
    assert cached_board(cache, 1, "1.0.0", (), render("old")) == "old"  # rendered, not "two"
    assert cached_board(cache, 1, None, (), render("unknown")) == "unknown"
    assert rendered == ["one", "two", "old", "unknown"]


def test_the_app_keeps_boards_within_its_configured_bound(
        make_app) -> None:  # type: ignore[no-untyped-def]
    app: Flask = make_app(BOARD_CACHE_BYTES=200_000)
    client = app.test_client()
    game = start(client)
    sizes = []
    for number in range(1, 6):
        client.post(f"/games/{game}/hands/new", data={**HAND, "number": str(number)})
        assert client.get(f"/games/{game}").status_code == 200
        cache = app.extensions["scorebook_boards"]
        sizes.append(cache.bytes)
        assert cache.bytes <= 200_000
        assert cache.versions() == {game: version_of(client, game)}  # only the latest
    assert all(size > 0 for size in sizes)


def test_the_scoreboard_never_shows_a_stale_board(client: FlaskClient) -> None:
    game = start(client)
    client.post(f"/games/{game}/hands/new", data=HAND)
    first = client.get(f"/games/{game}").get_data(as_text=True)
    assert 'id="hand-1"' in first or "hand-1" in first
    client.post(f"/games/{game}/hands/new", data={**HAND, "number": "2"})
    second = client.get(f"/games/{game}").get_data(as_text=True)
    assert "hand-2" in second
    part = client.get(f"/games/{game}/board").get_data(as_text=True)
    assert "hand-2" in part


def board_of(html: str) -> str:
    match = re.search(r"<!--live-board-->(.*)<!--/live-board-->", html, re.S)
    assert match, "no board between the marks"
    return match.group(1)


def test_the_partial_fetch_is_the_pages_board(client: FlaskClient) -> None:
    """The board alone carries the same #live-board and version as the whole page (which
    stays complete without JavaScript), and the page tells live.js where it is."""
    game = start(client)
    client.post(f"/games/{game}/hands/new", data=HAND)
    page = client.get(f"/games/{game}").get_data(as_text=True)
    part = client.get(f"/games/{game}/board")
    assert part.status_code == 200
    text = part.get_data(as_text=True)
    assert board_of(text) == board_of(page)
    version = version_of(client, game)
    assert f'data-live-version="{version}"' in text and f'data-live-version="{version}"' in page
    assert f'data-live-part-url="/games/{game}/board"' in page
    assert 'id="live-board" data-live-region' in text
    assert len(text) < len(page) * 0.8
    assert part.headers["Cache-Control"] == "no-cache, private"


def test_the_partial_fetch_keeps_the_flash_for_the_page(client: FlaskClient) -> None:
    game = start(client)
    client.post(f"/games/{game}/hands/new", data=HAND)  # flashes "Hand 1 saved."
    assert "Hand 1 saved." not in client.get(f"/games/{game}/board").get_data(as_text=True)
    assert "Hand 1 saved." in client.get(f"/games/{game}").get_data(as_text=True)


def test_a_stranger_gets_no_board(app: Flask, client: FlaskClient) -> None:
    game = start(client)
    assert app.test_client().get(f"/games/{game}/board").status_code == 404
    assert client.get("/games/999/board").status_code == 404


def test_a_kept_board_answer_is_served_without_loading_the_game(
        app: Flask, client: FlaskClient) -> None:
    """The second phone asking for the same board (same version, language, role,
    encoding) gets the kept compressed answer: no Game, Hand or Seat is loaded."""
    import gzip

    from sqlalchemy import event

    from scorebook.extensions import db

    game = start(client)
    client.post(f"/games/{game}/hands/new", data=HAND)
    plain = client.get(f"/games/{game}/board").get_data(as_text=True)
    first = client.get(f"/games/{game}/board", headers={"Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in first.headers["Vary"]
    assert gzip.decompress(first.data).decode() == plain
    loaded: list[object] = []

    def load(target: object, context: object) -> None:
        loaded.append(target)

    with app.app_context():
        event.listen(db.Model, "load", load, propagate=True)
        try:
            again = client.get(f"/games/{game}/board", headers={"Accept-Encoding": "gzip"})
        finally:
            event.remove(db.Model, "load", load)
    assert again.status_code == 200 and again.data == first.data
    assert loaded == []
    client.post(f"/games/{game}/hands/new", data={**HAND, "number": "2"})
    fresh = client.get(f"/games/{game}/board", headers={"Accept-Encoding": "gzip"})
    assert "hand-2" in gzip.decompress(fresh.data).decode()  # a new version: rendered anew
