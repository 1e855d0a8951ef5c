"""Logged hands for the tests, written one move a line:

    Ann draw            Ann draw 7S         Ann take 5        Ann meld 4S 4H 4D
    Ann layoff 6H Ann-1 [low|high]          Ann discard 4S    Ann rummy [take]
    Ann stock-out

A line ending in ``!`` is a move the table agreed to (``agreed``)."""

from __future__ import annotations

from referee import make_rules, parse_card, parse_cards
from referee.log import (
    CallRummy,
    Deal,
    Discard,
    DrawStock,
    LayOff,
    Meld,
    Move,
    StockOut,
    TakePile,
)
from referee.replay import Replay, replay


def moves(text: str) -> list[Move]:
    out: list[Move] = []
    for line in text.strip().splitlines():
        line = line.strip()
        if not line:
            continue
        agreed = line.endswith("!")
        words = line.rstrip("!").split()
        player, kind, rest = words[0], words[1], words[2:]
        move: Move
        if kind == "draw":
            move = DrawStock(player, parse_card(rest[0]) if rest else None, agreed)
        elif kind == "take":
            move = TakePile(player, int(rest[0]), agreed)
        elif kind == "meld":
            move = Meld(player, tuple(parse_cards(rest)), None, agreed)
        elif kind == "layoff":
            move = LayOff(player, parse_card(rest[0]), rest[1],
                          rest[2] if len(rest) > 2 else None, agreed)
        elif kind == "discard":
            move = Discard(player, parse_card(rest[0]), agreed)
        elif kind == "rummy":
            move = CallRummy(player, int(rest[0]) if rest else None, agreed)
        else:
            assert kind == "stock-out", line
            move = StockOut(player, agreed)
        out.append(move)
    return out


def play(family: str | dict[str, object], players: str, dealer: str, upcard: str,
         log: str, dealt: int | None = None) -> Replay:
    rules = make_rules(family) if isinstance(family, str) else make_rules(family)
    deal = Deal(rules, tuple(players.split()), dealer, parse_card(upcard), dealt)
    return replay(deal, moves(log))


#: RULES.md §5's worked example as it was played: the pile is 6 4 7 4 Q A when Cy, who
#: holds 2 4 5 8 J K K, takes everything from the lower 4 up and melds the three fours.
DEEP_DRAW = """
Ann draw
Ann discard 4S
Bo draw
Bo discard 7D
Cy draw
Cy discard 4H
Ann draw
Ann discard QS
Bo draw
Bo discard AD
"""


#: K♣ and, further up, Q♣ in the pile; Ann discards J♣.
CLUBS = """
Ann draw
Ann discard KC
Bo draw
Bo discard 5S
Cy draw
Cy discard QC
Dee draw
Dee discard 9H
Ann draw
Ann discard JC
"""
