"""Chip sets: the chips on the table, the ready-made sets, and a host's own set as data.

A :class:`ChipSet` lists its chip values smallest first, each with its colour and how many
the set holds. :data:`CHIP_SETS` are the ready-made sets a form offers; a host's own set is
stored as a dict (:func:`chip_set_to_dict`, :func:`chip_set_from_dict`, every field checked).

>>> HOME_SET.values
(25, 100, 500, 1000, 5000)
>>> payable(150, (25, 100))
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, TypeAlias

from engine.errors import N_, InvalidInput
from engine.limits import MAX_CHIPS

Chips: TypeAlias = int

COLOURS: dict[str, str] = {
    "white": "#f4f4f4",
    "red": "#c62828",
    "green": "#2e7d32",
    "blue": "#1565c0",
    "black": "#212121",
    "purple": "#6a1b9a",
    "yellow": "#f9a825",
    "orange": "#ef6c00",
    "pink": "#ec407a",
    "grey": "#9e9e9e",
    "brown": "#6d4c41",
}
"""Chip colours by name, with a hex a stylesheet can use."""



@dataclass(frozen=True, slots=True)
class Denomination:
    """One chip value in a set: its value, its colour's name and how many the set holds."""

    value: Chips
    colour: str
    count: int

    def __post_init__(self) -> None:
        if self.value < 1:
            raise InvalidInput("A chip must be worth at least 1, not {value}.", value=self.value)
        if self.count < 0:
            raise InvalidInput(
                "The set cannot hold {count} chips of {value}.",
                count=str(self.count), value=str(self.value),
            )

    @property
    def hex(self) -> str:
        """The colour as CSS (``#rrggbb``); a colour already written as hex is kept."""
        if self.colour.startswith("#"):
            return self.colour
        return COLOURS.get(self.colour.lower(), "#9e9e9e")


@dataclass(frozen=True, slots=True)
class ChipSet:
    """The chips on the table, smallest first."""

    name: str
    denominations: tuple[Denomination, ...]

    def __post_init__(self) -> None:
        values = [d.value for d in self.denominations]
        if not values:
            raise InvalidInput("The chip set {name} has no chips.", name=repr(self.name))
        if values != sorted(set(values)):
            raise InvalidInput(
                "The chip set {name} must list each chip once, smallest first: {values}.",
                name=repr(self.name), values=str(values),
            )

    @property
    def values(self) -> tuple[Chips, ...]:
        return tuple(d.value for d in self.denominations)

    @property
    def total_value(self) -> Chips:
        """What all the chips of the set are worth together."""
        return sum(d.value * d.count for d in self.denominations)

    def denomination(self, value: Chips) -> Denomination:
        for d in self.denominations:
            if d.value == value:
                return d
        raise InvalidInput("The chip set {name} has no chip of {value}.", name=repr(self.name), value=value)


HOME_SET = ChipSet(
    N_("Home set, 25 to 5,000 (400 chips)"),
    (
        Denomination(25, "green", 120),
        Denomination(100, "black", 120),
        Denomination(500, "purple", 50),
        Denomination(1000, "yellow", 75),
        Denomination(5000, "orange", 35),
    ),
)
"""TDA 6.3's set for ten players on a 25 base: stacks from 5,000 to 25,000."""

CLUB_SET = ChipSet(
    N_("Club set, 5 to 500 (500 chips)"),
    (
        Denomination(5, "red", 150),
        Denomination(25, "green", 150),
        Denomination(100, "black", 100),
        Denomination(500, "purple", 100),
    ),
)

SMALL_SET = ChipSet(
    N_("Small set, 1 to 100 (500 chips)"),
    (
        Denomination(1, "white", 150),
        Denomination(5, "red", 150),
        Denomination(25, "green", 100),
        Denomination(100, "black", 100),
    ),
)

CHIP_SETS: dict[str, ChipSet] = {"home": HOME_SET, "club": CLUB_SET, "small": SMALL_SET}
"""The ready-made chip sets by id, for a form to offer."""


def payable(amount: Chips, values: Iterable[Chips]) -> bool:
    """Whether ``amount`` can be put out exactly with these chips.

    Sets are built so that every chip is a multiple of the smallest, so an
    amount is payable when it is a multiple of the smallest chip in play.

    >>> payable(150, (25, 100)), payable(150, (100, 500)), payable(0, (100,))
    (True, False, True)
    """
    vals = [v for v in values if v > 0]
    if not vals:
        return amount == 0
    return amount % min(vals) == 0


# ---------------------------------------------------------------------------
# The host's own chips: a set as data


MAX_DENOMINATIONS = 10
"""Chip values in one set: more than any case holds."""
MAX_CHIP_COUNT = 100_000
"""Chips of one value a host may own."""
_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def chip_set_to_dict(chip_set: ChipSet) -> dict[str, Any]:
    """The set as :func:`chip_set_from_dict` reads it (and as an event stores it)."""
    return {
        "name": chip_set.name,
        "denominations": [{"value": d.value, "colour": d.colour, "count": d.count} for d in chip_set.denominations],
    }


def chip_set_from_dict(data: Mapping[str, Any]) -> ChipSet:
    """A chip set from its dict, every field checked: the values may come in any order (each
    once), a colour is one of :data:`COLOURS` or ``#rrggbb``.

    >>> chip_set_from_dict({"name": "Mine", "denominations": [
    ...     {"value": 100, "colour": "black", "count": 50}, {"value": 25, "colour": "green", "count": 80}]}).values
    (25, 100)
    >>> chip_set_from_dict({"name": "Mine", "denominations": [{"value": 25, "colour": "gold", "count": 5}]})
    Traceback (most recent call last):
    ...
    engine.errors.InvalidInput: The 25 chip's colour 'gold' is not one of white, red, green, blue, black, purple, yellow, orange, pink, grey, brown (or #rrggbb).
    """
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput("A chip set needs a name.")
    name = " ".join(name.split())
    if len(name) > 80:
        raise InvalidInput("A chip set's name is at most 80 characters, not {count}.", count=len(name))
    rows = data.get("denominations")
    if not isinstance(rows, list) or not rows:
        raise InvalidInput("The chip set {name} has no chips: list at least one value.", name=repr(name))
    if len(rows) > MAX_DENOMINATIONS:
        raise InvalidInput(
            "A chip set has at most {most} chip values, not {count}.", most=MAX_DENOMINATIONS, count=len(rows)
        )
    out: list[Denomination] = []
    for row in rows:
        if not isinstance(row, Mapping):
            raise InvalidInput("Each chip is an object with a value, a colour and a count.")
        value, colour, count = row.get("value"), row.get("colour"), row.get("count")
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_CHIPS:
            raise InvalidInput(
                "A chip's value is a whole number from 1 to {most}, not {value}.",
                most=MAX_CHIPS, value=repr(value),
            )
        if not isinstance(colour, str) or not (colour.lower() in COLOURS or _HEX.fullmatch(colour)):
            raise InvalidInput(
                "The {value} chip's colour {colour} is not one of {colours} (or #rrggbb).",
                value=value, colour=repr(colour), colours=", ".join(COLOURS),
            )
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_CHIP_COUNT:
            raise InvalidInput(
                "The number of {value} chips is a whole number from 0 to {most}, not {count}.",
                value=value, most=MAX_CHIP_COUNT, count=repr(count),
            )
        out.append(Denomination(value, colour.lower(), count))
    out.sort(key=lambda d: d.value)
    for a, b in pairwise(out):
        if a.value == b.value:
            raise InvalidInput(
                "The chip set {name} lists the {value} chip twice.",
                name=repr(name), value=a.value
            )
    return ChipSet(name, tuple(out))
