"""The night's money as records: every payment at the price it was made at, and every
knockout with the bounty it paid (issue "Money and records that add up").

- A **payment** is a buy-in, a re-entry, a rebuy or an add-on, recorded when it is made with
  its price, the fee the house keeps of it and the part of it that is a bounty, all as the
  settings said at that moment. A later change of a price applies to later payments only
  (money already collected is history); :meth:`Ledger.reprice` is the director's correction
  of a price typed wrong, which prices every payment again.
- A payment's bounty part goes onto the payer's head (knockout and progressive bounties) or
  into the mystery pool's money (mystery bounties).
- A **knockout** moves the victim's head to whoever knocked him out (progressive: a share,
  the rest onto the eliminator's head) and is kept as a record. A rebuy or a re-entry later
  buys a new head; it never takes back a bounty won. Only undoing the bust itself does, and
  undo refolds the events, so the record goes with its event.

The money balances to the unit at every moment (:func:`engine.sheet.sheet` checks it): what
was paid in, plus the overlay, is the prize pool, the fees kept and the bounties; and the
bounties are what was won, what is still on the heads of players in, what busts with nobody
named left unclaimed and, on a mystery night, what is not drawn yet.

>>> from engine.tournament import Settings
>>> s = Settings(name="KO", buy_in=30, bounty_kind="progressive", bounty=10, fee_amount=2)
>>> book = Ledger().pay(s, 1, "entry", 2).pay(s, 2, "entry", 3)
>>> book.paid_in, book.fees, book.bounties, book.head(1)
(60, 4, 20, 10)
>>> book = book.knock_out(s, [(2, (1,))], level=1, at=5.0, seq=6)
>>> book.head(1), book.head(2), dict(book.knockouts[0].won)
(15, 0, {1: 5})
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias

from engine.payouts import fee_of
from engine.settings import Settings

Money: TypeAlias = int
PlayerId: TypeAlias = int
PaymentKind: TypeAlias = Literal["entry", "reentry", "rebuy", "addon"]
PAYMENT_KINDS: tuple[PaymentKind, ...] = ("entry", "reentry", "rebuy", "addon")


def fee_for(price: Money, settings: Settings) -> Money:
    """What the house keeps of one payment under ``settings`` (``engine.payouts.fee_of``)."""
    return fee_of(price, settings.fee_amount, settings.fee_percent)


def price_of(kind: PaymentKind, settings: Settings) -> Money:
    """What a payment of ``kind`` costs under ``settings``."""
    if kind == "rebuy":
        return settings.rebuy_cost
    if kind == "addon":
        return settings.addon_cost
    return settings.buy_in


def bounty_of(kind: PaymentKind, settings: Settings) -> Money:
    """The part of a payment of ``kind`` that is a bounty (an add-on buys none)."""
    if settings.bounty_kind == "none" or kind == "addon":
        return 0
    return settings.bounty


@dataclass(frozen=True)
class Payment:
    """One payment, at the price it was made at."""

    seq: int
    player: PlayerId
    kind: PaymentKind
    price: Money
    fee: Money
    """Of the price, what the house keeps."""
    bounty: Money
    """Of the price, the bounty bought (onto the player's head, or the mystery pool's money)."""

    @property
    def prize_money(self) -> Money:
        """Of the price, what goes into the prize pool."""
        return self.price - self.fee - self.bounty


@dataclass(frozen=True)
class Knockout:
    """One player knocked out, and the bounty it paid."""

    seq: int
    victim: PlayerId
    takers: tuple[PlayerId, ...]
    """Who knocked him out (several split the pot), in the odd-chip order; none: nobody named."""
    head: Money
    """The bounty the knockout paid: the victim's head, or the mystery bounty drawn."""
    won: tuple[tuple[PlayerId, Money], ...]
    """What each taker took home."""
    onto: tuple[tuple[PlayerId, Money], ...] = ()
    """Progressive: what went onto each taker's own head."""
    level: int = 1
    at: float | None = None
    mystery: bool = False
    """A mystery draw (``head`` is the bounty drawn, 0 when the pool was empty)."""
    left: int = 0
    """Mystery: the bounties left in the pool after this draw."""

    @property
    def unclaimed(self) -> Money:
        """The head of a bust with nobody named: nobody took it."""
        return 0 if self.takers else self.head


def split_evenly(amount: Money, takers: Sequence[PlayerId]) -> list[tuple[PlayerId, Money]]:
    """``amount`` shared by ``takers`` (in the odd-chip order): the odd units one each to the
    first ones (TDA 20, as the pot's odd chips).

    >>> split_evenly(25, [4, 1])
    [(4, 13), (1, 12)]
    """
    share, odd = divmod(amount, len(takers))
    return [(p, share + (1 if n < odd else 0)) for n, p in enumerate(takers)]


def draw_index(seed: int, knockout: int, left: int) -> int:
    """Which of the ``left`` bounties (largest first) the ``knockout``-th knockout draws."""
    return random.Random(f"mystery:{seed}:{knockout}").randrange(left)


def mystery_bounties(pool: Sequence[tuple[Money, int]]) -> tuple[Money, ...]:
    """The host's mystery pool, one amount per bounty, largest first."""
    return tuple(amount for amount, count in pool for _ in range(count))


@dataclass(frozen=True)
class Ledger:
    """The night's payments and knockouts, and the totals the pages read at no cost."""

    payments: tuple[Payment, ...] = ()
    knockouts: tuple[Knockout, ...] = ()
    heads: Mapping[PlayerId, Money] = field(default_factory=dict)
    """The bounty on each player's head now (knockout and progressive nights)."""
    mystery_left: tuple[Money, ...] | None = None
    """Mystery: the bounties still to draw, once the first was drawn (before it, the settings' pool)."""
    paid_in: Money = 0
    fees: Money = 0
    bounties: Money = 0
    """Of what was paid in, the bounties."""

    def head(self, player: PlayerId) -> Money:
        return self.heads.get(player, 0)

    @property
    def draws(self) -> tuple[Knockout, ...]:
        return tuple(k for k in self.knockouts if k.mystery)

    def paid_by(self, player: PlayerId) -> tuple[Payment, ...]:
        return tuple(p for p in self.payments if p.player == player)

    # --- payments ---------------------------------------------------------------------------

    def pay(self, settings: Settings, player: PlayerId, kind: PaymentKind, seq: int) -> Ledger:
        """A payment of ``kind`` by ``player`` at today's prices; its bounty onto his head."""
        price = price_of(kind, settings)
        payment = Payment(seq, player, kind, price, fee_for(price, settings), bounty_of(kind, settings))
        return self._with(payment, settings)

    def _with(self, payment: Payment, settings: Settings) -> Ledger:
        heads = self.heads
        if payment.bounty and settings.bounty_kind in ("knockout", "progressive"):
            heads = {**heads, payment.player: heads.get(payment.player, 0) + payment.bounty}
        return replace(
            self, payments=(*self.payments, payment), heads=heads, paid_in=self.paid_in + payment.price,
            fees=self.fees + payment.fee, bounties=self.bounties + payment.bounty,
        )

    def refund(self, player: PlayerId) -> Ledger:
        """A player registered by mistake leaves before the start: his payments are given back."""
        kept = tuple(p for p in self.payments if p.player != player)
        heads = {k: v for k, v in self.heads.items() if k != player}
        return replace(
            self, payments=kept, heads=heads, paid_in=sum(p.price for p in kept), fees=sum(p.fee for p in kept),
            bounties=sum(p.bounty for p in kept),
        )

    def reprice(self, settings: Settings) -> Ledger:
        """Every payment priced again under ``settings`` (the director's correction of a price
        typed wrong). Bounties cannot change once a player has been knocked out."""
        book = Ledger(knockouts=self.knockouts, mystery_left=self.mystery_left)
        for p in self.payments:
            book = book.pay(settings, p.player, p.kind, p.seq)
        if self.knockouts:  # the heads moved by knockouts stay as they are (the bounty is unchanged)
            book = replace(book, heads=self.heads)
        return book

    # --- knockouts --------------------------------------------------------------------------

    def knock_out(
        self,
        settings: Settings,
        busts: Sequence[tuple[PlayerId, tuple[PlayerId, ...]]],
        *,
        level: int,
        at: float | None,
        seq: int,
    ) -> Ledger:
        """The busts of one event, in order: ``(victim, takers)``; each pays its bounty."""
        book = self
        for victim, takers in busts:
            if settings.bounty_kind == "mystery":
                book = book._draw(settings, victim, takers, level, at, seq)
            else:
                book = book._take_head(settings, victim, takers, level, at, seq)
        return book

    def _take_head(
        self, settings: Settings, victim: PlayerId, takers: tuple[PlayerId, ...], level: int, at: float | None,
        seq: int,
    ) -> Ledger:
        if settings.bounty_kind == "none":  # a record of who knocked out whom, no money
            return replace(self, knockouts=(*self.knockouts, Knockout(seq, victim, takers, 0, (), (), level, at)))
        head = self.heads.get(victim, 0)
        heads = {**self.heads, victim: 0}
        won: list[tuple[PlayerId, Money]] = []
        onto: list[tuple[PlayerId, Money]] = []
        if takers and head:
            share = settings.pko_share if settings.bounty_kind == "progressive" else 100
            taken = head * share // 100
            won = [(p, m) for p, m in split_evenly(taken, takers) if m]
            onto = [(p, m) for p, m in split_evenly(head - taken, takers) if m]
            for pid, part in onto:
                heads[pid] = heads.get(pid, 0) + part
        record = Knockout(seq, victim, takers, head, tuple(won), tuple(onto), level, at)
        return replace(self, knockouts=(*self.knockouts, record), heads=heads)

    def _draw(
        self, settings: Settings, victim: PlayerId, takers: tuple[PlayerId, ...], level: int, at: float | None,
        seq: int,
    ) -> Ledger:
        if level < settings.mystery_level or not takers:  # nothing drawn: no record of a bounty
            return replace(self, knockouts=(*self.knockouts, Knockout(seq, victim, takers, 0, (), (), level, at)))
        left = list(self.mystery_left if self.mystery_left is not None else mystery_bounties(settings.mystery_pool))
        drawn = len(self.draws) + 1
        amount = left.pop(draw_index(settings.mystery_seed, drawn, len(left))) if left else 0
        won = tuple((p, m) for p, m in split_evenly(amount, takers) if m)
        record = Knockout(seq, victim, takers, amount, won, (), level, at, mystery=True, left=len(left))
        return replace(self, knockouts=(*self.knockouts, record), mystery_left=tuple(left))

    # --- what was won -----------------------------------------------------------------------

    def won(self) -> dict[PlayerId, Money]:
        """What each player has taken in bounties from knockouts."""
        out: dict[PlayerId, Money] = {}
        for k in self.knockouts:
            for pid, amount in k.won:
                out[pid] = out.get(pid, 0) + amount
        return out

    @property
    def unclaimed(self) -> Money:
        return sum(k.unclaimed for k in self.knockouts if not k.mystery)

    @property
    def drawn(self) -> Money:
        """Mystery: the bounties drawn so far."""
        return sum(k.head for k in self.knockouts if k.mystery)

    def per_player(self) -> dict[PlayerId, dict[PaymentKind, tuple[int, Money, Money]]]:
        """For each player, by kind of payment: how many, what they cost and the fees in them."""
        out: dict[PlayerId, dict[PaymentKind, tuple[int, Money, Money]]] = {}
        for p in self.payments:
            kinds = out.setdefault(p.player, {})
            n, price, fee = kinds.get(p.kind, (0, 0, 0))
            kinds[p.kind] = (n + 1, price + p.price, fee + p.fee)
        return out


__all__ = [
    "PAYMENT_KINDS",
    "Knockout",
    "Ledger",
    "Payment",
    "PaymentKind",
    "bounty_of",
    "draw_index",
    "fee_for",
    "mystery_bounties",
    "price_of",
    "split_evenly",
]
