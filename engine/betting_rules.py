"""The betting rules of a hand: what the seat to act may do, and why not.

Every betting action goes through verify → can → do (see :mod:`engine.hand`): here are
:meth:`BettingRules.legal_actions` (the buttons to show), the ``verify_*`` checks, which
raise :class:`IllegalAction` with a sentence a dealer can read aloud (TDA 43: the minimum
raise, a short all-in that does not reopen the betting; a fold when checking is free), and
the ``can_*`` answers. :class:`engine.hand.Hand` has them all.

The betting structure (:attr:`engine.hand_setup.HandSetup.betting`) bounds each bet and raise:
no limit up to all in; pot limit up to the pot after the call (TDA 54); fixed limit one bet
exactly, a cap on the bets and raises of a street (TDA 48), and an all-in of half a bet or
more reopening the betting (TDA 47-B).
"""

from __future__ import annotations

from engine.errors import IllegalAction, InvalidInput
from engine.hand_setup import (
    COMPLETE,
    FIXED_LIMIT,
    POT_LIMIT,
    PREFLOP,
    TURN,
    Chips,
    HandState,
    LegalActions,
    Seat,
)


class BettingRules(HandState):
    """The betting rules of :class:`engine.hand.Hand`, which holds the state they read."""

    __slots__ = ()

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
        can_raise = all_in_to > current and self._may_raise(i) and not self._capped()
        low: int | None = None
        high: int | None = None
        pot: int | None = None
        pot_raise: int | None = None
        half: int | None = None
        if can_raise:
            low, high = self._bounds(i)
            pot_raise = self._pot_to(i)
            pot = max(low, min(high, pot_raise))
            half = max(low, min(high, self._pot_to(i, 2)))
        return LegalActions(
            seat=self.seats[i],
            can_fold=not (can_check and policy == "refuse"),
            can_check=can_check,
            call_amount=call,
            min_bet_or_raise_to=low,
            max_bet_or_raise_to=high,
            can_all_in=(can_raise and high == all_in_to) or all_in_to <= current,
            all_in_amount=all_in_to,
            raise_word="bet" if current == 0 else "raise",
            fold_warns=can_check and policy == "warn",
            pot_to=pot,
            raises_left=self._raises_left(),
            pot_raise_to=pot_raise,
            half_pot_to=half,
        )

    # ------------------------------------------------------------------ the structure

    def _street_minimum(self) -> Chips:
        """The smallest full bet of this street: a limit's bet, else the big blind (or
        ``min_bet``)."""
        setup = self.setup
        if setup.betting == FIXED_LIMIT:
            return self._bet_size()
        return setup.min_bet or setup.big_blind

    def _bet_size(self) -> Chips:
        """Fixed limit: the small bet before the turn, the big bet from it."""
        small, big = self.setup.bet_sizes
        return big if self._street >= TURN else small

    def _reopening(self) -> Chips:
        """The raise that reopens the betting for those who have acted: a full raise (TDA
        47-A), or in fixed limit half a bet (TDA 47-B: "at least 50 %")."""
        if self.setup.betting == FIXED_LIMIT:
            return (self._bet_size() + 1) // 2
        return self._full

    def _raises_left(self) -> int | None:
        setup = self.setup
        if setup.betting != FIXED_LIMIT or (self._live == 2 and not setup.cap_heads_up):
            return None
        return max(0, setup.raise_cap - self._raises)

    def _capped(self) -> bool:
        """Fixed limit: the street's bets and raises have reached the house's cap."""
        return self._raises_left() == 0

    def _bounds(self, i: int) -> tuple[Chips, Chips]:
        """The lowest and highest bet or raise "to" for seat index ``i`` (all in below the
        lowest is allowed too)."""
        current, all_in_to = self._current, self._bet[i] + self._stack[i]
        betting = self.setup.betting
        if betting == FIXED_LIMIT:
            exact = min(current + self._bet_size(), all_in_to)
            return exact, exact
        low = min(current + self._full, all_in_to)
        if betting == POT_LIMIT:
            return low, max(low, min(self._pot_to(i), all_in_to))
        return low, all_in_to

    def _pot_to(self, i: int, part: int = 1) -> Chips:
        """The bet or raise "to" the size of the pot after seat index ``i``'s call (``part``
        2: half of it), before any limit (the player's all-in, the pot limit)::

            to = the bet to match + the pot after the call // part
            the pot after the call = every chip in the pots and bets + the call

        (the call being the bet to match less the seat's own bet; in pot limit before the flop
        the pot also counts what a dead or short blind lacks, TDA 54: "as if full blinds were
        posted"). The same "to" is the call plus the pot after it, added to the seat's bet.
        Half of an odd pot drops the odd chip.

        Facing a bet of 500 into a pot of 1,000, the call is 500 and the pot after it 2,000:
        pot is a raise to 500 + 2,000 = 2,500, half pot a raise to 500 + 1,000 = 1,500. A bet
        into a pot of 19,700 is 19,700 for pot and 9,850 for half, even when the player has
        only 19,400 (the legal actions then cap pot at the all-in, 19,400, and leave half pot
        at 9,850).

        >>> from engine.hand import Hand, HandSetup
        >>> hand = Hand(HandSetup({1: 5000, 2: 5000, 3: 5000}, 1, 2, 3, 100, 200))
        >>> hand.raise_to(1, 500).to
        500
        >>> hand._pot_to(hand._to_act), hand._pot_to(hand._to_act, 2)  # 800 in, + the call 400
        (1700, 1100)
        """
        current = self._current
        pot = sum(self._committed) + self._dead + sum(self._bet) + (current - self._bet[i])
        if self._street == PREFLOP and self.setup.betting == POT_LIMIT:
            pot += self._blind_short
        return current + pot // part

    def _may_raise(self, i: int) -> bool:
        """Reopened for this seat, and somebody else could call more than the bet."""
        faced = self._faced[i]
        if faced >= 0 and self._current - faced < self._reopening():
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
        """Refuse ``amount`` as seat index ``i``'s bet (``word`` is ``bet``) or raise (``raise
        to``): not a whole number, more than they have (refused with this player's limit: in
        pot limit the pot when it is less than the all-in), not above the bet, the betting not
        open to them (:meth:`_verify_open`), or below the minimum without being all in."""
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
        betting = self.setup.betting
        if amount > all_in_to:
            if betting == POT_LIMIT and max(current + self._full, self._pot_to(i)) < all_in_to:
                self._verify_pot_limit(i, amount, word)  # the pot, below the all-in, is the limit
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
        self._verify_open(i, amount, word)
        if betting == FIXED_LIMIT:
            self._verify_limit(i, amount, word)
            return
        if betting == POT_LIMIT:
            self._verify_pot_limit(i, amount, word)
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

    def _verify_pot_limit(self, i: int, amount: Chips, word: str) -> None:
        """Pot limit: refuse a bet or raise past the pot after the call (TDA 54), or past the
        minimum bet or raise when that is more."""
        seat = self.seats[i]
        most = max(self._current + self._full, self._pot_to(i))
        if amount > most:
            if word == "bet":
                raise IllegalAction(
                    "Pot limit: the most seat {seat} can bet is {most}.", seat=seat, most=most
                )
            raise IllegalAction(
                "Pot limit: the most seat {seat} can raise to is {most}.", seat=seat, most=most
            )

    def _verify_open(self, i: int, amount: Chips, word: str) -> None:
        """Refuse any bet or raise when the betting is not open to seat index ``i``: a short
        all-in did not reopen it (TDA 43-B), every other player is all-in, or nobody else has
        more than the bet to call a raise with."""
        seat, current, shown = self.seats[i], self._current, amount
        if self._faced[i] >= 0 and current - self._faced[i] < self._reopening():
            call = min(current - self._bet[i], self._stack[i])
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

    def _verify_limit(self, i: int, amount: Chips, word: str) -> None:
        """Fixed limit: refuse a bet or raise past the cap, or of any other size than one bet
        (all in for less is a bet or raise too)."""
        seat, setup = self.seats[i], self.setup
        if self._capped():
            raises = setup.raise_cap - 1
            if word == "bet":
                raise IllegalAction(
                    "Seat {seat} cannot bet: the betting is capped at a bet and {raises} raises; "
                    "seat {seat} may only call or fold.",
                    seat=seat, raises=raises,
                )
            raise IllegalAction(
                "Seat {seat} cannot raise: the betting is capped at a bet and {raises} raises; "
                "seat {seat} may only call or fold.",
                seat=seat, raises=raises,
            )
        exact = self._bounds(i)[0]
        if amount != exact:
            if word == "bet":
                raise IllegalAction(
                    "Limit: seat {seat} cannot bet {amount}; the bet is {exact}.",
                    seat=seat, amount=amount, exact=exact,
                )
            raise IllegalAction(
                "Limit: seat {seat} cannot raise to {amount}; the raise is to {exact}.",
                seat=seat, amount=amount, exact=exact,
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


def _ok(verify: object, *args: object) -> bool:
    try:
        verify(*args)  # type: ignore[operator]
    except IllegalAction:
        return False
    return True
