"""Home: the tournaments, those in play first, then those to come, then finished ones (newest
first in each); create one, open one, or fill a demo."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, url_for
from flask.typing import ResponseReturnValue

from director.core.auth import is_director, login_required, password_hash
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.store import load_state
from director.core.web import now, render
from director.core.words import say
from engine.errors import EngineError

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> ResponseReturnValue:
    if password_hash() is None:
        return redirect(url_for("first_start.page"))
    rows = list(
        get_db().query(
            "SELECT id, name, created_at, last_seq, archived_at FROM streams WHERE kind = 'tournament' "
            "ORDER BY created_at DESC, id DESC"
        )
    )
    db = get_db()
    at = now()
    items = []
    for row in rows:
        phase = "playing"
        try:
            state = load_state(db, row["id"])
            clock = state.clock_at(at)
            if state.finished:
                winner = next((state.name_of(p) for p, place in state.places().items() if place == 1), "")
                status = gettext("Finished · won by %(winner)s", winner=winner) if winner else gettext("Finished")
                phase = "finished"
            elif state.started:
                status = gettext("%(level)s · %(left)s of %(entries)s left", level=say(clock.title),
                                 left=state.players_left, entries=state.entries)
            else:
                status = gettext("Not started · %(entries)s registered", entries=state.entries)
                phase = "coming"
        except EngineError:
            status = gettext("Cannot be read: see its event log")
        items.append({**row, "status": status, "phase": phase})
    order = {"playing": 0, "coming": 1, "finished": 2}
    items.sort(key=lambda item: order[item["phase"]])  # stable: newest first within each
    listed = [item for item in items if item["archived_at"] is None]
    archived = [item for item in items if item["archived_at"] is not None]
    from director.club.autobackup import status_lines

    copies = status_lines(current_app.config["DATABASE"]) if is_director() else []
    return render("home/index.html", "home/_list.html", tournaments=listed, archived=archived, copies=copies)


@bp.post("/demo")
@login_required
def demo() -> ResponseReturnValue:
    from director.home.demo import fill_demo

    tournament_id = fill_demo(get_db(), now())
    return redirect(url_for("dashboard.show", tournament_id=tournament_id), code=303)
