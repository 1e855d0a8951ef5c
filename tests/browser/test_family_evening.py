"""What a family notices in an evening (issue 32), in Chromium at 390×844: the record
page (an error that goes once the cards are in, the winner in sight after the winning
hand, Cancel asking on the page and discarding, no stale offline warnings beside a hand
sent, "Which meld?" naming the cards, the picker's title never cut where it says what is
being filled), the live hand's badge of whose deal it is, the referee's picker folded on
a verdict and the game's players offered as owners, the statistics tables read without
sideways scrolling, and text that grows with the phone's font size."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorebook.extensions import db
from scorebook.models import Player
from scorebook.services import access, games, league
from tests.browser.conftest import PHONE, SHOTS, tick_missing
from tests.browser.serving import serve, sqlite_app
from tests.browser.test_offline_queue import go_offline, ready_offline, stored, table  # noqa: F401
from tests.browser.test_scorebook_game import Taps, start_game

pytestmark = pytest.mark.browser

LANGUAGES = ["en", "es", "it"]


def shoot(page: Page, name: str, full_page: bool = True) -> None:
    """Into docs/screenshots/ with ``make screenshots`` (SCREENSHOTS=1), else nothing."""
    if os.environ.get("SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def in_view(page: Page, locator) -> bool:  # type: ignore[no-untyped-def]
    """Is the element wholly inside the viewport as the page is scrolled now?"""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def record_page(page: Page, live_server: str, names: list[str],
                family: str = "rummy-500") -> str:
    board = start_game(page, live_server, names, family)
    page.goto(f"{board}/hands/new")
    expect(page.locator(".picker-grid")).to_be_visible()
    return board


# --- the record page -------------------------------------------------------------------------


def test_no_cards_error_goes_once_cards_are_entered(page: Page, live_server: str) -> None:
    record_page(page, live_server, ["Ann", "Ben"])
    error = page.locator("[data-save-error]")
    page.get_by_role("button", name="Save hand 1").click()
    expect(error).to_contain_text("No cards were entered")
    tap = Taps(page)
    tap.meld(0, "7 of spades", "8 of spades", "9 of spades")
    expect(error).to_be_hidden()


def test_the_winner_is_in_sight_after_the_winning_hand(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/games/new")
    for i, name in enumerate(["Carmen", "Marco"]):
        page.get_by_label(f"Seat {i + 1}", exact=True).fill(name)
    page.locator("input[name=family][value=rummy-500]").check()
    page.locator("details.house-rules summary").click()
    page.locator("#target").fill("20")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    board = page.url
    for number, cards in ((1, ("2 of spades", "3 of spades", "4 of spades")),
                          (2, ("7 of hearts", "8 of hearts", "9 of hearts"))):
        page.goto(f"{board}/hands/new")
        tap = Taps(page)
        tap.meld(0, *cards)
        tap.tool(1, "In hand")
        tap.card("king of diamonds" if number == 1 else "queen of diamonds")
        expect(page.locator("input[name=outcome][value=p0]")).to_be_checked()
        tick_missing(page, f"Save hand {number}")  # fewer than the 7 dealt (§10)
        page.get_by_role("button", name=f"Save hand {number}").click()
        page.wait_for_url(re.compile(r"/games/\d+(#.*)?$"))
    winner = page.locator(".banner-winner .banner-title")
    expect(winner).to_contain_text("Carmen wins!")
    assert "#hand-" not in page.url
    assert in_view(page, winner), "the winner's banner is above the screen"
    shoot(page, "family-winner-in-sight", full_page=False)


def test_cancel_with_entries_asks_on_the_page_and_discards(page: Page,
                                                             live_server: str) -> None:
    board = record_page(page, live_server, ["Ann", "Ben"])
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.type), d.dismiss()))
    Taps(page).meld(0, "7 of spades", "8 of spades")
    page.get_by_role("link", name="Cancel").click()
    ask = page.locator("[data-cancel-ask]")
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("Leave without saving?")
    shoot(page, "family-cancel-asks", full_page=False)
    page.get_by_role("button", name="Keep entering").click()
    expect(ask).to_be_hidden()
    assert page.url.endswith("/hands/new")
    page.get_by_role("link", name="Cancel").click()
    page.get_by_role("button", name="Discard the cards").click()
    page.wait_for_url(board)
    assert dialogs == [], f"the browser asked: {dialogs}"
    kept = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('scorebook:draft:'))")
    assert kept == []
    page.goto(f"{board}/hands/new")
    expect(page.locator(".picker-grid")).to_be_visible()
    expect(page.locator("[data-draft-notice]")).to_be_hidden()
    expect(page.locator("#player-0 .slot-cards")).to_have_count(0)


def test_a_hand_sent_after_offline_shows_no_stale_warnings(
        page: Page, table: tuple[Flask, str]) -> None:  # noqa: F811
    """The meld was tapped in offline (the referee could not be asked): once the hand is
    sent, the page says "sent" — not also "reload" and "could not reach the referee"."""
    app, url = table
    game_id, _board = ready_offline(page, app, url, "Family Evening Offline")
    go_offline(page)
    try:
        tap = Taps(page)
        tap.meld(0, "7 of spades", "8 of spades", "9 of spades")
        expect(page.locator("#player-0 .slot-status")).to_contain_text("could not be reached")
        tap.tool(1, "In hand")
        tap.card("king of diamonds")
        tick_missing(page, "Save hand 1")  # fewer than the cards dealt (§10)
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator("[data-queue-notice]")).to_contain_text("Saved on this phone")
    finally:
        page.context.set_offline(False)
    notice = page.locator("[data-queue-notice]")
    expect(notice).to_contain_text("Hand 1 was sent: it is stored.")
    expect(page.locator("#player-0 .slot-status.ok")).to_have_count(1)
    expect(page.locator("#player-0 .slot-status.bad")).to_have_count(0)
    expect(page.locator("[data-offline-banner]")).to_be_hidden()
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "family-offline-hand-sent", full_page=False)
    assert stored(app, game_id) == [(1, ["KD"])]


def test_which_meld_names_each_melds_cards(page: Page, live_server: str) -> None:
    """8♠ fits Ann's run 5♠ 6♠ 7♠ and Ben's set of eights: the choices say which is which."""
    record_page(page, live_server, ["Ann", "Ben", "Cy"])
    tap = Taps(page)
    tap.meld(0, "5 of spades", "6 of spades", "7 of spades")
    tap.meld(1, "8 of diamonds", "8 of clubs", "8 of hearts")
    expect(page.locator(".slot-status.ok")).to_have_count(2)
    tap.tool(2, "Lay off")
    tap.card("8 of spades")
    choices = page.locator("#player-2 .choices[data-question=meld] button")
    expect(choices).to_have_count(2)
    texts = choices.all_inner_texts()
    assert any("Ann" in t and "5♠ 6♠ 7♠" in t for t in texts), texts
    assert any("Ben" in t and "8♦ 8♣ 8♥" in t for t in texts), texts


@pytest.fixture(params=LANGUAGES)
def phone(request, browser) -> Iterator[tuple[Page, str]]:  # type: ignore[no-untyped-def]
    """A phone whose browser asks for the pages in one language."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1,
                                  locale=request.param)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page, request.param
    context.close()


def new_game_any_language(page: Page, live_server: str, names: list[str]) -> str:
    page.goto(f"{live_server}/games/new")
    for i, name in enumerate(names):
        page.locator("input[data-seat]").nth(i).fill(name)
    page.locator("input[name=family][value=pagat-500]").check()
    with page.expect_navigation():
        page.locator("form.stack button[type=submit]:not([name])").last.click()
    assert re.search(r"/games/\d+$", page.url), page.url
    return page.url


#: What the picker's title must show whole, after the player's name: "meld 2".
WHAT = {"en": "Meld 2", "es": "2", "it": "2"}

#: The root font size of a phone set to large text, and to the largest.
LARGER = ["150%", "200%"]


def title_whole(page: Page) -> None:
    """The words after the name (which meld, or the mode) are wholly in sight."""
    what = page.locator("[data-picker-target] [data-picker-what]")
    expect(what).to_be_visible()
    fits = what.evaluate("""el => {
      const box = el.getBoundingClientRect();
      const holder = el.parentElement.getBoundingClientRect();
      return el.scrollWidth <= el.clientWidth + 1 && box.right <= holder.right + 1
        && box.right <= window.innerWidth;
    }""")
    assert fits, what.inner_text()


def test_the_picker_title_keeps_what_is_filled_whole(phone) -> None:  # type: ignore[no-untyped-def]
    """A long name gives way ("Maria Anto…"), never "meld 2" or "in hand"; also with the
    phone's text one and a half and two times as large."""
    page, language = phone
    board = new_game_any_language(page, _SERVER["url"], ["Maria Antonietta", "Bartolomeo"])
    page.goto(f"{board}/hands/new")
    expect(page.locator(".picker-grid")).to_be_visible()
    page.locator("#player-0 [data-act=new-meld]").click()
    for card in ("7S", "8S", "9S"):
        page.locator(f".picker-grid button[data-card='{card}']").click()
    page.locator("#player-0 [data-act=new-meld]").click()
    target = page.locator("[data-picker-target]")
    expect(target).to_contain_text(WHAT[language])
    title_whole(page)
    assert "Maria Antonietta" in (target.get_attribute("title") or "")
    shoot(page, f"family-record-picker-{language}", full_page=False)
    for size in LARGER:
        page.evaluate("s => document.documentElement.style.fontSize = s", size)
        title_whole(page)
    page.evaluate("document.documentElement.style.fontSize = ''")
    page.locator("#player-0 [data-act=hand]").click()
    title_whole(page)


_SERVER: dict[str, str] = {}


@pytest.fixture(autouse=True)
def _server(live_server: str) -> None:
    _SERVER["url"] = live_server


# --- the live hand -----------------------------------------------------------------------------


def test_whose_deal_stays_in_sight_while_playing_live(page: Page, live_server: str) -> None:
    board = start_game(page, live_server, ["Carmen", "Marco", "Anna"], "rummy-500")
    page.goto(f"{board}/hands/live")
    page.get_by_role("button", name="Start hand 1 live").click()
    badge = page.locator("[data-deal-badge]")
    expect(badge).to_contain_text("Carmen deals")
    page.locator("#finish").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 400)")
    expect(badge).to_be_visible()
    assert in_view(page, badge), "the badge scrolled away with the page"
    shoot(page, "family-live-deal-badge", full_page=False)


# --- the referee pages -------------------------------------------------------------------------


def test_a_verdict_is_not_covered_by_the_picker(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/referee/layoff?table=A+%28Ann%29%3A+5h+6h+7h&card=8h")
    dock = page.locator("[data-picker-dock]")
    expect(dock).to_be_visible()
    box = dock.bounding_box()
    assert box is not None and box["height"] / PHONE["height"] < 0.12, box
    fits = page.get_by_role("heading", name="Where it fits")
    fits.scroll_into_view_if_needed()
    rule = page.locator(".cited-rules")
    rule.scroll_into_view_if_needed()
    rule_box, dock_box = rule.bounding_box(), dock.bounding_box()
    assert rule_box is not None and dock_box is not None
    assert rule_box["y"] < dock_box["y"], "the rule is under the picker"
    shoot(page, "family-referee-verdict", full_page=False)
    # a card field tapped: the picker opens, its cards at hand
    page.locator("#card").focus()
    expect(page.locator(".picker-grid")).to_be_visible()


def test_the_referee_from_a_game_offers_its_players_as_owners(page: Page,
                                                              live_server: str) -> None:
    board = start_game(page, live_server, ["Carmen", "Marco", "Anna"], "pagat-500")
    game_id = board.rsplit("/", 1)[1]
    page.goto(f"{live_server}/referee/layoff?game={game_id}")
    page.locator("[data-builder-new]").click()
    owner = page.locator("select.builder-owner").first
    expect(owner).to_be_visible()
    assert owner.locator("option").all_inner_texts()[1:] == ["Carmen", "Marco", "Anna"]
    owner.select_option("Marco")
    for card in ("5H", "6H", "7H"):
        page.locator(f".picker-grid button[data-card='{card}']").click()
    page.locator("#card").fill("8h")
    with page.expect_navigation():
        page.locator(".referee-form button[type=submit]").click()
    expect(page.locator(".verdict-message")).to_contain_text(
        re.compile("\\(\u2068?Marco\u2069?'s\\)"))


# --- the statistics tables at 390 px --------------------------------------------------------

LONG_NAMES = {"Ann": "Maria Antonietta", "Ben": "Bartolomeo", "Cy": "Guadalupe",
              "Dee": "Maximiliano", "Gran": "Nonna Rosa"}
STATS_TOKEN = "family-evening-stats-scorer-token-0123456789"


@pytest.fixture(scope="module")
def long_names(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A league of 10 games played card by card, its players with long names."""
    from tests.random_hands import play_random_league

    folder: Path = tmp_path_factory.mktemp("family-stats")
    app = sqlite_app(folder, "stats.sqlite3")
    with app.test_request_context():
        play_random_league(games_count=10)
        the = games.default_league()
        for player in db.session.scalars(db.select(Player)):
            league.rename_player(player, LONG_NAMES[player.name])
        the.scorer_token_hash = access.token_hash(STATS_TOKEN)
        db.session.commit()
    with serve(app) as url:
        yield url


#: Is the table wholly inside its scroller, and the scroller inside the viewport?
TABLE_FITS = """table => {
  const scroller = table.closest('.table-scroll') || table.parentElement;
  return {table: Math.ceil(table.getBoundingClientRect().width),
          room: scroller.clientWidth,
          right: Math.ceil(scroller.getBoundingClientRect().right),
          viewport: window.innerWidth};
}"""


def fits(page: Page, selector: str, where: str) -> None:
    page.wait_for_load_state("load")
    m = page.locator(selector).evaluate(TABLE_FITS)
    assert m["table"] <= m["room"] and m["right"] <= m["viewport"], f"{where}: {m}"


def test_statistics_tables_read_without_sideways_scrolling(phone, long_names) -> None:  # type: ignore[no-untyped-def]
    page, language = phone
    page.goto(f"{long_names}/join/{STATS_TOKEN}")
    page.locator("form button[type=submit]").first.click()
    page.wait_for_url(lambda url: "/join" not in url)
    page.goto(f"{long_names}/league/?season=all")
    fits(page, ".standings", "standings as opened")
    switch = page.locator(".column-switch a")
    groups = switch.count()
    assert groups >= 3
    for k in range(groups):
        page.locator(".column-switch a").nth(k).click()
        page.wait_for_load_state()
        fits(page, ".standings", f"standings, group {k + 1}")
        # every column of the group is there, the others one tap away
        shown = page.locator(".standings thead th:visible").count()
        assert 3 <= shown <= 5
    page.locator(".column-switch a").first.click()
    page.wait_for_load_state()
    shoot(page, f"family-standings-long-names-{language}")
    page.goto(f"{long_names}/league/records?season=all")
    fits(page, ".feed-matrix", "who feeds whom as opened")
    feeds = page.locator(".feed-switch a")
    for k in range(max(1, feeds.count())):
        if feeds.count():
            page.locator(".feed-switch a").nth(k).click()
            page.wait_for_load_state()
        fits(page, ".feed-matrix", f"who feeds whom, part {k + 1}")
        names = page.locator(".feed-matrix tbody th").evaluate_all(
            "cells => cells.every(c => c.scrollWidth <= c.clientWidth + 1)")
        assert names, "a name is cut in the matrix"
    shoot(page, f"family-records-long-names-{language}")
    page.locator(".feed-matrix tbody th").first.wait_for()
    page.goto(f"{long_names}/league/players")
    page.locator(".game-list a").first.click()
    page.wait_for_load_state()
    if page.locator(".feed-table").count():
        fits(page, ".feed-table", "a player's feeds")
        second = page.locator(".feed-table thead th").nth(1)
        assert in_view(page, second) or second.evaluate(
            "el => el.getBoundingClientRect().right <= window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


# --- text that grows with the phone's font size --------------------------------------------------

#: Text cut off by a box too small for it (an ellipsis on purpose aside): with larger text,
#: a fixed height or width in px would cut it.
CLIPPED = """() => {
  const out = [];
  for (const el of document.querySelectorAll('main *')) {
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden' || !el.textContent.trim()) continue;
    if (el.closest('.sr-only, .language-name, [hidden], svg, legend, .table-scroll')) continue;
    const hides = v => v === 'hidden' || v === 'clip';
    if (hides(s.overflowY) && el.scrollHeight > el.clientHeight + 1)
      out.push('cut at the bottom: ' + el.className + ' ' + el.textContent.trim().slice(0, 40));
    if (hides(s.overflowX) && s.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
      out.push('cut at the side: ' + el.className + ' ' + el.textContent.trim().slice(0, 40));
  }
  return out;
}"""


def test_text_grows_with_the_phones_font_size(page: Page, live_server: str) -> None:
    """Every size is in rem: with the root font one and a half and two times as large the
    text is that much larger, nothing is cut and nothing scrolls sideways."""
    board = record_page(page, live_server, ["Maria Antonietta", "Bartolomeo"])
    Taps(page).meld(0, "7 of spades", "8 of spades", "9 of spades")
    for path in (f"{board}/hands/new", board, "/referee/meld?cards=7s+8s+9s", "/league/"):
        page.goto(path if path.startswith("http") else live_server + path)
        page.wait_for_load_state("load")
        base = page.evaluate("parseFloat(getComputedStyle(document.querySelector('main p, "
                             "main h1')).fontSize)")
        for size, factor in (("150%", 1.5), ("200%", 2.0)):
            grown = page.evaluate("""s => {
              document.documentElement.style.fontSize = s;
              return parseFloat(getComputedStyle(document.querySelector('main p, main h1'))
                .fontSize);
            }""", size)
            assert abs(grown - base * factor) < 1, (path, size, base, grown)
            cut = page.evaluate(CLIPPED)
            assert not cut, (path, size, cut)
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], \
                (path, size)
        page.evaluate("document.documentElement.style.fontSize = ''")


def test_the_stylesheets_size_text_in_rem() -> None:
    """No font size or fixed height in px: they would not grow with the phone's text."""
    css = Path(__file__).resolve().parents[2] / "static" / "css"
    found = []
    for sheet in sorted(css.glob("*.css")):
        for n, line in enumerate(sheet.read_text().splitlines(), 1):
            if re.search(r"(font-size|(?<![-\w])height|min-height|line-height)\s*:\s*[\d.]+px",
                         line) and not re.search(r":\s*1px", line):
                found.append(f"{sheet.name}:{n}: {line.strip()}")
    assert not found, found


# --- dark mode -------------------------------------------------------------------------------


def test_the_pages_follow_the_phones_dark_setting(page: Page, live_server: str) -> None:
    """prefers-color-scheme: dark: light text on a dark page, the form fields and the
    picker dark too (axe-core checks the contrast: tests/browser/test_accessibility.py)."""
    board = record_page(page, live_server, ["Ann", "Ben"])
    page.emulate_media(color_scheme="dark")
    page.reload()
    expect(page.locator(".picker-grid")).to_be_visible()
    colours = page.evaluate("""() => {
      const lum = el => { const [r, g, b] = getComputedStyle(el).backgroundColor
        .match(/[\\d.]+/g).slice(0, 3).map(Number); return (r + g + b) / 3; };
      const ink = el => { const [r, g, b] = getComputedStyle(el).color
        .match(/[\\d.]+/g).slice(0, 3).map(Number); return (r + g + b) / 3; };
      return {page: lum(document.body), text: ink(document.body),
              dock: lum(document.querySelector('[data-picker-dock]')),
              card: lum(document.querySelector('.picker-grid button'))};
    }""")
    assert colours["page"] < 40 and colours["text"] > 200, colours
    assert colours["dock"] < 60 and colours["card"] < 60, colours
    shoot(page, "family-record-dark", full_page=False)
    page.goto(board)
    page.emulate_media(color_scheme="light")
    light = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert light == "rgb(255, 255, 255)"


# --- the pages a family uses, in each language and colour scheme ----------------------------------

SCHEMES = ["light", "dark"]


@pytest.fixture(params=[(language, scheme) for language in LANGUAGES for scheme in SCHEMES],
                ids=lambda p: f"{p[0]}-{p[1]}")
def family_phone(request, browser) -> Iterator[tuple[Page, str, str]]:  # type: ignore[no-untyped-def]
    language, scheme = request.param
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, locale=language,
                                  color_scheme=scheme)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page, language, scheme
    context.close()


def test_the_family_pages_in_each_language_and_scheme(family_phone, live_server) -> None:  # type: ignore[no-untyped-def]
    """Home, a new game, the scoreboard, the record page with its picker, a live hand,
    a verdict, the standings and a player's page: each fits the phone's width and
    follows the scheme (``make screenshots`` keeps each as family-<page>-<lang>-<scheme>)."""
    page, language, scheme = family_phone
    page.goto(f"{live_server}/games/new")
    for i, name in enumerate(["Carmen", "Marco", "Lucía"]):
        page.locator("input[data-seat]").nth(i).fill(name)
    page.locator("input[name=family][value=rummy-500]").check()
    page.locator("details.house-rules summary").click()
    page.locator("#target").fill("150")
    shots = {"new-game": page.url}
    with page.expect_navigation():
        page.locator("form.stack button[type=submit]:not([name])").last.click()
    board = page.url
    game_id = board.rsplit("/", 1)[1]
    for number, (melds, out) in enumerate([(["KH KD KC", "7D 8D 9D 10D"], 0),
                                           (["QS QH QD", "2C 3C 4C"], 1)], 1):
        players = [{"name": n, "melds": [], "hand": ["5S"]} for n in ("Carmen", "Marco", "Lucía")]
        players[out] = {"name": players[out]["name"], "hand": [],
                        "melds": [{"id": f"m{k}", "cards": m.split()} for k, m in enumerate(melds)]}
        players[(out + 1) % 3]["hand"] = ["JD", "AS"]
        answer = page.request.post(f"{live_server}/api/v1/games/{game_id}/hands", data={
            "number": number, "players": players, "went_out": players[out]["name"]})
        assert answer.status == 201, answer.text()
    shots["scoreboard"] = board
    shots["record"] = f"{board}/hands/new"
    shots["referee"] = (f"{live_server}/referee/layoff?game={game_id}&"
                        "table=A+%28Carmen%29%3A+5h+6h+7h&card=8h")
    shots["standings"] = f"{live_server}/league/?season=all"
    shots["home"] = f"{live_server}/"
    for name in ("home", "new-game", "scoreboard", "record", "referee", "standings"):
        page.goto(shots[name])
        page.wait_for_load_state("load")
        if name == "record":
            expect(page.locator(".picker-grid")).to_be_visible()
            page.locator("#player-0 [data-act=new-meld]").click()
            for card in ("7S", "8S", "9S"):
                page.locator(f".picker-grid button[data-card='{card}']").click()
            expect(page.locator("#player-0 .slot-status.ok")).to_have_count(1)
        dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert (background != "rgb(255, 255, 255)") == (scheme == "dark"), (name, background)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        shoot(page, f"family-{name}-{language}-{scheme}", full_page=name != "record")
    # a live hand, scrolled to its end: the badge of whose deal it is still in sight
    page.goto(f"{board}/hands/live")
    page.locator("#live-start form button").click()
    expect(page.locator("[data-deal-badge]")).to_be_visible()
    shoot(page, f"family-live-{language}-{scheme}", full_page=False)
