"""Where the clock is: a structure laid out as a timeline, and the clock's events folded along it.

:func:`fold` replays the events in time order on a :class:`Position`: the item in play (its
index on the timeline, counting on past the listed items), the epoch its time is counted
from, the seconds added to it, the time frozen while paused, and the hands played. Each
event moves the position (or is refused with the sentence a director reads); reaching an
instant runs the timed items that have ended by then (:meth:`Position.advance`) or walks the
hand-counted levels by the hands played (:meth:`Position.walk_hands`).
:func:`engine.clock.clock_state` reads what the clock shows from the position.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, TypeAlias

from engine.clock_events import (
    Adjust,
    ClockEvent,
    Finish,
    GoTo,
    HandPlayed,
    Pause,
    Restructure,
    Resume,
    SetLevel,
    Start,
    event_name,
)
from engine.errors import IllegalAction
from engine.structure import Break, Level, Structure, validate


@dataclass(frozen=True, slots=True)
class Plan:
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
def plan_of(structure: Structure) -> Plan:
    """``structure`` laid out for the clock (validated; kept for the last 128 structures)."""
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
    return Plan(
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


Phase: TypeAlias = Literal["not_started", "running", "paused", "finished"]


@dataclass(slots=True)
class Position:
    """Where the clock is while its events are folded in, and how each event moves it.

    The current item (timeline index ``k``) started at ``base + off``: an epoch plus whole
    seconds, so that an item's end is one sum however long the clock has run.
    """

    structure: Structure
    plan: Plan
    pause_after_break: bool
    hand_mode: bool
    phase: Phase = "not_started"
    k: int = 0
    """Timeline index of the current item."""
    base: float = 0.0
    """Epoch from which the current item's start is counted."""
    off: float = 0
    """Whole seconds (plus any adjustments) from ``base`` to the item's start."""
    extra: float = 0
    """Seconds added to the current item."""
    frozen: float = 0.0
    """Seconds elapsed in the current item while paused / stopped."""
    hands: int = 0
    level_hand_anchor: int = 0
    """Hands played when the current hand-counted level started."""

    def elapsed_at(self, t: float) -> float:
        """Seconds run in the current item at ``t``."""
        return t - (self.base + self.off) if self.phase == "running" else self.frozen

    def advance(self, t: float) -> None:
        """Move on past every timed item that has ended by ``t``."""
        if self.hand_mode:
            return
        plan = self.plan
        while True:
            item, _, length, _ = plan.item(self.k)
            if length is None:
                return
            if t < self.base + (self.off + length + self.extra):
                return
            self.off += length + self.extra
            self.extra = 0
            self.k += 1
            if self.pause_after_break and isinstance(item, Break):
                self.phase, self.frozen = "paused", 0.0  # the level after the break waits for the director
                return
            if self.k >= plan.n and self.structure.repeat_doubling:
                # Past the list every level is as long as the last: jump, then settle.
                whole = int((t - (self.base + self.off)) // length)
                if whole > 1:
                    self.off += (whole - 1) * length
                    self.k += whole - 1

    def walk_hands(self) -> None:
        """Hand-counted levels: move on by the hands played since the level started."""
        plan = self.plan
        while True:
            per = plan.item(self.k)
            length_h = per[0].hands if isinstance(per[0], Level) and not per[3] else None
            if length_h is None or self.hands - self.level_hand_anchor < length_h:
                return
            self.level_hand_anchor += length_h
            self.k += 1
            if self.k >= plan.n and self.structure.repeat_doubling:
                whole = (self.hands - self.level_hand_anchor) // length_h  # past the list: all levels alike
                self.level_hand_anchor += whole * length_h
                self.k += whole
                return

    def goto(self, index: int, t: float) -> None:
        """Item ``index`` starts from its beginning at ``t``."""
        self.k, self.extra, self.frozen = index, 0, 0.0
        self.base, self.off = t, 0

    def apply(self, ev: ClockEvent) -> None:
        """Fold in one event (dated no earlier than the last, the clock not finished)."""
        if self.phase == "running":
            self.advance(ev.at)
        if isinstance(ev, Start):
            self.start(ev)
        elif isinstance(ev, Pause):
            self.pause(ev)
        elif isinstance(ev, Resume):
            self.resume(ev)
        elif isinstance(ev, Adjust):
            self.adjust(ev)
        elif isinstance(ev, SetLevel):
            self.set_level(ev)
        elif isinstance(ev, GoTo):
            self.go_to(ev)
        elif isinstance(ev, Restructure):
            self.restructure(ev)
        elif isinstance(ev, Finish):
            self.finish(ev)
        elif isinstance(ev, HandPlayed):
            self.hand_played()

    # --- the events, one by one

    def start(self, ev: Start) -> None:
        if self.phase != "not_started":
            raise IllegalAction("The clock has already started.")
        self.phase = "running"
        self.base, self.off = ev.at, 0

    def pause(self, ev: Pause) -> None:
        if self.phase != "running":
            if self.phase == "paused":
                raise IllegalAction("The clock is already paused.")
            raise IllegalAction("The clock has not started.")
        self.frozen = ev.at - (self.base + self.off)
        self.phase = "paused"

    def resume(self, ev: Resume) -> None:
        if self.phase != "paused":
            if self.phase == "running":
                raise IllegalAction("The clock is already running.")
            raise IllegalAction("The clock has not started.")
        self.base, self.off = ev.at - self.frozen, 0
        self.phase = "running"

    def adjust(self, ev: Adjust) -> None:
        if self.hand_mode:
            raise IllegalAction(
                "This structure changes level by hands: there is no time to add or remove."
            )
        length = self.plan.item(self.k)[2]
        if length is None:
            raise IllegalAction(
                "The last level goes on without end: there is no time to add or remove."
            )
        elapsed = self.elapsed_at(ev.at)
        if length + self.extra + ev.seconds <= elapsed:
            # Removing more than is left ends the item now.
            self.goto(self.k + 1, ev.at)
        else:
            self.extra += ev.seconds

    def set_level(self, ev: SetLevel) -> None:
        structure = self.structure
        top = structure.level_count if not structure.repeat_doubling else structure.level_count + 50
        if ev.level < 1 or ev.level > top:
            raise IllegalAction(
                "There is no level {level}: the structure has levels 1 to {top}.", level=ev.level, top=top,
            )
        self.goto(self.plan.index(ev.level), ev.at)
        self.level_hand_anchor = ev.hands_played if ev.hands_played is not None else self.hands

    def go_to(self, ev: GoTo) -> None:
        if ev.index < 0 or ev.index >= self.plan.n:
            raise IllegalAction(
                "There is no item {index} in the structure: it has items 0 to {last}.",
                index=ev.index, last=self.plan.n - 1,
            )
        self.goto(ev.index, ev.at)
        self.level_hand_anchor = self.hands

    def restructure(self, ev: Restructure) -> None:
        if self.hand_mode:
            self.walk_hands()  # the level in play by the hands counted so far
        elapsed = self.elapsed_at(ev.at)
        before = self.plan.item(self.k)
        self.structure, self.plan = ev.structure, plan_of(ev.structure)
        self.hand_mode = self.structure.hand_counted
        after = self.plan.item(self.k)
        if ev.restart:
            elapsed, self.level_hand_anchor = 0.0, self.hands
        if ev.restart or after[0] != before[0]:
            self.extra = 0
        length = after[2]
        if (self.phase != "not_started" and not self.hand_mode and length is not None
                and length + self.extra <= elapsed):
            self.goto(self.k + 1, ev.at)  # shortened below what has run: it ends now
        elif self.phase == "running":
            self.base, self.off = ev.at - elapsed, 0
        else:
            self.frozen = elapsed

    def finish(self, ev: Finish) -> None:
        if self.phase == "not_started":
            raise IllegalAction("The clock has not started: there is nothing to finish.")
        if self.phase == "running":
            self.frozen = ev.at - (self.base + self.off)
        self.phase = "finished"

    def hand_played(self) -> None:
        if self.phase == "not_started":
            raise IllegalAction("The clock has not started: no hand can have been played.")
        self.hands += 1


def fold(
    structure: Structure, events: Iterable[ClockEvent], pause_after_break: bool
) -> tuple[Position, float | None]:
    """Where the clock is after ``events``, and the time of the last one."""
    position = Position(structure, plan_of(structure), pause_after_break, structure.hand_counted)
    last_at: float | None = None
    for ev in events:
        if last_at is not None and ev.at < last_at:
            raise IllegalAction(
                "The clock's {kind} is dated {seconds} seconds before "
                "the event before it: clock events must be in time order.",
                kind=event_name(ev.kind), seconds=format(last_at - ev.at, "g"),
            )
        last_at = ev.at
        if position.phase == "finished":
            raise IllegalAction("The clock is finished: it cannot {kind}.", kind=event_name(ev.kind))
        position.apply(ev)
    return position, last_at
