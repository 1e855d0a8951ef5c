"""Help texts that name a button, a label or a choice of the site.

A help text never spells a control's words itself: it takes the control's own message
as a placeholder (``_("Tap “%(button)s” next to the first dealer.",
button=control(_("deals first"))))``), so that in every language it names the control
with the words the control shows and the two cannot drift apart ("Tap «fa le carte per
primo»" beside a button that says «distribuisce per primo»).

:func:`control` marks the name in a page (``<span class="control-name"
data-control>``): ``tests/web/test_glossary.py`` renders the pages in Spanish and
Italian and checks that each name marked so is the text of a control on that page (or
the page the help text sends the reader to); and that no English message quotes a
control's words instead of taking them as a placeholder.  Texts for the pages' scripts
(plain strings, no markup) take the control's message the same way, without the mark.
"""

from __future__ import annotations

from flask import Flask
from markupsafe import Markup


def control(label: object) -> Markup:
    """The name of a control, as a help text names it: the control's own (translated)
    words, marked for the tests."""
    return Markup('<span class="control-name" data-control>%s</span>') % (label,)


def init_app(app: Flask) -> None:
    app.jinja_env.globals["control"] = control
