"""What the director's pages show, computed from the engine's state and ``now``.

Templates get plain values from here: no poker rule is decided in a template or a view, and
no template reads the engine's state. ``night_view`` is the tournament as every tournament
page shows it (``t`` in the templates); ``dashboard_view`` adds what the dashboard and the
players page show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from director.core.i18n import gettext, ngettext
from director.core.words import number as chips
from director.core.words import ordinal, say
from engine.bounties import Draw, bounties
from engine.clock import ClockState
from engine.colour import break_level, done_at, steps_at
from engine.dealing import stack_of
from engine.deals import deal_refusal
from engine.errors import EngineError
from engine.settings import Settings
from engine.state import ActionClock
from engine.structure import describe_level
from engine.tournament import (
    Event,
    Player,
    Tournament,
    apply,
    describe,
    entry_to_undo,
    lock_refusal,
    owned_chips,
)


def clock_text(seconds: float | None) -> str:
    """Seconds as ``m:ss`` or ``h:mm:ss`` (rounded up, like a countdown)."""
    if seconds is None:
        return "–"
    total = max(0, int(-(-seconds // 1)))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True)
class SettingsView:
    """The settings the tournament's pages show."""

    structure_name: str
    table_size: int
    rebuy_levels: int
    addon_level: int
    reentry_levels: int
    late_registration_levels: int
    payout_kind: str
    bounty_kind: str
    bounty: int
    pko_share: int
    mystery_level: int


def settings_view(s: Settings) -> SettingsView:
    return SettingsView(
        structure_name=str(s.structure.name), table_size=s.table_size, rebuy_levels=s.rebuy_levels,
        addon_level=s.addon_level, reentry_levels=s.reentry_levels, late_registration_levels=s.late_registration_levels,
        payout_kind=str(s.payout_kind), bounty_kind=str(s.bounty_kind), bounty=s.bounty, pko_share=s.pko_share,
        mystery_level=s.mystery_level,
    )


@dataclass(frozen=True)
class ActionClockLine:
    """A player on the action clock, as the director's TV controls say it."""

    who: str
    seconds: int


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


@dataclass(frozen=True)
class NightView:
    """The tournament as every tournament page shows it (``t`` in the templates): its name, where
    it stands, the settings the pages read. Cheap: every field is read straight off the state."""

    id: int
    name: str
    seq: int
    started: bool
    finished: bool
    can_undo: bool
    entries: int
    players_left: int
    hand_for_hand: bool
    h4h_hand: int
    action_clock: ActionClockLine | None
    settings: SettingsView


def _night_fields(state: Tournament, tournament_id: int) -> dict[str, Any]:
    action = state.action_clock
    return {
        "id": tournament_id, "name": state.name, "seq": state.seq, "started": state.started,
        "finished": state.finished, "can_undo": state.can_undo, "entries": state.entries,
        "players_left": state.players_left, "hand_for_hand": state.hand_for_hand, "h4h_hand": state.h4h_hand,
        "action_clock": None if action is None else ActionClockLine(clock_who(action), action.seconds),
        "settings": settings_view(state.settings),
    }


def night_view(state: Tournament, tournament_id: int) -> NightView:
    return NightView(**_night_fields(state, tournament_id))


@dataclass(frozen=True)
class PlayerView:
    """A registered player and their seat (``None`` while unseated or out), as the pages show them."""

    id: int
    name: str
    status: str
    """``in``; ``waiting``: out but may still rebuy; ``out`` for good."""
    table: int | None = None
    seat: int | None = None
    rebuys: int = 0
    addon: bool = False
    reentries: int = 0

    @property
    def out(self) -> bool:
        return self.status != "in"

    @property
    def seated(self) -> bool:
        return self.table is not None


def player_view(p: Player) -> PlayerView:
    return PlayerView(p.id, p.name, str(p.status), p.table, p.seat, p.rebuys, p.addon, p.reentries)


@dataclass(frozen=True)
class HandAt:
    """The hand a player is dealt into at a table where the dealer's phone deals."""

    number: int
    table: int


@dataclass(frozen=True)
class DealMade:
    """The deal made at the final table: the method, each share (by name), what is left."""

    method: str
    play_for: int
    shares: tuple[tuple[str, int], ...]


def deal_made(state: Tournament) -> DealMade | None:
    deal = state.deal
    if deal is None:
        return None
    return DealMade(str(deal.method), deal.play_for, tuple((state.name_of(pid), m) for pid, m in deal.amounts))


@dataclass(frozen=True)
class DashboardView(NightView):
    """The tournament as the dashboard and the players page show it: the figures, the payouts'
    state, the tables and who sits there."""

    rebuys: int
    addons: int
    average_stack: int | None
    chips_in_play: int
    prize_pool: int
    bounties: int
    """The bounties paid in."""
    payout_problem: str | None
    payout_notes: tuple[str, ...]
    """Said in the reader's language."""
    payouts_locked: bool
    deal: DealMade | None
    rebuys_waiting: bool
    """Someone out may still rebuy."""
    seats_drawn: bool
    tables: dict[int, tuple[PlayerView, ...]]
    """The players seated at each open table, by seat."""
    alive: tuple[PlayerView, ...]
    unseated: tuple[PlayerView, ...]
    in_hand: dict[int, int]
    """The players dealt into a running hand, with its table."""


def dashboard_view(state: Tournament, tournament_id: int) -> DashboardView:
    views = {p.id: player_view(p) for p in state.players}
    return DashboardView(
        **_night_fields(state, tournament_id),
        rebuys=state.rebuys, addons=state.addons, average_stack=state.average_stack,
        chips_in_play=state.chips_in_play, prize_pool=state.prize_pool, bounties=state.pool.bounties,
        payout_problem=None if state.payout_problem is None else str(state.payout_problem),
        payout_notes=tuple(say(note) for note in state.payout_notes),
        payouts_locked=state.payouts_locked is not None, deal=deal_made(state),
        rebuys_waiting=bool(state.standings.waiting), seats_drawn=bool(state.seating.tables),
        tables={number: tuple(views[p.id] for p in players) for number, players in state.tables().items()},
        alive=tuple(views[p.id] for p in state.alive), unseated=tuple(views[p.id] for p in state.unseated),
        in_hand=dict(state.dealing.in_hand),
    )


@dataclass(frozen=True)
class ClockView:
    """The clock at one instant as the director's pages show it."""

    status: str
    on_break: bool
    title: str
    """``Level 5 · 100/200 · ante 200`` or ``Break · 10 min``, in the reader's language."""
    level_number: int | None
    small_blind: int | None
    big_blind: int | None
    ante: int | None
    ends_at: float | None
    break_next: bool
    hands_played: int
    hands_left_in_level: int | None
    hand_cap: int | None
    hand_cap_reached: bool
    now: float
    hand_counted: bool
    status_text: str
    time_text: str
    next_text: str


def clock_view(state: ClockState, now: float, hand_counted: bool) -> ClockView:
    status_text = {
        "not_started": gettext("Not started"),
        "running": gettext("Running"),
        "paused": gettext("Paused"),
        "on_break": gettext("Break"),
        "finished": gettext("Finished"),
    }[state.status]
    if hand_counted:
        left = state.hands_left_in_level
        time_text = "–" if left is None else ngettext("%(num)d hand", "%(num)d hands", left)
    else:
        time_text = clock_text(state.seconds_left)
    next_text = ""
    if state.break_next:
        next_text = gettext("Next: a break")
    elif state.next_level is not None and state.next_level_number is not None:
        next_text = gettext("Next: %(level)s", level=say(describe_level(state.next_level, state.next_level_number)))
    return ClockView(
        status=str(state.status), on_break=state.on_break, title=say(state.title), level_number=state.level_number,
        small_blind=state.small_blind, big_blind=state.big_blind, ante=state.ante, ends_at=state.ends_at,
        break_next=state.break_next, hands_played=state.hands_played, hands_left_in_level=state.hands_left_in_level,
        hand_cap=state.hand_cap, hand_cap_reached=state.hand_cap_reached, now=now, hand_counted=hand_counted,
        status_text=status_text, time_text=time_text, next_text=next_text,
    )


@dataclass(frozen=True)
class PlayerRow:
    player: PlayerView
    place: int | None
    provisional: int | None
    eliminated_by: str | None
    can_rebuy: bool
    can_addon: bool
    award: int | None
    points: float | None
    can_reenter: bool = False
    head: int = 0
    """The bounty on the player's head (a bounty night)."""
    bounties_won: int = 0
    in_hand: HandAt | None = None
    """The running hand a player still in is dealt into."""


def player_rows(state: Tournament, *, rebuy_level: int | None = None) -> list[PlayerRow]:
    """Everyone registered: players in first (by table and seat), then those out by place."""
    places = state.places()
    provisional = state.provisional_places()
    awards = state.awards()
    points = state.points() if state.settings.payout_kind == "points" else {}
    standings = state.standings if rebuy_level is None else state.standings.at_level(rebuy_level)
    b = bounties(state)
    rows = [
        PlayerRow(
            player=player_view(p),
            place=places.get(p.id),
            provisional=provisional.get(p.id),
            eliminated_by=_text(state.eliminators_text(p.id)),
            can_rebuy=_can(standings.can_rebuy, p.id) if state.settings.rebuy_levels else False,
            can_addon=_can(standings.can_addon, p.id) if state.settings.addon_level else False,
            award=awards.get(p.id),
            points=points.get(p.id),
            can_reenter=_can(standings.can_reenter, p.id) if state.settings.reentry_levels else False,
            head=b.head(p.id),
            bounties_won=b.won.get(p.id, 0),
            in_hand=None if p.out else _hand_at(state, p.id),
        )
        for p in state.players
    ]

    def key(row: PlayerRow) -> tuple[int, int, int, int]:
        if not row.player.out:
            return (0, row.player.table or 999, row.player.seat or 0, row.player.id)
        return (1, row.place or row.provisional or 999, 0, row.player.id)

    return sorted(rows, key=key)


def _text(words: str | None) -> str | None:
    """The engine's words as a plain string (as English as they were)."""
    return None if words is None else str(words)


def _hand_at(state: Tournament, player_id: int) -> HandAt | None:
    hand = state.dealing.hand_of(player_id)
    return None if hand is None else HandAt(hand.number, hand.table)


def _can(check: Any, player_id: int) -> bool:
    try:
        return bool(check(player_id))
    except EngineError:
        return False


@dataclass(frozen=True)
class PrizeLine:
    """One line of the prizes as every screen shows them (the dashboard, the TV, the phones)."""

    label: str
    """``1st``; after a deal, a player in it who has no place yet is named instead."""
    amount: int
    names: tuple[str, ...] = ()
    """Who took it, once the place is settled."""
    settled: bool = False
    """The place is taken (or the deal's share made)."""
    dealt: bool = False
    """A deal's share, or what it left to play for."""


def prize_lines(state: Tournament) -> list[PrizeLine]:
    """The prizes as they stand: each paid place and its prize, and after a deal the dealt
    amounts (each player's share, what is left to play for, the places settled before it)."""
    if state.settings.payout_kind == "points":
        return []
    places = state.places()
    holders: dict[int, list[int]] = {}
    for pid, place in places.items():
        holders.setdefault(place, []).append(pid)
    deal = state.deal
    if deal is None:
        left = state.players_left
        return [PrizeLine(ordinal(i), prize, tuple(state.name_of(p) for p in holders.get(i, [])), i > left)
                for i, prize in enumerate(state.prizes, start=1)]
    awards = state.awards()
    dealt = dict(deal.amounts)
    lines: list[PrizeLine] = []
    if state.finished:  # every place settled: the places in order, each with what it took
        for place in sorted(holders):
            for pid in holders[place]:
                lines.append(PrizeLine(ordinal(place), awards.get(pid, 0), (state.name_of(pid),), True, pid in dealt))
        return [line for line in lines if line.amount]
    for pid, amount in sorted(deal.amounts, key=lambda pair: -pair[1]):
        lines.append(PrizeLine(state.name_of(pid), amount, (), True, True))
    if deal.play_for:
        lines.append(PrizeLine(gettext("Left to play for"), deal.play_for, (), False, True))
    for place in sorted(holders):
        for pid in holders[place]:
            if pid not in dealt and awards.get(pid):
                lines.append(PrizeLine(ordinal(place), awards[pid], (state.name_of(pid),), True))
    return lines


def payout_rows(state: Tournament) -> list[tuple[str, int, str]]:
    """``(place, prize, who)`` for the dashboard: each line of :func:`prize_lines`."""
    return [(line.label, line.amount, ", ".join(line.names)) for line in prize_lines(state)]


def deal_line(state: Tournament) -> str:
    """``Ann 412, Bob 388; 200 left to play for`` once a deal is made."""
    deal = state.deal
    if deal is None:
        return ""
    shares = ", ".join(f"{state.name_of(pid)} {chips(m)}" for pid, m in deal.amounts)
    if deal.play_for:
        return gettext("%(shares)s; %(amount)s left to play for", shares=shares, amount=chips(deal.play_for))
    return shares


def pool_lines(state: Tournament) -> list[str]:
    """Where the prize pool comes from, when more than the buy-ins make it: ``1,100 paid in``,
    ``110 in fees``, ``10 added to reach the guarantee of 1,000``."""
    pool = state.pool
    if state.settings.payout_kind == "points" or not (pool.fees or pool.overlay):
        return []
    lines = [gettext("%(amount)s paid in", amount=chips(pool.paid_in))]
    if pool.fees:
        lines.append(gettext("%(amount)s in fees", amount=chips(pool.fees)))
    if pool.overlay:
        lines.append(gettext("%(amount)s added to reach the guarantee of %(guarantee)s", amount=chips(pool.overlay),
                             guarantee=chips(state.settings.guarantee)))
    lines.append(gettext("prize pool %(amount)s", amount=chips(pool.pool)))
    return lines


@dataclass(frozen=True)
class LogLine:
    """One entry of the night's whole log: when, and what it says."""

    seq: int
    at: float
    created: bool
    """The tournament's first entry (the page names the tournament)."""
    text: str
    author: str = ""
    """Who entered it: ``table 3's phone``, ``the director (JSON API)``."""


def recent_events(state: Tournament, count: int = 8) -> list[str]:
    return [say(describe(state, e)) for e in state.recent_events(count)]


def last_event_text(state: Tournament) -> str | None:
    """What the director's *Undo* takes back, in the log's words."""
    event = entry_to_undo(state)
    return None if event is None else say(describe(state, event))


def redo_text(state: Tournament) -> str | None:
    """What a redo puts back, in the log's words: read in the state the redo makes, so that
    an entry at a table is said as it was played (``Table 1: Ann calls 200``)."""
    event = state.redo_event
    if event is None:
        return None
    try:
        again = apply(state, Event(state.seq + 1, "redo", {}, event.at))
    except EngineError:
        return say(describe(state, event))
    return say(describe(again, again.last_event or event))


def undone_text(state: Tournament) -> str:
    """What an undo now takes back, for its message: "Undone: Dana's bust (5th)."."""
    event = entry_to_undo(state)
    if event is None:
        return gettext("Undone.")
    if event.type == "bust":
        raw = event.payload.get("players")
        ids = [raw] if isinstance(raw, (int, str)) else list(raw or [])
        parts = []
        for value in ids:
            pid = int(value)
            place = state.place_of(pid) or state.provisional_places().get(pid)
            parts.append(gettext("%(name)s's bust (%(place)s)", name=state.name_of(pid), place=ordinal(place)) if place
                         else gettext("%(name)s's bust", name=state.name_of(pid)))
        return gettext("Undone: %(what)s.", what=gettext(" and ").join(parts))
    return gettext("Undone: %(what)s.", what=say(describe(state, event)))


@dataclass(frozen=True)
class ColourTable:
    """A table at a colour-up break: its race once run (``done``, with the race's lines, said),
    else who sits there (with the stacks the app keeps, or None where the dealer counts them)."""

    number: int
    done: bool
    players: tuple[tuple[int, str, int | None], ...]
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class ColourView:
    steps: tuple[tuple[int, int], ...]
    tables: tuple[ColourTable, ...]
    colours: tuple[tuple[int, str], ...] = ()
    """Each chip value's colour, where the host's chips are known."""

    @property
    def text(self) -> str:
        colour = dict(self.colours)

        def step(a: int, b: int) -> str:
            if a in colour and b in colour:
                return gettext("the %(small)s chips become %(big)s chips (%(colour)s into %(into)s)", small=chips(a),
                               big=chips(b), colour=colour[a], into=colour[b])
            return gettext("the %(small)s chips become %(big)s chips", small=chips(a), big=chips(b))

        return "; ".join(step(a, b) for a, b in self.steps)


def colour_view(state: Tournament, at: float, only: int | None = None) -> ColourView | None:
    """The colour-up to run at this break, table by table (None when there is none); ``only``:
    that table alone (a dealer's page, polled by every table: not 30 tables' stacks each time)."""
    after = break_level(state, at) if state.started and not state.finished else None
    steps = steps_at(state, after) if after is not None else ()
    if after is None or not steps:
        return None
    tables = []
    for number in state.seating.tables if only is None else [t for t in state.seating.tables if t == only]:
        seated = state.seating.at_table(number)
        if not seated:
            continue
        tracked = number in state.dealing.latest
        players = tuple(
            (pid, state.name_of(pid), stack_of(state, pid) if tracked else None) for _, pid in sorted(seated.items())
        )
        done = done_at(state, number, after)
        lines = () if done is None else tuple(say(line) for race in done.races for line in race.lines[1:])
        tables.append(ColourTable(number, done is not None, players, lines))
    owned = owned_chips(state.settings)
    colours = tuple((d.value, str(d.colour)) for d in owned.denominations) if owned is not None else ()
    return ColourView(steps, tuple(tables), colours)


@dataclass(frozen=True)
class MysteryView:
    """A mystery night's pool as the pages show it: the bounties it holds, those left, a warning."""

    count: int
    left: tuple[int, ...]
    warning: str | None


def mystery_draw_text(state: Tournament, draw: Draw) -> str:
    """``Ann draws a mystery bounty of 250 for Bob``, split, or the pool empty."""
    who = gettext(" and ").join(state.name_of(p) for p in draw.takers)
    victim = state.name_of(draw.victim)
    if not draw.amount:
        return gettext("The mystery pool is empty: %(who)s takes no bounty for %(victim)s.", who=who, victim=victim)
    if len(draw.takers) > 1:
        return gettext("%(who)s share a mystery bounty of %(amount)s for %(victim)s.", who=who,
                       amount=chips(draw.amount), victim=victim)
    return gettext("%(who)s draws a mystery bounty of %(amount)s for %(victim)s.", who=who,
                   amount=chips(draw.amount), victim=victim)


def mystery_view(state: Tournament) -> MysteryView | None:
    s = state.settings
    if s.bounty_kind != "mystery":
        return None
    b = bounties(state)
    knockouts = max(0, state.players_left - 1) if not state.finished else 0
    warning = None
    if len(b.left) < knockouts:
        warning = ngettext("%(num)d mystery bounty left for up to %(knockouts)s knockouts: once they are drawn, "
                           "a knockout takes no bounty.",
                           "%(num)d mystery bounties left for up to %(knockouts)s knockouts: once they are drawn, "
                           "a knockout takes no bounty.", len(b.left), knockouts=knockouts)
    return MysteryView(sum(c for _, c in s.mystery_pool), tuple(b.left), warning)


def chips_owned_text(state: Tournament) -> tuple[str, bool]:
    """Under the chips in play: ``of 290,000 you own``, or, past what the host's chips hold,
    a warning (True) that says by how much."""
    owned = owned_chips(state.settings)
    if owned is None:
        return "", False
    over = state.chips_in_play - owned.total_value
    if over > 0:
        if state.settings.chips is not None:
            return gettext("%(over)s more than your chips hold (%(total)s): colour up, or bring more chips before "
                           "the next rebuy", over=chips(over), total=chips(owned.total_value)), True
        return gettext("%(over)s more than the chip set holds (%(total)s): colour up, or bring more chips before "
                       "the next rebuy", over=chips(over), total=chips(owned.total_value)), True
    if state.settings.chips is not None:
        return gettext("of %(total)s in your chips", total=chips(owned.total_value)), False
    return gettext("of %(total)s in the chip set", total=chips(owned.total_value)), False


def late_registration_text(state: Tournament, level: int, on_break: bool = False) -> str:
    """``Late registration open until level 6`` while it is open, and re-entry likewise; "" once
    both are closed (or there is none). In the break after the last level of either, that
    level is over: it is open "until play resumes"."""
    s = state.settings
    playing = state.started and not state.finished
    late = playing and s.late_registration_levels >= level
    reentry = playing and s.reentry_levels >= level and not state.standings.rebuys_closed
    last_late = late and on_break and s.late_registration_levels == level
    last_reentry = reentry and on_break and s.reentry_levels == level
    if last_late and last_reentry:
        return gettext("Late registration and re-entry open until play resumes")
    if last_late:
        return (gettext("Late registration open until play resumes, re-entry until level %(reentry)s",
                        reentry=s.reentry_levels) if reentry else gettext("Late registration open until play resumes"))
    if last_reentry:
        return (gettext("Late registration open until level %(level)s, re-entry until play resumes",
                        level=s.late_registration_levels) if late else gettext("Re-entry open until play resumes"))
    if late and reentry:
        return gettext("Late registration open until level %(level)s, re-entry until level %(reentry)s",
                       level=s.late_registration_levels, reentry=s.reentry_levels)
    if late:
        return gettext("Late registration open until level %(level)s", level=s.late_registration_levels)
    if reentry:
        return gettext("Re-entry until level %(level)s", level=s.reentry_levels)
    return ""


def dashboard_context(state: Tournament, tournament_id: int, now: float) -> dict[str, Any]:
    clock = state.clock_at(now)
    level = clock.level_number or max(1, (clock.next_level_number or 2) - 1)
    return {
        "t": dashboard_view(state, tournament_id),
        "tournament_id": tournament_id,
        "clock": clock_view(clock, now, state.settings.structure.hand_counted),
        "rows": player_rows(state, rebuy_level=level if state.started else None),
        "payouts": payout_rows(state),
        "pool_lines": pool_lines(state),
        "deal_open": state.players_left <= state.settings.table_size and deal_refusal(state) is None,
        "deal_line": deal_line(state),
        "lock_open": lock_refusal(state) is None,
        "recent": recent_events(state),
        "last_event": last_event_text(state),
        "redo_text": redo_text(state),
        "ordinal": ordinal,
        "late_registration": late_registration_text(state, level, clock.on_break),
        "chips_owned": chips_owned_text(state),
        "mystery": mystery_view(state),
        "colour": colour_view(state, now),
        "rebuys_open": bool(state.settings.rebuy_levels) and not state.standings.rebuys_closed
        and (not state.started or level <= state.settings.rebuy_levels),
    }
