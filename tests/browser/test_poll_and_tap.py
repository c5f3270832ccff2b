"""A dealer's tap and the panel's poll crossing on a slow network: the poll's answer, read before
the tap was recorded, must not cover the panel the tap's answer replaces (or the tap's answer
lands on a panel no longer on the page, and the dealer sees the hand undealt)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import LiveServer
from tests.browser.test_dealer import set_up_table

pytestmark = pytest.mark.browser


def test_a_polls_answer_during_a_tap_does_not_hide_the_taps_answer(live_server: LiveServer, phone: Any) -> None:
    tid = set_up_table(live_server)
    page = phone
    live_server.login(page)
    page.goto(f"{live_server.url}/t/{tid}/table/1")
    page.evaluate("document.querySelector('#dealer').dataset.mark = 'before the tap'")
    held: list[Any] = []
    page.route("**/table/1/deal", lambda route: held.append(route))  # the tap's request waits on the Wi-Fi
    page.locator("#dealer .dl-big", has_text="Deal").click()
    page.wait_for_function("document.querySelector('#dealer .dl-big').disabled")
    while not held:
        page.wait_for_timeout(20)

    # Meanwhile the panel's poll is answered with the table as it was (since=0: the whole panel).
    with page.expect_response(lambda r: "/table/1/panel" in r.url) as polled:
        page.evaluate(
            "([tid]) => htmx.ajax('GET', `/t/${tid}/table/1/panel?since=0`, {target: '#dealer', swap: 'outerHTML'})",
            [tid],
        )
    assert polled.value.status == 200
    page.wait_for_timeout(200)
    assert page.evaluate("document.querySelector('#dealer').dataset.mark") == "before the tap"

    held[0].continue_()
    page.wait_for_function("document.querySelector('#dealer').dataset.mark === undefined", timeout=10_000)
    assert page.locator("#dealer .dl-pad button", has_text="Fold").count() == 1  # the hand is dealt, and shown

    # With no tap on its way, the poll's answer is shown as before.
    page.evaluate("document.querySelector('#dealer').dataset.mark = 'polled'")
    page.evaluate(
        "([tid]) => htmx.ajax('GET', `/t/${tid}/table/1/panel?since=0`, {target: '#dealer', swap: 'outerHTML'})", [tid]
    )
    page.wait_for_function("document.querySelector('#dealer').dataset.mark === undefined", timeout=10_000)
