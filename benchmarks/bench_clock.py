"""How fast the clock's state is computed: every TV poll computes it from the events.

Run: python benchmarks/bench_clock.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.clock import Adjust, ClockEvent, HandPlayed, Pause, Resume, Start, clock_state
from engine.structure import home_structure, sit_and_go

T0 = 1_700_000_000.0


def per_second(fn: Callable[[], object], seconds: float = 1.0) -> tuple[float, float]:
    """(calls per second, microseconds per call)."""
    n = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            fn()
        n += 100
    return n / elapsed, elapsed / n * 1e6


def main() -> None:
    home = home_structure(10_000, hours=4.5)
    events: list[ClockEvent] = [Start(T0)]
    t = T0
    for _ in range(10):  # ten pauses and a minute added after each
        t += 1000
        events += [Pause(t), Resume(t + 60), Adjust(t + 61, 60)]
    cases: list[tuple[str, Callable[[], object]]] = [
        ("timed, 4.5 h structure, 1 event, read 4 h in", lambda: clock_state(home, [Start(T0)], T0 + 4 * 3600)),
        (f"timed, {len(events)} events, read 5 h in", lambda: clock_state(home, events, T0 + 5 * 3600)),
    ]
    sng = sit_and_go(1000)
    hands: list[ClockEvent] = [Start(T0), *(HandPlayed(T0 + 90 * i) for i in range(1, 120))]
    cases.append(("sit-and-go, 119 hand events", lambda: clock_state(sng, hands, T0 + 12_000)))
    cases.append(
        ("sit-and-go, hand count passed in", lambda: clock_state(sng, [Start(T0)], T0 + 9_000, hands_played=119))
    )
    for label, fn in cases:
        rate, micro = per_second(fn)
        print(f"{label:48s} {rate:10,.0f} states/s  {micro:7.1f} µs each")


if __name__ == "__main__":
    main()
