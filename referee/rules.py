"""Rule sets: a family plus the values of its house-rule options.

A :class:`RuleSet` is frozen; build one with :func:`make_rules` from a family
name and option overrides (the JSON API's ``{"family": ..., <option>: ...}``).
Unknown options, bad values and options that contradict each other or the
family raise :class:`RulesError` with a message that says which.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from .verdict import N_


class Family(StrEnum):
    """The rule families (``RULES.md``): 500 Rum as Pagat has it, Rummy 500, Basic Rummy."""

    PAGAT_500 = "pagat-500"
    RUMMY_500 = "rummy-500"
    BASIC = "basic"


class ValueScheme(StrEnum):
    """The ``values`` option: cards at face value, or 5-10-15."""

    FACE = "face"
    FIVE_TEN_FIFTEEN = "5-10-15"


class RummyCall(StrEnum):
    """The ``rummy_call`` option: no calls, on the latest discard only, or anywhere in the
    pile."""

    OFF = "off"
    TOP = "top"
    PILE = "pile"


FAMILIES = tuple(Family)
FAMILY_NAMES = {
    Family.PAGAT_500: N_("500 Rum"),
    Family.RUMMY_500: N_("Rummy 500"),
    Family.BASIC: N_("Basic Rummy"),
}
RUMMY_CALL_MODES = tuple(RummyCall)
VALUE_SCHEMES = tuple(ValueScheme)
#: Basic Rummy's target by player count (``game.target-basic``).
BASIC_TARGETS = {2: 100, 3: 150, 4: 200}


class RulesError(ValueError):
    """A rule set that cannot be built: unknown family or option, bad value, contradiction.

    The message is English for programs (the JSON API's); ``code`` and ``params`` say
    the same as data, and where ``code`` is in
    :data:`~referee.verdict.RULES_MESSAGES` a page says it in the reader's language.
    """

    def __init__(self, message: str, code: str = "rules.invalid",
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params: Mapping[str, Any] = params or {}


@dataclass(frozen=True)
class RuleSet:
    family: Family
    jokers: bool
    values: ValueScheme
    low_ace_value: int
    rummy_call: RummyCall
    draw_must_meld: bool
    deep_draw_new_meld: bool
    discard_required: bool
    floating: bool
    unplayable_discard: bool
    must_go_out: bool
    target: int | None  # None: Basic Rummy's target by player count
    min_natural_cards: int
    one_meld_per_turn: bool

    # ---- what follows from the family -------------------------------------------------
    @property
    def is_basic(self) -> bool:
        return self.family == Family.BASIC

    @property
    def aces_high(self) -> bool:
        """May an ace rank above the king (Q-K-A)? Not in Basic Rummy (``meld.ace``)."""
        return not self.is_basic

    @property
    def deep_draws(self) -> bool:
        """May cards below the top of the discard pile be taken (``draw.deep``)?"""
        return not self.is_basic

    @property
    def min_players(self) -> int:
        return 2

    @property
    def max_players(self) -> int:
        return 4 if self.is_basic else 8

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` unless the family allows this many players
        (``cards.players``)."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise RulesError("the number of players must be a whole number")
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"{self.family} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}", "rules.players",
                {"family": self.family, "low": self.min_players, "high": self.max_players,
                 "count": players})

    def decks(self, players: int) -> int:
        """Decks shuffled together: two from five players on (``cards.deck``)."""
        return 2 if players >= 5 else 1

    def jokers_in_play(self, players: int) -> int:
        return 2 * self.decks(players) if self.jokers else 0

    def deck_size(self, players: int) -> int:
        return 52 * self.decks(players) + self.jokers_in_play(players)

    def cards_dealt(self, players: int) -> int:
        """Cards dealt to each player (``cards.deal``)."""
        if self.is_basic:
            return 10 if players == 2 else 7
        return 13 if players == 2 else 7

    def target_for(self, players: int) -> int:
        """Points that end the game (``game.target-500``, ``game.target-basic``)."""
        if self.target is not None:
            return self.target
        return BASIC_TARGETS.get(players, BASIC_TARGETS[4])

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


_DEFAULTS: dict[Family, dict[str, Any]] = {
    Family.PAGAT_500: dict(
        jokers=True, values=ValueScheme.FACE, low_ace_value=1, rummy_call=RummyCall.PILE,
        target=500
    ),
    Family.RUMMY_500: dict(
        jokers=False, values=ValueScheme.FACE, low_ace_value=15, rummy_call=RummyCall.OFF,
        target=500
    ),
    Family.BASIC: dict(
        jokers=False, values=ValueScheme.FACE, low_ace_value=1, rummy_call=RummyCall.OFF,
        target=None
    ),
}
_COMMON: dict[str, Any] = dict(
    draw_must_meld=False,
    deep_draw_new_meld=False,
    discard_required=False,
    floating=False,
    unplayable_discard=False,
    must_go_out=False,
    min_natural_cards=1,
    one_meld_per_turn=False,
)
OPTIONS = (
    "jokers", "values", "low_ace_value", "rummy_call", "draw_must_meld",
    "deep_draw_new_meld", "discard_required", "floating", "unplayable_discard",
    "must_go_out", "target", "min_natural_cards", "one_meld_per_turn",
)
_BOOL_OPTIONS = {
    "jokers", "draw_must_meld", "deep_draw_new_meld", "discard_required", "floating",
    "unplayable_discard", "must_go_out", "one_meld_per_turn",
}
#: Options that only make sense with 500-style scoring and deep draws.
_NOT_BASIC = {
    "jokers": True, "deep_draw_new_meld": True, "floating": True,
    "unplayable_discard": True, "must_go_out": True, "values": "5-10-15",
}


def _check_value(name: str, value: Any) -> Any:
    if name in _BOOL_OPTIONS:
        if not isinstance(value, bool):
            raise RulesError(f"option {name} must be true or false, not {value!r}")
        return value
    if name == "values":
        if value not in VALUE_SCHEMES:
            raise RulesError(f"option values must be one of {', '.join(VALUE_SCHEMES)}")
        return ValueScheme(value)
    if name == "rummy_call":
        if value not in RUMMY_CALL_MODES:
            raise RulesError(f"option rummy_call must be one of {', '.join(RUMMY_CALL_MODES)}")
        return RummyCall(value)
    if name == "low_ace_value":
        if value not in (1, 5, 15) or isinstance(value, bool):
            raise RulesError("option low_ace_value must be 1, 5 or 15")
        return value
    if name == "min_natural_cards":
        if value not in (0, 1) or isinstance(value, bool):
            raise RulesError("option min_natural_cards must be 0 or 1")
        return value
    if name == "target":
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 100000:
            raise RulesError("option target must be a whole number of points from 1 to 100000")
        return value
    raise RulesError(f"unknown option {name!r}")  # pragma: no cover - filtered before


def make_rules(spec: Mapping[str, Any] | str | None = None, **overrides: Any) -> RuleSet:
    """Build a rule set from ``{"family": ..., <option>: ...}`` (or a family name)."""
    if spec is None:
        spec = {}
    if isinstance(spec, str):
        spec = {"family": spec}
    if not isinstance(spec, Mapping):
        raise RulesError("rules must be an object with a family and options")
    given = dict(spec)
    given.update(overrides)
    given_family = given.pop("family", Family.PAGAT_500)
    if given_family not in FAMILIES:
        raise RulesError(
            f"unknown rule family {given_family!r}; choose one of {', '.join(FAMILIES)}")
    family = Family(given_family)
    for name in given:
        if name not in OPTIONS:
            raise RulesError(f"unknown option {name!r}")
    options = {name: _check_value(name, value) for name, value in given.items()}
    if "target" in options and options["target"] is None:
        # null means "the family's own target": 500, or Basic's by player count
        del options["target"]

    if family == Family.BASIC:
        for name, bad in _NOT_BASIC.items():
            if name in options and options[name] == bad:
                raise RulesError(f"option {name}={bad!r} does not apply to Basic Rummy",
                                 "rules.not-in-basic", {"option": name})
        if options.get("low_ace_value", 1) != 1:
            raise RulesError("in Basic Rummy an ace always counts 1", "rules.basic-ace")
        if options.get("rummy_call", RummyCall.OFF) != RummyCall.OFF:
            raise RulesError(
                f"option rummy_call={str(options['rummy_call'])!r} does not apply to Basic Rummy: "
                "Basic Rummy has no Rummy! calls", "rules.not-in-basic", {"option": "rummy_call"}
            )
    if options.get("floating") and options.get("discard_required"):
        raise RulesError("floating needs discard_required off: a floater melds every card",
                         "rules.floating-discard",
                         {"option": "floating", "other": "discard_required"})
    if options.get("unplayable_discard"):
        if options.get("discard_required"):
            raise RulesError(
                "unplayable_discard needs discard_required off: a player whose last card is "
                "playable must meld it and float", "rules.unplayable-discard",
                {"option": "unplayable_discard", "other": "discard_required"})
        if options.get("floating") is False:
            raise RulesError("unplayable_discard needs floating: a playable last card is melded",
                             "rules.unplayable-floating",
                             {"option": "unplayable_discard", "other": "floating"})
        options["floating"] = True
    if options.get("values") == ValueScheme.FIVE_TEN_FIFTEEN and "low_ace_value" not in options:
        options["low_ace_value"] = 5

    values: dict[str, Any] = {**_COMMON, **_DEFAULTS[family], **options}
    return RuleSet(family=family, **values)

