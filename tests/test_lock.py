"""The lock files agree with pyproject.toml: every direct dependency is pinned, with hashes,
at a version its range allows, and the two locks pin the same versions. A range changed
without ``make lock`` (or a lock edited by hand) fails here, offline, before CI installs
something else than what was asked for."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
LOCKS = {"dev": ROOT / "requirements" / "dev.txt", "dev-pg": ROOT / "requirements" / "dev-pg.txt",
         "deploy": ROOT / "requirements" / "deploy.txt"}
EXTRAS = {"dev": ("dev",), "dev-pg": ("dev", "pg", "redis"), "deploy": ("pg", "redis")}
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^ ;\\]+)(?: ;([^\\]+))? \\$")


def pins(lock: Path) -> dict[str, list[tuple[Version, str | None, int]]]:
    """``{name: [(version, marker, number of hashes)]}`` (a name is pinned twice when
    Python versions need different releases)."""
    found: dict[str, list[tuple[Version, str | None, int]]] = {}
    lines = lock.read_text(encoding="utf-8").splitlines()
    for at, line in enumerate(lines):
        match = PIN.match(line)
        if match is None:
            continue
        hashes = 0
        for following in lines[at + 1:]:
            if not following.strip().startswith("--hash=sha256:"):
                break
            hashes += 1
        name, version, marker = match.groups()
        found.setdefault(canonicalize_name(name), []).append(
            (Version(version), marker.strip() if marker else None, hashes))
    return found


def wanted(lock: str) -> list[Requirement]:
    requirements = list(PROJECT["dependencies"])
    for extra in EXTRAS[lock]:
        requirements += PROJECT["optional-dependencies"][extra]
    build = (ROOT / "requirements" / "build.in").read_text(encoding="utf-8").splitlines()
    requirements += [line for line in build if line.strip() and not line.startswith("#")]
    return [Requirement(text) for text in requirements]


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_direct_dependency_is_pinned_in_its_range(lock: str) -> None:
    locked = pins(LOCKS[lock])
    assert locked, f"{LOCKS[lock]} pins nothing"
    for requirement in wanted(lock):
        versions = locked.get(canonicalize_name(requirement.name))
        assert versions, f"{requirement} is not in {LOCKS[lock].name}: run make lock"
        for version, marker, _ in versions:
            if marker is None or Marker(marker).evaluate({"python_full_version": "3.11.0"}):
                assert version in requirement.specifier, \
                    f"{LOCKS[lock].name} pins {requirement.name}=={version}, outside " \
                    f"{requirement.specifier}: run make lock"


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_pin_has_hashes(lock: str) -> None:
    for name, versions in pins(LOCKS[lock]).items():
        for version, _, hashes in versions:
            assert hashes >= 1, f"{name}=={version} in {LOCKS[lock].name} has no hash"


def test_the_locks_agree_and_only_pg_has_the_driver() -> None:
    dev, dev_pg = pins(LOCKS["dev"]), pins(LOCKS["dev-pg"])
    for name, versions in dev.items():
        assert [v for v, _, _ in dev_pg.get(name, [])] == [v for v, _, _ in versions], name
    assert "psycopg" in dev_pg and "psycopg" not in dev


def test_the_deploy_lock_is_dev_pg_without_the_tools() -> None:
    """What `make deploy` installs on a server runs the versions the tests ran: every pin
    of deploy.txt is dev-pg.txt's, with the driver and Redis's client, and none of the
    tools (pytest, the browser driver) comes along."""
    deploy, dev_pg = pins(LOCKS["deploy"]), pins(LOCKS["dev-pg"])
    for name, versions in deploy.items():
        assert [v for v, _, _ in dev_pg.get(name, [])] == [v for v, _, _ in versions], name
    assert "psycopg" in deploy and "redis" in deploy and "redis" not in pins(LOCKS["dev"])
    for tool in ("pytest", "playwright", "mypy", "ruff"):
        assert tool not in deploy, tool
