"""The rule book's worked examples as data, shared by the tests that use them."""

from __future__ import annotations

from typing import Any

#: score.500: the three-player Rummy 500 hand that scores 13 / 64 / −9.
RUMMY_500_HAND: dict[str, Any] = {
    "rules": {"family": "rummy-500"},
    "players": [
        {"name": "You", "melds": [{"id": "y1", "cards": ["7S", "8S", "9S"]},
                                  {"id": "y2", "cards": ["4C", "4S", "4D"]}],
         "layoffs": [{"card": "6S", "onto": "y1"}, {"card": "KS", "onto": "a1"}],
         "hand": ["5H", "JD", "9H", "AH"]},
        {"name": "Ada", "melds": [{"id": "a1", "cards": ["KC", "KD", "KH"]},
                                  {"id": "a2", "cards": ["10S", "JS", "QS"]}],
         "layoffs": [{"card": "4H", "onto": "y2"}], "hand": []},
        {"name": "Bo", "melds": [{"id": "b1", "cards": ["6H", "6C", "6D"]}],
         "hand": ["10C", "7D", "2H", "8C"]},
    ],
    "went_out": "Ada",
}
