"""Take the README's screenshots of the director's pages with Debian's Chromium.

    python docs/screenshots/make_screenshots.py

Runs the app on a temporary data folder with the demo tournament (and a second, finished one
for the results page) and writes the PNGs next to this file.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from director import create_app  # noqa: E402
from director.club import seasons  # noqa: E402
from director.core.db import get_db  # noqa: E402
from director.core.first_start import set_password  # noqa: E402
from director.core.store import load_state  # noqa: E402
from director.home.demo import fill_demo  # noqa: E402
from director.night import commands as night_commands  # noqa: E402
from director.setup import chips as chipsets  # noqa: E402
from director.setup.commands import create_tournament  # noqa: E402
from director.tables.commands import draw  # noqa: E402

PASSWORD = "river-card"
HOST_CHIPS = {
    "name": "The blue case",
    "denominations": [
        {"value": 25, "colour": "white", "count": 150},
        {"value": 100, "colour": "red", "count": 150},
        {"value": 500, "colour": "blue", "count": 75},
        {"value": 1000, "colour": "green", "count": 100},
        {"value": 5000, "colour": "black", "count": 25},
    ],
}


def finished_tournament(now: float) -> int:
    db = get_db()
    tid = fill_demo(db, now - 26 * 3600, name="Friday league night")
    at = now - 24 * 3600
    while len(load_state(db, tid).alive) > 1:
        state = load_state(db, tid)
        victim = state.alive[-1]
        # The knockout goes to someone still in at the victim's table (else it is not recorded).
        mates = [p.id for p in state.alive if p.id != victim.id and p.table == victim.table]
        night_commands.bust(db, tid, [victim.id], None, at, by=mates[0] if mates else None)
        at += 5
    return tid


def mystery_night(now: float) -> int:
    """A mystery-bounty night where Hal has just been knocked out and an envelope opened."""
    db = get_db()
    tid = create_tournament(db, {"name": "Mystery Friday", "buy_in": 50, "bounty_kind": "mystery",
                                          "bounty": 20, "mystery_pool": "500x1, 100x3, 50x6", "table_size": 6},
                                     now - 600)
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"):
        night_commands.register_player(db, tid, name, None, now - 500)
    draw(db, tid, None, now - 400)
    night_commands.clock_action(db, tid, "start", None, now - 300)
    state = load_state(db, tid)
    hal = state.player(8)
    mate = next(p.id for p in state.alive if p.id != hal.id and p.table == hal.table)
    night_commands.bust(db, tid, [hal.id], None, now - 2, by=[mate])
    return tid


def bubble_night(now: float) -> int:
    """The demo on the bubble a moment ago, a player just moved: what the TV's band shows."""
    db = get_db()
    tid = fill_demo(db, now - 60, name="Saturday night")
    state = load_state(db, tid)
    while len(state.alive) > 4:
        victim = state.alive[-1]
        mates = [p.id for p in state.alive if p.id != victim.id and p.table == victim.table]
        night_commands.bust(db, tid, [victim.id], None, now - 3, by=mates[0] if mates else None)
        state = load_state(db, tid)
    mover = state.alive[0]
    taken = {(p.table, p.seat) for p in state.alive}
    table, seat = next((t, s) for t in state.seating.tables for s in range(1, 10)
                       if (t, s) not in taken and t != mover.table)
    night_commands.record(db, tid, "player_moved", {"player": mover.id, "table": table, "seat": seat}, None, now - 2)
    return tid


def accident_table(now: float) -> int:
    """A hand at table 1 where the dealer has a misdeal to declare (before substantial action)."""
    db = get_db()
    tid = create_tournament(db, {"name": "Sit and go", "preset": "sng-1000", "table_size": 6}, now - 600)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        night_commands.register_player(db, tid, name, None, now - 500)
    night_commands.record(db, tid, "seats_drawn", {"seats": {"1": [1, 1], "2": [1, 2], "3": [1, 3], "4": [1, 5]},
                                             "buttons": {"1": 5}}, None, now - 400)
    night_commands.clock_action(db, tid, "start", None, now - 300)
    night_commands.record(db, tid, "hand_started", {"table": 1}, None, now - 60)
    night_commands.record(db, tid, "hand_misdeal", {"table": 1, "cause": "exposed_first_two"}, None, now - 30)
    return tid


def league(now: float) -> int:
    """A season of six Friday nights (seeded busts), the last its final."""
    import random

    db = get_db()
    season_id, _ = seasons.save(db, {"name": "Friday league 2027", "formula": "table", "knockout_points": 1,
                                     "best_n": 4, "final_multiplier": 1.5}, now)
    rng = random.Random(4)
    names = ("Alice", "Bruno", "Chloe", "Dmitri", "Esme", "Farid", "Greta", "Hugo")
    for week in range(1, 7):
        at = now - (7 - week) * 7 * 86400
        tid = create_tournament(db, {"name": f"Friday week {week}"}, at)
        for name in names:
            night_commands.register_player(db, tid, name, None, at)
        night_commands.clock_action(db, tid, "start", None, at + 60)
        alive = list(range(1, len(names) + 1))
        while len(alive) > 1:
            victim = rng.choice(alive)
            alive.remove(victim)
            night_commands.bust(db, tid, [victim], None, at + 600 + len(alive), by=rng.choice(alive))
        seasons.add_night(db, season_id, tid, week == 6)
    return season_id


def main() -> None:
    app = create_app({}, instance_path=tempfile.mkdtemp())
    now = time.time()
    with app.app_context():
        set_password(PASSWORD)
        done = finished_tournament(now)
        demo = fill_demo(get_db(), now)
        chipsets.save(get_db(), HOST_CHIPS, now)
        mystery = mystery_night(now)
        accident = accident_table(now)
        bubble = bubble_night(now)
        with app.test_request_context():
            season = league(now)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"
    shots = [
        ("home", "/", (1280, 800)),
        ("new-tournament", "/new", (1280, 800)),
        ("players", f"/t/{demo}/players", (1280, 800)),
        ("dashboard", f"/t/{demo}", (1280, 800)),
        ("dashboard-phone", f"/t/{demo}", (390, 844)),
        ("results", f"/t/{done}/results", (1280, 800)),
        ("structure", f"/t/{demo}/structure", (1280, 800)),
        ("settings", f"/t/{demo}/settings", (1280, 800)),
        ("chips", "/chips", (1280, 800)),
        ("tv-mystery", f"/t/{mystery}/tv", (1280, 720)),
        ("tv-1920", f"/t/{bubble}/tv", (1920, 1080)),
        ("tv-info", f"/t/{demo}/tv?layout=info", (1280, 720)),
        ("tv-big-light", f"/t/{demo}/tv?layout=big&theme=light", (1280, 720)),
        ("tv-4-3", f"/t/{bubble}/tv", (1024, 768)),
        ("tv-settings", "/tv-settings", (1280, 800)),
        ("tv-phone", f"/t/{demo}/tv/phone", (390, 844)),
        ("dealer-rulings", f"/t/{accident}/table/1", (390, 844)),
        ("season", f"/seasons/{season}", (1280, 800)),
        ("season-tv", f"/seasons/{season}/tv", (1280, 720)),
        ("language", "/language", (1280, 800)),
        ("tv-fr", f"/t/{bubble}/tv", (1920, 1080), "fr"),
        ("dealer-de", f"/t/{accident}/table/1", (390, 844), "de"),
        ("dashboard-es", f"/t/{demo}", (1280, 800), "es"),
    ]
    opened = {"dealer-rulings": "#dealer .dl-accidents summary"}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--disable-gpu"])
        for name, path, (width, height), *language in shots:
            with app.app_context():  # the host's choice of language (English unless the shot names one)
                get_db()["app_settings"].upsert({"key": "language", "value": (language or ["en"])[0]}, pk="key")
            context = browser.new_context(viewport={"width": width, "height": height}, color_scheme="dark")
            page = context.new_page()
            page.goto(url + "/auth/login")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(url + "/")
            page.goto(url + path)
            page.wait_for_load_state("networkidle")
            if name in opened:  # a menu opened, scrolled to just under the page's bar
                page.click(opened[name])
                page.locator(opened[name]).evaluate(
                    "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 130)")
            page.wait_for_timeout(800)  # the TV's envelope opens in 0.6 s
            page.screenshot(path=str(HERE / f"{name}.png"))
            context.close()
        browser.close()
    server.shutdown()
    for name, *_ in shots:
        print(f"{name}.png  {(HERE / f'{name}.png').stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
