"""The league's JSON export is streamed: byte for byte the file the whole export
dumped at once gives, written a few games at a time (the first byte leaves before the
league is read), and it imports as before."""

from __future__ import annotations

import json

from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.services import exports, games
from scorebook.services.exports import export_league, export_league_chunks, import_league
from tests.random_hands import play_random_league


def whole(league) -> str:  # type: ignore[no-untyped-def]
    return json.dumps(export_league(league), ensure_ascii=False, indent=1,
                      sort_keys=True) + "\n"


def test_the_stream_is_the_whole_export_byte_for_byte(app: Flask, client: FlaskClient,
                                                     join) -> None:  # type: ignore[no-untyped-def]
    with app.test_request_context():
        league = games.default_league()
        join(client, league.id)
        assert "".join(export_league_chunks(league)) == whole(league)  # no games yet
        play_random_league(seed=17, games_count=7)
        expected = whole(league)
        for batch in (1, 2, 3, 200):  # batches that end mid-league, on its end, past it
            assert "".join(export_league_chunks(league, batch)) == expected, batch
        pieces = list(export_league_chunks(league, 2))
        assert len(pieces) > 7  # written a game at a time, not at the end
    page = client.get("/league/export.json")
    assert page.status_code == 200 and page.is_streamed
    assert page.get_data(as_text=True) == expected
    assert json.loads(expected)["games"]


def test_a_streamed_export_imports_as_before(app: Flask, client: FlaskClient,
                                             join) -> None:  # type: ignore[no-untyped-def]
    with app.test_request_context():
        league = games.default_league()
        join(client, league.id)
        play_random_league(seed=5, games_count=4)
        text = "".join(export_league_chunks(league, 3))
        db.session.remove()
        db.drop_all()
        db.create_all()  # a fresh install
        imported = import_league(json.loads(text))
        assert whole(imported) == text


def test_the_batch_is_bounded() -> None:
    assert 1 <= exports.EXPORT_BATCH <= 1000
