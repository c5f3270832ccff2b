"""The hands at a tournament's tables in words, for the director's log and the dealer's
history: each entry of a hand's log said with the players' names (``engine.notation.describe``), an
event's entries read in the hand as it stood (:func:`event_entries`), and the table's
events as sentences (:func:`describe`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from engine import notation
from engine.errors import InvalidInput, Message
from engine.events import Event, Vec
from engine.hand import Hand
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
    return notation.joined([notation.describe(e, names) for e in entries])


def _played_words(record: TableHand, first: int, count: int, names: Mapping[Seat, str]) -> str:
    """``count`` entries of ``record`` from ``first``, each read in the hand as it stood."""
    hand = Hand.replay(record.setup, record.log[:first])
    over = hand.award is not None
    entries = record.log[first:first + count]
    said = [notation.describe(e, names, hand) for e in entries]
    if not over and hand.award is not None and notation.parse(entries[-1]).verb != "win":
        said.append(award_words(hand.award, names))  # everyone else folded: the pot is won
    return notation.joined(said)


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
    who = notation.seat_word(names, entry.seat)
    words = notation.describe(str(p.get("action")), names)
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


__all__ = ["describe", "event_entries", "hand_at", "seat_names"]
