"""Omaha's hands: exactly two of the hole cards (four, or five in five-card Omaha) and exactly
three of the board; and Omaha hi-lo's low, eight or better: five different ranks of eight or
lower, aces low, the same two and three.

>>> from engine.cards import parse_cards
>>> hole, board = parse_cards("As Ks Qd Jd"), parse_cards("2s 7s 9s Th 3c")
>>> best_hand(hole, board).name  # two spades of the hand, three of the board
'Flush, ace high'
>>> best_hand(parse_cards("As Ad 3c 4d"), parse_cards("Ah Kh Qh Jh Th")).name  # not the board's royal flush
'Three of a kind, aces'
>>> low_name(low_ranks(parse_cards("Ah 2c Kd Kc"), parse_cards("4s 7d 5h Qc Qs")))
'Low: 7-5-4-2-A'
>>> low_ranks(parse_cards("Ah 2c Kd Kc"), parse_cards("4s 9d 5h Qc Qs")) is None  # two low board cards: no low
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.cards import Card, check_distinct
from engine.errors import InvalidInput, Message
from engine.evaluate import HandRank, card_weight, evaluate, value_of_weights

HOLE_SIZES = (4, 5)


def _check(hole: Sequence[Card], board: Sequence[Card]) -> None:
    if len(hole) not in HOLE_SIZES:
        raise InvalidInput("An Omaha hand has 4 or 5 hole cards, not {count}.", count=len(hole))
    if not 3 <= len(board) <= 5:
        raise InvalidInput("An Omaha hand needs 3 to 5 board cards, not {count}.", count=len(board))
    check_distinct((*hole, *board))


def rank_value(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The value of the best hand of two hole cards and three board cards, ordered as
    :func:`engine.evaluate.rank_value` orders hands (equal means a chop)."""
    _check(hole, board)
    pairs = [card_weight(a) + card_weight(b) for a, b in combinations(hole, 2)]
    threes = [card_weight(a) + card_weight(b) + card_weight(c) for a, b, c in combinations(board, 3)]
    return max(value_of_weights(p + t) for p in pairs for t in threes)


def best_hand(hole: Sequence[Card], board: Sequence[Card]) -> HandRank:
    """The best hand of two hole cards and three board cards, with its name and five cards."""
    _check(hole, board)
    best: tuple[int, tuple[Card, ...]] = (-1, ())
    for two in combinations(hole, 2):
        pair = card_weight(two[0]) + card_weight(two[1])
        for three in combinations(board, 3):
            value = value_of_weights(pair + card_weight(three[0]) + card_weight(three[1]) + card_weight(three[2]))
            if value > best[0]:
                best = (value, (*two, *three))
    return evaluate(best[1])


_LOW = {14: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8}
"""The ranks that make a low, aces low."""


def low_ranks(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, ...] | None:
    """The best low of two hole cards and three board cards, eight or better: five different
    ranks of eight or lower (aces low: 1), highest first; the smaller tuple is the better low
    (7-5-4-2-A beats 7-6-3-2-A). None when no low qualifies. Straights and flushes do not
    count against a low."""
    _check(hole, board)
    mine = sorted({_LOW[c.rank] for c in hole if c.rank in _LOW})
    theirs = sorted({_LOW[c.rank] for c in board if c.rank in _LOW})
    if len(mine) < 2 or len(theirs) < 3:
        return None
    best: tuple[int, ...] | None = None
    for two in combinations(mine, 2):
        for three in combinations(theirs, 3):
            if two[0] in three or two[1] in three:
                continue
            low = tuple(sorted((*two, *three), reverse=True))
            if best is None or low < best:
                best = low
    return best


def low_name(ranks: tuple[int, ...] | None) -> str:
    """``Low: 7-5-4-2-A`` (``No low`` for None)."""
    if ranks is None:
        return Message("No low")
    return Message("Low: {cards}", cards="-".join("A" if r == 1 else str(r) for r in ranks))
