"""Physical chips: chip sets, the starting-stack breakdown, and the colour-up chip race.

A colour-up removes the smallest chip from play at a break (TDA 24, RRoP 15):
each player's chips of it are changed up into the next chip, and the odd chips
left over are raced for with cards, at most one new chip per player.

>>> HOME_SET.values
(25, 100, 500, 1000, 5000)
>>> HOME_SET.denomination(1000).hex
'#f9a825'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias

from engine.cards import Card, new_deck
from engine.errors import InvalidInput
from engine.text import chips as chips_text

Seat: TypeAlias = int
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
            raise InvalidInput(f"A chip must be worth at least 1, not {self.value}.")
        if self.count < 0:
            raise InvalidInput(f"The set cannot hold {self.count} chips of {self.value}.")

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
            raise InvalidInput(f"The chip set {self.name!r} has no chips.")
        if values != sorted(set(values)):
            raise InvalidInput(
                f"The chip set {self.name!r} must list each chip once, smallest first: {values}."
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
        raise InvalidInput(f"The chip set {self.name!r} has no chip of {chips_text(value)}.")


HOME_SET = ChipSet(
    "Home set, 25 to 5,000 (400 chips)",
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
    "Club set, 5 to 500 (500 chips)",
    (
        Denomination(5, "red", 150),
        Denomination(25, "green", 150),
        Denomination(100, "black", 100),
        Denomination(500, "purple", 100),
    ),
)

SMALL_SET = ChipSet(
    "Small set, 1 to 100 (500 chips)",
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
# Starting stacks


@dataclass(frozen=True, slots=True)
class StackBreakdown:
    """How many chips of each value every player gets."""

    starting_stack: Chips
    players: int
    chips: tuple[tuple[Chips, int], ...]
    """``(value, count)`` per player, smallest chip first, counts above zero only."""

    @property
    def chip_count(self) -> int:
        return sum(n for _, n in self.chips)

    @property
    def lines(self) -> tuple[str, ...]:
        """``8 × 25 = 200`` for each chip, then the total."""
        out = [f"{n} × {chips_text(v)} = {chips_text(n * v)}" for v, n in self.chips]
        out.append(f"{self.chip_count} chips = {chips_text(self.starting_stack)} per player")
        return tuple(out)


def suggest_stack(chip_set: ChipSet, starting_stack: Chips, players: int) -> StackBreakdown:
    """Suggest the chips for each player's starting stack, or say why the set cannot do it.

    The suggestion gives each player at least 8 of the smallest chip and 4 of
    every other chip small enough to make change (worth at most an eighth of the
    stack) when the set allows, as evenly as it can, and never more chips than
    the set holds for ``players`` players.

    >>> suggest_stack(HOME_SET, 10_000, 10).lines[-1]
    '27 chips = 10,000 per player'
    >>> suggest_stack(HOME_SET, 1010, 4)
    Traceback (most recent call last):
    ...
    engine.errors.InvalidInput: A starting stack of 1,010 cannot be made with chips of 25 and up: it is not a multiple of 25.
    """
    if players < 1:
        raise InvalidInput(f"A tournament needs at least one player, not {players}.")
    if starting_stack < 1:
        raise InvalidInput(f"The starting stack must be at least 1, not {starting_stack}.")
    smallest = chip_set.values[0]
    if starting_stack % smallest:
        raise InvalidInput(
            f"A starting stack of {chips_text(starting_stack)} cannot be made with chips of "
            f"{chips_text(smallest)} and up: it is not a multiple of {chips_text(smallest)}."
        )
    needed = starting_stack * players
    if needed > chip_set.total_value:
        raise InvalidInput(
            f"{players} stacks of {chips_text(starting_stack)} need {chips_text(needed)} in chips, "
            f"but the {chip_set.name} holds only {chips_text(chip_set.total_value)}."
        )
    usable = [d for d in chip_set.denominations if d.value <= starting_stack and d.count >= players]
    values = [d.value for d in usable]
    limits = [min(d.count // players, starting_stack // d.value) for d in usable]
    if not usable or starting_stack % values[0]:
        raise InvalidInput(
            f"The {chip_set.name} has too few small chips for {players} players: "
            f"each player needs at least one chip of {chips_text(smallest)}."
        )
    change = [v * 8 <= starting_stack for v in values]
    cap = 30  # never suggest more than 30 chips of one value: nobody wants to stack them
    best: tuple[tuple[int, int, int, int], list[int]] | None = None
    counts = [0] * len(values)

    def score(cs: list[int]) -> tuple[int, int, int, int]:
        missing = sum(
            1
            for i, (c, ch, lim) in enumerate(zip(cs, change, limits, strict=True))
            if ch and c < min(8 if i == 0 else 4, lim)
        )
        used = [c for c, ch in zip(cs, change, strict=True) if ch] or cs
        return (missing, max(used) - min(used), -cs[0], sum(cs))

    def search(i: int, left: int) -> None:
        nonlocal best
        if i == 0:
            n, rest = divmod(left, values[0])
            if rest or n > limits[0]:
                return
            counts[0] = n
            s = score(counts)
            if best is None or s < best[0]:
                best = (s, list(counts))
            return
        for n in range(min(limits[i], cap, left // values[i]), -1, -1):
            counts[i] = n
            search(i - 1, left - n * values[i])
        counts[i] = 0

    search(len(values) - 1, starting_stack)
    if best is None:
        raise InvalidInput(
            f"No mix of the {chip_set.name} makes {players} stacks of {chips_text(starting_stack)}: "
            "there are too few chips of the small values."
        )
    chosen = best[1]
    return StackBreakdown(
        starting_stack,
        players,
        tuple((v, n) for v, n in zip(values, chosen, strict=True) if n),
    )


# ---------------------------------------------------------------------------
# Colour-up


RacedOutAward: TypeAlias = Literal["extra_chip", "first_chip"]
"""What a player who holds only odd chips and loses the race gets.

``extra_chip`` (TDA 24-A, the default): one chip of the smallest value still in
play, on top of the chips raced for. ``first_chip`` (RRoP 15): that player gets
one of the raced-for chips before anyone else (an extra one if none is left).
"""


@dataclass(frozen=True, slots=True)
class ColourUp:
    """The result of removing one chip value from play."""

    removed: Chips
    into: Chips
    """The smallest chip still in play, which the removed chips become."""
    before: tuple[tuple[Seat, Chips], ...]
    stacks: tuple[tuple[Seat, Chips], ...]
    """Each seat's stack after the colour-up, by seat."""
    odd_chips: tuple[tuple[Seat, int], ...]
    """How many removed chips each seat had left over after changing up whole units."""
    cards: tuple[tuple[Seat, tuple[Card, ...]], ...]
    """The cards dealt, one per odd chip, seat by seat from the lowest seat."""
    winners: tuple[Seat, ...]
    """Seats that won a chip in the race, in the order they won it."""
    raced_out: tuple[Seat, ...]
    """Seats given a chip because they would otherwise have been left with nothing."""
    chips_raced: int
    """How many chips of ``into`` the odd chips were worth, rounded half up."""
    lines: tuple[str, ...]

    @property
    def total_before(self) -> Chips:
        return sum(s for _, s in self.before)

    @property
    def total_after(self) -> Chips:
        return sum(s for _, s in self.stacks)

    @property
    def change(self) -> Chips:
        """How much the chips in play changed (the rounding of the race)."""
        return self.total_after - self.total_before

    def stack(self, seat: Seat) -> Chips:
        return dict(self.stacks)[seat]


def colour_up(
    stacks: Mapping[Seat, Chips],
    removed: Chips,
    into: Chips,
    rng: random.Random,
    raced_out_award: RacedOutAward = "extra_chip",
) -> ColourUp:
    """Remove the ``removed`` chips from play, changing them up into ``into`` chips.

    ``stacks`` holds every seat's chips at one table (each table races on its
    own; seats with nothing are ignored). Whole
    units are changed directly; the odd chips left over are raced for: one card
    per odd chip from ``rng``'s shuffled deck, dealt seat by seat from the
    lowest seat; the highest card (rank, then spades, hearts, diamonds, clubs)
    wins the first chip, at most one chip per player. The number of chips raced
    for is the odd chips' total value in ``into`` chips, rounded half up. A player
    whose only chips were odd ones is never raced out.

    >>> r = colour_up({1: 1075, 2: 1050, 3: 900}, 25, 100, random.Random(1))
    >>> r.chips_raced, r.change
    (1, -25)
    """
    if removed < 1 or into <= removed or into % removed:
        raise InvalidInput(
            f"Chips of {chips_text(removed)} cannot be coloured up into chips of {chips_text(into)}: "
            f"the new chip must be a larger multiple of the old one."
        )
    seats = sorted(s for s, v in stacks.items() if v > 0)
    for s in seats:
        if stacks[s] % removed:
            raise InvalidInput(
                f"Seat {s}'s stack of {chips_text(stacks[s])} cannot be made with chips of "
                f"{chips_text(removed)} and up."
            )
    kept = {s: stacks[s] - stacks[s] % into for s in seats}
    odd = {s: (stacks[s] % into) // removed for s in seats}
    racers = [s for s in seats if odd[s]]
    odd_value = sum(odd[s] for s in racers) * removed
    raced = (2 * odd_value + into) // (2 * into)
    lines = [f"Colour-up: the {chips_text(removed)} chips become {chips_text(into)} chips."]
    if not racers:
        lines.append("Nobody has odd chips left over: there is no race.")
    else:
        lines.append(
            f"The odd chips total {chips_text(odd_value)}: {raced} chip{'s' if raced != 1 else ''} "
            f"of {chips_text(into)} {'are' if raced != 1 else 'is'} raced for."
        )
    # Deal one card per odd chip, a fresh deck whenever one runs out.
    deck: list[Card] = []
    dealt: dict[Seat, list[Card]] = {}
    for s in racers:
        dealt[s] = []
        for _ in range(odd[s]):
            if not deck:
                deck = new_deck(rng)
                deck.reverse()
            dealt[s].append(deck.pop())
    for s in racers:
        best = max(dealt[s])
        lines.append(
            f"Seat {s} has {odd[s]} odd chip{'s' if odd[s] != 1 else ''} "
            f"({chips_text(odd[s] * removed)}): dealt {' '.join(map(str, dealt[s]))}, best {best.name}."
        )
    # Highest card first; equal cards (several decks) go to the lower seat.
    order = sorted(racers, key=lambda s: (max(dealt[s]), -s), reverse=True)
    broke = [s for s in racers if kept[s] == 0]
    winners: list[Seat] = []
    raced_out: list[Seat] = []
    left = raced
    if raced_out_award == "first_chip":
        for s in broke:
            raced_out.append(s)
            lines.append(
                f"Seat {s} had only odd chips: given a {chips_text(into)} chip before the race, "
                "so nobody is raced out."
            )
        left = max(0, left - len(broke))
        order = [s for s in order if s not in broke]
    for s in order:
        if left == 0:
            break
        winners.append(s)
        left -= 1
        lines.append(f"Seat {s} wins a {chips_text(into)} chip with the {max(dealt[s]).name}.")
    if raced_out_award == "extra_chip":
        for s in broke:
            if s not in winners:
                raced_out.append(s)
                lines.append(
                    f"Seat {s} lost the race with no other chips: given one {chips_text(into)} chip, "
                    "nobody is raced out."
                )
    new = {s: kept[s] + into * ((s in winners) + (s in raced_out)) for s in seats}
    before = sum(stacks[s] for s in seats)
    after = sum(new.values())
    diff = after - before
    lines.append(
        f"Chips in play {'rise' if diff > 0 else 'fall' if diff < 0 else 'stay'} "
        + (f"by {chips_text(abs(diff))}: " if diff else "the same: ")
        + f"{chips_text(before)} before, {chips_text(after)} after."
    )
    return ColourUp(
        removed=removed,
        into=into,
        before=tuple((s, stacks[s]) for s in seats),
        stacks=tuple((s, new[s]) for s in seats),
        odd_chips=tuple((s, odd[s]) for s in racers),
        cards=tuple((s, tuple(dealt[s])) for s in racers),
        winners=tuple(winners),
        raced_out=tuple(raced_out),
        chips_raced=raced,
        lines=tuple(lines),
    )
