"""A backup of the whole database and a restore from it (issue "Seasons", part 6)."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

from flask import Flask

from tests.director.conftest import Director, new_tournament, soup


def download(director: Director) -> bytes:
    response = director.get("/backup/download")
    assert response.status_code == 200 and response.headers["Content-Disposition"].startswith("attachment")
    content = bytes(response.get_data())
    response.close()  # the copy is removed once sent
    return content


def restore(director: Director, content: bytes, confirm: bool = True):
    data = {"csrf_token": director.token, "backup": (io.BytesIO(content), "backup.db")}
    if confirm:
        data["confirm"] = "on"
    return director.client.post("/backup/restore", data=data, content_type="multipart/form-data")


def names(director: Director) -> list[str]:
    return sorted(t["name"] for t in director.api("GET", "/api/tournaments").get_json()["tournaments"])


def test_a_backup_round_trip_keeps_the_current_database_aside(app: Flask, director: Director, tmp_path: Path):
    new_tournament(director, ["Ann", "Bob"], name="Kept")
    saved = download(director)
    assert saved[:16] == b"SQLite format 3\x00"
    copy = tmp_path / "copy.db"
    copy.write_bytes(saved)
    assert sqlite3.connect(copy).execute("SELECT count(*) FROM streams").fetchone()[0] == 1
    new_tournament(director, ["Cy"], name="Lost")
    assert names(director) == ["Kept", "Lost"]
    response = restore(director, saved)
    assert response.status_code == 303
    assert names(director) == ["Kept"]
    kept = list((Path(app.config["DATABASE"]).parent / "backups").glob("before-restore-*.db"))
    assert len(kept) == 1
    assert sqlite3.connect(kept[0]).execute("SELECT count(*) FROM streams").fetchone()[0] == 2
    # the restored tournament plays on
    tid = director.api("GET", "/api/tournaments").get_json()["tournaments"][0]["id"]
    assert director.api("POST", f"/api/t/{tid}/players", {"name": "Dee"}).status_code == 201


def test_a_restore_refuses_what_is_not_a_backup_of_this_app(director: Director, tmp_path: Path):
    new_tournament(director, ["Ann"], name="Stays")
    page = restore(director, b"hello, not a database")
    assert page.status_code == 422
    assert "not a backup of poker-director: it is not an SQLite database" in soup(page).get_text()
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE x (y)").connection.commit()
    assert "not a backup of poker-director" in soup(restore(director, other.read_bytes())).get_text()
    newer = tmp_path / "newer.db"
    newer.write_bytes(download(director))
    conn = sqlite3.connect(newer)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('director', 'm999_future', '')")
    conn.commit()
    conn.close()
    refused = restore(director, newer.read_bytes())
    assert refused.status_code == 422 and "newer poker-director" in soup(refused).get_text()
    unconfirmed = restore(director, download(director), confirm=False)
    assert unconfirmed.status_code == 422 and "Tick the box to confirm" in soup(unconfirmed).get_text()
    assert names(director) == ["Stays"]


def test_the_backup_pages_need_the_director(client):
    assert client.get("/backup/download").status_code in (302, 401)
    assert client.post("/backup/restore").status_code in (302, 400, 401)


def test_after_a_restore_every_page_and_poll_shows_the_restored_night(app: Flask, director: Director):
    """Issue "The director's house, second version", 3: "a restore or a migration empties all
    of them at once ... After a restore, every page and poll shows the restored night at
    once." Seen: "a player's page shows the night that was thrown away ... when the restored
    night's next events reuse the same sequence numbers"."""
    from director.core.caches import caches
    from director.tables.views import player_tokens
    from tests.director.test_seating_pages import state_of

    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True)
    director.api("POST", f"/api/t/{tid}/tables/draw", {"table_size": 6})
    saved = download(director)
    token = player_tokens(state_of(app, tid))[3]
    phone = app.test_client()  # Cy's phone: no login, polling his page
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3})  # the night thrown away: Cy out
    for path in (f"/p/{token}", f"/p/{token}/live"):
        assert "You finished 3rd" in soup(phone.get(path)).get_text(" ", strip=True), path
    assert restore(director, saved).status_code == 303
    director.api("POST", f"/api/t/{tid}/bust", {"player": 2})  # the restored night: Bob out, at the same seq
    for path in (f"/p/{token}", f"/p/{token}/live"):
        text = soup(phone.get(path)).get_text(" ", strip=True)
        assert "You finished" not in text and "Bob" in text, path
    with app.app_context():
        assert {"folded states", "players' fields", "player tokens", "polled answers", "rendered clocks"} <= set(caches())


def test_a_backup_from_before_the_streams_and_the_app_settings_restores(app: Flask, director: Director,
                                                                        tmp_path: Path):
    """A backup of a database whose schema stops at m002 (the tournaments table not yet named
    ``streams``, no ``app_settings``) is one of ours: restored, it is brought up to this
    version's schema and its night is read back."""
    from sqlite_utils import Database

    from director.core.migrations import migrations

    old = tmp_path / "old.db"
    db = Database(old)
    migrations.apply(db, stop_before="m003_snapshots")
    db.execute("INSERT INTO tournaments (id, name, created_at, last_seq, kind) VALUES (1, 'Kept', 1, 1, 'tournament')")
    db.execute("INSERT INTO events (tournament_id, seq, type, payload, at) VALUES (1, 1, 'created', ?, 1)",
               ['{"name": "Kept", "preset": "home-short"}'])
    db.conn.commit()
    db.close()
    new_tournament(director, ["Ann"], name="Replaced")
    response = restore(director, old.read_bytes())
    assert response.status_code == 303, soup(response).get_text(" ", strip=True)
    assert names(director) == ["Kept"]
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")] == \
            [m.name for m in migrations.pending(Database(memory=True))]
    conn.close()
