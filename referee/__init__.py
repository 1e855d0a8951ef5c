"""The rules engine of Rummy Scorebook: 500 Rum, Rummy 500 and Basic Rummy.

Pure Python, standard library only.  Every question returns a
:class:`~referee.verdict.Verdict` that cites rule ids from ``RULES.md``.
"""

from .arrange import Arrangement, Step, Way, best_arrangement, meld_all, pool_of, ways_to_meld
from .cards import JOKER, Card, CardError, format_cards, parse_card, parse_cards
from .draws import Callable, DrawError, callable_cards, check_draw, check_rummy_call
from .going_out import check_going_out
from .melds import (
    RUN,
    SET,
    Reading,
    card_value,
    check_copies,
    check_meld,
    is_meld,
    meld_readings,
    reading_value,
)
from .rules import FAMILIES, RulesError, RuleSet, make_rules
from .scoring import (
    ENDS,
    HandScore,
    Layoff,
    PlayerHand,
    PlayerScore,
    ScoringError,
    build_table,
    cards_of,
    fewer_than_dealt,
    game_result,
    holding_nothing,
    layoff_parts,
    most_points,
    score_hand,
    score_points,
)
from .table import (
    LayoffTarget,
    Table,
    TableError,
    TableMeld,
    apply_layoff,
    check_layoff,
    either_end,
    layoff_end,
    layoff_targets,
    make_meld,
)
from .turns import first_player, next_dealer
from .verdict import MESSAGES, N_, Verdict

__all__ = [
    "ENDS", "FAMILIES", "JOKER", "MESSAGES", "N_", "RUN", "SET", "Arrangement", "Callable",
    "Card", "CardError", "DrawError", "HandScore", "Layoff", "LayoffTarget", "PlayerHand",
    "PlayerScore",
    "Reading", "RuleSet", "RulesError", "ScoringError", "Step", "Table", "TableError",
    "TableMeld", "Verdict", "Way", "apply_layoff", "best_arrangement", "build_table",
    "callable_cards", "card_value", "cards_of", "check_copies", "check_draw", "check_going_out",
    "check_layoff", "check_meld", "check_rummy_call", "either_end", "first_player",
    "fewer_than_dealt", "format_cards", "game_result", "holding_nothing", "is_meld",
    "layoff_end", "layoff_parts", "layoff_targets",
    "make_meld", "make_rules", "meld_all",
    "meld_readings", "most_points", "next_dealer", "parse_card", "parse_cards", "pool_of",
    "reading_value",
    "score_hand", "score_points", "ways_to_meld",
]
