"""The OpenAPI 3.1 document of the JSON API, served at ``/api/v1/openapi.json``."""

from __future__ import annotations

from typing import Any

from referee import FAMILIES
from referee.rules import OPTION_SPECS, REQUIREMENTS, OptionSpec, Requirement
from scorebook.api.schemas import REQUESTS, RESPONSES, components
from scorebook.plain_text import MAX_ID
from scorebook.services.payloads import (
    CARD_PATTERN,
    MAX_CARDS,
    MAX_ID_NUMBER,
    MAX_TEXT,
    TEXT_PATTERN,
    cards_text_pattern,
)

# --- what a request may hold: the same grammar scorebook.services.payloads checks -----------------

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


_BOOL = _nullable({"type": "boolean"})
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


#: What the games API refuses in a hand that fits the document.
HAND_CODES = ["invalid-hand", "bad-players", "bad-key", *DECKS, *SCORING_CODES, *POINTS_CODES]
#: A hand's body: the players' cards, or (points_only) their points (scorebook.api.schemas).
HAND_BODY = {"$ref": "#/components/schemas/HandBody"}
#: An edit's body: the hand, and the version (and id) of the hand read.
EDIT_BODY = {"allOf": [HAND_BODY, {"required": ["version"]}]}


def _json(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if schema is not None:
        out["content"] = {"application/json": {"schema": schema}}
    return out


#: Each question: its summary, and the 400s a body that fits can still get.
QUESTION_DOCS: dict[str, tuple[str, list[str]]] = {
    "referee/meld": ("Is this a legal meld? Every reading of the cards.", ["too-many-cards"]),
    "referee/layoff": ("Can this card be laid off (on this meld)?",
                       [*DECKS, *TABLE_CODES, "unknown-meld"]),
    "referee/draw": ("May the player take this many cards from the discard pile?",
                     [*DECKS, *TABLE_CODES, "take-too-deep", "empty-pile", "took-not-on-top",
                      "take-not-took"]),
    "referee/rummy-call": ("Is this call of \"Rummy!\" legal? Every callable card in the "
                           "pile.", [*DECKS, *TABLE_CODES]),
    "referee/going-out": ("May the player go out with this hand (and this last discard)?",
                          [*DECKS, *TABLE_CODES, "took-not-in-hand"]),
    "score/hand": ("Each player's points for one hand.", [*DECKS, *SCORING_CODES]),
    "score/game": ("Is the game over after this hand, and who won?",
                   ["unknown-player", "names-mismatch"]),
    "arrange": ("The split of cards into melds with the highest melded value.",
                ["too-many-cards", "too-many-copies", "no-jokers"]),
    "rules": ("A rule set resolved: every option, decks, deal and target.", []),
}
#: The questions that run the meld search (a 422 when it cannot answer in time).
SEARCHING = ("referee/going-out", "arrange")


def _question(path: str) -> dict[str, Any]:
    """A question's operation: its body and its answer are the models of
    scorebook.api.schemas."""
    summary, codes = QUESTION_DOCS[path]
    operation = _post(summary, _ref(REQUESTS[path]), _ref(RESPONSES[path]), codes)
    return _searching(operation) if path in SEARCHING else operation


def _ref(model: type) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


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
            **{f"/{path}": _question(path) for path in REQUESTS},
            **_games_paths(),
        },
        "components": {"schemas": {
            "Card": CARD, "Cards": CARDS, "Name": NAME, "Rules": RULES,
            **components(),
        }},
    }
