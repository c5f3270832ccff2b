"""The event store: append in one transaction, stale writes refused, the cached fold."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask

from director.db import get_db
from director.events import (
    StaleWrite,
    UnknownTournament,
    append,
    cache,
    create_tournament,
    load_events,
    load_state,
)
from engine.errors import InvalidInput
from tests.director.conftest import PASSWORD, Director, new_tournament


def test_create_and_append_events(app: Flask) -> None:
    with app.app_context():
        db = get_db()
        tid = create_tournament(db, "Friday", {"name": "Friday"}, 100.0)
        append(db, tid, "player_registered", {"name": "Ann"}, 1, 101.0)
        append(db, tid, "player_registered", {"name": "Bob"}, 2, 102.0)
        events = load_events(db, tid)
        assert [(e.seq, e.type, e.at) for e in events] == [
            (1, "created", 100.0), (2, "player_registered", 101.0), (3, "player_registered", 102.0)
        ]
        assert [p.name for p in load_state(db, tid).players] == ["Ann", "Bob"]


def test_stale_append_is_refused_and_writes_nothing(app: Flask) -> None:
    with app.app_context():
        db = get_db()
        tid = create_tournament(db, "Friday", {"name": "Friday"}, 100.0)
        append(db, tid, "player_registered", {"name": "Ann"}, 1, 101.0)
        with pytest.raises(StaleWrite, match="Someone else changed this tournament a moment ago"):
            append(db, tid, "player_registered", {"name": "Bob"}, 1, 102.0)
        assert len(load_events(db, tid)) == 2


def test_invalid_setup_writes_nothing(app: Flask) -> None:
    with app.app_context():
        db = get_db()
        with pytest.raises(InvalidInput):
            create_tournament(db, "x", {"name": "x", "table_size": 7}, 1.0)
        assert db["tournaments"].count == 0


def test_unknown_tournament(app: Flask) -> None:
    with app.app_context(), pytest.raises(UnknownTournament, match="no tournament number 5"):
        load_state(get_db(), 5)


def test_cached_state_follows_new_events_and_a_cold_cache_agrees(app: Flask) -> None:
    with app.app_context():
        db = get_db()
        tid = create_tournament(db, "Friday", {"name": "Friday"}, 100.0)
        first = load_state(db, tid)
        assert load_state(db, tid) is first  # cached
        append(db, tid, "player_registered", {"name": "Ann"}, 1, 101.0)
        warm = load_state(db, tid)
        assert warm.seq == 2 and warm.history.base is first  # advanced incrementally from it
        cache.clear()
        cold = load_state(db, tid)
        assert cold == warm and cold is not warm


def test_two_clients_racing_the_same_bust(app: Flask) -> None:
    """Two directors' phones press "bust" for the same player at the same moment: one bust
    is recorded, the other is told the tournament changed (409)."""
    setup = app.test_client()
    from tests.director.conftest import set_password

    set_password(setup, PASSWORD)
    director = Director(setup)
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee"], start=True)
    other = app.test_client()
    token = other.get("/api/session").get_json()["csrf_token"]
    other.post("/api/login", json={"password": PASSWORD}, headers={"X-CSRFToken": token})
    token_other = other.get("/api/session").get_json()["csrf_token"]
    clients = [(setup, director.token), (other, token_other)]
    for player in (2, 3):
        seq = setup.get(f"/api/t/{tid}").get_json()["seq"]
        barrier = threading.Barrier(2)
        statuses: list[int] = []

        def press(
            client: Any, csrf: str, player: int = player, seq: int = seq,
            barrier: threading.Barrier = barrier, statuses: list[int] = statuses,
        ) -> None:
            barrier.wait()
            response = client.post(
                f"/api/t/{tid}/bust", json={"player": player, "expected_seq": seq}, headers={"X-CSRFToken": csrf}
            )
            statuses.append(response.status_code)

        threads = [threading.Thread(target=press, args=c) for c in clients]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(statuses) == [201, 409]
    events = setup.get(f"/api/t/{tid}/events").get_json()["events"]
    assert [e["type"] for e in events].count("bust") == 2
    assert setup.get(f"/api/t/{tid}").get_json()["players_left"] == 2


def test_a_cash_night_is_not_a_tournament(app: Flask, client: Any) -> None:
    with app.app_context():
        db = get_db()
        db.execute("INSERT INTO tournaments (name, created_at, last_seq, kind) VALUES ('Cash', 1.0, 0, 'cash')")
        db.conn.commit()
        with pytest.raises(UnknownTournament):
            load_state(db, 1)
    assert client.get("/t/1").status_code == 404
