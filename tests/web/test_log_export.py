"""The table's log is part of the hand (issue 29): a hand logged turn by turn carries its
log in the league's export (its deal, each move as stored with its key and the rule the
table agreed to override), and the import restores it exactly — export → import →
export is identical, through the plain import, the background export job and the
background (streamed) import.  The import replays each log with the referee and refuses,
in words, one that does not replay or whose melds and lay-offs are not the hand's; a
hand without a log keeps the shape it always had.  ``flask scorebook verify`` replays
every stored log too."""

from __future__ import annotations

import copy
import gzip
import io
import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorebook.extensions import db
from scorebook.models import JOB_DONE, Game, Hand, League, PlayedMove
from scorebook.presenters.bidi import plain
from scorebook.presenters.sentences import say_all
from scorebook.services import export_jobs, exports, games, hands
from scorebook.services.entry import entry_from_text
from scorebook.services.exports import LeagueImportError, export_league, import_league
from scorebook.services.played import verify_logs
from scorebook.worker import Worker
from tests.conftest import join_league
from tests.referee.logged_hands import DEEP_DRAW as DEEP
from tests.web.test_played_hand import finish_ann_and_bo, log_all, start, table_of


@pytest.fixture
def app(make_app: Callable[..., Flask], tmp_path: Path) -> Flask:
    if os.environ.get("TEST_DATABASE_URL"):
        return make_app(JOBS_INLINE=False, EXPORT_STEP_SECONDS=0.0, JOBS_PAUSE_SECONDS=0.0)
    return make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'logs.sqlite3'}",
                    JOBS_INLINE=False, EXPORT_STEP_SECONDS=0.0, JOBS_PAUSE_SECONDS=0.0)


def whole(league: League) -> str:
    return json.dumps(export_league(league), ensure_ascii=False, indent=1,
                      sort_keys=True) + "\n"


def logged_league(app: Flask) -> None:
    """Two games of the default league: Ann and Bo's first hand logged (two melds, a
    lay-off) and finished, their second logged and still being played; Ann, Bo and Cy's
    live hand logged with §5's deep draw and a discard the table agreed to."""
    game_id, (one, _two) = table_of(app, "Ann Bo")
    start(one, game_id, "Bo", "9C")
    log_all(one, game_id, "Ann draw\nAnn meld 4S 5S 6S\nAnn discard 2H\n"
                          "Bo draw\nBo meld 7H 8H 9H\nBo discard KC\n"
                          "Ann draw\nAnn layoff 7S Ann-1\nAnn discard 3D")
    finished = finish_ann_and_bo(app, one, game_id)
    assert finished.status_code == 302, finished.get_data(as_text=True)[-1500:]
    start(one, game_id, "Ann", "3C")
    log_all(one, game_id, "Bo draw\nBo discard 5C")
    three_id, (three, _other) = table_of(app, "Ann Bo Cy")
    start(three, three_id, "Cy", "6C")
    log_all(three, three_id, DEEP + "Cy take 5\nCy discard 2C!")


def fresh_install() -> None:
    db.session.remove()
    db.drop_all()
    db.create_all()


@contextmanager
def refusal(words: str) -> Iterator[None]:
    with pytest.raises(LeagueImportError) as caught:
        yield
    message = plain(say_all(caught.value.sentences))
    assert words in message, message


def logs(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [h["log"] for g in data["games"] for h in g["hands"] if "log" in h]


def test_a_logged_hand_exports_its_log_and_imports_back_the_same(app: Flask) -> None:
    logged_league(app)
    with app.test_request_context():
        league = games.default_league()
        expected = whole(league)
        data = json.loads(expected)
        first, second, third = logs(data)
        assert first["dealer"] == "Bo" and first["upcard"] == "9C" and first["dealt"] is None
        assert first["moves"][1] == {
            "player": "Ann", "move": {"move": "meld", "cards": ["4S", "5S", "6S"]},
            "key": "move-0001", "overridden": None, "at": first["moves"][1]["at"]}
        assert first["moves"][7]["move"] == {"move": "layoff", "card": "7S",
                                             "onto": "Ann-1"}
        assert [h["complete"] for g in data["games"] for h in g["hands"]] == [
            True, False, False]
        assert len(second["moves"]) == 2 and second["dealer"] == "Ann"
        assert third["moves"][-1]["move"] == {"move": "discard", "card": "2C",
                                              "agreed": True}
        assert third["moves"][-1]["overridden"] == "log.deep-not-melded"
        assert "".join(exports.export_league_chunks(league, 1)) == expected
        fresh_install()
        imported = import_league(json.loads(expected))
        assert whole(imported) == expected
        stored = list(db.session.scalars(db.select(Game).order_by(Game.id)))
        assert verify_logs(stored) == []
        assert db.session.scalar(db.select(db.func.count(PlayedMove.id))) == 9 + 2 + 12


def test_the_background_export_and_import_keep_the_logs(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export_jobs, "BATCH", 1)
    monkeypatch.setattr(export_jobs, "DIRECT_GAMES", 1)
    logged_league(app)
    client = app.test_client()
    with app.test_request_context():
        league = games.default_league()
        join_league(app, client, league.id)
        expected = whole(league)
    answer = client.post("/league/export")
    found = re.search(r"/jobs/(\d+)$", answer.headers.get("Location", ""))
    assert found, answer.get_data(as_text=True)[-1500:]
    ended = Worker(app, "w1").run_once()
    assert ended is not None and ended.state == JOB_DONE, ended.error
    packed = client.get(f"/league/exports/{found.group(1)}.json.gz").get_data()
    assert json.loads(gzip.decompress(packed)) == json.loads(expected)
    with app.app_context():
        fresh_install()
    owner = app.test_client()
    assert owner.post("/games/new", data={"players-0": "Cy", "players-1": "Dee",
                                          "family": "rummy-500",
                                          "first_dealer": "0"}).status_code == 302
    sent = owner.post("/league/import", content_type="multipart/form-data",
                      data={"file": (io.BytesIO(packed), "league.json.gz")})
    assert sent.status_code == 302, sent.get_data(as_text=True)[-1500:]
    imported = Worker(app, "w2").run_once()
    assert imported is not None and imported.state == JOB_DONE, imported.error
    with app.app_context():
        again = db.session.get(League, imported.result["league"])
        assert again is not None
        assert json.loads(whole(again)) == json.loads(expected)


def test_a_hand_without_a_log_exports_as_before(app: Flask) -> None:
    game_id, _phones = table_of(app, "Ann Bo")
    with app.test_request_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        hands.record_hand(game, entry_from_text(
            ["Ann", "Bo"], {"Ann": {"melds": "4s 5s 6s"}, "Bo": {"hand": "kd"}}, "Ann",
            None, False, False))
        data = export_league(games.default_league())
        (hand,) = data["games"][0]["hands"]
        assert "log" not in hand
        assert set(hand) == {"number", "dealer", "ending", "went_out", "going_rummy",
                             "complete", "points_only", "created_at", "updated_at",
                             "melds", "stranded", "scores"}


def test_the_import_refuses_a_log_that_is_not_its_hand(app: Flask) -> None:
    logged_league(app)
    with app.test_request_context():
        exported = export_league(games.default_league())
        fresh_install()

        def broken(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
            data = copy.deepcopy(exported)
            change(data)
            return data

        def first(data: dict[str, Any]) -> dict[str, Any]:
            log: dict[str, Any] = data["games"][0]["hands"][0]["log"]
            return log

        # a move the log cannot hold: Ann plays Bo's turn
        with refusal("hand 1: its log cannot be replayed at move 4"):
            import_league(broken(lambda d: first(d)["moves"][3].update(player="Ann")))
        # the lay-off moved onto Bo's meld: it replays, but the hand says otherwise
        with refusal("its log's melds and lay-offs are not the hand's: meld"):
            import_league(broken(lambda d: first(d)["moves"][7]["move"].update(
                card="10H", onto="Bo-1")))
        with refusal("cannot be replayed at move 2"):
            import_league(broken(lambda d: first(d)["moves"][1]["move"].update(
                cards=["4S", "5S", "7D"])))
        with refusal("its log says Ann dealt, but the hand says Bo did"):
            import_league(broken(lambda d: first(d).update(dealer="Ann")))
        with refusal("two moves sent with the key move-0000"):
            import_league(broken(lambda d: first(d)["moves"][1].update(key="move-0000")))
        with refusal("overrides a rule by agreement, but the file does not say so"):
            import_league(broken(lambda d: d["games"][1]["hands"][0]["log"]["moves"][-1]
                                 .update(overridden=None)))
        # a refused move the table never agreed to
        with refusal("cannot be replayed at move 12"):
            import_league(broken(lambda d: d["games"][1]["hands"][0]["log"]["moves"][-1]
                                 .update(overridden=None, move={"move": "discard",
                                                                "card": "2C"})))
        assert db.session.scalar(db.select(Game)) is None  # nothing half-written
        assert whole(import_league(exported)) == json.dumps(
            exported, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


@pytest.mark.parametrize("language", ["es", "it"])
def test_the_refusal_is_worded_in_the_readers_language(app: Flask, language: str) -> None:
    logged_league(app)
    with app.test_request_context(headers={"Accept-Language": language}):
        exported = export_league(games.default_league())
        fresh_install()
        exported["games"][0]["hands"][0]["log"]["moves"][7]["move"]["onto"] = "Bo-1"
        exported["games"][0]["hands"][0]["log"]["moves"][7]["move"]["card"] = "10H"
        with pytest.raises(LeagueImportError) as caught:
            import_league(exported)
        message = say_all(caught.value.sentences)
        assert "Ann-1" in message and "log's melds" not in message, message
        assert {"es": "combinación", "it": "combinazione"}[language] in message, message


def test_verify_reports_a_stored_log_that_is_not_its_hand(app: Flask) -> None:
    logged_league(app)
    runner = app.test_cli_runner()
    fine = runner.invoke(args=["scorebook", "verify"])
    assert fine.exit_code == 0, fine.output
    assert "3 hand(s) logged turn by turn" in fine.output
    with app.app_context():
        game = db.session.scalars(db.select(Game).order_by(Game.id)).first()
        assert game is not None
        game_id = game.id
        hand = db.session.scalar(db.select(Hand).where(Hand.game_id == game_id,
                                                       Hand.number == 1))
        assert hand is not None
        hand_id = hand.id
        # the lay-off's move broken: the stored log no longer lays off the 7S
        layoff = db.session.scalar(db.select(PlayedMove).where(
            PlayedMove.hand_id == hand_id, PlayedMove.position == 7))
        assert layoff is not None
        layoff.move = {"move": "discard", "card": "7S"}
        db.session.commit()
    broken = runner.invoke(args=["scorebook", "verify"])
    assert broken.exit_code != 0
    # (Ann discards the 7S, then discards again out of turn)
    assert f"game {game_id} hand 1: its log does not replay at move 9" in broken.output, \
        broken.output
    with app.app_context():
        layoff = db.session.scalar(db.select(PlayedMove).where(
            PlayedMove.hand_id == hand_id, PlayedMove.position == 7))
        assert layoff is not None
        layoff.move = {"move": "layoff", "card": "7S", "onto": "Ann-1"}
        db.session.commit()
        # the log whole, the stored meld changed
        melded = db.session.scalar(db.select(Hand).where(Hand.id == hand_id))
        assert melded is not None
        melded.melds[1].cards[0].card = "10H"
        db.session.commit()
    changed = runner.invoke(args=["scorebook", "verify"])
    assert changed.exit_code != 0
    assert (f"game {game_id} hand 1: its log's melds and lay-offs are not the hand's "
            "(meld Bo-1)") in changed.output, changed.output


def test_an_edited_logged_hand_drops_its_log_and_still_exports(app: Flask) -> None:
    """Editing a finished logged hand changes its melds: the log, which no longer says how
    the hand was recorded, goes with the edit, so verify passes and the league's export
    imports again."""
    logged_league(app)
    with app.test_request_context():
        game = db.session.scalars(db.select(Game).order_by(Game.id)).first()
        assert game is not None
        hand = db.session.scalar(db.select(Hand).where(Hand.game_id == game.id,
                                                       Hand.number == 1))
        assert hand is not None and hand.played is not None
        entry = entry_from_text(["Ann", "Bo"], {
            "Ann": {"melds": "4s 5s 6s 7s"},  # (the 7S melded, not laid off)
            "Bo": {"melds": "7h 8h 9h", "hand": "kd qd"}}, "Ann", None, False, False)
        hand_id = hand.id
        hands.edit_hand(hand, entry, hand.version)
        db.session.remove()
        edited = db.session.get(Hand, hand_id)
        assert edited is not None and edited.played is None and edited.played_moves == []
        stored = list(db.session.scalars(db.select(Game).order_by(Game.id)))
        assert verify_logs(stored) == []
        expected = whole(games.default_league())
        assert len(logs(json.loads(expected))) == 2  # the two hands still as logged
        fresh_install()
        assert whole(import_league(json.loads(expected))) == expected
