"""A tournament as the fold of its events.

The director app stores what happened as a list of events; this module turns that list into
the tournament's state and refuses an event that cannot happen, with a sentence the director
can read. ``apply(state, event)`` is the one place a new event is checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

from engine.errors import IllegalAction, InvalidInput

PlayerId: TypeAlias = int
Chips: TypeAlias = int


@dataclass(frozen=True)
class Event:
    """One stored event: its sequence number, type, JSON payload and time (epoch seconds)."""

    seq: int
    type: str
    payload: Mapping[str, Any]
    at: float


@dataclass(frozen=True)
class Player:
    id: PlayerId
    name: str


@dataclass(frozen=True)
class Tournament:
    """The state after the events up to ``seq``."""

    seq: int
    name: str
    players: tuple[Player, ...] = ()
    previous: Tournament | None = field(default=None, repr=False, compare=False)


def _name(payload: Mapping[str, Any]) -> str:
    name = payload.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput("The name is empty: type a name.")
    return " ".join(name.split())


def _created(event: Event) -> Tournament:
    return Tournament(seq=event.seq, name=_name(event.payload))


def apply(state: Tournament, event: Event) -> Tournament:
    """The state after ``event``; raises ``EngineError`` if it cannot happen."""
    if event.type == "undo":
        if state.previous is None:
            raise IllegalAction("There is nothing to undo.")
        return replace(state.previous, seq=event.seq)
    if event.type == "player_registered":
        name = _name(event.payload)
        if any(p.name.casefold() == name.casefold() for p in state.players):
            raise IllegalAction(f"{name} is already registered.")
        player = Player(id=len(state.players) + 1, name=name)
        return replace(state, seq=event.seq, players=(*state.players, player), previous=state)
    raise InvalidInput(f"Unknown event type {event.type!r}.")


def fold(events: Iterable[Event]) -> Tournament:
    """The state after all ``events``; the first must be ``created``."""
    iterator = iter(events)
    first = next(iterator, None)
    if first is None or first.type != "created":
        raise InvalidInput("A tournament starts with its 'created' event.")
    state = _created(first)
    for event in iterator:
        state = apply(state, event)
    return state
