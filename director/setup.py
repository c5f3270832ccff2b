"""New tournament: name, structure, chips, tables, rebuys and add-ons, buy-in and payouts."""

from __future__ import annotations

from flask import Blueprint
from flask.typing import ResponseReturnValue

from director.auth import login_required
from director.web import render

bp = Blueprint("setup", __name__)


@bp.get("/new")
@login_required
def new() -> ResponseReturnValue:
    return render("setup/new.html")
