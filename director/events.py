"""The event store: each tournament is an append-only list of events.

``append`` writes one event in its own ``BEGIN IMMEDIATE`` transaction and refuses a write based
on a stale sequence number; ``load_state`` folds the events with the engine and caches the result
by (database, tournament, last seq), safely across server threads.

Snapshots: every :data:`SNAPSHOT_EVERY` events the folded state is stored (pickled) in the
``snapshots`` table with the engine's version (:data:`SNAPSHOT_VERSION`, a digest of the
engine's source), so that the first page after a restart folds only the events after it. A
snapshot of another version, or one that cannot be read, is ignored and written again.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import sqlite3
import threading
import time
import zlib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from flask import current_app
from sqlite_utils import Database

import engine
from engine.events import HistoryCut
from engine.tournament import RULES_VERSION, Event, Tournament, apply, fold

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
    first = Event(seq=1, type="created", payload={"rules": RULES_VERSION, **payload}, at=now)
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


def played_as_stored(events: list[Event]) -> list[Event]:
    """A tournament's events with the rules it was played under: one created before the
    rules had a version (no ``rules`` in its ``created`` event) folds under rules 1."""
    if events and events[0].type == "created" and "rules" not in events[0].payload:
        first = events[0]
        events[0] = Event(first.seq, first.type, {**first.payload, "rules": 1}, first.at)
    return events


def insert_event(db: Database, tournament_id: int, event: Event) -> None:
    """Insert ``event`` and move the tournament's last seq, inside the caller's transaction."""
    db.conn.execute(
        "INSERT INTO events (tournament_id, seq, type, payload, at) VALUES (?, ?, ?, ?, ?)",
        (tournament_id, event.seq, event.type, json.dumps(event.payload), event.at),
    )
    db.conn.execute("UPDATE tournaments SET last_seq = ? WHERE id = ?", (event.seq, tournament_id))


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


SNAPSHOT_EVERY = 2_000
"""Events between two snapshots of a tournament's folded state."""


def _engine_version() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(engine.__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


SNAPSHOT_VERSION = _engine_version()


def save_snapshot(db: Database, tournament_id: int, state: Tournament, now: float | None = None) -> int:
    """Store ``state`` as the tournament's snapshot, its history cut to the checkpoints that
    keep a state (``History.cut``: small and quick to read back); returns its size in bytes."""
    cut = replace(state, history=state.history.cut())
    data = zlib.compress(pickle.dumps(cut, protocol=pickle.HIGHEST_PROTOCOL), 1)
    with db.conn:
        db.conn.execute(
            "INSERT OR REPLACE INTO snapshots (tournament_id, seq, version, data, at) VALUES (?, ?, ?, ?, ?)",
            (tournament_id, state.seq, SNAPSHOT_VERSION, data, time.time() if now is None else now),
        )
    return len(data)


def load_snapshot(db: Database, tournament_id: int, last: int) -> Tournament | None:
    """The stored snapshot, if it is of this engine's version and not past event ``last``."""
    row = db.execute(
        "SELECT seq, version, data FROM snapshots WHERE tournament_id = ?", [tournament_id]
    ).fetchone()
    if row is None or row[1] != SNAPSHOT_VERSION or row[0] > last:
        return None
    try:
        state = pickle.loads(zlib.decompress(row[2]))
    except Exception:  # written by something else: fold from the start instead
        return None
    return state if isinstance(state, Tournament) and state.seq == row[0] else None


def snapshot_seq(db: Database, tournament_id: int) -> int | None:
    """The seq of the tournament's usable snapshot, if it has one."""
    row = db.execute("SELECT seq, version FROM snapshots WHERE tournament_id = ?", [tournament_id]).fetchone()
    return int(row[0]) if row is not None and row[1] == SNAPSHOT_VERSION else None


def refold(db: Database, tournament_id: int) -> Tournament:
    """The fold of every stored event (the history whole)."""
    return fold(played_as_stored(load_events(db, tournament_id)))


def advance(db: Database, tournament_id: int, state: Tournament) -> Tournament:
    """``state`` with the stored events after it applied; an undo further back than a state
    restored from a snapshot holds folds every event again."""
    try:
        for event in load_events(db, tournament_id, after=state.seq):
            state = apply(state, event)
    except HistoryCut:
        return refold(db, tournament_id)
    return state


def apply_new(db: Database, tournament_id: int, state: Tournament, event: Event) -> Tournament:
    """The engine's check of a new event against ``state`` (an undo past a snapshot's cut
    history is checked against a fold of every stored event)."""
    try:
        return apply(state, event)
    except HistoryCut:
        return apply(refold(db, tournament_id), event)


class StateCache:
    """Folded states by (database path, tournament id), advanced incrementally; thread-safe.

    A cold cache starts from the tournament's snapshot; a state that has moved
    :data:`SNAPSHOT_EVERY` events past the last snapshot is stored as the new one (in a
    thread of its own, so no request waits for it).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._folding: dict[tuple[str, int], threading.Lock] = {}
        self._states: dict[tuple[str, int], Tournament] = {}
        self._snapshots: dict[tuple[str, int], int] = {}
        self._writing: set[tuple[str, int]] = set()
        self._threads: list[threading.Thread] = []

    def get(self, db: Database, database: str, tournament_id: int) -> Tournament:
        seq = tournament_seq(db, tournament_id)
        key = (database, tournament_id)
        with self._lock:
            state = self._states.get(key)
        if state is not None and state.seq == seq:
            return state
        if state is not None and state.seq > seq and tournament_seq(db, tournament_id) >= state.seq:
            return state  # a write committed after this request read the seq: the newer state
        with self._lock:
            folding = self._folding.setdefault(key, threading.Lock())
        with folding:  # one thread folds a tournament; the others take its result
            with self._lock:
                state = self._states.get(key)
            if state is not None and state.seq == seq:
                return state
            if state is None or state.seq > seq:
                state = self._cold(db, key, tournament_id, seq)
            else:
                state = advance(db, tournament_id, state)
            return self._keep(key, state)

    def _keep(self, key: tuple[str, int], state: Tournament) -> Tournament:
        with self._lock:
            current = self._states.get(key)
            if current is None or current.seq <= state.seq:
                self._states[key] = state
            due = state.seq - self._snapshots.get(key, 0) >= SNAPSHOT_EVERY and key not in self._writing
            if due:
                self._writing.add(key)
        if due:
            thread = threading.Thread(target=self._snapshot, args=(key, state), daemon=True)
            with self._lock:
                self._threads = [t for t in self._threads if t.is_alive()] + [thread]
            thread.start()
        return state

    def flush(self) -> None:
        """Wait for the snapshots being written (a clean shutdown, and the tests)."""
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join()

    def put(self, database: str, tournament_id: int, state: Tournament) -> None:
        """Seed the cache with a state a command has just computed and committed."""
        self._keep((database, tournament_id), state)

    def _cold(self, db: Database, key: tuple[str, int], tournament_id: int, seq: int) -> Tournament:
        state = load_snapshot(db, tournament_id, seq)
        with self._lock:
            self._snapshots[key] = state.seq if state is not None else 0
        if state is None:
            return refold(db, tournament_id)
        return advance(db, tournament_id, state)

    def _snapshot(self, key: tuple[str, int], state: Tournament) -> None:
        from director.db import connect

        try:
            db = connect(key[0])
            try:
                save_snapshot(db, key[1], state)
            finally:
                db.close()
            with self._lock:
                self._snapshots[key] = max(self._snapshots.get(key, 0), state.seq)
        except sqlite3.Error:  # the next state due tries again
            pass
        finally:
            with self._lock:
                self._writing.discard(key)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()
            self._snapshots.clear()


cache = StateCache()


def load_state(db: Database, tournament_id: int) -> Tournament:
    """The engine's fold of the tournament's events (``UnknownTournament`` if there is none)."""
    return cache.get(db, current_app.config["DATABASE"], tournament_id)
