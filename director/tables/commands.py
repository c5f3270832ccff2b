"""The seating commands: the draw, the final table's redraw, the moves shown (balancing, a
table break), a late seat, a swap, locks and undo; each with its declared input, checked
by the engine's fold and written in one transaction (``services.record``).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from director.core import inputs
from director.core.contract import Write
from director.core.db import get_db
from director.core.store import load_state
from director.core.web import now
from director.night import commands as services
from director.tables import SEATING_EVENTS, TABLE_SIZES
from director.tables.views import (
    current_step,
    has_draw,
    locks_of,
    missing_tokens,
    names_of,
    new_token,
    player_tokens,
    seated,
    seating_of,
    table_size,
)
from engine.errors import IllegalAction, InvalidInput
from engine.positions import draw_button
from engine.seating import (
    Move,
    draw_seats,
    late_entry_seat,
)
from engine.tournament import Event, Tournament


def record(tournament_id: int, state: Tournament, seq: int, type_: str, payload: Mapping[str, Any]) -> Event:
    """Check the event with the engine's fold and append it (``services.record``)."""
    new = services.record(get_db(), tournament_id, type_, payload, seq, now())
    assert new.last_event is not None
    return new.last_event


def do_draw(tournament_id: int, state: Tournament, seq: int, size: int | None = None) -> Event:
    size = table_size(state) if size is None else size
    if size not in TABLE_SIZES:
        raise InvalidInput("A table has 6, 9 or 10 seats, not {size}.", size=size)
    # The engine draws names, so that its messages name the players.
    ids = {p.name: p.id for p in state.alive}
    if len(ids) < 2:
        raise IllegalAction("The draw needs at least 2 players; {count} registered.", count=len(ids))
    rng = random.Random(secrets.randbits(64))
    locks = {state.name_of(pid): place for pid, place in locks_of(state).items() if pid in ids.values()}
    seating = draw_seats(list(ids), size, rng, locked=locks)
    buttons = {str(t): draw_button(list(seating.at_table(t)), rng).button for t in seating.tables}
    payload = {
        "seats": {str(ids[name]): [t, s] for t, s, name in seating},
        "buttons": buttons,
        "table_size": size,
        "tokens": missing_tokens(state),
        "kind": "draw",
    }
    return record(tournament_id, state, seq, "seats_drawn", payload)


def do_final_redraw(tournament_id: int, state: Tournament, seq: int) -> Event:
    players = [p.id for p in seated(state)]
    size = table_size(state)
    if len(players) > size:
        raise IllegalAction("{count} players do not fit at one final table of {size} seats.", count=len(players),
                            size=size)
    if len(players) < 2:
        raise IllegalAction("A final table needs at least 2 players.")
    rng = random.Random(secrets.randbits(64))
    seating = draw_seats(players, size, rng)
    buttons = {str(t): draw_button(list(seating.at_table(t)), rng).button for t in seating.tables}
    payload = {
        "seats": {str(p): [t, s] for t, s, p in seating},
        "buttons": buttons,
        "table_size": size,
        "tokens": missing_tokens(state),
        "kind": "final",
    }
    return record(tournament_id, state, seq, "seats_drawn", payload)


def do_confirm_step(tournament_id: int, state: Tournament, seq: int, action: str) -> Event:
    step = current_step(state, tournament_id)
    if step is None or step.action == "none":
        raise IllegalAction("The tables are balanced: nobody needs to move.")
    if step.action != action:
        raise IllegalAction("The tables changed since this page was shown: look at the new instruction.")
    names = names_of(state)
    if step.action == "final_table":
        # The seats the director was shown, as a new draw: the final table draws its button too.
        rng = random.Random(secrets.randbits(64))
        final: dict[str, Any] = {
            "seats": {str(p): [t, s] for t, s, p in step.seating},
            "buttons": {str(t): draw_button(list(step.seating.at_table(t)), rng).button for t in step.seating.tables},
            "table_size": step.seating.table_size,
            "tokens": missing_tokens(state),
            "kind": "final",
        }
        return record(tournament_id, state, seq, "seats_drawn", final)
    payload: dict[str, Any] = {
        "moves": [_move_payload(m) for m in step.moves],
        "kind": step.action,
        "text": [m.describe(names) for m in step.moves],
    }
    return record(tournament_id, state, seq, "players_moved", payload)


def _move_payload(move: Move[int]) -> dict[str, Any]:
    return {"player": move.player, "from": [move.from_table, move.from_seat], "to": [move.to_table, move.to_seat]}


def do_seat_late(tournament_id: int, state: Tournament, seq: int, player_id: int) -> Event:
    player = state.player(player_id)
    if player.out:
        raise IllegalAction("{name} is out: a re-entry must be registered first.", name=player.name)
    if player.table is not None:
        raise IllegalAction("{name} already sits at table {table} seat {seat}.", name=player.name,
                            table=player.table, seat=player.seat)
    if not has_draw(state):
        raise IllegalAction("Draw the seats first: {name} gets a seat in the draw.", name=player.name)
    rng = random.Random(secrets.randbits(64))
    seating = seating_of(state)
    _, (table, seat) = late_entry_seat(seating, player.id, rng)
    payload: dict[str, Any] = {"player": player.id, "table": table, "seat": seat}
    token = player_tokens(state).get(player.id)
    if token is None:
        payload["token"] = new_token()
    return record(tournament_id, state, seq, "player_seated", payload)


def do_swap(tournament_id: int, state: Tournament, seq: int, a: int, b: int) -> Event:
    if a == b:
        raise InvalidInput("Choose two different players to swap.")
    pa, pb = state.player(a), state.player(b)
    for p in (pa, pb):
        if p.out or p.table is None or p.seat is None:
            raise IllegalAction("{name} has no seat to swap.", name=p.name)
    assert pa.table and pa.seat and pb.table and pb.seat
    moves = [Move(a, pa.table, pa.seat, pb.table, pb.seat), Move(b, pb.table, pb.seat, pa.table, pa.seat)]
    text = f"Swap {pa.name} (table {pa.table} seat {pa.seat}) and {pb.name} (table {pb.table} seat {pb.seat})."  # stored
    payload = {"moves": [_move_payload(m) for m in moves], "kind": "swap", "text": [text]}
    return record(tournament_id, state, seq, "players_moved", payload)


def do_lock(tournament_id: int, state: Tournament, seq: int, player_id: int, table: int, seat: int) -> Event:
    return record(tournament_id, state, seq, "seat_locked", {"player": player_id, "table": table, "seat": seat})


def do_unlock(tournament_id: int, state: Tournament, seq: int, player_id: int) -> Event:
    return record(tournament_id, state, seq, "seat_unlocked", {"player": player_id})


def do_undo(tournament_id: int, state: Tournament, seq: int) -> Event:
    last = state.last_event
    if last is None or last.type not in SEATING_EVENTS:
        raise IllegalAction("The last change was not a seating change: undo it where it was made.")
    return record(tournament_id, state, seq, "undo", {})


Command = tuple[type[Write], Callable[[int, Tournament, int, Any], Event]]


ACTIONS: dict[str, Command] = {
    "draw": (inputs.DrawIn, lambda tid, st, seq, v: do_draw(tid, st, seq, v.table_size or table_size(st))),
    "redraw": (Write, lambda tid, st, seq, v: do_final_redraw(tid, st, seq)),
    "confirm": (inputs.ConfirmIn, lambda tid, st, seq, v: do_confirm_step(tid, st, seq, v.action)),
    "seat": (inputs.PlayerIn, lambda tid, st, seq, v: do_seat_late(tid, st, seq, v.player)),
    "swap": (inputs.SwapIn, lambda tid, st, seq, v: do_swap(tid, st, seq, v.player_a, v.player_b)),
    "lock": (inputs.LockIn, lambda tid, st, seq, v: do_lock(tid, st, seq, v.player, v.table, v.seat)),
    "unlock": (inputs.PlayerIn, lambda tid, st, seq, v: do_unlock(tid, st, seq, v.player)),
    "undo": (Write, lambda tid, st, seq, v: do_undo(tid, st, seq)),
}
"""Each seating command: its declared input and what it does (pages and API alike)."""


def run_action(tournament_id: int, action: str, data: Write) -> Event:
    _, do = ACTIONS[action]
    state = load_state(get_db(), tournament_id)
    return do(tournament_id, state, data.expected_seq if data.expected_seq is not None else state.seq, data)
