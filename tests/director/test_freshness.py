"""One rule of freshness (``director.core.freshness``), checked where it cannot be fooled: whole
nights driven through the commands while pages of every kind stay open, and after every
command each open page's poll, answered as the page itself asks, is compared with a fresh
render of the same page. A poll answered "not changed" must hold exactly what a fresh render
shows (but for the forms' CSRF tokens, the seq they name and the poll's own version); a poll
answered with a new part must be that fresh render."""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from bs4 import BeautifulSoup
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import Client

from director.core.polls import PollCache
from tests.director.test_player_page import clock as clock  # the fixture
from tests.director.test_player_page import dealt_night
from tests.director.test_seating_pages import state_of

HTMX = {"HX-Request": "true"}
_VOLATILE = [
    (re.compile(r'(name="csrf_token"[^>]*value=")[^"]*'), r"\1"),
    (re.compile(r'(name="csrf-token"[^>]*content=")[^"]*'), r"\1"),
    (re.compile(r'(name="expected_seq"[^>]*value=")\d+'), r"\1"),
    (re.compile(r'(data-seq=")\d+'), r"\1"),
    (re.compile(r"([?&](?:amp;)?(?:v|since)=)[0-9a-f]*"), r"\1"),
    (re.compile(r'(name="command_id"[^>]*value=")[^"]*'), r"\1"),
]


def steady(html: str) -> str:
    """``html`` without what differs between two renders of the same page: the forms' CSRF
    tokens and command ids, the seq the forms name, the poll's version."""
    for pattern, keep in _VOLATILE:
        html = pattern.sub(keep, html)
    return html


@dataclass
class OpenPage:
    """A page that stays open: the part it holds and the poll it sends."""

    kind: str
    fresh_path: str
    """The part drawn afresh (no version held)."""
    held: str = ""
    poll: str = ""
    polls: int = 0
    unchanged: int = field(default=0)

    def open(self, client: FlaskClient) -> None:
        self.take(client.get(self.fresh_path, headers=HTMX).get_data(as_text=True))

    def take(self, body: str) -> None:
        self.held = body
        poller = BeautifulSoup(body, "html.parser").select_one("[hx-trigger*='every']")
        assert poller is not None and poller.get("hx-get"), (self.kind, body[:300])
        self.poll = str(poller["hx-get"])

    def check(self, client: FlaskClient, step: Any) -> None:
        answer = client.get(self.poll, headers=HTMX)
        fresh = client.get(self.fresh_path, headers=HTMX).get_data(as_text=True)
        self.polls += 1
        if answer.status_code == 204:
            self.unchanged += 1
            assert steady(self.held) == steady(fresh), (self.kind, step, "a 204 over a page that changed")
            return
        assert answer.status_code == 200, (self.kind, step, answer.status_code)
        body = answer.get_data(as_text=True)
        assert steady(body) == steady(fresh), (self.kind, step)
        self.take(body)


def _cache(app: Flask) -> PollCache:
    middleware = app.wsgi_app
    assert isinstance(middleware, PollCache)
    return middleware


def _finish_hand(dealer: Any, table: int, rng: random.Random) -> None:
    view = dealer.state(table)
    dealer.ok("award", {"winners": [[p["eligible"][0]] for p in view["pots"]]}, table=table)


@pytest.mark.parametrize("preset", ["sng-1000", "home-short"], ids=["levels counted in hands", "timed levels"])
def test_every_open_page_follows_a_night_of_hands_breaks_and_hand_for_hand(
        app: Flask, client: FlaskClient, clock: list[float], preset: str) -> None:
    """Three tables played an entry at a time down to a few players: balancing, a table
    broken, hand for hand at the bubble with busts at two tables in the same round, the
    director's undo and the tables' own. After every command, every open page (each table's
    dealer's panel, the tables page, each player's phone and the TV's clock) is what a fresh
    render of it shows."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]
    seats = {p: ((p - 1) // 4 + 1, (p - 1) % 4 + 1) for p in range(1, len(names) + 1)}
    dealer, tokens = dealt_night(app, names, seats, {1: 1, 2: 2, 3: 3}, preset)
    tid, phone, headers = dealer.tid, dealer.client, {"X-CSRFToken": dealer.token}
    pages = [OpenPage(f"dealer {n}", f"/t/{tid}/table/{n}/panel") for n in (1, 2, 3)]
    pages.append(OpenPage("tables", f"/t/{tid}/tables"))
    for page in pages:
        page.open(phone)
    # The pages the polls' cache answers without the app: compared with the app behind it.
    cached = [f"/p/{token}/live" for token in tokens.values()] + [f"/t/{tid}/tv/clock"]
    behind = Client(_cache(app).app)
    rng = random.Random(42)
    entries = tries = 0
    undo_next = False
    saved = b""
    kinds: set[str] = set()

    def command(path: str, body: dict[str, Any] | None = None) -> bool:
        return phone.post(path, json=body or {}, headers=headers).status_code == 201

    while entries < 260 and tries < 2000:
        tries += 1
        state = state_of(app, tid)
        if state.finished or state.players_left <= 2:
            break
        tables = sorted(state.tables_in_play)  # a breaking table plays its last hand too
        table = rng.choice(tables)
        view = dealer.state(table)
        roll = rng.random()
        paid = sum(1 for prize in state.prizes if prize)
        if undo_next:  # the director takes back what he just entered, hands played since or not
            undo_next = False
            done, kind = command(f"/api/t/{tid}/undo"), "the director's undo"
        elif paid and state.players_left == paid + 1 and not state.hand_for_hand and len(tables) > 1:
            done, kind = command(f"/api/t/{tid}/hand-for-hand", {"on": True}), "hand for hand"
        elif roll < 0.05:
            done, kind = command(f"/api/t/{tid}/table/{table}/undo"), "a table's undo"
        elif roll < 0.07:
            done, kind = command(f"/api/t/{tid}/undo"), "the director's undo"
        elif view["phase"] == "before" and not view["can_deal"]:
            done, kind = command(f"/api/t/{tid}/tables/confirm"), "moves confirmed"
            undo_next = done and rng.random() < 0.3
            if not done and state.hand_for_hand:
                done, kind = command(f"/api/t/{tid}/hand-for-hand", {"next": True}), "next hand-for-hand hand"
        elif view["phase"] == "before":
            done, kind = dealer.api("deal", table=table).status_code == 201, "deal"
        elif view["phase"] == "showdown" or not view["actions"]:
            done, kind = True, "award"
            _finish_hand(dealer, table, rng)
        else:
            actions = [a["kind"] for a in view["actions"] if a["kind"] in ("fold", "check", "call", "allin")]
            weights = {"fold": 3, "check": 4, "call": 4, "allin": 1}
            act = rng.choices(actions, [weights[a] for a in actions])[0]
            done, kind = True, act
            dealer.ok("act", {"kind": act}, table=table)
        if not done:
            continue
        entries += 1
        kinds.add(kind)
        clock[0] += 7
        for page in pages:
            page.check(phone, (entries, kind))
        for path in cached:
            assert client.get(path).get_data() == behind.get(path).get_data(), (entries, kind, path)
        if entries == 60:
            saved = phone.get("/backup/download").get_data()  # for the restore below
    played = state_of(app, tid)
    assert entries >= 120, (entries, tries)
    assert {"deal", "moves confirmed", "the director's undo", "a table's undo"} <= kinds, kinds
    assert len(played.seating.tables) < 3, "a table was broken"
    assert played.players_left < len(names) - 4

    def check_all(step: str) -> None:
        for page in pages:
            page.check(phone, step)
        for path in cached:
            assert client.get(path).get_data() == behind.get(path).get_data(), (step, path)

    # The night's end: a deal at the final table, the director's undo of it, then a restore of
    # the night as it was at its 60th command.
    if played.players_left >= 2 and not played.finished:
        dealt = phone.post(f"/api/t/{tid}/deal", json={"method": "equal"}, headers=headers)
        assert dealt.status_code == 201, dealt.get_json()
        assert state_of(app, tid).finished
        check_all("a deal")
        assert command(f"/api/t/{tid}/undo")
        check_all("the deal undone")
    restored = phone.post("/backup/restore", data={"csrf_token": dealer.token, "confirm": "on",
                                                   "backup": (io.BytesIO(saved), "backup.db")},
                          content_type="multipart/form-data")
    assert restored.status_code == 303
    phone.get(restored.headers["Location"])  # as the browser does: the page that says it was restored
    assert state_of(app, tid).seq < played.seq
    check_all("a restore")
    # Most polls are answered "not changed": the versions are steady where nothing changed.
    assert sum(p.unchanged for p in pages) > sum(p.polls for p in pages) // 4


def test_every_open_page_follows_a_cash_night(director: Any) -> None:
    """A cash night at two tables, an entry at a time, with the tables' undo and a newcomer
    seated midway: after every command, each table's panel and the night's page are what a
    fresh render of them shows."""
    from tests.director.test_cash import add_member, new_session, sit

    members = [add_member(director, name) for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")]
    sid = new_session(director, {"seats": 6, "stake": "50/100"}, {"seats": 6, "stake": "50/100"})
    for k, member in enumerate(members[:6]):
        assert sit(director, sid, member, 1 + k // 2, 5_000, table=1 + k % 2).status_code == 201
    client = director.client
    pages = [OpenPage(f"cash table {n}", f"/cash/{sid}/table/{n}/panel") for n in (1, 2)]
    pages.append(OpenPage("cash night", f"/cash/{sid}"))
    for page in pages:
        page.open(client)
    rng = random.Random(7)
    entries = tries = 0
    while entries < 100 and tries < 600:
        tries += 1
        table = rng.choice([1, 2])
        view = director.api("GET", f"/api/cash/{sid}/table/{table}").get_json()
        base = f"/api/cash/{sid}/table/{table}"
        if entries == 50:
            answer = sit(director, sid, members[6], 5, 5_000, table=1)
        elif rng.random() < 0.06:
            answer = director.api("POST", f"{base}/undo", {})
        elif view["phase"] == "before":
            answer = director.api("POST", f"{base}/deal", {})
        elif view["phase"] == "showdown" or not view["actions"]:
            answer = director.api("POST", f"{base}/award", {"winners": [[p["eligible"][0]] for p in view["pots"]]})
        else:
            kinds = [a["kind"] for a in view["actions"] if a["kind"] in ("fold", "check", "call", "allin")]
            answer = director.api("POST", f"{base}/act", {"kind": rng.choice(kinds)})
        if answer.status_code != 201:
            continue
        entries += 1
        for page in pages:
            page.check(client, entries)
    assert entries == 100
    assert sum(p.unchanged for p in pages[:2]) > 10  # one table's play leaves the other's panel as it was
