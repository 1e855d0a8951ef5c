"""The replay page of a played hand (issue 29, "The table log"): the deal, each move of
the log with the discard pile after it, a move the table agreed to with the rule it
broke, and the answers the log gives with their rule ids, in English, Spanish and
Italian; linked from the live hand's page and from the finished hand's; a stranger gets
a 404, as does a hand without a log.  The log is the rule book's §5 (DEEP_DRAW), played
through the JSON API as tests/web/test_played_hand.py plays it."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Hand
from tests.referee.logged_hands import DEEP_DRAW as DEEP
from tests.web.test_played_hand import finish_ann_and_bo, log_all, start, table_of

#: What the page says of §5's moves, by language: the draw, the take down to the 4♠
#: (five cards), the meld and the discard, and the pile's heading.
WORDS = {
    "en": {"draw": "drew from the stock", "take": "took the pile down to",
           "meld": "melded", "discard": "discarded", "pile": "Discard pile:",
           "title": "The table log of hand 1", "agreed": "agreed by the table"},
    "es": {"draw": "robó del mazo", "take": "tomó el montón de descartes hasta",
           "meld": "bajó", "discard": "descartó", "pile": "Descartes:",
           "title": "El registro de la mano 1", "agreed": "aceptado por la mesa"},
    "it": {"draw": "ha pescato dal tallone", "take": "ha preso il pozzo fino a",
           "meld": "ha calato", "discard": "ha scartato", "pile": "Pozzo:",
           "title": "Il registro della mano 1", "agreed": "accettata dal tavolo"},
}


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Flask:
    return make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'replay.sqlite3'}")


def text(page: str) -> str:
    """The page's words: tags out, the cards' spoken names (sr-only) out, whitespace one."""
    page = re.sub(r'<span class="sr-only">.*?</span>', "", page)
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(page).replace("\u2068", "").replace("\u2069", ""))


def piles(page: str) -> list[str]:
    """The discard pile after each move, as the page draws it (``6♣ 4♠ 7♦``)."""
    return [text(p).strip() for p in re.findall(
        r'<p class="log-pile">.*?<span class="log-pile-cards">(.*?)</span></p>', page, re.S)]


def deep_draw(app: Flask) -> tuple[int, FlaskClient]:
    """§5 played: Cy takes the pile down to the 4♠, melds the fours, discards 2♣."""
    game_id, (one, _two) = table_of(app, "Ann Bo Cy")
    start(one, game_id, "Cy", "6C")
    log_all(one, game_id, DEEP + "Cy take 5\nCy meld 4S 4H 4D\nCy discard 2C")
    return game_id, one


@pytest.mark.parametrize("language", ["en", "es", "it"])
def test_the_live_replay_shows_every_step_and_the_pile(app: Flask, language: str) -> None:
    game_id, phone = deep_draw(app)
    live = phone.get(f"/games/{game_id}/hands/live", headers={"Accept-Language": language})
    assert f'href="/games/{game_id}/hands/live/log"' in live.get_data(as_text=True)
    response = phone.get(f"/games/{game_id}/hands/live/log",
                         headers={"Accept-Language": language})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    words = text(page)
    said = WORDS[language]
    assert said["title"] in words
    assert len(re.findall(r'class="log-step[ "]', page)) == 13
    log = text(page.split('<ol class="log-steps">')[1].split("</ol>")[0])
    assert log.count(said["draw"]) == 5 and log.count(said["discard"]) == 6
    assert f"{said['take']} 4♠" in log and f"{said['meld']} 4♠ 4♥ 4♦" in log
    assert log.count(said["pile"]) == 13
    assert piles(page) == [
        "6♣", "6♣ 4♠", "6♣ 4♠", "6♣ 4♠ 7♦", "6♣ 4♠ 7♦", "6♣ 4♠ 7♦ 4♥", "6♣ 4♠ 7♦ 4♥",
        "6♣ 4♠ 7♦ 4♥ Q♠", "6♣ 4♠ 7♦ 4♥ Q♠", "6♣ 4♠ 7♦ 4♥ Q♠ A♦", "6♣", "6♣", "6♣ 2♣"]
    # the deal: Cy dealt, the 6♣ turned up; Ann to play
    deal = text(page.split('class="section log-deal"')[1].split("</section>")[0])
    assert "Cy" in deal and "6♣" in deal and "Ann" in deal
    # the answers, with their rule ids: whose turn rests on turn.order
    assert "turn.order" in words and "rummy.call" in words
    assert "#turn.order" in page


@pytest.mark.parametrize("language", ["en", "es", "it"])
def test_an_agreed_move_is_marked_with_the_rule_it_broke(app: Flask, language: str
                                                         ) -> None:
    game_id, (one, _two) = table_of(app, "Ann Bo Cy")
    start(one, game_id, "Cy", "6C")
    log_all(one, game_id, DEEP + "Cy take 5\nCy discard 2C!")
    page = one.get(f"/games/{game_id}/hands/live/log",
                   headers={"Accept-Language": language}).get_data(as_text=True)
    assert page.count("log-step-agreed") == 1
    agreed = text(page.split("log-step-agreed")[1].split("</li>")[0])
    assert WORDS[language]["agreed"] in agreed and "draw.deep" in agreed


def test_the_finished_hand_links_its_log_and_keeps_it(app: Flask) -> None:
    game_id, (one, _two) = table_of(app, "Ann Bo")
    start(one, game_id, "Bo", "9C")
    log_all(one, game_id, "Ann draw\nAnn meld 4S 5S 6S\nAnn discard 2H\n"
                          "Bo draw\nBo meld 7H 8H 9H\nBo discard KC")
    finished = finish_ann_and_bo(app, one, game_id)
    assert finished.status_code == 302
    shown = one.get(f"/games/{game_id}/hands/1").get_data(as_text=True)
    assert f'href="/games/{game_id}/hands/1/log"' in shown
    page = one.get(f"/games/{game_id}/hands/1/log")
    assert page.status_code == 200
    assert piles(page.get_data(as_text=True)) == [
        "9♣", "9♣", "9♣ 2♥", "9♣ 2♥", "9♣ 2♥", "9♣ 2♥ K♣"]
    # no live hand now: no live log
    assert one.get(f"/games/{game_id}/hands/live/log").status_code == 404


def test_a_stranger_gets_404(app: Flask) -> None:
    game_id, _phone = deep_draw(app)
    stranger = app.test_client()
    assert stranger.get(f"/games/{game_id}/hands/live/log").status_code == 404


def test_a_hand_without_a_log_has_no_link_and_no_replay(app: Flask) -> None:
    game_id, (one, _two) = table_of(app, "Ann Bo")
    assert one.post(f"/games/{game_id}/hands/live/start").status_code == 302
    live = one.get(f"/games/{game_id}/hands/live").get_data(as_text=True)
    assert "/hands/live/log" not in live
    assert one.get(f"/games/{game_id}/hands/live/log").status_code == 404
    assert one.post(f"/games/{game_id}/hands/live/meld", data={
        "meld-player": "p0", "meld-cards": "7s 8s 9s"}).status_code == 302
    with app.app_context():
        live_id = db.session.scalar(db.select(Hand.id).where(Hand.game_id == game_id,
                                                             Hand.complete.is_(False)))
    assert one.post(f"/games/{game_id}/hands/live/finish", data={
        "hand": live_id, "finish-players-1-hand": "kd qd", "finish-outcome": "p0",
        "finish-missing_ok": ["Ann", "Bo"]}).status_code == 302
    shown = one.get(f"/games/{game_id}/hands/1")
    assert shown.status_code == 200
    assert "/hands/1/log" not in shown.get_data(as_text=True)
    assert one.get(f"/games/{game_id}/hands/1/log").status_code == 404
    assert one.get(f"/games/{game_id}/hands/2/log").status_code == 404
