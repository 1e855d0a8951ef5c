"""The league import at phone size, with JavaScript: the file goes up by XMLHttpRequest
(the page says how much is sent, then that the server is checking every hand) and the
server's answer replaces the page: the imported league's standings, or the form with
what is wrong in the file."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorebook.extensions import db
from scorebook.services import games, hands
from scorebook.services.entry import entry_from_text
from scorebook.services.exports import export_league
from scorebook.worker import Worker
from tests.browser.serving import serve, sqlite_app
from tests.browser.test_scorebook_game import start_game
from tests.reading import sentence


@pytest.fixture(scope="module")
def import_server(tmp_path_factory: pytest.TempPathFactory
                  ) -> Iterator[tuple[str, bytes, Flask]]:
    """A server, the export of a league of one finished game (named Moved family), and
    the served app."""
    folder: Path = tmp_path_factory.mktemp("import")
    elsewhere = sqlite_app(folder, "elsewhere.sqlite3")  # the install the league comes from
    with elsewhere.test_request_context():
        game = games.create_game(games.default_league(), ["Ann", "Ben"], 0,
                                 games.build_rules("rummy-500", {"target": 50}))
        hands.record_hand(game, entry_from_text(["Ann", "Ben"], {
            "Ann": {"melds": "as ah ad ac\nks kh kd kc"}, "Ben": {"hand": "5h"}},
            "Ann", None, False, False))
        data = export_league(games.default_league())
        db.session.remove()
    app = sqlite_app(folder, "import.sqlite3")
    app.config["JOBS_INLINE"] = True  # (no job worker beside this server: run it in the request)
    data["league"]["name"] = "Moved family"
    with serve(app) as url:
        yield url, json.dumps(data, indent=1).encode(), app


def test_importing_a_league_with_the_page(page: Page,
                                          import_server: tuple[str, bytes, Flask],
                                          screenshot) -> None:  # type: ignore[no-untyped-def]
    url, file, _ = import_server
    start_game(page, url, ["Cy", "Dee"], "rummy-500")  # this browser owns a league
    page.goto(f"{url}/league/export")
    expect(page.get_by_text("A file of up to 512 MB")).to_be_visible()
    screenshot("league-import")
    form = page.locator("form[data-import]")
    # a broken file first: the form comes back with the reason, in place
    form.get_by_label("League file (JSON, or compressed: .json.gz)").set_input_files(
        {"name": "league.json", "mimeType": "application/json", "buffer": file[:200]})
    form.get_by_role("button", name="Import").click()
    expect(page.locator("#import-error")).to_contain_text("not JSON")
    form = page.locator("form[data-import]")
    form.get_by_label("League file (JSON, or compressed: .json.gz)").set_input_files(
        {"name": "league.json", "mimeType": "application/json", "buffer": file})
    with page.expect_request(lambda r: r.method == "POST") as posted:
        form.get_by_role("button", name="Import").click()
    assert posted.value.resource_type == "xhr"  # sent by the script, which shows progress
    expect(page.locator(".flash")).to_contain_text(
        sentence("The league Moved family was imported, and this browser owns it"))
    assert re.search(r"/league/\?season=all$", page.url), page.url
    expect(page.locator("h1")).to_contain_text("Moved family")


def test_the_job_page_keeps_its_place_until_the_import_ends(
        page: Page, import_server: tuple[str, bytes, Flask]) -> None:
    """Sent by the script, the answer is the queued job's page written in place of the
    form; its refreshes must stay on the job's address (they once reloaded the export
    page, and the import's end, a failure's reason too, was never seen)."""
    url, file, app = import_server
    app.config["JOBS_INLINE"] = False  # a worker of the test's own runs the job
    try:
        start_game(page, url, ["Eve", "Fil"], "rummy-500")
        page.goto(f"{url}/league/export")
        form = page.locator("form[data-import]")
        data = json.loads(file)
        data["league"]["name"] = "Queued family"
        form.get_by_label("League file (JSON, or compressed: .json.gz)").set_input_files(
            {"name": "league.json", "mimeType": "application/json",
             "buffer": json.dumps(data).encode()})
        form.get_by_role("button", name="Import").click()
        expect(page.locator("[data-job]")).to_have_attribute("data-state", "queued")
        job_url = page.url
        assert re.search(r"/jobs/\d+$", job_url), job_url
        with page.expect_request(lambda r: r.is_navigation_request()) as refresh:
            pass  # the page's next refresh
        assert refresh.value.url == job_url
        expect(page.locator("[data-job]")).to_have_attribute("data-state", "queued")
        assert page.url == job_url
        assert Worker(app, "test-worker").run_once() is not None
        expect(page.locator(".flash")).to_contain_text(
            sentence("The league Queued family was imported, and this browser owns it"))
        expect(page.locator("h1")).to_contain_text("Queued family")
    finally:
        app.config["JOBS_INLINE"] = True


def test_a_league_whose_name_is_taken_is_imported_under_a_new_name_in_italian(
        page: Page, import_server: tuple[str, bytes, Flask]) -> None:
    """An Italian family imports a league whose name another league here already has: the
    refusal, in Italian, names the field for a new name; with a name typed there, the
    league is imported under it."""
    from tests.browser.conftest import SHOTS

    url, file, app = import_server
    data = json.loads(file)
    data["league"]["name"] = "Famiglia doppia"
    with app.test_request_context():
        league = games.default_league()  # another league here has the file's name
        league.name = "Famiglia doppia"
        db.session.commit()
        db.session.remove()
    start_game(page, url, ["Gio", "Ugo"], "rummy-500")
    page.goto(f"{url}/league/export")
    page.locator("header").get_by_text("IT", exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", "it")
    form = page.locator("form[data-import]")
    form.locator("input[type=file]").set_input_files(
        {"name": "campionato.json", "mimeType": "application/json",
         "buffer": json.dumps(data).encode()})
    form.get_by_role("button", name="Importa").click()
    expect(page.locator("#import-error")).to_contain_text("un nome nuovo qui sotto")
    if os.environ.get("SCREENSHOTS") == "1":
        page.screenshot(path=str(SHOTS / "league-import-name-taken-it.png"), full_page=True)
    form = page.locator("form[data-import]")
    form.locator("input[type=file]").set_input_files(
        {"name": "campionato.json", "mimeType": "application/json",
         "buffer": json.dumps(data).encode()})
    form.get_by_label("Nome nuovo del campionato (facoltativo)").fill("Famiglia Bianchi")
    form.get_by_role("button", name="Importa").click()
    expect(page.locator("h1")).to_contain_text("Famiglia Bianchi")
