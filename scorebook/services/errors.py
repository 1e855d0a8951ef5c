"""What the services say went wrong, as data rather than prose.

A service never words a sentence: it raises an error that carries a :class:`Sentence`,
a catalogue id and its typed parameters (a player's name, a card, a count, a meld's
number).  The web and API layers word it in the reader's language through
:func:`scorebook.presenters.sentences.say`, which alone holds the templates (and
so alone calls Babel).  Programs read the error's ``code``; people read what ``say``
makes of its sentences.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Sentence:
    """One thing to tell a person: ``id`` names the template in the presenters'
    catalogue, ``params`` fill its named placeholders with typed values."""

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)


def sentence(id: str, **params: Any) -> Sentence:
    """``sentence("game-over", number=3)``: a :class:`Sentence` with those parameters."""
    return Sentence(id, params)


class SentenceError(ValueError):
    """A service's refusal, as data: ``sentence`` says why (worded by the presenters'
    ``say``), ``code`` is its id for programs, ``field`` the form field at fault if any."""

    def __init__(self, said: Sentence, field: str | None = None) -> None:
        super().__init__(said.id)
        self.code = said.id
        self.sentence = said
        self.field = field
