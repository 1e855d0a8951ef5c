"""Merging two names of one person, the right way round, and undoing it.

"Lucia" is a typo for "Lucía" (who used to be Cy). Whichever page the merge starts
from, the page says what each way round keeps (the name that stays, whose games and
hands move, what the one that stays has then) and merges only once a person chose the
name that stays. A merge is recorded as an undoable step; undoing it gives both players
back exactly what they had: their games, hands, melds, cards, scores, results, ratings,
standings of every season and the statistics' sums. On SQLite and PostgreSQL
(``TEST_DATABASE_URL``)."""

# ruff: noqa: F811  (the fixtures come from test_stats)
from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import Column, ForeignKey, Integer, String, Table, select

from scorebook.extensions import db
from scorebook.models import Change, Game, Player, UndoStep
from scorebook.services import games, hands, league
from scorebook.services.entry import entry_from_text
from scorebook.services.stats import cache
from tests.reading import page as page_of
from tests.web.test_stats import ctx, made, play, who  # noqa: F401

#: What a merge and its undo may change besides the players: the versions that tell the
#: kept pages and caches to look again, and when a row was last written.
VOLATILE = {"revision", "ratings_epoch", "updated_at", "stats_stamp", "stats_seen"}
#: The history and the undo steps record the merge and its undo: they grow.
GROWING = {"change", "undo_step", "alembic_version"}


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, as the pages read it once brought up to date (the
    statistics cache refreshed, as a player's page does)."""
    the = games.default_league()
    cache.refresh(the.id)
    db.session.expire_all()
    out: dict[str, list[tuple[Any, ...]]] = {}
    for table in db.metadata.sorted_tables:
        if table.name in GROWING:
            continue
        columns = [c for c in table.c if c.name not in VOLATILE
                   and not (table.name == "game_result" and c.name == "id")]
        out[table.name] = sorted((tuple(r) for r in db.session.execute(select(*columns))),
                                 key=repr)
    return out


def lucia_plays() -> tuple[int, int]:
    """Cy is renamed Lucía; "Lucia" (no accent) then plays two games with Ben, one of
    them in another season, with melds, lay-offs both ways and stranded cards; their
    ids."""
    league.rename_player(who("Cy"), "Lucía")
    first = play(["Lucia", "Ben"], "pagat-500", 60, [
        ({"Lucia": {"melds": "ah 2h 3h\nkc kd ks", "hand": "9d"},
          "Ben": {"melds": "7s 8s 9s", "layoffs": "4h Lucia 1"}}, "Ben", False),
        ({"Lucia": {"melds": "qs ks as\n5c 5h 5s", "layoffs": "ac Ben 1"},
          "Ben": {"melds": "2c 3c 4c", "hand": "7h jk"}}, "Lucia", False),
    ], date(2025, 9, 1))
    second = play(["Ben", "Lucia"], "pagat-500", 50, [
        ({"Ben": {"melds": "10h jh qh\n9c 9d 9h"}, "Lucia": {"hand": "kh 8d"}}, "Ben", False),
    ], date(2026, 5, 1))
    return first.id, second.id


def merge_page(client: FlaskClient, player: Player, other: Player) -> str:
    answer = client.get(f"/league/players/{player.id}/merge?other={other.id}")
    assert answer.status_code == 200
    return page_of(answer)


def test_the_merge_page_says_what_each_way_round_keeps(client: FlaskClient,
                                                       made: dict[str, Game]) -> None:
    lucia_plays()
    typo, right = who("Lucia"), who("Lucía")
    edit = page_of(client.get(f"/league/players/{typo.id}/edit"))
    assert f'action="/league/players/{typo.id}/merge"' in edit  # the merge starts here
    text = merge_page(client, typo, right)  # started from the misspelt name's page
    assert "Which name stays?" in text
    assert "Keep the name Lucía" in text and "Keep the name Lucia" in text
    assert "Lucia's 2 games move to Lucía (3 hands)." in text
    assert "Lucía's 2 games move to Lucia (6 hands)." in text
    assert "The name Lucia leaves the league." in text
    assert "Afterwards Lucía has 4 games and 9 hands." in text
    assert not re.search(r'name="keep"[^>]*checked', text)  # nobody chose for them
    # the same from the right name's page: the same two choices
    other_way = merge_page(client, right, typo)
    assert "Keep the name Lucía" in other_way and "Keep the name Lucia" in other_way


def test_the_name_chosen_stays_from_either_page(client: FlaskClient,
                                                made: dict[str, Game]) -> None:
    lucia_plays()
    typo, right = who("Lucia"), who("Lucía")
    right_id = right.id
    nothing = client.post(f"/league/players/{typo.id}/merge", data={"other": right.id})
    assert nothing.status_code == 400 and "Choose which name stays." in page_of(nothing)
    assert db.session.get(Player, typo.id) is not None  # nothing merged
    merged = client.post(f"/league/players/{typo.id}/merge",
                         data={"other": right.id, "keep": right.id})
    assert merged.status_code == 302
    assert merged.headers["Location"] == f"/league/players/{right_id}"
    db.session.expire_all()
    names = set(db.session.scalars(select(Player.name)))
    assert "Lucía" in names and "Lucia" not in names  # the right name stayed
    assert {s.name: s.games for s in league.standings(games.default_league())}["Lucía"] == 4
    page = page_of(client.get(f"/league/players/{right_id}"))
    assert "Lucia and Lucía are one player now: Lucía." in page
    assert "Lucia merged into Lucía" in page and "Undo this merge" in page


def test_two_players_of_one_table_are_refused(client: FlaskClient,
                                              made: dict[str, Game]) -> None:
    ann, ben = who("Ann"), who("Ben")
    text = merge_page(client, ann, ben)
    assert "sat at the same table in 3 games" in text and 'name="keep"' not in text
    refused = client.post(f"/league/players/{ann.id}/merge",
                          data={"other": ben.id, "keep": ann.id})
    assert refused.status_code == 400 and "same table in 3 games" in page_of(refused)
    assert db.session.get(Player, ben.id) is not None


def test_undo_gives_both_players_back_exactly(client: FlaskClient,
                                              made: dict[str, Game]) -> None:
    lucia_plays()
    typo, right = who("Lucia"), who("Lucía")
    ids = typo.id, right.id
    before = snapshot()
    the = games.default_league()
    seasons = {s.name: league.standings(the, s) for s in league.prepare(the)}
    # the wrong way round, as the family did: Lucia kept, Lucía gone
    assert client.post(f"/league/players/{typo.id}/merge",
                       data={"other": right.id, "keep": typo.id}).status_code == 302
    merged = snapshot()
    assert merged != before
    assert [p.name for p in db.session.scalars(select(Player).where(Player.id.in_(ids)))] \
        == ["Lucia"]
    step = db.session.scalar(select(UndoStep).where(UndoStep.game_id.is_(None)))  # (a merge)
    assert step is not None and step.params["keep"] == "Lucia"
    undone = client.post(f"/league/merges/{step.id}/undo")
    assert undone.status_code == 302 and undone.headers["Location"] == f"/league/players/{ids[1]}"
    after = snapshot()
    for table in before:
        assert after[table] == before[table], table
    the = games.default_league()
    assert {s.name: league.standings(the, s) for s in league.prepare(the)} == seasons
    text = page_of(client.get(f"/league/players/{ids[1]}"))
    assert "The merge is undone: Lucía and Lucia are two players again" in text
    # the history of every game that moved says both
    db.session.expire_all()
    moved = {c.game_id for c in db.session.scalars(select(Change).where(
        Change.action == "players-merged"))}
    assert len(moved) == 2
    for game_id in moved:
        history = page_of(client.get(f"/games/{game_id}/history"))
        assert "Players merged" in history and "Lucía → Lucia" in history
        assert "Merge undone" in history and "Lucia → Lucía" in history
    players = page_of(client.get("/league/players"))
    assert "Lucía merged into Lucia" in players and "Undone on" in players
    again = client.post(f"/league/merges/{step.id}/undo", follow_redirects=True)
    assert "was already undone" in page_of(again)
    assert snapshot() == after


def test_undo_after_the_table_went_on(client: FlaskClient, made: dict[str, Game]) -> None:
    """After the merge a moved game's hand was edited and the kept player played a new
    game: the undo gives the edited hand to the player it moved from, and leaves the new
    game with the player who played it."""
    _first, second = lucia_plays()
    typo, right = who("Lucia"), who("Lucía")
    typo_id = typo.id
    assert client.post(f"/league/players/{right.id}/merge",
                       data={"other": typo.id, "keep": right.id}).status_code == 302
    moved = db.session.get(Game, second)
    assert moved is not None and "Lucía" in [p.name for p in moved.players]
    hand = moved.hands[0]
    names = [p.name for p in moved.players]
    hands.edit_hand(hand, entry_from_text(names, {
        "Ben": {"melds": "10h jh qh\n9c 9d 9h"}, "Lucía": {"hand": "kh 8d 2s"}},
        "Ben", None, False, False), hand.version)
    later = play(["Lucía", "Ann"], "pagat-500", 100, [
        ({"Lucía": {"melds": "as ah ad"}, "Ann": {"hand": "kh"}}, "Lucía", False)], None)
    step = db.session.scalar(select(UndoStep).where(UndoStep.game_id.is_(None)))  # (a merge)
    assert step is not None
    assert client.post(f"/league/merges/{step.id}/undo").status_code == 302
    db.session.expire_all()
    back = db.session.get(Player, typo_id)
    assert back is not None and back.name == "Lucia"
    game = db.session.get(Game, moved.id)
    assert game is not None and [p.name for p in game.players] == ["Ben", "Lucia"]
    assert {s.player.name for s in game.hands[0].scores} == {"Ben", "Lucia"}
    assert {c.player.name for c in game.hands[0].stranded} == {"Lucia"}
    new = db.session.get(Game, later.id)
    assert new is not None and [p.name for p in new.players] == ["Lucía", "Ann"]


def test_an_undo_that_cannot_be_says_why(client: FlaskClient, made: dict[str, Game]) -> None:
    lucia_plays()
    typo, right = who("Lucia"), who("Lucía")
    assert client.post(f"/league/players/{typo.id}/merge",
                       data={"other": right.id, "keep": right.id}).status_code == 302
    step = db.session.scalar(select(UndoStep).where(UndoStep.game_id.is_(None)))  # (a merge)
    assert step is not None
    league.add_player(games.default_league(), "lucia", new_anyway=True)  # came back
    taken = client.post(f"/league/merges/{step.id}/undo", follow_redirects=True)
    assert "lucia is in the league again" in page_of(taken)
    league.rename_player(who("lucia"), "Lucy")
    zoe = league.add_player(games.default_league(), "Zoe")
    league.merge_players(zoe, who("Lucía"))  # Lucía went into Zoe since
    gone = client.post(f"/league/merges/{step.id}/undo", follow_redirects=True)
    assert "Lucía has since been merged into another player" in page_of(gone)
    assert db.session.scalar(select(UndoStep).where(UndoStep.id == step.id)).undone_at is None


def test_a_viewer_sees_the_merges_but_cannot_undo(client: FlaskClient, app,  # type: ignore[no-untyped-def]
                                                  join, made: dict[str, Game]) -> None:
    lucia_plays()
    typo, right = who("Lucia"), who("Lucía")
    league.merge_players(right, typo)
    step = db.session.scalar(select(UndoStep).where(UndoStep.game_id.is_(None)))  # (a merge)
    assert step is not None
    viewer = app.test_client()
    join(viewer, games.default_league().id, "viewer")
    players = page_of(viewer.get("/league/players"))
    assert "Lucia merged into Lucía" in players and "Undo this merge" not in players
    assert viewer.post(f"/league/merges/{step.id}/undo").status_code == 403
    assert viewer.get(f"/league/players/{right.id}/merge").status_code == 403
    assert client.post(f"/league/merges/{step.id + 1}/undo").status_code == 404


@pytest.mark.parametrize("lang, words", [("es", "¿Qué nombre se queda?"),
                                         ("it", "Quale nome resta?")])
def test_the_merge_page_in_every_language(client: FlaskClient, made: dict[str, Game],
                                          lang: str, words: str) -> None:
    zoe = league.add_player(games.default_league(), "Zoe")
    text = page_of(client.get(
        f"/league/players/{who('Ann').id}/merge?other={zoe.id}&lang={lang}"))
    assert words in text


@pytest.fixture
def outside_any_game(made: dict[str, Game]) -> Iterator[tuple[Table, Table]]:
    """Two tables that name players outside any game (none has today; a later one may):
    one keyed by an id, one by the player and a label."""
    nickname = Table("test_nickname", db.metadata,
                     Column("id", Integer, primary_key=True),
                     Column("player_id", ForeignKey("player.id"), nullable=False),
                     Column("text", String(20)))
    badge = Table("test_badge", db.metadata,
                  Column("player_id", ForeignKey("player.id"), primary_key=True),
                  Column("label", String(20), primary_key=True))
    try:
        db.metadata.create_all(db.engine, tables=[nickname, badge])
        yield nickname, badge
    finally:
        db.session.rollback()
        db.metadata.drop_all(db.engine, tables=[badge, nickname])
        db.metadata.remove(badge)
        db.metadata.remove(nickname)


def test_rows_outside_any_game_go_back_too(outside_any_game: tuple[Table, Table]) -> None:
    nickname, badge = outside_any_game
    lucia_plays()
    typo, right = who("Lucia"), who("Lucía")
    typo_id, right_id = typo.id, right.id
    db.session.execute(nickname.insert(), [{"player_id": typo_id, "text": "Lu"},
                                           {"player_id": right_id, "text": "Lulu"}])
    db.session.execute(badge.insert(), [{"player_id": typo_id, "label": "first win"},
                                        {"player_id": right_id, "label": "rummy"}])
    db.session.commit()
    before = [sorted(map(tuple, db.session.execute(select(t)))) for t in (nickname, badge)]
    step = league.merge_players(right, typo)
    assert {r.player_id for r in db.session.execute(select(nickname))} == {right_id}
    league.undo_merge(step)
    db.session.expire_all()
    assert [sorted(map(tuple, db.session.execute(select(t)))) for t in (nickname, badge)] \
        == before
