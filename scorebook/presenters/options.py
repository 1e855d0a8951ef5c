"""The house rules' words: each option's name and one-line explanation, as the new-game
form, the referee's pages and the verdicts name it (the options themselves are declared
once, in :data:`referee.rules.OPTION_SPECS`)."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

#: Each house-rule option: its label and one-line explanation, by field name.
OPTION_HELP: dict[str, tuple[Any, Any]] = {
    "jokers": (_l("Jokers"),
               _l("Two jokers per deck, wild: each stands for one card the player names.")),
    "values": (_l("Card values"),
               _l("Face value (2–9 as marked), or 5-10-15 (low cards 5, tens and faces 10, "
                  "aces 15).")),
    "low_ace_value": (_l("Ace melded low"),
                      _l("What an ace is worth when melded in a run below the 2 (A-2-3).")),
    "rummy_call": (_l("Calling “Rummy!”"),
                   _l("Off; only the last discard if it can be laid off; or the whole pile "
                      "down to any card that can be melded. 500 Rum plays the whole pile, "
                      "Rummy 500 none unless the table chooses; never in Basic Rummy.")),
    "draw_must_meld": (_l("Discard-pile cards must be melded at once"),
                       _l("Even the top card alone, when taken from the pile, must be melded "
                          "in the same turn.")),
    "deep_draw_new_meld": (_l("Deep draws need a new meld"),
                           _l("The deepest card taken from the pile must start a new meld; "
                              "laying it off is not enough.")),
    "discard_required": (_l("Going out needs a discard"),
                         _l("A player must keep one card to discard when going out.")),
    "floating": (_l("Floating"),
                 _l("A player may meld every card and play on until their next turn.")),
    "unplayable_discard": (_l("No playable last discard"),
                           _l("A player cannot go out by discarding a card that could be "
                              "laid off (needs floating).")),
    "must_go_out": (_l("Winner must go out"),
                    _l("Only the player who goes out can win, and only with the target "
                       "reached.")),
    "min_natural_cards": (_l("Melds of jokers only"),
                          _l("Whether a meld may be made of jokers alone.")),
    "one_meld_per_turn": (_l("One new meld per turn"),
                          _l("Basic Rummy house rule: at most one new meld each turn.")),
    "target": (_l("Target"),
               _l("Points that end the game. Leave empty for the family's own: 500, or in "
                  "Basic Rummy 100/150/200 for 2/3/4 players.")),
}
