"""How many clock-partial requests per second the served app answers, next to a trivial endpoint.

    python benchmarks/bench_clock_endpoint.py [--clients 50] [--seconds 5] [--threads 16]

Serves the real app with waitress (``threads=16``) on 127.0.0.1, with a demo tournament whose
clock is running, then loads it from 50 client threads (stdlib ``http.client``, one keep-alive
connection each, bounded by time and by a request cap) and prints requests per second for
``/health`` (a trivial JSON endpoint of the same app) and for the TV's clock partial, in the same
run under the same server, and their ratio. The target: the clock partial costs no more than
twice the trivial endpoint. Loopback only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import http.client
import logging
import multiprocessing
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@dataclass
class Result:
    path: str
    requests: int
    errors: int
    seconds: float
    latencies_ms: list[float]

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        lat = sorted(self.latencies_ms) or [0.0]
        p50 = statistics.median(lat)
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
        return (
            f"{self.path:<28} {self.per_second:>8.0f} req/s   {self.requests:>7} requests   "
            f"{self.errors} errors   p50 {p50:.1f} ms   p99 {p99:.1f} ms"
        )


def load(
    port: int,
    path: str,
    clients: int,
    seconds: float,
    max_requests: int,
    headers: dict[str, str] | None = None,
) -> Result:
    """``clients`` threads each GET ``path`` over one keep-alive connection until time or the cap runs out."""
    deadline_box: list[float] = []
    counts = [0] * clients
    errors = [0] * clients
    latencies: list[list[float]] = [[] for _ in range(clients)]
    budget = threading.Semaphore(max_requests)
    ready = threading.Barrier(clients + 1)

    def client(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        ready.wait()
        deadline = deadline_box[0]
        while time.perf_counter() < deadline and budget.acquire(blocking=False):
            started = time.perf_counter()
            try:
                conn.request("GET", path, headers=headers or {})
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    errors[i] += 1
                else:
                    counts[i] += 1
                    latencies[i].append((time.perf_counter() - started) * 1000)
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            except (OSError, http.client.HTTPException):
                errors[i] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    started = time.perf_counter()
    deadline_box.append(started + seconds)
    ready.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return Result(path, sum(counts), sum(errors), elapsed, [x for chunk in latencies for x in chunk])


def make_app(data: Path):  # type: ignore[no-untyped-def]
    """The real app on a fresh data folder, with a tournament of 30 players whose clock is running."""
    from director import create_app
    from director.core.db import get_db
    from director.night import commands as services
    from director.setup.commands import create_tournament

    app = create_app({}, instance_path=data)
    with app.app_context():
        db = get_db()
        at = time.time() - 50 * 60  # started 50 minutes ago: level 3 or so, a break ahead
        tournament_id = create_tournament(
            db, {"name": "Benchmark night", "preset": "home-long", "buy_in": 20}, at
        )
        for i in range(30):
            services.register_player(db, tournament_id, f"Player {i + 1}", None, at)
        services.clock_action(db, tournament_id, "start", None, at)
        services.clock_action(db, tournament_id, "pause", None, at + 600)
        services.clock_action(db, tournament_id, "resume", None, at + 660)
        services.clock_action(db, tournament_id, "add_time", None, at + 700, seconds=60)
    return app, tournament_id


def in_process(data: Path, no_cache: bool, count: int = 2000) -> dict[str, float]:
    """Milliseconds per request of each endpoint through the Flask test client: the server's own cost."""
    from director.screens import tv

    tv.rendered.max_age = 0.0 if no_cache else 1.0
    app, tournament_id = make_app(data)
    client = app.test_client()
    result = {}
    for path, headers in (("/health", {}), (f"/t/{tournament_id}/tv/clock", {"HX-Request": "true"})):
        for _ in range(100):
            client.get(path, headers=headers)
        started = time.perf_counter()
        for _ in range(count):
            client.get(path, headers=headers)
        result[path] = (time.perf_counter() - started) * 1000 / count
    return result


def serve(data: str, threads: int, ports: Any, no_cache: bool) -> None:
    """The server process: the app under waitress on a free loopback port (sent back on ``ports``)."""
    from waitress.server import create_server

    from director.screens import tv

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "Task queue depth is N" under load
    if no_cache:
        tv.rendered.max_age = 0.0
    app, tournament_id = make_app(Path(data))
    server = create_server(app, host="127.0.0.1", port=0, threads=threads, connection_limit=200)
    ports.put((server.effective_port, tournament_id))  # type: ignore[union-attr]
    server.run()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Clock partial vs a trivial endpoint, same server, same run.")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=5.0, help="per endpoint, per round")
    parser.add_argument("--max-requests", type=int, default=200_000, help="cap per endpoint, per round")
    parser.add_argument("--threads", type=int, default=16, help="waitress worker threads")
    parser.add_argument("--rounds", type=int, default=2, help="alternate the endpoints this many times")
    parser.add_argument("--no-cache", action="store_true", help="render the clock partial afresh every time")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        per_request = in_process(Path(tmp), args.no_cache)

    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        ports = context.Queue()
        # The server runs in its own process, so the clients' threads do not share its GIL.
        process = context.Process(target=serve, args=(tmp, args.threads, ports, args.no_cache), daemon=True)
        process.start()
        try:
            port, tournament_id = ports.get(timeout=60)
            clock_path = f"/t/{tournament_id}/tv/clock"
            htmx = {"HX-Request": "true"}
            # Warm up both (imports, template compilation, the fold cache).
            load(port, "/health", 4, 0.5, 500)
            load(port, clock_path, 4, 0.5, 500, htmx)
            trivial: list[Result] = []
            clock: list[Result] = []
            for _ in range(args.rounds):
                trivial.append(load(port, "/health", args.clients, args.seconds, args.max_requests))
                clock.append(load(port, clock_path, args.clients, args.seconds, args.max_requests, htmx))
        finally:
            process.terminate()
            process.join(10)

    print(
        f"waitress threads={args.threads} (server in its own process), {args.clients} concurrent "
        f"clients, {args.rounds} rounds of {args.seconds:g} s per endpoint"
    )
    for result in [*trivial, *clock]:
        print(result.line())
    print(
        "server time per request, one thread, no network (Flask test client): "
        + ", ".join(f"{path} {ms:.3f} ms" for path, ms in per_request.items())
    )
    best_trivial = max(r.per_second for r in trivial)
    best_clock = max(r.per_second for r in clock)
    ratio = best_trivial / best_clock if best_clock else float("inf")
    print(f"trivial /health: {best_trivial:.0f} req/s (best round)")
    print(f"clock partial:   {best_clock:.0f} req/s (best round)")
    print(f"ratio: the clock partial costs {ratio:.2f}x the trivial endpoint (target: at most 2x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
