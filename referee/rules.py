"""Rule sets: a family plus the values of its house-rule options.

A :class:`RuleSet` is frozen; build one with :func:`make_rules` from a family
name and option overrides (the JSON API's ``{"family": ..., <option>: ...}``).
Unknown options, bad values and options that contradict each other or the
family raise :class:`RulesError` with a message that says which.

The house-rule options are declared once, as the fields of :class:`RuleSet`: each
field's type says its values (``bool``, a ``Literal`` of choices, or a whole number),
and its :func:`option` metadata says its default by family, the value Basic Rummy
fixes it at, and its bounds.  :data:`OPTION_SPECS` reads them back; validation here,
the new-game and referee forms, the OpenAPI ``Rules`` schema and the new-game page's
``data-families`` are all derived from it, and :data:`REQUIREMENTS` says which options
need which others.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any, Literal, get_args, get_origin, get_type_hints

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


LowAceValue = Literal[1, 5, 15]
#: 1: a meld needs a natural card; 0: a meld of jokers alone is allowed.
MinNaturalCards = Literal[1, 0]

FAMILIES: tuple[Family, ...] = tuple(Family)
FAMILY_NAMES = {
    Family.PAGAT_500: N_("500 Rum"),
    Family.RUMMY_500: N_("Rummy 500"),
    Family.BASIC: N_("Basic Rummy"),
}
RUMMY_CALL_MODES: tuple[RummyCall, ...] = tuple(RummyCall)
VALUE_SCHEMES: tuple[ValueScheme, ...] = tuple(ValueScheme)
#: Basic Rummy's target by player count (``game.target-basic``).
BASIC_TARGETS = {2: 100, 3: 150, 4: 200}

#: The metadata key of an option's declaration on a :class:`RuleSet` field.
_OPTION = "option"
#: "Basic Rummy plays this option as any other family does" (nothing fixed).
_FREE: Any = object()
_NOT_BASIC = "option {name}={value!r} does not apply to Basic Rummy"


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


def _plain(value: Any) -> Any:
    """An option's value as the API writes it (``'pile'``, not ``<RummyCall.PILE>``)."""
    return value.value if isinstance(value, Enum) else value


def option(default: Any, *, families: Mapping[str, Any] | None = None, basic: Any = _FREE,
           basic_message: str = _NOT_BASIC, basic_code: str = "rules.not-in-basic",
           needs_jokers: bool = False,
           minimum: int | None = None, maximum: int | None = None) -> Any:
    """Declare a house-rule option on a :class:`RuleSet` field.

    ``default`` is every family's value unless ``families`` says otherwise; ``basic`` is
    the only value Basic Rummy accepts (any other is refused with ``basic_message``, and
    ``basic_code`` for the pages);
    ``needs_jokers``: the option only matters when jokers are in play; ``minimum`` and
    ``maximum`` bound a whole number."""
    return field(metadata={_OPTION: {
        "default": default, "families": dict(families or {}), "basic": basic,
        "basic_message": basic_message, "basic_code": basic_code,
        "needs_jokers": needs_jokers,
        "minimum": minimum, "maximum": maximum}})


@dataclass(frozen=True)
class RuleSet:
    family: Family
    jokers: bool = option(False, families={"pagat-500": True}, basic=False)
    values: ValueScheme = option(ValueScheme.FACE, basic=ValueScheme.FACE)
    low_ace_value: LowAceValue = option(
        1, families={"rummy-500": 15}, basic=1,
        basic_message="in Basic Rummy an ace always counts 1", basic_code="rules.basic-ace")
    rummy_call: RummyCall = option(
        RummyCall.OFF, families={"pagat-500": RummyCall.PILE}, basic=RummyCall.OFF,
        basic_message=_NOT_BASIC + ": Basic Rummy has no Rummy! calls")
    draw_must_meld: bool = option(False)
    deep_draw_new_meld: bool = option(False, basic=False)
    discard_required: bool = option(False)
    floating: bool = option(False, basic=False)
    unplayable_discard: bool = option(False, basic=False)
    must_go_out: bool = option(False, basic=False)
    #: None: Basic Rummy's target by player count.
    target: int | None = option(500, families={"basic": None}, minimum=1, maximum=100000)
    min_natural_cards: MinNaturalCards = option(1, needs_jokers=True)
    one_meld_per_turn: bool = option(False)

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



#: The kinds of option: on or off, one of a few choices, a whole number (or none).
Kind = Literal["bool", "choice", "number"]


@dataclass(frozen=True)
class OptionSpec:
    """One house-rule option, as its :class:`RuleSet` field declares it."""

    name: str
    kind: Kind
    #: The values a choice may take, in the order a form offers them.
    choices: tuple[Any, ...]
    #: Each family's value when the table does not choose.
    defaults: Mapping[str, Any]
    #: The only value Basic Rummy accepts, or None when it accepts all.
    basic_value: Any
    basic_fixed: bool
    basic_message: str
    basic_code: str
    needs_jokers: bool
    minimum: int | None
    maximum: int | None
    #: Whether null is a value (it means "the family's own").
    nullable: bool

    @property
    def uniform_default(self) -> bool:
        """Whether every family plays the same value when the table does not choose."""
        return len({repr(v) for v in self.defaults.values()}) == 1

    def fixed_in(self, family: str) -> bool:
        """Whether ``family`` fixes this option (the table has nothing to choose)."""
        if family != "basic":
            return False
        if self.basic_fixed:
            return True
        jokers = OPTION_BY_NAME["jokers"]
        return self.needs_jokers and jokers.basic_fixed and jokers.basic_value is False

    def offered_for(self) -> tuple[str, ...]:
        """The families a table may choose this option in (the new-game page's
        ``data-families``)."""
        return tuple(f for f in FAMILIES if not self.fixed_in(f))

    def check(self, value: Any) -> Any:
        """``value`` if this option may take it; else :class:`RulesError`."""
        name = self.name
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RulesError(f"option {name} must be true or false, not {value!r}")
            return value
        if self.kind == "choice":
            if isinstance(value, bool) or not isinstance(value, str | int) \
                    or value not in self.choices:
                words = [str(c) for c in self.choices]
                if all(isinstance(c, int) for c in self.choices):
                    words = [str(c) for c in sorted(self.choices)]
                    listed = f"{', '.join(words[:-1])} or {words[-1]}"
                    raise RulesError(f"option {name} must be {listed}")
                raise RulesError(f"option {name} must be one of {', '.join(words)}")
            return self.choices[self.choices.index(value)]  # an enum's own member
        if value is None and self.nullable:
            return None
        low, high = self.minimum, self.maximum
        if (not isinstance(value, int) or isinstance(value, bool)
                or (low is not None and value < low) or (high is not None and value > high)):
            raise RulesError(f"option {name} must be a whole number of points from {low} "
                             f"to {high}")
        return value


def _spec(name: str, hint: Any, meta: Mapping[str, Any]) -> OptionSpec:
    nullable = False
    args = get_args(hint)
    if get_origin(hint) is not Literal and type(None) in args:  # X | None
        nullable = True
        (hint,) = [a for a in args if a is not type(None)]
    if hint is bool:
        kind: Kind = "bool"
        choices: tuple[Any, ...] = (True, False)
    elif get_origin(hint) is Literal:
        kind, choices = "choice", get_args(hint)
    elif isinstance(hint, type) and issubclass(hint, StrEnum):
        kind, choices = "choice", tuple(hint)
    elif hint is int:
        kind, choices = "number", ()
    else:  # pragma: no cover - a new field of a type not handled here
        raise TypeError(f"RuleSet.{name}: options are bool, a Literal or int")
    defaults = {f.value: meta["families"].get(f.value, meta["default"]) for f in FAMILIES}
    fixed = meta["basic"] is not _FREE
    return OptionSpec(name=name, kind=kind, choices=choices, defaults=defaults,
                      basic_value=meta["basic"] if fixed else None, basic_fixed=fixed,
                      basic_message=meta["basic_message"], basic_code=meta["basic_code"],
                      needs_jokers=meta["needs_jokers"],
                      minimum=meta["minimum"], maximum=meta["maximum"], nullable=nullable)


def _specs() -> tuple[OptionSpec, ...]:
    hints = get_type_hints(RuleSet)
    return tuple(_spec(f.name, hints[f.name], f.metadata[_OPTION])
                 for f in fields(RuleSet) if _OPTION in f.metadata)


#: Every house-rule option, in the order of the :class:`RuleSet` fields.
OPTION_SPECS: tuple[OptionSpec, ...] = _specs()
OPTION_BY_NAME: dict[str, OptionSpec] = {o.name: o for o in OPTION_SPECS}
OPTIONS: tuple[str, ...] = tuple(OPTION_BY_NAME)


@dataclass(frozen=True)
class Requirement:
    """An option that needs another: when ``option`` is ``value``, ``other`` must be
    ``needed`` (``implied``: an ``other`` left out takes it)."""

    option: str
    value: Any
    other: str
    needed: Any
    message: str
    #: The message's id for the pages (:data:`~referee.verdict.RULES_MESSAGES`).
    code: str
    implied: bool = False


#: What the options need of each other, checked in this order.
REQUIREMENTS: tuple[Requirement, ...] = (
    Requirement("floating", True, "discard_required", False,
                "floating needs discard_required off: a floater melds every card",
                "rules.floating-discard"),
    Requirement("unplayable_discard", True, "discard_required", False,
                "unplayable_discard needs discard_required off: a player whose last card is "
                "playable must meld it and float", "rules.unplayable-discard"),
    Requirement("unplayable_discard", True, "floating", True,
                "unplayable_discard needs floating: a playable last card is melded",
                "rules.unplayable-floating", implied=True),
)
#: A default that follows from another option chosen: 5-10-15 scores a low ace 5.
FOLLOWS: tuple[tuple[str, Any, str, Any], ...] = (("values", "5-10-15", "low_ace_value", 5),)


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
    if not isinstance(given_family, str) or given_family not in FAMILIES:
        raise RulesError(
            f"unknown rule family {_plain(given_family)!r}; choose one of {', '.join(FAMILIES)}")
    family = Family(given_family)
    for name in given:
        if name not in OPTION_BY_NAME:
            raise RulesError(f"unknown option {name!r}")
    options = {name: OPTION_BY_NAME[name].check(value) for name, value in given.items()}
    for name in [n for n, v in options.items() if v is None]:
        # null means "the family's own" (the target: 500, or Basic's by player count)
        del options[name]

    if family == Family.BASIC:
        for spec_ in OPTION_SPECS:
            value = options.get(spec_.name, spec_.basic_value)
            if spec_.basic_fixed and value != spec_.basic_value:
                raise RulesError(spec_.basic_message.format(name=spec_.name,
                                                            value=_plain(value)),
                                 spec_.basic_code,
                                 {"option": spec_.name}
                                 if spec_.basic_code == "rules.not-in-basic" else {})
    for need in REQUIREMENTS:
        if options.get(need.option) != need.value:
            continue
        if need.other in options and options[need.other] != need.needed:
            raise RulesError(need.message, need.code,
                             {"option": need.option, "other": need.other})
    for need in REQUIREMENTS:
        if need.implied and options.get(need.option) == need.value:
            options.setdefault(need.other, need.needed)
    for name, value, other, follows in FOLLOWS:
        if options.get(name) == value and other not in options:
            options[other] = follows

    values = {o.name: o.defaults[family] for o in OPTION_SPECS}
    values.update(options)
    return RuleSet(family=family, **values)
