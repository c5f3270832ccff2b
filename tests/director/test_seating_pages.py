"""The tables page and its actions (draw, locks, swaps, balancing, breaking, the final table),
their JSON twins, the print pages and the address that goes into the QR codes.

The engine decides (``engine.seating``); these tests check that the pages record its
decisions as events, show them as instructions, and that the decisions follow the rules.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.core.db import get_db
from director.core.store import load_state
from director.night import commands as night_commands
from director.setup.commands import create_tournament
from director.tables.views import player_tokens, seat_xy
from engine.tournament import Tournament
from tests.director.conftest import Director, rendered, soup

T0 = 1_800_000_000.0
NAMES = ["Ana", "Bea", "Cid", "Dana", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lea", "Max", "Nia", "Oto", "Pia", "Quin", "Rui", "Sam", "Tea", "Uli", "Vic", "Wes", "Xia", "Yan", "Zoe", "Abe", "Bo", "Cy", "Di"]


@pytest.fixture
def clock(app: Flask) -> list[float]:
    """The app's clock, which a test moves forward: ``clock[0] += 60``."""
    now = [T0]
    app.config["NOW"] = lambda: now[0]
    return now


def tournament(app: Flask, players: int, table_size: int = 9, name: str = "Friday Night") -> int:
    with app.app_context():
        db = get_db()
        tid = create_tournament(db, {"name": name, "table_size": table_size}, T0)
        for i in range(players):
            night_commands.register_player(db, tid, NAMES[i], None, T0 + i)
    return tid


def state_of(app: Flask, tid: int) -> Tournament:
    with app.app_context():
        return load_state(get_db(), tid)


def start_and_bust(app: Flask, tid: int, players: list[int], at: float) -> None:
    with app.app_context():
        db = get_db()
        if not load_state(db, tid).started:
            night_commands.clock_action(db, tid, "start", None, at)
        for pid in players:
            night_commands.bust(db, tid, [pid], None, at)


def counts(state: Tournament) -> dict[int, int]:
    return state.seating.counts()


def post(director: Director, tid: int, verb: str, **data: Any) -> Any:
    return director.post(f"/t/{tid}/tables/{verb}", data={k: str(v) for k, v in data.items()})


# --------------------------------------------------------------------------- the draw


def test_draw_seats_27_players_at_three_full_tables_with_a_button_each(app: Flask, director: Director) -> None:
    """The issue: 'one button seats every registered player at random over the fewest tables of
    the chosen size, evenly spread; the first button of each table drawn at random.'"""
    tid = tournament(app, 27)
    response = post(director, tid, "draw", table_size=9)
    assert response.status_code == 303
    state = state_of(app, tid)
    assert counts(state) == {1: 9, 2: 9, 3: 9}
    assert sorted(state.seating.players) == [p.id for p in state.players]
    draw = state.log[-1]
    assert draw.type == "seats_drawn"
    assert {int(t) for t in draw.payload["buttons"]} == {1, 2, 3}
    for table, seat in draw.payload["buttons"].items():
        assert state.seating.player_at(int(table), seat) is not None
    page = soup(director.get(f"/t/{tid}/tables"))
    plans = page.select("figure.plan")
    assert [p["data-table"] for p in plans] == ["1", "2", "3"]
    named = [s.select_one(".name").text for s in page.select(".oval .seat:not(.empty)")]
    assert sorted(named) == sorted(NAMES[:27])
    # Before the first hand the plan shows the button drawn and the first blinds.
    assert len(page.select(".oval .badge.button")) == 3
    assert len(page.select(".oval .badge.bb")) == 3


@pytest.mark.parametrize(
    ("players", "size", "expected"),
    [(20, 9, [7, 7, 6]), (20, 10, [10, 10]), (13, 6, [5, 4, 4]), (19, 9, [7, 6, 6]), (2, 6, [2])],
)
def test_tda_random_seating_uses_the_fewest_tables_evenly(
    app: Flask, director: Director, players: int, size: int, expected: list[int]
) -> None:
    """TDA 2.1 and the issue: seats at random over the fewest tables, tables differing by at most one."""
    tid = tournament(app, players, table_size=9)
    post(director, tid, "draw", table_size=size)
    state = state_of(app, tid)
    assert sorted(counts(state).values(), reverse=True) == expected
    assert state.seating.table_size == size
    assert all(1 <= seat <= size for _, seat, _ in state.seating)


def test_draw_refuses_a_table_size_that_is_not_6_9_or_10(app: Flask, director: Director) -> None:
    tid = tournament(app, 8)
    response = post(director, tid, "draw", table_size=7)
    assert response.status_code == 422
    assert "6, 9 or 10 seats" in soup(response).select_one(".flash-error").text
    assert not state_of(app, tid).seating.placements


def test_draw_needs_two_players(app: Flask, director: Director) -> None:
    tid = tournament(app, 1)
    response = post(director, tid, "draw", table_size=9)
    assert response.status_code == 422
    assert "at least 2 players" in response.get_data(as_text=True)


def test_the_tables_page_and_partial_render_their_templates(app: Flask, director: Director) -> None:
    tid = tournament(app, 12)
    post(director, tid, "draw", table_size=6)
    with rendered(app) as names:
        director.get(f"/t/{tid}/tables")
    assert names == ["tables.html"]
    with rendered(app) as names:
        director.get(f"/t/{tid}/tables", headers={"HX-Request": "true"})
    assert names == ["_tables.html"]
    with rendered(app) as names:
        response = director.post(f"/t/{tid}/tables/swap", data={"player_a": "1", "player_b": "2"}, htmx=True)
    assert response.status_code == 200 and names == ["_tables.html"]
    assert response.headers["HX-Trigger"] == "tournament-changed"


def test_seat_positions_go_clockwise_from_the_dealers_left() -> None:
    """Seat 1 is to the dealer's left (right on the plan, the dealer at the top), numbers run clockwise."""
    x1, y1 = seat_xy(1, 9)
    x9, y9 = seat_xy(9, 9)
    assert x1 > 50 > x9 and y1 == y9 < 50
    bottom = max(range(1, 10), key=lambda s: seat_xy(s, 9)[1])
    assert bottom == 5
    assert all(0 < c < 100 for s in range(1, 11) for c in seat_xy(s, 10))


# --------------------------------------------------------------------------- locks and swaps


def test_a_locked_seat_is_kept_by_the_draw(app: Flask, director: Director) -> None:
    """The issue: 'The director may lock a seat (the host's own, a player who needs the end seat)
    before the draw.'"""
    tid = tournament(app, 18)
    host = state_of(app, tid).player_named("Ana")
    assert host is not None
    assert post(director, tid, "lock", player=host.id, table=2, seat=5).status_code == 303
    page = soup(director.get(f"/t/{tid}/tables"))
    assert "Ana: table 2 seat 5" in page.select_one("ul.locks").text
    for _ in range(3):  # the draw is random: the lock holds every time
        post(director, tid, "draw", table_size=9)
        assert state_of(app, tid).seating.seat_of(host.id) == (2, 5)
    page = soup(director.get(f"/t/{tid}/tables"))
    locked = page.select_one('#table-2 .seat[data-seat="5"]')
    assert "locked" in locked["class"] and locked.select_one(".name").text == "Ana"


def test_two_players_cannot_be_locked_to_the_same_seat(app: Flask, director: Director) -> None:
    tid = tournament(app, 10)
    post(director, tid, "lock", player=1, table=1, seat=3)
    response = post(director, tid, "lock", player=2, table=1, seat=3)
    assert response.status_code == 422
    assert "Table 1 seat 3 is already locked for Ana." in response.get_data(as_text=True)


def test_a_lock_outside_the_tables_drawn_is_refused_with_a_reason(app: Flask, director: Director) -> None:
    tid = tournament(app, 10)
    post(director, tid, "lock", player=1, table=3, seat=1)
    response = post(director, tid, "draw", table_size=9)
    assert response.status_code == 422
    assert "Ana cannot be locked to table 3: 10 players need 2 tables of 9." in response.get_data(as_text=True)


def test_unlock_and_a_draw_that_ignores_a_lock_is_refused_by_the_fold(app: Flask, director: Director) -> None:
    tid = tournament(app, 4)
    post(director, tid, "lock", player=1, table=1, seat=6)
    with app.app_context(), pytest.raises(Exception, match="Ana is locked to table 1 seat 6"):
        night_commands.record(get_db(), tid, "seats_drawn", {"seats": {"1": [1, 1], "2": [1, 2], "3": [1, 3], "4": [1, 4]}}, None, T0)
    assert post(director, tid, "unlock", player=1).status_code == 303
    assert state_of(app, tid).locks == ()


def test_swap_two_players_by_hand_and_undo_it(app: Flask, director: Director) -> None:
    """The issue: 'may swap two players by hand afterwards; every change is an event and can be undone.'"""
    tid = tournament(app, 12)
    post(director, tid, "draw", table_size=6)
    before = state_of(app, tid)
    a, b = before.seating.at_table(1)[min(before.seating.at_table(1))], before.seating.at_table(2)[min(before.seating.at_table(2))]
    assert post(director, tid, "swap", player_a=a, player_b=b).status_code == 303
    after = state_of(app, tid)
    assert after.seating.seat_of(a) == before.seating.seat_of(b)
    assert after.seating.seat_of(b) == before.seating.seat_of(a)
    assert after.log[-1].type == "players_moved" and after.log[-1].payload["kind"] == "swap"
    slips = soup(director.get(f"/t/{tid}/print/moves"))
    assert [slip.select_one("td.player").text for slip in slips.select("table.slip")] == [
        state_of(app, tid).name_of(a), state_of(app, tid).name_of(b)
    ]
    assert post(director, tid, "undo").status_code == 303
    assert state_of(app, tid).seating == before.seating


def test_undo_here_only_undoes_a_seating_change(app: Flask, director: Director, clock: list[float]) -> None:
    tid = tournament(app, 6)
    post(director, tid, "draw", table_size=6)
    start_and_bust(app, tid, [], T0)
    response = post(director, tid, "undo")
    assert response.status_code == 422
    assert "was not a seating change" in response.get_data(as_text=True)


def test_a_stale_page_is_refused_and_nothing_is_written(app: Flask, director: Director) -> None:
    tid = tournament(app, 6)
    seq = state_of(app, tid).seq
    post(director, tid, "draw", table_size=6, expected_seq=seq)
    response = director.post(
        f"/t/{tid}/tables/swap", data={"player_a": "1", "player_b": "2", "expected_seq": str(seq)}, htmx=True
    )
    assert response.status_code == 409
    assert "Someone else changed this tournament" in response.get_data(as_text=True)
    assert state_of(app, tid).seq == seq + 1


def test_viewers_see_the_plan_but_cannot_change_it(app: Flask, client: FlaskClient, director: Director) -> None:
    tid = tournament(app, 9)
    post(director, tid, "draw", table_size=9)
    director.post("/auth/logout")
    page = soup(client.get(f"/t/{tid}/tables"))
    assert len(page.select("figure.plan")) == 1
    assert page.select("form") == []
    assert page.select_one("#tables")["hx-trigger"] == "every 1500ms"  # the director's page polls too
    response = client.post(f"/t/{tid}/tables/draw", data={"table_size": "9"})
    assert response.status_code in (302, 400)
    assert client.post(f"/api/t/{tid}/tables/draw", json={}).status_code in (400, 401)
    assert client.get(f"/t/{tid}/print/cards").status_code == 302


# --------------------------------------------------------------------------- balancing, breaking, final table


def test_tda_balancing_moves_players_to_the_short_table_until_within_one(
    app: Flask, director: Director, clock: list[float]
) -> None:
    """TDA 2.2 (T15): keep tables within one player; after three busts at table 1 of 9/9/9 the
    director is told who moves where, confirms, and the tables are 8/8/8."""
    tid = tournament(app, 27)
    post(director, tid, "draw", table_size=9)
    state = state_of(app, tid)
    busted = list(state.seating.at_table(1).values())[:3]
    start_and_bust(app, tid, busted, T0 + 60)
    page = soup(director.get(f"/t/{tid}/tables"))
    instruction = page.select_one('.instruction[data-action="balance"]')
    assert instruction is not None
    lines = [li.text for li in instruction.select("li")]
    assert len(lines) == 2
    assert all(re.fullmatch(r"Move \w+ from table [23] seat \d to table 1 seat \d\.", line) for line in lines), lines
    # Table 1 is three players short of the fullest table: TDA 11-D says it halts.
    assert "Table 1 is 3 or more players short" in page.select_one(".instructions").text
    api = director.get(f"/api/t/{tid}/tables").get_json()
    assert api["step"]["action"] == "balance" and [m["text"] for m in api["step"]["moves"]] == lines
    response = post(director, tid, "confirm", action="balance")
    assert response.status_code == 303
    state = state_of(app, tid)
    assert counts(state) == {1: 8, 2: 8, 3: 8}
    page = soup(director.get(f"/t/{tid}/tables"))
    assert page.select_one('.instruction[data-action="balance"]') is None
    assert "The tables are balanced." in page.select_one(".instructions").text
    # The moves are on the slips, and on the TV for a minute.
    slips = soup(director.get(f"/t/{tid}/print/moves"))
    assert [td.text for td in slips.select("table.slip td.player")] == [re.match(r"Move (\w+)", line)[1] for line in lines]  # type: ignore[index]
    link = soup(director.get(f"/t/{tid}/tables")).find("a", string="Print the slips of the last moves")
    assert link is not None
    latest = soup(director.get(link["href"]))
    assert len(latest.select("table.slip")) == 2
    assert [td.text for td in latest.select("table.slip td.to")] == [
        re.search(r"to (table \d seat \d)", line)[1].replace("table", "Table").replace(" seat", ", seat")  # type: ignore[index]
        for line in lines
    ]
    tv = soup(director.get(f"/t/{tid}/tables/tv-moves"))
    assert len(tv.select(".tv-move")) == 2
    clock[0] += 61
    tv = soup(director.get(f"/t/{tid}/tables/tv-moves"))
    assert tv.select(".tv-move") == []


def test_confirming_a_step_the_page_did_not_show_is_refused(app: Flask, director: Director, clock: list[float]) -> None:
    tid = tournament(app, 12)
    post(director, tid, "draw", table_size=6)
    response = post(director, tid, "confirm", action="balance")
    assert response.status_code == 422
    assert "The tables are balanced: nobody needs to move." in response.get_data(as_text=True)


def test_tda_break_the_next_table_in_order_when_players_fit_one_table_fewer(
    app: Flask, director: Director, clock: list[float]
) -> None:
    """TDA 2.5 (T19): 3 tables of 9 with 19 players do not break; at 18 the next table in the
    breaking order (the highest number first) breaks and its players go to random seats."""
    tid = tournament(app, 19)
    post(director, tid, "draw", table_size=9)
    state = state_of(app, tid)
    assert counts(state) == {1: 7, 2: 6, 3: 6}
    page = soup(director.get(f"/t/{tid}/tables"))
    assert page.select_one(".instruction[data-action]") is None
    start_and_bust(app, tid, [state.seating.at_table(1)[min(state.seating.at_table(1))]], T0 + 60)
    page = soup(director.get(f"/t/{tid}/tables"))
    instruction = page.select_one('.instruction[data-action="break"]')
    assert instruction is not None
    assert "table 3 breaks" in instruction.select_one(".say").text
    breaking = state_of(app, tid).seating.at_table(3)
    moves = instruction.select("li")
    assert sorted(int(li["data-player"]) for li in moves) == sorted(breaking.values())
    assert all(re.match(r"Move \w+ from table 3 seat \d to table [12] seat \d\.", li.text) for li in moves)
    assert "breaking" in page.select_one("#table-3")["class"]
    assert "Done: table 3 is broken" in instruction.select_one("button").text
    post(director, tid, "confirm", action="break")
    state = state_of(app, tid)
    assert counts(state) == {1: 9, 2: 9}
    assert state.seating.tables == (1, 2)


def test_tda_final_table_combines_and_redraws_every_seat(app: Flask, director: Director, clock: list[float]) -> None:
    """TDA 2.6 / RP-9 (T21): 10 left as 5+5 play on; at 9 left, combine at one table, redraw
    the seats and the button."""
    tid = tournament(app, 10)
    post(director, tid, "draw", table_size=9)
    assert counts(state_of(app, tid)) == {1: 5, 2: 5}
    assert soup(director.get(f"/t/{tid}/tables")).select_one(".instruction[data-action]") is None
    start_and_bust(app, tid, [1], T0 + 60)
    page = soup(director.get(f"/t/{tid}/tables"))
    instruction = page.select_one('.instruction[data-action="final_table"]')
    assert instruction is not None and "final table" in instruction.text
    # Issue 31: its button said "Redraw the final table" and recorded the seats listed; it says
    # what it does, and the seats recorded are the seats listed.
    assert instruction.select_one("button").text.strip() == "Done: players seated at the final table"
    listed = sorted(tuple(map(int, re.search(r"to table (\d+) seat (\d+)", li.text).groups()))  # type: ignore[union-attr]
                    for li in instruction.select("li[data-player]"))
    post(director, tid, "confirm", action="final_table")
    state = state_of(app, tid)
    moved = [int(li["data-player"]) for li in instruction.select("li[data-player]")]
    assert sorted((p.table, p.seat) for p in state.players if p.id in moved) == listed
    assert len(state.seating.tables) == 1 and len(state.seating) == 9
    event = state.log[-1]
    assert event.payload["kind"] == "final"
    (table,) = state.seating.tables
    assert state.seating.player_at(table, event.payload["buttons"][str(table)]) is not None
    page = soup(director.get(f"/t/{tid}/tables"))
    assert "final" in page.select_one("figure.plan")["class"]
    # At the final table the director may redraw again on request.
    assert post(director, tid, "redraw").status_code == 303
    assert state_of(app, tid).log[-1].payload["kind"] == "final"


def test_late_entry_gets_a_seat_at_a_shortest_table(app: Flask, director: Director) -> None:
    """The issue: 'Late entries and re-entries get a seat by the same rules' (TDA 8: a random
    seat at one of the shortest tables)."""
    tid = tournament(app, 17)
    post(director, tid, "draw", table_size=9)
    assert sorted(counts(state_of(app, tid)).values()) == [8, 9]
    short = min(counts(state_of(app, tid)).items(), key=lambda kv: kv[1])[0]
    with app.app_context():
        night_commands.register_player(get_db(), tid, "Late Larry", None, T0 + 100)
    state = state_of(app, tid)
    larry = state.player_named("Late Larry")
    assert larry is not None and larry.table == short
    assert larry.id in player_tokens(state)


# --------------------------------------------------------------------------- the JSON twins


def test_api_twins_draw_swap_and_read_the_tables(app: Flask, director: Director) -> None:
    tid = tournament(app, 12)
    response = director.api("POST", f"/api/t/{tid}/tables/draw", json={"table_size": 6})
    assert response.status_code == 201
    body = response.get_json()
    assert body["event"]["type"] == "seats_drawn"
    assert [len([s for s in t["seats"] if s["player"]]) for t in body["tables"]] == [6, 6]
    seq = body["seq"]
    response = director.api("POST", f"/api/t/{tid}/tables/swap", json={"player_a": 1, "player_b": 2, "expected_seq": seq - 1})
    assert response.status_code == 409
    response = director.api("POST", f"/api/t/{tid}/tables/swap", json={"player_a": 1, "player_b": 1, "expected_seq": seq})
    assert response.status_code == 422
    assert response.get_json()["error"] == "Choose two different players to swap."
    assert director.api("POST", f"/api/t/{tid}/tables/nonsense", json={}).status_code == 404
    public = director.client.get(f"/api/t/{tid}/tables").get_data(as_text=True)
    for token in player_tokens(state_of(app, tid)).values():
        assert token not in public


# --------------------------------------------------------------------------- print pages and the address


def test_seat_cards_one_per_player_with_a_qr_code_of_their_own_page(app: Flask, director: Director) -> None:
    tid = tournament(app, 11)
    post(director, tid, "draw", table_size=6)
    with app.app_context():
        get_db()["settings"].upsert({"key": "lan_address", "value": "192.168.1.20"}, pk="key")
    page = soup(director.get(f"/t/{tid}/print/cards?paper=letter", base_url="http://localhost:5000"))
    state = state_of(app, tid)
    tokens = player_tokens(state)
    cards = page.select("article.card")
    assert len(cards) == 11
    assert len(page.select("section.sheet")) == 2  # eight cards to a sheet
    assert "letter" in page.select_one("section.sheet")["class"]
    assert "size: letter" in page.select_one("style").text
    for card in cards:
        player = state.player(int(card["data-player"]))
        assert card["data-url"] == f"http://192.168.1.20:5000/p/{tokens[player.id]}"
        assert card.select_one(".name").text == player.name
        assert [n.text for n in card.select(".place .num")] == [str(player.table), str(player.seat)]
        svg = card.select_one("svg.qr")
        assert svg is not None and svg["viewbox"].startswith("0 0 ") and svg.get("width") is None
        assert "10,000" in card.select_one(".facts").text
    assert Counter(c["data-url"] for c in cards).most_common(1)[0][1] == 1


def test_table_signs_and_clock_sheet(app: Flask, director: Director) -> None:
    tid = tournament(app, 14)
    post(director, tid, "draw", table_size=6)
    signs = soup(director.get(f"/t/{tid}/print/signs"))
    assert [s.select_one(".table-name").text for s in signs.select(".sign")] == ["Table 1", "Table 2", "Table 3"]
    sheet = soup(director.get(f"/t/{tid}/print/clock", base_url="http://localhost:8000"))
    url = sheet.select_one(".clock-sheet .url").text
    assert url.endswith(f":8000/t/{tid}/tv/phone")
    assert sheet.select_one(".clock-sheet svg.qr") is not None


def test_the_director_chooses_the_address_phones_reach(app: Flask, director: Director) -> None:
    """The issue: 'the server's address on the home network (not localhost), chosen at start and
    shown on the dashboard, changeable by the director when the laptop has several networks.'"""
    page = soup(director.get("/settings/address"))
    choices = [i["value"] for i in page.select('input[name="address"]')]
    assert choices[-1] == "127.0.0.1" and choices
    response = director.post("/settings/address", data={"address": "10.0.0.7"}, htmx=True)
    assert response.status_code == 200
    assert soup(response).select_one("[data-base-url]").text == "http://10.0.0.7"
    response = director.post("/settings/address", data={"custom": "http://nope/"}, htmx=True)
    assert response.status_code == 422
    assert "is not an address" in response.get_data(as_text=True)
    response = director.post("/settings/address", data={"custom": "poker.lan"})
    assert response.status_code == 303
    with app.app_context():
        row = get_db().execute("SELECT value FROM settings WHERE key = 'lan_address'").fetchone()
    assert row[0] == "poker.lan"


def test_public_url_in_the_config_wins(app: Flask, director: Director) -> None:
    app.config["PUBLIC_URL"] = "http://poker.home:8080/"
    tid = tournament(app, 2)
    post(director, tid, "draw", table_size=6)
    card = soup(director.get(f"/t/{tid}/print/cards")).select_one("article.card")
    assert card["data-url"].startswith("http://poker.home:8080/p/")


def test_the_dashboard_shows_the_address_phones_reach_and_links_the_tables(app: Flask, director: Director) -> None:
    tid = tournament(app, 4)
    with app.app_context():
        get_db()["settings"].upsert({"key": "lan_address", "value": "192.168.1.20"}, pk="key")
    page = soup(director.get(f"/t/{tid}", base_url="http://localhost:8000"))
    assert page.select_one("[data-phone-url]").text == "http://192.168.1.20:8000"
    links = {a["href"] for a in page.select(".tables-dashboard a")}
    assert {f"/t/{tid}/tables", f"/t/{tid}/print/cards"} <= links
    change = next(a["href"] for a in page.select(".tables-dashboard a") if a.text == "change")
    form = soup(director.get(change))
    assert form.select_one('input[name="next"]')["value"] == f"/t/{tid}"
    response = director.post("/settings/address", data={"address": "127.0.0.1", "next": f"/t/{tid}"})
    assert response.status_code == 303 and response.headers["Location"] == f"/t/{tid}"
    response = director.post("/settings/address", data={"address": "127.0.0.1", "next": "//evil.example/"})
    assert response.headers["Location"] == "/settings/address"


def test_tda_the_player_due_for_the_big_blind_moves_when_the_dealer_tracks_the_table(
    app: Flask, director: Director, clock: list[float]
) -> None:
    """TDA 11-A (T15): 'In flop games, the player who will be big blind next moves.' Where the
    dealer's assistant dealt a hand, its positions pick the mover; elsewhere the engine's
    fallback (the highest seat) is used, and the instruction says so."""
    from engine.positions import next_seat_after

    tid = tournament(app, 27)
    post(director, tid, "draw", table_size=9)
    start_and_bust(app, tid, [], T0 + 10)
    assert director.post(f"/t/{tid}/table/2/deal", data={}).status_code in (200, 303)
    state = state_of(app, tid)
    last = state.dealing.current(2)
    assert last is not None
    start_and_bust(app, tid, list(state.seating.at_table(1).values())[:3], T0 + 60)
    api = director.get(f"/api/t/{tid}/tables").get_json()
    moves = {m["from"]["table"]: m for m in api["step"]["moves"]}
    assert set(moves) == {2, 3}
    due = next_seat_after(last.positions.big_blind, state.seating.at_table(2))
    assert moves[2]["from"]["seat"] == due
    assert moves[3]["from"]["seat"] == max(state.seating.at_table(3))
    assert all(m["to"]["table"] == 1 for m in moves.values())
    # WSOP 67 (T20): the hand at table 2 is in play, so its player moves after it.
    assert moves[2]["text"].endswith("After the hand in play.")
    assert not moves[3]["text"].endswith("After the hand in play.")


def test_the_plan_shows_the_next_hands_button_and_blinds_where_they_are_known(
    app: Flask, director: Director, clock: list[float]
) -> None:
    """The issue: 'the button, and the blinds for the next hand where the dealer's assistant
    tracks them'. Before the start every table shows its first hand; after it, only the
    tables whose hands are entered."""
    tid = tournament(app, 18)
    post(director, tid, "draw", table_size=9)
    state = state_of(app, tid)
    page = soup(director.get(f"/t/{tid}/tables"))
    for table in (1, 2):
        felt = page.select_one(f"#table-{table} .next-hand").text
        button = state.log[-1].payload["buttons"][str(table)]
        assert felt.startswith(f"First hand · D {button} · SB ")
        assert page.select_one(f'#table-{table} .seat[data-seat="{button}"] .badge.button') is not None
    start_and_bust(app, tid, [], T0 + 10)
    director.post(f"/t/{tid}/table/1/deal", data={})
    page = soup(director.get(f"/t/{tid}/tables"))
    assert page.select_one("#table-1 .next-hand").text.startswith("Next hand · D ")
    assert len(page.select("#table-1 .badge.bb")) == 1
    assert page.select_one("#table-2 .next-hand") is None
    assert page.select("#table-2 .badge") == []


def test_the_players_page_draw_keeps_the_locks_and_draws_the_buttons(app: Flask, director: Director) -> None:
    tid = tournament(app, 14)
    post(director, tid, "lock", player=2, table=2, seat=1)
    director.post(f"/t/{tid}/seats/draw", data={})
    state = state_of(app, tid)
    assert state.seating.seat_of(2) == (2, 1)
    buttons = state.log[-1].payload["buttons"]
    assert {int(t) for t in buttons} == set(state.seating.tables)
    assert all(state.seating.player_at(int(t), seat) is not None for t, seat in buttons.items())


def test_a_player_back_after_a_rebuy_whose_seat_was_taken_gets_a_new_seat(
    app: Flask, director: Director, clock: list[float]
) -> None:
    """TDA 8 / T60: a player coming back (re-entry, or a rebuy once the old seat is gone) gets
    a random seat at one of the shortest tables, by the same rule as a late entry; since the
    rebuy seats him in the same tap, nobody is left waiting for a seat."""
    with app.app_context():
        db = get_db()
        tid = create_tournament(db, {"name": "Rebuys", "table_size": 6, "rebuy_levels": 3}, T0)
        for i in range(11):
            night_commands.register_player(db, tid, NAMES[i], None, T0 + i)
    post(director, tid, "draw", table_size=6)
    state = state_of(app, tid)
    ana = state.player(1)
    assert ana.table is not None and ana.seat is not None
    start_and_bust(app, tid, [1], T0 + 60)
    # Someone at the other table is moved into Ana's empty seat.
    other = 2 if ana.table == 1 else 1
    mover_seat, mover = next(iter(state_of(app, tid).seating.at_table(other).items()))
    with app.app_context():
        move = {"player": mover, "from": [other, mover_seat], "to": [ana.table, ana.seat]}
        night_commands.record(get_db(), tid, "players_moved", {"moves": [move]}, None, T0 + 70)
    shortest = min(counts(state_of(app, tid)).values())
    with app.app_context():
        # One tap (the issue "The night changes as it runs", 8): the rebuy seats him at once.
        night_commands.rebuy(get_db(), tid, 1, None, T0 + 80)
    state = state_of(app, tid)
    back = state.player(1)
    assert (back.table, back.seat) != (ana.table, ana.seat)
    assert [e.type for e in state.log[-2:]] == ["rebuy", "player_seated"]
    page = soup(director.get(f"/t/{tid}/tables"))
    assert page.select_one('.instruction[data-action="seat"]') is None  # nobody waits for a seat
    assert back.table is not None and counts(state)[back.table] == shortest + 1
    assert soup(director.get(f"/t/{tid}/tables")).select_one('.instruction[data-action="seat"]') is None
    response = post(director, tid, "seat", player=1)
    assert response.status_code == 422 and "Ana already sits at table" in response.get_data(as_text=True)


def test_each_table_on_the_tables_page_links_to_its_dealer_page(app: Flask, director: Director) -> None:
    """Seen as a new user: the tables page had no link to each table's dealer page (the README
    says "Tables → Table N")."""
    tid = tournament(app, 12)
    post(director, tid, "draw", table_size=6)
    links = [a["href"] for a in soup(director.get(f"/t/{tid}/tables")).select("figure.plan a.dealer-link")]
    assert links == [f"/t/{tid}/table/1", f"/t/{tid}/table/2"]
