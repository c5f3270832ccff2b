"""Charts drawn on the server as SVG (issue "Seasons", part 4): nothing to download, readable
on the TV and printable. A chart is lines over the nights of a season: each player's running
points (the standings' race), or a player's place night by night.

>>> svg = line_chart([("Ann", [10.0, 15.0]), ("Bob", [7.0, 17.0])], ["Week 1", "Week 2"], "points")
>>> svg.count("<polyline"), "Week 2" in svg, "Bob" in svg
(2, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from markupsafe import Markup

from engine.dealing import stack_of
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
    bottom, the names at the lines' ends; ``invert`` puts the smallest value on top (places)."""
    left, right, top, bottom = 56, 150, 24, 56
    plot_w, plot_h = width - left - right, height - top - bottom
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
        parts.append(f'<text class="chart-axis" x="{left - 8}" y="{y(v) + 5:.1f}" text-anchor="end">{_fmt(v)}</text>')
    every = max(1, math.ceil(len(x_labels) / 12))  # at most a dozen labels along the bottom
    for i, label in enumerate(x_labels):
        if i % every and i != len(x_labels) - 1:
            continue
        parts.append(f'<text class="chart-axis" x="{x(i):.1f}" y="{height - bottom + 24}" text-anchor="middle">'
                     f"{escape(label)}</text>")
    parts.append(f'<text class="chart-axis chart-y-label" x="{left}" y="{top - 8}">{escape(y_label)}</text>')
    ends: list[float] = []
    for n, (name, vs) in enumerate(series):
        colour = PALETTE[n % len(PALETTE)]
        points = [(x(i), y(v)) for i, v in enumerate(vs) if v is not None]
        if not points:
            continue
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        parts.append(f'<polyline class="chart-line" points="{path}" stroke="{colour}" fill="none"/>')
        for px, py in points if len(points) <= 40 else ():  # dots while there are few
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="5" fill="{colour}"/>')
        end_y = points[-1][1]
        while any(abs(end_y - e) < 18 for e in ends):  # names at the end do not sit on one another
            end_y += 18
        ends.append(end_y)
        parts.append(f'<text class="chart-name" x="{points[-1][0] + 12:.1f}" y="{end_y + 6:.1f}" fill="{colour}">'
                     f"{escape(name)}</text>")
    parts.append("</svg>")
    return Markup("".join(parts))




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
    return line_chart(series, labels, "chips at the start of each hand", title=f"{state.name}: the chip counts")


__all__ = ["line_chart", "stacks_chart"]
