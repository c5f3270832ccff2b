"""A new host's first night in Chromium: what got in the way, checked so it stays fixed.

The new-tournament page loads a structure when it is chosen and checks the levels as cells
change; a dealer who types an illegal raise at the bottom of a phone sees the refusal; the TV
keeps its time readable when a whole table's worth of moves is shown.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LiveServer

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou"]


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    yield page
    context.close()


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found)


def test_choosing_a_structure_loads_it_and_cells_are_checked_as_they_change(
    page: Any, live_server: LiveServer, artifacts_dir: Path
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    live_server.login(page)
    page.goto(f"{live_server.url}/new")
    page.select_option("select[name=preset]", "sng-1000-turbo")  # no "Load" button pressed
    expect(page.locator("input[name=starting_stack]")).to_have_value("1000")
    expect(page.locator("input[name=rebuy_chips]")).to_have_value("1000")  # not the old 10,000
    expect(page.locator("input[name=addon_chips]")).to_have_value("1000")
    expect(page.locator("button[value^=add_break]")).to_have_count(0)  # breaks are timed

    page.fill("input[aria-label='Level 5 small blind']", "20")
    page.fill("input[aria-label='Level 5 big blind']", "40")
    page.press("input[aria-label='Level 5 big blind']", "Tab")
    expect(page.locator("#structure-problems")).to_contain_text("Level 5: the blinds (20/40) fall below level 4's (50/100).")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Level 5 ante"  # typing goes on
    page.screenshot(path=str(artifacts_dir / "first-night-structure-check.png"))
    page.fill("input[aria-label='Level 5 big blind']", "150")
    page.fill("input[aria-label='Level 5 small blind']", "75")
    page.press("input[aria-label='Level 5 small blind']", "Tab")
    expect(page.locator("#structure-problems")).to_have_count(0)
    expect(page.locator("#structure-summary")).to_contain_text("10 levels")

    page.fill("input[aria-label='Level 6 big blind']", "250")  # changed, then straight to Create
    page.fill("input[name=name]", "Turbo night")
    page.click("button[value=create]")
    page.wait_for_url(f"{live_server.url}/t/1/players")

    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/new")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways page


def seated_table(live_server: LiveServer, names: list[str], table_size: int = 9) -> int:
    from director.core.db import get_db
    from director.night import commands as night_commands
    from director.setup.commands import create_tournament
    from director.tables.commands import draw

    with live_server.app.app_context():
        db = get_db()
        tid = create_tournament(db, {"name": "First night", "preset": "sng-1000", "table_size": table_size}, time.time())
        for name in names:
            night_commands.register_player(db, tid, name, None, time.time())
        draw(db, tid, None, time.time())
        night_commands.clock_action(db, tid, "start", None, time.time())
    return tid


def test_a_refused_raise_typed_at_the_bottom_of_a_phone_is_shown(
    phone: Any, live_server: LiveServer, artifacts_dir: Path
) -> None:
    """"Seat 4 cannot raise to 300: the minimum raise is to 400." must be seen by the dealer
    who typed it, not land above the top of the screen."""
    tid = seated_table(live_server, NAMES[:9])
    live_server.login(phone)
    phone.goto(f"{live_server.url}/t/{tid}/table/1")
    phone.locator("#dealer button", has_text="Deal").first.click()
    amount = phone.locator("#dealer input[name=amount][type=number]").first
    amount.scroll_into_view_if_needed()
    amount.fill("30")  # the big blind is 20: the minimum raise is to 40
    phone.locator("#dealer button", has_text="OK").first.click()
    message = phone.locator("#dealer [role=alert]").first
    expect(message).to_contain_text("cannot raise to 30: the minimum raise is to 40.")
    phone.wait_for_timeout(200)
    shown = box(phone, "#dealer [role=alert]")
    assert shown["y"] >= 0 and shown["y"] + shown["height"] <= PHONE["height"], shown
    phone.screenshot(path=str(artifacts_dir / "first-night-refused-raise.png"))


def test_many_moves_on_the_tv_leave_the_time_readable(
    page: Any, live_server: LiveServer, artifacts_dir: Path
) -> None:
    """Eighteen players at three tables of six, two out at each: a table breaks and its four
    players move (the final table's draw is announced, not listed as moves), and the TV lists
    the moves without covering the time and the blinds."""
    from director.core.db import get_db
    from director.core.store import load_state
    from director.night import commands as night_commands
    from director.tables.commands import apply_table_step

    tid = seated_table(live_server, [*NAMES, "Max", "Ned", "Oli", "Pam", "Quin", "Rae"], table_size=6)
    with live_server.app.app_context():
        db = get_db()
        seating = load_state(db, tid).seating
        for table in seating.tables:
            for player in sorted(seating.at_table(table).values())[:2]:
                night_commands.bust(db, tid, [player], None, time.time())
        state = apply_table_step(db, tid, None, time.time())
        assert state.last_event is not None and state.last_event.payload.get("kind") == "break"
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/t/{tid}/tv")
    expect(page.locator(".tv-move").first).to_be_visible()
    count = page.locator(".tv-move").count()
    assert count >= 4, count
    page.screenshot(path=str(artifacts_dir / "first-night-tv-moves.png"))
    moves = box(page, "#tv-moves")
    for part in (".tv-time", ".tv-blinds"):
        shown = box(page, part)
        assert shown["y"] + shown["height"] <= moves["y"], (part, shown, moves)
