"""The hands' sentences: the services that record hands, read what was sent and answer
the referee's questions (``services/hands.py``, ``entry.py``, ``questions.py``) raise
errors carrying sentences, never words; every sentence they (and the hands' pages) can
raise has a wording in the presenters' catalogue, worded in the page's language, and no
page or API answer shows a sentence's id."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import (
    PlayerHand,
    ScoringError,
    check_meld,
    make_rules,
    parse_card,
    parse_cards,
    score_hand,
)
from scorebook.presenters.bidi import isolate
from scorebook.presenters.sentences import catalogue, say, say_all
from scorebook.services.entry import HandError, entry_from_text
from scorebook.services.errors import sentence

ROOT = Path(__file__).resolve().parents[2]
RAISERS = ["scorebook/services/hands.py", "scorebook/services/entry.py",
           "scorebook/services/questions.py", "scorebook/services/played.py",
           "scorebook/web/hands/views.py",
           "scorebook/api/games.py"]
#: A sentence id as these files write it: ``sentence("hand.game-over", ...)``, and the ids
#: a table of them holds (``_NOT_LAID_OFF``).
SENTENCE_ID = re.compile(r"""["']((?:hand|referee|played)\.[a-z][a-z-]*)["']""")


def raised_ids() -> set[str]:
    found: set[str] = set()
    for name in RAISERS:
        found |= set(SENTENCE_ID.findall((ROOT / name).read_text(encoding="utf-8")))
    return found


def test_the_services_word_nothing_themselves() -> None:
    for name in RAISERS[:4]:
        text = (ROOT / name).read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import) (flask_babel|scorebook\.web)\b", text,
                             re.M), name
        assert "gettext(" not in text, name


def test_every_sentence_the_hands_can_raise_has_a_wording() -> None:
    ids = raised_ids()
    assert len(ids) > 60 and "hand.game-over" in ids and "referee.too-many-ways" in ids
    assert ids - catalogue() == set()


def test_every_hands_wording_is_raised_somewhere() -> None:
    """No wording left behind for a sentence nothing raises (exports raises a few of
    the hands' own, ``hand.verdict``, ``hand.layoff-off-table``, ``hand.not-a-card``)."""
    ours = {i for i in catalogue() if i.startswith(("hand.", "referee.", "played."))}
    assert ours - raised_ids() == set()


def test_a_refused_hand_says_its_ids_to_programs_and_words_to_people(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "en"}):
        with pytest.raises(HandError) as info:
            entry_from_text(["Ann", "Ben"], {"Ann": {"melds": "7s 8s zz"}}, "Ann", "out",
                            False, False)
        error = info.value
        assert str(error) == "hand.not-a-card"
        assert [(p.player, p.field, p.index) for p in error.problems] == [("Ann", "melds", 0)]
        assert error.sentences == [sentence("hand.not-a-card", token="zz")]
        assert say_all(error.sentences) == (
            "“zz” is not a card. Type the rank, then the suit's letter (H ♥ hearts, D ♦ "
            "diamonds, C ♣ clubs, S ♠ spades), like 7s 10h qd; a joker is jk.")


@pytest.mark.parametrize(("said", "english", "spanish"), [
    (sentence("hand.points-missing", name="Ann"),
     f"Enter the points {isolate('Ann')} scored in this hand (0 if none).",
     f"Escribe los puntos que {isolate('Ann')} hizo en esta mano (0 si no hizo ninguno)."),
    (sentence("hand.points-not-a-number", text="lots", most=1000),
     "“lots” is not a whole number of points from −1,000 to 1000.",
     "«lots» no es un número entero de puntos entre −1.000 y 1000."),
    (sentence("hand.saved-elsewhere", number=3, scores=[("Ann", 40), ("Ben", -12), ("Cy", 0)]),
     "Hand 3 was saved on another phone: Ann +40, Ben −12, Cy 0.",
     "La mano 3 se guardó en otro móvil: Ann +40, Ben −12, Cy 0."),
    (sentence("hand.layoff-not-at-high-end", card=parse_card("ah"), owner="Ann", index=1),
     f"A♥ cannot be laid off at the high end of {isolate('Ann')}'s meld 2.",
     f"A♥ no se puede colocar por el extremo de arriba de la combinación 2 de {isolate('Ann')}."),
    (sentence("hand.layoff-not-at-high-end", card=parse_card("ah"), meld="Ann-2"),
     f"A♥ cannot be laid off at the high end of {isolate('Ann')}'s meld 2.",
     f"A♥ no se puede colocar por el extremo de arriba de la combinación 2 de {isolate('Ann')}."),
    (sentence("hand.as-is", text="cards: not a card: '9Z'"),
     "cards: not a card: '9Z'", "cards: not a card: '9Z'"),
])
def test_the_wording_in_english_and_spanish(app: Flask, said, english: str,
                                            spanish: str) -> None:
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert say(said) == english
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert say(said) == spanish


@pytest.mark.parametrize(("more", "language", "words"), [
    (0, "en", "The referee stopped looking after 1,500 milliseconds of computing: no "
              "arrangement melds more points, but one with fewer melds or fewer points left "
              "in the hand might exist."),
    (0, "es", "El árbitro dejó de buscar tras 1.500 milisegundos de cálculo: ninguna otra "
              "forma de agrupar las cartas baja más puntos"),
    (0, "it", "L'arbitro ha smesso di cercare dopo 1.500 millisecondi di calcolo: nessun "
              "altro modo di raggruppare le carte cala più punti"),
    (1, "en", "another might meld up to 1 more point."),
    (1, "es", "otra podría bajar hasta 1 punto más."),
    (1, "it", "un altro potrebbe calare fino a 1 punto in più."),
    (1500, "en", "another might meld up to 1,500 more points."),
    (1500, "es", "otra podría bajar hasta 1.500 puntos más."),
    (1500, "it", "un altro potrebbe calare fino a 1.500 punti in più."),
])
def test_a_best_arrangement_found_within_the_limit_says_so(app: Flask, more: int,
                                                           language: str, words: str) -> None:
    """referee.arrange-best-found: "Group my cards" past the search's limit, in the page's
    language, with its CPU time (a bound of 1,500 ms, to show the thousands) and how many
    more points another split might meld."""
    said = sentence("referee.arrange-best-found", more=more, ms=1_500)
    with app.test_request_context(headers={"Accept-Language": language}):
        assert words in say(said)


def test_a_hand_that_cannot_have_happened_is_worded_from_its_reason(app: Flask) -> None:
    """hand.impossible: a ScoringError no sentence of its own covers, by its reason."""
    pagat = make_rules("pagat-500")
    players = [PlayerHand("Ann", melds=[("Ann-1", parse_cards("7h 8h 9h"))]),
               PlayerHand("Ben", hand=parse_cards("2c kd"))]
    with pytest.raises(ScoringError) as info:
        score_hand(pagat, players, "Ben")
    said = sentence("hand.impossible", error=info.value)
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert say(said) == f"{isolate('Ben')} went out but still holds 2♣ K♦"
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert say(said) == f"{isolate('Ben')} cerró, pero todavía tiene 2♣ K♦"
    assert str(info.value) == "Ben went out but still holds 2C KD"  # the API's English


def test_a_verdict_is_worded_as_the_referee_pages_word_it(app: Flask) -> None:
    verdict = check_meld(parse_cards("7s 8s 10s"), make_rules("rummy-500"))
    with app.test_request_context(headers={"Accept-Language": "en"}):
        english = say(sentence("hand.verdict", verdict=verdict))
    with app.test_request_context(headers={"Accept-Language": "es"}):
        spanish = say(sentence("hand.verdict", verdict=verdict))
    assert "7♠" in english and "neither a set" in english
    assert "7♠" in spanish and spanish != english


def test_no_page_or_answer_shows_an_id(client: FlaskClient, new_game) -> None:
    game_id = new_game(("Ann", "Ben"))
    typed = {"number": "1", "outcome": "p0", "players-0-melds": "7s 8s zz",
             "players-1-layoffs": "ks Cy 1"}
    page = client.post(f"/games/{game_id}/hands/new", data=typed)
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert "is not a card" in text and "is not one of the players" in text
    answer = client.post(f"/games/{game_id}/hands/new", data=typed,
                         headers={"Accept": "application/json"}).get_json()
    api = client.post(f"/api/v1/games/{game_id}/hands",
                      json={"players": [{"name": "Ann", "melds": [], "hand": ["ZZ"]}]})
    assert api.status_code == 400
    ids = raised_ids()
    for said in (text, answer["message"], *(p["message"] for p in answer["problems"]),
                 api.get_json()["error"]["message"]):
        assert not [i for i in ids if i in said], said


@pytest.mark.parametrize(("lang", "low_end", "on_a_set"), [
    ("es", "por el extremo de abajo de la combinación 2 de", "va en la combinación 1 de"),
    ("it", "al lato basso della combinazione 2 di", "va alla combinazione 1 di"),
])
def test_a_meld_inside_a_sentence_takes_the_article_its_preposition_needs(
        app: Flask, lang: str, low_end: str, on_a_set: str) -> None:
    """“… della combinazione 2 di Ann”, never “… di combinazione 2 di Ann”: a meld named
    after a preposition is said with the article Spanish and Italian join to it."""
    with app.test_request_context(headers={"Accept-Language": lang}):
        low = say(sentence("hand.layoff-not-at-low-end", card=parse_card("ah"), owner="Ann",
                           index=1))
        on_set = say(sentence("hand.layoff-end-on-set", card=parse_card("9h"), meld="Ann-1"))
    assert low_end in low and on_a_set in on_set
    assert not re.search(r"\b(?:di|de|a|en|in) combinaci", low + on_set)
