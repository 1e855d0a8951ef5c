"""Exports: a game or a league's results as CSV, and a whole league as JSON that
imports into a fresh install and restores everything.

The JSON names players by name (unique in a league) and never carries database
ids, so export → import → export gives the same file.  Ratings, per-game results
and the scoreboard's cache are not in it: they are rebuilt from what is.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import IO, Any

import ijson
from flask import current_app
from flask_babel import gettext
from sqlalchemy import func, select
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
from referee.rules import FAMILIES, OPTIONS
from scorebook.extensions import db
from scorebook.models import (
    ABANDONED,
    FINISHED,
    GAME_STATUSES,
    HAND_ENDINGS,
    IN_PROGRESS,
    MELD_LABEL_LENGTH,
    RUN_ENDS,
    Change,
    Game,
    GameResult,
    Hand,
    League,
    Meld,
    MeldCard,
    Player,
    Season,
    Seat,
)
from scorebook.plain_text import has_unwanted
from scorebook.services import ratings
from scorebook.services.access import MAX_LEAGUE_NAME
from scorebook.services.entry import Entry, HandError, Problem, _card_error
from scorebook.services.errors import sentence
from scorebook.services.games import (
    MAX_NAME_LENGTH,
    complete_hands,
    verdict_of,
)
from scorebook.services.hands import _scoring_problem, _store, check_entry, check_melds
from scorebook.services.history import clean_player_name
from scorebook.services.league import (
    MAX_SEASON_NAME,
    as_utc,
    ensure_seasons,
    prepare,
    season_of_day,
)
from scorebook.services.transaction import transaction
from scorebook.web.presenters.bidi import isolate
from scorebook.web.presenters.sentences import say
from scorebook.web.presenters.wording import ENDINGS, family_name, rules_error_text

FORMAT = "rummy-scorebook/services/league"
VERSION = 1


class LeagueImportError(ValueError):
    """A league file that cannot be imported; the message says why."""


class _Placed(LeagueImportError):
    """A problem whose message already says which game (and hand) it is in."""


# --- JSON: reading a league file as a stream ----------------------------------------------
# A league of 5,000 games exports to some 280 MB of JSON, which json.load would turn into
# ~2.5 GB of Python objects. read_league_file reads everything but the games (a few KB)
# first, then the import takes the games one at a time from the file: memory holds one
# game, whatever the file's size (benchmarks/league_import.py measures it).

def not_json_message() -> str:
    return gettext("That file is not JSON: choose a league file exported here.")


#: The parts of an export besides its games.
HEADER_KEYS = ("format", "version", "league", "players", "seasons")
#: What reading a file that is not JSON (or not UTF-8) raises.
JSONError = ijson.JSONError


class StreamedGames:
    """The games of a league file (a seekable binary stream), parsed one at a time each
    time they are iterated."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream

    def __iter__(self) -> Iterator[Any]:
        self.stream.seek(0)
        return iter(ijson.items(self.stream, "games.item", use_float=True))


def read_league_file(stream: IO[bytes]) -> dict[str, Any]:
    """A league file as :func:`import_league` takes it, its ``games`` a
    :class:`StreamedGames`: the rest is read now, the games as they are imported. Raises
    :data:`JSONError` for a file that is not JSON (perhaps only further on, while the
    games are read)."""
    stream.seek(0)
    events = ijson.parse(stream)
    first = next(iter(events), None)
    if first is None or first[1] != "start_map":
        return {}  # not an object: "not a Rummy Scorebook league export"
    data: dict[str, Any] = {}
    for prefix, event, _value in events:
        if prefix == "games":  # the games' first event says what they are
            data["games"] = StreamedGames(stream) if event == "start_array" else {}
            break
    for key in HEADER_KEYS:
        stream.seek(0)
        for value in ijson.items(stream, key, use_float=True):
            data[key] = value
            break
    return data


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


def game_csv(game: Game) -> str:
    """Hand by hand: dealer, how it ended, who went out, each player's score and
    running total; the final totals last."""
    names = [s.player.name for s in game.seats]
    by_id = {s.player_id: s.player.name for s in game.seats}
    header = [gettext("Hand"), gettext("Dealer"), gettext("How it ended"),
              gettext("Went out")]
    for name in names:
        header += [name, gettext("%(name)s total", name=name)]
    rows: list[list[Any]] = [header]
    running = [0] * len(names)
    points_only = gettext("points only")  # not inside the f-string, where pybabel cannot see it
    for hand in complete_hands(game):
        ending = str(ENDINGS.get(hand.ending, hand.ending))
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
    final: list[Any] = [gettext("Total"), "", "", ""]
    for total in running:
        final += ["", total]
    rows.append(final)
    return _csv(rows)


def league_csv(league: League) -> str:
    """One row per player per finished game, oldest game first."""
    return "".join(league_csv_chunks(league))


#: Result rows read from the database (and written out) at a time.
CSV_BATCH = 2000


def league_csv_chunks(league: League) -> Iterator[str]:
    """:func:`league_csv` piece by piece, the header first: the rows are read in
    batches as they are sent, so the download starts at once and its memory stays
    flat whatever the league's size."""
    seasons = prepare(league)
    yield _csv([[
        gettext("Game"), gettext("Finished"), gettext("Season"), gettext("Game type"),
        gettext("Player"), gettext("Seat"), gettext("Total"), gettext("Place"),
        gettext("Won"), gettext("Hands"), gettext("Melded"), gettext("Stranded"),
        gettext("Rating after"),
    ]])
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
    name = {p_id: p_name for p_id, p_name in db.session.execute(
        select(Player.id, Player.name).where(Player.league_id == league.id))}
    size = batch or EXPORT_BATCH
    after = 0
    while True:
        games = list(db.session.scalars(
            select(Game).where(Game.league_id == league.id, Game.id > after)
            .order_by(Game.id).limit(size).options(
                selectinload(Game.seats),
                selectinload(Game.hands).selectinload(Hand.melds).selectinload(Meld.cards),
                selectinload(Game.hands).selectinload(Hand.stranded),
                selectinload(Game.hands).selectinload(Hand.scores))))
        if not games:
            return
        changes: dict[int, list[Change]] = {}
        for change in db.session.scalars(
                select(Change).where(Change.game_id.in_([g.id for g in games]))
                .order_by(Change.id)):
            changes.setdefault(change.game_id, []).append(change)
        for game in games:
            yield _export_game(game, name, changes.get(game.id, []))
        after = games[-1].id  # (the session keeps no game it no longer holds: the
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
                        "stranded": s.stranded, "score": s.score}
                       for s in sorted(h.scores, key=lambda s: s.id)],
        } for h in game.hands],
        "changes": [{"hand": c.hand_number, "action": c.action, "summary": c.summary,
                     "details": c.details, "device": c.device, "player": c.player,
                     "session": c.session_key, "at": _time(c.at)}
                    for c in changes],
    }


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


def _parse_time(value: Any, what: str, required: bool = True) -> datetime | None:
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise LeagueImportError(gettext("%(what)s must be a date and time.", what=what))
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise LeagueImportError(gettext("%(what)s is not a date and time: %(value)s",
                                   what=what, value=value[:40])) from None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def _parse_date(value: Any, what: str) -> date:
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        raise LeagueImportError(gettext("%(what)s is not a date: %(value)s", what=what,
                                   value=str(value)[:40])) from None


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
    (leagues are private); the imported league's name must be free."""
    try:
        with transaction():
            league = _import(data, replace)
            league.password_hash = owner_password_hash  # the importer owns it (else: no one yet)
            ratings.rebuild(league.id)
    except LeagueImportError:
        raise
    except JSONError:  # a streamed file, broken further on than its start
        raise LeagueImportError(not_json_message()) from None
    except DBAPIError as exc:
        # a last resort, never shown as it is (it quotes the SQL): the checks above
        # should have said what is wrong in words
        current_app.logger.warning("league import refused by the database: %s", exc)
        raise LeagueImportError(gettext(
            "The file could not be stored: one of its values does not fit this install's "
            "database. Nothing was imported.")) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        # a last resort: every check above should have said what is wrong in words
        raise LeagueImportError(gettext("The file is not a complete league export (%(what)s).",
                                   what=f"{type(exc).__name__}: {exc}"[:120])) from exc
    return league


def _import(data: Any, replace: League | None = None) -> League:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LeagueImportError(gettext("This is not a Rummy Scorebook league export."))
    if data.get("version") != VERSION:
        raise LeagueImportError(gettext("This export's version (%(version)s) cannot be read here.",
                                   version=str(data.get("version"))[:20]))
    _check_strings({key: value for key, value in data.items() if key != "games"})
    info = _field(data, "league", dict)
    name = _field(info, "name", str).strip()
    if not name:
        raise LeagueImportError(gettext("The league in the file has no name."))
    _check_name(name, MAX_LEAGUE_NAME, gettext("The league's name"))
    if replace is None:
        existing = list(db.session.scalars(select(League)))
        for other in existing:
            if not _empty(other):
                raise LeagueImportError(gettext(
                    "This install already keeps the league %(name)s; import into a fresh "
                    "install (or restore a backup instead).", name=other.name))
    else:
        existing = [replace] if _empty(replace) else []
    for other in existing:
        db.session.delete(other)
    db.session.flush()
    if replace is not None and db.session.scalar(select(League.id).where(
            func.lower(League.name) == name.lower())) is not None:
        # (never confirm another league's name to someone who is not in it)
        raise LeagueImportError(gettext("The league in the file cannot have that name here: "
                                        "rename it in the file, or in the install it comes "
                                        "from, and import it again."))
    league = League(name=name,
                    created_at=_parse_time(_field(info, "created_at", str), "created_at"))
    db.session.add(league)
    players: dict[str, Player] = {}
    for p in _field(data, "players", list):
        player = Player(league=league, name=_check_name(
                            _field(p, "name", str), MAX_NAME_LENGTH, gettext("A player's name")),
                        created_at=_parse_time(_field(p, "created_at", str), "created_at"),
                        retired_at=_parse_time(p.get("retired_at"), "retired_at", False))
        if player.name.lower() in {n.lower() for n in players}:
            raise LeagueImportError(gettext("%(name)s is in the file twice.", name=player.name))
        players[player.name] = player
        db.session.add(player)
    for s in _field(data, "seasons", list):
        db.session.add(Season(league=league, name=_check_name(
                                  _field(s, "name", str), MAX_SEASON_NAME,
                                  gettext("A season's name")),
                              starts_on=_parse_date(_field(s, "starts_on", str), "starts_on"),
                              ends_on=_parse_date(_field(s, "ends_on", str), "ends_on"),
                              created_at=_parse_time(_field(s, "created_at", str),
                                                     "created_at")))
    db.session.flush()

    def who(value: Any) -> Player:
        if value not in players:
            raise LeagueImportError(gettext("The file names a player it does not list: "
                                       "%(name)s", name=str(value)[:40]))
        return players[value]

    for index, g in enumerate(_field(data, "games", (list, StreamedGames)), start=1):
        try:
            _check_strings(g)
            stored = _import_game(league, index, g, who)
        except _Placed:
            raise
        except LeagueImportError as exc:
            raise _Placed(gettext("Game %(game)s in the file: %(problem)s", game=index,
                                  problem=str(exc))) from exc
        # stored and checked: let the session forget it (the transaction keeps it), so
        # memory holds one game at a time however many the file has
        db.session.flush()
        for row in stored:
            db.session.expunge(row)
    db.session.flush()
    ensure_seasons(league)
    return league


# --- JSON import: the games, checked as the services check them -----------------------------
# Every hand goes through the referee exactly as recording one does (hands.check_entry:
# card copies, legal melds and lay-offs, who went out) and is stored the way recording
# stores it (hands._store), so its scores, melds' readings and jokers come from the
# cards; the file's own scores must agree with them.


def _check_name(name: str, longest: int, what: str) -> str:
    """A name of the file, checked as the forms check one: one line of printable text, not
    too long (the file's own spelling kept otherwise, so export → import → export agrees)."""
    if has_unwanted(name):
        raise LeagueImportError(gettext(
            "%(what)s in the file holds control characters (such as NUL or a line break): "
            "%(name)s", what=what, name=isolate(repr(name)[:60])))
    if not name.strip() or len(name) > longest:
        raise LeagueImportError(gettext(
            "%(what)s in the file must have from 1 to %(max)s characters: %(name)s",
            what=what, max=longest, name=isolate(name[:60])))
    return name


def _check_strings(data: Any) -> None:
    """No text anywhere in the file holds a NUL or an unpaired surrogate (no database can
    store either): refused in words, before anything is stored."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item or any("\ud800" <= ch <= "\udfff" for ch in item):
                raise LeagueImportError(gettext(
                    "The file holds a NUL character or a broken one (%(text)s): it is not "
                    "a league exported here.", text=repr(item)[:40]))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _field(obj: Any, key: str, kind: type | tuple[type, ...]) -> Any:
    """``obj[key]``, which must be there and of type ``kind`` (a bool is no int)."""
    if not isinstance(obj, dict):
        raise LeagueImportError(gettext(
            "The file is not a complete league export: %(key)s has the wrong type "
            "(%(value)s).", key=key, value=repr(obj)[:40]))
    if key not in obj:
        raise LeagueImportError(gettext(
            "The file is not a complete league export: %(key)s is missing.", key=key))
    value = obj[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise LeagueImportError(gettext(
            "The file is not a complete league export: %(key)s has the wrong type "
            "(%(value)s).", key=key, value=repr(value)[:40]))
    return value


def _game_rules(g: Mapping[str, Any]) -> RuleSet:
    """The game's rule set, built by the referee from the file's family and options."""
    family = _field(g, "family", str)
    spec = dict(_field(g, "rules", dict))
    if family not in FAMILIES:
        raise LeagueImportError(gettext(
            "this version does not know the game %(family)s.", family=family[:40]))
    if spec.get("family", family) != family:
        raise LeagueImportError(gettext(
            "its rules are for %(rules)s, not %(family)s.",
            rules=str(spec.get("family"))[:40], family=family))
    for option in spec:
        if option != "family" and option not in OPTIONS:
            raise LeagueImportError(gettext(
                "this version does not know the house rule %(option)s.", option=option[:40]))
    try:
        return make_rules({**spec, "family": family})
    except RulesError as exc:
        raise LeagueImportError(gettext("Those house rules do not go together: %(why)s",
                                        why=rules_error_text(exc))) from exc


def _import_seats(game: Game, g: Mapping[str, Any], rules: RuleSet,
                  who: Callable[[Any], Player]) -> None:
    seats = sorted(((who(_field(s, "player", str)), _field(s, "position", int),
                     _field(s, "first_dealer", bool)) for s in _field(g, "seats", list)),
                   key=lambda seat: seat[1])
    try:
        rules.check_players(len(seats))
    except RulesError:
        raise LeagueImportError(gettext(
            "%(family)s is played by %(low)s to %(high)s players, not %(count)s.",
            family=family_name(rules.family), low=rules.min_players,
            high=rules.max_players, count=len(seats))) from None
    seen: set[str] = set()
    for player, _position, _first in seats:
        if player.name in seen:
            raise LeagueImportError(gettext("%(name)s is seated twice.", name=player.name))
        seen.add(player.name)
    if [position for _p, position, _f in seats] != list(range(len(seats))):
        raise LeagueImportError(gettext("its seats must be numbered 0 to %(last)s, each once.",
                                        last=len(seats) - 1))
    if sum(1 for _p, _position, first in seats if first) != 1:
        raise LeagueImportError(gettext("exactly one seat must deal the first hand."))
    for player, position, first in seats:
        game.seats.append(Seat(player=player, position=position, first_dealer=first))


def _import_game(league: League, index: int, g: Any, who: Callable[[Any], Player]
                 ) -> list[Game | Change]:
    """One game of the file: its rule set, seats and every hand checked, then stored; the
    game and its changes (for the session to forget once flushed)."""
    rules = _game_rules(g)
    status = _field(g, "status", str)
    if status not in GAME_STATUSES:
        raise LeagueImportError(gettext("Unknown game status: %(status)s", status=status[:20]))
    winner = _field(g, "winner", (str, type(None)))
    # (league_id, not league: the league's list of games would keep every game in memory)
    game = Game(league_id=league.id, family=rules.family, rules_json=rules.as_dict(),
                target=_field(g, "target", int), status=status, number=index,
                winner=who(winner) if winner is not None else None,
                started_at=_parse_time(_field(g, "started_at", str), "started_at"),
                finished_at=_parse_time(_field(g, "finished_at", (str, type(None))),
                                        "finished_at", status == FINISHED))
    _import_seats(game, g, rules, who)
    expected = rules.target_for(len(game.seats))
    if game.target != expected:
        raise LeagueImportError(gettext(
            "its target is %(target)s points, but its rules give %(expected)s.",
            target=game.target, expected=expected))
    names = [s.player.name for s in game.seats]
    if game.winner is not None and game.winner.name not in names:
        raise LeagueImportError(gettext("%(name)s is not seated at this game.",
                                        name=game.winner.name))
    db.session.add(game)
    db.session.flush()  # seat ids, for the hands' cards

    filed = _field(g, "hands", list)
    numbers = sorted(_field(h, "number", int) for h in filed)
    for n, number in enumerate(numbers, start=1):
        if number == n:
            continue
        if number == n - 1:
            raise LeagueImportError(gettext("hand %(number)s is in the file twice.",
                                            number=number))
        raise LeagueImportError(gettext("hand %(number)s is missing.", number=n))
    for h in sorted(filed, key=lambda h: h["number"]):
        try:
            game.hands.append(_import_hand(game, rules, h, who, last=h["number"] == len(filed)))
        except LeagueImportError as exc:
            raise _Placed(gettext("Game %(game)s in the file, hand %(number)s: %(problem)s",
                                  game=index, number=h["number"], problem=str(exc))) from exc
    db.session.flush()
    _check_result(game)
    rows: list[Game | Change] = [game]
    for c in _field(g, "changes", list):
        rows.append(Change(game_id=game.id, hand_number=_field(c, "hand", (int, type(None))),
                           action=_field(c, "action", str),
                           summary=_field(c, "summary", str),
                           details=_details(c.get("details")),
                           device=_field(c, "device", str),
                           player=clean_player_name(_field(c, "player", str))
                           if "player" in c else "",
                           session_key=_field(c, "session", str),
                           at=_parse_time(_field(c, "at", str), "at")))
        db.session.add(rows[-1])
    return rows


def _details(value: Any) -> dict[str, Any] | None:
    """A history entry's details as filed (an object, or nothing; at most 20,000
    characters of JSON, so a file cannot make one entry huge)."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise LeagueImportError(gettext("A history entry's details must be an object."))
    if len(json.dumps(value)) > 20000:
        raise LeagueImportError(gettext("A history entry's details are too long."))
    return value


def _check_result(game: Game) -> None:
    """The file's status and winner must be what the game's hands give."""
    if game.status == ABANDONED:
        return
    verdict = verdict_of(game)
    if verdict.detail.get("finished"):
        winner = game.seats[verdict.detail["winner"]].player
        if game.status != FINISHED or game.winner is not winner:
            raise LeagueImportError(gettext(
                "its hands end the game with %(name)s winning, but the file says otherwise.",
                name=winner.name))
    elif game.status == FINISHED:
        raise LeagueImportError(gettext(
            "the file says the game is finished, but its hands do not finish it."))
    elif game.winner is not None:
        raise LeagueImportError(gettext("a game still being played has no winner yet."))


def _card(c: Any) -> Card:
    text = _field(c, "card", str)
    declared = _field(c, "declared", (str, type(None))) if "declared" in c else None
    try:
        return parse_card(f"{text}={declared}" if declared else text)
    except CardError as exc:
        raise LeagueImportError(say(_card_error(exc))) from exc


def _end(c: Mapping[str, Any], card: Card, layoff: bool) -> str | None:
    """The end of the run an ace was laid off at; an older file has none (the ace lay low,
    as it was scored then)."""
    end = c.get("end")
    if end is None:
        return None
    if end not in RUN_ENDS or not layoff:
        raise LeagueImportError(gettext(
            "%(card)s has an end of a run (%(end)s) that cannot be: only a card laid off "
            "lies at the low or the high end.", card=card.pretty(), end=str(end)[:10]))
    return str(end)


def _import_hand(game: Game, rules: RuleSet, h: Any, who: Callable[[Any], Player],
                 last: bool) -> Hand:
    """One hand, checked by the referee as recording it is, then stored as recording
    stores it (a hand still being played: its melds and lay-offs checked, stored as
    they are)."""
    ids = {s.player.name: s.player_id for s in game.seats}

    def seated(value: Any) -> str:
        name = who(value).name
        if name not in ids:
            raise LeagueImportError(gettext("%(name)s is not seated at this game.", name=name))
        return name

    ending = _field(h, "ending", str)
    if ending not in HAND_ENDINGS:
        raise LeagueImportError(gettext("Unknown hand ending: %(ending)s", ending=ending[:20]))
    out = _field(h, "went_out", (str, type(None)))
    went_out = seated(out) if out is not None else None
    going_rummy = _field(h, "going_rummy", bool)
    complete = _field(h, "complete", bool)
    # a file from before points-only hands has no such field: every hand held its cards
    points_only = _field(h, "points_only", bool) if h.get("points_only") is not None else False
    hand = Hand(number=h["number"], dealer_id=ids[seated(_field(h, "dealer", str))], version=1,
                ending=ending, went_out_id=ids[went_out] if went_out else None,
                going_rummy=going_rummy, complete=complete, points_only=points_only,
                created_at=_parse_time(_field(h, "created_at", str), "created_at"),
                updated_at=_parse_time(_field(h, "updated_at", str), "updated_at"))

    melds: dict[str, list[tuple[str, tuple[Card, ...]]]] = {n: [] for n in ids}
    layoffs: dict[str, list[Layoff]] = {n: [] for n in ids}
    stranded: dict[str, list[Card]] = {n: [] for n in ids}
    rows: list[Meld] = []
    for m in sorted(_field(h, "melds", list), key=lambda m: _field(m, "position", int)):
        owner, label = seated(_field(m, "owner", str)), _field(m, "label", str)
        _check_name(label, MELD_LABEL_LENGTH, gettext("A meld's id"))
        meld = Meld(owner_id=ids[owner], label=label, position=m["position"],
                    kind=_field(m, "kind", str), reading=_field(m, "reading", str))
        own: list[Card] = []
        for c in sorted(_field(m, "cards", list), key=lambda c: _field(c, "position", int)):
            card, by = _card(c), seated(_field(c, "laid_by", str))
            layoff = _field(c, "layoff", bool)
            end = _end(c, card, layoff)
            if layoff:
                layoffs[by].append((card, label) if end is None else (card, label, end))
            else:
                own.append(card)
            meld.cards.append(MeldCard(
                card=str(card.natural), laid_by_id=ids[by], is_layoff=layoff,
                declared=str(card.stands_for) if card.is_joker and card.stands_for else None,
                position=c["position"], end=end))
        melds[owner].append((label, tuple(own)))
        rows.append(meld)
    for c in sorted(_field(h, "stranded", list), key=lambda c: _field(c, "position", int)):
        stranded[seated(_field(c, "player", str))].append(_card(c))
    scores: dict[str, tuple[int, int, int]] = {}
    for s in _field(h, "scores", list):
        name = seated(_field(s, "player", str))
        if name in scores:
            raise LeagueImportError(gettext("%(name)s is in the file twice.", name=name))
        scores[name] = (_field(s, "melded", int), _field(s, "stranded", int),
                        _field(s, "score", int))
    if going_rummy and went_out is None:
        raise LeagueImportError(gettext(
            "Only the player who went out in Basic Rummy can go Rummy."))

    if points_only and (not complete or rows or any(stranded.values())):
        raise LeagueImportError(gettext(
            "a hand kept as points only holds no cards, and is never still being played."))
    if not complete and (not last or game.status != IN_PROGRESS or went_out or going_rummy
                         or scores or any(stranded.values())):
        raise LeagueImportError(gettext(
            "only the last hand of a game in progress can still be being played, and "
            "until it ends nobody has gone out and nothing is scored."))
    players = [PlayerHand(n, tuple(melds[n]), tuple(layoffs[n]), tuple(stranded[n]),
                          going_rummy and n == went_out) for n in ids]
    if not complete:
        _check_live(rules, players)
        hand.melds = rows
        return hand
    points = None
    if points_only:
        points = {n: scores[n][2] for n in ids if n in scores}
        missing = [n for n in ids if n not in scores]
        if missing:
            raise LeagueImportError(gettext("the file has no score for %(name)s.",
                                            name=missing[0]))
    try:
        players, result = check_entry(game, Entry(players, ending, went_out, points=points))
    except HandError as exc:
        raise LeagueImportError(" ".join(_placed(p) for p in exc.problems)) from exc
    for score in result.players:
        given = scores.get(score.name)
        if given is None:
            raise LeagueImportError(gettext("the file has no score for %(name)s.",
                                            name=score.name))
        if given != (score.melded, score.stranded, score.score):
            raise LeagueImportError(gettext(
                "the file scores %(name)s %(given)s (melded %(given_melded)s, stranded "
                "%(given_stranded)s), but the cards give %(score)s (melded %(melded)s, "
                "stranded %(stranded)s).", name=score.name, given=given[2],
                given_melded=given[0], given_stranded=given[1], score=score.score,
                melded=score.melded, stranded=score.stranded))
    _store(hand, game, players, result)
    return hand


def _check_live(rules: RuleSet, players: Sequence[PlayerHand]) -> None:
    """The melds and lay-offs of a hand still being played, checked as the live hand's
    services check each one (hands.live_meld, hands.live_layoff)."""
    problems, owners = check_melds(players, rules)
    everything = [c for p in players for _m, cards in p.melds for c in cards]
    everything += [lay[0] for p in players for lay in p.layoffs]
    too_many = check_copies(everything, rules, len(players))
    if too_many is not None:
        problems.append(Problem(sentence("hand.verdict", verdict=too_many), field="cards"))
    if not problems:
        for p in players:
            for card, onto, _end in p.layoff_ends():
                if onto not in owners:
                    problems.append(Problem(sentence("hand.layoff-off-table", card=card),
                                            p.name, "layoffs"))
    if not problems:
        try:
            build_table(rules, players)
        except ScoringError as exc:
            problems.append(_scoring_problem(exc, players, owners))
    if problems:
        raise LeagueImportError(" ".join(_placed(p) for p in problems))


def _placed(problem: Problem) -> str:
    """A referee problem with the meld or player it is about."""
    if problem.player is None:
        return say(problem.sentence)
    where = (gettext("%(name)s's meld %(number)s", name=isolate(problem.player),
                     number=problem.index + 1)
             if problem.field == "melds" and problem.index is not None else problem.player)
    return gettext("%(where)s: %(problem)s", where=where, problem=say(problem.sentence))
