"""Rules and house rules by name in the page's language: a family reads "Runs" or
"Escaleras", never ``meld.run`` or ``low_ace_value``, which stay in links and anchors.
And the new-game form offers "Rummy!" calls as a house rule of Rummy 500, never of
Basic Rummy (`rummy.mode`)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.rulebook import OPTION_TEXTS, RULES_BY_ID
from scorebook.extensions import db
from scorebook.models import Game

RULE_ID = re.compile(r"\b(?:cards|values|meld|layoff|turn|draw|discard|rummy|out|basic|"
                     r"score|game)\.[a-z][a-z-]+\b")
OPTION_NAME = re.compile(r"\b(?:" + "|".join(n for n in OPTION_TEXTS if "_" in n) + r")\b")


def visible(html: str) -> str:
    """The words a person reads: no tags (nor their attributes), no scripts."""
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    return unescape(re.sub(r"\s+", " ", html))


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_referee_verdict_cites_rules_by_their_name(client: FlaskClient, lang: str) -> None:
    """`meld.run`: the cited rule is named in the page's language and links to its entry;
    the id shows only in the link."""
    page = client.get(f"/referee/meld?cards=7s+8s+9s&lang={lang}").get_data(as_text=True)
    words = visible(page)
    assert not RULE_ID.findall(words), RULE_ID.findall(words)
    assert 'href="/rules/pagat-500#meld.run"' in page
    with client.application.test_request_context(f"/?lang={lang}"):
        from flask_babel import gettext

        title = gettext(RULES_BY_ID["meld.run"].title)
    assert title in words


@pytest.mark.parametrize("lang", ["en", "es", "it"])
@pytest.mark.parametrize("family", ["pagat-500", "rummy-500", "basic"])
def test_rule_book_names_rules_and_house_rules_in_words(client: FlaskClient, lang: str,
                                                        family: str) -> None:
    """Every rule id stays an anchor (``#values.low-ace``) but is not printed; a house rule
    is named as the new-game form names it, its option name only in the anchor."""
    page = client.get(f"/rules/{family}?lang={lang}").get_data(as_text=True)
    words = visible(page)
    assert not RULE_ID.findall(words), RULE_ID.findall(words)
    assert not OPTION_NAME.findall(words), OPTION_NAME.findall(words)
    assert 'id="meld.run"' in page and 'href="#meld.run"' in page
    assert 'id="option-low_ace_value"' in page
    if lang == "en" and family != "basic":
        assert "Ace melded low" in words and "Calling “Rummy!”" in words
    if lang == "en" and family == "pagat-500":
        assert "usually: Whole pile" in words  # the option's value in words too


def test_rule_book_offers_rummy_calls_as_a_house_rule_of_rummy_500(client: FlaskClient
                                                                   ) -> None:
    """`rummy.call` `rummy.mode`: Rummy 500's rule book has the "Rummy!" rules (a house
    option there, off as usual); Basic Rummy's only says calls are not played."""
    rummy = visible(client.get("/rules/rummy-500").get_data(as_text=True))
    assert "Calling \"Rummy!\"" in rummy and "No calling on your own discard" in rummy
    basic = client.get("/rules/basic").get_data(as_text=True)
    assert 'id="rummy.call"' not in basic
    assert 'id="rummy.mode"' in basic


def test_new_game_offers_calls_for_rummy_500_and_never_for_basic(
        app: Flask, client: FlaskClient) -> None:
    """`rummy.mode`: the "Rummy!" house rule is offered for 500 Rum and Rummy 500 (the
    form's script hides it when Basic Rummy is chosen); a Rummy 500 game may play calls;
    Basic Rummy refuses them."""
    page = client.get("/games/new").get_data(as_text=True)
    field = re.search(r'<div class="field" data-families="([^"]*)">\s*<label for="rummy_call"',
                      page)
    assert field and field.group(1).split() == ["pagat-500", "rummy-500"]
    jokers = re.search(r'data-families="([^"]*)">\s*<label for="jokers"', page)
    assert jokers and "basic" not in jokers.group(1).split()
    one_meld = re.search(r'data-families="([^"]*)">\s*<input[^>]*name="one_meld_per_turn"',
                         page)
    assert one_meld and "basic" in one_meld.group(1).split()
    base = {"players-0": "Ann", "players-1": "Ben", "first_dealer": "0",
            "min_natural_cards": "1"}
    started = client.post("/games/new", data={**base, "family": "rummy-500",
                                               "rummy_call": "pile"})
    assert started.status_code == 302, started.get_data(as_text=True)
    with app.app_context():
        game = db.session.scalar(db.select(Game))
        assert game.rules.rummy_call == "pile"
    refused = client.post("/games/new", data={**base, "family": "basic", "rummy_call": "top"})
    assert refused.status_code == 400
    assert "Calling “Rummy!”" in unescape(refused.get_data(as_text=True))
    # a Rummy 500 game's "Rummy!" calls work with the referee under its rules
    scoreboard = client.get(started.headers["Location"]).get_data(as_text=True)
    assert "Whole pile" in unescape(scoreboard)
