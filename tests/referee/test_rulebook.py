"""The rule book in our own words covers exactly the ids of RULES.md, and every
rule id the engine cites has an entry (so every verdict can link to its rule)."""

from __future__ import annotations

import re
from pathlib import Path

from referee.rulebook import OPTION_TEXTS, RULES_BY_ID, SECTIONS, rules_for
from referee.rules import OPTIONS
from referee.verdict import MESSAGES
from tests.conftest import rule_book

REFEREE = Path(__file__).resolve().parents[2] / "referee"
RULE_ID = re.compile(r"\"((?:cards|values|meld|layoff|turn|draw|discard|rummy|out|basic|score|"
                     r"game)\.[a-z0-9-]+)\"")


def test_every_cited_rule_id_has_a_text():
    cited = set()
    for path in REFEREE.glob("*.py"):
        if path.name in {"rulebook.py", "verdict.py"}:
            continue
        cited |= set(RULE_ID.findall(path.read_text(encoding="utf-8")))
    cited -= set(MESSAGES) - set(RULES_BY_ID)  # verdict codes share the dotted style
    assert cited, "the engine cites rule ids"
    assert cited <= set(RULES_BY_ID), sorted(cited - set(RULES_BY_ID))


def test_rule_book_matches_rules_md():
    # (skipped without ../shared/RULES.md; under CI=true a missing rule book fails)
    ids = set(re.findall(r"^- `([a-z0-9.-]+)`", rule_book(), re.M))
    assert ids == set(RULES_BY_ID)


def test_sections_options_and_families():
    assert {r.section for r in RULES_BY_ID.values()} <= set(SECTIONS)
    assert set(OPTION_TEXTS) == set(OPTIONS)
    assert all(r.option in (None, *OPTIONS) for r in RULES_BY_ID.values())
    assert "draw.basic" in {r.id for r in rules_for("basic")}
    assert "draw.basic" not in {r.id for r in rules_for("pagat-500")}
    assert "rummy.call" in {r.id for r in rules_for("pagat-500")}
