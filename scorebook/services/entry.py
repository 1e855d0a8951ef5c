"""What a scorer submits for one hand, and the stored hand turned back into it.

A hand arrives either as the JSON the record page's script writes into a hidden
field (the shape of the API's ``POST /api/v1/score/hand`` body, parsed by
:mod:`scorebook.services.payloads`) or, without JavaScript, as text typed per player:
melds one per line (``7s 8s 9s``), lay-offs one per line as the card and the
meld it went on (``ks Ada 1``: Ada's first meld; ``6s 1``: your own first meld;
``ah Ada 1 high``: an ace at the top of a run 2…K, ``values.ace-end``), and the cards
left in hand (``5h jd 9h ah``).  Both become an :class:`Entry`.  The typed melds are
cards as they lie (an end joker is read from its place); the picker's are a loose
bunch (``Entry.loose``), tapped in any order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee import Card, CardError, Layoff, PlayerHand, layoff_parts, parse_card, parse_cards
from referee.cards import CardNotation
from scorebook.models import DRAW, HAND_ENDINGS, STOCK_OUT, WENT_OUT, Hand, MeldCard
from scorebook.plain_text import MAX_POINTS, points_int
from scorebook.services.errors import Sentence, sentence
from scorebook.services.payloads import (
    PayloadError,
    bool_from,
    no_points,
    players_from,
    point_players_from,
    went_out_from,
)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a submitted hand, placed where the form can show it:
    ``player`` and ``field`` (``melds``, ``layoffs``, ``hand``), ``index`` the meld
    or lay-off line; no player means the whole hand (``field`` ``ending`` etc.).
    ``sentence`` says what, as data: the presenters word it
    (:mod:`scorebook.presenters.sentences.hands`)."""

    sentence: Sentence
    player: str | None = None
    field: str | None = None
    index: int | None = None


class HandError(ValueError):
    """A hand that cannot be stored; ``problems`` says what and where (one sentence
    alone: a problem with the whole hand).  Its ``str()`` is the sentences' ids; a page
    or the API words them with ``say_all(error.sentences)``."""

    status = 400

    def __init__(self, problems: Sequence[Problem] | Sentence, code: str = "invalid-hand",
                 rules: tuple[str, ...] = ()) -> None:
        if isinstance(problems, Sentence):
            problems = [Problem(problems)]
        self.problems = list(problems)
        self.code = code
        #: The rule ids (RULES.md) the refusal rests on, where it rests on one.
        self.rules = rules
        super().__init__(" ".join(p.sentence.id for p in self.problems))

    @property
    def sentences(self) -> list[Sentence]:
        """What is wrong, every problem's sentence in order."""
        return [p.sentence for p in self.problems]

    def for_player(self, name: str) -> list[Problem]:
        return [p for p in self.problems if p.player == name]

    def general(self) -> list[Problem]:
        return [p for p in self.problems if p.player is None]


@dataclass
class Entry:
    """One hand as submitted: every player's cards, how it ended, who went out.
    ``ending`` is None when nobody said how the hand ended: the hand is then refused
    (:func:`scorebook.services.hands.check_entry`), never taken as a stock-out or a draw."""

    players: list[PlayerHand]
    ending: str | None = WENT_OUT
    went_out: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)
    #: The melds' cards were tapped in any order (the record page's card picker), not
    #: given as they lie: an undeclared joker is not read from its place (``meld.joker``).
    loose: bool = False
    #: A hand given as each player's points, not its cards ("points only"): the points by
    #: name (the players then hold no cards); None for a hand given card by card.
    points: dict[str, int] | None = None
    #: RULES.md §10 "Fewer cards than dealt": the players whose missing cards the family
    #: said it does not remember (a player with fewer cards than dealt who is not named
    #: here is asked about: the hand is refused with code ``fewer-than-dealt``; the pages
    #: set it from their boxes to tick).  None: nobody is asked, every such player is
    #: stored marked as missing cards (the games API, which says so in its answer).
    missing_ok: frozenset[str] | None = None


def default_ending(went_out: str | None, basic: bool) -> str | None:
    """The ending a hand has when only who went out was said: someone went out. With
    nobody named, there is no default: a stock-out or a draw is only ever chosen."""
    return WENT_OUT if went_out is not None else None


def outcome_problems(basic: bool, ending: str | None, went_out: str | None) -> list[Problem]:
    """How the hand ended, as the family allows: who went out, or the stock ran out (500),
    or a draw (Basic Rummy).  The same for every hand, cards or points; also said beside
    a hand's other problems when these are found first (a missing point, a card that is
    no card), so that one round of corrections does."""
    problems: list[Problem] = []
    endings = (WENT_OUT, DRAW) if basic else (WENT_OUT, STOCK_OUT)
    if ending is None:
        problems.append(Problem(sentence("hand.say-ending-or-draw") if basic
                                else sentence("hand.say-ending-or-stock-out"), field="ending"))
    elif ending not in endings:
        problems.append(Problem(sentence("hand.say-ending"), field="ending"))
    elif ending == WENT_OUT and went_out is None:
        problems.append(Problem(sentence("hand.say-who-went-out"), field="went_out"))
    elif ending != WENT_OUT and went_out is not None:
        problems.append(Problem(sentence("hand.nobody-went-out"), field="went_out"))
    return problems


def entry_from_json(obj: Any, basic: bool, loose: bool = False) -> Entry:
    """An entry from ``{"players": [...], "went_out": name|null, "ending"?}``; ``loose``
    when the melds' cards are a loose bunch (tapped in the picker), not as they lie. An
    ending left out is "out" when someone went out, else not given (refused)."""
    if not isinstance(obj, Mapping):
        raise HandError(sentence("hand.unreadable"), "bad-json")
    points: dict[str, int] | None = None
    try:
        if bool_from(obj.get("points_only"), "points_only"):
            pairs = point_players_from(obj.get("players"))
            players = [p for p, _points in pairs]
            points = {p.name: value for p, value in pairs}
        else:
            no_points(obj.get("players"))
            players = players_from(obj.get("players"))
        went_out = went_out_from(obj.get("went_out"), players)
    except PayloadError as exc:
        raise HandError(as_is(exc.message), exc.code) from exc
    ending = obj.get("ending")
    if ending is None:
        ending = default_ending(went_out, basic)
    if ending is not None and ending not in HAND_ENDINGS:
        raise HandError([Problem(sentence("hand.say-ending"), field="ending")])
    return Entry(players, ending, went_out, dict(obj), loose, points)


def entry_from_points(names: Sequence[str], texts: Mapping[str, str], went_out: str | None,
                      ending: str | None, going_rummy: bool, basic: bool) -> Entry:
    """A hand given as points only, from the typed points of each player (``40``,
    ``-12``, ``−12``): every player's points must be given, as a whole number."""
    problems: list[Problem] = []
    players: list[dict[str, Any]] = []
    for name in names:
        text = (texts.get(name) or "").strip()
        value = points_int(text)
        if not text:
            problems.append(Problem(sentence("hand.points-missing", name=name),
                                    name, "points"))
        elif value is None:
            problems.append(Problem(sentence("hand.points-not-a-number", text=text[:20],
                                             most=MAX_POINTS), name, "points"))
        players.append({"name": name, "points": value,
                        "going_rummy": bool(going_rummy and went_out == name)})
    if problems:
        raise HandError(problems + outcome_problems(basic, ending or None, went_out or None))
    return entry_from_json({"points_only": True, "players": players,
                            "went_out": went_out or None, "ending": ending or None}, basic)


# --- typed text (no JavaScript) --------------------------------------------------------


def _cards(text: str, notation: CardNotation | None = None) -> list[Card]:
    return parse_cards(text, notation) if text.strip() else []


def held_points_text(text: str | None, name: str, with_cards: bool) -> int | None:
    """The typed points of the cards left in ``name``'s hand where nobody remembers those
    cards (issue 27): empty is None; else a whole number from 1 to MAX_POINTS, and never
    beside typed cards in hand (raises :class:`HandError` at the player's hand)."""
    text = (text or "").strip()
    if not text:
        return None
    value = points_int(text)
    if value is None or value < 1:
        raise HandError([Problem(sentence("hand.held-not-a-number", text=text[:20],
                                          most=MAX_POINTS), name, "hand")])
    if with_cards:
        raise HandError([Problem(sentence("hand.held-with-cards", name=name), name, "hand")])
    return value


#: The words a typed lay-off may end with to say where an ace went (``ah 1 high``), by
#: the end they say: English.  A page adds its language's (``end_words`` of
#: :mod:`scorebook.presenters.sentences.hands`).
END_WORDS = {"low": "low", "high": "high"}


class _LineError(ValueError):
    """A typed lay-off line that cannot be read: ``sentence`` says why."""

    def __init__(self, said: Sentence) -> None:
        super().__init__(said.id)
        self.sentence = said


def as_is(text: str) -> Sentence:
    """A sentence that has one wording only, ``text`` itself: the JSON API's English
    (:class:`~scorebook.services.payloads.PayloadError` messages), the referee's own."""
    return sentence("hand.as-is", text=text)


def _layoff(line: str, owner: str, melds: Mapping[str, int], names: Sequence[str],
            ends: Mapping[str, str], notation: CardNotation | None = None
            ) -> tuple[str, str, str | None]:
    """``(card, meld id, end)`` from ``ks Ada 1``, ``ks on Ada 1``, ``ks Ada-1`` or ``6s 1``,
    with ``low`` or ``high`` at the end (a word of ``ends``) for an ace that fits both
    ends of a run."""
    tokens = [t for t in re.split(r"[\s,;]+", line.strip()) if t]
    card = parse_card(tokens[0], notation)
    rest = [t for t in tokens[1:] if t.lower() not in {"on", "onto", "to", ">", "→", "->"}]
    end = ends.get(rest[-1].lower()) if rest else None
    if end is not None:
        rest.pop()
    if len(rest) == 1 and (m := re.fullmatch(r"(.+?)-([0-9]+)", rest[0])):
        rest = [m.group(1), m.group(2)]
    number: int | None = None
    if rest and rest[-1].isascii() and rest[-1].isdigit():
        number = int(rest.pop())
    wanted = " ".join(rest).lower()
    if not wanted:
        name = owner
    else:
        exact = [n for n in names if n.lower() == wanted]
        starts = [n for n in names if n.lower().startswith(wanted)]
        if exact or len(starts) == 1:
            name = (exact or starts)[0]
        else:
            raise _LineError(sentence("hand.not-a-player", who=" ".join(rest)))
    count = melds.get(name, 0)
    if number is None:
        if count != 1:
            raise _LineError(sentence("hand.which-meld", name=name, card=card))
        number = 1
    if not 1 <= number <= count:
        raise _LineError(sentence("hand.no-such-meld", name=name, number=number))
    return str(card), f"{name}-{number}", end


def entry_from_text(names: Sequence[str], texts: Mapping[str, Mapping[str, str]],
                    went_out: str | None, ending: str | None, going_rummy: bool,
                    basic: bool, ends: Mapping[str, str] = END_WORDS,
                    notation: CardNotation | None = None) -> Entry:
    """An entry from the typed fields of each player (``melds``, ``layoffs``, ``hand``,
    and ``held``: the points of the cards in hand where nobody remembers them);
    ``ends``: the words a lay-off may end with, by the end they say (:data:`END_WORDS`);
    ``notation``: the letters the cards are typed with (:data:`referee.cards.NOTATIONS`,
    the page's language; none: the canonical English letters)."""
    problems: list[Problem] = []
    players: list[dict[str, Any]] = []
    meld_counts: dict[str, int] = {}
    for name in names:
        lines = [ln for ln in texts.get(name, {}).get("melds", "").splitlines() if ln.strip()]
        meld_counts[name] = len(lines)
    for name in names:
        text = texts.get(name, {})
        melds = []
        for k, line in enumerate(
                [ln for ln in text.get("melds", "").splitlines() if ln.strip()]):
            try:
                melds.append({"id": f"{name}-{k + 1}",
                              "cards": [str(c) for c in _cards(line, notation)]})
            except CardError as exc:
                problems.append(Problem(_card_error(exc, notation), name, "melds", k))
        layoffs = []
        for j, line in enumerate(
                [ln for ln in text.get("layoffs", "").splitlines() if ln.strip()]):
            try:
                card, onto, end = _layoff(line, name, meld_counts, names, ends, notation)
                layoffs.append({"card": card, "onto": onto} if end is None
                               else {"card": card, "onto": onto, "end": end})
            except CardError as exc:
                problems.append(Problem(_card_error(exc, notation), name, "layoffs", j))
            except _LineError as exc:
                problems.append(Problem(exc.sentence, name, "layoffs", j))
            except ValueError as exc:  # e.g. a meld number int() cannot read ("²")
                problems.append(Problem(as_is(str(exc)), name, "layoffs", j))
        try:
            hand = [str(c) for c in _cards(text.get("hand", ""), notation)]
        except CardError as exc:
            problems.append(Problem(_card_error(exc, notation), name, "hand"))
            hand = []
        held = None
        try:
            held = held_points_text(text.get("held"), name, bool(hand))
        except HandError as exc:
            problems += exc.problems
        players.append({"name": name, "melds": melds, "layoffs": layoffs, "hand": hand,
                        "going_rummy": bool(going_rummy and went_out == name),
                        **({"held_points": held} if held is not None else {})})
    if problems:
        said = ending or default_ending(went_out or None, basic)
        raise HandError(problems + outcome_problems(basic, said, went_out or None))
    return entry_from_json({"players": players, "went_out": went_out or None,
                            "ending": ending or None}, basic)


def _card_error(exc: CardError, notation: CardNotation | None = None) -> Sentence:
    """A token that is not a card, with the letters it was read in (``notation``: its
    language, for the wording to list them)."""
    if notation is None:
        return sentence("hand.not-a-card", token=exc.token)
    return sentence("hand.not-a-card", token=exc.token, notation=notation.language)


# --- the stored hand, back into an entry ------------------------------------------------


def stored_players(hand: Hand, names: Sequence[str], id_of: Mapping[str, int]
                   ) -> list[PlayerHand]:
    """The stored cards of ``hand`` as the referee's :class:`PlayerHand` list (with the
    points held by a player whose cards nobody remembered, where given: issue 27)."""
    out = []
    held = {s.player_id: s.held_points for s in hand.scores}
    for name in names:
        pid = id_of[name]
        melds = [(m.label, tuple(parse_card(c.text) for c in m.cards if not c.is_layoff))
                 for m in hand.melds if m.owner_id == pid]
        layoffs = [_stored_layoff(c, m.label) for m in hand.melds for c in m.cards
                   if c.is_layoff and c.laid_by_id == pid]
        stranded = tuple(parse_card(s.card) for s in hand.stranded if s.player_id == pid)
        going_rummy = hand.going_rummy and hand.went_out_id == pid
        out.append(PlayerHand(name, tuple(melds), tuple(layoffs), stranded, going_rummy,
                              held.get(pid)))
    return out


def _stored_layoff(card: MeldCard, label: str) -> Layoff:
    """A stored lay-off, with the end of the run it went to when the record keeps one
    (``values.ace-end``; hands stored before it was kept have none: the ace lay low)."""
    if card.end:
        return parse_card(card.text), label, card.end
    return parse_card(card.text), label


def _layoff_json(lay: Layoff) -> dict[str, Any]:
    card, onto, end = layoff_parts(lay)
    out: dict[str, Any] = {"card": str(card), "onto": onto}
    if end is not None:
        out["end"] = end
    return out


def entry_json(players: Sequence[PlayerHand], went_out: str | None, ending: str,
               points: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The JSON form of a hand (what the page's script and the API take); ``points``:
    a hand given as points only, each player's points."""
    if points is not None:
        return {
            "players": [{"name": p.name, "points": points.get(p.name, 0),
                         "going_rummy": p.going_rummy} for p in players],
            "went_out": went_out,
            "ending": ending,
            "points_only": True,
        }
    return {
        "players": [
            {"name": p.name,
             "melds": [{"id": mid, "cards": [str(c) for c in cards]} for mid, cards in p.melds],
             "layoffs": [_layoff_json(lay) for lay in p.layoffs],
             "hand": [str(c) for c in p.hand],
             **({"held_points": p.held_points} if p.held_points is not None else {}),
             "going_rummy": p.going_rummy}
            for p in players],
        "went_out": went_out,
        "ending": ending,
        "points_only": False,
    }


def stored_points(hand: Hand, id_of: Mapping[str, int]) -> dict[str, int] | None:
    """A hand stored as points only: each player's points by name; None for a hand
    stored card by card."""
    if not hand.points_only:
        return None
    scores = {s.player_id: s.score for s in hand.scores}
    return {name: scores.get(pid, 0) for name, pid in id_of.items()}


@dataclass(frozen=True)
class PartDifference:
    """Where a phone's entry and the hand stored differ, for one player: ``part`` is
    ``melds`` (each meld's cards), ``layoffs``, ``hand`` (the cards left) or ``points``
    (a hand kept as points only, on either side); ``stored`` and ``yours`` are its cards
    in groups (a group a meld; the others one group), or the points as one text."""

    player: str
    part: str
    stored: tuple[tuple[str, ...], ...]
    yours: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class EntryDifference:
    """How an entry refused as late (another phone stored the hand first) differs from
    the hand stored: each player's parts that differ, and how it ended when that does."""

    parts: tuple[PartDifference, ...]
    stored_ending: tuple[str | None, str | None]  # (ending, who went out)
    your_ending: tuple[str | None, str | None]

    @property
    def same(self) -> bool:
        return not self.parts and self.stored_ending == self.your_ending


def _groups(player: PlayerHand | None, part: str, points: Mapping[str, int] | None
            ) -> tuple[tuple[str, ...], ...]:
    if points is not None:
        return ((str(points.get(player.name, 0)),),) if player is not None else ()
    if player is None:
        return ()
    if part == "melds":
        return tuple(sorted(tuple(str(c) for c in cards) for _id, cards in player.melds
                            if cards))
    if part == "layoffs":
        cards = [str(layoff_parts(lay)[0]) for lay in player.layoffs]
    else:
        cards = [str(c) for c in player.hand]
    return (tuple(cards),) if cards else ()


def entry_difference(stored: Sequence[PlayerHand], stored_points: Mapping[str, int] | None,
                     stored_ending: tuple[str | None, str | None], entry: Entry
                     ) -> EntryDifference:
    """What differs between ``entry`` and the hand stored (its players, its points when
    it is kept as points only, and how it ended): shown on the page that refused the
    entry, so the scorer sees at once whether anything of theirs is missing."""
    yours = {p.name: p for p in entry.players}
    parts: list[PartDifference] = []
    for p in stored:
        mine = yours.get(p.name)
        if stored_points is not None or entry.points is not None:
            kinds: tuple[str, ...] = ("points",)
        else:
            kinds = ("melds", "layoffs", "hand")
        for kind in kinds:
            if kind == "points":
                a = _groups(p, kind, stored_points) if stored_points is not None \
                    else (("–",),)
                b = _groups(mine, kind, entry.points) if entry.points is not None \
                    else (("–",),)
            else:
                a, b = _groups(p, kind, None), _groups(mine, kind, None)
            same = (sorted(sorted(g) for g in a) == sorted(sorted(g) for g in b))
            if not same:
                parts.append(PartDifference(p.name, kind, a, b))
    return EntryDifference(tuple(parts), stored_ending, (entry.ending, entry.went_out))


def card_text(card: Card) -> str:
    """A card as the typed form shows it, with its suit symbol (``7♠``, ``JK=8♥``): the
    way a person reads it, and read back like ``7s``."""
    if card.is_joker:
        return "JK" if card.stands_for is None else "JK=" + card.stands_for.pretty()
    return card.pretty()


def entry_texts(players: Sequence[PlayerHand], ends: Mapping[str, str] = END_WORDS
                ) -> dict[str, dict[str, str]]:
    """The typed-text form of a hand, for the form without JavaScript; ``ends``: the word
    for each end of a run an ace was laid off at (:data:`END_WORDS`)."""
    where: dict[str, tuple[str, int]] = {}
    for p in players:
        for k, (mid, _cards) in enumerate(p.melds):
            where[mid] = (p.name, k + 1)
    out = {}
    for p in players:
        layoffs = []
        for card, onto, end in p.layoff_ends():
            owner, number = where.get(onto, (p.name, 0))
            text = card_text(card)
            line = f"{text} {number}" if owner == p.name else f"{text} {owner} {number}"
            layoffs.append(f"{line} {ends[end]}" if end else line)
        out[p.name] = {
            "melds": "\n".join(" ".join(card_text(c) for c in cards) for _mid, cards in p.melds),
            "layoffs": "\n".join(layoffs),
            "hand": " ".join(card_text(c) for c in p.hand),
        }
    return out


__all__ = [
    "DRAW", "END_WORDS", "STOCK_OUT", "WENT_OUT", "Entry", "EntryDifference", "HandError",
    "PartDifference", "Problem", "as_is", "default_ending", "entry_difference",
    "outcome_problems",
    "entry_from_json", "entry_from_points", "entry_from_text", "entry_json", "entry_texts",
    "stored_players", "stored_points",
]
