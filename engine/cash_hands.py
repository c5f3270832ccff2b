"""The hands at a cash session's tables: who is dealt in next by the dead-button rule
(:func:`next_hand`), and the events ``hand_started``, ``hand_action``, ``hand_undo`` and
``hand_redo`` of the session's fold (``engine.cash``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeAlias

from engine.cash_session import (
    CashSession,
    CashTable,
    HandRecord,
    LiveHand,
    NextHand,
    _set_players,
    _with_table,
)
from engine.errors import IllegalAction, InvalidInput
from engine.events import Event
from engine.games import GAMES
from engine.hand import Hand, HandSetup
from engine.hand_setup import HOLDEM
from engine.table import plan_next

Seat: TypeAlias = int


def next_hand(state: CashSession, table_number: object, button: Seat | None = None) -> NextHand:
    """Who is dealt in next at a table, and the positions, by the dead-button rule.

    A newcomer joins when the big blind reaches their seat (``newcomers == "wait"``), or at
    once with a big blind posted, except between the button and the small blind where
    they wait for the button to pass (``"post"``, TDA 1.4). The post is a dead post of one
    big blind. A table restarting with fewer than two players left from before deals
    everyone in, the button moving on from the last one (or ``button``).
    """
    table = state.table(table_number)
    if table.hand is not None:
        raise IllegalAction(
            "Table {table} is already playing hand {hand}.",
            table=table.number, hand=str(table.hand.number),
        )
    with_chips = {p.seat: p for p in table.players if p.stack > 0}
    if len(with_chips) < 2:
        if with_chips:
            raise IllegalAction(
                "Table {table} needs two players with chips to deal; only one has chips.",
                table=table.number,
            )
        raise IllegalAction(
            "Table {table} needs two players with chips to deal; nobody has chips.", table=table.number
        )
    stake = table.stake
    game = GAMES[table.game]
    newcomers = {s for s, p in with_chips.items() if p.newcomer}
    plan = plan_next(
        table.positions, set(with_chips), newcomers, table.seats, button=button, newcomers_join=state.newcomers
    )
    positions, dealt, posts = plan.positions, plan.dealt, plan.posts
    setup = HandSetup(
        stacks={s: with_chips[s].stack for s in sorted(dealt)},
        button=positions.button,
        small_blind_seat=positions.small_blind,
        big_blind_seat=positions.big_blind,
        small_blind=stake.small_blind,
        big_blind=stake.big_blind,
        antes={s: stake.big_blind for s in sorted(posts)},
        betting=game.betting,
        game=game.cards or HOLDEM,
    )
    return NextHand(positions, dealt, plan.waiting, posts, setup)


def _hand_started(state: CashSession, event: Event) -> CashSession:
    p = event.payload
    table = state.table(p.get("table"))
    button = p.get("button")
    if button is not None and (isinstance(button, bool) or not isinstance(button, int)):
        raise InvalidInput("The button must be a seat number, not {button}.", button=repr(button))
    upcoming = next_hand(state, table.number, button)
    numbers = [h.number for h in state.hands] + [t.hand.number for t in state.tables if t.hand]
    joined = tuple(q.seat for q in table.players if q.newcomer and q.seat in upcoming.dealt)
    live = LiveHand(
        number=max(numbers, default=0) + 1,
        table=table.number,
        setup=upcoming.setup,
        positions=upcoming.positions,
        started_at=event.at,
        posts=upcoming.posts,
        previous_positions=table.positions,
        joined=joined,
    )
    players = tuple(
        replace(q, newcomer=False) if q.seat in upcoming.dealt else q for q in table.players
    )
    table = replace(
        _set_players(table, players),
        positions=upcoming.positions,
        hand=live,
        hands_dealt=table.hands_dealt + 1,
    )
    return _with_table(state, replace(table, finished=None))


def _finish_hand(
    state: CashSession, table: CashTable, live: LiveHand, hand: Hand, at: float
) -> CashSession:
    after = hand.stacks()
    assert hand.award is not None
    players = tuple(
        replace(q, stack=after[q.seat]) if q.seat in after else q for q in table.players
    )
    record = HandRecord(
        live.number,
        table.number,
        live.setup,
        tuple(hand.log),
        live.started_at,
        at,
        sum(pot.amount for pot in hand.award.pots),
        tuple(sorted(hand.award.won().items())),
        hand.award.describe(),
        tuple((q.seat, q.name) for q in table.players if q.seat in after),
    )
    table = replace(_set_players(table, players), hand=None, finished=live)
    return replace(_with_table(state, table), hands=(*state.hands, record))


def _hand_action(state: CashSession, event: Event) -> CashSession:
    p = event.payload
    table = state.table(p.get("table"))
    if table.hand is None:
        raise IllegalAction("No hand is being played at table {table}: deal one first.", table=table.number)
    entries = p.get("entries", [p.get("entry")])
    if not isinstance(entries, list) or not entries:
        raise InvalidInput("The actions must be a list like ['p3 sm AsKd', 'd win cards'].")
    hand = table.hand.after(entries)
    live = table.hand.step(log=tuple(hand.log))
    if hand.is_complete:
        return _finish_hand(state, table, live, hand, event.at)
    return _with_table(state, replace(table, hand=live))


def _hand_undo(state: CashSession, event: Event) -> CashSession:
    table = state.table(event.payload.get("table"))
    if table.hand is not None:
        earlier = table.hand.undone()
        if earlier is not None:
            return _with_table(state, replace(table, hand=earlier))
        # Take back the deal itself: positions and newcomers as before it.
        dealt = table.hand
        players = tuple(
            replace(q, newcomer=True) if q.seat in dealt.joined else q for q in table.players
        )
        return _with_table(
            state,
            replace(
                table,
                players=players,
                hand=None,
                positions=dealt.previous_positions,
                hands_dealt=table.hands_dealt - 1,
            ),
        )
    finished = table.finished
    reopened = finished.undone() if finished is not None else None
    if finished is None or reopened is None:
        raise IllegalAction("There is no hand to undo at table {table}.", table=table.number)
    # Nothing changed at the table since the award: its players had their starting stacks.
    start = finished.setup.stacks
    players = tuple(replace(q, stack=start[q.seat]) if q.seat in start else q for q in table.players)
    table = replace(table, players=players, hand=reopened, finished=None)
    return replace(
        _with_table(state, table), hands=tuple(h for h in state.hands if h.number != finished.number)
    )


def _hand_redo(state: CashSession, event: Event) -> CashSession:
    """The entry the last ``hand_undo`` took back from the hand in play, put back."""
    table = state.table(event.payload.get("table"))
    again = table.hand.redone() if table.hand is not None else None
    if again is None:
        raise IllegalAction(
            "There is nothing to redo at table {table}: redo follows an undo, before the next entry.",
            table=table.number,
        )
    return _with_table(state, replace(table, hand=again))


__all__ = ["next_hand"]
