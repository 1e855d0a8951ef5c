"""The web server of ``make run`` and ``make serve``: gunicorn, its requests read ahead.

gunicorn's threaded worker (``gthread``) hands a connection to one of its threads as
soon as it is accepted, and that thread then waits, blocking, for the request's head:
eight connections that send half a request, or a few hundred that send nothing, hold
every thread, and the site stops answering (issue 25). :class:`ReadAheadWorker` is that
worker with a buffering layer in front of its threads, as nginx or waitress would be:

- the worker's own event loop (the selector gthread already has for kept-alive
  connections) accepts each connection, completes the TLS handshake without blocking
  (with ``CERTFILE``/``KEYFILE``), and reads the request's **head** as it arrives;
  a head not complete within :data:`HEADER_TIMEOUT` seconds of the connection's first
  wait (or of a kept-alive connection's next request) is answered ``408`` and closed;
- a **body** of up to :data:`READ_AHEAD_BYTES` (every form and JSON body the site takes;
  not one sent with ``Expect: 100-continue`` or in chunks) is read there too, within
  :data:`BODY_TIMEOUT` seconds;
- only then does a thread get the request, with what was read put back in front of
  gunicorn's own parser: the app, its WSGI middleware and the database see a request
  exactly as before (threads, so SQLite's busy timeout and each thread's PostgreSQL
  connection in ``scorebook/web/poll.py`` work as they did);
- a bigger body (a league file being imported) is read by the thread as the app asks
  for it, each read waiting at most ``BODY_TIMEOUT`` seconds: a client that stops
  sending is taken as gone (the app sees the body end early and answers ``400``).
  Writing the answer waits as long at most for a client that stopped reading.

So an idle, slow or half-sent connection costs a socket, not a thread, and not for
long: ``benchmarks/slow_clients.py`` measures 200 idle + 200 half-sent + 200 slow-header
connections beside the probes of a phone. Why this and not gunicorn's gevent worker,
waitress or granian: README, "Serving", and ``benchmarks/README.md``.

``make serve`` loads this module as gunicorn's configuration (``gunicorn -c
python:scorebook.serving``: the module-level settings below); ``make run``
(``scorebook/table.py``) takes the same settings from :func:`options`. Environment:
``THREADS`` (4) per worker, ``HEADER_TIMEOUT`` (10 s) and ``BODY_TIMEOUT`` (30 s).
"""

from __future__ import annotations

import errno
import math
import os
import resource
import selectors
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Mapping
from functools import partial
from typing import Any

from gunicorn import http
from gunicorn import sock as gsock
from gunicorn.workers.gthread import TConn, ThreadWorker

#: Seconds a client has to send a request's head (from the connection's first wait for
#: it, or from a kept-alive connection's next request).
HEADER_TIMEOUT = 10.0
#: Seconds a client has to send a read-ahead body, and that a thread waits on any one
#: read of a bigger body (or on writing the answer to a client that stopped reading).
BODY_TIMEOUT = 30.0
#: Bodies up to this size are read before a thread is given the request. Pages take at
#: most 2 MB (MAX_CONTENT_LENGTH), the JSON API 128 KB; only a league import is bigger.
READ_AHEAD_BYTES = 1024 * 1024
#: Connections each worker keeps at most (gunicorn's default is 1000), and so the
#: open-file limit it raises its own soft limit to, if it can.
WORKER_CONNECTIONS = 2000
#: Threads per worker, unless THREADS says.
THREADS = 4
#: Seconds a kept-alive connection may wait for its next request (phones poll every
#: second on the live pages, so theirs are reused).
KEEPALIVE = 5

WORKER_CLASS = "scorebook.serving.ReadAheadWorker"
REQUEST_TIMEOUT_ANSWER = (b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
                          b"Content-Type: text/plain\r\nContent-Length: 16\r\n\r\n"
                          b"Request Timeout\n")


def seconds(environ: Mapping[str, str], name: str, default: float) -> float:
    """A positive number of seconds from the environment, else ``default``."""
    value = (environ.get(name) or "").strip()
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be a number of seconds above 0, not {value!r}")
    return number


# --- the job workers beside the server ---------------------------------------------------
# gunicorn's master starts JOB_WORKERS (1) ``python -m scorebook.worker`` processes as it
# starts (on_starting), with the environment the app's workers get (DATABASE_URL, ...),
# and stops them as it exits (on_exit); a worker also stops by itself when the master is
# gone (SCOREBOOK_WORKER_PARENT), so a killed server leaves none behind. JOB_WORKERS=0:
# none (the jobs are run by workers started some other way).

_job_workers: list[subprocess.Popen[bytes]] = []


def job_workers(environ: Mapping[str, str]) -> int:
    value = (environ.get("JOB_WORKERS") or "1").strip()
    if not value.isdigit():
        raise ValueError(f"JOB_WORKERS must be a whole number, not {value!r}")
    return int(value)


def on_starting(server: Any) -> None:
    """gunicorn's hook, in the master before it listens: start the job workers (and
    tell the app, through the environment its workers inherit, to leave long rating
    replays to them: ``RATINGS_CATCH_UP=job``)."""
    count = job_workers(os.environ)
    if count:
        os.environ.setdefault("RATINGS_CATCH_UP", "job")
    env = {**os.environ, "SCOREBOOK_WORKER_PARENT": str(os.getpid())}
    for _ in range(count):
        _job_workers.append(subprocess.Popen([sys.executable, "-m", "scorebook.worker"],
                                             env=env))


def on_exit(server: Any) -> None:
    """gunicorn's hook, in the master as it exits: stop the job workers (each hands its
    job back between two steps), waiting for them a little."""
    for process in _job_workers:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 10
    for process in _job_workers:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
    _job_workers.clear()


def options(environ: Mapping[str, str]) -> dict[str, Any]:
    """The gunicorn settings ``make run`` and ``make serve`` share."""
    return {
        "on_starting": on_starting,
        "on_exit": on_exit,
        "worker_class": WORKER_CLASS,
        "threads": int(environ.get("THREADS") or THREADS),
        "worker_connections": WORKER_CONNECTIONS,
        "keepalive": KEEPALIVE,
        # gunicorn would believe X-Forwarded-Proto from 127.0.0.1 whatever the app is
        # told: the app's TRUSTED_PROXIES alone decides whom to believe (its ProxyFix),
        # so a request over plain http is never taken for HTTPS (the Secure cookie, HSTS).
        "forwarded_allow_ips": "",
    }


def check_timeouts(environ: Mapping[str, str]) -> None:
    """Refuse a wrong ``HEADER_TIMEOUT``, ``BODY_TIMEOUT`` or ``JOB_WORKERS`` before the
    server starts (the workers read them from the environment they inherit)."""
    seconds(environ, "HEADER_TIMEOUT", HEADER_TIMEOUT)
    seconds(environ, "BODY_TIMEOUT", BODY_TIMEOUT)
    job_workers(environ)


def raise_open_files(wanted: int) -> int:
    """Raise this process's soft limit of open files to ``wanted`` (at most the hard
    limit); the limit in force after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


# --- sockets whose blocking calls time out ------------------------------------------------

class _Timed:
    """Mixed into a socket class: "blocking" means blocking for at most ``io_timeout``
    seconds (gunicorn's threads put a connection in blocking mode before reading the
    body and writing the answer), and a read that times out reads nothing, as if the
    client had gone (the request's body then ends early)."""

    io_timeout = BODY_TIMEOUT

    def setblocking(self, flag: bool) -> None:
        self.settimeout(self.io_timeout if flag else 0.0)  # type: ignore[attr-defined]

    def recv(self, size: int, flags: int = 0) -> bytes:
        try:
            return super().recv(size, flags)  # type: ignore[misc,no-any-return]
        except TimeoutError:
            return b""


class TimedSocket(_Timed, socket.socket):
    pass


class TimedSSLSocket(_Timed, ssl.SSLSocket):  # type: ignore[misc]  # (recv's names)
    pass


# --- the worker ---------------------------------------------------------------------------

class Reading:
    """A connection whose request is being read ahead."""

    __slots__ = ("conn", "buffer", "deadline", "head_end", "handshaken", "events")

    def __init__(self, conn: TConn, deadline: float, handshaken: bool) -> None:
        self.conn = conn
        self.buffer = bytearray()
        self.deadline = deadline
        self.head_end = -1
        self.handshaken = handshaken
        self.events = selectors.EVENT_READ


def body_to_read_ahead(head: bytes) -> int | None:
    """How many body bytes to read before a thread takes the request: its
    ``Content-Length`` when small enough, 0 for none, None when a thread reads it (a
    big or chunked body, or one the client sends only after ``100 Continue``); a head
    that is not valid goes to gunicorn's parser as it is, which refuses it."""
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            value = value.strip()
            if not value.isdigit():
                return 0
            length = int(value)
        elif name in (b"transfer-encoding", b"expect"):
            return None
    return length if length <= READ_AHEAD_BYTES else None


class ReadAheadWorker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's gthread worker, each request read ahead before a thread takes it:
    see the module's docstring."""

    def init_process(self) -> None:
        self.header_timeout = seconds(os.environ, "HEADER_TIMEOUT", HEADER_TIMEOUT)
        body_timeout = seconds(os.environ, "BODY_TIMEOUT", BODY_TIMEOUT)
        self.socket_class = type("TimedSocket", (TimedSocket,), {"io_timeout": body_timeout})
        self.body_timeout = body_timeout
        self.reading: dict[TConn, Reading] = {}
        self.tls: ssl.SSLContext | None = None
        if self.cfg.is_ssl:
            self.tls = gsock.ssl_context(self.cfg)
            self.tls.sslsocket_class = type(  # documented: a subclass of SSLSocket
                "TimedSSLSocket", (TimedSSLSocket,), {"io_timeout": body_timeout})
        raise_open_files(self.cfg.worker_connections + 256)
        super().init_process()

    # -- new connections and kept-alive ones wait here, not in a thread -------------------

    def accept(self, listener: Any) -> None:
        try:
            client, address = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        raw = self.socket_class(client.family, client.type, client.proto,
                                fileno=client.detach())
        try:
            raw.setblocking(False)
            if self.tls is not None:
                raw = self.tls.wrap_socket(
                    raw, server_side=True, do_handshake_on_connect=False,
                    suppress_ragged_eofs=self.cfg.suppress_ragged_eofs)
            conn = TConn(self.cfg, raw, address, listener.getsockname())
        except OSError:
            self.nr_conns -= 1
            raw.close()
            return
        conn.initialized = True  # its TLS and its parser are made here, not in a thread
        self.read_ahead(conn, handshaken=self.tls is None)

    def on_client_socket_readable(self, conn: TConn, client: Any) -> None:
        """A kept-alive connection's next request is arriving: read it ahead too."""
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self.read_ahead(conn, handshaken=True)
        self.on_readable(conn, client)

    def enqueue_req(self, conn: TConn) -> None:
        """gthread calls this for a kept-alive connection whose client sent (some of) its
        next request along with the last: that one is read ahead too (else half a head
        sent that way would hold a thread)."""
        state = self.read_ahead(conn, handshaken=True)
        if conn.parser is not None:
            state.buffer += conn.parser.unreader.take_buffered()
        if self.complete(state):
            self.hand_over(state)

    def read_ahead(self, conn: TConn, handshaken: bool) -> Reading:
        state = self.reading[conn] = Reading(conn, time.monotonic() + self.header_timeout,
                                             handshaken)
        conn.sock.setblocking(False)
        self.poller.register(conn.sock, selectors.EVENT_READ,
                             partial(self.on_readable, conn))
        return state

    def on_readable(self, conn: TConn, client: Any) -> None:
        state = self.reading.get(conn)
        if state is None:
            return
        try:
            if not state.handshaken:
                conn.sock.do_handshake()
                state.handshaken = True
            while True:
                data = conn.sock.recv(65536)
                if not data:
                    self.drop(state)  # the client went away
                    return
                state.buffer += data
                if self.complete(state):
                    self.hand_over(state)
                    return
        except (BlockingIOError, ssl.SSLWantReadError):
            self.wait_for(state, selectors.EVENT_READ)
        except ssl.SSLWantWriteError:
            self.wait_for(state, selectors.EVENT_READ | selectors.EVENT_WRITE)
        except (OSError, ssl.SSLError):
            self.drop(state)

    def wait_for(self, state: Reading, events: int) -> None:
        if events != state.events:
            state.events = events
            self.poller.modify(state.conn.sock, events, partial(self.on_readable, state.conn))

    def complete(self, state: Reading) -> bool:
        """Whether the head has all come (and the body to read ahead, if any)."""
        buffer = state.buffer
        if state.head_end < 0:
            # (gunicorn's parser skips empty lines before a request line: so does this,
            # else "\r\n\r\n" alone would hand a thread a request still to come)
            start = len(buffer) - len(buffer.lstrip(b"\r\n"))
            end = buffer.find(b"\r\n\r\n", start) if start < len(buffer) else -1
            if end < 0:
                # Longer than any head gunicorn accepts: its parser says so (400).
                return len(buffer) > self.head_limit()
            state.head_end = end + 4
            body = body_to_read_ahead(bytes(buffer[:end]))
            if body is None:
                return True
            state.head_end += body  # (now: where the read-ahead body ends)
            state.deadline = time.monotonic() + self.body_timeout
        return len(buffer) >= state.head_end

    def head_limit(self) -> int:
        cfg = self.cfg
        return int(cfg.limit_request_line + 2
                   + cfg.limit_request_fields * (cfg.limit_request_field_size + 2) + 4)

    def hand_over(self, state: Reading) -> None:
        """Give the request to a thread, what was read put back before gunicorn's parser."""
        conn = state.conn
        del self.reading[conn]
        self.poller.unregister(conn.sock)
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        conn.parser.unreader.unread(bytes(state.buffer))
        conn.data_ready = True
        super().enqueue_req(conn)

    def drop(self, state: Reading, answer: bytes = b"") -> None:
        conn = state.conn
        self.reading.pop(conn, None)
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        if answer and state.handshaken:
            try:
                conn.sock.send(answer)  # best effort: it is not blocking
            except (OSError, ssl.SSLError):
                pass
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """Besides gthread's own: close every connection whose head (or read-ahead
        body) is late, answering ``408`` when some of it came; all of them when the
        worker stops."""
        super().murder_pending()
        now = time.monotonic()
        for state in list(self.reading.values()):
            if not self.alive or state.deadline <= now:
                self.drop(state, REQUEST_TIMEOUT_ANSWER if state.buffer else b"")


# --- `gunicorn -c python:scorebook.serving` (make serve) ----------------------------------
# gunicorn takes every name of this module that is one of its settings (and ignores the
# others): these five, and the hooks on_starting and on_exit (above).

check_timeouts(os.environ)
_settings = options(os.environ)
worker_class = _settings["worker_class"]
threads = _settings["threads"]
worker_connections = _settings["worker_connections"]
keepalive = _settings["keepalive"]
forwarded_allow_ips = _settings["forwarded_allow_ips"]
