"""Bounties (issue "Money for the night", part 1): part of each buy-in, rebuy and re-entry is
a bounty on the player's head, taken by whoever knocks him out.

- ``knockout``: a fixed bounty per entry; the eliminator takes it whole.
- ``progressive`` (PKO): the eliminator takes a share of the head (``pko_share``, 50 % by
  default) and the rest goes onto his own head.

In both, the winner also collects the bounty on his own head. Who knocked a player out is
the bust's ``by`` (the director names him; where the dealer's assistant played the hand, the
player who won the last chips). A bust with nobody named leaves that bounty unclaimed, said
on the host's sheet. Everything here is worked out from the night's busts in order, so undo
needs nothing of its own.

>>> from engine.events import Event
>>> from engine.tournament import fold
>>> state = fold([Event(1, "created", {"name": "x", "buy_in": 30, "bounty_kind": "progressive", "bounty": 10}, 0.0),
...               *[Event(i, "player_registered", {"name": n}, 1.0) for i, n in ((2, "Ann"), (3, "Bob"), (4, "Cy"))],
...               Event(5, "clock", {"action": "start"}, 2.0),
...               Event(6, "bust", {"players": [3], "by": 1}, 3.0)])
>>> b = bounties(state)
>>> b.heads, b.won
({1: 15, 2: 10, 3: 0}, {1: 5})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

if TYPE_CHECKING:
    from engine.tournament import Tournament

Money: TypeAlias = int
PlayerId: TypeAlias = int
BountyKind: TypeAlias = Literal["none", "knockout", "progressive"]
BOUNTY_KINDS: dict[str, str] = {"none": "no bounties", "knockout": "knockout", "progressive": "progressive knockout"}


@dataclass(frozen=True)
class Bounties:
    heads: dict[PlayerId, Money]
    """The bounty on each player's head now (0 for a player out)."""
    won: dict[PlayerId, Money]
    """What each player has taken in bounties (the winner's own head included at the end)."""
    unclaimed: Money
    """Bounties of busts with nobody named as the eliminator."""
    paid_in: Money
    """Every bounty bought: one per buy-in, re-entry and rebuy."""

    def head(self, player: PlayerId) -> Money:
        return self.heads.get(player, 0)


def bounties(state: Tournament) -> Bounties:
    s = state.settings
    if s.bounty_kind == "none" or not s.bounty:
        return Bounties({}, {}, 0, 0)
    share = s.pko_share if s.bounty_kind == "progressive" else 100
    heads: dict[PlayerId, Money] = {e.id: s.bounty for e in state.standings.entrants}
    won: dict[PlayerId, Money] = {}
    unclaimed = 0
    for group in state.standings.eliminations:
        for bust in group.busts:
            head = heads.get(bust.player, s.bounty)
            heads[bust.player] = s.bounty  # the head he buys if he comes back (a rebuy, a re-entry)
            if bust.by is None:
                unclaimed += head
                continue
            taken = head * share // 100
            won[bust.by] = won.get(bust.by, 0) + taken
            heads[bust.by] = heads.get(bust.by, s.bounty) + head - taken
    for p in state.players:
        if p.out:
            heads[p.id] = 0
    if state.finished:
        for pid, place in state.places().items():
            if place == 1 and heads.get(pid):
                won[pid] = won.get(pid, 0) + heads[pid]
                heads[pid] = 0
    bought = state.entries + state.rebuys
    return Bounties(heads, {k: v for k, v in won.items() if v}, unclaimed, bought * s.bounty)
