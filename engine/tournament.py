"""A tournament as the fold of its events.

The director app stores what happened as a list of events and shows the answers of this
module: :func:`fold` turns the events into a :class:`Tournament`, and :func:`apply` adds one
event, refusing with a sentence the director can read (an ``EngineError``) an event that
cannot happen. The app checks a new event by applying it before it stores it, so the rules
live here only.

Events (``type``: payload):

- ``created``: the settings (see :class:`Settings` and :func:`settings_from_dict`);
- ``player_registered``: ``{"name"}``; ``player_unregistered``: ``{"player", "name"?}`` (before
  the start; ``name`` keeps the name for the log, the player being gone);
- ``seats_drawn``: ``{"seats": {player_id: [table, seat]}}`` (the draw is made by the caller
  with a seeded ``random.Random``; the result is stored so history never changes);
- ``player_seated`` / ``player_moved``: ``{"player", "table", "seat"}``;
- ``clock``: ``{"action": start | pause | resume | next_level | previous_level | add_time |
  break_now | hand_played, "seconds"?, "minutes"?}``: "next level" goes into the break when
  one comes next; "break now" ends the level in play and starts the break that follows it
  (one of ``minutes``, 10 by default, is added when none does);
- ``colour_up``: ``{"table", "seed", "stacks"?}``: a table's colour-up at a break, the odd
  chips raced for and the stacks and chips in play changed by it (``engine.colour``);
- ``settings_changed``: ``{field: value, ...}`` (the fields of :data:`EDITABLE_SETTINGS`): the
  director edits the settings after creation; a change that contradicts what already
  happened is refused with the reason (:func:`settings_refusal`);
- ``structure_changed``: ``{"edit", "item", ..., "restart"?}``: the director edits the
  structure in play (``engine.structure.edit``). What was played is kept: a level or break
  already over cannot change, the one in play cannot be removed; it keeps its elapsed time
  unless ``restart``;
- ``bust``: ``{"players": [id, ...], "stacks"?: {id: chips at the start of the hand},
  "by"?: id | [id, ...]}``; several players in one hand are ranked by their starting stacks
  (seed 000); several eliminators split the pot that knocked them out (and its bounty);
- ``rebuy`` / ``addon``: ``{"player"}``;
- ``reentry``: ``{"player"}``: a player who is out enters again (TDA 6.5: a new entry, with
  the starting stack and a new seat by the late-entry draw, a ``player_seated`` after it),
  until the end of level ``reentry_levels``, at most ``max_reentries`` times a player;
- the hands at the tables (``engine.dealing``): ``hand_started``, ``hand_action``, ...; the
  rulings there (``engine.rulings``): ``hand_misdeal``, ``hand_ruling``,
  ``button_corrected``, ``hand_time_up``; the final table's ``deal`` (``engine.deals``);
- ``undo``: cancels the last live event (the ``created`` event cannot be undone); ``redo``
  applies again the last one undone, until something new is entered.

Where the parts live: the state in ``engine.state``, the settings in ``engine.settings``
(read with ``engine.payload``), the handlers of the players' events in ``engine.entrants``,
the seating's in ``engine.seat_events``, the clock's and the TV's in
``engine.tournament_clock``, the director's edits in ``engine.tournament_edits``, and the
log's sentences in ``engine.event_words``. This module folds the events with them; the
names they had here are still read from here.

>>> t = fold([Event(1, "created", {"name": "Friday"}, 0.0),
...           Event(2, "player_registered", {"name": "Ann"}, 1.0),
...           Event(3, "player_registered", {"name": "Bob"}, 2.0),
...           Event(4, "clock", {"action": "start"}, 3.0),
...           Event(5, "bust", {"players": [2], "by": 1}, 4.0)])
>>> t.players_left, t.finished, [(p.name, t.place_of(p.id)) for p in t.players]
(1, True, [('Ann', 1), ('Bob', 2)])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeAlias

from engine import colour, dealing, deals, rulings
from engine.clock import ClockEntry, Finish
from engine.dealing import refuse_past_hand_cap
from engine.entrants import MAX_ELIMINATORS as MAX_ELIMINATORS
from engine.entrants import (
    _addon,
    _bust,
    _close_rebuys,
    _hand_cap,
    _lock_payouts,
    _rebuy,
    _reentry,
    _register,
    _unregister,
    lock_refusal,
)
from engine.errors import IllegalAction, InvalidInput
from engine.event_words import describe
from engine.events import Event, HistoryCut, apply_event, fold_events
from engine.payload import MAX_NAME as MAX_NAME
from engine.payload import clean_name
from engine.seat_events import (
    _players_moved,
    _seat_locked,
    _seat_one,
    _seat_unlocked,
    _seats_drawn_at_size,
)
from engine.seating import Seating
from engine.settings import DEFAULT_PRESET as DEFAULT_PRESET
from engine.settings import EDITABLE_SETTINGS as EDITABLE_SETTINGS
from engine.settings import MAX_MYSTERY_BOUNTIES as MAX_MYSTERY_BOUNTIES
from engine.settings import MAX_MYSTERY_KINDS as MAX_MYSTERY_KINDS
from engine.settings import RULES_VERSION as RULES_VERSION
from engine.settings import TABLE_SIZES as TABLE_SIZES
from engine.settings import LeagueFormula as LeagueFormula
from engine.settings import PayoutKind as PayoutKind
from engine.settings import Settings, rules, settings_from_dict
from engine.settings import fixed_prizes_text as fixed_prizes_text
from engine.settings import mystery_pool_from as mystery_pool_from
from engine.settings import mystery_pool_text as mystery_pool_text
from engine.settings import owned_chips as owned_chips
from engine.settings import settings_as_dict as settings_as_dict
from engine.standings import Standings
from engine.state import ActionClock, Player, Tournament, current_level
from engine.tournament_clock import CLOCK_ACTIONS as CLOCK_ACTIONS
from engine.tournament_clock import (
    _action_clock,
    _clock,
    _h4h_next_hand,
    _hand_for_hand,
    dealer_tables,
    hand_played_refusal,
)
from engine.tournament_edits import _settings_changed, _structure_changed
from engine.tournament_edits import settings_refusal as settings_refusal

PlayerId: TypeAlias = int
Chips: TypeAlias = int
Money: TypeAlias = int
Seat: TypeAlias = int


_HANDLERS: dict[str, Callable[[Tournament, Event], Tournament]] = {
    "player_registered": _register,
    "player_unregistered": _unregister,
    "seats_drawn": _seats_drawn_at_size,
    "player_seated": _seat_one,
    "player_moved": _seat_one,
    "players_moved": _players_moved,
    "seat_locked": _seat_locked,
    "seat_unlocked": _seat_unlocked,
    "clock": _clock,
    "bust": _bust,
    "rebuy": _rebuy,
    "reentry": _reentry,
    "addon": _addon,
    "rebuys_closed": _close_rebuys,
    "payouts_lock": _lock_payouts,
    "hand_cap": _hand_cap,
    "action_clock": _action_clock,
    "hand_for_hand": _hand_for_hand,
    "h4h_next_hand": _h4h_next_hand,
    "structure_changed": _structure_changed,
    "settings_changed": _settings_changed,
    **dealing.HANDLERS,  # hands at the tables: hand_started, hand_action, ... (engine.dealing)
    **colour.HANDLERS,  # the colour-up at a break, table by table (engine.colour)
    **deals.HANDLERS,  # the final table's deal (engine.deals)
    **rulings.HANDLERS,  # the table's accidents: misdeals, the button, the clock (engine.rulings)
}

EVENT_TYPES = ("created", "undo", "redo", *_HANDLERS)

PLAY_EVENT_TYPES = dealing.TABLE_EVENT_TYPES | {"action_clock"}
"""Play at one table and its action clock: each table's hands, which a page drawn before
them (another table's dealer's, the director's) does not depend on."""


def entry_to_undo(state: Tournament) -> Event | None:
    """What the director's *Undo* takes back: the last live entry that is not play at a table
    (each table takes back its own entries on its phone), however many hands were played at
    the tables since; ``None``: nothing to undo."""
    return next((e for e in state.director_log.reversed() if e.type not in PLAY_EVENT_TYPES), None)


def undo_payload(state: Tournament) -> dict[str, Any]:
    """The director's undo event's payload: the entry it takes back named, where hands were
    played after it (an undo without one takes back the last live event)."""
    target = entry_to_undo(state)
    if target is None and state.history.depth == 0:
        raise IllegalAction("There is nothing to undo.")
    if target is None and state.history.floor > 0:  # a snapshot's history: the stored events say
        raise HistoryCut("The entry to undo is older than this state's history.")
    if target is None:
        raise IllegalAction("There is nothing to undo: every entry since the start is play at the tables, "
                            "which each table takes back on its phone.")
    last = state.last_event
    return {} if last is not None and last.seq == target.seq else {"entry": target.seq}


def _indexes(before: Tournament, new: Tournament, event: Event) -> Tournament:
    """After each event: the clock stops at the last bust, and the indexes the pages read are
    kept (the director's log, the players' page tokens)."""
    if new.finished and not before.finished and new.started:
        new = replace(
            new,
            clock=(*new.clock, ClockEntry("finish", event.at)),
            clock_events=(*new.clock_events, Finish(event.at)),
        )
    gone = len(before.standings.history)
    if len(new.standings.history) > gone:  # the bounties of the busts this event made
        busts = [(b.player, b.takers) for b in new.standings.history[gone:]]
        new = replace(new, ledger=new.ledger.knock_out(
            new.settings, busts, level=new.standings.level, at=event.at, seq=event.seq,
        ))
    if new.settings.lock_payouts and new.payouts_locked is None and lock_refusal(new) is None:
        new = replace(new, payouts_locked=(event.seq, tuple(new.prizes), new.prize_pool))
    if event.type in dealing.TABLE_EVENT_TYPES:
        return new
    tokens = _tokens_of(before, event)
    if tokens:
        merged = dict(new.tokens)
        for pid, token in tokens.items():
            merged.setdefault(pid, token)
        new = replace(new, tokens=merged)
    return replace(new, director_log=new.director_log.append(event))


def _tokens_of(before: Tournament, event: Event) -> dict[PlayerId, str]:
    payload = event.payload
    found: dict[PlayerId, str] = {}
    if event.type == "player_registered":
        if isinstance(payload.get("token"), str):
            found[before.next_player_id] = payload["token"]
        return found
    if isinstance(payload.get("tokens"), Mapping):
        for key, token in payload["tokens"].items():
            if isinstance(token, str) and str(key).isdigit():
                found[int(key)] = token
    if isinstance(payload.get("token"), str) and str(payload.get("player", "")).isdigit():
        found[int(payload["player"])] = payload["token"]
    return found


def apply(state: Tournament, event: Event) -> Tournament:
    """The state after ``event``; raises ``EngineError`` if it cannot happen."""
    return apply_event(state, event, _HANDLERS, "event", _indexes)


def create(event: Event) -> Tournament:
    """The state after the ``created`` event."""
    if event.type != "created":
        raise InvalidInput("A tournament starts with its 'created' event.")
    settings = settings_from_dict(event.payload)
    return Tournament(
        seq=event.seq,
        settings=settings,
        created_at=event.at,
        standings=Standings.start(
            {}, settings.starting_stack, rules(settings), table_order=settings.rules >= 2
        ),
        seating=Seating(settings.table_size, ()),
    )


def fold(events: Iterable[Event]) -> Tournament:
    """The state after all ``events``; the first must be ``created``."""
    return fold_events(events, create, apply, "A tournament starts with its 'created' event.")


__all__ = [
    "EVENT_TYPES",
    "PLAY_EVENT_TYPES",
    "ActionClock",
    "ClockEntry",
    "Event",
    "Player",
    "Settings",
    "Tournament",
    "apply",
    "apply_event",
    "clean_name",
    "create",
    "current_level",
    "dealer_tables",
    "describe",
    "entry_to_undo",
    "fold",
    "fold_events",
    "hand_played_refusal",
    "refuse_past_hand_cap",
    "rules",
    "settings_from_dict",
    "undo_payload",
]
