"""The league export's format, declared once as pydantic models.

:mod:`scorebook.services.exports` writes a league as a JSON document of this shape and
validates every imported file with these models (the header first, then each game as
it is read from the stream); the JSON Schema published at ``docs/league-export.schema.json``
(and served at ``/league/export.schema.json``) is generated from them
(:func:`json_schema`), so the document and the importer cannot disagree.

The values are checked as given (``strict``: "3" is no number and ``true`` is no 1).  A
property the format does not name is ignored, as it always was; the rules' options are
the exception, refused by the importer when this version does not know them.  The
leaves keep their own parsers, which run once the shape is right, so their errors still
name the bad value: a card (``referee.parse_card``), a date or time, a name (one line of
printable text), the rules (``referee.make_rules``).
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.rules import FAMILIES
from scorebook.models import GAME_STATUSES, HAND_ENDINGS, RUN_ENDS
from scorebook.plain_text import MAX_ID
from scorebook.services.payloads import CARD_PATTERN
from scorebook.services.table_log import MAX_MOVES

#: What an export's ``format`` says it is.
FORMAT = "rummy-scorebook/league"
#: What an import takes for it: the format, and the name builds of 1 December 2026 wrote
#: by mistake (the package move renamed it with the module).
FORMATS = (FORMAT, "rummy-scorebook/services/league")
VERSION = 1  # (LeagueHead.version's Literal says it too)

#: The address the site serves the schema at (``league.export_schema``).
SCHEMA_PATH = "/league/export.schema.json"
#: Where the schema is committed (a test keeps it equal to :func:`json_schema`).
SCHEMA_FILE = "docs/league-export.schema.json"

Time = Annotated[str, Field(description=(
    "An ISO 8601 date and time (2026-03-01T19:30:00+00:00); without an offset it is UTC."))]
Day = Annotated[str, Field(description="An ISO 8601 date (2026-03-01).")]
PlayerName = Annotated[str, Field(description="A player of the league, by name.")]
#: A card: its schema states the grammar of the referee's parser, which checks it (and
#: names the bad token) once the shape is right.
CardText = Annotated[str, Field(description=(
    "A card as the scorebook writes it: rank then suit (7S, 10H, QD, AS), or JK for a "
    "joker."), json_schema_extra={"pattern": CARD_PATTERN})]
#: A whole number a database column holds (PostgreSQL's ``integer``).
Whole = Annotated[int, Field(ge=-MAX_ID - 1, le=MAX_ID)]
Position = Annotated[Whole, Field(description="Its place in order, from 0.")]
Points = Annotated[Whole, Field(description="Points.")]


class Part(BaseModel):
    """A part of the file: strict values; a property the format does not name is
    ignored."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")


class LeagueInfo(Part):
    name: str = Field(description="The league's name (unique on an install).")
    created_at: Time


class ExportPlayer(Part):
    name: str = Field(description="The player's name (unique in the league, whatever "
                                  "its case); the rest of the file names players by it.")
    created_at: Time
    retired_at: Time | None = None


class ExportSeason(Part):
    name: str
    starts_on: Day
    ends_on: Day
    created_at: Time


class ExportSeat(Part):
    player: PlayerName
    position: Position
    first_dealer: bool = Field(description="Whether this seat dealt the first hand "
                                           "(exactly one does).")


class ExportMeldCard(Part):
    card: CardText
    declared: CardText | None = Field(default=None, description=(
        "What a joker stands for (the card it was declared as)."))
    laid_by: PlayerName
    layoff: bool = Field(description="Laid off on the meld rather than melded with it.")
    position: Position
    end: Literal[tuple(RUN_ENDS)] | None = Field(  # type: ignore[valid-type]
        default=None, description=(
            "Where an ace laid off on a run lies (values.ace-end); left out: low."))


class ExportMeld(Part):
    owner: PlayerName
    label: str = Field(description="The meld's id in the hand.")
    position: Position
    kind: str = Field(description="set or run, as the referee read it.")
    reading: str = Field(description="How the referee read the meld's cards.")
    cards: list[ExportMeldCard]


class ExportStranded(Part):
    player: PlayerName
    card: CardText
    declared: CardText | None = None
    position: Position


class ExportScore(Part):
    player: PlayerName
    melded: Points
    stranded: Points
    score: Points
    cards_missing: bool | None = Field(default=None, description=(
        "The player ends the hand with fewer cards than were dealt (RULES.md §10, "
        "\"Fewer cards than dealt\") and the family said it does not remember the rest: "
        "the score is what the recorded cards give. Left out: false."))
    held_points: int | None = Field(default=None, ge=1, description=(
        "The points of the cards left in the player's hand, given as a number because "
        "nobody remembers the cards (none of them is recorded; cards_missing is true): "
        "they count in stranded as the cards would. Left out: the cards say it."))


class ExportMove(Part):
    player: PlayerName = Field(description="Who made the move.")
    move: dict[str, Any] = Field(description=(
        "The move as the played-hand API takes it, without its player: "
        "{\"move\": \"draw\"}, {\"move\": \"take\", \"take\": 3}, "
        "{\"move\": \"meld\", \"cards\": [\"4S\", \"5S\", \"6S\"], \"id\": \"A\"}, "
        "{\"move\": \"layoff\", \"card\": \"7S\", \"onto\": \"A\"}, "
        "{\"move\": \"discard\", \"card\": \"KC\"}, {\"move\": \"rummy\", \"take\": 2}, "
        "{\"move\": \"stock-out\"}; \"agreed\": true when the table agreed to a move "
        "a rule refuses."))
    key: str | None = Field(default=None, description=(
        "The key the phone sent the move with (a send tried again is logged once); "
        "unique in the hand."))
    overridden: str | None = Field(default=None, description=(
        "The message id of the rule's verdict the table agreed to override "
        "(log.deep-not-melded); null when no rule was overridden."))
    at: Time


class ExportLog(Part):
    """A hand the table logged turn by turn (issue 29): its deal and its moves, in order."""

    dealer: PlayerName = Field(description="Who dealt: the hand's dealer.")
    upcard: CardText = Field(description="The first card turned up from the stock.")
    dealt: Whole | None = Field(default=None, ge=1, le=54, description=(
        "The cards dealt to each player; null: as the rules say (cards.deal)."))
    created_at: Time
    moves: list[ExportMove] = Field(max_length=MAX_MOVES, description=(
        "Every move of the log, in the order logged (at most 600). An import replays "
        "them with the referee: each must be a move the log can hold, that no rule "
        "refuses unless agreed, and together they must make exactly the hand's melds "
        "and lay-offs."))


class ExportHand(Part):
    number: Whole = Field(description="1, 2, 3… each once, in the order played.")
    dealer: PlayerName
    ending: Literal[tuple(HAND_ENDINGS)]  # type: ignore[valid-type]
    went_out: PlayerName | None
    going_rummy: bool
    complete: bool = Field(description="False only for the last hand of a game still "
                                       "being played.")
    points_only: bool | None = Field(default=None, description=(
        "Kept as each player's points, without its cards; left out: false."))
    created_at: Time
    updated_at: Time
    melds: list[ExportMeld]
    stranded: list[ExportStranded]
    scores: list[ExportScore] = Field(description="The file's scores, which must be what "
                                                  "the cards give.")
    log: ExportLog | None = Field(default=None, description=(
        "The hand's log, when the table logged it turn by turn; left out: it was not "
        "logged."))


class ExportChange(Part):
    hand: Whole | None = Field(description="The hand it changed, if one.")
    action: str
    summary: str
    details: dict[str, Any] | None = Field(default=None, description=(
        "What changed, as an object (at most 20,000 characters of JSON)."))
    device: str
    player: str = Field(default="", description="Who said they made the change.")
    session: str
    at: Time


class ExportGame(Part):
    family: Literal[tuple(f.value for f in FAMILIES)]  # type: ignore[valid-type]
    rules: dict[str, Any] = Field(description=(
        "The house rules, as the API's Rules object: option names and their values."))
    target: Whole = Field(description="The points that win, as the rules give them.")
    status: Literal[tuple(GAME_STATUSES)]  # type: ignore[valid-type]
    winner: PlayerName | None
    started_at: Time
    finished_at: Time | None
    seats: list[ExportSeat]
    hands: list[ExportHand]
    changes: list[ExportChange] = Field(description="The game's history, oldest first.")


class LeagueHead(Part):
    """Everything of the file but its games (read first; the games follow one by one)."""

    format: Literal[FORMATS] = Field(description=(  # type: ignore[valid-type]
        f"{FORMAT} (a file exported by a build of 1 December 2026 may say {FORMATS[1]})."))
    version: Literal[1] = Field(description="The format's version.")
    league: LeagueInfo
    players: list[ExportPlayer]
    seasons: list[ExportSeason]


class LeagueExport(LeagueHead):
    """A whole league, as ``/league/export.json`` and ``flask league export`` write it."""

    games: list[ExportGame]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a league export, generated from :class:`LeagueExport`."""
    schema = LeagueExport.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **schema,
        "title": "Rummy Scorebook league export",
        "description": (
            "A whole league (players, seasons, every game, hand and card, and each game's "
            "history) as Rummy Scorebook exports it and imports it. Players are named, "
            "never numbered: the file holds no database ids, passwords or invite links. "
            "Ratings and standings are not in it: an import rebuilds them. Besides this "
            "shape an import checks every hand with the referee, and refuses the file "
            "whole if anything is wrong."),
    }


def schema_text() -> str:
    """:func:`json_schema` as the committed file holds it."""
    return json.dumps(json_schema(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":  # python -m scorebook.services.export_format > docs/…schema.json
    sys.stdout.write(schema_text())
