"""Entry that reads right at a glance: the history says what changed and from whose
phone, games are numbered within their league, long names fit, "went Rummy" shows,
no "+0", "your own meld", and a new game starts with four seats."""

from __future__ import annotations

import html
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Game

CHROME_ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like "
                  "Gecko) Chrome/126.0 Mobile Safari/537.36")


def text(response: Any) -> str:
    """The page, names' isolation marks (U+2068, U+2069) left out."""
    page = re.sub(r"[\u2068\u2069]", "", response.get_data(as_text=True))
    return re.sub(r"\s+", " ", page)


def plain(response: Any) -> str:
    """The page's words without its markup (cards read as their symbols)."""
    page = re.sub(r"[\u2068\u2069]", "", response.get_data(as_text=True))
    page = re.sub(r'<span class="sr-only">[^<]*</span>', "", page)
    page = re.sub(r"</?bdi>", "", page)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


#: Every name these tests seat: their hands are a few cards each, fewer than were dealt
#: (RULES.md §10), and the form says nobody remembers the rest (a box per player; a name
#: not at the table is no box).
EVERYONE = ["Ann", "Ben", "You", "Ada", "Alexandra Montgomery-Fitzwilliam Thirdly",
            "Bartholomew Winterbottom", "Cy", "Dorothea Featherstonehaugh", "Ed",
            "Francesca Borgia-Medici", "Gus", "Henrietta"]


def start(client: FlaskClient, names: tuple[str, ...] = ("Ann", "Ben"),
          family: str = "rummy-500") -> str:
    data = {f"players-{i}": n for i, n in enumerate(names)}
    data.update({"family": family, "first_dealer": "0", "min_natural_cards": "1"})
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, text(response)
    return response.headers["Location"]


def test_an_edit_shows_before_and_after(client: FlaskClient) -> None:
    board = start(client, family="pagat-500")
    assert client.post(f"{board}/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9s 10s", "players-1-hand": "jk 5h qs qd kd",
        "outcome": "p0", "missing_ok": EVERYONE}).status_code == 302
    edit = client.get(f"{board}/hands/1/edit").get_data(as_text=True)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', edit)
    hand_id = re.search(r'name="hand_id" type="hidden" value="(\d+)"', edit)
    assert version and hand_id
    assert client.post(f"{board}/hands/1/edit", data={
        "number": "1", "version": version.group(1), "hand_id": hand_id.group(1),
        "players-0-melds": "7s 8s 9s 10s", "players-1-hand": "5h qs qd kd",
        "outcome": "p0", "missing_ok": EVERYONE}).status_code == 302
    history = plain(client.get(f"{board}/history"))
    assert "Hand edited · hand 1" in history
    assert "Ben −50 → −35" in history  # the joker (15) taken back
    assert "left in hand: JK 5♥ Q♠ Q♦ K♦ → 5♥ Q♠ Q♦ K♦" in history


def test_a_deleted_hand_shows_what_it_held(client: FlaskClient) -> None:
    board = start(client)
    client.post(f"{board}/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9s", "players-1-hand": "kd",
        "outcome": "p0", "missing_ok": EVERYONE})
    show = client.get(f"{board}/hands/1").get_data(as_text=True)
    fields = dict(re.findall(r'name="(version|hand_id)" type="hidden" value="(\d+)"', show))
    assert client.post(f"{board}/hands/1/delete", data=fields).status_code == 302
    history = plain(client.get(f"{board}/history"))
    assert "Hand deleted · hand 1" in history and "It held:" in history
    assert "Ann +24: put down 7♠ 8♠ 9♠" in history
    assert "Ben −10: left in hand K♦" in history
    assert "How it ended: Ann went out" in history


def test_the_history_names_the_phone_not_a_session(app: Flask, client: FlaskClient) -> None:
    board = start(client)
    settings = client.get("/leagues").get_data(as_text=True)
    league_id = re.search(r"/leagues/(\d+)/settings", settings)
    assert league_id
    client.post(f"/leagues/{league_id.group(1)}/links/scorer")
    link = re.search(r'id="scorer-url"[^>]*value="([^"]+)"',
                     client.get(f"/leagues/{league_id.group(1)}/settings")
                     .get_data(as_text=True))
    assert link
    phone = app.test_client()
    token = link.group(1).rsplit("/", 1)[1]
    join = text(phone.get(f"/join/{token}", follow_redirects=True))
    assert "Whose phone is this?" in join and '<option value="Ben">' in join
    assert phone.post(f"/join/{token}", data={"player": "  Ben \x00"}).status_code == 302
    assert phone.post(f"{board}/hands/new", headers={"User-Agent": CHROME_ANDROID}, data={
        "number": "1", "players-0-melds": "7s 8s 9s", "players-1-hand": "kd",
        "outcome": "p0", "missing_ok": EVERYONE}).status_code == 302
    history = html.unescape(text(client.get(f"{board}/history")))
    assert "Ben's phone (Chrome · Android)" in history
    assert "session" not in history.split("<main", 1)[1]


def test_games_are_numbered_within_their_league(app: Flask, client: FlaskClient) -> None:
    other = app.test_client()
    first = start(client)
    elsewhere = start(other, ("Cy", "Dee"))  # another family's first game
    second = start(client, ("Ann", "Eve"))
    assert "<h1>Game 1 " in text(client.get(first))
    assert "<h1>Game 1 " in text(other.get(elsewhere))
    assert "<h1>Game 2 " in text(client.get(second))
    assert "Game 2 ·" in text(client.get(f"{second}/hands/new"))
    with app.app_context():
        numbers = sorted((g.league_id, g.number) for g in db.session.scalars(db.select(Game)))
    assert [n for _league, n in numbers] == [1, 2, 1]


NAMES = ("Alexandra Montgomery-Fitzwilliam Thirdly", "Bartholomew Winterbottom", "Cy",
         "Dorothea Featherstonehaugh", "Ed", "Francesca Borgia-Medici", "Gus", "Henrietta")


def test_long_names_are_cut_in_the_table_and_whole_in_its_key(client: FlaskClient) -> None:
    board = start(client, NAMES, "pagat-500")
    hands = {f"players-{i}-hand": c for i, c in enumerate(
        ["", "kd", "2c 3h", "5d", "qs jh", "4s", "6h", "8c 9d"])}
    assert client.post(f"{board}/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9s", **hands, "outcome": "p0",
        "missing_ok": EVERYONE}
        ).status_code == 302
    page = text(client.get(board))
    table = page[page.index('<table class="scores scores-many">'):page.index("</table>")]
    assert 'aria-label="Alexandra Montgomery-Fitzwilliam Thirdly"><bdi>Ale…</bdi></a>' in table
    assert 'href="#player-name-0"' in table and "><bdi>Cy</bdi></th>" in table
    assert ('<li id="player-name-0"><span class="name-short"><bdi>Ale…</bdi></span> '
            '<bdi>Alexandra') in page
    # the chart's key is a list under the chart, where long names wrap
    legend = page[page.index('<ul class="chart-legend">'):]
    assert '<bdi class="legend-name">Alexandra Montgomery-Fitzwilliam Thirdly</bdi>' in legend
    svg = page[page.index('<svg class="chart"'):page.index("</svg>")]
    svg = re.sub(r"<(title|desc)\b[^>]*>.*?</\1>", "", svg)  # said in words: fine
    assert "Bartholomew" not in svg  # no name drawn inside the chart, where it would clash


def test_went_rummy_is_marked_and_nothing_says_plus_zero(client: FlaskClient) -> None:
    board = start(client, family="basic")
    assert client.post(f"{board}/hands/new", data={
        "number": "1", "players-0-melds": "2h 3h 4h 5h", "players-1-hand": "kd qd",
        "outcome": "p0", "missing_ok": EVERYONE, "going_rummy": "y"}).status_code == 302
    page = text(client.get(board))
    words = plain(client.get(board))
    assert '<tr id="hand-1" class="went-rummy">' in page and "Ann went Rummy" in words
    assert "+0" not in words
    assert "Ann +" in words and "Ben 0" in words  # the history's summary


def test_a_lay_off_on_ones_own_meld_reads_so(client: FlaskClient) -> None:
    board = start(client, ("You", "Ada"))
    assert client.post(f"{board}/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9s", "players-0-layoffs": "6s 1",
        "players-1-hand": "kd", "outcome": "p0", "missing_ok": EVERYONE}).status_code == 302
    page = plain(client.get(f"{board}/hands/1"))
    assert "6♠ on your own meld 1" in page and "You's" not in page


def test_a_new_game_shows_four_seats_and_a_button_for_more(client: FlaskClient) -> None:
    form = client.get("/games/new").get_data(as_text=True)
    rows = re.findall(r'<li class="seat-row"( hidden)?>', form)
    assert [bool(h) for h in rows] == [False] * 4 + [True] * 4
    assert "Add a seat" in form
    # without JavaScript the button sends the form back with one more seat, keeping names
    more = client.post("/games/new", data={"players-0": "Ann", "players-1": "Ben",
                                           "seats_shown": "4", "add_seat": "1"})
    assert more.status_code == 200
    page = more.get_data(as_text=True)
    rows = re.findall(r'<li class="seat-row"( hidden)?>', page)
    assert [bool(h) for h in rows] == [False] * 5 + [True] * 3
    assert 'value="Ann"' in page and 'name="seats_shown" value="5"' in page
