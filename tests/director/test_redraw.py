"""Nothing wholesale by one tap: a new draw of every seat while hands run is refused; otherwise
the page asks, naming how many players move, and one undo takes it back."""

from __future__ import annotations

from tests.director.conftest import Director, new_tournament, soup

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]


def seats(director: Director, tid: int) -> dict[int, tuple[int, int]]:
    players = director.api("GET", f"/api/t/{tid}").get_json()["players"]
    return {p["id"]: (p["table"], p["seat"]) for p in players}


def test_a_redraw_while_hands_run_is_refused_with_a_sentence(director: Director) -> None:
    """"A full redraw while any hand runs is refused with a sentence ... Hands are running at
    tables 1 and 3: a new draw would take every seat away mid-hand. Finish them first."" Both
    ways in: ``seats/draw`` and ``tables/draw``."""
    tid = new_tournament(director, NAMES, start=True)
    assert director.api("POST", f"/api/t/{tid}/tables/draw", {"table_size": 6}).status_code == 201
    before = seats(director, tid)
    assert director.api("POST", f"/api/t/{tid}/table/1/deal", {}).status_code == 201
    for path in (f"/api/t/{tid}/seats/draw", f"/api/t/{tid}/tables/draw"):
        refused = director.api("POST", path, {})
        assert refused.status_code == 422, path
        assert refused.get_json()["error"] == ("A hand is running at table 1: a new draw would take every seat "
                                               "away mid-hand. Finish it first.")
    assert director.api("POST", f"/api/t/{tid}/table/2/deal", {}).status_code == 201
    refused = director.api("POST", f"/api/t/{tid}/seats/draw", {})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == ("Hands are running at tables 1 and 2: a new draw would take every seat "
                                           "away mid-hand. Finish them first.")
    assert seats(director, tid) == before
    page = director.post(f"/t/{tid}/tables/draw", {"table_size": "6"}, htmx=True)
    assert "Hands are running at tables 1 and 2" in soup(page).get_text(" ", strip=True)
    assert seats(director, tid) == before


def test_the_first_draw_asks_nothing_a_redraw_names_the_players_who_move_and_undo_takes_it_back(
        director: Director) -> None:
    """"while none runs, the page asks for confirmation naming how many players move ... and one
    undo takes it back. The first draw (no seats yet) is not a redraw and needs no confirmation.\""""
    tid = new_tournament(director, NAMES[:7], start=True)
    form = soup(director.get(f"/t/{tid}/tables")).select_one("form[hx-post$='/draw']")
    assert form is not None and not form.has_attr("hx-confirm")
    assert director.api("POST", f"/api/t/{tid}/seats/draw", {}).status_code == 201
    drawn = seats(director, tid)
    form = soup(director.get(f"/t/{tid}/tables")).select_one("form[hx-post$='/draw']")
    assert form is not None
    assert form["hx-confirm"].startswith("Draw every seat again? 7 players move to new seats drawn at random")
    again = director.api("POST", f"/api/t/{tid}/seats/draw", {})
    assert again.status_code == 201  # no hand runs: the director confirmed
    assert director.api("POST", f"/api/t/{tid}/undo", {}).status_code == 201
    assert seats(director, tid) == drawn  # one undo: every seat as it was
