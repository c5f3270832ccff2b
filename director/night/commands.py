"""The one code path from a page or an API call to the event store.

Every function checks the new event against the tournament's current state with the engine
(``engine.tournament.apply``), then appends it, refusing a write based on a stale sequence
number. Pages and the JSON API call these and nothing else to change a tournament; other
blueprints (the TV keys, the dealer's assistant) should too.

``expected_seq`` is the sequence number the caller's page showed; ``None`` means "whatever is
current" (for API clients that do not track it).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlite_utils import Database

from director.club import people
from director.core import store
from director.core.contract import read
from director.core.i18n import gettext, say
from director.core.inputs import TournamentIn
from director.core.store import StaleWrite, load_state
from engine.errors import EngineError, InvalidInput
from engine.positions import draw_button
from engine.seating import Move, Step, draw_seats, late_entry_seat, next_step
from engine.structure import PRESETS, preset, structure_to_dict
from engine.structure import warnings as structure_warnings
from engine.tournament import (
    EDITABLE_SETTINGS,
    Event,
    PlayerId,
    Tournament,
    clean_name,
    fixed_prizes_text,
    mystery_pool_from,
    mystery_pool_text,
    settings_as_dict,
    settings_from_dict,
)


@contextmanager
def command(
    db: Database,
    tournament_id: int,
    expected_seq: int | None,
    now: float,
    independent: Callable[[Event], bool] | None = None,
) -> Iterator[store.Writer]:
    """One command on a tournament: everything it writes commits together, or nothing does
    (``director.core.store.command``)."""
    with store.command(db, store.TOURNAMENT, tournament_id, expected_seq, now, independent) as writer:
        yield writer


def record(
    db: Database,
    tournament_id: int,
    type: str,
    payload: Mapping[str, Any],
    expected_seq: int | None,
    now: float,
    independent: Callable[[Event], bool] | None = None,
) -> Tournament:
    """Check and append one event in one transaction; returns the new state."""
    with command(db, tournament_id, expected_seq, now, independent) as writer:
        return writer.add(type, payload)


# --- setup ------------------------------------------------------------------------------


def tournament_payload(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ``created`` payload from form or JSON fields: the preset becomes a full structure."""
    payload = {k: v for k, v in data.items() if k not in ("csrf_token", "expected_seq")}
    structure = payload.get("structure")
    if isinstance(structure, str) and structure.strip():
        raise InvalidInput("The structure must be given as levels, not as text.")
    if not structure:
        preset_id = str(payload.pop("preset", "") or "home-short")
        if preset_id not in PRESETS:
            raise InvalidInput("There is no preset {preset}: choose one of {presets}.", preset=repr(preset_id),
                               presets=", ".join(PRESETS))
        built = preset(preset_id)
        payload["structure"] = structure_to_dict(built)
        payload.setdefault("starting_stack", built.starting_stack)
        payload["preset"] = preset_id
    if payload.get("bounty_kind") == "mystery" and not payload.get("mystery_seed"):
        payload["mystery_seed"] = new_seed()  # the draws' seed, kept in the created event
    settings_from_dict(payload)  # every field checked, with its message
    return payload


def new_seed() -> int:
    """A seed for the night's draws (the mystery bounties), stored with what it draws."""
    return secrets.randbits(31) or 1


def create_tournament(
    db: Database, data: Mapping[str, Any], now: float, also: Callable[[Any, int], object] | None = None
) -> int:
    """A new tournament from the setup page's or the API's fields, read as ``TournamentIn``
    declares them (a blank form field is a field left out); ``also`` writes with it, in its
    transaction (``store.create_tournament``)."""
    declared = read(TournamentIn, data).given()
    payload = tournament_payload(declared)
    return store.create_tournament(db, clean_name(payload.get("name"), "tournament name"), payload, now, also)


# --- players ----------------------------------------------------------------------------


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


def register_player(
    db: Database, tournament_id: int, name: Any, expected_seq: int | None, now: float,
    rng: random.Random | None = None,
) -> Tournament:
    """Register a player; after the seat draw, a late entry also gets a seat (TDA 8)."""
    clean = clean_name(name)
    # The token of the player's own page (the QR code on the seat card): never shown to others.
    payload = {"name": clean, "token": secrets.token_urlsafe(16)}
    with command(db, tournament_id, expected_seq, now) as writer:  # all three, or none
        state = writer.add("player_registered", payload)
        remember_name(db, clean, now)
        registered = state.player_named(clean)
        if registered is not None:  # the person of the players' database, created for a new name
            people.link(db.conn, tournament_id, registered.id, clean, now)
        if state.seating.tables:
            player = state.player_named(clean)
            assert player is not None
            _, (table, seat) = late_entry_seat(state.seating, player.id, rng or random.Random())
            state = writer.add("player_seated", {"player": player.id, "table": table, "seat": seat})
    return state


def unregister_player(db: Database, tournament_id: int, player: Any, expected_seq: int | None, now: float) -> Tournament:
    """Remove a player registered by mistake (before the clock starts). The event keeps the
    player's name: the log still says who was removed once the player is gone."""
    with command(db, tournament_id, expected_seq, now) as writer:
        payload: dict[str, Any] = {"player": player}
        names = {pid: name for pid, name, _ in writer.state.names}
        if str(player).isdigit() and int(player) in names:  # else the engine refuses it, with its reason
            payload["name"] = names[int(player)]
        removed: Tournament = writer.add("player_unregistered", payload)
        return removed


def _with_stack(
    event_type: str, db: Database, tournament_id: int, player: Any, expected_seq: int | None, now: float, stack: Any
) -> Tournament:
    """Record ``event_type`` for ``player``, with their chip count when one was given."""
    payload: dict[str, Any] = {"player": player}
    if stack not in (None, ""):
        payload["stack"] = stack
    return record(db, tournament_id, event_type, payload, expected_seq, now)


def _seated_again(writer: Any, state: Tournament, player: Any, rng: random.Random | None) -> Tournament:
    """After a rebuy or a re-entry: a player back in without a seat gets one by the late-entry
    draw (TDA 8), in the same command."""
    if not state.seating.tables:
        return state
    pid = int(player)
    if pid in state.seating:
        return state
    _, (table, seat) = late_entry_seat(state.seating, pid, rng or random.Random())
    seated: Tournament = writer.add("player_seated", {"player": pid, "table": table, "seat": seat})
    return seated


def rebuy(
    db: Database, tournament_id: int, player: Any, expected_seq: int | None, now: float, stack: Any = None,
    rng: random.Random | None = None,
) -> Tournament:
    """A rebuy, and the player back in his seat if it is still free, else at a seat drawn as
    for a late entry: one tap, one transaction."""
    payload: dict[str, Any] = {"player": player}
    if stack not in (None, ""):
        payload["stack"] = stack
    with command(db, tournament_id, expected_seq, now) as writer:
        state = writer.add("rebuy", payload)
        return _seated_again(writer, state, player, rng)


def reenter(
    db: Database, tournament_id: int, player: Any, expected_seq: int | None, now: float,
    rng: random.Random | None = None,
) -> Tournament:
    """A re-entry (a new entry for a player who is out) and his new seat, drawn as for a late
    entry (TDA 8), in one transaction."""
    with command(db, tournament_id, expected_seq, now) as writer:
        state = writer.add("reentry", {"player": player})
        return _seated_again(writer, state, player, rng)


def addon(
    db: Database, tournament_id: int, player: Any, expected_seq: int | None, now: float, stack: Any = None
) -> Tournament:
    return _with_stack("addon", db, tournament_id, player, expected_seq, now, stack)


def close_rebuys(db: Database, tournament_id: int, expected_seq: int | None, now: float) -> Tournament:
    return record(db, tournament_id, "rebuys_closed", {}, expected_seq, now)


def lock_payouts(db: Database, tournament_id: int, expected_seq: int | None, now: float) -> Tournament:
    """Freeze who is paid and the shape of the prizes, once the money is reached."""
    return record(db, tournament_id, "payouts_lock", {}, expected_seq, now)


# --- the clock --------------------------------------------------------------------------


def clock_action(
    db: Database, tournament_id: int, action: str, expected_seq: int | None, now: float,
    seconds: int | None = None,
    minutes: int | None = None,
) -> Tournament:
    """start, pause, resume, next_level, previous_level, add_time (``seconds``), break_now
    (``minutes``: a break put in when none follows the level), hand_played."""
    payload: dict[str, Any] = {"action": action}
    if action == "add_time":
        payload["seconds"] = 60 if seconds is None else seconds
    if action == "break_now" and minutes is not None:
        payload["minutes"] = minutes
    return record(db, tournament_id, "clock", payload, expected_seq, now)


def percentages_text(state: Tournament) -> str:
    """The custom payout percentages as typed: ``50/30/20``."""
    return "/".join(f"{float(p):g}" for p in state.settings.percentages)


def _normalised(key: str, value: Any) -> Any:
    """A fixed-prize list or a fee's share as the engine reads it (a value it refuses is kept
    as given, so that the change is recorded and refused with the engine's reason)."""
    try:
        if key == "fixed_prizes":
            return fixed_prizes_text(settings_from_dict({"name": "x", "fixed_prizes": value}).fixed_prizes)
        if key == "mystery_pool":
            return mystery_pool_text(mystery_pool_from(value))
        return settings_from_dict({"name": "x", "fee_percent": value}).fee_percent
    except EngineError:
        return ("refused", repr(value))


def edit_settings(
    db: Database, tournament_id: int, given: Mapping[str, Any], expected_seq: int | None, now: float
) -> tuple[Tournament, str]:
    """The settings changed after creation: only what differs is recorded (the log says what
    changed; a field sent as it was is no change). Returns the state and what it says."""
    with command(db, tournament_id, expected_seq, now) as writer:
        state: Tournament = writer.state
        current = settings_as_dict(state.settings)
        current["percentages"] = percentages_text(state)
        change: dict[str, Any] = {}
        for key, value in given.items():
            if key in ("expected_seq", "correct_payments") or (value is None and key not in ("max_rebuys", "max_reentries")):
                continue  # null is "no limit" for a limit, else a field left out
            if key == "percentages":
                text = value if isinstance(value, str) else "/".join(str(v) for v in value)
                if text.replace(" ", "") != current["percentages"]:
                    change[key] = value
            elif key in ("fixed_prizes", "fee_percent", "mystery_pool"):
                if _normalised(key, value) != _normalised(key, current.get(key)):
                    change[key] = value
            elif value != current.get(key):
                change[key] = value
        if not change:
            return state, gettext("Nothing changed.")
        corrected = bool(given.get("correct_payments")) and bool(set(change) & set(PRICES)) and bool(state.ledger.payments)
        if change.get("bounty_kind") == "mystery" and not state.settings.mystery_seed:
            change["mystery_seed"] = new_seed()
        order = {key: n for n, key in enumerate(EDITABLE_SETTINGS)}  # the log reads as the page does
        change = {k: change[k] for k in sorted(change, key=lambda k: order.get(k, len(order)))}
        new: Tournament = writer.add("settings_changed", {**change, **({"correct_payments": True} if corrected else {})})
    saved = ", ".join(k.replace("_", " ") for k in change)
    if corrected:
        return new, gettext("Saved: %(fields)s. The payments already made are priced again at the new prices.",
                            fields=saved)
    if set(change) & set(PRICES) and state.ledger.payments:
        return new, gettext("Saved: %(fields)s. The new prices count for later payments; the payments already made "
                            "keep theirs.", fields=saved)
    return new, gettext("Saved: %(fields)s.", fields=saved)


PRICES = ("buy_in", "rebuy_cost", "addon_cost", "fee_amount", "fee_percent", "bounty", "bounty_kind")
"""The settings that price a payment: a change counts for later payments only."""


def colour_up(
    db: Database, tournament_id: int, table: int, stacks: Mapping[Any, int] | None, expected_seq: int | None,
    now: float, seed: int | None = None,
) -> tuple[Tournament, str]:
    """A table's colour-up at this break, the race's cards drawn here (``seed``, stored with
    the event so the fold replays the same race); returns the state and the race in words."""
    payload: dict[str, Any] = {"table": table, "seed": secrets.randbits(63) if seed is None else seed}
    if stacks:
        payload["stacks"] = {str(k): v for k, v in stacks.items()}
    new = record(db, tournament_id, "colour_up", payload, expected_seq, now)
    done = new.colour_ups[-1]
    told = [line for race in done.races for line in race.lines[2:] if not line.startswith("Seat ") or " has " not in line]
    return new, gettext("Table %(table)s is coloured up.", table=table) + " " + " ".join(say(line) for line in told)


def edit_structure(
    db: Database, tournament_id: int, change: Mapping[str, Any], expected_seq: int | None, now: float
) -> tuple[Tournament, str]:
    """One change to the structure in play (``engine.structure.edit``), and what it says:
    the change in words, and the structure check's warnings on the edited structure."""
    new = record(db, tournament_id, "structure_changed", dict(change), expected_seq, now)
    words = new.structure_edits[-1][1]
    warnings = structure_warnings(new.settings.structure)
    return new, " ".join([say(words), *(say(w) for w in warnings)])


# --- busts and undo ---------------------------------------------------------------------


def bust(
    db: Database,
    tournament_id: int,
    players: Sequence[Any],
    expected_seq: int | None,
    now: float,
    *,
    by: Any = None,
    stacks: Mapping[str, Any] | None = None,
) -> Tournament:
    """One player out, or several in the same hand (then ``stacks`` ranks them)."""
    payload: dict[str, Any] = {"players": list(players)}
    if by not in (None, ""):
        payload["by"] = by
    if stacks:
        payload["stacks"] = {str(k): v for k, v in stacks.items()}
    return record(db, tournament_id, "bust", payload, expected_seq, now)


def undo(db: Database, tournament_id: int, expected_seq: int | None, now: float) -> Tournament:
    return record(db, tournament_id, "undo", {}, expected_seq, now)


def redo(db: Database, tournament_id: int, expected_seq: int | None, now: float) -> Tournament:
    """The last undone entry again, as it was (refused when something new came after the undo)."""
    return record(db, tournament_id, "redo", {}, expected_seq, now)


def end_at_hand_cap(
    db: Database, tournament_id: int, stacks: Mapping[str, Any], expected_seq: int | None, now: float
) -> Tournament:
    return record(db, tournament_id, "hand_cap", {"stacks": dict(stacks)}, expected_seq, now)


# --- seating ----------------------------------------------------------------------------


def draw(
    db: Database, tournament_id: int, expected_seq: int | None, now: float, rng: random.Random | None = None
) -> Tournament:
    """The random seat draw for everyone still in (redraws if seats were drawn before)."""
    state = load_state(db, tournament_id)
    ids = [p.id for p in state.alive]
    if len(ids) < 2:
        raise InvalidInput("Register at least 2 players before the seat draw; {count} registered.", count=len(ids))
    rng = rng or random.Random()
    # Seats locked by the director (the seating page) are kept; each table draws its first button.
    locked = {pid: (t, s) for pid, t, s in state.locks if pid in ids}
    seating = draw_seats(ids, state.settings.table_size, rng, locked=locked)
    seats = {str(pid): [t, s] for t, s, pid in seating.placements}
    buttons = {str(t): draw_button(list(seating.at_table(t)), rng).button for t in seating.tables}
    return record(db, tournament_id, "seats_drawn", {"seats": seats, "buttons": buttons}, expected_seq, now)


def table_step(state: Tournament) -> Step[PlayerId]:
    """What the tables need now (balance, break a table, the final table, or nothing).

    Seeded by the state's sequence number, so the moves shown are the moves applied. Where the
    dealer's assistant dealt a hand at a table, its positions say who is due for the big blind
    (the player who moves, TDA 11-A) and which open seat is the worst position (TDA 2.4).
    """
    positions = {}
    for table in state.seating.tables:
        last = state.dealing.current(table)
        if last is not None:
            positions[table] = last.positions
    return next_step(state.seating, random.Random(state.seq), positions)


def move_text(state: Tournament, move: Move[PlayerId]) -> str:
    return move.describe({p.id: p.name for p in state.players})


def apply_table_step(db: Database, tournament_id: int, expected_seq: int | None, now: float) -> Tournament:
    state = load_state(db, tournament_id)
    if expected_seq is not None and expected_seq != state.seq:
        raise StaleWrite(expected_seq, state.seq)
    step = table_step(state)
    if not step.moves:
        raise InvalidInput("The tables are balanced: there is nobody to move.")
    moves = [
        {"player": m.player, "from": [m.from_table, m.from_seat], "to": [m.to_table, m.to_seat]} for m in step.moves
    ]
    return record(db, tournament_id, "players_moved", {"moves": moves}, state.seq, now)


def seat_player(
    db: Database, tournament_id: int, player: Any, expected_seq: int | None, now: float,
    rng: random.Random | None = None,
) -> Tournament:
    """Give an unseated player (back after a rebuy, or registered before a draw) a seat."""
    state = load_state(db, tournament_id)
    pid = int(player)
    _, (table, seat) = late_entry_seat(state.seating, pid, rng or random.Random())
    return record(db, tournament_id, "player_seated", {"player": pid, "table": table, "seat": seat}, expected_seq, now)
