"""The dashboard: the compact clock and its controls, figures, busts, undo, stale writes."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.director.conftest import Director, csrf_token, new_tournament, rendered, seq, soup

EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def state(director: Director, tid: int) -> dict[str, Any]:
    return director.api("GET", f"/api/t/{tid}").get_json()


def test_dashboard_plain_and_htmx(director: Director, app: Flask) -> None:
    tid = new_tournament(director, ["Ann", "Bob"])
    with rendered(app) as names:
        response = director.get(f"/t/{tid}")
    assert response.status_code == 200 and names == ["dashboard/show.html"]
    page = soup(response)
    assert page.find(id="clock") is not None
    assert page.find("button", string="Start the clock anyway") is not None  # no seats drawn yet
    with rendered(app) as names:
        response = director.get(f"/t/{tid}", headers={"HX-Request": "true"})
    assert names == ["dashboard/_panel.html"]
    with rendered(app) as names:
        response = director.get(f"/t/{tid}", headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert names == ["dashboard/show.html"]


def test_read_only_dashboard_shows_no_controls(client: FlaskClient, director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], start=True)
    director.post("/auth/logout")
    page = soup(client.get(f"/t/{tid}"))
    assert page.find(id="clock") is not None
    assert page.find("button") is None or all("Bust" not in b.text for b in page.find_all("button"))
    assert page.find("form", action=f"/t/{tid}/clock/pause") is None


def test_clock_controls_need_login(client: FlaskClient, director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"])
    director.post("/auth/logout")
    response = client.post(f"/t/{tid}/clock/start", data={"csrf_token": csrf_token(client)})
    assert response.status_code == 302


def test_clock_start_pause_resume_and_minutes(director: Director, app: Flask) -> None:
    clock = {"t": 1_000_000.0}
    app.config["NOW"] = lambda: clock["t"]
    tid = new_tournament(director, ["Ann", "Bob"])
    response = director.post(f"/t/{tid}/clock/start", {"expected_seq": 3}, htmx=True)
    assert response.status_code == 200
    assert soup(response).find(id="clock")["data-ends-at"] == str(1_000_000.0 + 15 * 60)
    clock["t"] += 60
    director.post(f"/t/{tid}/clock/pause", {"expected_seq": 4})
    clock["t"] += 600
    assert state(director, tid)["clock"]["seconds_left"] == 14 * 60
    director.post(f"/t/{tid}/clock/resume", {"expected_seq": 5})
    director.post(f"/t/{tid}/clock/add_time", {"expected_seq": 6, "seconds": "60"})
    assert state(director, tid)["clock"]["seconds_left"] == 15 * 60
    director.post(f"/t/{tid}/clock/add_time", {"expected_seq": 7, "seconds": "-60"})
    director.post(f"/t/{tid}/clock/next_level", {"expected_seq": 8})
    assert state(director, tid)["clock"]["level"] == 2
    director.post(f"/t/{tid}/clock/previous_level", {"expected_seq": 9})
    assert state(director, tid)["clock"]["level"] == 1
    response = director.post(f"/t/{tid}/clock/resume", {"expected_seq": 10}, htmx=True)
    assert response.status_code == 422
    assert "nothing to resume" in soup(response).find(class_="flash-error").text


def test_compact_clock_partial_polls(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], start=True)
    response = director.get(f"/t/{tid}/dashboard/clock", headers={"HX-Request": "true"})
    clock = soup(response).find(id="clock")
    assert "every 1500ms" in clock["hx-trigger"]  # every open screen within two seconds
    assert clock["hx-target"] == "this"  # itself, not the dashboard it sits in (hx-target="this" there)
    assert clock["data-paused"] == "false"
    assert "Level 1" in clock.text


def test_hand_played_button_for_the_sit_and_go(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="sng-1000-turbo")
    page = soup(director.get(f"/t/{tid}"))
    assert page.find("button", string="+1 hand played") is not None
    for _ in range(4):
        director.post(f"/t/{tid}/clock/hand_played", {"expected_seq": seq(director, tid)})
    clock = state(director, tid)["clock"]
    assert (clock["level"], clock["small_blind"], clock["big_blind"]) == (2, 15, 30)


def test_bust_places_by_the_engine_and_records_the_eliminator(director: Director) -> None:
    tid = new_tournament(director, EIGHT, start=True)
    page = soup(director.get(f"/t/{tid}"))
    bust_form = page.find(id="player-3").find("form", class_="bust-form")
    assert "Confirm: Cy is out" in bust_form.find("button").text
    response = director.post(f"/t/{tid}/bust", {"players": "3", "by": "1", "expected_seq": seq(director, tid)}, htmx=True)
    assert response.status_code == 200
    row = soup(response).find(id="player-3")
    assert "8th" in row.text and "by Ann" in row.text
    s = state(director, tid)
    assert s["players_left"] == 7
    cy = next(p for p in s["players"] if p["id"] == 3)
    assert (cy["place"], cy["knocked_out_by"]) == (8, 1)


def test_seed_000_same_hand_busts_ranked_by_starting_stack(director: Director) -> None:
    """Seed 000: "If several players are knocked out in the same hand, the one who started
    that hand with more chips finishes higher." """
    tid = new_tournament(director, EIGHT, start=True)
    form = {"players": ["4", "5"], "stack_4": "3000", "stack_5": "8000", "by": "1", "expected_seq": seq(director, tid)}
    response = director.client.post(f"/t/{tid}/bust", data={"csrf_token": director.token, **form})
    assert response.status_code == 303
    places = {p["name"]: p["place"] for p in state(director, tid)["players"]}
    assert places["Eve"] == 7 and places["Dee"] == 8


def test_same_hand_busts_need_the_stacks(director: Director) -> None:
    tid = new_tournament(director, EIGHT, start=True)
    form = {"players": ["4", "5"], "expected_seq": seq(director, tid)}
    response = director.client.post(
        f"/t/{tid}/bust", data={"csrf_token": director.token, **form}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 422
    assert "give Dee's chips at the start of the hand" in soup(response).find(class_="flash-error").text


def test_a_double_click_never_records_a_bust_twice(director: Director) -> None:
    tid = new_tournament(director, EIGHT, start=True)
    base = seq(director, tid)
    first = director.post(f"/t/{tid}/bust", {"players": "2", "expected_seq": base}, htmx=True)
    second = director.post(f"/t/{tid}/bust", {"players": "2", "expected_seq": base}, htmx=True)
    assert first.status_code == 200
    assert second.status_code == 409
    assert "Someone else changed this tournament a moment ago" in soup(second).find(class_="flash-error").text
    assert state(director, tid)["players_left"] == 7
    events = director.api("GET", f"/api/t/{tid}/events").get_json()["events"]
    assert [e["type"] for e in events].count("bust") == 1


def test_stale_plain_post_redirects_with_the_message(director: Director) -> None:
    tid = new_tournament(director, EIGHT, start=True)
    response = director.post(f"/t/{tid}/bust", {"players": "2", "expected_seq": 1})
    assert response.status_code == 303
    page = soup(director.get(response.headers["Location"]))
    assert "Someone else changed this tournament" in page.find(class_="flash-error").text


def test_undo_cancels_the_last_entry(director: Director) -> None:
    tid = new_tournament(director, EIGHT, start=True)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 2, "by": 1})
    page = soup(director.get(f"/t/{tid}"))
    assert "Confirm: undo “Bob is out, knocked out by Ann”" in page.find("details", class_="undo").text
    response = director.post(f"/t/{tid}/undo", {"expected_seq": seq(director, tid)}, htmx=True)
    assert response.status_code == 200
    assert state(director, tid)["players_left"] == 8
    events = director.api("GET", f"/api/t/{tid}/events").get_json()["events"]
    assert [e["type"] for e in events][-2:] == ["bust", "undo"]


def test_the_last_bust_finishes_the_tournament(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3})
    response = director.post(f"/t/{tid}/bust", {"players": "2", "by": "1", "expected_seq": seq(director, tid)}, htmx=True)
    page = soup(response)
    assert page.find("a", string="See the results") is not None
    assert "Finished" in page.find(id="clock").text
    assert state(director, tid)["finished"] is True


def test_figures_and_payouts(director: Director) -> None:
    tid = new_tournament(director, [*EIGHT, "Ivy", "Jo"], start=True, buy_in=10)
    page = soup(director.get(f"/t/{tid}"))
    figures = {f.find("dt").text: f.find("dd").text for f in page.find_all(class_="figure")}
    assert figures["Players left"] == "10"
    assert figures["Chips in play"] == "100,000"
    assert figures["Average stack"] == "10,000"
    assert figures["Prize pool"] == "100"
    payouts = [r.get_text(" ", strip=True) for r in page.find(string="Payouts").find_parent("section").find_all("tr")]
    assert payouts == ["1st 50", "2nd 30", "3rd 20"]


@pytest.mark.parametrize("path", ["/t/999", "/t/999/dashboard/clock", "/t/999/results"])
def test_unknown_tournament_pages_are_404(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "There is no tournament number 999." in response.get_data(as_text=True)


def test_unknown_clock_action_is_refused(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"])
    response = director.post(f"/t/{tid}/clock/explode", {})
    assert response.status_code == 422


def test_seed_000_hand_cap_ranks_the_players_still_in_by_chips(director: Director) -> None:
    """Seed 000: "As a safety net the game ends after 120 hands in any case: the players still
    in are then ranked by their chips." """
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True, preset="sng-1000-turbo")
    events = [{"action": "hand_played"}] * 120
    for _ in events:
        director.api("POST", f"/api/t/{tid}/clock/hand_played", {})
    page = soup(director.get(f"/t/{tid}"))
    assert page.find(id="director-tools").find("h2").text == "The hand cap is reached"
    form = {"chips_1": "900", "chips_2": "1500", "chips_3": "600", "expected_seq": seq(director, tid)}
    response = director.post(f"/t/{tid}/hand-cap", form, htmx=True)
    assert response.status_code == 200
    s = state(director, tid)
    assert s["finished"] is True
    assert {p["name"]: p["place"] for p in s["players"]} == {"Bob": 1, "Ann": 2, "Cy": 3}
    page = soup(director.get(f"/t/{tid}"))
    rows = {r.select_one(".name").text: " ".join(r.select_one(".seat").text.split()) for r in page.select(".player-row")}
    assert rows == {"Bob": "1st", "Ann": "2nd", "Cy": "3rd"}  # places by chips, not "no seat"
    clock = page.find(id="clock")
    assert "Finished" in clock.text and "Next:" not in clock.text  # the game is over: no next level


def test_hand_cap_through_the_api_needs_every_stack(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="sng-1000-turbo")
    response = director.api("POST", f"/api/t/{tid}/hand-cap", {"stacks": {"1": 500}})
    assert response.status_code == 422
    assert "Give Bob's chips" in response.get_json()["error"]


def test_close_rebuys_button(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True, rebuy_levels=3)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3})
    assert state(director, tid)["players"][2]["status"] == "waiting"
    response = director.post(f"/t/{tid}/rebuys/close", {"expected_seq": seq(director, tid)}, htmx=True)
    assert response.status_code == 200
    assert soup(response).find("button", string="Close rebuys now") is None
    s = state(director, tid)
    assert s["players"][2]["status"] == "out" and s["players"][2]["place"] == 3


def test_the_whole_log_for_the_director(client: FlaskClient, director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3, "by": 1})
    director.api("POST", f"/api/t/{tid}/undo", {})
    rows = [r.find_all("td")[2].text for r in soup(director.get(f"/t/{tid}/log")).find(id="log").find_all("tr")[1:]]
    assert rows == ["Created “Friday”", "Ann registered", "Bob registered", "Cy registered", "The clock started",
                    "Cy is out, knocked out by Ann", "Undo: Cy is out, knocked out by Ann"]
    director.post("/auth/logout")
    assert client.get(f"/t/{tid}/log").status_code == 302


def test_the_log_names_a_player_removed_before_the_start(director: Director) -> None:
    """The player is gone from the state once removed: the event keeps the name for the log."""
    tid = new_tournament(director, ["Ann", "Bob", "Cy"])
    response = director.post(f"/t/{tid}/players/3/remove", {"expected_seq": seq(director, tid), "back": "dashboard"})
    assert response.status_code == 303
    events = director.api("GET", f"/api/t/{tid}/events").get_json()
    assert events["events"][-1]["payload"] == {"player": 3, "name": "Cy"}
    log = [li.text for li in soup(director.get(f"/t/{tid}")).select("ol.log li")]
    assert log[0] == "Cy was removed from the tournament"


def test_a_refused_same_hand_bust_comes_back_as_typed(director: Director) -> None:
    tid = new_tournament(director, EIGHT, start=True)
    form = {"group": "1", "players": ["4", "5"], "stack_4": "3000", "by": "1", "expected_seq": seq(director, tid)}
    response = director.client.post(
        f"/t/{tid}/bust", data={"csrf_token": director.token, **form}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 422
    page = soup(response)
    group = page.find(id="group-bust")
    assert group.find_parent("details").has_attr("open")
    assert [i["value"] for i in group.find_all("input", attrs={"name": "players"}) if i.has_attr("checked")] == ["4", "5"]
    assert group.find("input", attrs={"name": "stack_4"})["value"] == "3000"
    assert group.find("option", selected=True)["value"] == "1"


def test_the_several_busts_form_is_drawn_when_opened(director: Director) -> None:
    """Its row for each player still in (and two lists of them) is drawn when the director
    opens it, not at every refresh of the dashboard; without htmx, the dashboard with it open."""
    tid = new_tournament(director, EIGHT, start=True)
    page = soup(director.get(f"/t/{tid}"))
    assert page.find(id="group-bust") is None
    opener = page.find(attrs={"hx-get": f"/t/{tid}/group-bust"})
    assert opener is not None and opener["hx-trigger"] == "toggle once from:closest details"
    assert opener.find("a")["href"] == f"/t/{tid}/group-bust"
    form = soup(director.client.get(f"/t/{tid}/group-bust", headers={"HX-Request": "true"})).find(id="group-bust")
    assert form is not None
    assert [i["value"] for i in form.find_all("input", attrs={"name": "players"})] == [str(n) for n in range(1, 9)]
    assert form.find("input", attrs={"name": "expected_seq"})["value"] == str(seq(director, tid))
    whole = soup(director.get(f"/t/{tid}/group-bust"))
    assert whole.find(id="group-bust").find_parent("details").has_attr("open")


def test_a_hand_is_never_counted_twice_on_the_dashboard(director: Director) -> None:
    """Seed 000 counts levels in hands: once the dealer's assistant deals at table 1 it
    counts the hands there, so the dashboard's "+1 hand played" is off, with the reason."""
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], preset="sng-1000-turbo")
    assert director.api("POST", f"/api/t/{tid}/seats/draw", {}).status_code == 201
    assert director.api("POST", f"/api/t/{tid}/clock/start", {}).status_code == 201
    button = soup(director.get(f"/t/{tid}")).find("button", string="+1 hand played")
    assert button is not None and not button.has_attr("disabled")
    assert director.api("POST", f"/api/t/{tid}/table/1/deal", {}).status_code == 201
    note = "The dealer's assistant counts the hands at table 1; the hand-played button is for tables without it."
    page = soup(director.get(f"/t/{tid}"))
    assert page.find("button", string="+1 hand played").has_attr("disabled")
    assert page.find(class_="hand-button-note").text == note
    response = director.post(f"/t/{tid}/clock/hand_played", {"expected_seq": seq(director, tid)}, htmx=True)
    assert response.status_code == 422
    assert note in soup(response).text
    assert state(director, tid)["clock"]["hands_played"] == 0


def test_at_the_hand_cap_no_more_hands_are_counted(director: Director) -> None:
    """Seed 000: "As a safety net the game ends after 120 hands in any case: the players still
    in are then ranked by their chips." The 121st "hand played" is refused with that reason."""
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True, preset="sng-1000-turbo")
    for _ in range(120):
        director.api("POST", f"/api/t/{tid}/clock/hand_played", {})
    cap = "The 120-hand cap is reached: the game is over, the players still in are ranked by chips."
    page = soup(director.get(f"/t/{tid}"))
    assert page.find("button", string="+1 hand played").has_attr("disabled")
    assert page.find(class_="hand-button-note").text == cap
    response = director.api("POST", f"/api/t/{tid}/clock/hand_played", {})
    assert response.status_code == 422 and response.get_json()["error"] == cap
    assert state(director, tid)["clock"]["hands_played"] == 120


def test_one_player_left_with_rebuys_open_says_what_to_do(director: Director) -> None:
    """Two of three out while rebuys are open: the game goes on for a rebuy, and the
    dashboard says how to finish it, with the button right there."""
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True, rebuy_levels=3)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3})
    assert soup(director.get(f"/t/{tid}")).find(id="one-left") is None
    director.api("POST", f"/api/t/{tid}/bust", {"player": 2})
    notice = soup(director.get(f"/t/{tid}")).find(id="one-left")
    assert notice.find("strong").text == "One player left: close rebuys to finish the tournament (or wait for a rebuy)."
    form = notice.find("form")
    assert form["hx-post"] == f"/t/{tid}/rebuys/close" and form.find("button").text == "Close rebuys now"
    response = director.post(f"/t/{tid}/rebuys/close", {"expected_seq": seq(director, tid)}, htmx=True)
    assert soup(response).find(id="one-left") is None and state(director, tid)["finished"]


def test_undone_names_what_was_undone(director: Director) -> None:
    tid = new_tournament(director, EIGHT, start=True)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 4})
    response = director.post(f"/t/{tid}/undo", {"expected_seq": seq(director, tid)}, htmx=True)
    assert soup(response).find(class_="flash-ok").text.strip() == "Undone: Dee's bust (8th)."
    director.api("POST", f"/api/t/{tid}/clock/pause", {})
    response = director.post(f"/t/{tid}/undo", {"expected_seq": seq(director, tid)}, htmx=True)
    assert soup(response).find(class_="flash-ok").text.strip() == "Undone: The clock was paused."


def test_hands_left_on_the_big_clock_read_as_one_phrase(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="sng-1000")
    director.post(f"/t/{tid}/clock/hand_played", {"expected_seq": seq(director, tid)})
    big = soup(director.get(f"/t/{tid}")).select_one("#clock .clock-time")
    assert big.contents[0] == "5" and big.find("small", class_="clock-unit").text == "hands left"


def test_starting_without_a_seat_draw_asks_first(director: Director) -> None:
    """Not a refusal: the director may start anyway (seats drawn later, or by hand)."""
    tid = new_tournament(director, ["Ann", "Bob"])
    page = soup(director.get(f"/t/{tid}"))
    assert page.find(id="no-seats").text == "Seats are not drawn yet: draw seats first, or start anyway."
    assert page.find(id="no-seats").find("a")["href"] == f"/t/{tid}/tables"
    assert page.find("button", string="Start the clock anyway") is not None
    director.post(f"/t/{tid}/tables/draw", {"expected_seq": seq(director, tid)})
    page = soup(director.get(f"/t/{tid}"))
    assert page.find(id="no-seats") is None and page.find("button", string="Start the clock") is not None


def test_close_rebuys_is_offered_only_while_rebuys_are_open(director: Director, app: Flask) -> None:
    """Seen as a new user: "Close rebuys now — Rebuys close by themselves after level 4" was
    still offered at level 5."""
    clock = {"t": 1_000_000.0}
    app.config["NOW"] = lambda: clock["t"]
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="home-short", rebuy_levels=1)
    assert soup(director.get(f"/t/{tid}")).find("button", string="Close rebuys now") is not None
    clock["t"] += 16 * 60  # level 2: the rebuys closed by themselves
    assert soup(director.get(f"/t/{tid}")).find("button", string="Close rebuys now") is None


def test_the_dashboard_sends_the_draw_to_the_tables_page(director: Director) -> None:
    """Seen as a new user: the dashboard said "Draw seats on the players page"; the draw is
    on the tables page."""
    tid = new_tournament(director, ["Ann", "Bob"])
    link = soup(director.get(f"/t/{tid}")).find("a", string="Draw seats on the tables page")
    assert link is not None and link["href"] == f"/t/{tid}/tables"
