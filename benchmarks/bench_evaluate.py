"""How fast is hand evaluation? Seven-card hands per second, ours against treys.

    python benchmarks/bench_evaluate.py [--hands 100000] [--repeat 5] [--seed 2026]

Both evaluators get the same seeded random seven-card hands in the same run.
``evaluate`` is the showdown path (it builds the readable HandRank);
``rank_value`` is the bare integer for bulk comparisons. Each figure is the best of
``--repeat`` timed rounds, the contenders taking turns in each. Before timing, the two
evaluators are checked to order every pair of consecutive hands the same way.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

Contenders = dict[str, tuple[Callable[[Any], object], Sequence[Any]]]


def best_rates(contenders: Contenders, repeat: int) -> dict[str, float]:
    """Hands per second of each contender, the best of ``repeat`` rounds.

    Rounds alternate between the contenders so that a busy machine slows them alike, and
    the garbage collector is off while timing (as :mod:`timeit` does).
    """
    best = dict.fromkeys(contenders, float("inf"))
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            for label, (fn, hands) in contenders.items():
                start = time.perf_counter()
                for h in hands:
                    fn(h)
                best[label] = min(best[label], time.perf_counter() - start)
    finally:
        if gc_was_on:
            gc.enable()
    rates = {}
    for label, (_, hands) in contenders.items():
        rates[label] = rate = len(hands) / best[label]
        print(f"  {label:<40} {rate:>10,.0f} hands/s  ({1e6 / rate:5.2f} µs each)")
    return rates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    evaluator = importlib.import_module("engine.evaluate")
    print(f"import engine.evaluate (builds its tables): {1e3 * (time.perf_counter() - start):.0f} ms")
    from engine.cards import FULL_DECK

    rng = random.Random(args.seed)
    hands = [tuple(rng.sample(FULL_DECK, 7)) for _ in range(args.hands)]
    print(f"{args.hands:,} random seven-card hands (seed {args.seed}), best of {args.repeat}:")

    contenders: Contenders = {
        "ours: evaluate -> HandRank": (evaluator.evaluate, hands),
        "ours: rank_value -> int": (evaluator.rank_value, hands),
    }
    try:
        from treys import Card as TCard
        from treys import Evaluator
    except ImportError:
        print("treys is not installed (pip install -e '.[bench]'): no comparison.")
        best_rates(contenders, args.repeat)
        return 0

    treys = Evaluator()
    t_hands = [[TCard.new(str(c)) for c in h] for h in hands]
    check_same_order(evaluator.rank_value, treys, hands, t_hands)

    def treys_seven(h: list[int]) -> int:
        return int(treys.evaluate(h[:2], h[2:]))

    contenders["treys: Evaluator.evaluate(hole, board)"] = (treys_seven, t_hands)
    rates = best_rates(contenders, args.repeat)
    theirs = rates["treys: Evaluator.evaluate(hole, board)"]
    print(f"ratio evaluate / treys:   {rates['ours: evaluate -> HandRank'] / theirs:.1f}x")
    print(f"ratio rank_value / treys: {rates['ours: rank_value -> int'] / theirs:.1f}x")
    return 0


def check_same_order(
    rank_value: Callable[[Any], int], treys: Any, hands: Sequence[Any], t_hands: Sequence[Any]
) -> None:
    """treys scores 1 (royal flush) to 7462 (seven high): lower is better."""
    ours = [rank_value(h) for h in hands]
    theirs = [treys.evaluate(h[:2], h[2:]) for h in t_hands]
    for i in range(1, len(hands)):
        a = (ours[i] > ours[i - 1]) - (ours[i] < ours[i - 1])
        b = (theirs[i] < theirs[i - 1]) - (theirs[i] > theirs[i - 1])
        if a != b:
            raise SystemExit(f"Disagreement with treys on {hands[i - 1]} vs {hands[i]}")
    print(f"  order agrees with treys on all {len(hands) - 1:,} consecutive pairs")


if __name__ == "__main__":
    sys.exit(main())
