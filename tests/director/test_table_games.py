"""The dealer's page in every game it follows (the issue on games): a *Pot* button with the exact
amount, no all-in past the pot in pot limit, the limit's one bet with the raises left, the game
named on the page, Omaha's four hole cards at the showdown, and a game the assistant does not
deal said so."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine.structure import Level, Structure, structure_to_dict
from tests.director.conftest import PASSWORD, csrf_token
from tests.director.test_dealer import Dealer, record, soup


def at_game(app: Flask, client: FlaskClient, game: str, choices: tuple[str, ...] = ()) -> Dealer:
    """Four players at table 1 (seats 1, 2, 3, 5; the button on seat 5), 1,000 chips each, the
    first level 10/20 at ``game`` (dealer's choice among ``choices``)."""
    from director.core.db import get_db
    from director.core.first_start import set_password
    from director.night import commands as night_commands
    from director.setup.commands import create_tournament

    structure = Structure("Mixed", (Level(10, 20, hands=5, game=game), Level(20, 40, hands=5)), 1000,
                          choices=choices)
    with app.test_request_context():
        set_password(PASSWORD)
    client.post("/auth/login", data={"password": PASSWORD, "csrf_token": csrf_token(client, "/auth/login")})
    with app.test_request_context():
        db = get_db()
        tid = create_tournament(db, {"name": "Mixed", "structure": structure_to_dict(structure),
                                     "starting_stack": 1000, "table_size": 6}, 1.0)
        for name in ("Ann", "Bob", "Cy", "Dee"):
            night_commands.register_player(db, tid, name, None, 2.0)
    record(app, tid, "seats_drawn", {"seats": {"1": [1, 1], "2": [1, 2], "3": [1, 3], "4": [1, 5]}, "buttons": {"1": 5}})
    record(app, tid, "clock", {"action": "start"})
    return Dealer(client, tid)


def buttons(response: Any) -> list[str]:
    return [b.get_text(" ", strip=True) for b in soup(response).select("#dealer .dl-pad button, #dealer .dl-quick button")]


def test_pot_limit_omaha_has_a_pot_button_and_no_all_in_past_the_pot(timed_app: Flask, client: FlaskClient) -> None:
    """TDA 54: the most is the pot after the call. 10/20, seat 3 first to act: 30 + the call 20
    makes 50 over the 20, a raise to 70."""
    dealer = at_game(timed_app, client, "plo")
    dealer.ok("deal")
    page = dealer.page()
    assert soup(page).select_one("#dealer .dl-game").get_text(strip=True) == (
        "Pot-Limit Omaha · the most is the pot, 70"
    )
    shown = buttons(page)
    assert "Pot 70" in shown and not any(b.startswith("All-in") for b in shown)
    assert dealer.state()["game_text"] == "Pot-Limit Omaha · the most is the pot, 70"
    refused = dealer.api("act", {"kind": "raise", "amount": 71})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == "Pot limit: the most seat 3 can raise to is 70."
    dealer.ok("act", {"kind": "raise", "amount": 70})
    history = soup(dealer.client.get(f"/t/{dealer.tid}/table/1/history")).get_text(" ", strip=True)
    assert "Hand 1 · Pot-Limit Omaha · level 1" in history  # the hand history names the hand's game
    for _ in range(3):
        dealer.ok("act", {"kind": "fold"})
    phh = dealer.client.get(f"/t/{dealer.tid}/table/1/hands.phhs").get_data(as_text=True)
    assert 'variant = "PO"' in phh


def test_pot_limit_says_the_pot_and_apart_the_most_a_short_stack_can_raise_to(timed_app: Flask, client: FlaskClient) -> None:
    """TDA 54: the most is the pot after the call, here a raise to 70 (30 + the call 20 over the
    20); seat 3 has only 50, so the banner names the pot and, apart, the most seat 3 can raise
    to, its all-in. Half pot is a raise to 20 + 25 = 45, worked out from the whole pot; pot,
    past the stack, is the all-in."""
    dealer = at_game(timed_app, client, "plo")
    record(timed_app, dealer.tid, "stack_corrected", {"player": 3, "stack": 50, "reason": "set up"})
    dealer.ok("deal")
    page = dealer.page()
    banner = "Pot-Limit Omaha · pot 70 · the most seat 3 can raise to: 50 (all-in)"
    assert soup(page).select_one("#dealer .dl-game").get_text(strip=True) == banner
    assert dealer.state()["game_text"] == banner
    assert [b.get_text(strip=True) for b in soup(page).select("#dealer .dl-quick button")] == [
        "Min 40", "½ pot 45", "All-in 50"]
    refused = dealer.api("act", {"kind": "raise", "amount": 99_999_999_999})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == "Seat 3 cannot raise to 99,999,999,999: the most they can raise to is 50 (all in)."
    dealer.ok("act", {"kind": "raise", "amount": 45})


def test_pot_limit_refuses_any_number_past_the_pot_with_the_pot_limit(timed_app: Flask, client: FlaskClient) -> None:
    """TDA 54: seat 3's most is the pot, 70, well below its 1,000: a raise past the stack, however
    big, is refused with the pot limit, this player's limit."""
    dealer = at_game(timed_app, client, "plo")
    dealer.ok("deal")
    for amount in (5_000, 99_999_999_999):
        refused = dealer.api("act", {"kind": "raise", "amount": amount})
        assert refused.status_code == 422
        assert refused.get_json()["error"] == "Pot limit: the most seat 3 can raise to is 70."


def test_limit_holdem_has_one_raise_button_and_counts_the_raises_left(timed_app: Flask, client: FlaskClient) -> None:
    """Limit 10/20 deals bets of 20 and 40: before the flop the big blind is the bet, then a raise
    to 40, with three raises to the cap."""
    dealer = at_game(timed_app, client, "lhe")
    dealer.ok("deal")
    page = dealer.page()
    assert soup(page).select_one("#dealer .dl-game").get_text(strip=True) == (
        "Limit Hold'em · bets of 20 · 3 raises left"
    )
    assert "Raise to 40" in buttons(page)
    assert soup(page).select_one("#dealer details.dl-raise") is None  # no amount to type: the bet is fixed
    refused = dealer.api("act", {"kind": "raise", "amount": 60})
    assert refused.get_json()["error"] == "Limit: seat 3 cannot raise to 60; the raise is to 40."
    dealer.post("act", {"kind": "raise", "amount": "40", "expected_seq": str(dealer.state()["seq"])})
    assert "2 raises left" in soup(dealer.page()).select_one("#dealer .dl-game").get_text()


def test_omaha_cards_at_the_showdown_are_four(timed_app: Flask, client: FlaskClient) -> None:
    dealer = at_game(timed_app, client, "plo")
    dealer.ok("deal")
    for _ in range(3):
        dealer.ok("act", {"kind": "call"})
    dealer.ok("act", {"kind": "check"})
    for _ in range(3):
        for _ in range(4):
            dealer.ok("act", {"kind": "check"})
    page = soup(dealer.page())
    field = page.select_one("#dealer input[name=cards_1]")
    assert field is not None and field["placeholder"] == "e.g. AsKdQhJc"


@pytest.mark.parametrize("game", ["stud"])
def test_a_game_the_assistant_does_not_deal_is_said_so(timed_app: Flask, client: FlaskClient, game: str) -> None:
    """The issue on games: games the assistant does not deal "may still be named on a level for the
    clock, with the assistant saying it does not follow that game"."""
    dealer = at_game(timed_app, client, game)
    refused = dealer.api("deal")
    assert refused.status_code == 422
    assert refused.get_json()["error"].startswith("Level 1 is Seven-Card Stud: the dealer's assistant does not follow")
    assert "does not follow that game" in soup(dealer.page()).select_one("#dealer").get_text()


# --- cash tables, each at its own game -------------------------------------------------------------------


def test_a_cash_table_plays_its_own_game(director: Any) -> None:
    """The issue on games: "The cash game's tables too, each at its own game"."""
    from tests.director.test_cash import add_member, new_session, sit

    ann, bob = add_member(director, "Ann"), add_member(director, "Bob")
    sid = new_session(director, {"seats": 9, "stake": "50/100", "game": "plo"}, {"seats": 6, "stake": "50/100"})
    tables = director.api("GET", f"/api/cash/{sid}").get_json()["tables"]
    assert [t["game"] for t in tables] == ["plo", "nlhe"]
    assert sit(director, sid, ann, 1, 10_000).status_code == 201
    assert sit(director, sid, bob, 4, 6_000).status_code == 201
    page = soup(director.get(f"/cash/{sid}"))
    assert "Pot-Limit Omaha" in page.select_one("#table-1 h2").get_text()
    dealt = director.post(f"/cash/{sid}/table/1/deal", {"button": "1"}, htmx=True)
    assert dealt.status_code == 200
    assert "Pot-Limit Omaha · the most is the pot, 300" in soup(dealt).select_one("#dealer .dl-game").get_text()
    added = director.api("POST", f"/api/cash/{sid}/add_table", {"seats": 6, "stake": "50/100", "game": "lhe"})
    assert added.status_code == 201
    assert [t["game"] for t in director.api("GET", f"/api/cash/{sid}").get_json()["tables"]] == ["plo", "nlhe", "lhe"]


def test_a_cash_table_of_a_game_the_assistant_does_not_deal_is_refused(director: Any) -> None:
    refused = director.api("POST", "/api/cash", {"name": "Stud", "tables": [{"seats": 9, "stake": "50/100", "game": "stud"}]})
    assert refused.status_code == 422
    assert "stud" in refused.get_json()["error"]
    from engine import cash
    from engine.errors import InvalidInput
    from engine.events import Event

    with pytest.raises(InvalidInput) as info:
        cash.create(Event(1, "created", {"name": "Stud", "tables": [{"seats": 9, "small_blind": 50, "big_blind": 100,
                                                                        "game": "stud"}]}, 0.0))
    assert str(info.value) == (
        "Table 1 cannot play Seven-Card Stud: a cash table plays a game the dealer's assistant follows "
        "(nlhe, plhe, lhe, plo, plo5, lo, plo8, lo8)."
    )


def test_at_dealers_choice_the_dealer_picks_the_game_with_the_deal(timed_app: Flask, client: FlaskClient) -> None:
    """The issue on games: "dealer's choice" where the dealer picks the game at each hand from
    the host's list."""
    dealer = at_game(timed_app, client, "choice", ("plo", "lhe"))
    page = soup(dealer.page())
    options = [(o["value"], o.get_text()) for o in page.select("#dealer form.dl-deal select[name=game] option")]
    assert options == [("plo", "Pot-Limit Omaha"), ("lhe", "Limit Hold'em")]
    assert "Dealer's choice" in page.select_one("#dealer").get_text()
    assert dealer.state()["game_choices"] == ["plo", "lhe"]
    refused = dealer.api("deal")
    assert refused.status_code == 422
    assert refused.get_json()["error"] == "Level 1 is dealer's choice: say which game this hand is, one of plo, lhe."
    dealt = dealer.post("deal", {"game": "lhe", "expected_seq": str(dealer.state()["seq"])})
    assert dealt.status_code == 200
    assert "Limit Hold'em · bets of 20" in soup(dealt).select_one("#dealer .dl-game").get_text()


@pytest.mark.parametrize("kept", [False, True], ids=["lifted heads-up", "kept until the last two (TDA 48)"])
def test_the_limits_cap_heads_up_is_the_houses_choice(timed_app: Flask, client: FlaskClient, kept: bool) -> None:
    """TDA 48: "In limit the house cap applies even heads-up, until the whole event is down to
    2 players"; in a cash game (RRoP) raising is unlimited heads-up, which stays the default.
    Four players are in the tournament; the hand is down to two after a raise."""
    dealer = at_game(timed_app, client, "lhe")
    if kept:
        changed = dealer.client.post(f"/api/t/{dealer.tid}/settings", json={"limit_cap_heads_up": True},
                                     headers={"X-CSRFToken": dealer.token})
        assert changed.status_code in (200, 201), changed.get_json()
        settings = dealer.client.get(f"/t/{dealer.tid}/settings")
        assert soup(settings).select_one("input[name=limit_cap_heads_up]").has_attr("checked")
    dealer.ok("deal")
    dealer.ok("act", {"kind": "fold"})  # seat 3
    dealer.ok("act", {"kind": "raise", "amount": 40})  # seat 5, the button
    dealer.ok("act", {"kind": "fold"})  # seat 1: the button and the big blind are left
    dealer.ok("act", {"kind": "raise", "amount": 60})  # seat 2
    dealer.ok("act", {"kind": "raise", "amount": 80})  # seat 5: the big blind and three raises
    again = dealer.api("act", {"kind": "raise", "amount": 100})  # seat 2
    if kept:
        assert again.status_code == 422
        assert again.get_json()["error"] == ("Seat 2 cannot raise: the betting is capped at a bet and 3 raises; "
                                            "seat 2 may only call or fold.")
        assert "0 raises left" in dealer.state()["game_text"]
    else:
        assert again.status_code == 201, again.get_json()
        assert "raises left" not in dealer.state()["game_text"]
