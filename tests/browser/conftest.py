"""A live server for browser tests: the real app on a free port in a thread (werkzeug, threaded).

``live_server`` yields a ``LiveServer`` with ``url``, ``app`` and ``login(page)``; the director's
password is already set. Other browser tests may reuse it. ``phone`` is a Playwright page
in a fresh phone-sized context (``PHONE``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from director import create_app
from director.core.store import cache

PASSWORD = "river-card"
PHONE = {"width": 390, "height": 844}


@dataclass
class LiveServer:
    url: str
    app: Flask
    password: str = PASSWORD

    def login(self, page: Any) -> None:
        """Log the Playwright ``page`` in as the director."""
        page.goto(f"{self.url}/auth/login")
        page.fill("input[name=password]", self.password)
        page.click("button[type=submit]")
        page.wait_for_url(f"{self.url}/")


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    cache.clear()
    app = create_app({"TESTING": False}, instance_path=tmp_path / "instance")
    with app.app_context():
        from director.core.first_start import set_password

        set_password(PASSWORD)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield LiveServer(url=f"http://127.0.0.1:{server.server_port}", app=app)
    finally:
        server.shutdown()
        thread.join(timeout=5)
        cache.clear()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page on a phone-sized screen, in its own browser context."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    yield page
    context.close()
