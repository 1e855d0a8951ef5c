"""Rule sets: each family's defaults as RULES.md states them, option overrides, and
the options that are unknown, ill-typed or contradict each other or the family.

Rules: `rummy.mode`, `meld.min-natural`, `meld.once-per-turn`, `values.low-ace`,
`game.target-500`, `game.target-basic` (defaults), and the option rules
`draw.must-meld`, `draw.deep-new-meld`, `out.discard-required`, `out.floating`,
`out.unplayable-discard`, `game.must-go-out` (their switches).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from referee import FAMILIES, RulesError, RuleSet, make_rules
from referee.rules import OPTIONS, Family, RummyCall, ValueScheme
from referee.verdict import RULES_MESSAGES


def test_the_three_families() -> None:
    assert FAMILIES == ("pagat-500", "rummy-500", "basic")


def test_pagat_500_defaults() -> None:
    """pagat-500: jokers on, low-ace value 1, target 500, Rummy calls on the whole
    pile (`rummy.mode` = pile)."""
    rules = make_rules("pagat-500")
    assert rules.family == "pagat-500"
    assert rules.jokers is True
    assert rules.low_ace_value == 1
    assert rules.target == 500
    assert rules.target_for(2) == rules.target_for(8) == 500
    assert rules.rummy_call == "pile"
    assert rules.values == "face"
    assert rules.aces_high and rules.deep_draws


def test_rummy_500_defaults() -> None:
    """rummy-500: no jokers, aces always 15 (low-ace value 15), target 500, Rummy calls
    off (`rummy.mode`)."""
    rules = make_rules("rummy-500")
    assert rules.jokers is False
    assert rules.low_ace_value == 15
    assert rules.target_for(4) == 500
    assert rules.rummy_call == "off"
    assert rules.aces_high and rules.deep_draws


def test_basic_defaults() -> None:
    """basic: no jokers, aces low only, winner takes all, target by player count
    (`game.target-basic`: 100/150/200), no deep draws, no calls."""
    rules = make_rules("basic")
    assert rules.jokers is False
    assert rules.is_basic
    assert not rules.aces_high
    assert not rules.deep_draws
    assert rules.rummy_call == "off"
    assert rules.target is None
    assert [rules.target_for(n) for n in (2, 3, 4)] == [100, 150, 200]


def test_common_option_defaults_are_all_off() -> None:
    """The house-rule options are off by default: `draw.must-meld`, `draw.deep-new-meld`,
    `out.discard-required`, `out.floating`, `out.unplayable-discard`, `game.must-go-out`,
    `meld.once-per-turn`; `meld.min-natural` defaults to one natural card."""
    for family in FAMILIES:
        rules = make_rules(family)
        assert not rules.draw_must_meld
        assert not rules.deep_draw_new_meld
        assert not rules.discard_required
        assert not rules.floating
        assert not rules.unplayable_discard
        assert not rules.must_go_out
        assert not rules.one_meld_per_turn
        assert rules.min_natural_cards == 1


def test_make_rules_accepts_a_mapping_a_name_keywords_or_nothing() -> None:
    assert make_rules() == make_rules("pagat-500")
    assert make_rules(None) == make_rules({"family": "pagat-500"})
    assert make_rules({"family": "rummy-500", "target": 300}).target == 300
    assert make_rules("rummy-500", target=300) == make_rules({"family": "rummy-500",
                                                              "target": 300})


def test_a_rule_set_is_frozen_and_round_trips_through_as_dict() -> None:
    rules = make_rules("pagat-500", floating=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.jokers = False  # type: ignore[misc]
    assert RuleSet(**rules.as_dict()) == rules
    assert set(rules.as_dict()) == {"family", *OPTIONS}


@pytest.mark.parametrize(
    ("overrides", "field", "value"),
    [
        ({"jokers": False}, "jokers", False),
        ({"values": "5-10-15"}, "low_ace_value", 5),  # `values.low-ace`: 5 with 5-10-15
        ({"values": "5-10-15", "low_ace_value": 1}, "low_ace_value", 1),
        ({"low_ace_value": 15}, "low_ace_value", 15),
        ({"rummy_call": "top"}, "rummy_call", "top"),
        ({"rummy_call": "off"}, "rummy_call", "off"),
        ({"target": 1000}, "target", 1000),
        ({"target": None}, "target", 500),
        ({"min_natural_cards": 0}, "min_natural_cards", 0),
        ({"unplayable_discard": True}, "floating", True),  # implies floating
        ({"must_go_out": True}, "must_go_out", True),
        ({"one_meld_per_turn": True}, "one_meld_per_turn", True),
    ],
)
def test_pagat_options(overrides: dict[str, Any], field: str, value: Any) -> None:
    assert getattr(make_rules("pagat-500", **overrides), field) == value


def test_rummy_call_modes_in_rummy_500() -> None:
    """`rummy.mode`: Rummy 500's calls are off by default but a table may switch them on."""
    assert make_rules("rummy-500", rummy_call="pile").rummy_call == "pile"
    assert make_rules("rummy-500", rummy_call="top").rummy_call == "top"


def test_basic_accepts_its_own_defaults_spelt_out() -> None:
    """Spelling out Basic's defaults (`rummy.mode` off, `meld.once-per-turn`) is fine."""
    rules = make_rules("basic", rummy_call="off", jokers=False, low_ace_value=1,
                       one_meld_per_turn=True, discard_required=True, target=None)
    assert rules.rummy_call == "off"
    assert rules.one_meld_per_turn
    assert rules.target_for(3) == 150


def test_a_target_of_null_means_the_family_target() -> None:
    """`game.target-500`: an explicit null target is still 500 in the 500 games,
    never Basic's 100/150/200."""
    for family in ("pagat-500", "rummy-500"):
        rules = make_rules(family, target=None)
        assert [rules.target_for(n) for n in (2, 3, 4, 8)] == [500] * 4


@pytest.mark.parametrize(
    "spec",
    [
        {"family": "canasta"},
        {"family": "pagat-500", "jokerz": True},
        {"family": "basic", "colour": "red"},
        "gin",
        42,
        ["pagat-500"],
    ],
)
def test_unknown_families_and_options_raise(spec: Any) -> None:
    with pytest.raises(RulesError):
        make_rules(spec)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("jokers", "yes"), ("jokers", 1), ("floating", None), ("values", "1-2-3"),
        ("rummy_call", "always"), ("low_ace_value", 2), ("low_ace_value", True),
        ("min_natural_cards", 2), ("min_natural_cards", False), ("target", 0),
        ("target", -500), ("target", 10**6), ("target", 500.0), ("target", True),
        ("target", "500"),
    ],
)
def test_bad_option_values_raise_and_say_which(option: str, value: Any) -> None:
    with pytest.raises(RulesError, match=option.split("_")[0]):
        make_rules("pagat-500", **{option: value})


@pytest.mark.parametrize(
    "overrides",
    [
        {"jokers": True},  # `cards.deck`: basic never uses jokers
        {"rummy_call": "pile"},  # `rummy.mode`: calls are a 500 Rum rule
        {"rummy_call": "top"},
        {"deep_draw_new_meld": True},  # `draw.basic`: no deep draws at all
        {"floating": True},
        {"unplayable_discard": True},
        {"must_go_out": True},  # `game.target-basic`: first to the target wins
        {"values": "5-10-15"},
        {"low_ace_value": 15},  # `values.face`: an ace is 1 in basic
        {"low_ace_value": 5},
    ],
)
def test_options_that_contradict_basic_raise(overrides: dict[str, Any]) -> None:
    with pytest.raises(RulesError):
        make_rules("basic", **overrides)


@pytest.mark.parametrize(
    "overrides",
    [
        # `out.floating` needs `out.discard-required` off
        {"floating": True, "discard_required": True},
        # `out.unplayable-discard`: the playable last card is melded, the player floats
        {"unplayable_discard": True, "discard_required": True},
        {"unplayable_discard": True, "floating": False},
    ],
)
def test_contradictory_options_raise(overrides: dict[str, Any]) -> None:
    with pytest.raises(RulesError):
        make_rules("pagat-500", **overrides)


def test_error_messages_name_the_problem() -> None:
    with pytest.raises(RulesError, match="jokerz"):
        make_rules("pagat-500", jokerz=True)
    with pytest.raises(RulesError, match="canasta"):
        make_rules("canasta")
    with pytest.raises(RulesError, match="discard_required"):
        make_rules("pagat-500", floating=True, discard_required=True)
    assert issubclass(RulesError, ValueError)


def test_family_and_option_values_are_str_enums_that_read_as_their_names() -> None:
    rules = make_rules({"family": "rummy-500", "values": "5-10-15", "rummy_call": "top"})
    assert rules.family is Family.RUMMY_500 and rules.values is ValueScheme.FIVE_TEN_FIFTEEN
    assert rules.rummy_call is RummyCall.TOP
    # the same text for programs: as_dict, JSON and stored specs are unchanged
    assert json.dumps(rules.as_dict()["rummy_call"]) == '"top"'
    assert f"{rules.family}" == "rummy-500" and rules.family == "rummy-500"


@pytest.mark.parametrize(("spec", "message", "code", "params"), [
    ({"family": "basic", "rummy_call": "pile"},
     "option rummy_call='pile' does not apply to Basic Rummy: Basic Rummy has no Rummy! calls",
     "rules.not-in-basic", {"option": "rummy_call"}),
    ({"family": "basic", "values": "5-10-15"},
     "option values='5-10-15' does not apply to Basic Rummy", "rules.not-in-basic",
     {"option": "values"}),
    ({"family": "basic", "low_ace_value": 15}, "in Basic Rummy an ace always counts 1",
     "rules.basic-ace", {}),
    ({"unplayable_discard": True, "floating": False},
     "unplayable_discard needs floating: a playable last card is melded",
     "rules.unplayable-floating", {"option": "unplayable_discard", "other": "floating"}),
])
def test_a_rules_error_says_it_in_english_and_as_a_code_with_parameters(
        spec: dict[str, Any], message: str, code: str, params: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as caught:
        make_rules(spec)
    assert str(caught.value) == message  # the JSON API's text, as it always was
    assert caught.value.code == code and dict(caught.value.params) == params
    assert code in RULES_MESSAGES
