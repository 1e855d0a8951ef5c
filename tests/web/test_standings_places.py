"""The standings' places (issue 24): ties were broken alphabetically (after the games
played), so a player who finished 4th was ranked #3.  Equal records share a place; the
tie-breaks (wins, then win rate, then average place) are stated on the page and applied
the same way on the standings page (served fresh or kept), its CSV, the API, the share
text, the season's recap and the home page.

The league (rummy-500, target 20), every game this season:

====  ==================  ==============================
game  players             places
====  ==================  ==============================
G1    Ann, Ben, Zoe       Zoe 1, Ben 2, Ann 3
G2    Ann, Ben, Zoe       Ann 1, Zoe 2, Ben 3
G3    Ben, Cy             Ben 1, Cy 2
G4    Dee, Eve            Dee 1, Eve 2
G5    Dee, Eve            Eve 1, Dee 2
====  ==================  ==============================

One win each but Cy's: Dee, Eve and Zoe won one of two games with an average place of
1.5 (a shared 1st place); Ann one of two, averaging 2 (4th); Ben one of three (5th,
though he played most); Cy none (6th).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.presenters.bidi import plain
from scorebook.services import games, hands, league
from scorebook.services.entry import entry_from_text
from scorebook.services.stats.recap import recap
from tests.web import test_league as base

ctx = base.ctx  # an owned league

PLACES = [(1, "Dee"), (1, "Eve"), (1, "Zoe"), (4, "Ann"), (5, "Ben"), (6, "Cy")]
ORDER = "Places go by Wins, then Win rate, then Average place; players equal on all of " \
        "these share a place."


def win(names: list[str], winner: str, second: str | None = None) -> None:
    """A one-hand game: ``winner`` melds three aces and goes out (45); ``second`` holds
    a two (−2), anyone else a king (−10)."""
    game = games.create_game(games.default_league(), names, 0,
                             games.build_rules("rummy-500", {"target": 20}))
    texts = {n: {"hand": "2c" if n == second else "kh"} for n in names if n != winner}
    texts[winner] = {"melds": "as ah ad"}
    hands.record_hand(game, entry_from_text(names, texts, winner, None, False, False))


@pytest.fixture
def tied(ctx: None) -> Iterator[None]:
    win(["Ann", "Ben", "Zoe"], "Zoe", "Ben")
    win(["Ann", "Ben", "Zoe"], "Ann", "Zoe")
    win(["Ben", "Cy"], "Ben")
    win(["Dee", "Eve"], "Dee")
    win(["Dee", "Eve"], "Eve")
    yield


def page_places(html: str) -> list[tuple[int, str]]:
    rows = re.findall(r'<tr>\s*<td class="num">(\d+)</td>\s*<th scope="row"><a [^>]*>'
                      r'(?:<bdi>)?([^<]+)', html)
    return [(int(place), plain(name)) for place, name in rows]


def test_equal_records_share_a_place_and_the_tie_breaks_decide_the_rest(tied: None) -> None:
    rows = league.standings(games.default_league())
    assert [(r.place, r.name) for r in rows] == PLACES
    assert league.ranked_by() == ["wins", "win_rate", "avg_position"]
    # sorted by another column, that column comes first and the same tie-breaks follow
    by_rate = league.standings(games.default_league(), sort="win_rate")
    assert [(r.place, r.name) for r in by_rate] == PLACES
    by_games = league.standings(games.default_league(), sort="games")
    assert [(r.place, r.name) for r in by_games][:2] == [(1, "Ben"), (2, "Dee")]
    # the other way round: the same places, last first
    low = league.standings(games.default_league(), descending=False)
    assert [(r.place, r.name) for r in low] == PLACES[::-1]


def test_the_page_states_the_order_and_shows_shared_places(tied: None, client: FlaskClient,
                                                          app: Flask) -> None:
    fresh = client.get("/league/").get_data(as_text=True)
    assert page_places(fresh) == PLACES
    assert ORDER in plain(re.sub(r"<[^>]+>", "", fresh))
    kept = client.get("/league/").get_data(as_text=True)  # (a kept page, served before Flask)
    assert page_places(kept) == PLACES
    everyone = client.get("/league/?season=all").get_data(as_text=True)
    assert page_places(everyone) == PLACES
    by_games = client.get("/league/?sort=games").get_data(as_text=True)
    assert "Places go by Games, then Wins, then Win rate, then Average place" in plain(
        re.sub(r"<[^>]+>", "", by_games))
    # the share text and the home page follow the standings
    shared = plain(re.sub(r"<[^>]+>", "", fresh))
    assert "1. Dee (1 win) · 1. Eve (1 win) · 1. Zoe (1 win) · 4. Ann (1 win)" in shared
    home = plain(client.get("/").get_data(as_text=True))
    assert [plain(n) for n in re.findall(r'<tr><th scope="row">(?:<bdi>)?([^<]+)', home)] == [
        name for _place, name in PLACES]


def test_the_csv_and_the_api_place_players_as_the_page_does(tied: None,
                                                            client: FlaskClient) -> None:
    answer = client.get("/league/standings.csv?season=all")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    table = list(csv.reader(io.StringIO(answer.get_data(as_text=True).lstrip("\ufeff"))))
    assert table[0][:4] == ["Place", "Player", "Games", "Wins"]
    assert [(int(r[0]), r[1]) for r in table[1:]] == PLACES
    assert table[1][2:6] == ["2", "1", "0.5", "1.5"]  # games, wins, win rate, average place
    league_id = games.default_league().id
    api = client.get(f"/api/v1/leagues/{league_id}/standings")
    assert api.status_code == 200
    body = api.get_json()
    assert body["ranked_by"] == ["wins", "win_rate", "avg_position"] and body["season"] is None
    assert [(r["place"], r["player"]) for r in body["standings"]] == PLACES
    assert body["standings"][3] == {
        "place": 4, "player": "Ann", "games": 2, "wins": 1, "win_rate": 0.5,
        "avg_position": 2.0, "avg_hand": 17.5, "best_hand": 45, "best_total": 45,
        "melded": 45, "stranded": 10, "streak": 1, "rating": body["standings"][3]["rating"],
        "retired": False}
    season = league.prepare(games.default_league())[0]
    in_season = client.get(f"/api/v1/leagues/{league_id}/standings?season_id={season.id}")
    assert [(r["place"], r["player"]) for r in in_season.get_json()["standings"]] == PLACES
    assert in_season.get_json()["season"]["name"] == season.name
    assert client.get(f"/api/v1/leagues/{league_id}/standings?season_id=999").status_code == 404
    stranger = client.application.test_client()
    assert stranger.get(f"/api/v1/leagues/{league_id}/standings").status_code == 404


def test_the_recap_places_players_as_the_standings_do(tied: None) -> None:
    season = league.prepare(games.default_league())[0]
    table = recap(games.default_league(), season).table
    assert [(p.place, p.standing.name) for p in table] == PLACES
