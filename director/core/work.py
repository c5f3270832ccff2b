"""The unit of work: every write of the app goes through :func:`unit_of_work`.

One unit is one ``BEGIN IMMEDIATE`` transaction, taken after this process's write lock (the
next writer starts the moment the last one commits, instead of sleeping in SQLite's busy
wait). Inside it the request's command id is claimed (``director.core.command_ids``): a
command already recorded is answered with what was recorded instead of being done twice.
What the command writes commits together or not at all; only after the commit are the
caches advanced (:meth:`Work.after_commit`).

Every cache the app keeps is registered with ``director.core.caches`` and keyed by the
database it came from, so that a restore or a migration empties all of them at once.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from flask import current_app
from sqlite_utils import Database

from director.core import command_ids
from director.core.db import get_db

_locks_lock = threading.Lock()
_write_locks: dict[str, threading.Lock] = {}


@contextmanager
def writing(database: str) -> Iterator[None]:
    """One writer at a time per database in this process, waiting its turn on a lock.

    SQLite's own wait for its write lock sleeps between tries (up to a tenth of a second):
    thirty dealers writing at once would sleep through their turns while holding the
    server's threads, and the phones' polls would queue behind them. Here the next writer
    starts the moment the last one commits. (Another process still waits on SQLite's lock.)
    """
    with _locks_lock:
        lock = _write_locks.setdefault(database, threading.Lock())
    with lock:
        yield


@dataclass
class Work:
    """One unit of work: its connection, and what to do once it has committed."""

    db: Database
    database: str
    _after: list[Callable[[], None]] = field(default_factory=list)

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    def execute(self, sql: str, parameters: Any = ()) -> sqlite3.Cursor:
        return self.db.conn.execute(sql, parameters)

    def after_commit(self, do: Callable[[], None]) -> None:
        """``do`` runs once the transaction has committed (a cache advanced), never before."""
        self._after.append(do)


@contextmanager
def unit_of_work(db: Database | None = None, *, claim: bool = True, database: str | None = None) -> Iterator[Work]:
    """One transaction for one command: the write lock, ``BEGIN IMMEDIATE``, the request's
    command id claimed (``claim``), everything written committed together or rolled back,
    then the caches advanced. ``database`` names the database outside a request (a
    snapshot written in a thread of its own)."""
    db = db if db is not None else get_db()
    database = database or current_app.config["DATABASE"]
    work = Work(db, database)
    conn = db.conn
    claimed = False
    with writing(database):
        conn.execute("BEGIN IMMEDIATE")
        try:
            claimed = claim and command_ids.claim(conn)
            yield work
            conn.commit()
        except BaseException:
            conn.rollback()
            if claimed:
                command_ids.unclaim()
            raise
    for do in work._after:
        do()


__all__ = ["Work", "unit_of_work", "writing"]
