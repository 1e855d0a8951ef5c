"""The application factory: configuration, instance folder, errors, languages."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask, abort, request
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import text

from app import create_app
from scorebook.config import normalize_database_url
from scorebook.extensions import NAMING_CONVENTION, db


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)


# --- configuration ----------------------------------------------------------


def test_create_app_without_test_config_is_not_testing(tmp_path: Path, clean_env: None) -> None:
    app = create_app(instance_path=tmp_path)
    assert not app.testing
    assert app.instance_path == str(tmp_path.resolve())


def test_app_fixture_is_testing(app: Flask) -> None:
    assert app.testing


def test_default_database_is_sqlite_in_instance_folder(tmp_path: Path, clean_env: None) -> None:
    app = create_app(instance_path=tmp_path)
    expected = "sqlite:///" + str(tmp_path.resolve() / "scorebook.sqlite3")
    assert app.config["SQLALCHEMY_DATABASE_URI"] == expected


def test_instance_folder_is_created(tmp_path: Path, clean_env: None) -> None:
    instance = tmp_path / "not" / "yet"
    create_app(instance_path=instance)
    assert instance.is_dir()


def test_instance_config_overrides_defaults(tmp_path: Path, clean_env: None) -> None:
    (tmp_path / "config.py").write_text("MAX_CONTENT_LENGTH = 1234\n")
    app = create_app(instance_path=tmp_path)
    assert app.config["MAX_CONTENT_LENGTH"] == 1234


def test_instance_config_is_ignored_with_test_config(tmp_path: Path, clean_env: None) -> None:
    (tmp_path / "config.py").write_text("MAX_CONTENT_LENGTH = 1234\n")
    app = create_app({"SECRET_KEY": "x"}, instance_path=tmp_path)
    assert app.config["MAX_CONTENT_LENGTH"] != 1234


def test_database_url_env_overrides_default_and_instance_config(
    tmp_path: Path, clean_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config.py").write_text("SQLALCHEMY_DATABASE_URI = 'sqlite:///from-file.db'\n")
    url = "sqlite:///" + str(tmp_path / "from-env.db")
    monkeypatch.setenv("DATABASE_URL", url)
    app = create_app(instance_path=tmp_path)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == url


def test_test_config_overrides_environment(
    tmp_path: Path, clean_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", "sqlite:///" + str(tmp_path / "from-env.db"))
    monkeypatch.setenv("SECRET_KEY", "from-env")
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "from-test"},
        instance_path=tmp_path,
    )
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite://"
    assert app.config["SECRET_KEY"] == "from-test"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgres://u:p@db:5432/rummy", "postgresql+psycopg://u:p@db:5432/rummy"),
        ("postgresql://u@db/rummy", "postgresql+psycopg://u@db/rummy"),
        ("postgresql+psycopg://u@db/rummy", "postgresql+psycopg://u@db/rummy"),
        ("sqlite:////tmp/x.sqlite3", "sqlite:////tmp/x.sqlite3"),
    ],
)
def test_database_url_is_normalised_for_psycopg(url: str, expected: str) -> None:
    assert normalize_database_url(url) == expected


# --- secret key -------------------------------------------------------------


def test_secret_key_is_generated_once_and_reused(tmp_path: Path, clean_env: None) -> None:
    first = create_app(instance_path=tmp_path).config["SECRET_KEY"]
    key_file = tmp_path / "secret_key"
    assert key_file.read_text().strip() == first
    assert len(first) == 64 and int(first, 16) >= 0
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    assert create_app(instance_path=tmp_path).config["SECRET_KEY"] == first
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no temp files left


def test_secret_key_env_overrides_and_writes_nothing(
    tmp_path: Path, clean_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-env")
    assert create_app(instance_path=tmp_path).config["SECRET_KEY"] == "from-env"
    assert not (tmp_path / "secret_key").exists()


def test_empty_secret_key_file_is_an_error(tmp_path: Path, clean_env: None) -> None:
    (tmp_path / "secret_key").write_text("")
    with pytest.raises(RuntimeError, match="empty"):
        create_app(instance_path=tmp_path)


# --- database ---------------------------------------------------------------


def test_sqlite_enforces_foreign_keys(app: Flask) -> None:
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        with app.app_context():
            assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_models_share_the_constraint_naming_convention() -> None:
    assert db.metadata.naming_convention == NAMING_CONVENTION


def test_init_db_command(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0
    assert "Initialized the database." in result.output


# --- errors: JSON under /api/ -------------------------------------------------


def test_unknown_api_url_is_404_json(client: FlaskClient) -> None:
    response = client.get("/api/v1/nope")
    assert response.status_code == 404
    assert response.is_json
    error = response.get_json()["error"]
    assert error["code"] == "not_found"
    assert error["message"]


@pytest.fixture
def api_test_app(make_app: Callable[..., Flask]) -> Flask:
    """An app with throwaway routes under /api/ that fail in each way."""
    app = make_app(PROPAGATE_EXCEPTIONS=False, MAX_CONTENT_LENGTH=10)

    @app.post("/api/v1/_test/post-only")
    def post_only() -> str:
        request.get_data()  # reading the body enforces MAX_CONTENT_LENGTH
        return "ok"

    @app.get("/api/v1/_test/conflict")
    def conflict() -> str:
        abort(409, description="That hand is already recorded.")

    @app.get("/api/v1/_test/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    @app.get("/_test/boom")
    def html_boom() -> str:
        raise RuntimeError("secret internals")

    return app


def test_api_405_is_json_with_allow_header(api_test_app: Flask) -> None:
    response = api_test_app.test_client().get("/api/v1/_test/post-only")
    assert response.status_code == 405
    assert response.get_json()["error"]["code"] == "method_not_allowed"
    assert "POST" in response.headers["Allow"]


def test_api_abort_description_becomes_the_message(api_test_app: Flask) -> None:
    response = api_test_app.test_client().get("/api/v1/_test/conflict")
    assert response.status_code == 409
    assert response.get_json() == {
        "error": {"code": "conflict", "message": "That hand is already recorded."}
    }


def test_api_413_is_json(api_test_app: Flask) -> None:
    response = api_test_app.test_client().post("/api/v1/_test/post-only", data="x" * 100)
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "payload_too_large"


def test_api_500_is_generic_json_and_logged(
    api_test_app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    response = api_test_app.test_client().get("/api/v1/_test/boom")
    assert response.status_code == 500
    error = response.get_json()["error"]
    assert error["code"] == "internal_error"
    assert "secret internals" not in error["message"]
    assert "/api/v1/_test/boom" in caplog.text


# --- errors: friendly pages elsewhere ------------------------------------------


def test_html_404_page(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "Page not found" in page
    assert 'href="/"' in page
    assert "Rummy Scorebook" in page
    # no inline script (the site's own offline.js, by src, is on every page)
    assert not re.search(r"<script(?![^>]*\bsrc=)", page) and "style=" not in page


def test_html_500_page_hides_internals(api_test_app: Flask) -> None:
    response = api_test_app.test_client().get("/_test/boom")
    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "Something went wrong" in page
    assert "secret internals" not in page


def test_stale_form_is_a_friendly_400(make_app: Callable[..., Flask]) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)

    @app.post("/_test/form")
    def form() -> str:
        return "saved"

    response = app.test_client().post("/_test/form", data={"x": "1"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "stale" in page
    assert response.mimetype == "text/html"


def test_a_form_left_open_for_hours_still_saves(make_app: Callable[..., Flask],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand can take long: the page's CSRF token is still good hours later."""
    import itsdangerous.timed

    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    later = itsdangerous.timed.time.time() + 5 * 3600
    monkeypatch.setattr(itsdangerous.timed.time, "time", lambda: later)
    made = client.post("/games/new", data={"csrf_token": token, "players-0": "A",
                                           "players-1": "B", "family": "pagat-500",
                                           "first_dealer": "0", "min_natural_cards": "1"})
    assert made.status_code == 302


# --- languages ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("accept", "lang"),
    [("es-ES,es;q=0.9", "es"), ("it", "it"), ("fr-FR,fr", "en"), ("de, it;q=0.5", "it")],
)
def test_page_language_follows_browser(client: FlaskClient, accept: str, lang: str) -> None:
    page = client.get("/no-such-page", headers={"Accept-Language": accept}).get_data(as_text=True)
    assert f'<html lang="{lang}">' in page


def test_session_language_wins_over_browser(client: FlaskClient) -> None:
    with client.session_transaction() as session:
        session["lang"] = "it"
    page = client.get("/no-such-page", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<html lang="it">' in page
