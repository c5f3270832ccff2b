"""Replay the same PHH hands through our engine and through pokerkit, and compare.

    python benchmarks/bench_replay.py [PATH] [--repeat N]

PATH is a folder searched for ``*.phh`` files, or one file (default: the 2,957 real hands
in ``../shared/phh`` next to the repository). Both libraries read every file's text into
their own hand-history objects first (timed on its own as "parse"); the "replay" figure
is then: ours ``replay_phh`` (every action validated, pots built, the showdown awarded
from the cards), pokerkit ``for state in HandHistory`` (its own ``state_actions``
loop: every action parsed and validated, chips pushed). Each side's final stacks are
checked against the recorded ``finishing_stacks`` outside the timing. Times are the
process's CPU time (``time.process_time``), so other programs on a busy machine count
less; runs alternate between the two libraries, the best of ``--repeat`` runs is kept,
and the ratio is also given as the median of the run-by-run ratios. Prints hands per
second for each and the ratio. Nothing here is asserted by the tests.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.phh import finishing_stacks, read_phh, replay_phh  # noqa: E402


def best_of(repeat: int, run: Callable[[], Any]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?", default=str(ROOT.parent / "shared" / "phh"))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    try:
        import pokerkit
        from pokerkit import HandHistory
    except ImportError:
        print("pokerkit is not installed: pip install -e '.[bench]'")
        return 2

    path = Path(args.path)
    files = sorted(path.rglob("*.phh")) if path.is_dir() else [path]
    texts = [f.read_text() for f in files]
    n = len(texts)
    if not n:
        print(f"No .phh files under {path}")
        return 2

    ours = [read_phh(t)[0] for t in texts]
    theirs = [HandHistory.loads(t) for t in texts]

    # Correctness first, outside the timing: both must reach the recorded stacks.
    ours_ok = sum(finishing_stacks(p, replay_phh(p)) == list(p.finishing_stacks or []) for p in ours)
    theirs_ok = 0
    for hh in theirs:
        *_, state = hh
        theirs_ok += list(state.stacks) == list(hh.finishing_stacks or [])

    def replay_ours() -> None:
        for p in ours:
            replay_phh(p)

    def replay_theirs() -> None:
        for hh in theirs:
            for _ in hh:
                pass

    def parse_ours() -> None:
        for t in texts:
            read_phh(t)

    def parse_theirs() -> None:
        for t in texts:
            HandHistory.loads(t)

    ours_replay = theirs_replay = float("inf")
    ratios = []
    for _ in range(args.repeat):  # alternate so that both see the same machine load
        a = best_of(1, replay_ours)
        b = best_of(1, replay_theirs)
        ratios.append(b / a)
        ours_replay, theirs_replay = min(ours_replay, a), min(theirs_replay, b)
    ours_parse = best_of(max(1, args.repeat // 2), parse_ours)
    theirs_parse = best_of(max(1, args.repeat // 2), parse_theirs)

    version = getattr(pokerkit, "__version__", None)
    if version is None:
        from importlib.metadata import version as dist_version

        version = dist_version("pokerkit")
    print(f"{n} hands from {path} (Python {platform.python_version()}, pokerkit {version}, "
          f"best of {args.repeat})")
    print(f"recorded finishing stacks reached: ours {ours_ok}/{n}, pokerkit {theirs_ok}/{n}")
    print(f"{'':22}{'ours':>14}{'pokerkit':>14}{'ratio':>9}")
    rows = [
        ("replay (hands/s)", n / ours_replay, n / theirs_replay),
        ("parse (hands/s)", n / ours_parse, n / theirs_parse),
        ("parse + replay", n / (ours_parse + ours_replay), n / (theirs_parse + theirs_replay)),
    ]
    for name, a, b in rows:
        print(f"{name:22}{a:14,.0f}{b:14,.0f}{a / b:8.1f}x")
    print(f"per hand, replay: ours {ours_replay / n * 1e6:.0f} µs, pokerkit {theirs_replay / n * 1e6:.0f} µs")
    print(f"replay ratio run by run: median {statistics.median(ratios):.1f}x "
          f"({', '.join(f'{r:.1f}' for r in ratios)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
