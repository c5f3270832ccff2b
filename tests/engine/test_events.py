"""The event machinery (engine.events): the growing Vec, undo by checkpoints, and a long
night whose undos across checkpoints agree with a fold of the events left live."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import IllegalAction
from engine.events import CHECKPOINT_EVERY, Event, History, Vec, apply_event, fold_events


@dataclass(frozen=True)
class Total:
    seq: int
    items: tuple[int, ...] = ()
    history: History = field(default_factory=History, repr=False, compare=False)


HANDLERS = {"add": lambda s, e: replace(s, items=(*s.items, e.payload["n"]))}


def apply(state: Total, event: Event) -> Total:
    return apply_event(state, event, HANDLERS, "total event")


def create(event: Event) -> Total:
    return Total(event.seq)


def test_vec_appends_indexes_and_iterates_like_a_list() -> None:
    items = list(range(300))
    vec = Vec.of(items)
    assert list(vec) == items and len(vec) == 300
    assert [vec[i] for i in (0, 63, 64, 65, 127, 128, 299, -1, -300)] == [0, 63, 64, 65, 127, 128, 299, 299, 0]
    assert list(vec.reversed()) == items[::-1] and vec.final == 299
    assert not Vec() and Vec().final is None
    with pytest.raises(IndexError):
        vec[300]
    grown = vec.append(300)
    assert len(vec) == 300 and len(grown) == 301  # the old one is unchanged


def _needs(state: Total, event: Event) -> Total:
    """An entry that depends on an earlier one: the number it names must be live."""
    if event.payload["on"] not in state.items:
        raise IllegalAction("{n} needs {on}.", n=event.payload["n"], on=event.payload["on"])
    return replace(state, items=(*state.items, event.payload["n"]))


HANDLERS["needs"] = _needs

OPS = st.one_of(st.integers(0, 9), st.just("undo"), st.just("redo"), st.tuples(st.just("back"), st.integers(0, 10**6)))


@given(st.lists(OPS, max_size=3 * CHECKPOINT_EVERY + 40))
def test_undo_agrees_with_a_fold_of_the_live_events(ops: list[object]) -> None:
    """Whatever the mix of events, undos, redos and undos that name the live entry they take
    back (the director's, with the tables' play after it), whichever checkpoint holds it: the
    state is the fold of the events left live, and a redo puts the last one taken back at the
    end."""
    state = Total(1)
    live: list[int] = []
    seq = 1
    for op in ops:
        seq += 1
        if op in ("undo", "back") or isinstance(op, tuple):
            if not live:
                with pytest.raises(IllegalAction, match="nothing to undo"):
                    apply(state, Event(seq, "undo", {}, 0.0))
                seq -= 1
                continue
            entries = [e.seq for e in state.history.live()]
            entry = entries[op[1] % len(entries)] if isinstance(op, tuple) else entries[-1]
            live.pop(entries.index(entry))
            state = apply(state, Event(seq, "undo", {"entry": entry} if isinstance(op, tuple) else {}, 0.0))
            assert state.history.undone[-1].seq == entry
        elif op == "redo":
            if not state.history.undone:
                seq -= 1
                continue
            live.append(state.history.undone[-1].payload["n"])
            state = apply(state, Event(seq, "redo", {}, 0.0))
        else:
            live.append(seq)
            state = apply(state, Event(seq, "add", {"n": seq}, 0.0))
        assert state.items == tuple(live) and state.history.depth == len(live) and state.seq == seq
        assert [e.payload["n"] for e in state.history.live()] == live


def test_an_undo_that_names_its_entry_is_refused_when_a_later_entry_depends_on_it() -> None:
    state = fold_events([Event(1, "created", {}, 0.0)], create, apply, "none")
    state = apply(state, Event(2, "add", {"n": 2}, 0.0))
    state = apply(state, Event(3, "needs", {"n": 3, "on": 2}, 0.0))
    state = apply(state, Event(4, "add", {"n": 4}, 0.0))
    with pytest.raises(IllegalAction, match=r"^This cannot be taken back alone: what was entered after it "
                                            r"depends on it \(3 needs 2\.\)\.$"):
        apply(state, Event(5, "undo", {"entry": 2}, 0.0))
    with pytest.raises(IllegalAction, match="Entry 9 is not standing"):
        apply(state, Event(5, "undo", {"entry": 9}, 0.0))
    assert apply(state, Event(5, "undo", {"entry": 3}, 0.0)).items == (2, 4)
    assert apply(state, Event(5, "undo", {"entry": 4}, 0.0)).items == (2, 3)  # the last: a plain undo


def test_an_undo_that_names_an_entry_far_back_refolds_from_a_checkpoint_that_kept_its_state() -> None:
    from engine.events import CHECKPOINTS_KEPT

    count = CHECKPOINT_EVERY * (CHECKPOINTS_KEPT + 4) + 10
    events = [Event(1, "created", {}, 0.0)] + [Event(i, "add", {"n": i}, 0.0) for i in range(2, count + 2)]
    state = fold_events(events, create, apply, "none")
    assert state.history.earlier[3].state is None  # thinned
    for k, entry in enumerate((3 * CHECKPOINT_EVERY + 5, 2, count + 1, CHECKPOINT_EVERY + 1)):
        state = apply(state, Event(count + 2 + k, "undo", {"entry": entry}, 0.0))
        assert entry not in state.items
    assert state.items == tuple(n for n in range(2, count + 2)
                                if n not in (3 * CHECKPOINT_EVERY + 5, 2, count + 1, CHECKPOINT_EVERY + 1))
    assert state.history.depth == count - 4


def test_a_state_keeps_checkpoints_not_every_earlier_state() -> None:
    events = [Event(1, "created", {}, 0.0)] + [Event(i, "add", {"n": i}, 0.0) for i in range(2, 1002)]
    state = fold_events(events, create, apply, "none")
    history = state.history
    assert history.depth == 1000
    assert len(history.earlier) == 1000 // CHECKPOINT_EVERY
    assert len(history.tail) == 1000 % CHECKPOINT_EVERY
    assert all(c.state.history == History() for c in history.earlier)  # no chain of states
    assert [e.seq for e in history.earlier[0].events] == list(range(2, 2 + CHECKPOINT_EVERY))
    assert history.last_event is events[-1]
    assert history.since(995) == events[-6:]


def test_events_since_a_seq_says_when_one_was_undone() -> None:
    state = fold_events([Event(1, "created", {}, 0.0)], create, apply, "none")
    for seq in range(2, 6):
        state = apply(state, Event(seq, "add", {"n": seq}, 0.0))
    assert [e.seq for e in state.history.since(3) or []] == [4, 5]
    state = apply(state, Event(6, "undo", {}, 0.0))
    assert [e.seq for e in state.history.since(2) or []] == [3, 4]  # 5 is gone
    state = apply(state, Event(7, "add", {"n": 7}, 0.0))
    assert state.history.since(3) is None  # 5 was undone after 3: a page drawn at 3 missed it


def test_undo_many_times_across_checkpoints_on_a_random_night() -> None:
    rng = random.Random(7)
    state = fold_events([Event(1, "created", {}, 0.0)], create, apply, "none")
    live: list[int] = []
    for seq in range(2, 2000):
        if live and rng.random() < 0.3:
            live.pop()
            state = apply(state, Event(seq, "undo", {}, 0.0))
        else:
            live.append(seq)
            state = apply(state, Event(seq, "add", {"n": seq}, 0.0))
    assert state.items == tuple(live)


def test_undo_reaches_back_past_the_checkpoints_that_keep_their_state() -> None:
    """Only the last few checkpoints keep a state (memory stays small); an undo further back
    refolds from the first one, and every undo still lands on the fold of the live events."""
    from engine.events import CHECKPOINTS_KEPT

    count = CHECKPOINT_EVERY * (CHECKPOINTS_KEPT + 4) + 10
    events = [Event(1, "created", {}, 0.0)] + [Event(i, "add", {"n": i}, 0.0) for i in range(2, count + 2)]
    state = fold_events(events, create, apply, "none")
    kept = [c for c in state.history.earlier if c.state is not None]
    assert len(kept) == CHECKPOINTS_KEPT + 1 and state.history.earlier[0].state is not None
    seq = count + 1
    for left in range(count - 1, -1, -1):
        seq += 1
        state = apply(state, Event(seq, "undo", {}, 0.0))
        assert state.items == tuple(range(2, left + 2))


def test_the_engine_has_no_import_circle() -> None:
    """The direction of knowledge is one way: the events, the table and the notation know no
    game, and the dealing hosted by the tournament does not import it at run time."""
    import subprocess
    import sys

    code = (
        "import sys, engine.events, engine.table, engine.notation, engine.dealing, engine.cash;"
        "print(sorted(m for m in sys.modules if m == 'engine.tournament'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
