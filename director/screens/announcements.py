"""What the TV announces in large type, with a chime and the voice: the night's moments.

Each ``Announcement`` has a window (``start``, ``end``, epoch seconds). The clock partial
carries the announcements whose window is open now or opens within ``LOOKAHEAD`` seconds;
``tv.js`` shows the one whose window is open, rings its chime and says it once. So the "one
minute left" of a level shows on time even from a partial rendered half a minute before, and
a TV that lost the server still announces what it knows is coming.

Two kinds of moment:

* the clock's: a level starts (with what changes with it: the last level of rebuys, rebuys
  closed, the add-on, late registration closing), a break starts, one minute is left;
* the field's, from the last elimination: the bubble, in the money, the final table (with its
  seats when they were redrawn), heads-up, the winner.

Nothing here decides a rule of poker: it words what the engine's state says.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from director.core.i18n import gettext
from director.core.words import number as chips
from director.screens.clock_words import level_blinds
from engine.clock import ClockState
from engine.tournament import Tournament

SHOWN = 20.0
"""Seconds a level's or a break's announcement stays up."""

FIELD_SHOWN = 45.0
"""Seconds the bubble, the money, the final table and heads-up stay up."""

WINNER_SHOWN = 120.0

LOOKAHEAD = 90.0
"""Announcements opening this soon are sent ahead, for a TV that loses the server."""


@dataclass(frozen=True)
class Announcement:
    id: str
    kind: str  # level, break, minute, bubble, itm, final, heads_up, winner
    text: str  # the big line
    sub: str  # a smaller line under it ("" for none)
    say: str  # what the voice says ("" when the level's own words are said already)
    sound: str  # the chime rung when it shows ("" for none)
    start: float
    end: float

    @property
    def start_ms(self) -> int:
        return round(self.start * 1000)

    @property
    def end_ms(self) -> int:
        return round(self.end * 1000)


def level_extras(state: Tournament, level: int) -> list[str]:
    """What changes when ``level`` starts, in the director's words."""
    s = state.settings
    extras: list[str] = []
    if s.rebuy_levels and not state.standings.rebuys_closed:
        if level == 1 and s.rebuy_levels > 1:
            extras.append(gettext("Rebuys are open until the end of level %(level)s", level=s.rebuy_levels))
        elif level == s.rebuy_levels:
            extras.append(gettext("Last level of rebuys"))
        elif level == s.rebuy_levels + 1:
            extras.append(gettext("Rebuys are closed"))
    if s.addon_level and level == s.addon_level:
        extras.append(gettext("The add-on is open"))
    elif s.addon_level and level == s.addon_level + 1:
        extras.append(gettext("The add-on is closed"))
    if s.late_registration_levels:
        if level == s.late_registration_levels:
            extras.append(gettext("Late registration closes at the end of this level"))
        elif level == s.late_registration_levels + 1:
            extras.append(gettext("Late registration is closed"))
    return extras


def and_list(names: Iterable[str]) -> str:
    """``Ann and Bob and Cleo``, in the reader's language."""
    out = ""
    for name in names:
        out = gettext("%(first)s and %(second)s", first=out, second=name) if out else name
    return out


def _sentence(parts: list[str]) -> str:
    return " ".join(p.rstrip(".") + "." for p in parts)


def clock_announcements(state: Tournament, clock: ClockState, now: float) -> list[Announcement]:
    """The level's or the break's start, and its last minute, while the clock runs."""
    if clock.status not in ("running", "on_break") or state.finished:
        return []
    out: list[Announcement] = []
    started = now - clock.elapsed
    structure = state.settings.structure
    if clock.on_break:
        brk = clock.current_break
        sub: list[str] = []
        if clock.colour_up_now:
            names = and_list(chips(v) for v in sorted(clock.colour_up_now))
            sub.append(gettext("Colour up: remove the %(chips)s chips", chips=names))
        played = max(1, (clock.next_level_number or 2) - 1)
        if state.settings.addon_level == played:
            sub.append(gettext("The add-on is open until play resumes"))
        key = f"break-before-{clock.next_level_number or 0}"
        title = (gettext("Break: %(minutes)s minutes", minutes=brk.minutes) if brk is not None else gettext("Break"))
        out.append(Announcement(key, "break", title, " · ".join(sub), "", "", started, started + SHOWN))
        if clock.ends_at is not None:
            out.append(Announcement(f"minute-{key}", "minute", gettext("One minute left in the break"),
                                    gettext("Then level %(level)s", level=clock.next_level_number)
                                    if clock.next_level_number else "",
                                    gettext("One minute left in the break."), "", clock.ends_at - 60, clock.ends_at))
        return out
    number = clock.level_number
    if number is None or clock.big_blind is None:
        return out
    blinds = level_blinds(structure, structure.level(number))
    if clock.ante:
        blinds = gettext("%(blinds)s · ante %(ante)s", blinds=blinds, ante=chips(clock.ante))
    extras = level_extras(state, number)
    after_break = number > 1 and structure.break_after(number - 1) is not None
    title = gettext("Level %(level)s: %(blinds)s", level=number, blinds=blinds)
    if number == 1:
        title = gettext("Shuffle up and deal: %(blinds)s", blinds=blinds)
    elif after_break:
        title = gettext("Play resumes: level %(level)s, %(blinds)s", level=number, blinds=blinds)
    out.append(Announcement(f"level-{number}", "level", title, " · ".join(extras), "", "", started,
                            started + SHOWN))
    if clock.ends_at is not None and (clock.item_seconds or 0) > 90:
        then = gettext("Then a break") if clock.break_next else (
            gettext("Then %(small)s / %(big)s", small=chips(clock.next_level.small_blind),
                    big=chips(clock.next_level.big_blind))
            if clock.next_level is not None else "")
        minute_extras = []
        if state.settings.late_registration_levels == number:
            minute_extras.append(gettext("Last minute of late registration"))
        if state.settings.rebuy_levels == number and not state.standings.rebuys_closed:
            minute_extras.append(gettext("Last minute of rebuys"))
        sub_text = " · ".join([then, *minute_extras] if then else minute_extras)
        minute = gettext("One minute left in level %(level)s", level=number)
        out.append(Announcement(f"minute-level-{number}", "minute", minute, sub_text,
                                _sentence([minute, *minute_extras]), "",
                                clock.ends_at - 60, clock.ends_at))
    return out


def field_announcements(state: Tournament, paid_places: int, final_seats: list[tuple[str, int, int]],
                        final_at: float | None) -> list[Announcement]:
    """The moments of the field, from the latest elimination (or the final table's draw).

    ``final_seats`` is the final table's redraw as (name, table, seat), drawn at ``final_at``.
    """
    out: list[Announcement] = []
    groups = state.standings.eliminations
    last = groups[-1] if groups else None
    at = last.at if last is not None else None
    left = state.players_left
    before = left + (len(last.busts) if last is not None else 0)
    if state.finished:
        firsts = [p.name for p in state.players if state.place_of(p.id) == 1]
        if firsts and at is not None:
            text = (gettext("%(name)s wins the tournament", name=firsts[0]) if len(firsts) == 1
                    else gettext("%(names)s share first place", names=and_list(firsts)))
            out.append(Announcement("winner", "winner", text, gettext("Congratulations!"), text + ".", "level-change",
                                    at, at + WINNER_SHOWN))
        return out
    if at is None:
        return out
    if left == 2 and before > 2:
        names = ""
        for player in state.alive:
            names = gettext("%(first)s against %(second)s", first=names, second=player.name) if names else player.name
        out.append(Announcement(f"heads-up-{state.seq}", "heads_up", gettext("Heads-up"), names,
                                gettext("Heads-up: %(names)s.", names=names), "level-change", at, at + FIELD_SHOWN))
    if paid_places >= 2 and state.entries > paid_places:
        if left == paid_places + 1 and before > left:
            out.append(Announcement(f"bubble-{left}", "bubble", gettext("The bubble"),
                                    gettext("One more out and everyone left is paid"),
                                    gettext("We are on the bubble. One more out and everyone left is paid."),
                                    "level-change", at, at + FIELD_SHOWN))
        elif left <= paid_places < before:
            out.append(Announcement("itm", "itm", gettext("In the money"),
                                    gettext("Everyone left wins a prize: %(count)s players paid", count=left),
                                    gettext("We are in the money. Everyone left wins a prize."), "level-change", at,
                                    at + FIELD_SHOWN))
    size = state.settings.table_size
    if final_at is not None and final_seats:
        seats = " · ".join(gettext("%(name)s seat %(seat)s", name=name, seat=seat)
                           for name, _, seat in sorted(final_seats, key=lambda s: s[2]))
        out.append(Announcement("final-table", "final", gettext("The final table"), seats,
                                gettext("The final table. %(count)s players.", count=len(final_seats)), "level-change",
                                final_at, final_at + FIELD_SHOWN * 2))
    elif left <= size < before and left > 2 and len(state.seating.tables) <= 1:
        out.append(Announcement("final-table", "final", gettext("The final table"),
                                gettext("%(count)s players", count=left),
                                gettext("The final table. %(count)s players.", count=left),
                                "level-change", at, at + FIELD_SHOWN))
    return out


def current(items: list[Announcement], now: float) -> list[Announcement]:
    """The announcements to send: open now or opening within ``LOOKAHEAD``, latest first."""
    kept = [a for a in items if a.end > now and a.start <= now + LOOKAHEAD]
    return sorted(kept, key=lambda a: -a.start)
