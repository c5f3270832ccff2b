"""The dealer's phone through a Wi-Fi drop, at 390 x 844 in Chromium with the network cut
(Playwright's offline mode): never lost, never silent. The connection is shown at all times;
taps made while the laptop does not answer wait in an outbox kept by the browser, listed in
order, and are sent in order once it answers, each recorded once; an entry the laptop
refuses is shown with its sentence, and nothing after it is applied."""

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

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def actions(live_server: LiveServer, tid: int) -> list[str]:
    """The betting recorded at table 1, in order, as the engine wrote it."""
    from director.core.db import get_db
    from director.core.store import load_events

    with live_server.app.app_context():
        return [e.payload["action"] for e in load_events(get_db(), tid)
                if e.type == "hand_action" and e.payload.get("table") == 1]


def last_seq(live_server: LiveServer, tid: int) -> int:
    from director.core.db import get_db
    from director.core.store import load_state

    with live_server.app.app_context():
        return int(load_state(get_db(), tid).seq)


def press(page: Any, label: str) -> None:
    """Tap a button of the panel without waiting for an answer (there may be none): the
    laptop's, or the phone's own while it goes on offline."""
    page.locator("#dealer .dl-pad button:visible, #dealer .dl-offline-pad button:visible",
                 has_text=re.compile("^" + re.escape(label))).first.click()


def dealt(live_server: LiveServer, browser: Any) -> tuple[int, Any, Any]:
    tid = seated_table(live_server, NAMES, table_size=6)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    live_server.login(page)
    page.goto(f"{live_server.url}/t/{tid}/table/1")
    expect(page.locator("#connection")).to_have_attribute("data-state", "online")
    tap(page, "Deal")
    return tid, context, page


def test_taps_in_a_wifi_drop_wait_in_order_and_are_recorded_once_back(
        live_server: LiveServer, browser: Any, artifacts_dir: Path) -> None:
    tid, context, page = dealt(live_server, browser)
    before = actions(live_server, tid)
    context.set_offline(True)
    badge = page.locator("#connection")
    expect(badge).to_have_attribute("data-state", re.compile("reconnecting|offline"), timeout=5_000)
    for label in ("Call", "Call", "Fold"):
        press(page, label)
    waiting = page.locator("#outbox li[data-state=waiting]")
    expect(waiting).to_have_count(3)
    assert [t.strip() for t in page.locator("#outbox .outbox-what").all_inner_texts()][2].startswith("Fold")
    expect(badge).to_have_attribute("data-state", "offline", timeout=8_000)
    expect(badge).to_contain_text(re.compile(r"Offline for 0:0\d"))
    assert page.locator("#toast:visible").count() == 0  # nothing covers the buttons
    page.screenshot(path=str(artifacts_dir / "dealer-offline-outbox.png"), full_page=True)
    assert actions(live_server, tid) == before  # nothing reached the laptop
    context.set_offline(False)
    expect(page.locator("#outbox li[data-state=recorded]")).to_have_count(3, timeout=10_000)
    expect(badge).to_have_attribute("data-state", "online")
    recorded = actions(live_server, tid)[len(before):]
    assert len(recorded) == 3 and recorded[0].endswith(" cc") and recorded[1].endswith(" cc")
    assert recorded[2].endswith(" f"), recorded
    seats = [int(a.split()[0][1:]) for a in recorded]
    assert len(set(seats)) == 3  # three players in turn, each once
    expect(page.locator("#dealer")).to_have_attribute("data-seq", str(last_seq(live_server, tid)))  # the laptop's
    page.screenshot(path=str(artifacts_dir / "dealer-outbox-recorded.png"), full_page=True)
    context.close()


def test_an_entry_the_laptop_refuses_stops_the_rest(live_server: LiveServer, browser: Any) -> None:
    tid, context, page = dealt(live_server, browser)
    before = actions(live_server, tid)
    context.set_offline(True)
    expect(page.locator("#connection")).not_to_have_attribute("data-state", "online", timeout=5_000)
    press(page, "Call")
    press(page, "Fold")
    expect(page.locator("#outbox li[data-state=waiting]")).to_have_count(2)
    laptop = browser.new_context()  # the director, online, takes the deal back meanwhile
    director = laptop.new_page()
    live_server.login(director)
    token = director.get_attribute('meta[name="csrf-token"]', "content") or ""
    undone = director.request.post(f"{live_server.url}/api/t/{tid}/table/1/undo", data={},
                                   headers={"X-CSRFToken": token})
    assert undone.status == 201, undone.text()
    context.set_offline(False)
    refused = page.locator("#outbox li[data-state=refused]")
    expect(refused).to_have_count(1, timeout=10_000)
    expect(refused).to_contain_text("refused")
    assert page.locator("#outbox li").first.get_attribute("data-state") == "refused"
    expect(page.locator('#outbox li[data-state="not sent"]')).to_have_count(1)
    expect(page.locator('#outbox li[data-state="not sent"]')).to_contain_text("enter it again")
    assert actions(live_server, tid) == before  # nothing applied
    laptop.close()
    context.close()


def test_the_outbox_is_kept_through_a_reload(live_server: LiveServer, browser: Any) -> None:
    """The laptop answers the page but not the tap (the Wi-Fi drops as it is sent): the tap
    waits, the page is reloaded, the tap is still there, and is sent once the laptop answers."""
    tid, context, page = dealt(live_server, browser)
    before = actions(live_server, tid)
    page.route("**/table/1/act", lambda route: route.abort())
    press(page, "Call")
    expect(page.locator("#outbox li[data-state=waiting]")).to_have_count(1, timeout=10_000)
    page.reload()
    expect(page.locator("#outbox li[data-state=waiting]")).to_have_count(1)
    assert actions(live_server, tid) == before
    page.unroute("**/table/1/act")
    expect(page.locator("#outbox li[data-state=recorded]")).to_have_count(1, timeout=10_000)
    assert len(actions(live_server, tid)) == len(before) + 1
    context.close()


def test_taps_from_an_earlier_hand_are_sent_only_if_the_dealer_says_so(live_server: LiveServer, browser: Any) -> None:
    """A phone away while its hand was finished and the next dealt elsewhere (the director's
    laptop): its waiting tap belongs to a hand the laptop is past. It asks before sending;
    told no, nothing is sent, and the tap is shown to be entered again."""
    tid, context, page = dealt(live_server, browser)
    page.route("**/table/1/act", lambda route: route.abort())
    press(page, "Call")
    expect(page.locator("#outbox li[data-state=waiting]")).to_have_count(1, timeout=10_000)
    laptop = browser.new_context()
    director = laptop.new_page()
    live_server.login(director)
    token = director.get_attribute('meta[name="csrf-token"]', "content") or ""
    base = f"{live_server.url}/api/t/{tid}/table/1"
    while director.request.get(base).json()["phase"] == "betting":
        assert director.request.post(f"{base}/act", data={"kind": "fold"}, headers={"X-CSRFToken": token}).status == 201
    assert director.request.post(f"{base}/deal", data={}, headers={"X-CSRFToken": token}).status == 201
    before = actions(live_server, tid)
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", answer)
    expect(page.locator("#dealer")).to_have_attribute("data-hand", "2", timeout=10_000)  # the laptop's hand
    page.unroute("**/table/1/act")
    expect(page.locator('#outbox li[data-state="not sent"]')).to_have_count(1, timeout=10_000)
    assert asked and "hand 1" in asked[0] and "hand 2" in asked[0]
    assert actions(live_server, tid) == before  # nothing sent
    laptop.close()
    context.close()
