"""Hands: record one at the end (card picker or typed cards), see, edit or delete
any hand, and record a hand live, meld by meld, as it is played."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import Form

from referee import CardError, parse_card, parse_cards
from scorebook import access
from scorebook.bidi import bdi, html, isolate
from scorebook.entry import (
    Entry,
    HandError,
    Problem,
    end_word,
    entry_from_json,
    entry_from_text,
    entry_json,
    entry_texts,
    stored_players,
)
from scorebook.extensions import db
from scorebook.forms import (
    HandForm,
    LiveFinishForm,
    LiveLayoffForm,
    LiveMeldForm,
    PlayerCardsForm,
    StrandedForm,
    VersionForm,
    choices,
    outcome_choices,
)
from scorebook.games import family_name, live_hand, next_dealer_position, next_hand_number
from scorebook.hands import (
    HandConflict,
    delete_hand,
    edit_hand,
    finish_live,
    last_live_card,
    live_layoff,
    live_meld,
    live_undo,
    record_hand,
    start_live,
)
from scorebook.models import DRAW, RUN_ENDS, STOCK_OUT, WENT_OUT, Game, Hand
from scorebook.plain_text import db_int
from scorebook.views.cards import card_label, picker_texts
from scorebook.views.games import get_game
from scorebook.wording import meld_name

bp = Blueprint("hands", __name__)

Page = str | Response | tuple[str, int]


def get_hand(game: Game, number: int) -> Hand:
    hand = db.session.scalar(db.select(Hand).where(
        Hand.game_id == game.id, Hand.number == number, Hand.complete.is_(True)))
    if hand is None:
        abort(404)
    return hand


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
    if value and value.startswith("p") and value[1:].isdigit() and int(value[1:]) < len(names):
        return WENT_OUT, names[int(value[1:])]
    return None


def read_entry(form: HandForm, game: Game) -> Entry:
    """The submitted hand: the picker's JSON if the script wrote it, else the typed text.
    The outcome radio and the going-Rummy box decide how it ended."""
    names = names_of(game)
    basic = game.rules.is_basic
    outcome = parse_outcome(form.outcome.data, names)
    raw = (form.hand_json.data or "").strip()
    if raw:
        try:
            obj = json.loads(raw)
        except ValueError:
            raise HandError(gettext("The hand could not be read; please try again."),
                            "bad-json") from None
        if isinstance(obj, dict) and outcome is not None:
            obj = {**obj, "ending": outcome[0], "went_out": outcome[1]}
        # the picker's cards are tapped in any order: no joker is read from its place
        entry = entry_from_json(obj, basic, loose=True)
    else:
        texts = {name: {"melds": sub.melds.data or "", "layoffs": sub.layoffs.data or "",
                        "hand": sub.hand.data or ""}
                 for name, sub in zip(names, player_forms(form, game))}
        ending, went_out = outcome if outcome else (None, None)
        entry = entry_from_text(names, texts, went_out, ending, False, basic)
    if outcome is None and entry.went_out is None and not raw:
        raise HandError([Problem(gettext("Say how the hand ended."), field="ending")])
    if form.going_rummy.data:
        entry.players = [replace(p, going_rummy=p.name == entry.went_out)
                         for p in entry.players]
    return entry


def player_forms(form: FlaskForm, game: Game, cls: type[Form] = PlayerCardsForm,
                 prefix: str = "players") -> list[Any]:
    """One sub-form per seat (``players-0-melds`` …), made once per form."""
    made = getattr(form, "_seat_forms", None)
    if made is None:
        formdata = request.form if form.is_submitted() else None
        made = [cls(formdata, prefix=f"{prefix}-{i}") for i in range(len(game.seats))]
        form._seat_forms = made  # type: ignore[attr-defined]
    return made


def hand_form(game: Game, hand: Hand | None = None) -> HandForm:
    form = HandForm()
    names = names_of(game)
    form.outcome.choices = outcome_choices(names, game.rules.is_basic)
    seats = player_forms(form, game)
    if hand is not None and not form.is_submitted():
        players = stored_players(hand, names, ids_of(game))
        went_out = next((n for n, i in ids_of(game).items() if i == hand.went_out_id), None)
        # for the picker's script only: a page without JavaScript submits its typed
        # fields, which the server reads when hand_json comes back empty
        form.initial_json = json.dumps(entry_json(players, went_out, hand.ending))
        texts = entry_texts(players)
        for name, sub in zip(names, seats):
            sub.melds.data = texts[name]["melds"]
            sub.layoffs.data = texts[name]["layoffs"]
            sub.hand.data = texts[name]["hand"]
        form.outcome.data = outcome_of(hand)
        form.going_rummy.data = hand.going_rummy
        form.version.data = str(hand.version)
        form.number.data = str(hand.number)
    return form


def render_record(game: Game, form: HandForm, number: int, hand: Hand | None = None,
                  error: HandError | None = None, status: int = 200) -> Page:
    rules = game.rules
    names = names_of(game)
    dealer = (names[next((s.position for s in game.seats if s.player_id == hand.dealer_id), 0)]
              if hand else names[next_dealer_position(game)])
    page = render_template(
        "hands/record.html", game=game, form=form, number=number, hand=hand, names=names,
        seat_forms=player_forms(form, game),
        dealer=dealer, error=error, family=family_name(game.family), basic=rules.is_basic,
        rules_json=game.rules_text, decks=rules.decks(len(names)),
        jokers=rules.jokers_in_play(len(names)), texts=picker_texts(),
        high_word=end_word("high"))
    return (page, status) if status != 200 else page


def render_conflict(game: Game, conflict: HandConflict) -> tuple[str, int]:
    db.session.expire_all()
    game = get_game(game.id)
    stored = db.session.get(Hand, conflict.hand_id) if conflict.hand_id else None
    if stored is not None and not stored.complete:
        return render_template("hands/conflict.html", game=game, hand=None, live=stored,
                               message=conflict.message), 409
    return render_template("hands/conflict.html", game=game, hand=stored, live=None,
                           message=conflict.message,
                           **(hand_details(game, stored) if stored else {})), 409


def hand_details(game: Game, hand: Hand) -> dict[str, Any]:
    """Everything the hand page shows: melds with who laid each card, stranded cards, scores."""
    seats = {s.player_id: s.player.name for s in game.seats}
    melds_by_label = {m.label: m for m in hand.melds}
    index = {}
    for pid in seats:
        for k, m in enumerate(m for m in hand.melds if m.owner_id == pid):
            index[m.label] = k + 1
    players = []
    for seat in game.seats:
        pid = seat.player_id
        score = hand.score_of(pid)
        players.append({
            "name": seat.player.name,
            "melds": [(index[m.label], m) for m in hand.melds if m.owner_id == pid],
            "layoffs": [(c, seats[melds_by_label[m.label].owner_id], index[m.label])
                        for m in hand.melds for c in m.cards
                        if c.is_layoff and c.laid_by_id == pid],
            "stranded": [s.card for s in hand.stranded if s.player_id == pid],
            "score": score,
            "went_out": hand.went_out_id == pid,
        })
    return {"players": players, "seats": seats}


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
    try:
        submitted = int(form.number.data or number)
    except ValueError:
        submitted = number
    try:
        entry = read_entry(form, game)
        hand = record_hand(game, entry, submitted)
    except HandConflict as conflict:
        return render_conflict(game, conflict)
    except HandError as error:
        return render_record(game, form, number, error=error, status=error.status)
    flash(gettext("Hand %(number)s saved.", number=hand.number))
    return redirect(url_for("games.show", game_id=game.id, _anchor=f"hand-{hand.number}"))


@bp.get("/<int:number>")
def show(game_id: int, number: int) -> str:
    game = get_game(game_id)
    hand = get_hand(game, number)
    return render_template("hands/show.html", game=game, hand=hand,
                           delete_form=VersionForm(version=str(hand.version)),
                           **hand_details(game, hand))


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
@access.requires(access.SCORER)
def edit(game_id: int, number: int) -> Page:
    game = get_game(game_id)
    hand = get_hand(game, number)
    form = hand_form(game, hand)
    if not form.is_submitted():
        return render_record(game, form, number, hand)
    if not form.validate():
        abort(400)
    try:
        version = int(form.version.data or 0)
    except ValueError:
        version = 0
    try:
        entry = read_entry(form, game)
        edit_hand(hand, entry, version)
    except HandConflict as conflict:
        return render_conflict(game, conflict)
    except HandError as error:
        return render_record(game, form, number, hand, error=error, status=error.status)
    flash(gettext("Hand %(number)s changed.", number=number))
    return redirect(url_for("games.show", game_id=game.id, _anchor=f"hand-{number}"))


@bp.post("/<int:number>/delete")
def delete(game_id: int, number: int) -> Page:
    game = get_game(game_id)
    hand = get_hand(game, number)
    form = VersionForm()
    if not form.validate_on_submit():
        abort(400)
    version = db_int(form.version.data or 0)
    if version is None:
        abort(400, description=gettext("The form was stale or opened in another tab; "
                                       "please try again."))
    try:
        delete_hand(hand, version)
    except HandConflict as conflict:
        return render_conflict(game, conflict)
    flash(gettext("Hand %(number)s deleted; the later hands moved up.", number=number))
    return redirect(url_for("games.show", game_id=game.id))


# --- the live hand ------------------------------------------------------------------------


def live_forms(game: Game, hand: Hand | None) -> dict[str, Any]:
    names = names_of(game)
    players = choices(*[(f"p{i}", bdi(n)) for i, n in enumerate(names)])
    meld_form = LiveMeldForm(prefix="meld")
    meld_form.player.choices = players
    layoff_form = LiveLayoffForm(prefix="layoff")
    layoff_form.player.choices = players
    finish_form = LiveFinishForm(prefix="finish")
    finish_form.outcome.choices = outcome_choices(names, game.rules.is_basic)
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
        for form in (meld_form, layoff_form, finish_form):
            if not form.is_submitted():
                form.version.data = str(hand.version)
    return {"meld_form": meld_form, "layoff_form": layoff_form, "finish_form": finish_form,
            "stranded_forms": player_forms(finish_form, game, StrandedForm, "finish-players"),
            "undo_form": VersionForm(prefix="undo",
                                     version=str(hand.version) if hand else ""),
            "start_form": VersionForm(prefix="start"), "melds": melds}


def last_move(hand: Hand | None, game: Game) -> str | None:
    """What "take back" would undo, in words: a lay-off, or a whole meld."""
    last = last_live_card(hand) if hand is not None else None
    if last is None:
        return None
    names = {s.player_id: s.player.name for s in game.seats}
    meld = meld_name(last.meld.label)
    if last.is_layoff:
        return gettext("%(name)s's %(card)s laid off on %(meld)s",
                       name=isolate(names[last.laid_by_id]),
                       card=card_label(parse_card(last.text)), meld=meld)
    return meld


def render_live(game: Game, error: HandError | None = None, status: int = 200,
                where: str | None = None) -> Page:
    hand = live_hand(game)
    rules = game.rules
    names = names_of(game)
    used = [c.text for m in hand.melds for c in m.cards] if hand else []
    page = render_template(
        "hands/live.html", game=game, hand=hand, names=names, error=error, where=where,
        family=family_name(game.family), basic=rules.is_basic,
        number=hand.number if hand else next_hand_number(game),
        dealer=names[next((s.position for s in game.seats if s.player_id == hand.dealer_id), 0)]
        if hand else names[next_dealer_position(game)],
        decks=rules.decks(len(names)), jokers=rules.jokers_in_play(len(names)),
        used=json.dumps(used), texts=picker_texts(), last_move=last_move(hand, game),
        **live_forms(game, hand))
    return (page, status) if status != 200 else page


def _player(value: str | None, game: Game) -> str | None:
    outcome = parse_outcome(value, names_of(game))
    return outcome[1] if outcome else None


def _version(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None


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


def _live_or_404(game: Game) -> Hand:
    hand = live_hand(game)
    if hand is None:
        abort(404)
    return hand


@bp.post("/live/meld")
def live_add_meld(game_id: int) -> Page:
    game = get_game(game_id)
    hand = _live_or_404(game)
    form = live_forms(game, hand)["meld_form"]
    if not form.validate_on_submit():
        abort(400)
    try:
        player = _player(form.player.data, game)
        if player is None:
            raise HandError([Problem(gettext("Choose who put the meld down."), field="player")])
        try:
            cards = parse_cards(form.cards.data or "")
        except CardError as exc:
            raise HandError([Problem(gettext("“%(token)s” is not a card.", token=exc.token),
                                     player, "melds")]) from None
        live_meld(hand, player, cards)
    except HandConflict as conflict:
        return render_conflict(game, conflict)
    except HandError as error:
        return render_live(game, error, error.status, "meld")
    return redirect(url_for("hands.live", game_id=game.id, _anchor="table"))


@bp.post("/live/layoff")
def live_add_layoff(game_id: int) -> Page:
    game = get_game(game_id)
    hand = _live_or_404(game)
    form = live_forms(game, hand)["layoff_form"]
    if not form.validate_on_submit():
        abort(400)
    try:
        player = _player(form.player.data, game)
        if player is None:
            raise HandError([Problem(gettext("Choose who laid the card off."), field="player")])
        try:
            card = parse_card(form.card.data or "")
        except CardError as exc:
            raise HandError([Problem(gettext("“%(token)s” is not a card.", token=exc.token),
                                     player, "layoffs")]) from None
        end = form.end.data if form.end.data in RUN_ENDS else None
        live_layoff(hand, player, card, form.onto.data or "", end=end)
    except HandConflict as conflict:
        return render_conflict(game, conflict)
    except HandError as error:
        return render_live(game, error, error.status, "layoff")
    return redirect(url_for("hands.live", game_id=game.id, _anchor="table"))


@bp.post("/live/undo")
def live_take_back(game_id: int) -> Page:
    game = get_game(game_id)
    hand = _live_or_404(game)
    form = VersionForm(prefix="undo")
    if not form.validate_on_submit():
        abort(400)
    try:
        live_undo(hand, _version(form.version.data))
    except HandConflict as conflict:
        return render_conflict(game, conflict)
    return redirect(url_for("hands.live", game_id=game.id, _anchor="table"))


@bp.post("/live/finish")
def live_finish(game_id: int) -> Page:
    game = get_game(game_id)
    hand = _live_or_404(game)
    form = live_forms(game, hand)["finish_form"]
    if not form.validate_on_submit():
        abort(400)
    names = names_of(game)
    try:
        outcome = parse_outcome(form.outcome.data, names)
        if outcome is None:
            raise HandError([Problem(gettext("Say how the hand ended."), field="ending")])
        stranded = {}
        problems = []
        seats = player_forms(form, game, StrandedForm, "finish-players")
        for name, sub in zip(names, seats):
            try:
                stranded[name] = parse_cards(sub.hand.data or "")
            except CardError as exc:
                problems.append(Problem(gettext("“%(token)s” is not a card.", token=exc.token),
                                        name, "hand"))
        if problems:
            raise HandError(problems)
        number = hand.number
        finish_live(hand, stranded, outcome[0], outcome[1], bool(form.going_rummy.data),
                    _version(form.version.data))
    except HandConflict as conflict:
        return render_conflict(game, conflict)
    except HandError as error:
        return render_live(game, error, error.status, "finish")
    flash(gettext("Hand %(number)s saved.", number=number))
    return redirect(url_for("games.show", game_id=game.id, _anchor=f"hand-{number}"))
