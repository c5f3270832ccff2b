"""The colour-up at a break, table by table, recorded into the stacks (TDA 52-53; seed 002:
"the break is also when the smallest chips are exchanged for bigger ones").

One event, ``colour_up``: ``{"table", "seed", "stacks"?: {player: chips}}``. At a break that
lists chips to colour up (``engine.structure.colour_up_steps``), each chip value removed there
becomes the next one still in play: whole units are changed directly, the odd chips are raced
for with cards (``engine.chips.colour_up``, dealt from ``random.Random(seed)``: the director
draws the seed, the fold replays the same race). Where the dealer's assistant keeps the
table's stacks they are read from it; at another table the dealer counts them and the
director enters ``stacks``. Each stack takes its new amount, and the chips in play change by
exactly the race's rounding, so the stacks still add up to them (one chip count). Each
table's colour-up is kept as a :class:`ColourUpRecord` with the tournament's state
(``engine.state``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeAlias

from engine.chips import ColourUp, colour_up
from engine.errors import IllegalAction, InvalidInput, Message
from engine.events import Event
from engine.limits import MAX_CHIPS
from engine.stacks import stack_of, with_net
from engine.state import ColourUpRecord, Tournament
from engine.structure import Level, colour_up_steps

PlayerId: TypeAlias = int
Seat: TypeAlias = int
Chips: TypeAlias = int
MAX_SEED = 2**63 - 1


def break_level(state: Tournament, at: float) -> int | None:
    """The level a break in play follows (None when the clock is not on a break)."""
    clock = state.clock_at(at)
    if not clock.on_break:
        return None
    items = state.settings.structure.items
    return sum(1 for item in items[: clock.item_index] if isinstance(item, Level))


def steps_at(state: Tournament, after_level: int) -> tuple[tuple[Chips, Chips], ...]:
    """``(removed, into)`` for each chip value coloured up at the break after ``after_level``."""
    return tuple((v, into) for after, v, into in colour_up_steps(state.settings.structure) if after == after_level)


def done_at(state: Tournament, table: int, after_level: int) -> ColourUpRecord | None:
    return next((r for r in state.colour_ups if r.table == table and r.after_level == after_level), None)


def _counted(state: Tournament, raw: object, seated: Mapping[Seat, PlayerId]) -> dict[Seat, Chips]:
    if not isinstance(raw, Mapping):
        raise InvalidInput("Count each player's chips at the table and enter them: the app does not keep them here.")
    by_player = {}
    for key, value in raw.items():
        try:
            pid = int(str(key))
        except ValueError:
            raise InvalidInput("{key} is not a player number.", key=repr(key)) from None
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CHIPS:
            raise InvalidInput(
                "{player}'s chips must be a whole number from 1 to {most}.", player=state.name_of(pid), most=MAX_CHIPS
            )
        by_player[pid] = value
    missing = [state.name_of(p) for p in seated.values() if p not in by_player]
    if missing:
        raise InvalidInput("Enter the chips of everyone at the table: {players} missing.", players=", ".join(missing))
    strangers = [state.name_of(p) for p in by_player if p not in seated.values()]
    if strangers:
        if len(strangers) == 1:
            raise InvalidInput("{player} is not at this table.", player=strangers[0])
        raise InvalidInput("{players} are not at this table.", players=", ".join(strangers))
    return {seat: by_player[pid] for seat, pid in seated.items()}


def _colour_up(state: Tournament, event: Event) -> Tournament:
    p = event.payload
    try:
        table = int(str(p.get("table")))
    except ValueError:
        raise InvalidInput("Choose a table: {table} is not a table number.", table=repr(p.get("table"))) from None
    if table not in state.seating.tables:
        raise InvalidInput("There is no table {table}.", table=table)
    seed = p.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidInput("The race needs a seed: a whole number the director's page draws.")
    after = break_level(state, event.at)
    if after is None:
        raise IllegalAction("The chips are coloured up at a break: it is not the break.")
    steps = steps_at(state, after)
    if not steps:
        raise IllegalAction("No chips are coloured up at the break after level {after}.", after=after)
    if done_at(state, table, after) is not None:
        raise IllegalAction("Table {table} has already coloured up at this break.", table=table)
    running = state.dealing.running(table)
    if running is not None:
        raise IllegalAction(
            "Table {table} is still playing hand {hand}: colour up once it is over.",
            table=table, hand=str(running.number),
        )
    seated = dict(state.seating.at_table(table))
    if not seated:
        raise IllegalAction("Nobody sits at table {table}.", table=table)
    counted = table not in state.dealing.latest
    if counted:
        stacks = _counted(state, p.get("stacks"), seated)
    else:
        stacks = {seat: stack_of(state, pid) for seat, pid in seated.items()}
    rng = random.Random(seed)
    races: list[ColourUp] = []
    current = stacks
    for removed, into in steps:
        race = colour_up(current, removed, into, rng)
        races.append(race)
        current = dict(race.stacks)
    record = ColourUpRecord(event.seq, table, after, tuple(races), tuple(sorted(seated.items())), counted)
    changes = {pid: new - old for pid, (old, new) in record.stacks().items()}
    dealing = replace(state.dealing, net=with_net(state.dealing.net, changes))
    standings = state.standings.correct_chips(record.change) if record.change else state.standings
    return replace(state, dealing=dealing, standings=standings, colour_ups=(*state.colour_ups, record))


def describe(state: Tournament, event: Event) -> str:
    record = next((r for r in state.colour_ups if r.seq == event.seq), None)
    table = str(event.payload.get("table"))
    if record is None:
        return Message("Table {table} coloured up", table=table)
    removed: int | Message = record.races[0].removed
    for race in record.races[1:]:
        removed = Message("{earlier} and {later}", earlier=removed, later=race.removed)
    change = record.change
    if change > 0:
        return Message(
            "Table {table} coloured up the {removed} chips (chips in play +{change})",
            table=table, removed=removed, change=change,
        )
    if change < 0:
        return Message(
            "Table {table} coloured up the {removed} chips (chips in play −{change})",
            table=table, removed=removed, change=-change,
        )
    return Message("Table {table} coloured up the {removed} chips (no chip gained or lost)", table=table, removed=removed)


HANDLERS: dict[str, Any] = {"colour_up": _colour_up}

__all__ = ["HANDLERS", "ColourUpRecord", "break_level", "describe", "done_at", "steps_at"]
