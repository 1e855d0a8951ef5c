"""The OpenAPI 3.1 document of the JSON API, served at ``/api/v1/openapi.json``.

Generated, not written: every body, answer and parameter is a model of
:mod:`scorebook.api.schemas`, and :data:`ROUTES` is the one table of the operations
(their summaries, models, status codes and ``x-content-codes``) that the document is
arranged from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from referee.log import LOG_ERROR_CODES
from scorebook.api import schemas
from scorebook.api.schemas import (
    REQUESTS,
    RESPONSES,
    Conflict,
    Error,
    Forbidden,
    GameAfter,
    GameAnswer,
    GamePath,
    Gone,
    HandBody,
    HandPath,
    HandRefused,
    HandWritten,
    JobAnswer,
    JobList,
    JobPath,
    LeaguePath,
    NotFound,
    Parameters,
    PlayedAnswer,
    PlayedConflict,
    PlayedLogged,
    PlayedMissing,
    PlayedMoveBody,
    PlayedQuery,
    PlayedStart,
    PlayedUndoBody,
    PlayedUndone,
    ReadQuery,
    RefusedMove,
    SearchTooLarge,
    SeasonQuery,
    StandingsAnswer,
    StoredHand,
    TooLarge,
    TooManyRequests,
    UndoDone,
    UndoExpired,
    UndoOffer,
    UndoPath,
    UndoRefused,
    VersionMissing,
    WriteHeaders,
)
from scorebook.services.table_log import DOWN_TO_CODES

#: What a played hand's start may be refused for, its body fitting the document.
PLAYED_START_CODES = ["unknown-player", "dealt-too-many", "too-many-copies", "no-jokers"]
#: What a move of the played hand may be refused for, its body fitting the document: 400
#: (it cannot be read against the log: a take down to a card the pile does not hold) or
#: 422 (the log cannot hold it, or a rule refuses it: rule-refused).
PLAYED_MOVE_CODES = ["bad-request", "bad-key", *DOWN_TO_CODES, "rule-refused",
                     *LOG_ERROR_CODES]

# --- what a body that fits the document may still be refused for (x-content-codes) ------

#: A 400 for a body that fits the document, each operation's own (x-content-codes): what
#: a schema cannot say, as the cards of the decks in play or the meld a card goes on.
DECKS = ["too-many-cards", "too-many-melds", "too-many-copies", "no-jokers"]
TABLE_CODES = ["illegal-meld", "ambiguous-meld", "duplicate-meld"]
SCORING_CODES = ["illegal-meld", "duplicate-meld", "unknown-meld", "bad-layoff",
                 "bad-going-rummy", "duplicate-player", "unknown-player", "holds-no-cards"]
#: What a hand given as points only may be refused for (referee.score_points).
POINTS_CODES = ["points-out-of-range", "points-too-many", "went-out-below-zero",
                "only-winner-scores", "going-rummy-odd"]
#: What the games API refuses in a hand that fits the document.
HAND_CODES = ["invalid-hand", "bad-players", "bad-key", *DECKS, *SCORING_CODES, *POINTS_CODES]
#: Refused whatever the operation: past the limits of every request (scorebook.limits).
LIMIT_CODES = ["too-deep", "too-many-values", "payload_too_large"]
CONTENT_HELP = (
    "The body does not fit this document; or it fits, but what it says cannot be: the "
    "error's code is then one of x-content-codes (cards the decks in play do not hold, a "
    "meld that is not one, a lay-off or a player that names nothing given). Any body is "
    "also refused past the limits of every request: larger than the API's body limit "
    "(413), JSON nested deeper than 16 levels or holding more than 5,000 values (400, "
    "too-deep or too-many-values).")


# --- the table of routes ----------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One response of an operation: what it means, and its body's model (none: no
    body)."""

    description: str
    model: type[BaseModel] | None = None
    #: Response headers: name -> description.
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Route:
    """One operation: ``method path`` under /api/v1."""

    method: str
    path: str
    summary: str
    answers: dict[int, Answer]
    body: type[BaseModel] | None = None
    parameters: tuple[type[Parameters], ...] = ()
    #: The 400s a body that fits can still get (None: the operation takes no body).
    codes: list[str] | None = None
    description: str | None = None


def _bad_input(codes: list[str], model: type[BaseModel] = Error) -> Answer:
    listed = ", ".join(codes) if codes else "none: every body that fits is answered"
    return Answer(f"{CONTENT_HELP} Here x-content-codes: {listed}.", model)


TOO_LARGE = Answer("The body is larger than the API's limit", TooLarge)
TOO_MANY = Answer("Too many questions from one address (Retry-After says when to ask "
                  "again)", TooManyRequests, {"Retry-After": "seconds to wait"})
NOT_FOUND = Answer("No such game or hand (or not in your leagues)", NotFound)
FORBIDDEN = Answer("A viewer may read the game, not change it", Forbidden)
CONFLICT = Answer("Another phone saved or changed this hand first, or the hands were "
                  "renumbered since you read them (error.renumbered): nothing was changed; "
                  "the hand as it is now is in error.hand", Conflict)
NO_VERSION = Answer("The change did not say which version of the hand it is for (neither "
                    "the body nor the query string)", VersionMissing)
REPLAYED = {"Idempotent-Replayed": "true: a write sent again with the same Idempotency-Key"}
GONE = Answer("The hand a write with this Idempotency-Key stored was deleted since, on "
              "another phone (code hand-deleted-since): nothing is stored again; send it "
              "with a new key to store it after all", Gone)

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
    "arrange": ("The split of cards into melds with the highest melded value (every hand "
                "of up to 40 cards is answered: exact, or the best split found within the "
                "search's CPU time, with exact false).",
                ["too-many-cards", "too-many-copies", "no-jokers"]),
    "rules": ("A rule set resolved: every option, decks, deal and target.", []),
    "referee/log": ("A played hand replayed from its deal and log: the discard pile at every "
                    "step, the moves the rules refuse (or the table agreed to), what each "
                    "player melded when, and the table's questions answered from it.",
                    [*LOG_ERROR_CODES, *DOWN_TO_CODES]),
}
#: The questions that run the meld search and may refuse (a 422 when it cannot answer in
#: time); /arrange always answers, with the best split it found in time.
SEARCHING = ("referee/going-out", "referee/log")


def _question(path: str) -> Route:
    """A question: its body and its answer are the models of scorebook.api.schemas."""
    summary, codes = QUESTION_DOCS[path]
    answers = {200: Answer("The answer", RESPONSES[path]), 400: _bad_input(codes),
               413: TOO_LARGE, 429: TOO_MANY}
    if path in SEARCHING:
        answers[422] = Answer("Too many ways to arrange the cards to answer in time "
                              "(code search-too-large)", SearchTooLarge)
    return Route("post", f"/{path}", summary, answers, REQUESTS[path], codes=codes)


#: Every operation of the API.  A game is private to its league: the browser's session
#: cookie must hold a membership (a viewer reads; a scorer or the owner changes), else
#: the game answers 404.
ROUTES: list[Route] = [
    *(_question(path) for path in REQUESTS),
    Route("get", "/games/{game_id}",
          "A game: players, totals, status, winner and its hands",
          {200: Answer("The game", GameAnswer), 404: NOT_FOUND}, parameters=(GamePath,)),
    Route("post", "/games/{game_id}/hands", "Record the next hand",
          {201: Answer("The hand, as stored, and the game after", HandWritten),
           200: Answer("The hand a write with the same Idempotency-Key stored before",
                       HandWritten, REPLAYED),
           400: _bad_input(HAND_CODES, HandRefused), 403: FORBIDDEN, 404: NOT_FOUND,
           409: CONFLICT, 410: GONE, 413: TOO_LARGE},
          HandBody, (GamePath, WriteHeaders), HAND_CODES),
    Route("get", "/games/{game_id}/hands/{number}",
          "One recorded hand, card by card (or, points_only, each player's points)",
          {200: Answer("The hand", StoredHand), 404: NOT_FOUND}, parameters=(HandPath,)),
    Route("put", "/games/{game_id}/hands/{number}",
          "Replace a hand's cards or points (send the id and version you read); a "
          "points-only hand given cards becomes a card hand, and a card hand given points "
          "points only",
          {200: Answer("The hand as changed, and the game after", HandWritten, REPLAYED),
           400: _bad_input(HAND_CODES, HandRefused), 403: FORBIDDEN, 404: NOT_FOUND,
           409: CONFLICT, 410: GONE, 413: TOO_LARGE, 428: NO_VERSION},
          HandBody, (HandPath, ReadQuery, WriteHeaders), HAND_CODES,
          "version and id in the body, or as query parameters; without a version, 428"),
    Route("delete", "/games/{game_id}/hands/{number}",
          "Delete a hand (send the id and version you read; later hands move up one)",
          {200: Answer("The game after", GameAfter),
           400: Answer("version or id is not a number", HandRefused), 403: FORBIDDEN,
           404: NOT_FOUND, 409: CONFLICT, 413: TOO_LARGE, 428: NO_VERSION},
          parameters=(HandPath, ReadQuery),
          description="version and id as query parameters, or as a JSON body "
                      "{\"version\": …, \"id\": …}; without a version, 428"),
    Route("get", "/games/{game_id}/undo",
          "The game's newest change, if it can still be undone (for UNDO_MINUTES, 10 by "
          "default, and while nothing changed in the game after it)",
          {200: Answer("The change on offer, or null", UndoOffer), 404: NOT_FOUND},
          parameters=(GamePath,)),
    Route("post", "/games/{game_id}/undo/{step_id}",
          "Undo a change at the table as a new change: a saved hand removed, an edit or "
          "a live hand's finish given back, a deleted hand back with its cards, a live "
          "move taken back; every hand it touches takes a new version",
          {200: Answer("The change undone, and the game after", UndoDone),
           403: FORBIDDEN, 404: NOT_FOUND,
           409: Answer("Nothing was undone: the game changed after it (the message says "
                       "what, and on which phone), or it was undone already", UndoRefused),
           410: Answer("Too late: its time ran out (code undo-expired)", UndoExpired)},
          parameters=(UndoPath,)),
    Route("get", "/games/{game_id}/played",
          "The hand being logged turn by turn: its deal, the log's length and the log "
          "replayed (the pile at every step, what each player melded when, the moves "
          "the table agreed to against a rule) with the table's eleven questions answered",
          {200: Answer("The played hand", PlayedAnswer),
           400: Answer("card or hand is not cards", HandRefused),
           404: Answer("No such game (not_found), or no hand of it is logged turn by turn "
                       "(not-played)", PlayedMissing)},
          parameters=(GamePath, PlayedQuery)),
    Route("post", "/games/{game_id}/played",
          "Start the next hand as a played hand (or make the live hand one, while it "
          "holds no meld), with its deal: the first upturned card and who dealt",
          {201: Answer("The played hand, its log empty", PlayedAnswer),
           400: _bad_input(PLAYED_START_CODES, HandRefused), 403: FORBIDDEN,
           404: NOT_FOUND,
           409: Answer("Started already with another deal (played-already), the live hand "
                       "holds melds recorded without its turns (live-moves), or the game "
                       "is over", PlayedConflict), 413: TOO_LARGE},
          PlayedStart, (GamePath,), PLAYED_START_CODES,
          "Sent again with the same deal, it answers the hand started (201)."),
    Route("post", "/games/{game_id}/played/moves",
          "Log one move of the played hand, made against the log's length; judged by the "
          "referee first: a move a rule refuses is not logged unless agreed",
          {201: Answer("The move logged, and the played hand after", PlayedLogged),
           200: Answer("Logged before by a send with the same key (already_logged)",
                       PlayedLogged, REPLAYED),
           400: _bad_input(PLAYED_MOVE_CODES, HandRefused), 403: FORBIDDEN,
           404: Answer("No such game, or no played hand (not-played)", PlayedMissing),
           409: Answer("Another phone logged (or took back) a move first: the log's length "
                       "is not the one sent (log-overtaken, error.length: now); nothing "
                       "was logged. Or the hand has ended", PlayedConflict),
           413: TOO_LARGE,
           422: Answer("Not logged: a rule refuses the move (rule-refused: the rule's "
                       "sentence, its rule ids and error.reason; send it again with agreed "
                       "true to log it as overridden by agreement), or the log cannot hold "
                       "it (out-of-turn, not-held, ...: the code says)", RefusedMove),
           428: Answer("The move did not say the log's length it was made against "
                       "(length-required)", HandRefused)},
          PlayedMoveBody, (GamePath, WriteHeaders), PLAYED_MOVE_CODES),
    Route("post", "/games/{game_id}/played/undo",
          "Take back the played hand's last move (and its meld or lay-off), if the log "
          "still holds the length sent",
          {200: Answer("The move taken back, and the played hand after", PlayedUndone),
           400: _bad_input(["nothing-to-undo"], HandRefused), 403: FORBIDDEN,
           404: Answer("No such game, or no played hand (not-played)", PlayedMissing),
           409: Answer("The log changed since (log-overtaken, error.length: now): nothing "
                       "was taken back", PlayedConflict),
           413: TOO_LARGE,
           428: Answer("The undo did not say the log's length (length-required)",
                       HandRefused)},
          PlayedUndoBody, (GamePath,), ["nothing-to-undo"]),
    Route("get", "/leagues/{league_id}/standings",
          "A league's standings, all time or one season, placed as its standings page "
          "places them (equal records share a place)",
          {200: Answer("The standings", StandingsAnswer),
           404: Answer("No such league or season (or not in your leagues)", NotFound)},
          parameters=(LeaguePath, SeasonQuery)),
    Route("get", "/jobs", "The background jobs this browser asked for (league imports), "
          "newest first, each with how far it has got",
          {200: Answer("This browser's jobs (none: an empty list)", JobList)}),
    Route("get", "/jobs/{job_id}",
          "A background job this browser asked for: queued, running (done of total, and "
          "how long the rest may take at its pace so far), done or failed (why)",
          {200: Answer("The job", JobAnswer),
           404: Answer("No such job (or not one this browser asked for)", NotFound)},
          parameters=(JobPath,),
          description="Reading a finished league import gives its league to this browser "
                      "(league_url), as opening the job's page does."),
]


# --- the document, arranged from the table ----------------------------------------------


def _ref(model: type[BaseModel]) -> dict[str, Any]:
    return {"$ref": schemas.REF.format(model=model.__name__)}


def _response(answer: Answer) -> dict[str, Any]:
    out: dict[str, Any] = {"description": answer.description}
    if answer.headers:
        out["headers"] = {name: {"description": text, "schema": {"type": "string"}}
                          for name, text in answer.headers.items()}
    if answer.model is not None:
        out["content"] = {"application/json": {"schema": _ref(answer.model)}}
    return out


def _operation(route: Route) -> dict[str, Any]:
    out: dict[str, Any] = {"summary": route.summary}
    if route.description:
        out["description"] = route.description
    if route.parameters:
        out["parameters"] = schemas.parameters(route.parameters)
    if route.body is not None:
        out["requestBody"] = {"required": True,
                              "content": {"application/json": {"schema": _ref(route.body)}}}
    if route.codes is not None:
        out["x-content-codes"] = route.codes
    out["responses"] = {str(status): _response(answer)
                        for status, answer in route.answers.items()}
    return out


def _answer_models() -> list[type[BaseModel]]:
    seen: dict[str, type[BaseModel]] = {}
    for route in ROUTES:
        for answer in route.answers.values():
            if answer.model is not None:
                seen.setdefault(answer.model.__name__, answer.model)
    return list(seen.values())


def openapi_document() -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for route in ROUTES:
        paths.setdefault(route.path, {})[route.method] = _operation(route)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Rummy Scorebook API", "version": "1",
                 "description": "The referee and the scoring of 500 Rum, Rummy 500 and Basic "
                                "Rummy. Every verdict cites rule ids from the rule book. "
                                "The referee and scoring endpoints are public; /games/... "
                                "needs a member of the game's league (the session cookie "
                                "of a browser that joined it); /jobs/... answers the browser "
                                "that asked for the job alone. A property the document does "
                                "not name is ignored; null is the same as leaving a "
                                "property out. Each operation's x-content-codes lists the "
                                "400s a body that fits the document can still get."},
        "servers": [{"url": "/api/v1"}],
        "paths": paths,
        "components": {"schemas": schemas.components(_answer_models())},
    }
