"""The schema, only ever changed here, one migration at a time.

Each migration applied to a database is recorded by name in its ``_sqlite_migrations`` table
(``migration_set`` ``director``): that list is the database's schema version. A database
whose list names a migration this code does not know comes from a newer version
(``unknown``), and is never opened (``director.core.db.settle``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

migrations = Migrations("director")
MIGRATIONS_TABLE = Migrations.migrations_table


def applied(conn: sqlite3.Connection) -> list[str]:
    """The names of the migrations applied to the database on ``conn``, oldest first (read only)."""
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                        (MIGRATIONS_TABLE,)).fetchone():
        return []
    return [row[0] for row in conn.execute(
        f"SELECT name FROM {MIGRATIONS_TABLE} WHERE migration_set = ? ORDER BY rowid", (migrations.name,))]


def unknown(names: Iterable[str]) -> list[str]:
    """Those of ``names`` that are no migration of this version: a newer version applied them."""
    known = {m.name for m in migrations.pending(Database(memory=True))}  # every migration of this version
    return [name for name in names if name not in known]


@migrations()
def m001_tournaments_and_events(db: Database) -> None:
    db.table("tournaments").create(
        {"id": int, "name": str, "created_at": float, "last_seq": int},
        pk="id",
        not_null={"name", "created_at", "last_seq"},
    )
    db.table("events").create(
        {"id": int, "tournament_id": int, "seq": int, "type": str, "payload": str, "at": float},
        pk="id",
        not_null={"tournament_id", "seq", "type", "payload", "at"},
        foreign_keys=[("tournament_id", "tournaments", "id")],
    )
    db.table("events").create_index(["tournament_id", "seq"], unique=True)
    db.table("settings").create({"key": str, "value": str}, pk="key")
    db.table("player_names").create(
        {"name_key": str, "name": str, "last_used": float, "times": int}, pk="name_key"
    )


@migrations()
def m002_cash_sessions_and_the_club(db: Database) -> None:
    """Cash-game nights and the club's balances live beside the tournaments: each is a row of
    ``tournaments`` (``kind`` ``cash`` or ``club``) with its events in the same ``events`` table."""
    db["tournaments"].add_column("kind", str, not_null_default="tournament")
    db["tournaments"].create_index(["kind"])


@migrations()
def m003_snapshots(db: Database) -> None:
    """A folded state kept every so many events, so that a restart folds only what came after.
    ``version`` names the engine that wrote it: a snapshot of another version is ignored."""
    db.table("snapshots").create(
        {"tournament_id": int, "seq": int, "version": str, "data": bytes, "at": float},
        pk="tournament_id",
        not_null={"seq", "version", "data", "at"},
        foreign_keys=[("tournament_id", "tournaments", "id")],
    )


@migrations()
def m004_events_by_type(db: Database) -> None:
    """The player's page finds its token among the director's events (registrations, seat
    draws, moves) without reading every hand of the night."""
    db.table("events").create_index(["type", "tournament_id"])


@migrations()
def m005_streams(db: Database) -> None:
    """A tournament, a cash session and the club's ledger are each a stream of events (its
    ``kind`` says which): the table is named for what it holds, and so is the column that
    ties an event or a snapshot to its stream."""
    db.execute("ALTER TABLE tournaments RENAME TO streams")
    db.execute("ALTER TABLE events RENAME COLUMN tournament_id TO stream_id")
    db.execute("ALTER TABLE snapshots RENAME COLUMN tournament_id TO stream_id")


@migrations()
def m006_archived_streams(db: Database) -> None:
    """A finished tournament can be put away: the home page lists archived ones apart."""
    db.execute("ALTER TABLE streams ADD COLUMN archived_at REAL")


@migrations()
def m007_templates(db: Database) -> None:
    """The host's templates: settings and a structure saved under a name."""
    db.execute(
        "CREATE TABLE templates (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at REAL NOT NULL, "
        "payload TEXT NOT NULL)"
    )
    db.execute("CREATE UNIQUE INDEX templates_by_name ON templates (lower(name))")


@migrations()
def m008_chip_sets(db: Database) -> None:
    """The host's own chip sets: each value's colour and how many of it the host owns."""
    db.execute(
        "CREATE TABLE chip_sets (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at REAL NOT NULL, "
        "payload TEXT NOT NULL)"
    )
    db.execute("CREATE UNIQUE INDEX chip_sets_by_name ON chip_sets (lower(name))")


@migrations()
def m009_people_and_seasons(db: Database) -> None:
    """The players' database and the seasons: each person once (``people``), the names each was
    registered under (``person_names``), each night's players tied to people
    (``person_entries``, with ``people_synced`` saying which nights were read); a season's
    rules (``seasons``) and its nights (``season_nights``: a tournament is in one season at most),
    and the past nights a league brought in as CSV (``imported_nights``, ``imported_results``)."""
    db.execute(
        "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, nickname TEXT NOT NULL DEFAULT '', "
        "note TEXT NOT NULL DEFAULT '', created_at REAL NOT NULL)"
    )
    db.execute("CREATE UNIQUE INDEX people_by_name ON people (lower(name))")
    db.execute("CREATE TABLE person_names (name_key TEXT PRIMARY KEY, person_id INTEGER NOT NULL REFERENCES people(id))")
    db.execute(
        "CREATE TABLE person_entries (stream_id INTEGER NOT NULL REFERENCES streams(id), player_id INTEGER NOT NULL, "
        "person_id INTEGER NOT NULL REFERENCES people(id), PRIMARY KEY (stream_id, player_id))"
    )
    db.execute("CREATE INDEX person_entries_by_person ON person_entries (person_id)")
    db.execute("CREATE TABLE people_synced (stream_id INTEGER PRIMARY KEY REFERENCES streams(id), seq INTEGER NOT NULL)")
    db.execute(
        "CREATE TABLE seasons (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at REAL NOT NULL, rules TEXT NOT NULL)"
    )
    db.execute("CREATE UNIQUE INDEX seasons_by_name ON seasons (lower(name))")
    db.execute(
        "CREATE TABLE season_nights (stream_id INTEGER PRIMARY KEY REFERENCES streams(id), "
        "season_id INTEGER NOT NULL REFERENCES seasons(id), final INTEGER NOT NULL DEFAULT 0)"
    )
    db.execute("CREATE INDEX season_nights_by_season ON season_nights (season_id)")
    db.execute(
        "CREATE TABLE imported_nights (id INTEGER PRIMARY KEY, season_id INTEGER NOT NULL REFERENCES seasons(id), "
        "name TEXT NOT NULL, at REAL NOT NULL)"
    )
    db.execute(
        "CREATE TABLE imported_results (night_id INTEGER NOT NULL REFERENCES imported_nights(id), "
        "person_id INTEGER NOT NULL REFERENCES people(id), place INTEGER NOT NULL, prize INTEGER NOT NULL, "
        "knockouts INTEGER NOT NULL, PRIMARY KEY (night_id, person_id))"
    )


@migrations()
def m010_tv_look(db: Database) -> None:
    """The host's TV look (layout, theme, title, accent, logo, sounds): one row of JSON."""
    db.execute("CREATE TABLE tv_look (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL)")


@migrations()
def m011_app_settings(db: Database) -> None:
    """The app's own settings, a key and its value each: the language, and whether players'
    phones follow their browser's language."""
    db.execute("CREATE TABLE app_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


@migrations()
def m012_commands(db: Database) -> None:
    """The commands recorded, by the id the client gave (a form's, a dealer's tap, an API call's
    ``Idempotency-Key``): a retry after a lost answer is answered with what was recorded."""
    db.execute(
        "CREATE TABLE commands (id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, at REAL NOT NULL, "
        "status INTEGER, headers TEXT, body BLOB)"
    )
    db.execute("CREATE INDEX commands_by_age ON commands (at)")


@migrations()
def m013_links_and_authors(db: Database) -> None:
    """The links that give a phone a role without the director's password (a table's dealer,
    the floor), the phones that opened each, and the author of every event. A link keeps its
    nonce and its token's hash, never the token (``director.core.roles.link_token``)."""
    db.execute(
        "CREATE TABLE links (id INTEGER PRIMARY KEY, nonce TEXT NOT NULL UNIQUE, token_hash TEXT NOT NULL UNIQUE, "
        "kind TEXT NOT NULL, "
        "stream_id INTEGER NOT NULL REFERENCES streams(id) ON DELETE CASCADE, table_no INTEGER, "
        "created_at REAL NOT NULL, ended_at REAL, ended_why TEXT)"
    )
    db.execute("CREATE INDEX links_by_stream ON links (stream_id, kind, table_no)")
    db.execute(
        "CREATE TABLE link_phones (link_id INTEGER NOT NULL REFERENCES links(id) ON DELETE CASCADE, "
        "phone TEXT NOT NULL, agent TEXT NOT NULL, first_at REAL NOT NULL, last_at REAL NOT NULL, "
        "PRIMARY KEY (link_id, phone))"
    )
    db.execute("ALTER TABLE events ADD COLUMN author TEXT")
