"""The table's accidents (issue "The table's accidents"): misdeals, exposed cards and dealing
errors, a button in the wrong place, and the action clock running out. Each ruling is an
event at one table, kept with its hand (``TableHand.rulings``) with the rule it applied, so
the hand's history and its PHH file say what was ruled, and a replay rules the same.

The rulebook's words (``TDA.md`` §8, §4.14 and §9):

- *Substantial action* (TDA 36): "either (A) two actions in turn where at least one puts
  chips in, or (B) any three actions in turn. Posted blinds do not count."
- *Misdeals* (TDA 35-A): before substantial action the hand is dealt again, "an exact
  replay (35-C): the button does not move, no new players are seated, limits stay the same";
  "no misdeal after SA (35-D)"; a fouled deck (a duplicate card, 35-E): "stop and return all
  bets, whatever the SA". A voided hand is never finished, so a hand-counted structure counts
  the misdeal and its re-deal as one hand, as 35-C says.
- *Button* (TDA 34-A): "a wrong button is corrected if found before substantial action.
  After SA it stands, and the button is not backed up next hand" (T12).
- *The clock* (TDA 29, T39): when the time and its countdown run out, "facing a bet, the
  hand is dead; otherwise, check"; "a tie goes to the player".

Events (payloads):

- ``hand_misdeal`` ``{"table", "cause"}``: a cause of :data:`MISDEALS`;
- ``hand_ruling`` ``{"table", "kind", "seed"?}``: a ruling of :data:`RULINGS` that changes
  nothing entered (the four-card flop draws its burn with ``seed``, stored with it);
- ``button_corrected`` ``{"table", "seat"}``: where the button should be in the running hand;
- ``hand_time_up`` ``{"table"}``: the seat on the clock ran out of time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from engine import notation
from engine.dealing import RULING_EVENT_TYPES, _hand_action, _int, _running, _table
from engine.dealing_words import _table_of, event_entries, hand_at, seat_names
from engine.errors import N_, IllegalAction, InvalidInput, Message, Term
from engine.events import Event
from engine.hand import Action, Hand, HandSetup
from engine.positions import first_positions
from engine.state import Tournament
from engine.tablehands import Ruling, TableHand

MISDEALS: dict[str, tuple[str, str]] = {
    "boxed_cards": (Term("two or more boxed cards on the initial deal"), "TDA 35-A-1"),
    "wrong_first_seat": (Term("the first card dealt to the wrong seat"), "TDA 35-A-2"),
    "empty_seat": (Term("cards dealt to a seat not entitled to a hand (an empty seat)"), "TDA 35-A-3"),
    "dealt_out": (Term("a seat entitled to a hand dealt out"), "TDA 35-A-4"),
    "wrong_count": (Term("the wrong number of cards to a player"), "TDA 35-A-5"),
    "non_standard_card": (Term("a non-standard card found in the deck"), "TDA 35-A-6"),
    "exposed_first_two": (Term("one of the first two cards exposed by the dealer"), "TDA 35-A-7"),
    "exposed_two": (Term("two down cards exposed by the dealer"), "TDA 35-A-7"),
    "fouled_deck": (Term("a fouled deck: a duplicate card"), "TDA 35-E"),
}
"""The misdeals a dealer can declare: cause -> (in words, the rule)."""

STREETS = ("flop", "turn", "river")

RULINGS: dict[str, str] = {
    "boxed_card": Term("one boxed card"),
    "exposed_card": Term("one card exposed by the dealer (not one of the first two)"),
    "player_exposed": Term("a player exposed a card with action pending"),
    "premature_flop": Term("a premature flop"),
    "premature_turn": Term("a premature turn"),
    "premature_river": Term("a premature river"),
    "four_card_flop": Term("a four-card flop"),
    "button_two_in_a_row": Term("two cards in a row to the button"),
    "button_short": Term("the button dealt one card short"),
    "rabbit_hunt": Term("a player asks to see the cards not dealt"),
}
"""The other accidents, each with its remedy and nothing entered changed."""

STREET_NAMES: dict[str, Term] = {
    "preflop": Term("preflop"), "flop": Term("flop"), "turn": Term("turn"), "river": Term("river"),
    "showdown": Term("showdown"),
}
"""A street's name inside a ruling's sentence (the flop, the turn...)."""

BURN_PLACES = (Term("1st"), Term("2nd"), Term("3rd"), Term("4th"))
"""Which of the four cards of a four-card flop is the burn, counted from the left."""


def _street(street: str) -> Term:
    return STREET_NAMES.get(street, Term(street))


def substantial_action(hand: Hand) -> str | None:
    """Why substantial action has taken place (TDA 36), or None.

    "Either (A) two actions in turn where at least one puts chips in, or (B) any three
    actions in turn. Posted blinds do not count." A check is an action that puts no chips
    in; a call, bet or raise puts chips in.
    """
    acts = hand.actions
    if len(acts) >= 3:
        return Message("three players have acted")
    if len(acts) == 2 and any(a.kind != "check" and a.kind != "fold" for a in acts):
        first, second = (_did(a) for a in acts)
        return Message("{first} and {second}", first=first, second=second)
    return None


def _did(action: Action) -> Message:
    if action.kind == "fold":
        return Message("seat {seat} folded", seat=action.seat)
    if action.kind == "check":
        return Message("seat {seat} checked", seat=action.seat)
    if action.kind == "call":
        return Message("seat {seat} called", seat=action.seat)
    if action.kind == "bet":
        return Message("seat {seat} bet", seat=action.seat)
    if action.kind == "raise":
        return Message("seat {seat} raised", seat=action.seat)
    raise KeyError(action.kind)


def _ruled(state: Tournament, record: TableHand, ruling: Ruling, seq: int = 0, **changes: object) -> Tournament:
    """The ruling kept with the hand; a ruling that voids the entries (``seq``: its event)
    keeps the hand as it stood, for the log."""
    new = record.step(rulings=(*record.rulings, ruling), **changes)
    if seq and record.log:
        new = new.remember(seq, record)
    return replace(state, dealing=state.dealing.with_running(new))


def _running_or_refuse(state: Tournament, table: int, what: str) -> TableHand:
    record = state.dealing.current(table)
    if record is not None and record.finished:
        raise IllegalAction(
            "Hand {number} at table {table} is over: {what} is ruled while the hand is played "
            "(the director's undo takes back a finished hand).",
            number=record.number, table=table, what=what,
        )
    return _running(state, table)


def _misdeal(state: Tournament, event: Event) -> Tournament:
    p = event.payload
    table = _table(state, p)
    cause = p.get("cause")
    if cause not in MISDEALS:
        raise InvalidInput("Name the misdeal's cause: one of {causes}.", causes=", ".join(MISDEALS))
    words, rule = MISDEALS[cause]
    record = _running_or_refuse(state, table, Term("a misdeal"))
    hand = record.replay()
    if cause == "fouled_deck":
        text = Message("Fouled deck, a duplicate card: the hand is void and every bet goes back, whatever "
                       "the action; with a new deck the hand is dealt again, same button and blinds")
        rule = "TDA 35-E"
    else:
        why = substantial_action(hand)
        if why is not None:
            if cause.startswith("exposed"):
                raise IllegalAction(
                    "No misdeal after substantial action (TDA 35-D): {why}; the hand goes on and the exposed "
                    "cards stay in play.", why=why,
                )
            raise IllegalAction("No misdeal after substantial action (TDA 35-D): {why}; the hand goes on.", why=why)
        text = Message("Misdeal, {cause}: the hand is dealt again as an exact replay: the button does not move, "
                       "nobody new is dealt in, the blinds stay the same", cause=words)
        rule = f"{rule}, 35-C"
    ruling = Ruling("misdeal", rule, text, len(record.log), record.log, event.at)
    return _ruled(state, record, ruling, event.seq, log=(), entry_seqs=(), pending=())


def _ruling(state: Tournament, event: Event) -> Tournament:
    p = event.payload
    table = _table(state, p)
    kind = p.get("kind")
    if kind not in RULINGS:
        raise InvalidInput("Name what happened: one of {kinds}.", kinds=", ".join(RULINGS))
    record = _running_or_refuse(state, table, RULINGS[kind])
    hand = record.replay()
    rule: str
    text: str
    if kind == "boxed_card":
        rule, text = (Term("TDA 35-A-1; house rule"), Message("One boxed card is not a misdeal (two are): it is replaced by the "
                      "next card and used as a scrap card, and the deal goes on"))
    elif kind == "exposed_card":
        rule, text = ("TDA 35-A-7", Message("One card exposed by the dealer, not one of the first two, is not a misdeal "
                      "(one of the first two, or two cards, would be): the deal goes on and the exposed card "
                      "is replaced by the next card after the deal"))
    elif kind == "player_exposed":
        rule, text = ("TDA 68", Message("A player exposed a card with action pending: the hand stays live; a penalty "
                      "is the director's call"))
    elif kind == "button_two_in_a_row":
        rule, text = ("TDA 35-B", Message("Two cards in a row to the button are allowed: not a misdeal, the deal goes on"))
    elif kind == "button_short":
        rule, text = ("TDA 35-A-5, 37", Message("The button dealt one card short is not a misdeal (the one exception to the "
                      "wrong number of cards): the button takes the next card from the deck"))
    elif kind == "rabbit_hunt":
        rule, text = ("TDA 28", Message("No rabbit hunting: the cards not dealt stay in the stub, unseen"))
    elif kind.startswith("premature_"):
        street = kind.removeprefix("premature_")
        if _next_street(hand) != street or hand.turn is None:
            if hand.turn is not None:
                raise IllegalAction("The {street} is not premature: the hand is on the {current}.",
                                    street=_street(street), current=_street(hand.street))
            raise IllegalAction("The {street} is not premature: the hand is on the {current} and nobody is to act.",
                                street=_street(street), current=_street(hand.street))
        rule = "TDA RP-5" + (", T51" if street == "turn" else "")
        if street == "flop":
            text = Message("Premature flop: the burn card stays; the flop cards go back into the stub, "
                           "which is reshuffled; when the betting ends the flop is dealt again with no new burn")
        elif street == "turn":
            text = Message("Premature turn: the burn card stays; the turn card goes back into the stub, "
                           "which is reshuffled; when the betting ends the turn is dealt again with no new burn")
        else:
            text = Message("Premature river: the burn card stays; the river card goes back into the stub, "
                           "which is reshuffled; when the betting ends the river is dealt again with no new burn")
    else:  # four_card_flop
        if hand.street != "flop" or any(a.street == "flop" for a in hand.actions):
            if hand.street == "flop":
                raise IllegalAction("A four-card flop is ruled as the flop comes out; the hand is on the {street} "
                                    "and the flop has been bet on.", street=_street(hand.street))
            raise IllegalAction("A four-card flop is ruled as the flop comes out; the hand is on the {street}.",
                                street=_street(hand.street))
        seed = _int(p, "seed", N_("seed of the burn's draw"), 0)
        burn = random.Random(f"four-card-flop:{seed}").randrange(4) + 1
        rule, text = ("TDA 39-A, T50", Message("Four cards on the flop: scramble them face down and lay them in a row; "
                      "the {burn} from the left is the burn, the other three are the flop", burn=BURN_PLACES[burn - 1]))
    return _ruled(state, record, Ruling(kind, rule, text, len(record.log), at=event.at))


def _next_street(hand: Hand) -> str | None:
    """The street whose cards come next (None on the river or after)."""
    order = ("preflop", *STREETS)
    if hand.street not in order:
        return None
    index = order.index(hand.street)
    return order[index + 1] if index + 1 < len(order) else None


def _button(state: Tournament, event: Event) -> Tournament:
    p = event.payload
    table = _table(state, p)
    size = state.settings.table_size
    seat = _int(p, "seat", N_("button seat"), 1)
    if seat > size:
        raise InvalidInput("Table {table} has seats 1 to {size}: there is no seat {seat}.", table=table, size=size, seat=seat)
    record = _running_or_refuse(state, table, Term("the button"))
    players = dict(record.players)
    if seat == record.setup.button:
        raise IllegalAction("The button is already on seat {seat} in this hand.", seat=seat)
    if seat not in players:
        raise IllegalAction(
            "Seat {seat} at table {table} has no player dealt in: the button is corrected to a seat with a "
            "player in this hand (a dead button stays where the dead-button rule puts it).", seat=seat, table=table,
        )
    hand = record.replay()
    why = substantial_action(hand)
    if why is not None:
        text = Message("The button should have been on seat {seat}, but substantial action has taken place ({why}): "
                       "play stands, and the next hand moves on from seat {button}, where this one was "
                       "played; the button is not backed up", seat=seat, why=why, button=record.setup.button)
        return _ruled(state, record, Ruling("button", "TDA 34-A, T12", text, len(record.log), at=event.at))
    positions = first_positions(set(players), seat)
    setup = record.setup
    fixed = HandSetup(
        stacks=setup.stacks, button=positions.button, small_blind_seat=positions.small_blind,
        big_blind_seat=positions.big_blind, small_blind=setup.small_blind, big_blind=setup.big_blind,
        antes=setup.antes, big_blind_ante=setup.big_blind_ante,
    )
    Hand(fixed)  # the engine accepts it
    if positions.small_blind is not None:
        text = Message("The button was on seat {button} and belongs on seat {seat}: corrected before substantial "
                       "action; small blind seat {small_blind}, big blind seat {big_blind}, and the blinds are posted "
                       "again", button=setup.button, seat=seat, small_blind=positions.small_blind,
                       big_blind=positions.big_blind)
    else:
        text = Message("The button was on seat {button} and belongs on seat {seat}: corrected before substantial "
                       "action; no small blind, big blind seat {big_blind}, and the blinds are posted again",
                       button=setup.button, seat=seat, big_blind=positions.big_blind)
    ruling = Ruling("button", "TDA 34-A", text, len(record.log), record.log, event.at)
    return _ruled(state, record, ruling, event.seq, setup=fixed, positions=positions, log=(), entry_seqs=(),
                  pending=())


def _time_up(state: Tournament, event: Event) -> Tournament:
    table = _table(state, event.payload)
    record = _running_or_refuse(state, table, Term("the clock"))
    hand = record.replay()
    clock = state.action_clock
    seat = hand.turn
    if clock is None or clock.table != table or seat is None or clock.seat != seat:
        raise IllegalAction("Nobody to act at table {table} is on the clock: put the seat on the clock first.", table=table)
    ends = clock.started_at + clock.seconds + clock.countdown
    if event.at <= ends:  # a tie goes to the player (TDA 29)
        left = max(1, round(ends - event.at))
        if left == 1:
            raise IllegalAction("Seat {seat} still has 1 second: the time is not up.", seat=seat)
        raise IllegalAction("Seat {seat} still has {left} seconds: the time is not up.", seat=seat, left=left)
    facing = hand.current_bet > hand.bets().get(seat, 0)
    if facing:
        entry, text = notation.fold(seat), Message("Time is up for seat {seat}, facing a bet: the hand is dead", seat=seat)
    else:
        entry, text = notation.check_or_call(seat), Message("Time is up for seat {seat}, with no bet to face: a check",
                                                            seat=seat)
    ruled = replace(record, rulings=(*record.rulings, Ruling("clock", "TDA 29, T39", text, len(record.log), at=event.at)))
    state = replace(state, dealing=state.dealing.with_running(ruled), action_clock=None)
    return _hand_action(state, Event(event.seq, "hand_action", {"table": table, "action": entry}, event.at))


def describe(state: Tournament, event: Event) -> str:
    """A sentence for the event log: 'Table 1: misdeal (two down cards exposed by the
    dealer), the hand is dealt again'. ``state`` is the tournament after the event (or later)."""
    p = event.payload
    table = p.get("table")
    if event.type == "hand_misdeal":
        words = MISDEALS.get(str(p.get("cause")), (Term("a cause not named"),))[0]
        return Message("Table {table}: misdeal ({cause}), the hand is dealt again", table=table, cause=words)
    if event.type == "hand_ruling":
        what = RULINGS.get(str(p.get("kind")), Term("an accident not named"))
        return Message("Table {table}: a ruling is read out ({what})", table=table, what=what)
    record = hand_at(state, _table_of(p), event.seq)
    if event.type == "button_corrected":
        seat = str(p.get("seat"))
        name = seat_names(state, record).get(int(seat)) if seat.isdigit() else None
        if name:
            return Message("Table {table}: the button belongs on seat {seat} ({name})", table=table, seat=seat, name=name)
        return Message("Table {table}: the button belongs on seat {seat}", table=table, seat=seat)
    if record is not None and event.seq in record.entry_seqs:  # hand_time_up: the fold or the check it ruled
        return Message("Table {table}: time is up, {entries}", table=table, entries=event_entries(state, event))
    return Message("Table {table}: time is up for the player on the clock", table=table)


HANDLERS: dict[str, Callable[[Tournament, Event], Tournament]] = {
    "hand_misdeal": _misdeal,
    "hand_ruling": _ruling,
    "button_corrected": _button,
    "hand_time_up": _time_up,
}
assert tuple(HANDLERS) == RULING_EVENT_TYPES
