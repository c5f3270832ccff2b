"""Bounties on the pages and the API (issue "Money for the night", part 1): "Results, the
player's page, the TV ("Bounty on Ann: 35") and the exports show bounties won and on heads";
chosen at setup "and editable until the first knockout"."""

from __future__ import annotations

import csv
import io

from flask import Flask

from director.seating.views import player_tokens
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
