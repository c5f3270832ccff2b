"""Results: finishing places, payouts or points, eliminations, rebuys and add-ons;
export as CSV and JSON; a printable sheet."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, Response, render_template
from flask.typing import ResponseReturnValue

from director.core.db import get_db
from director.core.spreadsheets import csv_response
from director.core.store import load_state
from director.core.web import now, render
from director.night.views import night_view, ordinal, player_rows
from director.screens.charts import stacks_chart
from engine.tournament import Tournament

bp = Blueprint("results", __name__)


def results_data(state: Tournament) -> dict[str, Any]:
    """The results as plain data (the JSON export, and what the pages show)."""
    rows = player_rows(state)
    points = state.settings.payout_kind == "points"
    standings = []
    def order(r: Any) -> tuple[int, int, int]:
        place = r.place or r.provisional
        return (1, place, r.player.id) if place else (0, 0, r.player.id)

    for row in sorted(rows, key=order):
        p = row.player
        standings.append(
            {
                "place": row.place,
                "player_id": p.id,
                "name": p.name,
                "status": p.status,
                "prize": None if points else (row.award or 0),
                "points": row.points if points else None,
                "knocked_out_by": row.eliminated_by,
                "rebuys": p.rebuys,
                "addon": p.addon,
                "reentries": p.reentries,
                "bounties": row.bounties_won,
            }
        )
    knockouts = state.ledger.knockouts
    bounty_night = state.settings.bounty_kind != "none"
    eliminations = [
        {
            "player": state.name_of(b.player),
            "by": state.name_of(b.by) if b.by is not None else None,
            "chips_at_start_of_hand": b.stack or None,
            "bounty": sum(m for _, m in knockouts[n].won) if bounty_night and n < len(knockouts) else None,
        }
        for n, b in enumerate(state.standings.history)
    ]
    return {
        "tournament": state.name,
        "finished": state.finished,
        "entries": state.entries,
        "rebuys": state.rebuys,
        "addons": state.addons,
        "prize_pool": None if points else state.prize_pool,
        "fees": None if points else state.pool.fees,
        "overlay": None if points else state.pool.overlay,
        "deal": None if state.deal is None else {
            "method": state.deal.method,
            "shares": [{"player": state.name_of(pid), "amount": m} for pid, m in state.deal.amounts],
            "play_for": state.deal.play_for,
        },
        "payouts": [] if points else [{"place": i, "prize": p} for i, p in enumerate(state.prizes, start=1)],
        "league_formula": state.settings.league_formula if points else None,
        "standings": standings,
        "eliminations": eliminations,
    }


def context(tournament_id: int) -> dict[str, Any]:
    state = load_state(get_db(), tournament_id)
    return {
        "t": night_view(state, tournament_id),
        "tournament_id": tournament_id,
        "results": results_data(state),
        "ordinal": ordinal,
        "printed_at": now(),
        "stacks_chart": stacks_chart(state),
    }


def filename(state: Tournament, ext: str, what: str = "results") -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", state.name).strip("-").lower() or "tournament"
    return f"{slug}-{what}.{ext}"


@bp.get("/t/<int:tournament_id>/results")
def show(tournament_id: int) -> ResponseReturnValue:
    return render("results/show.html", "results/_sheet.html", **context(tournament_id))


@bp.get("/t/<int:tournament_id>/results/print")
def printable(tournament_id: int) -> ResponseReturnValue:
    return render_template("results/print.html", **context(tournament_id))


@bp.get("/t/<int:tournament_id>/results.json")
def export_json(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    response = Response(
        json.dumps(results_data(state), indent=2, ensure_ascii=False),
        mimetype="application/json",
    )
    response.headers["Content-Disposition"] = f'attachment; filename="{filename(state, "json")}"'
    return response


@bp.get("/t/<int:tournament_id>/results.csv")
def export_csv(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    data = results_data(state)
    rows: list[list[Any]] = []
    points = state.settings.payout_kind == "points"
    # Re-entries get their column where the tournament has them (other sheets keep their columns).
    reentries = bool(state.settings.reentry_levels) or any(p.reentries for p in state.players)
    bounty_night = state.settings.bounty_kind != "none"
    header = ["place", "name", "points" if points else "prize", "knocked out by", "rebuys", "add-on"]
    rows.append([*header, *(["re-entries"] if reentries else []), *(["bounties"] if bounty_night else [])])
    for row in data["standings"]:
        rows.append(
            [
                row["place"] or "",
                row["name"],
                row["points"] if points else row["prize"],
                row["knocked_out_by"] or "",
                row["rebuys"],
                "yes" if row["addon"] else "",
                *([row["reentries"]] if reentries else []),
                *([row["bounties"]] if bounty_night else []),
            ]
        )
    return csv_response(rows, filename(state, "csv"))
