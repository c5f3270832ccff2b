"""What the tables page, the print pages and the JSON answers show: seats and table plans,
the moves to make and those made, players' page tokens, read from the tournament's state.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import request, url_for
from markupsafe import Markup

from director.core.auth import is_director
from director.core.i18n import gettext, ngettext
from director.core.qr import qr_svg
from director.core.web import now
from director.core.words import number as amount
from director.core.words import say
from director.night.views import night_view, player_view
from director.tables import MOVE_SHOWN_SECONDS, MOVED_NOTICE_SECONDS, SEATING_EVENTS, TABLE_SIZES
from director.tables.links import player_url, public_base_url
from engine.dealing import plan_deal
from engine.errors import N_, EngineError
from engine.positions import Positions
from engine.rulings import MISDEALS, RULINGS
from engine.seating import (
    Move,
    Seating,
    Step,
    next_step,
    tables_to_halt,
)
from engine.tournament import Event, Player, PlayerId, Tournament

ACCIDENTS: dict[str, dict[str, str]] = {
    "misdeal_causes": {k: str(words) for k, (words, _) in MISDEALS.items() if k != "fouled_deck"},
    "ruling_kinds": {k: str(words) for k, words in RULINGS.items()},
}
"""What the dealer's "Something went wrong" menu offers: each cause and ruling by its English
words (the message ids the page says)."""


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


def table_step(state: Tournament) -> Step[PlayerId]:
    """What the tables need now (balance, break a table, the final table, or nothing).

    Seeded by the seating itself, so the moves shown are the moves applied and stay the same
    while the tables play on: a hand entered at another table, a pause or a registration does
    not draw them again (seeded by the event count, any entry anywhere did). Where the dealer's
    assistant dealt a hand at a table, its positions say who is due for the big blind (the
    player who moves, TDA 11-A) and which open seat is the worst position (TDA 2.4): a hand at
    a table that gives or takes a player may change who moves, as the rules say it should.
    """
    positions = {}
    for table in state.seating.tables:
        last = state.dealing.current(table)
        if last is not None:
            positions[table] = last.positions
    seating = state.seating
    return next_step(seating, random.Random(f"moves:{seating.table_size}:{seating.tables}:{seating.placements}"),
                     positions)


def current_step(state: Tournament) -> Step[PlayerId] | None:
    """What the director should do now: balance, break a table, the final table, or nothing
    (the step shown is the step the confirm records)."""
    if not has_draw(state) or len(seated(state)) < 2 or len(state.seating.tables) < 2:
        return None
    return table_step(state)


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
    """Why, in the reader's language."""
    final: bool = False
    """The final table's redraw (its seats are said by the TV's announcement)."""
    kind: str = ""
    """``balance``, ``break``, ``swap``, ``final`` (a confirmed step) or ``""`` (a move by hand)."""

    @property
    def text(self) -> str:
        if self.from_table:
            return gettext("%(name)s: from table %(from_table)s seat %(from_seat)s to table %(table)s seat %(seat)s",
                           name=self.name, from_table=self.from_table, from_seat=self.from_seat,
                           table=self.to_table, seat=self.to_seat)
        return gettext("%(name)s: to table %(table)s seat %(seat)s", name=self.name, table=self.to_table,
                       seat=self.to_seat)


@dataclass(frozen=True)
class StepView:
    """What the tables need now, said: the message and each move (its player, its sentence)."""

    action: str
    message: str
    moves: tuple[tuple[int, str], ...]
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
            sb = gettext("dead") if pos.small_blind_dead else str(pos.small_blind_seat_number)
            marks = {"button": pos.button, "small": sb, "big": pos.big_blind}
            next_hand = (gettext("Next hand · D %(button)s · SB %(small)s · BB %(big)s", **marks) if tracked
                         else gettext("First hand · D %(button)s · SB %(small)s · BB %(big)s", **marks))
        plans.append(
            TablePlan(table, size, tuple(seats), next_hand, breaking=table == breaking, final=single and state.players_left <= size)
        )
    return plans


def finishing_plans(state: Tournament) -> list[TablePlan]:
    """The tables that break once their hand in play is over (``Tournament.breaking_tables``),
    each with the players still finishing that hand in their seats there."""
    size = table_size(state)
    names = {p.id: p.name for p in state.players}
    plans = []
    for table in state.breaking_tables:
        hand = state.dealing.running(table)
        if hand is None:
            continue
        here = {seat: pid for seat, pid in hand.players if state.dealing.in_hand.get(pid) == table}
        seats = tuple(SeatView(number, *seat_xy(number, size), player_id=here.get(number),
                               name=names.get(here[number], "") if number in here else "",
                               button=hand.positions.button == number)
                      for number in range(1, size + 1))
        plans.append(TablePlan(table, size, seats, gettext(
            "Breaks after hand %(number)s: its players then take their new seats", number=hand.number), breaking=True))
    return plans


def move_history(state: Tournament) -> list[MoveRecord]:
    """Every move since the draw, oldest first (the draw itself is not a move; a redraw is)."""
    names = {p.id: p.name for p in state.players}
    where: dict[int, tuple[int, int]] = {}
    records: list[MoveRecord] = []

    def moved(event: Event, pid: int, to: tuple[int, int], reason: str, kind: str = "") -> None:
        old = where.get(pid)
        if old != to:
            records.append(
                MoveRecord(event.seq, event.at, pid, names.get(pid, "?"), old[0] if old else None,
                           old[1] if old else None, to[0], to[1], say(reason),
                           reason.startswith("The final table"), kind)
            )
        where[pid] = to

    for event in state.director_log:  # every seating event, without the hands of the night
        payload = event.payload
        if event.type == "seats_drawn":
            seats = {int(k): (int(v[0]), int(v[1])) for k, v in payload.get("seats", {}).items()}
            if payload.get("kind") == "final":
                for pid, place in seats.items():
                    moved(event, pid, place, "The final table: seats are redrawn.", "final")
            where = dict(seats)
        elif event.type == "player_seated":
            where[int(payload["player"])] = (int(payload["table"]), int(payload["seat"]))
        elif event.type == "player_moved":
            moved(event, int(payload["player"]), (int(payload["table"]), int(payload["seat"])),
                  str(payload.get("reason", "")))
        elif event.type == "players_moved":
            reason = MOVE_REASONS.get(str(payload.get("kind", "")), "")
            for m in payload.get("moves", []):
                moved(event, int(m["player"]), (int(m["to"][0]), int(m["to"][1])), reason, str(payload.get("kind", "")))
    return records


@dataclass(frozen=True)
class MoveGroup:
    """Moves the TV shows together: a table's break under its headline ("Table 3 breaks"),
    one line a player; or, with no headline, the other moves, one sentence each."""

    title: str
    lines: tuple[str, ...]


def tv_move_groups(state: Tournament, at: float) -> tuple[MoveGroup, ...]:
    """The moves a TV shows, each player once: first each table that breaks, as one ("Table 3
    breaks after this hand" and "Nils → table 1 seat 7", in the order of the seats they walk
    to), then the other moves, held until the player's hand at the old table is over ("After
    this hand at table 3: ...") or made in the last minute. A move made stale (the player out
    since, or moved again) is not shown; the final table's seats are said by its announcement."""
    players = {p.id: p for p in state.players}
    waiting = {p.id: table for p, table, _ in state.moves_waiting}
    latest: dict[int, MoveRecord] = {}
    for m in move_history(state):
        if at - m.at < MOVE_SHOWN_SECONDS:
            latest[m.player_id] = m  # a player's last move only
    breaks: dict[int, list[tuple[int, int, str]]] = {}
    breaks_waiting: set[int] = set()
    rows: list[tuple[int, int, str]] = []
    for m in latest.values():
        p = players.get(m.player_id)
        if m.final or p is None or p.out or (p.table, p.seat) != (m.to_table, m.to_seat):
            continue
        if m.kind == "break" and m.from_table is not None:
            breaks.setdefault(m.from_table, []).append((m.to_table, m.to_seat, gettext(
                "%(name)s → table %(table)s seat %(seat)s", name=m.name, table=m.to_table, seat=m.to_seat)))
            if m.player_id in waiting:
                breaks_waiting.add(m.from_table)
        elif m.player_id in waiting:
            rows.append((m.to_table, m.to_seat, gettext(
                "After this hand at table %(from_table)s: %(name)s moves to table %(table)s seat %(seat)s",
                from_table=waiting[m.player_id], name=m.name, table=m.to_table, seat=m.to_seat)))
        else:
            rows.append((m.to_table, m.to_seat, gettext(
                "Move: %(name)s, from table %(from_table)s seat %(from_seat)s to table %(to_table)s seat %(to_seat)s",
                name=m.name, from_table=m.from_table, from_seat=m.from_seat, to_table=m.to_table, to_seat=m.to_seat)
                if m.from_table is not None else
                gettext("%(name)s: table %(table)s seat %(seat)s", name=m.name, table=m.to_table, seat=m.to_seat)))
    for pid, table in waiting.items():  # a move waiting that the history no longer shows (older)
        p = players[pid]
        if pid not in latest:
            rows.append((p.table or 0, p.seat or 0, gettext(
                "After this hand at table %(from_table)s: %(name)s moves to table %(table)s seat %(seat)s",
                from_table=table, name=p.name, table=p.table, seat=p.seat)))
    groups = [MoveGroup(gettext("Table %(table)s breaks after this hand", table=table) if table in breaks_waiting
                        else gettext("Table %(table)s breaks", table=table),
                        tuple(text for *_, text in sorted(lines)))
              for table, lines in sorted(breaks.items())]
    if rows:
        groups.append(MoveGroup("", tuple(text for *_, text in sorted(rows))))
    return tuple(groups)


MOVE_REASONS = {
    "balance": N_("Balancing the tables."),
    "break": N_("A table breaks."),
    "swap": N_("Swapped by the director."),
    "final": N_("The final table: seats are redrawn."),
}
"""Why players moved, by the kind of move (English: the message ids)."""


def move_text(state: Tournament, move: Move[int], names: Mapping[int, str]) -> str:
    """The engine's sentence, plus "after the hand in play" where the dealer's assistant shows
    a hand running at the player's table (WSOP 67, TDA 2.2: a player dealt in finishes the hand,
    then moves)."""
    text = say(move.describe(names))
    if state.dealing.running(move.from_table) is not None:
        text = gettext("%(move)s After the hand in play.", move=text)
    return text


def step_view(state: Tournament, step: Step[int] | None) -> StepView | None:
    if step is None or step.action == "none":
        return None
    names = names_of(state)
    breaking = step.moves[0].from_table if step.action == "break" and step.moves else None
    return StepView(
        action=str(step.action),
        message=say(step.message),
        moves=tuple((m.player, move_text(state, m, names)) for m in step.moves),
        breaking_table=breaking,
        needs_director=any(m.needs_director for m in step.moves),
    )


def first_blinds(state: Tournament) -> str:
    levels = state.settings.structure.levels
    if not levels:
        return ""
    first = levels[0]
    text = f"{amount(first.small_blind)} / {amount(first.big_blind)}"
    return gettext("%(blinds)s (ante %(ante)s)", blinds=text, ante=amount(first.ante)) if first.ante else text


def redraw_confirm(state: Tournament) -> str | None:
    """What the director confirms before a new draw of every seat (None: the first draw, which
    takes nobody's seat), naming how many players move."""
    if not has_draw(state):
        return None
    locked = set(locks_of(state))
    moving = sum(1 for p in state.alive if p.id not in locked)
    return ngettext("Draw every seat again? %(num)d player moves to a new seat drawn at random; printed seat cards "
                    "will show the old seats (their codes keep working). Undo takes it back.",
                    "Draw every seat again? %(num)d players move to new seats drawn at random; printed seat cards "
                    "will show the old seats (their codes keep working). Undo takes it back.", moving)


def tables_context(tournament_id: int, state: Tournament, **extra: Any) -> dict[str, Any]:
    step = current_step(state)
    view = step_view(state, step)
    seating = seating_of(state) if has_draw(state) and seated(state) else None
    halted = tables_to_halt(seating) if seating is not None and len(seating.tables) > 1 else []
    plans = table_plans(state, view.breaking_table if view else None)
    last = state.last_event
    return {
        "tournament_id": tournament_id,
        "t": night_view(state, tournament_id),
        "plans": plans,
        "finishing": finishing_plans(state),
        "step": view,
        "halted": list(halted),
        "unseated": [player_view(p) for p in unseated(state)] if has_draw(state) else [],
        "locks": [(player_view(state.player(pid)), place) for pid, place in sorted(locks_of(state).items())],
        "alive": [player_view(p) for p in sorted(state.alive, key=lambda p: p.name.casefold())],
        "seated_players": [player_view(p) for p in sorted(seated(state), key=lambda p: p.name.casefold())],
        "moves": list(reversed(move_history(state)))[:12],
        "waiting_moves": [(player_view(p), table, hand) for p, table, hand in state.moves_waiting],
        "table_size": table_size(state),
        "table_sizes": TABLE_SIZES,
        "drawn": has_draw(state),
        "redraw_confirm": redraw_confirm(state),
        "can_undo_seating": last is not None and last.type in SEATING_EVENTS,
        "single_table": len(plans) == 1,
        "is_director": is_director(),
        **extra,
    }


def _paper() -> str:
    paper = request.args.get("paper", "a4").lower()
    return paper if paper in ("a4", "letter") else "a4"


def print_context(tournament_id: int, state: Tournament) -> dict[str, Any]:
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
        cards.append(CardView(p.id, p.name, p.table, p.seat, url, qr_svg(url, label=gettext("%(name)s's page", name=p.name))))
    return cards


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
    step = current_step(state)
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
        else {"action": step.action, "message": say(step.message), "moves": [_move_json(state, m, names) for m in step.moves]},
        "moves": [
            {"seq": m.seq, "player": m.player_id, "name": m.name, "from": {"table": m.from_table, "seat": m.from_seat},
             "to": {"table": m.to_table, "seat": m.to_seat}, "reason": m.reason}
            for m in move_history(state)
        ],
    }
