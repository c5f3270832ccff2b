"""The host's sheet: what each player put in (buy-in, re-entries, rebuys, add-on, the fees in
them, each at the price it was paid at) and what each took (a prize, a deal's share, bounties),
and the net; and the night's money balanced to the unit:

    paid in + overlay = prizes + fees kept + bounties

where the prizes are those taken and those still to be paid, and the bounties those won,
those still on the heads of players in, those of busts with nobody named and, on a mystery
night, those not drawn yet. Each side is worked out from its own records (the ledger's
payments, the prize table, the knockouts), so :attr:`Sheet.balance` is a real check: 0.

A league-points night shows points instead.

>>> from engine.events import Event
>>> from engine.tournament import fold
>>> state = fold([Event(1, "created", {"name": "x", "buy_in": 20, "fee_amount": 2}, 0.0),
...               Event(2, "player_registered", {"name": "Ann"}, 1.0),
...               Event(3, "player_registered", {"name": "Bob"}, 1.0),
...               Event(4, "clock", {"action": "start"}, 2.0),
...               Event(5, "bust", {"players": [2]}, 3.0)])
>>> s = sheet(state)
>>> [(r.name, r.paid_in, r.fees, r.took, r.net) for r in s.rows]
[('Ann', 20, 2, 36, 16), ('Bob', 20, 2, 0, -20)]
>>> s.balance, s.unpaid
(0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

from engine.bounties import bounties

if TYPE_CHECKING:
    from engine.tournament import Tournament

Money: TypeAlias = int


@dataclass(frozen=True)
class SheetRow:
    player: int
    name: str
    place: int | None
    entries: int
    """The buy-in and each re-entry."""
    rebuys: int
    addon: bool
    paid_in: Money
    fees: Money
    """The part of what the player paid that the house kept."""
    took: Money
    """A prize, or a deal's share (and what was left to play for, to its winner), and bounties."""
    points: float | None
    bounties: Money = 0
    """Of what was taken, the bounties."""

    @property
    def net(self) -> Money:
        return self.took - self.paid_in


@dataclass(frozen=True)
class Bounty:
    """Where the bounty money is: each part worked out from the knockouts' records."""

    paid_in: Money = 0
    won: Money = 0
    on_heads: Money = 0
    """Still on the heads of players in: to be won."""
    unclaimed: Money = 0
    """Heads of busts with nobody named."""
    not_drawn: Money = 0
    """Mystery: the bounty money not drawn yet (negative when the host's pool is bigger)."""

    @property
    def accounted(self) -> Money:
        return self.won + self.on_heads + self.unclaimed + self.not_drawn


@dataclass(frozen=True)
class Sheet:
    rows: tuple[SheetRow, ...]
    overlay: Money
    """What the house added to reach the guarantee."""
    pool: Money
    finished: bool
    points: bool
    bounties: Money = 0
    """The bounties bought with the entries and rebuys (not prize money)."""
    paid_by_kind: dict[str, Money] = field(default_factory=dict)
    """What was paid in as buy-ins (``entry``), re-entries, rebuys and add-ons."""
    prizes: Money = 0
    """The prizes of the payout table (a deal's shares and what it left to play for)."""
    prizes_taken: Money = 0
    bounty: Bounty = field(default_factory=Bounty)

    @property
    def paid_in(self) -> Money:
        return sum(r.paid_in for r in self.rows)

    @property
    def fees(self) -> Money:
        return sum(r.fees for r in self.rows)

    @property
    def took(self) -> Money:
        return sum(r.took for r in self.rows)

    @property
    def prizes_to_pay(self) -> Money:
        return self.prizes - self.prizes_taken

    @property
    def unpaid(self) -> Money:
        """The prize money and bounties not yet taken (0 once the night is over, but for
        bounties of busts with nobody named and mystery bounties never drawn)."""
        return self.pool + self.bounties - self.took

    @property
    def balance(self) -> Money:
        """Paid in plus the overlay, less the prizes, the fees kept and the bounties (won, on
        heads, unclaimed, not drawn): 0, to the unit. A points night: paid in less the fees,
        the bounties and the pool (0 when nothing else is bought)."""
        if self.points:
            return self.paid_in - self.fees - self.bounties + self.overlay - self.pool
        return self.paid_in + self.overlay - self.prizes - self.fees - self.bounty.accounted


def sheet(state: Tournament) -> Sheet:
    s = state.settings
    points = s.payout_kind == "points"
    awards = {} if points else state.awards()
    b = bounties(state)
    won = {} if points else b.won
    scored = state.points() if points else {}
    places = state.places()
    paid = state.ledger.per_player()

    rows = []
    for p in state.players:
        kinds = paid.get(p.id, {})
        rows.append(SheetRow(
            p.id, p.name, places.get(p.id), 1 + p.reentries, p.rebuys, p.addon,
            sum(price for _, price, _ in kinds.values()), sum(fee for _, _, fee in kinds.values()),
            awards.get(p.id, 0) + won.get(p.id, 0), scored.get(p.id) if points else None, won.get(p.id, 0),
        ))
    rows.sort(key=lambda r: (r.place is None, r.place or 0, r.name.lower()))
    by_kind: dict[str, Money] = {}
    for payment in state.ledger.payments:
        by_kind[payment.kind] = by_kind.get(payment.kind, 0) + payment.price
    if points:
        return Sheet(tuple(rows), 0, 0, state.finished, True, 0, by_kind)
    book = state.ledger
    bounty = Bounty(
        book.bounties, sum(b.won.values()), b.on_heads, b.unclaimed,
        book.bounties - book.drawn if s.bounty_kind == "mystery" else 0,
    )
    prizes = sum(state.prizes) if state.prizes else state.prize_pool  # no table yet: the pool waits whole
    return Sheet(
        tuple(rows), state.pool.overlay, state.prize_pool, state.finished, False, book.bounties, by_kind,
        prizes, sum(awards.values()), bounty,
    )
