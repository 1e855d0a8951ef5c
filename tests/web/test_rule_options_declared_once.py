"""The house-rule options are declared once, as the fields of ``referee.RuleSet``;
validation (``make_rules``), the new-game form, the referee pages' form, the OpenAPI
``Rules`` schema and the new-game page's ``data-families`` are derived from that
declaration, so they cannot drift apart: each is checked against it here, and the
schema against ``make_rules`` itself on every combination of values."""

from __future__ import annotations

import dataclasses
import itertools
import re
from typing import Any

import jsonschema_rs
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import RulesError, RuleSet, make_rules
from referee.rules import FAMILIES, OPTION_BY_NAME, OPTION_SPECS, OPTIONS, REQUIREMENTS
from scorebook.api.openapi import openapi_document
from scorebook.web.games.forms import BOOLEAN_OPTIONS, SELECT_OPTIONS, NewGameForm, option_families
from scorebook.web.referee.forms import OPTION_FIELDS, RulesForm

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def rules_validator() -> Any:
    components = openapi_document()["components"]
    whole = {"$schema": DRAFT, "$ref": "#/components/schemas/Rules",
             "components": components}
    return jsonschema_rs.validator_for(whole, pattern_options=jsonschema_rs.FancyRegexOptions())


def test_every_option_is_a_field_of_the_rule_set() -> None:
    names = [f.name for f in dataclasses.fields(RuleSet)]
    assert names == ["family", *OPTIONS]
    assert {o.kind for o in OPTION_SPECS} == {"bool", "choice", "number"}
    for spec in OPTION_SPECS:
        for family in FAMILIES:  # each family's default is a value the option takes
            assert spec.check(spec.defaults[family]) == spec.defaults[family]
            assert getattr(make_rules(family), spec.name) == spec.defaults[family]


def test_the_requirements_name_real_options() -> None:
    for need in REQUIREMENTS:
        assert OPTION_BY_NAME[need.option].check(need.value) == need.value
        assert OPTION_BY_NAME[need.other].check(need.needed) == need.needed


def test_the_new_game_form_has_a_field_per_option(app: Flask) -> None:
    with app.test_request_context():
        form = NewGameForm(meta={"csrf": False})
        for name in OPTIONS:
            assert name in form, name
        assert set(SELECT_OPTIONS) | set(BOOLEAN_OPTIONS) | {"target"} == set(OPTIONS)
        for name in (n for n in OPTIONS if OPTION_BY_NAME[n].kind == "choice"):
            offered = [c[0] for c in form[name].iter_choices()]
            assert {str(v) for v in OPTION_BY_NAME[name].choices} <= set(offered)
        # nothing chosen: every option is the family's own
        assert all(v is None for v in form.options().values())


def test_the_referee_form_has_a_field_per_option() -> None:
    assert sorted(OPTION_FIELDS) == sorted(OPTIONS)
    form = RulesForm()
    assert [f.name for f in form.option_fields()] == list(OPTION_FIELDS)
    assert form.rules_body() == {"family": "pagat-500"}


def test_data_families_follow_what_basic_rummy_fixes() -> None:
    for spec in OPTION_SPECS:
        families = option_families(spec.name).split()
        assert families[:2] == ["pagat-500", "rummy-500"]
        if "basic" in families:
            # an option offered for Basic Rummy takes each of its values there
            for value in spec.choices or (None, 1):
                make_rules("basic", **{spec.name: value})
        else:
            assert spec.basic_fixed or spec.needs_jokers, spec.name


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_new_game_page_shows_each_option_for_its_families(client: FlaskClient,
                                                             lang: str) -> None:
    page = client.get(f"/games/new?lang={lang}").get_data(as_text=True)
    for name in OPTIONS:
        if name == "target":
            assert 'name="target"' in page
            continue
        control = rf'(?:<label for="{name}"|<input[^>]*name="{name}")'
        wrapped = re.search(r'data-families="([^"]*)">\s*' + control, page)
        assert wrapped, name
        assert wrapped.group(1) == " ".join(OPTION_BY_NAME[name].offered_for())


#: Each option's values worth trying: its own, and ones it does not take.
TRIES: dict[str, list[Any]] = {
    spec.name: [*spec.choices, *([None, 1, 500, 100000] if spec.kind == "number" else []),
                None, "x", 2, 0, True, 100001][:12]
    for spec in OPTION_SPECS}


@settings(max_examples=600, deadline=None, derandomize=True, database=None)
@given(family=st.sampled_from([*FAMILIES, None]),
       chosen=st.dictionaries(st.sampled_from(OPTIONS), st.integers(0, 11), max_size=4))
def test_the_schema_accepts_exactly_the_rules_make_rules_builds(
        family: str | None, chosen: dict[str, int]) -> None:
    body: dict[str, Any] = {} if family is None else {"family": family}
    for name, k in chosen.items():
        tries = TRIES[name]
        body[name] = tries[k % len(tries)]
    try:
        make_rules(body)
    except RulesError:
        built = False
    else:
        built = True
    assert rules_validator().is_valid(body) is built, body


def test_every_pair_of_boolean_options_agrees() -> None:
    """Every family with every pair of on/off options at every value: the schema and
    make_rules agree (the requirements between options are pairs)."""
    valid = rules_validator()
    bools = [o.name for o in OPTION_SPECS if o.kind == "bool"]
    for family in FAMILIES:
        for a, b in itertools.combinations(bools, 2):
            for va, vb in itertools.product((True, False), repeat=2):
                body = {"family": family, a: va, b: vb}
                try:
                    make_rules(body)
                    built = True
                except RulesError:
                    built = False
                assert valid.is_valid(body) is built, body
