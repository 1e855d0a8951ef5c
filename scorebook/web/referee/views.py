"""The referee pages: five tools that settle a dispute at the table.

Every tool is a GET form whose answer comes from the same functions as the JSON
API (:mod:`scorebook.services.questions`), so the URL of a verdict is its permalink.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from referee import CardError, ScoringError, build_table, parse_card
from referee.arrange import SearchTooLarge
from referee.rulebook import RULES_BY_ID
from referee.rules import FAMILY_NAMES
from referee.verdict import MESSAGES, RULES_MESSAGES, SCORING_MESSAGES, TABLE_MESSAGES
from scorebook.models import Game
from scorebook.plain_text import TEXT_MESSAGE, db_int
from scorebook.presenters import sentences
from scorebook.presenters.cards import card_label, card_notation, not_a_card, picker_texts, typed
from scorebook.presenters.i18n import number
from scorebook.presenters.wording import explain, param_text, say
from scorebook.services.games import live_hand
from scorebook.services.hands import live_table_players
from scorebook.services.payloads import BLANK_TEXT, CARDS_APART, PayloadError
from scorebook.services.questions import TOO_MANY_WAYS, VERDICTS, verdict_json
from scorebook.web.games.views import get_game
from scorebook.web.referee.forms import (
    DrawForm,
    GoingOutForm,
    LayoffForm,
    MeldForm,
    RulesForm,
    RummyCallForm,
    rewrite_cards,
    table_body,
)

bp = Blueprint("referee_pages", __name__)


def _common(form: RulesForm) -> dict[str, Any]:
    game: Game | None = getattr(form, "for_game", None)
    if game is not None:
        return {"rules": game.rules_spec, "players": len(game.seats)}
    return {"rules": form.rules_body(), "players": form.players.data or 4}


def table_text(game: Game) -> str:
    """The live hand's table as the table field's text: ``Ann-1 (Ann): 5♥ 6♥ 7♥ 8♥@Ben``
    (the suits' symbols, which every language's letters read alike)."""
    hand = live_hand(game)
    if hand is None:
        return ""
    try:
        table = build_table(game.rules, live_table_players(hand))
    except ScoringError:
        return ""
    lines = []
    for meld in table:
        cards = []
        for i, card in enumerate(meld.cards):
            layer = meld.layer(i)
            if layer and layer != meld.owner:
                by = f'"{layer}"' if any(c.isspace() for c in layer) else layer
                cards.append(f"{card_label(card)}@{by}")
            else:
                cards.append(card_label(card))
        owner = f" ({meld.owner})" if meld.owner else ""
        lines.append(f"{meld.id}{owner}: {' '.join(cards)}")
    return "\n".join(lines)


def attach_game(form: RulesForm, asked: bool) -> Game | None:
    """Asked from a game: use its rules; on first opening, fill in its live hand's table."""
    if not form.game.data:
        return None
    game = get_game(form.game.data)
    form.for_game = game  # type: ignore[attr-defined]
    form.family.data = game.family
    form.players.data = len(game.seats)
    table = getattr(form, "table", None)
    if table is not None and not asked and not (table.data or "").strip():
        table.data = table_text(game)
    return game


def table_owners(form: Any) -> dict[str, str]:
    """Each meld of the question's table that was given an owner: its id → the owner."""
    table = getattr(form, "table", None)
    if table is None:
        return {}
    return {str(m["id"]): str(m["owner"]) for m in table_body(table.data) if m.get("owner")}


def _meld(form: Any) -> dict[str, Any]:
    return {**_common(form), "cards": form.cards.data}


def _layoff(form: Any) -> dict[str, Any]:
    body = {**_common(form), "table": table_body(form.table.data), "card": form.card.data}
    if (form.meld.data or "").strip():
        body["meld"] = form.meld.data.strip()
    return body


def _draw(form: Any) -> dict[str, Any]:
    body = {**_common(form), "table": table_body(form.table.data), "pile": form.pile.data,
            "hand": form.hand.data, "take": form.take.data or 1}
    if (form.discard.data or "").strip():
        body["discard"] = form.discard.data.strip()
    return body


def _rummy_call(form: Any) -> dict[str, Any]:
    return {**_common(form), "table": table_body(form.table.data), "pile": form.pile.data,
            "discarder": form.discarder.data, "caller": form.caller.data,
            "next_player_drew": form.next_player_drew.data, "hand_over": form.hand_over.data}


def _going_out(form: Any) -> dict[str, Any]:
    body = {**_common(form), "table": table_body(form.table.data), "hand": form.hand.data,
            "took": form.took.data or ""}
    if (form.discard.data or "").strip():
        body["discard"] = form.discard.data.strip()
    return body


@dataclass(frozen=True)
class Tool:
    slug: str
    title: Any
    question: Any
    form: type[RulesForm]
    body: Callable[[Any], dict[str, Any]]
    asked_by: str  # the field whose presence in the URL asks the question
    tab: Any  # its short name in the tabs, which all fit a phone's width


TOOLS = {t.slug: t for t in (
    Tool("meld", _l("Meld"), _l("Is this a legal meld?"), MeldForm, _meld, "cards",
         _l("Meld")),
    Tool("layoff", _l("Lay-off"), _l("Can this card be laid off there?"), LayoffForm,
         _layoff, "card", _l("Lay-off")),
    Tool("draw", _l("Discard draw"), _l("May I take these cards from the discard pile?"),
         DrawForm, _draw, "pile", _l("Draw")),
    Tool("rummy-call", _l("\"Rummy!\" call"), _l("Is this call of \"Rummy!\" legal?"),
         RummyCallForm, _rummy_call, "pile", _l("Rummy!")),
    Tool("going-out", _l("Going out"), _l("May this player go out?"), GoingOutForm,
         _going_out, "hand", _l("Go out")),
)}


def rule_entries(rule_ids: list[str], family: str) -> list[dict[str, Any]]:
    """The cited rules with their title and text, linked into the rule book."""
    entries = []
    for rule_id in rule_ids:
        rule = RULES_BY_ID.get(rule_id)
        if rule is None:
            continue
        entries.append({"id": rule_id, "title": gettext(rule.title),
                        "text": gettext(rule.text),
                        "url": url_for("rulebook.family", family=family, _anchor=rule_id)})
    return entries


def error_text(exc: PayloadError) -> str:
    """A bad question's explanation in the page's language, from its code and parameters
    (the referee's own message where it gave one)."""
    reason = exc.reason or ""
    template = (MESSAGES.get(reason) or RULES_MESSAGES.get(reason)
                or SCORING_MESSAGES.get(reason) or TABLE_MESSAGES.get(reason))
    if template is not None and "table_meld" in exc.params:  # a meld of the table given
        return gettext("Meld %(meld)s on the table: %(problem)s",
                       meld=param_text("meld", exc.params["table_meld"], name_melds=False),
                       problem=say(template, exc.params, name_melds=False))
    if template is not None:
        return say(template, exc.params, name_melds=False)
    if exc.code == "duplicate-meld":
        return gettext("Two melds on the table have the id %(meld)s: give each its own.",
                       meld=param_text("meld", exc.params["meld"], name_melds=False))
    if exc.code == "bad-card" and "token" in exc.params:
        token = str(exc.params["token"])
        if not token.strip():
            return gettext("Enter the card first: tap it below or type it, like %(card)s.",
                           card=typed("8H"))
        return not_a_card(token)
    if reason == CARDS_APART:
        return gettext("Write the cards like %(cards)s, apart by spaces, commas or "
                       "semicolons.", cards=typed("7S 10H JK JK=8H"))
    if reason == BLANK_TEXT:
        return gettext("A meld id or a name cannot be only spaces.")
    if exc.code == "bad-text":
        return str(TEXT_MESSAGE)
    if exc.code == "text-too-long":
        return gettext("A meld id or a name can be at most %(max)s characters long; this one "
                       "has %(count)s.", max=number(exc.params["max"]),
                       count=number(exc.params["count"]))
    if exc.code == "too-many-cards":
        return gettext("The question names %(count)s cards, but the decks in play hold only "
                       "%(deck)s.", count=number(exc.params["count"]),
                       deck=number(exc.params["deck"]))
    if exc.code == "too-many-melds":
        return gettext("The question has %(count)s melds, but the %(deck)s cards in play make "
                       "at most %(most)s.", count=number(exc.params["count"]),
                       deck=number(exc.params["deck"]), most=number(exc.params["most"]))
    if exc.code == "take-too-deep":
        return ngettext("The discard pile holds only %(num)s card.",
                        "The discard pile holds only %(num)s cards.", exc.params["count"])
    if exc.code == "empty-pile":
        return gettext("The discard pile is empty: there is nothing to take.")
    if exc.code == "missing-names":
        return gettext("Say who discarded last and who calls “Rummy!”.")
    if exc.code == "took-not-in-hand":
        return gettext("The cards taken from the pile are among the player's cards: "
                       "%(card)s is in the cards taken but not in the player's cards.",
                       card=param_text("card", exc.params["card"]))
    return exc.message


def plan_steps(plan: list[str]) -> list[dict[str, Any]]:
    """The API's plan (``8H on A``, ``7S 8S 9S``) as new melds and lay-offs."""
    steps = []
    for step in plan:
        cards, _, meld = step.partition(" on ")
        steps.append({"cards": cards.split(), "meld": meld or None})
    return steps


def referee_picker_texts() -> dict[str, object]:
    """The picker's words plus the table builder's (static/js/referee.js)."""
    return {
        **picker_texts(),
        "meldId": gettext("Meld %(id)s"),
        "ownedMeld": gettext("%(name)s's meld %(id)s"),
        "whose": gettext("Whose? (optional)"),
        "whoseMeld": gettext("Whose meld %(id)s is (optional)"),
        "removeMeld": gettext("Remove meld %(id)s"),
        "tapCards": gettext("Tap its cards below."),
        "tableEmpty": gettext("No melds yet: tap “%(new_meld)s”, then its cards.",
                              new_meld=gettext("New meld")),
        "typeTable": gettext("Type the table"),
        "buildTable": gettext("Tap the table in"),
        "tableUnread": gettext("Every line needs cards, like “%(line)s”: correct it or keep "
                               "typing.", line="A (Ada): " + typed("5H 6H 7H")),
        "laidOffBy": gettext("Who laid off %(card)s?"),
        "cardLaidOffBy": gettext("%(card)s, laid off by %(name)s"),
        "byOwner": gettext("%(name)s, the meld's owner"),
        "byNobody": gettext("The meld's owner"),
        "anotherName": gettext("Another name"),
        "chooseField": gettext("First tap the field the card goes in."),
        "notAmong": gettext("%(card)s is not among the cards of “%(field)s”."),
    }


@bp.get("/")
def index() -> str:
    # the game the tools were opened from; an id no game can have is a 404, as a gone game
    asked = request.args.get("game")
    game_id = db_int(asked)
    if asked and game_id is None:
        abort(404)
    game = get_game(game_id) if game_id else None
    return render_template("referee/index.html", tools=TOOLS.values(), game=game)


def canonical_question(args: MultiDict[str, str]) -> Response | str | None:
    """A question typed on the page (its ``notation`` field: the page's letters, 7C for
    the seven of hearts in Spanish) is sent on to its address in the canonical letters
    (7H), so that a verdict's permalink reads the same in every language; None for a
    question already in them, or the reason a card is refused (in the page's letters)."""
    code = args.get("notation")
    if code is None:
        return None
    notation = card_notation(code)
    try:
        canonical = rewrite_cards(args, lambda token: str(parse_card(token, notation)))
    except CardError as exc:
        return not_a_card(exc.token, notation)
    canonical.pop("notation", None)
    return redirect(url_for("referee_pages.tool", slug=request.view_args["slug"],  # type: ignore[index]
                            **canonical.to_dict(flat=False)), code=303)


def _shown(token: str) -> str:
    """A canonical card as a field shows it, with its suit symbol (which reads the same
    in every language's letters); anything else as it is."""
    if token != token.strip():  # (a space the question refuses: it says so)
        return token
    try:
        return card_label(parse_card(token))
    except CardError:
        return token


@bp.get("/<slug>")
def tool(slug: str) -> Response | tuple[str, int] | str:
    spec = TOOLS.get(slug)
    if spec is None:
        abort(404)
    args = MultiDict(request.args)
    typed_error = canonical_question(args)
    if isinstance(typed_error, Response):
        return typed_error
    if typed_error is None:  # the fields show the cards with their symbols
        args = rewrite_cards(args, _shown)
    form = spec.form(args)
    # Sent from the form (its main field is in the URL, even empty): answer it, so that
    # an empty pile or hand is told what is missing instead of getting a blank form.
    asked = spec.asked_by in args
    game = attach_game(form, asked) if form.game.validate(form) else None
    answer: dict[str, Any] | None = None
    error: str | None = typed_error
    status = 400 if typed_error else 200
    if asked and not typed_error:
        if not form.validate():
            error = " ".join(str(e) for errors in form.errors.values() for e in errors)
        else:
            try:
                verdict, rest = VERDICTS[f"referee/{slug}"](spec.body(form))
                # the JSON API's answer, its message worded for this page (meld ids stay
                # as the table gave them, with the owner it gave each: "A (Ann's)")
                owners = table_owners(form)
                answer = {**verdict_json(verdict), **rest, "owners": owners,
                          "message": explain(verdict, name_melds=False, owners=owners)}
                if "card" in verdict.detail:
                    answer["card_label"] = verdict.detail["card"].pretty()
                answer["steps"] = plan_steps(answer.get("plan", []))
            except PayloadError as exc:
                error = error_text(exc)
            except SearchTooLarge:
                error = sentences.say(TOO_MANY_WAYS)
                status = 422
        if error and status == 200:
            status = 400
    rules = rule_entries(answer["rules"], form.family.data) if answer else []
    page = render_template("referee/tool.html", tool=spec, tools=TOOLS.values(), form=form,
                           answer=answer, error=error, rules=rules, game=game,
                           names=FAMILY_NAMES, picker_texts=referee_picker_texts(),
                           permalink=request.url if answer else None)
    return page, status
