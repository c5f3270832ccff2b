"""The JSON API: the same actions, validation and messages as the pages; the OpenAPI document."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.core.contract import UNDOCUMENTED, document
from tests.director.conftest import PASSWORD, Director, new_tournament


def api_session(client: FlaskClient) -> str:
    return str(client.get("/api/session").get_json()["csrf_token"])


def test_api_first_run_login_and_logout(client: FlaskClient) -> None:
    info = client.get("/api/session").get_json()
    assert info["logged_in"] is False and info["password_set"] is False
    token = info["csrf_token"]
    assert client.post("/api/tournaments", json={"name": "x"}, headers={"X-CSRFToken": token}).get_json() == {
        "error": "Set the director's password first."
    }
    short = client.post("/api/setup-password", json={"password": "ab"}, headers={"X-CSRFToken": token})
    assert short.status_code == 422 and "at least 4 characters" in short.get_json()["error"]
    response = client.post("/api/setup-password", json={"password": PASSWORD}, headers={"X-CSRFToken": token})
    assert response.status_code == 201
    token = response.get_json()["csrf_token"]
    again = client.post("/api/setup-password", json={"password": "other"}, headers={"X-CSRFToken": token})
    assert again.status_code == 422 and "already set" in again.get_json()["error"]
    assert client.post("/api/logout", headers={"X-CSRFToken": token}).get_json() == {"logged_in": False}
    token = api_session(client)
    unauthorised = client.post("/api/tournaments", json={"name": "x"}, headers={"X-CSRFToken": token})
    assert unauthorised.status_code == 401
    assert unauthorised.get_json() == {"error": "Log in as the director first."}
    wrong = client.post("/api/login", json={"password": "nope"}, headers={"X-CSRFToken": token})
    assert wrong.status_code == 401
    right = client.post("/api/login", json={"password": PASSWORD}, headers={"X-CSRFToken": token})
    assert right.get_json()["logged_in"] is True


def test_api_writes_need_the_csrf_header(director: Director) -> None:
    response = director.client.post("/api/tournaments", json={"name": "x"})
    assert response.status_code == 400
    assert "security token" in response.get_json()["error"]


def test_a_whole_tournament_through_the_api(director: Director) -> None:
    response = director.api("POST", "/api/tournaments", {"name": "Sit and go", "preset": "sng-1000"})
    assert response.status_code == 201
    t = response.get_json()
    tid = t["id"]
    assert t["settings"]["structure"]["items"][0]["hands"] == 6
    for name in ["Ann", "Bob", "Cy"]:
        t = director.api("POST", f"/api/t/{tid}/players", {"name": name, "expected_seq": t["seq"]}).get_json()
    t = director.api("POST", f"/api/t/{tid}/seats/draw", {"expected_seq": t["seq"]}).get_json()
    assert sorted(t["tables"]["1"]) == [1, 2, 3]
    t = director.api("POST", f"/api/t/{tid}/clock/start", {"expected_seq": t["seq"]}).get_json()
    assert t["clock"]["status"] == "running" and t["clock"]["big_blind"] == 20
    t = director.api("POST", f"/api/t/{tid}/clock/hand_played", {}).get_json()
    assert t["clock"]["hands_played"] == 1
    t = director.api("POST", f"/api/t/{tid}/bust", {"player": 3, "by": 1, "expected_seq": t["seq"]}).get_json()
    assert t["players_left"] == 2
    t = director.api("POST", f"/api/t/{tid}/undo", {"expected_seq": t["seq"]}).get_json()
    assert t["players_left"] == 3
    t = director.api("POST", f"/api/t/{tid}/bust", {"players": [2, 3], "stacks": {"2": 100, "3": 50}, "by": 1}).get_json()
    assert t["finished"] is True
    assert {p["name"]: p["place"] for p in t["players"]} == {"Ann": 1, "Bob": 2, "Cy": 3}
    assert t["clock"]["status"] == "finished"
    exported = director.api("GET", f"/api/t/{tid}/export").get_json()
    assert exported["results"]["standings"][0]["name"] == "Ann"
    assert [e["type"] for e in exported["events"]][:2] == ["created", "player_registered"]
    listed = director.api("GET", "/api/tournaments").get_json()["tournaments"]
    assert listed[0]["name"] == "Sit and go"


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("/players", {"name": ""}, 422, "The name is empty"),
        ("/players", {"name": "ann"}, 422, "Ann is already registered"),
        ("/bust", {}, 422, "Name the player who is out"),
        ("/bust", {"player": 7}, 422, "There is no player number 7"),
        ("/bust", {"player": 1, "expected_seq": 1}, 409, "Someone else changed this tournament"),
        ("/clock/fly", {}, 422, "Unknown clock action 'fly'"),
        ("/clock/add_time", {"seconds": "soon"}, 422, "must be a whole number"),
        ("/players/1/rebuy", {}, 422, "This tournament has no rebuys."),
        ("/undo", {"expected_seq": "x"}, 422, "must be a whole number"),
    ],
)
def test_api_errors_are_json_with_the_same_messages(
    director: Director, path: str, body: dict[str, object], status: int, message: str
) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], start=True)
    response = director.api("POST", f"/api/t/{tid}{path}", body)
    assert response.status_code == status
    assert message in response.get_json()["error"]


def test_api_unknown_tournament_is_404_json(director: Director) -> None:
    response = director.api("GET", "/api/t/77")
    assert response.status_code == 404
    assert response.get_json() == {"error": "There is no tournament number 77."}
    assert director.api("POST", "/api/t/77/undo", {}).status_code == 404


def test_api_body_must_be_an_object(director: Director) -> None:
    response = director.api("POST", "/api/tournaments", [1, 2])
    assert response.status_code == 422
    assert response.get_json()["error"] == "The request body must be a JSON object."


def test_api_demo(director: Director) -> None:
    t = director.api("POST", "/api/demo", {}).get_json()
    assert t["started"] and t["clock"]["level"] == 4
    assert t["entries"] == 10 and t["rebuys"] == 1 and t["players_left"] == 7


def openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule)


def test_every_api_route_is_in_the_openapi_document_and_vice_versa(app: Flask, client: FlaskClient) -> None:
    doc = client.get("/api/openapi.json").get_json()
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and rule.endpoint not in UNDOCUMENTED:
            methods = {m.lower() for m in rule.methods or ()} - {"head", "options"}
            routes.setdefault(openapi_path(rule.rule), set()).update(methods)
    documented = {path: set(item) for path, item in doc["paths"].items()}
    assert routes == documented


def test_openapi_document_is_valid_openapi_3_1(app: Flask) -> None:
    validator = pytest.importorskip("openapi_spec_validator")
    validator.validate(document(app))


def test_the_event_log_is_for_the_director_only(client: FlaskClient, director: Director) -> None:
    """The log holds everything (seat-card tokens, the cards of every hand): not for the tables."""
    tid = new_tournament(director, ["Ann", "Bob"])
    assert director.api("GET", f"/api/t/{tid}/events").status_code == 200
    director.post("/auth/logout")
    for path in (f"/api/t/{tid}/events", f"/api/t/{tid}/export"):
        response = client.get(path)
        assert response.status_code == 401
        assert response.get_json() == {"error": "Log in as the director first."}
    assert client.get(f"/api/t/{tid}").status_code == 200  # the state itself is public
