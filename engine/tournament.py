"""A tournament as the fold of its events.

The director app stores what happened as a list of events and shows the answers of this
module: :func:`fold` turns the events into a :class:`Tournament`, and :func:`apply` adds one
event, refusing with a sentence the director can read (an ``EngineError``) an event that
cannot happen. The app checks a new event by applying it before it stores it, so the rules
live here only.

Events (``type``: payload):

- ``created``: the settings (see :class:`Settings` and :func:`settings_from_dict`);
- ``player_registered``: ``{"name"}``; ``player_unregistered``: ``{"player", "name"?}`` (before
  the start; ``name`` keeps the name for the log, the player being gone);
- ``seats_drawn``: ``{"seats": {player_id: [table, seat]}}`` (the draw is made by the caller
  with a seeded ``random.Random``; the result is stored so history never changes);
- ``player_seated`` / ``player_moved``: ``{"player", "table", "seat"}``;
- ``clock``: ``{"action": start | pause | resume | next_level | previous_level | add_time |
  break_now | hand_played, "seconds"?, "minutes"?}``: "next level" goes into the break when
  one comes next; "break now" ends the level in play and starts the break that follows it
  (one of ``minutes``, 10 by default, is added when none does);
- ``colour_up``: ``{"table", "seed", "stacks"?}``: a table's colour-up at a break, the odd
  chips raced for and the stacks and chips in play changed by it (``engine.colour``);
- ``settings_changed``: ``{field: value, ...}`` (the fields of :data:`EDITABLE_SETTINGS`): the
  director edits the settings after creation; a change that contradicts what already
  happened is refused with the reason (:func:`settings_refusal`);
- ``structure_changed``: ``{"edit", "item", ..., "restart"?}``: the director edits the
  structure in play (``engine.structure.edit``). What was played is kept: a level or break
  already over cannot change, the one in play cannot be removed; it keeps its elapsed time
  unless ``restart``;
- ``bust``: ``{"players": [id, ...], "stacks"?: {id: chips at the start of the hand},
  "by"?: id | [id, ...]}``; several players in one hand are ranked by their starting stacks
  (seed 000); several eliminators split the pot that knocked them out (and its bounty);
- ``rebuy`` / ``addon``: ``{"player"}``;
- ``reentry``: ``{"player"}``: a player who is out enters again (TDA 6.5: a new entry, with
  the starting stack and a new seat by the late-entry draw, a ``player_seated`` after it),
  until the end of level ``reentry_levels``, at most ``max_reentries`` times a player;
- the hands at the tables (``engine.dealing``): ``hand_started``, ``hand_action``, ...; the
  rulings there (``engine.rulings``): ``hand_misdeal``, ``hand_ruling``,
  ``button_corrected``, ``hand_time_up``; the final table's ``deal`` (``engine.deals``);
- ``undo``: cancels the last live event (the ``created`` event cannot be undone); ``redo``
  applies again the last one undone, until something new is entered.

>>> t = fold([Event(1, "created", {"name": "Friday"}, 0.0),
...           Event(2, "player_registered", {"name": "Ann"}, 1.0),
...           Event(3, "player_registered", {"name": "Bob"}, 2.0),
...           Event(4, "clock", {"action": "start"}, 3.0),
...           Event(5, "bust", {"players": [2], "by": 1}, 4.0)])
>>> t.players_left, t.finished, [(p.name, t.place_of(p.id)) for p in t.players]
(1, True, [('Ann', 1), ('Bob', 2)])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any, Literal, TypeAlias, cast

from engine import colour, dealing, deals, rulings
from engine.bounties import BOUNTY_KINDS, BountyKind
from engine.chips import CHIP_SETS, ChipSet, chip_set_from_dict, chip_set_to_dict
from engine.clock import (
    Adjust,
    ClockEntry,
    ClockEvent,
    ClockState,
    Finish,
    GoTo,
    HandPlayed,
    Pause,
    Restructure,
    Resume,
    SetLevel,
    Start,
    clock_state,
)
from engine.dealing import Dealing, refuse_past_hand_cap
from engine.errors import N_, EngineError, IllegalAction, InvalidInput, Message, Term
from engine.events import Event, History, Vec, apply_event, fold_events
from engine.ledger import Ledger, PaymentKind
from engine.limits import MAX_MONEY, MAX_PLAYERS
from engine.payouts import (
    MAX_FIXED_PRIZES,
    Pool,
    grow_locked,
    payout_percentages,
    points_for_places,
    pool_of,
    prize_table,
    prizes_for_places,
    validate_percentages,
)
from engine.pots import clockwise_from
from engine.seating import Move, Seating, apply_moves
from engine.standings import RebuyRules, Standings
from engine.structure import Level, Structure, preset, structure_from_dict, structure_to_dict
from engine.structure import edit as edit_structure

PlayerId: TypeAlias = int
Chips: TypeAlias = int
Money: TypeAlias = int
Seat: TypeAlias = int

TABLE_SIZES = (6, 9, 10)
RULES_VERSION = 2
"""See ``Settings.rules``."""
DEFAULT_PRESET = "home-short"
MAX_NAME = 40
CLOCK_ACTIONS = (
    "start", "pause", "resume", "next_level", "previous_level", "add_time", "break_now", "hand_played",
)
EDITABLE_SETTINGS = (
    "fee_amount", "fee_percent", "guarantee", "fixed_prizes", "min_prize_buy_in", "lock_payouts",
    "bounty_kind", "bounty", "pko_share", "mystery_level", "mystery_pool", "mystery_seed",
    "name", "buy_in", "starting_stack", "table_size", "rebuy_levels", "max_rebuys", "rebuy_when",
    "rebuy_cost", "rebuy_chips", "addon_level", "addon_cost", "addon_chips", "late_registration_levels",
    "payout_kind", "percentages", "league_formula", "payout_unit", "pause_after_break",
    "reentry_levels", "max_reentries", "action_seconds", "action_countdown",
)
"""What ``settings_changed`` may change once the tournament exists."""
PayoutKind: TypeAlias = Literal["table", "custom", "points"]
LeagueFormula: TypeAlias = Literal["table", "field", "sqrt"]


@dataclass(frozen=True)
class Settings:
    """What the host decides before the start. Amounts are chips or the host's play money."""

    name: str
    starting_stack: Chips = 10_000
    table_size: int = 9
    buy_in: Money = 20
    rebuy_levels: int = 0
    """Rebuys are open until the end of this level (0: no rebuys)."""
    rebuy_cost: Money = 20
    rebuy_chips: Chips = 10_000
    max_rebuys: int | None = None
    rebuy_when: Literal["busted", "at_or_below_start"] = "busted"
    addon_level: int = 0
    """The add-on is open until the end of this level (0: no add-on); once per player."""
    addon_cost: Money = 20
    addon_chips: Chips = 10_000
    late_registration_levels: int = 0
    """Registration stays open until the end of this level (0: until the clock starts)."""
    reentry_levels: int = 0
    """A player who is out may enter again until the end of this level (0: no re-entry)."""
    max_reentries: int | None = None
    """Re-entries per player (None: no limit)."""
    payout_kind: PayoutKind = "table"
    percentages: tuple[Fraction, ...] = ()
    league_formula: LeagueFormula = "table"
    payout_unit: int = 1
    fee_amount: Money = 0
    """What the house keeps of each buy-in, rebuy, re-entry and add-on (0: nothing), or:"""
    fee_percent: Fraction = Fraction(0)
    """the share of each the house keeps, in percent (rounded down to a whole unit)."""
    guarantee: Money = 0
    """The prize pool is at least this: the house adds the overlay."""
    fixed_prizes: tuple[tuple[int, Money], ...] = ()
    """``(place, amount)`` paid before the table shares the rest."""
    min_prize_buy_in: bool = False
    """No prize from the table below the buy-in: fewer places are paid if need be."""
    lock_payouts: bool = False
    """The prizes freeze when the money is reached (players left no more than places paid)."""
    bounty_kind: BountyKind = "none"
    """Bounties (``engine.bounties``): none, a fixed knockout bounty, progressive or mystery."""
    bounty: Money = 0
    """The part of each buy-in, re-entry and rebuy that is a bounty on the player's head."""
    pko_share: int = 50
    """Progressive: the percent of a head the eliminator takes (the rest goes on his own head)."""
    mystery_level: int = 1
    """Mystery: knockouts from this level on each draw a bounty from the pool."""
    mystery_pool: tuple[tuple[Money, int], ...] = ()
    """Mystery: the bounties to draw from, ``(amount, how many)``, largest first."""
    mystery_seed: int = 0
    """Mystery: the seed of the draws (chosen when the tournament is created, kept with it)."""
    structure: Structure = field(default_factory=lambda: preset(DEFAULT_PRESET))
    """The blind structure (stored as ``engine.structure.structure_to_dict`` writes it)."""
    chip_set: str = "home"
    chips: ChipSet | None = None
    """The host's own chips, as they were when the tournament was created (``chip_set`` names
    a ready-made set otherwise): what the starting stacks, rebuys and colour-ups are checked
    against."""
    pause_after_break: bool = False
    """The end of a break starts the next level paused (the director resumes it), not running."""
    action_seconds: int = 60
    """The action clock: the seconds a player put on the clock has (seed 002: "the table can put
    them on the clock – a minute, say")."""
    action_countdown: int = 5
    """The action clock's final countdown after them (TDA 29: "25 s plus a 5 s countdown")."""
    rules: int = 2
    """The version of the rules where the table and the director meet: 2 (this engine) refuses
    a director's bust during the player's hand and moves a bust's chips to the winner, holds a
    move until the player's hand is over, and counts the hand in play when hand for hand is
    announced. A tournament stored before (``rules`` 1) folds as it was played."""


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
    deal: deals.DealRecord | None = None
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
    colour_ups: tuple[colour.ColourUpRecord, ...] = ()
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
        per state: a state never changes)."""
        entrants = {e.id: e for e in self.standings.entrants}
        waiting = set(self.standings.waiting)
        seats = {pid: (t, s) for t, s, pid in self.seating.placements}
        result = []
        for pid, name, seq in self.names:
            entrant = entrants[pid]
            status: Literal["in", "waiting", "out"] = (
                "in" if entrant.in_play else "waiting" if pid in waiting else "out"
            )
            table, seat = seats.get(pid, (None, None))
            result.append(
                Player(pid, name, seq, status, table, seat, entrant.rebuys, entrant.addon, entrant.reentries)
            )
        return tuple(result)

    @cached_property
    def _player_by_id(self) -> dict[PlayerId, Player]:
        return {p.id: p for p in self.players}

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
        return settled if self.deal is None else deals.awards_with_deal(self, settled)

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


# --- reading the settings -------------------------------------------------------------


def clean_name(value: object, what: str = N_("name")) -> str:
    """A name with its spaces tidied, or ``InvalidInput`` if it is empty or too long.

    >>> clean_name("  Ann   Lee ")
    'Ann Lee'
    """
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput("The {what} is empty: type a {what}.", what=Term(what))
    name = " ".join(value.split())
    if len(name) > MAX_NAME:
        raise InvalidInput("The {what} {name}… is too long: at most {most} characters.", what=Term(what),
                           name=name[:MAX_NAME], most=MAX_NAME)
    return name


def _int(data: Mapping[str, Any], key: str, label: str, default: int, minimum: int = 0) -> int:
    """``data[key]`` as a whole number of at least ``minimum``; ``label`` (an ``N_()`` id or a
    ``Message``) names it in the refusal."""
    what = label if isinstance(label, Message) else Term(label)
    value = data.get(key, default)
    if value is None or value == "":
        value = default
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).replace(",", "").strip())
        except ValueError:
            raise InvalidInput("The {label} must be a whole number, not {value}.", label=what, value=repr(value)) from None
    if value < 0 <= minimum:
        raise InvalidInput("The {label} cannot be negative ({value}).", label=what, value=value)
    if value < minimum:
        raise InvalidInput("The {label} cannot be {value}: it must be at least {minimum}.", label=what, value=value,
                           minimum=minimum)
    return value


def _ticked(value: Any) -> bool:
    """A setting's tick as a form or a client sends it: true, "on", "1" or "true"."""
    return value in (True, "on", "1", "true", 1)


def _fee_percent(value: Any) -> Fraction:
    """The fee as a share of each payment: 0 to 100 percent (``10``, ``"12.5"``, ``"10%"``)."""
    if value in (None, "", 0):
        return Fraction(0)
    text = str(value).strip().rstrip("%").strip()
    try:
        share = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise InvalidInput("The fee's share must be a percentage like 10 or 12.5, not {value}.", value=repr(value)) from None
    if isinstance(value, bool) or not 0 <= share <= 100:
        raise InvalidInput("A fee of {percent}% is not possible: the share kept is from 0% to 100% of each payment.",
                           percent=text)
    return share


def _typed_pairs(
    value: Any, split: Callable[[str], tuple[Any, Any]], lone: Any, shape: str, most: int, too_many: str
) -> list[Any]:
    """Pairs given as a mapping, a list (a lone item paired with ``lone``) or typed text, parts
    split by commas or semicolons and each by ``split``; ``shape`` refuses anything else and
    ``too_many`` (an ``N_()`` id with ``{most}`` and ``{count}``) more than ``most``."""
    if isinstance(value, str):
        pairs: list[Any] = [split(part) for part in value.replace(";", ",").split(",") if part.strip()]
    elif isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, list):
        pairs = [tuple(p) if isinstance(p, (list, tuple)) else (p, lone) for p in value]
    else:
        raise InvalidInput(shape)
    if len(pairs) > most:
        raise InvalidInput(too_many, most=most, count=len(pairs))
    return pairs


def _place_and_amount(part: str) -> tuple[str, str]:
    place, sep, amount = part.replace(":", "=").partition("=")
    if not sep:
        raise InvalidInput("Write each fixed prize as place=amount (4=50), not {part}.", part=repr(part.strip()))
    return place.strip().rstrip("stndrh").strip(), amount.strip().replace(",", "")


def _fixed_prizes(value: Any) -> tuple[tuple[int, Money], ...]:
    """Fixed prizes by place: ``{"4": 50}``, ``[[4, 50]]`` or as typed, ``4=50, 5=50``."""
    if value in (None, "", {}, []):
        return ()
    pairs = _typed_pairs(value, _place_and_amount, None, "The fixed prizes must be places with their amounts, like 4=50.",
                         MAX_FIXED_PRIZES, N_("At most {most} places can have a fixed prize, not {count}."))
    out: dict[int, Money] = {}
    for pair in pairs:
        if len(pair) != 2:
            raise InvalidInput("Each fixed prize is a place and an amount, like 4=50.")
        paid = _int({"v": pair[0]}, "v", N_("place of a fixed prize"), 1, minimum=1)
        money = _int({"v": pair[1]}, "v", Message("fixed prize for place {place}", place=paid), 0)
        if paid > MAX_PLAYERS or money > MAX_MONEY:
            raise InvalidInput("A fixed prize is for a place up to {places} and an amount up to {most}.",
                               places=MAX_PLAYERS, most=MAX_MONEY)
        if paid in out:
            raise InvalidInput("Place {place} has two fixed prizes: give one.", place=paid)
        out[paid] = money
    return tuple(sorted(out.items()))


MAX_MYSTERY_KINDS = 20
MAX_MYSTERY_BOUNTIES = 10_000


def _amount_and_count(part: str) -> tuple[str, Any]:
    typed, sep, many = part.lower().replace("×", "x").replace("*", "x").partition("x")
    return typed.strip(), many.strip() if sep else 1


def mystery_pool_from(value: Any) -> tuple[tuple[Money, int], ...]:
    """The mystery bounties: ``[[500, 2], [100, 10]]``, ``{"500": 2}`` or as typed,
    ``500x2, 100x10`` (an amount alone is one bounty); largest first.

    >>> mystery_pool_from("100 x 10, 500x2; 50")
    ((500, 2), (100, 10), (50, 1))
    """
    if value in (None, "", {}, []):
        return ()
    pairs = _typed_pairs(value, _amount_and_count, 1,
                         "The mystery bounties are amounts with how many of each, like 500x2, 100x10.",
                         MAX_MYSTERY_KINDS, N_("At most {most} different mystery bounties, not {count}."))
    out: dict[Money, int] = {}
    for pair in pairs:
        if len(pair) != 2:
            raise InvalidInput("Each mystery bounty is an amount and how many, like 500x2.")
        amount = _int({"v": pair[0]}, "v", N_("mystery bounty"), 1, minimum=1)
        count = _int({"v": pair[1]}, "v", Message("number of mystery bounties of {amount}", amount=amount), 1, minimum=1)
        if amount > MAX_MONEY:
            raise InvalidInput("A mystery bounty is at most {most}, not {amount}.", most=MAX_MONEY, amount=amount)
        out[amount] = out.get(amount, 0) + count
    if sum(out.values()) > MAX_MYSTERY_BOUNTIES:
        raise InvalidInput("At most {most} mystery bounties, not {count}.", most=MAX_MYSTERY_BOUNTIES,
                           count=sum(out.values()))
    return tuple(sorted(out.items(), reverse=True))


def mystery_pool_text(pool: tuple[tuple[Money, int], ...]) -> str:
    """``500x2, 100x10``: the mystery bounties as the host types them."""
    return ", ".join(f"{amount}x{count}" for amount, count in pool)


def settings_from_dict(data: Mapping[str, Any]) -> Settings:
    """Settings from the ``created`` payload, every value checked with a readable message.

    The starting stack defaults to the structure's; a different one given replaces it there.

    >>> settings_from_dict({"name": "SNG", "preset": "sng-2000"}).starting_stack
    2000
    >>> settings_from_dict({"name": "SNG", "preset": "sng-1000", "starting_stack": 1500}).structure.starting_stack
    1500
    """
    raw_structure = data.get("structure")
    if raw_structure in (None, {}):
        structure = preset(str(data.get("preset") or DEFAULT_PRESET))
    elif isinstance(raw_structure, Mapping):
        structure = structure_from_dict(raw_structure)
    else:
        raise InvalidInput("The blind structure must be a table of levels.")
    raw_chips = data.get("chips")
    if raw_chips in (None, {}):
        chips = None
    elif isinstance(raw_chips, Mapping):
        chips = chip_set_from_dict(raw_chips)
        if structure.denominations != chips.values:  # the chips on the table are the host's
            structure = replace(structure, denominations=chips.values)
    else:
        raise InvalidInput("The chip set must be an object with a name and its chips.")
    stack = _int(data, "starting_stack", N_("starting stack"), structure.starting_stack, minimum=1)
    if stack != structure.starting_stack:
        structure = replace(structure, starting_stack=stack)
    table_size = _int(data, "table_size", N_("table size"), 9, minimum=2)
    if table_size not in TABLE_SIZES:
        raise InvalidInput("A table has 6, 9 or 10 seats, not {size}.", size=table_size)
    kind = data.get("payout_kind") or "table"
    if kind not in ("table", "custom", "points"):
        raise InvalidInput("Unknown payout kind {kind}: use 'table', 'custom' or 'points'.", kind=repr(kind))
    percentages: tuple[Fraction, ...] = ()
    if kind == "custom":
        raw = data.get("percentages") or []
        if isinstance(raw, str):
            raw = [p for p in raw.replace(",", "/").replace(" ", "/").split("/") if p]
        percentages = validate_percentages(list(raw))
    formula = data.get("league_formula") or "table"
    if formula not in ("table", "field", "sqrt"):
        raise InvalidInput("Unknown league formula {formula}: use 'table', 'field' or 'sqrt'.", formula=repr(formula))
    max_reentries_raw = data.get("max_reentries")
    max_reentries = None if max_reentries_raw in (None, "") else _int(data, "max_reentries", N_("re-entry limit"), 0)
    max_rebuys_raw = data.get("max_rebuys")
    max_rebuys = None if max_rebuys_raw in (None, "") else _int(data, "max_rebuys", N_("rebuy limit"), 0)
    rebuy_when = data.get("rebuy_when") or "busted"
    if rebuy_when not in ("busted", "at_or_below_start"):
        raise InvalidInput("Unknown rebuy condition {condition}: use 'busted' or 'at_or_below_start'.",
                           condition=repr(rebuy_when))
    fee_amount = _int(data, "fee_amount", N_("fee"), 0)
    fee_percent = _fee_percent(data.get("fee_percent"))
    if fee_amount and fee_percent:
        raise InvalidInput("Give the fee as an amount or as a share of each payment, not both.")
    buy_in = _int(data, "buy_in", N_("buy-in"), 20)
    if fee_amount > buy_in:
        raise InvalidInput("The fee of {fee} is more than the buy-in of {buy_in}.", fee=fee_amount, buy_in=buy_in)
    guarantee = _int(data, "guarantee", N_("guaranteed prize pool"), 0)
    if guarantee > MAX_MONEY:
        raise InvalidInput("The guaranteed prize pool is at most {most}, not {guarantee}.", most=MAX_MONEY,
                           guarantee=guarantee)
    fixed_prizes = _fixed_prizes(data.get("fixed_prizes"))
    bounty_kind = data.get("bounty_kind") or "none"
    if bounty_kind not in BOUNTY_KINDS:
        raise InvalidInput(
            "Unknown bounty {kind}: use 'none', 'knockout', 'progressive' or 'mystery'.", kind=repr(bounty_kind),
        )
    mystery_pool = mystery_pool_from(data.get("mystery_pool")) if bounty_kind == "mystery" else ()
    if bounty_kind == "mystery" and not mystery_pool:
        raise InvalidInput("A mystery bounty night needs its bounties: amounts and how many of each, like 500x2, 100x10.")
    mystery_level = _int(data, "mystery_level", N_("first mystery-bounty level"), 1, minimum=1)
    if bounty_kind == "mystery" and mystery_level > structure.level_count:
        raise InvalidInput(
            "The mystery bounties start at level {level}, but the structure has {count} levels.",
            level=mystery_level, count=structure.level_count,
        )
    mystery_seed = _int(data, "mystery_seed", N_("mystery-bounty seed"), 0)
    bounty = _int(data, "bounty", N_("bounty"), 0) if bounty_kind != "none" else 0
    if bounty_kind != "none" and bounty < 1:
        raise InvalidInput("A bounty tournament needs a bounty of at least 1 on each head.")
    kept = fee_amount or (buy_in * fee_percent // 100)
    if bounty > buy_in - kept:
        if kept:
            raise InvalidInput("The bounty of {bounty} is more than the buy-in of {buy_in} less its fee ({fee}).",
                               bounty=bounty, buy_in=buy_in, fee=kept)
        raise InvalidInput("The bounty of {bounty} is more than the buy-in of {buy_in}.", bounty=bounty, buy_in=buy_in)
    rebuy_cost = _int(data, "rebuy_cost", N_("rebuy cost"), buy_in)
    if bounty and _int(data, "rebuy_levels", N_("last rebuy level"), 0) and bounty > rebuy_cost:
        raise InvalidInput("The bounty of {bounty} is more than the rebuy cost of {cost}: each rebuy buys a new one.",
                           bounty=bounty, cost=rebuy_cost)
    pko_share = _int(data, "pko_share", N_("progressive bounty share"), 50, minimum=1)
    if pko_share > 100:
        raise InvalidInput("The eliminator takes from 1% to 100% of a progressive bounty, not {share}%.", share=pko_share)
    action_seconds = _int(data, "action_seconds", N_("action clock's seconds"), 60, minimum=5)
    action_countdown = _int(data, "action_countdown", N_("action clock's final countdown"), 5)
    if action_seconds > 600 or action_countdown > 60:
        raise InvalidInput("The action clock runs 5 seconds to 10 minutes, and its final countdown 0 to 60 seconds.")
    chip_set = data.get("chip_set") or "home"
    if not isinstance(chip_set, str):
        raise InvalidInput("The chip set must be named.")
    return Settings(
        name=clean_name(data.get("name"), N_("tournament name")),
        starting_stack=stack,
        table_size=table_size,
        buy_in=_int(data, "buy_in", N_("buy-in"), 20),
        rebuy_levels=_int(data, "rebuy_levels", N_("last rebuy level"), 0),
        rebuy_cost=_int(data, "rebuy_cost", N_("rebuy cost"), _int(data, "buy_in", N_("buy-in"), 20)),
        rebuy_chips=_int(data, "rebuy_chips", N_("rebuy chips"), stack, minimum=1),
        max_rebuys=max_rebuys,
        rebuy_when=cast(Literal["busted", "at_or_below_start"], rebuy_when),
        addon_level=_int(data, "addon_level", N_("add-on level"), 0),
        addon_cost=_int(data, "addon_cost", N_("add-on cost"), _int(data, "buy_in", N_("buy-in"), 20)),
        addon_chips=_int(data, "addon_chips", N_("add-on chips"), stack, minimum=1),
        late_registration_levels=_int(data, "late_registration_levels", N_("last late-registration level"), 0),
        reentry_levels=_int(data, "reentry_levels", N_("last re-entry level"), 0),
        max_reentries=max_reentries,
        payout_kind=cast(PayoutKind, kind),
        percentages=percentages,
        league_formula=cast(LeagueFormula, formula),
        payout_unit=_int(data, "payout_unit", N_("payout rounding unit"), 1, minimum=1),
        structure=structure,
        fee_amount=fee_amount,
        fee_percent=fee_percent,
        guarantee=guarantee,
        fixed_prizes=fixed_prizes,
        min_prize_buy_in=_ticked(data.get("min_prize_buy_in")),
        lock_payouts=_ticked(data.get("lock_payouts")),
        bounty_kind=cast(BountyKind, bounty_kind),
        bounty=bounty,
        pko_share=pko_share,
        mystery_level=mystery_level if bounty_kind == "mystery" else 1,
        mystery_pool=mystery_pool,
        mystery_seed=mystery_seed,
        chip_set=chip_set,
        chips=chips,
        pause_after_break=_ticked(data.get("pause_after_break")),
        action_seconds=action_seconds,
        action_countdown=action_countdown,
        rules=_int(data, "rules", N_("rules version"), RULES_VERSION, minimum=1),
    )


# --- the fold ---------------------------------------------------------------------------


def _player_id(payload: Mapping[str, Any], key: str = "player") -> PlayerId:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            return int(str(value))
        except ValueError:
            raise InvalidInput("Choose a player: {value} is not a player number.", value=repr(value)) from None
    return value


def current_level(state: Tournament, at: float) -> int:
    """The level in play at ``at`` (1 before the start; during a break, the level just played)."""
    return state.level_at(at)


def _level_at(state: Tournament, at: float) -> int:
    clock = state.clock_at(at)
    if clock.level_number is not None:
        return clock.level_number
    return max(1, (clock.next_level_number or state.settings.structure.level_count + 1) - 1)


def _clock_event(state: Tournament, action: str, at: float, seconds: int) -> ClockEvent:
    """The ``engine.clock`` event for a director's clock action."""
    if action == "start":
        return Start(at)
    if action == "pause":
        return Pause(at)
    if action == "resume":
        return Resume(at)
    if action == "add_time":
        return Adjust(at, seconds)
    if action == "hand_played":
        return HandPlayed(at)
    if action == "finish":
        return Finish(at)
    structure = state.settings.structure
    now = state.clock_at(at)
    if action == "next_level" and now.break_next:
        return GoTo(at, now.item_index + 1)  # the break comes first
    if now.level_number is not None:
        target = now.level_number + (1 if action == "next_level" else -1)
    else:  # on a break: "next" is the level after it, "previous" the one before it
        after = now.next_level_number or structure.level_count
        target = after if action == "next_level" else after - 1
    if target < 1:
        raise IllegalAction("The clock is at level 1: there is no level before it.")
    if target > structure.level_count and not structure.repeat_doubling:
        raise IllegalAction("Level {level} is the last level: it goes on until the end.", level=structure.level_count)
    return SetLevel(at, target)


def rules(settings: Settings) -> RebuyRules:
    """The rebuy and add-on rules of ``engine.standings`` for these settings."""
    return RebuyRules(
        rebuy_until_level=settings.rebuy_levels,
        max_rebuys=settings.max_rebuys,
        rebuy_when=settings.rebuy_when,
        rebuy_chips=settings.rebuy_chips,
        rebuy_cost=settings.rebuy_cost,
        addon_level=settings.addon_level or None,
        addon_chips=settings.addon_chips,
        addon_cost=settings.addon_cost,
        reentry_until_level=settings.reentry_levels,
        max_reentries=settings.max_reentries,
    )


MAX_ELIMINATORS = 10
"""Players who can split the pot that knocked someone out (a table's seats)."""


def _eliminators(state: Tournament, raw: Any, victims: Sequence[PlayerId]) -> tuple[PlayerId, ...]:
    """The bust's ``by``: one player or several who split the pot (a list), in the odd-chip
    order: clockwise from the button of the victims' table when a hand was dealt there (TDA
    20: the odd chip goes to the first winner left of the button), else as named."""
    if raw in (None, "", []):
        return ()
    named = raw if isinstance(raw, list) else [raw]
    if len(named) > MAX_ELIMINATORS:
        raise InvalidInput("At most {most} players can split the pot that knocked a player out.", most=MAX_ELIMINATORS)
    takers: list[PlayerId] = []
    for value in named:
        winner = state.player(_player_id({"player": value}))
        if winner.id in victims:
            raise IllegalAction("{name} cannot knock themselves out.", name=winner.name)
        if winner.out:
            raise IllegalAction("{name} is already out and cannot knock anyone out.", name=winner.name)
        if winner.id in takers:
            raise InvalidInput("{name} is named twice as an eliminator.", name=winner.name)
        takers.append(winner.id)
    table = state.player(victims[0]).table if victims else None
    record = state.dealing.latest.get(table) if table is not None and len(takers) > 1 else None
    if record is not None:
        seats = {state.seating.seat_of(pid)[1]: pid for pid in takers if pid in state.seating}
        if len(seats) == len(takers):
            takers = [seats[s] for s in clockwise_from(record.setup.button, seats)]
    return tuple(takers)


def _at_level(state: Tournament, event: Event) -> Standings:
    return state.standings.at_level(current_level(state, event.at)) if state.started else state.standings


def _register(state: Tournament, event: Event) -> Tournament:
    name = clean_name(event.payload.get("name"))
    existing = state.player_named(name)
    if existing is not None:
        raise IllegalAction("{name} is already registered: add something to tell them apart.", name=existing.name)
    if state.finished:
        raise IllegalAction("The tournament is over: {name} cannot register any more.", name=name)
    if state.started:
        last = state.settings.late_registration_levels
        level = current_level(state, event.at)
        if level > last:
            if last == 0:
                raise IllegalAction("Registration closed when the clock started: {name} cannot join at level {level}.",
                                    name=name, level=level)
            raise IllegalAction("Registration closed at the end of level {last}: {name} cannot join at level {level}.",
                                last=last, name=name, level=level)
    _refuse_after_deal(state)
    new_id = state.next_player_id
    return replace(
        state,
        next_player_id=new_id + 1,
        names=(*state.names, (new_id, name, event.seq)),
        standings=state.standings.register(new_id, name),
        ledger=state.ledger.pay(state.settings, new_id, "entry", event.seq),
    )


def _refuse_after_deal(state: Tournament) -> None:
    """After the final table's deal the prize money is shared out: no more money comes in."""
    if state.deal is not None:
        raise IllegalAction("A deal was made at the final table: no more buy-ins, rebuys or add-ons "
                            "(undo the deal first).")


def _paid(state: Tournament, pid: PlayerId, kind: PaymentKind, event: Event) -> Ledger:
    """The ledger with ``pid``'s payment of ``kind``, at the price of the moment."""
    _refuse_after_deal(state)
    return state.ledger.pay(state.settings, pid, kind, event.seq)


def _unregister(state: Tournament, event: Event) -> Tournament:
    """A player registered by mistake leaves before the clock starts (afterwards, they bust)."""
    pid = _player_id(event.payload)
    name = state.player(pid).name
    if state.started:
        raise IllegalAction("The clock has started: {name} cannot be removed any more, only knocked out.", name=name)
    standings = replace(state.standings, entrants=tuple(e for e in state.standings.entrants if e.id != pid))
    seating = state.seating.without(pid) if pid in state.seating else state.seating
    return replace(
        state,
        names=tuple(n for n in state.names if n[0] != pid),
        standings=standings,
        seating=seating,
        locks=tuple(x for x in state.locks if x[0] != pid),
        ledger=state.ledger.refund(pid),
    )


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


def dealer_tables(state: Tournament) -> tuple[int, ...]:
    """The tables where the dealer's assistant has dealt a hand: it counts their hands."""
    return state.dealing.tables


def _tables_text(tables: Sequence[int]) -> Message:
    if len(tables) == 1:
        return Message("table {table}", table=tables[0])
    return Message("tables {tables} and {last}", tables=list(tables[:-1]), last=tables[-1])


def hand_played_refusal(state: Tournament, at: float) -> Message | None:
    """Why the director's "hand played" cannot count a hand now, or None when it can.

    A hand is never counted twice: where the dealer's assistant deals, it counts the
    hands itself; and no hand is counted after the hand cap.
    """
    try:
        refuse_past_hand_cap(state, at)
    except IllegalAction as error:
        return Message(error.message, **error.values)
    tracked = dealer_tables(state)
    if tracked:
        return Message(
            "The dealer's assistant counts the hands at {tables}; the hand-played button is for tables without it.",
            tables=_tables_text(tracked),
        )
    return None


def _clock(state: Tournament, event: Event) -> Tournament:
    action = event.payload.get("action")
    if action not in CLOCK_ACTIONS:
        raise InvalidInput("Unknown clock action {action}.", action=repr(action))
    if action == "hand_played" and state.started:
        refuse_past_hand_cap(state, event.at)
    if state.finished:
        raise IllegalAction("The tournament is over: the clock has stopped.")
    if action == "start":
        if state.started:
            raise IllegalAction("The clock has already started.")
        if state.entries < 2:
            raise IllegalAction("A tournament needs at least 2 players to start; {count} registered.", count=state.entries)
    elif not state.started:
        raise IllegalAction("Start the clock first.")
    paused = state.started and state.clock_at(event.at).status == "paused"
    if action == "pause" and paused:
        raise IllegalAction("The clock is already paused.")
    if action == "resume" and not paused:
        raise IllegalAction("The clock is running: there is nothing to resume.")
    if action == "break_now":
        return _break_now(state, event)
    if action == "hand_played" and not state.settings.structure.hand_counted:
        raise IllegalAction("Levels of this structure are timed, not counted in hands.")
    if action == "hand_played" and (refusal := hand_played_refusal(state, event.at)):
        raise IllegalAction(refusal.message, **refusal.values)
    seconds = 0
    if action == "add_time":
        seconds = _int(event.payload, "seconds", N_("number of seconds"), 60, minimum=-3600)
        if seconds == 0 or abs(seconds) > 3600:
            raise InvalidInput("Add or take between 1 second and an hour, not {seconds} seconds.", seconds=seconds)
    clock_event = _clock_event(state, action, event.at, seconds)
    entry = ClockEntry(action=action, at=event.at, seconds=seconds)
    return _with_clock(state, entry, clock_event)


def _with_clock(
    state: Tournament, entry: ClockEntry, *clock_events: ClockEvent, structure: Structure | None = None
) -> Tournament:
    """``state`` with the clock's new events (and the structure they bring), checked by the
    clock, and the rebuy and add-on windows at the level it is at."""
    opening = state.opening_structure
    if structure is not None and opening is None:
        opening = state.settings.structure
    new = replace(
        state,
        clock=(*state.clock, entry),
        clock_events=(*state.clock_events, *clock_events),
        opening_structure=opening,
        settings=state.settings if structure is None else replace(state.settings, structure=structure),
    )
    new.clock_at(entry.at)  # refuses what the clock cannot do
    return replace(new, standings=new.standings.at_level(current_level(new, entry.at)))


def _break_now(state: Tournament, event: Event) -> Tournament:
    """The level in play ends now and the break after it starts; without one, a break of
    ``minutes`` (10 by default) is put after the level."""
    now = state.clock_at(event.at)
    if now.on_break:
        raise IllegalAction("It is the break already: add time to it to make it longer.")
    entry = ClockEntry(action="break_now", at=event.at)
    if now.break_next:
        return _with_clock(state, entry, GoTo(event.at, now.item_index + 1))
    if now.item_index >= len(state.settings.structure.items):
        raise IllegalAction("The clock is past the listed levels: add a break to the structure first.")
    minutes = _int(event.payload, "minutes", N_("break's length in minutes"), 10, minimum=1)
    if minutes > 120:
        raise InvalidInput("A break lasts at most 120 minutes, not {minutes}.", minutes=minutes)
    change = {"edit": "add_break", "item": now.item_index + 1, "minutes": minutes}
    structure, _ = edit_structure(state.settings.structure, change)
    return _with_clock(
        state, entry, Restructure(event.at, structure), GoTo(event.at, now.item_index + 1), structure=structure
    )


def owned_chips(settings: Settings) -> ChipSet | None:
    """The chips the night is played with: the host's own set, else the ready-made set the
    structure's chips match (None: no physical chips to check)."""
    if settings.chips is not None:
        return settings.chips
    ready = CHIP_SETS.get(settings.chip_set)
    if ready is not None and ready.values == settings.structure.denominations:
        return ready
    return None


def settings_as_dict(settings: Settings) -> dict[str, Any]:
    """The settings as :func:`settings_from_dict` reads them (the payout percentages aside:
    kept as they are unless given)."""
    return {
        "name": settings.name, "starting_stack": settings.starting_stack, "table_size": settings.table_size,
        "buy_in": settings.buy_in, "rebuy_levels": settings.rebuy_levels, "rebuy_cost": settings.rebuy_cost,
        "rebuy_chips": settings.rebuy_chips, "max_rebuys": settings.max_rebuys, "rebuy_when": settings.rebuy_when,
        "addon_level": settings.addon_level, "addon_cost": settings.addon_cost, "addon_chips": settings.addon_chips,
        "late_registration_levels": settings.late_registration_levels, "payout_kind": settings.payout_kind,
        "league_formula": settings.league_formula, "payout_unit": settings.payout_unit,
        "structure": structure_to_dict(settings.structure), "chip_set": settings.chip_set,
        "chips": None if settings.chips is None else chip_set_to_dict(settings.chips),
        "pause_after_break": settings.pause_after_break, "rules": settings.rules,
        "action_seconds": settings.action_seconds, "action_countdown": settings.action_countdown,
        "reentry_levels": settings.reentry_levels, "max_reentries": settings.max_reentries,
        "fee_amount": settings.fee_amount, "fee_percent": _percent_text(settings.fee_percent),
        "guarantee": settings.guarantee, "fixed_prizes": fixed_prizes_text(settings.fixed_prizes),
        "min_prize_buy_in": settings.min_prize_buy_in, "lock_payouts": settings.lock_payouts,
        "bounty_kind": settings.bounty_kind, "bounty": settings.bounty, "pko_share": settings.pko_share,
        "mystery_level": settings.mystery_level, "mystery_pool": mystery_pool_text(settings.mystery_pool),
        "mystery_seed": settings.mystery_seed,
    }


def _percent_text(share: Fraction) -> str:
    return "" if not share else str(share.numerator) if share.denominator == 1 else f"{float(share):g}"


def fixed_prizes_text(fixed: tuple[tuple[int, Money], ...]) -> str:
    """``4=50, 5=50``: the fixed prizes as the host types them."""
    return ", ".join(f"{place}={amount}" for place, amount in fixed)


def _times(n: int) -> Message:
    if n == 1:
        return Message("once")
    if n == 2:
        return Message("twice")
    return Message("{count} times", count=n)


def settings_refusal(state: Tournament, new: Settings) -> Message | None:
    """Why ``new`` cannot replace the settings now (None when it can): what already happened
    stays true."""
    old = state.settings
    standings = state.standings
    if new.starting_stack != old.starting_stack and state.started:
        return Message("The clock has started with {stack} chips a player: the starting stack "
                       "cannot change now (correct a stack instead).", stack=old.starting_stack)
    if new.rebuy_chips != old.rebuy_chips and standings.rebuys:
        if standings.rebuys == 1:
            return Message("1 rebuy has brought {chips} chips each: the rebuy chips cannot change now.",
                           chips=old.rebuy_chips)
        return Message("{count} rebuys have brought {chips} chips each: the rebuy chips cannot change now.",
                       count=standings.rebuys, chips=old.rebuy_chips)
    if new.addon_chips != old.addon_chips and standings.addons:
        if standings.addons == 1:
            return Message("1 add-on has brought {chips} chips each: the add-on chips cannot change now.",
                           chips=old.addon_chips)
        return Message("{count} add-ons have brought {chips} chips each: the add-on chips cannot change now.",
                       count=standings.addons, chips=old.addon_chips)
    if new.addon_level == 0 and standings.addons:
        if standings.addons == 1:
            return Message("1 player has taken the add-on: it cannot be removed.")
        return Message("{count} players have taken the add-on: it cannot be removed.", count=standings.addons)
    most = max((e.rebuys for e in standings.entrants), default=0)
    if new.max_rebuys is not None and new.max_rebuys < most:
        players = sum(1 for e in standings.entrants if e.rebuys == most)
        if players == 1:
            return Message("1 player has already rebought {times}: the limit cannot go below {most}.",
                           times=_times(most), most=most)
        return Message("{count} players have already rebought {times}: the limit cannot go below {most}.",
                       count=players, times=_times(most), most=most)
    most_in = max((e.reentries for e in standings.entrants), default=0)
    if new.max_reentries is not None and new.max_reentries < most_in:
        players = sum(1 for e in standings.entrants if e.reentries == most_in)
        if players == 1:
            return Message("1 player has already re-entered {times}: the limit cannot go below {most}.",
                           times=_times(most_in), most=most_in)
        return Message("{count} players have already re-entered {times}: the limit cannot go below {most}.",
                       count=players, times=_times(most_in), most=most_in)
    if new.reentry_levels == 0 and most_in:
        return Message("Players have re-entered: re-entry cannot be removed (close it from the dashboard instead).")
    if new.rebuy_levels == 0 and standings.rebuys:
        return Message("Players have rebought: rebuys cannot be removed (close them from the dashboard instead).")
    bounty_rules = ("bounty_kind", "bounty", "pko_share", "mystery_level", "mystery_pool", "mystery_seed")
    if any(getattr(new, k) != getattr(old, k) for k in bounty_rules) and standings.history:
        return Message(
            "A player has been knocked out: the bounties cannot change now (they are editable until the first knockout)."
        )
    if new.table_size != old.table_size:
        for table, seat, _ in state.seating.placements:
            if seat > new.table_size:
                return Message("Table {table} seat {seat} is taken: tables cannot have {size} seats "
                               "while players sit there.", table=table, seat=seat, size=new.table_size)
    return None


def _settings_changed(state: Tournament, event: Event) -> Tournament:
    """The director edits the settings: each change checked against what already happened."""
    change = dict(event.payload)
    correct = _ticked(change.pop("correct_payments", False))
    unknown = sorted(set(change) - set(EDITABLE_SETTINGS))
    if unknown:
        raise InvalidInput("{unknown} cannot be changed here: change {settings}.", unknown=", ".join(unknown),
                           settings=", ".join(EDITABLE_SETTINGS))
    if not change:
        raise InvalidInput("Nothing to change: give at least one setting.")
    if state.finished:
        raise IllegalAction("The tournament is over: its settings can no longer change.")
    merged = {**settings_as_dict(state.settings), **change}
    if "starting_stack" in change:  # the structure's starting stack goes with it
        merged["structure"] = {**merged["structure"], "starting_stack": change["starting_stack"]}
        old = state.settings
        for key, chips in (("rebuy_chips", old.rebuy_chips), ("addon_chips", old.addon_chips)):
            if key not in change and chips == old.starting_stack:  # they were "a starting stack"
                merged[key] = change["starting_stack"]
    new = settings_from_dict(merged)
    if "percentages" not in change and new.payout_kind == "custom" and state.settings.payout_kind == "custom":
        new = replace(new, percentages=state.settings.percentages)
    elif "percentages" not in change and new.payout_kind == "custom":
        raise InvalidInput("Custom payouts need their percentages, e.g. 50/30/20.")
    refusal = settings_refusal(state, new)
    if refusal:
        raise IllegalAction(refusal.message, **refusal.values)
    standings = replace(state.standings, rules=rules(new), starting_stack=new.starting_stack)
    seating = state.seating if new.table_size == state.settings.table_size else replace(
        state.seating, table_size=new.table_size
    )
    ledger = state.ledger.reprice(new) if correct else state.ledger
    return replace(state, settings=new, standings=standings, seating=seating, ledger=ledger)


def _structure_changed(state: Tournament, event: Event) -> Tournament:
    """The director edits the structure: what was played stays as it was."""
    if state.finished:
        raise IllegalAction("The tournament is over: its structure can no longer change.")
    change = event.payload
    old = state.settings.structure
    structure, words = edit_structure(old, change)
    restart = _ticked(change.get("restart"))
    state = replace(state, structure_edits=(*state.structure_edits, (event.seq, words)))
    if state.started:
        refusal = _edit_refusal(state, change, event.at)
        if refusal:
            raise IllegalAction(refusal.message, **refusal.values)
        if structure.hand_counted != old.hand_counted:
            raise IllegalAction("In play, a structure timed by the clock cannot become counted in hands, or back.")
    entry = ClockEntry(action="structure", at=event.at)
    if not state.started:
        return replace(state, settings=replace(state.settings, structure=structure))
    return _with_clock(state, entry, Restructure(event.at, structure, restart), structure=structure)


def _edit_refusal(state: Tournament, change: Mapping[str, Any], at: float) -> Message | None:
    """Why this edit cannot be made with the clock where it is (None when it can)."""
    clock = state.clock_at(at)
    structure = state.settings.structure
    current = clock.item_index
    index = change.get("item")
    assert isinstance(index, int)  # edit_structure checked it
    kind = change.get("edit")
    if current >= len(structure.items):
        if kind in ("add_level", "add_break") and index == len(structure.items):
            return None
        return Message("The clock is past the listed levels: add levels at the end.")
    if kind in ("add_level", "add_break"):
        if index <= current:
            if clock.on_break:
                return Message("That is before the break, which is being played: add it after.")
            return Message("That is before level {level}, which is being played: add it after.",
                           level=clock.level_number)
        return None
    if index < current:
        if not isinstance(structure.items[index], Level):
            return Message("That break is over: only what is still to come can change.")
        return Message("Level {level} is over: only what is still to come can change.",
                       level=sum(1 for i in structure.items[: index + 1] if isinstance(i, Level)))
    if index == current and kind == "remove":
        if clock.on_break:
            return Message("The break is being played: it cannot be removed; go to the next level first.")
        return Message("Level {level} is being played: it cannot be removed; go to the next level first.",
                       level=clock.level_number)
    return None


def _bust(state: Tournament, event: Event) -> Tournament:
    raw = event.payload.get("players")
    if isinstance(raw, (int, str)):
        raw = [raw]
    if not isinstance(raw, Sequence) or not raw:
        raise InvalidInput("Choose the player who is out.")
    ids = [_player_id({"player": r}) for r in raw]
    if len(set(ids)) != len(ids):
        raise InvalidInput("The same player is listed twice in one bust.")
    players = [state.player(i) for i in ids]
    for p in players:
        if p.out:
            raise IllegalAction("{name} is already out.", name=p.name)
    if not state.started:
        raise IllegalAction("Start the clock first: nobody can be knocked out before the first hand.")
    stacks_raw = event.payload.get("stacks") or {}
    if not isinstance(stacks_raw, Mapping):
        raise InvalidInput("The starting stacks must be given for each player.")
    stacks: dict[PlayerId, Chips] = {}
    for p in players:
        value = stacks_raw.get(str(p.id), stacks_raw.get(p.id))
        if value is None or value == "":
            if len(players) > 1:
                raise InvalidInput(
                    "Several players are out in one hand: give {name}'s chips at the start of the hand "
                    "to rank them.", name=p.name,
                )
            value = 0
        stacks[p.id] = _int({"v": value}, "v", Message("starting stack of {name}", name=p.name), 0)
    takers = _eliminators(state, event.payload.get("by"), ids)
    by = dict.fromkeys(ids, takers) if takers else {}
    strict = state.settings.rules >= 2
    for p in players if strict else ():
        hand = state.dealing.hand_of(p.id)
        if hand is not None:
            raise IllegalAction(
                "{name} is playing hand {hand} at table {table}: finish the hand on the "
                "dealer's phone (a player who loses their last chip there is out without a bust here).",
                name=p.name, hand=hand.number, table=hand.table,
            )
    for winner_id in takers if strict else ():
        winner = state.player(winner_id)
        hand = state.dealing.hand_of(winner_id)
        if hand is not None:
            raise IllegalAction(
                "{name} is playing hand {hand} at table {table}: record the bust "
                "when that hand is over, so the chips join the stack that is not in play.",
                name=winner.name, hand=hand.number, table=hand.table,
            )
        elsewhere = [p for p in players if p.table is not None and winner.table not in (None, p.table)]
        if elsewhere:
            p = elsewhere[0]
            raise IllegalAction(
                "{winner} sits at table {winner_table}, {victim} at table {victim_table}: "
                "a player is knocked out by someone at the same table.",
                winner=winner.name, winner_table=winner.table, victim=p.name, victim_table=p.table,
            )
    if not takers and strict:
        for p in players:
            if p.table in state.dealing.latest and dealing.stack_of(state, p.id) > 0:
                raise IllegalAction(
                    "Say who knocked {name} out: the dealer's assistant keeps the stacks at table "
                    "{table}, and {name}'s {chips} chips go to that player.",
                    name=p.name, table=p.table, chips=dealing.stack_of(state, p.id),
                )
    if state.hand_for_hand and strict:  # busts of one hand-for-hand hand share (TDA 3.4)
        tables = {p.id: p.table for p in players}
        standings = _at_level(state, event).bust(
            stacks, by=by, hand=dealing.h4h_hand(state, players[0].table), hand_for_hand=True, tables=tables,
            at=event.at,
        )
    else:
        standings = _at_level(state, event).bust(stacks, by=by, at=event.at)
    if strict:
        lost = dealing.write_off(state, ids, event.seq, takers)  # the chips go to the winner(s)
    else:
        lost = dealing.write_off_v1(state, ids, event.seq)
    seating = state.seating
    for pid in ids:
        if pid in seating:
            seating = seating.without(pid)
    return replace(
        state, standings=standings, seating=seating, dealing=lost, previous_seats=dealing.remember_seats(state, ids)
    )


def _rebuy(state: Tournament, event: Event) -> Tournament:
    pid = _player_id(event.payload)
    player = state.player(pid)
    stack_raw = event.payload.get("stack")
    stack = None if stack_raw in (None, "") else _int(event.payload, "stack", Message("chip count of {name}", name=player.name), 0)
    standings = _at_level(state, event).rebuy(pid, stack)
    seating = state.seating
    if pid not in seating:  # back in: the old seat if it is still free
        old = next(((t, s) for p, t, s in state.previous_seats if p == pid), None)
        if old is not None and old[0] in seating.tables and seating.player_at(*old) is None:
            seating = seating.with_player(pid, *old)
    return replace(state, standings=standings, seating=seating, ledger=_paid(state, pid, "rebuy", event))


def _reentry(state: Tournament, event: Event) -> Tournament:
    """A new entry for a player who is out; the seat comes with the ``player_seated`` after it."""
    pid = _player_id(event.payload)
    state.player(pid)
    standings = _at_level(state, event).reenter(pid)
    return replace(state, standings=standings, ledger=_paid(state, pid, "reentry", event))


def _addon(state: Tournament, event: Event) -> Tournament:
    pid = _player_id(event.payload)
    player = state.player(pid)
    stack_raw = event.payload.get("stack")
    stack = None if stack_raw in (None, "") else _int(event.payload, "stack", Message("chip count of {name}", name=player.name), 0)
    standings = _at_level(state, event).addon(pid, stack)
    return replace(state, standings=standings, ledger=_paid(state, pid, "addon", event))


def lock_refusal(state: Tournament) -> Message | None:
    """Why the payouts cannot be locked now (None when they can): the money must be reached."""
    if state.settings.payout_kind == "points":
        return Message("A league-points night has no prizes to lock.")
    if state.payouts_locked is not None:
        return Message("The payouts are already locked.")
    if not state.started:
        return Message("The tournament has not started: the payouts lock when the money is reached.")
    if state.finished:
        return Message("The tournament is over: its prizes are settled.")
    prizes = [p for p in state.prizes if p]
    if not prizes:
        return Message("There are no prizes to lock yet.")
    if state.players_left > len(prizes):
        return Message("The money is not reached: {left} players are left and {paid} are paid. The payouts "
                       "can be locked when {paid} are left.", left=state.players_left, paid=len(prizes))
    return None


def _lock_payouts(state: Tournament, event: Event) -> Tournament:
    """The director locks the payouts at the money (as ``Settings.lock_payouts`` does by itself)."""
    refusal = lock_refusal(state)
    if refusal:
        raise IllegalAction(refusal.message, **refusal.values)
    return replace(state, payouts_locked=(event.seq, tuple(state.prizes), state.prize_pool))


def _close_rebuys(state: Tournament, event: Event) -> Tournament:
    if state.settings.rebuy_levels == 0 and state.settings.reentry_levels == 0:
        raise IllegalAction("This tournament has no rebuys or re-entries to close.")
    if state.standings.rebuys_closed:
        raise IllegalAction("Rebuys are already closed.")
    return replace(state, standings=state.standings.close_rebuys())


def _hand_cap(state: Tournament, event: Event) -> Tournament:
    raw = event.payload.get("stacks")
    if not isinstance(raw, Mapping):
        raise InvalidInput("Give the chips of every player still in.")
    stacks = {
        _player_id({"player": k}): _int({"v": v}, "v", Message("chips of {name}", name=state.name_of(_player_id({"player": k}))), 0)
        for k, v in raw.items()
    }
    return replace(state, standings=state.standings.end_at_hand_cap(stacks))


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


# --- the TV: "put on the clock" and hand for hand ---------------------------------------
# ``action_clock`` ``{"action": "start", "who": "Seat 4", "seconds": 60}`` or ``{"action": "stop"}``
# (seed 002: "the table can put them on the clock – a minute, say"); ``hand_for_hand``
# ``{"on": true | false}`` (TDA RP-8).


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


def _action_clock(state: Tournament, event: Event) -> Tournament:
    action = event.payload.get("action")
    if action == "stop":
        if state.action_clock is None:
            raise IllegalAction("Nobody is on the clock.")
        return replace(state, action_clock=None)
    if action != "start":
        raise InvalidInput("Unknown action clock action {action}: use 'start' or 'stop'.", action=repr(action))
    who = clean_name(event.payload.get("who"), N_("seat or player"))
    seconds = _int(event.payload, "seconds", N_("number of seconds"), 60, minimum=5)
    if seconds > 600:
        raise InvalidInput("Put a player on the clock for 5 seconds to 10 minutes, not {seconds} seconds.", seconds=seconds)
    if state.finished:
        raise IllegalAction("The tournament is over: nobody can be put on the clock.")
    countdown = _int(event.payload, "countdown", N_("final countdown"), 0)
    if countdown > 60:
        raise InvalidInput("The final countdown is 0 to 60 seconds, not {countdown}.", countdown=countdown)
    table = event.payload.get("table")
    seat = event.payload.get("seat")
    if table is not None or seat is not None:
        table, seat = _int(event.payload, "table", N_("table"), 1, 1), _int(event.payload, "seat", N_("seat"), 1, 1)
        running = state.dealing.running(table)
        if running is None or running.replay().turn != seat:
            raise IllegalAction("Seat {seat} at table {table} is not to act: only the seat to act goes on the clock.",
                                seat=seat, table=table)
    return replace(state, action_clock=ActionClock(who, event.at, seconds, countdown, table, seat))


def _hand_for_hand(state: Tournament, event: Event) -> Tournament:
    on = event.payload.get("on")
    if not isinstance(on, bool):
        raise InvalidInput("Say whether hand for hand is on: true or false.")
    if on == state.hand_for_hand:
        if on:
            raise IllegalAction("Hand for hand is already on.")
        raise IllegalAction("Hand for hand is already off.")
    new = replace(state, hand_for_hand=on, h4h_since=event.seq if on else None, h4h_hand=0)
    if on and state.settings.rules >= 2:
        # TDA RP-8A: "finish the current hand ... we are going hand for hand": the hands in
        # play count as the first hand-for-hand hand (0), so their busts share.
        running = [h for t in state.dealing.latest if (h := state.dealing.running(t)) is not None]
        dealt = state.dealing
        for hand in running:
            dealt = dealt.with_running(replace(hand, h4h_round=0))
        new = replace(new, dealing=dealt)
    return new


def _h4h_next_hand(state: Tournament, event: Event) -> Tournament:
    """The director starts the next hand-for-hand hand at the tables without the assistant."""
    if not state.hand_for_hand:
        raise IllegalAction("Hand for hand is off: there is no hand-for-hand hand to count.")
    return replace(state, h4h_hand=state.h4h_hand + 1)


_HANDLERS: dict[str, Callable[[Tournament, Event], Tournament]] = {
    "player_registered": _register,
    "player_unregistered": _unregister,
    "seats_drawn": _seats_drawn_at_size,
    "player_seated": _seat_one,
    "player_moved": _seat_one,
    "players_moved": _players_moved,
    "seat_locked": _seat_locked,
    "seat_unlocked": _seat_unlocked,
    "clock": _clock,
    "bust": _bust,
    "rebuy": _rebuy,
    "reentry": _reentry,
    "addon": _addon,
    "rebuys_closed": _close_rebuys,
    "payouts_lock": _lock_payouts,
    "hand_cap": _hand_cap,
    "action_clock": _action_clock,
    "hand_for_hand": _hand_for_hand,
    "h4h_next_hand": _h4h_next_hand,
    "structure_changed": _structure_changed,
    "settings_changed": _settings_changed,
    **dealing.HANDLERS,  # hands at the tables: hand_started, hand_action, ... (engine.dealing)
    **colour.HANDLERS,  # the colour-up at a break, table by table (engine.colour)
    **deals.HANDLERS,  # the final table's deal (engine.deals)
    **rulings.HANDLERS,  # the table's accidents: misdeals, the button, the clock (engine.rulings)
}

EVENT_TYPES = ("created", "undo", "redo", *_HANDLERS)


_CLOCK_WORDS: dict[str, str] = {
    "start": Message("The clock started"),
    "pause": Message("The clock was paused"),
    "resume": Message("The clock resumed"),
    "next_level": Message("The clock went on to the next level"),
    "previous_level": Message("The clock went back a level"),
    "break_now": Message("The break started early, ending the level"),
    "hand_played": Message("A hand was counted as played"),
}


def _listed(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else Message("{items} and {last}", items=list(words[:-1]), last=words[-1])


def _duration(seconds: int) -> Message:
    """``1 minute``, ``5 minutes``, ``90 seconds``."""
    if seconds % 60 == 0:
        minutes = seconds // 60
        return Message("1 minute") if minutes == 1 else Message("{count} minutes", count=minutes)
    return Message("1 second") if seconds == 1 else Message("{count} seconds", count=seconds)


def _setting_words(value: object) -> str:
    if isinstance(value, bool):
        return Term("on") if value else Term("off")
    if value in (None, ""):
        return Term("nothing")
    return str(value)


def describe(state: Tournament, event: Event) -> str:
    """A sentence for the event log with the players' names, e.g. 'Bob is out, knocked out by
    Ann'. ``state`` is the tournament after the event or any later one (a player removed
    since is named by the name the event kept)."""
    p = event.payload

    def name_in(payload: Mapping[str, Any], key: str = "player") -> str:
        try:
            return state.name_of(_player_id(payload, key))
        except EngineError:
            return "?"

    def name(key: str = "player") -> str:
        return name_in(p, key)

    def where(place: object) -> Message:
        if isinstance(place, Sequence) and not isinstance(place, str) and len(place) == 2:
            return Message("table {table} seat {seat}", table=place[0], seat=place[1])
        return Message("another seat")

    if event.type == "player_registered":
        return Message("{name} registered", name=str(p.get("name")))
    if event.type == "player_unregistered":
        known = name()
        removed = known if known != "?" else (str(p.get("name")) if p.get("name") else Term("A player"))
        return Message("{name} was removed from the tournament", name=removed)
    if event.type == "bust":
        ids = p.get("players") or []
        ids = [ids] if isinstance(ids, (int, str)) else ids
        names = _listed([name_in({"player": i}) for i in ids] or ["?"])
        named = p.get("by")
        named = named if isinstance(named, list) else [] if named in (None, "") else [named]
        if named:
            by = _listed([name_in({"player": i}) for i in named])
            if len(ids) <= 1:
                return Message("{names} is out, knocked out by {by}", names=names, by=by)
            return Message("{names} are out, knocked out by {by}", names=names, by=by)
        if len(ids) <= 1:
            return Message("{names} is out", names=names)
        return Message("{names} are out", names=names)
    if event.type == "rebuy":
        return Message("{name} rebought", name=name())
    if event.type == "addon":
        return Message("{name} took the add-on", name=name())
    if event.type == "reentry":
        return Message("{name} re-entered", name=name())
    if event.type == "clock":
        action = str(p.get("action", ""))
        if action == "add_time":
            seconds = int(str(p.get("seconds", 60)))
            if seconds > 0:
                return Message("{duration} added to the clock", duration=_duration(abs(seconds)))
            return Message("{duration} taken off the clock", duration=_duration(abs(seconds)))
        return _CLOCK_WORDS.get(action) or Message("The clock: {action}", action=action.replace("_", " "))
    if event.type == "seats_drawn":
        return Message("The seats were drawn")
    if event.type == "player_seated":
        return Message("{name} was seated at table {table} seat {seat}", name=name(), table=str(p.get("table")),
                       seat=str(p.get("seat")))
    if event.type == "player_moved":
        return Message("{name} moved to table {table} seat {seat}", name=name(), table=str(p.get("table")),
                       seat=str(p.get("seat")))
    if event.type == "players_moved":
        moves = [m for m in p.get("moves") or [] if isinstance(m, Mapping)]
        if len(moves) == 1:
            return Message("{name} moved to {where}", name=name_in(moves[0]), where=where(moves[0].get("to")))
        return Message("{count} players moved: {moves}", count=len(moves),
                       moves=[Message("{name} to {where}", name=name_in(m), where=where(m.get("to"))) for m in moves])
    if event.type == "seat_locked":
        return Message("{name}'s seat was locked to table {table} seat {seat}", name=name(), table=str(p.get("table")),
                       seat=str(p.get("seat")))
    if event.type == "seat_unlocked":
        return Message("{name}'s seat was unlocked", name=name())
    if event.type == "rebuys_closed":
        return Message("Rebuys closed")
    if event.type == "payouts_lock":
        return Message("The payouts were locked at the money")
    if event.type == "hand_cap":
        return Message("The tournament ended at the hand cap")
    if event.type == "action_clock":
        if p.get("action") == "start":
            return Message("{who} is on the clock for {duration}", who=str(p.get("who")),
                           duration=_duration(int(str(p.get("seconds") or 60))))
        return Message("The action clock stopped")
    if event.type == "hand_for_hand":
        return Message("Hand for hand began") if p.get("on") else Message("Hand for hand ended")
    if event.type == "h4h_next_hand":
        return Message("The next hand-for-hand hand began")
    if event.type == "settings_changed":
        changes = [Message("{setting} set to {value}", setting=k.replace("_", " "), value=_setting_words(v))
                   for k, v in p.items() if k != "correct_payments"]
        if _ticked(p.get("correct_payments")):
            return Message("Settings changed: {changes}; the payments already made were priced again",
                           changes=changes)
        return Message("Settings changed: {changes}", changes=changes)
    if event.type == "structure_changed":
        words = dict(state.structure_edits).get(event.seq)
        return Message("Structure changed: {words}", words=words) if words else Message("The structure changed")
    if event.type == "undo":
        return Message("The last entry was undone")
    if event.type == "redo":
        return Message("The entry undone was entered again")
    if event.type in colour.HANDLERS:
        return colour.describe(state, event)
    if event.type in deals.HANDLERS:
        return deals.describe(state, event)
    if event.type in rulings.HANDLERS:
        return rulings.describe(state, event)
    if event.type in dealing.HANDLERS:
        return dealing.describe(state, event)
    return event.type


def _indexes(before: Tournament, new: Tournament, event: Event) -> Tournament:
    """After each event: the clock stops at the last bust, and the indexes the pages read are
    kept (the director's log, the players' page tokens)."""
    if new.finished and not before.finished and new.started:
        new = replace(
            new,
            clock=(*new.clock, ClockEntry("finish", event.at)),
            clock_events=(*new.clock_events, Finish(event.at)),
        )
    gone = len(before.standings.history)
    if len(new.standings.history) > gone:  # the bounties of the busts this event made
        busts = [(b.player, b.takers) for b in new.standings.history[gone:]]
        new = replace(new, ledger=new.ledger.knock_out(
            new.settings, busts, level=new.standings.level, at=event.at, seq=event.seq,
        ))
    if new.settings.lock_payouts and new.payouts_locked is None and lock_refusal(new) is None:
        new = replace(new, payouts_locked=(event.seq, tuple(new.prizes), new.prize_pool))
    if event.type in dealing.TABLE_EVENT_TYPES:
        return new
    tokens = _tokens_of(before, event)
    if tokens:
        merged = dict(new.tokens)
        for pid, token in tokens.items():
            merged.setdefault(pid, token)
        new = replace(new, tokens=merged)
    return replace(new, director_log=new.director_log.append(event))


def _tokens_of(before: Tournament, event: Event) -> dict[PlayerId, str]:
    payload = event.payload
    found: dict[PlayerId, str] = {}
    if event.type == "player_registered":
        if isinstance(payload.get("token"), str):
            found[before.next_player_id] = payload["token"]
        return found
    if isinstance(payload.get("tokens"), Mapping):
        for key, token in payload["tokens"].items():
            if isinstance(token, str) and str(key).isdigit():
                found[int(key)] = token
    if isinstance(payload.get("token"), str) and str(payload.get("player", "")).isdigit():
        found[int(payload["player"])] = payload["token"]
    return found


def apply(state: Tournament, event: Event) -> Tournament:
    """The state after ``event``; raises ``EngineError`` if it cannot happen."""
    return apply_event(state, event, _HANDLERS, "event", _indexes)


def create(event: Event) -> Tournament:
    """The state after the ``created`` event."""
    if event.type != "created":
        raise InvalidInput("A tournament starts with its 'created' event.")
    settings = settings_from_dict(event.payload)
    return Tournament(
        seq=event.seq,
        settings=settings,
        created_at=event.at,
        standings=Standings.start(
            {}, settings.starting_stack, rules(settings), table_order=settings.rules >= 2
        ),
        seating=Seating(settings.table_size, ()),
    )


def fold(events: Iterable[Event]) -> Tournament:
    """The state after all ``events``; the first must be ``created``."""
    return fold_events(events, create, apply, "A tournament starts with its 'created' event.")


__all__ = [
    "EVENT_TYPES",
    "ActionClock",
    "ClockEntry",
    "Event",
    "Player",
    "Settings",
    "Tournament",
    "apply",
    "apply_event",
    "clean_name",
    "create",
    "current_level",
    "dealer_tables",
    "describe",
    "fold",
    "fold_events",
    "hand_played_refusal",
    "refuse_past_hand_cap",
    "rules",
    "settings_from_dict",
]
