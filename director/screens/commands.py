"""The TV's commands: put a player on the clock (and take them off), hand for hand on or off
and its next hand. Each is a command on the tournament (``director.core.commands``): the
dashboard's TV controls, htmx and the JSON API run it by its name, and it says what it did.

The TV's keys (pause, next level, a minute more...) are the night's clock commands,
``night.clock.<action>`` (``director.night.commands``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from director.core import store
from director.core.commands import Call, Command, Events, follow, stream_command
from director.core.contract import Write, flag
from director.core.i18n import gettext
from director.core.inputs import ActionClockIn, HandForHandIn
from director.core.roles import DIRECTOR, FLOOR
from engine.tournament import Tournament

DEFAULT_SECONDS = 60
"""A player is on the clock for a minute unless the director says otherwise."""


def tv_command(name: str, input: type[Write], summary: str,
               **extra: Any) -> Callable[[Callable[[Any, Any, Call], Events]], Command]:
    """A command on the tournament of the path's ``tournament_id``: the action clock and hand
    for hand are the floor's too."""
    extra.setdefault("roles", (DIRECTOR, FLOOR))
    return stream_command(name, input, summary, stream=store.TOURNAMENT, id="tournament_id", **extra)


# --- put on the clock ----------------------------------------------------------------------------


@tv_command("tv.action_clock", ActionClockIn,
            "Put a player on the clock (shown on the TV with its own countdown), or stop it")
def action_clock_command(state: Tournament, data: ActionClockIn, call: Call) -> Events:
    """``who`` (a seat or a name) for ``seconds`` (a minute if left out), or stop the clock."""
    if data.action == "stop":
        return (yield from _stop())
    yield "action_clock", {"action": "start", "who": data.who, "seconds": data.seconds or DEFAULT_SECONDS}
    return gettext("%(who)s is on the clock.", who=data.who) if data.who else ""


@tv_command("tv.action_clock_stop", Write, "Take the player off the clock (they acted)")
def action_clock_stop_command(state: Tournament, data: Write, call: Call) -> Events:
    return (yield from _stop())


def _stop() -> Events:
    yield "action_clock", {"action": "stop"}
    return gettext("The action clock is stopped.")


# --- hand for hand ---------------------------------------------------------------------------------


def hand_for_hand_form(form: Mapping[str, Any]) -> dict[str, Any]:
    """The page's hand-for-hand form: ``on`` as a tick's text ("true", "on", "1", "yes"; anything
    else is off) and ``next`` the same way. (The JSON body says ``on`` as true or false.)"""
    seq = form.get("expected_seq")
    return {"on": flag(form.get("on")), "next": flag(form.get("next")),
            **({"expected_seq": seq} if seq not in (None, "") else {})}


@tv_command("tv.hand_for_hand", HandForHandIn,
            "Hand for hand on or off (shown on every TV), or the next hand-for-hand hand",
            form=hand_for_hand_form)
def hand_for_hand_command(state: Tournament, data: HandForHandIn, call: Call) -> Events:
    """TDA RP-8: every table plays one hand at a time; ``next`` begins the next hand-for-hand
    hand (the count that the director's busts at tables without the dealer's phone are
    grouped by)."""
    if data.next:
        state = yield "h4h_next_hand", {}
        return gettext("Hand-for-hand hand %(number)s: deal at every table.", number=state.h4h_hand)
    yield "hand_for_hand", {"on": data.on}
    return (gettext("Hand for hand: every table plays one hand at a time.") if data.on
            else gettext("Hand for hand is over."))


def hand_for_hand_ends(before: Tournament, after: Tournament) -> Iterator[tuple[str, dict[str, Any]]]:
    """TDA RP-8: hand for hand is played to the bubble; it ends by itself when a command bursts
    the bubble (everyone left is paid) or leaves one table (a director who turns it on again
    in the money may: only the crossing ends it)."""
    if not after.hand_for_hand or after.finished:
        return
    paid = sum(1 for prize in after.prizes if prize)
    if len(after.seating.tables) == 1 < len(before.seating.tables):
        yield "hand_for_hand", {"on": False, "why": "one table"}
    elif paid and after.players_left <= paid < before.players_left:
        yield "hand_for_hand", {"on": False, "why": "in the money"}


follow("tournament", hand_for_hand_ends)
