"""The host's chips on the pages and the API (issue "The night changes as it runs", part 6):
"define your own chip set (denominations, colours, how many of each you own); the starting
stack is suggested from it and checked against what you own for the number of entries
(rebuys and add-ons included)"."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.director.conftest import Director, csrf_token, new_tournament, soup

CASE = {
    "name": "The blue case",
    "denominations": [
        {"value": 25, "colour": "green", "count": 100},
        {"value": 100, "colour": "black", "count": 100},
        {"value": 500, "colour": "blue", "count": 50},
        {"value": 1000, "colour": "yellow", "count": 50},
    ],
}


def saved(director: Director, body: dict[str, Any] = CASE) -> int:
    response = director.api("POST", "/api/chip-sets", body)
    assert response.status_code == 201, response.get_json()
    return int(response.get_json()["id"])


def setup_form(director: Director, **values: str) -> dict[str, Any]:
    """The new-tournament form as the page fills it, with ``values`` changed."""
    page = soup(director.get("/new"))
    form = page.find("form", id="setup-form")
    data: dict[str, Any] = {}
    for field in form.find_all(["input", "select"]):
        name = field.get("name")
        if not name or (field.get("type") == "checkbox" and not field.has_attr("checked")):
            continue
        if field.name == "select":
            chosen = field.find("option", selected=True) or field.find("option")
            value = chosen.get("value", "") if chosen else ""
        else:
            value = field.get("value", "")
        data.setdefault(name, []).append(value)
    for key, value in values.items():
        data[key] = [value]
    return data


def test_the_hosts_chips_are_saved_from_the_page_and_listed_with_what_they_are_worth(director: Director):
    form = {"name": "Garage case", "value": ["100", "25", ""], "colour": ["black", "green", "white"],
            "count": ["80", "120", ""], "op": "save"}
    response = director.post("/chips", form)
    assert response.status_code == 303
    page = soup(director.get("/chips"))
    card = page.find(id="my-chip-sets").find("article")
    text = card.get_text(" ", strip=True)
    assert "Garage case" in text and "200 chips worth 11,000" in text
    rows = [r.get_text(" ", strip=True) for r in card.select("tbody tr")]
    assert rows == ["25 green 120 3,000", "100 black 80 8,000"]  # smallest first, whatever the order typed
    listed = director.api("GET", "/api/chip-sets").get_json()["chip_sets"]
    assert [(s["name"], s["total_value"]) for s in listed] == [("Garage case", 11_000)]


def test_rows_are_added_and_removed_on_the_page_without_saving(director: Director):
    form = {"name": "X", "value": ["25"], "colour": ["green"], "count": ["10"], "op": "add_row"}
    page = soup(director.post("/chips", form))
    assert len(page.select("#chip-form input[name=value]")) == 2
    page = soup(director.post("/chips", {**form, "op": "remove:0"}))
    assert len(page.select("#chip-form input[name=value]")) == 0
    assert director.api("GET", "/api/chip-sets").get_json()["chip_sets"] == []


@pytest.mark.parametrize(
    ("rows", "refusal"),
    [
        ({"value": ["25", "25"], "colour": ["green", "red"], "count": ["10", "10"]}, "lists the 25 chip twice"),
        ({"value": ["twenty"], "colour": ["green"], "count": ["10"]}, "Row 1: the chip's value must be a whole number, not 'twenty'."),
        ({"value": ["25"], "colour": ["green"], "count": [""]}, "Row 1: the number of chips is empty."),
        ({"value": ["25"], "colour": ["gold"], "count": ["10"]}, "colour 'gold' is not one of"),
        ({"value": [], "colour": [], "count": []}, "has no chips"),
    ],
)
def test_a_chip_set_that_makes_no_sense_is_refused_on_the_page_and_nothing_is_saved(director: Director, rows, refusal):
    response = director.post("/chips", {"name": "Bad", **rows, "op": "save"})
    assert response.status_code == 422
    error = soup(response).find(id="chip-form").find(class_="flash-error").get_text()
    assert refusal in error
    assert soup(response).find("input", attrs={"name": "name"})["value"] == "Bad"  # the form keeps what was typed
    assert director.api("GET", "/api/chip-sets").get_json()["chip_sets"] == []


def test_the_api_refuses_bad_chips_with_the_field_and_a_name_taken(director: Director):
    saved(director)
    taken = director.api("POST", "/api/chip-sets", {**CASE, "name": "the BLUE case"})
    assert taken.status_code == 422
    assert taken.get_json()["error"] == "A chip set named 'The blue case' already exists: choose another name."
    bad_colour = director.api("POST", "/api/chip-sets", {"name": "Y", "denominations": [{"value": 5, "colour": "gold", "count": 1}]})
    assert bad_colour.status_code == 422 and "'gold' is not one of white" in bad_colour.get_json()["error"]
    too_many = director.api("POST", "/api/chip-sets", {"name": "Y", "denominations": [{"value": 5, "colour": "red", "count": 10**9}]})
    assert too_many.status_code == 422 and "at most 100,000" in too_many.get_json()["error"]
    empty = director.api("POST", "/api/chip-sets", {"name": "Y", "denominations": []})
    assert empty.status_code == 422
    assert len(director.api("GET", "/api/chip-sets").get_json()["chip_sets"]) == 1


def test_editing_and_deleting_a_set_leaves_the_tournaments_made_with_it_as_they_were(director: Director):
    set_id = saved(director)
    tid = new_tournament(director, ["Ann", "Bob"], chips=CASE, starting_stack=5000)
    changed = {**CASE, "denominations": [{"value": 100, "colour": "black", "count": 10}]}
    response = director.api("POST", f"/api/chip-sets/{set_id}", changed)
    assert response.status_code == 200 and response.get_json()["total_value"] == 1000
    chips = director.api("GET", f"/api/t/{tid}").get_json()["settings"]["chips"]
    assert [d["value"] for d in chips["denominations"]] == [25, 100, 500, 1000]
    deleted = director.api("POST", f"/api/chip-sets/{set_id}/delete", {})
    assert deleted.status_code == 200 and "keep the chips they had" in deleted.get_json()["notice"]
    assert director.api("GET", "/api/chip-sets").get_json()["chip_sets"] == []
    assert director.api("GET", f"/api/t/{tid}").get_json()["settings"]["chips"]["name"] == "The blue case"
    assert director.api("POST", f"/api/chip-sets/{set_id}/delete", {}).status_code == 404


def test_the_new_tournament_page_checks_the_night_against_the_hosts_chips(director: Director):
    set_id = saved(director)
    data = setup_form(director, chip_set=f"own:{set_id}", players_expected="9", starting_stack="4000",
                      rebuy_levels="4", max_rebuys="", rebuy_chips="4000", addon_level="0", op="check")
    data["small_blind"][0], data["big_blind"][0] = "50", "100"  # 4,000 is 40 big blinds at level 1
    page = soup(director.post("/new", data))
    plan = page.find(id="chip-plan")
    text = plan.get_text(" ", strip=True)
    assert "Your chips are enough for 9 players, 9 rebuys (one each: there is no limit)" in text
    assert "9 starting stacks of 4,000:" in text and "9 rebuys of 4,000:" in text
    assert "of the 87,500 you own" in text
    suggested = page.find(id="suggested-stack")
    assert "Your chips make starting stacks of up to 4,000 for 9 players" in suggested.get_text()
    assert suggested.find("button") is None  # the stack typed is the one suggested
    # Too many players for these chips: said, with the stack that would do.
    data["players_expected"] = ["20"]
    short = soup(director.post("/new", data)).find(id="chip-plan").get_text(" ", strip=True)
    assert "Your chips are short for 20 players" in short
    assert ("No mix of the chip set 'The blue case' makes 20 stacks of 4,000: there are too few chips of "
            "the small values.") in short
    assert "These chips make no starting stack of 20 big blinds or more at level 1 for 20 players" in short


def test_the_suggested_stack_is_taken_with_one_button_and_the_rebuy_chips_follow(director: Director):
    set_id = saved(director)
    data = setup_form(director, chip_set=f"own:{set_id}", starting_stack="10000", rebuy_chips="10000", op="check")
    page = soup(director.post("/new", data))
    button = page.find(id="suggested-stack").find("button")
    assert button is not None and button["value"].startswith("use_stack:")
    stack = button["value"].split(":")[1]
    data["op"] = [button["value"]]
    taken = soup(director.post("/new", data))
    assert taken.find("input", attrs={"name": "starting_stack"})["value"] == stack
    assert taken.find("input", attrs={"name": "rebuy_chips"})["value"] == stack
    assert taken.find(id="suggested-stack").find("button") is None  # nothing left to take


def test_a_tournament_created_with_the_hosts_chips_keeps_them(director: Director):
    set_id = saved(director)
    data = setup_form(director, chip_set=f"own:{set_id}", starting_stack="5000", op="create")
    response = director.post("/new", data)
    assert response.status_code == 303, soup(response).find(class_="flash-error")
    tid = int(response.headers["Location"].split("/t/")[1].split("/")[0])
    settings = director.api("GET", f"/api/t/{tid}").get_json()["settings"]
    assert settings["chips"]["name"] == "The blue case"
    assert settings["structure"]["denominations"] == [25, 100, 500, 1000]


def test_the_dashboard_says_when_the_chips_in_play_are_more_than_the_host_owns(director: Director):
    small = {"name": "Tiny", "denominations": [{"value": 25, "colour": "green", "count": 200},
                                                {"value": 100, "colour": "black", "count": 150},
                                                {"value": 500, "colour": "purple", "count": 0}]}
    tid = new_tournament(director, ["Ann", "Bob"], chips=small, starting_stack=5000, preset="home-short")
    note = soup(director.get(f"/t/{tid}")).find(id="chips-owned")
    assert note.get_text(strip=True) == "of 20,000 in your chips"
    for name in ("Cy", "Dee", "Eve"):
        director.api("POST", f"/api/t/{tid}/players", {"name": name})
    note = soup(director.get(f"/t/{tid}")).find(id="chips-owned")
    assert note["role"] == "alert"
    assert "5,000 more than your chips hold (20,000)" in note.get_text()


def test_the_colour_up_names_the_chips_colours_when_the_hosts_chips_are_known(director: Director, app: Flask):
    clock = {"t": 1_000_000.0}
    app.config["NOW"] = lambda: clock["t"]
    structure = {"name": "c", "starting_stack": 5000, "denominations": [], "items": [
        {"type": "level", "small_blind": 25, "big_blind": 50, "minutes": 10},
        {"type": "break", "minutes": 10, "colour_up": [25]},
        {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 10}]}
    tid = new_tournament(director, ["Ann", "Bob"], chips=CASE, structure=structure)
    director.api("POST", f"/api/t/{tid}/tables/draw", {"table_size": 6})
    director.api("POST", f"/api/t/{tid}/clock/start", {})
    clock["t"] += 11 * 60
    card = soup(director.get(f"/t/{tid}")).find(id="colour-up")
    assert "The 25 chips become 100 chips (green into black)." in card.get_text()


def test_the_chips_need_the_director_to_change(client: FlaskClient, director: Director):
    set_id = saved(director)
    director.post("/auth/logout")
    token = csrf_token(client)
    assert client.get("/chips").status_code == 200  # anyone may look
    assert client.post("/chips", data={"csrf_token": token, "name": "X", "op": "save"}).status_code == 302
    assert client.post(f"/chips/{set_id}/delete", data={"csrf_token": token}).status_code == 302
    for path in ("/api/chip-sets", f"/api/chip-sets/{set_id}", f"/api/chip-sets/{set_id}/delete"):
        assert client.post(path, json=CASE, headers={"X-CSRFToken": token}).status_code == 401


def test_a_template_made_with_the_hosts_chips_brings_them_back(director: Director):
    set_id = saved(director)
    tid = new_tournament(director, ["Ann"], chips=CASE, starting_stack=5000)
    assert director.api("POST", f"/api/t/{tid}/template", {"name": "Blue Friday"}).status_code == 201
    option = soup(director.get("/new")).find("option", string="Blue Friday")
    loaded = soup(director.post("/new", {"op": "load_preset", "preset": option["value"], "name": "Next"}, htmx=True))
    chosen = loaded.find("select", attrs={"name": "chip_set"}).find("option", selected=True)
    assert chosen["value"] == f"own:{set_id}"
    assert "Each player's stack:" in loaded.find(id="chip-plan").get_text()
