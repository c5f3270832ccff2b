"""The host's sheet (issue "Money for the night", part 4): "per player what they put in
(buy-in, rebuys, add-on, re-entries, fees) and what they took (prize, bounties, deal), and the
net; the totals balance to zero with the fee apart; a print page and CSV. League-points nights
show points instead."""

from __future__ import annotations

import csv
import io

from flask.testing import FlaskClient

from tests.director.conftest import Director, new_tournament, soup


def a_club_night(director: Director) -> int:
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee"], start=True, buy_in=50, fee_amount=5,
                         rebuy_levels=3, rebuy_cost=40, guarantee=250,
                         payout_kind="custom", percentages="70/30")
    director.api("POST", f"/api/t/{tid}/bust", {"player": 4, "by": 1})
    assert director.api("POST", f"/api/t/{tid}/players/4/rebuy", {}).status_code == 201
    director.api("POST", f"/api/t/{tid}/rebuys/close", {})
    for player in (4, 3, 2):
        assert director.api("POST", f"/api/t/{tid}/bust", {"player": player, "by": 1}).status_code == 201
    return tid


def test_the_sheet_balances_with_the_fees_and_the_overlay_apart(director: Director):
    tid = a_club_night(director)
    body = director.api("GET", f"/api/t/{tid}/sheet").get_json()
    rows = {r["name"]: r for r in body["players"]}
    assert (rows["Dee"]["paid_in"], rows["Dee"]["fees"]) == (90, 10)  # a buy-in and a rebuy, 5 kept of each
    assert (rows["Ann"]["paid_in"], rows["Ann"]["fees"]) == (50, 5)
    totals = body["totals"]
    assert totals["paid_in"] == 240 and totals["fees"] == 25
    assert totals["prize_pool"] == 250 and totals["overlay"] == 35  # 215 after the fees, guaranteed 250
    assert totals["took"] == 250 and totals["unpaid"] == 0 and totals["balance"] == 0
    assert rows["Ann"]["took"] == 175 and rows["Ann"]["net"] == 125
    assert sum(r["net"] for r in body["players"]) == -totals["fees"] + totals["overlay"]


def test_the_sheet_page_and_its_csv(director: Director):
    tid = a_club_night(director)
    page = soup(director.get(f"/t/{tid}/sheet"))
    lines = {row.th.get_text(strip=True): row.td.get_text(strip=True) for row in page.find(id="sheet-balance").find_all("tr")}
    assert lines == {"Buy-ins": "200", "Rebuys": "40", "Overlay added by the house": "35", "Total in": "275",
                     "Prizes taken": "250", "Fees kept by the house": "25", "Total out": "275"}
    assert "balances to the unit" in page.find(id="sheet-check").get_text()
    rows = list(csv.reader(io.StringIO(director.get(f"/t/{tid}/sheet.csv").get_data(as_text=True))))
    assert rows[0] == ["place", "name", "entries", "rebuys", "add-on", "paid in", "of which fees", "took", "net"]
    assert rows[1][:2] == ["1", "Ann"] and rows[1][-1] == "125"
    assert rows[-2][1] == "total" and rows[-2][5] == "240"
    assert soup(director.get(f"/t/{tid}/results")).find("a", string="The host's sheet") is not None


def test_a_points_night_shows_points_instead(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"], start=True, payout_kind="points")
    director.api("POST", f"/api/t/{tid}/bust", {"player": 2, "by": 1})
    body = director.api("GET", f"/api/t/{tid}/sheet").get_json()
    assert body["points"] and [r["points"] for r in body["players"]] == [10, 7]
    header = director.get(f"/t/{tid}/sheet.csv").get_data(as_text=True).splitlines()[0]
    assert header.endswith("points")


def test_the_sheet_is_the_directors(client: FlaskClient, director: Director):
    tid = new_tournament(director, ["Ann", "Bob"])
    director.post("/auth/logout")
    assert client.get(f"/t/{tid}/sheet").status_code == 302
    assert client.get(f"/api/t/{tid}/sheet").status_code == 401
