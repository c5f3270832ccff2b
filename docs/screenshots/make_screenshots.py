"""Take the README's screenshots of the director's pages with Debian's Chromium.

    python docs/screenshots/make_screenshots.py [NAME ...]

Runs the app on a temporary data folder with the demo tournament (and a second, finished one
for the results page) and writes the PNGs next to this file: every one, or only those named
(``dealer-plo tv-games``).
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
from engine.structure import Level, Structure, structure_to_dict  # noqa: E402

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
    tid = dealt_at_table_one({"name": "Sit and go", "preset": "sng-1000", "table_size": 6}, now)
    night_commands.record(get_db(), tid, "hand_misdeal", {"table": 1, "cause": "exposed_first_two"}, None, now - 30)
    return tid


def dealt_at_table_one(fields: dict[str, object], now: float) -> int:
    """A tournament of ``fields`` with Ann, Bob, Cy and Dee at table 1 (seats 1, 2, 3, 5; the
    button on 5), the clock started and the first hand dealt."""
    db = get_db()
    tid = create_tournament(db, fields, now - 600)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        night_commands.register_player(db, tid, name, None, now - 500)
    night_commands.record(db, tid, "seats_drawn", {"seats": {"1": [1, 1], "2": [1, 2], "3": [1, 3], "4": [1, 5]},
                                                   "buttons": {"1": 5}}, None, now - 400)
    night_commands.clock_action(db, tid, "start", None, now - 300)
    night_commands.record(db, tid, "hand_started", {"table": 1}, None, now - 60)
    return tid


def games_night(now: float) -> int:
    """A mixed night: Pot-Limit Omaha, then Limit Hold'em, Omaha hi-lo, then dealer's choice, six
    players at table 1, a hand of Omaha dealt and raised."""
    db = get_db()
    structure = Structure("Mixed games", (
        Level(50, 100, minutes=20, game="plo"), Level(100, 200, minutes=20, game="lhe"),
        Level(150, 300, minutes=20, game="lo8"), Level(200, 400, minutes=20, game="choice"),
    ), 10_000, choices=("nlhe", "plo", "lo8"))
    tid = create_tournament(db, {"name": "Dealer's choice", "structure": structure_to_dict(structure),
                                 "starting_stack": 10_000, "table_size": 6}, now - 600)
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"):
        night_commands.register_player(db, tid, name, None, now - 500)
    night_commands.record(db, tid, "seats_drawn", {"seats": {str(k): [1, k] for k in range(1, 7)}, "buttons": {"1": 6}},
                          None, now - 400)
    night_commands.clock_action(db, tid, "start", None, now - 300)
    night_commands.record(db, tid, "hand_started", {"table": 1}, None, now - 60)
    night_commands.record(db, tid, "hand_action", {"table": 1, "actions": ["p3 cbr 350", "p4 cc"]}, None, now - 30)
    return tid


def hilo_showdown(now: float) -> int:
    """A hand of Limit Omaha hi-lo at its showdown: the dealer names the high and the low."""
    structure = Structure("Omaha eight", (Level(50, 100, minutes=20, game="lo8"),), 10_000)
    tid = dealt_at_table_one({"name": "Omaha night", "structure": structure_to_dict(structure),
                              "starting_stack": 10_000, "table_size": 6}, now)
    played = ["p3 cbr 200", "p5 cc", "p1 cc", "p2 cc"] + ["p1 cc", "p2 cc", "p3 cc", "p5 cc"] * 3
    night_commands.record(get_db(), tid, "hand_action", {"table": 1, "actions": played}, None, now - 30)
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
        games = games_night(now)
        hilo = hilo_showdown(now)
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
        ("dealer-plo", f"/t/{games}/table/1", (390, 844)),
        ("dealer-hilo", f"/t/{hilo}/table/1", (390, 844)),
        ("tv-games", f"/t/{games}/tv", (1280, 720)),
        ("structure-games", f"/t/{games}/structure", (1280, 800)),
    ]
    only = set(sys.argv[1:])  # the names of the shots to take again (all of them when none is named)
    shots = [shot for shot in shots if not only or shot[0] in only]
    opened = {"dealer-rulings": "#dealer .dl-accidents summary"}
    scrolled = {"dealer-hilo": "#dealer form.dl-award", "structure-games": "#structure-table"}  # only scrolled to
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
            if name in opened or name in scrolled:
                page.locator(opened.get(name) or scrolled[name]).evaluate(
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
