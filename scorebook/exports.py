"""Exports: a game or a league's results as CSV, and a whole league as JSON that
imports into a fresh install and restores everything.

The JSON names players by name (unique in a league) and never carries database
ids, so export → import → export gives the same file.  Ratings, per-game results
and the scoreboard's cache are not in it: they are rebuilt from what is.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from flask_babel import gettext
from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from scorebook import ratings
from scorebook.extensions import db
from scorebook.games import ENDINGS, complete_hands
from scorebook.league import as_utc, ensure_seasons, prepare, season_of_day
from scorebook.models import (
    GAME_STATUSES,
    HAND_ENDINGS,
    Change,
    Game,
    GameResult,
    Hand,
    HandScore,
    League,
    Meld,
    MeldCard,
    Player,
    Season,
    Seat,
    StrandedCard,
)

FORMAT = "rummy-scorebook/league"
VERSION = 1


class LeagueImportError(ValueError):
    """A league file that cannot be imported; the message says why."""


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
    for hand in complete_hands(game):
        row: list[Any] = [hand.number, by_id.get(hand.dealer_id, ""),
                          str(ENDINGS.get(hand.ending, hand.ending)),
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
    seasons = prepare(league)
    rows: list[list[Any]] = [[
        gettext("Game"), gettext("Finished"), gettext("Season"), gettext("Game type"),
        gettext("Player"), gettext("Seat"), gettext("Total"), gettext("Place"),
        gettext("Won"), gettext("Hands"), gettext("Melded"), gettext("Stranded"),
        gettext("Rating after"),
    ]]
    query = (select(GameResult, Game.family, Seat.position, Player.name)
             .join(Game, Game.id == GameResult.game_id)
             .join(Player, Player.id == GameResult.player_id)
             .join(Seat, (Seat.game_id == GameResult.game_id)
                   & (Seat.player_id == GameResult.player_id))
             .where(GameResult.league_id == league.id)
             .order_by(GameResult.seq, Seat.position))
    for result, family, position, name in db.session.execute(query).tuples():
        finished = as_utc(result.finished_at)
        season = season_of_day(seasons, finished.date())
        rows.append([result.game_id, finished.strftime("%Y-%m-%d %H:%M"),
                     season.name if season else "", family, name, position + 1,
                     result.total, result.position, 1 if result.won else 0, result.hands,
                     result.melded, result.stranded, ratings.display_rating(result.mu)])
    return _csv(rows)


# --- JSON: export ---------------------------------------------------------------------------


def _time(value: datetime | None) -> str | None:
    return as_utc(value).isoformat() if value is not None else None


def export_league(league: League) -> dict[str, Any]:
    """Everything stored about a league, without database ids (its seasons brought
    up to date first)."""
    prepare(league)
    players = list(db.session.scalars(
        select(Player).where(Player.league_id == league.id).order_by(Player.id)))
    name = {p.id: p.name for p in players}
    seasons = db.session.scalars(select(Season).where(Season.league_id == league.id)
                                 .order_by(Season.starts_on, Season.id))
    games = db.session.scalars(
        select(Game).where(Game.league_id == league.id).order_by(Game.id).options(
            selectinload(Game.seats),
            selectinload(Game.hands).selectinload(Hand.melds).selectinload(Meld.cards),
            selectinload(Game.hands).selectinload(Hand.stranded),
            selectinload(Game.hands).selectinload(Hand.scores)))
    changes: dict[int, list[Change]] = {}
    for change in db.session.scalars(
            select(Change).join(Game, Game.id == Change.game_id)
            .where(Game.league_id == league.id).order_by(Change.id)):
        changes.setdefault(change.game_id, []).append(change)
    return {
        "format": FORMAT,
        "version": VERSION,
        "league": {"name": league.name, "created_at": _time(league.created_at)},
        "players": [{"name": p.name, "created_at": _time(p.created_at),
                     "retired_at": _time(p.retired_at)} for p in players],
        "seasons": [{"name": s.name, "starts_on": s.starts_on.isoformat(),
                     "ends_on": s.ends_on.isoformat(), "created_at": _time(s.created_at)}
                    for s in seasons],
        "games": [_export_game(g, name, changes.get(g.id, [])) for g in games],
    }


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
            "created_at": _time(h.created_at),
            "updated_at": _time(h.updated_at),
            "melds": [{
                "owner": name[m.owner_id], "label": m.label, "position": m.position,
                "kind": m.kind, "reading": m.reading,
                "cards": [{"card": c.card, "declared": c.declared,
                           "laid_by": name[c.laid_by_id], "layoff": c.is_layoff,
                           "position": c.position} for c in m.cards],
            } for m in h.melds],
            "stranded": [{"player": name[c.player_id], "card": c.card,
                          "position": c.position}
                         for c in sorted(h.stranded, key=lambda c: c.id)],
            "scores": [{"player": name[s.player_id], "melded": s.melded,
                        "stranded": s.stranded, "score": s.score}
                       for s in sorted(h.scores, key=lambda s: s.id)],
        } for h in game.hands],
        "changes": [{"hand": c.hand_number, "action": c.action, "summary": c.summary,
                     "device": c.device, "session": c.session_key, "at": _time(c.at)}
                    for c in changes],
    }


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


def import_league(data: Any, replace: League | None = None) -> League:
    """Restore a league from :func:`export_league`'s dictionary, in one transaction.

    From the command line (``replace`` None) the install must not already hold a
    league with anything in it (an empty one, like the default league of a fresh
    install, is replaced).  From the web, ``replace`` is the importer's open league:
    it is replaced if it is empty, and no other league is looked at or touched
    (leagues are private); the imported league's name must be free."""
    try:
        league = _import(data, replace)
        ratings.rebuild(league.id)
        db.session.commit()
    except LeagueImportError:
        db.session.rollback()
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        db.session.rollback()
        raise LeagueImportError(gettext("The file is not a complete league export (%(what)s).",
                                   what=f"{type(exc).__name__}: {exc}"[:120])) from exc
    return league


def _import(data: Any, replace: League | None = None) -> League:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LeagueImportError(gettext("This is not a Rummy Scorebook league export."))
    if data.get("version") != VERSION:
        raise LeagueImportError(gettext("This export's version (%(version)s) cannot be read here.",
                                   version=str(data.get("version"))[:20]))
    info = data["league"]
    name = str(info["name"]).strip()
    if not name:
        raise LeagueImportError(gettext("The league in the file has no name."))
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
        raise LeagueImportError(gettext("This install already keeps a league called "
                                        "%(name)s.", name=name))
    league = League(name=name, created_at=_parse_time(info["created_at"], "created_at"))
    db.session.add(league)
    players: dict[str, Player] = {}
    for p in data["players"]:
        player = Player(league=league, name=str(p["name"]),
                        created_at=_parse_time(p["created_at"], "created_at"),
                        retired_at=_parse_time(p.get("retired_at"), "retired_at", False))
        if player.name.lower() in {n.lower() for n in players}:
            raise LeagueImportError(gettext("%(name)s is in the file twice.", name=player.name))
        players[player.name] = player
        db.session.add(player)
    for s in data["seasons"]:
        db.session.add(Season(league=league, name=str(s["name"]),
                              starts_on=_parse_date(s["starts_on"], "starts_on"),
                              ends_on=_parse_date(s["ends_on"], "ends_on"),
                              created_at=_parse_time(s["created_at"], "created_at")))
    db.session.flush()

    def who(value: Any) -> Player:
        if value not in players:
            raise LeagueImportError(gettext("The file names a player it does not list: "
                                       "%(name)s", name=str(value)[:40]))
        return players[value]

    for g in data["games"]:
        if g["status"] not in GAME_STATUSES:
            raise LeagueImportError(gettext("Unknown game status: %(status)s",
                                       status=str(g["status"])[:20]))
        game = Game(league=league, family=str(g["family"]), rules_json=dict(g["rules"]),
                    target=int(g["target"]), status=g["status"],
                    winner=who(g["winner"]) if g["winner"] is not None else None,
                    started_at=_parse_time(g["started_at"], "started_at"),
                    finished_at=_parse_time(g["finished_at"], "finished_at", False))
        game.rules  # noqa: B018  (refuses a rule set this version does not know)
        for s in g["seats"]:
            game.seats.append(Seat(player=who(s["player"]), position=int(s["position"]),
                                   first_dealer=bool(s["first_dealer"])))
        for h in g["hands"]:
            if h["ending"] not in HAND_ENDINGS:
                raise LeagueImportError(gettext("Unknown hand ending: %(ending)s",
                                           ending=str(h["ending"])[:20]))
            hand = Hand(number=int(h["number"]), dealer=who(h["dealer"]), ending=h["ending"],
                        went_out=who(h["went_out"]) if h["went_out"] is not None else None,
                        going_rummy=bool(h["going_rummy"]), complete=bool(h["complete"]),
                        created_at=_parse_time(h["created_at"], "created_at"),
                        updated_at=_parse_time(h["updated_at"], "updated_at"))
            for m in h["melds"]:
                meld = Meld(owner=who(m["owner"]), label=str(m["label"]),
                            position=int(m["position"]), kind=str(m["kind"]),
                            reading=str(m["reading"]))
                for c in m["cards"]:
                    meld.cards.append(MeldCard(card=str(c["card"]), declared=c["declared"],
                                               laid_by=who(c["laid_by"]),
                                               is_layoff=bool(c["layoff"]),
                                               position=int(c["position"])))
                hand.melds.append(meld)
            for c in h["stranded"]:
                hand.stranded.append(StrandedCard(player=who(c["player"]), card=str(c["card"]),
                                                  position=int(c["position"])))
            for s in h["scores"]:
                hand.scores.append(HandScore(player=who(s["player"]), melded=int(s["melded"]),
                                             stranded=int(s["stranded"]),
                                             score=int(s["score"])))
            game.hands.append(hand)
        db.session.add(game)
        db.session.flush()
        for c in g["changes"]:
            db.session.add(Change(game_id=game.id, hand_number=c["hand"], action=str(c["action"]),
                                  summary=str(c["summary"]), device=str(c["device"]),
                                  session_key=str(c["session"]),
                                  at=_parse_time(c["at"], "at")))
    db.session.flush()
    ensure_seasons(league, commit=False)
    return league
