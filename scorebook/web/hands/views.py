"""Hands: record one at the end (card picker or typed cards), see, edit or delete
any hand, and record a hand live, meld by meld, as it is played."""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Any, NoReturn

from flask import (
    Blueprint,
    abort,
    after_this_request,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from flask_wtf import FlaskForm
from sqlalchemy import inspect, select
from werkzeug.wrappers import Response
from wtforms import Form

from referee import CardError, parse_card, parse_cards
from scorebook.extensions import db
from scorebook.models import (
    DRAW,
    FINISHED,
    IN_PROGRESS,
    RUN_ENDS,
    STOCK_OUT,
    WENT_OUT,
    Game,
    Hand,
)
from scorebook.plain_text import MAX_POINTS, db_int
from scorebook.presenters.bidi import bdi, html, isolate
from scorebook.presenters.cards import (
    card_label,
    card_notation,
    letter_notes,
    not_a_card,
    picker_texts,
)
from scorebook.presenters.sentences import say, say_all
from scorebook.presenters.sentences.hands import end_names, end_word, end_words, scores_text
from scorebook.presenters.table_log import shown_answers, shown_steps
from scorebook.presenters.wording import family_name, meld_name, meld_phrase
from scorebook.services import access
from scorebook.services.entry import (
    Entry,
    HandError,
    Problem,
    entry_difference,
    entry_from_json,
    entry_from_points,
    entry_from_text,
    entry_json,
    entry_texts,
    held_points_text,
    stored_players,
    stored_points,
)
from scorebook.services.errors import sentence
from scorebook.services.games import (
    live_hand,
    next_dealer_position,
    next_hand_number,
    rematch_of,
)
from scorebook.services.hands import (
    HandConflict,
    SentHandDeleted,
    cancel_live,
    check_stale,
    delete_hand,
    edit_hand,
    finish_live,
    hand_scores,
    last_live_card,
    live_layoff,
    live_meld,
    live_moves,
    live_undo,
    missing_cards,
    record_hand,
    send_key,
    sent_before,
    start_live,
)
from scorebook.services.played import hand_log, has_log
from scorebook.web import Page
from scorebook.web.games.forms import VersionForm, choices
from scorebook.web.games.undo import undo_offer
from scorebook.web.games.views import get_game
from scorebook.web.hands.forms import (
    END_CHOICES,
    HandForm,
    LiveCancelForm,
    LiveFinishForm,
    LiveLayoffForm,
    LiveMeldForm,
    LiveUndoForm,
    PlayerCardsForm,
    StrandedForm,
    outcome_choices,
    signed_points,
)

bp = Blueprint("hands", __name__)
# {{ problem.sentence|say }}: a refused hand's problems, worded in the page's language
bp.add_app_template_filter(say, "say")

#: One move on the live hand: (game, its live hand, the validated form) -> the address to
#: go to once it is stored, or None for the live page again; raises HandError if refused.
LiveMove = Callable[[Game, Hand, Any], str | None]

#: The live finish form's boxes "nobody remembers the rest of their cards" (RULES.md §10).
FINISH_MISSING = "finish-missing_ok"


def hand_at(game: Game, number: int) -> Hand | None:
    """The complete hand numbered ``number`` now, if any."""
    return db.session.scalar(db.select(Hand).where(
        Hand.game_id == game.id, Hand.number == number, Hand.complete.is_(True)))


def get_hand(game: Game, number: int) -> Hand:
    hand = hand_at(game, number)
    if hand is None:
        abort(404)
    return hand


def draft_key(game: Game, kind: str, which: int | str) -> str:
    """The key the page's script keeps a draft under (``static/js/drafts.js``)."""
    return f"{kind}|{game.id}|{which}"


def draft_saved(key: str) -> None:
    """Tell the next page that the draft ``key`` is stored now: its script removes it."""
    flash(key, "draft-saved")


def _int(value: str | None) -> int | None:
    """A whole number from a form (an id, a version, a count), or None: empty, not a
    number, or past what a database column holds."""
    return db_int(value) if value not in (None, "") else None


def board_after(game: Game, number: int) -> str:
    """The scoreboard once hand ``number`` is stored: at the hand's row, or — when the
    hand ended the game — at its top, where the winner is named (the row would scroll
    "★ Carmen wins!" off the screen)."""
    game_id, status = _id_and_status(game)
    if status == FINISHED:
        return url_for("games.show", game_id=game_id)
    return url_for("games.show", game_id=game_id, _anchor=f"hand-{number}")


def _id_and_status(game: Game) -> tuple[int, str]:
    """The game's id and status.  After the write's commit (the game expired) the one
    column is read: refreshing the game would load it again with its seats and their
    players (the options it was loaded with), three queries for a redirect (issue 28)."""
    state = inspect(game)
    if state.identity is not None and "status" not in state.dict:
        game_id = int(state.identity[0])
        status = db.session.scalar(select(Game.status).where(Game.id == game_id))
        if status is not None:
            return game_id, status
    return game.id, game.status


def warn_if_reopened(game: Game, was_finished: bool) -> None:
    """A change that takes a finished game back below its target puts it back in play:
    say so, and when its next game has started meanwhile, that two are now in play."""
    if not was_finished or game.status != IN_PROGRESS:
        return
    next_number = _rematch_number(game)
    if next_number is not None:
        flash(gettext("Game %(game)s is in play again: after this change nobody has "
                      "reached %(target)s. Game %(next)s, started as its rematch, is in "
                      "play too: finish one of them, or change the hand back.",
                      game=game.number, target=game.target, next=next_number), "warning")
    else:
        flash(gettext("Game %(game)s is in play again: after this change nobody has "
                      "reached %(target)s.", game=game.number, target=game.target),
              "warning")


def wants_json() -> bool:
    """The page's script sends a live move with ``Accept: application/json``."""
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json" and request.accept_mimetypes[best] > \
        request.accept_mimetypes["text/html"]


def names_of(game: Game) -> list[str]:
    return [s.player.name for s in game.seats]


def ids_of(game: Game) -> dict[str, int]:
    return {s.player.name: s.player_id for s in game.seats}


def outcome_of(hand: Hand) -> str:
    if hand.ending != WENT_OUT:
        return hand.ending
    position = next((s.position for s in hand.game.seats if s.player_id == hand.went_out_id), 0)
    return f"p{position}"


def parse_outcome(value: str | None, names: list[str]) -> tuple[str, str | None] | None:
    """``(ending, went_out)`` from the outcome radio, or None when nothing was chosen."""
    if value in (STOCK_OUT, DRAW):
        return value, None
    seat = db_int(value[1:]) if value and value.startswith("p") else None
    if seat is not None and seat < len(names):
        return WENT_OUT, names[seat]
    return None


def read_entry(form: HandForm, game: Game) -> Entry:
    """The submitted hand: the picker's JSON if the script wrote it, else the typed text.
    The outcome radio and the going-Rummy box decide how it ended; nothing chosen there
    leaves the ending unsaid, and the one check of a hand (:func:`check_entry`, the same
    for both ways in and for the API) refuses it."""
    names = names_of(game)
    basic = game.rules.is_basic
    outcome = parse_outcome(form.outcome.data, names)
    raw = (form.hand_json.data or "").strip()
    if form.points_only.data == "1":  # each player's points, typed: no cards at all
        ending, went_out = outcome if outcome else (None, None)
        points = {name: signed_points(sub.points.data, sub.sign.data)
                  for name, sub in zip(names, player_forms(form, game))}
        return entry_from_points(names, points, went_out, ending, bool(form.going_rummy.data),
                                 basic)
    if raw:
        try:
            obj = json.loads(raw)
        except ValueError:
            raise HandError(sentence("hand.unreadable"), "bad-json") from None
        if isinstance(obj, dict):  # the radio decides, never the script's own guess
            obj = {**obj, "ending": outcome[0] if outcome else None,
                   "went_out": outcome[1] if outcome else None}
        # the picker's cards are tapped in any order: no joker is read from its place
        entry = entry_from_json(obj, basic, loose=True)
    else:
        texts = {name: {"melds": sub.melds.data or "", "layoffs": sub.layoffs.data or "",
                        "hand": sub.hand.data or "", "held": sub.held.data or ""}
                 for name, sub in zip(names, player_forms(form, game))}
        ending, went_out = outcome if outcome else (None, None)
        # typed in the letters of the page the form was shown on (its notation field)
        entry = entry_from_text(names, texts, went_out, ending, False, basic, end_words(),
                                card_notation(request.form.get("notation")))
    if form.going_rummy.data:
        entry.players = [replace(p, going_rummy=p.name == entry.went_out)
                         for p in entry.players]
    entry.missing_ok = missing_ok(names)
    return entry


def missing_ok(names: list[str], field: str = "missing_ok") -> frozenset[str]:
    """The players whose missing cards the family said it does not remember (RULES.md §10
    "Fewer cards than dealt"): the boxes ticked in the form's ``field``."""
    return frozenset(n for n in request.form.getlist(field) if n in names)


def missing_question(names: list[str], error: HandError | None, field: str = "missing_ok",
                     stored: Hand | None = None) -> tuple[list[str], set[str]]:
    """Whom a form asks "nobody remembers the rest of their cards?" (§10), and whose box is
    ticked: the players a refused hand is short of cards for, the boxes the form came
    with, and (an edit opened) the players the stored hand marks."""
    ticked = set(missing_ok(names, field)) if request.method == "POST" else set()
    if stored is not None and request.method == "GET":
        ticked |= {s.player.name for s in stored.scores if s.cards_missing}
    asked = set(ticked)
    if error is not None and error.code == "fewer-than-dealt":
        asked |= {p.player for p in error.problems if p.player}
    return [n for n in names if n in asked], ticked


def player_forms(form: FlaskForm, game: Game, cls: type[Form] = PlayerCardsForm,
                 prefix: str = "players") -> list[Any]:
    """One sub-form per seat (``players-0-melds`` …), made once per form."""
    made = getattr(form, "_seat_forms", None)
    if made is None:
        formdata = request.form if form.is_submitted() else None
        made = [cls(formdata, prefix=f"{prefix}-{i}") for i in range(len(game.seats))]
        form._seat_forms = made  # type: ignore[attr-defined]
    return made


def points_mode(hand: Hand | None = None) -> bool:
    """Whether the record page asks for points instead of cards: a form sent in points
    mode; else ``?points=1``, or an edit of a points-only hand (``?points=0``: its cards)."""
    if request.method == "POST":
        return request.form.get("points_only") == "1"
    wanted = request.args.get("points")
    if wanted in ("0", "1"):
        return wanted == "1"
    return bool(hand is not None and hand.points_only)


def hand_form(game: Game, hand: Hand | None = None) -> HandForm:
    form = HandForm()
    names = names_of(game)
    form.outcome.choices = outcome_choices(names, game.rules.is_basic)
    seats = player_forms(form, game)
    if not form.is_submitted():
        form.points_only.data = "1" if points_mode(hand) else ""
    if hand is not None and not form.is_submitted():
        scores = {s.player_id: s.score for s in hand.scores}
        for name, sub in zip(names, seats):  # a card hand turned into points starts at its
            score = scores.get(ids_of(game)[name], 0)  # scores, the sign apart
            sub.points.data = str(abs(score))
            sub.sign.data = "-" if score < 0 else "+"
        players = stored_players(hand, names, ids_of(game))
        went_out = next((n for n, i in ids_of(game).items() if i == hand.went_out_id), None)
        # for the picker's script only: a page without JavaScript submits its typed
        # fields, which the server reads when hand_json comes back empty (a points-only
        # hand has no cards to load: the picker starts empty)
        if not hand.points_only:
            form.initial_json = json.dumps(entry_json(players, went_out, hand.ending))
        texts = entry_texts(players, end_names())
        held = {p.name: p.held_points for p in players}
        for name, sub in zip(names, seats):
            sub.melds.data = texts[name]["melds"]
            sub.layoffs.data = texts[name]["layoffs"]
            sub.hand.data = texts[name]["hand"]
            sub.held.data = str(held[name]) if held.get(name) is not None else ""
        form.outcome.data = outcome_of(hand)
        form.going_rummy.data = hand.going_rummy
        form.version.data = str(hand.version)
        form.number.data = str(hand.number)
        form.hand_id.data = str(hand.id)
    return form


def read_back(form: HandForm, game: Game) -> dict[str, dict[str, list[Any]]]:
    """The typed cards of each player as the server reads them, line by line, for the
    page without JavaScript to show before anything is saved ("Check the cards"): each
    line's cards (with their suits), or why a token is not a card; and what a letter
    means here when another language reads it otherwise."""
    notation = card_notation(request.form.get("notation"))
    notes = letter_notes(notation)
    out: dict[str, dict[str, list[Any]]] = {}
    for name, sub in zip(names_of(game), player_forms(form, game)):
        fields: dict[str, list[Any]] = {}
        used: set[str] = set()
        for field, text in (("melds", sub.melds.data), ("layoffs", sub.layoffs.data),
                            ("hand", sub.hand.data)):
            lines = [ln for ln in (text or "").splitlines() if ln.strip()]
            if field == "hand":
                lines = [" ".join(lines)] if lines else []
            read = []
            for line in lines:
                tokens = line.split()
                cards_part = tokens[:1] if field == "layoffs" else tokens
                rest = " ".join(tokens[1:]) if field == "layoffs" else ""
                try:
                    cards = parse_cards(" ".join(cards_part), notation)
                except CardError as exc:
                    read.append({"error": not_a_card(exc.token, notation)})
                    continue
                used |= {t.strip().upper()[-1:] for t in cards_part}
                used |= {t.strip().upper()[:1] for t in cards_part}
                read.append({"cards": cards, "rest": rest})
            fields[field] = read
        # what a letter the player's cards use means here, once
        fields["notes"] = [notes[k] for k in sorted(used) if k in notes]
        out[name] = fields
    return out


def wants_check(form: HandForm) -> bool:
    """"Check the cards" (the page without JavaScript): read the typed cards back, save
    nothing."""
    return bool(request.form.get("check")) and not (form.hand_json.data or "").strip() \
        and form.points_only.data != "1"


def _rematch_number(game: Game) -> int | None:
    """The number of the game started to play ``game`` again, if any."""
    again = rematch_of(game)
    return db.session.scalar(db.select(Game.number).where(Game.id == again)) \
        if again is not None else None


def _next_game(game: Game) -> int | None:
    """The number of the game started to play this finished one again, if any: a change
    to one of its hands may put it back in play beside that one."""
    return _rematch_number(game) if game.status == FINISHED else None


def render_record(game: Game, form: HandForm, number: int, hand: Hand | None = None,
                  error: HandError | None = None, status: int = 200,
                  checked: dict[str, dict[str, list[Any]]] | None = None) -> Page:
    rules = game.rules
    names = names_of(game)
    dealer = (names[next((s.position for s in game.seats if s.player_id == hand.dealer_id), 0)]
              if hand else names[next_dealer_position(game)])
    if form.is_submitted() and form.hand_json.data:
        # a form sent back with its problems: the script loads what it sent
        form.initial_json = form.hand_json.data
        form.hand_json.data = ""
    points = form.points_only.data == "1"
    asked, ticked = missing_question(names, error, stored=hand) if not points else ([], set())
    if hand is not None:
        switch = url_for("hands.edit", game_id=game.id, number=number,
                         points="0" if points else "1")
    else:
        switch = url_for("hands.new", game_id=game.id, **({} if points else {"points": "1"}))
    page = render_template(
        "hands/record.html", game=game, form=form, number=number, hand=hand, names=names,
        points_mode=points, switch_url=switch, max_points=MAX_POINTS,
        seat_forms=player_forms(form, game),
        draft=draft_key(game, "edit", hand.id) if hand else draft_key(game, "record", number),
        resent=form.is_submitted(),
        dealer=dealer, error=error, family=family_name(game.family), basic=rules.is_basic,
        rules_json=game.rules_text, decks=rules.decks(len(names)),
        jokers=rules.jokers_in_play(len(names)), texts=picker_texts(),
        high_word=end_word("high"), checked=checked,
        notation=card_notation(request.form.get("notation")).language,
        missing_asked=asked, missing_ticked=ticked, dealt=rules.cards_dealt(len(names)),
        next_game=_next_game(game) if hand else None)
    return (page, status) if status != 200 else page


def render_conflict(game: Game, conflict: HandConflict, kept: str | None = None,
                    entry: Entry | None = None) -> tuple[str, int]:
    """The 409 page: what happened, and the hand as it is now — with, when the refused
    form's ``entry`` is known, how it differs from the hand stored.  ``kept`` names the
    draft the refused form was kept in (its page can restore it)."""
    db.session.expire_all()
    game = get_game(game.id)
    stored = db.session.get(Hand, conflict.hand_id) if conflict.hand_id else None
    if stored is not None and stored.game_id != game.id:
        stored = None
    common = {"game": game, "message": say_all(conflict.sentences), "code": conflict.code,
              "renumbered": conflict.renumbered, "kept": kept}
    if stored is not None and not stored.complete:
        return render_template("hands/conflict.html", hand=None, live=stored, **common), 409
    difference = None
    if stored is not None and entry is not None:
        names, ids = names_of(game), ids_of(game)
        went_out = next((n for n, i in ids.items() if i == stored.went_out_id), None)
        difference = entry_difference(stored_players(stored, names, ids),
                                      stored_points(stored, ids),
                                      (stored.ending, went_out), entry)
    return render_template("hands/conflict.html", hand=stored, live=None, **common,
                           difference=difference,
                           **(hand_details(game, stored) if stored else {})), 409


def hand_details(game: Game, hand: Hand) -> dict[str, Any]:
    """Everything the hand page shows: melds with who laid each card, stranded cards, scores."""
    seats = {s.player_id: s.player.name for s in game.seats}
    melds_by_label = {m.label: m for m in hand.melds}
    index = {}
    for pid in seats:
        for k, m in enumerate(m for m in hand.melds if m.owner_id == pid):
            index[m.label] = k + 1
    missing = {name: (count, dealt) for name, count, dealt in missing_cards(game, hand)}
    players = []
    for seat in game.seats:
        pid = seat.player_id
        score = hand.score_of(pid)
        players.append({
            # RULES.md §10: fewer cards than dealt, and nobody remembered the rest
            "missing": missing.get(seat.player.name),
            "name": seat.player.name,
            "melds": [(index[m.label], m) for m in hand.melds if m.owner_id == pid],
            "layoffs": [(c, seats[melds_by_label[m.label].owner_id], index[m.label],
                         melds_by_label[m.label].owner_id == pid)
                        for m in hand.melds for c in m.cards
                        if c.is_layoff and c.laid_by_id == pid],
            "stranded": [s.card for s in hand.stranded if s.player_id == pid],
            # the points of a hand whose cards nobody remembered (issue 27)
            "held": score.held_points if score is not None else None,
            "score": score,
            "went_out": hand.went_out_id == pid,
        })
    return {"players": players, "seats": seats}


# --- the answers to a hand sent by the offline queue -------------------------------------
# static/js/outbox.js sends a hand kept on the phone with ``Accept: application/json``
# (the form's own fields, its key among them): the answer is JSON, never a page, so the
# page that sends it can say "sent" with a link, or show why it was refused and keep the
# entries as a draft.


def sent_answer(game: Game, hand: Hand, key: str, message: str) -> Response:
    """A hand stored (now, or by the same send before): where it is."""
    return jsonify({"ok": True, "draft": key, "message": message, "number": hand.number,
                    "url": url_for("hands.show", game_id=game.id, number=hand.number),
                    "game_url": board_after(game, hand.number)})


def refused_answer(game: Game, error: HandError, key: str) -> tuple[Response, int]:
    """A hand the server did not store, and why (a conflict links the hand it met)."""
    body: dict[str, Any] = {"ok": False, "draft": key, "code": error.code,
                            "message": say_all(error.sentences),
                            "problems": _problems_json(error),
                            "url": None}
    status = error.status
    if isinstance(error, HandConflict):
        status = 409
        stored = db.session.get(Hand, error.hand_id) if error.hand_id else None
        if stored is not None and stored.game_id == game.id and stored.complete:
            body["url"] = url_for("hands.show", game_id=game.id, number=stored.number)
            body["number"] = stored.number
        elif stored is not None and stored.game_id == game.id:
            body["url"] = url_for("hands.live", game_id=game.id)
    return jsonify(body), status


# --- recording at the end of a hand -------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
@access.requires(access.SCORER)  # the form is only for recording: a viewer gets the 403 first
def new(game_id: int) -> Page:
    game = get_game(game_id)
    form = hand_form(game)
    number = next_hand_number(game)
    if not form.is_submitted():
        if not game.is_open:
            flash(gettext("This game is over: no more hands can be recorded."))
            return redirect(url_for("games.show", game_id=game.id))
        if live_hand(game) is not None:
            return redirect(url_for("hands.live", game_id=game.id))
        form.number.data = str(number)
        return render_record(game, form, number)
    if not form.validate():
        abort(400)
    if wants_check(form):
        return render_record(game, form, number, checked=read_back(form, game))
    try:
        submitted = int(form.number.data or number)
    except ValueError:
        submitted = number
    kept = draft_key(game, "record", submitted)
    entry: Entry | None = None
    try:
        key = send_key(form.client_key.data)
        entry = read_entry(form, game)
        hand = record_hand(game, entry, submitted, key=key)
    except HandConflict as conflict:
        if wants_json():
            return refused_answer(game, conflict, kept)
        return render_conflict(game, conflict, kept=kept, entry=entry)
    except HandError as error:
        if wants_json():
            return refused_answer(game, error, kept)
        fresh_key_if_deleted(form, error)
        return render_record(game, form, number, error=error, status=error.status)
    return stored_answer(game, hand, kept, gettext("Hand %(number)s saved.",
                                                   number=hand.number))


def fresh_key_if_deleted(form: HandForm, error: HandError) -> None:
    """The hand this form's send stored was deleted since on another phone: the form
    shown again takes a new key, so that saving it once more, on purpose, stores it."""
    if isinstance(error, SentHandDeleted):
        form.client_key.data = secrets.token_urlsafe(24)


@bp.get("/<int:number>")
def show(game_id: int, number: int) -> str:
    game = get_game(game_id)
    hand = get_hand(game, number)
    return render_template("hands/show.html", game=game, hand=hand,
                           delete_form=VersionForm(version=str(hand.version),
                                                   hand_id=str(hand.id)),
                           logged=has_log(hand), **hand_details(game, hand))


def _no_log() -> NoReturn:
    """404 for a hand with no log (or no live hand): past the access checks, and said so
    in a header (``X-Scorebook-Missing: log``) for programs and the access tests."""

    @after_this_request
    def say(response: Response) -> Response:
        response.headers["X-Scorebook-Missing"] = "log"
        return response

    abort(404)


def render_replay(game: Game, hand: Hand | None) -> str:
    """The replay page of a hand the table logged turn by turn (issue 29): the deal, each
    move with the pile after it, and the answers the log gives; 404 without a log."""
    walk = hand_log(game, hand) if hand is not None else None
    if walk is None:
        _no_log()
    return render_template(
        "hands/replay.html", game=game, hand=hand, walk=walk,
        dealer=walk.name(walk.dealer), upcard=walk.deal.upcard,
        dealt=walk.deal.cards_dealt, steps=shown_steps(walk, game.family),
        answers=shown_answers(walk, game.family),
        held=[(walk.name(seat), count) for seat, count in enumerate(walk.held)],
        to_play=None if walk.over else walk.name(
            walk.top_call.caller if walk.top_call else walk.to_play))


@bp.get("/<int:number>/log")
def replay(game_id: int, number: int) -> str:
    game = get_game(game_id)
    return render_replay(game, get_hand(game, number))


@bp.get("/live/log")
def live_replay(game_id: int) -> str:
    game = get_game(game_id)
    return render_replay(game, live_hand(game))


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
@access.requires(access.SCORER)
def edit(game_id: int, number: int) -> Page:
    game = get_game(game_id)
    if request.method == "GET":
        hand = get_hand(game, number)
        return render_record(game, hand_form(game, hand), number, hand)
    hand = hand_at(game, number)
    form = HandForm()
    if not form.validate():
        abort(400)
    if wants_check(form) and hand is not None:
        form = hand_form(game, hand)
        return render_record(game, form, number, hand, checked=read_back(form, game))
    hand_id, version = _int(form.hand_id.data), _int(form.version.data)
    if hand is None and hand_id is None:
        abort(404)
    if version is None:
        abort(400, description=gettext("This form does not say which version of the hand "
                                       "it changes; open the hand again."))
    kept = draft_key(game, "edit", hand_id if hand_id is not None else number)
    was_finished = game.status == FINISHED
    try:
        key = send_key(form.client_key.data)
    except HandError as error:
        abort(400, description=say_all(error.sentences))
    try:
        done = sent_before(game.id, key, "edit")
        if done is None:  # else: this very change, sent again after its answer was lost
            # a form for a hand that was deleted or moved since: 409, whatever was typed
            hand = check_stale(game, number, hand, hand_id, version)
            form = hand_form(game, hand)
            entry = read_entry(form, game)
            done = edit_hand(hand, entry, version, hand_id, key=key)
    except HandConflict as conflict:
        try:
            done = sent_before(game.id, key, "edit")  # the same change, sent twice at once
        except SentHandDeleted as gone:
            return deleted_answer(game, gone, kept)
        if done is not None:
            return edited_answer(game, done, kept)
        if wants_json():
            return refused_answer(game, conflict, kept)
        return render_conflict(game, conflict, kept=kept)
    except SentHandDeleted as gone:
        return deleted_answer(game, gone, kept)
    except HandError as error:
        if wants_json():
            return refused_answer(game, error, kept)
        return render_record(game, form, number, hand, error=error, status=error.status)
    warn_if_reopened(game, was_finished)
    return edited_answer(game, done, kept)


def deleted_answer(game: Game, gone: SentHandDeleted, kept: str) -> Page:
    """A change sent again whose hand another phone deleted since: not made again."""
    if wants_json():
        return refused_answer(game, gone, kept)
    page, _status = render_conflict(game, HandConflict(gone.problems[0].sentence, None,
                                                       gone.code), kept=kept)
    return page, gone.status


def edited_answer(game: Game, hand: Hand, kept: str) -> Response:
    return stored_answer(game, hand, kept, gettext("Hand %(number)s changed.",
                                                   number=hand.number))


def stored_answer(game: Game, hand: Hand, kept: str, message: str) -> Response:
    """A hand stored (recorded or changed): JSON for the offline queue, else the
    scoreboard at the hand, with ``message`` flashed and the form's draft cleared."""
    if wants_json():
        return sent_answer(game, hand, kept, message)
    draft_saved(kept)
    flash(message)
    return redirect(board_after(game, hand.number))


@bp.post("/<int:number>/delete")
def delete(game_id: int, number: int) -> Page:
    game = get_game(game_id)
    form = VersionForm()
    if not form.validate_on_submit():
        abort(400)
    version = _int(form.version.data)
    if version is None:
        abort(400, description=gettext("This form does not say which version of the hand "
                                       "it would delete; open the hand again."))
    was_finished = game.status == FINISHED
    try:
        delete_hand(check_stale(game, number, hand_at(game, number),
                                _int(form.hand_id.data), version),
                    version, _int(form.hand_id.data))
    except HandConflict as conflict:
        return render_conflict(game, conflict)
    except HandError:
        abort(404)
    flash(gettext("Hand %(number)s deleted; the later hands moved up.", number=number))
    warn_if_reopened(game, was_finished)
    return redirect(url_for("games.show", game_id=game.id))


# --- the live hand ------------------------------------------------------------------------
# Each form posts on its own (meld, lay-off, take back, finish, cancel).  Without
# JavaScript the answer is the page again (a refused move shown inside its own form,
# which the form's #fragment scrolls to); the page's script sends the same form with
# ``Accept: application/json`` and gets JSON, so a refused move never leaves its form.


def live_forms(game: Game, hand: Hand | None) -> dict[str, Any]:
    names = names_of(game)
    players = choices(*[(f"p{i}", bdi(n)) for i, n in enumerate(names)])
    meld_form = LiveMeldForm(prefix="meld")
    meld_form.player.choices = players
    layoff_form = LiveLayoffForm(prefix="layoff")
    layoff_form.player.choices = players
    finish_form = LiveFinishForm(prefix="finish")
    finish_form.outcome.choices = outcome_choices(names, game.rules.is_basic)
    undo_form = LiveUndoForm(prefix="undo")
    cancel_form = LiveCancelForm(prefix="cancel")
    melds = []
    if hand is not None:
        index: dict[int, int] = {}
        for m in hand.melds:
            index[m.owner_id] = index.get(m.owner_id, 0) + 1
            owner = next(s.player.name for s in game.seats if s.player_id == m.owner_id)
            melds.append((m, owner, index[m.owner_id]))
        layoff_form.onto.choices = choices(*[
            (m.label, html(gettext("%(name)s's meld %(number)s"), name=bdi(owner), number=k))
            for m, owner, k in melds])
        for form in (meld_form, layoff_form, finish_form, undo_form):
            if not form.is_submitted():
                form.version.data = str(hand.version)
        last = last_live_card(hand)
        undo_form.move.data = str(last.id) if last is not None else ""
        cancel_form.moves.data = str(live_moves(hand))
    return {"meld_form": meld_form, "layoff_form": layoff_form, "finish_form": finish_form,
            "stranded_forms": player_forms(finish_form, game, StrandedForm, "finish-players"),
            "undo_form": undo_form, "cancel_form": cancel_form,
            "moves": live_moves(hand) if hand is not None else 0,
            "start_form": VersionForm(prefix="start"), "melds": melds}


def last_move(hand: Hand | None, game: Game) -> str | None:
    """What "take back" would undo, in words: a lay-off, or a whole meld."""
    last = last_live_card(hand) if hand is not None else None
    if last is None:
        return None
    names = {s.player_id: s.player.name for s in game.seats}
    if last.is_layoff:
        return gettext("%(name)s's %(card)s laid off %(on_meld)s",
                       name=isolate(names[last.laid_by_id]),
                       card=card_label(parse_card(last.text)),
                       on_meld=meld_phrase(None, None, last.meld.label))
    return meld_name(last.meld.label)


def followed_hand(game: Game, live: Hand | None) -> dict[str, Any] | None:
    """The live hand this page was following (``?following=<hand id>``), when it has
    ended on another phone since: how it ended, for the page to say so."""
    following = _int(request.args.get("following"))
    if following is None or (live is not None and live.id == following):
        return None
    hand = db.session.get(Hand, following)
    if hand is not None and hand.game_id == game.id and hand.complete:
        return {"number": hand.number, "scores": scores_text(hand_scores(hand)),
                "url": url_for("hands.show", game_id=game.id, number=hand.number)}
    if hand is None:
        return {"number": None, "scores": None, "url": None}
    return None


def render_live(game: Game, error: HandError | None = None, status: int = 200,
                where: str | None = None) -> Page:
    hand = live_hand(game)
    rules = game.rules
    names = names_of(game)
    used = [c.text for m in hand.melds for c in m.cards] if hand else []
    asked, ticked = missing_question(names, error if where == "finish" else None,
                                     FINISH_MISSING)
    page = render_template(
        "hands/live.html", game=game, hand=hand, names=names, error=error, where=where,
        missing_asked=asked, missing_ticked=ticked, missing_field=FINISH_MISSING,
        family=family_name(game.family), basic=rules.is_basic,
        number=hand.number if hand else next_hand_number(game),
        dealer=names[next((s.position for s in game.seats if s.player_id == hand.dealer_id), 0)]
        if hand else names[next_dealer_position(game)],
        decks=rules.decks(len(names)), jokers=rules.jokers_in_play(len(names)),
        used=json.dumps(used), texts=picker_texts(), last_move=last_move(hand, game),
        followed=followed_hand(game, hand), offer=undo_offer(game),
        logged=hand is not None and has_log(hand),
        draft=draft_key(game, "live", hand.id) if hand else None,
        **live_forms(game, hand))
    return (page, status) if status != 200 else page


def _player(value: str | None, game: Game) -> str | None:
    outcome = parse_outcome(value, names_of(game))
    return outcome[1] if outcome else None


def _version(value: str | None) -> int | None:
    return _int(value)


def _problems_json(error: HandError) -> list[dict[str, Any]]:
    return [{"message": say(p.sentence), "player": p.player, "field": p.field,
             "index": p.index} for p in error.problems]


def live_answer(game: Game, hand_id: int, form_name: str, error: HandError | None = None,
                redirect_to: str | None = None) -> Page | tuple[Response, int] | Response:
    """The answer to a live form: JSON for the page's script, else the page.

    Stored: the page again (or ``redirect_to``), and the form's draft is cleared (the
    whole hand's, once it is finished or cancelled).  Refused: the problems, placed in
    the form that was sent; a hand finished or cancelled on another phone says so,
    with a link to the hand."""
    key = draft_key(game, "live", hand_id)
    if form_name not in ("finish", "cancel"):
        key = f"{key}|{form_name}"
    if error is None:
        if wants_json():
            return jsonify({"ok": True, "draft": key, "redirect": redirect_to})
        draft_saved(key)
        return redirect(redirect_to or url_for("hands.live", game_id=game.id,
                                               _anchor=form_name if form_name != "meld"
                                               else "table"))
    if isinstance(error, HandConflict):
        ended = error.code in ("hand-finished", "hand-cancelled")
        link = None
        if error.code == "hand-finished" and error.hand_id:
            stored = db.session.get(Hand, error.hand_id)
            if stored is not None:
                link = url_for("hands.show", game_id=game.id, number=stored.number)
        if wants_json():
            return jsonify({"ok": False, "code": error.code,
                            "message": say_all(error.sentences),
                            "problems": _problems_json(error), "ended": ended,
                            "link": link, "form": form_name}), 409
        if not ended:  # the hand goes on: show it, with the move kept in its form
            return render_live(game, error, 409, form_name)
        return render_conflict(game, error, kept=key)
    if wants_json():
        body: dict[str, Any] = {"ok": False, "code": error.code,
                                "message": say_all(error.sentences),
                                "problems": _problems_json(error), "form": form_name}
        if error.code == "ace-end":  # the question to ask in the form (values.ace-end)
            end = LiveLayoffForm(prefix="layoff", formdata=None).end
            body["ask"] = {"name": end.name, "legend": str(end.label.text),
                           "choices": [[value, str(label)] for value, label in END_CHOICES]}
        if error.code == "fewer-than-dealt":  # RULES.md §10: cards missing?
            body["ask"] = missing_ask(names_of(game), error)
        return jsonify(body), error.status
    return render_live(game, error, error.status, form_name)


@bp.get("/live")
def live(game_id: int) -> Page:
    return render_live(get_game(game_id))


@bp.post("/live/start")
def live_start(game_id: int) -> Page:
    game = get_game(game_id)
    if not VersionForm(prefix="start").validate_on_submit():
        abort(400)
    try:
        start_live(game)
    except HandConflict as conflict:
        return render_conflict(game, conflict)
    except HandError as error:
        return render_live(game, error, error.status)
    return redirect(url_for("hands.live", game_id=game.id))


def _live_or_ended(game: Game) -> Hand:
    """The live hand a move is for: the one the form names (its ``hand`` field, so a
    move meant for a hand that ended is not put in the next one), else the live one."""
    wanted = _int(request.form.get("hand"))
    if wanted is not None:
        hand = db.session.get(Hand, wanted)
        if hand is not None and hand.game_id == game.id:
            return hand
        if hand is None:
            live = live_hand(game)
            if live is None or live.id != wanted:
                raise HandConflict(sentence("hand.live-cancelled"), None, "hand-cancelled")
    hand = live_hand(game)
    if hand is None:
        abort(404)
    return hand


def _live_hand_or_answer(game: Game, form_name: str
                         ) -> Hand | Page | Response | tuple[Response, int]:
    """The live hand a form is for, or the answer that says it has gone."""
    try:
        return _live_or_ended(game)
    except HandConflict as conflict:
        if wants_json():
            return jsonify({"ok": False, "code": conflict.code,
                            "message": say_all(conflict.sentences),
                            "problems": [], "ended": True, "link": None,
                            "form": form_name}), 409
        return render_conflict(game, conflict)


def _live_move(form_name: str, make_form: Callable[[Game], Form]
               ) -> Callable[[LiveMove], Callable[[int], Any]]:
    """A route of one move on the live hand: it finds the game and its live hand (or
    answers that the hand has gone), validates the form ``make_form`` builds (a 400 for
    a stale or forged one) and calls the move with them.  A refused move comes back with
    its problems; a stored one with the live page again, or with the address the move
    returns."""

    def wrap(move: LiveMove) -> Callable[[int], Any]:
        @functools.wraps(move)
        def route(game_id: int) -> Any:
            game = get_game(game_id)
            hand = _live_hand_or_answer(game, form_name)
            if not isinstance(hand, Hand):
                return hand
            hand_id = hand.id
            form = make_form(game)
            if not form.validate_on_submit():
                abort(400)
            try:
                redirect_to = move(game, hand, form)
            except HandError as error:
                return live_answer(game, hand_id, form_name, error)
            return live_answer(game, hand_id, form_name, redirect_to=redirect_to)

        return route

    return wrap


def _not_a_card(exc: CardError, player: str, where: str) -> Problem:
    return Problem(sentence("hand.live-not-a-card", token=exc.token,
                            notation=card_notation(request.form.get("notation")).language),
                   player, where)


@bp.post("/live/meld")
@_live_move("meld", lambda game: live_forms(game, None)["meld_form"])
def live_add_meld(game: Game, hand: Hand, form: Any) -> None:
    player = _player(form.player.data, game)
    if player is None:
        raise HandError([Problem(sentence("hand.who-melded"), field="player")])
    try:
        cards = parse_cards(form.cards.data or "", card_notation(request.form.get("notation")))
    except CardError as exc:
        raise HandError([_not_a_card(exc, player, "melds")]) from None
    if not cards:
        raise HandError([Problem(sentence("hand.tap-cards"), player, "melds")])
    live_meld(hand, player, cards)


@bp.post("/live/layoff")
@_live_move("layoff", lambda game: live_forms(game, None)["layoff_form"])
def live_add_layoff(game: Game, hand: Hand, form: Any) -> None:
    player = _player(form.player.data, game)
    if player is None:
        raise HandError([Problem(sentence("hand.who-laid-off"), field="player")])
    try:
        card = parse_card(form.card.data or "", card_notation(request.form.get("notation")))
    except CardError as exc:
        raise HandError([_not_a_card(exc, player, "layoffs")]) from None
    end = form.end.data if form.end.data in RUN_ENDS else None
    live_layoff(hand, player, card, form.onto.data or "", end=end)


@bp.post("/live/undo")
@_live_move("undo", lambda game: LiveUndoForm(prefix="undo"))
def live_take_back(game: Game, hand: Hand, form: Any) -> None:
    live_undo(hand, _version(form.version.data), _int(form.move.data))


def missing_ask(names: list[str], error: HandError) -> dict[str, Any]:
    """The question a refused live finish puts in its form with the page's script
    (live-hand.js ``ask``): a box per player short of cards (RULES.md §10)."""
    asked, _ticked = missing_question(names, error, FINISH_MISSING)
    return {"name": FINISH_MISSING, "type": "checkbox",
            "legend": gettext("Cards missing"),
            "choices": [[name, gettext("Nobody remembers the rest of %(name)s's cards: keep "
                                       "the hand as it is", name=isolate(name))]
                        for name in asked]}


@bp.post("/live/finish")
@_live_move("finish", lambda game: live_forms(game, None)["finish_form"])
def live_finish(game: Game, hand: Hand, form: Any) -> str:
    names = names_of(game)
    number = hand.number
    outcome = parse_outcome(form.outcome.data, names)
    stranded = {}
    held: dict[str, int] = {}
    problems = []
    seats = player_forms(form, game, StrandedForm, "finish-players")
    for name, sub in zip(names, seats):
        try:
            stranded[name] = parse_cards(sub.hand.data or "",
                                         card_notation(request.form.get("notation")))
        except CardError as exc:
            problems.append(_not_a_card(exc, name, "hand"))
            continue
        try:  # the points of a hand whose cards nobody remembers (issue 27)
            value = held_points_text(sub.held.data, name, bool(stranded[name]))
        except HandError as exc:
            problems += exc.problems
            continue
        if value is not None:
            held[name] = value
    if problems:
        raise HandError(problems)
    finish_live(hand, stranded, outcome[0] if outcome else None,
                outcome[1] if outcome else None, bool(form.going_rummy.data),
                _version(form.version.data), missing_ok(names, FINISH_MISSING), held)
    flash(gettext("Hand %(number)s saved.", number=number))
    return board_after(game, number)


@bp.post("/live/cancel")
@_live_move("cancel", lambda game: LiveCancelForm(prefix="cancel"))
def live_cancel(game: Game, hand: Hand, form: Any) -> str:
    number = hand.number
    cancel_live(hand, _int(form.moves.data), bool(form.confirm.data))
    flash(gettext("Live hand %(number)s was cancelled; nothing of it was kept.", number=number))
    return url_for("games.show", game_id=game.id)
