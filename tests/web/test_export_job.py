"""A big league's whole export is a background job (issue 28: ``export.json`` of 50,000
games held a worker for minutes): the export page starts it and shows the job's page,
which offers the file once written, a gzip-compressed compact JSON the league import
reads back into an equal league. A restarted worker goes on from its checkpoint (bytes
a dying worker left after it are cut off); the file is kept for a stated time, then
removed; only the browser that asked may download it. Small leagues still download at
once."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import JOB_DONE, JOB_QUEUED, Job, utcnow
from scorebook.services import export_jobs, exports, games, jobs
from scorebook.services.exports import (
    JSONError,
    LeagueImportError,
    export_league,
    import_league,
    read_league_file,
)
from scorebook.worker import Worker
from tests.random_hands import play_random_league


def whole(league) -> str:  # type: ignore[no-untyped-def]
    return json.dumps(export_league(league), ensure_ascii=False, indent=1,
                      sort_keys=True) + "\n"


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """Exports wait for a worker; each step writes one game."""
    made = make_app(JOBS_INLINE=False, EXPORT_STEP_SECONDS=0.0, JOBS_PAUSE_SECONDS=0.0)
    return made


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export_jobs, "BATCH", 1)
    monkeypatch.setattr(export_jobs, "DIRECT_GAMES", 2)


def start(client: FlaskClient) -> int:
    page = client.get("/league/export").get_data(as_text=True)
    assert 'action="/league/export"' in page and "compressed JSON" in page
    assert 'href="/league/export.json"' not in page  # (too big to download at once)
    answer = client.post("/league/export")
    assert answer.status_code == 302, answer.get_data(as_text=True)[-1500:]
    found = re.search(r"/jobs/(\d+)$", answer.headers["Location"])
    assert found
    return int(found.group(1))


def test_a_big_league_exports_as_a_job_that_imports_back_equal(
        app: Flask, join: Callable[..., None], small_batches: None) -> None:
    client = app.test_client()
    with app.test_request_context():
        league = games.default_league()
        join(client, league.id)
        play_random_league(seed=5, games_count=4)
        expected = whole(league)
    job_id = start(client)
    assert client.post("/league/export").headers["Location"].endswith(f"/jobs/{job_id}")
    waiting = client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert "The export waits for its turn" in waiting and 'http-equiv="refresh"' in waiting

    # a worker writes the head and two games, then stops; bytes a dying worker would
    # leave after its last checkpoint are cut off by the next
    stops = iter([False, False, False, True])
    worker = Worker(app, "w1")
    worker.should_stop = lambda: next(stops, True)  # type: ignore[method-assign]
    first = worker.run_once()
    assert first is not None and first.state == JOB_QUEUED and first.done == 2
    with app.app_context():
        part = os.path.join(export_jobs.folder(), export_jobs.file_name(job_id) + ".part")
    with open(part, "ab") as left:
        left.write(b"half a member")
    running = client.get(f"/jobs/{job_id}.json").get_json()
    assert running["done"] == 2 and running["total"] == 4 and "download_url" not in running
    ended = Worker(app, "w2").run_once()
    assert ended is not None and ended.state == JOB_DONE, ended.error
    assert not os.path.exists(part)

    page = client.get(f"/jobs/{job_id}").get_data(as_text=True)
    link = f"/league/exports/{job_id}.json.gz"
    assert "The export is written: 4 games." in page and link in page
    assert client.get(f"/jobs/{job_id}.json").get_json()["download_url"] == link
    download = client.get(link)
    assert download.status_code == 200
    assert download.headers["Content-Type"] == "application/gzip"
    assert ".json.gz" in download.headers["Content-Disposition"]
    packed = download.get_data()
    text = gzip.decompress(packed)
    assert json.loads(text) == json.loads(expected)
    assert len(packed) < len(expected.encode()) / 4  # compact and compressed

    stranger = app.test_client()
    join(stranger, league.id)
    assert stranger.get(link).status_code == 404  # not the browser that asked

    with app.app_context():  # into a fresh install, as the import reads any file
        db.session.remove()
        db.drop_all()
        db.create_all()
        imported = import_league(read_league_file(io.BytesIO(packed)))
        assert whole(imported) == expected


def test_the_web_import_takes_the_compressed_file(app: Flask, join: Callable[..., None]
                                                  ) -> None:
    client = app.test_client()
    with app.test_request_context():
        league = games.default_league()
        join(client, league.id)
        play_random_league(seed=9, games_count=2)
        expected = json.loads(whole(league))
        packed = gzip.compress(json.dumps(expected).encode())
        db.session.remove()
        db.drop_all()
        db.create_all()
    owner = app.test_client()
    assert owner.post("/games/new", data={"players-0": "Cy", "players-1": "Dee",
                                          "family": "rummy-500",
                                          "first_dealer": "0"}).status_code == 302
    sent = owner.post("/league/import", content_type="multipart/form-data",
                      data={"file": (io.BytesIO(packed), "league.json.gz")})
    assert sent.status_code == 302, sent.get_data(as_text=True)[-1500:]
    ended = Worker(app, "w").run_once()
    assert ended is not None and ended.state == JOB_DONE, ended.error
    with app.app_context():
        imported = db.session.get(exports.League, ended.result["league"])
        assert json.loads(whole(imported)) == expected


def test_the_file_is_removed_after_its_time(app: Flask, join: Callable[..., None],
                                            small_batches: None) -> None:
    client = app.test_client()
    with app.test_request_context():
        league = games.default_league()
        play_random_league(seed=3, games_count=3)
        join(client, league.id, "viewer")  # (whoever may download export.json)
    job_id = start(client)
    assert Worker(app, "w").run_once().state == JOB_DONE  # type: ignore[union-attr]
    link = f"/league/exports/{job_id}.json.gz"
    assert client.get(link).status_code == 200
    with app.app_context():
        assert export_jobs.sweep() == 0  # (kept for its hours)
        later = utcnow() + timedelta(hours=export_jobs.KEEP_HOURS, minutes=1)
        assert export_jobs.sweep(now=later) == 1
    assert client.get(link).status_code == 404
    page = client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert "This export's file was removed" in page and link not in page


def test_a_small_league_downloads_at_once(app: Flask, join: Callable[..., None]) -> None:
    client = app.test_client()
    with app.test_request_context():
        league = games.default_league()
        join(client, league.id)
        play_random_league(seed=3, games_count=2)
        assert export_jobs.direct(league)
    page = client.get("/league/export").get_data(as_text=True)
    assert 'href="/league/export.json"' in page and 'action="/league/export"' not in page


def test_a_compressed_file_that_unpacks_too_far_or_is_broken_is_refused(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exports, "MAX_UNPACKED", 1000)
    bomb = gzip.compress(b'{"format": "' + b"x" * 100_000 + b'"}')
    assert len(bomb) < 1000
    with app.test_request_context(), pytest.raises(LeagueImportError) as refused:
        read_league_file(io.BytesIO(bomb))
    assert refused.value.sentences[0].id == "exports.too-big-unpacked"
    broken = gzip.compress(b'{"format": "rummy-scorebook-league"}')[:-12]
    with app.test_request_context(), pytest.raises(JSONError):
        read_league_file(io.BytesIO(broken))


def test_an_export_is_a_kind_of_job() -> None:
    assert export_jobs.EXPORT_JOB in jobs.KINDS and Job.kind.type.length >= len(  # type: ignore[attr-defined]
        export_jobs.EXPORT_JOB)
