"""The clock's events: what a director does to the clock, and how each is stored.

The events (start, pause, resume, adjust, set_level, go_to, restructure, finish,
hand_played) are what :func:`engine.clock.clock_state` folds, in time order, to read the
clock at an instant; each is dated ``at`` (seconds since the epoch). They are written to
and read from plain dicts (:func:`event_to_dict`, :func:`event_from_dict`), and a
tournament keeps the director's clock actions as :class:`ClockEntry` records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from engine.errors import InvalidInput, Term
from engine.structure import Structure


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

EVENT_NAMES: dict[str, Term] = {
    "start": Term("start"), "pause": Term("pause"), "resume": Term("resume"), "adjust": Term("adjust"),
    "set_level": Term("set level"), "go_to": Term("go to"), "restructure": Term("restructure"),
    "finish": Term("finish"), "hand_played": Term("hand played"),
}
"""A clock event's name inside a sentence."""


def event_name(kind: str) -> Term:
    """The name of the clock event ``kind`` inside a sentence."""
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


@dataclass(frozen=True)
class ClockEntry:
    """A director's clock action as a tournament keeps it: what, when, and its amount."""

    action: str
    at: float
    seconds: int = 0


def events_from_dicts(rows: Sequence[Mapping[str, Any]]) -> list[ClockEvent]:
    """Read a list of stored events (see :func:`event_from_dict`)."""
    return [event_from_dict(r) for r in rows]
