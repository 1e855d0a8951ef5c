"""The JSON API fuzzed from its own OpenAPI document (schemathesis): for every operation,
bodies, path and query values that fit the document and ones that do not, sent by a
scorer of a real game (so the games endpoints get past the access checks and reach the
scoring).  Whatever comes in, the answer is never a 500.

``FUZZ_EXAMPLES`` (default 25) sets the examples per operation and mode; the run is
derandomized so CI sees the same cases every time (raise it locally to dig deeper).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from referee import make_rules
from scorebook.extensions import db
from scorebook.models import League
from scorebook.services import access, exports, games, hands, jobs, undo
from scorebook.services.entry import entry_from_text

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))


@pytest.fixture
def fuzzed(make_app: Callable[..., Flask]) -> tuple[Flask, dict[str, int], str]:
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    with app.test_request_context():
        # CI runs the suite again on PostgreSQL: the fuzzing must reach that database.
        wanted = os.environ.get("TEST_DATABASE_URL", "sqlite://")
        assert db.engine.url.render_as_string(hide_password=False) == wanted, db.engine.url
        league = League(name="Fuzz", scorer_token_hash=access.token_hash("f" * 43))
        db.session.add(league)
        db.session.commit()
        game = games.create_game(league, ["You", "Ada"], 0, make_rules("pagat-500"))
        hands.record_hand(game, entry_from_text(["You", "Ada"], {
            "You": {"melds": "7s 8s 9s"}, "Ada": {"hand": "kd"}}, "You", None, False, False))
        first = undo.latest(game.id)
        assert first is not None
        # a second hand after it: the undo of the first is refused (409), whatever is sent
        hands.record_hand(game, entry_from_text(["You", "Ada"], {
            "You": {"melds": "7h 8h 9h"}, "Ada": {"hand": "qd"}}, "You", None, False, False))
        session: dict[str, Any] = {}
        access.remember(session, league, access.SCORER)
        # a job this browser asked for (an import waiting for a worker): /jobs/{job_id}
        job = jobs.submit(exports.IMPORT_JOB, f"league:{league.id}", league.id,
                          {"file": ""})
        jobs.remember(session, job.id)
        cookie = app.session_interface.get_signing_serializer(app).dumps(session)  # type: ignore[attr-defined]
        return app, {"game_id": game.id, "number": 1, "league_id": league.id,
                     "step_id": first.id, "job_id": job.id}, cookie


def _past_access(response: Any) -> bool:
    """A 404 that says what is missing past the access checks (the game has no played
    hand: ``not-played``), not that the game is not this browser's."""
    try:
        body = response.json()
    except ValueError:
        return False
    return isinstance(body, dict) and (body.get("error") or {}).get("code") == "not-played"


def test_no_input_makes_a_500(fuzzed: tuple[Flask, dict[str, int], str]) -> None:
    app, ids, cookie = fuzzed
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    operations = sorted((result.ok() for result in schema.get_all_operations()),
                        key=lambda op: op.method.upper() == "DELETE")  # hand 1 stays longest
    assert len(operations) >= 14
    errors: list[str] = []
    tried = 0
    reached: set[str] = set()  # operations whose checks some case got past
    for operation in operations:
        fixed = {p.name: ids[p.name] for p in operation.path_parameters if p.name in ids}
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategy = operation.as_strategy(mode, path_parameters=fixed or None,
                                             cookies={"session": cookie})

            @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                      suppress_health_check=list(HealthCheck))
            @given(case=strategy)
            def send(case: Any) -> None:
                response = case.call()
                if response.status_code not in (403, 404) or _past_access(response):
                    reached.add(case.operation.label)
                if response.status_code >= 500:
                    errors.append(f"{case.method} {case.formatted_path} "
                                  f"{case.body!r:.300} -> {response.status_code}")

            try:
                send()
            except Unsatisfiable:  # nothing to send that breaks the document (no body)
                assert mode == GenerationMode.NEGATIVE, operation.label
            else:
                tried += 1
    assert tried >= len(operations) + 9  # every operation; every one with a body, broken
    assert not errors, "\n".join(errors[:20])
    assert reached == {operation.label for operation in operations}
