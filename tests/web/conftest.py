"""Fixtures of the web tests: ``post``, a JSON call to the stateless API."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def post(client):  # type: ignore[no-untyped-def]
    """``post(path, body, status=200)``: POST ``body`` as JSON to ``/api/v1<path>``,
    check the status and that the answer is JSON, and return it."""

    def _post(path: str, body: Any, status: int = 200) -> dict[str, Any]:
        response = client.post("/api/v1" + path, json=body)
        assert response.status_code == status, response.get_data(as_text=True)
        assert response.is_json
        return response.get_json()  # type: ignore[no-any-return]

    return _post
