"""A club night's load on the server, at a night of a given length.

    python benchmarks/bench_club_load.py [--events 20000] [--seconds 60] [--scale 1] [--nights 1] [--workers 1]
                                         [--keep DIR]

It builds a 30-table night (``bench_night.Night``: 300 players, the dealer's JSON API) to
``--events`` events in a data folder of its own, then starts ``poker-director serve`` on
that folder (``--threads`` threads, serve's default by default, in each of ``--workers``
processes, 1 by default; 127.0.0.1 and a free port) in a process of its own and puts on it, for ``--seconds``:

* 30 dealer phones, each entering its table's next action every 3 s (its view's seq as
  ``expected_seq``, as a phone sends it) and reading the table after a refusal;
* their panels, open on the same phones, polling every 1.5 s with the version they hold
  (ten panels to a connection);
* 300 player phones polling ``/p/<token>/live`` every 2 s (as the page does);
* 3 TVs polling ``/t/<id>/tv/clock`` every 1.5 s;
* a probe of a trivial endpoint (``/api/session``) every 0.5 s, to see the queue.

``--keep DIR`` builds the night once into ``DIR`` and later runs with the same ``DIR`` (and
``--events``) start from a copy of it: a minute saved per run while comparing changes.

``--scale 10`` puts ten times the players, the panels and the TVs on the same 30 tables and
makes each table's dealer enter ten times as often: each table's ten panels see every entry of
a dealer ten times as quick. ``--nights 10`` is ten club nights at once instead, each its own
tournament of 30 tables with a dealer, a panel and ten players' phones at each table, at a
club night's pace: the same number of requests asked. It prints, per kind of request: the count, the errors (5xx, connection failures,
timeouts; a 409 or 422 to a dealer is counted apart as refused), p50 and p99, and the
requests per second the server answered out of those the devices asked for. The client runs in this process with a thread per
simulated device group; every request goes to 127.0.0.1 only and the run stops by itself.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_night import Night, choose, clear_caches, percentile

from director import create_app
from director.cli import serve_threads
from director.core.workers import available


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.refused: dict[str, int] = defaultdict(int)
        self.samples: dict[str, str] = {}

    def add(self, kind: str, seconds: float, status: int, detail: str = "") -> None:
        with self.lock:
            self.times[kind].append(seconds)
            if status >= 500 or status == 0:
                self.errors[kind] += 1
                self.samples.setdefault(kind, detail or str(status))
            elif status in (409, 422):
                self.refused[kind] += 1
                self.samples.setdefault(kind + " refused", detail)


class Client:
    """One keep-alive connection to the server, with the director's cookie when given."""

    def __init__(self, port: int, cookie: str = "", csrf: str = "") -> None:
        self.port = port
        self.cookie = cookie
        self.csrf = csrf
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, bytes, float]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers.update({"Content-Type": "application/json", "X-CSRFToken": self.csrf})
        start = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            payload = response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as error:
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            return 0, str(error).encode(), time.perf_counter() - start
        return status, payload, time.perf_counter() - start


def pollers(stats: Stats, port: int, kind: str, paths: list[str], every: float, until: float) -> None:
    """Devices that each GET their path every ``every`` seconds (spread over the period)."""
    client = Client(port)
    gap = every / max(1, len(paths))
    next_at = time.perf_counter()
    i = 0
    while time.perf_counter() < until:
        status, body, seconds = client.request("GET", paths[i % len(paths)])
        stats.add(kind, seconds, status, body[:120].decode(errors="replace"))
        i += 1
        next_at += gap
        time.sleep(max(0.0, min(next_at, until) - time.perf_counter()))  # never past the load's end


PLAYER_POLL = 2.0
"""Seconds between a player's phone's polls (``templates/_player_live.html``)."""
PANEL_POLL = 1.5
"""Seconds between a dealer's panel's polls (``templates/_dealer_table.html``)."""
POLL = re.compile(r'hx-get="([^"]*/panel\?v=[^"]*)"')


def panel_pollers(stats: Stats, port: int, cookie: str, paths: list[str], every: float, until: float) -> None:
    """The dealers' phones' open panels: each polls its panel every ``every`` seconds with
    the version of the panel it holds (``director.core.freshness``), as the page does."""
    client = Client(port, "session=" + cookie)
    held = list(paths)
    gap = every / max(1, len(paths))
    next_at = time.perf_counter()
    i = 0
    while time.perf_counter() < until:
        k = i % len(held)
        status, body, seconds = client.request("GET", held[k])
        stats.add("dealer panel", seconds, status if status != 204 else 200, body[:120].decode(errors="replace"))
        found = POLL.search(body.decode(errors="replace")) if status == 200 else None
        if found:
            held[k] = found.group(1).replace("&amp;", "&")
        i += 1
        next_at += gap
        time.sleep(max(0.0, min(next_at, until) - time.perf_counter()))


@dataclass
class BuiltNight:
    """A night played to a number of events, and what the devices need to join it."""

    tid: int
    csrf: str
    cookie: str  # the director's session cookie's value
    active: list[int]  # the tables still dealing
    tokens: list[str]  # the players' own pages


def dealer(stats: Stats, night: BuiltNight, port: int, table: int, every: float, until: float, seed: int) -> None:
    client = Client(port, "session=" + night.cookie, night.csrf)
    rng = random.Random(seed)
    status, body, _ = client.request("GET", f"/api/t/{night.tid}/table/{table}")
    view = json.loads(body) if status == 200 else None
    time.sleep(rng.random() * every)
    while time.perf_counter() < until and view is not None:
        started = time.perf_counter()
        if view["phase"] == "before" and not view["can_deal"]:
            return
        action, fields = choose(rng, view)
        status, body, seconds = client.request(
            "POST", f"/api/t/{night.tid}/table/{table}/{action}", {**fields, "expected_seq": view["seq"]}
        )
        stats.add("dealer write", seconds, status, body[:160].decode(errors="replace"))
        if status == 201:
            view = json.loads(body)
        else:
            status, body, seconds = client.request("GET", f"/api/t/{night.tid}/table/{table}")
            stats.add("dealer read", seconds, status)
            view = json.loads(body) if status == 200 else None
        time.sleep(max(0.0, min(started + every, until) - time.perf_counter()))  # never past the load's end


def devices(stats: Stats, night: BuiltNight, port: int, scale: int, until: float, seed: int,
            apart: int | None = None) -> tuple[list[threading.Thread], float]:
    """The club night's devices times ``scale`` (the module docstring), as threads not yet
    started, and the requests a second they ask; table ``apart``'s dealer and panel left out
    (a browser plays it)."""
    tables = [t for t in night.active if t != apart]
    threads = [threading.Thread(target=dealer, args=(stats, night, port, t, 3.0 / scale, until, seed + t), daemon=True)
               for t in tables]
    players = [f"/p/{t}/live" for t in night.tokens] * scale
    groups = max(1, 10 * scale)  # player phones, in groups of a connection each
    threads += [threading.Thread(target=pollers, args=(stats, port, "player", players[g::groups], PLAYER_POLL, until),
                                 daemon=True) for g in range(groups)]
    # Panels in groups of ten on a connection each: a group of thirty, one request after the
    # other, could not ask its rate once an answer took more than its 50 ms share.
    panels = [f"/t/{night.tid}/table/{t}/panel" for t in tables] * scale
    panel_groups = max(1, len(panels) // 10)
    threads += [threading.Thread(target=panel_pollers, args=(
        stats, port, night.cookie, panels[g::panel_groups], PANEL_POLL, until), daemon=True) for g in range(panel_groups)]
    tvs = [f"/t/{night.tid}/tv/clock"] * (3 * scale)
    threads.append(threading.Thread(target=pollers, args=(stats, port, "tv", tvs, 1.5, until), daemon=True))
    asked = len(tables) * scale / 3.0 + len(players) / PLAYER_POLL + len(panels) / PANEL_POLL + len(tvs) / 1.5
    return threads, asked


def built_night(instance: Path, events: int, seed: int, keep: Path | None = None) -> BuiltNight:
    """A 30-table night of 300 players played to ``events`` events in ``instance``. With
    ``keep``, the night is built there once (for these ``events``) and copied from there after."""
    return built_nights(instance, events, seed, keep, 1)[0]


def built_nights(instance: Path, events: int, seed: int, keep: Path | None = None, count: int = 1) -> list[BuiltNight]:
    """``count`` such nights at once in ``instance`` (a club's ten rooms), each played to
    ``events`` events, kept as one."""
    saved = keep / (f"night-{events}" if count == 1 else f"nights-{count}x{events}") if keep else None
    if saved is not None and (saved / "night.json").exists():
        shutil.copytree(saved / "instance", instance)
        kept = json.loads((saved / "night.json").read_text())
        built = [BuiltNight(**n) for n in (kept if isinstance(kept, list) else [kept])]
        for one in built:
            past_the_break(instance, one)
        return built
    clear_caches()
    app = create_app({"TESTING": True}, instance_path=instance)
    night = Night(app, random.Random(seed))
    built = []
    for k in range(count):
        night.setup(300, 10, "home-short", 1_000_000)
        print(f"# building night {k + 1} of {count} to {events:,} events…", file=sys.stderr, flush=True)
        why = night.play_until(events, None)
        if why:
            print(f"# stopped early: {why}", file=sys.stderr)
        log = night.ok("GET", f"/api/t/{night.tid}/events")["events"]
        tokens = [e["payload"]["token"] for e in log if e["type"] == "player_registered" and "token" in e["payload"]]
        cookie = night.client.get_cookie("session")
        assert cookie is not None
        built.append(BuiltNight(night.tid, night.csrf, cookie.value, list(night.active), tokens))
    if saved is not None:
        shutil.copytree(instance, saved / "instance")
        (saved / "night.json").write_text(json.dumps(asdict(built[0]) if count == 1 else [asdict(b) for b in built]))
    return built


def past_the_break(instance: Path, night: BuiltNight) -> None:
    """The kept night's clock ran on while it was kept: on a break, no table can deal, so the
    director skips it (as ``bench_night`` does)."""
    clear_caches()
    client = create_app({"TESTING": True}, instance_path=instance).test_client()
    client.set_cookie("session", night.cookie)
    for _ in range(5):
        clock = client.get(f"/api/t/{night.tid}").get_json()["clock"]
        if not clock["on_break"]:
            break
        client.post(f"/api/t/{night.tid}/clock/next_level", json={}, headers={"X-CSRFToken": night.csrf})
    clear_caches()


def serve(instance: Path, threads: int | None = None, workers: int = 1) -> tuple[subprocess.Popen[bytes], int]:
    """``poker-director serve`` on ``instance`` in a process of its own, once it answers
    (``threads`` None: serve's own default)."""
    port = free_port()
    several = ["--workers", str(workers)] if workers != 1 else []  # (an older checkout has no such option)
    several += ["--threads", str(threads)] if threads else []
    server = subprocess.Popen(
        [sys.executable, "-m", "director.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data", str(instance), *several],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    probe = Client(port)
    for _ in range(200):
        if probe.request("GET", "/api/session")[0] == 200:
            break
        time.sleep(0.1)
    return server, port


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=20_000, help="the night's length before the load")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--scale", type=int, default=1, help="10: ten times the devices and the pace")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, help="the server's threads in each process (poker-director serve "
                        "--threads; by default, serve's own)")
    parser.add_argument("--workers", type=int, default=1, help="the server's processes (poker-director serve --workers)")
    parser.add_argument("--keep", type=Path, help="build the night once into this folder and reuse it")
    parser.add_argument("--nights", type=int, default=1, help="that many club nights at once, each its own "
                        "tournament of 30 tables (each of their devices times --scale)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-club-") as folder:
        instance = Path(folder) / "instance"
        nights = built_nights(instance, args.events, args.seed, args.keep, args.nights)
        night = nights[0]
        server, port = serve(instance, args.threads, args.workers)
        try:
            probe = Client(port)
            start = time.perf_counter()
            probe.request("GET", f"/t/{night.tid}/tv/clock")
            first = time.perf_counter() - start
            for one in nights * 4:  # every night folded in every worker before the load (fresh connections)
                Client(port).request("GET", f"/t/{one.tid}/tv/clock")
            stats = Stats()
            until = time.perf_counter() + args.seconds
            scale = args.scale
            threads, asked = [], 0.0
            for k, one in enumerate(nights):
                more, asking = devices(stats, one, port, scale, until, args.seed + 1000 * k)
                threads += more
                asked += asking
            threads.append(threading.Thread(target=pollers, args=(stats, port, "trivial", ["/api/session"], 0.5, until)))
            began = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=args.seconds + 60)
            spent = time.perf_counter() - began
        finally:
            server.terminate()
            server.wait(timeout=30)
        total = sum(len(v) for v in stats.times.values())
        per_process = serve_threads(args.threads, args.workers > 1 and available())
        asked += 1 / 0.5  # the probe
        print(f"# {args.nights} night(s) of {args.events:,} events, scale {scale}, {args.workers} worker(s) of {per_process} threads: "
              f"{total:,} requests in {spent:.0f} s "
              f"({total / spent:.0f}/s of {asked:.0f}/s asked: {total / spent / asked:.0%}); "
              f"first page after the server started: {first * 1000:.0f} ms")
        print(f"{'kind':<14} {'count':>7} {'errors':>7} {'refused':>8} {'p50 ms':>8} {'p99 ms':>8}")
        for kind in ("dealer write", "dealer read", "dealer panel", "player", "tv", "trivial"):
            times = stats.times.get(kind, [])
            if not times:
                continue
            print(f"{kind:<14} {len(times):>7} {stats.errors[kind]:>7} {stats.refused[kind]:>8} "
                  f"{percentile(times, 0.5) * 1000:>8.1f} {percentile(times, 0.99) * 1000:>8.1f}")
        for kind, sample in stats.samples.items():
            print(f"# {kind}: {sample}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
