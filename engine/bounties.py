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
bounty unclaimed, said on the host's sheet.

Each knockout is a record in the night's ledger (``engine.ledger``), made when the bust is
entered: a rebuy, a re-entry, a deal or a restart never takes back a bounty won; only undoing
that bust does. This module reads the ledger for the pages. The kinds of bounty
(``BOUNTY_KINDS``) are the settings' (``engine.settings``), and still read from here.

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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from engine.errors import Message
from engine.ledger import mystery_bounties
from engine.settings import BOUNTY_KINDS as BOUNTY_KINDS
from engine.settings import BountyKind as BountyKind
from engine.state import Tournament

Money: TypeAlias = int
PlayerId: TypeAlias = int


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

    @property
    def on_heads(self) -> Money:
        """The bounties still on the heads of players in: to be won."""
        return sum(self.heads.values())

    @property
    def biggest(self) -> tuple[PlayerId, Money] | None:
        """The player with the biggest bounty on his head, when it is bigger than every other
        (None when two or more share the biggest, or nobody has one)."""
        ranked = sorted(((m, p) for p, m in self.heads.items() if m), reverse=True)
        if not ranked or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
            return None
        return ranked[0][1], ranked[0][0]


def bounties(state: Tournament) -> Bounties:
    """The bounties on the heads and won, from the ledger's records. When the night is over,
    each player still in (the winner; everyone in a deal that ended it) collects his own head."""
    s = state.settings
    book = state.ledger
    if s.bounty_kind == "none" or not s.bounty:
        return Bounties({}, {}, 0, 0)
    won = book.won()
    if s.bounty_kind == "mystery":
        draws = tuple(Draw(k.victim, k.takers, k.head, k.level, k.at, k.left) for k in book.draws)
        left = book.mystery_left if book.mystery_left is not None else mystery_bounties(s.mystery_pool)
        return Bounties({}, {k: v for k, v in won.items() if v}, 0, book.bounties, draws, tuple(left))
    heads = {p.id: (0 if p.out else book.head(p.id)) for p in state.players}
    if state.finished:
        for pid in state.standings.in_play:
            won[pid] = won.get(pid, 0) + heads.get(pid, 0)
            heads[pid] = 0
    return Bounties(heads, {k: v for k, v in won.items() if v}, book.unclaimed, book.bounties)


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
