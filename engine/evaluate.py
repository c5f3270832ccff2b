"""Hand evaluation: the best five cards out of five, six or seven, with a readable name.

The ace is high, or low only in the wheel A-2-3-4-5; straights never wrap around;
suits never rank. Hands of the same kind compare on their ranks, then the kickers
one by one; equal best fives split.

>>> from engine.cards import parse_cards
>>> hand = evaluate(parse_cards("Kh Kd As 9c 5d 3h 2s"))
>>> hand.name, hand.ranks, hand.cards
('Pair of kings', (13, 14, 9, 5), (Kh, Kd, As, 9c, 5d))
>>> evaluate(parse_cards("Ks Kc Qd 9c 5d 3h 2s")) < hand
True
>>> evaluate(parse_cards("As 2d 3h 4c 5s")).name
'Straight, five high'

How it works: every card adds one precomputed integer to a running sum that holds,
in separate bit fields, how many cards of each rank there are, how many of each suit,
and one bit per card. A table built once at import maps the rank counts to the best
hand without a flush; a second table maps a suit's ranks to its best flush. Nothing
enumerates the 21 five-card subsets of seven cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import combinations, combinations_with_replacement
from operator import itemgetter
from typing import TypeAlias

from engine.cards import SUIT_CHARS, Card, check_distinct
from engine.errors import N_, InvalidInput, Message, Term

RANK = {
    2: Term("two"), 3: Term("three"), 4: Term("four"), 5: Term("five"), 6: Term("six"),
    7: Term("seven"), 8: Term("eight"), 9: Term("nine"), 10: Term("ten"), 11: Term("jack"),
    12: Term("queen"), 13: Term("king"), 14: Term("ace"),
}
"""A rank in a hand's name (``Straight, nine high``): ``engine.cards.RANK_NAMES`` as words of
the catalogue."""
RANKS = {
    2: Term("twos"), 3: Term("threes"), 4: Term("fours"), 5: Term("fives"), 6: Term("sixes"),
    7: Term("sevens"), 8: Term("eights"), 9: Term("nines"), 10: Term("tens"), 11: Term("jacks"),
    12: Term("queens"), 13: Term("kings"), 14: Term("aces"),
}
"""A rank's plural in a hand's name (``Pair of nines``): ``engine.cards.RANK_PLURALS``."""


class Category(IntEnum):
    """The kind of hand, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


@dataclass(frozen=True, order=True)
class HandRank:
    """A hand's strength. Higher is better and ``==`` means a chop: only ``category``
    and ``ranks`` are compared, so suits never rank.

    ``ranks`` are the tie-break ranks, most significant first: the quads then the kicker,
    the trips then the pair, a straight's high card (5 for the wheel), and so on.
    ``cards`` are the best five cards, grouped and ordered as the hand reads.
    """

    category: Category
    ranks: tuple[int, ...]
    cards: tuple[Card, ...] = field(compare=False)

    @property
    def name(self) -> str:
        """``Full house, kings full of sevens``, ``Pair of sixes``, ``Royal flush``."""
        c, r = self.category, self.ranks
        if c == Category.STRAIGHT_FLUSH:
            if r[0] == 14:
                return Message("Royal flush")
            return Message("Straight flush, {high} high", high=RANK[r[0]])
        if c == Category.FOUR_OF_A_KIND:
            return Message("Four of a kind, {rank}", rank=RANKS[r[0]])
        if c == Category.FULL_HOUSE:
            return Message("Full house, {three} full of {pair}", three=RANKS[r[0]], pair=RANKS[r[1]])
        if c == Category.FLUSH:
            return Message("Flush, {high} high", high=RANK[r[0]])
        if c == Category.STRAIGHT:
            return Message("Straight, {high} high", high=RANK[r[0]])
        if c == Category.THREE_OF_A_KIND:
            return Message("Three of a kind, {rank}", rank=RANKS[r[0]])
        if c == Category.TWO_PAIR:
            return Message("Two pair, {high} and {low}", high=RANKS[r[0]], low=RANKS[r[1]])
        if c == Category.PAIR:
            return Message("Pair of {rank}", rank=RANKS[r[0]])
        return Message("High card, {rank}", rank=RANK[r[0]])

    @property
    def value(self) -> int:
        """The integer :func:`rank_value` gives for the same cards."""
        return _pack(self.category, self.ranks)


_IN_SENTENCE = {
    "Royal flush": N_("a royal flush"),
    "Straight flush, {high} high": N_("a straight flush, {high} high"),
    "Four of a kind, {rank}": N_("four of a kind, {rank}"),
    "Full house, {three} full of {pair}": N_("a full house, {three} full of {pair}"),
    "Flush, {high} high": N_("a flush, {high} high"),
    "Straight, {high} high": N_("a straight, {high} high"),
    "Three of a kind, {rank}": N_("three of a kind, {rank}"),
    "Two pair, {high} and {low}": N_("two pair, {high} and {low}"),
    "Pair of {rank}": N_("a pair of {rank}"),
    "High card, {rank}": N_("high card, {rank}"),
}


def in_sentence(name: str) -> str:
    """A hand's :attr:`HandRank.name` as it reads inside a sentence (``with a straight, nine
    high``).

    >>> in_sentence(HandRank(Category.STRAIGHT, (9,), ()).name), in_sentence("Two pair, kings and sevens")
    ('a straight, nine high', 'two pair, kings and sevens')
    """
    if isinstance(name, Message) and name.message in _IN_SENTENCE:
        return Message(_IN_SENTENCE[name.message], **name.values)
    text = name[:1].lower() + name[1:]
    for word in ("flush", "straight", "full house", "royal flush", "pair"):
        if text.startswith(word):
            return "a " + text
    return text


# ---------------------------------------------------------------------------
# Values: a hand packed into one int, ``category << 20 | ranks``, four bits a rank.
# Within a category every hand has the same number of ranks, so the ints order
# exactly as the HandRanks do.

_GROUPS: dict[Category, tuple[int, ...]] = {
    # How many cards each tie-break rank stands for, in order.
    Category.HIGH_CARD: (1, 1, 1, 1, 1),
    Category.PAIR: (2, 1, 1, 1),
    Category.TWO_PAIR: (2, 2, 1),
    Category.THREE_OF_A_KIND: (3, 1, 1),
    Category.STRAIGHT: (5,),
    Category.FLUSH: (1, 1, 1, 1, 1),
    Category.FULL_HOUSE: (3, 2),
    Category.FOUR_OF_A_KIND: (4, 1),
    Category.STRAIGHT_FLUSH: (5,),
}
_CATEGORIES = tuple(Category)


def _pack(category: int, ranks: Iterable[int]) -> int:
    value, shift = category << 20, 16
    for r in ranks:
        value |= r << shift
        shift -= 4
    return value


def _unpack(value: int) -> tuple[Category, tuple[int, ...]]:
    category = _CATEGORIES[value >> 20]
    n = len(_GROUPS[category])
    return category, tuple((value >> (16 - 4 * i)) & 15 for i in range(n))


def _straight_high(mask: int) -> int:
    """The high card of the best straight in a rank mask (bit ``r - 2`` for rank r), or 0."""
    for high in range(14, 5, -1):
        run = 0b11111 << (high - 6)
        if mask & run == run:
            return high
    wheel = 1 << 12 | 0b1111  # A, 2, 3, 4, 5
    return 5 if mask & wheel == wheel else 0


_SHAPES_OF_FIVE = {
    # How many cards of each rank, most first -> the kind of hand (suits aside).
    (4, 1): Category.FOUR_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (2, 2, 1): Category.TWO_PAIR,
    (2, 1, 1, 1): Category.PAIR,
    (1, 1, 1, 1, 1): Category.HIGH_CARD,
}


def _best_of_five(ranks: tuple[int, ...]) -> int:
    """The value of five cards with these ranks, ignoring suits (no flush).

    The ranks ordered by how many cards share them, then by rank, are the tie-break ranks.
    """
    counts = {r: ranks.count(r) for r in ranks}
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    category = _SHAPES_OF_FIVE[tuple(counts[r] for r in order)]
    if category == Category.HIGH_CARD:
        high = _straight_high(sum(1 << (r - 2) for r in order))
        if high:
            return _pack(Category.STRAIGHT, (high,))
    return _pack(category, order)


# ---------------------------------------------------------------------------
# The running sum. Each card adds
#   bits  0..38  one to its rank's 3-bit counter (at most 4 of a rank),
#   bits 40..55  one to its suit's 4-bit counter (at most 7 of a suit),
#   bits 64..115 its own bit, at 64 + 13 * suit + rank - 2.
# With no card twice, the card bits never carry, so their count is the number of cards.

_RANK_BITS = 40
_SUIT_SHIFT = 40
_CARD_SHIFT = 64
_RANK_MASK = (1 << _RANK_BITS) - 1


def _rank_field(rank: int) -> int:
    return 1 << 3 * (rank - 2)


_CARD_WEIGHT: dict[str, list[int]] = {
    s: [0, 0] + [
        _rank_field(r) | 1 << (_SUIT_SHIFT + 4 * i) | 1 << (_CARD_SHIFT + 13 * i + r - 2)
        for r in range(2, 15)
    ]
    for i, s in enumerate(SUIT_CHARS)
}

# Adding 3 to each suit counter sets its top bit exactly when it holds 5 or more.
_FLUSH_PROBE = 0x3333 << _SUIT_SHIFT
_FLUSH_FLAGS = 0x8888 << _SUIT_SHIFT
_FLUSH_SUIT = {0x8 << (_SUIT_SHIFT + 4 * i): _CARD_SHIFT + 13 * i for i in range(4)}


def _build_tables() -> tuple[dict[int, int], list[int]]:
    """Rank counts -> best hand without a flush, and one suit's ranks -> best flush.

    Five cards are evaluated directly; the best of six or seven cards is the best of
    their subsets one card smaller, which one more card per rank extends cheaply.
    """
    fields = [(_rank_field(r), _rank_field(r) << 2) for r in range(2, 15)]
    no_flush: dict[int, int] = {}
    level: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(2, 15), 5):
        if ranks[0] != ranks[4]:  # not five of a rank
            level[sum(_rank_field(r) for r in ranks)] = _best_of_five(ranks)
    no_flush.update(level)
    for _ in (6, 7):
        bigger: dict[int, int] = {}
        keep_first = bigger.setdefault
        for key, value in sorted(level.items(), key=itemgetter(1), reverse=True):
            # Best subsets first, so the first value a bigger set gets is its best.
            for one, four in fields:
                if not key & four:  # fewer than four of this rank
                    keep_first(key + one, value)
        no_flush.update(bigger)
        level = bigger
    # Five to seven different ranks make a straight or a high-card hand; in one suit
    # the same ranks make a straight flush or a flush, which compare the same way.
    suited = {Category.STRAIGHT: Category.STRAIGHT_FLUSH, Category.HIGH_CARD: Category.FLUSH}
    flush = [0] * (1 << 13)
    for n in (5, 6, 7):
        for different in combinations(range(2, 15), n):
            category, tie_break = _unpack(no_flush[sum(_rank_field(r) for r in different)])
            flush[sum(1 << (r - 2) for r in different)] = _pack(suited[category], tie_break)
    return no_flush, flush


_NO_FLUSH, _FLUSH = _build_tables()


def _check(cards: tuple[Card, ...]) -> None:
    """Raise the sentence that says why these cards are not a hand."""
    n = len(cards)
    if not 5 <= n <= 7:
        shown = " ".join(map(str, cards))
        if n == 0:
            raise InvalidInput("A hand is the best five of 5, 6 or 7 cards, not of no cards.")
        if n == 1:
            raise InvalidInput("A hand is the best five of 5, 6 or 7 cards, not of 1 card ({cards}).", cards=shown)
        raise InvalidInput(
            "A hand is the best five of 5, 6 or 7 cards, not of {count} cards ({cards}).", count=n, cards=shown
        )
    check_distinct(cards)


def _weigh(cards: tuple[Card, ...]) -> int:
    """The running sum of the cards; refuses anything but 5, 6 or 7 distinct cards."""
    total = 0
    weight = _CARD_WEIGHT
    for c in cards:
        total += weight[c.suit][c.rank]
    if not 5 <= len(cards) <= 7 or (total >> _CARD_SHIFT).bit_count() != len(cards):
        _check(cards)
    return total


def rank_value(cards: Iterable[Card]) -> int:
    """An int that orders hands exactly as :func:`evaluate` does (equal means a chop).

    The fast path for bulk comparisons; it checks the cards as strictly as ``evaluate``.

    >>> from engine.cards import parse_cards
    >>> rank_value(parse_cards("AsKsQsJsTs9d9c")) > rank_value(parse_cards("AhAdAcAs2c3d"))
    True
    """
    total = _weigh(tuple(cards))
    flags = (total + _FLUSH_PROBE) & _FLUSH_FLAGS
    if flags:
        # Five cards of one suit leave at most two others: no full house or quads beside it.
        return _FLUSH[(total >> _FLUSH_SUIT[flags]) & 0x1FFF]
    return _NO_FLUSH[total & _RANK_MASK]


def card_weight(card: Card) -> int:
    """A card's share of the running sum (see the module's documentation): add up five
    distinct cards' weights and :func:`value_of_weights` gives their hand's value."""
    return _CARD_WEIGHT[card.suit][card.rank]


def value_of_weights(total: int) -> int:
    """The :func:`rank_value` of five distinct cards whose :func:`card_weight` add up to
    ``total`` (games that choose their five, like Omaha, add the weights themselves)."""
    flags = (total + _FLUSH_PROBE) & _FLUSH_FLAGS
    if flags:
        return _FLUSH[(total >> _FLUSH_SUIT[flags]) & 0x1FFF]
    return _NO_FLUSH[total & _RANK_MASK]


def evaluate(cards: Iterable[Card]) -> HandRank:
    """The best five-card hand among 5, 6 or 7 distinct cards.

    The result's ``cards`` equal five of the given cards (they need not be the same objects).
    Raises :class:`InvalidInput` for fewer than 5 cards, more than 7, or a card twice.
    """
    total = _weigh(tuple(cards))
    flags = (total + _FLUSH_PROBE) & _FLUSH_FLAGS
    if flags:
        shift = _FLUSH_SUIT[flags]
        value = _FLUSH[(total >> shift) & 0x1FFF]
        return _FLUSH_HANDS.get(value << 7 | shift) or _flush_hand(value, shift)
    value = _NO_FLUSH[total & _RANK_MASK]
    category, ranks, picks = _SHAPES.get(value) or _shape(value)
    best: tuple[Card, ...] = ()
    for shift, pick in picks:
        best += pick[(total >> shift) & _COLUMN]
    return HandRank(category, ranks, best)


# ---------------------------------------------------------------------------
# Naming the best five cards. Results are remembered per hand value (at most 7,462),
# so each is worked out once.


def _sequence(category: Category, ranks: tuple[int, ...]) -> list[tuple[int, int]]:
    """Which cards make the hand, in order: (rank, how many)."""
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        high = ranks[0]
        return [(r if r > 1 else 14, 1) for r in range(high, high - 5, -1)]
    return list(zip(ranks, _GROUPS[category], strict=True))


_FLUSH_HANDS: dict[int, HandRank] = {}


def _flush_hand(value: int, shift: int) -> HandRank:
    """The flush or straight flush ``value`` in the suit whose card bits start at ``shift``."""
    category, ranks = _unpack(value)
    suit = SUIT_CHARS[(shift - _CARD_SHIFT) // 13]
    best = tuple(Card(rank, suit) for rank, _ in _sequence(category, ranks))
    _FLUSH_HANDS[value << 7 | shift] = hand = HandRank(category, ranks, best)
    return hand


# Where the four cards of one rank sit among the card bits, shifted down to that rank.
_COLUMN = sum(1 << 13 * i for i in range(4))
_SUIT_PREFERENCE = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs: lists cards the same way
_Picker: TypeAlias = dict[int, tuple[Card, ...]]


def _picker(rank: int, n: int) -> _Picker:
    """Which suits of a rank are held (as a ``_COLUMN`` pattern) -> the ``n`` cards to show."""
    table = {}
    for held in range(16):
        suits = [i for i in _SUIT_PREFERENCE if held >> i & 1]
        if len(suits) >= n:
            pattern = sum(1 << 13 * i for i in suits)
            table[pattern] = tuple(Card(rank, SUIT_CHARS[i]) for i in suits[:n])
    return table


_PICKERS = {(r, n): _picker(r, n) for r in range(2, 15) for n in (1, 2, 3, 4)}

_Shape: TypeAlias = tuple[Category, tuple[int, ...], tuple[tuple[int, _Picker], ...]]
_SHAPES: dict[int, _Shape] = {}


def _shape(value: int) -> _Shape:
    """For hands without a flush: the category, the ranks and how to pick the cards."""
    category, ranks = _unpack(value)
    picks = tuple(
        (_CARD_SHIFT + rank - 2, _PICKERS[rank, n]) for rank, n in _sequence(category, ranks)
    )
    _SHAPES[value] = shape = category, ranks, picks
    return shape
