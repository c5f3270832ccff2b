"""A table break, the final table and a balancing move made while hands are running, through
the tables page, the dealers' pages and their phones' links (TDA 2.5, 2.6, 20; WSOP 67)."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from director.core.db import get_db
from director.core.store import load_state
from engine.tournament import Tournament
from tests.director.conftest import csrf_token, soup
from tests.director.test_dealer import Dealer, make_tournament
from tests.director.test_roles import phone

#: Thirteen players over three tables of six: five at table 1, four at tables 2 and 3, as the
#: draw spreads them. One bust and the twelve left fit at two tables: table 3 breaks.
SEATS = {**{p: (1, p) for p in range(1, 6)}, **{p: (2, p - 5) for p in range(6, 10)},
         **{p: (3, p - 9) for p in range(10, 14)}}
BUTTONS = {1: 1, 2: 1, 3: 1}


def night(app: Flask, client: FlaskClient) -> Dealer:
    return make_tournament(app, client, [f"P{n}" for n in range(1, 14)], SEATS, BUTTONS)


def state_of(app: Flask, director: Dealer) -> Tournament:
    with app.test_request_context():
        return load_state(get_db(), director.tid)


def api(director: Dealer, path: str, body: dict[str, Any] | None = None, **headers: str) -> Any:
    return director.client.post(f"/api/t/{director.tid}/{path}", json=body or {},
                                headers={"X-CSRFToken": director.token, **headers})


def bust_at_table_one(director: Dealer) -> None:
    """P1 is out (table 1 is not playing a hand): the twelve left fit at two tables."""
    assert api(director, "bust", {"player": 1}).status_code == 201


def table_link(director: Dealer, app: Flask, table: int) -> Dealer:
    """The phone at ``table``, opened from its dealer's link."""
    made = api(director, "links", {"kind": "dealer", "table": table})
    assert made.status_code == 201, made.get_json()
    dealer = phone(app, made.get_json()["token"])
    dealer.tid = director.tid
    dealer.token = csrf_token(dealer.client, f"/t/{director.tid}/table/{table}")
    return dealer


def finish_hand(dealer: Dealer, table: int, director: Dealer | None = None) -> None:
    """Everyone folds to the big blind (entered by ``dealer``, read by the director)."""
    while (director or dealer).state(table)["phase"] == "betting":
        dealer.ok("act", {"kind": "fold"}, table=table)


def confirm(director: Dealer, action: str, command_id: str) -> Any:
    """The tables page's "Done" button, as the director's laptop (or the floor's phone) posts it."""
    seq = str(soup(director.client.get(f"/t/{director.tid}/tables")).select_one("#tables")["data-seq"])
    return director.client.post(f"/t/{director.tid}/tables/confirm", data={
        "csrf_token": director.token, "command_id": command_id, "expected_seq": seq, "action": action,
    }, headers={"HX-Request": "true"})


def moved(state: Tournament) -> int:
    return sum(1 for e in state.director_log if e.type == "players_moved")


def test_a_table_whose_break_is_announced_deals_no_new_hand(timed_app: Flask, client: FlaskClient) -> None:
    """TDA 2.5: once the players fit at one table fewer, the table next in breaking order
    breaks; from the bust that announces it until the director records the moves, that table
    deals no new hand (its phone said "this table breaks" and Deal still dealt). The engine
    refuses the deal with a sentence to read aloud, and the dealer's page shows it with Deal
    disabled; the other tables deal on."""
    director = night(timed_app, client)
    bust_at_table_one(director)
    said = "Table 3 breaks: its players are about to get new seats, so no new hand is dealt here."
    refused = director.api("deal", table=3)
    assert refused.status_code == 422 and refused.get_json()["error"] == said
    page = soup(director.page(3))
    assert page.select_one(".dl-deal button[type=submit]").has_attr("disabled")
    assert said in page.get_text(" ")
    assert director.state(3)["can_deal"] is False and director.state(3)["deal_problem"] == said
    director.ok("deal", table=2)  # a table that stays deals on
    assert not soup(director.page(1)).select_one(".dl-deal button[type=submit]").has_attr("disabled")


def test_done_during_the_breaking_tables_hand_keeps_it_in_play_until_the_award(
    timed_app: Flask, client: FlaskClient
) -> None:
    """TDA 20, WSOP 67: "Done" for a table that breaks while its hand runs records the break to
    happen when that hand is awarded. Its players finish the hand there, the table stays listed
    and its dealer's link keeps working (it locked its dealer out mid-hand); once the hand is
    awarded the table is broken, its players sit at their new seats with the stacks that hand
    left them, and its phone is told where each went."""
    director = night(timed_app, client)
    table_three = table_link(director, timed_app, 3)
    table_three.ok("deal", table=3)  # dealt before the bust that breaks the table
    bust_at_table_one(director)
    assert confirm(director, "break", "done-1").status_code == 200
    page = table_three.page(3)
    assert page.status_code == 200 and soup(page).select_one("#dealer")["data-phase"] == "betting"
    tables = soup(director.client.get(f"/t/{director.tid}/tables"))
    plan = tables.select_one("#table-3")
    assert plan is not None and "breaking" in plan["class"] and "Breaks after hand 1" in plan.get_text(" ")
    state = state_of(timed_app, director)
    assert 3 not in state.seating.tables and state.breaking_tables == (3,) and 3 in state.tables_in_play
    notes = [p.get_text(" ") for p in soup(page).select(".dl-msg--move")]
    assert notes[0] == "Table 3 breaks after this hand" and len(notes) == 5, notes
    arriving = {p.id: (p.table, p.seat) for p, old, _ in state.moves_waiting if old == 3}
    assert len(arriving) == 4
    finish_hand(table_three, 3, director)  # the link works to the end of the hand
    after = state_of(timed_app, director)
    assert 3 not in after.tables_in_play and after.moves_waiting == ()
    hand = after.dealing.current(3)
    assert hand is not None and hand.finished
    finishing = {pid: dict(hand.finishing_stacks)[seat] for seat, pid in hand.players}
    for pid, (table, seat) in arriving.items():
        assert after.seating.seat_of(pid) == (table, seat)
        row = director.state(table)["seats"]
        shown = next(s for s in row if s["seat"] == seat)
        assert shown["status"] != "arriving" and shown["stack"] == finishing[pid]
    assert soup(director.client.get(f"/t/{director.tid}/tables")).select_one("#table-3") is None
    gone = table_three.page(3)
    text = soup(gone).get_text(" ")
    assert gone.status_code == 410 and "Table 3 has broken" in text
    for pid, (table, seat) in arriving.items():
        assert f"P{pid} is at table {table} seat {seat}" in text


def test_done_tapped_twice_records_one_break(timed_app: Flask, client: FlaskClient) -> None:
    """Two taps on "Done" (or two devices at once) break the table once: a second tap with its
    own command id comes from a page drawn before the break and is refused as stale; the same
    tap sent again (its answer lost) is answered with the recorded answer, nothing run again."""
    director = night(timed_app, client)
    bust_at_table_one(director)
    tables = soup(director.client.get(f"/t/{director.tid}/tables"))
    seq = str(tables.select_one("#tables")["data-seq"])
    form = {"csrf_token": director.token, "expected_seq": seq, "action": "break"}
    path = f"/t/{director.tid}/tables/confirm"
    first = director.client.post(path, data={**form, "command_id": "tap-1"}, headers={"HX-Request": "true"})
    assert first.status_code == 200 and moved(state_of(timed_app, director)) == 1
    again = director.client.post(path, data={**form, "command_id": "tap-1"}, headers={"HX-Request": "true"})
    assert again.status_code == first.status_code and again.data == first.data
    other = director.client.post(path, data={**form, "command_id": "tap-2"}, headers={"HX-Request": "true"})
    assert other.status_code in (409, 422)
    # The JSON API without a seq: the step is no longer a break, so nothing is recorded.
    late = api(director, "tables/confirm", {"action": "break"}, **{"Idempotency-Key": "tap-3"})
    assert late.status_code == 422
    state = state_of(timed_app, director)
    assert moved(state) == 1 and 3 not in state.seating.tables


def test_a_hand_command_at_a_broken_table_says_where_its_players_went(timed_app: Flask, client: FlaskClient) -> None:
    """Once a table has broken, a deal or an action there is refused with the sentence that
    says where its players went (the director's laptop has no link to stop)."""
    director = night(timed_app, client)
    bust_at_table_one(director)
    assert confirm(director, "break", "done-1").status_code == 200
    state = state_of(timed_app, director)
    places = sorted((state.seating.seat_of(p), p) for p in range(10, 14))
    expected = "Table 3 has broken, so no hand is played here: " + ", ".join(
        f"P{p} is at table {t} seat {s}" for (t, s), p in places) + "."
    for action, body in (("deal", {}), ("act", {"kind": "fold"})):
        refused = director.api(action, body, table=3)
        assert refused.status_code == 422 and refused.get_json()["error"] == expected, refused.get_json()
    assert expected in soup(director.page(3)).get_text(" ")


def test_a_player_balanced_out_of_a_running_hand_moves_after_it(timed_app: Flask, client: FlaskClient) -> None:
    """TDA 2.2, WSOP 67: a player moved to balance the tables while his hand runs finishes it
    first. His table's dealer is told, with the seat; the table he goes to deals without him
    until then, and once the hand is over he sits there with his stack from it, its page
    refreshed by its poll."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 4), 5: (1, 5), 6: (1, 6), 7: (2, 1), 8: (2, 2), 9: (2, 3),
             10: (2, 4), 11: (2, 5)}
    director = make_tournament(timed_app, client, [f"P{n}" for n in range(1, 12)], seats, {1: 1, 2: 1})
    director.ok("deal", table=1)
    assert api(director, "bust", {"player": 7}).status_code == 201  # 6 and 4: one moves from table 1
    assert confirm(director, "balance", "done-1").status_code == 200
    state = state_of(timed_app, director)
    [(player, old, _)] = state.moves_waiting
    assert old == 1 and player.table == 2
    note = [p.get_text(" ") for p in soup(director.page(1)).select(".dl-msg--move")]
    assert note == [f"After this hand at table 1: {player.name} moves to table 2 seat {player.seat}"]
    receiving = director.page(2)
    poll = str(soup(receiving).select_one(".dl-poll")["hx-get"])
    shown = next(s for s in director.state(2)["seats"] if s["seat"] == player.seat)
    assert shown["status"] == "arriving"
    finish_hand(director, 1)
    hand = state_of(timed_app, director).dealing.current(1)
    assert hand is not None
    stack = dict(hand.finishing_stacks)[next(s for s, p in hand.players if p == player.id)]
    refreshed = director.client.get(poll, headers={"HX-Request": "true"})
    assert refreshed.status_code == 200
    row = soup(refreshed).select_one(f".dl-seat[data-seat='{player.seat}']")
    assert "dl-seat--arriving" not in row["class"] and row.select_one(".dl-seat-stack")["data-stack"] == str(stack)
    dealt = director.ok("deal", table=2)
    assert player.id in [s["player"] for s in director.state(2)["seats"]], dealt


def test_the_final_table_drawn_during_a_hand_keeps_that_table_in_play(timed_app: Flask, client: FlaskClient) -> None:
    """TDA 2.6: once everyone left fits at the final table, no table deals a new hand until its
    seats are drawn. Drawn while a hand runs at table 2, that table stays in play (its link
    works, the tables page lists it) to finish it; then its phone says where each player went,
    and the final table deals everyone."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 4), 5: (2, 1), 6: (2, 2), 7: (2, 3)}
    director = make_tournament(timed_app, client, [f"P{n}" for n in range(1, 8)], seats, {1: 1, 2: 1})
    table_two = table_link(director, timed_app, 2)
    table_two.ok("deal", table=2)
    assert api(director, "bust", {"player": 1}).status_code == 201  # six left: one final table
    said = "6 players fit at the final table: its seats are about to be drawn, so no new hand is dealt here."
    assert director.api("deal", table=1).get_json()["error"] == said
    assert confirm(director, "final_table", "done-1").status_code == 200
    state = state_of(timed_app, director)
    assert state.seating.tables == (1,) and state.breaking_tables == (2,)
    assert table_two.page(2).status_code == 200
    assert soup(director.client.get(f"/t/{director.tid}/tables")).select_one("#table-2") is not None
    finish_hand(table_two, 2, director)
    gone = table_two.page(2)
    assert gone.status_code == 410 and re.search(r"Table 2 has broken: P\d is at table 1 seat \d", soup(gone).get_text(" "))
    director.ok("deal", table=1)
    assert len(state_of(timed_app, director).dealing.running(1).players) == 6  # type: ignore[union-attr]
