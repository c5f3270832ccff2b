"""What the TV shows beside the clock: the levels to come, the chip leaders, the hand-for-hand
board, the table moves and the announcements, a mystery bounty's envelope, and the season's
standings between tournaments. Each is worded here from the tournament's state and ``now``;
``director.screens.clock_view`` puts them in the clock's view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from director.core.i18n import gettext
from director.core.words import number as chips
from director.core.words import say
from director.night.views import mystery_draw_text
from director.screens.announcements import (
    Announcement,
    and_list,
    clock_announcements,
    current,
    field_announcements,
)
from director.screens.clock_words import colour_up_text, level_blinds, with_ante
from engine.bounties import bounties
from engine.clock import ClockState
from engine.dealing import stack_of
from engine.errors import EngineError
from engine.structure import Structure
from engine.tournament import Tournament

if TYPE_CHECKING:  # the seating's module is optional: its moves are typed, not imported
    from director.tables.views import MoveGroup

ENVELOPE_SHOWN = 60.0
"""Seconds a mystery bounty drawn stays on the TV."""


@dataclass(frozen=True)
class Upcoming:
    """One of the next levels or breaks: 'Level 6', '150 / 300 · ante 300', '20 min'."""

    title: str
    blinds: str
    minutes: str
    is_break: bool = False


@dataclass(frozen=True)
class Leader:
    name: str
    stack: str
    big_blinds: str


@dataclass(frozen=True)
class BoardRow:
    table: int
    text: str
    done: bool


@dataclass(frozen=True)
class SeasonPanel:
    name: str
    rows: tuple[tuple[int, str, str], ...]  # rank, name, points


@dataclass(frozen=True)
class EnvelopeView:
    """A mystery bounty just drawn, shown like an envelope opened for a minute."""

    id: str
    who: str
    amount: str
    text: str


@dataclass(frozen=True)
class SidePanels:
    """The panels of one clock view (none on a phone)."""

    announcements: tuple[Announcement, ...] = ()
    moves: tuple[MoveGroup, ...] = ()
    upcoming: tuple[Upcoming, ...] = ()
    leaders: tuple[Leader, ...] = ()
    leaders_note: str = ""
    board: tuple[BoardRow, ...] = ()


def side_panels(state: Tournament, clock: ClockState, now: float, *, paid_places: int,
                big_blind: int) -> SidePanels:
    """The TV's panels at ``now`` (a phone shows none of them)."""
    moves, final_seats, final_at = _moves(state, now)
    announcements = tuple(current(
        [*clock_announcements(state, clock, now), *field_announcements(state, paid_places, final_seats, final_at)],
        now))
    leaders, leaders_note = _leaders(state, big_blind)
    return SidePanels(
        announcements=announcements,
        moves=moves,
        upcoming=() if state.finished else _upcoming(clock, state.settings.structure),
        leaders=leaders,
        leaders_note=leaders_note,
        board=_board(state),
    )


def envelope(state: Tournament, now: float) -> EnvelopeView | None:
    """The mystery bounty drawn last, for a minute after it was drawn."""
    if state.settings.bounty_kind != "mystery":
        return None
    draws = bounties(state).draws
    if not draws:
        return None
    draw = draws[-1]
    if draw.at is None or not draw.at <= now <= draw.at + ENVELOPE_SHOWN:
        return None
    who = and_list(state.name_of(p) for p in draw.takers)
    return EnvelopeView(f"{len(draws)}-{draw.victim}", who, chips(draw.amount) if draw.amount else "–",
                        say(mystery_draw_text(state, draw)))


def _upcoming(clock: ClockState, structure: Structure, count: int = 3) -> tuple[Upcoming, ...]:
    """The next ``count`` levels and breaks after the one on now."""
    out: list[Upcoming] = []
    if clock.on_break:
        number, brk = clock.next_level_number or 1, None
    else:
        current_level = clock.level_number or 0
        number, brk = current_level + 1, structure.break_after(current_level) if current_level else None
    while len(out) < count:
        if brk is not None:
            out.append(Upcoming(gettext("Break"), colour_up_text(brk.colour_up),
                                gettext("%(minutes)s min", minutes=brk.minutes), True))
            brk = None
            continue
        if number > structure.level_count and not structure.repeat_doubling:
            break
        try:
            level = structure.level(number)
        except EngineError:
            break
        blinds = with_ante(level_blinds(structure, level), level.ante)
        length = (gettext("%(hands)s hands", hands=level.hands) if level.hands
                  else gettext("%(minutes)s min", minutes=(level.seconds or 0) // 60))
        out.append(Upcoming(gettext("Level %(level)s", level=number), blinds, length))
        brk = structure.break_after(number)
        number += 1
    return tuple(out)


def _leaders(state: Tournament, big_blind: int, count: int = 5) -> tuple[tuple[Leader, ...], str]:
    """The biggest stacks at the tables whose dealers enter the hands, and the true average."""
    tables = state.seating.tables
    tracked = [t for t in tables if state.dealing.current(t) is not None]
    if not tracked:
        return (), ""
    players = [p for p in state.alive if p.table in tracked]
    stacks = {p.id: stack_of(state, p.id) for p in players}
    ranked = sorted(players, key=lambda p: (-stacks[p.id], p.id))[:count]
    leaders = tuple(
        Leader(p.name, chips(stacks[p.id]), gettext("%(count)s BB", count=format(stacks[p.id] / big_blind, ".0f")) if big_blind else "")
        for p in ranked
    )
    if len(tracked) == len(tables) and players:
        note = gettext("True average %(average)s, from the dealers' phones",
                       average=chips(sum(stacks.values()) // len(players)))
    else:
        note = gettext("At %(tracked)s of %(tables)s tables (those with a dealer's phone)", tracked=len(tracked),
                       tables=len(tables))
    return leaders, note


def _board(state: Tournament) -> tuple[BoardRow, ...]:
    """Hand for hand: each table playing or done with the current hand (TDA RP-8)."""
    if not state.hand_for_hand or state.finished:
        return ()
    since = state.h4h_since or 0
    rows = []
    for table in state.seating.tables:
        if len(state.seating.at_table(table)) < 2:
            continue
        latest = state.dealing.current(table)
        if latest is None:
            rows.append(BoardRow(table, gettext("no dealer's phone"), False))
        elif latest.started_seq <= since:  # the hand in play when hand for hand began
            rows.append(BoardRow(table, gettext("ready for hand 1") if latest.finished else gettext("playing"),
                                 latest.finished))
        else:
            hand = latest.h4h_round or 0
            rows.append(BoardRow(table, gettext("hand %(hand)s done", hand=hand) if latest.finished
                                 else gettext("playing hand %(hand)s", hand=hand), latest.finished))
    return tuple(rows)


def _final_draw(state: Tournament, since: float) -> tuple[list[tuple[str, int, int]], float | None]:
    """The final table's redraw made since ``since``: each player's (name, table, seat)."""
    for event in state.director_log.reversed():
        if event.at < since:
            break
        if event.type == "seats_drawn" and event.payload.get("kind") == "final":
            seats = event.payload.get("seats") or {}
            return [(state.name_of(int(pid)), int(place[0]), int(place[1])) for pid, place in seats.items()], event.at
    return [], None


def _moves(state: Tournament, now: float) -> tuple[tuple[MoveGroup, ...], list[tuple[str, int, int]], float | None]:
    """The moves to show (waiting for a hand's end, and those of the last minute), and the
    final table's redraw as (name, table, seat) with its time, when it is that recent."""
    try:
        from director.tables import MOVE_SHOWN_SECONDS
        from director.tables.views import tv_move_groups
    except ImportError:  # the seating's pages are not part of this app
        return (), [], None
    final, final_at = _final_draw(state, now - MOVE_SHOWN_SECONDS * 2)
    return tv_move_groups(state, now), final, final_at
