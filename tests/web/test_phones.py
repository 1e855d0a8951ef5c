"""From the laptop to every phone: "Add a phone" QR codes that join the league and land
in the game, "Play again", the result to share, and the app's manifest, icons and
service worker."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import Game, League
from scorebook.services import access, games, hands, history
from scorebook.services.entry import entry_from_text
from tests.conftest import join_league
from tests.qr import decode_modules
from tests.reading import page as page_of

NAMES = ["Ann", "Ben", "Cy"]
BIG = "as ah ad ac\nks kh kd kc\nqs qh qd qc\njs jh jd jc\n10s 10h 10d 10c"


# --- a game, and reading the codes ------------------------------------------------------------


def new_game(app: Flask, family: str = "pagat-500", dealer: int = 0,
             **options: Any) -> tuple[int, int]:
    """A league with a three-player game; returns (league id, game id)."""
    with app.test_request_context():
        league = League(name="Family Q")
        db.session.add(league)
        db.session.commit()
        game = games.create_game(league, NAMES, dealer, make_rules(family, **options))
        return league.id, game.id


def play_hand(app: Flask, game_id: int) -> None:
    """Ann +220 (out), Ben +4, Cy −6."""
    with app.test_request_context():
        game = games.load_game(game_id)
        assert game is not None
        entry = entry_from_text(NAMES, {"Ann": {"melds": BIG},
                                        "Ben": {"melds": "2s 3s 4s", "hand": "5h"},
                                        "Cy": {"hand": "6d"}}, "Ann", None, False, False)
        hands.record_hand(game, entry, games.next_hand_number(game))


def finished_game(app: Flask, **kw: Any) -> tuple[int, int]:
    league_id, game_id = new_game(app, **kw)
    for _ in range(3):
        play_hand(app, game_id)
    with app.app_context():
        assert db.session.get(Game, game_id).status == "finished"  # type: ignore[union-attr]
    return league_id, game_id


def svg_modules(svg: str) -> list[list[bool]]:
    """The modules of one of segno's SVG codes (a path of ``M x y``, ``m dx dy``, ``h n``)."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))  # type: ignore[union-attr]
    path = re.search(r'<path stroke="#000" d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    grid = [[False] * size for _ in range(size)]
    x = y = 0.0
    for op, args in re.findall(r"([MmHhVv])([-\d.\s]+)", path):
        values = [float(v) for v in args.split()]
        if op == "M":
            x, y = values
        elif op == "m":
            x, y = x + values[0], y + values[1]
        elif op == "h":
            for dx in range(int(values[0])):
                grid[int(y)][int(x) + dx] = True
            x += values[0]
    return grid


def codes_on(page: str) -> dict[str, tuple[str, str | None]]:
    """Each code on an "Add a phone" page: its role → (link shown, what the SVG decodes to)."""
    found = {}
    for role in ("scorer", "viewer"):
        section = re.search(rf'<section[^>]*id="{role}-code".*?</section>', page, re.S)
        if section is None:
            continue
        link = re.search(r'<code id="\w+-code-url">([^<]+)</code>', section.group(0))
        svg = re.search(r"<svg.*?</svg>", section.group(0), re.S)
        if link and svg:
            found[role] = (link.group(1).replace("&amp;", "&"),
                           decode_modules(svg_modules(svg.group(0))))
    return found


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


def owner_with_codes(app: Flask, client: FlaskClient, game_id: int) -> dict[str, Any]:
    page = client.get(f"/games/{game_id}/phones").get_data(as_text=True)
    for action in re.findall(r'<form method="post" action="([^"]+/phones/\w+)"', page):
        assert client.post(action, data={"next": f"/games/{game_id}/phones"}).status_code == 302
    return codes_on(client.get(f"/games/{game_id}/phones").get_data(as_text=True))


# --- Add a phone ------------------------------------------------------------


def test_the_owner_shows_a_scorer_and_a_viewer_code_made_on_demand(
        app: Flask, client: FlaskClient, join: Callable[..., None]) -> None:
    league_id, game_id = new_game(app)
    join(client, league_id, "owner")
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/phones"' in board and "Add a phone" in board

    first = client.get(f"/games/{game_id}/phones")
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "no-store"
    assert "<svg" not in first.get_data(as_text=True)  # no link yet: a button makes it
    assert "Show a scorer code" in first.get_data(as_text=True)

    codes = owner_with_codes(app, client, game_id)
    assert set(codes) == {"scorer", "viewer"}
    for role, (link, decoded) in codes.items():
        assert decoded == link, role  # the picture is the link shown under it
        assert urlsplit(link).path.startswith("/join/")
        assert urlsplit(link).query == f"next=/games/{game_id}"
    with app.app_context():
        league = db.session.get(League, league_id)
        assert league is not None and league.scorer_token_hash and league.viewer_token_hash


def test_a_second_tap_never_replaces_a_link_already_scanned(
        app: Flask, client: FlaskClient, join: Callable[..., None]) -> None:
    league_id, game_id = new_game(app)
    join(client, league_id, "owner")
    before = owner_with_codes(app, client, game_id)
    with app.app_context():
        stored = db.session.get(League, league_id).scorer_token_hash  # type: ignore[union-attr]
    again = client.post(f"/leagues/{league_id}/phones/scorer",
                        data={"next": f"/games/{game_id}/phones"})
    assert again.status_code == 302 and again.headers["Location"].endswith("#scorer-code")
    with app.app_context():
        assert db.session.get(League, league_id).scorer_token_hash == stored  # type: ignore[union-attr]
    assert codes_on(client.get(f"/games/{game_id}/phones").get_data(as_text=True)) == before


def test_a_scanned_code_joins_and_lands_in_the_game(
        app: Flask, client: FlaskClient, join: Callable[..., None]) -> None:
    league_id, game_id = new_game(app)
    join(client, league_id, "owner")
    codes = owner_with_codes(app, client, game_id)
    for role in ("scorer", "viewer"):
        phone = app.test_client()
        link = path_of(codes[role][1] or "")
        landing = phone.get(link)  # the token kept in the session, and out of the URL
        assert landing.status_code == 303 and landing.headers["Location"] == "/join", role
        assert phone.get("/join").status_code == 200, role
        joined = phone.post(link, data={})
        assert joined.status_code == 302
        assert joined.headers["Location"] == f"/games/{game_id}", role
        board = phone.get(f"/games/{game_id}")
        assert board.status_code == 200
        can_record = "Record hand 1" in board.get_data(as_text=True)
        assert can_record == (role == "scorer")
        # scanning again: already in, one tap to the game
        again = phone.get(link, follow_redirects=True).get_data(as_text=True)
        assert "already in the league" in again and f'href="/games/{game_id}"' in again


def test_a_scorer_shows_the_viewer_code_and_a_viewer_none(
        app: Flask, client: FlaskClient, join: Callable[..., None]) -> None:
    league_id, game_id = new_game(app)
    scorer = app.test_client()
    join(scorer, league_id, "scorer")
    page = scorer.get(f"/games/{game_id}/phones").get_data(as_text=True)
    assert 'id="scorer-code"' not in page
    assert "has no viewer link open" in page  # only the owner opens a door
    join(client, league_id, "owner")
    owner_with_codes(app, client, game_id)

    codes = codes_on(scorer.get(f"/games/{game_id}/phones").get_data(as_text=True))
    assert set(codes) == {"viewer"}
    link, decoded = codes["viewer"]
    assert decoded == link
    token = urlsplit(link).path.rsplit("/", 1)[1]
    assert "." in token  # a door token: the scorer never saw the link's secret
    phone = app.test_client()
    assert phone.post(path_of(link), data={}).headers["Location"] == f"/games/{game_id}"
    assert phone.get(f"/games/{game_id}").status_code == 200
    assert phone.post(f"/games/{game_id}/abandon", data={}).status_code == 403  # a viewer

    viewer = app.test_client()
    join(viewer, league_id, "viewer")
    assert viewer.get(f"/games/{game_id}/phones").status_code == 403
    assert viewer.get("/league/phones").status_code == 403
    assert "Add a phone" not in viewer.get(f"/games/{game_id}").get_data(as_text=True)
    assert app.test_client().get(f"/games/{game_id}/phones").status_code == 404


def test_codes_follow_their_links_stop_and_replace_rules(
        app: Flask, client: FlaskClient, join: Callable[..., None]) -> None:
    """A code works while its link works; stopping or replacing the link stops the code
    and signs out the phones that came in with it, as for the link itself."""
    league_id, game_id = new_game(app)
    join(client, league_id, "owner")
    owner_with_codes(app, client, game_id)
    other_device = app.test_client()  # the owner on another device: codes, not tokens
    join(other_device, league_id, "owner")
    codes = codes_on(other_device.get(f"/games/{game_id}/phones").get_data(as_text=True))
    viewer_link, scorer_link = path_of(codes["viewer"][0]), path_of(codes["scorer"][0])
    assert "." in viewer_link.split("/join/")[1]

    phone = app.test_client()
    phone.post(scorer_link, data={})
    assert phone.get(f"/games/{game_id}").status_code == 200
    assert client.post(f"/leagues/{league_id}/links/scorer/revoke", data={}).status_code == 302
    assert phone.get(f"/games/{game_id}").status_code == 404  # signed out with the link
    stopped = app.test_client().get(scorer_link)
    assert stopped.status_code == 404 and "does not work" in stopped.get_data(as_text=True)

    watcher = app.test_client()
    watcher.post(viewer_link, data={})
    assert watcher.get(f"/games/{game_id}").status_code == 200
    assert client.post(f"/leagues/{league_id}/links/viewer", data={}).status_code == 302
    assert watcher.get(f"/games/{game_id}").status_code == 404
    assert app.test_client().get(viewer_link).status_code == 404
    fresh = codes_on(other_device.get(f"/games/{game_id}/phones").get_data(as_text=True))
    assert path_of(fresh["viewer"][0]) != viewer_link
    assert app.test_client().get(path_of(fresh["viewer"][0]),
                                 follow_redirects=True).status_code == 200


def test_forged_door_tokens_open_nothing(app: Flask, client: FlaskClient,
                                         join: Callable[..., None]) -> None:
    league_id, game_id = new_game(app)
    join(client, league_id, "owner")
    owner_with_codes(app, client, game_id)
    other = app.test_client()
    for token in (f"{league_id}.{'A' * 43}", f"{league_id + 1}.{'A' * 43}", "x." + "A" * 43,
                  f"{league_id}." + "A" * 90, "9" * 30 + ".AAAA"):
        assert other.get(f"/join/{token}").status_code == 404, token
        assert other.post(f"/join/{token}", data={}).status_code == 404, token


def test_links_use_the_public_address(make_app: Callable[..., Flask]) -> None:
    app = make_app(PUBLIC_URL="http://192.168.1.23:5000")
    league_id, game_id = new_game(app)
    client = app.test_client()
    join_league(app, client, league_id, "owner")
    codes = owner_with_codes(app, client, game_id)
    assert codes["scorer"][0].startswith("http://192.168.1.23:5000/join/")
    page = client.get(f"/games/{game_id}/phones").get_data(as_text=True)
    assert "a phone cannot open them" not in page
    settings = client.get(f"/leagues/{league_id}/settings").get_data(as_text=True)
    assert 'value="http://192.168.1.23:5000/join/' in settings


def test_links_naming_this_computer_are_flagged(app: Flask, client: FlaskClient,
                                                join: Callable[..., None]) -> None:
    league_id, game_id = new_game(app)
    join(client, league_id, "owner")
    owner_with_codes(app, client, game_id)
    page = client.get(f"/games/{game_id}/phones")  # the test client is http://localhost
    assert "a phone cannot open them" in page.get_data(as_text=True)


def test_the_league_page_adds_a_phone_too(app: Flask, client: FlaskClient,
                                          join: Callable[..., None]) -> None:
    league_id, _game_id = new_game(app)
    join(client, league_id, "owner")
    standings = client.get("/league/").get_data(as_text=True)
    assert 'href="/league/phones"' in standings
    client.post(f"/leagues/{league_id}/phones/viewer", data={"next": "/league/phones"})
    codes = codes_on(client.get("/league/phones").get_data(as_text=True))
    link, decoded = codes["viewer"]
    assert decoded == link and "next=" not in link  # lands on the league's standings
    phone = app.test_client()
    assert phone.post(path_of(link), data={}).headers["Location"] == "/league/"


def test_the_qr_code_is_big_and_has_its_quiet_zone(app: Flask, client: FlaskClient,
                                                   join: Callable[..., None]) -> None:
    league_id, game_id = new_game(app)
    join(client, league_id, "owner")
    link = owner_with_codes(app, client, game_id)["scorer"][0]
    page = client.get(f"/games/{game_id}/phones").get_data(as_text=True)
    svg = re.search(r'<section[^>]*id="scorer-code".*?(<svg.*?</svg>)', page, re.S).group(1)  # type: ignore[union-attr]
    modules = svg_modules(svg)
    code = segno.make(link, error="m", micro=False)
    assert len(modules) == code.symbol_size(border=4)[0]  # four light modules each side
    assert not any(modules[0]) and not any(modules[3]) and not any(r[0] for r in modules)
    assert 'role="img"' in svg and "<title>" in svg
    css = Path(app.static_folder or "", "css", "phones.css").read_text()
    width = re.search(r"\.qr-code \{[^}]*width: ([\d.]+)rem", css)
    assert width and float(width.group(1)) * 16 >= 240


# --- play again ------------------------------------------------------------


def test_play_again_keeps_players_seats_and_rules_and_passes_the_deal(
        app: Flask, client: FlaskClient, join: Callable[..., None]) -> None:
    league_id, game_id = finished_game(app, dealer=1, target=500, rummy_call="top")
    join(client, league_id, "scorer")
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/rematch"' in board and "Play again" in board
    page = client.get(f"/games/{game_id}/rematch").get_data(as_text=True)
    # hands were dealt by Ben, Cy, Ann: Ben deals the next one
    assert "Ben deals the first hand" in page
    started = client.post(f"/games/{game_id}/rematch", data={})
    assert started.status_code == 302
    new_id = int(started.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        old, new = db.session.get(Game, game_id), db.session.get(Game, new_id)
        assert old is not None and new is not None
        assert [s.player_id for s in new.seats] == [s.player_id for s in old.seats]
        assert new.rules_json == old.rules_json and new.target == old.target
        assert new.first_dealer == 1 and new.league_id == league_id
        assert new.status == "in-progress" and new.rematch_of_id == game_id
        assert [c.action for c in history.changes(old)][0] == history.GAME_REMATCH
    assert "Ben deals" in page_of(client.get(f"/games/{new_id}"))
    # the finished game now points at it, and a second tap goes there, starting nothing
    assert f"Next game: Game {new_id}" in client.get(f"/games/{game_id}").get_data(as_text=True)
    again = client.post(f"/games/{game_id}/rematch", data={})
    assert again.headers["Location"] == f"/games/{new_id}"
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == 2


def test_two_phones_playing_again_at_once_start_one_game(
        app: Flask, client: FlaskClient, join: Callable[..., None],
        monkeypatch: pytest.MonkeyPatch) -> None:
    league_id, game_id = finished_game(app)
    join(client, league_id, "scorer")
    with app.test_request_context():  # the other phone's rematch, committed first
        other = games.rematch(db.session.get(Game, game_id))  # type: ignore[arg-type]
        db.session.commit()
        other_id = other.id
    from scorebook.web.games import views

    real = views.rematch_of
    calls: list[int] = []

    def not_yet(game: Game) -> int | None:  # this phone read before the other committed
        calls.append(1)
        return None if len(calls) == 1 else real(game)

    monkeypatch.setattr(views, "rematch_of", not_yet)
    answer = client.post(f"/games/{game_id}/rematch", data={})
    assert answer.status_code == 302 and answer.headers["Location"] == f"/games/{other_id}"
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == 2


def test_only_a_finished_game_is_played_again(app: Flask, client: FlaskClient,
                                              join: Callable[..., None]) -> None:
    league_id, game_id = new_game(app)
    join(client, league_id, "scorer")
    assert "Play again" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    refused = client.post(f"/games/{game_id}/rematch", data={})
    assert refused.status_code == 302 and refused.headers["Location"] == f"/games/{game_id}"
    viewer = app.test_client()
    join(viewer, league_id, "viewer")
    assert viewer.get(f"/games/{game_id}/rematch").status_code == 403


# --- sharing the result ------------------------------------------------------------


@pytest.mark.parametrize("lang, text", [
    ("en", "Ann wins 660 – Ben 12 – Cy \u221218, 3 hands"),
    ("es", "Ann gana 660 – Ben 12 – Cy \u221218, 3 manos"),
    ("it", "Vince Ann con 660 – Ben 12 – Cy \u221218, 3 mani"),
])
def test_a_finished_game_shares_its_result(app: Flask, client: FlaskClient,
                                           join: Callable[..., None], lang: str,
                                           text: str) -> None:
    league_id, game_id = finished_game(app)
    join(client, league_id, "viewer")  # anyone who sees the game may share it
    page = client.get(f"/games/{game_id}?lang={lang}").get_data(as_text=True)
    # no link yet: the button opens the page that makes one (tests/web/test_shared_results.py)
    assert f'href="/games/{game_id}/share"' in page and "data-share-url" not in page
    assert client.post(f"/games/{game_id}/share").status_code == 302
    page = client.get(f"/games/{game_id}?lang={lang}").get_data(as_text=True)
    assert f'data-share-text="{text}"' in page
    link = re.search(r'data-share-url="(http://localhost/results/[\w-]+)"', page)
    assert link, "the shared result's link, which opens outside the league"
    # without JavaScript: the text to copy, and links that send it
    assert f"{text}\n{link.group(1)}</textarea>" in page
    first_word = quote(text.split()[0])
    assert f'href="sms:?&amp;body={first_word}%20' in page and 'href="mailto:?subject=' in page


def test_an_unfinished_game_has_nothing_to_share(app: Flask, client: FlaskClient,
                                                 join: Callable[..., None]) -> None:
    league_id, game_id = new_game(app)
    play_hand(app, game_id)
    join(client, league_id, "owner")
    assert "data-share" not in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_the_standings_share_their_order(app: Flask, client: FlaskClient,
                                         join: Callable[..., None]) -> None:
    league_id, _game = finished_game(app)
    join(client, league_id, "viewer")
    page = client.get("/league/?season=all").get_data(as_text=True)
    text = re.search(r'data-share-text="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert text.startswith("Family Q, all time: 1. Ann (1 win) · 2.")
    assert "(0 wins)" in text
    assert 'data-share-url="http://localhost/league/?season=all"' in page


# --- the app on the phone ------------------------------------------------------------


def test_the_manifest_makes_an_installable_app(client: FlaskClient) -> None:
    answer = client.get("/manifest.webmanifest?lang=es")
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    manifest = json.loads(answer.get_data(as_text=True))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["lang"] == "es" and manifest["name"] and manifest["short_name"]
    assert manifest["theme_color"] and manifest["background_color"]
    icons = {(i["sizes"], i["type"], i["purpose"]) for i in manifest["icons"]}
    for size in ("192x192", "512x512"):
        assert (size, "image/png", "any") in icons and (size, "image/png", "maskable") in icons
    assert ("any", "image/svg+xml", "any") in icons
    assert ("any", "image/svg+xml", "maskable") in icons
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200, icon["src"]
        if icon["type"] == "image/png":
            width = int.from_bytes(image.data[16:20], "big")
            height = int.from_bytes(image.data[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"]


def test_every_page_links_the_manifest_icons_and_theme(client: FlaskClient) -> None:
    page = client.get("/rules/?lang=it").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=it">' in page
    assert '<meta name="theme-color"' in page
    # static files by their versioned URLs (scorebook/assets.py)
    assert 'rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png?v=' in page
    assert 'rel="icon" href="/favicon.ico"' in page
    assert 'src="/static/js/offline.js?v=' in page and 'data-sw="/sw.js"' in page
    favicon = client.get("/favicon.ico")
    assert favicon.status_code == 200 and favicon.data[:4] == b"\0\0\1\0"
    assert client.get("/apple-touch-icon.png").status_code == 200


def test_the_service_worker_knows_this_versions_files(client: FlaskClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    first, _, source = answer.get_data(as_text=True).partition("\n")
    config = json.loads(first.removeprefix("self.SCOREBOOK = ").rstrip(";"))
    kept = {url.partition("?")[0] for url in config["static"]}
    assert "/static/css/site.css" in kept and config["stylesheet"] in config["static"]
    assert "/static/css/app.css" not in kept  # the bundle holds it (scorebook/assets.py)
    assert "/static/js/offline.js" in kept
    assert "/static/js/service-worker.js" not in kept
    assert set(config["pages"]) >= {"/rules/", "/rules/pagat-500", "/rules/basic"}
    assert config["offline"] == "/offline" and len(config["version"]) == 16
    assert "SEAM: writes made while offline" in source and "function sendWrite" in source
    for url in config["static"] + config["pages"] + [config["offline"]]:
        assert client.get(url).status_code == 200, url
    # CSP still applies to the worker's own answers and to the pages it keeps
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]


def test_the_offline_page(client: FlaskClient) -> None:
    page = client.get("/offline?lang=es")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "data-kept-pages" in text and "data-offline-banner" in text
    assert "sin conexión" in text.lower()


def test_the_add_a_phone_page_in_every_language(app: Flask, client: FlaskClient,
                                                join: Callable[..., None]) -> None:
    league_id, game_id = new_game(app)
    join(client, league_id, "owner")
    owner_with_codes(app, client, game_id)
    for lang, words in (("es", "Añadir un móvil"), ("it", "Aggiungi un telefono")):
        page = client.get(f"/games/{game_id}/phones?lang={lang}").get_data(as_text=True)
        assert words in page, lang


def test_invites_need_no_storage(app: Flask) -> None:
    """A door token is made from what is stored; the token itself is never stored."""
    league_id, _game = new_game(app)
    with app.test_request_context():
        league = db.session.get(League, league_id)
        assert league is not None
        from scorebook.services import invites

        assert invites.door_token(league, "scorer") is None  # no link: no code
        invites.open_door(league, "scorer")
        db.session.commit()
        token = invites.door_token(league, "scorer")
        assert token and invites.opened_by(token) == (league, "scorer")
        stored = [str(v) for v in vars(league).values()]
        assert not any(token in v or token.split(".")[1] in v for v in stored)
        assert access.token_hash(token) not in stored
