"""The database: WAL mode, migrations on startup, and a connection per server thread.

A request takes its thread's connection (opened on first use, kept for the next request of
the thread): opening and closing a connection per request cost more than a dealer's whole
entry (closing the last connection to a WAL database checkpoints it). A request that ends
inside a transaction has it rolled back, so the next one starts clean; a thread that turns
to another database closes its old connection first.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from typing import Any

import click
from flask import Flask, current_app, g
from sqlite_utils import Database

from director.core.caches import GENERATION, follow_generation, forget_everything, new_generation
from director.core.migrations import migrations


def connect(path: str) -> Database:
    """A new connection in WAL mode that waits for a busy writer instead of failing."""
    conn = sqlite3.connect(path, timeout=15, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")  # an acknowledged event survives a power cut
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=15000")
    return Database(conn)


def migrate(path: str) -> list[str]:
    """Apply pending migrations; returns their names."""
    db = connect(path)
    try:
        pending = [m.name for m in migrations.pending(db)]
        migrations.apply(db)
        if pending:  # the other processes' caches were read from the schema before
            with db.conn:
                new_generation(db.conn)
    finally:
        db.close()
    if pending:  # what is kept in memory was read from the schema before
        forget_everything()
    return pending


class Held:
    """A thread's connection; closed when dropped (a thread that ends), never left to the
    garbage collector open."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = connect(path)

    def close(self) -> None:
        self.db.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # closed already, or the interpreter is ending
            self.db.close()


_threads = threading.local()


def get_db() -> Database:
    """The request's database connection: this thread's, opened on first use."""
    if "db" not in g:
        path = current_app.config["DATABASE"]
        held: Held | None = getattr(_threads, "held", None)
        if held is None or held.path != path:
            if held is not None:
                held.close()
            held = Held(path)
            _threads.held = held
        g.db = held.db
    db: Database = g.db
    return db


def close_db(_exc: BaseException | None = None) -> None:
    """The end of a request: the connection stays with its thread, out of any transaction."""
    db: Any = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()


def release() -> None:
    """Close this thread's connection (before its database is deleted or replaced)."""
    held: Held | None = getattr(_threads, "held", None)
    if held is not None:
        held.close()
        _threads.held = None


@click.command("migrate")
def migrate_command() -> None:
    """Create or update the database schema."""
    applied = migrate(current_app.config["DATABASE"])
    click.echo(f"Applied {len(applied)} migration(s).")


def generation_moved() -> None:
    """Before each request: another process's restore, migration or change of language empties
    this process's caches too (``director.core.caches``)."""
    from director.core.i18n import settings

    follow_generation(current_app.config["DATABASE"], settings().get(GENERATION, ""))


def init_app(app: Flask) -> None:
    migrate(app.config["DATABASE"])
    app.before_request(generation_moved)
    app.teardown_appcontext(close_db)
    app.cli.add_command(migrate_command)
