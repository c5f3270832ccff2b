"""The JSON answers about a tournament (director.night.answers): ``state_json`` with its players,
places, tables, prizes and clock read at a given time, ``answer``, and ``without_tokens``."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from flask import Flask
from sqlite_utils import Database

from director.core.db import get_db
from director.core.store import load_state
from director.night import commands as night_commands
from director.night.answers import answer, state_json, without_tokens
from director.setup.commands import create_tournament
from director.tables.commands import draw
from engine.tournament import Tournament


@pytest.fixture
def db(app: Flask) -> Iterator[Database]:
    with app.app_context():
        yield get_db()


def started(db: Database, names: tuple[str, ...] = ("Ann", "Bob", "Cid", "Dee", "Eve")) -> tuple[int, Tournament]:
    tid = create_tournament(db, {"name": "Friday", "buy_in": 10, "table_size": 6}, 100.0)
    for name in names:
        night_commands.register_player(db, tid, name, None, 101.0)
    draw(db, tid, None, 102.0, rng=random.Random(1))
    return tid, night_commands.clock_action(db, tid, "start", None, 200.0)


def test_state_json_of_a_tournament_with_players(db: Database) -> None:
    tid, state = started(db)
    body = state_json(state, tid, 400.0)
    assert {k: body[k] for k in ("id", "name", "seq", "server_time", "started", "finished")} == {
        "id": tid, "name": "Friday", "seq": state.seq, "server_time": 400.0, "started": True, "finished": False,
    }
    assert (body["entries"], body["players_left"], body["rebuys"], body["addons"]) == (5, 5, 0, 0)
    assert (body["chips_in_play"], body["average_stack"]) == (50_000, 10_000)
    assert body["prize_pool"] == 50 and body["payouts"] == [{"place": 1, "prize": 50}]
    assert body["settings"]["table_size"] == 6 and body["settings"]["buy_in"] == 10
    assert body["settings"]["structure"]["items"][0]["type"] == "level"
    assert [p["name"] for p in body["players"]] == ["Ann", "Bob", "Cid", "Dee", "Eve"]
    ann = body["players"][0]
    assert ann["status"] == "in" and ann["table"] == 1 and ann["seat"] is not None
    assert (ann["place"], ann["place_text"], ann["knocked_out_by"], ann["prize"]) == (None, None, None, None)
    assert "token" not in ann  # the player's page token is never in the state


def test_the_tables_list_the_players_by_seat(db: Database) -> None:
    tid, state = started(db)
    body = state_json(state, tid, 400.0)
    assert list(body["tables"]) == ["1"]
    seats = {p["id"]: p["seat"] for p in body["players"]}
    assert sorted(body["tables"]["1"]) == [1, 2, 3, 4, 5]
    assert [seats[pid] for pid in body["tables"]["1"]] == sorted(seats.values())


def test_place_text_and_knocked_out_by_after_busts(db: Database) -> None:
    tid, _ = started(db)
    night_commands.bust(db, tid, [5], None, 300.0, by=1)
    state = night_commands.bust(db, tid, [3, 4], None, 310.0, by=2, stacks={"3": 500, "4": 900})
    players = {p["name"]: p for p in state_json(state, tid, 400.0)["players"]}
    assert {n: (p["status"], p["place"], p["place_text"], p["knocked_out_by"], p["table"]) for n, p in players.items()
            if p["status"] == "out"} == {
        "Eve": ("out", 5, "5th", 1, None),
        "Dee": ("out", 3, "3rd", 2, None),
        "Cid": ("out", 4, "4th", 2, None),
    }
    body = state_json(state, tid, 400.0)
    assert body["players_left"] == 2 and body["average_stack"] == 25_000
    assert sorted(body["tables"]["1"]) == [1, 2]


def test_a_finished_tournament_names_its_winner_and_the_prize(db: Database) -> None:
    tid, _ = started(db, ("Ann", "Bob", "Cid"))
    night_commands.bust(db, tid, [3], None, 300.0, by=1)
    state = night_commands.bust(db, tid, [2], None, 310.0, by=1)
    body = state_json(state, tid, 400.0)
    assert body["finished"] and body["clock"]["status"] == "finished"
    winner = body["players"][0]
    assert (winner["name"], winner["status"], winner["place"], winner["place_text"], winner["prize"]) == (
        "Ann", "in", 1, "1st", 30)
    assert [p["place_text"] for p in body["players"]] == ["1st", "2nd", "3rd"]


def test_the_clock_is_read_at_the_time_given(db: Database) -> None:
    tid, state = started(db)
    clock = state_json(state, tid, 400.0)["clock"]
    assert {k: clock[k] for k in ("status", "level", "small_blind", "big_blind", "seconds_left", "ends_at",
                                  "next_level", "on_break")} == {
        "status": "running", "level": 1, "small_blind": 150, "big_blind": 300, "seconds_left": 700.0,
        "ends_at": 1100.0, "next_level": 2, "on_break": False,
    }
    later = state_json(state, tid, 1200.0)["clock"]
    assert (later["level"], later["seconds_left"], later["title"]) == (2, 800.0, "Level 2 · 200/400")


def test_a_points_league_has_no_prize_pool(db: Database) -> None:
    tid = create_tournament(db, {"name": "League", "payout_kind": "points"}, 100.0)
    body = state_json(load_state(db, tid), tid, 100.0)
    assert body["prize_pool"] is None and body["payouts"] == []
    assert body["settings"]["payout_kind"] == "points"
    assert body["clock"]["status"] == "not_started" and body["clock"]["ends_at"] is None


def test_answer_is_the_state_with_the_status_and_the_servers_time(app: Flask) -> None:
    app.config["NOW"] = lambda: 500.0
    with app.test_request_context("/api/t/1"):
        tid = create_tournament(get_db(), {"name": "Friday"}, 100.0)
        response, status = answer(tid)
        assert status == 201 and response.mimetype == "application/json"
        assert response.get_json()["id"] == tid and response.get_json()["server_time"] == 500.0
        assert answer(tid, 200)[1] == 200


def test_without_tokens_leaves_out_the_players_page_tokens() -> None:
    assert without_tokens({"name": "Ann", "token": "abc"}) == {"name": "Ann"}
    assert without_tokens({"seats": {"1": [1, 2]}, "tokens": {"1": "x"}}) == {"seats": {"1": [1, 2]}}
    payload = {"players": [3], "by": 1}
    assert without_tokens(payload) == payload and without_tokens(payload) is not payload
