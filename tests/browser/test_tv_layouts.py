"""The TV's layouts in a real Chromium at five screen sizes each, with a move, an announcement
and the figures all showing at once: from the DOM, no two boxes of the screen overlap, each
stays on the screen, and no line of text is cut (its scrollWidth within its clientWidth).
Then the TV over a sped-up hour of polling: its DOM and its heap stay flat."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from director.core.db import get_db
from director.core.store import load_state
from director.night import commands as services
from director.setup.commands import create_tournament
from director.tables.commands import draw

from . import tv_states
from .conftest import LiveServer

pytestmark = pytest.mark.browser

SIZES = [(1280, 720), (1366, 768), (1920, 1080), (3840, 2160), (1024, 768)]
LAYOUTS = ["big", "standard", "info"]
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Maximilian Oberhauser-Lindqvist"]

# What the page itself says about its boxes (tests/browser/tv_measure.js): overlaps between
# the screen's boxes, boxes off the screen, lines whose text is wider than their box, and
# boxes whose lines are taller.
MEASURE = tv_states.MEASURE


def busy_night(app: Flask) -> int:
    """Two tables, the clock just started (the level's announcement is up), a move just made,
    a long name, a bounty and rebuys open: as much on the screen at once as a night shows."""
    at = time.time()
    with app.app_context():
        db = get_db()
        tid = create_tournament(db, {"name": "Saturday Night Hold'em Championship 2", "buy_in": 25,
                                              "preset": "home-long", "rebuy_levels": 4, "rebuy_cost": 25,
                                              "rebuy_chips": 10_000, "late_registration_levels": 3,
                                              "bounty_kind": "knockout", "bounty": 5}, at - 5)
        for name in NAMES:
            services.register_player(db, tid, name, None, at - 5)
        state = draw(db, tid, None, at - 4, rng=random.Random(3))
        services.clock_action(db, tid, "start", None, at - 3)
        ann = state.player_named("Ann")
        assert ann is not None
        taken = {(p.table, p.seat) for p in state.alive}
        table, seat = next((t, s) for t in state.seating.tables for s in range(1, 10)
                           if (t, s) not in taken and t != ann.table)
        services.record(db, tid, "player_moved", {"player": ann.id, "table": table, "seat": seat}, None, at - 2)
        db.execute("INSERT INTO tv_look (id, body) VALUES (1, ?)",
                   ('{"title": "The Thursday Poker Club of Upper Norwood", "show": '
                    '["next_levels", "payouts", "leaders", "board", "season", "chart"]}',))
        db.conn.commit()
    return tid


@pytest.mark.parametrize("layout", LAYOUTS)
def test_no_box_overlaps_and_no_text_is_cut_at_five_sizes(
    live_server: LiveServer, browser: Any, artifacts_dir: Path, layout: str
) -> None:
    tid = busy_night(live_server.app)
    problems = []
    for width, height in SIZES:
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/t/{tid}/tv?layout={layout}")
            # The announcement, beside the move or (a band too short for both) in turns with it.
            page.wait_for_selector(".tv-announce:not([hidden]), .tv-band[data-turns='1']", timeout=5000)
            turns = page.evaluate("document.querySelector('.tv-band').dataset.turns === '1'")
            page.wait_for_selector(".tv-move", state="attached" if turns else "visible", timeout=5000)
            page.wait_for_timeout(400)  # the announcement's half-second entrance
            found = page.evaluate(MEASURE)
            turns = page.evaluate("document.querySelector('.tv-band').dataset.turns === '1'")  # as measured
            page.screenshot(path=str(artifacts_dir / f"tv-{layout}-{width}x{height}.png"))
        finally:
            context.close()
        where = f"{layout} at {width}x{height}"
        if turns:
            assert found["announce"] + found["moves"] == 1, f"{where}: the band shows {found}"
        else:
            assert found["announce"] == 1 and found["moves"] == 1, f"{where}: the band shows {found}"
        assert found["stats"] >= 3, f"{where}: the figures show"
        assert found["page"] == [width, height], f"{where}: no scrolling"
        assert found["time"] >= height * 0.12, f"{where}: the time stays large ({found['time']} px)"
        for kind in ("overlaps", "off", "cut"):
            problems += [f"{where}: {kind}: {item}" for item in found[kind]]
    assert problems == []


def test_many_moves_take_turns_in_the_band_and_the_clock_keeps_its_size(
    live_server: LiveServer, browser: Any, artifacts_dir: Path
) -> None:
    """Moves at once and an announcement: the band shows as many moves as it holds and the
    others in turns ("1 / 3"), the clock keeps the size it has with nothing in the band
    (issue 31: it shrank from about 290 px to 80 px), nothing overlaps or is cut."""
    app = live_server.app
    tid = busy_night(app)
    plain = {}
    for width, height in ((1280, 720), (1024, 768)):
        context = browser.new_context(viewport={"width": width, "height": height})
        try:  # the clock with a single move: its size with nothing but a line in the band
            page = context.new_page()
            page.goto(f"{live_server.url}/t/{tid}/tv")
            page.wait_for_selector(".tv-move", timeout=5000)
            page.wait_for_timeout(400)
            plain[width] = page.evaluate("parseFloat(getComputedStyle(document.querySelector('[data-main-time]')).fontSize)")
        finally:
            context.close()
    with app.app_context():
        db = get_db()
        state = load_state(db, tid)
        table = state.seating.tables[-1]
        moving = [p for p in state.alive if p.table == table][:8]
        taken = {(p.table, p.seat) for p in state.alive}
        free = [(t, s) for t in state.seating.tables if t != table for s in range(1, 10) if (t, s) not in taken]
        for p, (t, s) in zip(moving, free, strict=False):
            services.record(db, tid, "player_moved", {"player": p.id, "table": t, "seat": s}, None, time.time())
    for width, height in ((1280, 720), (1024, 768)):
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/t/{tid}/tv")
            page.wait_for_selector(".tv-moves-page:not([hidden])", timeout=5000)
            page.wait_for_timeout(400)
            found = page.evaluate(MEASURE)
            # Read on a turn of the moves (the announcement may have a turn of its own).
            paging = page.wait_for_function("""() => { const band = document.querySelector('.tv-band');
                const moves = [...band.querySelectorAll('.tv-move')];
                const note = band.querySelector('.tv-moves-page');
                const shown = moves.filter(m => !m.hidden).length;
                return shown > 0 && !note.hidden && {total: moves.length, shown, per: Number(band.dataset.per),
                        note: note.textContent,
                        time: parseFloat(getComputedStyle(document.querySelector('[data-main-time]')).fontSize)}; }""",
                                        timeout=15_000).json_value()
            page.screenshot(path=str(artifacts_dir / f"tv-moves-{width}x{height}.png"))
        finally:
            context.close()
        pages = -(-paging["total"] // paging["per"])
        assert paging["total"] >= 4 and 1 <= paging["shown"] <= paging["per"] < paging["total"], paging
        assert re.fullmatch(rf"[1-{pages}] / {pages}", paging["note"]), paging
        page_number = int(paging["note"].split(" / ")[0])
        last = paging["total"] - paging["per"] * (pages - 1)
        assert paging["shown"] == (last if page_number == pages else paging["per"]), paging  # a page's share
        assert paging["time"] >= plain[width] * 0.98, (paging, plain)
        assert found["overlaps"] == [] and found["off"] == [] and found["cut"] == [], found


def test_an_announcement_rings_and_is_said_once(live_server: LiveServer, browser: Any) -> None:
    """The bubble comes while the TV is on: it shows in the band, rings and is said aloud, once."""
    app = live_server.app
    tid = busy_night(app)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_init_script("""
      window.spoken = [];
      speechSynthesis.speak = u => window.spoken.push(u.text);
      localStorage.setItem("tv-sound", "on"); localStorage.setItem("tv-voice", "on");
    """)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tid}/tv")
        page.wait_for_selector(".tv-move")
        page.wait_for_timeout(3000)  # past the page's first moments, when nothing rings
        with app.app_context():
            db = get_db()
            state = load_state(db, tid)
            paid = len(state.prizes)
            for victim in state.alive[paid + 1:]:
                services.bust(db, tid, [victim.id], None, time.time())
        bubble = page.locator(".tv-announce--bubble")
        bubble.wait_for(state="visible", timeout=5000)
        assert bubble.inner_text().split("\n")[0] == "The bubble"
        page.wait_for_function("document.body.dataset.lastSound === 'level-change'", timeout=3000)
        page.wait_for_function("window.spoken.length > 0", timeout=4000)
        page.wait_for_timeout(3500)  # two more polls: said once only
        assert page.evaluate("window.spoken") == ["We are on the bubble. One more out and everyone left is paid."]
    finally:
        context.close()


def test_the_tv_says_whether_the_screen_is_kept_awake(live_server: LiveServer, browser: Any) -> None:
    """Over plain http there is no Screen Wake Lock: the silent video keeps the screen on, and the
    TV's first screen says so."""
    tid = busy_night(live_server.app)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_init_script("delete Navigator.prototype.wakeLock")  # as on the home network's http
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tid}/tv")
        page.wait_for_function("document.getElementById('tv-awake').dataset.state === 'yes'", timeout=5000)
        assert page.inner_text("#tv-awake") == "Screen kept awake (silent video)"
        assert page.evaluate("!document.getElementById('tv-keep-awake').paused")
        box = page.locator("#tv-keep-awake").bounding_box()
        assert box is not None and box["width"] >= 1280 * 0.9, "as large as the page: browsers hold the screen for it"
    finally:
        context.close()
