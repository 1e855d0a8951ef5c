"""Merging two names of one person, in Chromium at 390×844: started from the misspelt
name's page, the page shows both ways round and the browser will not merge until the
name that stays is chosen; the name chosen stays; the merge is undone from that name's
page and both players are back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from flask import Flask
from playwright.sync_api import Page, expect

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import League, Player
from scorebook.services import games, hands
from scorebook.services.entry import entry_from_text
from tests.browser.serving import serve, sqlite_app
from tests.browser.test_accessibility import WCAG_AA, problems
from tests.browser.test_table_app import owner, screenshot_of

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    folder: Path = tmp_path_factory.mktemp("merge-names")
    app = sqlite_app(folder, "merge.sqlite3")
    with serve(app) as url:
        yield app, url
    with app.app_context():
        db.drop_all()


def seed(app: Flask) -> tuple[int, int, int]:
    """Lucía won three games against Ben; "Lucia" (a typo) lost one. (league, typo, right)"""
    with app.test_request_context():
        league = League(name="Family Merge")
        db.session.add(league)
        db.session.commit()

        def play(names: list[str], winner: str, loser: str) -> None:
            game = games.create_game(league, names, 0, make_rules("pagat-500", target=50))
            hands.record_hand(game, entry_from_text(names, {
                winner: {"melds": "10h jh qh\n9c 9d 9h"}, loser: {"hand": "kh 8d"}},
                winner, None, False, False))

        for _ in range(3):
            play(["Lucía", "Ben"], "Lucía", "Ben")
        play(["Lucia", "Ben"], "Ben", "Lucia")
        ids = {p.name: p.id for p in db.session.scalars(db.select(Player))}
        return league.id, ids["Lucia"], ids["Lucía"]


def test_the_name_chosen_stays_and_the_merge_is_undone(page: Page,
                                                       table: tuple[Flask, str]) -> None:
    app, url = table
    league_id, typo, right = seed(app)
    owner(page, app, url, league_id)
    page.goto(f"{url}/league/players/{typo}/edit")  # the misspelt name's page
    page.get_by_label("The same person as").select_option(str(right))
    page.get_by_role("button", name="Next: what the merge does").click()
    expect(page.get_by_text("Which name stays?")).to_be_visible()
    expect(page.locator(".merge-option").nth(0)).to_contain_text(
        "Lucía's 3 games move to Lucia (3 hands).")
    expect(page.locator(".merge-option").nth(1)).to_contain_text(
        "Lucia's 1 game moves to Lucía (1 hand).")
    screenshot_of(page, "merge-which-name-stays")
    assert not problems(Axe().run(page, options=WCAG_AA).response)
    page.get_by_role("button", name="Merge the two names").click()  # nothing chosen yet
    expect(page).to_have_url(re.compile(rf"/league/players/{typo}/merge\?other={right}$"))
    page.get_by_label(re.compile("Keep the name Lucía")).check()
    page.get_by_role("button", name="Merge the two names").click()
    expect(page).to_have_url(f"{url}/league/players/{right}")
    expect(page.locator(".flash")).to_contain_text("are one player now")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Lucía")
    screenshot_of(page, "merge-done-undo")
    page.goto(f"{url}/league/players")
    expect(page.locator(".game-list li")).to_have_count(2)  # Ben, Lucía
    expect(page.locator(".merge-list")).to_contain_text("Lucia merged into Lucía")
    screenshot_of(page, "players-merges")
    page.get_by_role("button", name="Undo this merge").click()
    expect(page).to_have_url(f"{url}/league/players/{typo}")
    expect(page.locator(".flash")).to_contain_text("two players again")
    page.goto(f"{url}/league/players")
    expect(page.locator(".merge-list")).to_contain_text("Undone on")
    expect(page.locator(".game-list li")).to_have_count(3)  # Ben, Lucia, Lucía
