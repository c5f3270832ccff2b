"""Where the button and the blinds go, hand after hand, under the dead-button rule.

Seed 000: "the big blind always moves on by one player, so nobody skips the big blind
when players are knocked out; as a result a hand may be played without a small blind,
or with the button in front of an empty seat. With two players (heads-up) the button
posts the small blind." TDA 1.2 turns that into an algorithm (seats are numbered
clockwise; "live" means seated with chips):

- the big blind is the first live seat after the previous big blind;
- the small blind is the previous big blind's seat, dead (nobody posts) if it is empty;
- the button is the previous small blind's seat, possibly empty;
- heads-up, the big blind is still the first live seat after the previous big blind,
  and the other player is both button and small blind: never a dead blind heads-up,
  and nobody posts the big blind twice in a row.

>>> p = first_positions([1, 2, 3, 5, 6], button=1)
>>> p
Positions(button=1, small_blind=2, big_blind=3, small_blind_seat_number=2)
>>> next_positions(p, {1, 2, 5, 6})  # the big blind (seat 3) is knocked out
Positions(button=2, small_blind=None, big_blind=5, small_blind_seat_number=3)

``python -m engine positions`` answers scenarios of this kind as JSON lines
(see :func:`positions_main`).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO, TypeAlias

from engine.cards import Card, new_deck
from engine.errors import EngineError, IllegalAction, InvalidInput, Message, Term
from engine.standings import places_for_busts

Seat: TypeAlias = int
Chips: TypeAlias = int

@dataclass(frozen=True, slots=True)
class Positions:
    """The button and the blinds of one hand.

    ``small_blind`` is ``None`` when the small blind is dead (its seat is empty);
    ``small_blind_seat_number`` is that seat all the same. Heads-up the button is
    the small blind.
    """

    button: Seat
    small_blind: Seat | None
    big_blind: Seat
    small_blind_seat_number: Seat

    def __post_init__(self) -> None:
        if self.small_blind is not None and self.small_blind != self.small_blind_seat_number:
            raise InvalidInput(
                "The small blind is seat {small_blind} but its position is seat "
                "{position}: they must be the same seat.",
                small_blind=self.small_blind, position=self.small_blind_seat_number,
            )
        if self.big_blind in (self.button, self.small_blind_seat_number):
            raise InvalidInput("Seat {seat} cannot be the big blind and the button or small blind.", seat=self.big_blind)
        if self.heads_up and self.small_blind is None:
            raise InvalidInput("Seat {seat} is on the button heads-up and must post the small blind.", seat=self.button)

    @property
    def small_blind_dead(self) -> bool:
        """True when nobody posts the small blind this hand."""
        return self.small_blind is None

    @property
    def heads_up(self) -> bool:
        """True when the button is also the small blind (two players)."""
        return self.button == self.small_blind_seat_number

    def as_dict(self) -> dict[str, Any]:
        """The contract's form: ``{"button", "small_blind", "small_blind_dead", "big_blind"}``."""
        return {
            "button": self.button,
            "small_blind": self.small_blind_seat_number,
            "small_blind_dead": self.small_blind_dead,
            "big_blind": self.big_blind,
        }


def next_seat_after(seat: Seat, seats: Iterable[Seat]) -> Seat:
    """The first of ``seats`` strictly clockwise after ``seat`` (seat numbers wrap round).

    >>> next_seat_after(3, [1, 2, 3, 5]), next_seat_after(5, [1, 2, 3, 5]), next_seat_after(4, [2])
    (5, 1, 2)
    """
    ordered = sorted(set(seats))
    if not ordered:
        raise IllegalAction("There is nobody clockwise after seat {seat}: the table is empty.", seat=seat)
    for s in ordered:
        if s > seat:
            return s
    return ordered[0]


def strictly_between(seat: Seat, start: Seat, end: Seat) -> bool:
    """Whether ``seat`` lies clockwise strictly after ``start`` and strictly before ``end``.

    >>> strictly_between(5, 3, 7), strictly_between(1, 7, 3), strictly_between(3, 3, 7), strictly_between(4, 2, 2)
    (True, True, False, False)
    """
    if start == end:
        return False
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def _check_seats(seats: Collection[Seat]) -> frozenset[Seat]:
    out = frozenset(seats)
    if len(out) != len(seats):
        raise InvalidInput("The same seat is listed twice.")
    for s in out:
        if isinstance(s, bool) or not isinstance(s, int) or s < 1:
            raise InvalidInput("{seat} is not a seat number: seats are numbered from 1.", seat=repr(s))
    return out


def first_positions(occupied_seats: Collection[Seat], button: Seat) -> Positions:
    """The first hand: the small and big blinds are the next occupied seats after the button.

    Heads-up the button posts the small blind and the other player the big blind.
    The button may be given on an empty seat (the blinds are then the next two players
    after it); heads-up the button then goes to the first player after that seat.

    >>> first_positions([2, 7], button=7)
    Positions(button=7, small_blind=7, big_blind=2, small_blind_seat_number=7)
    """
    seats = _check_seats(occupied_seats)
    if len(seats) < 2:
        raise IllegalAction("A hand needs at least two players; {count} sit at the table.", count=len(seats))
    if len(seats) == 2:
        btn = button if button in seats else next_seat_after(button, seats)
        return Positions(btn, btn, next_seat_after(btn, seats), btn)
    sb = next_seat_after(button, seats)
    return Positions(button, sb, next_seat_after(sb, seats), sb)


def next_positions(
    previous: Positions, live_seats_now: Collection[Seat], seats_on_table: int | None = None
) -> Positions:
    """The next hand's positions under the dead-button rule (TDA 1.2, 1.3).

    ``live_seats_now`` are the seats with a player for the next hand: the players knocked
    out in the previous hand have left, new players (moved in or late) are included.
    ``seats_on_table`` is only needed when the table grows back from heads-up and the
    button must be placed just before the small blind (its seat numbers wrap at it).

    >>> hu = next_positions(Positions(1, 2, 3, 2), {1, 2})  # seat 3, the big blind, busts
    >>> hu, next_positions(hu, {1, 2})
    (Positions(button=2, small_blind=2, big_blind=1, small_blind_seat_number=2), Positions(button=1, small_blind=1, big_blind=2, small_blind_seat_number=1))
    """
    live = _check_seats(live_seats_now)
    if len(live) < 2:
        if live:
            raise IllegalAction("A hand cannot be dealt with fewer than two players: only seat {seat} is left.",
                                seat=min(live))
        raise IllegalAction("A hand cannot be dealt with fewer than two players: nobody is left.")
    bb = next_seat_after(previous.big_blind, live)
    if len(live) == 2:
        (other,) = live - {bb}
        return Positions(other, other, bb, other)
    sb_seat = previous.big_blind
    sb = sb_seat if sb_seat in live else None
    button = previous.small_blind_seat_number
    if not strictly_between(button, bb, sb_seat):
        # Only when players arrived: the table grows back from heads-up (the former button
        # would be the big blind), or the big blind went on to a new player past the former
        # small blind's seat. The button then goes to the seat just before the small blind,
        # which lies between the big blind and the small blind when three or more play.
        top = max([seats_on_table or 0, *live, previous.button, previous.big_blind, sb_seat])
        button = sb_seat - 1 if sb_seat > 1 else top
    return Positions(button, sb, bb, sb_seat)


def hands_until_big_blind(
    positions: Positions, live_seats: Collection[Seat], seat: Seat, seats_on_table: int | None = None
) -> int:
    """How many hands after the one dealt at ``positions`` until ``seat`` posts the big blind,
    if the players at ``live_seats`` all play on (nobody knocked out, nobody arriving): 0 when
    ``seat`` is the big blind at ``positions``.

    The hands follow one another by :func:`next_positions`: "the big blind is the first live
    seat after the previous big blind" (TDA 1.2), so nobody skips it, a newcomer waiting for
    the button included, and heads-up it comes every other hand.

    >>> p = Positions(1, 2, 3, 2)
    >>> [hands_until_big_blind(p, {1, 2, 3, 5, 6}, s) for s in (3, 5, 6, 1, 2)]
    [0, 1, 2, 3, 4]
    >>> hands_until_big_blind(Positions(2, 2, 1, 2), {1, 2}, 2)
    1
    """
    live = _check_seats(live_seats)
    if seat not in live:
        raise IllegalAction("Seat {seat} has no player with chips: it does not post the big blind.", seat=seat)
    current, hands = positions, 0
    while current.big_blind != seat:  # the big blind moves on one live seat a hand: len(live) at most
        current = next_positions(current, live, seats_on_table)
        hands += 1
    return hands


def waits_for_button(seat: Seat, positions: Positions) -> bool:
    """TDA 1.4: a new player seated strictly between the button and the small blind waits.

    >>> waits_for_button(5, Positions(4, 7, 9, 7)), waits_for_button(8, Positions(4, 7, 9, 7))
    (True, False)
    """
    return strictly_between(seat, positions.button, positions.small_blind_seat_number)


def dealt_in(positions: Positions, live_seats: Collection[Seat], newcomers: Collection[Seat] = ()) -> frozenset[Seat]:
    """The seats dealt in: every live seat except newcomers sitting between button and small blind.

    A newcomer (moved in by balancing, a late entry) may land on the button, the small or
    the big blind and is dealt in at once (TDA 8-A, 10-A); only between the button and the
    small blind does he wait until the button passes (TDA 1.4).

    >>> sorted(dealt_in(Positions(4, 7, 9, 7), {1, 4, 5, 7, 9}, newcomers={5}))
    [1, 4, 7, 9]
    """
    live = _check_seats(live_seats)
    for s in newcomers:
        if s not in live:
            raise InvalidInput("Seat {seat} is listed as a new player but is not at the table.", seat=s)
    return frozenset(s for s in live if not (s in newcomers and waits_for_button(s, positions)))


def _clockwise_from(start: Seat, seats: Iterable[Seat]) -> tuple[Seat, ...]:
    """``seats`` in clockwise order, beginning with the first one strictly after ``start``."""
    ordered = sorted(set(seats))
    after = [s for s in ordered if s > start]
    return tuple(after + [s for s in ordered if s <= start])


def preflop_order(positions: Positions, dealt: Collection[Seat]) -> tuple[Seat, ...]:
    """Who acts before the flop, in order: from the player after the big blind round to the
    big blind; heads-up the button (small blind) first.

    >>> preflop_order(Positions(2, None, 4, 3), {1, 2, 4, 5})
    (5, 1, 2, 4)
    >>> preflop_order(Positions(2, 2, 1, 2), {1, 2})
    (2, 1)
    """
    return _clockwise_from(positions.big_blind, dealt)


def postflop_order(positions: Positions, dealt: Collection[Seat]) -> tuple[Seat, ...]:
    """Who acts on the flop, turn and river: from the first player after the button
    (even an empty button seat) round to the button; heads-up the big blind first.

    >>> postflop_order(Positions(2, None, 4, 3), {1, 2, 4, 5})
    (4, 5, 1, 2)
    >>> postflop_order(Positions(2, 2, 1, 2), {1, 2})
    (1, 2)
    """
    return _clockwise_from(positions.button, dealt)


@dataclass(frozen=True, slots=True)
class ButtonDraw:
    """The high-card draw for the first button: one card to each seat, highest card wins
    (by rank, then suit: spades, hearts, diamonds, clubs)."""

    button: Seat
    cards: tuple[tuple[Seat, Card], ...]

    def describe(self) -> str:
        """``Seat 3 wins the button with the Ace of spades.``"""
        card = dict(self.cards)[self.button]
        return Message("Seat {seat} wins the button with the {card}.", seat=self.button, card=card.name)


def draw_button(seats: Collection[Seat], rng: random.Random) -> ButtonDraw:
    """Deal one card face up to each seat from a deck shuffled by ``rng``; the highest card
    takes the button.

    >>> d = draw_button([1, 4, 6], random.Random(3))
    >>> d.button in (1, 4, 6), len(d.cards)
    (True, 3)
    """
    checked = _check_seats(seats)
    if not checked:
        raise InvalidInput("Nobody is seated: there is no one to draw for the button.")
    deck = new_deck(rng)
    cards = tuple(zip(sorted(checked), deck, strict=False))
    best = max(cards, key=lambda sc: (sc[1].rank, "cdhs".index(sc[1].suit)))
    return ButtonDraw(best[0], cards)


# --- Scenarios: the ``python -m engine positions`` contract -------------------------------


@dataclass(frozen=True, slots=True)
class Bust:
    """A player knocked out in a hand: the seat and the chips it had when the hand began."""

    seat: Seat
    stack_at_start: Chips


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """The positions of every hand dealt, and the finishing places known at the end."""

    hands: tuple[Positions, ...]
    places: Mapping[Seat, int]

    def as_dict(self) -> dict[str, Any]:
        """The contract's JSON form (places keyed by seat number as text)."""
        return {
            "hands": [p.as_dict() for p in self.hands],
            "places": {str(s): self.places[s] for s in sorted(self.places)},
        }


def play_scenario(seats: Collection[Seat], button: Seat, hands: Sequence[Sequence[Bust]]) -> ScenarioResult:
    """Deal ``hands`` at one table: positions hand after hand, and the places of those out.

    Each hand lists who was knocked out in it. The last player left gets place 1.

    >>> r = play_scenario([1, 2, 3, 5, 6], 1, [[], [Bust(3, 500), Bust(5, 800)]])
    >>> r.as_dict()["places"]
    {'3': 5, '5': 4}
    """
    live = set(_check_seats(seats))
    results: list[Positions] = []
    places: dict[Seat, int] = {}
    previous: Positions | None = None
    for number, busts in enumerate(hands, start=1):
        if len(live) < 2:
            if live:
                raise IllegalAction("Hand {number} cannot be dealt with fewer than two players: only seat {seat} is left.",
                                    number=number, seat=min(live))
            raise IllegalAction("Hand {number} cannot be dealt with fewer than two players: nobody is left.",
                                number=number)
        current = first_positions(live, button) if previous is None else next_positions(previous, live)
        results.append(current)
        busted: dict[Seat, Chips] = {}
        for b in busts:
            if b.seat in busted:
                raise InvalidInput("Seat {seat} is knocked out twice in hand {number}.", seat=b.seat, number=number)
            if b.seat not in live:
                raise IllegalAction("Seat {seat} cannot be knocked out in hand {number}: nobody plays there.",
                                    seat=b.seat, number=number)
            if isinstance(b.stack_at_start, bool) or not isinstance(b.stack_at_start, int) or b.stack_at_start < 1:
                raise InvalidInput(
                    "Seat {seat} must start hand {number} with at least 1 chip, not {stack}.",
                    seat=b.seat, number=number, stack=repr(b.stack_at_start),
                )
            busted[b.seat] = b.stack_at_start
        if busted and len(busted) == len(live):
            raise IllegalAction("All {count} players cannot be knocked out in hand {number}: someone wins the pot.",
                                count=len(live), number=number)
        places.update(places_for_busts(len(live), busted))
        live -= busted.keys()
        previous = current
    if len(live) == 1:
        places[min(live)] = 1
    return ScenarioResult(tuple(results), places)


def _parse_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput("{what} must be a whole number, not {value}.", what=what, value=json.dumps(value))
    return value


def parse_scenario(data: object) -> tuple[list[Seat], Seat, list[list[Bust]]]:
    """Read one scenario object: ``{"seats": [...], "button": b, "hands": [{"busted": [...]}]}``."""
    if not isinstance(data, dict):
        raise InvalidInput("A scenario must be a JSON object with seats, button and hands.")
    for key in ("seats", "button", "hands"):
        if key not in data:
            raise InvalidInput("The scenario has no {key}.", key=repr(key))
    if not isinstance(data["seats"], list):
        raise InvalidInput("'seats' must be a list of seat numbers.")
    seats = [_parse_int(s, Term("A seat")) for s in data["seats"]]
    button = _parse_int(data["button"], Term("The button"))
    if not isinstance(data["hands"], list):
        raise InvalidInput("'hands' must be a list, one entry per hand dealt.")
    hands: list[list[Bust]] = []
    for number, hand in enumerate(data["hands"], start=1):
        if not isinstance(hand, dict):
            raise InvalidInput("Hand {number} must be an object like {{\"busted\": []}}.", number=number)
        busted = hand.get("busted", [])
        if not isinstance(busted, list):
            raise InvalidInput("'busted' in hand {number} must be a list.", number=number)
        busts: list[Bust] = []
        for b in busted:
            if not isinstance(b, dict) or "seat" not in b or "stack_at_start" not in b:
                raise InvalidInput(
                    "Each bust in hand {number} must be an object with 'seat' and 'stack_at_start'.", number=number,
                )
            busts.append(
                Bust(
                    _parse_int(b["seat"], Message("A busted seat in hand {number}", number=number)),
                    _parse_int(b["stack_at_start"], Message("A starting stack in hand {number}", number=number)),
                )
            )
        hands.append(busts)
    return seats, button, hands


def answer_line(line: str) -> dict[str, Any]:
    """The answer to one scenario line, as the JSON-ready object."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        return {"error": f"The line is not valid JSON: {e.msg} at column {e.colno}."}
    try:
        seats, button, hands = parse_scenario(data)
        return play_scenario(seats, button, hands).as_dict()
    except EngineError as e:
        return {"error": str(e)}


def _lines(stdin: TextIO) -> Iterator[str | None]:
    """The lines of ``stdin``; ``None`` for a line that is not UTF-8 text.

    The bytes are decoded here, line by line, when the stream has them: how Python
    decodes standard input otherwise depends on the machine's locale.
    """
    raw = getattr(stdin, "buffer", None)
    if raw is None:
        yield from stdin
        return
    for data in raw:
        try:
            yield data.decode("utf-8")
        except UnicodeDecodeError:
            yield None


def positions_main(stdin: TextIO, stdout: TextIO) -> int:
    """``python -m engine positions``: one JSON answer line per scenario line.

    Blank lines are skipped. An impossible or malformed scenario (a line that is not
    JSON, or not UTF-8) answers ``{"error": "..."}`` on its line and the run goes on.
    The exit code is 0 whenever standard input could be read to its end, even with error
    lines, and 2 (with a message on standard error) when it cannot be read at all.
    """
    try:
        for line in _lines(stdin):
            if line is None:
                answer: dict[str, Any] = {"error": "The line is not UTF-8 text."}
            elif not line.strip():
                continue
            else:
                answer = answer_line(line)
            stdout.write(json.dumps(answer) + "\n")
            stdout.flush()
    except (OSError, UnicodeDecodeError) as e:
        print(f"positions: cannot read standard input: {e}", file=sys.stderr)
        return 2
    return 0
