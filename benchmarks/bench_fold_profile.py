"""Where the tournament's fold spends its time, event by event, on a saved night (the engine alone).

    python benchmarks/bench_fold_profile.py --write night.jsonl [--size 100000]
    python benchmarks/bench_fold_profile.py --read night.jsonl [--last 2000] [--repeat 3] [--top 40]

``--write`` builds a night through the app exactly as ``bench_night.py`` does (its ``Night``:
the JSON API, 30 interleaved tables, seeded random actions) until the log has ``--size``
events, and saves the tournament's events as JSON lines (seq, type, payload, at). Building
needs ``director``; reading needs only ``engine``.

``--read`` folds the saved events with ``engine.tournament`` and prints, without asserting
anything:

* fold/ev: a full ``fold`` of every event but the last ``--last``, divided by their number,
  and the garbage collector's passes by generation during the first such fold;
* apply/ev: ``apply`` of the last ``--last`` events one by one from the state before them
  (what the app's state cache does when it is a few events behind), then the same again with
  the garbage collector off; the collector's passes by generation during the first and their
  time (counts that do not depend on how busy the machine is), and the objects the collector
  tracks that the state before them holds (``gc.get_objects()`` after and before its fold);
* pickle: the state before them written and read back as a snapshot is (its size, the time
  to read it) and the fold of the last events from the snapshot read back (a restart's fold);
* the profile (``cProfile``) of the apply of the last events, sorted by own time, the
  function calls per event, and the call counts of the functions called most (``--dump FILE``
  also saves it for ``pstats``, to set two engines' profiles side by side).

The state before the last events is folded afresh for every repeat (a repeat must not find
what the previous one cached); times are wall-clock (``time.perf_counter``), the median of
``--repeat`` runs, with the process's CPU time (``time.process_time``) beside them. Run it
from a checkout (``engine`` is imported from ``$PYTHONPATH`` when it is set, else from the
current directory) to compare two versions of the engine on the same events:
``cd /path/to/worktree && PYTHONPATH=. python /elsewhere/bench_fold_profile.py --read night.jsonl``.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pickle
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, os.getcwd())

import engine
from engine.tournament import Event, Tournament, apply, fold


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- building a night


def write_night(path: Path, size: int, seed: int) -> None:
    """Play a night through the app to ``size`` events and save its events to ``path``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_night

    from director import create_app
    from director.core import store
    from director.core.db import get_db

    with tempfile.TemporaryDirectory(prefix="bench-fold-profile-") as folder:
        bench_night.clear_caches()
        app = create_app({"TESTING": True}, instance_path=Path(folder) / "instance")
        night = bench_night.Night(app, random.Random(seed))
        night.setup(300, 10, "home-short", 1_000_000)
        why = night.play_until(size, None)
        if why:
            log(f"  {why}")
        with app.test_request_context():
            events = store.load_events(get_db(), night.tid)
        bench_night.clear_caches()
    with path.open("w") as out:
        for event in events:
            out.write(json.dumps({"seq": event.seq, "type": event.type, "payload": event.payload, "at": event.at}))
            out.write("\n")
    log(f"wrote {len(events):,} events to {path}")


def read_night(path: Path) -> list[Event]:
    with path.open() as source:
        return [Event(**json.loads(line)) for line in source if line.strip()]


# --------------------------------------------------------------------------- measuring


def apply_all(state: Tournament, events: list[Event]) -> Tournament:
    for event in events:
        state = apply(state, event)
    return state


def timed(action: Callable[..., Any], *args: Any) -> tuple[float, float, Any]:
    """(wall seconds, CPU seconds, result) of one call of ``action(*args)``."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = action(*args)
    return time.perf_counter() - wall, time.process_time() - cpu, result


class GcWatch:
    """The garbage collector's passes while it watches: how many of each generation, and
    their wall time."""

    def __init__(self) -> None:
        self.passes = [0, 0, 0]
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.passes[info["generation"]] += 1
            self.seconds += time.perf_counter() - self._started

    def __enter__(self) -> GcWatch:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def measure(events: list[Event], last: int, repeat: int) -> dict[str, float]:
    head, tail = events[:-last], events[-last:]
    fold_wall: list[float] = []
    fold_cpu: list[float] = []
    apply_wall: list[float] = []
    apply_cpu: list[float] = []
    quiet_wall: list[float] = []
    watches: list[GcWatch] = []
    gc.collect()
    held = -len(gc.get_objects())  # the objects the first state folded holds, once it is made
    fold_watches: list[GcWatch] = []
    for run in range(repeat):
        with GcWatch() as watch:
            wall, cpu, before = timed(fold, head)
        fold_watches.append(watch)
        fold_wall.append(wall)
        fold_cpu.append(cpu)
        if run == 0:
            gc.collect()
            held += len(gc.get_objects())
        with GcWatch() as watch:
            wall, cpu, _ = timed(apply_all, before, tail)
        watches.append(watch)
        apply_wall.append(wall)
        apply_cpu.append(cpu)
        gc.disable()
        try:
            wall, _cpu, _ = timed(apply_all, before, tail)
        finally:
            gc.enable()
        quiet_wall.append(wall)
        log(f"  run {run + 1}: fold/ev {fold_wall[-1] / len(head) * 1e6:.1f} µs, "
            f"apply/ev {apply_wall[-1] / last * 1e6:.1f} µs ({quiet_wall[-1] / last * 1e6:.1f} without gc)")
    data = pickle.dumps(before, protocol=pickle.HIGHEST_PROTOCOL)
    read_wall: list[float] = []
    refold_wall: list[float] = []
    for _ in range(repeat):
        wall, _cpu, restored = timed(pickle.loads, data)
        read_wall.append(wall)
        wall, _cpu, _ = timed(apply_all, restored, tail)
        refold_wall.append(wall)
    watch = watches[-1]
    return {
        "events": len(events),
        "fold_us": statistics.median(fold_wall) / len(head) * 1e6,
        "fold_cpu_us": statistics.median(fold_cpu) / len(head) * 1e6,
        "apply_us": statistics.median(apply_wall) / last * 1e6,
        "apply_cpu_us": statistics.median(apply_cpu) / last * 1e6,
        "apply_without_gc_us": statistics.median(quiet_wall) / last * 1e6,
        "fold_gc_passes_0": fold_watches[0].passes[0],
        "fold_gc_passes_1": fold_watches[0].passes[1],
        "fold_gc_passes_2": fold_watches[0].passes[2],
        "fold_gc_us_per_event": statistics.median(w.seconds for w in fold_watches) / len(head) * 1e6,
        "gc_passes_0": watch.passes[0],
        "gc_passes_1": watch.passes[1],
        "gc_passes_2": watch.passes[2],
        "gc_us_per_event": statistics.median(w.seconds for w in watches) / last * 1e6,
        "objects_held_by_state": held,
        "snapshot_kb": len(data) / 1024,
        "unpickle_ms": statistics.median(read_wall) * 1e3,
        "apply_after_unpickle_us": statistics.median(refold_wall) / last * 1e6,
    }


def profile(events: list[Event], last: int, top: int, dump: Path | None = None) -> str:
    head, tail = events[:-last], events[-last:]
    before = fold(head)
    profiler = cProfile.Profile()
    profiler.enable()
    apply_all(before, tail)
    profiler.disable()
    if dump is not None:
        profiler.dump_stats(dump)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    total_calls = sum(row[1] for row in stats.stats.values())  # type: ignore[attr-defined]
    out.write(f"function calls per event: {total_calls / last:,.1f}\n\n")
    stats.sort_stats("ncalls").print_stats(top)
    return out.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path, help="build a night through the app and save its events here")
    parser.add_argument("--size", type=int, default=100_000, help="events of the night to build")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random actions")
    parser.add_argument("--read", type=Path, help="a saved night to fold and profile")
    parser.add_argument("--upto", type=int, default=None, help="read only the first events of the night")
    parser.add_argument("--last", type=int, default=2000, help="events applied one by one")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--top", type=int, default=40, help="profile lines printed")
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument("--dump", type=Path, help="also save the profile here (pstats), to compare two engines")
    args = parser.parse_args()
    if args.write:
        write_night(args.write, args.size, args.seed)
    if not args.read:
        return 0
    events = read_night(args.read)[: args.upto]
    log(f"engine from {Path(engine.__file__).resolve().parent}; {len(events):,} events")
    row = measure(events, args.last, args.repeat)
    print(f"# engine from {Path(engine.__file__).resolve().parent}; the last {args.last:,} events applied; "
          f"median of {args.repeat}")
    for key, value in row.items():
        print(f"{key:>24}  {value:,.1f}")
    if not args.no_profile:
        print()
        print(profile(events, args.last, args.top, args.dump))
    return 0


if __name__ == "__main__":
    sys.exit(main())
