"""Busts and finishing places: the players knocked out in one hand and the places they take.

Seed 000: "A player who loses all their chips is eliminated and finishes behind
everyone still in the game. If several players are knocked out in the same hand,
the one who started that hand with more chips finishes higher; players who
started with the same number of chips share the place."

:class:`engine.standings.Standings` keeps the busts of a whole tournament.

>>> places_for_busts(10, {"Ann": 5000, "Bob": 3000})
{'Ann': 9, 'Bob': 10}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias, TypeVar

from engine.errors import IllegalAction, InvalidInput

Chips: TypeAlias = int
PlayerId: TypeAlias = int
K = TypeVar("K", bound=Hashable)

TieBreak: TypeAlias = Literal["share", "order"]
"""How busts with equal starting stacks are placed (TDA 3.3).

``"share"`` (the default, seed 000): they share the better place.
``"order"``: the order of the ``busts`` mapping decides, the first one finishing
higher (the caller lists them e.g. in seat order from the left of the button).
"""


def places_for_busts(
    players_left_before: int,
    busts: Mapping[K, Chips],
    tie_break: TieBreak = "share",
) -> dict[K, int]:
    """The finishing places of the players knocked out in one hand.

    ``busts`` maps each player knocked out to the chips they had when the hand
    began. With N players before the hand and k knocked out, they take places
    N-k+1 to N: a bigger starting stack finishes higher, equal stacks share the
    better place. The hand must leave somebody in, so k < N.

    >>> places_for_busts(6, {3: 500, 5: 800, 1: 500})
    {3: 5, 5: 4, 1: 5}
    >>> places_for_busts(6, {3: 500, 5: 800, 1: 500}, tie_break="order")
    {3: 5, 5: 4, 1: 6}
    """
    n, k = players_left_before, len(busts)
    if k == 0:
        return {}
    if n < 2:
        if n == 1:
            raise IllegalAction("Nobody can be knocked out with 1 player left: a hand needs two players.")
        raise IllegalAction(
            "Nobody can be knocked out with {count} players left: a hand needs two players.", count=n
        )
    if k >= n:
        raise IllegalAction(
            "{busted} players cannot all be knocked out of one hand with {left} left: "
            "the hand leaves at least one player with chips.", busted=k, left=n,
        )
    for who, stack in busts.items():
        if stack < 0:
            raise InvalidInput("{who} cannot have started the hand with {stack} chips.", who=str(who), stack=stack)
    if tie_break not in ("share", "order"):
        raise InvalidInput("Unknown tie break {tie_break}: use 'share' or 'order'.", tie_break=repr(tie_break))
    best = n - k + 1
    stacks = list(busts.values())
    places: dict[K, int] = {}
    for i, (who, stack) in enumerate(busts.items()):
        above = sum(1 for s in stacks if s > stack)
        if tie_break == "order":
            above += sum(1 for s in stacks[:i] if s == stack)
        places[who] = best + above
    return places


@dataclass(frozen=True)
class Bust:
    """One player knocked out: the chips they started the hand with, their table, who did it."""

    player: PlayerId
    stack: Chips
    table: int | None = None
    by: PlayerId | None = None
    """Who knocked the player out: the winner of the pot that held his last chips, the first
    of them in the odd-chip order when several split it."""
    split: tuple[PlayerId, ...] = ()
    """Every player who split that pot, in the odd-chip order, when several did."""

    @property
    def takers(self) -> tuple[PlayerId, ...]:
        """Who shares the knockout (its bounty): one player, or those who split the pot."""
        return self.split or ((self.by,) if self.by is not None else ())


def by_and_split(takers: tuple[PlayerId, ...]) -> tuple[PlayerId | None, tuple[PlayerId, ...]]:
    """A bust's ``by`` and ``split`` from who took the pot."""
    return (takers[0] if takers else None), (takers if len(takers) > 1 else ())


@dataclass(frozen=True)
class Elimination:
    """The players knocked out in one hand (or entered together as "same hand")."""

    busts: tuple[Bust, ...]
    hand: int | None = None
    hand_for_hand: bool = False
    level: int = 1
    """The level in play when they went out (during a break, the level just played)."""
    at: float | None = None
    """When it was recorded (epoch seconds)."""


def shared_by_rank(busts: Sequence[Bust], players_before: int, tie_break: TieBreak) -> dict[PlayerId, int]:
    """Busts of one hand-for-hand hand at several tables (TDA 3.4 "split", with seed 000 at
    each table): rank the busts of each table by their starting stacks, then the players of
    the same rank at different tables share the best place left.

    >>> b = [Bust(1, 500, 1), Bust(2, 800, 1), Bust(3, 600, 2)]
    >>> shared_by_rank(b, 10, "share")
    {2: 8, 3: 8, 1: 10}
    """
    by_table: dict[int | None, dict[PlayerId, Chips]] = {}
    for b in busts:
        by_table.setdefault(b.table, {})[b.player] = b.stack
    rank: dict[PlayerId, int] = {}
    for stacks in by_table.values():
        local = places_for_busts(len(stacks) + 1, stacks, tie_break)  # 1-based ranks from 2
        rank.update({pid: place - 1 for pid, place in local.items()})
    places: dict[PlayerId, int] = {}
    best = players_before - len(busts) + 1
    above = 0
    for r in sorted(set(rank.values())):
        tier = [pid for pid in rank if rank[pid] == r]
        places.update(dict.fromkeys(tier, best + above))
        above += len(tier)
    return dict(sorted(places.items(), key=lambda item: item[1]))
