"""Every page at every width with the longest names (the issue "Every screen at its edges").

A night of eighteen players whose names have 40 characters each (the most the app accepts),
half with spaces and half without, accents and other alphabets included, goes through its
states: a hand at a dealer's table, a table breaking and its moves, the final table, the
bubble, a deal, and the results after the night. In each state the pages that show it (a
player's page, a dealer's table page, the floor's pages on a helper's phone, the dashboard,
the players, the tables, the results, the host's sheet, the TV) are opened at five widths,
from a small phone to a full-HD screen (the floor's at the phones'). None scrolls sideways, and no text is cut: an element
that hides what overflows it must show all of it, unless it shows an ellipsis and carries the
whole name in its title.

Screenshots of every page are taken when ``LONG_NAMES_SHOTS`` names a folder to keep them in.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import tv_states
from .conftest import LiveServer

pytestmark = pytest.mark.browser

# Forty characters each, spaced and solid in turn: the first ones stay in to the end.
SPACED = [
    "Anne-Sophie Marguerite de la Tour-Dupont",
    "Jean-Baptiste Émile de Montmorency-Laval",
    "María Fernanda de los Ángeles Ruiz-Peñas",
    "Bartholomew Fitzgerald Montgomery-Smythe",
    "Øystein Bjørnstjerne Haugeland-Fjellstad",
    "Nguyễn Thị Minh Khai Trần Hoàng Phương A",
    "Zoë-Charlotte van der Westhuizen-Botha B",
    "Siobhán Ní Mhaoldomhnaigh Uí Cheallaighe",
    "Jürgen Friedrich von Hohenzollern-Kleist",
]
SOLID = [
    "Guðmundurjóhannessonþórsdóttirkristinnss",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    "Wolfeschlegelsteinhausenbergerdorffvorad",
    "Žofieštěpánkováchmelařovádvořákováříhová",
    "Øysteinbjørnstjernesønhaugelandfjellstad",
    "Brünhildeschwarzenbergerhohenzollernmüll",
    "Llanfairpwllgwyngyllgogerychwyrndrobwlll",
    "Παπαδόπουλοςκωνσταντινίδηςαλεξανδρόπουλο",
    "Szczepańskibrzęczyszczykiewiczwojciechow",
]
NAMES = [name for pair in zip(SPACED, SOLID, strict=True) for name in pair]
assert all(len(name) == 40 for name in NAMES) and len(set(NAMES)) == 18

SIZES = [(360, 800), (390, 844), (768, 1024), (1366, 768), (1920, 1080)]

# The page's width against the screen's and what sticks out on the right (the outermost
# elements that do), then each element that hides part of its text, across or down (a line
# clamp): unless it shows an ellipsis and has each name it holds whole in its title.
CHECK = """names => {
  const doc = document.documentElement, screen = doc.clientWidth;
  const said = el => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${typeof el.className === 'string' && el.className
    ? '.' + el.className.trim().split(/\\s+/).join('.') : ''} "${el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40)}"`;
  const out = [];
  const shown = [...document.querySelectorAll('body, body *')].filter(el => el.getClientRects().length);
  const sticks = el => el.getBoundingClientRect().right > screen + 0.5;
  if (doc.scrollWidth > screen) {
    out.push(`the page is ${doc.scrollWidth} px wide on a screen of ${screen} px`);
    for (const el of shown.filter(el => sticks(el) && !(el.parentElement && sticks(el.parentElement))).slice(0, 4))
      out.push(`  sticks out to ${Math.round(el.getBoundingClientRect().right)} px: ${said(el)}`);
    for (const el of shown.filter(el => getComputedStyle(el).overflowX === 'visible' && el.clientWidth
                                  && el.scrollWidth > el.clientWidth + 1
                                  && el.getBoundingClientRect().left + el.scrollWidth > screen + 0.5).slice(-4))
      out.push(`  spills out to ${Math.round(el.getBoundingClientRect().left + el.scrollWidth)} px: ${said(el)}`);
  }
  for (const el of shown) {
    const style = getComputedStyle(el), box = el.getBoundingClientRect();
    if (box.width <= 2 || box.height <= 2 || style.clipPath !== 'none' || style.clip !== 'auto') continue;  // (hidden text)
    const hides = value => value === 'hidden' || value === 'clip';
    const across = hides(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
    const down = hides(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
    if (!(across || down) || !el.textContent.trim()) continue;
    const text = el.textContent.replace(/\\s+/g, ' ').trim();
    const inside = names.filter(name => text.includes(name));
    const ellipsis = style.textOverflow === 'ellipsis' || (style.webkitLineClamp && style.webkitLineClamp !== 'none');
    if (ellipsis && el.title && (inside.length ? inside.every(n => el.title.includes(n)) : el.title.includes(text))) continue;
    out.push(`cut (${el.scrollWidth}x${el.scrollHeight} px in ${el.clientWidth}x${el.clientHeight}): ${said(el)}`);
  }
  return out;
}"""


def shots_dir() -> Path | None:
    """Where the screenshots go, if anywhere (they take a while: only when asked)."""
    if not os.environ.get("LONG_NAMES_SHOTS"):
        return None
    folder = Path(os.environ["LONG_NAMES_SHOTS"])
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Night:
    """The long-named night on the live server, driven through the JSON API."""

    def __init__(self, live_server: LiveServer) -> None:
        self.api = tv_states.Api(live_server.app)
        tv_states.look(live_server.app)
        start = time.time() - 600
        with self.api.at(start - 60):
            self.tid = int(self.api("POST", "/api/tournaments", {
                "name": "Saturday Night Hold'em Championship", "preset": "home-short", "buy_in": 25,
                "bounty_kind": "knockout", "bounty": 5, **tv_states.CLOSED})["id"])
            for name in NAMES:
                self.api("POST", f"/api/t/{self.tid}/players", {"name": name})
            self.api("POST", f"/api/t/{self.tid}/tables/draw", {"table_size": 6})
        with self.api.at(start):
            self.api("POST", f"/api/t/{self.tid}/clock/start")
        self.floor = str(self.api("POST", f"/api/t/{self.tid}/links", {"kind": "floor"})["token"])

    def state(self) -> Any:
        return self.api.state(self.tid)

    def out(self, count: int, ago: float = 120) -> None:
        tv_states._out(self.api, self.tid, count, time.time() - ago)

    def paid(self) -> int:
        return tv_states._paid(self.api, self.tid)

    def player(self, name: str) -> str:
        state = self.state()
        return f"/p/{state.tokens[next(p.id for p in state.players if p.name == name)]}"

    def table_of(self, name: str) -> int:
        return int(next(p.table for p in self.state().players if p.name == name))

    def hand(self, table: int, command: str, **body: Any) -> Any:
        return self.api("POST", f"/api/t/{self.tid}/table/{table}/{command}", body)


def pages(tid: int, *kinds: str) -> list[tuple[str, str]]:
    where = {"dashboard": f"/t/{tid}", "players": f"/t/{tid}/players", "tables": f"/t/{tid}/tables",
             "tv": f"/t/{tid}/tv", "tv-phone": f"/t/{tid}/tv/phone", "sheet": f"/t/{tid}/sheet",
             "results": f"/t/{tid}/results", "deal": f"/t/{tid}/deal"}
    return [(kind, where[kind]) for kind in kinds]


Pages = list[tuple[str, str]]


def states(night: Night) -> Iterator[tuple[str, Pages, Pages]]:
    """The night, state by state: each state's name, the pages the director looks at (kind,
    path) and the floor's."""
    tid = night.tid
    # A hand at table 1: a raise, a fold; one player already out at another table.
    night.out(1)
    hand = night.hand(1, "deal")
    night.hand(1, "act", kind="raise", amount=hand["min_to"])
    raiser = next(s["name"] for s in hand["seats"] if s["status"] == "turn")
    night.hand(1, "act", kind="fold")
    yield ("hand", [("dealer", f"/t/{tid}/table/1"), ("player", night.player(raiser)),
                    ("player", night.player(NAMES[-1])),
                    *pages(tid, "dashboard", "players", "tables", "tv", "tv-phone", "sheet")],
           [("dealer", f"/t/{tid}/table/1"), *pages(tid, "dashboard", "players", "tables")])
    while night.hand(1, "act", kind="fold")["phase"] == "betting":
        pass
    # A table breaks: twelve left at three tables; then its moves are made.
    night.out(5)
    yield "break", pages(tid, "tables", "dashboard", "tv"), pages(tid, "tables", "dashboard")
    before = {p.name: p.table for p in night.state().alive}
    night.api("POST", f"/api/t/{tid}/tables/confirm")
    moved = next(p for p in night.state().alive if p.table != before[p.name])
    yield ("moves", [("player", night.player(moved.name)), ("dealer", f"/t/{tid}/table/{moved.table}"),
                     *pages(tid, "tv", "tables")], [])
    # The final table.
    night.out(len(night.state().alive) - 6)
    night.api("POST", f"/api/t/{tid}/tables/confirm")
    final = night.table_of(NAMES[0])
    yield ("final", [("dealer", f"/t/{tid}/table/{final}"), ("player", night.player(NAMES[1])),
                     *pages(tid, "dashboard", "tables", "tv")], [])
    # The bubble bursts just now.
    night.out(len(night.state().alive) - night.paid() - 1)
    bubble = night.state().alive[-1].name
    night.out(1, ago=2)
    yield "bubble", [("player", night.player(bubble)), *pages(tid, "tv", "dashboard", "players")], []
    # A deal among the last three, which ends the night.
    night.out(len(night.state().alive) - 3)
    yield "deal", pages(tid, "deal", "dashboard", "tv"), []
    stacks = {str(p.id): 60_000 * (k + 1) for k, p in enumerate(night.state().alive)}
    night.api("POST", f"/api/t/{tid}/deal", {"method": "chip_chop", "stacks": stacks})
    assert night.state().finished
    # The results after the night.
    yield ("results", [("player", night.player(NAMES[0])), ("player", night.player(NAMES[1])),
                       *pages(tid, "results", "sheet", "tv", "dashboard", "players", "tables")],
           pages(tid, "dashboard", "players"))


def open_pages(live_server: LiveServer, browser: Any, night: Night) -> tuple[list[Any], dict[str, dict[int, Any]]]:
    """A page for the director (logged in) at each width, and one for the floor (by its link,
    on a helper's phone) at the phones' widths."""
    contexts, opened = [], {"director": {}, "floor": {}}
    for width, height in SIZES:
        for role in opened:
            if role == "floor" and width > 390:
                continue
            context = browser.new_context(viewport={"width": width, "height": height})
            contexts.append(context)
            page = context.new_page()
            if role == "director":
                live_server.login(page)
            else:
                page.goto(f"{live_server.url}/l#{night.floor}")
                page.wait_for_url(f"**/t/{night.tid}")
            opened[role][width] = page
    return contexts, opened


TAKES_TURNS = "() => (document.querySelector('.tv-band') || {dataset: {}}).dataset.turns === '1'"
"""Whether the TV's band shows its moves and its announcement in turns."""


def look(url: str, opened: dict[str, dict[int, Any]], state: str, seen: dict[str, Pages], shots: Path | None) -> list[str]:
    """What is wrong with each page of the state at each width (a screenshot of each kept)."""
    problems = []
    for width, height in SIZES:
        for role, kinds in seen.items():
            if width not in opened[role]:
                continue
            page = opened[role][width]
            for kind, path in kinds:
                page.goto(url + path)
                if kind == "tv":
                    page.wait_for_function("document.getElementById('tv-clock') && document.fonts.status === 'loaded'")
                    page.wait_for_timeout(600)  # the entrances and the fitting done
                if shots is not None:
                    name = f"{state}-{'floor-' if role == 'floor' else ''}{kind}-{width}x{height}"
                    page.screenshot(path=str(shots / f"{name}.png"), full_page=kind != "tv")
                problems.extend(f"{state}, {role}'s {kind} ({path}) at {width}x{height}: {said}"
                                for said in page.evaluate(CHECK, NAMES))
                if kind == "tv" and page.evaluate(TAKES_TURNS):  # the band's next page fitted as it is shown
                    shown = page.evaluate("() => document.querySelector('.tv-band').dataset.page")
                    page.wait_for_function(f"() => document.querySelector('.tv-band').dataset.page !== '{shown}'",
                                           timeout=15_000)
                    page.wait_for_timeout(100)
                    problems.extend(f"{state}, {role}'s {kind} ({path}) at {width}x{height}, its next page: {said}"
                                    for said in page.evaluate(CHECK, NAMES))
    return problems


def test_every_page_at_every_width_with_the_longest_names(
        live_server: LiveServer, browser: Any) -> None:
    night = Night(live_server)
    contexts, opened = open_pages(live_server, browser, night)
    shots = shots_dir()
    problems: list[str] = []
    try:
        for state, director, floor in states(night):
            problems += look(live_server.url, opened, state, {"director": director, "floor": floor}, shots)
    finally:
        for context in contexts:
            context.close()
    assert problems == [], "\n".join(problems)
