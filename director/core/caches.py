"""Every cache the app keeps, registered with how to empty it: each is keyed by the database
it came from, and a restore or a migration empties all of them at once
(:func:`forget_everything`), so that every page and poll shows the database as it is.

Several server processes may share one database (``poker-director serve --workers N``): a
restore, a migration or the host's change of language in one of them bumps the database's
*generation* (:func:`new_generation`), and each process, at its next request, finds the
generation moved and empties its own caches (:func:`follow_generation`). Everything else a
cache holds is keyed by its stream's seq, which every process reads from the database.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from collections.abc import Callable

from flask import Flask, current_app, has_app_context

_caches: dict[str, Callable[[], None]] = {}


def register_cache(name: str, forget: Callable[[], None]) -> None:
    """A cache the app keeps, and how to empty it: a restore or a migration empties them all."""
    _caches[name] = forget


def register_app_cache(app: Flask, name: str, forget: Callable[[], None]) -> None:
    """A cache one app keeps (the polls' answers): emptied with the others."""
    app.extensions.setdefault("caches", {})[name] = forget


def caches() -> tuple[str, ...]:
    """The names of the caches registered, for the tests and the README."""
    own = current_app.extensions.get("caches", {}) if has_app_context() else {}
    return tuple(sorted({*_caches, *own}))


def forget_everything() -> None:
    """Empty every cache (the database under them was replaced by a restore, or migrated)."""
    for forget in list(_caches.values()):
        forget()
    if has_app_context():
        for forget in list(current_app.extensions.get("caches", {}).values()):
            forget()


GENERATION = "generation"
"""The ``app_settings`` key of the database's generation."""

_seen: dict[str, str] = {}
_seen_lock = threading.Lock()


def new_generation(conn: sqlite3.Connection) -> str:
    """A new generation for the database on ``conn`` (written in the caller's transaction):
    every process empties its caches at its next request."""
    generation = secrets.token_hex(8)
    conn.execute("INSERT INTO app_settings (key, value) VALUES (?, ?) "
                 "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (GENERATION, generation))
    return generation


def follow_generation(database: str, generation: str) -> None:
    """Empty this process's caches when another process moved the database's generation
    (the first request of a process only notes it: its caches are empty)."""
    with _seen_lock:
        before = _seen.get(database)
        _seen[database] = generation
    if before is not None and before != generation:
        forget_everything()


__all__ = ["GENERATION", "caches", "follow_generation", "forget_everything", "new_generation", "register_app_cache",
           "register_cache"]
