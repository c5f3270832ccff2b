"""Every route of the director's blueprints, logged in and not, plain and htmx: never a stack
trace, and never a change without the director."""

from __future__ import annotations

import re
import time

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.core.db import get_db
from director.home.demo import fill_demo
from tests.director.conftest import Director, csrf_token

MINE = ("home", "setup", "players", "dashboard", "results", "api", "auth")


def routes(app: Flask, method: str) -> list[str]:
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] in MINE and method in (rule.methods or ()):
            path = re.sub(r"<any\(([a-z_]+)[^>]*>", r"\1", rule.rule)
            found.append(path.replace("<int:", "<").replace("<tournament_id>", "1").replace("<player_id>", "2")
                         .replace("<action>", "pause"))
    return sorted(set(found))


@pytest.fixture
def demo_app(app: Flask) -> Flask:
    with app.app_context():
        fill_demo(get_db(), time.time())
    return app


def test_every_get_route_answers_without_a_stack_trace(demo_app: Flask, client: FlaskClient, director: Director) -> None:
    paths = routes(demo_app, "GET")
    assert len(paths) > 15
    for headers in ({}, {"HX-Request": "true"}):
        for path in paths:
            response = director.get(path, headers=headers)
            assert response.status_code in (200, 302), (path, response.status_code)
            response.close()
    director.post("/auth/logout")
    for path in paths:
        response = client.get(path)
        assert response.status_code in (200, 302, 401), (path, response.status_code)
        response.close()


def test_no_post_route_changes_anything_without_the_director(demo_app: Flask, client: FlaskClient, director: Director) -> None:
    before = director.api("GET", "/api/t/1").get_json()["seq"]
    director.post("/auth/logout")
    token = csrf_token(client)
    open_doors = {"/auth/first-run", "/auth/login", "/auth/logout", "/api/login", "/api/logout", "/api/setup-password"}
    for path in routes(demo_app, "POST"):
        if path in open_doors:
            continue
        response = client.post(path, data={"csrf_token": token, "players": "2", "name": "Zed"})
        assert response.status_code in (302, 401), (path, response.status_code)
        response = client.post(path, json={"player": 2, "name": "Zed"}, headers={"X-CSRFToken": token})
        assert response.status_code in (302, 401), (path, response.status_code)
    with demo_app.app_context():
        assert get_db().execute("SELECT last_seq FROM streams WHERE id = 1").fetchone()[0] == before
