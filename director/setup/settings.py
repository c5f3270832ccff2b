"""The settings after creation: the director corrects the name, the buy-in, the rebuy and
add-on rules, late registration, the payouts, the table size while the night runs.

Each save is one ``settings_changed`` event with only the fields that changed (so the log
says what changed and undo takes it back). The engine refuses, with the reason, a change that
contradicts what already happened ("2 players have already rebought twice: the limit cannot
go below 2"). The JSON twin is ``POST /api/t/<id>/settings``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request, url_for
from flask.typing import ResponseReturnValue

from director.core import inputs, shapes
from director.core.auth import login_required
from director.core.contract import Api, read
from director.core.db import get_db
from director.core.store import load_state
from director.core.web import act_and_say, now, render
from director.night import commands as services
from director.night.answers import answer
from engine.tournament import fixed_prizes_text, mystery_pool_text, settings_as_dict

bp = Blueprint("settings", __name__)
api = Api(bp, "tournament")


def context(tournament_id: int, **extra: Any) -> dict[str, Any]:
    state = load_state(get_db(), tournament_id)
    s = state.settings
    values = {
        "name": s.name, "buy_in": s.buy_in, "starting_stack": s.starting_stack, "table_size": s.table_size,
        "rebuy_levels": s.rebuy_levels, "max_rebuys": "" if s.max_rebuys is None else s.max_rebuys,
        "rebuy_when": s.rebuy_when, "rebuy_cost": s.rebuy_cost, "rebuy_chips": s.rebuy_chips,
        "addon_level": s.addon_level, "addon_cost": s.addon_cost, "addon_chips": s.addon_chips,
        "late_registration_levels": s.late_registration_levels, "payout_kind": s.payout_kind,
        "percentages": services.percentages_text(state) or "50/30/20", "league_formula": s.league_formula,
        "payout_unit": s.payout_unit, "pause_after_break": s.pause_after_break,
        "reentry_levels": s.reentry_levels, "max_reentries": "" if s.max_reentries is None else s.max_reentries,
        "fee_amount": s.fee_amount or "", "fee_percent": settings_as_dict(s)["fee_percent"],
        "guarantee": s.guarantee or "", "fixed_prizes": fixed_prizes_text(s.fixed_prizes),
        "min_prize_buy_in": s.min_prize_buy_in, "lock_payouts": s.lock_payouts,
        "bounty_kind": s.bounty_kind, "bounty": s.bounty or "", "pko_share": s.pko_share,
        "mystery_pool": mystery_pool_text(s.mystery_pool), "mystery_level": s.mystery_level,
        "action_seconds": s.action_seconds, "action_countdown": s.action_countdown,
    }
    return {"t": state, "tournament_id": tournament_id, "v": values, "editable": not state.finished,
            "payments": len(state.ledger.payments), **extra}


def page(tournament_id: int, **extra: Any) -> str:
    return render("settings/show.html", "settings/_form.html", **context(tournament_id, **extra))


@bp.get("/t/<int:tournament_id>/settings")
def show(tournament_id: int) -> ResponseReturnValue:
    return page(tournament_id)


def form_changes() -> dict[str, Any]:
    """The form's fields as the declared input. A blank rebuy limit is "no limit", and an
    unticked box is "no" (a form sends nothing for either)."""
    data = read(inputs.SettingsIn)
    given = data.given()
    for key in ("max_rebuys", "max_reentries"):
        if key in request.form and not request.form[key].strip():
            given[key] = None
    for box in ("pause_after_break", "min_prize_buy_in", "lock_payouts", "correct_payments"):
        given[box] = box in request.form
    for key in ("fee_amount", "guarantee", "bounty"):  # a blank is none
        if key in request.form and not request.form[key].strip():
            given[key] = 0
    for key in ("fee_percent", "fixed_prizes", "mystery_pool"):
        if key in request.form and not request.form[key].strip():
            given[key] = ""
    if given.get("payout_kind") != "custom":
        given.pop("percentages", None)
    return given


@bp.post("/t/<int:tournament_id>/settings")
@login_required
def save(tournament_id: int) -> ResponseReturnValue:
    def do() -> str:
        given = form_changes()
        return services.edit_settings(get_db(), tournament_id, given, given.get("expected_seq"), now())[1]

    return act_and_say(do, url_for("settings.show", tournament_id=tournament_id), lambda **kw: page(tournament_id, **kw))


@api.post("/api/t/<int:tournament_id>/settings", body=inputs.SettingsIn, result=shapes.TournamentChange,
          summary="Change the settings after creation (only the fields given; refused when it contradicts "
          "what already happened)")
def api_save(tournament_id: int, data: inputs.SettingsIn) -> ResponseReturnValue:
    _, message = services.edit_settings(get_db(), tournament_id, data.given(), data.expected_seq, now())
    return answer(tournament_id, notice=message)
