"""Redo (issue "The table's accidents", part 5) in the event machinery: "undo several steps,
then redo them, until a new entry makes the redo stack empty"."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from engine.errors import IllegalAction
from engine.events import CHECKPOINT_EVERY, Event, History, apply_event, fold_events


@dataclass(frozen=True)
class Count:
    seq: int
    total: int = 0
    history: History = field(default_factory=History, repr=False, compare=False)


HANDLERS = {"add": lambda s, e: replace(s, total=s.total + e.payload["n"])}


def apply(state, event):
    return apply_event(state, event, HANDLERS, "count event")


def test_undo_across_checkpoints_then_redo_gives_the_same_states_back():
    n = CHECKPOINT_EVERY * 2 + 7
    events = [Event(1, "created", {}, 0.0)] + [Event(i, "add", {"n": i}, float(i)) for i in range(2, n)]
    state = fold_events(events, lambda e: Count(e.seq), apply, "none")
    totals = [state.total]
    seq = state.seq
    for _ in range(CHECKPOINT_EVERY + 3):  # back across a checkpoint
        seq += 1
        state = apply(state, Event(seq, "undo", {}, 0.0))
        totals.append(state.total)
    for expected in reversed(totals[:-1]):
        seq += 1
        state = apply(state, Event(seq, "redo", {}, 0.0))
        assert state.total == expected
    with pytest.raises(IllegalAction, match="nothing to redo"):
        apply(state, Event(seq + 1, "redo", {}, 0.0))
    # The stored log folds to the same state, undos and redos included.
    log = [*events]
    s = seq - (CHECKPOINT_EVERY + 3) * 2
    log += [Event(i, "undo", {}, 0.0) for i in range(s + 1, s + CHECKPOINT_EVERY + 4)]
    log += [Event(i, "redo", {}, 0.0) for i in range(s + CHECKPOINT_EVERY + 4, seq + 1)]
    assert fold_events(log, lambda e: Count(e.seq), apply, "none").total == state.total


def test_a_redo_applies_the_event_as_it_was_and_can_be_undone_again():
    events = [Event(1, "created", {}, 0.0), Event(2, "add", {"n": 5}, 7.0)]
    state = fold_events(events, lambda e: Count(e.seq), apply, "none")
    state = apply(state, Event(3, "undo", {}, 9.0))
    state = apply(state, Event(4, "redo", {}, 9.5))
    again = state.history.last_event
    assert (again.seq, again.type, again.payload, again.at) == (4, "add", {"n": 5}, 7.0)
    state = apply(state, Event(5, "undo", {}, 10.0))
    assert state.total == 0
    state = apply(state, Event(6, "redo", {}, 11.0))
    assert state.total == 5


def test_a_new_event_empties_the_redo_stack():
    events = [Event(1, "created", {}, 0.0), Event(2, "add", {"n": 5}, 0.0), Event(3, "add", {"n": 6}, 0.0)]
    state = fold_events(events, lambda e: Count(e.seq), apply, "none")
    state = apply(state, Event(4, "undo", {}, 0.0))
    state = apply(state, Event(5, "add", {"n": 100}, 0.0))
    with pytest.raises(IllegalAction, match="nothing to redo"):
        apply(state, Event(6, "redo", {}, 0.0))
