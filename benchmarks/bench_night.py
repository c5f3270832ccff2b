"""How the cost of a tournament night grows with its number of events.

    python benchmarks/bench_night.py [--sizes 1000,10000,50000,100000] [--quick] [--json]

Run it from the checkout to measure (``engine`` and ``director`` are imported from
``$PYTHONPATH`` when it is set, else from the current directory), e.g. for another
worktree: ``cd /path/to/worktree && PYTHONPATH=. python /elsewhere/bench_night.py``.

It builds a night through the app's own write path: ``director.create_app`` on a temporary
data folder, Flask's test client logged in as the director, the JSON API to create the
tournament (the default timed preset, real wall-clock time, generous stacks), register
the players (300 by default), draw the seats (30 tables of 10) and start the clock. Then
every table plays hands through the dealer's JSON twin ``POST /api/t/<id>/table/<n>/<action>``
(deal, act, award), one entry per table in turn so the tables interleave as on a real
night. Each entry is a random legal action (a seeded ``random.Random``) chosen from the
legal actions that the previous answer for that table listed, and carries the table page's
``expected_seq`` as a phone does. At a showdown a random live seat wins each pot. Players
bust now and then (a rare all-in); the tables are not rebalanced, and a table that cannot
deal any more drops out of the rotation (the output says how many tables and players are
left). The clock runs on real time, so a run of more than four 15-minute levels reaches the
break, which the director skips (``clock/next_level``). Each checkpoint size is a number of
events in the tournament's log. The seat draw is the app's own (not seeded), so two runs
with the same ``--seed`` are alike but not identical.

At each checkpoint it prints, without asserting anything:

* fold per event: applying the last 200 events one by one with ``engine.tournament.apply``
  from the state before them (what the app's state cache does when a request finds it a few
  events behind), and a full ``engine.tournament.fold`` of the whole log divided by its length;
* the dealer's action: p50 and p99 of 100 entries posted through the table page's form
  route as htmx does (``POST /t/<id>/table/<n>/<action>``, answered with the fresh panel),
  round-robin over the tables, timed around the test client's POST;
* page renders (median of 5, state cache warm): the TV clock partial (its render cache
  emptied first, so it is a fresh rendering), a player's page (``/p/<token>``) and a
  dealer's page ``/t/<id>/table/<n>``;
* the director's pages, the dashboard ``/t/<id>`` and the tables page: p50 and p99 of 100
  renders each, and how much of the slowest renders the garbage collector took
  (``gc.callbacks``);
* restart: the state cache (and the TV's rendered clocks) emptied, then the first dashboard
  request timed (it folds the whole log from the database);
* the process's memory (VmRSS and its peak VmHWM from ``/proc/self/status``).

``--json`` prints the rows as JSON instead of the table; progress goes to stderr. Times are
wall-clock (``time.perf_counter``). ``--limit-minutes`` stops when reaching the next size
takes longer than that and reports what was measured.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, os.getcwd())

import director
import engine
from director import create_app
from director.core import store
from director.core.db import get_db
from engine.tournament import apply, fold

PASSWORD = "bench-night-password"
INCREMENTAL = 200  # events applied one by one for the incremental fold figure
DEALER_ACTIONS = 100  # form posts timed at each checkpoint
RENDER_REPEAT = 5
DIRECTOR_PAGES = 100  # renders of each director's page, for its p99
PROGRESS_EVERY = 2000

# How the random players play (deep stacks: busts come from the rare all-in).
P_ALLIN = 0.0005  # go all-in when it is offered
P_CALL_BIG = 0.3  # call a bet of a quarter of the stack or more
P_FOLD_PREFLOP = 0.7  # fold to a smaller bet before the flop (most hands are folded there)
P_FOLD_LATER = 0.4  # and after it
P_BET = 0.25  # bet when checked to (min to twice the min)
P_RAISE = 0.08  # raise a bet (min to twice the min)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def memory() -> dict[str, float]:
    """VmRSS and VmHWM of this process in MB (0 where /proc is missing)."""
    out = {"rss_mb": 0.0, "peak_mb": 0.0}
    try:
        text = Path("/proc/self/status").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out["rss_mb" if key == "VmRSS" else "peak_mb"] = int(value.split()[0]) / 1024
    return out


def clear_caches() -> None:
    """A restart: the folded states and the TV's rendered clocks are gone."""
    store.cache.clear()
    try:
        from director.screens import tv
    except ImportError:  # pragma: no cover - a checkout without the TV blueprint
        return
    rendered = getattr(tv, "rendered", None)
    if rendered is not None:
        rendered.clear()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def choose(rng: random.Random, view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A random player's next entry at a table, from the table's last view: (action, fields)."""
    if view["phase"] == "before":
        return "deal", {}
    if view["phase"] == "showdown" or not view["actions"]:
        return "award", {"winners": [[rng.choice(p["eligible"])] for p in view["pots"]]}
    kinds = {a["kind"]: a for a in view["actions"]}
    me = next((s for s in view["seats"] if s["seat"] == view["turn"]), None)
    stack = me["stack"] if me else 0
    to_call = max((s["bet"] for s in view["seats"]), default=0) - (me["bet"] if me else 0)
    roll = rng.random()
    if "allin" in kinds and roll < P_ALLIN:
        return "act", {"kind": "allin"}
    if "check" in kinds:
        return "act", _maybe_raise(rng, kinds, {"kind": "check"}, P_BET)
    if to_call >= stack / 4 and "fold" in kinds:
        return "act", {"kind": "call" if roll < P_CALL_BIG else "fold"}
    fold_share = P_FOLD_PREFLOP if view.get("street") == "preflop" else P_FOLD_LATER
    if roll < fold_share and "fold" in kinds:
        return "act", {"kind": "fold"}
    return "act", _maybe_raise(rng, kinds, {"kind": "call"}, P_RAISE)


def _maybe_raise(rng: random.Random, kinds: dict[str, Any], otherwise: dict[str, Any], share: float) -> dict[str, Any]:
    word = "raise" if "raise" in kinds else "bet" if "bet" in kinds else None
    if word is None or rng.random() >= share:
        return otherwise
    low = int(kinds[word]["amount"])
    high = int(kinds["allin"]["amount"]) - 1 if "allin" in kinds else low
    return {"kind": word, "amount": rng.randint(low, max(low, min(high, 2 * low)))}


class Night:
    """A tournament night driven through the test client, logged in as the director."""

    def __init__(self, app: Any, rng: random.Random) -> None:
        self.app = app
        self.rng = rng
        self.client = app.test_client()
        session = self.client.get("/api/session").get_json()
        answer = self.client.post(
            "/api/setup-password", json={"password": PASSWORD},
            headers={"X-CSRFToken": session["csrf_token"]},
        )
        if answer.status_code != 201:
            raise SystemExit(f"Could not set the director's password: {answer.get_json()}")
        self.csrf = answer.get_json()["csrf_token"]
        self.tid = 0
        self.seq = 0
        self.views: dict[int, dict[str, Any]] = {}
        self.active: list[int] = []
        self.dropped: dict[int, str] = {}
        self.refused = 0
        self.failures: dict[int, int] = {}
        self.player_token = ""
        self.counts: Counter[str] = Counter()

    # --- requests -----------------------------------------------------------------------

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        response = self.client.open(path, method=method, json=body, headers={"X-CSRFToken": self.csrf})
        return response.status_code, response.get_json(silent=True)

    def ok(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        status, data = self.api(method, path, body)
        if status >= 300:
            raise SystemExit(f"{method} {path} answered {status}: {data}")
        return data

    def table(self, table: int) -> dict[str, Any]:
        return dict(self.ok("GET", f"/api/t/{self.tid}/table/{table}"))

    def get(self, path: str, **kwargs: Any) -> float:
        """Seconds to answer a GET (which must succeed)."""
        start = time.perf_counter()
        response = self.client.get(path, **kwargs)
        elapsed = time.perf_counter() - start
        if response.status_code != 200:
            raise SystemExit(f"GET {path} answered {response.status_code}")
        return elapsed

    # --- setup --------------------------------------------------------------------------

    def setup(self, players: int, table_size: int, preset: str, stack: int) -> None:
        created = self.ok("POST", "/api/tournaments", {
            "name": "Bench night", "preset": preset, "table_size": table_size, "starting_stack": stack,
        })
        self.tid = int(created["id"])
        for k in range(1, players + 1):
            self.ok("POST", f"/api/t/{self.tid}/players", {"name": f"Player {k:03d}"})
        self.ok("POST", f"/api/t/{self.tid}/seats/draw", {})
        state = self.ok("POST", f"/api/t/{self.tid}/clock/start", {})
        self.seq = int(state["seq"])
        self.active = sorted(int(t) for t in state["tables"])
        self.views = {t: self.table(t) for t in self.active}
        registered = self.ok("GET", f"/api/t/{self.tid}/events")["events"]
        self.player_token = next(
            e["payload"]["token"] for e in registered if e["type"] == "player_registered" and "token" in e["payload"]
        )

    def summary(self) -> dict[str, Any]:
        state = self.ok("GET", f"/api/t/{self.tid}")
        return {
            "players_left": state["players_left"],
            "level": state["clock"]["level"],
            "tables": len(self.active),
        }

    # --- one entry at a table -----------------------------------------------------------

    def choose(self, view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The next entry at a table, from its last view: (action, fields)."""
        return choose(self.rng, view)

    def stuck(self, table: int, view: dict[str, Any]) -> None:
        """A table that cannot deal: skip a break, else take it out of the rotation."""
        problem = str(view.get("deal_problem") or "")
        if "break" in problem.lower():
            state = self.ok("POST", f"/api/t/{self.tid}/clock/next_level", {})
            self.seq = int(state["seq"])
            self.views = {t: self.table(t) for t in self.active}
            return
        self.active.remove(table)
        self.dropped[table] = problem or "cannot deal"
        log(f"  table {table} leaves the rotation at event {self.seq:,}: {self.dropped[table]}")

    def refusal(self, table: int, action: str, status: int, error: Any) -> None:
        self.refused += 1
        self.failures[table] = self.failures.get(table, 0) + 1
        log(f"  table {table}: {action} refused ({status}): {error}")
        self.views[table] = self.table(table)
        if self.failures[table] >= 5:
            self.active.remove(table)
            self.dropped[table] = f"5 refusals in a row, the last: {error}"

    def play(self, table: int) -> None:
        """One entry at ``table`` through the JSON API."""
        view = self.views[table]
        if view["phase"] == "before" and not view["can_deal"]:
            self.stuck(table, view)
            return
        action, fields = self.choose(view)
        status, data = self.api(
            "POST", f"/api/t/{self.tid}/table/{table}/{action}", {**fields, "expected_seq": view["seq"]}
        )
        if status != 201:
            self.refusal(table, action, status, (data or {}).get("error"))
            return
        self.failures.pop(table, None)
        self.counts[action if action != "act" else fields["kind"]] += 1
        self.views[table] = data
        self.seq = int(data["seq"])

    def play_form(self, table: int) -> float | None:
        """One entry at ``table`` through the page's form route as htmx posts it; its seconds."""
        view = self.views[table]
        if view["phase"] == "before" and not view["can_deal"]:
            self.stuck(table, view)
            return None
        action, fields = self.choose(view)
        form: dict[str, Any] = {"csrf_token": self.csrf, "expected_seq": str(view["seq"])}
        if action == "award":
            form.update({f"pot{k}": [str(s) for s in seats] for k, seats in enumerate(fields["winners"])})
        else:
            form.update({k: str(v) for k, v in fields.items()})
        start = time.perf_counter()
        response = self.client.post(
            f"/t/{self.tid}/table/{table}/{action}", data=form, headers={"HX-Request": "true"}
        )
        elapsed = time.perf_counter() - start
        if response.status_code != 200:
            self.refusal(table, action, response.status_code, response.get_data(as_text=True)[:200])
            return None
        self.views[table] = self.table(table)
        self.seq = int(self.views[table]["seq"])
        return elapsed

    def play_until(self, target: int, limit: float | None) -> str:
        """Round-robin entries until the log has ``target`` events; "" or why it stopped."""
        start = time.perf_counter()
        next_note = (self.seq // PROGRESS_EVERY + 1) * PROGRESS_EVERY
        from_seq = self.seq
        while self.seq < target:
            if len(self.active) == 0:
                return f"every table stopped dealing at {self.seq:,} events (the field is too small)"
            for table in list(self.active):
                if table in self.active:
                    self.play(table)
                if self.seq >= target:
                    break
            if self.seq >= next_note:
                elapsed = time.perf_counter() - start
                rate = (self.seq - from_seq) / elapsed if elapsed else 0.0
                info = self.summary()
                log(
                    f"  {self.seq:>9,} events  {elapsed:7.1f} s  {rate:6.0f} events/s  "
                    f"players left {info['players_left']}  tables {info['tables']}  level {info['level']}"
                )
                next_note = (self.seq // PROGRESS_EVERY + 1) * PROGRESS_EVERY
            if limit is not None and time.perf_counter() - start > limit:
                return f"stopped at {self.seq:,} events: the limit of {limit / 60:.0f} minutes was reached"
        return ""

    # --- the measures -------------------------------------------------------------------

    def fold_costs(self) -> dict[str, float]:
        with self.app.test_request_context():
            log_events = store.load_events(get_db(), self.tid)
        count = len(log_events)
        cut = max(1, count - INCREMENTAL)
        before = fold(log_events[:cut])
        start = time.perf_counter()
        state = before
        for event in log_events[cut:]:
            state = apply(state, event)
        incremental = (time.perf_counter() - start) / max(1, count - cut)
        del before, state
        start = time.perf_counter()
        fold(log_events)
        full = time.perf_counter() - start
        return {"events": count, "apply_us": incremental * 1e6, "fold_us": full / count * 1e6, "fold_s": full}

    def renders(self) -> dict[str, float]:
        tid = self.tid
        dealer_table = self.active[0] if self.active else 1
        pages: dict[str, Callable[[], float]] = {
            "tv_clock": self._fresh_tv_clock,
            "player": lambda: self.get(f"/p/{self.player_token}"),
            "dealer": lambda: self.get(f"/t/{tid}/table/{dealer_table}"),
        }
        out = {}
        for name, timed in pages.items():
            timed()  # warm: the state cache is current, templates compiled
            out[f"{name}_ms"] = statistics.median(timed() for _ in range(RENDER_REPEAT)) * 1000
        for name, path in (("dashboard", f"/t/{tid}"), ("tables", f"/t/{tid}/tables")):
            out.update(self.director_page(name, path))
        return out

    def director_page(self, name: str, path: str) -> dict[str, float]:
        """p50 and p99 of a director's page, and the collector's share of the slowest renders."""
        collecting = [0.0, 0.0]  # time spent collecting; when the running collection began

        def note(phase: str, _info: dict[str, Any]) -> None:
            if phase == "start":
                collecting[1] = time.perf_counter()
            else:
                collecting[0] += time.perf_counter() - collecting[1]

        self.get(path)
        timed: list[tuple[float, float]] = []
        gc.callbacks.append(note)
        try:
            for _ in range(DIRECTOR_PAGES):
                before = collecting[0]
                seconds = self.get(path)
                timed.append((seconds, collecting[0] - before))
        finally:
            gc.callbacks.remove(note)
        timed.sort()
        slowest = timed[-max(1, DIRECTOR_PAGES // 50):]  # the renders at and above the p99
        return {
            f"{name}_p50_ms": timed[len(timed) // 2][0] * 1000,
            f"{name}_p99_ms": percentile([t for t, _ in timed], 0.99) * 1000,
            f"{name}_gc_share": sum(g for _, g in slowest) / max(1e-9, sum(t for t, _ in slowest)),
        }

    def _fresh_tv_clock(self) -> float:
        from director.screens import tv

        rendered = getattr(tv, "rendered", None)
        if rendered is not None:
            rendered.clear()
        polled = self.app.extensions.get("poll_cache")  # the answer kept for the next second's polls
        if polled is not None:
            polled.clear()
        return self.get(f"/t/{self.tid}/tv/clock")

    def restart(self) -> float:
        clear_caches()
        return self.get(f"/t/{self.tid}") * 1000

    def dealer_actions(self) -> dict[str, float]:
        times: list[float] = []
        attempts = 0
        while len(times) < DEALER_ACTIONS and self.active and attempts < 3 * DEALER_ACTIONS:
            for table in list(self.active):
                if len(times) >= DEALER_ACTIONS:
                    break
                if table not in self.active:
                    continue
                attempts += 1
                elapsed = self.play_form(table)
                if elapsed is not None:
                    times.append(elapsed)
        return {
            "act_p50_ms": percentile(times, 0.5) * 1000,
            "act_p99_ms": percentile(times, 0.99) * 1000,
            "act_count": len(times),
        }


COLUMNS = [
    ("events", "events", "{:,}"),
    ("apply_us", "apply/ev µs", "{:.0f}"),
    ("fold_us", "fold/ev µs", "{:.0f}"),
    ("act_p50_ms", "act p50 ms", "{:.1f}"),
    ("act_p99_ms", "act p99 ms", "{:.1f}"),
    ("dashboard_p50_ms", "dash p50", "{:.1f}"),
    ("dashboard_p99_ms", "dash p99", "{:.1f}"),
    ("dashboard_gc_share", "dash gc", "{:.0%}"),
    ("tables_p50_ms", "tables p50", "{:.1f}"),
    ("tables_p99_ms", "tables p99", "{:.1f}"),
    ("tables_gc_share", "tables gc", "{:.0%}"),
    ("tv_clock_ms", "tv ms", "{:.1f}"),
    ("player_ms", "player ms", "{:.1f}"),
    ("dealer_ms", "dealer ms", "{:.1f}"),
    ("restart_ms", "restart ms", "{:.0f}"),
    ("rss_mb", "RSS MB", "{:.0f}"),
    ("players_left", "left", "{}"),
    ("tables", "tables", "{}"),
    ("generate_s", "gen s", "{:.0f}"),
]


def header() -> str:
    return "  ".join(f"{label:>{max(len(label), 8)}}" for _, label, _ in COLUMNS)


def row_text(row: dict[str, Any]) -> str:
    cells = []
    for key, label, form in COLUMNS:
        value = row.get(key)
        text = "–" if value is None else form.format(value)
        cells.append(f"{text:>{max(len(label), 8)}}")
    return "  ".join(cells)


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = sorted({int(part.replace("_", "")) for part in text.split(",") if part.strip()})
    except ValueError:
        raise SystemExit(f"--sizes takes whole numbers separated by commas, not {text!r}") from None
    if not sizes or sizes[0] < 1:
        raise SystemExit("--sizes needs at least one positive size")
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,50000,100000", help="event counts, e.g. 1000,10000")
    parser.add_argument("--quick", action="store_true", help="the sizes 1000,5000")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--table-size", type=int, default=10)
    parser.add_argument("--preset", default="home-short", help="a timed preset (the default one)")
    parser.add_argument("--stack", type=int, default=1_000_000, help="starting stack (deep: few busts)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random actions")
    parser.add_argument("--limit-minutes", type=float, default=None, help="give up on a size after this")
    args = parser.parse_args()
    sizes = parse_sizes("1000,5000" if args.quick else args.sizes)
    limit = args.limit_minutes * 60 if args.limit_minutes else None

    source = Path(engine.__file__).resolve().parent.parent
    log(f"engine and director from {source} (director: {Path(director.__file__).resolve().parent})")
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-night-") as folder:
        clear_caches()
        app = create_app({"TESTING": True}, instance_path=Path(folder) / "instance")
        night = Night(app, random.Random(args.seed))
        start = time.perf_counter()
        night.setup(args.players, args.table_size, args.preset, args.stack)
        log(
            f"set up {args.players} players at {len(night.active)} tables in "
            f"{time.perf_counter() - start:.1f} s ({night.seq:,} events)"
        )
        if not args.json:
            print(f"# {args.players} players, {len(night.active)} tables of {args.table_size}, "
                  f"preset {args.preset}, stack {args.stack:,}, seed {args.seed}; code from {source}")
            print(header(), flush=True)
        for size in sizes:
            if night.seq >= size:
                notes.append(f"size {size:,} skipped: the log already had {night.seq:,} events")
                continue
            log(f"generating to {size:,} events")
            start = time.perf_counter()
            why = night.play_until(size, limit)
            generate = time.perf_counter() - start
            if why:
                notes.append(f"size {size:,}: {why}")
                log(f"  {why}")
                break
            log(f"  reached {night.seq:,} events in {generate:.1f} s; measuring")
            row: dict[str, Any] = {"size": size, "generate_s": generate}
            row.update(memory())
            row.update(night.fold_costs())
            row.update(night.renders())
            row["restart_ms"] = night.restart()
            row.update(night.dealer_actions())
            row.update(night.summary())
            row["refused"] = night.refused
            row["entries"] = dict(night.counts)
            rows.append(row)
            if not args.json:
                print(row_text(row), flush=True)
        if night.dropped:
            notes.append(
                "tables out of the rotation: "
                + "; ".join(f"{t} ({why})" for t, why in sorted(night.dropped.items()))
            )
        counts = night.counts
        notes.append(
            f"JSON entries: {counts['deal']:,} hands dealt, {counts['award']:,} awarded at a showdown, "
            f"{counts['allin']:,} all-ins, {counts['raise'] + counts['bet']:,} bets or raises, "
            f"{counts['call']:,} calls, {counts['check']:,} checks, {counts['fold']:,} folds"
        )
        if night.refused:
            notes.append(f"{night.refused} entries were refused (see stderr)")
        clear_caches()
    if args.json:
        print(json.dumps({
            "players": args.players, "table_size": args.table_size, "preset": args.preset,
            "stack": args.stack, "seed": args.seed, "source": str(source), "rows": rows, "notes": notes,
        }, indent=2))
    else:
        print(
            "# apply/ev: engine.tournament.apply of the last 200 events; fold/ev: a full fold / events;\n"
            "# act: the dealer's htmx form POST; pages: median of 5, warm; tv: fresh render; dash and tables:\n"
            "# 100 renders each, gc: the collector's share of the slowest 2 %; restart:\n"
            "# the first dashboard request after the state cache is emptied; RSS before the folds."
        )
        for note in notes:
            print(f"# {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
