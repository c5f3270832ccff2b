"""The JSON API: every action of the director's pages, through the same services.

Authentication is the director's session cookie plus the CSRF token in an ``X-CSRFToken``
header, exactly as the pages do: ``GET /api/session`` gives the token, ``POST /api/login``
opens the session. Errors are ``{"error": "..."}`` with a 4xx status (401 not logged in,
404 unknown tournament, 409 stale ``expected_seq``, 422 refused by the rules). The OpenAPI
document is at ``/api/openapi.json`` (``director.openapi``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, session
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf

from director import auth, services
from director.dashboard import bust_fields
from director.db import get_db
from director.events import load_events, load_state
from director.results import results_data
from director.views import ordinal
from director.web import expected_seq, now, parse_int, values
from engine.clock import ClockState
from engine.errors import IllegalAction, InvalidInput
from engine.structure import structure_to_dict
from engine.tournament import CLOCK_ACTIONS, Tournament

bp = Blueprint("api", __name__, url_prefix="/api")


# --- JSON shapes --------------------------------------------------------------------------


def clock_json(clock: ClockState) -> dict[str, Any]:
    return {
        "status": clock.status,
        "title": clock.title,
        "level": clock.level_number,
        "on_break": clock.on_break,
        "small_blind": clock.small_blind,
        "big_blind": clock.big_blind,
        "ante": clock.ante,
        "seconds_left": clock.seconds_left,
        "ends_at": clock.ends_at,
        "next_level": clock.next_level_number,
        "break_next": clock.break_next,
        "hands_played": clock.hands_played,
        "hands_left_in_level": clock.hands_left_in_level,
        "hand_cap": clock.hand_cap,
    }


def state_json(state: Tournament, tournament_id: int, at: float) -> dict[str, Any]:
    """The tournament as the API shows it, with the clock read at ``at``."""
    places = state.places()
    by = state.eliminated_by()
    awards = state.awards()
    s = state.settings
    return {
        "id": tournament_id,
        "name": state.name,
        "seq": state.seq,
        "server_time": at,
        "started": state.started,
        "finished": state.finished,
        "settings": {
            "starting_stack": s.starting_stack,
            "table_size": s.table_size,
            "buy_in": s.buy_in,
            "rebuy_levels": s.rebuy_levels,
            "max_rebuys": s.max_rebuys,
            "rebuy_cost": s.rebuy_cost,
            "rebuy_chips": s.rebuy_chips,
            "addon_level": s.addon_level,
            "addon_cost": s.addon_cost,
            "addon_chips": s.addon_chips,
            "late_registration_levels": s.late_registration_levels,
            "payout_kind": s.payout_kind,
            "structure": structure_to_dict(s.structure),
        },
        "clock": clock_json(state.clock_at(at)),
        "entries": state.entries,
        "players_left": state.players_left,
        "rebuys": state.rebuys,
        "addons": state.addons,
        "chips_in_play": state.chips_in_play,
        "average_stack": state.average_stack,
        "prize_pool": None if s.payout_kind == "points" else state.prize_pool,
        "payouts": [{"place": i, "prize": p} for i, p in enumerate(state.prizes, start=1)],
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "status": p.status,
                "table": p.table,
                "seat": p.seat,
                "rebuys": p.rebuys,
                "addon": p.addon,
                "place": places.get(p.id),
                "place_text": ordinal(places[p.id]) if p.id in places else None,
                "knocked_out_by": by.get(p.id),
                "prize": awards.get(p.id),
            }
            for p in state.players
        ],
        "tables": {str(t): [p.id for p in ps] for t, ps in state.tables().items()},
    }


def answer(tournament_id: int, status: int = 201) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    return jsonify(state_json(state, tournament_id, now())), status


def seq_of(data: dict[str, Any], tournament_id: int) -> int:
    return expected_seq(data, load_state(get_db(), tournament_id).seq)


# --- session ------------------------------------------------------------------------------


@bp.get("/session")
def session_info() -> ResponseReturnValue:
    """The CSRF token for this session, and whether the director is logged in."""
    return jsonify(
        csrf_token=generate_csrf(),
        logged_in=auth.is_director(),
        password_set=auth.password_hash() is not None,
    )


@bp.post("/setup-password")
def setup_password() -> ResponseReturnValue:
    """First start only: set the director's password (and log in)."""
    if auth.password_hash() is not None:
        raise IllegalAction("The director's password is already set: log in instead.")
    data = values()
    password = str(data.get("password", ""))
    problem = auth.password_problem(password)
    if problem:
        raise InvalidInput(problem)
    auth.set_password(password)
    auth.log_in()
    return jsonify(logged_in=True, csrf_token=generate_csrf()), 201


@bp.post("/login")
def login() -> ResponseReturnValue:
    data = values()
    if not auth.check_password(str(data.get("password", ""))):
        return jsonify(error="That is not the director's password."), 401
    auth.log_in()
    return jsonify(logged_in=True, csrf_token=generate_csrf())


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    session.clear()
    return jsonify(logged_in=False)


# --- tournaments --------------------------------------------------------------------------


@bp.get("/tournaments")
def tournaments() -> ResponseReturnValue:
    rows = get_db().query(
        "SELECT id, name, created_at, last_seq FROM tournaments WHERE kind = 'tournament' ORDER BY created_at DESC, id DESC"
    )
    return jsonify(tournaments=[{"id": r["id"], "name": r["name"], "created_at": r["created_at"], "seq": r["last_seq"]} for r in rows])


@bp.post("/tournaments")
@auth.login_required
def create_tournament() -> ResponseReturnValue:
    tournament_id = services.create_tournament(get_db(), values(), now())
    return answer(tournament_id)


@bp.post("/demo")
@auth.login_required
def demo() -> ResponseReturnValue:
    from director.demo import fill_demo

    return answer(fill_demo(get_db(), now()))


@bp.get("/t/<int:tournament_id>")
def tournament(tournament_id: int) -> ResponseReturnValue:
    return answer(tournament_id, 200)


def shown_payload(payload: Any) -> Any:
    """Players' page tokens are for the director's eyes (and the seat cards) only."""
    from director.player import without_tokens

    return payload if auth.is_director() else without_tokens(payload)


@bp.get("/t/<int:tournament_id>/events")
@auth.login_required
def events(tournament_id: int) -> ResponseReturnValue:
    load_state(get_db(), tournament_id)  # 404 for an unknown tournament
    return jsonify(
        events=[
            {"seq": e.seq, "type": e.type, "payload": shown_payload(e.payload), "at": e.at}
            for e in load_events(get_db(), tournament_id)
        ]
    )


@bp.get("/t/<int:tournament_id>/export")
@auth.login_required
def export(tournament_id: int) -> ResponseReturnValue:
    """Everything: the state, the results and the full event log."""
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


@bp.post("/t/<int:tournament_id>/players")
@auth.login_required
def register(tournament_id: int) -> ResponseReturnValue:
    data = values()
    services.register_player(get_db(), tournament_id, data.get("name"), seq_of(data, tournament_id), now())
    return answer(tournament_id)


@bp.post("/t/<int:tournament_id>/players/<int:player_id>/remove")
@auth.login_required
def remove(tournament_id: int, player_id: int) -> ResponseReturnValue:
    data = values()
    services.unregister_player(get_db(), tournament_id, player_id, seq_of(data, tournament_id), now())
    return answer(tournament_id)


@bp.post("/t/<int:tournament_id>/players/<int:player_id>/rebuy")
@auth.login_required
def rebuy(tournament_id: int, player_id: int) -> ResponseReturnValue:
    data = values()
    services.rebuy(get_db(), tournament_id, player_id, seq_of(data, tournament_id), now(), data.get("stack"))
    return answer(tournament_id)


@bp.post("/t/<int:tournament_id>/players/<int:player_id>/addon")
@auth.login_required
def addon(tournament_id: int, player_id: int) -> ResponseReturnValue:
    data = values()
    services.addon(get_db(), tournament_id, player_id, seq_of(data, tournament_id), now(), data.get("stack"))
    return answer(tournament_id)


@bp.post("/t/<int:tournament_id>/clock/<action>")
@auth.login_required
def clock(tournament_id: int, action: str) -> ResponseReturnValue:
    if action not in CLOCK_ACTIONS:
        raise InvalidInput(f"Unknown clock action {action!r}: use one of {', '.join(CLOCK_ACTIONS)}.")
    data = values()
    seconds = parse_int(data.get("seconds"), "number of seconds", default=60) if action == "add_time" else None
    services.clock_action(get_db(), tournament_id, action, seq_of(data, tournament_id), now(), seconds)
    return answer(tournament_id)


@bp.post("/t/<int:tournament_id>/bust")
@auth.login_required
def bust(tournament_id: int) -> ResponseReturnValue:
    data = values()
    players, stacks, by = bust_fields(data)
    if not players:
        raise InvalidInput("Name the player who is out: 'player', or 'players' for several in one hand.")
    services.bust(get_db(), tournament_id, players, seq_of(data, tournament_id), now(), by=by, stacks=stacks)
    return answer(tournament_id)


@bp.post("/t/<int:tournament_id>/undo")
@auth.login_required
def undo(tournament_id: int) -> ResponseReturnValue:
    data = values()
    services.undo(get_db(), tournament_id, seq_of(data, tournament_id), now())
    return answer(tournament_id)


@bp.post("/t/<int:tournament_id>/seats/draw")
@auth.login_required
def draw(tournament_id: int) -> ResponseReturnValue:
    data = values()
    services.draw(get_db(), tournament_id, seq_of(data, tournament_id), now())
    return answer(tournament_id)


@bp.post("/t/<int:tournament_id>/moves/apply")
@auth.login_required
def apply_moves(tournament_id: int) -> ResponseReturnValue:
    data = values()
    services.apply_table_step(get_db(), tournament_id, seq_of(data, tournament_id), now())
    return answer(tournament_id)


@bp.post("/t/<int:tournament_id>/rebuys/close")
@auth.login_required
def close_rebuys(tournament_id: int) -> ResponseReturnValue:
    data = values()
    services.close_rebuys(get_db(), tournament_id, seq_of(data, tournament_id), now())
    return answer(tournament_id)


@bp.post("/t/<int:tournament_id>/hand-cap")
@auth.login_required
def hand_cap(tournament_id: int) -> ResponseReturnValue:
    data = values()
    stacks = data.get("stacks")
    if not isinstance(stacks, dict):
        raise InvalidInput("Give 'stacks': the chips of every player still in, by player id.")
    services.end_at_hand_cap(get_db(), tournament_id, stacks, seq_of(data, tournament_id), now())
    return answer(tournament_id)


@bp.get("/openapi.json")
def openapi() -> ResponseReturnValue:
    from director.openapi import document

    return jsonify(document(current_app))
