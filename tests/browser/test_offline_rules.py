"""The rules on the dealer's phone, at 390 x 844 in Chromium with the network cut: while the
laptop does not answer, the panel goes on from the engine run in the browser (the next player
to act after each tap, as the engine says; an illegal raise refused at once with the engine's
sentence, and not queued), and once the laptop answers every tap is recorded once, in order."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from engine.declared import setup_from_data
from engine.hand import Hand
from tests.browser.test_outbox import actions, dealt, last_seq, press

pytestmark = pytest.mark.browser


def offline_tap(page: Any, label: str) -> None:
    page.locator("#dl-offline .dl-offline-pad button", has_text=re.compile("^" + re.escape(label))).first.click()


def test_the_phone_goes_on_by_the_rules_while_the_laptop_is_away(
        live_server: Any, browser: Any, artifacts_dir: Path) -> None:
    tid, context, page = dealt(live_server, browser)
    expect(page.locator("body")).to_have_attribute("data-offline-ready", "yes", timeout=45_000)
    data = page.evaluate("JSON.parse(document.getElementById('hand-data').textContent)")
    hand = Hand.replay(setup_from_data(data["setup"]), data["log"])  # the laptop's engine, for the expected turns
    before = actions(live_server, tid)
    offline = page.locator("#dl-offline")
    turn = offline.locator(".dl-offline-turn")
    context.set_offline(True)
    expect(page.locator("#connection")).not_to_have_attribute("data-state", "online", timeout=5_000)
    press(page, "Call")  # the laptop's own button finds it away, and the phone goes on
    hand.call(hand.turn or 0)
    expect(offline).to_be_visible(timeout=10_000)
    expect(page.locator("#dealer > .dl-bar > .dl-pad")).to_have_count(1)
    expect(page.locator("#dealer > .dl-bar > .dl-pad")).to_be_hidden()
    expect(turn).to_have_attribute("data-turn", str(hand.turn))
    expect(turn).to_contain_text(data["names"][str(hand.turn)])

    # An illegal raise: refused at once with the engine's sentence, not queued.
    amount = offline.locator("input[name=amount][type=number]")
    amount.fill("30")  # the big blind is 20: the minimum raise is to 40
    offline.locator(".dl-amount button").click()
    refused = offline.locator(".dl-offline-refused")
    expect(refused).to_be_visible()
    expect(refused).to_have_text(f"Seat {hand.turn} cannot raise to 30: the minimum raise is to 40.")
    expect(page.locator("#outbox li[data-state=waiting]")).to_have_count(1)

    # The rest of the round, the turn moving on as the engine says.
    offline_tap(page, "Raise to")  # the minimum raise's button: to 40
    hand.raise_to(hand.turn or 0, 40)
    expect(turn).to_have_attribute("data-turn", str(hand.turn))
    expect(refused).to_be_hidden()
    taps = 2
    while hand.street == "preflop" and hand.turn is not None:
        seat = hand.turn
        if taps % 2:
            offline_tap(page, "Fold")
            hand.fold(seat)
        else:
            offline_tap(page, "Call")
            hand.call(seat)
        taps += 1
        expect(page.locator("#outbox li[data-state=waiting]")).to_have_count(taps)
        if hand.turn is not None:
            expect(turn).to_have_attribute("data-turn", str(hand.turn))
    expect(offline.locator(".dl-offline-street")).to_have_text(re.compile(hand.street, re.I))
    page.screenshot(path=str(artifacts_dir / "dealer-offline-rules.png"), full_page=True)
    assert actions(live_server, tid) == before  # nothing reached the laptop

    context.set_offline(False)
    expect(page.locator("#outbox li[data-state=recorded]")).to_have_count(taps, timeout=15_000)
    expect(offline).to_be_hidden(timeout=10_000)
    expect(page.locator("#dealer")).to_have_attribute("data-seq", str(last_seq(live_server, tid)))
    assert actions(live_server, tid)[len(before):] == list(hand.log[len(data["log"]):])  # each once, in order
    context.close()
