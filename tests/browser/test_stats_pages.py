"""The statistics pages at phone size (390×844), on a league of 24 games whose every
hand was recorded card by card (jokers, low and high aces, lay-offs): a player's
figures, the records, head to head, a season's recap (printed and shared) and a
finished game's figures — with JavaScript and without, in English and Spanish, and
through axe-core's WCAG 2.1 AA checks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scorebook.extensions import db
from scorebook.models import FINISHED, Game, Player
from scorebook.services import access, games
from tests.browser.serving import serve, sqlite_app
from tests.browser.test_accessibility import WCAG_AA, problems
from tests.random_hands import play_random_league

SCORER_TOKEN = "stats-browser-tests-scorer-token-0123456789"


@pytest.fixture(scope="module")
def stats_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    folder: Path = tmp_path_factory.mktemp("stats")
    app = sqlite_app(folder, "stats.sqlite3")
    with app.test_request_context():
        play_random_league()
        the = games.default_league()
        the.scorer_token_hash = access.token_hash(SCORER_TOKEN)
        db.session.commit()
        ids = {
            "ann": db.session.scalar(db.select(Player.id).where(Player.name == "Ann")),
            "ben": db.session.scalar(db.select(Player.id).where(Player.name == "Ben")),
            "game": db.session.scalar(db.select(Game.id).where(Game.status == FINISHED)
                                      .order_by(Game.id)),
        }
    with serve(app) as url:
        yield {"url": url, **ids}


def join(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server['url']}/join/{SCORER_TOKEN}")
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(lambda url: "/join" not in url)  # joined: the page it leads to
    page.wait_for_load_state()


def fits(page) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def season_id(page, server) -> str:  # type: ignore[no-untyped-def]
    page.goto(f"{server['url']}/league/records")
    link = page.locator("a[href*='/recap']").last.get_attribute("href")
    assert link
    return link


def test_player_figures(page, stats_server, screenshot) -> None:  # type: ignore[no-untyped-def]
    join(page, stats_server)
    page.goto(f"{stats_server['url']}/league/players/{stats_server['ann']}?season=all")
    for title in ("Hand by hand", "Where the points come from", "Jokers", "Aces",
                  "Melds and cards", "Who feeds whom"):
        expect(page.get_by_role("heading", name=title), title).to_be_visible()
    chart = page.locator("svg[aria-labelledby^='points-split']")
    title = chart.locator("title").text_content() or ""
    assert "Where \u2068Ann\u2069's points come from" in title  # the name isolated
    assert "over" in (chart.locator("desc").text_content() or "")
    assert chart.locator("pattern").count() == 2  # hatching and dots, not colour alone
    assert page.locator(".figure-grid > div").count() >= 20
    fits(page)
    screenshot("stats-player")
    # a figure links to the hand it happened in
    page.locator(".figure-grid a[href*='/hands/']").first.click()
    page.wait_for_load_state()
    assert "/hands/" in page.url


def test_records_and_head_to_head(page, stats_server, screenshot) -> None:  # type: ignore[no-untyped-def]
    join(page, stats_server)
    page.goto(f"{stats_server['url']}/league/")
    page.get_by_role("link", name="Records").click()
    page.wait_for_load_state()
    assert "Records, all time" in page.locator("h1").inner_text()
    assert page.locator(".record").count() >= 5
    assert page.locator(".feed-matrix tbody tr").count() >= 3
    fits(page)
    screenshot("stats-records")
    page.get_by_label("Against").select_option(label="Ben")
    page.get_by_role("button", name="Compare").click()
    page.wait_for_load_state()
    assert "against" in page.locator("h1").inner_text()
    assert "games together" in page.locator("#pair-title").inner_text()
    fits(page)
    screenshot("stats-head-to-head")


def test_recap_prints_and_shares(page, stats_server, screenshot) -> None:  # type: ignore[no-untyped-def]
    join(page, stats_server)
    page.goto(stats_server["url"] + season_id(page, stats_server))
    expect(page.locator(".recap-champion")).to_be_visible()
    assert page.locator(".podium li").count() >= 3
    assert page.locator(".signature").count() >= 3
    expect(page.get_by_role("button", name="Print")).to_be_visible()  # shown by recap.js
    assert "season" in page.locator("#share-text").input_value()
    fits(page)
    screenshot("stats-recap")
    page.emulate_media(media="print")
    for hidden in (".site-header", ".league-nav", ".share-panel", ".site-footer"):
        assert not page.locator(hidden).first.is_visible(), hidden
    expect(page.locator(".recap-champion")).to_be_visible()
    screenshot("stats-recap-print")


def test_recap_without_javascript(writer, stats_server) -> None:  # type: ignore[no-untyped-def]
    join(writer, stats_server)
    path = season_id(writer, stats_server)
    writer.goto(stats_server["url"] + path + "?lang=es")
    assert writer.locator("html").get_attribute("lang") == "es"
    assert "Temporada" in writer.locator("h1").inner_text()
    # no script: no Print or Share button, but the text is there to copy
    assert not writer.get_by_role("button", name="Imprimir").is_visible()
    expect(writer.locator("#share-text")).to_be_visible()
    assert writer.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_finished_game_shows_its_figures(page, stats_server, screenshot) -> None:  # type: ignore[no-untyped-def]
    join(page, stats_server)
    page.goto(f"{stats_server['url']}/games/{stats_server['game']}")
    section = page.locator("[aria-labelledby='game-figures-title']")
    expect(section.get_by_text("Melded most")).to_be_visible()
    expect(section.get_by_text("Turning point")).to_be_visible()
    fits(page)
    section.scroll_into_view_if_needed()
    screenshot("stats-game")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_statistics_pages_pass_wcag_aa(page, stats_server, scheme) -> None:  # type: ignore[no-untyped-def]
    page.emulate_media(color_scheme=scheme)
    join(page, stats_server)
    recap = season_id(page, stats_server)
    axe = Axe()
    failures = []
    for path in (f"/league/players/{stats_server['ann']}?season=all", "/league/records",
                 f"/league/head-to-head?a={stats_server['ann']}&b={stats_server['ben']}",
                 recap, f"/games/{stats_server['game']}"):
        page.goto(stats_server["url"] + path)
        page.wait_for_load_state()
        failures += [f"{path}: {p}" for p in problems(axe.run(page, options=WCAG_AA).response)]
        overflow = page.evaluate("""() => {
          document.documentElement.style.fontSize = "200%";
          return document.documentElement.scrollWidth - window.innerWidth;
        }""")
        if overflow > 0:
            failures.append(f"{path}: with the text twice as large it scrolls sideways "
                            f"by {overflow}px")
    assert not failures, "\n".join(failures)


def test_a_season_without_games_has_a_recap_that_says_so(page, stats_server) -> None:  # type: ignore[no-untyped-def]
    join(page, stats_server)
    page.goto(f"{stats_server['url']}/league/seasons")
    page.locator("#new-name").fill("Summer 2030")
    page.locator("#new-starts_on").fill("2030-06-01")
    page.locator("#new-ends_on").fill("2030-08-31")
    page.get_by_role("button", name="Add season").click()
    page.wait_for_load_state()
    page.goto(f"{stats_server['url']}/league/records")
    page.get_by_role("link", name="Season Summer 2030").click()
    page.wait_for_load_state()
    expect(page.get_by_text("No game has been finished in this season yet.")).to_be_visible()
    assert page.locator(".share-panel").count() == 0  # nothing to print or share yet
