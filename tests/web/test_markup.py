"""Every page's markup, as a screen reader and a form rely on it: each id is used
once (a label or aria-describedby finds the one element meant), no attribute
prints Python's ``None``, and every form field has a label."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from flask.testing import FlaskClient

from tests.web.test_scorebook_pages import EXAMPLE_FORM, start

PAGES = [
    "/", "/games/new", "/games/1", "/games/1/hands/new", "/games/1/hands/1",
    "/games/1/hands/1/edit", "/games/1/hands/live", "/games/1/history",
    "/referee/", "/referee/meld?cards=7s+8s+9s", "/referee/layoff?table=A%3A+5h+6h+7h&card=8h",
    "/referee/draw", "/referee/rummy-call", "/referee/going-out", "/referee/meld?game=1",
    "/rules/", "/rules/pagat-500", "/rules/basic",
    "/league/", "/league/players", "/league/history", "/league/seasons", "/league/export",
    "/league/players/1", "/league/records", "/league/head-to-head",
    "/league/head-to-head?a=1&b=2",
    "/leagues", "/leagues/new", "/leagues/login", "settings",
]


@pytest.fixture
def played(client: FlaskClient) -> FlaskClient:
    start(client)
    response = client.post("/games/1/hands/new", data={"number": "1", **EXAMPLE_FORM})
    assert response.status_code == 302
    return client


@pytest.mark.parametrize("path", PAGES)
def test_ids_are_unique_and_no_attribute_says_none(played: FlaskClient, path: str) -> None:
    if path == "settings":  # the league's settings, which its owner (this client) sees
        leagues = played.get("/leagues").get_data(as_text=True)
        path = re.search(r'href="(/leagues/\d+/settings)"', leagues).group(1)  # type: ignore[union-attr]
    response = played.get(path)
    assert response.status_code == 200, path
    html = response.get_data(as_text=True)
    ids = Counter(re.findall(r'\sid="([^"]+)"', html))
    assert [i for i, n in ids.items() if n > 1] == [], f"{path}: an id used twice"
    assert not re.search(r'="None"', html), f"{path}: an attribute printed as None"
    labelled = set(re.findall(r'<label[^>]*\sfor="([^"]+)"', html))
    for tag, attrs in re.findall(r"<(input|select|textarea)\b([^>]*)>", html):
        kind = re.search(r'type="(\w+)"', attrs)
        if kind and kind.group(1) in ("hidden", "submit", "button") or re.search(
                r"\shidden(\s|$)", attrs):  # (a username kept for password managers)
            continue
        field_id = re.search(r'\sid="([^"]+)"', attrs)
        named = re.search(r"aria-label(ledby)?=", attrs)
        assert named or (field_id and field_id.group(1) in labelled) or _wrapped(html, attrs), \
            f"{path}: a {tag} without a label: <{tag}{attrs[:120]}>"


def _wrapped(html: str, attrs: str) -> bool:
    """Is the field inside its <label> (``<label><input …> text</label>``)?"""
    at = html.find(attrs)
    opened, closed = html.rfind("<label", 0, at), html.rfind("</label>", 0, at)
    return opened > closed
