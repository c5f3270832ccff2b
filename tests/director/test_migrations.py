"""The schema's migrations: a database of an earlier version migrates on start, nothing lost."""

from __future__ import annotations

import json
from pathlib import Path

from sqlite_utils import Database

from director import create_app
from director.core.db import get_db
from director.core.migrations import migrations
from director.core.store import cache, load_state


def test_a_database_from_before_streams_migrates_with_its_tournament_cash_night_and_snapshot(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    instance.mkdir()
    old = Database(instance / "poker-director.core.db")
    migrations.apply(old, stop_before="m005_streams")
    old.execute("INSERT INTO tournaments (id, name, created_at, last_seq, kind) VALUES (1, 'Friday', 1.0, 2, 'tournament')")
    old.execute("INSERT INTO tournaments (id, name, created_at, last_seq, kind) VALUES (2, 'Cash', 2.0, 1, 'cash')")
    created = {"name": "Friday", "preset": "home-short", "rules": 2}
    for seq, type_, payload in [(1, "created", created), (2, "player_registered", {"name": "Ann", "token": "t"})]:
        old.execute("INSERT INTO events (tournament_id, seq, type, payload, at) VALUES (1, ?, ?, ?, 1.0)",
                    [seq, type_, json.dumps(payload)])
    old.execute("INSERT INTO events (tournament_id, seq, type, payload, at) VALUES (2, 1, 'created', ?, 2.0)",
                [json.dumps({"name": "Cash", "tables": [{"seats": 9, "small_blind": 50, "big_blind": 100}]})])
    old.execute("INSERT INTO snapshots (tournament_id, seq, version, data, at) VALUES (1, 1, 'old', x'00', 1.0)")
    old.conn.commit()
    old.close()

    cache.clear()
    app = create_app({"TESTING": True}, instance_path=instance)
    with app.app_context():
        db = get_db()
        assert {"streams", "events", "snapshots"} <= set(db.table_names())
        assert "tournaments" not in db.table_names()
        assert [r["kind"] for r in db.query("SELECT kind FROM streams ORDER BY id")] == ["tournament", "cash"]
        assert db.execute("SELECT stream_id FROM snapshots").fetchone()[0] == 1
        state = load_state(db, 1)
        assert state.name == "Friday" and [p.name for p in state.players] == ["Ann"]
        foreign = db.execute("PRAGMA foreign_key_list(events)").fetchall()
        assert [row[2] for row in foreign] == ["streams"]
    cache.clear()
