"""Players: register entrants (names remembered from earlier tournaments), late registration,
the seat draw, rebuys and add-ons with one tap."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request, url_for
from flask.typing import ResponseReturnValue

from director.core import inputs
from director.core.auth import login_required
from director.core.contract import Write, read
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.store import load_state
from director.core.web import act, now, render
from director.night import commands as services
from director.night.views import dashboard_context

bp = Blueprint("players", __name__)


def context(tournament_id: int, **extra: Any) -> dict[str, Any]:
    db = get_db()
    state = load_state(db, tournament_id)
    ctx = dashboard_context(state, tournament_id, now())
    ctx["known_names"] = services.known_names(db, state)
    ctx.update(extra)
    return ctx


def page(tournament_id: int, **extra: Any) -> str:
    return render("players/show.html", "players/_panel.html", **context(tournament_id, **extra))


@bp.get("/t/<int:tournament_id>/players")
def show(tournament_id: int) -> ResponseReturnValue:
    return page(tournament_id)


def _act(tournament_id: int, do: Any, message: str | None = None, **extra: Any) -> ResponseReturnValue:
    return act(
        do,
        url_for("players.show", tournament_id=tournament_id),
        lambda **kw: page(tournament_id, **{**extra, **kw}),
        message=message,
    )


@bp.post("/t/<int:tournament_id>/players")
@login_required
def register(tournament_id: int) -> ResponseReturnValue:
    name = str(request.form.get("name", ""))

    def do() -> None:
        data = read(inputs.RegisterIn)
        services.register_player(get_db(), tournament_id, data.name, data.expected_seq, now())

    clean = " ".join(name.split())
    return _act(tournament_id, do, gettext("%(name)s registered.", name=clean) if clean else None, typed_name=name)


@bp.post("/t/<int:tournament_id>/players/<int:player_id>/<any(rebuy, addon, reenter, seat, remove):action>")
@login_required
def player_action(tournament_id: int, player_id: int, action: str) -> ResponseReturnValue:
    back = request.form.get("back") == "dashboard"

    def do() -> None:
        db = get_db()
        data = read(inputs.StackIn)
        seq = data.expected_seq
        if action == "rebuy":
            services.rebuy(db, tournament_id, player_id, seq, now(), data.stack)
        elif action == "addon":
            services.addon(db, tournament_id, player_id, seq, now(), data.stack)
        elif action == "reenter":
            services.reenter(db, tournament_id, player_id, seq, now())
        elif action == "remove":
            services.unregister_player(db, tournament_id, player_id, seq, now())
        else:
            services.seat_player(db, tournament_id, player_id, seq, now())

    if back:
        from director.night.pages import dashboard_act

        return dashboard_act(tournament_id, do)
    return _act(tournament_id, do)


@bp.post("/t/<int:tournament_id>/seats/draw")
@login_required
def draw(tournament_id: int) -> ResponseReturnValue:
    def do() -> None:
        services.draw(get_db(), tournament_id, read(Write).expected_seq, now())

    return _act(tournament_id, do, gettext("Seats drawn."))

