"""Two phones in a live hand never lose a move.

A live hand is locked move by move: a move made from a page that has not seen the
other phone's latest move still lands, unless it really conflicts (a card already
used, a meld that is gone, a hand that has ended).  A refused move is answered with
its reasons placed in its own form; a move for a hand that another phone finished
says so, with the scores and a link; a live hand started by mistake can be cancelled,
and one with moves abandoned with a tick.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Change, Hand

JSON = {"Accept": "application/json"}


def start(client: FlaskClient) -> str:
    response = client.post("/games/new", data={
        "players-0": "Ann", "players-1": "Ben", "family": "rummy-500", "first_dealer": "0",
        "min_natural_cards": "1"})
    assert response.status_code == 302
    board = response.headers["Location"]
    assert client.post(f"{board}/hands/live/start").status_code == 302
    return board


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


def live_id(app: Flask) -> int:
    with app.app_context():
        hand = db.session.scalar(db.select(Hand).where(Hand.complete.is_(False)))
        assert hand is not None
        return hand.id


def melds(app: Flask) -> list[str]:
    with app.app_context():
        hand = db.session.scalar(db.select(Hand).order_by(Hand.id.desc()))
        assert hand is not None
        return [" ".join(c.text for c in m.cards) for m in hand.melds]


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{re.escape(name)}" type="hidden" value="([^"]*)"', page) or \
        re.search(rf'type="hidden" name="{re.escape(name)}" value="([^"]*)"', page)
    assert found, name
    return found.group(1)


def test_moves_from_pages_that_missed_the_other_phones_move_both_land(
        app: Flask, client: FlaskClient) -> None:
    """Both phones opened the live page (the same version in their forms); phone A
    melds, then phone B, whose page has not followed yet, melds too: both are kept."""
    board = start(client)
    page = text(client.get(f"{board}/hands/live"))
    form = {"hand": hidden(page, "hand"), "meld-version": hidden(page, "meld-version")}
    a = client.post(f"{board}/hands/live/meld", data={**form, "meld-player": "p0",
                                                     "meld-cards": "7s 8s 9s"})
    b = client.post(f"{board}/hands/live/meld", data={**form, "meld-player": "p1",
                                                     "meld-cards": "kh kd kc"})
    assert (a.status_code, b.status_code) == (302, 302)
    assert melds(app) == ["7S 8S 9S", "KH KD KC"]
    layoff = {"hand": form["hand"], "layoff-version": form["meld-version"]}
    c = client.post(f"{board}/hands/live/layoff", data={**layoff, "layoff-player": "p1",
                                                       "layoff-card": "10s",
                                                       "layoff-onto": "Ann-1"})
    assert c.status_code == 302
    assert melds(app) == ["7S 8S 9S 10S", "KH KD KC"]


def test_a_refused_move_answers_in_its_form(app: Flask, client: FlaskClient) -> None:
    board = start(client)
    hand = str(live_id(app))
    bad = client.post(f"{board}/hands/live/meld", headers=JSON, data={
        "hand": hand, "meld-player": "p0", "meld-cards": "7s 8s 10s"})
    assert bad.status_code == 400
    body = bad.get_json()
    assert body["ok"] is False and body["form"] == "meld"
    assert body["problems"][0]["player"] == "Ann" and "10♠" in body["message"]
    # without the script: the page again, the reason inside the meld form, what was typed kept
    page = text(client.post(f"{board}/hands/live/meld", data={
        "hand": hand, "meld-player": "p0", "meld-cards": "7s 8s 10s"}))
    meld_form = page[page.index('id="meld-form"'):]
    meld_form = meld_form[:meld_form.index("</form>")]
    assert 'id="problems-meld"' in meld_form and "neither a set" in meld_form
    assert 'value="7s 8s 10s"' in meld_form and "autofocus" in meld_form
    assert melds(app) == []


def test_a_card_already_used_or_a_meld_gone_is_a_real_conflict(app: Flask,
                                                                client: FlaskClient) -> None:
    board = start(client)
    hand = str(live_id(app))
    assert client.post(f"{board}/hands/live/meld", headers=JSON, data={
        "hand": hand, "meld-player": "p0", "meld-cards": "7s 8s 9s"}).status_code == 200
    used = client.post(f"{board}/hands/live/meld", headers=JSON, data={
        "hand": hand, "meld-player": "p1", "meld-cards": "9s 10s js"})
    assert used.status_code == 400 and used.get_json()["code"] == "card-used"
    page = text(client.get(f"{board}/hands/live"))
    assert client.post(f"{board}/hands/live/undo", headers=JSON, data={
        "hand": hand, "undo-move": hidden(page, "undo-move")}).status_code == 200
    gone = client.post(f"{board}/hands/live/layoff", headers=JSON, data={
        "hand": hand, "layoff-player": "p1", "layoff-card": "10s", "layoff-onto": "Ann-1"})
    assert gone.status_code == 400 and gone.get_json()["code"] == "meld-gone"
    assert melds(app) == []


def test_take_back_takes_back_the_move_it_named(app: Flask, client: FlaskClient) -> None:
    board = start(client)
    hand = str(live_id(app))
    client.post(f"{board}/hands/live/meld", data={"hand": hand, "meld-player": "p0",
                                                 "meld-cards": "7s 8s 9s"})
    named = hidden(text(client.get(f"{board}/hands/live")), "undo-move")
    client.post(f"{board}/hands/live/meld", data={"hand": hand, "meld-player": "p1",
                                                 "meld-cards": "kh kd kc"})  # another phone
    stale = client.post(f"{board}/hands/live/undo", headers=JSON, data={
        "hand": hand, "undo-move": named})
    assert stale.status_code == 409 and stale.get_json()["code"] == "move-changed"
    assert melds(app) == ["7S 8S 9S", "KH KD KC"]


def test_a_move_for_a_hand_finished_on_another_phone_says_how_it_ended(
        app: Flask, client: FlaskClient) -> None:
    board = start(client)
    hand = str(live_id(app))
    client.post(f"{board}/hands/live/meld", data={"hand": hand, "meld-player": "p0",
                                                 "meld-cards": "7s 8s 9s"})
    assert client.post(f"{board}/hands/live/finish", data={
        "hand": hand, "finish-players-1-hand": "kd qd", "finish-outcome": "p0",
        "finish-missing_ok": ["Ann", "Ben"]}).status_code == 302
    # the other phone, still on the live page, lays off
    late = client.post(f"{board}/hands/live/layoff", headers=JSON, data={
        "hand": hand, "layoff-player": "p1", "layoff-card": "10s", "layoff-onto": "Ann-1"})
    assert late.status_code == 409
    body = late.get_json()
    assert body["message"] == "Hand 1 was saved on another phone: Ann +24, Ben −20."
    assert body["ended"] is True and body["link"] == f"{board}/hands/1"
    # without the script, the same words and the hand
    page = text(client.post(f"{board}/hands/live/meld", data={
        "hand": hand, "meld-player": "p1", "meld-cards": "kh kd kc"}))
    assert "Hand 1 was saved on another phone: Ann +24, Ben −20." in page
    assert "Hand 1 as stored" in page
    # a phone whose live page reloads after the hand ended is told too
    followed = text(client.get(f"{board}/hands/live?following={hand}"))
    assert "Hand 1 was saved on another phone: Ann +24, Ben −20." in followed
    assert f'href="{board}/hands/1"' in followed


def test_a_move_meant_for_an_ended_hand_never_goes_into_the_next(
        app: Flask, client: FlaskClient) -> None:
    board = start(client)
    first = str(live_id(app))
    client.post(f"{board}/hands/live/meld", data={"hand": first, "meld-player": "p0",
                                                 "meld-cards": "7s 8s 9s"})
    client.post(f"{board}/hands/live/finish", data={
        "hand": first, "finish-players-1-hand": "kd qd", "finish-outcome": "p0",
        "finish-missing_ok": ["Ann", "Ben"]})
    assert client.post(f"{board}/hands/live/start").status_code == 302  # hand 2, live
    late = client.post(f"{board}/hands/live/meld", headers=JSON, data={
        "hand": first, "meld-player": "p1", "meld-cards": "kh kd kc"})
    assert late.status_code == 409 and late.get_json()["code"] == "hand-finished"
    with app.app_context():
        live = db.session.scalar(db.select(Hand).where(Hand.complete.is_(False)))
        assert live is not None and live.number == 2 and live.melds == []


def test_a_live_hand_started_by_mistake_is_cancelled(app: Flask, client: FlaskClient) -> None:
    board = start(client)
    page = text(client.get(f"{board}/hands/live"))
    assert "Cancel hand 1" in page and "Nothing has been recorded in it yet" in page
    response = client.post(f"{board}/hands/live/cancel", data={
        "hand": hidden(page, "hand"), "cancel-moves": "0"})
    assert response.status_code == 302
    assert "Live hand 1 was cancelled" in text(client.get(board))
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 0
        assert db.session.scalar(db.select(Change.action).order_by(Change.id.desc())) == \
            "live-cancelled"
    # and hand 1 can be recorded at the end after all
    assert client.post(f"{board}/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9s", "players-1-hand": "kd",
        "outcome": "p0", "missing_ok": ["Ann", "Ben"]}).status_code == 302


def test_a_live_hand_with_moves_is_abandoned_only_with_the_tick(app: Flask,
                                                                client: FlaskClient) -> None:
    board = start(client)
    hand = str(live_id(app))
    client.post(f"{board}/hands/live/meld", data={"hand": hand, "meld-player": "p0",
                                                 "meld-cards": "7s 8s 9s"})
    page = text(client.get(f"{board}/hands/live"))
    assert "Abandon hand 1" in page and "It holds 1 move" in page
    unticked = client.post(f"{board}/hands/live/cancel", data={
        "hand": hand, "cancel-moves": "1"})
    assert unticked.status_code == 400 and "tick the box" in text(unticked)
    # another phone melds meanwhile: the page that saw one move throws nothing away
    client.post(f"{board}/hands/live/meld", data={"hand": hand, "meld-player": "p1",
                                                 "meld-cards": "kh kd kc"})
    raced = client.post(f"{board}/hands/live/cancel", headers=JSON, data={
        "hand": hand, "cancel-moves": "1", "cancel-confirm": "y"})
    assert raced.status_code == 409 and raced.get_json()["code"] == "move-changed"
    assert len(melds(app)) == 2
    done = client.post(f"{board}/hands/live/cancel", data={
        "hand": hand, "cancel-moves": "2", "cancel-confirm": "y"})
    assert done.status_code == 302
    history = text(client.get(f"{board}/history"))
    assert "Live hand cancelled" in history and "It held:" in history and "9♠" in history
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 0
