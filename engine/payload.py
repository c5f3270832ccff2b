"""Reading an event's payload: whole numbers, ticks, names and player numbers, each refused
with a sentence the director can read. The tournament's settings and its handlers share them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from engine.errors import N_, InvalidInput, Message, Term

PlayerId: TypeAlias = int

MAX_NAME = 40


def clean_name(value: object, what: str = N_("name")) -> str:
    """A name with its spaces tidied, or ``InvalidInput`` if it is empty or too long.

    >>> clean_name("  Ann   Lee ")
    'Ann Lee'
    """
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput("The {what} is empty: type a {what}.", what=Term(what))
    name = " ".join(value.split())
    if len(name) > MAX_NAME:
        raise InvalidInput("The {what} {name}… is too long: at most {most} characters.", what=Term(what),
                           name=name[:MAX_NAME], most=MAX_NAME)
    return name


def _int(data: Mapping[str, Any], key: str, label: str, default: int, minimum: int = 0) -> int:
    """``data[key]`` as a whole number of at least ``minimum``; ``label`` (an ``N_()`` id or a
    ``Message``) names it in the refusal."""
    what = label if isinstance(label, Message) else Term(label)
    value = data.get(key, default)
    if value is None or value == "":
        value = default
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).replace(",", "").strip())
        except ValueError:
            raise InvalidInput("The {label} must be a whole number, not {value}.", label=what, value=repr(value)) from None
    if value < 0 <= minimum:
        raise InvalidInput("The {label} cannot be negative ({value}).", label=what, value=value)
    if value < minimum:
        raise InvalidInput("The {label} cannot be {value}: it must be at least {minimum}.", label=what, value=value,
                           minimum=minimum)
    return value


def _ticked(value: Any) -> bool:
    """A setting's tick as a form or a client sends it: true, "on", "1" or "true"."""
    return value in (True, "on", "1", "true", 1)


def _player_id(payload: Mapping[str, Any], key: str = "player") -> PlayerId:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            return int(str(value))
        except ValueError:
            raise InvalidInput("Choose a player: {value} is not a player number.", value=repr(value)) from None
    return value


__all__ = ["MAX_NAME", "clean_name"]
