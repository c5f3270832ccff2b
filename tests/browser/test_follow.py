"""Open dealers' pages follow the night without a reload: at hand for hand, a table's phone
that waits for another table's hand sees *Deal* come back by itself once that hand is won,
and sees the hand for hand end when the director turns it off."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, LiveServer
from tests.browser.test_dealer import tap
from tests.browser.test_first_night import seated_table

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def fold_to_the_winner(page: Any) -> None:
    for _ in range(10):
        if page.locator("#dealer .dl-pad button", has_text=re.compile("^Fold")).count() == 0:
            return
        tap(page, "Fold")
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
        expect(page.locator("#dealer .dl-flag", has_text="Hand for hand")).to_be_visible(timeout=4_000)
    tap(phones[1], "Deal")
    tap(phones[2], "Deal")
    fold_to_the_winner(phones[1])
    deal = phones[1].locator("#dealer .dl-big", has_text="Deal")
    expect(phones[1].locator("#dealer")).to_contain_text("waiting for table 2", timeout=4_000)
    expect(deal).to_be_disabled()
    fold_to_the_winner(phones[2])
    started = time.monotonic()
    expect(deal).to_be_enabled(timeout=4_000)  # table 2's hand is won: table 1 may deal, no reload
    assert time.monotonic() - started < 3.5
    expect(phones[1].locator("#dealer")).not_to_contain_text("waiting for table 2")
    hand_for_hand(False)
    expect(phones[2].locator("#dealer .dl-flag", has_text="Hand for hand")).to_have_count(0, timeout=4_000)
    context.close()
