"""Templates read views: every page of a busy night is rendered and no value in any template's
context, walked through dataclasses, lists, tuples, dicts and sets, is one of the engine's
objects. A view function builds plain values from the state; no template reads the state."""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, template_rendered

from director.core.db import get_db
from director.core.store import load_state
from director.home.demo import fill_demo
from director.tables.views import player_tokens
from engine.structure import Break, Level, Structure, structure_to_dict
from tests.director.conftest import Director, new_tournament, seq

#: Flask's own context objects and the request's helpers: not the page's values.
FLASK_KEYS = frozenset({"request", "session", "g", "config", "url_for", "get_flashed_messages", "htmx"})

ANY_INDEX = re.compile(r"\[\d+\]")

Found = tuple[str, str, str, str]  # template, key, path, type


def engine_values(value: Any, path: str, seen: set[int]) -> Iterator[tuple[str, str]]:
    """The paths (and type names) of the engine's objects inside ``value``."""
    if value is None or (isinstance(value, (bool, int, float, str, bytes)) and type(value).__module__ == "builtins"):
        return
    if callable(value) and not dataclasses.is_dataclass(value):
        return
    kind = type(value)
    if kind.__module__.split(".")[0] == "engine":
        yield path, f"{kind.__module__}.{kind.__qualname__}"
        return
    if id(value) in seen:
        return
    seen.add(id(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from engine_values(getattr(value, field.name), f"{path}.{field.name}", seen)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from engine_values(key, f"{path}[{key!r}] (key)", seen)
            yield from engine_values(item, f"{path}[{key!r}]", seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for index, item in enumerate(value):
            yield from engine_values(item, f"{path}[{index}]", seen)
    elif kind.__module__.split(".")[0] == "director" and hasattr(value, "__dict__"):
        for name, item in vars(value).items():
            yield from engine_values(item, f"{path}.{name}", seen)


@dataclasses.dataclass
class Seen:
    """The templates rendered and every engine object found in their contexts."""

    names: list[str] = dataclasses.field(default_factory=list)
    hits: list[Found] = dataclasses.field(default_factory=list)


@pytest.fixture
def seen(app: Flask) -> Iterator[Seen]:
    seen = Seen()

    def check(sender: Flask, template: Any, context: dict[str, Any], **extra: Any) -> None:
        seen.names.append(str(template.name))
        for key, value in context.items():
            if key in FLASK_KEYS:
                continue
            for path, kind in engine_values(value, key, set()):
                seen.hits.append((str(template.name), key, path, kind))

    template_rendered.connect(check, app)
    try:
        yield seen
    finally:
        template_rendered.disconnect(check, app)


def report(hits: list[Found]) -> str:
    lines = sorted({f"{template}: key {key!r} at {ANY_INDEX.sub('[*]', path)} is {kind}"
                    for template, key, path, kind in hits})
    return "templates read the engine's state:\n" + "\n".join(lines)


#: A structure with a colour-up at its first break (the 25 chips go).
COLOUR_UP = Structure("colour", (Level(25, 50, minutes=10), Break(10, (25,)), Level(100, 200, minutes=10)), 10_000,
                      denominations=(25, 100, 500))


def tables_of(director: Director, tid: int) -> dict[int, list[int]]:
    """The players at each table, by seat."""
    tables = director.api("GET", f"/api/t/{tid}/tables").get_json()["tables"]
    return {t["number"]: [s["player"]["id"] for s in t["seats"] if s["player"]] for t in tables}


def busy_night(app: Flask, director: Director) -> dict[str, Any]:
    """Every kind of night the pages show, each page visited on the way: the demo night (tables
    drawn, the clock running, busts, a rebuy and an add-on) with a hand dealt at table 1 and a
    player on the action clock; tables to balance while a hand runs (the player moved waits for
    it), a seat locked for the draw; a mystery night with a split pot; a final table's deal; a
    colour-up break; a finished night in a season and a points night; a cash session with a
    hand at the showdown and a waiting list; the host's chips."""
    clock = {"t": time.time()}
    app.config["NOW"] = lambda: clock["t"]
    with app.app_context():
        tid = fill_demo(get_db(), clock["t"])
    assert director.api("POST", f"/api/t/{tid}/table/1/deal", {}).status_code == 201
    director.api("POST", f"/api/t/{tid}/table/1/act", {"kind": "call"})
    director.post(f"/t/{tid}/tv/action-clock", {"who": "Seat 4", "seconds": "60"}, htmx=True)

    moving = new_tournament(director, [f"P{n}" for n in range(1, 13)], name="Balance")
    assert director.api("POST", f"/api/t/{moving}/tables/draw", {"table_size": 6}).status_code == 201
    assert director.api("POST", f"/api/t/{moving}/clock/start", {}).status_code == 201
    assert director.api("POST", f"/api/t/{moving}/table/2/deal", {}).status_code == 201
    for player in tables_of(director, moving)[1][:2]:
        assert director.api("POST", f"/api/t/{moving}/bust", {"player": player}).status_code == 201
    for path in (f"/t/{moving}", f"/t/{moving}/tables"):
        assert director.get(path).status_code == 200
    assert director.api("POST", f"/api/t/{moving}/tables/confirm", {"action": "balance"}).status_code == 201

    locked = new_tournament(director, ["Ann", "Bob", "Cy"], name="Locked")
    assert director.api("POST", f"/api/t/{locked}/tables/lock", {"player": 1, "table": 1, "seat": 3}).status_code == 201

    mystery = new_tournament(director, ["Ann", "Bob", "Cy", "Dee", "Eve"], start=True, name="Mystery", buy_in=50,
                             bounty_kind="mystery", bounty=20, mystery_pool="100x1, 40x2")
    assert director.api("POST", f"/api/t/{mystery}/bust", {"player": 5, "by": [1, 2]}).status_code == 201

    final = new_tournament(director, ["Ann", "Bob", "Cy", "Dee"], start=True, name="Final", buy_in=10)
    assert director.api("POST", f"/api/t/{final}/bust", {"player": 4}).status_code == 201
    assert director.get(f"/t/{final}/deal").status_code == 200
    stacks = {"stack_1": "20000", "stack_2": "12000", "stack_3": "8000"}
    assert director.post(f"/t/{final}/deal", {"op": "figures", **stacks}, htmx=True).status_code == 200
    dealt = director.api("POST", f"/api/t/{final}/deal", {"method": "equal", "stacks": {"1": 20000, "2": 12000,
                                                                                        "3": 8000}})
    assert dealt.status_code == 201, dealt.get_json()

    colour = new_tournament(director, ["Ann", "Bob", "Cy"], name="Colour", structure=structure_to_dict(COLOUR_UP))
    assert director.api("POST", f"/api/t/{colour}/tables/draw", {"table_size": 6}).status_code == 201
    assert director.api("POST", f"/api/t/{colour}/clock/start", {}).status_code == 201
    clock["t"] += 11 * 60  # the break after level 1 (the other nights run on)
    assert director.get(f"/t/{colour}").status_code == 200
    counted = {"stack_1": "10025", "stack_2": "9950", "stack_3": "10025"}
    raced = director.post(f"/t/{colour}/colour-up", {"expected_seq": seq(director, colour), "table": "1", **counted},
                          htmx=True)
    assert raced.status_code == 200

    finished = new_tournament(director, ["Ann", "Bob", "Cy"], start=True, name="Done", buy_in=10)
    for player in (3, 2):
        assert director.api("POST", f"/api/t/{finished}/bust", {"player": player, "by": 1}).status_code == 201
    points = new_tournament(director, ["Ann", "Bob", "Cy"], start=True, name="League", payout_kind="points")
    for player in (3, 2):
        assert director.api("POST", f"/api/t/{points}/bust", {"player": player, "by": 1}).status_code == 201
    season = director.api("POST", "/api/seasons", {"name": "League"}).get_json()["id"]
    for night in (finished, points):
        assert director.api("POST", f"/api/seasons/{season}/nights", {"tournament": night}).status_code == 200

    members = []
    for name in ("Ann", "Bob", "Cy"):
        response = director.api("POST", "/api/cash/club/member", {"name": name, "grant": 20_000})
        members.append(int(response.get_json()["members"][-1]["id"]))
    session = director.api("POST", "/api/cash", {"name": "Cash", "tables": [{"seats": 9, "stake": "50/100"}]})
    sid = int(session.get_json()["id"])
    for seat, member in zip((1, 4), members, strict=False):
        body = {"member": member, "table": 1, "seat": seat, "amount": 5_000}
        assert director.api("POST", f"/api/cash/{sid}/sit", body).status_code == 201
    assert director.api("POST", f"/api/cash/{sid}/wait", {"member": members[2], "stake": "50/100"}).status_code == 201
    assert director.api("POST", f"/api/cash/{sid}/table/1/deal", {"button": 1}).status_code == 201
    for kind in ("call", *["check"] * 7):  # heads-up to the showdown
        assert director.api("POST", f"/api/cash/{sid}/table/1/act", {"kind": kind}).status_code == 201, kind

    chips = {"name": "The case", "denominations": [{"value": 25, "colour": "green", "count": 100},
                                                   {"value": 100, "colour": "black", "count": 100}]}
    set_id = director.api("POST", "/api/chip-sets", chips).get_json()["id"]
    people = director.api("GET", "/api/people").get_json()["people"]
    with app.app_context():
        tokens = [player_tokens(load_state(get_db(), night)) for night in (tid, moving, mystery, points)]
    moved = next(m for m in director.api("GET", f"/api/t/{moving}/tables").get_json()["moves"])
    more = [f"/p/{tokens[0][1]}", f"/p/{tokens[1][moved['player']]}", f"/p/{tokens[2][1]}",
            f"/p/{tokens[3][1]}"]
    more += [f"/t/{night}{page}" for night in (moving, locked, mystery, final, colour, finished, points)
             for page in ("", "/players", "/tables", "/results", "/deal", "/sheet", "/settings", "/structure")]
    more += [f"/t/{tid}/table/2", f"/t/{moving}/table/1", f"/t/{moving}/table/2", f"/t/{colour}/table/1"]
    return {"tournament_id": tid, "season_id": season, "session_id": sid, "table_no": 1, "table": 1, "number": 1,
            "person_id": people[0]["id"], "set_id": set_id, "token": tokens[0][1], "more": more}


def pages(app: Flask, ids: dict[str, Any]) -> list[str]:
    """Every GET route of the app that answers HTML, with the night's ids in it."""
    paths = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.endpoint == "static" or rule.rule.startswith(("/api/", "/tv-files")):
            continue
        if re.search(r"\.(csv|json|phh|phhs|svg|ico)$", rule.rule):  # files, not pages
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(ids.get(m.group(1), 1)), rule.rule)
        paths.append(path)
    return sorted(set(paths))


def test_no_template_reads_the_engines_state(app: Flask, director: Director, seen: Seen) -> None:
    ids = busy_night(app, director)
    answered = {}
    for headers in ({}, {"HX-Request": "true"}):
        for path in pages(app, ids) + ids["more"]:
            response = director.get(path, headers=headers)
            answered[path] = response.status_code
            response.close()
    assert [path for path, status in answered.items() if status >= 500] == []  # a route whose ids are not these: 4xx
    tid = ids["tournament_id"]
    director.post(f"/t/{tid}/tv/hand-for-hand", {"on": "true"}, htmx=True)
    director.post(f"/t/{tid}/bust", {"players": "999"}, htmx=True)  # refused: the page comes back with the message
    names = set(seen.names)
    for page in ("dashboard/_panel.html", "players/_panel.html", "_dealer_table.html", "_cash_session.html",
                 "_cash_club.html", "deal/_panel.html", "results/_sheet.html", "_tv_controls.html", "_player_live.html",
                 "_player_standings.html", "sheet/show.html", "structure/_panel.html", "settings/_form.html",
                 "_tables.html", "seasons/_standings.html", "seasons/tv.html", "chips/_form.html", "setup/_form.html",
                 "dashboard/log.html", "dealer_history.html", "cash_history.html", "cash_summary.html"):
        assert page in names, page
    if seen.hits:
        pytest.fail(report(seen.hits), pytrace=False)


def test_the_walk_finds_an_engine_object_wherever_it_hides() -> None:
    """The check itself: an engine object in a view's field, a tuple, a set, a dict's key or value;
    plain values and views of plain values pass."""
    from director.night.views import ColourView, PlayerView
    from engine.errors import Term
    from engine.state import Player

    hidden = {
        "colour": ColourView(steps=((25, 100),), tables=(), colours=((25, Term("green")),)),
        "rows": [(1, {"who": Player(1, "Ann", 1)})],
        "ids": {Term("out")},
        "by": {Term("ko"): 1},
        "plain": [PlayerView(1, "Ann", "in"), {"n": 1.5, "s": "green"}, None],
    }
    found = {path: kind for path, kind in engine_values(hidden, "ctx", set())}
    assert found == {
        "ctx['colour'].colours[0][1]": "engine.errors.Term",
        "ctx['rows'][0][1]['who']": "engine.state.Player",
        "ctx['ids'][0]": "engine.errors.Term",
        "ctx['by']['ko'] (key)": "engine.errors.Term",
    }
