"""One command, one transaction, checked from outside: a real server in a subprocess, killed
at the seam between the events of a command, and clients racing over HTTP.

* A late registration after the draw writes ``player_registered``, then ``player_seated``,
  and remembers the name: a SIGKILL between any two of them leaves all or nothing.
* Four clients racing the same bust, different writes, and late registrations: no write
  doubled, none recorded while answered as failed, no 5xx, no "database is locked".
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from director import create_app
from director.core.store import cache, load_state
from tests.director.conftest import PASSWORD

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

# The server, with a seam armed: SIGKILL right after the Nth event row is written (before
# the transaction commits), or right after the Nth commit (before the answer is sent).
SERVER = """
import os, signal, sys
from waitress import serve
from director import create_app
from director.core import store
kill_after = int(os.environ.get("KILL_AFTER_INSERT", "0"))
kill_commit = int(os.environ.get("KILL_AFTER_COMMIT", "0"))
count = {"insert": 0}
real_insert = store.insert_event
def insert_event(*args, **kwargs):
    real_insert(*args, **kwargs)
    count["insert"] += 1
    if count["insert"] == kill_after:
        os.kill(os.getpid(), signal.SIGKILL)
store.insert_event = insert_event
app = create_app(instance_path=sys.argv[1])
commits = {"n": 0}
real_put = store.cache.put
def put(*args, **kwargs):  # called right after a command's commit, before the answer
    commits["n"] += 1
    if commits["n"] == kill_commit:
        os.kill(os.getpid(), signal.SIGKILL)
    return real_put(*args, **kwargs)
store.cache.put = put
serve(app, host="127.0.0.1", port=int(sys.argv[2]), threads=8, _quiet=True)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Client:
    """A director's HTTP client with its own session cookie and CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = self.call("GET", "/api/session")[1]["csrf_token"]

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if getattr(self, "token", None):
            request.add_header("X-CSRFToken", self.token)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def log_in(self) -> Client:
        status, body = self.call("POST", "/api/login", {"password": PASSWORD})
        assert status == 200, body
        self.token = body["csrf_token"]
        return self


class Server:
    """``poker-director`` in a subprocess on the instance folder, with an optional seam armed."""

    def __init__(self, instance: Path, **env: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = instance.parent / "server.log"
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-c", SERVER, str(instance), str(self.port)],
                cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=log,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.log.read_text()) from None
                time.sleep(0.1)
        raise RuntimeError("The server did not start.")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=10)


@pytest.fixture
def night(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    """An instance folder with the director's password, a tournament of six, seats drawn."""
    instance = tmp_path / "instance"
    cache.clear()
    app = create_app({"TESTING": True}, instance_path=instance)
    client = app.test_client()
    token = client.get("/api/session").get_json()["csrf_token"]
    token = client.post("/api/setup-password", json={"password": PASSWORD},
                        headers={"X-CSRFToken": token}).get_json()["csrf_token"]
    headers = {"X-CSRFToken": token}
    tid = client.post("/api/tournaments", json={"name": "Friday", "late_registration_levels": 4},
                      headers=headers).get_json()["id"]
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay"):
        assert client.post(f"/api/t/{tid}/players", json={"name": name}, headers=headers).status_code == 201
    assert client.post(f"/api/t/{tid}/tables/draw", json={"table_size": 6}, headers=headers).status_code == 201
    assert client.post(f"/api/t/{tid}/clock/start", json={}, headers=headers).status_code == 201
    cache.clear()
    yield instance, tid
    cache.clear()


def state_of(instance: Path, tid: int) -> Any:
    cache.clear()
    app = create_app({"TESTING": True}, instance_path=instance)
    with app.app_context():
        from director.core.db import get_db

        db = get_db()
        names = [r[0] for r in db.execute("SELECT name FROM player_names").fetchall()]
        return load_state(db, tid), names


@pytest.mark.parametrize("kill_after_insert", [1, 2])
def test_a_kill_between_the_events_of_a_late_registration_leaves_nothing(
    night: tuple[Path, int], kill_after_insert: int
) -> None:
    """Killed after the registration's row, or after the seat's row (before the commit)."""
    instance, tid = night
    before, _ = state_of(instance, tid)
    server = Server(instance, KILL_AFTER_INSERT=str(kill_after_insert))
    try:
        client = Client(server.base).log_in()
        with pytest.raises(OSError):  # the server died mid-command: no answer
            client.call("POST", f"/api/t/{tid}/players", {"name": "Gus"})
        assert server.process.wait(timeout=10) == -signal.SIGKILL
    finally:
        server.stop()
    after, names = state_of(instance, tid)
    assert after.seq == before.seq
    assert after.player_named("Gus") is None and "Gus" not in names
    # ... and after the restart the same command goes through whole.
    server = Server(instance)
    try:
        status, body = Client(server.base).log_in().call("POST", f"/api/t/{tid}/players", {"name": "Gus"})
        assert status == 201, body
    finally:
        server.stop()
    after, names = state_of(instance, tid)
    gus = after.player_named("Gus")
    assert gus is not None and gus.table is not None and "Gus" in names
    assert after.seq == before.seq + 2


def test_a_kill_after_the_commit_keeps_all_of_it(night: tuple[Path, int]) -> None:
    """The answer is lost, the command is not: registered, seated and remembered."""
    instance, tid = night
    before, _ = state_of(instance, tid)
    server = Server(instance, KILL_AFTER_COMMIT="1")
    try:
        client = Client(server.base).log_in()
        with pytest.raises(OSError):
            client.call("POST", f"/api/t/{tid}/players", {"name": "Gus"})
    finally:
        server.stop()
    after, names = state_of(instance, tid)
    gus = after.player_named("Gus")
    assert gus is not None and gus.table is not None and "Gus" in names
    assert after.seq == before.seq + 2


# --- racing clients ---------------------------------------------------------------------------


def race(calls: list[tuple[Client, str, str, Any]]) -> list[tuple[int, Any]]:
    """Every call at once (released together), in its own thread; the answers in order."""
    results: list[tuple[int, Any] | None] = [None] * len(calls)
    gate = threading.Barrier(len(calls))

    def run(i: int) -> None:
        client, method, path, body = calls[i]
        gate.wait()
        results[i] = client.call(method, path, body)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(r is not None for r in results)
    return [r for r in results if r is not None]


@pytest.fixture
def server(night: tuple[Path, int]) -> Iterator[tuple[Server, Path, int]]:
    instance, tid = night
    running = Server(instance)
    yield running, instance, tid
    running.stop()


def test_four_clients_send_the_same_bust_on_the_same_seq_and_it_is_recorded_once(
    server: tuple[Server, Path, int],
) -> None:
    running, _, tid = server
    clients = [Client(running.base).log_in() for _ in range(4)]
    seq = clients[0].call("GET", f"/api/t/{tid}")[1]["seq"]
    answers = race([(c, "POST", f"/api/t/{tid}/bust", {"player": 1, "expected_seq": seq}) for c in clients])
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201, 409, 409, 409], answers
    state = clients[0].call("GET", f"/api/t/{tid}")[1]
    assert state["seq"] == seq + 1
    assert [p["status"] for p in state["players"] if p["id"] == 1] == ["out"]


def test_four_clients_send_different_writes_and_each_is_recorded_or_refused_whole(
    server: tuple[Server, Path, int],
) -> None:
    running, _, tid = server
    clients = [Client(running.base).log_in() for _ in range(4)]
    seq = clients[0].call("GET", f"/api/t/{tid}")[1]["seq"]
    answers = race([
        (clients[0], "POST", f"/api/t/{tid}/bust", {"player": 2}),
        (clients[1], "POST", f"/api/t/{tid}/clock/pause", {}),
        (clients[2], "POST", f"/api/t/{tid}/players", {"name": "Gus"}),
        (clients[3], "POST", f"/api/t/{tid}/bust", {"player": 3, "expected_seq": seq}),
    ])
    assert [status for status, _ in answers[:3]] == [201, 201, 201], answers
    assert answers[3][0] in (201, 409), answers  # it was based on seq: first in, or stale
    state = clients[0].call("GET", f"/api/t/{tid}")[1]
    status = {p["name"]: p["status"] for p in state["players"]}
    assert status["Bob"] == "out" and status["Cid"] == ("out" if answers[3][0] == 201 else "in")
    gus = next(p for p in state["players"] if p["name"] == "Gus")
    assert gus["table"] is not None and state["clock"]["status"] == "paused"
    # Gus's registration is two events (registered, seated), every other write one: none doubled.
    assert state["seq"] == seq + 4 + (answers[3][0] == 201)


def test_concurrent_late_registrations_are_all_seated_with_no_server_error(
    server: tuple[Server, Path, int],
) -> None:
    """Measured before: 5 of 160 got "database is locked" (a 500) although they were recorded."""
    running, _, tid = server
    clients = [Client(running.base).log_in() for _ in range(4)]
    names = [f"Late {i}" for i in range(24)]
    answers: list[tuple[int, Any]] = []
    for k in range(0, len(names), 4):
        answers += race([(c, "POST", f"/api/t/{tid}/players", {"name": n}) for c, n in zip(clients, names[k:k + 4], strict=True)])
    assert [status for status, _ in answers] == [201] * len(names), [a for a in answers if a[0] != 201][:3]
    state = clients[0].call("GET", f"/api/t/{tid}")[1]
    late = [p for p in state["players"] if p["name"].startswith("Late")]
    assert len(late) == len(names) and all(p["table"] is not None for p in late)
    seats = [(p["table"], p["seat"]) for p in state["players"] if p["table"] is not None]
    assert len(seats) == len(set(seats))  # nobody in someone else's seat
