"""A cash-game night in Chromium: sit down with a buy-in (one outside the range refused),
play a hand on the dealer's table page at fixed blinds, cash out, and see the ledger and the
club balance follow."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import LiveServer

pytestmark = pytest.mark.browser


def set_up(live_server: LiveServer) -> int:
    """Ann and Bob, club members with 20,000 play chips each; a 6-seat 50/100 session."""
    from director.cash import commands as cash
    from director.core.db import get_db

    with live_server.app.app_context():
        db = get_db()
        for name in ("Ann", "Bob"):
            cash.club_action(db, "member", {"name": name, "grant": 20_000}, time.time())
        return cash.create_session(
            db, {"name": "Friday cash", "tables": [{"seats": 6, "stake": "50/100"}]}, time.time()
        )


def submit(page: Any, form: str) -> None:
    """Submit a form of the session page and wait for htmx to swap the page's panel."""
    before = page.inner_text("#history .log")
    page.locator(f"{form} button[type=submit]").first.click()
    page.wait_for_function(
        "before => { const e = document.querySelector('#history .log'); "
        "return document.querySelector('.flash') && (!e || e.innerText !== before) || document.querySelector('.flash-error'); }",
        arg=before,
        timeout=10_000,
    )


def tap(page: Any, text: str) -> None:
    """Tap a button of the table panel and wait for the panel to come back."""
    seq = page.get_attribute("#dealer", "data-seq")
    page.locator("#dealer button", has_text=re.compile("^" + re.escape(text))).first.click()
    page.wait_for_function(
        "seq => document.querySelector('#dealer').dataset.seq !== seq", arg=seq, timeout=10_000
    )


def seat_stack(page: Any, seat: int) -> int:
    return int(
        page.get_attribute(f'#dealer .dl-seat[data-seat="{seat}"] .dl-seat-stack', "data-stack")
    )


def test_sit_down_play_a_hand_and_cash_out(
    live_server: LiveServer, phone: Any, artifacts_dir: Path
) -> None:
    sid = set_up(live_server)
    page = phone
    live_server.login(page)
    page.goto(f"{live_server.url}/cash/{sid}")

    # A buy-in outside 40 to 100 big blinds is refused with the range.
    page.select_option("#sit-down select[name=member]", label="Ann (20,000)")
    page.select_option("#sit-down select[name=place]", value="1:1")
    page.fill("#sit-down input[name=amount]", "3000")
    page.locator("#sit-down button[type=submit]").click()
    page.wait_for_selector(".flash-error")
    assert page.inner_text(".flash-error") == (
        "Ann cannot buy in for 3,000 at 50/100: the buy-in is 4,000 to 10,000 (40 to 100 big blinds)."
    )
    page.select_option("#sit-down select[name=member]", label="Ann (20,000)")
    page.select_option("#sit-down select[name=place]", value="1:1")
    page.fill("#sit-down input[name=amount]", "10000")
    page.locator("#sit-down button[type=submit]").click()
    page.wait_for_selector("#seat-1-1:has-text('Ann')")
    page.select_option("#sit-down select[name=member]", label="Bob (20,000)")
    page.select_option("#sit-down select[name=place]", value="1:4")
    page.fill("#sit-down input[name=amount]", "6,000")
    page.locator("#sit-down button[type=submit]").click()
    page.wait_for_selector("#seat-1-4:has-text('Bob')")
    assert "6,000" in page.inner_text("#seat-1-4")
    assert "16,000" in page.inner_text("#ledger tfoot")

    # The dealer's page: the hand at fixed blinds, checked down to a showdown.
    page.click('#table-1 a:has-text("Open the dealer\'s page")')
    page.wait_for_selector("#dealer[data-phase=before]")
    assert "Cash 50/100" in page.inner_text(".dl-level")
    tap(page, "Deal")
    assert page.get_attribute("#dealer", "data-phase") == "betting"
    button = int(page.get_attribute("#dealer .dl-seat:has(.dl-badge--btn)", "data-seat"))
    other = 4 if button == 1 else 1
    start = {1: 10_000, 4: 6_000}
    labels = [t.strip() for t in page.locator("#dealer .dl-pad button").all_inner_texts()]
    assert labels[:2] == [
        "Fold",
        "Call 50",
    ]  # heads-up, the button posts the small blind and acts first
    tap(page, "Call 50")
    tap(page, "Check")
    for _ in range(6):  # flop, turn and river checked through
        tap(page, "Check")
    assert page.get_attribute("#dealer", "data-phase") == "showdown"
    assert page.get_attribute('#dealer .dl-pot[data-pot="0"]', "data-amount") == "200"
    page.locator('fieldset[data-pot="0"] label', has_text=f"Seat {other}").click()
    tap(page, "Award the pots")
    assert page.get_attribute("#dealer", "data-phase") == "before"
    assert f"Seat {other} wins the main pot (200)" in page.inner_text("#dealer")
    assert seat_stack(page, other) == start[other] + 100
    assert seat_stack(page, button) == start[button] - 100
    page.screenshot(path=str(artifacts_dir / "cash-table-after.png"), full_page=True)

    # Back to the night: Ann cashes out at her current stack; the ledger balances.
    ann = start[1] + (100 if other == 1 else -100)
    page.goto(f"{live_server.url}/cash/{sid}")
    page.locator("#seat-1-1 button", has_text=f"Cash out {ann:,}").click()
    page.wait_for_selector("#seat-1-1:has-text('free')")
    assert f"Ann cashes out {ann:,}: back to their balance." in page.inner_text(".flash-ok")
    rows = page.locator("#ledger tbody tr")
    ann_row = [c.strip() for c in rows.nth(0).locator("td").all_inner_texts()]
    assert ann_row[:4] == ["Ann", "10,000", f"{ann:,}", "0"]
    assert "Balanced" in page.inner_text("#ledger")
    page.screenshot(path=str(artifacts_dir / "cash-session-phone.png"), full_page=True)

    page.goto(f"{live_server.url}/cash/club")
    assert f"{10_000 + ann:,}" in page.inner_text("#member-1")
