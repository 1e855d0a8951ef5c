"""The OpenAPI 3.1 document of the JSON API, served at ``/api/v1/openapi.json``."""

from __future__ import annotations

from typing import Any

CARD = {"type": "string", "description": "A card: 7S, 10H, AD, JK, or a declared joker JK=8H",
        "examples": ["7S", "JK=8H"]}
CARDS = {"type": "array", "items": {"$ref": "#/components/schemas/Card"}}
RULES = {
    "type": "object",
    "description": "A family plus house-rule options; unknown or contradictory options are a 400.",
    "properties": {
        "family": {"enum": ["pagat-500", "rummy-500", "basic"]},
        "jokers": {"type": "boolean"},
        "values": {"enum": ["face", "5-10-15"]},
        "low_ace_value": {"enum": [1, 5, 15]},
        "rummy_call": {"enum": ["off", "top", "pile"]},
        "draw_must_meld": {"type": "boolean"},
        "deep_draw_new_meld": {"type": "boolean"},
        "discard_required": {"type": "boolean"},
        "floating": {"type": "boolean"},
        "unplayable_discard": {"type": "boolean"},
        "must_go_out": {"type": "boolean"},
        "target": {"type": ["integer", "null"], "minimum": 1},
        "min_natural_cards": {"enum": [0, 1]},
        "one_meld_per_turn": {"type": "boolean"},
    },
    "additionalProperties": False,
}
TABLE = {
    "type": "array",
    "description": "Melds on the table, cards in the order they lie.",
    "items": {
        "type": "object",
        "required": ["id", "cards"],
        "properties": {
            "id": {"type": "string"},
            "owner": {"type": "string"},
            "cards": {"oneOf": [
                {"type": "array", "items": {"oneOf": [
                    {"$ref": "#/components/schemas/Card"},
                    {"type": "object", "required": ["card"],
                     "properties": {"card": {"$ref": "#/components/schemas/Card"},
                                    "by": {"type": "string"}}},
                ]}},
                {"type": "string", "description": "The cards in one string, split on "
                 "spaces, commas or semicolons (all laid by the owner)."},
            ]},
        },
    },
}
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
WAY = {"type": "object", "properties": {"kind": {"enum": ["meld", "layoff"]}, "cards": CARDS,
                                        "meld": {"type": "string"}}}
READING = {"type": "object", "properties": {"kind": {"enum": ["set", "run"]}, "cards": CARDS,
                                            "value": {"type": "integer"}}}
PLAYERS = {"type": "integer", "minimum": 2, "maximum": 8,
           "description": "The number of players (two decks from 5)"}
TOOK = {**CARDS, "description": "The cards taken from the discard pile this turn, listed "
        "bottom to top like pile: the first is the deepest card taken"}
LAYOFF = {"type": "object", "required": ["card", "onto"], "properties": {
    "card": CARD, "onto": {"type": "string", "description": "The id of the meld it went on"},
    "end": {"enum": ["low", "high"], "description": "Where an ace laid off on a run 2..K "
            "went, which decides its value (values.ace-end): low scores the low-ace "
            "value, high 15. Left out: where it fits, an ace on 2..K at the low end"}}}


def _with(schema: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {"allOf": [{"$ref": "#/components/schemas/Verdict"},
                      {"type": "object", "properties": props}]} if schema is VERDICT else schema


def _post(summary: str, request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    return {"post": {
        "summary": summary,
        "requestBody": {"required": True,
                        "content": {"application/json": {"schema": request}}},
        "responses": {
            "200": {"description": "The answer",
                    "content": {"application/json": {"schema": response}}},
            "400": {"description": "Bad input",
                    "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/Error"}}}},
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


HAND_BODY = _obj(
    ["players"], number={"type": "integer"}, version={"type": "integer"},
    went_out={"type": ["string", "null"]}, ending={"enum": ["out", "stock", "draw"]},
    players={"type": "array", "items": {"type": "object"},
             "description": "As in /score/hand: name, melds (cards as they lie), layoffs "
             "{card, onto, end?}, hand, going_rummy?"})


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
               "schema": {"type": "integer"}}
    number = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"}}
    error = _json("Bad input, or no such game or hand (or not in your leagues)",
                  {"$ref": "#/components/schemas/Error"})
    forbidden = _json("A viewer may read the game, not change it",
                      {"$ref": "#/components/schemas/Error"})
    conflict = _json("Another phone saved or changed this hand first; the stored hand is in "
                     "error.hand", {"$ref": "#/components/schemas/Error"})
    body = {"required": True, "content": {"application/json": {"schema": HAND_BODY}}}
    hand = _json("The hand", {"type": "object"})
    return {
        "/games/{game_id}": {"get": {
            "summary": "A game: players, totals, status, winner and its hands",
            "parameters": [game_id],
            "responses": {"200": _json("The game", {"type": "object"}), "404": error}}},
        "/games/{game_id}/hands": {"post": {
            "summary": "Record the next hand",
            "parameters": [game_id], "requestBody": body,
            "responses": {"201": hand, "400": error, "403": forbidden, "404": error,
                          "409": conflict}}},
        "/games/{game_id}/hands/{number}": {
            "get": {"summary": "One recorded hand, card by card",
                    "parameters": [game_id, number],
                    "responses": {"200": hand, "404": error}},
            "put": {"summary": "Replace a hand's cards (send the version you read)",
                    "parameters": [game_id, number], "requestBody": body,
                    "responses": {"200": hand, "400": error, "403": forbidden,
                                  "404": error, "409": conflict}},
            "delete": {"summary": "Delete a hand (later hands move up one)",
                       "parameters": [game_id, number],
                       "responses": {"200": _json("The game after"), "403": forbidden,
                                     "404": error, "409": conflict}},
        },
    }


def openapi_document() -> dict[str, Any]:
    ref = {name: {"$ref": f"#/components/schemas/{name}"}
           for name in ("Rules", "Table", "Verdict", "Way", "Reading")}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Rummy Scorebook API", "version": "1",
                 "description": "The referee and the scoring of 500 Rum, Rummy 500 and Basic "
                                "Rummy. Every verdict cites rule ids from the rule book. "
                                "The referee and scoring endpoints are public; /games/... "
                                "needs a member of the game's league (the session cookie "
                                "of a browser that joined it)."},
        "servers": [{"url": "/api/v1"}],
        "paths": {
            "/referee/meld": _post(
                "Is this a legal meld? Every reading of the cards.",
                _obj(["cards"], rules=ref["Rules"], players=PLAYERS, cards=CARDS),
                _with(VERDICT, kind={"enum": ["set", "run", None]},
                      readings={"type": "array", "items": ref["Reading"]})),
            "/referee/layoff": _post(
                "Can this card be laid off (on this meld)?",
                _obj(["table", "card"], rules=ref["Rules"], players=PLAYERS,
                     table=ref["Table"], card=CARD, meld={"type": "string"}),
                _with(VERDICT, targets={"type": "array", "items": {"type": "string"}},
                      placements={"type": "array"})),
            "/referee/draw": _post(
                "May the player take this many cards from the discard pile?",
                _obj(["hand"], rules=ref["Rules"], players=PLAYERS, table=ref["Table"],
                     pile={**CARDS, "description": "The discard pile, bottom to top"},
                     hand=CARDS,
                     take={"type": "integer", "minimum": 1,
                           "description": "How many cards are taken from the top (1 if "
                           "neither take nor took is given)"},
                     took={**TOOK, "description": "Instead of take: the cards taken, "
                           "bottom to top like pile; they must be the top of the pile "
                           "(without pile, they are the pile)"},
                     discard=CARD),
                _with(VERDICT, card=CARD,
                      taken={**CARDS, "description": "The cards taken, bottom to top"},
                      ways={"type": "array", "items": ref["Way"]})),
            "/referee/rummy-call": _post(
                "Is this call of \"Rummy!\" legal? Every callable card in the pile.",
                _obj(["pile", "discarder", "caller"], rules=ref["Rules"], players=PLAYERS,
                     table=ref["Table"], pile=CARDS, discarder={"type": "string"},
                     caller={"type": "string"}, next_player_drew={"type": "boolean"},
                     hand_over={"type": "boolean"}),
                _with(VERDICT, deepest={"type": ["string", "null"]},
                      take={"type": ["integer", "null"]},
                      callable={"type": "array", "items": _obj(
                          [], card=CARD, take={"type": "integer"}, how=ref["Way"])})),
            "/referee/going-out": _searching(_post(
                "May the player go out with this hand (and this last discard)?",
                _obj(["hand"], rules=ref["Rules"], players=PLAYERS, table=ref["Table"],
                     hand={**CARDS, "description": "Every card the player holds, the cards "
                           "taken this turn included"},
                     discard=CARD,
                     took={**TOOK, "description": TOOK["description"] + "; they are among "
                           "hand. A card taken alone is not the discard; of several, the "
                           "deepest must be melded (never discarded)"}),
                _with(VERDICT, plan={"type": "array", "items": {"type": "string"}}))),
            "/score/hand": _post(
                "Each player's points for one hand.",
                _obj(["players"], rules=ref["Rules"], went_out={"type": ["string", "null"]},
                     players={"type": "array", "items": _obj(
                         ["name"], name={"type": "string"},
                         melds={"type": "array", "items": _obj(
                             ["cards"], id={"type": "string"}, cards=CARDS)},
                         layoffs={"type": "array", "items": LAYOFF},
                         hand=CARDS, going_rummy={"type": "boolean"})}),
                _obj(["players"], players={"type": "array", "items": _obj(
                    [], name={"type": "string"}, melded={"type": "integer"},
                    stranded={"type": "integer"}, score={"type": "integer"})})),
            "/score/game": _post(
                "Is the game over after this hand, and who won?",
                _obj(["totals"], rules=ref["Rules"],
                     totals={"type": "array", "items": {"type": "integer"}},
                     went_out={"type": ["integer", "null"]},
                     names={"type": "array", "items": {"type": "string"}}),
                _with(VERDICT, finished={"type": "boolean"},
                      winner={"type": ["integer", "null"]}, target={"type": "integer"})),
            "/arrange": _searching(_post(
                "The split of cards into melds with the highest melded value.",
                _obj(["cards"], rules=ref["Rules"], players=PLAYERS, cards=CARDS),
                _obj([], melds={"type": "array", "items": ref["Reading"]}, stranded=CARDS,
                     value={"type": "integer"}, complete={"type": "boolean"}))),
            "/rules": _post(
                "A rule set resolved: every option, decks, deal and target.",
                _obj([], rules=ref["Rules"], players=PLAYERS), {"type": "object"}),
            **_games_paths(),
        },
        "components": {"schemas": {
            "Card": CARD, "Rules": RULES, "Table": TABLE, "Verdict": VERDICT, "Way": WAY,
            "Reading": READING,
            "Error": _obj(["error"], error=_obj(["code", "message"], code={"type": "string"},
                                               message={"type": "string"})),
        }},
    }
