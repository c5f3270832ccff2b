"""Whether a blind structure can be played: its problems (it cannot), its warnings (it probably
should not), and :func:`validate`, which refuses an unplayable one with every reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.chip_plan import MIN_BIG_BLINDS
from engine.chip_sets import payable
from engine.errors import InvalidInput, Message
from engine.levels import Break, Chips, Item, Level, Structure


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
            out += _break_problems(structure, item, number, prev_item, in_play)
            prev_item = item
            continue
        number += 1
        out += _level_problems(item, number, counted_by, prev)
        prev = item
        prev_item = item
    return out


def _break_problems(
    structure: Structure, item: Break, number: int, prev_item: Item | None, in_play: set[Chips]
) -> list[str]:
    """What is wrong with the break after level ``number``; its colour-up leaves ``in_play``."""
    out: list[str] = []
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
    return out


def _level_problems(lv: Level, number: int, counted_by: str, prev: Level | None) -> list[str]:
    """What is wrong with level ``number`` (``prev`` the level before it)."""
    out: list[str] = []
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


def _sentences(found: Sequence[str]) -> str:
    """Several sentences as one message, each still said in the reader's language."""
    if len(found) == 1:
        return found[0]
    return Message("{first} {rest}", first=found[0], rest=_sentences(found[1:]))
