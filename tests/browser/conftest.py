"""Browser tests: the app served on a free loopback port, driven by Playwright in
Debian's Chromium at phone size (390×844).  Never downloads a browser.

Every wait is patient (:data:`WAIT_MS`, from ``tests.conftest.PATIENCE_S``): Playwright's
actions, navigations and ``wait_for_*`` in every browser context the tests open (the
``browser`` fixture hands out contexts that wait so), and ``expect(...)``'s assertions. A
page that takes 20 s to load on a machine busy with other work is slow, not wrong; what
never comes still fails, once the patience is spent."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, expect

from scorebook.extensions import db
from tests.browser.serving import serve, sqlite_app
from tests.conftest import PATIENCE_S

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
#: How long any wait of a browser test may take (see the module's docstring).
WAIT_MS = PATIENCE_S * 1000
expect.set_options(timeout=WAIT_MS)
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on 127.0.0.1 and a free port, with its own database; yields the base URL."""
    folder = tmp_path_factory.mktemp("live")
    # Its own SQLite file, even in the PostgreSQL run: the other tests create and drop
    # the tables of TEST_DATABASE_URL around every test, which would pull them out from
    # under a server that lives for the whole session.
    app = sqlite_app(folder, "live.sqlite3")
    with serve(app) as url:
        yield url
    with app.app_context():
        db.drop_all()


def patient(context: BrowserContext) -> BrowserContext:
    """``context`` with every wait of its pages set to :data:`WAIT_MS`."""
    context.set_default_timeout(WAIT_MS)
    context.set_default_navigation_timeout(WAIT_MS)
    return context


class PatientBrowser:
    """Chromium, whose new contexts (and pages) wait patiently: :func:`patient`."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium

    def new_context(self, **options: Any) -> BrowserContext:
        return patient(self.chromium.new_context(**options))

    def new_page(self, **options: Any) -> Any:
        return self.new_context(**options).new_page()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.chromium, name)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                              timeout=WAIT_MS)
        yield PatientBrowser(chromium)
        chromium.close()


@pytest.fixture
def page(browser):  # type: ignore[no-untyped-def]
    """A phone-size page; the test fails if the Content-Security-Policy blocked anything
    (an inline script or style, or something from another site)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    blocked: list[str] = []
    page.on("console", lambda message: blocked.append(message.text)
            if "Content Security Policy" in message.text else None)
    yield page
    context.close()
    assert not blocked, blocked


@pytest.fixture
def writer(browser):  # type: ignore[no-untyped-def]
    """A second phone, with JavaScript off: it records by the typed forms."""
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screenshot(page):  # type: ignore[no-untyped-def]
    """``screenshot(name)`` saves the page, full length at phone width, into
    docs/screenshots/ (committed, so a person can look at every page) when the
    environment has ``SCREENSHOTS=1`` (``make screenshots``); otherwise it does
    nothing, so a test run leaves the work tree clean."""

    def shoot(name: str) -> None:
        if os.environ.get("SCREENSHOTS") != "1":
            return
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    return shoot


def tick_missing(page, save: str) -> None:  # type: ignore[no-untyped-def]
    """RULES.md §10 "Fewer cards than dealt", on the record page with its script: a tap on
    ``save`` (the button's name) asks about every player short of the cards dealt, and
    nothing is sent; tick for each that nobody remembers the rest. The next tap sends."""
    from playwright.sync_api import expect

    page.get_by_role("button", name=save).click()
    expect(page.locator("[data-save-error]")).to_contain_text(
        "some cards seem to be missing")
    for box in page.locator("input[name=missing_ok]").all():
        box.check()
