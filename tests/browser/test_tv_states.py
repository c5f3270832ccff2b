"""Issue 31, "type you can read from a sofa": the TV in every state of a night (tv_states.py) at
six screen sizes, portrait included, measured in Chromium from the DOM:

- every text that is information is at least 1.6 % of the screen's height (the host's
  buttons apart), long names wrap rather than being cut, nothing overlaps, nothing leaves the
  screen and the page never scrolls;
- the clock never shrinks below the size it has with no notice: announcements, moves and a
  mystery bounty's envelope take the band below it (the envelope never covers it);
- an announcement is larger than the notices, and a notice does not repeat the banner.

A screenshot of each state and size is kept in the test artifacts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from . import tv_states
from .conftest import LiveServer

pytestmark = pytest.mark.browser

SIZES = [(1920, 1080), (1280, 720), (1366, 768), (3840, 2160), (1024, 768), (1080, 1920)]
FLOOR = 0.016  # of the screen's height

MEASURE = tv_states.MEASURE


def measure(browser: Any, url: str, size: tuple[int, int], shot: Path | None = None) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("document.getElementById('tv-clock') && document.fonts.status === 'loaded'")
        page.wait_for_timeout(700)  # the entrances (half a second) and the fitting (a frame) done
        found: dict[str, Any] = page.evaluate(MEASURE)
        if shot is not None:
            page.screenshot(path=str(shot))
        return found
    finally:
        context.close()


@pytest.fixture
def clock_sizes(live_server: LiveServer, browser: Any) -> dict[tuple[int, int], float]:
    """The time's type size at each screen size with nothing announced (a plain level)."""
    tv_states.look(live_server.app)
    path = tv_states.level(tv_states.Api(live_server.app))
    return {size: measure(browser, live_server.url + path, size)["time"] for size in SIZES}


def problems_of(state: str, size: tuple[int, int], found: dict[str, Any], plain: float | None) -> list[str]:
    where = f"{state} at {size[0]}x{size[1]}"
    problems = [f"{where}: {kind}: {item}" for kind in ("overlaps", "off", "cut", "small", "twice")
                for item in found[kind]]
    if found["page"] != list(size):
        problems.append(f"{where}: the page scrolls ({found['page']})")
    if plain is not None and found["time"] is not None and found["time"] < plain * 0.98:
        problems.append(f"{where}: the clock shrank from {plain:.0f} px to {found['time']:.0f} px")
    if found["sub"] is not None and found["flag"] is not None and found["sub"] < found["flag"]:
        problems.append(f"{where}: an announcement's line ({found['sub']:.0f} px) is smaller than a notice "
                        f"({found['flag']:.0f} px)")
    return problems


# The states whose clock has the side beside it (the hand-for-hand board, the season's
# standings) or no time at all (the winner): their clock is not the plain level's.
OWN_CLOCK = {"h4h", "season", "winner"}
SHOWS = {"moves": "moves", "bubble": "announce", "itm": "announce", "final": "announce", "mystery": "envelope",
         "heads-up": "announce", "winner": "announce",
         "h4h": "board", "season": "season"}


@pytest.mark.parametrize("state", [name for name in tv_states.STATES if name != "level"])
def test_every_state_reads_from_the_sofa_at_six_sizes(
    live_server: LiveServer, browser: Any, artifacts_dir: Path, clock_sizes: dict[tuple[int, int], float], state: str
) -> None:
    path = tv_states.STATES[state](tv_states.Api(live_server.app))
    problems = []
    for size in SIZES:
        found = measure(browser, live_server.url + path, size,
                        artifacts_dir / f"tv-state-{state}-{size[0]}x{size[1]}.png")
        if state in SHOWS:
            assert found["shown"][SHOWS[state]], f"{state} at {size}: nothing of it is shown ({found['shown']})"
        problems += problems_of(state, size, found, None if state in OWN_CLOCK else clock_sizes[size])
    assert problems == []


def test_a_plain_level_reads_from_the_sofa(live_server: LiveServer, browser: Any, artifacts_dir: Path) -> None:
    tv_states.look(live_server.app)
    path = tv_states.level(tv_states.Api(live_server.app))
    problems = []
    for size in SIZES:
        found = measure(browser, live_server.url + path, size, artifacts_dir / f"tv-state-level-{size[0]}x{size[1]}.png")
        assert found["time"] >= size[1] * 0.12, f"{size}: the time is large ({found['time']})"
        problems += problems_of("level", size, found, None)
    assert problems == []


@pytest.mark.parametrize("layout", ["info", "big"])
def test_the_other_layouts_in_the_busiest_states(
    live_server: LiveServer, browser: Any, artifacts_dir: Path, layout: str
) -> None:
    api = tv_states.Api(live_server.app)
    tv_states.look(live_server.app)
    paths = {"level": tv_states.level(api), "moves": tv_states.moves(api), "bubble": tv_states.bubble(api)}
    problems = []
    for size in SIZES:
        plain = None
        for state, path in paths.items():
            found = measure(browser, f"{live_server.url}{path}?layout={layout}", size,
                            artifacts_dir / f"tv-{layout}-{state}-{size[0]}x{size[1]}.png")
            problems += problems_of(f"{layout} {state}", size, found, plain)
            plain = found["time"] if state == "level" else plain
    assert problems == []


def test_the_envelope_opens_once_beside_the_clock(live_server: LiveServer, browser: Any) -> None:
    """Issue 31: the envelope sat over the clock, the blinds and the next level, and played its
    opening again at every poll (fading below half opacity every 1.5 s)."""
    path = tv_states.mystery(tv_states.Api(live_server.app))
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.add_init_script("""document.addEventListener('DOMContentLoaded', () => {
        const e = document.querySelector('.tv-envelope');
        window.firstEnvelope = e && [getComputedStyle(e).animationName, e.classList.contains('is-steady')]; });""")
    try:
        page = context.new_page()
        page.goto(live_server.url + path)
        page.wait_for_selector(".tv-envelope")
        assert page.evaluate("window.firstEnvelope") == ["tv-envelope-open", False], "it opens when it comes"
        page.wait_for_timeout(800)
        lowest = page.evaluate("""() => new Promise(done => {
            let low = 1; const end = performance.now() + 4000;
            (function look() {
              const el = document.querySelector('.tv-envelope');
              if (el) low = Math.min(low, parseFloat(getComputedStyle(el).opacity));
              if (performance.now() < end) requestAnimationFrame(look); else done(low);
            })(); })""")
        assert lowest == 1, f"the envelope faded to {lowest} at a poll"
        assert page.evaluate("document.querySelector('.tv-envelope').classList.contains('is-steady')"), "polled again"
        text = page.inner_text(".tv-envelope")
        assert re.search(r"Mystery bounty\s+\d+", text, re.I), text
        clock = page.locator("[data-main-time]").bounding_box()
        envelope = page.locator(".tv-envelope").bounding_box()
        assert clock is not None and envelope is not None
        assert envelope["y"] >= clock["y"] + clock["height"], "below the clock, never over it"
    finally:
        context.close()


def test_the_seasons_standings_show_long_names_whole(live_server: LiveServer, browser: Any, artifacts_dir: Path) -> None:
    """Issue 31: on the season's TV page long names were cut ("Maximiliano Fe…")."""
    season_id, _ = tv_states.season_night(tv_states.Api(live_server.app))
    problems = []
    for width, height in SIZES:
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/seasons/{season_id}/tv")
            page.wait_for_selector(".season-tv-name")
            found = page.evaluate("""() => ({
                names: [...document.querySelectorAll('.season-tv-name')].map(el => [el.textContent.trim(),
                         el.scrollWidth <= el.clientWidth + 1, parseFloat(getComputedStyle(el).fontSize)]),
                page: [document.documentElement.scrollWidth, innerWidth]})""")
            page.screenshot(path=str(artifacts_dir / f"tv-season-{width}x{height}.png"))
        finally:
            context.close()
        names = [name for name, _, _ in found["names"]]
        assert tv_states.LONG in names, names
        problems += [f"{width}x{height}: {name} is cut" for name, whole, _ in found["names"] if not whole]
        problems += [f"{width}x{height}: {name} in {size:.0f} px" for name, _, size in found["names"]
                     if size < height * FLOOR - 0.5]
        if found["page"][0] > found["page"][1]:
            problems.append(f"{width}x{height}: the page scrolls sideways")
    assert problems == []
