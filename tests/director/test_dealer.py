"""The table page and its JSON twins: every action, illegal ones refused by the engine's message,
stale pages refused, and a whole sit-and-go played to the end through the API."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from flask import Flask, template_rendered
from flask.testing import FlaskClient

from director.tables.commands import HAND_COMMANDS as ACTIONS
from engine.cards import new_deck
from engine.errors import IllegalAction
from engine.positions import Bust, play_scenario
from engine.structure import sit_and_go
from tests.director.conftest import PASSWORD, csrf_token

ROOT = Path(__file__).resolve().parent.parent.parent


class Dealer:
    """A logged-in phone at the table: form posts (optionally as htmx) and JSON calls."""

    def __init__(self, client: FlaskClient, tournament_id: int) -> None:
        self.client = client
        self.tid = tournament_id
        self.token = csrf_token(client, "/auth/login")

    def page(self, table: int = 1, htmx: bool = False) -> Any:
        headers = {"HX-Request": "true"} if htmx else {}
        return self.client.get(f"/t/{self.tid}/table/{table}", headers=headers)

    def post(self, action: str, data: dict[str, Any] | None = None, table: int = 1, htmx: bool = True) -> Any:
        headers = {"HX-Request": "true"} if htmx else {}
        return self.client.post(
            f"/t/{self.tid}/table/{table}/{action}", data={"csrf_token": self.token, **(data or {})}, headers=headers
        )

    def api(self, action: str | None = None, body: dict[str, Any] | None = None, table: int = 1) -> Any:
        if action is None:
            return self.client.get(f"/api/t/{self.tid}/table/{table}")
        return self.client.post(
            f"/api/t/{self.tid}/table/{table}/{action}", json=body or {}, headers={"X-CSRFToken": self.token}
        )

    def state(self, table: int = 1) -> dict[str, Any]:
        response = self.api(table=table)
        assert response.status_code == 200
        data: dict[str, Any] = response.get_json()
        return data

    def ok(self, action: str, body: dict[str, Any] | None = None, table: int = 1) -> dict[str, Any]:
        response = self.api(action, body, table)
        assert response.status_code == 201, response.get_json()
        data: dict[str, Any] = response.get_json()
        return data


def record(app: Flask, tid: int, type_: str, payload: dict[str, Any]) -> None:
    from director.core.db import get_db
    from director.night import commands as night_commands

    with app.test_request_context():
        night_commands.record(get_db(), tid, type_, payload, None, app.config["NOW"]())


def make_tournament(
    app: Flask, client: FlaskClient, names: list[str], seats: dict[int, tuple[int, int]], buttons: dict[int, int],
    stacks: dict[int, int] | None = None, preset: str = "sng-1000", start: bool = True,
) -> Dealer:
    """A tournament with ``names`` registered (ids 1, 2, ...), seated, the clock started."""
    from director.core.db import get_db
    from director.core.first_start import set_password
    from director.night import commands as night_commands
    from director.setup.commands import create_tournament

    with app.test_request_context():
        set_password(PASSWORD)
    client.post("/auth/login", data={"password": PASSWORD, "csrf_token": csrf_token(client, "/auth/login")})
    with app.test_request_context():
        db = get_db()
        tid = create_tournament(db, {"name": "Friday", "preset": preset, "table_size": 6}, 1.0)
        for name in names:
            night_commands.register_player(db, tid, name, None, 2.0)
    record(app, tid, "seats_drawn", {
        "seats": {str(p): list(place) for p, place in seats.items()},
        "buttons": {str(t): b for t, b in buttons.items()},
    })
    if start:
        record(app, tid, "clock", {"action": "start"})
    for player, stack in (stacks or {}).items():
        record(app, tid, "stack_corrected", {"player": player, "stack": stack, "reason": "set up"})
    return Dealer(client, tid)


@pytest.fixture
def dealer(timed_app: Flask, client: FlaskClient) -> Dealer:
    """Four players at table 1: seats 1, 2, 3, 5, the button drawn on seat 5."""
    return make_tournament(
        timed_app, client, ["Ann", "Bob", "Cy", "Dee"], {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5)}, {1: 5}
    )


@pytest.fixture
def templates(app: Flask) -> Iterator[list[str]]:
    names: list[str] = []

    def note(sender: Flask, template: Any, context: Any, **extra: Any) -> None:
        names.append(template.name)

    template_rendered.connect(note, app)
    yield names
    template_rendered.disconnect(note, app)


def soup(response: Any) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


# ------------------------------------------------------------------ the page


def test_page_before_the_hand_shows_seats_positions_and_the_deal_button(dealer: Dealer, templates: list[str]) -> None:
    response = dealer.page()
    assert response.status_code == 200
    assert templates == ["dealer.html"]
    html = soup(response)
    seats = [li["data-seat"] for li in html.select(".dl-seat")]
    assert seats == ["1", "2", "3", "5"]
    assert "Button seat 5 · small blind seat 1 · big blind seat 2" in html.select_one(".dl-positions").text
    assert html.select_one(".dl-level").text.startswith("Level 1 · 10/20")
    deal = html.select_one("form.dl-deal button")
    assert deal is not None and not deal.has_attr("disabled")


def test_htmx_gets_the_panel_alone(dealer: Dealer, templates: list[str]) -> None:
    response = dealer.page(htmx=True)
    assert templates == ["_dealer_table.html"]
    assert soup(response).select_one("html") is None


def poll_of(response: Any) -> str:
    """The path the panel polls, with the version of the panel it holds."""
    return str(soup(response).select_one(".dl-poll")["hx-get"])


def test_poll_answers_204_until_something_changes(dealer: Dealer) -> None:
    seq = dealer.state()["seq"]
    poll = poll_of(dealer.page())
    held = dealer.client.get(poll)
    assert held.status_code == 204 and held.headers["X-Seq"] == str(seq)
    dealer.ok("deal")
    response = dealer.client.get(poll)
    assert response.status_code == 200 and soup(response).select_one("#dealer")["data-phase"] == "betting"
    assert dealer.client.get(poll_of(response)).status_code == 204


def test_a_poll_without_the_version_it_holds_gets_the_whole_panel(dealer: Dealer) -> None:
    """A poll from a page drawn before a restore or an upgrade, or a made-up one: the whole
    panel, never a 204."""
    seq = dealer.state()["seq"]
    for query in ("", f"?since={seq}", "?v=", "?v=0123456789abcdef0123", "?v=%00", "?since=99999999"):
        response = dealer.client.get(f"/t/{dealer.tid}/table/1/panel{query}")
        assert response.status_code == 200 and soup(response).select_one("#dealer") is not None, query


def test_deal_through_the_page_shows_the_turn_and_only_legal_actions(dealer: Dealer) -> None:
    response = dealer.post("deal")
    assert response.status_code == 200
    html = soup(response)
    assert html.select_one("#dealer")["data-phase"] == "betting"
    assert html.select_one(".dl-seat--turn")["data-seat"] == "3"
    labels = [b.text.strip() for b in html.select(".dl-pad button")]
    assert labels == ["Fold", "Call 20", "All-in 1,000"]
    assert html.select_one(".dl-raise summary").text.strip() == "Raise to 40+"
    quick = [b.text.strip() for b in html.select(".dl-quick button")]
    assert quick[0] == "Min 40" and "Pot 70" in quick
    bets = {li["data-seat"]: li.select_one(".dl-seat-bet")["data-bet"] for li in html.select(".dl-seat")}
    assert bets == {"1": "10", "2": "20", "3": "0", "5": "0"}


def test_half_pot_is_half_the_whole_pot_and_a_pot_past_the_stack_is_the_all_in(timed_app: Flask, client: FlaskClient) -> None:
    """The pot-sized bet is a bet "to" the amount to call plus the pot after calling, half pot
    the same with half; each is worked out from the whole pot, then capped at the player's
    all-in. On the flop, a pot of 19,700 and seat 2 first with 19,400 left: ½ pot is 9,850
    (not 9,700, half of the stack), and pot, past the stack, is the all-in: "All-in 19,400"."""
    dealer = make_tournament(timed_app, client, ["Ann", "Bob", "Cy", "Dee"],
                             {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5)}, {1: 5},
                             stacks={1: 50_000, 2: 9_845 + 19_400, 3: 50_000, 4: 50_000})
    dealer.ok("deal")  # 10/20: seat 3 first
    dealer.ok("act", {"kind": "raise", "amount": 9_845})
    for kind in ("fold", "fold", "call"):  # seats 5 and 1 fold, the big blind calls
        dealer.ok("act", {"kind": kind})
    state = dealer.state()
    assert state["street"] == "flop" and state["turn"] == 2 and sum(p["amount"] for p in state["pots"]) == 19_700
    html = soup(dealer.page())
    quick = [b.text.strip() for b in html.select(".dl-quick button")]
    assert quick == ["Min 20", "½ pot 9,850", "All-in 19,400"]
    amounts = [int(i["value"]) for i in html.select(".dl-quick input[name=amount]")]
    assert amounts == [20, 9_850, 19_400]
    dealer.ok("act", {"kind": "bet", "amount": 9_850})
    assert dealer.state()["seats"][1]["bet"] == 9_850


def test_a_plain_browser_post_redirects_back_to_the_table(dealer: Dealer) -> None:
    response = dealer.post("deal", htmx=False)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/t/{dealer.tid}/table/1")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "raise", "amount": "30"}, "Seat 3 cannot raise to 30: the minimum raise is to 40."),
        ({"kind": "check"}, "Seat 3 cannot check: it is 20 to call."),
        ({"kind": "bet", "amount": "100"}, "Seat 3 cannot bet 100: there is already a bet of 20; raise instead."),
        ({"kind": "raise", "amount": "5000"}, "Seat 3 cannot raise to 5,000: the most they can raise to is 1,000 (all in)."),
        ({"kind": "raise", "amount": "99999999999"},
         "Seat 3 cannot raise to 99,999,999,999: the most they can raise to is 1,000 (all in)."),
        ({"kind": "bet", "amount": "99999999999"}, "Seat 3 cannot bet 99,999,999,999: there is already a bet of 20; raise instead."),
        ({"kind": "call", "seat": "5"}, "It is seat 3's turn, not seat 5's."),
        ({"kind": "raise", "amount": "lots"}, "The raise amount must be a whole number, not 'lots'."),
    ],
)
def test_an_illegal_action_is_refused_with_the_engines_message(dealer: Dealer, data: dict[str, str], message: str) -> None:
    dealer.ok("deal")
    before = dealer.state()["seq"]
    response = dealer.post("act", data)
    assert response.status_code == 422
    assert soup(response).select_one(".dl-msg--error").text == message
    api = dealer.api("act", data)
    assert api.status_code == 422 and api.get_json() == {"error": message}
    assert dealer.state()["seq"] == before  # nothing was recorded


def test_an_amount_past_the_players_limit_is_refused_with_it_and_the_inputs_bound_still_holds(dealer: Dealer) -> None:
    """An amount above the player's limit is refused with that limit (here the all-in, 1,000),
    however big the number; the input's bound (a billion chips) is checked after it, and holds
    for what the player's limit lets through and for any other action's amount."""
    from director.tables.commands import action_notation
    from engine.errors import InvalidInput
    from engine.hand import Hand, HandSetup

    dealer.ok("deal")
    before = dealer.state()["seq"]
    huge = 10**30
    answer = dealer.api("act", {"kind": "raise", "amount": huge})
    assert answer.status_code == 422
    assert answer.get_json() == {"error": f"Seat 3 cannot raise to {huge:,}: the most they can raise to is 1,000 (all in)."}
    answer = dealer.api("act", {"kind": "fold", "amount": huge})
    assert answer.status_code == 422 and answer.get_json() == {"error": f"The amount must be at most 1,000,000,000, not {huge:,}."}
    assert dealer.state()["seq"] == before
    rich = Hand(HandSetup({1: 3_000_000_000, 2: 3_000_000_000}, 1, 1, 2, 10, 20))
    with pytest.raises(InvalidInput, match=r"^The raise amount must be at most 1,000,000,000, not 2,000,000,000\.$"):
        action_notation(rich, {"kind": "raise", "amount": 2_000_000_000})
    assert action_notation(rich, {"kind": "raise", "amount": 1_000_000_000}) == "p1 cbr 1000000000"


def test_a_stale_page_is_refused_with_409_and_the_fresh_panel(dealer: Dealer) -> None:
    seq = dealer.state()["seq"]
    dealer.ok("deal")
    response = dealer.post("act", {"kind": "call", "expected_seq": str(seq)})
    assert response.status_code == 409
    html = soup(response)
    assert "Someone else changed this tournament" in html.select_one(".dl-msg--error").text
    assert html.select_one("#dealer")["data-seq"] == str(seq + 1)
    assert dealer.api("act", {"kind": "call", "expected_seq": seq}).status_code == 409


def test_play_at_another_table_does_not_make_this_page_stale(timed_app: Flask, client: FlaskClient) -> None:
    """Several tables play at once: an entry at table 2 leaves table 1's page valid, while an
    entry at table 1 itself makes it stale."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    dealer = make_tournament(timed_app, client, ["A", "B", "C", "D", "E", "F"], seats, {1: 3, 2: 3})
    dealer.ok("deal", table=1)
    page_seq = dealer.state(table=1)["seq"]
    poll = poll_of(dealer.page(table=1))
    dealer.ok("deal", table=2)
    dealer.ok("act", {"kind": "call"}, table=2)
    held = dealer.client.get(poll)  # table 1's panel is as it was: its forms may name the new seq
    assert held.status_code == 204 and held.headers["X-Seq"] == str(dealer.state(table=1)["seq"]) != str(page_seq)
    assert dealer.post("act", {"kind": "call", "expected_seq": str(page_seq)}, table=1).status_code == 200
    assert dealer.post("act", {"kind": "call", "expected_seq": str(page_seq)}, table=1).status_code == 409


def test_play_at_the_tables_does_not_make_the_directors_page_stale(timed_app: Flask, client: FlaskClient) -> None:
    """A club night's dealers enter several actions a second: the director's pause, bust or
    undo on a page drawn before them is recorded (the engine checks it against the night as it
    is). His *Undo* takes back his own last entry, not the tables' play after it."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    dealer = make_tournament(timed_app, client, ["A", "B", "C", "D", "E", "F"], seats, {1: 3, 2: 3})

    def director(path: str, body: dict[str, Any]) -> Any:
        return dealer.client.post(f"/api/t/{dealer.tid}/{path}", json=body, headers={"X-CSRFToken": dealer.token})

    page_seq = dealer.state(table=1)["seq"]
    dealer.ok("deal", table=2)
    dealer.ok("act", {"kind": "call"}, table=2)
    assert director("clock/pause", {"expected_seq": page_seq}).status_code == 201
    page_seq = dealer.state(table=1)["seq"]
    dealer.ok("act", {"kind": "call"}, table=2)
    busted = director("bust", {"player": 1, "by": 2, "expected_seq": page_seq})
    assert busted.status_code == 201
    bust_seq = busted.get_json()["seq"]
    dealer.ok("act", {"kind": "fold"}, table=2)
    dashboard = soup(dealer.client.get(f"/t/{dealer.tid}"))
    assert "Confirm: undo “" in dashboard.select_one("details.undo").text
    assert "A" in dashboard.select_one("details.undo button").text  # the bust, not table 2's fold
    played = dealer.state(table=2)
    undo = director("undo", {"expected_seq": bust_seq})
    assert undo.status_code == 201
    players = dealer.client.get(f"/api/t/{dealer.tid}").get_json()["players"]
    assert [p["status"] for p in players if p["id"] == 1] == ["in"]  # A is back
    after = dealer.state(table=2)
    assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in played.items() if k != "seq"}
    assert director("clock/resume", {"expected_seq": bust_seq}).status_code == 409  # the undo came since
    log = [row.select("td")[2].get_text(" ", strip=True) for row in soup(dealer.client.get(f"/t/{dealer.tid}/log")).select("#log tbody tr")]
    assert log[-1].startswith("Undo: A"), log[-3:]
    dealer.ok("act", {"kind": "check"}, table=2)
    assert director("undo", {"expected_seq": undo.get_json()["seq"]}).status_code == 201  # the pause, next
    assert dealer.client.get(f"/api/t/{dealer.tid}").get_json()["clock"]["status"] == "running"


def test_writes_need_the_director(dealer: Dealer, timed_app: Flask) -> None:
    stranger = timed_app.test_client()
    token = csrf_token(stranger, "/auth/login")
    response = stranger.post(f"/api/t/{dealer.tid}/table/1/deal", json={}, headers={"X-CSRFToken": token})
    assert response.status_code == 401
    page = stranger.get(f"/t/{dealer.tid}/table/1")
    assert page.status_code == 200  # reading the table needs no password


def test_everyone_folds_to_the_big_blind_who_takes_the_pot_without_showing(dealer: Dealer) -> None:
    """Seed 000: "If only one player is left, they win the pot without showing their cards.\""""
    dealer.ok("deal")
    for _ in range(3):
        dealer.ok("act", {"kind": "fold"})
    state = dealer.state()
    assert state["phase"] == "before"
    assert state["last_result"] == "Hand 1: Seat 2 wins the main pot (20)."  # 10 uncalled goes back
    stacks = {s["seat"]: s["stack"] for s in state["seats"]}
    assert stacks == {1: 990, 2: 1010, 3: 1000, 5: 1000}
    # The next hand follows the dead-button rule: everyone moves on one seat.
    assert state["positions"] == "Button seat 1 · small blind seat 2 · big blind seat 3"


def test_undo_takes_back_actions_one_by_one_then_the_deal(dealer: Dealer) -> None:
    dealer.ok("deal")
    dealer.ok("act", {"kind": "raise", "amount": 60})
    dealer.ok("act", {"kind": "call"})
    assert dealer.state()["turn"] == 1
    assert dealer.ok("undo")["turn"] == 5
    assert dealer.ok("undo")["turn"] == 3
    after = dealer.ok("undo")
    assert after["phase"] == "before" and after["hand"] is None
    assert dealer.api("undo").get_json() == {"error": "Nothing has been dealt at table 1: there is nothing to undo."}


def test_redo_puts_back_what_undo_took_until_the_next_entry(dealer: Dealer) -> None:
    """Issue "The table's accidents", part 5: "undo several steps, then redo them, until a new
    entry makes the redo stack empty", at the hand level."""
    dealer.ok("deal")
    dealer.ok("act", {"kind": "raise", "amount": 60})
    dealer.ok("act", {"kind": "call"})
    dealer.ok("undo")
    dealer.ok("undo")
    assert dealer.state()["turn"] == 3
    page = soup(dealer.page(htmx=True))
    assert page.find("button", string="↷ Redo") is not None
    assert dealer.ok("redo")["turn"] == 5  # the raise to 60 is back
    assert dealer.ok("redo")["turn"] == 1  # and the call
    assert dealer.api("redo").get_json() == {
        "error": "There is nothing to redo at table 1: redo follows an undo, before the next entry."}
    dealer.ok("undo")
    dealer.ok("act", {"kind": "fold"})  # a new entry: nothing to redo any more
    assert dealer.api("redo").status_code == 422
    assert soup(dealer.page(htmx=True)).find("button", string="↷ Redo") is None


def test_undo_right_after_the_end_of_a_hand_gives_the_chips_back(dealer: Dealer) -> None:
    dealer.ok("deal")
    for _ in range(3):
        dealer.ok("act", {"kind": "fold"})
    state = dealer.ok("undo")
    assert state["phase"] == "betting" and state["turn"] == 1  # seat 1's fold is taken back
    assert {s["seat"]: s["stack"] for s in state["seats"]}[2] == 980
    assert dealer.api("undo").status_code == 201  # and on, action by action


def play_to_showdown(dealer: Dealer) -> dict[str, Any]:
    """Everyone calls the big blind and checks it down."""
    dealer.ok("deal")
    state = dealer.state()
    while state["phase"] == "betting":
        kinds = {a["kind"] for a in state["actions"]}
        state = dealer.ok("act", {"kind": "check" if "check" in kinds else "call"})
    return state


def test_showdown_order_and_award_to_named_winners_with_the_odd_chip(dealer: Dealer) -> None:
    """Seed 000: "In a tie the pot is split equally; odd chips ... go one each to the winners,
    starting with the first player to the left of the button." TDA 17-A: with no bet on the
    river the first player left of the button shows first."""
    record_ante = dealer.ok("deal")
    assert record_ante["turn"] == 3
    dealer.ok("act", {"kind": "raise", "amount": 45})  # seat 3: a pot of 45 * 4 = 180... then make it odd
    dealer.ok("act", {"kind": "call"})  # 5
    dealer.ok("act", {"kind": "fold"})  # 1 (10 dead)
    dealer.ok("act", {"kind": "call"})  # 2
    state = dealer.state()
    while state["phase"] == "betting":
        state = dealer.ok("act", {"kind": "check"})
    assert state["showdown_order"] == [2, 3, 5]
    assert state["pots"] == [{"name": "main pot", "amount": 145, "eligible": [2, 3, 5]}]
    html = soup(dealer.page())
    assert "Shows first: seat 2, then seat 3, then seat 5" in html.select_one(".dl-order").text
    response = dealer.post("award", {"pot0": ["5", "2"]})
    assert response.status_code == 200
    notice = soup(response).select_one(".dl-msg--ok").text
    assert notice == "Main pot (145) split between seats 2 and 5, odd chip to seat 2."
    stacks = {s["seat"]: s["stack"] for s in dealer.state()["seats"]}
    assert stacks == {1: 990, 2: 955 + 73, 3: 955, 5: 955 + 72}


def test_seed_000_a_player_who_cannot_win_mucks_without_showing(dealer: Dealer) -> None:
    """Seed 000: "anyone who cannot beat or tie the best hand already shown mucks their cards
    without showing them"; a mucked hand has no claim on the pot."""
    state = play_to_showdown(dealer)
    assert state["showdown_order"] == [1, 2, 3, 5]
    html = soup(dealer.page())
    assert [b.text for b in html.select(".dl-mucks button")] == [f"Seat {s} mucks" for s in (1, 2, 3, 5)]
    dealer.ok("act", {"kind": "muck", "seat": 1})
    html = soup(dealer.page())
    assert [i["value"] for i in html.select('fieldset[data-pot="0"] input')] == ["2", "3", "5"]
    assert "mucked" in html.select_one('.dl-seat[data-seat="1"]').text
    assert dealer.api("award", {"winners": [[1]]}).get_json()["error"] == (
        "Seat 1 has given up the hand and cannot win the main pot."
    )
    assert dealer.ok("award", {"winners": [[3]]})["last_result"] == "Hand 1: Seat 3 wins the main pot (80)."


def test_award_refuses_a_winner_who_was_not_in_the_pot(dealer: Dealer) -> None:
    play_to_showdown(dealer)
    response = dealer.api("award", {"winners": [[4]]})
    assert response.status_code == 422
    assert response.get_json()["error"] == "Seat 4 cannot win the main pot: it was not in it."
    assert dealer.api("award", {"winners": []}).get_json()["error"] == "Tap the winner of the main pot."
    assert dealer.api("award", {"winners": [[2], [3]]}).get_json()["error"] == "There is 1 pot to award, not 2."


def test_award_from_the_cards_names_the_winning_hand(dealer: Dealer) -> None:
    play_to_showdown(dealer)
    response = dealer.post(
        "cards",
        {"board": "Ah Kh 7c 2s 9h", "cards_1": "QhJh", "cards_2": "7d7s", "cards_3": "AcAd", "cards_5": "3c4c"},
    )
    assert response.status_code == 200
    assert soup(response).select_one(".dl-msg--ok").text == "Seat 1 wins the main pot (80) with a flush, ace high."
    assert {s["seat"]: s["stack"] for s in dealer.state()["seats"]}[1] == 1060


def test_cards_are_checked_by_the_engine(dealer: Dealer) -> None:
    play_to_showdown(dealer)
    response = dealer.api("cards", {"board": "AhKh7c2s9h", "cards": {"1": "AhJh", "2": "7d7s", "3": "AcAd", "5": "3c4c"}})
    assert response.status_code == 422
    assert response.get_json()["error"] == "The Ace of hearts (Ah) has already been dealt."


def test_a_refused_entry_comes_back_as_typed(dealer: Dealer) -> None:
    """Bad input gets a clear error and loses nothing: the refused raise, cards and stack
    correction come back in their boxes, ready to be fixed."""
    dealer.ok("deal")
    response = dealer.post("act", {"kind": "raise", "amount": "30"})
    assert response.status_code == 422
    assert soup(response).select_one(".dl-amount input[name=amount]")["value"] == "30"
    assert soup(dealer.page(htmx=True)).select_one(".dl-amount input[name=amount]")["value"] == ""
    dealer.ok("undo")
    correction = {"player": "2", "stack": "abc", "reason": "a chip fell"}
    html = soup(dealer.post("correct", correction))
    form = html.select_one(".dl-correct")
    assert form.has_attr("open") and form.select_one("option[selected]")["value"] == "2"
    assert (form.select_one("[name=stack]")["value"], form.select_one("[name=reason]")["value"]) == ("abc", "a chip fell")
    play_to_showdown(dealer)
    typed = {"board": "AhKh7c2s9h", "cards_1": "AhJh", "cards_2": "7d7s", "cards_3": "AcAd", "cards_5": "3c4c"}
    response = dealer.post("cards", typed)
    assert response.status_code == 422
    form = soup(response).select_one("form[action$='/cards']")
    assert {i["name"]: i["value"] for i in form.select("input[name^=cards_], input[name=board]")} == typed


# ------------------------------------------------------------------ house rules


def test_tda_44_one_oversized_chip_facing_a_bet_is_a_call(dealer: Dealer) -> None:
    """TDA 4.5 (T30): facing a bet, a single oversized chip without a word is a call."""
    dealer.ok("deal")
    result = dealer.ok("push", {"chips": "100"})
    assert result["notice"] == "Seat 3 pushed 100 facing 20: one oversized chip without a word is a call (TDA 44); 80 goes back."
    assert {s["seat"]: s["bet"] for s in result["seats"]}[3] == 20


def test_tda_43_a_half_raise_must_be_completed_through_the_page(dealer: Dealer) -> None:
    """TDA 4.3 (T28): a raise of half the minimum increment or more must be completed."""
    dealer.ok("deal")
    response = dealer.post("push", {"chips": "20+5+5"})
    assert response.status_code == 200
    html = soup(response)
    assert "must be completed to 40 (TDA 43-A)" in html.select_one(".dl-msg--ok").text
    assert html.select_one('.dl-seat[data-seat="3"] .dl-seat-bet')["data-bet"] == "40"


def test_a_string_bet_is_only_a_call(dealer: Dealer) -> None:
    """Seed 002: "Chips pushed out in several moves (a string bet) count only as a call.\""""
    dealer.ok("deal")
    result = dealer.ok("push", {"chips": "100+100", "string_bet": True})
    assert "a string bet: it counts only as a call" in result["notice"]
    assert {s["seat"]: s["bet"] for s in result["seats"]}[3] == 20


def test_tda_53_out_of_turn_binds_when_the_action_does_not_change(dealer: Dealer) -> None:
    """TDA 4.8 (T36): the out-of-turn action is binding if the action to that player has not
    changed; a call does not change it."""
    dealer.ok("deal")
    held = dealer.ok("oot", {"seat": 1, "kind": "raise", "amount": 100})
    assert {s["seat"]: s["status"] for s in held["seats"]}[1] == ""
    dealer.ok("act", {"kind": "call"})  # seat 3
    after = dealer.ok("act", {"kind": "call"})  # seat 5; now seat 1's held raise binds
    assert {s["seat"]: s["bet"] for s in after["seats"]}[1] == 100
    assert after["turn"] == 2
    assert after["notes"][-1] == "Seat 1's bet or raise to 100 out of turn is binding: the action to them did not change (TDA 53)."


def test_tda_53_out_of_turn_is_withdrawn_when_someone_raises(dealer: Dealer) -> None:
    """TDA 4.8 (T36): if the action changed, the out-of-turn chips go back and that player has
    every option."""
    dealer.ok("deal")
    dealer.ok("oot", {"seat": 5, "kind": "call"})
    after = dealer.ok("act", {"kind": "raise", "amount": 60})  # seat 3 raises: seat 5's call is withdrawn
    assert after["turn"] == 5
    assert after["notes"][-1].startswith("Seat 5's out-of-turn check or call is withdrawn: the action to them changed")
    assert dealer.api("oot", {"seat": 5, "kind": "fold"}).get_json()["error"] == (
        "It is seat 5's turn: that is not out of turn, enter it as the action."
    )


# ------------------------------------------------------------------ the rest of the tournament


def test_put_on_the_clock_shows_the_seat_to_act_on_the_tv(dealer: Dealer, timed_app: Flask) -> None:
    dealer.ok("deal")
    result = dealer.ok("clock")
    # The house's clock: 60 seconds (seed 002, "a minute, say") and TDA 29's final countdown.
    assert result["notice"] == "Table 1 seat 3 – Cy is on the clock: 60 seconds and a 5-second countdown."
    from director.core.db import get_db
    from director.core.store import load_state

    with timed_app.test_request_context():
        state = load_state(get_db(), dealer.tid)
    assert state.action_clock is not None and state.action_clock.who == "Table 1 seat 3 – Cy"
    assert (state.action_clock.table, state.action_clock.seat, state.action_clock.countdown) == (1, 3, 5)


def test_a_stack_correction_is_an_event_and_the_chip_count_shows_the_difference(dealer: Dealer) -> None:
    response = dealer.post("correct", {"player": "2", "stack": "1200", "reason": "a chip fell"})
    assert response.status_code == 200
    html = soup(response)
    assert html.select_one('.dl-seat[data-seat="2"] .dl-seat-stack')["data-stack"] == "1200"
    assert html.select_one(".dl-chipcheck").text == (
        "Stacks here 4,200: 200 more than the 4,000 in play; count and correct the stack that differs."
    )
    history = soup(dealer.client.get(f"/t/{dealer.tid}/table/1/history"))
    assert "Bob: 1,000 → 1,200 (a chip fell)" in history.text
    assert dealer.api("correct", {"player": 2, "stack": 900, "reason": ""}).get_json()["error"] == (
        "Say why Bob's stack is corrected (e.g. 'a mis-entered call')."
    )


def test_a_dashboard_bust_with_chips_here_names_the_winner_and_moves_them(
    timed_app: Flask, dealer: Dealer
) -> None:
    """One chip count: Ann, down to 500 here, is put out from the dashboard (she lost a hand
    the page did not see). The bust must say who won her chips; they move to that stack, so
    the stacks here still add up and no line asks for a correction."""
    record(timed_app, dealer.tid, "hand_started", {"table": 1})
    record(timed_app, dealer.tid, "hand_action", {"table": 1, "actions": [
        "p3 f", "p5 f", "p1 cc", "p2 cc", "d db 2c3d4h", "p1 cbr 480", "p2 cc", "d db 8s", "p1 cc", "p2 cc",
        "d db 9s", "p1 cc", "p2 cc", "p1 sm 7c7d", "p2 sm AcAd", "d win cards",
    ]})
    with pytest.raises(IllegalAction, match=r"Say who knocked Ann out: .*Ann's 500 chips go to that player"):
        record(timed_app, dealer.tid, "bust", {"players": [1]})
    record(timed_app, dealer.tid, "bust", {"players": [1], "by": 3})
    assert soup(dealer.page()).select_one(".dl-chipcheck") is None
    with timed_app.test_request_context():
        from director.core.db import get_db
        from director.core.store import load_state
        from engine.dealing import chip_check, stack_of

        state = load_state(get_db(), dealer.tid)
        assert stack_of(state, 3) == 1500 and chip_check(state, 1).difference == 0


def test_a_stack_cannot_be_corrected_during_its_hand(dealer: Dealer) -> None:
    dealer.ok("deal")
    error = dealer.api("correct", {"player": 1, "stack": 500, "reason": "miscount"}).get_json()["error"]
    assert error == "Ann is playing hand 1 at table 1: correct the stack once the hand is over."


def test_after_a_bust_the_balancing_instruction_appears(timed_app: Flask, client: FlaskClient) -> None:
    """Issue 7: after the hand, a player at zero is eliminated and the balancing instruction
    appears if one is due (here the six left fit at one table: table 2 breaks)."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 4), 5: (2, 1), 6: (2, 2), 7: (2, 3)}
    dealer = make_tournament(timed_app, client, list("ABCDEFG"), seats, {1: 4, 2: 3})
    dealer.ok("deal", table=2)  # button 3, small blind 1, big blind 2
    dealer.ok("act", {"kind": "allin"}, table=2)
    dealer.ok("act", {"kind": "call"}, table=2)
    dealer.ok("act", {"kind": "fold"}, table=2)
    dealer.ok("cards", {"board": "2c3d4h8s9s", "cards": {"1": "7c7d", "3": "AcAd"}}, table=2)
    html = soup(dealer.page(2))
    assert html.select_one(".dl-msg--bust").text == "E is out in 7th place."
    moves = [m.text for m in html.select(".dl-msg--move")]
    # The final table's draw is called so, not "Balancing" (issue 31: a table break was), and
    # no seat is told before the director records it (issue 31: the seats announced were not
    # the seats recorded).
    assert moves == ["Final table: the director is about to draw its seats."]
    assert moves == [m.text for m in soup(dealer.page(1)).select(".dl-msg--move")]


def test_a_player_moved_in_between_button_and_small_blind_is_shown_sitting_out(
    timed_app: Flask, client: FlaskClient
) -> None:
    """TDA 1.4 (T11): a player moved in by balancing, seated between the button and the small
    blind, waits until the button has passed; the page shows them sitting out."""
    seats = {1: (1, 1), 2: (1, 3), 3: (1, 5), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    dealer = make_tournament(timed_app, client, list("ABCDEF"), seats, {1: 1, 2: 1})
    dealer.ok("deal")
    for _ in range(2):
        dealer.ok("act", {"kind": "fold"})
    record(timed_app, dealer.tid, "player_moved", {"player": 4, "table": 1, "seat": 4})
    html = soup(dealer.page())
    seat = html.select_one('.dl-seat[data-seat="4"]')
    assert "dl-seat--waiting" in seat["class"] and "sits out until the button passes" in seat.text
    state = dealer.ok("deal")
    assert {s["seat"]: s["status"] for s in state["seats"]}[4] == "waiting"
    assert state["positions"] == "Button seat 3 · small blind seat 5 · big blind seat 1"
    html = soup(dealer.page())
    assert "sits out until the button passes" in html.select_one('.dl-seat[data-seat="4"]').text
    while dealer.state()["phase"] == "betting":
        dealer.ok("act", {"kind": "fold"})
    # The button has passed seat 4: D is dealt in from the next hand on.
    html = soup(dealer.page())
    assert "dl-seat--waiting" not in html.select_one('.dl-seat[data-seat="4"]')["class"]
    state = dealer.ok("deal")
    assert state["positions"] == "Button seat 5 · small blind seat 1 · big blind seat 3"
    assert {s["seat"]: s["status"] for s in state["seats"]}[4] == "turn"


def test_hand_for_hand_waits_for_every_table(timed_app: Flask, client: FlaskClient) -> None:
    """TDA RP-8: hand for hand, no table deals its next hand before every table has finished."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    dealer = make_tournament(timed_app, client, ["A", "B", "C", "D", "E", "F"], seats, {1: 3, 2: 3})
    record(timed_app, dealer.tid, "hand_for_hand", {"on": True})
    dealer.ok("deal", table=1)
    dealer.ok("deal", table=2)
    for _ in range(2):
        dealer.ok("act", {"kind": "fold"}, table=1)
    error = dealer.api("deal", table=1).get_json()["error"]
    assert error == "Hand for hand: table 2 must finish its hand before table 1 deals the next."
    assert "Hand for hand" in soup(dealer.page(1)).select_one(".dl-flag").text
    for _ in range(2):
        dealer.ok("act", {"kind": "fold"}, table=2)
    assert dealer.ok("deal", table=1)["hand"] == 2


def test_history_lists_the_hands_and_the_phh_export_replays(dealer: Dealer, tmp_path: Path) -> None:
    play_to_showdown(dealer)
    dealer.ok("cards", {"board": "AhKh7c2s9h", "cards": {"1": "QhJh", "2": "7d7s", "3": "AcAd", "5": "3c4c"}})
    dealer.ok("deal")
    for _ in range(3):
        dealer.ok("act", {"kind": "fold"})
    page = soup(dealer.client.get(f"/t/{dealer.tid}/table/1/history"))
    hands = page.select(".dl-history")
    assert [h["id"] for h in hands] == ["hand-2", "hand-1"]
    assert "Seat 1 wins the main pot (80) with a flush, ace high." in hands[1].text
    assert "Seat 3 (Cy) calls 20" in hands[1].text and "Flop: Seat 1 (Ann) checks" in hands[1].text
    export = dealer.client.get(f"/t/{dealer.tid}/table/1/hands.phhs")
    assert export.status_code == 200
    path = tmp_path / "table-1.phhs"
    path.write_bytes(export.data)
    results = replay(path)
    assert [r["error"] for r in results] == [None, None]
    assert results[0]["finishing_stacks"] == [1060, 980, 980, 980]  # from seat 1 (left of the button)
    single = dealer.client.get(f"/t/{dealer.tid}/table/1/hand/1.phh")
    assert single.status_code == 200 and b'variant = "NT"' in single.data
    assert dealer.client.get(f"/t/{dealer.tid}/table/1/hand/9.phh").status_code == 404


def replay(path: Path) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("action", ACTIONS)
def test_every_action_has_a_control_on_the_page(dealer: Dealer, action: str) -> None:
    """Every table action is reachable by a tap in some phase of the hand."""
    forms: set[str] = set()

    def collect() -> None:
        for form in soup(dealer.page()).select("form[hx-post]"):
            forms.add(form["hx-post"].rsplit("/", 1)[-1])

    collect()
    dealer.ok("deal")
    collect()
    dealer.ok("clock")  # the seat on the clock: "Time is up" rules when it runs out
    collect()
    dealer.ok("act", {"kind": "call"})
    dealer.ok("undo")  # what an undo took back, a redo puts back
    collect()
    state = dealer.state()
    while state["phase"] == "betting":
        kinds = {a["kind"] for a in state["actions"]}
        state = dealer.ok("act", {"kind": "check" if "check" in kinds else "call"})
    collect()
    dealer.ok("award", {"winners": [[1]]})
    collect()
    assert action in forms


def test_the_api_routes_are_in_the_openapi_document(app: Flask) -> None:
    """Each table action is an operation of its own, with its own declared body."""
    from director.core.contract import document

    paths = {p for p in document(app)["paths"] if p.startswith("/api/t/{tournament_id}/table/")}
    assert paths == {"/api/t/{tournament_id}/table/{table}"} | {
        f"/api/t/{{tournament_id}}/table/{{table}}/{action}" for action in ACTIONS
    }
    award = document(app)["paths"]["/api/t/{tournament_id}/table/{table}/award"]["post"]
    assert award["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/AwardIn"}


# ------------------------------------------------------------------ a whole sit-and-go


def test_a_six_player_sit_and_go_played_to_the_end_by_hands(timed_app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    """Seed 000: blinds go up every 6 hands; the dead-button rule across the busts; players
    knocked out in the same hand ranked by their starting stacks; the 120-hand cap. Every
    hand is exported as PHH and replays with ``python -m engine replay`` to the same stacks."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    seats = {p: (1, p) for p in range(1, 7)}
    dealer = make_tournament(timed_app, client, names, seats, {1: 4})
    rng = random.Random(2026)
    structure = sit_and_go(1000)
    scenario_hands: list[list[Bust]] = []
    positions: list[str] = []
    finishing: list[dict[int, int]] = []
    state = dealer.state()
    number = 0
    while state["can_deal"]:
        number += 1
        start = {s["seat"]: s["stack"] for s in state["seats"] if s["status"] != "waiting"}
        state = dealer.ok("deal")
        positions.append(state["positions"])
        level = structure.level((number - 1) // 6 + 1)
        assert state["level"].startswith(f"Level {(number - 1) // 6 + 1} · {level.small_blind:,}/{level.big_blind:,}")
        while state["phase"] == "betting":
            choices = {a["kind"]: a for a in state["actions"]}
            roll = rng.random()
            if "allin" in choices and roll < 0.05:
                body = {"kind": "allin"}
            elif "check" in choices:
                body = {"kind": "check"}
            elif "fold" in choices and (roll < 0.3 or ("all-in" in choices["call"]["label"] and roll < 0.8)):
                body = {"kind": "fold"}
            else:
                body = {"kind": "call"}
            state = dealer.ok("act", body)
        if state["phase"] == "showdown":
            deck = new_deck(rng)
            board = "".join(str(c) for c in deck[:5])
            cards = {str(s): "".join(str(c) for c in deck[5 + 2 * k : 7 + 2 * k]) for k, s in enumerate(state["showdown_order"])}
            state = dealer.ok("cards", {"board": board, "cards": cards})
        assert state["phase"] == "before"
        after = {s["seat"]: s["stack"] for s in state["seats"]}
        finishing.append(after)
        scenario_hands.append([Bust(seat, start[seat]) for seat in start if seat not in after])
        assert sum(after.values()) == 6000
        assert number <= 120
    # Positions hand after hand are those of the engine's dead-button scenario, and so are the places.
    expected = play_scenario(list(range(1, 7)), 4, scenario_hands)
    for text, p in zip(positions, expected.hands, strict=True):
        sb = f"small blind seat {p.small_blind}" if p.small_blind is not None else (
            f"dead small blind (seat {p.small_blind_seat_number} is empty)"
        )
        assert text == f"Button seat {p.button} · {sb} · big blind seat {p.big_blind}"
    from director.core.db import get_db
    from director.core.store import load_state

    with timed_app.test_request_context():
        final = load_state(get_db(), dealer.tid)
    assert final.finished
    if len(final.alive) == 1:  # player p sits in seat p
        assert final.places() == dict(expected.places)
    else:  # the hand cap: the players still in ranked by chips
        assert number == 120
        chips = finishing[-1]
        for seat, stack in chips.items():
            assert final.places()[seat] == 1 + sum(1 for c in chips.values() if c > stack)
    assert number > 12, number  # the levels changed at least twice
    # The histories replay through the engine to the same stacks.
    export = dealer.client.get(f"/t/{dealer.tid}/table/1/hands.phhs")
    path = tmp_path / "sng.phhs"
    path.write_bytes(export.data)
    results = replay(path)
    assert len(results) == number
    hands = final.dealing.at_table(1)
    for result, hand in zip(results, hands, strict=True):
        assert result["error"] is None
        order = sorted(hand.setup.stacks, key=lambda s: (s <= hand.setup.button, s))
        if len(order) == 2:
            order = [hand.setup.big_blind_seat] + [s for s in order if s != hand.setup.big_blind_seat]
        assert result["finishing_stacks"] == [dict(hand.finishing_stacks)[s] for s in order]


def test_seed_000_hand_cap_counted_on_the_dashboard_stops_the_deal(timed_app: Flask, client: FlaskClient) -> None:
    """Seed 000: "the game ends after 120 hands in any case: the players still in are then
    ranked by their chips." Hands counted on the dashboard reach the cap: the table page says
    so instead of offering a deal, and a deal posted anyway is refused with the reason."""
    dealer = make_tournament(timed_app, client, ["Ann", "Bob"], {1: (1, 1), 2: (1, 2)}, {1: 1})
    for _ in range(120):
        record(timed_app, dealer.tid, "clock", {"action": "hand_played"})
    cap = "The 120-hand cap is reached: the game is over, the players still in are ranked by chips."
    panel = soup(dealer.page(htmx=True))
    assert panel.find("button", string="Deal").has_attr("disabled")
    assert cap in [p.text for p in panel.select(".dl-msg")]
    response = dealer.api("deal")
    assert response.status_code == 422 and response.get_json()["error"] == cap


def test_a_hand_awarded_to_named_winners_keeps_them_in_the_phh_export(dealer: Dealer, tmp_path: Path) -> None:
    """A pot awarded by tapping the winners, without their cards, cannot be worked out from
    the actions: the export says who won in PHH's user-defined field ``_winners`` (seats,
    main pot first), and the file still replays."""
    import tomllib

    play_to_showdown(dealer)
    dealer.ok("award", {"winners": [[3, 5]]})
    single = dealer.client.get(f"/t/{dealer.tid}/table/1/hand/1.phh").get_data(as_text=True)
    assert "# The dealer named the winners without their cards" in single
    assert tomllib.loads(single)["_winners"] == [[3, 5]]
    dealer.ok("deal")
    state = dealer.state()
    while state["phase"] == "betting":
        kinds = {a["kind"] for a in state["actions"]}
        state = dealer.ok("act", {"kind": "check" if "check" in kinds else "call"})
    dealer.ok("cards", {"board": "AhKh7c2s9h", "cards": {"1": "QhJh", "2": "7d7s", "3": "AcAd", "5": "3c4c"}})
    export = dealer.client.get(f"/t/{dealer.tid}/table/1/hands.phhs").get_data(as_text=True)
    hands = tomllib.loads(export)
    assert hands["1"]["_winners"] == [[3, 5]]
    assert "_winners" not in hands["2"]  # awarded from the cards: the actions show them
    path = tmp_path / "table-1.phhs"
    path.write_text(export)
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert results[1]["error"] is None


def test_a_hand_awarded_to_named_winners_replays_from_the_export(dealer: Dealer, tmp_path: Path) -> None:
    """The contract: ``python -m engine replay`` replays every exported hand, a hand awarded
    to named winners too (by reading ``_winners``)."""
    play_to_showdown(dealer)
    dealer.ok("award", {"winners": [[3, 5]]})
    path = tmp_path / "hand-1.phh"
    path.write_bytes(dealer.client.get(f"/t/{dealer.tid}/table/1/hand/1.phh").data)
    assert [r["error"] for r in replay(path)] == [None]


def test_wsop_67_the_table_page_says_the_same_move_as_the_tables_page(timed_app: Flask, client: FlaskClient) -> None:
    """WSOP 67 / TDA 2.2: a player dealt in finishes the hand, then moves. After a bust at
    table 2, the player moved from table 1 (mid-hand) is told on table 2's page exactly as
    the tables page and the dashboard say it: after the hand in play (issue 31: once the
    director has recorded it; before, only that a player is coming)."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 4), 5: (1, 5), 6: (2, 1), 7: (2, 2), 8: (2, 3), 9: (2, 4)}
    dealer = make_tournament(timed_app, client, list("ABCDEFGHI"), seats, {1: 5, 2: 4})
    dealer.ok("deal", table=1)  # table 1 is playing a hand
    dealer.ok("deal", table=2)  # button 4, small blind 1, big blind 2: seat 3 first
    dealer.ok("act", {"kind": "allin"}, table=2)  # H, seat 3
    dealer.ok("act", {"kind": "call"}, table=2)  # I, seat 4
    dealer.ok("act", {"kind": "fold"}, table=2)
    dealer.ok("act", {"kind": "fold"}, table=2)
    dealer.ok("cards", {"board": "2c3d4h8s9s", "cards": {"3": "7c7d", "4": "AcAd"}}, table=2)
    tables = soup(client.get(f"/t/{dealer.tid}/tables"))
    expected = [li.text for li in tables.select("li[data-player]")]
    assert len(expected) == 1 and expected[0].endswith("to table 2 seat 3. After the hand in play.")
    moves = [m.text for m in soup(dealer.page(2)).select(".dl-msg--move")]
    assert moves == ["Balancing: the director is about to move a player here from table 1."]
    dashboard = soup(client.get(f"/t/{dealer.tid}"))
    assert expected[0] in [li.text for li in dashboard.select(".flash li")]
    assert dealer.client.post(f"/api/t/{dealer.tid}/tables/confirm", json={},
                              headers={"X-CSRFToken": dealer.token}).status_code == 201
    # Once recorded, table 2's page tells the seat the tables page told: C's, after the hand.
    seat = re.search(r"Move (\w+) from table 1 seat \d to table 2 seat (\d)", expected[0])
    assert seat is not None
    name, number = seat.groups()
    row = soup(dealer.page(2)).select_one(f".dl-seat[data-seat='{number}']")
    assert row is not None and name in row.text and "finishing a hand at table 1: dealt in once it is over" in row.text


@pytest.mark.parametrize("tables", [6, 30])
def test_dealers_at_different_tables_never_refuse_each_others_writes(
    timed_app: Flask, client: FlaskClient, tables: int
) -> None:
    """Six dealers, and thirty (a club night), one at each table, enter as fast as they can,
    each from the seq of its own last answer: a write is stale only when its own table
    changed, so none is refused (the check is made inside the write's transaction), and
    nothing fails."""
    import threading

    seats = {p: (1 + (p - 1) // 3, 1 + (p - 1) % 3) for p in range(1, 3 * tables + 1)}
    dealer = make_tournament(timed_app, client, [f"P{p}" for p in seats], seats, dict.fromkeys(range(1, tables + 1), 1),
                             preset="home-short")
    statuses: list[int] = []
    refusals: list[str] = []
    errors: list[BaseException] = []

    def play(table: int) -> None:
        try:
            phone = timed_app.test_client()
            phone.post("/auth/login", data={"password": PASSWORD, "csrf_token": csrf_token(phone, "/auth/login")})
            me = Dealer(phone, dealer.tid)
            view = me.state(table)
            for _ in range(25):
                if view["phase"] == "before":
                    response = me.api("deal", {"expected_seq": view["seq"]}, table)
                else:
                    response = me.api("act", {"kind": "fold", "expected_seq": view["seq"]}, table)
                statuses.append(response.status_code)
                if response.status_code != 201:
                    refusals.append(str(response.get_json()))
                view = response.get_json() if response.status_code == 201 else me.state(table)
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(t,)) for t in range(1, tables + 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert len(statuses) == 25 * tables
    assert set(statuses) == {201}, refusals[:3]


def test_the_dashboard_leaves_the_bust_of_a_player_in_a_hand_to_the_dealers_phone(
    timed_app: Flask, client: FlaskClient
) -> None:
    """A player in a running hand has no Bust button on the dashboard (the hand settles his
    chips), and nobody in a running hand is offered as the one who knocked someone out."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    dealer = make_tournament(timed_app, client, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], seats, {1: 1, 2: 1},
                             preset="home-short")
    dealer.ok("deal", table=1)
    page = soup(client.get(f"/t/{dealer.tid}"))
    ann = page.find(id="player-1")
    assert "in hand 1 at table 1" in ann.get_text() and ann.select_one("details.bust") is None
    dee = page.find(id="player-4")
    first, split = dee.select("select[name=by]")  # the eliminator, and a second one in a split pot
    assert [o.get_text() for o in first.select("option")] == ["(not recorded)", "Eve", "Fay"]
    assert [o.get_text() for o in split.select("option")] == ["(nobody)", "Eve", "Fay"]


def test_the_dashboard_log_says_the_dealers_entries_with_the_names(dealer: Dealer) -> None:
    """Each entry of the phone reads on the dashboard as what the player did, with the amount,
    and the award as who won how much."""
    dealer.ok("deal")  # button Dee (5), small blind Ann (1), big blind Bob (2): Cy is first
    for kind, amount in (("raise", 60), ("call", None), ("fold", None), ("call", None), ("check", None),
                         ("bet", 100), ("allin", None), ("fold", None), ("call", None)):
        dealer.ok("act", {"kind": kind} if amount is None else {"kind": kind, "amount": amount})
    dealer.ok("award", {"winners": [[5]]})
    page = soup(dealer.client.get(f"/t/{dealer.tid}"))
    assert [li.text for li in page.select("ol.log li")] == [
        "Table 1: Dee wins the pot of 2,070",
        "Table 1: Cy calls all in for 940",
        "Table 1: Bob folds",
        "Table 1: Dee is all in for 940",
        "Table 1: Cy bets 100",
        "Table 1: Bob checks",
        "Table 1: Bob calls 60",
        "Table 1: Ann folds",
    ]


def knock_out_ann(dealer: Dealer) -> Any:
    """Cy and Dee fold, Ann (small blind) goes all in, Bob calls and wins with aces."""
    dealer.ok("deal")
    for kind in ("fold", "fold", "allin", "call"):
        dealer.ok("act", {"kind": kind})
    return dealer.post("cards", {"board": "2c3d4h8s9s", "cards_1": "7c7d", "cards_2": "AcAd"})


def test_a_bust_who_may_still_rebuy_is_out_without_a_place_and_gone_once_back(timed_app: Flask, client: FlaskClient) -> None:
    """A player knocked out while rebuys are open has no place yet: the phone says so, and
    once the rebuy is made the line about the bust is gone."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5)}
    dealer = make_tournament(timed_app, client, ["Ann", "Bob", "Cy", "Dee"], seats, {1: 5}, start=False)
    record(timed_app, dealer.tid, "settings_changed", {"rebuy_levels": 2})
    record(timed_app, dealer.tid, "clock", {"action": "start"})
    response = knock_out_ann(dealer)
    assert [p.text for p in soup(response).select(".dl-msg--bust")] == ["Ann is out (may still rebuy)."]
    record(timed_app, dealer.tid, "rebuy", {"player": 1})
    assert soup(dealer.page()).select(".dl-msg--bust") == []


def test_a_bust_taken_back_leaves_no_line_and_a_settled_place_is_said(dealer: Dealer) -> None:
    response = knock_out_ann(dealer)
    assert [p.text for p in soup(response).select(".dl-msg--bust")] == ["Ann is out in 4th place."]
    taken_back = dealer.post("undo")
    assert taken_back.status_code == 200 and soup(taken_back).select(".dl-msg--bust") == []
    assert soup(dealer.page()).select(".dl-msg--bust") == []


def test_a_note_of_the_house_rules_is_shown_for_its_entry_only(dealer: Dealer) -> None:
    """The note an entry made (a push ruled a call) is about that entry: the next entry
    replaces it, so the phone never shows an old ruling as news."""
    dealer.ok("deal")
    pushed = dealer.ok("push", {"chips": "100"})
    assert pushed["notes"] == [pushed["notice"]]
    assert [p.text for p in soup(dealer.page(htmx=True)).select(".dl-msg--note")] == [pushed["notice"]]
    assert dealer.ok("act", {"kind": "call"})["notes"] == []
    assert soup(dealer.page(htmx=True)).select(".dl-msg--note") == []


def test_every_message_on_the_phone_is_one_sentence(dealer: Dealer) -> None:
    """The dealer reads a message at a glance: one sentence each, whatever the page shows."""
    dealer.post("correct", {"player": "2", "stack": "1200", "reason": "a chip fell"})
    pages = [soup(knock_out_ann(dealer)), soup(dealer.page())]
    dealer.ok("deal")
    pages.append(soup(dealer.page()))
    pages.append(soup(dealer.post("misdeal", {"cause": "boxed_cards"})))
    messages = [p.get_text(" ", strip=True) for page in pages for p in page.select(".dl-msg, .dl-result, .dl-sub")]
    assert len(messages) >= 5 and any("Stacks here" in m for m in messages)
    for message in messages:
        assert not re.search(r"[.!?]\s+[A-Z]", message), message


def test_the_moves_shown_stay_the_same_while_other_tables_play(timed_app: Flask, client: FlaskClient) -> None:
    """The moves proposed must be the moves a player is told and the moves recorded: a table
    breaks and its players' seats are drawn at random; a hand dealt at another table, a pause,
    do not draw them again (they were seeded by the tournament's event count, so any entry
    anywhere changed them)."""
    seats = {p: (1, p) for p in range(1, 5)}  # tables 1 and 2: four players each; table 3: three
    seats |= {p: (2, p - 4) for p in range(5, 9)} | {p: (3, p - 8) for p in range(9, 12)}
    dealer = make_tournament(timed_app, client, [f"P{n}" for n in range(1, 12)], seats, {1: 1, 2: 1, 3: 1})

    def shown() -> list[str]:
        page = soup(dealer.client.get(f"/t/{dealer.tid}/tables"))
        return [li.text for li in page.select(".instruction[data-action] li")]

    before = shown()
    assert len(before) == 3 and all("from table 3" in m for m in before)  # 11 fit at two tables: table 3 breaks
    said = [p.text for p in soup(dealer.page(3)).select(".dl-msg--move")]
    assert said == ["Table break: this table breaks, and the director is about to give its 3 players new seats."]
    coming = [p.text for table in (1, 2) for p in soup(dealer.page(table)).select(".dl-msg--move")]
    assert all(re.fullmatch(r"Table break: the director is about to seat (a player|\d players) here from table 3\.",
                            line) for line in coming) and coming, coming
    assert not any(re.search(r"table \d+ seat \d", line) for line in said + coming)  # no seat before it is recorded
    dealer.ok("deal", table=1)
    while dealer.state(1)["phase"] == "betting":
        dealer.ok("act", {"kind": "fold"}, table=1)
    assert shown() == before
    record(timed_app, dealer.tid, "clock", {"action": "pause"})
    assert shown() == before
    confirmed = dealer.client.post(f"/api/t/{dealer.tid}/tables/confirm", json={},
                                   headers={"X-CSRFToken": dealer.token})
    assert confirmed.status_code == 201, confirmed.get_json()
    with timed_app.test_request_context():
        from director.core.db import get_db
        from director.core.store import load_state

        state = load_state(get_db(), dealer.tid)
    for line in before:  # "Move P9 from table 3 seat 1 to table 1 seat 5"
        name, table, seat = re.search(r"Move (P\d+) from .* to table (\d) seat (\d)", line).groups()  # type: ignore[union-attr]
        player = next(p for p in state.players if p.name == name)
        assert (player.table, player.seat) == (int(table), int(seat)), line


def test_hand_for_hand_ends_when_the_bubble_bursts(timed_app: Flask, client: FlaskClient) -> None:
    """TDA RP-8: hand for hand is played to the money; it stayed on after the bubble burst
    (issue 31). The bust that bursts it ends it, and the log says why."""
    from director.core.db import get_db
    from director.core.store import load_state

    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5), 5: (2, 1), 6: (2, 2), 7: (2, 3), 8: (2, 5)}
    dealer = make_tournament(timed_app, client, [f"P{n}" for n in range(1, 9)], seats, {1: 5, 2: 5})

    def api(path: str, body: dict[str, Any]) -> Any:
        return dealer.client.post(f"/api/t/{dealer.tid}/{path}", json=body, headers={"X-CSRFToken": dealer.token})

    with timed_app.test_request_context():
        paid = sum(1 for prize in load_state(get_db(), dealer.tid).prizes if prize)
    assert 2 <= paid < 7
    out = iter((1, 5, 2, 6, 3, 7))
    for _ in range(8 - paid - 1):  # to the bubble: one more out and everyone left is paid
        assert api("bust", {"player": next(out)}).status_code == 201
    assert api("hand-for-hand", {"on": True}).status_code == 201
    assert api("bust", {"player": next(out)}).status_code == 201  # the bubble bursts
    with timed_app.test_request_context():
        state = load_state(get_db(), dealer.tid)
    assert state.players_left == paid and not state.hand_for_hand
    log = soup(dealer.client.get(f"/t/{dealer.tid}/log")).get_text(" ")
    assert "Hand for hand ended: the bubble has burst" in log
    # In the money, the director may still go hand for hand (a final table's bubble): only
    # the crossing ends it.
    assert api("hand-for-hand", {"on": True}).status_code == 201
    with timed_app.test_request_context():
        assert load_state(get_db(), dealer.tid).hand_for_hand


def test_hand_for_hand_is_not_offered_at_one_table(timed_app: Flask, client: FlaskClient) -> None:
    """Issue 31: hand for hand was offered with one table left, where every hand is already
    played one at a time. The JSON API still takes it (a contract: calls that worked keep
    working, test_contract), the dashboard no longer offers it."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5)}
    dealer = make_tournament(timed_app, client, ["Ann", "Bob", "Cy", "Dee"], seats, {1: 5})
    dashboard = soup(dealer.client.get(f"/t/{dealer.tid}"))
    assert "Go hand for hand" not in dashboard.get_text(" ")
    assert dashboard.select(".clock-controls")  # (the dashboard's controls are there)


def test_the_tv_says_a_table_break_once_each_with_a_headline(timed_app: Flask, client: FlaskClient) -> None:
    """Issue 31: the TV listed every table-break move twice ("After this hand at table 3: ..."
    and "Move: ..."), in no order, with no "Table 3 breaks"; and kept a move once stale."""
    seats = {p: (1 + (p - 1) // 4, 1 + (p - 1) % 4) for p in range(1, 13)}  # three tables of four
    dealer = make_tournament(timed_app, client, [f"P{n}" for n in range(1, 13)], seats, {1: 4, 2: 4, 3: 4})
    steps = soup(dealer.client.get(f"/t/{dealer.tid}/tables")).select(".instruction[data-action='break'] li")
    assert len(steps) == 4  # twelve fit at two tables of six
    broken = int(re.search(r"from table (\d)", steps[0].text).group(1))  # type: ignore[union-attr]
    dealer.ok("deal", table=broken)  # its players finish this hand before they move
    assert dealer.client.post(f"/api/t/{dealer.tid}/tables/confirm", json={},
                              headers={"X-CSRFToken": dealer.token}).status_code == 201

    def shown(path: str = f"/t/{dealer.tid}/tv/clock") -> list[tuple[str, list[str]]]:
        page = soup(dealer.client.get(path, headers={"HX-Request": "true"}))
        return [(g.select_one(".tv-moves-title").text if g.select_one(".tv-moves-title") else "",
                 [" ".join(m.get_text(" ").split()) for m in g.select(".tv-move")]) for g in page.select(".tv-moves-group")]

    groups = shown()
    # One group: "Table 3 breaks after this hand" (its players finish the hand first), then a
    # line a player, "P9 → table 1 seat 5", in the order of the seats they walk to.
    assert len(groups) == 1 and groups[0][0] == f"Table {broken} breaks after this hand", groups
    movers = groups[0][1]
    assert len(movers) == 4 and all(re.fullmatch(r"P\d+ → table \d+ seat \d+", m) for m in movers), movers
    places = [tuple(map(int, re.search(r"table (\d+) seat (\d+)", m).groups())) for m in movers]  # type: ignore[union-attr]
    assert places == sorted(places)
    assert shown(f"/t/{dealer.tid}/tables/tv-moves") == groups
    # The receiving table's dealer is told who is still finishing a hand at the broken table:
    # not dealt in yet, no stack shown (issue 31: they were listed as seated, with a stack).
    to_table, to_seat = places[0]
    page = soup(dealer.page(to_table))
    seat = page.select_one(f'.dl-seat[data-seat="{to_seat}"]')
    assert "dl-seat--arriving" in seat["class"]
    assert f"finishing a hand at table {broken}" in seat.get_text(" ")
    assert seat.select_one(".dl-seat-stack").get_text(strip=True) == "–"
    assert dealer.state(to_table)["seats"][[s["seat"] for s in dealer.state(to_table)["seats"]].index(to_seat)][
        "status"] == "arriving"
