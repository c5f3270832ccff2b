"""The host's templates (issue "The night changes as it runs", part 5): "save a structure, and
a whole set of settings, as a named template of the host's and start from it"; "a template
with a name already taken" is refused with a clear sentence."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.director.conftest import Director, csrf_token, new_tournament, soup


def test_save_a_template_and_start_a_new_tournament_from_it(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"], buy_in=35, rebuy_levels=3, preset="home-long")
    director.api("POST", f"/api/t/{tid}/structure", {"edit": "all_levels", "item": 0, "minutes": 25})
    response = director.api("POST", f"/api/t/{tid}/template", {"name": "Club Friday"})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["notice"].startswith("Saved as the template 'Club Friday'")
    saved = director.api("GET", "/api/templates").get_json()["templates"]
    assert [t["name"] for t in saved] == ["Club Friday"]
    assert saved[0]["settings"]["buy_in"] == 35 and "name" not in saved[0]["settings"]
    page = soup(director.get("/new"))
    option = page.find("option", string="Club Friday")
    assert option is not None
    loaded = director.post("/new", {"op": "load_preset", "preset": option["value"], "name": "Next Friday"}, htmx=True)
    form = soup(loaded)
    assert form.find("input", attrs={"name": "name"})["value"] == "Next Friday"
    assert form.find("input", attrs={"name": "buy_in"})["value"] == "35"
    assert form.find("input", attrs={"name": "rebuy_levels"})["value"] == "3"
    lengths = {i["value"] for i in form.select("table.structure input[name=length]")}
    assert "25" in lengths


def test_a_template_name_already_taken_is_refused(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    assert director.api("POST", f"/api/t/{tid}/template", {"name": "Home"}).status_code == 201
    response = director.api("POST", f"/api/t/{tid}/template", {"name": "home"})
    assert response.status_code == 422
    assert response.get_json()["error"] == "A template named 'Home' already exists: choose another name."
    page = director.post(f"/t/{tid}/template", {"name": "Home"})
    assert page.status_code == 422 and "already exists" in page.get_data(as_text=True)


def test_templates_need_login_to_save(client: FlaskClient, director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    director.post("/auth/logout")
    token = csrf_token(client)
    assert client.post(f"/t/{tid}/template", data={"csrf_token": token, "name": "X"}).status_code == 302
    response = client.post(f"/api/t/{tid}/template", json={"name": "X"}, headers={"X-CSRFToken": token})
    assert response.status_code == 401
