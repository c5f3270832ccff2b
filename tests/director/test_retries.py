"""A retry after a lost answer is told the truth (issue "The director's house, second version",
4): "Commands carry an id. The pages' forms and the dealer's buttons send one per tap; the
JSON API takes an Idempotency-Key header. A retry of a command already recorded is answered
with what was recorded (same status and body), whatever its expected_seq has become; a
different command on a stale seq is refused as today."

The answers are lost for real: each command is sent to a live server on a socket that is
closed as soon as the request is written, so the server commits and nobody reads its answer;
then the same command is sent again, through the JSON API and through the pages."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from director import create_app
from director.core.store import cache
from tests.director.conftest import PASSWORD, csrf_token, set_password


@dataclass
class Server:
    """The app on a live server, and a logged-in director's cookie and CSRF token."""

    app: Flask
    client: FlaskClient
    port: int
    cookie: str
    token: str

    def send(self, method: str, path: str, body: bytes, headers: dict[str, str], read: bool = True) -> Any:
        """One request on a fresh connection; with ``read`` False the connection is closed
        right after the request is written: the answer is lost."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request(method, path, body=body, headers={"Cookie": f"session={self.cookie}",
                                                        "X-CSRFToken": self.token, **headers})
        if not read:
            conn.close()
            return None
        response = conn.getresponse()
        answer = (response.status, response.read(), dict(response.getheaders()))
        conn.close()
        return answer

    def api(self, path: str, body: dict[str, Any], key: str, read: bool = True) -> Any:
        return self.send("POST", path, json.dumps(body).encode(),
                         {"Content-Type": "application/json", "Idempotency-Key": key}, read)

    def page(self, path: str, form: dict[str, Any], key: str, read: bool = True) -> Any:
        fields = {"csrf_token": self.token, "command_id": key, **form}
        return self.send("POST", path, urlencode(fields, doseq=True).encode(),
                         {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}, read)

    def recorded(self, key: str) -> dict[str, Any]:
        status, body, _ = self.send("GET", f"/api/commands/{key}", b"", {})
        assert status == 200
        result: dict[str, Any] = json.loads(body)
        return result

    def seq(self, tid: int) -> int:
        return int(self.client.get(f"/api/t/{tid}").get_json()["seq"])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    cache.clear()
    app = create_app({"TESTING": False}, instance_path=tmp_path / "instance")
    client = app.test_client()
    set_password(client, PASSWORD)
    token = csrf_token(client, "/")
    cookie = client.get_cookie("session")
    assert cookie is not None
    live = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=live.serve_forever, daemon=True)
    thread.start()
    try:
        yield Server(app, client, live.server_port, cookie.value, token)
    finally:
        live.shutdown()
        thread.join(timeout=5)
        cache.clear()


def night(server: Server) -> int:
    """Eight players on two tables of a 6-max night with rebuys, seated, the clock started."""
    headers = {"X-CSRFToken": server.token}
    c = server.client
    tid = c.post("/api/tournaments", json={"name": "Friday", "table_size": 6, "rebuy_levels": 3},
                 headers=headers).get_json()["id"]
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"):
        assert c.post(f"/api/t/{tid}/players", json={"name": name}, headers=headers).status_code == 201
    assert c.post(f"/api/t/{tid}/tables/draw", json={"table_size": 6}, headers=headers).status_code == 201
    assert c.post(f"/api/t/{tid}/clock/start", json={}, headers=headers).status_code == 201
    return int(tid)


def table_of(server: Server, tid: int, player: int) -> int:
    players = server.client.get(f"/api/t/{tid}").get_json()["players"]
    return int(next(p["table"] for p in players if p["id"] == player))


def someone_at(server: Server, tid: int, table: int, but: int | None = None) -> int:
    players = server.client.get(f"/api/t/{tid}").get_json()["players"]
    return int(next(p["id"] for p in players if p["table"] == table and p["status"] == "in" and p["id"] != but))


Step = Callable[[Server, int], tuple[str, dict[str, Any]]]
"""What to send for a command on this night (after getting it ready): its path and its fields."""


def _deal(s: Server, tid: int) -> tuple[str, dict[str, Any]]:
    return f"/t/{tid}/table/2/deal", {}


def _act(s: Server, tid: int) -> tuple[str, dict[str, Any]]:
    return f"/t/{tid}/table/1/act", {"kind": "fold"}


def _award(s: Server, tid: int) -> tuple[str, dict[str, Any]]:
    table = s.client.get(f"/api/t/{tid}/table/1").get_json()
    while table["phase"] == "betting":
        kinds = {a["kind"] for a in table["actions"]}
        table = s.client.post(f"/api/t/{tid}/table/1/act", json={"kind": "check" if "check" in kinds else "call"},
                              headers={"X-CSRFToken": s.token}).get_json()
    seat = table["pots"][0]["eligible"][0]
    return f"/t/{tid}/table/1/award", {"pot0": str(seat)}


def _undo(s: Server, tid: int) -> tuple[str, dict[str, Any]]:
    s.client.post(f"/api/t/{tid}/table/1/act", json={"kind": "fold"}, headers={"X-CSRFToken": s.token})
    return f"/t/{tid}/table/1/undo", {}


def _bust(s: Server, tid: int) -> tuple[str, dict[str, Any]]:
    victim = someone_at(s, tid, 2)
    return f"/t/{tid}/bust", {"players": str(victim), "by": str(someone_at(s, tid, 2, but=victim))}


def _rebuy(s: Server, tid: int) -> tuple[str, dict[str, Any]]:
    victim = someone_at(s, tid, 2)
    by = someone_at(s, tid, 2, but=victim)
    assert s.client.post(f"/api/t/{tid}/bust", json={"player": victim, "by": by},
                         headers={"X-CSRFToken": s.token}).status_code == 201
    return f"/t/{tid}/players/{victim}/rebuy", {}


def _move(s: Server, tid: int) -> tuple[str, dict[str, Any]]:
    a, b = someone_at(s, tid, 2), someone_at(s, tid, 2)
    b = someone_at(s, tid, 2, but=a)
    return f"/t/{tid}/tables/swap", {"player_a": str(a), "player_b": str(b)}


STEPS: dict[str, Step] = {"deal": _deal, "act": _act, "award": _award, "undo": _undo, "bust": _bust,
                          "rebuy": _rebuy, "move": _move}


def _ready(server: Server) -> int:
    tid = night(server)
    assert server.client.post(f"/api/t/{tid}/table/1/deal", json={},
                              headers={"X-CSRFToken": server.token}).status_code == 201
    return tid


def _wait_recorded(server: Server, key: str) -> dict[str, Any]:
    """The answer was cut: the server still records it (and keeps its answer) a moment later."""
    for _ in range(200):
        found = server.recorded(key)
        if found["recorded"] and found["status"] is not None:
            return found
        time.sleep(0.02)
    raise AssertionError(f"{key} was never recorded")


@pytest.mark.parametrize("command", sorted(STEPS))
def test_a_page_retry_after_a_lost_answer_is_answered_with_what_was_recorded(server: Server, command: str) -> None:
    tid = _ready(server)
    path, form = STEPS[command](server, tid)
    before = server.seq(tid)
    key = f"page-{command}-1"
    server.page(path, {**form, "expected_seq": before}, key, read=False)  # the answer is lost on the Wi-Fi
    found = _wait_recorded(server, key)
    after = server.seq(tid)
    assert after > before
    status, body, headers = server.page(path, {**form, "expected_seq": before}, key)  # the same tap again
    assert (status, headers.get("Idempotent-Replayed")) == (found["status"], "true")
    assert server.seq(tid) == after  # recorded once
    fresh = server.page(path, {**form, "expected_seq": before}, f"page-{command}-2")  # a new tap on the old page
    assert fresh[0] == 409 or server.seq(tid) == after  # refused as stale (or refused by the rules): not twice
    again = server.page(path, {**form, "expected_seq": before}, key)
    assert (again[0], again[1]) == (status, body)  # the same status and body every time


API_PATHS = {"deal": "/api/t/{tid}/table/2/deal", "act": "/api/t/{tid}/table/1/act",
             "award": "/api/t/{tid}/table/1/award", "undo": "/api/t/{tid}/table/1/undo", "bust": "/api/t/{tid}/bust",
             "rebuy": "/api/t/{tid}/players/{player}/rebuy", "move": "/api/t/{tid}/tables/swap"}


def _api_body(command: str, form: dict[str, Any]) -> dict[str, Any]:
    if command == "award":
        return {"winners": [[int(form["pot0"])]]}
    if command == "bust":
        return {"player": int(form["players"]), "by": int(form["by"])}
    return {k: (int(v) if isinstance(v, str) and v.isdigit() else v) for k, v in form.items()}


@pytest.mark.parametrize("command", sorted(STEPS))
def test_an_api_retry_after_a_lost_answer_is_answered_with_what_was_recorded(server: Server, command: str) -> None:
    tid = _ready(server)
    page_path, form = STEPS[command](server, tid)
    player = page_path.split("/players/")[1].split("/")[0] if "/players/" in page_path else ""
    path = API_PATHS[command].format(tid=tid, player=player)
    body = _api_body(command, form)
    before = server.seq(tid)
    key = f"api-{command}-1"
    server.api(path, {**body, "expected_seq": before}, key, read=False)
    found = _wait_recorded(server, key)
    after = server.seq(tid)
    assert after > before and found["status"] == 201
    status, answer, headers = server.api(path, {**body, "expected_seq": before}, key)
    assert status == 201 and headers.get("Idempotent-Replayed") == "true"
    assert headers["Content-Type"] == "application/json"  # the answer as it was, its type too
    assert json.loads(answer)["seq"] == after and server.seq(tid) == after
    later = server.api(path, {**body, "expected_seq": after + 5}, key)  # whatever expected_seq has become
    assert (later[0], later[1]) == (status, answer)
    stale = server.api(path, {**body, "expected_seq": before}, f"api-{command}-2")  # another command, stale
    assert stale[0] in (409, 422) and server.seq(tid) == after


def test_the_same_id_with_another_command_is_refused_and_nothing_more_is_recorded(server: Server) -> None:
    tid = _ready(server)
    first = server.api(f"/api/t/{tid}/table/1/act", {"kind": "call"}, "tap-1")
    assert first[0] == 201
    seq = server.seq(tid)
    other = server.api(f"/api/t/{tid}/table/1/act", {"kind": "fold"}, "tap-1")
    assert other[0] == 422 and "already used for another command" in json.loads(other[1])["error"]
    assert server.seq(tid) == seq


def test_a_refused_command_records_nothing_and_its_retry_is_tried_again(server: Server) -> None:
    tid = _ready(server)
    refused = server.api(f"/api/t/{tid}/table/1/act", {"kind": "raise", "amount": 1}, "tap-2")
    assert refused[0] == 422 and not server.recorded("tap-2")["recorded"]
    assert server.api(f"/api/t/{tid}/table/1/act", {"kind": "call"}, "tap-3")[0] == 201


def test_a_malformed_command_id_is_refused_with_400(server: Server) -> None:
    tid = _ready(server)
    answer = server.api(f"/api/t/{tid}/table/1/act", {"kind": "call"}, "not a key!")
    assert answer[0] == 400 and "Idempotency-Key" in json.loads(answer[1])["error"]


def test_every_form_carries_a_new_command_id(server: Server) -> None:
    from bs4 import BeautifulSoup

    tid = _ready(server)
    html = server.client.get(f"/t/{tid}/table/1").get_data(as_text=True)
    forms = BeautifulSoup(html, "html.parser").select("form[method=post]")
    ids = [f.find("input", attrs={"name": "command_id"}) for f in forms]
    assert forms and all(ids) and len({i["value"] for i in ids}) == len(ids)
