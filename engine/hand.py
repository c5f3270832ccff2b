"""One hand of No-Limit Hold'em as a validated state machine.

A :class:`Hand` is built from a :class:`HandSetup` (seats and stacks, the button, the
blinds and antes). Every change goes through verify → can → do: ``verify_raise_to``
raises :class:`IllegalAction` with a sentence a dealer can read aloud, ``can_raise_to``
answers yes or no, ``raise_to`` verifies, changes the hand and returns a frozen
:class:`Action`. Amounts are always "to": the player's total bet on this street.

>>> setup = HandSetup(stacks={1: 1000, 2: 1000, 3: 1000}, button=3,
...                   small_blind_seat=1, big_blind_seat=2, small_blind=10, big_blind=20)
>>> hand = Hand(setup)
>>> hand.turn, hand.street
(3, 'preflop')
>>> hand.raise_to(3, 30)
Traceback (most recent call last):
...
engine.errors.IllegalAction: Seat 3 cannot raise to 30: the minimum raise is to 40.
>>> hand.raise_to(3, 60).notation
'p3 cbr 60'
>>> _ = hand.fold(1); _ = hand.call(2)
>>> hand.street, hand.turn, hand.pots()
('flop', 2, (Pot(amount=130, eligible=(2, 3)),))

The action log uses PHH notation with **table seat numbers**: ``p3 f`` (fold),
``p3 cc`` (check or call), ``p3 cbr 645`` (bet or raise to 645), ``d dh p3 AsKd``
(hole cards), ``d db 7h8h9c`` (board), ``p3 sm AsKd`` (show), ``p3 sm`` (muck), and
``d win 3;5,7`` (the dealer names the winners, pot by pot, main pot first) or
``d win cards`` (award from the cards). :meth:`Hand.replay` rebuilds a hand from its
setup and that log; :meth:`Hand.undo` replays all but the last entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from engine import notation
from engine.cards import FULL_DECK, Card, check_distinct, format_cards, parse_cards
from engine.errors import N_, IllegalAction, InvalidInput, Term
from engine.evaluate import HandRank, evaluate, rank_value
from engine.pots import Award, Pot, award_pot, build_pots

Seat: TypeAlias = int
Chips: TypeAlias = int

STREETS = ("preflop", "flop", "turn", "river", "showdown", "complete")
PREFLOP, FLOP, TURN, RIVER, SHOWDOWN, COMPLETE = range(6)
BOARD_SIZE = (0, 3, 4, 5, 5, 5)
"""How many board cards may be out on each street."""

STREET_WORDS = (N_("preflop"), N_("flop"), N_("turn"), N_("river"))
"""The betting streets as a message names them (``Term(hand.street)``)."""

FOLD_POLICIES = ("allow", "warn", "refuse")
_CARD_BY_TEXT = {str(c): c for c in FULL_DECK}
FOLD_WARNING = "folded when checking was free"

_Record: TypeAlias = tuple[Seat, str, Chips, Chips, str, bool, "str | None"]
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


class Hand:
    """One hand of No-Limit Hold'em. See the module documentation."""

    __slots__ = (
        "_aggressor",
        "_antes",
        "_bb",
        "_bet",
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

    def __init__(self, setup: HandSetup) -> None:
        self.setup = setup
        button = setup.button
        self.seats: tuple[Seat, ...] = tuple(
            sorted(setup.stacks, key=lambda s: (s <= button, s))
        )
        """The players' seats clockwise, starting with the first one left of the button."""
        self._index = {s: i for i, s in enumerate(self.seats)}
        self._n = len(self.seats)
        self._start = [setup.stacks[s] for s in self.seats]
        self._reset()

    # ------------------------------------------------------------------ set up

    def _reset(self) -> None:
        setup, n = self.setup, self._n
        self._stack = list(self._start)
        self._bet = [0] * n
        self._committed = [0] * n
        self._folded = [False] * n
        self._faced = [-1] * n
        self._live = n
        self._dead = 0
        self._board: list[Card] = []
        self._seen: set[str] = set()  # the cards out, as text: "As"
        self._holes: dict[int, tuple[Card, ...]] = {}
        self._shown: dict[int, tuple[Card, ...] | None] = {}
        self._mucked: set[int] = set()
        self._aggressor = -1
        self._river_aggressor = -1
        self._street = PREFLOP
        self._records: list[_Record] = []
        self.log: list[str] = []
        self.award: Award | None = None
        index, stack = self._index, self._stack
        self._antes: list[int] | None = None
        if setup.antes:
            antes = [0] * n
            for seat, ante in setup.antes.items():
                i = index[seat]
                paid = antes[i] = min(ante, stack[i])
                stack[i] -= paid
            if setup.ante_trimming:
                *_, second, top = sorted(antes)
                if top > second:  # the one ante larger than all others is trimmed back
                    i = antes.index(top)
                    antes[i] = second
                    stack[i] += top - second
                self._antes = antes
            self._dead = sum(antes)
        if setup.small_blind_seat is not None:
            i = index[setup.small_blind_seat]
            paid = min(setup.small_blind, stack[i])
            stack[i] -= paid
            self._bet[i] = paid
        self._bb = bb = index[setup.big_blind_seat]
        paid = min(setup.big_blind, stack[bb])
        stack[bb] -= paid
        self._bet[bb] = paid
        if setup.big_blind_ante:
            paid = min(setup.big_blind_ante, stack[bb])
            stack[bb] -= paid
            self._dead += paid
        last = bb
        for seat, straddle in setup.straddles.items():
            last = i = index[seat]
            paid = min(straddle, stack[i])
            stack[i] -= paid
            self._bet[i] = paid
        # A short big blind still means the full big blind to call (TDA 4.16); the same
        # for a straddle, a live blind.
        self._current = max(setup.big_blind, *self._bet, *setup.straddles.values())
        self._full = setup.min_bet or setup.big_blind
        self._to_act = -1
        self._with_chips = n - stack.count(0)
        # A player acts even when the bet is matched only if someone could still put in
        # more than their bet (pokerkit's "effective stack"): the big blind's option.
        totals = sorted([b + c for b, c in zip(self._bet, stack, strict=True)])
        self._option = [totals[-2] > b for b in self._bet]
        self._next_from(last + 1)

    # ------------------------------------------------------------------ state

    @property
    def street(self) -> str:
        """``preflop``, ``flop``, ``turn``, ``river``, ``showdown`` or ``complete``."""
        return STREETS[self._street]

    @property
    def turn(self) -> Seat | None:
        """The seat whose turn it is to bet, or None when no betting is due."""
        return self.seats[self._to_act] if self._to_act >= 0 else None

    @property
    def is_complete(self) -> bool:
        """True once the pots have been awarded (or everyone else folded)."""
        return self._street == COMPLETE

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(self._board)

    @property
    def current_bet(self) -> Chips:
        """The bet to match on this street (the full big blind preflop)."""
        return self._current

    @property
    def min_raise_increment(self) -> Chips:
        """The last full bet or raise of this street (TDA 43-A)."""
        return self._full

    def stacks(self) -> dict[Seat, Chips]:
        """Chips behind, seat by seat."""
        return {s: self._stack[i] for i, s in enumerate(self.seats)}

    def bets(self) -> dict[Seat, Chips]:
        """Each seat's bet on this street, not yet in the pots."""
        return {s: self._bet[i] for i, s in enumerate(self.seats)}

    def contributions(self) -> dict[Seat, Chips]:
        """What each seat has put in this hand in blinds and bets (antes are dead money)."""
        return {s: self._committed[i] + self._bet[i] for i, s in enumerate(self.seats)}

    def live_seats(self) -> tuple[Seat, ...]:
        """Seats still in the hand (not folded, not mucked), clockwise from the button."""
        return tuple(
            s for i, s in enumerate(self.seats) if not self._folded[i] and i not in self._mucked
        )

    def is_all_in(self, seat: Seat) -> bool:
        i = self._seat_index(seat)
        return not self._folded[i] and self._stack[i] == 0

    def pots(self) -> tuple[Pot, ...]:
        """The pots from chips already gathered (this street's bets are in :meth:`bets`).

        Main pot first; each pot lists the live seats that can win it.
        """
        if self._street == COMPLETE:
            return ()
        committed, folded, seats, dead = self._committed, self._folded, self.seats, self._dead
        if self._antes is not None:  # trimmed antes are shares, not dead money
            committed = [c + a for c, a in zip(committed, self._antes, strict=True)]
            dead = 0
        live = [i for i in range(self._n) if not folded[i]]
        if len({committed[i] for i in live}) == 1:  # nobody live is short: one pot
            amount = sum(committed) + dead
            return (Pot(amount, tuple(sorted(seats[i] for i in live))),) if amount else ()
        contributions = {s: committed[i] for i, s in enumerate(seats)}
        return build_pots(contributions, {seats[i] for i in live}, dead)

    def hole_cards(self, seat: Seat) -> tuple[Card, ...] | None:
        """The cards entered for a seat (shown or dealt), or None."""
        i = self._seat_index(seat)
        shown = self._shown.get(i)
        return shown if shown else self._holes.get(i)

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> LegalActions | None:
        """What the seat to act may do, or None when nobody is to act."""
        i = self._to_act
        if i < 0:
            return None
        stack, bet, current = self._stack[i], self._bet[i], self._current
        can_check = bet >= current
        call = 0 if can_check else min(current - bet, stack)
        all_in_to = bet + stack
        policy = self.setup.free_fold
        can_raise = all_in_to > current and self._may_raise(i)
        low: int | None = None
        high: int | None = None
        if can_raise:
            low, high = min(current + self._full, all_in_to), all_in_to
        return LegalActions(
            seat=self.seats[i],
            can_fold=not (can_check and policy == "refuse"),
            can_check=can_check,
            call_amount=call,
            min_bet_or_raise_to=low,
            max_bet_or_raise_to=high,
            can_all_in=can_raise or all_in_to <= current,
            all_in_amount=all_in_to,
            raise_word="bet" if current == 0 else "raise",
            fold_warns=can_check and policy == "warn",
        )

    def _may_raise(self, i: int) -> bool:
        """Reopened for this seat, and somebody else could call more than the bet."""
        faced = self._faced[i]
        if faced >= 0 and self._current - faced < self._full:
            return False
        return self._with_chips > 1 and self._covered(i)

    def _covered(self, i: int) -> bool:
        """Whether another live player has more than the bet to call a raise with."""
        current, stack, bet, folded = self._current, self._stack, self._bet, self._folded
        return any(
            j != i and not folded[j] and stack[j] + bet[j] > current for j in range(self._n)
        )

    # ------------------------------------------------------------------ verify

    def _seat_index(self, seat: Seat) -> int:
        try:
            return self._index[seat]
        except KeyError:
            raise IllegalAction("Seat {seat} is not in this hand.", seat=seat) from None

    def _verify_turn(self, seat: Seat) -> int:
        i = self._index.get(seat, -1)
        if i == self._to_act and i >= 0:
            return i
        if i < 0:
            raise IllegalAction("Seat {seat} is not in this hand.", seat=seat)
        if i != self._to_act:
            if self._to_act >= 0:
                raise IllegalAction(
                    "It is seat {turn}'s turn, not seat {seat}'s.", turn=self.seats[self._to_act], seat=seat
                )
            if self._street == COMPLETE:
                raise IllegalAction("Seat {seat} cannot act: the hand is over.", seat=seat)
            raise IllegalAction("Seat {seat} cannot act: the betting is over.", seat=seat)
        return i

    def verify_fold(self, seat: Seat) -> None:
        i = self._verify_turn(seat)
        if self._bet[i] >= self._current and self.setup.free_fold == "refuse":
            raise IllegalAction("Seat {seat} cannot fold: checking is free.", seat=seat)

    def verify_check(self, seat: Seat) -> None:
        i = self._verify_turn(seat)
        owed = self._current - self._bet[i]
        if owed > 0:
            raise IllegalAction(
                "Seat {seat} cannot check: it is {amount} to call.", seat=seat, amount=min(owed, self._stack[i])
            )

    def verify_call(self, seat: Seat) -> None:
        i = self._verify_turn(seat)
        if self._bet[i] >= self._current:
            raise IllegalAction("Seat {seat} cannot call: there is no bet to call; check instead.", seat=seat)

    def verify_bet_to(self, seat: Seat, amount: Chips) -> None:
        i = self._verify_turn(seat)
        if self._current > 0:
            raise IllegalAction(
                "Seat {seat} cannot bet {amount}: there is already a bet of {current}; raise instead.",
                seat=seat, amount=amount, current=self._current,
            )
        self._verify_amount(i, amount, "bet")

    def verify_raise_to(self, seat: Seat, amount: Chips) -> None:
        i = self._verify_turn(seat)
        if self._current == 0:
            raise IllegalAction(
                "Seat {seat} cannot raise to {amount}: there is no bet; bet instead.",
                seat=seat, amount=amount,
            )
        self._verify_amount(i, amount, "raise to")

    def verify_bet_or_raise_to(self, seat: Seat, amount: Chips) -> None:
        """A bet when nobody has bet on this street, a raise otherwise (PHH ``cbr``)."""
        i = self._verify_turn(seat)
        self._verify_amount(i, amount, "bet" if self._current == 0 else "raise to")

    def verify_all_in(self, seat: Seat) -> None:
        i = self._verify_turn(seat)
        to = self._bet[i] + self._stack[i]
        if to > self._current:
            self._verify_amount(i, to, "bet" if self._current == 0 else "raise to")

    def _verify_amount(self, i: int, amount: Chips, word: str) -> None:
        seat, current, bet = self.seats[i], self._current, self._bet[i]
        all_in_to = bet + self._stack[i]
        if type(amount) is not int:
            if word == "bet":
                raise InvalidInput(
                    "Seat {seat} cannot bet {amount}: give a whole number of chips.",
                    seat=seat, amount=repr(amount),
                )
            raise InvalidInput(
                "Seat {seat} cannot raise to {amount}: give a whole number of chips.",
                seat=seat, amount=repr(amount),
            )
        shown, most = amount, all_in_to
        if amount > all_in_to:
            if word == "bet":
                raise IllegalAction(
                    "Seat {seat} cannot bet {amount}: the most they can bet is {most} (all in).",
                    seat=seat, amount=shown, most=most,
                )
            raise IllegalAction(
                "Seat {seat} cannot raise to {amount}: the most they can raise to is {most} (all in).",
                seat=seat, amount=shown, most=most,
            )
        if amount <= current:
            if current == 0:
                raise IllegalAction(
                    "Seat {seat} cannot bet {amount}: a bet must be more than 0.",
                    seat=seat, amount=shown,
                )
            raise IllegalAction(
                "Seat {seat} cannot raise to {amount}: the bet is already {current}.",
                seat=seat, amount=shown, current=current,
            )
        if self._faced[i] >= 0 and current - self._faced[i] < self._full:
            call = min(current - bet, self._stack[i])
            if word == "bet":
                raise IllegalAction(
                    "Seat {seat} cannot bet {amount}: the short all-in did not reopen the betting; "
                    "seat {seat} may only call {call} or fold.",
                    seat=seat, amount=shown, call=call,
                )
            raise IllegalAction(
                "Seat {seat} cannot raise to {amount}: the short all-in did not reopen the betting; "
                "seat {seat} may only call {call} or fold.",
                seat=seat, amount=shown, call=call,
            )
        if self._with_chips <= 1:
            if word == "bet":
                raise IllegalAction(
                    "Seat {seat} cannot bet {amount}: every other player is all-in; "
                    "seat {seat} may only call or fold.",
                    seat=seat, amount=shown,
                )
            raise IllegalAction(
                "Seat {seat} cannot raise to {amount}: every other player is all-in; "
                "seat {seat} may only call or fold.",
                seat=seat, amount=shown,
            )
        if not self._covered(i):
            if word == "bet":
                raise IllegalAction(
                    "Seat {seat} cannot bet {amount}: no other player has more than {current} "
                    "to call a raise with; seat {seat} may only call or fold.",
                    seat=seat, amount=shown, current=current,
                )
            raise IllegalAction(
                "Seat {seat} cannot raise to {amount}: no other player has more than {current} "
                "to call a raise with; seat {seat} may only call or fold.",
                seat=seat, amount=shown, current=current,
            )
        minimum = current + self._full
        if amount < minimum and amount != all_in_to:
            if current == 0:
                raise IllegalAction(
                    "Seat {seat} cannot bet {amount}: the minimum bet is {minimum}.",
                    seat=seat, amount=shown, minimum=minimum,
                )
            raise IllegalAction(
                "Seat {seat} cannot raise to {amount}: the minimum raise is to {minimum}.",
                seat=seat, amount=shown, minimum=minimum,
            )

    # ------------------------------------------------------------------ can

    def can_fold(self, seat: Seat) -> bool:
        return _ok(self.verify_fold, seat)

    def can_check(self, seat: Seat) -> bool:
        return _ok(self.verify_check, seat)

    def can_call(self, seat: Seat) -> bool:
        return _ok(self.verify_call, seat)

    def can_bet_to(self, seat: Seat, amount: Chips) -> bool:
        return _ok(self.verify_bet_to, seat, amount)

    def can_raise_to(self, seat: Seat, amount: Chips) -> bool:
        return _ok(self.verify_raise_to, seat, amount)

    def can_bet_or_raise_to(self, seat: Seat, amount: Chips) -> bool:
        return _ok(self.verify_bet_or_raise_to, seat, amount)

    def can_all_in(self, seat: Seat) -> bool:
        return _ok(self.verify_all_in, seat)

    # ------------------------------------------------------------------ do

    def fold(self, seat: Seat) -> Action:
        """Give up the hand; the chips already in stay in the pots."""
        return Action(*self._fold(seat))

    def _fold(self, seat: Seat) -> _Record:
        i = self._verify_turn(seat)
        warning = None
        if self._bet[i] >= self._current:  # checking was free
            policy = self.setup.free_fold
            if policy == "refuse":
                self.verify_fold(seat)
            elif policy == "warn":
                warning = FOLD_WARNING
        self._folded[i] = True
        self._live -= 1
        if self._stack[i]:
            self._with_chips -= 1
        self._faced[i] = self._current
        record = (seat, "fold", self._bet[i], 0, STREETS[self._street], False, warning)
        return self._done(i, record, notation.fold(seat))

    def check(self, seat: Seat) -> Action:
        self.verify_check(seat)
        return Action(*self._put(self._to_act, self._bet[self._to_act], "check"))

    def call(self, seat: Seat) -> Action:
        """Match the bet, or put in everything when that is less (all in)."""
        self.verify_call(seat)
        i = self._to_act
        return Action(*self._put(i, min(self._current, self._bet[i] + self._stack[i]), "call"))

    def check_or_call(self, seat: Seat) -> Action:
        """PHH ``cc``: check when nothing is owed, call otherwise."""
        return Action(*self._check_or_call(seat))

    def _check_or_call(self, seat: Seat) -> _Record:
        i = self._verify_turn(seat)
        if self._bet[i] >= self._current:
            return self._put(i, self._bet[i], "check")
        return self._put(i, min(self._current, self._bet[i] + self._stack[i]), "call")

    def bet_to(self, seat: Seat, amount: Chips) -> Action:
        self.verify_bet_to(seat, amount)
        return Action(*self._put(self._to_act, amount, "bet"))

    def raise_to(self, seat: Seat, amount: Chips) -> Action:
        self.verify_raise_to(seat, amount)
        return Action(*self._put(self._to_act, amount, "raise"))

    def bet_or_raise_to(self, seat: Seat, amount: Chips) -> Action:
        """PHH ``cbr``: bet (nobody has bet) or raise to ``amount``."""
        return Action(*self._bet_or_raise_to(seat, amount))

    def _bet_or_raise_to(self, seat: Seat, amount: Chips) -> _Record:
        self.verify_bet_or_raise_to(seat, amount)
        return self._put(self._to_act, amount, "bet" if self._current == 0 else "raise")

    def all_in(self, seat: Seat) -> Action:
        """Put in every chip: a call, a bet or a raise, as the amount makes it."""
        self.verify_all_in(seat)
        i = self._to_act
        to = self._bet[i] + self._stack[i]
        if to <= self._current:
            return Action(*self._put(i, to, "call"))
        return Action(*self._put(i, to, "bet" if self._current == 0 else "raise"))

    def _put(self, i: int, to: Chips, kind: str) -> _Record:
        """Move chips for a verified action and pass the turn."""
        stack, bet, seat = self._stack, self._bet, self.seats[i]
        added = to - bet[i]
        left = stack[i] = stack[i] - added
        if not left:
            self._with_chips -= 1
        bet[i] = to
        current = self._current
        if to > current:
            if to - current >= self._full:
                self._full = to - current
            self._current = current = to
            self._aggressor = i
            note = notation.bet_or_raise(seat, to)
        else:
            note = notation.check_or_call(seat)
        self._faced[i] = current
        record = (seat, kind, to, added, STREETS[self._street], not left, None)
        self._records.append(record)
        self.log.append(note)
        if self._live == 1:
            self._end_round()
        else:
            self._next_from(i + 1)
        return record

    def _done(self, i: int, record: _Record, note: str) -> _Record:
        self._records.append(record)
        self.log.append(note)
        if self._live == 1:
            self._end_round()
        else:
            self._next_from(i + 1)
        return record

    @property
    def actions(self) -> list[Action]:
        """The betting actions so far, in order (cards and the award are in :attr:`log`)."""
        return [Action(*r) for r in self._records]

    # ------------------------------------------------------------------ flow

    def _next_from(self, start: int) -> None:
        """Give the turn to the first seat from ``start`` that still has to act,
        or close the betting round."""
        n, stack, bet, folded, faced = self._n, self._stack, self._bet, self._folded, self._faced
        # Who had an option when the round began acts once, even if the others have
        # gone all-in or folded since (as pokerkit plays it).
        current, option = self._current, self._option
        j = start % n
        for _ in range(n):
            if stack[j] and not folded[j] and (bet[j] < current or (faced[j] < 0 and option[j])):
                self._to_act = j
                return
            j += 1
            if j == n:
                j = 0
        self._end_round()

    def _end_round(self) -> None:
        """Return any uncalled bet, gather the bets and move to the next street."""
        self._to_act = -1
        bet, committed, n = self._bet, self._committed, self._n
        top = second = -1
        top_i = -1
        for j in range(n):
            total = committed[j] + bet[j]
            if total > top:
                second, top, top_i = top, total, j
            elif total > second:
                second = total
        if top > second >= 0 and bet[top_i]:
            back = min(top - second, bet[top_i])
            bet[top_i] -= back
            self._stack[top_i] += back
        self._committed = [c + b for c, b in zip(committed, bet, strict=True)]
        self._bet = [0] * n
        if self._street == RIVER:
            self._river_aggressor = self._aggressor
        if self._live == 1:
            self._street = COMPLETE
            winner = self._folded.index(False)
            self._give_all(winner)
            return
        stack, folded = self._stack, self._folded
        self._with_chips = with_chips = len(
            [1 for c, out in zip(stack, folded, strict=True) if c and not out]
        )
        if self._street == RIVER or with_chips <= 1:
            self._street = SHOWDOWN
            return
        self._street += 1
        self._current = 0
        self._full = self.setup.min_bet or self.setup.big_blind
        self._aggressor = -1
        self._faced = [-1] * n
        self._option = [True] * n
        self._next_from(0)

    def _give_all(self, winner: int) -> None:
        # With one player left there is one pot, and it is theirs.
        seat = self.seats[winner]
        pot = Pot(sum(self._committed) + self._dead, (seat,))
        self.award = Award((award_pot(0, pot, [seat], self.setup.button),))
        self._stack[winner] += pot.amount
        self._dead = 0
        self._antes = None
        self._committed = [0] * self._n

    # ------------------------------------------------------------------ cards

    def verify_deal_board(self, cards: Sequence[Card], keys: Sequence[str] = ()) -> None:
        if self._street == COMPLETE and self.award is not None and self._live == 1:
            raise IllegalAction("No more board cards: the hand is over.")
        allowed = BOARD_SIZE[self._street]
        total = len(self._board) + len(cards)
        if total > allowed:
            if self._street < SHOWDOWN:
                raise IllegalAction(
                    "The board cannot have {total} cards: at most {allowed} on the {street}.",
                    total=total, allowed=allowed, street=Term(self.street),
                )
            raise IllegalAction(
                "The board cannot have {total} cards: at most {allowed} in a hand.",
                total=total, allowed=allowed,
            )
        self._verify_new_cards(cards, keys)

    def _verify_new_cards(self, cards: Sequence[Card], keys: Sequence[str] = ()) -> None:
        """Refuse a card already out. ``keys`` (each card's text) come from :func:`_cards`,
        which has refused a card given twice."""
        known = self._seen
        if keys:
            if known.isdisjoint(keys):
                return
        else:
            keys = [str(c) for c in cards]
        for k, key in enumerate(keys):
            if key in known or key in keys[:k]:
                c = cards[k]
                raise IllegalAction("The {card} ({code}) has already been dealt.", card=c.name, code=str(c))

    def deal_board(self, cards: Sequence[Card] | str) -> None:
        """Enter community cards (optional: betting never waits for them)."""
        cards, text, keys = _cards(cards)
        self.verify_deal_board(cards, keys)
        self._board.extend(cards)
        self._seen.update(keys)
        self.log.append(notation.board(text))

    def verify_deal_hole(self, seat: Seat, cards: Sequence[Card], keys: Sequence[str] = ()) -> None:
        i = self._seat_index(seat)
        if len(cards) != 2:
            raise IllegalAction("Seat {seat} must be dealt 2 hole cards, not {count}.", seat=seat, count=len(cards))
        if i in self._holes:
            raise IllegalAction("Seat {seat} already has hole cards.", seat=seat)
        if self._street == COMPLETE:
            raise IllegalAction("Seat {seat} cannot be dealt cards: the hand is over.", seat=seat)
        self._verify_new_cards(cards, keys)

    def deal_hole(self, seat: Seat, cards: Sequence[Card] | str) -> None:
        """Enter a seat's hole cards (optional)."""
        cards, text, keys = _cards(cards)
        self.verify_deal_hole(seat, cards, keys)
        self._holes[self._index[seat]] = cards
        self._seen.update(keys)
        self.log.append(f"d dh p{seat} {text}")

    # ------------------------------------------------------------------ showdown

    @property
    def all_hands_face_up(self) -> bool:
        """True at a showdown where someone is all-in: every hand is tabled at once."""
        return self._street == SHOWDOWN and any(
            not self._folded[i] and self._stack[i] == 0 for i in range(self._n)
        )

    def showdown_order(self) -> tuple[Seat, ...]:
        """Who shows first: the last to bet or raise on the river, else the first live
        seat left of the button; then clockwise. Empty before the showdown."""
        if self._street != SHOWDOWN:
            return ()
        live = [i for i in range(self._n) if not self._folded[i]]
        first = self._river_aggressor if self._river_aggressor in live else live[0]
        k = live.index(first)
        return tuple(self.seats[i] for i in live[k:] + live[:k])

    def next_to_show(self) -> Seat | None:
        """The first seat in showdown order that has neither shown nor mucked."""
        for seat in self.showdown_order():
            i = self._index[seat]
            if i not in self._shown and i not in self._mucked:
                return seat
        return None

    def best_shown(self) -> tuple[Seat, ...]:
        """Seats whose shown hands are the best shown so far (needs the five board cards)."""
        if len(self._board) != 5:
            return ()
        best, seats = -1, []
        for i, cards in self._shown.items():
            if cards and i not in self._mucked:
                v = rank_value((*cards, *self._board))
                if v > best:
                    best, seats = v, [self.seats[i]]
                elif v == best:
                    seats.append(self.seats[i])
        return tuple(seats)

    def can_win(self, cards: Sequence[Card] | str) -> bool:
        """Whether these hole cards beat or tie every hand shown so far; a player who
        cannot mucks (seed 000). True when nothing is shown or the board is incomplete."""
        cards = _cards(cards)[0]
        best = self.best_shown()
        if not best:
            return True
        shown = self._shown[self._index[best[0]]]
        assert shown is not None
        return rank_value((*cards, *self._board)) >= rank_value((*shown, *self._board))

    def verify_show(self, seat: Seat, cards: Sequence[Card] | None = None) -> None:
        i = self._seat_index(seat)
        # The player who won when everyone else folded may show (PHH, as pokerkit).
        fold_out = self._street == COMPLETE and self._live == 1
        if self._street != SHOWDOWN and not fold_out:
            raise IllegalAction("Seat {seat} cannot show: the hand is not at the showdown.", seat=seat)
        if self._folded[i]:
            raise IllegalAction("Seat {seat} cannot show: they folded.", seat=seat)
        if (i in self._shown and not fold_out) or i in self._mucked:
            raise IllegalAction("Seat {seat} has already shown or mucked.", seat=seat)
        if cards is not None:
            if len(cards) != 2:
                raise IllegalAction("Seat {seat} must show 2 cards, not {count}.", seat=seat, count=len(cards))
            dealt = self._holes.get(i) or (self._shown.get(i) if fold_out else None)
            if dealt is not None:
                if set(dealt) != set(cards):
                    raise IllegalAction(
                        "Seat {seat} was dealt {dealt}, not {cards}.",
                        seat=seat, dealt=format_cards(dealt), cards=format_cards(cards),
                    )
            else:
                self._verify_new_cards(cards)

    def show(self, seat: Seat, cards: Sequence[Card] | str | None = None) -> None:
        """Table a hand at the showdown (``cards`` None: shown but not entered)."""
        parsed, text, keys = _cards(cards) if cards else (None, "????", ())
        self.verify_show(seat, parsed)
        i = self._index[seat]
        if parsed is not None or i not in self._shown:
            self._shown[i] = parsed
        self._seen.update(keys)
        self.log.append(notation.show(seat, text))

    def verify_muck(self, seat: Seat) -> None:
        i = self._seat_index(seat)
        if self._street != SHOWDOWN:
            raise IllegalAction("Seat {seat} cannot muck: the hand is not at the showdown.", seat=seat)
        if self._folded[i] or i in self._shown or i in self._mucked:
            raise IllegalAction("Seat {seat} has no hand left to muck.", seat=seat)
        if self.all_hands_face_up:
            raise IllegalAction(
                "Seat {seat} cannot muck: a player is all-in, so every hand is turned face up.",
                seat=seat
            )
        contenders = sum(
            1 for j in range(self._n) if not self._folded[j] and j not in self._mucked
        )
        if contenders == 1:
            raise IllegalAction("Seat {seat} is the last hand left and cannot muck.", seat=seat)

    def muck(self, seat: Seat) -> None:
        """Give up at the showdown without showing: no claim on any pot."""
        self.verify_muck(seat)
        self._mucked.add(self._index[seat])
        self.log.append(notation.muck(seat))

    # ------------------------------------------------------------------ award

    def _verify_award(self) -> None:
        if self._street != SHOWDOWN:
            if self._street == COMPLETE:
                raise IllegalAction("The pots have already been awarded.")
            raise IllegalAction(
                "The pots cannot be awarded on the {street}: the betting is not over.",
                street=Term(self.street),
            )

    def award_from_cards(self) -> Award:
        """Award every pot to its best hand (board plus shown or dealt hole cards)."""
        self._verify_award()
        pots = self.pots()
        contenders_all = [
            i for i in range(self._n) if not self._folded[i] and i not in self._mucked
        ]
        ranks: dict[int, int] = {}
        if len(contenders_all) > 1:
            if len(self._board) != 5:
                raise IllegalAction(
                    "The board has {count} cards: all five are needed to award from cards.",
                    count=len(self._board),
                )
            for i in contenders_all:
                cards = self._shown.get(i) or self._holes.get(i)
                if not cards:
                    raise IllegalAction(
                        "Seat {seat}'s cards are unknown and were never shown: "
                        "the pots cannot be awarded from the cards.",
                        seat=self.seats[i],
                    )
                ranks[i] = rank_value((*cards, *self._board))
        results = []
        for k, pot in enumerate(pots):
            eligible = [self._index[s] for s in pot.eligible]
            contenders = [i for i in eligible if i not in self._mucked] or eligible
            name = None
            if len(contenders) > 1 and all(i in ranks for i in contenders):
                best = max(ranks[i] for i in contenders)
                contenders = [i for i in contenders if ranks[i] == best]
                name = self._hand_rank(contenders[0]).name
            results.append(
                award_pot(k, pot, [self.seats[i] for i in contenders], self.setup.button, name)
            )
        return self._finish(Award(tuple(results)), notation.award(None))

    def _hand_rank(self, i: int) -> HandRank:
        cards = self._shown.get(i) or self._holes.get(i) or ()
        return evaluate((*cards, *self._board))

    def award_to(self, winners: Sequence[Sequence[Seat]]) -> Award:
        """Award the pots to the winners the dealer names, pot by pot, main pot first."""
        self._verify_award()
        pots = self.pots()
        if len(winners) != len(pots):
            if len(pots) == 1:
                raise IllegalAction("There is 1 pot to award, not {count}.", count=len(winners))
            raise IllegalAction(
                "There are {pots} pots to award, not {count}.", pots=len(pots), count=len(winners)
            )
        results = []
        for k, (pot, seats) in enumerate(zip(pots, winners, strict=True)):
            if not seats:
                if k == 0:
                    raise IllegalAction("The main pot needs at least one winner.")
                raise IllegalAction("The side pot {number} needs at least one winner.", number=k)
            for s in seats:
                if s not in pot.eligible:
                    if k == 0:
                        raise IllegalAction("Seat {seat} cannot win the main pot: it was not in it.", seat=s)
                    raise IllegalAction(
                        "Seat {seat} cannot win the side pot {number}: it was not in it.", seat=s, number=k
                    )
            results.append(award_pot(k, pot, list(seats), self.setup.button))
        return self._finish(Award(tuple(results)), notation.award(winners))

    def _finish(self, award: Award, note: str) -> Award:
        for seat, chips in award.won().items():
            self._stack[self._index[seat]] += chips
        for j in range(self._n):
            self._committed[j] = 0
        self._dead = 0
        self._antes = None
        self._street = COMPLETE
        self.award = award
        self.log.append(note)
        return award

    # ------------------------------------------------------------------ notation and replay

    def apply(self, entry: str) -> None:
        """Apply one log entry (see the module documentation).

        The do-methods return the action records; here they are in :attr:`actions`, and
        an award in :attr:`award`.
        """
        parsed = notation.parse(entry)
        seat = parsed.seat if parsed.seat is not None else 0
        match parsed.verb:
            case "f":
                self._fold(seat)
            case "cc":
                self._check_or_call(seat)
            case "cbr":
                self._bet_or_raise_to(seat, parsed.amount or 0)
            case "sm" if parsed.mucked:
                self.muck(seat)
            case "sm":
                self.show(seat, parsed.cards)
            case "db":
                self.deal_board(parsed.cards or "")
            case "dh":
                self.deal_hole(seat, parsed.cards or "")
            case "win" if parsed.winners is None:
                self.award_from_cards()
            case "win":
                self.award_to([list(pot) for pot in parsed.winners or ()])

    @classmethod
    def replay(cls, setup: HandSetup, entries: Iterable[str]) -> Hand:
        """A new hand with every log entry applied in order."""
        hand = cls(setup)
        for entry in entries:
            hand.apply(entry)
        return hand

    def undo(self) -> str:
        """Take back the last log entry (by replaying the others) and return it."""
        if not self.log:
            raise IllegalAction("There is nothing to undo.")
        entries = self.log[:-1]
        last = self.log[-1]
        self._reset()
        for entry in entries:
            self.apply(entry)
        return last


def _cards(given: Sequence[Card] | str) -> tuple[tuple[Card, ...], str, tuple[str, ...]]:
    """The cards, their compact text (``AsKd``) and each card's text; refuses a card twice.

    Compact text is read without detours: replaying hands is mostly entering cards.
    """
    if isinstance(given, str):
        n = len(given)
        by_text = _CARD_BY_TEXT
        if n == 4:  # hole cards
            a, b = given[:2], given[2:]
            first, second = by_text.get(a), by_text.get(b)
            if first is not None and second is not None and a != b:
                return (first, second), given, (a, b)
        elif n == 2 and (card := by_text.get(given)) is not None:  # a turn or river card
            return (card,), given, (given,)
        if n <= 10 and not n % 2:
            keys = tuple([given[k : k + 2] for k in range(0, n, 2)])
            try:
                cards = tuple([by_text[k] for k in keys])
            except KeyError:
                cards = ()
            if cards and len(set(keys)) == len(keys):
                return cards, given, keys
        cards = parse_cards(given)
    else:
        cards = tuple(given)
        check_distinct(cards)
    keys = tuple([str(c) for c in cards])
    return cards, "".join(keys), keys


def _ok(verify: object, *args: object) -> bool:
    try:
        verify(*args)  # type: ignore[operator]
    except IllegalAction:
        return False
    return True
