"""The director's clock in a tournament's fold, the handler of ``clock`` (a structure edited
in play goes through it too: ``engine.tournament_edits``), and the TV's "put on the clock"
and hand for hand: ``action_clock``, ``hand_for_hand`` and ``h4h_next_hand``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.clock import (
    Adjust,
    ClockEntry,
    ClockEvent,
    Finish,
    GoTo,
    HandPlayed,
    Pause,
    Restructure,
    Resume,
    SetLevel,
    Start,
)
from engine.dealing import refuse_past_hand_cap
from engine.errors import N_, IllegalAction, InvalidInput, Message
from engine.events import Event
from engine.payload import _int, clean_name
from engine.state import ActionClock, Tournament, current_level
from engine.structure import Structure
from engine.structure import edit as edit_structure

CLOCK_ACTIONS = (
    "start", "pause", "resume", "next_level", "previous_level", "add_time", "break_now", "hand_played",
)


def _clock_event(state: Tournament, action: str, at: float, seconds: int) -> ClockEvent:
    """The ``engine.clock`` event for a director's clock action."""
    if action == "start":
        return Start(at)
    if action == "pause":
        return Pause(at)
    if action == "resume":
        return Resume(at)
    if action == "add_time":
        return Adjust(at, seconds)
    if action == "hand_played":
        return HandPlayed(at)
    if action == "finish":
        return Finish(at)
    structure = state.settings.structure
    now = state.clock_at(at)
    if action == "next_level" and now.break_next:
        return GoTo(at, now.item_index + 1)  # the break comes first
    if now.level_number is not None:
        target = now.level_number + (1 if action == "next_level" else -1)
    else:  # on a break: "next" is the level after it, "previous" the one before it
        after = now.next_level_number or structure.level_count
        target = after if action == "next_level" else after - 1
    if target < 1:
        raise IllegalAction("The clock is at level 1: there is no level before it.")
    if target > structure.level_count and not structure.repeat_doubling:
        raise IllegalAction("Level {level} is the last level: it goes on until the end.", level=structure.level_count)
    return SetLevel(at, target)


def dealer_tables(state: Tournament) -> tuple[int, ...]:
    """The tables where the dealer's assistant has dealt a hand: it counts their hands."""
    return state.dealing.tables


def _tables_text(tables: Sequence[int]) -> Message:
    if len(tables) == 1:
        return Message("table {table}", table=tables[0])
    return Message("tables {tables} and {last}", tables=list(tables[:-1]), last=tables[-1])


def hand_played_refusal(state: Tournament, at: float) -> Message | None:
    """Why the director's "hand played" cannot count a hand now, or None when it can.

    A hand is never counted twice: where the dealer's assistant deals, it counts the
    hands itself; and no hand is counted after the hand cap.
    """
    try:
        refuse_past_hand_cap(state, at)
    except IllegalAction as error:
        return Message(error.message, **error.values)
    tracked = dealer_tables(state)
    if tracked:
        return Message(
            "The dealer's assistant counts the hands at {tables}; the hand-played button is for tables without it.",
            tables=_tables_text(tracked),
        )
    return None


def _clock(state: Tournament, event: Event) -> Tournament:
    action = event.payload.get("action")
    if action not in CLOCK_ACTIONS:
        raise InvalidInput("Unknown clock action {action}.", action=repr(action))
    if action == "hand_played" and state.started:
        refuse_past_hand_cap(state, event.at)
    if state.finished:
        raise IllegalAction("The tournament is over: the clock has stopped.")
    if action == "start":
        if state.started:
            raise IllegalAction("The clock has already started.")
        if state.entries < 2:
            raise IllegalAction("A tournament needs at least 2 players to start; {count} registered.", count=state.entries)
    elif not state.started:
        raise IllegalAction("Start the clock first.")
    paused = state.started and state.clock_at(event.at).status == "paused"
    if action == "pause" and paused:
        raise IllegalAction("The clock is already paused.")
    if action == "resume" and not paused:
        raise IllegalAction("The clock is running: there is nothing to resume.")
    if action == "break_now":
        return _break_now(state, event)
    if action == "hand_played" and not state.settings.structure.hand_counted:
        raise IllegalAction("Levels of this structure are timed, not counted in hands.")
    if action == "hand_played" and (refusal := hand_played_refusal(state, event.at)):
        raise IllegalAction(refusal.message, **refusal.values)
    seconds = 0
    if action == "add_time":
        seconds = _int(event.payload, "seconds", N_("number of seconds"), 60, minimum=-3600)
        if seconds == 0 or abs(seconds) > 3600:
            raise InvalidInput("Add or take between 1 second and an hour, not {seconds} seconds.", seconds=seconds)
    clock_event = _clock_event(state, action, event.at, seconds)
    entry = ClockEntry(action=action, at=event.at, seconds=seconds)
    return _with_clock(state, entry, clock_event)


def _with_clock(
    state: Tournament, entry: ClockEntry, *clock_events: ClockEvent, structure: Structure | None = None
) -> Tournament:
    """``state`` with the clock's new events (and the structure they bring), checked by the
    clock, and the rebuy and add-on windows at the level it is at."""
    opening = state.opening_structure
    if structure is not None and opening is None:
        opening = state.settings.structure
    new = replace(
        state,
        clock=(*state.clock, entry),
        clock_events=(*state.clock_events, *clock_events),
        opening_structure=opening,
        settings=state.settings if structure is None else replace(state.settings, structure=structure),
    )
    new.clock_at(entry.at)  # refuses what the clock cannot do
    return replace(new, standings=new.standings.at_level(current_level(new, entry.at)))


def _break_now(state: Tournament, event: Event) -> Tournament:
    """The level in play ends now and the break after it starts; without one, a break of
    ``minutes`` (10 by default) is put after the level."""
    now = state.clock_at(event.at)
    if now.on_break:
        raise IllegalAction("It is the break already: add time to it to make it longer.")
    entry = ClockEntry(action="break_now", at=event.at)
    if now.break_next:
        return _with_clock(state, entry, GoTo(event.at, now.item_index + 1))
    if now.item_index >= len(state.settings.structure.items):
        raise IllegalAction("The clock is past the listed levels: add a break to the structure first.")
    minutes = _int(event.payload, "minutes", N_("break's length in minutes"), 10, minimum=1)
    if minutes > 120:
        raise InvalidInput("A break lasts at most 120 minutes, not {minutes}.", minutes=minutes)
    change = {"edit": "add_break", "item": now.item_index + 1, "minutes": minutes}
    structure, _ = edit_structure(state.settings.structure, change)
    return _with_clock(
        state, entry, Restructure(event.at, structure), GoTo(event.at, now.item_index + 1), structure=structure
    )


# --- the TV: "put on the clock" and hand for hand ---------------------------------------
# ``action_clock`` ``{"action": "start", "who": "Seat 4", "seconds": 60}`` or ``{"action": "stop"}``
# (seed 002: "the table can put them on the clock – a minute, say"); ``hand_for_hand``
# ``{"on": true | false}`` (TDA RP-8).


def _action_clock(state: Tournament, event: Event) -> Tournament:
    action = event.payload.get("action")
    if action == "stop":
        if state.action_clock is None:
            raise IllegalAction("Nobody is on the clock.")
        return replace(state, action_clock=None)
    if action != "start":
        raise InvalidInput("Unknown action clock action {action}: use 'start' or 'stop'.", action=repr(action))
    who = clean_name(event.payload.get("who"), N_("seat or player"))
    seconds = _int(event.payload, "seconds", N_("number of seconds"), 60, minimum=5)
    if seconds > 600:
        raise InvalidInput("Put a player on the clock for 5 seconds to 10 minutes, not {seconds} seconds.", seconds=seconds)
    if state.finished:
        raise IllegalAction("The tournament is over: nobody can be put on the clock.")
    countdown = _int(event.payload, "countdown", N_("final countdown"), 0)
    if countdown > 60:
        raise InvalidInput("The final countdown is 0 to 60 seconds, not {countdown}.", countdown=countdown)
    table = event.payload.get("table")
    seat = event.payload.get("seat")
    if table is not None or seat is not None:
        table, seat = _int(event.payload, "table", N_("table"), 1, 1), _int(event.payload, "seat", N_("seat"), 1, 1)
        running = state.dealing.running(table)
        if running is None or running.hand().turn != seat:
            raise IllegalAction("Seat {seat} at table {table} is not to act: only the seat to act goes on the clock.",
                                seat=seat, table=table)
    return replace(state, action_clock=ActionClock(who, event.at, seconds, countdown, table, seat))


def _hand_for_hand(state: Tournament, event: Event) -> Tournament:
    on = event.payload.get("on")
    if not isinstance(on, bool):
        raise InvalidInput("Say whether hand for hand is on: true or false.")
    if on == state.hand_for_hand:
        if on:
            raise IllegalAction("Hand for hand is already on.")
        raise IllegalAction("Hand for hand is already off.")
    new = replace(state, hand_for_hand=on, h4h_since=event.seq if on else None, h4h_hand=0)
    if on and state.settings.rules >= 2:
        # TDA RP-8A: "finish the current hand ... we are going hand for hand": the hands in
        # play count as the first hand-for-hand hand (0), so their busts share.
        running = [h for t in state.dealing.latest if (h := state.dealing.running(t)) is not None]
        dealt = state.dealing
        for hand in running:
            dealt = dealt.with_running(replace(hand, h4h_round=0))
        new = replace(new, dealing=dealt)
    return new


def _h4h_next_hand(state: Tournament, event: Event) -> Tournament:
    """The director starts the next hand-for-hand hand at the tables without the assistant."""
    if not state.hand_for_hand:
        raise IllegalAction("Hand for hand is off: there is no hand-for-hand hand to count.")
    return replace(state, h4h_hand=state.h4h_hand + 1)


__all__ = ["CLOCK_ACTIONS", "dealer_tables", "hand_played_refusal"]
