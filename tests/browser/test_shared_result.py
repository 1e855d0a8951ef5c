"""A result shared by link, in Chromium at 390×844: a member makes the link from the
finished game; a relative's phone, in no league (a browser context of its own), opens
it and sees that game only, and nothing else of the league opens for it; the owner
stops the link from the league's settings and the relative's next visit says so."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from flask import Flask
from playwright.sync_api import Page, expect

from scorebook.extensions import db
from tests.browser.conftest import PHONE
from tests.browser.serving import serve, sqlite_app
from tests.browser.test_accessibility import WCAG_AA, problems
from tests.browser.test_table_app import join, owner, screenshot_of, seed

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    folder: Path = tmp_path_factory.mktemp("shared-result")
    app = sqlite_app(folder, "shared.sqlite3")
    with serve(app) as url:
        yield app, url
    with app.app_context():
        db.drop_all()


def test_a_relative_opens_the_result_and_nothing_else(browser, page: Page,  # type: ignore[no-untyped-def]
                                                     table: tuple[Flask, str]) -> None:
    app, url = table
    league_id, game_id, code = seed(app, "Family Shared", 3)
    join(page, url + code)  # a scorer of the family
    page.get_by_role("link", name="Share the result").click()
    heading = page.get_by_role("heading", name=re.compile("A link for people outside"))
    expect(heading).to_be_visible()
    screenshot_of(page, "share-make-the-link")
    page.get_by_role("button", name="Make the link").click()
    expect(page.get_by_text("has a link now")).to_be_visible()
    link = page.get_by_label("Link to the result:").input_value()
    assert re.fullmatch(re.escape(url) + r"/results/[\w-]{43}", link)
    screenshot_of(page, "share-the-link")
    assert not problems(Axe().run(page, options=WCAG_AA).response)

    relative = browser.new_context(viewport=PHONE, device_scale_factor=1)
    try:
        phone = relative.new_page()
        phone.goto(link)
        expect(phone.locator(".banner-winner")).to_contain_text("Ann wins!")
        expect(phone.locator("table.scores tfoot")).to_contain_text("660")
        expect(phone.get_by_role("heading", level=1)).to_contain_text("Game 1")
        expect(phone.locator("body")).not_to_contain_text("Family Shared")
        expect(phone.get_by_role("link", name="League")).to_have_count(0)
        hrefs = phone.locator("a[href]").evaluate_all("els => els.map(e => e.getAttribute('href'))")
        assert not [h for h in hrefs if h.startswith(("/games", "/league", "/results"))], hrefs
        screenshot_of(phone, "shared-result")
        assert not problems(Axe().run(phone, options=WCAG_AA).response)
        # the link let it see one result, not into the league
        for path in (f"/games/{game_id}", f"/games/{game_id}/hands/1",
                     f"/games/{game_id}/history", f"/games/{game_id}/share"):
            answer = phone.goto(url + path)
            assert answer is not None and answer.status == 404, path
        phone.goto(f"{url}/league/")
        expect(phone).to_have_url(re.compile(r"/leagues\?next="))

        # the owner stops it from the league's settings
        owner(page, app, url, league_id)
        page.goto(f"{url}/leagues/{league_id}/settings#shared-results")
        expect(page.locator("#shared-results")).to_contain_text("Game 1")
        page.get_by_role("button", name="Stop the link to game 1").click()
        expect(page.locator("#shared-results")).to_contain_text(
            "No result of this league is shared by link.")
        answer = phone.goto(link)
        assert answer is not None and answer.status == 404
        expect(phone.locator("main")).to_contain_text("not shared any more")
        screenshot_of(phone, "shared-result-stopped")
    finally:
        relative.close()
