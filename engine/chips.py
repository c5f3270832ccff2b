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
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Literal, TypeAlias

from engine.cards import Card, new_deck
from engine.errors import N_, InvalidInput, Message, Term
from engine.limits import MAX_CHIPS
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
        out.append(Message("{count} chips = {stack} per player", count=self.chip_count, stack=self.starting_stack))
        return tuple(out)


def _the(chip_set: ChipSet) -> Message:
    """``the Home set, ...`` for a ready-made set, ``the chip set 'Mine'`` for the host's."""
    if chip_set in CHIP_SETS.values():
        return Message("the {name}", name=Term(chip_set.name))
    return Message("the chip set {name}", name=repr(chip_set.name))


def _The(chip_set: ChipSet) -> Message:
    """:func:`_the` at the start of a sentence."""
    if chip_set in CHIP_SETS.values():
        return Message("The {name}", name=Term(chip_set.name))
    return Message("The chip set {name}", name=repr(chip_set.name))


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
        raise InvalidInput("A tournament needs at least one player, not {players}.", players=players)
    if starting_stack < 1:
        raise InvalidInput(
            "The starting stack must be at least 1, not {stack}.",
            stack=starting_stack,
        )
    smallest = chip_set.values[0]
    if starting_stack % smallest:
        raise InvalidInput(
            "A starting stack of {stack} cannot be made with chips of {smallest} and up: "
            "it is not a multiple of {smallest}.",
            stack=starting_stack, smallest=smallest,
        )
    needed = starting_stack * players
    if needed > chip_set.total_value:
        raise InvalidInput(
            "{players} stacks of {stack} need {needed} in chips, but {chip_set} holds only {total}.",
            players=str(players), stack=starting_stack, needed=needed, chip_set=_the(chip_set),
            total=chip_set.total_value,
        )
    usable = [d for d in chip_set.denominations if d.value <= starting_stack and d.count >= players]
    values = [d.value for d in usable]
    limits = [min(d.count // players, starting_stack // d.value) for d in usable]
    if not usable or starting_stack % values[0]:
        raise InvalidInput(
            "{chip_set} has too few small chips for {players} players: "
            "each player needs at least one chip of {smallest}.",
            chip_set=_The(chip_set), players=str(players), smallest=smallest,
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
            "No mix of {chip_set} makes {players} stacks of {stack}: "
            "there are too few chips of the small values.",
            chip_set=_the(chip_set), players=str(players), stack=starting_stack,
        )
    chosen = best[1]
    return StackBreakdown(
        starting_stack,
        players,
        tuple((v, n) for v, n in zip(values, chosen, strict=True) if n),
    )


# ---------------------------------------------------------------------------
# The host's own chips: a set as data, and the plan of a night with it


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


@dataclass(frozen=True, slots=True)
class ChipPlan:
    """What a night takes out of the host's chip box: the starting stacks, the rebuys and the
    add-ons, then each colour-up's bigger chips; and what the box cannot give."""

    chip_set: ChipSet
    starting: StackBreakdown | None
    lines: tuple[str, ...]
    """What the plan uses, in words."""
    shortages: tuple[str, ...]
    """What the chips cannot do, in words (none: the chips are enough)."""
    left: tuple[tuple[Chips, int], ...]
    """The chips still in the box at the end, by value."""
    needed: Chips
    """The most chips in play: every stack, rebuy and add-on."""

    @property
    def ok(self) -> bool:
        return not self.shortages


_HOW_MANY = {
    "starting stack": (N_("{count} starting stack"), N_("{count} starting stacks")),
    "rebuy": (N_("{count} rebuy"), N_("{count} rebuys")),
    "re-entry": (N_("{count} re-entry"), N_("{count} re-entrys")),
    "add-on": (N_("{count} add-on"), N_("{count} add-ons")),
}
"""What :func:`plan` takes out of the box, one or more of it."""


def _plural(n: int, what: str) -> str:
    if what in _HOW_MANY:
        return Message(_HOW_MANY[what][0 if n == 1 else 1], count=str(n))
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def plan(
    chip_set: ChipSet,
    starting_stack: Chips,
    players: int,
    extras: Iterable[tuple[str, int, Chips]] = (),
    colour_ups: Iterable[tuple[int, Chips, Chips]] = (),
    blinds: tuple[Chips, ...] = (),
) -> ChipPlan:
    """Take a night's chips out of ``chip_set``: ``players`` starting stacks, then each of
    ``extras`` (``(what, how many, chips each)``: rebuys, add-ons, re-entries), then each
    colour-up (``(after level, removed, into)``, as ``engine.structure.colour_up_steps`` lists
    them), where every removed chip handed out comes back to the box and is changed into the
    bigger chip (rounded up: the race can only add). ``blinds`` (level 1's small blind, big
    blind and ante) must be payable exactly with the chips of a starting stack.

    >>> p = plan(HOME_SET, 10_000, 10, [("rebuy", 10, 10_000)], [(4, 25, 100)])
    >>> p.ok, p.needed
    (True, 200000)
    >>> plan(SMALL_SET, 1500, 8, colour_ups=[(4, 1, 5), (8, 5, 25), (12, 25, 100)]).shortages[0]
    'At the break after level 12 the 25 chips handed out (96 chips, 2,400) are changed into bigger chips, but the box holds only 400 in chips of 100 and up by then.'
    """
    box = {d.value: d.count for d in chip_set.denominations}
    colours = {d.value: d.colour for d in chip_set.denominations}
    out = dict.fromkeys(box, 0)
    lines: list[str] = []
    shortages: list[str] = []

    def take(what: str, n: int, chips: Chips) -> StackBreakdown | None:
        if what == "starting stack":  # the box is still full: the set itself, named as the host knows it
            rest = chip_set
        else:
            rest = ChipSet("chips left in the box", tuple(Denomination(v, colours[v], box[v]) for v in sorted(box)))
        try:
            breakdown = suggest_stack(rest, chips, n)
        except InvalidInput as error:
            left = sum(v * c for v, c in box.items())
            if n * chips > left:
                shortages.append(Message(
                    "{stacks} of {chips} need {needed} in chips, but the box holds only {left} by then.",
                    stacks=_plural(n, what), chips=chips, needed=n * chips, left=left,
                ))
            elif what == "starting stack":
                shortages.append(Message(error.message, **error.values))
            else:
                shortages.append(Message(
                    "The chips left after the starting stacks cannot make {stacks} of {chips}: "
                    "there are too few chips of the small values.",
                    stacks=_plural(n, what), chips=chips,
                ))
            return None
        for v, c in breakdown.chips:
            box[v] -= c * n
            out[v] += c * n
        mix = [Message("{count} × {value}", count=str(c), value=v) for v, c in breakdown.chips]
        lines.append(Message(
            "{stacks} of {chips}: {mix} each ({count} chips).",
            stacks=_plural(n, what), chips=chips, mix=mix, count=str(breakdown.chip_count),
        ))
        return breakdown

    starting = take("starting stack", players, starting_stack) if players > 0 else None
    if starting is not None and blinds:
        smallest = starting.chips[0][0]
        if not all(payable(a, (smallest,)) for a in blinds if a):
            amounts: list[int | Message] = [a for a in blinds if a]
            paid = amounts[0]
            for a in amounts[1:]:
                paid = Message("{earlier}/{later}", earlier=paid, later=a)
            shortages.append(Message(
                "The starting stacks' smallest chip is {smallest}: the level 1 blinds ({blinds}) cannot be "
                "paid exactly; the set has too few small chips for this many players.",
                smallest=smallest, blinds=paid,
            ))
    needed = starting_stack * players
    for what, n, chips in extras:
        if n > 0 and chips > 0:
            if starting is not None:  # what is left once the starting stacks are out
                take(what, n, chips)
            needed += n * chips
    for after, removed, into in colour_ups:
        if removed not in box or into not in box or not out[removed]:
            continue
        handed, value = out[removed], out[removed] * removed
        change = _exchange(box, into, -(-value // into) * into)
        if change is None:
            bigger = sum(v * c for v, c in box.items() if v >= into)
            shortages.append(Message(
                "At the break after level {level} the {removed} chips handed out ({handed} chips, {value}) "
                "are changed into bigger chips, but the box holds only {bigger} in chips of {into} and up by then.",
                level=str(after), removed=removed, handed=str(handed), value=value, bigger=bigger, into=into,
            ))
            continue
        for v, c in change:
            box[v] -= c
            out[v] += c
        box[removed] += handed
        out[removed] = 0
        given: Message | None = None
        for v, c in change:
            each = Message("{count} of {value}", count=str(c), value=v)
            given = each if given is None else Message("{earlier} and {later}", earlier=given, later=each)
        lines.append(Message(
            "At the break after level {level} the {removed} chips come back ({handed} chips) and {mix} go out.",
            level=str(after), removed=removed, handed=str(handed), mix=given,
        ))
    lines.append(Message(
        "Chips in play at most {needed} of the {total} you own.", needed=needed, total=chip_set.total_value,
    ))
    return ChipPlan(
        chip_set, starting, tuple(lines), tuple(shortages),
        tuple((v, box[v]) for v in sorted(box)), needed,
    )


def _exchange(box: Mapping[Chips, int], into: Chips, amount: Chips) -> list[tuple[Chips, int]] | None:
    """Chips of ``into`` and up from ``box`` that make ``amount``, as many of ``into`` as
    can be (the race's chip), the rest in the fewest bigger chips; None when the box cannot."""
    bigger = sorted((v for v in box if v > into), reverse=True)
    if sum(v * c for v, c in box.items() if v >= into) < amount:
        return None
    for n in range(min(box.get(into, 0), amount // into), -1, -1):
        rest, mix = amount - n * into, [(into, n)] if n else []
        for v in bigger:
            take = min(box[v], rest // v)
            if take:
                mix.append((v, take))
                rest -= take * v
        if rest == 0:
            return sorted(mix)
    return None


MIN_BIG_BLINDS = 20
"""The shallowest starting stack worth suggesting or leaving unsaid, in level 1's big blinds
(TDA guidance 6.4: "starting depth is typically 50–100 BB")."""

_ROUND = (10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 80)


def round_stacks(smallest: Chips, most: Chips) -> list[Chips]:
    """Round starting stacks (10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 80 times a power of ten)
    that the smallest chip makes, from 20 of it up to ``most``, smallest first.

    >>> round_stacks(25, 1000)
    [500, 600, 750, 800, 1000]
    """
    out: set[Chips] = set()
    power = 1
    while power <= max(most, 1):
        for m in _ROUND:
            stack = m * power // 10
            if stack and stack % smallest == 0 and 20 * smallest <= stack <= most:
                out.add(stack)
        power *= 10
    return sorted(out)


def suggest_starting_stack(
    chip_set: ChipSet,
    players: int,
    extras: Iterable[tuple[str, int, float]] = (),
    colour_ups: Iterable[tuple[int, Chips, Chips]] = (),
    blinds: tuple[Chips, ...] = (),
) -> Chips | None:
    """The largest round starting stack the set makes for ``players`` with room for
    ``extras`` (``(what, how many, chips each as a share of the starting stack)``: a rebuy of
    a starting stack is 1.0), the colour-ups' bigger chips, and level 1's ``blinds`` payable
    from a stack and at least :data:`MIN_BIG_BLINDS` of its big blind; None when there is none.

    >>> suggest_starting_stack(HOME_SET, 10)
    25000
    >>> suggest_starting_stack(HOME_SET, 10, [("rebuy", 10, 1.0)], [(4, 25, 100)])
    12000
    """
    extra = list(extras)
    steps = list(colour_ups)
    if players < 1:
        return None
    deep_enough = MIN_BIG_BLINDS * max(blinds[:2], default=0)
    for stack in reversed(round_stacks(chip_set.values[0], chip_set.total_value // players)):
        if stack < deep_enough:
            break
        wanted = [(what, n, round(stack * share)) for what, n, share in extra]
        if plan(chip_set, stack, players, wanted, steps, blinds).ok:
            return stack
    return None


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
