"""A tournament's life (issue "The night changes as it runs", part 5): "duplicate a tournament
(its settings and structure, no players); ... archive a finished tournament and delete one (a
confirmation that names it; a running tournament is archived, not silently deleted); the home
page keeps archived ones apart"."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.director.conftest import Director, csrf_token, new_tournament, soup


def home_names(director: Director) -> tuple[list[str], list[str]]:
    page = soup(director.get("/"))
    listed = [a.get_text(strip=True) for a in page.select(".tournament-item strong")]
    archived = [a.get_text(strip=True) for a in page.select("#archived .archived-item strong")]
    return listed, archived


def test_duplicate_copies_the_settings_and_the_structure_without_players(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"], buy_in=35, rebuy_levels=3, preset="home-long")
    director.api("POST", f"/api/t/{tid}/structure", {"edit": "all_levels", "item": 0, "minutes": 25})
    response = director.api("POST", f"/api/t/{tid}/duplicate", {})
    assert response.status_code == 201, response.get_json()
    copy = response.get_json()
    original = director.api("GET", f"/api/t/{tid}").get_json()
    assert copy["id"] != tid and copy["name"] == "Friday (copy)" and copy["players"] == []
    for key in ("buy_in", "rebuy_levels", "structure", "starting_stack", "table_size"):
        assert copy["settings"][key] == original["settings"][key]
    response = director.post(f"/t/{tid}/duplicate", {})
    assert response.status_code == 303 and "/settings" in response.headers["Location"]


def test_archive_keeps_it_apart_and_restore_brings_it_back(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    assert director.api("POST", f"/api/t/{tid}/archive", {}).status_code == 201
    assert home_names(director) == ([], ["Friday"])
    assert director.api("GET", f"/api/t/{tid}").status_code == 200  # still there, with its night
    director.post(f"/t/{tid}/restore", {})
    assert home_names(director) == (["Friday"], [])


def test_delete_needs_the_name_and_removes_everything(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    response = director.api("POST", f"/api/t/{tid}/delete", {"confirm": "Saturday"})
    assert response.status_code == 422 and response.get_json()["error"] == "To delete it, confirm with its name: 'Friday'."
    response = director.api("POST", f"/api/t/{tid}/delete", {"confirm": "Friday"})
    assert response.status_code == 201 and response.get_json()["notice"] == "Friday is deleted."
    assert director.api("GET", f"/api/t/{tid}").status_code == 404
    assert director.get(f"/t/{tid}").status_code == 404
    assert home_names(director) == ([], [])
    again = new_tournament(director, ["Cy", "Dee"])
    assert again != tid  # a deleted tournament's number is never given to another one


def test_a_running_tournament_is_archived_not_deleted(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"], start=True)
    page = soup(director.get(f"/t/{tid}/settings"))
    assert "It is being played: archive “Friday” instead" in page.find(id="tournament-life").get_text()
    response = director.api("POST", f"/api/t/{tid}/delete", {"confirm": "Friday"})
    assert response.status_code == 201
    assert response.get_json()["notice"].startswith("Friday is being played: it is archived, not deleted")
    assert director.api("GET", f"/api/t/{tid}").status_code == 200
    assert home_names(director) == ([], ["Friday"])


def test_the_lifecycle_needs_login(client: FlaskClient, director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    director.post("/auth/logout")
    token = csrf_token(client)
    for action in ("duplicate", "archive", "restore", "delete"):
        assert client.post(f"/t/{tid}/{action}", data={"csrf_token": token, "confirm": "Friday"}).status_code == 302
        response = client.post(f"/api/t/{tid}/{action}", json={"confirm": "Friday"}, headers={"X-CSRFToken": token})
        assert response.status_code == 401
