"""Numbers, percentages, dates and times as each language writes them (Babel): Spanish
and Italian group thousands with a dot (2.000), Spanish writes 50 %, dates go day before
month and times on a 24-hour clock — on the pages and in the charts' labels, not only in
the text around them."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.reading import page


@pytest.mark.parametrize(("lang", "half", "tiny"), [
    ("en", "50%", "3%"), ("es", "50\u00a0%", "3\u00a0%"), ("it", "50%", "3%")])
def test_percentages(app: Flask, lang: str, half: str, tiny: str) -> None:
    with app.test_request_context(f"/?lang={lang}"):
        render = app.jinja_env.from_string("{{ v|percent }}").render
        assert render(v=0.5) == half and render(v=0.03) == tiny
        assert render(v=None) == "–"


@pytest.mark.parametrize(("lang", "when"), [
    ("en", "5:05 PM"), ("es", "17:05"), ("it", "17:05")])
def test_times_on_the_languages_clock_and_days_before_months(app: Flask, lang: str,
                                                              when: str) -> None:
    with app.test_request_context(f"/?lang={lang}"):
        render = app.jinja_env.from_string("{{ v|moment('short') }} · {{ d|day }}").render
        text = render(v=datetime(2026, 11, 29, 17, 5, tzinfo=UTC), d=date(2026, 11, 29))
    assert when in text.replace("\u202f", " ")
    if lang != "en":
        assert re.search(r"29 nov\w*\.? 2026", text), text


@pytest.mark.parametrize(("lang", "target", "not_shown"), [
    ("it", "2.000", "2000"), ("es", "2.000", "2000"), ("en", "2,000", "2000")])
def test_the_score_charts_numbers_follow_the_language(
        client: FlaskClient, lang: str, target: str, not_shown: str) -> None:
    players = {"players-0": "Ana", "players-1": "Beppe"}
    response = client.post("/games/new", data={**players, "family": "pagat-500",
                                                "first_dealer": "0", "min_natural_cards": "1",
                                                "target": "2000"})
    assert response.status_code == 302
    game = response.headers["Location"]
    client.post(f"{game}/hands/new", data={"number": "1", "outcome": "p1", "points_only": "1",
                                            "players-0-points": "-15", "players-1-points": "30"})
    html = page(client.get(f"{game}?lang={lang}"))
    chart = html[html.index('<svg class="chart"'):html.index("</svg>")]
    labels = re.findall(r"<text[^>]*>([^<]*)</text>", chart)
    desc = re.search(r"<desc[^>]*>([^<]*)</desc>", chart)
    assert desc and target in desc.group(1), desc
    assert any(target in label for label in labels), labels  # the target's line
    assert not any(not_shown in label for label in labels), labels
    assert "Ana \u221215" in desc.group(1)  # a real minus


def test_the_statistics_percentages_follow_the_language(client: FlaskClient) -> None:
    players = {"players-0": "Ana", "players-1": "Beppe"}
    game = client.post("/games/new", data={**players, "family": "pagat-500",
                                           "first_dealer": "0", "min_natural_cards": "1",
                                           "target": "20"}).headers["Location"]
    assert client.post(f"{game}/hands/new", data={
        "number": "1", "outcome": "p0", "players-0-melds": "7s 8s 9s\nkh kd kc",
        "players-1-hand": "2c 3d 4h 5s 6c 7d 8h",
        "missing_ok": ["Ana", "Beppe"]}).status_code == 302  # (RULES.md §10: asked, ticked)
    standings = page(client.get("/league/?lang=es"))
    assert "100\u00a0%" in standings  # the win rate, as Spanish writes it
    assert "100\u00a0%" not in page(client.get("/league/?lang=it"))
