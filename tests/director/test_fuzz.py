"""schemathesis against the OpenAPI document the app makes of itself, logged in as the director.

Every operation gets a bounded number of generated requests (valid and not) on a night in
play: a demo tournament with hands at the tables, and a cash session with members seated.
No answer may be a server error, and every answer must be one the document describes, with
its status, its content type and its schema.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from director import create_app
from director.core.contract import document
from director.core.store import cache
from tests.director.conftest import PASSWORD

schemathesis = pytest.importorskip("schemathesis")
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


class Night:
    """A logged-in director on a night in play, and the headers every call carries."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        client = app.test_client()
        token = client.get("/api/session").get_json()["csrf_token"]
        response = client.post("/api/setup-password", json={"password": PASSWORD}, headers={"X-CSRFToken": token})
        assert response.status_code == 201, response.get_json()
        self.token = response.get_json()["csrf_token"]
        headers = {"X-CSRFToken": self.token}
        tournament = client.post("/api/demo", json={}, headers=headers).get_json()
        assert client.post(f"/api/t/{tournament['id']}/table/1/deal", json={}, headers=headers).status_code == 201
        session = client.post("/api/cash", json={"name": "Friday", "tables": [{"seats": 9, "stake": "50/100"}]},
                              headers=headers).get_json()
        for seat, name in enumerate(("Ann", "Bob", "Cid"), start=1):
            assert client.post("/api/cash/club/member", json={"name": name, "grant": 50_000},
                               headers=headers).status_code == 201
            response = client.post(f"/api/cash/{session['id']}/sit",
                                   json={"name": name, "table": 1, "seat": seat, "amount": 5_000}, headers=headers)
            assert response.status_code == 201, response.get_json()
        self.ids = {"tournament_id": [tournament["id"]], "table": [1, 2, 3],
                    "player_id": [p["id"] for p in tournament["players"]],
                    "session_id": [session["id"]], "table_no": [1]}
        cookie = client.get_cookie("session")
        assert cookie is not None
        self.cookie = cookie.value

    def call(self, case: Any) -> None:
        case.call_and_validate(headers={"X-CSRFToken": self.token}, cookies={"session": self.cookie}, checks=CHECKS)


@pytest.fixture
def night(tmp_path: Path) -> Iterator[Night]:
    cache.clear()
    app = create_app({"TESTING": True}, instance_path=tmp_path / "instance")
    yield Night(app)
    cache.clear()


def operations() -> list[str]:
    """Every operation of the document, as "METHOD /path" (read from an app on a scratch folder)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True}, instance_path=Path(folder) / "instance")
        paths = document(app)["paths"]
    return sorted(f"{method.upper()} {path}" for path, item in paths.items() for method in item)


@pytest.mark.slow
@pytest.mark.parametrize("operation", [op for op in operations() if op != "POST /api/logout"])
def test_no_server_error_and_no_answer_outside_the_document(operation: str, night: Night) -> None:
    """(Logging out would end the session the other calls run in; its own test is in test_api.)"""
    method, path = operation.split(" ", 1)
    api = schemathesis.openapi.from_wsgi("/api/openapi.json", night.app)

    @given(api[path][method].as_strategy(generation_mode=GenerationMode.POSITIVE)
           | api[path][method].as_strategy(generation_mode=GenerationMode.NEGATIVE), st.data())
    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def call(case: Any, data: st.DataObject) -> None:
        for name in case.path_parameters or {}:  # mostly the night's own ids: past the 404s
            if name in night.ids and data.draw(st.integers(0, 3)):
                case.path_parameters[name] = data.draw(st.sampled_from(night.ids[name]))
        night.call(case)

    call()
