"""The layers' import contracts (``[tool.importlinter]`` in pyproject.toml, checked by
``make lint``): they hold on the tree, and each fails on the violation it is there for,
planted in a copy of the packages."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from tests.conftest import PATIENCE_S

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

REFEREE_PURE = "referee imports nothing of ours and no framework (it is pure rules)"
LAYERS = "pages and API over presenters over services over models over the referee"
HELPERS = "the top-level helpers import no page, presenter or API"
NO_GETTEXT = "the services translate nothing (gettext is the presenters' job)"
ROUTES_ON_TOP = "no module imports a page area's routes but app.py and the pages themselves"
NO_CIRCLES = "no import circles among scorebook's modules"
CONTRACTS = (REFEREE_PURE, LAYERS, HELPERS, NO_GETTEXT, ROUTES_ON_TOP, NO_CIRCLES)


def lint_imports(where: Path) -> tuple[int, str]:
    """``lint-imports`` as ``make lint`` runs it, on the packages and pyproject.toml in
    ``where`` (found first on the path, before the installed ones)."""
    done = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=where, capture_output=True,
                          text=True, env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin"},
                          timeout=PATIENCE_S)
    return done.returncode, done.stdout + done.stderr


def status(output: str, contract: str) -> str:
    for line in output.splitlines():
        if line.startswith(contract + " "):
            return line[len(contract) + 1:].split()[0]
    raise AssertionError(f"{contract!r} not reported:\n{output}")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the packages and of pyproject.toml, to plant a violation in."""
    for package in ("referee", "scorebook"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def plant(tree: Path, module: str, line: str) -> None:
    """Add the import ``line`` at the end of ``module`` (a dotted name) in the copy."""
    path = tree.joinpath(*module.split(".")).with_suffix(".py")
    if not path.exists():
        path = tree.joinpath(*module.split("."), "__init__.py")
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def test_the_tree_keeps_every_contract() -> None:
    code, output = lint_imports(ROOT)
    assert code == 0, output
    for contract in CONTRACTS:
        assert status(output, contract) == "KEPT", output


def test_the_copy_keeps_every_contract_before_a_violation(tree: Path) -> None:
    """The planted violations below are what breaks a contract, not the copying."""
    code, output = lint_imports(tree)
    assert code == 0, output


@pytest.mark.parametrize(("module", "line", "broken"), [
    # The referee learns about the scorebook, the web or the database.
    ("referee.melds", "from scorebook.models import Game  # noqa", REFEREE_PURE),
    ("referee.melds", "import app  # noqa", REFEREE_PURE),
    ("referee.cards", "from flask import request  # noqa", REFEREE_PURE),
    ("referee", "import sqlalchemy  # noqa", REFEREE_PURE),
    # A lower layer reaches up: a model or the database extension to a service or a page,
    # a service to a page area, a presenter or the API, a presenter to the pages or the API,
    # the API to the pages.
    ("scorebook.models", "from scorebook.web.main import views  # noqa", LAYERS),
    ("scorebook.extensions", "from scorebook import models  # noqa", LAYERS),
    ("scorebook.models", "from scorebook.services import games  # noqa", LAYERS),
    ("scorebook.services.games", "from scorebook.web.games import views  # noqa", LAYERS),
    ("scorebook.services.ratings", "from scorebook.presenters import charts  # noqa",
     LAYERS),
    ("scorebook.services.stats.records", "import scorebook.api.schemas  # noqa", LAYERS),
    ("scorebook.presenters.charts", "from scorebook.web import boards  # noqa", LAYERS),
    ("scorebook.api.games", "from scorebook.web import boards  # noqa", LAYERS),
    ("scorebook.presenters.charts", "from scorebook.api import openapi  # noqa", LAYERS),
    # A top-level helper imports a page, a presenter or the API.
    ("scorebook.errors", "from scorebook.presenters import wording  # noqa", HELPERS),
    ("scorebook.cli", "import scorebook.api.openapi  # noqa", HELPERS),
    # A service that did not translate starts to.
    ("scorebook.services.ratings", "from flask_babel import gettext  # noqa", NO_GETTEXT),
    ("scorebook.services.stats.recap", "import flask_babel  # noqa", NO_GETTEXT),
    # A presenter imports a page area's routes or forms.
    ("scorebook.presenters.tables", "from scorebook.web.games import views  # noqa",
     ROUTES_ON_TOP),
    ("scorebook.presenters.wording", "import scorebook.web.referee.forms  # noqa",
     ROUTES_ON_TOP),
    # A new circle: bidi is imported by games, forms, league...; a local import counts too.
    ("scorebook.presenters.bidi",
     "def _late():\n    from scorebook.presenters import tables  # noqa", NO_CIRCLES),
    ("scorebook.web.games.forms",
     "def _late():\n    from scorebook.web.hands import views  # noqa", NO_CIRCLES),
    ("scorebook.models", "import scorebook.services.hands  # noqa", NO_CIRCLES),
])
def test_a_violation_fails_lint(tree: Path, module: str, line: str, broken: str) -> None:
    plant(tree, module, line)
    code, output = lint_imports(tree)
    assert code != 0, output
    assert status(output, broken) == "BROKEN", output


def test_the_referee_needs_only_the_standard_library() -> None:
    """Stricter than the contract's list of frameworks: any package outside the standard
    library that the referee imported would have to be named here first."""
    graph = grimp.build_graph("referee", include_external_packages=True)
    outside = {module.split(".")[0] for module in graph.modules
               if not module.startswith("referee")}
    assert outside - set(sys.stdlib_module_names) - {"__future__"} == set()
