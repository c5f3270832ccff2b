"""The cash game's streams: a session's and the club's events, folded through the one
fold cache (``director.core.store``), and the write of a command in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import (
    current_app,
)
from sqlite_utils import Database

from director.cash import CLUB_KIND, SESSION_KIND, STALE, UnknownSession
from director.core import store as event_store
from director.core.web import (
    now,
)
from director.core.work import unit_of_work
from engine import cash
from engine.cash import (
    CashSession,
    Club,
)
from engine.errors import IllegalAction
from engine.events import Event


def create_stream(db: Database, kind: str, name: str, payload: Mapping[str, Any], at: float) -> int:
    """A new stream of this kind with its ``created`` event; returns its id."""
    with unit_of_work(db) as work:
        conn = work.conn
        cursor = conn.execute(
            "INSERT INTO streams (name, created_at, last_seq, kind) VALUES (?, ?, 1, ?)",
            (name, at, kind),
        )
        stream_id = int(cursor.lastrowid or 0)
        conn.execute(
            "INSERT INTO events (stream_id, seq, type, payload, at) VALUES (?, 1, 'created', ?, ?)",
            (stream_id, json.dumps(dict(payload)), at),
        )
    return stream_id


SESSION = event_store.Kind(SESSION_KIND, cash.fold, cash.apply, UnknownSession, STALE)


CLUB = event_store.Kind(CLUB_KIND, cash.club_fold, cash.club_apply, lambda _id: LookupError("There is no club ledger."),
                   STALE)


def load_session(db: Database, session_id: int) -> CashSession:
    """The fold of a cash session's events (``UnknownSession`` if there is none)."""
    state: CashSession = event_store.cache.get(db, current_app.config["DATABASE"], session_id, SESSION)
    return state


def club_id(db: Database, at: float | None = None) -> int:
    """The club's stream, created the first time it is needed."""
    row = db.execute(
        "SELECT id FROM streams WHERE kind = ? ORDER BY id LIMIT 1", [CLUB_KIND]
    ).fetchone()
    if row is not None:
        return int(row[0])
    return create_stream(db, CLUB_KIND, "Club", {}, now() if at is None else at)


def load_club(db: Database) -> Club:
    club: Club = event_store.cache.get(db, current_app.config["DATABASE"], club_id(db), CLUB)
    return club


def session_rows(db: Database) -> list[dict[str, Any]]:
    return list(
        db.query(
            "SELECT id, name, created_at, last_seq FROM streams WHERE kind = ? ORDER BY created_at DESC, id DESC",
            [SESSION_KIND],
        )
    )


def all_sessions(db: Database) -> list[tuple[int, CashSession]]:
    return [(int(r["id"]), load_session(db, int(r["id"]))) for r in session_rows(db)]


def club_balances(db: Database) -> dict[int, int]:
    """Every member's Play Chips now."""
    return cash.balances(load_club(db), (s for _, s in all_sessions(db)))


HAND_EVENTS = ("hand_started", "hand_action", "hand_undo")


def unrelated(event: Event, table: int | None) -> bool:
    """Whether ``event``, written since a page was shown, leaves that page's write to be
    checked against the current state rather than refused as stale.

    Play at one table never makes another table's panel stale, and hand play never makes
    the night's page stale (``table`` None): the engine still checks the write against the
    state it lands on (a top-up during the player's hand, a seat taken meanwhile).
    Anything else (a seat, a buy-in, an undo) does.
    """
    if event.type not in HAND_EVENTS:
        return False
    return table is None or str(event.payload.get("table")) != str(table)


def record(
    db: Database,
    session_id: int,
    type: str,
    payload: Mapping[str, Any],
    expected: int | None,
    at: float,
    table: int | None = None,
) -> CashSession:
    """Check one event with the engine and append it to the session, in one transaction.

    ``expected`` is the seq the page showed; events since then that are :func:`unrelated` to
    the page (``table``: a table's panel; None: the night's page) do not make it stale.
    """
    with event_store.command(db, SESSION, session_id, expected, at, lambda e: unrelated(e, table)) as writer:
        state: CashSession = writer.add(type, payload)
    return state


def record_club(
    db: Database, type: str, payload: Mapping[str, Any], expected: int | None, at: float
) -> Club:
    stream = club_id(db)
    with event_store.command(db, CLUB, stream, expected, at) as writer:
        club: Club = writer.add(type, payload)
        if type == "undo":
            _check_balances_after(db, club)
    return club


def _check_balances_after(db: Database, club: Club) -> None:
    """An undo in the club may not leave a negative balance, nor forget a member who has played."""
    sessions = [s for _, s in all_sessions(db)]
    known = {m.id for m in club.members}
    for session in sessions:
        listed = [(w.member, w.name) for _, queue in session.waiting for w in queue]
        for member_id, name in [*session.names, *listed]:
            if member_id not in known:
                raise IllegalAction(
                    "That cannot be undone: {name} has been at the tables as a member.",
                    name=name
                )
    held = cash.balances(club, sessions)
    for member in club.members:
        if held.get(member.id, 0) < 0:
            raise IllegalAction(
                "That cannot be undone: {name}'s balance would be {balance} play chips.",
                name=member.name, balance=held[member.id],
            )
