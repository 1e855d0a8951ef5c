"""The wording of the hands sentences (see :mod:`scorebook.web.presenters.sentences`)."""

from __future__ import annotations
