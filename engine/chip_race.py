"""The colour-up chip race: removing the smallest chip from play at a break.

A colour-up removes the smallest chip from play at a break (TDA 24, RRoP 15):
each player's chips of it are changed up into the next chip, and the odd chips
left over are raced for with cards, at most one new chip per player.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias

from engine.cards import Card, new_deck
from engine.errors import InvalidInput
from engine.text import chips as chips_text

Seat: TypeAlias = int
Chips: TypeAlias = int


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
    seats = _seats_to_colour_up(stacks, removed, into)
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
    dealt = _deal_race_cards(racers, odd, rng)
    for s in racers:
        best = max(dealt[s])
        lines.append(
            f"Seat {s} has {odd[s]} odd chip{'s' if odd[s] != 1 else ''} "
            f"({chips_text(odd[s] * removed)}): dealt {' '.join(map(str, dealt[s]))}, best {best.name}."
        )
    broke = [s for s in racers if kept[s] == 0]
    winners, raced_out = _race(racers, dealt, broke, raced, into, raced_out_award, lines)
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


def _seats_to_colour_up(stacks: Mapping[Seat, Chips], removed: Chips, into: Chips) -> list[Seat]:
    """The seats with chips, lowest first; refuses a colour-up that cannot be made."""
    if removed < 1 or into <= removed or into % removed:
        raise InvalidInput(
            "Chips of {removed} cannot be coloured up into chips of {into}: "
            "the new chip must be a larger multiple of the old one.",
            removed=removed, into=into,
        )
    seats = sorted(s for s, v in stacks.items() if v > 0)
    for s in seats:
        if stacks[s] % removed:
            raise InvalidInput(
                "Seat {seat}'s stack of {stack} cannot be made with chips of {removed} and up.",
                seat=s, stack=stacks[s], removed=removed,
            )
    return seats


def _deal_race_cards(racers: list[Seat], odd: Mapping[Seat, int], rng: random.Random) -> dict[Seat, list[Card]]:
    """One card per odd chip, seat by seat from the lowest, a fresh deck whenever one runs out."""
    deck: list[Card] = []
    dealt: dict[Seat, list[Card]] = {}
    for s in racers:
        dealt[s] = []
        for _ in range(odd[s]):
            if not deck:
                deck = new_deck(rng)
                deck.reverse()
            dealt[s].append(deck.pop())
    return dealt


def _race(
    racers: list[Seat],
    dealt: Mapping[Seat, list[Card]],
    broke: list[Seat],
    raced: int,
    into: Chips,
    raced_out_award: RacedOutAward,
    lines: list[str],
) -> tuple[list[Seat], list[Seat]]:
    """The race: the ``raced`` chips to the highest cards, one each, and a chip for the
    ``broke`` players who would be raced out; who won a chip and who was given one (the
    sentences said go on ``lines``)."""
    # Highest card first; equal cards (several decks) go to the lower seat.
    order = sorted(racers, key=lambda s: (max(dealt[s]), -s), reverse=True)
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
    return winners, raced_out
