"""Golden hands: every ``scenarios/*.txt`` is replayed line by line.

The format is described in ``scenarios/README.md``: the set-up, then ``> entry`` lines
applied with :meth:`Hand.apply`, ``! entry = message`` lines that must be refused with
exactly that message, and ``? what ...`` lines that check the hand at that point.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import EngineError
from engine.hand import Hand, HandSetup

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.txt"))


def seat_map(text: str) -> dict[int, int]:
    return {int(k): int(v) for k, v in (pair.split("=") for pair in text.split())}


def read_setup(header: dict[str, str]) -> HandSetup:
    small, big = (int(x) for x in header["blinds"].split("/"))
    sb = header["small blind"]
    return HandSetup(
        stacks=seat_map(header["seats"]),
        button=int(header["button"]),
        small_blind_seat=None if sb == "dead" else int(sb),
        big_blind_seat=int(header["big blind"]),
        small_blind=small,
        big_blind=big,
        antes=seat_map(header.get("antes", "")),
        big_blind_ante=int(header.get("big blind ante", "0")),
        free_fold=header.get("free fold", "warn"),
    )


def check(hand: Hand, what: str, rest: str, where: str) -> None:
    if what == "turn":
        assert hand.turn == (None if rest == "none" else int(rest)), where
    elif what == "street":
        assert hand.street == rest, where
    elif what == "stacks":
        stacks = hand.stacks()
        assert {s: stacks[s] for s in seat_map(rest)} == seat_map(rest), where
    elif what == "bets":
        bets = hand.bets()
        assert {s: bets[s] for s in seat_map(rest)} == seat_map(rest), where
    elif what == "pots":
        expected = [] if rest == "none" else [
            (int(amount), tuple(int(s) for s in seats.split(",")))
            for amount, seats in (p.split(":") for p in rest.split())
        ]
        assert [(p.amount, p.eligible) for p in hand.pots()] == expected, where
    elif what == "legal":
        legal = hand.legal_actions()
        assert legal is not None, where
        values = {
            "call": legal.call_amount,
            "min": legal.min_bet_or_raise_to,
            "max": legal.max_bet_or_raise_to,
            "check": legal.can_check,
            "fold": legal.can_fold,
            "allin": legal.can_all_in,
        }
        for pair in rest.split():
            key, value = pair.split("=")
            wanted: object = {"-": None, "yes": True, "no": False}.get(value)
            if value not in ("-", "yes", "no"):
                wanted = int(value)
            assert values[key] == wanted, f"{where}: {key} is {values[key]}"
    elif what == "showdown":
        assert hand.showdown_order() == tuple(int(s) for s in rest.split()), where
    elif what == "award":
        assert hand.award is not None, where
        expected = rest if rest.endswith(".") else rest + "."
        assert hand.award.describe() == expected, where
    else:
        raise AssertionError(f"{where}: unknown check {what!r}")


def run_scenario(path: Path) -> Hand:
    header: dict[str, str] = {}
    hand: Hand | None = None
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.strip()
        where = f"{path.name}:{number}: {line}"
        if not line or line.startswith("#"):
            continue
        if line[0] not in ">!?":
            assert hand is None, f"{where}: set-up after the first action"
            key, value = line.split(":", 1)
            header[key.strip()] = value.strip()
            continue
        if hand is None:
            hand = Hand(read_setup(header))
        body = line[1:].strip()
        if line[0] == ">":
            hand.apply(body)
        elif line[0] == "!":
            entry, message = (part.strip() for part in body.split(" = ", 1))
            log = list(hand.log)
            with pytest.raises(EngineError) as refused:
                hand.apply(entry)
            assert str(refused.value) == message, where
            assert hand.log == log, where
        else:
            what, _, rest = body.partition(" ")
            check(hand, what, rest.strip(), where)
    assert hand is not None, f"{path.name} has no actions"
    return hand


def test_there_are_golden_scenarios():
    assert len(SCENARIOS) >= 8


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_golden_scenario(path: Path):
    hand = run_scenario(path)
    total = sum(hand.setup.stacks.values())
    assert sum(hand.stacks().values()) + sum(hand.bets().values()) + sum(
        p.amount for p in hand.pots()
    ) == total
    # Replaying the log rebuilds the same hand.
    again = Hand.replay(hand.setup, hand.log)
    assert again.stacks() == hand.stacks()
    assert again.street == hand.street
