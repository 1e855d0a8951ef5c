"""Start what a systemd unit runs, where systemd is not the init process (a container, CI).

``make test-deploy`` checks the units ``deploy.sh`` writes with ``systemd-analyze verify``,
then starts exactly the command each one runs (its ``ExecStart=``), the way systemd would:
as its ``User=``/``Group=`` (with their ``HOME``, ``USER``, ``LOGNAME``, ``SHELL``), in its
``WorkingDirectory=``, with its ``EnvironmentFile=`` and ``Environment=``, its
``AmbientCapabilities=`` (Caddy binds port 443 as the user caddy), ``NoNewPrivileges=``
and ``RuntimeDirectory=`` (redis-server's /run/redis). Debian's own units (caddy,
redis-server) are read the same way. What it does not do (sandboxing such as
``ProtectSystem=``, cgroups, restarts) is systemd's alone; ``systemd-analyze verify``
checks those lines.

    python3 deploy/units.py show UNIT...    print the command each unit runs, as run here
"""

from __future__ import annotations

import grp
import os
import pwd
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: Where a unit named without a folder is looked for, in systemd's order.
UNIT_FOLDERS = [Path("/etc/systemd/system"), Path("/lib/systemd/system"),
                Path("/usr/lib/systemd/system")]
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


@dataclass
class Unit:
    path: Path
    service: dict[str, list[str]] = field(default_factory=dict)

    def get(self, key: str, default: str = "") -> str:
        values = self.service.get(key)
        return values[-1] if values else default

    def all(self, key: str) -> list[str]:
        return self.service.get(key, [])


def find(name: str) -> Path:
    path = Path(name)
    if path.is_absolute():
        return path
    for folder in UNIT_FOLDERS:
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(f"no unit {name} in {', '.join(map(str, UNIT_FOLDERS))}")


def read(name: str) -> Unit:
    """The ``[Service]`` section of a unit (continued lines joined; an empty assignment
    resets a list, as systemd reads it)."""
    unit = Unit(find(name))
    section = ""
    pending = ""
    for raw in unit.path.read_text(encoding="utf-8").splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        if section != "Service" or "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if value == "":
            unit.service[key] = []
        else:
            unit.service.setdefault(key, []).append(value)
    return unit


def environment_file(path: str) -> dict[str, str]:
    """``KEY=VALUE`` lines, quotes taken off, comments skipped (systemd's reading)."""
    optional = path.startswith("-")
    file = Path(path.lstrip("-"))
    if not file.exists() and optional:
        return {}
    values: dict[str, str] = {}
    for line in file.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line[0] in "#;" or "=" not in line:
            continue
        key, value = line.split("=", 1)
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def expand(word: str, env: dict[str, str]) -> str:
    """``${NAME}`` and ``$NAME`` from the unit's environment, as systemd expands them."""
    for name in sorted(env, key=len, reverse=True):
        word = word.replace("${" + name + "}", env[name])
        if word == "$" + name:
            word = env[name]
    return word


@dataclass
class Command:
    unit: str
    argv: list[str]
    env: dict[str, str]
    cwd: str
    user: str

    def popen(self, **options: object) -> subprocess.Popen[bytes]:
        return subprocess.Popen(self.argv, env=self.env, cwd=self.cwd,  # type: ignore[call-overload]
                                start_new_session=True, **options)


def command(name: str) -> Command:
    """What systemd would run for the unit ``name``: its one ``ExecStart=``, wrapped in
    ``setpriv`` for its user, group, capabilities and NoNewPrivileges."""
    unit = read(name)
    starts = unit.all("ExecStart")
    if len(starts) != 1:
        raise ValueError(f"{unit.path}: expected one ExecStart=, found {len(starts)}")
    line = starts[0].lstrip("-@+!:")
    user = unit.get("User", "root")
    entry = pwd.getpwnam(user)
    group = unit.get("Group") or grp.getgrgid(entry.pw_gid).gr_name
    env = {"PATH": DEFAULT_PATH, "LANG": os.environ.get("LANG", "C.UTF-8"),
           "HOME": entry.pw_dir, "USER": user, "LOGNAME": user, "SHELL": entry.pw_shell}
    for path in unit.all("EnvironmentFile"):
        env.update(environment_file(path))
    for assignment in unit.all("Environment"):
        for word in shlex.split(assignment):
            key, _, value = word.partition("=")
            env[key] = value
    argv = [expand(word, env) for word in shlex.split(line)]
    for folder in unit.all("RuntimeDirectory"):
        for name_ in folder.split():
            path = Path("/run") / name_
            path.mkdir(parents=True, exist_ok=True)
            os.chown(path, entry.pw_uid, grp.getgrnam(group).gr_gid)
            path.chmod(int(unit.get("RuntimeDirectoryMode", "0755"), 8))
    wrapper = ["setpriv", f"--reuid={user}", f"--regid={group}", "--init-groups"]
    caps = [cap.lower().removeprefix("cap_") for cap in
            " ".join(unit.all("AmbientCapabilities")).split()]
    if caps:
        listed = ",".join("+" + cap for cap in caps)
        wrapper += [f"--inh-caps={listed}", f"--ambient-caps={listed}"]
    if unit.get("NoNewPrivileges").lower() in {"true", "yes", "1", "on"}:
        wrapper.append("--no-new-privs")
    cwd = unit.get("WorkingDirectory", "/").lstrip("-")
    if cwd == "~":
        cwd = entry.pw_dir
    return Command(name, wrapper + ["--"] + argv, env, cwd, user)


def main(arguments: list[str]) -> int:
    if len(arguments) < 2 or arguments[0] != "show":
        print(__doc__, file=sys.stderr)
        return 2
    for name in arguments[1:]:
        found = command(name)
        print(f"{name}: as {found.user} in {found.cwd}: {shlex.join(found.argv)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
