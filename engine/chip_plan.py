"""Starting stacks and the plan of a night with the host's chips.

:func:`suggest_stack` shares a chip set out into the players' starting stacks; :func:`plan`
takes a whole night out of the host's chip box (the starting stacks, the rebuys and
add-ons, then each colour-up's bigger chips) and says what the box cannot give;
:func:`suggest_starting_stack` finds the largest round starting stack a set makes for a night.

>>> from engine.chip_sets import HOME_SET
>>> suggest_stack(HOME_SET, 10_000, 10).chips
((25, 8), (100, 8), (500, 4), (1000, 7))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.chip_sets import CHIP_SETS, Chips, ChipSet, Denomination, payable
from engine.errors import N_, InvalidInput, Message, Term
from engine.text import chips as chips_text

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

    >>> from engine.chip_sets import HOME_SET
    >>> suggest_stack(HOME_SET, 10_000, 10).lines[-1]
    '27 chips = 10,000 per player'
    >>> suggest_stack(HOME_SET, 1010, 4)
    Traceback (most recent call last):
    ...
    engine.errors.InvalidInput: A starting stack of 1,010 cannot be made with chips of 25 and up: it is not a multiple of 25.
    """
    usable = _usable(chip_set, starting_stack, players)
    values = [d.value for d in usable]
    limits = [min(d.count // players, starting_stack // d.value) for d in usable]
    chosen = _best_mix(values, limits, starting_stack)
    if chosen is None:
        raise InvalidInput(
            "No mix of {chip_set} makes {players} stacks of {stack}: "
            "there are too few chips of the small values.",
            chip_set=_the(chip_set), players=str(players), stack=starting_stack,
        )
    return StackBreakdown(
        starting_stack,
        players,
        tuple((v, n) for v, n in zip(values, chosen, strict=True) if n),
    )


def _usable(chip_set: ChipSet, starting_stack: Chips, players: int) -> list[Denomination]:
    """The chips of the set that can go into ``players`` stacks of ``starting_stack`` (small
    enough, enough of them for everyone); refuses stacks the set cannot make at all."""
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
    if not usable or starting_stack % usable[0].value:
        raise InvalidInput(
            "{chip_set} has too few small chips for {players} players: "
            "each player needs at least one chip of {smallest}.",
            chip_set=_The(chip_set), players=str(players), smallest=smallest,
        )
    return usable


def _best_mix(values: list[Chips], limits: list[int], starting_stack: Chips) -> list[int] | None:
    """How many chips of each value make ``starting_stack`` best: every chip that makes change
    (worth at most an eighth of the stack) at least 8 times for the smallest and 4 for the
    others, as evenly as can be, then the most small chips, then the fewest chips; at most
    ``limits`` of each value. None when no mix makes the stack."""
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
    return None if best is None else best[1]


# ---------------------------------------------------------------------------
# The plan of a night with the host's chips


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

    >>> from engine.chip_sets import HOME_SET, SMALL_SET
    >>> p = plan(HOME_SET, 10_000, 10, [("rebuy", 10, 10_000)], [(4, 25, 100)])
    >>> p.ok, p.needed
    (True, 200000)
    >>> plan(SMALL_SET, 1500, 8, colour_ups=[(4, 1, 5), (8, 5, 25), (12, 25, 100)]).shortages[0]
    'At the break after level 12 the 25 chips handed out (96 chips, 2,400) are changed into bigger chips, but the box holds only 400 in chips of 100 and up by then.'
    """
    box = _Box(chip_set)
    starting = box.take("starting stack", players, starting_stack) if players > 0 else None
    if starting is not None and blinds:
        box.check_blinds(starting, blinds)
    needed = starting_stack * players
    for what, n, chips in extras:
        if n > 0 and chips > 0:
            if starting is not None:  # what is left once the starting stacks are out
                box.take(what, n, chips)
            needed += n * chips
    for after, removed, into in colour_ups:
        box.colour_up(after, removed, into)
    box.lines.append(Message(
        "Chips in play at most {needed} of the {total} you own.", needed=needed, total=chip_set.total_value,
    ))
    return ChipPlan(
        chip_set, starting, tuple(box.lines), tuple(box.shortages),
        tuple((v, box.box[v]) for v in sorted(box.box)), needed,
    )


class _Box:
    """The host's chip box while :func:`plan` takes the night's chips out of it: what is in
    it, what is out on the tables, and what the plan says so far."""

    def __init__(self, chip_set: ChipSet) -> None:
        self.chip_set = chip_set
        self.box = {d.value: d.count for d in chip_set.denominations}
        """Chips in the box, by value."""
        self.colours = {d.value: d.colour for d in chip_set.denominations}
        self.out = dict.fromkeys(self.box, 0)
        """Chips handed out, by value."""
        self.lines: list[str] = []
        self.shortages: list[str] = []

    def take(self, what: str, n: int, chips: Chips) -> StackBreakdown | None:
        """Hand out ``n`` stacks of ``chips`` (``what``: starting stacks, rebuys...), or say why
        the box cannot."""
        box = self.box
        if what == "starting stack":  # the box is still full: the set itself, named as the host knows it
            rest = self.chip_set
        else:
            rest = ChipSet("chips left in the box", tuple(Denomination(v, self.colours[v], box[v]) for v in sorted(box)))
        try:
            breakdown = suggest_stack(rest, chips, n)
        except InvalidInput as error:
            left = sum(v * c for v, c in box.items())
            if n * chips > left:
                self.shortages.append(Message(
                    "{stacks} of {chips} need {needed} in chips, but the box holds only {left} by then.",
                    stacks=_plural(n, what), chips=chips, needed=n * chips, left=left,
                ))
            elif what == "starting stack":
                self.shortages.append(Message(error.message, **error.values))
            else:
                self.shortages.append(Message(
                    "The chips left after the starting stacks cannot make {stacks} of {chips}: "
                    "there are too few chips of the small values.",
                    stacks=_plural(n, what), chips=chips,
                ))
            return None
        for v, c in breakdown.chips:
            box[v] -= c * n
            self.out[v] += c * n
        mix = [Message("{count} × {value}", count=str(c), value=v) for v, c in breakdown.chips]
        self.lines.append(Message(
            "{stacks} of {chips}: {mix} each ({count} chips).",
            stacks=_plural(n, what), chips=chips, mix=mix, count=str(breakdown.chip_count),
        ))
        return breakdown

    def check_blinds(self, starting: StackBreakdown, blinds: tuple[Chips, ...]) -> None:
        """Level 1's blinds must be payable with the starting stacks' smallest chip."""
        smallest = starting.chips[0][0]
        if not all(payable(a, (smallest,)) for a in blinds if a):
            amounts: list[int | Message] = [a for a in blinds if a]
            paid = amounts[0]
            for a in amounts[1:]:
                paid = Message("{earlier}/{later}", earlier=paid, later=a)
            self.shortages.append(Message(
                "The starting stacks' smallest chip is {smallest}: the level 1 blinds ({blinds}) cannot be "
                "paid exactly; the set has too few small chips for this many players.",
                smallest=smallest, blinds=paid,
            ))

    def colour_up(self, after: int, removed: Chips, into: Chips) -> None:
        """The ``removed`` chips handed out come back at the break after level ``after``, and
        chips of ``into`` and up go out for them."""
        box, out = self.box, self.out
        if removed not in box or into not in box or not out[removed]:
            return
        handed, value = out[removed], out[removed] * removed
        change = _exchange(box, into, -(-value // into) * into)
        if change is None:
            bigger = sum(v * c for v, c in box.items() if v >= into)
            self.shortages.append(Message(
                "At the break after level {level} the {removed} chips handed out ({handed} chips, {value}) "
                "are changed into bigger chips, but the box holds only {bigger} in chips of {into} and up by then.",
                level=str(after), removed=removed, handed=str(handed), value=value, bigger=bigger, into=into,
            ))
            return
        for v, c in change:
            box[v] -= c
            out[v] += c
        box[removed] += handed
        out[removed] = 0
        given: Message | None = None
        for v, c in change:
            each = Message("{count} of {value}", count=str(c), value=v)
            given = each if given is None else Message("{earlier} and {later}", earlier=given, later=each)
        self.lines.append(Message(
            "At the break after level {level} the {removed} chips come back ({handed} chips) and {mix} go out.",
            level=str(after), removed=removed, handed=str(handed), mix=given,
        ))


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

    >>> from engine.chip_sets import HOME_SET
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
