"""The Spanish and Italian pages read as if written in the language.

- ``translations/GLOSSARY.md`` is the one list of the game's and the site's words in each
  language: an evening of a family's pages (:mod:`tests.evening`), read in Spanish and
  in Italian, shows no English word of it, and each of its Spanish and Italian words is
  one the catalogues use.
- A help text names a button, a label or a choice with the control's own words: no
  English message quotes a control's words instead of taking its message as a
  placeholder (:mod:`scorebook.presenters.controls`), and every name a Spanish or
  Italian page quotes or marks is the text of a control of the site, in that language.
- The register is the family's (*tú*, *tu*), and a sentence about a named player needs
  no gender (the name may be Ana or Beppe).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from tests.evening import an_evening
from tests.reading import readable

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
LANGUAGES = ("es", "it")
COLUMN = {"es": 1, "it": 2}


# ---- reading the glossary and the catalogues -------------------------------------------

def glossary() -> list[list[str]]:
    """The glossary's rows: [English, Español, Italiano, notes]."""
    rows = []
    for line in (TRANSLATIONS / "GLOSSARY.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("|") and not line.startswith(("|---", "| English")):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    assert len(rows) > 50, "the glossary's tables were not found"
    return rows


def terms(cell: str) -> list[str]:
    """The words of a cell: comma- or semicolon-separated, without notes in brackets."""
    cell = re.sub(r"\([^)]*\)", "", cell).replace('"', "").replace("*", "")
    return [t.strip().lower() for t in re.split(r"[,;]", cell) if t.strip()]


def catalogue(lang: str) -> Any:
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        return read_po(fh)


def strings(message: Any) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


def has_phrase(phrase: str, text: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(phrase) + r"(?![\w-])", text) is not None


# ---- what a person reads on a page -------------------------------------------------------

#: Attributes whose text is read (aloud, or on the screen).
READ = re.compile(r'\s(?:placeholder|aria-label|title|alt|data-text-[\w-]+)="([^"]*)"')
#: The scripts' words: JSON in an attribute.
SCRIPT_TEXTS = re.compile(r'\s(?:data-texts|data-card-notation)="([^"]*)"')
#: What a help text may name: what can be tapped, or read as a control's name.
CONTROL = re.compile(r"<(button|a|label|summary|option|legend)\b[^>]*>"
                     r"((?:(?!<(?:option|li|p|div|fieldset)\b).)*?)</\1>", re.S)
SUBMIT = re.compile(r'<input\b[^>]*\stype="(?:submit|button)"[^>]*\svalue="([^"]*)"')
BUTTON = re.compile(r'<(button)\b[^>]*>(.*?)</button>|<a\b[^>]*class="button[^"]*"[^>]*>(.*?)</a>',
                    re.S)
MARKED = re.compile(r"<span[^>]*\sdata-control>(.*?)</span>", re.S)
#: What is no words of the page: scripts, styles, code (a command, a setting's name).
NOT_WORDS = re.compile(r"<(script|style|code)\b.*?</\1>", re.S)


def words(fragment: str) -> str:
    """An HTML fragment as the text it shows, its spaces as one."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


class Page:
    """A page as a person reads it: ``text`` (its words, the attributes that are read,
    its scripts' texts), ``controls`` (the texts of what can be tapped, and of what its
    scripts draw) and ``marked`` (the names of controls its help texts mark)."""

    def __init__(self, page: str) -> None:
        raw, page = page, readable(page)
        scripts = [s for value in SCRIPT_TEXTS.findall(page)
                   for s in _strings(json.loads(html.unescape(value)))]
        body = NOT_WORDS.sub(" ", SCRIPT_TEXTS.sub(" ", page))
        shown = words(re.sub(r"<head\b.*?</head>", " ", body, flags=re.S))
        read = [html.unescape(v) for v in READ.findall(body)]
        title = re.search(r"<title>(.*?)</title>", page, re.S)
        text = " ".join([shown, *read, *scripts, words(title.group(1)) if title else ""])
        # (addresses, and the placeholders the scripts fill in, are no words)
        self.text = re.sub(r"https?://\S+|%\(\w+\)s|\{\w+\}", " ", text)
        self.controls = {words(inner) for _tag, inner in CONTROL.findall(body)}
        self.controls |= {html.unescape(v).strip() for v in SUBMIT.findall(body)}
        self.controls |= {s.strip() for s in scripts}
        self.marked = [words(inner) for inner in MARKED.findall(body)]
        # A button lays its content out as flex items: words beside an element (a name
        # in <bdi>) lose the space between them ("JoinOur table") unless one element
        # holds them all.
        self.split = [words(a or b) for _tag, a, b in BUTTON.findall(NOT_WORDS.sub(" ", raw))
                      if _split(a or b)]


def _split(inner: str) -> bool:
    """Whether a button's content puts words and an element side by side at its top
    level (an icon hidden from readers, or words only for them, aside)."""
    inner = re.sub(r'<(\w+)[^>]*(?:class="sr-only"|aria-hidden="true")[^>]*>.*?</\1>', "",
                   inner, flags=re.S)
    while True:  # each element, innermost first, becomes one mark: what is left is the top
        folded = re.sub(r"<(\w+)\b[^>]*>[^<]*</\1>", "\x00", inner)
        if folded == inner:
            break
        inner = folded
    return "\x00" in inner and bool(inner.replace("\x00", "").strip())


def _strings(obj: Any) -> Any:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from _strings(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _strings(value)


@pytest.fixture(params=LANGUAGES)
def evening(request: Any, app: Flask, client: FlaskClient) -> tuple[str, dict[str, Page]]:
    """Every page of an evening at the table, in Spanish and in Italian."""
    lang = request.param
    pages, join = an_evening(app, client, lang)
    read_pages = {}
    for url in pages:
        response = client.get(url)
        assert response.status_code in (200, 404), (url, response.status_code)
        read_pages[url] = Page(response.get_data(as_text=True))
    # the invite link, opened by the other phone (not in the league yet), in its language
    response = app.test_client().get(join, follow_redirects=True,
                                     headers={"Accept-Language": lang})
    assert response.status_code == 200
    read_pages[join] = Page(response.get_data(as_text=True))
    return lang, read_pages


# ---- no English on a Spanish or Italian page ---------------------------------------------

def test_no_english_word_of_the_glossary_on_a_page(evening: tuple[str, dict[str, Any]]) -> None:
    lang, pages = evening
    # (the language's own words are not English here: Italian says *link*, *record*)
    own = {t for row in glossary() for t in terms(row[COLUMN[lang]])}
    english = {t for row in glossary() for t in terms(row[0])} - own
    found = []
    for url, page in pages.items():
        text = page.text.lower()
        for term in sorted(english):
            match = re.search(r"(?<![\w-])" + re.escape(term) + r"(?![\w-])", text)
            if match:
                found.append((url, term, text[max(0, match.start() - 60):match.end() + 40]))
    assert not found, f"{lang}: English words on the pages: {found[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_glossarys_words_are_the_catalogues_words(lang: str) -> None:
    text = " ".join(s.lower() for m in catalogue(lang) if m.id for s in strings(m))
    unused = [(row[0], terms(row[COLUMN[lang]])[0]) for row in glossary()
              if not has_phrase(terms(row[COLUMN[lang]])[0], text)]
    assert not unused, f"{lang}: glossary words no message uses: {unused}"


# ---- a help text names a control by the control's own words ------------------------------

#: Quotations in English messages that are not a control's words: what a player says
#: or types, a word a rule defines, an example.
SAID = {
    "Rummy!": "the call a player makes",
    "float": "the word the floating rule defines",
    "version": "the JSON property a program sends",
    "Ann's phone": "what the history then shows, an example",
    "Bob": "an example name",
    "Robert": "an example name",
    "make run": "the command that starts the site",
}
QUOTE = re.compile(r"[“\"]([^”\"]+)[”\"]")


def test_no_message_quotes_a_controls_words() -> None:
    """A control's words are put in a help text as a placeholder (its own message), never
    spelled again: spelled twice, each language's translator may word them differently."""
    with (TRANSLATIONS / "messages.pot").open("rb") as fh:
        template = read_po(fh)
    spelled = []
    for message in template:
        for text in (message.id if isinstance(message.id, tuple) else (message.id,)):
            for quoted in QUOTE.findall(text or ""):
                if "%(" not in quoted and quoted not in SAID:
                    spelled.append((quoted, text))
    assert not spelled, f"help texts spelling a control's words: {spelled}"


#: What a Spanish or Italian page may quote that is not a control: a call, a word a rule
#: or the typed form defines, an example.
SAID_HERE = {
    "es": {"¡Rummy!", "flotando", "arriba", "abajo", "el móvil de Ana", "Pepe", "José",
           "make run", "version"},
    "it": {"Rummy!", "a galla", "alto", "basso", "il telefono di Anna", "Beppe", "Giuseppe",
           "make run", "version"},
}


def test_every_control_a_page_names_is_a_control(evening: tuple[str, dict[str, Any]]) -> None:
    """Every name a help text quotes («…») or marks (``data-control``) is the text of a
    button, link, label or choice of the evening's pages (or one their scripts draw), with
    the same words in that language."""
    lang, pages = evening
    controls = set().union(*(page.controls for page in pages.values()))
    marked = [(url, name) for url, page in pages.items() for name in page.marked]
    wrong = [(url, name) for url, name in marked if name not in controls]
    for url, page in pages.items():
        for quoted in re.findall(r"«([^»]*)»", page.text):
            quoted = quoted.strip()
            if not quoted or quoted in SAID_HERE[lang] or re.search(r"\d", quoted):
                continue  # a call, a typed word, an example line of cards
            if quoted not in controls:
                wrong.append((url, quoted))
    assert not wrong, f"{lang}: names of controls no page shows: {sorted(set(wrong))}"
    assert marked, "no help text marks the controls it names"


def test_a_buttons_words_keep_their_spaces(evening: tuple[str, dict[str, Any]]) -> None:
    """“Unirse a Nuestra mesa”, never “Unirse aNuestra mesa”: a button's text and the name
    in it are one flex item."""
    lang, pages = evening
    split = [(url, words) for url, page in pages.items() for words in page.split]
    assert not split, f"{lang}: buttons whose words and names are laid out apart: {split}"


# ---- the register, and players of either gender ------------------------------------------

#: Forms a family does not use: *usted*/*vosotros*, *Lei*/*voi*.
NOT_THE_REGISTER = {
    "es": r"\b(?:usted|ustedes|vosotros|vosotras|vuestr\w*|abrid|apuntad|tocad|elegid"
          r"|escribid)\b",
    "it": r"\b(?:Lei|voi|vostr\w*|aprite|inquadrate|toccate|scegliete|scrivete)\b",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_speaks_to_the_family_alike(lang: str) -> None:
    wrong = [(m.id, s) for m in catalogue(lang) if m.id for s in strings(m)
             if re.search(NOT_THE_REGISTER[lang], s)]
    assert not wrong, f"{lang}: messages in another register: {wrong}"


#: Placeholders that hold a player's name (or names).
NAME_PLACEHOLDERS = re.compile(r"%\((?:name|names|player|players|winner|caller|a|b|gone|"
                               r"given_name)\)s")
#: Words that agree with a person's gender: wrong for Ana or for Beppe.
GENDERED = {
    # (a participle after *ha* takes no gender in Spanish: *ha cerrado*, *se ha retirado*)
    "es": r"\b(?:únic[oa]|sentad[oa]s?|(?<!ha )retirad[oa]|ganador[a]?|dueñ[oa]|"
          r"bienvenid[oa]s?|junt[oa]s|empatad[oa]s)\b",
    "it": r"\b(?:arrivat[oa]|entrat[oa]|sedut[oaie]|ritirat[oa]|unic[oa]|"
          r"bentornat[oaie]|vincit(?:ore|rice)|chiedigli)\b|\bgli (?:è|sono|resta|restano)\b",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sentence_about_a_named_player_needs_no_gender(lang: str) -> None:
    wrong = []
    for message in catalogue(lang):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if not message.id or not NAME_PLACEHOLDERS.search(" ".join(ids)):
            continue
        wrong += [(ids[0], s) for s in strings(message) if re.search(GENDERED[lang], s)]
    assert not wrong, f"{lang}: sentences about a player that take a gender: {wrong}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reader_is_addressed_without_a_gender(lang: str) -> None:
    """The reader may be anyone: no welcome or role that takes a gender."""
    pattern = {"es": r"\b(?:[Bb]ienvenid[oa]|eres (?:el|la) dueñ[oa])\b",
               "it": r"\b(?:[Bb]entornat[oa]|sei (?:il|la) proprietari[oa])\b"}[lang]
    wrong = [(m.id, s) for m in catalogue(lang) if m.id for s in strings(m)
             if re.search(pattern, s)]
    assert not wrong, wrong


# ---- what the rule book says ---------------------------------------------------------------

@pytest.mark.parametrize(("lang", "decides"), [
    ("es", r"lo que decide es el sitio del comodín o la palabra del jugador"),
    ("it", r"a decidere è la posizione del jolly o la parola del giocatore"),
])
def test_the_joker_rule_is_said_the_right_way_round(lang: str, decides: str) -> None:
    """`meld.joker`: with cards named in any order the referee lists the readings, and
    the joker's place or the player's word decides, never the referee."""
    from referee.rulebook import RULE_TEXTS

    rule = next(r for r in RULE_TEXTS if "the player's word decides" in r.text)
    message = catalogue(lang).get(rule.text)
    assert message is not None
    assert re.search(decides, message.string), message.string
    assert not re.search(r"(?:árbitro|arbitro)[^.;]*,\s*decide", message.string)
