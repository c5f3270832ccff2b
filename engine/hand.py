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

The setup, the actions and the hand's state are declared in :mod:`engine.hand_setup`;
:class:`Hand` gets its betting rules (the verify and can methods, the legal actions) from
:mod:`engine.betting_rules` and its cards, showdown and award from :mod:`engine.showdown`;
here are the hand's state, the betting actions, the flow from street to street, and the
replay.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engine import notation
from engine.betting_rules import BettingRules
from engine.errors import IllegalAction
from engine.hand_setup import BOARD_SIZE as BOARD_SIZE
from engine.hand_setup import COMPLETE as COMPLETE
from engine.hand_setup import FLOP as FLOP
from engine.hand_setup import FOLD_POLICIES as FOLD_POLICIES
from engine.hand_setup import FOLD_WARNING as FOLD_WARNING
from engine.hand_setup import PREFLOP as PREFLOP
from engine.hand_setup import RIVER as RIVER
from engine.hand_setup import SHOWDOWN as SHOWDOWN
from engine.hand_setup import STREET_WORDS as STREET_WORDS
from engine.hand_setup import STREETS as STREETS
from engine.hand_setup import TURN as TURN
from engine.hand_setup import Action as Action
from engine.hand_setup import ActionRecord as ActionRecord
from engine.hand_setup import Chips as Chips
from engine.hand_setup import HandSetup as HandSetup
from engine.hand_setup import LegalActions as LegalActions
from engine.hand_setup import Seat as Seat
from engine.pots import Award, Pot, award_pot, build_pots
from engine.showdown import CardsAndShowdown

if TYPE_CHECKING:
    from engine.cards import Card


class Hand(BettingRules, CardsAndShowdown):
    """One hand of No-Limit Hold'em. See the module documentation.

    Its state is declared in :class:`engine.hand_setup.HandState`; its betting rules are
    :class:`engine.betting_rules.BettingRules`, its cards and showdown
    :class:`engine.showdown.CardsAndShowdown`.
    """

    __slots__ = ()

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
        self._records: list[ActionRecord] = []
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
        short = setup.small_blind
        if setup.small_blind_seat is not None:
            i = index[setup.small_blind_seat]
            paid = min(setup.small_blind, stack[i])
            stack[i] -= paid
            self._bet[i] = paid
            short -= paid
        self._bb = bb = index[setup.big_blind_seat]
        paid = min(setup.big_blind, stack[bb])
        stack[bb] -= paid
        self._bet[bb] = paid
        self._blind_short = short + setup.big_blind - paid
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
        self._full = self._street_minimum()
        self._raises = 1 + len(setup.straddles)  # before the flop the big blind is the first bet
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

    # ------------------------------------------------------------------ do

    def fold(self, seat: Seat) -> Action:
        """Give up the hand; the chips already in stay in the pots."""
        return Action(*self._fold(seat))

    def _fold(self, seat: Seat) -> ActionRecord:
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

    def _check_or_call(self, seat: Seat) -> ActionRecord:
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

    def _bet_or_raise_to(self, seat: Seat, amount: Chips) -> ActionRecord:
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

    def _put(self, i: int, to: Chips, kind: str) -> ActionRecord:
        """Move chips for a verified action and pass the turn."""
        stack, bet, seat = self._stack, self._bet, self.seats[i]
        added = to - bet[i]
        left = stack[i] = stack[i] - added
        if not left:
            self._with_chips -= 1
        bet[i] = to
        current = self._current
        if to > current:
            if to - current >= self._reopening():
                self._raises += 1
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

    def _done(self, i: int, record: ActionRecord, note: str) -> ActionRecord:
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
        self._full = self._street_minimum()
        self._raises = 0
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
                lows = None if parsed.lows is None else [list(pot) for pot in parsed.lows]
                self.award_to([list(pot) for pot in parsed.winners or ()], lows)

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


