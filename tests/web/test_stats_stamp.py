"""The league's statistics stamp (scorebook.services.stats.fresh): while nothing changed
under the statistics cache, a page reads one row instead of looking for stale games
and versions the figures it keeps by the stamp; every change to a finished game (or to
one that was finished) gives the league a new stamp, so the next page looks again and
shows the change.  On the small league of tests/web/test_stats.py (G1–G3 finished, G4
being played)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorebook.extensions import db
from scorebook.models import FINISHED, Game, League
from scorebook.services import games, hands, league, ratings
from scorebook.services.entry import entry_from_text
from scorebook.services.stats import cache, fresh
from tests.web import test_stats as base
from tests.web.test_stats import who

ctx = base.ctx  # the fixtures: the league of test_stats, built and counted
made = base.made


def stamps() -> tuple[str | None, str | None]:
    db.session.expire_all()
    the = db.session.get(League, games.default_league().id)
    assert the is not None
    return the.stats_stamp, the.stats_seen


def page(client: Any, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return str(response.get_data(as_text=True))


def no_look(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the looks for stale games from here on."""
    looks: list[int] = []
    real = cache.stale

    def counted(league_id: int) -> tuple[list[int], list[int]]:
        looks.append(league_id)
        return real(league_id)
    monkeypatch.setattr(cache, "stale", counted)
    return looks


def test_a_page_marks_the_cache_complete_and_then_reads_one_row(
        client: Any, made: dict[str, Game], monkeypatch: pytest.MonkeyPatch) -> None:
    ann = who("Ann")
    first = page(client, f"/league/players/{ann.id}")
    stamp, seen = stamps()
    assert stamp is not None and seen == stamp  # found complete, under a stamp of its own
    looks = no_look(monkeypatch)
    assert page(client, f"/league/players/{ann.id}") == first
    page(client, "/league/records")
    assert looks == [] and stamps() == (stamp, seen)  # nothing looked for, nothing written


def test_a_hand_of_a_game_being_played_leaves_the_stamp(
        client: Any, made: dict[str, Game], monkeypatch: pytest.MonkeyPatch) -> None:
    page(client, f"/league/players/{who('Ann').id}")
    before = stamps()
    g4 = made["g4"]
    hands.record_hand(g4, entry_from_text(["Ann", "Ben"], {
        "Ben": {"melds": "2s 3s 4s"}, "Ann": {"hand": "kd"}}, "Ben", None, False, False))
    assert g4.status != FINISHED
    assert stamps() == before  # the statistics count finished games only
    looks = no_look(monkeypatch)
    page(client, f"/league/players/{who('Ann').id}")
    assert looks == []


def test_an_edit_of_a_finished_game_is_on_the_next_page(
        client: Any, made: dict[str, Game], monkeypatch: pytest.MonkeyPatch) -> None:
    """Ben's page, seen (its figures kept under the stamp), then G2's last hand deleted
    (G2 is no longer finished: Ben's games go from 2 to 1) and put back."""
    ben = who("Ben")
    path = f"/league/players/{ben.id}?season=all"
    seen_before = page(client, path)
    stamp, _ = stamps()
    g2 = made["g2"]
    last = g2.hands[2]
    hands.delete_hand(last, last.version)
    changed, still = stamps()
    assert changed != stamp and still == stamp  # a new stamp: the cache may be behind
    looks = no_look(monkeypatch)
    after = page(client, path)
    assert looks  # looked for stale games, and found G2 gone
    assert after != seen_before
    stamp, seen = stamps()
    assert stamp == seen and stamp != changed
    the = games.default_league()
    assert cache.stale(the.id) == ([], [])
    assert (db.session.scalar(select(db.func.count()).select_from(Game).where(
        Game.status == FINISHED)) == 2)


def test_a_deleted_or_renamed_game_or_player_moves_the_stamp(
        client: Any, made: dict[str, Game]) -> None:
    page(client, "/league/records?season=all")
    stamp, _ = stamps()
    league.rename_player(who("Cy"), "Cyrus")  # (every game of Cy's moves its revision)
    renamed, _ = stamps()
    assert renamed != stamp
    assert "<bdi>Cyrus</bdi>" in page(client, "/league/records?season=all")
    stamp, _ = stamps()
    db.session.delete(made["g1"])
    db.session.commit()
    assert stamps()[0] != stamp
    assert "5 hands, won by" not in page(client, "/league/records?season=all")


def test_a_write_between_the_look_and_the_mark_leaves_the_next_page_looking(
        app: Flask, made: dict[str, Game], monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that gives the league a new stamp after a page looked (and found nothing
    stale) must not be covered by that page's mark."""
    the_id = games.default_league().id
    real = cache.refresh

    def then_a_write(league_id: int, budget: float | None = None) -> cache.Progress:
        progress = real(league_id, budget)
        ratings.stamp(db.session, [league_id])  # another request's write, committed
        db.session.commit()
        return progress
    monkeypatch.setattr(cache, "refresh", then_a_write)
    found = fresh.ensure(the_id)
    assert found.progress.ready and found.stamp is None  # not marked: nothing kept by it
    stamp, seen = stamps()
    assert stamp != seen
    monkeypatch.setattr(cache, "refresh", real)
    again = fresh.ensure(the_id)
    assert again.stamp is not None and stamps() == (again.stamp, again.stamp)


def test_a_rebuilt_league_gets_a_new_stamp(app: Flask, made: dict[str, Game]) -> None:
    """An import or a merge rebuilds the league's results: its stamp moves on too."""
    the_id = games.default_league().id
    fresh.ensure(the_id)
    stamp, _ = stamps()
    ratings.rebuild(the_id)
    db.session.commit()
    assert stamps()[0] != stamp
