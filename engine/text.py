"""How the engine writes numbers in its own English sentences (``str()`` of a message, the
command-line contracts). The app writes every value in the reader's language instead
(``director.core.words``), from the message's values, never from this text.

>>> chips(80000), chips(12345.6), ordinal(1), ordinal(12), ordinal(23), ordinal(101)
('80,000', '12,346', '1st', '12th', '23rd', '101st')
"""

from __future__ import annotations


def chips(amount: float) -> str:
    """``12,345``: an amount as it is read aloud at the table (a fraction rounded)."""
    return f"{round(amount):,}"


def ordinal(place: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th', 22 -> '22nd'."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"
