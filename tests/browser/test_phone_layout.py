"""The phones at a full table, in Chromium: ten seats, names as long as the app accepts.

The dealer holds the phone in one hand: while a hand is bet, the actions of the player to act
(the pad, the quick amounts, the raise box) stay in a bar at the bottom of the screen, above
which the seats scroll, every target at least 44 px high. No phone page scrolls sideways at
360 px whatever the names, in every state of a hand. At the showdown, a card picker fills the
field the dealer is on, and greys the cards already entered.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LiveServer
from tests.browser.test_dealer import tap
from tests.browser.test_first_night import seated_table

pytestmark = pytest.mark.browser

# Forty characters each (the longest name the app accepts), half of them without a space.
NAMES = [
    "Maximiliane-Alexandra-Konstantinopoulou1",
    "Wolfeschlegelsteinhausenbergerdorffvora2",
    "Bartholomew Fitzgerald Montgomery-Smyth3",
    "Anna Maria Konstantinopoulou Papadakis 4",
    "Maximiliane-Alexandra-Konstantinopoulou5",
    "Wolfeschlegelsteinhausenbergerdorffvora6",
    "Bartholomew Fitzgerald Montgomery-Smyth7",
    "Anna Maria Konstantinopoulou Papadakis 8",
    "Maximiliane-Alexandra-Konstantinopoulou9",
    "Wolfeschlegelsteinhausenbergerdorffvor10",
]
assert all(len(name) == 40 for name in NAMES)

SMALL, TALL = {"width": 360, "height": 640}, {"width": 390, "height": 844}

# What lies outside the screen's height or width, and each tap target under 44 px high.
OUTSIDE = """sel => [...document.querySelectorAll(sel)].filter(el => el.getClientRects().length).map(el => {
  const b = el.getBoundingClientRect();
  return b.top < 0 || b.bottom > window.innerHeight || b.left < 0 || b.right > window.innerWidth
    ? `${el.tagName} "${el.textContent.trim().slice(0, 20)}" ${Math.round(b.top)}..${Math.round(b.bottom)}` : null;
}).filter(Boolean)"""
LOW = """sel => [...document.querySelectorAll(sel)].filter(el => el.getClientRects().length)
  .filter(el => el.getBoundingClientRect().height < 44)
  .map(el => `${el.tagName}.${el.className} "${(el.textContent || el.name || '').trim().slice(0, 24)}" ${el.getBoundingClientRect().height.toFixed(1)}`)"""
# Everything a thumb taps on a dealer's page: its buttons, fields, toggles and links.
TARGETS = ("#main button, #main summary, #main a[href], #main select, "
           "#main input:not([type=hidden]):not([type=checkbox]):not([type=radio]), "
           "#main label.dl-tog, #main label.dl-check")
BAR = "#dealer .dl-pad button, #dealer .dl-quick button, #dealer .dl-raise summary, #dealer .dl-amount input[name=amount], #dealer .dl-amount button"


def sideways(page: Any) -> list[Any]:
    """The page's width against the screen's, and what sticks out on the right, if it does."""
    return list(page.evaluate("""() => {
      const wide = document.documentElement.scrollWidth, screen = window.innerWidth;
      if (wide <= screen) return [];
      return [wide, screen, ...[...document.querySelectorAll('body *')]
        .filter(el => el.getBoundingClientRect().right > screen + 0.5
          || (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible'))
        .slice(0, 6).map(el => `${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 30)}"`)];
    }"""))


def at_the_table(live_server: LiveServer, browser: Any, viewport: dict[str, int]) -> tuple[int, Any, Any]:
    """Ten players with long names at table 1, the director's phone on its page."""
    tid = seated_table(live_server, NAMES, table_size=10)
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    live_server.login(page)
    page.goto(f"{live_server.url}/t/{tid}/table/1")
    return tid, context, page


def to_showdown(page: Any) -> None:
    """The first to act goes all-in, seven fold, the blinds call: three hands to show."""
    tap(page, "All-in")
    for _ in range(7):
        tap(page, "Fold")
    while page.get_attribute("#dealer", "data-phase") == "betting":
        tap(page, "Call")
    assert page.get_attribute("#dealer", "data-phase") == "showdown"


@pytest.mark.parametrize("viewport", [SMALL, TALL], ids=["360x640", "390x844"])
def test_the_actions_stay_under_the_thumb_at_a_full_table(
        live_server: LiveServer, browser: Any, artifacts_dir: Path, viewport: dict[str, int]) -> None:
    _tid, context, page = at_the_table(live_server, browser, viewport)
    try:
        assert page.locator("#dealer .dl-seat").count() == 10
        tap(page, "Deal")
        expect(page.locator("#dealer .dl-msg--ok")).to_contain_text("Hand 1 dealt.")
        assert page.locator("#dealer .dl-pad button").count() >= 3
        size = f"{viewport['width']}x{viewport['height']}"
        # As the page is after the tap, at its top, and half-way down: the actions are on screen.
        for where in ("as it is", 0, 0.5):
            if where != "as it is":
                page.evaluate("f => window.scrollTo(0, f * (document.documentElement.scrollHeight - innerHeight))", where)
            assert page.evaluate(OUTSIDE, BAR) == [], where
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts_dir / f"phone-layout-bar-{size}.png"))
        assert page.evaluate(LOW, BAR) == []
        assert page.evaluate(LOW, TARGETS) == []
        # The seats scroll above the bar: it covers the last seat at the top of the page...
        assert page.evaluate("document.documentElement.scrollHeight > innerHeight")
        # ...and scrolled to the end, the bar covers nothing: every target can be tapped.
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        covered = page.evaluate("""sel => [...document.querySelectorAll(sel)].filter(el => el.getClientRects().length).filter(el => {
            const b = el.getBoundingClientRect();
            if (b.bottom <= 0 || b.top >= innerHeight) return false;
            const y = Math.min(innerHeight - 1, Math.max(0, b.top + b.height / 2));
            const hit = document.elementFromPoint(b.left + Math.min(8, b.width / 2), y);
            return !(hit && (el.contains(hit) || hit.contains(el) || el.closest('label')?.contains(hit)));
        }).map(el => el.textContent.trim().slice(0, 30))""", "#dealer .dl-tools button, #dealer .dl-more > summary, #dealer .dl-foot a")
        assert covered == []
        page.screenshot(path=str(artifacts_dir / f"phone-layout-bar-{size}-end.png"))
        # The outbox's own button is as big as the panel's.
        page.evaluate("for (const el of document.querySelectorAll('#outbox, #outbox .outbox-clear')) el.hidden = false")
        assert page.evaluate(LOW, "#outbox .outbox-clear") == []
        assert sideways(page) == []
    finally:
        context.close()


def test_no_phone_page_scrolls_sideways_whatever_the_names(
        live_server: LiveServer, browser: Any, artifacts_dir: Path) -> None:
    tid, context, page = at_the_table(live_server, browser, SMALL)
    try:
        assert sideways(page) == [], "before the hand"
        tap(page, "Deal")
        assert sideways(page) == [], "betting"
        tap(page, "All-in")  # the turn line now names the next player, the notes the all-in
        assert sideways(page) == [], "betting after an all-in"
        for _ in range(7):
            tap(page, "Fold")
        while page.get_attribute("#dealer", "data-phase") == "betting":
            tap(page, "Call")
        assert sideways(page) == [], "showdown"
        page.screenshot(path=str(artifacts_dir / "phone-layout-showdown-360x640.png"), full_page=True)
        page.locator("#dealer .dl-more > summary", has_text="Enter the cards").click()
        assert sideways(page) == [], "showdown, the cards' form open"
        assert page.evaluate(LOW, TARGETS) == []
        for fieldset in page.locator("#dealer .dl-award fieldset").all():
            fieldset.locator("label.dl-tog").first.click()
        tap(page, "Award the pots")
        assert page.get_attribute("#dealer", "data-phase") == "before"
        assert page.locator("#dealer .dl-msg--bust").count() >= 1
        assert sideways(page) == [], "after the award"
        page.screenshot(path=str(artifacts_dir / "phone-layout-after-360x640.png"), full_page=True)

        from director.core.db import get_db
        from director.core.store import load_state
        from director.tables.views import player_tokens

        with live_server.app.app_context():
            tokens = player_tokens(load_state(get_db(), tid))
        assert len(tokens) == 10
        for token in tokens.values():
            page.goto(f"{live_server.url}/p/{token}")
            expect(page.locator(".player-name")).to_have_text(re.compile("|".join(map(re.escape, NAMES))))
            assert sideways(page) == [], f"/p/{token}"
        page.screenshot(path=str(artifacts_dir / "phone-layout-player-360x640.png"), full_page=True)
        for path in (f"/t/{tid}/tv/phone", f"/t/{tid}", f"/t/{tid}/tables"):
            page.goto(f"{live_server.url}{path}")
            assert sideways(page) == [], f"{path}: {sideways(page)}"
    finally:
        context.close()


def test_the_card_picker_fills_the_field_the_dealer_is_on(
        live_server: LiveServer, browser: Any, artifacts_dir: Path) -> None:
    _tid, context, page = at_the_table(live_server, browser, TALL)
    try:
        tap(page, "Deal")
        to_showdown(page)
        page.locator("#dealer .dl-more > summary", has_text="Enter the cards").click()
        picker = page.locator("#dealer .dl-picker")
        expect(picker).to_be_visible()
        seat = page.locator("#dealer .dl-cards input[name^=cards_]").first
        seat.click()
        picker.locator("button[data-rank=A]").click()
        picker.locator("button[data-suit=h]").click()
        expect(seat).to_have_value("Ah")
        picker.locator("button[data-suit=d]").click()  # a suit first, then the rank: the same
        picker.locator("button[data-rank=K]").click()
        expect(seat).to_have_value("AhKd")
        # The board: the picker follows the field tapped; typing stays possible.
        board = page.locator("#dealer .dl-cards input[name=board]")
        board.click()
        board.press_sequentially("7c")
        picker.locator("button[data-rank=Q]").click()
        picker.locator("button[data-suit=s]").click()
        expect(board).to_have_value("7cQs")
        # A card entered in any field is greyed: the ace of hearts once an ace is picked.
        picker.locator("button[data-rank=A]").click()
        expect(picker.locator("button[data-suit=h]")).to_be_disabled()
        expect(picker.locator("button[data-suit=s]")).to_be_enabled()
        color = page.evaluate("""() => ['s', 'h', 'd', 'c'].map(s => getComputedStyle(
            document.querySelector(`.dl-picker button[data-suit=${s}]`)).backgroundColor)""")
        assert len(set(color)) == 4, color  # four colours for the four suits
        assert page.evaluate(LOW, "#dealer .dl-picker button") == []
        assert sideways(page) == []
        page.screenshot(path=str(artifacts_dir / "phone-layout-card-picker-390x844.png"))
        # Taken back: the last card of the field leaves it, and is free again.
        picker.locator("button[data-back]").click()
        expect(board).to_have_value("7c")
    finally:
        context.close()
