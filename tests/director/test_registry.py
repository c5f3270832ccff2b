"""One registry of commands: every change is a registered command with its declared input,
its roles and its summary; the pages and the JSON API reach the same command, and the
OpenAPI document is drawn from it. The cash game's undo has its redo, on the night and in
the club."""

from __future__ import annotations

import ast
from pathlib import Path

from flask import Flask

from director.core.commands import REGISTRY
from director.core.contract import Input
from tests.director.conftest import Director, soup
from tests.director.test_cash import add_member, new_session, sit

ROOT = Path(__file__).resolve().parents[2]


def test_every_command_is_declared_with_its_input_roles_and_summary(app: Flask) -> None:
    """(The app loads every area's commands.)"""
    assert len(REGISTRY) >= 60
    for name, cmd in REGISTRY.items():
        assert cmd.name == name and "." in name
        assert issubclass(cmd.input, Input), name
        assert cmd.roles, name
        assert cmd.summary and cmd.summary[0].isupper(), name


def test_the_openapi_document_says_each_commands_summary_and_roles(app: Flask, director: Director) -> None:
    document = director.get("/api/openapi.json").get_json()
    operations = {op["operationId"]: op for path in document["paths"].values() for op in path.values()
                  if isinstance(op, dict) and "operationId" in op}
    roles: dict[str, list[list[str]]] = {}  # a summary may be two commands' (the cash game's and the tournament's undo)
    for cmd in REGISTRY.values():
        roles.setdefault(cmd.summary, []).append(list(cmd.roles))
    posted = [op for op in operations.values() if op["summary"] in roles]  # the commands' (every operation has x-roles)
    assert len(posted) >= 60
    assert all(op["x-roles"] in roles[op["summary"]] for op in posted)  # each command's own roles
    assert {tuple(op["x-roles"]) for op in posted} == {
        ("director",), ("director", "floor"), ("director", "floor", "dealer"), ("director", "cash dealer")}
    sit_op = document["paths"]["/api/cash/{session_id}/sit"]["post"]
    assert sit_op["summary"] == REGISTRY["cash.sit"].summary and sit_op["x-roles"] == ["director"]


def _action_chains(path: Path) -> list[int]:
    """Lines of ``if action == "..."`` (a chain of commands by their names)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
            left = node.test.left
            if isinstance(left, ast.Name) and left.id == "action" and isinstance(node.test.ops[0], ast.Eq):
                found.append(node.lineno)
    return found


def test_no_command_is_chosen_by_an_if_chain_on_its_name() -> None:
    chains = {str(p.relative_to(ROOT)): lines for p in (ROOT / "director").rglob("*.py")
              if (lines := _action_chains(p))}
    assert chains == {}


def test_a_page_form_and_its_json_twin_are_refused_in_the_same_words(director: Director) -> None:
    ann = add_member(director, "Ann")
    sid = new_session(director)
    page = director.post(f"/cash/{sid}/sit", {"member": str(ann), "place": "1:3", "amount": "lots"}, htmx=True)
    api = director.api("POST", f"/api/cash/{sid}/sit", {"member": ann, "table": 1, "seat": 3, "amount": "lots"})
    assert page.status_code == api.status_code == 422
    said = api.get_json()["error"]
    assert said and said in soup(page).get_text()


def test_a_cash_undo_is_redone_from_the_page_and_the_api(director: Director) -> None:
    ann = add_member(director, "Ann")
    sid = new_session(director)
    assert sit(director, sid, ann, 3, 5_000).status_code == 201
    assert director.api("POST", f"/api/cash/{sid}/undo", {}).status_code == 201
    page = soup(director.get(f"/cash/{sid}"))
    redo = [b.get_text() for b in page.find_all("button") if b.get_text().startswith("Redo")]
    assert redo == ["Redo “Ann sat down at table 1 seat 3 for 5,000”"]
    again = director.post(f"/cash/{sid}/redo", {}, htmx=True)
    assert again.status_code == 200 and "Put back." in again.get_data(as_text=True)
    seats = director.api("GET", f"/api/cash/{sid}").get_json()["tables"][0]["players"]
    assert [(p["name"], p["seat"], p["stack"]) for p in seats] == [("Ann", 3, 5_000)]
    refused = director.api("POST", f"/api/cash/{sid}/redo", {})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == "There is nothing to redo: redo follows an undo, before anything new is entered."


def test_the_clubs_undo_shows_and_its_redo_puts_the_grant_back(director: Director) -> None:
    ann = add_member(director, "Ann", grant=1_000)
    assert director.api("POST", "/api/cash/club/grant", {"member": ann, "amount": 500}).status_code == 201
    page = soup(director.get("/cash/club"))
    assert "Undo the last club entry" in page.get_text()
    assert director.post("/cash/club/undo", {}, htmx=True).status_code == 200
    club = director.api("GET", "/api/cash/club").get_json()
    assert [m["balance"] for m in club["members"]] == [1_000]
    page = soup(director.get("/cash/club"))
    assert "Redo “500 play chips granted to Ann”" in page.get_text()
    done = director.api("POST", "/api/cash/club/redo", {})
    assert done.status_code == 201 and done.get_json()["notice"] == "Put back."
    assert [m["balance"] for m in done.get_json()["members"]] == [1_500]



def test_the_qr_address_is_a_command_its_page_and_api_refuse_in_the_same_words(director: Director) -> None:
    """The settings that were written beside the registry are commands too: the address in the
    QR codes (``tables.address``) and the first start's password (``core.password``)."""
    assert {"tables.address", "core.password"} <= set(REGISTRY)
    page = director.post("/settings/address", data={"custom": "http://nope/"}, htmx=True)
    api = director.api("POST", "/api/address", {"address": "http://nope/"})
    assert page.status_code == api.status_code == 422
    said = api.get_json()["error"]
    assert "is not an address" in said and said in soup(page).get_text()
    chosen = director.api("POST", "/api/address", {"address": "poker.lan"})
    assert chosen.status_code == 200
    assert chosen.get_json()["address"] == "poker.lan" and chosen.get_json()["chosen"] is True
    assert director.api("GET", "/api/address").get_json()["base_url"].startswith("http://poker.lan")
    too_long = director.api("POST", "/api/address", {"address": "a" * 300})
    assert too_long.status_code == 422

