"""The scorebook's models and services: games, hands, the live hand, the history and
the score check — what a table would recognise, with RULES.md ids where a rule decides."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner

from referee import PlayerHand, make_rules, parse_card, parse_cards
from scorebook.extensions import db
from scorebook.models import ABANDONED, FINISHED, IN_PROGRESS, Game, HandScore, Player
from scorebook.presenters.sentences import say, say_all
from scorebook.presenters.wording import explain
from scorebook.services import games, hands
from scorebook.services.entry import Entry, HandError, entry_from_text
from scorebook.services.history import changes

NAMES = ["You", "Ada", "Bo"]

# The worked example of score.500 (rummy-500, three players): 13, 64 and -9.
EXAMPLE = {
    "You": {"melds": "7s 8s 9s\n4c 4s 4d", "layoffs": "6s 1\nks Ada 1", "hand": "5h jd 9h ah"},
    "Ada": {"melds": "kh kd kc\n7d 8d 9d 10d"},
    "Bo": {"melds": "5c 6c 7c", "hand": "jc 8h 9c"},
}


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.test_request_context():
        yield


def said(info: pytest.ExceptionInfo[HandError]) -> str:
    """What a refused hand's error says, worded as a page words it."""
    return say_all(info.value.sentences)


def new_game(family: str = "rummy-500", names: list[str] | None = None, first_dealer: int = 0,
             **options: object) -> Game:
    rules = games.build_rules(family, dict(options))
    return games.create_game(games.default_league(), names or NAMES, first_dealer, rules)


def typed(game: Game, texts: dict[str, dict[str, str]], went_out: str | None,
          ending: str | None = None) -> Entry:
    names = [s.player.name for s in game.seats]
    return entry_from_text(names, texts, went_out, ending, False, game.rules.is_basic)


def scores(hand: object) -> dict[str, int]:
    return {s.player.name: s.score for s in hand.scores}  # type: ignore[attr-defined]


#: What the players who did not go out hold in :func:`simple_hand`, in seat order (the
#: one who went out skipped): a spade each, worth 2, 3, 4… (out.empty-hand: a player left
#: with no cards would have gone out).
HELD = ["2s", "3s", "4s", "5s", "6s", "7s", "8s"]


def simple_hand(game: Game, winner: str, meld: str) -> Entry:
    """``winner`` melds ``meld`` and goes out; everyone else melded nothing and holds a
    spade (:data:`HELD`: the first of the others 2♠, the next 3♠…)."""
    others = [s.player.name for s in game.seats if s.player.name != winner]
    texts = {name: {"hand": card} for name, card in zip(others, HELD)}
    return typed(game, {**texts, winner: {"melds": meld}}, winner)


# --- games ---------------------------------------------------------------------------------


def test_default_league_is_made_once(ctx: None) -> None:
    first = games.default_league()
    assert games.default_league().id == first.id
    assert first.name


def test_players_join_the_league_once_by_name(ctx: None) -> None:
    new_game()
    new_game(names=["you", "Cy"])
    names = sorted(p.name for p in db.session.scalars(db.select(Player)))
    assert names == ["Ada", "Bo", "Cy", "You"]


@pytest.mark.parametrize(("family", "count", "ok"), [
    ("pagat-500", 8, True), ("pagat-500", 9, False), ("rummy-500", 1, False),
    ("basic", 4, True), ("basic", 5, False),
])
def test_player_count_is_checked_against_the_family(ctx: None, family: str, count: int,
                                                    ok: bool) -> None:
    """cards.players: 2-8 players, Basic Rummy 2-4."""
    names = [f"P{i}" for i in range(count)]
    if ok:
        assert len(new_game(family, names).seats) == count
    else:
        with pytest.raises(games.GameSetupError) as info:
            new_game(family, names)
        assert info.value.field == "players"
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 0


def test_a_player_cannot_sit_twice(ctx: None) -> None:
    with pytest.raises(games.GameSetupError) as info:
        new_game(names=["Ann", "ann"])
    assert info.value.code == "games.seated-twice"
    assert "seated twice" in say(info.value.sentence)


def test_contradictory_house_rules_are_refused(ctx: None) -> None:
    with pytest.raises(games.GameSetupError):
        games.build_rules("pagat-500", {"floating": True, "discard_required": True})


def test_rules_are_frozen_in_the_game(ctx: None) -> None:
    game = new_game("pagat-500", target=300, must_go_out=True)
    assert game.rules == make_rules("pagat-500", target=300, must_go_out=True)
    assert game.target == 300
    assert game.rules_spec == {"family": "pagat-500", "target": 300, "must_go_out": True}
    basic = new_game("basic", ["A", "B", "C", "D"])
    assert basic.target == 200  # game.target-basic: 200 with four players
    assert basic.rules_spec == {"family": "basic"}


def test_the_deal_passes_to_the_left(ctx: None) -> None:
    """turn.order: the first dealer deals hand 1, then the player to their left."""
    game = new_game(first_dealer=2)
    assert games.next_dealer_position(game) == 2
    hands.record_hand(game, simple_hand(game, "Ada", "2h 3h 4h"), 1)
    assert game.hands[0].dealer.name == "Bo"
    assert games.next_dealer_position(game) == 0
    hands.record_hand(game, simple_hand(game, "Ada", "2c 3c 4c"), 2)
    assert game.hands[1].dealer.name == "You"
    assert games.scoreboard(game).next_dealer == "Ada"


# --- recording hands --------------------------------------------------------------------------


def test_the_rules_example_hand_scores_13_64_minus_9(ctx: None) -> None:
    """score.500 and layoff.owner: the worked example of RULES.md."""
    game = new_game()
    hand = hands.record_hand(game, typed(game, EXAMPLE, "Ada"), 1)
    assert scores(hand) == {"You": 13, "Ada": 64, "Bo": -9}
    assert hand.went_out.name == "Ada" and hand.ending == "out"
    kings = next(m for m in hand.melds if m.label == "Ada-1")
    assert kings.owner.name == "Ada"
    assert [(c.card, c.laid_by.name, c.is_layoff) for c in kings.cards] == [
        ("KH", "Ada", False), ("KD", "Ada", False), ("KC", "Ada", False), ("KS", "You", True)]
    run = next(m for m in hand.melds if m.label == "You-1")
    assert run.kind == "run" and run.reading == "6S 7S 8S 9S"
    assert sorted(s.card for s in hand.stranded if s.player.name == "Bo") == ["8H", "9C", "JC"]
    assert games.totals(game) == [13, 64, -9]
    assert [c.action for c in changes(game)] == ["recorded"]


def test_a_joker_is_stored_with_the_card_it_stands_for(ctx: None) -> None:
    """meld.joker: 6♥ 7♥ 🃏 put down in that order is read as 6-7-8."""
    game = new_game("pagat-500")
    hand = hands.record_hand(game, typed(game, {"Ada": {"melds": "6h 7h jk"},
                                                "You": {"hand": "2c"}, "Bo": {"hand": "3c"}},
                                         "Ada"), 1)
    cards = [c.text for c in hand.melds[0].cards]
    assert cards == ["6H", "7H", "JK=8H"]
    assert scores(hand)["Ada"] == 6 + 7 + 15  # values.joker


def test_an_ambiguous_joker_asks_for_its_card(ctx: None) -> None:
    game = new_game("pagat-500")
    with pytest.raises(HandError) as info:
        hands.record_hand(game, typed(game, {"Ada": {"melds": "9s jk jk"}}, "Ada"), 1)
    problem = info.value.problems[0]
    assert (problem.player, problem.field, problem.index) == ("Ada", "melds", 0)
    assert "joker" in say(problem.sentence)
    assert not game.hands


@pytest.mark.parametrize(("texts", "went_out", "where", "words"), [
    ({"Ada": {"melds": "7s 8s 10s"}}, "Ada", ("Ada", "melds"), "neither a set"),
    ({"Ada": {"melds": "7s 8s 9s", "hand": "7s"}}, "Bo", (None, "cards"), "7♠ appears 2"),
    ({"Ada": {"melds": "7s 8s 9s"}, "Bo": {"layoffs": "kd Ada 1"}}, "Ada", ("Bo", "layoffs"),
     "cannot be laid off"),
    ({"Ada": {"melds": "7s 8s 9s"}, "Bo": {"layoffs": "10s Ada 2"}}, "Ada", ("Bo", "layoffs"),
     "no meld 2"),
    ({"Ada": {"melds": "7s 8s zz"}}, "Ada", ("Ada", "melds"), "“zz” is not a card"),
    ({"Ada": {"melds": "7s 8s 9s", "hand": "2c"}}, "Ada", ("Ada", "hand"), "went out"),
])
def test_bad_hands_are_refused_in_place_and_nothing_is_stored(
        ctx: None, texts: dict[str, dict[str, str]], went_out: str | None,
        where: tuple[str | None, str], words: str) -> None:
    """cards.copies, meld.run, layoff.basic, out.empty-hand."""
    game = new_game()
    with pytest.raises(HandError) as info:
        hands.record_hand(game, typed(game, texts, went_out), 1)
    found = [(p.player, p.field) for p in info.value.problems]
    assert where in found, info.value.problems
    assert words in said(info)
    db.session.rollback()
    assert db.session.scalar(db.select(db.func.count(HandScore.id))) == 0
    assert not game.hands


def test_two_decks_allow_two_copies(ctx: None) -> None:
    """cards.copies and cards.deck: five players shuffle two decks together."""
    game = new_game(names=["A", "B", "C", "D", "E"])
    others = {name: {"hand": card} for name, card in zip("CDE", ["3c", "4c", "5c"])}
    hand = hands.record_hand(game, typed(game, {"A": {"melds": "7s 8s 9s"},
                                                "B": {"melds": "7s 8s 9s", "hand": "2c"},
                                                **others}, "A"), 1)
    assert scores(hand)["B"] == 24 - 2
    with pytest.raises(HandError) as info:
        hands.record_hand(game, typed(game, {"A": {"melds": "7s 8s 9s"},
                                             "B": {"melds": "7s 8s 9s", "hand": "7s"}}, "A"), 2)
    assert "7♠ appears 3" in said(info)


def test_the_same_hand_saved_twice_is_stored_once(ctx: None) -> None:
    game = new_game()
    first = hands.record_hand(game, typed(game, EXAMPLE, "Ada"), 1)
    with pytest.raises(hands.HandConflict) as info:
        hands.record_hand(game, typed(game, EXAMPLE, "Ada"), 1)
    assert info.value.status == 409
    assert info.value.hand_id == first.id
    assert "just recorded" in said(info)
    assert len(game.hands) == 1


def test_a_stale_edit_is_refused(ctx: None) -> None:
    game = new_game()
    hand = hands.record_hand(game, typed(game, EXAMPLE, "Ada"), 1)
    seen = hand.version
    hands.edit_hand(hand, simple_hand(game, "Bo", "2h 3h 4h"), seen)
    assert hand.version == seen + 1
    with pytest.raises(hands.HandConflict) as info:
        hands.edit_hand(hand, typed(game, EXAMPLE, "Ada"), seen)
    assert "changed" in said(info)
    assert scores(hand) == {"You": -2, "Ada": -3, "Bo": 9}


def test_editing_an_early_hand_recomputes_totals_and_winner(ctx: None) -> None:
    """game.target-500 with a lower target: the winner follows the edited cards."""
    game = new_game(target=50)
    first = hands.record_hand(game, simple_hand(game, "Bo", "2h 3h 4h"), 1)
    hands.record_hand(game, typed(game, EXAMPLE, "Ada"), 2)
    assert game.status == FINISHED and game.winner.name == "Ada"
    hands.edit_hand(first, simple_hand(game, "Bo", "kh kd kc ks"), first.version)
    assert games.totals(game) == [13 - 2, 64 - 3, 40 - 9]  # (You holds 2♠, Ada 3♠)
    assert game.status == FINISHED and game.winner.name == "Ada"
    hands.edit_hand(first, simple_hand(game, "Bo", "qh kh ah"), first.version)
    assert games.totals(game) == [13 - 2, 64 - 3, 35 - 9]
    hands.edit_hand(game.hands[1], simple_hand(game, "Ada", "2c 3c 4c"), game.hands[1].version)
    assert game.status == IN_PROGRESS and game.winner is None and game.finished_at is None
    assert [c.action for c in changes(game)] == ["edited", "edited", "edited", "recorded",
                                                 "recorded"]


def test_deleting_a_hand_moves_later_hands_up(ctx: None) -> None:
    game = new_game()
    for k, meld in enumerate(["2h 3h 4h", "2c 3c 4c", "2d 3d 4d"], start=1):
        hands.record_hand(game, simple_hand(game, "Ada", meld), k)
    hands.delete_hand(game.hands[0], game.hands[0].version)
    assert [h.number for h in game.hands] == [1, 2]
    assert games.totals(game) == [-2 - 2, 9 + 9, -3 - 3]  # (You holds 2♠, Bo 3♠)
    assert games.next_hand_number(game) == 3
    assert changes(game)[0].action == "deleted"


def test_no_hand_can_be_recorded_for_a_finished_game(ctx: None) -> None:
    game = new_game(target=20)
    hands.record_hand(game, typed(game, EXAMPLE, "Ada"), 1)
    assert game.status == FINISHED
    with pytest.raises(hands.GameClosed):
        hands.record_hand(game, simple_hand(game, "Bo", "2h 3h 4h"), 2)
    assert len(game.hands) == 1


def test_a_tie_at_the_top_needs_another_hand(ctx: None) -> None:
    """game.target-500: two players on the same highest total play on."""
    game = new_game(target=20)
    hands.record_hand(game, typed(game, {"Ada": {"melds": "kh kd kc"},
                                         "Bo": {"melds": "qh qd qc qs", "hand": "10s"},
                                         "You": {"hand": "2c"}}, "Ada"), 1)
    board = games.scoreboard(game)
    assert game.status == IN_PROGRESS
    assert board.verdict.code == "game.tie"
    assert "another hand" in explain(board.verdict)
    assert board.leaders == ["Ada", "Bo"]


def test_must_go_out_only_the_player_who_went_out_can_win(ctx: None) -> None:
    """game.must-go-out: Bo reaches the target but Ada went out below it."""
    game = new_game(target=20, must_go_out=True)
    hands.record_hand(game, typed(game, {"Ada": {"melds": "2h 3h 4h"},
                                         "Bo": {"melds": "kh kd kc", "hand": "2s"},
                                         "You": {"hand": "3s"}}, "Ada"), 1)
    assert game.status == IN_PROGRESS
    assert games.scoreboard(game).verdict.code == "game.must-go-out"
    hands.record_hand(game, simple_hand(game, "Bo", "2c 3c 4c"), 2)
    assert game.status == FINISHED and game.winner.name == "Bo"


def test_basic_rummy_winner_takes_all_and_the_target_by_player_count(ctx: None) -> None:
    """score.basic, score.going-rummy, game.target-basic: 100 with two players."""
    game = new_game("basic", ["Ann", "Ben"])
    entry = typed(game, {"Ann": {"melds": "2h 3h 4h 5h"}, "Ben": {"hand": "kd qd jd 10d 9d"}},
                  "Ann")
    entry.players = [PlayerHand(p.name, p.melds, p.layoffs, p.hand, p.name == "Ann")
                     for p in entry.players]
    hand = hands.record_hand(game, entry, 1)
    assert scores(hand) == {"Ann": 98, "Ben": 0}
    assert hand.going_rummy
    hands.record_hand(game, typed(game, {"Ann": {"melds": "2c 3c 4c"},
                                         "Ben": {"hand": "2d"}}, "Ann"), 2)
    assert game.status == FINISHED and game.winner.name == "Ann"


def test_basic_rummy_draw_scores_nothing(ctx: None) -> None:
    """basic.stock-reshuffle: the stock ran out twice, nobody scores."""
    game = new_game("basic", ["Ann", "Ben"])
    hand = hands.record_hand(game, typed(game, {"Ann": {"hand": "kd"}, "Ben": {"hand": "2c"}},
                                         None, "draw"), 1)
    assert scores(hand) == {"Ann": 0, "Ben": 0}
    with pytest.raises(HandError) as info:
        hands.record_hand(game, typed(game, {"Ann": {"hand": "kd"}}, None, "stock"), 2)
    assert "how the hand ended" in said(info)


def test_an_abandoned_game_stays_abandoned(ctx: None) -> None:
    game = new_game()
    games.abandon(game)
    db.session.commit()
    with pytest.raises(hands.GameClosed):
        hands.record_hand(game, typed(game, EXAMPLE, "Ada"), 1)
    assert game.status == ABANDONED


def test_a_live_hand_stops_when_its_game_is_abandoned(ctx: None) -> None:
    game = new_game()
    live = hands.start_live(game)
    hands.live_meld(live, "Ada", parse_cards("kh kd kc"))
    games.abandon(game)
    db.session.commit()
    for move in (lambda: hands.live_meld(live, "You", parse_cards("7s 8s 9s")),
                 lambda: hands.live_layoff(live, "You", parse_card("ks"), "Ada-1"),
                 lambda: hands.finish_live(live, {"You": parse_cards("5h")}, "out", "Ada",
                                           False, live.version)):
        with pytest.raises(hands.GameClosed):
            move()
    assert game.status == ABANDONED and not live.complete and len(live.melds) == 1


# --- the live hand --------------------------------------------------------------------------


def test_a_live_hand_stores_the_same_records_as_one_entered_at_the_end(ctx: None) -> None:
    live_game, end_game = new_game(), new_game()
    live = hands.start_live(live_game)
    assert hands.start_live(live_game).id == live.id  # one live hand at a time
    ada_kings = hands.live_meld(live, "Ada", parse_cards("kh kd kc"))
    hands.live_meld(live, "You", parse_cards("7s 8s 9s"))
    hands.live_meld(live, "Bo", parse_cards("5c 6c 7c"))
    hands.live_layoff(live, "You", parse_card("6s"), "You-1")
    hands.live_meld(live, "You", parse_cards("4c 4s 4d"))
    hands.live_layoff(live, "You", parse_card("ks"), ada_kings.label)
    hands.live_meld(live, "Ada", parse_cards("7d 8d 9d 10d"))
    assert games.totals(live_game) == [0, 0, 0]  # an unfinished hand scores nothing yet
    finished = hands.finish_live(
        live, {"You": parse_cards("5h jd 9h ah"), "Bo": parse_cards("jc 8h 9c")}, "out", "Ada",
        False, live.version)
    ended = hands.record_hand(end_game, typed(end_game, EXAMPLE, "Ada"), 1)

    def records(hand: object) -> set[tuple[object, ...]]:
        melds = {(m.owner.name, m.kind, m.reading,
                  tuple(sorted((c.text, c.laid_by.name, c.is_layoff) for c in m.cards)))
                 for m in hand.melds}  # type: ignore[attr-defined]
        stranded = {(s.player.name, s.card) for s in hand.stranded}  # type: ignore[attr-defined]
        return melds | stranded | set(scores(hand).items())

    assert records(finished) == records(ended)
    assert scores(finished) == {"You": 13, "Ada": 64, "Bo": -9}
    assert [c.action for c in changes(live_game)][:2] == ["live-finished", "live-meld"]


def test_a_live_lay_off_finds_its_meld_when_only_one_fits(ctx: None) -> None:
    """layoff.basic, layoff.choice: with no meld chosen, the one meld the card fits is
    taken; where it fits two, the scorer is asked which."""
    game = new_game()
    live = hands.start_live(game)
    hands.live_meld(live, "Ada", parse_cards("kh kd kc"))
    hands.live_meld(live, "Bo", parse_cards("9s 10s js"))
    hands.live_layoff(live, "You", parse_card("ks"), "")
    assert [(m.label, len(m.cards)) for m in live.melds] == [("Ada-1", 4), ("Bo-1", 3)]
    with pytest.raises(HandError) as info:
        hands.live_layoff(live, "You", parse_card("2h"), "")
    assert "fits on no meld" in said(info)
    hands.live_meld(live, "Bo", parse_cards("qh qd qc"))
    with pytest.raises(HandError) as info:
        hands.live_layoff(live, "You", parse_card("qs"), "")
    assert "more than one meld" in said(info)


def test_live_lay_offs_and_melds_are_checked_as_they_go_down(ctx: None) -> None:
    """layoff.basic, layoff.choice, cards.copies, meld.joker."""
    game = new_game("pagat-500")
    live = hands.start_live(game)
    run = hands.live_meld(live, "Ada", parse_cards("6h 7h 8h"))
    with pytest.raises(HandError) as info:
        hands.live_layoff(live, "Bo", parse_card("kd"), run.label)
    assert "fits on no meld" in said(info)
    with pytest.raises(HandError) as info:
        hands.live_meld(live, "Bo", parse_cards("8h 9h 10h"))
    # who already played the card, and how: not only that there is one 8♥ in play
    plain = said(info).replace("\u2068", "").replace("\u2069", "")
    assert "Ada already melded 8♥ in Ada's meld 1" in plain
    with pytest.raises(HandError):
        hands.live_layoff(live, "Bo", parse_card("jk"), run.label)  # which end?
    hands.live_layoff(live, "Bo", parse_card("jk=9h"), run.label)
    hands.live_layoff(live, "You", parse_card("10h"), run.label)  # fits after the joker
    assert [c.text for c in run.cards] == ["6H", "7H", "8H", "JK=9H", "10H"]
    assert hands.live_undo(live, live.version)
    assert [c.text for c in run.cards] == ["6H", "7H", "8H", "JK=9H"]


def test_recording_at_the_end_waits_for_the_live_hand(ctx: None) -> None:
    game = new_game()
    live = hands.start_live(game)
    with pytest.raises(hands.HandConflict) as info:
        hands.record_hand(game, typed(game, EXAMPLE, "Ada"), 1)
    assert info.value.hand_id == live.id


# --- proving the stored scores ------------------------------------------------------------


def test_verify_finds_a_stored_score_that_the_cards_do_not_give(ctx: None,
                                                                 runner: FlaskCliRunner) -> None:
    game = new_game()
    hand = hands.record_hand(game, typed(game, EXAMPLE, "Ada"), 1)
    assert hands.verify([game]) == []
    result = runner.invoke(args=["scorebook", "verify"])
    assert result.exit_code == 0, result.output
    assert "All 1 stored hand(s)" in result.output
    next(s for s in hand.scores if s.player.name == "Bo").score = 99
    db.session.commit()
    assert hands.verify([game]) == [
        "game 1 hand 1: Bo stored 99 (melded 18, stranded 27); the cards give -9 "
        "(melded 18, stranded 27)"]
    result = runner.invoke(args=["scorebook", "verify"])
    assert result.exit_code != 0
    assert "Bo stored 99" in result.output


def test_init_db_shares_no_league(runner: FlaskCliRunner, app: Flask) -> None:
    """Leagues are private: the first browser to start a game gets its own."""
    assert runner.invoke(args=["init-db"]).exit_code == 0
    with app.app_context():
        from scorebook.models import League

        assert db.session.scalar(db.select(db.func.count(League.id))) == 0
