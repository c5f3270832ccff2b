"""The table's accidents on the dealer's page and the JSON API (issue "The table's accidents"):
misdeals, exposed cards, the button, the clock that bites; each ruling read aloud, kept in the
hand history and the PHH file."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from flask import Flask
from flask.testing import FlaskClient

from engine.phh import read_phh, replay_phh
from tests.director.test_dealer import Dealer, make_tournament


@pytest.fixture
def clock_app(app: Flask) -> tuple[Flask, dict[str, float]]:
    """The app with a clock the test moves: one second a request, or a jump."""
    clock = {"t": 1_000.0}

    def now() -> float:
        clock["t"] += 1.0
        return clock["t"]

    app.config["NOW"] = now
    return app, clock


@pytest.fixture
def table(clock_app: tuple[Flask, dict[str, float]], client: FlaskClient) -> Dealer:
    """Four players at table 1: seats 1, 2, 3, 5, the button on seat 5 (SB 1, BB 2, seat 3 first)."""
    app, _ = clock_app
    return make_tournament(app, client, ["Ann", "Bob", "Cy", "Dee"], {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5)}, {1: 5})


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def test_a_misdeal_is_dealt_again_and_the_dealer_reads_the_ruling(table: Dealer):
    table.ok("deal")
    table.ok("act", {"kind": "call"})
    answer = table.ok("misdeal", {"cause": "boxed_cards"})
    assert answer["notice"].startswith("Misdeal, two or more boxed cards on the initial deal: the hand is dealt again")
    assert answer["notice"].endswith("(TDA 35-A-1, 35-C).")
    assert answer["hand"] == 1 and answer["turn"] == 3 and answer["rulings"] == [answer["notice"][:-1]]
    assert answer["substantial_action"] is None


def test_no_misdeal_after_substantial_action_and_the_page_says_why(table: Dealer):
    table.ok("deal")
    table.ok("act", {"kind": "call"})
    table.ok("act", {"kind": "raise", "amount": 60})
    refused = table.api("misdeal", {"cause": "exposed_first_two"})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == ("No misdeal after substantial action (TDA 35-D): seat 3 called and "
                                           "seat 5 raised; the hand goes on and the exposed cards stay in play.")
    menu = soup(table.page()).find("details", class_="dl-accidents")
    text = menu.get_text(" ", strip=True)
    assert "Substantial action has taken place (seat 3 called and seat 5 raised): no misdeal now" in text
    assert "A duplicate card: the deck is fouled" in text  # still offered (TDA 35-E)
    fouled = table.ok("misdeal", {"cause": "fouled_deck"})
    assert "every bet goes back" in fouled["notice"] and all(s["bet"] in (0, 10, 20) for s in fouled["seats"])


def test_the_dealers_menu_offers_every_accident_and_posts_without_javascript(table: Dealer):
    table.ok("deal")
    menu = soup(table.page()).find("details", class_="dl-accidents")
    causes = [f.find("input", attrs={"name": "cause"})["value"] for f in menu.find_all("form", action=lambda a: a.endswith("/misdeal"))]
    assert causes[0] == "boxed_cards" and causes[-1] == "fouled_deck" and len(causes) == 9
    kinds = [f.find("input", attrs={"name": "kind"})["value"] for f in menu.find_all("form", action=lambda a: a.endswith("/ruling"))]
    assert "four_card_flop" in kinds and "premature_turn" in kinds
    assert [o["value"] for o in menu.find("select", attrs={"name": "seat"}).find_all("option")] == ["1", "2", "3"]
    page = table.post("misdeal", {"cause": "wrong_count", "expected_seq": soup(table.page()).find(id="dealer")["data-seq"]},
                      htmx=False)
    assert page.status_code in (200, 303)
    shown = soup(table.page())
    assert "Misdeal, the wrong number of cards to a player" in shown.find(attrs={"data-ruling": True}).get_text()


def test_a_button_correction_before_substantial_action_and_its_refusals(table: Dealer):
    table.ok("deal")
    fixed = table.ok("button", {"seat": 2})
    assert fixed["notice"].startswith("The button was on seat 5 and belongs on seat 2: corrected")
    assert {s["seat"]: s["badges"] for s in fixed["seats"] if s["badges"]} == {2: ["BTN"], 3: ["SB"], 5: ["BB"]}
    empty = table.api("button", {"seat": 4})
    assert empty.status_code == 422 and "Seat 4 at table 1 has no player dealt in" in empty.get_json()["error"]
    beyond = table.api("button", {"seat": 7})
    assert beyond.status_code == 422 and "seat" in beyond.get_json()["error"]


def test_the_clock_bites_facing_a_bet(clock_app: tuple[Flask, dict[str, float]], table: Dealer):
    _, clock = clock_app
    table.ok("deal")
    put = table.ok("clock")
    assert put["notice"] == "Table 1 seat 3 – Cy is on the clock: 60 seconds and a 5-second countdown."
    assert put["on_the_clock"]["seat"] == 3 and 60 <= put["on_the_clock"]["seconds_left"] <= 65
    early = table.api("time_up")
    assert early.status_code == 422 and "Seat 3 still has" in early.get_json()["error"]
    box = soup(table.page()).find(class_="dl-clock")
    assert "Seat 3 is on the clock" in box.get_text(" ", strip=True) and box.find("form")["action"].endswith("/time_up")
    clock["t"] += 70
    ruled = table.ok("time_up")
    assert ruled["notice"] == "Time is up for seat 3, facing a bet: the hand is dead (TDA 29, T39)."
    assert ruled["turn"] == 5 and ruled["on_the_clock"] is None


def test_the_house_sets_the_action_clock(table: Dealer):
    changed = table.client.post(f"/api/t/{table.tid}/settings", json={"action_seconds": 30, "action_countdown": 10},
                                headers={"X-CSRFToken": table.token})
    assert changed.status_code == 201
    table.ok("deal")
    assert table.ok("clock")["notice"].endswith("30 seconds and a 10-second countdown.")
    refused = table.client.post(f"/api/t/{table.tid}/settings", json={"action_countdown": 61},
                                headers={"X-CSRFToken": table.token})
    assert refused.status_code == 422 and "countdown" in refused.get_json()["error"]


def test_rulings_are_in_the_hand_history_and_the_phh_file(table: Dealer):
    table.ok("deal")
    table.ok("act", {"kind": "call"})
    table.ok("misdeal", {"cause": "exposed_two"})
    table.ok("ruling", {"kind": "boxed_card"})
    for _ in range(3):
        table.ok("act", {"kind": "fold"})
    history = soup(table.client.get(f"/t/{table.tid}/table/1/history")).find(id="hand-1").get_text(" ", strip=True)
    assert "Ruling: Misdeal, two down cards exposed by the dealer" in history
    assert "(TDA 35-A-7, 35-C); taken back: seat 3 checks or calls" in history
    phh = table.client.get(f"/t/{table.tid}/table/1/hand/1.phh").get_data(as_text=True)
    assert "_rulings = [" in phh and "TDA 35-A-7, 35-C" in phh
    hand = read_phh(phh)[0]
    replayed = replay_phh(hand)
    assert replayed.is_complete  # the file replays: the voided entries are not in it


def test_refused_rulings_say_why(table: Dealer):
    refused = table.api("misdeal", {"cause": "boxed_cards"})
    assert refused.status_code == 422 and "No hand is being played at table 1" in refused.get_json()["error"]
    table.ok("deal")
    bad = table.api("misdeal", {"cause": "bad luck"})
    assert bad.status_code == 422 and "misdeal's cause" in bad.get_json()["error"]
    premature = table.api("ruling", {"kind": "premature_river"})
    assert premature.status_code == 422 and premature.get_json()["error"] == (
        "The river is not premature: the hand is on the preflop.")
    for _ in range(3):
        table.ok("act", {"kind": "fold"})
    over = table.api("misdeal", {"cause": "boxed_cards"})
    assert over.status_code == 422 and "Hand 1 at table 1 is over" in over.get_json()["error"]


def test_the_tv_counts_the_clock_down_with_its_countdown_and_shows_the_ruling(
    clock_app: tuple[Flask, dict[str, float]], table: Dealer
):
    """The issue: "the dealer's page and the TV show the countdown and the ruling"."""
    _, clock = clock_app
    table.ok("deal")
    table.ok("clock")
    start = clock["t"]
    overlay = soup(table.client.get(f"/t/{table.tid}/tv")).find(class_="tv-action")
    assert abs(int(overlay["data-action-deadline"]) / 1000 - (start + 65)) < 2  # 60 s and the 5 s countdown
    clock["t"] += 70
    table.ok("time_up")
    tv = soup(table.client.get(f"/t/{table.tid}/tv"))
    assert tv.find(class_="tv-action") is None
    assert tv.find(class_="tv-flag--ruling").get_text(strip=True) == (
        "Table 1: Time is up for seat 3, facing a bet: the hand is dead")
    clock["t"] += 40
    assert soup(table.client.get(f"/t/{table.tid}/tv")).find(class_="tv-flag--ruling") is None


def test_the_openapi_document_has_every_ruling(client: FlaskClient):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for action in ("misdeal", "ruling", "button", "time_up"):
        operation = paths[f"/api/t/{{tournament_id}}/table/{{table}}/{action}"]["post"]
        assert operation["summary"] and operation["responses"]
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    assert "fouled_deck" in schemas["MisdealIn"]["properties"]["cause"]["enum"]
    assert "four_card_flop" in schemas["RulingIn"]["properties"]["kind"]["enum"]
