"""The wording of the league sentences (see :mod:`scorebook.web.presenters.sentences`)."""

from __future__ import annotations
