"""Blind structures: levels, breaks with their colour-ups, the presets, validation.

Levels are numbered from 1, breaks do not count. A structure is either timed
(every level has ``minutes``) or hand-counted (every level has ``hands``).

>>> s = sit_and_go(1000)
>>> describe_level(s.level(1), 1), describe_level(s.level(11), 11)
('Level 1 · 10/20', 'Level 11 · 1,000/2,000')
>>> s.level(12).big_blind
4000
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeAlias

from engine.chips import CLUB_SET, HOME_SET, MIN_BIG_BLINDS, ChipSet, payable
from engine.errors import N_, InvalidInput, Message, Term
from engine.text import chips as chips_text

Chips: TypeAlias = int
MAX_DOUBLINGS = 1000
"""How far past its list a doubling structure goes (its blinds then have about 300 digits)."""
AnteKind: TypeAlias = Literal["big_blind", "per_player"]


@dataclass(frozen=True, slots=True)
class Level:
    """One blind level; it lasts either ``minutes`` or ``hands`` (exactly one of them)."""

    small_blind: Chips
    big_blind: Chips
    ante: Chips = 0
    minutes: int | None = None
    hands: int | None = None

    @property
    def seconds(self) -> int | None:
        return None if self.minutes is None else self.minutes * 60


@dataclass(frozen=True, slots=True)
class Break:
    """A pause between levels; ``colour_up`` lists the chip values removed from play at it."""

    minutes: int
    colour_up: tuple[Chips, ...] = ()

    @property
    def seconds(self) -> int:
        return self.minutes * 60


Item: TypeAlias = Level | Break


@dataclass(frozen=True, slots=True)
class Structure:
    """A whole blind structure.

    ``repeat_doubling``: past the listed levels the blinds (and ante) double at
    every level, each as long as the last listed one; otherwise the last level
    simply goes on. ``denominations`` are the chip values in play at the start
    (empty when the game is played without physical chips), used to check that
    every blind can be paid. ``ante_kind`` says who pays the ante: the big blind
    for the table (TDA RP-11, the default) or every player.
    """

    name: str
    items: tuple[Item, ...]
    starting_stack: Chips
    hand_cap: int | None = None
    repeat_doubling: bool = False
    denominations: tuple[Chips, ...] = ()
    ante_kind: AnteKind = "big_blind"
    _levels: tuple[Level, ...] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "_levels", tuple(i for i in self.items if isinstance(i, Level))
        )
        object.__setattr__(
            self,
            "_hash",
            hash((self.name, self.items, self.starting_stack, self.hand_cap, self.repeat_doubling,
                  self.denominations, self.ante_kind)),
        )

    def __hash__(self) -> int:
        # Computed once: the clock looks its plan up by structure on every read.
        return self._hash

    @property
    def levels(self) -> tuple[Level, ...]:
        """The listed levels, in order (level ``n`` is ``levels[n - 1]``)."""
        return self._levels

    @property
    def level_count(self) -> int:
        return len(self._levels)

    @property
    def hand_counted(self) -> bool:
        """Whether levels are counted in hands (the sit-and-go) rather than minutes."""
        return bool(self._levels) and self._levels[0].hands is not None

    def level(self, number: int) -> Level:
        """Level ``number`` (from 1), also past the listed levels.

        Past the end the blinds double at every level with ``repeat_doubling``,
        otherwise the last level continues.
        """
        if number < 1:
            raise InvalidInput("There is no level {level}: levels are numbered from 1.", level=number)
        if not self._levels:
            raise InvalidInput("The structure {name} has no levels.", name=repr(self.name))
        if number <= len(self._levels):
            return self._levels[number - 1]
        last = self._levels[-1]
        if not self.repeat_doubling:
            return last
        if number > len(self._levels) + MAX_DOUBLINGS:
            raise InvalidInput(
                "Level {level} is out of reach: the blinds stop doubling "
                "{most} levels after the last listed level.", level=number, most=MAX_DOUBLINGS,
            )
        k = 1 << (number - len(self._levels))
        return replace(
            last, small_blind=last.small_blind * k, big_blind=last.big_blind * k, ante=last.ante * k
        )

    def continues_last_level(self, number: int) -> bool:
        """Whether level ``number`` is past the end of a structure whose last level goes on."""
        return number > len(self._levels) and not self.repeat_doubling

    def break_after(self, number: int) -> Break | None:
        """The break right after level ``number``, if there is one."""
        seen = 0
        for i, item in enumerate(self.items):
            if isinstance(item, Level):
                seen += 1
                if seen == number:
                    nxt = self.items[i + 1] if i + 1 < len(self.items) else None
                    return nxt if isinstance(nxt, Break) else None
        return None

    def breaks(self) -> Iterator[tuple[int, Break]]:
        """Each break with the number of the level it follows."""
        seen = 0
        for item in self.items:
            if isinstance(item, Level):
                seen += 1
            else:
                yield seen, item


# ---------------------------------------------------------------------------
# Text


def describe_level(level: Level, number: int) -> str:
    """``Level 5 · 100/200 · ante 200``.

    >>> describe_level(Level(100, 200, 200, minutes=20), 5)
    'Level 5 · 100/200 · ante 200'
    """
    if level.ante:
        return Message("Level {level} · {small}/{big} · ante {ante}", level=number, small=level.small_blind,
                       big=level.big_blind, ante=level.ante)
    return Message("Level {level} · {small}/{big}", level=number, small=level.small_blind, big=level.big_blind)


def describe_break(brk: Break) -> str:
    """``Break · 10 min · colour up the 25 chips``.

    >>> describe_break(Break(15, (25, 100)))
    'Break · 15 min · colour up the 25 and 100 chips'
    """
    if brk.colour_up:
        return Message("Break · {minutes} min · colour up the {chips} chips", minutes=brk.minutes,
                       chips=_and(brk.colour_up))
    return Message("Break · {minutes} min", minutes=brk.minutes)


def _break_words(brk: Break) -> Message:
    """``15 min · colour up the 25 chips``: a break without its name, for the log."""
    if brk.colour_up:
        return Message("{minutes} min · colour up the {chips} chips", minutes=brk.minutes, chips=_and(brk.colour_up))
    return Message("{minutes} min", minutes=brk.minutes)


def _and(values: Iterator[int] | list[int] | tuple[int, ...]) -> int | Message:
    vs = list(values)
    return vs[0] if len(vs) == 1 else Message("{items} and {last}", items=vs[:-1], last=vs[-1])


def _sentences(found: Sequence[str]) -> str:
    """Several sentences as one message, each still said in the reader's language."""
    if len(found) == 1:
        return found[0]
    return Message("{first} {rest}", first=found[0], rest=_sentences(found[1:]))



# ---------------------------------------------------------------------------
# Validation


def problems(structure: Structure) -> list[str]:
    """Everything that makes ``structure`` unplayable, one sentence each (empty when fine)."""
    out: list[str] = []
    if structure.starting_stack < 1:
        out.append(Message("The starting stack must be at least 1, not {stack}.", stack=structure.starting_stack))
    if structure.hand_cap is not None and structure.hand_cap < 1:
        out.append(Message("The hand cap must be at least 1 hand, not {cap}.", cap=structure.hand_cap))
    if not structure.levels:
        out.append(Message("The structure has no levels."))
        return out
    if structure.items and isinstance(structure.items[0], Break):
        out.append(Message("The structure cannot start with a break: put a level before it."))
    counted_by = "hands" if structure.hand_counted else "minutes"
    number = 0
    prev: Level | None = None
    prev_item: Item | None = None
    in_play = set(structure.denominations)
    for item in structure.items:
        if isinstance(item, Break):
            where = Message("The break after level {level}", level=number) if number else Message("The first break")
            if item.minutes < 1:
                out.append(Message("{where} must last at least 1 minute, not {minutes}.", where=where,
                                   minutes=item.minutes))
            if isinstance(prev_item, Break) and number:
                out.append(Message("{where} follows another break: make them one break.", where=where))
            if structure.hand_counted:
                out.append(Message("{where} cannot be in a hand-counted structure: breaks are timed.", where=where))
            for v in item.colour_up:
                if structure.denominations and v not in in_play:
                    out.append(Message("{where} removes the {chip} chips, which are not in play.", where=where, chip=v))
                in_play.discard(v)
            if structure.denominations and item.colour_up and not in_play:
                out.append(Message("{where} removes every chip in play.", where=where))
            prev_item = item
            continue
        number += 1
        lv = item
        if lv.small_blind < 1:
            out.append(Message("Level {level}: the small blind must be at least 1, not {small}.", level=number,
                               small=lv.small_blind))
        if lv.big_blind <= lv.small_blind:
            out.append(Message(
                "Level {level}: the big blind ({big}) must be above the small blind ({small}).",
                level=number, big=lv.big_blind, small=lv.small_blind,
            ))
        if lv.ante < 0:
            out.append(Message("Level {level}: the ante ({ante}) cannot be negative.", level=number, ante=lv.ante))
        if (lv.minutes is None) == (lv.hands is None):
            if lv.minutes is not None:
                out.append(Message("Level {level}: give its length either in minutes or in hands, not both.",
                                   level=number))
            else:
                out.append(Message("Level {level}: give its length either in minutes or in hands.", level=number))
        else:
            length = lv.minutes if lv.minutes is not None else lv.hands
            unit = "minutes" if lv.minutes is not None else "hands"
            if length is not None and length < 1:
                if unit == "minutes":
                    out.append(Message("Level {level}: a level must last at least 1 minute, not {length}.",
                                       level=number, length=length))
                else:
                    out.append(Message("Level {level}: a level must last at least 1 hand, not {length}.",
                                       level=number, length=length))
            if unit != counted_by:
                if unit == "minutes":
                    out.append(Message("Level {level} is counted in minutes but level 1 in hands: "
                                       "a structure is either timed or counted in hands.", level=number))
                else:
                    out.append(Message("Level {level} is counted in hands but level 1 in minutes: "
                                       "a structure is either timed or counted in hands.", level=number))
        if prev is not None and (
            lv.big_blind < prev.big_blind or lv.small_blind < prev.small_blind
        ):
            out.append(Message(
                "Level {level}: the blinds ({small}/{big}) fall below level {before}'s ({before_small}/{before_big}).",
                level=number, small=lv.small_blind, big=lv.big_blind, before=number - 1,
                before_small=prev.small_blind, before_big=prev.big_blind,
            ))
        prev = lv
        prev_item = item
    return out


SHALLOW_START = MIN_BIG_BLINDS
"""Big blinds at level 1 below which the starting stack is pointed out as shallow."""


def warnings(structure: Structure) -> list[str]:
    """Things that are playable but probably wrong: a starting stack of fewer than 20 big
    blinds, blinds that the chips in play cannot pay.

    >>> s = Structure("x", (Level(25, 50, minutes=20), Break(10, (25,)),
    ...                     Level(75, 150, minutes=20)), 5000, denominations=(25, 100, 500))
    >>> warnings(s)
    ['Level 2: 75/150 cannot be paid once the 25 chips are removed at the break after level 1.']
    """
    out: list[str] = []
    first = structure.levels[0] if structure.levels else None
    if first is not None and 0 < structure.starting_stack < SHALLOW_START * first.big_blind:
        out.append(Message(
            "The starting stack of {stack} is only {big_blinds} big blinds at level 1 "
            "({small}/{big}): a tournament usually starts with 50 to 100 (TDA guidance).",
            stack=structure.starting_stack, big_blinds=structure.starting_stack // first.big_blind,
            small=first.small_blind, big=first.big_blind,
        ))
    if not structure.denominations:
        return out
    in_play = set(structure.denominations)
    removed_at: dict[Chips, int] = {}
    if not payable(structure.starting_stack, in_play):
        out.append(Message(
            "The starting stack of {stack} cannot be made with chips of {smallest} and up.",
            stack=structure.starting_stack, smallest=min(in_play),
        ))
    number = 0
    for i, item in enumerate(structure.items):
        if isinstance(item, Break):
            for v in item.colour_up:
                if v in in_play:
                    in_play.discard(v)
                    removed_at[v] = number
                    bigger = sorted(x for x in in_play if x > v)
                    if bigger and bigger[0] % v:
                        out.append(Message(
                            "The break after level {level} removes the {chip} chips, "
                            "but the next chip ({next_chip}) is not a multiple of it.",
                            level=number, chip=v, next_chip=bigger[0],
                        ))
            if i == len(structure.items) - 1:
                out.append(Message("The structure ends with a break after level {level}.", level=number))
            continue
        number += 1
        if not in_play:
            continue
        amounts = [item.small_blind, item.big_blind]
        bad_blinds = not all(payable(a, in_play) for a in amounts)
        bad_ante = item.ante > 0 and not payable(item.ante, in_play)
        if not (bad_blinds or bad_ante):
            continue
        gone = [
            v
            for v in sorted(removed_at, key=removed_at.__getitem__, reverse=True)
            if all(payable(a, {*in_play, v}) for a in [*amounts, item.ante])
        ]
        if gone:
            v = gone[0]
            if bad_blinds:
                out.append(Message(
                    "Level {level}: {small}/{big} cannot be paid once the {chip} chips are removed "
                    "at the break after level {removed_at}.",
                    level=number, small=item.small_blind, big=item.big_blind, chip=v, removed_at=removed_at[v],
                ))
            else:
                out.append(Message(
                    "Level {level}: the ante of {ante} cannot be paid once the {chip} chips are removed "
                    "at the break after level {removed_at}.",
                    level=number, ante=item.ante, chip=v, removed_at=removed_at[v],
                ))
        elif bad_blinds:
            out.append(Message("Level {level}: {small}/{big} cannot be paid with chips of {smallest} and up.",
                               level=number, small=item.small_blind, big=item.big_blind, smallest=min(in_play)))
        else:
            out.append(Message("Level {level}: the ante of {ante} cannot be paid with chips of {smallest} and up.",
                               level=number, ante=item.ante, smallest=min(in_play)))
    return out


def validate(structure: Structure) -> Structure:
    """Return ``structure`` if it is playable, or raise :class:`InvalidInput` listing why not."""
    found = problems(structure)
    if found:
        problem = _sentences(found)
        if isinstance(problem, Message):
            raise InvalidInput(problem.message, **problem.values)
        raise InvalidInput(problem)
    return structure


def denominations_at(structure: Structure, number: int) -> tuple[Chips, ...]:
    """The chip values still in play during level ``number`` (after earlier colour-ups)."""
    in_play = list(structure.denominations)
    for after, brk in structure.breaks():
        if after >= number:
            break
        in_play = [v for v in in_play if v not in brk.colour_up]
    return tuple(in_play)


def colour_up_steps(structure: Structure) -> tuple[tuple[int, Chips, Chips], ...]:
    """Each colour-up as ``(after level, removed chip, chip it becomes)``, in order.

    Several chips removed at one break are changed one after the other, smallest first.

    >>> s = Structure("x", (Level(25, 50, minutes=20), Break(10, (25, 100)),
    ...                     Level(500, 1000, minutes=20)), 5000, denominations=(25, 100, 500))
    >>> colour_up_steps(s)
    ((1, 25, 100), (1, 100, 500))
    """
    in_play = sorted(structure.denominations)
    steps: list[tuple[int, Chips, Chips]] = []
    for after, brk in structure.breaks():
        for v in sorted(brk.colour_up):
            if v in in_play:
                in_play.remove(v)
                bigger = [x for x in in_play if x > v]
                if bigger:
                    steps.append((after, v, bigger[0]))
    return tuple(steps)


# ---------------------------------------------------------------------------
# Time


def total_minutes(structure: Structure) -> int | None:
    """Minutes from the start to the end of the last listed level, breaks included
    (``None`` for a hand-counted structure).

    >>> total_minutes(home_structure(10_000, hours=2.5)) is not None
    True
    """
    if structure.hand_counted:
        return None
    return sum((i.minutes or 0) for i in structure.items)


@dataclass(frozen=True, slots=True)
class EndEstimate:
    """When the game is likely to end (TDA 6.4: about 20 big blinds left on the table)."""

    level: int
    big_blind: Chips
    minutes: int | None
    """Minutes from the start to the end of that level, breaks included (timed structures)."""
    hands: int | None
    """Hands from the start to the end of that level (hand-counted structures)."""


def estimate_end(structure: Structure, players: int) -> EndEstimate | None:
    """The first level whose big blind is at least 5% of all chips in play (TDA 6.4).

    ``None`` when no level of a structure without doubling gets there.

    >>> e = estimate_end(sit_and_go(1000), 6)
    >>> e.level, e.big_blind, e.hands
    (7, 300, 42)
    """
    if players < 1:
        raise InvalidInput("An estimate needs at least one player, not {players}.", players=players)
    validate(structure)
    target = math.ceil(players * structure.starting_stack / 20)
    n = 1
    while structure.level(n).big_blind < target:
        n += 1
        if n > structure.level_count and not structure.repeat_doubling:
            return None
    minutes = 0
    hands = 0
    seen = 0
    for item in structure.items:
        if isinstance(item, Level):
            seen += 1
            if seen > n:
                break
            minutes += item.minutes or 0
            hands += item.hands or 0
        elif seen < n:
            minutes += item.minutes
    extra = max(0, n - structure.level_count)
    last = structure.levels[-1]
    minutes += extra * (last.minutes or 0)
    hands += extra * (last.hands or 0)
    hc = structure.hand_counted
    return EndEstimate(n, structure.level(n).big_blind, None if hc else minutes, hands if hc else None)


# ---------------------------------------------------------------------------
# Presets

SIT_AND_GO_BLINDS: tuple[tuple[Chips, Chips], ...] = (
    (10, 20), (15, 30), (25, 50), (50, 100), (75, 150),
    (100, 200), (150, 300), (200, 400), (300, 600), (500, 1000),
)
"""Seed 000's levels; after 500/1000 the blinds double at every level."""


def sit_and_go(starting_stack: Chips = 1000, turbo: bool = False) -> Structure:
    """Seed 000's sit-and-go: a new level every 6 hands (4 in turbo), no antes, 120-hand cap.

    >>> s = sit_and_go(2000, turbo=True)
    >>> s.level(1).hands, s.hand_cap, s.starting_stack
    (4, 120, 2000)
    """
    hands = 4 if turbo else 6
    return Structure(
        name=f"Sit-and-go, {chips_text(starting_stack)} chips, "
        + ("turbo (every 4 hands)" if turbo else "normal (every 6 hands)"),
        items=tuple(Level(sb, bb, hands=hands) for sb, bb in SIT_AND_GO_BLINDS),
        starting_stack=starting_stack,
        hand_cap=120,
        repeat_doubling=True,
    )


_MANTISSAS = (10, 15, 20, 30, 40, 60, 80)


def _big_blind_ladder(unit: Chips) -> Iterator[Chips]:
    """Big blinds rising roughly 40-50% a level, each with a small blind payable in ``unit``s."""
    power = 1
    while True:
        for m in _MANTISSAS:
            bb = m * power // 10
            if bb > 0 and m * power % 10 == 0 and bb % (2 * unit) == 0:
                yield bb
        power *= 10


def home_structure(
    starting_stack: Chips = 10_000,
    hours: float = 4.5,
    level_minutes: int | None = None,
    chip_set: ChipSet = HOME_SET,
    players: int = 10,
    ante: bool = False,
    break_minutes: int = 10,
    name: str | None = None,
) -> Structure:
    """A timed home tournament that should end in about ``hours`` with ``players`` players.

    The blinds rise about 40-50% a level (TDA 6.4), starting about 50 big blinds
    deep for a game of 3 hours or less and about 100 deep for a longer one. A
    break comes about every hour; at a break the smallest chip is coloured up
    (one value per break) when no later level needs it. The levels run to about 20 big blinds on
    the table and four levels past it. With ``ante`` a big-blind ante (as much
    as the big blind) starts after the first break.

    >>> s = home_structure(10_000, hours=2.5)
    >>> describe_level(s.level(1), 1), s.levels[0].minutes
    ('Level 1 · 150/300', 15)
    """
    if starting_stack < 1 or hours <= 0 or players < 2:
        raise InvalidInput(
            "A home structure needs a starting stack of at least 1, some hours and at least 2 players."
        )
    if level_minutes is not None and level_minutes < 1:
        raise InvalidInput("A level must last at least 1 minute, not {minutes}.", minutes=level_minutes)
    values = chip_set.values
    unit = values[0]
    if starting_stack % unit:
        raise InvalidInput(
            "A starting stack of {stack} cannot be made with chips of {unit} and up.", stack=starting_stack, unit=unit,
        )
    target_depth = 50 if hours <= 3 else 100
    target_end = players * starting_stack / 20
    budget = hours * 60

    def ladder_from(depth: int) -> tuple[list[Chips], int]:
        """The big blinds from about ``depth`` big blinds deep, and the level reaching the end."""
        ladder = _big_blind_ladder(unit)
        bbs = [next(bb for bb in ladder if bb * depth >= starting_stack)]
        end_at = 0
        for bb in ladder:
            if bbs[-1] >= target_end and end_at == 0:
                end_at = len(bbs)
            if end_at and len(bbs) >= end_at + 4:
                break
            bbs.append(bb)
        return bbs, end_at

    def per_break(m: int) -> int:
        return max(2, round(60 / m))

    def planned(end_at: int, m: int) -> float:
        breaks = (end_at - 1) // per_break(m)
        return end_at * m + breaks * break_minutes

    # Choose the starting depth and the level length that end nearest the time asked for,
    # preferring the usual depth and levels of 15 minutes or more.
    best: tuple[float, list[Chips], int] | None = None
    for depth in (100, 80, 60, 50, 40, 30, 25, 20):
        bbs, end_at = ladder_from(depth)
        for m in (level_minutes,) if level_minutes else (10, 12, 15, 20, 25, 30, 40, 45, 60):
            score = max(0.0, abs(planned(end_at, m) - budget) / budget - 0.1)
            score += 0.3 * abs(math.log(depth / target_depth)) + (0.15 if m < 15 else 0)
            if best is None or score < best[0]:
                best = (score, bbs, m)
    assert best is not None
    _, bbs, level_minutes = best
    every = per_break(level_minutes)
    items: list[Item] = []
    in_play = list(values)
    ante_on = False
    for i, bb in enumerate(bbs):
        n = i + 1
        items.append(Level(bb // 2, bb, bb if ante_on else 0, minutes=level_minutes))
        if n % every == 0 and n < len(bbs):
            later = bbs[i + 1 :]
            removed: tuple[Chips, ...] = ()
            if len(in_play) >= 2 and in_play[1] % in_play[0] == 0 and all(
                payable(b // 2, in_play[1:]) for b in later
            ):
                removed = (in_play.pop(0),)
            items.append(Break(break_minutes, removed))
            ante_on = ante
    label = name or (
        f"Home, {'2–3' if hours <= 3 else '4–5' if hours <= 5 else f'{hours:g}'} hours, "
        f"{chips_text(starting_stack)} chips" + (", big-blind ante" if ante else "")
    )
    return Structure(
        name=label,
        items=tuple(items),
        starting_stack=starting_stack,
        hand_cap=None,
        repeat_doubling=False,
        denominations=values,
        ante_kind="big_blind",
    )


PRESETS: dict[str, tuple[str, Callable[[], Structure]]] = {
    "sng-1000": (Term("Sit-and-go, 1,000 chips, every 6 hands"), lambda: sit_and_go(1000)),
    "sng-1000-turbo": (Term("Sit-and-go, 1,000 chips, turbo (every 4 hands)"), lambda: sit_and_go(1000, turbo=True)),
    "sng-2000": (Term("Sit-and-go, 2,000 chips, every 6 hands"), lambda: sit_and_go(2000)),
    "sng-2000-turbo": (Term("Sit-and-go, 2,000 chips, turbo (every 4 hands)"), lambda: sit_and_go(2000, turbo=True)),
    "home-short": (Term("Home, 2–3 hours, 10,000 chips"), lambda: home_structure(10_000, hours=2.5)),
    "home-long": (Term("Home, 4–5 hours, 10,000 chips"), lambda: home_structure(10_000, hours=4.5)),
    "home-long-ante": (
        Term("Home, 4–5 hours, 10,000 chips, big-blind ante"),
        lambda: home_structure(10_000, hours=4.5, ante=True),
    ),
    "home-short-1500": (
        Term("Home, 2–3 hours, 1,500 chips (5 to 500 set)"),
        lambda: home_structure(1500, hours=2.5, chip_set=CLUB_SET),
    ),
}
"""Ready-made structures by id: ``(label, factory)`` for a form to offer."""

SIT_AND_GO_NAMES = (
    N_("Sit-and-go, 1,000 chips, normal (every 6 hands)"),
    N_("Sit-and-go, 2,000 chips, normal (every 6 hands)"),
)
"""The names :func:`sit_and_go` gives the normal presets' structures (a tournament made from
a preset keeps its structure's name, shown in the reader's language); the turbo ones are
their presets' labels."""


def preset(preset_id: str) -> Structure:
    """The ready-made structure ``preset_id`` (a key of :data:`PRESETS`)."""
    try:
        return PRESETS[preset_id][1]()
    except KeyError:
        raise InvalidInput(
            "There is no preset {preset}: choose one of {presets}.", preset=repr(preset_id), presets=", ".join(PRESETS),
        ) from None


# ---------------------------------------------------------------------------
# Plain dicts (JSON)


# ---------------------------------------------------------------------------
# Edits in play

EDITS = ("level", "break", "add_level", "add_break", "remove", "all_levels")
"""What a director changes in a structure (:func:`edit`)."""
MAX_EDIT_MINUTES = 240
MAX_EDIT_HANDS = 1000


def _item_name(structure: Structure, index: int, capital: bool = False) -> Message:
    """``level 5`` or ``the break after level 4``, for item ``index`` (``Level 5``... with ``capital``)."""
    number = sum(1 for item in structure.items[: index + 1] if isinstance(item, Level))
    if isinstance(structure.items[index], Level):
        return Message("Level {level}", level=number) if capital else Message("level {level}", level=number)
    if number:
        if capital:
            return Message("The break after level {level}", level=number)
        return Message("the break after level {level}", level=number)
    return Message("The break") if capital else Message("the break")


def _edit_int(change: Mapping[str, Any], key: str, what: Term, low: int, high: int) -> int | None:
    value = change.get(key)
    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput("The {what} must be a whole number, not {value}.", what=what, value=repr(value))
    if not low <= value <= high:
        raise InvalidInput("The {what} must be between {low} and {high}, not {value}.", what=what, low=low, high=high,
                           value=value)
    return value


def _length(change: Mapping[str, Any], hand_counted: bool) -> dict[str, int]:
    """The ``minutes`` (timed) or ``hands`` (hand-counted) a change gives, checked."""
    minutes = _edit_int(change, "minutes", Term("length in minutes"), 1, MAX_EDIT_MINUTES)
    hands = _edit_int(change, "hands", Term("length in hands"), 1, MAX_EDIT_HANDS)
    if hand_counted and minutes is not None:
        raise InvalidInput("Levels of this structure are counted in hands, not minutes.")
    if not hand_counted and hands is not None:
        raise InvalidInput("Levels of this structure last minutes, not hands.")
    return {"hands": hands} if hands is not None else {"minutes": minutes} if minutes is not None else {}


def _level_from(change: Mapping[str, Any], like: Level, hand_counted: bool) -> Level:
    """``like`` with the blinds, ante and length the change gives."""
    values: dict[str, Any] = {}
    for key, what in (("small_blind", Term("small blind")), ("big_blind", Term("big blind")), ("ante", Term("ante"))):
        value = _edit_int(change, key, what, 0 if key == "ante" else 1, MAX_EDIT_CHIPS)
        if value is not None:
            values[key] = value
    values.update(_length(change, hand_counted))
    level = replace(like, **values)
    if level.big_blind < level.small_blind:
        raise InvalidInput(
            "The big blind ({big}) cannot be below the small blind ({small}).",
            big=level.big_blind, small=level.small_blind,
        )
    return level


MAX_EDIT_CHIPS = 1_000_000_000


def edit(structure: Structure, change: Mapping[str, Any]) -> tuple[Structure, str]:
    """``structure`` with one change made, and the change in words for the log.

    ``change["edit"]`` is one of :data:`EDITS`; ``change["item"]`` the index in
    ``structure.items`` (from 0) of the level or break to change or remove, or where a new
    one goes (``len(items)``: at the end); ``all_levels`` sets the length of every level
    from that item on. Other keys: ``small_blind``, ``big_blind``, ``ante``, ``minutes``
    (or ``hands`` in a hand-counted structure), ``colour_up`` (a break's chip values).
    The result must be playable (:func:`validate`).

    >>> s = Structure("demo", (Level(10, 20, minutes=15), Level(20, 40, minutes=15)), 1000)
    >>> new, words = edit(s, {"edit": "add_break", "item": 1, "minutes": 10})
    >>> [type(i).__name__ for i in new.items], words
    (['Level', 'Break', 'Level'], 'A 10-minute break added after level 1.')
    >>> edit(new, {"edit": "level", "item": 2, "big_blind": 50, "minutes": 20})[1]
    'Level 2: 20/50, 20 min (was 20/40, 15 min).'
    """
    kind = change.get("edit")
    if kind not in EDITS:
        raise InvalidInput("Change a structure with one of {edits}, not {kind}.", edits=", ".join(EDITS), kind=repr(kind))
    items = list(structure.items)
    top = len(items) if kind in ("add_level", "add_break") else len(items) - 1
    index = _edit_int(change, "item", Term("position in the structure"), 0, max(top, 0))
    if index is None:
        raise InvalidInput("Say which level or break to change (its position in the structure).")
    counted = structure.hand_counted
    words: str
    if kind in ("level", "break", "remove", "all_levels") and not items:
        raise InvalidInput("The structure has no levels.")
    if kind == "level":
        old = items[index]
        if not isinstance(old, Level):
            raise InvalidInput("Item {index} is {item}, not a level.", index=index, item=_item_name(structure, index))
        new = _level_from(change, old, counted)
        items[index] = new
        words = Message("{item}: {new} (was {old}).", item=_item_name(structure, index, capital=True),
                        new=_level_words(new), old=_level_words(old))
    elif kind == "break":
        old_break = items[index]
        if not isinstance(old_break, Break):
            raise InvalidInput("Item {index} is {item}, not a break.", index=index, item=_item_name(structure, index))
        minutes = _edit_int(change, "minutes", Term("break's length in minutes"), 1, MAX_EDIT_MINUTES)
        colour_up = _colour_up(change, old_break.colour_up)
        new_break = replace(old_break, minutes=old_break.minutes if minutes is None else minutes, colour_up=colour_up)
        items[index] = new_break
        words = Message("{item}: {new} (was {old}).", item=_item_name(structure, index, capital=True),
                        new=_break_words(new_break), old=_break_words(old_break))
    elif kind == "add_level":
        near = [i for i in items[:index] if isinstance(i, Level)][-1:] or [i for i in items[index:] if isinstance(i, Level)][:1]
        like = near[0] if near else Level(0, 0, minutes=None if counted else 20, hands=10 if counted else None)
        if not any(k in change for k in ("small_blind", "big_blind")):
            raise InvalidInput("A new level needs its blinds.")
        new = _level_from(change, replace(like, ante=0), counted)
        items.insert(index, new)
        after = sum(1 for i in items[:index] if isinstance(i, Level))
        if after:
            words = Message("Level {level} added: {words}, after level {after}.", level=after + 1,
                            words=_level_words(new), after=after)
        else:
            words = Message("Level {level} added: {words}, first.", level=after + 1, words=_level_words(new))
    elif kind == "add_break":
        if index == 0:
            raise InvalidInput("The structure cannot start with a break: put a level before it.")
        minutes = _edit_int(change, "minutes", Term("break's length in minutes"), 1, MAX_EDIT_MINUTES) or 10
        items.insert(index, Break(minutes, _colour_up(change, ())))
        after = sum(1 for i in items[:index] if isinstance(i, Level))
        words = Message("A {minutes}-minute break added after level {after}.", minutes=minutes, after=after)
    elif kind == "remove":
        gone = items.pop(index)
        if isinstance(gone, Level) and not any(isinstance(i, Level) for i in items):
            raise InvalidInput("That is the only level: a structure needs at least one.")
        what = _item_name(structure, index, capital=True)
        if isinstance(gone, Level):
            words = Message("{item} removed ({words}).", item=what, words=_level_words(gone))
        else:
            words = Message("{item} removed.", item=what)
    else:
        length = _length(change, counted)
        if not length:
            raise InvalidInput("Give the length every level from there on should have.")
        items[index:] = [replace(i, **length) if isinstance(i, Level) else i for i in items[index:]]
        first = sum(1 for i in structure.items[: index + 1] if isinstance(i, Level))
        if not isinstance(structure.items[index], Level):
            first += 1
        if "hands" in length:
            words = Message("Every level from level {first} on: {hands} hands.", first=first, hands=length["hands"])
        else:
            words = Message("Every level from level {first} on: {minutes} minutes.", first=first,
                            minutes=length["minutes"])
    edited = replace(structure, items=tuple(items))
    return validate(edited), words


def _level_words(level: Level) -> Message:
    blinds = {"small": level.small_blind, "big": level.big_blind}
    if level.ante:
        if level.hands is not None:
            return Message("{small}/{big} ante {ante}, {hands} hands", **blinds, ante=level.ante, hands=level.hands)
        return Message("{small}/{big} ante {ante}, {minutes} min", **blinds, ante=level.ante, minutes=str(level.minutes))
    if level.hands is not None:
        return Message("{small}/{big}, {hands} hands", **blinds, hands=level.hands)
    return Message("{small}/{big}, {minutes} min", **blinds, minutes=str(level.minutes))


def _colour_up(change: Mapping[str, Any], current: tuple[Chips, ...]) -> tuple[Chips, ...]:
    raw = change.get("colour_up")
    if raw is None:
        return current
    if isinstance(raw, str):
        raw = [part for part in raw.replace(",", " ").split() if part]
        try:
            raw = [int(part) for part in raw]
        except ValueError as error:
            raise InvalidInput("The chips to colour up must be chip values, e.g. 25 100.") from error
    if not isinstance(raw, list | tuple) or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
        raise InvalidInput("The chips to colour up must be a list of chip values.")
    if len(raw) > 10 or not all(1 <= v <= MAX_EDIT_CHIPS for v in raw):
        raise InvalidInput("The chips to colour up are at most 10 chip values, each at least 1.")
    return tuple(sorted(set(raw)))


def structure_to_dict(structure: Structure) -> dict[str, Any]:
    """A plain, JSON-ready dict that :func:`structure_from_dict` reads back."""
    items: list[dict[str, Any]] = []
    for item in structure.items:
        if isinstance(item, Level):
            items.append(
                {
                    "type": "level",
                    "small_blind": item.small_blind,
                    "big_blind": item.big_blind,
                    "ante": item.ante,
                    "minutes": item.minutes,
                    "hands": item.hands,
                }
            )
        else:
            items.append({"type": "break", "minutes": item.minutes, "colour_up": list(item.colour_up)})
    return {
        "name": structure.name,
        "starting_stack": structure.starting_stack,
        "hand_cap": structure.hand_cap,
        "repeat_doubling": structure.repeat_doubling,
        "denominations": list(structure.denominations),
        "ante_kind": structure.ante_kind,
        "items": items,
    }


FIELD_NAMES: dict[str, Term] = {
    "small_blind": Term("small blind"), "big_blind": Term("big blind"), "ante": Term("ante"),
    "minutes": Term("minutes"), "hands": Term("hands"), "starting_stack": Term("starting stack"),
    "hand_cap": Term("hand cap"),
}
"""A structure field's name inside a sentence."""


def _int(d: Mapping[str, Any], key: str, where: str, default: Any = ..., optional: bool = False) -> Any:
    field = FIELD_NAMES.get(key, Term(key.replace("_", " ")))
    if key not in d:
        if default is ...:
            raise InvalidInput("{where} has no {field}.", where=where, field=field)
        return default
    v = d[key]
    if v is None and optional:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise InvalidInput("{where}: the {field} must be a whole number, not {value}.", where=where, field=field,
                           value=repr(v))
    return v


def structure_from_dict(data: Mapping[str, Any]) -> Structure:
    """Read a structure written by :func:`structure_to_dict`; refuses an unplayable one.

    >>> s = sit_and_go(1000)
    >>> structure_from_dict(structure_to_dict(s)) == s
    True
    """
    if not isinstance(data, Mapping):
        raise InvalidInput("A structure must be a mapping of its fields.")
    raw_items = data.get("items")
    if not isinstance(raw_items, list):
        raise InvalidInput("The structure has no list of levels and breaks.")
    items: list[Item] = []
    for i, raw in enumerate(raw_items, start=1):
        where = Message("Item {number}", number=i)
        if not isinstance(raw, Mapping):
            raise InvalidInput("{where} is not a level or a break.", where=where)
        kind = raw.get("type")
        if kind == "level":
            items.append(
                Level(
                    _int(raw, "small_blind", where),
                    _int(raw, "big_blind", where),
                    _int(raw, "ante", where, 0),
                    minutes=_int(raw, "minutes", where, None, optional=True),
                    hands=_int(raw, "hands", where, None, optional=True),
                )
            )
        elif kind == "break":
            cu = raw.get("colour_up", [])
            if not isinstance(cu, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in cu):
                raise InvalidInput("{where}: the colour-up must be a list of chip values.", where=where)
            items.append(Break(_int(raw, "minutes", where), tuple(cu)))
        else:
            raise InvalidInput("{where} must be of type 'level' or 'break', not {kind}.", where=where, kind=repr(kind))
    name = data.get("name", "")
    if not isinstance(name, str):
        raise InvalidInput("The structure's name must be text.")
    denoms = data.get("denominations", [])
    if not isinstance(denoms, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in denoms):
        raise InvalidInput("The structure's chip values must be a list of whole numbers.")
    ante_kind = data.get("ante_kind", "big_blind")
    if ante_kind not in ("big_blind", "per_player"):
        raise InvalidInput("The ante must be paid by 'big_blind' or 'per_player', not {kind}.", kind=repr(ante_kind))
    structure = Structure(
        name=name,
        items=tuple(items),
        starting_stack=_int(data, "starting_stack", Term("The structure")),
        hand_cap=_int(data, "hand_cap", Term("The structure"), None, optional=True),
        repeat_doubling=bool(data.get("repeat_doubling", False)),
        denominations=tuple(denoms),
        ante_kind=ante_kind,
    )
    return validate(structure)
