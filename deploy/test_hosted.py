"""The hosted scorebook as ``make deploy`` leaves it, driven from outside (``make
test-deploy``, after ``deploy.sh DOMAIN=… TLS=internal`` ran on this machine): the
commands of its systemd units started as systemd would (``deploy/units.py``), Caddy in
front with its own certificate authority, and Debian's Chromium trusting that
authority's root (an NSS database of its own), opening ``https://DOMAIN/`` as a phone.

Not collected by ``make test`` (tests/ only): it needs root and the deployed site."""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect, sync_playwright

from deploy import units
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, WAIT_MS, tick_missing
from tests.conftest import PATIENCE_S

DOMAIN = os.environ.get("DEPLOY_DOMAIN", "scorebook-e2e.test")
SITE = f"https://{DOMAIN}"
WEB = {"scorebook-web-1.service": 8001, "scorebook-web-2.service": 8002}
CADDY_ROOT = Path("/var/lib/caddy/.local/share/caddy/pki/authorities/local/root.crt")
BACKUPS = Path("/var/backups/scorebook")
QUEUED = "Saved on this phone — hand 1 will be sent when online."

expect.set_options(timeout=WAIT_MS)


def wait_for(what: str, check: Any) -> Any:
    deadline = time.monotonic() + PATIENCE_S
    while True:
        try:
            found = check()
        except (OSError, urllib.error.URLError):
            found = None
        if found:
            return found
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.2)


def answers(port: int) -> bool:
    """A whole request answered (a connection left without one would hold a gunicorn
    worker's shutdown until its header timeout)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/manifest.webmanifest",
                                timeout=5) as answer:
        return answer.status == 200


def redis_answers() -> bool:
    with socket.create_connection(("127.0.0.1", 6379), timeout=2) as ping:
        ping.sendall(b"PING\r\n")
        return ping.recv(16).startswith(b"+PONG")


def run_as_app(code: str) -> Any:
    """Python run on the deployed site, as its user, with its settings (the worker
    unit's): what it prints, read as JSON."""
    found = units.command("scorebook-worker.service")
    python = found.argv[found.argv.index("--") + 1]
    argv = found.argv[:found.argv.index("--") + 1] + [python, "-c", code]
    done = subprocess.run(argv, env=found.env, cwd=found.cwd, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


SEED = """
import json
from app import create_app
from referee import make_rules
from scorebook.extensions import db
from scorebook.models import League
from scorebook.services import games, invites
app = create_app()
with app.test_request_context():
    league = League(name=%r)
    db.session.add(league)
    db.session.commit()
    game = games.create_game(league, ["Ann", "Ben"], 0, make_rules("rummy-500"))
    invites.open_door(league, "scorer")
    db.session.commit()
    token = invites.door_token(league, "scorer")
    print(json.dumps({"game": game.id, "join": f"/join/{token}?next=/games/{game.id}"}))
"""

STORED = """
import json
from app import create_app
from scorebook.extensions import db
from scorebook.models import Hand
app = create_app()
with app.app_context():
    rows = db.session.scalars(db.select(Hand).where(Hand.game_id == %d).order_by(Hand.number))
    print(json.dumps([[h.number, [s.card for s in h.stranded]] for h in rows]))
"""


@pytest.fixture(scope="module")
def site() -> Iterator[dict[str, subprocess.Popen[bytes]]]:
    """redis-server (unless one answers already), the two gunicorns, the job worker and
    Caddy, each started from its unit; stopped again, last first."""
    started: dict[str, subprocess.Popen[bytes]] = {}
    names = ([] if _quietly(redis_answers) else ["redis-server.service"]) + [
        *WEB, "scorebook-worker.service", "caddy.service"]
    log = open("/tmp/scorebook-test-deploy-units.log", "ab")  # noqa: SIM115
    try:
        for name in names:
            found = units.command(name)
            print(f"starting {name}: {' '.join(found.argv)}")
            started[name] = found.popen(stdout=log, stderr=log)
            if name == "redis-server.service":
                wait_for("redis answers", redis_answers)
        for name, port in WEB.items():
            wait_for(f"{name} listens", lambda port=port: answers(port))
        wait_for("Caddy's root certificate", CADDY_ROOT.exists)
        context = ssl.create_default_context(cafile=str(CADDY_ROOT))
        wait_for("https answers", lambda: urllib.request.urlopen(
            SITE + "/manifest.webmanifest", context=context, timeout=5).status == 200)
        yield started
    finally:
        for process in reversed(list(started.values())):  # Caddy first, Redis last
            stop(process)
        log.close()


def stop(process: subprocess.Popen[bytes]) -> None:
    """As systemctl stop does with ``KillMode=mixed``: SIGTERM to the unit's main process
    (gunicorn's master stops its workers), SIGKILL to whatever is left of it after a
    minute or once it is gone."""
    if process.poll() is None:
        os.kill(process.pid, 15)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, 9)
    except ProcessLookupError:
        pass
    process.wait()


def _quietly(check: Any) -> bool:
    try:
        return bool(check())
    except OSError:
        return False


@pytest.fixture(scope="module")
def phone(site: dict[str, subprocess.Popen[bytes]], tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[BrowserContext]:
    """Chromium with a profile of its own (Playwright's incognito contexts install
    nothing), whose NSS database trusts Caddy's local root, as a phone would once its
    owner installed it."""
    home = tmp_path_factory.mktemp("chromium-home")
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-n", "caddy-local-root",
                    "-t", "C,,", "-i", str(CADDY_ROOT)], check=True)
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(home / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS,
            env={**os.environ, "HOME": str(home)}, viewport=PHONE, timeout=WAIT_MS)
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        try:
            yield context
        finally:
            context.close()


@pytest.fixture(scope="module")
def page(phone: BrowserContext) -> Page:
    return phone.pages[0] if phone.pages else phone.new_page()


def controlled(page: Page) -> None:
    page.evaluate("navigator.serviceWorker.ready")
    if not page.evaluate("!!navigator.serviceWorker.controller"):
        page.reload()
    page.wait_for_function("!!navigator.serviceWorker.controller")


def test_the_site_installs_over_https(phone: BrowserContext, page: Page) -> None:
    answer = page.goto(SITE + "/")
    assert answer is not None and answer.status == 200 and page.url == SITE + "/"
    controlled(page)
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == SITE + "/"
    cdp = phone.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].startswith(SITE + "/manifest.webmanifest")
    assert not manifest.get("errors"), manifest["errors"]
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []


def test_https_only_hsts_and_a_secure_session_cookie(phone: BrowserContext, page: Page) -> None:
    answer = page.goto(SITE + "/leagues/login")  # a form: its token goes in the session
    assert answer is not None
    assert answer.headers["strict-transport-security"] == "max-age=31536000"
    cookies = [c for c in phone.cookies() if c["domain"].lstrip(".") == DOMAIN]
    assert cookies, "no session cookie"
    assert all(c["secure"] and c["httpOnly"] for c in cookies), cookies
    # plain http is sent to https by Caddy
    plain = urllib.request.Request(f"http://{DOMAIN}/", method="GET")
    with pytest.raises(urllib.error.HTTPError) as moved:
        urllib.request.build_opener(NoRedirect).open(plain, timeout=10)
    assert moved.value.code in (301, 302, 308)
    assert moved.value.headers["Location"] == SITE + "/"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any) -> None:
        return None


def direct(port: int, path: str, body: Any = None, cookie: str = "",
           client: str = "127.0.0.1") -> tuple[int, dict[str, str], Any]:
    """A request to one gunicorn instance itself, as Caddy sends it (its forwarded
    headers: TRUSTED_PROXIES=1 believes them)."""
    headers = {"Host": DOMAIN, "X-Forwarded-Proto": "https", "X-Forwarded-For": client,
               "X-Forwarded-Host": DOMAIN}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if cookie:
        headers["Cookie"] = cookie
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE_S) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), None


@pytest.fixture(scope="module")
def game(page: Page) -> int:
    """A new league's game, joined by the phone with a scorer's link."""
    seeded = run_as_app(SEED % f"Deploy test {time.time():.0f} {random.randrange(10**6)}")
    page.goto(SITE + seeded["join"])
    page.get_by_role("button", name="Join").first.click()
    page.wait_for_url(lambda url: "/join" not in url)
    return int(seeded["game"])


def stored(game_id: int) -> list[tuple[int, list[str]]]:
    return [(number, cards) for number, cards in run_as_app(STORED % game_id)]


def test_a_hand_saved_offline_is_sent_once_on_reconnect(
        phone: BrowserContext, page: Page, game: int) -> None:
    board = f"{SITE}/games/{game}"
    page.goto(board)
    controlled(page)
    page.goto(board)
    page.wait_for_function(
        "p => caches.open('scorebook-pages').then(c => c.match(location.origin + p))"
        ".then(r => !!r)", arg=f"/games/{game}/hands/new", polling=100)
    page.get_by_role("link", name="Record hand 1").click()
    page.wait_for_load_state()
    for player, tool, cards in ((0, "New meld", ("7 of spades", "8 of spades", "9 of spades")),
                                (1, "In hand", ("king of diamonds",))):
        page.locator(f"#player-{player}").get_by_role("button", name=tool, exact=True).click()
        for card in cards:
            page.locator(".picker-grid").get_by_role("button", name=card, exact=True).click()
    tick_missing(page, "Save hand 1")
    phone.set_offline(True)
    try:
        expect(page.locator("[data-offline-banner]")).to_be_visible()
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator("[data-queue-notice]")).to_contain_text(QUEUED)
        page.goto(board)  # the scoreboard as last seen, from the service worker
        expect(page.locator("[data-outbox]")).to_contain_text("One hand is saved on this phone")
        assert stored(game) == []
    finally:
        phone.set_offline(False)
    expect(page.locator("[data-outbox]")).to_contain_text(
        "Hand 1, saved on this phone, was sent: it is stored.")
    expect(page.locator("#hand-1")).to_be_visible()
    page.reload()
    page.wait_for_timeout(500)
    assert stored(game) == [(1, ["KD"])]


def test_the_scoreboard_follows_changes_made_through_either_instance(
        phone: BrowserContext, page: Page, game: int) -> None:
    """The phone's scoreboard polls through Caddy (either instance answers); each new
    hand is sent to one instance directly, the next to the other."""
    board = f"{SITE}/games/{game}"
    if not page.url.startswith(board):
        page.goto(board)
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in phone.cookies()
                       if c["domain"].lstrip(".") == DOMAIN)
    for number, port in ((2, WEB["scorebook-web-2.service"]), (3, WEB["scorebook-web-1.service"])):
        body = {"number": number, "went_out": "Ann", "players": [
            {"name": "Ann", "melds": [{"cards": ["7S", "8S", "9S"]}]},
            {"name": "Ben", "hand": ["KD"]}]}
        status, _headers, sent = direct(port, f"/api/v1/games/{game}/hands", body, cookie)
        assert status == 201, (status, sent)
        expect(page.locator(f"#hand-{number}")).to_be_visible()
    assert [number for number, _ in stored(game)] == [1, 2, 3]


def test_the_rate_limit_is_counted_by_both_instances_together(
        site: dict[str, subprocess.Popen[bytes]]) -> None:
    """REFEREE_RATE_LIMIT (60 per minute) for one client address, its questions sent in
    turn to each instance: one count, so the 61st is refused by both."""
    client = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
    question = {"rules": {"family": "pagat-500"}, "cards": ["7S", "8S", "9S"]}
    ports = list(WEB.values())
    remaining = []
    for asked in range(60):
        status, headers, _ = direct(ports[asked % 2], "/api/v1/referee/meld", question,
                                    client=client)
        assert status == 200, (asked, status)
        remaining.append(int(headers["X-RateLimit-Remaining"]))
    assert remaining == list(range(59, -1, -1))
    for port in ports:
        status, headers, _ = direct(port, "/api/v1/referee/meld", question, client=client)
        assert status == 429 and int(headers["Retry-After"]) > 0


def test_a_restart_of_one_instance_loses_nothing(
        site: dict[str, subprocess.Popen[bytes]]) -> None:
    """One gunicorn stopped (as systemctl restart stops it): every request through Caddy
    is still answered, by the other; started again, it answers too."""
    context = ssl.create_default_context(cafile=str(CADDY_ROOT))
    name = "scorebook-web-1.service"
    stop(site[name])
    try:
        for _ in range(10):
            with urllib.request.urlopen(SITE + "/manifest.webmanifest", context=context,
                                        timeout=PATIENCE_S) as answer:
                assert answer.status == 200
    finally:
        log = open("/tmp/scorebook-test-deploy-units.log", "ab")  # noqa: SIM115
        site[name] = units.command(name).popen(stdout=log, stderr=log)
        log.close()
    wait_for(f"{name} listens again", lambda: answers(WEB[name]))


def test_the_backup_unit_writes_a_pg_dump() -> None:
    before = set(BACKUPS.glob("scorebook-*.dump"))
    time.sleep(1.1)  # (one dump a second at most: named after the second)
    backup = units.command("scorebook-backup.service")
    done = subprocess.run(backup.argv, env=backup.env, cwd=backup.cwd, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    new = set(BACKUPS.glob("scorebook-*.dump")) - before
    assert len(new) == 1, new
    dump = new.pop()
    assert dump.stat().st_size > 0 and dump.owner() == "scorebook"
    listing = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True,
                             text=True, check=True).stdout
    assert "TABLE public hand " in listing or "TABLE DATA public hand " in listing, listing[:2000]
    assert shutil.which("pg_restore")
