"""The colour-up, guided (issue "The night changes as it runs", part 7; TDA 52-53; seed 002:
"the break is also when the smallest chips are exchanged for bigger ones"): at a colour-up
break the dashboard shows the chips to remove, deals the race, says who wins the race chips,
and the result goes into the stacks: the chips in play change by exactly the rounding."""

from __future__ import annotations

from flask import Flask

from engine.structure import Break, Level, Structure, structure_to_dict
from tests.director.conftest import Director, new_tournament, seq, soup

T0 = 1_000_000.0
STRUCTURE = Structure(
    "colour", (Level(25, 50, minutes=10), Break(10, (25,)), Level(100, 200, minutes=10)), 10_000,
    denominations=(25, 100, 500),
)


def state(director: Director, tid: int) -> dict:  # type: ignore[type-arg]
    return director.api("GET", f"/api/t/{tid}").get_json()


def at_the_break(director: Director, app: Flask) -> int:
    clock = {"t": T0}
    app.config["NOW"] = lambda: clock["t"]
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], structure=structure_to_dict(STRUCTURE))
    assert director.api("POST", f"/api/t/{tid}/tables/draw", {"table_size": 6}).status_code == 201
    director.api("POST", f"/api/t/{tid}/clock/start", {})
    clock["t"] += 11 * 60  # the break after level 1
    return tid


def test_the_dashboard_shows_the_colour_up_and_records_the_race_into_the_stacks(director: Director, app: Flask):
    tid = at_the_break(director, app)
    page = soup(director.get(f"/t/{tid}"))
    card = page.find(id="colour-up")
    assert card is not None and "The 25 chips become 100 chips." in card.get_text()
    names = {p["id"]: p["name"] for p in state(director, tid)["players"]}
    dealer = soup(director.get(f"/t/{tid}/table/1")).find(class_="dl-colour").get_text(" ", strip=True)
    assert dealer == "Colour-up at this break: the 25 chips become 100 chips; the director runs the race from the dashboard."
    counted = {"stack_1": "10025", "stack_2": "9950", "stack_3": "10025"}
    response = director.post(f"/t/{tid}/colour-up", {"expected_seq": seq(director, tid), "table": "1", **counted},
                             htmx=True)
    assert response.status_code == 200, response.get_data(as_text=True)
    notice = soup(response).find(class_="flash-ok").get_text()
    assert notice.startswith("Table 1 is coloured up. Seat ") and "Chips in play stay the same" in notice
    lines = [li.get_text() for li in soup(response).select("#colour-up .colour-lines li")]
    assert any(" wins a 100 chip with the " in line for line in lines)
    assert state(director, tid)["chips_in_play"] == 30_000
    dealer = soup(director.get(f"/t/{tid}/table/1")).find(class_="dl-colour").get_text(" ", strip=True)
    assert " wins a 100 chip with the " in dealer  # each table's page shows its race
    log = director.api("GET", f"/api/t/{tid}/events").get_json()["events"][-1]
    assert log["type"] == "colour_up" and isinstance(log["payload"]["seed"], int)
    assert names  # the players' names are on the page's form above


def test_a_race_changes_the_chips_in_play_by_exactly_the_rounding(director: Director, app: Flask):
    tid = at_the_break(director, app)
    # Two odd 25s (50) are raced for one 100 (rounded half up): chips in play rise by 50.
    stacks = {"1": 10_025, "2": 10_025, "3": 10_000}
    response = director.api("POST", f"/api/t/{tid}/colour-up", {"table": 1, "stacks": stacks})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["chips_in_play"] == 30_000 + 50
    assert "Chips in play rise by 50: 30,050 before, 30,100 after." in body["notice"]
    again = director.api("POST", f"/api/t/{tid}/colour-up", {"table": 1, "stacks": stacks})
    assert again.status_code == 422 and again.get_json()["error"] == "Table 1 has already coloured up at this break."


def test_no_colour_up_outside_its_break(director: Director, app: Flask):
    app.config["NOW"] = lambda: T0
    tid = new_tournament(director, ["Ann", "Bob"], structure=structure_to_dict(STRUCTURE), start=True)
    director.api("POST", f"/api/t/{tid}/tables/draw", {"table_size": 6})
    assert soup(director.get(f"/t/{tid}")).find(id="colour-up") is None
    response = director.api("POST", f"/api/t/{tid}/colour-up", {"table": 1, "stacks": {"1": 10_000, "2": 10_000}})
    assert response.status_code == 422 and response.get_json()["error"] == "The chips are coloured up at a break: it is not the break."
