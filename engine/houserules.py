"""House rules a real table needs: chips pushed without a word, and action out of turn.

The dealer's assistant enters declared actions straight into :class:`engine.hand.Hand`.
Two things happen at a real table that are not declared actions, and this module turns
them into one (seed 002, TDA 4.3–4.6 and 4.8):

* **Chips pushed without a word** (:func:`silent_push`): the dealer enters the chips the
  player pushed, and the rules decide what that is. One oversized chip facing a bet is a
  call (TDA 44); if every chip is needed to make the call it is a call (TDA 45);
  otherwise a raise of less than half the minimum increment is a call and the excess
  goes back, half or more must be completed to the minimum raise (TDA 43-A); chips
  pushed in two motions (a string bet) count only as a call (TDA 42, 56; seed 002).
* **Action out of turn** (:func:`record_out_of_turn`, :func:`resolve_out_of_turn`): it
  is held as pending; when the turn reaches that player it binds if the action to them
  has not changed (a check, call or fold does not change it), and is withdrawn if it has
  (a bet or raise did). A fold out of turn always binds (TDA 53-A, 58).

Every ruling carries the sentence the dealer reads out, naming the rule it applied.

>>> from engine.hand import Hand, HandSetup
>>> hand = Hand(HandSetup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4,
...                       small_blind_seat=1, big_blind_seat=2, small_blind=250, big_blind=500))
>>> _ = hand.raise_to(3, 1100)
>>> silent_push(hand, 4, [1000, 500]).rule
'Seat 4 pushed 1,500 facing 1,100: every chip was needed to call, so it is a call (TDA 45); 400 goes back.'
>>> silent_push(hand, 4, [1000, 100, 100, 100, 100, 100]).notation
'p4 cbr 1700'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from engine.errors import N_, EngineError, IllegalAction, InvalidInput, Message
from engine.hand import Hand
from engine.notation import bet_or_raise, check_or_call
from engine.notation import parse as parse_entry
from engine.notation import write as write_entry

Seat: TypeAlias = int
Chips: TypeAlias = int

UNDERRAISE_THRESHOLD = (1, 2)
"""TDA 43-A: a raise of at least half the minimum increment (inclusive) must be completed."""


@dataclass(frozen=True, slots=True)
class Ruling:
    """What silently pushed chips count as.

    ``notation`` is the action to enter (``p3 cc``, ``p3 cbr 2000``); ``to`` the seat's
    bet on this street after it; ``returned`` the chips that go back to the player and
    ``added`` the chips they must add to complete it; ``rule`` the sentence to read out.
    """

    seat: Seat
    kind: str  # check, call, bet, raise, all-in
    to: Chips
    notation: str
    returned: Chips
    added: Chips
    rule: str



def _turn_check(hand: Hand, seat: Seat) -> None:
    turn = hand.turn
    if turn is None:
        if hand.is_complete:
            raise IllegalAction("Seat {seat} cannot push chips: the hand is over.", seat=seat)
        raise IllegalAction("Seat {seat} cannot push chips: the betting is over.", seat=seat)
    if turn != seat:
        raise IllegalAction("It is seat {turn}'s turn, not seat {seat}'s.", turn=turn, seat=seat)


def silent_push(
    hand: Hand, seat: Seat, chips: Sequence[Chips], *, string_bet: bool = False
) -> Ruling:
    """What the chips ``seat`` pushed without a word count as (see the module docstring).

    ``chips`` lists the value of each chip pushed now (on top of any bet already in front
    of the player); ``string_bet`` says they came in two motions or more.
    Raises :class:`IllegalAction` when it is not the seat's turn and
    :class:`InvalidInput` for chips the player does not have.
    """
    push = _read_push(hand, seat, chips, string_bet)
    for rule in (_every_chip_or_short, _string_bet, _no_bet_to_face):
        ruling = rule(push)
        if ruling is not None:
            return ruling
    return _facing_a_bet(push)


@dataclass(frozen=True, slots=True)
class _Push:
    """Chips pushed without a word, and the figures of the betting the rules look at."""

    seat: Seat
    chips: Sequence[Chips]
    string_bet: bool
    pushed: Chips
    """What the chips pushed now are worth."""
    bet: Chips
    """The seat's bet on this street before the push."""
    behind: Chips
    """The seat's chips behind before the push."""
    current: Chips
    """The bet to match."""
    owed: Chips
    to: Chips
    """The seat's bet if every chip pushed counted."""
    word: str
    """``bet`` when nobody has bet, else ``raise``."""
    full: Chips
    """The minimum raise increment."""
    min_to: Chips | None
    """The smallest bet or raise to, ``None`` when the seat may not bet or raise."""
    facing: Message
    """``Seat 4 pushed 1,500 facing 1,100``: how each ruling's sentence starts."""

    def ruling(self, kind: str, to_: Chips, rule: str) -> Ruling:
        """The push counted as ``kind`` to ``to_``: what goes back or must be added."""
        seat, to = self.seat, self.to
        notation = check_or_call(seat) if kind in ("check", "call") else bet_or_raise(seat, to_)
        added = max(0, to_ - to)
        returned = max(0, to - to_)
        return Ruling(seat, kind, to_, notation, returned, added, rule)

    def back(self, plain: str, returned: str, amount: Chips, **values: object) -> Message:
        """The sentence ``plain``, or ``returned`` (``…; {back} goes back.``) when chips go back."""
        if amount > 0:
            return Message(returned, facing=self.facing, back=amount, **values)
        return Message(plain, facing=self.facing, **values)


def _read_push(hand: Hand, seat: Seat, chips: Sequence[Chips], string_bet: bool) -> _Push:
    """Check that ``seat`` may push these chips now, and read the betting they face."""
    _turn_check(hand, seat)
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == seat
    if not chips or any(type(c) is not int or c <= 0 for c in chips):
        raise InvalidInput(
            "Enter the chips seat {seat} pushed as positive amounts, e.g. 1000 or 1000+500.",
            seat=seat
        )
    pushed = sum(chips)
    bet = hand.bets()[seat]
    behind = hand.stacks()[seat]
    if pushed > behind:
        raise InvalidInput(
            "Seat {seat} cannot push {pushed}: they have only {behind} chips behind.",
            seat=seat, pushed=pushed, behind=behind
        )
    current = hand.current_bet
    owed = max(0, current - bet)
    to = bet + pushed
    if bet and owed:
        facing = Message("Seat {seat} pushed {pushed} ({total} in all) facing {current}",
                         seat=seat, pushed=pushed, total=to, current=current)
    elif bet:
        facing = Message("Seat {seat} pushed {pushed} ({total} in all)", seat=seat, pushed=pushed, total=to)
    elif owed:
        facing = Message("Seat {seat} pushed {pushed} facing {current}", seat=seat, pushed=pushed, current=current)
    else:
        facing = Message("Seat {seat} pushed {pushed}", seat=seat, pushed=pushed)
    return _Push(seat, chips, string_bet, pushed, bet, behind, current, owed, to, legal.raise_word,
                 hand.min_raise_increment, legal.min_bet_or_raise_to, facing)


def _every_chip_or_short(p: _Push) -> Ruling | None:
    """Every chip the player had (TDA 45), or less than the call (TDA 51-B)."""
    seat, current, to = p.seat, p.current, p.to
    if p.pushed == p.behind and to > current and p.min_to is None:
        return p.ruling(
            "call",
            current,
            p.back(
                N_("{facing}: every chip they had, but seat {seat} may not raise (the betting was not "
                   "reopened, or everyone else is all-in), so it is a call (TDA 45)."),
                N_("{facing}: every chip they had, but seat {seat} may not raise (the betting was not "
                   "reopened, or everyone else is all-in), so it is a call (TDA 45); {back} goes back."),
                to - current, seat=seat,
            ),
        )
    if p.pushed == p.behind:
        return Ruling(
            seat,
            "all-in",
            to,
            check_or_call(seat) if to <= current else bet_or_raise(seat, to),
            0,
            0,
            Message("{facing}: every chip they had, so they are all-in (TDA 45).", facing=p.facing),
        )
    if p.owed and p.pushed < p.owed:
        return p.ruling(
            "call",
            current,
            Message(
                "{facing}: less than the {owed} to call, so they must make the full call (TDA 51-B) and add {add}.",
                facing=p.facing, owed=p.owed, add=p.owed - p.pushed,
            ),
        )
    return None


def _string_bet(p: _Push) -> Ruling | None:
    """Chips in more than one motion count only as a call (TDA 42, 56), or a check."""
    if not p.string_bet:
        return None
    if p.owed == 0:
        return p.ruling(
            "check",
            p.bet,
            p.back(
                N_("{facing} in more than one motion, a string bet: it counts only as a call "
                   "(TDA 42, 56), and with nothing to call that is a check (TDA 55)."),
                N_("{facing} in more than one motion, a string bet: it counts only as a call "
                   "(TDA 42, 56), and with nothing to call that is a check (TDA 55); {back} goes back."),
                p.pushed,
            ),
        )
    return p.ruling(
        "call",
        p.current,
        p.back(
            N_("{facing} in more than one motion, a string bet: it counts only as a call (TDA 42, 56)."),
            N_("{facing} in more than one motion, a string bet: it counts only as a call "
               "(TDA 42, 56); {back} goes back."),
            p.to - p.current,
        ),
    )


def _no_bet_to_face(p: _Push) -> Ruling | None:
    """Nothing to call: a check when the seat may not bet, else a bet (TDA 44, 52-A)."""
    if p.owed == 0 and p.min_to is None:
        return p.ruling(
            "check",
            p.bet,
            p.back(
                N_("{facing}: seat {seat} may not bet (everyone else is all-in), so it is a check."),
                N_("{facing}: seat {seat} may not bet (everyone else is all-in), so it is a check; "
                   "{back} goes back."),
                p.pushed, seat=p.seat,
            ),
        )
    if p.owed != 0 or p.current != 0:
        return None
    to, facing = p.to, p.facing
    minimum = p.min_to if p.min_to is not None else to
    if len(p.chips) == 1:
        if to >= minimum:
            return p.ruling(
                "bet", to,
                Message("{facing} with no bet to face: one chip is a bet of its full value (TDA 44).",
                        facing=facing),
            )
    elif to >= minimum:
        return p.ruling("bet", to, Message("{facing} with no bet to face: a bet of {amount}.", facing=facing, amount=to))
    return p.ruling(
        "bet",
        minimum,
        Message(
            "{facing}: less than the minimum bet, so the bet is made up to {minimum} (TDA 52-A).",
            facing=facing, minimum=minimum,
        ),
    )


def _facing_a_bet(p: _Push) -> Ruling:
    """Facing a bet (or the big blind's option): is it a call or a raise (TDA 43-A, 44, 45)?"""
    seat, current, to, facing, min_to = p.seat, p.current, p.to, p.facing, p.min_to
    if len(p.chips) == 1 and p.owed > 0:
        return p.ruling(
            "call",
            current,
            p.back(
                N_("{facing}: one oversized chip without a word is a call (TDA 44)."),
                N_("{facing}: one oversized chip without a word is a call (TDA 44); {back} goes back."),
                to - current,
            ),
        )
    if p.owed > 0 and p.pushed - min(p.chips) < p.owed:
        return p.ruling(
            "call",
            current,
            p.back(
                N_("{facing}: every chip was needed to call, so it is a call (TDA 45)."),
                N_("{facing}: every chip was needed to call, so it is a call (TDA 45); {back} goes back."),
                to - current,
            ),
        )
    if min_to is None:
        return p.ruling(
            "call",
            current,
            p.back(
                N_("{facing}: seat {seat} may not raise (the betting was not reopened, or everyone "
                   "else is all-in), so it is a call."),
                N_("{facing}: seat {seat} may not raise (the betting was not reopened, or everyone "
                   "else is all-in), so it is a call; {back} goes back."),
                to - current, seat=seat,
            ),
        )
    increment = to - current
    word, full = p.word, p.full
    if to >= min_to:
        if word == "bet":
            return p.ruling(word, to, Message("{facing}: a bet to {amount}.", facing=facing, amount=to))
        return p.ruling(word, to, Message("{facing}: a raise to {amount}.", facing=facing, amount=to))
    num, den = UNDERRAISE_THRESHOLD
    if increment * den >= full * num:
        return p.ruling(
            word,
            min_to,
            Message(
                "{facing}: the raise of {increment} is at least half the minimum raise of {full}, "
                "so it must be completed to {minimum} (TDA 43-A).",
                facing=facing, increment=increment, full=full, minimum=min_to,
            ),
        )
    return p.ruling(
        "call",
        current,
        p.back(
            N_("{facing}: the raise of {increment} is less than half the minimum raise of {full}, "
               "so it is a call (TDA 43-A)."),
            N_("{facing}: the raise of {increment} is less than half the minimum raise of {full}, "
               "so it is a call (TDA 43-A); {back} goes back."),
            to - current, increment=increment, full=full,
        ),
    )


# --------------------------------------------------------------------------- out of turn


@dataclass(frozen=True, slots=True)
class PendingAction:
    """An action taken out of turn, held until the turn reaches the seat.

    ``action`` is the PHH verb (``f``, ``cc`` or ``cbr 800``); ``street`` and ``facing``
    record the action to the player when it was made (the street and the bet to match).
    """

    seat: Seat
    action: str
    street: str
    facing: Chips

    @property
    def notation(self) -> str:
        return f"p{self.seat} {self.action}"

    def describe(self) -> str:
        """``fold``, ``check or call``, ``bet or raise to 800``."""
        if self.action == "f":
            return Message("fold")
        if self.action == "cc":
            return Message("check or call")
        return Message("bet or raise to {amount}", amount=parse_entry(self.notation).amount or 0)


@dataclass(frozen=True, slots=True)
class Resolution:
    """What became of a pending action: it ``binds`` (enter ``notation``) or is withdrawn."""

    seat: Seat
    binds: bool
    notation: str | None
    message: str


def record_out_of_turn(hand: Hand, notation: str) -> PendingAction:
    """Check an out-of-turn action (``p6 cbr 800``, ``p6 cc``, ``p6 f``) and hold it.

    >>> from engine.hand import Hand, HandSetup
    >>> hand = Hand(HandSetup({4: 3000, 5: 3000, 6: 3000}, button=6, small_blind_seat=4,
    ...                       big_blind_seat=5, small_blind=50, big_blind=100))
    >>> record_out_of_turn(hand, "p4 cbr 400")
    PendingAction(seat=4, action='cbr 400', street='preflop', facing=100)
    >>> record_out_of_turn(hand, "p6 f")
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: It is seat 6's turn: that is not out of turn, enter it as the action.
    """
    try:
        entry = parse_entry(notation)
    except InvalidInput:
        entry = None
    if entry is None or entry.verb not in ("f", "cc", "cbr") or entry.amount == 0 or entry.seat is None:
        raise InvalidInput(
            "{notation} is not an action: use e.g. 'p6 f', 'p6 cc' or 'p6 cbr 800'.",
            notation=repr(notation)
        )
    seat = entry.seat
    if seat not in hand.seats:
        raise IllegalAction("Seat {seat} is not in this hand.", seat=seat)
    turn = hand.turn
    if turn is None:
        raise IllegalAction("Seat {seat} cannot act out of turn: the betting is over.", seat=seat)
    if turn == seat:
        raise IllegalAction(
            "It is seat {seat}'s turn: that is not out of turn, enter it as the action.",
            seat=seat
        )
    if seat not in hand.live_seats():
        raise IllegalAction("Seat {seat} has folded and cannot act.", seat=seat)
    if hand.is_all_in(seat):
        raise IllegalAction("Seat {seat} is all-in and has no action left.", seat=seat)
    if entry.verb == "cbr":
        stack = hand.stacks()[seat] + hand.bets()[seat]
        amount = entry.amount or 0
        if amount > stack:
            raise IllegalAction(
                "Seat {seat} cannot bet or raise to {amount}: the most they have is {stack} (all in).",
                seat=seat, amount=amount, stack=stack
            )
    action = write_entry(entry).split(" ", 1)[1]  # the verb and amount, after the seat
    return PendingAction(seat, action, hand.street, hand.current_bet)


_OVER = {
    "preflop": N_("the preflop is over"), "flop": N_("the flop is over"),
    "turn": N_("the turn is over"), "river": N_("the river is over"),
}
"""What ended the street an out-of-turn action was made on."""


def resolve_out_of_turn(hand: Hand, pending: PendingAction) -> Resolution:
    """Now that it is ``pending.seat``'s turn: does the out-of-turn action stand (TDA 53)?

    It binds if the action to the player has not changed since: same street, same bet to
    match (checks, calls and folds in between change nothing). A fold always binds.
    """
    seat = pending.seat
    if hand.turn != seat:
        raise IllegalAction("It is not seat {seat}'s turn yet: their out-of-turn action waits.", seat=seat)
    what = pending.describe()
    if pending.action == "f":
        return Resolution(
            seat, True, pending.notation,
            Message("Seat {seat}'s fold out of turn is binding (TDA 53, 58).", seat=seat),
        )
    changed = hand.street != pending.street or hand.current_bet != pending.facing
    if changed:
        if hand.street == pending.street:
            now = Message("the bet is now {bet}", bet=hand.current_bet)
        elif pending.street in _OVER:
            now = Message(_OVER[pending.street])
        else:
            now = Message("the {street} is over", street=pending.street)
        return Resolution(
            seat, False, None,
            Message(
                "Seat {seat}'s out-of-turn {action} is withdrawn: the action to them changed ({now}); "
                "the chips go back and seat {seat} has every option (TDA 53).",
                seat=seat, action=what, now=now,
            ),
        )
    entry = parse_entry(pending.notation)
    if entry.verb == "cbr" and not hand.can_bet_or_raise_to(seat, entry.amount or 0):
        try:
            hand.verify_bet_or_raise_to(seat, entry.amount or 0)
        except IllegalAction as e:
            reason: EngineError | str = e
        else:
            reason = ""
        return Resolution(
            seat, False, None,
            Message("Seat {seat}'s out-of-turn {action} cannot stand: {reason}", seat=seat, action=what, reason=reason),
        )
    return Resolution(
        seat, True, pending.notation,
        Message(
            "Seat {seat}'s {action} out of turn is binding: the action to them did not change (TDA 53).",
            seat=seat, action=what,
        ),
    )
