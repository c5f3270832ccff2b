"""A cash game's stakes and who may play them (seed 004): fixed blinds with a buy-in of 40 to
100 big blinds, the first three stakes open to everyone and each higher one once a member's
Play Chips reach its smallest buy-in; and the checks of the chips a member takes to a table.

>>> STAKES[1].name, STAKES[1].min_buy_in, STAKES[1].max_buy_in
('50/100', 4000, 10000)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from engine.errors import N_, IllegalAction, InvalidInput, Message, Term
from engine.text import chips

Chips: TypeAlias = int

MIN_BUY_IN_BB = 40
MAX_BUY_IN_BB = 100
MAX_NAME = 40


@dataclass(frozen=True, order=True)
class Stake:
    """Fixed blinds for a session, and the buy-in range they give (40 to 100 big blinds)."""

    small_blind: Chips
    big_blind: Chips

    def __post_init__(self) -> None:
        for value in (self.small_blind, self.big_blind):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInput("Blinds must be whole numbers of chips, not {value}.", value=repr(value))
        if self.big_blind < 2 or not 1 <= self.small_blind <= self.big_blind:
            raise InvalidInput(
                "The blinds {small_blind}/{big_blind} cannot be played: the small blind must be at least 1 and at most the big blind.",
                small_blind=str(self.small_blind), big_blind=str(self.big_blind),
            )

    @property
    def name(self) -> str:
        """``1,000/2,000``."""
        return f"{chips(self.small_blind)}/{chips(self.big_blind)}"

    @property
    def min_buy_in(self) -> Chips:
        return MIN_BUY_IN_BB * self.big_blind

    @property
    def max_buy_in(self) -> Chips:
        return MAX_BUY_IN_BB * self.big_blind

    @property
    def range_text(self) -> str:
        """``4,000 to 10,000 (40 to 100 big blinds)``."""
        return Message(
            "{low} to {high} ({low_bb} to {high_bb} big blinds)",
            low=self.min_buy_in, high=self.max_buy_in, low_bb=MIN_BUY_IN_BB, high_bb=MAX_BUY_IN_BB,
        )

    @property
    def open_to_all(self) -> bool:
        """The seed's three lowest stakes (and custom blinds no bigger) are open to everyone."""
        return self.big_blind <= STAKES[OPEN_STAKES - 1].big_blind

    @property
    def access_balance(self) -> Chips:
        """The balance a member needs to be allowed at this stake (0 when open to all)."""
        return 0 if self.open_to_all else self.min_buy_in

    def verify_buy_in(self, amount: Chips, who: str) -> None:
        """A buy-in (or a rebuy) must be within the range."""
        _verify_chips(amount, "buy-in", who)
        if not self.min_buy_in <= amount <= self.max_buy_in:
            raise IllegalAction(
                "{who} cannot buy in for {amount} at {stake}: the buy-in is {range}.",
                who=who, amount=amount, stake=self.name, range=self.range_text,
            )

    def verify_top_up(self, stack: Chips, amount: Chips, who: str) -> None:
        """A top-up may bring the stack up to the maximum buy-in, not beyond.

        >>> STAKES[0].verify_top_up(1500, 600, "Bob")
        Traceback (most recent call last):
        ...
        engine.errors.IllegalAction: Bob cannot top up 600 at 10/20: 1,500 in front plus 600 is 2,100, more than the maximum of 2,000; Bob can add at most 500.
        """
        _verify_chips(amount, "top-up", who)
        if stack + amount > self.max_buy_in:
            room = max(0, self.max_buy_in - stack)
            values = dict(
                who=who, amount=amount, stake=self.name, stack=stack, total=stack + amount,
                maximum=self.max_buy_in,
            )
            if room:
                raise IllegalAction(
                    "{who} cannot top up {amount} at {stake}: {stack} in front plus {amount} is "
                    "{total}, more than the maximum of {maximum}; {who} can add at most {room}.",
                    room=room, **values,
                )
            raise IllegalAction(
                "{who} cannot top up {amount} at {stake}: {stack} in front plus {amount} is "
                "{total}, more than the maximum of {maximum}; {who} is already at the maximum.",
                **values,
            )

    def as_dict(self) -> dict[str, int]:
        return {"small_blind": self.small_blind, "big_blind": self.big_blind}

    @classmethod
    def parse(cls, text: str) -> Stake:
        """``"50/100"`` or ``"1,000/2,000"``.

        >>> Stake.parse("1,000/2,000")
        Stake(small_blind=1000, big_blind=2000)
        """
        parts = str(text).replace(",", "").replace(" ", "").split("/")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise InvalidInput("{text} is not a stake: write the blinds like 50/100.", text=repr(text))
        return cls(int(parts[0]), int(parts[1]))


STAKES: tuple[Stake, ...] = (
    Stake(10, 20),
    Stake(50, 100),
    Stake(250, 500),
    Stake(1_000, 2_000),
    Stake(10_000, 20_000),
)
"""Seed 004's stakes, lowest first."""
OPEN_STAKES = 3
"""How many of the lowest stakes are open to everyone."""


def verify_stake_access(stake: Stake, balance: Chips, who: str) -> None:
    """Seed 004: each stake above the first three opens once a member's Play Chips reach
    its smallest buy-in.

    >>> verify_stake_access(STAKES[3], 52_000, "Ann")
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: Ann may not sit at 1,000/2,000 yet: that stake opens once a member's Play Chips reach 80,000, its smallest buy-in, and Ann has 52,000.
    """
    if balance < stake.access_balance:
        raise IllegalAction(
            "{who} may not sit at {stake} yet: that stake opens once a member's Play Chips "
            "reach {access}, its smallest buy-in, and {who} has {balance}.",
            who=who, stake=stake.name, access=stake.access_balance, balance=balance,
        )


def verify_member_buy_in(
    stake: Stake, balance: Chips, amount: Chips, who: str, *, sitting: bool
) -> None:
    """Everything the club checks before chips leave a member's balance: access to the stake
    (for a new seat), and enough play chips for ``amount``."""
    if sitting:
        verify_stake_access(stake, balance, who)
    if amount > balance:
        raise IllegalAction(
            "{who} cannot take {amount} to the table: {who}'s balance is {balance} play chips.",
            who=who, amount=amount, balance=balance
        )


_CHIP_AMOUNTS = {
    "buy-in": (
        N_("{who}'s buy-in must be a whole number of chips, not {amount}."),
        N_("{who}'s buy-in must be more than 0, not {amount}."),
    ),
    "top-up": (
        N_("{who}'s top-up must be a whole number of chips, not {amount}."),
        N_("{who}'s top-up must be more than 0, not {amount}."),
    ),
    "grant": (
        N_("A grant to {who} must be a whole number of chips, not {amount}."),
        N_("A grant to {who} must be more than 0, not {amount}."),
    ),
}


def _verify_chips(amount: object, what: Literal["buy-in", "top-up", "grant"], who: str) -> None:
    not_whole, not_positive = _CHIP_AMOUNTS[what]
    who = who[:1].upper() + who[1:]
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidInput(not_whole, who=who, amount=repr(amount))
    if amount <= 0:
        raise IllegalAction(not_positive, who=who, amount=amount)


def clean_name(value: object, what: str = N_("name")) -> str:
    """A trimmed name of 1 to 40 characters; ``what`` (the name of what) is a message id."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput("The {what} is missing: type a name.", what=Term(what))
    text = " ".join(value.split())
    if len(text) > MAX_NAME:
        raise InvalidInput(
            "The {what} {name}... is too long: at most {most} characters.",
            what=Term(what), name=repr(text[:20]), most=MAX_NAME,
        )
    return text


__all__ = [
    "MAX_BUY_IN_BB",
    "MIN_BUY_IN_BB",
    "OPEN_STAKES",
    "STAKES",
    "Stake",
    "clean_name",
    "verify_member_buy_in",
    "verify_stake_access",
]
