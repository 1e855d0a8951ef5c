"""Getting into a league and letting others in: this browser's leagues, a new league,
logging in with a league's name and password, joining with an invite link, and the
owner's settings (the league's name, its password, the scorer and viewer links).

The password endpoints and the invite links are rate-limited per client address
(``PASSWORD_RATE_LIMIT``, ``INVITE_RATE_LIMIT``); only failed tries count.
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from sqlalchemy import func, or_, select
from werkzeug.wrappers import Response

from scorebook.extensions import db, limiter
from scorebook.models import League
from scorebook.presenters import links
from scorebook.presenters.bidi import isolate
from scorebook.presenters.i18n import safe_next
from scorebook.services import access, history, invites, sharing
from scorebook.services.access import INVITE_ROLES, OWNER, SCORER, VIEWER
from scorebook.services.transaction import transaction
from scorebook.web import Page, membership
from scorebook.web.access.forms import (
    ButtonForm,
    LoginForm,
    NewLeagueForm,
    PasswordForm,
    RenameLeagueForm,
)

bp = Blueprint("access", __name__)



def _too_many() -> str:
    return gettext("Too many tries from this device. Wait a few minutes, then try again.")


def _failed(response: Response) -> bool:
    return response.status_code >= 400


def _wrong_password(response: Response) -> bool:
    """Only a password that did not match counts towards the limit: a form refused for
    a short new password or a typo in its confirmation guesses nothing."""
    return bool(g.get("wrong_password"))


password_limit = limiter.shared_limit(
    lambda: str(current_app.config["PASSWORD_RATE_LIMIT"]), scope="password",
    methods=["POST"], deduct_when=_wrong_password, error_message=_too_many)
invite_limit = limiter.shared_limit(
    lambda: str(current_app.config["INVITE_RATE_LIMIT"]), scope="invite",
    deduct_when=_failed, error_message=_too_many)


def _next() -> str:
    target = request.args.get("next")
    return safe_next(target) if target else url_for("league.standings")


def _name_refused() -> str:
    """The answer when a league's name is taken: it neither names nor confirms the other
    league (whose members alone may know it exists)."""
    return gettext("That name cannot be used for this league: choose another, e.g. with "
                   "your family's or town's name in it.")


def _clean(name: str | None) -> str:
    return " ".join((name or "").split())


def _field_errors(form: Any) -> dict[str, str]:
    return {field.name: " ".join(str(m) for m in field.errors) for field in form if field.errors}


def _stale_form() -> str:
    return gettext("The form was stale or opened in another tab; please try again.")


# --- this browser's leagues ----------------------------------------------------------------


@bp.get("/leagues")
def leagues() -> str:
    return render_template("access/leagues.html", leagues=membership.member_leagues(),
                           current=membership.current_league_or_none(), form=ButtonForm(),
                           next=request.args.get("next") or "")


@bp.post("/leagues/<int:league_id>/open")
@access.requires(VIEWER)
def open_league(league_id: int) -> Response:
    if not ButtonForm().validate_on_submit():
        abort(400)
    session["league"] = league_id
    return redirect(_next())


@bp.route("/leagues/<int:league_id>/leave", methods=["GET", "POST"])
@access.requires(VIEWER)
def leave(league_id: int) -> Page:
    """Any member leaves the league on this browser: the page says what it means (and,
    to an owner without a password, what to do first), its button leaves."""
    league = db.get_or_404(League, league_id)
    role = membership.role_in(league)
    stranded = role == OWNER and not league.password_hash
    if request.method == "GET":
        return render_template("access/leave.html", league=league, role=role,
                               stranded=stranded, form=ButtonForm())
    if not ButtonForm().validate_on_submit():
        abort(400)
    if stranded:
        flash(gettext("Set a password for %(name)s before you leave it: without one, nobody "
                      "could ever open it again.", name=isolate(league.name)))
        return redirect(url_for("access.settings", league_id=league.id, _anchor="league-password"))
    with transaction():
        # ended server-side too (a copied cookie is out), and its owner sees who left
        access.forget(session, league.id, request.headers.get("User-Agent", ""))
    flash(gettext("This browser has left %(name)s.", name=isolate(league.name)))
    return redirect(url_for("access.leagues"))


@bp.route("/leagues/new", methods=["GET", "POST"])
@password_limit
def new_league() -> Page:
    form = NewLeagueForm()
    errors: dict[str, str] = {}
    if form.validate_on_submit():
        name = _clean(form.name.data)
        if not name:
            errors["name"] = gettext("Give the league a name.")
        else:
            try:
                league = access.create_league(name, form.password.data or "")
            except access.LeagueNameTaken:
                # Never confirm that a league of that name exists (anyone may ask), and
                # count the refusal as a failed try: names cannot be probed faster than
                # passwords.  (Taken a moment ago by another browser: the same answer.)
                g.wrong_password = True
                errors["name"] = _name_refused()
            else:
                access.remember(session, league, OWNER)
                session.permanent = True
                flash(gettext("%(name)s is yours: share its links from its settings.",
                              name=isolate(league.name)))
                return redirect(url_for("access.settings", league_id=league.id))
    elif form.is_submitted():
        errors = _field_errors(form) or {"form": _stale_form()}
    page = render_template("access/new.html", form=form, errors=errors)
    return (page, 400) if errors else page


@bp.route("/leagues/login", methods=["GET", "POST"])
@password_limit
def login() -> Page:
    form = LoginForm()
    error = None
    if form.validate_on_submit():
        name = _clean(form.name.data)
        league = db.session.scalar(select(League).where(
            func.lower(League.name) == name.lower()))
        if access.password_matches(league, form.password.data or ""):
            assert league is not None
            access.remember(session, league, OWNER)
            session.permanent = True
            flash(gettext("Welcome back to %(name)s.", name=isolate(league.name)))
            return redirect(_next())
        g.wrong_password = True
        error = gettext("No league has that name and password.")
    elif form.is_submitted():
        error = " ".join(m for m in _field_errors(form).values()) or _stale_form()
    page = render_template("access/login.html", form=form, error=error,
                           next=request.args.get("next") or "")
    return (page, 400) if error else page


# --- invite links ------------------------------------------------------------------------------


def _stopped() -> str:
    return gettext(
        "This invite link does not work (any more): its league's owner may have "
        "stopped it or made a new one. Ask them for the link they use now.")


def _invited(token: str) -> tuple[League, str]:
    """The league and role an invite token opens; 404 for an unknown or revoked one."""
    if not 20 <= len(token) <= 100:
        abort(404)
    stopped = _stopped()
    if invites.is_door_token(token):  # a scanned code (scorebook.services.invites)
        found = invites.opened_by(token)
        if found is None:
            abort(404, description=stopped)
        return found
    digest = access.token_hash(token)
    league = db.session.scalar(select(League).where(or_(
        League.scorer_token_hash == digest, League.viewer_token_hash == digest)))
    if league is None:
        abort(404, description=stopped)
    return league, SCORER if league.scorer_token_hash == digest else VIEWER


@bp.route("/join/<token>", methods=["GET", "POST"])
@invite_limit
def join(token: str) -> Page:
    """An invite link: checked, kept in the session, and the browser sent on to ``/join``
    without the token, so the secret stays out of the history, the Referer and the
    access logs of anything behind the first request (proxies: do not log /join/…)."""
    league, role = _invited(token)
    # Where the phone goes once in: the game whose code it scanned (?next=), else the league.
    landing = safe_next(request.args["next"]) if request.args.get("next") else None
    if request.method == "GET":
        # a note of the door, never the token: the cookie may be read on a LAN's plain http
        session["invite"] = invites.invite_note(league, role)
        session["invite_next"] = landing
        return redirect(url_for("access.invite"), code=303)
    return _join(league, role, landing)


@bp.route("/join", methods=["GET", "POST"])
@invite_limit
def invite() -> Page:
    """The invite the browser opened last (kept in its session): join with one tap."""
    note = session.get("invite")
    if note is None or isinstance(note, str):  # (a token, kept by an older version: gone)
        session.pop("invite", None)
        abort(400, description=gettext(
            "Open the invite link you were sent again: this page shows the league it "
            "invites you to."))
    found = invites.noted_invite(note)
    if found is None:
        abort(404, description=_stopped())
    league, role = found
    landing = session.get("invite_next")
    return _join(league, role, safe_next(landing) if isinstance(landing, str) else None)


def _join(league: League, role: str, landing: str | None) -> Page:
    held = membership.role_in(league)
    form = ButtonForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        session.pop("invite", None)
        session.pop("invite_next", None)
        access.remember(session, league, role)
        # who this phone belongs to, if the person said: the history names it so
        history.remember_player(session, league.id, request.form.get("player"))
        session.permanent = True
        if role == SCORER:
            flash(gettext("You can now record hands in %(name)s.", name=isolate(league.name)))
        else:
            flash(gettext("You can now follow %(name)s.", name=isolate(league.name)))
        return redirect(landing or url_for("league.standings"))
    roster = [p.name for p in league.players if p.retired_at is None]
    return render_template("access/join.html", league=league, role=role, held=held, form=form,
                           already=held is not None and access.RANK[held] >= access.RANK[role],
                           landing=landing, roster=roster,
                           player_name=history.player_of(session, league.id),
                           name_length=history.PLAYER_NAME_LENGTH)


# --- the owner's settings ------------------------------------------------------------------------


def _shown_links(league: League) -> dict[str, str | None]:
    """The invite links this browser made and can still show (a link made elsewhere, or
    since replaced, cannot be shown: only its hash is stored)."""
    seeds = membership.link_seeds()
    shown: dict[str, str | None] = {}
    for role in INVITE_ROLES:
        token = invites.token_here(league, role, seeds)
        shown[role] = links.external_url("access.join", token=token) if token else None
    return shown


def _settings_page(league: League, rename: RenameLeagueForm | None = None,
                   password: PasswordForm | None = None,
                   errors: dict[str, str] | None = None) -> Page:
    page = render_template(
        "access/settings.html", league=league,
        rename=rename or RenameLeagueForm(formdata=None, data={"name": league.name}),
        password=password or PasswordForm(formdata=None), button=ButtonForm(),
        links=_shown_links(league), errors=errors or {}, left=access.left(league),
        shared_results=sharing.shares_of(league))
    return (page, 400) if errors else page


@bp.get("/leagues/<int:league_id>/settings")
@access.requires(OWNER)
def settings(league_id: int) -> Page:
    return _settings_page(db.get_or_404(League, league_id))


@bp.post("/leagues/<int:league_id>/name")
@access.requires(OWNER)
@password_limit  # a refused name counts, as a wrong password does
def rename(league_id: int) -> Page:
    league = db.get_or_404(League, league_id)
    form = RenameLeagueForm()
    if form.validate_on_submit():
        name = _clean(form.name.data)
        if not name:
            return _settings_page(league, rename=form,
                                  errors={"name": gettext("Give the league a name.")})
        try:
            access.rename_league(league, name)
        except access.LeagueNameTaken:
            g.wrong_password = True
            return _settings_page(league, rename=form, errors={"name": _name_refused()})
        flash(gettext("The league is now called %(name)s.", name=isolate(name)))
        return redirect(url_for("access.settings", league_id=league.id))
    return _settings_page(league, rename=form,
                          errors={"name": " ".join(_field_errors(form).values())
                                  or _stale_form()})


@bp.post("/leagues/<int:league_id>/password")
@access.requires(OWNER)
@password_limit
def password(league_id: int) -> Page:
    league = db.get_or_404(League, league_id)
    form = PasswordForm()
    if not form.validate_on_submit():
        return _settings_page(league, password=form, errors={
            "password": " ".join(_field_errors(form).values()) or _stale_form()})
    had_one = bool(league.password_hash)
    if had_one and not access.password_matches(league, form.current.data or ""):
        g.wrong_password = True
        return _settings_page(league, password=form, errors={
            "password": gettext("The current password is not right.")})
    with transaction():
        league.password_hash = access.hash_password(form.password.data or "")
    access.remember(session, league, OWNER)  # this browser stays the owner
    session.permanent = True
    if had_one:
        flash(gettext("Password changed. Other devices that logged in with the old one "
                      "must log in again."))
    else:
        flash(gettext("Password set: open %(name)s on any device with its name and this "
                      "password.", name=isolate(league.name)))
    return redirect(url_for("access.settings", league_id=league.id))


def _invite_role(role: str) -> str:
    if role not in INVITE_ROLES:
        abort(404)
    return role


@bp.post("/leagues/<int:league_id>/links/<role>")
@access.requires(OWNER)
def new_link(league_id: int, role: str) -> Response:
    """Make the role's invite link, or replace it (the old one stops working, and the
    browsers that joined with it must join again with the new one)."""
    league = db.get_or_404(League, league_id)
    role = _invite_role(role)
    if not ButtonForm().validate_on_submit():
        abort(400)
    replaced = getattr(league, f"{role}_token_hash") is not None
    with transaction():
        seed = invites.open_door(league, role)
    membership.keep_link_seed(league, role, seed)
    if replaced:
        flash(gettext("A new link replaces the old one, which no longer works."))
    return redirect(url_for("access.settings", league_id=league.id, _anchor=f"{role}-link"))


@bp.post("/leagues/<int:league_id>/links/<role>/revoke")
@access.requires(OWNER)
def revoke_link(league_id: int, role: str) -> Response:
    league = db.get_or_404(League, league_id)
    role = _invite_role(role)
    if not ButtonForm().validate_on_submit():
        abort(400)
    with transaction():
        setattr(league, f"{role}_token_hash", None)
    membership.keep_link_seed(league, role, None)
    flash(gettext("The link no longer works, and whoever joined with it is out."))
    return redirect(url_for("access.settings", league_id=league.id, _anchor=f"{role}-link"))
