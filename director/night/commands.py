"""The running night's commands: registration, busts, rebuys, re-entries and add-ons, the
clock, the colour-up, the payouts' lock, undo and redo, the hand cap.

Each is registered once (``director.core.commands``) with its declared input: the dashboard's
and the players' pages, htmx and the JSON API all run it by its name, and the events it
yields are checked by the engine and recorded in one unit of work. The functions at the end
run the same commands from code (the demo, the tests, the screenshots).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlite_utils import Database
from werkzeug.datastructures import MultiDict

from director.club import people
from director.core import store
from director.core.commands import REGISTRY, Call, Events, run, stream_command
from director.core.contract import Write
from director.core.i18n import gettext
from director.core.inputs import (
    AddTimeIn,
    BreakNowIn,
    BustIn,
    ColourUpIn,
    HandCapIn,
    RegisterIn,
    StackIn,
)
from director.core.roles import DIRECTOR, FLOOR
from director.core.words import say
from engine.errors import N_, InvalidInput
from engine.events import HistoryCut
from engine.seating import late_entry_seat
from engine.tournament import (
    CLOCK_ACTIONS,
    PLAY_EVENT_TYPES,
    Event,
    Tournament,
    clean_name,
    undo_payload,
)

TOURNAMENT = store.TOURNAMENT


FLOOR_TOO = ("night.register", "night.remove", "night.rebuy", "night.reentry", "night.addon", "night.bust")
"""What the floor's phone may do besides the director: registration, busts, rebuys, add-ons
and re-entries, and the clock (every ``night.clock.*``). Settings, money, deals, undo and
redo of the night stay the director's."""


ON_THE_LAST_ENTRY = ("night.redo", "night.hand_cap")
"""Commands made on exactly what the page showed: a redo puts back the last undone entry (a
table's entry since ends what can be redone), the chips counted at the hand cap."""


def _play(event: Event) -> bool:
    return event.type in PLAY_EVENT_TYPES


def tournament_command(name: str, input: type[Write], summary: str, **extra: Any) -> Any:
    """A command on the tournament of the path's ``tournament_id``. Hands played at the tables
    since the page was drawn do not make it stale (the engine still checks it against the
    night as it is): at a club night the dealers' phones enter several actions a second, and
    the director's bust, registration or pause would otherwise be refused nearly every time."""
    if name in FLOOR_TOO or name.startswith("night.clock."):
        extra.setdefault("roles", (DIRECTOR, FLOOR))
    if name not in ON_THE_LAST_ENTRY:
        extra.setdefault("independent", lambda call, data: _play)
    return stream_command(name, input, summary, stream=TOURNAMENT, id="tournament_id", **extra)


# --- players ------------------------------------------------------------------------------------


def remember_name(db: Database, name: str, now: float) -> None:
    """Remember a name for the next nights' autocomplete (inside the caller's transaction)."""
    db.conn.execute(
        "INSERT INTO player_names (name_key, name, last_used, times) VALUES (?, ?, ?, 1) "
        "ON CONFLICT(name_key) DO UPDATE SET name = excluded.name, last_used = excluded.last_used, "
        "times = times + 1",
        (name.casefold(), name, now),
    )


def known_names(db: Database, state: Tournament | None = None, limit: int = 200) -> list[str]:
    """Names from earlier tournaments, most recent first, without those already registered."""
    taken = {p.name.casefold() for p in state.players} if state else set()
    rows = db.execute(
        "SELECT name FROM player_names ORDER BY last_used DESC, times DESC LIMIT ?", [limit]
    ).fetchall()
    everyone = db.execute("SELECT name FROM people ORDER BY lower(name) LIMIT ?", [limit]).fetchall()
    names = dict.fromkeys(r[0] for r in (*rows, *everyone))  # the recent first, then the players' database
    return [n for n in names if n.casefold() not in taken][:limit]


@tournament_command("night.register", RegisterIn, "Register a player (late registration while it is open)")
def register_command(state: Tournament, data: RegisterIn, call: Call) -> Events:
    """Register a player; after the seat draw, a late entry also gets a seat (TDA 8). The
    name is remembered and linked to its person of the players' database, in the same
    transaction."""
    name = clean_name(data.name)
    # The token of the player's own page (the QR code on the seat card): never shown to others.
    state = yield "player_registered", {"name": name, "token": secrets.token_urlsafe(16)}
    remember_name(call.db, name, call.now)
    registered = state.player_named(name)
    assert registered is not None
    people.link(call.db.conn, int(call.ids["tournament_id"]), registered.id, name, call.now)
    if state.seating.tables:
        _, (table, seat) = late_entry_seat(state.seating, registered.id, call.random())
        yield "player_seated", {"player": registered.id, "table": table, "seat": seat}


@tournament_command("night.remove", Write, "Remove a player registered by mistake (before the clock starts)")
def remove_command(state: Tournament, data: Write, call: Call) -> Events:
    """The event keeps the player's name: the log still says who was removed once the player is gone."""
    player = int(call.ids["player_id"])
    names = {pid: name for pid, name, _ in state.names}
    yield "player_unregistered", {"player": player, **({"name": names[player]} if player in names else {})}


def _seated_again(state: Tournament, player: int, call: Call) -> Events:
    """After a rebuy or a re-entry: a player back in without a seat gets one by the late-entry
    draw (TDA 8), in the same command."""
    if state.seating.tables and player not in state.seating:
        _, (table, seat) = late_entry_seat(state.seating, player, call.random())
        yield "player_seated", {"player": player, "table": table, "seat": seat}


def _with_stack(player: int, stack: int | None) -> dict[str, Any]:
    return {"player": player, **({"stack": stack} if stack is not None else {})}


@tournament_command("night.rebuy", StackIn, "A rebuy: the player back in his seat if it is free, else at a seat "
                    "drawn as for a late entry")
def rebuy_command(state: Tournament, data: StackIn, call: Call) -> Events:
    player = int(call.ids["player_id"])
    state = yield "rebuy", _with_stack(player, data.stack)
    yield from _seated_again(state, player, call)


@tournament_command("night.reentry", Write, "A re-entry: a new entry for a player who is out, at a seat drawn as "
                    "for a late entry (TDA 6.5, 8)")
def reentry_command(state: Tournament, data: Write, call: Call) -> Events:
    player = int(call.ids["player_id"])
    state = yield "reentry", {"player": player}
    yield from _seated_again(state, player, call)


@tournament_command("night.addon", StackIn, "The add-on")
def addon_command(state: Tournament, data: StackIn, call: Call) -> Events:
    yield "addon", _with_stack(int(call.ids["player_id"]), data.stack)


@tournament_command("night.close_rebuys", Write, "Close rebuys now")
def close_rebuys_command(state: Tournament, data: Write, call: Call) -> Events:
    yield "rebuys_closed", {}


@tournament_command("night.lock_payouts", Write, "Lock the payouts at the money: who is paid and the shape of the "
                    "prizes stay; later money is shared in proportion to them")
def lock_payouts_command(state: Tournament, data: Write, call: Call) -> Events:
    yield "payouts_lock", {}


# --- the clock --------------------------------------------------------------------------------------

CLOCK_SUMMARIES = {
    "start": N_("Start the clock"), "pause": N_("Pause the clock"), "resume": N_("Resume the clock"),
    "next_level": N_("Go to the next level (into the break when one comes next)"),
    "previous_level": N_("Go back a level"),
    "add_time": N_("Add time to the level (seconds, negative to take; 60 if left out)"),
    "break_now": N_("Start a break now (the scheduled one, or one of minutes put in)"),
    "hand_played": N_("Count a hand played (a structure counted in hands)"),
}


@tournament_command("night.clock.add_time", AddTimeIn, CLOCK_SUMMARIES["add_time"])
def add_time_command(state: Tournament, data: AddTimeIn, call: Call) -> Events:
    yield "clock", {"action": "add_time", "seconds": 60 if data.seconds is None else data.seconds}


@tournament_command("night.clock.break_now", BreakNowIn, CLOCK_SUMMARIES["break_now"])
def break_now_command(state: Tournament, data: BreakNowIn, call: Call) -> Events:
    yield "clock", {"action": "break_now", **({"minutes": data.minutes} if data.minutes is not None else {})}


def _clock_command(action: str) -> None:
    """The clock's other actions: the action's word is all the event says."""

    @tournament_command("night.clock." + action, Write, CLOCK_SUMMARIES[action])
    def clock(state: Tournament, data: Write, call: Call) -> Events:
        yield "clock", {"action": action}


for _action in CLOCK_ACTIONS:
    if f"night.clock.{_action}" not in REGISTRY:
        _clock_command(_action)


# --- the colour-up, busts, the hand cap, undo ---------------------------------------------------------


def colour_up_form(form: MultiDict[str, str]) -> dict[str, Any]:
    """The colour-up form: the table, and the counted stacks as ``stack_<player>``."""
    stacks = {k[6:]: v for k, v in form.items() if k.startswith("stack_") and v.strip()}
    fields = {"table": form.get("table"), "expected_seq": form.get("expected_seq") or None}
    return {**{k: v for k, v in fields.items() if v}, **({"stacks": stacks} if stacks else {})}


@tournament_command("night.colour_up", ColourUpIn, "Colour up a table at the break: the chip race, and the stacks "
                    "and chips in play changed by it", form=colour_up_form)
def colour_up_command(state: Tournament, data: ColourUpIn, call: Call) -> Events:
    """The race's cards are drawn here (the seed is stored with the event, so the fold replays
    the same race); says the race in words."""
    payload: dict[str, Any] = {"table": data.table, "seed": call.rng.getrandbits(63) if call.rng else secrets.randbits(63)}
    if data.stacks:
        payload["stacks"] = {str(k): v for k, v in data.stacks.items()}
    state = yield "colour_up", payload
    done = state.colour_ups[-1]
    told = [line for race in done.races for line in race.lines[2:] if not line.startswith("Seat ") or " has " not in line]
    return " ".join([gettext("Table %(table)s is coloured up.", table=data.table), *(say(line) for line in told)])


def bust_form(form: MultiDict[str, str]) -> dict[str, Any]:
    """The bust form: the players ticked, ``stack_<id>`` for each, and who knocked them out."""
    players = form.getlist("players")
    if not players:
        raise InvalidInput("Tick the players who are out.")
    stacks = {p: form.get(f"stack_{p}", "") for p in players}
    return {
        "players": players or None,
        "stacks": {p: s for p, s in stacks.items() if str(s).strip()} or None,
        "by": [b for b in form.getlist("by") if b.strip()] or None,
        "expected_seq": form.get("expected_seq") or None,
    }


@tournament_command("night.bust", BustIn, "A player out (several in one hand: their starting stacks rank them; "
                    "by: who knocked them out)", form=bust_form)
def bust_command(state: Tournament, data: BustIn, call: Call) -> Events:
    if not data.who():
        raise InvalidInput("Name the player who is out: 'player', or 'players' for several in one hand.")
    payload: dict[str, Any] = {"players": data.who()}
    if data.by:  # one eliminator as a number, several who split the pot as a list
        payload["by"] = data.by[0] if len(data.by) == 1 else list(data.by)
    if data.stacks:
        payload["stacks"] = {str(k): v for k, v in data.stacks.items()}
    yield "bust", payload


def hand_cap_form(form: MultiDict[str, str]) -> dict[str, Any]:
    """The hand cap's form: each player's chips as ``chips_<id>``."""
    stacks = {k[6:]: v for k, v in form.items() if k.startswith("chips_") and v.strip()}
    return {"stacks": stacks, "expected_seq": form.get("expected_seq") or None}


@tournament_command("night.hand_cap", HandCapIn, "End at the hand cap (seed 000: 120 hands): the players still in "
                    "are ranked by their chips", form=hand_cap_form)
def hand_cap_command(state: Tournament, data: HandCapIn, call: Call) -> Events:
    yield "hand_cap", {"stacks": {str(k): v for k, v in data.stacks.items()}}


@tournament_command("night.undo", Write, "Undo the last entry that is not play at a table (each table takes back "
                    "its own on its phone), however many hands were played since")
def undo_command(state: Tournament, data: Write, call: Call) -> Events:
    try:
        payload = undo_payload(state)
    except HistoryCut:  # restored from a snapshot, and the entry is older than what it holds
        payload = undo_payload(store.refold(call.db, int(call.ids["tournament_id"])))
    yield "undo", payload


@tournament_command("night.redo", Write, "Redo the last entry undone (until something new is entered)")
def redo_command(state: Tournament, data: Write, call: Call) -> Events:
    yield "redo", {}


# --- the same commands from code -------------------------------------------------------------------


def record(db: Database, tournament_id: int, type: str, payload: Mapping[str, Any], expected_seq: int | None,
           now: float, independent: Callable[[Event], bool] | None = None) -> Tournament:
    """One event as it is, checked by the engine and appended in its own unit of work: what a
    fixture or the demo sets up (a night's commands are the registered ones above)."""
    with store.command(db, TOURNAMENT, tournament_id, expected_seq, now, independent) as writer:
        state: Tournament = writer.add(type, payload)
    return state


def _state(name: Any, data: Write, db: Database, now: float, rng: random.Random | None = None, **ids: Any) -> Tournament:
    state: Tournament = run(name, data, db=db, now=now, rng=rng, **ids).state
    return state


def register_player(db: Database, tournament_id: int, name: Any, expected_seq: int | None, now: float,
                    rng: random.Random | None = None) -> Tournament:
    return _state(register_command, RegisterIn(name=str(name), expected_seq=expected_seq), db, now, rng,
                  tournament_id=tournament_id)


def unregister_player(db: Database, tournament_id: int, player: Any, expected_seq: int | None, now: float) -> Tournament:
    return _state(remove_command, Write(expected_seq=expected_seq), db, now, tournament_id=tournament_id,
                  player_id=int(player))


def rebuy(db: Database, tournament_id: int, player: Any, expected_seq: int | None, now: float, stack: Any = None,
          rng: random.Random | None = None) -> Tournament:
    return _state(rebuy_command, StackIn(stack=stack, expected_seq=expected_seq), db, now, rng,
                  tournament_id=tournament_id, player_id=int(player))


def reenter(db: Database, tournament_id: int, player: Any, expected_seq: int | None, now: float,
            rng: random.Random | None = None) -> Tournament:
    return _state(reentry_command, Write(expected_seq=expected_seq), db, now, rng, tournament_id=tournament_id,
                  player_id=int(player))


def addon(db: Database, tournament_id: int, player: Any, expected_seq: int | None, now: float,
          stack: Any = None) -> Tournament:
    return _state(addon_command, StackIn(stack=stack, expected_seq=expected_seq), db, now,
                  tournament_id=tournament_id, player_id=int(player))


def close_rebuys(db: Database, tournament_id: int, expected_seq: int | None, now: float) -> Tournament:
    return _state(close_rebuys_command, Write(expected_seq=expected_seq), db, now, tournament_id=tournament_id)


def lock_payouts(db: Database, tournament_id: int, expected_seq: int | None, now: float) -> Tournament:
    return _state(lock_payouts_command, Write(expected_seq=expected_seq), db, now, tournament_id=tournament_id)


def clock_action(db: Database, tournament_id: int, action: str, expected_seq: int | None, now: float,
                 seconds: int | None = None, minutes: int | None = None) -> Tournament:
    """start, pause, resume, next_level, previous_level, add_time (``seconds``), break_now
    (``minutes``: a break put in when none follows the level), hand_played."""
    data: Write = (AddTimeIn(seconds=seconds, expected_seq=expected_seq) if action == "add_time"
                   else BreakNowIn(minutes=minutes, expected_seq=expected_seq) if action == "break_now"
                   else Write(expected_seq=expected_seq))
    return _state(f"night.clock.{action}", data, db, now, tournament_id=tournament_id)


def bust(db: Database, tournament_id: int, players: Sequence[Any], expected_seq: int | None, now: float, *,
         by: Any = None, stacks: Mapping[str, Any] | None = None) -> Tournament:
    """One player out, or several in the same hand (then ``stacks`` ranks them)."""
    fields = {"players": list(players), "by": by, "stacks": dict(stacks) if stacks else None,
              "expected_seq": expected_seq}
    data = BustIn.model_validate({k: v for k, v in fields.items() if v not in (None, "")})
    return _state(bust_command, data, db, now, tournament_id=tournament_id)


def end_at_hand_cap(db: Database, tournament_id: int, stacks: Mapping[str, Any], expected_seq: int | None,
                    now: float) -> Tournament:
    data = HandCapIn.model_validate({"stacks": dict(stacks), "expected_seq": expected_seq})
    return _state(hand_cap_command, data, db, now, tournament_id=tournament_id)


def undo(db: Database, tournament_id: int, expected_seq: int | None, now: float) -> Tournament:
    return _state(undo_command, Write(expected_seq=expected_seq), db, now, tournament_id=tournament_id)


def redo(db: Database, tournament_id: int, expected_seq: int | None, now: float) -> Tournament:
    return _state(redo_command, Write(expected_seq=expected_seq), db, now, tournament_id=tournament_id)
