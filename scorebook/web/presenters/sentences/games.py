"""The wording of the games sentences (see :mod:`scorebook.web.presenters.sentences`)."""

from __future__ import annotations
