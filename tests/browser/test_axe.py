"""Readable by everyone: axe-core finds no serious or critical WCAG 2.2 A/AA violation on any
kind of page, in the dark and the light where a page has both, on a night with life in it (the
demo, a few TV states, a season, a cash game), on the laptop's screen and the phones'.

The lesser findings (moderate, minor) are printed and kept in ``axe.json`` beside the other
artifacts, page by page, for people to look at."""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from director.core.db import get_db
from director.core.store import load_state
from director.home.demo import fill_demo
from director.tables.views import player_tokens

from .conftest import PHONE, LiveServer
from .tv_states import Api, look, on_break, season_night, winner

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # some 100 pages: two to three minutes

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
OPTIONS = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
BLOCKING = {"serious", "critical"}
LAPTOP = {"width": 1280, "height": 800}
TV = {"width": 1280, "height": 720}


@dataclass(frozen=True)
class Screen:
    path: str
    size: dict[str, int]
    who: str  # "director", "nobody" (no login), "floor" or "dealer" (their phone's link)
    schemes: tuple[str, ...] = ("dark", "light")


def night(live_server: LiveServer) -> dict[str, Any]:
    """The demo night, a night on its break, a night won, a season and a cash game: the ids."""
    from director.cash import commands as cash

    app = live_server.app
    with app.app_context():
        db = get_db()
        tid = fill_demo(db, time.time())
        token = next(iter(player_tokens(load_state(db, tid)).values()))
        cash.club_action(db, "member", {"name": "Ann", "grant": 20_000}, time.time())
        sid = cash.create_session(
            db, {"name": "Friday cash", "tables": [{"seats": 6, "stake": "50/100"}]}, time.time()
        )
    look(app)
    api = Api(app)
    season, waiting = season_night(api)
    with app.app_context():
        person = get_db().execute("SELECT MIN(id) FROM people").fetchone()[0]
    return {"tid": tid, "token": token, "sid": sid, "person": person,
            "break": on_break(api), "winner": winner(api), "season": season, "waiting": waiting}


def screens(ids: dict[str, Any]) -> list[Screen]:
    tid, sid = ids["tid"], ids["sid"]
    laptop = [
        "/", "/new", "/language", "/backup", "/chips", "/settings/address", "/tv-settings",
        "/people", f"/people/{ids['person']}", "/seasons", f"/seasons/{ids['season']}",
        f"/t/{tid}", f"/t/{tid}/players", f"/t/{tid}/tables", f"/t/{tid}/structure",
        f"/t/{tid}/settings", f"/t/{tid}/results", f"/t/{tid}/sheet", f"/t/{tid}/phones",
        f"/t/{tid}/deal", f"/t/{tid}/log", f"/t/{ids['waiting']}",
        ids["winner"].removesuffix("/tv"), ids["winner"].removesuffix("/tv") + "/results",
        "/cash", "/cash/club", f"/cash/{sid}", f"/cash/{sid}/summary", f"/cash/{sid}/phones",
    ]
    printed = [f"/t/{tid}/print/cards", f"/t/{tid}/print/clock", f"/t/{tid}/print/moves",
               f"/t/{tid}/print/signs", f"/t/{tid}/results/print", f"/seasons/{ids['season']}/print"]
    tv = [f"/t/{tid}/tv?layout={layout}&theme={theme}"
          for layout in ("big", "standard", "info") for theme in ("dark", "light")]
    tv += [ids["break"], ids["winner"], f"/seasons/{ids['season']}/tv"]
    phone = [f"/t/{tid}", f"/t/{tid}/table/1", f"/t/{tid}/table/1/history", f"/t/{tid}/tv/phone",
             f"/cash/{sid}/table/1", f"/cash/{sid}/table/1/history"]
    return [
        Screen("/auth/login", LAPTOP, "nobody"),
        *(Screen(path, LAPTOP, "director") for path in laptop),
        *(Screen(path, LAPTOP, "director", ("light",)) for path in printed),
        *(Screen(path, TV, "nobody", ("dark",)) for path in tv),
        *(Screen(path, PHONE, "director") for path in phone),
        Screen(f"/p/{ids['token']}", PHONE, "nobody"),
        *(Screen(f"/t/{tid}{page}", PHONE, "floor") for page in ("", "/players", "/tables")),
        Screen(f"/t/{tid}/table/1", PHONE, "dealer"),
    ]


def links(live_server: LiveServer, browser: Any, tid: int) -> dict[str, str]:
    """The floor's and table 1's links, made on the phones page as a director would."""
    context = browser.new_context(viewport=LAPTOP)
    try:
        page = context.new_page()
        live_server.login(page)
        page.goto(f"{live_server.url}/t/{tid}/phones")
        page.click("text=Make the link")  # of every table
        page.wait_for_selector('.phone-link[data-table="1"] .phone-qr svg')
        page.click("text=Make the floor's link")
        page.wait_for_selector('.phone-link[data-kind="floor"] .phone-qr svg')
        found = {"dealer": page.get_attribute('.phone-link[data-table="1"] a', "href"),
                 "floor": page.get_attribute('.phone-link[data-kind="floor"] a', "href")}
        return {who: f"{live_server.url}/l#{href.rsplit('/l#', 1)[1]}" for who, href in found.items() if href}
    finally:
        context.close()


def scan(page: Any, axe: Axe) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it stands, every menu opened (what a tap shows)."""
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    return list(axe.run(page, options=OPTIONS).response["violations"])


def test_no_serious_or_critical_violation_on_any_page(
    live_server: LiveServer, browser: Any, artifacts_dir: Path
) -> None:
    ids = night(live_server)
    phone_links = links(live_server, browser, ids["tid"])
    axe = Axe()
    report: dict[str, Any] = {}
    blocking: list[str] = []
    contexts: dict[tuple[str, str, int], Any] = {}
    try:
        for screen in screens(ids):
            for scheme in screen.schemes:
                key = (screen.who, scheme, screen.size["width"])
                if key not in contexts:
                    context = browser.new_context(viewport=screen.size, color_scheme=scheme)
                    page = context.new_page()
                    if screen.who == "director":
                        live_server.login(page)
                    elif screen.who in phone_links:
                        page.goto(phone_links[screen.who])
                        page.wait_for_url(f"**/t/{ids['tid']}**")
                    contexts[key] = context
                page = contexts[key].pages[0]
                name = f"{screen.path} ({screen.who}, {scheme}, {screen.size['width']}x{screen.size['height']})"
                response = page.goto(live_server.url + screen.path)
                assert response is not None and response.ok, name  # the page itself, not an error's
                violations = scan(page, axe)
                report[name] = [
                    {"id": v["id"], "impact": v["impact"], "help": v["help"],
                     "nodes": [{"target": " ".join(n["target"]), "html": n["html"][:160],
                                "why": n.get("failureSummary", "")} for n in v["nodes"]]}
                    for v in violations
                ]
                blocking += [f"{name}: {v['id']} ({v['impact']}, {len(v['nodes'])}): {v['help']}: "
                             + "; ".join(" ".join(n["target"]) for n in v["nodes"][:5])
                             for v in violations if v["impact"] in BLOCKING]
    finally:
        for context in contexts.values():
            context.close()
    (artifacts_dir / "axe.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    impacts = Counter(v["impact"] for found in report.values() for v in found)
    rules = Counter(f"{v['id']} ({v['impact']})" for found in report.values() for v in found)
    print(f"axe-core over {len(report)} pages: {dict(impacts)}; by rule: {dict(rules)}")
    assert blocking == []
