"""The wording of the access sentences (see :mod:`scorebook.web.presenters.sentences`)."""

from __future__ import annotations
