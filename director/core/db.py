"""The database: its one name in the data folder, WAL mode, migrations on startup, and a
connection per server thread.

The data folder's database is ``poker-director.db`` for good (``DATABASE_NAME``); a start
first settles the folder (``settle``: a database under the name some versions used is
renamed, a database of a newer version is refused), then brings the schema up to date.

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
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app, g
from sqlite_utils import Database

from director.core.caches import GENERATION, follow_generation, forget_everything, new_generation
from director.core.migrations import MIGRATIONS_TABLE, applied, migrations, unknown

DATABASE_NAME = "poker-director.db"
"""The data folder's database, under this one name for good. Every version before the
database's code moved into ``director/core`` (commit dc9f142) named it so, and a host's
folders, backups and scripts know it by that name."""

FORMER_NAME = "poker-director.core.db"
"""The name the versions from dc9f142 on gave the database (the module's path crept into
it). A start renames such a database to ``DATABASE_NAME`` (``settle``)."""

COMPANIONS = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database while it is in use, named after it."""

ASIDE = "backups"
"""The data folder's folder for databases kept aside (an empty one found at a start, the
database a restore replaced)."""

BOOKKEEPING = frozenset({MIGRATIONS_TABLE, "app_settings", "commands", "snapshots", "sqlite_sequence",
                         "sqlite_stat1", "sqlite_stat4"})
"""Tables a start fills without the host doing anything (the migrations applied, the cache's
generation, a retry's recorded answer, a folded state kept to save time): a database whose
other tables are all empty holds nothing of the host's."""


class DatabaseRefused(Exception):
    """The data folder's database is not opened: the message says why and what to do. The
    folder is left as it was."""


def connect(path: str) -> Database:
    """A new connection in WAL mode that waits for a busy writer instead of failing."""
    conn = sqlite3.connect(path, timeout=15, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")  # an acknowledged event survives a power cut
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=15000")
    return Database(conn)


def companion(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


@dataclass(frozen=True)
class Found:
    """What a database file holds, as ``look`` read it."""

    path: Path
    migrations: list[str]
    holds: list[str]
    """What of the host's it holds, in words ("2 tournaments", "the director's password");
    empty: nothing (the database a start makes before anyone uses the app)."""


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def look(path: Path) -> Found:
    """What the database at ``path`` holds, read without writing a byte. A connection to a
    database in WAL mode makes its ``-wal`` and ``-shm`` files, even a read-only one: where
    no ``-wal`` (or ``-journal``) file is beside it, the database is whole in its one file
    and is read as unchangeable (SQLite's ``immutable``), which makes none; where one is, it
    is read as usual (the files are there already)."""
    whole = not any(companion(path, suffix).exists() for suffix in ("-wal", "-journal"))
    uri = path.resolve().as_uri() + "?mode=ro" + ("&immutable=1" if whole else "")
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            return Found(path, applied(conn), _holds(conn))
        finally:
            conn.close()
    except sqlite3.OperationalError as error:  # not for this user to read, say
        raise DatabaseRefused(f"{path} cannot be read ({error}): make it readable, or move it out of the "
                              f"data folder, then start again.") from None
    except sqlite3.DatabaseError as error:
        raise DatabaseRefused(f"{path} is not a poker-director database ({error}): move it out of the data "
                              f"folder, then start again.") from None


def _holds(conn: sqlite3.Connection) -> list[str]:
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def rows(sql: str) -> int:
        return int(conn.execute(sql).fetchone()[0])

    words = []
    streams = "streams" if "streams" in tables else "tournaments" if "tournaments" in tables else None
    if streams:  # ``tournaments`` before m005_streams, with no ``kind`` before m002
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({streams})")}
        kinds = dict(conn.execute(f"SELECT kind, count(*) FROM {streams} GROUP BY kind").fetchall()) \
            if "kind" in columns else {"tournament": rows(f"SELECT count(*) FROM {streams}")}
        if kinds.get("tournament"):
            words.append(_count(kinds["tournament"], "tournament", "tournaments"))
        if kinds.get("cash"):
            words.append(_count(kinds["cash"], "cash night", "cash nights"))
    if "people" in tables and (n := rows("SELECT count(*) FROM people")):
        words.append(_count(n, "person", "people"))
    if "seasons" in tables and (n := rows("SELECT count(*) FROM seasons")):
        words.append(_count(n, "season", "seasons"))
    if "settings" in tables and rows("SELECT count(*) FROM settings WHERE key = 'password_hash'"):
        words.append("the director's password")
    if not words and any(rows(f'SELECT EXISTS (SELECT 1 FROM "{table}")')
                         for table in tables - BOOKKEEPING):
        words.append("the host's templates, chip sets or settings")
    return words


def refuse_newer(found: Found) -> None:
    """A database a newer version migrated is never opened: this code would misread it."""
    newer = unknown(found.migrations)
    if newer:
        raise DatabaseRefused(
            f"{found.path} comes from a newer poker-director: its schema has {newer[-1]}, which this "
            f"version does not know. Nothing was changed: update poker-director to open it.")


def settle(database: Path) -> None:
    """Make the data folder's database ready to open under its one name, or refuse it with
    ``DatabaseRefused`` (the folder left as it was).

    * A database of a newer version (a migration this code does not know) is refused.
    * Where only ``FORMER_NAME`` is in the folder, it is renamed to ``DATABASE_NAME``, with its
      ``-wal`` and ``-shm`` files: a start never makes an empty database beside a full one.
    * Where both are, and both hold something of the host's (``Found.holds``: tournaments,
      people, seasons, the director's password, templates...), neither is opened: the
      sentence names both and says what each holds, and the host keeps the one wanted.
    * Where both are and one holds nothing (made by a start that found no database under its
      name), the one with the host's data is kept under ``DATABASE_NAME`` and the empty one is
      moved into ``backups`` as ``unused-<time>-<name>``: kept, in case, but out of the way. A
      host expects the league back, and an empty database loses nothing by moving.

    Renaming rather than reading the database where it is: one name, so that every way in
    (the backup, the host's own scripts, the next version) finds the same file. It is safe
    only while no other program has the file open (an older poker-director still running
    would go on writing to a file nobody reads): ``_alone`` proves that first, and the move
    is refused with a sentence if it cannot. ``database`` is the app's ``DATABASE``: another
    name (a test's, a config file's) is only checked for a newer version.
    """
    former = database.with_name(FORMER_NAME) if database.name == DATABASE_NAME else None
    here = look(database) if database.exists() else None
    there = look(former) if former is not None and former.exists() else None
    for found in (here, there):
        if found is not None:
            refuse_newer(found)
    if former is None or there is None:
        return
    if here is None:
        _alone(former)
        _orphans_aside(database)
        _move(former, database)
    elif here.holds and there.holds:
        raise DatabaseRefused(
            f"The data folder {database.parent} holds two databases: {DATABASE_NAME} ({', '.join(here.holds)}) "
            f"and {FORMER_NAME} ({', '.join(there.holds)}), the name some versions gave it. Nothing was "
            f"opened. Keep the one you want: move the other out of the data folder (with its -wal and "
            f"-shm files, if any), then start again ({FORMER_NAME} is then renamed {DATABASE_NAME}).")
    elif there.holds:
        _alone(database)
        _alone(former)
        _move(database, _aside(database))
        _move(former, database)
    else:
        _alone(former)
        _move(former, _aside(former))


def _alone(path: Path) -> None:
    """Make sure no other program has the database at ``path`` open, and leave it whole in its
    one file. Both at once: SQLite takes a database out of WAL mode only for its only
    connection, and doing so writes everything in the ``-wal`` file into the database and
    deletes the ``-wal`` and ``-shm`` files (a checkpoint alone would succeed beside another
    program's idle connection). ``connect`` turns WAL on again once the database is opened.
    The file is closed before it is renamed (a file open on Windows cannot be): an older
    poker-director started in that very instant would make a new, empty database under the
    old name, which the next start puts aside."""
    try:
        conn = sqlite3.connect(path, timeout=1)
        try:
            mode = conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.OperationalError:  # "database is locked": another connection has it
        mode = None
    if mode != "delete":
        raise DatabaseRefused(
            f"{path.name} in {path.parent} is open in another program (is an older poker-director still "
            f"running?): stop it, then start again.")


def _move(path: Path, to: Path) -> None:
    """Rename the database at ``path`` and any file of its (``COMPANIONS``) to ``to``'s name.
    The file first: a stop in between leaves the database whole under its new name."""
    for suffix in ("", *COMPANIONS):
        if companion(to, suffix).exists():  # never over another file
            raise DatabaseRefused(f"{companion(to, suffix)} is in the way of {path.name}: move it out of the "
                                  f"data folder, then start again.")
    path.rename(to)
    for suffix in COMPANIONS:
        if companion(path, suffix).exists():
            companion(path, suffix).rename(companion(to, suffix))


def _aside(path: Path) -> Path:
    """Where a database is kept aside: ``backups/unused-<time>-<name>`` in its data folder."""
    folder = path.parent / ASIDE
    folder.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = folder / f"unused-{stamp}-{path.name}"
    n = 1
    while any(companion(target, suffix).exists() for suffix in ("", *COMPANIONS)):
        n += 1
        target = folder / f"unused-{stamp}-{n}-{path.name}"
    return target


def _orphans_aside(database: Path) -> None:
    """A ``-wal`` or ``-shm`` file left where no database is (the database deleted by hand):
    kept aside, so that SQLite never reads it into the database renamed to that name."""
    orphans = [suffix for suffix in COMPANIONS if companion(database, suffix).exists()]
    if orphans:
        target = _aside(database)
        for suffix in orphans:
            companion(database, suffix).rename(companion(target, suffix))


def migrate(path: str) -> list[str]:
    """Apply pending migrations; returns their names. A database of a newer version is refused
    (``DatabaseRefused``) before anything is written."""
    if Path(path).exists():
        refuse_newer(look(Path(path)))
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
