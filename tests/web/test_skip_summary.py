"""``make test`` on a machine without Chromium (or without the shared rule book) says
how many tests it skipped and how to run them, instead of a row of bare ``s``."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"


def test_skipped_browser_and_rule_book_tests_are_counted_with_a_hint(
        pytester: pytest.Pytester) -> None:
    hook = CONFTEST.read_text(encoding="utf-8")
    start = hook.index("#: Why a test can be skipped")
    end = hook.index("def _test_config")
    pytester.makeconftest("from typing import Any\n\n" + hook[start:end])
    pytester.makepyfile(test_some="""
        import pytest

        def test_browser_one():
            pytest.skip("no Chromium at /usr/bin/chromium")

        def test_browser_two():
            pytest.skip("no Chromium at /usr/bin/chromium")

        def test_rules():
            pytest.skip("the rule book is not at ../shared/RULES.md")

        @pytest.mark.skipif(True, reason="needs SQLite")
        def test_other():
            pass

        def test_runs():
            pass
    """)
    result = pytester.runpytest("-q")
    result.assert_outcomes(passed=1, skipped=4)
    result.stdout.fnmatch_lines([
        "2 browser tests skipped: Chromium was not found: install Debian's package "
        "(apt-get install -y chromium)*",
        "1 rule-book test skipped: ../shared/RULES.md was not found*",
        "1 skipped: needs SQLite",
    ])
