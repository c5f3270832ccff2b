"""The ``poker-director`` command."""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="poker-director")
    parser.parse_args(argv)
    return 0
