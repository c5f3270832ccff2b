"""Re-entry (TDA 6.5, issue "The night changes as it runs" part 4), a rebuy back in one tap
(part 8), and late registration shown on the dashboard and the TV."""

from __future__ import annotations

from flask import Flask

from tests.director.conftest import Director, new_tournament, seq, soup

T0 = 1_000_000.0


def state(director: Director, tid: int) -> dict:  # type: ignore[type-arg]
    return director.api("GET", f"/api/t/{tid}").get_json()


def player(director: Director, tid: int, pid: int) -> dict:  # type: ignore[type-arg]
    return next(p for p in state(director, tid)["players"] if p["id"] == pid)


def drawn_night(director: Director, app: Flask, **settings: object) -> int:
    app.config["NOW"] = lambda: T0
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee"], preset="home-short", **settings)
    assert director.api("POST", f"/api/t/{tid}/tables/draw", {"table_size": 6}).status_code == 201
    assert director.api("POST", f"/api/t/{tid}/clock/start", {}).status_code == 201
    return tid


def test_a_reentry_is_a_new_entry_with_a_new_seat_and_counts_in_the_places(director: Director, app: Flask):
    """"the player gets a new entry and a new seat by the late-entry draw, places and payouts
    count every entry, results show re-entries"."""
    tid = drawn_night(director, app, reentry_levels=4, max_reentries=1)
    assert director.api("POST", f"/api/t/{tid}/bust", {"player": 1, "by": 2}).status_code == 201
    before = state(director, tid)
    assert before["entries"] == 4 and before["prize_pool"] == 80
    page = soup(director.get(f"/t/{tid}"))
    assert page.find("button", string="Re-enter") is not None
    response = director.api("POST", f"/api/t/{tid}/players/1/reentry", {})
    assert response.status_code == 201, response.get_json()
    after = response.get_json()
    ann = next(p for p in after["players"] if p["id"] == 1)
    assert ann["status"] == "in" and ann["reentries"] == 1 and ann["table"] == 1 and ann["seat"] is not None
    assert after["entries"] == 5 and after["prize_pool"] == 100 and after["chips_in_play"] == 50_000
    log = director.api("GET", f"/api/t/{tid}/events").get_json()["events"]
    assert [e["type"] for e in log[-2:]] == ["reentry", "player_seated"]  # one command, both events
    director.api("POST", f"/api/t/{tid}/bust", {"player": 1, "by": 2})
    response = director.api("POST", f"/api/t/{tid}/players/1/reentry", {})
    assert response.status_code == 422
    assert response.get_json()["error"] == "Ann has re-entered 1 time, the most allowed per player."
    results = soup(director.get(f"/t/{tid}/results"))
    assert "Re-entries" in results.get_text()
    sheet = director.get(f"/t/{tid}/results.csv").get_data(as_text=True).splitlines()
    assert sheet[0].endswith(",re-entries") and any(line.startswith(",Ann,") or ",Ann," in line for line in sheet)


def test_reentry_closes_after_its_level(director: Director, app: Flask):
    """"a re-entry after the re-entry period" is refused with a clear sentence."""
    clock = {"t": T0}
    tid = drawn_night(director, app, reentry_levels=1)
    app.config["NOW"] = lambda: clock["t"]
    director.api("POST", f"/api/t/{tid}/bust", {"player": 1})
    clock["t"] += 16 * 60  # level 2
    response = director.api("POST", f"/api/t/{tid}/players/1/reentry", {})
    assert response.status_code == 422 and response.get_json()["error"] == "Re-entry closed after level 1."


def test_a_rebuy_brings_the_player_back_to_his_seat_in_one_tap(director: Director, app: Flask):
    """"A rebuy brings the player back seated in one tap (his seat if still free ...)"."""
    tid = drawn_night(director, app, rebuy_levels=4)
    seat = (player(director, tid, 1)["table"], player(director, tid, 1)["seat"])
    director.api("POST", f"/api/t/{tid}/bust", {"player": 1})
    director.post(f"/t/{tid}/players/1/rebuy", {"expected_seq": seq(director, tid), "back": "dashboard"})
    ann = player(director, tid, 1)
    assert ann["status"] == "in" and (ann["table"], ann["seat"]) == seat


def test_a_rebuy_whose_seat_was_taken_gets_one_by_the_late_entry_draw(director: Director, app: Flask):
    """"... else the late-entry draw"."""
    from director.core.db import get_db
    from director.night import commands as night_commands

    tid = drawn_night(director, app, rebuy_levels=4, late_registration_levels=4)
    ann = player(director, tid, 1)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 1})
    assert director.api("POST", f"/api/t/{tid}/players", {"name": "Eve"}).status_code == 201
    with app.app_context():  # the director moves Eve into Ann's old seat
        night_commands.record(get_db(), tid, "player_moved", {"player": 5, "table": ann["table"], "seat": ann["seat"]},
                        None, T0)
    response = director.api("POST", f"/api/t/{tid}/players/1/rebuy", {})
    assert response.status_code == 201, response.get_json()
    back = player(director, tid, 1)
    assert back["status"] == "in" and back["table"] is not None
    assert (back["table"], back["seat"]) != (ann["table"], ann["seat"])
    seats = [(p["table"], p["seat"]) for p in response.get_json()["players"] if p["status"] == "in"]
    assert len(seats) == len(set(seats)) == 5
    log = director.api("GET", f"/api/t/{tid}/events").get_json()["events"]
    assert [e["type"] for e in log[-2:]] == ["rebuy", "player_seated"]


def test_in_the_break_after_the_last_late_level_it_is_open_until_play_resumes(director: Director, app: Flask):
    """Late registration "until level 4" takes players through the break after level 4 (the
    engine records a registration then, as it does a rebuy); in that break the TV and the dashboard say it is open
    until play resumes, not "until level 4", a level already over."""
    clock = {"t": T0}
    tid = drawn_night(director, app, late_registration_levels=4, reentry_levels=4, max_reentries=1)
    app.config["NOW"] = lambda: clock["t"]
    clock["t"] += 60 * 60 + 60  # the break after level 4 (four 15-minute levels)
    line = soup(director.get(f"/t/{tid}")).find(id="late-registration")
    assert line is not None and line.get_text() == "Late registration and re-entry open until play resumes"
    tv = director.get(f"/t/{tid}/tv/clock").get_data(as_text=True)
    assert "Late registration and re-entry open until play resumes" in tv and "until level 4" not in tv
    assert director.api("POST", f"/api/t/{tid}/players", {"name": "Eve"}).status_code == 201
    clock["t"] += 10 * 60  # level 5: closed
    assert soup(director.get(f"/t/{tid}")).find(id="late-registration") is None


def test_late_registration_is_shown_on_the_dashboard_and_the_tv(director: Director, app: Flask):
    """"Late registration shown on the dashboard and the TV ('Late registration open until level 6')"."""
    clock = {"t": T0}
    tid = drawn_night(director, app, late_registration_levels=2)
    app.config["NOW"] = lambda: clock["t"]
    line = soup(director.get(f"/t/{tid}")).find(id="late-registration")
    assert line is not None and line.get_text() == "Late registration open until level 2"
    assert "Late registration open until level 2" in director.get(f"/t/{tid}/tv/clock").get_data(as_text=True)
    clock["t"] += 31 * 60  # level 3
    assert soup(director.get(f"/t/{tid}")).find(id="late-registration") is None
