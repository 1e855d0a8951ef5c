"""deploy/units.py reads a systemd unit as systemd does, so that ``make test-deploy``
starts exactly what the unit would run (no root, no systemd needed here): the one
``ExecStart=``, its user's environment, the ``EnvironmentFile=`` (quotes taken off, a
``&`` kept), ``Environment=``, ``WorkingDirectory=``, capabilities and NoNewPrivileges."""

from __future__ import annotations

import pwd
from pathlib import Path

import pytest

from deploy import units

NOBODY = pwd.getpwnam("nobody")


def unit(tmp_path: Path, text: str) -> str:
    path = tmp_path / "try.service"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_web_unit_is_run_as_its_user_with_its_settings(tmp_path: Path) -> None:
    settings = tmp_path / "scorebook.env"
    settings.write_text('# the settings\nDATABASE_URL="postgresql+psycopg://u@/db?host=/run&port=5433"\n'
                        "SECRET_KEY='abc'\nTHREADS=4\n\n", encoding="utf-8")
    found = units.command(unit(tmp_path, f"""[Unit]
Description=a web instance
ExecStart=/bin/false

[Service]
User=nobody
WorkingDirectory={tmp_path}
EnvironmentFile={settings}
EnvironmentFile=-{tmp_path}/absent.env
Environment="GREETING=hello world" PLAIN=1
ExecStart=/opt/venv/bin/gunicorn --workers 2 \\
    --bind 127.0.0.1:8001 app:create_app()
NoNewPrivileges=true
"""))
    assert found.argv == [
        "setpriv", "--reuid=nobody", f"--regid={found.argv[2].split('=')[1]}", "--init-groups",
        "--no-new-privs", "--", "/opt/venv/bin/gunicorn", "--workers", "2", "--bind",
        "127.0.0.1:8001", "app:create_app()"]
    assert found.cwd == str(tmp_path) and found.user == "nobody"
    assert found.env["DATABASE_URL"] == "postgresql+psycopg://u@/db?host=/run&port=5433"
    assert found.env["SECRET_KEY"] == "abc" and found.env["THREADS"] == "4"
    assert found.env["GREETING"] == "hello world" and found.env["PLAIN"] == "1"
    assert found.env["HOME"] == NOBODY.pw_dir and found.env["USER"] == "nobody"


def test_capabilities_and_expansions(tmp_path: Path) -> None:
    found = units.command(unit(tmp_path, """[Service]
User=nobody
Group=nogroup
Environment=CONFIG=/etc/caddy/Caddyfile
AmbientCapabilities=CAP_NET_BIND_SERVICE
ExecStart=/usr/bin/caddy run --config ${CONFIG} --adapter $ADAPTER
"""))
    assert found.argv[:6] == ["setpriv", "--reuid=nobody", "--regid=nogroup", "--init-groups",
                              "--inh-caps=+net_bind_service", "--ambient-caps=+net_bind_service"]
    assert found.argv[7:] == ["/usr/bin/caddy", "run", "--config", "/etc/caddy/Caddyfile",
                              "--adapter", "$ADAPTER"]  # (unset: left as written)
    assert found.cwd == "/"


def test_a_unit_without_exactly_one_command_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="one ExecStart"):
        units.command(unit(tmp_path, "[Service]\nUser=nobody\n"))
    with pytest.raises(ValueError, match="one ExecStart"):
        units.command(unit(tmp_path, "[Service]\nExecStart=/bin/a\nExecStart=/bin/b\n"))
    # an empty ExecStart= resets the list, as in a drop-in
    reset = units.command(unit(tmp_path, "[Service]\nUser=nobody\nExecStart=/bin/a\n"
                                         "ExecStart=\nExecStart=/bin/b x\n"))
    assert reset.argv[-2:] == ["/bin/b", "x"]
