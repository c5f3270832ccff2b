"""The TV clock: the page that hangs on the wall all night, and the same clock sized for a phone.

The server says when the current level ends (or how long is left, when paused); ``tv.js`` draws
the countdown from that against a measured offset to the server's clock and re-fetches the
clock partial every 1.5 seconds (so a pause shows within two). The partial holds no state of
its own: it is a rendering of ``ClockView``, built from the tournament's events and ``now``.

Routes (blueprint ``tv``):

* ``GET /t/<id>/tv``: the TV page (read-only; with the director's session, the keyboard works);
* ``GET /t/<id>/tv/clock``: the clock partial the TV polls (cacheable for one second);
* ``GET /t/<id>/tv/phone``: the phone-sized clock (a partial for htmx, a small page otherwise);
* ``POST /t/<id>/tv/key``: a director's key on the TV (pause, resume, next, previous, +/- a minute);
* ``POST /t/<id>/tv/action-clock`` and ``.../action-clock/stop``: put a player on the clock;
* ``POST /t/<id>/tv/hand-for-hand``: hand for hand on or off.

The dashboard includes ``_tv_controls.html`` (the action clock and hand for hand) for the director.

Other pages embed the phone clock with ``{% include "_tv_clock_phone.html" %}`` and
``clock=phone_clock(tournament_id)``.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import math
import sqlite3
import threading
from dataclasses import dataclass, replace
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from director.core import inputs, shapes
from director.core.auth import is_director, login_required
from director.core.contract import Api, flag
from director.core.db import get_db
from director.core.i18n import gettext, language, ngettext, ordinal, say
from director.core.i18n import number as chips
from director.core.store import StaleWrite, UnknownTournament, load_state
from director.core.web import act, expected_seq, is_partial_request, now, values
from director.core.work import register_cache
from director.night import commands as services
from director.night.answers import answer
from director.night.views import late_registration_text, mystery_view, prize_lines
from director.screens import look as screens
from director.screens.announcements import (
    Announcement,
    and_list,
    clock_announcements,
    current,
    field_announcements,
    level_extras,
)
from engine.bounties import bounties
from engine.clock import ClockState
from engine.dealing import stack_of
from engine.errors import EngineError, InvalidInput
from engine.payouts import league_points
from engine.structure import Structure, structure_to_dict
from engine.tournament import ActionClock, Tournament

#: Seconds the action clock stays on screen after it runs out ("Time!").
ACTION_CLOCK_LINGER = 8.0

# ---------------------------------------------------------------- the view


@dataclass(frozen=True)
class Stat:
    """One figure in the strip at the bottom: label, value, and an optional small note."""

    kind: str
    label: str
    value: str
    note: str = ""
    deadline_ms: int | None = None


@dataclass(frozen=True)
class Flag:
    """A banner: ``bubble``, ``itm`` (in the money), ``h4h`` (hand for hand) or ``info``."""

    kind: str
    text: str


@dataclass(frozen=True)
class Payout:
    place: str
    amount: str
    paid: bool = False
    who: str = ""  # once the tournament is over: who won this prize


@dataclass(frozen=True)
class ActionClockView:
    """A player put on the clock: who, and when their time runs out."""

    id: str
    who: str
    deadline_ms: int
    seconds_text: str


@dataclass(frozen=True)
class ClockView:
    """Everything the clock partial shows, already worded and formatted."""

    tournament_id: int
    name: str
    status: str  # not_started, running, paused, on_break, finished
    key: str  # which level or break is on: a change rings the level chime
    seq: int
    server_now_ms: int
    poll_url: str
    title: str  # "Level 5", "Break", "Finished"
    subtitle: str
    time_text: str
    ends_at_ms: int | None
    seconds_left: float | None
    last_minute: bool
    hands_left: int | None
    blinds_label: str
    blinds: str
    ante: str
    colour_up: str
    next_text: str
    next_is_break: bool
    flags: tuple[Flag, ...]
    stats: tuple[Stat, ...]
    payouts: tuple[Payout, ...]
    payouts_label: str
    action: ActionClockView | None
    announce: str
    after: AfterView | None = None
    envelope: EnvelopeView | None = None
    headline: str = ""  # in place of the time: the winner, once it is over
    announcements: tuple[Announcement, ...] = ()
    moves: tuple[str, ...] = ()
    """The moves of the last minute and those waiting for a hand's end, one sentence each."""
    upcoming: tuple[Upcoming, ...] = ()
    leaders: tuple[Leader, ...] = ()
    leaders_note: str = ""
    board: tuple[BoardRow, ...] = ()
    """Hand for hand: where each table is in the current hand (tables with the dealer's phone)."""
    season: SeasonPanel | None = None
    chart_url: str = ""
    """The structure drawn (an SVG image, cached by the browser until the structure changes)."""


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


ENVELOPE_SHOWN = 60.0
"""Seconds a mystery bounty drawn stays on the TV."""


def _envelope(state: Tournament, now: float) -> EnvelopeView | None:
    view = mystery_view(state)
    if view is None or not view.draws:
        return None
    draw = view.draws[-1]
    if draw.at is None or not draw.at <= now <= draw.at + ENVELOPE_SHOWN:
        return None
    who = and_list(state.name_of(p) for p in draw.takers)
    return EnvelopeView(f"{len(view.draws)}-{draw.victim}", who, chips(draw.amount) if draw.amount else "–",
                        say(view.text(state, draw)))


@dataclass(frozen=True)
class AfterView:
    """What comes next if the clock runs on, for a TV that loses the server at a level's end."""

    key: str
    title: str
    blinds: str
    ante: str
    ends_at_ms: int
    announce: str


# ---------------------------------------------------------------- formatting


def format_clock(seconds: float) -> str:
    """Time left as the TV shows it, rounded up to the second (0:00 only when time is up).

    >>> format_clock(1200), format_clock(1199.2), format_clock(59.001), format_clock(0.0)
    ('20:00', '20:00', '1:00', '0:00')
    >>> format_clock(3725)
    '1:02:05'
    """
    whole = max(0, math.ceil(seconds - 1e-9))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"



def blinds_text(small: int, big: int) -> str:
    return f"{chips(small)} / {chips(big)}"


def colour_up_text(denominations: tuple[int, ...] | list[int]) -> str:
    """The colour-up as the director says it: 'Remove the 5 and 25 chips'."""
    values = sorted(denominations)
    if not values:
        return ""
    names = [chips(v) for v in values]
    if len(names) == 1:
        return gettext("Remove the %(chips)s chips", chips=names[0])
    return gettext("Remove the %(chips)s and %(last)s chips", chips=", ".join(names[:-1]), last=names[-1])


def say_number(amount: int) -> str:
    """Numbers for the speech synthesiser: '1,000' reads oddly in some voices, '1000' never."""
    return str(amount)


def _level_words(level: int | None, small: int, big: int, ante: int | None) -> str:
    """What the voice says as a level starts: 'Level 5. Blinds 150, 300, ante 300.'"""
    if ante:
        return gettext("Level %(level)s. Blinds %(small)s, %(big)s, ante %(ante)s.", level=level,
                       small=say_number(small), big=say_number(big), ante=say_number(ante))
    return gettext("Level %(level)s. Blinds %(small)s, %(big)s.", level=level, small=say_number(small),
                   big=say_number(big))


# ---------------------------------------------------------------- the clock from the events


def tournament_clock(state: Tournament, now: float) -> ClockState:
    """The clock of a tournament at ``now``: the same reading as the director's dashboard."""
    return state.clock_at(now)


def _ms(epoch_seconds: float) -> int:
    return round(epoch_seconds * 1000)


def _next_text(clock: ClockState, structure: Structure) -> tuple[str, bool]:
    """What comes after the current level or break: ('150 / 300 · ante 300', False) or ('Break', True)."""
    if clock.break_next:
        brk = structure.break_after(clock.level_number or 0)
        if brk:
            return gettext("Break · %(minutes)s min", minutes=brk.minutes), True
        return gettext("Break"), True
    level = clock.next_level
    if level is None:
        if clock.continuing or (clock.level_number == structure.level_count and not structure.repeat_doubling):
            return gettext("this level goes on"), False
        return "", False
    return _with_ante(blinds_text(level.small_blind, level.big_blind), level.ante), False


def _with_ante(blinds: str, ante: int | None) -> str:
    """``150 / 300 · ante 300`` (the blinds alone without an ante)."""
    return gettext("%(blinds)s · ante %(ante)s", blinds=blinds, ante=chips(ante)) if ante else blinds


def _bounty_stat(state: Tournament) -> Stat | None:
    """The bounty the TV shows: the biggest head when it is bigger than every other ("Bounty on
    Ann 35, the biggest"), the bounty on each head when they are all equal, else the biggest
    amount and how many share it."""
    b = bounties(state)
    heads = {p.id: b.head(p.id) for p in state.alive if b.head(p.id)}
    if not heads:
        return None
    biggest = b.biggest
    if biggest is not None:
        pid, amount = biggest
        return Stat("bounty", gettext("Bounty on %(name)s", name=state.name_of(pid)), chips(amount),
                    gettext("the biggest") if len(heads) > 1 else "")
    top = max(heads.values())
    if all(amount == top for amount in heads.values()):
        return Stat("bounty", gettext("Bounty on each head"), chips(top))
    sharing = [state.name_of(p) for p, amount in heads.items() if amount == top]
    return Stat("bounty", gettext("Biggest bounty"), chips(top),
                " & ".join(sharing) if len(sharing) <= 3 else ngettext("%(num)d player", "%(num)d players", len(sharing)))


def _payouts(state: Tournament) -> tuple[tuple[Payout, ...], str]:
    if state.settings.payout_kind == "points":
        entries = max(state.entries, 1)
        points = [
            league_points(place, entries, state.settings.league_formula) for place in range(1, min(entries, 5) + 1)
        ]
        return (
            tuple(Payout(ordinal(i), gettext("%(points)s pts", points=format(p, "g"))) for i, p in enumerate(points, start=1)),
            gettext("League points"),
        )
    lines = [line for line in prize_lines(state) if line.amount] if state.settings.buy_in > 0 else []
    if state.finished:  # every prize is won: name the winners rather than strike the places out
        return tuple(Payout(line.label, chips(line.amount), who=" & ".join(line.names)) for line in lines), \
            gettext("Prizes")
    label = gettext("After the deal") if state.deal is not None else gettext("Payouts")
    return tuple(Payout(line.label, chips(line.amount), paid=line.settled and not line.dealt) for line in lines), label


def _flags(state: Tournament, clock: ClockState, paid_places: int) -> tuple[Flag, ...]:
    flags: list[Flag] = []
    left = state.players_left
    if paid_places >= 2 and state.started and not state.finished and state.entries > paid_places:
        if left == paid_places + 1:
            flags.append(Flag("bubble", gettext("One more out and everyone is paid")))
        elif left <= paid_places:
            flags.append(Flag("itm", gettext("In the money")))
    if state.hand_for_hand and not state.finished:
        flags.append(Flag("h4h", gettext("Hand for hand")))
    level = clock.level_number or max(1, (clock.next_level_number or 2) - 1)
    s = state.settings
    if state.started and not state.finished:
        if s.rebuy_levels and not state.standings.rebuys_closed and level <= s.rebuy_levels:
            if level < s.rebuy_levels:
                flags.append(Flag("money", gettext("Rebuys open until the end of level %(level)s", level=s.rebuy_levels)))
            elif clock.on_break:
                flags.append(Flag("money", gettext("Last chance to rebuy: until play resumes")))
            else:
                flags.append(Flag("money", gettext("Last level of rebuys")))
        if s.addon_level and level == s.addon_level:
            flags.append(Flag("money", gettext("Add-on open until play resumes") if clock.on_break
                              else gettext("Add-on open")))
    late = late_registration_text(state, level)
    if late:
        flags.append(Flag("info", late))
    if clock.hand_cap_reached and state.finished:
        flags.append(Flag("info", gettext("Ended at the %(cap)s-hand cap: places by chips", cap=clock.hand_cap)))
    elif clock.hand_cap_reached:
        flags.append(Flag("info", gettext("Hand cap reached: the players still in are ranked by chips")))
    return tuple(flags)


RULING_SHOWN = 30.0
"""Seconds the TV shows the ruling when a player's time ran out."""


def _clock_rulings(state: Tournament, now: float) -> tuple[Flag, ...]:
    """The clock that bit (TDA 29): its ruling, for half a minute."""
    flags = []
    for table, record in sorted(state.dealing.latest.items()):
        for ruling in record.rulings:
            if ruling.kind == "clock" and ruling.at <= now <= ruling.at + RULING_SHOWN:
                flags.append(Flag("ruling", gettext("Table %(table)s: %(ruling)s", table=table, ruling=say(ruling.text))))
    return tuple(flags)


def clock_who(action: ActionClock) -> str:
    """Who is on the clock, in the reader's language. The dealer's phone puts the seat to act on
    it as "Table 1 seat 4 – Ben" (the event keeps that English); a name typed on the dashboard
    is shown as typed."""
    if action.table is None or action.seat is None:
        return action.who
    seat = f"Table {action.table} seat {action.seat}"
    if action.who == seat:
        return gettext("Table %(table)s seat %(seat)s", table=action.table, seat=action.seat)
    if action.who.startswith(f"{seat} – "):
        return gettext("Table %(table)s seat %(seat)s – %(name)s", table=action.table, seat=action.seat,
                       name=action.who.removeprefix(f"{seat} – "))
    return action.who


def _action_clock(state: Tournament, now: float) -> ActionClockView | None:
    """The "put on the clock" overlay, shown until a few seconds after the time runs out."""
    action = state.action_clock
    if action is None:
        return None
    ends = action.ends_at  # the clock and its final countdown
    if now > ends + ACTION_CLOCK_LINGER:
        return None
    return ActionClockView(
        id=f"{state.seq}-{action.started_at:.3f}",
        who=clock_who(action),
        deadline_ms=_ms(ends),
        seconds_text=str(max(0, math.ceil(ends - now - 1e-9))),
    )


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
        blinds = _with_ante(blinds_text(level.small_blind, level.big_blind), level.ante)
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


def _moves(state: Tournament, now: float) -> tuple[tuple[str, ...], list[tuple[str, int, int]], float | None]:
    """The moves to show (waiting for a hand's end, and those of the last minute), and the
    final table's redraw as (name, table, seat) with its time, when it is that recent."""
    try:
        from director.tables import MOVE_SHOWN_SECONDS
        from director.tables.views import move_history
    except ImportError:  # the seating's pages are not part of this app
        return (), [], None
    lines = [gettext("After this hand at table %(from_table)s: %(name)s moves to table %(table)s seat %(seat)s",
                     from_table=table, name=p.name, table=p.table, seat=p.seat)
             for p, table, _ in state.moves_waiting]
    final, final_at = _final_draw(state, now - MOVE_SHOWN_SECONDS * 2)
    for m in move_history(state):
        if m.final or now - m.at >= MOVE_SHOWN_SECONDS:
            continue  # the final table's seats are said by its announcement
        lines.append(gettext("Move: %(name)s, from table %(from_table)s seat %(from_seat)s to table %(to_table)s "
                             "seat %(to_seat)s", name=m.name, from_table=m.from_table, from_seat=m.from_seat,
                             to_table=m.to_table, to_seat=m.to_seat) if m.from_table is not None
                     else gettext("%(name)s: table %(table)s seat %(seat)s", name=m.name, table=m.to_table,
                                  seat=m.to_seat))
    return tuple(lines), final, final_at


def build_clock_view(state: Tournament, tournament_id: int, now: float, poll_url: str, *, phone: bool = False,
                     season: SeasonPanel | None = None, chart_url: str = "") -> ClockView:
    """Everything the clock partial shows, from the tournament's state and ``now``."""
    structure = state.settings.structure
    clock = tournament_clock(state, now)
    finished = state.finished
    # Seed 000's hand cap: the game is over once it is reached, even before the director
    # enters the chips that rank the players still in; nothing counts down any more.
    at_cap = clock.hand_cap_reached and not finished
    status = "finished" if finished or at_cap else clock.status
    running = status in ("running", "on_break")

    if finished:
        key = "finished"
    elif at_cap:
        key = "hand-cap"
    elif clock.on_break:
        key = f"break-before-{clock.next_level_number or 0}"
    else:
        key = f"level-{clock.level_number}"

    # The title, the time and what is said aloud.
    subtitle = headline = ""
    colour_up = ""
    if finished:
        title = gettext("Finished")
        firsts = [p.name for p in state.players if state.place_of(p.id) == 1]
        winner = firsts[0] if len(firsts) == 1 else ""
        announce = (gettext("The tournament is over. %(winner)s wins.", winner=winner) if winner
                    else gettext("The tournament is over."))
        headline = (gettext("%(winner)s wins", winner=winner) if winner
                    else gettext("%(names)s share 1st", names=" & ".join(firsts)) if firsts else gettext("It is over"))
    elif at_cap:
        title = gettext("Game over")
        announce = gettext("The hand cap is reached: the game is over. The players still in are ranked by chips.")
        headline = gettext("Hand cap reached")
    elif clock.on_break:
        title = gettext("Break")
        colour_up = colour_up_text(clock.colour_up_now)
        announce = gettext("Break.") + (f" {colour_up}." if colour_up else "")
    else:
        title = gettext("Level %(level)s", level=clock.level_number)
        if clock.continuing:
            subtitle = gettext("the last level goes on")
        announce = _level_words(clock.level_number, clock.small_blind or 0, clock.big_blind or 0, clock.ante)

    seconds_left = clock.seconds_left
    hands_left = None
    if structure.hand_counted and status != "finished" and not clock.on_break:
        hands_left = clock.hands_left_in_level
    if finished or at_cap:
        time_text = "0:00"
    elif seconds_left is not None:
        time_text = format_clock(seconds_left)
    else:
        time_text = "–"
    ends_at_ms = _ms(clock.ends_at) if running and clock.ends_at is not None else None
    last_minute = running and seconds_left is not None and 0 < seconds_left <= 60

    blinds = ante = ""
    if status != "finished" and not clock.on_break and clock.big_blind is not None:
        blinds = blinds_text(clock.small_blind or 0, clock.big_blind)
        ante = chips(clock.ante) if clock.ante else ""
    next_text, next_is_break = ("", False) if status == "finished" else _next_text(clock, structure)

    # The figures.
    big_blind = clock.big_blind or (clock.next_level.big_blind if clock.next_level else 0)
    average = state.average_stack
    cap_stacks = state.standings.cap_stacks
    stats = [
        Stat("players", gettext("Ranked by chips"), str(len(cap_stacks)),
             gettext("of %(entries)s entries", entries=state.entries))
        if cap_stacks is not None
        else Stat("players", gettext("Players left"), str(state.players_left),
                  gettext("of %(entries)s entries", entries=state.entries)),
        Stat(
            "average",
            gettext("Average stack"),
            chips(average) if average else "–",
            gettext("%(count)s BB", count=format(average / big_blind, ".0f")) if average and big_blind else "",
        ),
    ]
    if not phone:
        stats.append(Stat("chips", gettext("Chips in play"), chips(state.chips_in_play)))
    if clock.seconds_to_break is not None and not finished:
        stats.append(
            Stat(
                "break",
                gettext("Next break"),
                format_clock(clock.seconds_to_break),
                deadline_ms=_ms(clock.break_starts_at) if running and clock.break_starts_at else None,
            )
        )
    elif hands_left is not None or clock.hand_cap_reached:
        stats.append(Stat("hands", gettext("Hands played"), str(clock.hands_played),
                          gettext("cap %(cap)s", cap=clock.hand_cap) if clock.hand_cap else ""))
    payouts, payouts_label = _payouts(state)
    if state.settings.payout_kind != "points" and state.prize_pool and not phone:
        stats.append(Stat("pool", gettext("Prize pool"), chips(state.prize_pool)))
    mystery = mystery_view(state)
    if mystery is not None and not finished and not phone:
        stats.append(Stat("bounty", gettext("Mystery"), f"{len(mystery.left)}",
                          gettext("of %(count)s left from level %(level)s", count=mystery.count,
                                  level=state.settings.mystery_level)
                          if state.settings.mystery_level > 1 else gettext("of %(count)s left", count=mystery.count)))
    elif state.settings.bounty_kind != "none" and not finished:
        bounty = _bounty_stat(state)
        if bounty is not None:
            stats.append(bounty)
    paid_places = len(payouts) if state.settings.payout_kind != "points" else 0
    moves, final_seats, final_at = ((), [], None) if phone else _moves(state, now)
    announcements = () if phone else tuple(current(
        [*clock_announcements(state, clock, now), *field_announcements(state, paid_places, final_seats, final_at)],
        now))
    leaders, leaders_note = ((), "") if phone else _leaders(state, big_blind)
    if clock.on_break:
        if state.settings.addon_level and state.settings.addon_level == (clock.next_level_number or 2) - 1:
            announce += " " + gettext("The add-on is open until play resumes.")
    elif not finished and not at_cap and clock.level_number:
        announce += "".join(f" {e}." for e in level_extras(state, clock.level_number))

    return ClockView(
        tournament_id=tournament_id,
        name=state.name,
        status=status,
        key=key,
        seq=state.seq,
        server_now_ms=_ms(now),
        poll_url=poll_url,
        title=title,
        subtitle=subtitle,
        time_text=time_text,
        ends_at_ms=ends_at_ms,
        seconds_left=seconds_left,
        last_minute=last_minute,
        hands_left=hands_left,
        blinds_label=gettext("Blinds"),
        blinds=blinds,
        ante=ante,
        colour_up=colour_up,
        next_text=next_text,
        next_is_break=next_is_break,
        flags=(*_flags(state, clock, paid_places), *_clock_rulings(state, now)),
        stats=tuple(stats),
        payouts=payouts,
        payouts_label=payouts_label,
        action=_action_clock(state, now),
        envelope=_envelope(state, now),
        announce=announce,
        after=_after(clock, structure) if running else None,
        headline=headline,
        announcements=announcements,
        moves=moves,
        upcoming=() if phone or finished else _upcoming(clock, structure),
        leaders=leaders,
        leaders_note=leaders_note,
        board=() if phone else _board(state),
        season=season,
        chart_url=chart_url,
    )


def _after(clock: ClockState, structure: Structure) -> AfterView | None:
    """The item after the current one and when it ends, if nobody touches the clock."""
    if clock.ends_at is None:
        return None
    if clock.break_next:
        brk = structure.break_after(clock.level_number or 0)
        if brk is None:
            return None
        words = colour_up_text(brk.colour_up)
        return AfterView(
            key=f"break-before-{(clock.level_number or 0) + 1}",
            title=gettext("Break"),
            blinds="",
            ante="",
            ends_at_ms=_ms(clock.ends_at + brk.seconds),
            announce=gettext("Break.") + (f" {words}." if words else ""),
        )
    level, number = clock.next_level, clock.next_level_number
    if level is None or number is None or level.seconds is None:
        return None
    announce = _level_words(number, level.small_blind, level.big_blind, level.ante)
    return AfterView(
        key=f"level-{number}",
        title=gettext("Level %(level)s", level=number),
        blinds=blinds_text(level.small_blind, level.big_blind),
        ante=chips(level.ante) if level.ante else "",
        ends_at_ms=_ms(clock.ends_at + level.seconds),
        announce=announce,
    )


# ---------------------------------------------------------------- routes

bp = Blueprint("tv", __name__)
bp.add_app_template_filter(clock_who, "clock_who")

#: The TV's keys, as the director's clock actions: (action, seconds).
KEY_ACTIONS: dict[str, tuple[str, int | None]] = {
    "start": ("start", None),
    "pause": ("pause", None),
    "resume": ("resume", None),
    "next": ("next_level", None),
    "previous": ("previous_level", None),
    "add_minute": ("add_time", 60),
    "remove_minute": ("add_time", -60),
}

#: The clock partial may be cached this long (seconds): several TVs and phones poll it.
CACHE_SECONDS = 1


def clock_view(tournament_id: int, *, phone: bool = False, at: float | None = None) -> ClockView:
    """The clock of tournament ``tournament_id`` now (inside a request)."""
    db = get_db()
    state = load_state(db, tournament_id)
    endpoint = "tv.phone" if phone else "tv.clock"
    when = now() if at is None else at
    season = None if phone or (state.started and not state.finished) else season_panel(db, tournament_id)
    return build_clock_view(state, tournament_id, when, url_for(endpoint, tournament_id=tournament_id), phone=phone,
                            season=season, chart_url="" if phone else chart_url(tournament_id, state.settings.structure))


SEASON_ROWS = 8


def season_panel(db: Any, tournament_id: int) -> SeasonPanel | None:
    """The standings of the season this tournament counts in, for the TV between tournaments."""
    row = db.execute("SELECT season_id FROM season_nights WHERE stream_id = ?", (tournament_id,)).fetchone()
    if row is None:
        return None
    from director.club import seasons

    v = seasons.view(db, int(row[0]))
    rows = tuple((r.rank, v.names.get(r.person, "?"), gettext("%(points)s pts", points=format(r.points, "g")))
                 for r in v.rows[:SEASON_ROWS])
    return SeasonPanel(v.name, rows) if rows else None


def phone_clock(tournament_id: int) -> ClockView:
    """The phone-sized clock, for a page that includes ``_tv_clock_phone.html``."""
    return clock_view(tournament_id, phone=True)


def chart_url(tournament_id: int, structure: Structure) -> str:
    """The address of the structure's picture; it changes when the structure does."""
    return url_for("tv.structure_svg", tournament_id=tournament_id, v=f"{_digest(structure)}-{language()}")


@functools.lru_cache(maxsize=256)
def _digest(structure: Structure) -> str:
    return hashlib.sha256(json.dumps(structure_to_dict(structure), sort_keys=True).encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=64)
def _chart(structure: Structure, language: str) -> str:
    """The picture in ``language`` (its words are the reader's; the cache keeps one per language)."""
    from director.screens.charts import structure_chart

    # Drawn in the dark theme's text colour; the light theme inverts the image.
    return str(structure_chart(structure, compact=True)).replace("<svg ", '<svg style="color:#f5f7fa" ', 1)


# ---------------------------------------------------------------- the poll, made cheap

SERVER_NOW_SLOT = 'data-server-now="0"'


class RenderedClocks:
    """Rendered clock partials, reused while the tournament has no new event, for up to a second.

    Every TV and phone polls every 1.5 seconds, so the clock partial is the app's busiest
    answer. A fresh rendering needs a database connection, the fold and a template; a reused
    one needs only the tournament's last sequence number, read on a connection this thread
    keeps open (read-only, one statement, no transaction left open), and the server's time
    written into the answer. A new event (pause, next level, a bust) changes the sequence
    number and so shows on the very next poll; the time shown is redrawn by the browser from
    the deadline, so text up to a second old is never seen.
    """

    def __init__(self, max_age: float = 1.0) -> None:
        self.max_age = max_age
        self._lock = threading.Lock()
        self._bodies: dict[tuple[str, int, bool, str], tuple[int, float, float, str]] = {}
        self._local = threading.local()

    def last_seq(self, database: str, tournament_id: int) -> int | None:
        held: tuple[str, sqlite3.Connection] | None = getattr(self._local, "conn", None)
        if held is None or held[0] != database:
            if held is not None:
                held[1].close()
            conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=15)
            held = (database, conn)
            self._local.conn = held
        rows = held[1].execute("SELECT last_seq FROM streams WHERE id = ?", (tournament_id,)).fetchall()
        return int(rows[0][0]) if rows else None

    def get(self, key: tuple[str, int, bool, str], seq: int, at: float) -> str | None:
        with self._lock:
            found = self._bodies.get(key)
        if found is None:
            return None
        stored_seq, rendered_at, valid_until, body = found
        if stored_seq != seq or not rendered_at <= at < min(valid_until, rendered_at + self.max_age):
            return None
        return body

    def put(self, key: tuple[str, int, bool, str], seq: int, at: float, valid_until: float, body: str) -> None:
        with self._lock:
            self._bodies[key] = (seq, at, valid_until, body)

    def clear(self) -> None:
        with self._lock:
            self._bodies.clear()


rendered = RenderedClocks()
register_cache("rendered clocks", rendered.clear)
register_cache("structure digests", _digest.cache_clear)
register_cache("structure pictures", _chart.cache_clear)


def _valid_until(view: ClockView) -> float:
    """The rendering must not outlive what it shows: the end of the level, the action clock."""
    ends = [view.ends_at_ms / 1000] if view.ends_at_ms else []
    if view.action is not None:
        ends.append(view.action.deadline_ms / 1000)
    return min(ends, default=math.inf)


def clock_partial(tournament_id: int, *, phone: bool = False) -> str:
    """The clock partial's HTML now, from the cache when nothing has changed."""
    database = current_app.config["DATABASE"]
    at = now()
    seq = rendered.last_seq(database, tournament_id)
    if seq is None:
        raise UnknownTournament(tournament_id)
    key = (database, tournament_id, phone, language())  # the words are the reader's
    body = rendered.get(key, seq, at)
    if body is None:
        view = clock_view(tournament_id, phone=phone, at=at)
        template = "_tv_clock_phone.html" if phone else "_tv_clock.html"
        body = render_template(template, clock=replace(view, server_now_ms=0))
        assert SERVER_NOW_SLOT in body
        rendered.put(key, view.seq, at, _valid_until(view), body)
    return body.replace(SERVER_NOW_SLOT, f'data-server-now="{_ms(at)}"', 1)


def _cacheable(body: str) -> Response:
    """The poll's answer, gzipped for a browser that takes it: a TV polls 40 times a minute
    all night, and the partial shrinks to a third."""
    data = body.encode()
    response = Response(mimetype="text/html")
    if "gzip" in request.headers.get("Accept-Encoding", "") and len(data) > 600:
        data = gzip.compress(data, compresslevel=5, mtime=0)
        response.headers["Content-Encoding"] = "gzip"
    response.set_data(data)
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = f"public, max-age={CACHE_SECONDS}"
    return response


@bp.get("/t/<int:tournament_id>/tv")
def page(tournament_id: int) -> ResponseReturnValue:
    """The TV page: full screen, no scrolling; the keyboard works for the director.

    ``?layout=…&theme=…&accent=…&title=…&show=…`` try a look without saving it (the TV
    settings page's live preview, which also passes ``preview=1``)."""
    saved = screens.look(get_db())
    preview = request.args.get("preview") == "1"
    look = screens.previewed(saved, request.args) if set(request.args) - {"preview"} else saved
    return render_template(
        "tv.html",
        clock=clock_view(tournament_id),
        tournament_id=tournament_id,
        director=is_director() and not preview,
        look=look,
        panels=screens.PANELS,
        preview=preview,
    )


@bp.get("/t/<int:tournament_id>/tv/structure.svg")
def structure_svg(tournament_id: int) -> ResponseReturnValue:
    """The structure's picture for the TV's information layout (kept a day: its address
    changes with the structure)."""
    structure = load_state(get_db(), tournament_id).settings.structure
    response = Response(_chart(structure, language()), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=86400"
    response.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


@bp.get("/t/<int:tournament_id>/tv/clock")
def clock(tournament_id: int) -> ResponseReturnValue:
    """The clock partial that every TV polls."""
    return _cacheable(clock_partial(tournament_id))


@bp.get("/t/<int:tournament_id>/tv/phone")
def phone(tournament_id: int) -> ResponseReturnValue:
    """The phone-sized clock: the partial for htmx, a small page of its own otherwise."""
    if is_partial_request():
        return _cacheable(clock_partial(tournament_id, phone=True))
    return render_template("tv_phone.html", clock=phone_clock(tournament_id), tournament_id=tournament_id)


@bp.post("/t/<int:tournament_id>/tv/key")
@login_required
def key(tournament_id: int) -> ResponseReturnValue:
    """A director's key on the TV: the same clock actions as the dashboard's buttons.

    Keys act on the clock as it is now (no sequence number), so that pressing ``+`` three
    times adds three minutes even between two polls.
    """
    name = str(values().get("action", ""))
    try:
        if name not in KEY_ACTIONS:
            raise InvalidInput("Unknown key action {name}: use one of {actions}.", name=repr(name),
                               actions=", ".join(KEY_ACTIONS))
        action, seconds = KEY_ACTIONS[name]
        services.clock_action(get_db(), tournament_id, action, None, now(), seconds=seconds)
    except (EngineError, StaleWrite) as error:  # the TV shows the sentence for a moment
        return jsonify(error=_said(error)), 409 if isinstance(error, StaleWrite) else 422
    return jsonify(ok=True, action=name)


def _said(error: EngineError | StaleWrite) -> str:
    """A refusal in the reader's language."""
    return say(error) if isinstance(error, EngineError) else say(str(error))


def controls(tournament_id: int, **extra: Any) -> str:
    """The director's TV controls (``_tv_controls.html``), as the dashboard includes them."""
    state = load_state(get_db(), tournament_id)
    return render_template("_tv_controls.html", t=state, tournament_id=tournament_id, **extra)


def _tv_event(tournament_id: int, type: str, payload: dict[str, Any], message: str) -> ResponseReturnValue:
    """Record one TV event: JSON for an API client, the controls for htmx, a redirect otherwise."""
    data = values()
    db = get_db()

    def do() -> None:
        current = load_state(db, tournament_id).seq
        services.record(db, tournament_id, type, payload, expected_seq(data, current), now())

    if request.is_json:
        try:
            do()
        except (EngineError, StaleWrite) as error:
            return jsonify(error=_said(error)), 409 if isinstance(error, StaleWrite) else 422
        return jsonify(ok=True)
    return act(
        do,
        url_for("dashboard.show", tournament_id=tournament_id),
        lambda **kw: controls(tournament_id, **kw),
        message=message,
    )


@bp.post("/t/<int:tournament_id>/tv/action-clock")
@login_required
def action_clock_start(tournament_id: int) -> ResponseReturnValue:
    """Put a player on the clock: ``who`` (a seat or a name) and ``seconds`` (60 by default)."""
    data = values()
    who = " ".join(str(data.get("who") or "").split())
    payload = {"action": "start", "who": who, "seconds": data.get("seconds") or 60}
    return _tv_event(tournament_id, "action_clock", payload, gettext("%(who)s is on the clock.", who=who) if who else "")


@bp.post("/t/<int:tournament_id>/tv/action-clock/stop")
@login_required
def action_clock_stop(tournament_id: int) -> ResponseReturnValue:
    """Take the player off the clock (they acted)."""
    return _tv_event(tournament_id, "action_clock", {"action": "stop"}, gettext("The action clock is stopped."))


@bp.post("/t/<int:tournament_id>/tv/hand-for-hand")
@login_required
def hand_for_hand(tournament_id: int) -> ResponseReturnValue:
    """Hand for hand on or off (``on``: true or false), shown on every TV (TDA RP-8); with
    ``next``, the next hand-for-hand hand begins (the count that the director's busts at
    tables without the dealer's assistant are grouped by)."""
    if flag(values().get("next")):
        state = load_state(get_db(), tournament_id)
        return _tv_event(
            tournament_id, "h4h_next_hand", {},
            gettext("Hand-for-hand hand %(number)s: deal at every table.", number=state.h4h_hand + 1),
        )
    raw = values().get("on")
    on = raw if isinstance(raw, bool) else str(raw).strip().lower() in ("true", "1", "on", "yes")
    message = (gettext("Hand for hand: every table plays one hand at a time.") if on
               else gettext("Hand for hand is over."))
    return _tv_event(tournament_id, "hand_for_hand", {"on": on}, message)


# ---------------------------------------------------------------- the same, as JSON under /api/

api = Api(bp, "tv")


def _api_event(tournament_id: int, type: str, payload: dict[str, Any], seq: int | None) -> ResponseReturnValue:
    services.record(get_db(), tournament_id, type, payload, seq, now())
    return answer(tournament_id)


@api.post("/api/t/<int:tournament_id>/action-clock", body=inputs.ActionClockIn, result=shapes.Tournament,
          summary="Put a player on the clock (shown on the TV with its own countdown), or stop it")
def api_action_clock(tournament_id: int, data: inputs.ActionClockIn) -> ResponseReturnValue:
    """``{"action": "start", "who": "Seat 4", "seconds": 60}`` or ``{"action": "stop"}``."""
    if data.action == "stop":
        return _api_event(tournament_id, "action_clock", {"action": "stop"}, data.expected_seq)
    payload = {"action": "start", "who": data.who, "seconds": data.seconds or 60}
    return _api_event(tournament_id, "action_clock", payload, data.expected_seq)


@api.post("/api/t/<int:tournament_id>/hand-for-hand", body=inputs.HandForHandIn, result=shapes.Tournament,
          summary="Hand for hand on or off (shown on every TV), or the next hand-for-hand hand")
def api_hand_for_hand(tournament_id: int, data: inputs.HandForHandIn) -> ResponseReturnValue:
    """``{"on": true}`` or ``{"on": false}``; ``{"next": true}`` begins the next hand-for-hand hand."""
    if data.next:
        return _api_event(tournament_id, "h4h_next_hand", {}, data.expected_seq)
    return _api_event(tournament_id, "hand_for_hand", {"on": data.on}, data.expected_seq)

