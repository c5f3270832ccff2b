"""How the cost of the tournament's fold grows with the night (the engine alone, no server).

A seeded 30-table night (300 players, 10 a table, a timed structure) is played with the
engine: each table deals in turn and its players act (mostly folds, some calls and raises
before the flop; a hand that reaches the flop is checked down with a board and awarded
from the cards), with an undo now and then. At each size it prints:

- apply: the cost of one more event (the mean over the last 500 events applied, undos apart),
- undo: the mean cost of the night's undos so far (each refolds up to 127 events),
- fold: a full fold of every event from the start (what a restart without a snapshot costs),
- memory: the Python heap the folded state holds (``tracemalloc``, measured once at the end
  when ``--memory`` is given: it slows everything down).

Run: ``python benchmarks/bench_fold.py --sizes 1000,10000,50000,100000``. ``--write FILE``
saves the events as JSON lines and ``--read FILE`` folds a saved night (to compare two
versions of the engine on the same events: the older one may not play the night as fast).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.tournament import Event, Tournament, apply, fold

TABLES = 30
SEATS = 10
RANKS = "23456789TJQKA"
SUITS = "cdhs"


def _cards(rng: random.Random, count: int, used: set[str]) -> str:
    out = []
    while len(out) < count:
        card = rng.choice(RANKS) + rng.choice(SUITS)
        if card not in used:
            used.add(card)
            out.append(card)
    return "".join(out)


class Night:
    def __init__(self, seed: int = 1) -> None:
        self.rng = random.Random(seed)
        self.events: list[Event] = [Event(1, "created", {"name": "Club night", "starting_stack": 50_000,
                                                          "table_size": SEATS}, 0.0)]
        self.state: Tournament = fold(self.events)
        self.used: dict[int, set[str]] = {}
        self.undos: list[float] = []
        for i in range(TABLES * SEATS):
            self.add("player_registered", {"name": f"Player {i + 1}"})
        seats = {str(p): [1 + (p - 1) // SEATS, 1 + (p - 1) % SEATS] for p in range(1, TABLES * SEATS + 1)}
        self.add("seats_drawn", {"seats": seats, "buttons": {str(t): 1 for t in range(1, TABLES + 1)}})
        self.add("clock", {"action": "start"})

    def add(self, type_: str, payload: dict[str, Any]) -> float:
        event = Event(self.state.seq + 1, type_, payload, 60.0 + self.state.seq * 0.02)
        started = time.perf_counter()
        self.state = apply(self.state, event)
        spent = time.perf_counter() - started
        self.events.append(event)
        return spent

    def step(self, table: int) -> float:
        """One entry at ``table``: a deal, an action, a board, an award, or now and then an undo."""
        running = self.state.dealing.running(table)
        if running is None:
            if table not in self.state.seating.tables or len(self.state.seating.at_table(table)) < 2:
                return 0.0
            self.used[table] = set()
            return self.add("hand_started", {"table": table})
        if self.rng.random() < 0.01 and self.state.can_undo:
            self.undos.append(self.add("undo", {}))
            return 0.0
        hand = running.replay()
        if hand.turn is not None:  # folds before the flop, then calls and checks
            verb = "f" if not hand.board and self.rng.random() < 0.7 else "cc"
            return self.add("hand_action", {"table": table, "action": f"p{hand.turn} {verb}"})
        board = len(hand.board)
        used = self.used.setdefault(table, set())
        if board < 5:
            return self.add("hand_action", {"table": table, "action": f"d db {_cards(self.rng, 3 if board == 0 else 1, used)}"})
        shows = [f"p{s} sm {_cards(self.rng, 2, used)}" for s in hand.showdown_order()]
        return self.add("hand_action", {"table": table, "actions": [*shows, "d win cards"]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,50000,100000")
    parser.add_argument("--memory", action="store_true", help="measure the folded state's heap at the end")
    parser.add_argument("--write", type=Path, help="save the night's events as JSON lines")
    parser.add_argument("--read", type=Path, help="fold a saved night instead of playing one")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    if args.read:
        events = [Event(**json.loads(line)) for line in args.read.read_text().splitlines()]
        print(f"{'events':>8} {'apply µs/event (last 500)':>26} {'full fold s':>12}")
        for size in sizes:
            part = events[:size]
            started = time.perf_counter()
            state = fold(part[:-500])
            head = time.perf_counter() - started
            started = time.perf_counter()
            for event in part[-500:]:
                state = apply(state, event)
            tail = time.perf_counter() - started
            print(f"{size:>8} {tail / 500 * 1e6:>26.1f} {head + tail:>12.2f}", flush=True)
        return
    night = Night()
    print(f"{'events':>8} {'apply µs/event':>15} {'undo ms':>8} {'full fold s':>12} {'hands':>7}")
    window: list[float] = []
    table = 0
    for size in sizes:
        while len(night.events) < size:
            table = table % TABLES + 1
            spent = night.step(table)
            if spent:
                window.append(spent)
            window = window[-500:]
        undo = sum(night.undos) / len(night.undos) * 1000 if night.undos else float("nan")
        started = time.perf_counter()
        fold(night.events)
        full = time.perf_counter() - started
        print(f"{size:>8} {sum(window) / len(window) * 1e6:>15.1f} {undo:>8.2f} {full:>12.2f} "
              f"{night.state.dealing.dealt:>7}", flush=True)
    if args.write:
        with args.write.open("w") as out:
            for e in night.events:
                out.write(json.dumps({"seq": e.seq, "type": e.type, "payload": dict(e.payload), "at": e.at}) + "\n")
    if args.memory:
        tracemalloc.start()
        state = fold(night.events)
        current, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"folded state at {len(night.events):,} events: {current / 2**20:.0f} MiB of Python heap"
              f" ({state.seq})")


if __name__ == "__main__":
    main()
