"""The services' sentences as data, worded only by the presenters' catalogue."""

from __future__ import annotations

import pytest

from scorebook.presenters import sentences
from scorebook.presenters.sentences import say, say_all, words
from scorebook.services.errors import Sentence, sentence


def test_a_sentence_is_its_id_and_typed_parameters() -> None:
    said = sentence("some-id", name="Ann", number=3)
    assert said == Sentence("some-id", {"name": "Ann", "number": 3})


def test_a_registered_wording_fills_the_parameters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sentences, "_CATALOGUE", {})

    @words("test-count")
    def _count(params):  # type: ignore[no-untyped-def]
        return f"{params['name']} has {params['number']}."

    assert say(sentence("test-count", name="Ann", number=3)) == "Ann has 3."
    assert say_all([sentence("test-count", name="A", number=1),
                    sentence("test-count", name="B", number=2)]) == "A has 1. B has 2."
    with pytest.raises(ValueError, match="worded twice"):
        words("test-count")(_count)


def test_an_unknown_sentence_is_a_programming_error_not_a_blank() -> None:
    with pytest.raises(LookupError, match="no wording"):
        say(sentence("no-such-sentence"))
