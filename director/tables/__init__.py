"""Tables and seats: the draw, locks, swaps, balancing and breaking, and the print pages.

Every change is an event in the tournament's log (the engine's fold checks it), so each one
can be undone and a stale page is refused with 409 like everywhere else:

* ``seat_locked`` / ``seat_unlocked``: ``{"player", "table", "seat"}`` before the draw;
* ``seats_drawn``: ``{"seats": {id: [table, seat]}, "buttons": {table: seat}, "table_size",
  "tokens": {id: token}, "kind": "draw" | "final"}``: the random draw, or the final table's
  redraw. The randomness is ours (the engine gets a ``random.Random``); the result is stored;
* ``player_seated``: ``{"player", "table", "seat", "token"?}``: a late entry or a re-entry;
* ``players_moved``: ``{"moves": [{"player", "from": [table, seat], "to": [table, seat]}],
  "kind": "balance" | "break" | "swap", "text": [...]}``: the moves the director confirmed, all
  at once; a swap by hand is two moves.

Players' page tokens (``secrets.token_urlsafe(16)``) come from the registration payload's
``token`` when it has one, else from the first seating event that seats the player; they point
to the player, not the seat, so a printed card keeps working after every move.

The dealer's assistant at each table enters the hand as it happens: every entry is an event
of the tournament too (``engine.dealing`` folds them: ``hand_started``, ``hand_action``,
``hand_pending``, ``hand_undo``, ``stack_corrected``...), so the dashboard, the TV and
balancing follow at once. A page drawn at an older seq stays right while only the other
tables played since.

The package's rooms: ``commands`` (the seating and the hand commands, each registered with
its declared input), ``views`` (what the tables page, the print pages and the JSON answers
show), ``hand_view`` and ``hand_history`` (what a table's dealer page and its history show),
``links`` (the address phones are given), ``pages`` (the HTML routes: blueprints ``seating``
and ``dealer``) and ``api`` (the JSON routes).
"""

from __future__ import annotations

TABLE_SIZES = (6, 9, 10)


SEATING_EVENTS = (
    "seat_locked",
    "seat_unlocked",
    "seats_drawn",
    "player_seated",
    "player_moved",
    "players_moved",
)


MOVE_SHOWN_SECONDS = 60


MOVED_NOTICE_SECONDS = 30 * 60


ADDRESS_SETTING = "lan_address"
