"""The TV clock's view: everything the clock partial shows, already worded and formatted,
built from the tournament's state and ``now`` (``build_clock_view``).

The view is made of the heading (which level or break, its title, what the voice says), the
time (what is left, when it ends, the hands left), the level's blinds and what comes next, the
figures in the strip at the bottom, the banners, the payouts, the action clock, and the panels
beside the clock (``director.screens.clock_panels``). The words and figures themselves are
``director.screens.clock_words``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from director.core.i18n import gettext, ngettext
from director.core.words import number as chips
from director.core.words import ordinal, say
from director.night.views import clock_who, late_registration_text, mystery_view, prize_lines
from director.screens.announcements import Announcement, level_extras
from director.screens.clock_panels import (
    BoardRow,
    EnvelopeView,
    Leader,
    SeasonPanel,
    SidePanels,
    Upcoming,
    envelope,
    side_panels,
)
from director.screens.clock_words import (
    blinds_text,
    break_words,
    colour_up_text,
    format_clock,
    game_words,
    level_blinds,
    level_words,
    ms,
    shows_games,
    with_ante,
)
from engine.bounties import bounties
from engine.clock import ClockState
from engine.games import GAMES
from engine.payouts import league_points
from engine.structure import Structure
from engine.tournament import Tournament

if TYPE_CHECKING:  # the seating's module is optional
    from director.tables.views import MoveGroup

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
    moves: tuple[MoveGroup, ...] = ()
    """The moves of the last minute and those waiting for a hand's end: each table's break
    under its headline, the other moves one sentence each."""
    upcoming: tuple[Upcoming, ...] = ()
    leaders: tuple[Leader, ...] = ()
    leaders_note: str = ""
    board: tuple[BoardRow, ...] = ()
    """Hand for hand: where each table is in the current hand (tables with the dealer's phone)."""
    season: SeasonPanel | None = None
    chart_url: str = ""
    """The structure drawn (an SVG image, cached by the browser until the structure changes)."""


@dataclass(frozen=True)
class AfterView:
    """What comes next if the clock runs on, for a TV that loses the server at a level's end."""

    key: str
    title: str
    blinds: str
    ante: str
    ends_at_ms: int
    announce: str


# ---------------------------------------------------------------- the clock from the events


def tournament_clock(state: Tournament, now: float) -> ClockState:
    """The clock of a tournament at ``now``: the same reading as the director's dashboard."""
    return state.clock_at(now)


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
    return with_ante(level_blinds(structure, level), level.ante), False


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
    late = late_registration_text(state, level, clock.on_break)
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
        deadline_ms=ms(ends),
        seconds_text=str(max(0, math.ceil(ends - now - 1e-9))),
    )


# ---------------------------------------------------------------- the view, part by part


@dataclass(frozen=True)
class Heading:
    """Which level or break is on (``key``: a change rings the level chime), its title, the
    winner in place of the time once it is over, what the voice says, and the colour-up."""

    key: str
    title: str
    subtitle: str = ""
    headline: str = ""
    announce: str = ""
    colour_up: str = ""


def _heading(state: Tournament, clock: ClockState, at_cap: bool) -> Heading:
    """The title, and what is said aloud."""
    heading = _over(state) if state.finished or at_cap else _playing(state, clock)
    addon = state.settings.addon_level
    if clock.on_break and addon and addon == (clock.next_level_number or 2) - 1:
        heading = replace(heading, announce=heading.announce + " " + gettext("The add-on is open until play resumes."))
    return heading


def _over(state: Tournament) -> Heading:
    """The heading once the game is over: the winner, or the hand cap reached."""
    if not state.finished:
        return Heading(
            "hand-cap",
            gettext("Game over"),
            headline=gettext("Hand cap reached"),
            announce=gettext("The hand cap is reached: the game is over. The players still in are ranked by chips."),
        )
    firsts = [p.name for p in state.players if state.place_of(p.id) == 1]
    winner = firsts[0] if len(firsts) == 1 else ""
    return Heading(
        "finished",
        gettext("Finished"),
        headline=(gettext("%(winner)s wins", winner=winner) if winner
                  else gettext("%(names)s share 1st", names=" & ".join(firsts)) if firsts
                  else gettext("It is over")),
        announce=(gettext("The tournament is over. %(winner)s wins.", winner=winner) if winner
                  else gettext("The tournament is over.")),
    )


def _playing(state: Tournament, clock: ClockState) -> Heading:
    """The heading of a break or a level (and what changes with the level)."""
    if clock.on_break:
        colour_up = colour_up_text(clock.colour_up_now)
        return Heading(f"break-before-{clock.next_level_number or 0}", gettext("Break"),
                       announce=break_words(colour_up), colour_up=colour_up)
    announce = level_words(clock.level_number, clock.small_blind or 0, clock.big_blind or 0, clock.ante,
                           game_words(state.settings.structure, clock.level_number))
    if clock.level_number:
        announce += "".join(f" {e}." for e in level_extras(state, clock.level_number))
    return Heading(
        f"level-{clock.level_number}",
        gettext("Level %(level)s", level=clock.level_number),
        subtitle=gettext("the last level goes on") if clock.continuing else "",
        announce=announce,
    )


@dataclass(frozen=True)
class Timing:
    """The time shown, when it runs out, and the hands left (a structure counted in hands)."""

    time_text: str
    ends_at_ms: int | None
    seconds_left: float | None
    last_minute: bool
    hands_left: int | None


def _timing(clock: ClockState, structure: Structure, status: str, *, over: bool) -> Timing:
    """The time left as shown (0:00 once it is over, a dash when there is no time), and the
    deadline the TV counts down to while the clock runs."""
    running = status in ("running", "on_break")
    seconds_left = clock.seconds_left
    hands_left = None
    if structure.hand_counted and status != "finished" and not clock.on_break:
        hands_left = clock.hands_left_in_level
    if over:
        time_text = "0:00"
    elif seconds_left is not None:
        time_text = format_clock(seconds_left)
    else:
        time_text = "–"
    return Timing(
        time_text=time_text,
        ends_at_ms=ms(clock.ends_at) if running and clock.ends_at is not None else None,
        seconds_left=seconds_left,
        last_minute=running and seconds_left is not None and 0 < seconds_left <= 60,
        hands_left=hands_left,
    )


def _blinds(clock: ClockState, status: str, structure: Structure) -> tuple[str, str, str]:
    """What the blinds are called, the blinds and the ante on now (none on a break or once it
    is over). Where the structure deals other games than No-Limit Hold'em, they are called by
    the level's game, and a fixed limit shows its bets: "Limit Hold'em 200 / 400"."""
    if status == "finished" or clock.on_break or clock.big_blind is None:
        return gettext("Blinds"), "", ""
    ante = chips(clock.ante) if clock.ante else ""
    small, big = clock.small_blind or 0, clock.big_blind
    if clock.level_number is not None and shows_games(structure):
        game = GAMES[structure.level(clock.level_number).game]
        return say(game.name), blinds_text(*game.limits(small, big)), ante
    return gettext("Blinds"), blinds_text(small, big), ante


def _stats(state: Tournament, clock: ClockState, *, status: str, hands_left: int | None, big_blind: int,
           phone: bool) -> tuple[Stat, ...]:
    """The figures in the strip at the bottom: players, average, chips, the next break (or the
    hands played), the prize pool, the bounties (fewer on a phone)."""
    finished = state.finished
    running = status in ("running", "on_break")
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
                deadline_ms=ms(clock.break_starts_at) if running and clock.break_starts_at else None,
            )
        )
    elif hands_left is not None or clock.hand_cap_reached:
        stats.append(Stat("hands", gettext("Hands played"), str(clock.hands_played),
                          gettext("cap %(cap)s", cap=clock.hand_cap) if clock.hand_cap else ""))
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
    return tuple(stats)


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
    heading = _heading(state, clock, at_cap)
    timing = _timing(clock, structure, status, over=finished or at_cap)
    blinds_label, blinds, ante = _blinds(clock, status, structure)
    next_text, next_is_break = ("", False) if status == "finished" else _next_text(clock, structure)
    big_blind = clock.big_blind or (clock.next_level.big_blind if clock.next_level else 0)
    payouts, payouts_label = _payouts(state)
    paid_places = len(payouts) if state.settings.payout_kind != "points" else 0
    panels = SidePanels() if phone else side_panels(state, clock, now, paid_places=paid_places, big_blind=big_blind)
    return ClockView(
        tournament_id=tournament_id,
        name=state.name,
        status=status,
        key=heading.key,
        seq=state.seq,
        server_now_ms=ms(now),
        poll_url=poll_url,
        title=heading.title,
        subtitle=heading.subtitle,
        time_text=timing.time_text,
        ends_at_ms=timing.ends_at_ms,
        seconds_left=timing.seconds_left,
        last_minute=timing.last_minute,
        hands_left=timing.hands_left,
        blinds_label=blinds_label,
        blinds=blinds,
        ante=ante,
        colour_up=heading.colour_up,
        next_text=next_text,
        next_is_break=next_is_break,
        flags=(*_flags(state, clock, paid_places), *_clock_rulings(state, now)),
        stats=_stats(state, clock, status=status, hands_left=timing.hands_left, big_blind=big_blind, phone=phone),
        payouts=payouts,
        payouts_label=payouts_label,
        action=_action_clock(state, now),
        envelope=envelope(state, now),
        announce=heading.announce,
        after=_after(clock, structure) if status in ("running", "on_break") else None,
        headline=heading.headline,
        announcements=panels.announcements,
        moves=panels.moves,
        upcoming=panels.upcoming,
        leaders=panels.leaders,
        leaders_note=panels.leaders_note,
        board=panels.board,
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
        return AfterView(
            key=f"break-before-{(clock.level_number or 0) + 1}",
            title=gettext("Break"),
            blinds="",
            ante="",
            ends_at_ms=ms(clock.ends_at + brk.seconds),
            announce=break_words(colour_up_text(brk.colour_up)),
        )
    level, number = clock.next_level, clock.next_level_number
    if level is None or number is None or level.seconds is None:
        return None
    return AfterView(
        key=f"level-{number}",
        title=gettext("Level %(level)s", level=number),
        blinds=level_blinds(structure, level),
        ante=chips(level.ante) if level.ante else "",
        ends_at_ms=ms(clock.ends_at + level.seconds),
        announce=level_words(number, level.small_blind, level.big_blind, level.ante, game_words(structure, number)),
    )
