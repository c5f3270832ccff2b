"""A dealer's tap whose answer is lost on the Wi-Fi: the tap waits in the phone's outbox, is
sent again with the same command id once the laptop answers, and is shown recorded, once;
nothing covers the buttons meanwhile. (Other pages keep the check of a lost answer: the
page says it is checking, asks the server, then says whether it was recorded.)

The browser's request reaches the server, which commits; its answer is then thrown away
before the page sees it (Playwright forwards the request and aborts the reply)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import LiveServer
from tests.browser.test_dealer import set_up_table, tap

pytestmark = pytest.mark.browser


def events(live_server: LiveServer, tid: int) -> int:
    from director.core.db import get_db

    with live_server.app.app_context():
        return int(get_db().execute("SELECT last_seq FROM streams WHERE id = ?", (tid,)).fetchone()[0])


def test_a_tap_whose_answer_is_lost_is_checked_and_shown_recorded_once(live_server: LiveServer, phone: Any) -> None:
    tid = set_up_table(live_server)
    page = phone
    live_server.login(page)
    page.goto(f"{live_server.url}/t/{tid}/table/1")
    tap(page, "Deal")
    before = events(live_server, tid)
    sent: list[str] = []

    def lose_the_answer(route: Any) -> None:
        sent.append(route.request.headers.get("idempotency-key", ""))
        route.fetch()  # the server gets it and records it
        route.abort("connectionreset")  # the answer never reaches the phone

    page.route("**/table/1/act", lose_the_answer)
    page.locator("#dealer .dl-pad button", has_text="Fold").first.click()
    page.wait_for_selector("#outbox li[data-state=waiting]")
    assert page.locator("#toast:visible").count() == 0  # nothing covers the buttons
    page.unroute("**/table/1/act")
    page.wait_for_selector("#outbox li[data-state=recorded]", timeout=10_000)
    page.wait_for_function(f"document.querySelector('#dealer').dataset.seq === '{before + 1}'", timeout=10_000)
    assert events(live_server, tid) == before + 1 and sent and len(set(sent)) == 1 and sent[0]  # once, one id
    status = page.request.get(f"{live_server.url}/api/commands/{sent[0]}")
    assert json.loads(status.text())["recorded"] is True


def test_a_tap_that_never_reached_the_server_keeps_what_was_typed(live_server: LiveServer, phone: Any) -> None:
    tid = set_up_table(live_server)
    page = phone
    live_server.login(page)
    page.goto(f"{live_server.url}/t/{tid}/table/1")
    tap(page, "Deal")
    before = events(live_server, tid)
    page.route("**/table/1/act", lambda route: route.abort("connectionreset"))
    page.fill(".dl-amount input[name=amount]", "60")
    page.locator(".dl-amount button[type=submit]").first.click()
    page.wait_for_selector("#outbox li[data-state=waiting]")
    assert "60" in page.inner_text("#outbox li")
    assert page.input_value(".dl-amount input[name=amount]") == "60"  # what was typed stays
    assert events(live_server, tid) == before
    page.unroute("**/table/1/act")  # the laptop answers: the raise is sent, recorded once
    page.wait_for_selector("#outbox li[data-state=recorded]", timeout=10_000)
    page.wait_for_function(f"document.querySelector('#dealer').dataset.seq === '{before + 1}'", timeout=10_000)
    assert events(live_server, tid) == before + 1
