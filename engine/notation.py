"""A hand's log entries in the PHH notation: parsed, written and described in one place.

An entry is one line of a hand's log, with table seat numbers:

- ``p3 f`` folds, ``p3 cc`` checks or calls, ``p3 cbr 600`` bets or raises to 600;
- ``p3 sm AsKd`` shows, ``p3 sm`` mucks (``p3 sm ????`` shows nothing known);
- ``d db AhKd7c`` deals board cards, ``d dh p3 AsKd`` deals hole cards;
- ``d win cards`` awards every pot from the cards, ``d win 3;5,7`` to the seats named, pot by
  pot (the main pot first, then the side pots in order).

Nothing else in the engine or the app builds or splits these strings: they call
:func:`parse` and the writers below, and :func:`describe` says an entry in words.

>>> parse("p3 cbr 600")
Entry(verb='cbr', seat=3, amount=600, cards=None, winners=None, mucked=False)
>>> write(parse("d win 3;5,7")), describe("p3 cbr 1200"), describe("d win 3;5,7")
('d win 3;5,7', 'seat 3 bets or raises to 1,200', 'pots awarded: seat 3; seats 5 and 7')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from engine.errors import InvalidInput, Message

Verb: TypeAlias = Literal["f", "cc", "cbr", "sm", "db", "dh", "win"]
Seat: TypeAlias = int

PLAYER_VERBS = ("f", "cc", "cbr", "sm")
"""The verbs of a seat's entries (``p3 …``); the others are the dealer's (``d …``)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One parsed entry. ``seat`` is the acting seat (or, for ``dh``, the seat dealt to);
    ``cards`` the cards shown or dealt (``None`` for a muck or unknown cards); ``winners``
    the seats of each pot for ``win`` (``None``: from the cards)."""

    verb: Verb
    seat: Seat | None = None
    amount: int | None = None
    cards: str | None = None
    winners: tuple[tuple[Seat, ...], ...] | None = None
    mucked: bool = False
    """``sm`` without cards: the hand is mucked (``p3 sm ????`` shows cards nobody knows)."""

    @property
    def by_player(self) -> bool:
        return self.verb in PLAYER_VERBS


def _seat(word: str) -> Seat | None:
    return int(word[1:]) if word[:1] == "p" and word[1:].isdigit() and int(word[1:]) > 0 else None


def parse(text: str) -> Entry:
    """The entry ``text`` says, or ``InvalidInput`` naming what is wrong."""
    words = text.split("#", 1)[0].split()
    seat = _seat(words[0]) if words else None
    match words:
        case [_, "f"] if seat is not None:
            return Entry("f", seat)
        case [_, "cc"] if seat is not None:
            return Entry("cc", seat)
        case [_, "cbr", amount] if seat is not None and amount.isdigit():
            return Entry("cbr", seat, amount=int(amount))
        case [_, "sm"] if seat is not None:
            return Entry("sm", seat, mucked=True)
        case [_, "sm", cards] if seat is not None:
            return Entry("sm", seat, cards=None if "?" in cards or cards == "-" else cards)
        case ["d", "db", cards]:
            return Entry("db", cards=cards)
        case ["d", "dh", who, cards] if _seat(who) is not None:
            return Entry("dh", _seat(who), cards=cards)
        case ["d", "win", "cards"]:
            return Entry("win")
        case ["d", "win", pots]:
            split = [pot.split(",") for pot in pots.split(";")]
            if all(s.isdigit() and int(s) > 0 for pot in split for s in pot):
                return Entry("win", winners=tuple(tuple(int(s) for s in pot) for pot in split))
    raise InvalidInput("{text} is not an action this hand understands.", text=repr(text))


def write(entry: Entry) -> str:
    """The notation of ``entry`` (``parse(write(e)) == e``)."""
    match entry.verb:
        case "f" | "cc":
            return f"p{entry.seat} {entry.verb}"
        case "cbr":
            return f"p{entry.seat} cbr {entry.amount}"
        case "sm":
            if entry.mucked:
                return f"p{entry.seat} sm"
            return f"p{entry.seat} sm {entry.cards or '????'}"
        case "db":
            return f"d db {entry.cards}"
        case "dh":
            return f"d dh p{entry.seat} {entry.cards}"
        case "win":
            if entry.winners is None:
                return "d win cards"
            return "d win " + ";".join(",".join(str(s) for s in pot) for pot in entry.winners)
    raise InvalidInput("Unknown verb {verb}.", verb=repr(entry.verb))  # pragma: no cover - Verb is closed


# --- writers, one per entry -------------------------------------------------------------


def fold(seat: Seat) -> str:
    return write(Entry("f", seat))


def check_or_call(seat: Seat) -> str:
    return write(Entry("cc", seat))


def bet_or_raise(seat: Seat, to: int) -> str:
    return write(Entry("cbr", seat, amount=to))


def show(seat: Seat, cards: str | None) -> str:
    """``p3 sm AsKd`` (``p3 sm ????`` when the cards are not known)."""
    return write(Entry("sm", seat, cards=cards))


def muck(seat: Seat) -> str:
    return write(Entry("sm", seat, mucked=True))


def board(cards: str) -> str:
    return write(Entry("db", cards=cards))


def hole(seat: Seat, cards: str) -> str:
    return write(Entry("dh", seat, cards=cards))


def award(winners: Sequence[Sequence[Seat]] | None) -> str:
    """``d win 3;5,7`` (the seats of each pot), or ``d win cards`` when ``winners`` is None."""
    return write(Entry("win", winners=None if winners is None else tuple(tuple(w) for w in winners)))


# --- in words ----------------------------------------------------------------------------


def _seats(seats: Sequence[Seat]) -> Message:
    if len(seats) == 1:
        return Message("seat {seat}", seat=seats[0])
    return Message("seats {seats} and {last}", seats=list(seats[:-1]), last=seats[-1])


def describe(text: str) -> str:
    """An entry in words, for the history and the event log (the text itself when it is not
    an entry).

    >>> [describe(e) for e in ("p4 f", "p4 cc", "p4 sm", "p4 sm AsKd", "d db 2c3d4h", "d dh p2 AsKd")]
    ['seat 4 folds', 'seat 4 checks or calls', 'seat 4 mucks', 'seat 4 shows AsKd', 'board 2c3d4h', 'seat 2 is dealt AsKd']
    >>> describe("d win cards"), describe("nonsense")
    ('pots awarded from the cards', 'nonsense')
    """
    try:
        entry = parse(text)
    except InvalidInput:
        return text
    who = Message("seat {seat}", seat=entry.seat)
    match entry.verb:
        case "f":
            return Message("{player} folds", player=who)
        case "cc":
            return Message("{player} checks or calls", player=who)
        case "cbr":
            return Message("{player} bets or raises to {amount}", player=who, amount=entry.amount or 0)
        case "sm":
            if entry.mucked:
                return Message("{player} mucks", player=who)
            if entry.cards:
                return Message("{player} shows {cards}", player=who, cards=entry.cards)
            return Message("{player} shows cards", player=who)
        case "db":
            return Message("board {cards}", cards=entry.cards)
        case "dh":
            return Message("{player} is dealt {cards}", player=who, cards=entry.cards)
    if entry.winners is None:
        return Message("pots awarded from the cards")
    pots = _seats(entry.winners[0])
    for seats in entry.winners[1:]:
        pots = Message("{earlier}; {later}", earlier=pots, later=_seats(seats))
    return Message("pots awarded: {pots}", pots=pots)


__all__ = [
    "Entry",
    "award",
    "bet_or_raise",
    "board",
    "check_or_call",
    "describe",
    "fold",
    "hole",
    "muck",
    "parse",
    "show",
    "write",
]
