"""The host's sheet: per player what they put in (buy-in, re-entries, rebuys, add-on, the fees
in them, each at the price it was paid at) and what they took (a prize, a deal's share,
bounties), and the net; the night's money balanced to the unit (``engine.sheet``). A print
page and CSV, for the director; JSON twin ``GET /api/t/<id>/sheet``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from director.core import shapes
from director.core.auth import login_required
from director.core.contract import Api
from director.core.db import get_db
from director.core.spreadsheets import csv_response
from director.core.store import load_state
from director.core.web import now, render
from director.core.words import ordinal
from director.night.results import filename
from director.night.views import night_view
from engine.sheet import Sheet, sheet
from engine.tournament import Tournament

bp = Blueprint("sheet", __name__)
api = Api(bp, "tournament")


def sheet_json(state: Tournament, s: Sheet) -> dict[str, Any]:
    b = s.bounty
    return {
        "finished": s.finished,
        "points": s.points,
        "players": [
            {"player": r.player, "name": r.name, "place": r.place, "entries": r.entries, "rebuys": r.rebuys,
             "addon": r.addon, "paid_in": r.paid_in, "fees": r.fees, "took": r.took, "net": r.net,
             "points": r.points, "bounties": r.bounties}
            for r in s.rows
        ],
        "totals": {"paid_in": s.paid_in, "fees": s.fees, "overlay": s.overlay, "prize_pool": s.pool,
                   "took": s.took, "unpaid": s.unpaid, "balance": s.balance,
                   "buy_ins": s.paid_by_kind.get("entry", 0), "reentries": s.paid_by_kind.get("reentry", 0),
                   "rebuys": s.paid_by_kind.get("rebuy", 0), "addons": s.paid_by_kind.get("addon", 0),
                   "prizes": s.prizes, "prizes_taken": s.prizes_taken, "prizes_to_pay": s.prizes_to_pay,
                   "bounties_paid_in": b.paid_in, "bounties_won": b.won, "bounties_on_heads": b.on_heads,
                   "bounties_unclaimed": b.unclaimed, "bounties_not_drawn": b.not_drawn},
    }


@dataclass(frozen=True)
class SheetLine:
    """A player's line of the sheet."""

    place: int | None
    name: str
    entries: int
    rebuys: int
    addon: bool
    paid_in: int
    fees: int
    took: int
    net: int
    points: float | None


@dataclass(frozen=True)
class BountyLines:
    """Where the bounties paid in went."""

    won: int
    on_heads: int
    unclaimed: int
    not_drawn: int
    accounted: int


@dataclass(frozen=True)
class SheetView:
    """The host's sheet as the page shows it: a line a player, the totals, the night's money."""

    rows: tuple[SheetLine, ...]
    finished: bool
    points: bool
    paid_in: int
    fees: int
    took: int
    overlay: int
    paid_by_kind: dict[str, int]
    prizes: int
    prizes_taken: int
    prizes_to_pay: int
    bounties: int
    bounty: BountyLines
    balance: int


def sheet_view(s: Sheet) -> SheetView:
    b = s.bounty
    return SheetView(
        rows=tuple(SheetLine(r.place, r.name, r.entries, r.rebuys, r.addon, r.paid_in, r.fees, r.took, r.net, r.points)
                   for r in s.rows),
        finished=s.finished, points=s.points, paid_in=s.paid_in, fees=s.fees, took=s.took, overlay=s.overlay,
        paid_by_kind=dict(s.paid_by_kind), prizes=s.prizes, prizes_taken=s.prizes_taken,
        prizes_to_pay=s.prizes_to_pay, bounties=s.bounties,
        bounty=BountyLines(b.won, b.on_heads, b.unclaimed, b.not_drawn, b.accounted), balance=s.balance,
    )


@bp.get("/t/<int:tournament_id>/sheet")
@login_required
def show(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    return render("sheet/show.html", t=night_view(state, tournament_id), tournament_id=tournament_id,
                  s=sheet_view(sheet(state)), printed_at=now(), ordinal=ordinal)


def sheet_rows(s: Sheet) -> list[list[Any]]:
    """The sheet as a spreadsheet's rows: a header, a line a player, the totals."""
    if s.points:
        rows: list[list[Any]] = [["place", "name", "entries", "rebuys", "add-on", "paid in", "points"]]
        for r in s.rows:
            rows.append([r.place or "", r.name, r.entries, r.rebuys, "yes" if r.addon else "", r.paid_in,
                         "" if r.points is None else r.points])
        return rows
    rows = [["place", "name", "entries", "rebuys", "add-on", "paid in", "of which fees", "took", "net"]]
    for r in s.rows:
        rows.append([r.place or "", r.name, r.entries, r.rebuys, "yes" if r.addon else "", r.paid_in,
                     r.fees, r.took, r.net])
    rows.append(["", "total", "", "", "", s.paid_in, s.fees, s.took, s.took - s.paid_in])
    rows.append(["", "overlay added by the house", "", "", "", "", "", s.overlay, ""])
    if s.bounties:
        b = s.bounty
        rows.append(["", "bounties still on heads", "", "", "", "", "", b.on_heads, ""])
        rows.append(["", "bounties unclaimed (busts with nobody named)", "", "", "", "", "", b.unclaimed, ""])
        if b.not_drawn:
            rows.append(["", "mystery bounty money not drawn", "", "", "", "", "", b.not_drawn, ""])
    if s.prizes_to_pay:
        rows.append(["", "prizes still to be paid", "", "", "", "", "", s.prizes_to_pay, ""])
    return rows


@bp.get("/t/<int:tournament_id>/sheet.csv")
@login_required
def export_csv(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    return csv_response(sheet_rows(sheet(state)), filename(state, "csv", "sheet"))


@api.get("/api/t/<int:tournament_id>/sheet", summary="The host's sheet: what each player put in and took, "
         "and the totals", result=shapes.HostSheet, login=True)
def api_sheet(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    return jsonify(sheet_json(state, sheet(state)))
