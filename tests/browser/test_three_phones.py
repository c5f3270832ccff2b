"""A night in Chromium with three dealers' phones and the floor's, none of which ever saw the
director's password: the director makes the links on the Phones page, each phone opens its
table's link (its QR code's address), the three tables deal at once, the floor's phone busts
players from the dashboard and confirms the table break, the broken table's phone is told
where its players went, and the log says which phone entered what."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, LiveServer
from tests.browser.test_dealer import tap
from tests.browser.test_first_night import seated_table

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou", "Max", "Ned", "Oli",
         "Pam", "Quin", "Rae"]


def play_a_hand(phones: dict[int, Any]) -> None:
    """Each phone deals, then its players fold in turn, the three tables one tap at a time
    (as three dealers would), until each hand is won."""
    for page in phones.values():
        tap(page, "Deal")
    playing = dict(phones)
    for _ in range(12):
        for table, page in list(playing.items()):
            fold = page.locator("#dealer .dl-pad button", has_text=re.compile("^Fold"))
            if fold.count() == 0:
                del playing[table]
                continue
            tap(page, "Fold")
        if not playing:
            break
    assert not playing, f"tables {sorted(playing)} are still playing"
    for page in phones.values():
        expect(page.locator("#dealer .dl-big", has_text="Deal")).to_be_visible()


def test_a_night_with_three_dealers_phones_that_never_saw_the_password(
    live_server: LiveServer, browser: Any, artifacts_dir: Path
) -> None:
    tid = seated_table(live_server, NAMES, table_size=6)  # 18 players at tables 1, 2 and 3
    laptop = browser.new_context(viewport={"width": 1280, "height": 900})
    director = laptop.new_page()
    live_server.login(director)
    director.goto(f"{live_server.url}/t/{tid}/phones")
    director.click("text=Make the links of tables 1, 2, 3")
    director.wait_for_selector('.phone-link[data-table="3"] .phone-qr svg')
    director.click("text=Make the floor's link")
    director.wait_for_selector('.phone-link[data-kind="floor"] .phone-qr svg')
    urls = {table: director.get_attribute(f'.phone-link[data-table="{table}"] a', "href") for table in (1, 2, 3)}
    floor_url = director.get_attribute('.phone-link[data-kind="floor"] a', "href")

    contexts = []
    phones: dict[int, Any] = {}
    for table, url in urls.items():
        assert url is not None and "/l#" in url
        context = browser.new_context(viewport=PHONE)  # each phone its own browser: no cookie, no password
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{live_server.url}/l#{url.rsplit('/l#', 1)[1]}")  # the code holds the laptop's network address
        page.wait_for_url(f"**/t/{tid}/table/{table}")
        assert "#" not in page.url  # the code left the address bar
        assert f"table {table}'s dealer" in page.inner_text(".nav-role")
        phones[table] = page

    play_a_hand(phones)
    play_a_hand(phones)
    phones[2].screenshot(path=str(artifacts_dir / "three-phones-table-2.png"), full_page=True)

    # A phone may not reach another table's hands by changing the address.
    other = phones[1].goto(f"{live_server.url}/t/{tid}/table/2")
    assert other is not None and other.status == 200  # reading another table is allowed...
    refused = phones[1].evaluate(
        """async ([tid]) => {
            const token = document.querySelector('meta[name=csrf-token]').content;
            const answer = await fetch(`/t/${tid}/table/2/deal`, {method: 'POST',
                headers: {'HX-Request': 'true', 'Content-Type': 'application/x-www-form-urlencoded'},
                body: new URLSearchParams({csrf_token: token})});
            return [answer.status, await answer.text()];
        }""",
        [tid],
    )
    assert refused[0] == 403 and "hands are entered on table 2" in refused[1]  # ...dealing there is not
    phones[1].goto(f"{live_server.url}/t/{tid}/table/1")

    # The floor's phone busts six players from the dashboard: 12 left, a table breaks.
    floor_context = browser.new_context(viewport=PHONE)
    contexts.append(floor_context)
    floor = floor_context.new_page()
    assert floor_url is not None
    floor.goto(f"{live_server.url}/l#{floor_url.rsplit('/l#', 1)[1]}")
    floor.wait_for_url(f"**/t/{tid}")
    assert "the floor" in floor.inner_text(".nav-role")
    for player in range(1, 7):
        row = floor.locator(f"#player-{player}")
        row.locator("details.bust summary").click()
        row.locator("select[name=by]").first.select_option(index=1)  # the stacks are kept: say who won the chips
        row.locator("button", has_text="is out").click()
        expect(floor.locator(f"#player-{player}.out")).to_have_count(1)
    floor.goto(f"{live_server.url}/t/{tid}/tables")
    instruction = floor.locator(".instruction[data-action]")
    expect(instruction).to_be_visible()
    broken = int(re.search(r"[Tt]able (\d) breaks", instruction.inner_text()).group(1))  # type: ignore[union-attr]
    instruction.locator("button[type=submit]").click()
    expect(floor.locator(".instruction[data-action]")).to_have_count(0)
    floor.screenshot(path=str(artifacts_dir / "three-phones-floor-tables.png"), full_page=True)

    # The broken table's phone is told where its players went; the others deal on.
    gone = phones[broken]
    gone.reload()
    assert f"Table {broken} has broken" in gone.inner_text("main")
    gone.screenshot(path=str(artifacts_dir / "three-phones-broken-table.png"), full_page=True)
    play_a_hand({table: page for table, page in phones.items() if table != broken})

    director.goto(f"{live_server.url}/t/{tid}/log")
    log = director.inner_text("#log")
    for table in (1, 2, 3):
        assert f"table {table}'s phone" in log
    assert "the floor" in log
    director.goto(f"{live_server.url}/t/{tid}/phones")
    for table in (1, 2, 3):
        if table != broken:
            assert "Chrome" in director.inner_text(f'.phone-link[data-table="{table}"] .phone-list')
    for context in contexts:
        context.close()
    laptop.close()
