"""Turning JSON (the API's bodies, the record-a-hand page's hidden field) into
referee objects, with one clear error per mistake.

Every function raises :class:`PayloadError` with a machine-readable ``code`` and
a message that names what is wrong (the card token, the meld id, the field), so
the API can answer 400 and a form can show it in place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee import (
    Card,
    CardError,
    PlayerHand,
    RulesError,
    RuleSet,
    Table,
    TableError,
    check_copies,
    make_meld,
    make_rules,
    parse_card,
    parse_cards,
)
from scorebook.plain_text import unwanted_problem

#: The longest name or meld id a question may use (a stored meld id has as many).
MAX_TEXT = 80


class PayloadError(ValueError):
    """Bad input: ``code`` for programs, ``message`` for people, ``status`` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


#: No question nests deeper than this (a table meld's card object is at depth 4).
MAX_JSON_DEPTH = 16
#: The most cards any question can name: two decks and four jokers (eight players).
MAX_CARDS = 108
MIN_MELD = 3
#: No question holds more JSON values than this (the largest, 108 cards each with who laid
#: it, has about 600): a body with more is refused before it is parsed at all.
MAX_JSON_VALUES = 5000
_JSON_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]|[-0-9.eE+]+|true|false|null')


def parse_json(data: bytes) -> Any:
    """A request body as JSON, refused at once if it nests deeper than any question does
    (a thousand ``[`` would otherwise exhaust the parser's recursion)."""
    depth = 0
    for values, token in enumerate(_JSON_TOKEN.finditer(data), start=1):
        char = token.group(0)[:1]
        if values > MAX_JSON_VALUES:
            raise PayloadError("too-many-values", f"the JSON holds more than {MAX_JSON_VALUES} "
                                                  "values; no question needs that many")
        if char in (b"[", b"{"):
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise PayloadError("too-deep", f"the JSON nests deeper than {MAX_JSON_DEPTH} "
                                               "levels; no question needs that many")
        elif char in (b"]", b"}"):
            depth -= 1
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise PayloadError("invalid-json", "send a JSON object with Content-Type "
                                           "application/json") from None


def _count(obj: Any) -> int:
    """How many cards a list of cards (or one string of them) names, without parsing."""
    if isinstance(obj, str):
        return len(_tokens(obj)) if len(obj) < 4 * MAX_CARDS * 8 else MAX_CARDS * 8
    if isinstance(obj, list):
        return len(obj)
    return 0 if obj is None else 1


def check_budget(body: Mapping[str, Any], rules: RuleSet, players: int) -> None:
    """Refuse, before any search, a question that names more cards than the decks in play
    hold, or more melds than those cards can make (each meld has three cards or more)."""
    deck = rules.deck_size(players)
    most_melds = deck // MIN_MELD
    cards = sum(_count(body.get(key)) for key in ("cards", "pile", "hand", "took"))
    cards += sum(_count(body.get(key)) for key in ("card", "discard"))
    melds = 0
    table = body.get("table")
    if isinstance(table, list):
        melds += len(table)
        cards += sum(_count(m.get("cards")) for m in table if isinstance(m, Mapping))
    seated = body.get("players")
    if isinstance(seated, list):
        for p in seated:
            if not isinstance(p, Mapping):
                continue
            own = p.get("melds")
            if isinstance(own, list):
                melds += len(own)
                cards += sum(_count(m.get("cards") if isinstance(m, Mapping) else m)
                             for m in own)
            cards += _count(p.get("layoffs")) + _count(p.get("hand"))
    if melds > most_melds:
        raise PayloadError("too-many-melds", f"the question has {melds} melds; the {deck} "
                                             f"cards in play make at most {most_melds}")
    if cards > deck:
        raise PayloadError("too-many-cards", f"the question names {cards} cards; the decks in "
                                             f"play hold {deck}")


def require_object(obj: Any, what: str = "the request body") -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise PayloadError("invalid-json", f"{what} must be a JSON object")
    return obj


def rules_from(obj: Any) -> RuleSet:
    """A rule set from ``{"family": ..., <option>: ...}`` (or a family name)."""
    if obj is None:
        obj = {}
    if not isinstance(obj, Mapping | str):
        raise PayloadError("bad-rules", "rules must be an object such as {\"family\": "
                                        "\"pagat-500\"}")
    try:
        return make_rules(obj)
    except RulesError as exc:
        raise PayloadError("bad-rules", str(exc)) from exc


def player_count_from(obj: Any, rules: RuleSet, default: int = 2) -> int:
    """The number of players (for the decks in play), checked against the family."""
    count = default if obj is None else obj
    if not isinstance(count, int) or isinstance(count, bool):
        raise PayloadError("bad-players", "players must be the number of players, e.g. 3")
    try:
        rules.check_players(count)
    except RulesError as exc:
        raise PayloadError("bad-players", str(exc)) from exc
    return count


def card_from(obj: Any, what: str = "card") -> Card:
    try:
        return parse_card(obj)
    except CardError as exc:
        raise PayloadError("bad-card", f"{what}: {exc}") from exc


def cards_from(obj: Any, what: str = "cards") -> list[Card]:
    """A list of cards, given as a JSON list of card texts or one string (``7s 8s 9s``)."""
    if obj is None:
        return []
    if isinstance(obj, str):
        try:
            return parse_cards(obj)
        except CardError as exc:
            raise PayloadError("bad-card", f"{what}: {exc}") from exc
    if not isinstance(obj, list):
        raise PayloadError("bad-request", f"{what} must be a list of cards such as [\"7S\"]")
    return [card_from(c, what) for c in obj]


def text_from(obj: Any, what: str, *, required: bool = True) -> str | None:
    """A name or an id: one line of text, at most :data:`MAX_TEXT` characters."""
    if obj is None and not required:
        return None
    if isinstance(obj, int) and not isinstance(obj, bool):
        obj = str(obj)
    if not isinstance(obj, str) or not obj.strip():
        raise PayloadError("bad-request", f"{what} must be a non-empty text")
    problem = unwanted_problem(obj, what)
    if problem is not None:
        raise PayloadError("bad-text", problem)
    text = obj.strip()
    if len(text) > MAX_TEXT:
        raise PayloadError("text-too-long", f"{what} is {len(text)} characters long: at most "
                                            f"{MAX_TEXT} characters are allowed")
    return text


def bool_from(obj: Any, what: str) -> bool:
    if obj is None:
        return False
    if not isinstance(obj, bool):
        raise PayloadError("bad-request", f"{what} must be true or false")
    return obj


def table_from(obj: Any, rules: RuleSet) -> Table:
    """The table: ``[{"id", "cards", "owner"?}]``; a card may be ``{"card", "by"}`` to say
    who laid it off."""
    if obj is None:
        return Table()
    if not isinstance(obj, list):
        raise PayloadError("bad-request", "table must be a list of melds {id, cards, owner}")
    table = Table()
    for i, item in enumerate(obj):
        item = require_object(item, f"table meld {i + 1}")
        meld_id = text_from(item.get("id", f"m{i + 1}"), f"table meld {i + 1} id")
        assert meld_id is not None
        if meld_id in table:
            raise PayloadError("duplicate-meld", f"two table melds have the id {meld_id!r}")
        owner = text_from(item.get("owner"), f"owner of meld {meld_id}", required=False)
        raw = item.get("cards")
        if not isinstance(raw, list | str):
            raise PayloadError("bad-request", f"meld {meld_id}: cards must be a list")
        cards: list[Card] = []
        laid_by: list[str | None] = []
        for entry in raw if isinstance(raw, list) else _tokens(raw):
            if isinstance(entry, Mapping):
                cards.append(card_from(entry.get("card"), f"meld {meld_id}"))
                laid_by.append(text_from(entry.get("by"), "by", required=False) or owner)
            else:
                cards.append(card_from(entry, f"meld {meld_id}"))
                laid_by.append(owner)
        try:
            meld = make_meld(meld_id, cards, rules, owner,
                             laid_by if any(b != owner for b in laid_by) else None)
        except TableError as exc:
            code = "ambiguous-meld" if exc.verdict and exc.verdict.legal else "illegal-meld"
            raise PayloadError(code, f"table meld {meld_id}: {exc}") from exc
        table = table.with_meld(meld)
    return table


def _tokens(text: str) -> list[str]:
    """The card texts of one string, split like :func:`referee.parse_cards` splits them
    (spaces, commas or semicolons)."""
    return [t for t in re.split(r"[\s,;]+", text) if t]


def check_cards_exist(cards: Sequence[Card], rules: RuleSet, players: int) -> None:
    """400 when the cards given together need more copies than the decks hold."""
    bad = check_copies(cards, rules, players)
    if bad is not None:
        code = "no-jokers" if bad.code == "meld.no-jokers" else "too-many-copies"
        raise PayloadError(code, bad.message)


def players_from(obj: Any) -> list[PlayerHand]:
    """The players of a hand: ``[{"name", "melds": [{"id", "cards"}], "layoffs":
    [{"card", "onto"}], "hand": [...], "going_rummy"?}]``."""
    if not isinstance(obj, list) or not obj:
        raise PayloadError("bad-request", "players must be a list of the players of the hand")
    players = []
    for i, item in enumerate(obj):
        item = require_object(item, f"player {i + 1}")
        name = text_from(item.get("name"), f"player {i + 1}'s name")
        assert name is not None
        melds = []
        raw_melds = item.get("melds") or []
        if not isinstance(raw_melds, list):
            raise PayloadError("bad-request", f"{name}'s melds must be a list")
        for k, meld in enumerate(raw_melds):
            if isinstance(meld, list | str):
                meld = {"cards": meld}
            meld = require_object(meld, f"{name}'s meld {k + 1}")
            meld_id = text_from(meld.get("id", f"{name}-{k + 1}"), f"{name}'s meld id")
            assert meld_id is not None
            melds.append((meld_id, cards_from(meld.get("cards"), f"{name}'s meld {meld_id}")))
        layoffs = []
        raw_layoffs = item.get("layoffs") or []
        if not isinstance(raw_layoffs, list):
            raise PayloadError("bad-request", f"{name}'s layoffs must be a list")
        for lay in raw_layoffs:
            lay = require_object(lay, f"{name}'s lay-off")
            card = card_from(lay.get("card"), f"{name}'s lay-off")
            onto = text_from(lay.get("onto"), f"the meld {name} laid {card} off on")
            assert onto is not None
            layoffs.append((card, onto))
        hand = cards_from(item.get("hand"), f"{name}'s hand")
        going_rummy = bool_from(item.get("going_rummy"), "going_rummy")
        players.append(PlayerHand(name, tuple(melds), tuple(layoffs), tuple(hand), going_rummy))
    return players


def went_out_from(obj: Any, players: Sequence[PlayerHand]) -> str | None:
    if obj is None:
        return None
    name = text_from(obj, "went_out")
    if name not in {p.name for p in players}:
        raise PayloadError("unknown-player", f"went_out names {name!r}, who is not a player")
    return name
