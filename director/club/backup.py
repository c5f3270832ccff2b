"""A backup of the whole database as one file, and a restore from it (issue "Seasons", part 6).

The backup is a consistent copy taken with SQLite's backup API while the server runs (the
writers wait their turn, nothing is half-written). A restore checks that the file is a
backup of this app whose schema this version knows (no newer migration), keeps the current
database aside in the data folder (``backups/before-restore-<time>.db``), copies the backup
over the live database with the same API, brings its schema up to date, and forgets every
state held in memory.

Pages: ``/backup`` (director only): download (``/backup/download``, the file), and restore
with a confirmation (``POST /backup/restore``, the file as ``backup`` and ``confirm=on``).
JSON twins, for a host's nightly script: ``GET /api/backup`` (the file) and ``POST
/api/restore`` (a multipart form: the file as ``backup`` and ``confirm=true``), with the same
checks.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from flask import Blueprint, Response, current_app, flash, jsonify, redirect, request, url_for
from flask.typing import ResponseReturnValue
from sqlite_utils import Database
from werkzeug.datastructures import FileStorage

from director.core import inputs, shapes
from director.core.auth import login_required
from director.core.caches import forget_everything, new_generation
from director.core.contract import Api
from director.core.db import get_db, migrate
from director.core.i18n import gettext
from director.core.migrations import migrations
from director.core.web import render
from director.core.words import say
from director.core.work import writing
from engine.errors import IllegalAction, InvalidInput

bp = Blueprint("backup", __name__)
api = Api(bp, "club")
MAX_BACKUP = 2 * 1024**3
"""The largest file a restore takes (2 GB): a club's years of nights are a few hundred MB."""
SQLITE_HEADER = b"SQLite format 3\x00"


def _copy(source: sqlite3.Connection, target: str) -> None:
    dest = sqlite3.connect(target)
    try:
        source.backup(dest)
    finally:
        dest.close()


def take(path: str) -> None:
    """A consistent copy of the live database at ``path``."""
    with writing(current_app.config["DATABASE"]):
        _copy(get_db().conn, path)


def check(path: str) -> list[str]:
    """The migrations of a backup file, or ``InvalidInput`` saying why it is not one of ours."""
    with open(path, "rb") as f:
        if f.read(16) != SQLITE_HEADER:
            raise InvalidInput("That file is not a backup of poker-director: it is not an SQLite database.")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise InvalidInput("That backup is damaged (SQLite's check fails): nothing was restored.")
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            streams = "streams" if "streams" in tables else "tournaments"  # so named before m005_streams
            if not {"_sqlite_migrations", streams, "events"} <= tables:
                raise InvalidInput("That file is an SQLite database, but not a backup of poker-director.")
            names = [r[0] for r in conn.execute(
                "SELECT name FROM _sqlite_migrations WHERE migration_set = 'director' ORDER BY id")]
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        raise InvalidInput("That file is not a backup of poker-director ({error}).", error=str(error)) from None
    known = {m.name for m in migrations.pending(Database(memory=True))}  # every migration of this version
    newer = [n for n in names if n not in known]
    if newer:
        raise IllegalAction("That backup comes from a newer poker-director (its schema has {migration}): "
                            "update this app first.", migration=newer[-1])
    return names


def restore(upload: str) -> Path:
    """Replace the live database with the backup at ``upload``; returns where the current one went."""
    check(upload)
    database = current_app.config["DATABASE"]
    aside = Path(database).resolve().parent / "backups" / time.strftime("before-restore-%Y%m%d-%H%M%S.db")
    aside.parent.mkdir(parents=True, exist_ok=True)
    with writing(database):
        live = get_db().conn
        _copy(live, str(aside))  # the current database kept, whole
        source = sqlite3.connect(f"file:{upload}?mode=ro", uri=True)
        try:
            source.backup(live)
        finally:
            source.close()
        # A backup of an older version gets this version's schema before anything is written
        # to it (the generation's table came with m011_app_settings).
        migrations.apply(Database(live))
        with live:  # the other server processes forget the night thrown away too
            new_generation(live)
        forget_everything()  # every state, page and answer kept describes the database thrown away
    migrate(database)  # as a start would (nothing is left to apply)
    return aside


@bp.get("/backup")
@login_required
def page() -> ResponseReturnValue:
    return render("backup.html", "backup.html")


def _download() -> ResponseReturnValue:
    """The backup as a download, sent in blocks from a copy that is deleted once sent."""
    handle, path = tempfile.mkstemp(suffix=".db")
    os.close(handle)
    take(path)
    size = os.path.getsize(path)

    def blocks() -> Iterator[bytes]:
        try:
            with open(path, "rb") as file:
                while block := file.read(1 << 20):
                    yield block
        finally:
            _forget(path)

    name = time.strftime("poker-director-%Y%m%d-%H%M.db")
    response = Response(blocks(), mimetype="application/vnd.sqlite3", headers={
        "Content-Disposition": f'attachment; filename="{name}"', "Content-Length": str(size)})
    response.call_on_close(lambda: _forget(path))
    return response


def _forget(path: str) -> None:
    if os.path.exists(path):
        os.unlink(path)


@bp.get("/backup/download")
@login_required
def download() -> ResponseReturnValue:
    return _download()


def restore_upload(upload: FileStorage | None, confirmed: bool, page: bool = True) -> Path:
    """Restore the uploaded backup, after the checks every way in shares: a file, the host's
    confirmation, its size, and that it is a backup this version can read."""
    if upload is None or not upload.filename:
        raise InvalidInput("Choose the backup file to restore.")
    if not confirmed and page:
        raise InvalidInput("Tick the box to confirm: everything now in the app is replaced by the backup.")
    if not confirmed:
        raise InvalidInput("Send confirm=true to confirm: everything now in the app is replaced by the backup.")
    handle, path = tempfile.mkstemp(suffix=".db")
    os.close(handle)
    try:
        upload.save(path)
        if os.path.getsize(path) > MAX_BACKUP:
            raise InvalidInput("A backup is at most {size} GB.", size=MAX_BACKUP // 1024**3)
        return restore(path)
    finally:
        os.unlink(path)


def restored_text(aside: Path) -> str:
    return gettext("Restored the backup. The database as it was is kept in the data folder as %(file)s.",
                   file=aside.name)


@bp.post("/backup/restore")
@login_required
def restore_page() -> ResponseReturnValue:
    try:
        aside = restore_upload(request.files.get("backup"), request.form.get("confirm") == "on")
    except (InvalidInput, IllegalAction) as error:
        return render("backup.html", "backup.html", error=say(error)), 422
    flash(restored_text(aside), "ok")
    return redirect(url_for("home.index"), code=303)


@api.get("/api/backup", summary="A backup of the whole database: the file (a consistent copy, taken while "
         "the app runs)", login=True, errors=(), produces="application/vnd.sqlite3")
def api_backup() -> ResponseReturnValue:
    return _download()


@api.post("/api/restore", summary="Replace the whole database with a backup (a multipart form: the file as "
          "backup, and confirm=true); the database as it was is kept in the data folder", body=inputs.RestoreIn,
          files=("backup",), result=shapes.Done, status=200, errors=(400, 401, 422))
def api_restore(data: inputs.RestoreIn) -> ResponseReturnValue:
    return jsonify(notice=restored_text(restore_upload(request.files.get("backup"), data.confirm, page=False)))
