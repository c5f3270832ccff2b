"""Players: register entrants (names remembered from earlier tournaments), late registration,
the seat draw, rebuys and add-ons with one tap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, request, url_for
from flask.typing import ResponseReturnValue

from director.core.auth import role_required
from director.core.commands import Command, page_route, perform
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.store import load_state
from director.core.web import act, now, render
from director.night.commands import (
    addon_command,
    known_names,
    rebuy_command,
    reentry_command,
    register_command,
    remove_command,
)
from director.night.views import dashboard_context
from director.tables.commands import draw_command, seat_command

bp = Blueprint("players", __name__)


def context(tournament_id: int, **extra: Any) -> dict[str, Any]:
    db = get_db()
    state = load_state(db, tournament_id)
    ctx = dashboard_context(state, tournament_id, now())
    ctx["known_names"] = known_names(db, state)
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
@role_required  # the command says which roles may
def register(tournament_id: int) -> ResponseReturnValue:
    name = str(request.form.get("name", ""))
    clean = " ".join(name.split())
    return _act(tournament_id, lambda: perform(register_command, tournament_id=tournament_id),
                gettext("%(name)s registered.", name=clean) if clean else None, typed_name=name)


def _answer(tournament_id: int, do: Callable[[], object]) -> ResponseReturnValue:
    """From the dashboard (``back=dashboard``) the dashboard answers; else the players' page."""
    if request.form.get("back") == "dashboard":
        from director.night.pages import dashboard_act

        return dashboard_act(tournament_id, do)
    return _act(tournament_id, do)


def _player_route(word: str, cmd: Command) -> None:
    def respond(do: Callable[[], object], tournament_id: int, player_id: int) -> ResponseReturnValue:
        return _answer(tournament_id, do)

    page_route(bp, f"/t/<int:tournament_id>/players/<int:player_id>/{word}", cmd, respond, endpoint=word)


_player_route("rebuy", rebuy_command)
_player_route("addon", addon_command)
_player_route("reenter", reentry_command)
_player_route("remove", remove_command)


@bp.post("/t/<int:tournament_id>/players/<int:player_id>/seat")
@role_required  # the command says which roles may
def seat(tournament_id: int, player_id: int) -> ResponseReturnValue:
    """A seat for a player back after a rebuy or registered after the draw (``tables.seat``,
    the player named by the page's address)."""
    fields = {**request.form.to_dict(), "player": player_id}
    return _answer(tournament_id, lambda: perform(seat_command, fields, tournament_id=tournament_id))


page_route(bp, "/t/<int:tournament_id>/seats/draw", draw_command,
           lambda do, tournament_id: _act(tournament_id, do, gettext("Seats drawn.")), endpoint="draw")
