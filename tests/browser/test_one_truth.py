"""Issue 31, "every screen tells the same truth": a night in Chromium read on four screens at
once, the director's pages, the TV, the dealers' phones and the players' phones. A table
breaks while it plays a hand, the tables are balanced, the bubble is played hand for hand and
the last three make a deal; at each step every screen gives the same seats and the same prizes.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from director.core.db import get_db
from director.core.store import load_state
from director.tables.views import player_tokens

from . import tv_states
from .conftest import PHONE, LiveServer

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou", "Max", "Ned", "Oli"]


class Screens:
    """The four kinds of screen, each a page of its own in Chromium."""

    def __init__(self, live_server: LiveServer, browser: Any, tid: int) -> None:
        self.url, self.tid, self.app = live_server.url, tid, live_server.app
        self.contexts = [browser.new_context(viewport=size) for size in (
            {"width": 1280, "height": 900}, {"width": 1920, "height": 1080}, PHONE, PHONE)]
        self.director, self.tv, self.dealer, self.player = (c.new_page() for c in self.contexts)
        for page in (self.director, self.dealer):
            live_server.login(page)
        self.tv.goto(f"{self.url}/t/{tid}/tv")

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def text(self, page: Any, path: str, selector: str = "body") -> str:
        page.goto(self.url + path)
        return " ".join(page.inner_text(selector).split())

    def tv_moves(self) -> tuple[list[str], dict[str, tuple[int, int]]]:
        """The TV's move headlines and, for each player it names, the seat it gives (read
        after its next poll)."""
        self.tv.reload()
        self.tv.wait_for_selector(".tv-move", state="attached", timeout=5000)
        titles = [" ".join(t.split()) for t in self.tv.locator(".tv-moves-title").all_inner_texts()]
        seats = {}
        for line in self.tv.locator(".tv-move").all_text_contents():
            line = " ".join(line.split())
            found = (re.fullmatch(r"(\w+) → table (\d+) seat (\d+)", line)
                     or re.search(r"(?:Move: )?(\w+)(?:, from table \d+ seat \d+)? to table (\d+) seat (\d+)", line)
                     or re.search(r": (\w+) moves to table (\d+) seat (\d+)", line))
            assert found, line
            seats[found[1]] = (int(found[2]), int(found[3]))
        return titles, seats

    def player_seat(self, token: str) -> tuple[int, int, str]:
        self.player.goto(f"{self.url}/p/{token}")
        notice = " ".join(self.player.locator(".player-seat").inner_text().split())
        table = int(self.player.inner_text("[data-table]"))
        seat = int(self.player.inner_text("[data-seat]"))
        return table, seat, notice

    def dealer_seat(self, table: int, seat: int) -> str:
        self.dealer.goto(f"{self.url}/t/{self.tid}/table/{table}")
        return " ".join(self.dealer.locator(f'.dl-seat[data-seat="{seat}"]').inner_text().split())


def state_of(api: tv_states.Api, tid: int) -> Any:
    return api.state(tid)


def tokens(app: Any, tid: int) -> dict[str, str]:
    """Each player's own page (the seat card's QR code), by name."""
    with app.app_context():
        state = load_state(get_db(), tid)
        return {state.name_of(pid): token for pid, token in player_tokens(state).items()}


def bust(api: tv_states.Api, tid: int, name: str) -> None:
    state = api.state(tid)
    victim = state.player_named(name)
    assert victim is not None
    by = next((p.id for p in state.alive if p.table == victim.table and p.id != victim.id), None)
    api("POST", f"/api/t/{tid}/bust", {"player": victim.id, **({"by": by} if by else {})})


def at_table(api: tv_states.Api, tid: int, table: int) -> list[str]:
    state = api.state(tid)
    return [p.name for p in sorted(state.alive, key=lambda p: p.seat or 0) if p.table == table]


def test_a_whole_night_reads_the_same_on_every_screen(live_server: LiveServer, browser: Any) -> None:
    api = tv_states.Api(live_server.app)
    with api.at(time.time() - 300):
        tid = int(api("POST", "/api/tournaments", {"name": "One truth", "preset": "home-short", "buy_in": 20,
                                                   "payout_kind": "custom", "percentages": "30/20/15/11/9/8/7"})["id"])
        for name in NAMES:
            api("POST", f"/api/t/{tid}/players", {"name": name})
        api("POST", f"/api/t/{tid}/tables/draw", {"table_size": 6})  # three tables of five
        api("POST", f"/api/t/{tid}/clock/start")
    screens = Screens(live_server, browser, tid)
    try:
        # --- a table breaks while it plays a hand -----------------------------------------
        for name in at_table(api, tid, 3)[:2]:
            bust(api, tid, name)
        api("POST", f"/api/t/{tid}/table/3/deal")  # table 3 is playing a hand (no break announced yet)
        bust(api, tid, at_table(api, tid, 1)[0])  # 12 left: they fit at two tables, table 3's three move
        step = screens.text(screens.director, f"/t/{tid}/tables", ".instructions")
        assert "table 3" in step.lower(), step
        broken_players = at_table(api, tid, 3)
        # Before the director records it, a receiving dealer's phone is told no seat.
        for table in (1, 2):
            screens.dealer.goto(f"{screens.url}/t/{tid}/table/{table}")
            for line in screens.dealer.locator(".dl-msg--move").all_inner_texts():
                assert not re.search(r"table \d+ seat \d+", line), line
        screens.director.locator(".instruction[data-action] button[type=submit]").click()
        screens.director.wait_for_selector("#waiting-moves")
        waiting = screens.director.locator("#waiting-moves li").all_inner_texts()
        recorded = {m[1]: (int(m[2]), int(m[3])) for m in (
            re.search(r"^(\w+) finishes hand \d+ at table 3, then moves to table (\d+) seat (\d+)", line)
            for line in waiting) if m}
        assert sorted(recorded) == sorted(broken_players), waiting
        titles, on_tv = screens.tv_moves()
        assert titles == ["Table 3 breaks after this hand"] and on_tv == recorded, (titles, on_tv, recorded)
        seat_of = tokens(live_server.app, tid)
        for name, (table, seat) in recorded.items():
            assert "finishing a hand at table 3" in screens.dealer_seat(table, seat), (name, table, seat)
            assert name in screens.dealer_seat(table, seat)
            player_table, player_seat, notice = screens.player_seat(seat_of[name])
            assert (player_table, player_seat) == (table, seat)
            assert f"table {table} seat {seat} after this hand" in notice, notice
        while api("GET", f"/api/t/{tid}/table/3")["phase"] == "betting":  # the hand ends: they move
            api("POST", f"/api/t/{tid}/table/3/act", {"kind": "fold"})

        # --- balancing ---------------------------------------------------------------------
        for name in at_table(api, tid, 1)[:2]:
            bust(api, tid, name)  # 4 at table 1, 6 at table 2: one moves
        step = screens.text(screens.director, f"/t/{tid}/tables", ".instructions")
        assert "balanc" in step.lower() or "move" in step.lower(), step
        screens.director.locator(".instruction[data-action] button[type=submit]").click()
        screens.director.wait_for_selector(".instruction.ok")
        titles, on_tv = screens.tv_moves()
        state = state_of(api, tid)
        moved = {name: seat for name, seat in on_tv.items() if recorded.get(name) != seat}  # the new move
        assert len(moved) == 1, on_tv
        (name, (table, seat)), = moved.items()
        player = state.player_named(name)
        assert player is not None and (player.table, player.seat) == (table, seat) == (1, seat)
        assert screens.player_seat(seat_of[name])[:2] == (table, seat)
        assert name in screens.dealer_seat(table, seat)

        # --- the bubble, hand for hand ------------------------------------------------------
        paid = sum(1 for prize in state.prizes if prize)
        assert paid == 7
        while len(state_of(api, tid).alive) > paid + 1:  # eight left at two tables: the bubble
            alive = state_of(api, tid).alive
            biggest = max(state_of(api, tid).seating.tables, key=lambda t: sum(p.table == t for p in alive))
            bust(api, tid, at_table(api, tid, biggest)[-1])
        tables = state_of(api, tid).seating.tables
        assert len(tables) == 2
        api("POST", f"/api/t/{tid}/hand-for-hand", {"on": True})
        screens.tv.reload()
        screens.tv.wait_for_selector(".tv-panel--board", timeout=5000)
        board = screens.tv.locator(".tv-panel--board li").all_inner_texts()
        assert [re.match(r"Table (\d+)", row)[1] for row in board] == [str(t) for t in tables], board  # type: ignore[index]
        for table in tables:
            screens.dealer.goto(f"{screens.url}/t/{tid}/table/{table}")
            assert screens.dealer.locator(".dl-flag").inner_text() == "Hand for hand"
        assert "Hand for hand" in screens.text(screens.director, f"/t/{tid}", "main")
        while len(state_of(api, tid).alive) > paid:  # the bubble bursts: hand for hand is over
            alive = state_of(api, tid).alive
            bust(api, tid, alive[-1].name)
        screens.tv.reload()
        screens.tv.wait_for_selector("#tv-clock")
        assert screens.tv.locator(".tv-flag--h4h, .tv-panel--board").count() == 0
        for table in state_of(api, tid).seating.tables:
            assert "Hand for hand" not in screens.text(screens.dealer, f"/t/{tid}/table/{table}", "#dealer")

        # --- the last three make a deal ------------------------------------------------------
        while len(state_of(api, tid).alive) > 3:
            bust(api, tid, state_of(api, tid).alive[-1].name)
        state = state_of(api, tid)
        stacks = {str(p.id): 10_000 * (k + 1) for k, p in enumerate(state.alive)}
        body = api("POST", f"/api/t/{tid}/deal", {"method": "chip_chop", "stacks": stacks})
        prizes = {p["name"]: p["prize"] for p in body["players"] if p["prize"]}
        assert len(prizes) == paid
        screens.tv.reload()
        screens.tv.wait_for_selector(".tv-payouts li")
        on_tv_prizes = {}
        for item in screens.tv.locator(".tv-payouts li").all():
            who = item.locator(".tv-payout-who")
            if who.count():
                on_tv_prizes[who.inner_text().strip()] = int(item.locator("b").inner_text().replace(",", ""))
        assert on_tv_prizes == prizes, (on_tv_prizes, prizes)
        results = screens.text(screens.director, f"/t/{tid}/results", "main")
        for name, amount in prizes.items():
            assert name in results and f"{amount:,}" in results
            screens.player.goto(f"{screens.url}/p/{seat_of[name]}")
            said = " ".join(screens.player.locator(".player-result").inner_text().split())
            assert re.search(rf"\b{amount:,}\b", said.replace("\u202f", ",")), (name, amount, said)
    finally:
        screens.close()
