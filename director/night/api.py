"""The JSON API: every action of the director's pages, through the same services.

Authentication is the director's session cookie plus the CSRF token in an ``X-CSRFToken``
header, exactly as the pages do: ``GET /api/session`` gives the token, ``POST /api/login``
opens the session. Errors are ``{"error": "..."}`` with a 4xx status (401 not logged in,
404 unknown tournament, 409 stale ``expected_seq``, 422 refused by the rules). The OpenAPI
document at ``/api/openapi.json`` is made from the routes' declarations (``director.contract``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, session
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf

from director.core import auth, inputs, shapes
from director.core.commands import REGISTRY, api_route, run
from director.core.contract import Api
from director.core.db import get_db
from director.core.first_start import password_command
from director.core.i18n import gettext
from director.core.store import load_authors, load_events, load_state
from director.core.web import now
from director.night.answers import answer, state_json, without_tokens
from director.night.commands import (
    addon_command,
    bust_command,
    close_rebuys_command,
    colour_up_command,
    hand_cap_command,
    lock_payouts_command,
    rebuy_command,
    redo_command,
    reentry_command,
    register_command,
    remove_command,
    undo_command,
)
from director.night.results import results_data
from director.setup.commands import create_command
from director.tables.commands import confirm_command, draw_command
from engine.errors import N_
from engine.tournament import CLOCK_ACTIONS

bp = Blueprint("api", __name__, url_prefix="/api")


api = Api(bp, "tournament")
session_api = Api(bp, "session")


# --- session ------------------------------------------------------------------------------


@session_api.get("/session", summary="The CSRF token of this session and whether the director is logged in",
                 result=shapes.Session, errors=())
def session_info() -> ResponseReturnValue:
    return jsonify(
        csrf_token=generate_csrf(),
        logged_in=auth.is_director(),
        password_set=auth.password_hash() is not None,
    )


@session_api.post("/setup-password", summary="First start only: set the director's password (and log in)",
                  body=inputs.PasswordIn, result=shapes.Session, login=False, errors=(400,))
def setup_password(data: inputs.PasswordIn) -> ResponseReturnValue:
    run(password_command, data, db=get_db(), now=now())
    auth.log_in()
    return jsonify(logged_in=True, csrf_token=generate_csrf()), 201


@session_api.post("/login", summary="Log in as the director", body=inputs.PasswordIn, result=shapes.Session,
                  status=200, login=False, errors=(400, 401, 429))
def login(data: inputs.PasswordIn) -> ResponseReturnValue:
    if not auth.check_password(data.password):
        return jsonify(error=gettext("That is not the director's password.")), 401
    auth.log_in()
    return jsonify(logged_in=True, csrf_token=generate_csrf())


@session_api.post("/logout", summary="Log out", result=shapes.Session, status=200, login=False, errors=(400,))
def logout() -> ResponseReturnValue:
    session.clear()
    return jsonify(logged_in=False)


# --- tournaments --------------------------------------------------------------------------


@api.get("/tournaments", summary="The tournaments, newest first", result=shapes.Tournaments, errors=())
def tournaments() -> ResponseReturnValue:
    rows = get_db().query(
        "SELECT id, name, created_at, last_seq FROM streams WHERE kind = 'tournament' ORDER BY created_at DESC, id DESC"
    )
    return jsonify(tournaments=[{"id": r["id"], "name": r["name"], "created_at": r["created_at"], "seq": r["last_seq"]} for r in rows])


api_route(api, "/tournaments", create_command, lambda created: answer(created.tournament_id), result=shapes.Tournament,
          errors=(400, 401, 422), endpoint="create_tournament")


@api.post("/demo", summary="Fill a demo tournament in the middle of the game", result=shapes.Tournament,
          errors=(400, 401, 422))
def demo() -> ResponseReturnValue:
    from director.home.demo import fill_demo

    return answer(fill_demo(get_db(), now()))


@api.get("/t/<int:tournament_id>", summary="The tournament's state, the clock read now", result=shapes.Tournament)
def tournament(tournament_id: int) -> ResponseReturnValue:
    return answer(tournament_id, 200)


def shown_payload(payload: Any) -> Any:
    """Players' page tokens are for the director's eyes (and the seat cards) only."""
    return payload if auth.is_director() else without_tokens(payload)


@api.get("/t/<int:tournament_id>/events", summary="The event log (the director's: it holds every hand's cards)",
         result=shapes.Events, login=True)
def events(tournament_id: int) -> ResponseReturnValue:
    db = get_db()
    load_state(db, tournament_id)  # 404 for an unknown tournament
    authors = load_authors(db, tournament_id)
    return jsonify(
        events=[
            {"seq": e.seq, "type": e.type, "payload": shown_payload(e.payload), "at": e.at,
             "author": authors.get(e.seq)}
            for e in load_events(db, tournament_id)
        ]
    )


@api.get("/t/<int:tournament_id>/export", summary="Everything: the state, the results and the event log",
         result=shapes.Export, login=True)
def export(tournament_id: int) -> ResponseReturnValue:
    db = get_db()
    state = load_state(db, tournament_id)
    authors = load_authors(db, tournament_id)
    return jsonify(
        tournament=state_json(state, tournament_id, now()),
        results=results_data(state),
        events=[
            {"seq": e.seq, "type": e.type, "payload": shown_payload(e.payload), "at": e.at,
             "author": authors.get(e.seq)}
            for e in load_events(db, tournament_id)
        ],
        app=current_app.name,
    )


def _state(done: Any, tournament_id: int, **_ids: Any) -> ResponseReturnValue:
    return answer(tournament_id)


def _notice(done: Any, tournament_id: int) -> ResponseReturnValue:
    return answer(tournament_id, notice=done.said)


for _rule, _command, _endpoint in (
    ("/t/<int:tournament_id>/players", register_command, "register"),
    ("/t/<int:tournament_id>/players/<int:player_id>/remove", remove_command, "remove"),
    ("/t/<int:tournament_id>/players/<int:player_id>/rebuy", rebuy_command, "rebuy"),
    ("/t/<int:tournament_id>/players/<int:player_id>/reentry", reentry_command, "reentry"),
    ("/t/<int:tournament_id>/players/<int:player_id>/addon", addon_command, "addon"),
    ("/t/<int:tournament_id>/bust", bust_command, "bust"),
    ("/t/<int:tournament_id>/undo", undo_command, "undo"),
    ("/t/<int:tournament_id>/redo", redo_command, "redo"),
    ("/t/<int:tournament_id>/seats/draw", draw_command, "draw"),
    ("/t/<int:tournament_id>/moves/apply", confirm_command, "apply_moves"),
    ("/t/<int:tournament_id>/rebuys/close", close_rebuys_command, "close_rebuys"),
    ("/t/<int:tournament_id>/payouts/lock", lock_payouts_command, "lock_payouts"),
    ("/t/<int:tournament_id>/hand-cap", hand_cap_command, "hand_cap"),
    *((f"/t/<int:tournament_id>/clock/{a}", REGISTRY[f"night.clock.{a}"], f"clock_{a}") for a in CLOCK_ACTIONS),
):
    api_route(api, _rule, _command, _state, result=shapes.Tournament, endpoint=_endpoint)
api_route(api, "/t/<int:tournament_id>/colour-up", colour_up_command, _notice, result=shapes.TournamentChange,
          endpoint="colour_up")
api.unknown("/t/<int:tournament_id>/clock/<action>", CLOCK_ACTIONS, N_("clock action"), 422)


@session_api.get("/openapi.json", summary="This document", result=shapes.Document, errors=())
def openapi() -> ResponseReturnValue:
    from director.core.contract import document

    return jsonify(document(current_app))
