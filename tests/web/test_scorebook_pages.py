"""The scorebook's pages through the Flask test client: start a game, record hands by
typed cards (the page without JavaScript) or by the picker's JSON, see the scoreboard,
edit, delete, play live — and bad input shown in place with nothing stored."""

from __future__ import annotations

import html as html_module
import json
import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Change, Game, Hand
from tests.reading import page, readable

EXAMPLE_FORM = {
    "players-0-melds": "7s 8s 9s\n4c 4s 4d", "players-0-layoffs": "6s 1\nks Ada 1",
    "players-0-hand": "5h jd 9h ah",
    "players-1-melds": "kh kd kc\n7d 8d 9d 10d",
    "players-2-melds": "5c 6c 7c", "players-2-hand": "jc 8h 9c",
    "outcome": "p1",
    # Bo has 6 cards, 7 were dealt (RULES.md §10): nobody remembers the 7th
    "missing_ok": "Bo",
}

EXAMPLE_JSON = {
    "players": [
        {"name": "You", "melds": [{"id": "m1", "cards": ["7S", "8S", "9S"]},
                                  {"id": "m2", "cards": ["4C", "4S", "4D"]}],
         "layoffs": [{"card": "6S", "onto": "m1"}, {"card": "KS", "onto": "m3"}],
         "hand": ["5H", "JD", "9H", "AH"]},
        {"name": "Ada", "melds": [{"id": "m3", "cards": ["KH", "KD", "KC"]},
                                  {"id": "m4", "cards": ["7D", "8D", "9D", "10D"]}]},
        {"name": "Bo", "melds": [{"id": "m5", "cards": ["5C", "6C", "7C"]}],
         "hand": ["JC", "8H", "9C"]},
    ],
    "went_out": "Ada",
}


def text(response: object) -> str:
    return re.sub(r"\s+", " ", page(response))


def start(client: FlaskClient, family: str = "rummy-500", names: tuple[str, ...] = (
        "You", "Ada", "Bo"), **extra: str) -> str:
    data = {f"players-{i}": n for i, n in enumerate(names)}
    data.update({"family": family, "first_dealer": "0", "min_natural_cards": "1", **extra})
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, text(response)
    return response.headers["Location"]


def count(app: Flask, model: type) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(model)) or 0


# --- pages ------------------------------------------------------------------------------------


def test_home_offers_a_game_without_any_set_up(client: FlaskClient) -> None:
    page = text(client.get("/"))
    assert "Start a game" in page
    assert 'href="/games/new"' in page
    start(client)  # the first game gives this browser a private league of its own
    assert "Our table" in text(client.get("/"))


def test_new_game_lists_every_house_rule_with_an_explanation(client: FlaskClient) -> None:
    page = text(client.get("/games/new"))
    for words in ("500 Rum", "Rummy 500", "Basic Rummy", "deals first", "Jokers",
                  "Card values", "Ace melded low", "Calling “Rummy!”", "Floating",
                  "Winner must go out", "Target", "One new meld per turn"):
        assert words in page, words


def test_starting_a_game_seats_the_players_and_shows_the_scoreboard(
        client: FlaskClient) -> None:
    location = start(client, first_dealer="1")
    assert location == "/games/1"
    page = text(client.get(location))
    assert "Hand 1: Ada deals." in page
    assert "Record hand 1" in page
    assert "<svg" in page and "<title" in page and "<desc" in page


def test_a_player_count_the_family_does_not_allow_is_shown_in_place(
        app: Flask, client: FlaskClient) -> None:
    data = {f"players-{i}": n for i, n in enumerate(["A", "B", "C", "D", "E"])}
    data.update({"family": "basic", "first_dealer": "0", "min_natural_cards": "1"})
    response = client.post("/games/new", data=data)
    assert response.status_code == 400
    assert "Basic Rummy is played by 2 to 4 players, not 5." in text(response)
    assert 'value="E"' in text(response)  # what was typed is kept
    assert count(app, Game) == 0


def test_the_rules_example_typed_in_gives_13_64_minus_9(client: FlaskClient) -> None:
    start(client)
    form = text(client.get("/games/1/hands/new"))
    assert 'name="players-0-melds"' in form and 'name="hand_json"' in form
    response = client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM})
    assert response.status_code == 302
    assert response.headers["Location"] == "/games/1#hand-1"
    page = text(client.get("/games/1"))
    assert "Hand 1 saved." in page
    assert re.search(r'<tr id="hand-1">.*\+13.*\+64.*−9.*</tr>', page)
    assert "Hand 2: Ada deals." in page


def test_the_pickers_json_is_used_when_the_script_wrote_it(client: FlaskClient) -> None:
    start(client)
    response = client.post("/games/1/hands/new", data={
        "number": "1", "hand_json": json.dumps(EXAMPLE_JSON), "outcome": "p1",
        "missing_ok": "Bo"})
    assert response.status_code == 302
    hand_page = text(client.get("/games/1/hands/1"))
    assert "+13" in hand_page and "+64" in hand_page and "−9" in hand_page
    assert "by You" in hand_page  # K♠ laid off on Ada's kings


@pytest.mark.parametrize(("change", "message", "where"), [
    ({"players-2-hand": "jc 8h 9c 7s"}, "7♠ appears 2 times", "problems"),
    ({"players-2-melds": "5c 6c 8c"}, "Meld 1: 5♣ 6♣ 8♣ is neither a set", "player-2"),
    ({"players-0-layoffs": "6s 1\nqd Ada 1"}, "Lay-off 2: Q♦ cannot be laid off on Ada",
     "player-0"),
    ({"players-1-melds": "kh kd kx"}, "“kx” is not a card", "player-1"),
    ({"outcome": ""}, "Say how the hand ended.", "outcome"),
])
def test_bad_input_is_shown_in_place_and_nothing_is_stored(
        app: Flask, client: FlaskClient, change: dict[str, str], message: str,
        where: str) -> None:
    start(client)
    response = client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM, **change})
    assert response.status_code == 400
    page = text(response)
    assert "Nothing was saved" in page or "⚠" in page
    section = page[page.index(f'id="{where}"'):]
    assert message in section[:3000], section[:3000]
    assert 'value="1"' in page  # the form keeps the hand number
    assert count(app, Hand) == 0


def test_a_hand_for_a_finished_game_is_refused(app: Flask, client: FlaskClient) -> None:
    start(client, target="20")
    client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM})
    assert "Ada wins!" in text(client.get("/games/1"))
    response = client.get("/games/1/hands/new")
    assert response.status_code == 302
    late = client.post("/games/1/hands/new", data={
        "number": "2", "players-1-melds": "2h 3h 4h", "outcome": "p1"})
    assert late.status_code == 409
    assert "This game is over" in text(late)
    assert "2h 3h 4h" in text(late)  # the form is shown again with what was typed
    assert count(app, Hand) == 1


def test_two_phones_saving_the_same_hand_store_it_once(app: Flask, client: FlaskClient) -> None:
    start(client)
    first = client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM})
    assert first.status_code == 302
    second = client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM})
    assert second.status_code == 409
    page = text(second)
    assert "Hand 1 was just recorded" in page
    assert "Hand 1 as stored" in page and "+64" in page
    assert count(app, Hand) == 1


def test_edit_any_past_hand_and_a_stale_edit_is_a_409(client: FlaskClient) -> None:
    start(client)
    client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM})
    client.post("/games/1/hands/new", data={
        "number": "2", "players-1-melds": "2h 3h 4h", "outcome": "p1",
        "players-0-hand": "2c", "players-2-hand": "3c", "missing_ok": ["You", "Ada", "Bo"]})
    form = text(client.get("/games/1/hands/1/edit"))
    assert "7♠ 8♠ 9♠" in form and "K♠ Ada 1" in form  # cards read with their suits
    assert 'name="version" type="hidden" value="1"' in form
    # a page without JavaScript submits its typed fields: the stored hand is only
    # handed to the picker's script, never put in the submitted hand_json
    assert 'name="hand_json" type="hidden" value=""' in form
    assert "data-initial=\"{&#34;players&#34;" in form
    edited = {**EXAMPLE_FORM, "players-2-hand": "jc 8h"}
    response = client.post("/games/1/hands/1/edit", data={"version": "1", **edited})
    assert response.status_code == 302
    page = text(client.get("/games/1"))
    assert re.search(r'<tr id="hand-1">.*\+13.*\+64.*"hand-score">0<.*</tr>', page)
    assert re.search(r'Total</th>\s*<td class="num total">11</td>\s*<td class="num total">73'
                     r'</td>\s*<td class="num total">−3</td>', page)
    stale = client.post("/games/1/hands/1/edit", data={"version": "1", **EXAMPLE_FORM})
    assert stale.status_code == 409
    assert "was changed" in text(stale)


def test_delete_a_hand_with_its_version(app: Flask, client: FlaskClient) -> None:
    start(client)
    client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM})
    assert "Delete hand 1" in text(client.get("/games/1/hands/1"))
    assert client.post("/games/1/hands/1/delete", data={"version": "7"}).status_code == 409
    response = client.post("/games/1/hands/1/delete", data={"version": "1"})
    assert response.status_code == 302
    assert count(app, Hand) == 0
    history = text(client.get("/games/1/history"))
    assert "Hand deleted" in history and "Hand recorded" in history and "Game started" in history


def test_abandoning_a_game_asks_first_and_says_what_it_means(
        make_app: Callable[..., Flask]) -> None:
    """As for deleting a hand: a panel says what abandoning does, its button does it."""
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()

    def token(url: str) -> str:
        found = re.search(r'name="csrf_token"[^>]*? value="([^"]+)"',
                          client.get(url).get_data(as_text=True))
        assert found, url
        return found.group(1)

    client.post("/games/new", data={"csrf_token": token("/games/new"), "players-0": "A",
                                    "players-1": "B", "family": "rummy-500",
                                    "first_dealer": "0", "min_natural_cards": "1"})
    page = text(client.get("/games/1"))
    panel = re.search(r'<details class="panel" id="abandon"> <summary>Abandon this game</summary>'
                      r' <p>(.*?)</p> <form method="post" action="/games/1/abandon">'
                      r' <input type="hidden" name="csrf_token" value="[^"]+">'
                      r' <button type="submit" class="button-danger">Abandon game 1</button>'
                      r' </form> </details>', page)
    assert panel, page
    meaning = panel.group(1)
    for words in ("no more hands can be recorded", "nobody wins it",
                  "will not count in the standings or the ratings", "hands stay",
                  "cannot be undone"):
        assert words in meaning, words
    # without the form's token nothing happens
    assert client.post("/games/1/abandon").status_code == 400
    with app.app_context():
        assert db.session.get(Game, 1).status == "in-progress"
    done = client.post("/games/1/abandon", data={"csrf_token": token("/games/1")})
    assert done.status_code == 302 and done.headers["Location"] == "/games/1"
    page = text(client.get("/games/1"))
    assert "The game was abandoned; its hands are kept." in page
    assert "This game was abandoned." in page
    assert "Abandon this game" not in page and "Record hand 1" not in page
    assert "Game abandoned" in text(client.get("/games/1/history"))
    # a second tap (from a page opened before) changes nothing and says so
    again = client.post("/games/1/abandon", data={"csrf_token": token("/games/new")})
    assert again.status_code == 302
    assert "already ended; nothing was abandoned" in text(client.get("/games/1"))
    with app.app_context():
        assert db.session.get(Game, 1).status == "abandoned"
        assert db.session.scalar(db.select(db.func.count(Change.id)).where(
            Change.action == "game-abandoned")) == 1


def test_history_says_when_and_from_which_device(app: Flask, client: FlaskClient) -> None:
    start(client)
    client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM}, headers={
        "User-Agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126 Mobile"})
    page = text(client.get("/games/1"))
    assert "Hand recorded · hand 1" in page
    assert "Chrome · Android" in page
    with app.app_context():
        keys = {c.session_key for c in db.session.scalars(db.select(Change))}
    assert len(keys) == 1 and len(keys.pop()) == 8


def test_a_live_hand_through_the_forms(client: FlaskClient) -> None:
    start(client)
    assert "Start hand 1 live" in text(client.get("/games/1/hands/live"))
    assert client.post("/games/1/hands/live/start").status_code == 302
    steps = [
        ("meld", {"meld-player": "p1", "meld-cards": "kh kd kc"}),
        ("meld", {"meld-player": "p0", "meld-cards": "7s 8s 9s"}),
        ("layoff", {"layoff-player": "p0", "layoff-card": "ks", "layoff-onto": "Ada-1"}),
        ("layoff", {"layoff-player": "p0", "layoff-card": "6s", "layoff-onto": "You-1"}),
        ("meld", {"meld-player": "p0", "meld-cards": "4c 4s 4d"}),
        ("meld", {"meld-player": "p1", "meld-cards": "7d 8d 9d 10d"}),
        ("meld", {"meld-player": "p2", "meld-cards": "5c 6c 7c"}),
    ]
    for kind, data in steps:
        response = client.post(f"/games/1/hands/live/{kind}", data=data)
        assert response.status_code == 302, text(response)
    page = text(client.get("/games/1/hands/live"))
    assert "Ada's meld 1" in page and "by You" in page
    bad = client.post("/games/1/hands/live/layoff", data={
        "layoff-player": "p2", "layoff-card": "2h", "layoff-onto": "Ada-1"})
    assert bad.status_code == 400 and "2H" in text(bad)
    # the record page sends the scorer to the live hand meanwhile
    assert client.get("/games/1/hands/new").headers["Location"] == "/games/1/hands/live"
    done = client.post("/games/1/hands/live/finish", data={
        "finish-players-0-hand": "5h jd 9h ah", "finish-players-1-hand": "",
        "finish-players-2-hand": "jc 8h 9c",
        "finish-outcome": "p1", "finish-missing_ok": "Bo"})
    assert done.status_code == 302
    page = text(client.get("/games/1"))
    assert re.search(r'<tr id="hand-1">.*\+13.*\+64.*−9.*</tr>', page)


def test_history_names_cards_and_melds_the_way_the_page_does(client: FlaskClient) -> None:
    start(client)
    client.post("/games/1/hands/live/start")
    for kind, data in [
        ("meld", {"meld-player": "p1", "meld-cards": "kh kd kc"}),
        ("layoff", {"layoff-player": "p0", "layoff-card": "ks", "layoff-onto": "Ada-1"}),
    ]:
        assert client.post(f"/games/1/hands/live/{kind}", data=data).status_code == 302
    assert client.post("/games/1/hands/live/undo", data={"undo-version": ""}).status_code == 302
    client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM})  # live hand open
    client.post("/games/1/hands/live/finish", data={
        "finish-players-0-hand": "5h jd 9h ah", "finish-players-2-hand": "2c",
        "finish-outcome": "p1", "finish-missing_ok": ["You", "Ada", "Bo"]})
    html = client.get("/games/1/history").get_data(as_text=True)
    # what a reader sees: the symbols, not the spoken names meant for screen readers
    seen = re.sub(r'<span class="sr-only">.*?</span>', "", html)
    seen = html_module.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", readable(seen))))
    assert "Ada: K♥ K♦ K♣" in seen
    assert "You: K♠ → Ada's meld 1" in seen
    assert "Taken back · hand 1 K♠ → Ada's meld 1" in seen
    assert "Ada-1" not in seen and "KS" not in seen
    assert re.search(r"You −\d+", seen), "a negative score keeps its real minus sign"
    assert "king of spades" in html  # still said in full to a screen reader


def test_a_run_is_shown_as_it_lies_with_a_low_lay_off_first(client: FlaskClient) -> None:
    """`layoff.basic`: 6♠ laid off on 7♠ 8♠ 9♠ goes at the low end, and the hand's page
    draws the run 6♠ 7♠ 8♠ 9♠, not 7♠ 8♠ 9♠ 6♠."""
    start(client)
    client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM})
    page = client.get("/games/1/hands/1").get_data(as_text=True)
    shown = re.findall(r'<span aria-hidden="true">([^<]+)</span>', page)
    run = shown[shown.index("6♠"):shown.index("6♠") + 4]
    assert run == ["6♠", "7♠", "8♠", "9♠"], shown


def test_house_rules_that_clash_are_named_as_the_form_names_them(client: FlaskClient) -> None:
    data = {"players-0": "Ann", "players-1": "Ben", "family": "pagat-500", "first_dealer": "0",
            "min_natural_cards": "1", "floating": "on", "discard_required": "on"}
    response = client.post("/games/new", data=data)
    assert response.status_code == 400
    page = html_module.unescape(text(response))
    assert "“Floating” needs “Going out needs a discard” off" in page
    assert "discard_required off" not in page
    basic = client.post("/games/new", data={**data, "family": "basic", "floating": "",
                                             "discard_required": "", "jokers": "on"})
    assert "without the house rule “Jokers”" in html_module.unescape(text(basic))


def test_game_details_name_the_house_rules_in_words(client: FlaskClient) -> None:
    start(client, "pagat-500", values="5-10-15", low_ace_value="5", must_go_out="y",
          rummy_call="top", target="300")
    page = html_module.unescape(text(client.get("/games/1")))
    for line in ("Card values: 5-10-15", "Ace melded low: 5", "Winner must go out: On",
                 "Calling “Rummy!”: Last discard only", "Target: 300"):
        assert line in page, line
    assert "must_go_out" not in page and "True" not in page


def test_the_live_hand_says_what_take_back_would_undo(client: FlaskClient) -> None:
    start(client)
    client.post("/games/1/hands/live/start")
    client.post("/games/1/hands/live/meld", data={"meld-player": "p1", "meld-cards": "kh kd kc"})
    page = html_module.unescape(text(client.get("/games/1/hands/live")))
    assert "That is: Ada's meld 1." in page
    client.post("/games/1/hands/live/layoff", data={
        "layoff-player": "p0", "layoff-card": "ks", "layoff-onto": "Ada-1"})
    page = html_module.unescape(text(client.get("/games/1/hands/live")))
    assert "That is: You's K♠ laid off on Ada's meld 1." in page


def test_home_names_each_games_league_when_the_browser_has_several(client: FlaskClient
                                                                    ) -> None:
    start(client)
    assert "Our table" not in re.sub(r"<h2.*?</h2>", "", text(client.get("/")))
    client.post("/leagues/new", data={"name": "Cousins", "password": "correct horse 9",
                                      "confirm": "correct horse 9"})
    start(client, names=("Ann", "Ben"))
    page = text(client.get("/"))
    games = page[page.index("Games in progress"):page.index("Recent results")]
    assert "<span>Cousins · 0 hands played" in games, games
    assert re.search(r"<span>Our table \w+ · 0 hands played", games), games


def test_forms_need_their_csrf_token(make_app: Callable[..., Flask]) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    refused = client.post("/games/new", data={"players-0": "A", "players-1": "B",
                                              "family": "pagat-500", "first_dealer": "0"})
    assert refused.status_code == 400
    page = client.get("/games/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    made = client.post("/games/new", data={"csrf_token": token, "players-0": "A",
                                           "players-1": "B", "family": "pagat-500",
                                           "first_dealer": "0", "min_natural_cards": "1"})
    assert made.status_code == 302
    record = client.get("/games/1/hands/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', record).group(1)
    hand = {"number": "1", "players-0-melds": "2h 3h 4h", "players-1-hand": "2c",
            "outcome": "p0", "missing_ok": ["A", "B"]}
    assert client.post("/games/1/hands/new", data=hand).status_code == 400
    assert client.post("/games/1/hands/new", data={"csrf_token": token, **hand}
                       ).status_code == 302
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Hand.id))) == 1


def test_pages_have_no_inline_scripts_or_styles(client: FlaskClient) -> None:
    start(client)
    client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM})
    for url in ("/", "/games/new", "/games/1", "/games/1/hands/new", "/games/1/hands/1",
                "/games/1/hands/1/edit", "/games/1/history", "/games/1/hands/live"):
        page = client.get(url).get_data(as_text=True)
        assert "style=" not in page, url
        assert not re.search(r"<script(?![^>]*\bsrc=)", page), url


def test_the_kept_scoreboard_changes_with_every_change(client: FlaskClient) -> None:
    """The rendered board is kept per version of the game: never shown stale."""
    start(client)
    assert "No hands yet." in text(client.get("/games/1"))
    client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM})
    assert re.search(r'<tr id="hand-1">.*\+64.*</tr>', text(client.get("/games/1")))
    client.post("/games/1/hands/1/edit", data={"version": "1", **EXAMPLE_FORM,
                                               "players-1-melds": "kh kd kc\n7d 8d 9d",
                                               "missing_ok": ["Ada", "Bo"]})
    page = text(client.get("/games/1"))
    assert re.search(r'<tr id="hand-1">.*\+54.*</tr>', page)
    client.post("/games/1/hands/live/start")
    assert "Hand 2 is being recorded live." in text(client.get("/games/1"))


def test_delete_and_live_forms_need_their_csrf_token(make_app: Callable[..., Flask]) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()

    def token(url: str) -> str:
        page = client.get(url).get_data(as_text=True)
        found = re.search(r'name="(?:\w+-)?csrf_token" type="hidden" value="([^"]+)"', page)
        assert found, url
        return found.group(1)

    client.post("/games/new", data={"csrf_token": token("/games/new"), "players-0": "A",
                                    "players-1": "B", "family": "pagat-500",
                                    "first_dealer": "0", "min_natural_cards": "1"})
    client.post("/games/1/hands/new", data={"csrf_token": token("/games/1/hands/new"),
                                            "number": "1", "players-0-melds": "2h 3h 4h",
                                            "players-1-hand": "2c", "outcome": "p0",
                                            "missing_ok": ["A", "B"]})
    assert client.post("/games/1/hands/1/delete", data={"version": "1"}).status_code == 400
    assert client.post("/games/1/hands/1/delete", data={
        "version": "1", "csrf_token": token("/games/1/hands/1")}).status_code == 302
    assert client.post("/games/1/hands/live/start").status_code == 400
    assert client.post("/games/1/hands/live/start", data={
        "start-csrf_token": token("/games/1/hands/live")}).status_code == 302
    meld = {"meld-player": "p1", "meld-cards": "kh kd kc"}
    assert client.post("/games/1/hands/live/meld", data=meld).status_code == 400
    assert client.post("/games/1/hands/live/meld", data={
        **meld, "meld-csrf_token": token("/games/1/hands/live")}).status_code == 302
    assert "Ben" not in client.get("/games/1/hands/live").get_data(as_text=True)
    assert "B's meld 1" in page(client.get("/games/1/hands/live"))
