"""The players' events in a tournament's fold: registration (and removal before the start),
the bust, rebuys, re-entries and add-ons with their payments, the payouts locked at the
money, rebuys closed and the hand cap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeAlias

from engine import dealing
from engine.errors import IllegalAction, InvalidInput, Message
from engine.events import Event
from engine.ledger import Ledger, PaymentKind
from engine.payload import _int, _player_id, clean_name
from engine.pots import clockwise_from
from engine.stacks import stack_of, write_off, write_off_v1
from engine.standings import Standings
from engine.state import Player, Tournament, current_level

PlayerId: TypeAlias = int
Chips: TypeAlias = int

MAX_ELIMINATORS = 10
"""Players who can split the pot that knocked someone out (a table's seats)."""


def _eliminators(state: Tournament, raw: Any, victims: Sequence[PlayerId]) -> tuple[PlayerId, ...]:
    """The bust's ``by``: one player or several who split the pot (a list), in the odd-chip
    order: clockwise from the button of the victims' table when a hand was dealt there (TDA
    20: the odd chip goes to the first winner left of the button), else as named."""
    if raw in (None, "", []):
        return ()
    named = raw if isinstance(raw, list) else [raw]
    if len(named) > MAX_ELIMINATORS:
        raise InvalidInput("At most {most} players can split the pot that knocked a player out.", most=MAX_ELIMINATORS)
    takers: list[PlayerId] = []
    for value in named:
        winner = state.player(_player_id({"player": value}))
        if winner.id in victims:
            raise IllegalAction("{name} cannot knock themselves out.", name=winner.name)
        if winner.out:
            raise IllegalAction("{name} is already out and cannot knock anyone out.", name=winner.name)
        if winner.id in takers:
            raise InvalidInput("{name} is named twice as an eliminator.", name=winner.name)
        takers.append(winner.id)
    table = state.player(victims[0]).table if victims else None
    record = state.dealing.latest.get(table) if table is not None and len(takers) > 1 else None
    if record is not None:
        seats = {state.seating.seat_of(pid)[1]: pid for pid in takers if pid in state.seating}
        if len(seats) == len(takers):
            takers = [seats[s] for s in clockwise_from(record.setup.button, seats)]
    return tuple(takers)


def _at_level(state: Tournament, event: Event) -> Standings:
    return state.standings.at_level(current_level(state, event.at)) if state.started else state.standings


def _register(state: Tournament, event: Event) -> Tournament:
    name = clean_name(event.payload.get("name"))
    existing = state.player_named(name)
    if existing is not None:
        raise IllegalAction("{name} is already registered: add something to tell them apart.", name=existing.name)
    if state.finished:
        raise IllegalAction("The tournament is over: {name} cannot register any more.", name=name)
    if state.started:
        last = state.settings.late_registration_levels
        level = current_level(state, event.at)
        if level > last:
            if last == 0:
                raise IllegalAction("Registration closed when the clock started: {name} cannot join at level {level}.",
                                    name=name, level=level)
            raise IllegalAction("Registration closed at the end of level {last}: {name} cannot join at level {level}.",
                                last=last, name=name, level=level)
    _refuse_after_deal(state)
    new_id = state.next_player_id
    return replace(
        state,
        next_player_id=new_id + 1,
        names=(*state.names, (new_id, name, event.seq)),
        standings=state.standings.register(new_id, name),
        ledger=state.ledger.pay(state.settings, new_id, "entry", event.seq),
    )


def _refuse_after_deal(state: Tournament) -> None:
    """After the final table's deal the prize money is shared out: no more money comes in."""
    if state.deal is not None:
        raise IllegalAction("A deal was made at the final table: no more buy-ins, rebuys or add-ons "
                            "(undo the deal first).")


def _paid(state: Tournament, pid: PlayerId, kind: PaymentKind, event: Event) -> Ledger:
    """The ledger with ``pid``'s payment of ``kind``, at the price of the moment."""
    _refuse_after_deal(state)
    return state.ledger.pay(state.settings, pid, kind, event.seq)


def _unregister(state: Tournament, event: Event) -> Tournament:
    """A player registered by mistake leaves before the clock starts (afterwards, they bust)."""
    pid = _player_id(event.payload)
    name = state.player(pid).name
    if state.started:
        raise IllegalAction("The clock has started: {name} cannot be removed any more, only knocked out.", name=name)
    standings = replace(state.standings, entrants=tuple(e for e in state.standings.entrants if e.id != pid))
    seating = state.seating.without(pid) if pid in state.seating else state.seating
    return replace(
        state,
        names=tuple(n for n in state.names if n[0] != pid),
        standings=standings,
        seating=seating,
        locks=tuple(x for x in state.locks if x[0] != pid),
        ledger=state.ledger.refund(pid),
    )


def _bust(state: Tournament, event: Event) -> Tournament:
    ids, players = _victims(state, event.payload.get("players"))
    if not state.started:
        raise IllegalAction("Start the clock first: nobody can be knocked out before the first hand.")
    stacks = _starting_stacks(event.payload.get("stacks") or {}, players)
    takers = _eliminators(state, event.payload.get("by"), ids)
    by = dict.fromkeys(ids, takers) if takers else {}
    strict = state.settings.rules >= 2
    if strict:
        _refuse_bust_in_play(state, players, takers)
    if state.hand_for_hand and strict:  # busts of one hand-for-hand hand share (TDA 3.4)
        tables = {p.id: p.table for p in players}
        standings = _at_level(state, event).bust(
            stacks, by=by, hand=dealing.h4h_hand(state, players[0].table), hand_for_hand=True, tables=tables,
            at=event.at,
        )
    else:
        standings = _at_level(state, event).bust(stacks, by=by, at=event.at)
    if strict:
        lost = write_off(state, ids, event.seq, takers)  # the chips go to the winner(s)
    else:
        lost = write_off_v1(state, ids, event.seq)
    seating = state.seating
    for pid in ids:
        if pid in seating:
            seating = seating.without(pid)
    return replace(
        state, standings=standings, seating=seating, dealing=lost, previous_seats=dealing.remember_seats(state, ids)
    )


def _victims(state: Tournament, raw: Any) -> tuple[list[PlayerId], list[Player]]:
    """The bust's ``players``: one or several, each still in."""
    if isinstance(raw, (int, str)):
        raw = [raw]
    if not isinstance(raw, Sequence) or not raw:
        raise InvalidInput("Choose the player who is out.")
    ids = [_player_id({"player": r}) for r in raw]
    if len(set(ids)) != len(ids):
        raise InvalidInput("The same player is listed twice in one bust.")
    players = [state.player(i) for i in ids]
    for p in players:
        if p.out:
            raise IllegalAction("{name} is already out.", name=p.name)
    return ids, players


def _starting_stacks(stacks_raw: Any, players: Sequence[Player]) -> dict[PlayerId, Chips]:
    """The bust's ``stacks``: each player's chips at the start of the hand (needed to rank
    several players out in one hand)."""
    if not isinstance(stacks_raw, Mapping):
        raise InvalidInput("The starting stacks must be given for each player.")
    stacks: dict[PlayerId, Chips] = {}
    for p in players:
        value = stacks_raw.get(str(p.id), stacks_raw.get(p.id))
        if value is None or value == "":
            if len(players) > 1:
                raise InvalidInput(
                    "Several players are out in one hand: give {name}'s chips at the start of the hand "
                    "to rank them.", name=p.name,
                )
            value = 0
        # Several out in one hand each had chips when it was dealt (seed 000: "If several
        # players are knocked out in the same hand, the one who started that hand with more
        # chips finishes higher"): none of them started it with none.
        stacks[p.id] = _int({"v": value}, "v", Message("chips at the start of the hand of {name}", name=p.name), 0,
                            1 if len(players) > 1 else 0)
    return stacks


def _refuse_bust_in_play(state: Tournament, players: Sequence[Player], takers: Sequence[PlayerId]) -> None:
    """Rules 2: a director's bust never reaches into a hand the dealer's assistant plays, the
    eliminator sits at the victim's table, and the chips the assistant keeps go to someone."""
    for p in players:
        hand = state.dealing.hand_of(p.id)
        if hand is not None:
            raise IllegalAction(
                "{name} is playing hand {hand} at table {table}: finish the hand on the "
                "dealer's phone (a player who loses their last chip there is out without a bust here).",
                name=p.name, hand=hand.number, table=hand.table,
            )
    for winner_id in takers:
        winner = state.player(winner_id)
        hand = state.dealing.hand_of(winner_id)
        if hand is not None:
            raise IllegalAction(
                "{name} is playing hand {hand} at table {table}: record the bust "
                "when that hand is over, so the chips join the stack that is not in play.",
                name=winner.name, hand=hand.number, table=hand.table,
            )
        elsewhere = [p for p in players if p.table is not None and winner.table not in (None, p.table)]
        if elsewhere:
            p = elsewhere[0]
            raise IllegalAction(
                "{winner} sits at table {winner_table}, {victim} at table {victim_table}: "
                "a player is knocked out by someone at the same table.",
                winner=winner.name, winner_table=winner.table, victim=p.name, victim_table=p.table,
            )
    if not takers:
        for p in players:
            if p.table in state.dealing.latest and stack_of(state, p.id) > 0:
                raise IllegalAction(
                    "Say who knocked {name} out: the dealer's assistant keeps the stacks at table "
                    "{table}, and {name}'s {chips} chips go to that player.",
                    name=p.name, table=p.table, chips=stack_of(state, p.id),
                )


def _rebuy(state: Tournament, event: Event) -> Tournament:
    pid = _player_id(event.payload)
    player = state.player(pid)
    stack_raw = event.payload.get("stack")
    stack = None if stack_raw in (None, "") else _int(event.payload, "stack", Message("chip count of {name}", name=player.name), 0)
    standings = _at_level(state, event).rebuy(pid, stack)
    seating = state.seating
    if pid not in seating:  # back in: the old seat if it is still free
        old = next(((t, s) for p, t, s in state.previous_seats if p == pid), None)
        if old is not None and old[0] in seating.tables and seating.player_at(*old) is None:
            seating = seating.with_player(pid, *old)
    return replace(state, standings=standings, seating=seating, ledger=_paid(state, pid, "rebuy", event))


def _reentry(state: Tournament, event: Event) -> Tournament:
    """A new entry for a player who is out; the seat comes with the ``player_seated`` after it."""
    pid = _player_id(event.payload)
    state.player(pid)
    standings = _at_level(state, event).reenter(pid)
    return replace(state, standings=standings, ledger=_paid(state, pid, "reentry", event))


def _addon(state: Tournament, event: Event) -> Tournament:
    pid = _player_id(event.payload)
    player = state.player(pid)
    stack_raw = event.payload.get("stack")
    stack = None if stack_raw in (None, "") else _int(event.payload, "stack", Message("chip count of {name}", name=player.name), 0)
    standings = _at_level(state, event).addon(pid, stack)
    return replace(state, standings=standings, ledger=_paid(state, pid, "addon", event))


def lock_refusal(state: Tournament) -> Message | None:
    """Why the payouts cannot be locked now (None when they can): the money must be reached."""
    if state.settings.payout_kind == "points":
        return Message("A league-points night has no prizes to lock.")
    if state.payouts_locked is not None:
        return Message("The payouts are already locked.")
    if not state.started:
        return Message("The tournament has not started: the payouts lock when the money is reached.")
    if state.finished:
        return Message("The tournament is over: its prizes are settled.")
    prizes = [p for p in state.prizes if p]
    if not prizes:
        return Message("There are no prizes to lock yet.")
    if state.players_left > len(prizes):
        return Message("The money is not reached: {left} players are left and {paid} are paid. The payouts "
                       "can be locked when {paid} are left.", left=state.players_left, paid=len(prizes))
    return None


def _lock_payouts(state: Tournament, event: Event) -> Tournament:
    """The director locks the payouts at the money (as ``Settings.lock_payouts`` does by itself)."""
    refusal = lock_refusal(state)
    if refusal:
        raise IllegalAction(refusal.message, **refusal.values)
    return replace(state, payouts_locked=(event.seq, tuple(state.prizes), state.prize_pool))


def _close_rebuys(state: Tournament, event: Event) -> Tournament:
    if state.settings.rebuy_levels == 0 and state.settings.reentry_levels == 0:
        raise IllegalAction("This tournament has no rebuys or re-entries to close.")
    if state.standings.rebuys_closed:
        raise IllegalAction("Rebuys are already closed.")
    return replace(state, standings=state.standings.close_rebuys())


def _hand_cap(state: Tournament, event: Event) -> Tournament:
    raw = event.payload.get("stacks")
    if not isinstance(raw, Mapping):
        raise InvalidInput("Give the chips of every player still in.")
    stacks = {
        _player_id({"player": k}): _int({"v": v}, "v", Message("chips of {name}", name=state.name_of(_player_id({"player": k}))), 0)
        for k, v in raw.items()
    }
    return replace(state, standings=state.standings.end_at_hand_cap(stacks))


__all__ = ["MAX_ELIMINATORS", "lock_refusal"]
