"""What a hand is played from and what it gives: the setup (seats, stacks, button, blinds and
antes), the streets, the actions as they happened, and what the seat to act may do.

:class:`engine.hand.Hand` plays a hand from a :class:`HandSetup`.

>>> Action(3, "raise", 60, 60, "preflop").notation
'p3 cbr 60'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from engine import notation
from engine.cards import Card
from engine.errors import N_, InvalidInput
from engine.pots import Award

Seat: TypeAlias = int
Chips: TypeAlias = int

STREETS = ("preflop", "flop", "turn", "river", "showdown", "complete")
PREFLOP, FLOP, TURN, RIVER, SHOWDOWN, COMPLETE = range(6)
BOARD_SIZE = (0, 3, 4, 5, 5, 5)
"""How many board cards may be out on each street."""

STREET_WORDS = (N_("preflop"), N_("flop"), N_("turn"), N_("river"))
"""The betting streets as a message names them (``Term(hand.street)``)."""

FOLD_POLICIES = ("allow", "warn", "refuse")

NO_LIMIT, POT_LIMIT, FIXED_LIMIT = "no-limit", "pot-limit", "fixed-limit"
BETTINGS = (NO_LIMIT, POT_LIMIT, FIXED_LIMIT)
"""The betting structures: any amount up to all in, up to the pot, or fixed bets."""

HOLDEM, OMAHA, OMAHA5, OMAHA_HILO = "holdem", "omaha", "omaha5", "omaha8"
HOLE_CARDS = {HOLDEM: 2, OMAHA: 4, OMAHA5: 5, OMAHA_HILO: 4}
"""The games a hand deals, with their hole cards: Hold'em (the best five of the seven cards),
Omaha and five-card Omaha (exactly two of the hole cards and three of the board), and Omaha
hi-lo eight or better (each pot halved between the best high and the best low)."""
SPLIT_GAMES = frozenset({OMAHA_HILO})
"""The games whose pots are split high and low."""

MAX_RAISE_CAP = 10
"""The most bets and raises a house may allow on a street of a fixed-limit game."""
FOLD_WARNING = "folded when checking was free"

ActionRecord: TypeAlias = tuple[Seat, str, Chips, Chips, str, bool, "str | None"]
"""An :class:`Action`'s fields, kept as a plain tuple until someone asks for it."""


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Everything needed to start a hand.

    ``stacks`` maps table seats (clockwise increasing, wrapping) to chips. ``button`` may
    be an empty seat. ``small_blind_seat`` is None for a dead small blind. ``antes`` are
    per-seat antes, posted first; ``big_blind_ante`` is posted by the big blind after the
    blind, from what is left (TDA RP-11). Antes are dead money in the main pot: they never
    count towards a call, and a player all-in on the ante can win the antes only. ``free_fold`` says what to do with a
    fold when checking is free: ``allow``, ``warn`` (allowed, the action carries a
    warning) or ``refuse``.

    ``straddles`` are live blinds posted after the big blind by the next seats, in
    clockwise order (seat to amount): preflop action starts left of the last straddle,
    each straddler has the option, the bet to call is the largest of them and the minimum
    raise is still by a big blind (as pokerkit plays them). ``ante_trimming`` reads
    antes the way PHH's ``ante_trimming_status`` does: an ante larger than every other
    is trimmed back to the second largest, and antes count in each player's share when
    the pots are layered (a player short on the ante wins from each opponent only what
    they anted) instead of being dead money in the main pot. ``min_bet`` is the smallest
    bet and raise (0: the big blind), PHH's ``min_bet``.

    ``betting`` is ``no-limit``, ``pot-limit`` (the most a player may bet or raise to is the
    pot after their call; before the flop the pot counts as if both blinds were posted in
    full, TDA 54) or ``fixed-limit``: every bet and raise is one ``small_bet`` (0: the big
    blind) before the flop and on the flop, one ``big_bet`` (0: two small bets) on the
    turn and river; ``raise_cap`` bets and raises a street (4: a bet and three raises; the
    big blind is the first bet before the flop), lifted when two players are left in the
    hand unless ``cap_heads_up`` (TDA 48 keeps it in a tournament until the last two). In
    fixed limit an all-in of at least half a bet reopens the betting (TDA 47-B).

    ``game`` is one of :data:`HOLE_CARDS`: how many hole cards each player is dealt and how
    the showdown reads them.
    """

    stacks: Mapping[Seat, Chips]
    button: Seat
    small_blind_seat: Seat | None
    big_blind_seat: Seat
    small_blind: Chips
    big_blind: Chips
    antes: Mapping[Seat, Chips] = field(default_factory=dict)
    big_blind_ante: Chips = 0
    free_fold: str = "warn"
    straddles: Mapping[Seat, Chips] = field(default_factory=dict)
    ante_trimming: bool = False
    min_bet: Chips = 0
    betting: str = NO_LIMIT
    small_bet: Chips = 0
    big_bet: Chips = 0
    raise_cap: int = 4
    cap_heads_up: bool = False
    game: str = HOLDEM

    @property
    def bet_sizes(self) -> tuple[Chips, Chips]:
        """Fixed limit: the bet before the flop and on the flop, and on the turn and river."""
        small = self.small_bet or self.big_blind
        return small, self.big_bet or 2 * small

    def __post_init__(self) -> None:
        object.__setattr__(self, "stacks", dict(self.stacks))
        object.__setattr__(self, "antes", dict(self.antes))
        object.__setattr__(self, "straddles", dict(self.straddles))
        if not 2 <= len(self.stacks) <= 10:
            raise InvalidInput("A hand needs 2 to 10 players, not {count}.", count=len(self.stacks))
        if min(self.stacks.values()) <= 0:
            seat, chips = min(self.stacks.items(), key=lambda item: item[1])
            raise InvalidInput(
                "Seat {seat} has {chips} chips and cannot be dealt in.",
                seat=seat, chips=chips
            )
        if self.big_blind_seat not in self.stacks:
            raise InvalidInput(
                "The big blind seat {big_blind_seat} has no player.",
                big_blind_seat=self.big_blind_seat
            )
        if self.small_blind_seat is not None and self.small_blind_seat not in self.stacks:
            raise InvalidInput(
                "The small blind seat {small_blind_seat} has no player.",
                small_blind_seat=self.small_blind_seat
            )
        if self.small_blind_seat == self.big_blind_seat:
            raise InvalidInput(
                "Seat {big_blind_seat} cannot post both blinds.",
                big_blind_seat=self.big_blind_seat
            )
        if len(self.stacks) == 2 and self.small_blind_seat != self.button:
            if self.small_blind_seat is None:
                raise InvalidInput(
                    "Heads-up the button posts the small blind: seat {button} is the button, "
                    "and there is no dead small blind.",
                    button=self.button,
                )
            raise InvalidInput(
                "Heads-up the button posts the small blind: seat {button} is the button, "
                "not seat {small_blind_seat}.",
                button=self.button, small_blind_seat=self.small_blind_seat,
            )
        if self.big_blind <= 0 or self.small_blind < 0 or self.big_blind_ante < 0 or self.min_bet < 0:
            raise InvalidInput(
                "The blinds {small_blind}/{big_blind} and antes must be positive.",
                small_blind=self.small_blind, big_blind=self.big_blind
            )
        for seat, chips in self.antes.items():
            if seat not in self.stacks or chips < 0:
                raise InvalidInput(
                    "An ante of {chips} for seat {seat} cannot be posted.",
                    chips=chips, seat=seat
                )
        for seat, chips in self.straddles.items():
            if seat not in self.stacks or chips <= 0 or seat in (
                self.small_blind_seat, self.big_blind_seat
            ):
                raise InvalidInput(
                    "A straddle of {chips} for seat {seat} cannot be posted.",
                    chips=chips, seat=seat
                )
        if self.straddles and len(self.stacks) == 2:
            raise InvalidInput("Heads-up there is no straddle.")
        if self.game not in HOLE_CARDS:
            raise InvalidInput(
                "The game must be one of {choices}, not {game}.", choices=", ".join(HOLE_CARDS), game=self.game
            )
        if self.betting not in BETTINGS:
            raise InvalidInput(
                "The betting must be one of {choices}, not {betting}.", choices=", ".join(BETTINGS), betting=self.betting
            )
        if self.small_bet < 0 or self.big_bet < 0:
            raise InvalidInput(
                "The limit's bets {small_bet}/{big_bet} must be positive.", small_bet=self.small_bet, big_bet=self.big_bet
            )
        if not 2 <= self.raise_cap <= MAX_RAISE_CAP:
            raise InvalidInput(
                "The cap must be from 2 to {most} bets and raises a street, not {cap}.",
                most=MAX_RAISE_CAP, cap=self.raise_cap,
            )
        if self.free_fold not in FOLD_POLICIES:
            raise InvalidInput("The fold setting must be one of {choices}.", choices=", ".join(FOLD_POLICIES))


@dataclass(frozen=True, slots=True)
class Action:
    """One betting action as it happened. ``to`` is the seat's bet on this street after
    it, ``amount`` the chips it put in now."""

    seat: Seat
    kind: str  # fold, check, call, bet, raise
    to: Chips
    amount: Chips
    street: str
    all_in: bool = False
    warning: str | None = None

    @property
    def notation(self) -> str:
        """``p3 cbr 645``: PHH notation with the table seat number."""
        if self.kind == "fold":
            return notation.fold(self.seat)
        if self.kind in ("check", "call"):
            return notation.check_or_call(self.seat)
        return notation.bet_or_raise(self.seat, self.to)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the seat whose turn it is may do: render only these buttons.

    ``call_amount`` is what a call puts in (0 if nothing to call; less than the bet when
    the call is all-in). ``min_bet_or_raise_to``/``max_bet_or_raise_to`` are None when no
    bet or raise is allowed; ``raise_word`` says whether it is a ``bet`` or a ``raise``.
    ``all_in_amount`` is the "to" amount of going all-in.
    """

    seat: Seat
    can_fold: bool
    can_check: bool
    call_amount: Chips
    min_bet_or_raise_to: Chips | None
    max_bet_or_raise_to: Chips | None
    can_all_in: bool
    all_in_amount: Chips
    raise_word: str
    fold_warns: bool = False
    pot_to: Chips | None = None
    """The bet or raise "to" the size of the pot after the call (within the legal range), or
    None when no bet or raise is allowed: the dealer's *Pot* button."""
    pot_raise_to: Chips | None = None
    """The bet or raise "to" the size of the pot, before any limit: the bet to match plus
    the pot after the call (the formula and an example are in
    :meth:`engine.betting_rules.BettingRules._pot_to`), however many chips the player has;
    None when no bet or raise is allowed. Pot limit's "the pot": the most a player can raise
    to (``max_bet_or_raise_to``) is less where the stack is short of it."""
    half_pot_to: Chips | None = None
    """The bet or raise "to" half the pot after the call, then within the legal range (the
    minimum raise … the most: the all-in, or the pot limit's), or None when no bet or raise
    is allowed: the dealer's *½ pot* button."""
    raises_left: int | None = None
    """Fixed limit: the bets and raises left before the cap (None: no cap applies)."""


class HandState:
    """The state of a hand in play, as :class:`engine.hand.Hand` holds it and its betting
    rules and showdown read it. Seat indexes (``i``) count clockwise from the first seat left
    of the button; lists hold one entry per seat index."""

    __slots__ = (
        "_aggressor",
        "_antes",
        "_bb",
        "_bet",
        "_blind_short",
        "_board",
        "_committed",
        "_current",
        "_dead",
        "_faced",
        "_folded",
        "_full",
        "_holes",
        "_index",
        "_live",
        "_mucked",
        "_n",
        "_option",
        "_raises",
        "_records",
        "_river_aggressor",
        "_seen",
        "_shown",
        "_stack",
        "_start",
        "_street",
        "_to_act",
        "_with_chips",
        "award",
        "log",
        "seats",
        "setup",
    )

    setup: HandSetup
    seats: tuple[Seat, ...]
    """The players' seats clockwise, starting with the first one left of the button."""
    log: list[str]
    award: Award | None
    _index: dict[Seat, int]
    _n: int
    _start: list[int]
    _stack: list[int]
    _bet: list[int]
    """Each seat's bet on this street, not yet in the pots."""
    _committed: list[int]
    """What each seat has put in the pots (antes apart)."""
    _folded: list[bool]
    _faced: list[int]
    """The bet each seat last acted facing (-1: not yet acted on this street)."""
    _option: list[bool]
    _live: int
    _dead: int
    _antes: list[int] | None
    _board: list[Card]
    _seen: set[str]
    _holes: dict[int, tuple[Card, ...]]
    _shown: dict[int, tuple[Card, ...] | None]
    _mucked: set[int]
    _aggressor: int
    _river_aggressor: int
    _street: int
    _records: list[ActionRecord]
    _bb: int
    _current: int
    _full: int
    _to_act: int
    _with_chips: int
    _raises: int
    """The bets and raises of this street that count towards a fixed limit's cap."""
    _blind_short: int
    """What the blinds lack of being posted in full (a dead or short blind): pot limit counts
    it in the pot before the flop (TDA 54)."""
