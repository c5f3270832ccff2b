"""One table, for both games: who is dealt into the next hand, and the entries of a hand.

A tournament (``engine.dealing``) and a cash session (``engine.cash``) keep their tables in
their own state, but both plan the next hand and enter a hand's actions here, so the
dead-button rule, the newcomers and the refusals are the same in both:

- :func:`plan_next` places the button and the blinds by the dead-button rule and says who
  is dealt in: a table's first hand (or one restarting with fewer than two players from
  before) deals everyone in from the given button; after that, a newcomer between the
  button and the small blind waits for the button to pass (TDA 1.4), and the house may
  make newcomers wait for the big blind instead, or post one to play at once (cash games);
- :func:`enter` applies a hand's new entries (``engine.notation``) to the hand replayed from
  its setup and log, refusing an entry after the hand is over;
- :class:`Dealt` is a hand dealt at a table as far as it has been entered, the record both
  games keep (``engine.dealing.TableHand``, ``engine.cash.LiveHand`` extend it). Undo at a
  table is one mechanism for both: each entry keeps the record one entry earlier
  (:meth:`Dealt.step`), and :meth:`Dealt.undone` goes back to it, taking back the last
  entry whole (a showdown's board, cards and award together); the first step back from a
  hand with nothing entered takes back the deal. The chain lives only as long as the hand
  is the table's latest: a tournament drops it when the hand is over (its knockouts and
  places follow from it: the director's log undoes it), a cash table keeps the finished
  hand's chain until the next change at that table.

>>> plan = plan_next(None, {1, 3, 5}, set(), 6, button=5)
>>> (plan.positions.button, plan.positions.small_blind, plan.positions.big_blind), plan.dealt
((5, 1, 3), (1, 3, 5))
>>> later = plan_next(plan.positions, {1, 3, 4, 5}, {4}, 6)
>>> later.positions.button, later.dealt, later.waiting
(1, (1, 3, 4, 5), ())
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Self, TypeAlias

from engine.errors import IllegalAction, InvalidInput, Message
from engine.hand import Hand, HandSetup
from engine.positions import Positions, dealt_in, first_positions, next_positions, next_seat_after

Seat: TypeAlias = int
Newcomers: TypeAlias = Literal["dead_button", "wait", "post"]
"""How a newcomer joins: ``dead_button`` (a tournament: at once, except between the button and
the small blind), ``wait`` (for the big blind), ``post`` (a big blind, at once; between the
button and the small blind they wait for the button to pass)."""


@dataclass(frozen=True)
class Plan:
    """The next hand at a table: the positions, the seats dealt in, those waiting, and the
    newcomers who post a big blind to play at once."""

    positions: Positions
    dealt: tuple[Seat, ...]
    waiting: tuple[Seat, ...]
    posts: tuple[Seat, ...] = ()


def plan_next(
    previous: Positions | None,
    seats: Collection[Seat],
    newcomers: Collection[Seat],
    size: int,
    *,
    button: Seat | None = None,
    newcomers_join: Newcomers = "dead_button",
) -> Plan:
    """Plan the next hand of a table whose seats with chips are ``seats`` (``newcomers``
    among them joined since the last deal), after the hand at ``previous`` positions (None
    for a table's first hand). ``button`` places a first hand's button (else the lowest
    seat, or the seat after the last button)."""
    live = set(seats)
    if len(live) < 2:
        raise IllegalAction("A hand needs two players with chips; {count} here.", count=len(live))
    new = set(newcomers) & live
    active = live - new
    if previous is None or (newcomers_join != "dead_button" and len(active) < 2):
        if button is None:
            button = min(live) if previous is None else next_seat_after(previous.button, live)
        return Plan(first_positions(live, button), tuple(sorted(live)), ())
    posts: set[Seat] = set()
    if newcomers_join == "wait":
        first = next_seat_after(previous.big_blind, live)
        playing = active | ({first} & new)
        positions = next_positions(previous, playing, size)
        dealt = set(playing)
    else:
        positions = next_positions(previous, live, size)
        dealt = set(dealt_in(positions, live, new))
        if len(dealt) < 3 <= len(live):
            # A newcomer between the button and the small blind waits for the button to pass
            # (TDA 1.4) only while the hand goes on with three players or more: without him it
            # would be heads-up with positions made for more (a dead button or small blind,
            # which heads-up has not: the button posts the small blind), or a hand of one.
            dealt = set(live)
        if newcomers_join == "post":
            posts = (new & dealt) - {positions.big_blind, positions.small_blind_seat_number}
    return Plan(positions, tuple(sorted(dealt)), tuple(sorted(live - dealt)), tuple(sorted(posts)))


def enter(setup: HandSetup, log: Iterable[str], entries: Iterable[object], where: str) -> Hand:
    """The hand replayed from ``setup`` and ``log`` with ``entries`` applied in order;
    ``where`` names the table in refusals ("table 2")."""
    hand = Hand.replay(setup, log)
    for entry in entries:
        if not isinstance(entry, str) or not entry.strip():
            raise InvalidInput("Enter an action, e.g. 'p3 cc' or 'p3 cbr 600'.")
        if hand.is_complete:
            raise IllegalAction("The hand at {where} is over: {entry} comes too late.", where=where, entry=repr(entry.strip()))
        hand.apply(" ".join(entry.split()))
    return hand


@dataclass(frozen=True, kw_only=True)
class Dealt:
    """A hand dealt at table ``table``: its setup, the positions it was dealt at, when, and its
    log so far; ``before`` is the same record one entry earlier (None for the deal)."""

    table: int
    setup: HandSetup
    positions: Positions
    started_at: float
    log: tuple[str, ...] = ()
    before: Self | None = field(default=None, repr=False, compare=False)
    ahead: tuple[Self, ...] = field(default=(), repr=False, compare=False)
    """The records taken back by undos since the last entry, the latest last (what a redo
    puts back)."""

    _hand: Hand | None = field(default=None, init=False, repr=False, compare=False)
    """The hand :meth:`hand` shares, once replayed (never pickled: a snapshot replays it),
    until a later entry supersedes this record (:meth:`step` forgets it)."""

    def replay(self) -> Hand:
        """The hand as the engine sees it now, a fresh object to change."""
        return Hand.replay(self.setup, self.log)

    def hand(self) -> Hand:
        """The hand as the engine sees it now, replayed once for this record and shared by
        everyone who reads it (the command that validates a tap, the views that answer it):
        read it, never change it (:meth:`replay` gives one to change)."""
        hand = self._hand  # read once: a later entry may forget it meanwhile (:meth:`step`)
        if hand is None:
            hand = Hand.replay(self.setup, self.log)
            object.__setattr__(self, "_hand", hand)
        return hand

    def knowing(self, hand: Hand) -> Self:
        """This record, sharing ``hand`` as its :meth:`hand` (the fold has just made it from
        this record's log, so a raise replays its hand once on its way)."""
        object.__setattr__(self, "_hand", hand)
        return self

    def __getstate__(self) -> dict[str, Any]:
        kept = dict(self.__dict__)
        kept.pop("_hand", None)
        return kept

    def after(self, entries: Iterable[object]) -> Hand:
        """The hand with ``entries`` applied (refused with the reason, as :func:`enter`)."""
        return enter(self.setup, self.log, entries, Message("table {table}", table=self.table))

    def step(self, **changes: Any) -> Self:
        """The record after one more entry (``changes``: its new log and whatever the host
        keeps beside it), remembering this one for :meth:`undone`; nothing is left to redo.

        This record forgets the hand it shared (:meth:`hand` replays it again if an older
        state is read): the new record is the one read from now on, and the records kept
        behind it, in the undo chain and the fold's checkpoints, hold no hand. Holding one per
        table in every checkpoint kept a night's replayed hands alive long enough for the
        garbage collector to move them to its oldest generation (twice as many full passes
        in a long fold); copying this record instead cost a ``replace`` of every field at
        every entry."""
        object.__setattr__(self, "_hand", None)
        return replace(self, before=replace(self, ahead=()) if self.ahead else self, ahead=(), **changes)

    def undone(self) -> Self | None:
        """The record one entry earlier, or None when the deal itself is taken back; this
        one is kept for :meth:`redone`."""
        if self.before is None:
            return None
        return replace(self.before, ahead=(*self.ahead, replace(self, ahead=())))

    def redone(self) -> Self | None:
        """The record the last undo took back (None: nothing to redo)."""
        if not self.ahead:
            return None
        return replace(self.ahead[-1], ahead=self.ahead[:-1])


__all__ = ["Dealt", "Newcomers", "Plan", "enter", "plan_next"]
