"""The database (director.core.db): a connection in WAL mode with its pragmas, the migrations applied
once and listed, a connection per server thread kept across requests (rolled back at a
request's end, closed when the thread turns to another database), and the migrate command."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from director.core.db import connect, get_db, migrate, release
from director.core.migrations import migrations

MIGRATIONS = [
    "m001_tournaments_and_events",
    "m002_cash_sessions_and_the_club",
    "m003_snapshots",
    "m004_events_by_type",
    "m005_streams",
    "m006_archived_streams",
    "m007_templates",
    "m008_chip_sets",
    "m009_people_and_seasons",
    "m010_tv_look",
    "m011_app_settings",
    "m012_commands",
    "m013_links_and_authors",
]


def test_connect_sets_wal_full_sync_foreign_keys_and_a_busy_wait(tmp_path: Path) -> None:
    db = connect(str(tmp_path / "x.db"))
    try:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert db.execute("PRAGMA busy_timeout").fetchone()[0] == 15000
    finally:
        db.close()


def test_migrate_applies_every_migration_once_and_lists_them(tmp_path: Path) -> None:
    path = str(tmp_path / "fresh.db")
    assert migrate(path) == MIGRATIONS
    assert migrate(path) == []  # nothing pending the second time
    db = connect(path)
    try:
        assert [m.name for m in migrations.applied(db)] == MIGRATIONS
        assert {"streams", "events", "settings", "player_names", "snapshots"} <= set(db.table_names())
        assert "tournaments" not in db.table_names()  # renamed by m005
        assert {"stream_id", "seq", "type", "payload", "at"} <= set(db["events"].columns_dict)
    finally:
        db.close()


def test_the_app_migrates_its_database_on_startup(app: Flask) -> None:
    assert migrate(app.config["DATABASE"]) == []


def test_foreign_keys_are_enforced(app: Flask) -> None:
    with app.app_context():
        db = get_db()
        with pytest.raises(sqlite3.IntegrityError):
            db.execute(
                "INSERT INTO events (stream_id, seq, type, payload, at) VALUES (999, 1, 'created', '{}', 1.0)"
            )


def test_a_thread_keeps_its_connection_across_requests(app: Flask) -> None:
    with app.app_context():
        first = get_db()
        assert get_db() is first
    with app.app_context():
        assert get_db() is first  # kept by the thread, not closed at the end of the context
        assert first.execute("SELECT 1").fetchone()[0] == 1
    other: list[Any] = []

    def in_another_thread() -> None:
        with app.app_context():
            other.append(get_db())

    thread = threading.Thread(target=in_another_thread)
    thread.start()
    thread.join()
    assert other and other[0] is not first


def test_a_request_left_in_a_transaction_is_rolled_back(app: Flask) -> None:
    with app.app_context():
        db = get_db()
        db.conn.execute("BEGIN")
        db.conn.execute("INSERT INTO settings (key, value) VALUES ('left', 'open')")
        assert db.conn.in_transaction
    with app.app_context():
        db = get_db()
        assert not db.conn.in_transaction
        assert db.execute("SELECT count(*) FROM settings WHERE key = 'left'").fetchone()[0] == 0


def test_a_thread_turning_to_another_database_closes_the_old_one(app: Flask, tmp_path: Path) -> None:
    with app.app_context():
        old = get_db()
    app.config["DATABASE"] = str(tmp_path / "other.db")
    migrate(app.config["DATABASE"])
    with app.app_context():
        new = get_db()
        assert new is not old
        assert new.execute("PRAGMA database_list").fetchone()[2] == app.config["DATABASE"]
    with pytest.raises(sqlite3.ProgrammingError):
        old.execute("SELECT 1")
    release()
    with pytest.raises(sqlite3.ProgrammingError):
        new.execute("SELECT 1")  # released: closed before its file is replaced


def test_migrate_command_reports_what_it_applied(app: Flask, tmp_path: Path) -> None:
    """``flask migrate`` (the flask command line pushes the app context, as here)."""
    runner = app.test_cli_runner()
    with app.app_context():
        result = runner.invoke(args=["migrate"])
        assert result.exit_code == 0, result.output
        assert result.output.strip() == "Applied 0 migration(s)."
        app.config["DATABASE"] = str(tmp_path / "other.db")
        result = runner.invoke(args=["migrate"])
        assert result.exit_code == 0, result.output
        assert result.output.strip() == f"Applied {len(MIGRATIONS)} migration(s)."
    assert migrate(str(tmp_path / "other.db")) == []
