"""The players page: registration, remembered names, late registration, rebuys and add-ons."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.director.conftest import Director, csrf_token, new_tournament, rendered, seq, soup


def names_on(response: object) -> list[str]:
    table = soup(response).find(id="players-table")
    return [row.find("strong").text for row in table.find("tbody").find_all("tr")]


def test_players_page_is_readable_without_login_but_has_no_controls(client: FlaskClient, director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"])
    director.post("/auth/logout")
    response = client.get(f"/t/{tid}/players")
    assert response.status_code == 200
    assert names_on(response) == ["Ann", "Bob"]
    assert soup(response).find(id="register-form") is None


def test_register_plain_post_redirects_and_htmx_gets_the_partial(director: Director, app: Flask) -> None:
    tid = new_tournament(director)
    response = director.post(f"/t/{tid}/players", {"name": "  Ann  ", "expected_seq": 1})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/t/{tid}/players"
    with rendered(app) as names:
        response = director.post(f"/t/{tid}/players", {"name": "Bob", "expected_seq": 2}, htmx=True)
    assert response.status_code == 200
    assert names == ["players/_panel.html"]
    assert response.headers["HX-Trigger"] == "tournament-changed"
    assert names_on(response) == ["Ann", "Bob"]
    assert "Bob registered." in soup(response).find(class_="flash-ok").text


def test_register_refuses_empty_and_duplicate_names_with_422(director: Director) -> None:
    tid = new_tournament(director, ["Ann"])
    response = director.post(f"/t/{tid}/players", {"name": "   "}, htmx=True)
    assert response.status_code == 422
    assert "The name is empty" in soup(response).find(class_="flash-error").text
    response = director.post(f"/t/{tid}/players", {"name": "ANN"})
    assert response.status_code == 422
    assert "Ann is already registered" in soup(response).find(class_="flash-error").text
    assert soup(response).find("input", attrs={"name": "name"})["value"] == "ANN"


def test_register_needs_login(client: FlaskClient, director: Director) -> None:
    tid = new_tournament(director)
    director.post("/auth/logout")
    token = csrf_token(client)
    response = client.post(f"/t/{tid}/players", data={"name": "Ann", "csrf_token": token})
    assert response.status_code == 302
    assert "/auth/login" in response.headers["Location"]


def test_names_from_earlier_tournaments_are_offered(director: Director) -> None:
    new_tournament(director, ["Ann", "Bob"])
    tid = new_tournament(director, ["Bob"])
    page = soup(director.get(f"/t/{tid}/players"))
    offered = [o["value"] for o in page.find(id="known-names").find_all("option")]
    assert offered == ["Ann"]  # Bob is already in


def test_registration_closes_when_the_clock_starts(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], start=True)
    page = soup(director.get(f"/t/{tid}/players"))
    assert page.find(id="register-form") is None
    response = director.post(f"/t/{tid}/players", {"name": "Cy"})
    assert response.status_code == 422
    assert "Registration closed when the clock started" in soup(response).find(class_="flash-error").text


def test_late_registration_gets_a_seat_after_the_draw(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], late_registration_levels=2)
    assert director.api("POST", f"/api/t/{tid}/seats/draw", {}).status_code == 201
    director.api("POST", f"/api/t/{tid}/clock/start", {})
    response = director.post(f"/t/{tid}/players", {"name": "Dee"}, htmx=True)
    assert response.status_code == 200
    state = director.api("GET", f"/api/t/{tid}").get_json()
    dee = next(p for p in state["players"] if p["name"] == "Dee")
    assert dee["table"] == 1 and dee["seat"] is not None


def test_rebuy_and_addon_with_one_tap(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True, rebuy_levels=2, addon_level=1, addon_chips=5000)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3})
    page = soup(director.get(f"/t/{tid}/players"))
    buttons = [b.text for b in page.find(id="players-table").find_all("button")]
    assert "Rebuy" in buttons and "Add-on" in buttons
    response = director.post(f"/t/{tid}/players/3/rebuy", {"expected_seq": seq(director, tid)}, htmx=True)
    assert response.status_code == 200
    response = director.post(f"/t/{tid}/players/1/addon", {"expected_seq": seq(director, tid)})
    assert response.status_code == 303
    state = director.api("GET", f"/api/t/{tid}").get_json()
    assert (state["rebuys"], state["addons"], state["players_left"]) == (1, 1, 3)
    response = director.post(f"/t/{tid}/players/1/addon", {"expected_seq": seq(director, tid)}, htmx=True)
    assert response.status_code == 422
    assert "Ann has already taken the add-on." in soup(response).find(class_="flash-error").text


def test_the_seat_draw_from_the_players_page(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob", "Cy"])
    response = director.post(f"/t/{tid}/seats/draw", {"expected_seq": seq(director, tid)})
    assert response.status_code == 303
    state = director.api("GET", f"/api/t/{tid}").get_json()
    assert all(p["table"] == 1 for p in state["players"])
    assert sorted(p["seat"] for p in state["players"]) == sorted({p["seat"] for p in state["players"]})


def test_unknown_tournament_players_page_is_404(client: FlaskClient) -> None:
    assert client.get("/t/42/players").status_code == 404


def test_remove_a_player_registered_by_mistake(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob", "Cy"])
    page = soup(director.get(f"/t/{tid}/players"))
    assert page.find("button", string="Confirm: remove Bob") is not None
    response = director.post(f"/t/{tid}/players/2/remove", {"expected_seq": seq(director, tid)}, htmx=True)
    assert response.status_code == 200
    assert names_on(response) == ["Ann", "Cy"]
    director.api("POST", f"/api/t/{tid}/clock/start", {})
    page = soup(director.get(f"/t/{tid}/players"))
    assert page.find("summary", string="Remove") is None
    response = director.api("POST", f"/api/t/{tid}/players/3/remove", {})
    assert response.status_code == 422
    assert "Cy cannot be removed any more, only knocked out" in response.get_json()["error"]


def test_an_empty_tournament_shows_no_bare_table_heads(director: Director) -> None:
    """Before anyone registers, the page says so instead of showing column heads over nothing."""
    tid = new_tournament(director)
    page = soup(director.get(f"/t/{tid}/players"))
    assert page.find(id="players-table").has_attr("hidden")
    assert "Nobody registered yet." in page.text
    director.post(f"/t/{tid}/players", {"name": "Ann", "expected_seq": 1})
    assert not soup(director.get(f"/t/{tid}/players")).find(id="players-table").has_attr("hidden")


def test_the_seat_draw_is_offered_before_the_clock(director: Director) -> None:
    """Until the seats are drawn, the draw is the main button and the page says to do it first."""
    tid = new_tournament(director, ["Ann", "Bob", "Cy"])
    page = soup(director.get(f"/t/{tid}/players"))
    primary = page.select("#players-panel .actions .btn-primary")
    assert [b.get_text(strip=True) for b in primary] in (["Draw seats…"], ["Draw seats"])
    assert "Draw the seats first" in page.text
    director.api("POST", f"/api/t/{tid}/seats/draw", {})
    page = soup(director.get(f"/t/{tid}/players"))
    assert [b.get_text(strip=True) for b in page.select("#players-panel .actions .btn-primary")] == ["Go to the clock"]
