"""The player's page, opened from the QR code on the seat card: a valid, a wrong and a busted
player's token, a moved player, and what the page must never show; with hands dealt by the
dealer's assistant, the big blind to come, the stack, a move after the hand, place and prize."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.core.db import get_db
from director.core.polls import PollCache
from director.night import commands as night_commands
from director.player.pages import ordinal
from director.setup.commands import create_tournament
from director.tables.views import player_tokens
from tests.director.conftest import PASSWORD, Director, csrf_token, soup
from tests.director.test_dealer import Dealer, record
from tests.director.test_seating_pages import T0, post, start_and_bust, state_of, tournament


@pytest.fixture
def clock(app: Flask) -> list[float]:
    now = [T0]
    app.config["NOW"] = lambda: now[0]
    return now


def drawn(app: Flask, director: Director, players: int = 12, size: int = 6) -> tuple[int, dict[int, str]]:
    tid = tournament(app, players)
    post(director, tid, "draw", table_size=size)
    director.post("/auth/logout")  # players are not logged in
    return tid, player_tokens(state_of(app, tid))


def test_a_valid_token_shows_the_players_table_and_seat(app: Flask, client: FlaskClient, director: Director) -> None:
    tid, tokens = drawn(app, director)
    state = state_of(app, tid)
    me = state.players[3]
    response = client.get(f"/p/{tokens[me.id]}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "private, no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    page = soup(response)
    assert page.select_one(".player-name").text == me.name
    assert page.select_one("[data-table]").text == str(me.table)
    assert page.select_one("[data-seat]").text == str(me.seat)
    assert page.select_one(".player-moved") is None
    # The clock as on the TV, and the field.
    assert page.select_one("#tv-clock.tv-clock--phone") is not None
    assert "Players left" in page.text
    still_in = page.select_one("#player-standings").text
    assert all(p.name in still_in for p in state.players)


def test_the_page_shows_nothing_another_player_should_not_see(
    app: Flask, client: FlaskClient, director: Director
) -> None:
    """The issue: 'It shows nothing that another player should not see (no other player's token,
    no director controls).'"""
    _tid, tokens = drawn(app, director)
    mine = tokens[1]
    for path in (f"/p/{mine}", f"/p/{mine}/live"):
        html = client.get(path).get_data(as_text=True)
        for pid, token in tokens.items():
            assert (token in html) == (pid == 1), path
        page = soup(client.get(path))
        assert page.select("form, button, input, select") == []
        assert "csrf" not in html.lower()


@pytest.mark.parametrize(
    "token",
    ["wrong-token-wrong-token", "short", "A" * 22, "bad token%00", "x" * 200],
)
def test_a_wrong_token_gets_a_friendly_page(app: Flask, client: FlaskClient, director: Director, token: str) -> None:
    drawn(app, director)
    response = client.get(f"/p/{token}")
    assert response.status_code == 404
    page = soup(response)
    assert page.select_one("h1").text == "This seat card is not recognised"
    assert "Ask the director for a new card" in page.text
    assert client.get(f"/p/{token}/live").status_code == 404


def test_a_token_from_another_database_or_an_undone_registration_is_expired(
    app: Flask, client: FlaskClient, director: Director
) -> None:
    tid = tournament(app, 3)
    late = player_tokens(state_of(app, tid))[3]
    assert client.get(f"/p/{late}").status_code == 200
    with app.app_context():
        night_commands.undo(get_db(), tid, None, T0 + 5)  # the third registration is undone
    assert client.get(f"/p/{late}").status_code == 404


def test_a_busted_players_token_shows_their_place(
    app: Flask, client: FlaskClient, director: Director, clock: list[float]
) -> None:
    tid, tokens = drawn(app, director, players=12)
    start_and_bust(app, tid, [5], T0 + 60)
    page = soup(client.get(f"/p/{tokens[5]}"))
    assert page.select_one("[data-place]")["data-place"] == "12"
    assert "You finished 12th" in page.select_one(".player-result").text
    assert page.select_one("[data-table]") is None
    standings = page.select_one("#player-standings")
    me = standings.select_one("li.me")
    assert me is not None and me.text.startswith("12th")


def test_a_moved_player_gets_a_big_notice_and_the_same_card_still_works(
    app: Flask, client: FlaskClient, director: Director, clock: list[float]
) -> None:
    """The issue: 'When a player moves, the card's QR code still works: it points to the player,
    not the seat', and the page shows 'a big notice when you have been moved'."""
    tid = tournament(app, 10)
    post(director, tid, "draw", table_size=9)
    state = state_of(app, tid)
    tokens = player_tokens(state)
    a, b = state.seating.at_table(1)[min(state.seating.at_table(1))], state.seating.at_table(2)[min(state.seating.at_table(2))]
    post(director, tid, "swap", player_a=a, player_b=b)
    new = state_of(app, tid).player(a)
    old = state.player(a)
    page = soup(client.get(f"/p/{tokens[a]}"))
    notice = page.select_one(".player-moved")
    assert notice is not None
    assert f"Go to table {new.table}, seat {new.seat} (from table {old.table} seat {old.seat})" in notice.text
    assert page.select_one("[data-table]").text == str(new.table)
    clock[0] += 31 * 60  # half an hour later the notice has served its purpose
    assert soup(client.get(f"/p/{tokens[a]}")).select_one(".player-moved") is None
    # Through the final table's redraw, the same token follows the player.
    start_and_bust(app, tid, [p for p in (1, 2, 3) if p not in (a, b)][:1], clock[0])
    post(director, tid, "confirm", action="final_table")
    final = state_of(app, tid).player(a)
    page = soup(client.get(f"/p/{tokens[a]}"))
    assert page.select_one("[data-table]").text == str(final.table)
    assert page.select_one("[data-seat]").text == str(final.seat)


def test_the_live_part_refreshes_itself_with_the_standings_out_of_band(
    app: Flask, client: FlaskClient, director: Director
) -> None:
    _tid, tokens = drawn(app, director)
    page = soup(client.get(f"/p/{tokens[2]}"))
    live = page.select_one("#player-live")
    assert live["hx-get"] == f"/p/{tokens[2]}/live" and live["hx-trigger"] == "every 2s"
    assert page.select_one("#player-standings").get("hx-swap-oob") is None
    part = soup(client.get(f"/p/{tokens[2]}/live", headers={"HX-Request": "true"}))
    assert part.select_one("#player-live") is not None
    assert part.select_one("#player-standings")["hx-swap-oob"] == "true"
    assert part.select_one("html") is None


def test_a_player_registered_late_has_no_seat_until_the_draw(app: Flask, client: FlaskClient) -> None:
    tid = tournament(app, 3)
    token = player_tokens(state_of(app, tid))[2]
    page = soup(client.get(f"/p/{token}"))
    assert "No seat yet" in page.select_one(".player-wait").text


def test_ordinal_places() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"
    ]


def test_the_event_log_and_export_hide_the_tokens_from_everyone_but_the_director(
    app: Flask, client: FlaskClient, director: Director
) -> None:
    """A player on the home network must not read the other players' tokens from the JSON API."""
    tid = tournament(app, 4)
    post(director, tid, "draw", table_size=6)
    tokens = player_tokens(state_of(app, tid))
    as_director = director.get(f"/api/t/{tid}/events").get_data(as_text=True)
    assert all(token in as_director for token in tokens.values())
    director.post("/auth/logout")
    for path in (f"/api/t/{tid}/events", f"/api/t/{tid}/export", f"/api/t/{tid}", f"/api/t/{tid}/tables"):
        response = client.get(path)
        assert response.status_code in (200, 401), path
        assert not any(token in response.get_data(as_text=True) for token in tokens.values()), path


def test_the_winners_page_says_so(app: Flask, client: FlaskClient, director: Director, clock: list[float]) -> None:
    tid, tokens = drawn(app, director, players=3)
    start_and_bust(app, tid, [2], T0 + 60)
    start_and_bust(app, tid, [3], T0 + 120)
    page = soup(client.get(f"/p/{tokens[1]}"))
    assert "You won the tournament!" in page.select_one(".player-result").text
    assert "You finished 2nd" in soup(client.get(f"/p/{tokens[3]}")).select_one(".player-result").text


def test_after_a_deal_each_player_in_it_is_told_the_place_and_the_prize(
    app: Flask, client: FlaskClient, director: Director
) -> None:
    """Issue 31 (found by the four-screen night): a deal ends the night with its players still
    seated; their phones kept showing a table and a seat, no place, no prize, and the
    standings "Still in (1)" for the winner."""
    from tests.director.test_deal import final_three

    tid = final_three(director)
    response = director.api("POST", f"/api/t/{tid}/deal", {"method": "icm", "stacks": {"1": 30000, "2": 15000,
                                                                                        "3": 5000}})
    assert response.status_code == 201, response.get_json()
    prizes = {p["id"]: (p["place"], p["prize"]) for p in response.get_json()["players"]}
    with app.app_context():
        from director.core.store import load_state

        tokens = player_tokens(load_state(get_db(), tid))
    for pid in (1, 2, 3):
        page = soup(client.get(f"/p/{tokens[pid]}"))
        place, prize = prizes[pid]
        said = page.select_one(".player-result").get_text(" ", strip=True)
        assert ("You won the tournament!" if place == 1 else f"You finished {ordinal(place)}") in said, said
        assert f"{prize:,}" in said, said
        assert page.select_one("[data-seat]") is None and "Still in" not in page.get_text()


# --------------------------------------------------------------------------- hands dealt by the assistant


def dealt_night(
    app: Flask, names: list[str], seats: dict[int, tuple[int, int]], buttons: dict[int, int],
    preset: str = "sng-1000", **settings: object,
) -> tuple[Dealer, dict[int, str]]:
    """A tournament seated as ``seats`` with the clock started, a dealer's phone logged in at
    its tables (``tests.director.test_dealer``), and the players' tokens."""
    from director.core.first_start import set_password as store_password

    with app.test_request_context():
        store_password(PASSWORD)
    phone = app.test_client()
    phone.post("/auth/login", data={"password": PASSWORD, "csrf_token": csrf_token(phone, "/auth/login")})
    with app.app_context():
        db = get_db()
        tid = create_tournament(db, {"name": "Friday", "preset": preset, "table_size": 6, **settings}, T0)
        for name in names:
            night_commands.register_player(db, tid, name, None, T0)
    record(app, tid, "seats_drawn", {
        "seats": {str(p): list(place) for p, place in seats.items()},
        "buttons": {str(t): b for t, b in buttons.items()},
    })
    record(app, tid, "clock", {"action": "start"})
    return Dealer(phone, tid), player_tokens(state_of(app, tid))


def lines(client: FlaskClient, token: str) -> dict[str, str]:
    """The player's lines on the live part: ``{"position": ..., "stack": ...}``."""
    part = soup(client.get(f"/p/{token}/live"))
    return {li["data-line"]: li.get_text() for li in part.select(".player-lines li")}


def fold_round(dealer: Dealer, table: int = 1) -> None:
    """Deal a hand and fold it to the big blind."""
    dealer.ok("deal", table=table)
    while dealer.state(table)["phase"] == "betting":
        dealer.ok("act", {"kind": "fold"}, table=table)


def test_the_big_blind_to_come_follows_the_hands_dealt(app: Flask, client: FlaskClient, clock: list[float]) -> None:
    """TDA 1.2 on the phone: Ann, Bob, Cy and Dee at seats 1, 2, 3 and 5, the button drawn on
    seat 5. The line says who is in the blinds of the hand in play, or of the next one, and
    how many hands until the big blind; the hands then dealt bear it out."""
    dealer, tokens = dealt_night(app, ["Ann", "Bob", "Cy", "Dee"], {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5)}, {1: 5})
    assert lines(client, tokens[1]) == {}  # nothing dealt here yet: the page does not guess
    dealer.ok("deal")  # button 5, small blind 1, big blind 2
    assert {pid: lines(client, tokens[pid])["position"] for pid in tokens} == {
        1: "You are the small blind this hand",
        2: "You are the big blind this hand",
        3: "You are the big blind next hand",
        4: "You have the button",
    }
    while dealer.state()["phase"] == "betting":
        dealer.ok("act", {"kind": "fold"})
    assert {pid: lines(client, tokens[pid])["position"] for pid in tokens} == {
        1: "You have the button next hand",
        2: "You are the small blind next hand",
        3: "You are the big blind next hand",
        4: "You are big blind in 2 hands",
    }
    fold_round(dealer)  # big blind seat 3
    assert lines(client, tokens[4])["position"] == "You are the big blind next hand"
    dealer.ok("deal")
    assert dealer.state()["positions"].endswith("big blind seat 5")
    assert [lines(client, tokens[pid])["position"] for pid in (4, 1, 2, 3)] == [
        "You are the big blind this hand", "You are the big blind next hand", "You have the button",
        "You are the small blind this hand",
    ]
    while dealer.state()["phase"] == "betting":
        dealer.ok("act", {"kind": "fold"})
    assert lines(client, tokens[4])["position"] == "You are the small blind next hand"
    fold_round(dealer)  # big blind seat 1
    fold_round(dealer)  # big blind seat 2
    assert lines(client, tokens[4])["position"] == "You are big blind in 2 hands"  # after seat 3
    fold_round(dealer)
    dealer.ok("deal")
    assert dealer.state()["positions"].endswith("big blind seat 5")


def test_the_count_skips_nobody_after_a_knockout(app: Flask, client: FlaskClient, clock: list[float]) -> None:
    """Seed 000: "the big blind always moves on by one player". Cy (seat 3) is knocked out
    under the gun: Dee (seat 5) is the next big blind, Bob the small blind (the former big
    blind), Ann on the button."""
    dealer, tokens = dealt_night(app, ["Ann", "Bob", "Cy", "Dee"], {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5)}, {1: 5})
    dealer.ok("deal")  # button 5, small blind 1, big blind 2; seat 3 first
    dealer.ok("act", {"kind": "allin"})
    dealer.ok("act", {"kind": "call"})  # Dee
    dealer.ok("act", {"kind": "fold"})
    dealer.ok("act", {"kind": "fold"})
    dealer.ok("cards", {"board": "2c3d4h8s9s", "cards": {"3": "7c7d", "5": "AcAd"}})
    assert state_of(app, dealer.tid).player(3).out
    assert [lines(client, tokens[pid])["position"] for pid in (4, 2, 1)] == [
        "You are the big blind next hand", "You are the small blind next hand", "You have the button next hand",
    ]
    dealer.ok("deal")
    assert dealer.state()["positions"] == "Button seat 1 · small blind seat 2 · big blind seat 5"


def test_the_stack_where_the_assistant_deals(app: Flask, client: FlaskClient, clock: list[float]) -> None:
    """The stack kept by the dealer's assistant, in chips and in big blinds of the level in
    play; in a hand, the stack it started with; at a table dealt without the assistant, none."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    dealer, tokens = dealt_night(app, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], seats, {1: 3, 2: 3})
    dealer.ok("deal")  # button 3, small blind 1, big blind 2 at 10/20
    assert lines(client, tokens[1])["stack"] == "Your stack: 1,000 (50 BB) before this hand"
    dealer.ok("act", {"kind": "raise", "amount": 60})  # Cy
    dealer.ok("act", {"kind": "fold"})
    dealer.ok("act", {"kind": "fold"})
    assert lines(client, tokens[3])["stack"] == "Your stack: 1,030 (51 BB)"
    assert lines(client, tokens[1])["stack"] == "Your stack: 990 (49 BB)"
    assert lines(client, tokens[2])["stack"] == "Your stack: 980 (49 BB)"
    assert lines(client, tokens[4]) == {}  # table 2 is dealt by hand


def test_a_move_waits_for_the_players_hand_then_is_done(app: Flask, client: FlaskClient, clock: list[float]) -> None:
    """TDA 20 / WSOP 67: a player moved while in a hand finishes it first: the phone says so,
    then, once the hand is over, that the move is done, until the notice has served."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    dealer, tokens = dealt_night(app, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], seats, {1: 3, 2: 3})
    dealer.ok("deal")
    record(app, dealer.tid, "player_moved", {"player": 3, "table": 2, "seat": 4})
    page = soup(client.get(f"/p/{tokens[3]}"))
    notice = page.select_one(".player-moved")
    assert notice["data-move"] == "waiting"
    assert notice.strong.get_text() == "You move to table 2 seat 4 after this hand"
    assert "Finish the hand at table 1 first." in notice.get_text()
    assert page.select_one("[data-table]").get_text() == "2" and page.select_one("[data-seat]").get_text() == "4"
    assert "position" not in lines(client, tokens[3])  # he is still in the hand at table 1
    assert lines(client, tokens[3])["stack"] == "Your stack: 1,000 (50 BB) before this hand"
    while dealer.state()["phase"] == "betting":
        dealer.ok("act", {"kind": "fold"})
    notice = soup(client.get(f"/p/{tokens[3]}")).select_one(".player-moved")
    assert notice["data-move"] == "done"
    assert notice.strong.get_text() == "You moved to table 2 seat 4"
    assert "Go to table 2, seat 4 (from table 1 seat 3)." in notice.get_text()
    clock[0] += 31 * 60
    assert soup(client.get(f"/p/{tokens[3]}")).select_one(".player-moved") is None


def test_a_player_knocked_out_in_a_hand_sees_place_and_prize(
    app: Flask, client: FlaskClient, clock: list[float]
) -> None:
    """Three players at 20 each, 60% and 40% paid: Cy, all in and beaten, finishes 3rd with
    nothing; Bob 2nd with 24, and Ann wins 36."""
    dealer, tokens = dealt_night(app, ["Ann", "Bob", "Cy"], {1: (1, 1), 2: (1, 2), 3: (1, 3)}, {1: 3},
                                 buy_in=20, payout_kind="custom", percentages="60 40")
    dealer.ok("deal")  # button 3, small blind 1, big blind 2: Cy first
    dealer.ok("act", {"kind": "allin"})
    dealer.ok("act", {"kind": "call"})  # Ann
    dealer.ok("act", {"kind": "fold"})
    dealer.ok("cards", {"board": "2c3d4h8s9s", "cards": {"3": "7c7d", "1": "AcAd"}})
    result = soup(client.get(f"/p/{tokens[3]}")).select_one(".player-result")
    assert result["data-place"] == "3" and result.get_text() == "You finished 3rd"
    assert lines(client, tokens[3]) == {}
    dealer.ok("deal")  # heads-up: Bob on the button and small blind, Ann the big blind
    assert lines(client, tokens[2])["position"] == "You have the button and the small blind this hand"
    assert lines(client, tokens[1])["position"] == "You are the big blind this hand"
    dealer.ok("act", {"kind": "allin"})
    dealer.ok("act", {"kind": "call"})
    dealer.ok("cards", {"board": "2c3d4h8s9s", "cards": {"1": "AcAd", "2": "7c7d"}})
    assert soup(client.get(f"/p/{tokens[2]}")).select_one(".player-result").get_text() == "You finished 2nd: 24"
    assert soup(client.get(f"/p/{tokens[1]}")).select_one(".player-result").get_text() == (
        "You won the tournament! 1st: 36"
    )


def test_a_player_out_who_may_rebuy_is_told_until_when(app: Flask, client: FlaskClient, clock: list[float]) -> None:
    """Rebuys until level 4 (a break follows it): the player out in a hand is not placed yet."""
    dealer, tokens = dealt_night(app, ["Ann", "Bob", "Cy"], {1: (1, 1), 2: (1, 2), 3: (1, 3)}, {1: 3},
                                 preset="home-short", rebuy_levels=4)
    dealer.ok("deal")
    dealer.ok("act", {"kind": "allin"})
    dealer.ok("act", {"kind": "call"})
    dealer.ok("act", {"kind": "fold"})
    dealer.ok("cards", {"board": "2c3d4h8s9s", "cards": {"3": "7c7d", "1": "AcAd"}})
    result = soup(client.get(f"/p/{tokens[3]}")).select_one(".player-result")
    assert result.get("data-place") is None
    assert result.get_text() == "You are out; you may still rebuy until the end of level 4 and the break after it"
    assert lines(client, tokens[1])["stack"] == "Your stack: 20,300 (67 BB)"  # 10,000 + 10,000 + the big blind


def test_the_stack_in_big_blinds_follows_the_level_without_an_event(
    app: Flask, client: FlaskClient, clock: list[float]
) -> None:
    """The answer kept for the polls (``director.polls``) lasts until the level ends: at 300
    the 10,000 chips are 33 big blinds, at level 2 (400) 25, with nothing recorded between."""
    dealer, tokens = dealt_night(app, ["Ann", "Bob", "Cy"], {1: (1, 1), 2: (1, 2), 3: (1, 3)}, {1: 3},
                                 preset="home-short")
    fold_round(dealer)  # Cy on the button keeps his 10,000
    clock[0] += 14 * 60 + 30  # half a minute before level 2
    polls = app.wsgi_app
    assert isinstance(polls, PollCache)
    hits = polls.hits
    assert lines(client, tokens[3])["stack"] == "Your stack: 10,000 (33 BB)"
    assert lines(client, tokens[3])["stack"] == "Your stack: 10,000 (33 BB)"
    assert polls.hits == hits + 1  # the kept answer
    clock[0] += 40
    assert lines(client, tokens[3])["stack"] == "Your stack: 10,000 (25 BB)"


def test_a_finished_nights_phone_says_no_move_and_no_blind(app: Flask, client: FlaskClient,
                                                            clock: list[float]) -> None:
    """Once a player's place is known, his phone says the place and nothing of a seat: the
    winner, moved to the final table minutes before, was still told in orange "You moved to
    table 1 seat 5" and "You are the big blind next hand" under "You won the tournament!"."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    dealer, tokens = dealt_night(app, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], seats, {1: 3, 2: 3})
    record(app, dealer.tid, "player_moved", {"player": 1, "table": 2, "seat": 4})
    page = soup(client.get(f"/p/{tokens[1]}"))
    assert page.select_one(".player-moved") is not None  # the move, while the night goes on
    start_and_bust(app, dealer.tid, [2, 3, 5, 6], clock[0] + 30)
    assert "big blind" in lines(client, tokens[1]).get("position", "big blind")
    start_and_bust(app, dealer.tid, [4], clock[0] + 40)
    page = soup(client.get(f"/p/{tokens[1]}"))
    assert "You won the tournament!" in page.select_one(".player-result").text
    assert page.select_one(".player-moved") is None
    assert "big blind" not in page.get_text() and lines(client, tokens[1]).get("position") is None
