"""A TV left on all night: an hour of polling on a sped-up clock (Playwright's, the server
answering each poll for real). After a forced garbage collection its DOM nodes and its JS
heap stay flat, and its requests a minute stay few and small."""

from __future__ import annotations

import time
from typing import Any

import pytest

from director.core.db import get_db
from director.home.demo import fill_demo
from director.night import commands as services

from .conftest import LiveServer

pytestmark = pytest.mark.browser

POLL_MS = 1500
HOUR = 3600 * 1000 // POLL_MS  # 2,400 polls


def test_an_hour_of_polling_keeps_the_dom_and_the_heap_flat(live_server: LiveServer, browser: Any) -> None:
    app = live_server.app
    with app.app_context():
        tid = fill_demo(get_db(), time.time())
        services.record(get_db(), tid, "hand_for_hand", {"on": True}, None, time.time())
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    polls: list[int] = []  # the bytes of each poll's answer, as sent

    def answered(response: Any) -> None:
        if "/tv/clock" in response.url:
            polls.append(int(response.headers.get("content-length") or len(response.body())))

    page.on("response", answered)
    try:
        page.clock.install()
        page.goto(f"{live_server.url}/t/{tid}/tv?layout=info")
        page.evaluate("window.swaps = 0; document.addEventListener('htmx:afterSettle', () => window.swaps++)")
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")

        def measured() -> tuple[int, int]:
            # Between polls: no request, swap or settle under way (a poll answered late on a
            # busy machine would count the old partial and the new one together).
            page.wait_for_function("!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')")
            cdp.send("HeapProfiler.collectGarbage")
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            return int(metrics["Nodes"]), int(metrics["JSHeapUsedSize"])

        def run(polls_to_run: int) -> None:
            for _ in range(polls_to_run):
                want = page.evaluate("window.swaps") + 1
                page.clock.run_for(POLL_MS)
                page.wait_for_function(f"window.swaps >= {want}", timeout=5000)

        # The first twenty minutes: the page, the browser's caches and the JIT settle (the heap
        # grows by some 350 KB over the first 800 polls, less each time, then stays).
        run(HOUR // 3)
        nodes_before, heap_before = measured()
        polls.clear()
        run(HOUR * 2 // 3)
        nodes_after, heap_after = measured()
    finally:
        context.close()
    minutes = (HOUR * 2 // 3) * POLL_MS / 60_000
    assert nodes_after <= nodes_before + 10, f"DOM nodes {nodes_before} -> {nodes_after}"
    # A partial kept by mistake each poll would be some 3 KB of DOM and strings: 5 MB here.
    assert heap_after <= heap_before * 1.05, f"JS heap {heap_before:,} -> {heap_after:,} bytes"
    assert len(polls) / minutes <= 50, f"{len(polls) / minutes:.0f} requests a minute"
    assert sum(polls) / minutes <= 81 * 1024, f"{sum(polls) / minutes / 1024:.0f} KB a minute"
