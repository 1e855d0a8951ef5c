"""Typed cards in the page's language: a Spanish family types C D T P (corazones,
diamantes, tréboles, picas), an Italian one C Q F P (cuori, quadri, fiori, picche),
wherever a page takes typed cards — the record page (and its "Check the cards", which
reads them back before anything is saved), the live hand's forms, the referee's
questions — and the help beside each field lists the letters.  The JSON API and the
referee's addresses keep the canonical letters (7H), whatever the language."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook.extensions import db
from scorebook.models import Hand, MeldCard, StrandedCard
from tests.reading import page

NAMES = ("Ana", "Beppe", "Carla")
# Carla holds the joker and nobody remembers the rest of anybody's cards (RULES.md §10):
# the hands below are about the letters, not about every card dealt.
REST = {"players-2-hand": "jk", "missing_ok": list(NAMES)}


def text(response: object) -> str:
    return re.sub(r"\s+", " ", page(response))


def shown(response: object) -> str:
    """What a person reads: the page without its tags and the spoken card names."""
    html = re.sub(r'<span class="sr-only">.*?</span>', "", page(response))
    html = re.sub(r"</?(?:span|b|strong|bdi|small|del)\b[^>]*>", "", html)  # inline: no space
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)).replace("\xa0", " "))


@pytest.fixture
def game(client: FlaskClient) -> str:
    data = {f"players-{i}": n for i, n in enumerate(NAMES)}
    response = client.post("/games/new", data={**data, "family": "pagat-500",
                                               "first_dealer": "0", "min_natural_cards": "1"})
    assert response.status_code == 302
    return str(response.headers["Location"])


def stored(app: Flask) -> tuple[list[str], list[str]]:
    """The cards of the stored hands: melded and laid off, and left in hand."""
    with app.app_context():
        melded = [c.text for c in db.session.scalars(db.select(MeldCard).order_by(MeldCard.id))]
        held = [c.card for c in db.session.scalars(
            db.select(StrandedCard).order_by(StrandedCard.id))]
    return melded, held


@pytest.mark.parametrize(("lang", "typed", "melded", "held"), [
    # Spanish: 7c 8c 9c are hearts, the tréboles are t, the picas p
    ("es", {"players-0-melds": "7c 8c 9c\nqd qt qp", "players-0-layoffs": "10c 1",
            "players-1-hand": "2t kp"},
     ["7H", "8H", "9H", "QD", "QC", "QS", "10H"], ["2C", "KS"]),
    # Italian: quadri are q (and qq the queen of quadri), fiori f, picche p
    ("it", {"players-0-melds": "7q 8q 9q\nqq qf qp", "players-0-layoffs": "10q 1",
            "players-1-hand": "2f kc"},
     ["7D", "8D", "9D", "QD", "QC", "QS", "10D"], ["2C", "KH"]),
    # English: 7c is a club
    ("en", {"players-0-melds": "7c 8c 9c\nqd qh qs", "players-0-layoffs": "10c 1",
            "players-1-hand": "2s kh"},
     ["7C", "8C", "9C", "QD", "QH", "QS", "10C"], ["2S", "KH"]),
])
def test_a_hand_typed_in_the_languages_letters_is_stored_as_those_cards(
        app: Flask, client: FlaskClient, game: str, lang: str, typed: dict[str, str],
        melded: list[str], held: list[str]) -> None:
    form = client.get(f"{game}/hands/new?lang={lang}").get_data(as_text=True)
    assert f'name="notation" value="{lang}"' in form
    response = client.post(f"{game}/hands/new?lang={lang}", data={
        "number": "1", "notation": lang, "outcome": "p0", **typed, **REST})
    assert response.status_code == 302, text(response)
    cards, kept = stored(app)  # (a lay-off is stored beside the meld it went on)
    assert (sorted(cards), kept) == (sorted(melded), [*held, "JK"])


def test_the_forms_language_decides_not_the_pages(app: Flask, client: FlaskClient,
                                                  game: str) -> None:
    """A form shown in Italian and sent after the page's language changed (another tab,
    the offline queue) is read in the letters it was typed in."""
    response = client.post(f"{game}/hands/new?lang=en", data={
        "number": "1", "notation": "it", "outcome": "p0", "players-0-melds": "7q 8q 9q",
        "players-1-hand": "kf", **REST})
    assert response.status_code == 302, text(response)
    assert stored(app)[0] == ["7D", "8D", "9D"]


@pytest.mark.parametrize(("lang", "token", "letters"), [
    ("es", "7h", "C ♥ corazones, D ♦ diamantes, T ♣ tréboles, P ♠ picas"),
    ("it", "7s", "C ♥ cuori, Q ♦ quadri, F ♣ fiori, P ♠ picche"),
])
def test_another_languages_letters_are_refused_and_the_letters_listed(
        app: Flask, client: FlaskClient, game: str, lang: str, token: str, letters: str) -> None:
    response = client.post(f"{game}/hands/new?lang={lang}", data={
        "number": "1", "notation": lang, "outcome": "p0", "players-0-melds": f"{token} 8c 9c"})
    assert response.status_code == 400
    assert f"«{token}»" in text(response) and letters in shown(response)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Hand)) == 0


def test_check_the_cards_reads_them_back_and_saves_nothing(app: Flask, client: FlaskClient,
                                                           game: str) -> None:
    """Without JavaScript, "Check the cards" shows each typed card as the server reads it
    (its suit's symbol and colour), notes what a letter means here, and stores nothing."""
    response = client.post(f"{game}/hands/new?lang=es", data={
        "number": "1", "notation": "es", "outcome": "p0", "check": "1",
        "players-0-melds": "7c 8c 9c", "players-0-layoffs": "10c 1",
        "players-1-hand": "2t 7h"})
    assert response.status_code == 200
    seen = shown(response)
    assert "Todavía no se ha guardado nada" in seen
    assert "Combinación 1: 7♥ 8♥ 9♥" in seen and "Carta colocada 1: 10♥ 1" in seen
    assert "Aquí C es corazones ♥, no tréboles ♣." in seen
    assert "«7h» no es una carta" in seen
    assert re.search(r'<span class="pc suit-h"><span aria-hidden="true">7♥', page(response))
    # the typed text is kept in its fields, to correct and save
    assert "7c 8c 9c</textarea>" in page(response)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Hand)) == 0


@pytest.mark.parametrize(("lang", "help_text"), [
    ("es", "Palos: C ♥ corazones, D ♦ diamantes, T ♣ tréboles, P ♠ picas."),
    ("it", "Semi: C ♥ cuori, Q ♦ quadri, F ♣ fiori, P ♠ picche."),
    ("en", "Suits: H ♥ hearts, D ♦ diamonds, C ♣ clubs, S ♠ spades."),
])
def test_every_field_that_takes_typed_cards_lists_the_letters(
        client: FlaskClient, game: str, lang: str, help_text: str) -> None:
    assert client.post(f"{game}/hands/live/start").status_code == 302
    for url in (f"/referee/meld?lang={lang}", f"/referee/layoff?lang={lang}",
                f"{game}/hands/live?lang={lang}"):
        assert help_text in shown(client.get(url)), url
    client.post(f"{game}/hands/live/cancel", data={"cancel-moves": "0"})
    assert help_text in shown(client.get(f"{game}/hands/new?lang={lang}"))


def test_the_examples_of_the_help_are_in_the_languages_letters(client: FlaskClient,
                                                                game: str) -> None:
    seen = shown(client.get(f"{game}/hands/new?lang=it"))
    assert "per es. 7p 8p 9p" in seen and "kp Ada 1" in seen and "jk=8c" in seen
    assert "Q indica anche una carta (donna): QQ = donna di quadri." in seen
    seen = shown(client.get("/referee/meld?lang=es"))
    assert "Escribe las cartas así: 7p 10c qd" in seen


def test_a_live_hand_typed_in_italian(app: Flask, client: FlaskClient, game: str) -> None:
    assert client.post(f"{game}/hands/live/start").status_code == 302
    done = client.post(f"{game}/hands/live/meld?lang=it", data={
        "meld-player": "p0", "meld-cards": "7q 8q 9q", "notation": "it"})
    assert done.status_code == 302
    done = client.post(f"{game}/hands/live/layoff?lang=it", data={
        "layoff-player": "p1", "layoff-card": "10q", "layoff-onto": "Ana-1", "notation": "it"})
    assert done.status_code == 302
    refused = client.post(f"{game}/hands/live/meld?lang=it", data={
        "meld-player": "p1", "meld-cards": "5h 5c 5q", "notation": "it"})
    assert refused.status_code == 400
    assert "«5h» non è una carta" in text(refused)
    assert stored(app)[0] == ["7D", "8D", "9D", "10D"]
    live = client.get(f"{game}/hands/live?lang=it").get_data(as_text=True)
    assert 'name="notation" value="it"' in live
    assert 'placeholder="7p 8p 9p"' in live


def test_a_referee_question_typed_in_spanish_goes_to_its_canonical_address(
        client: FlaskClient) -> None:
    """The page reads the Spanish letters; the verdict's address (its permalink) has the
    canonical ones, and opens to the same verdict in any language."""
    asked = client.get("/referee/meld?" + urlencode(
        {"cards": "7c 8c 9c", "notation": "es", "family": "pagat-500", "lang": "es"}))
    assert asked.status_code == 303
    target = urlsplit(asked.headers["Location"])
    query = parse_qs(target.query)
    assert query["cards"] == ["7H 8H 9H"] and "notation" not in query
    answer = client.get(asked.headers["Location"])
    assert "Una escalera válida: 7♥ 8♥ 9♥." in text(answer)
    # the field shows the cards with their symbols, which read alike in every language
    assert 'value="7♥ 8♥ 9♥"' in text(answer)
    english = client.get(f"{target.path}?{target.query.replace('lang=es', 'lang=en')}")
    assert "A legal run: 7♥ 8♥ 9♥." in text(english)


def test_a_referee_table_typed_in_italian(client: FlaskClient) -> None:
    asked = client.get("/referee/layoff?" + urlencode({
        "table": "A (Ana): 5q 6q 7q\nB: 9f 9p 9c", "card": "8q", "notation": "it"}))
    assert asked.status_code == 303
    query = parse_qs(urlsplit(asked.headers["Location"]).query)
    assert query["table"] == ["A (Ana): 5D 6D 7D\nB: 9C 9S 9H"] and query["card"] == ["8D"]


def test_a_referee_question_with_a_card_not_in_the_languages_letters(
        client: FlaskClient) -> None:
    """Refused in the page's letters, never sent on to an address that reads it as
    something else (7h is no card in Spanish; as an address it would be 7♥)."""
    asked = client.get("/referee/meld?" + urlencode(
        {"cards": "7h 8c 9c", "notation": "es"}), headers={"Accept-Language": "es"})
    assert asked.status_code == 400
    seen = shown(asked)
    assert "«7h» no es una carta" in seen and "T ♣ tréboles" in seen


def test_the_json_api_keeps_its_canonical_letters(client: FlaskClient) -> None:
    answer = client.post("/api/v1/referee/meld", json={"cards": ["7C", "8C", "9C"]},
                         headers={"Accept-Language": "es"}).get_json()
    assert answer["legal"] and answer["message"] == "Una escalera válida: 7C 8C 9C."
    assert answer["readings"][0]["cards"] == ["7C", "8C", "9C"]  # clubs, as documented
    symbols = client.post("/api/v1/referee/meld", json={"cards": ["7♥", "8♥", "9♥"]}).get_json()
    assert symbols["legal"] and symbols["readings"][0]["cards"] == ["7H", "8H", "9H"]


#: card-picker.js's parser run on a fake page whose dock carries a notation's table.
JS_PARSE = """
const fs = require("fs");
const [src, tables, tokens] = process.argv.slice(1).map(f => fs.readFileSync(f, "utf8"));
const out = {};
for (const [lang, notation] of Object.entries(JSON.parse(tables))) {
  global.window = {};
  global.document = {querySelector: () => ({getAttribute: () => JSON.stringify(notation)})};
  eval(src);
  out[lang] = JSON.parse(tokens).map(t => window.CardPicker.parseCard(t));
}
process.stdout.write(JSON.stringify(out));
"""


def test_the_pages_script_reads_typed_cards_as_the_server_does(app: Flask, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The preview shows what will be saved: card-picker.js, given the page's table
    (``data-card-notation``), reads every token as ``referee.parse_card`` does."""
    import itertools
    import json
    import shutil
    import subprocess
    from pathlib import Path

    from referee.cards import NOTATIONS, CardError, parse_card
    from scorebook.presenters.cards import notation_json

    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("no node to run the page's script with")
    tables = {}
    for lang in NOTATIONS:
        with app.test_request_context(f"/?lang={lang}"):
            tables[lang] = notation_json()
    letters = sorted({ch for n in NOTATIONS.values() for ch in n.suits}
                     | set("AJQKT1♠♥♦♣♤♡SHDCXZ*"))
    parts = letters + [str(n) for n in range(15)]
    tokens = ["".join(p) for p in itertools.product(parts, repeat=2)]
    tokens += ["JK=" + t for t in tokens[::3]] + [
        "jk", "joker", "comodín", "COMODIN", "jolly", "🃏", "jk=q", "JK=10", " 7h ", "7=8h"]
    files = []
    for name, text in (("tables.json", json.dumps(tables)), ("tokens.json", json.dumps(tokens))):
        (tmp_path / name).write_text(text, encoding="utf-8")
        files.append(str(tmp_path / name))
    script = Path(__file__).resolve().parents[2] / "static" / "js" / "card-picker.js"
    read = json.loads(subprocess.run([node, "-e", JS_PARSE, str(script), *files],
                                     check=True, capture_output=True, timeout=120).stdout)
    differ = []
    for lang, notation in NOTATIONS.items():
        for token, by_script in zip(tokens, read[lang]):
            try:
                by_server: str | None = str(parse_card(token, notation))
            except CardError:
                by_server = None
            if by_server != by_script:
                differ.append((lang, token, by_server, by_script))
    assert not differ, differ[:20]
