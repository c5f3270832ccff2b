"""The betting rules of a hand: what the seat to act may do, and why not.

Every betting action goes through verify → can → do (see :mod:`engine.hand`): here are
:meth:`BettingRules.legal_actions` (the buttons to show), the ``verify_*`` checks, which
raise :class:`IllegalAction` with a sentence a dealer can read aloud (TDA 43: the minimum
raise, a short all-in that does not reopen the betting; a fold when checking is free), and
the ``can_*`` answers. :class:`engine.hand.Hand` has them all.
"""

from __future__ import annotations

from engine.errors import IllegalAction, InvalidInput
from engine.hand_setup import COMPLETE, Chips, HandState, LegalActions, Seat


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
        """Refuse ``amount`` as seat index ``i``'s bet (``word`` is ``bet``) or raise (``raise
        to``): not a whole number, more than they have, not above the bet, the betting not open
        to them (:meth:`_verify_open`), or below the minimum without being all in."""
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
        self._verify_open(i, amount, word)
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

    def _verify_open(self, i: int, amount: Chips, word: str) -> None:
        """Refuse any bet or raise when the betting is not open to seat index ``i``: a short
        all-in did not reopen it (TDA 43-B), every other player is all-in, or nobody else has
        more than the bet to call a raise with."""
        seat, current, shown = self.seats[i], self._current, amount
        if self._faced[i] >= 0 and current - self._faced[i] < self._full:
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
