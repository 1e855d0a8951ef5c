"""Every body of the JSON API, as pydantic models: the referee and scoring questions
and their answers, the games API's hand, game and answers, the errors with their codes,
and the operations' path, query and header parameters.

Each request body is declared once here: the API validates every body against its model
before asking the question (:func:`refused`, :func:`hand_refused`), and the OpenAPI
document (:mod:`scorebook.api.openapi`) is generated from these models alone
(:func:`components`, :func:`parameters`), so the document and the API cannot disagree
about what a body may hold.

The leaves keep their own parsers (:mod:`scorebook.services.payloads`): a card, a list of cards,
a name and the rules are validated by the functions that turn them into referee
objects, and their JSON Schema is the grammar those functions check (the same regular
expressions, :data:`LEAVES`), so an error still names the bad token.  A body the models
refuse is answered with the error the question's own parsing gives it (the codes and
messages the README documents); the models add no wording of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    WithJsonSchema,
    create_model,
    model_validator,
)
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from referee import FAMILIES
from referee.rules import OPTION_SPECS, REQUIREMENTS, OptionSpec, Requirement
from scorebook.models import GAME_STATUSES, HAND_ENDINGS
from scorebook.plain_text import MAX_ID, MAX_POINTS
from scorebook.services.hands import SEND_KEY, SEND_KEY_DAYS
from scorebook.services.payloads import (
    CARD_PATTERN,
    MAX_CARDS,
    MAX_ID_NUMBER,
    MAX_TEXT,
    TEXT_PATTERN,
    PayloadError,
    card_from,
    cards_from,
    cards_text_pattern,
    end_from,
    player_count_from,
    rules_from,
    text_from,
)
from scorebook.services.questions import ARRANGE_MOST
from scorebook.services.table_log import MAX_MOVES, MOVE_KINDS

REF = "#/components/schemas/{model}"


#: Where a leaf's schema names a component the document states by hand (Card, Cards,
#: Name, Rules): turned into a ``$ref`` once pydantic is done (which would look for it
#: among its own models).
_COMPONENT = "x-component"


def _ref(name: str, **extra: Any) -> dict[str, Any]:
    return {_COMPONENT: name, **extra}


def _refs(node: Any, key: str = "") -> Any:
    """``node`` with each :func:`_ref` a ``$ref``, and without the titles and defaults
    pydantic adds (the document names its components; a default is the property left
    out, as the descriptions say)."""
    if isinstance(node, dict):
        if _COMPONENT in node:
            node = {"$ref": REF.format(model=node[_COMPONENT]),
                    **{k: v for k, v in node.items() if k != _COMPONENT}}
        if key != "properties":
            node = {k: v for k, v in node.items()
                    if not (k == "title" and isinstance(v, str)) and k != "default"}
        return {k: _refs(v, k) for k, v in node.items()}
    if isinstance(node, list):
        return [_refs(v) for v in node]
    return node


def _nullable(schema: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}], **extra}


# --- the leaves: validated by the parsers that read them ------------------------------


def _card(value: Any) -> Any:
    card_from(value)
    return value


def _cards(least: int = 0, most: int = MAX_CARDS) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if not isinstance(value, list | str):
            raise PayloadError("bad-request", "cards must be a list or a string of cards")
        count = len(cards_from(value))
        if not least <= count <= most:
            raise PayloadError("bad-request", f"from {least} to {most} cards")
        return value
    return check


def _name(value: Any) -> Any:
    text_from(value, "name")
    return value


def _text(value: Any) -> Any:
    if not isinstance(value, str):
        raise PayloadError("bad-request", "must be a text")
    return value


def _rules(value: Any) -> Any:
    rules_from(value)
    return value


def _end(value: Any) -> Any:
    end_from(value, "end")
    return value


def _ending(value: Any) -> Any:
    if value not in ("out", "stock", "draw"):
        raise PayloadError("bad-request", "ending must be out, stock or draw")
    return value


def _strict_bool(value: Any) -> Any:
    if not isinstance(value, bool):
        raise PayloadError("bad-request", "must be true or false")
    return value


def _whole(least: int | None = None, most: int | None = None) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if not isinstance(value, int) or isinstance(value, bool):
            raise PayloadError("bad-request", "must be a whole number")
        if (least is not None and value < least) or (most is not None and value > most):
            raise PayloadError("bad-request", f"must be from {least} to {most}")
        return value
    return check


def _some_cards_schema(least: int = 0, most: int = MAX_CARDS) -> dict[str, Any]:
    if (least, most) == (0, MAX_CARDS):
        return _ref("Cards")
    return {"anyOf": [
        {"type": "array", "items": _ref("Card"), "minItems": least, "maxItems": most},
        {"type": "string", "pattern": cards_text_pattern(most, least)}]}


Card = Annotated[Any, PlainValidator(_card), WithJsonSchema(_ref("Card"))]
Cards = Annotated[Any, PlainValidator(_cards()), WithJsonSchema(_ref("Cards"))]
#: Cards, at least one of them.
SomeCards = Annotated[Any, PlainValidator(_cards(least=1)),
                      WithJsonSchema(_some_cards_schema(least=1))]
Name = Annotated[Any, PlainValidator(_name), WithJsonSchema(_ref("Name"))]
Rules = Annotated[Any, PlainValidator(_rules), WithJsonSchema(_ref("Rules"))]
Bool = Annotated[Any, PlainValidator(_strict_bool), WithJsonSchema({"type": "boolean"})]


def Whole(least: int | None = None, most: int | None = None,  # noqa: N802 - a type
          **extra: Any) -> Any:
    schema: dict[str, Any] = {"type": "integer", **extra}
    if least is not None:
        schema["minimum"] = least
    if most is not None:
        schema["maximum"] = most
    return Annotated[Any, PlainValidator(_whole(least, most)), WithJsonSchema(schema)]


def Maybe(kind: Any, **extra: Any) -> Any:  # noqa: N802 - a type
    """``kind`` or null (null is the same as leaving the property out)."""
    return Annotated[kind | None, Field(default=None, **extra)]


class Body(BaseModel):
    """A request body: a property the document does not name is ignored; the values are
    checked as given (no coercion: "3" is not 3)."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)


# --- the referee's objects -------------------------------------------------------------


class LaidCard(Body):
    card: Card
    by: Maybe(Name, description="who laid it off (the owner when left out)")


def _meld_cards(value: Any) -> Any:
    if isinstance(value, str):
        return _cards()(value)
    if not isinstance(value, list) or len(value) > MAX_CARDS:
        raise PayloadError("bad-request", "cards must be a list")
    for item in value:
        if isinstance(item, dict):
            LaidCard.model_validate(item)
        else:
            _card(item)
    return value


TABLE_MELD_CARDS = {"anyOf": [
    {"type": "array", "maxItems": MAX_CARDS, "items": {"anyOf": [_ref("Card"),
                                                                  _ref("LaidCard")]}},
    {"type": "string", "pattern": cards_text_pattern(),
     "description": "The cards in one string (all laid by the owner)."},
]}


class TableMeld(Body):
    id: Name = Field(default=None, description="m1, m2… in table order when left out")
    owner: Maybe(Name)
    cards: Annotated[Any, PlainValidator(_meld_cards), WithJsonSchema(TABLE_MELD_CARDS)]



Table = Annotated[list[TableMeld] | None, Field(
    default=None, description="Melds on the table, cards in the order they lie.")]


class Layoff(Body):
    card: Card
    onto: Name = Field(description="a meld's id")
    end: Annotated[Any, PlainValidator(_end), WithJsonSchema(_nullable(
        {"enum": ["low", "high"]}, description=(
            "Where an ace laid off on a run 2..K went, which decides its value "
            "(values.ace-end): low scores the low-ace value, high 15. Left out: where it "
            "fits, an ace on 2..K at the low end")))] = None


class PlayerMeld(Body):
    id: Name = Field(default=None, description="<name>-1, <name>-2… when left out")
    cards: Cards



def _player_meld(value: Any) -> Any:
    if isinstance(value, dict):
        PlayerMeld.model_validate(value)
        return value
    return _cards()(value)


class PlayerHand(Body):
    #: held_points stand for the cards in hand: never beside them (issue 27)
    model_config = ConfigDict(json_schema_extra={
        "if": {"required": ["held_points"],
               "properties": {"held_points": {"not": {"type": "null"}}}},
        "then": {"properties": {"hand": {"anyOf": [
            {"type": "null"}, {"const": ""}, {"type": "array", "maxItems": 0}]}}}})

    name: Name
    melds: Maybe(list[Annotated[Any, PlainValidator(_player_meld), WithJsonSchema(
        {"anyOf": [_ref("Cards"), _ref("PlayerMeld")]})]])
    layoffs: Maybe(list[Layoff])
    hand: Maybe(Cards, description="the cards left in the hand")
    held_points: Maybe(Whole(1, MAX_POINTS), description=(
        "instead of hand, where nobody remembers the cards left in it: their points (the "
        "player is then short of the deal, RULES.md §10 'Fewer cards than dealt')"))
    going_rummy: Maybe(Bool)


# --- the questions ------------------------------------------------------------------------

#: Basic Rummy is played by 2 to 4.
BASIC_MOST = 4
#: A body whose rules are Basic Rummy's.
IS_BASIC = {"required": ["rules"], "properties": {"rules": {"anyOf": [
    {"const": "basic"},
    {"type": "object", "required": ["family"], "properties": {"family": {"const": "basic"}}}]}}}


class Question(Body):
    """A referee question: the rules and the number of players (the decks in play)."""

    model_config = ConfigDict(json_schema_extra={
        "if": IS_BASIC, "then": {"properties": {"players": {"maximum": BASIC_MOST}}}})

    rules: Maybe(Rules)
    players: Maybe(Whole(2, 8), description=(
        "The number of players (two decks from 5; 2 when left out); Basic Rummy is played "
        f"by 2 to {BASIC_MOST}"))

    @model_validator(mode="after")
    def _players_fit_the_family(self) -> Question:
        player_count_from(self.players, rules_from(self.rules))
        return self


class MeldQuestion(Question):
    cards: Cards


class LayoffQuestion(Question):
    table: Table
    card: Card
    meld: Maybe(Name, description="a table meld's id")


class DrawQuestion(Question):
    model_config = ConfigDict(json_schema_extra={
        "if": IS_BASIC, "then": {"properties": {"players": {"maximum": BASIC_MOST}}},
        # the pile, or the cards taken from it
        "anyOf": [{"required": ["pile"], "properties": {"pile": _some_cards_schema(1)}},
                  {"required": ["took"], "properties": {"took": _some_cards_schema(1)}}]})

    table: Table
    pile: Maybe(SomeCards, description=(
        "The discard pile, bottom to top (without it, the cards of took are the pile)"))
    hand: Cards
    take: Maybe(Whole(1), description="How many cards are taken from the top (1 if neither "
                                      "take nor took is given)")
    took: Maybe(SomeCards, description=(
        "Instead of take: the cards taken, bottom to top like pile; they must be the top "
        "of the pile"))
    discard: Maybe(Card)

    @model_validator(mode="after")
    def _pile_or_took(self) -> DrawQuestion:
        if self.pile is None and self.took is None:
            raise PayloadError("missing-field", "pile is required")
        return self


class RummyCallQuestion(Question):
    table: Table
    pile: Cards
    discarder: Name
    caller: Name
    next_player_drew: Maybe(Bool)
    hand_over: Maybe(Bool)


class GoingOutQuestion(Question):
    table: Table
    hand: Cards
    discard: Maybe(Card)
    took: Maybe(Cards, description=(
        "The cards taken from the discard pile this turn, listed bottom to top like pile: "
        "the first is the deepest card taken; they are among hand. A card taken alone is "
        "not the discard; of several, the deepest must be melded (never discarded)"))


class ArrangeQuestion(Question):
    cards: Annotated[Any, PlainValidator(_cards(most=ARRANGE_MOST)),
                     WithJsonSchema(_some_cards_schema(most=ARRANGE_MOST))]


class RulesQuestion(Question):
    pass


def _seated_extra(key: str) -> dict[str, Any]:
    return {"if": IS_BASIC, "then": {"properties": {key: {"maxItems": BASIC_MOST}}}}


def _seats(value: Any, most: int) -> None:
    if not isinstance(value, list) or not 2 <= len(value) <= most:
        raise PayloadError("bad-players", "from 2 to 8 players")


class ScoreHandQuestion(Body):
    model_config = ConfigDict(json_schema_extra=_seated_extra("players"))

    rules: Maybe(Rules)
    players: list[PlayerHand] = Field(min_length=2, max_length=8)
    went_out: Maybe(Name, description="who went out")

    @model_validator(mode="after")
    def _seats_fit_the_family(self) -> ScoreHandQuestion:
        if rules_from(self.rules).is_basic:
            _seats(self.players, BASIC_MOST)
        return self


class ScoreGameQuestion(Body):
    model_config = ConfigDict(json_schema_extra=_seated_extra("totals"))

    rules: Maybe(Rules)
    totals: list[Whole()] = Field(min_length=2, max_length=8)
    went_out: Maybe(Whole(0), description="the index in totals of who went out")
    names: Maybe(list[Annotated[Any, PlainValidator(_text), WithJsonSchema({"type": "string"})]],
                 description="one per total")

    @model_validator(mode="after")
    def _seats_fit_the_family(self) -> ScoreGameQuestion:
        if rules_from(self.rules).is_basic:
            _seats(self.totals, BASIC_MOST)
        return self


# --- the played-hand log (/referee/log) -----------------------------------------------


class LogDeal(Body):
    """How the hand started."""

    players: list[Name] = Field(min_length=2, max_length=8, description=(
        "the players in seat order, clockwise: the player left of the dealer starts"))
    dealer: Name = Field(description="who dealt (one of players)")
    upcard: Card = Field(description="the first card turned up to start the discard pile")
    dealt: Maybe(Whole(1, 54), description=(
        "the cards dealt to each player, if the table knows (cards.deal when left out)"))


#: What each kind of move must say.
MOVE_NEEDS = {"meld": ["cards"], "layoff": ["card", "onto"], "discard": ["card"]}


def _move_kind(value: Any) -> Any:
    if value not in MOVE_KINDS:
        raise PayloadError("bad-request", f"move must be one of {', '.join(MOVE_KINDS)}")
    return value


class LogMove(Body):
    """One move of the log, by one player."""

    model_config = ConfigDict(json_schema_extra={"allOf": [
        {"if": {"required": ["move"], "properties": {"move": {"const": kind}}},
         "then": {"required": needs, "properties": {key: {"not": {"type": "null"}}
                                                     for key in needs}}}
        for kind, needs in MOVE_NEEDS.items()]})

    player: Name
    move: Annotated[Any, PlainValidator(_move_kind), WithJsonSchema({
        "enum": list(MOVE_KINDS), "description": (
            "draw: the top card of the stock (card: which, if known); take: the top take "
            "cards of the discard pile, or down to the card down_to; meld: a new meld "
            "(cards as they lie, id: <player>-<n> when left out); layoff: card onto a "
            "meld (end: low or high for an ace on a run 2..K); discard: the card that "
            "ends the turn (the last card: going out); rummy: a \"Rummy!\" call on the "
            "pile (take or down_to: the card concerned, else the deepest that can be "
            "called); stock-out: the stock is empty and the player does not take the "
            "pile")})]
    card: Maybe(Card)
    cards: Maybe(SomeCards)
    take: Maybe(Whole(1, MAX_CARDS))
    down_to: Maybe(Card, description="take or call: the pile is taken down to this card")
    onto: Maybe(Name, description="layoff: the meld's id")
    end: Annotated[Any, PlainValidator(_end), WithJsonSchema(_nullable(
        {"enum": ["low", "high"]}))] = None
    id: Maybe(Name, description="meld: its id")
    agreed: Maybe(Bool, description=(
        "the table agreed to this move although a rule refuses it: it is played, and "
        "its step says which verdict it overrode"))

    @model_validator(mode="after")
    def _says_what_its_kind_needs(self) -> LogMove:
        for key in MOVE_NEEDS.get(self.move, ()):
            if getattr(self, key) is None:
                raise PayloadError("missing-field", f"a {self.move} move needs {key}")
        return self


class LogAsk(Body):
    card: Maybe(Card, description=(
        "may_discard: the card the player to play means to discard (left out: the card "
        "they last took from the pile)"))
    hand: Maybe(Cards, description="pile: the cards the player to play holds")


class LogQuestion(Body):
    """A played hand: the deal and every move since, in order."""

    model_config = ConfigDict(json_schema_extra={
        "if": IS_BASIC, "then": {"properties": {"deal": {"properties": {
            "players": {"maxItems": BASIC_MOST}}}}}})

    rules: Maybe(Rules)
    deal: LogDeal
    log: list[LogMove] = Field(max_length=MAX_MOVES)
    ask: Maybe(LogAsk)

    @model_validator(mode="after")
    def _seats_fit_the_family(self) -> LogQuestion:
        player_count_from(len(self.deal.players), rules_from(self.rules))
        return self


#: Each question's body, by its path under /api/v1.
REQUESTS: dict[str, type[Body]] = {
    "referee/meld": MeldQuestion,
    "referee/layoff": LayoffQuestion,
    "referee/draw": DrawQuestion,
    "referee/rummy-call": RummyCallQuestion,
    "referee/going-out": GoingOutQuestion,
    "score/hand": ScoreHandQuestion,
    "score/game": ScoreGameQuestion,
    "arrange": ArrangeQuestion,
    "rules": RulesQuestion,
    "referee/log": LogQuestion,
}


def refused(path: str, body: dict[str, Any]) -> PayloadError | None:
    """Why ``body`` does not fit the model of the question at ``path``, or None."""
    return _refusal(REQUESTS[path], body)


def _refusal(model: type[Body], body: dict[str, Any]) -> PayloadError | None:
    try:
        model.model_validate(body)
    except ValidationError as exc:
        for error in exc.errors():
            cause = (error.get("ctx") or {}).get("error")
            if isinstance(cause, PayloadError):
                return cause
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the body"
        return PayloadError("bad-request", f"{where}: {first['msg']}")
    return None


# --- the games API's hand -------------------------------------------------------------


def _no_cards(value: Any) -> Any:
    if value not in (None, "", []):
        raise PayloadError("bad-points", "a points-only hand has no cards")
    return value


NoCards = Annotated[Any, PlainValidator(_no_cards), WithJsonSchema(
    {"anyOf": [{"type": "null"}, {"const": ""}, {"type": "array", "maxItems": 0}]})]


class PointsPlayer(Body):
    """One player of a hand given as points only: the points, and no cards."""

    name: Name
    points: Whole(-MAX_POINTS, MAX_POINTS, description=(
        "the player's points for the hand (a points-only hand); the game's rules bound "
        "them further: nobody below zero who went out, only the winner scores in Basic "
        "Rummy (the x-content-codes of referee.score_points)"))
    going_rummy: Maybe(Bool)
    melds: NoCards = None
    layoffs: NoCards = None
    hand: NoCards = None


def _no_points(value: Any) -> Any:
    if value is not None:
        raise PayloadError("bad-points", "points are only for a hand given as points")
    return value


class CardPlayer(PlayerHand):
    """One player of a hand given card by card: the cards, and no points."""

    points: Annotated[Any, PlainValidator(_no_points), WithJsonSchema({"type": "null"})] = None


def _hand_players(value: Any) -> Any:
    if not isinstance(value, list) or not 2 <= len(value) <= 8:
        raise PayloadError("bad-request", "players must be a list of the players of the hand")
    return value


class HandBody(Body):
    """A hand for the games API: the players' cards, or (points_only) their points."""

    model_config = ConfigDict(json_schema_extra={
        "if": {"required": ["points_only"], "properties": {"points_only": {"const": True}}},
        "then": {"properties": {"players": {"items": _ref("PointsPlayer")}}},
        "else": {"properties": {"players": {"items": _ref("CardPlayer")}}}})

    number: Maybe(Whole(1, MAX_ID),
                  description="the number of the hand being recorded (the next one)")
    id: Maybe(Whole(0, MAX_ID), description=(
        "the id of the hand you read (it never moves, unlike its number): send it with a "
        "change"))
    version: Maybe(Whole(0, MAX_ID), description=(
        "the version of the hand you read (a 409 if it changed); required to change a "
        "hand (a 428 without it)"))
    went_out: Maybe(Name)
    ending: Maybe(Annotated[Any, PlainValidator(_ending), WithJsonSchema(
        {"enum": ["out", "stock", "draw"]})], description=(
        "how the hand ended; may be left out only when went_out names who went out (a "
        "stock-out or a draw is never assumed)"))
    points_only: Maybe(Bool, description=(
        "true: the hand is given as each player's points, not its cards (nobody wanted to "
        "itemise it): each player has points and no cards, and the referee checks only "
        "the outcome and that the points can be (it is marked points only wherever it is "
        "shown). false or left out: the cards, as in /score/hand; no points"))
    players: Annotated[Any, PlainValidator(_hand_players), WithJsonSchema({
        "type": "array", "minItems": 2, "maxItems": 8,
        "description": "every player of the game: their cards, as in /score/hand, or for "
                       "a points-only hand their points"})]

    @model_validator(mode="after")
    def _players_as_the_hand_is_given(self) -> HandBody:
        model: type[Body] = PointsPlayer if self.points_only else CardPlayer
        for player in self.players:
            model.model_validate(player)
        return self


def hand_refused(body: dict[str, Any]) -> PayloadError | None:
    """Why ``body`` is not a hand the games API takes, or None."""
    return _refusal(HandBody, body)


# --- the answers ------------------------------------------------------------------------


class Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


class Verdict(Answer):
    legal: bool
    code: str
    rules: list[str] = Field(description="Rule ids from the rule book")
    params: dict[str, Any] = Field(default_factory=dict)
    message: str


OutCards = list[str]


class Way(Answer):
    kind: str | None = Field(default=None, json_schema_extra={"enum": ["meld", "layoff"]})
    cards: OutCards = []
    meld: str | None = None


class Reading(Answer):
    kind: str | None = Field(default=None, json_schema_extra={"enum": ["set", "run"]})
    cards: OutCards = []
    value: int | None = None


class MeldAnswer(Verdict):
    kind: str | None = Field(default=None, json_schema_extra={"enum": ["set", "run", None]})
    readings: list[Reading] = []


class LayoffAnswer(Verdict):
    targets: list[str] = []
    placements: list[Any] = []


class DrawAnswer(Verdict):
    card: str | None = None
    taken: OutCards = Field(default=[], description="The cards taken, bottom to top")
    ways: list[Way] = []


class CallableCard(Answer):
    card: str | None = None
    take: int | None = None
    how: Way | None = None


class RummyCallAnswer(Verdict):
    deepest: str | None = None
    take: int | None = None
    callable: list[CallableCard] = []


class GoingOutAnswer(Verdict):
    plan: list[str] = []


class PlayerScore(Answer):
    name: str | None = None
    melded: int | None = None
    stranded: int | None = None
    score: int | None = None


class ScoreHandAnswer(Answer):
    players: list[PlayerScore]


class ScoreGameAnswer(Verdict):
    finished: bool | None = None
    winner: int | None = None
    target: int | None = None


class ArrangeAnswer(Answer):
    melds: list[Reading] = []
    stranded: OutCards = []
    value: int | None = None
    complete: bool | None = None
    exact: bool = Field(default=True, description=(
        "true: no split of the cards is better. false: the search stopped at its bound "
        "(search_limit_ms of CPU time) and this is the best split it found"))
    at_most: int | None = Field(default=None, description=(
        "when exact is false: the most melded value any split of the cards could have "
        "(a bound, seldom reached)"))
    search_limit_ms: int | None = Field(default=None, description=(
        "when exact is false: the CPU time the search may take, in milliseconds (the "
        "CPU time of the thread answering, which other processes' load does not add to)"))
    message: str | None = Field(default=None, description=(
        "when exact is false: that said for the reader, in the request's language"))


class RulesAnswer(Answer):
    pass


class LaterCall(Answer):
    player: str
    verdict: Verdict


class LogStep(Answer):
    move: dict[str, Any] = Field(description="the move, as sent (cards in canonical form)")
    pile: OutCards = Field(description="the discard pile after it, bottom to top")
    stock: int = Field(description="the cards left in the stock")
    to_play: str | None = Field(description="who plays next (null: the hand is over)")
    refused: Verdict | None = Field(description=(
        "the rule's verdict on a move it refuses: the move was not played"))
    overridden: Verdict | None = Field(description=(
        "the verdict of a rule the table agreed to override: the move was played"))
    notes: list[str] = Field(description=(
        "what else it did: reshuffled, went-out, floats, stock-out, drawn"))


class LogTableMeld(Answer):
    id: str
    owner: str | None
    kind: str = Field(json_schema_extra={"enum": ["set", "run"]})
    cards: OutCards
    laid_by: list[str | None]


class LogPlayed(Answer):
    step: int
    turn: int
    player: str
    kind: str = Field(json_schema_extra={"enum": ["meld", "layoff"]})
    meld: str
    cards: OutCards


class LogCall(Answer):
    step: int
    caller: str
    discarder: str
    card: str
    take: int
    skipped: list[str] = Field(description="the players whose turn the call skipped")
    later: list[LaterCall] = Field(description=(
        "the calls logged after it on the same discard, each with its verdict"))


class LogAnswers(Answer):
    """The table's questions, answered from the log (each a verdict citing its rules)."""

    after_call: Verdict = Field(description="after the latest call: who plays next, and "
                                            "who lost their turn (rummy.call)")
    may_call: dict[str, Verdict] = Field(description=(
        "may each player call Rummy! now (rummy.call, rummy.own-meld)"))
    may_discard: Verdict | None = Field(default=None, description=(
        "may the player to play discard ask.card now (discard.not-same judges this turn "
        "only)"))
    going_rummy: Verdict = Field(description="did who went out go Rummy "
                                             "(score.going-rummy)")
    stock: Verdict = Field(description=(
        "the stock: a reshuffle or a drawn hand (basic.stock-reshuffle), or the end of "
        "the hand (out.stock-empty)"))
    first_call: Verdict = Field(description="of the calls on one discard, who took the pile")
    turn: Verdict = Field(description="whose turn it is, and who deals next (turn.order)")
    pile: Verdict = Field(description="which depths of the pile can be taken now "
                                      "(draw.deep), with ask.hand")
    out_discard: Verdict = Field(description=(
        "was the going-out discard playable (out.unplayable-discard)"))
    discard_meldable: Verdict = Field(description=(
        "could the latest discard have been melded without a card from a hand "
        "(rummy.call)"))


class LogAnswer(Answer):
    players: list[str]
    dealer: str
    steps: list[LogStep]
    pile: OutCards
    stock: int
    to_play: str | None
    over: bool
    ending: str | None = Field(json_schema_extra={"enum": ["out", "stock", "draw", None]})
    went_out: str | None
    held: dict[str, int] = Field(description="the cards each player holds now")
    table: list[LogTableMeld]
    played: list[LogPlayed] = Field(description="every meld and lay-off, when and by whom")
    calls: list[LogCall]
    answers: LogAnswers


RESPONSES: dict[str, type[BaseModel]] = {
    "referee/meld": MeldAnswer,
    "referee/layoff": LayoffAnswer,
    "referee/draw": DrawAnswer,
    "referee/rummy-call": RummyCallAnswer,
    "referee/going-out": GoingOutAnswer,
    "score/hand": ScoreHandAnswer,
    "score/game": ScoreGameAnswer,
    "arrange": ArrangeAnswer,
    "rules": RulesAnswer,
    "referee/log": LogAnswer,
}


# --- the games API's answers: a game, a hand -------------------------------------------


class StoredLayoff(Answer):
    card: str
    onto: str
    end: str | None = Field(default=None, json_schema_extra={"enum": ["low", "high"]},
                            description="where an ace laid off on a run 2..K went")


class StoredMeld(Answer):
    id: str
    cards: OutCards


class StoredCardPlayer(Answer):
    """A player of a hand stored card by card."""

    name: str
    melds: list[StoredMeld]
    layoffs: list[StoredLayoff]
    hand: OutCards = Field(description="the cards left in the hand")
    going_rummy: bool


class StoredPointsPlayer(Answer):
    """A player of a hand stored as points only."""

    name: str
    points: int
    going_rummy: bool


Ending = Annotated[str, Field(json_schema_extra={"enum": list(HAND_ENDINGS)})]
Scores = Annotated[dict[str, int], Field(description="each player's score for the hand, "
                                                     "by name")]


class MissingCards(Answer):
    """A player whose cards are not all recorded (RULES.md §10 "Fewer cards than dealt")."""

    name: str
    cards: int = Field(description="the cards the hand records for them: melded, laid off "
                                   "and held")
    dealt: int = Field(description="the cards dealt to each player (cards.deal)")


class StoredHand(Answer):
    """A recorded hand, as the games API gives it (and takes back as a HandBody)."""

    id: int = Field(description="the hand's id: it never moves, unlike its number")
    number: int
    version: int = Field(description="send it back with a change (a 409 if it changed)")
    dealer: str | None
    players: list[StoredCardPlayer] | list[StoredPointsPlayer]
    went_out: str | None
    ending: Ending
    points_only: bool
    scores: Scores
    fewer_than_dealt: list[MissingCards] = Field(default_factory=list, description=(
        "the players stored with fewer cards than were dealt (RULES.md §10): a hand sent "
        "with such a player is stored, marked so, and listed here; the pages ask first"))


class HandSummary(Answer):
    id: int
    number: int
    version: int
    ending: Ending
    points_only: bool
    scores: Scores


class GameVerdict(Answer):
    code: str
    rules: list[str] = Field(description="Rule ids from the rule book")


class GameAnswer(Answer):
    """A game: its players, totals, status, winner and hands."""

    id: int
    number: int = Field(description="the game's number in its league")
    family: str = Field(json_schema_extra={"enum": list(FAMILIES)})
    rules: Annotated[dict[str, Any], WithJsonSchema(_ref("Rules"))] = Field(description=(
        "the family and the options that differ from its defaults"))
    status: str = Field(json_schema_extra={"enum": list(GAME_STATUSES)})
    players: list[str]
    totals: list[int] = Field(description="each player's running total, as players")
    winner: str | None
    verdict: GameVerdict
    hands: list[HandSummary]


class HandWritten(Answer):
    """A hand recorded or changed: the hand stored, and the game after."""

    hand: StoredHand
    game: GameAnswer


class GameAfter(Answer):
    """A hand deleted: the game after (later hands moved up one)."""

    game: GameAnswer


#: What can be undone at a game's table (scorebook.services.undo.TABLE_KINDS).
UNDO_KINDS = ["hand-recorded", "hand-edited", "hand-deleted", "hand-finished", "live-move"]


class UndoStepAnswer(Answer):
    """A change at the table that can be undone (or was)."""

    id: int = Field(description="the step's id: POST /games/{game_id}/undo/{id} undoes it")
    kind: str = Field(json_schema_extra={"enum": UNDO_KINDS})
    number: int | None = Field(description="the hand it changed (its number then)")
    action: str = Field(description="the history entry it logged (recorded, edited, …)")
    by: str = Field(description="the phone that made the change, as the history names it")
    at: str = Field(description="when it was made (ISO 8601, UTC)")
    until: str = Field(description="until when it can be undone (ISO 8601, UTC)")
    undone: bool


class UndoOffer(Answer):
    """The game's newest change, if a scorer may still undo it (else null)."""

    undo: UndoStepAnswer | None


class UndoDone(Answer):
    """A change undone: the step, and the game after."""

    undone: UndoStepAnswer
    game: GameAnswer


class StandingRow(Answer):
    """A player's line of the standings, in the standings' order."""

    place: int = Field(description=(
        "the place in the standings: by the first of ranked_by, then the others in turn "
        "(the better first); players equal on all of them share a place (1, 2, 2, 4)"))
    player: str
    games: int
    wins: int
    win_rate: float = Field(description="wins / games, 0 to 1")
    avg_position: float | None = Field(description="average finishing place (2 decimals)")
    avg_hand: float | None = Field(description="average hand score (1 decimal)")
    best_hand: int | None
    best_total: int | None = Field(description="highest final total")
    melded: int = Field(description="points melded and laid off")
    stranded: int = Field(description="points left stranded in hand")
    streak: int = Field(description="wins in a row (3), or games without a win (-2)")
    rating: int | None
    retired: bool


class SeasonSummary(Answer):
    id: int
    name: str
    starts_on: str = Field(description="first day, YYYY-MM-DD")
    ends_on: str = Field(description="last day, YYYY-MM-DD")


class StandingsAnswer(Answer):
    """A league's standings over a season or all time, placed as its standings page
    places them."""

    league: str
    season: SeasonSummary | None = Field(description="none: all time")
    ranked_by: list[str] = Field(description=(
        "what places go by, in order: wins, then win_rate, then avg_position"))
    standings: list[StandingRow]


# --- background jobs (/jobs) ------------------------------------------------------------


class JobAnswer(Answer):
    """A background job this browser asked for (a league import; a ratings replay), and
    how far it has got."""

    id: int
    kind: str = Field(json_schema_extra={"enum": ["league-import", "ratings"]})
    state: str = Field(json_schema_extra={"enum": ["queued", "running", "done", "failed"]},
                       description="queued, running, done or failed")
    done: int = Field(description="how much is done: an import's games checked and stored")
    total: int | None = Field(description="of how much (none: not known yet)")
    seconds_left: int | None = Field(description=(
        "how long the rest may take, at the job's own pace so far (none: not running, or "
        "too early to say)"))
    result: dict[str, Any] | None = Field(description=(
        "what a finished job made (an import: league, name, games)"))
    error: list[str] | None = Field(description="why it failed, in words")
    attempts: int = Field(description="how many times a worker took it (a restart: one more)")
    created_at: str | None
    started_at: str | None
    finished_at: str | None
    url: str = Field(description="the job's page")
    league_url: str | None = Field(default=None, description=(
        "a finished import: the league's page, the league now this browser's"))


class JobList(Answer):
    """The jobs this browser asked for (the latest 20), newest first."""

    jobs: list[JobAnswer]


# --- the played hand: a live hand logged turn by turn (/games/{game_id}/played) ---------


class PlayedStart(Body):
    """Start the game's next hand (or the live hand, while it holds no meld) as a played
    hand: its deal."""

    upcard: Card = Field(description="the first card turned up to start the discard pile")
    dealer: Maybe(Name, description=(
        "who dealt (a player of the game; left out: whoever's turn it is to deal)"))
    dealt: Maybe(Whole(1, 54), description=(
        "the cards dealt to each player, if the table knows (cards.deal when left out)"))


class PlayedMoveBody(LogMove):
    """One move of the played hand's log (as a move of /referee/log), with the log's
    length it was made against and the phone's key for this send."""

    length: Whole(0, MAX_MOVES) = Field(description=(
        "how many moves the log held when the move was made (GET's length): a move made "
        "against a log another phone has grown since is a 409, not logged"))
    key: Annotated[str | None, Field(default=None, pattern=f"^({SEND_KEY.pattern})$",
                                     description=(
        "the phone's key for this send (or the Idempotency-Key header): sent again, the "
        "move is answered as already logged (200, already_logged), never logged twice"))]


class PlayedUndoBody(Body):
    """Take back the log's last move."""

    length: Whole(0, MAX_MOVES) = Field(description=(
        "how many moves the log held when the phone asked (its last move is the one taken "
        "back): a log that changed since is a 409, and nothing is taken back"))


def played_refused(kind: str, body: dict[str, Any]) -> PayloadError | None:
    """Why ``body`` is not a played hand's ``start``, ``move`` or ``undo``, or None."""
    model = {"start": PlayedStart, "move": PlayedMoveBody, "undo": PlayedUndoBody}[kind]
    return _refusal(model, body)


class PlayedHandRef(Answer):
    id: int
    number: int
    version: int


class PlayedAnswer(LogAnswer):
    """The played hand: its deal, the log's length and the log replayed (every step with
    the pile after it, the moves the table agreed to against a rule, what each player
    melded when) with the table's questions answered."""

    hand: PlayedHandRef = Field(description="the live hand the log belongs to")
    upcard: str = Field(description="the first card turned up")
    dealt: int = Field(description="the cards dealt to each player")
    length: int = Field(description="how many moves the log holds: send it with a move")


class LoggedMove(Answer):
    position: int = Field(description="its place in the log, from 0")
    move: dict[str, Any] = Field(description="the move as logged, without its player")
    overridden: str | None = Field(description=(
        "the message id of the rule's verdict the table agreed to override"))


class PlayedLogged(Answer):
    """A move logged (or, already_logged, logged before by a send with the same key)."""

    logged: LoggedMove
    already_logged: bool
    played: PlayedAnswer


class PlayedUndone(Answer):
    """The move taken back, and the played hand after."""

    undone: LoggedMove
    played: PlayedAnswer


# --- errors ---------------------------------------------------------------------------


class ErrorDetail(Answer):
    code: str
    message: str = Field(description="what is wrong, in the request's language")
    rules: list[str] | None = Field(default=None, description=(
        "the rule ids from the rule book that the refusal rests on, when it rests on one "
        "(holds-no-cards: out.empty-hand)"))


class Error(Answer):
    """A refusal: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


def _coded(name: str, codes: list[str], doc: str) -> type[Error]:
    """An ``Error`` whose code is one of ``codes``."""
    detail = create_model(f"{name}Detail", __base__=ErrorDetail,
                          code=(str, Field(json_schema_extra={"enum": codes})))
    return create_model(name, __base__=Error, __doc__=doc, error=(detail, ...))


class Problem(Answer):
    message: str
    player: str | None = Field(description="whose cards or points (none: the hand's)")
    field: str | None = Field(description="which of the player's fields")
    index: int | None


class HandErrorDetail(ErrorDetail):
    problems: list[Problem] = Field(description="each thing wrong, and where")


class HandRefused(Error):
    """A hand the games API does not store: each problem, and where."""

    error: HandErrorDetail


#: Why a write to a hand was not applied (409): another phone was first.
CONFLICT_CODES = ["hand-recorded", "hand-live", "game-changed", "game-closed",
                  "hand-changed", "hands-renumbered", "hand-deleted"]


class ConflictDetail(ErrorDetail):
    code: str = Field(json_schema_extra={"enum": CONFLICT_CODES})
    renumbered: bool | None = Field(default=None, description=(
        "whether the hands were renumbered since you read them (a hand before it deleted)"))
    hand: StoredHand | None = Field(default=None, description="the hand as it is now")
    problems: list[Problem] | None = Field(default=None, description="(game-closed)")


class Conflict(Error):
    """Nothing was changed: another phone changed the game first."""

    error: ConflictDetail


class GoneDetail(HandErrorDetail):
    code: str = Field(json_schema_extra={"enum": ["hand-deleted-since"]})


#: Why an undo was not made (409): the game changed since, or it was undone already.
UNDO_REFUSED_CODES = ["undo-overtaken", "undone-already", "hand-changed", "move-changed",
                      "hand-finished", "hand-cancelled", "game-closed"]


class UndoRefusedDetail(HandErrorDetail):
    code: str = Field(json_schema_extra={"enum": UNDO_REFUSED_CODES})


class UndoRefused(Error):
    """Nothing was undone: the game changed since (message: what, and on which phone),
    or another phone undid it first. An undo never overwrites a newer change."""

    error: UndoRefusedDetail


class UndoExpiredDetail(HandErrorDetail):
    code: str = Field(json_schema_extra={"enum": ["undo-expired"]})


class UndoExpired(Error):
    """The change can no longer be undone: its time (UNDO_MINUTES) ran out."""

    error: UndoExpiredDetail


class Gone(Error):
    """The hand a write with this Idempotency-Key stored (or changed) was deleted since,
    on another phone: nothing is stored again. To store it after all, send it with a new
    key."""

    error: GoneDetail


#: Why a played hand's start, move or undo was not made (409).
PLAYED_CONFLICT_CODES = ["log-overtaken", "played-already", "live-moves", "hand-finished",
                         "hand-cancelled", "hand-changed", "hand-recorded", "game-closed"]


class PlayedConflictDetail(ErrorDetail):
    code: str = Field(json_schema_extra={"enum": PLAYED_CONFLICT_CODES})
    length: int | None = Field(default=None, description=(
        "log-overtaken: how many moves the log holds now"))
    problems: list[Problem] | None = Field(default=None, description="(game-closed)")
    renumbered: bool | None = None


class PlayedConflict(Error):
    """Nothing was logged or taken back: another phone logged (or took back) a move first,
    or the hand ended; the log is as the other phone left it (GET it again)."""

    error: PlayedConflictDetail


class MoveRefusedDetail(HandErrorDetail):
    reason: str | None = Field(default=None, description=(
        "rule-refused: the message id of the rule's verdict (send the move again with "
        "agreed true to log it all the same, as the table's agreement)"))


class RefusedMove(Error):
    """A move not logged: a rule refuses it (rule-refused, its rule ids in rules), or the
    log cannot hold it (out of turn, a card the player cannot hold: the code says)."""

    error: MoveRefusedDetail


class PlayedMissingDetail(ErrorDetail):
    code: str = Field(json_schema_extra={"enum": ["not_found", "not-played"]})
    problems: list[Problem] | None = None


class PlayedMissing(Error):
    """No such game (or not in your leagues), or (not-played) no hand of it is being
    logged turn by turn."""

    error: PlayedMissingDetail


NotFound = _coded("NotFound", ["not_found"], "No such game or hand (or not in your leagues).")
Forbidden = _coded("Forbidden", ["forbidden"], "A viewer may read the game, not change it.")
TooLarge = _coded("TooLarge", ["payload_too_large"], "The body is larger than the limit.")
TooManyRequests = _coded("TooManyRequests", ["too_many_requests"],
                         "Too many questions from one address.")
SearchTooLarge = _coded("SearchTooLarge", ["search-too-large"],
                        "Too many ways to arrange the cards to answer in time.")
VersionMissing = _coded("VersionMissing", ["version-required"],
                        "The change did not say which version of the hand it is for.")


# --- parameters: path, query, header ----------------------------------------------------


class Parameters(BaseModel):
    """An operation's parameters in one place of the request (``located``): each field
    a parameter, named by its alias."""

    located: ClassVar[str]
    model_config = ConfigDict(populate_by_name=True)


class GamePath(Parameters):
    located = "path"
    game_id: int = Field(ge=0, le=MAX_ID)


class HandPath(GamePath):
    number: int = Field(ge=0, le=MAX_ID, description="the hand's number in the game")


class UndoPath(GamePath):
    step_id: int = Field(ge=0, le=MAX_ID, description="the step's id (GET …/undo)")


class PlayedQuery(Parameters):
    """What the table asks of its played hand (as ask in /referee/log)."""

    located = "query"
    card: str | None = Field(default=None, max_length=20, description=(
        "may_discard: the card the player to play means to discard"))
    hand: str | None = Field(default=None, max_length=400, description=(
        "pile: the cards the player to play holds, as text (7S 8S 9S)"))


class LeaguePath(Parameters):
    located = "path"
    league_id: int = Field(ge=0, le=MAX_ID)


class JobPath(Parameters):
    located = "path"
    job_id: int = Field(ge=0, le=MAX_ID)


class SeasonQuery(Parameters):
    located = "query"
    season_id: int | None = Field(default=None, ge=0, le=MAX_ID, description=(
        "one of the league's seasons (without it: all time)"))


class ReadQuery(Parameters):
    """What a change or a deletion says it read (or version and id in the body)."""

    located = "query"
    version: int | None = Field(default=None, ge=0, le=MAX_ID, description=(
        "the version of the hand you read (or version in the body)"))
    id: int | None = Field(default=None, ge=0, le=MAX_ID, description=(
        "the id of the hand you read (or id in the body)"))


class WriteHeaders(Parameters):
    located = "header"
    idempotency_key: str | None = Field(
        default=None, alias="Idempotency-Key", pattern=f"^({SEND_KEY.pattern})?$",
        description="your key for this write (8 to 64 letters, digits, - or _), kept "
                    f"{SEND_KEY_DAYS} days: sent again with the same key (its answer lost, or sent "
                    "twice at once), the write is answered with the hand it stored "
                    "(200, Idempotent-Replayed: true) instead of storing it twice, or, "
                    "if that hand was deleted since, with 410 (hand-deleted-since); a "
                    "malformed key is a 400 (bad-key)")


def parameters(models: tuple[type[Parameters], ...]) -> list[dict[str, Any]]:
    """The OpenAPI parameter objects of ``models``' fields."""
    out = []
    for model in models:
        schema = model.model_json_schema(mode="validation")
        for name, field in model.model_fields.items():
            key = field.alias or name
            prop = _refs(schema["properties"][key])
            prop.pop("description", None)
            if "anyOf" in prop and {"type": "null"} in prop["anyOf"]:  # left out instead
                (prop,) = (p for p in prop["anyOf"] if p != {"type": "null"})
            item: dict[str, Any] = {"name": key, "in": model.located,
                                    "required": model.located == "path" or field.is_required(),
                                    "schema": prop}
            if field.description:
                item["description"] = field.description
            out.append(item)
    return out


# --- the leaves' components: the grammar their parsers check ------------------------------

CARD = {"type": "string", "pattern": CARD_PATTERN,
        "description": "A card: rank and suit (7S, 10h, S10, 7♠, AD), JK for a joker, JK=8H "
                       "for a joker declared as a card, JK=9 as a rank (in a set)",
        "examples": ["7S", "10H", "JK", "JK=8H"]}
#: Cards: a list, or one string of them split on spaces, commas or semicolons.
CARDS = {"anyOf": [
    {"type": "array", "items": {"$ref": REF.format(model="Card")}, "maxItems": MAX_CARDS},
    {"type": "string", "pattern": cards_text_pattern(), "examples": ["7s 8s 9s"]}]}
NAME = {"anyOf": [
    {"type": "string", "pattern": TEXT_PATTERN, "maxLength": MAX_TEXT},
    {"type": "integer", "minimum": -MAX_ID_NUMBER - 1, "maximum": MAX_ID_NUMBER,
     "description": "read as its digits"}],
    "description": f"A name or an id: one line of at most {MAX_TEXT} characters with more "
                   "than spaces in it and no control character (NUL, a tab, a line break), "
                   "or a whole number. Spaces around it are dropped."}


def _option_schema(spec: OptionSpec) -> dict[str, Any]:
    """A house-rule option's values, as JSON Schema."""
    if spec.kind == "bool":
        return {"type": "boolean"}
    if spec.kind == "choice":
        return {"enum": list(spec.choices)}
    return {"type": ["integer", "null"] if spec.nullable else "integer",
            "minimum": spec.minimum, "maximum": spec.maximum}


def _requirement(need: Requirement) -> dict[str, Any]:
    return {"if": {"required": [need.option],
                   "properties": {need.option: {"const": need.value}}},
            "then": {"properties": {need.other: {"const": need.needed}}},
            "description": need.message.split(":")[0]}


def rules_object() -> dict[str, Any]:
    """The ``Rules`` object, derived from the rule set's declaration of its options
    (referee.rules.OPTION_SPECS and REQUIREMENTS): the same checks as make_rules."""
    basic = {o.name: {"const": o.basic_value} for o in OPTION_SPECS if o.basic_fixed}
    return {
        "type": "object",
        "description": "A family (pagat-500 when left out) plus house-rule options; an "
                       "unknown option, or options that contradict each other or the family, "
                       "do not fit.",
        "properties": {"family": {"enum": list(FAMILIES)},
                       **{o.name: _option_schema(o) for o in OPTION_SPECS}},
        "additionalProperties": False,
        "allOf": [
            {"if": {"required": ["family"], "properties": {"family": {"const": "basic"}}},
             "then": {"properties": basic}},
            *(_requirement(need) for need in REQUIREMENTS),
        ],
    }


RULES = {"anyOf": [rules_object(), {"enum": list(FAMILIES), "description": "a family alone"},
                   {"type": "null"}]}
#: The components the leaves' schemas name (:func:`_ref`).
LEAVES = {"Card": CARD, "Cards": CARDS, "Name": NAME, "Rules": RULES}


# --- the document's components ------------------------------------------------------------


def components(answers: list[type[BaseModel]]) -> dict[str, Any]:
    """The schemas of every model, by name, as the OpenAPI document's components: the
    leaves, every request body and ``answers`` (the bodies of the responses)."""
    models: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        (LaidCard, "validation"), (PlayerMeld, "validation"), (HandBody, "validation"),
        (PointsPlayer, "validation"), (CardPlayer, "validation"),
        (PlayedStart, "validation"), (PlayedMoveBody, "validation"),
        (PlayedUndoBody, "validation"),
        *((m, "validation") for m in REQUESTS.values()),
        *((m, "serialization") for m in answers)]
    _, top = models_json_schema(models, ref_template=REF)
    schemas: dict[str, Any] = _refs(top.get("$defs", {}))
    return {**LEAVES, **schemas}
