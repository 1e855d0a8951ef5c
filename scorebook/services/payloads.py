"""Turning JSON (the API's bodies, the record-a-hand page's hidden field) into
referee objects, with one clear error per mistake.

Every function raises :class:`PayloadError` with a machine-readable ``code`` and
a message that names what is wrong (the card token, the meld id, the field), so
the API can answer 400 and a form can show it in place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from referee import (
    ENDS,
    Card,
    CardError,
    Layoff,
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
from scorebook.plain_text import MAX_POINTS, points_int, unwanted_problem

#: The longest name or meld id a question may use (a stored meld id has as many).
MAX_TEXT = 80
#: The biggest whole number a name or an id may be given as (it is read as its text).
MAX_ID_NUMBER = 2**63 - 1

# The grammar of the API's texts, as regular expressions that read the same in Python,
# in ECMAScript and in JSON Schema validators (explicit classes only: no \s, \d or \w;
# ``(?!\n)$`` because Python's ``$`` also matches before a final line break). The
# OpenAPI document states them (scorebook.api.openapi) and the API checks them, so the two
# agree; tests/web/test_api_document.py checks that they do.
_CONTROL = "\\u0000-\\u001f\\u007f-\\u009f"
#: What str.strip() strips that is not a control character.
_SPACE = "\\u0020\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
#: A name or an id: one line with something besides spaces in it, no control character.
TEXT_PATTERN = f"^[^{_CONTROL}]*[^{_CONTROL}{_SPACE}][^{_CONTROL}]*(?!\\n)$"

_SUIT = "[SsHhDdCc\\u2660-\\u2667]\\ufe0f?"
_RANK_FIRST = "(?:10|[2-9AaJjQqKkTt1])"
_RANK_AFTER = "(?:1[0-3]|[2-9AaJjQqKkTt1])"
_NATURAL = f"(?:{_RANK_FIRST}{_SUIT}|{_SUIT}{_RANK_AFTER})"
_JOKER = "(?:[Jj][Kk][Rr]?|[Jj][Oo][Kk][Ee][Rr]|\\*|\U0001f0cf\\ufe0f?)"
_DECLARED = f"(?:{_NATURAL}|{_RANK_AFTER})"
#: One card: 7S, 10h, S10, 7♠, JK, joker, *, JK=8H (a joker declared as a card) or
#: JK=9 (as a rank, in a set); letters in either case.
CARD_PATTERN = (f"^ *(?:{_NATURAL}|{_JOKER}(?: *= *{_DECLARED})?) *(?!\\n)$")
_SEPARATOR = "[ \\t\\n\\r,;]"
_TOKEN = f"(?:{_NATURAL}|{_JOKER}(?:={_DECLARED})?)"


def cards_text_pattern(most: int | None = None, least: int = 0) -> str:
    """Cards in one string (``"7s 8s 9s"``), split on spaces, commas or semicolons: from
    ``least`` (0 or 1) to ``most`` of them."""
    more = "*" if most is None else f"{{0,{most - 1}}}"
    cards = f"{_TOKEN}(?:{_SEPARATOR}+{_TOKEN}){more}{_SEPARATOR}*"
    return f"^{_SEPARATOR}*" + (cards if least else f"(?:{cards})?") + "$"


_TEXT_RE = re.compile(TEXT_PATTERN)
_CARD_RE = re.compile(CARD_PATTERN)
_CARDS_TEXT_RE = re.compile(cards_text_pattern())


#: The ``reason`` of a name or an id given as nothing but spaces (code ``bad-request``).
BLANK_TEXT = "payload.blank-text"
#: The ``reason`` of cards in one text not kept apart by spaces, commas or semicolons.
CARDS_APART = "payload.cards-apart"


class PayloadError(ValueError):
    """Bad input: ``code`` for programs, ``message`` for people (in English, as the JSON
    API says it), ``status`` for HTTP.  ``reason`` and ``params`` say the same as data
    where a page words it in its own language: a referee message id
    (:data:`referee.verdict.MESSAGES`, :data:`~referee.verdict.RULES_MESSAGES`,
    :data:`~referee.verdict.SCORING_MESSAGES`, :data:`~referee.verdict.TABLE_MESSAGES`),
    one of this module's own
    (:data:`BLANK_TEXT`, :data:`CARDS_APART`) where one code covers several mistakes, or
    none (the page words ``code``), with its typed parameters."""

    def __init__(self, code: str, message: str, status: int = 400, *,
                 reason: str | None = None, params: Mapping[str, Any] | None = None,
                 rules: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.reason = reason
        self.params: Mapping[str, Any] = params or {}
        #: The rule ids (RULES.md) the refusal rests on, where it rests on one.
        self.rules = rules


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
        return json.loads(data, parse_float=_number)
    except (ValueError, RecursionError):
        raise PayloadError("invalid-json", "send a JSON object with Content-Type "
                                           "application/json") from None


def _number(text: str) -> int | float:
    """A JSON number with a fraction or an exponent: ``8.0`` and ``1e2`` are whole numbers,
    as JSON Schema's ``integer`` counts them, so they are read as ints."""
    value = float(text)
    return int(value) if value.is_integer() else value


def required(body: Mapping[str, Any], key: str, what: str = "") -> Any:
    """``body[key]``, refused with a 400 when it is missing or null."""
    value = body.get(key)
    if value is None:
        raise PayloadError("missing-field", f"{key} is required{what}")
    return value


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
                                             f"cards in play make at most {most_melds}",
                           params={"count": melds, "deck": deck, "most": most_melds})
    if cards > deck:
        raise PayloadError("too-many-cards", f"the question names {cards} cards; the decks in "
                                             f"play hold {deck}",
                           params={"count": cards, "deck": deck})


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
        raise PayloadError("bad-rules", str(exc), reason=exc.code, params=exc.params) from exc


def player_count_from(obj: Any, rules: RuleSet, default: int = 2) -> int:
    """The number of players (for the decks in play), checked against the family."""
    count = default if obj is None else obj
    if not isinstance(count, int) or isinstance(count, bool):
        raise PayloadError("bad-players", "players must be the number of players, e.g. 3")
    try:
        rules.check_players(count)
    except RulesError as exc:
        raise PayloadError("bad-players", str(exc), reason=exc.code,
                           params=exc.params) from exc
    return count


def card_from(obj: Any, what: str = "card") -> Card:
    """One card, written as :data:`CARD_PATTERN` says."""
    try:
        card = parse_card(obj)
    except CardError as exc:
        raise PayloadError("bad-card", f"{what}: {exc}", params={"token": exc.token}) from exc
    if not _CARD_RE.search(obj):
        raise PayloadError("bad-card", f"{what}: {obj!r} is not written as a card is, "
                                       "e.g. 7S, 10H, JK or JK=8H", params={"token": obj})
    return card


def cards_from(obj: Any, what: str = "cards") -> list[Card]:
    """A list of cards, given as a JSON list of card texts or one string (``7s 8s 9s``)."""
    if obj is None:
        return []
    if isinstance(obj, str):
        return _cards_text(obj, what)
    if not isinstance(obj, list):
        raise PayloadError("bad-request", f"{what} must be a list of cards such as [\"7S\"]")
    return [card_from(c, what) for c in obj]


def _cards_text(text: str, what: str) -> list[Card]:
    try:
        cards = parse_cards(text)
    except CardError as exc:
        raise PayloadError("bad-card", f"{what}: {exc}", params={"token": exc.token}) from exc
    if not _CARDS_TEXT_RE.search(text):
        raise PayloadError("bad-card", f"{what}: write the cards as 7S 10H JK JK=8H, "
                                       "apart by spaces, commas or semicolons",
                           reason=CARDS_APART)
    return cards


def text_from(obj: Any, what: str, *, required: bool = True) -> str | None:
    """A name or an id (:data:`TEXT_PATTERN`): one line of text of at most :data:`MAX_TEXT`
    characters, or a whole number (read as its digits)."""
    if obj is None and not required:
        return None
    if isinstance(obj, int) and not isinstance(obj, bool):
        if not -MAX_ID_NUMBER - 1 <= obj <= MAX_ID_NUMBER:
            raise PayloadError("bad-request", f"{what} is too big a number for a name or an id")
        obj = str(obj)
    if not isinstance(obj, str) or not obj.strip():
        raise PayloadError("bad-request", f"{what} must be a non-empty text",
                           reason=BLANK_TEXT if isinstance(obj, str) else None)
    problem = unwanted_problem(obj, what)
    if problem is not None:
        raise PayloadError("bad-text", problem)
    if len(obj) > MAX_TEXT:
        raise PayloadError("text-too-long", f"{what} is {len(obj)} characters long: at most "
                                            f"{MAX_TEXT} characters are allowed",
                           params={"count": len(obj), "max": MAX_TEXT})
    assert _TEXT_RE.search(obj), obj  # the checks above are TEXT_PATTERN's
    return obj.strip()


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
            raise PayloadError("duplicate-meld", f"two table melds have the id {meld_id!r}",
                               params={"meld": meld_id})
        owner = text_from(item.get("owner"), f"owner of meld {meld_id}", required=False)
        raw = item.get("cards")
        if not isinstance(raw, list | str):
            raise PayloadError("bad-request", f"meld {meld_id}: cards must be a list")
        cards: list[Card] = []
        laid_by: list[str | None] = []
        if isinstance(raw, str):
            _cards_text(raw, f"meld {meld_id}")
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
            # (a Verdict is falsy when it is not legal)
            code = "ambiguous-meld" if exc.verdict and exc.verdict.legal else "illegal-meld"
            raise PayloadError(code, f"table meld {meld_id}: {exc.message}", reason=exc.code,
                               params={**exc.params, "table_meld": meld_id}) from exc
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
        raise PayloadError(code, bad.message, reason=bad.code, params=bad.params)


def end_from(obj: Any, what: str) -> str | None:
    """The end of a run a card was laid off at: ``"low"``, ``"high"`` or none."""
    if obj is None:
        return None
    if obj not in ENDS:
        raise PayloadError("bad-end", f"{what}: end must be \"low\" or \"high\", not {obj!r}")
    return str(obj)


def _named_players(obj: Any) -> Iterator[tuple[Mapping[str, Any], str]]:
    """Each player object of a hand's ``players`` list with its name, checked: the list
    must hold at least one, each an object with a name."""
    if not isinstance(obj, list) or not obj:
        raise PayloadError("bad-request", "players must be a list of the players of the hand")
    for i, item in enumerate(obj):
        item = require_object(item, f"player {i + 1}")
        name = text_from(item.get("name"), f"player {i + 1}'s name")
        assert name is not None
        yield item, name


def players_from(obj: Any) -> list[PlayerHand]:
    """The players of a hand: ``[{"name", "melds": [{"id", "cards"}], "layoffs":
    [{"card", "onto", "end"?}], "hand": [...], "held_points"?, "going_rummy"?}]`` (a
    lay-off's ``end``, ``low`` or ``high``, says where an ace went on a run 2…K:
    ``values.ace-end``; ``held_points``, instead of ``hand``: the points of the cards left
    in the hand where nobody remembers the cards, :func:`held_points_from`)."""
    players = []
    for item, name in _named_players(obj):
        melds = []
        raw_melds = [] if item.get("melds") is None else item["melds"]
        if not isinstance(raw_melds, list):
            raise PayloadError("bad-request", f"{name}'s melds must be a list")
        for k, meld in enumerate(raw_melds):
            if isinstance(meld, list | str):
                meld = {"cards": meld}
            meld = require_object(meld, f"{name}'s meld {k + 1}")
            meld_id = text_from(meld.get("id", f"{name}-{k + 1}"), f"{name}'s meld id")
            assert meld_id is not None
            raw_cards = required(meld, "cards", f" in {name}'s meld {meld_id}")
            melds.append((meld_id, cards_from(raw_cards, f"{name}'s meld {meld_id}")))
        layoffs: list[Layoff] = []
        raw_layoffs = [] if item.get("layoffs") is None else item["layoffs"]
        if not isinstance(raw_layoffs, list):
            raise PayloadError("bad-request", f"{name}'s layoffs must be a list")
        for lay in raw_layoffs:
            lay = require_object(lay, f"{name}'s lay-off")
            card = card_from(lay.get("card"), f"{name}'s lay-off")
            onto = text_from(lay.get("onto"), f"the meld {name} laid {card} off on")
            assert onto is not None
            end = end_from(lay.get("end"), f"{name}'s lay-off of {card}")
            layoffs.append((card, onto) if end is None else (card, onto, end))
        hand = cards_from(item.get("hand"), f"{name}'s hand")
        held = held_points_from(item.get("held_points"), name,
                                item.get("hand") not in (None, "", []))
        going_rummy = bool_from(item.get("going_rummy"), "going_rummy")
        players.append(PlayerHand(name, tuple(melds), tuple(layoffs), tuple(hand), going_rummy,
                                  held))
    return players


def held_points_from(obj: Any, name: str, with_cards: bool) -> int | None:
    """The points of the cards a player was left holding, given as a number because
    nobody remembers the cards (issue 27): a whole number from 1 to :data:`MAX_POINTS`,
    never beside cards in hand (the cards would say it).  None when left out."""
    if obj is None:
        return None
    value = points_int(obj) if isinstance(obj, int) and not isinstance(obj, bool) else None
    if value is None or value < 1:
        raise PayloadError("bad-points", f"{name}'s held_points must be a whole number from 1 "
                                         f"to {MAX_POINTS}")
    if with_cards:
        raise PayloadError("bad-points", f"{name}: give either the cards left in hand or "
                                         "their points (held_points), not both")
    return value


def points_from(obj: Any, what: str) -> int:
    """A player's points for a hand given as points only: a whole number from
    -:data:`MAX_POINTS` to :data:`MAX_POINTS` (JSON's ``40.0`` is 40)."""
    value = points_int(obj) if isinstance(obj, int) else None
    if value is None:
        raise PayloadError("bad-points", f"{what} must be a whole number from {-MAX_POINTS} "
                                         f"to {MAX_POINTS}")
    return value


def point_players_from(obj: Any) -> list[tuple[PlayerHand, int]]:
    """The players of a hand given as points only: ``[{"name", "points", "going_rummy"?}]``,
    each with no cards (no melds, lay-offs or hand: the hand was not itemised)."""
    out = []
    for item, name in _named_players(obj):
        if any(item.get(key) not in (None, [], "") for key in ("melds", "layoffs", "hand")):
            raise PayloadError("bad-points", f"{name}: a points-only hand has no cards; leave "
                                             "melds, layoffs and hand out (or send the cards "
                                             "without points_only)")
        if item.get("points") is None:
            raise PayloadError("bad-points", f"{name}'s points are required in a points-only "
                                             "hand")
        points = points_from(item["points"], f"{name}'s points")
        going_rummy = bool_from(item.get("going_rummy"), "going_rummy")
        out.append((PlayerHand(name, (), (), (), going_rummy), points))
    return out


def no_points(obj: Any) -> None:
    """A hand given card by card says no player's points (the cards give them)."""
    for item in obj if isinstance(obj, list) else ():
        if isinstance(item, Mapping) and item.get("points") is not None:
            raise PayloadError("bad-points", "points are only for a hand given as points "
                                             "(points_only: true); a hand with cards is "
                                             "scored from its cards")


def went_out_from(obj: Any, players: Sequence[PlayerHand]) -> str | None:
    if obj is None:
        return None
    name = text_from(obj, "went_out")
    if name not in {p.name for p in players}:
        raise PayloadError("unknown-player", f"went_out names {name!r}, who is not a player")
    return name
