"""The parts of a blind structure: levels, breaks with their colour-ups, the structure, and
their words.

Levels are numbered from 1, breaks do not count. A structure is either timed
(every level has ``minutes``) or hand-counted (every level has ``hands``). Checking that a
structure is playable is :mod:`engine.structure_checks`; the presets are
:mod:`engine.presets`; :mod:`engine.structure` gives every name.

>>> s = Structure("demo", (Level(10, 20, minutes=15), Break(10, (25,)), Level(20, 40, minutes=15)), 1000)
>>> s.level_count, s.break_after(1)
(2, Break(minutes=10, colour_up=(25,)))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias

from engine.errors import InvalidInput, Message
from engine.games import GAMES

Chips: TypeAlias = int
MAX_DOUBLINGS = 1000
"""How far past its list a doubling structure goes (its blinds then have about 300 digits)."""
AnteKind: TypeAlias = Literal["big_blind", "per_player"]


@dataclass(frozen=True, slots=True)
class Level:
    """One blind level; it lasts either ``minutes`` or ``hands`` (exactly one of them).
    ``game`` is the key of the game dealt at it (:data:`engine.games.GAMES`)."""

    small_blind: Chips
    big_blind: Chips
    ante: Chips = 0
    minutes: int | None = None
    hands: int | None = None
    game: str = "nlhe"

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
    choices: tuple[str, ...] = ()
    """The host's list for a dealer's choice level: the games the dealer picks from at each
    hand (empty: every game the dealer's assistant follows)."""
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
                  self.denominations, self.ante_kind, self.choices)),
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
    >>> describe_level(Level(100, 200, minutes=20, game="plo"), 6)
    'Level 6 · 100/200 · PLO'
    """
    if level.ante:
        said = Message("Level {level} · {small}/{big} · ante {ante}", level=number, small=level.small_blind,
                       big=level.big_blind, ante=level.ante)
    else:
        said = Message("Level {level} · {small}/{big}", level=number, small=level.small_blind, big=level.big_blind)
    if level.game != "nlhe":  # the game a mixed structure deals at this level
        return Message("{level} · {game}", level=said, game=GAMES[level.game].short)
    return said


def describe_break(brk: Break) -> str:
    """``Break · 10 min · colour up the 25 chips``.

    >>> describe_break(Break(15, (25, 100)))
    'Break · 15 min · colour up the 25 and 100 chips'
    """
    if brk.colour_up:
        return Message("Break · {minutes} min · colour up the {chips} chips", minutes=brk.minutes,
                       chips=_and(brk.colour_up))
    return Message("Break · {minutes} min", minutes=brk.minutes)


def break_words(brk: Break) -> Message:
    """``15 min · colour up the 25 chips``: a break without its name, for the log."""
    if brk.colour_up:
        return Message("{minutes} min · colour up the {chips} chips", minutes=brk.minutes, chips=_and(brk.colour_up))
    return Message("{minutes} min", minutes=brk.minutes)


def _and(values: Iterator[int] | list[int] | tuple[int, ...]) -> int | Message:
    vs = list(values)
    return vs[0] if len(vs) == 1 else Message("{items} and {last}", items=vs[:-1], last=vs[-1])
