"""The words of the services' sentences: each catalogue id with its template.

A service raises errors carrying :class:`scorebook.services.errors.Sentence` values;
:func:`say` words one in the page's language.  Each area registers its templates in a
module of this package with :func:`words` (one function per id, which formats the
typed parameters — names isolated, cards with their suit symbols — and calls Babel),
so every template is written once, here, and extracted by Babel like any other text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from scorebook.services.errors import Sentence

Wording = Callable[[Mapping[str, Any]], str]

_CATALOGUE: dict[str, Wording] = {}


def words(id: str) -> Callable[[Wording], Wording]:
    """Register the function that words sentence ``id``."""

    def register(fn: Wording) -> Wording:
        if id in _CATALOGUE:
            raise ValueError(f"sentence {id!r} is worded twice")
        _CATALOGUE[id] = fn
        return fn

    return register


def say(sentence: Sentence) -> str:
    """The sentence in the page's language."""
    try:
        wording = _CATALOGUE[sentence.id]
    except KeyError:
        raise LookupError(f"no wording for sentence {sentence.id!r}") from None
    return wording(sentence.params)


def say_all(sentences: Iterable[Sentence]) -> str:
    """Several sentences as one text, each worded and joined by a space."""
    return " ".join(say(s) for s in sentences)


def catalogue() -> frozenset[str]:
    """Every sentence id that has a wording (for the tests)."""
    return frozenset(_CATALOGUE)


# The areas' wordings register themselves on import.
from . import access, exports, games, hands, jobs, league  # noqa: E402, F401
