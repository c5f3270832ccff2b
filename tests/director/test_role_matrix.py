"""Every mutating route with every role, through the pages and through the JSON API.

A night of two tables and a cash night of two tables; the phones of table 1's dealer, the
floor and cash table 1's dealer each opened their link (a session), and the same links'
tokens are given as bearer tokens; a stranger has no role. Every POST route of the app is
called by each of them, with table 1 and with table 2 where a route names a table, and:

* a refusal is 403 with a sentence that says which phone this is (or, for a stranger, the
  login: 401 in the JSON API, a redirect on a page) and records nothing;
* what a role may do is the same on a page and in the JSON API: a page's roles are its JSON
  twin's (the OpenAPI document's ``x-roles``), and a page with no twin is the director's;
* nothing a linked role sends is answered without a role check (``director.core.roles``) or
  outside the role's night and table; every event it writes names it as the author, and a
  dealer's events are its own table's hands.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.core import roles
from director.core.db import get_db
from tests.director.conftest import Director, csrf_token, soup
from tests.director.test_cash import add_member, new_session, sit
from tests.director.test_dealer import make_tournament
from tests.director.test_roles import links, scan

PUBLIC = {"auth.login", "first_start.page", "phones.take_link", "api.login", "api.setup_password"}
"""Routes anyone may post to (logging in, the first start, a scanned link)."""

SKIPPED = {"auth.logout", "api.logout"}
"""Logging out ends the phone's session (tested elsewhere); here it would end the test's."""

PAGE_TWINS = {
    "/t/<int:tournament_id>/players/<int:player_id>/reenter": "/api/t/{tournament_id}/players/{player_id}/reentry",
    "/t/<int:tournament_id>/players/<int:player_id>/seat": "/api/t/{tournament_id}/tables/seat",
    "/t/<int:tournament_id>/tv/action-clock": "/api/t/{tournament_id}/action-clock",
    "/t/<int:tournament_id>/tv/action-clock/stop": "/api/t/{tournament_id}/action-clock",
    "/t/<int:tournament_id>/tv/hand-for-hand": "/api/t/{tournament_id}/hand-for-hand",
}
"""Pages whose JSON twin is not their own path under ``/api``."""

FLOOR_MAY = {
    "players", "players/{player_id}/rebuy", "players/{player_id}/addon", "players/{player_id}/reentry",
    "players/{player_id}/remove", "bust", "seats/draw", "moves/apply", "action-clock", "hand-for-hand",
    *(f"clock/{a}" for a in ("start", "pause", "resume", "next_level", "previous_level", "add_time", "break_now",
                             "hand_played")),
    *(f"tables/{a}" for a in ("draw", "redraw", "confirm", "seat", "swap", "lock", "unlock", "undo")),
    *(f"table/{{table}}/{a}" for a in ("deal", "act", "award", "button", "cards", "clock", "correct", "misdeal",
                                       "oot", "push", "redo", "ruling", "time_up", "undo")),
}
"""The issue's floor: registration, busts, rebuys and add-ons, moves and table breaks, the
clock, rulings (and the tables' hands); not settings, money, deals, deletion, restore, the club."""

DEALER_MAY = {f"table/{{table}}/{a}" for a in ("deal", "act", "award", "button", "cards", "clock", "correct", "misdeal",
                                              "oot", "push", "redo", "ruling", "time_up", "undo")}
"""A table's dealer: that table's hands (a stack correction only where the director allows it:
the command refuses it otherwise, tested in test_roles)."""

CASH_DEALER_MAY = {f"table/{{table_no}}/{a}" for a in ("deal", "act", "award", "cards", "push", "redo", "undo")}


@dataclass
class Caller:
    name: str
    kind: str | None  # None: a stranger
    client: FlaskClient
    author: str | None = None
    csrf: str = ""
    bearer: str | None = None
    table: int | None = None
    stream: int | None = None
    seen: list[str] = field(default_factory=list)

    def post(self, url: str, api: bool) -> Any:
        headers: dict[str, str] = {"HX-Request": "true"} if not api else {}
        if self.bearer is not None:
            headers["Authorization"] = f"Bearer {self.bearer}"
            return self.client.post(url, json={}, headers=headers)
        if api:
            return self.client.post(url, json={}, headers={"X-CSRFToken": self.csrf})
        return self.client.post(url, data={"csrf_token": self.csrf}, headers=headers)


@dataclass
class Night:
    tid: int
    sid: int
    callers: list[Caller]
    document: dict[str, Any]


@pytest.fixture
def whole_night(timed_app: Flask, client: FlaskClient) -> Night:
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5), 5: (2, 1), 6: (2, 2), 7: (2, 3), 8: (2, 5)}
    night = make_tournament(timed_app, client, [f"P{n}" for n in range(1, 9)], seats, {1: 5, 2: 5})
    tokens = links(night)
    director = Director(client)
    sid = new_session(director, {"seats": 9, "stake": "50/100"}, {"seats": 9, "stake": "50/100"})
    for seat, name in enumerate(("Ann", "Bob", "Cy"), start=1):
        assert sit(director, sid, add_member(director, name), seat, 5_000).status_code == 201
    assert director.post(f"/cash/{sid}/phones", data={}).status_code in (200, 303)
    cash_url = soup(director.get(f"/cash/{sid}/phones")).select(".phone-link a")[0]["href"]
    cash_token = str(cash_url).rsplit("/l#", 1)[1]

    def phone(name: str, kind: str, token: str, author: str, stream: int, table: int | None) -> Caller:
        browser = timed_app.test_client()
        assert scan(browser, token).status_code == 303
        return Caller(name, kind, browser, author, csrf_token(browser, "/l"), None, table, stream)

    def script(name: str, kind: str, token: str, author: str, stream: int, table: int | None) -> Caller:
        return Caller(name, kind, timed_app.test_client(), author, "", token, table, stream)

    stranger = timed_app.test_client()
    callers = [
        Caller("a stranger", None, stranger, None, csrf_token(stranger, "/l")),
        Caller("a stranger's script", None, timed_app.test_client(), None, "", "not-a-token"),
        phone("table 1's phone", roles.DEALER, tokens[1], "dealer 1", night.tid, 1),
        script("table 1's token", roles.DEALER, tokens[1], "dealer 1/api", night.tid, 1),
        phone("cash table 1's phone", roles.CASH_DEALER, cash_token, "cash dealer 1", sid, 1),
        script("cash table 1's token", roles.CASH_DEALER, cash_token, "cash dealer 1/api", sid, 1),
        # The floor last: what it may do changes the night (a pause, a draw).
        phone("the floor's phone", roles.FLOOR, tokens["floor"], "floor", night.tid, None),
        script("the floor's token", roles.FLOOR, tokens["floor"], "floor/api", night.tid, None),
    ]
    document = client.get("/api/openapi.json").get_json()
    return Night(night.tid, sid, callers, document)


def _roles_of(document: dict[str, Any], path: str) -> tuple[str, ...] | None:
    operation = document["paths"].get(path, {}).get("post")
    return None if operation is None else tuple(operation.get("x-roles", ()))


def _api_path(rule: str) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule)


def _expected(document: dict[str, Any], rule: str) -> tuple[str, ...]:
    """The roles that may post to ``rule``: an API path's ``x-roles``; a page's twin's."""
    if rule.startswith("/api/"):
        return _roles_of(document, _api_path(rule)) or (roles.DIRECTOR,)
    twin = PAGE_TWINS.get(rule) or "/api" + _api_path(rule)
    return _roles_of(document, twin) or (roles.DIRECTOR,)


def _urls(rule: str, night: Night, actions: list[str]) -> list[tuple[str, str, dict[str, Any]]]:
    """(url, the rule with its action filled in, the ids) for every table and action the rule takes."""
    ids: dict[str, Any] = {"tournament_id": night.tid, "session_id": night.sid, "player_id": 1, "person_id": 1,
                           "season_id": 1, "set_id": 1, "number": 1, "name": "x", "token": "x"}
    tables = (1, 2) if ("<int:table>" in rule or "<int:table_no>" in rule) else (None,)
    out = []
    for table in tables:
        for action in (actions if "<action>" in rule else [None]):
            values = {**ids, "table": table, "table_no": table, "action": action}
            url = re.sub(r"<(?:\w+:)?(\w+)>", lambda m, values=values: str(values[m.group(1)]), rule)
            filled = rule.replace("<action>", action) if action is not None else rule
            out.append((url, filled, {k: v for k, v in values.items() if f"<int:{k}>" in rule or f"<{k}>" in rule}))
    return out


def _events_after(last: int) -> list[tuple[int, int, str, str, str | None]]:
    return get_db().execute("SELECT id, stream_id, type, payload, author FROM events WHERE id > ? ORDER BY id",
                            [last]).fetchall()


def _last_event() -> int:
    return int(get_db().execute("SELECT coalesce(max(id), 0) FROM events").fetchone()[0])


def test_every_mutating_route_with_every_role(timed_app: Flask, whole_night: Night,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    night = whole_night
    checked: list[tuple[str, str | None]] = []
    real_refusal = roles.refusal

    def recording(role: Any, name: str, summary: str, allowed: tuple[str, ...], ids: Any) -> str | None:
        said = real_refusal(role, name, summary, allowed, ids)
        checked.append((name, said))
        return said

    monkeypatch.setattr(roles, "refusal", recording)
    rules = sorted((r for r in timed_app.url_map.iter_rules() if "POST" in (r.methods or ())),
                   key=lambda r: r.rule)
    # Every action a page's ``<action>`` may name: the JSON API's last path segments.
    actions = sorted({path.rsplit("/", 1)[1] for path in night.document["paths"] if "{" not in path.rsplit("/", 1)[1]})
    problems: list[str] = []
    calls = 0
    for caller in night.callers:
        for rule in rules:
            if rule.endpoint in SKIPPED or rule.endpoint == "static":
                continue
            api = rule.rule.startswith("/api/")
            if caller.bearer is not None and not api:
                continue  # a token is for the JSON API
            for url, filled, ids in _urls(rule.rule, night, actions):
                with timed_app.test_request_context():
                    last = _last_event()
                checked.clear()
                answer = caller.post(url, api)
                calls += 1
                status = answer.status_code
                where = f"{caller.name} POST {url}: {status}"
                if status >= 500:
                    problems.append(f"{where} (a server error)")
                    continue
                if "<action>" in rule.rule and not checked and status in (404, 422):
                    # An action the route does not have: no command ran (a command checks the
                    # role before it reads its input), so there is nothing to refuse.
                    with timed_app.test_request_context():
                        assert not _events_after(last), where
                    continue
                with timed_app.test_request_context():
                    written = _events_after(last)
                expected = _expected(night.document, filled)
                if rule.endpoint in PUBLIC:
                    if written:
                        problems.append(f"{where} wrote {len(written)} events from a public route")
                    continue
                if caller.kind is None:
                    if status not in (302, 303, 401) or written:
                        problems.append(f"{where}: a stranger must be sent to log in, nothing recorded")
                    continue
                stream_key = "session_id" if caller.kind == roles.CASH_DEALER else "tournament_id"
                same_stream = ids.get(stream_key) == caller.stream
                own_table = caller.table is None or ids.get("table", ids.get("table_no")) in (None, caller.table)
                may = caller.kind in expected and same_stream and own_table
                if status == 403:
                    said = (answer.get_json() or {}).get("error", "") if api else soup(answer).get_text(" ")
                    if "This phone is" not in said and "This link" not in said:
                        problems.append(f"{where} refused without saying which phone this is: {said[:120]!r}")
                    if may:
                        problems.append(f"{where} refused, but {caller.kind} may ({', '.join(expected)})")
                    if written:
                        problems.append(f"{where} refused yet wrote {len(written)} events")
                    continue
                if not may:
                    problems.append(f"{where} answered for {caller.kind}, who may not (only {', '.join(expected)})")
                if not any(said is None for _, said in checked):
                    problems.append(f"{where} answered without a role check")
                author_expected = caller.author if caller.bearer is not None or not api else f"{caller.author}/api"
                for _, stream, kind, payload, author in written:
                    if author != author_expected:
                        problems.append(f"{where} wrote {kind} as {author!r}, not {author_expected!r}")
                    if stream != caller.stream:
                        problems.append(f"{where} wrote {kind} in stream {stream}, not its night's")
                    table = json.loads(payload).get("table")
                    if caller.kind in (roles.DEALER, roles.CASH_DEALER) and table != caller.table:
                        problems.append(f"{where} wrote {kind} for table {table}")
    assert not problems, "\n".join(problems)
    assert calls > 1_000


def test_the_roles_are_the_issues(whole_night: Night) -> None:
    """Who may post what, read from the OpenAPI document: the floor's list, a table's dealer's
    and a cash table's dealer's, exactly; the director may post everything that needs a login."""
    document = whole_night.document
    for path, item in document["paths"].items():
        operation = item.get("post")
        if operation is None or "x-roles" not in operation:
            continue
        allowed = set(operation["x-roles"])
        tail = path.split("/api/t/{tournament_id}/", 1)[-1] if path.startswith("/api/t/") else None
        cash_tail = path.split("/api/cash/{session_id}/", 1)[-1] if path.startswith("/api/cash/{") else None
        assert roles.DIRECTOR in allowed, path
        assert (roles.FLOOR in allowed) == (tail in FLOOR_MAY), path
        assert (roles.DEALER in allowed) == (tail in DEALER_MAY), path
        assert (roles.CASH_DEALER in allowed) == (cash_tail in CASH_DEALER_MAY), path


def test_a_dealers_phone_reaches_no_directors_page(timed_app: Flask, whole_night: Night) -> None:
    """Every page (GET) a dealer's phone asks for: its own table's pages, or what a stranger
    may read too (the players' pages, the TV); every other is 403 with a sentence."""
    night = whole_night
    dealer = next(c for c in night.callers if c.name == "table 1's phone")
    stranger = timed_app.test_client()
    own = f"/t/{night.tid}/table/1"  # its own table's pages: the panel, the history, the hands' files
    opened: list[str] = []
    for rule in timed_app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.rule.startswith(("/static", "/api/")) or "<action>" in rule.rule:
            continue
        for url, _, _ in _urls(rule.rule, night, []):
            answer = dealer.client.get(url)
            if answer.status_code == 200 and url != own and not url.startswith(own + "/"):
                if stranger.get(url).status_code != 200:
                    opened.append(url)
            elif answer.status_code == 403:
                assert "This phone is table 1's dealer" in soup(answer).get_text(" "), url
    assert not opened, f"a dealer's phone read the director's pages: {opened}"
