"""Games: start one, its scoreboard, its history, abandon it."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale, gettext
from flask_wtf import FlaskForm
from markupsafe import Markup
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.wrappers import Response

from scorebook.compression import compress_page, negotiate
from scorebook.extensions import db
from scorebook.models import FINISHED, Game, League, Player, Seat
from scorebook.presenters.charts import score_chart
from scorebook.presenters.sentences import say, say_all
from scorebook.presenters.tables import name_key, scores_table
from scorebook.presenters.wording import explain, family_name
from scorebook.services import access, history, sharing, undo
from scorebook.services.entry import HandError
from scorebook.services.errors import sentence
from scorebook.services.games import (
    GameSetupError,
    abandon,
    build_rules,
    clean_name,
    create_game,
    load_game,
    look_alike,
    lost_a_race,
    rematch,
    rematch_dealer,
    rematch_of,
    roster,
    roster_key,
    scoreboard,
)
from scorebook.services.hands import undo_step
from scorebook.services.live import game_version
from scorebook.services.transaction import transaction
from scorebook.web import membership
from scorebook.web.boards import BoardCache, cache_of, cached_board
from scorebook.web.games.forms import (
    BOOLEAN_OPTIONS,
    MAX_SEATS,
    OPTION_HELP,
    SELECT_OPTIONS,
    SHOWN_SEATS,
    NewGameForm,
    house_rules_in_words,
    option_families,
)
from scorebook.web.games.undo import undo_offer
from scorebook.web.league.stats import game_sections
from scorebook.web.live.views import page_version
from scorebook.web.pages import ENVIRON_KEY as PAGE_KEY

bp = Blueprint("games", __name__)
#: The scoreboard's verdict in the page's language (games/_board.html).
bp.add_app_template_global(explain, "explain")


def get_game(game_id: int) -> Game:
    """The game, if this browser may do what the request asks with it: 404 for a game
    that does not exist or belongs to a league it is not in (also when the id comes
    from the query string, like the referee's ``?game=``), 403 for a role too low."""
    game = load_game(game_id, with_hands=False)
    if game is None:
        abort(404)
    membership.require(game.league, membership.needed_role())
    return game


@bp.route("/new", methods=["GET", "POST"])
def new() -> str | Response | tuple[str, int]:
    # The open league if this browser may score there; else the game starts a new
    # private league that this browser owns.
    league = membership.league_to_score_in()
    form = NewGameForm()
    errors: dict[str, str] = {}
    adding = request.method == "POST" and "add_seat" in request.form
    try:
        shown = int(request.form.get("seats_shown") or SHOWN_SEATS)
    except ValueError:
        shown = SHOWN_SEATS
    form.shown_seats = max(SHOWN_SEATS, min(MAX_SEATS, shown))
    questions: list[tuple[int, str, str]] = []
    confirmed: list[str] = []
    if adding:  # no JavaScript: "Add a seat" sends the form back with one more row
        form.shown_seats = min(MAX_SEATS, form.visible_seats() + 1)
    elif form.validate_on_submit():
        questions, confirmed = _look_alikes(form, league)
        if not questions:
            try:
                game_id = _start_game(form, league)
            except GameSetupError as exc:
                db.session.rollback()
                errors[exc.field or "rules"] = say(exc.sentence)
            else:
                return redirect(url_for("games.show", game_id=game_id))
    elif request.method == "POST":
        for name, messages in form.errors.items():
            errors[name] = " ".join(str(m) for m in _flatten(messages))
    status = 400 if request.method == "POST" and not adding and not questions else 200
    page = render_template("games/new.html", form=form, errors=errors, league=league,
                           questions=questions, confirmed=confirmed,
                           roster=[p.name for p in roster(league)] if league else [],
                           option_help=OPTION_HELP, select_options=SELECT_OPTIONS,
                           boolean_options=BOOLEAN_OPTIONS,
                           option_families=option_families)
    return (page, status) if status != 200 else page


def _look_alikes(form: NewGameForm, league: League | None
                 ) -> tuple[list[tuple[int, str, str]], list[str]]:
    """Seats whose name looks like a player of the league but is not theirs ("Lucia"
    beside "Lucía"): (seat, name typed, the player's name), to ask "did you mean …?"
    before a near twin joins the roster; and the names already said to be new players.
    The answer comes back as ``use_name`` (``"<seat>:<name>"``: the player meant) or
    ``new_name`` (a new player after all, kept in the form for the next question)."""
    confirmed = [clean_name(n) for n in request.form.getlist("new_name") if clean_name(n)]
    use = request.form.get("use_name", "")
    seat, _, meant = use.partition(":")
    if seat.isascii() and seat.isdigit() and int(seat) < len(form.players) and meant:
        form.players[int(seat)].data = meant
    if league is None:
        return [], confirmed
    said_new = {roster_key(n) for n in confirmed}
    questions = []
    for i, name in form.seated():
        other = look_alike(league, name) if roster_key(name) not in said_new else None
        if other is not None:
            questions.append((i, clean_name(name), other.name))
    return questions, confirmed


def _start_game(form: NewGameForm, league: League | None) -> int:
    """Start the game the form describes (in ``league``, else in a new private league of
    this browser's); its id.  Two games started in one league at the same moment may
    reach for the same number (or add the same new player): the loser tries again with
    the next one.  Any other refusal of the database is no race (a primary key taken
    because a sequence lags behind the ids, say) and is raised as the fault it is."""
    rules = build_rules(form.family.data or "pagat-500", form.options())
    seated = form.seated()
    dealer = next((k for k, (i, _n) in enumerate(seated)
                   if i == (form.first_dealer.data or 0)), None)
    if len(seated) < 2:
        # an empty (or one-name) form: what is missing, not which seat deals
        raise GameSetupError(sentence("games.too-few-names"), "players")
    if dealer is None:
        raise GameSetupError(sentence("games.first-dealer-seat-empty"), "first_dealer")
    for attempt in range(5):
        try:
            with transaction():  # the league (if new), players, game and history at once
                game = create_game(league or membership.new_private_league(),
                                   [n for _i, n in seated], dealer, rules)
                history.log(game, history.GAME_STARTED, ", ".join(p.name for p in game.players))
        except IntegrityError as exc:
            if not lost_a_race(exc):
                raise
            if attempt == 4:
                raise GameSetupError(sentence("games.number-taken")) from None
            if league is not None:
                league = db.session.get(League, league.id)
            continue
        break
    if league is None:
        access.remember(session, game.league, access.OWNER)
        session.permanent = True
    return game.id


def _flatten(messages: object) -> list[object]:
    if isinstance(messages, list):
        return [m for item in messages for m in _flatten(item)]
    if isinstance(messages, dict):
        return [m for item in messages.values() for m in _flatten(item)]
    return [messages] if messages else []


def board_cache() -> BoardCache:
    """This worker's kept boards (scorebook.web.boards), bounded by ``BOARD_CACHE_BYTES``."""
    return cache_of(current_app)


def board_html(game: Game) -> Markup:
    """The scoreboard's live part (#live-board), rendered once per version of the game.

    The version (:func:`scorebook.services.live.game_version`: the game's revision and its
    history) changes with every hand recorded, edited or deleted, every live move and
    every change of status; a kept board is only served for the version it was
    rendered from (:mod:`scorebook.web.boards`), so it is never stale, and phones polling
    a game that has not changed get it without a query for the hands.  A viewer's
    board has no buttons to record a hand, so whether this browser may write is in
    the key."""
    names = tuple(s.player.name for s in game.seats)
    version = page_version() or game_version(game.id)
    variant = (str(get_locale()), names, request.script_root,
               membership.can_write(game.league), request.host_url)  # (the shared result's link)

    def render() -> Markup:
        board = scoreboard(game)
        hand_url = url_for("hands.show", game_id=game.id, number=0)[:-1] + "{number}"
        return Markup(render_template(
            "games/_board.html", game=game, board=board,
            scores_table=scores_table(board, hand_url), name_key=name_key(board.names),
            chart=score_chart(board.names, board.running, board.target),
            changes=history.changes(game, limit=5), **game_sections(game),
            offer=undo_offer(game),
            shared=sharing.share_of(game) if game.status == FINISHED else None))

    return cached_board(board_cache(), game.id, version, variant, render)


@bp.get("/<int:game_id>")
def show(game_id: int) -> str:
    game = get_game(game_id)
    return render_template("games/scoreboard.html", game=game, board_html=board_html(game),
                           names=[s.player.name for s in game.seats],
                           family=family_name(game.family),
                           house_rules=house_rules_in_words(game.rules_spec))


#: The seat names of a game, in seat order: one statement (the board's key needs them).
NAMES_SQL = text(
    f"SELECT p.name FROM {Seat.__tablename__} s JOIN {Player.__tablename__} p"
    f" ON p.id = s.player_id WHERE s.game_id = :game_id ORDER BY s.position")


@bp.get("/<int:game_id>/board")
def board(game_id: int) -> Response:
    """Only the live board (#live-board) and the version it shows: what ``live.js`` on a
    scoreboard fetches after the version changed, instead of the whole page (the page
    without JavaScript stays complete).

    The answer depends on nothing but the board's key (the game's version, the names,
    the language, whether this browser may write, the site's address) and the
    encoding, so it is kept whole, compressed, in the board cache: a phone fetching a
    board another phone of its table fetched already costs the access check
    (:func:`scorebook.web.membership.check_request`, done before this view), the names (one
    statement) and the bytes, never loading the game."""
    version = page_version()
    doors = g.get("doors")
    encoding = negotiate(request.headers.get("Accept-Encoding", ""))
    names = tuple(db.session.scalars(NAMES_SQL, {"game_id": game_id}))
    variant = ("part", encoding, str(get_locale()), names, request.script_root,
               membership.can_write(doors), request.host_url)
    cache = board_cache()
    if request.environ.get(PAGE_KEY) is not None:
        # scorebook.web.pages keeps this answer whole (keep_page, before the compression
        # hook): the board as it is, compressed by the hook as any page
        game = get_game(game_id)
        response = Response(render_template("games/board_part.html", game=game,
                                            board_html=board_html(game)), mimetype="text/html")
        response.headers["Cache-Control"] = "no-cache, private"
        response.headers["X-Robots-Tag"] = "noindex"
        return response
    kept = cache.get(game_id, version, variant) if version and doors else None
    if isinstance(kept, bytes):  # b"c" + the compressed answer, or b"r" + the page as it is
        body, encoding = kept[1:], encoding if kept[:1] == b"c" else None
    else:
        game = get_game(game_id)
        body = render_template("games/board_part.html", game=game,
                               board_html=board_html(game)).encode("utf-8")
        if encoding is not None and len(body) >= current_app.config["COMPRESS_MIN_SIZE"]:
            body = compress_page(body, encoding)
        else:
            encoding = None
        if version and doors:
            cache.put(game_id, version, variant, (b"c" if encoding else b"r") + body)
    response = Response(body, mimetype="text/html")
    if encoding is not None:
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    response.headers["Cache-Control"] = "no-cache, private"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


@bp.post("/<int:game_id>/undo/<int:step_id>")
@access.requires(access.SCORER)
def undo_change(game_id: int, step_id: int) -> Response | tuple[str | Response, int]:
    """Undo the game's newest change (the offer of games/_undo.html): a form's button, or
    ``Accept: application/json`` for a script. Refused: the scoreboard again with why
    (409 when the game changed since, 410 when the time ran out), never a change."""
    game = get_game(game_id)
    if not FlaskForm().validate_on_submit():
        abort(400)
    step = undo.game_step(game.id, step_id)
    if step is None:
        abort(404)
    kind, number = step.kind, step.params.get("number")
    was_finished = game.status == FINISHED
    try:
        undo_step(step)
    except HandError as error:
        db.session.rollback()
        message = say_all(error.sentences)
        if _wants_json():
            return jsonify(ok=False, code=error.code, message=message), error.status
        flash(message, "warning")
        return show(game_id), error.status
    message = undone_message(kind, number)
    game = get_game(game_id)
    if _wants_json():
        return jsonify(ok=True, message=message, game_url=url_for("games.show",
                                                                 game_id=game_id))
    flash(message)
    if was_finished and game.status != FINISHED:
        flash(gettext("Game %(game)s is in play again: after this change nobody has "
                      "reached %(target)s.", game=game.number, target=game.target),
              "warning")
    if kind in (undo.LIVE_MOVE, undo.HAND_FINISHED):
        return redirect(url_for("hands.live", game_id=game_id))
    return redirect(url_for("games.show", game_id=game_id))


def undone_message(kind: str, number: object) -> str:
    """What an undo did, for the flash and the JSON answer."""
    if kind == undo.HAND_RECORDED:
        return gettext("Undone: hand %(number)s is no longer in the game.", number=number)
    if kind == undo.HAND_DELETED:
        return gettext("Undone: hand %(number)s is back, with its cards.", number=number)
    if kind == undo.HAND_FINISHED:
        return gettext("Undone: hand %(number)s is being played live again.", number=number)
    if kind == undo.LIVE_MOVE:
        return gettext("Undone: the move was taken back.")
    return gettext("Undone: hand %(number)s is back as it was before the change.",
                   number=number)


def _wants_json() -> bool:
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json" and request.accept_mimetypes[best] > \
        request.accept_mimetypes["text/html"]


@bp.get("/<int:game_id>/history")
def changes(game_id: int) -> str:
    game = get_game(game_id)
    return render_template("games/history.html", game=game, changes=history.changes(game),
                           family=family_name(game.family))


@bp.post("/<int:game_id>/abandon")
def abandon_game(game_id: int) -> Response:
    from scorebook.web.games.forms import VersionForm

    game = get_game(game_id)
    if not VersionForm().validate_on_submit():
        abort(400)
    if not game.is_open:  # it ended (or was abandoned) on another phone meanwhile
        flash(gettext("This game has already ended; nothing was abandoned."))
    else:
        try:
            with transaction():
                abandon(game)
                history.log(game, history.GAME_ABANDONED)
        except StaleDataError:  # another phone changed the game at that very moment
            flash(gettext("The game changed on another phone at that moment; nothing was "
                          "abandoned. Look at it and try again."))
        else:
            flash(gettext("The game was abandoned; its hands are kept."))
    return redirect(url_for("games.show", game_id=game_id))


def _number(game_id: int) -> int:
    """A game's number within its league (what the pages call it), from its id."""
    return db.session.scalar(db.select(Game.number).where(Game.id == game_id)) or game_id


@bp.route("/<int:game_id>/rematch", methods=["GET", "POST"])
@access.requires(access.SCORER)
def rematch_game(game_id: int) -> str | Response:
    """Play again: the page says what the next game will be; its button starts it."""
    from scorebook.web.access.forms import ButtonForm

    game = get_game(game_id)
    started = rematch_of(game)
    if started is not None:  # another phone (or an earlier tap) started it already
        flash(gettext("Game %(id)s already plays this game again.", id=_number(started)))
        return redirect(url_for("games.show", game_id=started))
    if game.status != FINISHED:
        flash(gettext("Only a finished game can be played again."))
        return redirect(url_for("games.show", game_id=game.id))
    form = ButtonForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        try:
            with transaction():
                new = rematch(game)
                seated = ", ".join(p.name for p in new.players)
                history.log(new, history.GAME_STARTED, seated)
                history.log(game, history.GAME_REMATCH, seated)
        except GameSetupError as exc:  # the rules no longer seat these players, say
            flash(say(exc.sentence))
            return redirect(url_for("games.show", game_id=game.id))
        except IntegrityError as exc:  # a second phone's rematch of this game won the race
            if not lost_a_race(exc):
                raise  # (no race: a fault)
            started = rematch_of(game)
            if started is None:  # another game of the league took the number meanwhile
                flash(gettext("Another game was started in this league at the same moment; "
                              "please try again."))
                return redirect(url_for("games.show", game_id=game.id))
            flash(gettext("Game %(id)s already plays this game again.", id=_number(started)))
            return redirect(url_for("games.show", game_id=started))
        return redirect(url_for("games.show", game_id=new.id))
    names = [s.player.name for s in game.seats]
    return render_template("games/rematch.html", game=game, form=form, names=names,
                           dealer=names[rematch_dealer(game)], family=family_name(game.family),
                           house_rules=house_rules_in_words(game.rules_spec))
