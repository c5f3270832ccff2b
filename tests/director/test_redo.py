"""Redo after undo (issue "The table's accidents", part 5): "undo several steps, then redo
them, until a new entry makes the redo stack empty (as The Tournament Director 3 and MTT do)";
"a redo with nothing to redo" is "a clear sentence, nothing recorded"."""

from __future__ import annotations

from tests.director.conftest import Director, new_tournament, seq, soup


def players_of(director: Director, tid: int) -> dict[str, str]:
    return {p["name"]: p["status"] for p in director.api("GET", f"/api/t/{tid}").get_json()["players"]}


def test_undo_two_busts_then_redo_them_in_order(director: Director):
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee"], start=True)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 4, "by": 1})
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3, "by": 1})
    director.api("POST", f"/api/t/{tid}/undo", {})
    director.api("POST", f"/api/t/{tid}/undo", {})
    assert players_of(director, tid) == {"Ann": "in", "Bob": "in", "Cy": "in", "Dee": "in"}
    first = director.api("POST", f"/api/t/{tid}/redo", {})
    assert first.status_code == 201
    assert players_of(director, tid)["Dee"] == "out" and players_of(director, tid)["Cy"] == "in"
    director.api("POST", f"/api/t/{tid}/redo", {})
    state = director.api("GET", f"/api/t/{tid}").get_json()
    places = {p["name"]: p["place"] for p in state["players"]}
    assert places["Dee"] == 4 and places["Cy"] == 3
    nothing = director.api("POST", f"/api/t/{tid}/redo", {})
    assert nothing.status_code == 422
    assert nothing.get_json()["error"] == "There is nothing to redo: redo follows an undo, before anything new is entered."


def test_a_new_entry_empties_the_redo_stack(director: Director):
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3, "by": 1})
    director.api("POST", f"/api/t/{tid}/undo", {})
    director.api("POST", f"/api/t/{tid}/clock/pause", {})
    before = seq(director, tid)
    refused = director.api("POST", f"/api/t/{tid}/redo", {})
    assert refused.status_code == 422 and seq(director, tid) == before


def test_the_dashboard_offers_redo_and_the_log_says_it(director: Director):
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3, "by": 1})
    director.api("POST", f"/api/t/{tid}/undo", {})
    form = soup(director.get(f"/t/{tid}")).find(id="redo-form")
    assert form is not None and "Redo “" in form.get_text()
    response = director.post(f"/t/{tid}/redo", {"expected_seq": str(seq(director, tid))})
    assert response.status_code in (200, 303)
    assert players_of(director, tid)["Cy"] == "out"
    assert soup(director.get(f"/t/{tid}")).find(id="redo-form") is None
    log = soup(director.get(f"/t/{tid}/log")).get_text(" ", strip=True)
    assert "Redo: " in log


def test_redo_survives_a_restart(director: Director, app):
    from director.core.store import cache

    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3, "by": 1})
    director.api("POST", f"/api/t/{tid}/undo", {})
    cache.clear()  # as after a restart: the state is folded again from the stored events
    assert director.api("POST", f"/api/t/{tid}/redo", {}).status_code == 201
    assert players_of(director, tid)["Cy"] == "out"
