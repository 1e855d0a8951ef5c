"""The league's pages at phone size (390×844), on a league of thirty games over two
seasons: standings sorted by tapping a column, a player's page with its charts,
the history filtered by player, the roster, seasons and exports."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorebook.extensions import db
from scorebook.services import access, games, hands
from scorebook.services.entry import entry_from_text
from tests.browser.serving import serve, sqlite_app
from tests.reading import sentence

SCORER_TOKEN = "browser-tests-scorer-invite-token-0123456789"
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Gran"]
GROUPS = ["as ah ad", "ks kh kd", "qs qh qd", "js jh jd", "10s 10h 10d", "9s 9h 9d",
          "2c 3c 4c", "5c 6c 7c", "8c 9c 10c", "2d 3d 4d", "5d 6d 7d"]
SINGLES = ["5h", "6h", "7h", "8h", "2s", "3s", "4s", "5s", "kc", "qc"]


def play_league(seed: int = 7) -> None:
    """Thirty finished games of rummy-500 to 150, from March 2025 to May 2026."""
    rng = random.Random(seed)
    league = games.default_league()
    start = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
    for g in range(30):
        names = rng.sample(NAMES, rng.choice([2, 3, 3, 4]))
        rules = games.build_rules("rummy-500", {"target": 150})
        game = games.create_game(league, names, 0, rules)
        while game.is_open:
            groups, singles = rng.sample(GROUPS, len(GROUPS)), rng.sample(SINGLES, 8)
            out = rng.choice(names)
            texts = {}
            for name in names:
                if name == out:
                    texts[name] = {"melds": "\n".join(groups.pop() for _ in range(2))}
                else:
                    melds = [groups.pop() for _ in range(rng.randint(0, 1))]
                    # (one card at least: out.empty-hand; the same draws as before)
                    held = [singles.pop() for _ in range(max(1, rng.randint(0, 2)))]
                    texts[name] = {"melds": "\n".join(melds), "hand": " ".join(held)}
            hands.record_hand(game, entry_from_text(names, texts, out, None, False, False))
        game.finished_at = start + timedelta(days=15 * g)
        db.session.commit()


@pytest.fixture(scope="module")
def league_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("league")
    app = sqlite_app(folder, "league.sqlite3")
    with app.test_request_context():
        play_league()
        # the browsers of these tests join with the league's scorer link
        games.default_league().scorer_token_hash = access.token_hash(SCORER_TOKEN)
        db.session.commit()
    with serve(app) as url:
        yield url


@pytest.fixture(autouse=True)
def joined(page, league_server) -> None:  # type: ignore[no-untyped-def]
    """Each test's browser opens the scorer invite link and joins the league."""
    page.goto(f"{league_server}/join/{SCORER_TOKEN}")
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(lambda url: "/join" not in url)  # joined: the page it leads to
    page.wait_for_load_state()


def no_sideways_page(page) -> None:  # type: ignore[no-untyped-def]
    """Only the standings table scrolls sideways, never the page (measured once the
    stylesheets have loaded: before that the table is as wide as its columns)."""
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_standings_sorted_by_tapping_a_column(page, league_server, screenshot):
    page.goto(f"{league_server}/")
    page.get_by_role("link", name="League").click()
    page.get_by_label("Season", exact=True).select_option(label="All time")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("h1")).to_contain_text("Standings, all time")
    rows = page.locator(".league-table tbody tr")
    assert rows.count() == len(NAMES)
    no_sideways_page(page)
    screenshot("league-standings")
    # at phone width the places are one tap away, then sorted by a tap on their column
    page.locator(".column-switch").get_by_role("link", name="Places").click()
    page.get_by_role("link", name="Avg place").click()
    page.wait_for_load_state()
    assert "sort=avg_position" in page.url
    header = page.locator("th[aria-sort]")
    assert header.get_attribute("aria-sort") == "ascending"
    places = [float(t.replace(",", ".")) for t in
              page.locator(".league-table tbody tr td:nth-child(7)").all_inner_texts()]
    assert places == sorted(places)
    box = page.get_by_role("link", name="Wins", exact=True).bounding_box()
    assert box is not None and box["height"] >= 44
    # at phone width the table does not scroll sideways: the names and one group of
    # columns (tests/browser/test_family_evening.py measures it in every language)
    scroller = page.locator(".standings-scroll")
    assert scroller.evaluate("el => el.scrollWidth <= el.clientWidth")
    name_box = page.locator(".league-table tbody th").first.bounding_box()
    assert name_box is not None and 0 <= name_box["x"] < 80
    screenshot("league-standings-places")


def test_player_page_with_charts(page, league_server, screenshot):
    page.goto(f"{league_server}/league/?season=all")
    page.locator(".league-table tbody th a").first.click()
    page.wait_for_load_state()
    name = page.locator("h1").inner_text().splitlines()[0]
    assert page.locator("svg[role=img]").count() == 3  # rating, scores, points per hand
    title = page.locator("svg title#rating-chart-title").text_content() or ""
    assert "rating after each game" in title
    assert page.locator(".stat-grid div").count() == 8
    assert page.locator(".figure-grid > div").count() >= 20  # the figures from the cards
    assert page.locator("#h2h-title + .table-scroll tbody tr").count() >= 1
    no_sideways_page(page)
    screenshot("league-player")
    page.get_by_role("link", name=f"All of {name}'s games").click()
    expect(page.locator("h1")).to_contain_text(f"with {name}")


def test_history_filtered_by_player(page, league_server, screenshot):
    page.goto(f"{league_server}/league/history")
    assert "30 games" in page.locator("h1").inner_text()
    assert page.locator(".history-list > li").count() == 20
    expect(page.get_by_text("Page 1 of 2")).to_be_visible()
    no_sideways_page(page)
    screenshot("league-history")
    page.get_by_label("Player", exact=True).select_option(label="Gran")
    page.get_by_role("button", name="Show").click()
    page.wait_for_load_state()
    assert "with Gran" in page.locator("h1").inner_text()
    for text in page.locator(".history-totals").all_inner_texts():
        assert "Gran" in text


def test_roster_seasons_and_exports(page, league_server, screenshot):
    page.goto(f"{league_server}/league/players")
    page.get_by_label("New player's name").fill("Uncle Joe")
    page.get_by_role("button", name="Add player").click()
    expect(page.get_by_text(sentence("Uncle Joe joined the league."))).to_be_visible()
    no_sideways_page(page)
    screenshot("league-players")
    page.get_by_role("link", name="Edit Uncle Joe").click()
    page.get_by_role("button", name="Retire Uncle Joe").click()
    expect(page.locator(".flash").get_by_text(sentence("Uncle Joe is retired"))).to_be_visible()
    screenshot("league-edit-player")
    page.goto(f"{league_server}/league/seasons")
    assert page.locator(".season-list > li").count() == 2  # 2025 and 2026, made on their own
    screenshot("league-seasons")
    page.goto(f"{league_server}/league/export")
    screenshot("league-export")
    with page.expect_download() as download:
        page.get_by_role("link", name="Results (CSV)").click()
    assert re.fullmatch(r"[a-z0-9-]+-\d{4}-\d\d-\d\d-results\.csv",
                        download.value.suggested_filename), download.value.suggested_filename
