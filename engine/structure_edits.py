"""Edits in play: a director changes a level or a break, adds or removes one, or sets the
length of every level from one on; each edit gives the new structure (checked playable) and
the change in words for the log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine.errors import InvalidInput, Message, Term
from engine.games import DEFAULT_GAME, GAMES, game_named
from engine.levels import Break, Chips, Item, Level, Structure, break_words
from engine.structure_checks import validate

EDITS = ("level", "break", "add_level", "add_break", "remove", "all_levels", "choices")
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
    if change.get("game") not in (None, ""):
        values["game"] = game_named(change["game"]).key
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
    (or ``hands`` in a hand-counted structure), ``game`` (a level's, one of
    :data:`engine.games.GAMES`), ``colour_up`` (a break's chip values); ``choices`` sets the
    host's list of games for dealer's choice levels (no ``item``).
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
    if kind == "choices":
        chosen, said = _choices(structure, change)
        return validate(chosen), said
    items = list(structure.items)
    top = len(items) if kind in ("add_level", "add_break") else len(items) - 1
    index = _edit_int(change, "item", Term("position in the structure"), 0, max(top, 0))
    if index is None:
        raise InvalidInput("Say which level or break to change (its position in the structure).")
    if kind in ("level", "break", "remove", "all_levels") and not items:
        raise InvalidInput("The structure has no levels.")
    words = _EDITORS[kind](structure, items, index, change)
    edited = replace(structure, items=tuple(items))
    return validate(edited), words


def _edit_level(structure: Structure, items: list[Item], index: int, change: Mapping[str, Any]) -> str:
    """Change the blinds, ante or length of the level at ``index``."""
    old = items[index]
    if not isinstance(old, Level):
        raise InvalidInput("Item {index} is {item}, not a level.", index=index, item=_item_name(structure, index))
    new = _level_from(change, old, structure.hand_counted)
    items[index] = new
    return Message("{item}: {new} (was {old}).", item=_item_name(structure, index, capital=True),
                   new=_level_words(new), old=_level_words(old))


def _edit_break(structure: Structure, items: list[Item], index: int, change: Mapping[str, Any]) -> str:
    """Change the length or the colour-up of the break at ``index``."""
    old_break = items[index]
    if not isinstance(old_break, Break):
        raise InvalidInput("Item {index} is {item}, not a break.", index=index, item=_item_name(structure, index))
    minutes = _edit_int(change, "minutes", Term("break's length in minutes"), 1, MAX_EDIT_MINUTES)
    colour_up = _colour_up(change, old_break.colour_up)
    new_break = replace(old_break, minutes=old_break.minutes if minutes is None else minutes, colour_up=colour_up)
    items[index] = new_break
    return Message("{item}: {new} (was {old}).", item=_item_name(structure, index, capital=True),
                   new=break_words(new_break), old=break_words(old_break))


def _add_level(structure: Structure, items: list[Item], index: int, change: Mapping[str, Any]) -> str:
    """A new level at ``index``, like the level before it (or after it, at the start)."""
    counted = structure.hand_counted
    near = [i for i in items[:index] if isinstance(i, Level)][-1:] or [i for i in items[index:] if isinstance(i, Level)][:1]
    like = near[0] if near else Level(0, 0, minutes=None if counted else 20, hands=10 if counted else None)
    if not any(k in change for k in ("small_blind", "big_blind")):
        raise InvalidInput("A new level needs its blinds.")
    new = _level_from(change, replace(like, ante=0), counted)
    items.insert(index, new)
    after = sum(1 for i in items[:index] if isinstance(i, Level))
    if after:
        return Message("Level {level} added: {words}, after level {after}.", level=after + 1,
                       words=_level_words(new), after=after)
    return Message("Level {level} added: {words}, first.", level=after + 1, words=_level_words(new))


def _add_break(structure: Structure, items: list[Item], index: int, change: Mapping[str, Any]) -> str:
    """A new break at ``index`` (10 minutes unless the change says otherwise)."""
    if index == 0:
        raise InvalidInput("The structure cannot start with a break: put a level before it.")
    minutes = _edit_int(change, "minutes", Term("break's length in minutes"), 1, MAX_EDIT_MINUTES) or 10
    items.insert(index, Break(minutes, _colour_up(change, ())))
    after = sum(1 for i in items[:index] if isinstance(i, Level))
    return Message("A {minutes}-minute break added after level {after}.", minutes=minutes, after=after)


def _remove(structure: Structure, items: list[Item], index: int, change: Mapping[str, Any]) -> str:
    """Take out the level or break at ``index`` (not the only level)."""
    gone = items.pop(index)
    if isinstance(gone, Level) and not any(isinstance(i, Level) for i in items):
        raise InvalidInput("That is the only level: a structure needs at least one.")
    what = _item_name(structure, index, capital=True)
    if isinstance(gone, Level):
        return Message("{item} removed ({words}).", item=what, words=_level_words(gone))
    return Message("{item} removed.", item=what)


def _all_levels(structure: Structure, items: list[Item], index: int, change: Mapping[str, Any]) -> str:
    """The same length for every level from ``index`` on."""
    length = _length(change, structure.hand_counted)
    if not length:
        raise InvalidInput("Give the length every level from there on should have.")
    items[index:] = [
        replace(i, minutes=length.get("minutes"), hands=length.get("hands")) if isinstance(i, Level) else i
        for i in items[index:]
    ]
    first = sum(1 for i in structure.items[: index + 1] if isinstance(i, Level))
    if not isinstance(structure.items[index], Level):
        first += 1
    if "hands" in length:
        return Message("Every level from level {first} on: {hands} hands.", first=first, hands=length["hands"])
    return Message("Every level from level {first} on: {minutes} minutes.", first=first,
                   minutes=length["minutes"])


_EDITORS: dict[str, Callable[[Structure, list[Item], int, Mapping[str, Any]], str]] = {
    "level": _edit_level, "break": _edit_break, "add_level": _add_level, "add_break": _add_break,
    "remove": _remove, "all_levels": _all_levels,
}


def _choices(structure: Structure, change: Mapping[str, Any]) -> tuple[Structure, str]:
    """The host's list for dealer's choice levels (empty: every game the assistant follows)."""
    raw = change.get("choices")
    if isinstance(raw, str):
        raw = [part for part in raw.replace(",", " ").split() if part]
    if not isinstance(raw, list | tuple):
        raise InvalidInput("Give the dealer's choice as a list of games.")
    games = [game_named(key) for key in raw]
    refused = [g for g in games if not g.dealt]
    if refused:
        raise InvalidInput(
            "The dealer's choice can only list games the dealer's assistant follows, not {game}.",
            game=refused[0].name,
        )
    keys = tuple(dict.fromkeys(g.key for g in games))
    new = replace(structure, choices=keys)
    if not keys:
        return new, Message("Dealer's choice: every game the dealer's assistant follows.")
    return new, Message("Dealer's choice: {games}.", games=", ".join(GAMES[k].short for k in keys))
"""How each of :data:`EDITS` changes the items (in place) and says what it did."""


def _level_words(level: Level) -> Message:
    words = _blinds_words(level)
    if level.game != DEFAULT_GAME:
        return Message("{game} {words}", game=GAMES[level.game].short, words=words)
    return words


def _blinds_words(level: Level) -> Message:
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
