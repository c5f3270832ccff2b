"""The dealer's assistant in Chromium, on a phone-sized screen: a whole hand through the buttons.

Four players at one table (stacks set by the director's corrections): three go all-in for
different amounts and the big stack calls, which makes a main pot and two side pots. The
dealer taps the winners; two players are knocked out in that hand and placed by their
starting stacks, and the TV and the dashboard show it.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE, LiveServer

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent.parent


def set_up_table(live_server: LiveServer) -> int:
    """Ann 400 (seat 1), Bob 800 (seat 2), Cy 1,000 (seat 3), Dee 1,800 (seat 5); button seat 5."""
    from director.core.db import get_db
    from director.night import commands as night_commands
    from director.setup.commands import create_tournament

    with live_server.app.app_context():
        db = get_db()
        tid = create_tournament(db, {"name": "Friday", "preset": "sng-1000", "table_size": 6}, time.time())
        for name in ("Ann", "Bob", "Cy", "Dee"):
            night_commands.register_player(db, tid, name, None, time.time())
        night_commands.record(
            db, tid, "seats_drawn",
            {"seats": {"1": [1, 1], "2": [1, 2], "3": [1, 3], "4": [1, 5]}, "buttons": {"1": 5}},
            None, time.time(),
        )
        night_commands.clock_action(db, tid, "start", None, time.time())
        for player, stack in ((1, 400), (2, 800), (4, 1800)):
            night_commands.record(
                db, tid, "stack_corrected", {"player": player, "stack": stack, "reason": "set up"}, None, time.time()
            )
    return tid


def tap(page: Any, text: str) -> None:
    """Tap the action button whose label starts with ``text`` and wait for the panel to come back."""
    seq = page.get_attribute("#dealer", "data-seq")
    page.locator("#dealer .dl-pad button, #dealer .dl-big", has_text=re.compile("^" + re.escape(text))).first.click()
    page.wait_for_function(
        "seq => document.querySelector('#dealer').dataset.seq !== seq", arg=seq, timeout=10_000
    )


def seat_text(page: Any, seat: int, part: str) -> str:
    return str(page.inner_text(f'#dealer .dl-seat[data-seat="{seat}"] .dl-seat-{part}')).strip()


def test_three_way_all_in_with_two_side_pots_through_the_buttons(
    live_server: LiveServer, phone: Any, artifacts_dir: Path
) -> None:
    """TDA T43: three-way all-in with different stacks makes a main pot plus side pots, each
    awarded separately; seed 000: players knocked out in the same hand are ranked by the
    chips they started it with."""
    tid = set_up_table(live_server)
    page = phone
    live_server.login(page)
    page.goto(f"{live_server.url}/t/{tid}/table/1")
    assert "Button seat 5 · small blind seat 1 · big blind seat 2" in page.inner_text(".dl-positions")
    page.screenshot(path=str(artifacts_dir / "dealer-1-before.png"), full_page=True)

    tap(page, "Deal")
    assert page.get_attribute("#dealer", "data-phase") == "betting"
    assert "Seat 3" in page.inner_text(".dl-turn")
    # Only legal actions, with their amounts.
    labels = [t.strip() for t in page.locator("#dealer .dl-pad button").all_inner_texts()]
    assert labels == ["Fold", "Call 20", "All-in 1,000"]
    assert page.inner_text(".dl-raise summary").strip() == "Raise to 40+"
    page.screenshot(path=str(artifacts_dir / "dealer-2-betting.png"), full_page=True)

    tap(page, "All-in 1,000")  # Cy, seat 3
    assert "Seat 5" in page.inner_text(".dl-turn")
    tap(page, "Call 1,000")  # Dee, seat 5
    tap(page, "Call all-in 390")  # Ann, seat 1 (10 already in as small blind)
    tap(page, "Call all-in 780")  # Bob, seat 2 (20 in as big blind)

    assert page.get_attribute("#dealer", "data-phase") == "showdown"
    pots = page.locator("#dealer .dl-pot[data-pot]")
    assert pots.count() == 3
    assert [pots.nth(i).get_attribute("data-amount") for i in range(3)] == ["1600", "1200", "400"]
    assert "seats 1, 2, 3 and 5" in pots.nth(0).inner_text()
    assert "seats 2, 3 and 5" in pots.nth(1).inner_text()
    assert "seats 3 and 5" in pots.nth(2).inner_text()
    page.screenshot(path=str(artifacts_dir / "dealer-3-showdown.png"), full_page=True)

    # Bob wins the main pot and the first side pot, Dee the second side pot.
    page.locator('fieldset[data-pot="0"] label', has_text="Seat 2").click()
    page.locator('fieldset[data-pot="1"] label', has_text="Seat 2").click()
    page.locator('fieldset[data-pot="2"] label', has_text="Seat 5").click()
    tap(page, "Award the pots")

    assert page.get_attribute("#dealer", "data-phase") == "before"
    result = page.inner_text("#dealer")
    assert "Seat 2 wins the main pot (1,600)" in result and "Seat 5 wins side pot 2 (400)" in result
    assert result.index("side pot 2") < result.index("main pot")  # TDA 5.1: side pots first
    busts = page.locator(".dl-msg--bust").all_inner_texts()
    assert busts == ["Ann is out in 4th place.", "Cy is out in 3rd place."]
    assert seat_text(page, 2, "stack") == "2,800"
    assert seat_text(page, 5, "stack") == "1,200"
    assert page.locator('#dealer .dl-seat[data-seat="1"]').count() == 0
    # Heads-up next: the big blind moves on to seat 5, seat 2 has the button and the small blind.
    assert "Button seat 2 · small blind seat 2 · big blind seat 5" in page.inner_text(".dl-positions")
    page.screenshot(path=str(artifacts_dir / "dealer-4-after.png"), full_page=True)

    # The TV and the dashboard know.
    page.goto(f"{live_server.url}/t/{tid}/tv")
    assert page.inner_text(".tv-stat--players dd").strip().startswith("2")
    page.goto(f"{live_server.url}/t/{tid}")
    figure = page.locator(".figure", has=page.locator("dt", has_text=re.compile("players left", re.I)))
    assert figure.locator("dd").inner_text().strip() == "2"
    dashboard = page.inner_text("main")
    assert "Ann" in dashboard and "Cy" in dashboard
    assert page.locator(f'a[href="/t/{tid}/table/1"]').count() == 1  # the way to the table page


def test_an_illegal_amount_is_refused_with_the_engines_message(live_server: LiveServer, phone: Any) -> None:
    """A number typed in that the rules refuse comes back as the engine's sentence."""
    tid = set_up_table(live_server)
    page = phone
    live_server.login(page)
    page.goto(f"{live_server.url}/t/{tid}/table/1")
    tap(page, "Deal")
    page.fill(".dl-amount input[name=amount]", "30")
    page.click(".dl-amount button")
    page.wait_for_selector(".dl-msg--error")
    assert page.inner_text(".dl-msg--error") == "Seat 3 cannot raise to 30: the minimum raise is to 40."
    page.fill(".dl-amount input[name=amount]", "60")
    seq = page.get_attribute("#dealer", "data-seq")
    page.click(".dl-amount button")
    page.wait_for_function("seq => document.querySelector('#dealer').dataset.seq !== seq", arg=seq)
    assert seat_text(page, 3, "bet") == "60"
    assert "Seat 5" in page.inner_text(".dl-turn")


def test_the_menu_never_covers_the_hand_after_a_tap(live_server: LiveServer, phone: Any) -> None:
    """Issue 31: "after an action the phone's sticky menu covers the hand's title". On a phone
    the menu (two lines there) scrolls away with the page: after taps, wherever the page is
    scrolled, what is at the top of the screen is the dealer's panel, and the title shows whole."""
    tid = set_up_table(live_server)
    page = phone
    live_server.login(page)
    page.goto(f"{live_server.url}/t/{tid}/table/1")
    tap(page, "Deal")
    tap(page, "Call")
    # The page scrolled so that the title is at the very top of the screen (as after a swap
    # that keeps the scroll): the title is what is there, not the menu.
    hit = page.evaluate("""() => { const title = document.querySelector('.dl-title');
        window.scrollTo(0, title.getBoundingClientRect().top + scrollY);
        const box = title.getBoundingClientRect();
        const el = document.elementFromPoint(box.left + 4, box.top + box.height / 2);
        return [scrollY > 0, !!(el && el.closest('.dl-title')), el ? el.className : null]; }""")
    assert hit[0] and hit[1], f"the hand's title is covered by {hit[2]}"


def change_from_another_device(live_server: LiveServer, tid: int) -> None:
    """The director pauses the clock on the laptop: the tournament changes, not this table's hand."""
    from director.core.db import get_db
    from director.night import commands as night_commands

    with live_server.app.app_context():
        night_commands.clock_action(get_db(), tid, "pause", None, time.time())


def change_the_panel_shows(live_server: LiveServer, tid: int) -> None:
    """The director turns hand for hand on at the laptop: every table's panel says so (a change
    the panel does not show, such as the clock paused, leaves it as it is: its poll is answered
    "not changed")."""
    from director.core.db import get_db
    from director.night import commands as night_commands

    with live_server.app.app_context():
        night_commands.record(get_db(), tid, "hand_for_hand", {"on": True}, None, time.time())


def test_polling_never_wipes_a_raise_amount_being_typed(live_server: LiveServer, phone: Any) -> None:
    """A dealer with chips in one hand types a raise amount; another device changes what the
    panel shows meanwhile. The typed amount stays, focused or not, until it is sent or
    emptied; then the panel shows the new state at once."""
    tid = set_up_table(live_server)
    page = phone
    live_server.login(page)
    page.goto(f"{live_server.url}/t/{tid}/table/1")
    tap(page, "Deal")
    seq = page.get_attribute("#dealer", "data-seq")
    amount = page.locator(".dl-amount input[name=amount]")
    amount.fill("60")
    change_the_panel_shows(live_server, tid)
    page.wait_for_selector("#dealer[data-stale]", timeout=10_000)  # the poll saw the change, and waited
    assert amount.input_value() == "60"
    page.locator(".dl-title").click()  # the field loses focus, still holding 60
    page.wait_for_timeout(4_000)  # more than a poll
    assert page.get_attribute("#dealer", "data-seq") == seq
    assert amount.input_value() == "60"
    amount.fill("")
    page.locator(".dl-title").click()
    page.wait_for_function(
        "seq => document.querySelector('#dealer').dataset.seq !== seq", arg=seq, timeout=5_000
    )
    assert not page.locator("#dealer").get_attribute("data-stale")
    # Typed, then sent: the answer is the new panel with the raise in it.
    page.locator(".dl-amount input[name=amount]").fill("60")
    tap_seq = page.get_attribute("#dealer", "data-seq")
    page.click(".dl-amount button")
    page.wait_for_function("seq => document.querySelector('#dealer').dataset.seq !== seq", arg=tap_seq)
    assert seat_text(page, 3, "bet") == "60"


def test_polling_never_wipes_the_dashboard_fields(live_server: LiveServer, browser: Any) -> None:
    """On the dashboard, the action clock's name and the bust's "knocked out by" survive a
    change made on another device, and the change shows once the director is done."""
    tid = set_up_table(live_server)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        live_server.login(page)
        page.goto(f"{live_server.url}/t/{tid}")
        seq = page.get_attribute("#dashboard", "data-seq")
        who = page.locator("#tv-controls input[name=who]")
        who.fill("Seat 4")
        page.locator("h1").click()  # nothing focused: the typed name alone holds the refresh
        change_from_another_device(live_server, tid)
        page.wait_for_selector("#dashboard[data-stale]", timeout=15_000)
        assert who.input_value() == "Seat 4"
        assert page.get_attribute("#dashboard", "data-seq") == seq
        who.fill("")
        page.locator("h1").click()
        page.wait_for_function(
            "seq => document.querySelector('#dashboard').dataset.seq !== seq", arg=seq, timeout=10_000
        )
        assert page.locator("#players-card").count() == 1
        seq = page.get_attribute("#dashboard", "data-seq")
        page.locator("#player-1 details.bust summary").click()
        page.locator("#player-1 select[name=by]").first.select_option(label="Dee")
        page.locator("h1").click()
        with live_server.app.app_context():
            from director.core.db import get_db
            from director.night import commands as night_commands

            night_commands.clock_action(get_db(), tid, "resume", None, time.time())
        page.wait_for_timeout(7_000)  # more than the clock's poll, which sees the change
        assert page.locator("#player-1 select[name=by]").first.locator("option:checked").inner_text() == "Dee"
        assert page.get_attribute("#dashboard", "data-seq") == seq
        page.locator("#player-1 select[name=by]").first.select_option(label="(not recorded)")
        page.locator("#player-1 details.bust summary").click()  # closed: the director is done
        page.locator("h1").click()
        page.wait_for_function(
            "seq => document.querySelector('#dashboard').dataset.seq !== seq", arg=seq, timeout=10_000
        )
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [PHONE, {"width": 768, "height": 1024}], ids=["phone", "tablet"])
def test_the_top_menu_fits_a_phone_and_a_tablet(live_server: LiveServer, browser: Any, viewport: dict[str, int]) -> None:
    """Every link of the top menu is on the screen, whole, on the table page and the
    dashboard, at 390x844 and 768x1024; nothing makes the page scroll sideways."""
    tid = set_up_table(live_server)
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    try:
        live_server.login(page)
        for path in (f"/t/{tid}/table/1", f"/t/{tid}", f"/t/{tid}/players"):
            page.goto(f"{live_server.url}{path}")
            links = page.locator(".topbar a, .topbar button")
            assert links.count() >= 6  # the brand, five links, log out
            for k in range(links.count()):
                box = links.nth(k).bounding_box()
                text = links.nth(k).inner_text()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (path, text)
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], path
    finally:
        context.close()


def test_a_misdeal_and_its_redeal_on_the_dealers_phone(live_server: LiveServer, phone: Any, artifacts_dir: Path) -> None:
    """TDA T47: "Two boxed cards on the initial deal [...]: misdeal, exact replay"; after
    substantial action (T48) the menu says why there is no misdeal."""
    tid = set_up_table(live_server)
    page = phone
    live_server.login(page)
    page.goto(f"{live_server.url}/t/{tid}/table/1")
    tap(page, "Deal")
    tap(page, "Call 20")
    assert "Seat 5" in page.inner_text(".dl-turn")
    page.click("#dealer .dl-accidents summary")
    page.screenshot(path=str(artifacts_dir / "dealer-misdeal-menu.png"), full_page=True)
    seq = page.get_attribute("#dealer", "data-seq")
    page.locator("#dealer .dl-accidents button", has_text="Two or more boxed cards").click()
    page.wait_for_function("seq => document.querySelector('#dealer').dataset.seq !== seq", arg=seq, timeout=10_000)
    notice = page.inner_text("#dealer .dl-msg--ok")
    assert notice.startswith("Misdeal, two or more boxed cards on the initial deal: the hand is dealt again")
    # The re-deal: the same hand, the same button and blinds, seat 3 to act again, no bet but the blinds.
    assert "hand 1" in page.inner_text(".dl-title") and "Seat 3" in page.inner_text(".dl-turn")
    assert "BTN" in page.inner_text('#dealer .dl-seat[data-seat="5"]')
    assert seat_text(page, 1, "bet") == "10" and seat_text(page, 2, "bet") == "20" and seat_text(page, 3, "bet") == ""
    page.screenshot(path=str(artifacts_dir / "dealer-misdeal-redeal.png"), full_page=True)
    tap(page, "Call 20")
    tap(page, "Call 20")
    page.click("#dealer .dl-accidents summary")
    menu = page.inner_text("#dealer .dl-accidents")
    assert ("Substantial action has taken place (seat 3 called and seat 5 called): no misdeal now, only a fouled"
            " deck voids the hand (TDA 35-D, 35-E).") in menu
    assert page.locator("#dealer .dl-accidents button", has_text="Two or more boxed cards").count() == 0
