"""Compressed responses (scorebook/compression.py): brotli or gzip as the browser
accepts, the response as it is otherwise; never for images that are compressed already
or for partial and tiny answers; the live poll's ETag and 304 unchanged."""

from __future__ import annotations

import gzip
import json
import re

import brotli
import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.compression import negotiate

BROWSER = "gzip, deflate, br, zstd"  # what Chromium sends

HAND = {
    "number": "1",
    "players-0-melds": "7s 8s 9s", "players-0-hand": "kd",
    "players-1-melds": "4c 4s 4d\n10h jh qh",
    "outcome": "p1",
    "missing_ok": ["Ann", "Ben"],  # 13 were dealt each (RULES.md §10): nobody remembers
}


def start(client: FlaskClient) -> int:
    response = client.post("/games/new", data={
        "players-0": "Ann", "players-1": "Ben", "family": "rummy-500", "first_dealer": "0",
        "min_natural_cards": "1"})
    assert response.status_code == 302, response.get_data(as_text=True)
    game = int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    assert client.post(f"/games/{game}/hands/new", data=HAND).status_code == 302
    client.get(f"/games/{game}")  # shows (and so drops) the "Hand 1 saved." message
    return game


#: A form's CSRF token is signed with the time of the request: two views of the same
#: page a second apart carry different ones (on a busy machine the two requests of a
#: test can straddle a second).
SIGNED = re.compile(rb'value="[\w-]+\.[\w-]+\.[\w-]+"')


def without_tokens(page: bytes) -> bytes:
    return SIGNED.sub(b'value="(token)"', page)


def decoded(response) -> bytes:  # type: ignore[no-untyped-def]
    body = response.get_data()
    encoding = response.headers.get("Content-Encoding")
    if encoding == "br":
        return bytes(brotli.decompress(body))
    if encoding == "gzip":
        return gzip.decompress(body)
    assert encoding is None, encoding
    return body


@pytest.mark.parametrize(("accept", "chosen"), [
    ("gzip, deflate, br, zstd", "br"),
    ("br", "br"),
    ("gzip", "gzip"),
    ("gzip, deflate", "gzip"),
    ("br;q=0.5, gzip", "gzip"),
    ("br;q=0, gzip;q=0.1", "gzip"),
    ("*", "br"),
    ("*;q=0.2, br;q=0", "gzip"),
    ("GZIP", "gzip"),
    ("", None),
    ("identity", None),
    ("deflate, zstd", None),
    ("br;q=0, gzip;q=0", None),
    ("gzip;q=0.3, identity;q=0.9", None),
    ("*;q=0", None),
    ("br;q=nonsense", None),
    (" , ;;, br ; q=1.0 ", "br"),
])
def test_negotiation_follows_accept_encoding(accept: str, chosen: str | None) -> None:
    assert negotiate(accept) == chosen


@pytest.mark.parametrize("accept", [
    "gzip, deflate, br, zstd", "gzip", "br;q=0.5, gzip", "identity", "", "deflate",
    "br;q=0, gzip;q=0", "*", "gzip;q=0.3, identity;q=0.9"])
def test_pages_come_in_the_negotiated_encoding(client: FlaskClient, accept: str) -> None:
    game = start(client)
    plain = client.get(f"/games/{game}")
    assert "Content-Encoding" not in plain.headers
    response = client.get(f"/games/{game}", headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert response.headers.get("Content-Encoding") == negotiate(accept)
    assert "Accept-Encoding" in response.headers["Vary"]
    assert response.content_length == len(response.get_data())
    assert without_tokens(decoded(response)) == without_tokens(plain.get_data())


def test_the_scoreboard_shrinks(client: FlaskClient) -> None:
    game = start(client)
    plain = client.get(f"/games/{game}").get_data()
    small = client.get(f"/games/{game}", headers={"Accept-Encoding": "br"}).get_data()
    assert len(small) * 2.5 < len(plain)


@pytest.mark.parametrize(("path", "mimetype"), [
    ("/api/v1/openapi.json", "application/json"),
    ("/manifest.webmanifest", "application/manifest+json"),
    ("/sw.js", "text/javascript"),
    ("/static/css/app.css", "text/css"),
    ("/static/js/record-hand.js", "text/javascript"),
    ("/static/icons/icon.svg", "image/svg+xml"),
])
def test_text_of_every_kind_is_compressed(client: FlaskClient, path: str, mimetype: str) -> None:
    plain = client.get(path)
    assert plain.status_code == 200 and plain.mimetype == mimetype
    for accept, encoding in (("gzip, br", "br"), ("gzip", "gzip")):
        response = client.get(path, headers={"Accept-Encoding": accept})
        assert response.headers["Content-Encoding"] == encoding, path
        assert "Accept-Encoding" in response.headers["Vary"]
        assert without_tokens(decoded(response)) == without_tokens(plain.get_data())
        assert len(response.get_data()) < len(plain.get_data())


@pytest.mark.parametrize("path", [
    "/static/icons/icon-512.png", "/static/icons/apple-touch-icon.png", "/favicon.ico",
    "/apple-touch-icon.png"])
def test_images_compressed_already_are_sent_as_they_are(client: FlaskClient, path: str) -> None:
    plain = client.get(path)
    response = client.get(path, headers={"Accept-Encoding": BROWSER})
    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers
    assert response.get_data() == plain.get_data()


def test_a_range_of_a_static_file_is_never_compressed(client: FlaskClient) -> None:
    whole = client.get("/static/css/app.css").get_data()
    part = client.get("/static/css/app.css",
                      headers={"Accept-Encoding": BROWSER, "Range": "bytes=0-99"})
    assert part.status_code == 206
    assert "Content-Encoding" not in part.headers
    assert part.get_data() == whole[:100]


def test_a_compressed_static_file_revalidates_with_304(client: FlaskClient) -> None:
    first = client.get("/static/js/live.js", headers={"Accept-Encoding": "br"})
    etag = first.headers["ETag"]
    assert etag.endswith(':br"')
    again = client.get("/static/js/live.js",
                       headers={"Accept-Encoding": "br", "If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    # the copy kept in memory is the same bytes
    third = client.get("/static/js/live.js", headers={"Accept-Encoding": "br"})
    assert third.get_data() == first.get_data()
    # an identity copy's ETag is another one
    plain = client.get("/static/js/live.js")
    assert plain.headers["ETag"] != etag and "Content-Encoding" not in plain.headers


def test_the_live_poll_keeps_its_etag_and_304(client: FlaskClient) -> None:
    game = start(client)
    headers = {"Accept-Encoding": BROWSER}
    first = client.get(f"/games/{game}/version", headers=headers)
    assert first.status_code == 200
    # a few bytes of JSON: not worth compressing, so the ETag is the version itself
    assert "Content-Encoding" not in first.headers
    version = first.json["version"]
    assert first.headers["ETag"] == f'"{version}"'
    again = client.get(f"/games/{game}/version",
                       headers={**headers, "If-None-Match": f'"{version}"'})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["Cache-Control"] == "no-cache"
    assert client.post(f"/games/{game}/hands/1/delete", data={"version": "1"}).status_code == 302
    changed = client.get(f"/games/{game}/version",
                         headers={**headers, "If-None-Match": f'"{version}"'})
    assert changed.status_code == 200 and changed.json["version"] != version


def test_a_large_version_answer_would_still_revalidate(make_app) -> None:  # type: ignore[no-untyped-def]
    """With compression of even the smallest answers, a compressed poll's ETag names its
    encoding, and the plain version (what live.js sends) still gets its 304."""
    app: Flask = make_app(COMPRESS_MIN_SIZE=0)
    client = app.test_client()
    game = start(client)
    first = client.get(f"/games/{game}/version", headers={"Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip"
    version = json.loads(decoded(first))["version"]
    assert first.headers["ETag"] == f'"{version}:gzip"'
    for tag in (f'"{version}"', f'"{version}:gzip"'):
        again = client.get(f"/games/{game}/version",
                           headers={"Accept-Encoding": "gzip", "If-None-Match": tag})
        assert again.status_code == 304, tag
