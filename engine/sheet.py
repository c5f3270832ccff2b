"""The host's sheet: what each player put in (buy-in, re-entries, rebuys, add-on, the fees in
them) and what each took (a prize, a deal's share), and the net; the totals balance to zero
with the house's fees and overlay apart. A league-points night shows points instead.

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

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from engine.bounties import bounties
from engine.payouts import fee_of

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
class Sheet:
    rows: tuple[SheetRow, ...]
    overlay: Money
    """What the house added to reach the guarantee."""
    pool: Money
    finished: bool
    points: bool
    bounties: Money = 0
    """The bounties bought with the entries and rebuys (not prize money)."""

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
    def unpaid(self) -> Money:
        """The prize money and bounties not yet taken (0 once the night is over, but for
        bounties of busts with nobody named)."""
        return self.pool + self.bounties - self.took

    @property
    def balance(self) -> Money:
        """What the players paid in, less the fees and the bounties, plus the overlay, less the
        prize pool: 0, each player's figures adding up to the night's."""
        return self.paid_in - self.fees - self.bounties + self.overlay - self.pool


def sheet(state: Tournament) -> Sheet:
    s = state.settings
    points = s.payout_kind == "points"
    awards = {} if points else state.awards()
    won = {} if points else bounties(state).won
    scored = state.points() if points else {}
    places = state.places()

    def fee(amount: Money) -> Money:
        return fee_of(amount, s.fee_amount, s.fee_percent)

    rows = []
    for p in state.players:
        entries = 1 + p.reentries
        paid = s.buy_in * entries + s.rebuy_cost * p.rebuys + (s.addon_cost if p.addon else 0)
        fees = fee(s.buy_in) * entries + fee(s.rebuy_cost) * p.rebuys + (fee(s.addon_cost) if p.addon else 0)
        rows.append(SheetRow(
            p.id, p.name, places.get(p.id), entries, p.rebuys, p.addon, paid, fees,
            awards.get(p.id, 0) + won.get(p.id, 0), scored.get(p.id) if points else None, won.get(p.id, 0),
        ))
    rows.sort(key=lambda r: (r.place is None, r.place or 0, r.name.lower()))
    return Sheet(tuple(rows), 0 if points else state.pool.overlay, 0 if points else state.prize_pool,
                 state.finished, points, 0 if points else state.pool.bounties)
