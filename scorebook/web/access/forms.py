"""Flask-WTF forms of the league access pages: a new league, logging in to one, the
owner's settings and the buttons that change who may come in."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import EqualTo, InputRequired, Length

from scorebook.plain_text import PlainText
from scorebook.services.access import MAX_LEAGUE_NAME, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH

_PASSWORD_LENGTH = Length(
    min=MIN_PASSWORD_LENGTH, max=MAX_PASSWORD_LENGTH,
    message=_l("A password needs from %(min)d to %(max)d characters."))


def _league_name() -> StringField:
    return StringField(_l("League name"),
                       validators=[InputRequired(_l("Give the league a name.")), PlainText(),
                                   Length(max=MAX_LEAGUE_NAME, message=_l(
                                       "A league's name can be at most %(max)d characters "
                                       "long."))],
                       render_kw={"maxlength": MAX_LEAGUE_NAME, "autocomplete": "off"})


class NewLeagueForm(FlaskForm):
    name = _league_name()
    password = PasswordField(_l("Password"),
                             validators=[InputRequired(_l("Choose a password.")),
                                         _PASSWORD_LENGTH],
                             render_kw={"autocomplete": "new-password"})
    confirm = PasswordField(_l("The password again"),
                            validators=[EqualTo("password", _l("The two passwords differ."))],
                            render_kw={"autocomplete": "new-password"})


class LoginForm(FlaskForm):
    name = StringField(_l("League name"),
                       validators=[InputRequired(_l("Give the league's name.")), PlainText()],
                       render_kw={"maxlength": MAX_LEAGUE_NAME, "autocomplete": "username"})
    password = PasswordField(_l("Password"),
                             validators=[InputRequired(_l("Give the league's password."))],
                             render_kw={"autocomplete": "current-password"})


class RenameLeagueForm(FlaskForm):
    name = _league_name()


class PasswordForm(FlaskForm):
    current = PasswordField(_l("Current password"),
                            render_kw={"autocomplete": "current-password"})
    password = PasswordField(_l("New password"),
                             validators=[InputRequired(_l("Choose a password.")),
                                         _PASSWORD_LENGTH],
                             render_kw={"autocomplete": "new-password"})
    confirm = PasswordField(_l("The new password again"),
                            validators=[EqualTo("password", _l("The two passwords differ."))],
                            render_kw={"autocomplete": "new-password"})


class ButtonForm(FlaskForm):
    """A button that changes something (join, open, leave, a link): only the token."""
