"""flaskr-style fixtures: an app on a temporary instance folder, clients, and a logged-in client."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from flask import Flask, template_rendered
from flask.testing import FlaskClient

from director import create_app
from director.core.store import cache

PASSWORD = "river-card"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    cache.clear()
    app = create_app({"TESTING": True}, instance_path=tmp_path / "instance")
    yield app
    cache.clear()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> Any:
    return app.test_cli_runner()


def csrf_token(client: FlaskClient, path: str = "/auth/login") -> str:
    """The CSRF token of the client's session, read from a page as a browser would."""
    html = client.get(path).get_data(as_text=True)
    meta = BeautifulSoup(html, "html.parser").find("meta", attrs={"name": "csrf-token"})
    assert meta is not None, html[:500]
    return str(meta["content"])


def set_password(client: FlaskClient, password: str = PASSWORD) -> None:
    token = csrf_token(client, "/auth/first-run")
    response = client.post(
        "/auth/first-run", data={"password": password, "confirm": password, "csrf_token": token}
    )
    assert response.status_code == 302, response.get_data(as_text=True)


class Director:
    """A logged-in browser: posts carry the CSRF token like the pages do."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.token = csrf_token(client, "/")

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.client.get(path, **kwargs)

    def post(self, path: str, data: dict[str, Any] | None = None, htmx: bool = False, **kwargs: Any) -> Any:
        headers = dict(kwargs.pop("headers", {}))
        if htmx:
            headers["HX-Request"] = "true"
        form = {"csrf_token": self.token, **(data or {})}
        return self.client.post(path, data=form, headers=headers, **kwargs)

    def api(self, method: str, path: str, json: Any = None) -> Any:
        return self.client.open(path, method=method, json=json, headers={"X-CSRFToken": self.token})


@pytest.fixture
def director(client: FlaskClient) -> Director:
    set_password(client)  # also logs in
    return Director(client)


def soup(response: Any) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


@contextmanager
def rendered(app: Flask) -> Iterator[list[str]]:
    """The names of the templates rendered inside the block."""
    names: list[str] = []

    def record(sender: Flask, template: Any, context: Any, **extra: Any) -> None:
        names.append(template.name)

    template_rendered.connect(record, app)
    try:
        yield names
    finally:
        template_rendered.disconnect(record, app)


def new_tournament(director: Director, players: Sequence[str] = (), start: bool = False, **settings: Any) -> int:
    """A tournament made through the API (quick), with players registered and the clock started."""
    response = director.api("POST", "/api/tournaments", {"name": "Friday", **settings})
    assert response.status_code == 201, response.get_json()
    tournament_id = int(response.get_json()["id"])
    for name in players:
        assert director.api("POST", f"/api/t/{tournament_id}/players", {"name": name}).status_code == 201
    if start:
        assert director.api("POST", f"/api/t/{tournament_id}/clock/start", {}).status_code == 201
    return tournament_id


def seq(director: Director, tournament_id: int) -> int:
    return int(director.api("GET", f"/api/t/{tournament_id}").get_json()["seq"])


@pytest.fixture
def timed_app(app: Flask) -> Flask:
    """The app on a clock that moves one second each time it is read (events in order)."""
    clock = {"t": 1_000.0}

    def now() -> float:
        clock["t"] += 1.0
        return clock["t"]

    app.config["NOW"] = now
    return app
