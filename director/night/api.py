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
from director.core.contract import Api
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.store import load_events, load_state
from director.core.web import now
from director.night import commands as services
from director.night.answers import answer, state_json, without_tokens
from director.night.results import results_data
from engine.errors import N_, IllegalAction, InvalidInput
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
    if auth.password_hash() is not None:
        raise IllegalAction("The director's password is already set: log in instead.")
    problem = auth.password_problem(data.password)
    if problem:
        raise InvalidInput(problem)
    auth.set_password(data.password)
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


@api.post("/tournaments", summary="Create a tournament", body=inputs.TournamentIn, result=shapes.Tournament,
          errors=(400, 401, 422))
def create_tournament(data: inputs.TournamentIn) -> ResponseReturnValue:
    tournament_id = services.create_tournament(get_db(), data.given(), now())
    return answer(tournament_id)


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
    load_state(get_db(), tournament_id)  # 404 for an unknown tournament
    return jsonify(
        events=[
            {"seq": e.seq, "type": e.type, "payload": shown_payload(e.payload), "at": e.at}
            for e in load_events(get_db(), tournament_id)
        ]
    )


@api.get("/t/<int:tournament_id>/export", summary="Everything: the state, the results and the event log",
         result=shapes.Export, login=True)
def export(tournament_id: int) -> ResponseReturnValue:
    db = get_db()
    state = load_state(db, tournament_id)
    return jsonify(
        tournament=state_json(state, tournament_id, now()),
        results=results_data(state),
        events=[
            {"seq": e.seq, "type": e.type, "payload": shown_payload(e.payload), "at": e.at}
            for e in load_events(db, tournament_id)
        ],
        app=current_app.name,
    )


@api.post("/t/<int:tournament_id>/players", summary="Register a player (late registration while it is open)",
          body=inputs.RegisterIn, result=shapes.Tournament)
def register(tournament_id: int, data: inputs.RegisterIn) -> ResponseReturnValue:
    services.register_player(get_db(), tournament_id, data.name, data.expected_seq, now())
    return answer(tournament_id)


@api.post("/t/<int:tournament_id>/players/<int:player_id>/remove",
          summary="Remove a player registered by mistake (before the clock starts)", body=inputs.Write,
          result=shapes.Tournament)
def remove(tournament_id: int, player_id: int, data: inputs.Write) -> ResponseReturnValue:
    services.unregister_player(get_db(), tournament_id, player_id, data.expected_seq, now())
    return answer(tournament_id)


@api.post("/t/<int:tournament_id>/players/<int:player_id>/rebuy", summary="A rebuy: the player back in his seat if it is free, else at a seat drawn as for a late entry", body=inputs.StackIn,
          result=shapes.Tournament)
def rebuy(tournament_id: int, player_id: int, data: inputs.StackIn) -> ResponseReturnValue:
    services.rebuy(get_db(), tournament_id, player_id, data.expected_seq, now(), data.stack)
    return answer(tournament_id)


@api.post("/t/<int:tournament_id>/players/<int:player_id>/reentry",
          summary="A re-entry: a player who is out enters again, with a new seat drawn as for a late entry",
          body=inputs.Write, result=shapes.Tournament)
def reentry(tournament_id: int, player_id: int, data: inputs.Write) -> ResponseReturnValue:
    services.reenter(get_db(), tournament_id, player_id, data.expected_seq, now())
    return answer(tournament_id)


@api.post("/t/<int:tournament_id>/players/<int:player_id>/addon", summary="The add-on", body=inputs.StackIn,
          result=shapes.Tournament)
def addon(tournament_id: int, player_id: int, data: inputs.StackIn) -> ResponseReturnValue:
    services.addon(get_db(), tournament_id, player_id, data.expected_seq, now(), data.stack)
    return answer(tournament_id)


def _clock_route(action: str) -> None:
    body = {"add_time": inputs.AddTimeIn, "break_now": inputs.BreakNowIn}.get(action, inputs.Write)

    def clock(tournament_id: int, data: inputs.Write) -> ResponseReturnValue:
        seconds = minutes = None
        if isinstance(data, inputs.AddTimeIn):
            seconds = 60 if data.seconds is None else data.seconds
        if isinstance(data, inputs.BreakNowIn):
            minutes = data.minutes
        services.clock_action(get_db(), tournament_id, action, data.expected_seq, now(), seconds, minutes)
        return answer(tournament_id)

    summary = "The clock: " + action.replace("_", " ") + {
        "add_time": " (seconds, negative to take)",
        "next_level": " (into the break when one comes next)",
        "break_now": " (the break after the level starts now; minutes: one put in when none follows)",
    }.get(action, "")
    api.post(f"/t/<int:tournament_id>/clock/{action}", summary=summary, body=body, result=shapes.Tournament,
             endpoint=f"clock_{action}")(clock)


for _action in CLOCK_ACTIONS:
    _clock_route(_action)
api.unknown("/t/<int:tournament_id>/clock/<action>", CLOCK_ACTIONS, N_("clock action"), 422)


@api.post("/t/<int:tournament_id>/colour-up", body=inputs.ColourUpIn, result=shapes.TournamentChange,
          summary="A table's colour-up at the break: the odd chips raced for with cards, the stacks and the "
          "chips in play changed by it (stacks: as counted, at a table without the dealer's assistant)")
def colour_up(tournament_id: int, data: inputs.ColourUpIn) -> ResponseReturnValue:
    _, words = services.colour_up(get_db(), tournament_id, data.table, data.stacks, data.expected_seq, now())
    return answer(tournament_id, notice=words)


@api.post("/t/<int:tournament_id>/bust", body=inputs.BustIn, result=shapes.Tournament,
          summary="A player out, or several out in the same hand (ranked by their chips at the start of the hand)")
def bust(tournament_id: int, data: inputs.BustIn) -> ResponseReturnValue:
    players = data.who()
    if not players:
        raise InvalidInput("Name the player who is out: 'player', or 'players' for several in one hand.")
    stacks = {str(k): v for k, v in (data.stacks or {}).items()}
    services.bust(get_db(), tournament_id, players, data.expected_seq, now(), by=data.by, stacks=stacks)
    return answer(tournament_id)


@api.post("/t/<int:tournament_id>/undo", summary="Undo the last entry", body=inputs.Write, result=shapes.Tournament)
def undo(tournament_id: int, data: inputs.Write) -> ResponseReturnValue:
    services.undo(get_db(), tournament_id, data.expected_seq, now())
    return answer(tournament_id)


@api.post("/t/<int:tournament_id>/redo", summary="Redo the last entry undone (until something new is entered)",
          body=inputs.Write, result=shapes.Tournament)
def redo(tournament_id: int, data: inputs.Write) -> ResponseReturnValue:
    services.redo(get_db(), tournament_id, data.expected_seq, now())
    return answer(tournament_id)


@api.post("/t/<int:tournament_id>/seats/draw", summary="Draw seats at random for everyone still in",
          body=inputs.Write, result=shapes.Tournament)
def draw(tournament_id: int, data: inputs.Write) -> ResponseReturnValue:
    services.draw(get_db(), tournament_id, data.expected_seq, now())
    return answer(tournament_id)


@api.post("/t/<int:tournament_id>/moves/apply", summary="Record the balancing, table break or final-table moves shown",
          body=inputs.Write, result=shapes.Tournament)
def apply_moves(tournament_id: int, data: inputs.Write) -> ResponseReturnValue:
    services.apply_table_step(get_db(), tournament_id, data.expected_seq, now())
    return answer(tournament_id)


@api.post("/t/<int:tournament_id>/rebuys/close", summary="Close rebuys now", body=inputs.Write,
          result=shapes.Tournament)
def close_rebuys(tournament_id: int, data: inputs.Write) -> ResponseReturnValue:
    services.close_rebuys(get_db(), tournament_id, data.expected_seq, now())
    return answer(tournament_id)


@api.post("/t/<int:tournament_id>/payouts/lock", summary="Lock the payouts at the money: who is paid and the "
          "shape of the prizes stay; later money is shared in proportion to them", body=inputs.Write,
          result=shapes.Tournament)
def lock_payouts(tournament_id: int, data: inputs.Write) -> ResponseReturnValue:
    services.lock_payouts(get_db(), tournament_id, data.expected_seq, now())
    return answer(tournament_id)


@api.post("/t/<int:tournament_id>/hand-cap", body=inputs.HandCapIn, result=shapes.Tournament,
          summary="End at the hand cap (seed 000: 120 hands): the players still in are ranked by their chips")
def hand_cap(tournament_id: int, data: inputs.HandCapIn) -> ResponseReturnValue:
    stacks = {str(k): v for k, v in data.stacks.items()}
    services.end_at_hand_cap(get_db(), tournament_id, stacks, data.expected_seq, now())
    return answer(tournament_id)


@session_api.get("/openapi.json", summary="This document", result=shapes.Document, errors=())
def openapi() -> ResponseReturnValue:
    from director.core.contract import document

    return jsonify(document(current_app))
