"""The TV clock: the page that hangs on the wall all night, and the same clock sized for a phone.

The server says when the current level ends (or how long is left, when paused); ``tv.js`` draws
the countdown from that against a measured offset to the server's clock and re-fetches the
clock partial every two seconds. The partial holds no state of its own: it is a rendering of
``ClockView``, which is built from the tournament's folded events and ``now``.

Routes (blueprint ``tv``):

* ``GET /t/<id>/tv``: the TV page (read-only; with the director's session, the keyboard works);
* ``GET /t/<id>/tv/clock``: the clock partial the TV polls (cacheable for one second);
* ``GET /t/<id>/tv/phone``: the phone-sized clock (a partial for htmx, a small page otherwise);
* ``POST /t/<id>/tv/key``: a director's key on the TV (pause, resume, next, previous, +/- a minute);
* ``POST /t/<id>/tv/action-clock`` and ``.../action-clock/stop``: put a player on the clock.

Other pages embed the phone clock with ``{% include "_tv_clock_phone.html" %}`` and
``clock=phone_clock(tournament_id)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# ---------------------------------------------------------------- the view


@dataclass(frozen=True)
class Stat:
    """One figure in the strip at the bottom: label, value, and an optional small note."""

    kind: str
    label: str
    value: str
    note: str = ""
    deadline_ms: int | None = None


@dataclass(frozen=True)
class Flag:
    """A banner: ``bubble``, ``itm`` (in the money), ``h4h`` (hand for hand) or ``info``."""

    kind: str
    text: str


@dataclass(frozen=True)
class Payout:
    place: str
    amount: str
    paid: bool = False


@dataclass(frozen=True)
class ActionClockView:
    """A player put on the clock: who, and when their time runs out."""

    id: str
    who: str
    deadline_ms: int
    seconds_text: str


@dataclass(frozen=True)
class ClockView:
    """Everything the clock partial shows, already worded and formatted."""

    tournament_id: int
    name: str
    status: str  # not_started, running, paused, on_break, finished
    key: str  # which level or break is on: a change rings the level chime
    seq: int
    server_now_ms: int
    poll_url: str
    title: str  # "Level 5", "Break", "Finished"
    subtitle: str
    time_text: str
    ends_at_ms: int | None
    seconds_left: float | None
    last_minute: bool
    hands_left: int | None
    blinds_label: str
    blinds: str
    ante: str
    colour_up: str
    next_text: str
    next_is_break: bool
    flags: tuple[Flag, ...]
    stats: tuple[Stat, ...]
    payouts: tuple[Payout, ...]
    payouts_label: str
    action: ActionClockView | None
    announce: str


# ---------------------------------------------------------------- formatting


def format_clock(seconds: float) -> str:
    """Time left as the TV shows it, rounded up to the second (0:00 only when time is up).

    >>> format_clock(1200), format_clock(1199.2), format_clock(59.001), format_clock(0.0)
    ('20:00', '20:00', '1:00', '0:00')
    >>> format_clock(3725)
    '1:02:05'
    """
    whole = max(0, math.ceil(seconds - 1e-9))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def chips(amount: float) -> str:
    """12345 -> '12,345'."""
    return f"{round(amount):,}"


def ordinal(place: int) -> str:
    """1 -> '1st', 2 -> '2nd', 11 -> '11th', 22 -> '22nd'."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def blinds_text(small: int, big: int) -> str:
    return f"{chips(small)} / {chips(big)}"


def colour_up_text(denominations: tuple[int, ...] | list[int]) -> str:
    """The colour-up as the director says it: 'Remove the 5 and 25 chips'."""
    values = sorted(denominations)
    if not values:
        return ""
    names = [chips(v) for v in values]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"Remove the {joined} chips"
