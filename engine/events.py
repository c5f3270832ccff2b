"""The event machinery, knowing no game: events, their fold, undo by checkpoints.

A game's state (a tournament, a cash session, the club's ledger) is the fold of its events:
``create`` makes the state from the first event and each later event goes to its handler.
Applying one event costs the same at event 100 as at event 100,000: a state never keeps its
predecessors. An ``undo`` event cancels the last live event (several undos in a row go back
further), and a ``redo`` applies it again (until a new event is entered); it is answered from the :class:`History` that each state carries: the state at a
checkpoint every :data:`CHECKPOINT_EVERY` live events and the live events since, so an undo
refolds at most that many events.

A state is a frozen dataclass with the fields ``seq`` (its last event's number) and
``history`` (a :class:`History`). States are values: applying an event to a state returns a
new one and leaves the old one as it was, so a caller may try an event and throw the result
away.

>>> from dataclasses import dataclass, field, replace
>>> @dataclass(frozen=True)
... class Count:
...     seq: int
...     total: int = 0
...     history: History = field(default_factory=History, repr=False, compare=False)
>>> handlers = {"add": lambda s, e: replace(s, total=s.total + e.payload["n"])}
>>> def apply(state, event):
...     return apply_event(state, event, handlers, "count event")
>>> events = [Event(1, "created", {}, 0.0)] + [Event(i, "add", {"n": i}, 0.0) for i in range(2, 6)]
>>> state = fold_events(events, lambda e: Count(e.seq), apply, "no events")
>>> state.total, apply(state, Event(6, "undo", {}, 0.0)).total
(14, 9)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import Field, dataclass, replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine.errors import EngineError, IllegalAction, InvalidInput, Message, Term

CHECKPOINT_EVERY = 128
"""Live events between two checkpoints: an undo refolds at most this many events."""
CHECKPOINTS_KEPT = 8
"""Checkpoints that keep their state, besides the first: an undo further back than
``CHECKPOINT_EVERY * CHECKPOINTS_KEPT`` live events refolds from the first one. The events
are all kept, so every undo still works, and memory holds a few states, not one per
checkpoint."""

_T = TypeVar("_T")


@dataclass(frozen=True)
class Event:
    """One stored event: its sequence number, type, JSON payload and time (epoch seconds)."""

    seq: int
    type: str
    payload: Mapping[str, Any]
    at: float


# --------------------------------------------------------------------------- a persistent list

_CHUNK = 64


@dataclass(frozen=True)
class Vec(Generic[_T]):
    """An immutable list that grows at the end in constant time: full chunks of
    :data:`_CHUNK` items, then the last, partial one. Appending copies the partial chunk
    only (and, once a chunk fills, the list of chunks: one pointer per 64 items).

    >>> v = Vec[int]()
    >>> for i in range(130):
    ...     v = v.append(i)
    >>> len(v), v[0], v[129], v[-1], list(v)[63:66], list(v.reversed())[:2]
    (130, 0, 129, 129, [63, 64, 65], [129, 128])
    """

    chunks: tuple[tuple[_T, ...], ...] = ()
    last: tuple[_T, ...] = ()

    def append(self, item: _T) -> Vec[_T]:
        if len(self.last) < _CHUNK:
            return Vec(self.chunks, (*self.last, item))
        return Vec((*self.chunks, self.last), (item,))

    def __len__(self) -> int:
        return len(self.chunks) * _CHUNK + len(self.last)

    def __bool__(self) -> bool:
        return bool(self.last)

    def __iter__(self) -> Iterator[_T]:
        for chunk in self.chunks:
            yield from chunk
        yield from self.last

    def reversed(self) -> Iterator[_T]:
        yield from reversed(self.last)
        for chunk in reversed(self.chunks):
            yield from reversed(chunk)

    def __getitem__(self, index: int) -> _T:
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("Vec index out of range")
        whole = len(self.chunks) * _CHUNK
        if index >= whole:
            return self.last[index - whole]
        return self.chunks[index // _CHUNK][index % _CHUNK]

    @property
    def final(self) -> _T | None:
        """The last item, or None when empty."""
        return self.last[-1] if self.last else None

    @classmethod
    def of(cls, items: Iterable[_T]) -> Vec[_T]:
        result: Vec[_T] = cls()
        for item in items:
            result = result.append(item)
        return result


# --------------------------------------------------------------------------- history and undo


@dataclass(frozen=True)
class Checkpoint:
    """A state kept for undo (without its own history), its depth in live events, and the
    live events that followed it up to the next checkpoint. ``state`` is ``None`` once
    newer checkpoints are enough (see :data:`CHECKPOINTS_KEPT`)."""

    depth: int
    state: Any
    events: tuple[Event, ...]


@dataclass(frozen=True)
class History:
    """What a state needs to undo: the last checkpoint and the live events since it, and the
    earlier checkpoints. ``depth`` counts the live events after the first one."""

    depth: int = 0
    base: Any = None
    """The state at the last checkpoint (``None``: the state is its own first checkpoint)."""
    tail: tuple[Event, ...] = ()
    earlier: tuple[Checkpoint, ...] = ()
    floor: int = 0
    """The depth below which this history was cut (:meth:`cut`): an undo past it raises
    :class:`HistoryCut`, and the caller folds the stored events again."""
    undone: tuple[Event, ...] = ()
    """The events taken back by the undos since the last new event, the latest last: what a
    ``redo`` applies again. Any other event empties it."""

    def cut(self) -> History:
        """This history with only the checkpoints that keep their state: what a snapshot
        stores (a few states and about a thousand events, however long the night)."""
        kept = self.earlier[-CHECKPOINTS_KEPT:]
        if len(kept) == len(self.earlier):
            return self
        return replace(self, earlier=kept, floor=kept[0].depth)

    @property
    def last_event(self) -> Event | None:
        if self.tail:
            return self.tail[-1]
        return self.earlier[-1].events[-1] if self.earlier else None

    def recent(self) -> Iterator[Event]:
        """The live events, newest first (stop when you have enough)."""
        yield from reversed(self.tail)
        for checkpoint in reversed(self.earlier):
            yield from reversed(checkpoint.events)

    def live(self) -> list[Event]:
        """Every live event after the first, in order (walks the whole night: for exports)."""
        events = [e for c in self.earlier for e in c.events]
        events.extend(self.tail)
        return events

    def since(self, seq: int) -> list[Event] | None:
        """The live events after ``seq`` in order, or ``None`` if an event after ``seq`` was
        undone (then the caller cannot know what its page missed)."""
        later: list[Event] = []
        for event in self.recent():
            if event.seq <= seq:
                break
            later.append(event)
        later.reverse()
        expected = list(range(seq + 1, seq + 1 + len(later)))
        return later if [e.seq for e in later] == expected else None


class HistoryCut(LookupError):
    """An undo reaches further back than a restored history holds: fold the events again."""


class _EventState(Protocol):
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def seq(self) -> int: ...

    @property
    def history(self) -> History: ...


_S = TypeVar("_S", bound=_EventState)


def _bare(state: _S) -> _S:
    """``state`` without its history (what a checkpoint keeps)."""
    history = state.history
    if history.base is None and not history.tail and not history.earlier:  # no field compared deeply
        return state
    return replace(state, history=_EMPTY)


_EMPTY = History()


def _push(before: _S, new: _S, event: Event, undone: tuple[Event, ...] = ()) -> History:
    history = before.history
    base = history.base if history.base is not None else _bare(before)
    tail = (*history.tail, event)
    if len(tail) < CHECKPOINT_EVERY:
        return History(history.depth + 1, base, tail, history.earlier, history.floor, undone)
    done = Checkpoint(history.depth + 1 - len(tail), base, tail)
    earlier = (*history.earlier, done)
    old = len(earlier) - 1 - CHECKPOINTS_KEPT
    if old > 0 and earlier[old].state is not None:
        earlier = (*earlier[:old], replace(earlier[old], state=None), *earlier[old + 1 :])
    return History(history.depth + 1, _bare(new), (), earlier, history.floor, undone)


def apply_event(
    state: _S,
    event: Event,
    handlers: Mapping[str, Callable[[_S, Event], _S]],
    unknown: str,
    after: Callable[[_S, _S, Event], _S] | None = None,
) -> _S:
    """The state after ``event``: ``undo`` refolds to the state before the last live event
    (from the last checkpoint); any other type goes to its handler, then ``after(state, new,
    event)``. ``unknown`` names the event in the refusal of a type without a handler."""
    if event.seq != state.seq + 1:
        raise InvalidInput(
            "Event {event} cannot follow event {previous}.", event=str(event.seq), previous=str(state.seq)
        )
    if event.type == "undo":
        return _undo(state, event, handlers, after)
    if event.type == "redo":
        return _redo(state, event, handlers, after)
    handler = handlers.get(event.type)
    if handler is None:
        raise InvalidInput("Unknown {unknown} type {type}.", unknown=Term(unknown), type=repr(event.type))
    new = handler(state, event)
    if after is not None:
        new = after(state, new, event)
    return replace(new, seq=event.seq, history=_push(state, new, event))


def _undo(
    state: _S,
    event: Event,
    handlers: Mapping[str, Callable[[_S, Event], _S]],
    after: Callable[[_S, _S, Event], _S] | None,
) -> _S:
    history = state.history
    if history.depth == 0:
        raise IllegalAction("There is nothing to undo.")
    entry = event.payload.get("entry")
    last = history.last_event
    if entry is not None and (last is None or int(entry) != last.seq):
        return _take_back(state, event, int(entry), handlers, after)
    if history.depth <= history.floor:
        raise HistoryCut(f"Undo below live event {history.floor} needs the stored events.")
    def refold(state: _S, events: tuple[Event, ...]) -> _S:
        for replayed in events:
            new = handlers[replayed.type](state, replayed)
            if after is not None:
                new = after(state, new, replayed)
            state = replace(new, seq=replayed.seq)
        return state

    if history.tail:
        base, tail, earlier = history.base, history.tail[:-1], history.earlier
        taken = history.tail[-1]
    else:  # back across the last checkpoint
        checkpoint = history.earlier[-1]
        taken = checkpoint.events[-1]
        base, tail, earlier = checkpoint.state, checkpoint.events[:-1], history.earlier[:-1]
        if base is None:  # a thinned checkpoint: refold from the last one that kept its state
            start = max(i for i, c in enumerate(earlier) if c.state is not None)
            base = earlier[start].state
            for passed in earlier[start:]:
                base = refold(base, passed.events)
            base = _bare(base)
    kept = History(history.depth - 1, base, tail, earlier, history.floor, (*history.undone, taken))
    return replace(refold(base, tail), seq=event.seq, history=kept)


def _take_back(
    state: _S,
    event: Event,
    entry: int,
    handlers: Mapping[str, Callable[[_S, Event], _S]],
    after: Callable[[_S, _S, Event], _S] | None,
) -> _S:
    """An undo that names the live event it takes back (``{"entry": seq}``), not the last one:
    the entry the director made before the tables played on. The state is the fold of the
    live events without it, from the checkpoint before it; every later event must still
    apply there, else the undo is refused with what depends on the entry."""
    history = state.history
    if any(e.seq == entry for e in history.tail):
        base, depth, prior = history.base, history.depth - len(history.tail), history.earlier
        events: tuple[Event, ...] = history.tail
    else:
        found = next((i for i in range(len(history.earlier) - 1, -1, -1)
                      if any(e.seq == entry for e in history.earlier[i].events)), None)
        if found is None:
            if history.floor > 0:
                raise HistoryCut(f"Taking back event {entry} needs the stored events.")
            raise IllegalAction("Entry {entry} is not standing: it cannot be taken back.", entry=str(entry))
        checkpoint, prior = history.earlier[found], history.earlier[:found]
        base, depth = checkpoint.state, checkpoint.depth
        if base is None:  # a thinned checkpoint: refold from the last one before it that kept its state
            start = max((i for i, c in enumerate(prior) if c.state is not None), default=None)
            if start is None:
                raise HistoryCut(f"Taking back event {entry} needs the stored events.")
            base = prior[start].state
            for passed in prior[start:]:
                for replayed in passed.events:
                    new = handlers[replayed.type](base, replayed)
                    base = replace(after(base, new, replayed) if after is not None else new, seq=replayed.seq)
            base = _bare(base)
        events = tuple(e for c in history.earlier[found:] for e in c.events) + history.tail
    taken = next(e for e in events if e.seq == entry)
    again: _S = replace(base, history=History(depth, None, (), prior, history.floor))
    try:
        for replayed in events:
            if replayed.seq == entry:
                continue
            new = handlers[replayed.type](again, replayed)
            if after is not None:
                new = after(again, new, replayed)
            again = replace(new, seq=replayed.seq, history=_push(again, new, replayed))
    except EngineError as error:
        raise IllegalAction("This cannot be taken back alone: what was entered after it depends on it "
                            "({reason}).", reason=Message(error.message, **error.values)) from None
    return replace(again, seq=event.seq, history=replace(again.history, undone=(*history.undone, taken)))


def _redo(
    state: _S,
    event: Event,
    handlers: Mapping[str, Callable[[_S, Event], _S]],
    after: Callable[[_S, _S, Event], _S] | None,
) -> _S:
    """Apply again the event the last undo took back, as it was (its payload and its time),
    under the redo's number; the undos before it may be redone next."""
    undone = state.history.undone
    if not undone:
        raise IllegalAction("There is nothing to redo: redo follows an undo, before anything new is entered.")
    again = Event(event.seq, undone[-1].type, undone[-1].payload, undone[-1].at)
    new = handlers[again.type](state, again)
    if after is not None:
        new = after(state, new, again)
    return replace(new, seq=event.seq, history=_push(state, new, again, undone[:-1]))


def fold_events(
    events: Iterable[Event],
    create: Callable[[Event], _S],
    apply: Callable[[_S, Event], _S],
    missing: str,
) -> _S:
    """The state after all ``events``: ``create`` the first, ``apply`` the rest;
    ``missing`` is the refusal when there is no event at all."""
    iterator = iter(events)
    first = next(iterator, None)
    if first is None:
        raise InvalidInput(missing)
    state = create(first)
    for event in iterator:
        state = apply(state, event)
    return state


__all__ = [
    "CHECKPOINTS_KEPT",
    "CHECKPOINT_EVERY",
    "Checkpoint",
    "Event",
    "History",
    "HistoryCut",
    "Vec",
    "apply_event",
    "fold_events",
]
