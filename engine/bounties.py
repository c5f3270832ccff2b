"""Bounties (issue "Money for the night", part 1): part of each buy-in, rebuy and re-entry is
a bounty, taken by whoever knocks a player out.

- ``knockout``: a fixed bounty per entry on the player's head; the eliminator takes it whole.
- ``progressive`` (PKO): the eliminator takes a share of the head (``pko_share``, 50 % by
  default) and the rest goes onto his own head. The winner also collects his own head.
- ``mystery``: from a set level on, each knockout draws one bounty at random from the pool
  the host defined (amounts and how many of each); knockouts before it take nothing. The
  draw is seeded (``mystery_seed``, kept in the tournament's ``created`` event) and made
  from the knockout's number and the bounties left, so a replay, a restart or an undo and
  redo of the bust draws the same one, and undoing a knockout cannot draw again.

Who knocked a player out is the bust's ``by`` (the director names him, or several who split
the pot; where the dealer's assistant played the hand, the winners of the pot that held his
last chips: ``engine.dealing.eliminators``). Several split a bounty evenly, the odd units
one each to the first of them in the odd-chip order. A bust with nobody named leaves that
bounty unclaimed, said on the host's sheet. Everything here is worked out from the night's
busts in order, so undo needs nothing of its own.

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

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

from engine.errors import Message

if TYPE_CHECKING:
    from engine.tournament import Tournament

Money: TypeAlias = int
PlayerId: TypeAlias = int
BountyKind: TypeAlias = Literal["none", "knockout", "progressive", "mystery"]
BOUNTY_KINDS: dict[str, str] = {
    "none": "no bounties", "knockout": "knockout", "progressive": "progressive knockout",
    "mystery": "mystery bounty",
}


@dataclass(frozen=True)
class Draw:
    """One mystery bounty drawn at a knockout."""

    victim: PlayerId
    takers: tuple[PlayerId, ...]
    amount: Money
    """0 when no bounty was left to draw."""
    level: int
    at: float | None
    left: int
    """Bounties left in the pool after this draw."""


@dataclass(frozen=True)
class Bounties:
    heads: dict[PlayerId, Money]
    """The bounty on each player's head now (0 for a player out; none on a mystery night)."""
    won: dict[PlayerId, Money]
    """What each player has taken in bounties (the winner's own head included at the end)."""
    unclaimed: Money
    """Bounties of busts with nobody named as the eliminator."""
    paid_in: Money
    """Every bounty bought: one per buy-in, re-entry and rebuy."""
    draws: tuple[Draw, ...] = ()
    """Mystery: the bounties drawn, in order."""
    left: tuple[Money, ...] = ()
    """Mystery: the bounties still in the pool, largest first."""

    def head(self, player: PlayerId) -> Money:
        return self.heads.get(player, 0)


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


def bounties(state: Tournament) -> Bounties:
    s = state.settings
    if s.bounty_kind == "none" or not s.bounty:
        return Bounties({}, {}, 0, 0)
    bought = (state.entries + state.rebuys) * s.bounty
    if s.bounty_kind == "mystery":
        return _mystery(state, bought)
    share = s.pko_share if s.bounty_kind == "progressive" else 100
    heads: dict[PlayerId, Money] = {e.id: s.bounty for e in state.standings.entrants}
    won: dict[PlayerId, Money] = {}
    unclaimed = 0
    for group in state.standings.eliminations:
        for bust in group.busts:
            head = heads.get(bust.player, s.bounty)
            heads[bust.player] = s.bounty  # the head he buys if he comes back (a rebuy, a re-entry)
            if not bust.takers:
                unclaimed += head
                continue
            taken = head * share // 100
            for pid, part in split_evenly(taken, bust.takers):
                won[pid] = won.get(pid, 0) + part
            for pid, part in split_evenly(head - taken, bust.takers):
                heads[pid] = heads.get(pid, s.bounty) + part
    for p in state.players:
        if p.out:
            heads[p.id] = 0
    if state.finished:
        for pid, place in state.places().items():
            if place == 1 and heads.get(pid):
                won[pid] = won.get(pid, 0) + heads[pid]
                heads[pid] = 0
    return Bounties(heads, {k: v for k, v in won.items() if v}, unclaimed, bought)


def _mystery(state: Tournament, bought: Money) -> Bounties:
    s = state.settings
    left = [amount for amount, count in s.mystery_pool for _ in range(count)]
    won: dict[PlayerId, Money] = {}
    draws: list[Draw] = []
    for group in state.standings.eliminations:
        if group.level < s.mystery_level:
            continue
        for bust in group.busts:
            if not bust.takers:
                continue
            amount = left.pop(draw_index(s.mystery_seed, len(draws) + 1, len(left))) if left else 0
            for pid, part in split_evenly(amount, bust.takers):
                won[pid] = won.get(pid, 0) + part
            draws.append(Draw(bust.player, bust.takers, amount, group.level, group.at, len(left)))
    return Bounties({}, {k: v for k, v in won.items() if v}, 0, bought, tuple(draws), tuple(left))


def mystery_total(pool: Sequence[tuple[Money, int]]) -> Money:
    return sum(amount * count for amount, count in pool)


def mystery_warning(pool: Sequence[tuple[Money, int]], level: int, knockouts: int) -> str | None:
    """A sentence when the pool holds fewer bounties than the ``knockouts`` possible (every
    player but the winner, from level ``level``), saying what happens when it runs out."""
    count = sum(c for _, c in pool)
    if count >= knockouts:
        return None
    if count == 1:
        return Message(
            "The mystery pool holds 1 bounty for up to {knockouts} knockouts: once they are drawn, a knockout "
            "from level {level} on takes no bounty (the TV says the pool is empty).",
            knockouts=str(knockouts), level=level,
        )
    return Message(
        "The mystery pool holds {count} bounties for up to {knockouts} knockouts: once they are drawn, "
        "a knockout from level {level} on takes no bounty (the TV says the pool is empty).",
        count=str(count), knockouts=str(knockouts), level=level,
    )
