"""Charts drawn on the server as SVG: nothing to download, readable on the TV and printable.
A chart is lines over the nights of a season: each player's running points (the standings'
race), or a player's place night by night; a night's chip counts; or a structure over the
night's clock (:func:`structure_chart`).

>>> svg = line_chart([("Ann", [10.0, 15.0]), ("Bob", [7.0, 17.0])], ["Week 1", "Week 2"], "points")
>>> svg.count("<polyline"), "Week 2" in svg, "Bob" in svg
(2, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

from director.core.i18n import gettext, ngettext
from director.core.words import number as chips
from director.core.words import say
from engine.clock import ClockState
from engine.dealing import stack_of
from engine.structure import Break, Level, Structure, describe_break, describe_level, estimate_end
from engine.tournament import Tournament

PALETTE = ("#2ecc71", "#f1c40f", "#3498db", "#e74c3c", "#9b59b6", "#1abc9c", "#e67e22", "#ecf0f1", "#ff6b9d", "#95a5a6")
"""Ten colours far apart, on a dark screen and on paper."""


def _nice(rough: float) -> float:
    """The round step nearest above ``rough``: 1, 2 or 5 times a power of ten.

    >>> _nice(9.4), _nice(0.3), _nice(240)
    (10, 0.5, 500)
    """
    power = 10 ** math.floor(math.log10(rough)) if rough > 0 else 1
    return next(m * power for m in (1, 2, 5, 10) if m * power >= rough)


def _fmt(value: float) -> str:
    return f"{value:g}"


def line_chart(
    series: Sequence[tuple[str, Sequence[float | None]]],
    x_labels: Sequence[str],
    y_label: str,
    *,
    width: int = 960,
    height: int = 420,
    invert: bool = False,
    title: str = "",
) -> Markup:
    """An SVG line chart: one line a series (a ``None`` leaves a gap), the nights along the
    bottom, the names at the lines' ends; ``invert`` puts the smallest value on top (places).
    Everything stays inside the picture: the margins are as wide as the values on the left
    (written whole, "150,000") and the names on the right, a long name on two lines, and the
    names are spread so that none sits on another or below the axis."""
    values = [v for _, vs in series for v in vs if v is not None]
    if not values or not x_labels:
        return Markup("")
    low, high = (1.0, max(values)) if invert else (0.0, max(values))  # places run from 1st
    if high == low:
        high = low + 1
    if invert:  # whole places, evenly
        step = max(1, math.ceil((high - low) / 4))
        ticks = sorted({*range(int(low), int(high) + 1, step), int(high)})
    else:  # round steps (1, 2 or 5 times a power of ten), the top one at or above the highest
        step = _nice(high / 4)
        high = step * math.ceil(high / step)
        ticks = [round(step * k, 6) for k in range(round(high / step) + 1)]
    labels = {v: _tick(v) for v in ticks}
    names = {name: _name_lines(name) for name, _ in series}
    widest_name = max((len(line) for lines in names.values() for line in lines), default=0)
    left = max(56, round(16 + AXIS_CHAR * max(len(text) for text in labels.values())))
    right = max(150, round(24 + NAME_CHAR * widest_name))
    top, bottom = 24, 56
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + (plot_w * i / (len(x_labels) - 1) if len(x_labels) > 1 else plot_w / 2)

    def y(v: float) -> float:
        share = (v - low) / (high - low)
        return top + (plot_h * share if invert else plot_h * (1 - share))

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(title or y_label)}" xmlns="http://www.w3.org/2000/svg">']
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    for v in ticks:  # the grid and the values on the left
        parts.append(f'<line class="chart-grid" x1="{left}" x2="{left + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>')
        parts.append(f'<text class="chart-axis" x="{left - 8}" y="{y(v) + 5:.1f}" text-anchor="end">{labels[v]}</text>')
    every = max(1, math.ceil(len(x_labels) / 12))  # at most a dozen labels along the bottom
    for i, label in enumerate(x_labels):
        if i % every and i != len(x_labels) - 1:
            continue
        parts.append(f'<text class="chart-axis" x="{x(i):.1f}" y="{height - bottom + 24}" text-anchor="middle">'
                     f"{escape(label)}</text>")
    parts.append(f'<text class="chart-axis chart-y-label" x="{left}" y="{top - 8}">{escape(y_label)}</text>')
    ends: list[tuple[float, float, str, tuple[str, ...], str]] = []  # where each name goes
    for n, (name, vs) in enumerate(series):
        colour = PALETTE[n % len(PALETTE)]
        points = [(x(i), y(v)) for i, v in enumerate(vs) if v is not None]
        if not points:
            continue
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        parts.append(f'<polyline class="chart-line" points="{path}" stroke="{colour}" fill="none"/>')
        for px, py in points if len(points) <= 40 else ():  # dots while there are few
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="5" fill="{colour}"/>')
        ends.append((points[-1][1], points[-1][0], colour, names[name], name))
    tops = _spread([(end_y, NAME_LINE * len(lines)) for end_y, _, _, lines, _ in ends], top, top + plot_h)
    for (_, end_x, colour, lines, _), name_top in zip(ends, tops, strict=True):
        spans = "".join(f'<tspan x="{end_x + 12:.1f}" y="{name_top + NAME_LINE / 2 + 6 + NAME_LINE * k:.1f}">{escape(line)}</tspan>'
                        for k, line in enumerate(lines))
        parts.append(f'<text class="chart-name" fill="{colour}">{spans}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


AXIS_CHAR, NAME_CHAR, NAME_LINE = 9.5, 10.5, 18
"""About the width of a figure on the axis, of a letter of a name (bold), and a name's line
height, in the chart's own units (its type is 15 and 16 units)."""
NAME_WIDTH = 18
"""The letters of a name's line: a longer name goes on two lines."""


def _tick(value: float) -> str:
    """A value on the axis written whole in the reader's language (``150,000``)."""
    return chips(value) if float(value).is_integer() else _fmt(value)


def _name_lines(name: str) -> tuple[str, ...]:
    """A name as the chart writes it: one line, or two cut at a space when it is long."""
    if len(name) <= NAME_WIDTH or " " not in name:
        return (name,)
    cut = min((i for i, ch in enumerate(name) if ch == " "), key=lambda i: abs(i - len(name) / 2))
    return name[:cut], name[cut + 1:]


def _spread(wanted: Sequence[tuple[float, float]], low: float, high: float) -> list[float]:
    """Where each label goes: as near its line's end (``wanted``: its middle and its height)
    as the others allow, none over another, all between ``low`` and ``high``."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i][0])
    placed = [0.0] * len(wanted)
    edge = low
    for i in order:  # downwards, each below the one before
        middle, tall = wanted[i]
        placed[i] = max(middle - NAME_LINE / 2, edge)
        edge = placed[i] + tall
    edge = high
    for i in reversed(order):  # then upwards from the axis, where they ran below it
        tall = wanted[i][1]
        placed[i] = min(placed[i], edge - tall)
        edge = placed[i]
    return placed



def stacks_chart(state: Tournament, players: int = 8) -> Markup:
    """A night's chip counts over the hands dealt with the assistant: each of the best
    ``players`` (by place, then by chips) at the start of every hand they played."""
    hands = state.dealing.hands
    if len(hands) < 2:
        return Markup("")
    places = state.places()
    ranked = sorted(state.players, key=lambda p: (places.get(p.id, 10**6), -stack_of(state, p.id)))
    chosen = [p.id for p in ranked[:players]]
    series = []
    for pid in chosen:
        values: list[float | None] = []
        for record in hands:
            seat = record.seat_of(pid)
            values.append(float(record.setup.stacks[seat]) if seat is not None else None)
        if any(v is not None for v in values):
            series.append((state.name_of(pid), values))
    labels = [str(h.tournament_hand) for h in hands]
    return line_chart(series, labels, gettext("chips at the start of each hand"),
                      title=gettext("%(name)s: the chip counts", name=state.name))


def _hours(minutes: float) -> str:
    """``0 h``, ``1 h 30``, ``2 h``: a time on the night's clock as the axis reads it.

    >>> _hours(0), _hours(90), _hours(120), _hours(45)
    ('0 h', '1 h 30', '2 h', '0 h 45')
    """
    hours, rest = divmod(round(minutes), 60)
    return f"{hours} h" + (f" {rest:02d}" if rest else "")


def _ticks(high: float, count: int) -> tuple[float, list[float]]:
    """A round top at or above ``high`` and about ``count`` round steps up to it."""
    step = _nice(high / count)
    top = step * math.ceil(high / step)
    return top, [round(step * k, 6) for k in range(round(top / step) + 1)]


def elapsed_minutes(structure: Structure, clock: ClockState) -> float | None:
    """Where ``clock`` is on the structure's plan, in minutes from the start (breaks included),
    for :func:`structure_chart`'s ``now_minutes``: the planned length of the items played
    plus the time run in the current one; None when hand-counted or past the listed items."""
    items = structure.items
    if structure.hand_counted or clock.item_index >= len(items):
        return None
    before = sum(item.minutes or 0 for item in items[: clock.item_index])
    current = items[clock.item_index].minutes or 0
    return before + min(clock.elapsed / 60, current)


@dataclass(frozen=True)
class _Plot:
    """Where a structure chart draws: the view box, the plot inside its margins, the night's
    length along the bottom and the tops of its two scales."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    total: float
    blind_top: float
    depth_top: float
    font: int
    compact: bool

    @property
    def plot_w(self) -> int:
        return self.width - self.left - self.right

    @property
    def plot_h(self) -> int:
        return self.height - self.top - self.bottom

    @property
    def text(self) -> str:
        """A text's paint and size."""
        return f'fill="currentColor" font-size="{self.font}"'

    def x(self, minutes: float) -> float:
        return self.left + self.plot_w * minutes / self.total

    def y_blind(self, value: float) -> float:
        return self.top + self.plot_h * (1 - value / self.blind_top)

    def y_depth(self, value: float) -> float:
        return self.top + self.plot_h * (1 - value / self.depth_top)


Span = tuple[float, float, Level | Break, int]
"""A level or a break on the night's clock: (from, to, item, level number), in minutes."""


def structure_chart(
    structure: Structure,
    *,
    now_minutes: float | None = None,
    players: int | None = None,
    compact: bool = False,
    width: int | None = None,
    height: int | None = None,
) -> Markup:
    """A structure as a picture over the night's clock (hours along the bottom, breaks
    included): the big blind as a step line on the left scale, the starting stack counted in
    big blinds as a dashed step line on the right scale, and the breaks as shaded bands.

    The second line is what a player who has won no pot holds, in big blinds: it needs no
    guess at how fast the field shrinks (the average stack grows as players go out; this line
    is its floor at each level), and the key says so. ``now_minutes`` marks where the clock
    is (:func:`elapsed_minutes`); ``players`` marks the likely end for that many entries
    (TDA 6.4, ``engine.structure.estimate_end``) when it falls within the listed levels.

    ``compact`` draws it for a small panel (a TV's information layout): a 480 by 200 view,
    fewer ticks, no break labels, a one-line key; ``width`` and ``height`` set the view box
    otherwise (960 by 360). The SVG scales to its box (class ``chart``); every stroke, fill
    and text is ``currentColor`` (classes ``chart-blind``, ``chart-stack``, ``chart-break``
    and ``chart-now`` let a stylesheet colour them), so it reads on a dark and a light page.
    Each level's step carries ``data-level``, ``data-from`` and ``data-to`` (minutes) and
    ``data-big-blind`` or ``data-big-blinds``; each break's band ``data-from`` and ``data-to``.

    Empty for a hand-counted structure (it has no clock time to draw against) or no levels.
    """
    if structure.hand_counted or not structure.levels:
        return Markup("")
    font = 15 if compact else 14
    stack = structure.starting_stack
    spans, total = _spans(structure)
    levels = [span for span in spans if isinstance(span[2], Level)]
    breaks = [span for span in spans if isinstance(span[2], Break)]
    blind_top, blind_ticks = _ticks(max(_big_blind(item) for _, _, item, _ in levels), 2 if compact else 4)
    depth_top, depth_ticks = _ticks(max(stack / _big_blind(item) for _, _, item, _ in levels), 2 if compact else 4)
    top, bottom = (30, 26) if compact else (58, 48)
    plot = _Plot(
        width=width or (480 if compact else 960), height=height or (200 if compact else 360),
        left=14 + round(0.6 * font * max(len(chips(v)) for v in blind_ticks)),
        right=14 + round(0.6 * font * max(len(_fmt(v)) for v in depth_ticks)),
        top=top, bottom=bottom, total=total, blind_top=blind_top, depth_top=depth_top, font=font, compact=compact,
    )
    summary = _summary(structure, levels, len(breaks), total)
    parts = [
        f'<svg class="chart structure-chart{" structure-chart--compact" if compact else ""}" '
        f'viewBox="0 0 {plot.width} {plot.height}" role="img" aria-label="{escape(summary)}" '
        'xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(summary)}</title>",
        *_break_bands(plot, breaks),  # the bands first, under the lines
        *_axes(plot, blind_ticks, depth_ticks),
        *_steps(levels, plot.x, plot.y_blind, "chart-blind", lambda item: f'data-big-blind="{item.big_blind}"',
                'stroke-width="3"'),
        *_steps(levels, plot.x, lambda b: plot.y_depth(stack / b), "chart-stack",
                lambda item: f'data-big-blinds="{_fmt(round(stack / item.big_blind, 2))}"',
                'stroke-width="2.5" stroke-dasharray="7 5"'),
        *_marks(plot, structure, len(levels), now_minutes, players),
        _key(plot.left, font, compact, stack),
        "</svg>",
    ]
    return Markup("".join(parts))


def _spans(structure: Structure) -> tuple[list[Span], float]:
    """Each level and break on the night's clock, and the night's length (1 minute at least)."""
    spans: list[Span] = []
    clock_at, number = 0.0, 0
    for item in structure.items:
        if isinstance(item, Level):
            number += 1
        length = float(item.minutes or 0)
        spans.append((clock_at, clock_at + length, item, number))
        clock_at += length
    return spans, clock_at or 1.0


def _big_blind(item: Level | Break) -> int:
    assert isinstance(item, Level)
    return item.big_blind


def _summary(structure: Structure, levels: Sequence[Span], breaks: int, total: float) -> str:
    """The chart in a sentence, for a screen reader and the picture's title."""
    stack = structure.starting_stack
    first, last = _big_blind(levels[0][2]), _big_blind(levels[-1][2])
    return gettext(
        "%(name)s: %(levels)s and %(breaks)s over %(hours)s; the big blind rises from %(first)s to %(last)s, "
        "and a starting stack of %(stack)s goes from %(deep)s to %(shallow)s big blinds.",
        name=structure.name, levels=ngettext("%(num)d level", "%(num)d levels", len(levels)),
        breaks=ngettext("%(num)d break", "%(num)d breaks", breaks), hours=_hours(total),
        first=chips(first), last=chips(last), stack=chips(stack),
        deep=_fmt(round(stack / first, 1)), shallow=_fmt(round(stack / last, 1)),
    )


def _break_bands(plot: _Plot, breaks: Sequence[Span]) -> list[str]:
    """The breaks as shaded bands (labelled when there is room, and the chart is not compact)."""
    x, top, font = plot.x, plot.top, plot.font
    parts = []
    for a, b, item, _ in breaks:
        assert isinstance(item, Break)
        parts.append(
            f'<rect class="chart-break" x="{x(a):.1f}" y="{top}" width="{x(b) - x(a):.1f}" height="{plot.plot_h}" '
            f'fill="currentColor" fill-opacity="0.12" data-from="{_fmt(a)}" data-to="{_fmt(b)}">'
            f"<title>{escape(say(describe_break(item)))}</title></rect>"
        )
        if not plot.compact and x(b) - x(a) >= 0.6 * font * 5:
            parts.append(f'<text class="chart-break-label" x="{x((a + b) / 2):.1f}" y="{top + font + 2}" '
                         f'text-anchor="middle" {plot.text} fill-opacity="0.7">{escape(gettext("Break"))}</text>')
    return parts


def _axes(plot: _Plot, blind_ticks: Sequence[float], depth_ticks: Sequence[float]) -> list[str]:
    """The grid with the big blinds on the left, the big blinds deep on the right, and the
    hours of play along the bottom."""
    left, top, font, text = plot.left, plot.top, plot.font, plot.text
    plot_w, plot_h = plot.plot_w, plot.plot_h
    parts = []
    for v in blind_ticks:
        parts.append(f'<line class="chart-grid" x1="{left}" x2="{left + plot_w}" y1="{plot.y_blind(v):.1f}" '
                     f'y2="{plot.y_blind(v):.1f}" stroke="currentColor" stroke-opacity="0.15"/>')
        parts.append(f'<text class="chart-tick" x="{left - 6}" y="{plot.y_blind(v) + font / 3:.1f}" text-anchor="end" '
                     f'{text} fill-opacity="0.7">{chips(v)}</text>')
    for v in depth_ticks:
        parts.append(f'<text class="chart-tick" x="{left + plot_w + 6}" y="{plot.y_depth(v) + font / 3:.1f}" '
                     f'{text} fill-opacity="0.7">{_fmt(v)}</text>')
    total = plot.total
    step = next((m for m in (15, 30, 60, 90, 120, 180, 240, 360) if total / m <= (4 if plot.compact else 8)), 720)
    for k in range(int(total // step) + 1):
        m = k * step
        parts.append(f'<text class="chart-tick" x="{plot.x(m):.1f}" y="{top + plot_h + font + 6}" text-anchor="middle" '
                     f'{text} fill-opacity="0.7">{_hours(m)}</text>')
    if not plot.compact:
        axis_title = escape(gettext("Hours of play, breaks included"))
        parts.append(f'<text class="chart-axis-title" x="{left + plot_w / 2:.1f}" y="{plot.height - 8}" '
                     f'text-anchor="middle" {text} fill-opacity="0.7">{axis_title}</text>')
    return parts


def _marks(plot: _Plot, structure: Structure, levels: int, now_minutes: float | None,
           players: int | None) -> list[str]:
    """Where the clock is now, and the likely end for ``players`` entries (TDA 6.4) when it
    falls within the ``levels`` listed."""
    marks: list[tuple[float, str, str]] = []
    if now_minutes is not None and 0 <= now_minutes <= plot.total:
        marks.append((now_minutes, "chart-now", gettext("now")))
    if players is not None and players > 1:
        end = estimate_end(structure, players)
        if end is not None and end.minutes is not None and end.level <= levels:
            marks.append((float(end.minutes), "chart-end", gettext("likely end") if plot.compact
                          else gettext("likely end, %(count)s players", count=players)))
    x, top, font = plot.x, plot.top, plot.font
    parts = []
    for minutes, kind, label in marks:
        anchor = "end" if x(minutes) + 4 + 0.55 * font * len(label) > plot.left + plot.plot_w else "start"
        shift = -4 if anchor == "end" else 4
        dashes = ' stroke-dasharray="2 4"' if kind == "chart-end" else ""
        parts.append(f'<line class="{kind}" x1="{x(minutes):.1f}" x2="{x(minutes):.1f}" y1="{top}" '
                     f'y2="{top + plot.plot_h}" stroke="currentColor" stroke-width="2"{dashes} '
                     f'data-minutes="{_fmt(round(minutes, 2))}"/>')
        label_y = top + font if plot.compact else top - 6  # inside the plot's top, or just above it
        parts.append(f'<text class="{kind}-label" x="{x(minutes) + shift:.1f}" y="{label_y}" '
                     f'text-anchor="{anchor}" {plot.text}>{escape(label)}</text>')
    return parts


def _steps(
    levels: Sequence[tuple[float, float, Level | Break, int]],
    x: Callable[[float], float],
    y: Callable[[float], float],
    kind: str,
    data: Callable[[Level], str],
    stroke: str,
) -> list[str]:
    """One step line: a segment a level (with its title for a pointer) and the risers between
    levels that follow one another (none across a break: no blinds are played in it)."""
    parts = [f'<g class="{kind}" stroke="currentColor" fill="none" stroke-linecap="round" {stroke}>']
    risers: list[str] = []
    previous: tuple[float, float] | None = None
    for a, b, item, number in levels:
        assert isinstance(item, Level)
        height = y(item.big_blind)
        title = escape(gettext("%(level)s · %(minutes)s min", level=say(describe_level(item, number)), minutes=item.minutes))
        parts.append(
            f'<line class="chart-step" x1="{x(a):.1f}" x2="{x(b):.1f}" y1="{height:.1f}" y2="{height:.1f}" '
            f'data-level="{number}" data-from="{_fmt(a)}" data-to="{_fmt(b)}" {data(item)}>'
            f"<title>{title}</title></line>"
        )
        if previous is not None and previous[0] == a:
            risers.append(f"M{x(a):.1f} {previous[1]:.1f}V{height:.1f}")
        previous = (b, height)
    if risers:
        parts.append(f'<path class="chart-riser" d="{"".join(risers)}"/>')
    parts.append("</g>")
    return parts


def _key(left: float, font: int, compact: bool, stack: int) -> str:
    """The key above the plot: what each line is, and what the shading is."""
    entries = (
        ("chart-blind", 'stroke-width="3"', gettext("Big blind") if compact else gettext("Big blind (left)")),
        ("chart-stack", 'stroke-width="2.5" stroke-dasharray="7 5"',
         gettext("Starting stack in BB") if compact else
         gettext("Starting stack (%(stack)s) in big blinds (right): a player who has won no pot", stack=chips(stack))),
        ("chart-break", "", gettext("Break")),
    )
    parts = ['<g class="chart-key">']
    at, row = float(left), font + 4
    for kind, stroke, label in entries:
        if kind == "chart-break":
            parts.append(f'<rect class="{kind}" x="{at:.1f}" y="{row - font * 0.8:.1f}" width="24" '
                         f'height="{font}" fill="currentColor" fill-opacity="0.12"/>')
        else:
            parts.append(f'<line class="{kind}" x1="{at:.1f}" x2="{at + 24:.1f}" y1="{row - font / 3:.1f}" '
                         f'y2="{row - font / 3:.1f}" stroke="currentColor" {stroke}/>')
        parts.append(f'<text x="{at + 30:.1f}" y="{row}" fill="currentColor" font-size="{font}">{escape(label)}</text>')
        at += 30 + 0.52 * font * len(label) + 18
    parts.append("</g>")
    return "".join(parts)


__all__ = ["elapsed_minutes", "line_chart", "stacks_chart", "structure_chart"]
