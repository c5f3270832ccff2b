"""Eliminations and finishing places.

Seed 000: "A player who loses all their chips is eliminated and finishes behind
everyone still in the game. If several players are knocked out in the same hand,
the one who started that hand with more chips finishes higher; players who
started with the same number of chips share the place."

>>> places_for_busts(10, {"Ann": 5000, "Bob": 3000})
{'Ann': 9, 'Bob': 10}
>>> places_for_busts(5, {"Ann": 800, "Bob": 800})
{'Ann': 4, 'Bob': 4}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Literal, TypeAlias, TypeVar

from engine.errors import IllegalAction, InvalidInput

Chips: TypeAlias = int
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
    if n < 2:
        raise IllegalAction(f"Nobody can be knocked out with {n} player(s) left: a hand needs two players.")
    if k >= n:
        raise IllegalAction(
            f"{k} players cannot all be knocked out of one hand with {n} left: "
            "the hand leaves at least one player with chips."
        )
    for who, stack in busts.items():
        if stack < 0:
            raise InvalidInput(f"{who} cannot have started the hand with {stack:,} chips.")
    if tie_break not in ("share", "order"):
        raise InvalidInput(f"Unknown tie break {tie_break!r}: use 'share' or 'order'.")
    best = n - k + 1
    stacks = list(busts.values())
    places: dict[K, int] = {}
    for i, (who, stack) in enumerate(busts.items()):
        above = sum(1 for s in stacks if s > stack)
        if tie_break == "order":
            above += sum(1 for s in stacks[:i] if s == stack)
        places[who] = best + above
    return places
