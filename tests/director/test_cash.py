"""Cash-game nights in the app: the club, sessions, seats and buy-ins, the ledger, the table
page at fixed blinds, the summary and CSV, and the JSON twins."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine.phh import read_phh, replay_phh
from tests.director.conftest import Director, csrf_token, rendered, soup


def add_member(director: Director, name: str, grant: int = 20_000) -> int:
    response = director.api("POST", "/api/cash/club/member", {"name": name, "grant": grant})
    assert response.status_code == 201, response.get_json()
    return int(response.get_json()["members"][-1]["id"])


def new_session(director: Director, *tables: dict[str, Any], **extra: Any) -> int:
    body = {
        "name": "Friday cash",
        "tables": list(tables) or [{"seats": 9, "stake": "50/100"}],
        **extra,
    }
    response = director.api("POST", "/api/cash", body)
    assert response.status_code == 201, response.get_json()
    return int(response.get_json()["id"])


def sit(director: Director, sid: int, member: int, seat: int, amount: int, table: int = 1) -> Any:
    return director.api(
        "POST",
        f"/api/cash/{sid}/sit",
        {"member": member, "table": table, "seat": seat, "amount": amount},
    )


def balance(director: Director, member: int) -> int:
    members = director.api("GET", "/api/cash/club").get_json()["members"]
    return int(next(m["balance"] for m in members if m["id"] == member))


@pytest.fixture
def night(director: Director) -> tuple[Director, int, int, int]:
    """Ann and Bob seated at a 50/100 table, each with 20,000 play chips granted."""
    ann, bob = add_member(director, "Ann"), add_member(director, "Bob")
    sid = new_session(director)
    assert sit(director, sid, ann, 1, 10_000).status_code == 201
    assert sit(director, sid, bob, 4, 6_000).status_code == 201
    return director, sid, ann, bob


# --- pages ----------------------------------------------------------------------------------


def test_pages_render_full_and_as_partials(
    app: Flask, night: tuple[Director, int, int, int]
) -> None:
    director, sid, _, _ = night
    with rendered(app) as names:
        assert director.get("/cash").status_code == 200
        assert director.get("/cash/club").status_code == 200
        assert director.get(f"/cash/{sid}").status_code == 200
        assert director.get(f"/cash/{sid}/table/1").status_code == 200
        assert director.get(f"/cash/{sid}/summary").status_code == 200
        assert director.get(f"/cash/{sid}/table/1/history").status_code == 200
    assert names[:1] == ["cash.html"] and "cash_club.html" in names and "cash_session.html" in names
    assert names[3:] == ["cash_table.html", "cash_summary.html", "cash_history.html"]
    with rendered(app) as names:
        director.get(f"/cash/{sid}", headers={"HX-Request": "true"})
        director.get("/cash/club", headers={"HX-Request": "true"})
        director.get(f"/cash/{sid}/table/1", headers={"HX-Request": "true"})
        director.get(f"/cash/{sid}/table/1/panel")
    assert names == [
        "_cash_session.html",
        "_cash_club.html",
        "_dealer_table.html",
        "_dealer_table.html",
    ]
    seq = director.api("GET", f"/api/cash/{sid}").get_json()["seq"]
    poll = soup(director.get(f"/cash/{sid}/table/1")).select_one(".dl-poll")["hx-get"]
    held = director.get(poll)
    assert held.status_code == 204 and held.headers["X-Seq"] == str(seq)


def test_session_page_shows_seats_stacks_and_the_ledger(
    night: tuple[Director, int, int, int],
) -> None:
    director, sid, _, _ = night
    page = soup(director.get(f"/cash/{sid}"))
    seat1 = page.find(id="seat-1-1")
    assert "Ann" in seat1.get_text() and "10,000" in seat1.get_text()
    assert "free" in page.find(id="seat-1-2").get_text()
    ledger = page.find(id="ledger")
    assert [td.get_text() for td in ledger.find("tfoot").find_all("td")][:4] == [
        "Total",
        "16,000",
        "0",
        "16,000",
    ]
    assert "Balanced" in ledger.get_text() and "Play chips only" in ledger.get_text()


def test_cash_sessions_stay_off_the_tournament_lists(night: tuple[Director, int, int, int]) -> None:
    director, _sid, _, _ = night
    assert director.api("GET", "/api/tournaments").get_json()["tournaments"] == []
    home = soup(director.get("/"))
    assert "Friday cash" not in home.get_text()
    assert home.find("a", href="/cash") is not None


def test_unknown_session_is_404(director: Director) -> None:
    assert director.get("/cash/99").status_code == 404
    assert director.api("GET", "/api/cash/99").get_json() == {
        "error": "There is no cash session number 99."
    }


def test_writes_need_the_director(
    client: FlaskClient, night: tuple[Director, int, int, int]
) -> None:
    director, sid, ann, _ = night
    director.post("/auth/logout")
    token = csrf_token(client)
    response = client.post(
        f"/api/cash/{sid}/leave", json={"member": ann}, headers={"X-CSRFToken": token}
    )
    assert response.status_code == 401
    form = client.post(f"/cash/{sid}/leave", data={"member": ann, "csrf_token": token})
    assert form.status_code == 302 and "/auth/login" in form.headers["Location"]
    page = soup(client.get(f"/cash/{sid}"))
    assert page.find(id="sit-down") is None and "Ann" in page.get_text()


# --- the club ------------------------------------------------------------------------------


def test_club_members_grants_and_balances_through_the_page(director: Director) -> None:
    response = director.post(
        "/cash/club/member", {"name": "Cleo", "grant": "15,000", "expected_seq": ""}
    )
    assert response.status_code == 303
    response = director.post(
        "/cash/club/grant", {"member": "1", "amount": "5000", "reason": "Weekly top-up"}, htmx=True
    )
    assert response.status_code == 200
    page = soup(response)
    assert "5,000 play chips granted to Cleo" in page.get_text()
    assert "20,000" in page.find(id="member-1").get_text()
    again = director.post("/cash/club/member", {"name": "cleo", "grant": "0"}, htmx=True)
    assert again.status_code == 422 and "Cleo is already a member of the club" in again.get_data(
        as_text=True
    )
    undo = director.post("/cash/club/undo", {}, htmx=True)
    assert undo.status_code == 200 and balance(director, 1) == 15_000


def test_stake_access_and_balance_are_checked_before_a_seat(director: Director) -> None:
    """Seed 004: "each higher level opens once your Play Chips reach its smallest buy-in";
    a member who may not sit there is told why."""
    low = add_member(director, "Low", 50_000)
    rich = add_member(director, "Rich", 100_000)
    sid = new_session(director, {"seats": 6, "stake": "1000/2000"}, {"seats": 9, "stake": "10/20"})
    refused = sit(director, sid, low, 1, 80_000)
    assert refused.status_code == 422
    assert refused.get_json()["error"] == (
        "Low may not sit at 1,000/2,000 yet: that stake opens once a member's Play Chips reach 80,000, "
        "its smallest buy-in, and Low has 50,000."
    )
    assert (
        sit(director, sid, low, 1, 2_000, table=2).status_code == 201
    )  # 10/20 is open to everyone
    assert sit(director, sid, rich, 1, 80_000).status_code == 201
    assert balance(director, rich) == 20_000
    short = director.api("POST", f"/api/cash/{sid}/top_up", {"member": rich, "amount": 30_000})
    assert (
        short.status_code == 422
        and "Rich's balance is 20,000 play chips" in short.get_json()["error"]
    )
    waiting = director.api("POST", f"/api/cash/{sid}/wait", {"member": low, "stake": "1000/2000"})
    assert (
        waiting.status_code == 422
        and "may not sit at 1,000/2,000 yet" in waiting.get_json()["error"]
    )


# --- buy-ins, top-ups, cash-outs ------------------------------------------------------------


def test_buy_in_outside_the_range_is_refused_with_the_range(
    night: tuple[Director, int, int, int],
) -> None:
    director, sid, _, _ = night
    cleo = add_member(director, "Cleo")
    response = director.post(
        f"/cash/{sid}/sit", {"member": str(cleo), "place": "1:2", "amount": "3,999"}, htmx=True
    )
    assert response.status_code == 422
    assert (
        "Cleo cannot buy in for 3,999 at 50/100: the buy-in is 4,000 to 10,000 (40 to 100 big blinds)."
        in response.get_data(as_text=True)
    )
    assert soup(response).find(id="cash-session") is not None
    ok = director.post(
        f"/cash/{sid}/sit", {"member": str(cleo), "place": "1:2", "amount": "4000"}, htmx=True
    )
    assert ok.status_code == 200 and "Cleo sits at table 1, seat 2, with 4,000." in ok.get_data(
        as_text=True
    )
    assert balance(director, cleo) == 16_000


def test_top_up_above_the_maximum_is_refused(night: tuple[Director, int, int, int]) -> None:
    """Issue 8: "Top-ups between hands up to the maximum"."""
    director, sid, ann, bob = night
    refused = director.api("POST", f"/api/cash/{sid}/top_up", {"member": bob, "amount": 4_001})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == (
        "Bob cannot top up 4,001 at 50/100: 6,000 in front plus 4,001 is 10,001, more than the maximum "
        "of 10,000; Bob can add at most 4,000."
    )
    assert (
        director.api(
            "POST", f"/api/cash/{sid}/top_up", {"member": bob, "amount": 4_000}
        ).status_code
        == 201
    )
    assert balance(director, bob) == 10_000
    full = director.api("POST", f"/api/cash/{sid}/top_up", {"member": ann, "amount": 1})
    assert full.status_code == 422 and "Ann is already at the maximum" in full.get_json()["error"]


def test_cash_out_puts_the_stack_back_in_the_balance(night: tuple[Director, int, int, int]) -> None:
    director, sid, ann, _ = night
    response = director.post(f"/cash/{sid}/leave", {"member": str(ann)})
    assert response.status_code == 303
    assert balance(director, ann) == 20_000
    state = director.api("GET", f"/api/cash/{sid}").get_json()
    line = next(p for p in state["ledger"]["players"] if p["member"] == ann)
    assert (line["bought_in"], line["cashed_out"], line["on_table"], line["net"]) == (
        10_000,
        10_000,
        0,
        0,
    )


def test_stale_write_is_refused_with_409(night: tuple[Director, int, int, int]) -> None:
    director, sid, ann, _ = night
    seq = director.api("GET", f"/api/cash/{sid}").get_json()["seq"]
    response = director.post(
        f"/cash/{sid}/leave", {"member": str(ann), "expected_seq": str(seq - 1)}, htmx=True
    )
    assert response.status_code == 409
    assert "Someone else changed this cash game a moment ago" in response.get_data(as_text=True)
    assert director.api("GET", f"/api/cash/{sid}").get_json()["seq"] == seq


def test_waiting_list_offers_the_freed_seat(director: Director) -> None:
    """Issue 8: "a waiting list per stake; a freed seat is offered to the first in line"."""
    ids = [add_member(director, name) for name in ("A", "B", "C", "D", "E", "F", "Gus", "Hal")]
    sid = new_session(director, {"seats": 6, "stake": "10/20"})
    for seat, member in enumerate(ids[:6], start=1):
        assert sit(director, sid, member, seat, 2_000).status_code == 201
    for member in ids[6:]:
        assert (
            director.api(
                "POST", f"/api/cash/{sid}/wait", {"member": member, "stake": "10/20"}
            ).status_code
            == 201
        )
    director.api("POST", f"/api/cash/{sid}/leave", {"member": ids[2]})
    state = director.api("GET", f"/api/cash/{sid}").get_json()
    assert state["offers"] == [{"table": 1, "seat": 3, "member": ids[6], "name": "Gus"}]
    assert "offered to Gus" in soup(director.get(f"/cash/{sid}")).find(id="seat-1-3").get_text()
    jumped = sit(director, sid, ids[7], 3, 2_000)
    assert jumped.status_code == 422 and "offered first to Gus" in jumped.get_json()["error"]
    assert sit(director, sid, ids[6], 3, 2_000).status_code == 201
    assert director.api("GET", f"/api/cash/{sid}").get_json()["waiting"] == {
        "10/20": [{"member": ids[7], "name": "Hal"}]
    }


def test_new_session_form_and_its_checks(director: Director) -> None:
    form = {
        "name": "Saturday",
        "table1_seats": "6",
        "table1_stake": "250/500",
        "table2_seats": "9",
        "table2_stake": "custom",
        "table2_small_blind": "25",
        "table2_big_blind": "50",
        "newcomers": "post",
    }
    response = director.post("/cash", form)
    assert response.status_code == 303
    sid = int(response.headers["Location"].rsplit("/", 1)[1])
    state = director.api("GET", f"/api/cash/{sid}").get_json()
    assert [(t["seats"], t["stake"], t["min_buy_in"]) for t in state["tables"]] == [
        (6, "250/500", 20_000),
        (9, "25/50", 2_000),
    ]
    assert state["newcomers"] == "post"
    bad = director.post("/cash", {"name": "X", "table1_seats": "7", "table1_stake": "50/100"})
    assert bad.status_code == 422 and "Table 1 must have 6 or 9 seats, not 7." in bad.get_data(
        as_text=True
    )
    api = director.api(
        "POST",
        "/api/cash",
        {"name": "Y", "tables": [{"seats": 6, "small_blind": 100, "big_blind": 50}]},
    )
    assert (
        api.status_code == 422
        and "small blind must be at least 1 and at most the big blind" in api.get_json()["error"]
    )


# --- the table page --------------------------------------------------------------------------


def test_the_first_hand_names_no_button_before_the_draw(night: tuple[Director, int, int, int]) -> None:
    """Before a table's first hand the page names no button seat: the deal draws it by high
    card, and the deal's message says who won it (the page never contradicts the deal)."""
    director, sid, _ann, _bob = night
    base = f"/cash/{sid}/table/1"
    before = soup(director.get(base))
    assert before.select_one(".dl-positions").get_text(strip=True) == (
        "Next hand: the button is drawn by high card when you deal the first hand"
    )
    assert not before.select(".dl-badge--btn, .dl-badge--sb, .dl-badge--bb")
    dealt = director.post(f"{base}/deal", {}, htmx=True).get_data(as_text=True)
    assert "wins the button" in dealt


def test_play_a_hand_through_the_table_page(night: tuple[Director, int, int, int]) -> None:
    """The dealer's table page at fixed blinds: deal, the legal actions with their amounts,
    an illegal raise refused with the engine's sentence, the award, stacks updated."""
    director, sid, ann, bob = night
    base = f"/cash/{sid}/table/1"
    dealt = director.post(f"{base}/deal", {"button": "1"}, htmx=True)
    assert dealt.status_code == 200 and "Hand 1 dealt." in dealt.get_data(as_text=True)
    panel = soup(dealt)
    assert panel.find(id="dealer")["data-phase"] == "betting"
    assert "Cash 50/100" in panel.get_text()
    labels = [b.get_text(strip=True) for b in panel.select(".dl-pad button")]
    assert labels == ["Fold", "Call 50", "All-in 10,000"]
    wrong = director.post(f"{base}/act", {"kind": "raise", "amount": "150"}, htmx=True)
    assert wrong.status_code == 422
    assert "Seat 1 cannot raise to 150: the minimum raise is to 200." in wrong.get_data(
        as_text=True
    )
    assert (
        director.post(f"{base}/act", {"kind": "raise", "amount": "300"}, htmx=True).status_code
        == 200
    )
    assert director.post(f"{base}/act", {"kind": "call"}, htmx=True).status_code == 200
    flop = director.api("GET", f"/api/cash/{sid}/table/1").get_json()
    assert flop["street"] == "flop" and flop["pots"] == [
        {"name": "main pot", "amount": 600, "eligible": [1, 4]}
    ]
    director.post(
        f"{base}/act", {"kind": "bet", "amount": "600"}, htmx=True
    )  # seat 4 first after the flop
    undone = director.post(f"{base}/undo", {}, htmx=True)
    assert undone.status_code == 200
    assert director.post(f"{base}/act", {"kind": "allin"}, htmx=True).status_code == 200
    assert director.post(f"{base}/act", {"kind": "call"}, htmx=True).status_code == 200
    showdown = soup(director.get(base))
    assert showdown.find(id="dealer")["data-phase"] == "showdown"
    awarded = director.post(f"{base}/award", {"pot0": "4"}, htmx=True)
    assert awarded.status_code == 200 and "Seat 4 wins the main pot (12,000)" in awarded.get_data(
        as_text=True
    )
    state = director.api("GET", f"/api/cash/{sid}").get_json()
    stacks = {p["member"]: p["stack"] for p in state["tables"][0]["players"]}
    assert stacks == {ann: 4_000, bob: 12_000}
    assert state["ledger"]["balanced"] and state["ledger"]["on_tables"] == 16_000
    summary = director.api("GET", f"/api/cash/{sid}/summary").get_json()
    assert summary["hands_dealt"] == 1 and summary["biggest_pot"]["pot"] == 12_000
    assert summary["biggest_pot"]["winners"] == ["Bob"]


def test_award_from_the_cards_and_the_phh_export(night: tuple[Director, int, int, int]) -> None:
    director, sid, _, _ = night
    base = f"/api/cash/{sid}/table/1"
    director.api(
        "POST", f"{base}/deal", {"button": 4}
    )  # heads-up: seat 4 is button and small blind
    for body in (
        {"kind": "call"},
        {"kind": "check"},
        {"kind": "check"},
        {"kind": "check"},
        {"kind": "check"},
        {"kind": "check"},
        {"kind": "check"},
        {"kind": "check"},
    ):
        assert director.api("POST", f"{base}/act", body).status_code == 201, body
    done = director.api(
        "POST", f"{base}/cards", {"board": "AhKd7c2s9h", "cards": {"1": "AsAd", "4": "KcKs"}}
    )
    assert done.status_code == 201, done.get_json()
    assert done.get_json()["notice"].startswith(
        "Seat 1 wins the main pot (200) with three of a kind"
    )
    text = director.get(f"/cash/{sid}/table/1/hands.phhs").get_data(as_text=True)
    (phh,) = read_phh(text.split("\n", 1)[1])
    assert replay_phh(phh).is_complete
    assert "Seat 1 (Ann)" in director.get(f"/cash/{sid}/table/1/history").get_data(as_text=True)


def test_new_player_is_shown_waiting_for_the_big_blind(
    night: tuple[Director, int, int, int],
) -> None:
    director, sid, _, _ = night
    cleo, dan = add_member(director, "Cleo"), add_member(director, "Dan")
    sit(director, sid, cleo, 7, 5_000)
    base = f"/api/cash/{sid}/table/1"
    director.api("POST", f"{base}/deal", {"button": 1})  # button 1, small blind 4, big blind 7
    for _ in range(2):
        director.api("POST", f"{base}/act", {"kind": "fold"})
    sit(director, sid, dan, 2, 5_000)  # the big blind goes 7 -> 1 -> 2: Dan waits one hand
    table = director.api("GET", base).get_json()
    assert next(s for s in table["seats"] if s["seat"] == 2)["status"] == "waiting"
    page = director.get(f"/cash/{sid}/table/1").get_data(as_text=True)
    assert "waits for the big blind" in page


# --- summary and CSV --------------------------------------------------------------------------


def test_summary_and_csv_export(night: tuple[Director, int, int, int]) -> None:
    director, sid, ann, _bob = night
    director.api("POST", f"/api/cash/{sid}/table/1/deal", {"button": 1})
    director.api("POST", f"/api/cash/{sid}/table/1/act", {"kind": "fold"})  # heads-up, button folds
    director.api("POST", f"/api/cash/{sid}/leave", {"member": ann})
    response = director.get(f"/cash/{sid}/ledger.csv")
    assert response.mimetype == "text/csv"
    assert 'filename="friday-cash-ledger.csv"' in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == [
        "player",
        "hours_played",
        "hands_played",
        "bought_in",
        "cashed_out",
        "on_table",
        "net",
    ]
    by_name = {r[0]: r for r in rows[1:3]}
    assert by_name["Ann"][2:] == ["1", "10000", "9950", "0", "-50"]
    assert by_name["Bob"][2:] == ["1", "6000", "0", "6050", "50"]
    assert rows[3] == ["TOTAL", "", "1", "16000", "9950", "6050", "0"]
    assert "Play chips only" in rows[-1][0]
    page = soup(director.get(f"/cash/{sid}/summary"))
    assert (
        "Hands dealt" in page.get_text() and "won by Bob" in page.find(id="biggest-pot").get_text()
    )


def test_add_a_table_from_the_session_page(night: tuple[Director, int, int, int]) -> None:
    director, sid, _, _ = night
    response = director.post(
        f"/cash/{sid}/add_table", {"seats": "6", "stake": "250/500"}, htmx=True
    )
    assert response.status_code == 200 and "Table 2 added." in response.get_data(as_text=True)
    page = soup(response)
    assert "Table 2 · 250/500" in page.find(id="table-2").find("h2").get_text()
    bad = director.post(f"/cash/{sid}/add_table", {"seats": "8", "stake": "250/500"}, htmx=True)
    assert bad.status_code == 422 and "Table 3 must have 6 or 9 seats, not 8." in bad.get_data(
        as_text=True
    )


def test_club_undo_keeps_members_who_played(night: tuple[Director, int, int, int]) -> None:
    director, sid, _, _ = night
    cleo = add_member(director, "Cleo")
    assert (
        director.api(
            "POST", f"/api/cash/{sid}/wait", {"member": cleo, "stake": "50/100"}
        ).status_code
        == 201
    )
    refused = director.api("POST", "/api/cash/club/undo", {})
    assert refused.status_code == 422
    assert (
        refused.get_json()["error"]
        == "That cannot be undone: Cleo has been at the tables as a member."
    )
    grant = director.api("POST", "/api/cash/club/grant", {"member": cleo, "amount": 1_000})
    assert grant.status_code == 201 and balance(director, cleo) == 21_000
    assert director.api("POST", "/api/cash/club/undo", {}).status_code == 201
    assert balance(director, cleo) == 20_000


def test_chips_pushed_without_a_word_follow_the_house_rule(
    night: tuple[Director, int, int, int],
) -> None:
    """Seed 002 / TDA 4.5: a single oversized chip facing a bet, without a word, is a call."""
    director, sid, _, _ = night
    base = f"/api/cash/{sid}/table/1"
    director.api("POST", f"{base}/deal", {"button": 1})
    pushed = director.api("POST", f"{base}/push", {"chips": "500"})
    assert pushed.status_code == 201, pushed.get_json()
    assert "call" in pushed.get_json()["notice"].lower()
    seats = {s["seat"]: s for s in pushed.get_json()["seats"]}
    assert seats[1]["bet"] == 100 and seats[1]["stack"] == 9_900


def test_two_tables_never_make_each_other_stale(director: Director) -> None:
    """Two dealers enter hands at the same time: play at one table does not refuse the
    other's entries as stale, nor the director's seat changes; a seat change does make the
    tables' panels stale (409)."""
    ids = [add_member(director, name) for name in ("A", "B", "C", "D", "E")]
    sid = new_session(director, {"seats": 6, "stake": "50/100"}, {"seats": 6, "stake": "50/100"})
    for k, member in enumerate(ids[:4]):
        assert sit(director, sid, member, 1 + k % 2 * 3, 5_000, table=1 + k // 2).status_code == 201
    director.api("POST", f"/api/cash/{sid}/table/1/deal", {"button": 1})
    director.api("POST", f"/api/cash/{sid}/table/2/deal", {"button": 1})
    shown = director.api("GET", f"/api/cash/{sid}").get_json()["seq"]
    one = director.api(
        "POST", f"/api/cash/{sid}/table/1/act", {"kind": "call", "expected_seq": shown}
    )
    two = director.api(
        "POST", f"/api/cash/{sid}/table/2/act", {"kind": "call", "expected_seq": shown}
    )
    assert (one.status_code, two.status_code) == (201, 201)
    again = director.api(
        "POST", f"/api/cash/{sid}/table/1/act", {"kind": "check", "expected_seq": shown}
    )
    assert again.status_code == 409  # its own table moved on since
    seated = sit(director, sid, ids[4], 2, 5_000)
    assert seated.status_code == 201
    page_seq = seated.get_json()["seq"]
    director.api("POST", f"/api/cash/{sid}/table/2/act", {"kind": "check"})
    wait = director.api(
        "POST",
        f"/api/cash/{sid}/wait",
        {"member": ids[4], "stake": "10/20", "expected_seq": page_seq},
    )
    assert wait.status_code == 422  # checked against the current state, not refused as stale
    stale = director.api(
        "POST", f"/api/cash/{sid}/table/2/act", {"kind": "check", "expected_seq": page_seq - 1}
    )
    assert stale.status_code == 409
    assert "Someone else changed this cash game a moment ago" in stale.get_json()["error"]


def test_the_night_page_polls_for_changes(night: tuple[Director, int, int, int]) -> None:
    director, sid, _, _ = night
    seq = director.api("GET", f"/api/cash/{sid}").get_json()["seq"]
    poll = soup(director.get(f"/cash/{sid}")).find(attrs={"hx-trigger": True, "hx-get": True})
    assert poll["hx-get"] == f"/cash/{sid}?since={seq}"
    assert director.get(poll["hx-get"], headers={"HX-Request": "true"}).status_code == 204
    director.api("POST", f"/api/cash/{sid}/table/1/deal", {"button": 1})
    fresh = director.get(poll["hx-get"], headers={"HX-Request": "true"})
    assert fresh.status_code == 200 and "Hand 1 in play" in fresh.get_data(as_text=True)


def test_the_history_names_who_cashed_out(night: tuple[Director, int, int, int]) -> None:
    """The session's history says "Ann cashed out", not "? cashed out"."""
    director, sid, ann, _ = night
    director.post(f"/cash/{sid}/leave", {"member": str(ann)})
    history = soup(director.get(f"/cash/{sid}")).get_text(" ")
    assert "Ann cashed out" in history
    assert "? cashed out" not in history


def test_a_refused_buy_in_comes_back_as_typed(night: tuple[Director, int, int, int]) -> None:
    """After "cannot buy in for 3,000", the form still names the same member, seat and amount,
    so the next tap does not seat the first member on the list instead."""
    director, sid, _, _ = night
    add_member(director, "Cleo")
    dee = add_member(director, "Dee")
    response = director.post(f"/cash/{sid}/sit", {"member": str(dee), "place": "1:5", "amount": "3000"}, htmx=True)
    assert response.status_code == 422
    form = soup(response).find("form", action=f"/cash/{sid}/sit")
    assert form.find("select", attrs={"name": "member"}).find("option", selected=True)["value"] == str(dee)
    assert form.find("select", attrs={"name": "place"}).find("option", selected=True)["value"] == "1:5"
    assert form.find("input", attrs={"name": "amount"})["value"] == "3000"
    ok = director.post(f"/cash/{sid}/sit", {"member": str(dee), "place": "1:5", "amount": "4000"}, htmx=True)
    form = soup(ok).find("form", action=f"/cash/{sid}/sit")
    assert form.find("input", attrs={"name": "amount"})["value"] == ""  # a fresh form after a success


def test_a_refused_new_member_comes_back_as_typed(director: Director) -> None:
    add_member(director, "Ann")
    response = director.post("/cash/club/member", {"name": "ann", "grant": "5000"}, htmx=True)
    assert response.status_code == 422
    assert "Ann is already a member of the club." in response.get_data(as_text=True)
    page = soup(response)
    assert page.find("input", attrs={"name": "name"})["value"] == "ann"
    assert page.find("input", attrs={"name": "grant"})["value"] == "5000"


def test_a_cash_tables_undo_is_redone_and_a_new_entry_ends_the_redo(night: tuple[Director, int, int, int]) -> None:
    """The cash table's dealer has the tournament dealer's redo: an entry taken back by
    mistake is put back; after a new entry there is nothing to redo."""
    director, sid, _, _ = night
    assert director.api("POST", f"/api/cash/{sid}/table/1/deal", {"button": 1}).status_code == 201
    called = director.api("POST", f"/api/cash/{sid}/table/1/act", {"kind": "call"}).get_json()
    undone = director.api("POST", f"/api/cash/{sid}/table/1/undo", {}).get_json()
    assert undone["turn"] != called["turn"]  # the caller is to act again
    page = soup(director.get(f"/cash/{sid}/table/1/panel"))
    assert "↷ Redo" in page.get_text()
    redone = director.post(f"/cash/{sid}/table/1/redo", {}, htmx=True)
    assert redone.status_code == 200 and "Put back." in redone.get_data(as_text=True)
    table = director.api("GET", f"/api/cash/{sid}/table/1").get_json()
    assert (table["turn"], table["pots"], table["seats"]) == (called["turn"], called["pots"], called["seats"])
    assert director.api("POST", f"/api/cash/{sid}/table/1/act", {"kind": "check"}).status_code == 201
    refused = director.api("POST", f"/api/cash/{sid}/table/1/redo", {})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == ("There is nothing to redo at table 1: redo follows an undo, before the "
                                           "next entry.")
