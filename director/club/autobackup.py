"""Copies that make themselves during a night: the database copied to a second place (a USB
stick, a shared folder) while ``poker-director serve`` runs, so that a second laptop can go on
with the night if the first one dies.

**How the copying runs.** A background thread in the serving process, started by ``serve``
(:class:`Copier`). A thread rather than a copy after each command: the clock moves from one
level to the next by wall time, with no command written, and a copy is wanted at each level
change; a thread also keeps the copying (a few hundred milliseconds on a USB stick) out of
every dealer's tap. Every ``TICK`` seconds at most it reads ``PRAGMA data_version`` on a
connection of its own (the number moves whenever another connection, in any process,
commits), and the level of each tournament in play (the clock's state, folded from the
events, read at the wall time: ``Tournament.clock_at``, as the TV reads it). A copy is made
when something changed since the last copy and either a level started (a copy at most a tick
after it) or ``every`` seconds have passed since the last copy (``--backup-every MINUTES``,
2 by default). Nothing changed since the last copy: no copy.

With ``serve --workers N``, each worker process starts the thread, and only the one holding
an exclusive ``flock`` on ``auto-backup.lock`` in the data folder copies; the others try to
take the lock at each tick, so that a worker gunicorn starts again after a crash takes over.
The kernel releases the lock when its process ends, however it ends.

**How a copy is made.** SQLite's online backup API (``sqlite3.Connection.backup``), in one
step: the copy is read in one read transaction, a consistent state of the database, while the
writers go on (WAL mode). It is written under a hidden temporary name (``.<name>.part``),
switched out of WAL mode (one file, nothing beside it), flushed to the disk, checked
(``PRAGMA integrity_check``, and that it opens as a backup of this app:
``director.club.backup.check``), and only then renamed to its final name; only then are older
copies dropped. A half-written file never carries a copy's name.

**What is kept.** ``poker-director-<night>-<date>-<time>.db`` in the folder (by default
``backups/auto`` in the data folder, apart from the databases a restore keeps aside in
``backups``). A night runs from 6 in the morning to 6 the next morning. The last ``KEEP``
copies of the current night are kept, and the last copy of each earlier night for good.

**When a copy fails** (the folder full, read-only, unplugged mid-night), the night goes on:
the reason is kept in ``auto-backup.json`` in the data folder, which the home page and the
dashboard show to the director, and the copy is tried again ``RETRY`` seconds later. The
previous copies stay as they were.

``serve`` also holds a shared ``flock`` on ``serving.lock`` in the data folder for as long as
it runs: ``poker-director restore`` takes it exclusively, and refuses while a server runs.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from flask import Flask

from director.core.db import ASIDE
from engine.errors import N_

log = logging.getLogger(__name__)

EVERY = 120.0
"""Seconds between two copies while something changes (``--backup-every 2``)."""
KEEP = 5
"""Copies kept of the current night; one of each earlier night is kept for good."""
TICK = 2.0
"""The longest wait between two looks at the database and the clocks."""
RETRY = 30.0
"""Seconds before a copy that failed is tried again (at most ``every``)."""
FOLDER = "auto"
"""The copies' folder in the data folder's ``backups`` when none is given."""
STATUS = "auto-backup.json"
COPYING_LOCK = "auto-backup.lock"
SERVING_LOCK = "serving.lock"
NIGHT_STARTS = 6 * 3600
"""A copy taken before 6 in the morning belongs to the night before."""
NAME = re.compile(r"^poker-director-(\d{8})-(\d{8}-\d{6}-\d{3})\.db$")

try:
    import fcntl
except ImportError:  # Windows: one server process, no gunicorn
    fcntl = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Plan:
    """Where and how often the copies of a database are made."""

    database: str
    folder: Path
    every: float = EVERY
    keep: int = KEEP


def default_folder(database: str | Path) -> Path:
    return Path(database).resolve().parent / ASIDE / FOLDER


def night_of(at: float) -> str:
    return time.strftime("%Y%m%d", time.localtime(at - NIGHT_STARTS))


def copy_name(at: float) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(at)) + f"-{int(at * 1000) % 1000:03d}"
    return f"poker-director-{night_of(at)}-{stamp}.db"


def copies(folder: Path) -> list[Path]:
    """The copies in ``folder``, oldest first."""
    try:
        found = [(m.group(2), p) for p in folder.iterdir() if (m := NAME.match(p.name))]
    except OSError:
        return []
    return [p for _, p in sorted(found)]


def latest(folder: Path) -> Path | None:
    found = copies(folder)
    return found[-1] if found else None


class CopyFailed(Exception):
    """A copy that could not be made: ``reason`` is one of ``REASONS``' keys, ``detail`` the
    system's words."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG)
READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)
GONE = (errno.ENOENT, errno.ENODEV, errno.ENXIO, errno.EIO, errno.ENOTDIR, getattr(errno, "ESTALE", errno.EIO))


def _reason(error: BaseException, folder: Path) -> CopyFailed:
    """Why a copy failed, in one of the words the pages say."""
    if isinstance(error, CopyFailed):
        return error
    detail = str(error) or type(error).__name__
    if isinstance(error, OSError):
        if error.errno in FULL:
            return CopyFailed("full", detail)
        if error.errno in READ_ONLY:
            return CopyFailed("read_only", detail)
        if error.errno in GONE:
            return CopyFailed("missing", detail)
    text = detail.lower()
    if "full" in text:
        return CopyFailed("full", detail)
    if "readonly" in text or "read-only" in text or "permission" in text:
        return CopyFailed("read_only", detail)
    if not folder.is_dir():
        return CopyFailed("missing", detail)
    if not os.access(folder, os.W_OK):
        return CopyFailed("read_only", detail)
    if "disk i/o" in text or "unable to open" in text:
        return CopyFailed("missing", detail)
    return CopyFailed("other", detail)


REASONS = {
    "full": N_("the folder is full"),
    "read_only": N_("the folder cannot be written to (read-only, or not allowed)"),
    "missing": N_("the folder is not there any more (a USB stick unplugged?)"),
    "damaged": N_("the copy did not pass SQLite's check"),
}
"""Why a copy failed, as the pages say it (``other``: the system's own words)."""


def english_reason(failed: CopyFailed) -> str:
    return REASONS.get(failed.reason, failed.detail)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError as error:
        if error.errno != errno.EINVAL:  # a folder some systems cannot flush
            raise
    finally:
        os.close(fd)


def check_copy(path: Path) -> None:
    """``CopyFailed("damaged")`` unless the file at ``path`` passes SQLite's whole check and
    opens as a backup of this app."""
    from director.club.backup import check

    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            result = conn.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        raise CopyFailed("damaged", str(error)) from None
    if result != "ok":
        raise CopyFailed("damaged", str(result))
    try:
        check(str(path))
    except Exception as error:  # InvalidInput, IllegalAction: the engine's sentence in English
        raise CopyFailed("damaged", str(error)) from None


def write_copy(source: sqlite3.Connection, target: Path) -> Path:
    """A checked copy of the database ``source`` is connected to, at ``target``: written under a
    temporary name beside it and renamed into place only once whole and checked. Raises
    ``CopyFailed`` (nothing left under ``target``'s name). The folder is never made here: a USB
    stick unplugged mid-night leaves its mount point, and copies made there would stay on the
    laptop, unseen."""
    part = target.with_name(f".{target.name}.part")
    try:
        if not target.parent.is_dir():
            raise CopyFailed("missing", f"{target.parent} is not a folder")
        with contextlib.suppress(FileNotFoundError):
            part.unlink()
        dest = sqlite3.connect(part)
        try:
            source.backup(dest)  # one step: one read transaction, a consistent state
            dest.execute("PRAGMA journal_mode=DELETE")  # the copy is one file, nothing beside it
        finally:
            dest.close()
        _fsync(part)
        check_copy(part)
        os.replace(part, target)
        _fsync(target.parent)
    except BaseException as error:
        for leftover in (part, part.with_name(part.name + "-journal")):
            with contextlib.suppress(OSError):
                leftover.unlink()
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        raise _reason(error, target.parent) from None
    return target


def prune(folder: Path, keep: int, at: float) -> list[Path]:
    """Drop the copies no longer kept: the last ``keep`` of the current night stay, and the last
    of each earlier night. Returns those dropped."""
    nights: dict[str, list[Path]] = {}
    for path in copies(folder):
        match = NAME.match(path.name)
        assert match is not None
        nights.setdefault(match.group(1), []).append(path)
    tonight = night_of(at)
    dropped = []
    for night, paths in nights.items():
        kept = keep if night == tonight else 1
        for path in paths[:-kept]:
            with contextlib.suppress(OSError):
                path.unlink()
                dropped.append(path)
    return dropped


# --- the status the pages show ---------------------------------------------------------------


def status_path(database: str | Path) -> Path:
    return Path(database).resolve().parent / STATUS


def read_status(database: str | Path) -> dict[str, Any] | None:
    """What the copier last said (None: no server made copies of this database)."""
    try:
        found = json.loads(status_path(database).read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def _write_status(database: str, status: dict[str, Any]) -> None:
    path = status_path(database)
    part = path.with_name(f".{path.name}.part")
    try:
        part.write_text(json.dumps(status))
        os.replace(part, path)
    except OSError as error:  # the data folder itself: the night's database says the rest
        log.warning("The automatic copies' status could not be written: %s", error)


def status_lines(database: str | Path) -> list[tuple[str, bool]]:
    """What the home page and the dashboard say of the automatic copies, in the reader's
    language: ``(sentence, failed)``; nothing when no server made copies of ``database``."""
    from director.core.i18n import gettext
    from director.core.web import format_datetime

    status = read_status(database)
    if not status or not status.get("folder"):
        return []
    folder = str(status["folder"])
    last = status.get("ok_at")
    lines: list[tuple[str, bool]] = []
    if status.get("failed_at"):
        reason = status.get("reason")
        words = gettext(REASONS[reason]) if reason in REASONS else str(status.get("detail") or "")
        lines.append((gettext("The automatic copy of the database to %(folder)s failed at %(time)s: %(reason)s.",
                              folder=folder, time=format_datetime(float(status["failed_at"])), reason=words), True))
        lines.append((gettext("The night goes on, and the copy is tried again every half minute; the last copy "
                              "made is from %(time)s.", time=format_datetime(float(last))) if last else
                      gettext("The night goes on, and the copy is tried again every half minute; no copy has "
                              "been made yet."), True))
    elif last:
        lines.append((gettext("Last automatic copy of the database: %(time)s, in %(file)s.",
                              time=format_datetime(float(last)), file=str(status.get("ok_path") or folder)), False))
    else:
        lines.append((gettext("Automatic copies of the database go to %(folder)s: the first is made in a moment.",
                              folder=folder), False))
    return lines


# --- the copier ---------------------------------------------------------------------------------


class Copier:
    """The thread that copies ``plan.database`` into ``plan.folder`` (see the module)."""

    def __init__(self, app: Flask, plan: Plan, clock: Any = time.time) -> None:
        self.app = app
        self.plan = plan
        self.clock = clock
        self.stop_event = threading.Event()
        self.thread: threading.Thread | None = None
        self.conn: sqlite3.Connection | None = None
        self.lock: IO[str] | None = None
        self.version: int | None = None
        self.changed = True  # a server starting: one copy of the night as it is
        self.levels: dict[int, tuple[Any, ...]] = {}
        self.last_copy = 0.0
        self.retry_at = 0.0
        old = read_status(plan.database) or {}
        same = old.get("folder") == str(plan.folder)
        self.status: dict[str, Any] = {
            "folder": str(plan.folder), "every": plan.every,
            "ok_at": old.get("ok_at") if same else None, "ok_path": old.get("ok_path") if same else None,
            "failed_at": None, "reason": None, "detail": None,
        }

    @property
    def tick(self) -> float:
        return max(0.05, min(TICK, self.plan.every / 4))

    def start(self) -> Copier:
        try:  # made once, as the server starts (never during the night: ``write_copy``)
            self.plan.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            failed = _reason(error, self.plan.folder)
            self.status.update(failed_at=self.clock(), reason=failed.reason, detail=failed.detail)
        _write_status(self.plan.database, self.status)
        self.thread = threading.Thread(target=self._run, name="auto-backup", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(timeout=30)
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.lock is not None:
            self.lock.close()  # releases the lock
            self.lock = None

    def _run(self) -> None:
        for part in self.plan.folder.glob(".poker-director-*.part"):  # a copy cut short by a kill
            with contextlib.suppress(OSError):
                part.unlink()
        while not self.stop_event.is_set():
            try:
                if self.elected():
                    self.step(self.clock())
            except Exception:  # the night goes on; the next tick tries again
                log.exception("The automatic copy's look at the database failed")
            self.stop_event.wait(self.tick)

    def elected(self) -> bool:
        """Whether this process is the one that copies (the lock's holder)."""
        if self.lock is not None or fcntl is None:
            return True
        handle = open(Path(self.plan.database).resolve().parent / COPYING_LOCK, "a")  # noqa: SIM115
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self.lock = handle
        self.changed = True  # another process copied until now: what it left is not known here
        return True

    def _connection(self) -> sqlite3.Connection:
        if self.conn is None:
            self.conn = sqlite3.connect(self.plan.database, timeout=15, check_same_thread=False)
            self.conn.execute("PRAGMA busy_timeout=15000")
        return self.conn

    def read_levels(self, at: float) -> dict[int, tuple[Any, ...]]:
        """Where the clock of each tournament in play is: its level, or which break."""
        from director.core.db import get_db
        from director.core.store import load_state

        found: dict[int, tuple[Any, ...]] = {}
        with self.app.app_context():
            db = get_db()
            rows = db.execute("SELECT id FROM streams WHERE kind = 'tournament' AND archived_at IS NULL").fetchall()
            for (stream_id,) in rows:
                try:
                    state = load_state(db, stream_id)
                    if not state.started or state.finished:
                        continue
                    clock = state.clock_at(at)
                except Exception:  # a tournament that cannot be read copies nothing of its own
                    continue
                found[int(stream_id)] = (clock.level_number, clock.on_break, clock.next_level_number)
        return found

    def step(self, at: float) -> Path | None:
        """One look: a copy if one is due (returns it), else None."""
        version = int(self._connection().execute("PRAGMA data_version").fetchone()[0])
        if version != self.version:
            self.changed = self.changed or self.version is not None
            self.version = version
        levels = self.read_levels(at)
        level_started = any(levels[s] != self.levels[s] for s in levels.keys() & self.levels.keys())
        self.levels = levels
        due = self.changed and (level_started or at - self.last_copy >= self.plan.every)
        if not due or at < self.retry_at:
            return None
        return self.copy(at)

    def copy(self, at: float) -> Path | None:
        self.changed = False  # a change while copying is seen at the next look (data_version)
        self.version = int(self._connection().execute("PRAGMA data_version").fetchone()[0])
        target = self.plan.folder / copy_name(at)
        try:
            write_copy(self._connection(), target)
        except CopyFailed as failed:
            self.changed = True
            self.retry_at = at + min(RETRY, self.plan.every)
            log.warning("The automatic copy to %s failed: %s", self.plan.folder, failed)
            self.status.update(failed_at=at, reason=failed.reason, detail=failed.detail)
            _write_status(self.plan.database, self.status)
            return None
        self.last_copy = at
        self.retry_at = 0.0
        prune(self.plan.folder, self.plan.keep, at)
        self.status.update(ok_at=at, ok_path=str(target), failed_at=None, reason=None, detail=None)
        _write_status(self.plan.database, self.status)
        return target


# --- serve's plan, for every process that serves ----------------------------------------------

_plan: Plan | None = None
_copiers: list[Copier] = []


def plan(chosen: Plan | None) -> None:
    """The copies ``serve`` asks for (None: none). Set before the workers are forked, so that
    each worker's app starts its copier (:func:`init_app`)."""
    global _plan
    _plan = chosen


def init_app(app: Flask) -> Copier | None:
    """Start the copier of ``app``'s database, when ``serve`` planned one."""
    if _plan is None or Path(_plan.database).resolve() != Path(app.config["DATABASE"]).resolve():
        return None
    copier = Copier(app, _plan).start()
    _copiers.append(copier)
    return copier


def stop_all() -> None:
    while _copiers:
        _copiers.pop().stop()


@contextlib.contextmanager
def _serving_lock(folder: Path, mode: int) -> Any:
    """``SERVING_LOCK`` in ``folder`` taken in ``mode`` without waiting: yields whether it was
    (True where the platform has no ``flock``)."""
    if fcntl is None:
        yield True
        return
    with open(folder / SERVING_LOCK, "a") as handle:
        try:
            fcntl.flock(handle, mode | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        yield True


@contextlib.contextmanager
def serving(folder: Path) -> Any:
    """Held while ``serve`` runs on ``folder`` (a shared lock: ``restore`` waits for none).
    Yields False when a restore holds the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    with _serving_lock(folder, fcntl.LOCK_SH if fcntl else 0) as free:
        yield free


@contextlib.contextmanager
def alone(folder: Path) -> Any:
    """Held while ``restore`` replaces the database in ``folder``; yields False when a server
    runs there (``serving``)."""
    if not folder.exists():
        yield True
        return
    with _serving_lock(folder, fcntl.LOCK_EX if fcntl else 0) as free:
        yield free


__all__ = ["Copier", "CopyFailed", "Plan", "alone", "check_copy", "copies", "copy_name", "default_folder", "english_reason",
           "init_app", "latest", "night_of", "plan", "prune", "read_status", "serving", "status_lines", "stop_all",
           "write_copy"]
