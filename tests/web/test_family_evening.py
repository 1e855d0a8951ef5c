"""What a family notices in an evening (issue 32), on the server's side: one round of
corrections on the record page, the winner in sight after the winning hand, the 409
page saying how this phone's entry differs, a game put back in play beside its rematch
said so, the game's card figures over the hands that have cards, the chart's target
label off the players' lines, the referee naming a meld's owner, saying what an ace
scores at either end and listing nothing to call on once the hand is over, a set of
aces read out in the plural, a live refusal saying who already played the card, and
"did you mean Lucía?" before a near twin joins the roster."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import make_rules, parse_card, parse_cards
from scorebook.extensions import db
from scorebook.models import Game, Player
from scorebook.services import games, hands
from scorebook.services.entry import HandError

#: A form's tick for each player short of the cards dealt (RULES.md §10): these hands
#: leave out what does not matter to the test.
NOBODY_REMEMBERS = {"missing_ok": ["Ann", "Ben"]}

#: Names are isolated from the text around them (U+2068 … U+2069): read without them.
ISOLATES = re.compile("[\u2066-\u2069]")


def text(response: Any) -> str:
    """A page as a person reads it: no tags, no isolates, spaces folded."""
    page = ISOLATES.sub("", response.get_data(as_text=True))
    page = re.sub(r"</?bdi>", "", page)
    page = re.sub(r"<[^>]+>", " ", page).replace("&#39;", "'").replace("&amp;", "&")
    return re.sub(r"\s+", " ", page)


def api(client: FlaskClient, method: str, path: str, body: Any, status: int) -> Any:
    response = client.open(f"/api/v1/games{path}", method=method, json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def hand(ann_melds: list[str], ben_holds: list[str], went_out: str = "Ann") -> dict[str, Any]:
    return {"went_out": went_out, "players": [
        {"name": "Ann", "melds": [{"id": f"a{k}", "cards": m.split()}
                                  for k, m in enumerate(ann_melds)], "hand": []},
        {"name": "Ben", "melds": [], "hand": ben_holds}]}


# --- the record page -----------------------------------------------------------------------


def test_the_points_form_says_everything_missing_in_one_round(
        client: FlaskClient, new_game: Callable[..., int]) -> None:
    """Points missing and how the hand ended not said: both at once, not one, then the
    other after the first is corrected."""
    game_id = new_game()
    page = client.post(f"/games/{game_id}/hands/new", data={
        "points_only": "1", "number": "1", "players-0-points": "", "players-1-points": "5"})
    said = text(page)
    assert page.status_code == 400
    assert "Enter the points Ann scored" in said
    assert "Say how the hand ended" in said


def test_a_typed_card_form_says_a_bad_card_and_the_ending_in_one_round(
        client: FlaskClient, new_game: Callable[..., int]) -> None:
    game_id = new_game()
    page = client.post(f"/games/{game_id}/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9z", "players-1-hand": "kd"})
    said = text(page)
    assert page.status_code == 400
    assert "9z" in said and "Say how the hand ended" in said


def test_after_the_winning_hand_the_board_opens_at_the_winner(
        client: FlaskClient, app: Flask) -> None:
    """Not at the last hand's row (#hand-1), which scrolls "★ Ann wins!" off the screen."""
    with app.app_context():
        game = games.create_game(games.default_league(), ["Ann", "Ben"], 0,
                                 make_rules("rummy-500", target=20))
        game_id, league_id = game.id, game.league_id
    from tests.conftest import join_league
    join_league(app, client, league_id, "scorer")
    first = client.post(f"/games/{game_id}/hands/new", data={
        "number": "1", "players-0-melds": "2s 3s 4s", "players-1-hand": "kd",
        "outcome": "p0", **NOBODY_REMEMBERS})
    assert first.status_code == 302 and first.location.endswith("#hand-1")
    won = client.post(f"/games/{game_id}/hands/new", data={
        "number": "2", "players-0-melds": "7h 8h 9h", "players-1-hand": "qd",
        "outcome": "p0", **NOBODY_REMEMBERS})
    assert won.status_code == 302
    assert won.location.endswith(f"/games/{game_id}"), won.location
    assert "Ann wins!" in text(client.get(won.location))


def test_the_409_page_shows_how_this_phones_entry_differs(
        client: FlaskClient, new_game: Callable[..., int]) -> None:
    """Hand 1 was recorded on another phone meanwhile: the page lists what differs
    (Ann's melds, Ben's cards left) beside the hand as stored."""
    game_id = new_game()
    api(client, "POST", f"/{game_id}/hands", {**hand(["7s 8s 9s"], ["kd"]), "number": 1}, 201)
    late = client.post(f"/games/{game_id}/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9s 10s", "players-1-hand": "kd qd",
        "outcome": "p0"})
    assert late.status_code == 409
    said = text(late)
    assert "Your entry and the hand stored" in said
    page = ISOLATES.sub("", late.get_data(as_text=True))
    ann = page[page.index('data-player="Ann" data-part="melds"'):]
    ann = ann[:ann.index("</div>")]
    assert "10♠" in ann and "Stored:" in ann and "Yours:" in ann
    assert 'data-player="Ben" data-part="hand"' in page
    assert 'data-part="ending"' not in page  # Ann went out on both
    same = client.post(f"/games/{game_id}/hands/new", data={
        "number": "1", "players-0-melds": "7s 8s 9s", "players-1-hand": "kd",
        "outcome": "p0"})
    assert same.status_code == 409
    assert "the same as the hand stored" in text(same)


# --- game and league pages ---------------------------------------------------------------


def finished_game(app: Flask, client: FlaskClient) -> tuple[int, dict[str, Any]]:
    """A Rummy 500 game to 20 that Ann won in one hand (7♠ 8♠ 9♠: 24), this browser a
    scorer; returns its id and the hand as stored."""
    with app.app_context():
        game = games.create_game(games.default_league(), ["Ann", "Ben"], 0,
                                 make_rules("rummy-500", target=20))
        game_id, league_id = game.id, game.league_id
    from tests.conftest import join_league
    join_league(app, client, league_id, "scorer")
    made = api(client, "POST", f"/{game_id}/hands", {**hand(["7s 8s 9s"], ["kd"]),
                                                     "number": 1}, 201)["hand"]
    return game_id, made


def test_a_game_put_back_in_play_beside_its_rematch_is_said(
        client: FlaskClient, app: Flask) -> None:
    game_id, made = finished_game(app, client)
    with app.app_context():
        again = games.rematch(db.session.get(Game, game_id))
        again_number = again.number
    edit = client.get(f"/games/{game_id}/hands/1/edit")
    assert f"Game {again_number} has started since as its rematch" in text(edit)
    changed = client.post(f"/games/{game_id}/hands/1/edit", data={
        "version": str(made["version"]), "hand_id": str(made["id"]), "number": "1",
        "players-0-melds": "2s 3s 4s", "players-1-hand": "kd", "outcome": "p0",
        **NOBODY_REMEMBERS})
    assert changed.status_code == 302
    board = text(client.get(changed.location))
    assert "Game 1 is in play again: after this change nobody has reached 20." in board
    assert f"Game {again_number}, started as its rematch, is in play too" in board


def test_the_game_figures_say_they_cover_the_hands_with_cards(
        client: FlaskClient, app: Flask) -> None:
    """Two hands, one kept as points only: the card figures are over 1 hand, not 2."""
    with app.app_context():
        game = games.create_game(games.default_league(), ["Ann", "Ben"], 0,
                                 make_rules("rummy-500", target=40))
        game_id, league_id = game.id, game.league_id
    from tests.conftest import join_league
    join_league(app, client, league_id, "scorer")
    api(client, "POST", f"/{game_id}/hands", {
        "points_only": True, "went_out": "Ann", "number": 1,
        "players": [{"name": "Ann", "points": 20}, {"name": "Ben", "points": 0}]}, 201)
    api(client, "POST", f"/{game_id}/hands", {**hand(["7s 8s 9s"], ["kd"]), "number": 2}, 201)
    board = text(client.get(f"/games/{game_id}"))
    assert "Ann wins!" in board
    assert "over the 1 hand recorded card by card" in board
    assert "over all 2" in board


def crosses(box: tuple[float, float, float, float],
            line: list[tuple[float, ...]]) -> bool:
    """Does the polyline pass through the box (left, top, right, bottom)?"""
    left, top, right, bottom = box
    for (x1, y1), (x2, y2) in zip(line, line[1:]):
        for s in range(201):
            px, py = x1 + (x2 - x1) * s / 200, y1 + (y2 - y1) * s / 200
            if left <= px <= right and top <= py <= bottom:
                return True
    return False


def test_the_target_label_keeps_off_the_players_lines() -> None:
    """The leader ends at 480 of 500: at the right-hand end the label sat on that line."""
    from scorebook.presenters.charts import score_chart

    app = Flask(__name__)
    from flask_babel import Babel
    Babel(app)
    with app.test_request_context():
        svg = str(score_chart(["Carmen", "Marco"], [[120, 250, 390, 480], [60, 90, 150, 200]],
                              500))
    label = re.search(r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)"[^>]*>target 500',
                      svg)
    assert label, svg
    x, y, anchor = float(label.group(1)), float(label.group(2)), label.group(3)
    width = len("target 500") * 6.5
    left = x - width if anchor == "end" else x
    box = (left, y - 11, left + width, y + 2)
    for points in re.findall(r'<polyline points="([^"]+)"', svg):
        line = [tuple(float(v) for v in p.split(",")) for p in points.split()]
        assert not crosses(box, line), (box, points)


# --- the referee pages ----------------------------------------------------------------------


def test_a_lay_off_verdict_names_the_owner_given(client: FlaskClient) -> None:
    page = text(client.get("/referee/layoff?" + urlencode(
        {"table": "A (Ann): 5h 6h 7h\nB: 9c 9s 9d", "card": "8h"})))
    assert "8♥ can be laid off on meld A (Ann's)." in page
    assert "meld A (Ann's): 8♥" in page


def test_a_call_after_the_hand_is_over_lists_nothing_to_call_on(client: FlaskClient) -> None:
    query = {"pile": "2D KC 5S QC 9H JC", "discarder": "Ann", "caller": "Ben",
             "family": "pagat-500"}
    legal = text(client.get("/referee/rummy-call?" + urlencode(query)))
    assert "Callable cards in the pile" in legal
    over = text(client.get("/referee/rummy-call?" + urlencode({**query, "hand_over": "y"})))
    assert "NOT LEGAL" in over and "The hand is over" in over
    assert "Callable cards in the pile" not in over


@pytest.mark.parametrize(("family", "low"), [("rummy-500", 15), ("pagat-500", 1)])
def test_an_ace_at_either_end_says_what_it_scores_low(client: FlaskClient, family: str,
                                                      low: int) -> None:
    """values.ace-end: in Rummy 500 both ends are 15, in 500 Rum the low end is 1."""
    run = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
    meld = client.post("/api/v1/referee/meld", json={
        "rules": {"family": family}, "cards": run}).get_json()
    assert meld["code"] == "meld.ace-either-end"
    assert f"at the low end it scores {low}, at the high end 15" in meld["message"]
    layoff = client.post("/api/v1/referee/layoff", json={
        "rules": {"family": family}, "card": "AH",
        "table": [{"id": "A", "cards": "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"}]}).get_json()
    assert layoff["code"] == "layoff.ace-either-end"
    assert f"at the low end it scores {low}, at the high end 15" in layoff["message"]
    page = text(client.get("/referee/layoff?" + urlencode(
        {"table": "A: 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "card": "ah",
         "family": family})))
    assert f"at the low end it scores {low}, at the high end 15" in page


def test_the_rummy_call_from_a_game_offers_its_players(
        client: FlaskClient, new_game: Callable[..., int]) -> None:
    game_id = new_game(("Carmen", "Marco", "Anna"), "pagat-500")
    page = client.get(f"/referee/rummy-call?game={game_id}").get_data(as_text=True)
    for field in ("discarder", "caller"):
        select = re.search(rf'<select id="{field}" name="{field}">(.*?)</select>', page, re.S)
        assert select, field
        assert re.findall(r'<option[^>]*value="([^"]*)"', select.group(1)) == [
            "", "Carmen", "Marco", "Anna"]
    typed = client.get("/referee/rummy-call").get_data(as_text=True)
    assert re.search(r'<input[^>]*id="discarder"', typed)  # without a game: typed, as before


@pytest.mark.parametrize(("language", "said"), [
    ("en", "a set of aces"), ("es", "un trío de ases"), ("it", "un tris di assi")])
def test_a_set_is_read_out_with_its_rank_in_the_plural(app: Flask, language: str,
                                                       said: str) -> None:
    from scorebook.services.stats.cards import MeldShape
    from scorebook.web.league.stats import shape_html

    with app.test_request_context(headers={"Accept-Language": language}):
        html = str(shape_html(MeldShape(kind="set", rank="A")))
        sevens = str(shape_html(MeldShape(kind="set", rank="7")))
    assert said in html
    assert {"en": "sevens", "es": "sietes", "it": "sette"}[language] in sevens


# --- the live hand ---------------------------------------------------------------------------


def test_a_live_card_played_already_says_who_played_it(
        client: FlaskClient, new_game: Callable[..., int], app: Flask) -> None:
    """The second phone's K♠ meets the one Anna laid off a moment before."""
    game_id = new_game(("Anna", "Marco"), "rummy-500")
    with app.app_context():
        game = db.session.get(Game, game_id)
        live = hands.start_live(game)
        run = hands.live_meld(live, "Marco", parse_cards("10s js qs"))
        hands.live_layoff(live, "Anna", parse_card("ks"), run.label)
        with pytest.raises(HandError) as refused:
            hands.live_meld(live, "Marco", parse_cards("ks kh kd"))
        assert refused.value.code == "card-used"
        live_id = live.id
    page = client.post(f"/games/{game_id}/hands/live/meld", data={
        "hand": str(live_id), "meld-player": "p1", "meld-cards": "ks kh kd"})
    said = text(page)
    assert "Anna already laid off K♠ on Marco's meld 1" in said
    assert "appears 2 times" not in said


def test_the_live_page_says_whose_deal_it_is(
        client: FlaskClient, new_game: Callable[..., int], app: Flask) -> None:
    game_id = new_game(("Carmen", "Marco"), "rummy-500")
    with app.app_context():
        hands.start_live(db.session.get(Game, game_id))
    page = client.get(f"/games/{game_id}/hands/live").get_data(as_text=True)
    badge = re.search(r'<p class="deal-badge"[^>]*>(.*?)</p>', page, re.S)
    assert badge and "Hand 1: Carmen deals." in re.sub(r"<[^>]+>", "",
                                                       ISOLATES.sub("", badge.group(1)))


# --- names -------------------------------------------------------------------------------------


def test_a_name_that_only_differs_by_its_accent_asks_did_you_mean(
        client: FlaskClient, app: Flask) -> None:
    with app.app_context():
        league = games.default_league()
        games.create_game(league, ["Lucía", "Marco"], 0, make_rules("rummy-500"))
        league_id = league.id
    from tests.conftest import join_league
    join_league(app, client, league_id, "owner")
    form = {"players-0": "Lucia", "players-1": "Marco", "first_dealer": "0",
            "family": "rummy-500", "seats_shown": "4"}
    asked = client.post("/games/new", data=form)
    said = text(asked)
    assert asked.status_code == 200 and "Did you mean Lucía?" in said
    assert "“Lucia” would be a new player" in said
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 1  # nothing started
    same = client.post("/games/new", data={**form, "use_name": "0:Lucía"})
    assert same.status_code == 302
    with app.app_context():
        names = sorted(db.session.scalars(db.select(Player.name)))
        assert names == ["Lucía", "Marco"]
    # whatever the case: LUCÍA is Lucía, no question and no new player
    upper = client.post("/games/new", data={**form, "players-0": "LUCÍA"})
    assert upper.status_code == 302
    other = client.post("/games/new", data={**form, "new_name": "Lucia"})
    assert other.status_code == 302
    with app.app_context():
        names = sorted(db.session.scalars(db.select(Player.name)))
        assert names == ["Lucia", "Lucía", "Marco"]


def test_the_roster_asks_before_adding_a_near_twin(client: FlaskClient, app: Flask) -> None:
    with app.app_context():
        league = games.default_league()
        games.create_game(league, ["Lucía", "Marco"], 0, make_rules("rummy-500"))
        league_id = league.id
    from tests.conftest import join_league
    join_league(app, client, league_id, "owner")
    asked = client.post("/league/players", data={"add-name": "lucia"})
    assert asked.status_code == 400
    assert "Did you mean Lucía?" in text(asked)
    assert 'name="new_anyway" value="lucia"' in asked.get_data(as_text=True)
    taken = client.post("/league/players", data={"add-name": "LUCÍA"})
    assert taken.status_code == 400 and "Lucía is already in the league" in text(taken)
    added = client.post("/league/players", data={"add-name": "lucia", "new_anyway": "lucia"})
    assert added.status_code == 302
