"""The structure page and its JSON twin: edits in play from the dashboard's link, refusals in
words, undo, and the break controls on the dashboard."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.director.conftest import Director, csrf_token, new_tournament, seq, soup

T0 = 1_000_000.0


def fixed_clock(app: Flask) -> dict[str, float]:
    clock = {"t": T0}
    app.config["NOW"] = lambda: clock["t"]
    return clock


def state(director: Director, tid: int) -> dict:  # type: ignore[type-arg]
    return director.api("GET", f"/api/t/{tid}").get_json()


def test_the_page_lists_what_was_played_what_is_in_play_and_what_can_change(director: Director, app: Flask):
    clock = fixed_clock(app)
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="home-short")
    clock["t"] += 16 * 60  # level 2
    page = soup(director.get(f"/t/{tid}/structure"))
    first, second = page.find(id="item-0"), page.find(id="item-1")
    assert "out" in first["class"] and first.find("input") is None  # played: shown, not editable
    assert "in play" in second.get_text() and second.find("input", attrs={"name": "restart"})
    assert page.find("a", string="Structure") is not None  # in the tournament's menu


def test_an_edit_from_the_page_changes_the_clock_and_says_what_changed(director: Director, app: Flask):
    clock = fixed_clock(app)
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="home-short")
    clock["t"] += 5 * 60
    response = director.post(
        f"/t/{tid}/structure",
        {"expected_seq": seq(director, tid), "edit": "level", "item": "0", "small_blind": "150",
         "big_blind": "300", "ante": "0", "minutes": "25"},
        htmx=True,
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    notice = soup(response).find(class_="flash-ok").get_text()
    assert notice.startswith("Level 1: 150/300, 25 min (was 150/300, 15 min).")
    assert state(director, tid)["clock"]["seconds_left"] == 20 * 60
    log = director.get(f"/t/{tid}/log").get_data(as_text=True)
    assert "Structure changed: Level 1: 150/300, 25 min" in log


def test_a_refused_edit_says_why_and_records_nothing(director: Director, app: Flask):
    clock = fixed_clock(app)
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="home-short")
    clock["t"] += 25 * 60  # level 2
    before = seq(director, tid)
    response = director.post(f"/t/{tid}/structure", {"expected_seq": before, "edit": "remove", "item": "1"}, htmx=True)
    assert response.status_code == 422
    assert "Level 2 is being played: it cannot be removed" in soup(response).find(class_="flash-error").get_text()
    response = director.api("POST", f"/api/t/{tid}/structure", {"edit": "level", "item": 2, "big_blind": 10})
    assert response.status_code == 422
    assert "cannot be below the small blind" in response.get_json()["error"]
    response = director.api("POST", f"/api/t/{tid}/structure", {"edit": "break", "item": 4, "minutes": 0})
    assert response.status_code == 422 and "length in minutes" in response.get_json()["error"]
    assert seq(director, tid) == before


def test_the_api_edits_every_later_level_at_once_and_undo_takes_it_back(director: Director, app: Flask):
    fixed_clock(app)
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="home-short")
    response = director.api("POST", f"/api/t/{tid}/structure", {"edit": "all_levels", "item": 0, "minutes": 12})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["notice"].startswith("Every level from level 1 on: 12 minutes.")
    levels = [i for i in body["settings"]["structure"]["items"] if i["type"] == "level"]
    assert {i["minutes"] for i in levels} == {12}
    assert body["clock"]["seconds_left"] == 12 * 60 and body["clock"]["item"] == 0
    assert director.api("POST", f"/api/t/{tid}/undo", {}).status_code == 201
    assert state(director, tid)["clock"]["seconds_left"] == 15 * 60


def test_the_structure_edit_needs_login(client: FlaskClient, director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    director.post("/auth/logout")
    token = csrf_token(client)
    response = client.post(f"/t/{tid}/structure", data={"csrf_token": token, "edit": "remove", "item": "1"})
    assert response.status_code == 302
    response = client.post(f"/api/t/{tid}/structure", json={"edit": "remove", "item": 1},
                           headers={"X-CSRFToken": token})
    assert response.status_code == 401


def test_the_dashboard_offers_the_break_and_goes_into_it(director: Director, app: Flask):
    """"'Next level' goes into the break when a break is next"; "'Break now' and 'Extend the
    break by N minutes'"."""
    clock = fixed_clock(app)
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="home-short")
    page = soup(director.get(f"/t/{tid}"))
    assert page.find("button", string="Break now (10 min)") is not None
    response = director.post(f"/t/{tid}/clock/break_now", {"expected_seq": seq(director, tid)}, htmx=True)
    assert response.status_code == 200
    now = state(director, tid)["clock"]
    assert now["on_break"] and now["seconds_left"] == 10 * 60
    page = soup(response)
    extend = page.find("button", string="Extend the break 5 min")
    assert extend is not None and page.find("button", string="End the break ▶") is not None
    director.post(f"/t/{tid}/clock/add_time", {"expected_seq": seq(director, tid), "seconds": "300"})
    assert state(director, tid)["clock"]["seconds_left"] == 15 * 60
    clock["t"] += 14 * 60
    director.post(f"/t/{tid}/clock/next_level", {"expected_seq": seq(director, tid)})
    assert state(director, tid)["clock"]["level"] == 2


def test_the_setup_page_offers_a_paused_start_after_each_break(director: Director, app: Flask):
    """"the end of the break starts the next level, paused or running as set"."""
    clock = fixed_clock(app)
    page = soup(director.get("/new"))
    assert page.find("input", attrs={"name": "pause_after_break"}) is not None
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="home-short", pause_after_break=True)
    assert state(director, tid)["settings"]["pause_after_break"] is True
    director.api("POST", f"/api/t/{tid}/clock/break_now", {"minutes": 5})
    clock["t"] += 6 * 60
    now = state(director, tid)["clock"]
    assert now["status"] == "paused" and now["level"] == 2 and now["seconds_left"] == 15 * 60


def chart_steps(page) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """``{level: big blind}`` as the structure's picture draws it, the same in the picture for
    a wide screen and in the compact one for a phone."""
    drawn = []
    for box in (".chart-wide", ".chart-narrow"):
        svg = page.select_one(f"#structure-chart {box} svg")
        assert svg is not None and svg["role"] == "img"
        drawn.append({s["data-level"]: s["data-big-blind"] for s in svg.select("g.chart-blind line.chart-step")})
    assert drawn[0] == drawn[1]
    return drawn[0]


def test_the_structure_is_drawn_and_redrawn_after_each_edit(director: Director, app: Flask):
    """The page draws the structure over the night, with where the clock is and the likely
    end for the entries; the panel htmx swaps in after an edit carries the new drawing."""
    clock = fixed_clock(app)
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True, preset="home-short")
    clock["t"] += 5 * 60
    page = soup(director.get(f"/t/{tid}/structure"))
    steps = chart_steps(page)
    assert steps["1"] == "300" and steps["2"] == "400"
    assert page.select_one("#structure-chart .chart-wide line.chart-now")["data-minutes"] == "5"
    assert page.select_one("#structure-chart .chart-wide line.chart-end") is not None  # 3 entries of 10,000
    response = director.post(
        f"/t/{tid}/structure",
        {"expected_seq": seq(director, tid), "edit": "level", "item": "1", "small_blind": "250",
         "big_blind": "500", "ante": "0", "minutes": "15"},
        htmx=True,
    )
    assert response.status_code == 200
    panel = soup(response)
    assert panel.select_one("#structure-panel") is not None and panel.select_one("html") is None
    assert chart_steps(panel)["2"] == "500"
    director.api("POST", f"/api/t/{tid}/structure", {"edit": "remove", "item": 4})  # the first break
    bands = soup(director.get(f"/t/{tid}/structure")).select("#structure-chart .chart-wide rect.chart-break[data-from]")
    assert [b["data-from"] for b in bands] == ["120", "190"]  # 8 levels of 15 min, a break, 4 more


def test_a_hand_counted_structure_has_no_picture_over_the_clock(director: Director, app: Flask):
    fixed_clock(app)
    tid = new_tournament(director, ["Ann", "Bob"], preset="sng-1000")
    assert soup(director.get(f"/t/{tid}/structure")).select_one("#structure-chart") is None
