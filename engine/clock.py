"""The tournament clock: its state at any instant, from its events and ``now``.

Nothing here counts on its own. The events (start, pause, resume, adjust,
set_level, go_to, restructure, finish, hand_played) are folded in order and the clock is read at
``now`` (seconds since the epoch, passed in). Level and break ends chain through
time: an item ends at its start plus a whole number of seconds, computed as one
sum, so a clock read five hours in is exact to well under a millisecond.

Choices:

* Adjusting by more than is left ends the current level or break at once
  (the next item starts from its beginning); it never carries over.
* Events must come in time order; a ``now`` earlier than the last event is
  read as the time of the last event.
* A hand-counted structure (the sit-and-go) changes level on ``hand_played``
  events (or a hand count passed in), never on time; it has no time to adjust.
* A structure edited in play (``Restructure``) keeps the items already played; from the
  edit on the clock follows the new one. The item in play keeps its elapsed time (or
  starts again, ``restart``); shortened below what has run, it ends at the edit.
* ``pause_after_break``: the end of a break starts the next level paused (the director
  resumes when the tables are ready), instead of running.

>>> from engine.structure import Level, Structure
>>> s = Structure("demo", (Level(10, 20, minutes=15), Level(20, 40, minutes=15)), 1000)
>>> st = clock_state(s, [Start(1000.0)], now=1000.0 + 16 * 60)
>>> st.status, st.level_number, st.seconds_left, st.ends_at
('running', 2, 840.0, 2800.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Literal, TypeAlias

from engine.errors import IllegalAction, InvalidInput, Term
from engine.structure import (
    Break,
    Level,
    Structure,
    describe_break,
    describe_level,
    estimate_end,
    validate,
)

# ---------------------------------------------------------------------------
# Events


@dataclass(frozen=True, slots=True)
class Start:
    """The director starts the clock (at the current level, normally level 1)."""

    at: float
    kind: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class Pause:
    at: float
    kind: ClassVar[str] = "pause"


@dataclass(frozen=True, slots=True)
class Resume:
    at: float
    kind: ClassVar[str] = "resume"


@dataclass(frozen=True, slots=True)
class Adjust:
    """Add (``seconds`` > 0) or remove (< 0) time from the current level or break."""

    at: float
    seconds: float
    kind: ClassVar[str] = "adjust"


@dataclass(frozen=True, slots=True)
class SetLevel:
    """Jump to the start of level ``level`` (next, previous or any other).

    In a hand-counted structure the new level starts counting hands from the
    hands played at that moment: ``hands_played`` when given (for a caller that
    counts hands itself), otherwise the ``HandPlayed`` events so far.
    """

    at: float
    level: int
    hands_played: int | None = None
    kind: ClassVar[str] = "set_level"


@dataclass(frozen=True, slots=True)
class GoTo:
    """Jump to the start of item ``index`` of the structure (``Structure.items``, from 0):
    how "next level" goes into a break that comes next, and "break now" starts one."""

    at: float
    index: int
    kind: ClassVar[str] = "go_to"


@dataclass(frozen=True, slots=True)
class Restructure:
    """The director edits the structure in play: from ``at`` the clock follows ``structure``.

    The items before the one in play must be the same in both (the tournament checks it);
    the item in play keeps its elapsed time, or starts again from its beginning
    (``restart``).
    """

    at: float
    structure: Structure
    restart: bool = False
    kind: ClassVar[str] = "restructure"


@dataclass(frozen=True, slots=True)
class Finish:
    at: float
    kind: ClassVar[str] = "finish"


@dataclass(frozen=True, slots=True)
class HandPlayed:
    """One hand was completed (hand-counted structures change level on these)."""

    at: float
    kind: ClassVar[str] = "hand_played"


ClockEvent: TypeAlias = Start | Pause | Resume | Adjust | SetLevel | GoTo | Restructure | Finish | HandPlayed
Status: TypeAlias = Literal["not_started", "running", "paused", "on_break", "finished"]

EVENT_NAMES: dict[str, Term] = {
    "start": Term("start"), "pause": Term("pause"), "resume": Term("resume"), "adjust": Term("adjust"),
    "set_level": Term("set level"), "go_to": Term("go to"), "restructure": Term("restructure"),
    "finish": Term("finish"), "hand_played": Term("hand played"),
}
"""A clock event's name inside a sentence."""


def _event_name(kind: str) -> Term:
    return EVENT_NAMES.get(kind, Term(kind.replace("_", " ")))


_EVENT_TYPES: dict[str, type[ClockEvent]] = {
    c.kind: c for c in (Start, Pause, Resume, Adjust, SetLevel, GoTo, Finish, HandPlayed)
}
"""The events :func:`event_from_dict` reads (a ``Restructure`` carries a whole structure: the
tournament keeps it as its own event)."""


def event_to_dict(event: ClockEvent) -> dict[str, Any]:
    """``{"type": "adjust", "at": 1700000000.0, "seconds": 60}``: JSON-ready.

    >>> event_from_dict(event_to_dict(SetLevel(5.0, 3))) == SetLevel(5.0, 3)
    True
    """
    out: dict[str, Any] = {"type": event.kind, "at": event.at}
    if isinstance(event, Adjust):
        out["seconds"] = event.seconds
    if isinstance(event, SetLevel):
        out["level"] = event.level
        if event.hands_played is not None:
            out["hands_played"] = event.hands_played
    if isinstance(event, GoTo):
        out["index"] = event.index
    if isinstance(event, Restructure):
        raise InvalidInput("A structure edit is kept by the tournament, not as a clock event.")
    return out


def event_from_dict(data: Mapping[str, Any]) -> ClockEvent:
    """Read an event written by :func:`event_to_dict`."""
    kind = data.get("type")
    cls = _EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidInput("{kind} is not a clock event: use one of {kinds}.", kind=repr(kind), kinds=", ".join(_EVENT_TYPES))
    at = data.get("at")
    if isinstance(at, bool) or not isinstance(at, int | float):
        raise InvalidInput("The clock event {kind} needs a time 'at' in seconds, not {at}.", kind=repr(kind), at=repr(at))
    if cls is Adjust:
        secs = data.get("seconds")
        if isinstance(secs, bool) or not isinstance(secs, int | float):
            raise InvalidInput("A clock adjustment needs a number of seconds, not {seconds}.", seconds=repr(secs))
        return Adjust(float(at), secs)
    if cls is SetLevel:
        level = data.get("level")
        hands = data.get("hands_played")
        if isinstance(level, bool) or not isinstance(level, int):
            raise InvalidInput("A level jump needs a level number, not {level}.", level=repr(level))
        if hands is not None and (isinstance(hands, bool) or not isinstance(hands, int)):
            raise InvalidInput("A level jump's hands played must be a whole number, not {hands}.", hands=repr(hands))
        return SetLevel(float(at), level, hands)
    if cls is GoTo:
        index = data.get("index")
        if isinstance(index, bool) or not isinstance(index, int):
            raise InvalidInput("A jump needs the index of a level or break, not {index}.", index=repr(index))
        return GoTo(float(at), index)
    return cls(float(at))  # type: ignore[call-arg]


# ---------------------------------------------------------------------------
# The state


@dataclass(frozen=True, slots=True)
class ClockState:
    """What a TV or a director's screen shows at one instant."""

    status: Status
    """``on_break`` when running during a break; a paused break is ``paused`` with ``on_break``."""
    on_break: bool
    title: str
    """``Level 5 · 100/200 · ante 200`` or ``Break · 10 min · colour up the 25 chips``."""
    level_number: int | None
    """The level being played; ``None`` during a break."""
    level: Level | None
    current_break: Break | None
    small_blind: int | None
    big_blind: int | None
    ante: int | None
    continuing: bool
    """Past the last level of a structure without doubling: the last level goes on."""
    item_seconds: float | None
    """The current item's length with adjustments (``None`` when hand-counted or endless)."""
    elapsed: float
    """Seconds run in the current item."""
    seconds_left: float | None
    ends_at: float | None
    """Epoch when the current item ends, while the clock runs; ``None`` when paused or stopped."""
    next_level_number: int | None
    next_level: Level | None
    break_next: bool
    """Whether a break comes right after the current level."""
    seconds_to_break: float | None
    """Seconds until the next break starts (``None`` when no break is ahead)."""
    break_starts_at: float | None
    colour_up_now: tuple[int, ...]
    """Chips removed at the current break."""
    next_break_colour_up: tuple[int, ...]
    """Chips that will be removed at the next break."""
    seconds_to_end: float | None
    """Seconds until the last listed level ends (``None`` when the blinds double on for ever,
    or hand-counted); 0 once the last level is continuing."""
    hands_played: int
    hands_in_level: int | None
    hands_left_in_level: int | None
    hand_cap: int | None
    hand_cap_reached: bool
    item_index: int
    """Where the clock is in ``structure.items`` (counting on past the list)."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """A structure laid out for the clock, computed once per structure."""

    structure: Structure
    seconds: tuple[int | None, ...]
    level_of: tuple[int | None, ...]
    index_of_level: tuple[int, ...]
    next_break: tuple[int | None, ...]
    """For each item, the index of the first break after it."""
    seconds_after: tuple[int, ...]
    """For each item, the seconds of all listed items after it."""
    entries: tuple[tuple[Level | Break, int | None, int | None, bool], ...]
    n: int
    last_seconds: int | None

    def item(self, k: int) -> tuple[Level | Break, int | None, int | None, bool]:
        """(item, level number, seconds, continuing) at timeline index ``k``."""
        if k < self.n:
            return self.entries[k]
        s = self.structure
        if s.repeat_doubling:
            number = s.level_count + (k - self.n) + 1
            return s.level(number), number, self.last_seconds, False
        return s.levels[-1], s.level_count, None, True

    def index(self, number: int) -> int:
        if number <= len(self.index_of_level):
            return self.index_of_level[number - 1]
        return self.n + (number - len(self.index_of_level) - 1)


@lru_cache(maxsize=128)
def _plan(structure: Structure) -> _Plan:
    validate(structure)
    items = structure.items
    seconds = tuple(i.seconds for i in items)
    level_of: list[int | None] = []
    index_of_level: list[int] = []
    for k, item in enumerate(items):
        if isinstance(item, Level):
            index_of_level.append(k)
            level_of.append(len(index_of_level))
        else:
            level_of.append(None)
    next_break: list[int | None] = [None] * len(items)
    upcoming: int | None = None
    after: list[int] = [0] * len(items)
    total = 0
    for k in range(len(items) - 1, -1, -1):
        next_break[k] = upcoming
        after[k] = total
        if isinstance(items[k], Break):
            upcoming = k
        total += seconds[k] or 0
    entries = tuple((items[k], level_of[k], seconds[k], False) for k in range(len(items)))
    return _Plan(
        structure,
        seconds,
        tuple(level_of),
        tuple(index_of_level),
        tuple(next_break),
        tuple(after),
        entries,
        len(items),
        structure.levels[-1].seconds,
    )


@dataclass(frozen=True)
class ClockEntry:
    """A director's clock action as a tournament keeps it: what, when, and its amount."""

    action: str
    at: float
    seconds: int = 0



def clock_state(
    structure: Structure,
    events: Iterable[ClockEvent],
    now: float,
    hands_played: int | None = None,
    pause_after_break: bool = False,
) -> ClockState:
    """The clock at ``now`` after ``events`` (in time order), ``structure`` being the one
    the clock started with (``Restructure`` events carry the later ones).

    ``hands_played``, when given, is the number of hands played so far and
    replaces the count of ``HandPlayed`` events. ``pause_after_break``: a level that
    follows a break starts paused.
    Raises :class:`IllegalAction` for an event that cannot happen (pause while
    paused, resume while running, a level that does not exist, events out of
    time order, anything after finish) and :class:`InvalidInput` for an
    unplayable structure. Costs O(events + levels passed).
    """
    plan = _plan(structure)
    hand_mode = structure.hand_counted
    phase: Literal["not_started", "running", "paused", "finished"] = "not_started"
    k = 0  # timeline index of the current item
    base = 0.0  # epoch from which the current item's start is counted
    off: float = 0  # whole seconds (plus any adjustments) from base to the item's start
    extra: float = 0  # seconds added to the current item
    frozen = 0.0  # seconds elapsed in the current item while paused / stopped
    hands = 0
    level_hand_anchor = 0  # hands played when the current hand-counted level started
    last_at: float | None = None

    def advance(t: float) -> None:
        nonlocal k, off, extra, phase, frozen
        if hand_mode:
            return
        while True:
            item, _, length, _ = plan.item(k)
            if length is None:
                return
            if t < base + (off + length + extra):
                return
            off += length + extra
            extra = 0
            k += 1
            if pause_after_break and isinstance(item, Break):
                phase, frozen = "paused", 0.0  # the level after the break waits for the director
                return
            if k >= plan.n and structure.repeat_doubling:
                # Past the list every level is as long as the last: jump, then settle.
                whole = int((t - (base + off)) // length)
                if whole > 1:
                    off += (whole - 1) * length
                    k += whole - 1

    def walk_hands() -> None:
        """Hand-counted levels: move on by the hands played since the level started."""
        nonlocal k, level_hand_anchor
        while True:
            per = plan.item(k)
            length_h = per[0].hands if isinstance(per[0], Level) and not per[3] else None
            if length_h is None or hands - level_hand_anchor < length_h:
                return
            level_hand_anchor += length_h
            k += 1
            if k >= plan.n and structure.repeat_doubling:
                whole = (hands - level_hand_anchor) // length_h  # past the list: all levels alike
                level_hand_anchor += whole * length_h
                k += whole
                return

    def goto(index: int, t: float) -> None:
        nonlocal k, base, off, extra, frozen
        k, extra, frozen = index, 0, 0.0
        base, off = t, 0

    for ev in events:
        if last_at is not None and ev.at < last_at:
            raise IllegalAction(
                "The clock's {kind} is dated {seconds} seconds before "
                "the event before it: clock events must be in time order.",
                kind=_event_name(ev.kind), seconds=format(last_at - ev.at, "g"),
            )
        last_at = ev.at
        if phase == "finished":
            raise IllegalAction("The clock is finished: it cannot {kind}.", kind=_event_name(ev.kind))
        if phase == "running":
            advance(ev.at)
        if isinstance(ev, Start):
            if phase != "not_started":
                raise IllegalAction("The clock has already started.")
            phase = "running"
            base, off = ev.at, 0
        elif isinstance(ev, Pause):
            if phase != "running":
                if phase == "paused":
                    raise IllegalAction("The clock is already paused.")
                raise IllegalAction("The clock has not started.")
            frozen = ev.at - (base + off)
            phase = "paused"
        elif isinstance(ev, Resume):
            if phase != "paused":
                if phase == "running":
                    raise IllegalAction("The clock is already running.")
                raise IllegalAction("The clock has not started.")
            base, off = ev.at - frozen, 0
            phase = "running"
        elif isinstance(ev, Adjust):
            if hand_mode:
                raise IllegalAction(
                    "This structure changes level by hands: there is no time to add or remove."
                )
            length = plan.item(k)[2]
            if length is None:
                raise IllegalAction(
                    "The last level goes on without end: there is no time to add or remove."
                )
            elapsed = ev.at - (base + off) if phase == "running" else frozen
            if length + extra + ev.seconds <= elapsed:
                # Removing more than is left ends the item now.
                goto(k + 1, ev.at)
            else:
                extra += ev.seconds
        elif isinstance(ev, SetLevel):
            top = structure.level_count if not structure.repeat_doubling else structure.level_count + 50
            if ev.level < 1 or ev.level > top:
                raise IllegalAction(
                    "There is no level {level}: the structure has levels 1 to {top}.", level=ev.level, top=top,
                )
            goto(plan.index(ev.level), ev.at)
            level_hand_anchor = ev.hands_played if ev.hands_played is not None else hands
        elif isinstance(ev, GoTo):
            if ev.index < 0 or ev.index >= plan.n:
                raise IllegalAction(
                    "There is no item {index} in the structure: it has items 0 to {last}.", index=ev.index, last=plan.n - 1,
                )
            goto(ev.index, ev.at)
            level_hand_anchor = hands
        elif isinstance(ev, Restructure):
            if hand_mode:
                walk_hands()  # the level in play by the hands counted so far
            elapsed = ev.at - (base + off) if phase == "running" else frozen
            before = plan.item(k)
            structure, plan = ev.structure, _plan(ev.structure)
            hand_mode = structure.hand_counted
            after = plan.item(k)
            if ev.restart:
                elapsed, level_hand_anchor = 0.0, hands
            if ev.restart or after[0] != before[0]:
                extra = 0
            length = after[2]
            if phase != "not_started" and not hand_mode and length is not None and length + extra <= elapsed:
                goto(k + 1, ev.at)  # shortened below what has run: it ends now
            elif phase == "running":
                base, off = ev.at - elapsed, 0
            else:
                frozen = elapsed
        elif isinstance(ev, Finish):
            if phase == "not_started":
                raise IllegalAction("The clock has not started: there is nothing to finish.")
            if phase == "running":
                frozen = ev.at - (base + off)
            phase = "finished"
        elif isinstance(ev, HandPlayed):
            if phase == "not_started":
                raise IllegalAction("The clock has not started: no hand can have been played.")
            hands += 1

    if hands_played is not None:
        if hands_played < 0:
            raise InvalidInput("The number of hands played cannot be negative ({hands}).", hands=hands_played)
        hands = hands_played
    if last_at is not None and now < last_at:
        now = last_at

    # Hand-counted levels: walk the levels by hands played.
    hands_in_level: int | None = None
    hands_left: int | None = None
    if hand_mode:
        walk_hands()
        hands_in_level = max(0, hands - level_hand_anchor)
        cur = plan.item(k)
        if isinstance(cur[0], Level) and not cur[3] and cur[0].hands is not None:
            hands_left = cur[0].hands - hands_in_level

    if phase == "running":
        advance(now)  # may stop at the end of a break (``pause_after_break``)
    if phase == "running":
        elapsed = now - (base + off)
    elif phase == "not_started":
        elapsed = 0.0
    else:
        elapsed = frozen

    item, number, length, continuing = plan.item(k)
    item_seconds: float | None = None if (length is None or hand_mode) else length + extra
    seconds_left = None if item_seconds is None else max(0.0, item_seconds - elapsed)
    ends_at = None
    if phase == "running" and item_seconds is not None:
        ends_at = base + (off + item_seconds)

    # What comes next.
    next_item, next_number, _, next_continuing = plan.item(k + 1)
    break_next = isinstance(next_item, Break)
    if break_next:
        next_item, next_number, _, next_continuing = plan.item(k + 2)
    next_level = next_item if isinstance(next_item, Level) and not continuing and not next_continuing else None
    if next_level is None:
        next_number = None

    nb = plan.next_break[k] if k < plan.n else None
    seconds_to_break: float | None = None
    if nb is not None and seconds_left is not None:
        seconds_to_break = seconds_left + sum((plan.seconds[j] or 0) for j in range(k + 1, nb))
    break_starts_at = now + seconds_to_break if (seconds_to_break is not None and phase == "running") else None
    next_break_cu: tuple[int, ...] = ()
    if nb is not None:
        nb_item = structure.items[nb]
        assert isinstance(nb_item, Break)
        next_break_cu = nb_item.colour_up

    seconds_to_end: float | None = None
    if not hand_mode and not structure.repeat_doubling:
        if continuing:
            seconds_to_end = 0.0
        elif seconds_left is not None:
            seconds_to_end = seconds_left + plan.seconds_after[k]

    on_break = isinstance(item, Break)
    status: Status = "on_break" if (phase == "running" and on_break) else phase
    if isinstance(item, Break):
        title = describe_break(item)
        level = None
    else:
        level = item
        title = describe_level(item, number or 0)
        if continuing:
            title += " · the last level goes on"
    cap = structure.hand_cap
    return ClockState(
        status=status,
        on_break=on_break,
        title=title,
        level_number=None if on_break else number,
        level=level,
        current_break=item if isinstance(item, Break) else None,
        small_blind=level.small_blind if level else None,
        big_blind=level.big_blind if level else None,
        ante=level.ante if level else None,
        continuing=continuing,
        item_seconds=item_seconds,
        elapsed=elapsed,
        seconds_left=seconds_left,
        ends_at=ends_at,
        next_level_number=next_number,
        next_level=next_level,
        break_next=break_next and not on_break,
        seconds_to_break=seconds_to_break,
        break_starts_at=break_starts_at,
        colour_up_now=item.colour_up if isinstance(item, Break) else (),
        next_break_colour_up=next_break_cu,
        seconds_to_end=seconds_to_end,
        hands_played=hands,
        hands_in_level=hands_in_level,
        hands_left_in_level=hands_left,
        hand_cap=cap,
        hand_cap_reached=cap is not None and hands >= cap,
        item_index=k,
    )


def seconds_to_end_of_level(structure: Structure, state: ClockState, number: int) -> float | None:
    """Seconds from the state's instant until level ``number`` ends (0 if it is over).

    ``None`` when that cannot be known: a hand-counted structure, or an endless last level.
    """
    plan = _plan(structure)
    if state.seconds_left is None or structure.hand_counted:
        return None
    if number < 1:
        raise InvalidInput("There is no level {level}: levels are numbered from 1.", level=number)
    if structure.continues_last_level(number):
        return None
    target = plan.index(number)
    if target < state.item_index:
        return 0.0
    total = state.seconds_left
    for j in range(state.item_index + 1, target + 1):
        length = plan.item(j)[2]
        if length is None:
            return None
        total += length
    return total


def seconds_to_estimated_end(structure: Structure, state: ClockState, players: int) -> float | None:
    """Seconds until the end of the level where the game is likely to end (TDA 6.4:
    the first big blind of at least 5% of all chips in play), counted for ``players`` entries.

    >>> from engine.structure import Level, Structure
    >>> s = Structure("demo", (Level(50, 100, minutes=20), Level(100, 200, minutes=20)), 1000)
    >>> seconds_to_estimated_end(s, clock_state(s, [Start(0.0)], 600.0), players=4)
    1800.0
    """
    end = estimate_end(structure, players)
    return None if end is None else seconds_to_end_of_level(structure, state, end.level)


def events_from_dicts(rows: Sequence[Mapping[str, Any]]) -> list[ClockEvent]:
    """Read a list of stored events (see :func:`event_from_dict`)."""
    return [event_from_dict(r) for r in rows]
