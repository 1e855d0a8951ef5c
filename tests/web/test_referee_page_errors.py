"""Every bad question a referee page can be asked is refused in the page's language.

The pages ask the same questions as the JSON API (:mod:`scorebook.services.questions`);
a :class:`~scorebook.services.payloads.PayloadError` keeps its English for the API, and
the page words its code, reason and parameters.  This walks every code a page can show,
in Spanish and Italian, and fails on English; and it checks that every code the payloads
raise is either walked here or one only the JSON API can be sent."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path
from typing import Any

import pytest

from scorebook.services.payloads import BLANK_TEXT, CARDS_APART

REPO = Path(__file__).resolve().parents[2]
ERROR = re.compile(r'<div class="verdict verdict-error" role="alert">\s*<p class="verdict-word">'
                   r'[^<]*</p>\s*<p>(.*?)</p>', re.S)
TABLE = "A: 7s 8s 9s"
NINETEEN = "\n".join(["7s"] * 19)  # more melds than 54 cards make (18)

#: (code, what tells it apart) → the tool and the question that a page sends for it.
CASES: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {
    ("bad-rules", "rules.not-in-basic"): ("meld", {"family": "basic", "floating": "on",
                                                   "cards": "7s 8s 9s"}),
    ("bad-rules", "rules.floating-discard"): ("meld", {"floating": "on",
                                                       "discard_required": "on",
                                                       "cards": "7s 8s 9s"}),
    ("bad-players", "rules.players"): ("meld", {"family": "basic", "players": 5,
                                                "cards": "7s 8s 9s"}),
    ("bad-card", "token"): ("meld", {"cards": "7s 8s zz"}),
    ("bad-card", "written"): ("layoff", {"table": TABLE, "card": "10s\u00a0"}),
    ("bad-card", CARDS_APART): ("meld", {"cards": "7s\u00a08s 9s"}),
    ("bad-request", BLANK_TEXT): ("layoff", {"table": " : 7s 8s 9s", "card": "10s"}),
    ("bad-text", ""): ("layoff", {"table": "M\x02: 7s 8s 9s", "card": "10s"}),
    ("text-too-long", ""): ("layoff", {"table": "x" * 90 + ": 7s 8s 9s", "card": "10s"}),
    ("too-many-cards", ""): ("meld", {"players": 2, "cards": " ".join(["7s"] * 60)}),
    ("too-many-melds", ""): ("layoff", {"players": 2, "table": NINETEEN, "card": "10s"}),
    ("duplicate-meld", ""): ("layoff", {"table": TABLE + "\nA: 2h 3h 4h", "card": "10s"}),
    ("illegal-meld", ""): ("layoff", {"table": "A: 7s 8h", "card": "10s"}),
    ("ambiguous-meld", ""): ("layoff", {"table": "A: 7s jk jk", "card": "10s"}),
    ("no-jokers", ""): ("layoff", {"family": "rummy-500", "table": TABLE, "card": "jk"}),
    ("too-many-copies", ""): ("layoff", {"players": 2, "table": TABLE, "card": "7s"}),
    ("unknown-meld", ""): ("layoff", {"table": TABLE, "card": "10s", "meld": "Q"}),
    ("empty-pile", ""): ("draw", {"pile": "", "hand": "7s"}),
    ("take-too-deep", ""): ("draw", {"pile": "7s", "hand": "8s", "take": 3}),
    ("missing-names", ""): ("rummy-call", {"pile": "7s", "discarder": "", "caller": "Ann"}),
    ("took-not-in-hand", ""): ("going-out", {"hand": "7s 8s 9s", "took": "kd"}),
}

#: Codes only the JSON API can be sent, and why no page can send them.
API_ONLY = {
    "invalid-json": "a page's question is built as an object, never parsed from text",
    "too-many-values": "(idem: counted while the JSON text is parsed)",
    "too-deep": "(idem)",
    "missing-field": "every tool's form sends each field it needs, empty or not",
    "bad-end": "the end of a lay-off is for /score/hand, which no page asks",
    "bad-points": "points are for /score/hand and the games API",
    "unknown-player": "/score/hand and /score/game only",
    "names-mismatch": "/score/game only",
    "take-not-took": "the discard-draw page sends take, never took",
    "took-not-on-top": "(idem)",
}
#: Codes raised from a variable: a table meld's verdict, the cards' copies, a hand's
#: ScoringError (/score/hand, API only).
VARIABLE = {"ambiguous-meld", "illegal-meld", "no-jokers", "too-many-copies"}


def _error(client: Any, tool: str, args: dict[str, Any], lang: str) -> str:
    response = client.get(f"/referee/{tool}", query_string=args,
                          headers={"Accept-Language": lang})
    assert response.status_code == 400, (tool, args, lang, response.status_code)
    found = ERROR.search(response.get_data(as_text=True))
    assert found, (tool, args, lang)
    return html.unescape(found.group(1)).strip()


@pytest.mark.parametrize("case", list(CASES), ids=["/".join(filter(None, c)) for c in CASES])
def test_every_refusal_is_worded_in_the_pages_language(client: Any,
                                                       case: tuple[str, str]) -> None:
    tool, args = CASES[case]
    english = _error(client, tool, args, "en")
    for lang in ("es", "it"):
        text = _error(client, tool, args, lang)
        assert text != english, (case, lang, text)
        # no sentence of the English one left in it (card tokens and ids may repeat)
        words = {w for w in re.findall(r"[a-z]{4,}", english.lower())}
        english_only = words - set(re.findall(r"[a-z]{4,}", text.lower()))
        assert len(english_only) >= len(words) // 2, (case, lang, text)
        for common in ("the ", " is ", " cannot ", " must ", " only "):
            assert common not in f" {text.lower()} ", (case, lang, common, text)


def _raised_codes() -> set[str]:
    """Every literal code of ``PayloadError(...)`` in the payloads and the questions."""
    codes: set[str] = set()
    for name in ("payloads.py", "questions.py"):
        tree = ast.parse((REPO / "scorebook" / "services" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "PayloadError" \
                    and node.args and isinstance(node.args[0], ast.Constant):
                codes.add(node.args[0].value)
    return codes


def test_every_code_is_walked_or_api_only() -> None:
    walked = {code for code, _kind in CASES}
    raised = _raised_codes() | VARIABLE
    assert not walked & set(API_ONLY)
    assert raised - walked - set(API_ONLY) == set(), "a code no test walks on a page"
    assert set(API_ONLY) <= raised, "an API-only code that is no longer raised"
