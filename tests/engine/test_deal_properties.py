"""Property: whatever the seat draw, the busts and the players who joined a table since its
last hand (moved in by balancing, a late entry), the next hand's positions make a hand the
engine deals. Seen once on a real night: the app refused its own *Deal* at a three-player
table after busts, with a player waiting ("Heads-up the button posts the small blind: seat 5
is the button, not seat 1")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hand_setup import HandSetup
from engine.table import plan_next


@st.composite
def nights(draw: st.DrawFn) -> tuple[int, list[int], int, list[tuple[set[int], set[int]]]]:
    """A table of 2-10 seats, the seats drawn, the first button, and for each later hand the
    seats that busted in the hand before and the seats newly filled."""
    size = draw(st.integers(2, 10))
    seats = sorted(draw(st.sets(st.integers(1, size), min_size=2, max_size=size)))
    button = draw(st.sampled_from(seats))
    steps = draw(st.lists(st.tuples(st.sets(st.integers(1, size), max_size=3), st.sets(st.integers(1, size), max_size=2)),
                          max_size=12))
    return size, seats, button, steps


def _setup(plan: object) -> HandSetup:
    positions = plan.positions  # type: ignore[attr-defined]
    return HandSetup(stacks=dict.fromkeys(plan.dealt, 1000), button=positions.button,  # type: ignore[attr-defined]
                     small_blind_seat=positions.small_blind, big_blind_seat=positions.big_blind,
                     small_blind=10, big_blind=20)


@settings(max_examples=600, deadline=None)
@given(nights())
def test_every_next_hand_is_one_the_engine_deals(night: tuple[int, list[int], int, list[tuple[set[int], set[int]]]]) -> None:
    size, seats, button, steps = night
    live = set(seats)
    plan = plan_next(None, live, (), size, button=button)
    _setup(plan)
    for busted, joined in steps:
        out = busted & live
        if len(live - out) < 1:
            continue
        live -= out
        new = joined - live
        live |= new
        if len(live) < 2:
            break
        plan = plan_next(plan.positions, live, new, size)
        assert set(plan.dealt) | set(plan.waiting) == live
        assert len(plan.dealt) >= 2, plan
        _setup(plan)  # raises where the positions do not make a hand
