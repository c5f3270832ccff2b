"""QR codes as SVG: the path drawn is exactly the code's matrix, sized by CSS, valid in a page."""

from __future__ import annotations

import re

import pytest
import qrcode
import qrcode.constants
from hypothesis import given, settings
from hypothesis import strategies as st

from director.core.qr import qr_modules, qr_svg

SQUARE = re.compile(r"M(\d+),(\d+)H(\d+)V(\d+)H(\d+)z")


def dark_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules the SVG path draws, as (x, y) in the viewBox (quiet zone included)."""
    path = re.search(r' d="([^"]+)"', svg)
    assert path is not None
    cells = set()
    for x0, y0, x1, y1, back in SQUARE.findall(path.group(1)):
        x0i, y0i, x1i, y1i = int(x0), int(y0), int(x1), int(y1)
        assert (x1i - x0i, y1i - y0i, int(back)) == (1, 1, x0i), "one unit square per module"
        cells.add((x0i, y0i))
    return cells


def matrix(data: str, level: int = qrcode.constants.ERROR_CORRECT_M) -> list[list[bool]]:
    code = qrcode.QRCode(error_correction=level, border=4)
    code.add_data(data)
    code.make(fit=True)
    return code.get_matrix()


@settings(max_examples=40)
@given(st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=80))
def test_the_svg_draws_exactly_the_codes_matrix(data: str) -> None:
    svg = str(qr_svg(data))
    grid = matrix(data)
    size = len(grid)
    assert f'viewBox="0 0 {size} {size}"' in svg
    expected = {(x, y) for y, row in enumerate(grid) for x, dark in enumerate(row) if dark}
    assert dark_modules(svg) == expected
    assert size == qr_modules(data) + 8  # four modules of quiet zone on each side


def test_the_svg_is_sized_by_css_and_fits_many_to_a_page() -> None:
    svg = str(qr_svg("http://192.168.1.20:5000/p/abcdefghijklmnopqrstuv", label="Ana's page"))
    opening = svg.split(">", 1)[0]
    assert opening.startswith("<svg ")
    assert " width=" not in opening and " height=" not in opening
    assert 'class="qr"' in opening and 'role="img"' in opening and 'aria-label="Ana\'s page"' in opening
    assert " id=" not in svg  # many codes on one sheet: no duplicate ids
    assert 'fill="white"' in svg  # the quiet zone prints white even on a tinted card
    assert "ns0:" not in svg and "svg:" not in svg


def test_a_seat_card_address_fits_a_small_code() -> None:
    """A home-network address with a 22-character token stays at version 4 (33 modules) or less."""
    assert qr_modules("http://192.168.178.156:50000/p/" + "A" * 22) <= 33


def test_unknown_error_correction_is_refused() -> None:
    with pytest.raises(ValueError, match="one of L, M, Q or H"):
        qr_svg("x", error_correction="Z")
