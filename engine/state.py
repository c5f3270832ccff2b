"""A tournament's state: :class:`Tournament`, as the fold of its events leaves it after each
one (``engine.tournament``), with the players in it and the records it keeps of the final
table's deal (``engine.deals``), the colour-ups (``engine.colour``) and a player put on the
clock. Everything here reads the state; the events that change it are handled above it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Literal, TypeAlias

from engine.chips import ColourUp
from engine.clock import ClockEntry, ClockEvent, ClockState, clock_state
from engine.errors import InvalidInput, Message
from engine.events import Event, History, Vec
from engine.ledger import Ledger
from engine.payouts import (
    Pool,
    grow_locked,
    payout_percentages,
    points_for_places,
    pool_of,
    prize_table,
    prizes_for_places,
)
from engine.seating import Seating
from engine.settings import Settings
from engine.standings import Standings
from engine.structure import Structure
from engine.tablehands import Dealing

PlayerId: TypeAlias = int
Chips: TypeAlias = int
Money: TypeAlias = int
Seat: TypeAlias = int


@dataclass(frozen=True)
class Player:
    """A registered player and their seat (``None`` while unseated or out)."""

    id: PlayerId
    name: str
    registered_seq: int
    status: Literal["in", "waiting", "out"] = "in"
    """``in``; ``waiting``: out but may still rebuy; ``out`` for good."""
    table: int | None = None
    seat: Seat | None = None
    rebuys: int = 0
    addon: bool = False
    reentries: int = 0

    @property
    def out(self) -> bool:
        return self.status != "in"

    @property
    def seated(self) -> bool:
        return self.table is not None


@dataclass(frozen=True)
class DealRecord:
    """The deal accepted at the final table."""

    seq: int
    method: str
    amounts: tuple[tuple[PlayerId, Money], ...]
    stacks: tuple[tuple[PlayerId, Chips], ...]
    play_for: Money
    """Left for the winner of the play that goes on (0: nothing)."""
    play_on: bool
    """Whether the tournament goes on after the deal (for the amount left and the trophy)."""

    @property
    def players(self) -> int:
        return len(self.amounts)


@dataclass(frozen=True)
class ColourUpRecord:
    """One table's colour-up at one break: the races, one per chip value removed, in order."""

    seq: int
    table: int
    after_level: int
    """The break's level: the colour-up happens at the break after it."""
    races: tuple[ColourUp, ...]
    players: tuple[tuple[Seat, PlayerId], ...]
    counted: bool
    """Whether the dealer counted the stacks (a table without the dealer's assistant)."""

    @property
    def change(self) -> Chips:
        """How much the chips in play changed: the rounding of the races."""
        return sum(r.change for r in self.races)

    def stacks(self) -> dict[PlayerId, tuple[Chips, Chips]]:
        """Each player's stack before and after."""
        player = dict(self.players)
        first, last = dict(self.races[0].before), dict(self.races[-1].stacks)
        return {player[s]: (first[s], last[s]) for s in first}


@dataclass(frozen=True)
class ActionClock:
    """A player on the clock: who, since when (epoch seconds), for how many seconds, and the
    final countdown after them; ``table`` and ``seat`` when the dealer's phone put the seat
    to act on it (then the time running out is ruled there: ``engine.rulings``)."""

    who: str
    started_at: float
    seconds: int
    countdown: int = 0
    table: int | None = None
    seat: int | None = None

    @property
    def ends_at(self) -> float:
        return self.started_at + self.seconds + self.countdown


@dataclass(frozen=True)
class Tournament:
    """The state after the events up to ``seq``.

    Eliminations, places, rebuys and add-ons are ``engine.standings.Standings``; seats are
    ``engine.seating.Seating``; the clock's events are kept for ``engine.clock``.
    """

    seq: int
    settings: Settings
    created_at: float
    names: tuple[tuple[PlayerId, str, int], ...] = ()
    """``(id, name, seq registered)`` in registration order."""
    next_player_id: PlayerId = 1
    """Player ids are never reused, even after a player is removed."""
    standings: Standings = field(default_factory=lambda: Standings(1))
    seating: Seating[PlayerId] = field(default_factory=lambda: Seating(9, ()))
    clock: tuple[ClockEntry, ...] = ()
    """The director's clock actions as entered."""
    clock_events: tuple[ClockEvent, ...] = ()
    """The same as ``engine.clock`` events (level jumps resolved to level numbers), the
    structure's edits among them (``Restructure``)."""
    deal: DealRecord | None = None
    """The final table's deal, once accepted (``engine.deals``)."""
    payouts_locked: tuple[int, tuple[Money, ...], Money] | None = None
    """``(seq, prizes, pool)`` once the payouts froze at the money (``Settings.lock_payouts``, or
    the director's ``payouts_lock``): who is paid and the shape of the prizes; money that comes
    in later is shared in proportion to them (``engine.payouts.grow_locked``)."""
    ledger: Ledger = field(default_factory=Ledger)
    """Every payment at the price it was made at, and every knockout with its bounty
    (``engine.ledger``)."""
    opening_structure: Structure | None = None
    """The structure the clock started from, once it has been edited (None: never edited)."""
    colour_ups: tuple[ColourUpRecord, ...] = ()
    """Each table's colour-up at each break (``engine.colour``)."""
    structure_edits: tuple[tuple[int, str], ...] = ()
    """``(seq, what changed)`` for each edit of the structure, in words for the log."""
    previous_seats: tuple[tuple[PlayerId, int, int], ...] = ()
    """Where players out last sat, so that a rebuy gets the seat back."""
    locks: tuple[tuple[PlayerId, int, int], ...] = ()
    """``(player, table, seat)`` locked by the director for the draw (see the seating section)."""
    action_clock: ActionClock | None = None
    """A player put on the clock, shown on the TV (see the TV section)."""
    hand_for_hand: bool = False
    dealing: Dealing = field(default_factory=Dealing)
    """Hands played at the tables with the dealer's assistant (see ``engine.dealing``)."""
    last_draw: tuple[int, Mapping[str, Any]] = (0, {})
    """The seq and payload of the last seat draw (``(0, {})`` before the first)."""
    h4h_since: int | None = None
    """The seq of the event that switched hand for hand on, while it is on."""
    h4h_hand: int = 0
    """The director's count of hand-for-hand hands (``h4h_next_hand``) for tables without the
    dealer's assistant: 0 is the hand in play when it was announced (TDA RP-8A)."""
    tokens: Mapping[PlayerId, str] = field(default_factory=dict)
    """Each player's page token, as the events carried it (the first one given wins)."""
    director_log: Vec[Event] = field(default_factory=Vec)
    """The live events other than table play (the hands), in order: what the seating and
    move history read, without walking every hand of the night."""
    history: History = field(default_factory=History, repr=False, compare=False)
    """What undo needs (``engine.events``): checkpoints, never every earlier state."""

    @property
    def name(self) -> str:
        return self.settings.name

    @cached_property
    def players(self) -> tuple[Player, ...]:
        """Everyone registered, in registration order, with status and seat (worked out once
        per state: a state never changes; and shared by the states that follow it while the
        names, standings and seats stay the same objects, as they do through a hand's play)."""
        return _roster(self.names, self.standings, self.seating)[0]

    @cached_property
    def _player_by_id(self) -> dict[PlayerId, Player]:
        return _roster(self.names, self.standings, self.seating)[1]

    @cached_property
    def _name_by_id(self) -> dict[PlayerId, str]:
        return {pid: name for pid, name, _ in self.names}

    def player(self, player_id: PlayerId) -> Player:
        player = self._player_by_id.get(player_id)
        if player is None:
            raise InvalidInput("There is no player number {player} in this tournament.", player=player_id)
        return player

    def player_named(self, name: str) -> Player | None:
        key = name.casefold()
        return next((p for p in self.players if p.name.casefold() == key), None)

    def name_of(self, player_id: PlayerId) -> str:
        return self._name_by_id.get(player_id, "?")

    @property
    def started(self) -> bool:
        return any(c.action == "start" for c in self.clock)

    def clock_at(self, now: float) -> ClockState:
        """The clock at ``now`` (``engine.clock.clock_state``)."""
        return clock_state(
            self.opening_structure or self.settings.structure,
            self.clock_events,
            now,
            pause_after_break=self.settings.pause_after_break,
        )

    def level_at(self, at: float) -> int:
        """The level in play at ``at`` (1 before the start; during a break, the level just played)."""
        return _level_at(self, at)

    @property
    def paused(self) -> bool:
        paused = False
        for entry in self.clock:
            if entry.action == "pause":
                paused = True
            elif entry.action in ("resume", "start"):
                paused = False
        return paused

    @property
    def entries(self) -> int:
        return self.standings.entries

    @property
    def rebuys(self) -> int:
        return self.standings.rebuys

    @property
    def addons(self) -> int:
        return self.standings.addons

    @cached_property
    def alive(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if not p.out)

    @property
    def players_left(self) -> int:
        return self.standings.players_left

    @property
    def finished(self) -> bool:
        return self.standings.is_over

    @property
    def chips_in_play(self) -> Chips:
        return self.standings.chips_in_play

    @property
    def average_stack(self) -> Chips | None:
        return self.standings.average_stack

    @property
    def pool(self) -> Pool:
        """The prize pool and where it comes from: paid in (each payment at its own price), the
        fees kept, the bounties, the overlay."""
        book = self.ledger
        return pool_of(book.paid_in, book.fees, self.settings.guarantee, book.bounties)

    @property
    def prize_pool(self) -> Money:
        return self.pool.pool

    @property
    def percentages(self) -> tuple[Fraction, ...]:
        """The payout table in use: the default one for the entries, or the host's
        (empty when there is no default table for this many entries)."""
        if self.settings.payout_kind == "custom":
            return self.settings.percentages
        try:
            return payout_percentages(max(self.entries, 1))
        except InvalidInput:
            return ()

    @property
    def payout_problem(self) -> str | None:
        """Why nobody can be paid yet, in words (no default table for this many entries)."""
        if self.settings.payout_kind == "table":
            try:
                payout_percentages(max(self.entries, 1))
            except InvalidInput as error:
                return str(error)
        return None

    @property
    def prizes(self) -> list[Money]:
        """The prize of each paid place, first place first (empty for a points league, or
        when there is no payout table for this many entries: see ``payout_problem``)."""
        if self.settings.payout_kind == "points" or not self.percentages:
            return []
        if self.payouts_locked is not None:
            _seq, prizes, pool = self.payouts_locked
            return grow_locked(prizes, pool, self.prize_pool, self.settings.payout_unit,
                               {place for place, _ in self.settings.fixed_prizes})
        return self._prize_table()[0]

    def _prize_table(self) -> tuple[list[Money], list[str]]:
        s = self.settings
        return prize_table(
            self.prize_pool, self.percentages, unit=s.payout_unit, entries=self.entries or None,  # none yet: the whole table
            fixed=dict(s.fixed_prizes), smallest=s.buy_in if s.min_prize_buy_in else 0,
        )

    @property
    def payout_notes(self) -> list[str]:
        """What the host should know about the prizes: fixed prizes the pool cannot cover,
        fewer places paid for the smallest prize, entries changed after the lock."""
        if self.settings.payout_kind == "points" or not self.percentages:
            return []
        if self.payouts_locked is not None:
            return _lock_notes(self.payouts_locked[2], self.prize_pool, self.settings.payout_unit)
        return self._prize_table()[1]

    def places(self) -> dict[PlayerId, int]:
        """The places that are settled, best first (everyone's once the game is over)."""
        return self.standings.places

    def provisional_places(self) -> dict[PlayerId, int]:
        """The place of everyone out, if nobody else came back."""
        return self.standings.provisional_places

    def place_of(self, player_id: PlayerId) -> int | None:
        return self.places().get(player_id)

    def awards(self) -> dict[PlayerId, Money]:
        """What each finisher wins (prizes of shared places are shared)."""
        prizes = self.prizes
        paid = {who: place for who, place in self.places().items() if place <= len(prizes)}
        if not paid and self.deal is None:
            return {}
        padded = list(prizes) + [0] * self.entries
        settled = {w: m for w, m in prizes_for_places(paid, padded, self.settings.payout_unit).items() if m}
        return settled if self.deal is None else awards_with_deal(self, settled)

    def points(self) -> dict[PlayerId, float]:
        """League points of every finisher (for a points league)."""
        return points_for_places(self.places(), max(self.entries, 1), self.settings.league_formula)

    def eliminated_by(self) -> dict[PlayerId, PlayerId]:
        """Who knocked out whom, for the players out (the first, when several split the pot)."""
        return self.standings.eliminated_by

    def eliminators_text(self, player: PlayerId) -> str | None:
        """``Ann`` or ``Ann and Bob`` (who split the pot): who knocked ``player`` out."""
        takers = self.standings.eliminators.get(player)
        if not takers:
            return None
        names = [self.name_of(p) for p in takers]
        return names[0] if len(names) == 1 else Message("{names} and {last}", names=" and ".join(names[:-1]), last=names[-1])

    def tables(self) -> dict[int, list[Player]]:
        """The players seated at each open table, by seat."""
        by_id = {p.id: p for p in self.players}
        return {t: [by_id[pid] for pid in self.seating.at_table(t).values()] for t in self.seating.tables}

    @property
    def moves_waiting(self) -> tuple[tuple[Player, int, int], ...]:
        """Players moved to a new seat while their hand at the old table runs: ``(player, old
        table, hand number)``. They join the new table once that hand is over (TDA 20, WSOP
        67): the hand there is dealt without them until then."""
        waiting = []
        for pid, table in self.dealing.in_hand.items():
            if pid in self.seating and self.seating.seat_of(pid)[0] != table:
                hand = self.dealing.running(table)
                waiting.append((self.player(pid), table, hand.number if hand is not None else 0))
        return tuple(waiting)

    @property
    def breaking_tables(self) -> tuple[int, ...]:
        """Tables whose players have all been given new seats (a table break, the final table's
        draw) while a hand there is running: each stays in play until that hand is over, its
        players finishing it before they take their new seats (TDA 20, WSOP 67); then it is
        broken."""
        open_tables = set(self.seating.tables)
        return tuple(sorted(t for t, hand in self.dealing.latest.items() if not hand.finished and t not in open_tables))

    @property
    def tables_in_play(self) -> tuple[int, ...]:
        """The open tables and the tables finishing their last hand (``breaking_tables``)."""
        return tuple(sorted({*self.seating.tables, *self.breaking_tables}))

    @property
    def unseated(self) -> tuple[Player, ...]:
        """Players still in without a seat (registered after the draw, or back after a rebuy)."""
        return tuple(p for p in self.alive if not p.seated)

    @property
    def can_undo(self) -> bool:
        return self.history.depth > 0

    @property
    def redo_event(self) -> Event | None:
        """The event a ``redo`` would apply again (None: nothing to redo)."""
        undone = self.history.undone
        return undone[-1] if undone else None

    @property
    def last_event(self) -> Event | None:
        """The last live event (``None`` right after ``created``)."""
        return self.history.last_event

    @property
    def log(self) -> tuple[Event, ...]:
        """The live events after ``created``, in order (undone ones removed). This walks the
        whole night: pages read ``director_log``, ``recent_events`` or ``events_since``."""
        return tuple(self.history.live())

    def recent_events(self, count: int) -> list[Event]:
        """The last ``count`` live events, newest first, without walking the whole log."""
        events: list[Event] = []
        for event in self.history.recent():
            if len(events) == count:
                break
            events.append(event)
        return events

    def events_since(self, seq: int) -> list[Event] | None:
        """The live events after ``seq``, or ``None`` when one of them was undone since."""
        return self.history.since(seq)


def _lock_notes(locked: Money, pool: Money, unit: int) -> list[str]:
    """What the host should know when the pool moved after the payouts were locked."""
    if pool == locked:
        return []
    if pool > locked and unit == 1:
        return [Message("The payouts were locked at the money with a pool of {pool}: the places paid stay as "
                        "locked, and the {more} paid in since is shared in proportion to the locked prizes (the "
                        "odd units to first place). The pool is now {now}.", pool=locked, more=pool - locked,
                        now=pool)]
    if pool > locked:
        return [Message("The payouts were locked at the money with a pool of {pool}: the places paid stay as "
                        "locked, and the {more} paid in since is shared in proportion to the locked prizes (each "
                        "share rounded down to {unit}, the rest to first place). The pool is now {now}.",
                        pool=locked, more=pool - locked, unit=unit, now=pool)]
    return [Message("The payouts were locked at the money with a pool of {pool}: the places paid stay as locked, "
                    "and the {less} the pool lost since is taken in proportion to the locked prizes. The pool is "
                    "now {now}.", pool=locked, less=locked - pool, now=pool)]


_Roster = tuple[tuple[Player, ...], dict[PlayerId, Player]]
_rosters: dict[tuple[int, int, int], tuple[object, object, object, _Roster]] = {}
"""The players of the last few (names, standings, seating), by the objects' identity: a
night's table play makes a new state at every entry, with the same three objects."""


def _roster(names: tuple[tuple[PlayerId, str, int], ...], standings: Standings, seating: Seating[PlayerId]) -> _Roster:
    key = (id(names), id(standings), id(seating))
    known = _rosters.get(key)
    if known is not None and known[0] is names and known[1] is standings and known[2] is seating:
        return known[3]
    waiting = set(standings.waiting)
    players = []
    for pid, name, seq in names:
        entrant = standings.entrant(pid)
        status: Literal["in", "waiting", "out"] = (
            "in" if entrant.in_play else "waiting" if pid in waiting else "out"
        )
        table, seat = seating.place_of(pid) or (None, None)
        players.append(Player(pid, name, seq, status, table, seat, entrant.rebuys, entrant.addon, entrant.reentries))
    roster = (tuple(players), {p.id: p for p in players})
    if len(_rosters) >= 32:  # a few nights at once, and the states an undo or a page goes back to
        _rosters.clear()
    _rosters[key] = (names, standings, seating, roster)  # the objects kept: their ids stay theirs
    return roster


def current_level(state: Tournament, at: float) -> int:
    """The level in play at ``at`` (1 before the start; during a break, the level just played)."""
    return state.level_at(at)


def _level_at(state: Tournament, at: float) -> int:
    clock = state.clock_at(at)
    if clock.level_number is not None:
        return clock.level_number
    return max(1, (clock.next_level_number or state.settings.structure.level_count + 1) - 1)


def awards_with_deal(state: Tournament, settled: Mapping[PlayerId, Money]) -> dict[PlayerId, Money]:
    """What each finisher takes after a deal: the places settled before it keep their prizes,
    each player in the deal takes his share, and the winner of the play after it what was
    left to play for."""
    deal = state.deal
    assert deal is not None
    places = state.places()
    dealt = dict(deal.amounts)
    out = {pid: money for pid, money in settled.items() if pid not in dealt}
    for pid, money in dealt.items():
        out[pid] = money + (deal.play_for if places.get(pid) == 1 else 0)
    return {pid: m for pid, m in out.items() if m}


__all__ = [
    "ActionClock",
    "ColourUpRecord",
    "DealRecord",
    "Player",
    "Tournament",
    "awards_with_deal",
    "current_level",
]
