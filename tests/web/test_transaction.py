"""One helper commits: ``scorebook.services.transaction.transaction``.

Its behaviour (commits at the end, rolls back on an exception and re-raises it, nested
blocks join the outer one, which commits once), the services composed inside one
transaction (nothing commits early), and a check of the source: no ``commit`` anywhere
else in scorebook/, and no ``commit=`` flags."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import event, func, select
from sqlalchemy.exc import IntegrityError

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import Game, League, Player
from scorebook.services import games, league
from scorebook.services.transaction import TransactionAborted, transaction

ROOT = Path(__file__).resolve().parents[2]
SCOREBOOK = ROOT / "scorebook"
HELPER = SCOREBOOK / "services" / "transaction.py"


# --- the source: one place commits ---------------------------------------------------------


def commits_in(source: str, where: str = "<source>") -> list[str]:
    """Each ``.commit`` (a call, or the method passed on), ``commit=`` argument and
    ``commit`` parameter in ``source``, as ``where:line: what``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "commit":
            found.append(f"{where}:{node.lineno}: .commit")
        elif isinstance(node, ast.keyword) and node.arg == "commit":
            found.append(f"{where}:{node.value.lineno}: commit= argument")
        elif isinstance(node, ast.arg) and node.arg == "commit":
            found.append(f"{where}:{node.lineno}: commit parameter")
    return found


def test_the_check_finds_a_commit_and_a_commit_flag() -> None:
    source = ("def save(game, commit=True):\n"
              "    if commit:\n"
              "        db.session.commit()\n"
              "finish = db.session.commit\n"
              "save(game, commit=False)\n")
    assert sorted(commits_in(source)) == ["<source>:1: commit parameter",
                                          "<source>:3: .commit", "<source>:4: .commit",
                                          "<source>:5: commit= argument"]
    assert commits_in("with transaction():\n    db.session.add(x)\n") == []


def test_only_the_helper_commits() -> None:
    files = sorted(SCOREBOOK.rglob("*.py"))
    assert HELPER in files and len(files) > 50
    found = [line for path in files if path != HELPER
             for line in commits_in(path.read_text(encoding="utf-8"),
                                    str(path.relative_to(ROOT)))]
    assert found == [], "commit through scorebook.services.transaction.transaction():\n" + \
        "\n".join(found)
    assert commits_in(HELPER.read_text(encoding="utf-8")) != []  # (it does commit)


# --- the helper ----------------------------------------------------------------------------


@pytest.fixture
def ctx(app: Flask) -> Iterator[list[str]]:
    """An app context; yields the list of its session's commits, as they happen."""
    commits: list[str] = []
    with app.test_request_context():
        session = db.session()

        def counted(_session: object) -> None:
            commits.append("commit")

        event.listen(session, "after_commit", counted)
        try:
            yield commits
        finally:
            event.remove(session, "after_commit", counted)


def leagues() -> list[str]:
    return list(db.session.scalars(select(League.name).order_by(League.id)))


def stored() -> list[str]:
    """The league names committed: what a rollback of the session leaves."""
    db.session.rollback()
    return leagues()


def test_a_block_commits_when_it_ends(ctx: list[str]) -> None:
    with transaction():
        db.session.add(League(name="Kept"))
    assert ctx == ["commit"]
    assert stored() == ["Kept"]


def test_a_block_rolls_back_and_re_raises(ctx: list[str]) -> None:
    problem = ValueError("refused")
    with pytest.raises(ValueError) as raised, transaction():
        db.session.add(League(name="Lost"))
        db.session.flush()
        raise problem
    assert raised.value is problem
    assert ctx == [] and stored() == []
    with transaction():  # the session is ready for the next write
        db.session.add(League(name="Next"))
    assert stored() == ["Next"]


def test_a_failed_commit_is_rolled_back_and_raised(ctx: list[str]) -> None:
    with transaction():
        db.session.add(League(name="First"))
    with pytest.raises(IntegrityError), transaction():  # (raised by the commit's flush)
        db.session.add(League(name="Other"))
        db.session.add(League(name="First"))  # a league's name is unique
    assert ctx == ["commit"] and stored() == ["First"]
    with transaction():
        db.session.add(League(name="Then"))
    assert stored() == ["First", "Then"]


def test_nested_blocks_commit_once_at_the_outer_end(ctx: list[str]) -> None:
    with transaction():
        db.session.add(League(name="Outer"))
        with transaction():
            db.session.add(League(name="Inner"))
            with transaction():
                db.session.add(League(name="Innermost"))
            assert ctx == []
        assert ctx == []
        # an inner block flushes as it ends: its rows are written (not yet committed)
        assert db.session.scalar(select(func.count()).select_from(League)
                                 .execution_options(autoflush=False)) == 3
    assert ctx == ["commit"]
    assert stored() == ["Outer", "Inner", "Innermost"]


def test_an_inner_block_never_commits_early(ctx: list[str]) -> None:
    with pytest.raises(RuntimeError, match="later"), transaction():
        with transaction():
            db.session.add(League(name="Inner"))
        raise RuntimeError("later in the same write")
    assert ctx == [] and stored() == []


def test_an_inner_failure_undoes_the_whole_write(ctx: list[str]) -> None:
    with pytest.raises(LookupError), transaction():
        db.session.add(League(name="Outer"))
        with transaction():
            db.session.add(League(name="Inner"))
            raise LookupError("inner")
    assert ctx == [] and stored() == []


def test_an_inner_failure_caught_inside_the_block_commits_nothing(ctx: list[str]) -> None:
    """Half a write is never committed: the inner failure rolled everything back."""
    with pytest.raises(TransactionAborted), transaction():
        db.session.add(League(name="Outer"))
        try:
            with transaction():
                db.session.add(League(name="Inner"))
                raise LookupError("inner")
        except LookupError:
            pass
        db.session.add(League(name="After"))
    assert ctx == [] and stored() == []
    with transaction():  # and the next write commits as usual
        db.session.add(League(name="Next"))
    assert ctx == ["commit"] and stored() == ["Next"]


def test_a_rollback_inside_a_block_commits_nothing_after_it(ctx: list[str]) -> None:
    with pytest.raises(TransactionAborted), transaction():
        db.session.add(League(name="Before"))
        db.session.flush()
        db.session.rollback()
        db.session.add(League(name="After"))
    assert ctx == [] and stored() == []


def test_a_rollback_outside_any_block_changes_nothing(ctx: list[str]) -> None:
    db.session.add(League(name="Dropped"))
    db.session.rollback()
    with transaction():
        db.session.add(League(name="Kept"))
    assert stored() == ["Kept"]


# --- services composed in one transaction --------------------------------------------------


def test_a_service_alone_commits(ctx: list[str]) -> None:
    game = games.create_game(games.default_league(), ["Ann", "Ben"], 0, make_rules("basic"))
    assert len(ctx) == 2  # the default league, then the game
    db.session.rollback()
    assert db.session.get(Game, game.id) is not None


def test_services_inside_a_block_commit_with_it(ctx: list[str]) -> None:
    with transaction():
        own = League(name="Ours")
        db.session.add(own)
        game = games.create_game(own, ["Ann", "Ben"], 0, make_rules("basic"))
        assert game.id is not None  # (flushed: a history entry may name it)
        league.add_player(own, "Cy")
        assert ctx == []
    assert ctx == ["commit"]
    db.session.rollback()
    assert sorted(db.session.scalars(select(Player.name))) == ["Ann", "Ben", "Cy"]


def test_services_inside_a_failed_block_store_nothing(ctx: list[str]) -> None:
    with pytest.raises(RuntimeError), transaction():
        own = League(name="Ours")
        db.session.add(own)
        games.create_game(own, ["Ann", "Ben"], 0, make_rules("basic"))
        league.add_player(own, "Cy")
        raise RuntimeError("the page failed after the services ran")
    assert ctx == [] and stored() == []
    assert db.session.scalar(select(func.count()).select_from(Player)) == 0
