"""Upgrades keep the league: a data folder made by an earlier version opens with today's app,
everything it held read back, and a folder this version cannot open safely is refused with a
sentence, its files untouched.

``data/<commit>/`` holds a data folder made by that commit's own command and JSON API (its
``NOTE.md`` says how) and ``expected.json``, what that version answered about it. A backup
made by an earlier version restores the same way: the database file (or, where the folder
keeps one, ``backup.db``, the file that version's backup page downloaded) restored into a
fresh app reads back the same.
"""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director import create_app
from director.cli import main as cli_main
from director.core.db import DatabaseRefused, look, migrate
from director.core.store import cache
from tests.upgrade.make_data_folder import cash_night, person, season_summary, tournament

DATA = Path(__file__).resolve().parent / "data"
NAME = "poker-director.db"
FORMER = "poker-director.core.db"
KEPT = {
    "c1060e8": NAME,  # the first day's last version: tournaments and cash nights, no players' database yet
    "22402be": NAME,  # people, seasons, deals and a backup page; before app_settings and command ids
    "f9d6589": NAME,  # the last version before the database moved into director/core
    "886fbe9": FORMER,  # a version that named the file poker-director.core.db
}
EXTRA = ("cash_nights", "phones")
"""What a folder's ``expected.json`` may keep beyond tournaments, seasons and people, read back
where it does."""


@pytest.fixture(autouse=True)
def no_cached_states() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def kept_folder(commit: str, into: Path) -> Path:
    """A copy of the data folder made by ``commit`` (its database and secret), at ``into``."""
    into.mkdir(parents=True)
    for name in (KEPT[commit], "secret_key"):
        shutil.copy2(DATA / commit / name, into / name)
    return into


def expected(commit: str) -> dict[str, Any]:
    return json.loads((DATA / commit / "expected.json").read_text())  # type: ignore[no-any-return]


def api(client: FlaskClient, method: str, path: str, body: Any = None, token: str = "") -> Any:
    response = client.open(path, method=method, json=body, headers={"X-CSRFToken": token})
    assert response.status_code == 200, (path, response.status_code, response.get_data(as_text=True))
    return response.get_json()


def read_back(app: Flask, password: str, also: tuple[str, ...] = ()) -> dict[str, Any]:
    """Everything the folder holds, read through today's JSON API after logging in with
    ``password``, in the shape ``expected.json`` keeps; with ``also``, those of ``EXTRA`` too."""
    client = app.test_client()
    token = api(client, "GET", "/api/session")["csrf_token"]
    assert api(client, "GET", "/api/session")["password_set"], "the first-start page would ask for a new password"
    token = api(client, "POST", "/api/login", {"password": password}, token)["csrf_token"]
    return {
        "password": password,
        "tournaments": sorted((tournament(api(client, "GET", f"/api/t/{t['id']}"))
                               for t in api(client, "GET", "/api/tournaments")["tournaments"]),
                              key=lambda t: t["id"]),
        "seasons": [season_summary(api(client, "GET", f"/api/seasons/{s['id']}"))
                    for s in api(client, "GET", "/api/seasons")["seasons"]],
        "people": sorted(person(p) for p in api(client, "GET", "/api/people")["people"]),
        **({"cash_nights": [cash_night(api(client, "GET", f"/api/cash/{s['id']}"))
                            for s in sorted(api(client, "GET", "/api/cash")["sessions"], key=lambda s: s["id"])]}
           if "cash_nights" in also else {}),
        **({"phones": phones(app, client)} if "phones" in also else {}),
    }


def phones(app: Flask, director: FlaskClient) -> list[list[Any]]:
    """Each registered player's phone link, from today's event log (tournament, name, token),
    once each link is checked to open that player's own page on a phone (no login)."""
    links = sorted([t["id"], e["payload"]["name"], e["payload"]["token"]]
                   for t in api(director, "GET", "/api/tournaments")["tournaments"]
                   for e in api(director, "GET", f"/api/t/{t['id']}/events")["events"]
                   if e["type"] == "player_registered" and e["payload"].get("token"))
    phone = app.test_client()
    for _, name, token in links:
        page = phone.get(f"/p/{token}")
        assert page.status_code == 200 and name in page.get_data(as_text=True), (name, page.status_code)
    return links


def held(want: dict[str, Any]) -> dict[str, Any]:
    """What ``read_back`` answers for a folder: ``expected.json`` without its notes."""
    return {key: value for key, value in want.items() if key != "not_yet"}


def extra(want: dict[str, Any]) -> tuple[str, ...]:
    return tuple(key for key in EXTRA if key in want)


def databases(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".db" in p.name)


@pytest.mark.parametrize("commit", sorted(KEPT))
def test_a_data_folder_of_an_earlier_version_opens_with_everything_it_held(commit: str, tmp_path: Path) -> None:
    folder = kept_folder(commit, tmp_path / "instance")
    want = expected(commit)
    assert want["tournaments"] and want["people"]
    assert "seasons" in want.get("not_yet", []) or want["seasons"][0]["standings"]
    app = create_app({"TESTING": True}, instance_path=folder)
    assert read_back(app, want["password"], extra(want)) == held(want)
    assert Path(app.config["DATABASE"]) == folder / NAME
    assert FORMER not in databases(folder), "one database left, under its one name"
    assert (folder / NAME).exists()


def backup_of(commit: str) -> Path:
    """The backup a host of ``commit`` kept: what its backup page downloaded where the folder
    keeps that file, else the database file itself (a copy of it is the backup)."""
    downloaded = DATA / commit / "backup.db"
    return downloaded if downloaded.exists() else DATA / commit / KEPT[commit]


@pytest.mark.parametrize("way", ["page", "api"])
@pytest.mark.parametrize("commit", sorted(KEPT))
def test_a_backup_made_by_an_earlier_version_restores_the_same_way(commit: str, way: str, tmp_path: Path) -> None:
    """Restored into a fresh app (through the restore page or ``POST /api/restore``), the
    backup reads back everything the earlier version answered about its folder."""
    want = expected(commit)
    app = create_app({"TESTING": True}, instance_path=tmp_path / "instance")
    client = app.test_client()
    token = api(client, "GET", "/api/session")["csrf_token"]
    response = client.post("/api/setup-password", json={"password": "a new laptop's password"},
                           headers={"X-CSRFToken": token})
    assert response.status_code == 201
    token = response.get_json()["csrf_token"]
    content = backup_of(commit).read_bytes()
    if way == "page":
        data = {"csrf_token": token, "backup": (io.BytesIO(content), "backup.db"), "confirm": "on"}
        response = client.post("/backup/restore", data=data, content_type="multipart/form-data")
        assert response.status_code == 303, response.get_data(as_text=True)
    else:
        data = {"backup": (io.BytesIO(content), "backup.db"), "confirm": "true"}
        response = client.post("/api/restore", data=data, content_type="multipart/form-data",
                               headers={"X-CSRFToken": token})
        assert response.status_code == 200, response.get_data(as_text=True)
        assert "Restored the backup" in response.get_json()["notice"]
    assert backup_of(commit).read_bytes() == content, "the kept file is only read"
    assert read_back(app, want["password"], extra(want)) == held(want)


def files(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder``: its bytes and its modification time."""
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def empty_database(path: Path) -> None:
    """The database a start makes where it finds none: the schema, nothing of the host's."""
    migrate(str(path))


def waitress_stopped(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The servers ``serve`` would start (none, when it refuses): each stops at once."""
    import waitress

    started: list[Any] = []

    class Server:
        effective_port = 8000

        def run(self) -> None:
            raise KeyboardInterrupt

    def create_server(app: Any, **options: Any) -> Server:
        started.append(options)
        return Server()

    monkeypatch.setattr(waitress, "create_server", create_server)
    return started


def refused(folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    """The sentence ``create_app`` and ``poker-director serve`` (and ``migrate``) refuse the
    folder with, once each refusal is checked to have changed nothing in it."""
    before = files(folder)
    with pytest.raises(DatabaseRefused) as raised:
        create_app({"TESTING": True}, instance_path=folder)
    assert files(folder) == before
    started = waitress_stopped(monkeypatch)
    capsys.readouterr()
    for command in (["serve", "--host", "127.0.0.1", "--port", "0"], ["migrate"]):
        assert cli_main([*command, "--data", str(folder)]) == 1
        out = capsys.readouterr()
        assert out.err.strip() == str(raised.value) and "Traceback" not in out.err
    assert not started, "nothing started"
    assert files(folder) == before
    return str(raised.value)


def test_two_databases_holding_data_are_refused_naming_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    folder = kept_folder("f9d6589", tmp_path / "instance")
    shutil.copy2(DATA / "886fbe9" / FORMER, folder / FORMER)
    sentence = refused(folder, monkeypatch, capsys)
    assert sentence == (
        f"The data folder {folder} holds two databases: poker-director.db (2 tournaments, 15 people, 1 season, "
        "the director's password) and poker-director.core.db (2 tournaments, 15 people, 1 season, the director's "
        "password), the name some versions gave it. Nothing was opened. Keep the one you want: move the other out "
        "of the data folder (with its -wal and -shm files, if any), then start again (poker-director.core.db is "
        "then renamed poker-director.db).")
    (folder / NAME).rename(tmp_path / NAME)  # the host keeps the other one, as the sentence says
    app = create_app({"TESTING": True}, instance_path=folder)
    assert read_back(app, expected("886fbe9")["password"]) == expected("886fbe9")
    assert databases(folder) == [NAME, *(f"{NAME}{s}" for s in ("-shm", "-wal") if (folder / f"{NAME}{s}").exists())]


def test_a_password_alone_is_the_hosts_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A host who set a new password on the first-start page of an empty database: both
    databases hold something of the host's, and the host chooses."""
    folder = kept_folder("f9d6589", tmp_path / "instance")
    empty_database(folder / FORMER)
    with sqlite3.connect(folder / FORMER) as conn:
        conn.execute("INSERT INTO settings (key, value) VALUES ('password_hash', 'x')")
    conn.close()
    assert "and poker-director.core.db (the director's password)" in refused(folder, monkeypatch, capsys)


@pytest.mark.parametrize("commit", sorted(KEPT))
def test_a_database_of_a_newer_version_is_refused_untouched(commit: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = kept_folder(commit, tmp_path / "instance")
    name = KEPT[commit]
    conn = sqlite3.connect(folder / name)
    with conn:
        conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                     "VALUES ('director', 'm999_from_a_newer_version', '2030-01-01 00:00:00')")
    conn.close()
    assert databases(folder) == [name]
    assert refused(folder, monkeypatch, capsys) == (
        f"{folder / name} comes from a newer poker-director: its schema has m999_from_a_newer_version, which "
        "this version does not know. Nothing was changed: update poker-director to open it.")
    with pytest.raises(DatabaseRefused, match="newer poker-director"):
        migrate(str(folder / name))  # a restore's and the migrate command's way in too
    assert files(folder)[name][0] == (folder / name).read_bytes()


def test_the_former_name_alone_is_renamed_with_what_its_wal_holds(tmp_path: Path) -> None:
    """A database left with its -wal file (the laptop switched off with the server running):
    renamed with it, nothing in the log lost, no file left under the former name."""
    scratch = tmp_path / "scratch"
    kept_folder("886fbe9", scratch)
    writer = sqlite3.connect(scratch / FORMER)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    with writer:
        writer.execute("INSERT INTO people (name, nickname, note, created_at) VALUES ('Walter Wal', '', 'in the log', 1)")
    folder = tmp_path / "instance"
    shutil.copytree(scratch, folder)  # while the writer still has it open: the -wal and -shm files too
    writer.close()
    assert {FORMER, f"{FORMER}-wal", f"{FORMER}-shm"} <= set(databases(folder))
    assert (folder / f"{FORMER}-wal").stat().st_size > 0
    app = create_app({"TESTING": True}, instance_path=folder)
    want = expected("886fbe9")
    want["people"] = sorted([*want["people"], ["Walter Wal", "", "in the log"]])
    assert read_back(app, want["password"]) == want
    assert not [name for name in databases(folder) if name.startswith(FORMER)]


def test_an_empty_database_beside_the_hosts_is_put_aside(tmp_path: Path) -> None:
    """The database an upgrade's first start made beside the host's, empty: the host's is kept
    under the one name, the empty one moved into ``backups``, whichever name each had."""
    for commit, empty in (("886fbe9", NAME), ("f9d6589", FORMER)):
        folder = kept_folder(commit, tmp_path / commit)
        empty_database(folder / empty)
        assert look(folder / empty).holds == [] and databases(folder) == [FORMER, NAME]
        app = create_app({"TESTING": True}, instance_path=folder)
        assert read_back(app, expected(commit)["password"]) == expected(commit)
        assert not [name for name in databases(folder) if name.startswith(FORMER)]
        [aside] = (folder / "backups").iterdir()
        assert aside.name.startswith("unused-") and aside.name.endswith(empty)
        assert look(aside).holds == []


def test_a_database_another_program_has_open_is_not_moved(tmp_path: Path) -> None:
    """An older poker-director still running on the former name: refused with a sentence, the
    file left where that program writes to it; once it stops, the next start moves it."""
    folder = kept_folder("886fbe9", tmp_path / "instance")
    other = sqlite3.connect(folder / FORMER)
    other.execute("PRAGMA journal_mode=WAL")
    assert other.execute("SELECT count(*) FROM streams").fetchone()[0] == 2
    before = (folder / FORMER).read_bytes()
    with pytest.raises(DatabaseRefused) as raised:
        create_app({"TESTING": True}, instance_path=folder)
    assert str(raised.value) == (f"poker-director.core.db in {folder} is open in another program (is an older "
                                 "poker-director still running?): stop it, then start again.")
    assert (folder / FORMER).read_bytes() == before and not (folder / NAME).exists()
    other.close()
    app = create_app({"TESTING": True}, instance_path=folder)
    assert read_back(app, expected("886fbe9")["password"]) == expected("886fbe9")


def test_a_log_left_without_its_database_is_put_aside_before_the_rename(tmp_path: Path) -> None:
    """A ``poker-director.db-wal`` whose database was deleted by hand: SQLite would read it
    into the database renamed to that name. It goes into ``backups`` first."""
    scratch = kept_folder("f9d6589", tmp_path / "scratch")
    writer = sqlite3.connect(scratch / NAME)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    with writer:
        writer.execute("UPDATE people SET note = 'from another database'")
        writer.execute("DELETE FROM seasons")
    orphan = (scratch / f"{NAME}-wal").read_bytes()
    writer.close()
    folder = kept_folder("886fbe9", tmp_path / "instance")
    (folder / f"{NAME}-wal").write_bytes(orphan)
    app = create_app({"TESTING": True}, instance_path=folder)
    assert read_back(app, expected("886fbe9")["password"]) == expected("886fbe9")
    [aside] = (folder / "backups").iterdir()
    assert aside.name.startswith("unused-") and aside.name.endswith(f"{NAME}-wal")
    assert aside.read_bytes() == orphan


def test_a_file_that_is_no_database_is_refused_untouched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "instance"
    folder.mkdir()
    (folder / NAME).write_text("a spreadsheet saved under the wrong name\n" * 100)
    (folder / "secret_key").write_text("0" * 64)
    assert refused(folder, monkeypatch, capsys) == (
        f"{folder / NAME} is not a poker-director database (file is not a database): move it out of the data "
        "folder, then start again.")
