"""Results: places, prizes or points, eliminations, exports and the printable sheet."""

from __future__ import annotations

import csv
import io

from flask import Flask
from flask.testing import FlaskClient

from tests.director.conftest import Director, new_tournament, rendered, soup


def finished(director: Director, **settings: object) -> int:
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee"], start=True, buy_in=10, rebuy_levels=1, **settings)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 4, "by": 1})
    director.api("POST", f"/api/t/{tid}/players/4/rebuy", {})
    director.api("POST", f"/api/t/{tid}/clock/next_level", {})
    director.api("POST", f"/api/t/{tid}/bust", {"players": [3, 4], "stacks": {"3": 500, "4": 900}, "by": 2})
    director.api("POST", f"/api/t/{tid}/bust", {"player": 2, "by": 1})
    return tid


def test_results_page_lists_places_prizes_and_eliminations(client: FlaskClient, director: Director, app: Flask) -> None:
    tid = finished(director)
    director.post("/auth/logout")  # results are public
    with rendered(app) as names:
        response = client.get(f"/t/{tid}/results")
    assert names == ["results/show.html"]
    rows = [[c.get_text(strip=True) for c in r.find_all("td")] for r in soup(response).find(id="standings").find_all("tr")[1:]]
    assert rows == [
        ["1st", "Ann", "50", "", "", ""],
        ["2nd", "Bob", "", "Ann", "", ""],
        ["3rd", "Dee", "", "Bob", "1", ""],
        ["4th", "Cy", "", "Bob", "", ""],
    ]
    eliminations = [li.text for li in soup(response).find(class_="eliminations").find_all("li")]
    assert eliminations[0] == "Dee knocked out by Ann"


def test_results_partial_for_htmx(director: Director, app: Flask) -> None:
    tid = finished(director)
    with rendered(app) as names:
        director.get(f"/t/{tid}/results", headers={"HX-Request": "true"})
    assert names == ["results/_sheet.html"]


def test_csv_export(director: Director) -> None:
    tid = finished(director)
    response = director.get(f"/t/{tid}/results.csv")
    assert response.mimetype == "text/csv"
    assert 'filename="friday-results.csv"' in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == ["place", "name", "prize", "knocked out by", "rebuys", "add-on"]
    assert rows[1] == ["1", "Ann", "50", "", "0", ""]
    assert rows[3] == ["3", "Dee", "0", "Bob", "1", ""]


def test_json_export(director: Director) -> None:
    tid = finished(director)
    data = director.get(f"/t/{tid}/results.json").get_json()
    assert data["finished"] is True
    assert data["prize_pool"] == 50
    assert [r["name"] for r in data["standings"]] == ["Ann", "Bob", "Dee", "Cy"]
    assert data["rebuys"] == 1


def test_league_points_instead_of_prizes(director: Director) -> None:
    tid = finished(director, payout_kind="points", league_formula="field")
    data = director.get(f"/t/{tid}/results.json").get_json()
    assert [(r["name"], r["points"]) for r in data["standings"]] == [("Ann", 4), ("Bob", 3), ("Dee", 2), ("Cy", 1)]
    assert data["prize_pool"] is None


def test_printable_sheet(director: Director) -> None:
    tid = finished(director)
    page = soup(director.get(f"/t/{tid}/results/print"))
    assert page.find("h1").text == "Friday"
    assert page.find(id="standings") is not None
    assert page.find(class_="topbar") is None


def test_running_tournament_shows_places_so_far(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True)
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3})
    page = soup(director.get(f"/t/{tid}/results"))
    assert "still running" in page.text
    rows = [r.find("td").get_text(strip=True) for r in page.find(id="standings").find_all("tr")[1:]]
    assert rows[-1] == "3rd"


def test_the_final_results_name_the_winner(director: Director) -> None:
    tid = finished(director)
    assert "Final: Ann wins." in soup(director.get(f"/t/{tid}/results")).get_text(" ")
