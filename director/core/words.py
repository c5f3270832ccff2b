"""How things are written in the reader's language, in one place: numbers and chips
(:func:`number`, :func:`chips`), places (:func:`ordinal`, and before an amount
:func:`before_amount`), lists (:func:`listed`), numbers for
the TV's voice (:func:`spoken`), and the engine's sentences (:func:`say`).

The engine is language-free: its sentences (``engine.errors.Message``, an ``EngineError``)
carry an English message id and values; :func:`say` writes them in the reader's language,
each value written here (a number as :func:`number` writes it, a list as :func:`listed`).

>>> number(12345.6), chips(None), ordinal(23), spoken(1000), listed(["Ann", "Bob", "Cy"])
('12,346', '–', '23rd', '1000', 'Ann, Bob and Cy')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from babel.lists import format_list
from babel.numbers import format_decimal

from director.core.i18n import elide, language, translated
from engine.errors import EngineError, Message, Term


def number(amount: float) -> str:
    """``12,345`` / ``12.345`` / ``12 345``: every digit kept, a fraction rounded (Babel's
    writing of a whole number in the reader's language, without Babel's cost at every number).
    """
    whole = round(amount)
    way = _way_of_writing(language())
    if way is None:
        return format_decimal(whole, locale=language())
    return _written(whole, way)


@lru_cache(maxsize=16)
def _way_of_writing(code: str) -> tuple[str, str, int] | None:
    """The group separator, the minus sign and the smallest number grouped, as Babel writes
    them for ``code``; None for a language that groups otherwise (every number to Babel)."""
    million = format_decimal(1234567, locale=code)  # 1 G 234 G 567
    group = million[1:1 + (len(million) - 7) // 2]
    minus = format_decimal(-1, locale=code)[:-1]
    least = 1000 if group in format_decimal(1000, locale=code) else 10000
    way = (group, minus, least)
    samples = (0, 7, 999, 1000, 9999, 10000, 123456, 1234567, 1234567890, -1234, -98765)
    if any(_written(n, way) != format_decimal(n, locale=code) for n in samples):
        return None
    return way


def _written(whole: int, way: tuple[str, str, int]) -> str:
    group, minus, least = way
    digits = f"{abs(whole):,}" if abs(whole) >= least else str(abs(whole))
    return (minus if whole < 0 else "") + digits.replace(",", group)


def _english_ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


#: How each language writes a place (a language without a rule here writes ``3.``).
ORDINALS = {
    "en": _english_ordinal,
    "fr": lambda place: "1er" if place == 1 else f"{place}e",
    "de": lambda place: f"{place}.",
    "es": lambda place: f"{place}.º",
}


def ordinal(place: int) -> str:
    """1st / 1er / 1. / 1.º, and so on."""
    return ORDINALS.get(language(), lambda place: f"{place}.")(place)


def before_amount(label: str) -> str:
    """A place (or a name) with its amount after it, as in a list of prizes: ``1st 181``,
    ``1er 181``, ``1.º 181``, but ``1.: 181``: where the place ends in a full stop, the number
    after it would read as part of it (``1. 181`` as 1181, or as a date), so a colon parts them."""
    return f"{label}:" if label.endswith(".") else label


def say(error: EngineError | Message | str) -> str:
    """An engine sentence (an error, a ``Message``) in the reader's language; its English is
    the message id. A plain string is translated if the catalogues know it."""
    if isinstance(error, EngineError | Message):
        return render_message(error.message, error.values)
    return translated(str(error)) if error else ""


def render_message(message: str, values: Mapping[str, Any]) -> str:
    shown = {key: shown_value(value) for key, value in values.items()}
    try:
        return elide(translated(message).format(**shown))
    except (KeyError, IndexError, ValueError):
        return message.format(**shown)


def shown_value(value: Any) -> Any:
    if isinstance(value, Term):
        return translated(str(value))
    if isinstance(value, EngineError | Message):
        return say(value)
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return number(value)
    if isinstance(value, list | tuple):
        return ", ".join(str(shown_value(item)) for item in value)
    return value


def chips(amount: float | None) -> str:
    """An amount of chips or money as :func:`number` writes it; ``–`` when there is none."""
    return "–" if amount is None else number(amount)


def spoken(amount: int) -> str:
    """A number for the TV's speech synthesiser: ``1,000`` reads oddly in some voices,
    ``1000`` never (every language reads the digits)."""
    return str(amount)


def listed(items: Iterable[str]) -> str:
    """``Ann, Bob and Cy`` / ``Ann, Bob et Cy`` / ``Ann, Bob und Cy``: a list in a sentence."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return _list_writer(language())(words)


@lru_cache(maxsize=16)
def _list_writer(code: str) -> Any:
    """Babel's list pattern for ``code`` (English: no comma before ``and``, as the app writes)."""
    if code == "en":
        return lambda words: ", ".join(words[:-1]) + " and " + words[-1]
    return lambda words: format_list(words, locale=code)
