"""The player's page, opened from the QR code on the seat card: a valid, a wrong and a busted
player's token, a moved player, and what the page must never show."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director import services
from director.db import get_db
from director.player import ordinal
from director.seating.views import player_tokens
from tests.director.conftest import Director, soup
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
        services.undo(get_db(), tid, None, T0 + 5)  # the third registration is undone
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
    assert live["hx-get"] == f"/p/{tokens[2]}/live" and live["hx-trigger"] == "every 10s"
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
