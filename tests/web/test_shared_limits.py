"""The rate limits' counts: in each worker's memory by default (a laptop on SQLite, no
Redis anywhere), in Redis when ``REDIS_URL`` says (a hosted scorebook's instances count
together: ``scorebook.limits.redis_counts``). A Redis that stops answering is no error
page: the limits go on, counted in memory. ``make test-deploy`` checks the counts
shared by two real instances behind Caddy."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask

from scorebook import limits
from scorebook.extensions import limiter
from tests.conftest import PATIENCE_S

RULES = {"family": "pagat-500"}
BODY = {"rules": RULES, "cards": ["7S", "8S", "9S"]}


def asked(app: Flask, times: int) -> list[int]:
    client = app.test_client()
    return [client.post("/api/v1/referee/meld", json=BODY).status_code for _ in range(times)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A redis-server of this test's own (Debian's), on a free port, kept nowhere."""
    pytest.importorskip("redis")
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("no redis-server (apt-get install redis-server)")
    port = free_port()
    process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + PATIENCE_S
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as ping:
                    ping.sendall(b"PING\r\n")
                    if ping.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            assert process.poll() is None, "redis-server stopped"
            assert time.monotonic() < deadline, "redis-server never answered"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait()


def test_without_redis_the_counts_stay_in_memory(make_app: Callable[..., Flask]) -> None:
    app = make_app(REFEREE_RATE_LIMIT="3 per day")
    with app.app_context():
        assert isinstance(limiter.storage, limits.MemoryCounts)
    assert asked(app, 4) == [200, 200, 200, 429]
    # a new process (here: a new app, a new storage) starts counting again: nothing shared
    assert asked(make_app(REFEREE_RATE_LIMIT="3 per day"), 1) == [200]


def test_with_redis_a_new_instance_goes_on_counting(
        make_app: Callable[..., Flask], redis_url: str) -> None:
    """Two app instances are two storages on one Redis: what the first counted, the
    second finds (where memory, above, started again)."""
    first = make_app(REFEREE_RATE_LIMIT="3 per day", REDIS_URL=redis_url)
    with first.app_context():
        assert type(limiter.storage).__name__ == "RedisStorage"
    assert asked(first, 2) == [200, 200]
    second = make_app(REFEREE_RATE_LIMIT="3 per day", REDIS_URL=redis_url)
    assert asked(second, 2) == [200, 429]

    import redis

    keys = [key.decode() for key in redis.Redis.from_url(redis_url).keys("*")]
    assert keys and all(limits.REDIS_KEY_PREFIX in key for key in keys), keys


def test_a_redis_that_does_not_answer_is_no_error_page(make_app: Callable[..., Flask]) -> None:
    """Nothing listens on the port: each question is answered, and the limit still holds
    (counted in memory until Redis answers)."""
    pytest.importorskip("redis")
    app = make_app(REFEREE_RATE_LIMIT="3 per day",
                   REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")
    assert asked(app, 5) == [200, 200, 200, 429, 429]


def test_a_storage_named_outright_wins_and_a_wrong_url_stops_the_app(
        make_app: Callable[..., Flask]) -> None:
    pytest.importorskip("redis")
    app = make_app(REDIS_URL="redis://127.0.0.1:6379/0", RATELIMIT_STORAGE_URI="memory://")
    assert app.config["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6379/0"
    kept = make_app(REDIS_URL="redis://127.0.0.1:6379/0",
                    RATELIMIT_STORAGE_URI="redis://127.0.0.1:6390/1")
    assert kept.config["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6390/1"
    socket_path = make_app(REDIS_URL="unix:///run/redis/redis-server.sock")
    assert socket_path.config["RATELIMIT_STORAGE_URI"] == \
        "redis+unix:///run/redis/redis-server.sock"
    with pytest.raises(ValueError, match="REDIS_URL"):
        make_app(REDIS_URL="http://127.0.0.1:6379")
