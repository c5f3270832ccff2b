"""The ``poker-director`` command.

``poker-director serve [--host 0.0.0.0] [--port 8000] [--data DIR] [--threads N] [--connections 900] [--workers 1]
[--backup-to DIR] [--backup-every MINUTES]`` runs the app on the home network (waitress in one
process; with ``--workers 2`` or more, that many processes of ``--threads`` threads under
gunicorn: ``director.core.workers``), copies the database as the night goes
(``director.club.autobackup``) and prints the address (and its QR code) to open on the TV and
on phones. ``poker-director demo [--data DIR]`` adds a demo tournament in the middle of the
game. ``poker-director migrate [--data DIR]`` creates or updates the database.
``poker-director backup [--data DIR] [--to FILE]`` writes a checked copy of the database, and
``poker-director restore FILE [--data DIR]`` replaces it with a backup (the checks of the
backup page; refused while a server runs on the folder). The data folder
(database and secrets) defaults to ``./instance`` under the current directory, or
``$POKER_DIRECTOR_DATA``. A data folder this version cannot open (two databases, one of a
newer version: ``director.core.db.settle``) is refused with a sentence and exit status 1,
before anything starts.
"""

from __future__ import annotations

import argparse
import io
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from director import create_app, default_instance_path
from director.club import autobackup
from director.core import workers
from director.core.db import ASIDE, DATABASE_NAME, DatabaseRefused, settle


def data_dir(value: str | None) -> Path:
    return Path(value).resolve() if value else default_instance_path()


def lan_url(host: str, port: int) -> str:
    """The address phones on the home network should open."""
    from director.core.address import base_url, best_address

    if host in ("0.0.0.0", "", "::"):
        try:
            address = best_address()
        except (OSError, IndexError):
            address = "127.0.0.1"
    else:
        address = host
    return base_url(address, port)


def qr_text(url: str) -> str:
    """The address as a QR code drawn with characters, for the terminal."""
    import qrcode

    code = qrcode.QRCode(border=2)
    code.add_data(url)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def bounded(low: int, high: int) -> Any:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"use {low} to {high}, not {value}")
        return value

    return parse


def minutes(text: str) -> float:
    """An argparse type: minutes, more than 0 and at most a day (``0.5`` is 30 seconds)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not 0 < value <= 24 * 60:
        raise argparse.ArgumentTypeError(f"use more than 0 and at most 1440 minutes, not {text}")
    return value


ONE_PROCESS_THREADS = 16
"""waitress's threads in one process (several workers: ``director.core.workers.THREADS`` each)."""


def serve_threads(asked: int | None, pooled: bool) -> int:
    """The threads in each server process: as asked, else the default of one process or of
    each of several workers."""
    return asked or (workers.THREADS if pooled else ONE_PROCESS_THREADS)


def serve(args: argparse.Namespace) -> int:

    folder = data_dir(args.data)
    if args.port and workers.port_taken(args.host, args.port):
        print(f"Port {args.port} is in use already: is poker-director running in another window? "
              f"Stop it there, or choose another port with --port.", file=sys.stderr)
        return 1
    settle(folder / DATABASE_NAME)  # a folder it cannot open is refused before anything is made in it
    with autobackup.serving(folder) as free:  # ``restore`` refuses while this is held
        if not free:
            print(f"A restore is replacing the database in {folder}: start again once it has finished.",
                  file=sys.stderr)
            return 1
        try:
            return _serve(args, folder)
        finally:
            autobackup.plan(None)
            autobackup.stop_all()


def backup_every(args: argparse.Namespace) -> float:
    """Seconds between two automatic copies while something changes."""
    seconds: float = args.backup_every_seconds or args.backup_every * 60
    return seconds


def _serve(args: argparse.Namespace, folder: Path) -> int:
    app = create_app(instance_path=folder)  # migrates the database once, before any worker starts
    with app.app_context():  # the address the director chose on the dashboard, if any
        from director.tables.links import stored_address

        chosen = stored_address()
    from director.core.db import release

    release()  # no connection is left open across the workers' fork
    database = app.config["DATABASE"]
    copies = autobackup.Plan(database, Path(args.backup_to).resolve() if args.backup_to
                             else autobackup.default_folder(database), backup_every(args))
    autobackup.plan(copies)  # before the fork: each worker's app starts its copier, one of them copies
    # One process (the default): waitress, the quickest answer to each tap and page (a few
    # milliseconds less than gunicorn's). Several: gunicorn, where the platform has it; it also
    # keeps answering far past the load where waitress's one loop over every open connection
    # takes a whole core (benchmarks/bench_club_load.py --scale 10).
    pooled = args.workers > 1 and workers.available()
    threads = serve_threads(args.threads, pooled)
    if not pooled and args.workers > 1:
        print(f"Several workers need gunicorn, which this system does not have: serving with one process "
              f"instead of {args.workers}.")
    if pooled:
        port = args.port or workers.free_port(args.host)
    else:
        from waitress import create_server

        # Every phone keeps its connection open between polls: a club night is hundreds of them
        # (waitress's default of 100 left the others waiting for a free slot until they timed out).
        server = create_server(app, host=args.host, port=args.port, threads=threads,
                               connection_limit=args.connections, backlog=2048)
        port = int(getattr(server, "effective_port", args.port))
        autobackup.init_app(app)
    url = lan_url(chosen or args.host, port)

    def ready() -> None:
        """The address, once the server listens (a phone may open it at once)."""
        print(f"poker-director is running. Data folder: {folder}")
        if pooled:
            print(f"{args.workers} worker processes of {threads} threads each.")
        print(f"Open {url} on the laptop, the TV and the phones at the tables (same Wi-Fi).")
        minutes = f"{copies.every / 60:g} minutes" if copies.every >= 60 else f"{copies.every:g} seconds"
        print(f"Copies of the database go to {copies.folder}: at each new level, and every {minutes} "
              f"while anything changes.")
        if args.host not in ("127.0.0.1", "localhost"):
            print(qr_text(url))
        print("Press Ctrl+C to stop; everything is saved as it happens.", flush=True)

    try:
        if pooled:
            workers.run(folder, workers.options(args.host, port, args.workers, threads, args.connections), ready)
        else:
            ready()
            server.run()
    except KeyboardInterrupt:
        print("Stopped.")
    return 0


def demo(args: argparse.Namespace) -> int:
    from director.core.db import get_db
    from director.home.demo import fill_demo

    app = create_app(instance_path=data_dir(args.data))
    with app.app_context():
        tournament_id = fill_demo(get_db(), time.time())
    print(f"Demo tournament {tournament_id} added. Start the app with: poker-director serve")
    return 0


def migrate(args: argparse.Namespace) -> int:
    folder = data_dir(args.data)
    create_app(instance_path=folder)  # migrates on startup
    print(f"Database ready in {folder}")
    return 0


def backup(args: argparse.Namespace) -> int:
    """A checked copy of the data folder's database, taken as the backup page's (SQLite's
    backup API: consistent even while a server writes to it)."""
    folder = data_dir(args.data)
    database = folder / DATABASE_NAME
    if not database.exists():
        print(f"There is no poker-director database in {folder}: name the data folder with --data.",
              file=sys.stderr)
        return 1
    target = Path(args.to).resolve() if args.to else Path.cwd() / time.strftime("poker-director-%Y%m%d-%H%M%S.db")
    if target.is_dir():
        target = target / time.strftime("poker-director-%Y%m%d-%H%M%S.db")
    source = sqlite3.connect(database, timeout=15)
    try:
        autobackup.write_copy(source, target)
    except autobackup.CopyFailed as failed:
        print(f"No backup was made: {autobackup.english_reason(failed)} ({failed.detail})", file=sys.stderr)
        return 1
    finally:
        source.close()
    print(f"Backup written to {target}")
    return 0


def restore(args: argparse.Namespace) -> int:
    """Replace the data folder's database with a backup, after the checks of the backup page's
    restore; refused while a server runs on the folder."""
    from director.club import backup as backups
    from engine.errors import EngineError

    folder = data_dir(args.data)
    upload = Path(args.file).resolve()
    if not upload.is_file():
        print(f"There is no file {upload}: nothing was restored.", file=sys.stderr)
        return 1
    try:
        backups.check(str(upload))  # before the data folder is opened: a refusal touches nothing
    except EngineError as refused:
        print(f"{refused} The database in {folder} is as it was.", file=sys.stderr)
        return 1
    with autobackup.alone(folder) as free:
        if not free:
            print(f"poker-director is running on {folder}: stop it first (Ctrl+C in its window), or restore "
                  f"from its Backup page. Nothing was restored.", file=sys.stderr)
            return 1
        app = create_app(instance_path=folder)
        with app.app_context():
            aside = backups.restore(str(upload))
    print(f"Restored {upload.name} into {folder}. The database as it was is kept as {ASIDE}/{aside.name}.")
    print(f"Go on with the night: poker-director serve --data {folder}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="poker-director", description="Run a home poker tournament from a laptop.")
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="start the app on the home network")
    s.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every network, 0.0.0.0)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    s.add_argument("--data", help="the data folder (default ./instance)")
    s.add_argument("--threads", type=bounded(1, 64), default=None,
                   help=f"server threads in each process (default {ONE_PROCESS_THREADS} in one process, "
                        f"{workers.THREADS} in each of several workers)")
    s.add_argument("--connections", type=bounded(10, 1000), default=900,
                   help="open connections at once: phones, TVs, tablets (default 900)")
    s.add_argument("--workers", type=bounded(1, 32), default=1,
                   help="processes answering at once, one per core at most (default 1; 2 or more need gunicorn)")
    s.add_argument("--backup-to", metavar="DIR",
                   help="where the automatic copies of the database go: a USB stick, a shared folder "
                        "(default: backups/auto in the data folder)")
    s.add_argument("--backup-every", metavar="MINUTES", type=minutes, default=autobackup.EVERY / 60,
                   help="minutes between two copies while anything changes (default 2; a copy is also made "
                        "at each new level)")
    s.add_argument("--backup-every-seconds", type=float, default=None, help=argparse.SUPPRESS)  # the tests'
    s.set_defaults(func=serve)
    d = sub.add_parser("demo", help="add a demo tournament in the middle of the game")
    d.add_argument("--data", help="the data folder (default ./instance)")
    d.set_defaults(func=demo)
    m = sub.add_parser("migrate", help="create or update the database")
    m.add_argument("--data", help="the data folder (default ./instance)")
    m.set_defaults(func=migrate)
    b = sub.add_parser("backup", help="copy the database into one file (also while the server runs)")
    b.add_argument("--data", help="the data folder (default ./instance)")
    b.add_argument("--to", metavar="FILE", help="the file to write (default poker-director-<date>-<time>.db here)")
    b.set_defaults(func=backup)
    r = sub.add_parser("restore", help="replace the database with a backup (the server stopped)")
    r.add_argument("file", metavar="FILE", help="the backup: a download of the Backup page, a copy of backups/auto")
    r.add_argument("--data", help="the data folder (default ./instance)")
    r.set_defaults(func=restore)
    args = parser.parse_args(argv)
    try:
        result: int = args.func(args)
    except DatabaseRefused as refusal:  # said before anything started
        print(refusal, file=sys.stderr)
        return 1
    return result


if __name__ == "__main__":
    sys.exit(main())
