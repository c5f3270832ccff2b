"""The settings after creation (issue: "The night changes as it runs", part 3): "name,
buy-in, starting stack, rebuy and add-on rules, late-registration end, payouts, table size,
league points. A change that contradicts what already happened is refused with the reason"."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.director.conftest import Director, csrf_token, new_tournament, seq, soup


def state(director: Director, tid: int) -> dict:  # type: ignore[type-arg]
    return director.api("GET", f"/api/t/{tid}").get_json()


def test_the_settings_page_saves_what_changed_and_the_home_page_shows_the_new_name(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    page = soup(director.get(f"/t/{tid}/settings"))
    assert page.find("input", attrs={"name": "name"})["value"] == "Friday"
    form = {i["name"]: i.get("value", "") for i in page.select("#settings-form input") if i.get("type") != "checkbox"}
    form.update({s["name"]: s.find("option", selected=True)["value"] for s in page.select("#settings-form select")})
    form.update({"name": "Friday league", "buy_in": "25", "max_rebuys": ""})
    response = director.post(f"/t/{tid}/settings", form, htmx=True)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert soup(response).find(class_="flash-ok").get_text() == (
        "Saved: name, buy in. The new prices count for later payments; the payments already made keep theirs.")
    body = state(director, tid)
    assert body["name"] == "Friday league" and body["settings"]["buy_in"] == 25
    assert "Friday league" in director.get("/").get_data(as_text=True)
    log = director.api("GET", f"/api/t/{tid}/events").get_json()["events"]
    assert log[-1]["type"] == "settings_changed" and log[-1]["payload"] == {"name": "Friday league", "buy_in": 25}


def test_the_starting_stack_changes_before_the_start_and_the_rebuy_chips_follow(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"], rebuy_levels=4)
    response = director.api("POST", f"/api/t/{tid}/settings", {"starting_stack": 15_000})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["settings"]["starting_stack"] == 15_000 and body["settings"]["rebuy_chips"] == 15_000
    assert body["chips_in_play"] == 30_000
    director.api("POST", f"/api/t/{tid}/clock/start", {})
    response = director.api("POST", f"/api/t/{tid}/settings", {"starting_stack": 20_000})
    assert response.status_code == 422
    assert "The clock has started with 15,000 chips a player" in response.get_json()["error"]


def test_a_change_that_contradicts_the_night_is_refused_with_the_reason(director: Director):
    """"2 players have already rebought twice: the limit cannot go below 2"."""
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True, rebuy_levels=4)
    for _ in range(2):
        for player in (1, 2):
            assert director.api("POST", f"/api/t/{tid}/bust", {"player": player}).status_code == 201
            assert director.api("POST", f"/api/t/{tid}/players/{player}/rebuy", {}).status_code == 201
    before = seq(director, tid)
    response = director.api("POST", f"/api/t/{tid}/settings", {"max_rebuys": 1})
    assert response.status_code == 422
    assert response.get_json()["error"] == "2 players have already rebought twice: the limit cannot go below 2."
    response = director.api("POST", f"/api/t/{tid}/settings", {"rebuy_chips": 5_000})
    assert "4 rebuys have brought 10,000 chips each" in response.get_json()["error"]
    assert seq(director, tid) == before
    assert director.api("POST", f"/api/t/{tid}/settings", {"max_rebuys": 2}).status_code == 201


def test_the_table_size_cannot_leave_a_seated_player_without_a_seat(director: Director):
    tid = new_tournament(director, [f"P{n}" for n in range(1, 10)], table_size=10)
    director.api("POST", f"/api/t/{tid}/tables/draw", {"table_size": 10})
    # Nine players at one table of ten: at least three sit past seat 6.
    response = director.api("POST", f"/api/t/{tid}/settings", {"table_size": 6})
    assert response.status_code == 422 and "cannot have 6 seats while players sit there" in response.get_json()["error"]


def test_undo_takes_a_rename_back_everywhere(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    director.api("POST", f"/api/t/{tid}/settings", {"name": "Saturday"})
    director.api("POST", f"/api/t/{tid}/undo", {})
    assert state(director, tid)["name"] == "Friday"
    assert "Saturday" not in director.get("/").get_data(as_text=True)


def test_nothing_changed_records_nothing(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    before = seq(director, tid)
    response = director.api("POST", f"/api/t/{tid}/settings", {"buy_in": 20})
    assert response.status_code == 201 and response.get_json()["notice"] == "Nothing changed."
    assert seq(director, tid) == before


def test_bad_values_name_the_field_and_its_limit(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    response = director.api("POST", f"/api/t/{tid}/settings", {"buy_in": 10**12})
    assert response.status_code == 422 and "buy-in" in response.get_json()["error"]
    response = director.api("POST", f"/api/t/{tid}/settings", {"name": "x" * 41})
    assert response.status_code == 422 and "40" in response.get_json()["error"]


def test_the_settings_need_login(client: FlaskClient, director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    director.post("/auth/logout")
    token = csrf_token(client)
    assert client.post(f"/t/{tid}/settings", data={"csrf_token": token, "name": "X"}).status_code == 302
    response = client.post(f"/api/t/{tid}/settings", json={"name": "X"}, headers={"X-CSRFToken": token})
    assert response.status_code == 401


def test_the_fuzzers_settings_are_refused_in_words_not_with_a_server_error(director: Director):
    """Found by schemathesis: a percentage that is no number, and nulls for settings that are
    not limits."""
    tid = new_tournament(director, ["Ann", "Bob"])
    response = director.api("POST", f"/api/t/{tid}/settings", {"payout_kind": "custom", "percentages": [""]})
    assert response.status_code == 422 and response.get_json()["error"] == "A payout needs at least one paid place."
    before = seq(director, tid)
    response = director.api("POST", f"/api/t/{tid}/settings", {"addon_level": None, "percentages": None,
                                                                "pause_after_break": None})
    assert response.status_code == 201 and response.get_json()["notice"] == "Nothing changed."
    assert seq(director, tid) == before
    response = director.api("POST", f"/api/t/{tid}/settings", {"max_rebuys": 2})
    assert response.status_code == 201
    response = director.api("POST", f"/api/t/{tid}/settings", {"max_rebuys": None})
    assert response.get_json()["settings"]["max_rebuys"] is None  # null: no limit
