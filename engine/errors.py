"""The one exception family of the engine.

Every message is a sentence a dealer or a director can read aloud: it names the seat, the
amount and the limit. The sentence is given as an English message id with ``{named}`` fields
and its values, never as finished text, so the app can say it in the reader's language without
the engine knowing of any language:

>>> error = IllegalAction("Seat {seat} cannot raise to {amount}: the minimum raise is to {minimum}.",
...                       seat=3, amount=30, minimum=40)
>>> str(error)
'Seat 3 cannot raise to 30: the minimum raise is to 40.'
>>> error.message, error.values
('Seat {seat} cannot raise to {amount}: the minimum raise is to {minimum}.', {'seat': 3, 'amount': 30, 'minimum': 40})

English is the default rendering (``str()``): numbers are written with ``engine.text.chips``,
a ``Term`` (a word that is itself translated, such as a street's name) as it is.
"""

from __future__ import annotations

from typing import Any


class Term(str):
    """A word or phrase inside a message that is itself a message id (``Term("the flop")``)."""

    __slots__ = ()


def N_(message: str) -> str:
    """Marks an English message id for the catalogues where it is not given to an error directly."""
    return message


def english(message: str, values: dict[str, Any]) -> str:
    from engine.text import chips

    def shown(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            if isinstance(value, list | tuple):
                return ", ".join(str(shown(item)) for item in value)
            return str(value)
        return chips(value)

    if not values:
        return message
    try:
        return message.format(**{key: shown(value) for key, value in values.items()})
    except (KeyError, IndexError, ValueError):
        return message


class Message(str):
    """A finished English sentence (it is a ``str``) that remembers its message id and values,
    so the app can say it again in another language: ``Message("Seat {seat} folds.", seat=3)``.
    """

    message: str
    values: dict[str, Any]

    def __new__(cls, message: str, /, **values: Any) -> Message:
        made = super().__new__(cls, english(message, values))
        made.message = message
        made.values = values
        return made

    def __reduce__(self) -> Any:
        return (_message, (self.message, self.values))


def _message(message: str, values: dict[str, Any]) -> Message:
    return Message(message, **values)


class EngineError(ValueError):
    """Anything the engine refuses."""

    def __init__(self, message: str = "", /, **values: Any) -> None:
        self.message = message
        self.values = values
        super().__init__(english(message, values))


class InvalidInput(EngineError):
    """Input that cannot be understood: an unknown card, a malformed action."""


class IllegalAction(EngineError):
    """A well-formed action at the wrong moment or for the wrong amount."""
