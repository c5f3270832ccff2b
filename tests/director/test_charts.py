"""The structure drawn as SVG (``director.screens.charts.structure_chart``): the SVG parses, each
level is a step at its big blind over its minutes, the breaks are bands between them, the
second line is the starting stack in big blinds, hours along the bottom, and the compact
size for a TV panel."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from director.screens.charts import elapsed_minutes, structure_chart
from engine.clock import Start, clock_state
from engine.structure import Break, Level, Structure, sit_and_go

SVG = "{http://www.w3.org/2000/svg}"
NIGHT = Structure(
    "Friday",
    (
        Level(25, 50, minutes=20),
        Level(50, 100, minutes=20),
        Break(10, (25,)),
        Level(100, 200, minutes=30),
        Level(200, 400, ante=400, minutes=30),
    ),
    10_000,
)


def parse(markup: object) -> ET.Element:
    root = ET.fromstring(str(markup))
    assert root.tag == f"{SVG}svg"
    return root


def steps(root: ET.Element, kind: str) -> list[ET.Element]:
    group = root.find(f"{SVG}g[@class='{kind}']")
    assert group is not None, kind
    return group.findall(f"{SVG}line[@class='chart-step']")


def bands(root: ET.Element) -> list[ET.Element]:
    return [r for r in root.iter(f"{SVG}rect") if r.get("class") == "chart-break" and r.get("data-from")]


def texts(root: ET.Element, cls: str) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == cls]


def test_each_level_is_a_step_at_its_big_blind_over_its_minutes() -> None:
    root = parse(structure_chart(NIGHT))
    blind = steps(root, "chart-blind")
    assert [(s.get("data-level"), s.get("data-big-blind"), s.get("data-from"), s.get("data-to")) for s in blind] == [
        ("1", "50", "0", "20"), ("2", "100", "20", "40"), ("3", "200", "50", "80"), ("4", "400", "80", "110"),
    ]
    # The x axis is the clock: every step's ends lie on one line x = x0 + k * minutes.
    x0 = float(blind[0].get("x1", ""))
    k = (float(blind[-1].get("x2", "")) - x0) / 110
    for s in blind:
        assert float(s.get("x1", "")) == pytest.approx(x0 + k * float(s.get("data-from", "")), abs=0.1)
        assert float(s.get("x2", "")) == pytest.approx(x0 + k * float(s.get("data-to", "")), abs=0.1)
        assert s.get("y1") == s.get("y2")  # flat: a step
    # The y axis is the big blind: the drop from the zero line is in proportion to it.
    ys = [float(s.get("y1", "")) for s in blind]
    zero = ys[0] + (ys[0] - ys[1])  # level 2 is twice level 1
    assert [(zero - y) / (zero - ys[0]) for y in ys] == pytest.approx([1, 2, 4, 8], abs=0.01)
    titles = [s.find(f"{SVG}title").text for s in blind]  # type: ignore[union-attr]
    assert titles[3] == "Level 4 · 200/400 · ante 400 · 30 min"
    # Risers join the levels that follow one another, not across the break.
    risers = root.find(f"{SVG}g[@class='chart-blind']/{SVG}path[@class='chart-riser']")
    assert risers is not None and risers.get("d", "").count("M") == 2


def test_the_breaks_are_shaded_bands_between_their_levels() -> None:
    root = parse(structure_chart(NIGHT))
    (band,) = bands(root)
    assert (band.get("data-from"), band.get("data-to")) == ("40", "50")
    blind = steps(root, "chart-blind")
    assert float(band.get("x", "")) == pytest.approx(float(blind[1].get("x2", "")), abs=0.1)
    assert float(band.get("x", "")) + float(band.get("width", "")) == pytest.approx(float(blind[2].get("x1", "")), abs=0.2)
    assert band.get("fill") == "currentColor" and float(band.get("fill-opacity", "")) < 0.5
    assert band.find(f"{SVG}title").text == "Break · 10 min · colour up the 25 chips"  # type: ignore[union-attr]
    two = Structure("Two", (*NIGHT.items, Break(15), Level(300, 600, minutes=30)), 10_000)
    assert [(b.get("data-from"), b.get("data-to")) for b in bands(parse(structure_chart(two)))] == [
        ("40", "50"), ("110", "125"),
    ]


def test_the_second_line_is_the_starting_stack_in_big_blinds_and_the_key_says_so() -> None:
    root = parse(structure_chart(NIGHT))
    depth = steps(root, "chart-stack")
    assert [s.get("data-big-blinds") for s in depth] == ["200", "100", "50", "25"]
    assert [s.get("data-from") for s in depth] == ["0", "20", "50", "80"]
    key = " ".join(t.text or "" for t in root.find(f"{SVG}g[@class='chart-key']").iter(f"{SVG}text"))  # type: ignore[union-attr]
    assert "Big blind (left)" in key
    assert "Starting stack (10,000) in big blinds (right): a player who has won no pot" in key
    assert "Break" in key


def test_the_svg_is_an_image_with_its_description_and_takes_the_pages_colour() -> None:
    svg = str(structure_chart(NIGHT))
    root = parse(svg)
    assert root.get("role") == "img"
    title = root.find(f"{SVG}title")
    assert title is not None and root.get("aria-label") == title.text
    assert title.text == (
        "Friday: 4 levels and 1 break over 1 h 50; the big blind rises from 50 to 400, "
        "and a starting stack of 10,000 goes from 200 to 25 big blinds."
    )
    assert re.search(r"#[0-9a-fA-F]{3,8}\b", svg) is None  # no colour of its own
    painted = {e.get(a) for e in root.iter() for a in ("stroke", "fill") if e.get(a) is not None}
    assert painted <= {"currentColor", "none"}
    assert "chart" in root.get("class", "").split()


def test_the_clock_runs_along_the_bottom_in_hours() -> None:
    root = parse(structure_chart(NIGHT))
    assert texts(root, "chart-tick")[-8:] == ["0 h", "0 h 15", "0 h 30", "0 h 45", "1 h", "1 h 15", "1 h 30", "1 h 45"]
    assert texts(root, "chart-axis-title") == ["Hours of play, breaks included"]
    long = Structure("Long", tuple(Level(100 * 2**n, 200 * 2**n, minutes=30) for n in range(10)), 10_000)
    assert texts(parse(structure_chart(long)), "chart-tick")[-6:] == ["0 h", "1 h", "2 h", "3 h", "4 h", "5 h"]


def test_the_compact_picture_for_a_panel() -> None:
    root = parse(structure_chart(NIGHT, compact=True))
    assert root.get("viewBox") == "0 0 480 200"
    assert "structure-chart--compact" in root.get("class", "")
    assert len(steps(root, "chart-blind")) == 4 and len(bands(root)) == 1
    assert texts(root, "chart-break-label") == [] and texts(root, "chart-axis-title") == []
    key = " ".join(t.text or "" for t in root.find(f"{SVG}g[@class='chart-key']").iter(f"{SVG}text"))  # type: ignore[union-attr]
    assert key == "Big blind Starting stack in BB Break"
    assert parse(structure_chart(NIGHT, width=1280, height=300)).get("viewBox") == "0 0 1280 300"


def test_now_and_the_likely_end_are_marked() -> None:
    root = parse(structure_chart(NIGHT, now_minutes=45, players=10))
    now = root.find(f"{SVG}line[@class='chart-now']")
    assert now is not None and now.get("data-minutes") == "45"
    band = bands(root)[0]
    assert float(band.get("x", "")) < float(now.get("x1", "")) < float(band.get("x", "")) + float(band.get("width", ""))
    assert root.find(f"{SVG}line[@class='chart-end']") is None  # 5% of 100,000 chips: no level gets there
    short = replace(NIGHT, starting_stack=1000)  # 5% of 4,000 chips: the big blind of level 3
    root = parse(structure_chart(short, players=4))
    end = root.find(f"{SVG}line[@class='chart-end']")
    assert end is not None and end.get("data-minutes") == "80"
    assert texts(root, "chart-end-label") == ["likely end, 4 players"]
    assert parse(structure_chart(NIGHT, now_minutes=500)).find(f"{SVG}line[@class='chart-now']") is None


def test_where_the_clock_is_on_the_plan() -> None:
    events = [Start(0.0)]
    assert elapsed_minutes(NIGHT, clock_state(NIGHT, events, 25 * 60)) == pytest.approx(25)
    assert elapsed_minutes(NIGHT, clock_state(NIGHT, events, 45 * 60)) == pytest.approx(45)  # in the break
    assert elapsed_minutes(NIGHT, clock_state(NIGHT, events, 0)) == 0


def test_a_hand_counted_structure_is_not_drawn_against_the_clock() -> None:
    assert structure_chart(sit_and_go(1000)) == ""
    assert elapsed_minutes(sit_and_go(1000), clock_state(sit_and_go(1000), [Start(0.0)], 60)) is None


def test_the_chip_chart_keeps_its_values_and_names_inside_the_picture() -> None:
    """Issue 31: the results' chip chart read "00000, 50000, 00000" on its axis (the values cut
    at the left) and names fell below the axis, one cut. The values are written whole and the
    margins are as wide as the values and the names; the names are spread between the top
    and the axis, none on another."""
    from director.screens.charts import line_chart

    long = "Maximiliano Fernández de la Cruz-Oberman"
    series = [(long, [50_000.0, 120_000.0, 150_000.0])] + [
        (name, [50_000.0, 400.0 + k, 0.0 + k]) for k, name in enumerate(["Ann", "Bob", "Cy", "Dee", "Eve"])]
    root = parse(line_chart(series, ["1", "2", "3"], "chips at the start of each hand"))
    width, height = (float(v) for v in root.attrib["viewBox"].split()[2:])
    axis = [t.text for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "chart-axis"
            and t.attrib.get("text-anchor") == "end"]
    assert axis == ["0", "50,000", "100,000", "150,000"]
    left = min(float(t.attrib["x"]) for t in root.iter(f"{SVG}text") if t.attrib.get("text-anchor") == "end")
    assert left >= 9.5 * len("150,000"), "the widest value fits left of the axis"
    grid = [float(line.attrib["y1"]) for line in root.iter(f"{SVG}line")]
    top, bottom = min(grid), max(grid)
    spans = [(float(s.attrib["x"]), float(s.attrib["y"]), s.text or "") for s in root.iter(f"{SVG}tspan")]
    assert "".join(text for *_, text in spans).replace(" ", "") == "".join(name for name, _ in series).replace(" ", "")
    for x, y, text in spans:
        assert top - 18 <= y <= bottom + 6, f"{text} at {y} is off the plot ({top}–{bottom})"
        assert x + 10.5 * len(text) <= width + 1, f"{text} runs off the right edge"
    lines = sorted(y for _, y, _ in spans)
    assert all(b - a >= 18 - 0.01 for a, b in itertools.pairwise(lines)), lines
    assert height == 420
