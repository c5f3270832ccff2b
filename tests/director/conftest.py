"""flaskr-style fixtures: an app on a temporary instance folder, clients, and a logged-in client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from flask import Flask
from flask.testing import FlaskClient

from director import create_app
from director.events import cache

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
