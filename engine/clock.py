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

The events and their storage are :mod:`engine.clock_events`; how they move the clock
along the structure is :mod:`engine.clock_position`; here the clock is read at ``now``
(:func:`clock_state`) and the times to come are counted from it.

>>> from engine.structure import Level, Structure
>>> s = Structure("demo", (Level(10, 20, minutes=15), Level(20, 40, minutes=15)), 1000)
>>> st = clock_state(s, [Start(1000.0)], now=1000.0 + 16 * 60)
>>> st.status, st.level_number, st.seconds_left, st.ends_at
('running', 2, 840.0, 2800.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, TypeAlias

from engine.clock_events import EVENT_NAMES as EVENT_NAMES
from engine.clock_events import Adjust as Adjust
from engine.clock_events import ClockEntry as ClockEntry
from engine.clock_events import ClockEvent as ClockEvent
from engine.clock_events import Finish as Finish
from engine.clock_events import GoTo as GoTo
from engine.clock_events import HandPlayed as HandPlayed
from engine.clock_events import Pause as Pause
from engine.clock_events import Restructure as Restructure
from engine.clock_events import Resume as Resume
from engine.clock_events import SetLevel as SetLevel
from engine.clock_events import Start as Start
from engine.clock_events import event_from_dict as event_from_dict
from engine.clock_events import event_to_dict as event_to_dict
from engine.clock_events import events_from_dicts as events_from_dicts
from engine.clock_position import Plan, Position, fold, plan_of
from engine.errors import InvalidInput
from engine.structure import (
    Break,
    Level,
    Structure,
    describe_break,
    describe_level,
    estimate_end,
)

Status: TypeAlias = Literal["not_started", "running", "paused", "on_break", "finished"]


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


# ---------------------------------------------------------------------------
# Reading the clock at an instant


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
    position, last_at = fold(structure, events, pause_after_break)
    if hands_played is not None:
        if hands_played < 0:
            raise InvalidInput("The number of hands played cannot be negative ({hands}).", hands=hands_played)
        position.hands = hands_played
    if last_at is not None and now < last_at:
        now = last_at
    return _read(position, now)


def _read(position: Position, now: float) -> ClockState:
    """What the clock shows at ``now`` (no earlier than its last event)."""
    hands_in_level, hands_left = _hands_in_level(position)
    if position.phase == "running":
        position.advance(now)  # may stop at the end of a break (``pause_after_break``)
    elapsed = _elapsed(position, now)
    plan, k, phase = position.plan, position.k, position.phase
    item, number, length, continuing = plan.item(k)
    item_seconds: float | None = None if (length is None or position.hand_mode) else length + position.extra
    seconds_left = None if item_seconds is None else max(0.0, item_seconds - elapsed)
    ends_at = None
    if phase == "running" and item_seconds is not None:
        ends_at = position.base + (position.off + item_seconds)
    next_level, next_number, break_next = _what_comes_next(plan, k, continuing)
    seconds_to_break, break_starts_at, next_break_cu = _next_break(position, now, seconds_left)
    on_break = isinstance(item, Break)
    status: Status = "on_break" if (phase == "running" and on_break) else phase
    level = None if isinstance(item, Break) else item
    hands, cap = position.hands, position.structure.hand_cap
    return ClockState(
        status=status,
        on_break=on_break,
        title=_title(item, number, continuing),
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
        seconds_to_end=_seconds_to_end(position, continuing, seconds_left),
        hands_played=hands,
        hands_in_level=hands_in_level,
        hands_left_in_level=hands_left,
        hand_cap=cap,
        hand_cap_reached=cap is not None and hands >= cap,
        item_index=k,
    )


def _hands_in_level(position: Position) -> tuple[int | None, int | None]:
    """Hand-counted levels: walk the levels by hands played; the hands played in the current
    level and the hands left in it (both ``None`` for a timed structure)."""
    hands_in_level: int | None = None
    hands_left: int | None = None
    if position.hand_mode:
        position.walk_hands()
        hands_in_level = max(0, position.hands - position.level_hand_anchor)
        cur = position.plan.item(position.k)
        if isinstance(cur[0], Level) and not cur[3] and cur[0].hands is not None:
            hands_left = cur[0].hands - hands_in_level
    return hands_in_level, hands_left


def _elapsed(position: Position, now: float) -> float:
    """Seconds run in the current item at ``now``."""
    if position.phase == "running":
        return now - (position.base + position.off)
    if position.phase == "not_started":
        return 0.0
    return position.frozen


def _what_comes_next(plan: Plan, k: int, continuing: bool) -> tuple[Level | None, int | None, bool]:
    """The next level and its number (``None`` when the last level goes on), and whether a
    break comes first."""
    next_item, next_number, _, next_continuing = plan.item(k + 1)
    break_next = isinstance(next_item, Break)
    if break_next:
        next_item, next_number, _, next_continuing = plan.item(k + 2)
    next_level = next_item if isinstance(next_item, Level) and not continuing and not next_continuing else None
    if next_level is None:
        next_number = None
    return next_level, next_number, break_next


def _next_break(
    position: Position, now: float, seconds_left: float | None
) -> tuple[float | None, float | None, tuple[int, ...]]:
    """Seconds until the next break, the epoch it starts at (while running), and the chips
    it colours up."""
    plan, k = position.plan, position.k
    nb = plan.next_break[k] if k < plan.n else None
    seconds_to_break: float | None = None
    if nb is not None and seconds_left is not None:
        seconds_to_break = seconds_left + sum((plan.seconds[j] or 0) for j in range(k + 1, nb))
    running = position.phase == "running"
    break_starts_at = now + seconds_to_break if (seconds_to_break is not None and running) else None
    next_break_cu: tuple[int, ...] = ()
    if nb is not None:
        nb_item = position.structure.items[nb]
        assert isinstance(nb_item, Break)
        next_break_cu = nb_item.colour_up
    return seconds_to_break, break_starts_at, next_break_cu


def _seconds_to_end(position: Position, continuing: bool, seconds_left: float | None) -> float | None:
    """Seconds until the last listed level ends (see :attr:`ClockState.seconds_to_end`)."""
    if not position.hand_mode and not position.structure.repeat_doubling:
        if continuing:
            return 0.0
        if seconds_left is not None:
            return seconds_left + position.plan.seconds_after[position.k]
    return None


def _title(item: Level | Break, number: int | None, continuing: bool) -> str:
    """``Level 5 · 100/200 · ante 200`` or ``Break · 10 min · colour up the 25 chips``."""
    if isinstance(item, Break):
        return describe_break(item)
    title = describe_level(item, number or 0)
    if continuing:
        title += " · the last level goes on"
    return title


def seconds_to_end_of_level(structure: Structure, state: ClockState, number: int) -> float | None:
    """Seconds from the state's instant until level ``number`` ends (0 if it is over).

    ``None`` when that cannot be known: a hand-counted structure, or an endless last level.
    """
    plan = plan_of(structure)
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
