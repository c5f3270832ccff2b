"""The TV clock in a real Chromium: the countdown moves and matches the server, a pause from
another device shows within two seconds, the TV rides out a server restart, the chimes ring at
the right moments, and screenshots at TV and phone sizes are kept for people to look at."""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server

import director.screens.tv
from director import create_app
from director.core.db import get_db
from director.core.store import cache, load_state
from director.night import commands as services
from director.setup.commands import create_tournament
from director.tables.commands import draw

from .conftest import PASSWORD, LiveServer

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]


def make_night(app: Flask, started_ago: float = 100.0, players: int = 12, **settings: Any) -> int:
    """A tournament whose clock started ``started_ago`` seconds ago (real time)."""
    at = time.time() - started_ago
    with app.app_context():
        db = get_db()
        payload = {"name": "Saturday Night Hold'em", "buy_in": 25, "preset": "home-long", **settings}
        tournament_id = create_tournament(db, payload, at)
        for name in NAMES[:players]:
            services.register_player(db, tournament_id, name, None, at)
        services.clock_action(db, tournament_id, "start", None, at)
    return tournament_id


def act(app: Flask, tournament_id: int, action: str, seconds: int | None = None) -> None:
    with app.app_context():
        services.clock_action(get_db(), tournament_id, action, None, time.time(), seconds=seconds)


def ends_at(app: Flask, tournament_id: int) -> float:
    with app.app_context():
        clock = load_state(get_db(), tournament_id).clock_at(time.time())
    assert clock.ends_at is not None
    return clock.ends_at


def shown_seconds(page: Any) -> int:
    """The main countdown as the TV shows it, in seconds."""
    parts = [int(p) for p in page.inner_text("[data-main-time]").strip().split(":")]
    total = 0
    for part in parts:
        total = total * 60 + part
    return total


def wait_for_a_poll(page: Any) -> None:
    """Until the TV has measured its offset from at least one poll answer."""
    page.wait_for_function("window.tvClock && window.tvClock.samples().some(s => s.rtt > 0)", timeout=5000)


def test_the_countdown_moves_and_matches_the_server(live_server: LiveServer, page: Any) -> None:
    tid = make_night(live_server.app, started_ago=100.25)
    page.goto(f"{live_server.url}/t/{tid}/tv")
    wait_for_a_poll(page)
    deadline = ends_at(live_server.app, tid)
    seen = []
    for _ in range(8):
        before = time.time()
        shown = shown_seconds(page)
        server_now_ms, best_rtt = page.evaluate(
            "[window.tvClock.serverNow(), Math.min(...window.tvClock.samples().map(s => s.rtt))]"
        )
        after = time.time()
        # The TV's idea of the server's clock is right to within half the fastest poll's round
        # trip (a few milliseconds here; more on a loaded machine), plus a little.
        slack = best_rtt / 2 + 50
        assert before * 1000 - slack <= server_now_ms <= after * 1000 + slack
        # What it shows is the time left, rounded up, give or take the moment of reading.
        assert math.ceil(deadline - after) - 1 <= shown <= math.ceil(deadline - before) + 1
        seen.append(shown)
        page.wait_for_timeout(400)
    assert seen[0] > seen[-1], f"the countdown moves: {seen}"


def test_a_browser_with_a_wrong_clock_still_shows_the_servers_time(live_server: LiveServer, page: Any) -> None:
    """The TV's own clock is an hour and 7 seconds fast: the offset to the server takes care of it."""
    tid = make_night(live_server.app, started_ago=60)
    page.clock.install(time=time.time() + 3607)
    page.goto(f"{live_server.url}/t/{tid}/tv")
    wait_for_a_poll(page)
    page.wait_for_timeout(300)
    deadline = ends_at(live_server.app, tid)
    server_now_ms = page.evaluate("window.tvClock.serverNow()")
    assert abs(server_now_ms - time.time() * 1000) < 250
    assert abs(shown_seconds(page) - (deadline - time.time())) <= 1.5


def test_a_pause_from_another_device_shows_within_two_seconds(
    live_server: LiveServer, page: Any, browser: Any
) -> None:
    tid = make_night(live_server.app)
    page.goto(f"{live_server.url}/t/{tid}/tv")
    wait_for_a_poll(page)
    assert page.get_attribute("#tv-clock", "data-status") == "running"

    phone = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        dashboard = phone.new_page()
        live_server.login(dashboard)
        dashboard.goto(f"{live_server.url}/t/{tid}")
        with dashboard.expect_response(lambda r: r.url.endswith(f"/t/{tid}/clock/pause")):
            dashboard.get_by_role("button", name="Pause").click()
        clicked = time.monotonic()
        page.wait_for_selector("#tv-clock.is-paused .tv-paused", timeout=2000)
        assert time.monotonic() - clicked < 2.0
        frozen = page.inner_text("[data-main-time]")
        page.wait_for_timeout(1200)
        assert page.inner_text("[data-main-time]") == frozen, "a paused clock does not move"

        # The director's keyboard on a second TV: space resumes, everywhere.
        tv2 = phone.new_page()
        tv2.set_viewport_size({"width": 1280, "height": 720})
        tv2.goto(f"{live_server.url}/t/{tid}/tv")
        assert tv2.get_attribute("#tv", "data-director") == "true"
        with tv2.expect_response(lambda r: r.url.endswith(f"/t/{tid}/tv/key")):
            tv2.keyboard.press("Space")
        pressed = time.monotonic()
        page.wait_for_selector("#tv-clock[data-status=running]", timeout=2000)
        assert time.monotonic() - pressed < 2.0
        before = ends_at(live_server.app, tid)
        with tv2.expect_response(lambda r: r.url.endswith(f"/t/{tid}/tv/key")):
            tv2.keyboard.press("+")
        assert ends_at(live_server.app, tid) == pytest.approx(before + 60)
    finally:
        phone.close()


def test_level_change_and_last_minute_chimes(live_server: LiveServer, page: Any) -> None:
    tid = make_night(live_server.app, started_ago=0)
    # Take time off level 1 until 62 seconds are left.
    left = ends_at(live_server.app, tid) - time.time()
    act(live_server.app, tid, "add_time", -int(left - 62))
    page.goto(f"{live_server.url}/t/{tid}/tv")
    wait_for_a_poll(page)
    assert page.evaluate("document.body.dataset.lastSound") is None
    page.wait_for_function("document.body.dataset.lastSound === 'one-minute'", timeout=5000)
    assert "is-last-minute" in (page.get_attribute("#tv-clock", "class") or "")
    act(live_server.app, tid, "next_level")
    page.wait_for_function("document.body.dataset.lastSound === 'level-change'", timeout=2500)
    assert page.get_attribute("#tv-clock", "data-key") == "level-2"


def test_put_on_the_clock_overlay_counts_down(live_server: LiveServer, page: Any) -> None:
    tid = make_night(live_server.app)
    page.goto(f"{live_server.url}/t/{tid}/tv")
    wait_for_a_poll(page)
    with live_server.app.app_context():
        state = load_state(get_db(), tid)
        services.record(get_db(), tid, "action_clock", {"action": "start", "who": "Seat 4 · Dana"}, state.seq, time.time())
    page.wait_for_selector(".tv-action", timeout=2000)
    assert page.inner_text(".tv-action-who") == "Seat 4 · Dana"
    first = int(page.inner_text(".tv-action-time"))
    assert 57 <= first <= 60
    page.wait_for_timeout(1100)
    assert int(page.inner_text(".tv-action-time")) < first
    assert page.evaluate("document.body.dataset.lastSound") == "action-clock"


# ---------------------------------------------------------------- restart


class Restartable:
    """The app served on a fixed port, which can be stopped and started again like a laptop's server."""

    def __init__(self, instance: Path) -> None:
        self.instance = instance
        self.port = 0
        self.server: BaseWSGIServer | None = None
        self.thread: threading.Thread | None = None
        self.app = self.start()

    def start(self) -> Flask:
        cache.clear()
        director.screens.tv.rendered.clear()
        self.app = create_app({"TESTING": False}, instance_path=self.instance)
        self.server = make_server("127.0.0.1", self.port, self.app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self.app

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
        self.server = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[Restartable]:
    served = Restartable(tmp_path / "instance")
    with served.app.app_context():
        from director.core.first_start import set_password

        set_password(PASSWORD)
    yield served
    if served.server is not None:
        served.stop()
    cache.clear()


def test_the_tv_keeps_counting_while_the_server_is_down_and_recovers(restartable: Restartable, page: Any) -> None:
    tid = make_night(restartable.app)
    page.goto(f"{restartable.url}/t/{tid}/tv")
    wait_for_a_poll(page)
    restartable.stop()
    during = shown_seconds(page)
    page.wait_for_timeout(2500)
    assert shown_seconds(page) < during, "the countdown goes on without the server"
    page.wait_for_selector("body.is-offline .tv-offline", timeout=8000)

    app = restartable.start()
    act(app, tid, "pause")
    page.wait_for_selector("#tv-clock.is-paused", timeout=4000)
    page.wait_for_function("!document.body.classList.contains('is-offline')", timeout=2000)
    with app.app_context():
        left = load_state(get_db(), tid).clock_at(time.time()).seconds_left
    assert left is not None
    assert abs(shown_seconds(page) - left) <= 1


# ---------------------------------------------------------------- screenshots


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720), (390, 844)])
def test_screenshots_fit_the_screen(
    live_server: LiveServer, browser: Any, artifacts_dir: Path, width: int, height: int
) -> None:
    app = live_server.app
    tid = make_night(app, started_ago=27 * 60 + 26)  # level 2, 12:34 left
    with app.app_context():
        db = get_db()
        state = load_state(db, tid)
        out = [p.id for p in state.players][-4:]
        for pid in out:
            services.bust(db, tid, [pid], None, time.time())
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tid}/tv")
        wait_for_a_poll(page)
        page.wait_for_timeout(300)
        size = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerWidth, innerHeight]"
        )
        assert size[0] <= size[2] and size[1] <= size[3], f"no scrolling: {size}"
        for selector in (".tv-name", ".tv-level", "[data-main-time]", ".tv-blinds", ".tv-next", ".tv-stats"):
            box = page.locator(selector).bounding_box()
            assert box is not None, selector
            assert box["x"] >= 0 and box["y"] >= 0, selector
            assert box["x"] + box["width"] <= width + 1 and box["y"] + box["height"] <= height + 1, selector
        time_box = page.locator("[data-main-time]").bounding_box()
        assert time_box is not None and time_box["height"] >= height * (0.09 if width < height else 0.25)
        page.screenshot(path=str(artifacts_dir / f"tv-{width}x{height}.png"))
        page.evaluate("window.tvClock")  # the page is alive
        act(app, tid, "pause")
        page.wait_for_selector("#tv-clock.is-paused", timeout=2500)
        page.screenshot(path=str(artifacts_dir / f"tv-{width}x{height}-paused.png"))
    finally:
        context.close()


def test_a_level_that_ends_while_the_server_is_away_rolls_over_to_the_next(
    restartable: Restartable, page: Any
) -> None:
    """The Wi-Fi drops three seconds before the end of level 1: the TV goes on to level 2 by itself."""
    tid = make_night(restartable.app, started_ago=20 * 60 - 3.5)  # home-long: 20-minute levels
    page.goto(f"{restartable.url}/t/{tid}/tv")
    wait_for_a_poll(page)
    assert page.inner_text(".tv-level").strip().upper() == "LEVEL 1"
    level_two_ends = ends_at(restartable.app, tid) + 20 * 60
    restartable.stop()
    page.wait_for_selector("#tv-clock.is-predicted", timeout=8000)
    assert page.inner_text(".tv-level").strip().upper() == "LEVEL 2"
    assert "75 / 150" in page.inner_text(".tv-blinds")
    assert abs(shown_seconds(page) - (level_two_ends - time.time())) <= 1.5
    assert page.evaluate("document.body.dataset.lastSound") == "level-change"

    restartable.start()
    page.wait_for_function("!document.getElementById('tv-clock').classList.contains('is-predicted')", timeout=4000)
    assert page.get_attribute("#tv-clock", "data-key") == "level-2"


def test_sound_is_enabled_with_a_visible_click(live_server: LiveServer, page: Any) -> None:
    """Browsers block audio until a click: the TV shows a button for it and remembers the choice."""
    tid = make_night(live_server.app)
    page.goto(f"{live_server.url}/t/{tid}/tv")
    button = page.locator("#tv-sound")
    assert button.inner_text() == "Enable sound"
    assert button.get_attribute("aria-pressed") == "false"
    with page.expect_response(lambda r: r.url.endswith("/static/sounds/one-minute.wav")):
        button.click()  # plays the one-minute chime as a test
    page.wait_for_function("document.getElementById('tv-sound').getAttribute('aria-pressed') === 'true'", timeout=3000)
    assert button.inner_text() == "Sound on"
    assert page.evaluate("localStorage.getItem('tv-sound')") == "on"
    page.locator("#tv-voice").click()
    assert page.locator("#tv-voice").inner_text() == "Voice on"
    assert page.evaluate("localStorage.getItem('tv-voice')") == "on"


def test_a_table_move_shows_on_the_tv_in_large_type(live_server: LiveServer, page: Any) -> None:
    """The seating pages' moves of the last minute appear over the clock."""
    app = live_server.app
    tid = make_night(app)
    with app.app_context():
        db = get_db()
        state = draw(db, tid, None, time.time(), rng=random.Random(5))
        ann = state.player_named("Ann")
        assert ann is not None and ann.table is not None
        taken = {(p.table, p.seat) for p in state.alive}
        table, seat = next(
            (t, s) for t in state.seating.tables for s in range(1, 10) if (t, s) not in taken and t != ann.table
        )
        services.record(db, tid, "player_moved", {"player": ann.id, "table": table, "seat": seat}, None, time.time())
    page.goto(f"{live_server.url}/t/{tid}/tv")
    said = f"Ann, from table {ann.table} seat {ann.seat} to table {table} seat {seat}"
    # Read the text and the size in one look: the TV's poll may swap the band in between two.
    page.wait_for_function(
        """said => [...document.querySelectorAll('.tv-move')].some(
               e => e.innerText.includes(said) && e.getBoundingClientRect().height > 40)""",
        arg=said, timeout=3000,
    )


def test_a_drifting_browser_clock_stays_in_step_with_the_server(live_server: LiveServer, page: Any) -> None:
    """The issue: "Over a 5-hour session the TV's clock stays within half a second of the server's."

    Here the TV's clock runs 2 % fast (six minutes over five hours; real clocks drift a thousand
    times less): the re-measured offset keeps it within a tenth of a second all along.
    """
    tid = make_night(live_server.app)
    page.add_init_script(
        """(() => {
          const realNow = Date.now.bind(Date), start = realNow();
          Date.now = () => start + (realNow() - start) * 1.02;
        })();"""
    )
    page.goto(f"{live_server.url}/t/{tid}/tv")
    wait_for_a_poll(page)
    worst = 0.0
    for _ in range(10):
        page.wait_for_timeout(900)
        before = time.time() * 1000
        server_now_ms, local_ms = page.evaluate("[window.tvClock.serverNow(), Date.now()]")
        after = time.time() * 1000
        error = max(before - server_now_ms, server_now_ms - after, 0)
        worst = max(worst, error)
    assert local_ms - after > 100, "the page's own clock has drifted"
    assert worst < 100, f"the TV was {worst:.0f} ms off the server"


def test_a_level_edited_on_the_structure_page_shows_on_the_tv_within_two_seconds(
    live_server: LiveServer, page: Any, browser: Any
) -> None:
    """"the TV and the phones follow within 2 seconds" of an edit of the structure in play."""
    tid = make_night(live_server.app, started_ago=100.0)
    page.goto(f"{live_server.url}/t/{tid}/tv")
    wait_for_a_poll(page)
    before = page.inner_text(".tv-blinds")
    laptop = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        director_page = laptop.new_page()
        live_server.login(director_page)
        director_page.goto(f"{live_server.url}/t/{tid}/structure")
        row = director_page.locator("#item-0")
        row.get_by_label("Level 1 big blind").fill("150")
        row.get_by_label("Level 1 minutes").fill("45")
        with director_page.expect_response(lambda r: r.url.endswith(f"/t/{tid}/structure")):
            row.get_by_role("button", name="Save").click()
        saved = time.monotonic()
        page.wait_for_function(
            "document.querySelector('.tv-blinds') && document.querySelector('.tv-blinds').innerText.includes('50 / 150')",
            timeout=2000,
        )
        assert time.monotonic() - saved < 2.0
        assert "50 / 150" not in before
        assert director_page.locator(".flash-ok").inner_text().startswith("Level 1:")
        # The level kept the 100 seconds it had run: about 43 minutes are left of its 45.
        page.wait_for_function("document.querySelector('[data-main-time]').innerText.startsWith('43:')", timeout=2000)
    finally:
        laptop.close()
