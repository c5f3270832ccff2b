"""The players' database's changes are registered commands: a person added, edited or merged
from the page or the JSON API carries its command id, and the same id sent again after a lost
answer is answered with what was recorded, not done twice (``director.core.command_ids``).

The answers are lost for real, as in ``test_retries``: the first copy is sent on a socket closed
as soon as the request is written; the second is the retry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from director.core.commands import REGISTRY
from tests.director import test_retries
from tests.director.test_retries import Server, _wait_recorded

server = test_retries.server  # the app on a live server, its director logged in (a fixture)


def _people(s: Server) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in s.client.get("/api/people").get_json()["people"]}


def _add(s: Server, name: str) -> int:
    response = s.client.post("/api/people", json={"name": name}, headers={"X-CSRFToken": s.token})
    assert response.status_code == 201, response.get_json()
    return int(response.get_json()["id"])


Case = Callable[[Server], tuple[str, dict[str, Any], Callable[[Server], None]]]
"""Ready the database: the command's path (the page's; the API's is under ``/api``), its
fields, and the check that it was done once."""


def _adding(s: Server) -> tuple[str, dict[str, Any], Callable[[Server], None]]:
    def once(s: Server) -> None:
        assert [n for n in _people(s) if n.casefold() == "zoe"] == ["Zoe"]
        assert _people(s)["Zoe"]["nickname"] == "Z"

    return "/people", {"name": "Zoe", "nickname": "Z"}, once


def _editing(s: Server) -> tuple[str, dict[str, Any], Callable[[Server], None]]:
    ann = _add(s, "Ann")

    def once(s: Server) -> None:
        assert set(_people(s)) == {"Ann Smith"} and _people(s)["Ann Smith"]["id"] == ann

    return f"/people/{ann}", {"name": "Ann Smith"}, once


def _merging(s: Server) -> tuple[str, dict[str, Any], Callable[[Server], None]]:
    ann, anne = _add(s, "Ann"), _add(s, "Anne")

    def once(s: Server) -> None:
        assert set(_people(s)) == {"Ann"} and _people(s)["Ann"]["id"] == ann

    return f"/people/{anne}/merge", {"into": str(ann)}, once


CASES: dict[str, Case] = {"add": _adding, "edit": _editing, "merge": _merging}


def test_the_players_database_changes_are_registered_commands(app: Flask) -> None:
    """(The app loads every area's commands.)"""
    for name in ("club.person.add", "club.person.edit", "club.person.merge", "club.people.visibility"):
        assert REGISTRY[name].summary[0].isupper()


@pytest.mark.parametrize("way", ["page", "api"])
@pytest.mark.parametrize("change", sorted(CASES))
def test_a_change_sent_twice_with_one_command_id_is_recorded_once(server: Server, change: str, way: str) -> None:
    path, fields, once = CASES[change](server)
    key = f"{way}-{change}-1"
    if way == "api":
        path = "/api" + path
        body = {k: (int(v) if k == "into" else v) for k, v in fields.items()}

        def send(lost: bool = False) -> Any:
            return server.api(path, body, key, read=not lost)
    else:
        def send(lost: bool = False) -> Any:
            return server.page(path, fields, key, read=not lost)

    send(lost=True)  # done, but the answer is lost on the Wi-Fi
    found = _wait_recorded(server, key)
    assert found["status"] == (204 if way == "page" else 201 if change == "add" else 200)
    once(server)
    status, answer, headers = send()  # the same command again, with its id
    assert (status, headers.get("Idempotent-Replayed")) == (found["status"], "true")
    once(server)
    assert send()[:2] == (status, answer)  # the same answer every time
    once(server)
