"""The host's sheet: per player what they put in (buy-in, re-entries, rebuys, add-on, the fees
in them) and what they took (a prize, a deal's share), and the net; the totals balance with
the house's fees and overlay apart (``engine.sheet``). A print page and CSV, for the director;
JSON twin ``GET /api/t/<id>/sheet``.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response, jsonify
from flask.typing import ResponseReturnValue

from director import shapes
from director.auth import login_required
from director.contract import Api
from director.db import get_db
from director.events import load_state
from director.i18n import ordinal
from director.results import filename
from director.web import now, render
from engine.sheet import Sheet, sheet
from engine.tournament import Tournament

bp = Blueprint("sheet", __name__)
api = Api(bp, "tournament")


def sheet_json(state: Tournament, s: Sheet) -> dict[str, Any]:
    return {
        "finished": s.finished,
        "points": s.points,
        "players": [
            {"player": r.player, "name": r.name, "place": r.place, "entries": r.entries, "rebuys": r.rebuys,
             "addon": r.addon, "paid_in": r.paid_in, "fees": r.fees, "took": r.took, "net": r.net,
             "points": r.points}
            for r in s.rows
        ],
        "totals": {"paid_in": s.paid_in, "fees": s.fees, "overlay": s.overlay, "prize_pool": s.pool,
                   "took": s.took, "unpaid": s.unpaid, "balance": s.balance},
    }


@bp.get("/t/<int:tournament_id>/sheet")
@login_required
def show(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    return render("sheet/show.html", t=state, tournament_id=tournament_id, s=sheet(state), printed_at=now(),
                  ordinal=ordinal)


@bp.get("/t/<int:tournament_id>/sheet.csv")
@login_required
def export_csv(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    s = sheet(state)
    out = io.StringIO()
    writer = csv.writer(out)
    if s.points:
        writer.writerow(["place", "name", "entries", "rebuys", "add-on", "paid in", "points"])
        for r in s.rows:
            writer.writerow([r.place or "", r.name, r.entries, r.rebuys, "yes" if r.addon else "", r.paid_in,
                             "" if r.points is None else r.points])
    else:
        writer.writerow(["place", "name", "entries", "rebuys", "add-on", "paid in", "of which fees", "took", "net"])
        for r in s.rows:
            writer.writerow([r.place or "", r.name, r.entries, r.rebuys, "yes" if r.addon else "", r.paid_in,
                             r.fees, r.took, r.net])
        writer.writerow(["", "total", "", "", "", s.paid_in, s.fees, s.took, s.took - s.paid_in])
        writer.writerow(["", "overlay added by the house", "", "", "", "", "", s.overlay, ""])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename(state, "csv", "sheet")}"'
    return response


@api.get("/api/t/<int:tournament_id>/sheet", summary="The host's sheet: what each player put in and took, "
         "and the totals", result=shapes.HostSheet, login=True)
def api_sheet(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    return jsonify(sheet_json(state, sheet(state)))
