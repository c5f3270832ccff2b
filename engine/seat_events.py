"""The seating's events in a tournament's fold: the seat draw (at a chosen table size, keeping
the director's locks), a player seated or moved, several moved at once, seats locked and
unlocked for the draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TypeAlias

from engine.errors import N_, IllegalAction, InvalidInput, Message
from engine.events import Event
from engine.payload import _int, _player_id
from engine.seating import Move, Seating, apply_moves
from engine.settings import TABLE_SIZES
from engine.state import Tournament

PlayerId: TypeAlias = int


def _place(value: object, what: str) -> tuple[int, int]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise InvalidInput("The seat of {name} must be a table and a seat.", name=what)
    return _int({"t": value[0]}, "t", N_("table number"), 0, minimum=1), _int({"s": value[1]}, "s", N_("seat number"), 0, minimum=1)


def _check_seatable(state: Tournament, pid: PlayerId) -> None:
    player = state.player(pid)
    if player.out:
        raise IllegalAction("{name} is out of the tournament and cannot take a seat.", name=player.name)


def _seats_drawn(state: Tournament, event: Event) -> Tournament:
    seats = event.payload.get("seats")
    if not isinstance(seats, Mapping) or not seats:
        raise InvalidInput("The seat draw is empty: register players first.")
    by_place: dict[tuple[int, int], PlayerId] = {}
    for key, where in seats.items():
        pid = _player_id({"player": key})
        _check_seatable(state, pid)
        place = _place(where, state.name_of(pid))
        if place in by_place:
            raise IllegalAction(
                "{first} and {second} cannot both sit in seat {seat} at table {table}.",
                first=state.name_of(by_place[place]), second=state.name_of(pid), seat=place[1], table=place[0],
            )
        by_place[place] = pid
    return replace(state, seating=Seating.of(state.settings.table_size, by_place))


def _seat_one(state: Tournament, event: Event) -> Tournament:
    pid = _player_id(event.payload)
    _check_seatable(state, pid)
    table = _int(event.payload, "table", N_("table number"), 0, minimum=1)
    seat = _int(event.payload, "seat", N_("seat number"), 0, minimum=1)
    size = state.settings.table_size
    if seat > size:
        raise InvalidInput("Table {table} has seats 1 to {size}: {name} cannot sit in seat {seat}.",
                           table=table, size=size, name=state.name_of(pid), seat=seat)
    seating = state.seating
    if pid in seating:
        move = Move(pid, *seating.seat_of(pid), table, seat)
        if seating.player_at(table, seat) not in (None, pid):
            other = state.name_of(seating.player_at(table, seat) or 0)
            raise IllegalAction("Seat {seat} at table {table} is taken by {name}.", seat=seat, table=table, name=other)
        return replace(state, seating=apply_moves(seating, [move]))
    taken = seating.player_at(table, seat)
    if taken is not None:
        raise IllegalAction("Seat {seat} at table {table} is taken by {name}.", seat=seat, table=table,
                            name=state.name_of(taken))
    return replace(state, seating=seating.with_player(pid, table, seat))


def _players_moved(state: Tournament, event: Event) -> Tournament:
    raw = event.payload.get("moves")
    if not isinstance(raw, Sequence) or not raw:
        raise InvalidInput("There are no moves to make.")
    moves: list[Move[PlayerId]] = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise InvalidInput("A move names a player, where they sit and where they go.")
        pid = _player_id(item)
        from_t, from_s = _place(item.get("from"), state.name_of(pid))
        to_t, to_s = _place(item.get("to"), state.name_of(pid))
        moves.append(Move(pid, from_t, from_s, to_t, to_s))
    return replace(state, seating=apply_moves(state.seating, moves))


# --- seating: locks for the draw, and the draw at a chosen table size --------------------
# Events of the seating pages: ``seat_locked`` ``{"player", "table", "seat"}`` and
# ``seat_unlocked`` ``{"player"}`` before the draw; ``seats_drawn`` may carry ``table_size``
# (6, 9 or 10, else the settings' size) and ``kind`` ("draw" keeps every lock; "final" is the
# final table's redraw); a swap is a ``players_moved`` of two players.


def _seat_locked(state: Tournament, event: Event) -> Tournament:
    pid = _player_id(event.payload)
    _check_seatable(state, pid)
    table = _int(event.payload, "table", N_("table number"), 0, minimum=1)
    seat = _int(event.payload, "seat", N_("seat number"), 0, minimum=1)
    size = state.settings.table_size
    if seat > size:
        raise InvalidInput("Tables have seats 1 to {size}: {name} cannot be locked to seat {seat}.",
                           size=size, name=state.name_of(pid), seat=seat)
    for other, t, s in state.locks:
        if (t, s) == (table, seat) and other != pid:
            raise IllegalAction("Table {table} seat {seat} is already locked for {name}.", table=table, seat=seat,
                                name=state.name_of(other))
    kept = tuple(x for x in state.locks if x[0] != pid)
    return replace(state, locks=(*kept, (pid, table, seat)))


def _seat_unlocked(state: Tournament, event: Event) -> Tournament:
    pid = _player_id(event.payload)
    if not any(x[0] == pid for x in state.locks):
        raise IllegalAction("{name} has no locked seat.", name=state.name_of(pid))
    return replace(state, locks=tuple(x for x in state.locks if x[0] != pid))


def _seats_drawn_at_size(state: Tournament, event: Event) -> Tournament:
    raw = event.payload.get("table_size")
    if raw not in (None, ""):
        size = _int(event.payload, "table_size", N_("table size"), 9, minimum=2)
        if size not in TABLE_SIZES:
            raise InvalidInput("A table has 6, 9 or 10 seats, not {size}.", size=size)
        state = replace(state, settings=replace(state.settings, table_size=size))
    new = replace(_seats_drawn(state, event), last_draw=(event.seq, event.payload))
    if event.payload.get("kind", "draw") == "draw":
        for pid, table, seat in state.locks:
            if state.player(pid).out:
                continue
            if pid not in new.seating or new.seating.seat_of(pid) != (table, seat):
                raise IllegalAction(
                    "{name} is locked to table {table} seat {seat}: the draw must keep that seat.",
                    name=state.name_of(pid), table=table, seat=seat,
                )
    return new


# --- a broken table: where its players went ----------------------------------------------


def _seats_after(where: Mapping[PlayerId, tuple[int, int]], event: Event) -> dict[PlayerId, tuple[int, int]] | None:
    """Where the players sit after the seating event ``event`` (None: not a seating event)."""
    payload = event.payload
    if event.type == "seats_drawn":
        seats = payload.get("seats")
        return {int(k): (int(v[0]), int(v[1])) for k, v in seats.items()} if isinstance(seats, Mapping) else {}
    if event.type in ("player_seated", "player_moved"):
        return {**where, int(payload["player"]): (int(payload["table"]), int(payload["seat"]))}
    if event.type == "players_moved":
        moved = {int(m["player"]): (int(m["to"][0]), int(m["to"][1])) for m in payload.get("moves", ())}
        return {**where, **moved}
    return None


def went_from(state: Tournament, table: int) -> tuple[tuple[PlayerId, int, int], ...]:
    """Where the players of a broken ``table`` sit now, ``(player, table, seat)``: those it
    had when it lost its last players (a table break, the final table's draw, a new draw),
    once its last hand is over, and not out since. Empty while the table is in play (open, or
    finishing its last hand) and for a table that never had players."""
    if table in state.tables_in_play:
        return ()
    where: dict[PlayerId, tuple[int, int]] = {}
    left: tuple[PlayerId, ...] = ()
    for event in state.director_log:  # the seating events, without the hands of the night
        after = _seats_after(where, event)
        if after is None:
            continue
        gone = tuple(pid for pid, (t, _) in where.items() if t == table and pid in after and after[pid][0] != table)
        if gone:
            left = gone
        where = after
    return tuple((pid, *place) for pid in left if (place := state.seating.place_of(pid)) is not None)


def where_they_went(state: Tournament, table: int) -> tuple[Message, ...]:
    """:func:`went_from` in words, by table and seat: ``Ann is at table 1 seat 4``, ..."""
    return tuple(Message("{name} is at table {table} seat {seat}", name=state.name_of(pid), table=t, seat=s)
                 for pid, t, s in sorted(went_from(state, table), key=lambda p: (p[1], p[2])))


def refuse_play_at_broken(state: Tournament, table: int) -> None:
    """Refuse a hand at ``table`` once it has broken, saying where its players went."""
    places = where_they_went(state, table)
    if places:
        raise IllegalAction("Table {table} has broken, so no hand is played here: {places}.", table=table,
                            places=places)
