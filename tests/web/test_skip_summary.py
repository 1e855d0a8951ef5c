"""``make test`` on a machine without Chromium (or without the shared rule book) says
how many tests it skipped and how to run them, instead of a row of bare ``s``; under
``CI=true`` a missing rule book fails the rule-book tests instead."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PATIENCE_S

pytest_plugins = ["pytester"]

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"
ROOT = CONFTEST.parents[1]


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


RULE_BOOK_TESTS = ["tests/referee/test_rulebook.py::test_rule_book_matches_rules_md",
                   "tests/referee/test_rule_coverage.py::test_the_rule_book_defines_rule_ids"]


def run_rule_book_tests(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    """The rule-book tests, in a pytest of their own, with the rule book missing."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["SCOREBOOK_RULES_MD"] = str(tmp_path / "no-such-RULES.md")
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p",
                           "no:cacheprovider", *RULE_BOOK_TESTS], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=PATIENCE_S)


def test_a_missing_rule_book_is_skipped_on_a_machine_but_fails_in_ci(tmp_path: Path) -> None:
    here = run_rule_book_tests(tmp_path, None)
    assert here.returncode == 0, here.stdout + here.stderr
    assert "2 skipped" in here.stdout and "2 rule-book tests skipped" in here.stdout
    ci = run_rule_book_tests(tmp_path, "true")
    assert ci.returncode == 1, ci.stdout + ci.stderr
    assert "2 failed" in ci.stdout
    assert "under CI=true a missing rule book fails" in ci.stdout
