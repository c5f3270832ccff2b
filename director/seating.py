"""Tables and seats: the draw, locks, swaps, balancing and breaking, and the print pages.

Every change is an event in the tournament's log (the engine's fold checks it), so each one
can be undone and a stale page is refused with 409 like everywhere else:

* ``seat_locked`` / ``seat_unlocked``: ``{"player", "table", "seat"}`` before the draw;
* ``seats_drawn``: ``{"seats": {id: [table, seat]}, "buttons": {table: seat}, "table_size",
  "tokens": {id: token}, "kind": "draw" | "final"}``: the random draw, or the final table's
  redraw. The randomness is ours (the engine gets a ``random.Random``); the result is stored;
* ``player_seated``: ``{"player", "table", "seat", "token"?}``: a late entry or a re-entry;
* ``players_moved``: ``{"moves": [{"player", "from": [table, seat], "to": [table, seat]}],
  "kind": "balance" | "break" | "swap", "text": [...]}``: the moves the director confirmed, all
  at once; a swap by hand is two moves.

Players' page tokens (``secrets.token_urlsafe(16)``) come from the registration payload's
``token`` when it has one, else from the first seating event that seats the player; they point
to the player, not the seat, so a printed card keeps working after every move.

Routes (blueprint ``seating``): the tables page ``/t/<id>/tables`` and its actions, the print
pages under ``/t/<id>/print/``, the move on the TV ``/t/<id>/tables/tv-moves``, the address
setting ``/settings/address``, and the JSON twins under ``/api/t/<id>/tables``.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from director import address, inputs, services, shapes
from director.auth import is_director, login_required
from director.contract import Api, Write, read
from director.db import get_db
from director.events import load_state
from director.qr import qr_svg
from director.web import act, now, render
from engine.dealing import plan_deal
from engine.errors import EngineError, IllegalAction, InvalidInput
from engine.positions import Positions, draw_button
from engine.seating import (
    Move,
    Seating,
    Step,
    draw_seats,
    late_entry_seat,
    tables_to_halt,
)
from engine.tournament import Event, Player, Tournament

bp = Blueprint("seating", __name__)

TABLE_SIZES = (6, 9, 10)
SEATING_EVENTS = (
    "seat_locked",
    "seat_unlocked",
    "seats_drawn",
    "player_seated",
    "player_moved",
    "players_moved",
)
MOVE_SHOWN_SECONDS = 60
MOVED_NOTICE_SECONDS = 30 * 60
ADDRESS_SETTING = "lan_address"

# --------------------------------------------------------------------------- reading the state


def new_token() -> str:
    """An unguessable token for a player's page (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def player_tokens(state: Tournament) -> dict[int, str]:
    """Each player's page token, from the registration payload or the seating events (the
    engine keeps them as it folds)."""
    return dict(state.tokens)


def missing_tokens(state: Tournament) -> dict[str, str]:
    """New tokens for every player who has none yet, keyed as JSON keys are."""
    have = player_tokens(state)
    return {str(p.id): new_token() for p in state.players if p.id not in have}


def locks_of(state: Tournament) -> dict[int, tuple[int, int]]:
    """``{player: (table, seat)}`` locked for the next draw."""
    return {pid: (table, seat) for pid, table, seat in state.locks}



def table_size(state: Tournament) -> int:
    return int(state.settings.table_size)


def seated(state: Tournament) -> list[Player]:
    return [p for p in state.alive if p.table is not None and p.seat is not None]


def unseated(state: Tournament) -> list[Player]:
    """Players still in who have no seat: late entries, re-entries (after the draw)."""
    return list(state.unseated)


def has_draw(state: Tournament) -> bool:
    return state.last_draw[0] > 0


def seating_of(state: Tournament) -> Seating[int]:
    """The engine's view of who sits where (players still in), with the open tables."""
    return state.seating


def names_of(state: Tournament) -> dict[int, str]:
    return {p.id: p.name for p in state.players}


def next_hand_positions(state: Tournament) -> dict[int, tuple[Positions, bool]]:
    """The button and blinds of the next hand at each table, and whether the dealer's assistant
    tracks that table (else they are the first hand's, from the buttons drawn with the seats).

    Once play has started, a table whose hands are not entered shows none: nobody knows them.
    """
    result: dict[int, tuple[Positions, bool]] = {}
    for table in state.seating.tables:
        tracked = state.dealing.current(table) is not None
        if state.started and not tracked:
            continue
        try:
            result[table] = (plan_deal(state, table).positions, tracked)
        except EngineError:
            continue
    return result


def current_step(state: Tournament, tournament_id: int) -> Step[int] | None:
    """What the director should do now: balance, break a table, the final table, or nothing.

    The same step as the dashboard's (``services.table_step``, seeded by the state), so what
    the director is shown is what the confirm button records.
    """
    if not has_draw(state) or len(seated(state)) < 2 or len(state.seating.tables) < 2:
        return None
    return services.table_step(state)


# --------------------------------------------------------------------------- views for templates


@dataclass(frozen=True)
class SeatView:
    number: int
    x: float
    y: float
    player_id: int | None = None
    name: str = ""
    button: bool = False
    small_blind: bool = False
    dead_small_blind: bool = False
    big_blind: bool = False
    locked: bool = False
    moved: bool = False


@dataclass(frozen=True)
class TablePlan:
    number: int
    size: int
    seats: tuple[SeatView, ...]
    next_hand: str = ""
    breaking: bool = False
    final: bool = False

    @property
    def occupied(self) -> int:
        return sum(1 for s in self.seats if s.player_id is not None)


@dataclass(frozen=True)
class MoveRecord:
    """A move that happened (for slips, the TV and the player's notice)."""

    seq: int
    at: float
    player_id: int
    name: str
    from_table: int | None
    from_seat: int | None
    to_table: int
    to_seat: int
    reason: str = ""

    @property
    def text(self) -> str:
        start = f"from table {self.from_table} seat {self.from_seat} " if self.from_table else ""
        return f"{self.name}: {start}to table {self.to_table} seat {self.to_seat}"


@dataclass(frozen=True)
class StepView:
    action: str
    message: str
    moves: tuple[tuple[Move[int], str], ...]
    breaking_table: int | None = None
    needs_director: bool = False


def seat_xy(seat: int, size: int) -> tuple[float, float]:
    """Where seat ``seat`` of ``size`` sits around the oval, in percent of the plan's box.

    The dealer sits at the top; seat 1 is on the dealer's left (to the right on the plan)
    and the numbers run clockwise.

    >>> seat_xy(5, 9)
    (50.0, 91.0)
    """
    angle = -math.pi / 2 + 2 * math.pi * seat / (size + 1)
    return round(50 + 41 * math.cos(angle), 1), round(50 + 41 * math.sin(angle), 1)


def table_plans(state: Tournament, breaking: int | None = None) -> list[TablePlan]:
    size = table_size(state)
    names = {p.id: p.name for p in state.players}
    locks = {place: pid for pid, place in locks_of(state).items()}
    positions = next_hand_positions(state)
    recent = {m.player_id for m in move_history(state) if now() - m.at < MOVED_NOTICE_SECONDS}
    if not has_draw(state):
        return []
    tables = state.seating.tables
    single = len(tables) == 1
    plans = []
    for table in tables:
        at_table = state.seating.at_table(table)
        pos, tracked = positions.get(table, (None, False))
        seats = []
        for number in range(1, size + 1):
            pid = at_table.get(number)
            x, y = seat_xy(number, size)
            seats.append(
                SeatView(
                    number=number,
                    x=x,
                    y=y,
                    player_id=pid,
                    name=names.get(pid, "") if pid is not None else "",
                    button=pos is not None and pos.button == number,
                    small_blind=pos is not None and pos.small_blind_seat_number == number,
                    dead_small_blind=pos is not None and pos.small_blind_seat_number == number and pos.small_blind_dead,
                    big_blind=pos is not None and pos.big_blind == number,
                    locked=locks.get((table, number)) == pid and pid is not None,
                    moved=pid in recent,
                )
            )
        next_hand = ""
        if pos is not None:
            sb = "dead" if pos.small_blind_dead else str(pos.small_blind_seat_number)
            which = "Next hand" if tracked else "First hand"
            next_hand = f"{which} · D {pos.button} · SB {sb} · BB {pos.big_blind}"
        plans.append(
            TablePlan(table, size, tuple(seats), next_hand, breaking=table == breaking, final=single and state.players_left <= size)
        )
    return plans


def move_history(state: Tournament) -> list[MoveRecord]:
    """Every move since the draw, oldest first (the draw itself is not a move; a redraw is)."""
    names = {p.id: p.name for p in state.players}
    where: dict[int, tuple[int, int]] = {}
    records: list[MoveRecord] = []

    def moved(event: Event, pid: int, to: tuple[int, int], reason: str) -> None:
        old = where.get(pid)
        if old != to:
            records.append(
                MoveRecord(event.seq, event.at, pid, names.get(pid, "?"), old[0] if old else None,
                           old[1] if old else None, to[0], to[1], reason)
            )
        where[pid] = to

    for event in state.director_log:  # every seating event, without the hands of the night
        payload = event.payload
        if event.type == "seats_drawn":
            seats = {int(k): (int(v[0]), int(v[1])) for k, v in payload.get("seats", {}).items()}
            if payload.get("kind") == "final":
                for pid, place in seats.items():
                    moved(event, pid, place, "The final table: seats are redrawn.")
            where = dict(seats)
        elif event.type == "player_seated":
            where[int(payload["player"])] = (int(payload["table"]), int(payload["seat"]))
        elif event.type == "player_moved":
            moved(event, int(payload["player"]), (int(payload["table"]), int(payload["seat"])),
                  str(payload.get("reason", "")))
        elif event.type == "players_moved":
            reason = MOVE_REASONS.get(str(payload.get("kind", "")), "")
            for m in payload.get("moves", []):
                moved(event, int(m["player"]), (int(m["to"][0]), int(m["to"][1])), reason)
    return records


MOVE_REASONS = {
    "balance": "Balancing the tables.",
    "break": "A table breaks.",
    "swap": "Swapped by the director.",
    "final": "The final table: seats are redrawn.",
}


def move_text(state: Tournament, move: Move[int], names: Mapping[int, str]) -> str:
    """The engine's sentence, plus "after the hand in play" where the dealer's assistant shows
    a hand running at the player's table (WSOP 67, TDA 2.2: a player dealt in finishes the hand,
    then moves)."""
    text = move.describe(names)
    if state.dealing.running(move.from_table) is not None:
        text += " After the hand in play."
    return text


def step_view(state: Tournament, step: Step[int] | None) -> StepView | None:
    if step is None or step.action == "none":
        return None
    names = names_of(state)
    breaking = step.moves[0].from_table if step.action == "break" and step.moves else None
    return StepView(
        action=step.action,
        message=step.message,
        moves=tuple((m, move_text(state, m, names)) for m in step.moves),
        breaking_table=breaking,
        needs_director=any(m.needs_director for m in step.moves),
    )


def first_blinds(state: Tournament) -> str:
    levels = state.settings.structure.levels
    if not levels:
        return ""
    first = levels[0]
    text = f"{first.small_blind:,} / {first.big_blind:,}"
    return text + (f" (ante {first.ante:,})" if first.ante else "")


# --------------------------------------------------------------------------- the address


def stored_address() -> str | None:
    row = get_db().execute("SELECT value FROM settings WHERE key = ?", [ADDRESS_SETTING]).fetchone()
    return None if row is None else str(row[0])


def current_address() -> str:
    """The host part of the links in QR codes: the director's choice, else the best guess."""
    return stored_address() or address.best_address()


def public_base_url() -> str:
    """``http://192.168.1.20:5000``: the start of every address a phone is given.

    ``PUBLIC_URL`` in the config wins (for a reverse proxy or a name on the home network).
    """
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured).rstrip("/")
    return address.base_url(current_address(), address.port_of(request.host, request.scheme), request.scheme)


@bp.app_context_processor
def phone_address() -> dict[str, Any]:
    """``phone_base_url()`` for any template: the start of the addresses in the QR codes."""
    return {"phone_base_url": public_base_url}


def player_url(token: str) -> str:
    return public_base_url() + url_for("player.page", token=token)


# --------------------------------------------------------------------------- writes


def record(tournament_id: int, state: Tournament, seq: int, type_: str, payload: Mapping[str, Any]) -> Event:
    """Check the event with the engine's fold and append it (``services.record``)."""
    new = services.record(get_db(), tournament_id, type_, payload, seq, now())
    assert new.last_event is not None
    return new.last_event


def do_draw(tournament_id: int, state: Tournament, seq: int, size: int | None = None) -> Event:
    size = table_size(state) if size is None else size
    if size not in TABLE_SIZES:
        raise InvalidInput(f"A table has 6, 9 or 10 seats, not {size}.")
    # The engine draws names, so that its messages name the players.
    ids = {p.name: p.id for p in state.alive}
    if len(ids) < 2:
        raise IllegalAction(f"The draw needs at least 2 players; {len(ids)} registered.")
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
        raise IllegalAction(f"{len(players)} players do not fit at one final table of {size} seats.")
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
        raise IllegalAction(f"{player.name} is out: a re-entry must be registered first.")
    if player.table is not None:
        raise IllegalAction(f"{player.name} already sits at table {player.table} seat {player.seat}.")
    if not has_draw(state):
        raise IllegalAction(f"Draw the seats first: {player.name} gets a seat in the draw.")
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
            raise IllegalAction(f"{p.name} has no seat to swap.")
    assert pa.table and pa.seat and pb.table and pb.seat
    moves = [Move(a, pa.table, pa.seat, pb.table, pb.seat), Move(b, pb.table, pb.seat, pa.table, pa.seat)]
    text = f"Swap {pa.name} (table {pa.table} seat {pa.seat}) and {pb.name} (table {pb.table} seat {pb.seat})."
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


# --------------------------------------------------------------------------- pages

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

MESSAGES = {
    "draw": "Seats drawn.",
    "redraw": "The final table is redrawn.",
    "confirm": "Done: the moves are recorded.",
    "seat": "Seated.",
    "swap": "Swapped.",
    "lock": "Seat locked for the draw.",
    "unlock": "Lock removed.",
    "undo": "Undone.",
}


def tables_context(tournament_id: int, state: Tournament, **extra: Any) -> dict[str, Any]:
    step = current_step(state, tournament_id)
    view = step_view(state, step)
    seating = seating_of(state) if has_draw(state) and seated(state) else None
    halted = tables_to_halt(seating) if seating is not None and len(seating.tables) > 1 else []
    plans = table_plans(state, view.breaking_table if view else None)
    last = state.last_event
    return {
        "tournament_id": tournament_id,
        "t": state,
        "plans": plans,
        "step": view,
        "halted": halted,
        "unseated": unseated(state) if has_draw(state) else [],
        "locks": [(state.player(pid), place) for pid, place in sorted(locks_of(state).items())],
        "alive": sorted(state.alive, key=lambda p: p.name.casefold()),
        "seated_players": sorted(seated(state), key=lambda p: p.name.casefold()),
        "moves": list(reversed(move_history(state)))[:12],
        "waiting_moves": state.moves_waiting,
        "table_size": table_size(state),
        "table_sizes": TABLE_SIZES,
        "drawn": has_draw(state),
        "can_undo_seating": last is not None and last.type in SEATING_EVENTS,
        "single_table": len(plans) == 1,
        "is_director": is_director(),
        **extra,
    }


def render_tables(tournament_id: int, **extra: Any) -> str:
    state = load_state(get_db(), tournament_id)
    return render("tables.html", "_tables.html", **tables_context(tournament_id, state, **extra))


@bp.get("/t/<int:tournament_id>/tables")
def tables(tournament_id: int) -> ResponseReturnValue:
    return render_tables(tournament_id)


@bp.post("/t/<int:tournament_id>/tables/<action>")
@login_required
def tables_action(tournament_id: int, action: str) -> ResponseReturnValue:
    if action not in ACTIONS:
        return render_tables(tournament_id, error=f"Unknown action {action!r}."), 404
    def do() -> None:
        run_action(tournament_id, action, read(ACTIONS[action][0]))

    return act(
        do,
        url_for("seating.tables", tournament_id=tournament_id),
        lambda **kw: render_tables(tournament_id, **kw),
        message=MESSAGES[action],
    )


@bp.get("/t/<int:tournament_id>/tables/tv-moves")
def tv_moves(tournament_id: int) -> ResponseReturnValue:
    """The moves of the last minute, in large type, for the TV to show."""
    state = load_state(get_db(), tournament_id)
    recent = [m for m in move_history(state) if now() - m.at < MOVE_SHOWN_SECONDS]
    return render(
        "tables_tv_moves.html", "tables_tv_moves.html", tournament_id=tournament_id, moves=recent,
        waiting_moves=state.moves_waiting,
    )


# --------------------------------------------------------------------------- print pages


def _paper() -> str:
    paper = request.args.get("paper", "a4").lower()
    return paper if paper in ("a4", "letter") else "a4"


def _print_context(tournament_id: int, state: Tournament) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "tournament_name": state.name,
        "paper": _paper(),
        "back_url": url_for("seating.tables", tournament_id=tournament_id),
        "keep_args": {},
        "base_url": public_base_url(),
    }


@dataclass(frozen=True)
class CardView:
    player_id: int
    name: str
    table: int
    seat: int
    url: str
    qr: Markup


def seat_cards(state: Tournament, only: Iterable[int] | None = None) -> list[CardView]:
    tokens = player_tokens(state)
    wanted = set(only) if only is not None else None
    cards = []
    for p in sorted(seated(state), key=lambda p: (p.table or 0, p.seat or 0)):
        if wanted is not None and p.id not in wanted:
            continue
        token = tokens.get(p.id)
        if token is None or p.table is None or p.seat is None:
            continue
        url = player_url(token)
        cards.append(CardView(p.id, p.name, p.table, p.seat, url, qr_svg(url, label=f"{p.name}'s page")))
    return cards


@bp.get("/t/<int:tournament_id>/print/cards")
@login_required
def print_cards(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    only = request.args.getlist("player", type=int) or None
    context = _print_context(tournament_id, state)
    if only:
        context["keep_args"] = {"player": ",".join(map(str, only))}
    return render(
        "print_cards.html",
        cards=seat_cards(state, only),
        starting_stack=state.settings.starting_stack,
        first_blinds=first_blinds(state),
        **context,
    )


@bp.get("/t/<int:tournament_id>/print/signs")
@login_required
def print_signs(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    return render("print_signs.html", tables=table_plans(state), **_print_context(tournament_id, state))


@bp.get("/t/<int:tournament_id>/print/clock")
@login_required
def print_clock(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    url = public_base_url() + _clock_path(tournament_id)
    return render("print_clock.html", url=url, qr=qr_svg(url, label="The clock"), **_print_context(tournament_id, state))


def _clock_path(tournament_id: int) -> str:
    """The phone clock if the TV module offers one, else the TV page."""
    for endpoint in ("tv.phone", "tv.show", "tv.page"):
        if endpoint in current_app.view_functions:
            return url_for(endpoint, tournament_id=tournament_id)
    return url_for("seating.tables", tournament_id=tournament_id)


@bp.get("/t/<int:tournament_id>/print/moves")
@login_required
def print_moves(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    moves = move_history(state)
    since = request.args.get("since", type=int)
    if since is not None:
        moves = [m for m in moves if m.seq >= since]
    return render("print_moves.html", moves=moves, **_print_context(tournament_id, state))


# --------------------------------------------------------------------------- the address setting


@bp.route("/settings/address", methods=["GET", "POST"])
@login_required
def address_setting() -> ResponseReturnValue:
    error = None
    notice = None
    if request.method == "POST":
        chosen = (request.form.get("custom") or request.form.get("address") or "").strip()
        if not address.is_valid_address(chosen):
            error = f"{chosen!r} is not an address: type an IP address such as 192.168.1.20."
        else:
            db = get_db()
            with db.atomic():
                db.table("settings").upsert({"key": ADDRESS_SETTING, "value": chosen}, pk="key")
            notice = f"QR codes now lead to {public_base_url()}."
            if not request.headers.get("HX-Request"):
                from flask import flash, redirect

                flash(notice, "ok")
                target = request.form.get("next") or ""
                safe = target.startswith("/") and not target.startswith("//")
                return redirect(target if safe else url_for("seating.address_setting"), code=303)
    context = {
        "candidates": address.candidate_addresses(),
        "current": current_address(),
        "stored": stored_address(),
        "base_url": public_base_url(),
        "error": error,
        "notice": notice,
        "next": request.values.get("next", ""),
    }
    return render("tables_address.html", "_lan_address.html", **context), 422 if error else 200


# --------------------------------------------------------------------------- the JSON twins


def _move_json(state: Tournament, move: Move[int], names: Mapping[int, str]) -> dict[str, Any]:
    return {
        "player": move.player,
        "name": names.get(move.player, str(move.player)),
        "from": {"table": move.from_table, "seat": move.from_seat},
        "to": {"table": move.to_table, "seat": move.to_seat},
        "waits_for_big_blind": move.waits_for_big_blind,
        "needs_director": move.needs_director,
        "text": move_text(state, move, names),
    }


def tables_json(tournament_id: int, state: Tournament) -> dict[str, Any]:
    names = names_of(state)
    step = current_step(state, tournament_id)
    plans = table_plans(state)
    return {
        "seq": state.seq,
        "table_size": table_size(state),
        "drawn": has_draw(state),
        "tables": [
            {
                "number": plan.number,
                "seats": [
                    {"seat": s.number, "player": None if s.player_id is None else {"id": s.player_id, "name": s.name}}
                    for s in plan.seats
                ],
                "button": next((s.number for s in plan.seats if s.button), None),
            }
            for plan in plans
        ],
        "unseated": [{"id": p.id, "name": p.name} for p in (unseated(state) if has_draw(state) else [])],
        "locks": [{"player": pid, "table": t, "seat": s} for pid, (t, s) in sorted(locks_of(state).items())],
        "step": None
        if step is None or step.action == "none"
        else {"action": step.action, "message": step.message, "moves": [_move_json(state, m, names) for m in step.moves]},
        "moves": [
            {"seq": m.seq, "player": m.player_id, "name": m.name, "from": {"table": m.from_table, "seat": m.from_seat},
             "to": {"table": m.to_table, "seat": m.to_seat}, "reason": m.reason}
            for m in move_history(state)
        ],
    }


api = Api(bp, "seating")


@api.get("/api/t/<int:tournament_id>/tables", summary="Tables, seats, locks and the moves to make",
         result=shapes.Tables)
def api_tables(tournament_id: int) -> ResponseReturnValue:
    return jsonify(tables_json(tournament_id, load_state(get_db(), tournament_id)))


SUMMARIES = {
    "draw": "Draw seats at random (table_size: seats per table)",
    "redraw": "Redraw the final table's seats",
    "confirm": "Record the balancing, table break or final-table moves shown (action: the step)",
    "seat": "Seat a late entry at the table that is short",
    "swap": "Swap two players' seats",
    "lock": "Keep a seat for a player at the draw (a player who needs it)",
    "unlock": "Remove a player's seat lock",
    "undo": "Take back the last seating entry",
}


def _api_action(action: str) -> None:
    def view(tournament_id: int, data: Write) -> ResponseReturnValue:
        event = run_action(tournament_id, action, data)
        body = tables_json(tournament_id, load_state(get_db(), tournament_id))
        body["event"] = {"seq": event.seq, "type": event.type}
        return jsonify(body), 201

    api.post(f"/api/t/<int:tournament_id>/tables/{action}", summary=SUMMARIES[action], body=ACTIONS[action][0],
             result=shapes.Tables, endpoint=f"api_tables_{action}")(view)


for _action in ACTIONS:
    _api_action(_action)
api.unknown("/api/t/<int:tournament_id>/tables/<action>", tuple(ACTIONS), "action")
