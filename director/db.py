"""The database: one ``sqlite_utils.Database`` per request, WAL mode, migrations on startup."""

from __future__ import annotations

import sqlite3

import click
from flask import Flask, current_app, g
from sqlite_utils import Database

from director.migrations import migrations


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
        return pending
    finally:
        db.close()


def get_db() -> Database:
    """The request's database connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    db: Database = g.db
    return db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


@click.command("migrate")
def migrate_command() -> None:
    """Create or update the database schema."""
    applied = migrate(current_app.config["DATABASE"])
    click.echo(f"Applied {len(applied)} migration(s).")


def init_app(app: Flask) -> None:
    migrate(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
    app.cli.add_command(migrate_command)
