"""A tournament's events in words, for the director's log: :func:`describe`. The table's
events are said by their own modules (``engine.dealing``, ``engine.rulings``,
``engine.colour``, ``engine.deals``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import colour, dealing, deals, rulings
from engine.errors import EngineError, Message, Term
from engine.events import Event
from engine.payload import _player_id, _ticked
from engine.state import Tournament

_CLOCK_WORDS: dict[str, str] = {
    "start": Message("The clock started"),
    "pause": Message("The clock was paused"),
    "resume": Message("The clock resumed"),
    "next_level": Message("The clock went on to the next level"),
    "previous_level": Message("The clock went back a level"),
    "break_now": Message("The break started early, ending the level"),
    "hand_played": Message("A hand was counted as played"),
}


def _listed(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else Message("{items} and {last}", items=list(words[:-1]), last=words[-1])


def _duration(seconds: int) -> Message:
    """``1 minute``, ``5 minutes``, ``90 seconds``."""
    if seconds % 60 == 0:
        minutes = seconds // 60
        return Message("1 minute") if minutes == 1 else Message("{count} minutes", count=minutes)
    return Message("1 second") if seconds == 1 else Message("{count} seconds", count=seconds)


def _setting_words(value: object) -> str:
    if isinstance(value, bool):
        return Term("on") if value else Term("off")
    if value in (None, ""):
        return Term("nothing")
    return str(value)


def describe(state: Tournament, event: Event) -> str:
    """A sentence for the event log with the players' names, e.g. 'Bob is out, knocked out by
    Ann'. ``state`` is the tournament after the event or any later one (a player removed
    since is named by the name the event kept)."""
    for words in (_player_words, _seat_words, _clock_words, _director_words):
        said = words(state, event)
        if said is not None:
            return said
    if event.type in colour.HANDLERS:
        return colour.describe(state, event)
    if event.type in deals.HANDLERS:
        return deals.describe(state, event)
    if event.type in rulings.HANDLERS:
        return rulings.describe(state, event)
    if event.type in dealing.HANDLERS:
        return dealing.describe(state, event)
    return event.type


def _name_in(state: Tournament, payload: Mapping[str, Any], key: str = "player") -> str:
    """The name of the player ``payload[key]`` names ("?" when it names nobody)."""
    try:
        return state.name_of(_player_id(payload, key))
    except EngineError:
        return "?"


def _where(place: object) -> Message:
    if isinstance(place, Sequence) and not isinstance(place, str) and len(place) == 2:
        return Message("table {table} seat {seat}", table=place[0], seat=place[1])
    return Message("another seat")


def _player_words(state: Tournament, event: Event) -> str | None:
    """A player registered, removed, out, back in or with the add-on (None: another event)."""
    p = event.payload
    if event.type == "player_registered":
        return Message("{name} registered", name=str(p.get("name")))
    if event.type == "player_unregistered":
        known = _name_in(state, p)
        removed = known if known != "?" else (str(p.get("name")) if p.get("name") else Term("A player"))
        return Message("{name} was removed from the tournament", name=removed)
    if event.type == "bust":
        ids = p.get("players") or []
        ids = [ids] if isinstance(ids, (int, str)) else ids
        names = _listed([_name_in(state, {"player": i}) for i in ids] or ["?"])
        named = p.get("by")
        named = named if isinstance(named, list) else [] if named in (None, "") else [named]
        if named:
            by = _listed([_name_in(state, {"player": i}) for i in named])
            if len(ids) <= 1:
                return Message("{names} is out, knocked out by {by}", names=names, by=by)
            return Message("{names} are out, knocked out by {by}", names=names, by=by)
        if len(ids) <= 1:
            return Message("{names} is out", names=names)
        return Message("{names} are out", names=names)
    if event.type == "rebuy":
        return Message("{name} rebought", name=_name_in(state, p))
    if event.type == "addon":
        return Message("{name} took the add-on", name=_name_in(state, p))
    if event.type == "reentry":
        return Message("{name} re-entered", name=_name_in(state, p))
    return None


def _seat_words(state: Tournament, event: Event) -> str | None:
    """The seats drawn, a player seated or moved, a seat locked (None: another event)."""
    p = event.payload
    if event.type == "seats_drawn":
        return Message("The seats were drawn")
    if event.type == "player_seated":
        return Message("{name} was seated at table {table} seat {seat}", name=_name_in(state, p),
                       table=str(p.get("table")), seat=str(p.get("seat")))
    if event.type == "player_moved":
        return Message("{name} moved to table {table} seat {seat}", name=_name_in(state, p),
                       table=str(p.get("table")), seat=str(p.get("seat")))
    if event.type == "players_moved":
        moves = [m for m in p.get("moves") or [] if isinstance(m, Mapping)]
        if len(moves) == 1:
            return Message("{name} moved to {where}", name=_name_in(state, moves[0]), where=_where(moves[0].get("to")))
        return Message("{count} players moved: {moves}", count=len(moves),
                       moves=[Message("{name} to {where}", name=_name_in(state, m), where=_where(m.get("to")))
                              for m in moves])
    if event.type == "seat_locked":
        return Message("{name}'s seat was locked to table {table} seat {seat}", name=_name_in(state, p),
                       table=str(p.get("table")), seat=str(p.get("seat")))
    if event.type == "seat_unlocked":
        return Message("{name}'s seat was unlocked", name=_name_in(state, p))
    return None


def _clock_words(state: Tournament, event: Event) -> str | None:
    """The clock, a player on the clock, hand for hand, the hand cap (None: another event)."""
    p = event.payload
    if event.type == "clock":
        action = str(p.get("action", ""))
        if action == "add_time":
            seconds = int(str(p.get("seconds", 60)))
            if seconds > 0:
                return Message("{duration} added to the clock", duration=_duration(abs(seconds)))
            return Message("{duration} taken off the clock", duration=_duration(abs(seconds)))
        return _CLOCK_WORDS.get(action) or Message("The clock: {action}", action=action.replace("_", " "))
    if event.type == "hand_cap":
        return Message("The tournament ended at the hand cap")
    if event.type == "action_clock":
        if p.get("action") == "start":
            return Message("{who} is on the clock for {duration}", who=str(p.get("who")),
                           duration=_duration(int(str(p.get("seconds") or 60))))
        return Message("The action clock stopped")
    if event.type == "hand_for_hand":
        if p.get("on"):
            return Message("Hand for hand began")
        if p.get("why") == "in the money":
            return Message("Hand for hand ended: the bubble has burst")
        if p.get("why") == "one table":
            return Message("Hand for hand ended: one table is left")
        return Message("Hand for hand ended")
    if event.type == "h4h_next_hand":
        return Message("The next hand-for-hand hand began")
    return None


def _director_words(state: Tournament, event: Event) -> str | None:
    """Rebuys closed, the payouts locked, the settings or the structure changed, an undo or a
    redo (None: another event)."""
    p = event.payload
    if event.type == "rebuys_closed":
        return Message("Rebuys closed")
    if event.type == "payouts_lock":
        return Message("The payouts were locked at the money")
    if event.type == "settings_changed":
        changes = [Message("{setting} set to {value}", setting=k.replace("_", " "), value=_setting_words(v))
                   for k, v in p.items() if k != "correct_payments"]
        if _ticked(p.get("correct_payments")):
            return Message("Settings changed: {changes}; the payments already made were priced again",
                           changes=changes)
        return Message("Settings changed: {changes}", changes=changes)
    if event.type == "structure_changed":
        words = dict(state.structure_edits).get(event.seq)
        return Message("Structure changed: {words}", words=words) if words else Message("The structure changed")
    if event.type == "undo":
        return Message("The last entry was undone")
    if event.type == "redo":
        return Message("The entry undone was entered again")
    return None


__all__ = ["describe"]
