"""Bounties on the pages and the API (issue "Money for the night", part 1): "Results, the
player's page, the TV ("Bounty on Ann: 35") and the exports show bounties won and on heads";
chosen at setup "and editable until the first knockout"."""

from __future__ import annotations

import csv
import io

from flask import Flask

from director.tables.views import player_tokens
from tests.director.conftest import Director, new_tournament, soup
from tests.director.test_seating_pages import state_of


def pko_night(director: Director) -> int:
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee"], buy_in=50, bounty_kind="progressive", bounty=20)
    assert director.api("POST", f"/api/t/{tid}/tables/draw", {"table_size": 6}).status_code == 201
    assert director.api("POST", f"/api/t/{tid}/clock/start", {}).status_code == 201
    assert director.api("POST", f"/api/t/{tid}/bust", {"player": 2, "by": 1}).status_code == 201
    return tid


def test_the_dashboard_shows_each_head_and_the_bounties_won(director: Director):
    tid = pko_night(director)
    page = soup(director.get(f"/t/{tid}"))
    ann = page.find(id="player-1").get_text(" ", strip=True)
    assert "bounty 30" in ann and "won 10" in ann
    assert "bounty 20" in page.find(id="player-3").get_text(" ", strip=True)
    state = director.api("GET", f"/api/t/{tid}").get_json()
    assert state["prize_pool"] == 4 * 30  # the bounties are apart from the prize pool


def test_the_tv_shows_the_biggest_bounty(director: Director):
    tid = pko_night(director)
    tv = soup(director.get(f"/t/{tid}/tv")).get_text(" ", strip=True)
    assert "Bounty on Ann 30" in tv


def test_the_players_page_shows_his_head(app: Flask, director: Director):
    tid = pko_night(director)
    tokens = player_tokens(state_of(app, tid))
    page = soup(director.get(f"/p/{tokens[1]}")).find(class_="player-bounty").get_text(" ", strip=True)
    assert page == "Bounty on your head: 30 · bounties won: 10"


def test_results_and_exports_show_the_bounties_won(director: Director):
    tid = pko_night(director)
    for player in (3, 4):
        director.api("POST", f"/api/t/{tid}/bust", {"player": player, "by": 1})
    results = director.api("GET", f"/api/t/{tid}/export").get_json()["results"]
    won = {r["name"]: r["bounties"] for r in results["standings"]}
    assert won == {"Ann": 80, "Bob": 0, "Cy": 0, "Dee": 0}  # the winner also collects his own head
    rows = list(csv.reader(io.StringIO(director.get(f"/t/{tid}/results.csv").get_data(as_text=True))))
    assert rows[0][-1] == "bounties" and rows[1][1] == "Ann" and rows[1][-1] == "80"
    sheet = director.api("GET", f"/api/t/{tid}/sheet").get_json()
    assert sheet["totals"]["balance"] == 0 and sheet["totals"]["unpaid"] == 0


def test_the_bounty_is_refused_above_the_buy_in_and_fixed_after_the_first_knockout(director: Director):
    response = director.api("POST", "/api/tournaments", {"name": "KO", "buy_in": 20, "bounty_kind": "knockout", "bounty": 25})
    assert response.status_code == 422
    assert response.get_json()["error"] == "The bounty of 25 is more than the buy-in of 20."
    tid = pko_night(director)
    refused = director.api("POST", f"/api/t/{tid}/settings", {"bounty": 25})
    assert refused.status_code == 422
    assert "the bounties cannot change now" in refused.get_json()["error"]


# --- several eliminators, mystery bounties --------------------------------------------------------


def test_the_api_takes_several_eliminators_who_split_the_bounty(director: Director):
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee"], start=True, buy_in=50, bounty_kind="knockout", bounty=25)
    response = director.api("POST", f"/api/t/{tid}/bust", {"player": 4, "by": [2, 1]})
    assert response.status_code == 201
    players = {p["name"]: p for p in response.get_json()["players"]}
    assert players["Dee"]["knocked_out_by"] == 2 and players["Dee"]["knocked_out_by_all"] == [2, 1]
    assert (players["Bob"]["bounties_won"], players["Ann"]["bounties_won"]) == (13, 12)
    assert "by Bob and Ann" in soup(director.get(f"/t/{tid}")).find(id="player-4").get_text(" ", strip=True)
    too_many = director.api("POST", f"/api/t/{tid}/bust", {"player": 3, "by": list(range(1, 13))})
    assert too_many.status_code == 422 and "eliminator" in too_many.get_json()["error"]
    one = director.api("POST", f"/api/t/{tid}/bust", {"player": 3, "by": -1})
    assert one.get_json()["error"] == "The eliminator must be at least 0, not -1."


def test_the_dashboard_bust_form_names_a_second_eliminator_for_a_split_pot(director: Director):
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True, buy_in=50, bounty_kind="knockout", bounty=25)
    form = soup(director.get(f"/t/{tid}")).find(id="player-3").find("form", class_="bust-form")
    assert [s.find_parent("label").get_text(" ", strip=True).split(" (")[0] for s in form.find_all("select")] == [
        "Knocked out by", "and, in a split pot"]
    director.post(f"/t/{tid}/bust", {"players": "3", "by": ["1", "2"]})
    state = director.api("GET", f"/api/t/{tid}").get_json()
    assert {p["name"]: p["bounties_won"] for p in state["players"]} == {"Ann": 13, "Bob": 12, "Cy": 0}


def mystery_night(director: Director, pool: str = "100x1, 40x2", **extra) -> int:
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee"], start=True, buy_in=50, bounty_kind="mystery",
                         bounty=20, mystery_pool=pool, **extra)
    return tid


def test_a_mystery_night_draws_at_each_knockout_and_the_tv_opens_the_envelope(director: Director):
    tid = mystery_night(director)
    state = director.api("GET", f"/api/t/{tid}").get_json()
    assert state["settings"]["mystery_pool"] == [[100, 1], [40, 2]] and state["bounties"]["mystery_left"] == [100, 40, 40]
    response = director.api("POST", f"/api/t/{tid}/bust", {"player": 4, "by": 1})
    draw = response.get_json()["bounties"]["mystery_draws"][0]
    assert draw["victim"] == 4 and draw["takers"] == [1] and draw["amount"] in (100, 40)
    envelope = soup(director.get(f"/t/{tid}/tv")).find(class_="tv-envelope")
    assert envelope is not None
    assert envelope.find(class_="tv-envelope-amount").get_text(strip=True) == str(draw["amount"])
    assert envelope.find(class_="tv-envelope-who").get_text(" ", strip=True) == (
        f"Ann draws a mystery bounty of {draw['amount']} for Dee.")
    dashboard = soup(director.get(f"/t/{tid}")).get_text(" ", strip=True)
    assert "mystery, 20 an entry; 2 of 3 left to draw" in dashboard
    # the draw is the same after a restart (the state folded again from the stored events)
    from director.core.db import get_db
    from director.core.store import load_state

    with director.client.application.app_context():
        again = load_state(get_db(), tid)
    from engine.bounties import bounties

    assert [d.amount for d in bounties(again).draws] == [draw["amount"]]


def test_a_mystery_pool_short_of_knockouts_warns_at_setup_and_on_the_dashboard(director: Director):
    from tests.director.test_chipsets import setup_form

    checked = director.post("/new", setup_form(director, bounty_kind="mystery", bounty="10", mystery_pool="100x2",
                                               players_expected="9", op="check"))
    text = soup(checked).get_text(" ", strip=True)
    assert "The mystery pool holds 2 bounties for up to 8 knockouts" in text
    assert "The mystery bounties add up to 200; 9 players' bounties bring 90: the house adds 110." in text
    tid = mystery_night(director, pool="100x1")
    warning = soup(director.get(f"/t/{tid}")).get_text(" ", strip=True)
    assert "1 mystery bounty left for up to 3 knockouts: once they are drawn, a knockout takes no bounty." in warning
    refused = director.api("POST", "/api/tournaments", {"name": "M", "buy_in": 50, "bounty_kind": "mystery", "bounty": 10})
    assert refused.status_code == 422 and "needs its bounties" in refused.get_json()["error"]


def test_a_mystery_night_keeps_its_seed_and_the_settings_edit_its_pool(director: Director):
    tid = mystery_night(director)
    changed = director.api("POST", f"/api/t/{tid}/settings", {"mystery_pool": "200x1, 40x2"})
    assert changed.status_code == 201 and changed.get_json()["settings"]["mystery_pool"] == [[200, 1], [40, 2]]
    same = director.api("POST", f"/api/t/{tid}/settings", {"mystery_pool": "40 x 2, 200"})
    assert same.get_json()["notice"] == "Nothing changed."
    director.api("POST", f"/api/t/{tid}/bust", {"player": 4, "by": 1})
    refused = director.api("POST", f"/api/t/{tid}/settings", {"mystery_pool": "500x3"})
    assert refused.status_code == 422 and "the bounties cannot change now" in refused.get_json()["error"]
