"""A game's history entries as a reader sees them.

Each entry's summary is stored as plain, language-neutral text when the change is
made (``scorebook.services.hands``): ``Ann: 10S 10H 10D`` for a meld, ``Ben: 10C → Ann-1``
for a lay-off, ``Ann +220, Ben −6`` for a hand.  Here the cards get their suit
symbols (and spoken names), a live meld's label becomes “Ann's meld 1” in the
reader's language, and a score its real minus sign.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask import Blueprint
from flask_babel import gettext, ngettext
from markupsafe import Markup, escape

from scorebook.models import DRAW, STOCK_OUT, Change, UndoStep
from scorebook.presenters.bidi import bdi, isolate
from scorebook.presenters.cards import card_html, cards_html
from scorebook.presenters.i18n import signed_number
from scorebook.presenters.wording import meld_name
from scorebook.services import history

ARROW = " → "
_NEGATIVE = re.compile(r"(?<= )-(?=\d)")
#: One player's score in a hand's summary (``Ann +220``, ``Cy 0``), then a comma or the
#: end. (A summary stored before scores of nothing were written ``0`` says ``+0``.)
_SCORE = re.compile(r"(?P<name>.+?) (?P<score>[+-]\d+|0)(?:, |$)")


def action_name(action: str) -> str:
    """What a history entry's change did, as its title says it ("Hand recorded")."""
    names = {
        history.RECORDED: gettext("Hand recorded"), history.EDITED: gettext("Hand edited"),
        history.DELETED: gettext("Hand deleted"),
        history.LIVE_STARTED: gettext("Live hand started"),
        history.LIVE_MELD: gettext("Meld put down"),
        history.LIVE_LAYOFF: gettext("Card laid off"), history.LIVE_UNDO: gettext("Taken back"),
        history.LIVE_FINISHED: gettext("Live hand finished"),
        history.LIVE_CANCELLED: gettext("Live hand cancelled"),
        history.GAME_STARTED: gettext("Game started"),
        history.GAME_ABANDONED: gettext("Game abandoned"),
        history.GAME_REMATCH: gettext("Played again"),
        history.RESULT_SHARED: gettext("Result shared by link"),
        history.SHARE_STOPPED: gettext("Link to the result stopped"),
        history.PLAYERS_MERGED: gettext("Players merged"),
        history.MERGE_UNDONE: gettext("Merge undone"),
        history.UNDONE: gettext("Undone"),
        history.PLAYED_STARTED: gettext("Hand logged turn by turn"),
        history.PLAYED_MOVE: gettext("Move logged"),
        history.PLAYED_UNDO: gettext("Logged move taken back"),
    }
    return names.get(action, action)


def change_title(change: Change) -> str:
    """A history entry's title: what it did (an undo: what it undid)."""
    details = change.details if isinstance(change.details, dict) else {}
    if change.action == history.UNDONE and isinstance(details.get("action"), str):
        return gettext("Undone: %(what)s", what=action_name(details["action"]))
    return action_name(change.action)


def undone_changes(changes: Sequence[Change]) -> dict[int, Change]:
    """Of these entries, those an undo among them took back: the undone entry's id ->
    the entry that undid it (the history says "undone by …" at the first)."""
    out: dict[int, Change] = {}
    for change in changes:
        details = change.details if isinstance(change.details, dict) else {}
        undid = details.get("undid")
        if isinstance(undid, int):
            out[undid] = change
    return out


def _onto(card: str, label: str) -> Markup:
    return card_html(card) + Markup(ARROW) + escape(meld_name(label))


def _scores(text: str) -> Markup:
    """``Ann +220, Ben -6`` with each name isolated and a real minus sign."""
    parts = list(_SCORE.finditer(text))
    if not parts or "".join(m.group(0) for m in parts) != text:
        return escape(_NEGATIVE.sub("\u2212", text))
    return Markup(", ").join(
        bdi(m.group("name")) + Markup(" ")
        + ("0" if m.group("score") == "+0" else m.group("score").replace("-", "\u2212"))
        for m in parts)


def change_summary(change: Change) -> Markup:
    """The summary of one history entry, ready for the page."""
    text = change.summary or ""
    action = change.action
    if action == history.DELETED:
        return Markup("")  # the entry's title already says which hand went
    if action == history.LIVE_MELD and ": " in text:
        who, _, cards = text.partition(": ")
        return bdi(who) + Markup(": ") + cards_html(cards)
    if action == history.LIVE_LAYOFF and ": " in text and ARROW in text:
        who, _, rest = text.partition(": ")
        card, _, label = rest.partition(ARROW)
        return bdi(who) + Markup(": ") + _onto(card, label)
    if action == history.LIVE_UNDO:
        if ARROW in text:
            card, _, label = text.partition(ARROW)
            return _onto(card, label)
        return escape(meld_name(text))
    if action in (history.PLAYERS_MERGED, history.MERGE_UNDONE) and ARROW in text:
        before, _, after = text.partition(ARROW)  # (whose the games were → whose now)
        return bdi(before) + Markup(ARROW) + bdi(after)
    if action in (history.RECORDED, history.EDITED, history.LIVE_FINISHED):
        if action == history.EDITED and (change.details or {}).get("before"):
            return Markup("")  # the details say it, before → after
        details = change.details if isinstance(change.details, dict) else {}
        if details.get("points_only"):
            return _scores(text) + Markup(" · ") + escape(gettext("points only"))
        return _scores(text) + _missing(details)
    return escape(text)


def _missing(details: Mapping[str, Any]) -> Markup:
    """`` · cards missing: Ana (5 of 7)``: the players a hand was stored with fewer cards
    than dealt for (RULES.md §10), as its history entry keeps them; nothing if none."""
    missing, dealt = details.get("missing"), details.get("dealt")
    if not isinstance(missing, dict) or not missing or not isinstance(dealt, int):
        return Markup("")
    who = Markup(", ").join(
        bdi(name) + Markup(" ") + escape(gettext("(%(count)s of %(dealt)s)", count=count,
                                                 dealt=dealt))
        for name, count in missing.items())
    return Markup(" · ") + escape(gettext("cards missing:")) + Markup(" ") + who


# --- what a change did, card by card (Change.details) -------------------------------------


def _cards(cards: Sequence[str]) -> Markup:
    return cards_html(list(cards)) if cards else escape(gettext("nothing"))


def _zones(player: Mapping[str, Any]) -> dict[str, list[str]]:
    """A player's cards in a snapshot, by where they went, in the order entered."""
    melded = [c for meld in player.get("melds", []) for c in meld]
    laid = [c for c, _onto in player.get("layoffs", [])]
    return {"melds": melded, "layoffs": laid, "hand": list(player.get("hand", []))}


def _ending(snap: Mapping[str, Any]) -> str:
    if snap.get("went_out"):
        text = gettext("%(name)s went out", name=isolate(snap["went_out"]))
        return text + (" · " + gettext("went Rummy") if snap.get("going_rummy") else "")
    if snap.get("ending") == DRAW:
        return gettext("a draw")
    if snap.get("ending") == STOCK_OUT:
        return gettext("the stock ran out")
    return ""


def _zone_label(zone: str) -> str:
    if zone == "melds":
        return gettext("put down")
    if zone == "layoffs":
        return gettext("laid off")
    return gettext("left in hand")


def _score(value: Any) -> str:
    return signed_number(int(value)) if isinstance(value, int) else "–"


def edit_lines(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Markup]:
    """An edit in words, one line per player it touched: ``Ben −49 → −34 · left in
    hand: 🃏 5♥ → 5♥``; and how the hand ended, if that changed."""
    lines: list[Markup] = []
    was = {p["name"]: p for p in before.get("players", [])}
    for now in after.get("players", []):
        old = was.get(now["name"])
        if old is None:
            continue
        parts: list[Markup] = []
        if old.get("score") != now.get("score"):
            parts.append(escape(f"{_score(old.get('score'))} → {_score(now.get('score'))}"))
        zones_old, zones_now = _zones(old), _zones(now)
        for zone in ("melds", "layoffs", "hand"):
            if sorted(zones_old[zone]) != sorted(zones_now[zone]):  # not just reordered
                parts.append(escape(_zone_label(zone)) + Markup(": ")
                             + _cards(zones_old[zone]) + Markup(ARROW) + _cards(zones_now[zone]))
        if old.get("held_points") != now.get("held_points"):
            # issue 27: the points of a hand whose cards nobody remembered
            parts.append(escape(_held(old.get("held_points")) + ARROW
                                + _held(now.get("held_points"))))
        if bool(old.get("cards_missing")) != bool(now.get("cards_missing")):
            # RULES.md §10: stored with fewer cards than dealt, nobody remembering the rest
            parts.append(escape(gettext("cards missing") if now.get("cards_missing")
                                else gettext("no longer missing cards")))
        if parts:
            lines.append(bdi(now["name"]) + Markup(" ") + Markup(" · ").join(parts))
    if _ending(before) != _ending(after):
        lines.append(escape(gettext("How it ended")) + Markup(": ")
                     + escape(_ending(before)) + Markup(ARROW) + escape(_ending(after)))
    if bool(before.get("points_only")) != bool(after.get("points_only")):
        lines.append(escape(gettext("Cards → points only") if after.get("points_only")
                            else gettext("Points only → cards")))
    elif after.get("points_only") and lines:
        lines.append(escape(gettext("points only")))
    if not lines:
        lines.append(escape(gettext("Saved again with no change.")))
    return lines


def _held(points: Any) -> str:
    """``39 points left in hand`` (issue 27: the cards nobody remembered), or ``-``."""
    if not isinstance(points, int):
        return "-"
    return ngettext("%(num)s point left in hand", "%(num)s points left in hand", points)


def held_lines(snap: Mapping[str, Any]) -> list[Markup]:
    """What a hand held (a deleted hand, a live hand thrown away), one line per player:
    ``Ann +40: put down 7♠ 8♠ 9♠ · left in hand 5♥``."""
    lines: list[Markup] = []
    for p in snap.get("players", []):
        zones = _zones(p)
        parts = [escape(_zone_label(z)) + Markup(" ") + cards_html(zones[z])
                 for z in ("melds", "layoffs", "hand") if zones[z]]
        head = bdi(p["name"])
        if p.get("score") is not None:
            head += Markup(" ") + escape(_score(p["score"]))
        if snap.get("points_only"):
            body = escape(gettext("points only"))
        else:
            body = Markup(" · ").join(parts) if parts else escape(gettext("no cards"))
            if p.get("held_points") is not None:
                body += Markup(" · ") + escape(_held(p["held_points"]))
            if p.get("cards_missing"):
                body += Markup(" · ") + escape(gettext("cards missing"))
        lines.append(head + Markup(": ") + body)
    ending = _ending(snap) if snap.get("complete", True) else ""
    if ending:
        lines.append(escape(gettext("How it ended")) + Markup(": ") + escape(ending))
    return lines


def change_details(change: Change) -> list[Markup]:
    """The lines that show what a change did, from its details (none for an entry
    stored before details were kept)."""
    details = change.details or {}
    if not isinstance(details, dict):
        return []
    try:
        if change.action == history.EDITED and details.get("before") and details.get("after"):
            return edit_lines(details["before"], details["after"])
        if change.action in (history.DELETED, history.LIVE_CANCELLED) and details.get("held"):
            return held_lines(details["held"])
        if change.action == history.UNDONE and details.get("before") and details.get("after"):
            return edit_lines(details["before"], details["after"])
        if change.action == history.UNDONE and details.get("held"):
            return held_lines(details["held"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return []  # details written by some other version: the summary still stands
    return []


def device_name(change: Change | Any) -> str:
    """The phone a change came from (or that left the league), as a family knows it:
    "Ann's phone (Chrome · Android)", or just the browser when the phone never said whose
    it is.  (Anything with a ``device`` and a ``player`` is named so: a shared result, an
    undoable step, an ended membership.)"""
    return phone_name(change.device, change.player)


def phone_name(device: str, player: str) -> str:
    if player:
        return gettext("%(name)s's phone (%(device)s)", name=isolate(player),
                       device=device or gettext("unknown device"))
    return device or gettext("unknown device")


def undone_by(step: UndoStep) -> str:
    """The phone that undid a step (:class:`scorebook.models.UndoStep`)."""
    return phone_name(step.undone_device, step.undone_player)


def register_change_helpers(bp: Blueprint) -> None:
    bp.add_app_template_filter(change_summary, "change_summary")
    bp.add_app_template_filter(change_details, "change_details")
    bp.add_app_template_filter(device_name, "device_name")
    bp.add_app_template_filter(undone_by, "undone_by")
    bp.add_app_template_filter(change_title, "change_title")
    bp.add_app_template_global(undone_changes, "undone_changes")
