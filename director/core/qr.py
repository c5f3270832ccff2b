"""QR codes as inline SVG, drawn on the server so they print sharp.

The SVG has a ``viewBox`` and no fixed size, so CSS decides how large it prints.
It draws one ``<path>`` on a white square (a quiet zone of four modules included),
which is what phone cameras and ``zbarimg`` need to read it off paper.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import qrcode  # type: ignore[import-untyped]
import qrcode.constants  # type: ignore[import-untyped]
import qrcode.image.svg  # type: ignore[import-untyped]
from markupsafe import Markup

SVG_NS = "http://www.w3.org/2000/svg"

ERROR_CORRECTION = {
    "L": qrcode.constants.ERROR_CORRECT_L,
    "M": qrcode.constants.ERROR_CORRECT_M,
    "Q": qrcode.constants.ERROR_CORRECT_Q,
    "H": qrcode.constants.ERROR_CORRECT_H,
}


def qr_svg(data: str, *, label: str = "", error_correction: str = "M", css_class: str = "qr") -> Markup:
    """The QR code of ``data`` as an ``<svg>`` element ready to put in a page.

    ``label`` becomes the accessible name (``aria-label``); the element carries no
    ``id`` so that a sheet of many codes stays valid HTML.

    >>> svg = qr_svg("http://192.168.1.20:5000/p/abc", label="Ana's page")
    >>> svg.startswith('<svg') and 'viewBox="0 0 ' in svg and ' id=' not in svg
    True
    >>> 'width=' in svg.split('>')[0]
    False
    """
    if error_correction not in ERROR_CORRECTION:
        raise ValueError(f"Error correction must be one of L, M, Q or H, not {error_correction!r}.")
    code = qrcode.QRCode(
        error_correction=ERROR_CORRECTION[error_correction],
        box_size=10,
        border=4,
        image_factory=qrcode.image.svg.SvgPathFillImage,
    )
    code.add_data(data)
    code.make(fit=True)
    image = code.make_image()
    root: ET.Element = image.get_image()
    for attribute in ("width", "height", "version"):
        root.attrib.pop(attribute, None)
    for element in root.iter():
        element.attrib.pop("id", None)
    root.set("class", css_class)
    root.set("role", "img")
    root.set("shape-rendering", "crispEdges")
    root.set("preserveAspectRatio", "xMidYMid meet")
    if label:
        root.set("aria-label", label)
    # The root is written as a plain <svg xmlns=...>; register the namespace as the
    # default so ElementTree writes no "svg:" or "ns0:" prefixes.
    ET.register_namespace("", SVG_NS)
    text = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    return Markup(text)


def qr_modules(data: str, *, error_correction: str = "M") -> int:
    """How many modules wide the code of ``data`` is (without the quiet zone): 21 for version 1.

    >>> qr_modules("hello")
    21
    """
    code = qrcode.QRCode(error_correction=ERROR_CORRECTION[error_correction], border=0)
    code.add_data(data)
    code.make(fit=True)
    return len(code.get_matrix())
