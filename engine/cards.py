"""Playing cards: parse, print, and a deck that is shuffled only by a given ``rng``.

>>> Card.parse("As")
As
>>> parse_cards("AsKd")
(As, Kd)
>>> Card.parse("Td").rank, Card.parse("Td").suit
(10, 'd')
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

from engine.errors import N_, InvalidInput, Message, Term

Rank: TypeAlias = int
"""2 to 14, where 11 is a jack, 12 a queen, 13 a king and 14 an ace."""

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}
RANK_PLURALS = {r: (n + "es" if n == "six" else n + "s") for r, n in RANK_NAMES.items()}
SUIT_NAMES = {"c": N_("clubs"), "d": N_("diamonds"), "h": N_("hearts"), "s": N_("spades")}
CARD_RANKS = {
    2: N_("Two"), 3: N_("Three"), 4: N_("Four"), 5: N_("Five"), 6: N_("Six"), 7: N_("Seven"),
    8: N_("Eight"), 9: N_("Nine"), 10: N_("Ten"), 11: N_("Jack"), 12: N_("Queen"), 13: N_("King"),
    14: N_("Ace"),
}
"""A card's rank as its name begins (``Ace of spades``)."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card. Ordered by rank, then suit (the order only sorts; suits never rank a hand)."""

    rank: Rank
    suit: str

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14 or self.suit not in SUIT_CHARS:
            raise InvalidInput(
                "There is no card of rank {rank} and suit {suit}.",
                rank=repr(self.rank), suit=repr(self.suit)
            )

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card such as ``As``, ``Td``, ``2c`` (``10d`` is accepted for ``Td``)."""
        t = text.strip()
        if len(t) == 3 and t[:2] == "10":
            t = "T" + t[2]
        if len(t) != 2:
            raise InvalidInput(
                "{text} is not a card: write a rank and a suit, like As, Td or 2c.",
                text=repr(text)
            )
        r, s = t[0].upper(), t[1].lower()
        if r not in RANK_CHARS:
            raise InvalidInput(
                "{text} is not a card: the rank must be one of {ranks}.",
                text=repr(text), ranks=RANK_CHARS,
            )
        if s not in SUIT_CHARS:
            raise InvalidInput("{text} is not a card: the suit must be one of c, d, h, s.", text=repr(text))
        return cls(RANK_CHARS.index(r) + 2, s)

    @property
    def code(self) -> int:
        """0 to 51: ``(rank - 2) * 4 + suit index``; handy for lookup tables."""
        return (self.rank - 2) * 4 + SUIT_CHARS.index(self.suit)

    @property
    def name(self) -> str:
        """``Ace of spades`` (a :class:`Message`: its words are translated)."""
        return Message("{rank} of {suit}", rank=Term(CARD_RANKS[self.rank]), suit=Term(SUIT_NAMES[self.suit]))

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 2] + self.suit

    def __repr__(self) -> str:
        return str(self)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read several cards written together or apart: ``AsKd``, ``As Kd``, ``As,Kd``.

    An unknown card (``??``) is refused: a hand that was not shown has no cards.

    >>> parse_cards("7h 8h,9c")
    (7h, 8h, 9c)
    >>> parse_cards("")
    ()
    """
    compact = "".join(ch for ch in text if not ch.isspace() and ch != ",").replace("10", "T")
    if len(compact) % 2:
        raise InvalidInput(
            "{text} is not a list of cards: each card is a rank and a suit, like AsKd.",
            text=repr(text)
        )
    cards = tuple(Card.parse(compact[i : i + 2]) for i in range(0, len(compact), 2))
    check_distinct(cards)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """``AsKd``: the compact form that :func:`parse_cards` reads back."""
    return "".join(str(c) for c in cards)


def check_distinct(cards: Iterable[Card]) -> None:
    """Refuse the same card twice (a fouled deck)."""
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise InvalidInput("The {card} ({code}) appears twice.", card=c.name, code=str(c))
        seen.add(c)


FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for r in range(2, 15) for s in SUIT_CHARS)


def new_deck(rng: random.Random | None = None) -> list[Card]:
    """The 52 cards, in order, or shuffled by ``rng`` when one is given.

    >>> len(new_deck()), new_deck()[0], new_deck()[-1]
    (52, 2c, As)
    >>> new_deck(random.Random(7)) == new_deck(random.Random(7))
    True
    """
    deck = list(FULL_DECK)
    if rng is not None:
        rng.shuffle(deck)
    return deck
