"""Flask-WTF forms of the league pages: the roster, seasons, importing a league."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import DateField, StringField
from wtforms.validators import InputRequired, Length, Optional

from scorebook.plain_text import PlainText
from scorebook.services.access import MAX_LEAGUE_NAME
from scorebook.services.games import MAX_NAME_LENGTH
from scorebook.services.league import MAX_SEASON_NAME
from scorebook.services.seasons import FIRST_DAY, LAST_DAY

#: A season's days, as the date fields offer them (the service refuses others in words).
DAYS_KEPT = {"min": FIRST_DAY.isoformat(), "max": LAST_DAY.isoformat()}


class PlayerNameForm(FlaskForm):
    """Add a player, or rename one."""

    name = StringField(_l("Name"), validators=[InputRequired(_l("Give the player a name.")),
                                               PlainText()],
                       render_kw={"maxlength": MAX_NAME_LENGTH, "autocomplete": "off",
                                  "autocapitalize": "words"})


class ActionForm(FlaskForm):
    """A button that changes something (retire, bring back, delete): only the token."""


class SeasonForm(FlaskForm):
    name = StringField(_l("Name"), validators=[InputRequired(_l("Give the season a name.")),
                                               PlainText()],
                       render_kw={"maxlength": MAX_SEASON_NAME, "autocomplete": "off"})
    starts_on = DateField(_l("First day"), validators=[Optional()], render_kw=DAYS_KEPT)
    ends_on = DateField(_l("Last day"), validators=[Optional()], render_kw=DAYS_KEPT)


class ImportForm(FlaskForm):
    file = FileField(_l("League file (JSON, or compressed: .json.gz)"),
                     validators=[FileRequired(_l("Choose the file to import."))])
    #: The imported league's name here, when the file's is taken (or not wanted).
    name = StringField(_l("New name for the league (optional)"),
                       validators=[Optional(), Length(max=MAX_LEAGUE_NAME), PlainText()],
                       render_kw={"maxlength": MAX_LEAGUE_NAME, "autocomplete": "off",
                                  "autocapitalize": "words"})
