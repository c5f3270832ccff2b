"""Ready-made blind structures: seed 000's sit-and-go, and a home tournament fitted to the
hours, players and chips of the night.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import replace

from engine.chip_sets import CLUB_SET, HOME_SET, ChipSet, payable
from engine.errors import N_, InvalidInput, Term
from engine.levels import Break, Chips, Item, Level, Structure
from engine.text import chips as chips_text

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

    >>> from engine.levels import describe_level
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
    bbs, level_minutes = _home_blinds(starting_stack, hours, level_minutes, unit, players, break_minutes)
    label = name or (
        f"Home, {'2–3' if hours <= 3 else '4–5' if hours <= 5 else f'{hours:g}'} hours, "
        f"{chips_text(starting_stack)} chips" + (", big-blind ante" if ante else "")
    )
    return Structure(
        name=label,
        items=tuple(_home_items(bbs, level_minutes, values, ante, break_minutes)),
        starting_stack=starting_stack,
        hand_cap=None,
        repeat_doubling=False,
        denominations=values,
        ante_kind="big_blind",
    )


def _home_blinds(
    starting_stack: Chips, hours: float, level_minutes: int | None, unit: Chips, players: int, break_minutes: int
) -> tuple[list[Chips], int]:
    """The big blinds of a home structure and the length of its levels: the starting depth and
    the level length that end nearest the time asked for, preferring the usual depth (about 50
    big blinds for 3 hours or less, 100 for longer) and levels of 15 minutes or more."""
    target_depth = 50 if hours <= 3 else 100
    target_end = players * starting_stack / 20
    budget = hours * 60

    def planned(end_at: int, m: int) -> float:
        breaks = (end_at - 1) // _per_break(m)
        return end_at * m + breaks * break_minutes

    best: tuple[float, list[Chips], int] | None = None
    for depth in (100, 80, 60, 50, 40, 30, 25, 20):
        bbs, end_at = _ladder_from(unit, depth, starting_stack, target_end)
        for m in (level_minutes,) if level_minutes else (10, 12, 15, 20, 25, 30, 40, 45, 60):
            score = max(0.0, abs(planned(end_at, m) - budget) / budget - 0.1)
            score += 0.3 * abs(math.log(depth / target_depth)) + (0.15 if m < 15 else 0)
            if best is None or score < best[0]:
                best = (score, bbs, m)
    assert best is not None
    _, bbs, minutes = best
    return bbs, minutes


def _ladder_from(unit: Chips, depth: int, starting_stack: Chips, target_end: float) -> tuple[list[Chips], int]:
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


def _per_break(m: int) -> int:
    """Levels of ``m`` minutes between breaks: about an hour, at least two."""
    return max(2, round(60 / m))


def _home_items(
    bbs: list[Chips], level_minutes: int, values: tuple[Chips, ...], ante: bool, break_minutes: int
) -> list[Item]:
    """The levels of ``bbs`` with a break about every hour, each colouring up the smallest chip
    when no later level needs it; the big-blind ante (``ante``) from the first break on."""
    every = _per_break(level_minutes)
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
    return items


MIXED_FLOP_GAMES = ("nlhe", "plo", "lhe", "lo8")
"""A mixed night's flop games, dealt in turn a level each: No-Limit Hold'em, Pot-Limit Omaha,
Limit Hold'em, Limit Omaha hi-lo."""


def mixed_games(structure: Structure, games: tuple[str, ...] = MIXED_FLOP_GAMES, name: str | None = None) -> Structure:
    """``structure`` with its levels dealing ``games`` in turn.

    >>> s = mixed_games(sit_and_go(1000))
    >>> [s.level(n).game for n in range(1, 6)]
    ['nlhe', 'plo', 'lhe', 'lo8', 'nlhe']
    """
    items: list[Item] = []
    for item in structure.items:
        if isinstance(item, Level):
            items.append(replace(item, game=games[sum(isinstance(i, Level) for i in items) % len(games)]))
        else:
            items.append(item)
    return replace(structure, items=tuple(items), name=name or structure.name)


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
    "home-mixed": (
        Term("Mixed flop games, 4–5 hours, 10,000 chips: NLHE, PLO, LHE and O8 in turn"),
        lambda: mixed_games(home_structure(10_000, hours=4.5),
                            name="Mixed flop games, 4–5 hours, 10,000 chips: NLHE, PLO, LHE and O8 in turn"),
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
