"""The director's edits once the tournament exists: ``settings_changed`` and
``structure_changed``, each checked against what already happened (what was played stays
as it was).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.clock import ClockEntry, Restructure
from engine.errors import IllegalAction, InvalidInput, Message
from engine.events import Event
from engine.payload import _ticked
from engine.settings import EDITABLE_SETTINGS, Settings, rules, settings_as_dict, settings_from_dict
from engine.state import Tournament
from engine.structure import Level
from engine.structure import edit as edit_structure
from engine.tournament_clock import _with_clock


def _times(n: int) -> Message:
    if n == 1:
        return Message("once")
    if n == 2:
        return Message("twice")
    return Message("{count} times", count=n)


def settings_refusal(state: Tournament, new: Settings) -> Message | None:
    """Why ``new`` cannot replace the settings now (None when it can): what already happened
    stays true."""
    old = state.settings
    standings = state.standings
    if new.starting_stack != old.starting_stack and state.started:
        return Message("The clock has started with {stack} chips a player: the starting stack "
                       "cannot change now (correct a stack instead).", stack=old.starting_stack)
    if new.rebuy_chips != old.rebuy_chips and standings.rebuys:
        if standings.rebuys == 1:
            return Message("1 rebuy has brought {chips} chips each: the rebuy chips cannot change now.",
                           chips=old.rebuy_chips)
        return Message("{count} rebuys have brought {chips} chips each: the rebuy chips cannot change now.",
                       count=standings.rebuys, chips=old.rebuy_chips)
    if new.addon_chips != old.addon_chips and standings.addons:
        if standings.addons == 1:
            return Message("1 add-on has brought {chips} chips each: the add-on chips cannot change now.",
                           chips=old.addon_chips)
        return Message("{count} add-ons have brought {chips} chips each: the add-on chips cannot change now.",
                       count=standings.addons, chips=old.addon_chips)
    if new.addon_level == 0 and standings.addons:
        if standings.addons == 1:
            return Message("1 player has taken the add-on: it cannot be removed.")
        return Message("{count} players have taken the add-on: it cannot be removed.", count=standings.addons)
    most = max((e.rebuys for e in standings.entrants), default=0)
    if new.max_rebuys is not None and new.max_rebuys < most:
        players = sum(1 for e in standings.entrants if e.rebuys == most)
        if players == 1:
            return Message("1 player has already rebought {times}: the limit cannot go below {most}.",
                           times=_times(most), most=most)
        return Message("{count} players have already rebought {times}: the limit cannot go below {most}.",
                       count=players, times=_times(most), most=most)
    most_in = max((e.reentries for e in standings.entrants), default=0)
    if new.max_reentries is not None and new.max_reentries < most_in:
        players = sum(1 for e in standings.entrants if e.reentries == most_in)
        if players == 1:
            return Message("1 player has already re-entered {times}: the limit cannot go below {most}.",
                           times=_times(most_in), most=most_in)
        return Message("{count} players have already re-entered {times}: the limit cannot go below {most}.",
                       count=players, times=_times(most_in), most=most_in)
    if new.reentry_levels == 0 and most_in:
        return Message("Players have re-entered: re-entry cannot be removed (close it from the dashboard instead).")
    if new.rebuy_levels == 0 and standings.rebuys:
        return Message("Players have rebought: rebuys cannot be removed (close them from the dashboard instead).")
    bounty_rules = ("bounty_kind", "bounty", "pko_share", "mystery_level", "mystery_pool", "mystery_seed")
    if any(getattr(new, k) != getattr(old, k) for k in bounty_rules) and standings.history:
        return Message(
            "A player has been knocked out: the bounties cannot change now (they are editable until the first knockout)."
        )
    if new.table_size != old.table_size:
        for table, seat, _ in state.seating.placements:
            if seat > new.table_size:
                return Message("Table {table} seat {seat} is taken: tables cannot have {size} seats "
                               "while players sit there.", table=table, seat=seat, size=new.table_size)
    return None


def _settings_changed(state: Tournament, event: Event) -> Tournament:
    """The director edits the settings: each change checked against what already happened."""
    change = dict(event.payload)
    correct = _ticked(change.pop("correct_payments", False))
    unknown = sorted(set(change) - set(EDITABLE_SETTINGS))
    if unknown:
        raise InvalidInput("{unknown} cannot be changed here: change {settings}.", unknown=", ".join(unknown),
                           settings=", ".join(EDITABLE_SETTINGS))
    if not change:
        raise InvalidInput("Nothing to change: give at least one setting.")
    if state.finished:
        raise IllegalAction("The tournament is over: its settings can no longer change.")
    merged = {**settings_as_dict(state.settings), **change}
    if "starting_stack" in change:  # the structure's starting stack goes with it
        merged["structure"] = {**merged["structure"], "starting_stack": change["starting_stack"]}
        old = state.settings
        for key, chips in (("rebuy_chips", old.rebuy_chips), ("addon_chips", old.addon_chips)):
            if key not in change and chips == old.starting_stack:  # they were "a starting stack"
                merged[key] = change["starting_stack"]
    new = settings_from_dict(merged)
    if "percentages" not in change and new.payout_kind == "custom" and state.settings.payout_kind == "custom":
        new = replace(new, percentages=state.settings.percentages)
    elif "percentages" not in change and new.payout_kind == "custom":
        raise InvalidInput("Custom payouts need their percentages, e.g. 50/30/20.")
    refusal = settings_refusal(state, new)
    if refusal:
        raise IllegalAction(refusal.message, **refusal.values)
    standings = replace(state.standings, rules=rules(new), starting_stack=new.starting_stack)
    seating = state.seating if new.table_size == state.settings.table_size else replace(
        state.seating, table_size=new.table_size
    )
    ledger = state.ledger.reprice(new) if correct else state.ledger
    return replace(state, settings=new, standings=standings, seating=seating, ledger=ledger)


def _structure_changed(state: Tournament, event: Event) -> Tournament:
    """The director edits the structure: what was played stays as it was."""
    if state.finished:
        raise IllegalAction("The tournament is over: its structure can no longer change.")
    change = event.payload
    old = state.settings.structure
    structure, words = edit_structure(old, change)
    restart = _ticked(change.get("restart"))
    state = replace(state, structure_edits=(*state.structure_edits, (event.seq, words)))
    if state.started:
        refusal = _edit_refusal(state, change, event.at)
        if refusal:
            raise IllegalAction(refusal.message, **refusal.values)
        if structure.hand_counted != old.hand_counted:
            raise IllegalAction("In play, a structure timed by the clock cannot become counted in hands, or back.")
    entry = ClockEntry(action="structure", at=event.at)
    if not state.started:
        return replace(state, settings=replace(state.settings, structure=structure))
    return _with_clock(state, entry, Restructure(event.at, structure, restart), structure=structure)


def _edit_refusal(state: Tournament, change: Mapping[str, Any], at: float) -> Message | None:
    """Why this edit cannot be made with the clock where it is (None when it can)."""
    kind = change.get("edit")
    if kind == "choices":  # the host's list: a hand already dealt keeps its game, the next deals pick anew
        return None
    clock = state.clock_at(at)
    structure = state.settings.structure
    current = clock.item_index
    index = change.get("item")
    assert isinstance(index, int)  # edit_structure checked it
    if current >= len(structure.items):
        if kind in ("add_level", "add_break") and index == len(structure.items):
            return None
        return Message("The clock is past the listed levels: add levels at the end.")
    if kind in ("add_level", "add_break"):
        if index <= current:
            if clock.on_break:
                return Message("That is before the break, which is being played: add it after.")
            return Message("That is before level {level}, which is being played: add it after.",
                           level=clock.level_number)
        return None
    if index < current:
        if not isinstance(structure.items[index], Level):
            return Message("That break is over: only what is still to come can change.")
        return Message("Level {level} is over: only what is still to come can change.",
                       level=sum(1 for i in structure.items[: index + 1] if isinstance(i, Level)))
    if index == current and kind == "remove":
        if clock.on_break:
            return Message("The break is being played: it cannot be removed; go to the next level first.")
        return Message("Level {level} is being played: it cannot be removed; go to the next level first.",
                       level=clock.level_number)
    return None


__all__ = ["settings_refusal"]
