"""``poker-director serve --workers 2``: two processes on one database behave as one.

Each worker keeps its own folded states, rendered clocks and polled answers. These tests
start the real command, warm both workers' caches, then write through one connection and
read through twenty new ones (spread by the kernel over both workers): every read must show
the write. They cover the clock, undo, the stale-write rule, the host's change of language
(which is no event of any stream) and a restore.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from director.core import workers
from tests.director.test_cli import Server

pytestmark = pytest.mark.skipif(not workers.available(), reason="several workers need gunicorn (not on Windows)")

READS = 20
PASSWORD = "two-workers-password"


class Night:
    """The director's browser: a session cookie, the CSRF token, a new connection each time
    (``Connection: close``), so that each request may land on either worker."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = requests.Session()
        self.http.headers["Connection"] = "close"
        self.csrf = self.http.get(base + "/api/session", timeout=10).json()["csrf_token"]

    def post(self, path: str, body: dict[str, Any] | None = None, status: int = 201) -> Any:
        answer = self.http.post(self.base + path, json=body or {}, headers={"X-CSRFToken": self.csrf}, timeout=30)
        assert answer.status_code == status, answer.text
        return answer.json()

    def get(self, path: str) -> Any:
        answer = self.http.get(self.base + path, timeout=10)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def reads(self, path: str) -> list[Any]:
        return [self.get(path) for _ in range(READS)]

    def pages(self, path: str, language: str = "en") -> list[str]:
        """A phone's page read twenty times without the director's cookie (as a phone)."""
        return [requests.get(self.base + path, headers={"Connection": "close", "Accept-Language": language},
                             timeout=10).text for _ in range(READS)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``serve --workers 2``, answering once it prints its address."""
    running = Server(tmp_path_factory.mktemp("two-workers"), "--workers", "2", "--threads", "4")
    try:
        yield running.url
    finally:
        running.kill(signal.SIGTERM)  # the master stops its workers


@pytest.fixture(scope="module")
def night(server: str) -> tuple[Night, int, str]:
    """Four players seated at one table, the clock running; the first player's page."""
    director = Night(server)
    director.csrf = director.post("/api/setup-password", {"password": PASSWORD})["csrf_token"]
    tid = int(director.post("/api/tournaments", {"name": "Two workers", "preset": "home-short"})["id"])
    for name in ("Ann", "Bob", "Cy", "Dee"):
        director.post(f"/api/t/{tid}/players", {"name": name})
    director.post(f"/api/t/{tid}/seats/draw")
    director.post(f"/api/t/{tid}/clock/start")
    events = director.get(f"/api/t/{tid}/events")["events"]
    token = next(e["payload"]["token"] for e in events if e["type"] == "player_registered")
    return director, tid, token


def test_the_clock_and_undo_are_the_same_on_both_workers(night: tuple[Night, int, str]) -> None:
    director, tid, _ = night
    director.reads(f"/api/t/{tid}")  # both workers hold the running clock
    paused = director.post(f"/api/t/{tid}/clock/pause")
    assert {(r["seq"], r["clock"]["status"]) for r in director.reads(f"/api/t/{tid}")} == {(paused["seq"], "paused")}
    undone = director.post(f"/api/t/{tid}/undo")
    assert {(r["seq"], r["clock"]["status"]) for r in director.reads(f"/api/t/{tid}")} == {(undone["seq"], "running")}


def test_a_stale_write_is_refused_whichever_worker_takes_it(night: tuple[Night, int, str]) -> None:
    """The stale-write rule: two phones send the same table's entry from the same view; the
    second is told the table moved on, though another process took it."""
    director, tid, _ = night
    view = director.get(f"/api/t/{tid}/table/1")
    director.reads(f"/api/t/{tid}/table/1")
    dealt = director.post(f"/api/t/{tid}/table/1/deal", {"expected_seq": view["seq"]})
    refused = director.post(f"/api/t/{tid}/table/1/deal", {"expected_seq": view["seq"]}, status=409)
    assert "error" in refused
    assert {r["seq"] for r in director.reads(f"/api/t/{tid}/table/1")} == {dealt["seq"]}


def test_the_hosts_language_reaches_the_phones_on_both_workers(night: tuple[Night, int, str]) -> None:
    """A change of language is no event of the tournament: the other worker's polled answers
    are made again all the same (the database's generation moved)."""
    director, _, token = night
    director.post("/api/language", {"phones_follow_browser": False}, status=200)
    path = f"/p/{token}/live"
    assert all("Your seat" in page for page in director.pages(path))  # both workers keep the English answer
    director.post("/api/language", {"language": "fr"}, status=200)
    assert all("Votre place" in page and "Your seat" not in page for page in director.pages(path))
    director.post("/api/language", {"language": "en", "phones_follow_browser": True}, status=200)
    assert all("Your seat" in page for page in director.pages(path))


def test_a_restore_shows_the_backup_on_both_workers(night: tuple[Night, int, str]) -> None:
    director, tid, token = night
    backup = director.http.get(director.base + "/api/backup", timeout=30)
    assert backup.status_code == 200
    before = director.get(f"/api/t/{tid}")
    assert before["clock"]["status"] == "running"
    paused = director.post(f"/api/t/{tid}/clock/pause")
    assert {r["clock"]["status"] for r in director.reads(f"/api/t/{tid}")} == {"paused"}
    phone = director.pages(f"/p/{token}/live")
    restored = director.http.post(director.base + "/api/restore", files={"backup": ("night.db", backup.content)},
                                  data={"confirm": "true"}, headers={"X-CSRFToken": director.csrf}, timeout=60)
    assert restored.status_code == 200, restored.text
    assert {(r["seq"], r["clock"]["status"]) for r in director.reads(f"/api/t/{tid}")} == {(before["seq"], "running")}
    assert paused["seq"] == before["seq"] + 1
    assert len(set(director.pages(f"/p/{token}/live"))) == 1 and len(set(phone)) == 1
