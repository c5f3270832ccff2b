"""The bounds of every number and text the app takes in.

Each is far past what a home game or a club reaches, and small enough that nothing
overflows: SQLite's integers, a TV's line, a sum over a night. The director's declared
inputs (``director.contract``) and the engine's own checks both read them from here.
"""

from __future__ import annotations

MAX_ID = 2**63 - 1
"""Ids and sequence numbers: SQLite's largest integer; past it, nothing can exist (404)."""

MAX_CHIPS = 1_000_000_000
"""A stack, a bet, a starting stack, the chips of a rebuy or a correction: a billion chips."""

MAX_MONEY = 10_000_000
"""A buy-in, a rebuy's or an add-on's cost, a payout unit, in the house's currency."""

MAX_SECONDS = 24 * 60 * 60
"""Seconds on a clock: a day."""

MAX_LEVEL = 200
"""A level number (the last rebuy level, the add-on level, late registration)."""

MAX_TABLE = 999
"""A table number."""

MAX_SEAT = 10
"""A seat number: the biggest table has ten seats."""

MAX_PLAYERS = 2_000
"""Players at one night, or in one hand's list of busts, winners or seats."""

MAX_NAME = 40
"""A player's, a tournament's or a cash game's name, in characters."""

MAX_TEXT = 500
"""A reason, a note, a who-is-on-the-clock line, in characters."""

MAX_REBUYS = 100
"""A rebuy limit per player."""
