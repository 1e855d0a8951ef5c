"""Background jobs (issue 25, item 2): a league import runs as a job of the job table,
run by ``python -m scorebook.worker`` beside the web server.

- two workers never take one job (one conditional UPDATE), and a job whose worker died
  is taken again once its lease has run out;
- the work is committed step by step with its progress (``done`` of ``total``), which
  the job's page and its JSON show; a restart goes on from the last checkpoint, with no
  game stored twice;
- the league under import is sealed: nobody sees it until its last step; a failed import
  takes away everything it stored;
- an owner has at most two imports waiting or running: the next is refused with a 429;
- against ``make serve``'s real server (and the worker its gunicorn master starts), a
  league of 300 games is imported in the background while a phone of another league
  keeps recording hands.

Every test runs on the suite's database (in-memory SQLite, or TEST_DATABASE_URL's
PostgreSQL); the worker's steps use a file database where they need one of their own.
"""

from __future__ import annotations

import copy
import io
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from referee import make_rules
from scorebook.config import normalize_database_url
from scorebook.extensions import db
from scorebook.models import (
    JOB_DONE,
    JOB_FAILED,
    JOB_QUEUED,
    JOB_RUNNING,
    Game,
    GameResult,
    Hand,
    Job,
    League,
)
from scorebook.services import access, exports, games, hands, jobs, ratings
from scorebook.services import league as league_service
from scorebook.worker import Worker
from tests.conftest import PATIENCE_S
from tests.web import test_league, test_league_fresh
from tests.worked_examples import RUMMY_500_HAND

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import league_import as bench  # noqa: E402  (benchmarks/league_import.py: its league files)

GAMES = 12


@pytest.fixture(scope="session")
def template() -> dict[str, Any]:
    """A league export of 24 real games, played through the services."""
    return bench.play_templates()


def league_file(template: dict[str, Any], folder: Path, count: int) -> tuple[Path, int]:
    """A league file of ``count`` games (made from the template's) and its hands."""
    path = folder / f"league-{count}.json"
    hands = bench.write_big_export(template, count, str(path))
    return path, hands


@pytest.fixture
def small(template: dict[str, Any], tmp_path: Path) -> tuple[Path, int]:
    return league_file(template, tmp_path, GAMES)


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """An app whose imports wait for a worker (not run in the request)."""
    return make_app(JOBS_INLINE=False)


@pytest.fixture
def owner(app: Flask) -> FlaskClient:
    """A browser owning a league with one game in it (not replaced by an import)."""
    client = app.test_client()
    assert client.post("/games/new", data={"players-0": "Cy", "players-1": "Dee",
                                           "family": "rummy-500",
                                           "first_dealer": "0"}).status_code == 302
    return client


def upload(client: FlaskClient, path: Path | bytes) -> Any:
    body = path if isinstance(path, bytes) else path.read_bytes()
    return client.post("/league/import", content_type="multipart/form-data",
                       data={"file": (io.BytesIO(body), "league.json")})


def job_id_of(answer: Any) -> int:
    assert answer.status_code == 302, answer.get_data(as_text=True)[-2000:]
    found = re.search(r"/jobs/(\d+)$", answer.headers["Location"])
    assert found, answer.headers["Location"]
    return int(found.group(1))


def job(app: Flask, job_id: int) -> Job:
    with app.app_context():
        found = db.session.get(Job, job_id)
        assert found is not None
        db.session.expunge(found)
        return found


class Crash(BaseException):
    """The worker's process dies between two steps (nothing of it runs on)."""


def stopping_after(steps: int, crash: bool = False) -> Callable[[], bool]:
    """A worker's ``stop`` that says stop (or dies) before step ``steps + 1``."""
    asked = {"n": 0}

    def stop() -> bool:
        asked["n"] += 1
        if asked["n"] > steps:
            if crash:
                raise Crash()
            return True
        return False

    return stop


def run_worker(app: Flask, name: str, stop: Callable[[], bool] | None = None) -> Job | None:
    worker = Worker(app, name)
    if stop is not None:
        worker.should_stop = stop  # type: ignore[method-assign]
    return worker.run_once()


@pytest.fixture
def one_game_a_step(app: Flask) -> None:
    """Each step of an import stores one game (a checkpoint after each)."""
    app.config["JOBS_STEP_SECONDS"] = 0.0


def stored(app: Flask, name: str) -> tuple[int, list[int], int]:
    """The league named ``name``: its games, their numbers, and its hands."""
    with app.app_context():
        league = db.session.scalar(db.select(League).where(League.name == name))
        assert league is not None
        numbers = sorted(db.session.scalars(db.select(Game.number)
                                            .where(Game.league_id == league.id)))
        hand_count = db.session.scalar(db.select(db.func.count(Hand.id)).join(Game)
                                       .where(Game.league_id == league.id))
        return len(numbers), numbers, hand_count or 0


# --- taking a job -------------------------------------------------------------------------


def test_two_workers_never_take_one_job_and_a_dead_ones_is_taken_again(
        app: Flask, owner: FlaskClient, small: tuple[Path, int]) -> None:
    job_id = job_id_of(upload(owner, small[0]))
    with app.app_context():
        first = jobs.claim("worker-a")
        assert first is not None and first.id == job_id and first.attempts == 1
        assert jobs.claim("worker-b") is None  # running, its lease still good
        assert jobs.claim("worker-b", job_id=job_id) is None
        # worker-a dies: once its lease has run out, worker-b takes the job
        db.session.execute(update(Job).where(Job.id == job_id)
                           .values(lease_until=first.created_at))
        db.session.commit()
        second = jobs.claim("worker-b")
        assert second is not None and second.id == job_id
        assert second.worker == "worker-b" and second.attempts == 2
        assert jobs.claim("worker-a") is None
        # worker-a comes back to life: its next step is not kept
        with pytest.raises(jobs.LeaseLost):
            jobs._save(second, "worker-a", 60)
        db.session.rollback()


# --- progress, checkpoints and restarts ------------------------------------------------------


def test_progress_is_committed_step_by_step_and_a_stopped_worker_resumes(
        app: Flask, owner: FlaskClient, small: tuple[Path, int], one_game_a_step: None
) -> None:
    path, hand_count = small
    job_id = job_id_of(upload(owner, path))
    page = owner.get(f"/jobs/{job_id}")
    assert page.status_code == 200 and 'http-equiv="refresh"' in page.get_data(as_text=True)
    assert owner.get(f"/jobs/{job_id}.json").get_json()["state"] == JOB_QUEUED

    # a worker asked to stop (SIGTERM) hands the job back between two steps
    ended = run_worker(app, "worker-a", stopping_after(6))
    assert ended is not None and ended.state == JOB_QUEUED
    shown = owner.get(f"/jobs/{job_id}.json").get_json()
    assert shown["state"] == JOB_QUEUED and shown["total"] == GAMES
    assert 0 < shown["done"] < GAMES
    text = owner.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert f"of {GAMES} games" in text or "waits for its turn" in text
    halfway = job(app, job_id)
    assert halfway.checkpoint and halfway.checkpoint["games"] == halfway.done

    # the league is stored so far, sealed: nobody has it, not even its importer
    with app.app_context():
        league = db.session.scalar(db.select(League).where(League.import_job_id == job_id))
        assert league is not None and league.password_hash is None
    assert "Benchmark family" not in owner.get("/leagues").get_data(as_text=True)
    assert "Benchmark family" not in owner.get("/league/").get_data(as_text=True)

    # another worker goes on from the checkpoint
    done = run_worker(app, "worker-b")
    assert done is not None and done.state == JOB_DONE and done.attempts == 2
    assert done.done == GAMES
    assert stored(app, "Benchmark family") == (GAMES, list(range(1, GAMES + 1)), hand_count)
    assert not list(Path(app.instance_path, "jobs").iterdir())  # the upload removed

    # the importer's browser is given the league
    opened = owner.get(f"/jobs/{job_id}")
    assert opened.status_code == 302 and "/league/" in opened.headers["Location"]
    standings = owner.get(opened.headers["Location"]).get_data(as_text=True)
    assert "Benchmark family" in standings and "this browser owns it" in standings


def test_a_worker_that_dies_mid_import_is_replaced_without_a_game_twice(
        app: Flask, owner: FlaskClient, small: tuple[Path, int], one_game_a_step: None
) -> None:
    path, hand_count = small
    job_id = job_id_of(upload(owner, path))
    with pytest.raises(Crash):
        run_worker(app, "worker-a", stopping_after(5, crash=True))
    died = job(app, job_id)
    assert died.state == JOB_RUNNING and died.worker == "worker-a" and 0 < died.done < GAMES
    # (a replacement finds nothing to take while the dead worker's lease lasts)
    assert run_worker(app, "worker-b") is None
    with app.app_context():
        db.session.execute(update(Job).where(Job.id == job_id)
                           .values(lease_until=died.created_at))
        db.session.commit()
    done = run_worker(app, "worker-b")
    assert done is not None and done.state == JOB_DONE and done.worker == "worker-b"
    assert stored(app, "Benchmark family") == (GAMES, list(range(1, GAMES + 1)), hand_count)
    # rated a few games a step, exactly as a replay from scratch rates them
    with app.app_context():
        league_id = db.session.scalar(db.select(League.id).where(
            League.name == "Benchmark family"))
        assert league_id is not None and ratings.first_stale(league_id) is None
        rows = db.select(GameResult.game_id, GameResult.player_id, GameResult.seq,
                         GameResult.mu, GameResult.sigma).where(
            GameResult.league_id == league_id).order_by(GameResult.id)
        stepped = sorted(db.session.execute(rows).all())
        assert len(stepped) > GAMES
        ratings.rebuild(league_id)
        assert sorted(db.session.execute(rows).all()) == stepped
        db.session.rollback()
    assert owner.get(f"/jobs/{job_id}.json").get_json()["state"] == JOB_DONE


# --- sealed: all or nothing ------------------------------------------------------------------


def test_a_failed_import_takes_away_what_it_stored(
        app: Flask, owner: FlaskClient, template: dict[str, Any], one_game_a_step: None
) -> None:
    data = copy.deepcopy(template)
    data["league"]["name"] = "Broken family"
    data["games"][7]["hands"][0]["scores"][0]["score"] += 5  # game 8's first hand
    job_id = job_id_of(upload(owner, json.dumps(data).encode()))
    with app.app_context():
        before = db.session.scalar(db.select(db.func.count(League.id)))
        games_before = db.session.scalar(db.select(db.func.count(Game.id)))
    ended = run_worker(app, "worker-a")
    assert ended is not None and ended.state == JOB_FAILED
    assert ended.done == 7, ended.error  # games 1 to 7 were stored, then taken away
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(League.id))) == before
        assert db.session.scalar(db.select(db.func.count(Game.id))) == games_before
        assert db.session.scalar(db.select(League).where(
            League.name == "Broken family")) is None
    page = owner.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert "Game 8 in the file" in page and "Nothing of the file was imported" in page
    assert 'http-equiv="refresh"' not in page
    assert owner.get(f"/jobs/{job_id}.json").get_json()["error"][0].startswith("Game 8")


def test_a_failed_job_says_why_in_the_language_of_whoever_reads_it(
        app: Flask, owner: FlaskClient) -> None:
    """The failure is kept as sentences, not only as the asker's words: a Spanish reader
    of the job's page, its JSON and the API reads it in Spanish, an Italian in Italian."""
    job_id = job_id_of(upload(owner, b"{nope"))
    ended = run_worker(app, "worker-a")
    assert ended is not None and ended.state == JOB_FAILED
    assert ended.error is not None and ended.error[0].startswith("That file is not JSON")
    for language, words in (("es", "Ese archivo no es JSON"), ("it", "Quel file non è JSON"),
                            ("en", "That file is not JSON")):
        asked = {"Accept-Language": language}
        page = owner.get(f"/jobs/{job_id}", headers=asked).get_data(as_text=True)
        assert words in page, language
        assert owner.get(f"/jobs/{job_id}.json", headers=asked).get_json()["error"] == [
            owner.get(f"/api/v1/jobs/{job_id}", headers=asked).get_json()["error"][0]]
        assert owner.get(f"/api/v1/jobs/{job_id}", headers=asked).get_json()[
            "error"][0].startswith(words)


def test_a_failure_kept_in_words_only_is_shown_as_it_was_worded(app: Flask) -> None:
    """A job that failed before the sentences were kept (or on a referee's problem, whose
    cards JSON does not keep as they are) shows its first wording."""
    from scorebook.presenters.sentences.jobs import job_error
    from scorebook.services.errors import sentence
    from scorebook.services.jobs import _kept, said_by

    older = Job(kind="league-import", owner="league:1", error=["Worded once."])
    assert said_by(older) is None
    with app.test_request_context():
        assert job_error(older) == "Worded once."
    nested = sentence("exports.in-game", game=3, problem=(sentence("exports.not-json"),))
    kept = Job(kind="league-import", owner="league:1",
               error=["Game 3 in the file: …", *_kept([nested])])
    assert said_by(kept) == [nested]
    assert _kept([sentence("exports.problem", problem=object())]) == []


def test_a_job_is_seen_by_the_browser_that_asked_alone(
        app: Flask, owner: FlaskClient, small: tuple[Path, int]) -> None:
    job_id = job_id_of(upload(owner, small[0]))
    other = app.test_client()
    assert other.get(f"/jobs/{job_id}").status_code == 404
    assert other.get(f"/jobs/{job_id}.json").status_code == 404
    assert owner.get(f"/jobs/{job_id + 1}").status_code == 404


def test_the_api_shows_a_browser_its_jobs_as_the_document_says(
        app: Flask, owner: FlaskClient, small: tuple[Path, int], one_game_a_step: None
) -> None:
    """GET /api/v1/jobs and /api/v1/jobs/<id>: this browser's jobs alone, each answer
    fitting its model in the OpenAPI document; a finished import opens its league."""
    from tests.web.test_api_document import _fits_answer

    assert owner.get("/api/v1/jobs").get_json() == {"jobs": []}
    job_id = job_id_of(upload(owner, small[0]))
    listed = owner.get("/api/v1/jobs")
    _fits_answer("GET", "/jobs", listed, 200)
    assert [j["id"] for j in listed.get_json()["jobs"]] == [job_id]
    one = owner.get(f"/api/v1/jobs/{job_id}")
    _fits_answer("GET", "/jobs/{job_id}", one, 200)
    assert one.get_json()["state"] == JOB_QUEUED and one.get_json()["seconds_left"] is None
    assert one.get_json()["url"] == f"/jobs/{job_id}"
    # another browser, or a job this one never asked for: 404, as the document says
    other = app.test_client()
    _fits_answer("GET", "/jobs/{job_id}", other.get(f"/api/v1/jobs/{job_id}"), 404)
    _fits_answer("GET", "/jobs/{job_id}", owner.get(f"/api/v1/jobs/{job_id + 1}"), 404)
    assert other.get("/api/v1/jobs").get_json() == {"jobs": []}
    # halfway: done of total
    run_worker(app, "worker-a", stopping_after(4))
    halfway = owner.get(f"/api/v1/jobs/{job_id}")
    _fits_answer("GET", "/jobs/{job_id}", halfway, 200)
    assert halfway.get_json()["total"] == GAMES and 0 < halfway.get_json()["done"] < GAMES
    run_worker(app, "worker-b")
    done = owner.get(f"/api/v1/jobs/{job_id}")
    _fits_answer("GET", "/jobs/{job_id}", done, 200)
    body = done.get_json()
    assert body["state"] == JOB_DONE and body["result"]["games"] == GAMES
    assert body["league_url"] == "/league/?season=all"
    assert "Benchmark family" in owner.get(body["league_url"]).get_data(as_text=True)


def test_the_time_left_comes_from_the_jobs_own_pace() -> None:
    """No fixed figure: the estimate is the job's own pace so far, and nothing until it
    has measured enough."""
    from datetime import timedelta

    from scorebook.models import utcnow

    now = utcnow()
    running = Job(state=JOB_RUNNING, total=1000, done=250,
                  started_at=now - timedelta(seconds=60))
    assert jobs.seconds_left(running, now) == 180  # 250 in a minute: 750 in 3 more
    running.started_at = now - timedelta(seconds=2)  # too early to say
    assert jobs.seconds_left(running, now) is None
    running.started_at, running.done = now - timedelta(seconds=60), 5  # too little done
    assert jobs.seconds_left(running, now) is None
    assert jobs.seconds_left(Job(state=JOB_QUEUED, total=1000, done=0), now) is None


def test_the_pages_promise_no_fixed_time_but_the_jobs_pace(
        app: Flask, owner: FlaskClient, small: tuple[Path, int]) -> None:
    """The import form names no fixed time (it said "about 5 minutes", measured on one
    machine); the job's page says how long is left once the job's own pace tells."""
    from datetime import timedelta

    from scorebook.models import utcnow

    form = owner.get("/league/export").get_data(as_text=True)
    assert "minutes" not in form and "how far the import has got" in form
    job_id = job_id_of(upload(owner, small[0]))
    page = owner.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert "left, at the pace so far" not in page  # (queued: nothing to go by)
    with app.app_context():
        db.session.execute(update(Job).where(Job.id == job_id).values(
            state=JOB_RUNNING, worker="worker-a", total=12, done=3,
            started_at=utcnow() - timedelta(seconds=60),
            lease_until=utcnow() + timedelta(seconds=60)))
        db.session.commit()
    page = owner.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert "3 of 12 games" in page
    assert "About 3 minutes left, at the pace so far." in page  # 3 a minute: 9 to go
    left = owner.get(f"/jobs/{job_id}.json").get_json()["seconds_left"]
    assert 180 <= left < 180 + 3 * PATIENCE_S  # (three times the seconds since: 60 s ago)
    spanish = owner.get(f"/jobs/{job_id}", headers={"Accept-Language": "es"})
    assert "3 minutos" in spanish.get_data(as_text=True)


# --- at most two per owner -------------------------------------------------------------------


def test_an_owner_has_at_most_two_imports_at_once(
        app: Flask, owner: FlaskClient, small: tuple[Path, int]) -> None:
    first = job_id_of(upload(owner, small[0]))
    job_id_of(upload(owner, small[0]))
    third = upload(owner, small[0])
    assert third.status_code == 429
    assert "already has 2 imports waiting or running" in third.get_data(as_text=True)
    assert len(list(Path(app.instance_path, "jobs").iterdir())) == 2  # not the third's file
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Job.id))) == 2
    # another owner is not held up by this one's imports
    stranger = app.test_client()
    stranger.post("/games/new", data={"players-0": "Eve", "players-1": "Fay",
                                      "family": "rummy-500", "first_dealer": "0"})
    job_id_of(upload(stranger, small[0]))
    # once one has ended, the owner may import again
    ended = run_worker(app, "worker-a")
    assert ended is not None and ended.id == first and ended.state == JOB_DONE
    job_id_of(upload(owner, small[0]))


@pytest.fixture
def file_db(make_app: Callable[..., Flask], tmp_path: Path) -> Flask:
    """An app on a database several connections share at once: TEST_DATABASE_URL's
    PostgreSQL, else a SQLite file (the suite's in-memory one is one connection)."""
    url = os.environ.get("TEST_DATABASE_URL") or "sqlite://"
    if url == "sqlite://":
        url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    return make_app(SQLALCHEMY_DATABASE_URI=url, SQLALCHEMY_ENGINE_OPTIONS={},
                    JOBS_INLINE=False)


@pytest.mark.parametrize("with_league", [False, True], ids=["no-league", "a-league"])
def test_the_per_owner_limit_holds_when_submits_race(
        file_db: Flask, monkeypatch: pytest.MonkeyPatch, with_league: bool) -> None:
    """Eight submits of one owner at once (each counting slowly, as on a busy machine):
    exactly two are accepted, on SQLite and PostgreSQL, with a league or none. Before,
    only a submit naming a league was counted under a lock (its league's row), so with
    none each counted the others' jobs before any was stored, and all were accepted."""
    import threading

    app = file_db
    with app.app_context():
        league_id = None
        if with_league:
            league = League(name="Racing family")
            db.session.add(league)
            db.session.commit()
            league_id = league.id
    counted = jobs.active

    def slow_count(owner: str) -> int:
        found = counted(owner)
        time.sleep(0.05)  # (the count of a busy machine: others submit meanwhile)
        return found

    monkeypatch.setattr(jobs, "active", slow_count)
    start = threading.Barrier(8)
    outcomes: list[str] = []

    def submit() -> None:
        with app.app_context():
            try:
                start.wait(PATIENCE_S)
                jobs.submit(exports.IMPORT_JOB, "owner:racing", league_id, {"file": ""})
                outcomes.append("accepted")
            except jobs.TooMany:
                outcomes.append("429")
            finally:
                db.session.remove()

    threads = [threading.Thread(target=submit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(PATIENCE_S)
    assert sorted(outcomes) == ["429"] * 6 + ["accepted"] * 2, outcomes
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Job.id)).where(
            Job.owner == "owner:racing")) == 2


def test_a_header_listing_300000_players_is_refused_unread(
        app: Flask, owner: FlaskClient, template: dict[str, Any]) -> None:
    data = copy.deepcopy(template)
    data["players"] = [{"name": f"P{i}", "created_at": data["league"]["created_at"],
                        "retired_at": None} for i in range(exports.MAX_PLAYERS + 1)]
    job_id_of(upload(owner, json.dumps(data).encode()))
    ended = run_worker(app, "worker-a")
    assert ended is not None and ended.state == JOB_FAILED
    assert ended.error and f"more than {exports.MAX_PLAYERS} players" in ended.error[0]


# --- the real server ---------------------------------------------------------------------------


@pytest.fixture
def served(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[tuple[str, str, int]]:
    """The database ``make serve`` runs on, with a phone's league (a game, its scorer's
    cookie): (database URL, that cookie, the game's id)."""
    from tests.web.test_slow_clients import SECRET

    url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'jobs.sqlite3'}"
    if url == "sqlite://":
        url = f"sqlite:///{tmp_path / 'jobs.sqlite3'}"
    app = make_app(SQLALCHEMY_DATABASE_URI=url, SQLALCHEMY_ENGINE_OPTIONS={},
                   SECRET_KEY=SECRET)
    with app.test_request_context():
        league = League(name="The phone's family", scorer_token_hash=access.token_hash("p" * 43))
        db.session.add(league)
        db.session.commit()
        game = games.create_game(league, ["You", "Ada", "Bo"], 0,
                                 make_rules("rummy-500", target=100000))
        session: dict[str, Any] = {}
        access.remember(session, league, access.SCORER)
        cookie = app.session_interface.get_signing_serializer(app).dumps(session)  # type: ignore[attr-defined]
        game_id = game.id
        db.session.remove()
        db.engine.dispose()
    yield url, cookie, game_id


def test_make_serve_imports_300_games_in_the_background_while_a_phone_writes(
        served: tuple[str, str, int], template: dict[str, Any], tmp_path: Path) -> None:
    """Before: the import was one request of minutes (killed at gunicorn's 30 s, on
    SQLite holding the write lock throughout: other leagues' writes failed)."""
    from tests.web.test_slow_clients import make_serve

    url, phone_cookie, game_id = served
    path, hand_count = league_file(template, tmp_path, 300)
    with make_serve(url) as port:
        base = f"http://127.0.0.1:{port}"
        owner = requests.Session()  # starts a game: a private league of its own
        page = owner.get(f"{base}/games/new", timeout=PATIENCE_S).text
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert token, page[-2000:]
        made = owner.post(f"{base}/games/new", timeout=PATIENCE_S, data={
            "csrf_token": token.group(1), "players-0": "Cy", "players-1": "Dee",
            "family": "rummy-500", "first_dealer": "0"})
        assert made.status_code == 200 and "/games/" in made.url, made.text[-2000:]
        form = owner.get(f"{base}/league/export", timeout=PATIENCE_S)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form.text)
        assert token, form.text[-2000:]
        with open(path, "rb") as upload_file:
            answer = owner.post(f"{base}/league/import", timeout=PATIENCE_S,
                                allow_redirects=False,
                                data={"csrf_token": token.group(1)},
                                files={"file": ("league.json", upload_file,
                                                "application/json")})
        assert answer.status_code == 302, answer.text[-2000:]
        watch = answer.headers["Location"]
        assert re.search(r"/jobs/\d+$", watch), watch
        phone = requests.Session()
        phone.cookies.set("session", phone_cookie)
        written, number, seen = [], 1, []
        deadline = time.monotonic() + PATIENCE_S
        while True:
            state = owner.get(f"{base}{watch}.json", timeout=PATIENCE_S).json()
            seen.append((state["state"], state["done"]))
            if state["state"] in (JOB_DONE, JOB_FAILED):
                break
            assert time.monotonic() < deadline, seen[-5:]
            # a phone of another league records a hand meanwhile
            hand = {"number": number, **{k: v for k, v in RUMMY_500_HAND.items()
                                         if k != "rules"}}
            began = time.monotonic()
            stored_hand = phone.post(f"{base}/api/v1/games/{game_id}/hands", json=hand,
                                     timeout=PATIENCE_S)
            written.append((stored_hand.status_code, time.monotonic() - began))
            number += 1
            time.sleep(0.5)
        assert state["state"] == JOB_DONE, state
        assert state["done"] == state["total"] == 300
        # progress was shown on the way, and the phone's hands were all stored
        assert any(s == JOB_RUNNING and 0 < d < 300 for s, d in seen), seen
        assert written and {code for code, _ in written} == {201}, written
        print(f"{len(written)} hands written during the import, the slowest in "
              f"{max(took for _, took in written):.2f} s")
        opened = owner.get(f"{base}{watch}", timeout=PATIENCE_S)
        assert opened.url.endswith("/league/?season=all"), opened.url
        assert "Benchmark family" in opened.text
        listed = owner.get(f"{base}/league/history", timeout=PATIENCE_S)
        assert listed.status_code == 200
    engine = sa.create_engine(normalize_database_url(url))  # (what it stored)
    try:
        with engine.connect() as connection:
            league_id = connection.execute(sa.text(
                "select id from league where name = 'Benchmark family'")).scalar_one()
            games_stored = connection.execute(sa.text(
                "select count(*) from game where league_id = :l"), {"l": league_id}).scalar()
            hands_stored = connection.execute(sa.text(
                "select count(*) from hand join game on game.id = hand.game_id "
                "where game.league_id = :l"), {"l": league_id}).scalar()
    finally:
        engine.dispose()
    assert (games_stored, hands_stored) == (300, hand_count)


# --- rating replays ------------------------------------------------------------------------

made = test_league.made  # (an owned league and its five games: tests/web/test_league.py)
ctx = test_league.ctx


def test_a_long_rating_replay_is_a_job(made: dict[str, Game], app: Flask) -> None:
    """Where job workers run (RATINGS_CATCH_UP=job), ratings made stale by an edit of an
    early game are replayed by a job, not by a thread of the web server."""
    app.config.update(RATINGS_INLINE_GAMES=0, RATINGS_CATCH_UP="job")
    g1 = made["g1"]
    hands.delete_hand(g1.hands[-1], g1.hands[-1].version)  # G1 is no longer finished
    assert db.session.scalar(db.select(League.ratings_from_seq)) is not None
    assert test_league.result_rows() != test_league_fresh.replayed()
    queued = list(db.session.scalars(db.select(Job)))
    assert [(j.kind, j.state) for j in queued] == [(ratings.RATINGS_JOB, JOB_QUEUED)]
    # a page asking again adds no second job
    assert league_service.ratings_pending(test_league.the_league()) > 0
    assert db.session.scalar(db.select(db.func.count(Job.id))) == 1
    db.session.commit()
    ended = jobs.run_one("worker-a", lambda job, said: "")
    assert ended is not None and ended.state == JOB_DONE, ended.error
    db.session.expire_all()
    assert db.session.scalar(db.select(League.ratings_from_seq)) is None
    assert test_league.result_rows() == test_league_fresh.replayed()
