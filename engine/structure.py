"""Blind structures: levels, breaks with their colour-ups, the presets, validation.

Levels are numbered from 1, breaks do not count. A structure is either timed
(every level has ``minutes``) or hand-counted (every level has ``hands``).

This module gives every name of the structures; they are kept by meaning in
:mod:`engine.levels` (levels, breaks, the structure and their words),
:mod:`engine.structure_checks` (problems, warnings, :func:`validate`),
:mod:`engine.presets` (the sit-and-go and the home structure) and
:mod:`engine.structure_edits` (edits in play). Here: the chips in play along a
structure, its time and likely end, and the structure as a plain dict.

>>> s = sit_and_go(1000)
>>> describe_level(s.level(1), 1), describe_level(s.level(11), 11)
('Level 1 · 10/20', 'Level 11 · 1,000/2,000')
>>> s.level(12).big_blind
4000
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.chip_plan import MIN_BIG_BLINDS as MIN_BIG_BLINDS
from engine.errors import InvalidInput, Message, Term
from engine.games import DEFAULT_GAME, GAMES
from engine.levels import MAX_DOUBLINGS as MAX_DOUBLINGS
from engine.levels import AnteKind as AnteKind
from engine.levels import Break as Break
from engine.levels import Chips as Chips
from engine.levels import Item as Item
from engine.levels import Level as Level
from engine.levels import Structure as Structure
from engine.levels import describe_break as describe_break
from engine.levels import describe_level as describe_level
from engine.presets import PRESETS as PRESETS
from engine.presets import SIT_AND_GO_BLINDS as SIT_AND_GO_BLINDS
from engine.presets import SIT_AND_GO_NAMES as SIT_AND_GO_NAMES
from engine.presets import home_structure as home_structure
from engine.presets import preset as preset
from engine.presets import sit_and_go as sit_and_go
from engine.structure_checks import SHALLOW_START as SHALLOW_START
from engine.structure_checks import problems as problems
from engine.structure_checks import validate as validate
from engine.structure_checks import warnings as warnings
from engine.structure_edits import EDITS as EDITS
from engine.structure_edits import MAX_EDIT_CHIPS as MAX_EDIT_CHIPS
from engine.structure_edits import MAX_EDIT_HANDS as MAX_EDIT_HANDS
from engine.structure_edits import MAX_EDIT_MINUTES as MAX_EDIT_MINUTES
from engine.structure_edits import edit as edit

# ---------------------------------------------------------------------------
# The chips in play along a structure


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
# Plain dicts (JSON)


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
            if item.game != DEFAULT_GAME:  # a structure of one game reads as it always did
                items[-1]["game"] = item.game
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
        **({"choices": list(structure.choices)} if structure.choices else {}),
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


def _game(raw: Mapping[str, Any], where: str) -> str:
    key = raw.get("game", DEFAULT_GAME)
    if key not in GAMES:
        raise InvalidInput(
            "{where}: the game must be one of {choices}, not {game}.", where=where, choices=", ".join(GAMES),
            game=repr(key),
        )
    return str(key)


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
                    game=_game(raw, where),
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
    choices = data.get("choices", [])
    dealt = [key for key, game in GAMES.items() if game.dealt]
    if not isinstance(choices, list) or any(key not in dealt for key in choices) or len(set(choices)) != len(choices):
        raise InvalidInput(
            "The dealer's choice is a list of different games, each one of {choices}, not {given}.",
            choices=", ".join(dealt), given=repr(choices),
        )
    structure = Structure(
        name=name,
        items=tuple(items),
        starting_stack=_int(data, "starting_stack", Term("The structure")),
        hand_cap=_int(data, "hand_cap", Term("The structure"), None, optional=True),
        repeat_doubling=bool(data.get("repeat_doubling", False)),
        denominations=tuple(denoms),
        ante_kind=ante_kind,
        choices=tuple(choices),
    )
    return validate(structure)
