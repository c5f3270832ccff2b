"""Final-table deals (TDA 7.3): the players left share the prizes still to be paid, by ICM,
a chip chop, an equal split or figures of their own, optionally leaving an amount (and the
trophy) to play for.

One event, ``deal``: ``{"method", "amounts": {player: money}, "stacks": {player: chips},
"play_for", "play_on"}``. Every player still in is in the deal, with chips; the amounts and
what is left to play for add up to the prizes still to be paid, exactly. With something left
to play for (or ``play_on``) the tournament goes on and its winner takes that too; otherwise
it ends there, the players ranked by their chips (the chip leader takes the trophy). Undo
takes the deal back like any event.

:func:`proposals` works out each method's figures for the page to show side by side
(``engine.payouts``: ICM, the chip chops, the equal split).

The deal's record (:class:`DealRecord`) and what the finishers take after it
(:func:`awards_with_deal`) are kept with the tournament's state (``engine.state``), and
still read from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeAlias

from engine.errors import IllegalAction, InvalidInput, Message, Term
from engine.events import Event
from engine.limits import MAX_CHIPS, MAX_MONEY
from engine.payouts import MAX_ICM_PLAYERS, Deal, chip_chop, icm_deal
from engine.state import DealRecord, Tournament
from engine.state import awards_with_deal as awards_with_deal

PlayerId: TypeAlias = int
Money: TypeAlias = int
Chips: TypeAlias = int

METHODS: dict[str, str] = {
    "icm": Term("ICM"),
    "chip_chop": Term("Chip chop"),
    "chop_lowest": Term("Lowest prize each, the rest by chips"),
    "equal": Term("Equal split"),
    "custom": Term("Our own figures"),
}
"""The deal methods by id, with their names on the page."""


def prizes_left(state: Tournament) -> list[Money]:
    """The prizes of the places still to be settled, first place first."""
    return list(state.prizes[: state.players_left])


def deal_refusal(state: Tournament) -> Message | None:
    """Why no deal can be made now (None when one can)."""
    if state.settings.payout_kind == "points":
        return Message("A league-points night has no prizes to share: there is no deal to make.")
    if not state.started:
        return Message("The tournament has not started: a deal is made at the final table.")
    if state.finished:
        return Message("The tournament is over: there is nothing left to share.")
    if state.deal is not None:
        return Message("A deal was already made: undo it to make another.")
    if state.players_left < 2:
        return Message("A deal needs two players or more still in.")
    if any(p.status == "waiting" for p in state.players):
        return Message("Players out may still rebuy: close the rebuys before a deal.")
    if not sum(prizes_left(state)):
        return Message("There is no prize money left to share.")
    return None


def shared_prizes(prizes: list[Money], play_for: Money) -> list[Money]:
    """The prizes the deal shares when ``play_for`` is left to play for: it comes off the
    first prize, which must stay at least the second.

    >>> shared_prizes([500, 300, 200], 100)
    [400, 300, 200]
    >>> shared_prizes([500, 300, 200], 300)
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: Leave at most 200 to play for: the first prize less the second.
    """
    if play_for < 0:
        raise InvalidInput("The amount left to play for cannot be {amount}.", amount=play_for)
    if not play_for:
        return list(prizes)
    most = prizes[0] - (prizes[1] if len(prizes) > 1 else 0)
    if play_for > most:
        raise IllegalAction("Leave at most {most} to play for: the first prize less the second.", most=most)
    return [prizes[0] - play_for, *prizes[1:]]


def proposals(
    state: Tournament, stacks: Mapping[PlayerId, Chips], play_for: Money = 0
) -> dict[str, Deal[PlayerId] | str]:
    """Each method's figures for these stacks (or why it cannot be worked out), by method id."""
    prizes = shared_prizes(prizes_left(state), play_for)
    unit = state.settings.payout_unit
    out: dict[str, Deal[PlayerId] | str] = {}
    if len(stacks) > MAX_ICM_PLAYERS:
        out["icm"] = Message("ICM is worked out for {most} players at most: {left} are left.",
                             most=MAX_ICM_PLAYERS, left=len(stacks))
    else:
        out["icm"] = icm_deal(dict(stacks), prizes, unit)
    out["chip_chop"] = chip_chop(dict(stacks), prizes, unit, "proportional")
    out["chop_lowest"] = chip_chop(dict(stacks), prizes, unit, "lowest_prize_first")
    out["equal"] = chip_chop(dict(stacks), prizes, unit, "equal")
    return out


def _amounts(state: Tournament, raw: object, what: str, most: int) -> dict[PlayerId, int]:
    chips = what == "chips"
    if not isinstance(raw, Mapping):
        if chips:
            raise InvalidInput("Give the chips of every player still in.")
        raise InvalidInput("Give the share of every player still in.")
    out: dict[PlayerId, int] = {}
    for key, value in raw.items():
        try:
            pid = int(str(key))
        except ValueError:
            raise InvalidInput("{key} is not a player number.", key=repr(key)) from None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
            if chips:
                raise InvalidInput("{name}'s chips must be a whole number from 0 to {most}, not {value}.",
                                   name=state.name_of(pid), most=most, value=repr(value))
            raise InvalidInput("{name}'s share must be a whole number from 0 to {most}, not {value}.",
                               name=state.name_of(pid), most=most, value=repr(value))
        out[pid] = value
    alive = {p.id for p in state.alive}
    strangers = [state.name_of(p) for p in out if p not in alive]
    if strangers:
        if len(strangers) == 1:
            raise IllegalAction("{name} is not in the game any more.", name=strangers[0])
        raise IllegalAction("{names} are not in the game any more.", names=strangers)
    missing = [p.name for p in state.alive if p.id not in out]
    if missing:
        if chips:
            raise InvalidInput("Every player still in is in the deal: give the chips of {names}.", names=missing)
        raise InvalidInput("Every player still in is in the deal: give the share of {names}.", names=missing)
    return out


def _deal(state: Tournament, event: Event) -> Tournament:
    p = event.payload
    refusal = deal_refusal(state)
    if refusal:
        raise IllegalAction(refusal.message, **refusal.values)
    method = p.get("method")
    if method not in METHODS:
        raise InvalidInput("Choose how the deal is worked out: {methods}.", methods=", ".join(METHODS))
    stacks = _amounts(state, p.get("stacks"), "chips", MAX_CHIPS)
    for pid, chips in stacks.items():
        if chips < 1:
            raise InvalidInput("{name} is still in, so has chips, not {chips}.", name=state.name_of(pid), chips=chips)
    amounts = _amounts(state, p.get("amounts"), "share", MAX_MONEY)
    play_for = p.get("play_for", 0)
    if isinstance(play_for, bool) or not isinstance(play_for, int) or not 0 <= play_for <= MAX_MONEY:
        raise InvalidInput("The amount left to play for is a whole number from 0 to {most}.", most=MAX_MONEY)
    left = sum(prizes_left(state))
    shared_prizes(prizes_left(state), play_for)  # at most the first prize less the second
    given = sum(amounts.values())
    if given + play_for != left:
        if play_for:
            raise IllegalAction(
                "The deal pays {given} and leaves {play_for} to play for: the prizes still to be paid are {left}. "
                "The figures must add up to it.", given=given, play_for=play_for, left=left,
            )
        raise IllegalAction(
            "The deal pays {given}: the prizes still to be paid are {left}. The figures must add up to it.",
            given=given, left=left,
        )
    play_on = bool(p.get("play_on")) or play_for > 0
    order = [pl.id for pl in state.alive]
    record = DealRecord(
        event.seq, str(method), tuple((pid, amounts[pid]) for pid in order),
        tuple((pid, stacks[pid]) for pid in order), play_for, play_on,
    )
    standings = state.standings if play_on else state.standings.end_at_hand_cap(stacks)
    return replace(state, deal=record, standings=standings)


def describe(state: Tournament, event: Event) -> str:
    method = METHODS.get(str(event.payload.get("method")), Term("a deal"))
    amounts = event.payload.get("amounts") or {}
    parts = [Message("{name} takes {amount}", name=state.name_of(int(str(k))), amount=v)
             for k, v in amounts.items() if str(k).isdigit()]
    left = event.payload.get("play_for") or 0
    if left:
        return Message("Deal made ({method}): {shares}; {left} left to play for", method=method, shares=parts, left=left)
    return Message("Deal made ({method}): {shares}", method=method, shares=parts)


HANDLERS: dict[str, Any] = {"deal": _deal}

__all__ = ["HANDLERS", "METHODS", "DealRecord", "deal_refusal", "describe", "prizes_left", "proposals", "shared_prizes"]
