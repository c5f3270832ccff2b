"""The new-tournament page: defaults, the structure editor, validation messages."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from tests.director.conftest import Director, rendered, soup


def form_fields(html_form: Any) -> MultiDict[str, str]:
    """What a browser would submit for a form (selected options, checked boxes)."""
    data: MultiDict[str, str] = MultiDict()
    for field in html_form.find_all(["input", "select"]):
        name = field.get("name")
        if not name:
            continue
        if field.name == "select":
            option = field.find("option", selected=True) or field.find("option")
            data.add(name, option.get("value", ""))
        elif field.get("type") == "checkbox":
            if field.has_attr("checked"):
                data.add(name, "on")
        else:
            data.add(name, field.get("value", ""))
    return data


def the_form(director: Director) -> MultiDict[str, str]:
    return form_fields(soup(director.get("/new")).find("form", id="setup-form"))


def test_new_needs_the_director(client: FlaskClient, director: Director) -> None:
    director.post("/auth/logout")
    response = client.get("/new")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]


def test_new_page_has_sensible_defaults(director: Director, app: Flask) -> None:
    with rendered(app) as names:
        response = director.get("/new")
    assert response.status_code == 200
    assert names == ["setup/new.html"]
    data = the_form(director)
    assert data["name"].startswith("Poker night")
    assert data["starting_stack"] == "10000"
    assert data["table_size"] == "9"
    assert len(data.getlist("kind")) > 5
    assert soup(response).find(id="structure-summary") is not None


def test_create_with_the_defaults_leads_to_the_players_page(director: Director) -> None:
    data = the_form(director)
    data["op"] = "create"
    data["name"] = "Saturday game"
    response = director.client.post("/new", data=data)
    assert response.status_code == 303
    assert response.headers["Location"] == "/t/1/players"
    page = soup(director.get("/"))
    assert "Saturday game" in page.find(id="tournaments").text


def test_htmx_create_answers_with_hx_redirect(director: Director, app: Flask) -> None:
    data = the_form(director)
    data["op"] = "create"
    response = director.client.post("/new", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert response.headers["HX-Redirect"] == "/t/1/players"


def test_htmx_editor_answers_the_form_partial(director: Director, app: Flask) -> None:
    data = the_form(director)
    rows = len(data.getlist("kind"))
    data["op"] = "add_break:0"
    with rendered(app) as names:
        response = director.client.post("/new", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert names[0] == "setup/_form.html"
    form = soup(response).find("form", id="setup-form")
    kinds = form_fields(form).getlist("kind")
    assert len(kinds) == rows + 1 and kinds[1] == "break"


@pytest.mark.parametrize(
    ("op", "check"),
    [
        ("remove:0", lambda before, after: after == before[1:]),
        ("down:0", lambda before, after: after[0] == before[1] and after[1] == before[0]),
        ("up:1", lambda before, after: after[0] == before[1] and after[1] == before[0]),
        ("add_level:0", lambda before, after: len(after) == len(before) + 1),
    ],
)
def test_structure_editor_buttons(director: Director, op: str, check: Any) -> None:
    data = the_form(director)
    before = data.getlist("big_blind")
    data["op"] = op
    response = director.client.post("/new", data=data)
    assert response.status_code == 200
    after = form_fields(soup(response).find("form", id="setup-form")).getlist("big_blind")
    assert check(before, after)


def test_load_preset_fills_the_sit_and_go(director: Director) -> None:
    data = the_form(director)
    data["preset"] = "sng-1000-turbo"
    data["op"] = "load_preset"
    response = director.client.post("/new", data=data)
    form = form_fields(soup(response).find("form", id="setup-form"))
    assert form["starting_stack"] == "1000"
    assert form["counted_by"] == "hands"
    assert form["hand_cap"] == "120"
    assert form.getlist("big_blind")[:3] == ["20", "30", "50"]
    assert set(form.getlist("length")) == {"4"}


def test_falling_blinds_are_refused_with_the_engines_message(director: Director) -> None:
    data = the_form(director)
    big = data.getlist("big_blind")
    small = data.getlist("small_blind")
    big[2], small[2] = "100", "50"
    data.setlist("big_blind", big)
    data.setlist("small_blind", small)
    data["op"] = "create"
    response = director.client.post("/new", data=data)
    assert response.status_code == 422
    page = soup(response)
    problems = page.find(id="structure-problems").text
    assert "Level 3: the blinds (50/100) fall below level 2's" in problems
    assert "has-problem" in page.find_all("tr")[3]["class"]
    assert director.get("/api/tournaments").get_json()["tournaments"] == []


def test_a_cell_that_is_not_a_number_is_named(director: Director) -> None:
    data = the_form(director)
    big = data.getlist("big_blind")
    big[0] = "lots"
    data.setlist("big_blind", big)
    data["op"] = "create"
    response = director.client.post("/new", data=data)
    assert response.status_code == 422
    assert "Level 1: the big blind must be a whole number, not 'lots'." in soup(response).find(id="structure-problems").text


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "   ", "The tournament name is empty"),
        ("starting_stack", "-500", "The starting stack cannot be negative"),
        ("percentages", "50/30", "add up to 80%"),
        ("rebuy_levels", "two", "must be a whole number"),
    ],
)
def test_invalid_settings_rerender_the_form_with_the_message(
    director: Director, field: str, value: str, message: str
) -> None:
    data = the_form(director)
    data[field] = value
    if field == "percentages":
        data["payout_kind"] = "custom"
    data["op"] = "create"
    response = director.client.post("/new", data=data)
    assert response.status_code == 422
    assert message in soup(response).find("form", id="setup-form").text


def test_the_starting_stack_is_broken_down_into_chips(director: Director) -> None:
    page = soup(director.get("/new"))
    text = page.find(id="stack-breakdown").text
    assert text.endswith("chips = 10,000 per player")
    data = the_form(director)
    data["starting_stack"] = "10010"
    data["op"] = "add_level:0"
    response = director.client.post("/new", data=data)
    assert response.status_code == 200  # a warning, not a refusal: the host may have other chips
    warnings = soup(response).find(class_="warnings").text
    assert "10,010 cannot be made with chips of 25 and up" in warnings


def test_loading_a_structure_brings_the_rebuy_and_add_on_chips_to_its_stack(director: Director) -> None:
    """Rebuy and add-on chips that followed the old starting stack follow the new one; chosen ones stay."""
    data = the_form(director)
    assert data["rebuy_chips"] == data["addon_chips"] == "10000"
    data["preset"] = "sng-1000-turbo"
    data["op"] = "load_preset"
    form = form_fields(soup(director.client.post("/new", data=data)).find("form", id="setup-form"))
    assert (form["starting_stack"], form["rebuy_chips"], form["addon_chips"]) == ("1000", "1000", "1000")

    data = the_form(director)
    data["addon_chips"] = "5000"
    data["preset"] = "sng-2000"
    data["op"] = "load_preset"
    form = form_fields(soup(director.client.post("/new", data=data)).find("form", id="setup-form"))
    assert (form["rebuy_chips"], form["addon_chips"]) == ("2000", "5000")


def test_a_rebuy_with_other_chips_than_the_stack_is_pointed_out(director: Director) -> None:
    data = the_form(director)
    for key, value in {"rebuy_levels": "3", "rebuy_chips": "1000", "addon_level": "0", "addon_chips": "500", "op": "remove:1"}.items():
        data[key] = value
    warnings = soup(director.client.post("/new", data=data)).find("ul", class_="warnings").text
    assert "A rebuy gives 1,000 chips; the starting stack is 10,000." in warnings
    assert "add-on" not in warnings  # no add-on in this tournament


def test_the_structure_is_checked_as_cells_change(director: Director) -> None:
    """The check block posts the form with op=check on each change and is swapped alone; a
    hand-counted structure offers no break, since breaks are timed."""
    page = soup(director.get("/new"))
    checker = page.find(id="structure-checker")
    assert checker["hx-trigger"].startswith("change from:#setup-form") and checker["hx-target"] == "#structure-check"
    assert page.find("select", attrs={"name": "preset"})["hx-vals"] == '{"op": "load_preset"}'

    data = the_form(director)
    big, small = data.getlist("big_blind"), data.getlist("small_blind")
    big[2], small[2] = "100", "50"
    data.setlist("big_blind", big)
    data.setlist("small_blind", small)
    data["op"] = "check"
    response = director.client.post("/new", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    checked = soup(response).find(id="structure-check")
    assert "Level 3: the blinds (50/100) fall below level 2's" in checked.text

    data = the_form(director)
    data["preset"], data["op"] = "sng-1000-turbo", "load_preset"
    form = soup(director.client.post("/new", data=data)).find("form", id="setup-form")
    assert not [b for b in form.find_all("button") if str(b.get("value", "")).startswith("add_break")]


def test_an_edited_preset_keeps_its_name_with_edited(director: Director) -> None:
    """A loaded structure keeps its name; once a row is added or a cell changed, the name
    says "(edited)" rather than "Custom"."""
    data = the_form(director)
    data["op"] = "add_level:0"
    edited = form_fields(soup(director.client.post("/new", data=data)).find("form", id="setup-form"))
    edited["op"], edited["name"] = "create", "Added a level"
    assert director.client.post("/new", data=edited).status_code == 303
    data = the_form(director)
    lengths = data.getlist("length")
    lengths[0] = "20"
    data.setlist("length", lengths)
    data["op"], data["name"] = "create", "Longer first level"
    assert director.client.post("/new", data=data).status_code == 303
    data = the_form(director)
    data["op"], data["name"] = "create", "As loaded"
    assert director.client.post("/new", data=data).status_code == 303
    names = {
        t["name"]: director.api("GET", f"/api/t/{t['id']}").get_json()
        for t in director.api("GET", "/api/tournaments").get_json()["tournaments"]
    }
    headers = {name: soup(director.get(f"/t/{info['id']}")).select_one(".hero .muted").text for name, info in names.items()}
    assert headers == {
        "Added a level": "Home, 2–3 hours, 10,000 chips (edited) · 9-seat tables",
        "Longer first level": "Home, 2–3 hours, 10,000 chips (edited) · 9-seat tables",
        "As loaded": "Home, 2–3 hours, 10,000 chips · 9-seat tables",
    }
