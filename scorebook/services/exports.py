"""Exports: a game or a league's results as CSV, and a whole league as JSON that
imports into a fresh install and restores everything.

The JSON names players by name (unique in a league) and never carries database
ids, so export → import → export gives the same file.  Ratings, per-game results
and the scoreboard's cache are not in it: they are rebuilt from what is.

The JSON's shape is declared once, as the pydantic models of
:mod:`scorebook.services.export_format` (which also give its published JSON Schema): an
import validates the file with them, then checks every hand with the referee.  What is
wrong is raised as a :class:`LeagueImportError` carrying sentences (which game, which
hand, which field, what), worded by the presenters.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import re
import reprlib
import time
import zlib
from collections.abc import (
    Callable,
    Generator,
    Iterable,
    Iterator,
    Mapping,
    MutableMapping,
    Sequence,
)
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import IO, Any

import ijson
from flask import current_app
from pydantic import ValidationError
from pydantic_core import ErrorDetails
from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import selectinload

from referee import (
    Card,
    CardError,
    Layoff,
    PlayerHand,
    RulesError,
    RuleSet,
    ScoringError,
    build_table,
    check_copies,
    make_rules,
    parse_card,
)
from referee.log import Deal
from referee.rules import OPTIONS
from scorebook.extensions import db
from scorebook.models import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    JOB_DONE,
    MELD_LABEL_LENGTH,
    Change,
    Game,
    GameResult,
    Hand,
    HandScore,
    Job,
    League,
    Meld,
    MeldCard,
    PlayedHand,
    PlayedMove,
    Player,
    Season,
    Seat,
    StrandedCard,
    TooLong,
    column_lengths,
)
from scorebook.plain_text import MAX_ID, has_unwanted
from scorebook.services import access, jobs, played, ratings
from scorebook.services.access import MAX_LEAGUE_NAME
from scorebook.services.entry import Entry, HandError
from scorebook.services.errors import Sentence, sentence
from scorebook.services.export_format import (
    FORMAT,
    FORMATS,
    VERSION,
    ExportGame,
    ExportHand,
    ExportMeldCard,
    ExportStranded,
    LeagueHead,
)
from scorebook.services.games import MAX_NAME_LENGTH, complete_hands, verdict_of
from scorebook.services.hands import _scoring_problem, _store, check_entry, check_melds
from scorebook.services.history import clean_player_name
from scorebook.services.league import (
    MAX_SEASON_NAME,
    STANDING_FIELDS,
    prepare,
    standing_record,
    standings,
)
from scorebook.services.seasons import (
    FIRST_DAY,
    LAST_DAY,
    as_utc,
    day_kept,
    ensure_seasons,
    season_of_day,
)
from scorebook.services.transaction import transaction

#: The kind of job that imports a league in the background.
IMPORT_JOB = "league-import"


class LeagueImportError(ValueError):
    """A league file that cannot be imported; its :attr:`sentences` say why (in which
    game, hand and field), worded by the presenters (``say_all``)."""

    code = "league-import"
    status = 400

    def __init__(self, *sentences: Sentence) -> None:
        self.sentences = sentences
        super().__init__(*sentences)


class _Placed(LeagueImportError):
    """A problem whose sentence already says which game (and hand) it is in."""


#: What a file that is not JSON (or not UTF-8) is told.
NOT_JSON = sentence("exports.not-json")


# --- JSON: reading a league file as a stream ----------------------------------------------
# A league of 5,000 games exports to some 280 MB of JSON, which json.load would turn into
# ~2.5 GB of Python objects. read_league_file reads everything but the games (a few KB)
# first, then the import takes the games one at a time from the file: memory holds one
# game, whatever the file's size (benchmarks/league_import.py measures it).

#: The parts of an export besides its games.
HEADER_KEYS = ("format", "version", "league", "players", "seasons")
#: What reading a file that is not JSON (or not UTF-8) raises.
JSONError = ijson.JSONError


class StreamedGames:
    """The games of a league file (a seekable binary stream), parsed one at a time each
    time they are iterated."""

    def __init__(self, stream: IO[bytes], count: int = 0) -> None:
        self.stream = stream
        self.count = count  # (how many the file has, counted as it was read through)

    def __iter__(self) -> Iterator[Any]:
        self.stream.seek(0)
        return iter(ijson.items(self.stream, "games.item", use_float=True))


#: How deep a league file's values may nest: an export nests 9 deep (a card of a meld of
#: a hand of a game), a history entry's details a few more. A deeper file is refused
#: before any of it is built into values: ijson keeps the path to each value, which on a
#: file nested 100,000 deep would take gigabytes.
MAX_DEPTH = 64
_OPEN = frozenset({"start_map", "start_array"})
_CLOSE = frozenset({"end_map", "end_array"})


def _scan(stream: IO[bytes], counts: dict[str, int] | None = None) -> str | None:
    """One pass over the whole file's events (no values built, no paths kept): ``None``
    if it is no JSON object, else the event that opens its ``games`` (``""`` if it has
    none). Refuses a file nested deeper than :data:`MAX_DEPTH`, and one whose text
    escapes a lone surrogate (:class:`_Surrogates`)."""
    stream.seek(0)
    try:
        return _scan_events(iter(ijson.basic_parse(_Surrogates(stream), use_float=True)),
                            counts)
    except UnicodeDecodeError:  # (JSON is UTF-8: the file is no JSON)
        raise JSONError("the file is not UTF-8") from None


#: A backslash escape of JSON text: ``\uXXXX`` (its four hex digits), or any other.
_ESCAPE = re.compile(rb"\\(?:u([0-9A-Fa-f]{4})|.)", re.DOTALL)


class _Surrogates:
    """The file as it is read, refusing a JSON escape of an unpaired UTF-16 surrogate
    (``"\\ud800"``, a high half not followed at once by a low one, or a low half alone):
    no database stores one, and the C parser ijson uses would not say so but read it as
    ``?`` (or pair ``"\\ud800\\u0041"`` into another character), so the import's check
    of every text would see something the file does not say. Raw surrogates are no UTF-8,
    which the parser refuses itself."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.carry = b""  # the end of the last read: an escape the next read completes
        self.read_so_far = 0
        self.high_ends: int | None = None  # where a high half ends, awaiting its low half

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        if size != 0:
            self._check(data, final=not data)
        return data

    def _check(self, data: bytes, final: bool) -> None:
        text = self.carry + data
        base = self.read_so_far - len(self.carry)  # where text starts in the file
        self.read_so_far += len(data)
        self.carry = b""
        done = 0
        for found in _ESCAPE.finditer(text):
            if not final and found.start() > len(text) - 6:  # perhaps cut short: next read
                break
            done = found.end()
            start, code = base + found.start(), found.group(1)
            value = int(code, 16) if code else None
            if self.high_ends is not None and start != self.high_ends:
                self._refuse(text, found.start())
            if value is not None and 0xDC00 <= value <= 0xDFFF:
                if self.high_ends is None:
                    self._refuse(text, found.start())
                self.high_ends = None
            elif value is not None and 0xD800 <= value <= 0xDBFF:
                if self.high_ends is not None:
                    self._refuse(text, found.start())
                self.high_ends = base + found.end()
            elif self.high_ends is not None:
                self._refuse(text, found.start())
        cut = text.find(b"\\", done)
        if cut >= 0 and not final:
            self.carry = text[cut:]
        checked = base + len(text) - len(self.carry)
        if self.high_ends is not None and (checked > self.high_ends or final):
            self._refuse(text, max(0, self.high_ends - base - 6))

    @staticmethod
    def _refuse(text: bytes, at: int) -> None:
        escape = text[at:at + 6].decode("ascii", "replace")  # (\\uXXXX, as the file has it)
        raise LeagueImportError(sentence("exports.broken-text", text=escape))


#: The most players and seasons a league file may list: its head is read whole (a few
#: KB for any real league), so a file listing 300,000 players, or a million seasons, is
#: refused before any of them is built into values.
MAX_PLAYERS = 5000
MAX_SEASONS = 1000


def _scan_events(events: Iterator[tuple[str, Any]], counts: dict[str, int] | None = None
                 ) -> str | None:
    first = next(events, None)
    if first is None or first[0] != "start_map":
        return None
    counted = {"games": 0, "players": 0, "seasons": 0}
    limits = {"players": MAX_PLAYERS, "seasons": MAX_SEASONS}
    depth, games, after_key, listing = 1, "", "", ""
    for event, value in events:
        if after_key:  # (the event after a top-level key)
            if after_key == "games":
                games = event
            listing = after_key if event == "start_array" else ""
            after_key = ""
        if event in _OPEN:
            depth += 1
            if depth > MAX_DEPTH:
                raise LeagueImportError(sentence("exports.too-deep", most=MAX_DEPTH))
            if depth == 3 and listing:
                counted[listing] += 1
                if counted[listing] > limits.get(listing, counted[listing]):
                    raise LeagueImportError(sentence("exports.too-many", key=listing,
                                                     most=limits[listing]))
        elif event in _CLOSE:
            depth -= 1
            if depth == 1:
                listing = ""
        elif depth == 1 and event == "map_key" and value in counted:
            after_key = value
        elif depth == 2 and listing and event not in _OPEN:
            counted[listing] += 1  # (a scalar item: the check of the file's shape refuses it)
    if counts is not None:
        counts.update(counted)
    return games


def read_league_file(stream: IO[bytes]) -> dict[str, Any]:
    """A league file as :func:`import_league` takes it, its ``games`` a
    :class:`StreamedGames`: the rest is read now, the games as they are imported. Raises
    :data:`JSONError` for a file that is not JSON, and :class:`LeagueImportError` for one
    nested deeper than any export. A gzip-compressed file (``export.json.gz``: its first
    bytes say so, whatever its name) is read as the JSON it holds."""
    stream = unpacked(stream)
    counts: dict[str, int] = {}
    games = _scan(stream, counts)
    if games is None:
        return {}  # not an object: "not a Rummy Scorebook league export"
    data: dict[str, Any] = {}
    if games:
        data["games"] = StreamedGames(stream, counts["games"]) if games == "start_array" \
            else {}
    for key in HEADER_KEYS:
        stream.seek(0)
        for value in ijson.items(stream, key, use_float=True):
            data[key] = value
            break
    return data


#: The first bytes of a gzip file.
GZIP_MAGIC = b"\x1f\x8b"
#: The most bytes of JSON a compressed league file may hold (the whole text of an
#: export of 50,000 games is some 420 MB): a small file that would unpack to gigabytes
#: is refused once it has, not read for ever.
MAX_UNPACKED = 2 * 1024 * 1024 * 1024


class _Unpacked:
    """A gzip-compressed league file, read as the text it holds (seeking back to the
    start reads it again from its first byte), refused once it gives more than
    :data:`MAX_UNPACKED` bytes."""

    def __init__(self, stream: IO[bytes], most: int) -> None:
        self.gzip = gzip.GzipFile(fileobj=stream, mode="rb")
        self.most = most

    def read(self, size: int = -1) -> bytes:
        try:
            data = self.gzip.read(size)
        except (OSError, EOFError, zlib.error):  # (cut short, or no gzip after all)
            raise JSONError("the compressed file is broken") from None
        if self.gzip.tell() > self.most:
            raise LeagueImportError(sentence("exports.too-big-unpacked",
                                             most=self.most // (1024 * 1024)))
        return data

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.gzip.seek(offset, whence)

    def tell(self) -> int:
        return self.gzip.tell()


def unpacked(stream: IO[bytes]) -> IO[bytes]:
    """``stream`` itself, or, if it is gzip-compressed, the text it holds."""
    stream.seek(0)
    compressed = stream.read(2) == GZIP_MAGIC
    stream.seek(0)
    if not compressed:
        return stream
    return _Unpacked(stream, MAX_UNPACKED)  # type: ignore[return-value]


# --- CSV --------------------------------------------------------------------------------


def _cell(value: Any) -> Any:
    """A text cell that a spreadsheet will not run as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _csv(rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return out.getvalue()


#: Words a sentence in the reader's language (the presenters' ``say``): the CSV files'
#: column names are sentences, worded by the caller.
Say = Callable[[Sentence], str]


def _column(key: str) -> Sentence:
    """A column of the CSV files: ``hand``, ``dealer``… (worded by the presenters)."""
    return sentence("exports.csv-column", column=key)


def game_csv(game: Game, say: Say) -> str:
    """Hand by hand: dealer, how it ended, who went out, each player's score and
    running total; the final totals last."""
    names = [s.player.name for s in game.seats]
    by_id = {s.player_id: s.player.name for s in game.seats}
    header = [say(_column(key)) for key in ("hand", "dealer", "ending", "went_out")]
    for name in names:
        header += [name, say(sentence("exports.csv-player-total", name=name))]
    rows: list[list[Any]] = [header]
    running = [0] * len(names)
    points_only = say(sentence("exports.csv-points-only"))
    for hand in complete_hands(game):
        ending = say(sentence("exports.csv-ending", ending=hand.ending))
        if hand.points_only:  # kept as each player's points, without its cards
            ending = f"{ending} · {points_only}"
        row: list[Any] = [hand.number, by_id.get(hand.dealer_id, ""), ending,
                          by_id.get(hand.went_out_id, "") if hand.went_out_id else ""]
        for i, seat in enumerate(game.seats):
            score = hand.score_of(seat.player_id)
            value = score.score if score else 0
            running[i] += value
            row += [value, running[i]]
        rows.append(row)
    final: list[Any] = [say(_column("total")), "", "", ""]
    for total in running:
        final += ["", total]
    rows.append(final)
    return _csv(rows)


def league_csv(league: League, say: Say) -> str:
    """One row per player per finished game, oldest game first."""
    return "".join(league_csv_chunks(league, say))


#: Result rows read from the database (and written out) at a time.
CSV_BATCH = 2000


#: The league CSV's columns, in order.
LEAGUE_COLUMNS = ("game", "finished", "season", "family", "player", "seat", "total", "place",
                  "won", "hands", "melded", "stranded", "rating_after")


def league_csv_chunks(league: League, say: Say) -> Iterator[str]:
    """:func:`league_csv` piece by piece, the header first: the rows are read in
    batches as they are sent, so the download starts at once and its memory stays
    flat whatever the league's size."""
    seasons = prepare(league)
    yield _csv([[say(_column(key)) for key in LEAGUE_COLUMNS]])
    query = (select(GameResult.finished_at, GameResult.total, GameResult.position,
                    GameResult.won, GameResult.hands, GameResult.melded, GameResult.stranded,
                    GameResult.mu, Game.family, Seat.position.label("seat"), Player.name,
                    Game.number)
             .join(Game, Game.id == GameResult.game_id)
             .join(Player, Player.id == GameResult.player_id)
             .join(Seat, (Seat.game_id == GameResult.game_id)
                   & (Seat.player_id == GameResult.player_id))
             .where(GameResult.league_id == league.id)
             .order_by(GameResult.seq, Seat.position)
             .execution_options(yield_per=CSV_BATCH))
    rows: list[list[Any]] = []
    for result in db.session.execute(query):  # plain rows: nothing kept in the session
        finished = as_utc(result.finished_at)
        season = season_of_day(seasons, finished.date())
        rows.append([result.number, finished.strftime("%Y-%m-%d %H:%M"),
                     season.name if season else "", result.family, result.name,
                     result.seat + 1,
                     result.total, result.position, 1 if result.won else 0, result.hands,
                     result.melded, result.stranded, ratings.display_rating(result.mu)])
        if len(rows) >= CSV_BATCH:
            yield _csv(rows)
            rows = []
    if rows:
        yield _csv(rows)


def standings_csv(league: League, season: Season | None, say: Say) -> str:
    """The standings of a season (None: all time) as the page shows them by default, one
    row per player with the place the standings give it (equal records share one; the
    tie-breaks are the page's: :func:`scorebook.services.league.ranked_by`)."""
    rows = [standing_record(r) for r in standings(league, season)]
    return _csv([[say(_column(key)) for key in STANDING_FIELDS],
                 *([r[key] if key != "retired" else int(r[key]) for key in STANDING_FIELDS]
                   for r in rows)])


# --- JSON: export ---------------------------------------------------------------------------


def _time(value: datetime | None) -> str | None:
    return as_utc(value).isoformat() if value is not None else None


#: How many games :func:`export_league_chunks` loads at a time (with their hands, melds,
#: cards and changes): the memory a streamed export holds, whatever the league's size.
EXPORT_BATCH = 200


def _export_head(league: League) -> dict[str, Any]:
    """Everything of the export but its games (the league's seasons brought up to date
    first); ``name`` maps each player's id to the name the export uses."""
    prepare(league)
    players = list(db.session.scalars(
        select(Player).where(Player.league_id == league.id).order_by(Player.id)))
    seasons = db.session.scalars(select(Season).where(Season.league_id == league.id)
                                 .order_by(Season.starts_on, Season.id))
    return {
        "format": FORMAT,
        "version": VERSION,
        "league": {"name": league.name, "created_at": _time(league.created_at)},
        "players": [{"name": p.name, "created_at": _time(p.created_at),
                     "retired_at": _time(p.retired_at)} for p in players],
        "seasons": [{"name": s.name, "starts_on": s.starts_on.isoformat(),
                     "ends_on": s.ends_on.isoformat(), "created_at": _time(s.created_at)}
                    for s in seasons],
        "name": {p.id: p.name for p in players},
    }


def _exported_games(league: League, batch: int | None = None) -> Iterator[dict[str, Any]]:
    """The league's games as the export writes them, in the order of their ids, loaded
    ``batch`` at a time (keyset on the id: each batch one query per table)."""
    for _last, games in exported_batches(league, batch):
        yield from games


def exported_batches(league: League, batch: int | None = None, after: int = 0
                     ) -> Generator[tuple[int, list[dict[str, Any]]], None, None]:
    """The league's games after game id ``after`` as the export writes them, ``batch``
    at a time: (the last game's id, the batch)."""
    name = {p_id: p_name for p_id, p_name in db.session.execute(
        select(Player.id, Player.name).where(Player.league_id == league.id))}
    size = batch or EXPORT_BATCH
    while True:
        games = list(db.session.scalars(
            select(Game).where(Game.league_id == league.id, Game.id > after)
            .order_by(Game.id).limit(size).options(
                selectinload(Game.seats),
                selectinload(Game.hands).selectinload(Hand.melds).selectinload(Meld.cards),
                selectinload(Game.hands).selectinload(Hand.stranded),
                selectinload(Game.hands).selectinload(Hand.scores),
                selectinload(Game.hands).selectinload(Hand.played),
                selectinload(Game.hands).selectinload(Hand.played_moves))))
        if not games:
            return
        changes: dict[int, list[Change]] = {}
        for change in db.session.scalars(
                select(Change).where(Change.game_id.in_([g.id for g in games]))
                .order_by(Change.id)):
            changes.setdefault(change.game_id, []).append(change)
        after = games[-1].id
        yield after, [_export_game(game, name, changes.get(game.id, [])) for game in games]
        del games  # (the session keeps no game it no longer holds: the
        # identity map is weak, so each batch is freed once it is written)


def export_league(league: League) -> dict[str, Any]:
    """Everything stored about a league, without database ids (its seasons brought
    up to date first)."""
    head = _export_head(league)
    del head["name"]
    return {**head, "games": list(_exported_games(league))}


def _json(value: Any, depth: int) -> str:
    """``value`` as ``json.dumps(..., indent=1, sort_keys=True)`` writes it ``depth``
    levels down (its lines after the first indented by as many spaces)."""
    text = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)
    return text.replace("\n", "\n" + " " * depth)


def export_league_chunks(league: League, batch: int | None = None) -> Iterator[str]:
    """:func:`export_league` as the text ``json.dumps(export, ensure_ascii=False,
    indent=1, sort_keys=True) + "\\n"`` gives, byte for byte, in pieces: the games
    are written ``batch`` at a time as they are read, so the first byte leaves at
    once and memory stays flat however many games the league holds."""
    head = _export_head(league)
    del head["name"]
    keys = sorted([*head, "games"])
    yield "{"
    for i, key in enumerate(keys):
        yield ("," if i else "") + "\n " + json.dumps(key) + ": "
        if key != "games":
            yield _json(head[key], 1)
            continue
        started = False
        for game in _exported_games(league, batch):
            yield ("," if started else "[") + "\n  " + _json(game, 2)
            started = True
        yield "\n ]" if started else "[]"
    yield "\n}\n"


def _export_game(game: Game, name: Mapping[int, str], changes: Sequence[Change]
                 ) -> dict[str, Any]:
    return {
        "family": game.family,
        "rules": game.rules_json,
        "target": game.target,
        "status": game.status,
        "winner": name[game.winner_id] if game.winner_id else None,
        "started_at": _time(game.started_at),
        "finished_at": _time(game.finished_at),
        "seats": [{"player": name[s.player_id], "position": s.position,
                   "first_dealer": s.first_dealer}
                  for s in sorted(game.seats, key=lambda s: s.position)],
        "hands": [{
            "number": h.number,
            "dealer": name[h.dealer_id],
            "ending": h.ending,
            "went_out": name[h.went_out_id] if h.went_out_id else None,
            "going_rummy": h.going_rummy,
            "complete": h.complete,
            "points_only": h.points_only,
            "created_at": _time(h.created_at),
            "updated_at": _time(h.updated_at),
            "melds": [{
                "owner": name[m.owner_id], "label": m.label, "position": m.position,
                "kind": m.kind, "reading": m.reading,
                "cards": [_export_card(c, name) for c in m.cards],
            } for m in h.melds],
            "stranded": [{"player": name[c.player_id], "card": c.card,
                          "position": c.position}
                         for c in sorted(h.stranded, key=lambda c: c.id)],
            "scores": [{"player": name[s.player_id], "melded": s.melded,
                        "stranded": s.stranded, "score": s.score,
                        "cards_missing": s.cards_missing,
                        **({"held_points": s.held_points} if s.held_points is not None
                           else {})}
                       for s in sorted(h.scores, key=lambda s: s.id)],
            **({"log": _export_log(h, name)} if h.played is not None else {}),
        } for h in game.hands],
        "changes": [{"hand": c.hand_number, "action": c.action, "summary": c.summary,
                     "details": c.details, "device": c.device, "player": c.player,
                     "session": c.session_key, "at": _time(c.at)}
                    for c in changes],
    }


def _export_log(h: Hand, name: Mapping[int, str]) -> dict[str, Any]:
    """A hand the table logged turn by turn (issue 29): its deal and every move as stored,
    with the key of the send that logged it and the rule the table agreed to override.
    Only a hand with a log has one: a hand without keeps the shape it always had."""
    deal = h.played
    assert deal is not None
    return {"dealer": name[h.dealer_id], "upcard": deal.upcard, "dealt": deal.dealt,
            "created_at": _time(deal.created_at),
            "moves": [{"player": name[m.player_id], "move": m.move, "key": m.key,
                       "overridden": m.overridden, "at": _time(m.created_at)}
                      for m in sorted(h.played_moves, key=lambda m: m.position)]}


def _export_card(c: MeldCard, name: Mapping[int, str]) -> dict[str, Any]:
    """One card of a meld; ``end`` (``low``/``high``) only for an ace laid off on a run,
    where it lies (``values.ace-end``): a file without it, from before, imports as low."""
    out: dict[str, Any] = {"card": c.card, "declared": c.declared,
                           "laid_by": name[c.laid_by_id], "layoff": c.is_layoff,
                           "position": c.position}
    if c.end is not None:
        out["end"] = c.end
    return out


# --- JSON: import ---------------------------------------------------------------------------


def _parse_time(value: str | None, what: str, required: bool = True) -> datetime | None:
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise LeagueImportError(sentence("exports.not-a-time", what=what))
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise LeagueImportError(sentence("exports.bad-time", what=what,
                                         value=value[:40])) from None
    try:
        utc = parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
    except OverflowError:  # (9999-12-31T23:59:59-12:00 is in the year 10000 in UTC)
        utc = None
    if utc is None or not day_kept(utc.date()):
        raise LeagueImportError(_out_of_range(what, value))
    return utc


def _parse_date(value: str, what: str) -> date:
    try:
        parsed = date.fromisoformat(value)
    except ValueError:
        raise LeagueImportError(sentence("exports.bad-date", what=what,
                                         value=value[:40])) from None
    if not day_kept(parsed):
        raise LeagueImportError(_out_of_range(what, value))
    return parsed


def _out_of_range(what: str, value: str) -> Sentence:
    """A day or time before :data:`FIRST_DAY` or after :data:`LAST_DAY` (in UTC)."""
    return sentence("exports.day-range", what=what, value=value[:40], first=FIRST_DAY,
                    last=LAST_DAY)


def _empty(league: League) -> bool:
    for model in (Player, Game, Season):
        count = db.session.scalar(select(func.count()).select_from(model)
                                  .where(model.league_id == league.id))
        if count:
            return False
    return True


def import_league(data: Any, replace: League | None = None,
                  owner_password_hash: str | None = None) -> League:
    """Restore a league from :func:`export_league`'s dictionary, in one transaction.

    From the command line (``replace`` None) the install must not already hold a
    league with anything in it (an empty one, like the default league of a fresh
    install, is replaced).  From the web, ``replace`` is the importer's open league:
    it is replaced if it is empty, and no other league is looked at or touched
    (leagues are private); the imported league's name must be free.

    Whatever is wrong with the file, the error is a :class:`LeagueImportError` saying
    what (and in which game, hand and field), and nothing is stored."""
    try:
        with transaction():
            league = _import(data, replace)
            league.password_hash = owner_password_hash  # the importer owns it (else: no one yet)
            ratings.rebuild(league.id)
    except LeagueImportError:
        raise
    except JSONError:  # a streamed file, broken further on than its start
        raise LeagueImportError(NOT_JSON) from None
    except TooLong as exc:  # (a row of the file's head: its names were checked already)
        raise _too_long(exc) from None
    except DBAPIError as exc:
        # a last resort, never shown as it is (it quotes the SQL): the checks above
        # should have said what is wrong in words
        current_app.logger.warning("league import refused by the database: %s", exc)
        raise LeagueImportError(sentence("exports.not-stored")) from None
    return league


# --- the file's shape: pydantic's errors in words -------------------------------------------

#: The fields whose allowed values the format lists, each refused in its own words.
_UNKNOWN = {"family": ("exports.unknown-family", "family", 40),
            "status": ("exports.unknown-status", "status", 20),
            "ending": ("exports.unknown-ending", "ending", 20)}

_BRIEF = reprlib.Repr()
_BRIEF.maxlevel, _BRIEF.maxstring, _BRIEF.maxother, _BRIEF.maxlong = 4, 40, 40, 40


def _brief(value: Any) -> str:
    """``repr(value)`` cut to 40 characters (and safe on a value nested 100,000 deep)."""
    return _BRIEF.repr(value)[:40]


def _at(data: Any, loc: Sequence[int | str]) -> Any:
    """The value of ``data`` at a pydantic location (which the error found there)."""
    for step in loc:
        data = data[step]
    return data


def _shape_error(error: ErrorDetails, data: Any, container: str) -> LeagueImportError:
    """One of pydantic's errors about ``data`` as the sentence a person reads: the field
    (the last name in its location, else ``container``) and what is wrong with it."""
    loc = error["loc"]
    value = error["input"]
    key = next((str(step) for step in reversed(loc) if isinstance(step, str)), container)
    if error["type"] == "missing":
        return LeagueImportError(sentence("exports.missing", key=key))
    if error["type"] in ("greater_than_equal", "less_than_equal"):
        return LeagueImportError(sentence("exports.out-of-range", key=key,
                                          value=_brief(value)))
    if key == "details" and loc[-1] == "details":
        return LeagueImportError(sentence("exports.details-not-object"))
    if error["type"] == "literal_error":
        if key in _UNKNOWN and isinstance(value, str):
            id, param, longest = _UNKNOWN[key]
            return LeagueImportError(sentence(id, **{param: value[:longest]}))
        if key == "end":  # (a card laid off at an end that is none)
            try:
                card = _card(_at(data, loc[:-1]))
            except LeagueImportError as bad_card:
                return bad_card
            return LeagueImportError(sentence("exports.bad-end", card=card,
                                              end=str(value)[:10]))
        if key == "version":
            return LeagueImportError(sentence("exports.version", version=str(value)[:20]))
    return LeagueImportError(sentence("exports.wrong-type", key=key, value=_brief(value)))


def _valid_head(data: Mapping[str, Any]) -> LeagueHead:
    try:
        return LeagueHead.model_validate(data)
    except ValidationError as exc:
        raise _shape_error(exc.errors(include_url=False)[0], data, "league") from None


def _valid_game(index: int, data: Any) -> ExportGame:
    """The file's game ``index`` as its model; an error inside a hand with a good number
    names the hand."""
    try:
        return ExportGame.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        problem = _shape_error(error, data, "games")
        loc = error["loc"]
        if len(loc) > 2 and loc[0] == "hands" and loc[2] != "number":
            number = _at(data, loc[:2]).get("number")
            if isinstance(number, int) and not isinstance(number, bool) and 0 < number <= MAX_ID:
                raise _Placed(sentence("exports.in-hand", game=index, number=number,
                                       problem=problem.sentences)) from None
        raise problem from None


# --- the league -------------------------------------------------------------------------------


def _import(data: Any, replace: League | None = None) -> League:
    league, who = _import_head(data, replace)
    for index, raw in enumerate(data["games"], start=1):
        _store_games([_import_one(league, index, raw, who)])
    db.session.flush()
    ensure_seasons(league)
    return league


def _import_head(data: Any, replace: League | None = None, job_id: int | None = None
                 ) -> tuple[League, Callable[[str], Player]]:
    """The league, its players and seasons from the file's head, checked; and the lookup
    of its players by name for the games. With ``job_id`` (a background import) the
    league is stored unsealed (nobody opens it) and the empty league it replaces is left
    for :func:`seal_import` to remove."""
    if not isinstance(data, dict) or data.get("format") not in FORMATS:
        raise LeagueImportError(sentence("exports.not-an-export"))
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise LeagueImportError(sentence("exports.version",
                                         version=str(data.get("version"))[:20]))
    header = {key: value for key, value in data.items() if key != "games"}
    _check_strings(header)
    head = _valid_head(header)
    if "games" not in data:
        raise LeagueImportError(sentence("exports.missing", key="games"))
    if not isinstance(data["games"], list | StreamedGames):
        raise LeagueImportError(sentence("exports.wrong-type", key="games",
                                         value=_brief(data["games"])))
    name = head.league.name.strip()
    if not name:
        raise LeagueImportError(sentence("exports.no-league-name"))
    _check_name(name, MAX_LEAGUE_NAME, "league")
    if replace is None:
        existing = list(db.session.scalars(select(League)))
        for other in existing:
            if not _empty(other):
                raise LeagueImportError(sentence("exports.install-has-league",
                                                 name=other.name))
    else:
        existing = [replace] if _empty(replace) else []
    stored_name = name
    if job_id is None:
        for other in existing:
            db.session.delete(other)
        db.session.flush()
    elif any(other.name.lower() == name.lower() for other in existing):
        # (the empty league it replaces has its name: it keeps it until the seal)
        stored_name = _unsealed_name(job_id)
    clash = select(League.id).where(func.lower(League.name) == name.lower())
    if existing and job_id is not None:
        clash = clash.where(League.id.not_in([other.id for other in existing]))
    if replace is not None and db.session.scalar(clash) is not None:
        # (never confirm another league's name to someone who is not in it)
        raise LeagueImportError(sentence("exports.league-name-taken"))
    league = League(name=stored_name, import_job_id=job_id,
                    created_at=_parse_time(head.league.created_at, "created_at"))
    db.session.add(league)
    players: dict[str, Player] = {}
    for p in head.players:
        player = Player(league=league, name=_check_name(p.name, MAX_NAME_LENGTH, "player"),
                        created_at=_parse_time(p.created_at, "created_at"),
                        retired_at=_parse_time(p.retired_at, "retired_at", False))
        if player.name.lower() in {n.lower() for n in players}:
            raise LeagueImportError(sentence("exports.twice", name=player.name))
        players[player.name] = player
        db.session.add(player)
    for s in head.seasons:
        db.session.add(Season(league=league, name=_check_name(s.name, MAX_SEASON_NAME, "season"),
                              starts_on=_parse_date(s.starts_on, "starts_on"),
                              ends_on=_parse_date(s.ends_on, "ends_on"),
                              created_at=_parse_time(s.created_at, "created_at")))
    db.session.flush()
    return league, _lookup(players)


def _unsealed_name(job_id: int) -> str:
    return f"\u2063import {job_id}"  # (no form or file can give a name with U+2063)


def _lookup(players: dict[str, Player]) -> Callable[[str], Player]:
    def who(value: str) -> Player:
        if value not in players:
            raise LeagueImportError(sentence("exports.unlisted-player", name=value[:40]))
        return players[value]

    return who


@dataclass
class _Built:
    """A game of the file, checked, as the rows to write (no statement sent yet): the
    game's, then its seats', hands' (each with its melds and their cards, its stranded
    cards and its scores) and history entries', without the ids the database gives."""

    game: dict[str, Any]
    seats: list[dict[str, Any]]
    hands: list[tuple[dict[str, Any], list[tuple[dict[str, Any], list[dict[str, Any]]]],
                      list[dict[str, Any]], list[dict[str, Any]], dict[str, Any] | None,
                      list[dict[str, Any]]]]
    changes: list[dict[str, Any]]


def _import_one(league: League, index: int, raw: Any, who: Callable[[str], Player]
                ) -> _Built:
    """The file's game ``index``, checked and made into rows, not written: on SQLite
    the write lock is not taken while its hands go through the referee
    (:func:`_store_games` writes a chunk's games at once)."""
    try:
        _check_strings(raw)
        with db.session.no_autoflush:
            game, changes = _import_game(league, index, _valid_game(index, raw), who)
            return _rows(game, changes)  # (the columns' lengths checked)
    except _Placed:
        raise
    except LeagueImportError as exc:
        raise _Placed(sentence("exports.in-game", game=index,
                               problem=exc.sentences)) from exc
    except TooLong as exc:
        raise _Placed(sentence("exports.in-game", game=index,
                               problem=_too_long(exc).sentences)) from None


def _row(obj: Any, *skip: str) -> dict[str, Any]:
    """The row of a model built in memory (never added to the session): every column but
    its id and ``skip`` (the ids the database gives its parents), a column left unset
    taking its default; refuses a text longer than its column (:class:`TooLong`)."""
    table = type(obj).__table__
    mapper = type(obj).__mapper__
    row: dict[str, Any] = {}
    for attribute in mapper.column_attrs:
        column = attribute.columns[0]
        if column.primary_key or column.name in skip:
            continue
        if attribute.key in obj.__dict__:
            value = obj.__dict__[attribute.key]
        elif column.default is not None:
            default = column.default.arg
            value = default(None) if callable(default) else default
        else:
            value = None
        row[column.name] = value
    for attribute_key, column_name, length in column_lengths(type(obj)):
        value = row.get(column_name)
        if isinstance(value, str) and len(value) > length:
            raise TooLong(table.name, column_name, attribute_key, length, value)
    return row


def _rows(game: Game, changes: Sequence[Change]) -> _Built:
    row = _row(game)
    row["winner_id"] = game.winner.id if game.winner is not None else None
    hands = [(_row(h, "game_id"),
              [(_row(m, "hand_id"), [_row(c, "meld_id") for c in m.cards]) for m in h.melds],
              [_row(c, "hand_id") for c in h.stranded], [_row(c, "hand_id") for c in h.scores],
              _row(h.played, "hand_id") if h.played is not None else None,
              [_row(m, "hand_id") for m in h.played_moves])
             for h in game.hands]
    return _Built(row, [_row(s, "game_id") for s in game.seats], hands,
                  [_row(c, "game_id") for c in changes])


def _insert(model: type[Any], rows: list[dict[str, Any]], ids: bool = False) -> list[int]:
    """One INSERT of many rows (their ids, in order, if asked)."""
    if not rows:
        return []
    if not ids:
        db.session.execute(insert(model.__table__), rows)
        return []
    statement = insert(model.__table__).returning(model.__table__.c.id,
                                                  sort_by_parameter_order=True)
    return list(db.session.execute(statement, rows).scalars())


def _store_games(built: Sequence[_Built]) -> None:
    """Write games made into rows by :func:`_import_one`: one INSERT of many rows per
    table (not the ORM's statement a row), so SQLite's write lock is held a moment."""
    if not built:
        return
    game_ids = _insert(Game, [b.game for b in built], ids=True)
    seats: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    hands: list[Any] = []
    for game_id, b in zip(game_ids, built, strict=True):
        seats += [{**row, "game_id": game_id} for row in b.seats]
        changes += [{**row, "game_id": game_id} for row in b.changes]
        hands += [({**h[0], "game_id": game_id}, *h[1:]) for h in b.hands]
    _insert(Seat, seats)
    hand_ids = _insert(Hand, [h[0] for h in hands], ids=True)
    melds = [({**m, "hand_id": hand_id}, cards)
             for hand_id, h in zip(hand_ids, hands, strict=True) for m, cards in h[1]]
    meld_ids = _insert(Meld, [m[0] for m in melds], ids=True)
    _insert(MeldCard, [{**c, "meld_id": meld_id}
                       for meld_id, m in zip(meld_ids, melds, strict=True) for c in m[1]])
    _insert(StrandedCard, [{**c, "hand_id": hand_id}
                           for hand_id, h in zip(hand_ids, hands, strict=True) for c in h[2]])
    _insert(HandScore, [{**c, "hand_id": hand_id}
                        for hand_id, h in zip(hand_ids, hands, strict=True) for c in h[3]])
    _insert(PlayedHand, [{**h[4], "hand_id": hand_id}
                         for hand_id, h in zip(hand_ids, hands, strict=True) if h[4] is not None])
    _insert(PlayedMove, [{**m, "hand_id": hand_id}
                         for hand_id, h in zip(hand_ids, hands, strict=True) for m in h[5]])
    _insert(Change, changes)


# --- JSON import in the background: a chunk per transaction, the league sealed last -----
# A job (scorebook.services.jobs) imports a league a few games per transaction, so a
# phone's write in another league never waits long for SQLite's one write lock. The
# league is stored unsealed (League.import_job_id: nobody may open it, no page lists it)
# until its last chunk seals it; a job that fails removes it, chunk by chunk.

#: Seconds of work per transaction of a background import (SQLite's write lock is held
#: from a chunk's first write to its commit).
CHUNK_SECONDS = 0.25
#: Games rated at a time by the last steps of a background import.
RATE_CHUNK = 25
#: Games removed per transaction when a failed import is taken away.
DISCARD_CHUNK = 20


@dataclass
class ImportStep:
    """Where a background import has got to, for its job to commit with the chunk:
    ``checkpoint`` to go on from, ``done`` games of the file stored."""

    checkpoint: dict[str, Any]
    done: int


def import_in_chunks(data: Any, job_id: int, replace_id: int | None,
                     owner_password_hash: str | None,
                     checkpoint: dict[str, Any] | None,
                     seconds: float | None = None) -> Iterator[ImportStep]:
    """Import ``data`` (a :func:`read_league_file`) for job ``job_id``: each step yielded
    is a chunk of work for the caller to commit (with the step's checkpoint, in the same
    transaction), the last one the sealed league (``checkpoint["sealed"]``). Given the
    checkpoint of an earlier run, goes on from there. Raises :class:`LeagueImportError`
    (the chunk not committed: :func:`discard_import` takes away the rest)."""
    try:
        yield from _chunks(data, job_id, replace_id, owner_password_hash,
                           dict(checkpoint or {}),
                           float(current_app.config.get("JOBS_STEP_SECONDS", CHUNK_SECONDS))
                           if seconds is None else seconds)
    except JSONError:
        raise LeagueImportError(NOT_JSON) from None
    except TooLong as exc:
        raise _too_long(exc) from None
    except DBAPIError as exc:
        current_app.logger.warning("league import refused by the database: %s", exc)
        raise LeagueImportError(sentence("exports.not-stored")) from None


def _chunks(data: Any, job_id: int, replace_id: int | None, password_hash: str | None,
            at: dict[str, Any], seconds: float) -> Iterator[ImportStep]:
    ratings.leave_to_seal(db.session, None)
    if "league" not in at:
        replace = db.session.get(League, replace_id) if replace_id is not None else None
        league, who = _import_head(data, replace, job_id)
        ratings.leave_to_seal(db.session, league.id)
        at = {"league": league.id, "games": 0, "name": data["league"]["name"].strip()}
        yield ImportStep(dict(at), 0)
    else:
        found = db.session.get(League, at["league"])
        if found is None or found.import_job_id != job_id:
            raise LeagueImportError(sentence("exports.not-stored"))
        league = found
        who = _lookup({p.name: p for p in db.session.scalars(
            select(Player).where(Player.league_id == league.id))})
    league_id = league.id
    # Each chunk's games are checked and built first, then written at its end: SQLite's
    # write lock is held from the chunk's first INSERT to its commit, the writing alone
    # (a few INSERTs per table), not the referee's checks of its hands.
    began, skip = time.monotonic(), int(at["games"])
    built: list[_Built] = []
    for index, raw in enumerate(data["games"], start=1):
        if index <= skip:
            continue  # (stored by an earlier run)
        ratings.leave_to_seal(db.session, league_id)
        built.append(_import_one(league, index, raw, who))
        if time.monotonic() - began >= seconds:
            _store_games(built)
            built = []
            at["games"] = index
            yield ImportStep(dict(at), index)
            began = time.monotonic()
    ratings.leave_to_seal(db.session, league_id)
    _store_games(built)
    if "rated" not in at:
        at["games"] = db.session.scalar(select(func.count(Game.id))
                                        .where(Game.league_id == league_id)) or 0
        at["rated"] = 0
        yield ImportStep(dict(at), at["games"])
    # the ratings, a few games per transaction (the league's own: nobody reads them yet)
    # (each step rates its games reading only, then writes their rows at its end)
    finished = ratings.finished_games(league_id)
    while at["rated"] < len(finished):
        ratings.leave_to_seal(db.session, league_id)
        began = time.monotonic()
        start = done = int(at["rated"])
        current: dict[int, tuple[float, float]] | None = None
        rows: list[dict[str, Any]] = []
        while done < len(finished) and (done == start or time.monotonic() - began < seconds):
            end = min(len(finished), done + RATE_CHUNK)
            if current is None:
                current = ratings.ratings_before(league_id, done)
            rows += ratings.rate_some(league_id, finished, done, end, current)
            done = end
        ratings.store_rated(league_id, rows, first=start == 0)
        at["rated"] = done
        yield ImportStep(dict(at), at["games"])
    if "seasons" not in at:  # (a step of its own: it may add seasons, and sum them)
        ratings.leave_to_seal(db.session, league_id)
        found = db.session.get(League, league_id)
        assert found is not None
        ensure_seasons(found)
        at["seasons"] = True
        yield ImportStep(dict(at), at["games"])
    seal_import(league_id, job_id, replace_id, password_hash, str(at["name"]))
    at["sealed"] = True
    yield ImportStep(dict(at), at["games"])


def seal_import(league_id: int, job_id: int, replace_id: int | None,
                password_hash: str | None, name: str) -> League:
    """The last chunk: the tallies, the replaced empty league removed, and the league
    opened to its importer. Everything it reads is read before its first write (SQLite's
    write lock is held from that write to the commit)."""
    league = db.session.get(League, league_id)
    assert league is not None and league.import_job_id == job_id
    ensure_seasons(league)  # (the step before made them: this adds none)
    tallies = ratings.tally_all(league_id)
    replace = db.session.get(League, replace_id) if replace_id is not None else None
    if replace is not None and (replace.import_job_id is not None or not _empty(replace)):
        replace = None  # (kept)
    if league.name != name:  # (it waited under a stand-in name: the replaced league's)
        clash = select(League.id).where(func.lower(League.name) == name.lower())
        if replace is not None:
            clash = clash.where(League.id != replace.id)
        if db.session.scalar(clash) is not None:
            raise LeagueImportError(sentence("exports.league-name-taken"))
    if replace is not None:
        db.session.delete(replace)
        db.session.flush()
    if league.name != name:
        league.name = name
        db.session.flush()
    ratings.rated(league.id, tallies)
    league.password_hash = password_hash
    league.import_job_id = None
    return league


def discard_import(job_id: int) -> Iterator[int]:
    """Take away what a failed import stored (its unsealed league), a few games per
    step: each step is for the caller to commit; yields the games left."""
    league_id = db.session.scalar(select(League.id).where(League.import_job_id == job_id))
    if league_id is None:
        return
    while True:
        ids = list(db.session.scalars(select(Game.id).where(Game.league_id == league_id)
                                      .order_by(Game.id.desc()).limit(DISCARD_CHUNK)))
        if not ids:
            break
        db.session.execute(delete(Game).where(Game.id.in_(ids)))
        yield len(ids)
    for model in (GameResult, Season, Player):
        db.session.execute(delete(model).where(model.league_id == league_id))
    db.session.execute(delete(League).where(League.id == league_id))
    yield 0


# --- JSON import: the games, checked as the services check them -----------------------------
# Every hand goes through the referee exactly as recording one does (hands.check_entry:
# card copies, legal melds and lay-offs, who went out) and is stored the way recording
# stores it (hands._store), so its scores, melds' readings and jokers come from the
# cards; the file's own scores must agree with them.


def _check_name(name: str, longest: int, what: str) -> str:
    """A name of the file (``what``: league, player, season or meld), checked as the forms
    check one: one line of printable text, not too long (the file's own spelling kept
    otherwise, so export → import → export agrees)."""
    if has_unwanted(name):
        raise LeagueImportError(sentence("exports.name-control", what=what,
                                         name=repr(name)[:60]))
    if not name.strip() or len(name) > longest:
        raise LeagueImportError(sentence("exports.name-length", what=what, max=longest,
                                         name=name[:60]))
    return name


#: The file's name of a column the models name otherwise.
_FILE_KEYS = {"session_key": "session", "run_end": "end"}


def _too_long(exc: TooLong) -> LeagueImportError:
    """A text of the file longer than its column holds (on every database alike)."""
    key = _FILE_KEYS.get(exc.column, exc.column)
    return LeagueImportError(sentence("exports.too-long", key=key, max=exc.length,
                                      value=exc.value[:40]))


def _check_strings(data: Any) -> None:
    """No text anywhere in the file holds a NUL or an unpaired surrogate (no database can
    store either): refused in words, before anything is stored."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item or any("\ud800" <= ch <= "\udfff" for ch in item):
                raise LeagueImportError(sentence("exports.broken-text", text=repr(item)[:40]))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _game_rules(g: ExportGame) -> RuleSet:
    """The game's rule set, built by the referee from the file's family and options."""
    family, spec = g.family, dict(g.rules)
    if spec.get("family", family) != family:
        raise LeagueImportError(sentence("exports.rules-family",
                                         rules=str(spec.get("family"))[:40], family=family))
    for option in spec:
        if option != "family" and option not in OPTIONS:
            raise LeagueImportError(sentence("exports.unknown-option", option=option[:40]))
    try:
        return make_rules({**spec, "family": family})
    except RulesError as exc:
        raise LeagueImportError(sentence("exports.rules-clash", error=exc)) from exc


def _import_seats(game: Game, g: ExportGame, rules: RuleSet,
                  who: Callable[[str], Player]) -> None:
    seats = sorted(((who(s.player), s.position, s.first_dealer) for s in g.seats),
                   key=lambda seat: seat[1])
    try:
        rules.check_players(len(seats))
    except RulesError:
        raise LeagueImportError(sentence(
            "exports.player-count", family=rules.family, low=rules.min_players,
            high=rules.max_players, count=len(seats))) from None
    seen: set[str] = set()
    for player, _position, _first in seats:
        if player.name in seen:
            raise LeagueImportError(sentence("exports.seated-twice", name=player.name))
        seen.add(player.name)
    if [position for _p, position, _f in seats] != list(range(len(seats))):
        raise LeagueImportError(sentence("exports.seat-numbers", last=len(seats) - 1))
    if sum(1 for _p, _position, first in seats if first) != 1:
        raise LeagueImportError(sentence("exports.first-dealer"))
    for player, position, first in seats:
        # (player_id too: the hands read it before anything is flushed)
        game.seats.append(Seat(player=player, player_id=player.id, position=position,
                               first_dealer=first))


def _import_game(league: League, index: int, g: ExportGame, who: Callable[[str], Player]
                 ) -> tuple[Game, list[Change]]:
    """One game of the file: its rule set, seats and every hand checked, and built in the
    session (not flushed: the caller writes it); the game and its history entries."""
    rules = _game_rules(g)
    # (league_id, not league: the league's list of games would keep every game in memory)
    game = Game(league_id=league.id, family=rules.family, rules_json=rules.as_dict(),
                target=g.target, status=g.status, number=index,
                winner=who(g.winner) if g.winner is not None else None,
                started_at=_parse_time(g.started_at, "started_at"),
                finished_at=_parse_time(g.finished_at, "finished_at", g.status == FINISHED))
    _import_seats(game, g, rules, who)
    expected = rules.target_for(len(game.seats))
    if game.target != expected:
        raise LeagueImportError(sentence("exports.target", target=game.target,
                                         expected=expected))
    names = [s.player.name for s in game.seats]
    if game.winner is not None and game.winner.name not in names:
        raise LeagueImportError(sentence("exports.not-seated", name=game.winner.name))
    # (not added to the session: its rows are written at the chunk's end, _store_games)

    numbers = sorted(h.number for h in g.hands)
    for n, number in enumerate(numbers, start=1):
        if number == n:
            continue
        if number == n - 1:
            raise LeagueImportError(sentence("exports.hand-twice", number=number))
        raise LeagueImportError(sentence("exports.hand-missing", number=n))
    for h in sorted(g.hands, key=lambda h: h.number):
        try:
            game.hands.append(_import_hand(game, rules, h, who, last=h.number == len(g.hands)))
        except LeagueImportError as exc:
            raise _Placed(sentence("exports.in-hand", game=index, number=h.number,
                                   problem=exc.sentences)) from exc
    _check_result(game)
    changes = [Change(hand_number=c.hand, action=c.action, summary=c.summary,
                      details=_details(c.details), device=c.device,
                      player=clean_player_name(c.player), session_key=c.session,
                      at=_parse_time(c.at, "at")) for c in g.changes]
    return game, changes


#: The most characters of JSON a history entry's details may take, and how deep they nest.
MAX_DETAILS = 20000
MAX_DETAILS_DEPTH = 32


def _details(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """A history entry's details as filed (an object, or nothing; at most 20,000
    characters of JSON, so a file cannot make one entry huge)."""
    if value is None:
        return None
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:  # (measured without recursion: json.dumps would overflow on deep nesting)
        item, depth = stack.pop()
        if depth > MAX_DETAILS_DEPTH:
            raise LeagueImportError(sentence("exports.details-too-long"))
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    if len(json.dumps(value)) > MAX_DETAILS:
        raise LeagueImportError(sentence("exports.details-too-long"))
    return value


def _check_result(game: Game) -> None:
    """The file's status and winner must be what the game's hands give."""
    if game.status == ABANDONED:
        return
    # (from the hands built, not yet written: the totals and who went out last)
    played = sorted((h for h in game.hands if h.complete), key=lambda h: h.number)
    totals: dict[int, int] = {}
    for h in played:
        for score in h.scores:
            totals[score.player_id] = totals.get(score.player_id, 0) + score.score
    verdict = verdict_of(game, [totals.get(s.player_id, 0) for s in game.seats],
                         played[-1].went_out_id if played else None)
    if verdict.detail.get("finished"):
        winner = game.seats[verdict.detail["winner"]].player
        if game.status != FINISHED or game.winner is not winner:
            raise LeagueImportError(sentence("exports.other-winner", name=winner.name))
    elif game.status == FINISHED:
        raise LeagueImportError(sentence("exports.not-finished"))
    elif game.winner is not None:
        raise LeagueImportError(sentence("exports.winner-too-soon"))


def _card(c: ExportMeldCard | ExportStranded | Mapping[str, Any]) -> Card:
    """A card of the file, read by the referee's own parser (an error names the token)."""
    if isinstance(c, Mapping):  # (the raw card of an error: its card, if it is one)
        text, declared = c.get("card"), c.get("declared")
        if not isinstance(text, str) or not isinstance(declared, str | None):
            raise LeagueImportError(sentence("exports.wrong-type", key="card",
                                             value=_brief(text)))
    else:
        text, declared = c.card, c.declared
    try:
        return parse_card(f"{text}={declared}" if declared else text)
    except CardError as exc:
        raise LeagueImportError(sentence("exports.not-a-card", token=exc.token)) from exc


def _end(c: ExportMeldCard, card: Card) -> str | None:
    """The end of the run an ace was laid off at; an older file has none (the ace lay low,
    as it was scored then)."""
    if c.end is None:
        return None
    if not c.layoff:
        raise LeagueImportError(sentence("exports.bad-end", card=card, end=c.end))
    return str(c.end)


def _import_hand(game: Game, rules: RuleSet, h: ExportHand, who: Callable[[str], Player],
                 last: bool) -> Hand:
    """One hand, checked by the referee as recording it is, then stored as recording
    stores it (a hand still being played: its melds and lay-offs checked, stored as
    they are)."""
    ids = {s.player.name: s.player_id for s in game.seats}

    def seated(value: str) -> str:
        name = who(value).name
        if name not in ids:
            raise LeagueImportError(sentence("exports.not-seated", name=name))
        return name

    went_out = seated(h.went_out) if h.went_out is not None else None
    # a file from before points-only hands has no such field: every hand held its cards
    points_only = bool(h.points_only)
    hand = Hand(number=h.number, dealer_id=ids[seated(h.dealer)], version=1,
                ending=h.ending, went_out_id=ids[went_out] if went_out else None,
                going_rummy=h.going_rummy, complete=h.complete, points_only=points_only,
                created_at=_parse_time(h.created_at, "created_at"),
                updated_at=_parse_time(h.updated_at, "updated_at"))

    melds: dict[str, list[tuple[str, tuple[Card, ...]]]] = {n: [] for n in ids}
    layoffs: dict[str, list[Layoff]] = {n: [] for n in ids}
    stranded: dict[str, list[Card]] = {n: [] for n in ids}
    rows: list[Meld] = []
    for m in sorted(h.melds, key=lambda m: m.position):
        owner = seated(m.owner)
        _check_name(m.label, MELD_LABEL_LENGTH, "meld")
        meld = Meld(owner_id=ids[owner], label=m.label, position=m.position, kind=m.kind,
                    reading=m.reading)
        own: list[Card] = []
        for c in sorted(m.cards, key=lambda c: c.position):
            card, by = _card(c), seated(c.laid_by)
            end = _end(c, card)
            if c.layoff:
                layoffs[by].append((card, m.label) if end is None else (card, m.label, end))
            else:
                own.append(card)
            meld.cards.append(MeldCard(
                card=str(card.natural), laid_by_id=ids[by], is_layoff=c.layoff,
                declared=str(card.stands_for) if card.is_joker and card.stands_for else None,
                position=c.position, end=end))
        melds[owner].append((m.label, tuple(own)))
        rows.append(meld)
    for s in sorted(h.stranded, key=lambda s: s.position):
        stranded[seated(s.player)].append(_card(s))
    scores: dict[str, tuple[int, int, int]] = {}
    # RULES.md §10: the players the file marks as missing cards (a file from before the
    # mark says nothing: nobody is marked, and nothing is asked)
    marked: set[str] = set()
    held: dict[str, int] = {}  # points given for a hand whose cards nobody remembers
    for score in h.scores:
        name = seated(score.player)
        if name in scores:
            raise LeagueImportError(sentence("exports.twice", name=name))
        scores[name] = (score.melded, score.stranded, score.score)
        if score.cards_missing:
            marked.add(name)
        if score.held_points is not None:
            held[name] = score.held_points
    if h.going_rummy and went_out is None:
        raise LeagueImportError(sentence("exports.rummy-without-going-out"))

    if points_only and (not h.complete or rows or any(stranded.values())):
        raise LeagueImportError(sentence("exports.points-only-cards"))
    if not h.complete and (not last or game.status != IN_PROGRESS or went_out
                           or h.going_rummy or scores or any(stranded.values())):
        raise LeagueImportError(sentence("exports.live-hand"))
    if held and (points_only or not h.complete):
        raise LeagueImportError(sentence("exports.points-only-cards"))
    players = [PlayerHand(n, tuple(melds[n]), tuple(layoffs[n]), tuple(stranded[n]),
                          h.going_rummy and n == went_out, held.get(n)) for n in ids]
    if not h.complete:
        _check_live(rules, players)
        hand.melds = rows
        _import_log(hand, rules, h, ids, seated)
        return hand
    points = None
    if points_only:
        points = {n: scores[n][2] for n in ids if n in scores}
        missing = [n for n in ids if n not in scores]
        if missing:
            raise LeagueImportError(sentence("exports.no-score", name=missing[0]))
    try:
        players, result, short = check_entry(
            game, Entry(players, h.ending, went_out, points=points,
                        missing_ok=frozenset(marked)), ask_missing=False)
    except HandError as exc:
        raise LeagueImportError(*(sentence("exports.problem", problem=p)
                                  for p in exc.problems)) from exc
    for player_score in result.players:
        given = scores.get(player_score.name)
        if given is None:
            raise LeagueImportError(sentence("exports.no-score", name=player_score.name))
        if given != (player_score.melded, player_score.stranded, player_score.score):
            raise LeagueImportError(sentence(
                "exports.other-score", name=player_score.name, given=given[2],
                given_melded=given[0], given_stranded=given[1], score=player_score.score,
                melded=player_score.melded, stranded=player_score.stranded))
    _store(hand, game, players, result, short)
    _import_log(hand, rules, h, ids, seated)
    return hand


def _import_log(hand: Hand, rules: RuleSet, h: ExportHand, ids: Mapping[str, int],
                seated: Callable[[str], str]) -> None:
    """The hand's log, if the file gives one: replayed by the referee move by move, and
    its melds and lay-offs held against the hand's (:func:`played.replay_checked`,
    :func:`played.check_melds_logged`); kept as stored, each move as the API stores it."""
    log = h.log
    if log is None:
        return
    name_of = {pid: name for name, pid in ids.items()}
    dealer = seated(log.dealer)
    if ids[dealer] != hand.dealer_id:
        raise LeagueImportError(sentence("exports.log-dealer", name=dealer,
                                         dealer=name_of[hand.dealer_id]))
    upcard = _card({"card": log.upcard, "declared": None})
    keys: set[str] = set()
    moves = []
    for m in log.moves:
        moves.append((seated(m.player), m.move, m.overridden))
        if m.key is not None:
            if m.key in keys:
                raise LeagueImportError(sentence("exports.log-key-twice", key=m.key[:40]))
            keys.add(m.key)
    try:
        walk, stored = played.replay_checked(
            Deal(rules, tuple(ids), name_of[hand.dealer_id], upcard, log.dealt), moves)
        played.check_melds_logged(walk, hand.melds, name_of)
    except played.LogFault as exc:
        raise LeagueImportError(_log_fault(exc)) from None
    hand.played = PlayedHand(upcard=str(upcard), dealt=log.dealt,
                             created_at=_parse_time(log.created_at, "created_at"))
    hand.played_moves = [
        PlayedMove(position=i, key=m.key, player_id=ids[player], move=move,
                   overridden=m.overridden, created_at=_parse_time(m.at, "at"))
        for i, (m, (player, _move, _over), move) in enumerate(
            zip(log.moves, moves, stored, strict=True))]


def _log_fault(exc: played.LogFault) -> Sentence:
    if exc.meld is not None:
        return sentence("exports.log-melds", meld=exc.meld[:40])
    if exc.overridden is not None:
        return sentence("exports.log-overridden", number=exc.number,
                        given=exc.overridden[0] or "", found=exc.overridden[1] or "")
    return sentence("exports.log-refused", number=exc.number, verdict=exc.verdict,
                    message=exc.message)


def _check_live(rules: RuleSet, players: Sequence[PlayerHand]) -> None:
    """The melds and lay-offs of a hand still being played, checked as the live hand's
    services check each one (hands.live_meld, hands.live_layoff)."""
    problems, owners = check_melds(players, rules)
    said = [sentence("exports.problem", problem=p) for p in problems]
    everything = [c for p in players for _m, cards in p.melds for c in cards]
    everything += [lay[0] for p in players for lay in p.layoffs]
    too_many = check_copies(everything, rules, len(players))
    if too_many is not None:
        said.append(sentence("exports.verdict", verdict=too_many))
    if not said:
        for p in players:
            for card, onto, _end in p.layoff_ends():
                if onto not in owners:
                    said.append(sentence("exports.layoff-off-table", card=card,
                                         player=p.name))
    if not said:
        try:
            build_table(rules, players)
        except ScoringError as exc:
            said.append(sentence("exports.problem",
                                 problem=_scoring_problem(exc, players, owners)))
    if said:
        raise LeagueImportError(*said)


# --- the league import as a background job ----------------------------------------------


def _import_job(job: Job) -> Generator[jobs.Step, None, None]:
    """The kind ``league-import``: the uploaded file (``payload["file"]``) imported a
    chunk per step, the league sealed and given to its importer in the last."""
    payload = job.payload
    with open(payload["file"], "rb") as stream:
        try:
            data = read_league_file(stream)
        except JSONError:
            raise LeagueImportError(NOT_JSON) from None
        if payload.get("name") and isinstance(data.get("league"), dict):
            # (the importer's name for it here: the file's was taken, or not wanted)
            data["league"] = {**data["league"], "name": str(payload["name"])}
        games = data.get("games")
        total = games.count if isinstance(games, StreamedGames) else None
        # (the file read through, nothing written: the lease renewed)
        yield jobs.Step(job.done, total, wrote=False)
        for step in import_in_chunks(data, job.id, payload.get("replace"),
                                     payload.get("password_hash"), job.checkpoint):
            if step.checkpoint.get("sealed"):
                yield jobs.Step(step.done, total, step.checkpoint,
                                result={"league": step.checkpoint["league"],
                                        "name": step.checkpoint["name"],
                                        "games": step.done})
                return
            yield jobs.Step(step.done, total, step.checkpoint)


def _discard_job(job: Job) -> Iterator[int]:
    return discard_import(job.id)


def _remove_upload(job: Job) -> None:
    path = job.payload.get("file")
    if path:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


jobs.KINDS[IMPORT_JOB] = jobs.Kind(run=_import_job, clean_up=_discard_job,
                                   errors=(LeagueImportError,),
                                   after=_remove_upload)


def collect(store: MutableMapping[str, Any], job: Job) -> League | None:
    """The league a finished import made, given to the browser that asked for it (the
    importer owns it; the empty league it replaced is forgotten); None if the job is
    no finished import, or the league is gone."""
    if job.kind != IMPORT_JOB or job.state != JOB_DONE or not job.result:
        return None
    league = db.session.get(League, job.result.get("league"))
    if league is None or league.import_job_id is not None:
        return None
    replaced = job.payload.get("replace")
    if isinstance(replaced, int) and db.session.get(League, replaced) is None:
        access.forget(store, replaced)
    access.remember(store, league, access.OWNER)
    return league
