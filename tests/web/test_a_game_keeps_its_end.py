"""A game keeps the moment it ended at the table (issue 24): editing a hand of an old
game, even so that another player wins, never re-stamps it as finished "now", so it
stays on its day, in its season and in its place in the ratings' order.  Recording the
hand that ends a game (at the end, or live) stamps it then."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from referee import parse_cards
from scorebook.extensions import db
from scorebook.models import FINISHED, IN_PROGRESS, WENT_OUT, Game, GameResult
from scorebook.services import games, hands, league, ratings
from scorebook.services.entry import entry_from_text
from tests.web import test_league as base
from tests.web.test_league import result_rows, season_named, the_league

ctx = base.ctx  # the fixtures: an owned league, and its five games (G1 ended 2025-03-01)
made = base.made

G1 = ["Ann", "Ben", "Cy"]
AT_THE_TABLE = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


def played_long_ago(game: Game, when: datetime) -> None:
    """Its hands were recorded at the table on ``when`` (an hour apart, the last at it)."""
    for k, hand in enumerate(reversed(game.hands)):
        hand.created_at = hand.updated_at = when - timedelta(hours=k)
    db.session.commit()


def ben_goes_out_with_the_queens() -> object:
    """G1's hand 3 as it really was: Ben melded the queens and went out, Ann held a 3
    and Cy a 4 (a player who did not go out holds cards: RULES.md out.empty-hand)."""
    return entry_from_text(G1, {"Ben": {"melds": "qs qh qd"}, "Ann": {"hand": "3c"},
                                "Cy": {"hand": "4d"}}, "Ben", None, False, False)


def test_editing_an_old_game_so_another_player_wins_keeps_its_day_and_season(
        made: dict[str, Game]) -> None:
    g1 = made["g1"]
    played_long_ago(g1, AT_THE_TABLE)
    league.prepare(the_league())
    assert g1.winner.name == "Ann" and base.as_utc(g1.finished_at) == AT_THE_TABLE
    order = [r[1] for r in result_rows()]  # (the ratings' order of the games)
    third = g1.hands[2]
    hands.edit_hand(third, ben_goes_out_with_the_queens(), third.version)
    assert games.totals(g1) == [42 - 3, 20 + 30, 5 - 4] and g1.winner.name == "Ben"
    assert g1.status == FINISHED
    assert base.as_utc(g1.finished_at) == AT_THE_TABLE  # not today
    assert [r[1] for r in result_rows()] == order  # still the league's first game
    result = db.session.scalars(db.select(GameResult).where(GameResult.game_id == g1.id)).first()
    assert result is not None and base.as_utc(result.finished_at) == AT_THE_TABLE
    # it counts in the 2025 season, where it was played, and not in today's
    in_2025 = {r.name: r for r in league.standings(the_league(), season_named("2025"))}
    assert in_2025["Ben"].wins == 2 and in_2025["Ann"].wins == 0
    today = league.prepare(the_league())[0]
    assert g1.id not in {g.id for g in db.session.scalars(league.history_query(
        the_league(), today))}
    assert not ratings.refresh(the_league().id)
    assert result_rows() == base.from_scratch()


def test_an_old_game_unfinished_by_an_edit_and_finished_again_keeps_its_day(
        made: dict[str, Game]) -> None:
    g1 = made["g1"]
    played_long_ago(g1, AT_THE_TABLE)
    third = g1.hands[2]
    # a slip: hand 3 entered with nobody melding anything, so nobody reaches 50 ...
    hands.edit_hand(third, entry_from_text(G1, {"Ann": {"hand": "3c"}, "Ben": {"hand": "5h"},
                                                "Cy": {"hand": "4d"}}, None, "stock", False,
                                           False), third.version)
    assert g1.status == IN_PROGRESS and g1.finished_at is None
    # ... put right: the game ended when its last hand was recorded at the table
    hands.edit_hand(third, ben_goes_out_with_the_queens(), third.version)
    assert g1.status == FINISHED and g1.winner.name == "Ben"
    assert base.as_utc(g1.finished_at) == AT_THE_TABLE


def test_the_hand_that_ends_a_game_stamps_it_when_it_is_recorded(
        made: dict[str, Game]) -> None:
    g5 = made["g5"]  # Ann 45, Ben −10, target 50: playing
    assert g5.status == IN_PROGRESS
    before = datetime.now(UTC) - timedelta(seconds=1)
    hands.record_hand(g5, entry_from_text(["Ann", "Ben"], {"Ann": {"melds": "ks kh kd"},
                                                           "Ben": {"hand": "2c"}},
                                          "Ann", None, False, False))
    assert g5.status == FINISHED and g5.winner.name == "Ann"
    assert base.as_utc(g5.finished_at) >= before


def test_a_live_hand_that_ends_a_game_stamps_it_when_it_is_finished(
        made: dict[str, Game]) -> None:
    g5 = made["g5"]
    live = hands.start_live(g5)
    hands.live_meld(live, "Ann", parse_cards("ks kh kd"))
    live.created_at = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)  # started long before
    db.session.commit()
    before = datetime.now(UTC) - timedelta(seconds=1)
    hands.finish_live(live, {"Ben": parse_cards("2c")}, WENT_OUT, "Ann", False)
    assert g5.status == FINISHED and g5.winner.name == "Ann"
    assert base.as_utc(g5.finished_at) >= before
