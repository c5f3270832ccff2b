"""A hand's log entries in the PHH notation: parsed, written and described in one place.

An entry is one line of a hand's log, with table seat numbers:

- ``p3 f`` folds, ``p3 cc`` checks or calls, ``p3 cbr 600`` bets or raises to 600;
- ``p3 sm AsKd`` shows, ``p3 sm`` mucks (``p3 sm ????`` shows nothing known);
- ``d db AhKd7c`` deals board cards, ``d dh p3 AsKd`` deals hole cards;
- ``d win cards`` awards every pot from the cards, ``d win 3;5,7`` to the seats named, pot by
  pot (the main pot first, then the side pots in order); in a hi-lo game ``d win 3/5;7/-``
  names each pot's high and low (``-``: nobody has a low, the high takes it whole).

Nothing else in the engine or the app builds or splits these strings: they call
:func:`parse` and the writers below, and :func:`describe` says an entry in words.

>>> parse("p3 cbr 600")
Entry(verb='cbr', seat=3, amount=600, cards=None, winners=None, lows=None, mucked=False)
>>> write(parse("d win 3;5,7")), describe("p3 cbr 1200"), describe("d win 3;5,7")
('d win 3;5,7', 'seat 3 bets or raises to 1,200', 'seat 3 wins the main pot; seat 5 and seat 7 split side pot 1')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias

from engine.cards import parse_cards
from engine.errors import N_, EngineError, InvalidInput, Message
from engine.pots import Award, award_words

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
    lows: tuple[tuple[Seat, ...], ...] | None = None
    """A hi-lo award (``d win 3/5;7/-``): the low half's seats of each pot, ``()`` where no
    hand makes a low (the high takes the whole pot); None for a game of one winner a pot."""
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
        case ["d", "win", pots] if "/" in pots:
            halves = [pot.split("/") for pot in pots.split(";")]
            if all(len(h) == 2 for h in halves):
                high = [h[0].split(",") for h in halves]
                low = [[] if h[1] == "-" else h[1].split(",") for h in halves]
                if all(s.isdigit() and int(s) > 0 for pot in (*high, *low) for s in pot):
                    return Entry("win", winners=tuple(tuple(int(s) for s in pot) for pot in high),
                                 lows=tuple(tuple(int(s) for s in pot) for pot in low))
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
            if entry.lows is not None:
                return "d win " + ";".join(
                    ",".join(str(s) for s in high) + "/" + (",".join(str(s) for s in low) or "-")
                    for high, low in zip(entry.winners, entry.lows, strict=True)
                )
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


def award(winners: Sequence[Sequence[Seat]] | None, lows: Sequence[Sequence[Seat]] | None = None) -> str:
    """``d win 3;5,7`` (the seats of each pot), ``d win 3/5;7/-`` (a hi-lo game: the high
    and the low of each pot, ``-`` for no low), or ``d win cards`` when ``winners`` is None."""
    return write(Entry(
        "win", winners=None if winners is None else tuple(tuple(w) for w in winners),
        lows=None if lows is None or winners is None else tuple(tuple(w) for w in lows),
    ))


# --- in words ----------------------------------------------------------------------------


class Said(Protocol):
    """A betting action as a hand records it (``engine.hand_setup.ActionRecord``)."""

    @property
    def kind(self) -> str: ...
    @property
    def to(self) -> int: ...
    @property
    def all_in(self) -> bool: ...


class Played(Protocol):
    """A hand the words read an entry in (``engine.hand.Hand``): what it had before the entry,
    and what it has once the entry is applied."""

    @property
    def board(self) -> Sequence[object]: ...
    @property
    def actions(self) -> Sequence[Said]: ...
    @property
    def award(self) -> Award | None: ...
    def apply(self, entry: str) -> object: ...


_STREETS = {(0, 3): N_("the flop is {cards}"), (3, 4): N_("the turn is {cards}"),
            (4, 5): N_("the river is {cards}"), (3, 5): N_("the turn and the river are {cards}"),
            (0, 5): N_("the board is {cards}")}


def seat_word(names: Mapping[Seat, str], seat: Seat | None) -> str:
    """The player's name in ``seat``, else ``seat 3``."""
    return names.get(seat or 0) or Message("seat {seat}", seat=seat)


def joined(said: Sequence[str]) -> str:
    """Several sentences of a hand's log as one (``; ``), each still said in its language."""
    if not said:
        return ""
    out = said[0]
    for more in said[1:]:
        out = Message("{earlier}; {later}", earlier=out, later=more)
    return out


def describe(text: str, names: Mapping[Seat, str] | None = None, hand: Played | None = None) -> str:
    """An entry in words, for every history and log: ``Ann raises to 600`` (the text itself
    when it is not an entry). The one place an entry is said.

    ``names`` names the seats (a seat without one is ``seat 3``). ``hand`` is the hand just
    before the entry: the entry is applied to it, and the words then tell a check from a
    call, say the amounts, the street and who won how much; without it they say what the
    entry alone says (``seat 3 checks or calls``).

    >>> [describe(e) for e in ("p4 f", "p4 cc", "p4 sm", "p4 sm AsKd", "d db 2c3d4h", "d dh p2 AsKd")]
    ['seat 4 folds', 'seat 4 checks or calls', 'seat 4 mucks', 'seat 4 shows AsKd', '2c 3d 4h are dealt to the board', 'seat 2 is dealt AsKd']
    >>> describe("d win cards"), describe("nonsense")
    ('the pots are awarded from the cards', 'nonsense')
    >>> describe("p3 cbr 600", {3: "Ann"}), describe("d win 3;5,7", {3: "Ann", 5: "Bob"})
    ('Ann bets or raises to 600', 'Ann wins the main pot; Bob and seat 7 split side pot 1')
    """
    try:
        entry = parse(text)
    except InvalidInput:
        return text
    names = names or {}
    who = seat_word(names, entry.seat)
    board = len(hand.board) if hand is not None else 0
    actions = len(hand.actions) if hand is not None else 0
    if hand is not None:
        try:
            hand.apply(text)
        except EngineError:
            hand = None
    if entry.verb in ("f", "cc", "cbr") and hand is not None and len(hand.actions) > actions:
        said = _action_words(hand.actions[-1], who)
        if said is not None:
            return said
        # Every kind of action is said there; another one is said as the entry alone says it.
    match entry.verb:
        case "f":
            return Message("{player} folds", player=who)
        case "cc":
            return Message("{player} checks or calls", player=who)
        case "cbr":
            return Message("{player} bets or raises to {amount}", player=who, amount=entry.amount or 0)
        case "sm" if entry.mucked:
            return Message("{player} mucks", player=who)
        case "sm":
            if entry.cards:
                return Message("{player} shows {cards}", player=who, cards=entry.cards)
            return Message("{player} shows cards nobody entered", player=who)
        case "dh":
            return Message("{player} is dealt {cards}", player=who, cards=entry.cards)
        case "db":
            if hand is None:
                dealt = parse_cards(entry.cards or "")
                if len(dealt) == 1:
                    return Message("{cards} is dealt to the board", cards=str(dealt[0]))
                return Message("{cards} are dealt to the board", cards=" ".join(map(str, dealt)))
            street = _STREETS.get((board, len(hand.board)), N_("the board is {cards}"))
            return Message(street, cards=" ".join(map(str, hand.board[board:])))
    if hand is not None and hand.award is not None:
        return award_words(hand.award, names)
    return _award_words(entry, names)


def _action_words(action: Said, who: str) -> str | None:
    """A betting action as it happened, with its amount (None: a kind not said here)."""
    to = action.to
    if action.all_in and action.kind in ("bet", "raise"):
        return Message("{player} is all in for {amount}", player=who, amount=to)
    if action.kind == "fold":
        return Message("{player} folds", player=who)
    if action.kind == "check":
        return Message("{player} checks", player=who)
    if action.kind == "call":
        if action.all_in:
            return Message("{player} calls all in for {amount}", player=who, amount=to)
        return Message("{player} calls {amount}", player=who, amount=to)
    if action.kind == "bet":
        return Message("{player} bets {amount}", player=who, amount=to)
    if action.kind == "raise":
        return Message("{player} raises to {amount}", player=who, amount=to)
    return None


def _award_words(entry: Entry, names: Mapping[Seat, str]) -> str:
    """An award entry as it is written (``d win 3;5,7``): who wins or splits each pot."""
    if entry.winners is None:
        return Message("the pots are awarded from the cards")
    if entry.lows is not None:
        return _hilo_words(entry.winners, entry.lows, names)
    pots = len(entry.winners)
    said: list[str] = []
    for k, seats in enumerate(entry.winners):
        winners = [seat_word(names, s) for s in seats]
        if len(winners) == 1:
            if pots == 1:
                said.append(Message("{player} wins the pot", player=winners[0]))
            elif k == 0:
                said.append(Message("{player} wins the main pot", player=winners[0]))
            else:
                said.append(Message("{player} wins side pot {number}", player=winners[0], number=k))
            continue
        listed = Message("{players} and {last}", players=", ".join(winners[:-1]), last=winners[-1])
        if pots == 1:
            said.append(Message("{players} split the pot", players=listed))
        elif k == 0:
            said.append(Message("{players} split the main pot", players=listed))
        else:
            said.append(Message("{players} split side pot {number}", players=listed, number=k))
    return joined(said)


def _players(words: Sequence[str]) -> str:
    if len(words) == 1:
        return words[0]
    return Message("{players} and {last}", players=", ".join(words[:-1]), last=words[-1])


def _hilo_words(highs: Sequence[Sequence[Seat]], lows: Sequence[Sequence[Seat]], names: Mapping[Seat, str]) -> str:
    """A hi-lo award entry: the high and the low of each pot."""
    said: list[str] = []
    for k, (high, low) in enumerate(zip(highs, lows, strict=True)):
        pot = Message("the pot") if len(highs) == 1 else Message("the main pot") if k == 0 else Message(
            "side pot {number}", number=k)
        top = _players([seat_word(names, s) for s in high])
        if low:
            said.append(Message("the high half of {pot} to {high}, the low half to {low}", high=top,
                                low=_players([seat_word(names, s) for s in low]), pot=pot))
        else:
            said.append(Message("all of {pot} to {high}: no low", high=top, pot=pot))
    return joined(said)


__all__ = [
    "Entry",
    "award",
    "bet_or_raise",
    "board",
    "check_or_call",
    "describe",
    "fold",
    "hole",
    "joined",
    "muck",
    "parse",
    "seat_word",
    "show",
    "write",
]
