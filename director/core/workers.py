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

Each worker listens on the port itself (``SO_REUSEPORT``, where the system has it), and the
kernel spreads the new connections evenly over the workers. When they all wait on one
socket instead, whichever wakes first takes the connection: a phone keeps its connection
for the night, and ten club nights' worth of phones ended up three to one on two workers,
one of them at a full core and the other half idle (``benchmarks/bench_club_load.py``). A
second server started on the same port by mistake would then share it quietly: ``serve``
first checks that nobody listens there (:func:`port_taken`).

Each worker runs :data:`THREADS` threads unless told otherwise. A worker's threads take
turns at one Python interpreter: a request takes milliseconds, so a few threads keep a core
busy, and more only make each wait longer for its turn, a dealer's write (which holds the
database's write lock meanwhile) as much as a phone's poll.

Where gunicorn is missing (Windows), ``serve --workers N`` says so and runs one process.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

THREADS = 4
"""Threads in each of several workers. Ten club nights' worth of devices on two workers
(``benchmarks/bench_club_load.py --scale 10 --workers 2 --threads N``): with 16 threads a
worker the dealers' writes took 190-250 ms at their p99, with 8 140-180 ms, with 4
70-100 ms; every request asked was answered each time."""


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


def port_taken(host: str, port: int) -> bool:
    """Whether something listens on ``port`` already (another ``serve``, say): a socket bound
    without ``SO_REUSEPORT`` is refused there, even where the other asked for it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # the last run's closed connections are no one
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def spreads_connections() -> bool:
    """Whether each worker can listen on the port itself (Linux, the BSDs, macOS)."""
    return hasattr(socket, "SO_REUSEPORT")


def options(host: str, port: int, workers: int, threads: int, connections: int) -> dict[str, Any]:
    """gunicorn's settings for the app: threads per worker, the phones' connections kept open
    between their polls (a phone polls every few seconds), each worker listening on the port
    (the kernel spreads the connections), no access log."""
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
        "reuse_port": spreads_connections(),
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "preload_app": False,  # each worker makes its own app: no connection crosses a fork
    }


def run(folder: Path, settings: dict[str, Any], ready: Callable[[], None] = lambda: None) -> None:
    """Serve the app in ``folder`` with gunicorn until stopped (Ctrl+C); ``ready`` runs once
    the server listens: in the master where it listens for the workers, else in the first
    worker once its own socket listens (a worker started again later says nothing)."""
    from gunicorn.app.base import BaseApplication

    def first_worker(worker: Any) -> None:
        if worker.age == 1:
            ready()

    class Workers(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in settings.items():
                self.cfg.set(key, value)
            if settings.get("reuse_port"):
                self.cfg.set("post_worker_init", first_worker)
            else:
                self.cfg.set("when_ready", lambda _server: ready())

        def load(self) -> Any:
            from director import create_app

            return create_app(instance_path=folder)

    Workers().run()


__all__ = ["THREADS", "available", "free_port", "options", "port_taken", "run", "spreads_connections"]
