"""Phones on slow networks, in Chromium at 390×844: pages and files come compressed,
one stylesheet, static files by versioned URLs that a second visit takes from the cache
without asking, and a service worker that keeps exactly those URLs, drops an old
version's files when a new one arrives, and offline still answers the URLs of pages it
kept from before."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page

from scorebook import assets
from scorebook.extensions import db
from tests.browser.conftest import PHONE
from tests.browser.serving import serve, sqlite_app
from tests.conftest import PATIENCE_S

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    """An app of this module's own: one test gives it a new version of its files."""
    folder: Path = tmp_path_factory.mktemp("slow-network")
    app = sqlite_app(folder, "slow.sqlite3")
    with serve(app) as url:
        yield app, url
    with app.app_context():
        db.drop_all()


def controlled(page: Page) -> None:
    page.evaluate("navigator.serviceWorker.ready")
    if not page.evaluate("!!navigator.serviceWorker.controller"):
        page.reload()
    page.wait_for_function("!!navigator.serviceWorker.controller")


def until(page: Page, condition: Callable[[], bool], seconds: float = PATIENCE_S) -> None:
    """Wait for ``condition`` (Playwright's wait_for_function does not wait for a
    promise, and the caches answer only with promises), as patiently as any wait."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(100)


def worker_config(page: Page, url: str) -> dict[str, object]:
    source = page.evaluate("u => fetch(u, {cache: 'no-store'}).then(r => r.text())", url + "/sw.js")
    first = source.partition("\n")[0]
    return json.loads(first.removeprefix("self.SCOREBOOK = ").rstrip(";"))  # type: ignore[no-any-return]


KEPT_FILES = """version => caches.open("scorebook-static-" + version)
  .then(cache => cache.keys())
  .then(requests => requests.map(r => {
    const u = new URL(r.url);
    return u.pathname + u.search;
  }))"""

STATIC_CACHES = """() => caches.keys().then(names =>
  names.filter(n => n.indexOf("scorebook-static-") === 0))"""


def test_a_second_visit_asks_for_no_static_file(browser, site: tuple[Flask, str]) -> None:  # type: ignore[no-untyped-def]
    """The HTTP cache alone (no service worker): the first visit fetches one stylesheet
    and the scripts, compressed; the second fetches the page and nothing else."""
    _, url = site
    context = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        page = context.new_page()
        answers: list[tuple[str, str | None]] = []
        page.on("response", lambda r: answers.append((r.url, r.headers.get("content-encoding"))))
        # (until the network is idle: the icon is fetched after the page's load event,
        # and a second visit that starts before it arrived would fetch it again)
        page.goto(url + "/rules/rummy-500", wait_until="networkidle")
        sheets = [u for u, _ in answers if ".css" in u]
        assert len(sheets) == 1 and "/static/css/site.css?v=" in sheets[0]
        encodings = dict(answers)
        assert encodings[url + "/rules/rummy-500"] == "br"
        assert encodings[sheets[0]] == "br"
        assert all(encodings[u] == "br" for u in encodings if ".js?v=" in u)
        page.goto(url + "/rules/basic")
        # the stylesheet, the scripts and the icon: from the cache, without a request
        # (a revalidation would show as the bytes of a 304's headers)
        sizes = page.evaluate("""() => performance.getEntriesByType("resource")
          .filter(r => r.name.indexOf("/static/") >= 0).map(r => [r.name, r.transferSize])""")
        assert any(".css?v=" in name for name, _ in sizes)
        assert [name for name, size in sizes if size] == []
    finally:
        context.close()


def test_the_worker_keeps_the_versioned_files_and_drops_an_old_version(
        page: Page, site: tuple[Flask, str]) -> None:
    app, url = site
    page.goto(url + "/rules/")
    controlled(page)
    config = worker_config(page, url)
    version = config["version"]
    until(page, lambda: page.evaluate(STATIC_CACHES) == [f"scorebook-static-{version}"]
          and bool(page.evaluate(KEPT_FILES, version)))
    assert sorted(page.evaluate(KEPT_FILES, version)) == sorted(config["static"])  # type: ignore[type-var]
    assert page.evaluate(STATIC_CACHES) == [f"scorebook-static-{version}"]

    # offline, a page kept from before asks for files by their old URLs
    page.context.set_offline(True)
    try:
        bundle, old_sheet, old_script, current = page.evaluate("""() => Promise.all([
            fetch("/static/css/site.css?v=000000000000").then(r => r.text()),
            fetch("/static/css/app.css").then(r => r.text()),
            fetch("/static/js/live.js?v=000000000000")
              .then(r => r.status + " " + r.headers.get("content-type")),
            fetch(document.querySelector("link[rel=stylesheet]").href).then(r => r.text()),
        ])""")
    finally:
        page.context.set_offline(False)
    assert "/* ---- css/app.css ---- */" in current
    assert bundle == current and old_sheet == current  # every rule of every page
    assert old_script.startswith("200 text/javascript")

    # a new version of the files: the next worker keeps the new URLs, drops the old
    with app.app_context():
        now = assets.snapshot(app)
        newer = dataclasses.replace(
            now, digest="0" * 16,
            versions={**now.versions, "js/live.js": "0123456789ab"})
        app.extensions["scorebook.assets"] = newer
    try:
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        # the old version's cache goes once the new worker takes over
        until(page, lambda: page.evaluate(STATIC_CACHES) == ["scorebook-static-" + "0" * 16])
        kept = page.evaluate(KEPT_FILES, "0" * 16)
        assert "/static/js/live.js?v=0123456789ab" in kept
        assert not any(k.startswith("/static/js/live.js?v=" + now.versions["js/live.js"])
                       for k in kept)
    finally:
        with app.app_context():
            app.extensions["scorebook.assets"] = now
