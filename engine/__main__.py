"""``python -m engine replay FILE...`` and ``python -m engine positions``: the engine's contracts.

``replay`` replays hands in the PHH standard through the engine's validation and prints
one JSON object per hand; ``positions`` reads dead-button scenarios as JSON lines on
standard input and answers one JSON line for each. See the README.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay PHH hand histories and print one JSON line per hand")
    rp.add_argument("files", nargs="+", metavar="FILE")
    sub.add_parser("positions", help="answer dead-button scenarios read as JSON lines on stdin")
    args = parser.parse_args(argv)
    if args.command == "replay":
        from engine.phh import replay_main

        return replay_main(args.files, sys.stdout)
    from engine.positions import positions_main

    return positions_main(sys.stdin, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
