"""The event store: a tournament, a cash session and the club's ledger are each a stream, an
append-only list of events (a row of ``streams`` with its ``kind``, and its rows of ``events``).

A :class:`Kind` says how a stream folds. ``command`` runs one command in one ``BEGIN
IMMEDIATE`` transaction: it reads the state inside the transaction, refuses a write based on
a stale sequence number (unless every event since is independent of it), and the events it
writes commit together or not at all. ``load_state`` (and ``cache.get`` for every kind) folds
the events with the engine and keeps the result by (database, stream), safely across server
threads, advanced event by event; a command seeds it with the state it computed.

Snapshots: every :data:`SNAPSHOT_EVERY` events the folded state is stored (pickled) in the
``snapshots`` table with the engine's version (:data:`SNAPSHOT_VERSION`, a digest of the
engine's source), so that the first page after a restart folds only the events after it. A
snapshot of another version, or one that cannot be read, is ignored and written again.
"""

from __future__ import annotations

import gc
import hashlib
import json
import pickle
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from flask import current_app
from sqlite_utils import Database

import engine
from director.core import roles
from director.core.caches import register_cache
from director.core.work import Work, unit_of_work
from engine.errors import N_
from engine.events import HistoryCut
from engine.tournament import RULES_VERSION, Event, Tournament, apply, fold

STALE_MESSAGE = N_("Someone else changed this tournament a moment ago; the page has been refreshed.")


class StaleWrite(Exception):
    """A write based on an older sequence number than the stream's last one."""

    def __init__(self, expected_seq: int, last_seq: int, message: str = STALE_MESSAGE) -> None:
        super().__init__(message)
        self.expected_seq = expected_seq
        self.last_seq = last_seq


class UnknownTournament(LookupError):
    """No tournament with that id."""

    def __init__(self, tournament_id: object) -> None:
        super().__init__(f"There is no tournament number {tournament_id}.")
        self.tournament_id = tournament_id


@dataclass(frozen=True)
class Kind:
    """A kind of stream: how its events fold and apply, what a missing one is called, what a
    stale page is told, and whether its folded state is snapshotted."""

    name: str
    fold: Callable[[list[Event]], Any]
    apply: Callable[[Any, Event], Any]
    unknown: Callable[[int], Exception]
    stale_message: str = STALE_MESSAGE
    snapshots: bool = False


def _row_to_event(row: Mapping[str, Any]) -> Event:
    return Event(seq=row["seq"], type=row["type"], payload=json.loads(row["payload"]), at=row["at"])


def new_stream(work: Work, kind: str, name: str, payload: Mapping[str, Any], now: float) -> int:
    """Inside a command's unit of work: a new stream of ``kind`` and its ``created`` event
    (the caller has checked the payload with the engine); returns the new id."""
    cursor = work.execute("INSERT INTO streams (name, created_at, last_seq, kind) VALUES (?, ?, 1, ?)",
                          (name, now, kind))
    stream_id = int(cursor.lastrowid or 0)
    work.execute("INSERT INTO events (stream_id, seq, type, payload, at, author) VALUES (?, 1, 'created', ?, ?, ?)",
                 (stream_id, json.dumps(dict(payload)), now, roles.author()))
    return stream_id


def tournament_created(payload: Mapping[str, Any], now: float) -> dict[str, Any]:
    """A new tournament's ``created`` payload with the rules it is played under, checked by the
    engine (``EngineError`` with the reason: an invalid setup writes nothing)."""
    created = {"rules": RULES_VERSION, **payload}
    fold([Event(seq=1, type="created", payload=created, at=now)])
    return created


def last_seq(db: Database, tournament_id: int) -> int:
    row = db.execute("SELECT last_seq FROM streams WHERE id = ?", [tournament_id]).fetchone()
    if row is None:
        raise UnknownTournament(tournament_id)
    return int(row[0])


def append(
    db: Database,
    stream_id: int,
    type: str,
    payload: Mapping[str, Any],
    expected_seq: int,
    now: float,
    kind: Kind | None = None,
) -> Event:
    """One event after ``expected_seq``, checked by the engine: a :func:`command` of one event
    (``StaleWrite`` if the stream moved on)."""
    with command(db, kind or TOURNAMENT, stream_id, expected_seq, now) as writer:
        writer.add(type, payload)
    return writer.events[0]


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
        "INSERT INTO events (stream_id, seq, type, payload, at, author) VALUES (?, ?, ?, ?, ?, ?)",
        (tournament_id, event.seq, event.type, json.dumps(event.payload), event.at, roles.author()),
    )
    db.conn.execute("UPDATE streams SET last_seq = ? WHERE id = ?", (event.seq, tournament_id))


def load_authors(db: Database, stream_id: int) -> dict[int, str]:
    """Who wrote each event of a stream (``director.core.roles``), by seq; events written
    before authors were recorded are left out."""
    rows = db.execute("SELECT seq, author FROM events WHERE stream_id = ? AND author IS NOT NULL", [stream_id])
    return {int(seq): str(author) for seq, author in rows.fetchall()}


def load_events(db: Database, tournament_id: int, after: int = 0) -> list[Event]:
    """The tournament's events after seq ``after``, in order."""
    rows = db.query(
        "SELECT seq, type, payload, at FROM events WHERE stream_id = ? AND seq > ? ORDER BY seq",
        [tournament_id, after],
    )
    return [_row_to_event(row) for row in rows]


def stream_seq(db: Database, kind: Kind, stream_id: int) -> int:
    """The last seq of a stream of ``kind`` (its ``unknown`` error for another kind or none)."""
    row = db.execute("SELECT last_seq, kind FROM streams WHERE id = ?", [stream_id]).fetchone()
    if row is None or row[1] != kind.name:
        raise kind.unknown(stream_id)
    return int(row[0])



SNAPSHOT_EVERY = 2_000
"""Events between two snapshots of a tournament's folded state."""


def settle_heap() -> None:
    """Tell Python's garbage collector that what the process holds now is long-lived.

    A night's folded state is tens of thousands of objects that never change. Python's
    collector walked all of them at each full collection, in the middle of whichever
    request was running: the director's pages took 60–300 ms more at their p99 (see
    ``benchmarks/bench_night.py``). ``gc.freeze`` moves every object alive into a generation
    the collector no longer walks; they are still freed as usual when nothing holds them (a
    night's states hold no cycles). Done when a long stream is folded and at each snapshot
    (every 2,000 events), so that what the night adds stays small: each time, what was frozen
    before is collected with the rest first, so that nothing that became garbage since (a
    request's cycles, alive at the last freeze) is kept for good.
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _engine_version() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(engine.__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


SNAPSHOT_VERSION = _engine_version()


def save_snapshot(db: Database, tournament_id: int, state: Tournament, now: float | None = None,
                  database: str | None = None) -> int:
    """Store ``state`` as the tournament's snapshot, its history cut to the checkpoints that
    keep a state (``History.cut``: small and quick to read back); returns its size in bytes."""
    cut = replace(state, history=state.history.cut())
    data = zlib.compress(pickle.dumps(cut, protocol=pickle.HIGHEST_PROTOCOL), 1)
    with unit_of_work(db, claim=False, database=database) as work:
        work.execute(
            "INSERT OR REPLACE INTO snapshots (stream_id, seq, version, data, at) VALUES (?, ?, ?, ?, ?)",
            (tournament_id, state.seq, SNAPSHOT_VERSION, data, time.time() if now is None else now),
        )
    return len(data)


def load_snapshot(db: Database, tournament_id: int, last: int) -> Tournament | None:
    """The stored snapshot, if it is of this engine's version and not past event ``last``."""
    row = db.execute(
        "SELECT seq, version, data FROM snapshots WHERE stream_id = ?", [tournament_id]
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
    row = db.execute("SELECT seq, version FROM snapshots WHERE stream_id = ?", [tournament_id]).fetchone()
    return int(row[0]) if row is not None and row[1] == SNAPSHOT_VERSION else None


def refold(db: Database, stream_id: int, kind: Kind | None = None) -> Any:
    """The fold of every stored event (the history whole)."""
    return (kind or TOURNAMENT).fold(load_events(db, stream_id))


def advance(db: Database, stream_id: int, state: Any, kind: Kind | None = None) -> Any:
    """``state`` with the stored events after it applied; an undo further back than a state
    restored from a snapshot holds folds every event again."""
    kind = kind or TOURNAMENT
    try:
        for event in load_events(db, stream_id, after=state.seq):
            state = kind.apply(state, event)
    except HistoryCut:
        return refold(db, stream_id, kind)
    return state


def apply_new(db: Database, stream_id: int, state: Any, event: Event, kind: Kind | None = None) -> Any:
    """The engine's check of a new event against ``state`` (an undo past a snapshot's cut
    history is checked against a fold of every stored event)."""
    kind = kind or TOURNAMENT
    try:
        return kind.apply(state, event)
    except HistoryCut:
        return kind.apply(refold(db, stream_id, kind), event)


class StateCache:
    """Folded states by (database path, stream id), advanced incrementally; thread-safe.

    A cold cache starts from a tournament's snapshot; a tournament's state that has moved
    :data:`SNAPSHOT_EVERY` events past the last snapshot is stored as the new one (in a
    thread of its own, so no request waits for it).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._folding: dict[tuple[str, int], threading.Lock] = {}
        self._states: dict[tuple[str, int], Any] = {}
        self._snapshots: dict[tuple[str, int], int] = {}
        self._writing: set[tuple[str, int]] = set()
        self._threads: list[threading.Thread] = []

    def get(self, db: Database, database: str, stream_id: int, kind: Kind | None = None) -> Any:
        kind = kind or TOURNAMENT
        seq = stream_seq(db, kind, stream_id)
        key = (database, stream_id)
        with self._lock:
            state = self._states.get(key)
        if state is not None and state.seq == seq:
            return state
        if state is not None and state.seq > seq and stream_seq(db, kind, stream_id) >= state.seq:
            return state  # a write committed after this request read the seq: the newer state
        with self._lock:
            folding = self._folding.setdefault(key, threading.Lock())
        with folding:  # one thread folds a stream; the others take its result
            with self._lock:
                state = self._states.get(key)
            if state is not None and state.seq == seq:
                return state
            if state is not None and state.seq > seq and stream_seq(db, kind, stream_id) >= state.seq:
                return state  # a command committed (and seeded) it while this one waited its turn
            if state is None or state.seq > seq:
                state = self._cold(db, key, stream_id, seq, kind)
            else:
                state = advance(db, stream_id, state, kind)
            return self._keep(key, state, kind)

    def _keep(self, key: tuple[str, int], state: Any, kind: Kind) -> Any:
        with self._lock:
            current = self._states.get(key)
            if current is None or current.seq <= state.seq:
                self._states[key] = state
            due = (kind.snapshots and state.seq - self._snapshots.get(key, 0) >= SNAPSHOT_EVERY
                   and key not in self._writing)
            if due:
                self._writing.add(key)
        if due:
            thread = threading.Thread(target=self._snapshot, args=(key, state), daemon=True)
            with self._lock:
                self._threads = [t for t in self._threads if t.is_alive()] + [thread]
            thread.start()
        return state

    def peek(self, database: str, stream_id: int) -> Any:
        """The state kept for a stream, whatever its seq, without reading the database (None:
        none kept)."""
        with self._lock:
            return self._states.get((database, stream_id))

    def flush(self) -> None:
        """Wait for the snapshots being written (a clean shutdown, and the tests)."""
        with self._lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join()

    def put(self, database: str, stream_id: int, state: Any, kind: Kind | None = None) -> None:
        """Seed the cache with a state a command has just computed and committed."""
        self._keep((database, stream_id), state, kind or TOURNAMENT)

    def _cold(self, db: Database, key: tuple[str, int], stream_id: int, seq: int, kind: Kind) -> Any:
        state = load_snapshot(db, stream_id, seq) if kind.snapshots else None
        with self._lock:
            self._snapshots[key] = state.seq if state is not None else 0
        state = refold(db, stream_id, kind) if state is None else advance(db, stream_id, state, kind)
        if state.seq >= SNAPSHOT_EVERY:
            settle_heap()
        return state

    def _snapshot(self, key: tuple[str, int], state: Tournament) -> None:
        from director.core.db import connect

        try:
            db = connect(key[0])
            try:
                save_snapshot(db, key[1], state, database=key[0])
            finally:
                db.close()
            with self._lock:
                self._snapshots[key] = max(self._snapshots.get(key, 0), state.seq)
            settled = True
        except sqlite3.Error:  # the next state due tries again
            settled = False
        finally:
            with self._lock:
                self._writing.discard(key)
        if settled:
            settle_heap()

    def clear(self) -> None:
        with self._lock:
            self._states.clear()
            self._snapshots.clear()

    def forget(self, database: str, stream_id: int) -> None:
        """Drop a stream's state (the stream is deleted)."""
        with self._lock:
            self._states.pop((database, stream_id), None)
            self._snapshots.pop((database, stream_id), None)


cache = StateCache()
register_cache("folded states", cache.clear)


def delete_stream(work: Work, stream_id: int) -> None:
    """Inside a command's unit of work: delete a stream's events and snapshots. The row stays,
    of kind ``deleted`` and without a name, so that its id is never given to another stream (a
    phone polling the old one gets a 404, never someone else's night)."""
    work.execute("DELETE FROM events WHERE stream_id = ?", (stream_id,))
    work.execute("DELETE FROM snapshots WHERE stream_id = ?", (stream_id,))
    work.execute("UPDATE streams SET kind = 'deleted', name = '', last_seq = 0 WHERE id = ?", (stream_id,))
    work.after_commit(lambda: cache.forget(work.database, stream_id))


def set_archived(work: Work, stream_id: int, at: float | None) -> None:
    """Inside a command's unit of work: put a stream away (``at``: when), or back on the lists (None)."""
    work.execute("UPDATE streams SET archived_at = ? WHERE id = ?", (at, stream_id))


def load_state(db: Database, tournament_id: int) -> Tournament:
    """The engine's fold of the tournament's events (``UnknownTournament`` if there is none)."""
    state: Tournament = cache.get(db, current_app.config["DATABASE"], tournament_id, TOURNAMENT)
    return state


TOURNAMENT = Kind("tournament", lambda events: fold(played_as_stored(events)), apply, UnknownTournament,
                  snapshots=True)


# --- commands -----------------------------------------------------------------------------------

SINCE_READ = 500
"""How far back a page may be and still have the events since it checked one by one."""


class Writer:
    """The events of one command, written in one ``BEGIN IMMEDIATE`` transaction (see
    :func:`command`): each is checked by the engine against the state the previous left."""

    def __init__(self, db: Database, kind: Kind, stream_id: int, state: Any, now: float) -> None:
        self.db = db
        self.kind = kind
        self.stream_id = stream_id
        self.state = state
        self.now = now
        self.events: list[Event] = []

    def add(self, type: str, payload: Mapping[str, Any]) -> Any:
        event = Event(self.state.seq + 1, type, dict(payload), self.now)
        self.state = apply_new(self.db, self.stream_id, self.state, event, self.kind)
        insert_event(self.db, self.stream_id, event)
        self.events.append(event)
        return self.state


def _since(db: Database, stream_id: int, state: Any, base: int) -> list[Event] | None:
    """The events after ``base``, from the state's own index when it keeps one."""
    if hasattr(state, "events_since"):
        since: list[Event] | None = state.events_since(base)
        return since
    if state.seq - base > SINCE_READ:
        return None
    return load_events(db, stream_id, after=base)


@contextmanager
def command(
    db: Database,
    kind: Kind,
    stream_id: int,
    expected_seq: int | None,
    now: float,
    independent: Callable[[Event], bool] | None = None,
) -> Iterator[Writer]:
    """One command on a stream: everything it writes commits together, or nothing does.

    The write lock is taken first, so the state is read as it is and no other write slips
    in between. A page drawn at ``expected_seq`` is stale when something changed since,
    unless every event since is ``independent`` of this command (the hands at the other
    tables, for a dealer's entry). ``None`` means "whatever is current".
    """
    with unit_of_work(db) as work:
        state = cache.get(db, work.database, stream_id, kind)
        base = state.seq if expected_seq is None else expected_seq
        if base != state.seq:
            later = _since(db, stream_id, state, base) if base < state.seq else None
            if independent is None or later is None or len(later) != state.seq - base or not all(
                independent(e) for e in later
            ):
                raise StaleWrite(base, state.seq, kind.stale_message)
        writer = Writer(db, kind, stream_id, state, now)
        yield writer
        name = getattr(writer.state, "name", None)
        if writer.events and isinstance(name, str) and name != getattr(state, "name", None):
            # The lists of streams show the name kept on the row: renamed (or the rename
            # undone), it follows in the same transaction.
            work.execute("UPDATE streams SET name = ? WHERE id = ?", (name, stream_id))
        if writer.events:
            work.after_commit(lambda: cache.put(work.database, stream_id, writer.state, kind))
