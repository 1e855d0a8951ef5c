"""The rule book pages: every rule of a family in our own words, each with its id
as an anchor that verdicts link to, and every house-rule option explained."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from referee.rulebook import OPTION_TEXTS, SECTIONS, rules_for
from referee.rules import FAMILIES, FAMILY_NAMES, make_rules
from scorebook.presenters.i18n import option_label
from scorebook.web.games.forms import CHOICE_WORDS

bp = Blueprint("rulebook", __name__)


@bp.get("/")
def index() -> str:
    return render_template("rulebook/index.html", families=FAMILIES, names=FAMILY_NAMES)


@bp.get("/<family>")
def family(family: str) -> str:
    if family not in FAMILIES:
        abort(404)
    rules = rules_for(family)
    sections = [(key, title, [r for r in rules if r.section == key])
                for key, title in SECTIONS.items()]
    defaults = make_rules(family).as_dict()
    # house rules by their name in the page's language, as the new-game form shows them
    # (the option's id stays in the anchor only)
    labels = {name: option_label(name) for name in OPTION_TEXTS}
    words = {name: {value: str(text) for value, text in pairs}
             for name, pairs in CHOICE_WORDS.items()}
    return render_template("rulebook/family.html", family=family, names=FAMILY_NAMES,
                           families=FAMILIES, sections=[s for s in sections if s[2]],
                           options=OPTION_TEXTS, defaults=defaults, option_labels=labels,
                           choice_words=words)
