"""Statistics from the cards: every figure on a small hand-made league whose answers
are worked out below, by hand, from the cards (never by the code under test).

Values (500 Rum, ``pagat-500``): 2-9 face value, 10 J Q K 10, an ace 15 but 1 when
melded low in a run, a joker 15.  Basic Rummy: an ace 1, J Q K 10; whoever goes out
takes everyone else's cards, doubled for going Rummy.

G1 — 500 Rum to 100, Ann Ben Cy, finished 2025-03-01 (season 2025)

====  ===============================================  ======================  =========
hand  cards                                            scores                  totals
====  ===============================================  ======================  =========
1     Ann out: AH 2H 3H (low ace: 6), KC KD KS (30)     Ann 36                  36
      Ben: 7S 8S JK=9S (30); lays 4H on Ann's run (4);  Ben 30+4−10 = 24        24
      holds QH (10)
      Cy: lays KH on Ann's kings (10); holds AS 5D (20) Cy 10−20 = −10          −10
2     Ben out: QS KS AS (high ace: 35), 5C 5H 5S (15)   Ben 50                  74
      Ann holds JK 9D (24)                              Ann −24                 12
      Cy: 2C 3C 4C (9), lays 5D on Ben's fives (5),     Cy 9+5−7 = 7            −3
      holds 7H (7)
3     Cy out: 10H JH QH (30), 9C 9D 9H (27)             Cy 57                   54
      Ann: AD 2D 3D 4D (low ace: 10), holds KH (10)     Ann 0                   12
      Ben holds 8C 8D (16)                              Ben −16                 58
4     Ann out: JC QC KC AC (high ace: 45), 7D 7H 7S     Ann 66                  78
      (21)
      Ben: lays 10C on Ann's clubs (10), holds AH (15)  Ben −5                  53
      Cy holds JK 4S (19)                               Cy −19                  35
5     Ann out: 8H 9H 10H (27)                           Ann 27                  105 wins
      Ben: 2S 3S 4S (9), holds KD (10)                  Ben −1                  52
      Cy holds QD (10)                                  Cy −10                  25
====  ===============================================  ======================  =========

Ann was 62 behind Ben after hand 2 (her comeback); her lead over the best of the
others went 12, −62, −46, 25, 53: hand 4 moved it most her way (+71, the turning
point).

G2 — 500 Rum to 100, Ann Ben, finished 2025-06-01 (season 2025)

1. Ann out: 9S 10S JS QS KS (49).  Ben holds JK JK AS (45): −45.
2. Ben out: AH AC AD AS (60), 2H 3H 4H 5H 6H 7H (27), lays 7C and 3C on Ann's clubs
   (10): 97.  Ann: 4C 5C 6C (15), holds KC (10): 5.  Totals Ann 54, Ben 52.
3. Ben out: JK=JD QD KD (35), 8D 8H 8S (24): 59.  Ann holds 2D: −2.  Ben 111 wins.

Ben was 94 behind after hand 1 (the league's biggest comeback); his lead went −94,
−2, 59: the turning point is hand 2 (+92).

G3 — Basic Rummy to 30, Ann Cy, finished 2026-02-01 (season 2026)

1. Cy goes out going Rummy: 7C 8C 9C, KH KS KD.  Ann: AD 2D 3D (low ace: 6 in card
   points), holds QH 5D (15): Cy takes 15 × 2 = 30 and wins.

G4 — 500 Rum, Ann Ben, one hand, still being played: never counted.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

import flask_babel
import pytest
from flask import Flask
from openskill.models import PlackettLuce
from sqlalchemy import func, select

from scorebook.extensions import db
from scorebook.models import (
    FINISHED,
    JOB_DONE,
    JOB_QUEUED,
    Game,
    GameStat,
    Hand,
    HandScore,
    LayoffTally,
    Player,
    PlayerGameStat,
    Season,
    StatTally,
)
from scorebook.services import games, hands, jobs, league
from scorebook.services.entry import entry_from_text
from scorebook.services.stats import cache, cards, rebuild
from scorebook.services.stats.games import game_summary
from scorebook.services.stats.players import HandLink, player_stats
from scorebook.services.stats.recap import recap
from scorebook.services.stats.records import feed_matrix, pair, records
from scorebook.services.stats.scope import Scope

T = dict[str, dict[str, str]]
Hands = list[tuple[T, str | None, bool]]


def play(names: list[str], family: str, target: int, played: Hands,
         finished: date | None) -> Game:
    rules = games.build_rules(family, {"target": target})
    game = games.create_game(games.default_league(), names, 0, rules)
    for texts, out, rummy in played:
        hands.record_hand(game, entry_from_text(names, texts, out, None, rummy,
                                                family == "basic"))
    if finished is not None:
        assert game.status == FINISHED, game
        game.finished_at = datetime(finished.year, finished.month, finished.day, 20, 0,
                                    tzinfo=UTC)
        db.session.commit()
    return game


def build() -> dict[str, Game]:
    g1 = play(["Ann", "Ben", "Cy"], "pagat-500", 100, [
        ({"Ann": {"melds": "ah 2h 3h\nkc kd ks"},
          "Ben": {"melds": "7s 8s jk=9s", "layoffs": "4h Ann 1", "hand": "qh"},
          "Cy": {"layoffs": "kh Ann 2", "hand": "as 5d"}}, "Ann", False),
        ({"Ben": {"melds": "qs ks as\n5c 5h 5s"}, "Ann": {"hand": "jk 9d"},
          "Cy": {"melds": "2c 3c 4c", "layoffs": "5d Ben 2", "hand": "7h"}}, "Ben", False),
        ({"Cy": {"melds": "10h jh qh\n9c 9d 9h"}, "Ann": {"melds": "ad 2d 3d 4d", "hand": "kh"},
          "Ben": {"hand": "8c 8d"}}, "Cy", False),
        ({"Ann": {"melds": "jc qc kc ac\n7d 7h 7s"}, "Ben": {"layoffs": "10c Ann 1",
                                                             "hand": "ah"},
          "Cy": {"hand": "jk 4s"}}, "Ann", False),
        ({"Ann": {"melds": "8h 9h 10h"}, "Ben": {"melds": "2s 3s 4s", "hand": "kd"},
          "Cy": {"hand": "qd"}}, "Ann", False),
    ], date(2025, 3, 1))
    g2 = play(["Ann", "Ben"], "pagat-500", 100, [
        ({"Ann": {"melds": "9s 10s js qs ks"}, "Ben": {"hand": "jk jk as"}}, "Ann", False),
        ({"Ann": {"melds": "4c 5c 6c", "hand": "kc"},
          "Ben": {"melds": "ah ac ad as\n2h 3h 4h 5h 6h 7h", "layoffs": "7c Ann 1\n3c Ann 1"}},
         "Ben", False),
        ({"Ben": {"melds": "jk=jd qd kd\n8d 8h 8s"}, "Ann": {"hand": "2d"}}, "Ben", False),
    ], date(2025, 6, 1))
    g3 = play(["Ann", "Cy"], "basic", 30, [
        ({"Cy": {"melds": "7c 8c 9c\nkh ks kd"}, "Ann": {"melds": "ad 2d 3d", "hand": "qh 5d"}},
         "Cy", True),
    ], date(2026, 2, 1))
    g4 = play(["Ann", "Ben"], "pagat-500", 100, [
        ({"Ann": {"melds": "as ah ad"}, "Ben": {"hand": "kh"}}, "Ann", False),
    ], None)
    return {"g1": g1, "g2": g2, "g3": g3, "g4": g4}


@pytest.fixture
def ctx(app: Flask, client, join) -> Iterator[None]:
    with app.test_request_context():
        join(client, games.default_league().id)
        yield


@pytest.fixture
def made(ctx: None) -> dict[str, Game]:
    built = build()
    the = games.default_league()
    league.prepare(the)
    assert cache.refresh(the.id).changed
    return built


def who(name: str) -> Player:
    found = db.session.scalar(select(Player).where(Player.name == name))
    assert found is not None
    return found


def season(name: str) -> Season:
    found = db.session.scalar(select(Season).where(Season.name == name))
    assert found is not None
    return found


def scope(season_name: str | None = None) -> Scope:
    return Scope(games.default_league().id, season(season_name) if season_name else None)


def stats(name: str, season_name: str | None = None):  # type: ignore[no-untyped-def]
    return player_stats(who(name), scope(season_name))


def test_the_league_is_as_described(made: dict[str, Game]) -> None:
    assert games.totals(made["g1"]) == [105, 52, 25] and made["g1"].winner.name == "Ann"
    assert games.totals(made["g2"]) == [52, 111] and made["g2"].winner.name == "Ben"
    assert games.totals(made["g3"]) == [0, 30] and made["g3"].winner.name == "Cy"
    assert made["g4"].status != FINISHED


# --- the cache agrees with the referee's stored scores --------------------------------------


def test_card_points_add_up_to_the_stored_hand_scores(made: dict[str, Game]) -> None:
    """The database's card values (the referee's values, low and high aces from the
    readings) sum, per player and game, to the scores the referee stored."""
    stored = {(g, p): (int(m), int(s)) for g, p, m, s in db.session.execute(
        select(Hand.game_id, HandScore.player_id, func.sum(HandScore.melded),
               func.sum(HandScore.stranded)).join(Hand).group_by(
            Hand.game_id, HandScore.player_id)).tuples()}
    rows = list(db.session.scalars(select(PlayerGameStat)))
    assert len(rows) == 3 + 2 + 2  # the seats of G1-G3; G4 is not finished
    for r in rows:
        assert (r.melded_points + r.laid_off_points, r.stranded_points) == stored[
            (r.game_id, r.player_id)]


# --- a player's figures ---------------------------------------------------------------------


def test_ann_all_time(made: dict[str, Game]) -> None:
    g1, g2 = made["g1"].id, made["g2"].id
    ann = stats("Ann")
    s = ann.sums
    # hands: 5 in G1, 3 in G2, 1 in G3; out in G1 hands 1, 4, 5 and G2 hand 1
    assert (s.games, s.hands, s.card_hands, s.left_out, s.hands_out) == (3, 9, 9, 0, 4)
    assert s.points == 105 + 52 + 0 and s.avg_hand == pytest.approx(157 / 9)
    assert ann.best == HandLink(66, g1, 4) and ann.worst == HandLink(-24, g1, 2)
    assert ann.longest_out == HandLink(2, g1, 4)  # G1 hands 4 and 5
    assert (s.going_rummy, ann.basic_games, ann.joker_games) == (0, 1, 2)
    # melded G1 6+30 +10 +45+21 +27 = 139, G2 49+15 = 64, G3 1+2+3 = 6 (Basic values)
    assert (s.melded_points, s.laid_off_points, s.stranded_points) == (209, 0, 24 + 10 + 10
                                                                      + 2 + 15)
    assert (s.melded_cards, s.laid_off_cards, s.stranded_cards) == (20 + 8 + 3, 0, 3 + 2 + 2)
    assert s.per_hand("melded_points") == pytest.approx(209 / 9)
    # caught holding cards: G1 hands 2 and 3, G2 hands 2 and 3, G3 hand 1
    assert s.caught == 5 and s.caught_rate == pytest.approx(5 / 9)
    assert s.caught_cost == pytest.approx(61 / 5)
    assert ann.most_stranded_hand == HandLink(24, g1, 2)
    # jokers: only the one stranded in G1 hand 2
    assert (s.jokers, s.jokers_melded, s.jokers_laid_off, s.jokers_stranded) == (1, 0, 0, 1)
    assert (s.joker_points, s.joker_stranded_points, s.joker_net) == (0, 15, -15)
    # aces: low AH (G1 h1), AD (G1 h3), AD (G3); high AC (G1 h4)
    assert (s.aces_low, s.aces_high, s.aces_in_sets, s.aces_stranded) == (3, 1, 0, 0)
    # melds: kings and sevens; runs A-3♥ A-4♦ J-A♣ 8-10♥, 9-K♠ 4-6♣, A-3♦
    assert (s.sets, s.runs, s.melds) == (2, 7, 9)
    assert ann.longest_run == HandLink(5, g2, 1)
    # nobody's melds took her cards; Ben laid off 4H, 10C (G1), 7C, 3C (G2); Cy KH
    assert (s.layoffs_on_others, s.layoffs_on_own, s.fed_by_others) == (0, 0, 5)
    assert [(f.name, f.gave, f.got) for f in ann.feeds] == [("Ben", 0, 4), ("Cy", 0, 1)]
    # cards melded twice: 2D 3D AD (G1 h3, G3), KC (G1 h1, h4), KS (G1 h1, G2 h1)
    assert [(c.item, c.count) for c in ann.luckiest] == [("2D", 2), ("3D", 2), ("AD", 2)]
    # stranded once each: 9D KH (G1), KC 2D (G2), QH 5D (G3); the joker is left out
    assert [(c.item, c.count) for c in ann.most_stranded] == [("2D", 1), ("5D", 1), ("9D", 1)]
    # every meld shape once: the first three in order
    assert [c.item for c in ann.favourite_melds] == ["R:C:11-14", "R:C:4-6", "R:D:1-3"]
    assert ann.favourite_melds[0].shape.cards == ["JC", "QC", "KC", "AC"]


def test_ben_all_time(made: dict[str, Game]) -> None:
    g2 = made["g2"].id
    ben = stats("Ben")
    s = ben.sums
    assert (s.games, s.hands, s.hands_out, s.points) == (2, 8, 3, 52 + 111)
    assert ben.best == HandLink(97, g2, 2) and ben.worst == HandLink(-45, g2, 1)
    assert ben.longest_out == HandLink(2, g2, 2)
    # melded G1 30 + 35+15 + 9, G2 60+27 + 35+24; laid off 4 + 10, 7 + 3
    assert (s.melded_points, s.laid_off_points, s.stranded_points) == (235, 24, 51 + 45)
    assert (s.melded_cards, s.laid_off_cards, s.stranded_cards, s.caught) == (28, 4, 8, 5)
    assert ben.most_stranded_hand == HandLink(45, g2, 1)
    # jokers: JK=9S (G1), JK=JD (G2) melded; two held in G2 hand 1
    assert (s.jokers, s.jokers_melded, s.jokers_stranded, s.joker_net) == (4, 2, 2, 0)
    # aces: AS high in Q-K-A♠, four in the set of aces; AH (G1 h4) and AS (G2 h1) held
    assert (s.aces_low, s.aces_high, s.aces_in_sets) == (0, 1, 4)
    assert (s.aces_stranded, s.aces_stranded_points) == (2, 30)
    assert (s.sets, s.runs) == (3, 5) and ben.longest_run == HandLink(6, g2, 2)
    assert (s.layoffs_on_others, s.fed_by_others) == (4, 1)
    assert [(f.name, f.gave, f.got) for f in ben.feeds] == [("Ann", 4, 0), ("Cy", 0, 1)]
    # 4H 5H 8S AS were in his melds in both games
    assert [(c.item, c.count) for c in ben.luckiest] == [("4H", 2), ("5H", 2), ("8S", 2)]
    assert [c.item for c in ben.favourite_melds] == ["R:D:11-13", "R:H:2-7", "R:S:12-14"]


def test_cy_all_time(made: dict[str, Game]) -> None:
    g1, g3 = made["g1"].id, made["g3"].id
    cy = stats("Cy")
    s = cy.sums
    assert (s.games, s.hands, s.hands_out, s.points, s.going_rummy) == (2, 6, 2, 55, 1)
    assert cy.best == HandLink(57, g1, 3) and cy.worst == HandLink(-19, g1, 4)
    assert cy.longest_out == HandLink(1, g1, 3)  # a tie with G3: the earlier game
    assert (cy.basic_games, cy.joker_games) == (1, 1)
    assert (s.melded_points, s.laid_off_points, s.stranded_points) == (66 + 54, 15, 56)
    assert (s.jokers_stranded, s.aces_stranded, s.aces_stranded_points) == (1, 1, 15)
    assert (s.sets, s.runs, s.layoffs_on_others, s.fed_by_others) == (2, 3, 2, 0)
    assert cy.longest_run == HandLink(3, g1, 2)
    assert cy.most_stranded_hand == HandLink(20, g1, 1)
    assert stats("Cy", "2026").sums.going_rummy == 1  # G3 hand 1
    assert g3 in {r.game_id for r in records(scope("2026"))}


def test_a_season_counts_only_its_games(made: dict[str, Game]) -> None:
    ann = stats("Ann", "2026")  # G3 alone
    s = ann.sums
    assert (s.games, s.hands, s.points, s.melded_points, s.stranded_points) == (1, 1, 0, 6, 15)
    assert (s.aces_low, s.runs, ann.joker_games, ann.basic_games) == (1, 1, 0, 1)
    assert ann.longest_out is None and ann.feeds == []
    assert stats("Ben", "2026").sums.games == 0


def rating_after(*games_played: tuple[list[str], list[int]]) -> dict[str, float]:
    """Replay games (names, finishing places) with openskill itself."""
    model = PlackettLuce()
    now: dict[str, Any] = {}
    for names, places in games_played:
        teams = [[now.get(n, model.rating())] for n in names]
        for n, team in zip(names, model.rate(teams, ranks=places)):
            now[n] = team[0]
    return {n: r.mu for n, r in now.items()}


def test_rating_and_its_trend(made: dict[str, Game]) -> None:
    g1 = (["Ann", "Ben", "Cy"], [1, 2, 3])
    g2 = (["Ann", "Ben"], [2, 1])
    g3 = (["Ann", "Cy"], [2, 1])
    after_g2, after_g3 = rating_after(g1, g2), rating_after(g1, g2, g3)
    all_time = stats("Ann").trend
    assert all_time is not None
    assert (all_time.rating, all_time.games) == (round(40 * after_g3["Ann"]), 3)
    assert all_time.change == round(40 * after_g3["Ann"]) - 1000
    in_2025 = stats("Ann", "2025").trend
    assert in_2025 is not None and in_2025.games == 2
    assert in_2025.change == round(40 * after_g2["Ann"]) - 1000
    in_2026 = stats("Ann", "2026").trend
    assert in_2026 is not None and in_2026.games == 1
    assert in_2026.change == round(40 * after_g3["Ann"]) - round(40 * after_g2["Ann"])
    assert stats("Ben", "2026").trend is None


# --- records, head to head, who feeds whom --------------------------------------------------


def as_rows(found: list[Any]) -> list[tuple[Any, ...]]:
    return [(r.kind, r.value, r.name, r.game_id, r.number) for r in found]


def test_records_all_time_and_by_season(made: dict[str, Game]) -> None:
    g1, g2, g3 = made["g1"].id, made["g2"].id, made["g3"].id
    assert as_rows(records(scope())) == [
        ("highest-hand", 97, "Ben", g2, 2),
        ("comeback", 94, "Ben", g2, 1),        # G1's is 62
        ("longest-game", 5, "Ann", g1, None),
        ("shortest-game", 1, "Cy", g3, None),
        ("hands-in-a-row", 2, "Ann", g1, 4),   # Ben's 2 in G2 came later
        ("most-stranded", 45, "Ben", g2, 1),
    ]
    assert as_rows(records(scope("2025"))) == [
        ("highest-hand", 97, "Ben", g2, 2), ("comeback", 94, "Ben", g2, 1),
        ("longest-game", 5, "Ann", g1, None), ("shortest-game", 3, "Ben", g2, None),
        ("hands-in-a-row", 2, "Ann", g1, 4), ("most-stranded", 45, "Ben", g2, 1)]
    # 2026: no comeback (Cy led from the first hand), nobody out twice in a row
    assert as_rows(records(scope("2026"))) == [
        ("highest-hand", 30, "Cy", g3, 1), ("longest-game", 1, "Cy", g3, None),
        ("shortest-game", 1, "Cy", g3, None), ("most-stranded", 15, "Ann", g3, 1)]


def test_head_to_head(made: dict[str, Game]) -> None:
    ann, ben, cy = who("Ann").id, who("Ben").id, who("Cy").id
    p = pair(scope(), ann, ben)
    # G1 Ann 105 Ben 52 (Ann won, ahead); G2 Ann 52 Ben 111 (Ben won, ahead)
    assert (p.games, p.wins, p.ahead, p.level) == (2, (1, 1), (1, 1), 0)
    assert p.avg_margin == pytest.approx((53 - 59) / 2)
    assert p.widest[0].totals == (105, 52) and p.widest[1].totals == (52, 111)
    assert (p.hands, p.hands_out) == (8, (4, 3))
    assert [g.game_id for g in p.recent] == [made["g2"].id, made["g1"].id]
    q = pair(scope(), ann, cy)  # G1 Ann 105 Cy 25; G3 Ann 0 Cy 30
    assert (q.games, q.wins, q.ahead) == (2, (1, 1), (1, 1))
    assert q.avg_margin == pytest.approx((80 - 30) / 2)
    assert pair(scope("2026"), ann, ben).games == 0


def test_who_feeds_whom(made: dict[str, Game]) -> None:
    m = feed_matrix(scope())
    ann, ben, cy = who("Ann").id, who("Ben").id, who("Cy").id
    assert [name for _id, name in m.players] == ["Ann", "Ben", "Cy"]
    assert m.cards == {(ben, ann): 4, (cy, ann): 1, (cy, ben): 1}
    assert (m.given(ben), m.given(cy), m.taken(ann), m.taken(ben), m.top) == (4, 2, 5, 1, 4)
    assert feed_matrix(scope("2026")).cards == {}


# --- one game -------------------------------------------------------------------------------


def test_a_finished_game_from_its_own_cards(made: dict[str, Game]) -> None:
    g1 = game_summary(made["g1"])
    assert g1 is not None and g1.hands == 5
    assert [(s.name, s.down_points, s.stranded_points) for s in g1.seats] == [
        ("Ann", 139, 34), ("Ben", 89 + 14, 51), ("Cy", 66 + 15, 56)]
    assert [s.name for s in g1.most_melded] == ["Ann"]
    assert [s.name for s in g1.most_stranded] == ["Cy"]
    assert g1.turning is not None
    assert (g1.turning.number, g1.turning.gain, g1.turning.before, g1.turning.after) == (
        4, 71, -46, 25)
    assert (g1.comeback, g1.comeback_hand) == (62, 2)
    g2 = game_summary(made["g2"])
    assert g2 is not None and g2.turning is not None
    assert (g2.turning.number, g2.turning.gain, g2.turning.before, g2.turning.after) == (
        2, 92, -94, -2)
    assert [s.name for s in g2.most_melded] == ["Ben"] == [s.name for s in g2.most_stranded]
    assert game_summary(made["g4"]) is None  # still being played


# --- the season recap -------------------------------------------------------------------------


def test_season_recap_2025(made: dict[str, Game]) -> None:
    the = games.default_league()
    r = recap(the, season("2025"))
    # Ann and Ben: one win each, average place (1+2)/2; Cy third in his one game
    assert [(p.place, p.standing.name) for p in r.table] == [(1, "Ann"), (1, "Ben"),
                                                            (3, "Cy")]
    assert [p.standing.name for p in r.champions] == ["Ann", "Ben"]
    assert len(r.podium) == 3 and (r.games, r.hands) == (2, 8)
    assert [x.kind for x in r.records][:2] == ["highest-hand", "comeback"]
    # Ben leads the best hand (97, first in the list); Ann went out most often (4 of 8);
    # Cy leads nothing: second in lay-offs on others' melds (2 to Ben's 4)
    assert [(g.name, g.key, g.value, g.sample, g.rank, g.ranked) for g in r.signatures] == [
        ("Ann", "out-rate", 0.5, 8, 1, 3), ("Ben", "best-hand", 97, 8, 1, 3),
        ("Cy", "feeder", 2, 5, 2, 2)]


def test_season_recap_2026(made: dict[str, Game]) -> None:
    r = recap(games.default_league(), season("2026"))
    assert [(p.place, p.standing.name) for p in r.table] == [(1, "Cy"), (2, "Ann")]
    # one hand each: too few for the per-hand figures; Ann melded the only low ace
    assert [(g.name, g.key, g.value) for g in r.signatures] == [("Ann", "low-aces", 1),
                                                               ("Cy", "best-hand", 30)]


# --- the cache follows every change ------------------------------------------------------------


def test_an_edited_hand_rebuilds_its_game_only(made: dict[str, Game]) -> None:
    the = games.default_league()
    before = {r.game_id: r.revision for r in db.session.scalars(select(GameStat))}
    fifth = made["g1"].hands[4]
    hands.edit_hand(fifth, entry_from_text(["Ann", "Ben", "Cy"], {
        "Ann": {"melds": "8h 9h 10h jh"}, "Ben": {"melds": "2s 3s 4s", "hand": "kd"},
        "Cy": {"hand": "qd"}}, "Ann", None, False, False), fifth.version)
    assert cache.stale(the.id) == ([made["g1"].id], [])
    assert cache.refresh(the.id).changed
    after = {r.game_id: r.revision for r in db.session.scalars(select(GameStat))}
    assert after[made["g1"].id] > before[made["g1"].id]
    assert {k: v for k, v in after.items() if k != made["g1"].id} == {
        k: v for k, v in before.items() if k != made["g1"].id}
    assert stats("Ann").sums.melded_points == 209 + 10  # the JH
    assert not cache.refresh(the.id).changed


def test_a_game_no_longer_finished_leaves_the_figures(made: dict[str, Game]) -> None:
    the = games.default_league()
    only = made["g3"].hands[0]
    hands.delete_hand(only, only.version)
    assert made["g3"].status != FINISHED
    assert cache.stale(the.id) == ([], [made["g3"].id])
    cache.refresh(the.id)
    assert db.session.get(GameStat, made["g3"].id) is None
    assert db.session.scalar(select(func.count()).select_from(StatTally).where(
        StatTally.game_id == made["g3"].id)) == 0
    assert stats("Cy").sums.going_rummy == 0


def test_merging_a_player_keeps_the_figures_right(made: dict[str, Game]) -> None:
    the = games.default_league()
    play(["Benny", "Cy"], "pagat-500", 50, [
        ({"Benny": {"melds": "jk=9s 10s js qs ks"}, "Cy": {"hand": "2c"}}, "Benny", False),
    ], date(2025, 7, 1))
    league.prepare(the)
    cache.refresh(the.id)
    league.merge_players(who("Ben"), who("Benny"))
    league.prepare(the)
    cache.refresh(the.id)
    s = stats("Ben").sums
    assert (s.games, s.jokers_melded, s.runs) == (3, 3, 6)  # G1, G2 and Benny's game


def test_points_only_hands_are_left_out_of_the_card_figures(
        made: dict[str, Game], monkeypatch: pytest.MonkeyPatch) -> None:
    """The one filter (``cards.counts_cards``) decides which hands the card figures
    read: leaving out every first hand, as points-only hands will be, keeps the points
    and says how many hands were left out."""
    monkeypatch.setattr(cards, "counts_cards", lambda: Hand.number != 1)
    the = games.default_league()
    cache.drop([made[k].id for k in ("g1", "g2", "g3")])
    cache.refresh(the.id)
    s = stats("Ann").sums
    assert (s.hands, s.card_hands, s.left_out, s.points) == (9, 6, 3, 157)
    assert s.melded_points == 209 - 36 - 49 - 6  # G1, G2 and G3 hand 1 left out
    assert s.caught == 4  # G3's only hand is not counted


def test_a_big_first_count_is_spread_over_page_views(
        made: dict[str, Game], monkeypatch: pytest.MonkeyPatch) -> None:
    the = games.default_league()
    cache.drop([made[k].id for k in ("g1", "g2", "g3")])
    db.session.commit()
    monkeypatch.setattr(cache, "CHUNK", 1)
    first = cache.refresh(the.id, budget=0)
    assert (first.changed, first.ready, first.left, first.total) == (True, False, 2, 3)
    second = cache.refresh(the.id, budget=0)
    assert (second.left, second.total) == (1, 3)
    assert cache.refresh(the.id, budget=0).ready
    assert not cache.refresh(the.id, budget=0).changed
    assert stats("Ann").sums.melded_points == 209


# --- the pages ----------------------------------------------------------------------------------


def page_in(client, url: str) -> str:  # type: ignore[no-untyped-def]
    """The page's HTML (the tests share one app context: forget its language first)."""
    flask_babel.refresh()
    return client.get(url).get_data(as_text=True)  # type: ignore[no-any-return]


def test_player_page_shows_the_figures_with_links(client, made: dict[str, Game]) -> None:
    ann = who("Ann")
    page = page_in(client, f"/league/players/{ann.id}?season=all")
    g1 = made["g1"].id
    for text in ("Hand by hand", "Where the points come from", "Jokers", "Aces",
                 "Who feeds whom", f'href="/games/{g1}/hands/4"', "+66", "over 9 hands",
                 "in 3 games", "Where \u2068Ann\u2069&#39;s points come from, per hand",
                 "of 4 aces melded", "in 1 game of Basic Rummy"):
        assert text in page, text
    spanish = page_in(client, f"/league/players/{ann.id}?season=all&lang=es")
    assert "en 3 partidas" in spanish and "en 1 partida de" in spanish


def test_records_page(client, made: dict[str, Game]) -> None:
    page = page_in(client, "/league/records")
    g2 = made["g2"].id
    assert "Records, all time" in page
    assert f'href="/games/{g2}/hands/2">game {g2}, hand 2</a>' in page
    assert "<bdi>Ben</bdi> won from 94 points behind" in page
    assert "Who feeds whom" in page and "Season recaps" in page
    italian = page_in(client, "/league/records?lang=it")
    assert "Record" in italian and "<bdi>Ben</bdi>" in italian
    spring = season("2025")
    assert "season <bdi>2025</bdi>" in page_in(client, f"/league/records?season={spring.id}")
    assert client.get("/league/records?season=999").status_code == 404


def test_head_to_head_page(client, made: dict[str, Game]) -> None:
    ann, ben = who("Ann").id, who("Ben").id
    page = client.get(f"/league/head-to-head?a={ann}&b={ben}&season=all")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "2 games together" in text
    assert "−3.0" in text  # the average margin, with a real minus
    same = client.get(f"/league/head-to-head?a={ann}&b={ann}")
    assert same.status_code == 400 and "Choose two different players." in same.get_data(
        as_text=True)
    assert client.get("/league/head-to-head?a=999&b=1").status_code == 404
    assert client.get("/league/head-to-head?a=x").status_code == 404
    assert client.get("/league/head-to-head").status_code == 200  # the form alone


def test_recap_page_in_three_languages(client, made: dict[str, Game]) -> None:
    spring = season("2025")
    page = page_in(client, f"/league/seasons/{spring.id}/recap")
    assert "Joint champions of the season, with 1 win each." in page
    assert "1 win in 2 games" in page and "0 wins in 1 game" in page
    assert "Everyone's signature" in page and "Print or share" in page
    assert 'id="share-text"' in page and "1. \u2068Ann\u2069: 1 win in 2 games" in page
    es = page_in(client, f"/league/seasons/{spring.id}/recap?lang=es")
    assert "1 victoria en 2 partidas" in es and "0 victorias en 1 partida" in es
    it = page_in(client, f"/league/seasons/{spring.id}/recap?lang=it")
    assert "1 vittoria in 2 partite" in it and "0 vittorie in 1 partita" in it
    assert client.get("/league/seasons/999/recap").status_code == 404


def test_scoreboard_of_a_finished_game_shows_its_figures(client, made: dict[str, Game]
                                                         ) -> None:
    g1 = made["g1"].id
    page = page_in(client, f"/games/{g1}")
    assert "The game in figures" in page and "Turning point" in page
    assert f'href="/games/{g1}/hands/4">Hand 4</a>' in page
    assert "from 46 points behind to 25 points ahead" in page
    playing = page_in(client, f"/games/{made['g4'].id}")
    assert "The game in figures" not in playing


def test_names_with_markup_stay_text(client, made: dict[str, Game]) -> None:
    league.rename_player(who("Cy"), "<b>Cy</b>")
    the = games.default_league()
    league.prepare(the)
    cache.refresh(the.id)
    for url in ("/league/records", f"/league/seasons/{season('2026').id}/recap",
                f"/league/players/{who('<b>Cy</b>').id}"):
        text = page_in(client, url)
        assert "<b>Cy</b>" not in text and "&lt;b&gt;Cy&lt;/b&gt;" in text, url


def test_a_first_count_in_progress_says_so(client, app: Flask, made: dict[str, Game],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    the = games.default_league()
    cache.drop([made[k].id for k in ("g1", "g2", "g3")])
    db.session.commit()
    monkeypatch.setattr(cache, "CHUNK", 1)
    app.config["STATS_REFRESH_SECONDS"] = 0
    page = page_in(client, "/league/records")
    assert "Counting the cards" in page and '<meta http-equiv="refresh"' in page
    assert "2 games of 3 are still to be counted" in page
    # the rest is left to a background job (one per league): the pages count no more
    counting = rebuild.running(the.id)
    assert counting is not None and counting.kind == rebuild.STATS_JOB
    again = page_in(client, "/league/records")
    assert "2 games of 3 are still to be counted" in again
    assert rebuild.start(the.id) is None and rebuild.running(the.id).id == counting.id
    ran = jobs.run_one("test-worker", lambda _job, _said: "")
    assert ran is not None and ran.state == JOB_DONE and ran.done == 2
    done = page_in(client, "/league/records")
    assert "Counting the cards" not in done and "Highest hand" in done
    assert cache.stale(the.id) == ([], [])


def test_the_background_count_gives_the_rows_a_count_in_one_go_gives(
        app: Flask, made: dict[str, Game], monkeypatch: pytest.MonkeyPatch) -> None:
    the = games.default_league()
    tables = (GameStat, PlayerGameStat, StatTally, LayoffTally)

    def rows() -> dict[str, list[tuple[object, ...]]]:
        out = {}
        for model in tables:
            columns = [c for c in model.__table__.columns if c.name != "id"]
            out[model.__name__] = sorted(
                (tuple(repr(v) for v in r) for r in db.session.execute(
                    select(*columns).where(model.game_id.in_([g.id for g in made.values()])))),
                key=repr)
        return out

    cache.refresh(the.id)
    expected = rows()
    cache.drop([g.id for g in made.values()])
    db.session.commit()
    monkeypatch.setattr(rebuild, "FIRST_CHUNK", 1)
    monkeypatch.setattr(rebuild, "LEAST_CHUNK", 1)
    app.config["STATS_STEP_SECONDS"] = 0.0  # one game a step
    assert rebuild.start(the.id) is not None
    stops = iter([False, False, True])  # stopped after two steps: the next worker goes on
    first = jobs.run_one("w1", lambda _job, _said: "", lambda: next(stops, True))
    assert first is not None and first.state == JOB_QUEUED and first.done >= 1
    left, _gone = cache.stale(the.id)
    assert 0 < len(left) < 3
    ended = jobs.run_one("w2", lambda _job, _said: "")
    assert ended is not None and ended.state == JOB_DONE
    assert cache.stale(the.id) == ([], []) and rows() == expected


def test_a_deleted_game_takes_its_figures_with_it(made: dict[str, Game]) -> None:
    the = games.default_league()
    gone = made["g2"].id
    db.session.delete(made["g2"])
    db.session.commit()
    for model in (GameStat, PlayerGameStat, StatTally):
        assert db.session.scalar(select(func.count()).select_from(model).where(
            model.game_id == gone)) == 0
    league.prepare(the)
    cache.refresh(the.id)
    assert stats("Ben").sums.games == 1 and records(scope())[0].value == 66  # Ann, G1


def test_flask_scorebook_stats_counts_every_league(app: Flask, made: dict[str, Game]) -> None:
    cache.drop([made["g1"].id])
    db.session.commit()
    result = app.test_cli_runner().invoke(args=["scorebook", "stats"])
    assert result.exit_code == 0, result.output
    assert "up to date, 3 finished game(s)" in result.output
    again = app.test_cli_runner().invoke(args=["scorebook", "stats"])
    assert "already up to date" in again.output
    assert stats("Ann").sums.melded_points == 209


def test_a_game_moved_to_another_day_counts_in_its_new_season(made: dict[str, Game]) -> None:
    the = games.default_league()
    made["g3"].finished_at = datetime(2025, 12, 1, 20, 0, tzinfo=UTC)  # into 2025
    db.session.commit()
    assert cache.stale(the.id) == ([made["g3"].id], [])
    cache.refresh(the.id)
    ann = stats("Ann", "2025")
    assert (ann.sums.games, ann.sums.hands) == (3, 9)
    assert [(c.item, c.count) for c in ann.luckiest] == [("2D", 2), ("3D", 2), ("AD", 2)]
    assert stats("Ann", "2026").sums.games == 0


def test_every_statistics_page_has_unique_ids_and_labelled_fields(
        client, made: dict[str, Game]) -> None:
    from tests.web.test_markup import _wrapped

    ann, ben = who("Ann").id, who("Ben").id
    for path in (f"/league/players/{ann}?season=all", "/league/records",
                 f"/league/head-to-head?a={ann}&b={ben}",
                 f"/league/seasons/{season('2025').id}/recap", f"/games/{made['g1'].id}"):
        html = page_in(client, path)
        ids = Counter(re.findall(r'\sid="([^"]+)"', html))
        assert [i for i, n in ids.items() if n > 1] == [], path
        labelled = set(re.findall(r'<label[^>]*\sfor="([^"]+)"', html))
        for tag, attrs in re.findall(r"<(input|select|textarea)\b([^>]*)>", html):
            if re.search(r'type="(hidden|submit|button)"', attrs):
                continue
            field = re.search(r'\sid="([^"]+)"', attrs)
            assert (field and field.group(1) in labelled) or _wrapped(html, attrs), (path, tag)


def test_an_ace_laid_off_on_two_to_king_counts_at_the_end_it_went(ctx: None) -> None:
    """``values.ace-end``: the ace at the top of 2…K is high (15), at the bottom low (1);
    the stored reading says which, and the cache reads it from there."""
    run = "2h 3h 4h 5h 6h 7h 8h 9h 10h jh qh kh"  # 2+3+…+9 = 44, 10 J Q K 40: 84
    game = play(["Ann", "Ben"], "pagat-500", 100, [
        ({"Ann": {"melds": run}, "Ben": {"layoffs": "ah Ann 1 high", "hand": "2c"}},
         "Ann", False),
        ({"Ann": {"melds": run}, "Ben": {"layoffs": "ah Ann 1 low", "hand": "2c"}},
         "Ann", False),
    ], date(2025, 9, 1))
    the = games.default_league()
    league.prepare(the)
    cache.refresh(the.id)
    ben = stats("Ben")
    assert (ben.sums.aces_high, ben.sums.aces_low) == (1, 1)
    assert ben.sums.laid_off_points == 15 + 1  # and the scores the referee stored agree
    assert games.totals(game) == [168, 16 - 4]
    assert stats("Ann").sums.fed_by_others == 2


# --- every write reaches the pages (the figures kept in the process included) --------------


def records_said(client) -> str:  # type: ignore[no-untyped-def]
    return page_in(client, "/league/records?season=all")


def test_every_write_reaches_the_records_page(client, made: dict[str, Game]) -> None:
    """A page seen before keeps its figures (scorebook.services.memo) until something
    under them changes: a hand saved, edited or deleted, a game deleted.  Each step's
    answer is worked out from the cards in this module's docstring."""
    page = records_said(client)
    assert "<bdi>Ben</bdi> scored 97 in one hand" in page  # G2 hand 2
    assert "5 hands, won by <bdi>Ann</bdi>" in page  # the longest game: G1
    assert records_said(client) == page  # seen before: the same, from what was kept

    # a hand deleted: G2 is no longer finished, its 97 leaves; Ann's 66 (G1 hand 4) leads
    g2 = made["g2"]
    last = g2.hands[2]
    hands.delete_hand(last, last.version)
    page = records_said(client)
    assert "scored 97" not in page and "<bdi>Ann</bdi> scored 66 in one hand" in page

    # a hand saved: G2 finished again, now with a bigger last hand for Ben:
    # JK=JD QD KD (35), 8D 8H 8S (24), 9S 10S JS QS KS (49) = 108
    hands.record_hand(g2, entry_from_text(["Ann", "Ben"], {
        "Ben": {"melds": "jk=jd qd kd\n8d 8h 8s\n9s 10s js qs ks"}, "Ann": {"hand": "2d"}},
        "Ben", None, False, False))
    assert g2.status == FINISHED
    page = records_said(client)
    assert "<bdi>Ben</bdi> scored 108 in one hand" in page

    # a hand edited: the same hand without the spade run is 59 again; 97 is back on top
    third = g2.hands[2]
    hands.edit_hand(third, entry_from_text(["Ann", "Ben"], {
        "Ben": {"melds": "jk=jd qd kd\n8d 8h 8s"}, "Ann": {"hand": "2d"}},
        "Ben", None, False, False), third.version)
    page = records_said(client)
    assert "<bdi>Ben</bdi> scored 97 in one hand" in page and "108" not in page

    # a game deleted: G1 (5 hands) goes; the longest game is G2's 3 hands
    db.session.delete(made["g1"])
    db.session.commit()
    page = records_said(client)
    assert "5 hands, won by" not in page and "3 hands, won by <bdi>Ben</bdi>" in page


def test_a_renamed_player_is_renamed_in_the_kept_figures(client, made: dict[str, Game]
                                                         ) -> None:
    assert "<bdi>Ben</bdi> won from 94 points behind" in records_said(client)
    league.rename_player(who("Ben"), "Benedetto")
    page = records_said(client)
    assert "<bdi>Benedetto</bdi> won from 94 points behind" in page
    assert "<bdi>Ben</bdi>" not in page


def test_an_imported_league_has_the_same_figures(app: Flask, made: dict[str, Game]) -> None:
    """A league exported and imported again (every game imported) is counted on its
    first view, and gives the figures worked out above."""
    from scorebook.models import League
    from scorebook.services.exports import export_league, import_league

    data = export_league(games.default_league())
    data["league"]["name"] = "The copy"
    empty = League(name="An empty league")
    db.session.add(empty)
    db.session.commit()
    copy = import_league(data, replace=empty)
    assert cache.stale(copy.id)[0]  # nothing counted yet: every game waits
    league.prepare(copy)
    cache.refresh(copy.id)
    assert cache.stale(copy.id) == ([], [])
    found = {r.kind: (r.value, r.name) for r in records(Scope(copy.id))}
    assert found["highest-hand"] == (97, "Ben") and found["comeback"] == (94, "Ben")
    assert found["longest-game"] == (5, "Ann") and found["shortest-game"] == (1, "Cy")
    ann = db.session.scalar(select(Player).where(Player.league_id == copy.id,
                                                 Player.name == "Ann"))
    assert ann is not None
    s = player_stats(ann, Scope(copy.id)).sums
    assert (s.games, s.hands, s.going_rummy) == (3, 9, 0)


def test_games_are_called_by_their_number_in_the_league(client, made: dict[str, Game]
                                                        ) -> None:
    """Every page calls a game by its number within its league (a family's first game
    is Game 1 whatever else the server holds); the links still go by the game's id."""
    g2 = made["g2"]
    g2.number = 41  # as if the server held forty other games of this family's
    db.session.commit()
    page = page_in(client, "/league/records")
    assert f'href="/games/{g2.id}/hands/2">game 41, hand 2</a>' in page
    ann, ben = who("Ann"), who("Ben")
    duel = page_in(client, f"/league/head-to-head?a={ann.id}&b={ben.id}")
    assert "Game 41" in duel


def test_hands_entered_as_points_only_are_left_out_of_the_card_figures(
        made: dict[str, Game]) -> None:
    """The real filter: every first hand marked points only (their cards are left in
    place, so only the flag can leave them out) gives the figures worked out above."""
    for key in ("g1", "g2", "g3"):
        hand = db.session.scalar(select(Hand).where(Hand.game_id == made[key].id,
                                                    Hand.number == 1))
        assert hand is not None
        hand.points_only = True
    db.session.commit()
    the = games.default_league()
    cache.drop([made[k].id for k in ("g1", "g2", "g3")])
    cache.refresh(the.id)
    s = stats("Ann").sums
    assert (s.hands, s.card_hands, s.left_out, s.points) == (9, 6, 3, 157)
    assert s.melded_points == 209 - 36 - 49 - 6
    assert s.caught == 4
