"""The one exception family of the engine.

Every message is a sentence a dealer or a director can read aloud:
it names the seat, the amount and the limit.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Anything the engine refuses."""


class InvalidInput(EngineError):
    """Input that cannot be understood: an unknown card, a malformed action."""


class IllegalAction(EngineError):
    """A well-formed action at the wrong moment or for the wrong amount."""
