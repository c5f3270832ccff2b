"""The cash game's streams: a session's and the club's events, folded through the one
fold cache (``director.core.store``); the commands write to them (``director.cash.commands``).
"""

from __future__ import annotations

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
from engine.events import Event

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
    # Made on the side: the request's command id is the command's own, not this.
    with unit_of_work(db, claim=False) as work:
        return event_store.new_stream(work, CLUB_KIND, "Club", {}, now() if at is None else at)


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


HAND_EVENTS = ("hand_started", "hand_action", "hand_undo", "hand_redo")


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
