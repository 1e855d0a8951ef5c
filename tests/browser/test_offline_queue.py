"""The offline queue in Chromium at 390×844 (Playwright's offline mode): a hand saved
with the network cut is kept on the phone, survives a reload, and is sent when the
connection is back — exactly once, also when the answer to a send is lost; a hand the
server refuses on reconnect is shown with the reason and kept to fix; the rule book
opens offline."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Page, Route, expect

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import Hand, League, SendKey
from scorebook.services import games, hands, invites
from scorebook.services.entry import entry_from_text
from tests.browser.conftest import PHONE, tick_missing
from tests.browser.serving import serve, sqlite_app

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben"]
QUEUED = "Saved on this phone — hand 1 will be sent when online."


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    folder: Path = tmp_path_factory.mktemp("offline-queue")
    app = sqlite_app(folder, "queue.sqlite3")
    with serve(app) as url:
        yield app, url
    with app.app_context():
        db.drop_all()


def seed(app: Flask, name: str) -> tuple[int, str]:
    """A league with a two-player 500 Rum game; its id and a scorer code into it."""
    with app.test_request_context():
        league = League(name=name)
        db.session.add(league)
        db.session.commit()
        game = games.create_game(league, NAMES, 0, make_rules("rummy-500"))
        invites.open_door(league, "scorer")
        db.session.commit()
        token = invites.door_token(league, "scorer")
        return game.id, f"/join/{token}?next=/games/{game.id}"


def stored(app: Flask, game_id: int) -> list[tuple[int, list[str]]]:
    """(number, Ben's cards) of each hand the server holds."""
    with app.app_context():
        rows = db.session.scalars(db.select(Hand).where(Hand.game_id == game_id)
                                  .order_by(Hand.number))
        return [(h.number, [s.card for s in h.stranded]) for h in rows]


def drafts(page: Page) -> dict[str, Any]:
    raw = page.evaluate("""() => Object.fromEntries(Object.keys(localStorage)
        .filter(k => k.startsWith('scorebook:draft:')).map(k => [k, localStorage[k]]))""")
    return {k.removeprefix("scorebook:draft:"): json.loads(v) for k, v in raw.items()}


def join(page: Page, url: str) -> None:
    page.goto(url)
    page.get_by_role("button", name=re.compile("^Join")).click()
    page.wait_for_url(lambda url: "/join" not in url)  # joined: the page it leads to
    page.wait_for_load_state()


def controlled(page: Page) -> None:
    page.evaluate("navigator.serviceWorker.ready")
    if not page.evaluate("!!navigator.serviceWorker.controller"):
        page.reload()
    page.wait_for_function("!!navigator.serviceWorker.controller")


def kept(page: Page, path: str) -> None:
    page.wait_for_function(
        "p => caches.open('scorebook-pages').then(c => c.match(location.origin + p))"
        ".then(r => !!r)", arg=path, polling=100)


def tap(page: Page, player: int, tool: str, *cards: str) -> None:
    page.locator(f"#player-{player}").get_by_role("button", name=tool, exact=True).click()
    for card in cards:
        page.locator(".picker-grid").get_by_role("button", name=card, exact=True).click()


def enter_hand(page: Page, ben_holds: str = "king of diamonds") -> None:
    tap(page, 0, "New meld", "7 of spades", "8 of spades", "9 of spades")
    tap(page, 1, "In hand", ben_holds)
    tick_missing(page, "Save hand 1")  # 13 were dealt each (§10): nobody remembers


def shot(page: Page, name: str) -> None:
    import os

    from tests.browser.conftest import SHOTS

    if os.environ.get("SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def ready_offline(page: Page, app: Flask, url: str, name: str) -> tuple[int, str]:
    """Join a new game's league; the service worker keeps its pages; the record page open."""
    game_id, code = seed(app, name)
    join(page, url + code)
    board = f"{url}/games/{game_id}"
    page.goto(board)
    controlled(page)
    page.goto(board)
    kept(page, f"/games/{game_id}/hands/new")
    page.get_by_role("link", name="Record hand 1").click()
    page.wait_for_load_state()
    return game_id, board


def go_offline(page: Page) -> None:
    page.context.set_offline(True)
    expect(page.locator("[data-offline-banner]")).to_be_visible()


def test_a_hand_saved_offline_is_kept_and_sent_once_on_reconnect(
        page: Page, table: tuple[Flask, str]) -> None:
    app, url = table
    game_id, board = ready_offline(page, app, url, "Family Queue")
    enter_hand(page)
    go_offline(page)
    try:
        page.get_by_role("button", name="Save hand 1").click()
        notice = page.locator("[data-queue-notice]")
        expect(notice).to_contain_text(QUEUED)
        expect(page.locator("[data-save]")).to_be_disabled()
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "offline-hand-kept")
        assert stored(app, game_id) == []
        kept_draft = drafts(page)[f"record|{game_id}|1"]
        assert kept_draft["state"] == "queued"
        key = kept_draft["meta"]["clientKey"]
        assert re.fullmatch(r"[A-Za-z0-9_-]{8,64}", key)

        # a reload while offline: the page as last seen, the hand still kept
        page.reload()
        expect(page.locator("[data-queue-notice]")).to_contain_text(QUEUED)
        expect(page.locator("#player-0 .slot-cards")).to_contain_text("9♠")
        expect(page.locator("#player-1 .slot-cards")).to_contain_text("K♦")

        # the scoreboard, as last seen, says a hand is waiting
        page.goto(board)
        expect(page.locator("[data-outbox]")).to_contain_text(
            "One hand is saved on this phone — it will be sent when online.")
        shot(page, "offline-scoreboard-hand-waiting")
        assert stored(app, game_id) == []
    finally:
        page.context.set_offline(False)

    # back online: sent from the page the phone shows now (the scoreboard), once
    status = page.locator("[data-outbox]")
    expect(status).to_contain_text("Hand 1, saved on this phone, was sent: it is stored.")
    expect(status.get_by_role("link", name="See hand 1")).to_have_attribute(
        "href", f"/games/{game_id}/hands/1")
    shot(page, "offline-hand-sent")
    assert stored(app, game_id) == [(1, ["KD"])]
    assert drafts(page) == {}
    with app.app_context():
        assert db.session.scalar(db.select(SendKey.key).where(
            SendKey.game_id == game_id, SendKey.kind == "record")) == key
    expect(page.locator("#hand-1")).to_be_visible()  # the scoreboard caught up
    page.reload()
    page.wait_for_timeout(500)
    assert stored(app, game_id) == [(1, ["KD"])]


def test_the_record_page_says_sent_with_a_link(page: Page, table: tuple[Flask, str]) -> None:
    app, url = table
    game_id, _board = ready_offline(page, app, url, "Family Sent Here")
    enter_hand(page)
    go_offline(page)
    try:
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator("[data-queue-notice]")).to_contain_text(QUEUED)
    finally:
        page.context.set_offline(False)
    notice = page.locator("[data-queue-notice]")
    expect(notice).to_contain_text("Hand 1 was sent: it is stored.")
    expect(notice.get_by_role("link", name="See hand 1")).to_have_attribute(
        "href", f"/games/{game_id}/hands/1")
    expect(page.locator("[data-outbox]")).to_be_hidden()  # the page's own notice says it
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "offline-record-page-sent")
    assert stored(app, game_id) == [(1, ["KD"])]


def test_a_send_whose_answer_was_lost_is_not_stored_twice(
        browser, table: tuple[Flask, str]) -> None:  # type: ignore[no-untyped-def]
    """The network drops after the server stored the hand, before the answer came: the
    phone keeps it queued and sends it again with the same key; one hand is stored."""
    app, url = table
    game_id, code = seed(app, "Family Lost Answer")
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    try:
        join(page, url + code)
        page.goto(f"{url}/games/{game_id}/hands/new")
        enter_hand(page)
        sends: list[str] = []

        def cut_the_first_answer(route: Route) -> None:
            if route.request.method != "POST":
                route.continue_()
                return
            sends.append(route.request.post_data or "")
            if len(sends) == 1:
                route.fetch()  # the server stores it...
                route.abort("internetdisconnected")  # ...and its answer is lost
            else:
                route.continue_()

        page.route(re.compile(r".*/hands/new$"), cut_the_first_answer)
        context.set_offline(True)
        expect(page.locator("[data-offline-banner]")).to_be_visible()
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator("[data-queue-notice]")).to_contain_text(QUEUED)
        context.set_offline(False)
        notice = page.locator("[data-queue-notice]")
        expect(notice).to_contain_text("Hand 1 was sent: it is stored.")
        assert len(sends) == 2, sends
        keys = [re.search(r"client_key=([^&]+)", s).group(1) for s in sends]  # type: ignore[union-attr]
        assert keys[0] == keys[1]
        assert stored(app, game_id) == [(1, ["KD"])]
    finally:
        context.close()


def test_a_send_whose_hand_was_deleted_meanwhile_is_not_stored_again(
        browser, table: tuple[Flask, str]) -> None:  # type: ignore[no-untyped-def]
    """The server stored the hand, its answer was lost, and another phone deleted the hand
    before this one sent it again: the phone is told so and stops sending it; the hand
    does not come back until someone saves it again on purpose."""
    app, url = table
    game_id, code = seed(app, "Family Deleted Meanwhile")
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        join(page, url + code)
        page.goto(f"{url}/games/{game_id}/hands/new")
        enter_hand(page)
        sends: list[str] = []

        def cut_the_first_answer(route: Route) -> None:
            if route.request.method != "POST":
                route.continue_()
                return
            sends.append(route.request.post_data or "")
            if len(sends) == 1:
                route.fetch()  # the server stores it...
                with app.app_context():  # ...another phone deletes it...
                    hand = db.session.scalars(db.select(Hand).where(
                        Hand.game_id == game_id)).one()
                    hands.delete_hand(hand, hand.version, hand.id)
                route.abort("internetdisconnected")  # ...and the answer was lost
            else:
                route.continue_()

        page.route(re.compile(r".*/hands/new$"), cut_the_first_answer)
        context.set_offline(True)
        expect(page.locator("[data-offline-banner]")).to_be_visible()
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator("[data-queue-notice]")).to_contain_text(QUEUED)
        context.set_offline(False)
        notice = page.locator("[data-queue-notice]")
        expect(notice).to_contain_text("Hand 1 had been stored, then another phone deleted "
                                       "it: it is not stored again.")
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "offline-hand-deleted-meanwhile")
        assert len(sends) == 2 and stored(app, game_id) == []
        page.wait_for_timeout(1_000)
        assert len(sends) == 2  # refused: not sent again by itself
        # saved again on purpose: a new send, which stores it
        page.get_by_role("button", name="Save hand 1").click()
        page.wait_for_url(re.compile(rf".*/games/{game_id}(#.*)?$"))
        assert len(sends) == 3 and stored(app, game_id) == [(1, ["KD"])]
        keys = [re.search(r"client_key=([^&]+)", s).group(1) for s in sends]  # type: ignore[union-attr]
        assert keys[0] == keys[1] != keys[2]
    finally:
        context.close()


def test_a_refusal_on_reconnect_is_shown_and_the_entries_kept(
        page: Page, table: tuple[Flask, str]) -> None:
    app, url = table
    game_id, _board = ready_offline(page, app, url, "Family Refused")
    enter_hand(page, "queen of diamonds")
    go_offline(page)
    try:
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator("[data-queue-notice]")).to_contain_text(QUEUED)
        # meanwhile a second phone records hand 1
        with app.test_request_context():
            game = games.load_game(game_id)
            assert game is not None
            entry = entry_from_text(NAMES, {"Ann": {"melds": "7h 8h 9h"},
                                            "Ben": {"hand": "kd"}}, "Ann", None, False, False)
            hands.record_hand(game, entry, 1)
    finally:
        page.context.set_offline(False)
    notice = page.locator("[data-queue-notice]")
    expect(notice).to_contain_text(
        "Hand 1 was not stored: Hand 1 was just recorded (on another phone?). Here it is.")
    expect(notice).to_contain_text("What you entered is still here")
    expect(notice.get_by_role("link", name="See the hand stored")).to_have_attribute(
        "href", f"/games/{game_id}/hands/1")
    expect(page.locator("[data-queue-notice]")).not_to_contain_text("was sent")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "offline-hand-refused")
    assert stored(app, game_id) == [(1, ["KD"])]  # the other phone's, nothing of this one
    kept_draft = drafts(page)[f"record|{game_id}|1"]
    assert kept_draft["state"] == "refused"
    assert kept_draft["data"]["players"][1]["hand"] == ["QD"]
    # and after a reload the entries and the reason are still there, never sent again
    page.goto(f"{url}/games/{game_id}/hands/1/edit")  # any page: nothing is re-sent
    page.go_back()
    page.wait_for_timeout(500)
    assert stored(app, game_id) == [(1, ["KD"])]


def test_the_rule_book_opens_offline(page: Page, table: tuple[Flask, str]) -> None:
    app, url = table
    _game_id, code = seed(app, "Family Rules")
    join(page, url + code)
    controlled(page)
    kept(page, "/rules/rummy-500")
    go_offline(page)
    try:
        page.goto(f"{url}/rules/rummy-500")
        expect(page.locator("h1")).to_contain_text("Rummy 500")
        expect(page.locator("[data-offline-banner]")).to_contain_text("Offline")
    finally:
        page.context.set_offline(False)
