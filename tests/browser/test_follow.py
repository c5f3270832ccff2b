"""Open dealers' pages follow the night without a reload: at hand for hand, a table's phone
that waits for another table's hand sees *Deal* come back by itself once that hand is won,
and sees the hand for hand end when the director turns it off. (How soon is measured by
benchmarks/bench_browser.py; here, only that it comes without a reload.)"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, LiveServer
from tests.browser.test_dealer import tap
from tests.browser.test_first_night import seated_table

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def fold_to_the_winner(page: Any, base: str, tid: int, table: int) -> None:
    """Everyone folds to the last player at ``table``, entered through the JSON API as a
    table's phone would (the page under test only watches)."""
    token = page.get_attribute('meta[name="csrf-token"]', "content") or ""
    for _ in range(10):
        view = page.request.get(f"{base}/api/t/{tid}/table/{table}").json()
        if view["phase"] != "betting":
            return
        answer = page.request.post(f"{base}/api/t/{tid}/table/{table}/act", data={"kind": "fold"},
                                   headers={"X-CSRFToken": token})
        assert answer.status == 201, answer.text()
    raise AssertionError("the hand did not end")


def test_a_dealers_page_follows_hand_for_hand_without_a_reload(live_server: LiveServer, browser: Any) -> None:
    tid = seated_table(live_server, NAMES, table_size=6)  # two tables of four
    context = browser.new_context(viewport=PHONE)
    phones = {}
    for table in (1, 2):
        page = context.new_page()
        if table == 1:
            live_server.login(page)
        page.goto(f"{live_server.url}/t/{tid}/table/{table}")
        phones[table] = page
    director = context.new_page()
    director.goto(f"{live_server.url}/t/{tid}/dashboard")
    token = director.get_attribute('meta[name="csrf-token"]', "content")

    def hand_for_hand(on: bool) -> None:
        answer = director.request.post(f"{live_server.url}/api/t/{tid}/hand-for-hand", data={"on": on},
                                       headers={"X-CSRFToken": token or ""})
        assert answer.status == 201, answer.text()

    hand_for_hand(True)
    for page in phones.values():  # each open page shows it by itself
        expect(page.locator("#dealer .dl-flag", has_text="Hand for hand")).to_be_visible(timeout=10_000)
    tap(phones[1], "Deal")
    tap(phones[2], "Deal")
    fold_to_the_winner(phones[1], live_server.url, tid, 1)
    deal = phones[1].locator("#dealer .dl-big", has_text="Deal")
    expect(phones[1].locator("#dealer")).to_contain_text("waiting for table 2", timeout=10_000)
    expect(deal).to_be_disabled()
    fold_to_the_winner(phones[1], live_server.url, tid, 2)
    expect(deal).to_be_enabled(timeout=10_000)  # table 2's hand is won: table 1 may deal, no reload
    expect(phones[1].locator("#dealer")).not_to_contain_text("waiting for table 2")
    hand_for_hand(False)
    expect(phones[2].locator("#dealer .dl-flag", has_text="Hand for hand")).to_have_count(0, timeout=10_000)
    context.close()


def test_a_table_break_during_a_hand_is_followed_by_the_open_dealers_pages(
        live_server: LiveServer, browser: Any) -> None:
    """The director taps *Done* for table 3's break while table 3 plays a hand: table 3's
    phone, open all along, keeps its hand and says the table breaks after it; once the hand is
    won it says where each player went; table 1's page shows its new players arrive, then
    their stacks, all without a reload."""
    from director.core.db import get_db
    from director.night import commands as night_commands
    from director.setup.commands import create_tournament
    from tests.director.test_table_break import BUTTONS, SEATS

    app = live_server.app
    with app.app_context():
        db = get_db()
        tid = create_tournament(db, {"name": "Break night", "preset": "sng-1000", "table_size": 6}, time.time())
        for n in range(1, 14):
            night_commands.register_player(db, tid, f"P{n}", None, time.time())
        night_commands.record(db, tid, "seats_drawn", {"seats": {str(p): list(s) for p, s in SEATS.items()},
                                                       "buttons": {str(t): b for t, b in BUTTONS.items()}},
                              None, time.time())
        night_commands.clock_action(db, tid, "start", None, time.time())
    context = browser.new_context(viewport=PHONE)
    three, one = context.new_page(), context.new_page()
    live_server.login(three)
    three.goto(f"{live_server.url}/t/{tid}/table/3")
    one.goto(f"{live_server.url}/t/{tid}/table/1")
    tap(three, "Deal")
    token = three.get_attribute('meta[name="csrf-token"]', "content") or ""

    def post(path: str, body: dict[str, Any]) -> None:
        answer = three.request.post(f"{live_server.url}/api/t/{tid}/{path}", data=body, headers={"X-CSRFToken": token})
        assert answer.status == 201, answer.text()

    post("bust", {"player": 1})  # twelve left: they fit at two tables, table 3 breaks
    post("tables/confirm", {})
    expect(three.locator("#dealer .dl-msg--move").first).to_have_text("Table 3 breaks after this hand",
                                                                      timeout=10_000)
    expect(three.locator("#dealer")).to_have_attribute("data-phase", "betting")
    arriving = one.locator("#dealer .dl-seat--arriving")
    expect(arriving).not_to_have_count(0, timeout=10_000)
    fold_to_the_winner(three, live_server.url, tid, 3)
    expect(three.locator("body")).to_contain_text("Table 3 has broken", timeout=10_000)
    expect(arriving).to_have_count(0, timeout=10_000)  # their stacks known: dealt in at table 1
    context.close()
