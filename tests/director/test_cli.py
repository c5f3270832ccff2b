"""The command line: serve with waitress (killed and restarted with nothing lost), with several
workers under gunicorn, demo, migrate."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from director import create_app
from director.cli import lan_url, main, qr_text
from director.core.db import get_db
from director.core.store import cache, load_state

ROOT = Path(__file__).resolve().parents[2]


class Server:
    """``poker-director serve`` in a subprocess, and a cookie-keeping JSON client for it."""

    def __init__(self, data: Path, *options: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "director.cli", "serve", "--host", "127.0.0.1", "--port", "0", "--data", str(data),
             *options],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        assert self.process.stdout is not None
        self.url = ""
        deadline = time.monotonic() + 30
        lines = []
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            lines.append(line)
            found = re.search(r"Open (http://127\.0\.0\.1:\d+)", line)
            if found:
                self.url = found.group(1)
                break
            if not line and self.process.poll() is not None:
                break
        assert self.url, "".join(lines)
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.token = ""

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("X-CSRFToken", self.token)
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def session(self) -> None:
        self.token = self.call("GET", "/api/session")[1]["csrf_token"]

    def kill(self, sig: int = signal.SIGKILL) -> None:
        self.process.send_signal(sig)
        self.process.wait(timeout=30)
        if self.process.stdout:
            self.process.stdout.close()


@pytest.mark.slow
def test_killing_the_server_mid_tournament_loses_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = Server(data)
    try:
        server.session()
        assert server.call("POST", "/api/setup-password", {"password": "river-card"})[0] == 201
        server.session()
        status, t = server.call("POST", "/api/tournaments", {"name": "Kill test", "preset": "home-short"})
        assert status == 201
        tid = t["id"]
        for name in ["Ann", "Bob", "Cy", "Dee"]:
            assert server.call("POST", f"/api/t/{tid}/players", {"name": name})[0] == 201
        server.call("POST", f"/api/t/{tid}/seats/draw", {})
        server.call("POST", f"/api/t/{tid}/clock/start", {})
        server.call("POST", f"/api/t/{tid}/clock/add_time", {"seconds": 120})
        status, before = server.call("POST", f"/api/t/{tid}/bust", {"player": 4, "by": 2})
        assert status == 201
    finally:
        server.kill()
    assert server.process.returncode == -signal.SIGKILL

    again = Server(data)
    try:
        status, after = again.call("GET", f"/api/t/{tid}")
        assert status == 200
        for key in ("seq", "players", "tables", "players_left", "entries", "chips_in_play", "prize_pool"):
            assert after[key] == before[key], key
        assert after["clock"]["status"] == "running"
        assert after["clock"]["level"] == before["clock"]["level"]
        assert after["clock"]["ends_at"] == before["clock"]["ends_at"]  # the clock is exactly where it was
        assert after["players"][3]["place"] == 4
        again.session()  # the password survived too
        assert again.call("POST", "/api/login", {"password": "river-card"})[0] == 200
        again.session()
        assert again.call("POST", f"/api/t/{tid}/clock/pause", {"expected_seq": after["seq"]})[0] == 201
    finally:
        again.kill()


def test_demo_command_fills_a_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache.clear()
    assert main(["demo", "--data", str(tmp_path)]) == 0
    assert "Demo tournament 1 added" in capsys.readouterr().out
    app = create_app({"TESTING": True}, instance_path=tmp_path)
    with app.app_context():
        state = load_state(get_db(), 1)
    assert state.started and state.entries == 10 and state.rebuys == 1 and state.players_left == 7
    assert state.clock_at(time.time()).level_number == 4
    cache.clear()


def test_migrate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", "--data", str(tmp_path / "new")]) == 0
    assert (tmp_path / "new" / "poker-director.db").exists()
    assert (tmp_path / "new" / "secret_key").exists()


def test_address_and_qr_code_for_the_terminal() -> None:
    assert lan_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert re.fullmatch(r"http://[0-9.]+:8000", lan_url("0.0.0.0", 8000))
    art = qr_text("http://192.168.1.20:8000")
    assert len(art.splitlines()) > 12 and "█" in art  # two rows of modules per line


def test_serve_rejects_unknown_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--colour", "red"])


def waitress_started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What ``serve`` gives waitress, which stops at once (as on Ctrl+C)."""
    import waitress

    given: dict[str, Any] = {}

    class Server:
        effective_port = 8000

        def run(self) -> None:
            raise KeyboardInterrupt

    def create_server(app: Any, **options: Any) -> Server:
        given.update(options)
        return Server()

    monkeypatch.setattr(waitress, "create_server", create_server)
    return given


def test_serve_keeps_a_club_nights_connections_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every phone keeps its connection between polls: 330 devices on a club night must all
    be served (waitress's default limit of 100 left the others waiting until they timed out)."""
    given = waitress_started(monkeypatch)
    assert main(["serve", "--host", "127.0.0.1", "--data", str(tmp_path / "data")]) == 0
    assert given["connection_limit"] >= 400 and given["threads"] == 16


def test_several_workers_run_under_gunicorn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``--workers 2``: two processes of 4 threads each (a few threads keep a core busy; more
    only make a dealer's write wait longer for its turn at the interpreter), each keeping a
    club night's connections; the address is printed once the server listens. ``--threads``
    says otherwise."""
    from director.core import workers

    given: dict[str, Any] = {}

    def run(folder: Path, settings: dict[str, Any], ready: Any) -> None:
        given.update(settings)
        ready()
        raise KeyboardInterrupt

    monkeypatch.setattr(workers, "available", lambda: True)
    monkeypatch.setattr(workers, "run", run)
    assert main(["serve", "--host", "127.0.0.1", "--workers", "2", "--data", str(tmp_path / "data")]) == 0
    assert given["worker_connections"] >= 400 and given["threads"] == workers.THREADS == 4 and given["workers"] == 2
    assert given["worker_class"] == "gthread" and given["bind"][0].startswith("127.0.0.1:")
    assert given["keepalive"] >= 30  # a phone polls every few seconds on the connection it keeps
    assert given["reuse_port"] is workers.spreads_connections()  # each worker listens: the kernel spreads the phones
    out = capsys.readouterr().out
    assert "2 worker processes of 4 threads each." in out and "Open http://127.0.0.1:" in out
    assert main(["serve", "--host", "127.0.0.1", "--workers", "3", "--threads", "16",
                 "--data", str(tmp_path / "data")]) == 0
    assert given["threads"] == 16 and given["workers"] == 3
    assert "3 worker processes of 16 threads each." in capsys.readouterr().out


@pytest.mark.parametrize("reuse_port", [False, True], ids=["a server", "a worker sharing its port"])
def test_serve_refuses_a_port_someone_listens_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str], reuse_port: bool) -> None:
    """A second server on the same port is refused with a sentence, before anything starts:
    where each worker listens with SO_REUSEPORT, a second ``serve --workers 2`` would
    otherwise share the port quietly, and the phones would be split between two nights."""
    import socket

    from director.core import workers

    if reuse_port and not workers.spreads_connections():
        pytest.skip("this system has no SO_REUSEPORT")
    started = waitress_started(monkeypatch)
    with socket.socket() as other:
        if reuse_port:
            other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        assert workers.port_taken("127.0.0.1", port)
        for extra in ([], ["--workers", "2"]):
            assert main(["serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(tmp_path / "data"),
                         *extra]) == 1
            assert f"Port {port} is in use already" in capsys.readouterr().err
    assert not started and not (tmp_path / "data").exists()  # nothing started, nothing made
    assert not workers.port_taken("127.0.0.1", port)


def test_without_gunicorn_serve_runs_waitress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A system without gunicorn (Windows): one process with waitress, said when more were asked."""
    from director.core import workers

    given = waitress_started(monkeypatch)
    monkeypatch.setattr(workers, "available", lambda: False)
    assert main(["serve", "--host", "127.0.0.1", "--workers", "2", "--data", str(tmp_path / "data")]) == 0
    assert given["connection_limit"] >= 400 and given["threads"] == 16
    assert "serving with one process instead of 2" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["5", "5000", "many"])
def test_serve_refuses_a_connection_limit_out_of_bounds(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--connections", value])
    assert "--connections" in capsys.readouterr().err
