"""English, Spanish and Italian: every message has a translation in each language that
keeps its placeholders, the catalogue template is up to date with the source, and
the pages — the referee's verdicts above all — speak the language that was chosen
(the switch, then the league, then the browser's Accept-Language)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlencode

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import session

from referee import parse_card
from referee.rulebook import OPTION_TEXTS, RULE_TEXTS, SECTIONS
from referee.rules import FAMILY_NAMES
from referee.verdict import MESSAGES, RULES_MESSAGES, SCORING_MESSAGES, TABLE_MESSAGES
from scorebook.presenters.i18n import safe_next
from tests.reading import readable

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
POT = TRANSLATIONS / "messages.pot"
LANGUAGES = ("es", "it")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|%[sdif]")
MEND = "run `make babel-update`, then translate the new messages in translations/{es,it}"


def read_catalog(path: Path):  # type: ignore[no-untyped-def]
    with path.open("rb") as fh:
        return read_po(fh)


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def ensure_compiled() -> None:
    """Build any .mo older than its .po (``make test`` does it; a bare pytest may not)."""
    for lang in LANGUAGES:
        po, mo = po_path(lang), po_path(lang).with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            with mo.open("wb") as fh:
                write_mo(fh, read_catalog(po))


@pytest.fixture(autouse=True, scope="module")
def compiled() -> None:
    ensure_compiled()


def ids(catalog) -> set:  # type: ignore[no-untyped-def]
    return {m.id for m in catalog if m.id}


def placeholders(text: str) -> list[str]:
    """The %-placeholders of ``text``; a lone ``%`` (which breaks %-formatting, and Jinja's
    newstyle ``_()`` always formats) counts as one too, so it never matches."""
    rest = PLACEHOLDER.sub("", text.replace("%%", ""))
    return sorted(PLACEHOLDER.findall(text) + ["%"] * rest.count("%"))


# ---- the catalogues --------------------------------------------------------------------

def makefile_keywords() -> list[str]:
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        if line.startswith("BABEL_KEYWORDS"):
            return shlex.split(line.split("=", 1)[1])
    raise AssertionError("BABEL_KEYWORDS is not set in the Makefile")


def test_n_marker_and_lazy_and_plural_keywords_are_extracted():
    keywords = makefile_keywords()
    for kw in ("N_", "_", "_l", "gettext", "lazy_gettext", "ngettext:1,2"):
        assert kw in keywords, f"{kw} is not a babel keyword in the Makefile"


def test_template_is_up_to_date_with_the_source(tmp_path):
    """A string added to the code or a template without `make babel-update` fails here."""
    fresh = tmp_path / "messages.pot"
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"),
                                *makefile_keywords(), "-o", str(fresh), str(ROOT)])
    extracted, committed = ids(read_catalog(fresh)), ids(read_catalog(POT))
    missing = sorted(map(str, extracted - committed))
    stale = sorted(map(str, committed - extracted))
    report = f"{len(missing)} message(s) not in messages.pot ({MEND}): "
    assert not missing, report + repr(missing[:10])
    report = f"messages.pot holds {len(stale)} message(s) no longer in the source ({MEND}): "
    assert not stale, report + repr(stale[:10])


def test_referee_texts_are_in_the_template():
    """The referee's N_() texts: every verdict, rule-set error, scoring and table error,
    rule, section, option and family name."""
    wanted = {*MESSAGES.values(), *RULES_MESSAGES.values(), *SCORING_MESSAGES.values(),
              *TABLE_MESSAGES.values(), *SECTIONS.values(),
              *OPTION_TEXTS.values(), *FAMILY_NAMES.values(), *(r.title for r in RULE_TEXTS),
              *(r.text for r in RULE_TEXTS)}
    assert not wanted - ids(read_catalog(POT))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated(lang):
    template, catalog = read_catalog(POT), read_catalog(po_path(lang))
    untranslated = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id)
        strings = () if found is None else (
            found.string if isinstance(found.string, tuple) else (found.string,))
        if found is None or found.fuzzy or not strings or not all(strings):
            untranslated.append(message.id)
    report = f"{len(untranslated)} message(s) without a {lang} translation ({MEND}): "
    assert not untranslated, report + repr(untranslated[:10])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_every_placeholder(lang):
    broken = []
    for message in read_catalog(po_path(lang)):
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple):
            # The "one" form may leave out the count ("Your league"), nothing else.
            one, *others = message.string
            said, wanted = placeholders(one), placeholders(message.id[0])
            if one and (not set(said) <= set(wanted) or set(wanted) - set(said) - {"num"}):
                broken.append((message.id, one))
            for form in others:
                if form and placeholders(form) != placeholders(message.id[1]):
                    broken.append((message.id, form))
        elif placeholders(message.string) != placeholders(message.id):
            broken.append((message.id, message.string))
    assert not broken, f"{lang}: translations with other placeholders than the English: {broken}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_messages_have_every_form(lang):
    catalog = read_catalog(po_path(lang))
    for message in catalog:
        if message.id and isinstance(message.id, tuple) and message.string:
            assert len(message.string) == catalog.num_plurals, message.id


# ---- choosing the language -------------------------------------------------------------

def meld_page(client, cards: str = "7S 8S 9S", **extra) -> str:  # type: ignore[no-untyped-def]
    query = urlencode({"cards": cards, "family": "pagat-500", "players": 3})
    response = client.get(f"/referee/meld?{query}", **extra)
    assert response.status_code == 200
    return response.get_data(as_text=True)


VERDICTS = {
    "en": ("A legal run: 7♠ 8♠ 9♠.", "LEGAL"),
    "es": ("Una escalera válida: 7♠ 8♠ 9♠.", "VÁLIDO"),
    "it": ("Una scala valida: 7♠ 8♠ 9♠.", "VALIDO"),
}


def test_english_without_any_choice(client):
    page = meld_page(client)
    assert '<html lang="en">' in page and VERDICTS["en"][0] in page


@pytest.mark.parametrize("lang", ["es", "it"])
def test_session_choice_speaks_on_the_referee_page(client, lang):
    with client.session_transaction() as sess:
        sess["lang"] = lang
    page = meld_page(client, headers={"Accept-Language": "en"})
    message, word = VERDICTS[lang]
    assert f'<html lang="{lang}">' in page
    assert message in page and word in page
    assert VERDICTS["en"][0] not in page


def test_accept_language_italian(client):
    page = meld_page(client, headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"})
    assert VERDICTS["it"][0] in page and VERDICTS["it"][1] in page
    assert '<html lang="it">' in page


def test_accept_language_spanish_variant_and_unknown_language(client):
    assert VERDICTS["es"][0] in meld_page(client, headers={"Accept-Language": "es-MX"})
    assert VERDICTS["en"][0] in meld_page(client, headers={"Accept-Language": "de, fr;q=0.8"})


def test_url_choice_beats_the_session_without_replacing_it(client):
    with client.session_transaction() as sess:
        sess["lang"] = "es"
    response = client.get("/referee/meld?" + urlencode({"cards": "7S 8S 9S", "lang": "it"}))
    assert VERDICTS["it"][0] in response.get_data(as_text=True)
    assert VERDICTS["es"][0] in meld_page(client)


def test_the_switch_remembers_the_choice_and_goes_back(client):
    back = "/referee/meld?" + urlencode({"cards": "7S 8S 9S", "family": "pagat-500"})
    response = client.get("/language/es?" + urlencode({"next": back}))
    assert response.status_code == 303
    assert response.headers["Location"] == back
    with client.session_transaction() as sess:
        assert sess["lang"] == "es"
    assert VERDICTS["es"][0] in meld_page(client, headers={"Accept-Language": "it"})
    client.get("/language/it?next=/")
    assert VERDICTS["it"][0] in meld_page(client)


def test_the_switch_is_in_every_page_header(client):
    page = client.get("/referee/meld").get_data(as_text=True)
    nav = re.search(r'<nav class="language-switch".*?</nav>', page, re.S)
    assert nav, "no language switch in the header"
    links = re.findall(r'<a href="([^"]+)" lang="(\w+)"[^>]*>'
                       r'<span class="language-name">([^<]+)</span>'
                       r'<span class="language-code" aria-hidden="true">(\w+)</span></a>',
                       nav.group(0))
    assert [(lang, name, code) for _, lang, name, code in links] == [
        ("en", "English", "EN"), ("es", "Español", "ES"), ("it", "Italiano", "IT")]
    assert 'aria-current="true"><span class="language-name">English' in nav.group(0)
    assert all("next=/referee/meld" in href for href, *_ in links)
    assert 'aria-label="Language"' in nav.group(0)


def test_unknown_language_is_not_found(client):
    assert client.get("/language/de").status_code == 404


@pytest.mark.parametrize("target", [
    "https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)",
    "evil.example", "", "/%0d%0aSet-Cookie:x", "/\n/evil.example",
])
def test_the_switch_never_sends_anyone_off_the_site(app, client, target):
    response = client.get("/language/it?" + urlencode({"next": target}))
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\"))
    with app.test_request_context():
        assert safe_next(target).startswith("/")


def test_the_switch_drops_a_lang_argument_from_next(app):
    with app.test_request_context():
        assert safe_next("/referee/meld?lang=it&cards=7S") == "/referee/meld?cards=7S"


def test_league_language_comes_before_the_browser(app):
    from flask import g

    from scorebook.presenters.i18n import select_locale

    with app.test_request_context(headers={"Accept-Language": "en"}):
        g.league_language = "it"
        assert select_locale() == "it"
        session["lang"] = "es"
        assert select_locale() == "es"
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert select_locale() == "es"
        g.league = SimpleNamespace(name="La mesa", language=None)
        assert select_locale() == "es"  # a league without a language of its own
        g.league = SimpleNamespace(name="Il tavolo", language="it")
        assert select_locale() == "it"  # a League.language column, once there is one


# ---- what the pages say ----------------------------------------------------------------

def test_rule_book_in_spanish(client):
    client.get("/language/es?next=/")
    page = client.get("/rules/pagat-500").get_data(as_text=True)
    assert "Reglas de la casa" in page and "Escaleras" in page and "comodín" in page


def test_rule_book_in_italian(client):
    page = client.get("/rules/basic", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Ramino classico" in page and "Scale" in page


def test_not_legal_verdict_and_rule_texts_in_italian(client):
    query = urlencode({"cards": "QH KH AH", "family": "basic", "players": 2})
    page = client.get(f"/referee/meld?{query}",
                      headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "NON VALIDO" in page
    assert "Nel ramino classico l&#39;asso va solo in basso" in page  # the verdict
    assert "Gli assi nelle scale" in page  # the cited rule, meld.ace


def test_form_errors_are_translated(client):
    response = client.get("/referee/layoff?" + urlencode({"table": "no colon", "card": "9h"}),
                          headers={"Accept-Language": "es"})
    assert response.status_code == 400
    assert "«no» no es una carta" in response.get_data(as_text=True)


def test_api_message_follows_accept_language(client):
    response = client.post("/api/v1/referee/meld", json={"cards": ["7S", "8S", "9S"]},
                           headers={"Accept-Language": "es"})
    assert response.get_json()["message"] == "Una escalera válida: 7S 8S 9S."


@pytest.mark.parametrize(("lang", "spoken"), [
    ("en", "7 of hearts"), ("es", "7 de corazones"), ("it", "7 di cuori")])
def test_spoken_card_names(app, lang, spoken):
    from scorebook.presenters.cards import card_html, card_name

    with app.test_request_context(f"/?lang={lang}"):
        assert card_name(parse_card("7H")) == spoken
        assert "7♥" in card_html("7H")  # the printed label keeps its symbol


@pytest.mark.parametrize(("lang", "queen", "joker"), [
    ("es", "reina de picas", "comodín que hace de 8 de corazones"),
    ("it", "donna di picche", "jolly che fa da 8 di cuori")])
def test_face_cards_and_jokers_in_words(app, lang, queen, joker):
    from scorebook.presenters.cards import card_name

    with app.test_request_context(f"/?lang={lang}"):
        assert card_name(parse_card("QS")) == queen
        assert card_name(parse_card("JK=8H")) == joker


@pytest.mark.parametrize(("lang", "number", "signed"), [
    ("en", "12,345", "\u22121,500"), ("es", "12.345", "\u22121.500"),
    ("it", "12.345", "\u22121.500")])
def test_numbers_in_the_local_format(app, lang, number, signed):
    with app.test_request_context(f"/?lang={lang}"):
        env = app.jinja_env
        assert env.from_string("{{ 12345|number }}").render() == number
        assert env.from_string("{{ -1500|signed_number }}").render() == signed
        assert env.from_string("{{ 13|signed_number }}").render() == "+13"


def test_dates_in_the_local_format(app):
    from datetime import date

    with app.test_request_context("/?lang=es"):
        assert app.jinja_env.from_string("{{ d|day('long') }}").render(
            d=date(2026, 11, 29)) == "29 de noviembre de 2026"
    with app.test_request_context("/?lang=it"):
        assert app.jinja_env.from_string("{{ d|day('long') }}").render(
            d=date(2026, 11, 29)) == "29 novembre 2026"


def visible(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_verdict_cards_read_with_suit_symbols_in_every_language(client):
    table = "A (Ann): 5H 6H 7H 8H@Ben\nB (Ben): 9C 9S 9D"
    page = client.get("/referee/layoff?" + urlencode({"table": table, "card": "9h"}),
                      headers={"Accept-Language": "es"}).get_data(as_text=True)
    page = readable(page)
    # a list as Spanish joins it, each meld with the owner the table gave it
    assert "9♥ cabe en más de una combinación (A (de Ann) y B (de Ben))" in page
    page = client.get("/referee/meld?" + urlencode({"cards": "9s jk jk"}),
                      headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Queste carte si possono leggere in 4 modi" in page


def test_going_out_plan_in_words_of_the_table(client):
    query = urlencode({"table": "A: 5H 6H 7H", "hand": "8H 4H", "discard": "4H"})
    page = visible(readable(client.get(f"/referee/going-out?{query}",
                                       headers={"Accept-Language": "it"}).get_data(as_text=True)))
    assert "Può chiudere: tutte le altre carte si possono calare e 4♥ è l'ultimo scarto." \
        in page.replace("&#39;", "'")
    assert "attaccare a A: 8♥" in page and " on " not in page


@pytest.mark.parametrize(("query", "spanish", "italian"), [
    ({"cards": "8Z 9S"}, "«8Z» no es una carta", "«8Z» non è una carta"),
    ({"cards": "7s 8s 9s", "family": "basic", "players": 6},
     "Al Rummy básico juegan de 2 a 4 jugadores, no 6.",
     "Ramino classico: si gioca da 2 a 4 giocatori, non 6."),
    ({"cards": "7s 8s 9s", "family": "basic", "jokers": "on"},
     "El Rummy básico se juega sin la regla de la casa «Comodines».",
     "Il ramino classico si gioca senza la regola della casa «Jolly»."),
    ({"cards": "7s 8s 9s", "players": 99}, "El número debe estar entre 2 y 8.",
     "Il numero deve essere compreso tra 2 e 8."),
])
def test_bad_questions_are_explained_in_the_page_language(client, query, spanish, italian):
    for lang, expected in (("es", spanish), ("it", italian)):
        response = client.get("/referee/meld?" + urlencode(query),
                              headers={"Accept-Language": lang})
        assert response.status_code == 400
        assert expected in response.get_data(as_text=True).replace("&#34;", '"'), lang


def test_bad_lay_off_and_draw_questions_in_spanish(client):
    page = client.get("/referee/layoff?" + urlencode(
        {"table": "A: 5H 6H 7H", "card": "8H", "meld": "Q"}), headers={"Accept-Language": "es"})
    # (the id the question gave, isolated from the words around it like every meld id)
    assert "No hay ninguna combinación Q en la mesa." in readable(page.get_data(as_text=True))
    page = client.get("/referee/draw?" + urlencode({"pile": "6C 4S", "hand": "2C", "take": 5}),
                      headers={"Accept-Language": "es"})
    assert "En el montón de descartes solo hay 2 cartas." in page.get_data(as_text=True)


def test_a_question_with_impossible_cards_is_told_in_the_pages_language(client):
    """The referee's own verdict travels with the error (no English text to translate):
    a card named more often than the decks hold, and a rule set that cannot be built."""
    table = "A (Ann): 5H 6H 7H"
    page = readable(client.get("/referee/layoff?" + urlencode(
        {"table": table, "card": "5h", "family": "rummy-500"}),
        headers={"Accept-Language": "it"}).get_data(as_text=True))
    assert "5♥ compare 2 volte, ma tra le carte in gioco ce ne sono solo 1." in page
    assert "appears" not in page
    page = readable(client.get("/referee/meld?" + urlencode(
        {"cards": "7s 8s 9s", "family": "basic", "rummy_call": "top"}),
        headers={"Accept-Language": "es"}).get_data(as_text=True))
    assert "El Rummy básico se juega sin la regla de la casa" in page, page
    assert "rummy_call" not in visible(page)



def test_a_bad_meld_of_the_table_is_told_in_the_pages_language(client):
    page = visible(readable(client.get("/referee/layoff?" + urlencode(
        {"table": "A (Ann): 5H 6H 8H", "card": "8h"}),
        headers={"Accept-Language": "es"}).get_data(as_text=True)))
    assert "Combinación A de la mesa: 5♥ 6♥ 8♥ no es ni un trío" in page, page
    assert "table meld" not in page
    page = visible(readable(client.get("/referee/layoff?" + urlencode(
        {"table": "A: 5H 6H 7H\nA: 9C 9D 9S", "card": "8h"}),
        headers={"Accept-Language": "it"}).get_data(as_text=True)))
    assert "Due combinazioni sul tavolo hanno il nome A" in page, page


GETTEXT_NAMES = {"_", "_l", "N_", "gettext", "ngettext", "lazy_gettext"}


def test_no_message_hides_inside_an_f_string():
    """pybabel never looks inside f-strings: ``f"{gettext('Total')}"`` stays English."""
    import ast

    hidden = []
    for folder in ("scorebook", "referee"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.JoinedStr):
                    continue
                for inner in ast.walk(node):
                    if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
                            and inner.func.id in GETTEXT_NAMES):
                        hidden.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert not hidden, f"messages inside f-strings, never extracted: {hidden}"
