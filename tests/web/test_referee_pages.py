"""The referee and rule-book pages: every tool answers through the page as the API
does, the rule book's examples included; bad input is a 400 shown in place."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from referee.rulebook import RULES_BY_ID


def ask(client, tool: str, status: int = 200, **args) -> str:
    response = client.get(f"/referee/{tool}?{urlencode(args)}")
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def test_index_lists_the_five_tools(client):
    page = client.get("/referee/").get_data(as_text=True)
    for slug in ("meld", "layoff", "draw", "rummy-call", "going-out"):
        assert f'href="/referee/{slug}"' in page


@pytest.mark.parametrize("slug", ["meld", "layoff", "draw", "rummy-call", "going-out"])
def test_empty_tool_shows_only_the_form(client, slug):
    page = ask(client, slug)
    assert "LEGAL" not in page
    assert 'name="family"' in page and "Ask the referee" in page


def test_meld_verdict_with_readings_and_rule_texts(client):
    page = ask(client, "meld", cards="9s jk jk", family="pagat-500", players=3)
    assert "LEGAL" in page and "NOT LEGAL" not in page
    assert page.count("<li>run:") == 3 and page.count("<li>set:") == 1
    assert 'href="/rules/pagat-500#meld.joker"' in page
    assert str(RULES_BY_ID["meld.joker"].title) in page


def test_meld_not_legal_in_basic(client):
    page = ask(client, "meld", cards="QH KH AH", family="basic", players=2)
    assert "NOT LEGAL" in page
    assert "#meld.ace" in page


def test_layoff_choice_story(client):
    """layoff.choice: the 9♥ fits the run and the nines; the player must say which."""
    table = "A (Ann): 5H 6H 7H 8H@Ben\nB (Ben): 9C 9S 9D"
    page = ask(client, "layoff", table=table, card="9h", players=4)
    assert "LEGAL" in page and "more than one meld" in page
    page = ask(client, "layoff", table="A (Ann): 5H 6H 7H 8H@Ben 9H@Cy\nB (Ben): 9C 9S 9D",
               card="10h", meld="B", players=4)
    assert "NOT LEGAL" in page


def test_draw_worked_example(client):
    page = ask(client, "draw", pile="6C 4S 7D 4H QS AD", hand="2C 4D 5C 8C JH KS KD", take=5,
               players=3)
    assert "LEGAL" in page and "NOT LEGAL" not in page
    assert "#draw.deep" in page


def test_rummy_call_example(client):
    page = ask(client, "rummy-call", pile="2D KC 5S QC 9H JC", discarder="Ann", caller="Ben",
               players=3)
    assert "LEGAL" in page and "take 5 cards" in page
    page = ask(client, "rummy-call", pile="3C 8D 9S", table="M (Ann): 4C 5C 6C",
               discarder="Ann", caller="Ann", players=3)
    assert "NOT LEGAL" in page and "#rummy.own-meld" in page


def test_going_out_with_house_rules(client):
    page = ask(client, "going-out", table="A: 5H 6H 7H", hand="8H 4H", discard="4H",
               unplayable_discard="on", players=3)
    assert "NOT LEGAL" in page and "#out.unplayable-discard" in page
    page = ask(client, "going-out", table="A: 5H 6H 7H", hand="8H 4H", discard="4H",
               players=3)
    assert "NOT LEGAL" not in page and "LEGAL" in page


def test_permalink_reopens_the_same_verdict(client):
    page = ask(client, "meld", cards="7s 8s 9s")
    start = page.index('id="permalink"')
    url = page[page.index('value="', start) + 7: page.index('"', page.index('value="', start) + 7)]
    assert "cards=7s+8s+9s" in url.replace("&amp;", "&")
    again = client.get(url.replace("&amp;", "&").replace("http://localhost", ""))
    assert again.status_code == 200 and "A legal run" in again.get_data(as_text=True)


@pytest.mark.parametrize("tool,args,text", [
    ("meld", {"cards": "7S 8Z"}, "8Z"),
    ("layoff", {"table": "A: 5H 6H 7H", "card": "8H", "meld": "Z"}, "Z"),
    # a line without "id:" is a meld of cards: a word in it is not a card
    ("layoff", {"table": "no colon here", "card": "8H"}, "“no” is not a card"),
    ("draw", {"pile": "6C 4S", "hand": "2C", "take": 5}, "take"),
    ("meld", {"cards": "7S 8S 9S", "family": "basic", "jokers": "on"}, "Basic"),
    ("meld", {"cards": "7S 8S 9S", "players": 12}, "players"),
    # sent from the form with its main field left empty: said, not a blank form again
    ("draw", {"pile": "", "hand": "7S 8S", "take": 1}, "The discard pile is empty"),
    ("layoff", {"table": "A: 5H 6H 7H", "card": ""}, "Enter the card first"),
    ("rummy-call", {"pile": "", "discarder": "", "caller": ""}, "Say who discarded last"),
])
def test_bad_input_is_400_in_place(client, tool, args, text):
    page = ask(client, tool, 400, **args)
    assert 'role="alert"' in page and text in page
    assert "Ask the referee" in page  # the form is still there to fix


def test_unknown_tool_is_404(client):
    assert client.get("/referee/poker").status_code == 404


def test_rule_book_has_every_rule_of_the_family_as_an_anchor(client):
    page = client.get("/rules/pagat-500").get_data(as_text=True)
    for rule_id, rule in RULES_BY_ID.items():
        if "pagat-500" in rule.families:
            assert f'id="{rule_id}"' in page
    assert 'id="draw.basic"' not in page
    basic = client.get("/rules/basic").get_data(as_text=True)
    assert 'id="draw.basic"' in basic and 'id="rummy.call"' not in basic
    assert client.get("/rules/").status_code == 200
    assert client.get("/rules/gin").status_code == 404


def test_asked_from_a_game_uses_its_rules_and_its_live_table(app, client, join):
    from referee import make_rules, parse_cards
    from scorebook.services.games import create_game, default_league
    from scorebook.services.hands import live_layoff, live_meld, start_live

    with app.app_context():
        game = create_game(default_league(), ["Ann", "Ben", "Cy"], 0,
                           make_rules("rummy-500", target=300))
        hand = start_live(game)
        live_meld(hand, "Ann", parse_cards("5H 6H 7H"))
        live_layoff(hand, "Ben", parse_cards("8H")[0], "Ann-1")
        game_id, league_id = game.id, game.league_id
    assert client.get(f"/referee/layoff?game={game_id}").status_code == 404  # not a member
    join(client, league_id, "viewer")
    page = ask(client, "layoff", game=game_id)
    assert "This game&#39;s rules" in page or "This game's rules" in page
    # (with the suits' symbols, which read alike in every language's letters)
    assert "Ann-1 (Ann): 5♥ 6♥ 7♥ 8♥@Ben" in page
    assert 'name="family"' not in page  # the game's rules, not a choice
    # in Spanish too: the table's text, asked in Spanish, reads as the same table
    asked = client.get(f"/referee/layoff?game={game_id}&lang=es&notation=es&card=9c&table="
                       + "Ann-1 (Ann): 5♥ 6♥ 7♥ 8♥@Ben".replace(" ", "+"))
    assert asked.status_code == 303
    assert "table=Ann-1+(Ann):+5H+6H+7H+8H@Ben" in asked.headers["Location"]
    page = ask(client, "layoff", game=game_id, table="Ann-1 (Ann): 5H 6H 7H 8H@Ben", card="9h")
    assert "LEGAL" in page and "NOT LEGAL" not in page
    page = ask(client, "meld", game=game_id, cards="JK 5C 6C")
    assert "NOT LEGAL" in page  # Rummy 500 is played without jokers
    assert client.get("/referee/meld?game=999").status_code == 404


def test_the_referee_index_keeps_the_game(app, client, join):
    from referee import make_rules
    from scorebook.services.games import create_game, default_league

    with app.app_context():
        game = create_game(default_league(), ["Ann", "Ben"], 0, make_rules("basic"))
        game_id, league_id = game.id, game.league_id
    join(client, league_id, "viewer")
    page = client.get(f"/referee/?game={game_id}").get_data(as_text=True)
    assert f"/referee/meld?game={game_id}" in page
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"/referee/?game={game_id}" in board


def test_cards_are_typed_in_capitals_and_names_as_words(client):
    page = ask(client, "rummy-call")
    assert re.search(r'<input[^>]*autocapitalize="characters"[^>]*id="pile"', page)
    assert re.search(r'<input[^>]*autocapitalize="words"[^>]*id="discarder"', page)
    assert re.search(r'<input[^>]*autocapitalize="words"[^>]*id="caller"', page)


def test_going_out_page_after_a_deep_draw_reads_took_bottom_to_top(client):
    """`draw.deep` `discard.not-same`: the going-out tool takes the cards taken bottom to
    top: with 8♥ deepest the K♦ that was on top may be the last discard, the 8♥ not; a
    card taken that is not among the player's cards is a 400 that names it."""
    args = {"table": "A: 5H 6H 7H", "hand": "8H 9H 10H KD", "family": "pagat-500"}
    page = ask(client, "going-out", discard="KD", took="8H KD", **args)
    assert "NOT LEGAL" not in page and "LEGAL" in page
    page = ask(client, "going-out", discard="8H", took="8H KD", **{**args,
                                                                   "hand": "8H KD KS KC"})
    assert "NOT LEGAL" in page and "deepest card taken" in page
    assert "bottom to top" in page
    page = ask(client, "going-out", 400, discard="KD", took="QS KD", **args)
    assert "Q♠ is in the cards taken but not in the player&#39;s cards" in page


def test_a_table_line_needs_no_id_and_a_name_may_have_spaces(client):
    """Lines of cards only get free letters (after the ids typed); a lay-off by a
    name with a space is written @"Ben Hur", as the table builder writes it."""
    from scorebook.web.referee.forms import table_body

    assert table_body('5H 6H 7H\nA (Ann Lee): 9S 9D 9C@"Ben Hur"\n\n2C 3C 4C') == [
        {"id": "B", "cards": ["5H", "6H", "7H"]},
        {"id": "A", "owner": "Ann Lee",
         "cards": ["9S", "9D", {"card": "9C", "by": "Ben Hur"}]},
        {"id": "C", "cards": ["2C", "3C", "4C"]},
    ]
    page = ask(client, "layoff", 200, table="5H 6H 7H", card="8H")
    assert "✔" in page and "NOT LEGAL" not in page
