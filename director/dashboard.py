"""The dashboard of a running tournament: clock and controls, figures, tables, players and busts."""

from __future__ import annotations

from flask import Blueprint
from flask.typing import ResponseReturnValue

from director.db import get_db
from director.events import load_state
from director.web import render

bp = Blueprint("dashboard", __name__)


@bp.get("/t/<int:tournament_id>")
def show(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    return render("dashboard/show.html", tournament_id=tournament_id, t=state)
