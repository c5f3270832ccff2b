"""Every CSV the app writes, written so that a spreadsheet opens it as data (OWASP's "CSV
injection"): a text cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return would be run as a formula, so it is written with a leading apostrophe and stays text;
numbers stay numbers.

>>> [cell(v) for v in ("=HYPERLINK(1)", "+1", "-2", "@SUM(A1)", "Ann", -20, 3.5, None)]
["'=HYPERLINK(1)", "'+1", "'-2", "'@SUM(A1)", 'Ann', -20, 3.5, '']
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from flask import Response

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula."""


def cell(value: Any) -> Any:
    """``value`` as a cell: a number as it is, a text that a spreadsheet would run as a
    formula behind an apostrophe, nothing as an empty cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(rows: Iterable[Sequence[Any]]) -> str:
    """The rows as CSV text, every cell made safe (:func:`cell`)."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([cell(v) for v in row])
    return out.getvalue()


def csv_response(rows: Iterable[Sequence[Any]], filename: str) -> Response:
    """A CSV download of ``rows`` named ``filename``."""
    response = Response(csv_text(rows), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


__all__ = ["FORMULA_STARTS", "cell", "csv_response", "csv_text"]
