"""Payouts as clubs run them, on the pages and the API (issue "Money for the night", part 2):
the fee, the guarantee and its overlay, fixed prizes, the smallest prize, the lock at the money;
a bad value is "a clear sentence, nothing recorded"."""

from __future__ import annotations

from tests.director.conftest import Director, new_tournament, seq, soup
from tests.director.test_chipsets import setup_form


def test_a_club_night_through_the_api_shows_the_fee_and_the_overlay(director: Director):
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee", "Eve"], buy_in=55, fee_amount=5, guarantee=300,
                         payout_kind="custom", percentages="60/40", fixed_prizes="3=20")
    state = director.api("GET", f"/api/t/{tid}").get_json()
    assert state["prize_pool"] == 300  # 5 × 50 after the fees, topped up to the guarantee
    assert [p["prize"] for p in state["payouts"]] == [168, 112, 20]
    page = soup(director.get(f"/t/{tid}"))
    lines = page.find(id="pool-lines").get_text()
    assert lines == "275 paid in · 25 in fees · 50 added to reach the guarantee of 300 · prize pool 300"
    results = director.api("GET", f"/api/t/{tid}/export").get_json()["results"]
    assert (results["fees"], results["overlay"], results["prize_pool"]) == (25, 50, 300)
    sheet = soup(director.get(f"/t/{tid}/results")).get_text(" ", strip=True)
    assert "Fees kept 25" in sheet and "Overlay 50" in sheet


def test_bad_club_payouts_are_refused_in_words_and_nothing_is_recorded(director: Director):
    for body, words in (
        ({"fee_percent": 120}, "must be at most 100"),
        ({"fee_percent": "150%"}, "A fee of 150% is not possible"),
        ({"guarantee": -1}, "must be at least 0"),
        ({"fee_amount": 30, "buy_in": 20}, "The fee of 30 is more than the buy-in of 20."),
        ({"fixed_prizes": "4 to 50"}, "Write each fixed prize as place=amount"),
    ):
        response = director.api("POST", "/api/tournaments", {"name": "Bad", **body})
        assert response.status_code == 422, body
        assert words in response.get_json()["error"], response.get_json()
    assert director.api("GET", "/api/tournaments").get_json()["tournaments"] == []


def test_the_settings_page_changes_the_club_payouts_and_refuses_a_fee_over_the_whole(director: Director):
    tid = new_tournament(director, ["Ann", "Bob"], buy_in=50)
    form = soup(director.get(f"/t/{tid}/settings")).find("form", id="settings-form")
    data = {i["name"]: i.get("value", "") for i in form.find_all("input") if i.get("name") and i.get("type") != "checkbox"}
    data.update({"fee_percent": "10", "guarantee": "500", "fixed_prizes": "3=25", "lock_payouts": "on"})
    response = director.post(f"/t/{tid}/settings", data)
    assert response.status_code in (200, 303), soup(response).find(class_="flash-error")
    settings = director.api("GET", f"/api/t/{tid}").get_json()
    assert settings["prize_pool"] == 500
    log = director.api("GET", f"/api/t/{tid}/events").get_json()["events"][-1]
    assert log["type"] == "settings_changed"
    assert log["payload"] == {"fee_percent": "10", "guarantee": 500, "fixed_prizes": "3=25", "lock_payouts": True}
    before = seq(director, tid)
    data.update({"fee_percent": "120", "expected_seq": str(before)})
    refused = director.post(f"/t/{tid}/settings", data)
    assert refused.status_code == 422
    assert "A fee of 120% is not possible" in soup(refused).find(class_="flash-error").get_text()
    assert seq(director, tid) == before


def test_the_new_tournament_page_takes_the_club_payouts(director: Director):
    page = soup(director.get("/new"))
    form = page.find("form", id="setup-form")
    for name in ("fee_amount", "fee_percent", "guarantee", "fixed_prizes", "min_prize_buy_in", "lock_payouts"):
        assert form.find(attrs={"name": name}) is not None, name
    data = setup_form(director)
    data.update({"guarantee": ["1000"], "min_prize_buy_in": ["on"], "op": ["create"]})
    response = director.post("/new", data)
    assert response.status_code == 303
    tid = int(response.headers["Location"].split("/t/")[1].split("/")[0])
    state = director.api("GET", f"/api/t/{tid}").get_json()
    assert state["prize_pool"] == 1000
