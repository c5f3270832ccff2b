"""Payout tables: the share of the prize pool each paid place gets.

The default home-game tables (TDA 7.2) by number of entries, and a host's own percentages
as typed (``50/30/20``), checked: positive, first place highest, adding up to 100.

>>> [int(p) for p in payout_percentages(10)]
[50, 30, 20]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TypeAlias

from engine.errors import InvalidInput

Percentage: TypeAlias = int | float | str | Decimal | Fraction


@dataclass(frozen=True)
class PayoutTable:
    """The share of the prize pool paid to each place, for a range of entries."""

    min_entries: int
    max_entries: int
    percentages: tuple[Fraction, ...]
    source: str

    def __str__(self) -> str:
        return "/".join(_format_percent(p) for p in self.percentages)


def _format_percent(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{float(p):g}"


def _table(lo: int, hi: int, text: str, source: str) -> PayoutTable:
    return PayoutTable(lo, hi, parse_percentages(text), source)


def parse_percentages(text: str) -> tuple[Fraction, ...]:
    """Read a payout list as a host types it: ``50/30/20``, ``50, 30, 20`` or ``50 30 20``.

    >>> [str(p) for p in parse_percentages("30/20/12/10/8/6.5/5.5/4.5/3.5")][-2:]
    ['9/2', '7/2']
    """
    parts = [p for p in text.replace("/", " ").replace(",", " ").replace("%", " ").split() if p]
    if not parts:
        raise InvalidInput("Type the percentages for each paid place, like 50/30/20.")
    return validate_percentages(parts)


def _percent(value: Percentage) -> Fraction:
    try:
        if isinstance(value, float):
            return Fraction(repr(value))
        return Fraction(value)
    except (ValueError, ZeroDivisionError, TypeError):
        raise InvalidInput("{value} is not a percentage.", value=repr(value)) from None


def validate_percentages(percentages: Sequence[Percentage]) -> tuple[Fraction, ...]:
    """Check a custom payout list: positive, first place highest, adding up to 100.

    >>> validate_percentages([60, 40])
    (Fraction(60, 1), Fraction(40, 1))
    """
    values = tuple(_percent(p) for p in percentages)
    if not values:
        raise InvalidInput("A payout needs at least one paid place.")
    for place, value in enumerate(values, start=1):
        if value <= 0:
            raise InvalidInput("Place {place} is paid {percent}%: every paid place needs more than 0%.",
                               place=place, percent=_format_percent(value))
        if place > 1 and value > values[place - 2]:
            raise InvalidInput(
                "Place {place} is paid {percent}%, more than place {above} "
                "({above_percent}%): a lower place cannot be paid more.",
                place=place, percent=_format_percent(value), above=place - 1,
                above_percent=_format_percent(values[place - 2]),
            )
    total = sum(values, Fraction(0))
    if total != 100:
        raise InvalidInput("The percentages add up to {total}%: they must add up to 100%.", total=_format_percent(total))
    return values


PAYOUT_TABLES: tuple[PayoutTable, ...] = (
    _table(1, 5, "100", "TDA 7.2, BGinGA: winner takes all up to 5 entries"),
    _table(6, 8, "65/35", "TDA 7.2, BGinGA (60/40 to 70/30)"),
    _table(9, 10, "50/30/20", "TDA 7.2: homepokergames, pokerclock, BGinGA"),
    _table(11, 15, "45/28/17/10", "house ladder between the 10- and 20-entry tables"),
    _table(16, 20, "45/25/15/10/5", "TDA 7.2: homepokergames (about 20 entries)"),
    _table(21, 27, "40/25/15/10/6/4", "house ladder between the 20- and 28-entry tables"),
    _table(28, 45, "40/24/16/12/8", "TDA 7.2: vegaspoker247"),
    _table(46, 100, "30/20/12/10/8/6.5/5.5/4.5/3.5", "TDA 7.2: vegaspoker247"),
)
"""The default home-game payout tables (TDA 7.2), by number of entries; editable by the host."""


def payout_table(entries: int) -> PayoutTable:
    """The default table for a number of entries (re-entries count as entries)."""
    if entries < 1:
        raise InvalidInput("A tournament with {entries} entries pays nobody.", entries=entries)
    for table in PAYOUT_TABLES:
        if table.min_entries <= entries <= table.max_entries:
            return table
    raise InvalidInput(
        "There is no default payout table for {entries} entries (the tables go up to "
        "{most}): type your own percentages.", entries=entries, most=PAYOUT_TABLES[-1].max_entries,
    )


def payout_percentages(entries: int) -> tuple[Fraction, ...]:
    """The default percentages for a number of entries.

    >>> [int(p) for p in payout_percentages(7)]
    [65, 35]
    """
    return payout_table(entries).percentages
