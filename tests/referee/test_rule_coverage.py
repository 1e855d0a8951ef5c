"""Every rule id in RULES.md has a test that cites it, and the referee cites no id the
rule book does not define: a new rule cannot be forgotten, a renamed one cannot linger.

RULES.md lives outside the repository (``../shared/RULES.md``); without it these tests
are skipped, and under ``CI=true`` they fail (:func:`tests.conftest.rule_book`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from referee import MESSAGES
from referee.verdict import RULES_MESSAGES, SCORING_MESSAGES, TABLE_MESSAGES
from tests.conftest import rule_book

HERE = Path(__file__).resolve().parent
REPO = Path(__file__).resolve().parents[2]

#: A rule is defined by a list item that starts with its id: "- `draw.deep` (...) — ...".
DEFINITION = re.compile(r"^\s*- `([a-z0-9]+\.[a-z0-9-]+(?:\.[a-z0-9-]+)*)`", re.MULTILINE)
#: Any id-shaped name in backticks, wherever the rule book mentions one.
MENTION = re.compile(r"`([a-z0-9]+\.[a-z0-9-]+)`")




def rule_ids() -> list[str]:
    return sorted(set(DEFINITION.findall(rule_book())))


def cites(text: str, rule_id: str) -> bool:
    """Does ``text`` name ``rule_id`` on its own (``draw.deep`` is not cited by
    ``draw.deep-new-meld``)?"""
    return re.search(rf"(?<![\w.-]){re.escape(rule_id)}(?![\w-])", text) is not None


def test_the_rule_book_defines_rule_ids() -> None:
    ids = rule_ids()
    assert len(ids) >= 40, ids
    for family in ("cards", "values", "meld", "layoff", "turn", "draw", "discard", "rummy",
                   "out", "basic", "score", "game"):
        assert any(i.startswith(family + ".") for i in ids), family


def test_every_mentioned_id_is_defined() -> None:
    """A rule the book refers to (e.g. "see `draw.must-meld`") is one it defines."""
    defined = set(rule_ids())
    mentioned = set(MENTION.findall(rule_book()))
    assert mentioned <= defined, sorted(mentioned - defined)


def _test_texts() -> dict[str, list[str]]:
    """For each test file: the name and docstring of every test function in it."""
    texts: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = []
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                    and node.name.startswith("test_"):
                found.append(f"{node.name}\n{ast.get_docstring(node) or ''}")
        texts[path.name] = found
    return texts


def test_every_rule_id_is_cited_by_a_test() -> None:
    """Each rule id appears in the docstring of at least one test in tests/referee/."""
    texts = [t for found in _test_texts().values() for t in found]
    missing = [rule_id for rule_id in rule_ids() if not any(cites(t, rule_id) for t in texts)]
    assert not missing, f"rule ids no test cites: {missing}"


def test_every_rule_id_is_cited_in_the_test_sources() -> None:
    """And, more loosely, somewhere in tests/referee/*.py (asserting ``verdict.rules``)."""
    sources = "\n".join(p.read_text(encoding="utf-8") for p in HERE.glob("*.py")
                        if p.name != Path(__file__).name)
    missing = [rule_id for rule_id in rule_ids() if not cites(sources, rule_id)]
    assert not missing, missing


def test_the_referee_cites_only_ids_the_rule_book_defines() -> None:
    """Every id-shaped string in referee/ that is not a message code (a verdict's, a
    rule set's error: ``RulesError.code``, a hand's or the table's error: ``reason``,
    ``code``) is a rule id."""
    defined = set(rule_ids())
    shaped = re.compile(r"^[a-z0-9]+\.[a-z0-9-]*[a-z0-9]$")  # not f"meld.ok-{kind}"
    strings: set[str] = set()
    for path in (REPO / "referee").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and shaped.match(node.value):
                strings.add(node.value)
    assert strings, "found no rule ids in referee/"
    codes = {*MESSAGES, *RULES_MESSAGES, *SCORING_MESSAGES, *TABLE_MESSAGES, "rules.invalid"}
    unknown = sorted(strings - codes - defined)
    assert not unknown, f"referee/ cites ids RULES.md does not define: {unknown}"


def test_cites_matches_whole_ids_only() -> None:
    assert cites("see `draw.deep`.", "draw.deep")
    assert cites('("draw.deep", "x")', "draw.deep")
    assert not cites("`draw.deep-new-meld`", "draw.deep")
    assert not cites("xdraw.deep", "draw.deep")
