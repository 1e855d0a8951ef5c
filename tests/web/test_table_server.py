"""``make run`` serves the table: gunicorn on every interface, port 5000 unless told,
printing the address on the network that the phones open and a QR code of it.

The server is started as ``make run`` starts it (``python -m scorebook.table``), on a
free port and a database of its own.  Its listening socket is read from the system
(``ss -ltn``, else /proc/net/tcp), and test traffic goes to 127.0.0.1 only: never to
the address it prints for the phones.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from scorebook import table
from scorebook.lan import is_loopback_host, lan_address, usable
from tests.conftest import PATIENCE_S
from tests.qr import decode_terminal

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> set[str]:
    """The local addresses a TCP socket listens on at ``port`` (``0.0.0.0``, ``127.0.0.1``)."""
    found: set[str] = set()
    if shutil.which("ss"):
        out = subprocess.run(["ss", "-ltnH"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            fields = line.split()
            if len(fields) >= 4:
                address, _, at = fields[3].rpartition(":")
                if at == str(port):
                    found.add(address.strip("[]").replace("*", "0.0.0.0"))
        return found
    with open("/proc/net/tcp") as fh:  # IPv4: local address as hex, state 0A = LISTEN
        for line in fh.readlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            hex_ip, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(socket.inet_ntoa(bytes.fromhex(hex_ip)[::-1]))
    return found


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A migrated SQLite file, as ``make run`` prepares one (``flask db upgrade``)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('table') / 'table.sqlite3'}"
    subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"],
                   cwd=ROOT, env={**os.environ, "DATABASE_URL": url, "SECRET_KEY": "t"},
                   check=True, capture_output=True)
    return url


@contextmanager
def table_server(database: str, **env: str) -> Iterator[tuple[int, list[str]]]:
    """Start ``python -m scorebook.table``; yield its port and the banner it printed."""
    port = free_port()
    environ = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "table-test",
               "PORT": str(port), "LANG": "C.UTF-8", **env}
    environ.pop("PUBLIC_URL", None)
    if "PUBLIC_URL" in env:
        environ["PUBLIC_URL"] = env["PUBLIC_URL"]
    process = subprocess.Popen([sys.executable, "-m", "scorebook.table"], cwd=ROOT,
                               env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    lines: list[str] = []
    arrived: queue.Queue[str | None] = queue.Queue()
    assert process.stdout is not None

    def read(out: IO[str]) -> None:
        for line in out:
            arrived.put(line)
        arrived.put(None)  # the output ended: the server is gone

    threading.Thread(target=read, args=(process.stdout,), daemon=True).start()
    try:
        # Until the banner says it listens, or the server ends: however long a busy
        # machine takes to start it (only a server that hangs spends the patience).
        while not any("Ctrl+C" in line for line in lines):
            try:
                line = arrived.get(timeout=PATIENCE_S)
            except queue.Empty:
                raise AssertionError("the server printed nothing for "
                                     f"{PATIENCE_S:.0f} s:\n{''.join(lines)}") from None
            assert line is not None, f"the server ended:\n{''.join(lines)}"
            lines.append(line)
        yield port, lines
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # gunicorn's master and its workers
        try:
            process.wait(timeout=PATIENCE_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def get(port: int, path: str = "/") -> tuple[int, str]:
    # The banner comes once gunicorn listens; its workers may take a while longer to load
    # the app on a busy machine (11 s seen at a load average of 20), and the first
    # request waits for them.
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=PATIENCE_S) as answer:
        return answer.status, answer.read().decode()


def test_make_run_serves_every_interface_and_prints_the_phones_address(database: str) -> None:
    with table_server(database) as (port, lines):
        assert listening(port) == {"0.0.0.0"}, listening(port)
        status, body = get(port)
        assert status == 200 and "Rummy Scorebook" in body
        assert get(port, "/manifest.webmanifest")[0] == 200
    text = "".join(lines)
    assert "development server" not in text.lower()
    if lan_address() is None:  # a machine on no network: it says so instead
        assert "on no network" in text
        return
    urls = re.findall(r"^\s+(http://\S+)\s*$", text, re.M)
    assert urls, text
    url = urls[0]
    host = re.match(r"http://([^:/]+)", url).group(1)  # type: ignore[union-attr]
    assert usable(host) and not is_loopback_host(host), url
    assert url.endswith(f":{port}")
    qr = [line for line in lines if set(line.strip()) and set(line.strip()) <= set("█▀▄ ")]
    assert len(qr) > 10, text
    assert decode_terminal(qr) == url
    assert f"On this computer: http://127.0.0.1:{port}" in text


def test_host_127_0_0_1_keeps_it_private(database: str) -> None:
    with table_server(database, HOST="127.0.0.1") as (port, lines):
        assert listening(port) == {"127.0.0.1"}
        assert get(port, "/rules/")[0] == 200
    text = "".join(lines)
    assert f"running on this computer only: http://127.0.0.1:{port}" in text
    assert "█" not in text  # no QR code of an address the phones cannot open


def test_the_terminal_speaks_the_locale_language() -> None:
    settings = table.Settings({"LANG": "es_ES.UTF-8", "PORT": "5000"})
    assert settings.language == "es"
    text = table.banner(settings, "http://192.168.1.23:5000")
    assert "En los móviles" in text and "http://192.168.1.23:5000" in text
    assert decode_terminal(table.qr_lines("http://192.168.1.23:5000")) == \
        "http://192.168.1.23:5000"
    assert table.terminal_language({"LC_ALL": "it_IT.UTF-8", "LANG": "en_GB"}) == "it"
    assert table.terminal_language({"LANG": "de_DE.UTF-8"}) == "en"
    assert table.terminal_language({}) == "en"


def test_the_phones_address_and_the_server_settings() -> None:
    given = table.Settings({"PUBLIC_URL": "https://scores.example.org/"})
    assert table.table_url(given) == "https://scores.example.org"
    private = table.Settings({"HOST": "127.0.0.1"})
    assert table.table_url(private) is None
    options = table.gunicorn_options(table.Settings({"PORT": "5001"}), lambda server: None)
    assert options["bind"] == ["0.0.0.0:5001"]
    # make serve's worker (scorebook/serving.py): gthread with its requests read ahead
    assert options["worker_class"] == "scorebook.serving.ReadAheadWorker"
    assert options["threads"] >= 2
    tls = table.Settings({"CERTFILE": "c.pem", "KEYFILE": "k.pem", "PORT": "443"})
    assert tls.url("192.168.1.23") == "https://192.168.1.23"
    assert table.gunicorn_options(tls, lambda server: None)["certfile"] == "c.pem"
