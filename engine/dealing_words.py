"""The hands at a tournament's tables in words, for the director's log and the dealer's
history: each entry of a hand's log said with the players' names (:func:`entry_words`), an
event's entries read in the hand as it stood (:func:`event_entries`), and the table's
events as sentences (:func:`describe`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from engine import notation
from engine.cards import parse_cards
from engine.errors import N_, EngineError, InvalidInput, Message
from engine.events import Event, Vec
from engine.hand import Action, Hand
from engine.pots import award_words
from engine.state import Tournament
from engine.tablehands import TableHand

Seat: TypeAlias = int


def _entries(payload: Mapping[str, Any]) -> list[str]:
    raw = payload.get("actions")
    if raw is None:
        raw = [payload.get("action")]
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, Sequence) or not raw or not all(isinstance(a, str) and a.strip() for a in raw):
        raise InvalidInput("Enter an action, e.g. 'p3 cc' or 'p3 cbr 600'.")
    return [" ".join(a.split()) for a in raw]


describe_entry = notation.describe
"""An entry of a hand's log in words, without names (``engine.notation.describe``)."""


def hand_at(state: Tournament, table: int, seq: int) -> TableHand | None:
    """The hand event ``seq`` at ``table`` belongs to: the last one dealt there by then."""
    latest = state.dealing.current(table)
    if latest is not None and latest.started_seq <= seq:
        return latest
    for hand in state.dealing.finished.get(table, Vec[TableHand]()).reversed():
        if hand.started_seq <= seq:
            return hand
    return None


def _table_of(payload: Mapping[str, Any]) -> int:
    """The table an event names (0 when it names none a log can read)."""
    try:
        return int(str(payload.get("table")))
    except ValueError:
        return 0


def seat_names(state: Tournament, record: TableHand | None) -> dict[Seat, str]:
    """The name of the player in each seat of a hand (those sitting it out too)."""
    if record is None:
        return {}
    return {seat: state.name_of(pid) for seat, pid in (*record.players, *record.waiting)}


_STREETS = {(0, 3): N_("the flop is {cards}"), (3, 4): N_("the turn is {cards}"),
            (4, 5): N_("the river is {cards}"), (3, 5): N_("the turn and the river are {cards}"),
            (0, 5): N_("the board is {cards}")}


def _seat_word(names: Mapping[Seat, str], seat: Seat | None) -> str:
    return names.get(seat or 0) or Message("seat {seat}", seat=seat)


def _joined(said: list[str]) -> str:
    """Several sentences of a hand's log as one (``; ``), each still said in its language."""
    if not said:
        return ""
    out = said[0]
    for more in said[1:]:
        out = Message("{earlier}; {later}", earlier=out, later=more)
    return out


def entry_words(entry: str, names: Mapping[Seat, str], hand: Hand | None = None) -> str:
    """One entry of a hand's log as a sentence with the player's name: ``Ann raises to 600``.

    ``hand`` is the hand just before the entry; the entry is applied to it, and the words
    then tell a check from a call, say the amounts, the street and who won how much.
    Without it they say what the entry alone says (``Ann checks or calls``).

    >>> entry_words("p3 cbr 600", {3: "Ann"}), entry_words("d win 3;5,7", {3: "Ann", 5: "Bob"})
    ('Ann bets or raises to 600', 'Ann wins the main pot; Bob and seat 7 split side pot 1')
    """
    try:
        parsed = notation.parse(entry)
    except InvalidInput:
        return entry
    who = _seat_word(names, parsed.seat)
    board = len(hand.board) if hand is not None else 0
    actions = len(hand.actions) if hand is not None else 0
    if hand is not None:
        try:
            hand.apply(entry)
        except EngineError:
            hand = None
    if parsed.verb in ("f", "cc", "cbr") and hand is not None and len(hand.actions) > actions:
        said = _action_words(hand.actions[-1], who)
        if said is not None:
            return said
        # Every kind of action is said there; another one is said as the entry alone says it.
    match parsed.verb:
        case "f":
            return Message("{player} folds", player=who)
        case "cc":
            return Message("{player} checks or calls", player=who)
        case "cbr":
            return Message("{player} bets or raises to {amount}", player=who, amount=parsed.amount or 0)
        case "sm" if parsed.mucked:
            return Message("{player} mucks", player=who)
        case "sm":
            if parsed.cards:
                return Message("{player} shows {cards}", player=who, cards=parsed.cards)
            return Message("{player} shows cards nobody entered", player=who)
        case "dh":
            return Message("{player} is dealt {cards}", player=who, cards=parsed.cards)
        case "db":
            if hand is None:
                dealt = parse_cards(parsed.cards or "")
                if len(dealt) == 1:
                    return Message("{cards} is dealt to the board", cards=str(dealt[0]))
                return Message("{cards} are dealt to the board", cards=" ".join(map(str, dealt)))
            street = _STREETS.get((board, len(hand.board)), N_("the board is {cards}"))
            return Message(street, cards=" ".join(map(str, hand.board[board:])))
    if hand is not None and hand.award is not None:
        return award_words(hand.award, names)
    return _award_entry_words(parsed, names)


def _action_words(action: Action, who: str) -> str | None:
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


def _award_entry_words(parsed: notation.Entry, names: Mapping[Seat, str]) -> str:
    """An award entry as it is written (``d win 3;5,7``): who wins or splits each pot."""
    if parsed.winners is None:
        return Message("the pots are awarded from the cards")
    pots = len(parsed.winners)
    said: list[str] = []
    for k, seats in enumerate(parsed.winners):
        winners = [_seat_word(names, s) for s in seats]
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
    return _joined(said)


def event_entries(state: Tournament, event: Event) -> str:
    """The entries an event made in its hand, in words with the names: each read against the
    hand as it stood (``Ann calls 200``) while it stands in the hand's log, else from its
    text alone (an entry taken back since, or voided by a misdeal)."""
    p = event.payload
    record = hand_at(state, _table_of(p), event.seq)
    names = seat_names(state, record)
    found = record.played(event.seq) if record is not None else None
    if found is not None:
        return _played_words(*found, names)
    try:
        entries = _entries(p)
    except InvalidInput:
        return Message("an entry nobody can read")
    return _joined([entry_words(e, names) for e in entries])


def _played_words(record: TableHand, first: int, count: int, names: Mapping[Seat, str]) -> str:
    """``count`` entries of ``record`` from ``first``, each read in the hand as it stood."""
    hand = Hand.replay(record.setup, record.log[:first])
    over = hand.award is not None
    entries = record.log[first:first + count]
    said = [entry_words(e, names, hand) for e in entries]
    if not over and hand.award is not None and notation.parse(entries[-1]).verb != "win":
        said.append(award_words(hand.award, names))  # everyone else folded: the pot is won
    return _joined(said)


def _turned_words(state: Tournament, event: Event) -> str | None:
    """The entries an undo took back or a redo put back at its table, in words (None when
    they are not known)."""
    record = hand_at(state, _table_of(event.payload), event.seq)
    if record is None:
        return None
    later = next((r for seq, r in record.kept if seq == event.seq), None)
    if later is None or not later.entry_seqs:
        return None
    last = later.entry_seqs[-1]
    first = later.entry_seqs.index(last)
    return _played_words(later, first, len(later.entry_seqs) - first, seat_names(state, record))


def _pending_words(state: Tournament, event: Event) -> str:
    """An action out of turn, held for its turn: ``Ann raises to 600 out of turn``."""
    p = event.payload
    record = hand_at(state, _table_of(p), event.seq)
    names = seat_names(state, record)
    try:
        entry = notation.parse(str(p.get("action")))
    except InvalidInput:
        return Message("an action out of turn ({action})", action=str(p.get("action")))
    who = _seat_word(names, entry.seat)
    words = entry_words(str(p.get("action")), names)
    if record is not None and entry.seat is not None:
        hand = Hand.replay(record.setup, [e for e, s in zip(record.log, record.entry_seqs, strict=True) if s < event.seq])
        facing = hand.current_bet > hand.bets().get(entry.seat, 0)
        if entry.verb == "cc":
            if facing:
                words = Message("{player} calls", player=who)
            else:
                words = Message("{player} checks", player=who)
        elif entry.verb == "cbr":
            amount = entry.amount or 0
            if hand.current_bet:
                words = Message("{player} raises to {amount}", player=who, amount=amount)
            else:
                words = Message("{player} bets {amount}", player=who, amount=amount)
    return Message("{action} out of turn, held until {player}'s turn", action=words, player=who)


def describe(state: Tournament, event: Event) -> str:
    """A sentence for the event log, e.g. 'Table 1: Ann raises to 600'. ``state`` is the
    tournament after the event (or later): the entries are read in their hand."""
    p = event.payload
    table = p.get("table")
    if event.type == "hand_started":
        record = hand_at(state, _table_of(p), event.seq)
        if record is None or record.started_seq != event.seq:
            return Message("Table {table}: a new hand is dealt", table=str(table))
        return Message("Table {table}: hand {hand} is dealt", table=str(table), hand=str(record.number))
    if event.type == "hand_action":
        return Message("Table {table}: {entries}", table=str(table), entries=event_entries(state, event))
    if event.type == "hand_pending":
        return Message("Table {table}: {entries}", table=str(table), entries=_pending_words(state, event))
    if event.type == "hand_undo":
        undone = _turned_words(state, event)
        if undone:
            return Message("Table {table}: “{entries}” is taken back", table=str(table), entries=undone)
        return Message("Table {table}: the last entry is taken back", table=str(table))
    if event.type == "hand_redo":
        again = _turned_words(state, event)
        if again:
            return Message("Table {table}: “{entries}” is entered again", table=str(table), entries=again)
        return Message("Table {table}: the entry taken back is entered again", table=str(table))
    if event.type == "stack_corrected":
        try:
            pid = int(str(p.get("player")))
            stack = int(str(p.get("stack")))
        except ValueError:
            return Message("A stack is corrected")
        return Message(
            "{player}'s stack is corrected to {stack} ({reason})",
            player=state.name_of(pid), stack=stack, reason=str(p.get("reason")),
        )
    return event.type


__all__ = ["describe", "describe_entry", "entry_words", "event_entries", "hand_at", "seat_names"]
