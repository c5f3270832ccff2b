"""A table's phone in Chromium, without the director's password: the director makes the
dealers' links on the Phones page, a phone opens table 1's link and deals there, and what it
may not do is refused with a sentence; the log says which phone entered what."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE, LiveServer
from tests.browser.test_dealer import set_up_table, tap

pytestmark = pytest.mark.browser


def test_a_phone_scans_its_tables_link_and_deals(live_server: LiveServer, browser: Any, artifacts_dir: Path) -> None:
    tid = set_up_table(live_server)
    laptop = browser.new_context(viewport={"width": 1280, "height": 900})
    director = laptop.new_page()
    live_server.login(director)
    director.goto(f"{live_server.url}/t/{tid}/phones")
    director.click("text=Make the link of table 1")
    director.wait_for_selector('.phone-link[data-table="1"] .phone-qr svg')
    director.click("text=Make the floor's link")
    director.wait_for_selector('.phone-link[data-kind="floor"] .phone-qr svg')
    director.screenshot(path=str(artifacts_dir / "phones-page.png"), full_page=True)
    link = director.get_attribute('.phone-link[data-table="1"] a', "href")
    assert link and "/l#" in link  # the token in the fragment: never sent, never logged

    context = browser.new_context(viewport=PHONE)  # the table's phone: its own browser, no login
    phone = context.new_page()
    phone.goto(f"{live_server.url}/l#{link.rsplit('/l#', 1)[1]}")  # the code gives the laptop's address on the network
    phone.wait_for_url(f"**/t/{tid}/table/1")
    assert "#" not in phone.url
    assert "table 1's dealer" in phone.inner_text(".nav-role")
    tap(phone, "Deal")
    tap(phone, "Call 20")
    phone.screenshot(path=str(artifacts_dir / "phones-dealer.png"), full_page=True)
    refused = phone.goto(f"{live_server.url}/t/{tid}/phones")
    assert refused is not None and refused.status == 403
    assert "this page is the director's" in phone.inner_text("main")

    director.reload()
    assert "Chrome" in director.inner_text('.phone-link[data-table="1"] .phone-list')  # the phone that opened it
    director.goto(f"{live_server.url}/t/{tid}/log")
    log = director.inner_text("#log")
    assert "table 1's phone" in log
    context.close()
    laptop.close()
