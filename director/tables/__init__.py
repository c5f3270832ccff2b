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

The package is in layers, each a module: ``views`` (what the tables page, the print
pages and the JSON answers show, read from the tournament's state), ``links`` (the address
phones are given), ``commands`` (each seating action: its declared input, refusals and
event, one transaction), ``pages`` (the HTML routes) and ``api`` (the JSON routes and
their OpenAPI operations).

Routes (blueprint ``seating``): the tables page ``/t/<id>/tables`` and its actions, the print
pages under ``/t/<id>/print/``, the move on the TV ``/t/<id>/tables/tv-moves``, the address
setting ``/settings/address``, and the JSON twins under ``/api/t/<id>/tables``.
"""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("seating", __name__)


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


# The routes register on the blueprint as their modules load.
from director.tables import api, pages  # noqa: E402, F401
