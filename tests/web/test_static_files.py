"""Static files (scorebook/assets.py): versioned URLs cached for good, everything else
checked every time; one stylesheet holding every rule of static/css/; the service
worker keeping exactly the versioned URLs the pages use."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook import assets

IMMUTABLE = "public, max-age=31536000, immutable"
STATIC = Path(__file__).resolve().parents[2] / "static"
#: Pages of every part of the site, as a browser that owns a game sees them.
PAGES = ["/", "/games/new", "/games/{game}", "/games/{game}/hands/new", "/games/{game}/hands/1",
         "/games/{game}/history", "/games/{game}/phones", "/league/", "/league/history",
         "/league/players", "/league/seasons", "/league/export", "/leagues", "/leagues/new",
         "/leagues/login", "/referee/", "/referee/meld?cards=7s+8s+9s", "/referee/layoff",
         "/rules/", "/rules/rummy-500", "/offline", "/no-such-page"]


def start(client: FlaskClient) -> int:
    response = client.post("/games/new", data={
        "players-0": "Ann", "players-1": "Ben", "family": "rummy-500", "first_dealer": "0",
        "min_natural_cards": "1"})
    assert response.status_code == 302, response.get_data(as_text=True)
    game = int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    hand = {"number": "1", "players-0-melds": "7s 8s 9s", "players-0-hand": "kd",
            "players-1-melds": "4c 4s 4d\n10h jh qh", "outcome": "p1",
            "missing_ok": ["Ann", "Ben"]}  # 13 were dealt each: nobody remembers the rest
    assert client.post(f"/games/{game}/hands/new", data=hand).status_code == 302
    return game


def static_links(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


# --- versioned URLs and caching -------------------------------------------------------------


def test_every_page_links_one_stylesheet_and_versioned_files(client: FlaskClient) -> None:
    game = start(client)
    bundle = assets.snapshot(client.application).versions[assets.BUNDLE]
    for path in PAGES:
        page = client.get(path.format(game=game))
        assert page.status_code in (200, 404), path
        html = page.get_data(as_text=True)
        sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
        assert sheets == [f"/static/css/site.css?v={bundle}"], (path, sheets)
        links = static_links(html)
        assert links, path
        for url in links:
            name, _, query = url.removeprefix("/static/").replace("&amp;", "&").partition("?")
            assert query.startswith("v="), url
            version = query.removeprefix("v=")
            assert version == (bundle if name == assets.BUNDLE else sha(STATIC / name)), url


@pytest.mark.parametrize("name", ["css/site.css", "css/app.css", "js/live.js",
                                  "icons/icon.svg", "icons/icon-512.png"])
def test_a_versioned_url_is_cached_for_good(client: FlaskClient, name: str) -> None:
    version = assets.snapshot(client.application).versions[name]
    response = client.get(f"/static/{name}?v={version}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == IMMUTABLE
    # a revalidation (a browser that had it without the header) says the same
    again = client.get(f"/static/{name}?v={version}",
                       headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    assert again.headers["Cache-Control"] == IMMUTABLE


@pytest.mark.parametrize("query", ["", "?v=", "?v=000000000000", "?x=1"])
@pytest.mark.parametrize("name", ["css/site.css", "css/app.css", "js/live.js"])
def test_an_unversioned_or_stale_url_is_checked_every_time(client: FlaskClient, name: str,
                                                           query: str) -> None:
    """An old page asking for a file by an old version gets today's bytes, never to be
    kept under that URL; without a version, the same."""
    response = client.get(f"/static/{name}{query}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-cache"
    current = client.get(f"/static/{name}?v={assets.snapshot(client.application).versions[name]}")
    assert response.get_data() == current.get_data()


def test_a_missing_static_file_is_a_404_and_not_cached(client: FlaskClient) -> None:
    response = client.get("/static/css/nope.css?v=123456789abc")
    assert response.status_code == 404
    assert "immutable" not in response.headers.get("Cache-Control", "")


def test_the_manifest_and_the_worker_are_never_cached_for_good(client: FlaskClient) -> None:
    for path in ("/sw.js", "/manifest.webmanifest", "/sw.js?v=1", "/offline"):
        response = client.get(path)
        assert response.status_code == 200
        assert "immutable" not in response.headers.get("Cache-Control", ""), path
    assert client.get("/sw.js").headers["Cache-Control"] == "no-cache"
    assert client.get("/manifest.webmanifest").headers["Cache-Control"] == "no-cache"
    manifest = client.get("/manifest.webmanifest").get_json()
    for icon in manifest["icons"]:
        name, _, query = icon["src"].removeprefix("/static/").partition("?")
        assert query == f"v={sha(STATIC / name)}", icon


def test_static_answers_renew_no_cookie(app: Flask, client: FlaskClient) -> None:
    start(client)  # the browser has a session now
    version = assets.snapshot(app).versions[assets.BUNDLE]
    for url in (f"/static/css/site.css?v={version}", "/static/css/site.css"):
        assert "Set-Cookie" not in client.get(url).headers


# --- the one stylesheet ---------------------------------------------------------------------


def rules(css: str) -> list[str]:
    """Every rule of a stylesheet as ``[at-rule | ]selector { declarations }``, spaces
    normalised, comments dropped, in order."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found: list[str] = []
    context: list[str] = []  # the at-rules (and the rule) the parse is inside
    for match in re.finditer(r"([^{};]*)\{|\}", css):
        if match.group(0) == "}":
            if context:
                context.pop()
            continue
        head = " ".join(match.group(1).split())
        if head.startswith("@"):
            context.append(head)
            continue
        end = css.index("}", match.end())
        body = " ".join(css[match.end():end].split())
        found.append(" | ".join(context + [f"{head} {{ {body} }}"]))
        context.append(head)  # until its closing brace
    return found


def test_the_stylesheet_holds_every_rule_of_every_source_in_order(client: FlaskClient) -> None:
    version = assets.snapshot(client.application).versions[assets.BUNDLE]
    bundle = client.get(f"/static/css/site.css?v={version}")
    assert bundle.mimetype == "text/css"
    text = bundle.get_data(as_text=True)
    sources = sorted(p.relative_to(STATIC).as_posix() for p in (STATIC / "css").glob("*.css"))
    assert set(sources) == set(assets.STYLESHEETS), "say in assets.STYLESHEETS where it goes"
    expected: list[str] = []
    for name in assets.STYLESHEETS:
        source = (STATIC / name).read_text("utf-8")
        assert source.strip() in text, f"{name} is not in the bundle as it is"
        expected += rules(source)
    assert rules(text) == expected
    assert len(expected) > 250  # the parse found the rules
    # the layout first, each part of the site after the components it builds on
    order = [text.index(f"/* ---- {name} ---- */") for name in assets.STYLESHEETS]
    assert order == sorted(order)


def declarations(css: str) -> dict[tuple[str, str], dict[str, str]]:
    """(at-rule context, selector) → property → value, of one stylesheet."""
    found: dict[tuple[str, str], dict[str, str]] = {}
    for rule in rules(css):
        *context, last = rule.split(" | ")
        head, _, body = last.partition(" { ")
        for selector in head.split(","):
            key = (" | ".join(context), " ".join(selector.split()))
            for declaration in body.removesuffix(" }").split(";"):
                prop, _, value = declaration.partition(":")
                if prop.strip():
                    found.setdefault(key, {})[prop.strip()] = value.strip()
    return found


def test_no_two_stylesheets_give_one_selector_two_values() -> None:
    """All stylesheets apply to every page now: two files that style the same selector
    differently would make one page's look depend on the other's file (scope the rule
    to its own component instead)."""
    seen: dict[tuple[str, str, str], tuple[str, str]] = {}
    clashes = []
    for name in assets.STYLESHEETS:
        for (context, selector), props in declarations((STATIC / name).read_text()).items():
            for prop, value in props.items():
                other = seen.setdefault((context, selector, prop), (name, value))
                if other[0] != name and other[1] != value:
                    clashes.append(f"{selector} {{{prop}}}: {other} and {(name, value)}")
    assert not clashes, "\n".join(clashes)


def test_the_bundle_is_built_from_the_files_and_follows_them(tmp_path: Path) -> None:
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "app.css").write_text(".a { color: red; }\n")
    (tmp_path / "css" / "zeta.css").write_text(".z { color: blue; }\n")
    (tmp_path / "css" / "league.css").write_text(".l { color: green; }\n")
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "x.js").write_text("1;\n")
    first = assets.build_snapshot(tmp_path)
    text = first.bundle.decode()
    # the known files in their order, any other after them
    assert text.index(".a {") < text.index(".l {") < text.index(".z {")
    assert set(first.versions) == {"css/app.css", "css/zeta.css", "css/league.css",
                                   "js/x.js", assets.BUNDLE}
    (tmp_path / "css" / "league.css").write_text(".l { color: black; }\n")
    second = assets.build_snapshot(tmp_path)
    assert second.versions[assets.BUNDLE] != first.versions[assets.BUNDLE]
    assert second.versions["css/league.css"] != first.versions["css/league.css"]
    assert second.versions["js/x.js"] == first.versions["js/x.js"]
    assert second.digest != first.digest
    (tmp_path / "css" / "site.css").write_text("")
    with pytest.raises(RuntimeError):
        assets.build_snapshot(tmp_path)


def test_in_debug_a_changed_file_shows_at_once(tmp_path: Path) -> None:
    (tmp_path / "css").mkdir()
    sheet = tmp_path / "css" / "app.css"
    sheet.write_text(".a { color: red; }\n")
    app = Flask("debug-assets", static_folder=str(tmp_path))
    app.debug = True
    with app.app_context():
        before = assets.snapshot(app)
        sheet.write_text(".a { color: purple; }\n")
        after = assets.snapshot(app)
    assert b"purple" in after.bundle and before.versions != after.versions


# --- the service worker ---------------------------------------------------------------------


def worker_config(client: FlaskClient) -> dict[str, object]:
    first = client.get("/sw.js").get_data(as_text=True).partition("\n")[0]
    return json.loads(first.removeprefix("self.SCOREBOOK = ").rstrip(";"))  # type: ignore[no-any-return]


def test_the_worker_keeps_the_versioned_urls_the_pages_use(client: FlaskClient) -> None:
    game = start(client)
    config = worker_config(client)
    precache = config["static"]
    assert isinstance(precache, list)
    snapshot = assets.snapshot(client.application)
    assert config["version"] == snapshot.digest
    assert config["stylesheet"] == f"/static/css/site.css?v={snapshot.versions[assets.BUNDLE]}"
    for url in precache:
        name, _, query = url.removeprefix("/static/").partition("?")
        assert query == f"v={snapshot.versions[name]}", url
        answer = client.get(url)
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == IMMUTABLE
    used = set()
    for path in PAGES:
        used |= set(static_links(client.get(path.format(game=game)).get_data(as_text=True)))
    assert used <= set(precache), used - set(precache)
    # and nothing a page never asks for (the stylesheet's sources, the manifest's icons)
    names = {url.partition("?")[0] for url in precache}
    assert not {n for n in names if n.endswith(".css")} - {"/static/css/site.css"}
    assert "/static/icons/icon-512.png" not in names
