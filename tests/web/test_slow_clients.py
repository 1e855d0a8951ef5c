"""Slow clients cost a socket, not a thread: ``make run`` and ``make serve`` keep answering
while hundreds of connections hang on to them (issue 25).

Each server is started the way the README says: ``python -m scorebook.table``, the
command ``make run`` runs, and the gunicorn command ``make serve`` runs (read from
``make -n serve``), on a database of its own (``TEST_DATABASE_URL``'s PostgreSQL, else a
SQLite file). Then 200 *idle* connections (nothing sent), 200 *half-sent* ones (``GET /
HTTP/1.1\\r\\nHost: x\\r\\n`` and no more) and 200 *slow-header* ones (a header line every
second, never the blank line that ends the head) are opened and kept open — each opened
again when the server closes it, as an attacker would — and a phone's requests must
still be answered: the version poll, the scoreboard, the rule book. The server's header
timeout must be seen at work (it closes connections of every kind). No short timeout
decides anything: a probe may take up to a minute on a busy machine.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import resource
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import League
from scorebook.services import access, games
from tests.conftest import PATIENCE_S
from tests.web.test_table_server import free_port, table_server

ROOT = Path(__file__).resolve().parents[2]
SECRET = "slow-clients-test"
EACH = 200
KINDS = ("idle", "half-sent", "slow-header")
#: A probe waits this long for its answer: generous, so that only a server that has
#: stopped answering fails (the old one: every probe, for as long as the attack lasts).
PROBE_TIMEOUT = 60.0
#: How long the attack may take to open, and the server to close some of each kind: the
#: suite's patience (a busy machine is slow to open 600 connections, never stuck).
WITHIN = PATIENCE_S


@pytest.fixture(autouse=True)
def open_files() -> None:
    """This process opens the 600 attacking connections: room for them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * EACH * len(KINDS)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"the open-file limit ({hard}) is below {wanted}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


@pytest.fixture
def member(make_app: Callable[..., Flask], tmp_path: Path) -> tuple[str, int, str]:
    """The database the servers use, a game in a league, and its scorer's cookie."""
    url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'slow.sqlite3'}"
    if url == "sqlite://":
        url = f"sqlite:///{tmp_path / 'slow.sqlite3'}"
    app = make_app(SQLALCHEMY_DATABASE_URI=url, SQLALCHEMY_ENGINE_OPTIONS={},
                   SECRET_KEY=SECRET)
    with app.test_request_context():
        league = League(name="Slow Wi-Fi", scorer_token_hash=access.token_hash("w" * 43))
        db.session.add(league)
        db.session.commit()
        game = games.create_game(league, ["Ann", "Ben"], 0,
                                 make_rules("rummy-500", target=100000))
        session: dict[str, Any] = {}
        access.remember(session, league, access.SCORER)
        cookie = app.session_interface.get_signing_serializer(app).dumps(session)  # type: ignore[attr-defined]
        game_id = game.id
        db.session.remove()
        db.engine.dispose()
    return url, game_id, cookie


def serve_command(bind: str) -> list[str]:
    """The gunicorn command ``make serve`` runs (``make -n`` prints it without running)."""
    out = subprocess.run(["make", "-n", "--no-print-directory", "serve", "BIND=@BIND@"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    out = out.replace("\\\n", " ")
    lines = [line for line in out.splitlines() if "gunicorn" in line and "@BIND@" in line]
    assert lines, out
    return [part.replace("@BIND@", bind) for part in shlex.split(lines[-1])]


@contextmanager
def make_serve(database: str, **env: str) -> Iterator[int]:
    """``make serve``'s gunicorn on a free port; yield the port once it answers."""
    port = free_port()
    environ = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": SECRET, **env}
    process = subprocess.Popen(serve_command(f"127.0.0.1:{port}"), cwd=ROOT, env=environ,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if probe(port, "/rules/", None, 10)[0] == 200:
                    break
            except OSError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, "no make serve"
            time.sleep(0.2)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def probe(port: int, path: str, cookie: str | None, timeout: float = PROBE_TIMEOUT,
          tls: ssl.SSLContext | None = None, method: str = "GET", body: bytes | None = None,
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    if tls is not None:
        connection: http.client.HTTPConnection = http.client.HTTPSConnection(
            "127.0.0.1", port, timeout=timeout, context=tls)
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        sent = dict(headers or {})
        if cookie:
            sent["Cookie"] = f"session={cookie}"
        connection.request(method, path, body, sent)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def phone(port: int, game_id: int, cookie: str, count: int = 12,
          tls: ssl.SSLContext | None = None) -> None:
    """A phone's requests, each on a new connection, a little apart: every one answered."""
    paths = [f"/games/{game_id}/version", f"/games/{game_id}", "/rules/"]
    for i in range(count):
        path = paths[i % len(paths)]
        status, _, body = probe(port, path, cookie, tls=tls)
        assert status == 200, (path, status, body[:200])
        time.sleep(0.3)


class Attack:
    """``each`` connections of every kind, kept open (from a thread of their own)."""

    def __init__(self, port: int, each: int = EACH, tls: ssl.SSLContext | None = None,
                 kinds: tuple[str, ...] = KINDS) -> None:
        self.port, self.each, self.tls, self.kinds = port, each, tls, kinds
        self.open = {kind: 0 for kind in kinds}
        self.closed = {kind: 0 for kind in kinds}
        self.answers: list[bytes] = []
        self.loop = asyncio.new_event_loop()
        self.stopping: asyncio.Event | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Attack:
        self.thread.start()
        deadline = time.monotonic() + WITHIN
        while sum(self.open.values()) < self.each * len(self.kinds):
            assert time.monotonic() < deadline, f"the attack did not open: {self.open}"
            time.sleep(0.1)
        return self

    def __exit__(self, *exc: object) -> None:
        self.loop.call_soon_threadsafe(lambda: self.stopping and self.stopping.set())
        self.thread.join(timeout=60)

    def wait_closed(self, kinds: tuple[str, ...]) -> None:
        """Until the server has closed some connections of each of ``kinds``."""
        deadline = time.monotonic() + WITHIN
        while not all(self.closed[kind] for kind in kinds):
            assert time.monotonic() < deadline, f"the server closed none of some: {self.closed}"
            time.sleep(0.2)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._main())
        self.loop.close()

    async def _main(self) -> None:
        self.stopping = asyncio.Event()
        tasks = [asyncio.ensure_future(self._keep(kind)) for kind in self.kinds
                 for _ in range(self.each)]
        await self.stopping.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _keep(self, kind: str) -> None:
        assert self.stopping is not None
        while not self.stopping.is_set():
            try:
                # An idle TLS client has not even begun its handshake.
                tls = self.tls if kind != "idle" else None
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, ssl=tls, server_hostname="localhost" if tls else None)
            except (OSError, ssl.SSLError):
                await asyncio.sleep(0.5)
                continue
            counted = False
            try:
                if kind == "half-sent":
                    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
                elif kind == "slow-header":
                    writer.write(b"GET /rules/ HTTP/1.1\r\nHost: x\r\n")
                elif kind == "pipelined":  # a whole request, and half of the next
                    writer.write(b"GET /rules/ HTTP/1.1\r\nHost: x\r\n\r\n"
                                 b"GET /rules/ HTTP/1.1\r\nHost: x\r\n")
                elif kind == "blank-lines":  # (allowed before a request line)
                    writer.write(b"\r\n\r\n")
                elif kind == "slow-body":
                    writer.write(b"POST /api/v1/rules HTTP/1.1\r\nHost: x\r\n"
                                 b"Content-Type: application/json\r\n"
                                 b"Content-Length: 200\r\n\r\n{")
                await writer.drain()
                self.open[kind] += 1
                counted = True
                line = 0
                while True:
                    try:
                        wait = 1.0 if kind in ("slow-header", "slow-body") else None
                        data = await asyncio.wait_for(reader.read(4096), wait)
                    except TimeoutError:
                        line += 1
                        writer.write(b" " if kind == "slow-body"
                                     else f"X-Drip-{line}: {'a' * 20}\r\n".encode())
                        await writer.drain()
                        continue
                    if not data:
                        break
                    self.answers.append(data[:40])
            except (OSError, ssl.SSLError):
                pass
            finally:
                if counted:
                    self.open[kind] -= 1
                    if not self.stopping.is_set():
                        self.closed[kind] += 1
                writer.close()
            await asyncio.sleep(0.05)


def test_make_run_answers_the_phones_while_600_slow_connections_hang_on(
        member: tuple[str, int, str]) -> None:
    url, game_id, cookie = member
    with table_server(url, HOST="127.0.0.1", SECRET_KEY=SECRET) as (port, _lines):
        phone(port, game_id, cookie, count=3)
        with Attack(port) as attack:
            phone(port, game_id, cookie)
            attack.wait_closed(KINDS)  # the header timeout, at work on each kind
            phone(port, game_id, cookie, count=3)
        assert any(answer.startswith(b"HTTP/1.1 408") for answer in attack.answers)
        # Over plain http no client is taken for HTTPS (no HSTS), however it asks: only
        # the proxies the app trusts (TRUSTED_PROXIES) are believed, not gunicorn's.
        status, headers, _ = probe(port, "/rules/", None,
                                   headers={"X-Forwarded-Proto": "https"})
        assert status == 200 and "Strict-Transport-Security" not in headers


def test_make_serve_answers_the_phones_while_600_slow_connections_hang_on(
        member: tuple[str, int, str]) -> None:
    url, game_id, cookie = member
    with make_serve(url) as port:
        phone(port, game_id, cookie, count=3)
        with Attack(port) as attack:
            phone(port, game_id, cookie)
            attack.wait_closed(KINDS)
            phone(port, game_id, cookie, count=3)


def test_a_slow_body_costs_no_thread_and_a_stalled_big_one_is_let_go(
        member: tuple[str, int, str]) -> None:
    """One worker with one thread: 50 clients sending a small JSON body a byte a second
    (read ahead, never given to the thread: answered 408 after BODY_TIMEOUT), 50 sending
    a request and half of the next one on the same connection, 50 sending only the empty
    lines that may come before a request, and one stalling in the middle of a big form
    (given to the thread, which waits BODY_TIMEOUT seconds on a read, then takes the
    client as gone) leave the phone answered."""
    url, game_id, cookie = member
    with table_server(url, HOST="127.0.0.1", SECRET_KEY=SECRET, WORKERS="1", THREADS="1",
                      BODY_TIMEOUT="3") as (port, _lines):
        big = socket.create_connection(("127.0.0.1", port))
        try:
            # A form of 1.5 MB (pages take up to 2 MB): more than is read ahead.
            big.sendall(b"POST /leagues/new HTTP/1.1\r\nHost: x\r\nContent-Type: application/"
                        b"x-www-form-urlencoded\r\nContent-Length: 1500000\r\n\r\nname=")
            with Attack(port, each=50, kinds=("slow-body", "pipelined", "blank-lines")) as attack:
                phone(port, game_id, cookie)
                attack.wait_closed(("slow-body", "pipelined", "blank-lines"))
            big.settimeout(PROBE_TIMEOUT)
            answer = big.recv(4096)  # the thread let it go: an answer, or the end
            assert answer == b"" or answer.startswith(b"HTTP/1.1 4"), answer
        finally:
            big.close()
        status, _, body = probe(port, "/api/v1/rules", None, method="POST",
                                body=json.dumps({"rules": {"family": "basic"}}).encode(),
                                headers={"Content-Type": "application/json"})
        assert status == 200, body


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a certificate with")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def test_make_run_over_https_holds_too(member: tuple[str, int, str],
                                       certificate: tuple[Path, Path]) -> None:
    """CERTFILE/KEYFILE: the TLS handshake is made without a thread too (idle clients
    never begin one; the others send half a request, or a slow one, once encrypted)."""
    url, game_id, cookie = member
    cert, key = certificate
    tls = ssl.create_default_context(cafile=str(cert))
    with table_server(url, HOST="127.0.0.1", SECRET_KEY=SECRET, CERTFILE=str(cert),
                      KEYFILE=str(key)) as (port, lines):
        assert f"https://127.0.0.1:{port}" in "".join(lines)
        phone(port, game_id, cookie, count=3, tls=tls)
        with Attack(port, each=100, tls=tls) as attack:
            phone(port, game_id, cookie, tls=tls)
            attack.wait_closed(KINDS)
        phone(port, game_id, cookie, count=3, tls=tls)
        status, headers, _ = probe(port, "/rules/", None, tls=tls)
        assert status == 200 and headers["Strict-Transport-Security"] == "max-age=31536000"


def test_what_is_read_ahead_and_the_settings() -> None:
    from scorebook import serving, table

    head = b"POST /api/v1/rules HTTP/1.1\r\nHost: x\r\n"
    assert serving.body_to_read_ahead(b"GET / HTTP/1.1\r\nHost: x") == 0
    assert serving.body_to_read_ahead(head + b"Content-Length: 120") == 120
    assert serving.body_to_read_ahead(head + b"content-length: 2000000") is None  # a thread's
    assert serving.body_to_read_ahead(head + b"Content-Length: 12\r\nExpect: 100-continue"
                                      ) is None  # sent once the thread answers 100 Continue
    assert serving.body_to_read_ahead(head + b"Transfer-Encoding: chunked") is None
    assert serving.body_to_read_ahead(head + b"Content-Length: -1") == 0  # gunicorn's 400
    assert serving.options({"THREADS": "8"})["threads"] == 8
    assert serving.seconds({"HEADER_TIMEOUT": "2.5"}, "HEADER_TIMEOUT", 10) == 2.5
    for wrong in ("0", "-3", "soon"):
        with pytest.raises(ValueError, match="HEADER_TIMEOUT"):
            table.main({"HEADER_TIMEOUT": wrong, "HOST": "127.0.0.1"})  # before it serves
