"""The final table's deal on the pages and the API (issue "Money for the night", part 3): "a
deal page when two or more players are left: ICM, chip-chop, equal split and custom (with a
check that the sum is the pool left), optionally leaving an amount and the trophy to play
for [...] the accepted deal is an event (undo takes it back), results and exports show it,
the tournament continues for what is left or ends"."""

from __future__ import annotations

from tests.director.conftest import Director, new_tournament, seq, soup


def final_three(director: Director) -> int:
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee", "Eve"], start=True, buy_in=100,
                         payout_kind="custom", percentages="50/30/20")
    for player in (5, 4):
        assert director.api("POST", f"/api/t/{tid}/bust", {"player": player}).status_code == 201
    return tid


def test_the_figures_of_every_method_side_by_side(director: Director):
    tid = final_three(director)
    response = director.api("POST", f"/api/t/{tid}/deal/figures", {"stacks": {"1": 30000, "2": 15000, "3": 5000}})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["prizes_left"] == [250, 150, 100] and body["shared"] == 500
    assert set(body["methods"]) == {"icm", "chip_chop", "chop_lowest", "equal"}
    for method in body["methods"].values():
        assert sum(method["amounts"].values()) == 500
    assert body["methods"]["equal"]["amounts"] == {"1": 167, "2": 167, "3": 166}
    # TDA 7.3: "Warn when a proportional chop gives the chip leader more than 1st prize"
    assert any("Ann would get 300.00, more than the first prize of 250" in w for w in body["methods"]["chip_chop"]["warnings"])
    missing = director.api("POST", f"/api/t/{tid}/deal/figures", {"stacks": {"1": 30000}})
    assert missing.status_code == 422
    assert missing.get_json()["error"] == "Type the chips of Bob, Cy: the app does not keep the stacks at their table."


def test_an_accepted_deal_pays_the_players_ends_the_night_and_undo_takes_it_back(director: Director):
    tid = final_three(director)
    stacks = {"1": 30000, "2": 15000, "3": 5000}
    icm = director.api("POST", f"/api/t/{tid}/deal/figures", {"stacks": stacks}).get_json()["methods"]["icm"]["amounts"]
    response = director.api("POST", f"/api/t/{tid}/deal", {"method": "icm", "stacks": stacks})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["notice"].startswith("Deal made (ICM): Ann ")
    assert body["players_left"] == 0 or all(p["place"] for p in body["players"])  # ranked by chips: over
    prizes = {p["name"]: p["prize"] for p in body["players"]}
    assert prizes["Ann"] == icm["1"] and prizes["Bob"] == icm["2"] and prizes["Cy"] == icm["3"]
    assert sum(v for v in prizes.values() if v) == 500
    results = director.api("GET", f"/api/t/{tid}/export").get_json()["results"]
    assert results["deal"]["method"] == "icm" and results["finished"]
    sheet = soup(director.get(f"/t/{tid}/results")).find(id="results-deal").get_text()
    assert sheet.startswith("Ann ")
    assert director.api("POST", f"/api/t/{tid}/undo", {}).status_code == 201
    assert director.api("GET", f"/api/t/{tid}/export").get_json()["results"]["deal"] is None


def test_a_custom_deal_must_add_up_and_nothing_is_recorded_otherwise(director: Director):
    tid = final_three(director)
    before = seq(director, tid)
    response = director.api("POST", f"/api/t/{tid}/deal", {
        "method": "custom", "stacks": {"1": 3, "2": 2, "3": 1}, "amounts": {"1": 300, "2": 150, "3": 40}})
    assert response.status_code == 422
    assert response.get_json()["error"] == ("The deal pays 490: the prizes still to be paid are 500. "
                                            "The figures must add up to it.")
    assert seq(director, tid) == before


def test_the_deal_page_works_out_the_figures_and_records_a_deal_that_plays_on(director: Director):
    tid = final_three(director)
    dashboard = soup(director.get(f"/t/{tid}"))
    assert dashboard.find("a", string="Make a deal…") is not None
    page = soup(director.get(f"/t/{tid}/deal"))
    assert page.find(id="deal-figures") is None  # the stacks are not known yet: typed first
    form = {"stack_1": "20000", "stack_2": "20000", "stack_3": "10000", "play_for": "50", "op": "figures",
            "expected_seq": str(seq(director, tid))}
    shown = soup(director.post(f"/t/{tid}/deal", form))
    table = shown.find(id="deal-figures")
    assert "(450 shared, 50 to play for)" in table.get_text(" ", strip=True)
    done = director.post(f"/t/{tid}/deal", {**form, "op": "accept:chip_chop"})
    assert done.status_code == 303
    state = director.api("GET", f"/api/t/{tid}").get_json()
    assert state["players_left"] == 3  # 50 left to play for: the night goes on
    line = soup(director.get(f"/t/{tid}")).find(id="deal-line").get_text()
    assert "50 left to play for" in line


def test_no_deal_page_before_the_final_table_makes_sense(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"], payout_kind="points")
    director.api("POST", f"/api/t/{tid}/clock/start", {})
    page = soup(director.get(f"/t/{tid}/deal"))
    assert page.find(id="deal-refusal").get_text() == "A league-points night has no prizes to share: there is no deal to make."
    response = director.api("POST", f"/api/t/{tid}/deal", {"method": "equal", "stacks": {"1": 5, "2": 5}})
    assert response.status_code == 422
