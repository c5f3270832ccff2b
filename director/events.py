"""The event store: each tournament is an append-only list of events.

``append`` writes one event in its own ``BEGIN IMMEDIATE`` transaction and refuses a write based
on a stale sequence number; ``load_state`` folds the events with the engine and caches the result
by (database, tournament, last seq), safely across server threads.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Mapping
from typing import Any

from flask import current_app
from sqlite_utils import Database

from engine.tournament import Event, Tournament, apply, fold

STALE_MESSAGE = "Someone else changed this tournament a moment ago; the page has been refreshed."


class StaleWrite(Exception):
    """A write based on an older sequence number than the tournament's last one."""

    def __init__(self, expected_seq: int, last_seq: int) -> None:
        super().__init__(STALE_MESSAGE)
        self.expected_seq = expected_seq
        self.last_seq = last_seq


class UnknownTournament(LookupError):
    """No tournament with that id."""

    def __init__(self, tournament_id: object) -> None:
        super().__init__(f"There is no tournament number {tournament_id}.")
        self.tournament_id = tournament_id


def _row_to_event(row: Mapping[str, Any]) -> Event:
    return Event(seq=row["seq"], type=row["type"], payload=json.loads(row["payload"]), at=row["at"])


def create_tournament(db: Database, name: str, payload: Mapping[str, Any], now: float) -> int:
    """Insert a tournament and its first event (``created``); returns the new id.

    The payload is checked by the engine first, so an invalid setup writes nothing.
    """
    first = Event(seq=1, type="created", payload=dict(payload), at=now)
    fold([first])  # raises EngineError with the reason
    conn = db.conn
    conn.execute("BEGIN IMMEDIATE")
    try:
        cursor = conn.execute(
            "INSERT INTO tournaments (name, created_at, last_seq) VALUES (?, ?, 1)", (name, now)
        )
        tournament_id = int(cursor.lastrowid or 0)
        conn.execute(
            "INSERT INTO events (tournament_id, seq, type, payload, at) VALUES (?, 1, ?, ?, ?)",
            (tournament_id, first.type, json.dumps(first.payload), now),
        )
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return tournament_id


def last_seq(db: Database, tournament_id: int) -> int:
    row = db.execute("SELECT last_seq FROM tournaments WHERE id = ?", [tournament_id]).fetchone()
    if row is None:
        raise UnknownTournament(tournament_id)
    return int(row[0])


def append(
    db: Database,
    tournament_id: int,
    type: str,
    payload: Mapping[str, Any],
    expected_seq: int,
    now: float,
) -> Event:
    """Append one event after ``expected_seq``, in one transaction; ``StaleWrite`` if it moved on."""
    conn = db.conn
    conn.execute("BEGIN IMMEDIATE")
    try:
        row = conn.execute("SELECT last_seq FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
        if row is None:
            raise UnknownTournament(tournament_id)
        if int(row[0]) != expected_seq:
            raise StaleWrite(expected_seq, int(row[0]))
        event = Event(seq=expected_seq + 1, type=type, payload=dict(payload), at=now)
        try:
            conn.execute(
                "INSERT INTO events (tournament_id, seq, type, payload, at) VALUES (?, ?, ?, ?, ?)",
                (tournament_id, event.seq, type, json.dumps(event.payload), now),
            )
        except sqlite3.IntegrityError as error:  # pragma: no cover - guarded by the check above
            raise StaleWrite(expected_seq, expected_seq + 1) from error
        conn.execute("UPDATE tournaments SET last_seq = ? WHERE id = ?", (event.seq, tournament_id))
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return event


def load_events(db: Database, tournament_id: int, after: int = 0) -> list[Event]:
    """The tournament's events after seq ``after``, in order."""
    rows = db.query(
        "SELECT seq, type, payload, at FROM events WHERE tournament_id = ? AND seq > ? ORDER BY seq",
        [tournament_id, after],
    )
    return [_row_to_event(row) for row in rows]


def tournament_seq(db: Database, tournament_id: int) -> int:
    """The last seq of a tournament (``UnknownTournament`` for a cash night or the club's ledger)."""
    row = db.execute("SELECT last_seq, kind FROM tournaments WHERE id = ?", [tournament_id]).fetchone()
    if row is None or row[1] != "tournament":
        raise UnknownTournament(tournament_id)
    return int(row[0])


class StateCache:
    """Folded states by (database path, tournament id), advanced incrementally; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._states: dict[tuple[str, int], Tournament] = {}

    def get(self, db: Database, database: str, tournament_id: int) -> Tournament:
        seq = tournament_seq(db, tournament_id)
        key = (database, tournament_id)
        with self._lock:
            state = self._states.get(key)
        if state is not None and state.seq == seq:
            return state
        if state is None or state.seq > seq:
            state = fold(load_events(db, tournament_id))
        else:
            for event in load_events(db, tournament_id, after=state.seq):
                state = apply(state, event)
        with self._lock:
            current = self._states.get(key)
            if current is None or current.seq <= state.seq:
                self._states[key] = state
        return state

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


cache = StateCache()


def load_state(db: Database, tournament_id: int) -> Tournament:
    """The engine's fold of the tournament's events (``UnknownTournament`` if there is none)."""
    return cache.get(db, current_app.config["DATABASE"], tournament_id)
