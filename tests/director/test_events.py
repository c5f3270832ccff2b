"""The event store: append in one transaction, stale writes refused, the cached fold."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask

from director.core.db import get_db
from director.core.store import (
    StaleWrite,
    UnknownTournament,
    append,
    cache,
    load_events,
    load_state,
    new_stream,
    tournament_created,
)
from director.core.work import unit_of_work
from engine.errors import InvalidInput
from tests.director.conftest import PASSWORD, Director, new_tournament


def create_tournament(db: Any, name: str, payload: dict[str, Any], now: float) -> int:
    """A tournament stream straight in the store: its ``created`` event checked, then written."""
    created = tournament_created(payload, now)
    with unit_of_work(db) as work:
        return new_stream(work, "tournament", name, created, now)


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
        assert db["streams"].count == 0


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
        db.execute("INSERT INTO streams (name, created_at, last_seq, kind) VALUES ('Cash', 1.0, 0, 'cash')")
        db.conn.commit()
        with pytest.raises(UnknownTournament):
            load_state(db, 1)
    assert client.get("/t/1").status_code == 404


def _long_night(db: Any, events_wanted: int) -> int:
    """A seeded two-table night appended straight to the store: hands folded round to the big
    blind at two tables in turn, with undos now and then."""
    import random

    from director.core.store import append, load_state

    rng = random.Random(11)
    tid = create_tournament(db, "Long", {"name": "Long", "starting_stack": 100_000, "table_size": 6}, 0.0)
    at = [1.0]

    def add(type_: str, payload: dict[str, Any]) -> None:
        state = load_state(db, tid)
        append(db, tid, type_, payload, state.seq, at[0])
        at[0] += 1.0

    for i in range(8):
        add("player_registered", {"name": f"P{i}"})
    add("seats_drawn", {"seats": {str(p): [1 + (p - 1) // 4, 1 + (p - 1) % 4] for p in range(1, 9)},
                        "buttons": {"1": 1, "2": 1}})
    add("clock", {"action": "start"})
    while load_state(db, tid).seq < events_wanted:
        state = load_state(db, tid)
        table = rng.choice([1, 2])
        running = state.dealing.running(table)
        if running is None:
            add("hand_started", {"table": table})
        elif rng.random() < 0.05:
            add("undo", {})
        else:
            hand = running.replay()
            add("hand_action", {"table": table, "action": f"p{hand.turn} f"})
    return tid


@pytest.mark.slow
def test_a_restart_from_a_snapshot_gives_the_state_of_a_full_refold(app: Flask, monkeypatch: Any) -> None:
    """Restart cost is the tail: the snapshot plus the events after it equal a fold of every
    event; an undo further back than the snapshot's history folds every event again; a
    snapshot of another engine version is ignored."""
    import engine.events

    monkeypatch.setattr(engine.events, "CHECKPOINTS_KEPT", 1)  # a short cut history: few undos cross it
    from director.core.store import (
        SNAPSHOT_VERSION,
        load_events,
        load_snapshot,
        played_as_stored,
        save_snapshot,
        snapshot_seq,
    )
    from engine.tournament import fold

    with app.app_context():
        db = get_db()
        tid = _long_night(db, 1500)
        saved = load_state(db, tid)
        assert save_snapshot(db, tid, saved) > 0
        assert snapshot_seq(db, tid) == saved.seq
        from director.core.store import append

        for _ in range(40):  # the night goes on after the snapshot
            state = load_state(db, tid)
            table = 1 if state.dealing.running(1) is not None or state.dealing.running(2) is None else 2
            running = state.dealing.running(table)
            if running is None:
                append(db, tid, "hand_started", {"table": table}, state.seq, 5000.0)
            else:
                append(db, tid, "hand_action", {"table": table, "action": f"p{running.replay().turn} f"},
                       state.seq, 5000.0)
        cache.clear()
        restarted = load_state(db, tid)
        refolded = fold(played_as_stored(load_events(db, tid)))
        assert restarted.history.base is not None and restarted.history.floor > 0
        assert restarted == refolded and restarted.seq == refolded.seq
        kept = restarted.log  # the live events since the cut, the same as the refold's
        assert kept and kept == refolded.log[len(refolded.log) - len(kept):]
        assert [h.number for h in restarted.dealing.at_table(1)] == [h.number for h in refolded.dealing.at_table(1)]
        undo_restarted = load_state(db, tid)
        append(db, tid, "undo", {}, undo_restarted.seq, 6000.0)
        cache.clear()
        assert load_state(db, tid) == fold(played_as_stored(load_events(db, tid)))

        cache.clear()
        state = load_state(db, tid)  # from the snapshot again: its history is cut
        for _ in range(state.history.depth - state.history.floor + 3):
            append(db, tid, "undo", {}, load_state(db, tid).seq, 7000.0)
        assert load_state(db, tid) == fold(played_as_stored(load_events(db, tid)))

        db.execute("UPDATE snapshots SET version = 'old' WHERE stream_id = ?", [tid])
        db.conn.commit()
        assert load_snapshot(db, tid, 10**9) is None and snapshot_seq(db, tid) is None
        assert SNAPSHOT_VERSION != "old"
        cache.clear()
        assert load_state(db, tid) == fold(played_as_stored(load_events(db, tid)))


def test_a_cold_cache_folds_once_for_many_requests_at_once(app: Flask, monkeypatch: Any) -> None:
    """After a restart, sixteen phones asking at the same moment wait for one fold instead of
    each folding the night again."""
    import director.core.store as store

    with app.app_context():
        db = get_db()
        tid = create_tournament(db, "Busy", {"name": "Busy"}, 0.0)
        append(db, tid, "player_registered", {"name": "Ann"}, 1, 1.0)
    cache.clear()
    folds: list[int] = []
    real = store.refold

    def counted(db: Any, tournament_id: int, kind: Any = None) -> Any:
        folds.append(tournament_id)
        return real(db, tournament_id, kind)

    monkeypatch.setattr(store, "refold", counted)
    seqs: list[int] = []

    def ask() -> None:
        with app.app_context():
            seqs.append(load_state(get_db(), tid).seq)

    threads = [threading.Thread(target=ask) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert seqs == [2] * 16 and folds == [tid]


def test_the_command_path_writes_a_snapshot_every_so_many_events(app: Flask, monkeypatch: Any) -> None:
    """Restart cost is the tail: the states that commands leave in the cache are snapshotted
    too (in a thread of their own), every ``SNAPSHOT_EVERY`` events."""
    import director.core.store as store
    from director.night import commands as night_commands
    monkeypatch.setattr(store, "SNAPSHOT_EVERY", 5)
    with app.test_request_context():
        db = get_db()
        tid = create_tournament(db, "Snap", {"name": "Snap"}, 1.0)
        for i in range(6):
            night_commands.register_player(db, tid, f"P{i}", None, 2.0 + i)
        store.cache.flush()
        seq = store.snapshot_seq(db, tid)
        assert seq is not None and seq >= 5


def test_a_read_that_waits_its_turn_to_fold_takes_the_state_a_command_seeded_meanwhile(
    app: Flask, monkeypatch: Any
) -> None:
    """Under a club night's writes, a poll read seq N, then waited for the fold lock while a
    dealer's command committed N+1 and seeded the cache: it must take that state, not fold
    the night again from its snapshot (that refold was most of the server's time)."""
    from director.core import store

    with app.app_context():
        db = get_db()
        tid = create_tournament(db, "Friday", {"name": "Friday"}, 100.0)
        for seq, name in enumerate(("Ann", "Bob", "Cid"), start=1):
            append(db, tid, "player_registered", {"name": name}, seq, 100.0 + seq)
        database = app.config["DATABASE"]
        newest = load_state(db, tid)  # seq 4
        behind = store.fold(store.played_as_stored(load_events(db, tid)[:2]))  # seq 2
        cache.clear()
        cache.put(database, tid, behind)
        key = (database, tid)
        reads = iter([3, 4, 4, 4])  # the poll read 3; the command's 4 was committed meanwhile
        monkeypatch.setattr(store, "stream_seq", lambda *_args: next(reads))

        class Turn:
            """The fold lock: while this poll waits for it, the command seeds the cache."""

            def __enter__(self) -> None:
                cache.put(database, tid, newest)

            def __exit__(self, *_exc: object) -> None:
                return None

        cache._folding[key] = Turn()  # type: ignore[assignment]
        colds: list[int] = []
        monkeypatch.setattr(store.StateCache, "_cold", lambda *args: colds.append(1))
        state = cache.get(db, database, tid)
        assert state is newest and colds == []
