"""The colour-up recorded into the stacks (``engine.colour``; TDA 52-53, seed 002: "the break
is also when the smallest chips are exchanged for bigger ones")."""

from __future__ import annotations

import pytest

from engine.dealing import chip_check, stack_of
from engine.errors import IllegalAction
from engine.structure import Break, Level, Structure, structure_to_dict
from engine.tournament import Event, Tournament, apply, fold

T0 = 1_000.0
STRUCTURE = Structure(
    "colour", (Level(25, 50, minutes=10), Break(10, (25,)), Level(100, 200, minutes=10)), 10_000,
    denominations=(25, 100, 500),
)


class Night:
    def __init__(self) -> None:
        self.seq = 1
        self.state: Tournament = fold([Event(1, "created", {"name": "F", "structure": structure_to_dict(STRUCTURE)}, 0.0)])
        for name in ("Ann", "Bob", "Cy"):
            self.add("player_registered", T0, name=name)
        self.add("seats_drawn", T0, seats={"1": [1, 1], "2": [1, 2], "3": [1, 3]}, buttons={"1": 1})
        self.add("clock", T0, action="start")

    def add(self, type_: str, at: float, **payload: object) -> Tournament:
        self.state = apply(self.state, Event(self.seq + 1, type_, payload, at))
        self.seq += 1
        return self.state


def test_at_a_table_the_assistant_follows_the_stacks_are_its_own_and_the_chip_count_holds():
    night = Night()
    night.add("hand_started", T0 + 60, table=1)  # button 1, blinds 2 (25) and 3 (50)
    night.add("hand_action", T0 + 61, table=1, actions=["p1 f", "p2 f"])  # seat 3 wins 25
    assert [stack_of(night.state, p) for p in (1, 2, 3)] == [10_000, 9_975, 10_025]
    night.add("colour_up", T0 + 11 * 60, table=1, seed=7)
    record = night.state.colour_ups[-1]
    assert not record.counted and record.races[0].removed == 25 and record.races[0].into == 100
    # Bob's 75 and Cy's 25 odd chips (100 in all) are raced for one 100 chip.
    after = [stack_of(night.state, p) for p in (1, 2, 3)]
    # With this seed Bob's three cards beat Cy's one: Bob wins the chip.
    assert record.races[0].winners == (2,) and after == [10_000, 10_000, 10_000]
    assert night.state.chips_in_play == 30_000 and chip_check(night.state).difference == 0
    assert all(s % 100 == 0 for s in after)


def test_a_colour_up_is_refused_during_a_hand_and_twice_at_one_break():
    night = Night()
    night.add("hand_started", T0 + 60, table=1)
    with pytest.raises(IllegalAction, match="Table 1 is still playing hand 1: colour up once it is over"):
        night.add("colour_up", T0 + 11 * 60, table=1, seed=1)
    night.add("hand_action", T0 + 11 * 60, table=1, actions=["p1 f", "p2 f"])
    night.add("colour_up", T0 + 11 * 60 + 1, table=1, seed=1)
    with pytest.raises(IllegalAction, match="Table 1 has already coloured up at this break"):
        night.add("colour_up", T0 + 11 * 60 + 2, table=1, seed=1)


def test_the_same_seed_replays_the_same_race():
    first, second = Night(), Night()
    for night in (first, second):
        night.add("colour_up", T0 + 11 * 60, table=1, seed=42, stacks={"1": 10_025, "2": 10_050, "3": 9_925})
    assert first.state.colour_ups[-1].races == second.state.colour_ups[-1].races
