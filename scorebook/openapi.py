"""The OpenAPI 3.1 document of the JSON API, served at ``/api/v1/openapi.json``."""

from __future__ import annotations

from typing import Any

from referee import FAMILIES
from referee.rules import OPTION_SPECS, REQUIREMENTS, OptionSpec, Requirement
from scorebook.payloads import (
    CARD_PATTERN,
    MAX_CARDS,
    MAX_ID_NUMBER,
    MAX_TEXT,
    TEXT_PATTERN,
    cards_text_pattern,
)
from scorebook.plain_text import MAX_ID, MAX_POINTS
from scorebook.questions import ARRANGE_MOST

# --- what a request may hold: the same grammar scorebook.payloads checks -----------------

CARD = {"type": "string", "pattern": CARD_PATTERN,
        "description": "A card: rank and suit (7S, 10h, S10, 7♠, AD), JK for a joker, JK=8H "
                       "for a joker declared as a card, JK=9 as a rank (in a set)",
        "examples": ["7S", "10H", "JK", "JK=8H"]}
#: Cards: a list, or one string of them split on spaces, commas or semicolons.
CARDS = {"anyOf": [
    {"type": "array", "items": {"$ref": "#/components/schemas/Card"}, "maxItems": MAX_CARDS},
    {"type": "string", "pattern": cards_text_pattern(), "examples": ["7s 8s 9s"]}]}
NAME = {"anyOf": [
    {"type": "string", "pattern": TEXT_PATTERN, "maxLength": MAX_TEXT},
    {"type": "integer", "minimum": -MAX_ID_NUMBER - 1, "maximum": MAX_ID_NUMBER,
     "description": "read as its digits"}],
    "description": f"A name or an id: one line of at most {MAX_TEXT} characters with more "
                   "than spaces in it and no control character (NUL, a tab, a line break), "
                   "or a whole number. Spaces around it are dropped."}


def _nullable(schema: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """``schema`` or null (null means the same as leaving the property out)."""
    return {"anyOf": [schema, {"type": "null"}], **extra}


def _some_cards(least: int = 0, most: int = MAX_CARDS) -> dict[str, Any]:
    """Cards as :data:`CARDS`, from ``least`` (0 or 1) to ``most`` of them."""
    if (least, most) == (0, MAX_CARDS):
        return {"$ref": "#/components/schemas/Cards"}
    return {"anyOf": [
        {"type": "array", "items": {"$ref": "#/components/schemas/Card"},
         "minItems": least, "maxItems": most},
        {"type": "string", "pattern": cards_text_pattern(most, least)}]}


_BOOL = _nullable({"type": "boolean"})
_CARDS = {"$ref": "#/components/schemas/Cards"}
_NAME = {"$ref": "#/components/schemas/Name"}
_CARD = {"$ref": "#/components/schemas/Card"}

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


RULES_OBJECT = rules_object()
RULES = {"anyOf": [RULES_OBJECT, {"enum": list(FAMILIES), "description": "a family alone"},
                   {"type": "null"}]}
#: A body whose rules are Basic Rummy's (played by 2 to 4).
_IS_BASIC = {"required": ["rules"], "properties": {"rules": {"anyOf": [
    {"const": "basic"},
    {"type": "object", "required": ["family"], "properties": {"family": {"const": "basic"}}}]}}}
BASIC_MOST = 4
TABLE_MELD = {
    "type": "object",
    "required": ["cards"],
    "properties": {
        "id": {**_NAME, "description": "m1, m2… in table order when left out"},
        "owner": _nullable(_NAME),
        "cards": {"anyOf": [
            {"type": "array", "maxItems": MAX_CARDS, "items": {"anyOf": [
                _CARD,
                {"type": "object", "required": ["card"],
                 "properties": {"card": _CARD, "by": _nullable(
                     _NAME, description="who laid it off (the owner when left out)")}},
            ]}},
            {"type": "string", "pattern": cards_text_pattern(),
             "description": "The cards in one string (all laid by the owner)."},
        ]},
    },
}
TABLE = _nullable({"type": "array", "items": {"$ref": "#/components/schemas/TableMeld"}},
                  description="Melds on the table, cards in the order they lie.")
LAYOFF = {"type": "object", "required": ["card", "onto"], "properties": {
    "card": _CARD, "onto": {**_NAME, "description": "a meld's id"},
    "end": _nullable({"enum": ["low", "high"]}, description=(
        "Where an ace laid off on a run 2..K went, which decides its value "
        "(values.ace-end): low scores the low-ace value, high 15. Left out: where it "
        "fits, an ace on 2..K at the low end"))}}
PLAYER_HAND = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": _NAME,
        "melds": _nullable({"type": "array", "items": {"anyOf": [
            {"$ref": "#/components/schemas/Cards"},
            {"type": "object", "required": ["cards"], "properties": {
                "id": {**_NAME, "description": "<name>-1, <name>-2… when left out"},
                "cards": {"$ref": "#/components/schemas/Cards"}}},
        ]}}),
        "layoffs": _nullable({"type": "array", "items": {"$ref": "#/components/schemas/Layoff"}}),
        "hand": _nullable({"$ref": "#/components/schemas/Cards"},
                          description="the cards left in the hand"),
        "going_rummy": _BOOL,
    },
}
#: One player of a hand given as points only: the points, and no cards.
_NO_CARDS = {"anyOf": [{"type": "null"}, {"const": ""}, {"type": "array", "maxItems": 0}]}
POINTS = {"type": "integer", "minimum": -MAX_POINTS, "maximum": MAX_POINTS,
          "description": "the player's points for the hand (a points-only hand); the game's "
                         "rules bound them further: nobody below zero who went out, only "
                         "the winner scores in Basic Rummy (the x-content-codes of "
                         "referee.score_points)"}
POINTS_PLAYER = {
    "type": "object",
    "required": ["name", "points"],
    "properties": {"name": _NAME, "points": POINTS, "going_rummy": _BOOL,
                   "melds": _NO_CARDS, "layoffs": _NO_CARDS, "hand": _NO_CARDS},
}
PLAYERS = _nullable({"type": "integer", "minimum": 2, "maximum": 8},
                    description="The number of players (two decks from 5; 2 when left out); "
                                f"Basic Rummy is played by 2 to {BASIC_MOST}")

#: A 400 for a body that fits the document, each operation's own (x-content-codes): what
#: a schema cannot say, as the cards of the decks in play or the meld a card goes on.
DECKS = ["too-many-cards", "too-many-melds", "too-many-copies", "no-jokers"]
TABLE_CODES = ["illegal-meld", "ambiguous-meld", "duplicate-meld"]
SCORING_CODES = ["illegal-meld", "duplicate-meld", "unknown-meld", "bad-layoff",
                 "bad-going-rummy", "duplicate-player", "unknown-player"]
#: What a hand given as points only may be refused for (referee.score_points).
POINTS_CODES = ["points-out-of-range", "points-too-many", "went-out-below-zero",
                "only-winner-scores", "going-rummy-odd"]
#: Refused whatever the operation: past the limits of every request (scorebook.limits).
LIMIT_CODES = ["too-deep", "too-many-values", "payload_too_large"]
CONTENT_HELP = (
    "The body does not fit this document; or it fits, but what it says cannot be: the "
    "error's code is then one of x-content-codes (cards the decks in play do not hold, a "
    "meld that is not one, a lay-off or a player that names nothing given). Any body is "
    "also refused past the limits of every request: larger than the API's body limit "
    "(413), JSON nested deeper than 16 levels or holding more than 5,000 values (400, "
    "too-deep or too-many-values).")


VERDICT = {
    "type": "object",
    "required": ["legal", "code", "rules", "message"],
    "properties": {
        "legal": {"type": "boolean"},
        "code": {"type": "string"},
        "rules": {"type": "array", "items": {"type": "string"},
                  "description": "Rule ids from the rule book"},
        "params": {"type": "object"},
        "message": {"type": "string"},
    },
}
#: Cards in an answer: always a list, each card written as 7S, 10H, JK or JK=8H.
OUT_CARDS = {"type": "array", "items": {"type": "string"}}
WAY = {"type": "object", "properties": {"kind": {"enum": ["meld", "layoff"]},
                                        "cards": OUT_CARDS, "meld": {"type": "string"}}}
READING = {"type": "object", "properties": {"kind": {"enum": ["set", "run"]},
                                            "cards": OUT_CARDS, "value": {"type": "integer"}}}
TOOK = {**_CARDS, "description": "The cards taken from the discard pile this turn, listed "
        "bottom to top like pile: the first is the deepest card taken"}


def _with(schema: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {"allOf": [{"$ref": "#/components/schemas/Verdict"},
                      {"type": "object", "properties": props}]} if schema is VERDICT else schema


def _bad_input(codes: list[str]) -> dict[str, Any]:
    listed = ", ".join(codes) if codes else "none: every body that fits is answered"
    return {"description": f"{CONTENT_HELP} Here x-content-codes: {listed}.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _post(summary: str, request: dict[str, Any], response: dict[str, Any],
          codes: list[str]) -> dict[str, Any]:
    return {"post": {
        "summary": summary,
        "requestBody": {"required": True,
                        "content": {"application/json": {"schema": request}}},
        "x-content-codes": codes,
        "responses": {
            "200": {"description": "The answer",
                    "content": {"application/json": {"schema": response}}},
            "400": _bad_input(codes),
            "413": {"description": "The body is larger than the API's limit",
                    "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/Error"}}}},
            "429": {"description": "Too many questions from one address (Retry-After says "
                                   "when to ask again)"},
        },
    }}


def _searching(operation: dict[str, Any]) -> dict[str, Any]:
    """An operation that runs the meld search, which may refuse a question it cannot
    answer in time (422 ``search-too-large``)."""
    operation["post"]["responses"]["422"] = {
        "description": "Too many ways to arrange the cards to answer in time "
                       "(code search-too-large)",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    return operation


def _obj(required: list[str], **props: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": props}


def _question(required: list[str], **props: Any) -> dict[str, Any]:
    """A referee question: ``rules`` and ``players`` (the decks in play) and ``props``;
    Basic Rummy's tables have 2 to 4 players."""
    return {**_obj(required, rules=RULES_REF, players=PLAYERS, **props),
            "if": _IS_BASIC, "then": {"properties": {"players": {"maximum": BASIC_MOST}}}}


def _seated(key: str, items: dict[str, Any], **props: Any) -> dict[str, Any]:
    """A body with one ``items`` per player in ``key`` (2 to 8; Basic Rummy 2 to 4)."""
    return {**_obj([key], rules=RULES_REF, **{key: {
                "type": "array", "items": items, "minItems": 2, "maxItems": 8}}, **props),
            "if": _IS_BASIC, "then": {"properties": {key: {"maxItems": BASIC_MOST}}}}


RULES_REF = {"$ref": "#/components/schemas/Rules"}
TABLE_REF = {"$ref": "#/components/schemas/Table"}
#: What the games API refuses in a hand that fits the document.
HAND_CODES = ["invalid-hand", "bad-players", "bad-key", *DECKS, *SCORING_CODES, *POINTS_CODES]
_HAND_BODY = _obj(
    ["players"],
    number=_nullable({"type": "integer", "minimum": 1, "maximum": MAX_ID},
                     description="the number of the hand being recorded (the next one)"),
    id=_nullable({"type": "integer", "minimum": 0, "maximum": MAX_ID},
                 description="the id of the hand you read (it never moves, unlike its "
                             "number): send it with a change"),
    version=_nullable({"type": "integer", "minimum": 0, "maximum": MAX_ID},
                      description="the version of the hand you read (a 409 if it changed); "
                                  "required to change a hand (a 428 without it)"),
    went_out=_nullable(_NAME),
    ending=_nullable({"enum": ["out", "stock", "draw"]},
                     description="how the hand ended; may be left out only when went_out "
                                 "names who went out (a stock-out or a draw is never "
                                 "assumed)"),
    points_only=_nullable({"type": "boolean"}, description=(
        "true: the hand is given as each player's points, not its cards (nobody wanted to "
        "itemise it): each player has points and no cards, and the referee checks only "
        "the outcome and that the points can be (it is marked points only wherever it "
        "is shown). false or left out: the cards, as in /score/hand; no points")),
    players={"type": "array", "minItems": 2, "maxItems": 8,
             "description": "every player of the game: their cards, as in /score/hand, or "
                            "for a points-only hand their points"})
#: A hand's body: the players' cards, or (points_only) their points.
HAND_BODY = {
    **_HAND_BODY,
    "if": {"required": ["points_only"], "properties": {"points_only": {"const": True}}},
    "then": {"properties": {"players": {"items": {"$ref": "#/components/schemas/PointsPlayer"}}}},
    "else": {"properties": {"players": {"items": {
        "allOf": [{"$ref": "#/components/schemas/PlayerHand"},
                  {"properties": {"points": {"type": "null"}}}]}}}},
}
#: An edit's body: the hand, and the version (and id) of the hand read.
EDIT_BODY = {**HAND_BODY, "required": ["players", "version"]}


def _json(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if schema is not None:
        out["content"] = {"application/json": {"schema": schema}}
    return out


def _games_paths() -> dict[str, Any]:
    """A game's hands: read, record, edit, delete (409 when another phone was first).

    A game is private to its league: the browser's session cookie must hold a membership
    (a viewer reads; a scorer or the owner changes), else the game answers 404."""
    game_id = {"name": "game_id", "in": "path", "required": True,
               "schema": {"type": "integer", "minimum": 0}}
    number = {"name": "number", "in": "path", "required": True,
              "schema": {"type": "integer", "minimum": 0}}
    version = {"name": "version", "in": "query", "required": False,
               "description": "the version of the hand you read (or version in the body)",
               "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID}}
    hand_id = {"name": "id", "in": "query", "required": False,
               "description": "the id of the hand you read (or id in the body)",
               "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID}}
    idempotency = {"name": "Idempotency-Key", "in": "header", "required": False,
                   "description": "your key for this write (8 to 64 letters, digits, - or "
                                  "_): sent again with the same key, the write is answered "
                                  "with the hand it stored (Idempotent-Replayed: true) "
                                  "instead of storing it twice; a malformed key is a 400 "
                                  "(bad-key)",
                   "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{8,64}$"}}
    error = _json("No such game or hand (or not in your leagues)",
                  {"$ref": "#/components/schemas/Error"})
    bad = _bad_input(HAND_CODES)
    forbidden = _json("A viewer may read the game, not change it",
                      {"$ref": "#/components/schemas/Error"})
    conflict = _json("Another phone saved or changed this hand first, or the hands were "
                     "renumbered since you read them (error.renumbered): nothing was changed; "
                     "the hand as it is now is in error.hand",
                     {"$ref": "#/components/schemas/Error"})
    no_version = _json("The change did not say which version of the hand it is for",
                       {"$ref": "#/components/schemas/Error"})
    body = {"required": True, "content": {"application/json": {"schema": HAND_BODY}}}
    hand = _json("The hand", {"type": "object"})
    return {
        "/games/{game_id}": {"get": {
            "summary": "A game: players, totals, status, winner and its hands",
            "parameters": [game_id],
            "responses": {"200": _json("The game", {"type": "object"}), "404": error}}},
        "/games/{game_id}/hands": {"post": {
            "summary": "Record the next hand",
            "parameters": [game_id, idempotency], "requestBody": body,
            "x-content-codes": HAND_CODES,
            "responses": {"201": hand, "200": _json("The hand a write with the same "
                                                     "Idempotency-Key stored before",
                                                     {"type": "object"}),
                          "400": bad, "403": forbidden, "404": error,
                          "409": conflict}}},
        "/games/{game_id}/hands/{number}": {
            "get": {"summary": "One recorded hand, card by card (or, points_only, each "
                               "player's points)",
                    "parameters": [game_id, number],
                    "responses": {"200": hand, "404": error}},
            "put": {"summary": "Replace a hand's cards or points (send the id and version you "
                               "read); a points-only hand given cards becomes a card "
                               "hand, and a card hand given points points only",
                    "parameters": [game_id, number, version, hand_id, idempotency],
                    "requestBody": {"required": True, "content": {
                        "application/json": {"schema": EDIT_BODY}}},
                    "x-content-codes": HAND_CODES,
                    "responses": {"200": hand, "400": bad, "403": forbidden,
                                  "404": error, "409": conflict, "428": no_version}},
            "delete": {"summary": "Delete a hand (send the id and version you read; later "
                                  "hands move up one)",
                       "description": "version and id as query parameters, or as a JSON "
                                      "body {\"version\": …, \"id\": …}; without a "
                                      "version, 428",
                       "parameters": [game_id, number, version, hand_id],
                       "responses": {"200": _json("The game after"),
                                     "400": _json("version or id is not a number",
                                                  {"$ref": "#/components/schemas/Error"}),
                                     "403": forbidden, "404": error, "409": conflict,
                                     "428": no_version}},
        },
    }


def openapi_document() -> dict[str, Any]:
    ref = {name: {"$ref": f"#/components/schemas/{name}"} for name in ("Verdict", "Way",
                                                                       "Reading")}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Rummy Scorebook API", "version": "1",
                 "description": "The referee and the scoring of 500 Rum, Rummy 500 and Basic "
                                "Rummy. Every verdict cites rule ids from the rule book. "
                                "The referee and scoring endpoints are public; /games/... "
                                "needs a member of the game's league (the session cookie "
                                "of a browser that joined it). A property the document does "
                                "not name is ignored; null is the same as leaving a "
                                "property out. Each operation's x-content-codes lists the "
                                "400s a body that fits the document can still get."},
        "servers": [{"url": "/api/v1"}],
        "paths": {
            "/referee/meld": _post(
                "Is this a legal meld? Every reading of the cards.",
                _question(["cards"], cards=_CARDS),
                _with(VERDICT, kind={"enum": ["set", "run", None]},
                      readings={"type": "array", "items": ref["Reading"]}),
                ["too-many-cards"]),
            "/referee/layoff": _post(
                "Can this card be laid off (on this meld)?",
                _question(["card"], table=TABLE_REF, card=_CARD,
                          meld=_nullable(_NAME, description="a table meld's id")),
                _with(VERDICT, targets={"type": "array", "items": {"type": "string"}},
                      placements={"type": "array"}),
                [*DECKS, *TABLE_CODES, "unknown-meld"]),
            "/referee/draw": _post(
                "May the player take this many cards from the discard pile?",
                {**_question(["hand"], table=TABLE_REF,
                          pile={**_some_cards(least=1), "description": "The discard pile, "
                                "bottom to top (without it, the cards of took are the pile)"},
                          hand=_CARDS,
                          take={"type": "integer", "minimum": 1,
                                "description": "How many cards are taken from the top (1 if "
                                "neither take nor took is given)"},
                          took=_nullable(_some_cards(least=1), description="Instead of take: "
                                         "the cards "
                                         "taken, bottom to top like pile; they must be the "
                                         "top of the pile"),
                          discard=_nullable(_CARD)),
                 # the pile, or the cards taken from it
                 "anyOf": [{"required": ["pile"]},
                           {"required": ["took"],
                            "properties": {"took": _some_cards(least=1)}}]},
                _with(VERDICT, card={"type": "string"},
                      taken={**OUT_CARDS, "description": "The cards taken, bottom to top"},
                      ways={"type": "array", "items": ref["Way"]}),
                [*DECKS, *TABLE_CODES, "take-too-deep", "empty-pile", "took-not-on-top",
                 "take-not-took"]),
            "/referee/rummy-call": _post(
                "Is this call of \"Rummy!\" legal? Every callable card in the pile.",
                _question(["pile", "discarder", "caller"], table=TABLE_REF, pile=_CARDS,
                          discarder=_NAME, caller=_NAME, next_player_drew=_BOOL,
                          hand_over=_BOOL),
                _with(VERDICT, deepest={"type": ["string", "null"]},
                      take={"type": ["integer", "null"]},
                      callable={"type": "array", "items": _obj(
                          [], card={"type": "string"}, take={"type": "integer"},
                          how=ref["Way"])}),
                [*DECKS, *TABLE_CODES]),
            "/referee/going-out": _searching(_post(
                "May the player go out with this hand (and this last discard)?",
                _question(["hand"], table=TABLE_REF, hand=_CARDS, discard=_nullable(_CARD),
                          took=_nullable(_CARDS, description=TOOK["description"] + "; they are "
                                         "among hand. A card taken alone is not the discard; "
                                         "of several, the deepest must be melded (never "
                                         "discarded)")),
                _with(VERDICT, plan={"type": "array", "items": {"type": "string"}}),
                [*DECKS, *TABLE_CODES, "took-not-in-hand"])),
            "/score/hand": _post(
                "Each player's points for one hand.",
                _seated("players", {"$ref": "#/components/schemas/PlayerHand"},
                        went_out=_nullable(_NAME, description="who went out")),
                _obj(["players"], players={"type": "array", "items": _obj(
                    [], name={"type": "string"}, melded={"type": "integer"},
                    stranded={"type": "integer"}, score={"type": "integer"})}),
                [*DECKS, *SCORING_CODES]),
            "/score/game": _post(
                "Is the game over after this hand, and who won?",
                _seated("totals", {"type": "integer"},
                        went_out=_nullable({"type": "integer", "minimum": 0},
                                           description="the index in totals of who went out"),
                        names=_nullable({"type": "array", "items": {"type": "string"}},
                                        description="one per total")),
                _with(VERDICT, finished={"type": "boolean"},
                      winner={"type": ["integer", "null"]}, target={"type": "integer"}),
                ["unknown-player", "names-mismatch"]),
            "/arrange": _searching(_post(
                "The split of cards into melds with the highest melded value.",
                _question(["cards"], cards=_some_cards(most=ARRANGE_MOST)),
                _obj([], melds={"type": "array", "items": ref["Reading"]},
                     stranded=OUT_CARDS, value={"type": "integer"},
                     complete={"type": "boolean"}),
                ["too-many-cards", "too-many-copies", "no-jokers"])),
            "/rules": _post(
                "A rule set resolved: every option, decks, deal and target.",
                _question([]), {"type": "object"}, []),
            **_games_paths(),
        },
        "components": {"schemas": {
            "Card": CARD, "Cards": CARDS, "Name": NAME, "Rules": RULES, "Table": TABLE,
            "TableMeld": TABLE_MELD, "Layoff": LAYOFF, "PlayerHand": PLAYER_HAND,
            "PointsPlayer": POINTS_PLAYER,
            "Verdict": VERDICT, "Way": WAY, "Reading": READING,
            "Error": _obj(["error"], error=_obj(["code", "message"], code={"type": "string"},
                                               message={"type": "string"})),
        }},
    }
