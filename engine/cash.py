"""Cash-game nights: stakes, buy-ins, the club's play-chip balances, the ledger, waiting
lists, and a cash session as the fold of its events.

Seed 004: "Tables have 6 or 9 seats. The blind levels are 10/20, 50/100, 250/500,
1,000/2,000, 10,000/20,000. The first 3 are open to everyone; each higher level opens once
your Play Chips reach its smallest buy-in. You buy in for 40 to 100 big blinds."

>>> STAKES[1].name, STAKES[1].min_buy_in, STAKES[1].max_buy_in
('50/100', 4000, 10000)
>>> STAKES[1].verify_buy_in(3000, "Ann")
Traceback (most recent call last):
...
engine.errors.IllegalAction: Ann cannot buy in for 3,000 at 50/100: the buy-in is 4,000 to 10,000 (40 to 100 big blinds).

Play money only: every amount here is a count of play chips, never money.

A session is a list of events folded into a :class:`CashSession` (the same ``Event`` as a
tournament's), each refused with a readable sentence when it cannot happen:

- ``created``: ``{"name", "tables": [{"seats", "small_blind", "big_blind", "game"?}], "newcomers"}``
  where ``newcomers`` is the house rule for a player who joins a table that is already
  playing: ``"wait"`` for the big blind, or ``"post"`` a big blind and play at once;
- ``table_added``: ``{"seats", "small_blind", "big_blind", "game"?}`` (``game``: one of
  :data:`engine.games.GAMES` the assistant deals, No-Limit Hold'em when not given);
- ``sat_down``: ``{"member", "name", "table", "seat", "amount"}`` (the buy-in);
- ``top_up`` / ``rebuy``: ``{"member", "amount"}`` (a rebuy is a new buy-in after busting);
- ``left``: ``{"member"}``: the player is cashed out at their stack;
- ``seat_changed``: ``{"member", "table", "seat"}`` (same stake, stack carried);
- ``waiting_added`` / ``waiting_removed``: ``{"member", "name"?, "stake"}``;
- ``hand_started``: ``{"table", "button"?}`` (the button only for a table's first hand,
  drawn by the caller); positions follow the dead-button rule from then on;
- ``hand_action``: ``{"table", "entry"}`` in the hand's notation (``p3 cbr 600``,
  ``d win 3``, ...), or ``{"table", "entries": [...]}`` for several at once (the cards
  shown and the award); the hand's award updates the stacks;
- ``hand_undo``: ``{"table"}`` takes back the last entry of the table's hand, the deal
  itself, or the award of the hand just finished (while nobody at the table moved since);
- ``hand_redo``: ``{"table"}`` puts back the entry the last ``hand_undo`` took back from
  the hand in play (until the next entry);
- ``undo``: cancels the session's last live event; ``redo`` puts it back.

The club (members and the director's grants) is a second, longer-lived fold:
:func:`club_fold`; a member's balance is the club's grants plus, for every session, what
they cashed out less what they bought in (:func:`balances`).

Where the parts live: the stakes in ``engine.cash_stakes``, the club in ``engine.cash_club``,
the session's state in ``engine.cash_session`` and its hands in ``engine.cash_hands``; this
module folds the session and says its events, and every name is still read from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Literal, TypeAlias

from engine import notation
from engine.cash_club import Club, Grant, Member, _member_id, balances, club_apply, club_fold
from engine.cash_hands import _hand_action, _hand_redo, _hand_started, _hand_undo, next_hand
from engine.cash_session import (
    NEWCOMER_RULES,
    TABLE_SIZES,
    CashSession,
    CashTable,
    HandRecord,
    Ledger,
    LedgerLine,
    LiveHand,
    Movement,
    NextHand,
    Offer,
    SeatedPlayer,
    Waiting,
    _set_players,
    _with_table,
)
from engine.cash_session import Newcomers as Newcomers
from engine.cash_session import PlayerTime as PlayerTime
from engine.cash_stakes import (
    MAX_BUY_IN_BB,
    MIN_BUY_IN_BB,
    OPEN_STAKES,
    STAKES,
    Stake,
    clean_name,
    verify_member_buy_in,
    verify_stake_access,
)
from engine.cash_stakes import MAX_NAME as MAX_NAME
from engine.errors import N_, EngineError, IllegalAction, InvalidInput, Message
from engine.events import Event, apply_event, fold_events
from engine.games import DEFAULT_GAME, GAMES, game_named
from engine.text import chips

Seat: TypeAlias = int
Chips: TypeAlias = int
MemberId: TypeAlias = int


def _table_from(data: object, number: int) -> CashTable:
    if not isinstance(data, Mapping):
        raise InvalidInput("Table {number} must be given with its seats and blinds.", number=number)
    seats = data.get("seats", 9)
    if isinstance(seats, bool) or seats not in TABLE_SIZES:
        raise InvalidInput(
            "Table {number} must have 6 or 9 seats, not {seats}.",
            number=number, seats=repr(seats)
        )
    if "stake" in data and "big_blind" not in data:
        stake = Stake.parse(str(data["stake"]))
    else:
        stake = Stake(data.get("small_blind"), data.get("big_blind"))  # type: ignore[arg-type]
    game = game_named(data.get("game", DEFAULT_GAME))
    if not game.dealt:
        raise InvalidInput(
            "Table {number} cannot play {game}: a cash table plays a game the dealer's assistant follows ({games}).",
            number=number, game=game.name, games=", ".join(g.key for g in GAMES.values() if g.dealt),
        )
    return CashTable(number, int(seats), stake, game=game.key)


def create(event: Event) -> CashSession:
    """The session after its ``created`` event."""
    if event.type != "created":
        raise InvalidInput("A cash session starts with its 'created' event.")
    p = event.payload
    name = clean_name(p.get("name"), N_("session name"))
    rule = p.get("newcomers", "wait")
    if rule not in NEWCOMER_RULES:
        raise InvalidInput(
            "A new player must 'wait' for the big blind or 'post' one, not {rule}.",
            rule=repr(rule)
        )
    raw = p.get("tables")
    if not isinstance(raw, list) or not raw:
        raise InvalidInput("A cash session needs at least one table.")
    if len(raw) > 20:
        raise InvalidInput("A cash session can have at most 20 tables, not {count}.", count=len(raw))
    tables = tuple(_table_from(t, n) for n, t in enumerate(raw, start=1))
    return CashSession(event.seq, name, event.at, rule, tables)


def _seat_number(value: object, table: CashTable) -> Seat:
    if isinstance(value, bool):
        raise InvalidInput("{value} is not a seat number.", value=repr(value))
    try:
        seat = int(str(value))
    except ValueError:
        raise InvalidInput("{value} is not a seat number.", value=repr(value)) from None
    if not 1 <= seat <= table.seats:
        raise IllegalAction(
            "Table {table} has seats 1 to {seats}; there is no seat {seat}.",
            table=table.number, seats=table.seats, seat=seat,
        )
    return seat


def _seated(state: CashSession, member: MemberId) -> tuple[CashTable, SeatedPlayer]:
    found = state.seat_of(member)
    if found is None:
        raise IllegalAction("{player} is not sitting at any table.", player=state.name_of(member))
    return found


_BETWEEN_HANDS = {
    "top up": N_("{player} is in the hand being played at table {table}: top up when it is over."),
    "rebuy": N_("{player} is in the hand being played at table {table}: rebuy when it is over."),
    "leave": N_("{player} is in the hand being played at table {table}: leave when it is over."),
    "change seats": N_(
        "{player} is in the hand being played at table {table}: change seats when it is over."
    ),
}


def _between_hands(
    table: CashTable, player: SeatedPlayer, doing: Literal["top up", "rebuy", "leave", "change seats"]
) -> None:
    if table.in_hand(player.member):
        raise IllegalAction(_BETWEEN_HANDS[doing], player=player.name, table=table.number)


def _move(
    state: CashSession,
    event: Event,
    member: MemberId,
    name: str,
    kind: str,
    amount: Chips,
    table: int,
) -> CashSession:
    return replace(
        state,
        movements=(
            *state.movements,
            Movement(event.seq, event.at, member, name, kind, amount, table),
        ),
    )


def _verify_queue(state: CashSession, stake: Stake, member: MemberId, name: str) -> None:
    """A free seat goes to the first in line: someone further back (or not on the list)
    sits only when there are free seats enough for everyone ahead of them."""
    queue = [w for w in state.waiting_list(stake) if state.seat_of(w.member) is None]
    ahead = next((k for k, w in enumerate(queue) if w.member == member), len(queue))
    free = sum(len(t.free_seats) for t in state.tables if t.stake == stake)
    if ahead >= free and ahead:
        first = queue[0]
        raise IllegalAction(
            "{name} cannot take the free seat at {stake}: it is offered first to {first}, first on the waiting list; take {first} off the list to seat someone else.",
            name=name, stake=stake.name, first=first.name
        )


def _sat_down(state: CashSession, event: Event) -> CashSession:
    p = event.payload
    member = _member_id(p)
    name = clean_name(p.get("name"), N_("player's name"))
    table = state.table(p.get("table"))
    seat = _seat_number(p.get("seat"), table)
    found = state.seat_of(member)
    if found is not None:
        raise IllegalAction(
            "{name} is already sitting at table {table}, seat {seat}.",
            name=name, table=found[0].number, seat=found[1].seat,
        )
    occupant = table.player_at(seat)
    if occupant is not None:
        raise IllegalAction(
            "Seat {seat} at table {table} is taken by {occupant}.",
            seat=seat, table=table.number, occupant=occupant.name,
        )
    amount = p.get("amount")
    table.stake.verify_buy_in(amount, name)  # type: ignore[arg-type]
    assert isinstance(amount, int)
    _verify_queue(state, table.stake, member, name)
    newcomer = table.positions is not None
    table = _set_players(
        table, (*table.players, SeatedPlayer(member, name, seat, amount, newcomer))
    )
    state = _with_table(state, table)
    state = _move(state, event, member, name, "sat_down", amount, table.number)
    waiting = tuple(
        (stake, tuple(w for w in queue if w.member != member))
        if stake == table.stake
        else (stake, queue)
        for stake, queue in state.waiting
    )
    names = (
        state.names if any(m == member for m, _ in state.names) else (*state.names, (member, name))
    )
    return replace(
        state,
        waiting=tuple((s, q) for s, q in waiting if q),
        names=names,
        times=(*state.times, PlayerTime(member, event.at, None)),
    )


def _add_chips(state: CashSession, event: Event) -> CashSession:
    table, player = _seated(state, _member_id(event.payload))
    amount = event.payload.get("amount")
    if event.type == "top_up":
        _between_hands(table, player, "top up")
        if player.busted:
            raise IllegalAction(
                "{player} has no chips left: that is a rebuy of {range}.",
                player=player.name, range=table.stake.range_text,
            )
        table.stake.verify_top_up(player.stack, amount, player.name)  # type: ignore[arg-type]
    else:
        if not player.busted:
            raise IllegalAction(
                "{player} still has {stack} chips: a rebuy is for a player who has busted; top up instead.",
                player=player.name, stack=player.stack
            )
        _between_hands(table, player, "rebuy")
        table.stake.verify_buy_in(amount, player.name)  # type: ignore[arg-type]
    assert isinstance(amount, int)
    stacked = replace(player, stack=player.stack + amount)
    table = _set_players(table, (stacked if q is player else q for q in table.players))
    return _move(
        _with_table(state, table),
        event,
        player.member,
        player.name,
        event.type,
        amount,
        table.number,
    )


def _left(state: CashSession, event: Event) -> CashSession:
    table, player = _seated(state, _member_id(event.payload))
    _between_hands(table, player, "leave")
    table = _set_players(table, (q for q in table.players if q is not player))
    state = _move(
        _with_table(state, table),
        event,
        player.member,
        player.name,
        "left",
        player.stack,
        table.number,
    )
    times = list(state.times)
    for k in range(len(times) - 1, -1, -1):
        if times[k].member == player.member and times[k].left_at is None:
            times[k] = replace(times[k], left_at=event.at)
            break
    return replace(state, times=tuple(times))


def _seat_changed(state: CashSession, event: Event) -> CashSession:
    p = event.payload
    old, player = _seated(state, _member_id(p))
    new = state.table(p.get("table"))
    seat = _seat_number(p.get("seat"), new)
    if new.stake != old.stake:
        raise IllegalAction(
            "{player} cannot move to table {table}: it plays {stake}, not {old}; "
            "cash out and sit down there instead.",
            player=player.name, table=new.number, stake=new.stake.name, old=old.stake.name,
        )
    if new.number == old.number and seat == player.seat:
        raise IllegalAction(
            "{player} is already in seat {seat} at table {table}.",
            player=player.name, seat=seat, table=new.number,
        )
    occupant = new.player_at(seat)
    if occupant is not None:
        raise IllegalAction(
            "Seat {seat} at table {table} is taken by {occupant}.",
            seat=seat, table=new.number, occupant=occupant.name,
        )
    _between_hands(old, player, "change seats")
    moved = replace(player, seat=seat, newcomer=new.positions is not None)
    old = _set_players(old, (q for q in old.players if q is not player))
    state = _with_table(state, old)
    new = state.table(new.number)
    return _with_table(state, _set_players(new, (*new.players, moved)))


def _stake_of(state: CashSession, value: object) -> Stake:
    stake = Stake.parse(str(value))
    if stake not in state.stakes:
        played = ", ".join(s.name for s in state.stakes)
        raise IllegalAction(
            "No table plays {stake} tonight; the stakes are {played}.",
            stake=stake.name, played=played
        )
    return stake


def _waiting(state: CashSession, event: Event) -> CashSession:
    p = event.payload
    member = _member_id(p)
    stake = _stake_of(state, p.get("stake"))
    queue = state.waiting_list(stake)
    listed = any(w.member == member for w in queue)
    if event.type == "waiting_added":
        name = clean_name(p.get("name"), N_("player's name"))
        if listed:
            raise IllegalAction("{name} is already on the {stake} waiting list.", name=name, stake=stake.name)
        found = state.seat_of(member)
        if found is not None and found[0].stake == stake:
            raise IllegalAction(
                "{name} is already playing {stake} at table {table}.",
                name=name, stake=stake.name, table=found[0].number,
            )
        queue = (*queue, Waiting(member, name, event.at))
    else:
        if not listed:
            raise IllegalAction(
                "{player} is not on the {stake} waiting list.", player=state.name_of(member), stake=stake.name
            )
        queue = tuple(w for w in queue if w.member != member)
    others = tuple((s, q) for s, q in state.waiting if s != stake)
    lists = (*others, (stake, queue)) if queue else others
    return replace(state, waiting=tuple(sorted(lists, key=lambda sq: sq[0])))


def _table_added(state: CashSession, event: Event) -> CashSession:
    if len(state.tables) >= 20:
        raise IllegalAction("A cash session can have at most 20 tables.")
    table = _table_from(event.payload, len(state.tables) + 1)
    return replace(state, tables=(*state.tables, table))


_HANDLERS = {
    "table_added": _table_added,
    "sat_down": _sat_down,
    "top_up": _add_chips,
    "rebuy": _add_chips,
    "left": _left,
    "seat_changed": _seat_changed,
    "waiting_added": _waiting,
    "waiting_removed": _waiting,
    "hand_started": _hand_started,
    "hand_action": _hand_action,
    "hand_undo": _hand_undo,
    "hand_redo": _hand_redo,
}
EVENT_TYPES = ("created", "undo", "redo", *_HANDLERS)


def apply(state: CashSession, event: Event) -> CashSession:
    """The session after ``event``; ``EngineError`` if it cannot happen."""
    return apply_event(state, event, _HANDLERS, N_("cash session event"))


def fold(events: Iterable[Event]) -> CashSession:
    """The session after all ``events``; the first must be ``created``."""
    return fold_events(events, create, apply, N_("A cash session starts with its 'created' event."))


def describe(event: Event, names: Mapping[MemberId, str] | None = None) -> str:
    """One line for the session's history."""
    p = event.payload

    def who() -> str:
        if p.get("name"):
            return str(p["name"])
        try:
            return (names or {}).get(_member_id(p), "?")
        except EngineError:
            return "?"

    amount = p.get("amount")
    text: Chips | str = amount if isinstance(amount, int) and not isinstance(amount, bool) else "?"
    table, seat = str(p.get("table")), str(p.get("seat"))
    match event.type:
        case "created":
            return Message("Session opened")
        case "table_added":
            return Message("Table added")
        case "member_added":
            return Message("{player} joined the club", player=who())
        case "chips_granted":
            return Message("{amount} play chips granted to {player}", amount=text, player=who())
        case "sat_down":
            return Message(
                "{player} sat down at table {table} seat {seat} for {amount}",
                player=who(), table=table, seat=seat, amount=text,
            )
        case "top_up":
            return Message("{player} topped up {amount}", player=who(), amount=text)
        case "rebuy":
            return Message("{player} rebought for {amount}", player=who(), amount=text)
        case "left":
            return Message("{player} cashed out", player=who())
        case "seat_changed":
            return Message("{player} moved to table {table} seat {seat}", player=who(), table=table, seat=seat)
        case "waiting_added":
            return Message("{player} joined the {stake} waiting list", player=who(), stake=str(p.get("stake")))
        case "waiting_removed":
            return Message("{player} left the {stake} waiting list", player=who(), stake=str(p.get("stake")))
        case "hand_started":
            return Message("Hand dealt at table {table}", table=table)
        case "hand_action":
            entries = p.get("entries") or [p.get("entry")]
            said = notation.joined([notation.describe(str(e)) for e in entries])
            return Message("Table {table}: {entries}", table=table, entries=said)
        case "hand_undo":
            return Message("Table {table}: undo", table=table)
        case "hand_redo":
            return Message("Table {table}: redo", table=table)
        case "undo":
            return Message("Undo")
    return event.type




__all__ = [
    "EVENT_TYPES",
    "MAX_BUY_IN_BB",
    "MIN_BUY_IN_BB",
    "NEWCOMER_RULES",
    "OPEN_STAKES",
    "STAKES",
    "TABLE_SIZES",
    "CashSession",
    "CashTable",
    "Club",
    "Grant",
    "HandRecord",
    "Ledger",
    "LedgerLine",
    "LiveHand",
    "Member",
    "Movement",
    "NextHand",
    "Offer",
    "SeatedPlayer",
    "Stake",
    "Waiting",
    "apply",
    "balances",
    "chips",
    "clean_name",
    "club_apply",
    "club_fold",
    "create",
    "describe",
    "fold",
    "next_hand",
    "verify_member_buy_in",
    "verify_stake_access",
]
