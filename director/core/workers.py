"""``poker-director serve --workers N``: the app in N processes on one database.

One Python process answers on one core. A club night's phones, TVs and dealers fit in one,
and waitress (the default) answers each tap quickest. A festival's do not: with
``--workers 2`` or more the app runs under gunicorn, where the platform has it. A master
process listens and N worker processes answer, each with a pool of threads; a worker's loop
waits on the open connections with the system's selector, where waitress's one loop walks
every one of them in Python and takes a whole core once hundreds of phones are connected.
Each worker makes its own app, with its own connections and caches:

* every state and answer a worker keeps is keyed by its stream's seq, which the worker reads
  from the database at each request, so that a write in one worker is seen by the others at
  their next request;
* a restore, a migration or the host's change of language moves the database's generation,
  and every worker empties its caches at its next request (``director.core.caches``);
* writes are serialised by SQLite (``BEGIN IMMEDIATE``, with the busy timeout), and a write
  sent with a stale ``expected_seq`` is refused whichever worker takes it.

Where gunicorn is missing (Windows), ``serve --workers N`` says so and runs one process.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any


def available() -> bool:
    """Whether this platform can run several workers (gunicorn, on a POSIX system)."""
    try:
        import fcntl  # noqa: F401

        import gunicorn  # noqa: F401
    except ImportError:
        return False
    return True


def free_port(host: str) -> int:
    """A port nobody listens on (``--port 0``): the workers share the one the master binds."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def options(host: str, port: int, workers: int, threads: int, connections: int) -> dict[str, Any]:
    """gunicorn's settings for the app: threads per worker, the phones' connections kept open
    between their polls (a phone polls every few seconds), no access log."""
    return {
        "bind": [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"],
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "worker_connections": connections,
        "keepalive": 75,
        "timeout": 120,  # a restore of a season's backup takes a while
        "graceful_timeout": 10,
        "backlog": 2048,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "preload_app": False,  # each worker makes its own app: no connection crosses a fork
    }


def run(folder: Path, settings: dict[str, Any], ready: Callable[[], None] = lambda: None) -> None:
    """Serve the app in ``folder`` with gunicorn until stopped (Ctrl+C); ``ready`` runs once
    the server listens."""
    from gunicorn.app.base import BaseApplication

    class Workers(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in settings.items():
                self.cfg.set(key, value)
            self.cfg.set("when_ready", lambda _server: ready())

        def load(self) -> Any:
            from director import create_app

            return create_app(instance_path=folder)

    Workers().run()


__all__ = ["available", "free_port", "options", "run"]
