"""Pots: the uncalled bet, the main pot and side pots, and splitting a pot with odd chips.

Everything here is a pure function of what each seat put in.

>>> pots = build_pots({1: 500, 2: 1000, 3: 1000}, live={1, 2, 3})
>>> pots
(Pot(amount=1500, eligible=(1, 2, 3)), Pot(amount=1000, eligible=(2, 3)))
>>> split_pot(1001, winners=[5, 2], button=3)
((5, 501), (2, 500))
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from engine.errors import Message
from engine.evaluate import in_sentence

Seat: TypeAlias = int
Chips: TypeAlias = int


@dataclass(frozen=True, slots=True)
class Pot:
    """An amount and the seats that can win it (live players who put in to its level)."""

    amount: Chips
    eligible: tuple[Seat, ...]


def pot_name(index: int) -> str:
    """``main pot`` for the first pot, ``side pot 1`` for the next, and so on.

    >>> pot_name(0), pot_name(2)
    ('main pot', 'side pot 2')
    """
    return Message("main pot") if index == 0 else Message("side pot {number}", number=index)


def _capital(name: str) -> str:
    """A pot's name at the start of a sentence (``Side pot 1``)."""
    if isinstance(name, Message) and name.message == "main pot":
        return Message("Main pot")
    if isinstance(name, Message) and name.message == "side pot {number}":
        return Message("Side pot {number}", **name.values)
    return name[:1].upper() + name[1:]


def uncalled_bet(contributions: Mapping[Seat, Chips]) -> tuple[Seat, Chips] | None:
    """The part of the largest contribution that nobody matched, and whose it is (TDA 15-B).

    >>> uncalled_bet({1: 5000, 2: 3000})
    (1, 2000)
    >>> uncalled_bet({1: 300, 2: 300}) is None
    True
    """
    top_seat: Seat | None = None
    top = second = 0
    for seat, chips in contributions.items():
        if top_seat is None or chips > top:
            second = top if top_seat is not None else 0
            top_seat, top = seat, chips
        elif chips > second:
            second = chips
    if top_seat is None or top <= second:
        return None
    return top_seat, top - second


def build_pots(
    contributions: Mapping[Seat, Chips], live: Collection[Seat], dead: Chips = 0
) -> tuple[Pot, ...]:
    """Layer the pots by contribution level, main pot first.

    ``contributions`` is what each seat put in (folded seats included: their chips stay
    in), ``live`` the seats still in the hand, ``dead`` money that belongs to the main pot
    (antes): a live seat that put in nothing, all-in on its ante, can win that only. An
    all-in player can win from each opponent at most what they put in, so every level of
    a live player closes a pot. Return any uncalled bet first: the pots are built from
    called chips.

    >>> build_pots({1: 100, 2: 300, 3: 300, 4: 50}, live={1, 2, 3}, dead=40)
    (Pot(amount=390, eligible=(1, 2, 3)), Pot(amount=400, eligible=(2, 3)))
    """
    caps = sorted({c for s, c in contributions.items() if s in live})
    pots: list[Pot] = []
    previous = 0
    # Only the levels of live players can close a pot; the highest one takes the rest.
    for n, cap in enumerate(caps):
        last = n == len(caps) - 1
        amount = 0
        for chips in contributions.values():
            if chips > previous:
                amount += (chips if last else min(chips, cap)) - previous
        eligible = tuple(sorted(s for s in live if contributions.get(s, 0) >= cap))
        if n == 0:
            amount += dead
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount:
            pots.append(Pot(amount, eligible))
        previous = cap
    if not pots and (dead or any(contributions.values())):
        amount = dead + sum(contributions.values())
        pots.append(Pot(amount, tuple(sorted(live))))
    return tuple(pots)


def clockwise_from(button: Seat, seats: Iterable[Seat]) -> list[Seat]:
    """The seats in clockwise order starting with the first one left of ``button``.

    The button may be an empty seat; seat numbers increase clockwise and wrap.

    >>> clockwise_from(4, [2, 7, 4, 5])
    [5, 7, 2, 4]
    """
    return sorted(seats, key=lambda s: (s <= button, s))


def split_pot(amount: Chips, winners: Sequence[Seat], button: Seat) -> tuple[tuple[Seat, Chips], ...]:
    """Divide ``amount`` equally; the odd chips go one each to the winners starting with
    the first winner left of the button (TDA 20, T44), even when the button seat is empty.

    The shares are listed in that clockwise order.

    >>> split_pot(100, [3], button=1)
    ((3, 100),)
    >>> split_pot(302, [1, 4, 6], button=5)
    ((6, 101), (1, 101), (4, 100))
    """
    if len(winners) == 1:
        return ((winners[0], amount),)
    order = clockwise_from(button, set(winners))
    if not order:
        raise ValueError("A pot needs at least one winner.")
    share, odd = divmod(amount, len(order))
    return tuple((s, share + (1 if n < odd else 0)) for n, s in enumerate(order))


@dataclass(frozen=True, slots=True)
class PotHalf:
    """One half of a pot split high and low: its amount, who took it, the odd chips and the
    hand that took it (``Low: 7-5-4-2-A``) when the cards decided."""

    amount: Chips
    shares: tuple[tuple[Seat, Chips], ...]
    odd_chips_to: tuple[Seat, ...] = ()
    hand_name: str | None = None

    @property
    def winners(self) -> tuple[Seat, ...]:
        return tuple(s for s, _ in self.shares)


@dataclass(frozen=True, slots=True)
class PotAward:
    """Who won one pot and how much each took; ``hand_name`` when the cards decided. A pot
    split high and low (Omaha hi-lo) has its ``high`` and ``low`` halves; ``shares`` then add
    both up, seat by seat."""

    name: str
    amount: Chips
    shares: tuple[tuple[Seat, Chips], ...]
    odd_chips_to: tuple[Seat, ...] = ()
    hand_name: str | None = None
    eligible: tuple[Seat, ...] = ()
    """The seats that could win it (the pot's live players)."""
    high: PotHalf | None = None
    low: PotHalf | None = None

    @property
    def winners(self) -> tuple[Seat, ...]:
        """The winning seats, clockwise from the button."""
        return tuple(s for s, _ in self.shares)

    def describe(self) -> str:
        """``Seat 3 wins the main pot (1,200) with a flush, ace high``.

        >>> PotAward("side pot 1", 401, ((5, 201), (7, 200)), (5,)).describe()
        'side pot 1 (401) split between seats 5 and 7, odd chip to seat 5'
        """
        return self._said(self.name)

    def _said(self, name: str) -> str:
        if self.high is not None and self.low is not None:
            return Message("{pot} ({amount}) split high and low: the high half ({high_amount}) to {high}, "
                           "the low half ({low_amount}) to {low}", pot=name, amount=self.amount,
                           high_amount=self.high.amount, high=_half_said(self.high),
                           low_amount=self.low.amount, low=_half_said(self.low))
        hand = in_sentence(self.hand_name) if self.hand_name else None
        if len(self.shares) == 1:
            seat = self.shares[0][0]
            side = self.name.values.get("number") if isinstance(self.name, Message) and \
                self.name.message == "side pot {number}" else None
            if side is not None:  # "wins side pot 2", not "wins the side pot 2"
                if hand is not None:
                    return Message("Seat {seat} wins side pot {number} ({amount}) with {hand}",
                                   seat=seat, number=side, amount=self.amount, hand=hand)
                return Message("Seat {seat} wins side pot {number} ({amount})", seat=seat, number=side,
                               amount=self.amount)
            if hand is not None:
                return Message("Seat {seat} wins the {pot} ({amount}) with {hand}",
                               seat=seat, pot=self.name, amount=self.amount, hand=hand)
            return Message("Seat {seat} wins the {pot} ({amount})", seat=seat, pot=self.name, amount=self.amount)
        values = {"pot": name, "amount": self.amount, "seats": list(self.winners[:-1]), "last": self.winners[-1]}
        odd = [Message("seat {seat}", seat=s) for s in self.odd_chips_to]
        if hand is not None:
            if not odd:
                return Message("{pot} ({amount}) split between seats {seats} and {last} with {hand}",
                               hand=hand, **values)
            if len(odd) == 1:
                return Message("{pot} ({amount}) split between seats {seats} and {last} with {hand}, "
                               "odd chip to {odd}", hand=hand, odd=odd, **values)
            return Message("{pot} ({amount}) split between seats {seats} and {last} with {hand}, "
                           "odd chips to {odd}", hand=hand, odd=odd, **values)
        if not odd:
            return Message("{pot} ({amount}) split between seats {seats} and {last}", **values)
        if len(odd) == 1:
            return Message("{pot} ({amount}) split between seats {seats} and {last}, odd chip to {odd}",
                           odd=odd, **values)
        return Message("{pot} ({amount}) split between seats {seats} and {last}, odd chips to {odd}",
                       odd=odd, **values)


@dataclass(frozen=True, slots=True)
class Award:
    """The result of a hand: every pot, main pot first, with its winners (read side pots
    first: :meth:`describe`)."""

    pots: tuple[PotAward, ...]

    def won(self) -> dict[Seat, Chips]:
        """Chips each winning seat takes, all pots together."""
        total: dict[Seat, Chips] = {}
        for pot in self.pots:
            for seat, chips in pot.shares:
                total[seat] = total.get(seat, 0) + chips
        return total

    def last_chips_of(self, seat: Seat) -> PotAward | None:
        """The pot that held ``seat``'s last chips: the last one it could win (a side pot
        when it covered the main pot's winner). Its winners knocked that seat out when it has
        no chips left.

        >>> main = PotAward("main pot", 300, ((2, 300),), eligible=(1, 2, 3))
        >>> side = PotAward("side pot 1", 400, ((3, 400),), eligible=(1, 3))
        >>> Award((main, side)).last_chips_of(1).name, Award((main, side)).last_chips_of(2).name
        ('side pot 1', 'main pot')
        """
        held = [pot for pot in self.pots if seat in pot.eligible]
        return held[-1] if held else None

    def describe(self) -> str:
        """One sentence for the whole hand, pots joined by semicolons: the side pots first,
        the last one first, then the main pot (TDA 5.1: "Award the side pot(s) first, then the
        main pot").

        >>> main = PotAward(pot_name(0), 300, ((1, 300),))
        >>> side = PotAward(pot_name(1), 200, ((2, 200),))
        >>> Award((main, side)).describe()
        'Seat 2 wins side pot 1 (200); Seat 1 wins the main pot (300).'
        """
        if not self.pots:
            return Message("Nothing to award.")
        first, *more = reversed(self.pots)
        text = first._said(_capital(first.name))
        for pot in more:
            text = Message("{earlier}; {later}", earlier=text, later=pot.describe())
        return Message("{award}.", award=text)


def award_words(award: Award, names: Mapping[Seat, str]) -> str:
    """Who won what, with the players' names and the main pot first; the pots one player
    won in a row are said together.

    >>> main = PotAward("main pot", 2400, ((2, 2400),))
    >>> side = PotAward("side pot 1", 800, ((1, 800),))
    >>> award_words(Award((main, side)), {1: "Ann", 2: "Bob"})
    'Bob wins the main pot of 2,400; Ann wins side pot 1 of 800'
    >>> award_words(Award((main, PotAward("side pot 1", 800, ((2, 800),)))), {2: "Bob"})
    'Bob wins the main pot of 2,400 and side pot 1 of 800'
    >>> award_words(Award((PotAward("main pot", 301, ((5, 151), (7, 150)), (5,), "Straight, nine high"),)), {5: "Cy"})
    'Cy and seat 7 split the pot of 301 with a straight, nine high (the odd chip to Cy)'
    """

    def who(seat: Seat) -> str:
        return names.get(seat) or Message("seat {seat}", seat=seat)

    def pot(k: int, won: PotAward) -> str:
        if len(award.pots) == 1:
            return Message("the pot of {amount}", amount=won.amount)
        if k == 0:
            return Message("the main pot of {amount}", amount=won.amount)
        return Message("{pot} of {amount}", pot=won.name, amount=won.amount)

    parts: list[tuple[PotAward, list[str]]] = []
    for k, won in enumerate(award.pots):
        last = parts[-1][0] if parts else None
        if (last is not None and len(won.shares) == 1 and last.winners == won.winners
                and last.hand_name == won.hand_name and won.low is None and last.low is None):
            parts[-1][1].append(pot(k, won))
        else:
            parts.append((won, [pot(k, won)]))
    sentences: list[str] = []
    for won, pots in parts:
        if won.high is not None and won.low is not None:
            sentences.append(Message("{pots} split high and low: the high half to {high}, the low half to {low}",
                                     pots=pots[0], high=_half_said(won.high, names), low=_half_said(won.low, names)))
            continue
        hand = in_sentence(won.hand_name) if won.hand_name else None
        if len(won.shares) == 1:
            if hand is not None:
                sentences.append(Message("{player} wins {pots} with {hand}",
                                         player=who(won.winners[0]), pots=_listed(pots), hand=hand))
            else:
                sentences.append(Message("{player} wins {pots}", player=who(won.winners[0]), pots=_listed(pots)))
            continue
        values = {"players": _listed([who(s) for s in won.winners]), "pots": _listed(pots)}
        odd = _listed([who(s) for s in won.odd_chips_to]) if won.odd_chips_to else None
        if hand is not None:
            if odd is None:
                said = Message("{players} split {pots} with {hand}", hand=hand, **values)
            elif len(won.odd_chips_to) == 1:
                said = Message("{players} split {pots} with {hand} (the odd chip to {odd})", hand=hand, odd=odd, **values)
            else:
                said = Message("{players} split {pots} with {hand} (the odd chips to {odd})", hand=hand, odd=odd, **values)
        elif odd is None:
            said = Message("{players} split {pots}", **values)
        elif len(won.odd_chips_to) == 1:
            said = Message("{players} split {pots} (the odd chip to {odd})", odd=odd, **values)
        else:
            said = Message("{players} split {pots} (the odd chips to {odd})", odd=odd, **values)
        sentences.append(said)
    if not sentences:
        return Message("nothing to award")
    text = sentences[0]
    for more in sentences[1:]:
        text = Message("{earlier}; {later}", earlier=text, later=more)
    return text


def _listed(words: Sequence[str]) -> str:
    if len(words) == 1:
        return words[0]
    return Message("{items} and {last}", items=list(words[:-1]), last=words[-1])


def _half_said(half: PotHalf, names: Mapping[Seat, str] | None = None) -> str:
    """``seat 3 with a flush, ace high``, ``seats 3 and 5 with Low: 7-5-4-2-A, odd chip to seat 3``."""
    def who(seat: Seat) -> str:
        return (names or {}).get(seat) or Message("seat {seat}", seat=seat)

    players = _listed([who(s) for s in half.winners])
    if half.hand_name:
        low = isinstance(half.hand_name, Message) and half.hand_name.message == "Low: {cards}"
        hand = half.hand_name if low else in_sentence(half.hand_name)
        said: str = Message("{players} with {hand}", players=players, hand=hand)
    else:
        said = players
    if half.odd_chips_to:
        return Message("{said}, odd chip to {odd}", said=said, odd=_listed([who(s) for s in half.odd_chips_to]))
    return said


def split_high_low(
    index: int, pot: Pot, high: Sequence[Seat], low: Sequence[Seat], button: Seat,
    high_name: str | None = None, low_name: str | None = None,
) -> PotAward:
    """A pot halved between the best high and the best low (TDA 20: "In high-low games the odd
    chip in the total pot goes to the high side"); each half is split between its winners with
    the odd chips from the left of the button."""
    low_amount = pot.amount // 2
    halves = []
    for amount, seats, hand_name in ((pot.amount - low_amount, high, high_name), (low_amount, low, low_name)):
        shares = split_pot(amount, seats, button)
        base = amount // len(shares)
        odd = tuple(s for s, c in shares if c > base) if len(shares) > 1 else ()
        halves.append(PotHalf(amount, shares, odd, hand_name))
    total: dict[Seat, Chips] = {}
    for half in halves:
        for seat, chips in half.shares:
            total[seat] = total.get(seat, 0) + chips
    shares = tuple((s, total[s]) for s in clockwise_from(button, total))
    return PotAward(pot_name(index), pot.amount, shares, (), high_name, pot.eligible, halves[0], halves[1])


def award_pot(
    index: int, pot: Pot, winners: Sequence[Seat], button: Seat, hand_name: str | None = None
) -> PotAward:
    """Split one pot between ``winners`` and record it."""
    shares = split_pot(pot.amount, winners, button)
    base = pot.amount // len(shares)
    odd = tuple(s for s, c in shares if c > base) if len(shares) > 1 else ()
    return PotAward(pot_name(index), pot.amount, shares, odd, hand_name, pot.eligible)
